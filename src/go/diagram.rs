//! Parsing diagrams into [`Position`]s.
//!
//! Two dialects, detected from the first non-blank line:
//! * plain: rows of point characters, optionally separated by whitespace;
//! * Sensei's Library: every line starts with `$$`; an optional first header
//!   line (`$$B`, `$$Wc`, `$$B title`: `$$` followed at once by a non-space
//!   character) is skipped.
//!
//! Point characters: `.` and `,` (hoshi) empty; `X` / `O` immortal stones;
//! `x` / `o` capturable stones; any other lowercase letter labels an empty
//! point. Board edges are decoration in both dialects: a line made of `-`, `+`
//! and spaces is an edge line, and `|` may open or close a row. Everything
//! outside the drawn rectangle is off the board, so edges change nothing.

use super::position::{Cell, Colour, Position};
use std::fmt;

/// What is wrong with a diagram, and where: `offset` is the byte offset in
/// the diagram text of the character at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramError {
    pub offset: usize,
    pub kind: DiagramErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagramErrorKind {
    /// No row of points at all.
    NoRows,
    /// A character that is not a point, an edge or whitespace.
    UnknownCharacter(char),
    /// `|` or `+` inside a row, `+` outside an edge line.
    MisplacedEdge(char),
    /// A Sensei's Library diagram with a line that does not start with `$$`.
    MissingDollars,
    /// A row with a different number of points than the first row.
    RaggedRow { expected: usize, found: usize },
    /// A label drawn twice (`offset` is the second one).
    DuplicateLabel(char),
    /// The diagram has no empty point.
    NoEmptyPoint,
    /// A capturable chain has no liberty (`offset` is its first stone).
    NoLiberties,
    /// A Sensei's Library diagram that does not fit a 19 × 19 board (or the
    /// size its title line gives).
    BoardTooLarge { width: usize, height: usize },
    /// A Sensei's Library move number drawn twice (`offset`: the second).
    DuplicateMove(u32),
    /// A Sensei's Library move number missing (`offset`: the next one).
    MissingMove(u32),
    /// A Sensei's Library numbered move that breaks a rule.
    IllegalNumberedMove(u32, super::position::IllegalMove),
}

impl fmt::Display for DiagramErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramErrorKind::NoRows => write!(f, "the diagram has no row of points"),
            DiagramErrorKind::UnknownCharacter(c) => write!(
                f,
                "unknown character `{c}` in a diagram (points are `.` `,` `X` `O` `x` `o` \
                 and lowercase labels)"
            ),
            DiagramErrorKind::MisplacedEdge(c) => write!(
                f,
                "`{c}` is a board edge: `|` may only open or close a row, `+` belongs on an \
                 edge line such as `+-----+`"
            ),
            DiagramErrorKind::MissingDollars => write!(
                f,
                "this Sensei's Library diagram line does not start with `$$`"
            ),
            DiagramErrorKind::RaggedRow { expected, found } => write!(
                f,
                "ragged diagram: this row has {found} points, the first row has {expected}"
            ),
            DiagramErrorKind::DuplicateLabel(c) => {
                write!(f, "the label `{c}` is used twice")
            }
            DiagramErrorKind::NoEmptyPoint => {
                write!(f, "the region has no empty point")
            }
            DiagramErrorKind::BoardTooLarge { width, height } => write!(
                f,
                "a board has at most 19×19 points (or the size the `$$` title line gives); \
                 this diagram needs {width}×{height}"
            ),
            DiagramErrorKind::DuplicateMove(n) => write!(f, "move {n} is drawn twice"),
            DiagramErrorKind::MissingMove(n) => write!(
                f,
                "move {n} is missing: the numbered moves run from 1 without a gap (a move \
                 played where a captured stone stood cannot be drawn)"
            ),
            DiagramErrorKind::IllegalNumberedMove(n, why) => {
                write!(f, "move {n} is illegal: {why}")
            }
            DiagramErrorKind::NoLiberties => write!(
                f,
                "these capturable stones have no liberty in the diagram (draw them `X` / `O` \
                 if they are meant to be alive)"
            ),
        }
    }
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.kind, self.offset)
    }
}

impl std::error::Error for DiagramError {}

fn err(offset: usize, kind: DiagramErrorKind) -> DiagramError {
    DiagramError { offset, kind }
}

/// One parsed point: its byte offset and character.
type Drawn = (usize, char);

impl Position {
    /// Parses a diagram (see the module docs of [`crate::go`]).
    pub fn parse(text: &str) -> Result<Position, DiagramError> {
        let rows = rows(text)?;
        let Some(first) = rows.first() else {
            return Err(err(0, DiagramErrorKind::NoRows));
        };
        let width = first.points.len();
        for row in &rows {
            let found = row.points.len();
            if found > width {
                return Err(err(
                    row.points[width].0,
                    DiagramErrorKind::RaggedRow {
                        expected: width,
                        found,
                    },
                ));
            }
            if found < width {
                return Err(err(
                    row.end,
                    DiagramErrorKind::RaggedRow {
                        expected: width,
                        found,
                    },
                ));
            }
        }
        let height = rows.len();
        let n = width * height;
        let mut cells = Vec::with_capacity(n);
        let mut frame = Vec::with_capacity(n);
        let mut labels: Vec<Option<char>> = Vec::with_capacity(n);
        let mut offsets = Vec::with_capacity(n);
        for row in &rows {
            for &(offset, ch) in &row.points {
                let (cell, is_frame, label) = match ch {
                    '.' | ',' => (Cell::Empty, false, None),
                    'X' => (Cell::Stone(Colour::Black), true, None),
                    'O' => (Cell::Stone(Colour::White), true, None),
                    'x' => (Cell::Stone(Colour::Black), false, None),
                    'o' => (Cell::Stone(Colour::White), false, None),
                    c => {
                        if labels.contains(&Some(c)) {
                            return Err(err(offset, DiagramErrorKind::DuplicateLabel(c)));
                        }
                        (Cell::Empty, false, Some(c))
                    }
                };
                cells.push(cell);
                frame.push(is_frame);
                labels.push(label);
                offsets.push(offset);
            }
        }
        let pos = Position {
            width,
            height,
            cells,
            frame,
            labels,
            prisoners: [0, 0],
            ko_ban: None,
            origin: None,
        };
        // Stones with no liberty first: a diagram with no empty point whose
        // capturable stones are already surrounded is told about them, the
        // mistake in the drawing, at the stones.
        let mut checked = vec![false; n];
        for p in 0..n {
            if checked[p] || pos.cells[p] == Cell::Empty {
                continue;
            }
            let chain = pos.chain(p);
            for &q in &chain {
                checked[q] = true;
            }
            let immortal = chain.iter().any(|&q| pos.frame[q]);
            if !immortal && pos.liberties(&chain).is_empty() {
                return Err(err(offsets[chain[0]], DiagramErrorKind::NoLiberties));
            }
        }
        if !pos.cells.contains(&Cell::Empty) {
            return Err(err(offsets[0], DiagramErrorKind::NoEmptyPoint));
        }
        Ok(pos)
    }
}

struct Row {
    points: Vec<Drawn>,
    /// Byte offset just after the row's last character.
    end: usize,
}

/// Splits the text into rows of drawn points, dropping blank lines, the
/// Sensei's Library header and edge lines.
fn rows(text: &str) -> Result<Vec<Row>, DiagramError> {
    let mut lines = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let body = piece.trim_end_matches(['\n', '\r']);
        lines.push((start, body));
        start += piece.len();
    }
    let sensei = lines
        .iter()
        .find(|(_, l)| !l.trim().is_empty())
        .is_some_and(|(_, l)| l.trim_start().starts_with("$$"));
    let mut rows = Vec::new();
    let mut first_dollar_line = true;
    for (line_start, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let (mut offset, mut body) = (line_start + indent, line.trim_start());
        if sensei {
            let Some(rest) = body.strip_prefix("$$") else {
                return Err(err(offset, DiagramErrorKind::MissingDollars));
            };
            // A title line: `$$` followed at once by a character (`$$B`),
            // or by text that no row could hold (`$$ Black to play`).
            let header = first_dollar_line
                && (rest.chars().next().is_some_and(|c| !c.is_whitespace())
                    || rest.chars().any(|c| {
                        !(matches!(c, '.' | ',' | 'X' | 'O' | '|' | '+' | '-')
                            || c.is_ascii_lowercase()
                            || c.is_whitespace())
                    }));
            first_dollar_line = false;
            if header {
                continue;
            }
            offset += 2;
            body = rest;
        }
        let content = body.trim();
        if content.is_empty() {
            continue;
        }
        if content.contains('-')
            && content
                .chars()
                .all(|c| matches!(c, '-' | '+') || c.is_whitespace())
        {
            continue;
        }
        let mut chars: Vec<Drawn> = body
            .char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, c)| (offset + i, c))
            .collect();
        let end = chars.last().map_or(offset, |&(i, c)| i + c.len_utf8());
        if chars.first().is_some_and(|&(_, c)| c == '|') {
            chars.remove(0);
        }
        if chars.last().is_some_and(|&(_, c)| c == '|') {
            chars.pop();
        }
        for &(i, c) in &chars {
            match c {
                '.' | ',' | 'X' | 'O' => {}
                c if c.is_ascii_lowercase() => {}
                '|' | '+' | '-' => return Err(err(i, DiagramErrorKind::MisplacedEdge(c))),
                c => return Err(err(i, DiagramErrorKind::UnknownCharacter(c))),
            }
        }
        if chars.is_empty() {
            continue;
        }
        rows.push(Row { points: chars, end });
    }
    Ok(rows)
}
