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
//! bounded (4 096 three-move sequences). Positions are valued as the
//! language values them, a ko that only a mistake reaches resolved by the
//! latent-ko rules; a move to a position whose value still holds a ko is
//! skipped (it leads to no short option), and a position whose own value
//! holds one is not handled here (its moves are ko-graph moves).

use super::position::{Colour, Move, Position};
use super::search::{evaluate_go, evaluate_go_chilled, search_moves, SearchOptions};
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
        let v = short_value(store, p, opts, chill);
        memo.push((p.clone(), v));
        v
    };
    let is_target =
        |store: &mut Store, v: GameId| -> bool { store.add(v, tax).is_ok_and(|x| x == to) };
    let firsts = search_moves(pos, colour, opts.prune_settled, opts.rules).ok()?;
    // A move to a position with no short value (a ko the latent-ko rules
    // leave) is no move to a short option: the others are still tried.
    for (mv, next) in &firsts {
        let Some(v) = value(store, next) else {
            continue;
        };
        if is_target(store, v) {
            return Some((vec![*mv], next.clone()));
        }
    }
    let here = value(store, pos)?;
    let mut tried = 0usize;
    for (mv, next) in &firsts {
        for (reply, after) in
            search_moves(next, colour.opponent(), opts.prune_settled, opts.rules).ok()?
        {
            let Some(r) = value(store, &after) else {
                continue;
            };
            let reverses = match colour {
                Colour::Black => store.le(r, here).unwrap_or(false),
                Colour::White => store.le(here, r).unwrap_or(false),
            };
            if !reverses {
                continue;
            }
            for (again, last) in
                search_moves(&after, colour, opts.prune_settled, opts.rules).ok()?
            {
                tried += 1;
                if tried > MAX_SEQUENCES {
                    return None;
                }
                let Some(v) = value(store, &last) else {
                    continue;
                };
                if is_target(store, v) {
                    return Some((vec![*mv, reply, again], last));
                }
            }
        }
    }
    None
}

/// The short value of `p` (chilled when `chill`) as the language gives it: a
/// ko that only a mistake reaches is resolved by the latent-ko rules
/// ([`GoValue::resolve_latent`]), so that `X a b c d O`'s Black move at `a`,
/// whose search finds such a ko, has its value -1/2 here as in `chilled(…)`.
fn short_value(
    store: &mut Store,
    p: &Position,
    opts: &SearchOptions,
    chill: bool,
) -> Option<GameId> {
    let v = match chill {
        true => evaluate_go_chilled(store, p, opts).ok()?.chilled,
        false => evaluate_go(store, p, opts).ok()?.value,
    };
    v.resolve_latent(store).ok()?.as_short()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Go moves behind each option of `text`'s chilled value for
    /// `colour`, as `B c` (or "none").
    fn check(text: &str, colour: Colour, expect: expect_test::Expect) {
        let pos = Position::parse(text).unwrap();
        let mut store = Store::new();
        let opts = SearchOptions::default();
        let g = short_value(&mut store, &pos, &opts, true).expect("a short value");
        let options = match colour {
            Colour::Black => store.left_options(g).to_vec(),
            Colour::White => store.right_options(g).to_vec(),
        };
        let out: Vec<String> = options
            .into_iter()
            .map(
                |to| match moves_to_option(&mut store, &pos, colour, to, &opts, true) {
                    Some((moves, _)) => moves
                        .iter()
                        .map(|&m| pos.move_name(m))
                        .collect::<Vec<_>>()
                        .join(", "),
                    None => "none".into(),
                },
            )
            .collect();
        expect.assert_eq(&out.join("; "));
    }

    #[test]
    fn a_move_is_found_past_moves_to_kos_only_a_mistake_reaches() {
        // Chilled `*`: Black's option 0 is `B c` (value 1); the moves at `a`,
        // `b` and `d` come first, and the search finds kos after `a` and
        // `d` that the latent-ko rules resolve. Before, the first such
        // move made the whole question give up.
        let corridor = "X X X O O O\nX a b c d O\nX X X O O O";
        check(corridor, Colour::Black, expect_test::expect!["B c"]);
        check(corridor, Colour::White, expect_test::expect!["W b"]);
    }
}
