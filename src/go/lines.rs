//! From the options of a chilled value back to Go moves.
//!
//! The play solver works on canonical games: a move in a component that
//! came from a Go position goes from its chilled value `G` to a canonical
//! option of `G`. To tell that move on the board, [`moves_to_option`] finds
//! the Go moves that lead there:
//!
//! * **One move.** Cooling by 1 (chilling) takes a hot game's option `G^L`
//!   to `chill(G^L) − 1` and `G^R` to `chill(G^R) + 1`, so a Black move to a
//!   position of chilled value `c` is the option `c − 1` (White: `c + 1`).
//! * **A reversible move.** The canonical form replaces a reversible option
//!   `G^L` (one with a reply `G^{LR} ≤ G`) by the Left options of
//!   `G^{LR}`. Such an option is three Go moves: the mover's move, the reply
//!   that reverses it (its position is no better for the mover than the
//!   start), and the mover's next move.
//!
//! The same holds of unchilled values with no tax. Values are compared exactly (the store's canonical ids). The search is
//! bounded (4 096 three-move sequences); a position whose value holds a ko
//! is not handled here (its moves are ko-graph moves).

use super::position::{Colour, Move, Position};
use super::search::{chilled, search_moves, value, SearchOptions};
use crate::game::{GameId, Store};

/// The most three-move sequences tried for a reversible option.
const MAX_SEQUENCES: usize = 4096;

/// The Go moves that take `pos` to a position whose value is the option
/// `to` of `pos`'s value for `colour` (see the module docs), with the
/// position they reach; `None` when none is found. The value is the chilled
/// one when `chill` (then a move is taxed a point), else the unchilled one.
pub fn moves_to_option(
    store: &mut Store,
    pos: &Position,
    colour: Colour,
    to: GameId,
    opts: &SearchOptions,
    chill: bool,
) -> Option<(Vec<Move>, Position)> {
    let tax = store.integer(if chill { -colour.sign() } else { 0 });
    let mut memo: Vec<(Position, Option<GameId>)> = Vec::new();
    let mut value = |store: &mut Store, p: &Position| -> Option<GameId> {
        if let Some((_, v)) = memo.iter().find(|(q, _)| q == p) {
            return *v;
        }
        let v = if chill {
            chilled(store, p, opts).ok()
        } else {
            value(store, p, opts).ok()
        };
        memo.push((p.clone(), v));
        v
    };
    let is_target =
        |store: &mut Store, v: GameId| -> bool { store.add(v, tax).is_ok_and(|x| x == to) };
    let firsts = search_moves(pos, colour, opts.prune_settled).ok()?;
    for (mv, next) in &firsts {
        let v = value(store, next)?;
        if is_target(store, v) {
            return Some((vec![*mv], next.clone()));
        }
    }
    let here = value(store, pos)?;
    let mut tried = 0usize;
    for (mv, next) in &firsts {
        for (reply, after) in search_moves(next, colour.opponent(), opts.prune_settled).ok()? {
            let r = value(store, &after)?;
            let reverses = match colour {
                Colour::Black => store.le(r, here).unwrap_or(false),
                Colour::White => store.le(here, r).unwrap_or(false),
            };
            if !reverses {
                continue;
            }
            for (again, last) in search_moves(&after, colour, opts.prune_settled).ok()? {
                tried += 1;
                if tried > MAX_SEQUENCES {
                    return None;
                }
                let v = value(store, &last)?;
                if is_target(store, v) {
                    return Some((vec![*mv, reply, again], last));
                }
            }
        }
    }
    None
}
