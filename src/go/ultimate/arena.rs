//! What the solver plays on ([`Arena`]) and the small Go board as one
//! ([`GoArena`]): boards as 2-bit codes, chains by bit masks, and the
//! recurrence classes that keep the history key small.

use super::SolveError;
use crate::go::position::{Cell, Colour, Position};
use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

/// What the solver plays on: boards and the placements from them. A board
/// value is what the history records (positional superko compares boards).
pub trait Arena {
    type Board: Copy + Eq + Hash + Ord + fmt::Debug;
    /// Every legal placement of `colour` on `board` (superko aside): the
    /// board after it and the stones it captures.
    fn placements(&self, board: Self::Board, colour: Colour, out: &mut Vec<(Self::Board, u32)>);
    /// The point of the placement that led from `before` to `after` (any
    /// number below 64; the solver's move ordering only remembers which
    /// points refuted or won, so a constant is correct, merely slower).
    fn placed(&self, _before: Self::Board, _after: Self::Board) -> usize {
        0
    }
    /// Whether `earlier` could be the board again after `now` (a necessary
    /// condition only; boards that cannot recur are left out of the memo
    /// keys, which is what makes transpositions possible).
    fn can_recur(&self, _now: Self::Board, _earlier: Self::Board) -> bool {
        true
    }
    /// The boards of `history` other than `now` that could come back
    /// ([`Arena::can_recur`]), appended to `out`.
    fn recurring(&self, now: Self::Board, history: &[Self::Board], out: &mut Vec<Self::Board>) {
        out.extend(
            history
                .iter()
                .copied()
                .filter(|&b| b != now && self.can_recur(now, b)),
        );
    }
    /// The image of `board` under the arena's colour-exchanging symmetry,
    /// if it has one: an involution of the points that keeps the arena
    /// (neighbours, framing stones) but for the framing stones' colours,
    /// which it exchanges, applied to `board` with every stone's colour
    /// exchanged. The game from the image, the other player to move, is the
    /// game from `board` with the two players' parts exchanged (the
    /// solver's use is in its module docs, "Symmetry").
    fn colour_mirror(&self, _board: Self::Board) -> Option<Self::Board> {
        None
    }
    /// The boards that can come back after `child`, a placement from
    /// `parent`, appended to `out` in order: `parent_recurring` is
    /// [`Arena::recurring`] of `parent` under a history, sorted and
    /// without duplicates, and the answer is that of `child` under the
    /// same history with `parent` played (`child` not in it). A board that
    /// can come back after `child` could after `parent` (`parent` lies on
    /// the way from it to `child`), so only those boards and `parent` are
    /// looked at. Must agree with [`Arena::recurring`] (a test checks it
    /// on random lines).
    fn recurring_after(
        &self,
        parent: Self::Board,
        parent_recurring: &[Self::Board],
        child: Self::Board,
        out: &mut Vec<Self::Board>,
    ) {
        merge_with(parent_recurring, parent, |b| {
            if b != child && self.can_recur(child, b) {
                out.push(b);
            }
        });
    }
}

/// Calls `f` on the boards of `sorted` with `extra` in its place, in
/// order (`extra` not in `sorted`).
fn merge_with<B: Copy + Ord>(sorted: &[B], extra: B, mut f: impl FnMut(B)) {
    let at = sorted.partition_point(|&b| b < extra);
    sorted[..at].iter().for_each(|&b| f(b));
    f(extra);
    sorted[at..].iter().for_each(|&b| f(b));
}

/// A small Go board as an [`Arena`]: 2 bits a point in a `u128`, framing
/// stones (immortal, as in a diagram) in a mask. Chains are found with bit
/// masks (a board has at most 64 points).
#[derive(Clone, Debug)]
pub struct GoArena {
    n: usize,
    /// The neighbours of each point, as a mask.
    neighbours: Vec<u64>,
    immortal: u64,
    /// Which boards can lead back to which ([`GoArena::with_recurrence_classes`]).
    classes: Option<Arc<RecurClasses>>,
    /// The colour-exchanging symmetry ([`Arena::colour_mirror`]), if any.
    mirror: Option<Arc<ColourMirror>>,
}

/// A colour-exchanging symmetry of a board, as tables: byte `j` of a board
/// code (points `4j … 4j + 3`) maps to `table[j][byte]`, the image of those
/// points with their colours exchanged, and a board's image is the union
/// of its bytes' images.
#[derive(Debug)]
struct ColourMirror {
    table: Vec<[BoardCode; 256]>,
}

impl ColourMirror {
    /// The tables of the point involution `image` (point `p` goes to
    /// `image[p]`).
    fn new(image: &[usize]) -> ColourMirror {
        let table = image
            .chunks(4)
            .map(|points| {
                let mut t = [0; 256];
                for (byte, out) in t.iter_mut().enumerate() {
                    for (i, &q) in points.iter().enumerate() {
                        let exchanged = match (byte >> (2 * i)) & 3 {
                            1 => 2,
                            2 => 1,
                            c => c,
                        };
                        *out |= (exchanged as BoardCode) << (2 * q);
                    }
                }
                t
            })
            .collect();
        ColourMirror { table }
    }

    fn apply(&self, code: BoardCode) -> BoardCode {
        self.table
            .iter()
            .enumerate()
            .fold(0, |m, (j, t)| m | t[((code >> (8 * j)) & 0xff) as usize])
    }
}

/// The regions of a board up to [`RECUR_CLASS_POINTS`] points each, and
/// for each the strongly connected component of every state of the region
/// reachable from the root (module docs, "Repetition").
#[derive(Debug, Default)]
struct RecurClasses {
    regions: Vec<RegionClasses>,
}

/// One region's recurrence classes: its points, and the component of each
/// of its states reachable from the root, in a table indexed by the state
/// read as a base-3 number ([`RegionClasses::index`]; 3^12 = 531 441
/// entries at most), [`UNREACHED`] for the others.
#[derive(Debug)]
struct RegionClasses {
    points: Vec<usize>,
    component: Vec<u32>,
}

/// A state of a region not reachable from the root.
const UNREACHED: u32 = u32::MAX;

impl RegionClasses {
    /// The region's cells of `code` as a base-3 number (digit 0 empty, 1
    /// Black, 2 White).
    fn index(points: &[usize], code: BoardCode) -> usize {
        points
            .iter()
            .fold(0, |i, &p| 3 * i + cell_at(code, p) as usize)
    }

    /// The component of the region's state in `code`, if reachable.
    fn of(&self, code: BoardCode) -> Option<u32> {
        let c = self.component[Self::index(&self.points, code)];
        (c != UNREACHED).then_some(c)
    }
}

/// The largest region whose states are enumerated for the recurrence
/// classes: 3^12 = 531 441 states at most (a corridor of twelve points,
/// whose every state is reachable, takes about 0.1 s; BENCHMARKS.md,
/// session 12: without the classes the corridor of eleven sent most
/// answers to the full records and passed the budget).
pub const RECUR_CLASS_POINTS: u32 = 12;

/// The code of a board: point `p` holds `(code >> 2p) & 3`: 0 empty, 1
/// Black, 2 White.
pub type BoardCode = u128;

fn cell_at(code: BoardCode, p: usize) -> u8 {
    ((code >> (2 * p)) & 3) as u8
}

pub(super) fn with_cell(code: BoardCode, p: usize, v: u8) -> BoardCode {
    (code & !(3u128 << (2 * p))) | ((v as u128) << (2 * p))
}

pub(super) fn colour_code(c: Colour) -> u8 {
    match c {
        Colour::Black => 1,
        Colour::White => 2,
    }
}

/// The even bits of `x`, packed: bit `2p` of `x` becomes bit `p`.
fn even_bits(x: u128) -> u64 {
    let mut x = x & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333_3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    x = (x | (x >> 8)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    x = (x | (x >> 16)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    x = (x | (x >> 32)) & 0x0000_0000_0000_0000_ffff_ffff_ffff_ffff;
    x as u64
}

/// The inverse of [`even_bits`]: bit `p` becomes bit `2p`.
fn spread(x: u64) -> u128 {
    let mut x = x as u128;
    x = (x | (x << 32)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333_3333_3333_3333_3333;
    x = (x | (x << 1)) & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    x
}

/// The points of a mask, lowest first.
fn points(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            p
        })
    })
}

impl GoArena {
    /// The arena of a position's rectangle and the code of its board.
    pub fn of(pos: &Position) -> Result<(GoArena, BoardCode), SolveError> {
        let n = pos.cells_len();
        if n > 64 {
            return Err(SolveError::TooLarge(n));
        }
        let neighbours = (0..n)
            .map(|p| pos.neighbours(p).fold(0u64, |m, q| m | 1 << q))
            .collect();
        let mut immortal = 0u64;
        let mut code = 0;
        for p in 0..n {
            if let Cell::Stone(c) = pos.cell(p) {
                code = with_cell(code, p, colour_code(c));
                if pos.is_frame(p) {
                    immortal |= 1 << p;
                }
            }
        }
        let mirror = Self::colour_symmetry(pos).map(|image| Arc::new(ColourMirror::new(&image)));
        Ok((
            GoArena {
                n,
                neighbours,
                immortal,
                classes: None,
                mirror,
            },
            code,
        ))
    }

    /// A reflection or half turn of the rectangle (a reflection in a
    /// diagonal too, on a square) that maps every framing stone onto a
    /// framing stone of the other colour, as the image of each point: the
    /// arena's colour-exchanging symmetry ([`Arena::colour_mirror`]).
    fn colour_symmetry(pos: &Position) -> Option<Vec<usize>> {
        let (w, h) = (pos.width(), pos.height());
        let n = pos.cells_len();
        // (row, column, height, width) to the image's (row, column).
        type Flip = fn(usize, usize, usize, usize) -> (usize, usize);
        let flips: [Flip; 5] = [
            |r, c, _, w| (r, w - 1 - c),
            |r, c, h, _| (h - 1 - r, c),
            |r, c, h, w| (h - 1 - r, w - 1 - c),
            |r, c, _, _| (c, r),
            |r, c, h, w| (w - 1 - c, h - 1 - r),
        ];
        let square = w == h;
        flips
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < 3 || square)
            .map(|(_, f)| {
                (0..n)
                    .map(|p| {
                        let (r, c) = f(p / w, p % w, h, w);
                        r * w + c
                    })
                    .collect::<Vec<usize>>()
            })
            .find(|image| {
                (0..n).all(|p| {
                    let q = image[p];
                    pos.is_frame(p) == pos.is_frame(q)
                        && (!pos.is_frame(p)
                            || matches!((pos.cell(p), pos.cell(q)),
                                (Cell::Stone(a), Cell::Stone(b)) if a != b))
                })
            })
    }

    /// The code of the cells of `pos` (same rectangle).
    pub fn code(&self, pos: &Position) -> BoardCode {
        let mut code = 0;
        for p in 0..self.n {
            if let Cell::Stone(c) = pos.cell(p) {
                code = with_cell(code, p, colour_code(c));
            }
        }
        code
    }

    /// Every point of the board, as a mask.
    fn all(&self) -> u64 {
        if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// The number of empty points of a board.
    pub fn empty_points(&self, code: BoardCode) -> usize {
        let (b, w) = (even_bits(code), even_bits(code >> 1));
        (self.all() & !(b | w)).count_ones() as usize
    }

    /// The points next to a mask's points.
    fn around(&self, m: u64) -> u64 {
        points(m).fold(0, |a, p| a | self.neighbours[p])
    }

    /// The stones of `same` connected to `seed` (a mask within `same`).
    fn flood(&self, seed: u64, same: u64) -> u64 {
        let (mut chain, mut frontier) = (seed, seed);
        while frontier != 0 {
            let next = self.around(frontier) & same & !chain;
            chain |= next;
            frontier = next;
        }
        chain
    }

    /// The placement of `colour` at `p`, if legal (empty point, not left
    /// surrounded): the board after it and the stones captured.
    pub fn place(&self, code: BoardCode, p: usize, colour: Colour) -> Option<(BoardCode, u32)> {
        if cell_at(code, p) != 0 {
            return None;
        }
        let (black, white) = (even_bits(code), even_bits(code >> 1));
        let (mut mine, theirs) = match colour {
            Colour::Black => (black, white),
            Colour::White => (white, black),
        };
        mine |= 1 << p;
        let mut empty = self.all() & !(mine | theirs);
        let mut captured = 0u64;
        let mut seen = 0u64;
        for q in points(self.neighbours[p] & theirs) {
            if seen & (1 << q) != 0 {
                continue;
            }
            let chain = self.flood(1 << q, theirs);
            seen |= chain;
            if chain & self.immortal == 0 && self.around(chain) & empty == 0 {
                captured |= chain;
            }
        }
        empty |= captured;
        let own = self.flood(1 << p, mine);
        if own & self.immortal == 0 && self.around(own) & empty == 0 {
            return None;
        }
        let next = with_cell(code & !(spread(captured) * 3), p, colour_code(colour));
        Some((next, captured.count_ones()))
    }

    /// The point where `after` has a stone of `colour` that `before` lacks
    /// (the point of a placement).
    pub fn placed_point(&self, before: BoardCode, after: BoardCode, colour: Colour) -> usize {
        (0..self.n)
            .find(|&p| cell_at(before, p) == 0 && cell_at(after, p) == colour_code(colour))
            .unwrap_or(0)
    }

    /// The stones of `code` whose chains hold a framing stone: never
    /// captured, so they never leave the board.
    fn fixed(&self, code: BoardCode) -> u64 {
        let (black, white) = (even_bits(code), even_bits(code >> 1));
        self.flood(self.immortal & black, black) | self.flood(self.immortal & white, white)
    }

    /// The arena with the recurrence classes of `root` (module docs,
    /// "Repetition"): the board is cut into regions by the stones that can
    /// never be captured (chains holding a framing stone); a placement in
    /// one region changes nothing in another, so the placement graph of the
    /// board (placements of either colour in any order: delays let a player
    /// wait) is the product of the regions' graphs. For each region of at
    /// most [`RECUR_CLASS_POINTS`] points every state reachable from the
    /// root is enumerated and its strongly connected component found
    /// (Tarjan). A board `B` of the history came before the current board
    /// `N`, so `N` is reachable from `B`; `B` can come back only if `B` is
    /// reachable from `N`, i.e. only if in every region the two states lie
    /// in one component. Positional superko only removes edges, so this is
    /// a necessary condition, which is all [`Arena::can_recur`] asks.
    pub fn with_recurrence_classes(mut self, root: BoardCode) -> GoArena {
        let fixed = self.fixed(root);
        let free = self.all() & !fixed;
        let mut left = free;
        let mut classes = RecurClasses::default();
        while left != 0 {
            let region = self.flood(left & left.wrapping_neg(), free);
            left &= !region;
            if region.count_ones() <= RECUR_CLASS_POINTS {
                classes.regions.push(self.components(root, region));
            }
        }
        self.classes = Some(Arc::new(classes));
        self
    }

    /// The strongly connected component of every state of `region`
    /// reachable from `root` by placements of either colour inside it
    /// (Tarjan's algorithm, iterative; a component is named by its first
    /// state found).
    fn components(&self, root: BoardCode, region: u64) -> RegionClasses {
        struct Frame {
            id: u32,
            code: BoardCode,
            /// Points still to try for Black, then for White.
            todo: [u64; 2],
        }
        let points: Vec<usize> = points(region).collect();
        // The id of each state found so far, by its base-3 index.
        let mut id_of = vec![UNREACHED; 3usize.pow(points.len() as u32)];
        let (mut low, mut comp): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        let mut stack: Vec<u32> = Vec::new();
        let mut indices: Vec<usize> = Vec::new();
        let empty_in = |code: BoardCode| {
            let (b, w) = (even_bits(code), even_bits(code >> 1));
            region & !(b | w)
        };
        let mut frames = vec![Frame {
            id: 0,
            code: root,
            todo: [empty_in(root); 2],
        }];
        let root_index = RegionClasses::index(&points, root);
        id_of[root_index] = 0;
        low.push(0);
        comp.push(UNREACHED);
        stack.push(0);
        indices.push(root_index);
        while let Some(f) = frames.last_mut() {
            let (v, code) = (f.id, f.code);
            let next = if f.todo[0] != 0 {
                let p = f.todo[0].trailing_zeros() as usize;
                f.todo[0] &= f.todo[0] - 1;
                Some(self.place(code, p, Colour::Black))
            } else if f.todo[1] != 0 {
                let p = f.todo[1].trailing_zeros() as usize;
                f.todo[1] &= f.todo[1] - 1;
                Some(self.place(code, p, Colour::White))
            } else {
                None
            };
            match next {
                Some(None) => {}
                Some(Some((succ, _))) => {
                    let i = RegionClasses::index(&points, succ);
                    match id_of[i] {
                        UNREACHED => {
                            let w = indices.len() as u32;
                            id_of[i] = w;
                            low.push(w);
                            comp.push(UNREACHED);
                            stack.push(w);
                            indices.push(i);
                            frames.push(Frame {
                                id: w,
                                code: succ,
                                todo: [empty_in(succ); 2],
                            });
                        }
                        w => {
                            if comp[w as usize] == UNREACHED {
                                low[v as usize] = low[v as usize].min(w);
                            }
                        }
                    }
                }
                None => {
                    frames.pop();
                    if low[v as usize] == v {
                        while let Some(w) = stack.pop() {
                            comp[w as usize] = v;
                            if w == v {
                                break;
                            }
                        }
                    }
                    if let Some(parent) = frames.last() {
                        let p = parent.id as usize;
                        low[p] = low[p].min(low[v as usize]);
                    }
                }
            }
        }
        // The table now maps each reached state to its component.
        for (id, &i) in indices.iter().enumerate() {
            id_of[i] = comp[id];
        }
        RegionClasses {
            points,
            component: id_of,
        }
    }

    /// The component of `now` in each region with classes (`None`: not
    /// found, which the root's descendants never are).
    fn classes_of(&self, now: BoardCode) -> Vec<Option<u32>> {
        let Some(classes) = &self.classes else {
            return Vec::new();
        };
        classes.regions.iter().map(|r| r.of(now)).collect()
    }

    /// Whether two boards lie in the same recurrence class in every region
    /// that has classes (`None` where a region does not know one of them).
    fn classes_agree(&self, a: BoardCode, b: BoardCode) -> Option<bool> {
        let Some(classes) = &self.classes else {
            return Some(true);
        };
        let mut agree = true;
        for r in &classes.regions {
            agree &= r.of(a)? == r.of(b)?;
        }
        Some(agree)
    }

    /// Whether the recurrence classes allow `earlier` to come back after
    /// the board whose [`GoArena::classes_of`] is `now` (true where a
    /// region has no classes).
    fn same_classes(&self, now: &[Option<u32>], earlier: BoardCode) -> bool {
        let Some(classes) = &self.classes else {
            return true;
        };
        classes.regions.iter().zip(now).all(|(r, &a)| {
            match (a, r.of(earlier)) {
                (Some(a), Some(b)) => a == b,
                // Not reachable from the root: it cannot come back.
                (Some(_), None) => false,
                (None, _) => true,
            }
        })
    }
}

impl Arena for GoArena {
    type Board = BoardCode;
    /// A stone that can never be captured never leaves: a board without it
    /// (at its point) cannot come back; nor can a board outside the
    /// recurrence class of the current one ([`GoArena::with_recurrence_classes`]).
    fn can_recur(&self, now: BoardCode, earlier: BoardCode) -> bool {
        let m = spread(self.fixed(now)) * 3;
        now & m == earlier & m && self.same_classes(&self.classes_of(now), earlier)
    }
    fn recurring(&self, now: BoardCode, history: &[BoardCode], out: &mut Vec<BoardCode>) {
        let m = spread(self.fixed(now)) * 3;
        let mut classes = None;
        for &b in history {
            if b != now && now & m == b & m {
                let c = classes.get_or_insert_with(|| self.classes_of(now));
                if self.same_classes(c, b) {
                    out.push(b);
                }
            }
        }
    }
    /// The boards that can come back after `parent` share its class in
    /// every region, so where `child` shares it too only the fixed stones
    /// of `child` are left to compare, and where it does not none of
    /// them can come back after `child`.
    fn recurring_after(
        &self,
        parent: BoardCode,
        parent_recurring: &[BoardCode],
        child: BoardCode,
        out: &mut Vec<BoardCode>,
    ) {
        match self.classes_agree(parent, child) {
            Some(true) => {
                let m = spread(self.fixed(child)) * 3;
                merge_with(parent_recurring, parent, |b| {
                    if b != child && child & m == b & m {
                        out.push(b);
                    }
                });
            }
            Some(false) => {}
            None => merge_with(parent_recurring, parent, |b| {
                if b != child && self.can_recur(child, b) {
                    out.push(b);
                }
            }),
        }
    }
    fn colour_mirror(&self, board: BoardCode) -> Option<BoardCode> {
        Some(self.mirror.as_ref()?.apply(board))
    }
    fn placed(&self, before: BoardCode, after: BoardCode) -> usize {
        let stones = |c: BoardCode| even_bits(c) | even_bits(c >> 1);
        (stones(after) & !stones(before)).trailing_zeros() as usize % 64
    }
    fn placements(&self, board: BoardCode, colour: Colour, out: &mut Vec<(BoardCode, u32)>) {
        let (b, w) = (even_bits(board), even_bits(board >> 1));
        for p in points(self.all() & !(b | w)) {
            if let Some(m) = self.place(board, p, colour) {
                out.push(m);
            }
        }
    }
}
