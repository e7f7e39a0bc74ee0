//! The interactive REPL: multi-line entry while brackets are open, persistent
//! history, tab completion, `:commands`, and errors that never lose the session.

use crate::cli::{render_report, Output};
use crate::eval::{Interp, Mode, Report, Stop};
use crate::render::Style;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Editor, Helper};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::Ordering;

// Standard output goes through `cli::write_out`: a closed or full output is
// remembered (exit code 2 at the end), never a panic that ends the session.
macro_rules! println {
    ($($t:tt)*) => { crate::cli::write_line(&format!($($t)*)) };
}

const COMMANDS: &[(&str, &str)] = &[
    (
        ":help",
        "this help; `:help NAME` describes a builtin, `:help MODULE` a stdlib module",
    ),
    (":load FILE", "run a script in this session"),
    (":ascii", "print games in CGSuite's ASCII"),
    (":unicode", "print games with Unicode glyphs"),
    (
        ":cgsuite",
        "print games exactly as CGSuite does (its option order, at most four slashes)",
    ),
    (":quit", "leave (Ctrl-D also works)"),
];

struct ReplHelper {
    names: Rc<RefCell<Vec<String>>>,
}

impl Completer for ReplHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '\'' || *c == ':'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        if word.is_empty() {
            return Ok((pos, vec![]));
        }
        let mut candidates: Vec<String> = if word.starts_with(':') {
            COMMANDS
                .iter()
                .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string())
                .collect()
        } else {
            let mut v: Vec<String> = crate::eval::builtin_names().map(str::to_string).collect();
            v.extend(self.names.borrow().iter().cloned());
            v.extend(
                [
                    "let", "region", "fn", "assert", "theorem", "print", "use", "for", "if",
                    "else", "true", "false",
                ]
                .map(String::from),
            );
            v
        };
        candidates.sort();
        candidates.dedup();
        let pairs = candidates
            .into_iter()
            .filter(|c| c.starts_with(word))
            .map(|c| Pair {
                display: c.clone(),
                replacement: c,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}
impl Highlighter for ReplHelper {}
// Every line is accepted as typed: an unfinished entry is continued on
// the next line, under the continuation prompt ([`Entry`]).
impl Validator for ReplHelper {
    fn validate(&self, _ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(ValidationResult::Valid(None))
    }
}
impl Helper for ReplHelper {}

/// The prompt of a new entry.
const PROMPT: &str = "yose> ";
/// The prompt of a line that continues an unfinished entry (an open
/// bracket, a trailing operator): visible, and as wide as [`PROMPT`].
const CONTINUATION_PROMPT: &str = " ...> ";

/// An entry being typed, line by line.
#[derive(Default)]
struct Entry {
    text: String,
}

impl Entry {
    /// The prompt for the next line.
    fn prompt(&self) -> &'static str {
        if self.text.is_empty() {
            PROMPT
        } else {
            CONTINUATION_PROMPT
        }
    }

    /// Adds a line; the whole entry once it is complete (a blank first
    /// line gives nothing).
    fn feed(&mut self, line: &str) -> Option<String> {
        if self.text.is_empty() {
            if line.trim().is_empty() {
                return None;
            }
            self.text = line.to_string();
        } else {
            self.text.push('\n');
            self.text.push_str(line);
        }
        let t = &self.text;
        if t.trim_start().starts_with(':') || !crate::syntax::is_incomplete(t) {
            Some(std::mem::take(&mut self.text))
        } else {
            None
        }
    }
}

fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("YOSE_HISTORY") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("yose").join("history"))
}

/// The header rustyline writes at the top of a history file.
const HISTORY_HEADER: &[u8] = b"#V2";

/// The history file if it is safe to use, else a warning on standard error
/// and `None` (the session runs without history). Safe: a regular file
/// (after links, resolved once here) that is empty or starts with the
/// history header, and that we may write; or a new file we could create.
/// So a device, a FIFO, a directory, an unwritable place or a file of some
/// other kind at that name is never read from or written over.
fn usable_history(path: PathBuf) -> Option<PathBuf> {
    let warn = |why: &str| {
        eprintln!(
            "yose: warning: not using {} as the history file: {why}; this session keeps no history",
            path.display()
        );
    };
    match std::fs::metadata(&path) {
        Ok(_) => {
            let bytes = match crate::files::read_bytes(&path, 64 << 20, crate::files::Links::Follow)
            {
                Ok(b) => b,
                Err(e) => {
                    warn(&e.to_string());
                    return None;
                }
            };
            if !bytes.is_empty() && !bytes.starts_with(HISTORY_HEADER) {
                warn("it is not a yose history file, and it is left as it is");
                return None;
            }
            if let Err(e) = std::fs::OpenOptions::new().append(true).open(&path) {
                warn(&e.to_string());
                return None;
            }
            std::fs::canonicalize(&path).ok().or(Some(path))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    warn(&e.to_string());
                    return None;
                }
            }
            let mut header = HISTORY_HEADER.to_vec();
            header.push(b'\n');
            match crate::files::write_atomic(&path, &header) {
                Ok(()) => std::fs::canonicalize(&path).ok().or(Some(path)),
                Err(e) => {
                    warn(&e.to_string());
                    None
                }
            }
        }
        Err(e) => {
            warn(&e.to_string());
            None
        }
    }
}

/// Saves the history through a fresh temporary file renamed over the old
/// one, so a crash or a full disk never leaves it half-written.
fn save_history(
    editor: &mut Editor<ReplHelper, DefaultHistory>,
    path: &Path,
) -> Result<(), String> {
    if let Err(e) = crate::files::check_target(path) {
        return Err(e.to_string());
    }
    let (tmp, file) = crate::files::create_temp_beside(path).map_err(|e| e.to_string())?;
    drop(file);
    let saved = editor
        .save_history(&tmp)
        .map_err(|e| e.to_string())
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| e.to_string()));
    if saved.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    saved
}

/// Keeps what the user typed ahead when Ctrl-C stops a computation. While an
/// entry runs the terminal is in its ordinary (cooked) mode, and there the
/// interrupt character makes the kernel throw away every byte still waiting
/// to be read, lines ended by Enter included, unless `NOFLSH` is set. So
/// the session sets it on standard input and puts back the terminal's own
/// setting when it ends. The line editor takes the mode it finds as the one
/// to restore after each line, so the flag stays on between prompts; at the
/// prompt the editor reads Ctrl-C itself (raw mode) and nothing is flushed.
struct KeepTypeahead {
    /// The terminal's settings before the session.
    #[cfg(unix)]
    before: libc::termios,
}

impl KeepTypeahead {
    /// Sets `NOFLSH` on standard input; `None` when it is not a terminal.
    #[cfg(unix)]
    fn start() -> Option<KeepTypeahead> {
        // SAFETY: plain calls on file descriptor 0 with a termios we own.
        unsafe {
            if libc::isatty(libc::STDIN_FILENO) != 1 {
                return None;
            }
            let mut before: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut before) != 0 {
                return None;
            }
            let mut keeping = before;
            keeping.c_lflag |= libc::NOFLSH;
            // TCSANOW: a change that flushed (TCSAFLUSH) would lose what it means to keep.
            if libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &keeping) != 0 {
                return None;
            }
            Some(KeepTypeahead { before })
        }
    }

    #[cfg(not(unix))]
    fn start() -> Option<KeepTypeahead> {
        None
    }
}

impl Drop for KeepTypeahead {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: as in `start`.
        unsafe {
            // Only the flag is put back: the rest of the terminal's current
            // mode is the line editor's to restore, and it has.
            let mut now: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut now) == 0 {
                now.c_lflag = (now.c_lflag & !libc::NOFLSH) | (self.before.c_lflag & libc::NOFLSH);
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &now);
            }
        }
    }
}

/// Runs the REPL until `:quit` or Ctrl-D; returns the exit code.
pub fn run(out: Output) -> i32 {
    let mut interp = Interp::new(Mode::Repl, out.style);
    interp.output = Box::new(crate::cli::write_line);
    crate::cli::install_interrupt(interp.interrupt_flag());
    let names = Rc::new(RefCell::new(Vec::new()));
    let mut editor: Editor<ReplHelper, DefaultHistory> = match Editor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("yose: cannot start the line editor: {e}");
            return 2;
        }
    };
    editor.set_helper(Some(ReplHelper {
        names: names.clone(),
    }));
    let _keep_typeahead = KeepTypeahead::start();
    let path = history_path();
    let had_path = path.is_some();
    let mut history = path.and_then(usable_history);
    if let Some(h) = &history {
        if let Err(e) = editor.load_history(h) {
            eprintln!(
                "yose: warning: cannot read the history {}: {e}; this session keeps no history",
                h.display()
            );
            history = None;
        }
    }
    println!(
        "yose {} — combinatorial game theory for the Go endgame. :help for help, Ctrl-D to leave.",
        env!("CARGO_PKG_VERSION")
    );
    match &history {
        Some(h) => println!("History is kept in {}.", h.display()),
        // The warning above said why a path was refused.
        None if had_path => println!("History is not kept."),
        None => println!("History is not kept (no home directory)."),
    }
    let mut entry_no = 0usize;
    let mut entry = Entry::default();
    loop {
        match editor.readline(entry.prompt()) {
            Ok(line) => {
                let Some(line) = entry.feed(&line) else {
                    continue;
                };
                let _ = editor.add_history_entry(line.as_str());
                if let Some(h) = &history {
                    if let Err(e) = save_history(&mut editor, h) {
                        eprintln!(
                            "yose: warning: cannot save the history {}: {e}; not saving it any more",
                            h.display()
                        );
                        history = None;
                    }
                }
                let trimmed = line.trim();
                if trimmed.starts_with(':') {
                    if !command(&mut interp, trimmed, out) {
                        break;
                    }
                } else {
                    entry_no += 1;
                    let id = interp.add_source(
                        format!("<repl:{entry_no}>"),
                        &line,
                        std::env::current_dir().ok(),
                    );
                    run_entry(&mut interp, id, out);
                }
                *names.borrow_mut() = interp.global_names();
            }
            // Ctrl-C drops an unfinished entry.
            Err(ReadlineError::Interrupted) => {
                entry = Entry::default();
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("yose: {e}");
                return 2;
            }
        }
    }
    0
}

/// Runs one source in the session and reports what it produced.
fn run_entry(interp: &mut Interp, id: usize, out: Output) {
    interp.interrupt_flag().store(false, Ordering::SeqCst);
    let first = interp.results.len();
    let r = interp.run_source(id);
    for res in interp.results[first..].to_vec() {
        match &res.failure {
            None => println!(
                "{} holds",
                res.theorem
                    .as_ref()
                    .map_or("assertion".to_string(), |t| format!("theorem `{t}`"))
            ),
            Some(d) => eprint!(
                "{}",
                render_report(
                    interp,
                    &Report {
                        source: res.source,
                        diag: d.clone(),
                        more: Vec::new(),
                    },
                    out.color
                )
            ),
        }
    }
    match r {
        Ok(()) | Err(Stop::AssertFailed) => {}
        Err(Stop::Error(report)) => eprint!("{}", render_report(interp, &report, out.color)),
        Err(Stop::Interrupted) => {
            // On a terminal the Ctrl-C was echoed (`^C`), after whatever was
            // typed during the computation: the note goes on a line of its
            // own.
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                eprintln!();
            }
            eprintln!("interrupted")
        }
    }
    // A computation stopped at the memory limit leaves its memo tables
    // behind; dropping them (the games and bindings stay) lets the session
    // go on.
    if crate::limits::check_memory().is_err() {
        interp.store.clear_memos();
    }
}

/// What `:help NAME` says: the builtin `NAME`'s entry and what the stdlib
/// module `NAME` defines, both when the name is both (`go`: the builtin
/// `go(diagram)` and `use go`), else the list of modules. Without the
/// module part a module that shares its name with a builtin could not be
/// looked up at all.
fn help_for(name: &str) -> String {
    let builtin = crate::eval::builtin_help(name);
    let module = crate::stdlib::definitions(name);
    let mut text = String::new();
    if let Some(h) = &builtin {
        text.push_str(h);
    }
    if let Some(defs) = module {
        if builtin.is_some() {
            text.push_str(&format!("\n\n`{name}` is also a stdlib module; "));
        }
        text.push_str(&format!("`use {name}` defines:"));
        for (sig, doc) in defs {
            text.push_str(&format!("\n  {sig:<28} {doc}"));
        }
    } else if builtin.is_none() {
        let modules: Vec<&str> = crate::stdlib::MODULES.iter().map(|(n, _)| *n).collect();
        text = format!(
            "no builtin or stdlib module named `{name}` (modules: {})",
            modules.join(", ")
        );
    }
    text
}

/// Handles a `:command`; false means quit.
fn command(interp: &mut Interp, line: &str, out: Output) -> bool {
    let (cmd, arg) = match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    };
    match cmd {
        ":quit" | ":q" | ":exit" => return false,
        ":ascii" => {
            interp.style = Style::Ascii;
            println!("printing in ASCII");
        }
        ":unicode" => {
            interp.style = Style::Unicode;
            println!("printing in Unicode");
        }
        ":cgsuite" => {
            interp.style = Style::Cgsuite;
            println!("printing as CGSuite does");
        }
        ":help" | ":h" | ":?" => {
            if arg.is_empty() {
                println!("Type an expression to see its value, or a statement (let, region, fn, assert, theorem, print, use, for).");
                println!("Games: {{L | R}}, {{a || b | c}}, 2*, ^, v, ^^*, *3, +-5, Tiny(2), ^<2>, ^[3]; n . G is n copies of G (n an integer), G . U the Norton product.");
                println!("Commands:");
                for (c, d) in COMMANDS {
                    println!("  {c:<12} {d}");
                }
                println!(
                    "Builtins: {}",
                    crate::eval::builtin_names().collect::<Vec<_>>().join(", ")
                );
            } else {
                println!("{}", help_for(arg));
            }
        }
        ":load" => {
            if arg.is_empty() {
                eprintln!(":load needs a file name");
                return true;
            }
            let path = PathBuf::from(arg);
            match crate::files::read_script(&path) {
                Ok(text) => {
                    let id = interp.add_source(
                        arg.to_string(),
                        &text,
                        path.parent().map(|p| p.to_path_buf()),
                    );
                    run_entry(interp, id, out);
                }
                Err(e) => eprintln!("cannot load {arg}: {e}"),
            }
        }
        other => eprintln!("unknown command {other}; :help lists the commands"),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{help_for, Entry, CONTINUATION_PROMPT, PROMPT};

    #[test]
    fn an_unfinished_entry_continues_under_a_visible_prompt() {
        let mut e = Entry::default();
        assert_eq!(e.prompt(), PROMPT);
        assert_eq!(e.feed("   "), None);
        assert_eq!(e.prompt(), PROMPT);
        assert_eq!(e.feed("let G = {1 |"), None);
        assert_eq!(e.prompt(), CONTINUATION_PROMPT);
        assert_eq!(CONTINUATION_PROMPT.len(), PROMPT.len());
        assert_eq!(e.feed(""), None);
        assert_eq!(e.feed("  0}").as_deref(), Some("let G = {1 |\n\n  0}"));
        assert_eq!(e.prompt(), PROMPT);
        assert_eq!(e.feed("1 + 1").as_deref(), Some("1 + 1"));
        assert_eq!(e.feed(":help (").as_deref(), Some(":help ("));
    }

    /// `go` is both a builtin and a stdlib module: `:help go` shows both,
    /// the builtin first. It used to show only the builtin, and the module
    /// could not be looked up at all.
    #[test]
    fn help_shows_a_builtin_and_a_module_of_the_same_name() {
        let builtin = crate::eval::builtin_help("go").unwrap();
        let module = crate::stdlib::definitions("go").unwrap();
        assert!(!module.is_empty());
        let help = help_for("go");
        assert!(help.starts_with(&builtin), "{help}");
        let listing = &help[builtin.len()..];
        assert!(listing.contains("`use go` defines:"), "{help}");
        for (signature, _) in &module {
            assert!(listing.contains(signature.as_str()), "{signature}: {help}");
        }
    }

    #[test]
    fn help_shows_a_module_a_builtin_or_what_there_is() {
        let kos = help_for("kos");
        assert!(kos.starts_with("`use kos` defines:"), "{kos}");
        assert!(kos.contains("ko_mast(K, who)"), "{kos}");
        let cool = help_for("cool");
        assert_eq!(cool, crate::eval::builtin_help("cool").unwrap());
        let unknown = help_for("no_such_name");
        assert!(
            unknown.starts_with("no builtin or stdlib module named `no_such_name`")
                && unknown.contains("games, thermo, go, kos"),
            "{unknown}"
        );
    }
}
