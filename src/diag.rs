//! Diagnostics as plain data.
//!
//! A [`Diagnostic`] is what every layer (parser, evaluator, checker) produces
//! when something is wrong with the user's input. It holds byte spans into the
//! source text and nothing from any rendering crate: ariadne is used only by
//! [`render`], at the edge (CLI, REPL, snapshot tests).

use std::fmt::Write as _;
use std::ops::Range;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// A span of source text with a message attached.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Label {
    /// Byte offsets into the source. May be empty (a position) and may point
    /// at or past the end of the source; [`render`] clamps it.
    pub span: Range<usize>,
    pub message: String,
    /// Primary labels mark where the problem is; secondary ones give context.
    pub primary: bool,
}

/// One message for the user: a headline, labelled spans, and trailing
/// `note:` / `help:` lines.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    /// `note:` lines (facts about the situation).
    pub notes: Vec<String>,
    /// `help:` lines (what to do about it).
    pub helps: Vec<String>,
    /// The two values a failed comparison compared, as printed (for
    /// `check --format json`).
    pub compared: Option<(String, String)>,
}

impl Diagnostic {
    pub fn new(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            helps: Vec::new(),
            compared: None,
        }
    }

    /// Records the two values a failed comparison compared.
    pub fn with_compared(mut self, left: String, right: String) -> Diagnostic {
        self.compared = Some((left, right));
        self
    }

    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, message)
    }

    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message)
    }

    /// Adds a primary label.
    pub fn with_label(mut self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary (context) label.
    pub fn with_secondary(mut self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.helps.push(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The span of the first primary label (or of the first label), if any.
    pub fn primary_span(&self) -> Option<Range<usize>> {
        self.labels
            .iter()
            .find(|l| l.primary)
            .or_else(|| self.labels.first())
            .map(|l| l.span.clone())
    }
}

impl std::fmt::Display for Diagnostic {
    /// A one-line form, `error: message`, for logs and plain-text contexts.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{kind}: {}", self.message)
    }
}

/// Clamps `span` into `source` and onto char boundaries (start rounded down,
/// end rounded up), so that any span renders, including one at end of input.
fn clamp_span(span: &Range<usize>, source: &str) -> Range<usize> {
    let len = source.len();
    let mut start = span.start.min(len);
    let mut end = span.end.min(len).max(start);
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    while !source.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Renders `diag` against `source` (named `source_name` in the header) with
/// ariadne. Spans are byte offsets; colour is on only when `color` is true.
/// Trailing spaces are stripped from every line so that output is stable in
/// snapshots.
pub fn render(diag: &Diagnostic, source_name: &str, source: &str, color: bool) -> String {
    use ariadne::{Color, Config, IndexType, Label as ALabel, Report, ReportKind, Source};

    let name = source_name.to_string();
    let kind = match diag.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let main_span = diag
        .primary_span()
        .map(|s| clamp_span(&s, source))
        .unwrap_or(0..0);
    let config = Config::default()
        .with_index_type(IndexType::Byte)
        .with_color(color);
    let mut report = Report::build(kind, (name.clone(), main_span))
        .with_config(config)
        .with_message(&diag.message);
    for (order, label) in diag.labels.iter().enumerate() {
        let span = clamp_span(&label.span, source);
        let mut l = ALabel::new((name.clone(), span))
            .with_message(&label.message)
            .with_order(order as i32);
        if color {
            l = l.with_color(if label.primary {
                match diag.severity {
                    Severity::Error => Color::Red,
                    Severity::Warning => Color::Yellow,
                }
            } else {
                Color::Blue
            });
        }
        if !label.primary {
            l = l.with_priority(-1);
        }
        report = report.with_label(l);
    }
    for note in &diag.notes {
        report = report.with_note(note);
    }
    for help in &diag.helps {
        report = report.with_help(help);
    }
    let mut buf = Vec::new();
    let written = report
        .finish()
        .write((name.clone(), Source::from(source)), &mut buf);
    let text = match written {
        Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
        // Rendering into a Vec cannot fail on IO; fall back to plain text
        // rather than lose the message if ariadne ever refuses.
        Err(_) => format!("{diag}\n"),
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// Renders several diagnostics, one after another.
pub fn render_all(diags: &[Diagnostic], source_name: &str, source: &str, color: bool) -> String {
    diags
        .iter()
        .map(|d| render(d, source_name, source, color))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn renders_after_multibyte_chars() {
        let src = "let x = ⇑ + foo";
        let start = src.find("foo").unwrap();
        let d = Diagnostic::error("unknown name `foo`")
            .with_label(start..start + 3, "not defined")
            .with_secondary(8..11, "this is two ups")
            .with_help("define it with `let foo = …`");
        expect![[r#"
            Error: unknown name `foo`
               ╭─[ test.cgt:1:13 ]
               │
             1 │ let x = ⇑ + foo
               │         ┬   ─┬─
               │         │    ╰─── not defined
               │         │
               │         ╰──────── this is two ups
               │
               │ Help: define it with `let foo = …`
            ───╯
        "#]]
        .assert_eq(&render(&d, "test.cgt", src, false));
    }

    #[test]
    fn end_of_input_span_is_clamped() {
        let src = "let x = {1 |";
        let d = Diagnostic::error("unexpected end of input")
            .with_label(src.len()..src.len() + 5, "expected an expression")
            .with_note("input ended here");
        expect![[r#"
            Error: unexpected end of input
               ╭─[ t:1:13 ]
               │
             1 │ let x = {1 |
               │             │
               │             ╰─ expected an expression
               │
               │ Note: input ended here
            ───╯
        "#]]
        .assert_eq(&render(&d, "t", src, false));
    }

    #[test]
    fn span_inside_a_char_is_widened() {
        let src = "⇑";
        let d = Diagnostic::warning("odd").with_label(1..2, "here");
        let out = render(&d, "t", src, false);
        assert!(out.contains("here"), "{out}");
    }

    #[test]
    fn no_trailing_spaces_and_colour_flag() {
        let src = "a\n  b  \n";
        let d = Diagnostic::error("x").with_label(4..5, "b");
        let plain = render(&d, "t", src, false);
        assert!(plain.lines().all(|l| !l.ends_with(' ')));
        assert!(!plain.contains('\u{1b}'));
        let coloured = render(&d, "t", src, true);
        assert!(coloured.contains('\u{1b}'));
    }

    #[test]
    fn diagnostic_without_labels_renders() {
        let d = Diagnostic::error("nothing to point at").with_note("n");
        let out = render(&d, "t", "", false);
        assert!(out.contains("nothing to point at"), "{out}");
    }
}
