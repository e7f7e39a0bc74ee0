//! yose vs cgt (the `cgt` crate of cgt-tools, used as a benchmark peer), side by side.
//!
//!     cargo run --release --manifest-path benches/peer-cgt/Cargo.toml [-- OPTIONS] [FILTER...]
//!
//! OPTIONS: `--reps N` (most repetitions per engine and case, default 31),
//! `--budget S` (stop repeating once a case has used S seconds, default 10),
//! `--timeout S` (kill a case after S seconds, default 120).
//! FILTERs are substrings of case names (`switches`, `hot331_copies/8`, …).
//! `--describe` prints the games of the `deep_mixed` and `atomic_weight` cases, their
//! thermographs and atomic weights; `--crosscheck N [SEED [DEPTH]]` compares the engines
//! on N random pairs of small games (not timed); `--aw-check` tests the atomic-weight
//! criterion on the games of the `atomic_weight` cases, independently of both engines'
//! `atomic_weight`; `--questions [REPS]` times whole small questions through
//! yose's interpreter against cgt's bare calls (see `questions.rs`).
//!
//! The cases are the ones of the criterion bench (`benches/common/mod.rs`), written
//! once over the `Engine` trait. For every case the parent runs one child process
//! per engine (yose first, then cgt), so each case starts in fresh state and a case
//! that explodes in one engine can be stopped without disturbing the rest. Inside a
//! child every repetition builds a fresh engine (a new `Store` for yose), runs the
//! untimed setup, then times `run` with `std::time::Instant`. After the first
//! repetition the child prints a fingerprint of the result (a hash of the canonical
//! form's structure, or the booleans / numbers computed); the parent reports any
//! fingerprint that differs between the engines.

mod awcheck;
#[path = "../../common/mod.rs"]
mod common;
mod crosscheck;
mod questions;

use cgt::numeric::dyadic_rational_number::DyadicRationalNumber;
use cgt::numeric::nimber::Nimber;
use cgt::numeric::rational::Rational;
use cgt::short::partizan::canonical_form::nus::Nus;
use cgt::short::partizan::canonical_form::CanonicalForm;
use cgt::short::partizan::thermograph::Thermograph as CgtThermograph;
use cgt::short::partizan::trajectory::Trajectory;
use common::{cases, combine, AwError, Case, Engine, Out, ThermoFacts, WallFacts, Yose};
use num_rational::BigRational;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

// ----- cgt as an Engine ------------------------------------------------------------

/// cgt has no engine state: canonical forms are plain trees. Only the memo of the
/// structural hash (used outside the timed region) lives here.
struct Cgt {
    nus_shape: HashMap<Nus, u64>,
}

fn cgt_dyadic_to_f64(d: DyadicRationalNumber) -> f64 {
    d.numerator() as f64 / 2f64.powi(d.denominator_exponent() as i32)
}

fn cgt_rational(r: Rational) -> BigRational {
    match r {
        Rational::Value(v) => common::q(*v.numer(), *v.denom()),
        inf => panic!("infinite value {inf} in a thermograph of a short game"),
    }
}

fn cgt_dyadic(d: DyadicRationalNumber) -> BigRational {
    common::q(d.numerator(), 1) / common::q(1i64 << d.denominator_exponent(), 1)
}

/// cgt's trajectory (critical points in decreasing order, segment 0 on top)
/// as breakpoints in increasing order from t = -1.
fn cgt_wall(w: &Trajectory) -> WallFacts {
    let mut ts = vec![Rational::from(-1)];
    ts.extend(
        w.critical_points
            .iter()
            .rev()
            .filter(|t| **t > Rational::from(-1)),
    );
    WallFacts {
        points: ts
            .into_iter()
            .map(|t| (cgt_rational(t), cgt_rational(w.value_at(t))))
            .collect(),
        tail: cgt_rational(w.slopes[0]),
    }
}

impl Engine for Cgt {
    type G = CanonicalForm;
    type Th = CgtThermograph;

    fn fresh() -> Self {
        Cgt {
            nus_shape: HashMap::new(),
        }
    }
    fn int(&mut self, n: i64) -> CanonicalForm {
        CanonicalForm::new_integer(n)
    }
    fn dyadic(&mut self, num: i64, exp: u32) -> CanonicalForm {
        CanonicalForm::new_dyadic(DyadicRationalNumber::new(num, exp))
    }
    fn nim(&mut self, n: u32) -> CanonicalForm {
        CanonicalForm::new_nimber(DyadicRationalNumber::new_integer(0), Nimber::new(n))
    }
    fn ups(&mut self, k: i32) -> CanonicalForm {
        CanonicalForm::new_nus(Nus::new(
            DyadicRationalNumber::new_integer(0),
            k,
            Nimber::new(0),
        ))
    }
    fn game(&mut self, left: Vec<CanonicalForm>, right: Vec<CanonicalForm>) -> CanonicalForm {
        CanonicalForm::new_from_moves(left, right)
    }
    fn add(&mut self, a: &CanonicalForm, b: &CanonicalForm) -> CanonicalForm {
        a + b
    }
    fn neg(&mut self, a: &CanonicalForm) -> CanonicalForm {
        -a
    }
    fn le(&mut self, a: &CanonicalForm, b: &CanonicalForm) -> bool {
        CanonicalForm::leq(a, b)
    }
    fn birthday(&mut self, g: &CanonicalForm) -> u64 {
        g.birthday() as u64
    }
    fn left_stop(&mut self, g: &CanonicalForm) -> f64 {
        cgt_dyadic_to_f64(g.left_stop())
    }
    fn right_stop(&mut self, g: &CanonicalForm) -> f64 {
        cgt_dyadic_to_f64(g.right_stop())
    }
    fn shape(&mut self, g: &CanonicalForm) -> u64 {
        // Nus values are memoised by value (a nimber's option tree is exponential);
        // other nodes are distinct tree nodes in cgt and are visited once each.
        let nus = g.to_nus();
        if let Some(n) = nus {
            if let Some(&h) = self.nus_shape.get(&n) {
                return h;
            }
        }
        let lh = g.left_moves().map(|o| self.shape(&o)).collect();
        let rh = g.right_moves().map(|o| self.shape(&o)).collect();
        let h = combine(lh, rh);
        if let Some(n) = nus {
            self.nus_shape.insert(n, h);
        }
        h
    }
    fn show(&mut self, g: &CanonicalForm, limit: usize) -> Option<String> {
        let s = g.to_string();
        (s.len() <= limit).then_some(s)
    }
    fn thermograph(&mut self, g: &CanonicalForm) -> CgtThermograph {
        g.thermograph()
    }
    fn thermo_facts(&mut self, th: &CgtThermograph) -> ThermoFacts {
        ThermoFacts {
            mast: cgt_rational(th.get_mast()),
            temperature: cgt_dyadic(th.temperature()),
            left: cgt_wall(&th.left_wall),
            right: cgt_wall(&th.right_wall),
        }
    }
    /// cgt's `atomic_weight` applies the atomic-weight calculus to any game and
    /// never fails (it has no infinitesimal or atomicity check). The adapter adds
    /// the infinitesimal check with cgt's own stops (infinitesimal iff both stops
    /// are 0), inside the timed region, as yose's `Store::atomic_weight` does.
    fn atomic_weight(&mut self, g: &CanonicalForm) -> Result<CanonicalForm, AwError> {
        let zero = DyadicRationalNumber::new_integer(0);
        if g.left_stop() != zero || g.right_stop() != zero {
            return Err(AwError::NotInfinitesimal);
        }
        Ok(g.atomic_weight())
    }
}

// ----- worker ----------------------------------------------------------------------

fn fingerprint<E: Engine>(e: &mut E, out: &Out<E>) -> (String, Option<String>) {
    match out {
        // Not the birthday: cgt computes it without memo, exponential on *64.
        Out::Game(g) => (format!("shape={:016x}", e.shape(g)), e.show(g, 400)),
        Out::Bools(v) => (format!("{v:?}"), None),
        Out::Numbers(v) => (format!("{v:?}"), None),
        Out::Thermograph(th) => {
            let f = e.thermo_facts(th);
            // Walls from t = 0: below, cgt cools numbers by the definition while
            // yose keeps their walls at the mast (see BENCHMARKS.md).
            let (zero, minus_one) = (common::q(0, 1), common::q(-1, 1));
            (f.fingerprint(&zero), Some(f.fingerprint(&minus_one)))
        }
        Out::AtomicWeight(Ok(w)) => (format!("aw shape={:016x}", e.shape(w)), e.show(w, 400)),
        Out::AtomicWeight(Err(err)) => (format!("aw {err}"), Some(err.to_string())),
    }
}

/// The timed call, in a function of its own so that an instruction count can be
/// limited to it: `valgrind --tool=callgrind --toggle-collect='*timed_run*' …
/// --worker ENGINE INDEX REPS BUDGET` counts the timed region of every repetition only.
#[inline(never)]
fn timed_run<E: Engine>(case: &Case<E>, e: &mut E, data: &[E::G]) -> Out<E> {
    (case.run)(e, data)
}

fn worker<E: Engine + 'static>(index: usize, reps: usize, budget: Duration) {
    let case: Case<E> = cases::<E>().into_iter().nth(index).expect("case index");
    let start = Instant::now();
    let stdout = std::io::stdout();
    // Times are sent in batches, at most one write a quarter second and one at the end:
    // a write per repetition woke the parent on this 2-core machine while the next
    // repetition was being timed, and cases of a few microseconds read up to 5× slower
    // in whole runs of the harness (see BENCHMARKS.md, session 15).
    let mut unsent = String::new();
    let mut last_sent = Instant::now();
    let send = |unsent: &mut String| {
        let mut o = stdout.lock();
        o.write_all(unsent.as_bytes()).unwrap();
        o.flush().unwrap();
        unsent.clear();
    };
    for r in 0..reps {
        let mut e = E::fresh();
        let data = (case.setup)(&mut e);
        let t0 = Instant::now();
        let out = std::hint::black_box(timed_run(&case, &mut e, &data));
        let dt = t0.elapsed();
        unsent.push_str(&format!("t {}\n", dt.as_nanos()));
        if r == 0 || last_sent.elapsed() > Duration::from_millis(250) {
            send(&mut unsent);
            last_sent = Instant::now();
        }
        if r == 0 {
            let (fp, shown) = fingerprint(&mut e, &out);
            let mut o = stdout.lock();
            writeln!(o, "fp {fp}").unwrap();
            if let Some(s) = shown {
                writeln!(o, "show {s}").unwrap();
            }
            o.flush().unwrap();
        }
        // At least 3 repetitions, then stop once the budget is used.
        if r >= 2 && start.elapsed() > budget {
            break;
        }
    }
    send(&mut unsent);
}

// ----- parent ----------------------------------------------------------------------

#[derive(Default)]
struct Measured {
    times: Vec<Duration>,
    fp: Option<String>,
    show: Option<String>,
    killed: bool,
    failed: Option<String>,
}

impl Measured {
    fn median(&self) -> Option<Duration> {
        if self.times.is_empty() {
            return None;
        }
        let mut t = self.times.clone();
        t.sort();
        let n = t.len();
        Some(if n % 2 == 1 {
            t[n / 2]
        } else {
            (t[n / 2 - 1] + t[n / 2]) / 2
        })
    }
}

fn run_child(engine: &str, index: usize, reps: usize, budget: u64, timeout: Duration) -> Measured {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args([
            "--worker",
            engine,
            &index.to_string(),
            &reps.to_string(),
            &budget.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn worker");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut m = Measured::default();
    let deadline = Instant::now() + timeout;
    loop {
        let now = Instant::now();
        if now >= deadline {
            let _ = child.kill();
            m.killed = true;
            break;
        }
        match rx.recv_timeout(deadline - now) {
            Ok(line) => {
                if let Some(ns) = line.strip_prefix("t ") {
                    m.times.push(Duration::from_nanos(ns.parse().unwrap()));
                } else if let Some(fp) = line.strip_prefix("fp ") {
                    m.fp = Some(fp.to_string());
                } else if let Some(s) = line.strip_prefix("show ") {
                    m.show = Some(s.to_string());
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = child.wait().unwrap();
    let _ = reader.join();
    if !m.killed && !status.success() {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        let last = err
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(3)
            .collect::<Vec<_>>()
            .join(" / ");
        m.failed = Some(format!("{status}: {last}"));
    }
    m
}

fn fmt_dur(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn cell(m: &Measured, timeout: Duration) -> String {
    match m.median() {
        Some(d) => {
            let partial = if m.killed { " (killed)" } else { "" };
            format!("{} (n={}){partial}", fmt_dur(d), m.times.len())
        }
        None if m.killed => format!("> {} s (killed)", timeout.as_secs()),
        None => format!("failed: {}", m.failed.as_deref().unwrap_or("?")),
    }
}

/// Prints the games of the `deep_mixed` cases, with birthdays, in both engines.
fn describe() {
    let mut y = Yose::fresh();
    let mut c = Cgt::fresh();
    let gy = common::deep_games(&mut y);
    let gc = common::deep_games(&mut c);
    for (i, (a, b)) in gy.iter().zip(gc.iter()).enumerate() {
        let name = ["a", "b", "c", "d", "f"][i];
        println!(
            "{name}: birthday yose {} cgt {}",
            y.birthday(a),
            c.birthday(b)
        );
        println!("   yose {}", y.show(a, 2000).unwrap_or_default());
        println!("   cgt  {}", c.show(b, 2000).unwrap_or_default());
    }
    let mut acc = y.zero();
    for g in &gy {
        acc = y.add(&acc, g);
    }
    println!("a+b+c+d+f: birthday {}", y.birthday(&acc));
    println!("   yose {}", y.show(&acc, 4000).unwrap_or("(long)".into()));

    println!("\nThermographs (mast, temperature, walls from t = -1):");
    let minus_one = common::q(-1, 1);
    let mut named: Vec<(String, usize)> = (0..5)
        .map(|i| (["a", "b", "c", "d", "f"][i].to_string(), i))
        .collect();
    named.push(("a+b".into(), 2));
    named.push(("a+b+c".into(), 3));
    for (name, i) in named {
        let (gy1, gc1) = if name.contains('+') {
            (y.sum(&gy[..i]), c.sum(&gc[..i]))
        } else {
            (gy[i].clone(), gc[i].clone())
        };
        let ty = y.thermograph(&gy1);
        let tc = c.thermograph(&gc1);
        let fy = y.thermo_facts(&ty).fingerprint(&minus_one);
        let fc = c.thermo_facts(&tc).fingerprint(&minus_one);
        println!("{name}:\n   yose {fy}");
        if fc != fy {
            println!("   cgt  {fc}   <-- DIFFERS");
        }
    }

    println!("\nGames of the atomic_weight cases:");
    let sy = common::small_games(&mut y);
    let sc = common::small_games(&mut c);
    for (i, (a, b)) in sy.iter().zip(sc.iter()).enumerate() {
        let name = common::SMALL_NAMES[i];
        let all_small = {
            let a = y.id(a);
            y.store.is_all_small(a).unwrap()
        };
        println!(
            "{name}: birthday yose {} cgt {}, all-small (yose): {all_small}",
            y.birthday(a),
            c.birthday(b)
        );
        println!("   yose {}", y.show(a, 2000).unwrap_or_default());
        println!("   cgt  {}", c.show(b, 2000).unwrap_or_default());
        let show_aw = |r: Result<String, AwError>| match r {
            Ok(s) => s,
            Err(e) => e.to_string(),
        };
        let wy = y
            .atomic_weight(a)
            .map(|w| y.show(&w, 400).unwrap_or_default());
        let wc = c
            .atomic_weight(b)
            .map(|w| c.show(&w, 400).unwrap_or_default());
        println!("   aw: yose {}  cgt {}", show_aw(wy), show_aw(wc));
    }
    for case in cases::<Yose>() {
        if case.group != "atomic_weight" || !case.param.contains('+') {
            continue;
        }
        let mut y = Yose::fresh();
        let mut c = Cgt::fresh();
        let gy = (case.setup)(&mut y)[0].clone();
        let cases_c = cases::<Cgt>();
        let case_c = cases_c.iter().find(|k| k.name() == case.name()).unwrap();
        let gc = (case_c.setup)(&mut c)[0].clone();
        let all_small = {
            let gy = y.id(&gy);
            y.store.is_all_small(gy).unwrap()
        };
        println!(
            "{}: birthday yose {} cgt {}, all-small (yose): {all_small}",
            case.param,
            y.birthday(&gy),
            c.birthday(&gc)
        );
        println!("   yose {}", y.show(&gy, 300).unwrap_or("(long)".into()));
        let show_aw = |r: Result<String, AwError>| match r {
            Ok(s) => s,
            Err(e) => e.to_string(),
        };
        let wy = y
            .atomic_weight(&gy)
            .map(|w| y.show(&w, 400).unwrap_or_default());
        let wc = c
            .atomic_weight(&gc)
            .map(|w| c.show(&w, 400).unwrap_or_default());
        println!("   aw: yose {}  cgt {}", show_aw(wy), show_aw(wc));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--worker") {
        let index: usize = args[2].parse().unwrap();
        let reps: usize = args[3].parse().unwrap();
        let budget = Duration::from_secs(args[4].parse().unwrap());
        match args[1].as_str() {
            "yose" => worker::<Yose>(index, reps, budget),
            "cgt" => worker::<Cgt>(index, reps, budget),
            other => panic!("unknown engine {other}"),
        }
        return;
    }

    if args.first().map(String::as_str) == Some("--crosscheck") {
        let n = args.get(1).map_or(1000, |a| a.parse().unwrap());
        let seed = args.get(2).map_or(1, |a| a.parse().unwrap());
        let depth = args.get(3).map_or(3, |a| a.parse().unwrap());
        crosscheck::run(n, seed, depth);
        return;
    }
    if args.first().map(String::as_str) == Some("--aw-check") {
        awcheck::run();
        return;
    }
    if args.first().map(String::as_str) == Some("--questions") {
        questions::run(args.get(1).map_or(301, |a| a.parse().unwrap()));
        return;
    }
    if args.first().map(String::as_str) == Some("--describe") {
        describe();
        return;
    }
    let mut reps = 31usize;
    let mut budget = 10u64;
    let mut timeout = 120u64;
    let mut filters = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--reps" => reps = it.next().unwrap().parse().unwrap(),
            "--budget" => budget = it.next().unwrap().parse().unwrap(),
            "--timeout" => timeout = it.next().unwrap().parse().unwrap(),
            _ => filters.push(a),
        }
    }
    let timeout = Duration::from_secs(timeout);

    let names: Vec<(String, &'static str)> =
        cases::<Yose>().iter().map(|c| (c.name(), c.what)).collect();
    println!("yose vs cgt 0.11: median wall time per case, fresh state every repetition");
    println!(
        "(reps ≤ {reps}, budget {budget} s per engine and case, timeout {} s)\n",
        timeout.as_secs()
    );
    println!("| case | yose median | cgt median | cgt / yose | results agree |");
    println!("|---|---|---|---|---|");
    let mut problems = Vec::new();
    for (i, (name, what)) in names.iter().enumerate() {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let y = run_child("yose", i, reps, budget, timeout);
        let c = run_child("cgt", i, reps, budget, timeout);
        let ratio = match (y.median(), c.median()) {
            (Some(a), Some(b)) => {
                // Two decimals below 1 (yose slower), where one would hide the factor.
                let r = b.as_secs_f64() / a.as_secs_f64();
                if r < 1.0 {
                    format!("{r:.2}×")
                } else {
                    format!("{r:.1}×")
                }
            }
            (Some(a), None) if c.killed => {
                format!("> {:.0}×", timeout.as_secs_f64() / a.as_secs_f64())
            }
            _ => "–".to_string(),
        };
        let agree = match (&y.fp, &c.fp) {
            (Some(a), Some(b)) if a == b => "yes".to_string(),
            (Some(_), Some(_)) => {
                problems.push(format!(
                    "{name} ({what}):\n  yose: {}\n  cgt:  {}\n  yose form: {}\n  cgt form:  {}",
                    y.fp.as_deref().unwrap(),
                    c.fp.as_deref().unwrap(),
                    y.show.as_deref().unwrap_or("(too big to print)"),
                    c.show.as_deref().unwrap_or("(too big to print)"),
                ));
                "**NO**".to_string()
            }
            _ => "n/a".to_string(),
        };
        println!(
            "| {name} | {} | {} | {ratio} | {agree} |",
            cell(&y, timeout),
            cell(&c, timeout)
        );
    }
    if problems.is_empty() {
        println!("\nAll results that both engines produced agree.");
    } else {
        println!("\nDISCREPANCIES:");
        for p in problems {
            println!("{p}");
        }
    }
}
