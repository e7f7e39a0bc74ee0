//! Benchmarks of the ko rules (`yose::go::census`, `yose::go::korules`):
//! the ko census and classification of a 19×19 board with a dozen kos (13
//! ko positions by the census), and
//! the cost of one move of a game under each ko rule (a game of 120 moves
//! of history, the move a capture in a basic ko), tried on one game (whose
//! census the New Ko Rules compute once and keep) and as six moves in a
//! row (each on a new game: one census a move, found from the previous
//! one), with passes in between and as six board plays.
//!
//! Run with `cargo bench -p yose-benches --bench korules`.

use criterion::{criterion_group, criterion_main, Criterion};
use num_rational::BigRational;
use std::hint::black_box;
use yose::go::census::census;
use yose::go::{play_game, Game, KoRule, Position, RuleSet};

/// A 19×19 board tiled with basic kos: 12 of them (3 across, 4 down), each
/// a White ko stone that Black can take, on an otherwise empty board.
fn twelve_kos() -> Position {
    let tile = [". x o . .", "x o . o .", ". x o . .", ". . . . ."];
    let mut rows = Vec::new();
    for r in 0..19 {
        let mut row = Vec::new();
        for c in 0..19 {
            let (tr, tc) = (r % 4, c % 6);
            let ch = if r < 16 && c < 18 && tc < 5 {
                tile[tr].split(' ').nth(tc).unwrap()
            } else {
                "."
            };
            row.push(ch);
        }
        rows.push(row.join(" "));
    }
    Position::parse(&rows.join("\n")).unwrap()
}

/// A game on that board with 120 moves played far from the kos (rows 17 to
/// 19 filled alternately), so every rule has a long history to consult.
fn long_game(rule: KoRule) -> Game {
    let rules = RuleSet {
        ko_rule: rule,
        ..RuleSet::default()
    };
    let zero = BigRational::from_integer(0.into());
    let mut g = Game::new(&twelve_kos(), yose::go::Colour::Black, zero, rules).unwrap();
    let mut moves = Vec::new();
    for row in [1, 2, 3] {
        for col in "ABCDEFGHJKLMNOPQRST".chars() {
            moves.push(format!("{col}{row}"));
        }
    }
    // 57 points, then passes up to 120 moves.
    let mut colour = 'B';
    for (i, m) in moves
        .iter()
        .chain(std::iter::repeat(&"pass".to_string()))
        .take(120)
        .enumerate()
    {
        let _ = i;
        g = play_game(&g, &format!("{colour} {m}")).unwrap();
        colour = if colour == 'B' { 'W' } else { 'B' };
    }
    g
}

fn benches(c: &mut Criterion) {
    let board = twelve_kos();
    let n = census(&board);
    // The twelve tiled kos, and one more: the top left tile's corner
    // stone is a ko string by the census' definition (module docs).
    assert_eq!(n.positions.len(), 13, "the board has a dozen kos and more");
    eprintln!("{}", n.report(&board).lines().next().unwrap_or(""));
    c.bench_function("census 19x19, 12 kos", |b| {
        b.iter(|| black_box(census(black_box(&board))))
    });
    for rule in KoRule::ALL {
        let g = long_game(rule);
        // Black takes the first ko (C18, the point right of White's stone).
        c.bench_function(&format!("move after 120, {}", rule.name()), |b| {
            b.iter(|| black_box(play_game(black_box(&g), "B C18").unwrap()))
        });
        // Six moves in a row, each on the game the previous one made (so
        // no move finds the board's census cached): the cost per move of a
        // game played on.
        c.bench_function(&format!("six moves after 120, {}", rule.name()), |b| {
            b.iter(|| {
                black_box(
                    play_game(black_box(&g), "B C18, W pass, B J18, W pass, B P18, W pass")
                        .unwrap(),
                )
            })
        });
        // Six board plays (three ko captures, three plays on the empty
        // row 16): every move changes the board, so each needs the census
        // of a new board.
        c.bench_function(&format!("six plays after 120, {}", rule.name()), |b| {
            b.iter(|| {
                black_box(
                    play_game(black_box(&g), "B C18, W A16, B J18, W C16, B P18, W E16").unwrap(),
                )
            })
        });
    }
}

criterion_group!(korules, benches);
criterion_main!(korules);
