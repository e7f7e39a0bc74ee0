//! Komaster thermography of ko graphs (Berlekamp 1996, "The economist's view
//! of combinatorial games", *Games of No Chance*, MSRI Publ. 29; Müller,
//! Berlekamp & Spight 1996, "Generalized thermography: algorithms,
//! implementation, and application to Go endgames", ICSI TR-96-030; Spight
//! 1998, "Extended thermography for multiple kos in Go", *Computers and
//! Games*, LNCS 1558). The papers were not at hand while this was written.
//! What we used of Berlekamp's komaster rule comes from secondary sources:
//! the komaster may break the ko ban, and then "makes two moves
//! consecutively, to and from the critical ko position, and pays two taxes
//! (at the same tax rate)" (Berlekamp, quoted on Sensei's Library,
//! <https://senseis.xmp.net/?topic=2187>); "the komaster is the player who
//! is permitted to break the ban for that ko but then must continue, at the
//! same turn, to make one or more plays to win the ko … that is a cost to
//! the komaster"; "the koloser has no right to break the ko ban" (Spight,
//! "Komaster concept for hypothetical play", lifein19x19.com, topic 17091,
//! 2019). The definition below is ours, stated exactly; it reproduces the
//! published facts on the standard shapes (see the tests).
//!
//! # The definition implemented
//!
//! Walls are exact piecewise-linear functions of the temperature `t ≥ -1`
//! ([`Wall`], any rational slope); a wall at `t` is the value of the local
//! game played at a constant tax `t` per move. A *state* is a node together
//! with the set of nodes of its strongly connected component already visited
//! on the current line of play (positions in other components can never
//! recur, so they need no history). Of that set only the nodes that play
//! from the state can still try to repeat matter, so states are stored under
//! that part of it (`Relevance`, below).
//!
//! 1. **Komaster rule.** With Black as komaster, White may not move to a
//!    position that already occurred on the current line (he has no threats
//!    left to retake); Black may (she always has a threat, and her opponent
//!    answers it, so the exchange costs nothing). Symmetrically for White;
//!    under [`Rule::NoRepetition`] neither may. A move that the rule forbids
//!    is *banned*.
//! 2. **Scaffolds.** `λ(t) = max over legal Left options of (g + RW(t) − t)`
//!    and `ρ(t) = min over legal Right options of (g + LW(t) + t)`, `g` the
//!    option's gain (what the move scores, [`crate::ko`] "Gains"), where a
//!    short game option contributes its ordinary thermograph
//!    ([`Store::thermograph`]).
//!    A player with no local move at all makes the position a number, as in
//!    short games: `{G^L | }` is the simplest number above the stop `λ(0)`,
//!    `{ | G^R}` the simplest below `ρ(0)`, the stop itself included when
//!    the wall is flat just below 0 (as in rule 3: `{{5 | 3} | }` is 3). When a player *P* has moves but
//!    every one of them is banned, and his opponent *Q* has a legal move:
//!    * **2a, the strict rule** (Berlekamp's consecutive moves): *P* passes
//!      and *Q* must go on at the same tax, so both walls are *Q*'s scaffold
//!      (`ρ := λ` or `λ := ρ`). After Black's capture in a simple ko, under
//!      Black komaster, both walls are `b − t` below the ko's temperature
//!      (she captures and fills, paying two taxes) — the inclined mast.
//!    * **2b, the delayed move** (the rule everywhere except after a delayed
//!      move). *P*'s pass is a tenuki; it lifts the ko ban, so *Q* chooses
//!      between going on now (her scaffold `σ_Q`) and letting *P* make one
//!      of his banned moves. Let `δ_P` be *P*'s scaffold over his banned
//!      moves (with their gains), each made once with the history unchanged
//!      and judged by rule 2a from there on, and `E` the walls from rule 3 on `δ_P` against
//!      `σ_Q`. Both walls of the state are `W = best for Q of (σ_Q, E's wall
//!      with P to move)` — `min(ρ, E.left)` when Black is banned,
//!      `max(λ, E.right)` when White is — then settled by rule 3. So *Q* is
//!      held to her consecutive moves only at temperatures where *P*'s move
//!      would hurt her; where it would not (a bad retake, or a ban *P* walked
//!      into himself), nobody has to move. When *P*'s banned move is a real
//!      threat at every temperature (the simple ko) this is rule 2a.
//!
//!    If neither player has a legal move: [`KoError::Stuck`] (a banned move
//!    after which play is stuck is not offered in 2b).
//! 3. **Mast.** A point `t` is *unsettled* when `λ(t) > ρ(t)` or when the
//!    scaffolds coincide on an interval after `t` with non-zero slope (an
//!    inclined mast). The temperature `T` is the supremum of the unsettled
//!    points; the walls are the scaffolds up to `T` and the vertical mast at
//!    the mean `λ(T) = ρ(T)` above it. If the scaffolds never settle, there is
//!    no mast ([`KoError::NoMast`] at a root; a deep state with a forever
//!    inclined mast is kept as it is). If `T < 0` the position is cold: like a
//!    short game equal to a number it gets the vertical mast, from `t = -1`,
//!    at the simplest dyadic rational `x` with `λ(0) ≤ x ≤ ρ(0)` (or at
//!    their common value), with the temperature of that number (`-1`,
//!    `-1/2^k`; `-1` if the value is not dyadic). The end `λ(0)` belongs to
//!    the interval when `λ` is flat just below 0 (`λ(−ε) = λ(0)`: the stop
//!    of Left's best move is reached on Right's move), and `ρ(0)` when `ρ`
//!    is (`ρ(−ε) = ρ(0)`); otherwise the ends are excluded. This is the
//!    simplicity theorem of short games with the stops adorned by who
//!    moves last: `G^L ⧏ x` holds for `x` above `G^L`'s right stop, and at
//!    it exactly when Right makes the last move of the stop's line, which
//!    a tax `t = −ε` (a reward per move) shows as a flat wall. So
//!    `{{5 | −2} | −1}`, `{* | 1}` and their loopy forms are −2 and 0 (the
//!    option reverses through the stop), not −3/2 and 1/2, the simplest
//!    numbers strictly between the stops, which this rule gave before (a
//!    whole-board analysis then counted a region of Go as −3/2 at komi 0).
//! 4. **Renunciation.** Under a komaster rule the komaster may, at any
//!    state, give up her privilege for the rest of the line (she is never
//!    obliged to use a threat): the walls of every state are the komaster's
//!    best, pointwise, of the walls by rules 1–3 and the
//!    [`Rule::NoRepetition`] walls of the same state (if the no-repetition
//!    analysis of that state is stuck, the rule 1–3 walls stand). They are
//!    walls already, so they are *not* settled again by rule 3: at each
//!    temperature and for each player to move first she takes what the
//!    better regime gives. The mast is where the two walls reach one common
//!    constant for good: when both analyses have masts that is the better
//!    of the two means (above the higher of the two temperatures both walls
//!    are it), and the temperature is the least `t` from which both walls
//!    stay at it; if that is below 0 the state is that number (a vertical
//!    mast from −1, as in rule 3). Without a common constant tail there is
//!    no mast. Rule 4 is needed: rule 2a charges the player who may not be
//!    banned (the komaster) for moves her opponent's ban forces, so without
//!    it Black's privilege could lower her walls (e.g. in
//!    `n0: {{-5 | n0} | -1}`). Settling the best walls again (the rule before
//!    this one) breaks the order where they are cold: in
//!    `r: {-5 | n1: {4 | n4: {{n1 | n4}, {3 | n4} | -5}}}` the node
//!    `{3 | n4}` was the number 7/2 by rules 1–3 with Black komaster (under
//!    rule 3 as it was then: the simplest number strictly between the
//!    stops; now the end 4 belongs to the interval and it is 4), and hot
//!    with no repetition (mean 1/8 at 23/8) with right wall `4 − 2t` above
//!    the left wall `3 − t` below `t = 1`; the best walls (left 7/2, right
//!    `4 − 2t` up to 1/4, then 7/2) are nowhere hot, and rule 3 made them the
//!    number 15/4 between the stops 7/2 and 4, below the no-repetition right
//!    wall for `t < 1/8`. Unsettled, they stood: mean 7/2 at temperature 1/4
//!    (with today's rule 3, mean 4 at temperature 0: test
//!    `komaster_keeps_what_renouncing_gives_where_her_analysis_is_cold`), the
//!    temperature of a mast whose right wall lies above its left wall below
//!    it (nobody wants to move there), as in the no-repetition thermograph
//!    itself.
//! 5. A **ko-free** node (no cycle can be reached from it) is an ordinary short
//!    game: its thermograph is [`Store::thermograph`] of its canonical form,
//!    exactly. (Run on a raw form, rules 2–3 agree with it for `t ≥ 0` — a
//!    property test checks this — but below 0 the walls of a form depend on
//!    its dominated options, so ko-free parts go through canonical forms.
//!    Options of a node that reaches a cycle are not canonicalised, so its
//!    walls below `t = 0` may depend on dominated options.)
//!
//! The thermograph of a node is that of its state with nothing else visited.
//! The unfolded game is finite: a line visits each position at most once per
//! move of a player who may not repeat, one-player cycles are rejected, a
//! delayed move (2b) leads to a strict state (2a) and strict states never
//! make delayed moves.
//!
//! **Properties.** (i) *Order*: at every state the walls satisfy Black
//! komaster ≥ no repetition ≥ White komaster pointwise at every `t ≥ 0`,
//! hot or cold. Proof: by rule 4 the Black-komaster walls of a state are
//! `max(A, N)` for its rule 1–3 walls `A` and its no-repetition walls `N`,
//! so they are `≥ N` at every `t`; the only change made to them afterwards
//! is the truncation at the mast, where both walls are already constant,
//! which changes nothing, or, when that mast starts below 0, the number's
//! vertical mast from −1, which changes nothing at `t ≥ 0`. The thermograph
//! of a node is that of its state, and the White komaster case is the
//! mirror image (`min`). Below 0 the order is not claimed: numbers are
//! drawn as vertical masts from −1, which are not ordered even for short
//! games (`{3 | 4} > {3 | 3}` but at `t = −1` their left walls are 7/2 and
//! 4). In particular the komaster's mean is at least the no-repetition
//! mean (the better of the two means when both analyses of the state have
//! masts). The argument uses nothing of rules 1–3, which is why the
//! settling had to go: rule 3 applied to walls that are already settled
//! can move them either way where a right wall lies above its left wall
//! (as ko walls can, unlike those of short games).
//! (ii) *Negation*: rules 1–5 are symmetric under exchanging Black and White and
//! negating every value, so negating the graph exchanges the komasters and
//! negates every wall. (iii) *Ko-free positions* keep their ordinary
//! thermographs (rule 5). Property tests check all three on random small ko
//! graphs.
//!
//! Reference facts that hold (tests): a simple direct ko with fills `b > w`
//! has temperature `(b − w)/3` under either komaster, the position where
//! Black may capture has mean `w + (b − w)/3`, the one after her capture
//! `w + 2(b − w)/3`; the `n`-stage ko (Black fills for `b`, White needs `n`
//! takes and a fill for `w`) has temperature `(b − w)/(n + 2)` at every stage
//! (the three-stage ko `3 / −4` has miai value `7/5`); in an
//! approach ko every approach position has mean `w` and temperature 0.
//! Graphs with two moves of one player per cycle follow the same rules:
//! in `a: {b: {10 | c: {a | -10}} | -2}`, `b` has mean 3 at temperature 7
//! with Black komaster and 7/4 at 33/4 with White komaster (derived by hand
//! in the tests).
//!
//! # Classification ([`KoKind`])
//!
//! Berlekamp's words, made precise here as follows (our reading; the papers
//! phrase them through the komaster's use of threats). Compare the masts
//! (mean and temperature) of the Black-komaster, White-komaster and
//! no-repetition thermographs:
//! * **placid**: Black komaster and White komaster give the same mast — who
//!   owns the threats changes neither the count nor the value of a move (the
//!   simple ko, the multi-stage kos);
//! * **active**: they differ, and one of them equals the no-repetition mast:
//!   only one player's threats matter (`a: {{10 | a}, 3 | -10}`: White's);
//! * **hyperactive**: all three differ: whoever owns the threats gains
//!   (`a: {{10 | a}, 3 | {a | -10}, -3}`, where each player can capture).

use super::graph::{plus_gain, KoError, KoGraph, Komaster, NodeId, Rule, Side, Target};
use crate::game::thermo::number_temperature;
use crate::game::{Dyadic, GameId, Store, Thermograph, Unsettled, Wall};
use crate::prehashed::Prehashed;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

type Q = BigRational;

/// The default bound on the number of states one analysis may visit.
pub const DEFAULT_STATE_LIMIT: usize = 200_000;

/// Placid / active / hyperactive (see the module documentation).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum KoKind {
    Placid,
    Active,
    Hyperactive,
}

impl std::fmt::Display for KoKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KoKind::Placid => "placid",
            KoKind::Active => "active",
            KoKind::Hyperactive => "hyperactive",
        })
    }
}

/// The walls of one state; `mast` is `(temperature, mean)` when the walls
/// end in a vertical mast (they are then truncated there).
#[derive(Clone, Debug)]
struct Walls {
    left: Wall,
    right: Wall,
    mast: Option<(Q, Q)>,
    /// The state settled to a number (rule 3 cold, a player with no move,
    /// rule 4 with a mast below 0, or a ko-free node equal to a number). Numbers are where `g + P`
    /// and `P` with every option shifted by `g` part (`1 + {-4 | 0} = 0`
    /// but `{-3 | 1} = 0`), which the tests of gains need to know.
    #[cfg_attr(not(test), allow(dead_code))]
    number: bool,
}

/// One komaster analysis of one graph: memoised walls of every state met.
pub struct KomasterAnalysis<'g> {
    graph: &'g KoGraph,
    rule: Rule,
    /// The graph's components and cycles, shared by every analysis of it.
    shape: std::sync::Arc<Shape>,
    /// Evaluate ko-free nodes from their (raw) options instead of through
    /// their canonical form (the property tests use this).
    raw: bool,
    /// Key states by their whole visited set (the tests' oracle for the
    /// reduction, [`Relevance`]).
    whole_history: bool,
    limit: usize,
    /// Walls by state: the node, the nodes of its component visited (in
    /// increasing order; a list rather than a bit set, so that a state of a
    /// large graph costs the length of its line, not the size of the graph)
    /// and `strict`. The visited set is kept only where it can matter (see
    /// [`Relevance`]): each state is stored under its reduced set, and also
    /// under the set it was asked with when that was larger, so that asking
    /// again costs one probe.
    memo: HashMap<StateKey, Rc<Walls>>,
    /// The states evaluated (the memo's distinct reduced keys).
    evaluated: usize,
    relevance: Relevance,
    short: HashMap<u32, GameId>,
    /// Under a komaster rule, the no-repetition analysis of the same graph
    /// (the komaster may renounce her privilege: module doc, rule 4).
    neutral: Option<Box<KomasterAnalysis<'g>>>,
}

impl<'g> KomasterAnalysis<'g> {
    pub fn new(graph: &'g KoGraph, komaster: Komaster) -> KomasterAnalysis<'g> {
        KomasterAnalysis::with_rule(graph, Rule::Komaster(komaster))
    }

    /// An analysis under any [`Rule`] (e.g. [`Rule::NoRepetition`]).
    pub fn with_rule(graph: &'g KoGraph, rule: Rule) -> KomasterAnalysis<'g> {
        let shape = graph.thermographs.shape(graph);
        let relevance = Relevance::new(shape.clone(), rule);
        let neutral = match rule {
            Rule::Komaster(_) => Some(Box::new(KomasterAnalysis::with_rule(
                graph,
                Rule::NoRepetition,
            ))),
            Rule::NoRepetition => None,
        };
        KomasterAnalysis {
            graph,
            rule,
            shape,
            raw: false,
            whole_history: false,
            limit: DEFAULT_STATE_LIMIT,
            memo: HashMap::default(),
            evaluated: 0,
            relevance,
            short: HashMap::default(),
            neutral,
        }
    }

    /// Bounds the number of states visited ([`KoError::TooLarge`] beyond).
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self.neutral = self.neutral.map(|n| Box::new(n.with_limit(limit)));
        self
    }

    #[cfg(test)]
    pub(crate) fn raw(mut self) -> Self {
        self.raw = true;
        self.neutral = self.neutral.map(|n| Box::new(n.raw()));
        self
    }

    /// States keyed by their whole history: no [`Relevance`] reduction.
    #[cfg(test)]
    pub(crate) fn whole_history(mut self) -> Self {
        self.whole_history = true;
        self.neutral = self.neutral.map(|n| Box::new(n.whole_history()));
        self
    }

    /// The number of states evaluated so far.
    pub fn states(&self) -> usize {
        self.evaluated
    }

    /// Whether some state evaluated so far settled to a number (here or in
    /// the no-repetition analysis the komaster may fall back on).
    #[cfg(test)]
    pub(crate) fn met_a_number(&self) -> bool {
        self.memo.values().any(|w| w.number)
            || self.neutral.as_ref().is_some_and(|n| n.met_a_number())
    }

    /// The thermograph of `node` (nothing visited before it).
    pub fn thermograph(&mut self, store: &mut Store, node: NodeId) -> Result<Thermograph, KoError> {
        let v = node.index();
        let mut visited = Vec::new();
        if self.shape.cyclic[v] {
            set(&mut visited, v);
        }
        let w = self.eval(store, v, &visited, false)?;
        match &w.mast {
            Some((t, m)) => Ok(Thermograph::new(
                w.left.clone(),
                w.right.clone(),
                m.clone(),
                t.clone(),
            )),
            None => Err(KoError::NoMast {
                node: self.graph.label(node).to_string(),
                rule: self.rule,
            }),
        }
    }

    /// The canonical form of a ko-free node.
    fn short(&mut self, store: &mut Store, v: usize) -> Result<GameId, KoError> {
        if let Some(g) = self.short.get(&(v as u32)) {
            return Ok(*g);
        }
        let graph = self.graph;
        let node = graph.node(NodeId(v as u32));
        let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for (i, t) in node.options(side).iter().enumerate() {
                let g = match t {
                    Target::Game(g) => g,
                    Target::Node(u) => self.short(store, u.index())?,
                };
                sides[k].push(plus_gain(store, node.gain(side, i).clone(), g)?);
            }
        }
        let [l, r] = sides;
        let g = store.canonical(l, r)?;
        self.short.insert(v as u32, g);
        Ok(g)
    }

    fn short_walls(store: &mut Store, g: GameId) -> Result<Walls, KoError> {
        let th = store.thermograph(g)?;
        Ok(Walls {
            left: th.left_wall().clone(),
            right: th.right_wall().clone(),
            mast: Some((th.temperature().clone(), th.mean().clone())),
            number: store.is_number(g),
        })
    }

    /// The history after a move from `v` to `u` by `mover`, or `None` when
    /// the komaster rule forbids the move.
    fn step(&self, v: usize, u: usize, visited: &[u32], mover: Side) -> Option<Vec<u32>> {
        let shape = &*self.shape;
        if shape.comp[u] == shape.comp[v] && shape.cyclic[u] {
            if get(visited, u) && !self.rule.may_repeat(mover) {
                return None;
            }
            let mut next = visited.to_vec();
            set(&mut next, u);
            Some(next)
        } else {
            let mut next = Vec::new();
            if shape.cyclic[u] {
                set(&mut next, u);
            }
            Some(next)
        }
    }

    /// The walls of the state `(v, visited)`. `strict`: a player all of whose
    /// moves are banned passes and his opponent must go on (module doc, rule
    /// 2a); otherwise the delayed-move rule 2b applies there.
    fn eval(
        &mut self,
        store: &mut Store,
        v: usize,
        visited: &[u32],
        strict: bool,
    ) -> Result<Rc<Walls>, KoError> {
        let asked = state_key(v, visited, strict);
        if let Some(w) = self.memo.get(&asked) {
            return Ok(w.clone());
        }
        // The state's walls depend on the visited set only through the
        // nodes play from it can still test ([`Relevance`]).
        let reduced = if self.shape.cyclic[v] && !self.whole_history {
            self.relevance.reduce(v, visited, strict)
        } else {
            visited.to_vec()
        };
        let key = if reduced.len() < visited.len() {
            if let Some(w) = self.memo.get(&state_key(v, &reduced, strict)) {
                let w = w.clone();
                self.memo.insert(asked, w.clone());
                return Ok(w);
            }
            Some(asked)
        } else {
            None
        };
        let walls = self.eval_reduced(store, v, &reduced, strict)?;
        if let Some(asked) = key {
            self.memo.insert(asked, walls.clone());
        }
        Ok(walls)
    }

    /// [`Self::eval`] of a state whose visited set is reduced: evaluates it
    /// and keeps it under that key.
    fn eval_reduced(
        &mut self,
        store: &mut Store,
        v: usize,
        visited: &[u32],
        strict: bool,
    ) -> Result<Rc<Walls>, KoError> {
        let key = state_key(v, visited, strict);
        store.tick()?;
        if self.evaluated >= self.limit {
            return Err(KoError::TooLarge {
                node: self.graph.label(NodeId(v as u32)).to_string(),
                limit: self.limit,
            });
        }
        self.evaluated += 1;
        if self.shape.ko_free[v] {
            let g = self.short(store, v)?;
            if !self.raw || store.is_number(g) {
                let w = Rc::new(Self::short_walls(store, g)?);
                self.memo.insert(key, w.clone());
                return Ok(w);
            }
        }
        let graph = self.graph;
        let node = graph.node(NodeId(v as u32));
        // Scaffolds of the legal moves, and the targets of the banned ones.
        let mut scaffold: [Option<Wall>; 2] = [None, None];
        let mut banned: [Vec<(usize, &Dyadic)>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for (i, t) in node.options(side).iter().enumerate() {
                let gain = node.gain(side, i);
                let w = match t {
                    Target::Game(g) => {
                        let th = store.thermograph(g)?;
                        contribution(side, th.left_wall(), th.right_wall(), gain)
                    }
                    Target::Node(u) => {
                        let u = u.index();
                        let Some(next) = self.step(v, u, visited, side) else {
                            banned[k].push((u, gain));
                            continue;
                        };
                        let w = self.eval(store, u, &next, strict)?;
                        contribution(side, &w.left, &w.right, gain)
                    }
                };
                scaffold[k] = Some(match scaffold[k].take() {
                    None => w,
                    Some(s) => best(side, &s, &w),
                });
            }
        }
        let stuck = || KoError::Stuck {
            node: graph.label(NodeId(v as u32)).to_string(),
            rule: self.rule,
        };
        let [lambda, rho] = scaffold;
        let walls = match (lambda, rho) {
            (Some(l), Some(r)) => settle(l, r),
            // One player has no local move at all: a number (rule 2).
            // The stop is in when the wall is flat just below 0, as in rule 3.
            (Some(l), None) if node.right().is_empty() => {
                let a = l.eval(&Q::zero());
                let x = simplest_between_opt(Some(&a), None);
                number_walls(simpler_end(x, &a, just_below_zero(&l) <= a))
            }
            (None, Some(r)) if node.left().is_empty() => {
                let b = r.eval(&Q::zero());
                let x = simplest_between_opt(None, Some(&b));
                number_walls(simpler_end(x, &b, just_below_zero(&r) >= b))
            }
            // Every move of one player is banned (rule 2a / 2b).
            (Some(l), None) => {
                match self.delayed(store, visited, Side::Right, &banned[1], strict)? {
                    None => settle(l.clone(), l),
                    Some(d) => {
                        let e = settle(l.clone(), d);
                        let w = l.max(&e.right);
                        settle(w.clone(), w)
                    }
                }
            }
            (None, Some(r)) => {
                match self.delayed(store, visited, Side::Left, &banned[0], strict)? {
                    None => settle(r.clone(), r),
                    Some(d) => {
                        let e = settle(d, r.clone());
                        let w = r.min(&e.left);
                        settle(w.clone(), w)
                    }
                }
            }
            (None, None) => return Err(stuck()),
        };
        // The komaster may renounce her privilege (rule 4).
        let walls = match (self.rule, self.neutral.as_mut()) {
            (Rule::Komaster(k), Some(n)) => match n.eval(store, v, visited, strict) {
                Ok(nw) => renounce(k.side(), &walls, &nw),
                Err(KoError::Stuck { .. }) => walls,
                Err(e) => return Err(e),
            },
            _ => walls,
        };
        Ok(self.remember(key, walls))
    }

    /// The scaffold of `side`'s banned moves, each made once (the history is
    /// unchanged) with the strict rule after it (rule 2b); `None` in strict
    /// mode, or when play gets stuck after every such move.
    fn delayed(
        &mut self,
        store: &mut Store,
        visited: &[u32],
        side: Side,
        targets: &[(usize, &Dyadic)],
        strict: bool,
    ) -> Result<Option<Wall>, KoError> {
        if strict {
            return Ok(None);
        }
        let mut out: Option<Wall> = None;
        for (u, gain) in targets {
            let w = match self.eval(store, *u, visited, true) {
                Ok(w) => w,
                Err(KoError::Stuck { .. }) => continue,
                Err(e) => return Err(e),
            };
            let c = contribution(side, &w.left, &w.right, gain);
            out = Some(match out {
                None => c,
                Some(s) => best(side, &s, &c),
            });
        }
        Ok(out)
    }

    fn remember(&mut self, key: StateKey, w: Walls) -> Rc<Walls> {
        let w = Rc::new(w);
        self.memo.insert(key, w.clone());
        w
    }
}

/// A state of the memo: its node, `strict` and visited set (sorted), with
/// its hash ([`Prehashed`]: visited sets run to hundreds of nodes).
type StateKey = Prehashed<(u32, bool, Box<[u32]>)>;

fn state_key(node: usize, visited: &[u32], strict: bool) -> StateKey {
    Prehashed::new((node as u32, strict, visited.into()))
}

/// What every analysis of a graph needs of its structure, whatever the rule:
/// computed once per graph ([`ThermographCache`]), since the ko solver asks
/// a graph of up to 150 000 nodes for thermographs many times.
pub(crate) struct Shape {
    /// The strongly connected component of each node.
    comp: Vec<usize>,
    /// The node lies on a cycle (its component has two or more nodes).
    cyclic: Vec<bool>,
    /// No cycle can be reached from the node: it is a short game.
    ko_free: Vec<bool>,
    /// The moves of each node into cyclic nodes of its own component:
    /// `moves[start[v]..start[v + 1]]`, each the target's index times two
    /// plus 1 for White.
    start: Vec<u32>,
    moves: Vec<u32>,
}

impl Shape {
    fn of(graph: &KoGraph) -> Shape {
        let comp = graph.sccs(None);
        let cyclic = graph.on_cycle(&comp, None);
        let ko_free = graph.reaches_cycle().into_iter().map(|r| !r).collect();
        let n = graph.len();
        let mut start = Vec::with_capacity(n + 1);
        let mut moves = Vec::new();
        for v in 0..n {
            start.push(moves.len() as u32);
            if !cyclic[v] {
                continue;
            }
            let node = graph.node(NodeId(v as u32));
            for (bit, side) in [(0, Side::Left), (1, Side::Right)] {
                for t in node.options(side) {
                    if let Target::Node(u) = t {
                        let u = u.index();
                        if comp[u] == comp[v] && cyclic[u] {
                            moves.push((u as u32) << 1 | bit);
                        }
                    }
                }
            }
        }
        start.push(moves.len() as u32);
        Shape {
            comp,
            cyclic,
            ko_free,
            start,
            moves,
        }
    }

    fn moves_in_component(&self, v: usize) -> &[u32] {
        &self.moves[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// Which visited nodes can still matter to a state (module doc, "The
/// definition implemented").
///
/// The walls of a state `(v, S, strict)` depend on the visited set `S` only
/// through the moves into visited nodes that play from `v` can still test:
/// play from `v` stays among the nodes reachable from it in its component by
/// moves the rule allows (into a node not in `S`, or by a player who may
/// repeat), plus, unless `strict`, one delayed move (rule 2b) into a node of
/// `S`, followed by allowed moves; a line that leaves the component forgets
/// its history. Let `T` be the targets of the moves from those nodes. Every
/// test along every line from the state is of a node of `T`, and of the
/// nodes added to the line after `v` (visited whatever `S` was), so the walls
/// are those of `(v, S ∩ T, strict)`. The search of the reach tests only
/// nodes of `T`, so it finds the same reach for any `K` with
/// `S ∩ T ⊆ K ⊆ S`: every such set is a key of the same walls. A child's
/// reach lies within its parent's, so a child asked with its parent's reduced
/// set (plus its own node) is asked with such a `K`.
///
/// The reach is an over-approximation (nodes visited further down the line
/// are taken as unvisited), which keeps it a function of `S ∩ T` alone. Under
/// a komaster rule it holds the reach of the no-repetition analysis too
/// (that rule allows fewer moves, and its delayed moves are allowed or
/// delayed here), so the set reduced for the komaster is a key there as well.
struct Relevance {
    rule: Rule,
    /// The graph's moves into cyclic nodes ([`Shape::moves_in_component`]).
    shape: std::sync::Arc<Shape>,
    /// Marks of the last search, by generation (never cleared).
    generation: u32,
    in_set: Vec<u32>,
    reached: Vec<u32>,
    reached_strict: Vec<u32>,
    target: Vec<u32>,
    stack: Vec<u32>,
    delayed: Vec<u32>,
}

impl Relevance {
    fn new(shape: std::sync::Arc<Shape>, rule: Rule) -> Relevance {
        let n = shape.comp.len();
        Relevance {
            rule,
            shape,
            generation: 0,
            in_set: vec![0; n],
            reached: vec![0; n],
            reached_strict: vec![0; n],
            target: vec![0; n],
            stack: Vec::new(),
            delayed: Vec::new(),
        }
    }

    /// The nodes of `visited` (sorted) that the state `(v, visited, strict)`
    /// can still test, `v` cyclic.
    fn reduce(&mut self, v: usize, visited: &[u32], strict: bool) -> Vec<u32> {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 searches: start the marks afresh.
            for marks in [
                &mut self.in_set,
                &mut self.reached,
                &mut self.reached_strict,
                &mut self.target,
            ] {
                marks.fill(0);
            }
            self.generation = 1;
        }
        let g = self.generation;
        for &x in visited {
            self.in_set[x as usize] = g;
        }
        let may_repeat = [
            self.rule.may_repeat(Side::Left),
            self.rule.may_repeat(Side::Right),
        ];
        self.delayed.clear();
        self.stack.clear();
        self.stack.push(v as u32);
        self.reached[v] = g;
        while let Some(x) = self.stack.pop() {
            let x = x as usize;
            for &m in self.shape.moves_in_component(x) {
                let u = (m >> 1) as usize;
                self.target[u] = g;
                if self.in_set[u] != g || may_repeat[(m & 1) as usize] {
                    if self.reached[u] != g {
                        self.reached[u] = g;
                        self.stack.push(u as u32);
                    }
                } else if !strict {
                    self.delayed.push(u as u32);
                }
            }
        }
        // After a delayed move, allowed moves only (rule 2a); a node already
        // reached above has its moves' targets marked.
        for i in 0..self.delayed.len() {
            let u = self.delayed[i] as usize;
            if self.reached[u] != g && self.reached_strict[u] != g {
                self.reached_strict[u] = g;
                self.stack.push(u as u32);
            }
        }
        while let Some(x) = self.stack.pop() {
            let x = x as usize;
            for &m in self.shape.moves_in_component(x) {
                let u = (m >> 1) as usize;
                self.target[u] = g;
                if (self.in_set[u] != g || may_repeat[(m & 1) as usize])
                    && self.reached[u] != g
                    && self.reached_strict[u] != g
                {
                    self.reached_strict[u] = g;
                    self.stack.push(u as u32);
                }
            }
        }
        visited
            .iter()
            .copied()
            .filter(|&x| self.target[x as usize] == g)
            .collect()
    }
}

/// What a move by `side` scoring `gain` to a position with these walls is
/// worth to the mover's scaffold: `gain + RW − t` for Black, `gain + LW + t`
/// for White.
fn contribution(side: Side, left: &Wall, right: &Wall, gain: &Dyadic) -> Wall {
    match side {
        Side::Left => right.taxed(-1, gain),
        Side::Right => left.taxed(1, gain),
    }
}

/// The better of two walls for `side` (pointwise max for Black, min for White).
fn best(side: Side, a: &Wall, b: &Wall) -> Wall {
    match side {
        Side::Left => a.max(b),
        Side::Right => a.min(b),
    }
}

/// Rule 4: the komaster's pointwise best of her walls `a` (rules 1–3) and
/// the no-repetition walls `n` of the same state, *not* settled again. The
/// mast is where both walls reach one constant for good (both analyses
/// have masts: the better of the two means, from the higher temperature
/// down as far as the walls stay there); if that is below 0, the state is
/// that number. Without a common constant tail there is no mast.
fn renounce(side: Side, a: &Walls, n: &Walls) -> Walls {
    let left = best(side, &a.left, &n.left);
    let right = best(side, &a.right, &n.right);
    match mast_base(&left, &right) {
        Some((t, m)) if t.is_negative() => number_walls(m),
        Some((t, m)) => Walls {
            left: left.truncate(&t),
            right: right.truncate(&t),
            mast: Some((t, m)),
            number: false,
        },
        None => Walls {
            left,
            right,
            mast: None,
            number: false,
        },
    }
}

/// Where two walls become one constant for good, and that constant: the
/// least `t` with `l = r = m` on `[t, ∞)`.
fn mast_base(l: &Wall, r: &Wall) -> Option<(Q, Q)> {
    // Consecutive pieces of a wall differ in slope, so the last breakpoint
    // is where the final constant piece begins. (Read from the breakpoints:
    // every state of a komaster analysis asks, and the walls' `BigRational`
    // views would cost an allocation per number.)
    let (tl, vl) = l.flat_tail()?;
    let (tr, vr) = r.flat_tail()?;
    (vl == vr).then(|| (tl.max(tr).to_q(), vl.to_q()))
}

/// Adds node `i` to a sorted set of nodes.
fn set(nodes: &mut Vec<u32>, i: usize) {
    let i = i as u32;
    if let Err(at) = nodes.binary_search(&i) {
        nodes.insert(at, i);
    }
}

/// Whether a sorted set of nodes holds node `i`.
fn get(nodes: &[u32], i: usize) -> bool {
    nodes.binary_search(&(i as u32)).is_ok()
}

/// Scaffolds to walls (module doc, rule 3).
fn settle(l: Wall, r: Wall) -> Walls {
    match l.unsettled_until(&r) {
        Unsettled::Forever => Walls {
            left: l,
            right: r,
            mast: None,
            number: false,
        },
        Unsettled::Until(t) if !t.is_negative() => {
            let m = l.eval(&t);
            Walls {
                left: l.truncate(&t),
                right: r.truncate(&t),
                mast: Some((t, m)),
                number: false,
            }
        }
        _ => {
            let zero = Q::zero();
            let (a, b) = (l.eval(&zero), r.eval(&zero));
            let x = if a < b {
                // An end of the interval belongs to it when the wall is
                // flat in `t` just below 0 (module doc, rule 3): the stop
                // is reached on the other player's move.
                let with_a = just_below_zero(&l) <= a;
                let with_b = just_below_zero(&r) >= b;
                simplest_in(&a, with_a, &b, with_b)
            } else {
                a
            };
            number_walls(x)
        }
    }
}

/// The value of a wall just below `t = 0`: on the last piece that starts
/// below 0 (at the midpoint of its start, or of `-1`, and 0).
fn just_below_zero(w: &Wall) -> Q {
    let start = w
        .points()
        .iter()
        .map(|(t, _)| t)
        .filter(|t| t.is_negative())
        .last()
        .cloned()
        .unwrap_or_else(|| -Q::one());
    w.eval(&(start / Q::from_integer(BigInt::from(2))))
}

/// The birthday of a dyadic rational (its simplicity: the simplest number
/// of an interval is the one born first); `None` if it is not dyadic.
fn dyadic_birthday(x: &Q) -> Option<BigInt> {
    Dyadic::from_rational(x).map(|d| d.birthday())
}

/// The simplest dyadic rational between `lo < hi`, each end included when
/// asked (and dyadic).
fn simplest_in(lo: &Q, with_lo: bool, hi: &Q, with_hi: bool) -> Q {
    let inside = simplest_between(lo, hi);
    let best = simpler_end(inside, lo, with_lo);
    simpler_end(best, hi, with_hi)
}

/// `end` when it is included (and dyadic) and born before `x`, else `x`.
fn simpler_end(x: Q, end: &Q, with: bool) -> Q {
    if !with {
        return x;
    }
    match (dyadic_birthday(end), dyadic_birthday(&x)) {
        (Some(e), Some(b)) if e < b => end.clone(),
        (Some(_), None) => end.clone(),
        _ => x,
    }
}

/// The vertical mast at `x` from `t = -1`, with the temperature of the number
/// `x` (`-1` if `x` is not dyadic) — as [`Store::thermograph`] draws numbers.
fn number_walls(x: Q) -> Walls {
    let temp = match Dyadic::from_rational(&x) {
        Some(d) => number_temperature(&d),
        None => -Q::one(),
    };
    let w = Wall::constant(-Q::one(), x.clone());
    Walls {
        left: w.clone(),
        right: w,
        mast: Some((temp, x)),
        number: true,
    }
}

/// The simplest dyadic rational strictly between the bounds (either may be
/// absent; `lo < hi` when both are present).
pub(crate) fn simplest_between_opt(lo: Option<&Q>, hi: Option<&Q>) -> Q {
    match (lo, hi) {
        (Some(l), Some(h)) => simplest_between(l, h),
        (Some(l), None) => {
            if l.is_negative() {
                Q::zero()
            } else {
                Q::from_integer(l.floor().to_integer() + BigInt::one())
            }
        }
        (None, Some(h)) => {
            if h.is_positive() {
                Q::zero()
            } else {
                Q::from_integer(h.ceil().to_integer() - BigInt::one())
            }
        }
        (None, None) => Q::zero(),
    }
}

/// The simplest dyadic rational strictly between `lo < hi`.
pub(crate) fn simplest_between(lo: &Q, hi: &Q) -> Q {
    if lo.is_negative() && hi.is_positive() {
        return Q::zero();
    }
    let lo_int = lo.floor().to_integer() + BigInt::one();
    let hi_int = hi.ceil().to_integer() - BigInt::one();
    if lo_int <= hi_int {
        return Q::from_integer(if hi.is_positive() { lo_int } else { hi_int });
    }
    let mut k: u32 = 1;
    loop {
        let scale = BigInt::one() << k as usize;
        let scaled = lo * Q::from_integer(scale.clone());
        let m = scaled.floor().to_integer() + BigInt::one();
        let cand = Q::new(m, scale);
        if &cand < hi {
            return cand;
        }
        k += 1;
    }
}

// ----- the graph-level API ----------------------------------------------------

/// The thermographs a graph has given, by node and rule, so that a question
/// asked again (the ko solver asks for a ko's temperature and for its nodes'
/// means in every search of a sum) costs a lookup. Answers are kept, and so
/// are the errors that depend on nothing but the graph, the node and the rule
/// ([`KoError::is_of_the_graph`]: over the state limit, no mast, stuck): the
/// ko solver asks again at every position of its search, and an analysis
/// that fails at the state limit ran its 200 000 states each time. An
/// analysis stopped by the store (its step budget, an interrupt) runs again
/// when asked again. Work is not charged again either, so a repeated question
/// spends fewer store steps than the first one did. A copy of a graph starts
/// with an empty cache (it may go to another store), and it is never compared
/// or printed.
#[derive(Default)]
pub struct ThermographCache(
    std::cell::RefCell<HashMap<(u32, Rule), Result<Thermograph, KoError>>>,
    std::cell::OnceCell<std::sync::Arc<Shape>>,
);

impl ThermographCache {
    /// The graph's [`Shape`], found at the first analysis.
    fn shape(&self, graph: &KoGraph) -> std::sync::Arc<Shape> {
        self.1
            .get_or_init(|| std::sync::Arc::new(Shape::of(graph)))
            .clone()
    }
}

impl Clone for ThermographCache {
    fn clone(&self) -> Self {
        ThermographCache::default()
    }
}

impl PartialEq for ThermographCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ThermographCache {}

impl std::fmt::Debug for ThermographCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("_")
    }
}

impl KoGraph {
    /// The thermograph of `node` under `rule`, from the cache when it was
    /// asked before.
    fn cached_thermograph(
        &self,
        store: &mut Store,
        node: NodeId,
        rule: Rule,
    ) -> Result<Thermograph, KoError> {
        let key = (node.0, rule);
        if let Some(answer) = self.thermographs.0.borrow().get(&key) {
            return answer.clone();
        }
        let answer = KomasterAnalysis::with_rule(self, rule).thermograph(store, node);
        if answer.as_ref().is_ok() || answer.as_ref().is_err_and(KoError::is_of_the_graph) {
            self.thermographs.0.borrow_mut().insert(key, answer.clone());
        }
        answer
    }

    /// The komaster thermograph of `node`.
    pub fn thermograph(
        &self,
        store: &mut Store,
        node: NodeId,
        komaster: Komaster,
    ) -> Result<Thermograph, KoError> {
        self.cached_thermograph(store, node, Rule::Komaster(komaster))
    }

    /// The komaster thermographs of every node, in node order.
    pub fn thermographs(
        &self,
        store: &mut Store,
        komaster: Komaster,
    ) -> Result<Vec<Thermograph>, KoError> {
        let rule = Rule::Komaster(komaster);
        let mut a = KomasterAnalysis::new(self, komaster);
        self.node_ids()
            .map(|n| {
                let key = (n.0, rule);
                if let Some(Ok(th)) = self.thermographs.0.borrow().get(&key) {
                    return Ok(th.clone());
                }
                let th = a.thermograph(store, n)?;
                self.thermographs.0.borrow_mut().insert(key, Ok(th.clone()));
                Ok(th)
            })
            .collect()
    }

    /// The mean (mast value) of `node` under the komaster assumption.
    pub fn mean(&self, store: &mut Store, node: NodeId, komaster: Komaster) -> Result<Q, KoError> {
        Ok(self.thermograph(store, node, komaster)?.mean().clone())
    }

    /// The temperature of `node` under the komaster assumption.
    pub fn temperature(
        &self,
        store: &mut Store,
        node: NodeId,
        komaster: Komaster,
    ) -> Result<Q, KoError> {
        Ok(self
            .thermograph(store, node, komaster)?
            .temperature()
            .clone())
    }

    /// The thermograph of `node` when neither player may repeat a position
    /// (nobody has ko threats): [`Rule::NoRepetition`].
    pub fn thermograph_no_repetition(
        &self,
        store: &mut Store,
        node: NodeId,
    ) -> Result<Thermograph, KoError> {
        self.cached_thermograph(store, node, Rule::NoRepetition)
    }

    /// Placid, active or hyperactive (module doc); `None` for a ko-free node.
    pub fn ko_kind(&self, store: &mut Store, node: NodeId) -> Result<Option<KoKind>, KoError> {
        if self.is_ko_free(node) {
            return Ok(None);
        }
        let mut masts = Vec::with_capacity(3);
        for rule in [
            Rule::Komaster(Komaster::Black),
            Rule::Komaster(Komaster::White),
            Rule::NoRepetition,
        ] {
            let th = self.cached_thermograph(store, node, rule)?;
            masts.push((th.mean().clone(), th.temperature().clone()));
        }
        let (b, w, n) = (&masts[0], &masts[1], &masts[2]);
        Ok(Some(if b == w {
            KoKind::Placid
        } else if b == n || w == n {
            KoKind::Active
        } else {
            KoKind::Hyperactive
        }))
    }
}
