//! Error recovery: every syntax error of a script, not only the first one
//! pest stops at.
//!
//! pest gives up at the first failure, and an unclosed bracket makes the
//! rest of the file one expression, so a whole-file parse reports one error,
//! often at the end of the file. When the whole parse fails,
//! [`all_errors`] instead
//!
//! 1. scans the text (strings and comments skipped, brackets matched) for
//!    statements that leave a `(`, `[` or game `{` open when a line starts
//!    with a word only a statement can start with (`let`, `assert`,
//!    `theorem`, `print`, `use`, `region`, `fn NAME`): that line cannot
//!    continue the bracket, so the bracket is reported with both places,
//!    and the broken statement is blanked out (bytes become spaces, so
//!    offsets stay) for the next step;
//! 2. splits the remaining text into statements: top-level ones, and inside
//!    every block the block's own statements, as a tree;
//! 3. parses each top-level statement on its own; one that fails has its
//!    block statements parsed on their own in turn, and the errors reported
//!    are those of the innermost failing statements (plus the statement's
//!    own error when it lies outside all of them).
//!
//! Statements are split at newlines outside brackets, except after a line
//! that ends with an operator, `,` or `=` and before a line that starts with
//! `else` (the grammar's own continuation rules). The scan repeats a little
//! of `layout` (strings, comments, brackets) because it must go on where
//! `layout` stops at the first problem.

use crate::diag::Diagnostic;
use std::ops::Range;

/// All syntax errors of `src`, given the diagnostics of the failed whole
/// parse (returned unchanged when recovery finds nothing better), sorted by
/// position.
pub(crate) fn all_errors(src: &str, whole: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let scan = scan(src);
    let mut diags = scan.unclosed;
    for node in &scan.tree {
        if diags.len() >= MAX_ERRORS {
            break;
        }
        diags.extend(node_errors(&scan.text, node, 0));
    }
    if diags.is_empty() {
        return whole;
    }
    diags.sort_by_key(|d| d.primary_span().map_or(usize::MAX, |s| s.start));
    if diags.len() > MAX_ERRORS {
        diags.truncate(MAX_ERRORS);
        let at = diags[MAX_ERRORS - 1].primary_span().map_or(0, |s| s.start);
        diags.push(
            Diagnostic::error(format!("more syntax errors after these {MAX_ERRORS}"))
                .with_label(at..at, "the last one shown")
                .with_help("fix these first"),
        );
    }
    diags
}

/// Errors reported at most (a file of garbage need not list every line).
const MAX_ERRORS: usize = 50;

/// Block levels looked into: deeper blocks report their enclosing
/// statement's error (keeps the re-parsing of nested input bounded).
const MAX_LEVELS: usize = 16;

/// One statement and the statements of the blocks inside it.
struct Node {
    range: Range<usize>,
    children: Vec<Node>,
}

/// The errors of one statement: its children's when any of them fails (and
/// its own error if that lies outside all children), else its own.
fn node_errors(text: &str, node: &Node, level: usize) -> Vec<Diagnostic> {
    // The newline before a statement goes with it, so that messages about
    // a line that starts with an operator read as in the whole file.
    let start = match node.range.start.checked_sub(1) {
        Some(before) if text.as_bytes()[before] == b'\n' => before,
        _ => node.range.start,
    };
    let stmt = &text[start..node.range.end];
    let Err(own) = super::parser::program(stmt) else {
        return Vec::new();
    };
    // A statement cut short inside the file ends its statement, not the
    // input.
    let inside = node.range.end < text.trim_end().len();
    let own: Vec<Diagnostic> = own
        .diags
        .into_iter()
        .map(|mut d| {
            if inside && d.message == "unexpected end of input" {
                d.message = "unexpected end of statement".into();
            }
            shifted(d, stmt, start)
        })
        .collect();
    // Nesting is counted from the start of the text parsed, so a part
    // would place the limit elsewhere: the whole statement's error stands.
    let too_deep = own.iter().any(|d| d.message == "nesting too deep");
    let inside_a_child = |d: &Diagnostic| {
        d.primary_span().is_some_and(|s| {
            node.children
                .iter()
                .any(|c| c.range.start <= s.start && s.start <= c.range.end)
        })
    };
    // Only a failure inside one of its block statements (or a block left
    // open, which holds the rest of the file) is looked for in each of
    // them; one outside (the braces, the header) is the statement's.
    let look_inside = own
        .iter()
        .any(|d| inside_a_child(d) || d.message.starts_with("unclosed"));
    if level >= MAX_LEVELS || too_deep || !look_inside {
        return own;
    }
    let mut inner = Vec::new();
    for child in &node.children {
        inner.extend(node_errors(text, child, level + 1));
    }
    if inner.is_empty() {
        return own;
    }
    inner.extend(own.into_iter().filter(|d| !inside_a_child(d)));
    inner
}

/// `d` with its spans moved from the statement's text into the file's; a
/// span past the statement's last non-blank byte (an end of input) is put
/// right after it, not on the next line.
fn shifted(mut d: Diagnostic, stmt: &str, by: usize) -> Diagnostic {
    let end = stmt.trim_end().len();
    for l in &mut d.labels {
        if l.span.start > end {
            l.span = end..end;
        }
        l.span = l.span.start + by..l.span.end.max(l.span.start) + by;
    }
    d
}

struct Scan {
    /// `src` with the statements of unclosed brackets blanked out.
    text: String,
    unclosed: Vec<Diagnostic>,
    tree: Vec<Node>,
}

/// An open bracket; a `{` is a block until a `|` shows it is a game.
struct Frame {
    open: u8,
    pos: usize,
    has_bar: bool,
    /// For block-like `{`: where its current statement starts, and the
    /// statements it has so far.
    stmt_start: usize,
    stmts: Vec<Node>,
}

impl Frame {
    fn is_block(&self) -> bool {
        self.open == b'{' && !self.has_bar
    }
}

/// Words that only start a statement, never continue an expression (`for`
/// and `if` do both, `go` is also a name).
const STATEMENT_WORDS: &[&str] = &["let", "assert", "theorem", "print", "use", "region"];

fn scan(src: &str) -> Scan {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = b.to_vec();
    let mut unclosed = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Statements at the top level, and where the current one starts.
    let mut top: Vec<Node> = Vec::new();
    let mut top_start = 0;
    // Statements of blocks closed inside the current statement, per level:
    // `pending[k]` belongs to the statement being read at stack depth k.
    let mut pending: Vec<Vec<Node>> = vec![Vec::new()];
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = b[i];
        if line_start {
            line_start = false;
            let indent = b[i..]
                .iter()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count();
            let word_at = i + indent;
            if starts_statement(src, word_at) && stack.last().is_some_and(|f| !f.is_block()) {
                // Pop the brackets this line cannot continue; the statement
                // holding them (from its level's start) is blanked out.
                let mut innermost = None;
                while stack.last().is_some_and(|f| !f.is_block()) {
                    let f = stack.pop().unwrap();
                    pending.pop();
                    innermost.get_or_insert((f.open, f.pos));
                }
                let (open, pos) = innermost.unwrap();
                let open = open as char;
                let word_end = word_at
                    + src[word_at..]
                        .find(|ch: char| !ch.is_alphanumeric() && ch != '_')
                        .unwrap_or(n - word_at);
                unclosed.push(
                    Diagnostic::error(format!("unclosed `{open}`"))
                        .with_label(pos..pos + 1, format!("this `{open}` is never closed"))
                        .with_secondary(
                            word_at..word_end,
                            "this line starts a new statement, so it cannot continue the bracket",
                        )
                        .with_help(format!("close the `{open}` before this line")),
                );
                let start = match stack.last() {
                    Some(f) => f.stmt_start,
                    None => top_start,
                };
                for byte in &mut out[start..i] {
                    if *byte != b'\n' {
                        *byte = b' ';
                    }
                }
                pending.last_mut().unwrap().clear();
                match stack.last_mut() {
                    Some(f) => f.stmt_start = i,
                    None => top_start = i,
                }
            }
        }
        match c {
            b'#' => {
                while i < n && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i = super::fast::skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => {
                stack.push(Frame {
                    open: c,
                    pos: i,
                    has_bar: false,
                    stmt_start: i + 1,
                    stmts: Vec::new(),
                });
                pending.push(Vec::new());
            }
            b')' | b']' | b'}' => {
                // A stray closer is left to the statement's own parse.
                if let Some(mut f) = stack.pop() {
                    let children = pending.pop().unwrap_or_default();
                    if f.is_block() {
                        close_stmt(&mut f.stmts, f.stmt_start..i, children);
                        pending.last_mut().unwrap().extend(f.stmts);
                    } else {
                        // A game or bracket: blocks inside it belong to the
                        // enclosing statement.
                        pending.last_mut().unwrap().extend(children);
                    }
                }
            }
            b'|' => {
                let after_lt = i > 0 && b[i - 1] == b'<';
                let before_gt = i + 1 < n && b[i + 1] == b'>';
                if let Some(f) = stack.last_mut() {
                    if f.open == b'{' && !after_lt && !before_gt && !f.has_bar {
                        f.has_bar = true;
                        // Not a block after all: what looked like its
                        // statements are parts of options.
                        let stmts = std::mem::take(&mut f.stmts);
                        let level = pending.last_mut().unwrap();
                        for s in stmts {
                            level.extend(s.children);
                        }
                    }
                }
            }
            b'\n' => {
                let at_statement_level = stack.last().is_none_or(|f| f.is_block());
                if at_statement_level && !continues(src, i) {
                    let children = std::mem::take(pending.last_mut().unwrap());
                    match stack.last_mut() {
                        Some(f) => {
                            close_stmt(&mut f.stmts, f.stmt_start..i, children);
                            f.stmt_start = i + 1;
                        }
                        None => {
                            close_stmt(&mut top, top_start..i, children);
                            top_start = i + 1;
                        }
                    }
                }
                line_start = true;
            }
            _ => {}
        }
        i += 1;
    }
    // Whatever is still open runs to the end of the input (its parse says
    // so); blocks still open hand their statements to the last statement.
    let mut rest = Vec::new();
    while let Some(f) = stack.pop() {
        rest.extend(f.stmts);
        rest.extend(pending.pop().unwrap_or_default());
    }
    rest.extend(pending.pop().unwrap_or_default());
    close_stmt(&mut top, top_start..n, rest);
    let text = String::from_utf8(out).expect("whole lines and bracketed runs became spaces");
    Scan {
        text,
        unclosed,
        tree: top,
    }
}

/// Records a statement unless it is only blanks.
fn close_stmt(into: &mut Vec<Node>, range: Range<usize>, children: Vec<Node>) {
    if range.start < range.end {
        into.push(Node { range, children });
    }
}

/// Whether the word at `at` starts a statement (see [`STATEMENT_WORDS`];
/// `fn` followed by a name).
pub(super) fn starts_statement(src: &str, at: usize) -> bool {
    let rest = &src[at..];
    let word_len = rest
        .find(|ch: char| !ch.is_alphanumeric() && ch != '_')
        .unwrap_or(rest.len());
    let word = &rest[..word_len];
    if STATEMENT_WORDS.contains(&word) {
        return true;
    }
    word == "fn"
        && rest[2..]
            .trim_start()
            .starts_with(|ch: char| ch.is_alphabetic())
}

/// Whether the newline at `nl` does not end a statement: the line before it
/// ends with an operator, `,` or `=`, or the next non-blank line starts with
/// `else`.
fn continues(src: &str, nl: usize) -> bool {
    let line_start = src[..nl].rfind('\n').map_or(0, |p| p + 1);
    let line = strip_comment(&src[line_start..nl]).trim_end();
    let ends_with_operator = line.ends_with([
        '+', '-', '=', ',', '<', '>', '|', '&', '.', '/', '·', '±', '∓', '≤', '≥', '≠', '≈', '−',
        '~', '!', ':',
    ]) || ["and", "or", "not", "mod"]
        .iter()
        .any(|w| line.ends_with(w) && !line[..line.len() - w.len()].ends_with(is_word_char));
    let next = src[nl + 1..].trim_start();
    ends_with_operator || (next.starts_with("else") && !next[4..].starts_with(is_word_char))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The line without its `#` comment (a `#` inside a string is kept).
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => return &line[..i],
            b'"' => i = super::fast::skip_string(b, i),
            _ => i += 1,
        }
    }
    line
}
