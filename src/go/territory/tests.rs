//! Tests of the territory rule that need its internals: the memo of won
//! positions shared by one search.

use super::*;
use crate::game::Store;
use crate::go::{evaluate_go, go_value, GoValue, KoRule, Position, SearchOptions};
use crate::render::{format_game, Style};

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
    let fresh = |b: &Board| territory(&region, comp, b, &mut Default::default()).0;
    assert_eq!(fresh(&b), Some(Colour::Black));
    assert_eq!(fresh(&w), None);
    // In either order, with one memo as in a search.
    for order in [[&b, &w], [&w, &b]] {
        let mut memo = Default::default();
        let verdicts = order.map(|x| territory(&region, comp, x, &mut memo).0);
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

use crate::go::tests::Rng;

/// Small regions walled by one colour (the owner, Black or White), along
/// an edge (framed on three sides), in the middle of the board (framed all
/// round) or in a corner: two or three rows of three to five points, each
/// point empty, an invader (`o`), a mortal stone of the owner's (`x`) or a
/// frame stone of the owner's (`X`, an irregular wall); in a quarter of
/// them one stone of the wall is the other colour's (`O`), which makes
/// the region no territory. Where `go::tests::territory_diagrams` (corners
/// walled by Black with few stones) does not go.
fn walled_regions(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let kind = rng.below(3);
        let (h, w) = (2 + rng.below(2), 3 + rng.below(3));
        let inside: Vec<Vec<char>> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| match rng.below(12) {
                        0..=3 => 'o',
                        4..=5 => 'x',
                        6 => 'X',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let side = |r: Vec<char>, left: bool| {
            let mut row = if left { vec!['X'] } else { Vec::new() };
            row.extend(r);
            row.push('X');
            row
        };
        let mut rows: Vec<Vec<char>> = match kind {
            // Along the bottom edge.
            0 => std::iter::once(vec!['X'; w + 2])
                .chain(inside.into_iter().map(|r| side(r, true)))
                .collect(),
            // In the middle.
            1 => std::iter::once(vec!['X'; w + 2])
                .chain(inside.into_iter().map(|r| side(r, true)))
                .chain(std::iter::once(vec!['X'; w + 2]))
                .collect(),
            // In the bottom left corner.
            _ => std::iter::once(vec!['X'; w + 1])
                .chain(inside.into_iter().map(|r| side(r, false)))
                .collect(),
        };
        if rng.below(4) == 0 {
            let r = rng.below(rows.len());
            let last = rows[r].len() - 1;
            rows[r][last] = 'O';
        }
        let text: Vec<String> = rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let text = text.join("\n");
        if Position::parse(&text).is_err() {
            continue;
        }
        out.push(if rng.below(2) == 1 {
            colours_swapped(&text)
        } else {
            text
        });
    }
    out
}

/// A diagram with Black's and White's stones exchanged.
pub(crate) fn colours_swapped(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            'x' => 'o',
            'o' => 'x',
            c => c,
        })
        .collect()
}

/// The owner, whether the position is won (a fresh memo) and `ψ` (Black
/// positive) of a diagram's one component, when it is a territory.
pub(crate) fn territory_of(text: &str) -> Option<(Colour, bool, i64)> {
    let pos = Position::parse(text).ok()?;
    let region = Region::new(&pos).ok()?;
    let b = region.root.clone();
    let imm = region.immortal(&b);
    let comps = region.components(region.all & !(imm[0] | imm[1]));
    let [comp] = comps[..] else { return None };
    let owner = owner(&region, comp, &b)?;
    let c = owner.index();
    let mut budget = TERRITORY_STATES;
    let won = won(&region, comp, &b, c, &mut Default::default(), &mut budget);
    let count = |m: u128| i64::from(m.count_ones());
    // ψ (module docs): the points, plus the opponent's stones in them
    // (each a point and a prisoner), less the owner's mortal stones.
    let psi = count(comp) + count(comp & b.stones[1 - c]) - count(comp & b.stones[c]);
    Some((owner, won, owner.sign() * psi))
}

/// The rule against two oracles that do not use it, on small walled
/// regions ([`walled_regions`]): the search without the rule, wherever no
/// position can repeat (its value is then a short game, exact), and the
/// search under positional superko (Theorem A) at every won root it
/// finishes. The rule acts inside the first comparison too: it scores
/// every won territory the search meets, at the root or after moves (a
/// capture that walls off part of the region), so a verdict of *won* that
/// is wrong, or a territory whose owner is wrong, changes a short value.
/// (Planted bugs it catches, each alone: `won` without the free move,
/// `won` taking any answer that joins the wall without asking whether
/// the position after it is won, and `owner` taking a component next to
/// the other colour's frame stone for a territory.)
#[test]
fn walled_regions_agree_with_the_searches_without_the_rule() {
    let mut s = Store::new();
    let plain = SearchOptions {
        node_budget: 20_000,
        ..SearchOptions::default()
    };
    let with_rule = SearchOptions {
        territories: true,
        ..plain.clone()
    };
    let superko = SearchOptions {
        ko_rule: KoRule::PositionalSuperko,
        ..plain.clone()
    };
    // Regions, those searched within the budget, short values compared
    // (and those where the rule scored a territory), won roots, and won
    // roots with a superko value.
    let (mut regions, mut searched, mut short, mut scored) = (0, 0, 0, 0);
    let (mut won, mut superko_known) = (0, 0);
    for text in walled_regions(200, 0x7e44_1707) {
        regions += 1;
        let pos = Position::parse(&text).unwrap();
        // (Past the budget: left out, but for a won root, which the rule
        // scores without searching.)
        let Ok(ruled) = evaluate_go(&mut s, &pos, &with_rule) else {
            assert!(!matches!(territory_of(&text), Some((_, true, _))), "{text}");
            continue;
        };
        searched += 1;
        if let Some(p) = go_value(&mut s, &pos, &plain)
            .ok()
            .and_then(|v| v.as_short())
        {
            short += 1;
            scored += usize::from(ruled.stats.territories > 0);
            assert_eq!(ruled.value.as_short(), Some(p), "{text}");
        }
        let Some((_, true, psi)) = territory_of(&text) else {
            continue;
        };
        won += 1;
        let n = s.integer(psi);
        assert_eq!(ruled.value.as_short(), Some(n), "{text}: ψ = {psi}");
        if let Some(t) = go_value(&mut s, &pos, &superko)
            .ok()
            .and_then(|v| v.as_short())
        {
            superko_known += 1;
            assert_eq!(t, n, "{text}: the superko value, ψ = {psi}");
        }
    }
    expect_test::expect!["200 regions, 199 searched: 93 short (8 with a territory scored), 141 won roots (71 with a superko value)"].assert_eq(&format!(
        "{regions} regions, {searched} searched: {short} short ({scored} with a territory scored), \
         {won} won roots ({superko_known} with a superko value)"
    ));
}

/// White's group has one eye and makes a second with F3; Black can answer
/// that with a move that joins her wall (D5) but does not stop it. So the
/// position is not won: an answer must lead to a won position, not just
/// join the wall. Scoring it as Black's territory (`ψ` = 28) would be
/// wrong: Black first kills (F3), White first lives.
#[test]
fn a_second_eye_in_reach_is_not_a_territory() {
    let text = "X X X X X X X\nX o o o o o X\nX o . o . . X\nX o o o o o X\nX X X . X X X";
    assert_eq!(territory_of(text), Some((Colour::Black, false, 28)));
    let mut s = Store::new();
    let pos = Position::parse(text).unwrap();
    let opts = SearchOptions {
        territories: true,
        ..SearchOptions::default()
    };
    let v = go_value(&mut s, &pos, &opts).unwrap().into_short().unwrap();
    assert_eq!(format_game(&mut s, v, Style::Ascii).unwrap(), "{27|*}");
}

/// The positions the rule's checks examine count against the search's node
/// budget (`SearchStats::territory_states`): a region whose checks run long
/// is stopped by the budget, as a 28-point open area was not (it filled
/// gigabytes of memo for minutes). Here, the 3 × 3 corner with an invader's
/// stone next to the corner: the budget that just covers the positions
/// expanded and examined is enough, one less is not.
#[test]
fn the_rules_checks_count_against_the_node_budget() {
    let pos = Position::parse(". . . X O\n. o . X O\n. . . X O\nX X X X O").unwrap();
    let opts = |node_budget| SearchOptions {
        territories: true,
        node_budget,
        ..SearchOptions::default()
    };
    let e = evaluate_go(&mut Store::new(), &pos, &opts(1_000_000)).unwrap();
    let (nodes, examined) = (e.stats.nodes, e.stats.territory_states);
    assert_eq!((nodes, examined), (0, 229));
    let used = nodes + examined;
    assert!(evaluate_go(&mut Store::new(), &pos, &opts(used)).is_ok());
    let err = evaluate_go(&mut Store::new(), &pos, &opts(used - 1)).unwrap_err();
    assert!(
        matches!(err, crate::go::GoError::NodeBudget { .. }),
        "{err:?}"
    );
}
