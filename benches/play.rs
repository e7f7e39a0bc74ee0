//! Criterion benchmarks of play questions on sums (`yose::play`), answered from
//! the components without canonicalising the sum.
//!
//! Run with `cargo bench -p yose-benches --bench play`. Every iteration starts from a fresh
//! `Store`, so nothing is memoised between iterations.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use yose::game::{GameId, Store};
use yose::play::{self, Player};

mod boards;
use boards::{go_board, sw};

/// ±1 + ±2 + … + ±n.
fn switches(s: &mut Store, n: i64) -> Vec<GameId> {
    (1..=n).map(|k| sw(s, k, -k)).collect()
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
