//! Benchmarks of the exact Ultimate Go solver (`yose::go::ultimate`).
//!
//! Run with `cargo bench -p yose-benches --bench ultimate`. Before criterion runs, the
//! harness prints a report: for each board its empty points, the states the
//! solver expanded for `ultimate_score` (with its komi search) and the
//! median wall-clock time of `YOSE_ULTIMATE_REPS` runs (default 3), or
//! the budget it ran out of, with the load. The boards are `k`
//! separate points (territory and dame between framing stones, four to a row: no
//! capture is possible), framed open corridors of `k` points (captures and
//! repetitions possible) and open framed areas of two and three rows. With
//! `YOSE_ULTIMATE_REPORT_ONLY=1` only the report runs.

use criterion::{criterion_group, Criterion};
use std::hint::black_box;
use std::time::Instant;
use yose::go::ultimate::{situation_of, NoPassRules, SolveError, Solver, Variant, Version};
use yose::go::{Colour, Game, KoRule, Position, RuleSet, Rules};

const RULES: NoPassRules = NoPassRules {
    variant: Variant::Ultimate,
    version: Version::Original,
};

fn game(diagram: &str) -> Game {
    let pos = Position::parse(diagram).unwrap();
    let rules = RuleSet {
        scoring: Rules::Japanese,
        ko_rule: KoRule::PositionalSuperko,
        nopass: Some(RULES),
    };
    Game::new(
        &pos,
        Colour::Black,
        num_rational::BigRational::from_integer(0.into()),
        rules,
    )
    .unwrap()
    .with_nopass(0)
    .unwrap()
}

/// `k` separate empty points: territory and dame (each point between
/// two framing stones), four points to a row (`. X . O . X . O`),
/// the rows apart by a wall row (`X X X X O O O O`), so that 16 points fit
/// in 7 rows of 8 (a board has at most 19 columns and the solver 64
/// points).
fn separate_points(k: usize) -> String {
    let mut rows = Vec::new();
    let mut left = k;
    while left > 0 {
        let m = left.min(4);
        left -= m;
        let mut cells = Vec::new();
        for i in 0..m {
            cells.push(".");
            cells.push(["X", "O"][i % 2]);
        }
        while cells.len() < 8 {
            cells.push("X");
        }
        rows.push(cells.join(" "));
        if left > 0 {
            rows.push("X X X X O O O O".to_string());
        }
    }
    rows.join("\n")
}

/// A corridor of `k` empty points between a Black and a White wall.
fn corridor(k: usize) -> String {
    format!("X {} O", vec!["."; k].join(" "))
}

/// Two rows of `w` empty points, Black wall left, White wall right.
fn open_rows(w: usize) -> String {
    let row = format!("X {} O", vec!["."; w].join(" "));
    format!("{row}\n{row}")
}

/// The boards of the report.
fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for k in [4, 6, 8, 10, 12, 14, 16] {
        out.push((format!("separate_{k}"), separate_points(k)));
    }
    for k in [3, 4, 5, 6, 7, 8, 9, 10, 11, 12] {
        out.push((format!("corridor_{k}"), corridor(k)));
    }
    for w in [1, 2, 3, 4, 5, 6] {
        out.push((format!("open_2x{w}"), open_rows(w)));
    }
    out.push(("open_3x3".to_string(), open_3xw(3)));
    out.push(("open_3x4".to_string(), open_3xw(4)));
    out
}

/// Three rows of `w` empty points between a Black and a White wall.
fn open_3xw(w: usize) -> String {
    let row = format!("X {} O", vec!["."; w].join(" "));
    format!("{row}\n{row}\n{row}")
}

fn ultimate_score(diagram: &str, budget: u64) -> (Result<i64, SolveError>, u64) {
    let g = game(diagram);
    let (arena, s, mut h) = situation_of(&g).unwrap();
    let mut solver = Solver::new(arena, RULES, budget, true);
    let r = solver.ultimate_score(&s, &mut h);
    (r, solver.nodes)
}

/// The report's node budget: the boards past reach stop at it with the
/// solver's budget error (10–40 s of CPU each, BENCHMARKS.md sessions 9
/// to 11) instead of running for many.
const REPORT_BUDGET: u64 = 1_000_000;

/// The machine's load average over the last minute (Linux), for the report.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

fn report() {
    // Each board is solved `reps` times from a fresh solver; the median
    // wall time is shown (the states are the same every time).
    let reps: usize = std::env::var("YOSE_ULTIMATE_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    println!(
        "{reps} runs a board, median wall time; load {} at the start",
        load()
    );
    println!(
        "{:<14} {:>6} {:>12} {:>10}  result",
        "board", "empty", "states", "median ms"
    );
    for (name, diagram) in cases() {
        let empty = diagram.matches('.').count();
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..reps {
            let start = Instant::now();
            let (r, nodes) = ultimate_score(&diagram, REPORT_BUDGET);
            times.push(start.elapsed().as_secs_f64() * 1e3);
            let failed = r.is_err();
            last = Some((r, nodes));
            if failed {
                break; // a budget error is not worth repeating
            }
        }
        times.sort_by(f64::total_cmp);
        let ms = times[times.len() / 2];
        let (r, nodes) = last.expect("one run");
        let shown = match r {
            Ok(u) => format!("ultimate score {u}"),
            Err(e) => e.to_string(),
        };
        println!("{name:<14} {empty:>6} {nodes:>12} {ms:>10.1}  {shown}");
    }
    println!("load {} at the end", load());
}

fn bench_cases(c: &mut Criterion) {
    let mut group = c.benchmark_group("ultimate_score");
    group.sample_size(10);
    for (name, diagram) in cases() {
        let empty = diagram.matches('.').count();
        if empty > 8 || name == "corridor_6" {
            continue; // seconds or more each: in the report only
        }
        group.bench_function(&name, |b| {
            b.iter(|| black_box(ultimate_score(&diagram, 20_000_000).0.ok()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_cases);

fn main() {
    report();
    if std::env::var("YOSE_ULTIMATE_REPORT_ONLY").is_ok() {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
