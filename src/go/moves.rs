//! Move strings and [`play`].
//!
//! A move string is a list of items separated by commas, semicolons or
//! whitespace. Each item is one of
//! * `B a`, `W b`, `Ba`: a colour and a point: a diagram label, `(row,col)`
//!   counted from 1 at the top left, a Go coordinate `C3` (see
//!   [`super::coords`]; on a diagram that is not cut from a board, the
//!   rectangle is the board), or `t` / `pass` / `tenuki` for a move
//!   elsewhere;
//! * `B [cc]`, `B[cc]`: an SGF point, on a position that lies on a board
//!   (a game, or a region cut from one); `[]` and `[tt]` are passes. When
//!   both letters are labels of the diagram, the brackets are Jasiek's
//!   sequence below;
//! * `B[abt]` (the notation of Jasiek's "The New Ko Rules"): a sequence of
//!   moves starting with the given colour and alternating, one character
//!   per move: a label (its point; when that point is occupied, the play
//!   of the mover that captures the stones on it, i.e. the retake in its
//!   ko mouth: in `W[aa]` the second `a` is Black's retake), `t` a tenuki
//!   (a stone elsewhere in a game, a pass on a position), `p` a pass (when
//!   no point is labelled `p`), `M` the play on the only empty unlabelled
//!   point next to what the previous move played or captured (an error
//!   when there is none or several). `#` and `*` may follow the bracket;
//!   they are kept on the last move ([`WrittenMove::marks`]): `*` means the
//!   sequence repeated (`cyclical` plays it twice), `#` changes nothing.
//!
//! `t` always means tenuki; when the diagram also labels a point `t`, a bare
//! `t` is an error (write the point as `(row,col)`, the tenuki as `pass`).

use super::coords::{self, CoordError};
use super::game::Game;
use super::position::{Cell, Colour, IllegalMove, Move, Position};
use super::ultimate::Special;
use std::fmt;
use std::ops::Range;

/// A move string that cannot be parsed or played. `span` is the byte range
/// of the offending move in the move string, `index` its number (from 1),
/// `text` the move as it reads (`W b`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub index: usize,
    pub text: String,
    pub span: Range<usize>,
    pub kind: MoveErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// The string does not follow the move notation.
    Syntax(String),
    /// A point name that the diagram does not have.
    UnknownPoint(String),
    /// `t` with a diagram that labels a point `t`.
    AmbiguousT,
    /// A board coordinate that names no point: the letter `I`, off the
    /// board, malformed.
    Coordinate(String, CoordError),
    /// The move breaks a rule of Go.
    Illegal(IllegalMove),
    /// A letter or `M` of Jasiek's notation that names no move on the
    /// board it is played on.
    Notation(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            MoveErrorKind::Syntax(msg) => write!(f, "bad move string: {msg}"),
            MoveErrorKind::UnknownPoint(name) => write!(
                f,
                "move {} `{}`: the diagram has no point `{name}`",
                self.index, self.text
            ),
            MoveErrorKind::AmbiguousT => write!(
                f,
                "move {} `{}`: `t` means tenuki, but the diagram also labels a point `t` \
                 (write `pass` for a tenuki or `(row,col)` for the point)",
                self.index, self.text
            ),
            MoveErrorKind::Coordinate(name, why) => write!(
                f,
                "move {} `{}`: `{name}` is not a point of the board: {why}",
                self.index, self.text
            ),
            MoveErrorKind::Illegal(why) => {
                write!(f, "move {} `{}` is illegal: {why}", self.index, self.text)
            }
            MoveErrorKind::Notation(why) => write!(f, "move {} `{}`: {why}", self.index, self.text),
        }
    }
}

impl std::error::Error for MoveError {}

/// A parsed move with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move; for [`How::Mouth`] and [`How::MouthM`] the point is only
    /// known on the board the move is played on ([`WrittenMove::resolve`]).
    pub mv: Move,
    /// `delay`, `ultimate`, `draw`, `resign` (Ultimate Go): `mv.point` is
    /// then `None`.
    pub special: Option<Special>,
    pub span: Range<usize>,
    pub text: String,
    pub how: How,
    /// The marks written after the sequence's `]` (`#`, `*`), on its last
    /// move.
    pub marks: String,
}

/// How a written move names its point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// A point (or a pass, `point: None`).
    Exact,
    /// A tenuki: a board play elsewhere (a pass on a position).
    Tenuki,
    /// A letter of Jasiek's notation inside `[…]`: its point when empty,
    /// else the play in the same ko mouth that captures the stones on it
    /// (`W[aa]`: the second `a` is Black's retake).
    Mouth(usize),
    /// `M` inside `[…]`: the play on the only empty unlabelled point next to
    /// what the previous move of the sequence played or captured.
    MouthM,
    /// A move of no-pass Go that places no stone (`delay`, `ultimate`,
    /// `draw`, `resign`), judged by [`Game::act`].
    Special(Special),
}

/// What a parsed move becomes on a board: a move, or a tenuki.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Move(Move),
    Elsewhere(Colour),
    /// A no-pass move that places no stone.
    Act(Colour, Special),
}

impl WrittenMove {
    /// The move on `board`; `last` is the board before and after the
    /// previous move of the same string, if any (for `M`).
    pub fn resolve(
        &self,
        board: &Position,
        last: Option<(&Position, &Position)>,
    ) -> Result<Step, MoveErrorKind> {
        let colour = self.mv.colour;
        match self.how {
            How::Exact => Ok(Step::Move(self.mv)),
            How::Tenuki => Ok(Step::Elsewhere(colour)),
            How::Special(m) => Ok(Step::Act(colour, m)),
            How::Mouth(p) => {
                if board.cell(p) == Cell::Empty {
                    return Ok(Step::Move(self.mv));
                }
                // The retake: an empty neighbour of the string on `p` whose
                // play captures it.
                let chain = board.chain(p);
                let mut found = Vec::new();
                if board.cell(p) == Cell::Stone(colour.opponent()) {
                    for q in board.liberties(&chain) {
                        let mut free = board.clone();
                        free.clear_ko_ban();
                        if let Ok(next) = free.play_move(Move {
                            colour,
                            point: Some(q),
                        }) {
                            if next.cell(p) == Cell::Empty {
                                found.push(q);
                            }
                        }
                    }
                }
                match found.as_slice() {
                    [q] => Ok(Step::Move(Move {
                        colour,
                        point: Some(*q),
                    })),
                    _ => Err(MoveErrorKind::Notation(format!(
                        "`{}` is occupied and no single play of {colour} captures the stones on it (a letter means its point, or the retake in its ko mouth)",
                        board.label(p).unwrap_or('?')
                    ))),
                }
            }
            How::MouthM => {
                let Some((before, after)) = last else {
                    return Err(MoveErrorKind::Notation(
                        "`M` needs a board play before it in the sequence".into(),
                    ));
                };
                let touched: Vec<usize> = (0..after.cells_len())
                    .filter(|&q| before.cell(q) != after.cell(q))
                    .collect();
                if touched.is_empty() {
                    return Err(MoveErrorKind::Notation(
                        "`M` must follow a board play, not a pass or a tenuki".into(),
                    ));
                }
                let mut near: Vec<usize> = touched
                    .iter()
                    .flat_map(|&q| {
                        let mut v: Vec<usize> = after.neighbours(q).collect();
                        v.push(q);
                        v
                    })
                    .filter(|&q| board.cell(q) == Cell::Empty && board.label(q).is_none())
                    .filter(|&q| {
                        let mut free = board.clone();
                        free.clear_ko_ban();
                        free.play_move(Move {
                            colour,
                            point: Some(q),
                        })
                        .is_ok()
                    })
                    .collect();
                near.sort_unstable();
                near.dedup();
                match near.as_slice() {
                    [q] => Ok(Step::Move(Move {
                        colour,
                        point: Some(*q),
                    })),
                    [] => Err(MoveErrorKind::Notation(format!(
                        "`M`: {colour} has no play on an unlabelled point next to the previous move"
                    ))),
                    many => Err(MoveErrorKind::Notation(format!(
                        "`M` is ambiguous here: {} are all unlabelled points next to the previous move",
                        many.iter()
                            .map(|&q| board.point_name(q))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))),
                }
            }
        }
    }
}

/// What a move string is played on: a position (the basic ko ban, a tenuki
/// is a pass) or a game in progress (its rule set, a tenuki a stone
/// elsewhere).
pub trait Playable: Clone {
    fn board(&self) -> &Position;
    fn step(&self, step: Step) -> Result<Self, IllegalMove>;
}

impl Playable for Position {
    fn board(&self) -> &Position {
        self
    }
    fn step(&self, step: Step) -> Result<Self, IllegalMove> {
        match step {
            Step::Move(mv) => self.play_move(mv),
            Step::Elsewhere(colour) => self.play_move(Move {
                colour,
                point: None,
            }),
            Step::Act(_, word) => Err(IllegalMove::NotAMoveHere { word, rules: None }),
        }
    }
}

impl Playable for Game {
    fn board(&self) -> &Position {
        self.position()
    }
    fn step(&self, step: Step) -> Result<Self, IllegalMove> {
        match step {
            Step::Move(mv) => self.play(mv),
            Step::Elsewhere(colour) => self.play_elsewhere(colour),
            Step::Act(colour, m) => self.act(colour, m),
        }
    }
}

/// Plays a move string on a position (see the module docs).
pub fn play(pos: &Position, moves: &str) -> Result<Position, MoveError> {
    play_with(pos, moves)
}

/// Plays a move string on a game in progress ([`Game::play`]: turn order
/// and the game's ko rule); `t` is a stone elsewhere, `pass` / `p` a pass.
pub fn play_game(game: &Game, moves: &str) -> Result<Game, MoveError> {
    play_with(game, moves)
}

/// Every state of a move string played from `start`: the start, then the
/// state after each move.
pub fn play_line<T: Playable>(start: &T, moves: &str) -> Result<Vec<T>, MoveError> {
    let parsed = parse_moves(start.board(), moves)?;
    let mut line = vec![start.clone()];
    for (i, w) in parsed.into_iter().enumerate() {
        let current = line.last().expect("the start");
        let last = (i > 0).then(|| (line[i - 1].board(), current.board()));
        let fail = |kind| MoveError {
            index: i + 1,
            text: w.text.clone(),
            span: w.span.clone(),
            kind,
        };
        let step = w.resolve(current.board(), last).map_err(fail)?;
        let next = current
            .step(step)
            .map_err(|why| fail(MoveErrorKind::Illegal(why)))?;
        line.push(next);
    }
    Ok(line)
}

/// Plays the moves of `moves` one by one from `start`.
fn play_with<T: Playable>(start: &T, moves: &str) -> Result<T, MoveError> {
    Ok(play_line(start, moves)?.pop().expect("the start"))
}

/// The state before move `index` (from 1) of a move string that failed
/// there, for the note under the error.
pub fn state_before<T: Playable>(start: &T, moves: &str, index: usize) -> Option<T> {
    let parsed = parse_moves(start.board(), moves).ok()?;
    let n = index.saturating_sub(1).min(parsed.len());
    let mut line = vec![start.clone()];
    for (i, w) in parsed.iter().take(n).enumerate() {
        let current = line.last()?;
        let last = (i > 0).then(|| (line[i - 1].board(), current.board()));
        let next = current.step(w.resolve(current.board(), last).ok()?).ok()?;
        line.push(next);
    }
    line.pop()
}

/// Parses a move string against the points of a position.
pub fn parse_moves(pos: &Position, s: &str) -> Result<Vec<WrittenMove>, MoveError> {
    let bytes = s.as_bytes();
    let mut out: Vec<WrittenMove> = Vec::new();
    let mut i = 0;
    let syntax = |at: usize, count: usize, msg: String| MoveError {
        index: count + 1,
        text: s[at..].chars().take(12).collect(),
        // The character at `at` (whole, if it takes several bytes).
        span: at..s[at..].chars().next().map_or(at, |c| at + c.len_utf8()),
        kind: MoveErrorKind::Syntax(msg),
    };
    let is_sep = |b: u8| b.is_ascii_whitespace() || b == b',' || b == b';';
    while i < bytes.len() {
        if is_sep(bytes[i]) {
            i += 1;
            continue;
        }
        let colour = match bytes[i] {
            b'B' => Colour::Black,
            b'W' => Colour::White,
            _ => {
                let c = s[i..].chars().next().unwrap_or(' ');
                return Err(syntax(
                    i,
                    out.len(),
                    format!("expected `B` or `W` to start a move, found `{c}`"),
                ));
            }
        };
        let item_start = i;
        i += 1;
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        if let Some((point, end)) = sgf_bracket(pos, s, i) {
            let span = i..end;
            let text = format!("{} {}", colour.letter(), &s[i..end]);
            let point = point.map_err(|kind| MoveError {
                index: out.len() + 1,
                text: text.clone(),
                span: span.clone(),
                kind,
            })?;
            out.push(WrittenMove {
                mv: Move { colour, point },
                special: None,
                span,
                text,
                how: How::Exact,
                marks: String::new(),
            });
            i = end;
            if i < bytes.len() && !is_sep(bytes[i]) {
                return Err(syntax(
                    i,
                    out.len(),
                    "expected `,` or a space after a move".into(),
                ));
            }
            continue;
        }
        if i < bytes.len() && bytes[i] == b'[' {
            i += 1;
            let mut turn = colour;
            let mut count_in_bracket = 0;
            loop {
                if i >= bytes.len() {
                    return Err(syntax(item_start, out.len(), "`[` without `]`".into()));
                }
                let c = s[i..].chars().next().unwrap_or(' ');
                if c == ']' {
                    i += 1;
                    break;
                }
                if c.is_whitespace() {
                    i += c.len_utf8();
                    continue;
                }
                let span = i..i + c.len_utf8();
                let text = format!("{} {c}", turn.letter());
                let index = out.len() + 1;
                let fail = |kind| MoveError {
                    index,
                    text: text.clone(),
                    span: span.clone(),
                    kind,
                };
                let (point, how) = match c {
                    't' => {
                        resolve_letter(pos, 't').map_err(fail)?;
                        (None, How::Tenuki)
                    }
                    'p' if pos.label_point('p').is_none() => (None, How::Exact),
                    'M' => (None, How::MouthM),
                    c if c.is_ascii_lowercase() => match resolve_letter(pos, c).map_err(fail)? {
                        Some(p) => (Some(p), How::Mouth(p)),
                        None => (None, How::Tenuki),
                    },
                    _ => {
                        return Err(fail(MoveErrorKind::Syntax(format!(
                            "`{c}` in a move sequence: only point labels, `t` (tenuki), `p` (pass) \
                             and `M` (the play in the ko mouth) may appear between `[` and `]`"
                        ))))
                    }
                };
                out.push(WrittenMove {
                    mv: Move {
                        colour: turn,
                        point,
                    },
                    special: None,
                    span,
                    text,
                    how,
                    marks: String::new(),
                });
                count_in_bracket += 1;
                turn = turn.opponent();
                i += c.len_utf8();
            }
            if count_in_bracket == 0 {
                return Err(syntax(
                    item_start,
                    out.len(),
                    "empty move sequence `[]`".into(),
                ));
            }
            let marks_from = i;
            while i < bytes.len() && (bytes[i] == b'#' || bytes[i] == b'*') {
                i += 1;
            }
            if let Some(last) = out.last_mut() {
                last.marks = s[marks_from..i].to_string();
            }
            if i < bytes.len() && !is_sep(bytes[i]) {
                return Err(syntax(
                    i,
                    out.len(),
                    "expected `,` or a space after `]`".into(),
                ));
            }
            continue;
        }
        // A single point: a word or (row,col).
        let start = i;
        let index = out.len() + 1;
        if i < bytes.len() && bytes[i] == b'(' {
            let Some(close) = s[i..].find(')') else {
                return Err(syntax(i, out.len(), "`(` without `)`".into()));
            };
            let inner = &s[i + 1..i + close];
            i += close + 1;
            let span = start..i;
            let text = format!("{} {}", colour.letter(), &s[start..i]);
            let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
            let coords = match parts.as_slice() {
                [r, c] => r.parse::<usize>().ok().zip(c.parse::<usize>().ok()),
                _ => None,
            };
            let Some((r, c)) = coords else {
                return Err(MoveError {
                    index,
                    text,
                    span,
                    kind: MoveErrorKind::Syntax(
                        "a point is written `(row,col)` with numbers counted from 1".into(),
                    ),
                });
            };
            let point = (r >= 1 && c >= 1)
                .then(|| pos.index(r - 1, c - 1))
                .flatten()
                .ok_or_else(|| MoveError {
                    index,
                    text: text.clone(),
                    span: span.clone(),
                    kind: MoveErrorKind::UnknownPoint(format!("({r},{c})")),
                })?;
            out.push(WrittenMove {
                mv: Move {
                    colour,
                    point: Some(point),
                },
                special: None,
                span,
                text,
                how: How::Exact,
                marks: String::new(),
            });
        } else {
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            // `C3`: one letter and a row number is a board coordinate.
            if i == start + 1 {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let word = &s[start..i];
            let span = start..i;
            let text = format!("{} {word}", colour.letter());
            if word.is_empty() {
                return Err(syntax(
                    item_start,
                    out.len(),
                    "a colour must be followed by a point, `t`, or `[…]`".into(),
                ));
            }
            let special = match word {
                "delay" => Some(Special::Delay),
                "ultimate" => Some(Special::Ultimate),
                "draw" => Some(Special::Draw),
                "resign" => Some(Special::Resign),
                _ => None,
            };
            let tenuki = matches!(word, "t" | "tenuki");
            let point = match word {
                "pass" | "tenuki" => None,
                _ if special.is_some() => None,
                w if w.len() == 1 && w.as_bytes()[0].is_ascii_lowercase() => {
                    resolve_letter(pos, w.as_bytes()[0] as char).map_err(|kind| MoveError {
                        index,
                        text: text.clone(),
                        span: span.clone(),
                        kind,
                    })?
                }
                w if w.len() > 1 && w.as_bytes()[1].is_ascii_digit() => {
                    Some(go_point(pos, w).map_err(|kind| MoveError {
                        index,
                        text: text.clone(),
                        span: span.clone(),
                        kind,
                    })?)
                }
                w => {
                    return Err(MoveError {
                        index,
                        text,
                        span,
                        kind: MoveErrorKind::UnknownPoint(w.to_string()),
                    })
                }
            };
            out.push(WrittenMove {
                mv: Move { colour, point },
                special,
                span,
                text,
                how: match special {
                    Some(m) => How::Special(m),
                    None if tenuki => How::Tenuki,
                    None => How::Exact,
                },
                marks: String::new(),
            });
        }
        if i < bytes.len() && !is_sep(bytes[i]) {
            return Err(syntax(
                i,
                out.len(),
                "expected `,` or a space after a move".into(),
            ));
        }
    }
    Ok(out)
}

/// A Go coordinate (`C3`) in a move, on the board the position lies on.
fn go_point(pos: &Position, word: &str) -> Result<usize, MoveErrorKind> {
    let origin = pos.board_origin();
    let (row, col) = coords::parse_go(word, origin.board_width, origin.board_height)
        .map_err(|e| MoveErrorKind::Coordinate(word.to_string(), e))?;
    pos.board_point(row, col)
        .ok_or_else(|| MoveErrorKind::UnknownPoint(word.to_string()))
}

/// An SGF point in brackets at `at` (`[cc]`, `[]` or, on boards of at most
/// 19 lines, FF[3]'s `[tt]` for a pass), with the byte offset after `]`.
/// Only on a position that lies on a board ([`Position::origin`]), and only
/// when the brackets do not read as Jasiek's sequence of labels: when
/// both letters are labels of the diagram (or `t`), `B[ab]` stays the
/// sequence `B a, W b`.
fn sgf_bracket(
    pos: &Position,
    s: &str,
    at: usize,
) -> Option<(Result<Option<usize>, MoveErrorKind>, usize)> {
    let origin = pos.origin()?;
    let rest = s.get(at..)?.strip_prefix('[')?;
    let close = rest.find(']')?;
    let inner = &rest[..close];
    let end = at + close + 2;
    if inner.is_empty() {
        return Some((Ok(None), end));
    }
    let letters: Vec<char> = inner.chars().collect();
    if letters.len() != 2 || !letters.iter().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let is_label = |c: char| c == 't' || c == 'M' || pos.label_point(c).is_some();
    if letters.iter().all(|&c| is_label(c)) && inner != "tt" {
        return None;
    }
    if inner == "tt" && origin.board_width <= 19 && origin.board_height <= 19 {
        return Some((Ok(None), end));
    }
    let point = coords::parse_sgf(inner, origin.board_width, origin.board_height)
        .map_err(|e| MoveErrorKind::Coordinate(format!("[{inner}]"), e))
        .and_then(|(row, col)| {
            pos.board_point(row, col)
                .ok_or_else(|| MoveErrorKind::UnknownPoint(format!("[{inner}]")))
        });
    Some((point.map(Some), end))
}

/// A lowercase letter in a move: `t` is a tenuki, any other letter a label.
fn resolve_letter(pos: &Position, c: char) -> Result<Option<usize>, MoveErrorKind> {
    if c == 't' {
        return if pos.label_point('t').is_some() {
            Err(MoveErrorKind::AmbiguousT)
        } else {
            Ok(None)
        };
    }
    match pos.label_point(c) {
        Some(p) => Ok(Some(p)),
        None => Err(MoveErrorKind::UnknownPoint(c.to_string())),
    }
}
