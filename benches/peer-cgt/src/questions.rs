//! Whole small questions, in process: yose's interpreter (a fresh `Interp`,
//! parsing the text, evaluating, printing the value) against cgt's bare
//! calls on the same text (`CanonicalForm::from_str` and the operation).
//! Each repetition times one yose question and one cgt call in turn, so
//! both see the same machine state; the medians and the median of the
//! per-pair ratios are printed.
//!
//!     cargo run --release --manifest-path benches/peer-cgt/Cargo.toml -- --questions [REPS]

use cgt::short::partizan::canonical_form::CanonicalForm;
use std::hint::black_box;
use std::str::FromStr;
use std::time::{Duration, Instant};
use yose::eval::{Interp, Mode};
use yose::render::Style;

/// yose: a fresh interpreter evaluates `expr` and prints the value.
fn yose_fresh(expr: &str) -> String {
    let mut it = Interp::new(Mode::Script, Style::Ascii);
    yose_in(&mut it, expr)
}

fn yose_in(it: &mut Interp, expr: &str) -> String {
    let id = it.add_source("<q>", expr, None);
    let v = it.eval_source_expr(id).expect("the question evaluates");
    v.display(&mut it.store, Style::Ascii).expect("prints")
}

fn cgt_parse(text: &str) -> CanonicalForm {
    CanonicalForm::from_str(text).expect("cgt parses its own output")
}

/// The games of the comparison cases, as text both programs read: cgt's
/// printing of a sum of switches, fully braced.
fn switches_text(ks: &[i64]) -> String {
    let mut g = CanonicalForm::new_integer(0);
    for &k in ks {
        let s = CanonicalForm::new_from_moves(
            vec![CanonicalForm::new_integer(k)],
            vec![CanonicalForm::new_integer(-k)],
        );
        g = &g + &s;
    }
    g.to_string()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn show(s: f64) -> String {
    let d = Duration::from_secs_f64(s);
    if d < Duration::from_micros(1) {
        format!("{:.0} ns", s * 1e9)
    } else if d < Duration::from_millis(1) {
        format!("{:.1} µs", s * 1e6)
    } else {
        format!("{:.2} ms", s * 1e3)
    }
}

/// The two timed calls, each in a function of its own so that an
/// instruction count can be limited to one side:
/// `PEER_QUESTION=1 valgrind --tool=callgrind --toggle-collect='*timed_yose*'
/// target/release/peer-cgt --questions 100` (the count includes the
/// untimed first round: divide by REPS + 1).
#[inline(never)]
fn timed_yose(f: &mut dyn FnMut() -> String) -> String {
    black_box(0u8); // not folded with `timed_cgt`
    f()
}

#[inline(never)]
fn timed_cgt(f: &mut dyn FnMut() -> String) -> String {
    black_box(1u8);
    f()
}

pub fn run(reps: usize) {
    let g = switches_text(&[1, 2, 3, 4, 5, 6]);
    let h = switches_text(&[1, 2, 3, 4, 5, 7]);
    let g2 = switches_text(&[1, 2, 3, 4, 5, 6, 7]);
    let h2 = switches_text(&[1, 2, 3, 4, 5, 6, 8]);
    let le = format!("{g} <= {h}");
    let le2 = format!("{g2} <= {h2}");
    println!(
        "texts: G, H of {} and {} bytes; G2, H2 of {} and {} bytes\n",
        g.len(),
        h.len(),
        g2.len(),
        h2.len()
    );
    let big = switches_text(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    println!(
        "parse text: ±1 + … + ±10 printed by cgt, {} bytes\n",
        big.len()
    );
    let mut warm = Interp::new(Mode::Script, Style::Ascii);
    let mut warm0 = Interp::new(Mode::Script, Style::Ascii);
    type Case<'a> = (
        &'a str,
        Box<dyn FnMut() -> String + 'a>,
        Box<dyn FnMut() -> String + 'a>,
    );
    let cases: Vec<Case> = vec![
        (
            "`0`, fresh interpreter / cgt parse",
            Box::new(|| yose_fresh("0")),
            Box::new(|| cgt_parse("0").to_string()),
        ),
        (
            "`thermograph({3|{2|1}})`, fresh interpreter / cgt parse + thermograph",
            Box::new(|| yose_fresh("thermograph({3|{2|1}})")),
            Box::new(|| {
                format!(
                    "{:?}",
                    cgt_parse("{3|{2|1}}")
                        .thermograph()
                        .left_wall
                        .critical_points
                )
            }),
        ),
        // The `0` question split: the interpreter's start-up alone, the
        // question in a warm interpreter (nothing memoised matters for `0`),
        // and the parse alone (what cgt's `from_str` of `0` is).
        (
            "`0`: yose `Interp::new` and its drop only / cgt parse",
            Box::new(|| {
                let it = Interp::new(Mode::Script, Style::Ascii);
                black_box(&it);
                drop(it);
                String::new()
            }),
            Box::new(|| cgt_parse("0").to_string()),
        ),
        (
            "`0`, warm interpreter / cgt parse",
            Box::new(|| yose_in(&mut warm0, "0")),
            Box::new(|| cgt_parse("0").to_string()),
        ),
        (
            "`0`, yose parse only (AST) / cgt parse",
            Box::new(|| format!("{}", yose::syntax::parse_expr("0").is_ok())),
            Box::new(|| cgt_parse("0").to_string()),
        ),
        (
            "`{3|{2|1}} + ^*`, warm REPL / cgt parse + add",
            Box::new(|| yose_in(&mut warm, "{3|{2|1}} + ^*")),
            Box::new(|| (&cgt_parse("{3|{2|1}}") + &cgt_parse("^*")).to_string()),
        ),
        (
            "G <= H (±1..±6 vs ±1..±5,±7 as text), fresh interpreter / cgt parse + <=",
            Box::new(|| yose_fresh(&le)),
            Box::new(|| (cgt_parse(&g) <= cgt_parse(&h)).to_string()),
        ),
        (
            "G2 <= H2 (±1..±7 vs ±1..±6,±8 as text), fresh interpreter / cgt parse + <=",
            Box::new(|| yose_fresh(&le2)),
            Box::new(|| (cgt_parse(&g2) <= cgt_parse(&h2)).to_string()),
        ),
        (
            "parse the text (yose: AST only, fast path / cgt: parse and canonical form)",
            Box::new(|| format!("{}", yose::syntax::parse_expr(&big).is_ok())),
            Box::new(|| cgt_parse(&big).to_string().len().to_string()),
        ),
        (
            "parse the text (yose: AST only, pest alone / cgt: parse and canonical form)",
            Box::new(|| format!("{}", yose::syntax::parse_expr_with_pest_only(&big).is_ok())),
            Box::new(|| cgt_parse(&big).to_string().len().to_string()),
        ),
    ];
    println!("| question | yose median | cgt median | cgt / yose (medians) | median of pairwise ratios | answers |");
    println!("|---|---|---|---|---|---|");
    // `PEER_QUESTION=i` runs only question i (for profiling).
    let only: Option<usize> = std::env::var("PEER_QUESTION")
        .ok()
        .and_then(|v| v.parse().ok());
    for (i, (name, mut y, mut c)) in cases.into_iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        // One untimed round each (page faults, lazy statics).
        let ya = timed_yose(&mut y);
        let ca = timed_cgt(&mut c);
        let (mut ty, mut tc, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..reps {
            let t = Instant::now();
            black_box(timed_yose(&mut y));
            let a = t.elapsed().as_secs_f64();
            let t = Instant::now();
            black_box(timed_cgt(&mut c));
            let b = t.elapsed().as_secs_f64();
            ty.push(a);
            tc.push(b);
            ratios.push(b / a);
        }
        let (my, mc) = (median(ty), median(tc));
        println!(
            "| {name} | {} | {} | {:.2}× | {:.2}× | yose `{}`, cgt `{}` |",
            show(my),
            show(mc),
            mc / my,
            median(ratios),
            if ya.len() > 40 { &ya[..40] } else { &ya },
            if ca.len() > 40 { &ca[..40] } else { &ca },
        );
    }
}
