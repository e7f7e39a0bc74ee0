//! The command line: `yose [run|eval|check|repl]`.
//!
//! Exit codes ([`EXIT_OK`] …): 0 everything passed, 1 a failed proof or a
//! script error, 2 a usage, IO or internal error (standard output that
//! cannot be written included), 130 interrupted by Ctrl-C.

use crate::diag::{self, Diagnostic};
use crate::eval::{Interp, Mode, ProofResult, Report, Stop};
use crate::render::Style;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

// Standard output in this module goes through `write_out`, which remembers a
// write error instead of panicking (`yose eval 1 > /dev/full` is exit 2).
macro_rules! println {
    ($($t:tt)*) => { write_line(&format!($($t)*)) };
}
macro_rules! print {
    ($($t:tt)*) => { write_out(&format!($($t)*)) };
}

#[derive(Parser, Debug, Clone)]
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
    /// Print games as CGSuite prints them: ASCII with CGSuite's option
    /// order and at most four slashes (`{{5||||4|3}||2|1}`).
    #[arg(long, global = true, conflicts_with_all = ["ascii", "unicode"])]
    pub cgsuite: bool,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
    /// Heap memory computations may use, e.g. `2G`, `512M` (default: a third
    /// of the machine's memory, or a quarter of the address-space limit; also
    /// `YOSE_MEMORY_LIMIT`).
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_memory_limit)]
    pub memory_limit: Option<usize>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug, Clone)]
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
        let style = if self.cgsuite {
            Style::Cgsuite
        } else if self.ascii {
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

fn parse_memory_limit(text: &str) -> Result<usize, String> {
    crate::limits::parse_size(text)
        .ok_or_else(|| format!("`{text}` is not a size (bytes, or a number with K, M, G or T)"))
}

/// Sets the memory limit: the flag, else `YOSE_MEMORY_LIMIT`, else the
/// default share of the machine (less the interpreter's `stack`).
fn set_memory_limit(flag: Option<usize>, stack: usize) -> Result<(), String> {
    let limit = match flag {
        Some(n) => n,
        None => match std::env::var("YOSE_MEMORY_LIMIT") {
            Ok(v) if !v.trim().is_empty() => {
                parse_memory_limit(&v).map_err(|e| format!("yose: YOSE_MEMORY_LIMIT: {e}"))?
            }
            _ => crate::limits::default_memory_limit(stack),
        },
    };
    crate::limits::set_memory_limit(limit);
    Ok(())
}

/// Installs the Ctrl-C handler that sets the interpreter's interrupt flag.
pub fn install_interrupt(flag: Arc<AtomicBool>) {
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
}

/// Stack sizes tried for the interpreter thread, largest first: deep games
/// and deep user recursion want the first, but a low address-space limit
/// (`ulimit -v`) may refuse it, and on a smaller stack the guard of
/// [`crate::limits`] only makes "nested too deeply" errors come sooner.
const STACK_SIZES: [usize; 4] = [1 << 30, 256 << 20, 64 << 20, 16 << 20];

/// The whole process of the `yose` executable: parses the command line (the
/// program's own name is always shown as `yose`), runs it on a thread with a
/// big stack and exits with its code.
pub fn process_main() -> ! {
    // Like other Unix filters, end quietly when the reader of our output goes
    // away (`yose … | head`) instead of failing to print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse_from(
        std::iter::once(std::ffi::OsString::from("yose")).chain(std::env::args_os().skip(1)),
    );
    // Under an address-space limit the stack's reservation counts against
    // it: take at most a quarter of the limit for the stack.
    let most = crate::limits::address_space_limit().map_or(usize::MAX, |l| l / 4);
    let sizes = STACK_SIZES
        .iter()
        .filter(|&&s| s <= most || s == STACK_SIZES[3]);
    for &size in sizes {
        let cli = cli.clone();
        let spawned = std::thread::Builder::new()
            .name("yose".into())
            .stack_size(size)
            .spawn(move || {
                crate::limits::enter_thread(size);
                main(cli, size)
            });
        if let Ok(worker) = spawned {
            std::process::exit(worker.join().unwrap_or(2));
        }
    }
    eprintln!(
        "yose: cannot start the interpreter thread, even with a 16 MiB stack (is the address-space limit, ulimit -v, very low?)"
    );
    std::process::exit(2);
}

/// Runs the command line on a thread with a `stack` of that many bytes;
/// returns the process exit code.
pub fn main(cli: Cli, stack: usize) -> i32 {
    if let Err(e) = set_memory_limit(cli.memory_limit, stack) {
        eprintln!("{e}");
        return EXIT_USAGE;
    }
    let out = cli.output();
    let code = match cli.command {
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
    };
    finish(code)
}

pub fn render_report(interp: &Interp, report: &Report, color: bool) -> String {
    let src = &interp.sources[report.source];
    std::iter::once(&report.diag)
        .chain(&report.more)
        .map(|d| diag::render(d, &src.name, &src.text, color))
        .collect()
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

/// Reads a script; a non-UTF-8 file becomes a diagnostic (exit 1), a file
/// that cannot be read (missing, not a `.cgt` file, a device, a FIFO, too
/// large) an IO error (exit 2).
enum Loaded {
    Text(String),
    NotUtf8(Diagnostic),
}

fn load(path: &Path) -> Result<Loaded, String> {
    match crate::files::read_script(path) {
        Ok(s) => Ok(Loaded::Text(s)),
        Err(crate::files::FileError::NotUtf8(at)) => Ok(Loaded::NotUtf8(
            Diagnostic::error(format!(
                "{} is not valid UTF-8 (bad byte at offset {at})",
                path.display()
            ))
            .with_help("save the file as UTF-8"),
        )),
        Err(e) => Err(format!("yose: cannot read {}: {e}", path.display())),
    }
}

/// Exit codes, the same for `run`, `eval`, `check` and standard input.
pub const EXIT_OK: i32 = 0;
/// A failed proof or a script error.
pub const EXIT_FAILED: i32 = 1;
/// A usage or IO error (a file that cannot be read, output that cannot be written).
pub const EXIT_USAGE: i32 = 2;
/// Interrupted by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// The first error writing standard output, if any.
static WRITE_ERROR: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Writes text to standard output; a failure (a full disk, a closed pipe
/// when SIGPIPE is ignored) is remembered, never a panic, and makes the exit
/// code [`EXIT_USAGE`] (see [`finish`]).
pub fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()) {
        if let Ok(mut slot) = WRITE_ERROR.lock() {
            slot.get_or_insert_with(|| e.to_string());
        }
    }
}

/// [`write_out`] with a newline.
pub fn write_line(text: &str) {
    write_out(&format!("{text}\n"));
}

/// Flushes standard output; the exit code, or [`EXIT_USAGE`] if any output
/// was lost.
pub fn finish(code: i32) -> i32 {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().flush() {
        if let Ok(mut slot) = WRITE_ERROR.lock() {
            slot.get_or_insert_with(|| e.to_string());
        }
    }
    match WRITE_ERROR.lock().ok().and_then(|s| s.clone()) {
        Some(e) if code != EXIT_INTERRUPTED => {
            eprintln!("yose: cannot write the output: {e}");
            EXIT_USAGE
        }
        _ => code,
    }
}

fn new_interp(mode: Mode, out: Output) -> Interp {
    let mut interp = Interp::new(mode, out.style);
    interp.output = Box::new(write_line);
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
                return EXIT_USAGE;
            }
        };
        let id = interp.add_source(
            f.display().to_string(),
            &text,
            f.parent().map(Path::to_path_buf),
        );
        match run_and_report(&mut interp, id, out.color) {
            EXIT_INTERRUPTED => return EXIT_INTERRUPTED,
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
        return EXIT_USAGE;
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
                more: Vec::new(),
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
            EXIT_INTERRUPTED
        }
        Err(Stop::AssertFailed) => 1,
    }
}

fn eval_expr(expr: &str, out: Output) -> i32 {
    let mut interp = new_interp(Mode::Script, out);
    let id = interp.add_source("<eval>", expr, std::env::current_dir().ok());
    let whole = 0..expr.len();
    let r = interp.eval_source_expr(id).and_then(|v| {
        let style = interp.style;
        v.display_for_reading(&mut interp.store, style)
            .map_err(|e| interp.cg_error(e, &whole))
    });
    match r {
        Ok(s) => {
            write_line(&s);
            EXIT_OK
        }
        Err(Stop::Error(report)) => {
            eprint!("{}", render_report(&interp, &report, out.color));
            EXIT_FAILED
        }
        Err(Stop::Interrupted) => {
            eprintln!("yose: interrupted");
            EXIT_INTERRUPTED
        }
        Err(Stop::AssertFailed) => EXIT_FAILED,
    }
}

/// What `check` found below its arguments: the scripts, and the paths
/// that could not be read (a dangling link, an unreadable directory), each
/// counted as one failure.
#[derive(Default)]
struct Found {
    scripts: Vec<PathBuf>,
    unreadable: Vec<(PathBuf, String)>,
}

/// Every `*.cgt` below the given paths, sorted for a stable report. A
/// directory is entered once, by its identity (so a link back up the tree
/// is no loop); a missing argument is a usage error.
fn collect_scripts(paths: &[PathBuf]) -> Result<Found, String> {
    let mut found = Found::default();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let meta =
            std::fs::metadata(p).map_err(|e| format!("yose: cannot read {}: {e}", p.display()))?;
        if meta.is_dir() {
            let mut here = Found::default();
            walk(p, &mut here, &mut seen);
            here.scripts.sort();
            found.scripts.extend(here.scripts);
            found.unreadable.extend(here.unreadable);
        } else {
            found.scripts.push(p.clone());
        }
    }
    Ok(found)
}

/// The identity of a directory: canonical path (device and inode would do
/// as well; the canonical path also works where those are not exposed).
fn dir_identity(dir: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(dir).ok()
}

fn walk(dir: &Path, out: &mut Found, seen: &mut std::collections::HashSet<PathBuf>) {
    let Some(id) = dir_identity(dir) else {
        out.unreadable
            .push((dir.to_path_buf(), "cannot resolve the directory".into()));
        return;
    };
    if !seen.insert(id) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            out.unreadable.push((dir.to_path_buf(), e.to_string()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => walk(&path, out, seen),
            Ok(_) if path.extension().is_some_and(|e| e == "cgt") => out.scripts.push(path),
            Ok(_) => {}
            // A link to nothing (or a file gone meanwhile): one failure.
            Err(e) => {
                if path.extension().is_some_and(|e| e == "cgt")
                    || std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink())
                {
                    out.unreadable.push((path, e.to_string()));
                }
            }
        }
    }
}

fn check(paths: &[PathBuf], format: Format, out: Output) -> i32 {
    let found = match collect_scripts(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_USAGE;
        }
    };
    let files = found.scripts;
    if files.is_empty() && found.unreadable.is_empty() {
        // A mistyped directory in CI must not pass with "0 passed, 0 failed".
        eprintln!(
            "yose: no `.cgt` script in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return EXIT_USAGE;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let json = format == Format::Json;
    for (path, why) in &found.unreadable {
        failed += 1;
        let name = path.display().to_string();
        if json {
            write_line(
                &serde_json::json!({"file": name, "kind": "error", "passed": false, "message": format!("cannot read: {why}")})
                    .to_string(),
            );
        } else {
            write_line(&format!("{name}: error: cannot read: {why}"));
        }
    }
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
                // One unreadable script is one failure; the others still run.
                failed += 1;
                if json {
                    write_line(
                        &serde_json::json!({"file": name, "kind": "error", "passed": false, "message": e})
                            .to_string(),
                    );
                } else {
                    write_line(&format!(
                        "{name}: error: {}",
                        e.trim_start_matches("yose: ")
                    ));
                }
                continue;
            }
        };
        let id = interp.add_source(name.clone(), &text, f.parent().map(Path::to_path_buf));
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
                let mut obj = serde_json::json!({"file": interp.sources[res.source].name, "line": line, "col": col,
                    "kind": if res.theorem.is_some() { "theorem" } else { "assert" },
                    "name": res.theorem, "passed": res.passed(), "message": msg});
                // Where it failed (inside a theorem: the failing assert,
                // not the theorem's first line) and what was compared.
                if let Some(fail) = &res.failure {
                    if let Some(at) = fail.primary_span() {
                        let (l, c) = line_col(&interp.sources[res.source].text, at.start);
                        obj["failed_line"] = l.into();
                        obj["failed_col"] = c.into();
                    }
                    if let Some((left, right)) = &fail.compared {
                        obj["left"] = left.clone().into();
                        obj["right"] = right.clone().into();
                    }
                    // The assert's own message first (`assert c, "…"`), then
                    // the failure's other notes, as the text report shows them.
                    if !fail.notes.is_empty() {
                        obj["notes"] = fail.notes.clone().into();
                    }
                }
                println!("{obj}");
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
                            diag: fail.clone(),
                            more: Vec::new(),
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
                return EXIT_INTERRUPTED;
            }
            Err(Stop::AssertFailed) => None,
        };
        if let Some(report) = error {
            failed += 1;
            // One line per error (a script may have several syntax errors).
            for d in std::iter::once(&report.diag).chain(&report.more) {
                let at = d.primary_span().map_or(0, |s| s.start);
                if json {
                    let (line, col) = line_col(&interp.sources[report.source].text, at);
                    println!(
                        "{}",
                        serde_json::json!({"file": interp.sources[report.source].name, "line": line, "col": col,
                            "kind": "error", "passed": false, "message": d.message})
                    );
                } else {
                    println!(
                        "{}: error: {}",
                        location(&interp, report.source, at),
                        d.message
                    );
                    let src = &interp.sources[report.source];
                    print!("{}", diag::render(d, &src.name, &src.text, out.color));
                }
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
