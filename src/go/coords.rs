//! Board coordinates: Go notation (`C3`) and SGF letters (`cc`).
//!
//! A whole board is a rectangle of at most [`MAX_BOARD`] × [`MAX_BOARD`]
//! points. Points are indexed from the top left, row by row (as in every
//! [`Position`](super::Position)); the two notations name them as Go players
//! do:
//!
//! * **Go notation** (`C3`, `Q16`): a column letter from `A`, skipping `I`
//!   (so the 9th column is `J` and the 19th `T`), then the row counted from
//!   the *bottom* from 1. Letters are read in either case.
//! * **SGF** (`cc`): column then row, each a lowercase letter from `a`,
//!   both counted from the *top left*; the FF[4] format also has uppercase
//!   letters for points past 26, which boards of at most 19 lines never
//!   need.
//!
//! A region cut out of a board (a [`Position`](super::Position) with an
//! [`Origin`]) names its points by where they lie on the board, so a line of
//! play in a region reads `B C3`.

use std::fmt;

/// The largest board side: 19 lines.
pub const MAX_BOARD: usize = 19;

/// Where a position's rectangle lies on a whole board: the board's size and
/// the board row and column of the position's top-left point (from 0, from
/// the top left).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Origin {
    pub board_width: usize,
    pub board_height: usize,
    pub row: usize,
    pub col: usize,
}

impl Origin {
    /// The origin of a whole board of this size.
    pub fn board(width: usize, height: usize) -> Origin {
        Origin {
            board_width: width,
            board_height: height,
            row: 0,
            col: 0,
        }
    }

    /// The board point `(row, col)` of the position's point `(r, c)`.
    pub fn on_board(&self, r: usize, c: usize) -> (usize, usize) {
        (self.row + r, self.col + c)
    }

    /// The Go name (`C3`) of the board point `(row, col)`.
    pub fn go_name(&self, row: usize, col: usize) -> String {
        go_name(self.board_height, row, col)
    }
}

/// The column letter of Go notation: `A`…`H`, `J`…`Z` (no `I`), for
/// columns 0 to 24.
pub fn column_letter(col: usize) -> char {
    let skip_i = if col >= 8 { 1 } else { 0 };
    (b'A' + (col + skip_i) as u8) as char
}

/// The Go name of board point `(row, col)` (row 0 is the top) on a board of
/// `height` rows: `C3` is column C, third row from the bottom.
pub fn go_name(height: usize, row: usize, col: usize) -> String {
    format!("{}{}", column_letter(col), height - row)
}

/// The SGF name (`cc`) of board point `(row, col)`: column letter, then row
/// letter, both from `a` at the top left.
pub fn sgf_name(row: usize, col: usize) -> String {
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(col), letter(row))
}

/// Why a coordinate does not name a point of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordError {
    /// Not a coordinate at all.
    Malformed,
    /// The column letter `I`, which Go notation skips.
    ColumnI,
    /// A well-formed coordinate beyond the board's edge.
    OffBoard { width: usize, height: usize },
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordError::Malformed => f.write_str(
                "a board point is written in Go notation (a column letter and a row number \
                 from the bottom, such as `C3`) or in SGF letters (`[cc]`)",
            ),
            CoordError::ColumnI => f.write_str(
                "Go coordinates have no column `I` (the columns run A–H, J–T: the letter after H is J)",
            ),
            CoordError::OffBoard { width, height } => {
                write!(f, "this point is off the {width}×{height} board")
            }
        }
    }
}

/// Reads a Go coordinate (`C3`, `q16`) on a board of `width` × `height`,
/// giving the board point `(row, col)`.
pub fn parse_go(text: &str, width: usize, height: usize) -> Result<(usize, usize), CoordError> {
    let mut chars = text.chars();
    let letter = chars
        .next()
        .filter(|c| c.is_ascii_alphabetic())
        .ok_or(CoordError::Malformed)?
        .to_ascii_uppercase();
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CoordError::Malformed);
    }
    if letter == 'I' {
        return Err(CoordError::ColumnI);
    }
    let col = (letter as u8 - b'A') as usize - usize::from(letter > 'I');
    let number: usize = digits.parse().map_err(|_| CoordError::Malformed)?;
    if col >= width || number == 0 || number > height {
        return Err(CoordError::OffBoard { width, height });
    }
    Ok((height - number, col))
}

/// Reads an SGF point (`cc`) on a board of `width` × `height`, giving the
/// board point `(row, col)`. Both lowercase and (FF[4], past 26) uppercase
/// letters are read.
pub fn parse_sgf(text: &str, width: usize, height: usize) -> Result<(usize, usize), CoordError> {
    let value = |c: u8| match c {
        b'a'..=b'z' => Some((c - b'a') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 26),
        _ => None,
    };
    let [c, r] = text.as_bytes() else {
        return Err(CoordError::Malformed);
    };
    let (col, row) = value(*c).zip(value(*r)).ok_or(CoordError::Malformed)?;
    if col >= width || row >= height {
        return Err(CoordError::OffBoard { width, height });
    }
    Ok((row, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_names_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(go_name(19, 18, 0), "A1");
        assert_eq!(go_name(19, 0, 18), "T19");
        assert_eq!(go_name(19, 16, 2), "C3");
        assert_eq!(go_name(9, 0, 8), "J9");
        assert_eq!(column_letter(7), 'H');
        assert_eq!(column_letter(8), 'J');
        for height in 1..=MAX_BOARD {
            for row in 0..height {
                for col in 0..MAX_BOARD {
                    let name = go_name(height, row, col);
                    assert_eq!(parse_go(&name, MAX_BOARD, height), Ok((row, col)), "{name}");
                    let lower = name.to_ascii_lowercase();
                    assert_eq!(parse_go(&lower, MAX_BOARD, height), Ok((row, col)));
                    let sgf = sgf_name(row, col);
                    assert_eq!(parse_sgf(&sgf, MAX_BOARD, height), Ok((row, col)), "{sgf}");
                }
            }
        }
    }

    #[test]
    fn bad_coordinates_say_why() {
        assert_eq!(parse_go("I5", 19, 19), Err(CoordError::ColumnI));
        assert_eq!(
            parse_go("K5", 9, 9),
            Err(CoordError::OffBoard {
                width: 9,
                height: 9
            })
        );
        assert_eq!(
            parse_go("A10", 9, 9),
            Err(CoordError::OffBoard {
                width: 9,
                height: 9
            })
        );
        assert_eq!(
            parse_go("A0", 9, 9),
            Err(CoordError::OffBoard {
                width: 9,
                height: 9
            })
        );
        assert_eq!(parse_go("3C", 9, 9), Err(CoordError::Malformed));
        assert_eq!(parse_go("C", 9, 9), Err(CoordError::Malformed));
        assert_eq!(parse_sgf("cc", 19, 19), Ok((2, 2)));
        assert_eq!(parse_sgf("ab", 19, 19), Ok((1, 0)));
        assert_eq!(
            parse_sgf("tt", 19, 19),
            Err(CoordError::OffBoard {
                width: 19,
                height: 19
            })
        );
        assert_eq!(parse_sgf("c", 19, 19), Err(CoordError::Malformed));
    }
}
