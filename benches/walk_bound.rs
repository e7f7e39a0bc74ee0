//! A floor for the ko graph walk of the open areas (BENCHMARKS.md, "The open 4 × 4 area,
//! session 15"): every position reachable by legal moves in the open `h` × `w` area
//! (`h · w` ≤ 16; Black's framing stones above, below and to the left, White's to the
//! right, as in `benches/go.rs`), enumerated by a plain depth-first search over boards
//! of two 16-bit masks, with one bit a position (its base-3 code) for the positions met.
//!
//!     cargo bench -p yose-benches --bench walk_bound [-- [--cycles] HxW ...]   # default 3x5 4x4 2x8
//!
//! It is not yose's walk: it does not ask which positions reach a cycle (yose's walk
//! stops at the ko-free ones, whose values the search gives), keeps no edges, no
//! potentials, no values. It expands every reachable position, a superset of the
//! walk's nodes, so its time per move is a floor for what the walk's own bookkeeping
//! costs: what a move costs when a board is two machine words and the table of
//! positions met is a bit set small enough for the caches.
//!
//! With `--cycles` it also finds which of those positions reach a cycle, by Tarjan's
//! strongly connected components over the same boards (a position reaches a cycle
//! when its component has two positions or more, or when one of its moves leads to a
//! position that does), and counts them and their moves: yose's ko graph of the area
//! has exactly one node for each (`src/go/walk_oracle.rs` checks the same on small
//! regions), so this is an independent count of those nodes, and its time that of
//! telling them apart with no search at all.

use std::time::{Duration, Instant};

struct Area {
    n: usize,
    /// Points not in the first column, and not in the last.
    not_first_col: u32,
    not_last_col: u32,
    width: usize,
    /// All points of the area.
    all: u32,
    /// Points next to Black's framing stones, and next to White's.
    by_black_frame: u32,
    by_white_frame: u32,
}

impl Area {
    fn new(h: usize, w: usize) -> Area {
        assert!(h * w <= 16, "at most 16 points");
        let n = h * w;
        let (mut not_first_col, mut not_last_col) = (0, 0);
        let (mut by_black_frame, mut by_white_frame) = (0, 0);
        for r in 0..h {
            for c in 0..w {
                let bit = 1u32 << (r * w + c);
                if c > 0 {
                    not_first_col |= bit;
                } else {
                    by_black_frame |= bit;
                }
                if c + 1 < w {
                    not_last_col |= bit;
                } else {
                    by_white_frame |= bit;
                }
                if r == 0 || r + 1 == h {
                    by_black_frame |= bit;
                }
            }
        }
        Area {
            n,
            not_first_col,
            not_last_col,
            width: w,
            all: (1u32 << n) - 1,
            by_black_frame,
            by_white_frame,
        }
    }

    /// The points of `s` and their neighbours in the area.
    #[inline]
    fn grow(&self, s: u32) -> u32 {
        (s | (s << 1 & self.not_first_col)
            | (s >> 1 & self.not_last_col)
            | s << self.width
            | s >> self.width)
            & self.all
    }

    /// The chain of `stones` through the point `p`.
    #[inline]
    fn chain(&self, stones: u32, p: u32) -> u32 {
        let mut c = 1 << p;
        loop {
            let next = self.grow(c) & stones;
            if next == c {
                return c;
            }
            c = next;
        }
    }

    /// The positions after each legal move of `board` (Black's stones, White's),
    /// points in order, Black's move before White's on each.
    #[inline]
    fn moves(&self, board: [u32; 2], mut each: impl FnMut([u32; 2])) {
        let frames = [self.by_black_frame, self.by_white_frame];
        let mut points = self.all & !(board[0] | board[1]);
        while points != 0 {
            let p = points.trailing_zeros();
            points &= points - 1;
            for me in 0..2 {
                let them = 1 - me;
                let mut next = board;
                next[me] |= 1 << p;
                let free = self.all & !(next[0] | next[1]);
                // The opponent's chains next to p with no liberty left, unless
                // they touch their own framing stones (immortal).
                let mut near = self.grow(1 << p) & board[them];
                while near != 0 {
                    let chain = self.chain(board[them], near.trailing_zeros());
                    near &= !chain;
                    if chain & frames[them] == 0 && self.grow(chain) & free == 0 {
                        next[them] &= !chain;
                    }
                }
                // Suicide is not a move.
                let own = self.chain(next[me], p);
                let free = self.all & !(next[0] | next[1]);
                if own & frames[me] == 0 && self.grow(own) & free == 0 {
                    continue;
                }
                each(next);
            }
        }
    }

    /// The base-3 code of every set of points, so that a position's code is
    /// `code3[black] + 2 · code3[white]`.
    fn codes(&self) -> Vec<u32> {
        (0..1u32 << self.n)
            .map(|x| (0..self.n).rev().fold(0, |v, p| v * 3 + (x >> p & 1)))
            .collect()
    }
}

/// Positions and moves met, and the time taken.
fn enumerate(h: usize, w: usize) -> (u64, u64, Duration) {
    let a = Area::new(h, w);
    let code3 = a.codes();
    let code = |b: [u32; 2]| (code3[b[0] as usize] + 2 * code3[b[1] as usize]) as usize;
    let slots = 3usize.pow(a.n as u32);
    let mut met = vec![0u64; slots.div_ceil(64)];
    met[0] = 1;
    let mut stack: Vec<[u32; 2]> = vec![[0, 0]];
    let (mut positions, mut moves) = (1u64, 0u64);
    let t = Instant::now();
    while let Some(board) = stack.pop() {
        a.moves(board, |next| {
            moves += 1;
            let c = code(next);
            let (word, bit) = (c / 64, 1u64 << (c % 64));
            if met[word] & bit == 0 {
                met[word] |= bit;
                positions += 1;
                stack.push(next);
            }
        });
    }
    (positions, moves, t.elapsed())
}

/// Tarjan's strongly connected components over the positions of an area, by
/// their codes (module docs, `--cycles`).
struct Tarjan {
    /// Per position: 0 not met; else its depth-first number + 1, with `DONE`
    /// set once its component is closed, and `LOOPY` when that component
    /// reaches a cycle.
    state: Vec<u32>,
    /// By depth-first number: the lowest number reached, and whether some move
    /// leads back into the open components or into one that reaches a cycle.
    low: Vec<u32>,
    reaches: Vec<bool>,
    /// Tarjan's stack of open positions, by code.
    open: Vec<usize>,
    /// The depth-first line: (code, where its moves start in `kids`, the next
    /// move to follow).
    line: Vec<(usize, usize, usize)>,
    kids: Vec<[u32; 2]>,
}

const DONE: u32 = 1 << 31;
const LOOPY: u32 = 1 << 30;
const NUMBER: u32 = LOOPY - 1;

impl Tarjan {
    fn enter(&mut self, a: &Area, board: [u32; 2], code: usize) {
        let number = self.low.len() as u32;
        self.state[code] = number + 1;
        self.low.push(number);
        self.reaches.push(false);
        self.open.push(code);
        let start = self.kids.len();
        a.moves(board, |next| self.kids.push(next));
        self.line.push((code, start, start));
    }

    fn number(&self, code: usize) -> usize {
        ((self.state[code] & NUMBER) - 1) as usize
    }
}

/// The positions reachable from the empty area that reach a cycle, their moves,
/// and the time taken (module docs, `--cycles`).
fn reaching_cycles(h: usize, w: usize) -> (u64, u64, Duration) {
    let a = Area::new(h, w);
    let code3 = a.codes();
    let code = |b: [u32; 2]| (code3[b[0] as usize] + 2 * code3[b[1] as usize]) as usize;
    let mut t = Tarjan {
        state: vec![0; 3usize.pow(a.n as u32)],
        low: Vec::new(),
        reaches: Vec::new(),
        open: Vec::new(),
        line: Vec::new(),
        kids: Vec::new(),
    };
    let (mut loopy, mut loopy_moves) = (0u64, 0u64);
    let start = Instant::now();
    t.enter(&a, [0, 0], code([0, 0]));
    while let Some(&(here, first, next)) = t.line.last() {
        let v = t.number(here);
        if next < t.kids.len() {
            t.line.last_mut().unwrap().2 += 1;
            let kid = t.kids[next];
            let c = code(kid);
            match t.state[c] {
                0 => t.enter(&a, kid, c),
                s if s & DONE != 0 => t.reaches[v] |= s & LOOPY != 0,
                // Open: in this position's component, which then holds a cycle.
                _ => {
                    t.low[v] = t.low[v].min(t.number(c) as u32);
                    t.reaches[v] = true;
                }
            }
            continue;
        }
        let moves = (t.kids.len() - first) as u64;
        t.kids.truncate(first);
        t.line.pop();
        if t.low[v] == v as u32 {
            // Its component closes: it reaches a cycle if it has two positions
            // or more (then some member reached an open one) or a move out of
            // it leads to a component that does.
            let mut members = 0u64;
            let mut any = false;
            let at = t.open.iter().rposition(|&c| c == here).unwrap();
            for &c in &t.open[at..] {
                members += 1;
                any |= t.reaches[t.number(c)];
            }
            let mark = DONE | if any { LOOPY } else { 0 };
            for k in at..t.open.len() {
                let c = t.open[k];
                t.state[c] |= mark;
            }
            t.open.truncate(at);
            if any {
                loopy += members;
            }
        }
        if t.state[here] & LOOPY != 0 || t.state[here] & DONE == 0 {
            loopy_moves += moves;
        }
        // The parent learns what this position reached.
        if let Some(&(parent, _, _)) = t.line.last() {
            let p = t.number(parent);
            match t.state[here] {
                s if s & DONE == 0 => {
                    t.low[p] = t.low[p].min(t.low[v]);
                    t.reaches[p] = true;
                }
                s => t.reaches[p] |= s & LOOPY != 0,
            }
        }
    }
    (loopy, loopy_moves, start.elapsed())
}

fn main() {
    let cycles = std::env::args().any(|a| a == "--cycles");
    let sizes: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.contains('x') && !a.starts_with('-'))
        .collect();
    let sizes = match sizes.is_empty() {
        true => vec!["3x5".to_string(), "4x4".into(), "2x8".into()],
        false => sizes,
    };
    for size in sizes {
        let Some((h, w)) = size
            .split_once('x')
            .and_then(|(h, w)| Some((h.parse().ok()?, w.parse().ok()?)))
        else {
            eprintln!("sizes are HxW, such as 4x4");
            continue;
        };
        let (positions, moves, took) = enumerate(h, w);
        println!(
            "open {h}x{w}: {positions} positions reachable, {moves} moves, {took:.2?} on one thread ({:.1} ns a move)",
            took.as_nanos() as f64 / moves as f64
        );
        if cycles {
            let (loopy, loopy_moves, took) = reaching_cycles(h, w);
            println!(
                "open {h}x{w}: {loopy} of them reach a cycle, with {loopy_moves} moves; Tarjan over all of them {took:.2?} on one thread"
            );
        }
    }
}
