//! The layout pass: a byte scanner that runs before the pest grammar.
//!
//! It does the few things a PEG does badly, and keeps every byte offset
//! unchanged (each rewrite replaces bytes by the same number of bytes), so
//! spans computed on its output index the original source:
//!
//! * `#` comments are replaced by spaces (the grammar has no comment rule);
//! * brackets are matched: an unclosed `(`, `[`, `{` or string, a stray or
//!   mismatched closer, and nesting deeper than [`MAX_NESTING`] are reported
//!   here, before pest runs, so deep input cannot exhaust the stack;
//! * every `{ … }` is classified: a brace group with a `|` directly inside it
//!   (not counting the operators `<|` and `|>`) is a *game*, any other is a
//!   *block*. Block braces are rewritten to [`BLOCK_OPEN`] / [`BLOCK_CLOSE`]
//!   so the grammar never has to guess between the two;
//! * newlines directly inside `( )`, `[ ]` and game braces are "soft": they
//!   are rewritten to spaces. Newlines at statement level and directly inside
//!   blocks stay and separate statements.

use crate::diag::Diagnostic;
use std::borrow::Cow;

/// Replaces the `{` of a block in the text handed to pest.
pub(crate) const BLOCK_OPEN: u8 = 0x0E;
/// Replaces the `}` of a block in the text handed to pest.
pub(crate) const BLOCK_CLOSE: u8 = 0x0F;
/// Deepest allowed nesting of `(`, `[` and `{` together.
pub const MAX_NESTING: usize = 256;

/// A layout failure; `at_end` is true when more input could fix it (an
/// unclosed bracket or string), which is what the REPL needs to know.
pub(crate) struct LayoutError {
    pub diag: Diagnostic,
    pub at_end: bool,
}

struct Frame {
    open: u8,
    pos: usize,
    has_bar: bool,
    /// Where this frame's newlines start in the pass's list of pending
    /// newlines (those directly inside open game-or-block braces; a frame
    /// takes its own off the end when it closes).
    newlines_from: usize,
}

/// The layout output: the source itself until a byte must change, then a
/// copy (most questions typed at the REPL or given to `yose eval` have no
/// comment, block or line break inside brackets, and are not copied).
struct Out<'s> {
    src: &'s str,
    copy: Option<Vec<u8>>,
}

impl<'s> Out<'s> {
    fn set(&mut self, i: usize, byte: u8) {
        self.copy
            .get_or_insert_with(|| self.src.as_bytes().to_vec())[i] = byte;
    }
    fn finish(self) -> Cow<'s, str> {
        match self.copy {
            None => Cow::Borrowed(self.src),
            // Only ASCII bytes were replaced by ASCII bytes, at ASCII positions.
            Some(out) => Cow::Owned(String::from_utf8(out).expect("layout keeps UTF-8 intact")),
        }
    }
}

fn closer_for(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// Runs the layout pass (see the module docs); also returns the deepest
/// bracket nesting it saw.
pub(crate) fn layout(src: &str) -> Result<(Cow<'_, str>, usize), LayoutError> {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = Out { src, copy: None };
    let mut stack: Vec<Frame> = Vec::new();
    let mut newlines: Vec<usize> = Vec::new();
    let mut deepest = 0;
    let mut i = 0;
    while i < n {
        let c = b[i];
        match c {
            b'#' => {
                while i < n && b[i] != b'\n' {
                    out.set(i, b' ');
                    i += 1;
                }
                continue;
            }
            b'"' => {
                if b[i..].starts_with(b"\"\"\"") {
                    match find(b, i + 3, b"\"\"\"") {
                        Some(end) => i = end + 3,
                        None => {
                            return Err(LayoutError {
                                diag: Diagnostic::error("unterminated string")
                                    .with_label(i..i + 3, "this `\"\"\"` string is never closed")
                                    .with_help("close it with `\"\"\"`"),
                                at_end: true,
                            })
                        }
                    }
                } else {
                    let mut j = i + 1;
                    loop {
                        if j >= n {
                            return Err(LayoutError {
                                diag: Diagnostic::error("unterminated string")
                                    .with_label(i..i + 1, "this string is never closed"),
                                at_end: true,
                            });
                        }
                        match b[j] {
                            b'\\' => j += 2,
                            b'"' => break,
                            _ => j += 1,
                        }
                    }
                    i = j + 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                if stack.len() >= MAX_NESTING {
                    return Err(LayoutError {
                        diag: Diagnostic::error("nesting too deep")
                            .with_label(i..i + 1, "this bracket is nested too deeply")
                            .with_note(format!(
                                "yose accepts at most {MAX_NESTING} nested `(`, `[` and `{{`"
                            )),
                        at_end: false,
                    });
                }
                stack.push(Frame {
                    open: c,
                    pos: i,
                    has_bar: false,
                    newlines_from: newlines.len(),
                });
                deepest = deepest.max(stack.len());
            }
            b')' | b']' | b'}' => {
                let Some(frame) = stack.pop() else {
                    return Err(LayoutError {
                        diag: Diagnostic::error(format!("unexpected `{}`", c as char))
                            .with_label(i..i + 1, "there is no matching opening bracket"),
                        at_end: false,
                    });
                };
                let want = closer_for(frame.open);
                if c != want {
                    return Err(LayoutError {
                        diag: Diagnostic::error(format!("mismatched `{}`", c as char))
                            .with_label(i..i + 1, format!("expected `{}`", want as char))
                            .with_secondary(
                                frame.pos..frame.pos + 1,
                                format!("to close this `{}`", frame.open as char),
                            ),
                        at_end: false,
                    });
                }
                if frame.open == b'{' {
                    if frame.has_bar {
                        for &nl in &newlines[frame.newlines_from..] {
                            out.set(nl, b' ');
                        }
                    } else {
                        out.set(frame.pos, BLOCK_OPEN);
                        out.set(i, BLOCK_CLOSE);
                    }
                    newlines.truncate(frame.newlines_from);
                }
            }
            b'|' => {
                if let Some(top) = stack.last_mut() {
                    let after_lt = i > 0 && b[i - 1] == b'<';
                    let before_gt = i + 1 < n && b[i + 1] == b'>';
                    if top.open == b'{' && !after_lt && !before_gt {
                        top.has_bar = true;
                    }
                }
            }
            b'\n' => match stack.last_mut() {
                Some(f) if f.open == b'{' => newlines.push(i),
                Some(_) => out.set(i, b' '),
                None => {}
            },
            b'\t' | b'\r' => {}
            c if c < 0x20 || c == 0x7f => {
                return Err(LayoutError {
                    diag: Diagnostic::error(format!("unexpected control character U+{c:04X}"))
                        .with_label(i..i + 1, "not part of yose's syntax"),
                    at_end: false,
                });
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(frame) = stack.last() {
        let open = frame.open as char;
        return Err(LayoutError {
            diag: Diagnostic::error(format!("unclosed `{open}`"))
                .with_label(
                    frame.pos..frame.pos + 1,
                    format!("this `{open}` is never closed"),
                )
                .with_secondary(n..n, "input ends here"),
            at_end: true,
        });
    }
    Ok((out.finish(), deepest))
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}
