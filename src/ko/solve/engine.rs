//! The search behind [`super::solve`]: alpha-beta over whole-sum states
//! with a transposition table whose key carries exactly the part of the
//! history that can still matter (see the module documentation of
//! [`super`], "Transposition table").

use super::{KoSolveError, KoSolveOptions};
use crate::game::{CgError, Dyadic, GameId, Store};
use crate::ko::{plus_gain, Component, Compound, KoError, KoGraph, Komaster, NodeId, Side, Target};
use crate::limits::Exceeded;
use crate::play::search::{max_lo, min_hi};
use crate::play::{self, PlayError, Player};
use num_rational::BigRational;
use num_traits::Zero;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry as MapEntry;
use std::rc::Rc;

pub(super) use super::val::Val;

/// Move-ordering keys are clamped to `±ORDER_CAP`; a hinted move (the
/// table's best) gets `HINT`, above every key.
const ORDER_CAP: i64 = 1 << 50;
const HINT: i64 = 1 << 55;

/// One non-number component, as the search sees it. Ko graphs and compounds
/// are interned by identity (the `Rc` pointer) into small indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(super) enum C {
    /// A short game that is not a number.
    Short(GameId),
    /// A node of ko graph number `.0` from which a cycle can be reached.
    Ko(u32, NodeId),
    /// Compound number `.0`.
    Compound(u32),
}

/// A whole-sum position: the sorted multiset of non-number components and the
/// threats of each side (index 0 Black, 1 White). Numbers are not part of
/// it: the search values are relative to the numbers already settled.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct Pos {
    pub comps: Vec<C>,
    pub threats: [u32; 2],
    /// The multiset hash of `comps`: the wrapping sum of [`C::hash64`]
    /// (kept up to date move by move).
    pub hash: u64,
}

impl Pos {
    pub fn new(comps: Vec<C>, threats: [u32; 2]) -> Pos {
        let hash = comps.iter().fold(0u64, |h, c| h.wrapping_add(c.hash64()));
        Pos {
            comps,
            threats,
            hash,
        }
    }
}

impl C {
    /// A 64-bit hash of the component, for [`Pos::hash`].
    pub fn hash64(self) -> u64 {
        let (tag, a, b) = match self {
            C::Short(g) => (1u64, g.index() as u64, 0u64),
            C::Ko(gi, n) => (2, gi as u64, n.index() as u64),
            C::Compound(ci) => (3, ci as u64, 0),
        };
        mix(mix(tag << 60 ^ a) ^ b)
    }
}

/// The basic ko ban: one component at `(graph, node)` may not move to
/// `forbidden` (it just came from there by the opponent's move).
pub(super) type Ban = (u32, NodeId, NodeId);

/// A search node: the position, the player to move, the ko ban, whether the
/// previous move was a pass, and the states of the current reversible
/// segment (sorted state ids, the current one included; the ids leave the
/// threats out, which are the same all through a segment).
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub pos: Pos,
    pub left: bool,
    pub ban: Option<Ban>,
    pub passed: bool,
    pub seg: Vec<u32>,
    pub sid: u32,
    /// The segment's key in the table: [`SINGLE`] for the segment
    /// `{sid}`, otherwise the segment's interned id.
    pub seg_key: u32,
}

/// [`Node::seg_key`] of a segment that is its state alone.
const SINGLE: u32 = u32::MAX;

/// What a component's option turns it into.
#[derive(Clone, Debug)]
pub(super) struct Opt {
    /// The option's index in the component's list of options for that side.
    pub index: usize,
    /// The non-number components it becomes.
    pub comps: Vec<C>,
    /// The numbers it settles.
    pub delta: Val,
    /// Threats it creates (Black, White).
    pub threats: [u32; 2],
    pub kind: OptKind,
    /// For a move in a short game `g` to `o`: a hash of the shapes of `g`
    /// and `o` (see [`Engine::shape`]); moves of different signatures are
    /// never compared for dominance. 0 for other components.
    sig: u64,
    /// Move-ordering key: the component's heat, then the numbers the move
    /// settles for the mover (scaled by 2^16 and rounded down: an integer,
    /// cheap to compare; the order never affects a value).
    order: i64,
}

#[derive(Clone, Debug)]
pub(super) enum OptKind {
    Short(GameId),
    /// A move inside a ko graph. `reversible`: the target lies in the same
    /// strongly connected component (play may come back); `fill`: the ko is
    /// resolved (the target is a short game, or a node from which no cycle
    /// can be reached), with that short game.
    Ko {
        to: Target,
        reversible: bool,
        fill: Option<GameId>,
    },
    Compound,
}

/// A move at a search node, identified within its position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mv {
    /// Component at index `ci` of the sorted position, option `oi` of
    /// [`Engine::options`].
    Comp {
        ci: usize,
        oi: usize,
    },
    /// A threat and its forced answer.
    Threat,
    Pass,
    /// A threat, its answer, then the move `Comp { ci, oi }` by the same
    /// player (threats are searched only in these combinations; see
    /// [`Engine::children`]).
    ThreatComp {
        ci: usize,
        oi: usize,
    },
    /// A threat, its answer, then a pass.
    ThreatPass,
}

/// A candidate move at a search node; its child node is built only when
/// the move is searched ([`Engine::make_child`]).
pub(super) struct Child {
    pub mv: Mv,
    /// The numbers the move settles (for the second pass: the count).
    pub delta: Val,
    heat: i64,
    /// For a move in a short game `g` to `x`: `(signature, g, x)` (for
    /// [`Engine::prune_dominated`]).
    short: Option<(u64, GameId, GameId)>,
}

#[derive(Clone, Debug, Default)]
struct Entry {
    lo: Option<Val>,
    hi: Option<Val>,
    best: Option<MvKey>,
}

/// A move identity that survives re-generation at the same key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MvKey {
    Comp(C, usize),
    Threat,
    Pass,
    ThreatComp(C, usize),
    ThreatPass,
}

/// The table key: the state *without* its threats, the ban, whether the
/// previous turn was a pass, and the segment (threat-free state ids: the
/// threats never change inside a segment). The entries under one key are
/// the threat counts seen with it, so that the bounds of every comparable
/// count are found in one lookup (module documentation of [`super`],
/// "Transposition table").
type TtKey = (u32, Option<Ban>, bool, u32);

/// The entries of one key, by the threats (Black, White).
type TtSlot = Vec<([u32; 2], Entry)>;

struct GraphInfo {
    graph: Rc<KoGraph>,
    cyclic: Vec<bool>,
    scc: Vec<usize>,
}

pub(super) struct Engine<'s> {
    /// The ko-free solver, kept for the whole engine's life so that its
    /// tables serve every ko-free position (it owns the store borrow).
    play: play::search::Solver<'s>,
    pub opts: KoSolveOptions,
    graphs: Vec<GraphInfo>,
    graph_ids: FxHashMap<*const KoGraph, u32>,
    compounds: Vec<Rc<Compound>>,
    compound_ids: FxHashMap<*const Compound, u32>,
    /// Ids of states without their threats (the components), index 0 with
    /// Right to move, 1 with Left. Inside a segment the threats are fixed,
    /// so these ids identify the whole-sum states there.
    /// Keyed by [`Pos::hash`]; `state_comps` holds each id's components to
    /// tell a hash collision, and `collided` the states whose hash an
    /// earlier state had.
    states: [FxHashMap<u64, u32>; 2],
    state_comps: Vec<Vec<C>>,
    collided: [FxHashMap<Vec<C>, u32>; 2],
    n_states: u32,
    /// Interned segments of two or more states.
    segs: FxHashMap<Vec<u32>, u32>,
    tt: FxHashMap<TtKey, TtSlot>,
    options: FxHashMap<(C, bool), Rc<Vec<Opt>>>,
    counts: FxHashMap<(C, bool), Val>,
    heats: FxHashMap<C, BigRational>,
    compound_short: FxHashMap<u32, Option<GameId>>,
    switch: FxHashMap<GameId, Option<Dyadic>>,
    shapes: FxHashMap<GameId, u64>,
    /// [`Engine::fate_diff`].
    fate_diffs: FxHashMap<(GameId, GameId), Option<(Val, Val)>>,
    /// [`Engine::dominates`], keyed by the two moves and the mover.
    dominance: FxHashMap<(GameId, GameId, GameId, GameId, bool), bool>,
    ko_free_memo: FxHashMap<(Vec<GameId>, bool), Val>,
    pub nodes: u64,
    /// Store steps of the side analyses charged to the budget ([`Engine::charged`]).
    side_steps: u64,
    pub tt_hits: u64,
}

/// A 64-bit mixer (splitmix64's finaliser).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn dq(d: &Dyadic) -> Val {
    Val::from_q(&d.to_rational())
}

pub(super) fn side_index(s: Side) -> usize {
    match s {
        Side::Left => 0,
        Side::Right => 1,
    }
}

/// The parts a list of components is made of.
#[derive(Default, Debug)]
pub(super) struct Parts {
    pub comps: Vec<C>,
    pub delta: Val,
    pub threats: [u32; 2],
}

impl<'s> Engine<'s> {
    pub fn new(store: &'s mut Store, opts: KoSolveOptions) -> Engine<'s> {
        Engine {
            play: play::search::Solver::new(store, u64::MAX),
            opts,
            graphs: Vec::new(),
            graph_ids: FxHashMap::default(),
            compounds: Vec::new(),
            compound_ids: FxHashMap::default(),
            states: [FxHashMap::default(), FxHashMap::default()],
            state_comps: Vec::new(),
            collided: [FxHashMap::default(), FxHashMap::default()],
            n_states: 0,
            segs: FxHashMap::default(),
            tt: FxHashMap::default(),
            options: FxHashMap::default(),
            counts: FxHashMap::default(),
            heats: FxHashMap::default(),
            compound_short: FxHashMap::default(),
            switch: FxHashMap::default(),
            shapes: FxHashMap::default(),
            fate_diffs: FxHashMap::default(),
            dominance: FxHashMap::default(),
            ko_free_memo: FxHashMap::default(),
            nodes: 0,
            side_steps: 0,
            tt_hits: 0,
        }
    }

    fn count_node(&mut self) -> Result<(), KoSolveError> {
        self.nodes += 1;
        if self.work() > self.opts.budget {
            return Err(KoSolveError::NodeBudget { nodes: self.work() });
        }
        self.play.store.tick()?;
        Ok(())
    }

    // ----- interning and conversion ---------------------------------------------

    fn graph_id(&mut self, g: &Rc<KoGraph>) -> u32 {
        let p = Rc::as_ptr(g);
        if let Some(&i) = self.graph_ids.get(&p) {
            return i;
        }
        let i = self.graphs.len() as u32;
        let scc = g.sccs(None);
        self.graphs.push(GraphInfo {
            graph: g.clone(),
            cyclic: g.reaches_cycle(),
            scc,
        });
        self.graph_ids.insert(p, i);
        i
    }

    fn compound_id(&mut self, c: &Rc<Compound>) -> u32 {
        let p = Rc::as_ptr(c);
        if let Some(&i) = self.compound_ids.get(&p) {
            return i;
        }
        let i = self.compounds.len() as u32;
        self.compounds.push(c.clone());
        self.compound_ids.insert(p, i);
        i
    }

    /// A short game as a part: a number settles, anything else stays.
    fn short_part(&mut self, g: GameId, parts: &mut Parts) {
        match self.play.store.as_number(g) {
            Some(x) => parts.delta += dq(x),
            None => parts.comps.push(C::Short(g)),
        }
    }

    fn ko_part(&mut self, gi: u32, n: NodeId, parts: &mut Parts) -> Result<(), KoSolveError> {
        let info = &self.graphs[gi as usize];
        if info.cyclic[n.index()] {
            parts.comps.push(C::Ko(gi, n));
        } else {
            let graph = info.graph.clone();
            let g = graph
                .short_game(self.play.store, n)
                .map_err(|e| KoSolveError::from_ko(&graph, n, e))?;
            self.short_part(g, parts);
        }
        Ok(())
    }

    /// Adds one component to `parts`.
    pub fn add_component(&mut self, c: &Component, parts: &mut Parts) -> Result<(), KoSolveError> {
        match c {
            Component::Short(g) => self.short_part(*g, parts),
            Component::Ko { graph, node } => {
                let gi = self.graph_id(graph);
                self.ko_part(gi, *node, parts)?;
            }
            Component::Threats { owner, count } => parts.threats[side_index(*owner)] += *count,
            Component::Compound(c) => {
                let ci = self.compound_id(c);
                parts.comps.push(C::Compound(ci));
            }
        }
        Ok(())
    }

    pub fn convert(&mut self, cs: &[Component]) -> Result<Parts, KoSolveError> {
        let mut parts = Parts::default();
        for c in cs {
            self.add_component(c, &mut parts)?;
        }
        Ok(parts)
    }

    /// The [`Component`] a search component stands for.
    pub fn component(&self, c: C) -> Component {
        match c {
            C::Short(g) => Component::Short(g),
            C::Ko(gi, n) => Component::Ko {
                graph: self.graphs[gi as usize].graph.clone(),
                node: n,
            },
            C::Compound(ci) => Component::Compound(self.compounds[ci as usize].clone()),
        }
    }

    /// The id of the state `pos` (without its threats) with Left (`left`)
    /// or Right to move, if it has one.
    fn find_state(&self, pos: &Pos, left: bool) -> Option<u32> {
        let &i = self.states[left as usize].get(&pos.hash)?;
        if self.state_comps[i as usize] == pos.comps {
            Some(i)
        } else {
            self.collided[left as usize].get(&pos.comps).copied()
        }
    }

    pub fn state_id(&mut self, pos: &Pos, left: bool) -> u32 {
        if let Some(i) = self.find_state(pos, left) {
            return i;
        }
        let i = self.n_states;
        self.n_states += 1;
        self.state_comps.push(pos.comps.clone());
        let side = left as usize;
        match self.states[side].entry(pos.hash) {
            MapEntry::Occupied(_) => {
                self.collided[side].insert(pos.comps.clone(), i);
            }
            MapEntry::Vacant(v) => {
                v.insert(i);
            }
        }
        i
    }

    /// [`Node::seg_key`] of a sorted segment.
    fn seg_key(&mut self, seg: &[u32]) -> u32 {
        if seg.len() == 1 {
            return SINGLE;
        }
        if let Some(&k) = self.segs.get(seg) {
            return k;
        }
        let k = self.segs.len() as u32;
        self.segs.insert(seg.to_vec(), k);
        k
    }

    /// The root search node of a position.
    pub fn root(&mut self, pos: Pos, left: bool) -> Node {
        let sid = self.state_id(&pos, left);
        Node {
            pos,
            left,
            ban: None,
            passed: false,
            seg: vec![sid],
            sid,
            seg_key: SINGLE,
        }
    }

    // ----- component data ---------------------------------------------------------

    /// The options of `c` for Left (`left`) or Right.
    pub fn options(&mut self, c: C, left: bool) -> Result<Rc<Vec<Opt>>, KoSolveError> {
        if let Some(o) = self.options.get(&(c, left)) {
            return Ok(o.clone());
        }
        let mut out = Vec::new();
        match c {
            C::Short(g) => {
                let opts = if left {
                    self.play.store.left_options(g)
                } else {
                    self.play.store.right_options(g)
                };
                for (index, &o) in opts.iter().enumerate() {
                    let mut parts = Parts::default();
                    self.short_part(o, &mut parts);
                    out.push(Opt {
                        index,
                        comps: parts.comps,
                        delta: parts.delta,
                        threats: [0, 0],
                        kind: OptKind::Short(o),
                        order: 0,
                        sig: 0,
                    });
                }
            }
            C::Ko(gi, n) => {
                let graph = self.graphs[gi as usize].graph.clone();
                let side = if left { Side::Left } else { Side::Right };
                for (index, t) in graph.node(n).options(side).iter().enumerate() {
                    let mut parts = Parts::default();
                    // A scoring move (an edge gain) settles its gain at once.
                    let gain = graph.node(n).gain(side, index).clone();
                    parts.delta += dq(&gain);
                    let kind = match t {
                        Target::Game(g) => {
                            self.short_part(g, &mut parts);
                            OptKind::Ko {
                                to: t,
                                reversible: false,
                                fill: Some(plus_gain(self.play.store, gain, g)?),
                            }
                        }
                        Target::Node(m) => {
                            let info = &self.graphs[gi as usize];
                            let reversible = info.scc[m.index()] == info.scc[n.index()];
                            let cyclic = info.cyclic[m.index()];
                            self.ko_part(gi, m, &mut parts)?;
                            let fill = if cyclic {
                                None
                            } else {
                                let f = graph
                                    .short_game(self.play.store, m)
                                    .map_err(|e| KoSolveError::from_ko(&graph, m, e))?;
                                Some(plus_gain(self.play.store, gain, f)?)
                            };
                            OptKind::Ko {
                                to: t,
                                reversible,
                                fill,
                            }
                        }
                    };
                    out.push(Opt {
                        index,
                        comps: parts.comps,
                        delta: parts.delta,
                        threats: [0, 0],
                        kind,
                        order: 0,
                        sig: 0,
                    });
                }
            }
            C::Compound(ci) => {
                let comp = self.compounds[ci as usize].clone();
                let list = if left { &comp.left } else { &comp.right };
                for (index, sum) in list.iter().enumerate() {
                    let parts = self.convert(sum)?;
                    out.push(Opt {
                        index,
                        comps: parts.comps,
                        delta: parts.delta,
                        threats: parts.threats,
                        kind: OptKind::Compound,
                        order: 0,
                        sig: 0,
                    });
                }
            }
        }
        if let C::Short(g) = c {
            let sg = self.shape(g);
            for o in out.iter_mut() {
                if let OptKind::Short(x) = o.kind {
                    let sx = self.shape(x);
                    o.sig = mix(sg ^ mix(sx ^ 0x5bd1_e995)) | 1;
                }
            }
        }
        let heat = self.heat(c)? * BigRational::from_integer(64.into());
        for o in out.iter_mut() {
            let bonus = if left {
                o.delta.to_q()
            } else {
                -o.delta.to_q()
            };
            let q: BigRational = (&heat + bonus / BigRational::from_integer(1024.into()))
                * BigRational::from_integer(1024.into());
            let cap = BigRational::from_integer(ORDER_CAP.into());
            o.order = if q > cap {
                ORDER_CAP
            } else if q < -cap.clone() {
                -ORDER_CAP
            } else {
                q.floor().to_integer().try_into().unwrap_or(0)
            };
        }
        let rc = Rc::new(out);
        self.options.insert((c, left), rc.clone());
        Ok(rc)
    }

    /// A hash of the shape of `g`'s game tree: numbers are leaves, a
    /// non-number node lists its Left then its Right options' shapes in the
    /// store's order. Two games related by [`Engine::fate_diff`] have equal
    /// shapes (the converse is only likely).
    fn shape(&mut self, g: GameId) -> u64 {
        if self.play.store.is_number(g) {
            return 1;
        }
        if let Some(&h) = self.shapes.get(&g) {
            return h;
        }
        let (l, r) = self.play.store.options(g);
        let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
        for &x in l.iter() {
            h = mix(h ^ self.shape(x));
        }
        h = mix(h ^ 0xabcd);
        for &x in r.iter() {
            h = mix(h ^ self.shape(x));
        }
        self.shapes.insert(g, h);
        h
    }

    /// The least and the greatest difference `fate(x) − fate(y)` over the
    /// corresponding fates of two short games whose trees match (module
    /// documentation, "Dominated short moves"): both numbers, `x − y`; both
    /// non-numbers with as many Left and as many Right options, the
    /// difference of their means and, recursively, of their options paired
    /// in the store's order; `None` when the trees do not match.
    fn fate_diff(&mut self, x: GameId, y: GameId) -> Result<Option<(Val, Val)>, KoSolveError> {
        if x == y {
            return Ok(Some((Val::zero(), Val::zero())));
        }
        if let Some(r) = self.fate_diffs.get(&(x, y)) {
            return Ok(r.clone());
        }
        let out = match (
            self.play.store.as_number(x).cloned(),
            self.play.store.as_number(y).cloned(),
        ) {
            (Some(a), Some(b)) => {
                let d = dq(&a.sub(&b));
                Some((d.clone(), d))
            }
            (None, None) => 'm: {
                let (xl, xr) = self.play.store.options(x);
                let (yl, yr) = self.play.store.options(y);
                if xl.len() != yl.len() || xr.len() != yr.len() {
                    break 'm None;
                }
                let mx = self.play.store.mean(x)?;
                let my = self.play.store.mean(y)?;
                let d = dq(&mx.sub(&my));
                let (mut lo, mut hi) = (d.clone(), d);
                for (a, b) in xl.iter().zip(yl.iter()).chain(xr.iter().zip(yr.iter())) {
                    match self.fate_diff(*a, *b)? {
                        None => break 'm None,
                        Some((l, h)) => {
                            if l < lo {
                                lo = l;
                            }
                            if h > hi {
                                hi = h;
                            }
                        }
                    }
                }
                Some((lo, hi))
            }
            _ => None,
        };
        self.fate_diffs.insert((x, y), out.clone());
        Ok(out)
    }

    /// Whether the mover (Left when `left`) does at least as well moving
    /// short component `g1` to `a` as moving `g2` to `b` (module
    /// documentation, "Dominated short moves").
    pub fn dominates(
        &mut self,
        g1: GameId,
        a: GameId,
        g2: GameId,
        b: GameId,
        left: bool,
    ) -> Result<bool, KoSolveError> {
        let key = (g1, a, g2, b, left);
        if let Some(&d) = self.dominance.get(&key) {
            return Ok(d);
        }
        let d = match (self.fate_diff(a, b)?, self.fate_diff(g2, g1)?) {
            (Some((lo1, hi1)), Some((lo2, hi2))) => {
                if left {
                    &lo1 + &lo2 >= Val::zero()
                } else {
                    &hi1 + &hi2 <= Val::zero()
                }
            }
            _ => false,
        };
        self.dominance.insert(key, d);
        Ok(d)
    }

    /// Whether the move `g → x` in a short component is dominated by one of
    /// `moves` (moves `g1 → a` in other short components) for the player
    /// to move (module documentation, "Dominated short moves").
    pub fn dominated_by(
        &mut self,
        moves: &[(GameId, GameId)],
        g: GameId,
        x: GameId,
        left: bool,
    ) -> Result<bool, KoSolveError> {
        for &(g1, a) in moves {
            if g1 != g && self.dominates(g1, a, g, x, left)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Drops from `out` the short moves dominated by another kept short move
    /// (module documentation, "Dominated short moves"). Hotter moves are
    /// examined first, so they are the ones kept.
    fn prune_dominated(&mut self, node: &Node, out: &mut Vec<Child>) -> Result<(), KoSolveError> {
        // (signature, heat, index in out, component, option)
        let mut cands: Vec<(u64, i64, usize, GameId, GameId)> = Vec::new();
        for (k, ch) in out.iter().enumerate() {
            if let Some((sig, g, x)) = ch.short {
                cands.push((sig, ch.heat, k, g, x));
            }
        }
        if cands.len() < 2 {
            return Ok(());
        }
        cands.sort_by(|p, q| p.0.cmp(&q.0).then(q.1.cmp(&p.1)).then(p.2.cmp(&q.2)));
        let mut drop = vec![false; out.len()];
        let mut any = false;
        let mut start = 0;
        while start < cands.len() {
            let mut end = start + 1;
            while end < cands.len() && cands[end].0 == cands[start].0 {
                end += 1;
            }
            let mut kept: Vec<(GameId, GameId)> = Vec::new();
            for &(_, _, k, g, x) in &cands[start..end] {
                if self.dominated_by(&kept, g, x, node.left)? {
                    drop[k] = true;
                    any = true;
                } else {
                    kept.push((g, x));
                }
            }
            start = end;
        }
        if any {
            let mut k = 0;
            out.retain(|_| {
                let keep = !drop[k];
                k += 1;
                keep
            });
        }
        Ok(())
    }

    /// `Some(a − b)` when `g` is a switch `{a | b}` of numbers.
    fn switch_swing(&mut self, g: GameId) -> Option<Dyadic> {
        if let Some(s) = self.switch.get(&g) {
            return s.clone();
        }
        let (l, r) = self.play.store.options(g);
        let s = if l.len() == 1 && r.len() == 1 {
            match (
                self.play.store.as_number(l[0]),
                self.play.store.as_number(r[0]),
            ) {
                (Some(a), Some(b)) => Some(a.sub(b)),
                _ => None,
            }
        } else {
            None
        };
        self.switch.insert(g, s.clone());
        s
    }

    /// The short game a compound stands for when no ko can arise in it
    /// (threats count 0); `None` when it contains a ko.
    pub fn compound_short(&mut self, ci: u32) -> Result<Option<GameId>, KoSolveError> {
        if let Some(s) = self.compound_short.get(&ci) {
            return Ok(*s);
        }
        let comp = self.compounds[ci as usize].clone();
        let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        let mut ok = true;
        'outer: for (k, list) in [&comp.left, &comp.right].into_iter().enumerate() {
            for sum in list {
                let parts = self.convert(sum)?;
                let mut gs = Vec::new();
                for c in parts.comps {
                    match c {
                        C::Short(g) => gs.push(g),
                        C::Ko(..) => {
                            ok = false;
                            break 'outer;
                        }
                        C::Compound(cj) => match self.compound_short(cj)? {
                            Some(g) => gs.push(g),
                            None => {
                                ok = false;
                                break 'outer;
                            }
                        },
                    }
                }
                let x = Dyadic::from_rational(&parts.delta.to_q()).unwrap_or_else(Dyadic::zero);
                gs.push(self.play.store.number(x));
                let s = self.play.store.sum(&gs)?;
                sides[k].push(s);
            }
        }
        let out = if ok {
            let [l, r] = sides;
            Some(self.play.store.canonical(l, r)?)
        } else {
            None
        };
        self.compound_short.insert(ci, out);
        Ok(out)
    }

    /// What a component counts at the end of play after two passes, the
    /// second made by Left (`ender_left`) or Right: the mean; for a ko whose
    /// komaster means differ, the mean with the other player (the one who
    /// did not end play) as komaster (module documentation, "Scoring").
    fn count_of(&mut self, c: C, ender_left: bool) -> Result<Val, KoSolveError> {
        if let Some(q) = self.counts.get(&(c, ender_left)) {
            return Ok(q.clone());
        }
        let q = match c {
            C::Short(g) => dq(&self.play.store.mean(g)?),
            C::Ko(gi, n) => {
                let graph = self.graphs[gi as usize].graph.clone();
                let komaster = if ender_left {
                    Komaster::White
                } else {
                    Komaster::Black
                };
                Val::from_q(
                    &graph
                        .mean(self.play.store, n, komaster)
                        .map_err(|e| KoSolveError::from_ko(&graph, n, e))?,
                )
            }
            C::Compound(ci) => match self.compound_short(ci)? {
                Some(g) => dq(&self.play.store.mean(g)?),
                None => return Err(KoSolveError::CompoundNoCount),
            },
        };
        self.counts.insert((c, ender_left), q.clone());
        Ok(q)
    }

    fn count_pos(&mut self, pos: &Pos, ender_left: bool) -> Result<Val, KoSolveError> {
        let mut s = Val::zero();
        for &c in &pos.comps {
            s += self.count_of(c, ender_left)?;
        }
        Ok(s)
    }

    /// A move-ordering guess: hotter components first. The temperature is
    /// work of the question like its nodes: it runs [`Engine::charged`] to
    /// the budget, and Ctrl-C and the memory limit stop it. A component
    /// whose temperature the analysis cannot give (a ko with no mast, a
    /// graph past the analysis' state limit) counts as cold.
    fn heat(&mut self, c: C) -> Result<BigRational, KoSolveError> {
        if let Some(h) = self.heats.get(&c) {
            return Ok(h.clone());
        }
        // A guess gets an eighth of the budget at most: past it, the
        // component counts as cold and the search goes on.
        let share = self.opts.budget / 8;
        let t = self.charged(share, |e| match c {
            C::Short(g) => e.play.store.temperature(g).map(Some).map_err(KoError::Cg),
            C::Ko(gi, n) => {
                let graph = e.graphs[gi as usize].graph.clone();
                graph
                    .temperature(e.play.store, n, Komaster::Black)
                    .map(Some)
            }
            C::Compound(ci) => match e.compound_short(ci) {
                Ok(Some(g)) => e.play.store.temperature(g).map(Some).map_err(KoError::Cg),
                Ok(None) => Ok(None),
                Err(KoSolveError::Engine(err)) => Err(KoError::Cg(err)),
                Err(KoSolveError::Interrupted) => Err(KoError::Cg(CgError::Interrupted)),
                // Anything else: the compound is searched as hot.
                Err(_) => Ok(None),
            },
        })?;
        let h = match t {
            Ok(Some(t)) => t,
            Ok(None) => BigRational::from_integer(1_000_000.into()),
            Err(KoError::Cg(CgError::Interrupted)) => return Err(KoSolveError::Interrupted),
            Err(KoError::Cg(CgError::Limit(x))) if x != Exceeded::Steps => {
                return Err(KoSolveError::Engine(CgError::Limit(x)))
            }
            Err(_) => BigRational::zero(),
        };
        self.heats.insert(c, h.clone());
        Ok(h)
    }

    /// Runs `f`, an analysis the search makes besides visiting nodes, under
    /// what is left of the budget and at most `share` steps: each store step
    /// it takes counts like a node ([`Engine::work`]). At its share `f` gets
    /// [`Exceeded::Steps`] from the store; when the whole budget is spent the
    /// question stops, whatever `f` returned. The budget then bounds all the
    /// work of the question, not only its nodes.
    fn charged<T>(
        &mut self,
        share: u64,
        f: impl FnOnce(&mut Self) -> T,
    ) -> Result<T, KoSolveError> {
        let left = self.opts.budget.saturating_sub(self.work()).min(share);
        let start = self.play.store.steps();
        let old = self.play.store.limit_steps(left);
        let out = f(self);
        self.play.store.restore_step_limit(old);
        self.side_steps += self.play.store.steps() - start;
        if self.work() > self.opts.budget {
            return Err(KoSolveError::NodeBudget { nodes: self.work() });
        }
        Ok(out)
    }

    /// The work done so far, counted against the budget: the nodes visited
    /// and the store steps of the side analyses ([`Engine::charged`]).
    pub fn work(&self) -> u64 {
        self.nodes.saturating_add(self.side_steps)
    }

    // ----- the ko-free shortcut -----------------------------------------------------

    /// The value of a position in which no ko can arise any more: the stop of
    /// the short sum (threats are then irrelevant), by [`play::solve`].
    fn ko_free_value(&mut self, pos: &Pos, left: bool) -> Result<Option<Val>, KoSolveError> {
        if pos.comps.iter().any(|c| matches!(c, C::Ko(..))) {
            return Ok(None);
        }
        let mut gs = Vec::with_capacity(pos.comps.len());
        for &c in &pos.comps {
            match c {
                C::Short(g) => gs.push(g),
                C::Ko(..) => return Ok(None),
                C::Compound(ci) => match self.compound_short(ci)? {
                    Some(g) => gs.push(g),
                    None => return Ok(None),
                },
            }
        }
        gs.sort();
        let key = (gs, left);
        if let Some(v) = self.ko_free_memo.get(&key) {
            return Ok(Some(v.clone()));
        }
        let player = if left { Player::Left } else { Player::Right };
        let before = self.play.nodes;
        self.play.budget = before.saturating_add(self.opts.budget.saturating_sub(self.work()));
        let stop = self.play.stop(&key.0, player).map_err(|e| match e {
            PlayError::Budget { .. } => KoSolveError::NodeBudget {
                nodes: self.opts.budget.saturating_add(1),
            },
            PlayError::Interrupted => KoSolveError::Interrupted,
            PlayError::Engine(e) => KoSolveError::Engine(e),
            other => KoSolveError::Internal(other.to_string()),
        });
        self.nodes += self.play.nodes - before;
        let stop = stop?;
        if self.work() > self.opts.budget {
            return Err(KoSolveError::NodeBudget { nodes: self.work() });
        }
        let v = dq(&stop);
        self.ko_free_memo.insert(key, v.clone());
        Ok(Some(v))
    }

    // ----- moves ------------------------------------------------------------------

    /// The position after replacing component `ci` by option `o`.
    fn apply(&self, pos: &Pos, ci: usize, o: &Opt) -> Pos {
        let mut comps = Vec::with_capacity(pos.comps.len() + o.comps.len());
        comps.extend_from_slice(&pos.comps[..ci]);
        comps.extend_from_slice(&pos.comps[ci + 1..]);
        comps.extend_from_slice(&o.comps);
        comps.sort_unstable();
        let hash = o
            .comps
            .iter()
            .fold(pos.hash.wrapping_sub(pos.comps[ci].hash64()), |h, c| {
                h.wrapping_add(c.hash64())
            });
        Pos {
            comps,
            threats: [pos.threats[0] + o.threats[0], pos.threats[1] + o.threats[1]],
            hash,
        }
    }

    /// Whether the basic ko rule forbids moving component `ci` by `o`.
    pub fn banned(&self, node: &Node, ci: usize, o: &Opt) -> bool {
        let Some((bg, bn, forbidden)) = node.ban else {
            return false;
        };
        let c = node.pos.comps[ci];
        if c != C::Ko(bg, bn) {
            return false;
        }
        if !matches!(o.kind, OptKind::Ko { to: Target::Node(m), .. } if m == forbidden) {
            return false;
        }
        // With two identical components the other copy may move.
        node.pos.comps.iter().filter(|&&x| x == c).count() == 1
    }

    /// The child reached by moving component `ci` by `o`, or `None` when the
    /// move would repeat a whole-sum state. (Ban legality is separate.)
    pub fn child_of_move(&mut self, node: &Node, ci: usize, o: &Opt) -> Option<Node> {
        let pos = self.apply(&node.pos, ci, o);
        let left = !node.left;
        let sid = self.state_id(&pos, left);
        let c = node.pos.comps[ci];
        let (reversible, ban) = match (&o.kind, c) {
            (
                OptKind::Ko {
                    to: Target::Node(m),
                    reversible: true,
                    ..
                },
                C::Ko(gi, n),
            ) => (true, Some((gi, *m, n))),
            _ => (false, None),
        };
        let (seg, seg_key) = if reversible {
            if node.seg.binary_search(&sid).is_ok() {
                return None;
            }
            let mut s = node.seg.clone();
            let at = s.binary_search(&sid).unwrap_err();
            s.insert(at, sid);
            let k = self.seg_key(&s);
            (s, k)
        } else {
            (vec![sid], SINGLE)
        };
        Some(Node {
            pos,
            left,
            ban,
            passed: false,
            seg,
            sid,
            seg_key,
        })
    }

    /// The child after a threat of the player to move and its answer.
    pub fn child_of_threat(&mut self, node: &Node) -> Node {
        let mut pos = node.pos.clone();
        pos.threats[if node.left { 0 } else { 1 }] -= 1;
        let sid = self.state_id(&pos, node.left);
        Node {
            pos,
            left: node.left,
            ban: None,
            passed: false,
            seg: vec![sid],
            sid,
            seg_key: SINGLE,
        }
    }

    /// The child after a pass (`None`: the pass ends play).
    pub fn child_of_pass(&mut self, node: &Node) -> Option<Node> {
        if node.passed {
            return None;
        }
        let pos = node.pos.clone();
        let left = !node.left;
        let sid = self.state_id(&pos, left);
        let mut seg = node.seg.clone();
        if let Err(at) = seg.binary_search(&sid) {
            seg.insert(at, sid);
        }
        let seg_key = self.seg_key(&seg);
        Some(Node {
            pos,
            left,
            ban: None,
            passed: true,
            seg,
            sid,
            seg_key,
        })
    }

    fn mv_key(&self, node: &Node, mv: Mv) -> MvKey {
        match mv {
            Mv::Comp { ci, oi } => MvKey::Comp(node.pos.comps[ci], oi),
            Mv::Threat => MvKey::Threat,
            Mv::Pass => MvKey::Pass,
            Mv::ThreatComp { ci, oi } => MvKey::ThreatComp(node.pos.comps[ci], oi),
            Mv::ThreatPass => MvKey::ThreatPass,
        }
    }

    /// Every legal move at `node` (one per distinct component option), with
    /// its child, best guess first.
    ///
    /// Threats are not searched as moves of their own but only as a threat
    /// (with its answer) followed by a move `X` of the same player that
    /// could not be replaced by playing `X` at once (module documentation,
    /// "Threats in the search"): a move that is illegal here (banned or a
    /// repetition), and, when the reversible segment is more than this state
    /// or the previous turn was a pass, a reversible ko move or a pass.
    fn children(&mut self, node: &Node, hint: Option<MvKey>) -> Result<Vec<Child>, KoSolveError> {
        let mut out: Vec<Child> = Vec::new();
        let me = if node.left { 0 } else { 1 };
        // Switches: only the one of largest swing (fact S in the module doc).
        let mut best_switch: Option<(Dyadic, usize)> = None;
        let mut blocked: Vec<(usize, usize)> = Vec::new();
        for ci in 0..node.pos.comps.len() {
            let c = node.pos.comps[ci];
            if ci > 0 && node.pos.comps[ci - 1] == c {
                continue;
            }
            if let C::Short(g) = c {
                if self.opts.switch_pruning {
                    if let Some(s) = self.switch_swing(g) {
                        if best_switch.as_ref().is_none_or(|(b, _)| &s > b) {
                            best_switch = Some((s, ci));
                        }
                        continue;
                    }
                }
            }
            self.push_component_moves(node, ci, &mut out, &mut blocked)?;
        }
        if let Some((_, ci)) = best_switch {
            self.push_component_moves(node, ci, &mut out, &mut blocked)?;
        }
        if self.opts.dominance_pruning {
            self.prune_dominated(node, &mut out)?;
        }
        if node.pos.threats[me] > 0 {
            let trivial = node.seg.len() == 1 && !node.passed;
            if !(trivial && blocked.is_empty()) {
                // After the threat nothing is banned and the segment is the
                // new state alone, which no move can recreate.
                for &(ci, oi) in &blocked {
                    let o = &self.options(node.pos.comps[ci], node.left)?[oi];
                    // Ordered like the move itself: a hotter move elsewhere
                    // (which also lifts the ban) is tried first.
                    out.push(Child {
                        mv: Mv::ThreatComp { ci, oi },
                        delta: o.delta.clone(),
                        heat: o.order,
                        short: None,
                    });
                }
                if !trivial {
                    for ci in 0..node.pos.comps.len() {
                        let c = node.pos.comps[ci];
                        if !matches!(c, C::Ko(..)) || (ci > 0 && node.pos.comps[ci - 1] == c) {
                            continue;
                        }
                        let opts = self.options(c, node.left)?;
                        for (oi, o) in opts.iter().enumerate() {
                            if !matches!(
                                o.kind,
                                OptKind::Ko {
                                    reversible: true,
                                    ..
                                }
                            ) || blocked.contains(&(ci, oi))
                            {
                                continue;
                            }
                            out.push(Child {
                                mv: Mv::ThreatComp { ci, oi },
                                delta: o.delta.clone(),
                                heat: -1024,
                                short: None,
                            });
                        }
                    }
                    out.push(Child {
                        mv: Mv::ThreatPass,
                        delta: Val::zero(),
                        heat: -1024,
                        short: None,
                    });
                }
            }
        }
        let delta = if node.passed {
            self.count_pos(&node.pos, node.left)?
        } else {
            Val::zero()
        };
        // A pass that ends play is a leaf: tried first, its count bounds the
        // value at once. Any other pass last.
        let heat = if node.passed { 2 * HINT } else { -2048 };
        out.push(Child {
            mv: Mv::Pass,
            delta,
            heat,
            short: None,
        });
        if let Some(h) = hint {
            for ch in out.iter_mut() {
                if self.mv_key(node, ch.mv) == h && !(node.passed && ch.mv == Mv::Pass) {
                    ch.heat = HINT;
                }
            }
        }
        out.sort_by(|a, b| b.heat.cmp(&a.heat));
        Ok(out)
    }

    fn push_component_moves(
        &mut self,
        node: &Node,
        ci: usize,
        out: &mut Vec<Child>,
        blocked: &mut Vec<(usize, usize)>,
    ) -> Result<(), KoSolveError> {
        let c = node.pos.comps[ci];
        let opts = self.options(c, node.left)?;
        for (oi, o) in opts.iter().enumerate() {
            if self.banned(node, ci, o) || self.repeats(node, ci, o) {
                blocked.push((ci, oi));
                continue;
            }
            let short = match (c, &o.kind) {
                (C::Short(g), OptKind::Short(x)) => Some((o.sig, g, *x)),
                _ => None,
            };
            out.push(Child {
                mv: Mv::Comp { ci, oi },
                delta: o.delta.clone(),
                heat: o.order,
                short,
            });
        }
        Ok(())
    }

    /// Whether moving component `ci` by `o` would recreate a state of the
    /// current segment (only reversible ko moves can).
    fn repeats(&self, node: &Node, ci: usize, o: &Opt) -> bool {
        if !matches!(
            o.kind,
            OptKind::Ko {
                reversible: true,
                ..
            }
        ) {
            return false;
        }
        let pos = self.apply(&node.pos, ci, o);
        match self.find_state(&pos, !node.left) {
            Some(sid) => node.seg.binary_search(&sid).is_ok(),
            None => false,
        }
    }

    /// The child node a candidate of [`Engine::children`] leads to (`None`:
    /// the second pass, which ends play).
    pub fn make_child(&mut self, node: &Node, mv: Mv) -> Result<Option<Node>, KoSolveError> {
        Ok(match mv {
            Mv::Comp { ci, oi } => {
                let o = self.options(node.pos.comps[ci], node.left)?;
                self.child_of_move(node, ci, &o[oi])
            }
            Mv::ThreatComp { ci, oi } => {
                let o = self.options(node.pos.comps[ci], node.left)?;
                let t = self.child_of_threat(node);
                self.child_of_move(&t, ci, &o[oi])
            }
            Mv::ThreatPass => {
                let t = self.child_of_threat(node);
                self.child_of_pass(&t)
            }
            Mv::Threat => Some(self.child_of_threat(node)),
            Mv::Pass => self.child_of_pass(node),
        })
    }

    // ----- the search ---------------------------------------------------------------

    /// Fail-soft alpha-beta: the value of `node` (numbers settled from here on
    /// plus the count at a two-pass end), exact when strictly inside
    /// `(alpha, beta)`; a result `≤ alpha` is an upper bound, one `≥ beta` a
    /// lower bound.
    pub fn search(
        &mut self,
        node: &Node,
        alpha: Option<Val>,
        beta: Option<Val>,
    ) -> Result<Val, KoSolveError> {
        self.count_node()?;
        if node.pos.comps.is_empty() {
            return Ok(Val::zero());
        }
        if self.opts.ko_free_shortcut {
            if let Some(v) = self.ko_free_value(&node.pos, node.left)? {
                return Ok(v);
            }
        }
        let key: TtKey = (node.sid, node.ban, node.passed, node.seg_key);
        let threats = node.pos.threats;
        let (mut alpha, mut beta) = (alpha, beta);
        let mut hint = None;
        if let Some(slot) = self.tt.get(&key) {
            self.tt_hits += 1;
            // An unused threat never hurts its owner (module documentation,
            // "Threats in the search"): the entry of a count with no more
            // Black and no fewer White threats bounds this value below, one
            // with no fewer Black and no more White threats above.
            let mut lo: Option<&Val> = None;
            let mut hi: Option<&Val> = None;
            for (t, e) in slot {
                if *t == threats {
                    hint = e.best;
                }
                if t[0] <= threats[0] && t[1] >= threats[1] {
                    if let Some(x) = &e.lo {
                        if lo.is_none_or(|l| x > l) {
                            lo = Some(x);
                        }
                    }
                }
                if t[0] >= threats[0] && t[1] <= threats[1] {
                    if let Some(x) = &e.hi {
                        if hi.is_none_or(|h| x < h) {
                            hi = Some(x);
                        }
                    }
                }
            }
            if let (Some(lo), Some(hi)) = (lo, hi) {
                if lo >= hi {
                    return Ok(lo.clone());
                }
            }
            if let (Some(lo), Some(b)) = (lo, &beta) {
                if lo >= b {
                    return Ok(lo.clone());
                }
            }
            if let (Some(hi), Some(a)) = (hi, &alpha) {
                if hi <= a {
                    return Ok(hi.clone());
                }
            }
            alpha = max_lo(alpha, lo.cloned());
            beta = min_hi(beta, hi.cloned());
        }
        let (a0, b0) = (alpha.clone(), beta.clone());
        let children = self.children(node, hint)?;
        let mut best: Option<Val> = None;
        let mut best_mv = None;
        for ch in children {
            let v = match self.make_child(node, ch.mv)? {
                None => ch.delta.clone(),
                Some(child) => {
                    let scout = best.is_some();
                    if ch.delta.is_zero() {
                        self.search_child(&child, scout, node.left, alpha.clone(), beta.clone())?
                    } else {
                        let ca = alpha.as_ref().map(|a| a - &ch.delta);
                        let cb = beta.as_ref().map(|b| b - &ch.delta);
                        self.search_child(&child, scout, node.left, ca, cb)? + &ch.delta
                    }
                }
            };
            let better = best
                .as_ref()
                .is_none_or(|b| if node.left { &v > b } else { &v < b });
            if better {
                best = Some(v.clone());
                best_mv = Some(self.mv_key(node, ch.mv));
            }
            if node.left {
                if alpha.as_ref().is_none_or(|a| &v > a) {
                    alpha = Some(v);
                }
            } else if beta.as_ref().is_none_or(|b| &v < b) {
                beta = Some(v);
            }
            if let (Some(a), Some(b)) = (&alpha, &beta) {
                if a >= b {
                    break;
                }
            }
        }
        // A pass is always legal, so there is a move.
        let best = best.unwrap_or_else(Val::zero);
        let (lo, hi) = if a0.as_ref().is_some_and(|a| &best <= a) {
            (None, Some(best.clone()))
        } else if b0.as_ref().is_some_and(|b| &best >= b) {
            (Some(best.clone()), None)
        } else {
            (Some(best.clone()), Some(best.clone()))
        };
        let slot = self.tt.entry(key).or_default();
        let at = match slot.iter().position(|(t, _)| *t == threats) {
            Some(i) => i,
            None => {
                slot.push((threats, Entry::default()));
                slot.len() - 1
            }
        };
        let e = &mut slot[at].1;
        if lo.is_some() {
            e.lo = max_lo(e.lo.take(), lo);
        }
        if hi.is_some() {
            e.hi = min_hi(e.hi.take(), hi);
        }
        if best_mv.is_some() {
            e.best = best_mv;
        }
        Ok(best)
    }

    /// A child's value in the window `(alpha, beta)` (fail-soft, as
    /// [`Engine::search`]). After the first child (`scout`) the window is
    /// first narrowed to `(alpha, alpha + ε)` for Left, `(beta − ε, beta)` for
    /// Right (principal variation search): a result on the far side of it is
    /// only a bound and is searched again with the full window, so the
    /// returned value means what a full-window search would.
    fn search_child(
        &mut self,
        child: &Node,
        scout: bool,
        left: bool,
        alpha: Option<Val>,
        beta: Option<Val>,
    ) -> Result<Val, KoSolveError> {
        if scout {
            let eps = Val::unit();
            let wide = match (&alpha, &beta) {
                (Some(a), Some(b)) => b - a > eps,
                _ => true,
            };
            if wide {
                if let (true, Some(a)) = (left, &alpha) {
                    let nb = a + &eps;
                    let r = self.search(child, alpha.clone(), Some(nb.clone()))?;
                    // `r ≤ alpha`: no better than alpha (an upper bound, as
                    // the full window would say); strictly inside: exact.
                    if r < nb {
                        return Ok(r);
                    }
                } else if let (false, Some(b)) = (left, &beta) {
                    let na = b - &eps;
                    let r = self.search(child, Some(na.clone()), beta.clone())?;
                    if r > na {
                        return Ok(r);
                    }
                }
            }
        }
        self.search(child, alpha, beta)
    }

    /// The exact value of `node`.
    pub fn value(&mut self, node: &Node) -> Result<Val, KoSolveError> {
        self.search(node, None, None)
    }

    /// Whether the child (reached with `delta` settled) is worth `v` or more
    /// to the player who moved into it (`left`).
    pub fn achieves(
        &mut self,
        child: Option<&Node>,
        delta: &Val,
        left: bool,
        v: &Val,
    ) -> Result<bool, KoSolveError> {
        let Some(child) = child else {
            return Ok(if left { delta >= v } else { delta <= v });
        };
        // A null window at `t`: fail-soft, the result is `≥ t` exactly when
        // the value is (and `≤ t` for Right), whatever the window's other end.
        let t = v - delta;
        let unit = Val::unit();
        if left {
            let r = self.search(child, Some(&t - &unit), Some(t.clone()))?;
            Ok(r >= t)
        } else {
            let r = self.search(child, Some(t.clone()), Some(&t + &unit))?;
            Ok(r <= t)
        }
    }

    /// The count of `pos` when play ends by a second pass of Left
    /// (`ender_left`) or Right.
    pub fn count(&mut self, pos: &Pos, ender_left: bool) -> Result<Val, KoSolveError> {
        self.count_pos(pos, ender_left)
    }
}
