//! The command line as a user meets it: exit codes, `check` reports, JSON,
//! `eval`, and scripts on standard input.

use expect_test::{expect, Expect};
use std::io::Write;
use std::process::Stdio;

fn yose(args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    let mut cmd = super::yose_binary();
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        let mut input = child.stdin.take().unwrap();
        if let Some(s) = stdin {
            input.write_all(s.as_bytes()).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn check(args: &[&str], stdin: Option<&str>, expect: Expect) {
    let (out, err, code) = yose(args, stdin);
    let mut text = out;
    if !err.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&err);
    }
    text.push_str(&format!("--- exit {code}\n"));
    expect.assert_eq(&text);
}

#[test]
fn check_reports_each_failure_and_a_summary() {
    let (out, _, code) = yose(
        &[
            "check",
            "--color",
            "never",
            "tests/cases/check/three_pass_two_fail.cgt",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(out.ends_with("3 passed, 2 failed\n"), "{out}");
    let headers: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("tests/cases/check/"))
        .collect();
    assert_eq!(
        headers,
        [
            "tests/cases/check/three_pass_two_fail.cgt:4:1: assert: assertion failed: the left side is greater than the right side",
            "tests/cases/check/three_pass_two_fail.cgt:6:1: assert: assertion failed: the left side is greater than the right side",
        ]
    );
    // Each header is followed by its ariadne report.
    assert_eq!(out.matches("Error: assertion failed").count(), 2);
}

#[test]
fn check_json_has_one_object_per_result_and_a_summary() {
    let (out, _, code) = yose(
        &[
            "check",
            "--format",
            "json",
            "tests/cases/check/three_pass_two_fail.cgt",
        ],
        None,
    );
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(lines[0].contains("\"passed\":true"));
    assert!(lines[2].contains("\"passed\":false") && lines[2].contains("\"line\":4"));
    assert!(
        lines[5].contains("\"summary\":true")
            && lines[5].contains("\"passed\":3")
            && lines[5].contains("\"failed\":2")
    );
}

#[test]
fn check_of_passing_scripts_exits_zero() {
    check(
        &["check", "tests/cases/ok"],
        None,
        expect![[r#"
            217 passed, 0 failed
            --- stderr
            warning: tests/cases/ok/chill_mix_warning.cgt:15:8: a Go position used as a game stands for its chilled value, and here it meets an unchilled `value(…)`; write `chilled(Q)` to say the chilled value is meant (this silences the warning), or `value(Q)` for both
            note: sgf/notes.sgf:1:21: unknown rules `Martian` ignored: the game is scored under japanese, basic ko
            note: sgf/notes.sgf:1:38: label `hello` ignored: yose labels points with one lowercase letter
            note: sgf/setup_nodes.sgf:6:2: the file holds 2 game trees; yose reads the first
            note: sgf/setup_nodes.sgf:6:2: the file holds 2 game trees; yose reads the first
            --- exit 0
        "#]],
    );
}

#[test]
fn missing_file_is_a_usage_error() {
    let (_, err, code) = yose(&["check", "no/such/file.cgt"], None);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no/such/file.cgt"), "{err}");
    // A missing file of another name is missing, not "not a script".
    for command in ["run", "check"] {
        let (_, err, code) = yose(&[command, "no/such/ko7.sgf"], None);
        assert_eq!(code, 2, "{command}");
        assert_eq!(
            err, "yose: cannot read no/such/ko7.sgf: No such file or directory (os error 2)\n",
            "{command}"
        );
    }
    let (_, _, code) = yose(&["frobnicate"], None);
    assert_eq!(code, 2);
}

/// `yose eval` reads one expression; a statement there says where
/// statements go (a new user's first `yose eval 'let B = …'`).
#[test]
fn eval_of_a_statement_says_where_statements_go() {
    check(
        &["eval", "--color", "never", "let B = +-1 + +-2"],
        None,
        expect![[r#"
            --- stderr
            Error: unexpected `let`
               ╭─[ <eval>:1:1 ]
               │
             1 │ let B = +-1 + +-2
               │ ─┬─
               │  ╰─── expected an expression
               │
               │ Help: `yose eval` takes one expression; statements go in a script for `yose run FILE`, or in the REPL (`yose repl`)
            ───╯
            --- exit 1
        "#]],
    );
}

#[test]
fn eval_prints_ascii_and_unicode() {
    check(
        &["eval", "--ascii", "{0|^} + +-1"],
        None,
        expect![[r#"
        {1^^*|-1^^*}
        --- exit 0
    "#]],
    );
    check(
        &["eval", "--unicode", "{0|^} + 3/2 + +-{6|4||2|0}"],
        None,
        expect![[r#"
        {15/2⇑∗|11/2⇑∗||7/2⇑∗|3/2⇑∗|||3/2⇑∗|-1/2⇑∗||-5/2⇑∗|-9/2⇑∗}
        --- exit 0
    "#]],
    );
    check(
        &["eval", "--color", "never", "1/0"],
        None,
        expect![[r#"
        --- stderr
        Error: division by zero
           ╭─[ <eval>:1:1 ]
           │
         1 │ 1/0
           │ ─┬─
           │  ╰─── division by zero
        ───╯
        --- exit 1
    "#]],
    );
}

#[test]
fn stdin_that_is_not_a_terminal_runs_as_a_script() {
    check(
        &["--ascii"],
        Some("let G = {0 |\n  ^}\nprint G\nassert G == ^^*\n"),
        expect![[r#"
        ^^*
        --- exit 0
    "#]],
    );
}

/// Every builtin module reports a wrong argument count the same way, with
/// the builtin's usage line.
#[test]
fn wrong_argument_counts_show_the_usage() {
    let mut text = String::new();
    for expr in [
        "mean(1, 2)",
        "nodes()",
        "ko_winner()",
        r#"play(go("X . O"))"#,
        "kofight_advice(1, [], [])",
        "solve()",
        "best_moves(1, black, 2, 3)",
    ] {
        let (out, err, code) = yose(&["--color", "never", "eval", expr], None);
        text.push_str(&format!("{expr} → exit {code}\n{out}"));
        // The headline and the usage note; the drawing in between is
        // covered by other tests.
        for line in err.lines() {
            if line.starts_with("Error") || line.contains("Note") {
                text.push_str(line.trim_start_matches([' ', '│']));
                text.push('\n');
            }
        }
    }
    expect![[r#"
        mean(1, 2) → exit 1
        Error: `mean` takes 1 argument, given 2
        Note 1: usage: mean(G, komaster: black|white)
        Note 2: example: mean(+-1 + {5 | 1})
        nodes() → exit 1
        Error: `nodes` takes 1 argument, given 0
        Note 1: usage: nodes(K)
        Note 2: example: nodes(ko_captured(1, -1))
        ko_winner() → exit 1
        Error: `ko_winner` takes 1 argument, given 0
        Note 1: usage: ko_winner(S, budget: N)
        Note 2: example: ko_winner(ko(2, -2) + +-1)
        play(go("X . O")) → exit 1
        Error: `play` takes 2 arguments, given 1
        Note 1: usage: play(Q, "B a, W b")
        Note 2: example: play(go("XXXXX\nXa.bO\nXXXXX"), "B a, W b")
        kofight_advice(1, [], []) → exit 1
        Error: `kofight_advice` takes 5 to 6 arguments, given 3
        Note 1: usage: kofight_advice(k, black_threats, white_threats, moves, last[, t], fitting: ">=" or ">" (how a threat compares with its lower bound))
        Note 2: example: kofight_advice(4, [6], [5], [2], "took")
        solve() → exit 1
        Error: `solve` takes 1 argument, given 0
        Note 1: usage: solve(S, budget: N)
        Note 2: example: solve({3 | 1} + +-2)["left_stop"]
        best_moves(1, black, 2, 3) → exit 1
        Error: `best_moves` takes 1 to 2 arguments, given 4
        Note 1: usage: best_moves(S[, black|white], budget: N)
        Note 2: example: best_moves({3 | 1} + +-2, white)
    "#]]
    .assert_eq(&text);
}

#[test]
fn check_json_gives_the_failing_assert_inside_a_theorem_and_both_values() {
    check(
        &[
            "check",
            "--format",
            "json",
            "tests/cases/check/theorem_fails_inside.cgt",
        ],
        None,
        expect![[r#"
            {"col":1,"failed_col":10,"failed_line":5,"file":"tests/cases/check/theorem_fails_inside.cgt","kind":"theorem","left":"{1|0}","line":3,"message":"theorem `halves` failed: assertion failed: the two sides are confused (incomparable)","name":"halves","passed":false,"right":"1/2"}
            {"col":1,"failed_col":8,"failed_line":7,"file":"tests/cases/check/theorem_fails_inside.cgt","kind":"assert","left":"*","line":7,"message":"assertion failed: the two sides are confused (incomparable)","name":null,"notes":["star is not 0"],"passed":false,"right":"0"}
            {"failed":2,"files":1,"passed":0,"summary":true}
            --- exit 1
        "#]],
    );
}

#[test]
fn check_of_a_directory_without_scripts_is_a_usage_error() {
    let dir = std::env::temp_dir().join(format!("yose-no-scripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "no script here").unwrap();
    let (_, err, code) = yose(&["check", dir.to_str().unwrap()], None);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 2);
    assert!(err.contains("no `.cgt` script in"), "{err}");
    let (_, _, code) = yose(&["check"], None);
    assert_eq!(code, 2);
}

/// A rejected move is a diagnostic and leaves the game as it was (Ultimate
/// Go's bad input): in the REPL, after three illegal moves (a draw without
/// the right, a delay with an empty bowl, a move out of turn at the end of
/// a legal sequence), `G` prints exactly as before them.
#[test]
fn a_rejected_move_leaves_the_game_unchanged() {
    let history = std::env::temp_dir().join(format!("yose-cli-history-{}", std::process::id()));
    let mut child = super::yose_binary()
        .arg("repl")
        .env("YOSE_HISTORY", &history)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"let G = game(\". X . O .\", rules: ultimate, to_move: black)\n\
              print G\n\
              play(G, \"B draw\")\n\
              play(G, \"B delay\")\n\
              play(G, \"B C1, W ultimate, B ultimate, B C1\")\n\
              print G\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&history);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let shown: Vec<&str> = stdout.split("Black to move\n").collect();
    assert_eq!(shown.len(), 3, "{stdout}");
    assert!(shown[0].contains("bowls: Black 0, White 0"), "{stdout}");
    // The banner comes before the first print only.
    assert!(shown[0].ends_with(shown[1]), "{stdout}");
    for rule in ["rule 8", "rule 6", "rule 3"] {
        assert!(stderr.contains(rule), "{rule}: {stderr}");
    }
}
