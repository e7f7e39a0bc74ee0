//! Territories: a component walled in by one colour's immortal stones in
//! which the other colour cannot live, valued as the integer of correct
//! play without building its ko graph (issue 15 §3, "Latent kos").
//!
//! Inside a territory a stone that touches no wall can be captured and
//! retaken, so the local search under the basic ko rule finds repetitions
//! (kos only a mistake reaches) and returns a ko graph: an empty 3 × 3
//! corner is a graph of about 10 000 positions. The rule below decides, by
//! a small one-sided search, that the owner keeps the whole area whatever
//! the invader does, and then scores the component as a number, as the
//! search scores a settled area ([`crate::go`], "Settled areas"). It is
//! applied by the search when [`super::SearchOptions::territories`] is on
//! (whole-board analysis turns it on), under Japanese scoring and the basic
//! ko rule only.
//!
//! # Definitions
//!
//! Say the owner is Black (White is the mirror image). As in the search,
//! a stone is *immortal* when its chain holds a framing stone, and a
//! *component* is a connected set of points that are empty or hold mortal
//! stones. A component `C` is a *territory* of Black when every stone
//! next to it is Black (so immortal) and it touches no White framing stone.
//! For a position `P` of `C` let
//!
//! ```text
//! φ(P) = (empty points of C) + 2 · (White stones in C)
//! ```
//!
//! (Black's mortal stones in `C` count 0) and `ψ = φ + g`, `g` the points
//! the moves in `C` have scored so far (prisoners, Black's minus White's).
//! A Black move in `C` is a *progress move* when the new stone's chain is
//! immortal (it touches an immortal Black stone or a Black framing stone).
//!
//! A position `P` of `C` (the points of `C` that are not yet immortal: they
//! only shrink), White to move, is **won** when it is settled for Black
//! ([`crate::go`], "Settled areas"), or when
//!
//! * Black has a *free move* at `P`: a progress move or a capture; and
//! * for every legal White move in `C` (any point that is not suicide; no
//!   ko ban) from `P` to `P'`, capturing `j` Black stones, Black has an
//!   *answer* from `P'` to a won position `P''`: a progress move, or a
//!   move capturing more than `j` White stones (so never a ko recapture).
//!
//! [`won`] decides it by search, with a memo per position.
//!
//! # Facts
//!
//! 1. *Accounting (Japanese).* Every Black move in `C` lowers `ψ` by
//!    exactly 1 and every White move raises it by 1. A Black stone on an
//!    empty point: −1; each White stone it captures turns from 2 into an
//!    empty point (1) and a prisoner (+1): 0. A White stone on an empty
//!    point: +1; each mortal Black stone it captures turns from 0 into an
//!    empty point (+1) and a prisoner for White (−1): 0. A settled
//!    component scores exactly `φ` (its points plus the White stones in
//!    it), so at a settled end the component has scored `ψ`.
//! 2. *Black's moves are new.* Consider a line of play from a won position
//!    on which Black moves in `C` only to answer White's moves in `C`, as
//!    the definition says. Immortal stones are never captured, so the set
//!    of immortal Black stones never shrinks, and a progress move adds one:
//!    the position after it differs from every earlier one. Between two
//!    progress moves (a *window*: the immortal stones constant) Black's
//!    answers are captures; let `Q` = Black's mortal stones in `C` minus
//!    White's stones in `C`. An exchange (White's move taking `j`, Black's
//!    answer taking `k > j`) changes `Q` by `k − j ≥ 1`, and a White move
//!    alone lowers it by `1 + j ≥ 1`. So within a window every position
//!    after an answer has a larger `Q` than every earlier position of the
//!    window, and positions of earlier windows have fewer immortal stones.
//!    A free move made at the end (a progress move, or a capture: `Q` grows)
//!    is new for the same reasons. So every such move of Black's goes to a
//!    position not met before on the line (of `C`, and so of any sum or
//!    board holding `C`): it is legal under the basic ko rule (a ban forbids
//!    only a return) and every superko rule, and repeats no whole-sum state.
//!    The search of [`won`] ends for the same reasons (`Q` is bounded).
//! 3. *No White life.* White has no immortal stone next to `C`, so no
//!    component inside `C` is ever settled for White.
//!
//! # Theorem A (the local game)
//!
//! *Let `C` be a territory of Black with a won position `P`, and let the
//! local game of `C` be played from `P` under local positional or
//! situational superko (a short game, [`super::KoRule`]; the history is
//! the line from `P`, as the search has it). Its value is the integer
//! `ψ(P)`.* (Relative to the position, as the search counts:
//! `ψ(P) = φ(P)`.)
//!
//! **Proof.** Write `V(P, H)` for the value with the line `H` behind it and
//! `D(P, H) = V(P, H) − ψ(P)` (the options of `D` are those of `V` less
//! `ψ(P)`). By fact 1 every Black option of `D` is `D(P', H') − 1` and every
//! White option `D(P', H') + 1`; a terminal position (settled, or no legal
//! move for either player) is worth `0` if settled and `−φ ≤ 0` otherwise
//! (the search then scores no area). Induction on the finite tree of lines:
//!
//! * `D ≤ 0` for every position of `C`: `0` has no options, so `D ≤ 0`
//!   unless some Black option `D(P', H') − 1 ≥ 0`, impossible since
//!   `D(P', H') ≤ 0`.
//! * `D ≥ 0` for every won position reached from the start by White's
//!   moves and Black's answers: if it is settled `D = 0`. Otherwise Black
//!   has a free move, legal by fact 2, so `P` is not terminal. `D ≥ 0`
//!   unless some White option `D(P', H') + 1 ≤ 0`. At `P'` Black has an
//!   answer to a won `P''`, legal by fact 2, so
//!   `D(P', H')` has the Black option `D(P'', H'') − 1 = −1` (induction:
//!   `D(P'', H'') = 0`), hence `D(P', H') ≰ −1` and `D(P', H') + 1 ≰ 0`. ∎
//!
//! The same induction over a whole board (positional superko) in which the
//! rest of the board can never repeat a position gives `ψ(P) + R`, `R` the
//! value of the rest: a move in the rest is answered by the mirror move in
//! `−R` and is never banned (the rest's positions never recur), a White
//! move in `C` by a progress move. The analysis tests compare with the
//! whole-board oracle played that way.
//!
//! # Theorem B (the basic ko rule, in sums)
//!
//! *Let `K` be the position graph of `C` under the basic ko rule (the
//! search's ko graph), `C` a territory of Black at a won position. Let `X`
//! be any sum of short games and ko threats for either player, and let play
//! follow the ko solver's rules ([`crate::ko::solve`](mod@crate::ko::solve):
//! basic ko rule, threats answered at once, no repeated whole-sum state,
//! passes, two passes end play), with `C` counted at the end as Japanese
//! rules count a territory: `ψ` when its position is won (White's stones in
//! it count as dead; the definition of won does not by itself show that
//! Black can take them all whatever White does, since a free move need
//! not lead to a won position, but by Theorem A the local game is then
//! worth `ψ` whoever starts), and in any case at most `ψ` (all of `C` as Black's
//! territory and every White stone in it a prisoner is the most it can
//! give). Then the optimal score of `K + X`, either player first, is the
//! stop of `ψ(P) + X`.*
//!
//! **Proof.** `ψ + X` holds no ko, so its optimal score is its stop.
//! *White's strategy:* never move in `C`; in `X` play as in `ψ + X`. A Black
//! move in `C` lowers `ψ` by 1 (fact 1) and hands White the move: as in the
//! latent-ko proof ([`crate::ko::latent`], "Black's strategy", mirrored)
//! White then gets at most `RS(Q − 1) < LS(Q)` where `Q` is the bound
//! `ψ + Y` (`Y` the short part of `X` now), so these moves never help
//! Black; they end, since White never captures in `C` and `C` is finite. At
//! a two-pass end `C` counts at most `ψ`. *Black's strategy:* in `X` play as
//! in `ψ + X`; answer every White move in `C` at once with an answer to a
//! won position (the definition gives one; legal by fact 2). White's
//! move raised `ψ` by 1 and the answer lowers it by 1, so the bound `ψ + Y`
//! is what it was, with White to move again, as after a threat answered.
//! Black never moves in `C` otherwise, so at every two-pass end `C` is at a
//! won position (the root, or after an answer) and counts `ψ`. Each side
//! thus holds the score to the stop of `ψ + X` (the induction of the
//! latent-ko proof, with `C` standing for the number `ψ`). ∎
//!
//! # What is and is not claimed
//!
//! * The rule is sufficient, not necessary: Black's answers must each
//!   join the wall at once or capture more than White's move took, so a
//!   territory whose kill needs a quiet move inside (an eye-stealing
//!   placement, a throw-in) or a ko recapture fails it and keeps its ko
//!   graph.
//! * Like every short value standing for a region, the number is exact
//!   next to short games and threats, not next to a real ko elsewhere, where
//!   White's moves inside the territory can serve as ko threats
//!   ([`crate::ko::latent`], "What is and is not claimed").
//! * The count at a two-pass end in Theorem B is the theorem's own (`ψ`
//!   at a won position, at most `ψ` anywhere: how Japanese rules count a
//!   territory), not the ko solver's, which counts a graph left open at
//!   its komaster means. The solver cannot check the theorem: the
//!   komaster analysis of a territory's graph gets stuck (a state where
//!   neither player may move) at the root of every territory tried (the
//!   32 graphs of `go::tests::territories_are_their_number`, whose 9 216
//!   sums with the solver are all left out as uncounted; the 82 won walled
//!   regions of `territory::tests` with a graph of at most 3 000 nodes).
//!   The theorem rests on its proof, with Theorem A and the search without
//!   the rule as the tests' oracles (`territory::tests`).
//! * The theorems speak of one territory; whole-board analysis replaces
//!   several at once, beside settled areas and latent kos. The strategies
//!   compose component by component (an invasion is answered in its own
//!   territory, and a new position of one component is a new whole-sum
//!   state), as in the latent-ko proof's "several graphs", but that is
//!   not written out here.
//! * Area scoring is not covered: there every move in `C` changes the count
//!   by 0, so the local game is `ψ` plus an infinitesimal of tempo, not a
//!   number (as for a settled area, [`crate::go`]).
//! * The check is bounded by [`TERRITORY_STATES`] positions; past it the
//!   rule is not applied.

use super::position::Colour;
use super::search::{Board, Region};
use rustc_hash::FxHashMap;

/// The most positions [`won`] examines for one component; past it the
/// territory rule is not applied (the search goes on as without it).
pub const TERRITORY_STATES: usize = 200_000;

/// If `comp` (a component of `b`: empty points and mortal stones) is a
/// territory of some colour whose position is won (module docs), that
/// colour; and the positions the check examined (at most
/// [`TERRITORY_STATES`], charged to the search's node budget). `memo`
/// keeps the won positions found (keyed by the component's mortal points
/// and the owner's and the opponent's stones on them), shared by the calls
/// of one search.
pub(super) fn territory(
    region: &Region,
    comp: u128,
    b: &Board,
    memo: &mut FxHashMap<(u128, u128, u128), bool>,
) -> (Option<Colour>, usize) {
    let Some(owner) = owner(region, comp, b) else {
        return (None, 0);
    };
    let mut budget = TERRITORY_STATES;
    let won = won(region, comp, b, owner.index(), memo, &mut budget);
    (won.then_some(owner), TERRITORY_STATES - budget)
}

/// The colour whose territory `comp` is: every stone next to it is of that
/// colour and it touches no framing stone of the other.
pub(super) fn owner(region: &Region, comp: u128, b: &Board) -> Option<Colour> {
    let around = region.nbrs_of(comp) & !comp;
    for (c, colour) in [(0, Colour::Black), (1, Colour::White)] {
        let op = 1 - c;
        if comp & region.seed(op) == 0
            && around & b.stones[op] == 0
            && (comp & region.seed(c) != 0 || around & b.stones[c] != 0)
        {
            return Some(colour);
        }
    }
    None
}

/// Whether the position `b` of the territory `comp` of colour `c` is won
/// (module docs): settled, or the owner has a progress move and answers
/// every move of the opponent with an answer to a won position.
/// `false` also when `budget` runs out.
pub(super) fn won(
    region: &Region,
    comp: u128,
    b: &Board,
    c: usize,
    memo: &mut FxHashMap<(u128, u128, u128), bool>,
    budget: &mut usize,
) -> bool {
    let op = 1 - c;
    let imm = region.immortal(b);
    // The points of the territory not yet immortal (they only shrink).
    let live = comp & !imm[c];
    // Keyed by the owner's stones and the opponent's, not by Black's and
    // White's: the same points can be Black's territory in one position of
    // a search and White's in another (a wall of region stones that either
    // colour can join to a frame of its own), and a verdict for one owner
    // must not be read for the other. Relative to its owner a position's
    // verdict depends on the key alone: every region point next to `live`
    // is an immortal stone of the owner, and `live` touches no framing
    // stone of the opponent's (so when both owners meet the same key it
    // touches none at all, and the definition is the same for both).
    let key = (live, b.stones[c] & live, b.stones[op] & live);
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let empty = live & !(b.stones[0] | b.stones[1]);
    // Settled for `c`: no stone of `c` left in it, and every point touches
    // an immortal stone of `c` or a framing stone of `c`.
    let wall = region.nbrs_of(imm[c]) | region.seed(c);
    let w = if live & b.stones[c] == 0 && live & !wall == 0 {
        true
    } else {
        let replies: Vec<(Board, u32)> = super::search::bits(empty)
            .filter_map(|p| region.apply(b, op, p).map(|(after, k, _)| (after, k)))
            .collect();
        // A free move (the position is not terminal): a progress move, or
        // any capture.
        let free = empty & wall != 0
            || super::search::bits(empty)
                .any(|q| matches!(region.apply(b, c, q), Some((_, k, _)) if k > 0));
        free && replies
            .iter()
            .all(|(after, k)| answer(region, comp, after, c, *k, memo, budget))
    };
    // A position found lost only through the budget is not recorded.
    if w || *budget > 0 {
        memo.insert(key, w);
    }
    w
}

/// Whether the owner `c` has an answer from `b` to a won position: a
/// progress move, or a capture of more stones than the opponent's move
/// just captured (`taken`; module docs).
fn answer(
    region: &Region,
    comp: u128,
    b: &Board,
    c: usize,
    taken: u32,
    memo: &mut FxHashMap<(u128, u128, u128), bool>,
    budget: &mut usize,
) -> bool {
    let imm = region.immortal(b);
    let live = comp & !imm[c];
    let empty = live & !(b.stones[0] | b.stones[1]);
    let wall = region.nbrs_of(imm[c]) | region.seed(c);
    if super::search::bits(empty & wall).any(|q| match region.apply(b, c, q) {
        Some((after, _, _)) => won(region, comp, &after, c, memo, budget),
        None => false,
    }) {
        return true;
    }
    super::search::bits(empty & !wall).any(|q| match region.apply(b, c, q) {
        Some((after, captured, _)) if captured > taken => {
            won(region, comp, &after, c, memo, budget)
        }
        _ => false,
    })
}

#[cfg(test)]
pub(super) mod tests;
