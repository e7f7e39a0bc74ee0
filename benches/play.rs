//! Criterion benchmarks of play questions on sums (`yose::play`), answered from
//! the components without canonicalising the sum.
//!
//! Run with `cargo bench --bench play`. Every iteration starts from a fresh
//! `Store`, so nothing is memoised between iterations.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use yose::game::{GameId, Store};
use yose::play::{self, Player};

fn num(s: &mut Store, n: i64) -> GameId {
    s.integer(n)
}

fn g(s: &mut Store, l: &[GameId], r: &[GameId]) -> GameId {
    s.canonical(l.to_vec(), r.to_vec()).unwrap()
}

fn sw(s: &mut Store, a: i64, b: i64) -> GameId {
    let (x, y) = (num(s, a), num(s, b));
    g(s, &[x], &[y])
}

/// `{x || y | z}`.
fn three_stop(s: &mut Store, x: i64, y: i64, z: i64) -> GameId {
    let l = num(s, x);
    let r = sw(s, y, z);
    g(s, &[l], &[r])
}

/// ±1 + ±2 + … + ±n.
fn switches(s: &mut Store, n: i64) -> Vec<GameId> {
    (1..=n).map(|k| sw(s, k, -k)).collect()
}

/// Twenty Go-like regions: three-stop games, a tiny and a miny, a corridor,
/// ups, switches and gote/sente games with hot follow-ups, and a number.
fn go_board(s: &mut Store) -> Vec<GameId> {
    let mut c = vec![
        three_stop(s, 6, 2, -2),
        three_stop(s, 4, 1, -3),
        three_stop(s, 9, 5, 0),
        three_stop(s, 3, 0, -4),
        three_stop(s, 12, 8, 3),
    ];
    let (two, three) = (num(s, 2), num(s, 3));
    c.push(s.tiny(two).unwrap());
    c.push(s.miny(three).unwrap());
    let zero = s.zero();
    let inner = sw(s, 0, -2);
    let mid = g(s, &[zero], &[inner]);
    c.push(g(s, &[zero], &[mid]));
    c.push(s.ups(1));
    let star = s.star();
    let up = s.ups(1);
    c.push(s.add(up, star).unwrap());
    for (a, b) in [(5, -5), (3, 1), (7, -2), (2, -6), (4, 0)] {
        c.push(sw(s, a, b));
    }
    let y = sw(s, 3, -6);
    let eight = num(s, 8);
    c.push(g(s, &[eight], &[y]));
    let gl = sw(s, 10, 4);
    let gr = sw(s, -2, -8);
    c.push(g(s, &[gl], &[gr]));
    let l = sw(s, 7, 3);
    let m2 = num(s, -2);
    c.push(g(s, &[l], &[m2]));
    c.push(three_stop(s, 2, 0, -3));
    c.push(num(s, 2));
    c
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(20);
    type Build = fn(&mut Store) -> Vec<GameId>;
    let cases: [(&str, Build); 3] = [
        ("switches_1_to_40", |s| switches(s, 40)),
        ("go_board_20_regions", go_board),
        ("go_board_twice_40_regions", |s| {
            let mut a = go_board(s);
            let b: Vec<GameId> = a.iter().map(|&x| s.neg(x)).collect();
            a.extend(b.into_iter().rev().take(20));
            a
        }),
    ];
    for (name, build) in cases {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let mut s = Store::new();
                    let comps = build(&mut s);
                    (s, comps)
                },
                |(mut s, comps)| {
                    let left = play::solve(&mut s, &comps, Player::Left, u64::MAX).unwrap();
                    let right = play::solve(&mut s, &comps, Player::Right, u64::MAX).unwrap();
                    black_box((left.stop, right.stop, left.nodes + right.nodes))
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
