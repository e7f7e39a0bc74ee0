//! Benchmarks of Go positions (`yose::go`): from a diagram to its value by
//! exhaustive local search.
//!
//! Run with `cargo bench -p yose-benches --bench go`. Before criterion runs, the harness
//! prints a report: for every case the region size, the positions expanded,
//! the transposition-table hit rate and one cold timing under both rules
//! (wall-clock time and the thread's CPU time: on a shared machine the two
//! differ by the time the thread waited for a core); then how far growing
//! families of regions get in 10 seconds (each run is stopped through the
//! store's interrupt flag when it takes longer). Every timed evaluation
//! starts from a fresh `Store`, so nothing is memoised between iterations.
//!
//! `YOSE_GO_CASE=<name> cargo bench -p yose-benches --bench go` evaluates only that case,
//! once per rule, and exits: a fresh process per case, for cold figures.
//! `YOSE_GO_FAR=<text> cargo bench -p yose-benches --bench go` prints only the "how far in
//! 10 s" report, for the families whose name contains `<text>` (all of
//! them for `all`), and exits. Each of its lines gives the peak memory of
//! the run: the process's peak resident set (`VmHWM`), reset before the
//! run (`/proc/self/clear_refs`), with the resident set it started from.
//! `YOSE_GO_LIMIT=<seconds>` changes the 10 s (for the time a region takes
//! to finish on a loaded machine).
//! `YOSE_GO_OPEN=<h>x<w> cargo bench -p yose-benches --bench go` makes one cold
//! evaluation of the open `h` × `w` area (as in the families `open_2xw`,
//! `open_3xw`, `open_4xw`), with no time limit, prints its nodes, wall and
//! process CPU time and peak memory, and exits (`YOSE_GO_FRAME=corners`:
//! framed by Black above and to the left, by White below and to the right;
//! `YOSE_GO_TERRITORIES=1`: the territory rule on, as whole-board analysis
//! searches its regions).

use criterion::{criterion_group, BatchSize, Criterion};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use yose::game::Store;
use yose::go::{
    evaluate_go, evaluate_go_chilled, GoError, GoValue, Position, Rules, SearchOptions,
};

mod diagrams;
use diagrams::{closed_corridor, forked_corridor};

/// Two rows of `w` points, Black around three sides, White's wall at the end.
fn open_area(w: usize, first_row: &str) -> String {
    let wall = "X".repeat(w + 2);
    format!("{wall}\nX{first_row}O\nX{}O\n{wall}", ".".repeat(w))
}

/// `h` rows of `w` points, Black around three sides, White's wall at the
/// end.
fn open_rows(h: usize, w: usize) -> String {
    let wall = "X".repeat(w + 2);
    let mut rows = vec![wall.clone()];
    for _ in 0..h {
        rows.push(format!("X{}O", ".".repeat(w)));
    }
    rows.push(wall);
    rows.join("\n")
}

/// `h` rows of `w` points, Black above and to the left, White below and to
/// the right.
fn open_corners(h: usize, w: usize) -> String {
    let mut rows = vec![format!("X{}", "X".repeat(w + 1))];
    for _ in 0..h {
        rows.push(format!("X{}O", ".".repeat(w)));
    }
    rows.push(format!("{}O", "O".repeat(w + 1)));
    rows.join("\n")
}

/// Regions of at most 12 points (empty or capturable), some with mortal
/// stones, one with a basic ko.
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
        ("open_3x4", open_rows(3, 4)),
        // The 3 × 4 area with other walls: White on two sides, and a mixed
        // frame (the most positions of 24 random frames the lead tried,
        // 2026-11-22: 314 000 to 437 000, against open_3x4's 256 528).
        (
            "open_3x4_two_sides",
            "XXXXXX\nX....O\nX....O\nO....O\nOOOOOO".to_string(),
        ),
        (
            "open_3x4_mixed",
            "XXOOXO\nX....X\nX....X\nO....X\nOXOOXO".to_string(),
        ),
        ("open_2x6_dead_stone", open_area(6, ".o....")),
        ("open_2x6_two_stones", open_area(6, ".o..x.")),
        (
            "ko_and_corridor_9",
            "XXOOXXXXXXXXX\nXo.OX.......O\nXXOOXXXXXXXXX".to_string(),
        ),
        ("ko_in_corridor_10", KO_IN_CORRIDOR.to_string()),
    ]
}

/// A basic ko at the mouth of a corridor (one component).
const KO_IN_CORRIDOR: &str = "XXXXXXXXXXOO\nX........o.O\nXXXXXXXXXXOO";

/// The thread's CPU time so far.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time of the whole process (all its threads).
fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time of the calling thread.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// What one cold evaluation took: wall-clock and CPU time of the search,
/// and wall-clock time of a cold search for the chilled value (what
/// `chilled(Q)`, the default view, computes: `evaluate_go_chilled`, which
/// builds a ko graph chilled).
struct Timing {
    wall: Duration,
    cpu: Duration,
    chilled: Duration,
}

/// One evaluation from a fresh store, then the chilled value from another.
fn eval_once(text: &str, rules: Rules) -> (Result<yose::go::GoEvaluation, GoError>, Timing) {
    let pos = Position::parse(text).expect("bench diagrams parse");
    let opts = SearchOptions::with_rules(rules);
    let (t, c) = (Instant::now(), cpu_time());
    let r = evaluate_go(&mut Store::new(), &pos, &opts);
    let (wall, cpu) = (t.elapsed(), cpu_time() - c);
    let t = Instant::now();
    if r.is_ok() {
        let c = evaluate_go_chilled(&mut Store::new(), &pos, &opts);
        black_box(c.expect("a value chills").chilled);
    }
    let chilled = t.elapsed();
    (r, Timing { wall, cpu, chilled })
}

fn kind(v: &GoValue) -> String {
    match v {
        GoValue::Short(_) => String::new(),
        GoValue::Ko { kos, .. } => {
            // Counting the pairs of a graph of millions of nodes would
            // take longer than the search and hold more memory.
            let sizes: Vec<String> = kos
                .iter()
                .map(|k| match k.graph.len() {
                    n if n > 1_000_000 => format!("{n}/-"),
                    n => format!("{n}/{}", pairs(&k.graph)),
                })
                .collect();
            format!(" (ko: {} nodes/pairs)", sizes.join(", "))
        }
    }
}

/// The (node, points scored) pairs reachable from the root: the size the
/// graph would have with potentials instead of gains (what the Go module
/// built before ko graphs had gains), or `∞` when a cycle scores.
fn pairs(g: &yose::ko::KoGraph) -> String {
    use yose::ko::{Side, Target};
    let cap = 20 * g.len() + 100;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(g.root(), yose::game::Dyadic::zero())];
    seen.insert(stack[0].clone());
    while let Some((v, phi)) = stack.pop() {
        if seen.len() > cap {
            return "∞".into();
        }
        let node = g.node(v);
        for side in [Side::Left, Side::Right] {
            for (i, t) in node.options(side).iter().enumerate() {
                if let Target::Node(w) = t {
                    let next = (w, phi.add(node.gain(side, i)));
                    if seen.insert(next.clone()) {
                        stack.push(next);
                    }
                }
            }
        }
    }
    seen.len().to_string()
}

/// A duration in milliseconds with one decimal (the same unit on every
/// line, so that runs compare at a glance).
fn ms(d: Duration) -> String {
    let tenths = d.as_micros() / 100;
    format!("{}.{}ms", tenths / 10, tenths % 10)
}

/// One line of the report: the case under both rules.
fn report_case(name: &str, text: &str) {
    let mut line = String::new();
    let mut points = 0;
    for rules in [Rules::Japanese, Rules::Chinese] {
        let (r, t) = eval_once(text, rules);
        match r {
            Ok(e) => {
                points = e.stats.region_points;
                line.push_str(&format!(
                    " {:>7} {:>4} {:>9} {:>9} {:>9}{:<5}",
                    e.stats.nodes,
                    e.stats.hit_percent(),
                    ms(t.wall),
                    ms(t.cpu),
                    ms(t.chilled),
                    kind(&e.value)
                ));
            }
            Err(e) => line.push_str(&format!(" {:>46}", short(&e))),
        }
    }
    println!("{name:<20} {points:>3}{line}");
}

/// A family of diagrams by size, and the sizes to try.
type Family = (&'static str, Box<dyn Fn(usize) -> String>, Vec<usize>);

/// A field of `/proc/self/status` in kB (`VmHWM`, `VmRSS`), 0 where there
/// is none.
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// Resets the process's peak resident set to the current one (Linux:
/// writing 5 to `/proc/self/clear_refs`), so that `VmHWM` afterwards is the
/// peak of what follows.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Megabytes, from kB.
fn mb(kb: u64) -> String {
    format!("{:.0} MB", kb as f64 / 1024.0)
}

/// The families of growing regions of the "how far in 10 s" report.
fn families() -> Vec<Family> {
    vec![
        (
            "corridor",
            Box::new(closed_corridor),
            vec![12, 16, 18, 20, 24, 28, 32],
        ),
        (
            "fork",
            Box::new(forked_corridor),
            vec![10, 14, 16, 18, 22, 26],
        ),
        (
            "open_2xw",
            Box::new(|w| open_area(w, &".".repeat(w))),
            vec![6, 7, 8, 9],
        ),
        ("open_3xw", Box::new(|w| open_rows(3, w)), vec![4, 5, 6]),
        ("open_4xw", Box::new(|w| open_rows(4, w)), vec![3, 4]),
    ]
}

fn report() {
    println!(
        "Go positions: nodes expanded, table hit %, one cold run: wall and CPU time of the \
         search, wall time of a cold search for the chilled value"
    );
    println!(
        "{:<20} {:>3} {:>7} {:>4} {:>9} {:>9} {:>9}      {:>7} {:>4} {:>9} {:>9} {:>9}",
        "case",
        "pts",
        "nodes",
        "hit",
        "wall",
        "cpu",
        "chilled",
        "nodes",
        "hit",
        "wall",
        "cpu",
        "chilled"
    );
    println!("{:<24} {:<47} area", "", "Japanese");
    for (name, text) in cases() {
        report_case(name, &text);
    }
    println!();
    how_far("all");
    println!();
}

/// How far the families whose name contains `filter` (all for `all`) get
/// in 10 s, with the peak memory of each run.
fn how_far(filter: &str) {
    let limit: u64 = std::env::var("YOSE_GO_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    println!(
        "How far in {limit} s (Japanese rules; a run stops after {limit} s; peak resident \
         memory of the run, from the resident memory it started with):"
    );
    for (family, make, sizes) in families() {
        if filter != "all" && !family.contains(filter) {
            continue;
        }
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
            let c = cpu_time();
            let done = Arc::new(AtomicBool::new(false));
            let timer = {
                let (flag, done) = (flag.clone(), done.clone());
                std::thread::spawn(move || {
                    let start = Instant::now();
                    while start.elapsed() < Duration::from_secs(limit) {
                        if done.load(Ordering::Relaxed) {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    flag.store(true, Ordering::Relaxed);
                })
            };
            reset_peak();
            let from = status_kb("VmRSS");
            let t = Instant::now();
            let r = evaluate_go(&mut store, &pos, &opts);
            let elapsed = t.elapsed();
            let cpu = cpu_time() - c;
            let peak = status_kb("VmHWM");
            done.store(true, Ordering::Relaxed);
            let _ = timer.join();
            let memory = format!("peak {} (from {})", mb(peak), mb(from));
            match r {
                Ok(e) => println!(
                    "  {family} {n:>2}: {} points, {} nodes, {}% hits, {elapsed:.2?} (CPU {cpu:.2?}), {memory}{}",
                    e.stats.region_points,
                    e.stats.nodes,
                    e.stats.hit_percent(),
                    kind(&e.value)
                ),
                Err(e) => {
                    println!(
                        "  {family} {n:>2}: {} after {elapsed:.2?} (CPU {cpu:.2?}), {memory}",
                        short(&e)
                    );
                    break;
                }
            }
        }
    }
}

/// One cold evaluation of the open `h`×`w` area (`YOSE_GO_OPEN=3x5`), no
/// time limit: points, nodes, hits, the kind of value, wall and CPU time,
/// peak memory. For comparing builds case by case (BENCHMARKS.md,
/// "bigregion6").
fn open_once(size: &str) {
    let Some((h, w)) = size
        .split_once('x')
        .and_then(|(h, w)| Some((h.parse().ok()?, w.parse().ok()?)))
    else {
        eprintln!("YOSE_GO_OPEN wants HxW, such as 3x5");
        return;
    };
    // `YOSE_GO_FRAME=corners`: Black above and to the left, White below
    // and to the right (a square area is then symmetric in its diagonal).
    let text = if std::env::var("YOSE_GO_FRAME").is_ok_and(|f| f == "corners") {
        open_corners(h, w)
    } else if h == 2 {
        open_area(w, &".".repeat(w))
    } else {
        open_rows(h, w)
    };
    let pos = Position::parse(&text).expect("bench diagrams parse");
    let mut store = Store::new();
    // `YOSE_GO_THREADS=2`: the region's search on two threads
    // (`SearchOptions::threads`).
    let threads = std::env::var("YOSE_GO_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    // `YOSE_GO_TERRITORIES=1`: the territory rule on, as whole-board
    // analysis searches its regions (`SearchOptions::territories`).
    let territories = std::env::var("YOSE_GO_TERRITORIES").is_ok_and(|t| t == "1");
    let opts = SearchOptions {
        node_budget: 2_000_000_000,
        threads,
        territories,
        ..SearchOptions::default()
    };
    reset_peak();
    let c = process_cpu_time();
    let c1 = thread_cpu_time();
    let t = Instant::now();
    let r = evaluate_go(&mut store, &pos, &opts);
    let (elapsed, cpu, peak) = (t.elapsed(), process_cpu_time() - c, status_kb("VmHWM"));
    let main = thread_cpu_time() - c1;
    match r {
        Ok(e) => println!(
            "open {h}x{w}, {threads} thread(s): {} points, {} nodes, {}% hits, {} met by image, wall {elapsed:.2?}, CPU {cpu:.2?} (calling thread {main:.2?}), peak {}{}",
            e.stats.region_points,
            e.stats.nodes,
            e.stats.hit_percent(),
            e.stats.walk_images,
            mb(peak),
            kind(&e.value)
        ),
        Err(e) => println!("open {h}x{w}: {} after {elapsed:.2?}", short(&e)),
    }
}

fn short(e: &GoError) -> String {
    match e {
        GoError::Ko { .. } => "ko (not a short game)".into(),
        GoError::NodeBudget { nodes, .. } => format!("node budget ({nodes})"),
        GoError::TooLarge { points, .. } => format!("too large ({points})"),
        GoError::Cg(yose::game::CgError::Interrupted) => "stopped at the time limit".into(),
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
            // Only positions with a value are timed.
            if evaluate_go(&mut Store::new(), &pos, &opts).is_err() {
                continue;
            }
            group.bench_function(format!("{name}/{tag}"), |b| {
                b.iter_batched(
                    Store::new,
                    |mut s| black_box(evaluate_go(&mut s, &pos, &opts).map(|e| e.value)),
                    BatchSize::SmallInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_cases);

fn main() {
    if let Ok(filter) = std::env::var("YOSE_GO_FAR") {
        how_far(&filter);
        return;
    }
    if let Ok(size) = std::env::var("YOSE_GO_OPEN") {
        open_once(&size);
        return;
    }
    if let Ok(name) = std::env::var("YOSE_GO_CASE") {
        match cases().into_iter().find(|(n, _)| *n == name) {
            Some((name, text)) => report_case(name, &text),
            None => eprintln!("no case {name}"),
        }
        return;
    }
    report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
