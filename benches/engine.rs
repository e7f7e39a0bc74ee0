//! Criterion benchmarks of yose's CGT engine (`yose::game`).
//!
//! Run with `cargo bench -p yose-benches --bench engine` (filter: `cargo bench -p yose-benches --bench engine -- switches`).
//! Every iteration starts from a fresh `Store`, so memo tables never carry over:
//! the figures are the cold cost of each computation. Cases are shared with the
//! yose-vs-cgt comparison in `benches/peer-cgt` (see `benches/common/mod.rs` and
//! BENCHMARKS.md).

mod common;

use common::{cases, Engine, Yose};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

fn engine(c: &mut Criterion) {
    // Keep the order of first appearance while grouping `group/param` ids.
    let mut groups: BTreeMap<usize, (&'static str, Vec<common::Case<Yose>>)> = BTreeMap::new();
    let mut index: Vec<&'static str> = Vec::new();
    for case in cases::<Yose>() {
        let i = match index.iter().position(|g| *g == case.group) {
            Some(i) => i,
            None => {
                index.push(case.group);
                index.len() - 1
            }
        };
        groups
            .entry(i)
            .or_insert_with(|| (case.group, Vec::new()))
            .1
            .push(case);
    }
    for (_, (name, list)) in groups {
        let mut group = c.benchmark_group(name);
        let heavy = list.iter().any(|c| c.heavy);
        if heavy {
            group.sample_size(10);
            group.sampling_mode(SamplingMode::Flat);
            group.warm_up_time(Duration::from_millis(500));
            group.measurement_time(Duration::from_secs(3));
        } else {
            group.sample_size(30);
            group.warm_up_time(Duration::from_millis(500));
            group.measurement_time(Duration::from_secs(2));
        }
        for case in &list {
            let id = if case.param.is_empty() {
                "cold".to_string()
            } else {
                case.param.clone()
            };
            group.bench_function(id, |b| {
                b.iter_batched_ref(
                    || {
                        let mut e = Yose::fresh();
                        let data = (case.setup)(&mut e);
                        (e, data)
                    },
                    |(e, data)| black_box((case.run)(e, data)),
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
