//! Tests of Go positions (one file: the diagrams, generators and oracles
//! here are shared by most tests). Literature values are computed from diagrams, never
//! typed in as games, and each names its source:
//!   [SL-C]  Sensei's Library, "Corridors" (senseis.xmp.net/?Corridors).
//!   [SL-CI] Sensei's Library, "Corridor Infinitesimals", Bill Spight
//!           (senseis.xmp.net/?CorridorInfinitesimals).
//!   [MG]    Berlekamp & Wolfe, Mathematical Go: Chilling Gets the Last Point
//!           (1994): chilling, warming, even and odd positions, corridors.
//!   [D4]    The conventions of README.md, "Go positions" (dame, area scoring,
//!           framing and capturable stones, the ko in `X..O`).
//!   [JR]    The Japanese Rules of Go (1989): territory plus prisoners, dead
//!           stones removed as prisoners.

use super::search::evaluate_go_reusing;
use super::*;
use crate::game::{Dyadic, GameId, Store};
use crate::render::{format_game, Style as GameStyle};
use num_bigint::BigInt;
use num_rational::BigRational;

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn show(s: &mut Store, g: GameId) -> String {
    format_game(s, g, GameStyle::Ascii).unwrap()
}

fn val_with(s: &mut Store, text: &str, rules: Rules) -> GameId {
    value(s, &pos(text), &SearchOptions::with_rules(rules))
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn val(s: &mut Store, text: &str) -> GameId {
    val_with(s, text, Rules::Japanese)
}

fn parse_err(text: &str) -> DiagramError {
    Position::parse(text).expect_err(text)
}

// ------------------------------------------------------------------ diagrams

#[test]
fn diagrams_with_and_without_spaces_agree() {
    let a = pos("X X X\nX . a\nO o .");
    let b = pos("XXX\nX.a\nOo.");
    let c = pos("\n    X X X\n    X . a\n    O o .\n  ");
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!((a.width(), a.height()), (3, 3));
    assert_eq!(a.cell(4), Cell::Empty);
    assert_eq!(a.label_point('a'), Some(5));
    assert!(a.is_frame(0) && !a.is_frame(7));
    assert_eq!(a.cell(7), Cell::Stone(Colour::White));
    // `o` touches the framing `O`: its chain is immortal though it is drawn
    // capturable (README.md, "Go positions").
    assert!(a.is_immortal(7));
}

#[test]
fn sensei_library_dialect() {
    let sl = "$$B corridor\n$$ +-----------+\n$$ | X X X X X |\n$$ | X . , a O |\n$$ | X X X X X |\n$$ +-----------+";
    let plain = "XXXXX\nX..aO\nXXXXX";
    assert_eq!(pos(sl), pos(plain));
    // Edge lines without corners, `|` on one side only.
    let sl2 = "$$W\n$$ ----------\n$$ X X X X X\n$$ X . . a O |\n$$ X X X X X";
    assert_eq!(pos(sl2), pos(plain));
    // A `$$` line with only the prefix is blank.
    assert_eq!(pos("$$\n$$ X . O\n$$"), pos("X.O"));
}

#[test]
fn diagram_errors_point_at_the_fault() {
    let e = parse_err("X . O\nX . . O");
    assert_eq!(
        e.kind,
        DiagramErrorKind::RaggedRow {
            expected: 3,
            found: 4
        }
    );
    assert_eq!(e.offset, 12);
    let e = parse_err("X . O\nX .");
    assert_eq!(
        e.kind,
        DiagramErrorKind::RaggedRow {
            expected: 3,
            found: 2
        }
    );
    assert_eq!(e.offset, 9);
    let e = parse_err("X . O\nX ? O");
    assert_eq!(e.kind, DiagramErrorKind::UnknownCharacter('?'));
    assert_eq!(e.offset, 8);
    let e = parse_err("X ⇑ O");
    assert_eq!(e.kind, DiagramErrorKind::UnknownCharacter('⇑'));
    assert_eq!(e.offset, 2);
    let e = parse_err("X O\nO X");
    assert_eq!(e.kind, DiagramErrorKind::NoEmptyPoint);
    // No empty point and a capturable stone with no liberty: the error is
    // the stone's, at the stone (as the README lists it).
    let e = parse_err("X X X\nX o X\nX X X");
    assert_eq!(e.kind, DiagramErrorKind::NoLiberties);
    assert_eq!(e.offset, 8);
    let e = parse_err("X a b\nO . a");
    assert_eq!(e.kind, DiagramErrorKind::DuplicateLabel('a'));
    assert_eq!(e.offset, 10);
    // The capturable white stone is surrounded: no liberty.
    let e = parse_err("X X X .\nX o X .\nX X X .");
    assert_eq!(e.kind, DiagramErrorKind::NoLiberties);
    assert_eq!(e.offset, 10);
    // Immortal stones need no liberty.
    pos("X X X .\nX O X .\nX X X .");
    let e = parse_err("$$B\n$$ X . O\nX . O");
    assert_eq!(e.kind, DiagramErrorKind::MissingDollars);
    assert_eq!(e.offset, 13);
    let e = parse_err("X | . O");
    assert_eq!(e.kind, DiagramErrorKind::MisplacedEdge('|'));
    assert_eq!(e.offset, 2);
    assert_eq!(parse_err("  \n ").kind, DiagramErrorKind::NoRows);
    // Messages read well.
    let msg = parse_err("X . O\nX . . O").to_string();
    assert!(msg.contains("ragged") && msg.contains("byte 12"), "{msg}");
}

// --------------------------------------------------------------------- moves

/// Black's stone at (2,3) is in atari: White takes it at `a`, a ko.
const KO: &str = "\
X X O O
X a x O
X X O O";

/// `b` touches only White's frame and `a`.
const CAPTURE: &str = "\
X X X X
X . a O
O O b O";

#[test]
fn moves_captures_and_printing() {
    let p = pos(CAPTURE);
    let q = play(&p, "B b").unwrap();
    assert_eq!(q.diagram(Style::Ascii), "X X X X\nX . a O\nO O x O\n");
    assert!(!q.is_immortal(p.label_point('b').unwrap()));
    assert_eq!(
        q.render(Style::Unicode),
        "● ● ● ●\n● · a ○\n○ ○ ◆ ○\ncaptures: Black 0, White 0\n"
    );
    // White fills the last liberty: a capture.
    let r = play(&p, "B b, W a").unwrap();
    assert_eq!(r.prisoners(Colour::White), 1);
    assert_eq!(r.cell(p.label_point('b').unwrap()), Cell::Empty);
    assert_eq!(
        r.render(Style::Ascii),
        "X X X X\nX . o O\nO O b O\ncaptures: Black 0, White 1\n"
    );
    // The same sequence written four ways.
    assert_eq!(play(&p, "B[ba]").unwrap(), r);
    assert_eq!(play(&p, "B (3,3); W (2,3)").unwrap(), r);
    assert_eq!(play(&p, "Bb Wa").unwrap(), r);
    assert_eq!(play(&p, "B b W a").unwrap(), r);
    // Suicide: after White a, a black stone on b has no liberty.
    let e = play(&p, "W a, B b").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Illegal(IllegalMove::Suicide));
    assert_eq!((e.index, e.text.as_str(), e.span.clone()), (2, "B b", 7..8));
    // Played stones print lowercase, immortal or not, so the ASCII diagram
    // parses back (prisoners, ko ban and occupied labels aside).
    let t = play(&p, "B (2,2), B a").unwrap();
    assert!(t.is_immortal(p.label_point('a').unwrap()));
    assert_eq!(t.diagram(Style::Ascii), "X X X X\nX x x O\nO O b O\n");
    let mut back = pos(&t.diagram(Style::Ascii));
    assert!(back.is_immortal(p.label_point('a').unwrap()));
    back.labels = t.labels.clone();
    assert_eq!(back, t);
}

#[test]
fn basic_ko_ban() {
    let p = pos(KO);
    let q = play(&p, "W a").unwrap();
    assert_eq!(q.prisoners(Colour::White), 1);
    let taken = p.index(1, 2).unwrap();
    assert_eq!(q.ko_ban(), Some((Colour::Black, taken)));
    let e = play(&q, "B (2,3)").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Illegal(IllegalMove::KoBan));
    assert_eq!(
        (e.index, e.text.as_str(), e.span.clone()),
        (1, "B (2,3)", 2..7)
    );
    assert!(
        e.to_string().contains("move 1 `B (2,3)` is illegal: ko"),
        "{e}"
    );
    assert!(q
        .render(Style::Ascii)
        .contains("ko: Black may not retake at (2,3) at once"));
    // A tenuki (by either side) lifts the ban; the retake captures.
    let r = play(&q, "B t, W t, B (2,3)").unwrap();
    assert_eq!(r.prisoners(Colour::Black), 1);
    assert_eq!(
        r.ko_ban(),
        Some((Colour::White, p.label_point('a').unwrap()))
    );
    assert!(play(&q, "W pass, B (2,3)").is_ok());
    assert!(play(&q, "B[tt]").is_ok());
}

#[test]
fn move_errors_name_the_move() {
    let p = pos(CAPTURE);
    let e = play(&p, "B a, W a").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Illegal(IllegalMove::Occupied));
    assert_eq!((e.index, e.text.as_str(), e.span.clone()), (2, "W a", 7..8));
    assert_eq!(
        e.to_string(),
        "move 2 `W a` is illegal: the point is occupied"
    );
    // In a sequence an occupied letter means the retake in its ko mouth;
    // here no White play captures the stone on `a`.
    let e = play(&p, "B[aab]").unwrap_err();
    assert!(matches!(e.kind, MoveErrorKind::Notation(_)), "{e}");
    assert_eq!((e.index, e.text.as_str(), e.span.clone()), (2, "W a", 3..4));
    assert_eq!(
        e.to_string(),
        "move 2 `W a`: `a` is occupied and no single play of White captures the stones on it \
         (a letter means its point, or the retake in its ko mouth)"
    );
    let e = play(&p, "B a, W z").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::UnknownPoint("z".into()));
    assert_eq!(e.span, 7..8);
    // `M`: the only empty unlabelled point next to the previous move.
    let m = play(&p, "B[aM]").unwrap();
    assert_eq!(m.cell(5), Cell::Stone(Colour::White));
    let e = play(&p, "B[Ma]").unwrap_err();
    assert!(matches!(e.kind, MoveErrorKind::Notation(_)));
    assert_eq!(e.span, 2..3);
    let e = play(&p, "B[a?]").unwrap_err();
    assert!(matches!(e.kind, MoveErrorKind::Syntax(_)));
    assert_eq!(e.span, 3..4);
    let e = play(&p, "B (9,9)").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::UnknownPoint("(9,9)".into()));
    let e = play(&p, "X a").unwrap_err();
    assert!(matches!(e.kind, MoveErrorKind::Syntax(_)));
    let e = play(&p, "B").unwrap_err();
    assert!(matches!(e.kind, MoveErrorKind::Syntax(_)));
    let e = play(&p, "B[a").unwrap_err();
    assert!(matches!(e.kind, MoveErrorKind::Syntax(_)));
    // `t` is tenuki, so a label `t` makes a bare `t` ambiguous.
    let pt = pos("X . t O");
    let e = play(&pt, "B t").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::AmbiguousT);
    assert!(play(&pt, "B (1,3), W pass").is_ok());
    // The paper writes `#` and `*` after a sequence: kept as marks.
    assert!(play(&p, "B[ab]#").is_ok());
    assert!(play(&p, "W[a]*").is_ok());
}

// -------------------------------------------------------------------- values

// The corridor families are the Go bench's (`benches/diagrams`): [SL-C]'s
// closed corridor and [SL-CI]'s forked corridor trees.
#[path = "../../benches/diagrams/mod.rs"]
mod diagrams;
use diagrams::{closed_corridor, forked_corridor};

fn dyadic(num: i64, exp: u32) -> Dyadic {
    Dyadic::new(BigInt::from(num), exp)
}

#[test]
fn dame_japanese_and_area() {
    // [D4]: a dame is ∗ under territory scoring (chilled 0) and ±1 under area.
    let mut s = Store::new();
    let v = val(&mut s, "X . O");
    assert_eq!(show(&mut s, v), "*");
    let c = s.chill(v).unwrap();
    assert_eq!(c, s.zero());
    let a = val_with(&mut s, "X . O", Rules::Chinese);
    assert_eq!(show(&mut s, a), "+-1");
    // Two dame: ∗ + ∗ = 0.
    let v = val(&mut s, "X . O\nX . O");
    assert_eq!(v, s.zero());
}

#[test]
fn sensei_corridors_count_and_move_value() {
    // [SL-C]: the corridor of length n has count n - 2 + 1/2^(n-1) and move
    // value 1 - 1/2^(n-1). The count is the chilled value (a number) and the
    // mean; the move value is the temperature and what Black's block gains.
    let mut s = Store::new();
    for n in 1..=8usize {
        let text = closed_corridor(n);
        let v = val(&mut s, &text);
        let k = (n - 1) as u32;
        let count = dyadic(((n as i64) - 2) * (1 << k) + 1, k);
        let move_value = dyadic((1 << k) - 1, k);
        let chilled = s.chill(v).unwrap();
        assert_eq!(s.as_number(chilled), Some(&count), "n = {n}");
        assert_eq!(s.mean(v).unwrap(), count, "n = {n}");
        assert_eq!(
            s.temperature(v).unwrap(),
            BigRational::new(BigInt::from((1i64 << k) - 1), BigInt::from(1i64 << k)),
            "n = {n}"
        );
        // Black's block at the mouth leaves n - 1 points of territory.
        let block = s.left_options(v);
        assert_eq!(block.len(), 1);
        assert_eq!(s.as_number(block[0]), Some(&Dyadic::from_i64(n as i64 - 1)));
        assert_eq!(Dyadic::from_i64(n as i64 - 1).sub(&count), move_value);
        // White's push leaves the corridor one shorter (n ≥ 2).
        if n >= 2 {
            let shorter = val(&mut s, &closed_corridor(n - 1));
            assert_eq!(s.right_options(v).to_vec(), vec![shorter]);
        }
    }
}

#[test]
fn corridor_infinitesimals() {
    // [SL-CI], [MG]: the corridors chill to n + ∗, ↑, ⇑∗, ↑↑↑, ↑⁴∗, …:
    // (n - 1)·↑, plus ∗ when n is odd. White's push in a corridor of length
    // ≥ 2 gains ↑∗ (chilled).
    let mut s = Store::new();
    let up_star = {
        let up = s.ups(1);
        let star = s.star();
        s.add(up, star).unwrap()
    };
    let expected_names = ["1*", "2^", "3^^*", "4^3", "5^4*", "6^5", "7^6*"];
    for n in 1..=7usize {
        let v = val(&mut s, &forked_corridor(n));
        let c = s.chill(v).unwrap();
        let nus = s.as_nus(c).cloned().expect("a number-up-star value");
        assert_eq!(nus.number, Dyadic::from_i64(n as i64));
        assert_eq!(nus.ups, n as i64 - 1);
        assert_eq!(nus.nim, (n % 2) as u64);
        assert_eq!(show(&mut s, c), expected_names[n - 1]);
        // [SL-CI]: the atomic weight (the "liberty count" of the race for
        // the last play) is n - 1.
        let minus_n = s.integer(-(n as i64));
        let infinitesimal = s.add(c, minus_n).unwrap();
        let aw = s.atomic_weight(infinitesimal).unwrap();
        assert_eq!(s.as_number(aw), Some(&Dyadic::from_i64(n as i64 - 1)));
        if n >= 2 {
            assert_eq!(s.right_incentives(c).unwrap(), vec![up_star], "n = {n}");
        }
    }
    // The unchilled trees: {2|0}, {3|{2|0}}, {4|{3|{2|0}}}.
    let v = val(&mut s, &forked_corridor(1));
    assert_eq!(show(&mut s, v), "{2|0}");
    let v = val(&mut s, &forked_corridor(2));
    assert_eq!(show(&mut s, v), "{3||2|0}");
    let v = val(&mut s, &forked_corridor(3));
    assert_eq!(show(&mut s, v), "{4|||3||2|0}");
}

#[test]
fn two_point_gap_hides_a_ko() {
    // [D4]: `X..O` hides a ko. White's stone next to Black's wall is
    // captured by Black's stone next to White's wall, which White recaptures.
    let mut s = Store::new();
    let err = value(&mut s, &pos("X . . O"), &SearchOptions::default()).unwrap_err();
    let GoError::Ko { line, cycle_start } = &err else {
        panic!("{err}")
    };
    assert_eq!(line.as_slice(), ["W (1,2)", "B (1,3)", "W (1,2)"]);
    assert_eq!(*cycle_start, 1);
    let msg = err.to_string();
    assert!(
        msg.contains("ko") && msg.contains("B (1,3), W (1,2)"),
        "{msg}"
    );
    // Under area scoring too.
    let err = value(
        &mut s,
        &pos("X . . O"),
        &SearchOptions::with_rules(Rules::Chinese),
    );
    assert!(matches!(err, Err(GoError::Ko { .. })));
}

#[test]
fn basic_ko_on_the_board_is_found() {
    // A ko drawn on the board: White takes at a, Black retakes. A short game
    // is not its value.
    let mut s = Store::new();
    let err = value(&mut s, &pos(KO), &SearchOptions::default()).unwrap_err();
    assert!(matches!(err, GoError::Ko { .. }), "{err}");
}

#[test]
fn territory_and_dead_stones() {
    // [JR]: an enclosed area is territory; a dead stone inside counts as a
    // prisoner and its point as territory. Under area scoring only the points
    // count.
    let mut s = Store::new();
    let eye = "XXXX\nX..X\nXXXX";
    let v = val(&mut s, eye);
    assert_eq!(s.as_number(v), Some(&Dyadic::from_i64(2)));
    let dead = "XXXX\nXo.X\nXXXX";
    let v = val(&mut s, dead);
    assert_eq!(s.as_number(v), Some(&Dyadic::from_i64(3)));
    let v = val_with(&mut s, dead, Rules::Chinese);
    assert_eq!(s.as_number(v), Some(&Dyadic::from_i64(2)));
    // White's territory is negative.
    let v = val(&mut s, "OOOO\nO..O\nOOOO");
    assert_eq!(s.as_number(v), Some(&Dyadic::from_i64(-2)));
}

#[test]
fn an_area_the_opponent_cannot_play_in_is_settled_under_area_scoring() {
    // A 3-point corner with a Black stone in it where White has no legal
    // move: its area is 3. Played out it was `{3 | } = 4` (Black's spare
    // move), more than its points; under territory scoring it is 2.
    let mut s = Store::new();
    let corner = "x . X\n. X X\nX X X";
    let v = val_with(&mut s, corner, Rules::Chinese);
    assert_eq!(show(&mut s, v), "3");
    let v = val(&mut s, corner);
    assert_eq!(show(&mut s, v), "2");
    // The empty corner: White's stone there is dead at once, and the rest
    // is the count 3 and an infinitesimal (was `{4|7/2}`).
    let v = val_with(&mut s, ". . X\n. X X\nX X X", Rules::Chinese);
    assert_eq!(show(&mut s, v), "3^");
    // Under area scoring no region is worth more to a player than its
    // points: each stop lies within ±(region points), on random regions.
    let (mut checked, mut settled_by_the_rule) = (0, 0);
    for text in random_diagrams(300, 0xa7ea_5e77_1ed0) {
        let p = pos(&text);
        let area = SearchOptions::with_rules(Rules::Chinese);
        let Ok(e) = evaluate(&mut s, &p, &area) else {
            continue;
        };
        let n = BigRational::from_integer(BigInt::from(e.stats.region_points as i64));
        let (l, r) = (
            s.left_stop(e.value).unwrap().to_rational(),
            s.right_stop(e.value).unwrap().to_rational(),
        );
        assert!(-&n <= r && l <= n, "{text}\n{}", show(&mut s, e.value));
        checked += 1;
        let region = search::Region::new(&p).unwrap();
        let root = &region.root;
        let comps = region.components(region.nonimmortal(root));
        if comps
            .iter()
            .any(|&c| region.settled(c, root).is_none() && region.settled_area(c, root).is_some())
        {
            settled_by_the_rule += 1;
        }
    }
    assert!(
        checked > 200 && settled_by_the_rule >= 3,
        "{checked}, {settled_by_the_rule}"
    );
}

#[test]
fn options_are_the_values_after_each_move() {
    // value(play(pos, m)) for every move m, canonicalised, gives value(pos):
    // prisoners (Japanese) and stones on region points (area) carry over.
    let mut s = Store::new();
    let cases = [
        closed_corridor(3),
        forked_corridor(2),
        "X . O\nX . O".to_string(),
        "XXXXX\nX.o.O\nXXXXX".to_string(),
        "XXXXO\nX..oO\nXx..O\nXXOOO".to_string(),
    ];
    for rules in [Rules::Japanese, Rules::Chinese] {
        let opts = SearchOptions::with_rules(rules);
        for text in &cases {
            let p = pos(text);
            let v = value(&mut s, &p, &opts).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let mut sides = [Vec::new(), Vec::new()];
            for colour in [Colour::Black, Colour::White] {
                for (_, next) in search_moves(&p, colour, true, rules).unwrap() {
                    sides[colour.index()].push(value(&mut s, &next, &opts).unwrap());
                }
            }
            let [l, r] = sides;
            let rebuilt = s.canonical(l, r).unwrap();
            assert_eq!(rebuilt, v, "{rules:?}\n{text}");
        }
    }
}

/// Deterministic pseudo-random numbers (xorshift; the tests' shapes are
/// reproducible).
pub(super) struct Rng(pub(super) u64);
impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub(super) fn random_diagrams(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let h = 2 + (rng.next() % 2) as usize;
        let w = 3 + (rng.next() % 3) as usize;
        let mut text = String::new();
        let mut region = 0;
        for r in 0..h {
            if r > 0 {
                text.push('\n');
            }
            for _ in 0..w {
                let c = match rng.next() % 10 {
                    0..=2 => 'X',
                    3..=5 => 'O',
                    6 => 'x',
                    7 => 'o',
                    _ => '.',
                };
                if c != 'X' && c != 'O' {
                    region += 1;
                }
                text.push(c);
            }
        }
        if region <= 7 && Position::parse(&text).is_ok() {
            out.push(text);
        }
    }
    out
}

/// Whether some cycle of the graph scores: an edge with a gain inside a
/// strongly connected component. (The Go graphs take the points scored on
/// the depth-first line to a node as its potential, so inside a component
/// whose cycles all balance every edge scores 0.)
fn unbalanced_graph(g: &crate::ko::KoGraph) -> bool {
    let comp = g.sccs(None);
    g.node_ids().any(|v| {
        let node = g.node(v);
        [crate::ko::Side::Left, crate::ko::Side::Right]
            .into_iter()
            .any(|side| {
                node.options(side).iter().enumerate().any(|(i, t)| {
                    matches!(t, crate::ko::Target::Node(w) if comp[w.index()] == comp[v.index()])
                        && !node.gain(side, i).is_zero()
                })
            })
    })
}

/// A short value was asked of a region where a position repeats.
fn repeats(e: &GoError) -> bool {
    matches!(e, GoError::Ko { .. })
}

#[test]
fn pruning_and_splitting_never_change_a_value() {
    // The settledness rule and the split into components against the plain
    // search that plays everywhere on the whole region (Japanese rules; see
    // the module docs for the proof). Kos must be found by all of them.
    let mut s = Store::new();
    let plain = SearchOptions {
        prune_settled: false,
        split_components: false,
        ..SearchOptions::default()
    };
    let variants = [
        SearchOptions::default(),
        SearchOptions {
            split_components: false,
            ..SearchOptions::default()
        },
        SearchOptions {
            prune_settled: false,
            ..SearchOptions::default()
        },
        SearchOptions {
            symmetry: false,
            ..SearchOptions::default()
        },
    ];
    let mut diagrams = random_diagrams(300, 0x5eed_1234_abcd_0001);
    for n in 1..=4 {
        diagrams.push(closed_corridor(n));
        diagrams.push(forked_corridor(n));
    }
    diagrams.push("XXXX\nXo.X\nXXXX".into());
    diagrams.push("XXXXX\nX...X\nXXXXX".into());
    let (mut values, mut kos, mut pruned) = (0, 0, 0);
    for text in &diagrams {
        let p = pos(text);
        let reference = value(&mut s, &p, &plain);
        for opts in &variants {
            let got = value(&mut s, &p, opts);
            match (&reference, &got) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{opts:?}\n{text}"),
                (Err(a), Err(b)) if repeats(a) && repeats(b) => {}
                _ => panic!("{opts:?}\n{text}\n{reference:?}\n{got:?}"),
            }
        }
        match reference {
            Ok(_) => values += 1,
            Err(_) => kos += 1,
        }
        if let Ok(e) = evaluate(&mut s, &p, &SearchOptions::default()) {
            if e.stats.settled > 0 {
                pruned += 1;
            }
        }
        // Under area scoring the settledness rule is part of the rules, but
        // the split into components is still exact.
        let area = SearchOptions::with_rules(Rules::Chinese);
        let whole = SearchOptions {
            split_components: false,
            ..area.clone()
        };
        match (value(&mut s, &p, &area), value(&mut s, &p, &whole)) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "area\n{text}"),
            (Err(a), Err(b)) if repeats(&a) && repeats(&b) => {}
            (a, b) => panic!("area\n{text}\n{a:?}\n{b:?}"),
        }
    }
    // The sample is not all kos.
    assert!(
        values > 100 && kos > 10 && pruned > 100,
        "{values} values, {kos} kos, {pruned} with settled areas"
    );
}

/// Diagrams whose regions have mirror symmetries (and some near misses whose
/// framing colours break them).
fn symmetric_diagrams() -> Vec<String> {
    let mut out = vec![
        // Rows reversed.
        "XXXXX\nX...O\nX...O\nXXXXX",
        "XXXXX\nX.o.O\nX...O\nXXXXX",
        "XXXXX\nX.x.O\nX.o.O\nXXXXX",
        "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
        "XXXXX\nX.o.O\nX...O\nX.x.O\nXXXXX",
        // Columns reversed.
        "XXXXX\nX...X\nXX.XX\nXXOXX",
        "XXXXXX\nX....X\nXO..OX\nXXXXXX",
        // Both, and a half turn.
        "XXXXX\nX...X\nX...X\nXXXXX",
        "XXOXX\nX...X\nXX.XX\nXXXXX",
        "XXXXXX\nX..o.X\nX.o..X\nXXXXXX",
        "OXXXX\nX...X\nX...X\nXXXXO",
        "XXXXO\nX...O\nO...X\nOXXXX",
        // Squares: a diagonal, and every reflection and turn.
        "XXXXX\nX...O\nX...O\nX...O\nXOOOO",
        "XXXXX\nX.o.O\nX..xO\nX...O\nXOOOO",
        "XXOXX\nX...X\nO...O\nX...X\nXXOXX",
        "XXOXX\nX.x.X\nO...O\nX..oX\nXXOXX",
        // Not symmetric: a framing stone of the other colour.
        "XXXXX\nX...O\nX...X\nXXXXX",
        "XXXXX\nX...O\nXX.XX\nXXOXX",
        "XXXXX\nX...O\nX...X\nX...O\nXOOOO",
        "X...O\nX...O",
        "X..X\nO..O",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    for w in 2..=4 {
        out.push(format!(
            "{0}\nX{1}O\nX{1}O\n{0}",
            "X".repeat(w + 2),
            ".".repeat(w)
        ));
    }
    out
}

#[test]
fn symmetry_never_changes_a_value() {
    // Sharing the table between mirror images is exact: the values (and the
    // kos found) are those of the search without it, under both rules.
    let mut s = Store::new();
    let syms: Vec<String> = symmetric_diagrams()
        .iter()
        .map(|t| {
            let r = super::search::Region::new(&pos(t)).unwrap();
            format!("{:?}", r.syms)
        })
        .collect();
    expect_test::expect![[r#"
        [Vertical]
        [Vertical]
        [Vertical]
        [Vertical]
        [Vertical]
        [Horizontal]
        [Horizontal]
        [Vertical, Horizontal, HalfTurn]
        [Horizontal]
        [Vertical, Horizontal, HalfTurn]
        [Vertical, Horizontal, HalfTurn]
        [HalfTurn]
        [Transpose]
        [Transpose]
        [Vertical, Horizontal, HalfTurn, Transpose, AntiTranspose, QuarterTurn, QuarterTurnBack]
        [Vertical, Horizontal, HalfTurn, Transpose, AntiTranspose, QuarterTurn, QuarterTurnBack]
        []
        []
        []
        [Vertical]
        [Horizontal]
        [Vertical]
        [Vertical]
        [Vertical]"#]]
    .assert_eq(&syms.join("\n"));
    let (mut values, mut shared) = (0, 0);
    for text in symmetric_diagrams() {
        let p = pos(&text);
        for rules in [Rules::Japanese, Rules::Chinese] {
            let on = SearchOptions::with_rules(rules);
            let off = SearchOptions {
                symmetry: false,
                ..on.clone()
            };
            let (a, b) = (evaluate_go(&mut s, &p, &on), evaluate_go(&mut s, &p, &off));
            match (&a, &b) {
                (Ok(x), Ok(y)) => {
                    match (&x.value, &y.value) {
                        (GoValue::Short(u), GoValue::Short(v)) => {
                            assert_eq!(u, v, "{rules:?}\n{text}");
                            values += 1;
                        }
                        (GoValue::Ko { .. }, GoValue::Ko { .. }) => {}
                        _ => panic!("{rules:?}\n{text}\n{a:?}\n{b:?}"),
                    }
                    assert!(x.stats.nodes <= y.stats.nodes, "{text}");
                    if x.stats.nodes < y.stats.nodes {
                        shared += 1;
                    }
                }
                (Err(x), Err(y)) if repeats(x) && repeats(y) => {}
                _ => panic!("{rules:?}\n{text}\n{a:?}\n{b:?}"),
            }
        }
    }
    assert!(
        values > 20 && shared > 15,
        "{values} values, {shared} shared"
    );
}

#[test]
fn warming_undoes_chilling_on_even_positions() {
    // [MG]: under territory scoring every move changes prisoners + empty
    // points by an odd number, so a position is even or odd as that number
    // is; warming the chilled value gives back the unchilled value of an even
    // position, and the value plus ∗ for an odd one.
    let mut s = Store::new();
    let mut diagrams: Vec<String> = (1..=8).map(closed_corridor).collect();
    diagrams.extend((1..=6).map(forked_corridor));
    diagrams.extend(random_diagrams(200, 0x0dd_e4e2));
    diagrams.push("X . O".into());
    diagrams.push("XXXX\nXo.X\nXXXX".into());
    let star = s.star();
    let mut checked = 0;
    for text in &diagrams {
        let p = pos(text);
        let Ok(v) = value(&mut s, &p, &SearchOptions::default()) else {
            continue;
        };
        let empty = (0..p.width() * p.height())
            .filter(|&q| p.cell(q) == Cell::Empty)
            .count();
        let even = empty % 2 == 0;
        assert_eq!(s.is_even(v).unwrap(), even, "{text}");
        assert_eq!(s.is_odd(v).unwrap(), !even, "{text}");
        let c = s.chill(v).unwrap();
        let w = s.warm(c).unwrap();
        let expected = if even { v } else { s.add(v, star).unwrap() };
        assert_eq!(w, expected, "{text}");
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn node_budget_and_region_size() {
    let mut s = Store::new();
    let opts = SearchOptions {
        node_budget: 5,
        ..SearchOptions::default()
    };
    let err = value(&mut s, &pos(&closed_corridor(8)), &opts).unwrap_err();
    assert_eq!(
        err,
        GoError::NodeBudget {
            nodes: 5,
            budget: 5
        }
    );
    assert!(err.to_string().contains("after searching 5 positions"));
    let big = ".".repeat(129);
    let err = value(&mut s, &pos(&big), &SearchOptions::default()).unwrap_err();
    assert_eq!(
        err,
        GoError::TooLarge {
            points: 129,
            max: 128
        }
    );
}

#[test]
fn statistics_are_reported() {
    let mut s = Store::new();
    let e = evaluate(&mut s, &pos(&closed_corridor(6)), &SearchOptions::default()).unwrap();
    assert_eq!(e.stats.region_points, 6);
    assert!(e.stats.nodes > 0 && e.stats.tt_hits > 0 && e.stats.settled > 0);
    assert!(e.stats.tt_hits <= e.stats.tt_lookups);
    assert!(e.stats.hit_percent() <= 100);
}

// ---------------------------------------------------------------------- kos

/// [D4] §2: the simple ko, drawn with White's stone just taken: White's `o`
/// at (2,2) is in atari; Black captures at (2,3), White retakes at (2,2).
const KO_TO_CAPTURE: &str = "\
X X O O
X o . O
X X O O";

/// The ko value of a position, which must be one ko graph.
fn ko_of(s: &mut Store, text: &str, opts: &SearchOptions) -> GoKo {
    let v = go_value(s, &pos(text), opts).unwrap_or_else(|e| panic!("{e}\n{text}"));
    v.as_ko(s)
        .unwrap_or_else(|| panic!("not one ko graph: {v:?}\n{text}"))
        .clone()
}

fn ko_text(s: &mut Store, k: &GoKo) -> String {
    k.graph.format(s, GameStyle::Ascii).unwrap()
}

/// Whether two ko graphs have the same shape from their roots: the same
/// options in the same order, leading to corresponding nodes or equal games.
fn same_shape(a: &crate::ko::KoGraph, b: &crate::ko::KoGraph) -> bool {
    use crate::ko::{NodeId, Target};
    if a.len() != b.len() {
        return false;
    }
    let mut map: Vec<Option<NodeId>> = vec![None; a.len()];
    let mut stack = vec![(a.root(), b.root())];
    map[a.root().index()] = Some(b.root());
    while let Some((x, y)) = stack.pop() {
        let (nx, ny) = (a.node(x), b.node(y));
        for (ox, oy) in [(nx.left(), ny.left()), (nx.right(), ny.right())] {
            if ox.len() != oy.len() {
                return false;
            }
            for (tx, ty) in ox.iter().zip(oy) {
                match (tx, ty) {
                    (Target::Game(g), Target::Game(h)) if g == h => {}
                    (Target::Node(u), Target::Node(v)) => match map[u.index()] {
                        Some(w) if w == v => {}
                        Some(_) => return false,
                        None => {
                            map[u.index()] = Some(v);
                            stack.push((u, v));
                        }
                    },
                    _ => return false,
                }
            }
        }
    }
    true
}

/// Mean and temperature of the root under both komasters, and the kind.
fn masts(s: &mut Store, k: &GoKo) -> String {
    use crate::ko::Komaster;
    let root = k.graph.root();
    let mut out = Vec::new();
    for km in [Komaster::Black, Komaster::White] {
        match k.graph.thermograph(s, root, km) {
            Ok(th) => out.push(format!(
                "{} komaster: mean {}, temperature {}",
                km.player(),
                th.mean(),
                th.temperature()
            )),
            Err(e) => out.push(format!("{} komaster: {e}", km.player())),
        }
    }
    match k.graph.ko_kind(s, root) {
        Ok(Some(kind)) => out.push(format!("{kind}")),
        Ok(None) => out.push("ko-free".into()),
        Err(e) => out.push(format!("kind: {e}")),
    }
    out.join("\n")
}

fn rational(s: &Store, g: GameId) -> BigRational {
    let d = s.as_number(g).expect("a number").clone();
    d.to_rational()
}

#[test]
fn a_basic_ko_drawn_on_the_board_is_the_simple_ko() {
    // The simple ko `kw: {{b | kw} | w}` has temperature (b − w)/3, the
    // capture position at mean w + 2s/3 and the other at w + s/3. b and w are
    // the values of the positions after the fills, computed from the
    // diagrams after the fill, never typed in.
    use crate::ko::Komaster;
    let mut s = Store::new();
    let opts = SearchOptions::default();
    // Black to capture.
    let k = ko_of(&mut s, KO_TO_CAPTURE, &opts);
    let b = value(
        &mut s,
        &play(&pos(KO_TO_CAPTURE), "B (2,3), B (2,2)").unwrap(),
        &opts,
    )
    .unwrap();
    let w = value(
        &mut s,
        &play(&pos(KO_TO_CAPTURE), "W (2,3)").unwrap(),
        &opts,
    )
    .unwrap();
    expect_test::expect!["k0: {{1 | k0} | 0}"].assert_eq(&ko_text(&mut s, &k));
    assert!(same_shape(&k.graph, &crate::ko::KoGraph::ko(b, w)));
    assert_eq!(
        k.lines(),
        vec![Vec::<String>::new(), vec!["B (2,3)".to_string()]]
    );
    assert_eq!(k.potentials, vec![0, 1]);
    let swing = rational(&s, b) - rational(&s, w);
    let three = BigRational::from_integer(BigInt::from(3));
    for km in [Komaster::Black, Komaster::White] {
        let th = k.graph.thermograph(&mut s, k.graph.root(), km).unwrap();
        assert_eq!(th.temperature(), &(&swing / &three), "{km:?}");
        assert_eq!(th.mean(), &(rational(&s, w) + &swing / &three));
        let captured = k.graph.find("k1").unwrap();
        let th = k.graph.thermograph(&mut s, captured, km).unwrap();
        assert_eq!(
            th.mean(),
            &(rational(&s, w) + &swing * BigRational::new(2.into(), 3.into()))
        );
    }
    expect_test::expect![[r#"
        Black komaster: mean 1/3, temperature 1/3
        White komaster: mean 1/3, temperature 1/3
        placid"#]]
    .assert_eq(&masts(&mut s, &k));
    // Black has just captured (the stone at (2,3) is in atari): the ko
    // after Black's capture, `kb: {b | {kb | w}}`.
    let k = ko_of(&mut s, KO, &opts);
    let b = value(&mut s, &play(&pos(KO), "B a").unwrap(), &opts).unwrap();
    let w = value(&mut s, &play(&pos(KO), "W a, W (2,3)").unwrap(), &opts).unwrap();
    expect_test::expect!["k0: {0 | {k0 | -1}}"].assert_eq(&ko_text(&mut s, &k));
    assert!(same_shape(&k.graph, &crate::ko::KoGraph::ko_captured(b, w)));
    let swing = rational(&s, b) - rational(&s, w);
    let t = k
        .graph
        .temperature(&mut s, k.graph.root(), Komaster::Black)
        .unwrap();
    assert_eq!(t, &swing / &three);
    // The ko-free options of the root are the values after those moves.
    let root = k.graph.node(k.graph.root());
    assert_eq!(root.left().to_vec(), [crate::ko::Target::Game(b)]);
    // Area scoring: the same shape with the area values of the fills.
    let area = SearchOptions::with_rules(Rules::Chinese);
    let k = ko_of(&mut s, KO_TO_CAPTURE, &area);
    let b = value(
        &mut s,
        &play(&pos(KO_TO_CAPTURE), "B (2,3), B (2,2)").unwrap(),
        &area,
    )
    .unwrap();
    let w = value(
        &mut s,
        &play(&pos(KO_TO_CAPTURE), "W (2,3)").unwrap(),
        &area,
    )
    .unwrap();
    assert!(same_shape(&k.graph, &crate::ko::KoGraph::ko(b, w)));
    expect_test::expect!["k0: {{2 | k0} | -2}"].assert_eq(&ko_text(&mut s, &k));
    expect_test::expect![[r#"
        Black komaster: mean -2/3, temperature 4/3
        White komaster: mean -2/3, temperature 4/3
        placid"#]]
    .assert_eq(&masts(&mut s, &k));
}

#[test]
fn chilling_a_ko_taxes_every_move() {
    // GoValue::chill: the chilled simple ko (Black to capture) is
    // `{{chill(b) − 2 | k} | chill(w) + 1}` (module docs of go::kos); under
    // Japanese rules its swing is the unchilled swing minus 3, so its
    // komaster temperature is one less when that stays positive.
    let mut s = Store::new();
    let opts = SearchOptions::default();
    for text in [KO_TO_CAPTURE, KO] {
        let p = pos(text);
        let v = go_value(&mut s, &p, &opts).unwrap();
        let c = v.chill(&mut s).unwrap();
        let (k, kc) = (v.as_ko(&s).unwrap().clone(), c.as_ko(&s).unwrap().clone());
        assert_eq!(k.moves[0], 0);
        // Node by node: the same edges, terminals chilled and taxed.
        for n in k.graph.node_ids() {
            let (a, b) = (k.graph.node(n), kc.graph.node(n));
            // The graphs balance, so the gains stay as they are.
            for side in [crate::ko::Side::Left, crate::ko::Side::Right] {
                assert!(a.gains(side).eq(b.gains(side)));
            }
            for (sign, oa, ob) in [(1, a.left(), b.left()), (-1, a.right(), b.right())] {
                for (ta, tb) in oa.iter().zip(ob) {
                    match (ta, tb) {
                        (crate::ko::Target::Game(x), crate::ko::Target::Game(y)) => {
                            let cx = s.chill(x).unwrap();
                            let tax = s.integer(-(i64::from(k.moves[n.index()]) + sign));
                            assert_eq!(y, s.add(cx, tax).unwrap());
                        }
                        (ta, tb) => assert_eq!(ta, tb),
                    }
                }
            }
        }
    }
    // A simple ko with a larger swing, as the search would build it (Black
    // to capture at the root, one Black move to the capture node): the
    // chilled komaster temperature is the unchilled (b − w)/3 minus 1, the
    // mean unchanged.
    let (b, w) = (s.integer(7), s.integer(-2));
    let mut k = ko_of(&mut s, KO_TO_CAPTURE, &opts);
    assert_eq!((&k.potentials, &k.moves), (&vec![0, 1], &vec![0, 1]));
    k.graph = std::rc::Rc::new(crate::ko::KoGraph::ko(b, w));
    let big = GoValue::Ko {
        kos: vec![k],
        short: s.zero(),
    };
    let chilled_big = big.chill(&mut s).unwrap();
    for km in [crate::ko::Komaster::Black, crate::ko::Komaster::White] {
        let (k, kc) = (big.as_ko(&s).unwrap(), chilled_big.as_ko(&s).unwrap());
        let t = k.graph.thermograph(&mut s, k.graph.root(), km).unwrap();
        let tc = kc.graph.thermograph(&mut s, kc.graph.root(), km).unwrap();
        assert_eq!(t.temperature(), &BigRational::from_integer(3.into()));
        assert_eq!(tc.temperature(), &BigRational::from_integer(2.into()));
        assert_eq!(tc.mean(), t.mean());
    }
    let v = go_chilled(&mut s, &pos(KO_TO_CAPTURE), &opts).unwrap();
    expect_test::expect!["k0: {{-1 | k0} | 1}"]
        .assert_eq(&v.format(&mut s, GameStyle::Ascii).unwrap());
}

#[test]
fn two_point_gap_is_a_ko_graph() {
    // [D4]: `X..O` hides a ko; its value is a ko graph whose cycles are the
    // capture and recapture of the stone played next to the opponent's wall.
    let mut s = Store::new();
    let opts = SearchOptions::default();
    let k = ko_of(&mut s, "X . . O", &opts);
    expect_test::expect!["{*, -1 + k2: {1 | k1: {k2 | 0}} | k1, *}"]
        .assert_eq(&ko_text(&mut s, &k));
    expect_test::expect![[r#"
        Black komaster: mean 0, temperature 0
        White komaster: mean 0, temperature 0
        placid"#]]
    .assert_eq(&masts(&mut s, &k));
    // The ko-free options of the root are the values after those moves.
    let p = pos("X . . O");
    let root = k.graph.node(k.graph.root());
    let after = value(&mut s, &play(&p, "B (1,2)").unwrap(), &opts).unwrap();
    assert_eq!(root.left().get(0), crate::ko::Target::Game(after));
    let k = ko_of(
        &mut s,
        "X . . O",
        &SearchOptions::with_rules(Rules::Chinese),
    );
    expect_test::expect!["{{2|0}, k2: {2 | k1: {k2 | -2}} | k1, {0|-2}}"]
        .assert_eq(&ko_text(&mut s, &k));
    expect_test::expect![[r#"
        Black komaster: mean 0, temperature 1
        White komaster: mean 0, temperature 1
        placid"#]]
    .assert_eq(&masts(&mut s, &k));
}

#[test]
fn larger_kos() {
    // Ko shapes drawn on the board: their graphs, komaster masts, and the
    // masts of the chilled graphs.
    let mut s = Store::new();
    let shapes = [
        // Approach ko: White must first fill the outside liberty at (3,3)
        // (safely, next to her wall) before taking at a; Black settles with
        // one move at a or (3,3).
        "XXOO\nXaxO\nXX.O\nXXOO",
        // The same with Black needing the approach: her stone at (2,3) has
        // the ko point and an outside liberty that Black must fill first.
        "OOXX\nOaoX\nOO.X\nOOXX",
        // Black's capture at (2,3) takes one stone and leaves two in atari:
        // a cycle one prisoner apart (see `unbalanced_cycles_are_reported`).
        "XXOOO\nXo.xO\nXXOOO",
        // Two kos side by side in one component.
        "XXOOXX\nXo..xO\nXXOOXX",
        // A ko whose loser also loses a point behind it: unbalanced too.
        "XXOOO\nXaxbO\nXX.OO\nXXOOO",
    ];
    let mut out = String::new();
    for text in shapes {
        out.push_str(text);
        out.push('\n');
        match go_value(&mut s, &pos(text), &SearchOptions::default()) {
            Ok(v) => {
                out.push_str(&v.format(&mut s, GameStyle::Ascii).unwrap());
                out.push('\n');
                if let Some(k) = v.as_ko(&s).cloned() {
                    out.push_str(&masts(&mut s, &k));
                    out.push('\n');
                    let c = v.chill(&mut s).unwrap();
                    let kc = c.as_ko(&s).unwrap().clone();
                    out.push_str("chilled: ");
                    out.push_str(&masts(&mut s, &kc).replace('\n', "; "));
                    out.push('\n');
                }
            }
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
        out.push('\n');
    }
    expect_test::expect![[r#"
        XXOO
        XaxO
        XX.O
        XXOO
        {*, 1 | k1: {0 | {k1 | -1}}}
        Black komaster: mean 1/3, temperature 2/3
        White komaster: mean 1/3, temperature 2/3
        placid
        chilled: Black komaster: mean 1/2, temperature -1/2; White komaster: mean 1/4, temperature -1/4; active

        OOXX
        OaoX
        OO.X
        OOXX
        {k1: {{1 | k1} | 0} | *, -1}
        Black komaster: mean -1/3, temperature 2/3
        White komaster: mean -1/3, temperature 2/3
        placid
        chilled: Black komaster: mean -1/4, temperature -1/4; White komaster: mean -1/2, temperature -1/2; active

        XXOOO
        Xo.xO
        XXOOO
        k0: {k1: {1 | {{*, -1 + k1 | k4: {0 | k5: {k4 | -1}}}, -1 + k0 | -2, k5}} | -2}
        Black komaster: mean -1, temperature 1
        White komaster: mean -1, temperature 1
        placid
        chilled: Black komaster: mean -1, temperature 0; White komaster: mean -1, temperature 0; placid

        XXOOXX
        Xo..xO
        XXOOXX
        {{1*, 2 | k2: {1 | k3: {k2 | 0}}}, {2|0} | *, k3}
        Black komaster: mean 2/3, temperature 2/3
        White komaster: mean 2/3, temperature 2/3
        placid
        chilled: Black komaster: mean 3/4, temperature -1/4; White komaster: mean 1/2, temperature -1/2; active

        XXOOO
        XaxbO
        XX.OO
        XXOOO
        {0, {*, 1 | k2: {0 | {k4: {-1*, -1 + k2 | k5: {-1 | k6: {k5 | -2}}}, {-1 + k2 | -4} | -3, k6}}}, 1* | {*, 1 | 1 + k5}, 1 + k4}
        Black komaster: mean 1/2, temperature 1/2
        White komaster: mean 1/2, temperature 1/2
        placid
        chilled: Black komaster: mean 1/2, temperature -1/2; White komaster: mean 1/2, temperature -1/2; placid

    "#]].assert_eq(&out);
}

#[test]
fn unbalanced_cycles_are_ko_graphs_with_gains() {
    // Sending two, returning one: Black's `e` puts two stones in atari, White
    // takes both at a, Black takes back one at (2,3) and the position is
    // back, White one prisoner up. One node per position, the prisoners on
    // the edges: the cycle k0 → k1 → k2 → k0 (B e, W a, B (2,3); k2 is the
    // unlabelled node after W a) scores −2 + 1, which shows as the gain −1
    // on the edge back to k0 (k2's potential is −2, the walk's line to it).
    // It used to be GoError::UnbalancedCycle.
    //
    // By hand (t ≥ 0). Nodes: k1 = after B e (two stones, one liberty a);
    // k5 = after W e (x in atari), k4 = after W e, W a (x taken): k5 ↔ k4
    // is a simple ko, Black fills at a for φ(k5) − 1 … written relative to
    // k5: k5 = {-1 | k4}, k4 = {k5 | -2}, the ko after Black's capture with
    // b = −1, w = −2, so its Left wall is `−1 − t` up to the temperature
    // 1/3. White's e from k0 is `1 + k5`: ρ(t) ≤ 1 + (−1 − t) + t = 0 for
    // t ≤ 1/3 (then −1/3 + t). Black's a from k0 leaves e as a dame, `*`:
    // λ(t) ≥ 0 − t, and at t = 0 Black's best is that 0 (B e is a
    // sacrifice: W a, B (2,3) ends at −1 + k0). So λ(0) = ρ(0) = 0 and λ < ρ
    // for t > 0: no unsettled point at t ≥ 0, the position is cold, the
    // mast the common stop 0 (temperature −1 under rule 3 of ko::thermo,
    // as for a number), under either komaster — the scoring cycle is bad
    // for the player who runs it (Black) and never played.
    let mut s = Store::new();
    let v = go_value(
        &mut s,
        &pos("XXOOO\nXaxeO\nXXOOO"),
        &SearchOptions::default(),
    )
    .unwrap();
    let k = v.as_ko(&s).unwrap().clone();
    expect_test::expect![
        "k0: {*, k1: {0 | {-1 + k0, {-1 + k1 | -4} | -3, k4: {k5: {-1 | k4} | -2}}} | 1 + k5}"
    ]
    .assert_eq(&ko_text(&mut s, &k));
    expect_test::expect![[r#"
        Black komaster: mean 0, temperature -1
        White komaster: mean 0, temperature -1
        placid"#]]
    .assert_eq(&masts(&mut s, &k));
    let (line, start) = k.first_cycle();
    expect_test::expect![[r#"["B e", "W a", "B (2,3)"] from 0"#]]
        .assert_eq(&format!("{line:?} from {start}"));
    // The cycle sends two and returns one: some edge inside a strongly
    // connected component scores.
    assert!(unbalanced_graph(&k.graph));
    let c = v.chill(&mut s).unwrap();
    expect_test::expect![
        "k0: {-1, k1: {-2 | {-2 + k0, {-2 + k1 | -4} | -2, k4: {k5: {-2 | k4} | 0}}} | 2 + k5}"
    ]
    .assert_eq(&c.format(&mut s, GameStyle::Ascii).unwrap());
    // Under local superko every line is finite: a short game.
    let superko = SearchOptions {
        ko_rule: KoRule::PositionalSuperko,
        node_budget: 200_000,
        ..SearchOptions::default()
    };
    let v = go_value(&mut s, &pos("XXOOO\nXaxeO\nXXOOO"), &superko).unwrap();
    expect_test::expect!["0"].assert_eq(&v.format(&mut s, GameStyle::Ascii).unwrap());
    // Under area scoring the cycle balances (no stone becomes immortal in
    // it): a ko graph.
    let v = go_value(
        &mut s,
        &pos("XXOOO\nXaxeO\nXXOOO"),
        &SearchOptions::with_rules(Rules::Chinese),
    )
    .unwrap();
    expect_test::expect![
        "k0: {{3|1}, k1: {3 | {k0, {k1 | -3} | -3, k4: {k5: {1 | k4} | -3}}} | k5}"
    ]
    .assert_eq(&v.format(&mut s, GameStyle::Ascii).unwrap());
}

#[test]
fn superko_rules_give_short_games() {
    let mut s = Store::new();
    let mut out = String::new();
    for text in [KO_TO_CAPTURE, KO, "X . . O"] {
        for rule in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
            let opts = SearchOptions {
                ko_rule: rule,
                ..SearchOptions::default()
            };
            let v = go_value(&mut s, &pos(text), &opts).unwrap();
            let g = v.as_short().expect("superko values are short");
            out.push_str(&format!("{rule:?} {text:?}: {}\n", show(&mut s, g)));
        }
    }
    expect_test::expect![[r#"
        PositionalSuperko "X X O O\nX o . O\nX X O O": {2|0}
        SituationalSuperko "X X O O\nX o . O\nX X O O": {2|0}
        PositionalSuperko "X X O O\nX a x O\nX X O O": {0|-2}
        SituationalSuperko "X X O O\nX a x O\nX X O O": {0|-2}
        PositionalSuperko "X . . O": 0
        SituationalSuperko "X . . O": 0
    "#]]
    .assert_eq(&out);
}

/// The chilled graph of `k` built the long way, as `GoKo::chill` did before
/// it used `KoGraph::retaxed`: every option taxed one by one into a
/// `KoGraphBuilder`, then the whole graph checked again.
fn chill_by_rebuild(s: &mut Store, k: &GoKo) -> crate::ko::KoGraph {
    use crate::ko::{KoGraphBuilder, Side, Target};
    let g = &k.graph;
    let mut b = KoGraphBuilder::with_capacity(g.len(), g.option_count());
    for v in g.node_ids() {
        let node = g.node(v);
        let m = i64::from(k.moves[v.index()]);
        let mut sides: [Vec<(Dyadic, Target)>; 2] = [Vec::new(), Vec::new()];
        for (at, (side, sign)) in [(Side::Left, 1), (Side::Right, -1)].into_iter().enumerate() {
            for (i, t) in node.options(side).iter().enumerate() {
                let gain = node.gain(side, i);
                sides[at].push(match t {
                    Target::Node(w) => {
                        let tax = Dyadic::from_i64(i64::from(k.moves[w.index()]) - m - sign);
                        (gain.add(&tax), Target::Node(w))
                    }
                    Target::Game(x) => {
                        let c = s.chill(x).unwrap();
                        let tax = s.integer(-(m + sign));
                        let c = s.add(c, tax).unwrap();
                        let c = match gain.is_zero() {
                            true => c,
                            false => {
                                let x = s.number(gain.clone());
                                s.add(x, c).unwrap()
                            }
                        };
                        (Dyadic::zero(), Target::Game(c))
                    }
                });
            }
        }
        let [left, right] = sides;
        b.node(&node.label(), node.is_named(), left, right);
    }
    b.build(g.root()).unwrap_or_else(|e| panic!("{e}"))
}

/// Kos of every kind: balanced and unbalanced cycles, two kos in one
/// component, two kos in two components, and the open 3 × 3 area (3514
/// nodes).
const NAMED_KOS: [&str; 10] = [
    KO_TO_CAPTURE,
    KO,
    "X . . O",
    APPROACH_KO,
    "OOXX\nOaoX\nOO.X\nOOXX",
    "XXOOO\nXo.xO\nXXOOO",
    "XXOOXX\nXo..xO\nXXOOXX",
    "XXOOO\nXaxbO\nXX.OO\nXXOOO",
    "XXOO.XXOO\nXo.O.Xo.O\nXXOO.XXOO",
    "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
];

#[test]
fn chilling_a_ko_graph_keeps_it_and_taxes_it_as_a_rebuild_does() {
    // GoKo::chill maps the gains and terminal games of the graph through
    // KoGraph::retaxed and does not check the graph again; the long way
    // (every option taxed into a builder, the graph checked) must give the
    // same graph, array for array, on kos of every kind: balanced and
    // unbalanced cycles, both rules, two kos in one component, two kos in
    // two components, and the open 3 × 3 area (3514 nodes).
    let mut s = Store::new();
    let mut kos = 0;
    for text in NAMED_KOS {
        for rules in [Rules::Japanese, Rules::Chinese] {
            let v = go_value(&mut s, &pos(text), &SearchOptions::with_rules(rules))
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            let GoValue::Ko { kos: before, .. } = &v else {
                continue;
            };
            let GoValue::Ko { kos: after, .. } = v.chill(&mut s).unwrap() else {
                panic!("chilling lost the kos of\n{text}");
            };
            assert_eq!(before.len(), after.len());
            for (k, kc) in before.iter().zip(&after) {
                let reference = chill_by_rebuild(&mut s, k);
                assert!(*kc.graph == reference, "{rules:?}\n{text}");
                assert_eq!(
                    kc.graph.format(&mut s, GameStyle::Ascii).unwrap(),
                    reference.format(&mut s, GameStyle::Ascii).unwrap()
                );
                kos += 1;
            }
        }
    }
    // One graph per shape and rule, two for the two separate kos.
    assert_eq!(kos, 22);
}

/// Whether some option of the graph has a non-zero gain.
fn has_gain(g: &crate::ko::KoGraph) -> bool {
    use crate::ko::Side;
    g.node_ids().any(|v| {
        let n = g.node(v);
        [Side::Left, Side::Right]
            .into_iter()
            .any(|side| n.gains(side).any(|x| !x.is_zero()))
    })
}

#[test]
fn chilled_values_built_directly_equal_the_unchilled_values_chilled() {
    // evaluate_go_chilled (and go_chilled) build a ko graph chilled from
    // the walk (Search::ko_graph with `CHILL`) rather than chilling the
    // unchilled graph (GoValue::chill, KoGraph::retaxed): the two must be
    // the same GoValue (graphs array for array, gains interned in the same
    // order, potentials, moves, walk lines; the short part chilled), with
    // the same statistics, on the random diagrams and the named kos, under
    // both rules; the named ones under the superko rules too.
    let mut s = Store::new();
    let mut diagrams: Vec<(String, bool)> = random_diagrams(300, 0x5eed_1234_abcd_0001)
        .into_iter()
        .map(|t| (t, false))
        .collect();
    diagrams.extend(NAMED_KOS.map(|t| (t.to_string(), true)));
    // Counted: the values with kos, those beside a ko-free part that is
    // not a number (a short part to chill), and those whose chilled graphs
    // have a non-zero gain (a tax that does not cancel).
    let (mut kos, mut with_short, mut taxed_gains) = (0, 0, 0);
    for (text, superko) in &diagrams {
        let p = pos(text);
        let ko_rules: &[KoRule] = match superko {
            true => &[
                KoRule::Basic,
                KoRule::PositionalSuperko,
                KoRule::SituationalSuperko,
            ],
            false => &[KoRule::Basic],
        };
        for rules in [Rules::Japanese, Rules::Chinese] {
            for &ko_rule in ko_rules {
                let opts = SearchOptions {
                    ko_rule,
                    ..SearchOptions::with_rules(rules)
                };
                let direct = evaluate_go_chilled(&mut s, &p, &opts)
                    .unwrap_or_else(|e| panic!("{e}\n{text}"));
                let e = evaluate_go(&mut s, &p, &opts).unwrap();
                let reference = e.value.chill(&mut s).unwrap();
                assert!(direct.chilled == reference, "{rules:?} {ko_rule:?}\n{text}");
                assert_eq!(direct.stats, e.stats, "{text}");
                assert_eq!(go_chilled(&mut s, &p, &opts).unwrap(), reference);
                match &direct.chilled {
                    GoValue::Short(_) => assert_eq!(direct.value, Some(e.value), "{text}"),
                    GoValue::Ko { kos: graphs, short } => {
                        assert_eq!(direct.value, None);
                        kos += 1;
                        if *short != s.zero() {
                            with_short += 1;
                        }
                        if graphs.iter().any(|k| has_gain(&k.graph)) {
                            taxed_gains += 1;
                        }
                    }
                }
            }
        }
    }
    expect_test::expect!["135 kos, 24 beside a non-number, 84 with gains"].assert_eq(&format!(
        "{kos} kos, {with_short} beside a non-number, {taxed_gains} with gains"
    ));
}

/// An approach ko: Black's `x` at (2,3) has the liberties `a` and (3,3);
/// White's only move is to fill (3,3) (her stone at `a` would be suicide).
const APPROACH_KO: &str = "XXOO\nXaxO\nXX.O\nXXOO";

#[test]
fn situational_superko_differs_from_positional() {
    // The two superko rules give different values, so each is applied as
    // documented (module docs, "Kos"). By hand, Japanese rules, P = after
    // W (3,3), Q = after W (3,3), W a (x taken, White one prisoner up).
    // Black's options from the root: B a (x joins the wall; (3,3) is a dame,
    // `*`) and B (3,3) (the point a is Black's: 1). White's only option is P.
    // In P: B a connects (0); W a takes, to Q. In Q: W (2,3) connects (−1);
    // B (2,3) retakes, back to P.
    //  * Positional: the retake recreates P, which occurred: Q = { | −1} =
    //    −2, P = {0 | −2}, the root {*, 1 | {0|−2}} = {1||0|−2}.
    //  * Situational: P occurred after White's move, so Black's retake is
    //    allowed; then White's W a would recreate Q, which occurred after
    //    White's move: banned. The second P is {0 | } = 1, so Q = {1 | −1},
    //    the first P {0 | ±1} = 1 (±1 reverses through 1 ≥ P), and the root
    //    {*, 1 | 1} = 1∗.
    let mut s = Store::new();
    let p = pos(APPROACH_KO);
    let mut shown = Vec::new();
    for rule in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        let opts = SearchOptions {
            ko_rule: rule,
            ..SearchOptions::default()
        };
        let g = go_value(&mut s, &p, &opts).unwrap().as_short().unwrap();
        shown.push(show(&mut s, g));
    }
    assert_eq!(shown, ["{1||0|-2}", "1*"]);
    // Under the basic rule it is a ko graph.
    assert!(go_value(&mut s, &p, &SearchOptions::default())
        .unwrap()
        .as_ko(&s)
        .is_some());
}

#[test]
fn a_long_corridor_is_not_searched_in_every_order() {
    // Issue 5: settled points are not played, so a 10-point corridor does not
    // enumerate the 10! orders of filling it. With the transposition table
    // and the settledness rule the search expands a few thousand positions;
    // without the rule it expands more, for the same value.
    let mut s = Store::new();
    let p = pos(&closed_corridor(10));
    let e = evaluate(&mut s, &p, &SearchOptions::default()).unwrap();
    let unpruned = SearchOptions {
        prune_settled: false,
        ..SearchOptions::default()
    };
    let f = evaluate(&mut s, &p, &unpruned).unwrap();
    assert_eq!(e.value, f.value);
    assert!(e.stats.settled > 0);
    assert!(e.stats.nodes < f.stats.nodes, "{:?} {:?}", e.stats, f.stats);
    assert!(e.stats.nodes <= 4096, "{:?}", e.stats);
    // Within a budget far below 10! = 3 628 800.
    let tight = SearchOptions {
        node_budget: 4096,
        ..SearchOptions::default()
    };
    let v = value(&mut s, &p, &tight).unwrap();
    let c = s.chill(v).unwrap();
    // [SL-C]: count n − 2 + 1/2^(n−1) = 8 + 1/512.
    assert_eq!(s.as_number(c), Some(&dyadic(8 * 512 + 1, 9)));
}

#[test]
fn ko_search_respects_the_node_budget() {
    let mut s = Store::new();
    for rule in [KoRule::Basic, KoRule::PositionalSuperko] {
        let opts = SearchOptions {
            ko_rule: rule,
            ..SearchOptions::default()
        };
        let all = evaluate_go(&mut s, &pos("X . . O"), &opts)
            .unwrap()
            .stats
            .nodes;
        assert!(all > 3, "{all}");
        for budget in 1..all + 2 {
            let opts = SearchOptions {
                node_budget: budget,
                ..opts.clone()
            };
            match go_value(&mut s, &pos("X . . O"), &opts) {
                Err(GoError::NodeBudget { nodes, budget: b }) => {
                    assert!(budget < all);
                    assert_eq!((nodes, b), (budget, budget))
                }
                Ok(_) => assert!(budget >= all, "{rule:?} {budget}"),
                Err(e) => panic!("{e}"),
            }
        }
    }
    // A larger open area with kos stops at the budget, never loops.
    let opts = SearchOptions {
        node_budget: 2000,
        ko_rule: KoRule::PositionalSuperko,
        ..SearchOptions::default()
    };
    let e = evaluate_go(&mut s, &pos("X . . . O\nX . . . O"), &opts);
    match e {
        Err(GoError::NodeBudget { nodes, .. }) => assert_eq!(nodes, 2000),
        Ok(e) => assert!(e.stats.nodes <= 2000),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn kos_in_random_positions() {
    // Every random diagram has a value; the kos among them are valid ko
    // graphs whose komaster masts do not depend on pruning or splitting.
    use crate::ko::Komaster;
    let mut s = Store::new();
    let variants = [
        SearchOptions::default(),
        SearchOptions {
            split_components: false,
            ..SearchOptions::default()
        },
        SearchOptions {
            prune_settled: false,
            ..SearchOptions::default()
        },
    ];
    let (mut kos, mut unbalanced, mut mismatch) = (0, 0, Vec::new());
    for text in random_diagrams(300, 0x5eed_1234_abcd_0001) {
        let p = pos(&text);
        let reference = go_value(&mut s, &p, &variants[0]);
        let refv = match reference {
            Ok(v @ GoValue::Ko { .. }) => v,
            Ok(GoValue::Short(_)) => continue,
            Err(e) => panic!("{e}\n{text}"),
        };
        kos += 1;
        if let GoValue::Ko { kos: graphs, .. } = &refv {
            if graphs.iter().any(|k| unbalanced_graph(&k.graph)) {
                unbalanced += 1;
            }
        }
        let mast = |s: &mut Store, v: &GoValue| -> Option<Vec<(BigRational, BigRational)>> {
            let GoValue::Ko { kos, short } = v else {
                return None;
            };
            if kos.len() != 1 || *short != s.zero() {
                return None;
            }
            let g = &kos[0].graph;
            [Komaster::Black, Komaster::White]
                .into_iter()
                .map(|km| {
                    g.thermograph(s, g.root(), km)
                        .ok()
                        .map(|t| (t.mean().clone(), t.temperature().clone()))
                })
                .collect()
        };
        let r = mast(&mut s, &refv);
        for opts in &variants[1..] {
            let v = go_value(&mut s, &p, opts).unwrap();
            let m = mast(&mut s, &v);
            if m.is_some() && r.is_some() && m != r {
                mismatch.push((opts.split_components, text.clone()));
            }
        }
    }
    eprintln!("{kos} kos, {unbalanced} unbalanced, {mismatch:?}");
    // The regions that used to be GoError::UnbalancedCycle are ko graphs
    // with scoring cycles now (22 of the 59).
    expect_test::expect!["59 kos, 22 with a scoring cycle"]
        .assert_eq(&format!("{kos} kos, {unbalanced} with a scoring cycle"));
    // Pruning settled areas never changes the masts.
    assert!(mismatch.iter().all(|(split, _)| !split), "{mismatch:?}");
    // Not splitting makes one graph of a ko and the ko-free components next
    // to it (a product); the komaster analysis of that product can differ
    // from the ko's own masts (plus the folded numbers). Known, listed here
    // so that a change shows. Not a fault of the komaster rules (the laws of
    // ko::tests hold on both graphs): in the product a move in the ko-free
    // part changes the position, so a recapture after it repeats nothing
    // and the koloser's ban, which is positional, lapses — the product is a
    // fight in which that part supplies ko threats, not the ko under a
    // komaster plus a short game. E.g. the first diagram: split, the ko
    // `{{-5 | k} | -6}` (mean -17/3 at 1/3 under either komaster) and 0;
    // unsplit, means -21/4 (Black komaster) and -25/4 (White komaster).
    let unsplit: Vec<&str> = mismatch.iter().map(|(_, t)| t.as_str()).collect();
    expect_test::expect![[r#"
        xx.O
        O.OX
        OO.o

        .O.X
        X.Xo
        x.O."#]]
    .assert_eq(&unsplit.join("\n\n"));
}

#[test]
fn the_walk_tables_agree() {
    // The walk's table of positions met gives each position of a small
    // component a slot of its own (`Met::Dense`), or hashes it packed into
    // a word (`Met::Packed`) or whole (`Met::Full`, regions whose bits do
    // not fit in 32): the values, graphs and lines must be the same. The
    // last diagram is the ko of `KO` in a region spanning 61 bits (its
    // lone point in the far corner is Black's). Kos met under either rule
    // are counted.
    let wide = "\
X X O O X X X X X X X X X X X X X X X X
X a x O X X X X X X X X X X X X X X X X
X X O O X X X X X X X X X X X X X X X .";
    let mut s = Store::new();
    let hashed = SearchOptions {
        dense_walk: false,
        ..SearchOptions::default()
    };
    let mut diagrams = random_diagrams(300, 0x5eed_1234_abcd_0001);
    diagrams.extend([KO, KO_TO_CAPTURE, APPROACH_KO, wide].map(String::from));
    let mut kos = 0;
    for text in &diagrams {
        let p = pos(text);
        for rules in [Rules::Japanese, Rules::Chinese] {
            let dense = SearchOptions::with_rules(rules);
            let v = go_value(&mut s, &p, &dense).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let hashed = SearchOptions {
                rules,
                ..hashed.clone()
            };
            assert_eq!(v, go_value(&mut s, &p, &hashed).unwrap(), "{text}");
            // (`GoKo`'s equality includes the walk's lines.)
            if matches!(v, GoValue::Ko { .. }) {
                kos += 1;
            }
        }
    }
    expect_test::expect!["123"].assert_eq(&kos.to_string());
}

#[test]
fn the_walk_knows_a_position_by_its_mirror_image() {
    // The walk of a loopy component takes the status and value of a
    // position it meets for the first time from a mirror image it met
    // (`Met::get_kid_image`), where the region, its frame and the stones
    // off the component are symmetric: the values (graphs array for array,
    // potentials, lines), unchilled and chilled, and the superko values
    // must be those of the walk that asks the search (the hashed table
    // knows no images), and images must be used. Areas with one reflection,
    // with three, and one whose stones off the component break a
    // reflection of the frame.
    let diagrams = [
        "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
        "XOOOOX\nX....X\nX....X\nXOOOOX",
        "XOOOX\nX...X\nX...X\nX...X\nXOOOX",
        "XXOOXX\nXo..xO\nXXOOXX",
        "XOOOOOX\nX.....X\nXo...xX\nXOOOOOX",
        "XXXXXXX\nX.....X\nX.....X\nXXxXoXX\nXXOXOXX",
        // Squares (small: the test's time): a diagonal, and every
        // reflection and turn.
        "XXXX\nX..O\nX..O\nXOOO",
        "XXOX\nO..X\nX..O\nXOXX",
    ];
    let mut s = Store::new();
    let (mut kos, mut images) = (0, 0);
    for text in diagrams {
        let p = pos(text);
        for rules in [Rules::Japanese, Rules::Chinese] {
            // (Superko values unfold the graph: the small areas only.)
            let small = p.cells.len() <= 25;
            for ko_rule in [KoRule::Basic, KoRule::PositionalSuperko] {
                if ko_rule != KoRule::Basic && !small {
                    continue;
                }
                let mirrored = SearchOptions {
                    ko_rule,
                    ..SearchOptions::with_rules(rules)
                };
                let asked = SearchOptions {
                    dense_walk: false,
                    ..mirrored.clone()
                };
                let e = evaluate_go(&mut s, &p, &mirrored).unwrap();
                assert_eq!(e.value, go_value(&mut s, &p, &asked).unwrap(), "{text}");
                let c = evaluate_go_chilled(&mut s, &p, &mirrored).unwrap();
                let d = evaluate_go_chilled(&mut s, &p, &asked).unwrap();
                assert_eq!(c.chilled, d.chilled, "{text}");
                assert_eq!(e.stats.nodes, d.stats.nodes, "{text}");
                kos += usize::from(matches!(e.value, GoValue::Ko { .. }));
                images += e.stats.walk_images;
            }
        }
    }
    assert!(kos >= 8, "{kos}");
    assert!(images >= 10_000, "{images}");
}

/// Random framed areas of 14–16 points (2 × 7, 2 × 8, 3 × 5) crowded with
/// capturable stones: the frame beside a stone is of the other colour, so
/// that no stone is immortal and the whole area is one component (of more
/// than 13 points: the walk's dense table then has 3¹⁴–3¹⁶ slots). Only
/// those whose search stays within `budget` positions are kept.
fn crowded_areas(count: usize, seed: u64, budget: u64) -> Vec<(String, Position)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut s = Store::new();
    while out.len() < count {
        let (h, w) = [(2, 7), (2, 8), (3, 5)][(rng.next() % 3) as usize];
        let mut g = vec![vec!['?'; w + 2]; h + 2];
        for row in g.iter_mut().take(h + 1).skip(1) {
            for cell in row.iter_mut().take(w + 1).skip(1) {
                *cell = match rng.next() % 20 {
                    0..=5 => '.',
                    6..=12 => 'x',
                    _ => 'o',
                };
            }
        }
        let inside = |r: usize, c: usize| (1..=h).contains(&r) && (1..=w).contains(&c);
        for r in 0..h + 2 {
            for c in 0..w + 2 {
                if inside(r, c) {
                    continue;
                }
                let near = |colour: char| {
                    [(0, 1), (2, 1), (1, 0), (1, 2)].iter().any(|&(dr, dc)| {
                        let (rr, cc) = ((r + dr).wrapping_sub(1), (c + dc).wrapping_sub(1));
                        inside(rr, cc) && g[rr][cc] == colour
                    })
                };
                g[r][c] = match (near('x'), near('o')) {
                    (true, _) => 'O',
                    (false, true) => 'X',
                    _ if rng.next() % 2 == 0 => 'X',
                    _ => 'O',
                };
            }
        }
        let text: Vec<String> = g.iter().map(|r| r.iter().collect()).collect();
        let text = text.join("\n");
        let Ok(p) = Position::parse(&text) else {
            continue;
        };
        assert!((0..p.cells.len()).all(|q| p.is_frame(q) || !p.is_immortal(q)));
        let opts = SearchOptions {
            node_budget: budget,
            ..SearchOptions::default()
        };
        if go_value(&mut s, &p, &opts).is_ok() {
            out.push((text, p));
        }
    }
    out
}

#[test]
fn the_walk_tables_agree_on_components_of_14_to_16_points() {
    // `Met::Dense` gives components of up to 16 points a slot each (one
    // word, 0 for a position not met); the hashed table must give the same
    // values, graphs and lines, under both rules.
    let mut s = Store::new();
    let mut kos = 0;
    for (text, p) in crowded_areas(16, 0x5eed_0016_0000_0001, 5_000) {
        for rules in [Rules::Japanese, Rules::Chinese] {
            let dense = SearchOptions {
                node_budget: 100_000,
                ..SearchOptions::with_rules(rules)
            };
            let Ok(v) = go_value(&mut s, &p, &dense) else {
                continue;
            };
            let hashed = SearchOptions {
                dense_walk: false,
                ..dense.clone()
            };
            assert_eq!(v, go_value(&mut s, &p, &hashed).unwrap(), "{text}");
            if matches!(v, GoValue::Ko { .. }) {
                kos += 1;
            }
        }
    }
    assert!(kos >= 16, "only {kos} ko graphs");
}

#[test]
fn ko_graph_lines_replay_to_their_nodes() {
    // GoKo::line is kept as a tree of moves and named only when asked: on
    // the ko graphs of the random diagrams, every node's line replays (as a
    // move string) to a position of its own, scoring the node's potential
    // (prisoners, Japanese rules) with Black's moves minus White's as its
    // `moves`; the first cycle's line comes back to the position after its
    // first `cycle_start` moves. (Replayed with no ko ban: the local game
    // has none, and the cycle's last move may be an immediate retake.)
    let replay = |p: &Position, line: &[String]| -> Position {
        let mut q = p.clone();
        for w in parse_moves(p, &line.join(", ")).unwrap() {
            q.ko_ban = None;
            q = q
                .play_move(w.mv)
                .unwrap_or_else(|e| panic!("{e}: {line:?}"));
        }
        q
    };
    let mut s = Store::new();
    let (mut graphs, mut nodes) = (0, 0);
    for text in random_diagrams(120, 0x0011_e50f_6a3e) {
        let p = pos(&text);
        let GoValue::Ko { kos, .. } = go_value(&mut s, &p, &SearchOptions::default()).unwrap()
        else {
            continue;
        };
        for k in &kos {
            graphs += 1;
            let lines = k.lines();
            assert_eq!(lines.len(), k.graph.len());
            let mut seen = std::collections::HashSet::new();
            for (i, line) in lines.iter().enumerate() {
                assert_eq!(line, &k.line(crate::ko::NodeId(i as u32)));
                let q = replay(&p, line);
                assert!(seen.insert(q.cells.clone()), "{line:?}\n{text}");
                let score = |q: &Position| {
                    i64::from(q.prisoners(Colour::Black)) - i64::from(q.prisoners(Colour::White))
                };
                assert_eq!(
                    score(&q) - score(&p),
                    i64::from(k.potentials[i]),
                    "{line:?}\n{text}"
                );
                let b = line.iter().filter(|m| m.starts_with('B')).count() as i64;
                assert_eq!(
                    2 * b - line.len() as i64,
                    i64::from(k.moves[i]),
                    "{line:?}\n{text}"
                );
                nodes += 1;
            }
            let (line, start) = k.first_cycle();
            assert!(start < line.len(), "{line:?}\n{text}");
            let (before, after) = (replay(&p, &line[..start]), replay(&p, &line));
            assert_eq!(before.cells, after.cells, "{line:?}\n{text}");
        }
    }
    assert!(
        graphs > 10 && nodes > 2 * graphs,
        "{graphs} graphs, {nodes} nodes"
    );
}

#[test]
fn random_bad_input_gives_errors_at_a_character_never_a_panic() {
    // Issue 5, "Bad input": every diagram or move string is either accepted
    // or rejected with an error located inside the text (a byte offset on a
    // character boundary, a move span inside the move string). Random
    // strings over the diagram alphabet, the Sensei's Library marks and a
    // few strangers, then random move strings on the diagrams that parse.
    let diagram_chars: Vec<char> = "XOxo.,abt|-+$ \n\n?é(".chars().collect();
    let move_chars: Vec<char> = "BWabtzx ,;[]()0123-#*\u{e9}".chars().collect();
    let mut rng = Rng(0x00ba_d1e5_7a7e);
    let (mut parsed, mut rejected, mut moves_ok, mut moves_bad) = (0, 0, 0, 0);
    let mut kinds = std::collections::HashSet::new();
    for _ in 0..4000 {
        let len = 1 + (rng.next() % 24) as usize;
        let text: String = (0..len)
            .map(|_| diagram_chars[(rng.next() % diagram_chars.len() as u64) as usize])
            .collect();
        let p = match Position::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                assert!(
                    e.offset <= text.len() && text.is_char_boundary(e.offset),
                    "{e:?}\n{text:?}"
                );
                assert!(!e.to_string().is_empty());
                kinds.insert(std::mem::discriminant(&e.kind));
                rejected += 1;
                continue;
            }
        };
        parsed += 1;
        for _ in 0..5 {
            let len = (rng.next() % 12) as usize;
            let moves: String = (0..len)
                .map(|_| move_chars[(rng.next() % move_chars.len() as u64) as usize])
                .collect();
            match play(&p, &moves) {
                Ok(_) => moves_ok += 1,
                Err(e) => {
                    assert!(
                        e.span.start <= e.span.end
                            && e.span.end <= moves.len()
                            && moves.is_char_boundary(e.span.start)
                            && moves.is_char_boundary(e.span.end),
                        "{e:?}\n{moves:?}\n{text:?}"
                    );
                    moves_bad += 1;
                }
            }
        }
    }
    // A stranger of two bytes is marked whole.
    let e = play(&pos("X . O"), "\u{e9}").unwrap_err();
    assert_eq!(e.span, 0..2);
    assert!(
        parsed > 50 && rejected > 1000 && moves_ok > 10 && moves_bad > 100 && kinds.len() >= 5,
        "{parsed} parsed, {rejected} rejected ({} kinds), moves {moves_ok} ok, {moves_bad} bad",
        kinds.len()
    );
}

// ------------------------------------------------- options back to Go moves

/// Every option of a hot value is reached by Go moves ([`moves_to_option`]):
/// one move, or a move, its reversing reply and the next move; and the
/// position reached has exactly that value. Over random diagrams, both the
/// unchilled and the chilled view, so that a broken tax (±1) or reversal
/// test fails.
#[test]
fn options_of_values_are_go_moves() {
    let mut s = Store::new();
    let opts = SearchOptions::default();
    let zero = BigRational::from_integer(0.into());
    for chill in [false, true] {
        let (mut options, mut single, mut reversible) = (0, 0, 0);
        let mut missed = Vec::new();
        for text in random_diagrams(300, 0x5eed_0f_11e5) {
            let p = pos(&text);
            let view = |s: &mut Store, q: &Position| {
                if chill {
                    chilled(s, q, &opts)
                } else {
                    value(s, q, &opts)
                }
            };
            let Ok(g) = view(&mut s, &p) else {
                continue; // kos
            };
            if s.temperature(g).unwrap() <= zero {
                continue; // numbers and infinitesimals: options are not Go moves
            }
            let (lefts, rights) = s.options(g);
            let sides = [
                (Colour::Black, lefts.to_vec()),
                (Colour::White, rights.to_vec()),
            ];
            for (colour, options_of_side) in sides {
                for to in options_of_side {
                    options += 1;
                    let Some((moves, reached)) =
                        moves_to_option(&mut s, &p, colour, to, &opts, chill)
                    else {
                        missed.push(format!("{colour} {}\n{text}", show(&mut s, to)));
                        continue;
                    };
                    let mut replay = p.clone();
                    for m in &moves {
                        replay = replay.play_move(*m).unwrap();
                    }
                    assert_eq!(replay, reached, "{text}");
                    let c = view(&mut s, &reached).unwrap();
                    let tax = s.integer(if chill { -colour.sign() } else { 0 });
                    assert_eq!(s.add(c, tax).unwrap(), to, "{text}");
                    if moves.len() == 1 {
                        single += 1;
                    } else {
                        reversible += 1;
                    }
                }
            }
        }
        eprintln!(
            "chill {chill}: {options} options: {single} single moves, {reversible} reversible, {} missed",
            missed.len()
        );
        assert!(options >= 10 && single > 0, "{options} {single}");
        assert!(missed.is_empty(), "{}", missed.join("\n\n"));
    }
}

/// A White option that the canonical form reaches through a reversible
/// move: three Go moves (found among random 3 × 4 diagrams).
#[test]
fn a_reversible_option_is_three_go_moves() {
    let mut s = Store::new();
    let opts = SearchOptions::default();
    let text = "o.oO\no.OO\nXX.x";
    let p = pos(text);
    for chill in [false, true] {
        let g = if chill {
            chilled(&mut s, &p, &opts).unwrap()
        } else {
            value(&mut s, &p, &opts).unwrap()
        };
        let rights = s.options(g).1.to_vec();
        let sequences: Vec<Vec<String>> = rights
            .iter()
            .map(|&to| {
                let (moves, _) = moves_to_option(&mut s, &p, Colour::White, to, &opts, chill)
                    .unwrap_or_else(|| panic!("{}", show(&mut s, to)));
                moves.iter().map(|&m| p.move_name(m)).collect()
            })
            .collect();
        assert!(
            sequences.iter().any(|q| q.len() == 3),
            "{}: {sequences:?}",
            show(&mut s, g)
        );
    }
}

// ------------------------------------------------------------ latent kos

/// Every ko the latent-ko rule resolves plays as its short game against the
/// exact ko solver (sums with short games, threats for either player,
/// either first); among the kos it keeps, some do change results (the
/// owner of the threats matters), and some whose entering moves go
/// unanswered are not their game with those moves deleted — so neither the
/// rule nor its condition (R) is vacuous.
#[test]
fn latent_kos_agree_with_the_ko_solver() {
    use crate::ko::latent::tests::{first_difference, go_graph, threats_matter};
    use crate::ko::latent::{decide, latent, no_return, without_entries, Checks, Latent, Why};
    let mut s = Store::new();
    let mut diagrams = vec![
        "X . . O".to_string(),
        "X . . . O".to_string(),
        "X X X X\nX . . O\nX . X X".to_string(),
        "X X O O\nX o . O\nX X O O".to_string(),
    ];
    diagrams.extend(random_diagrams(400, 0x1a7e_47c0));
    let (mut resolved, mut kept, mut matter, mut unanswered_differ) = (0, 0, 0, 0);
    for text in &diagrams {
        for chilled in [false, true] {
            let Some(k) = go_graph(&mut s, text, chilled) else {
                continue;
            };
            if k.len() > 40 {
                continue;
            }
            match latent(&mut s, &k).unwrap() {
                Latent::Short(g) => {
                    resolved += 1;
                    let d = first_difference(&mut s, &k, g);
                    assert_eq!(d, None, "{text}\nchilled {chilled}");
                }
                Latent::Live { why, node } => {
                    kept += 1;
                    if std::env::var_os("LATENT_VERBOSE").is_some() {
                        eprintln!("kept {text:?} chilled {chilled}: {why:?} at {node:?}");
                    }
                    if matter < 3 && threats_matter(&mut s, &k) {
                        matter += 1;
                    }
                    if let (Why::Unanswered { .. }, Some(t)) =
                        (why, without_entries(&mut s, &k).unwrap())
                    {
                        if unanswered_differ < 3 && first_difference(&mut s, &k, t).is_some() {
                            unanswered_differ += 1;
                        }
                    }
                }
            }
        }
    }
    // Mutants: the rule without (R), and without (C): the one without (C)
    // resolves a ko that the solver plays differently from its game (here
    // one it cannot count after two passes).
    let mut wrong = [0, 0];
    for (i, checks) in Checks::MUTANTS.into_iter().enumerate() {
        for text in &diagrams {
            for chilled in [false, true] {
                if wrong[i] > 0 {
                    break;
                }
                let Some(k) = go_graph(&mut s, text, chilled) else {
                    continue;
                };
                if k.len() > 40 || matches!(latent(&mut s, &k).unwrap(), Latent::Short(_)) {
                    continue;
                }
                if let Latent::Short(g) = decide(&mut s, &k, checks).unwrap() {
                    if let Some(d) = first_difference(&mut s, &k, g) {
                        eprintln!("mutant {checks:?} is wrong on {text:?} chilled {chilled}: {d}");
                        wrong[i] += 1;
                    }
                }
            }
        }
    }
    // The second rule without its counts (C').
    let mut wrong_no_return = 0;
    for text in &diagrams {
        for chilled in [false, true] {
            let Some(k) = go_graph(&mut s, text, chilled) else {
                continue;
            };
            if wrong_no_return > 0
                || k.len() > 40
                || matches!(latent(&mut s, &k).unwrap(), Latent::Short(_))
            {
                continue;
            }
            if let Some(g) = no_return(&mut s, &k, false).unwrap() {
                if let Some(d) = first_difference(&mut s, &k, g) {
                    eprintln!("no return without (C') is wrong on {text:?} chilled {chilled}: {d}");
                    wrong_no_return += 1;
                }
            }
        }
    }
    eprintln!(
        "latent kos: {resolved} resolved, {kept} kept ({matter} where threats matter, \
         {unanswered_differ} unanswered and not T)"
    );
    // Pinned: the diagrams are fixed (seeded), so a change in either rule
    // shows here. (The first rule alone resolved 14 of them when rule 3 of
    // `ko::thermo` took the simplest number strictly between the stops.)
    assert_eq!((resolved, kept), (39, 76));
    assert!(wrong_no_return >= 1);
    assert!(matter >= 1 && unanswered_differ >= 1);
    // Without (R) the counts (C) reject every wrong case here; the hand
    // graph of `ko::latent::tests::the_reversal_condition_is_needed` is one
    // they do not reject.
    assert!(wrong[1] >= 1, "{wrong:?}");
}

// ------------------------------------------------------------ territories

/// Small territories (a corner walled by Black framing stones on two
/// sides, the board's edges on the others) with some stones inside, and
/// their colour-swapped copies: the shapes where the territory rule
/// (`go::territory`) matters.
fn territory_diagrams(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut out = vec![
        "X X X\n. . X\n. . X".to_string(),
        "X X X X\n. . X X\n. . . X".to_string(),
        "X X X X\n. . . X\n. . . X".to_string(),
        "X X X X\n. o . X\n. . . X".to_string(),
        "X X X X\n. . . X\n. o . X\n. . . X".to_string(),
        "X X X X\nx . . X\n. . . X".to_string(),
    ];
    while out.len() < count {
        let h = 2 + (rng.next() % 2) as usize;
        let w = 2 + (rng.next() % 3) as usize;
        let mut text = "X ".repeat(w + 1).trim_end().to_string();
        for _ in 0..h {
            text.push('\n');
            for _ in 0..w {
                text.push(match rng.next() % 20 {
                    0..=1 => 'X',
                    2..=3 => 'o',
                    4 => 'x',
                    _ => '.',
                });
                text.push(' ');
            }
            text.push('X');
        }
        if Position::parse(&text).is_ok() {
            out.push(text);
        }
    }
    let swapped: Vec<String> = out.iter().map(|t| colours_swapped(t)).collect();
    out.extend(swapped);
    out
}

use super::territory::tests::{colours_swapped, territory_of};

/// The territory rule against the game it replaces. For every small
/// territory whose position is won: its value under local positional
/// superko is the number `ψ` (Theorem A), and the search with the rule gives
/// that number. Its ko graph under the basic ko rule is also played against
/// `ψ` with the exact ko solver, in sums with short games and threats for
/// either player, either first (Theorem B), but the solver counts none of
/// these sums: its komaster count of a territory's graph left open gets
/// stuck at the root (module docs of `go::territory`, "What is and is not
/// claimed"), so every sum is left out, and the count of sums compared is
/// pinned at 0 so that a solver able to count them shows here. Theorem B
/// rests on its proof. For territories whose position is not won the rule
/// is not applied, and on some of them `ψ` is wrong (so the condition is
/// needed).
#[test]
fn territories_are_their_number() {
    use crate::ko::latent::tests::{difference_where_solved, go_graph, sums_per_graph};
    let mut s = Store::new();
    let superko = SearchOptions {
        ko_rule: KoRule::PositionalSuperko,
        node_budget: 200_000,
        ..SearchOptions::default()
    };
    let with_rule = SearchOptions {
        territories: true,
        ..SearchOptions::default()
    };
    let (mut won, mut superko_known, mut graphs, mut solved, mut unfinished) = (0, 0, 0, 0, 0);
    let mut compared = 0;
    let (mut not_won, mut psi_wrong) = (0, 0);
    for text in territory_diagrams(60, 0x7e77_1702) {
        let Some((_, is_won, psi)) = territory_of(&text) else {
            continue;
        };
        let pos = Position::parse(&text).unwrap();
        let n = s.integer(psi);
        // A position that is not won gets a tenth of the superko budget:
        // its full-budget searches cost most of the test's time, and on
        // these diagrams none of them gave a value other than ψ (the
        // check below had nothing to catch; `a_living_invader_is_not_a_territory`
        // is the case where ψ is wrong).
        let budget = if is_won { 200_000 } else { 20_000 };
        let truth = go_value(
            &mut s,
            &pos,
            &SearchOptions {
                node_budget: budget,
                ..superko.clone()
            },
        )
        .ok()
        .and_then(|v| v.as_short());
        let ruled = go_value(&mut s, &pos, &with_rule).unwrap();
        if is_won {
            won += 1;
            // (Over the superko search's budget: not known.)
            if let Some(t) = truth {
                assert_eq!(t, n, "{text}: superko value, ψ = {psi}");
                superko_known += 1;
            }
            assert_eq!(ruled.as_short(), Some(n), "{text}: with the rule");
            if let Some(k) = go_graph(&mut s, &text, false) {
                graphs += 1;
                if k.len() <= 120 {
                    let (d, left_out) = difference_where_solved(&mut s, &k, n);
                    assert_eq!(d, None, "{text}");
                    solved += 1;
                    unfinished += left_out;
                    compared += sums_per_graph(&mut s) - left_out;
                }
            }
        } else {
            not_won += 1;
            // Not applied at the root: a position that is not won is never
            // scored as ψ. (Positions reached from it may be won territories,
            // which the rule does score, so its value may differ from the
            // search without the rule: the root `o . . X / . . . X / …`
            // with the invader in the corner is such a case.) Where ψ is
            // not the superko value, the rule's value is not ψ either.
            if truth.is_some_and(|t| t != n) {
                psi_wrong += 1;
                assert_ne!(ruled.as_short(), Some(n), "{text}: scored as ψ = {psi}");
            }
        }
    }
    eprintln!(
        "territories: {won} won ({superko_known} with a superko value, {graphs} ko graphs, \
         {solved} against the solver, {unfinished} sums it could not count), \
         {not_won} not won ({psi_wrong} where ψ is wrong)"
    );
    assert!(won >= 20 && superko_known >= 20, "{won} {superko_known}");
    expect_test::expect!["sums compared with the solver: 0 of 9216"].assert_eq(&format!(
        "sums compared with the solver: {compared} of {}",
        compared + unfinished
    ));
    // (On these diagrams the positions that are not won have no superko
    // value within the budget, or ψ is their value: a position where ψ is
    // wrong and the rule must stay off is `a_living_invader_is_not_a_territory`.)
}

/// Where the invader can live the rule does not hold: White's group with
/// two eyes inside Black's wall is not dead, and the value is not the `ψ`
/// (28) that scoring it as Black's territory would give.
#[test]
fn a_living_invader_is_not_a_territory() {
    let text = "X X X X X X X\nX o o o o o X\nX o . o . o X\nX o o o o o X\nX X X X X X X";
    let (owner, won, psi) = territory_of(text).unwrap();
    assert_eq!((owner, won, psi), (Colour::Black, false, 28));
    let mut s = Store::new();
    let pos = Position::parse(text).unwrap();
    let opts = SearchOptions {
        territories: true,
        ..SearchOptions::default()
    };
    let v = go_value(&mut s, &pos, &opts).unwrap().into_short().unwrap();
    assert_ne!(v, s.integer(28));
    assert_eq!(format_game(&mut s, v, GameStyle::Ascii).unwrap(), "0");
}

#[test]
fn a_search_that_takes_over_earlier_tables_gives_the_same_values() {
    // `evaluate_go_reusing` along random lines of play, one memo handed
    // through every diagram (so a memo of another region must be refused),
    // against a fresh search of each position, under both scorings and with
    // the territory rule as analysis uses it. Kos included: their graphs
    // are compared as printed.
    let mut s = Store::new();
    let mut rng = Rng(0x5eed_7a61_e500_0018);
    let mut diagrams = random_diagrams(120, 0x5eed_1234_abcd_0018);
    diagrams.push("XXXXXX\nX....O\nX....O\nXXXXXX".into());
    diagrams.push("XXXXX\nX...O\nX...O\nX...O\nXXXXX".into());
    let (mut compared, mut reused, mut kos) = (0, 0, 0);
    for rules in [Rules::Japanese, Rules::Chinese] {
        let opts = SearchOptions {
            territories: true,
            ..SearchOptions::with_rules(rules)
        };
        let mut memo = None;
        for text in &diagrams {
            let mut p = pos(text);
            for step in 0..6 {
                let had = memo.is_some();
                let fresh = evaluate_go(&mut s, &p, &opts).map(|e| e.value);
                let again = evaluate_go_reusing(&mut s, &p, &opts, &mut memo).map(|e| e.value);
                match (&fresh, &again) {
                    (Ok(a), Ok(b)) => {
                        let (a, b) = (
                            a.format(&mut s, GameStyle::Ascii).unwrap(),
                            b.format(&mut s, GameStyle::Ascii).unwrap(),
                        );
                        assert_eq!(a, b, "{rules:?} step {step}\n{text}");
                        kos += usize::from(a.contains("k0"));
                    }
                    (Err(_), Err(_)) => {}
                    _ => panic!("{rules:?} step {step}\n{text}\n{fresh:?}\n{again:?}"),
                }
                compared += 1;
                reused += usize::from(had && step > 0);
                let colour = if rng.below(2) == 0 {
                    Colour::Black
                } else {
                    Colour::White
                };
                let moves = search_moves(&p, colour, true, rules).unwrap_or_default();
                let moves: Vec<_> = moves
                    .into_iter()
                    .filter(|(m, _)| m.point.is_some())
                    .collect();
                if moves.is_empty() {
                    break;
                }
                p = moves[rng.below(moves.len())].1.clone();
            }
        }
    }
    eprintln!("{compared} compared, {reused} with a memo of the same region, {kos} kos");
    assert!(
        compared > 500 && reused > 300 && kos > 20,
        "{compared} {reused} {kos}"
    );
}
