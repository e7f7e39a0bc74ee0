//! The command line: `yose [run|eval|check|repl]`.
//!
//! Exit codes: 0 everything passed, 1 a failed proof or a script error,
//! 2 a usage, IO or internal error.

use crate::diag::{self, Diagnostic};
use crate::eval::{Interp, Mode, ProofResult, Report, Stop};
use crate::render::Style;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(
    name = "yose",
    version,
    about = "Combinatorial game theory for the Go endgame: a calculator, proof checker and REPL"
)]
pub struct Cli {
    /// Print games in CGSuite-compatible ASCII (`^^*`, `+-1`, `Tiny(2)`).
    #[arg(long, global = true, conflicts_with = "unicode")]
    pub ascii: bool,
    /// Print games with Mathematical Go's glyphs (`⇑∗`, `±1`, `⧾2`).
    #[arg(long, global = true)]
    pub unicode: bool,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run scripts: `print` writes, failed asserts are reported.
    Run {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Evaluate one expression and print its value.
    Eval {
        #[arg(allow_hyphen_values = true)]
        expr: String,
    },
    /// Replay every assert and theorem in the given files or directories (recursively `*.cgt`).
    Check {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// `json`: one object per result, then a summary object.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// The interactive REPL (the default on a terminal).
    Repl,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Settings shared by every command.
#[derive(Clone, Copy)]
pub struct Output {
    pub style: Style,
    pub color: bool,
}

impl Cli {
    pub fn output(&self) -> Output {
        let utf8_terminal = std::io::stdout().is_terminal() && locale_is_utf8();
        let style = if self.ascii {
            Style::Ascii
        } else if self.unicode || utf8_terminal {
            Style::Unicode
        } else {
            Style::Ascii
        };
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        };
        Output { style, color }
    }
}

fn locale_is_utf8() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.is_empty())
        .is_some_and(|v| v.to_ascii_lowercase().replace('-', "").contains("utf8"))
}

/// Installs the Ctrl-C handler that sets the interpreter's interrupt flag.
pub fn install_interrupt(flag: Arc<AtomicBool>) {
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
}

/// Runs the command line; returns the process exit code.
pub fn main(cli: Cli) -> i32 {
    let out = cli.output();
    match cli.command {
        Some(Command::Run { files }) => run_files(&files, out),
        Some(Command::Eval { expr }) => eval_expr(&expr, out),
        Some(Command::Check { paths, format }) => check(&paths, format, out),
        Some(Command::Repl) => crate::repl::run(out),
        None => {
            if std::io::stdin().is_terminal() {
                crate::repl::run(out)
            } else {
                run_stdin(out)
            }
        }
    }
}

pub fn render_report(interp: &Interp, report: &Report, color: bool) -> String {
    let src = &interp.sources[report.source];
    diag::render(&report.diag, &src.name, &src.text, color)
}

/// `file:line:col` of a byte offset (columns count characters).
pub fn location(interp: &Interp, source: usize, offset: usize) -> String {
    let src = &interp.sources[source];
    let (line, col) = line_col(&src.text, offset);
    format!("{}:{line}:{col}", src.name)
}

pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Reads a script; a non-UTF-8 file becomes a diagnostic (exit 1), a missing one an IO error (exit 2).
enum Loaded {
    Text(String),
    NotUtf8(Diagnostic),
}

fn load(path: &Path) -> Result<Loaded, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("yose: cannot read {}: {e}", path.display()))?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(Loaded::Text(s)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Ok(Loaded::NotUtf8(
                Diagnostic::error(format!(
                    "{} is not valid UTF-8 (bad byte at offset {at})",
                    path.display()
                ))
                .with_help("save the file as UTF-8"),
            ))
        }
    }
}

fn new_interp(mode: Mode, out: Output) -> Interp {
    let interp = Interp::new(mode, out.style);
    install_interrupt(interp.interrupt_flag());
    interp
}

fn run_files(files: &[PathBuf], out: Output) -> i32 {
    let mut interp = new_interp(Mode::Script, out);
    let mut failed = false;
    for f in files {
        let text = match load(f) {
            Ok(Loaded::Text(t)) => t,
            Ok(Loaded::NotUtf8(d)) => {
                eprint!(
                    "{}",
                    diag::render(&d, &f.display().to_string(), "", out.color)
                );
                failed = true;
                continue;
            }
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        let id = interp.add_source(
            &f.display().to_string(),
            &text,
            f.parent().map(Path::to_path_buf),
        );
        match run_and_report(&mut interp, id, out.color) {
            130 => return 130,
            0 => {}
            _ => failed = true,
        }
    }
    i32::from(failed)
}

fn run_stdin(out: Output) -> i32 {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("yose: cannot read standard input: {e}");
        return 2;
    }
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("yose: standard input is not valid UTF-8");
        return 1;
    };
    let mut interp = new_interp(Mode::Script, out);
    let id = interp.add_source("<stdin>", &text, std::env::current_dir().ok());
    run_and_report(&mut interp, id, out.color)
}

/// Runs a source for `run` (or stdin): failed proofs and a script-ending error
/// go to stderr as reports. Returns 0 (all well), 1 (a failure) or 130 (Ctrl-C).
fn run_and_report(interp: &mut Interp, id: usize, color: bool) -> i32 {
    let first_result = interp.results.len();
    let r = interp.run_source(id);
    let mut failed = false;
    for res in interp.results[first_result..].to_vec() {
        if let Some(fail) = res.failure {
            failed = true;
            let report = Report {
                source: res.source,
                diag: fail,
            };
            eprint!("{}", render_report(interp, &report, color));
        }
    }
    match r {
        Ok(()) => i32::from(failed),
        Err(Stop::Error(report)) => {
            eprint!("{}", render_report(interp, &report, color));
            1
        }
        Err(Stop::Interrupted) => {
            eprintln!("yose: interrupted");
            130
        }
        Err(Stop::AssertFailed) => 1,
    }
}

fn eval_expr(expr: &str, out: Output) -> i32 {
    let mut interp = new_interp(Mode::Script, out);
    let id = interp.add_source("<eval>", expr, std::env::current_dir().ok());
    let r = interp.eval_source_expr(id).and_then(|v| interp.display(&v));
    match r {
        Ok(s) => {
            println!("{s}");
            0
        }
        Err(Stop::Error(report)) => {
            eprint!("{}", render_report(&interp, &report, out.color));
            1
        }
        Err(Stop::Interrupted) => 130,
        Err(Stop::AssertFailed) => 1,
    }
}

/// Every `*.cgt` below the given paths, sorted for a stable report.
fn collect_scripts(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        let meta =
            std::fs::metadata(p).map_err(|e| format!("yose: cannot read {}: {e}", p.display()))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found).map_err(|e| format!("yose: cannot read {}: {e}", p.display()))?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "cgt") {
            out.push(path);
        }
    }
    Ok(())
}

fn check(paths: &[PathBuf], format: Format, out: Output) -> i32 {
    let files = match collect_scripts(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    let json = format == Format::Json;
    for f in &files {
        // Each script gets a fresh interpreter: proofs must not depend on each other.
        let mut interp = new_interp(Mode::Check, out);
        let name = f.display().to_string();
        let text = match load(f) {
            Ok(Loaded::Text(t)) => t,
            Ok(Loaded::NotUtf8(d)) => {
                failed += 1;
                if json {
                    println!(
                        "{}",
                        serde_json::json!({"file": name, "kind": "error", "passed": false, "message": d.message})
                    );
                } else {
                    println!("{name}: {}", d.message);
                }
                continue;
            }
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        let id = interp.add_source(&name, &text, f.parent().map(Path::to_path_buf));
        let r = interp.run_source(id);
        let results: Vec<ProofResult> = interp.results.clone();
        for res in &results {
            let (line, col) = line_col(&interp.sources[res.source].text, res.span.start);
            // A theorem's failure message already names it.
            let label = if res.theorem.is_some() {
                ""
            } else {
                "assert: "
            };
            if res.passed() {
                passed += 1;
            } else {
                failed += 1;
            }
            if json {
                let msg = res.failure.as_ref().map(|d| d.message.clone());
                println!(
                    "{}",
                    serde_json::json!({"file": interp.sources[res.source].name, "line": line, "col": col,
                        "kind": if res.theorem.is_some() { "theorem" } else { "assert" },
                        "name": res.theorem, "passed": res.passed(), "message": msg})
                );
            } else if let Some(fail) = &res.failure {
                println!(
                    "{}: {label}{}",
                    location(&interp, res.source, res.span.start),
                    fail.message
                );
                print!(
                    "{}",
                    render_report(
                        &interp,
                        &Report {
                            source: res.source,
                            diag: fail.clone()
                        },
                        out.color
                    )
                );
            }
        }
        let error = match r {
            Ok(()) => None,
            Err(Stop::Error(report)) => Some(report),
            Err(Stop::Interrupted) => {
                eprintln!("yose: interrupted");
                return 130;
            }
            Err(Stop::AssertFailed) => None,
        };
        if let Some(report) = error {
            failed += 1;
            let at = report.diag.primary_span().map_or(0, |s| s.start);
            if json {
                let (line, col) = line_col(&interp.sources[report.source].text, at);
                println!(
                    "{}",
                    serde_json::json!({"file": interp.sources[report.source].name, "line": line, "col": col,
                        "kind": "error", "passed": false, "message": report.diag.message})
                );
            } else {
                println!(
                    "{}: error: {}",
                    location(&interp, report.source, at),
                    report.diag.message
                );
                print!("{}", render_report(&interp, &report, out.color));
            }
        }
    }
    if json {
        println!(
            "{}",
            serde_json::json!({"summary": true, "passed": passed, "failed": failed, "files": files.len()})
        );
    } else {
        println!("{passed} passed, {failed} failed");
    }
    i32::from(failed > 0)
}
