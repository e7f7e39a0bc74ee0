//! The abstract game of [`super`] solved exactly with the ko solver
//! [`crate::ko::solve::solve`].
//!
//! The solver plays a sum of components from a position with no history, so
//! two things the paper's positions carry are handled here, one move deep,
//! by hand:
//! * **the ko ban.** In case 1 Black may not retake at once; after Black
//!   retakes, White may not. A banned position is expanded: each legal move
//!   of [`State::moves`] and the pass, each followed by the solver.
//! * **a pass just played.** After a pass the opponent's pass ends play, so
//!   the position after a pass is expanded too; the end after two passes is
//!   counted as the solver counts it (module docs of
//!   [`crate::ko::solve`](mod@crate::ko::solve)): the ko at its mean (`−k/3` where White holds
//!   it, `k/3` where Black does — a simple ko is placid, both komasters
//!   agree), a pending threat `{t | 0}` at `t/2`, a valuable move at 0, an
//!   unused threat at 0.
//!
//! Black's every first move is expanded in the same way, so the result
//! lists the exact value of each, and the paper's advice can be judged move
//! by move.

use super::{KoFight, KoState, Last, Move, State};
use crate::game::Store;
use crate::ko::solve::{solve, KoSolveError, KoSolveOptions};
use crate::ko::Side;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// The exact answer for Black to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// The final score (everything in the position, a filled ko included)
    /// under optimal play.
    pub optimum: BigRational,
    /// Each first move of Black (the pass last) with the final score when
    /// both play optimally afterwards, best first (stable among equals).
    pub moves: Vec<(Move, BigRational)>,
    /// Search nodes of all solver calls.
    pub nodes: u64,
}

impl Exact {
    /// The exact score after Black's `mv`, if it is legal.
    pub fn value_of(&self, mv: &Move) -> Option<&BigRational> {
        self.moves.iter().find(|(m, _)| m == mv).map(|(_, v)| v)
    }
    /// The optimal first moves.
    pub fn best(&self) -> Vec<&Move> {
        self.moves
            .iter()
            .filter(|(_, v)| *v == self.optimum)
            .map(|(m, _)| m)
            .collect()
    }
}

fn r(v: &BigInt) -> BigRational {
    BigRational::from_integer(v.clone())
}

/// The count of `s` when play ends after two passes, not counting the
/// filled ko (see [`future`]).
fn count(s: &State) -> BigRational {
    let third = BigRational::new(s.k.clone(), BigInt::from(3));
    let mut c = match s.ko {
        KoState::WhiteHolds => -third,
        KoState::BlackHolds => third,
        KoState::Filled(_) => BigRational::zero(),
    };
    for t in &s.black_pending {
        c += BigRational::new(t.clone(), BigInt::from(2));
    }
    for t in &s.white_pending {
        c -= BigRational::new(t.clone(), BigInt::from(2));
    }
    c
}

struct Search<'a> {
    store: &'a mut Store,
    opts: &'a KoSolveOptions,
    nodes: u64,
}

impl Search<'_> {
    /// The score still to come from `s` (the filled ko, already in
    /// [`State::fixed`], not counted); `passed`: the last turn was a pass.
    fn future(&mut self, s: &State, passed: bool) -> Result<BigRational, KoSolveError> {
        if !s.banned && !passed {
            let comps = s.components(self.store).map_err(KoSolveError::Engine)?;
            // One budget for the whole question: each solve gets what is left.
            let opts = KoSolveOptions {
                budget: self.opts.budget.saturating_sub(self.nodes),
                ..self.opts.clone()
            };
            let sol = match solve(self.store, &comps, s.to_move, &opts) {
                Ok(sol) => sol,
                Err(KoSolveError::NodeBudget { nodes }) => {
                    return Err(KoSolveError::NodeBudget {
                        nodes: self.nodes + nodes,
                    })
                }
                Err(e) => return Err(e),
            };
            self.nodes += sol.nodes;
            return Ok(sol.score - r(&s.fixed()));
        }
        let mut best: Option<BigRational> = None;
        for (_, v) in self.each(s, passed)? {
            best = Some(match best {
                None => v,
                Some(b) if s.to_move == Side::Left => b.max(v),
                Some(b) => b.min(v),
            });
        }
        Ok(best.unwrap_or_default())
    }

    /// Every move of the player to move in `s` with the score to come after
    /// it (the move's own gain included), the pass last.
    fn each(&mut self, s: &State, passed: bool) -> Result<Vec<(Move, BigRational)>, KoSolveError> {
        let mut out = Vec::new();
        for (m, gain, t) in s.moves() {
            let v = r(&gain) + self.future(&t, false)?;
            out.push((m, v));
        }
        let pass = if passed {
            count(s)
        } else {
            let mut t = s.clone();
            t.to_move = s.to_move.opponent();
            t.banned = false;
            self.future(&t, true)?
        };
        out.push((Move::Pass, pass));
        Ok(out)
    }
}

/// Solve the position Black faces after White's `last` exactly: the value
/// of each of Black's first moves and the optimum.
pub fn exact(
    store: &mut Store,
    pos: &KoFight,
    last: &Last,
    opts: &KoSolveOptions,
) -> Result<Exact, KoSolveError> {
    let s = State::start(pos, last);
    let fixed = r(&s.fixed());
    let mut search = Search {
        store,
        opts,
        nodes: 0,
    };
    let mut moves = search.each(&s, false)?;
    for (_, v) in moves.iter_mut() {
        *v += &fixed;
    }
    moves.sort_by(|a, b| b.1.cmp(&a.1));
    let optimum = moves
        .first()
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| fixed.clone());
    Ok(Exact {
        optimum,
        moves,
        nodes: search.nodes,
    })
}
