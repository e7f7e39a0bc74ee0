//! A brute-force oracle for the local superko values (tests only): the
//! value of a position under positional or situational superko computed
//! over whole lines of play, with no graph, no memo and no pruning of
//! history, against [`super::go_value`]'s unfolding.
//!
//! It settles the question of `X X X X O O / X a b o d O` under situational
//! superko (value `*`, against `{3|1||0}` under positional superko): the
//! oracle gives `*` too. After Black b the position is not the fresh
//! position searched from scratch (where Black's capture at d could not be
//! retaken, the start counting as reached by White): on the line, White may
//! retake at c once (the board then has Black, not White, to move) and
//! Black may not take again, so Black's b is worth less than it is alone.

use super::*;
use crate::game::{GameId, Store};

/// One position of the line with the tag of the move that reached it
/// (situational superko: the mover; positional: none).
type Seen = (Vec<Cell>, Option<Colour>);

fn cells(p: &Position) -> Vec<Cell> {
    (0..p.cells_len()).map(|q| p.cell(q)).collect()
}

/// The value of `pos` after the line `hist` (positions already met, with
/// their tags), by recursion over every legal move.
fn brute(store: &mut Store, pos: &Position, rule: KoRule, hist: &mut Vec<Seen>) -> GameId {
    let opts = SearchOptions::default();
    let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
    let mut any = false;
    for colour in [Colour::Black, Colour::White] {
        for (_, next) in search_moves(pos, colour, true).unwrap() {
            any = true;
            let tag = match rule {
                KoRule::SituationalSuperko => Some(colour),
                _ => None,
            };
            let seen = (cells(&next), tag);
            if hist.contains(&seen) {
                continue;
            }
            hist.push(seen);
            let v = brute(store, &next, rule, hist);
            hist.pop();
            sides[colour.index()].push(v);
        }
    }
    if !any {
        // Nothing left to play: the score (prisoners and settled areas).
        return value(store, pos, &opts).unwrap();
    }
    let [l, r] = sides;
    store.canonical(l, r).unwrap()
}

fn oracle(store: &mut Store, pos: &Position, rule: KoRule) -> GameId {
    let here = cells(pos);
    let (l, r) = match rule {
        KoRule::SituationalSuperko => {
            // Black's options: the position searched counts as reached by
            // White's move, and White's by Black's (module docs).
            let mut left = vec![(here.clone(), Some(Colour::White))];
            let mut right = vec![(here, Some(Colour::Black))];
            let l = options(store, pos, rule, Colour::Black, &mut left);
            let r = options(store, pos, rule, Colour::White, &mut right);
            (l, r)
        }
        _ => {
            let mut h = vec![(here, None)];
            let l = options(store, pos, rule, Colour::Black, &mut h);
            let r = options(store, pos, rule, Colour::White, &mut h);
            (l, r)
        }
    };
    if l.is_empty() && r.is_empty() {
        return value(store, pos, &SearchOptions::default()).unwrap();
    }
    store.canonical(l, r).unwrap()
}

fn options(
    store: &mut Store,
    pos: &Position,
    rule: KoRule,
    colour: Colour,
    hist: &mut Vec<Seen>,
) -> Vec<GameId> {
    let mut out = Vec::new();
    for (_, next) in search_moves(pos, colour, true).unwrap() {
        let tag = match rule {
            KoRule::SituationalSuperko => Some(colour),
            _ => None,
        };
        let seen = (cells(&next), tag);
        if hist.contains(&seen) {
            continue;
        }
        hist.push(seen);
        out.push(brute(store, &next, rule, hist));
        hist.pop();
    }
    out
}

#[test]
fn superko_values_agree_with_brute_force_over_lines() {
    let mut s = Store::new();
    let texts = [
        "X X X X O O\nX a b o d O",
        "X . . O",
        "X X O O\nX o . O\nX X O O",
        "X X O O\nX a x O\nX X O O",
        "XXOOO\nXo.xO\nXXOOO",
        "XXOOXX\nXo..xO\nXXOOXX",
    ];
    for text in texts {
        let p = Position::parse(text).unwrap();
        for rule in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
            let opts = SearchOptions {
                ko_rule: rule,
                ..SearchOptions::default()
            };
            let got = go_value(&mut s, &p, &opts).unwrap().into_short().unwrap();
            let want = oracle(&mut s, &p, rule);
            let show = |s: &mut Store, g| {
                crate::render::format_game(s, g, crate::render::Style::Ascii).unwrap()
            };
            assert_eq!(show(&mut s, got), show(&mut s, want), "{rule:?}\n{text}");
        }
    }
}

#[test]
fn tmp_debug_ssk() {
    let mut s = Store::new();
    let p0 = Position::parse("X X X X O O\nX a b o d O").unwrap();
    let show =
        |s: &mut Store, g| crate::render::format_game(s, g, crate::render::Style::Ascii).unwrap();
    let rule = KoRule::SituationalSuperko;
    let here = cells(&p0);
    for (_, n1) in search_moves(&p0, Colour::Black, true).unwrap() {
        let mut h = vec![
            (here.clone(), Some(Colour::White)),
            (cells(&n1), Some(Colour::Black)),
        ];
        let v = brute(&mut s, &n1, rule, &mut h);
        eprintln!(
            "B option:\n{}\n= {}",
            n1.diagram(Style::Ascii),
            show(&mut s, v)
        );
        for c in [Colour::Black, Colour::White] {
            for (_, n2) in search_moves(&n1, c, true).unwrap() {
                let mut h2 = h.clone();
                let seen = (cells(&n2), Some(c));
                if h2.contains(&seen) {
                    continue;
                }
                h2.push(seen);
                let v2 = brute(&mut s, &n2, rule, &mut h2);
                eprintln!(
                    "   {c:?} then:\n{}\n   = {} (prisoners b{} w{})",
                    n2.diagram(Style::Ascii),
                    show(&mut s, v2),
                    n2.prisoners(Colour::Black),
                    n2.prisoners(Colour::White)
                );
            }
        }
    }
    let here = cells(&p0);
    for (_, n1) in search_moves(&p0, Colour::White, true).unwrap() {
        let mut h = vec![
            (here.clone(), Some(Colour::Black)),
            (cells(&n1), Some(Colour::White)),
        ];
        let v = brute(&mut s, &n1, rule, &mut h);
        eprintln!(
            "W option:\n{}\n= {}",
            n1.diagram(Style::Ascii),
            show(&mut s, v)
        );
    }
}
