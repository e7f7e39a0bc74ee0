//! The game store: every canonical short game gets exactly one [`GameId`].
//!
//! Two kinds of node are interned:
//! * [`Nus`] — number-up-star values `x + k·↑ + *n`, the bulk of Go values. They
//!   are stored by their three parameters, and their canonical options are
//!   built only when someone asks for them (an integer `n` has the option chain
//!   `n-1, n-2, …`, which must never be materialised for big `n`).
//! * general canonical forms `{L | R}`, stored as option-id lists.
//!
//! Invariant: a general node is never equal to a number-up-star value (interning
//! recognises the canonical shapes of those and stores them as [`Nus`]), so equal
//! values always get identical ids and `a == b` on ids is game equality.

use super::dyadic::Dyadic;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;

/// The size of the game table at its first growth: the few hundred games a
/// script or a benchmark case builds (bigger stores grow by doubling).
const FIRST_NODES: usize = 512;
/// The size of the number-up-star index at its first use.
const FIRST_NUS_INDEX: usize = 256;
/// The size of the table of number-up-star options at its first use (a
/// store fills tens of entries in its first comparisons).
const FIRST_NUS_OPTIONS: usize = 64;
/// The size of the comparison memo at its first use: a store that builds a
/// few games already holds hundreds of comparisons.
pub(crate) const FIRST_LE_MEMO: usize = 1024;

/// The id of an interned canonical game. Equal ids ⇔ equal games.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GameId(pub(crate) u32);

impl GameId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A number-up-star value `number + ups·↑ + *nim`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Nus {
    pub number: Dyadic,
    pub ups: i64,
    pub nim: u64,
}

impl Nus {
    pub fn number(x: Dyadic) -> Nus {
        Nus {
            number: x,
            ups: 0,
            nim: 0,
        }
    }
    pub fn is_number(&self) -> bool {
        self.ups == 0 && self.nim == 0
    }
}

/// Why a computation in the core stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CgError {
    /// The user pressed Ctrl-C (or the host set the interrupt flag).
    Interrupted,
    /// A quantity left the range the engine represents (e.g. more than 2^63 ups).
    TooLarge(String),
    /// The memory limit or the stack guard of [`crate::limits`] was reached.
    Limit(crate::limits::Exceeded),
}

impl std::fmt::Display for CgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CgError::Interrupted => write!(f, "interrupted"),
            CgError::TooLarge(what) => write!(f, "too large: {what}"),
            CgError::Limit(e) => write!(f, "{e}"),
        }
    }
}

impl From<crate::limits::Exceeded> for CgError {
    fn from(e: crate::limits::Exceeded) -> CgError {
        CgError::Limit(e)
    }
}

pub type CgResult<T> = Result<T, CgError>;

pub(crate) type Options = Rc<[GameId]>;

#[derive(Clone)]
pub(crate) enum Node {
    Nus(Nus),
    /// `{left | right}` with its stops, found from its options' when it is
    /// interned ([`Store::stops`]). Declared first: reading a node's stops
    /// then takes fewer instructions (1.4 % of `up_nth/6`'s, whose
    /// comparisons the stops never settle).
    General {
        left_stop: Dyadic,
        right_stop: Dyadic,
        left: Options,
        right: Options,
    },
}

/// The left and right stops of a node ([`Store::stops`]).
#[inline]
pub(crate) fn node_stops(node: &Node) -> (&Dyadic, &Dyadic) {
    match node {
        Node::Nus(n) => (&n.number, &n.number),
        Node::General {
            left_stop,
            right_stop,
            ..
        } => (left_stop, right_stop),
    }
}

/// The arena of canonical games with the memo tables of the operations on them.
/// The tables [`Store::before_insert`] checks.
#[derive(Clone, Copy)]
pub(crate) enum Table {
    /// `le_memo`.
    Comparisons,
    /// `add_memo`.
    Sums,
    /// `nodes` and `general_index` (a new canonical game).
    Games,
}

pub struct Store {
    /// The games by id; empty until the first game is interned (the zero
    /// node, id 0, is then entered first).
    pub(crate) nodes: Vec<Node>,
    /// The zero node while `nodes` is empty: a store that answers `0` or
    /// prints a number allocates no table.
    zero_node: Node,
    /// Canonical options of nus nodes, built on demand.
    pub(crate) nus_options: FxHashMap<GameId, (Options, Options)>,
    nus_index: FxHashMap<Nus, GameId>,
    general_index: FxHashMap<(Options, Options), GameId>,
    pub(crate) le_memo: FxHashMap<(GameId, GameId), bool>,
    pub(crate) add_memo: FxHashMap<(GameId, GameId), GameId>,
    pub(crate) neg_memo: FxHashMap<GameId, GameId>,
    pub(crate) memo: super::ops::Memo,
    interrupt: Option<Arc<AtomicBool>>,
    /// Steps taken ([`Store::tick`] calls) since the store was made.
    steps: u64,
    /// The step at which [`Store::tick`] fails ([`Store::limit_steps`]).
    step_limit: u64,
    empty: Options,
    zero: GameId,
    /// The ids of the integers `-SMALL_INTEGERS..SMALL_INTEGERS` already
    /// interned, at `n + SMALL_INTEGERS` (0: not yet). The Go searches and
    /// their oracles make an integer at every move (its score), and a hash
    /// probe of the number-up-star index for each was a tenth of them.
    small_integers: [u32; 2 * SMALL_INTEGERS as usize],
}

/// See [`Store::small_integers`].
const SMALL_INTEGERS: i64 = 32;

/// Games copied out of one store to be interned into another
/// ([`GameExport::add`], [`Store::import`]): the store is single-threaded
/// (its option lists are shared `Rc`s), so a value computed on another
/// thread, in that thread's own store, crosses over as this plain list.
/// Each node's options are indices of earlier nodes, so importing in order
/// interns every option before the games that hold it.
#[derive(Clone, Debug, Default)]
pub struct GameExport {
    nodes: Vec<ExportNode>,
}

#[derive(Clone, Debug)]
enum ExportNode {
    Nus(Nus),
    General { left: Vec<u32>, right: Vec<u32> },
}

/// Writes games of one store into a [`GameExport`], each game once.
pub struct GameExporter<'s> {
    store: &'s Store,
    export: GameExport,
    index: FxHashMap<GameId, u32>,
    /// The games written by earlier exports of the same series
    /// ([`GameExporter::resume`]): this export's first game is numbered
    /// `base`, and options may name any earlier game of the series.
    base: u32,
}

/// What a series of exports from one store has written so far
/// ([`GameExporter::resume`], [`Store::import_more`]): each game once over
/// the whole series, numbered in order.
#[derive(Debug, Default)]
pub struct ExportSeries {
    index: FxHashMap<GameId, u32>,
    next: u32,
}

impl<'s> GameExporter<'s> {
    pub fn new(store: &'s Store) -> GameExporter<'s> {
        GameExporter {
            store,
            export: GameExport::default(),
            index: FxHashMap::default(),
            base: 0,
        }
    }

    /// The next export of `series`: games it wrote before are not written
    /// again, and are named by their number in the series.
    pub fn resume(store: &'s Store, series: &mut ExportSeries) -> GameExporter<'s> {
        GameExporter {
            store,
            export: GameExport::default(),
            index: std::mem::take(&mut series.index),
            base: series.next,
        }
    }

    /// [`GameExporter::finish`] for an export of a series, which is brought
    /// up to date.
    pub fn finish_series(self, series: &mut ExportSeries) -> GameExport {
        series.next = self.base + self.export.nodes.len() as u32;
        series.index = self.index;
        self.export
    }

    /// The index of `g` in the export, adding it and the games below it
    /// (options before the games that hold them; an explicit stack, since
    /// a game can be deeper than a thread's stack allows).
    pub fn add(&mut self, g: GameId) -> u32 {
        if let Some(&i) = self.index.get(&g) {
            return i;
        }
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if self.index.contains_key(&h) {
                continue;
            }
            let node = match self.store.node(h) {
                Node::Nus(n) => ExportNode::Nus(n.clone()),
                Node::General { left, right, .. } => {
                    let missing: Vec<GameId> = left
                        .iter()
                        .chain(right.iter())
                        .copied()
                        .filter(|o| !self.index.contains_key(o))
                        .collect();
                    if !missing.is_empty() {
                        // Options come first; they cannot hold `h` (a game
                        // is born after its options), so this ends.
                        debug_assert!(!expanded, "options of a game met twice");
                        stack.push((h, true));
                        stack.extend(missing.into_iter().map(|o| (o, false)));
                        continue;
                    }
                    ExportNode::General {
                        left: left.iter().map(|o| self.index[o]).collect(),
                        right: right.iter().map(|o| self.index[o]).collect(),
                    }
                }
            };
            let i = self.base + self.export.nodes.len() as u32;
            self.export.nodes.push(node);
            self.index.insert(h, i);
        }
        self.index[&g]
    }

    pub fn finish(self) -> GameExport {
        self.export
    }
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

thread_local! {
    /// The empty option list, shared by the stores of a thread: a fresh
    /// store would otherwise allocate (and free) one of its own, a sizable
    /// part of the cost of a store that answers one small question.
    static EMPTY_OPTIONS: Options = Rc::from(Vec::new());
}

impl Store {
    #[inline(always)]
    pub fn new() -> Store {
        // Nothing is allocated up front but the zero node: a fresh store
        // that answers a small question (`0`, one thermograph) would
        // otherwise pay for tables it never fills, and the ~150 KiB of
        // pre-sized tables a store used to start with were given back to
        // the system at each drop (glibc trims the heap top past 128 KiB),
        // so every fresh store took page faults again. Each table is sized
        // at its first use instead ([`FIRST_NODES`], …): a store that builds
        // a few games still skips the doublings of a table grown from empty.
        // Not even the zero node: until the first game is interned it lives
        // in `zero_node` (see [`Store::node`]).
        // The shared empty list is fetched first, so that the store can be
        // built where it is kept rather than built and copied (a thread
        // local's access between the fields kept it from that).
        let empty = EMPTY_OPTIONS.with(Rc::clone);
        Store {
            nodes: Vec::new(),
            zero_node: Node::Nus(Nus::number(Dyadic::zero())),
            nus_options: FxHashMap::default(),
            nus_index: FxHashMap::default(),
            general_index: FxHashMap::default(),
            le_memo: FxHashMap::default(),
            add_memo: FxHashMap::default(),
            neg_memo: FxHashMap::default(),
            memo: Default::default(),
            interrupt: None,
            steps: 0,
            step_limit: u64::MAX,
            empty,
            zero: GameId(0),
            small_integers: [0; 2 * SMALL_INTEGERS as usize],
        }
    }

    /// Appends a node, sizing the table for [`FIRST_NODES`] at its first
    /// growth (which also enters the zero node at index 0).
    #[inline]
    fn push_node(nodes: &mut Vec<Node>, node: Node) -> GameId {
        if nodes.len() == nodes.capacity() && nodes.len() < FIRST_NODES {
            Store::first_growth_of_nodes(nodes);
        }
        let id = GameId(nodes.len() as u32);
        nodes.push(node);
        id
    }

    #[cold]
    fn first_growth_of_nodes(nodes: &mut Vec<Node>) {
        nodes.reserve_exact(FIRST_NODES - nodes.len());
        if nodes.is_empty() {
            nodes.push(Node::Nus(Nus::number(Dyadic::zero())));
        }
    }

    /// Sizes the number-up-star index at its first use and enters the zero
    /// node, which [`Store::new`] makes without it.
    #[cold]
    fn first_use_of_nus_index(&mut self) {
        self.nus_index.reserve(FIRST_NUS_INDEX);
        self.nus_index
            .insert(Nus::number(Dyadic::zero()), self.zero);
    }

    /// Installs the flag that long computations poll; setting it makes them
    /// return [`CgError::Interrupted`].
    pub fn set_interrupt_flag(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// Called in every recursive step of the expensive operations (and by
    /// the searches of `play`, `ko` and `go` in every node): the stack guard
    /// and the memory limit at each step, the interrupt flag every 1024
    /// (see [`crate::limits`]).
    #[inline]
    pub(crate) fn tick(&mut self) -> CgResult<()> {
        // Both limits at every step (two loads and compares): a step can
        // allocate much, and what it allocates past the limit is overshoot.
        if crate::limits::CHECKS {
            crate::limits::check()?;
            self.check_growth()?;
        }
        self.count_step()
    }

    /// A step too small to need the memory and stack checks of
    /// [`Store::tick`] (a comparison the stops settle): counted for the step
    /// limit and the interrupt poll all the same, since the step budgets
    /// bound the work of canonical forms, whose comparisons are mostly
    /// settled that way.
    #[inline]
    pub(crate) fn count_step(&mut self) -> CgResult<()> {
        self.steps += 1;
        if self.steps > self.step_limit {
            return Err(CgError::Limit(crate::limits::Exceeded::Steps));
        }
        if self.steps & 0x3ff == 0 {
            if let Some(flag) = &self.interrupt {
                if flag.load(AtomicOrdering::Relaxed) {
                    return Err(CgError::Interrupted);
                }
            }
        }
        Ok(())
    }

    /// Fails when one of the store's big tables is about to grow (a few
    /// entries from its capacity) and its new array would not fit under the
    /// memory limit. A table grows by doubling in one allocation, between two
    /// steps, so checking only the memory in use would let a single
    /// doubling overshoot the limit by the table's whole size.
    ///
    /// The common case (no table near its growth) is one compare per table;
    /// with the seven `Growth`s built on every step, `tick` was a third of
    /// the instructions of a comparison of sums (BENCHMARKS.md, issue 21).
    #[inline]
    fn check_growth(&self) -> Result<(), crate::limits::Exceeded> {
        use crate::limits::near_growth;
        let near = near_growth(self.nodes.capacity(), self.nodes.len())
            | near_growth(self.general_index.capacity(), self.general_index.len())
            | near_growth(self.le_memo.capacity(), self.le_memo.len())
            | near_growth(self.add_memo.capacity(), self.add_memo.len())
            | near_growth(self.neg_memo.capacity(), self.neg_memo.len())
            | near_growth(self.nus_index.capacity(), self.nus_index.len())
            | near_growth(self.nus_options.capacity(), self.nus_options.len());
        if near {
            self.check_growth_due()
        } else {
            Ok(())
        }
    }

    /// [`Store::check_growth`] once some table is near its growth.
    #[cold]
    #[inline(never)]
    fn check_growth_due(&self) -> Result<(), crate::limits::Exceeded> {
        use crate::limits::{table_growth, vec_growth};
        let due = [
            vec_growth("game table", &self.nodes),
            table_growth("game index", &self.general_index),
            table_growth("comparison memo", &self.le_memo),
            table_growth("sum memo", &self.add_memo),
            table_growth("negation memo", &self.neg_memo),
            table_growth("number-up-star index", &self.nus_index),
            table_growth("number-up-star options", &self.nus_options),
        ];
        for g in due.into_iter().flatten() {
            g.check()?;
        }
        Ok(())
    }

    /// The growth check of one table, just before an insertion into it.
    /// Memo entries and new games are recorded on the way back up a
    /// recursion, one per returning frame with no step in between, so a
    /// deep recursion can insert far more than the slack [`Store::tick`]
    /// leaves before the next check (a sum of 20 000 copies of a hot game
    /// doubled the comparison memo from 0.9 to 1.7 GiB past a 1 GiB limit).
    #[inline]
    pub(crate) fn before_insert(&self, table: Table) -> CgResult<()> {
        use crate::limits::{table_growth, vec_growth};
        if !crate::limits::CHECKS {
            return Ok(());
        }
        let near = match table {
            Table::Comparisons => {
                crate::limits::near_growth(self.le_memo.capacity(), self.le_memo.len())
            }
            Table::Sums => {
                crate::limits::near_growth(self.add_memo.capacity(), self.add_memo.len())
            }
            Table::Games => {
                crate::limits::near_growth(self.nodes.capacity(), self.nodes.len())
                    || crate::limits::near_growth(
                        self.general_index.capacity(),
                        self.general_index.len(),
                    )
            }
        };
        if !near {
            return Ok(());
        }
        let due = match table {
            Table::Comparisons => [table_growth("comparison memo", &self.le_memo), None],
            Table::Sums => [table_growth("sum memo", &self.add_memo), None],
            Table::Games => [
                vec_growth("game table", &self.nodes),
                table_growth("game index", &self.general_index),
            ],
        };
        for growth in due.into_iter().flatten() {
            growth.check()?;
        }
        Ok(())
    }

    /// Steps taken so far (every [`Store::tick`]): the work done, for
    /// charging an analysis to the budget of the question that asked for it.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Makes [`Store::tick`] fail with [`Exceeded::Steps`](crate::limits::Exceeded)
    /// once `more` further steps are taken (or at the limit already set, if
    /// that comes first); returns the limit to put back with
    /// [`Store::restore_step_limit`]. A search with a node budget runs its
    /// side analyses (a ko graph's thermograph for move ordering, …) under
    /// what is left of its budget, so that they stop in time too.
    pub fn limit_steps(&mut self, more: u64) -> u64 {
        let old = self.step_limit;
        self.step_limit = old.min(self.steps.saturating_add(more));
        old
    }

    pub fn restore_step_limit(&mut self, old: u64) {
        self.step_limit = old;
    }

    /// Empties the memo tables (not the games): after a computation stopped
    /// at the memory limit, what it memoised is dropped so that the session
    /// can go on. Every game id stays valid.
    pub fn clear_memos(&mut self) {
        self.le_memo = FxHashMap::default();
        self.add_memo = FxHashMap::default();
        self.neg_memo = FxHashMap::default();
        self.memo = Default::default();
        self.nus_options = FxHashMap::default();
    }

    /// Number of interned games (for statistics and benchmarks).
    pub fn len(&self) -> usize {
        // The zero node counts before it enters the table.
        self.nodes.len().max(1)
    }
    pub fn is_empty(&self) -> bool {
        false
    }

    pub(crate) fn node(&self, g: GameId) -> &Node {
        match self.nodes.get(g.index()) {
            Some(n) => n,
            // A fresh store's zero node (nothing interned yet).
            None if g.index() == 0 => &self.zero_node,
            None => panic!("no game {} in this store", g.index()),
        }
    }

    /// Interns the games of `export` (from any store) and returns their ids
    /// here, by index. Every game of an export is canonical, so it is
    /// interned as it is (no canonical form computed again).
    pub fn import(&mut self, export: &GameExport) -> CgResult<Vec<GameId>> {
        let mut ids = Vec::new();
        self.import_more(export, &mut ids)?;
        Ok(ids)
    }

    /// [`Store::import`] for the next export of a series
    /// ([`GameExporter::resume`]): `ids` holds this store's ids of the
    /// series' games imported before, and gains this export's.
    pub fn import_more(&mut self, export: &GameExport, ids: &mut Vec<GameId>) -> CgResult<()> {
        ids.reserve(export.nodes.len());
        for node in &export.nodes {
            self.tick()?;
            let id = match node {
                ExportNode::Nus(n) => self.nus(n.clone()),
                ExportNode::General { left, right, .. } => {
                    self.before_insert(Table::Games)?;
                    let left = left.iter().map(|&i| ids[i as usize]).collect();
                    let right = right.iter().map(|&i| ids[i as usize]).collect();
                    self.intern_canonical(left, right)
                }
            };
            ids.push(id);
        }
        Ok(())
    }

    /// The flag installed by [`Store::set_interrupt_flag`], to give the
    /// stores of other threads working for the same question.
    pub fn interrupt_flag(&self) -> Option<Arc<AtomicBool>> {
        self.interrupt.clone()
    }

    /// Counts `steps` taken for this store's question in other stores (on
    /// other threads), so that [`Store::steps`] is the whole work.
    pub fn add_steps(&mut self, steps: u64) {
        self.steps = self.steps.saturating_add(steps);
    }

    /// The steps left before the limit of [`Store::limit_steps`].
    pub fn steps_left(&self) -> u64 {
        self.step_limit.saturating_sub(self.steps)
    }

    // ----- constructors ---------------------------------------------------

    pub fn zero(&self) -> GameId {
        self.zero
    }

    pub fn nus(&mut self, n: Nus) -> GameId {
        if self.nus_index.capacity() == 0 {
            self.first_use_of_nus_index();
        }
        // One hash probe whether the value is new or not: a hot path.
        match self.nus_index.entry(n) {
            std::collections::hash_map::Entry::Occupied(e) => *e.get(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let id = Store::push_node(&mut self.nodes, Node::Nus(e.key().clone()));
                e.insert(id);
                id
            }
        }
    }

    pub fn number(&mut self, x: Dyadic) -> GameId {
        self.nus(Nus::number(x))
    }

    pub fn integer(&mut self, n: i64) -> GameId {
        if (-SMALL_INTEGERS..SMALL_INTEGERS).contains(&n) {
            let slot = (n + SMALL_INTEGERS) as usize;
            if self.small_integers[slot] != 0 {
                return GameId(self.small_integers[slot]);
            }
            let id = self.number(Dyadic::from_i64(n));
            self.small_integers[slot] = id.0;
            return id;
        }
        self.number(Dyadic::from_i64(n))
    }

    pub fn nimber(&mut self, n: u64) -> GameId {
        self.nus(Nus {
            number: Dyadic::zero(),
            ups: 0,
            nim: n,
        })
    }

    pub fn star(&mut self) -> GameId {
        self.nimber(1)
    }

    /// `k·↑` (negative `k` for downs).
    pub fn ups(&mut self, k: i64) -> GameId {
        self.nus(Nus {
            number: Dyadic::zero(),
            ups: k,
            nim: 0,
        })
    }

    /// Interns `{left | right}` whose options are canonical and which is itself
    /// in canonical form (no dominated or reversible options). Recognises the
    /// canonical shapes of number-up-star values.
    pub(crate) fn intern_canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let mut left = left;
        let mut right = right;
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        if let Some(n) = self.recognise_nus(&left, &right) {
            return self.nus(n);
        }
        let key = (self.options_rc(left), self.options_rc(right));
        if let Some(&id) = self.general_index.get(&key) {
            return id;
        }
        let (left_stop, right_stop) = self.stops_from_options(&key.0, &key.1);
        let id = Store::push_node(
            &mut self.nodes,
            Node::General {
                left: key.0.clone(),
                right: key.1.clone(),
                left_stop,
                right_stop,
            },
        );
        self.general_index.insert(key, id);
        id
    }

    /// The stops of a general game `{left | right}` from its options':
    /// `LS(G) = max RS(G^L)`, `RS(G) = min LS(G^R)` (a canonical non-number
    /// has options on both sides; 0 stands in for an empty side).
    fn stops_from_options(&self, left: &[GameId], right: &[GameId]) -> (Dyadic, Dyadic) {
        let mut left_stop: Option<&Dyadic> = None;
        for &o in left {
            let s = self.stops(o).1;
            if left_stop.is_none_or(|b| s > b) {
                left_stop = Some(s);
            }
        }
        let mut right_stop: Option<&Dyadic> = None;
        for &o in right {
            let s = self.stops(o).0;
            if right_stop.is_none_or(|b| s < b) {
                right_stop = Some(s);
            }
        }
        (
            left_stop.cloned().unwrap_or_else(Dyadic::zero),
            right_stop.cloned().unwrap_or_else(Dyadic::zero),
        )
    }

    fn options_rc(&self, v: Vec<GameId>) -> Options {
        if v.is_empty() {
            self.empty.clone()
        } else {
            Rc::from(v)
        }
    }

    /// If `{left | right}` (canonical, sorted, deduplicated) is the canonical form
    /// of a number-up-star value, returns it. Mirrors [`Store::nus_canonical_options`].
    fn recognise_nus(&self, left: &[GameId], right: &[GameId]) -> Option<Nus> {
        let as_nus = |g: &GameId| match self.node(*g) {
            Node::Nus(n) => Some(n),
            Node::General { .. } => None,
        };
        let ls: Vec<&Nus> = left.iter().map(as_nus).collect::<Option<_>>()?;
        let rs: Vec<&Nus> = right.iter().map(as_nus).collect::<Option<_>>()?;
        // Numbers: simplest number strictly between the options.
        if ls.iter().chain(rs.iter()).all(|n| n.is_number()) {
            let max_l = ls.iter().map(|n| &n.number).max();
            let min_r = rs.iter().map(|n| &n.number).min();
            let is_number = match (max_l, min_r) {
                (Some(l), Some(r)) => l < r,
                _ => true,
            };
            if is_number {
                return Some(Nus::number(Dyadic::simplest_between(max_l, min_r)));
            }
        }
        let first = ls.first().or(rs.first())?;
        let x = &first.number;
        if !ls.iter().chain(rs.iter()).all(|n| &n.number == x) {
            return None;
        }
        let is_plain = |n: &Nus| n.ups == 0 && n.nim == 0;
        // x + *n: both sides are x + *0 … x + *(n-1).
        if left == right && ls.iter().all(|n| n.ups == 0) {
            let k = ls.len() as u64;
            let mut nims: Vec<u64> = ls.iter().map(|n| n.nim).collect();
            nims.sort_unstable();
            if nims.iter().enumerate().all(|(i, &m)| m == i as u64) {
                return Some(Nus {
                    number: x.clone(),
                    ups: 0,
                    nim: k,
                });
            }
            return None;
        }
        // x + ↑* = {x, x* | x} and x + ↓* = {x | x, x*}.
        let is_x_star = |n: &Nus| n.ups == 0 && n.nim == 1;
        if ls.len() == 2 && rs.len() == 1 && is_plain(rs[0]) {
            if ls.iter().any(|n| is_plain(n)) && ls.iter().any(|n| is_x_star(n)) {
                return Some(Nus {
                    number: x.clone(),
                    ups: 1,
                    nim: 1,
                });
            }
            return None;
        }
        if rs.len() == 2 && ls.len() == 1 && is_plain(ls[0]) {
            if rs.iter().any(|n| is_plain(n)) && rs.iter().any(|n| is_x_star(n)) {
                return Some(Nus {
                    number: x.clone(),
                    ups: -1,
                    nim: 1,
                });
            }
            return None;
        }
        if ls.len() == 1 && rs.len() == 1 {
            // x + k↑ + *n = {x | x + (k-1)↑ + *(n^1)} for k ≥ 1, (k, n) ≠ (1, 1).
            if is_plain(ls[0]) {
                let r = rs[0];
                let k = r.ups.checked_add(1)?;
                let n = r.nim ^ 1;
                if k >= 1 && !(k == 1 && n == 1) {
                    return Some(Nus {
                        number: x.clone(),
                        ups: k,
                        nim: n,
                    });
                }
            }
            if is_plain(rs[0]) {
                let l = ls[0];
                let k = l.ups.checked_sub(1)?;
                let n = l.nim ^ 1;
                if k <= -1 && !(k == -1 && n == 1) {
                    return Some(Nus {
                        number: x.clone(),
                        ups: k,
                        nim: n,
                    });
                }
            }
        }
        None
    }

    // ----- inspection -------------------------------------------------------

    pub fn as_nus(&self, g: GameId) -> Option<&Nus> {
        match self.node(g) {
            Node::Nus(n) => Some(n),
            Node::General { .. } => None,
        }
    }

    pub fn as_number(&self, g: GameId) -> Option<&Dyadic> {
        match self.node(g) {
            Node::Nus(n) if n.is_number() => Some(&n.number),
            _ => None,
        }
    }

    pub fn is_number(&self, g: GameId) -> bool {
        self.as_number(g).is_some()
    }

    /// The left and right stops of `g`: a number-up-star value's number, a
    /// general game's as recorded when it was interned.
    #[inline]
    pub(crate) fn stops(&self, g: GameId) -> (&Dyadic, &Dyadic) {
        node_stops(self.node(g))
    }

    /// Canonical Left and Right options.
    pub fn options(&mut self, g: GameId) -> (Options, Options) {
        match self.node(g) {
            Node::General { left, right, .. } => (left.clone(), right.clone()),
            Node::Nus(n) => {
                if let Some(opts) = self.nus_options.get(&g) {
                    return opts.clone();
                }
                let n = n.clone();
                let opts = self.nus_canonical_options(&n);
                if self.nus_options.capacity() == 0 {
                    self.nus_options.reserve(FIRST_NUS_OPTIONS);
                }
                self.nus_options.insert(g, opts.clone());
                opts
            }
        }
    }

    /// Canonical Left options (clones one list, not both).
    pub fn left_options(&mut self, g: GameId) -> Options {
        if let Node::General { left, .. } = self.node(g) {
            return left.clone();
        }
        if let Some((left, _)) = self.nus_options.get(&g) {
            return left.clone();
        }
        self.options(g).0
    }

    /// Canonical Right options (clones one list, not both).
    pub fn right_options(&mut self, g: GameId) -> Options {
        if let Node::General { right, .. } = self.node(g) {
            return right.clone();
        }
        if let Some((_, right)) = self.nus_options.get(&g) {
            return right.clone();
        }
        self.options(g).1
    }

    /// The canonical options of `x + k↑ + *n`, as the shared lists
    /// [`Store::options`] hands out. A side with one or two options is
    /// built straight into its `Rc` (one allocation, not a `Vec` and then
    /// the `Rc`): a fresh store builds these for every number-up-star value a
    /// comparison looks into, inside the computation that needs them.
    fn nus_canonical_options(&mut self, n: &Nus) -> (Options, Options) {
        let x = n.number.clone();
        let with = |ups: i64, nim: u64| Nus {
            number: x.clone(),
            ups,
            nim,
        };
        let one = |a: GameId| -> Options { Rc::from([a]) };
        if n.is_number() {
            if x.is_integer() {
                return match x.signum() {
                    0 => (self.empty.clone(), self.empty.clone()),
                    1 => (one(self.number(x.sub(&Dyadic::one()))), self.empty.clone()),
                    _ => (self.empty.clone(), one(self.number(x.add(&Dyadic::one())))),
                };
            }
            let step = Dyadic::unit(x.exponent());
            let l = self.number(x.sub(&step));
            let r = self.number(x.add(&step));
            return (one(l), one(r));
        }
        if n.ups == 0 {
            let opts: Vec<GameId> = (0..n.nim).map(|i| self.nus(with(0, i))).collect();
            let opts = self.options_rc(opts);
            return (opts.clone(), opts);
        }
        let plain = self.nus(with(0, 0));
        if n.ups == 1 && n.nim == 1 {
            let star = self.nus(with(0, 1));
            return (Rc::from([plain, star]), one(plain));
        }
        if n.ups == -1 && n.nim == 1 {
            let star = self.nus(with(0, 1));
            return (one(plain), Rc::from([plain, star]));
        }
        if n.ups > 0 {
            let r = self.nus(with(n.ups - 1, n.nim ^ 1));
            (one(plain), one(r))
        } else {
            let l = self.nus(with(n.ups + 1, n.nim ^ 1));
            (one(l), one(plain))
        }
    }
}
