//! Data-driven parser tests: `check` dumps the AST as S-expressions,
//! `check_err` renders the diagnostics. `UPDATE_EXPECT=1 cargo test --lib
//! syntax` rewrites the snapshots.

use super::*;
use expect_test::{expect, Expect};

fn dump(input: &str) -> String {
    match parse_program(input) {
        Ok(p) => sexpr::program(&p),
        Err(diags) => format!(
            "ERROR\n{}",
            crate::diag::render_all(&diags, "test", input, false)
        ),
    }
}

fn check(input: &str, expect: Expect) {
    expect.assert_eq(&dump(input));
}

fn check_err(input: &str, expect: Expect) {
    match parse_program(input) {
        Ok(p) => panic!("expected an error, got\n{}", sexpr::program(&p)),
        Err(diags) => expect.assert_eq(&crate::diag::render_all(&diags, "test", input, false)),
    }
}

fn check_spans(input: &str, expect: Expect) {
    let p = parse_program(input).unwrap_or_else(|d| panic!("{d:?}"));
    expect.assert_eq(&sexpr::program_with_spans(&p));
}

// ------------------------------------------------------------- literals

#[test]
fn integers_and_fractions() {
    check(
        "1\n-2\n3/8\n-3/8\n1/0\n0",
        expect![[r#"
            1
            -2
            3/8
            -3/8
            1/0
            0
        "#]],
    );
}

#[test]
fn stars() {
    check(
        "*\n*3\n∗\n∗2\n*(n + 1)\n*0",
        expect![[r#"
        *
        (* 3)
        *
        (* 2)
        (* (+ n 1))
        (* 0)
    "#]],
    );
}

#[test]
fn ups_and_downs() {
    check(
        "^\n↑\n^^\n⇑\n^3\n↑3\n^^^\nv\n↓\nvv\n⇓\nv3\n↓3\nvvv",
        expect![[r#"
            (ups 1)
            (ups 1)
            (ups 2)
            (ups 2)
            (ups 3)
            (ups 3)
            (ups 3)
            (ups -1)
            (ups -1)
            (ups -2)
            (ups -2)
            (ups -3)
            (ups -3)
            (ups -3)
        "#]],
    );
}

#[test]
fn up_nth_and_uptimals() {
    check(
        "^<2>\nv<2>\n^[3]\nv[3]\n↑<3>\n↓[4]",
        expect![[r#"
        (up-nth 2)
        (down-nth 2)
        (uptimal 3)
        (downtimal 3)
        (up-nth 3)
        (downtimal 4)
    "#]],
    );
}

#[test]
fn ups_with_star() {
    check(
        "^*\n^^*\nv*\n^3*2\n^<2>*\n^[3]*\nvv*3\n⇑∗",
        expect![[r#"
        (+ (ups 1) *)
        (+ (ups 2) *)
        (+ (ups -1) *)
        (+ (ups 3) (* 2))
        (+ (up-nth 2) *)
        (+ (uptimal 3) *)
        (+ (ups -2) (* 3))
        (+ (ups 2) *)
    "#]],
    );
}

#[test]
fn down_letter_versus_names() {
    check(
        "value\nvx\nv'\nv3x\nvv3\nv\nv2\nlet vv_ = v",
        expect![[r#"
        value
        vx
        v'
        v3x
        vv3
        (ups -1)
        (ups -2)
        (let vv_ (ups -1))
    "#]],
    );
}

#[test]
fn juxtaposition() {
    check(
        "2*\n1^\n3/2^*\n2{0|-1}\n9Tiny({2|1})\n73/16v9*8\n2^<2>\n2*3\n2tiny(1)\n2⧾1",
        expect![[r#"
            (+ 2 *)
            (+ 1 (ups 1))
            (+ 3/2 (+ (ups 1) *))
            (+ 2 (game (left 0) (right -1)))
            (+ 9 (call Tiny (game (left 2) (right 1))))
            (+ 73/16 (+ (ups -9) (* 8)))
            (+ 2 (up-nth 2))
            (+ 2 (* 3))
            (+ 2 (call tiny 1))
            (+ 2 (call tiny 1))
        "#]],
    );
}

#[test]
fn signed_literals() {
    check(
        "-2v*\n- 2v*\na - 2v*\na -2v*\na-2\n--2\n-x\n-3/2^",
        expect![[r#"
        (+ -2 (+ (ups -1) *))
        (neg (+ 2 (+ (ups -1) *)))
        (- a (+ 2 (+ (ups -1) *)))
        (- a (+ 2 (+ (ups -1) *)))
        (- a 2)
        (neg -2)
        (neg x)
        (+ -3/2 (ups 1))
    "#]],
    );
}

#[test]
fn switches() {
    check(
        "+-3 + +-2 + +-1\n±1\n+-{6|4||2|0}\n+-1*\na + -2",
        expect![[r#"
        (+ (+ (switch 3) (switch 2)) (switch 1))
        (switch 1)
        (switch (game (left (game (left 6) (right 4))) (right (game (left 2) (right 0)))))
        (switch (+ 1 *))
        (+ a -2)
    "#]],
    );
}

#[test]
fn binary_plus_minus_is_cgsuite_s() {
    // CGSuite reads `a +- b` as a + ±b: `3+-1` is {4 | 2}, not 3 + (-1).
    check(
        "3+-1\n+-1+-2+-3\n3 - 2 +- 6 - 7 +- 8 + 4\na ± b\na + -1\na +- -1\n{3+-1 | 0}",
        expect![[r#"
            (+ 3 (switch 1))
            (+ (+ (switch 1) (switch 2)) (switch 3))
            (+ (+ (- (+ (- 3 2) (switch 6)) 7) (switch 8)) 4)
            (+ a (switch b))
            (+ a -1)
            (+ a (switch -1))
            (game (left (+ 3 (switch 1))) (right 0))
        "#]],
    );
    check_spans(
        "3 +- 1",
        expect![[r#"
            (+ 3@0..1 (switch 1@5..6)@2..6)@0..6
        "#]],
    );
}

#[test]
fn plus_minus_of_several_options() {
    check(
        "+-{1, 1*}\n±(1, 1*)\n2 +- {1, 1*}\n-+-{a,b}\n+-(1)\n+-{\n  1,\n  2\n}",
        expect![[r#"
            (switch-of 1 (+ 1 *))
            (switch-of 1 (+ 1 *))
            (+ 2 (switch-of 1 (+ 1 *)))
            (neg (switch-of a b))
            (switch 1)
            (switch-of 1 2)
        "#]],
    );
    check_err(
        "{1, 2}",
        expect![[r#"
            Error: braces without `|` are not a game
               ╭─[ test:1:1 ]
               │
             1 │ {1, 2}
               │ ───┬──
               │    ╰──── a set of options
               │
               │ Help: a game needs `|` (`{|}` is 0, `{0|}` is 1); braces without `|` make a block, which only follows `if`, `else`, `for`, `theorem` or `fn … =`; a list is `[a, b]`
               │
               │ Note: only `±` takes a set of options: `±{1, 1*}` is {1, 1* | -1, -1*}
            ───╯
        "#]],
    );
    check_err(
        "f((1, 2))",
        expect![[r#"
            Error: a parenthesis holds one expression
               ╭─[ test:1:3 ]
               │
             1 │ f((1, 2))
               │   ───┬──
               │      ╰──── several expressions
               │
               │ Help: a list is `[a, b]`
               │
               │ Note: only `±` takes several: `±(1, 1*)` is {1, 1* | -1, -1*}
            ───╯
        "#]],
    );
}

#[test]
fn anonymous_functions_and_ranges() {
    check(
        "fn(x) = x + 1\nmap(fn(k) = +-k, 1..=40)\nlet f = fn(a, b) = { a + b }\n0..n\nfn() = 1\nfor i in 1..3 { i }",
        expect![[r#"
            (lambda (x) (+ x 1))
            (call map (lambda (k) (switch k)) (range..= 1 40))
            (let f (lambda (a b) (block (+ a b))))
            (range.. 0 n)
            (lambda () 1)
            (for i (range 1 3) (block i))
        "#]],
    );
    check_err(
        "fn(x, x) = x",
        expect![[r#"
        Error: parameter `x` appears twice
           ╭─[ test:1:7 ]
           │
         1 │ fn(x, x) = x
           │    ┬  ┬
           │    │  ╰── second use
           │    │
           │    ╰───── first use
        ───╯
    "#]],
    );
}

#[test]
fn list_comprehensions() {
    check(
        "[+-k for k in 1..=40]\n[a + b for a in xs for b in ys if a != b]\n[g for g in gs if g > 0 for h in f(g)]\n[k for k in\n 0..3]",
        expect![[r#"
            (comprehension (switch k) (for k (range= 1 40)))
            (comprehension (+ a b) (for a (in xs)) (for b (in ys)) (if (!= a b)))
            (comprehension g (for g (in gs)) (if (> g 0)) (for h (in (call f g))))
            (comprehension k (for k (range 0 3)))
        "#]],
    );
    // A list of one element is still a list; `for` needs `in`.
    check(
        "[k]",
        expect![[r#"
        (list k)
    "#]],
    );
    assert!(parse_program("[k for k 1..3]").is_err());
    assert!(parse_program("[for k in xs]").is_err());
}

#[test]
fn tiny_and_miny() {
    check(
        "Tiny(x)\ntiny(2)\nMiny({2|1})\nminy(1)\n⧾5\n⧿{2|1}\n⧾x\n⧿(1 + 1)",
        expect![[r#"
        (call Tiny x)
        (call tiny 2)
        (call Miny (game (left 2) (right 1)))
        (call miny 1)
        (call tiny 5)
        (call miny (game (left 2) (right 1)))
        (call tiny x)
        (call miny (+ 1 1))
    "#]],
    );
}

#[test]
fn strings_and_bools() {
    check(
        r#""plain"
"esc \" \\ \n \t"
"""raw \n "quoted"
  lines"""
true
false
θ"#,
        expect![[r#"
            "plain"
            "esc \" \\ \n \t"
            "raw \\n \"quoted\"\n  lines"
            true
            false
            (theta 1)
        "#]],
    );
}

// ---------------------------------------------------------------- games

#[test]
fn games() {
    check(
        "{|}\n{0|}\n{ | 0}\n{1, 2 | -1, *}\n{0, * | 0}\n{{0|*}|}",
        expect![[r#"
        (game (left) (right))
        (game (left 0) (right))
        (game (left) (right 0))
        (game (left 1 2) (right -1 *))
        (game (left 0 *) (right 0))
        (game (left (game (left 0) (right *))) (right))
    "#]],
    );
}

#[test]
fn slash_convention() {
    check(
        "{a || b | c}\n{a | b || c}\n{5||4,{5|4}|3}\n{a|b||c|d}\n{10||0|-100}\n{a|||b|c||d}\n{3 || 2 | 1}",
        expect![[r#"
            (game (left a) (right (game (left b) (right c))))
            (game (left (game (left a) (right b))) (right c))
            (game (left 5) (right (game (left 4 (game (left 5) (right 4))) (right 3))))
            (game (left (game (left a) (right b))) (right (game (left c) (right d))))
            (game (left 10) (right (game (left 0) (right -100))))
            (game (left a) (right (game (left (game (left b) (right c))) (right d))))
            (game (left 3) (right (game (left 2) (right 1))))
        "#]],
    );
}

#[test]
fn multi_line_games() {
    check(
        "let G = {\n  10,\n  9 |\n  {0 | -100}  # right\n}\nprint G",
        expect![[r#"
            (let G (game (left 10 9) (right (game (left 0) (right -100)))))
            (print G)
        "#]],
    );
}

// ----------------------------------------------------------- operators

#[test]
fn precedence() {
    check(
        "1 + 2 - 3\n3 . {1|0}\n2 · G + H\na / b mod c\n-a + b\nnot a and b or c\nnot not x",
        expect![[r#"
            (- (+ 1 2) 3)
            (. 3 (game (left 1) (right 0)))
            (+ (. 2 G) H)
            (mod (/ a b) c)
            (+ (neg a) b)
            (or (and (not a) b) c)
            (not (not x))
        "#]],
    );
}

#[test]
fn comparisons() {
    check(
        "a == b\na != b\na < b\na <= b\na > b\na >= b\na <> b\na <| b\na |> b\na ~= b\na ≈ b\na ≤ b\na ≥ b\na ≠ b\na == b ish\na != b ish\na + 1 == b + 2 and c < d",
        expect![[r#"
            (== a b)
            (!= a b)
            (< a b)
            (<= a b)
            (> a b)
            (>= a b)
            (<> a b)
            (<| a b)
            (|> a b)
            (~= a b)
            (~= a b)
            (<= a b)
            (>= a b)
            (!= a b)
            (~= a b)
            (!~= a b)
            (and (== (+ a 1) (+ b 2)) (< c d))
        "#]],
    );
}

#[test]
fn calls_lists_and_indexing() {
    check(
        "f(a, b)\nf()\nxs[0]\n[1, 2, 3][i]\nf(x)[0][1]\n[]\n[a,]\nf(g, komaster: black)\n(a + b)[0]",
        expect![[r#"
            (call f a b)
            (call f)
            (index xs 0)
            (index (list 1 2 3) i)
            (index (index (call f x) 0) 1)
            (list)
            (list a)
            (call f g (named komaster black))
            (index (+ a b) 0)
        "#]],
    );
}

#[test]
fn newlines_after_operators_and_in_brackets() {
    check(
        "let x = 1 +\n  2\nlet y = f(\n  a,\n  b\n)\nlet z = [\n1,\n2\n]\nlet w = (1\n+ 2)\nlet u =\n  3",
        expect![[r#"
            (let x (+ 1 2))
            (let y (call f a b))
            (let z (list 1 2))
            (let w (+ 1 2))
            (let u 3)
        "#]],
    );
}

// ---------------------------------------------------------- statements

#[test]
fn statements() {
    check(
        r#"let G' = {10 | {0 | -100}}
region H = +-8
fn corridor(n) = if n == 1 { * } else { {0 | corridor(n - 1)} }
assert temperature(G') == 10
assert mean(G') == 0, "the Hotstrat paper prints 5 here"
theorem pairwise_ties { for m in 3..8 { assert m > 2 } }
for x in 0..=3 { print x }
for g in games { print g, g }
print
use go
use "lib/ko.cgt"
a; b;; c
"#,
        expect![[r#"
            (let G' (game (left 10) (right (game (left 0) (right -100)))))
            (region H (switch 8))
            (fn corridor (n) (if (== n 1) (block *) (block (game (left 0) (right (call corridor (- n 1)))))))
            (assert (== (call temperature G') 10))
            (assert (== (call mean G') 0) "the Hotstrat paper prints 5 here")
            (theorem pairwise_ties (block (for m (range 3 8) (block (assert (> m 2))))))
            (for x (range= 0 3) (block (print x)))
            (for g (in games) (block (print g g)))
            (print)
            (use go)
            (use "lib/ko.cgt")
            a
            b
            c
        "#]],
    );
}

#[test]
fn if_else_chains() {
    check(
        "if a { 1 } else if b { 2 } else { 3 }\nlet x = if c { 1 } else { 2 }\nif a {\n  print 1\n  print 2\n}\nelse {\n  3\n}",
        expect![[r#"
            (if a (block 1) (block (if b (block 2) (block 3))))
            (let x (if c (block 1) (block 2)))
            (if a (block (print 1) (print 2)) (block 3))
        "#]],
    );
}

#[test]
fn fn_with_block_body() {
    check(
        "fn f(x, y) = {\n  let z = x + y\n  {z | 0}\n}\nfn g() = 0",
        expect![[r#"
        (fn f (x y) (block (let z (+ x y)) (game (left z) (right 0))))
        (fn g () 0)
    "#]],
    );
}

#[test]
fn comments() {
    check(
        "# a comment\nlet x = 1 # trailing\n{ 1 # left\n | 0 }\n\"# not a comment\"",
        expect![[r##"
        (let x 1)
        (game (left 1) (right 0))
        "# not a comment"
    "##]],
    );
}

#[test]
fn odd_but_valid() {
    check(
        "^<x\nv <2\n0^\n007\n2/-3\nx/2\n3 / 8\n*(1)\n[1, -2*, {|}]\n-(-2)\n1 . -2\nnot -x == 1",
        expect![[r#"
            (< (ups 1) x)
            (< (ups -1) 2)
            (+ 0 (ups 1))
            7
            (/ 2 -3)
            (/ x 2)
            (/ 3 8)
            (* 1)
            (list 1 (+ -2 *) (game (left) (right)))
            (neg -2)
            (. 1 -2)
            (not (== (neg x) 1))
        "#]],
    );
}

#[test]
fn crlf_bom_and_unicode_minus() {
    check(
        "\u{FEFF}let x = 1\r\nlet y = {12 − θ | −12 + θ}\r\nprint x, # c\r\n  y\r\n",
        expect![[r#"
            (let x 1)
            (let y (game (left (- 12 (theta 1))) (right (+ -12 (theta 1)))))
            (print x y)
        "#]],
    );
}

#[test]
fn empty_and_blank_inputs() {
    check("", expect![[""]]);
    check("\n\n  \n# only a comment\n", expect![[""]]);
}

#[test]
fn spans() {
    check_spans(
        "let x = -2v* + {1|0}\nassert x ≈ ⇑ ish",
        expect![[r#"
        (let x@4..5 (+ (+ -2@8..10 (+ (ups -1)@10..11 *@11..12)@10..12)@8..12 (game (left 1@16..17) (right 0@18..19))@15..20)@8..20)@0..20
        (assert (~= x@28..29 (ups 2)@34..37)@28..41)@21..41
    "#]],
    );
}

#[test]
fn parse_expr_entry_point() {
    let e = parse_expr("\n{3 || 2 | 1} + ⇑*\n").unwrap();
    expect!["(+ (game (left 3) (right (game (left 2) (right 1)))) (+ (ups 2) *))"]
        .assert_eq(&sexpr::expr_to_string(&e));
    assert!(parse_expr("let x = 1").is_err());
    assert!(parse_expr("1\n2").is_err());
}

#[test]
fn huge_integer() {
    let digits = "7".repeat(10_000);
    let p = parse_program(&digits).unwrap();
    match &p.stmts[0].kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Int(n),
            ..
        }) => assert_eq!(n.to_string(), digits),
        other => panic!("{other:?}"),
    }
}

// --------------------------------------------------------------- errors

#[test]
fn err_ambiguous_bars() {
    check_err(
        "let G = {a|b|c}",
        expect![[r#"
        Error: ambiguous game: `|` appears twice at the same level
           ╭─[ test:1:11 ]
           │
         1 │ let G = {a|b|c}
           │           ┬ ┬
           │           ╰──── this split
           │             │
           │             ╰── and this one have the same number of bars
           │
           │ Help: add a bar to say which split is outermost: `{a||b|c}` means {a|{b|c}}; `{a|b||c}` means {{a|b}|c}
           │
           │ Note: more bars bind looser: `{a || b | c}` is {a | {b | c}}
        ───╯
    "#]],
    );
    check_err(
        "{1 || 0 || -1}",
        expect![[r#"
        Error: ambiguous game: `||` appears twice at the same level
           ╭─[ test:1:4 ]
           │
         1 │ {1 || 0 || -1}
           │    ─┬   ─┬
           │     ╰─────── this split
           │          │
           │          ╰── and this one have the same number of bars
           │
           │ Help: add a bar to say which split is outermost: `{1|||0||-1}` means {1|{0||-1}}; `{1||0|||-1}` means {{1||0}|-1}
           │
           │ Note: more bars bind looser: `{a || b | c}` is {a | {b | c}}
        ───╯
    "#]],
    );
    check_err(
        "{x ||| 1 | 2 | 3}",
        expect![[r#"
        Error: ambiguous game: `|` appears twice at the same level
           ╭─[ test:1:10 ]
           │
         1 │ {x ||| 1 | 2 | 3}
           │          ┬   ┬
           │          ╰────── this split
           │              │
           │              ╰── and this one have the same number of bars
           │
           │ Help: add a bar to say which split is outermost: `{x|||1||2|3}` makes `1|2|3` {1|{2|3}}; `{x|||1|2||3}` makes `1|2|3` {{1|2}|3}
           │
           │ Note: more bars bind looser: `{a || b | c}` is {a | {b | c}}
        ───╯
    "#]],
    );
}

#[test]
fn err_star_is_not_multiplication() {
    check_err(
        "2 * 3",
        expect![[r#"
        Error: `*` is not multiplication in yose (it is the game star); for n copies of G write `n . G`
           ╭─[ test:1:3 ]
           │
         1 │ 2 * 3
           │   ┬
           │   ╰── star used as an operator
           │
           │ Help: for n copies of G write `n . G` (Norton product)
        ───╯
    "#]],
    );
    check_err(
        "let y = G * H",
        expect![[r#"
        Error: `*` is not multiplication in yose (it is the game star); for n copies of G write `n . G`
           ╭─[ test:1:11 ]
           │
         1 │ let y = G * H
           │           ┬
           │           ╰── star used as an operator
           │
           │ Help: for n copies of G write `n . G` (Norton product)
        ───╯
    "#]],
    );
    check_err(
        "G*",
        expect![[r#"
        Error: `*` is not multiplication in yose (it is the game star); for n copies of G write `n . G`
           ╭─[ test:1:2 ]
           │
         1 │ G*
           │  ┬
           │  ╰── star used as an operator
           │
           │ Help: to add star, write `+ *`; for n copies of G write `n . G`
           │
           │ Note: only a number written directly before `*` makes a sum (`2*` is 2 + *)
        ───╯
    "#]],
    );
}

#[test]
fn err_unclosed_brace() {
    check_err(
        "let G = {1 | 0",
        expect![[r#"
        Error: unclosed `{`
           ╭─[ test:1:9 ]
           │
         1 │ let G = {1 | 0
           │         ┬     │
           │         ╰─────── this `{` is never closed
           │               │
           │               ╰─ input ends here
        ───╯
    "#]],
    );
    assert!(is_incomplete("let G = {1 | 0"));
    assert!(!is_incomplete("{a|b|c}"));
}

#[test]
fn err_unknown_character() {
    check_err(
        "let x = 1 $ 2",
        expect![[r#"
        Error: unexpected character `$`
           ╭─[ test:1:11 ]
           │
         1 │ let x = 1 $ 2
           │           ┬
           │           ╰── this character is not part of yose's syntax
        ───╯
    "#]],
    );
    check_err(
        "let x = ⇑ + @",
        expect![[r#"
        Error: unexpected character `@`
           ╭─[ test:1:13 ]
           │
         1 │ let x = ⇑ + @
           │             ┬
           │             ╰── this character is not part of yose's syntax
        ───╯
    "#]],
    );
}

#[test]
fn err_nesting_too_deep() {
    let src = "{".repeat(10_000);
    check_err(
        &src[..300],
        expect![[r#"
        Error: nesting too deep
           ╭─[ test:1:257 ]
           │
         1 │ {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{
           │                                                                                                                                                                                                                                                                 ┬
           │                                                                                                                                                                                                                                                                 ╰── this bracket is nested too deeply
           │
           │ Note: yose accepts at most 256 nested `(`, `[` and `{`
        ───╯
    "#]],
    );
    let errs = parse_program(&src).unwrap_err();
    assert_eq!(errs[0].message, "nesting too deep");
    let parens = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(
        parse_program(&parens).unwrap_err()[0].message,
        "nesting too deep"
    );
}

#[test]
fn err_misc() {
    check_err(
        "2 *3",
        expect![[r#"
        Error: `*` is not multiplication in yose (it is the game star); for n copies of G write `n . G`
           ╭─[ test:1:3 ]
           │
         1 │ 2 *3
           │   ┬
           │   ╰── star used as an operator
           │
           │ Help: for n copies of G write `n . G` (Norton product)
        ───╯
    "#]],
    );
    check_err(
        "{a, | b}",
        expect![[r#"
        Error: unexpected `|`
           ╭─[ test:1:5 ]
           │
         1 │ {a, | b}
           │     ┬
           │     ╰── expected an expression
        ───╯
    "#]],
    );
    check_err(
        "x ish",
        expect![[r#"
        Error: unexpected `ish`
           ╭─[ test:1:3 ]
           │
         1 │ x ish
           │   ─┬─
           │    ╰─── expected an operator or end of line
        ───╯
    "#]],
    );
    check_err(
        "let x = 1\n  + 2",
        expect![[r#"
        Error: unexpected `+`
           ╭─[ test:2:3 ]
           │
         2 │   + 2
           │   ┬
           │   ╰── expected an expression or end of line
           │
           │ Help: a line break ends a statement; to continue an expression on the next line, end the previous line with the operator
        ───╯
    "#]],
    );
    check_err(
        "let = 3",
        expect![[r#"
        Error: unexpected `=`
           ╭─[ test:1:5 ]
           │
         1 │ let = 3
           │     ┬
           │     ╰── expected a name
        ───╯
    "#]],
    );
    check_err(
        "let x = ",
        expect![[r#"
        Error: unexpected end of input
           ╭─[ test:1:8 ]
           │
         1 │ let x =
           │        │
           │        ╰─ expected an expression
        ───╯
    "#]],
    );
    check_err(
        "let x = 1 2",
        expect![[r#"
        Error: unexpected `2`
           ╭─[ test:1:11 ]
           │
         1 │ let x = 1 2
           │           ┬
           │           ╰── expected an operator or end of line
        ───╯
    "#]],
    );
    check_err(
        "f(1 2)",
        expect![[r#"
        Error: unexpected `2`
           ╭─[ test:1:5 ]
           │
         1 │ f(1 2)
           │     ┬
           │     ╰── expected an operator, `)` or `,`
        ───╯
    "#]],
    );
    check_err(
        "a < b < c",
        expect![[r#"
        Error: comparisons cannot be chained
           ╭─[ test:1:7 ]
           │
         1 │ a < b < c
           │   ┬   ┬
           │   │   ╰── second comparison
           │   │
           │   ╰────── first comparison
           │
           │ Help: combine comparisons with `and`: `a < b and b < c`
        ───╯
    "#]],
    );
    check_err(
        "a < b ish",
        expect![[r#"
        Error: `ish` can only follow `==` or `!=`
           ╭─[ test:1:7 ]
           │
         1 │ a < b ish
           │   ┬   ─┬─
           │   │    ╰─── `ish` here
           │   │
           │   ╰──────── after this comparison
           │
           │ Note: `a == b ish` means a ≈ b: a - b is infinitesimal
        ───╯
    "#]],
    );
    check_err(
        "if a = b { 1 }",
        expect![[r#"
        Error: unexpected `=`
           ╭─[ test:1:6 ]
           │
         1 │ if a = b { 1 }
           │      ┬
           │      ╰── expected an operator or `{`
           │
           │ Help: to compare, write `==`
        ───╯
    "#]],
    );
    check_err(
        "aw(0^3⧾1)",
        expect![[r#"
        Error: unexpected `⧾`
           ╭─[ test:1:7 ]
           │
         1 │ aw(0^3⧾1)
           │       ┬
           │       ╰── expected an expression, an operator, `)` or `,`
           │
           │ Help: `0^3` is 0 + 3 ups; for Berlekamp's prefix 0^3 write superscript digits (`0³⧾1`) or `zero_prefix(3, tiny(1))`
        ───╯
    "#]],
    );
    check_err(
        "0^2 Miny(1)",
        expect![[r#"
        Error: unexpected `Miny`
           ╭─[ test:1:5 ]
           │
         1 │ 0^2 Miny(1)
           │     ──┬─
           │       ╰─── expected an operator or end of line
           │
           │ Help: `0^2` is 0 + 2 ups; for Berlekamp's prefix 0^2 write superscript digits (`0²⧿1`) or `zero_prefix(2, miny(1))`
        ───╯
    "#]],
    );
    check_err(
        "if c {1|0}",
        expect![[r#"
        Error: unexpected `{`
           ╭─[ test:1:6 ]
           │
         1 │ if c {1|0}
           │      ┬
           │      ╰── expected an operator or `{`
           │
           │ Help: this `{ … | … }` is a game, but a block of statements is expected here; to make a game the value of a block, wrap it: `{ {1|0} }`
        ───╯
    "#]],
    );
    check_err(
        "let x = {}",
        expect![[r#"
            Error: unexpected `{`
               ╭─[ test:1:9 ]
               │
             1 │ let x = {}
               │         ┬
               │         ╰── expected an expression
               │
               │ Help: a game needs `|` (`{|}` is 0, `{0|}` is 1); braces without `|` make a block, which only follows `if`, `else`, `for`, `theorem` or `fn … =`
            ───╯
        "#]],
    );
    check_err(
        "let x = {1}",
        expect![[r#"
            Error: braces without `|` are not a game
               ╭─[ test:1:9 ]
               │
             1 │ let x = {1}
               │         ─┬─
               │          ╰─── a set of options
               │
               │ Help: a game needs `|` (`{|}` is 0, `{0|}` is 1); braces without `|` make a block, which only follows `if`, `else`, `for`, `theorem` or `fn … =`; a list is `[a, b]`
               │
               │ Note: only `±` takes a set of options: `±{1, 1*}` is {1, 1* | -1, -1*}
            ───╯
        "#]],
    );
    check_err(
        "x)",
        expect![[r#"
        Error: unexpected `)`
           ╭─[ test:1:2 ]
           │
         1 │ x)
           │  ┬
           │  ╰── there is no matching opening bracket
        ───╯
    "#]],
    );
    check_err(
        "f(x]",
        expect![[r#"
        Error: mismatched `]`
           ╭─[ test:1:4 ]
           │
         1 │ f(x]
           │  ┬ ┬
           │  │ ╰── expected `)`
           │  │
           │  ╰──── to close this `(`
        ───╯
    "#]],
    );
    check_err(
        "\"bad \\q escape\"",
        expect![[r#"
        Error: unknown escape `\q`
           ╭─[ test:1:6 ]
           │
         1 │ "bad \q escape"
           │      ─┬
           │       ╰── not a valid escape
           │
           │ Help: the escapes are `\"`, `\\`, `\n` and `\t`; `"""…"""` strings take text as written
        ───╯
    "#]],
    );
    check_err(
        "fn f(x, x) = x",
        expect![[r#"
        Error: parameter `x` appears twice
           ╭─[ test:1:9 ]
           │
         1 │ fn f(x, x) = x
           │      ┬  ┬
           │      │  ╰── second use
           │      │
           │      ╰───── first use
        ───╯
    "#]],
    );
    check_err(
        "(f)(x)",
        expect![[r#"
        Error: only named functions can be called
           ╭─[ test:1:4 ]
           │
         1 │ (f)(x)
           │ ─┬──┬─
           │  │  ╰─── call arguments
           │  │
           │  ╰────── this is not a function name
           │
           │ Help: bind the function to a name with `fn name(…) = …`
        ───╯
    "#]],
    );
    check_err(
        "let v = 1",
        expect![[r#"
        Error: unexpected `v`
           ╭─[ test:1:5 ]
           │
         1 │ let v = 1
           │     ┬
           │     ╰── expected a name
           │
           │ Note: `v` is down-notation (↓), so it cannot be a name
        ───╯
    "#]],
    );
    check_err(
        "print \"abc",
        expect![[r#"
        Error: unterminated string
           ╭─[ test:1:7 ]
           │
         1 │ print "abc
           │       ┬
           │       ╰── this string is never closed
        ───╯
    "#]],
    );
}

#[test]
fn incomplete_inputs() {
    for src in [
        "let x = 1 +",
        "let x =",
        "f(",
        "[1, 2,",
        "{1 |",
        "if x",
        "if x {",
        "fn f(x) =",
        "print 1,",
        "\"abc",
        "\"\"\"raw",
        "theorem t",
        "a and # comment",
        "1 +\n",
        "if a { 1 } else",
        "{ 1 |\n  2,\n",
    ] {
        assert!(is_incomplete(src), "{src:?} should be incomplete");
    }
    for src in [
        "",
        "1 + 2",
        "{a|b|c}",
        "2 * 3",
        "let x = 1 2",
        "x)",
        "$",
        "let x = 1 $",
        "if x { 1 }",
        "2 *",
    ] {
        assert!(!is_incomplete(src), "{src:?} should not be incomplete");
    }
}

#[test]
fn deep_but_allowed_nesting() {
    let n = MAX_NESTING;
    let cases = [
        format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "[".repeat(n), "]".repeat(n)),
        format!("{}{}", "{0|".repeat(n), "}".repeat(n)),
        format!("{}|{}", "{".repeat(n), "|}".repeat(n)),
        format!("{}1{}", "f(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "*(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "-(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "-(1 + ".repeat(n), ")".repeat(n)),
        format!("{}1{}", "if c {".repeat(n), "}".repeat(n)),
        format!("{}1{}", "⧾(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "[2{0|".repeat(n / 2), "}]".repeat(n / 2)),
    ];
    for src in &cases {
        match parse_program(src) {
            Ok(p) => {
                let _ = sexpr::program(&p);
            }
            Err(d) => panic!("{}: {}", &src[..20], d[0].message),
        }
    }
}

#[test]
fn long_flat_chains_are_one_level_and_true_nesting_keeps_its_limit() {
    // A chain of one precedence level is one node, however long: a
    // generated sum of 100 000 terms parses (it was "nested too deeply"
    // from about 1 000 terms on, each operator counting as a level).
    let n = 100_000;
    for (op, term) in [
        (" + ", "1"),
        ("+", "1"),
        (" - ", "x"),
        (" + ", "{1|0}"),
        (" . ", "2"),
        (" and ", "true"),
        (" or ", "false"),
    ] {
        let src = vec![term; n].join(op);
        let program = parse_program(&src).unwrap_or_else(|d| panic!("{op:?}: {}", d[0].message));
        let StmtKind::Expr(e) = &program.stmts[0].kind else {
            panic!("{op:?}: not an expression statement");
        };
        let ExprKind::Chain { rest, .. } = &e.kind else {
            panic!("{op:?}: not a chain");
        };
        assert_eq!(rest.len(), n - 1, "{op:?}");
        assert_eq!(e.span, 0..src.len(), "{op:?}");
    }
    // Also as the one expression of `yose eval`, which the fast path reads.
    let sum = vec!["1"; n].join(" + ");
    assert!(parse_expr(&sum).is_ok());
    assert!(parse_expr(&format!("{{{sum} | 0}}")).is_ok());
    // True nesting keeps its limit and its diagnostic: prefix operators…
    let negs = format!("{}x", "- ".repeat(5000));
    assert_eq!(
        parse_program(&negs).unwrap_err()[0].message,
        "expression nested too deeply"
    );
    let nots = format!("{}x", "not ".repeat(5000));
    assert_eq!(
        parse_program(&nots).unwrap_err()[0].message,
        "expression nested too deeply"
    );
    // … and brackets (the layout's limit, before any parsing).
    let parens = format!(
        "{}1{}",
        "(".repeat(MAX_NESTING + 1),
        ")".repeat(MAX_NESTING + 1)
    );
    assert_eq!(
        parse_program(&parens).unwrap_err()[0].message,
        "nesting too deep"
    );
    // Inside true nesting a chain still adds one level, not one per term:
    // 200 levels of `-(` around the 100 000-term sum parse.
    let deep = format!("{}{sum}{}", "-(".repeat(200), ")".repeat(200));
    assert!(parse_program(&deep).is_ok());
}

#[test]
fn a_chain_means_its_operations_from_the_left() {
    // Dumped as the nested operations it means, each with the span the
    // nested reading gives it.
    check_spans(
        "a + b - c +- d",
        expect![[r#"
            (+ (- (+ a@0..1 b@4..5)@0..5 c@8..9)@0..9 (switch d@13..14)@10..14)@0..14
        "#]],
    );
    check(
        "a . b / c mod d\na and b and c or d\n1 + 2 . 3 - 4",
        expect![[r#"
            (mod (/ (. a b) c) d)
            (or (and (and a b) c) d)
            (- (+ 1 (. 2 3)) 4)
        "#]],
    );
}

// ------------------------------------------------------------ robustness

mod fuzz {
    use super::super::*;
    use proptest::prelude::*;

    fn no_panic(src: &str) {
        let _ = parse_program(src);
        let _ = parse_expr(src);
        let _ = is_incomplete(src);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn any_string(src in any::<String>()) {
            no_panic(&src);
        }

        #[test]
        fn game_alphabet(src in "[{}|,*^v0123456789\\-+/.() \n]{0,80}") {
            no_panic(&src);
        }

        #[test]
        fn language_alphabet(
            src in "([{}|,*^v0-9+/.()\\[\\] \n;#\"<>=!~:⇑↓∗±⧾⧿θ-]|let |if |else |for |in |fn |not |and |ish |x|f)*"
        ) {
            no_panic(&src);
        }
    }
}

#[test]
fn adversarial_inputs_are_fast() {
    let n = 200;
    let patterns: Vec<(&str, &str)> = vec![
        ("2*(", ")"),
        ("2{0|", "}"),
        ("-2{0|", "}"),
        ("-2*(", ")"),
        ("⧾(", ")"),
        ("2⧾(", ")"),
        ("9Tiny(", ")"),
        ("f(", ")"),
        ("(x)(", ")"),
        ("[", "]"),
        ("*(*(", "))"),
        ("^*(", ")"),
        ("if 2{", "}"),
        ("fn f() = {", "}"),
        ("{if 2{", "}|}"),
        ("for x in f(", ") {}"),
        ("{", "|}"),
    ];
    for (open, close) in patterns {
        for middle in ["1", "$", "1 2", "", "|", "{"] {
            let src = format!("{}{}{}", open.repeat(n), middle, close.repeat(n));
            let t = std::time::Instant::now();
            let _ = parse_program(&src);
            let el = t.elapsed();
            assert!(el.as_millis() < 500, "{open:?}{middle:?}: {el:?}");
        }
    }
}

#[test]
fn go_statement() {
    // `go` is not reserved: the statement needs a name and `=`; `go(…)`,
    // `use go` and `go` as a name still parse.
    check(
        "go Q = \"\"\"\n  X . O\n\"\"\"\ngo R =\n  go(\"X.O\")\nuse go\nlet go2 = go\ngo",
        expect![[r#"
            (go Q "\n  X . O\n")
            (go R (call go "X.O"))
            (use go)
            (let go2 go)
            go
        "#]],
    );
}

// ------------------------------------------------------------ kos and θ

#[test]
fn theta_forms() {
    check(
        "θ\nθθ\ntheta\n-θ\n-θθ\n2θ\n1/2 + θθ\n3 . θ\n{12 - θ | -12 + θ}\n{1/2 + θθ | -1v4*}",
        expect![[r#"
            (theta 1)
            (theta 2)
            (theta 1)
            (neg (theta 1))
            (neg (theta 2))
            (+ 2 (theta 1))
            (+ 1/2 (theta 2))
            (. 3 (theta 1))
            (game (left (- 12 (theta 1))) (right (+ -12 (theta 1))))
            (game (left (+ 1/2 (theta 2))) (right (+ -1 (+ (ups -4) *))))
        "#]],
    );
}

#[test]
fn theta_is_a_keyword() {
    check(
        "thetas\ntheta'",
        expect![[r#"
            thetas
            theta'
        "#]],
    );
    check_err(
        "let theta = 1",
        expect![[r#"
            Error: unexpected `theta`
               ╭─[ test:1:5 ]
               │
             1 │ let theta = 1
               │     ──┬──
               │       ╰──── expected a name
               │
               │ Note: `theta` is the ko threat θ, so it cannot be a name
            ───╯
        "#]],
    );
}

#[test]
fn labelled_nodes() {
    check(
        "kw: {{2 | kw} | -2}\nlet K = a: {b: {3 | a} | {b | -1}}\nko_kind((k: {{1|k}|0}))\nf(k: {1|0})",
        expect![[r#"
            (label kw (game (left (game (left 2) (right kw))) (right -2)))
            (let K (label a (game (left (label b (game (left 3) (right a)))) (right (game (left b) (right -1))))))
            (call ko_kind (label k (game (left (game (left 1) (right k))) (right 0))))
            (call f (named k (game (left 1) (right 0))))
        "#]],
    );
    check_spans(
        "kw: {{2 | kw} | -2}",
        expect![[r#"
            (label kw@0..2 (game (left (game (left 2@6..7) (right kw@10..12))@5..13) (right -2@16..18))@4..19)@0..19
        "#]],
    );
}

#[test]
fn labelled_node_errors() {
    check_err(
        "k: 3",
        expect![[r#"
        Error: unexpected `3`
           ╭─[ test:1:4 ]
           │
         1 │ k: 3
           │    ┬
           │    ╰── expected `{`
        ───╯
    "#]],
    );
}

// ------------------------------------------------ the game-literal fast path

/// Every `.cgt` file under `dir`, recursively.
fn cgt_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            cgt_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cgt") {
            out.push(p);
        }
    }
}

#[test]
fn the_fast_path_agrees_with_pest_on_the_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/cases", "examples", "stdlib"] {
        cgt_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    let mut inputs: Vec<(String, String)> = Vec::new();
    for f in &files {
        // (a few error cases are not UTF-8 on purpose; the parser takes &str)
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        // The whole script, and each line alone (most lines of a script
        // parse alone too; the others check that errors agree).
        for line in text.lines() {
            inputs.push((f.display().to_string(), line.to_string()));
        }
        inputs.push((f.display().to_string(), text));
    }
    // README: every line of its code blocks, and the expressions of its
    // `yose eval '…'` examples.
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut in_code = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let t = line.trim();
        if let Some(rest) = t.split_once("yose eval '").map(|(_, r)| r) {
            inputs.push(("README".into(), rest.trim_end_matches('\'').to_string()));
        }
        if in_code || line.starts_with("    ") {
            let t = t.trim_start_matches("> ").trim_start_matches("yose> ");
            inputs.push(("README".into(), t.to_string()));
        }
    }
    let mut taken = 0;
    for (origin, src) in &inputs {
        taken += super::compare_fast_path(src).unwrap_or_else(|e| panic!("{origin}: {src:?}\n{e}"));
    }
    // The fast path must actually have read most literals.
    assert!(taken > 500, "the fast path read only {taken} literals");
}

/// A small deterministic generator (no crate needed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// A random game literal mixing what the fast path reads with what it
/// must leave to pest.
fn random_game(r: &mut Lcg, depth: usize, out: &mut String) {
    const LEAVES: &[&str] = &[
        "0",
        "1",
        "12",
        "-3",
        "3/8",
        "-1/2",
        "6.5",
        "1/0",
        "^",
        "^^",
        "^3",
        "^<2>",
        "^[3]",
        "v",
        "vv",
        "v3",
        "v<2>",
        "v[2]",
        "*",
        "*2",
        "^*",
        "v*3",
        "2*",
        "2^*",
        "-2v*",
        "2^<2>*",
        "10Miny(1)",
        "3Tiny(2)",
        "2tiny({1|0})",
        "Tiny(1)",
        "miny( 2 , )",
        "f()",
        "f(1, *)",
        "x",
        "value",
        "vx",
        "v3x",
        "vv3",
        "x'",
        "_y",
        "if",
        "true",
        "theta",
        "θ",
        "↑",
        "±1",
        "⧾1",
        "+-1",
        "+- 2",
        "- x",
        "--1",
        "- -1",
        "-{1|0}",
        "*(1)",
        "(1)",
        "[1]",
        "\"s\"",
        "1.5.2",
        "2 . 3",
        "a mod 2",
        "1 < 2",
        "k: {1|0}",
        "k : 1",
        "0⁴⧾1",
        "^<2",
        "v[",
        "^3x",
        "2vx",
        "2{0|-1}",
        "2{0 | -1}",
        "2{0|f( 1 )}",
        "1 +-1",
        "1 + -1",
        "1 -1",
        "1-1",
        "1 - - 1",
        "x[0]",
        "f(1)(2)",
        "f (1)",
        "{|}",
        "{ | }",
        "\u{FEFF}1",
        "1,",
        "<|",
        "|>",
    ];
    if depth == 0 || r.below(3) == 0 {
        out.push_str(r.pick(LEAVES));
        return;
    }
    let spaces = ["", "", " ", "  ", "\t"];
    out.push('{');
    let sides = 2 + r.below(3);
    for s in 0..sides {
        out.push_str(r.pick(&spaces));
        for o in 0..r.below(3) {
            if o > 0 {
                out.push_str(r.pick(&[",", ", ", " ,", " + ", "-", " +- "]));
            }
            if r.below(3) == 0 {
                random_game(r, depth - 1, out);
            } else {
                out.push_str(r.pick(LEAVES));
            }
        }
        out.push_str(r.pick(&spaces));
        if s + 1 < sides {
            out.push_str(r.pick(&["|", "|", "||", "|||"]));
        }
    }
    out.push('}');
}

#[test]
fn the_fast_path_agrees_with_pest_on_generated_input() {
    let mut r = Lcg(21);
    let mut taken = 0;
    for i in 0..3000 {
        let mut g = String::new();
        random_game(&mut r, 4, &mut g);
        let mut src = match i % 5 {
            0 => format!("let g = {g}"),
            1 => format!("assert {g} == {g}"),
            2 => format!("print(2{g}, f({g}), -{g}, +-{g})"),
            3 => format!("if x {{\n  {g}\n}} else {{ [{g}] }}"),
            _ => g,
        };
        // Every third input is damaged: a byte dropped or one inserted.
        if i % 3 == 0 && !src.is_empty() {
            let mut at = r.below(src.len());
            while !src.is_char_boundary(at) {
                at -= 1;
            }
            if r.below(2) == 0 {
                src.remove(at);
            } else {
                src.insert(
                    at,
                    r.pick(&["{", "}", "|", " ", ",", "(", "*"])
                        .chars()
                        .next()
                        .unwrap(),
                );
            }
        }
        taken += super::compare_fast_path(&src).unwrap_or_else(|e| panic!("{src:?}\n{e}"));
    }
    assert!(taken > 1000, "the fast path read only {taken} literals");
}

#[test]
fn the_fast_path_keeps_the_depth_limit() {
    // Long chains inside a literal near MAX_DEPTH, at several depths of
    // the surrounding expression: the same AST or the same error.
    for n in [990, 997, 998, 999, 1000, 1001] {
        let chain = vec!["1"; n].join("+");
        for src in [
            format!("{{{chain}|}}"),
            format!("{{{{{chain}|}}|}}"),
            format!("-{{{chain}|0}}"),
            format!("2{{0|{chain}}}"),
            format!("f({{{chain}|*}})"),
        ] {
            super::compare_fast_path(&src).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
    }
    // Nested braces up to the layout's limit.
    for depth in [100, 255, 256, 257] {
        let src = format!("{}0{}", "{".repeat(depth), "|}".repeat(depth));
        super::compare_fast_path(&src).unwrap_or_else(|e| panic!("{depth}: {e}"));
    }
}

#[test]
fn shallow_input_is_parsed_on_the_callers_thread() {
    let here = std::thread::current().id();
    let shallow = on_enough_stack(3, "{3|{2|1}}", &|| std::thread::current().id());
    assert_eq!(shallow, here);
    // A test thread has 2 MiB: input nested MAX_NESTING deep gets its own.
    let deep = on_enough_stack(MAX_NESTING, "", &|| std::thread::current().id());
    assert_ne!(deep, here);
}

/// The layout pass hands back the text itself when it changes nothing, and
/// a copy with its rewrites otherwise: comments blanked, a game's own line
/// breaks made spaces, a block's braces marked and its line breaks kept
/// (the pending line breaks of nested braces are one list).
#[test]
fn the_layout_copies_only_a_text_it_changes() {
    use std::borrow::Cow;
    let (text, nesting) = super::layout::layout("thermograph({3|{2|1}})")
        .ok()
        .unwrap();
    assert!(matches!(text, Cow::Borrowed(_)));
    assert_eq!(nesting, 3);
    let (text, _) = super::layout::layout("1 # c\n{\n2 | 3\n}").ok().unwrap();
    assert_eq!(&*text, "1    \n{ 2 | 3 }");
    let (text, _) = super::layout::layout("f({\n1 | if c {\n2\n} else {\n3\n}\n})")
        .ok()
        .unwrap();
    assert_eq!(
        &*text,
        "f({ 1 | if c \u{e}\n2\n\u{f} else \u{e}\n3\n\u{f} })"
    );
}
