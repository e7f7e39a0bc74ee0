//! Go positions: the board of a diagram, its stones and labels, the rules of
//! capture, and printing.
//!
//! A [`Position`] is a rectangle of points. Every drawn point is on the board;
//! everything outside the rectangle is off the board. A stone drawn as `X` or
//! `O` is a *frame* stone: immortal by assumption (Mathematical Go's framing
//! stones). Any stone whose chain contains a frame stone is immortal too
//! (see the module docs of `crate::go`); every other stone can be captured. The points that are not
//! frame stones are the *region*: they are what moves and scoring are about.

use super::coords::Origin;
use std::fmt;

/// A player. Black is Left (positive), White is Right (negative).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// `+1` for Black, `-1` for White.
    pub fn sign(self) -> i64 {
        match self {
            Colour::Black => 1,
            Colour::White => -1,
        }
    }

    /// `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Black => "Black",
            Colour::White => "White",
        })
    }
}

/// The content of a point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    Stone(Colour),
}

/// A move: a stone of `colour` on `point` (an index, see [`Position::index`]),
/// or a tenuki (a move elsewhere) when `point` is `None`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub colour: Colour,
    pub point: Option<usize>,
}

/// Why a single move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The point already holds a stone.
    Occupied,
    /// The stone would have no liberty and captures nothing (and is not
    /// connected to an immortal stone).
    Suicide,
    /// Basic ko: the move retakes a ko at once.
    KoBan,
    /// The point index is not on the board.
    OffBoard,
    /// In a game in progress, a move by the player who is not to move.
    OutOfTurn(Colour),
    /// In a game in progress, a move that recreates an earlier board
    /// position that the ko rule in force forbids repeating:
    /// `after_move` is the number of moves after which it stood (0: the
    /// start).
    Superko {
        rule: super::search::KoRule,
        after_move: usize,
    },
    /// In a game under the New Ko Rules, a move that one of its rules
    /// forbids, with the reason (the deciding state: who is the disturber,
    /// which stones are hot, which play was made before).
    NewKoRules {
        rule: super::korules::NkrRule,
        why: String,
    },
    /// Under Ultimate or Fundamental Go: the rule of §III broken.
    NoPass(super::ultimate::RuleBreak),
    /// A delay, draw or resignation, moves of Ultimate and Fundamental Go
    /// only, on a game under other rules (`rules`, as
    /// [`super::RuleSet::describe`] gives them) or on a position (`None`).
    /// Not a rule of Ultimate Go broken: these rules have no such move.
    NotAMoveHere {
        word: super::ultimate::Special,
        rules: Option<String>,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::search::KoRule;
        match self {
            IllegalMove::OutOfTurn(colour) => return write!(f, "it is {colour}'s turn"),
            IllegalMove::NoPass(why) => return write!(f, "{why}"),
            IllegalMove::Superko { rule, after_move } => {
                let what = match rule {
                    KoRule::SituationalSuperko => {
                        "the board position, with the same player to move,"
                    }
                    KoRule::NaturalSituationalSuperko => {
                        "the board position, which this player created with a board play,"
                    }
                    _ => "the board position",
                };
                let name = rule.describe();
                let when = match after_move {
                    0 => "at the start".to_string(),
                    n => format!("after move {n}"),
                };
                return write!(f, "{name}: {what} would be the one {when}");
            }
            IllegalMove::NewKoRules { rule, why } => {
                return write!(f, "New Ko Rules, {}: {why}", rule.name());
            }
            IllegalMove::NotAMoveHere { word, rules } => {
                let word = word.word();
                return match rules {
                    Some(rules) => write!(
                        f,
                        "`{word}` is a move of Ultimate and Fundamental Go only, and this game \
                         is played under other rules ({rules}), where a move is a stone or a \
                         pass (for Ultimate Go, make the game with `game(G, rules: ultimate)`)"
                    ),
                    None => write!(
                        f,
                        "`{word}` is a move of Ultimate and Fundamental Go only; on a position \
                         a move is a stone or a pass (for Ultimate Go, make a game with \
                         `game(Q, rules: ultimate)`)"
                    ),
                };
            }
            _ => {}
        }
        f.write_str(match self {
            IllegalMove::Occupied => "the point is occupied",
            IllegalMove::Suicide => "suicide: the stone would have no liberty and captures nothing",
            IllegalMove::KoBan => {
                "ko: the stone would retake the ko at once (play a threat or a tenuki first)"
            }
            IllegalMove::OffBoard => "the point is not on the board",
            IllegalMove::OutOfTurn(_)
            | IllegalMove::Superko { .. }
            | IllegalMove::NewKoRules { .. }
            | IllegalMove::NoPass(_)
            | IllegalMove::NotAMoveHere { .. } => unreachable!(),
        })
    }
}

/// How to print a position.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Style {
    /// `X O x o . a` — the diagram syntax itself, so the output parses back.
    #[default]
    Ascii,
    /// `● ○ ◆ ◇ · a`: framing stones are discs, the other stones diamonds.
    Unicode,
}

/// A Go position drawn in a diagram (see the module docs of [`crate::go`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) cells: Vec<Cell>,
    /// Stones drawn `X` / `O`: immortal by assumption, not part of the region.
    pub(crate) frame: Vec<bool>,
    pub(crate) labels: Vec<Option<char>>,
    /// Stones captured by Black (index 0) and by White (index 1) since the
    /// diagram.
    pub(crate) prisoners: [u32; 2],
    /// Basic ko: `colour` may not play at `point` on its next move.
    pub(crate) ko_ban: Option<(Colour, usize)>,
    /// Where the rectangle lies on a whole board, when it is one or was cut
    /// from one: its points are then named in Go notation (`C3`).
    pub(crate) origin: Option<Origin>,
}

impl Position {
    /// An empty board of `width` × `height` points (no origin).
    pub(crate) fn empty(width: usize, height: usize) -> Position {
        let n = width * height;
        Position {
            width,
            height,
            cells: vec![Cell::Empty; n],
            frame: vec![false; n],
            labels: vec![None; n],
            prisoners: [0, 0],
            ko_ban: None,
            origin: None,
        }
    }

    /// Number of columns of the diagram.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows of the diagram.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The index of the point in row `row`, column `col` (both from 0, from
    /// the top left), if it is on the board.
    pub fn index(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.height && col < self.width).then(|| row * self.width + col)
    }

    /// `(row, column)` of a point index, both from 0.
    pub fn coords(&self, point: usize) -> (usize, usize) {
        (point / self.width, point % self.width)
    }

    /// The number of points of the rectangle.
    pub fn cells_len(&self) -> usize {
        self.cells.len()
    }

    /// `B C3`: a stone of `colour` on `point`, named as [`Self::point_name`].
    pub fn move_name_at(&self, colour: Colour, point: usize) -> String {
        format!("{} {}", colour.letter(), self.point_name(point))
    }

    pub fn cell(&self, point: usize) -> Cell {
        self.cells[point]
    }

    /// The point labelled `label` in the diagram.
    pub fn label_point(&self, label: char) -> Option<usize> {
        self.labels.iter().position(|l| *l == Some(label))
    }

    pub fn label(&self, point: usize) -> Option<char> {
        self.labels[point]
    }

    /// Whether the stone on `point` was drawn as a framing stone `X` / `O`.
    pub fn is_frame(&self, point: usize) -> bool {
        self.frame[point]
    }

    /// Stones captured so far by `colour` (prisoners it holds).
    pub fn prisoners(&self, colour: Colour) -> u32 {
        self.prisoners[colour.index()]
    }

    /// Lifts the basic-ko ban (a local game has none).
    pub fn clear_ko_ban(&mut self) {
        self.ko_ban = None;
    }

    /// The basic-ko ban in force: `colour` may not play at `point` next.
    pub fn ko_ban(&self) -> Option<(Colour, usize)> {
        self.ko_ban
    }

    /// Where the rectangle lies on a whole board, if it is one or was cut
    /// from one.
    pub fn origin(&self) -> Option<Origin> {
        self.origin
    }

    /// The same position marked as lying at `origin` on a whole board.
    pub fn with_origin(mut self, origin: Origin) -> Position {
        self.origin = Some(origin);
        self
    }

    /// The name of a point in messages: on a board (a position with an
    /// [`Origin`]) its Go coordinate (`C3`); else its label, or `(row,col)`
    /// counted from 1 at the top left (the form move strings accept too).
    pub fn point_name(&self, point: usize) -> String {
        let (r, c) = self.coords(point);
        if let Some(origin) = self.origin {
            let (row, col) = origin.on_board(r, c);
            return origin.go_name(row, col);
        }
        match self.labels[point] {
            Some(c) => c.to_string(),
            None => format!("({},{})", r + 1, c + 1),
        }
    }

    /// The point at board point `(row, col)` (from 0, from the top left of
    /// the board this position lies on; of the rectangle itself when it has
    /// no origin).
    pub fn board_point(&self, row: usize, col: usize) -> Option<usize> {
        let origin = self.board_origin();
        let r = row.checked_sub(origin.row)?;
        let c = col.checked_sub(origin.col)?;
        self.index(r, c)
    }

    /// The origin of the board this position lies on: its own, or the
    /// rectangle itself taken as a board.
    pub fn board_origin(&self) -> Origin {
        self.origin
            .unwrap_or_else(|| Origin::board(self.width, self.height))
    }

    /// `B a`, `W (2,3)`, `B t` (tenuki).
    pub fn move_name(&self, mv: Move) -> String {
        match mv.point {
            Some(p) => format!("{} {}", mv.colour.letter(), self.point_name(p)),
            None => format!("{} t", mv.colour.letter()),
        }
    }

    pub(crate) fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.width, self.height);
        let (r, c) = (p / w, p % w);
        let up = (r > 0).then(|| p - w);
        let down = (r + 1 < h).then(|| p + w);
        let left = (c > 0).then(|| p - 1);
        let right = (c + 1 < w).then(|| p + 1);
        [up, down, left, right].into_iter().flatten()
    }

    /// The chain (same-coloured connected stones) through the stone on `p`.
    pub fn chain(&self, p: usize) -> Vec<usize> {
        let Cell::Stone(colour) = self.cells[p] else {
            return Vec::new();
        };
        // Every `play_move` asks for chains: the points seen are a bit set on
        // the stack for boards of up to 512 points (a 19×19 board has 361),
        // and the chain itself is the list of points still to visit, so the
        // one allocation is the answer.
        const STACK_WORDS: usize = 8;
        let mut on_stack = [0u64; STACK_WORDS];
        let mut on_heap = Vec::new();
        let words = self.cells.len().div_ceil(64);
        let seen: &mut [u64] = if words <= STACK_WORDS {
            &mut on_stack[..]
        } else {
            on_heap.resize(words, 0);
            &mut on_heap[..]
        };
        seen[p / 64] |= 1 << (p % 64);
        let mut chain = vec![p];
        let mut next = 0;
        while let Some(&q) = chain.get(next) {
            next += 1;
            for n in self.neighbours(q) {
                if seen[n / 64] & (1 << (n % 64)) == 0 && self.cells[n] == Cell::Stone(colour) {
                    seen[n / 64] |= 1 << (n % 64);
                    chain.push(n);
                }
            }
        }
        chain.sort_unstable();
        chain
    }

    /// The liberties (adjacent empty points) of a chain.
    pub fn liberties(&self, chain: &[usize]) -> Vec<usize> {
        let mut libs: Vec<usize> = chain
            .iter()
            .flat_map(|&q| self.neighbours(q))
            .filter(|&n| self.cells[n] == Cell::Empty)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// The same position with stones of `colour` put back on `points` (as
    /// mortal stones), such as dead stones an analysis removed.
    pub fn with_stones(&self, colour: Colour, points: &[usize]) -> Position {
        let mut next = self.clone();
        for &p in points {
            next.cells[p] = Cell::Stone(colour);
            next.frame[p] = false;
        }
        next
    }

    /// Whether the two positions show the same stones on the same points of
    /// rectangles of the same size (labels, frames, prisoners and bans
    /// aside).
    pub fn same_stones(&self, other: &Position) -> bool {
        self.width == other.width && self.height == other.height && self.cells == other.cells
    }

    /// Whether the stone on `p` is immortal: its chain holds a frame stone.
    pub fn is_immortal(&self, p: usize) -> bool {
        self.chain(p).iter().any(|&q| self.frame[q])
    }

    /// Plays one move (a tenuki when `mv.point` is `None`): captures, suicide
    /// and the basic ko rule. Returns the new position.
    pub fn play_move(&self, mv: Move) -> Result<Position, IllegalMove> {
        let mut next = self.clone();
        next.ko_ban = None;
        let Some(p) = mv.point else {
            return Ok(next);
        };
        if p >= self.cells.len() {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p] != Cell::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.ko_ban == Some((mv.colour, p)) {
            return Err(IllegalMove::KoBan);
        }
        let opp = mv.colour.opponent();
        next.cells[p] = Cell::Stone(mv.colour);
        let mut captured: Vec<usize> = Vec::new();
        for n in self.neighbours(p) {
            if next.cells[n] != Cell::Stone(opp) || captured.contains(&n) {
                continue;
            }
            let chain = next.chain(n);
            if chain.iter().any(|&q| next.frame[q]) {
                continue;
            }
            if next.liberties(&chain).is_empty() {
                captured.extend(chain);
            }
        }
        for &q in &captured {
            next.cells[q] = Cell::Empty;
        }
        let own = next.chain(p);
        let own_libs = next.liberties(&own);
        if own_libs.is_empty() && !own.iter().any(|&q| next.frame[q]) {
            return Err(IllegalMove::Suicide);
        }
        next.prisoners[mv.colour.index()] += captured.len() as u32;
        // Basic ko: a single stone captured a single stone and now has that
        // point as its only liberty.
        if captured.len() == 1 && own.len() == 1 && own_libs == captured {
            next.ko_ban = Some((opp, captured[0]));
        }
        Ok(next)
    }

    /// The diagram alone (no captions), rows separated by newlines and points
    /// by single spaces. Framing stones are printed `X` / `O`, every other
    /// stone (drawn `x` / `o` or played) `x` / `o`: it is immortal exactly
    /// when its chain touches a framing stone, so in [`Style::Ascii`] the
    /// diagram parses back to this position without its prisoner counts, ko
    /// ban, and the labels of occupied points.
    pub fn diagram(&self, style: Style) -> String {
        let mut out = String::new();
        for r in 0..self.height {
            for c in 0..self.width {
                let p = r * self.width + c;
                if c > 0 {
                    out.push(' ');
                }
                let ch = match self.cells[p] {
                    Cell::Empty => match (self.labels[p], style) {
                        (Some(l), _) => l,
                        (None, Style::Ascii) => '.',
                        (None, Style::Unicode) => '·',
                    },
                    Cell::Stone(colour) => match (colour, self.frame[p], style) {
                        (Colour::Black, true, Style::Ascii) => 'X',
                        (Colour::Black, false, Style::Ascii) => 'x',
                        (Colour::White, true, Style::Ascii) => 'O',
                        (Colour::White, false, Style::Ascii) => 'o',
                        (Colour::Black, true, Style::Unicode) => '●',
                        (Colour::Black, false, Style::Unicode) => '◆',
                        (Colour::White, true, Style::Unicode) => '○',
                        (Colour::White, false, Style::Unicode) => '◇',
                    },
                };
                out.push(ch);
            }
            out.push('\n');
        }
        out
    }

    /// The diagram followed by the prisoner counts and the ko ban, if any.
    pub fn render(&self, style: Style) -> String {
        let mut out = self.diagram(style);
        out.push_str(&format!(
            "captures: Black {}, White {}\n",
            self.prisoners[0], self.prisoners[1]
        ));
        if let Some((colour, p)) = self.ko_ban {
            out.push_str(&format!(
                "ko: {} may not retake at {} at once\n",
                colour,
                self.point_name(p)
            ));
        }
        out
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Style::Ascii))
    }
}
