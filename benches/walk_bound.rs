//! A floor for the ko graph walk of the open areas (BENCHMARKS.md, "The open 4 × 4 area,
//! session 15"): every position reachable by legal moves in the open `h` × `w` area
//! (`h · w` ≤ 16; Black's framing stones above, below and to the left, White's to the
//! right, as in `benches/go.rs`), enumerated by a plain depth-first search over boards
//! of two 16-bit masks, with one bit a position (its base-3 code) for the positions met.
//!
//!     cargo bench -p yose-benches --bench walk_bound [-- HxW ...]    # default 3x5 4x4 2x8
//!
//! It is not yose's walk: it does not ask which positions reach a cycle (yose's walk
//! stops at the ko-free ones, whose values the search gives), keeps no edges, no
//! potentials, no values. It expands every reachable position, a superset of the
//! walk's nodes, so its time per move is a floor for what the walk's own bookkeeping
//! costs: what a move costs when a board is two machine words and the table of
//! positions met is a bit set small enough for the caches.

use std::time::Instant;

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
}

/// Positions and moves met, and the time taken.
fn enumerate(h: usize, w: usize) -> (u64, u64, std::time::Duration) {
    let a = Area::new(h, w);
    // The base-3 code of a position is code3[black] + 2 · code3[white].
    let code3: Vec<u32> = (0..1u32 << a.n)
        .map(|x| (0..a.n).rev().fold(0, |v, p| v * 3 + (x >> p & 1)))
        .collect();
    let slots = 3usize.pow(a.n as u32);
    let mut met = vec![0u64; slots.div_ceil(64)];
    met[0] = 1;
    let mut stack: Vec<[u32; 2]> = vec![[0, 0]];
    let (mut positions, mut moves) = (1u64, 0u64);
    let frames = [a.by_black_frame, a.by_white_frame];
    let t = Instant::now();
    while let Some(board) = stack.pop() {
        let empty = a.all & !(board[0] | board[1]);
        let mut points = empty;
        while points != 0 {
            let p = points.trailing_zeros();
            points &= points - 1;
            for me in 0..2 {
                let them = 1 - me;
                let mut next = board;
                next[me] |= 1 << p;
                let free = a.all & !(next[0] | next[1]);
                // The opponent's chains next to p with no liberty left, unless
                // they touch their own framing stones (immortal).
                let mut near = a.grow(1 << p) & board[them];
                while near != 0 {
                    let chain = a.chain(board[them], near.trailing_zeros());
                    near &= !chain;
                    if chain & frames[them] == 0 && a.grow(chain) & free == 0 {
                        next[them] &= !chain;
                    }
                }
                // Suicide is not a move.
                let own = a.chain(next[me], p);
                let free = a.all & !(next[0] | next[1]);
                if own & frames[me] == 0 && a.grow(own) & free == 0 {
                    continue;
                }
                moves += 1;
                let code = (code3[next[0] as usize] + 2 * code3[next[1] as usize]) as usize;
                let (word, bit) = (code / 64, 1u64 << (code % 64));
                if met[word] & bit == 0 {
                    met[word] |= bit;
                    positions += 1;
                    stack.push(next);
                }
            }
        }
    }
    (positions, moves, t.elapsed())
}

fn main() {
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
    }
}
