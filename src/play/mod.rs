//! Play on sums of games without canonicalising the sum.
//!
//! A *board* is a list of components (canonical games, [`GameId`]s). The
//! questions answered here are about play on their disjunctive sum: its Left
//! and Right stops with an optimal line of play ([`solve`]), every optimal
//! first move ([`best_moves`]), the must-play and avoid-play values of Chang, “Hotstrat Optimality Fails”
//! ([`must_play`], [`avoid_play`]), and the heuristic strategies Hotstrat,
//! Sentestrat and Thermostrat with a play-out between any two strategies
//! ([`play_out`]). The canonical form of the sum is never built: the canonical
//! form of `±1 + ±2 + … + ±40` would never finish, its stops take microseconds.
//!
//! No syntax, no IO. Every search polls the store's interrupt flag
//! ([`PlayError::Interrupted`]) and counts its nodes against a budget
//! ([`PlayError::Budget`]).
//!
//! # Definitions
//!
//! *Stops*: `LS(x) = RS(x) = x` for a number, otherwise
//! `LS(G) = max RS(G^L)` and `RS(G) = min LS(G^R)`. For a sum `G1 + … + Gn`
//! play goes on, alternating, until **every component is a number**; the
//! result is the sum of those numbers. That equals the stop of the *value* of
//! the sum even when the sum becomes a number earlier (`* + *`, `↑ + ↓`,
//! `{1|0} + {0|-1}`): see fact F0 in `src/play/search.rs`,
//! which also proves every shortcut the search takes. A
//! line of play may therefore end with moves that no longer change the score
//! (they settle the last infinitesimals, like dame at the end of a Go game).
//!
//! *Must-play value* (Chang, “Hotstrat Optimality Fails”, Definition 2.1): `V_j` for Left is
//! `max over R_j^L of RS(R_j^L + Σ_{i≠j} R_i)` — Left is forced to make the
//! first move, in component `j`, then both play optimally; for Right it is
//! `min over R_j^R of LS(R_j^R + Σ_{i≠j} R_i)`.
//!
//! *Avoid-play value* (Chang, “Hotstrat Optimality Fails” §6; the paper never defines it formally, it
//! only calls the region minimising `V_j` "the move Black must avoid"): we
//! return the *regret* of being forced to play first in `j`,
//! `LS(S) − V_j` for Left and `V_j − RS(S)` for Right. It is `≥ 0`, it is `0`
//! exactly when some optimal first move is in `j`, and the paper's
//! "avoid-play top-1" is the region of largest regret (= smallest `V_j` for
//! Left), see [`avoid_play_ranking`].
//!
//! The strategies are documented in [`strategy`].

pub(crate) mod search;
pub mod strategy;

#[cfg(test)]
mod tests;

use crate::game::{CgError, Dyadic, GameId, Store};
use std::fmt;

pub use strategy::{
    hotstrat, play_out, play_out_with_budget, sentestrat, sentestrat_after, thermostrat,
    SenteContext, Strategy,
};

/// The default node budget of the functions that take none ([`play_out`]).
pub const DEFAULT_BUDGET: u64 = 20_000_000;

/// A player. Left is Black and scores positive; Right is White.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Player {
    Left,
    Right,
}

impl Player {
    pub fn opponent(self) -> Player {
        match self {
            Player::Left => Player::Right,
            Player::Right => Player::Left,
        }
    }
    pub fn is_left(self) -> bool {
        self == Player::Left
    }
    /// The Go name: Black for Left, White for Right.
    pub fn go_name(self) -> &'static str {
        match self {
            Player::Left => "Black",
            Player::Right => "White",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Left => "Left",
            Player::Right => "Right",
        })
    }
}

/// A move: `player` moves component number `component` (an index into the
/// component list) to its option `to`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Move {
    pub player: Player,
    pub component: usize,
    pub to: GameId,
}

/// One move of a line of play.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveRecord {
    /// 1-based move number.
    pub number: usize,
    pub player: Player,
    pub component: usize,
    pub from: GameId,
    pub to: GameId,
}

/// A line of play from the given components until every component is a
/// number; `result` is the sum of those numbers (the final score).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    pub moves: Vec<MoveRecord>,
    pub result: Dyadic,
}

/// The answer of [`solve`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution {
    /// The Left stop (Left first) or Right stop (Right first) of the sum.
    pub stop: Dyadic,
    /// A principal variation: every move in it is optimal for its player, and
    /// its result is `stop`.
    pub line: Line,
    /// Search nodes visited (including those of the line).
    pub nodes: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
}

/// Why a play question got no answer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The interrupt flag was set (Ctrl-C).
    Interrupted,
    /// The search visited more than `limit` nodes.
    Budget { nodes: u64, limit: u64 },
    /// Another engine error (a quantity too large to represent).
    Engine(CgError),
    /// A component index out of range.
    NoComponent { component: usize, len: usize },
    /// The player has no move in that component (e.g. Right in `3 = {2|}`).
    NoMove { component: usize, player: Player },
}

impl From<CgError> for PlayError {
    fn from(e: CgError) -> PlayError {
        match e {
            CgError::Interrupted => PlayError::Interrupted,
            other => PlayError::Engine(other),
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Interrupted => write!(f, "interrupted"),
            PlayError::Budget { nodes, limit } => {
                write!(f, "search budget exceeded ({nodes} nodes, limit {limit})")
            }
            PlayError::Engine(e) => write!(f, "{e}"),
            PlayError::NoComponent { component, len } => {
                write!(f, "no component {component} (there are {len})")
            }
            PlayError::NoMove { component, player } => {
                write!(f, "{player} has no move in component {component}")
            }
        }
    }
}

impl std::error::Error for PlayError {}

pub type PlayResult<T> = Result<T, PlayError>;

/// The stop of the sum of `components` with `first` to move, and an optimal
/// line of play to the number reached.
pub fn solve(
    store: &mut Store,
    components: &[GameId],
    first: Player,
    budget: u64,
) -> PlayResult<Solution> {
    let mut s = search::Solver::new(store, budget);
    let (stop, line) = s.solve(components, first)?;
    Ok(Solution {
        stop,
        line,
        nodes: s.nodes,
        tt_hits: s.tt_hits,
    })
}

/// Every optimal first move of `player`: all moves whose resulting position
/// has, with the opponent to move, the player's stop of the sum. Moves in
/// number components are never optimal while a non-number exists and are
/// never listed; when every component is a number the list is empty.
pub fn best_moves(
    store: &mut Store,
    components: &[GameId],
    player: Player,
    budget: u64,
) -> PlayResult<Vec<Move>> {
    search::Solver::new(store, budget).best_moves(components, player)
}

/// The must-play value `V_j` (Chang, “Hotstrat Optimality Fails”, Definition 2.1): the result when
/// `player` must make the first move, in component `j`, and both sides play
/// optimally afterwards. A move in a number component is legal here (and
/// never good); a component where `player` has no move is
/// [`PlayError::NoMove`].
pub fn must_play(
    store: &mut Store,
    components: &[GameId],
    j: usize,
    player: Player,
    budget: u64,
) -> PlayResult<Dyadic> {
    search::Solver::new(store, budget).must_play(components, j, player)
}

/// The avoid-play value of component `j` for `player`: the regret of being
/// forced to move first in `j`, i.e. `LS(S) − V_j` for Left and `V_j − RS(S)`
/// for Right (see the module doc for why this reading of its §6).
pub fn avoid_play(
    store: &mut Store,
    components: &[GameId],
    j: usize,
    player: Player,
    budget: u64,
) -> PlayResult<Dyadic> {
    let mut s = search::Solver::new(store, budget);
    let stop = s.stop(components, player)?;
    let v = s.must_play(components, j, player)?;
    Ok(match player {
        Player::Left => stop.sub(&v),
        Player::Right => v.sub(&stop),
    })
}

/// The components in which `player` has a move, ordered by decreasing
/// avoid-play value (the region "the player must avoid most" first, Chang, “Hotstrat Optimality Fails”
/// Theorem 6.1), ties by index; each with its must-play value `V_j`.
pub fn avoid_play_ranking(
    store: &mut Store,
    components: &[GameId],
    player: Player,
    budget: u64,
) -> PlayResult<Vec<(usize, Dyadic)>> {
    let mut s = search::Solver::new(store, budget);
    let mut out = Vec::new();
    for j in 0..components.len() {
        match s.must_play(components, j, player) {
            Ok(v) => out.push((j, v)),
            Err(PlayError::NoMove { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    // Largest regret first: smallest V_j for Left, largest for Right.
    out.sort_by(|(i, a), (j, b)| match player {
        Player::Left => a.cmp(b).then(i.cmp(j)),
        Player::Right => b.cmp(a).then(i.cmp(j)),
    });
    Ok(out)
}
