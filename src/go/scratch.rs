//! A board the ko census tries plays on ([`super::census`]: the fill of a
//! ko mouth, the one-move tries of the classification), played on and put
//! back in place.

use super::position::{Cell, Colour, Position};
use std::cell::RefCell;

/// The buffers of a [`Scratch`], kept from one census to the next on the
/// same thread (a game under the New Ko Rules makes a census a move: its
/// board-sized buffers were a few allocations and a clear of the board each).
#[derive(Default)]
struct Buffers {
    cells: Vec<Cell>,
    /// The changes made, oldest first, for [`Scratch::undo`].
    log: Vec<(usize, Cell)>,
    /// Points seen by the current walk (equal to `stamp`).
    seen: Vec<u32>,
    stamp: u32,
    /// The stones of the last string [`Scratch::survives`] walked.
    walk: Vec<usize>,
    /// The list [`Scratch::chain`] and [`Scratch::liberties`] walk into.
    out: Vec<usize>,
    /// For each point, its neighbours in [`Position::neighbours`]' order,
    /// then [`NO_POINT`]: kept with the buffers (made again only for a
    /// board of another size), where `neighbours` divides by the width at
    /// every call.
    around: Vec<[u32; 4]>,
    /// The board size `around` was made for (width, height).
    dims: (usize, usize),
}

thread_local! {
    /// The buffers of the last scratch board dropped on this thread.
    static SPARE: RefCell<Option<Buffers>> = const { RefCell::new(None) };
}

/// A board the census tries plays on (the fill of a mouth, the one-move
/// tries of the classification): the cells of one position, played on and
/// put back in place, so a trial costs the points it touches, not a copy
/// of the board as [`Position::play_move`] makes. Plays follow
/// `play_move`'s rules with no ko ban (captures of mortal strings only,
/// suicide forbidden unless the string touches the frame); tested against
/// it.
pub(super) struct Scratch<'a> {
    pub(super) pos: &'a Position,
    /// The cells played on, the undo log, the walks' marks and the
    /// neighbour table ([`Buffers`]), given back to the thread when dropped.
    buf: Buffers,
}

/// The end of a point's neighbours in [`Scratch::around`]'s table.
const NO_POINT: u32 = u32::MAX;

/// The neighbours of one point ([`Scratch::around`]).
pub(super) struct Around {
    at: [u32; 4],
    i: usize,
}

impl Iterator for Around {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let p = *self.at.get(self.i)?;
        if p == NO_POINT {
            return None;
        }
        self.i += 1;
        Some(p as usize)
    }
}

impl<'a> Scratch<'a> {
    pub(super) fn new(pos: &'a Position) -> Scratch<'a> {
        let mut spare = SPARE.with(|s| s.borrow_mut().take()).unwrap_or_default();
        spare.cells.clear();
        spare.cells.extend_from_slice(&pos.cells);
        spare.log.clear();
        // Marks left by earlier walks are older stamps: they mark nothing.
        if spare.seen.len() < pos.cells_len() {
            spare.seen.resize(pos.cells_len(), 0);
        }
        let dims = (pos.width(), pos.height());
        if spare.dims != dims || spare.around.len() != pos.cells_len() {
            spare.around.clear();
            spare.around.extend((0..pos.cells_len()).map(|p| {
                let mut at = [NO_POINT; 4];
                for (slot, q) in at.iter_mut().zip(pos.neighbours(p)) {
                    *slot = u32::try_from(q).expect("a board of fewer than 2^32 points");
                }
                at
            }));
            spare.dims = dims;
        }
        Scratch { pos, buf: spare }
    }

    /// The neighbours of `p`, in [`Position::neighbours`]' order.
    pub(super) fn around(&self, p: usize) -> Around {
        Around {
            at: self.buf.around[p],
            i: 0,
        }
    }

    /// The string through the stone on `p` (sorted) into `out`, which it
    /// clears first (empty if `p` is empty): [`Scratch::chain`] without
    /// an allocation when `out` has room.
    pub(super) fn chain_into(&mut self, p: usize, out: &mut Vec<usize>) {
        out.clear();
        let Cell::Stone(colour) = self.buf.cells[p] else {
            return;
        };
        let stamp = self.next_stamp();
        self.buf.seen[p] = stamp;
        out.push(p);
        let mut i = 0;
        while i < out.len() {
            for n in self.around(out[i]) {
                if self.buf.seen[n] != stamp && self.buf.cells[n] == Cell::Stone(colour) {
                    self.buf.seen[n] = stamp;
                    out.push(n);
                }
            }
            i += 1;
        }
        out.sort_unstable();
    }

    /// The breaths of a string (sorted) into `out`, which it clears first.
    pub(super) fn liberties_into(&mut self, chain: &[usize], out: &mut Vec<usize>) {
        out.clear();
        let stamp = self.next_stamp();
        for &q in chain {
            for n in self.around(q) {
                if self.buf.cells[n] == Cell::Empty && self.buf.seen[n] != stamp {
                    self.buf.seen[n] = stamp;
                    out.push(n);
                }
            }
        }
        out.sort_unstable();
    }

    /// Whether the string through the stone on `p` is `want` (sorted), read
    /// without an allocation (for short strings: a stone reached before
    /// one already walked restarts the walk).
    pub(super) fn chain_is(&mut self, p: usize, want: &[usize]) -> bool {
        let Cell::Stone(colour) = self.buf.cells[p] else {
            return want.is_empty();
        };
        if want.binary_search(&p).is_err() {
            return false;
        }
        let stamp = self.next_stamp();
        self.buf.seen[p] = stamp;
        let mut found = 1;
        // The stones found are those of `want`: walk them in its order.
        let mut i = 0;
        while i < want.len() {
            let q = want[i];
            i += 1;
            if self.buf.seen[q] != stamp {
                continue;
            }
            for n in self.around(q) {
                if self.buf.seen[n] != stamp && self.buf.cells[n] == Cell::Stone(colour) {
                    if want.binary_search(&n).is_err() {
                        return false;
                    }
                    self.buf.seen[n] = stamp;
                    found += 1;
                    // A stone earlier in `want` is walked again from the start.
                    if n < q {
                        i = 0;
                    }
                }
            }
        }
        found == want.len()
    }

    /// Whether the string `chain` has a breath, and whether every breath
    /// satisfies `pred`, read without an allocation.
    pub(super) fn breaths_all(
        &mut self,
        chain: &[usize],
        pred: impl Fn(usize) -> bool,
    ) -> (bool, bool) {
        let stamp = self.next_stamp();
        let mut some = false;
        for &q in chain {
            for n in self.around(q) {
                if self.buf.cells[n] == Cell::Empty && self.buf.seen[n] != stamp {
                    self.buf.seen[n] = stamp;
                    some = true;
                    if !pred(n) {
                        return (true, false);
                    }
                }
            }
        }
        (some, true)
    }

    pub(super) fn cell(&self, p: usize) -> Cell {
        self.buf.cells[p]
    }

    fn set(&mut self, p: usize, c: Cell) {
        self.buf.log.push((p, self.buf.cells[p]));
        self.buf.cells[p] = c;
    }

    /// A mark to [`Scratch::undo`] to.
    pub(super) fn mark(&self) -> usize {
        self.buf.log.len()
    }

    /// Puts back every change made since `mark`.
    pub(super) fn undo(&mut self, mark: usize) {
        while self.buf.log.len() > mark {
            let (p, c) = self.buf.log.pop().expect("log longer than mark");
            self.buf.cells[p] = c;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.buf.stamp = self.buf.stamp.wrapping_add(1);
        if self.buf.stamp == 0 {
            self.buf.seen.iter_mut().for_each(|s| *s = 0);
            self.buf.stamp = 1;
        }
        self.buf.stamp
    }

    /// The string through the stone on `p`, sorted (empty if `p` is empty).
    pub(super) fn chain(&mut self, p: usize) -> Vec<usize> {
        // Walked into a kept buffer, then copied once at its size.
        let mut chain = std::mem::take(&mut self.buf.out);
        self.chain_into(p, &mut chain);
        let v = chain.to_vec();
        self.buf.out = chain;
        v
    }

    /// The breaths of a string, sorted.
    pub(super) fn liberties(&mut self, chain: &[usize]) -> Vec<usize> {
        let mut libs = std::mem::take(&mut self.buf.out);
        self.liberties_into(chain, &mut libs);
        let v = libs.to_vec();
        self.buf.out = libs;
        v
    }

    /// Whether the string through the stone on `p` has a breath or a stone
    /// in the frame (so it is not captured); the walk stops at the first
    /// one found. Otherwise its stones are left in `self.buf.walk`.
    fn survives(&mut self, p: usize) -> bool {
        let Cell::Stone(colour) = self.buf.cells[p] else {
            return true;
        };
        let pos = self.pos;
        let stamp = self.next_stamp();
        self.buf.seen[p] = stamp;
        self.buf.walk.clear();
        self.buf.walk.push(p);
        let mut i = 0;
        while i < self.buf.walk.len() {
            let q = self.buf.walk[i];
            if pos.is_frame(q) {
                return true;
            }
            for n in self.around(q) {
                match self.buf.cells[n] {
                    Cell::Empty => return true,
                    c if c == Cell::Stone(colour) && self.buf.seen[n] != stamp => {
                        self.buf.seen[n] = stamp;
                        self.buf.walk.push(n);
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
        if self.buf.cells[p] != Cell::Empty {
            return false;
        }
        let mark = self.mark();
        self.set(p, Cell::Stone(colour));
        let opp = Cell::Stone(colour.opponent());
        for n in self.around(p) {
            if self.buf.cells[n] != opp || self.survives(n) {
                continue;
            }
            for i in 0..self.buf.walk.len() {
                let q = self.buf.walk[i];
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

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let spare = std::mem::take(&mut self.buf);
        SPARE.with(|s| *s.borrow_mut() = Some(spare));
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
                assert_eq!(b.buf.cells, pos.cells);
            }
            b.undo(0);
            assert_eq!(b.buf.cells, start.cells);
        }
        assert!(
            legal > 250 && captures > 30,
            "{legal} plays, {captures} captures"
        );
    }
}
