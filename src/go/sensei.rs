//! Sensei's Library diagrams read as a whole board: [`read_sensei`], the
//! reading `game("$$ …")` uses.
//!
//! Sensei's Library (SL) draws positions in lines that start with `$$`
//! (SL's page "How diagrams work"; the symbols below are those its diagram
//! renderer, `sltxt2svg`, documents). Pasted whole from the site, a
//! diagram reads here as SL means it, which differs from yose's own
//! diagrams ([`Position::parse`], used by `go(…)`, where `X` / `O` are
//! framing stones and `x` / `o` capturable ones):
//!
//! * The first line is the title line: `$$`, then optionally `B` or `W`
//!   (who plays the first numbered move, Black by default), `c` (show
//!   coordinates), a board size (`$$B9`, `$$Wc13`), `m` and a number (the
//!   number of the first move shown), then a title (`$$B Black to play`).
//!   A first line that is an edge line (`$$ +-----+`) is not a title line.
//! * `X` / `O`: Black / White stones, **ordinary** stones that can be
//!   captured. Whether a stone is safe or dead is the analysis' business,
//!   or the marks':
//! * `#` / `@` (a black / white stone marked with a square): marked
//!   **safe** ([`Status::Safe`]);
//! * `Z` / `P` (a black / white stone marked with a cross): marked
//!   **dead** ([`Status::Dead`]);
//! * `B` / `W` (circled) and `Y` / `Q` (triangled) stones are plain stones:
//!   SL uses those marks to point at a stone, not to judge it;
//! * `C`, `S`, `T`, `M` (a circle, square, triangle or cross on an empty
//!   point) are empty points;
//! * `1`–`9` and `0` (10) are numbered moves, and so are numbers of two or
//!   more digits standing alone between spaces (`$$ | . 12 . |`; in SL a
//!   row with such a number must separate its points by spaces). Odd
//!   numbers are the first player's, even numbers the other's. The game
//!   starts from the board without the numbered stones, that player to
//!   move, and plays them in order with [`Game::play`]: the game is the
//!   position after the last number, with the moves as its history. The
//!   numbers must run from 1 without a gap (a move played where a captured
//!   stone stood is written under an SL diagram, "3 at a", which a diagram
//!   cannot say: yose refuses the diagram rather than guess). The `m`
//!   number only changes what SL prints on the stones.
//! * `a`–`z` label empty points (move strings can name them: `B a`);
//!   unlike yose's dialect, `x` and `o` are labels too.
//! * `.` is an empty point and `,` a hoshi (empty).
//! * Edges: `|` opening or closing a row, lines of `-` and `+` above or
//!   below the rows; `_` at either end of a row is padding.
//!
//! **Where the diagram lies on the board.** A diagram with no edge drawn
//! is the whole board. Otherwise the board is the size of the title line
//! (19 when it gives none) in each direction in which the diagram does not
//! show both edges, and the drawing sits against the edges it shows
//! (a diagram with a top and a left edge is the top-left corner of a
//! 19 × 19 board), centred in a direction where it shows neither. Points of
//! the board outside the drawing are empty.
//!
//! Errors are [`DiagramError`]s with the byte offset of the character at
//! fault, as for yose's diagrams.

use super::coords::{Origin, MAX_BOARD};
use super::diagram::{DiagramError, DiagramErrorKind};
use super::game::{Game, RuleSet, Status};
use super::position::{Cell, Colour, Move, Position};
use num_rational::BigRational;

/// Whether `text` is a Sensei's Library diagram: its first non-blank line
/// starts with `$$`.
pub fn is_sensei(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with("$$"))
}

/// One drawn point of a row.
#[derive(Copy, Clone, Debug)]
enum Drawn {
    Char(char),
    Number(u32),
}

struct Row {
    /// Byte offset and content of each point.
    points: Vec<(usize, Drawn)>,
    /// Byte offset after the row.
    end: usize,
}

/// What the title line says.
#[derive(Default)]
struct Title {
    first: Option<Colour>,
    size: Option<usize>,
}

fn err(offset: usize, kind: DiagramErrorKind) -> DiagramError {
    DiagramError { offset, kind }
}

/// Whether the body of a line (after `$$`) is an edge line.
fn is_edge_line(body: &str) -> bool {
    let t = body.trim();
    !t.is_empty()
        && t.chars()
            .all(|c| matches!(c, '-' | '+') || c.is_whitespace())
}

/// Reads the title line's body (after `$$`).
fn title(body: &str) -> Title {
    let mut t = Title::default();
    let mut rest = body;
    match rest.chars().next() {
        Some('B') => {
            t.first = Some(Colour::Black);
            rest = &rest[1..];
        }
        Some('W') => {
            t.first = Some(Colour::White);
            rest = &rest[1..];
        }
        _ => {}
    }
    rest = rest.strip_prefix('c').unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits <= 3 {
        t.size = rest[..digits].parse().ok();
    }
    t
}

/// Reads a Sensei's Library diagram as a whole board (see the module docs).
pub fn read_sensei(text: &str) -> Result<Game, DiagramError> {
    let mut rows: Vec<Row> = Vec::new();
    let (mut top, mut bottom, mut left, mut right) = (false, false, false, false);
    let mut head = Title::default();
    let mut first_line = true;
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let line_start = start;
        start += piece.len();
        let line = piece.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let Some(body) = line.trim_start().strip_prefix("$$") else {
            return Err(err(line_start + indent, DiagramErrorKind::MissingDollars));
        };
        let offset = line_start + indent + 2;
        if std::mem::take(&mut first_line) && !is_edge_line(body) {
            head = title(body);
            continue;
        }
        let content = body.trim();
        if content.is_empty() || content.starts_with('[') {
            // An empty line, or an SL link line `[a|Page]`.
            continue;
        }
        if is_edge_line(body) {
            if rows.is_empty() {
                top = true;
            } else {
                bottom = true;
            }
            continue;
        }
        if bottom {
            // A row below the bottom edge.
            let at = offset + body.len() - body.trim_start().len();
            return Err(err(at, DiagramErrorKind::MisplacedEdge('-')));
        }
        let row = read_row(body, offset, &mut left, &mut right)?;
        if !row.points.is_empty() {
            rows.push(row);
        }
    }
    let Some(first) = rows.first() else {
        return Err(err(0, DiagramErrorKind::NoRows));
    };
    let width = first.points.len();
    for row in &rows {
        let found = row.points.len();
        if found != width {
            let at = row.points.get(width).map_or(row.end, |p| p.0);
            return Err(err(
                at,
                DiagramErrorKind::RaggedRow {
                    expected: width,
                    found,
                },
            ));
        }
    }
    let height = rows.len();
    let first_offset = first.points[0].0;
    // Where the drawing lies on the board.
    let any_edge = top || bottom || left || right;
    let size = head.size.unwrap_or(MAX_BOARD);
    let board_h = if !any_edge || (top && bottom) {
        height
    } else {
        size
    };
    let board_w = if !any_edge || (left && right) {
        width
    } else {
        size
    };
    if height > board_h || width > board_w || board_h > MAX_BOARD || board_w > MAX_BOARD {
        return Err(err(
            first_offset,
            DiagramErrorKind::BoardTooLarge {
                width: width.max(board_w),
                height: height.max(board_h),
            },
        ));
    }
    let place = |lo: bool, hi: bool, board: usize, drawn: usize| {
        if lo {
            0
        } else if hi {
            board - drawn
        } else {
            (board - drawn) / 2
        }
    };
    let row0 = place(top, bottom, board_h, height);
    let col0 = place(left, right, board_w, width);
    let mut pos = Position::empty(board_w, board_h).with_origin(Origin::board(board_w, board_h));
    let mut offsets = vec![None; board_w * board_h];
    let mut marks = Vec::new();
    let mut numbers: Vec<(u32, usize, usize)> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &(offset, drawn)) in row.points.iter().enumerate() {
            let p = (row0 + r) * board_w + col0 + c;
            offsets[p] = Some(offset);
            let ch = match drawn {
                Drawn::Number(n) => {
                    numbers.push((n, p, offset));
                    continue;
                }
                Drawn::Char(ch) => ch,
            };
            let (cell, mark) = match ch {
                'X' | 'B' | 'Y' => (Cell::Stone(Colour::Black), None),
                'O' | 'W' | 'Q' => (Cell::Stone(Colour::White), None),
                '#' => (Cell::Stone(Colour::Black), Some(Status::Safe)),
                '@' => (Cell::Stone(Colour::White), Some(Status::Safe)),
                'Z' => (Cell::Stone(Colour::Black), Some(Status::Dead)),
                'P' => (Cell::Stone(Colour::White), Some(Status::Dead)),
                c if c.is_ascii_lowercase() => {
                    if pos.label_point(c).is_some() {
                        return Err(err(offset, DiagramErrorKind::DuplicateLabel(c)));
                    }
                    pos.labels[p] = Some(c);
                    (Cell::Empty, None)
                }
                _ => (Cell::Empty, None),
            };
            pos.cells[p] = cell;
            if let Some(m) = mark {
                marks.push((p, m));
            }
        }
    }
    // Every chain of the start has a liberty.
    let mut checked = vec![false; pos.cells.len()];
    for p in 0..pos.cells.len() {
        if checked[p] || pos.cells[p] == Cell::Empty {
            continue;
        }
        let chain = pos.chain(p);
        for &q in &chain {
            checked[q] = true;
        }
        if pos.liberties(&chain).is_empty() {
            let at = offsets[chain[0]].unwrap_or(first_offset);
            return Err(err(at, DiagramErrorKind::NoLiberties));
        }
    }
    let first_player = head.first.unwrap_or(Colour::Black);
    let zero = BigRational::from_integer(0.into());
    let mut game = Game::new(&pos, first_player, zero, RuleSet::default()).map_err(|_| {
        err(
            first_offset,
            DiagramErrorKind::BoardTooLarge {
                width: board_w,
                height: board_h,
            },
        )
    })?;
    for (p, m) in marks {
        game.set_mark(p, Some(m));
    }
    numbers.sort_by_key(|&(n, _, offset)| (n, offset));
    for (i, &(n, p, offset)) in numbers.iter().enumerate() {
        let expected = i as u32 + 1;
        if n < expected {
            return Err(err(offset, DiagramErrorKind::DuplicateMove(n)));
        }
        if n > expected {
            return Err(err(offset, DiagramErrorKind::MissingMove(expected)));
        }
        let colour = if n % 2 == 1 {
            first_player
        } else {
            first_player.opponent()
        };
        game = game
            .play(Move {
                colour,
                point: Some(p),
            })
            .map_err(|why| err(offset, DiagramErrorKind::IllegalNumberedMove(n, why)))?;
    }
    Ok(game)
}

/// Reads one row (the body of a `$$` line that is not an edge line).
fn read_row(
    body: &str,
    offset: usize,
    left: &mut bool,
    right: &mut bool,
) -> Result<Row, DiagramError> {
    // Whitespace-separated tokens: a token of two or more digits is one
    // number; any other token is one point per character.
    let mut points: Vec<(usize, Drawn)> = Vec::new();
    let mut i = 0;
    let bytes = body.as_bytes();
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let token = &body[start..i];
        if token.len() >= 2 && token.bytes().all(|b| b.is_ascii_digit()) {
            let n = token.parse::<u32>().unwrap_or(u32::MAX).min(100_000);
            points.push((offset + start, Drawn::Number(n)));
            continue;
        }
        for (j, c) in token.char_indices() {
            let drawn = match c.to_digit(10) {
                Some(0) => Drawn::Number(10),
                Some(d) => Drawn::Number(d),
                None => Drawn::Char(c),
            };
            points.push((offset + start + j, drawn));
        }
    }
    let end = offset + body.trim_end().len();
    let is = |p: &(usize, Drawn), c: char| matches!(p.1, Drawn::Char(x) if x == c);
    while points.first().is_some_and(|p| is(p, '_')) {
        points.remove(0);
    }
    while points.last().is_some_and(|p| is(p, '_')) {
        points.pop();
    }
    if points.first().is_some_and(|p| is(p, '|')) {
        points.remove(0);
        *left = true;
    }
    if points.last().is_some_and(|p| is(p, '|')) {
        points.pop();
        *right = true;
    }
    for &(at, drawn) in &points {
        let Drawn::Char(c) = drawn else { continue };
        match c {
            '.' | ',' | 'X' | 'O' | 'B' | 'W' | '#' | '@' | 'Y' | 'Q' | 'Z' | 'P' | 'C' | 'S'
            | 'T' | 'M' => {}
            c if c.is_ascii_lowercase() => {}
            '|' | '+' | '-' | '_' => return Err(err(at, DiagramErrorKind::MisplacedEdge(c))),
            c => return Err(err(at, DiagramErrorKind::UnknownCharacter(c))),
        }
    }
    Ok(Row { points, end })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{coords, play_game};

    fn pt(g: &Game, name: &str) -> usize {
        let pos = g.position();
        let (r, c) = coords::parse_go(name, pos.width(), pos.height()).unwrap();
        pos.index(r, c).unwrap()
    }

    fn cell(g: &Game, name: &str) -> Cell {
        g.position().cell(pt(g, name))
    }

    const B: Cell = Cell::Stone(Colour::Black);
    const W: Cell = Cell::Stone(Colour::White);

    #[test]
    fn a_pasted_corner_lies_in_the_corner_of_a_19_board() {
        let text = "\
$$B Black to play
$$ +-----------
$$ | . . . . .
$$ | . X O O .
$$ | . # X O a
$$ | . . Z @ .
$$ | . . . . .";
        let g = read_sensei(text).unwrap();
        assert_eq!((g.position().width(), g.position().height()), (19, 19));
        assert_eq!(cell(&g, "B18"), B);
        assert_eq!(cell(&g, "C18"), W);
        assert_eq!(cell(&g, "B17"), B);
        assert_eq!(g.mark(pt(&g, "B17")), Some(Status::Safe));
        assert_eq!(g.mark(pt(&g, "C16")), Some(Status::Dead));
        assert_eq!(g.mark(pt(&g, "D16")), Some(Status::Safe));
        // X and O are ordinary stones: no mark, and they can be captured.
        assert_eq!(g.mark(pt(&g, "B18")), None);
        assert_eq!(g.position().label_point('a'), Some(pt(&g, "E17")));
        assert_eq!(g.to_move(), Colour::Black);
        assert!(g.moves().is_empty());
        // A bottom-right corner of a 9×9 board.
        let text = "$$W9\n$$ . . O |\n$$ . X O |\n$$ ------+";
        let g = read_sensei(text).unwrap();
        assert_eq!(g.position().width(), 9);
        assert_eq!(cell(&g, "H1"), B);
        assert_eq!(cell(&g, "J2"), W);
        assert_eq!(g.to_move(), Colour::White);
    }

    #[test]
    fn a_closed_diagram_or_one_with_no_edge_is_the_board() {
        let closed = "$$\n$$ +-------+\n$$ | . X O |\n$$ | X X . |\n$$ +-------+";
        let g = read_sensei(closed).unwrap();
        assert_eq!((g.position().width(), g.position().height()), (3, 2));
        let bare = "$$ Title\n$$ . X O\n$$ X X .";
        let h = read_sensei(bare).unwrap();
        assert!(h.same_board(g.position()));
        // Compact rows (no spaces) read the same.
        let compact = "$$\n$$ .XO\n$$ XX.";
        assert!(read_sensei(compact).unwrap().same_board(g.position()));
    }

    #[test]
    fn numbered_stones_are_the_history() {
        // Black is first: 1 (B) captures the white stone in the corner,
        // 2 (W), 3 (B).
        let text = "\
$$B
$$ +-------+
$$ | . X O |
$$ | X 2 1 |
$$ | 3 O . |
$$ +-------+";
        let g = read_sensei(text).unwrap();
        assert_eq!(g.moves().len(), 3);
        let names: Vec<String> = g
            .moves()
            .iter()
            .map(|&m| g.position().move_name(m))
            .collect();
        assert_eq!(names, ["B C2", "W B2", "B A1"]);
        assert_eq!(g.to_move(), Colour::White);
        assert_eq!(g.start().cell(g.start().index(1, 1).unwrap()), Cell::Empty);
        // $$W: White is first, so 1 is White's.
        let text = "$$W\n$$ . X O .\n$$ X 1 . O";
        let g = read_sensei(text).unwrap();
        assert_eq!(cell(&g, "B1"), W);
        assert_eq!(g.to_move(), Colour::Black);
        // 0 is 10; numbers of two digits stand alone between spaces.
        let mut rows = String::from("$$\n");
        let nums = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "11", "12"];
        for pair in nums.chunks(2) {
            rows.push_str(&format!("$$ {} . {} . .\n", pair[0], pair[1]));
        }
        let g = read_sensei(&rows).unwrap();
        assert_eq!(g.moves().len(), 12);
        assert_eq!(g.position().cell(g.moves()[9].point.unwrap()), W);
        assert_eq!(g.position().coords(g.moves()[11].point.unwrap()), (5, 2));
    }

    #[test]
    fn yose_diagrams_keep_their_meaning_and_skip_a_title_line() {
        // In `go(…)` regions, `$$` diagrams keep yose's meaning (uppercase
        // framing stones); a title line with text no row could hold is
        // skipped, as `$$B` always was.
        let titled = Position::parse("$$ Black to play\n$$ X X X\n$$ X . O").unwrap();
        let plain = Position::parse("X X X\nX . O").unwrap();
        assert_eq!(titled, plain);
        assert!(titled.is_frame(0));
        // A first line that could be a row is a row.
        let row = Position::parse("$$ X . O\n$$ X . O").unwrap();
        assert_eq!(row.height(), 2);
    }

    #[test]
    fn the_game_plays_on_with_move_strings() {
        let g = read_sensei("$$\n$$ . X O\n$$ X a O").unwrap();
        let next = play_game(&g, "B a").unwrap();
        // The white stones are ordinary stones: Black's move at the
        // label captures them.
        assert_eq!(next.position().cell(pt(&g, "B1")), B);
        assert_eq!(next.position().cell(pt(&g, "C1")), Cell::Empty);
        assert_eq!(next.position().prisoners(Colour::Black), 2);
    }

    #[test]
    fn bad_diagrams_say_where() {
        let cases: &[(&str, &str, &str)] = &[
            ("$$\n$$ . X ?", "?", "unknown character"),
            ("$$\n$$ . X O\n$$ . X", "", "ragged"),
            ("$$\n$$ . 1 3", "3", "move 2 is missing"),
            ("$$\n$$ 1 . 1", "1", "move 1 is drawn twice"),
            (
                "$$\n$$ . O .\n$$ O 1 O\n$$ . O .",
                "1",
                "move 1 is illegal: suicide",
            ),
            ("$$\n$$ X O\n$$ O .", "X", "no liberty"),
            ("$$\n$$ a . a", "a", "used twice"),
            ("$$\n. X O", ".", "does not start with `$$`"),
            ("$$\n$$ . X\n$$ ---\n$$ . X", ".", "edge"),
            (
                "$$9\n$$ +-------------\n$$ | . . . . . . . . . .",
                ".",
                "at most",
            ),
            ("$$\n$$ . |X .", "|", "edge"),
        ];
        for &(text, fault, message) in cases {
            let e = read_sensei(text).unwrap_err();
            let at = &text[e.offset.min(text.len())..];
            assert!(at.starts_with(fault), "{text}: {e} at {at:?}");
            assert!(e.kind.to_string().contains(message), "{text}: {e}");
        }
        // Random noise never panics.
        let alphabet: Vec<char> = "$ \n.XO#@ZPBWYQCSTMabxo0123456789|-+_,?".chars().collect();
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut s = String::from("$$");
            for _ in 0..40 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
            }
            let _ = read_sensei(&s);
        }
    }
}
