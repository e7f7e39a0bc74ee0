//! Benson's algorithm: the chains that are alive whatever the opponent
//! does, even if their owner always passes (D. B. Benson, "Life in the game
//! of Go", 1976).
//!
//! The board is taken as a whole: every stone can be captured (framing
//! marks are ignored), the rectangle is the whole board. For one colour `c`:
//!
//! * a *chain* is a maximal connected set of `c` stones;
//! * a *region* (of `c`) is a maximal connected set of points that do not
//!   hold a `c` stone (empty points and the opponent's stones);
//! * a region is *vital* to a chain when the chain borders it and every
//!   empty point of the region is a liberty of the chain (the region must
//!   hold at least one empty point: a region of stones alone would be
//!   stones without liberties, which no legal board has).
//!
//! Start from all chains and all regions and repeat until nothing changes:
//! remove every chain that has fewer than two vital regions among the
//! remaining regions; then remove every region that borders a removed
//! chain. The chains that remain are *unconditionally alive*: the opponent
//! cannot capture them even with any number of moves in a row, because
//! each keeps two vital regions, every empty point of which it touches, and
//! the opponent can fill neither region completely (the last empty point
//! of a vital region would be suicide while the chain still has another
//! region's liberty, and the other regions' chains, also alive by the same
//! argument, cannot be captured first).

use super::position::{Cell, Colour, Position};

/// For each point, whether it holds a stone of an unconditionally alive
/// chain (of either colour).
pub fn unconditionally_alive(pos: &Position) -> Vec<bool> {
    let mut alive = vec![false; pos.cells.len()];
    for colour in [Colour::Black, Colour::White] {
        for p in alive_points(pos, colour) {
            alive[p] = true;
        }
    }
    alive
}

/// Labels the connected sets of points satisfying `inside`: a label per
/// point (`usize::MAX` outside) and the number of labels.
fn label(pos: &Position, inside: impl Fn(usize) -> bool) -> (Vec<usize>, usize) {
    let n = pos.cells.len();
    let mut lab = vec![usize::MAX; n];
    let mut count = 0;
    for start in 0..n {
        if lab[start] != usize::MAX || !inside(start) {
            continue;
        }
        lab[start] = count;
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for q in pos.neighbours(p) {
                if lab[q] == usize::MAX && inside(q) {
                    lab[q] = count;
                    stack.push(q);
                }
            }
        }
        count += 1;
    }
    (lab, count)
}

/// The points of the unconditionally alive chains of `colour`. (Points are
/// indices into several per-point tables at once, hence the index loops.)
#[allow(clippy::needless_range_loop)]
fn alive_points(pos: &Position, colour: Colour) -> Vec<usize> {
    let own = Cell::Stone(colour);
    let (chain_of, chains) = label(pos, |p| pos.cells[p] == own);
    let (region_of, regions) = label(pos, |p| pos.cells[p] != own);
    // The chains bordering each region, and the chains to which it is vital.
    let mut borders: Vec<Vec<usize>> = vec![Vec::new(); regions];
    let mut has_empty = vec![false; regions];
    for p in 0..pos.cells.len() {
        let r = region_of[p];
        if r == usize::MAX {
            continue;
        }
        if pos.cells[p] == Cell::Empty {
            has_empty[r] = true;
        }
        for q in pos.neighbours(p) {
            let c = chain_of[q];
            if c != usize::MAX && !borders[r].contains(&c) {
                borders[r].push(c);
            }
        }
    }
    // vital[r]: the chains every empty point of region r touches.
    let mut vital: Vec<Vec<usize>> = borders.clone();
    for p in 0..pos.cells.len() {
        let r = region_of[p];
        if r == usize::MAX || pos.cells[p] != Cell::Empty {
            continue;
        }
        let touching: Vec<usize> = pos.neighbours(p).map(|q| chain_of[q]).collect();
        vital[r].retain(|c| touching.contains(c));
    }
    for r in 0..regions {
        if !has_empty[r] {
            vital[r].clear();
        }
    }
    let mut chain_alive = vec![true; chains];
    let mut region_alive = vec![true; regions];
    loop {
        let mut changed = false;
        let mut vital_count = vec![0usize; chains];
        for r in (0..regions).filter(|&r| region_alive[r]) {
            for &c in &vital[r] {
                vital_count[c] += 1;
            }
        }
        for c in 0..chains {
            if chain_alive[c] && vital_count[c] < 2 {
                chain_alive[c] = false;
                changed = true;
            }
        }
        for r in 0..regions {
            if region_alive[r] && borders[r].iter().any(|&c| !chain_alive[c]) {
                region_alive[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..pos.cells.len())
        .filter(|&p| chain_of[p] != usize::MAX && chain_alive[chain_of[p]])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The alive points of a diagram, drawn back: `#` alive, the rest as is.
    fn alive_map(diagram: &str) -> String {
        let pos = Position::parse(diagram).unwrap();
        let alive = unconditionally_alive(&pos);
        let mut out = String::new();
        for r in 0..pos.height() {
            for c in 0..pos.width() {
                let p = pos.index(r, c).unwrap();
                out.push(match (pos.cell(p), alive[p]) {
                    (_, true) => '#',
                    (Cell::Empty, _) => '.',
                    (Cell::Stone(Colour::Black), _) => 'x',
                    (Cell::Stone(Colour::White), _) => 'o',
                });
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn two_separate_eyes_live() {
        // A Black group in the corner with eyes at A1 and C1.
        let d = "\
x x x x .
. x . x .
x x x x .
. . . . .";
        assert_eq!(alive_map(d), "####.\n.#.#.\n####.\n.....\n");
    }

    #[test]
    fn one_big_eye_does_not_live() {
        // The two empty points form one region; neither is vital alone and
        // the region is one eye: not unconditionally alive.
        let d = "\
x x x x .
x . . x .
x x x x .
. . . . .";
        assert_eq!(alive_map(d), "xxxx.\nx..x.\nxxxx.\n.....\n");
    }

    #[test]
    fn a_large_eye_with_an_inner_point_is_not_vital() {
        // One chain; the corner points A5, C5 and B3 are vital regions (every
        // empty point touches the chain); the 3×3 hole is not (its centre
        // touches no stone). Three vital regions: alive.
        let d = "\
. x . x x x x x
x x x x . . . x
x . x x . . . x
x x x x . . . x
x x x x x x x x";
        assert_eq!(
            alive_map(d),
            ".#.#####\n####...#\n#.##...#\n####...#\n########\n"
        );
    }

    #[test]
    fn a_false_eye_is_not_an_eye() {
        // B1-shaped corner: the eye at B3 is false (White captures C3 by
        // playing B3), so the chain of C3 has one vital region, its removal
        // kills the region B3, and then nothing is left with two.
        let d = "\
x . x o .
. x o o .
x x o . .";
        assert_eq!(alive_map(d), "x.xo.\n.xoo.\nxxo..\n");
        // Several chains sharing eyes: every region touches every chain
        // around it, so all live (White cannot play any of the three
        // points: each would be suicide).
        let shared = "\
. x . x o
x . x x o
x x x o o
o o o o .";
        assert_eq!(alive_map(shared), ".#.#o\n#.##o\n###oo\noooo.\n");
    }

    #[test]
    fn whole_board_edge_cases() {
        // Empty board: nothing alive.
        assert_eq!(alive_map(". . .\n. . ."), "...\n...\n");
        // A board filled by one colour but for two separate points: alive.
        assert_eq!(alive_map(". x .\nx x x"), ".#.\n###\n");
        // One empty point only: one region, dead in Benson's sense.
        assert_eq!(alive_map(". x x\nx x x"), ".xx\nxxx\n");
        // A White stone inside a Black eye: the region is vital (its one
        // empty point touches the chain), the other eye too: alive.
        assert_eq!(alive_map("o . x . \nx x x x"), "o.#.\n####\n");
    }
}
