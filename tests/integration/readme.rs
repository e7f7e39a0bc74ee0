//! The README's transcripts are tests: every `$ yose …` command runs the
//! binary and every `> …` line runs in one REPL session per block, and what
//! they print must be what the README shows. `$ cat FILE` writes the lines
//! under it to FILE in a scratch directory, where the commands run. Every
//! other code example runs too: an indented block that is no transcript (and
//! no `cargo` command) is a script whose proofs must all pass, and an inline
//! `let …` is a statement that must run.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use yose::eval::{Interp, Mode};
use yose::render::Style;

/// One indented block of the README: command or REPL lines, each with the
/// output lines shown under it.
struct Step {
    line_no: usize,
    input: String,
    expected: Vec<String>,
}

/// Indented blocks that start with `$ ` or `> `, in order.
fn transcripts(readme: &str) -> Vec<Vec<Step>> {
    let mut blocks: Vec<Vec<Step>> = Vec::new();
    let mut in_block = false;
    for (i, line) in readme.lines().enumerate() {
        let Some(body) = line.strip_prefix("    ") else {
            in_block = false;
            continue;
        };
        let prompt = body.strip_prefix("$ ").or_else(|| body.strip_prefix("> "));
        match prompt {
            Some(input) => {
                if !in_block {
                    blocks.push(Vec::new());
                    in_block = true;
                }
                blocks.last_mut().unwrap().push(Step {
                    line_no: i + 1,
                    input: format!("{}{}", &body[..2], input),
                    expected: Vec::new(),
                });
            }
            None if in_block => blocks
                .last_mut()
                .unwrap()
                .last_mut()
                .unwrap()
                .expected
                .push(body.to_string()),
            None => {}
        }
    }
    blocks
}

/// Splits a command line on spaces, honouring single quotes (all the README
/// uses).
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in cmd.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

fn run_command(dir: &Path, words: &[String]) -> Vec<String> {
    let out = super::yose_binary()
        .args(&words[1..])
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text.lines().map(str::to_string).collect()
}

/// Runs a block; returns the transcript as it actually is.
fn replay(dir: &Path, block: &[Step]) -> String {
    let printed = Rc::new(RefCell::new(Vec::<String>::new()));
    let mut repl: Option<Interp> = None;
    let mut actual = String::new();
    for step in block {
        actual.push_str(&format!("{}\n", step.input));
        let (prompt, input) = step.input.split_at(2);
        let lines = match prompt {
            "$ " => {
                let words = shell_words(input);
                match words[0].as_str() {
                    "cat" => {
                        let mut file = step.expected.join("\n");
                        file.push('\n');
                        std::fs::write(dir.join(&words[1]), file).unwrap();
                        step.expected.clone()
                    }
                    "yose" => run_command(dir, &words),
                    other => panic!("README line {}: unknown command {other}", step.line_no),
                }
            }
            _ => {
                let interp = repl.get_or_insert_with(|| {
                    let mut interp = Interp::new(Mode::Repl, Style::Unicode);
                    let sink = printed.clone();
                    interp.output = Box::new(move |s| sink.borrow_mut().push(s.to_string()));
                    interp
                });
                let id = interp.add_source("<readme>", input, Some(dir.to_path_buf()));
                if let Err(e) = interp.run_source(id) {
                    panic!("README line {}: `{input}` failed: {e:?}", step.line_no);
                }
                let lines: Vec<String> = printed
                    .borrow_mut()
                    .drain(..)
                    .flat_map(|s| s.lines().map(str::to_string).collect::<Vec<_>>())
                    .collect();
                lines
            }
        };
        for l in lines {
            actual.push_str(&l);
            actual.push('\n');
        }
    }
    actual
}

fn expected(block: &[Step]) -> String {
    let mut text = String::new();
    for step in block {
        text.push_str(&format!("{}\n", step.input));
        for l in &step.expected {
            text.push_str(l);
            text.push('\n');
        }
    }
    text
}

/// Indented blocks that are not transcripts and not shell commands, with
/// the line they start on.
fn scripts(readme: &str) -> Vec<(usize, String)> {
    let mut blocks: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut open = false;
    for (i, line) in readme.lines().enumerate() {
        match line.strip_prefix("    ") {
            Some(body) => {
                if !open {
                    blocks.push((i + 1, Vec::new()));
                    open = true;
                }
                blocks.last_mut().unwrap().1.push(body);
            }
            None if line.trim().is_empty() && open => blocks.last_mut().unwrap().1.push(""),
            None => open = false,
        }
    }
    blocks
        .into_iter()
        .filter(|(_, b)| {
            let first = b.first().copied().unwrap_or("");
            !(first.starts_with("$ ") || first.starts_with("> ") || first.starts_with("cargo "))
        })
        .map(|(n, b)| (n, b.join("\n")))
        .collect()
}

/// Inline code spans that are statements (`let B = …`), with their line.
fn inline_statements(readme: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("    ") {
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 1 && span.starts_with("let ") {
                out.push((i + 1, span.to_string()));
            }
        }
    }
    out
}

/// Runs `text` as `yose check` would: `None` when it ran and every proof
/// passed, else what went wrong.
fn check_script(dir: &Path, text: &str) -> Option<String> {
    let mut interp = Interp::new(Mode::Check, Style::Ascii);
    let id = interp.add_source("<readme>", text, Some(dir.to_path_buf()));
    if let Err(e) = interp.run_source(id) {
        return Some(format!("{e:?}"));
    }
    let failed: Vec<String> = interp
        .results
        .iter()
        .filter(|r| !r.passed())
        .map(|r| format!("{:?}", r.failure))
        .collect();
    (!failed.is_empty()).then(|| failed.join("\n"))
}

#[test]
fn every_other_code_example_runs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut examples = scripts(&readme);
    examples.extend(inline_statements(&readme));
    // The language block and the inline `let B = …` at least.
    assert!(
        examples.len() >= 2,
        "only {} examples found",
        examples.len()
    );
    let mut failures = Vec::new();
    for (line, text) in &examples {
        if let Some(why) = check_script(&root, text) {
            failures.push(format!("README line {line}: {text}\n{why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme_transcripts_are_what_yose_prints() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = transcripts(&readme);
    // The README has command blocks and a REPL block; if the parser stops
    // finding them, this test would pass vacuously.
    let steps: usize = blocks.iter().map(Vec::len).sum();
    assert!(steps >= 15, "only {steps} transcript lines found");
    let dir = std::env::temp_dir().join(format!("yose-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for block in &blocks {
        let want = expected(block);
        let got = replay(&dir, block);
        if want != got {
            failures.push(format!(
                "README line {}:\n--- README\n{want}--- yose\n{got}",
                block[0].line_no
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
