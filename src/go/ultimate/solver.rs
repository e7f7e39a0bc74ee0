//! The exact solver of the rules ([`Solver`]): the literal win / draw /
//! loss minimax, the threshold search (every komi at once), the scores of
//! §IV–§V read off them, and [`Phase`].

use super::arena::{colour_code, with_cell};
use super::{Arena, BoardCode, GoArena, NoPassRules, NoPassState, Special, Variant, Version};
use crate::go::position::{Cell, Colour};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// More states than the budget.
    Budget { nodes: u64, budget: u64 },
    /// Ctrl-C.
    Interrupted,
    /// A board of more than 64 points.
    TooLarge(usize),
    /// The game is over.
    Ended,
    /// White still owes handicap delays (the solver does not model them).
    HandicapPending,
    /// The process's memory limit ([`crate::limits`]): the solver's tables
    /// grow with the states it meets, and a budget error on a big board
    /// could otherwise come only after gigabytes.
    Limit(crate::limits::Exceeded),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Budget { nodes, budget } => write!(
                f,
                "the Ultimate Go solver gave up after {nodes} states (node budget {budget})"
            ),
            SolveError::Interrupted => write!(f, "interrupted"),
            SolveError::TooLarge(n) => write!(
                f,
                "the exact solver takes boards of at most 64 points; this one has {n}"
            ),
            SolveError::Ended => write!(f, "the game is over"),
            SolveError::Limit(e) => write!(f, "{e}"),
            SolveError::HandicapPending => write!(
                f,
                "White still owes handicap delays; play them before asking the solver"
            ),
        }
    }
}

/// A state of the solver, the history aside.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Situation<B> {
    pub board: B,
    pub to_move: Colour,
    pub bowls: [u32; 2],
    pub ultimate: [bool; 2],
    pub first_ultimate: Option<Colour>,
}

impl<B: Copy> Situation<B> {
    fn draw_right(&self) -> Option<Colour> {
        let first = self.first_ultimate?;
        (!self.ultimate[first.opponent().index()]).then_some(first)
    }

    /// The same situation with `k` stones given to White (`k < 0`: `−k` to
    /// Black) as mid-game komi.
    pub fn with_komi(&self, k: i64) -> Situation<B> {
        let mut s = *self;
        if k >= 0 {
            s.bowls[1] += k as u32;
        } else {
            s.bowls[0] += (-k) as u32;
        }
        s
    }
}

/// A move in a solved line or list: a placement (the board after it) or a
/// special move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum SolverMove<B> {
    Place(B),
    Special(Special),
}

type Key<B> = (Situation<B>, Vec<B>);

/// A node of the threshold search: a situation without the player to move
/// and without the bowls (both are outputs, see [`Thresholds`]). The
/// history is not in the key: each node keeps records valid for the
/// histories that agree on the boards its searches tested ([`Record`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct NodeKey<B> {
    board: B,
    variant: Variant,
    ultimate: [bool; 2],
    first_ultimate: Option<Colour>,
}

/// What the threshold search learnt at a node under some histories: a
/// search's answer depends on the history only through whether each board
/// it generated (anywhere below the node; below a decided node, only under
/// the option that decided it) was already played, so it holds
/// for every history that agrees with the one it was made under on the
/// `tested` boards. `played` is the part of `tested` that was in the
/// history. Both are bit sets over the node's numbering of boards
/// ([`NodeRecords`]), so that matching a history is a few word operations
/// a record. Past [`RecordLimits::tested`] boards an answer goes to a *full*
/// record instead ([`Solver::thresholds_full`]): it stands for every board
/// that can come back after the node's board ([`Arena::recurring`], a
/// superset of any tested set, as the boards of the history that can
/// matter at all are those), keyed by the history's boards among them:
/// the key of the solver before the records, so a record is never worse
/// than that.
#[derive(Clone, Debug)]
struct Record {
    tested: Vec<u64>,
    played: Vec<u64>,
    entry: NodeEntry,
}

/// A node's partial records, and the boards they tested, numbered (bit
/// `i` of a record's sets is `boards[i]`).
#[derive(Clone, Debug)]
struct NodeRecords<B> {
    bit_of: FxHashMap<B, u32>,
    boards: Vec<B>,
    records: Vec<Record>,
}

impl<B: Copy + Eq + Hash> NodeRecords<B> {
    fn new() -> NodeRecords<B> {
        NodeRecords {
            bit_of: FxHashMap::default(),
            boards: Vec::new(),
            records: Vec::new(),
        }
    }

    /// The bit set of the boards of `set` that have numbers.
    fn bits(&self, set: &[B]) -> Vec<u64> {
        let mut q = vec![0u64; self.boards.len().div_ceil(64)];
        for b in set {
            if let Some(&i) = self.bit_of.get(b) {
                q[i as usize / 64] |= 1 << (i % 64);
            }
        }
        q
    }

    /// The record valid under a history whose boards that can come back
    /// are `history` as a bit set ([`NodeRecords::bits`]): the one whose
    /// played boards are exactly the history's among its tested ones.
    fn find(&self, history: &[u64]) -> Option<usize> {
        self.records.iter().position(|r| {
            r.tested
                .iter()
                .zip(&r.played)
                .zip(history)
                .all(|((t, p), h)| h & t == *p)
        })
    }

    /// The boards of a bit set.
    fn boards_of(&self, set: &[u64]) -> Vec<B> {
        let mut out = Vec::new();
        for (w, &word) in set.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                out.push(self.boards[w * 64 + m.trailing_zeros() as usize]);
                m &= m - 1;
            }
        }
        out
    }

    /// Numbers `set`'s boards (up to `limit` boards in all) and returns
    /// its bit set, or `None` past that limit.
    fn number(&mut self, set: &[B], limit: usize) -> Option<Vec<u64>> {
        let new = set.iter().filter(|b| !self.bit_of.contains_key(b)).count();
        if self.boards.len() + new > limit {
            return None;
        }
        let mut q = vec![0u64; (self.boards.len() + new).div_ceil(64)];
        for &b in set {
            let next = self.boards.len() as u32;
            let i = *self.bit_of.entry(b).or_insert(next);
            if i == next {
                self.boards.push(b);
            }
            q[i as usize / 64] |= 1 << (i % 64);
        }
        Some(q)
    }
}

/// `a | b` of bit sets of different lengths.
fn union(a: &[u64], b: &[u64]) -> Vec<u64> {
    (0..a.len().max(b.len()))
        .map(|i| a.get(i).copied().unwrap_or(0) | b.get(i).copied().unwrap_or(0))
        .collect()
}

/// The boards a search tested against the history ([`Record`]), or every
/// board that can come back (`full`).
#[derive(Clone, Debug)]
struct Tested<B> {
    boards: Vec<B>,
    full: bool,
}

impl<B: Copy + Ord> Tested<B> {
    fn none() -> Tested<B> {
        Tested {
            boards: Vec::new(),
            full: false,
        }
    }

    fn full() -> Tested<B> {
        Tested {
            boards: Vec::new(),
            full: true,
        }
    }

    fn add_boards(&mut self, boards: Vec<B>) {
        if !self.full {
            if self.boards.is_empty() {
                self.boards = boards;
            } else {
                self.boards.extend_from_slice(&boards);
            }
        }
    }

    fn add(&mut self, other: &Tested<B>) {
        if other.full {
            self.full = true;
            self.boards = Vec::new();
        } else if !self.full {
            self.boards.extend_from_slice(&other.boards);
        }
    }
}

/// The limits of the partial records ([`Record`]), past which an answer
/// goes to the full records (found by hashing, not by a scan): the work
/// per state stays bounded, so the budget bounds the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLimits {
    /// The boards one record may test.
    pub tested: usize,
    /// The partial records of one node.
    pub records: usize,
    /// The boards the partial records of one node may test in all (the
    /// scan of a record is one word operation per 64 of them).
    pub node_boards: usize,
}

impl RecordLimits {
    /// The solver's limits (BENCHMARKS.md, sessions 9 and 10: with 256
    /// tested boards a record the corridor of nine sent almost every
    /// answer to the full records and did not finish).
    pub const DEFAULT: RecordLimits = RecordLimits {
        tested: 512,
        records: 256,
        node_boards: 2048,
    };
    /// No partial records: every answer is keyed by every board of the
    /// history that can come back (the key before the records; the tests'
    /// oracle of the records).
    pub const NONE: RecordLimits = RecordLimits {
        tested: 0,
        records: 0,
        node_boards: 0,
    };
}

/// What the threshold search knows of a node: `t[g][p] = (lo, hi)` bounds
/// the *threshold*, the largest komi `K` (stones to White, counted from
/// equal bowls; a negative komi gives stones to Black) at which Black
/// reaches goal `g` with `p` to move (`p` = 0: Black, 1: White). Goal 0:
/// Black wins outright; goal 1: Black draws or wins. Black reaches a goal
/// at every komi up to the threshold and at none above it (monotonicity).
type Thresholds = [[(i32, i32); 2]; 2];

/// An entry of the threshold search's table: the bounds, and for each
/// player to move the option that last decided the node (tried first next
/// time; `u8::MAX`: none yet).
#[derive(Clone, Copy, Debug)]
struct NodeEntry {
    bounds: Thresholds,
    best: [u8; 2],
}

/// "Every komi" in a threshold; real thresholds are below the board size.
const INF: i32 = 1 << 24;

/// `t + c`, leaving the infinite thresholds infinite.
fn shift(t: i32, c: i32) -> i32 {
    if t.abs() >= INF {
        t
    } else {
        t + c
    }
}

/// The exact solver (module docs).
pub struct Solver<A: Arena> {
    pub arena: A,
    pub rules: NoPassRules,
    memo: HashMap<Key<A::Board>, i8>,
    /// The threshold search's table (module docs): every komi at once.
    thresholds_memo: FxHashMap<NodeKey<A::Board>, NodeRecords<A::Board>>,
    /// The full records ([`Record`]), by node, then by the history's
    /// boards that can come back (two levels, so that a lookup needs no
    /// owned key).
    thresholds_full: FullRecords<A::Board>,
    pub nodes: u64,
    pub budget: u64,
    interrupt: Option<Arc<AtomicBool>>,
    track_history: bool,
    /// Under the original rules (and Fundamental Go), let only the
    /// difference of the bowls matter (§IV: "the absolute number of
    /// prisoners is irrelevant"), which is what the threshold search needs
    /// (module docs). Not under the simple rules, where an empty bowl
    /// decides whether the second ultimate delay is legal: there, and with
    /// this off, the solver is the literal one (one minimax per komi, the
    /// bowls in the state), which the tests use as the oracle of the
    /// threshold search.
    pub normalise: bool,
    /// The limits of the threshold search's partial records.
    pub limits: RecordLimits,
    /// For each player, how often a placement at each point decided a
    /// node of the threshold search (the history heuristic: those points
    /// are tried first among placements capturing as many stones).
    cut_points: [[u32; 64]; 2],
    /// The first horizon of the iterative deepening (module docs,
    /// "Horizons"); [`EXACT`]: none, one exact search.
    pub first_horizon: u32,
    /// The searches that a horizon left open: for a node, player to move,
    /// goal and komi, the most plies that were left to it then (a later
    /// search with as few plies left gives up at once; a hint, not an
    /// answer: history aside, since giving up is always sound).
    open: FxHashMap<OpenKey<A::Board>, u32>,
    /// How many searches a horizon left open.
    pub open_searches: u64,
    /// Before any ultimate delay, find the node's Fundamental Go threshold
    /// first and read the outright win's off it by Theorem 3 (module docs,
    /// "Komi thresholds"); off: the Ultimate Go komi search from komi 0.
    pub fundamental_first: bool,
    /// Let a Fundamental Go node and its image under the arena's
    /// colour-exchanging symmetry share one entry (module docs,
    /// "Symmetry"); off: each its own.
    pub symmetry: bool,
    /// How many answers came from the entry of a node's image (the tests
    /// check that the symmetry is exercised).
    pub mirrored_answers: u64,
}

/// Where a Fundamental Go node keeps its answers: at its own board, or at
/// its image under the colour-exchanging symmetry (module docs,
/// "Symmetry"), where Black reaches the goal at komi `k` with `p` to move
/// iff she does not at `−k` with the other to move. `key`, `p` and
/// `recurring` (the history's boards that can come back, sorted) are the
/// entry's; `mirrored` says whether they are the image's.
struct TableView<'a, B: Clone> {
    key: NodeKey<B>,
    p: usize,
    recurring: Cow<'a, [B]>,
    mirrored: bool,
}

impl<B: Copy> TableView<'_, B> {
    /// The komi at the entry for komi `k` at the node.
    fn komi(&self, k: i32) -> i32 {
        if self.mirrored {
            -k
        } else {
            k
        }
    }

    /// The node's answer from the entry's (or the other way round).
    fn answer(&self, a: bool) -> bool {
        a != self.mirrored
    }
}

/// The full records: by node, then by the history's boards that can come
/// back.
type FullRecords<B> = FxHashMap<NodeKey<B>, FxHashMap<Vec<B>, NodeEntry>>;

/// A search at one komi: node, player to move, goal and komi.
type OpenKey<B> = (NodeKey<B>, u8, u8, i32);

/// The first horizon of the iterative deepening, in plies (BENCHMARKS.md,
/// session 11).
pub const FIRST_HORIZON: u32 = 64;
/// The last horizon: past it the search is exact.
const LAST_HORIZON: u32 = 4096;
/// No horizon.
pub const EXACT: u32 = u32::MAX;

/// The default node budget of the solver (states).
pub const DEFAULT_BUDGET: u64 = 1_000_000;

impl<A: Arena> Solver<A> {
    /// A solver; `track_history`: whether boards can repeat (false for
    /// abstract game trees, whose boards never recur).
    pub fn new(arena: A, rules: NoPassRules, budget: u64, track_history: bool) -> Solver<A> {
        Solver {
            arena,
            rules,
            memo: HashMap::new(),
            thresholds_memo: FxHashMap::default(),
            thresholds_full: FxHashMap::default(),
            nodes: 0,
            budget,
            interrupt: None,
            track_history,
            normalise: true,
            limits: RecordLimits::DEFAULT,
            cut_points: [[0; 64]; 2],
            first_horizon: FIRST_HORIZON,
            open_searches: 0,
            open: FxHashMap::default(),
            fundamental_first: true,
            symmetry: true,
            mirrored_answers: 0,
        }
    }

    pub fn set_interrupt_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }

    /// The same solver under other rules (the memo is dropped, the position
    /// graph kept).
    pub fn set_rules(&mut self, rules: NoPassRules) {
        if rules != self.rules {
            self.rules = rules;
            self.memo.clear();
        }
    }

    fn tick(&mut self) -> Result<(), SolveError> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(SolveError::Budget {
                nodes: self.nodes,
                budget: self.budget,
            });
        }
        if self.nodes & 0x3ff == 0 {
            if let Some(f) = &self.interrupt {
                if f.load(Ordering::Relaxed) {
                    return Err(SolveError::Interrupted);
                }
            }
            crate::limits::check_memory().map_err(SolveError::Limit)?;
        }
        Ok(())
    }

    /// The key of a state: the situation (bowls normalised, see
    /// [`Solver::normalise`]) and the history boards that can recur, sorted
    /// ([`Arena::can_recur`]).
    fn key(&self, s: &Situation<A::Board>, history: &[A::Board]) -> Key<A::Board> {
        let mut s = *s;
        if self.normalise && self.rules.version == Version::Original {
            let m = s.bowls[0].min(s.bowls[1]);
            s.bowls[0] -= m;
            s.bowls[1] -= m;
        }
        if !self.track_history {
            return (s, Vec::new());
        }
        let mut v = Vec::new();
        self.arena.recurring(s.board, history, &mut v);
        v.sort_unstable();
        v.dedup();
        (s, v)
    }

    /// Every legal move of the player to move, with the situation after it
    /// (`None` for a draw declaration or a resignation, which end the game).
    pub fn moves(
        &self,
        s: &Situation<A::Board>,
        history: &[A::Board],
    ) -> Vec<(SolverMove<A::Board>, Option<Situation<A::Board>>, u32)> {
        let me = s.to_move;
        let i = me.index();
        let mut out = Vec::new();
        let mut buf = Vec::new();
        self.arena.placements(s.board, me, &mut buf);
        for (b, c) in buf {
            if self.track_history && history.contains(&b) {
                continue;
            }
            let mut n = *s;
            n.board = b;
            n.bowls[i] += c;
            n.to_move = me.opponent();
            out.push((SolverMove::Place(b), Some(n), c));
        }
        let ultimate = self.rules.variant == Variant::Ultimate;
        let simple = self.rules.version == Version::Simple;
        if s.bowls[i] > 0 && !(ultimate && simple && s.first_ultimate.is_none()) {
            let mut n = *s;
            n.bowls[i] -= 1;
            n.to_move = me.opponent();
            out.push((SolverMove::Special(Special::Delay), Some(n), 0));
        }
        if ultimate && s.ultimate[i] {
            let second = s.first_ultimate.is_some();
            if !(second && simple && s.bowls[i] > 0) {
                let mut n = *s;
                n.ultimate[i] = false;
                n.first_ultimate = n.first_ultimate.or(Some(me));
                n.to_move = me.opponent();
                out.push((SolverMove::Special(Special::Ultimate), Some(n), 0));
            }
        }
        if ultimate && s.draw_right() == Some(me) {
            out.push((SolverMove::Special(Special::Draw), None, 0));
        }
        out.push((SolverMove::Special(Special::Resign), None, 0));
        out
    }

    /// The exact outcome (+1 Black wins, 0 draw, −1 White wins) of the
    /// situation with the given history (every board so far, the current
    /// one included).
    pub fn outcome(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i8, SolveError> {
        match self.komi_thresholds(s, history)? {
            Some([win, draw]) => Ok(if win >= 0 {
                1
            } else if draw >= 0 {
                0
            } else {
                -1
            }),
            None => self.solve(s, history),
        }
    }

    /// Whether the threshold search applies: bowls matter only by their
    /// difference (original rules, or no ultimate prisoners).
    fn by_thresholds(&self) -> bool {
        self.normalise
            && (self.rules.variant == Variant::Fundamental
                || self.rules.version == Version::Original)
    }

    /// For the player to move in `s`: the largest komi (stones to White
    /// from the bowls of `s`; negative: to Black) at which Black wins
    /// outright, and the largest at which she draws or wins (±[`INF`]: at
    /// every komi / at none). `None` where the threshold search does not
    /// apply ([`Solver::by_thresholds`]).
    pub fn komi_thresholds(
        &mut self,
        s: &Situation<A::Board>,
        history: &[A::Board],
    ) -> Result<Option<[i32; 2]>, SolveError> {
        if !self.by_thresholds() {
            return Ok(None);
        }
        let d = s.bowls[0] as i32 - s.bowls[1] as i32;
        // Komi 0 from the bowls of `s` is relative komi −d.
        let win = match self.fundamental_first_threshold(s, -d, history)? {
            Some(t) => self.win_threshold_by_theorem_3(s, t, history)?,
            None => self.threshold(s, 0, -d, history)?,
        };
        let draw = self.threshold(s, 1, if win.abs() < INF { win } else { -d }, history)?;
        Ok(Some([shift(win, d), shift(draw, d)]))
    }

    /// Before any ultimate delay (original rules, with
    /// [`Solver::fundamental_first`]): the Fundamental Go threshold `t` of
    /// the node, searched first from relative komi `start`; else `None`.
    fn fundamental_first_threshold(
        &mut self,
        s: &Situation<A::Board>,
        start: i32,
        history: &[A::Board],
    ) -> Result<Option<i32>, SolveError> {
        let before_delays = self.rules.variant == Variant::Ultimate
            && self.rules.version == Version::Original
            && s.ultimate == [true; 2]
            && s.first_ultimate.is_none();
        if !(self.fundamental_first && before_delays) {
            return Ok(None);
        }
        let saved = self.rules;
        self.rules.variant = Variant::Fundamental;
        let t = self.threshold(s, 0, start, history);
        self.rules = saved;
        t.map(Some)
    }

    /// The outright win's threshold before any ultimate delay, from the
    /// node's Fundamental Go threshold `t`: by Theorem 3 (module docs) a
    /// Fundamental Go win at `t` and a loss at `t + 1` put it at `t − 1`
    /// or `t`, so one Ultimate Go search at komi `t` decides which.
    fn win_threshold_by_theorem_3(
        &mut self,
        s: &Situation<A::Board>,
        t: i32,
        history: &[A::Board],
    ) -> Result<i32, SolveError> {
        let (b, u, f, p) = (s.board, s.ultimate, s.first_ultimate, s.to_move.index());
        let reached = self.reaches(b, u, f, p, 0, t, history, &mut Tested::none())?;
        Ok(if reached { t } else { t - 1 })
    }

    fn node_key(
        &self,
        board: A::Board,
        ultimate: [bool; 2],
        first_ultimate: Option<Colour>,
    ) -> NodeKey<A::Board> {
        let fundamental = self.rules.variant == Variant::Fundamental;
        NodeKey {
            board,
            variant: self.rules.variant,
            ultimate: if fundamental { [false; 2] } else { ultimate },
            first_ultimate: if fundamental { None } else { first_ultimate },
        }
    }

    /// What the tables say of goal `g` with `p` to move at `key`, under a
    /// history whose boards that can come back are `recurring`: reached
    /// if the threshold's lower bound is at least `win_at`, not reached if
    /// its upper bound is below `loss_at` (the partial record first, then
    /// the full one), with the boards the deciding record tested added to
    /// `tested`.
    fn table_answer(
        &self,
        view: &TableView<A::Board>,
        g: usize,
        win_at: i32,
        loss_at: i32,
        tested: &mut Tested<A::Board>,
    ) -> Option<bool> {
        let (key, recurring, p) = (&view.key, &view.recurring[..], view.p);
        // At the image a win at `w` is a loss at `−w`.
        let (win_at, loss_at) = if view.mirrored {
            (-loss_at, -win_at)
        } else {
            (win_at, loss_at)
        };
        let decides = |(lo, hi): (i32, i32)| {
            if lo >= win_at {
                Some(true)
            } else if hi < loss_at {
                Some(false)
            } else {
                None
            }
        };
        if let Some(n) = self.thresholds_memo.get(key) {
            if let Some(i) = n.find(&n.bits(recurring)) {
                let r = &n.records[i];
                if let Some(answer) = decides(r.entry.bounds[g][p]) {
                    tested.add_boards(self.unmirrored(view, n.boards_of(&r.tested)));
                    return Some(view.answer(answer));
                }
            }
        }
        let e = self.full_record(key, recurring)?;
        let answer = decides(e.bounds[g][p])?;
        tested.add(&Tested::full());
        Some(view.answer(answer))
    }

    /// Where the node `key` with `p` to move keeps its answers, under a
    /// history whose boards that can come back are `recurring` (sorted):
    /// a Fundamental Go node whose image under the arena's
    /// colour-exchanging symmetry has the smaller code keeps them at the
    /// image (module docs, "Symmetry").
    fn table_view<'a>(
        &self,
        key: &NodeKey<A::Board>,
        p: usize,
        recurring: &'a [A::Board],
    ) -> TableView<'a, A::Board> {
        if self.symmetry && key.variant == Variant::Fundamental {
            if let Some(image) = self
                .arena
                .colour_mirror(key.board)
                .filter(|&m| m < key.board)
            {
                let mut r: Vec<A::Board> = recurring.iter().map(|&b| self.mirror(b)).collect();
                r.sort_unstable();
                return TableView {
                    key: NodeKey {
                        board: image,
                        ..key.clone()
                    },
                    p: 1 - p,
                    recurring: Cow::Owned(r),
                    mirrored: true,
                };
            }
        }
        TableView {
            key: key.clone(),
            p,
            recurring: Cow::Borrowed(recurring),
            mirrored: false,
        }
    }

    /// The image of a board of a symmetric arena.
    fn mirror(&self, b: A::Board) -> A::Board {
        self.arena.colour_mirror(b).expect("a symmetric arena")
    }

    /// Boards of a view's entry as the node's (their images, if the view
    /// is mirrored; the symmetry is an involution).
    fn unmirrored(&self, view: &TableView<A::Board>, mut boards: Vec<A::Board>) -> Vec<A::Board> {
        if view.mirrored {
            boards.iter_mut().for_each(|b| *b = self.mirror(*b));
        }
        boards
    }

    /// Option `o` (0: a delay, 1: the ultimate delay, 2 + i: the placement
    /// `from[i]`) as the option at the image of its board, whose
    /// placements are `to` (the other player's there): the same move
    /// mirrored ([`usize::MAX`]: none).
    fn mirrored_option(&self, from: &[(A::Board, u32)], o: usize, to: &[(A::Board, u32)]) -> usize {
        if o < 2 || o == usize::MAX {
            return o;
        }
        let Some(&(b, _)) = from.get(o - 2) else {
            return usize::MAX;
        };
        let image = self.mirror(b);
        to.iter()
            .position(|&(x, _)| x == image)
            .map_or(usize::MAX, |i| i + 2)
    }

    /// Theorem 3 (module docs) between the tables: before any ultimate
    /// delay (original rules) Black reaches goal 0 at komi `k` iff she wins
    /// the Fundamental Go game `H − ½ − k`, goal 1 iff `H + ½ − k`; and
    /// adding a positive number keeps a win. So a Fundamental Go win at
    /// `k + 1` (goal 0) or `k` (goal 1) reaches the goal, a loss at `k`
    /// (goal 0) or `k − 1` (goal 1) does not; and the other way round, an
    /// Ultimate Go answer before any delay bounds the Fundamental Go game.
    /// The answer one table gives the other, if any, with the boards its
    /// record tested added to `tested`.
    fn answer_by_theorem_3(
        &self,
        board: A::Board,
        p: usize,
        g: usize,
        k: i32,
        recurring: &[A::Board],
        tested: &mut Tested<A::Board>,
    ) -> Option<bool> {
        let before_delays = NodeKey {
            board,
            variant: Variant::Ultimate,
            ultimate: [true; 2],
            first_ultimate: None,
        };
        let fundamental = NodeKey {
            board,
            variant: Variant::Fundamental,
            ultimate: [false; 2],
            first_ultimate: None,
        };
        // (table, goal there, komi there at which a win decides, komi
        // there at which a loss decides): this node reaches its goal if
        // the other reaches its goal at the first komi, and not if the
        // other does not at the second.
        let sources: Vec<(&NodeKey<A::Board>, usize, i32, i32)> = match self.rules.variant {
            Variant::Ultimate => {
                if self.rules.version != Version::Original {
                    return None;
                }
                if g == 0 {
                    vec![(&fundamental, 0, k + 1, k)]
                } else {
                    vec![(&fundamental, 0, k, k - 1)]
                }
            }
            Variant::Fundamental => {
                vec![(&before_delays, 0, k, k - 1), (&before_delays, 1, k + 1, k)]
            }
        };
        sources.into_iter().find_map(|(key, gg, win_at, loss_at)| {
            let view = self.table_view(key, p, recurring);
            self.table_answer(&view, gg, win_at, loss_at, tested)
        })
    }

    /// The full record of `key` under a history whose boards that can come
    /// back are `recurring`.
    fn full_record(&self, key: &NodeKey<A::Board>, recurring: &[A::Board]) -> Option<&NodeEntry> {
        self.thresholds_full.get(key)?.get(recurring)
    }

    /// The boards of `history` that can come back after `board`, sorted.
    fn recurring_of(&self, board: A::Board, history: &[A::Board]) -> Vec<A::Board> {
        let mut v = Vec::new();
        self.arena.recurring(board, history, &mut v);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Whether Black reaches goal `g` (0: an outright win, 1: a draw or
    /// better) with `p` to move (0: Black, 1: White) at relative komi `k`
    /// (bowls differing by `−k`): one win / loss minimax with cut-offs,
    /// whose answers are kept as bounds on the node's threshold, so that
    /// searches at other komis (the komi search, and every delay and
    /// capture inside the tree, which shift the komi) share them. Iterative
    /// deepening: the search is repeated with a horizon twice as far each
    /// time until it decides (module docs, "Horizons").
    #[allow(clippy::too_many_arguments)]
    fn reaches(
        &mut self,
        board: A::Board,
        ultimate: [bool; 2],
        first_ultimate: Option<Colour>,
        p: usize,
        g: usize,
        k: i32,
        history: &[A::Board],
        tested: &mut Tested<A::Board>,
    ) -> Result<bool, SolveError> {
        let recurring = self.recurring_of(board, history);
        let mut horizon = self.first_horizon;
        loop {
            if horizon > LAST_HORIZON {
                horizon = EXACT;
            }
            self.open.clear();
            if let Some(r) = self.reaches_within(
                board,
                ultimate,
                first_ultimate,
                p,
                g,
                k,
                &recurring,
                tested,
                horizon,
            )? {
                return Ok(r);
            }
            horizon = horizon.saturating_mul(2);
        }
    }

    /// [`Solver::reaches`] with `left` plies to the horizon ([`EXACT`]:
    /// none): `None` where the horizon leaves the answer open. The history
    /// enters only as `recurring`, its boards that can come back after
    /// `board` ([`Solver::recurring_of`]: sorted, no duplicates), the only
    /// ones a search can meet again (a placement is blocked iff its board
    /// is among them: a history board it makes again leads back to this
    /// one); each placement's are found from them
    /// ([`Arena::recurring_after`]), not from the whole history.
    #[allow(clippy::too_many_arguments)]
    fn reaches_within(
        &mut self,
        board: A::Board,
        ultimate: [bool; 2],
        first_ultimate: Option<Colour>,
        p: usize,
        g: usize,
        k: i32,
        recurring: &[A::Board],
        tested: &mut Tested<A::Board>,
        left: u32,
    ) -> Result<Option<bool>, SolveError> {
        let below = if left == EXACT {
            left
        } else {
            left.saturating_sub(1)
        };
        let key = self.node_key(board, ultimate, first_ultimate);
        let (ultimate, first_ultimate) = (key.ultimate, key.first_ultimate);
        let draw_right =
            first_ultimate.and_then(|f| (!ultimate[f.opponent().index()]).then_some(f));
        // The holder of the draw right can end the game drawn at any of
        // her turns, and the other cannot end it but by resigning.
        match (draw_right, g) {
            (Some(Colour::Black), 1) => return Ok(Some(true)),
            (Some(Colour::White), 0) => return Ok(Some(false)),
            _ => {}
        }
        // Theorem 2 (module docs): after an ultimate delay each goal is
        // Black's win of Fundamental Go at a komi one stone apart at most,
        // so every such node shares the Fundamental Go table.
        if self.rules.variant == Variant::Ultimate {
            if let Some(f) = first_ultimate {
                let kk = match (f, ultimate[f.opponent().index()], g) {
                    // White still holds hers, counted as her prisoner.
                    (Colour::Black, true, 0) => k + 1,
                    // Black still holds his, counted as his prisoner.
                    (Colour::White, true, 1) => k - 1,
                    _ => k,
                };
                let saved = self.rules;
                self.rules.variant = Variant::Fundamental;
                let r =
                    self.reaches_within(board, [false; 2], None, p, 0, kk, recurring, tested, left);
                self.rules = saved;
                return r;
            }
        }
        // Fundamental Go has no draws: both goals are Black's win.
        let g = if self.rules.variant == Variant::Fundamental {
            0
        } else {
            g
        };
        // Where the answers are kept (the node's image, maybe), at what
        // komi; the history as a bit set over the entry's numbered boards
        // (and how many were numbered then), and the record it matches.
        let view = self.table_view(&key, p, recurring);
        let (vp, vk) = (view.p, view.komi(k));
        let (numbered, mut history_bits) = self
            .thresholds_memo
            .get(&view.key)
            .map_or((0, Vec::new()), |n| {
                (n.boards.len(), n.bits(&view.recurring))
            });
        let found = self.thresholds_memo.get(&view.key).and_then(|n| {
            let i = n.find(&history_bits)?;
            Some((i, n.records[i].entry))
        });
        if let Some((i, e)) = found {
            let (lo, hi) = e.bounds[g][vp];
            if lo >= vk || hi < vk {
                let n = &self.thresholds_memo[&view.key];
                tested.add_boards(self.unmirrored(&view, n.boards_of(&n.records[i].tested)));
                self.mirrored_answers += u64::from(view.mirrored);
                return Ok(Some(view.answer(lo >= vk)));
            }
        }
        let full_entry = self.full_record(&view.key, &view.recurring).copied();
        if let Some(e) = full_entry {
            let (lo, hi) = e.bounds[g][vp];
            if lo >= vk || hi < vk {
                tested.add(&Tested::full());
                self.mirrored_answers += u64::from(view.mirrored);
                return Ok(Some(view.answer(lo >= vk)));
            }
        }
        if let Some(r) = self.answer_by_theorem_3(board, p, g, k, recurring, tested) {
            return Ok(Some(r));
        }
        // Past the horizon, or where a search with as many plies left
        // gave up before: open.
        let open_key = (key.clone(), p as u8, g as u8, k);
        if left == 0 || left != EXACT && self.open.get(&open_key).is_some_and(|&l| l >= left) {
            return Ok(None);
        }
        self.tick()?;
        let black = p == 0;
        let colour = if black { Colour::Black } else { Colour::White };
        // Black to move reaches the goal iff one of her options does;
        // White to move, iff every one of hers does. `black` is the answer
        // that stops the search. A draw declaration changes nothing here
        // (the goals it decides are answered above), and resigning is a
        // loss for the mover.
        let hint = found
            .map(|(_, e)| e.best[vp])
            .filter(|&b| b != u8::MAX)
            .or(full_entry.map(|e| e.best[vp]))
            .filter(|&b| b != u8::MAX)
            .or_else(|| {
                let n = self.thresholds_memo.get(&view.key)?;
                n.records
                    .iter()
                    .rev()
                    .map(|r| r.entry.best[vp])
                    .find(|&b| b != u8::MAX)
            })
            .and_then(|b| (b != u8::MAX).then_some(b as usize))
            .unwrap_or(usize::MAX);
        // The boards this search tests against the history, its own and
        // those of the searches below it: of every option tried when none
        // decides the node, of the deciding one alone when one does (the
        // answer then holds wherever that option is legal and answers the
        // same, module docs, "Repetition").
        let mut mine = Tested::none();
        let mut child = Tested::none();
        let mut placements = Vec::new();
        self.arena.placements(board, colour, &mut placements);
        // The image's placements (the other player's), where a mirrored
        // entry's options are numbered.
        let image_placements = if view.mirrored {
            let mut v = Vec::new();
            self.arena
                .placements(view.key.board, colour.opponent(), &mut v);
            v
        } else {
            Vec::new()
        };
        let hint = if view.mirrored {
            self.mirrored_option(&image_placements, hint, &placements)
        } else {
            hint
        };
        let buf = &placements;
        let mut cut = None;
        let mut open = false;
        // The options by number: 0 a delay, 1 the ultimate delay, 2 + i
        // the i-th placement. The one that decided this node last time
        // (at another komi or goal) is tried first, then the placements
        // (captures first, the largest first; among equal captures, the
        // points that decided most nodes so far for this player: the
        // history heuristic), then the ultimate delay, then the delay.
        // (Delays first, as before session 9, made the proof trees of open
        // areas many times larger: 9–12 times on 3×3 and 2×4, and 3×4 did
        // not finish; BENCHMARKS.md.)
        let mut pl: Vec<usize> = (0..buf.len()).collect();
        let score = &self.cut_points[p];
        pl.sort_by_key(|&i| {
            let (b, c) = buf[i];
            std::cmp::Reverse((c, score[self.arena.placed(board, b)]))
        });
        let mut order = Vec::with_capacity(buf.len() + 3);
        order.push(hint);
        order.extend(pl.iter().map(|i| i + 2));
        order.extend([1, 0]);
        for (next, &o) in order.iter().enumerate() {
            if o == usize::MAX || (next > 0 && o == hint) {
                continue;
            }
            let r = match o {
                // A delay: with bowls differing by −k Black has stones iff
                // k ≤ −1, White iff k ≥ 1; a delay moves k by one towards 0.
                0 if black && k <= -1 || !black && k >= 1 => {
                    let kk = if black { k + 1 } else { k - 1 };
                    Some(self.reaches_within(
                        board,
                        ultimate,
                        first_ultimate,
                        1 - p,
                        g,
                        kk,
                        recurring,
                        &mut child,
                        below,
                    )?)
                }
                1 if self.rules.variant == Variant::Ultimate && ultimate[p] => {
                    let mut u = ultimate;
                    u[p] = false;
                    let f = first_ultimate.or(Some(colour));
                    Some(self.reaches_within(
                        board,
                        u,
                        f,
                        1 - p,
                        g,
                        k,
                        recurring,
                        &mut child,
                        below,
                    )?)
                }
                0 | 1 => None,
                _ => {
                    let (b, c) = placements[o - 2];
                    if self.track_history && recurring.binary_search(&b).is_ok() {
                        // Blocked: the answer holds where it stays blocked
                        // (were it legal, the mover might do better with it).
                        child.boards.push(b);
                        None
                    } else {
                        // Black's capture of c stones is c stones of komi
                        // for her.
                        let kk = if black { k - c as i32 } else { k + c as i32 };
                        let mut after = Vec::with_capacity(recurring.len() + 1);
                        self.arena.recurring_after(board, recurring, b, &mut after);
                        let r = self.reaches_within(
                            b,
                            ultimate,
                            first_ultimate,
                            1 - p,
                            g,
                            kk,
                            &after,
                            &mut child,
                            below,
                        );
                        let r = r?;
                        // A deciding placement must stay legal; a refuted
                        // one need not (module docs, "Repetition": blocked,
                        // it leaves the loser fewer options).
                        if self.track_history && r == Some(black) {
                            child.boards.push(b);
                        }
                        Some(r)
                    }
                }
            };
            let r = match r {
                Some(None) => {
                    open = true;
                    child = Tested::none();
                    continue;
                }
                Some(Some(r)) => Some(r),
                None => None,
            };
            if r == Some(black) {
                cut = Some(o);
                mine = Tested::none();
                mine.add(&child);
                break;
            }
            mine.add(&child);
            child = Tested::none();
        }
        // An option left open and none deciding: open, nothing recorded.
        if cut.is_none() && open {
            let l = self.open.entry(open_key).or_insert(0);
            *l = (*l).max(left);
            self.open_searches += 1;
            return Ok(None);
        }
        let answer = cut.is_some() == black;
        // Only a board that can come back after this one can be in its
        // history (it was generated below, so this board leads to it; in
        // the history it would lead back): the others need no record.
        if self.track_history && !mine.full {
            mine.boards.sort_unstable();
            mine.boards.dedup();
            let mut kept = Vec::with_capacity(mine.boards.len());
            self.arena.recurring(board, &mine.boards, &mut kept);
            mine.boards = kept;
            if mine.boards.len() > self.limits.tested {
                mine = Tested {
                    boards: Vec::new(),
                    full: true,
                };
            }
        }
        tested.add(&mine);
        // The entry's view of the answer: its tested boards, the deciding
        // option.
        let mut entry_boards = mine.boards;
        let mut best = cut;
        if view.mirrored {
            entry_boards = self.unmirrored(&view, entry_boards);
            entry_boards.sort_unstable();
            best = cut.map(|o| self.mirrored_option(&placements, o, &image_placements));
        }
        if let Some(o) = cut.filter(|&o| o >= 2) {
            let b = placements[o - 2].0;
            let pt = self.arena.placed(board, b);
            self.cut_points[p][pt] = self.cut_points[p][pt].saturating_add(1);
        }
        let recurring = &view.recurring[..];
        // Where the answer goes: the partial record of this history (a
        // search below may have made it meanwhile: a delay keeps the node),
        // or a new one, or the full record when the tested set or the
        // number of partial records is past its limit.
        let mut slot = None;
        if !mine.full {
            let n = self
                .thresholds_memo
                .entry(view.key.clone())
                .or_insert_with(NodeRecords::new);
            if let Some(t) = n.number(&entry_boards, self.limits.node_boards) {
                // The boards numbered since the start are few; the
                // history's bits need only those added.
                let h = if n.boards.len() - numbered < recurring.len() {
                    history_bits.resize(n.boards.len().div_ceil(64), 0);
                    for (i, b) in n.boards.iter().enumerate().skip(numbered) {
                        if recurring.binary_search(b).is_ok() {
                            history_bits[i / 64] |= 1 << (i % 64);
                        }
                    }
                    history_bits
                } else {
                    n.bits(recurring)
                };
                match n.find(&h) {
                    Some(i) => {
                        let t = union(&n.records[i].tested, &t);
                        if t.iter().map(|w| w.count_ones()).sum::<u32>() as usize
                            <= self.limits.tested
                        {
                            let played = t.iter().zip(&h).map(|(t, h)| t & h).collect();
                            let r = &mut n.records[i];
                            r.tested = t;
                            r.played = played;
                            slot = Some(&mut r.entry);
                        }
                    }
                    None if n.records.len() < self.limits.records => {
                        let played = t.iter().zip(&h).map(|(t, h)| t & h).collect();
                        n.records.push(Record {
                            tested: t,
                            played,
                            entry: NodeEntry {
                                bounds: [[(-INF, INF); 2]; 2],
                                best: [u8::MAX; 2],
                            },
                        });
                        slot = Some(&mut n.records.last_mut().expect("pushed").entry);
                    }
                    None => {}
                }
            }
        }
        let e = match slot {
            Some(e) => e,
            None => self
                .thresholds_full
                .entry(view.key.clone())
                .or_default()
                .entry(recurring.to_vec())
                .or_insert(NodeEntry {
                    bounds: [[(-INF, INF); 2]; 2],
                    best: [u8::MAX; 2],
                }),
        };
        if let Some(o) = best.filter(|&o| o != usize::MAX) {
            e.best[vp] = o as u8;
        }
        let (lo, hi) = &mut e.bounds[g][vp];
        if view.answer(answer) {
            *lo = (*lo).max(vk);
        } else {
            *hi = (*hi).min(vk - 1);
        }
        Ok(Some(answer))
    }

    /// The threshold of goal `g` for the player `p` to move (relative komi,
    /// module docs): the largest `k` at which Black reaches the goal,
    /// searched from `start` one komi at a time (the thresholds are
    /// finite except where a draw right decides, which comes first).
    fn threshold(
        &mut self,
        s: &Situation<A::Board>,
        g: usize,
        start: i32,
        history: &[A::Board],
    ) -> Result<i32, SolveError> {
        let (b, u, f, p) = (s.board, s.ultimate, s.first_ultimate, s.to_move.index());
        if self.rules.variant == Variant::Ultimate {
            let right = f.and_then(|f| (!u[f.opponent().index()]).then_some(f));
            match (right, g) {
                (Some(Colour::Black), 1) => return Ok(INF),
                (Some(Colour::White), 0) => return Ok(-INF),
                _ => {}
            }
        }
        let mut k = start;
        let t = &mut Tested::none();
        if self.reaches(b, u, f, p, g, k, history, t)? {
            while self.reaches(b, u, f, p, g, k + 1, history, t)? {
                k += 1;
            }
            Ok(k)
        } else {
            k -= 1;
            while !self.reaches(b, u, f, p, g, k, history, t)? {
                k -= 1;
            }
            Ok(k)
        }
    }

    fn solve(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i8, SolveError> {
        let key = self.key(s, history);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        self.tick()?;
        let sign: i8 = match s.to_move {
            Colour::Black => 1,
            Colour::White => -1,
        };
        // The best for the mover: her win. Start from resigning (a loss).
        let mut best = -1i8;
        for (m, next, _) in self.moves(s, history) {
            let v = match (m, next) {
                (SolverMove::Special(Special::Draw), _) => 0,
                (SolverMove::Special(Special::Resign), _) => -1,
                (SolverMove::Place(b), Some(n)) => {
                    history.push(b);
                    let r = self.solve(&n, history);
                    history.pop();
                    r? * sign
                }
                (_, Some(n)) => self.solve(&n, history)? * sign,
                (_, None) => -1,
            };
            if v > best {
                best = v;
                if best == 1 {
                    break;
                }
            }
        }
        let v = best * sign;
        self.memo.insert(key, v);
        Ok(v)
    }

    /// The outcome with mid-game komi `k` (stones to White; negative: to
    /// Black).
    pub fn outcome_with_komi(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
        k: i64,
    ) -> Result<i8, SolveError> {
        self.outcome(&s.with_komi(k), history)
    }

    /// The Fundamental Go score of §IV, doubled (an odd integer): `2s`.
    /// Ultimate prisoners still held count as ordinary prisoners.
    pub fn fundamental_score2(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let saved = self.rules;
        self.set_rules(NoPassRules {
            variant: Variant::Fundamental,
            version: saved.version,
        });
        let r = self.fundamental_score2_here(s, history);
        self.set_rules(saved);
        r
    }

    fn fundamental_score2_here(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let mut f = *s;
        for c in 0..2 {
            if f.ultimate[c] {
                f.bowls[c] += 1;
                f.ultimate[c] = false;
            }
        }
        f.first_ultimate = None;
        if let Some([t, _]) = self.komi_thresholds(&f, history)? {
            // Black wins at komi k iff k ≤ t: the score is t + ½.
            return Ok(2 * i64::from(t) + 1);
        }
        let at0 = self.outcome(&f, history)?;
        let mut k = 1i64;
        loop {
            if at0 > 0 {
                if self.outcome_with_komi(&f, history, k)? < 0 {
                    return Ok(2 * k - 1);
                }
            } else if self.outcome_with_komi(&f, history, -k)? > 0 {
                return Ok(-(2 * k - 1));
            }
            k += 1;
        }
    }

    /// The Ultimate Go score: with Black winning, the least komi to White
    /// that gives her a draw or better; with White winning, minus the same
    /// for Black; 0 for a draw. Under Fundamental Go rules it is the
    /// Fundamental Go score rounded away from zero.
    pub fn ultimate_score(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        if let Some([win, draw]) = self.komi_thresholds(s, history)? {
            // Black wins outright at komi k iff k ≤ win, draws or wins iff
            // k ≤ draw.
            return Ok(if win >= 0 {
                i64::from(win) + 1
            } else if draw >= 0 {
                0
            } else {
                i64::from(draw)
            });
        }
        let at0 = self.outcome(s, history)?;
        if at0 == 0 {
            return Ok(0);
        }
        let mut k = 1i64;
        loop {
            if at0 > 0 {
                if self.outcome_with_komi(s, history, k)? <= 0 {
                    return Ok(k);
                }
            } else if self.outcome_with_komi(s, history, -k)? >= 0 {
                return Ok(-k);
            }
            k += 1;
        }
    }

    /// The komis (stones to White, negative to Black) in `range` that make
    /// the result a draw.
    pub fn draw_komis(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Vec<i64>, SolveError> {
        let mut out = Vec::new();
        for k in range {
            if self.outcome_with_komi(s, history, k)? == 0 {
                out.push(k);
            }
        }
        Ok(out)
    }

    /// The Fundamental Go score (doubled) after a delay of the player to
    /// move — or, with an empty bowl, a reverse delay (a stone given to the
    /// opponent): the same board with the other player to move and one
    /// stone fewer for the mover (§V).
    pub fn score2_after_delay(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let mut n = *s;
        let i = s.to_move.index();
        // Count held ultimate prisoners as prisoners (as the score does).
        for c in 0..2 {
            if n.ultimate[c] {
                n.bowls[c] += 1;
                n.ultimate[c] = false;
            }
        }
        n.first_ultimate = None;
        if n.bowls[i] > 0 {
            n.bowls[i] -= 1;
        } else {
            n.bowls[1 - i] += 1;
        }
        n.to_move = s.to_move.opponent();
        self.fundamental_score2(&n, history)
    }

    /// The sente level of §V for the player to move: the cost of a delay or
    /// reverse delay (doubled scores differ by an even number; the level is
    /// an integer ≥ 0).
    pub fn sente_level(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let before = self.fundamental_score2(s, history)?;
        let after = self.score2_after_delay(s, history)?;
        let sign = s.to_move.sign();
        Ok((before - after) * sign / 2)
    }

    /// Each legal move of the player to move (placements, a delay if her
    /// bowl — ultimate prisoner included — is not empty) with its cost in
    /// Fundamental Go (§IV: how much it moves the score against the mover).
    pub fn move_costs(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<Vec<(SolverMove<A::Board>, i64)>, SolveError> {
        let before = self.fundamental_score2(s, history)?;
        let sign = s.to_move.sign();
        let mut out = Vec::new();
        let moves = self.moves(s, history);
        for (m, next, _) in moves {
            match (m, next) {
                (SolverMove::Place(b), Some(n)) => {
                    history.push(b);
                    let after = self.fundamental_score2(&n, history);
                    history.pop();
                    out.push((m, (before - after?) * sign / 2));
                }
                (SolverMove::Special(Special::Delay), _) => {}
                _ => {}
            }
        }
        let i = s.to_move.index();
        if s.bowls[i] > 0 || s.ultimate[i] {
            let after = self.score2_after_delay(s, history)?;
            out.push((
                SolverMove::Special(Special::Delay),
                (before - after) * sign / 2,
            ));
        }
        Ok(out)
    }
}

/// The phases of §V.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Phase {
    /// The sente level is positive.
    NormalPlay,
    /// The sente level is 0 and a delay or a placement is optimal.
    Counting,
    /// The sente level is 0 and only the reverse delay is optimal.
    ShouldResign,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::NormalPlay => "normal play",
            Phase::Counting => "counting",
            Phase::ShouldResign => "should resign",
        }
    }
}

impl<A: Arena> Solver<A> {
    /// The phase of §V for the player to move.
    pub fn phase(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<Phase, SolveError> {
        if self.sente_level(s, history)? > 0 {
            return Ok(Phase::NormalPlay);
        }
        let costs = self.move_costs(s, history)?;
        Ok(if costs.iter().any(|(_, c)| *c == 0) {
            Phase::Counting
        } else {
            Phase::ShouldResign
        })
    }
}

/// The solver's view of a game in progress: the arena, the situation and
/// the history boards.
pub fn situation_of(
    game: &crate::go::Game,
) -> Result<(GoArena, Situation<BoardCode>, Vec<BoardCode>), SolveError> {
    let state = game.nopass().cloned().unwrap_or_else(|| {
        NoPassState::new(
            NoPassRules {
                variant: Variant::Fundamental,
                version: Version::Original,
            },
            &num_rational::BigRational::from_integer(0.into()),
            0,
        )
        .expect("komi 0")
    });
    if state.ended.is_some() {
        return Err(SolveError::Ended);
    }
    if state.handicap_delays > 0 {
        return Err(SolveError::HandicapPending);
    }
    let (arena, code) = GoArena::of(game.position())?;
    let arena = arena.with_recurrence_classes(code);
    let history = game
        .history_boards()
        .map(|cells| {
            let mut c = 0;
            for (p, cell) in cells.iter().enumerate() {
                if let Cell::Stone(col) = cell {
                    c = with_cell(c, p, colour_code(*col));
                }
            }
            c
        })
        .collect();
    let s = Situation {
        board: code,
        to_move: game.to_move(),
        bowls: state.bowls,
        ultimate: state.ultimate,
        first_ultimate: state.first_ultimate,
    };
    Ok((arena, s, history))
}
