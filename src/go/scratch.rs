//! A board the ko census tries plays on ([`super::census`]: the fill of a
//! ko mouth, the one-move tries of the classification), played on and put
//! back in place.

use super::position::{Cell, Colour, Position};

/// A board the census tries plays on (the fill of a mouth, the one-move
/// tries of the classification): the cells of one position, played on and
/// put back in place, so a trial costs the points it touches, not a copy
/// of the board as [`Position::play_move`] makes. Plays follow
/// `play_move`'s rules with no ko ban (captures of mortal strings only,
/// suicide forbidden unless the string touches the frame); tested against
/// it.
pub(super) struct Scratch<'a> {
    pub(super) pos: &'a Position,
    cells: Vec<Cell>,
    /// The changes made, oldest first, for [`Scratch::undo`].
    log: Vec<(usize, Cell)>,
    /// Points seen by the current walk (equal to `stamp`).
    seen: Vec<u32>,
    stamp: u32,
    /// The stones of the last string [`Scratch::survives`] walked.
    walk: Vec<usize>,
}

impl<'a> Scratch<'a> {
    pub(super) fn new(pos: &'a Position) -> Scratch<'a> {
        Scratch {
            pos,
            cells: pos.cells.clone(),
            log: Vec::new(),
            seen: vec![0; pos.cells_len()],
            stamp: 0,
            walk: Vec::new(),
        }
    }

    pub(super) fn cell(&self, p: usize) -> Cell {
        self.cells[p]
    }

    fn set(&mut self, p: usize, c: Cell) {
        self.log.push((p, self.cells[p]));
        self.cells[p] = c;
    }

    /// A mark to [`Scratch::undo`] to.
    pub(super) fn mark(&self) -> usize {
        self.log.len()
    }

    /// Puts back every change made since `mark`.
    pub(super) fn undo(&mut self, mark: usize) {
        while self.log.len() > mark {
            let (p, c) = self.log.pop().expect("log longer than mark");
            self.cells[p] = c;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// The string through the stone on `p`, sorted (empty if `p` is empty).
    pub(super) fn chain(&mut self, p: usize) -> Vec<usize> {
        let Cell::Stone(colour) = self.cells[p] else {
            return Vec::new();
        };
        let pos = self.pos;
        let stamp = self.next_stamp();
        self.seen[p] = stamp;
        let mut chain = vec![p];
        let mut i = 0;
        while i < chain.len() {
            for n in pos.neighbours(chain[i]) {
                if self.seen[n] != stamp && self.cells[n] == Cell::Stone(colour) {
                    self.seen[n] = stamp;
                    chain.push(n);
                }
            }
            i += 1;
        }
        chain.sort_unstable();
        chain
    }

    /// The breaths of a string, sorted.
    pub(super) fn liberties(&mut self, chain: &[usize]) -> Vec<usize> {
        let pos = self.pos;
        let stamp = self.next_stamp();
        let mut libs = Vec::new();
        for &q in chain {
            for n in pos.neighbours(q) {
                if self.cells[n] == Cell::Empty && self.seen[n] != stamp {
                    self.seen[n] = stamp;
                    libs.push(n);
                }
            }
        }
        libs.sort_unstable();
        libs
    }

    /// Whether the string through the stone on `p` has a breath or a stone
    /// in the frame (so it is not captured); the walk stops at the first
    /// one found. Otherwise its stones are left in `self.walk`.
    fn survives(&mut self, p: usize) -> bool {
        let Cell::Stone(colour) = self.cells[p] else {
            return true;
        };
        let pos = self.pos;
        let stamp = self.next_stamp();
        self.seen[p] = stamp;
        self.walk.clear();
        self.walk.push(p);
        let mut i = 0;
        while i < self.walk.len() {
            let q = self.walk[i];
            if pos.is_frame(q) {
                return true;
            }
            for n in pos.neighbours(q) {
                match self.cells[n] {
                    Cell::Empty => return true,
                    c if c == Cell::Stone(colour) && self.seen[n] != stamp => {
                        self.seen[n] = stamp;
                        self.walk.push(n);
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        false
    }

    /// `colour` plays on `p`; false (and nothing changed) when the play is
    /// not legal.
    pub(super) fn play(&mut self, colour: Colour, p: usize) -> bool {
        if self.cells[p] != Cell::Empty {
            return false;
        }
        let mark = self.mark();
        self.set(p, Cell::Stone(colour));
        let opp = Cell::Stone(colour.opponent());
        let pos = self.pos;
        for n in pos.neighbours(p) {
            if self.cells[n] != opp || self.survives(n) {
                continue;
            }
            for i in 0..self.walk.len() {
                let q = self.walk[i];
                self.set(q, Cell::Empty);
            }
        }
        if !self.survives(p) {
            self.undo(mark);
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The census' trial board plays as `Position::play_move` does (no ko
    /// ban): random boards with framing stones, random plays of either
    /// colour, the same legality and the same cells after each; undoing
    /// a run of plays gives the board back.
    #[test]
    fn scratch_plays_are_board_plays() {
        use super::super::position::Move;
        let mut seed: u64 = 0x5c7a_7c4;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut legal, mut captures) = (0, 0);
        for _ in 0..200 {
            let (w, h) = (2 + next(7) as usize, 2 + next(7) as usize);
            let text: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| match next(12) {
                            0..=2 => "x",
                            3..=5 => "o",
                            6 => "X",
                            7 => "O",
                            _ => ".",
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            // A diagram with a string short of breaths is not a board.
            let Ok(start) = Position::parse(&text.join("\n")) else {
                continue;
            };
            let mut pos = start.clone();
            let mut b = Scratch::new(&start);
            for _ in 0..12 {
                let colour = if next(2) == 0 {
                    Colour::Black
                } else {
                    Colour::White
                };
                let p = next((w * h) as u64) as usize;
                let mut free = pos.clone();
                free.clear_ko_ban();
                let want = free.play_move(Move {
                    colour,
                    point: Some(p),
                });
                assert_eq!(b.play(colour, p), want.is_ok(), "{text:?} {colour:?} {p}");
                if let Ok(after) = want {
                    legal += 1;
                    if after.prisoners(colour) > pos.prisoners(colour) {
                        captures += 1;
                    }
                    pos = after;
                }
                assert_eq!(b.cells, pos.cells);
            }
            b.undo(0);
            assert_eq!(b.cells, start.cells);
        }
        assert!(
            legal > 250 && captures > 30,
            "{legal} plays, {captures} captures"
        );
    }
}
