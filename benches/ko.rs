//! Criterion benchmarks of the ko solver (`yose::ko::solve`, issue 4 §6).
//!
//! Run with `cargo bench -p yose-benches --bench ko`. Every iteration starts from a fresh
//! `Store`, so nothing is memoised between iterations. The node counts of
//! each selected case are printed once before timing
//! (`cargo bench -p yose-benches --bench ko -- ten_general` runs one case).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::rc::Rc;
use yose::game::{GameId, Store};
use yose::ko::{self, Component, KoGraph, KoSolveOptions, Side};

mod boards;
use boards::{go_board, go_board_general, num, sw};

fn ko(s: &mut Store, b: i64, w: i64) -> Component {
    let (b, w) = (num(s, b), num(s, w));
    Component::ko(Rc::new(KoGraph::ko(b, w)))
}

fn ko_captured(s: &mut Store, b: i64, w: i64) -> Component {
    let (b, w) = (num(s, b), num(s, w));
    Component::ko(Rc::new(KoGraph::ko_captured(b, w)))
}

fn threats(owner: Side, count: u32) -> Component {
    Component::Threats { owner, count }
}

/// Seed 000 §6: a ko fight (Black to capture, swing 100) against six White
/// threats, with twelve environment switches ±24, ±22, …, ±2.
fn six_threat_fight(s: &mut Store) -> Vec<Component> {
    let mut c = vec![ko(s, 50, -50), threats(Side::Right, 6)];
    for k in 0..12 {
        let a = 24 - 2 * k;
        let gm = sw(s, a, -a);
        c.push(Component::Short(gm));
    }
    c
}

/// Twenty switches ±1 … ±20 (every short move is a switch move, so fact S
/// of `ko::solve` applies), two kos (one where Black may capture, one Black
/// just captured) and four threats for each side. (With general short games
/// instead the search is much larger: see the next case and BENCHMARKS.md.)
fn twenty_two_kos_eight_threats(s: &mut Store) -> Vec<Component> {
    let switches: Vec<GameId> = (1..=20).map(|k| sw(s, k, -k)).collect();
    with_two_kos_eight_threats(s, switches)
}

/// `shorts` with the kos `ko(7, −5)` and `ko_captured(6, −6)` and four
/// threats for each side: the setting of this case and the two below.
fn with_two_kos_eight_threats(s: &mut Store, shorts: Vec<GameId>) -> Vec<Component> {
    let mut c: Vec<Component> = shorts.into_iter().map(Component::Short).collect();
    c.push(ko(s, 7, -5));
    c.push(ko_captured(s, 6, -6));
    c.push(threats(Side::Left, 4));
    c.push(threats(Side::Right, 4));
    c
}

/// Ten general short games — `boards::go_board_general`, the first ten
/// regions of the play bench's `go_board`: five three-stop games, a tiny, a miny, a corridor
/// `{0 || 0 | {0 | -2}}`, `↑` and `↑*`, none of them a switch —, the same two
/// kos and four threats for each side.
fn ten_general_two_kos_eight_threats(s: &mut Store) -> Vec<Component> {
    let shorts = go_board_general(s);
    with_two_kos_eight_threats(s, shorts)
}

/// The twenty regions of `boards::go_board` (the play bench's board: the ten
/// general games above, five switches, four hot games with hot follow-ups
/// and the number 2), the same two kos and four threats for each side.
fn twenty_general_two_kos_eight_threats(s: &mut Store) -> Vec<Component> {
    let shorts = go_board(s);
    with_two_kos_eight_threats(s, shorts)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ko_solve");
    group.sample_size(10);
    type Build = fn(&mut Store) -> Vec<Component>;
    let cases: [(&str, Build); 4] = [
        ("seed000_six_threat_fight_12_env", six_threat_fight),
        (
            "twenty_switches_two_kos_eight_threats",
            twenty_two_kos_eight_threats,
        ),
        (
            "ten_general_two_kos_eight_threats",
            ten_general_two_kos_eight_threats,
        ),
        (
            "twenty_general_two_kos_eight_threats",
            twenty_general_two_kos_eight_threats,
        ),
    ];
    let opts = KoSolveOptions::with_budget(u64::MAX);
    for (name, build) in cases {
        // Node counts (and one untimed solve's wall time) once per case, only
        // for the cases criterion's filter selects.
        let mut printed = false;
        group.bench_function(name, |b| {
            if !printed {
                printed = true;
                let mut s = Store::new();
                let comps = build(&mut s);
                for first in [Side::Left, Side::Right] {
                    let t = std::time::Instant::now();
                    let sol = ko::solve(&mut s, &comps, first, &opts).unwrap();
                    eprintln!(
                        "{name}: {} first: score {}, {} moves, {} nodes, {} table hits, {:.2?} (wall)",
                        first.player(),
                        sol.score,
                        sol.line.len(),
                        sol.nodes,
                        sol.tt_hits,
                        t.elapsed()
                    );
                }
            }
            b.iter_batched(
                || {
                    let mut s = Store::new();
                    let comps = build(&mut s);
                    (s, comps)
                },
                |(mut s, comps)| {
                    let l = ko::solve(&mut s, &comps, Side::Left, &opts).unwrap();
                    let r = ko::solve(&mut s, &comps, Side::Right, &opts).unwrap();
                    black_box((l.score, r.score, l.nodes + r.nodes))
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
