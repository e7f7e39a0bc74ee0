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
//!   both letters are labels of the diagram, the brackets are seed 004's
//!   sequence below;
//! * `B[abt]` (seed 004's notation): a sequence of moves starting with the
//!   given colour and alternating, one letter per move, `t` a tenuki. The
//!   annotations `#` and `*` that seed 004 writes after the bracket are
//!   accepted and ignored.
//!
//! `t` always means tenuki; when the diagram also labels a point `t`, a bare
//! `t` is an error (write the point as `(row,col)`, the tenuki as `pass`).

use super::coords::{self, CoordError};
use super::game::Game;
use super::position::{Colour, IllegalMove, Move, Position};
use super::ultimate::{RuleBreak, Special};
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
        }
    }
}

impl std::error::Error for MoveError {}

/// A parsed move with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    pub mv: Move,
    /// `delay`, `ultimate`, `draw`, `resign` (Ultimate Go): `mv.point` is
    /// then `None`.
    pub special: Option<Special>,
    pub span: Range<usize>,
    pub text: String,
}

/// Plays a move string on a position (see the module docs).
pub fn play(pos: &Position, moves: &str) -> Result<Position, MoveError> {
    play_with(pos, pos, moves, Position::play_move)
}

/// Plays a move string on a game in progress ([`Game::play`]: turn order
/// and the game's ko rule; a tenuki is a pass; `delay`, `ultimate`, `draw`
/// and `resign` through [`Game::act`]).
pub fn play_game(game: &Game, moves: &str) -> Result<Game, MoveError> {
    let parsed = parse_moves(game.position(), moves)?;
    let mut current = game.clone();
    for (i, w) in parsed.into_iter().enumerate() {
        let next = match w.special {
            Some(m) => current.act(w.mv.colour, m),
            None => current.play(w.mv),
        };
        current = next.map_err(|why| MoveError {
            index: i + 1,
            text: w.text.clone(),
            span: w.span.clone(),
            kind: MoveErrorKind::Illegal(why),
        })?;
    }
    Ok(current)
}

/// The game before move `index` (from 1) of a move string that failed
/// there, for the note under the error.
pub fn game_before(game: &Game, moves: &str, index: usize) -> Option<Game> {
    let parsed = parse_moves(game.position(), moves).ok()?;
    let mut current = game.clone();
    for w in parsed.iter().take(index.saturating_sub(1)) {
        current = match w.special {
            Some(m) => current.act(w.mv.colour, m),
            None => current.play(w.mv),
        }
        .ok()?;
    }
    Some(current)
}

/// Plays the moves of `moves` (parsed against the points of `points`) one
/// by one from `start` with `step`.
fn play_with<T: Clone>(
    start: &T,
    points: &Position,
    moves: &str,
    step: impl Fn(&T, Move) -> Result<T, IllegalMove>,
) -> Result<T, MoveError> {
    let parsed = parse_moves(points, moves)?;
    let mut current = start.clone();
    for (i, w) in parsed.into_iter().enumerate() {
        if let Some(m) = w.special {
            return Err(MoveError {
                index: i + 1,
                text: w.text.clone(),
                span: w.span.clone(),
                kind: MoveErrorKind::Illegal(IllegalMove::NoPass(RuleBreak::NotNoPass(m))),
            });
        }
        current = step(&current, w.mv).map_err(|why| MoveError {
            index: i + 1,
            text: w.text.clone(),
            span: w.span.clone(),
            kind: MoveErrorKind::Illegal(why),
        })?;
    }
    Ok(current)
}

/// The state before move `index` (from 1) of a move string that failed
/// there: its first `index − 1` moves played from `start` with `step`
/// (`play` or `play_game`'s step), for the note under the error.
pub fn state_before<T: Clone>(
    start: &T,
    points: &Position,
    moves: &str,
    index: usize,
    step: impl Fn(&T, Move) -> Result<T, IllegalMove>,
) -> Option<T> {
    let parsed = parse_moves(points, moves).ok()?;
    let mut current = start.clone();
    for w in parsed.iter().take(index.saturating_sub(1)) {
        current = step(&current, w.mv).ok()?;
    }
    Some(current)
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
                let point = if c.is_ascii_lowercase() {
                    resolve_letter(pos, c).map_err(|kind| MoveError {
                        index,
                        text: text.clone(),
                        span: span.clone(),
                        kind,
                    })?
                } else {
                    return Err(MoveError {
                        index,
                        text,
                        span,
                        kind: MoveErrorKind::Syntax(format!(
                            "`{c}` in a move sequence: only point labels and `t` (tenuki) may \
                             appear between `[` and `]`"
                        )),
                    });
                };
                out.push(WrittenMove {
                    mv: Move {
                        colour: turn,
                        point,
                    },
                    special: None,
                    span,
                    text,
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
            while i < bytes.len() && (bytes[i] == b'#' || bytes[i] == b'*') {
                i += 1;
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
/// when the brackets do not read as seed 004's sequence of labels: when
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
    let is_label = |c: char| c == 't' || pos.label_point(c).is_some();
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
