//! Heuristic strategies for sums, and play-outs between strategies.
//!
//! Only moves in non-number components are ever chosen (number avoidance);
//! a strategy returns `None` when every component is a number. Every choice
//! is deterministic.
//!
//! * **Hotstrat** (Chang, “Hotstrat Optimality Fails” §1; Berlekamp 1996, "The economist's view of
//!   combinatorial games", *Games of No Chance*): move in a component of
//!   highest temperature; ties go to the lowest component index. In that
//!   component Left takes the option with the largest Right stop (the move
//!   that achieves the component's Left stop), Right the option with the
//!   smallest Left stop; remaining ties go to the option with the better mean
//!   for the mover, then to the first in canonical option order.
//!
//! * **Sentestrat** (Berlekamp 1996): the *ambient temperature* is the lowest
//!   value the board temperature (the largest temperature of a non-number
//!   component) has taken in the positions of the game so far, the current
//!   one included; it never rises. If the opponent's last move left the
//!   component it was played in hotter than the ambient temperature (a sente
//!   threat, or a hot fight), answer in that component, with the Hotstrat
//!   choice of option; otherwise play Hotstrat. [`sentestrat`] is the first
//!   move of a game (no history: it is Hotstrat); [`sentestrat_after`] takes
//!   the history as a [`SenteContext`]; [`play_out`] keeps it.
//!
//! * **Thermostrat** (Winning Ways, 2nd ed., vol. 1, ch. 6; this is our
//!   reading of it). With `L_i(t)`, `R_i(t)` the walls of the thermograph of
//!   component `i` and `W_i = L_i - R_i` its width, the *compound thermograph*
//!   has right wall `Σ R_i(t)` and left wall `CL(t) = Σ R_i(t) + max_i W_i(t)`
//!   (Left moves in the widest component, every other component is counted at
//!   its right wall). Left picks the smallest `t* ≥ 0` at which `CL` is
//!   largest, moves in the component widest at `t*` (ties: lowest index), and
//!   there takes the option whose thermograph gives that component's left
//!   wall at `t*`, i.e. the Left option `G^L` maximising `RW_{G^L}(t*)` (ties:
//!   larger Right stop, then canonical order). Right is symmetric:
//!   `CR(t) = Σ L_i(t) - max_i W_i(t)`, smallest `t*` at which `CR` is least,
//!   the widest component there, the Right option minimising `LW_{G^R}(t*)`.
//!   If every width is 0 at `t*` (only number-ish components are left), it
//!   plays Hotstrat. `CL` is piecewise linear and convex where the widest
//!   component changes, so its maximum is found among `t = 0` and the wall
//!   breakpoints.
//!
//! * **Optimal**: the first move of [`super::solve`]'s principal variation.

use super::search::Solver;
use super::{Line, Move, MoveRecord, PlayResult, Player, DEFAULT_BUDGET};
use crate::game::{Dyadic, GameId, Store};
use num_rational::BigRational;
use num_traits::Zero;

/// Which strategy a player follows in [`play_out`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Strategy {
    Optimal,
    Hotstrat,
    Sentestrat,
    Thermostrat,
}

/// The history Sentestrat needs: where the opponent just moved, and the
/// ambient temperature (`None`: the current board temperature).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SenteContext {
    pub last: Option<usize>,
    pub ambient: Option<BigRational>,
}

fn options_of(store: &mut Store, g: GameId, player: Player) -> Vec<GameId> {
    let (l, r) = store.options(g);
    match player {
        Player::Left => l.to_vec(),
        Player::Right => r.to_vec(),
    }
}

/// The non-number components with their temperatures.
fn temperatures(store: &mut Store, comps: &[GameId]) -> PlayResult<Vec<(usize, BigRational)>> {
    let mut out = Vec::new();
    for (i, &g) in comps.iter().enumerate() {
        if !store.is_number(g) {
            store.tick()?;
            out.push((i, store.temperature(g)?));
        }
    }
    Ok(out)
}

/// Hotstrat's choice of option inside component `g`.
fn local_option(store: &mut Store, g: GameId, player: Player) -> PlayResult<Option<GameId>> {
    let mut best: Option<(Dyadic, Dyadic, GameId)> = None;
    for o in options_of(store, g, player) {
        let (stop, mean) = match player {
            Player::Left => (store.right_stop(o)?, store.mean(o)?),
            Player::Right => (store.left_stop(o)?.neg(), store.mean(o)?.neg()),
        };
        let better = best
            .as_ref()
            .is_none_or(|(s, m, _)| stop > *s || (stop == *s && mean > *m));
        if better {
            best = Some((stop, mean, o));
        }
    }
    Ok(best.map(|b| b.2))
}

/// Hotstrat: move in a hottest component (lowest index among equals).
pub fn hotstrat(store: &mut Store, comps: &[GameId], player: Player) -> PlayResult<Option<Move>> {
    let temps = temperatures(store, comps)?;
    let mut hottest: Option<(usize, BigRational)> = None;
    for (i, t) in temps {
        if hottest.as_ref().is_none_or(|(_, h)| t > *h) {
            hottest = Some((i, t));
        }
    }
    let Some((i, _)) = hottest else {
        return Ok(None);
    };
    Ok(local_option(store, comps[i], player)?.map(|to| Move {
        player,
        component: i,
        to,
    }))
}

/// Sentestrat for the first move of a game (no history): Hotstrat.
pub fn sentestrat(store: &mut Store, comps: &[GameId], player: Player) -> PlayResult<Option<Move>> {
    sentestrat_after(store, comps, player, &SenteContext::default())
}

/// Sentestrat with the game's history.
pub fn sentestrat_after(
    store: &mut Store,
    comps: &[GameId],
    player: Player,
    ctx: &SenteContext,
) -> PlayResult<Option<Move>> {
    let temps = temperatures(store, comps)?;
    let Some(board) = temps.iter().map(|(_, t)| t).max().cloned() else {
        return Ok(None);
    };
    let ambient = match &ctx.ambient {
        Some(a) if *a < board => a.clone(),
        _ => board,
    };
    if let Some(j) = ctx.last {
        if let Some((_, t)) = temps.iter().find(|(i, _)| *i == j) {
            if *t > ambient {
                if let Some(to) = local_option(store, comps[j], player)? {
                    return Ok(Some(Move {
                        player,
                        component: j,
                        to,
                    }));
                }
            }
        }
    }
    hotstrat(store, comps, player)
}

/// Thermostrat (see the module doc).
pub fn thermostrat(
    store: &mut Store,
    comps: &[GameId],
    player: Player,
) -> PlayResult<Option<Move>> {
    let mut walls = Vec::new();
    for (i, &g) in comps.iter().enumerate() {
        if !store.is_number(g) {
            store.tick()?;
            walls.push((i, store.thermograph(g)?));
        }
    }
    if walls.is_empty() {
        return Ok(None);
    }
    let zero = BigRational::zero();
    let mut ts: Vec<BigRational> = vec![zero.clone()];
    for (_, th) in &walls {
        for w in [th.left_wall(), th.right_wall()] {
            ts.extend(w.points().iter().map(|p| p.0.clone()).filter(|t| *t > zero));
        }
    }
    ts.sort();
    ts.dedup();
    // The compound wall, as "higher is better for the mover".
    let compound = |t: &BigRational| -> BigRational {
        let mut base = BigRational::zero();
        let mut widest = BigRational::zero();
        for (_, th) in &walls {
            let (l, r) = (th.left_at(t), th.right_at(t));
            let w = &l - &r;
            if w > widest {
                widest = w;
            }
            base += match player {
                Player::Left => r,
                Player::Right => -l,
            };
        }
        base + widest
    };
    let mut best: Option<(BigRational, BigRational)> = None;
    for t in ts {
        let v = compound(&t);
        if best.as_ref().is_none_or(|(bv, _)| v > *bv) {
            best = Some((v, t));
        }
    }
    let t = best.map(|b| b.1).unwrap_or(zero.clone());
    let mut widest: Option<(usize, BigRational)> = None;
    for (i, th) in &walls {
        let w = th.left_at(&t) - th.right_at(&t);
        if w > zero && widest.as_ref().is_none_or(|(_, bw)| w > *bw) {
            widest = Some((*i, w));
        }
    }
    let Some((i, _)) = widest else {
        return hotstrat(store, comps, player);
    };
    let mut choice: Option<(BigRational, Dyadic, GameId)> = None;
    for o in options_of(store, comps[i], player) {
        let th = store.thermograph(o)?;
        let (wall, stop) = match player {
            Player::Left => (th.right_at(&t), store.right_stop(o)?),
            Player::Right => (-th.left_at(&t), store.left_stop(o)?.neg()),
        };
        let better = choice
            .as_ref()
            .is_none_or(|(w, s, _)| wall > *w || (wall == *w && stop > *s));
        if better {
            choice = Some((wall, stop, o));
        }
    }
    Ok(choice.map(|c| Move {
        player,
        component: i,
        to: c.2,
    }))
}

/// Plays the sum out, `black` (Left) against `white` (Right), `first` to
/// move, until every component is a number; the line's result is the final
/// score. Optimal play searches with [`DEFAULT_BUDGET`] nodes in all.
pub fn play_out(
    store: &mut Store,
    comps: &[GameId],
    first: Player,
    black: Strategy,
    white: Strategy,
) -> PlayResult<Line> {
    play_out_with_budget(store, comps, first, black, white, DEFAULT_BUDGET)
}

/// [`play_out`] with an explicit node budget for the optimal player.
pub fn play_out_with_budget(
    store: &mut Store,
    comps: &[GameId],
    first: Player,
    black: Strategy,
    white: Strategy,
    budget: u64,
) -> PlayResult<Line> {
    let mut solver = Solver::new(store, budget);
    let mut pos = comps.to_vec();
    let mut player = first;
    let mut moves = Vec::new();
    let board_temp = |store: &mut Store, pos: &[GameId]| -> PlayResult<Option<BigRational>> {
        Ok(temperatures(store, pos)?.into_iter().map(|(_, t)| t).max())
    };
    let mut ambient = board_temp(solver.store, &pos)?;
    let mut last: Option<usize> = None;
    loop {
        let strategy = match player {
            Player::Left => black,
            Player::Right => white,
        };
        let mv = match strategy {
            Strategy::Optimal => solver.optimal_move(&pos, player)?,
            Strategy::Hotstrat => hotstrat(solver.store, &pos, player)?,
            Strategy::Thermostrat => thermostrat(solver.store, &pos, player)?,
            Strategy::Sentestrat => {
                let ctx = SenteContext {
                    last,
                    ambient: ambient.clone(),
                };
                sentestrat_after(solver.store, &pos, player, &ctx)?
            }
        };
        let Some(mv) = mv else {
            break;
        };
        moves.push(MoveRecord {
            number: moves.len() + 1,
            player,
            component: mv.component,
            from: pos[mv.component],
            to: mv.to,
        });
        pos[mv.component] = mv.to;
        last = Some(mv.component);
        player = player.opponent();
        if let Some(t) = board_temp(solver.store, &pos)? {
            if ambient.as_ref().is_none_or(|a| t < *a) {
                ambient = Some(t);
            }
        }
    }
    let mut result = Dyadic::zero();
    for &g in &pos {
        if let Some(x) = solver.store.as_number(g) {
            result = result.add(x);
        }
    }
    Ok(Line { moves, result })
}
