//! SGF (Smart Game Format) files: reading a game record into a [`Game`],
//! writing a game (and a solved line) back out.
//!
//! No IO here: [`parse`] and [`read`] take the text of a file and report
//! errors as byte ranges of that text ([`SgfError::span`]); the interpreter
//! reads the file and turns the range into `file:line:column`.
//!
//! # Why a hand-written reader
//!
//! The `sgf-parse` crate (4.x) is well kept, but its errors and nodes carry
//! no source positions: it could not say at which line and column a file is
//! malformed, nor point at the value of an illegal move. SGF's grammar is
//! tiny (FF\[4\], "EBNF definition"):
//!
//! ```text
//! Collection = GameTree { GameTree }
//! GameTree   = "(" Sequence { GameTree } ")"
//! Sequence   = Node { Node }
//! Node       = ";" { Property }
//! Property   = PropIdent PropValue { PropValue }
//! PropIdent  = UcLetter { UcLetter }
//! PropValue  = "[" CValueType "]"
//! ```
//!
//! so [`parse`] reads it by hand, without recursion (a file of a million
//! nested variations does not overflow the stack), and keeps the byte span
//! of every property value. `sgf-parse` is a dev-dependency: the tests
//! compare its parse of the files we write and of hand-written FF\[3\] and
//! FF\[4\] files with ours.
//!
//! Values: `\` escapes the next character, and `\` before a line break
//! removes the break (a soft line break). Text before the first `(` is
//! skipped (mail headers, as SGF readers do). After the last game tree only
//! whitespace may follow: anything else (a stray `)`, a node outside any
//! tree, other text) is an error at its first character, since it is part
//! of the game its author meant and reading on without it would give
//! another. A collection may hold several game trees `(;…)(;…)`: each is
//! parsed (so each must be well formed), [`read`] reads the first and
//! notes that the others are not read.
//!
//! Limits: at most [`MAX_NODES`] nodes in a collection and
//! [`MAX_LINE_MOVES`] moves replayed along a line (each an error at the
//! first past the limit), so that no file, however made, costs gigabytes
//! or hours.
//!
//! FF\[3\] files are read too: property identifiers may contain lowercase
//! letters (`AddBlack[..]` is `AB`: the lowercase letters are skipped), and
//! `[tt]` is a pass on boards of at most 19 × 19 (as is `[]`, FF\[4\]).
//!
//! # What [`read`] makes of a file
//!
//! The first game tree of the collection is read along one line of play
//! (the *main line*: the first child of every node, unless
//! [`ReadOptions::variation`] says otherwise), and gives a [`Game`]:
//!
//! * `SZ[19]`, `SZ[9]`, `SZ[13:9]` (columns:rows, FF\[4\]): the board, 19 × 19
//!   when missing; at most 19 lines either way. `GM` must be 1 (Go) when
//!   present.
//! * `AB`, `AW`, `AE` (setup; single points or FF\[4\] rectangles `aa:cc`),
//!   in the root or in any later node: the game restarts from the board
//!   with the stones added (`AB`, `AW`) or the points cleared (`AE`)
//!   ([`Game`] keeps the moves since the last setup as its history, and
//!   numbers its moves from the root all the same:
//!   [`Game::move_number`]). A setup stone whose chain has no liberty is
//!   an error at that value; so is a point set up twice in one node
//!   (`AB[cc]AW[cc]`: FF\[4\] makes the points of a node's setup unique),
//!   at the second. Setup and a move in one node (`;B[cc]AE[cc]`) are an
//!   error at the first setup value: FF\[4\] keeps setup and move
//!   properties in separate nodes and does not say which would come
//!   first, so the author is asked to split the node rather than guessed
//!   at. (`PL`, a setup property too, is allowed beside a move: it only
//!   names the player of that move.)
//! * `B`, `W`: moves, replayed with [`Game::play`] (captures, suicide and
//!   the ko rule of the file's rules). An illegal move is an error at its
//!   value naming the rule. SGF does not require alternation: a move by the
//!   player who is not to move is played as if `PL` had given the turn to
//!   that player. `[]` (and `[tt]`, see above) is a pass. A node holds
//!   one move (FF\[4\]); a second is an error at its value.
//! * `PL[B]`/`PL[W]`: the player to move. Without it Black moves first,
//!   except in a handicap game: `HA[n]` (n ≥ 2) with Black's setup stones
//!   in the root gives White the first move, as Go players do after
//!   placing handicap stones (a `PL` in the root still decides, and a
//!   move decides the turn after it). `KM[6.5]`: komi, as an exact
//!   rational (13/2); 0 when missing. `RU`: `Japanese` / `Korean` (territory,
//!   basic ko), `Chinese` and `GOE` / `Ing` / `Tromp-Taylor` (area,
//!   positional superko), `AGA` / `NZ` / `New Zealand` (area, situational
//!   superko); any other text is ignored with a note.
//! * `LB[cc:a]`: labels. A [`Position`] labels points with one character,
//!   so single lowercase letters are kept (they name points in move
//!   strings: `B a`); other labels are ignored with a note.
//! * Marks on stones say what the user declares of them ([`Status`]): `MA`
//!   (a cross, ×) marks a stone **dead**, `SQ` (a square, □) marks it
//!   **safe**. `TR` and `CR` (triangle, circle) are only highlighting and
//!   are ignored, as are marks on empty points. A later mark on the same
//!   stone replaces an earlier one; a mark goes with its stone (captured,
//!   it is dropped). Territory marks, as servers write them when a game is
//!   scored, say the same of the stones in it: a white stone on a `TB`
//!   point and a black stone on a `TW` point are marked **dead**.
//! * Every other property (game information, comments, …)
//!   is kept in the parsed tree ([`Collection`]) and ignored; an unknown
//!   identifier is not an error.
//!
//! [`ReadOptions::move_number`] stops the line after its `N`th move node
//! (move nodes counted from the root, passes included): the position is the
//! one that node shows, with the nodes after it that only annotate it
//! (comments, marks, labels); a later node that sets up the board (`AB`,
//! `AW`, `AE`, `PL`) belongs to the next move, as the setup stands before
//! it in the sequence. 0 is the position before the first move: the root
//! and every setup node before the first move. [`ReadOptions::variation`]
//! picks the line: at the `k`th
//! node along the line that has several children, the child at index
//! `variation[k]` (from 0) is followed, the first child past the end of the
//! list. Asking for a move or a child the file does not have is an error
//! (so is a list longer than the number of branching nodes on the line),
//! not a silent fall-back to the main line.
//!
//! # What [`write()`] makes of a game
//!
//! One game tree: the root carries `FF[4]GM[1]CA[UTF-8]AP[yose:0.1]`, the
//! size, komi, rules, the player to move first and the start's stones as
//! setup; then one node per move of the game; the marks (`SQ` safe, `MA`
//! dead) and the single-letter labels of the current board go on the last
//! node. A solved line is written after the last node, in parentheses, its
//! first node carrying the comment (`C[...]`) that gives the score. The
//! game's last node then has that one child, and in SGF a node with one
//! child has no variation: the line is the continuation of the main line,
//! and reading the file back gives the position after the line (the
//! game's own position is the one after its moves: `move_number` set to
//! them). Standard editors open it; the tests read it back with [`read`]
//! and with `sgf-parse`.
//!
//! What SGF cannot say is not written, so it does not read back: prisoners
//! taken before the game's start (a game made from a position after
//! captures: SGF has no property for them, and a file's game starts with
//! none), a ko rule that `RU` does not name with the scoring (`RU` is
//! written from the scoring: `Japanese` reads back with the basic ko rule,
//! `Chinese` with positional superko, `AGA` with situational superko), a
//! komi that is not a decimal (written to six places), and a tenuki `t`
//! (written as a pass).

use super::coords::{self, CoordError, MAX_BOARD};
use super::game::{Game, RuleSet, Status};
use super::position::{Cell, Colour, IllegalMove, Move, Position};
use super::search::{KoRule, Rules};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt;
use std::ops::Range;

/// The most nodes [`parse`] reads (a node costs about a hundred bytes:
/// a 16 MiB file of bare `;` would otherwise take gigabytes).
pub const MAX_NODES: usize = 1_000_000;

/// The most moves [`read`] replays along a line: real games have a few
/// hundred; every move of a [`Game`] is checked against its whole history,
/// so a file of millions of moves would take hours.
pub const MAX_LINE_MOVES: usize = 5_000;

// ---------------------------------------------------------------- errors

/// What is wrong with an SGF text, and where: `span` is a byte range of the
/// text (the character, property or value at fault).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    pub span: Range<usize>,
    pub kind: SgfErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfErrorKind {
    /// No `(` starting a game tree.
    NoGameTree,
    /// A character that has no place here.
    Unexpected(char),
    /// `(` not followed by a node.
    EmptyTree,
    /// A node after the variations of a sequence: `(;B[aa](;W[bb]);B[cc])`.
    NodeAfterVariation,
    /// A `(` that is never closed (the span is the `(`).
    UnclosedTree,
    /// A `[` that is never closed (the span is the `[`).
    UnclosedValue,
    /// A property identifier with no value after it.
    NoValue(String),
    /// A property identifier with no uppercase letter.
    BadIdentifier(String),
    /// `GM[n]` with n ≠ 1: not a game of Go.
    NotGo(String),
    /// A malformed `SZ`.
    BadSize(String),
    /// A board larger than 19 × 19 (or with no point).
    TooLarge { width: usize, height: usize },
    /// A point that is malformed or off the board.
    BadPoint(String, CoordError),
    /// A malformed number (`KM`).
    BadNumber { property: String, text: String },
    /// A malformed colour (`PL`).
    BadColour(String),
    /// After a setup, the chain through the stone at `point` has no
    /// liberty (the span is the setup value that left it so).
    SetupNoLiberty { colour: Colour, point: String },
    /// A move that breaks a rule: `number` counts the moves of the line
    /// from 1, `text` is the move as written (`W[cc]`).
    Illegal {
        number: usize,
        text: String,
        why: IllegalMove,
    },
    /// A second move in one node (FF\[4\]: a node holds at most one `B` or
    /// `W`; the span is the second's value).
    TwoMoves { first: String, second: String },
    /// [`ReadOptions::move_number`] beyond the end of the line.
    NoSuchMove { asked: usize, moves: usize },
    /// [`ReadOptions::variation`] asks for a child that the branching node
    /// (the span is its `;`) does not have.
    NoSuchVariation {
        branch: usize,
        index: usize,
        children: usize,
    },
    /// More than [`MAX_NODES`] nodes in the collection (the span is the
    /// `;` of the first past the limit).
    TooManyNodes,
    /// More than [`MAX_LINE_MOVES`] moves on the line (the span is the
    /// first move past the limit).
    TooManyMoves,
    /// [`ReadOptions::variation`] names a child at more branching nodes
    /// than the line it picks has.
    TooFewBranches { asked: usize, branches: usize },
    /// Text after the last game tree that is not whitespace (the span is
    /// its first character): a stray `)`, a node or other text.
    AfterLastTree(char),
    /// A point set up twice in one node (FF\[4\]: the points of `AB`, `AW`
    /// and `AE` in a node are unique; the span is the second value).
    SetupTwice {
        point: String,
        first: String,
        second: String,
    },
    /// Setup (`AB`, `AW`, `AE`) in the node of a move (FF\[4\]: setup and
    /// move properties are not mixed in one node; the span is the first
    /// setup value).
    SetupWithMove { setup: String, mv: String },
}

impl fmt::Display for SgfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SgfErrorKind::*;
        match self {
            NoGameTree => write!(f, "no SGF game tree: an SGF file starts with `(;`"),
            Unexpected(c) => write!(
                f,
                "unexpected `{}` (SGF expects `(`, `;`, `)`, a property name such as `B` or a value in `[…]`)",
                c.escape_default()
            ),
            EmptyTree => write!(f, "a game tree must start with a node: `(` is followed by `;`"),
            NodeAfterVariation => write!(
                f,
                "a node after the variations of a sequence (nodes come before the `(…)` variations)"
            ),
            UnclosedTree => write!(f, "this game tree is never closed (a `)` is missing)"),
            UnclosedValue => write!(f, "this value is never closed (a `]` is missing)"),
            NoValue(id) => write!(f, "the property `{id}` has no value (`{id}[…]`)"),
            BadIdentifier(id) => write!(
                f,
                "`{id}` is not a property name (SGF names are uppercase letters)"
            ),
            NotGo(gm) => write!(f, "`GM[{gm}]` is not a game of Go (GM[1])"),
            BadSize(s) => write!(
                f,
                "bad board size `SZ[{s}]` (a number such as `19`, or `columns:rows`)"
            ),
            TooLarge { width, height } => write!(
                f,
                "a board has 1 to {MAX_BOARD} lines each way; this one is {width}×{height}"
            ),
            BadPoint(text, why) => write!(f, "{} is not a point of the board: {why}", short(text)),
            BadNumber { property, text } => {
                write!(f, "`{property}[{text}]` is not a number (such as `6.5`)")
            }
            BadColour(text) => write!(f, "`PL[{text}]` is not a colour (`B` or `W`)"),
            SetupNoLiberty { colour, point } => write!(
                f,
                "after this setup the {} chain at {point} has no liberty",
                colour.to_string().to_lowercase()
            ),
            Illegal { number, text, why } => {
                write!(f, "move {number} `{text}` is illegal: {why}")
            }
            TwoMoves { first, second } => write!(
                f,
                "`{second}` is a second move in the node of `{first}` (an SGF node holds one move; \
                 put each in its own node: `;{first};{second}`)"
            ),
            NoSuchMove { asked, moves } => write!(
                f,
                "no move {asked}: this line of the file has {moves} move{}",
                if *moves == 1 { "" } else { "s" }
            ),
            NoSuchVariation {
                branch,
                index,
                children,
            } => write!(
                f,
                "no variation {} at branch {} of the line: this node has {children} children",
                index + 1,
                branch + 1
            ),
            TooManyNodes => write!(
                f,
                "more than {MAX_NODES} nodes: too large an SGF collection for yose"
            ),
            TooManyMoves => write!(
                f,
                "more than {MAX_LINE_MOVES} moves on this line (yose replays at most that many; \
                 read an earlier position with `move: N`)"
            ),
            AfterLastTree(c) => write!(
                f,
                "unexpected `{}` after the last game tree (an SGF file holds game trees `(;…)`; \
                 only whitespace may follow the last)",
                c.escape_default()
            ),
            SetupTwice {
                point,
                first,
                second,
            } => write!(
                f,
                "{point} is set up twice in one node (`{first}`, then `{second}`): \
                 the points of `AB`, `AW` and `AE` in a node are unique"
            ),
            SetupWithMove { setup, mv } => write!(
                f,
                "`{setup}` sets up the board in the node of the move `{mv}`: SGF keeps setup \
                 (`AB`, `AW`, `AE`) and moves in separate nodes; put it in a node of its own, \
                 before the move (`;{setup};{mv}`) or after it (`;{mv};{setup}`)"
            ),
            TooFewBranches { asked, branches } => write!(
                f,
                "the variation picks a child at {asked} branching node{}, but the line has {branches}",
                if *asked == 1 { "" } else { "s" }
            ),
        }
    }
}

/// A value as messages quote it: `[cc]`, or `[…]` when it is long or
/// spans lines.
fn short(text: &str) -> String {
    if text.chars().count() <= 12 && !text.contains(['\n', '\r']) {
        format!("`[{text}]`")
    } else {
        "this value".to_string()
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.kind, self.span.start)
    }
}

impl std::error::Error for SgfError {}

fn error(span: Range<usize>, kind: SgfErrorKind) -> SgfError {
    SgfError { span, kind }
}

// ------------------------------------------------------------------ tree

/// One value of a property: the text decoded (escapes removed) and the
/// byte span of what stands between the brackets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropValue {
    pub text: String,
    pub span: Range<usize>,
}

/// A property: its identifier (uppercase letters only, FF\[3\] lowercase
/// letters dropped) and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub ident: String,
    pub ident_span: Range<usize>,
    pub values: Vec<PropValue>,
}

/// A node: its properties and children (indices into
/// [`Collection::nodes`]); `offset` is the byte offset of its `;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub props: Vec<Property>,
    pub children: Vec<usize>,
    pub offset: usize,
}

impl Node {
    /// The first property with this identifier.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.ident == ident)
    }
}

/// A parsed SGF collection: every node in one array, and the root node of
/// each game tree.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Collection {
    pub nodes: Vec<Node>,
    pub roots: Vec<usize>,
}

/// An open game tree while parsing.
struct Open {
    /// The node the tree hangs from (`None`: a root game tree).
    parent: Option<usize>,
    /// The last node of the tree's sequence so far.
    last: Option<usize>,
    /// Whether a variation `(…)` has been closed inside this tree.
    had_variation: bool,
    /// The byte offset of the `(`.
    open: usize,
}

/// Parses an SGF collection (see the module docs).
pub fn parse(text: &str) -> Result<Collection, SgfError> {
    let bytes = text.as_bytes();
    let mut out = Collection::default();
    // The collection starts at the first `(` followed by `;` (text before
    // it, such as a mail header, is skipped), else at the first `(`.
    let opens_tree = |&(i, _): &(usize, char)| text[i + 1..].trim_start().starts_with(';');
    let first = text.char_indices().filter(|&(_, c)| c == '(');
    let Some((first, _)) = first
        .clone()
        .find(opens_tree)
        .or_else(|| first.clone().next())
    else {
        return Err(error(0..0, SgfErrorKind::NoGameTree));
    };
    let mut stack: Vec<Open> = Vec::new();
    let mut i = first;
    while i < bytes.len() {
        let b = bytes[i];
        if stack.is_empty() && b != b'(' {
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            // A stray `)`, a node outside any tree or other text: the file
            // is not what its author meant (module docs).
            let c = text[i..].chars().next().unwrap_or('?');
            return Err(error(i..i + c.len_utf8(), SgfErrorKind::AfterLastTree(c)));
        }
        match b {
            b'(' => {
                let parent = match stack.last() {
                    None => None,
                    Some(top) => match top.last {
                        Some(n) => Some(n),
                        None => return Err(error(top.open..top.open + 1, SgfErrorKind::EmptyTree)),
                    },
                };
                stack.push(Open {
                    parent,
                    last: None,
                    had_variation: false,
                    open: i,
                });
                i += 1;
            }
            b')' => {
                let Some(top) = stack.pop() else { break };
                if top.last.is_none() {
                    return Err(error(top.open..top.open + 1, SgfErrorKind::EmptyTree));
                }
                if let Some(up) = stack.last_mut() {
                    up.had_variation = true;
                }
                i += 1;
            }
            b';' => {
                let Some(top) = stack.last_mut() else {
                    break;
                };
                if top.had_variation {
                    return Err(error(i..i + 1, SgfErrorKind::NodeAfterVariation));
                }
                let id = out.nodes.len();
                if id >= MAX_NODES {
                    return Err(error(i..i + 1, SgfErrorKind::TooManyNodes));
                }
                out.nodes.push(Node {
                    props: Vec::new(),
                    children: Vec::new(),
                    offset: i,
                });
                match top.last.or(top.parent) {
                    Some(p) => out.nodes[p].children.push(id),
                    None => out.roots.push(id),
                }
                top.last = Some(id);
                i += 1;
            }
            b if b.is_ascii_whitespace() => i += 1,
            b if b.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let written = &text[start..i];
                let ident: String = written.chars().filter(|c| c.is_ascii_uppercase()).collect();
                if ident.is_empty() {
                    return Err(error(
                        start..i,
                        SgfErrorKind::BadIdentifier(written.to_string()),
                    ));
                }
                let node = match stack.last() {
                    Some(Open {
                        last: Some(n),
                        had_variation: false,
                        ..
                    }) => *n,
                    _ => {
                        return Err(error(
                            start..i,
                            SgfErrorKind::Unexpected(bytes[start] as char),
                        ))
                    }
                };
                let mut values = Vec::new();
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= bytes.len() || bytes[i] != b'[' {
                        break;
                    }
                    let (value, end) = read_value(text, i)?;
                    values.push(value);
                    i = end;
                }
                if values.is_empty() {
                    return Err(error(
                        start..i.min(start + written.len()),
                        SgfErrorKind::NoValue(ident),
                    ));
                }
                out.nodes[node].props.push(Property {
                    ident,
                    ident_span: start..start + written.len(),
                    values,
                });
            }
            _ => {
                let c = text[i..].chars().next().unwrap_or('?');
                return Err(error(i..i + c.len_utf8(), SgfErrorKind::Unexpected(c)));
            }
        }
    }
    if let Some(top) = stack.last() {
        return Err(error(top.open..top.open + 1, SgfErrorKind::UnclosedTree));
    }
    if out.roots.is_empty() {
        return Err(error(first..first + 1, SgfErrorKind::EmptyTree));
    }
    Ok(out)
}

/// Reads the value whose `[` is at `open`: the decoded value and the offset
/// after its `]`.
fn read_value(text: &str, open: usize) -> Result<(PropValue, usize), SgfError> {
    let bytes = text.as_bytes();
    let mut decoded = String::new();
    let mut i = open + 1;
    let mut run = i;
    while i < bytes.len() {
        match bytes[i] {
            b']' => {
                decoded.push_str(&text[run..i]);
                let value = PropValue {
                    text: decoded,
                    span: open + 1..i,
                };
                return Ok((value, i + 1));
            }
            b'\\' => {
                decoded.push_str(&text[run..i]);
                i += 1;
                match bytes.get(i) {
                    None => break,
                    // A soft line break: `\` and the break are removed.
                    Some(b'\n') | Some(b'\r') => {
                        let pair = matches!(
                            (bytes[i], bytes.get(i + 1)),
                            (b'\n', Some(b'\r')) | (b'\r', Some(b'\n'))
                        );
                        i += if pair { 2 } else { 1 };
                    }
                    Some(_) => {
                        let c = text[i..].chars().next().unwrap_or(' ');
                        decoded.push(c);
                        i += c.len_utf8();
                    }
                }
                run = i;
            }
            _ => i += 1,
        }
    }
    Err(error(open..open + 1, SgfErrorKind::UnclosedValue))
}

// ------------------------------------------------------------------ read

/// Which position of the file [`read`] gives (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Stop after this many moves of the line (`None`: the whole line).
    pub move_number: Option<usize>,
    /// At each branching node along the line, the index (from 0) of the
    /// child to follow; past the end of the list, the first child.
    pub variation: Vec<usize>,
}

/// Something of the file that [`read`] ignored, worth telling the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfNote {
    pub span: Range<usize>,
    pub text: String,
}

/// What [`read`] gives: the game, the moves of the whole line in the file
/// (how far `move_number` may go), and notes on what was ignored.
#[derive(Clone, Debug)]
pub struct SgfGame {
    pub game: Game,
    pub line_moves: usize,
    pub notes: Vec<SgfNote>,
}

/// The board size of a root node.
fn board_size(root: &Node) -> Result<(usize, usize), SgfError> {
    if let Some(gm) = root.get("GM") {
        let v = &gm.values[0];
        if v.text.trim() != "1" {
            return Err(error(v.span.clone(), SgfErrorKind::NotGo(v.text.clone())));
        }
    }
    let Some(sz) = root.get("SZ") else {
        return Ok((19, 19));
    };
    let v = &sz.values[0];
    let bad = || error(v.span.clone(), SgfErrorKind::BadSize(v.text.clone()));
    let number = |s: &str| -> Result<usize, SgfError> {
        let s = s.trim();
        if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    let (width, height) = match v.text.split_once(':') {
        Some((w, h)) => (number(w)?, number(h)?),
        None => {
            let n = number(&v.text)?;
            (n, n)
        }
    };
    if width == 0 || height == 0 || width > MAX_BOARD || height > MAX_BOARD {
        return Err(error(
            v.span.clone(),
            SgfErrorKind::TooLarge { width, height },
        ));
    }
    Ok((width, height))
}

/// A decimal (`6.5`, `-0.5`, `7`, `+3.75`) as an exact rational.
fn decimal(text: &str) -> Option<BigRational> {
    let s = text.trim();
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole
        .bytes()
        .chain(frac.bytes())
        .all(|b| b.is_ascii_digit())
        || digits.len() > 40
    {
        return None;
    }
    let numer: BigInt = format!("{whole}{frac}0").parse().ok()?;
    let denom = BigInt::from(10).pow(frac.len() as u32 + 1);
    let x = BigRational::new(numer, denom);
    Some(if negative { -x } else { x })
}

/// The rule set named by `RU`, if known.
fn rule_set(text: &str) -> Option<RuleSet> {
    let name: String = text
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let (scoring, ko_rule) = match name.as_str() {
        "japanese" | "jp" | "korean" => (Rules::Japanese, KoRule::Basic),
        "chinese" | "cn" | "goe" | "ing" | "tromptaylor" => {
            (Rules::Chinese, KoRule::PositionalSuperko)
        }
        "aga" | "nz" | "newzealand" => (Rules::Chinese, KoRule::SituationalSuperko),
        _ => return None,
    };
    Some(RuleSet {
        scoring,
        ko_rule,
        nopass: None,
    })
}

/// The name `RU` gives a rule set when writing.
fn rule_name(rules: RuleSet) -> &'static str {
    match (rules.scoring, rules.ko_rule) {
        (Rules::Japanese, _) => "Japanese",
        (Rules::Chinese, KoRule::SituationalSuperko) => "AGA",
        (Rules::Chinese, _) => "Chinese",
    }
}

/// The board points of a point-list value: one point (`cc`) or a
/// rectangle (`aa:cc`); empty for `[]`.
fn points(v: &PropValue, width: usize, height: usize) -> Result<Vec<(usize, usize)>, SgfError> {
    let bad = |why| error(v.span.clone(), SgfErrorKind::BadPoint(v.text.clone(), why));
    let text = v.text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let (a, b) = text.split_once(':').unwrap_or((text, text));
    let (r1, c1) = coords::parse_sgf(a, width, height).map_err(bad)?;
    let (r2, c2) = coords::parse_sgf(b, width, height).map_err(bad)?;
    let mut out = Vec::new();
    for r in r1.min(r2)..=r1.max(r2) {
        for c in c1.min(c2)..=c1.max(c2) {
            out.push((r, c));
        }
    }
    Ok(out)
}

/// The point of a move value: `None` for a pass (`[]`, and `[tt]` on boards
/// of at most 19 × 19).
fn move_point(v: &PropValue, width: usize, height: usize) -> Result<Option<usize>, SgfError> {
    let text = v.text.trim();
    if text.is_empty() || (text == "tt" && width <= 19 && height <= 19) {
        return Ok(None);
    }
    let (r, c) = coords::parse_sgf(text, width, height)
        .map_err(|why| error(v.span.clone(), SgfErrorKind::BadPoint(v.text.clone(), why)))?;
    Ok(Some(r * width + c))
}

/// The line of nodes that `options.variation` picks from `root`.
fn line(collection: &Collection, root: usize, variation: &[usize]) -> Result<Vec<usize>, SgfError> {
    let mut out = vec![root];
    let mut branch = 0;
    let mut at = root;
    // Nodes are created in text order and children come after their
    // parent, so this walk ends.
    while let Some(node) = collection.nodes.get(at) {
        let next = match node.children.len() {
            0 => break,
            1 => node.children[0],
            n => {
                let index = variation.get(branch).copied().unwrap_or(0);
                if index >= n {
                    return Err(error(
                        node.offset..node.offset + 1,
                        SgfErrorKind::NoSuchVariation {
                            branch,
                            index,
                            children: n,
                        },
                    ));
                }
                branch += 1;
                node.children[index]
            }
        };
        if next <= at {
            break;
        }
        out.push(next);
        at = next;
    }
    if branch < variation.len() {
        let offset = collection.nodes.get(root).map_or(0, |n| n.offset);
        return Err(error(
            offset..offset + 1,
            SgfErrorKind::TooFewBranches {
                asked: variation.len(),
                branches: branch,
            },
        ));
    }
    Ok(out)
}

/// Reads the first game of an SGF text into a [`Game`] (see the module
/// docs).
pub fn read(text: &str, options: &ReadOptions) -> Result<SgfGame, SgfError> {
    let collection = parse(text)?;
    read_collection(&collection, options)
}

/// [`read`] on a collection already parsed.
pub fn read_collection(
    collection: &Collection,
    options: &ReadOptions,
) -> Result<SgfGame, SgfError> {
    let mut notes = Vec::new();
    let Some(root) = collection
        .roots
        .first()
        .and_then(|&r| collection.nodes.get(r))
    else {
        return Err(error(0..0, SgfErrorKind::NoGameTree));
    };
    let root_id = collection.roots[0];
    let (width, height) = board_size(root)?;
    let mut komi = BigRational::zero();
    if let Some(km) = root.get("KM") {
        let v = &km.values[0];
        if !v.text.trim().is_empty() {
            komi = decimal(&v.text).ok_or_else(|| {
                error(
                    v.span.clone(),
                    SgfErrorKind::BadNumber {
                        property: "KM".into(),
                        text: v.text.clone(),
                    },
                )
            })?;
        }
    }
    let mut rules = RuleSet::default();
    if let Some(ru) = root.get("RU") {
        let v = &ru.values[0];
        match rule_set(&v.text) {
            Some(r) => rules = r,
            None => notes.push(SgfNote {
                span: v.span.clone(),
                text: format!(
                    "unknown rules `{}` ignored: the game is scored under {}",
                    v.text,
                    rules.describe()
                ),
            }),
        }
    }
    // A handicap game's stones are placed in the root; White moves next
    // (module docs). `PL` in the root, applied below, still decides.
    let handicap = root
        .get("HA")
        .and_then(|ha| ha.values[0].text.trim().parse::<u32>().ok())
        .is_some_and(|n| n >= 2);
    let first = match handicap && root.get("AB").is_some() {
        true => Colour::White,
        false => Colour::Black,
    };
    let board = Position::empty(width, height);
    let mut game = Game::new(&board, first, komi, rules)
        .map_err(|_| error(0..0, SgfErrorKind::TooLarge { width, height }))?;
    let nodes = line(collection, root_id, &options.variation)?;
    let line_moves = nodes
        .iter()
        .filter(|&&n| {
            collection.nodes[n]
                .props
                .iter()
                .any(|p| p.ident == "B" || p.ident == "W")
        })
        .count();
    if let Some(asked) = options.move_number {
        if asked > line_moves {
            let span = collection.nodes[root_id].offset..collection.nodes[root_id].offset + 1;
            return Err(error(
                span,
                SgfErrorKind::NoSuchMove {
                    asked,
                    moves: line_moves,
                },
            ));
        }
    }
    if let Some(&second) = collection.roots.get(1) {
        let offset = collection.nodes[second].offset;
        notes.push(SgfNote {
            span: offset..offset + 1,
            text: format!(
                "the file holds {} game trees; yose reads the first",
                collection.roots.len()
            ),
        });
    }
    let mut played = 0;
    for &n in &nodes {
        let node = &collection.nodes[n];
        let has = |idents: &[&str]| {
            node.props
                .iter()
                .any(|p| idents.contains(&p.ident.as_str()))
        };
        // The position after move N is the one its node shows: the next
        // move, and a setup after move N (N ≥ 1), belong to what follows;
        // before the first move, setup nodes make the start.
        if let Some(m) = options.move_number {
            let next_move = has(&["B", "W"]) && played >= m;
            let next_setup = has(&["AB", "AW", "AE", "PL"]) && m >= 1 && played >= m;
            if next_move || next_setup {
                break;
            }
        }
        game = apply_node(game, node, width, height, &mut played, &mut notes)?;
    }
    Ok(SgfGame {
        game,
        line_moves,
        notes,
    })
}

/// Applies one node: player to move, setup, the move, marks and labels.
fn apply_node(
    mut game: Game,
    node: &Node,
    width: usize,
    height: usize,
    played: &mut usize,
    notes: &mut Vec<SgfNote>,
) -> Result<Game, SgfError> {
    let to_colour = |v: &PropValue| match v.text.trim() {
        "B" | "b" | "1" => Ok(Colour::Black),
        "W" | "w" | "2" => Ok(Colour::White),
        _ => Err(error(
            v.span.clone(),
            SgfErrorKind::BadColour(v.text.clone()),
        )),
    };
    if let Some(pl) = node.get("PL") {
        let colour = to_colour(&pl.values[0])?;
        let (komi, rules) = (game.komi().clone(), game.rules());
        game = game.with_settings(colour, komi, rules);
    }
    // Setup: every AB / AW / AE of the node at once, each point once.
    let mut changes: Vec<(usize, Cell, Range<usize>)> = Vec::new();
    let mut set_by: Vec<Option<String>> = vec![None; width * height];
    for prop in &node.props {
        let cell = match prop.ident.as_str() {
            "AB" => Cell::Stone(Colour::Black),
            "AW" => Cell::Stone(Colour::White),
            "AE" => Cell::Empty,
            _ => continue,
        };
        for v in &prop.values {
            let written = format!("{}[{}]", prop.ident, v.text);
            for (r, c) in points(v, width, height)? {
                let p = r * width + c;
                if let Some(first) = set_by[p].replace(written.clone()) {
                    return Err(error(
                        v.span.clone(),
                        SgfErrorKind::SetupTwice {
                            point: game.position().point_name(p),
                            first,
                            second: written,
                        },
                    ));
                }
                changes.push((p, cell, v.span.clone()));
            }
        }
    }
    let first_move = node.props.iter().find(|p| p.ident == "B" || p.ident == "W");
    if let (Some((p, _, span)), Some(mv)) = (changes.first(), first_move) {
        return Err(error(
            span.clone(),
            SgfErrorKind::SetupWithMove {
                setup: set_by[*p].clone().unwrap_or_default(),
                mv: format!("{}[{}]", mv.ident, mv.values[0].text),
            },
        ));
    }
    if !changes.is_empty() {
        let plain: Vec<(usize, Cell)> = changes.iter().map(|(p, c, _)| (*p, *c)).collect();
        game = game.with_setup(&plain);
        // Every setup stone's own chain first, then the chains next to
        // them, must keep a liberty; the value at fault is the stone's.
        let pos = game.position();
        for own in [true, false] {
            for (p, cell, span) in &changes {
                if !matches!(cell, Cell::Stone(_)) || pos.cell(*p) != *cell {
                    continue;
                }
                let check: Vec<usize> = if own {
                    vec![*p]
                } else {
                    pos.neighbours(*p).collect()
                };
                for q in check {
                    let Cell::Stone(colour) = pos.cell(q) else {
                        continue;
                    };
                    if pos.liberties(&pos.chain(q)).is_empty() {
                        return Err(error(
                            span.clone(),
                            SgfErrorKind::SetupNoLiberty {
                                colour,
                                point: pos.point_name(q),
                            },
                        ));
                    }
                }
            }
        }
    }
    // The move (one a node: a second is an error, since the move numbers
    // of `move: N` count nodes).
    let mut first_move: Option<String> = None;
    for prop in &node.props {
        let colour = match prop.ident.as_str() {
            "B" => Colour::Black,
            "W" => Colour::White,
            _ => continue,
        };
        let v = &prop.values[0];
        let written = format!("{}[{}]", prop.ident, v.text);
        if let Some(first) = first_move.replace(written.clone()) {
            return Err(error(
                v.span.clone(),
                SgfErrorKind::TwoMoves {
                    first,
                    second: written,
                },
            ));
        }
        let point = move_point(v, width, height)?;
        *played += 1;
        if *played > MAX_LINE_MOVES {
            return Err(error(v.span.clone(), SgfErrorKind::TooManyMoves));
        }
        if game.to_move() != colour {
            let (komi, rules) = (game.komi().clone(), game.rules());
            game = game.with_settings(colour, komi, rules);
        }
        game = game.play(Move { colour, point }).map_err(|why| {
            error(
                v.span.clone(),
                SgfErrorKind::Illegal {
                    number: *played,
                    text: format!("{}[{}]", prop.ident, v.text),
                    why,
                },
            )
        })?;
    }
    // Marks on stones, then labels. Territory (`TB`, `TW`) marks the
    // opponent's stones on it dead.
    for prop in &node.props {
        let (status, only) = match prop.ident.as_str() {
            "MA" => (Status::Dead, None),
            "SQ" => (Status::Safe, None),
            "TB" => (Status::Dead, Some(Colour::White)),
            "TW" => (Status::Dead, Some(Colour::Black)),
            _ => continue,
        };
        for v in &prop.values {
            for (r, c) in points(v, width, height)? {
                let p = r * width + c;
                if only.is_none_or(|colour| game.position().cell(p) == Cell::Stone(colour)) {
                    game.set_mark(p, Some(status));
                }
            }
        }
    }
    for prop in &node.props {
        if prop.ident != "LB" {
            continue;
        }
        for v in &prop.values {
            let Some((at, label)) = v.text.split_once(':') else {
                notes.push(SgfNote {
                    span: v.span.clone(),
                    text: format!("label `[{}]` ignored: a label is `[point:text]`", v.text),
                });
                continue;
            };
            let (r, c) = coords::parse_sgf(at.trim(), width, height).map_err(|why| {
                error(v.span.clone(), SgfErrorKind::BadPoint(at.to_string(), why))
            })?;
            let mut chars = label.chars();
            match (chars.next(), chars.next()) {
                (Some(l), None) if l.is_ascii_lowercase() => {
                    game.set_label(r * width + c, Some(l));
                }
                _ => notes.push(SgfNote {
                    span: v.span.clone(),
                    text: format!(
                        "label `{label}` ignored: yose labels points with one lowercase letter"
                    ),
                }),
            }
        }
    }
    Ok(game)
}

// ----------------------------------------------------------------- write

/// An SGF value with `]` and `\` escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A rational as an SGF real: exact when its denominator divides a power of
/// ten, else to six decimals.
fn real(x: &BigRational) -> String {
    let mut d = x.denom().clone();
    let (two, five) = (BigInt::from(2), BigInt::from(5));
    let mut places = 0u32;
    while (&d % &two).is_zero() || (&d % &five).is_zero() {
        if (&d % &two).is_zero() {
            d /= &two;
        } else {
            d /= &five;
        }
        places += 1;
    }
    let places = if d.is_one() { places } else { 6 };
    let scale = BigInt::from(10).pow(places);
    let scaled = (x * BigRational::from_integer(scale.clone()))
        .round()
        .to_integer();
    let sign = if scaled.is_negative() { "-" } else { "" };
    let abs = scaled.abs();
    let whole = &abs / &scale;
    let frac = &abs % &scale;
    if places == 0 {
        return format!("{sign}{whole}");
    }
    let frac = format!("{:0>width$}", frac.to_string(), width = places as usize);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// The SGF name of a point index on a board of this width.
fn point_name(p: usize, width: usize) -> String {
    coords::sgf_name(p / width, p % width)
}

/// One list property (`AB[aa][bb]`), empty when there are no points.
fn list(ident: &str, points: &[usize], width: usize) -> String {
    if points.is_empty() {
        return String::new();
    }
    let mut out = ident.to_string();
    for &p in points {
        out.push_str(&format!("[{}]", point_name(p, width)));
    }
    out
}

/// A move node (`;B[cc]`; a pass is `;B[]`).
fn move_node(mv: Move, width: usize) -> String {
    let at = mv.point.map_or(String::new(), |p| point_name(p, width));
    format!(";{}[{}]", mv.colour.letter(), at)
}

/// Writes a game as SGF (see the module docs); `line` is a solved line of
/// moves from the current position with the comment giving its score,
/// written as the continuation of the game's last node.
pub fn write(game: &Game, line: Option<(&[Move], &str)>) -> String {
    let start = game.start();
    let width = start.width();
    let size = if width == start.height() {
        width.to_string()
    } else {
        format!("{}:{}", width, start.height())
    };
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[yose:0.1]SZ[{size}]KM[{}]RU[{}]PL[{}]",
        real(game.komi()),
        rule_name(game.rules()),
        game.start_to_move().letter()
    );
    let stones = |pos: &Position, colour: Colour| -> Vec<usize> {
        (0..pos.width() * pos.height())
            .filter(|&p| pos.cell(p) == Cell::Stone(colour))
            .collect()
    };
    let black = stones(start, Colour::Black);
    let white = stones(start, Colour::White);
    if !black.is_empty() || !white.is_empty() {
        out.push('\n');
        out.push_str(&list("AB", &black, width));
        out.push_str(&list("AW", &white, width));
    }
    for (i, &mv) in game.moves().iter().enumerate() {
        out.push(if i % 10 == 0 { '\n' } else { ' ' });
        out.push_str(&move_node(mv, width));
    }
    // Marks and labels of the current board, on the last node.
    let pos = game.position();
    let n = pos.width() * pos.height();
    let marked = |status| -> Vec<usize> {
        (0..n)
            .filter(|&p| pos.cell(p) != Cell::Empty && game.mark(p) == Some(status))
            .collect()
    };
    out.push_str(&list("SQ", &marked(Status::Safe), width));
    out.push_str(&list("MA", &marked(Status::Dead), width));
    let labels: Vec<String> = (0..n)
        .filter_map(|p| {
            pos.label(p)
                .map(|l| format!("[{}:{}]", point_name(p, width), l))
        })
        .collect();
    if !labels.is_empty() {
        out.push_str("LB");
        out.push_str(&labels.concat());
    }
    if let Some((moves, comment)) = line {
        if !moves.is_empty() || !comment.is_empty() {
            out.push_str("\n(");
            match moves.split_first() {
                Some((&first, rest)) => {
                    out.push_str(&move_node(first, width));
                    out.push_str(&format!("C[{}]", escape(comment)));
                    for &mv in rest {
                        out.push_str(&move_node(mv, width));
                    }
                }
                None => out.push_str(&format!(";C[{}]", escape(comment))),
            }
            out.push(')');
        }
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests;
