//! Random input through parse + eval must never panic: arbitrary text, text over
//! the language's own alphabet, and random well-formed expressions.

use proptest::prelude::*;
use yose::eval::{Interp, Mode};
use yose::render::Style;

fn run(src: &str) {
    let mut interp = Interp::new(Mode::Check, Style::Ascii);
    let id = interp.add_source("<fuzz>", src, None);
    let _ = interp.run_source(id);
    // Printing whatever was bound must not panic either.
    for name in interp.global_names() {
        let id = interp.add_source("<fuzz>", &format!("print {name}"), None);
        let _ = interp.run_source(id);
    }
}

fn expr(depth: u32) -> BoxedStrategy<String> {
    let atom = prop_oneof![
        (-20i64..20).prop_map(|n| n.to_string()),
        (-9i64..9, 0u32..4).prop_map(|(n, k)| format!("{n}/{}", 1u32 << k)),
        Just("*".to_string()),
        (0u32..5).prop_map(|n| format!("*{n}")),
        Just("^".to_string()),
        Just("v".to_string()),
        Just("^^*".to_string()),
        (1u32..4).prop_map(|n| format!("^<{n}>")),
        (1u32..4).prop_map(|n| format!("^[{n}]")),
        Just("x".to_string()),
        Just("[1, ^, *]".to_string()),
        Just("true".to_string()),
        Just("\"s\"".to_string()),
    ];
    if depth == 0 {
        return atom.boxed();
    }
    let sub = expr(depth - 1);
    let opts = prop::collection::vec(sub.clone(), 0..3).prop_map(|v| v.join(", "));
    prop_oneof![
        3 => atom,
        2 => (opts.clone(), opts).prop_map(|(l, r)| format!("{{{l} | {r}}}")),
        1 => (sub.clone(), sub.clone(), sub.clone()).prop_map(|(a, b, c)| format!("{{{a} || {b} | {c}}}")),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("{a} + {b}")),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("{a} - {b}")),
        1 => sub.clone().prop_map(|a| format!("+-({a})")),
        1 => (0i64..4, sub.clone()).prop_map(|(n, a)| format!("{n} . ({a})")),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("{a} / {b}")),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("({a}) <> ({b})")),
        1 => (sub.clone(), sub.clone()).prop_map(|(a, b)| format!("({a}) ~= ({b})")),
        1 => sub.clone().prop_map(|a| format!("tiny({a})")),
        1 => sub.clone().prop_map(|a| format!("left_options({a})")),
        1 => sub.clone().prop_map(|a| format!("birthday({a})")),
        1 => sub.clone().prop_map(|a| format!("*({a})")),
        1 => sub.prop_map(|a| format!("[{a}][0]")),
    ]
    .boxed()
}

/// Cases per property: 300 in `cargo test`; the long run sets
/// `YOSE_FUZZ_CASES` (e.g. `YOSE_FUZZ_CASES=100000 cargo test --release
/// integration::fuzz::`).
fn cases(default: u32) -> u32 {
    std::env::var("YOSE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Arguments for random builtin calls: games, numbers, kos and ko literals,
/// θ, Go diagrams (well-formed and not), move strings, names and lists.
const ARGS: &[&str] = &[
    "0",
    "1",
    "-3",
    "1/2",
    "*",
    "^",
    "{1|-1}",
    "{2|{1|0}}",
    "+-3",
    "[1, ^, *]",
    "[]",
    "true",
    "\"\"",
    "\"x\"",
    "ko(2, 0)",
    "ko(1, -1)",
    "multi_stage_ko(3, 3, -4)",
    "a: {{2 | 1 + a} | -2}",
    "a: {1 | b: {0 | -1}}",
    "θ",
    "-θ",
    "ko(2, 0) + θ",
    "go(\". x o\\n. . .\")",
    "go(\"x x\\na .\\n. .\")",
    "go(\". a o O X X\\n. x . . o .\")",
    "go(\"x\")",
    "go(\"\")",
    "go(\"o o\\nx\")",
    "go(\"a b c\\n. . .\")",
    "game(\". . .\\n. . .\\n. . .\")",
    "\"B C3, W D4\"",
    "\"W[cb]\"",
    "\"B Z99\"",
    "\"pass\"",
    "black",
    "white",
    "budget: 50",
    "rules: \"chinese\"",
    "ko_rule: \"positional\"",
    "komaster: black",
    "move: 1",
    "budget: 0",
    "latent: \"keep\"",
];

fn builtin_call() -> BoxedStrategy<String> {
    let names: Vec<&'static str> = yose::eval::builtin_names()
        // Builtins that write files are fuzzed by their own tests.
        .filter(|n| !matches!(*n, "svg" | "sgf_write" | "sgf_read"))
        .collect();
    (
        prop::sample::select(names),
        prop::collection::vec(prop::sample::select(ARGS), 0..4),
    )
        .prop_map(|(name, args)| format!("{name}({})", args.join(", ")))
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(300), ..ProptestConfig::default() })]

    #[test]
    fn builtins_on_any_arguments_never_panic(call in builtin_call()) {
        run(&format!("let r = {call}\nprint r\n"));
    }

    #[test]
    fn random_text_never_panics(s in "\\PC{0,60}") {
        run(&s);
    }

    #[test]
    fn language_alphabet_never_panics(s in "[{}|,*^v0-9+/.()\\[\\]<> =a-z\"#\n-]{0,60}") {
        run(&s);
    }

    #[test]
    fn well_formed_expressions_never_panic(e in expr(3)) {
        run(&format!("let x = 1\nlet r = {e}\nprint r\nassert r == r\n"));
    }
}
