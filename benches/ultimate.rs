//! Benchmarks of the exact Ultimate Go solver (`yose::go::ultimate`).
//!
//! Run with `cargo bench -p yose-benches --bench ultimate`. Before criterion runs, the
//! harness prints a report: for each board its empty points, the states the
//! solver expanded for `ultimate_score` (with its komi search) and one cold
//! wall-clock timing, or the budget it ran out of. The boards are `k`
//! separate points (territory and dame between framing stones, four to a row: no
//! capture is possible), framed open corridors of `k` points (captures and
//! repetitions possible) and open framed areas of two rows. With
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
    for k in [3, 4, 5, 6] {
        out.push((format!("corridor_{k}"), corridor(k)));
    }
    for w in [1, 2, 3] {
        out.push((format!("open_2x{w}"), open_rows(w)));
    }
    out
}

fn ultimate_score(diagram: &str, budget: u64) -> (Result<i64, SolveError>, u64) {
    let g = game(diagram);
    let (arena, s, mut h) = situation_of(&g).unwrap();
    let mut solver = Solver::new(arena, RULES, budget, true);
    let r = solver.ultimate_score(&s, &mut h);
    (r, solver.nodes)
}

fn report() {
    println!(
        "{:<14} {:>6} {:>12} {:>10}  result",
        "board", "empty", "states", "wall ms"
    );
    for (name, diagram) in cases() {
        let empty = diagram.matches('.').count();
        let start = Instant::now();
        let (r, nodes) = ultimate_score(&diagram, 20_000_000);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let shown = match r {
            Ok(u) => format!("ultimate score {u}"),
            Err(e) => e.to_string(),
        };
        println!("{name:<14} {empty:>6} {nodes:>12} {ms:>10.1}  {shown}");
    }
}

fn bench_cases(c: &mut Criterion) {
    let mut group = c.benchmark_group("ultimate_score");
    group.sample_size(10);
    for (name, diagram) in cases() {
        if ["separate_14", "separate_16", "corridor_6"].contains(&name.as_str()) {
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
