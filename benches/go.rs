//! Benchmarks of Go positions (`yose::go`): from a diagram to its value by
//! exhaustive local search.
//!
//! Run with `cargo bench --bench go`. Before criterion runs, the harness
//! prints a report: for every case the region size, the positions expanded,
//! the transposition-table hit rate and one cold timing under both rules; then
//! how far growing families of regions get in 10 seconds (each run is stopped
//! through the store's interrupt flag when it takes longer). Every timed
//! evaluation starts from a fresh `Store`, so nothing is memoised between
//! iterations.

use criterion::{criterion_group, BatchSize, Criterion};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use yose::game::Store;
use yose::go::{evaluate, GoError, Position, Rules, SearchOptions};

fn closed_corridor(n: usize) -> String {
    let wall = "X".repeat(n + 2);
    format!("{wall}\nX{}O\n{wall}", ".".repeat(n))
}

fn forked_corridor(n: usize) -> String {
    let mut rows = vec!["XXXXX".to_string(), "X...X".to_string()];
    for _ in 1..n {
        rows.push("XX.XX".to_string());
    }
    rows.push("XXOXX".to_string());
    rows.join("\n")
}

/// Two rows of `w` points, Black around three sides, White's wall at the end.
fn open_area(w: usize, first_row: &str) -> String {
    let wall = "X".repeat(w + 2);
    format!("{wall}\nX{first_row}O\nX{}O\n{wall}", ".".repeat(w))
}

/// Regions of at most 12 points (empty or capturable), some with mortal
/// stones.
fn cases() -> Vec<(&'static str, String)> {
    vec![
        ("corridor_8", closed_corridor(8)),
        ("corridor_12", closed_corridor(12)),
        ("fork_10", forked_corridor(10)),
        (
            "tiny_shape_9",
            "XXXXXXXXXXX\nXoo.......O\nXXXXXXXXXXX".to_string(),
        ),
        ("open_2x5", open_area(5, ".....")),
        ("open_2x6", open_area(6, "......")),
        ("open_2x6_dead_stone", open_area(6, ".o....")),
        ("open_2x6_two_stones", open_area(6, ".o..x.")),
    ]
}

fn eval_once(text: &str, rules: Rules) -> (Result<yose::go::Evaluation, GoError>, Duration) {
    let pos = Position::parse(text).expect("bench diagrams parse");
    let mut store = Store::new();
    let opts = SearchOptions::with_rules(rules);
    let t = Instant::now();
    let r = evaluate(&mut store, &pos, &opts);
    (r, t.elapsed())
}

/// A family of diagrams by size, and the sizes to try.
type Family = (&'static str, Box<dyn Fn(usize) -> String>, Vec<usize>);

fn report() {
    println!("Go positions: nodes expanded, table hit rate, one cold run (Japanese | area)");
    println!(
        "{:<22} {:>6} {:>9} {:>5} {:>10}   {:>9} {:>5} {:>10}",
        "case", "points", "nodes", "hit%", "time", "nodes", "hit%", "time"
    );
    for (name, text) in cases() {
        let mut line = String::new();
        let mut points = 0;
        for rules in [Rules::Japanese, Rules::Chinese] {
            let (r, t) = eval_once(&text, rules);
            match r {
                Ok(e) => {
                    points = e.stats.region_points;
                    line.push_str(&format!(
                        " {:>9} {:>5} {:>10.3?}  ",
                        e.stats.nodes,
                        e.stats.hit_percent(),
                        t
                    ));
                }
                Err(e) => line.push_str(&format!(" {:>28}  ", short(&e))),
            }
        }
        println!("{name:<22} {points:>6}{line}");
    }
    println!();
    println!("How far in 10 s (Japanese rules; a run stops after 10 s):");
    let families: Vec<Family> = vec![
        (
            "corridor",
            Box::new(closed_corridor),
            vec![12, 16, 20, 24, 28, 32],
        ),
        ("fork", Box::new(forked_corridor), vec![10, 14, 18, 22, 26]),
        (
            "open_2xw",
            Box::new(|w| open_area(w, &".".repeat(w))),
            vec![6, 7, 8, 9],
        ),
    ];
    for (family, make, sizes) in families {
        for n in sizes {
            let text = make(n);
            let pos = Position::parse(&text).expect("bench diagrams parse");
            let flag = Arc::new(AtomicBool::new(false));
            let mut store = Store::new();
            store.set_interrupt_flag(flag.clone());
            let opts = SearchOptions {
                node_budget: 200_000_000,
                ..SearchOptions::default()
            };
            let done = Arc::new(AtomicBool::new(false));
            let timer = {
                let (flag, done) = (flag.clone(), done.clone());
                std::thread::spawn(move || {
                    let start = Instant::now();
                    while start.elapsed() < Duration::from_secs(10) {
                        if done.load(Ordering::Relaxed) {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    flag.store(true, Ordering::Relaxed);
                })
            };
            let t = Instant::now();
            let r = evaluate(&mut store, &pos, &opts);
            let elapsed = t.elapsed();
            done.store(true, Ordering::Relaxed);
            let _ = timer.join();
            match r {
                Ok(e) => println!(
                    "  {family} {n:>2}: {} points, {} nodes, {}% hits, {elapsed:.2?}",
                    e.stats.region_points,
                    e.stats.nodes,
                    e.stats.hit_percent()
                ),
                Err(e) => {
                    println!("  {family} {n:>2}: {} after {elapsed:.2?}", short(&e));
                    break;
                }
            }
        }
    }
    println!();
}

fn short(e: &GoError) -> String {
    match e {
        GoError::Ko { .. } => "ko (not a short game)".into(),
        GoError::NodeBudget { nodes, .. } => format!("node budget ({nodes})"),
        GoError::TooLarge { points, .. } => format!("too large ({points})"),
        GoError::Cg(yose::game::CgError::Interrupted) => "stopped at 10 s".into(),
        GoError::Cg(e) => e.to_string(),
        other => other.to_string(),
    }
}

fn bench_cases(c: &mut Criterion) {
    let mut group = c.benchmark_group("go");
    group.sample_size(10);
    for (name, text) in cases() {
        let pos = Position::parse(&text).expect("bench diagrams parse");
        for (tag, rules) in [("jp", Rules::Japanese), ("area", Rules::Chinese)] {
            let opts = SearchOptions::with_rules(rules);
            // Only positions with a short value are timed.
            if evaluate(&mut Store::new(), &pos, &opts).is_err() {
                continue;
            }
            group.bench_function(format!("{name}/{tag}"), |b| {
                b.iter_batched(
                    Store::new,
                    |mut s| black_box(evaluate(&mut s, &pos, &opts).map(|e| e.value)),
                    BatchSize::SmallInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_cases);

fn main() {
    report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
