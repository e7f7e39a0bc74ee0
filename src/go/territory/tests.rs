//! Tests of the territory rule that need its internals: the memo of won
//! positions shared by one search.

use super::*;
use crate::game::Store;
use crate::go::{go_value, GoValue, Position, SearchOptions};

/// The one territory of a diagram's region at the start: the region, the
/// component and the board.
fn the_territory(region: &Region) -> (u128, Board) {
    let b = region.root.clone();
    let imm = region.immortal(&b);
    let comps = region.components(region.all & !(imm[0] | imm[1]));
    let [comp] = comps[..] else {
        panic!("{} components", comps.len())
    };
    (comp, b)
}

/// A wall of region stones that either colour can join to a frame of its
/// own (`X` at A5, `O` at B5) around the same fifteen points, holding
/// the same stones: a Black group with two eyes (A1, C1) and room to
/// connect out. Walled by Black the position is won (Black connects the
/// group to the wall whatever White does); walled by White it is not
/// (the group lives in White's area). One search meets both, and a memo
/// keyed by Black's and White's stones gave the White wall the Black
/// wall's verdict: it scored a living group as dead.
#[test]
fn a_won_verdict_is_not_read_for_the_other_owner() {
    let inside = [". . . . .", "x x x x .", ". x . x ."];
    let diagram = |wall: char| {
        let mut rows = vec![
            "X O X O X O X".to_string(),
            format!("{w} {w} {w} {w} {w} {w} O", w = wall),
        ];
        rows.extend(inside.iter().map(|r| format!("{r} {wall} X")));
        rows.join("\n")
    };
    let black = Position::parse(&diagram('x')).unwrap();
    let white = Position::parse(&diagram('o')).unwrap();
    let region = Region::new(&black).unwrap();
    let (comp, b) = the_territory(&region);
    let (comp_w, w) = the_territory(&Region::new(&white).unwrap());
    // The same points and the same stones on them: one memo key per owner
    // would be one key for both.
    assert_eq!(comp, comp_w);
    let fresh = |b: &Board| territory(&region, comp, b, &mut Default::default());
    assert_eq!(fresh(&b), Some(Colour::Black));
    assert_eq!(fresh(&w), None);
    // In either order, with one memo as in a search.
    for order in [[&b, &w], [&w, &b]] {
        let mut memo = Default::default();
        let verdicts = order.map(|x| territory(&region, comp, x, &mut memo));
        let expected = order.map(|x| fresh(x));
        assert_eq!(verdicts, expected);
    }
}

/// The search with the rule on the corridor `x x x x . . / . x . x . .`
/// (a Black group with two eyes), a Black and a White frame stone at its
/// end, and on its colour swap: the two ko graphs have the same size (a
/// colour swap maps the positions of one search onto the other's). The
/// column next to the frame stones can be filled by either colour, so each
/// search meets the ten points left of it walled by Black and by White,
/// with the same stones inside; with a memo keyed by Black's and White's
/// stones one owner's verdicts leaked to the other's walls, and the graphs
/// had 178 992 and 178 245 nodes. (Run on a thread of its own: the
/// search is deep for the test harness's stack in a debug build.)
#[test]
fn a_region_and_its_colour_swap_give_graphs_of_one_size() {
    let sizes = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            [
                "x x x x . . O\n. x . x . . X",
                "o o o o . . X\n. o . o . . O",
            ]
            .map(|text| {
                let mut s = Store::new();
                let pos = Position::parse(text).unwrap();
                let opts = SearchOptions {
                    territories: true,
                    ..SearchOptions::default()
                };
                match go_value(&mut s, &pos, &opts).unwrap() {
                    GoValue::Ko { kos, .. } => kos.iter().map(|k| k.graph.len()).collect(),
                    GoValue::Short(_) => Vec::new(),
                }
            })
        })
        .unwrap()
        .join()
        .unwrap();
    expect_test::expect!["[[172250], [172250]]"].assert_eq(&format!("{sizes:?}"));
}
