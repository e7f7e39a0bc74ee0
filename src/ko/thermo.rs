//! Komaster thermography of ko graphs (Berlekamp 1996, "The economist's view
//! of combinatorial games", *Games of No Chance*; Müller, Berlekamp & Spight
//! 1996, "Generalized thermography: algorithms, implementation, and
//! application to Go endgames", ICSI TR-96-030; Spight 1998, "Extended
//! thermography for multiple kos in Go", *Computers and Games*, LNCS 1558).
//!
//! # The definition implemented
//!
//! Walls are exact piecewise-linear functions of the temperature `t ≥ -1`
//! ([`Wall`], any rational slope). A *state* is a node together with the set
//! of nodes of its strongly connected component already visited on the
//! current line of play (positions in other components can never recur, so
//! they need no history).
//!
//! 1. **Komaster rule.** With Black as komaster, White may not move to a
//!    position that already occurred on the current line (he has no threats
//!    left to retake); Black may (she always has a threat, and her opponent
//!    answers it, so the exchange costs nothing). Symmetrically for White.
//!    A line of play therefore visits each position at most once per move of
//!    the player who is not komaster, and, as one-player cycles are rejected,
//!    the unfolded game is finite.
//! 2. **Scaffolds.** `λ(t) = max over legal Left options of (RW(t) − t)` and
//!    `ρ(t) = min over legal Right options of (LW(t) + t)`, where a short game
//!    option contributes its ordinary thermograph ([`Store::thermograph`]).
//!    A player with no legal local move *passes*: his scaffold is the other
//!    player's (`ρ := λ` or `λ := ρ`). This is how the komaster's opponent,
//!    unable to retake, makes the walls coincide: the position after Black's
//!    capture of a simple ko has both walls `b − t` below the ko's temperature
//!    under Black komaster (Black still has to spend a move to fill), the
//!    *inclined mast* of the ko literature.
//! 3. **Mast.** A point `t` is *unsettled* when `λ(t) > ρ(t)` or when the
//!    scaffolds coincide on an interval after `t` with non-zero slope (an
//!    inclined mast). The temperature `T` is the supremum of the unsettled
//!    points; the walls are the scaffolds up to `T` and the vertical mast at
//!    the mean `λ(T) = ρ(T)` above it. If the scaffolds never settle, there is
//!    no mast ([`KoError::NoMast`] at a root; a deep state with a forever
//!    inclined mast is kept as it is). If `T < 0` the position is cold: like a
//!    short game equal to a number it gets the vertical mast, from `t = -1`,
//!    at the simplest dyadic rational strictly between the stops `λ(0)` and
//!    `ρ(0)` (or at their common value), with the temperature of that number
//!    (`-1`, `-1/2^k`).
//! 4. A **ko-free** node (no cycle can be reached from it) is an ordinary short
//!    game: its thermograph is [`Store::thermograph`] of its canonical form.
//!    On short games the rules above are exactly the ordinary definition
//!    (slopes are then `0` or `±1`, so scaffolds never coincide with a slope),
//!    which a property test checks by running the general evaluation on
//!    ko-free graphs in their raw (non-canonical) form.
//!
//! The thermograph of a node is that of its state with nothing else visited.
//! Reference facts that hold (tests): a simple direct ko with fills `b > w`
//! has temperature `(b − w)/3` under either komaster, the position where
//! Black may capture has mean `w + (b − w)/3`, the one after her capture
//! `w + 2(b − w)/3`; the `n`-stage ko (Black fills for `b`, White needs `n`
//! takes and a fill for `w`) has temperature `(b − w)/(n + 2)` at every stage
//! (the three-stage ko `3 / −4` of DESIGN.md has miai value `7/5`).
//!
//! # Classification ([`KoKind`])
//!
//! Berlekamp's words, made precise here as follows (our reading; the papers
//! phrase them through the komaster's use of threats):
//! * **placid**: the Black-komaster and White-komaster thermographs have the
//!   same mean and the same temperature — who owns the threats changes
//!   neither the count nor the value of a move;
//! * **active**: they differ in mean or temperature;
//! * **hyperactive**: active, and under some komaster assumption the walls
//!   meet the vertical mast along an inclined mast (they coincide, with
//!   non-zero slope, right up to the temperature), or never reach a vertical
//!   mast: the opponent has no profitable local move at any temperature up to
//!   the point where the komaster's fight settles.

use super::graph::{KoError, KoGraph, Komaster, NodeId, Side, Target};
use crate::game::thermo::number_temperature;
use crate::game::{Dyadic, GameId, Store, Thermograph, Wall};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::HashMap;
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
}

/// One komaster analysis of one graph: memoised walls of every state met.
pub struct KomasterAnalysis<'g> {
    graph: &'g KoGraph,
    komaster: Komaster,
    comp: Vec<usize>,
    /// The node lies on a cycle (its component has two or more nodes).
    cyclic: Vec<bool>,
    ko_free: Vec<bool>,
    /// Evaluate ko-free nodes from their (raw) options instead of through
    /// their canonical form (the property tests use this).
    raw: bool,
    limit: usize,
    words: usize,
    memo: HashMap<(u32, Vec<u64>), Rc<Walls>>,
    short: HashMap<u32, GameId>,
}

impl<'g> KomasterAnalysis<'g> {
    pub fn new(graph: &'g KoGraph, komaster: Komaster) -> KomasterAnalysis<'g> {
        let comp = graph.sccs(None);
        let cyclic = graph.on_cycle(&comp, None);
        let ko_free = graph.reaches_cycle().into_iter().map(|r| !r).collect();
        KomasterAnalysis {
            graph,
            komaster,
            comp,
            cyclic,
            ko_free,
            raw: false,
            limit: DEFAULT_STATE_LIMIT,
            words: graph.len().div_ceil(64),
            memo: HashMap::new(),
            short: HashMap::new(),
        }
    }

    /// Bounds the number of states visited ([`KoError::TooLarge`] beyond).
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    #[cfg(test)]
    pub(crate) fn raw(mut self) -> Self {
        self.raw = true;
        self
    }

    /// The number of states evaluated so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The thermograph of `node` (nothing visited before it).
    pub fn thermograph(&mut self, store: &mut Store, node: NodeId) -> Result<Thermograph, KoError> {
        let v = node.index();
        let mut visited = vec![0u64; self.words];
        if self.cyclic[v] {
            set(&mut visited, v);
        }
        let w = self.eval(store, v, &visited)?;
        match &w.mast {
            Some((t, m)) => Ok(Thermograph::new(
                w.left.clone(),
                w.right.clone(),
                m.clone(),
                t.clone(),
            )),
            None => Err(KoError::NoMast {
                node: self.graph.label(node).to_string(),
                komaster: self.komaster,
            }),
        }
    }

    /// The canonical form of a ko-free node.
    fn short(&mut self, store: &mut Store, v: usize) -> Result<GameId, KoError> {
        if let Some(g) = self.short.get(&(v as u32)) {
            return Ok(*g);
        }
        let graph = self.graph;
        let node = &graph.nodes[v];
        let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for (k, opts) in [&node.left, &node.right].into_iter().enumerate() {
            for t in opts {
                sides[k].push(match *t {
                    Target::Game(g) => g,
                    Target::Node(u) => self.short(store, u.index())?,
                });
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
        })
    }

    /// The history after a move from `v` to `u` by `mover`, or `None` when
    /// the komaster rule forbids the move.
    fn step(&self, v: usize, u: usize, visited: &[u64], mover: Side) -> Option<Vec<u64>> {
        if self.comp[u] == self.comp[v] && self.cyclic[u] {
            if get(visited, u) && mover != self.komaster.side() {
                return None;
            }
            let mut next = visited.to_vec();
            set(&mut next, u);
            Some(next)
        } else {
            let mut next = vec![0u64; self.words];
            if self.cyclic[u] {
                set(&mut next, u);
            }
            Some(next)
        }
    }

    fn eval(&mut self, store: &mut Store, v: usize, visited: &[u64]) -> Result<Rc<Walls>, KoError> {
        let key = (v as u32, visited.to_vec());
        if let Some(w) = self.memo.get(&key) {
            return Ok(w.clone());
        }
        store.tick()?;
        if self.memo.len() >= self.limit {
            return Err(KoError::TooLarge {
                node: self.graph.label(NodeId(v as u32)).to_string(),
                limit: self.limit,
            });
        }
        if self.ko_free[v] {
            let g = self.short(store, v)?;
            if !self.raw || store.is_number(g) {
                let w = Rc::new(Self::short_walls(store, g)?);
                self.memo.insert(key, w.clone());
                return Ok(w);
            }
        }
        let graph = self.graph;
        let node = &graph.nodes[v];
        let minus_one = -Q::one();
        let plus_one = Q::one();
        let mut lambda: Option<Wall> = None;
        for t in &node.left {
            let w = match *t {
                Target::Game(g) => store.thermograph(g)?.right_wall().add_slope(&minus_one),
                Target::Node(u) => {
                    let u = u.index();
                    let Some(next) = self.step(v, u, visited, Side::Left) else {
                        continue;
                    };
                    self.eval(store, u, &next)?.right.add_slope(&minus_one)
                }
            };
            lambda = Some(match lambda {
                None => w,
                Some(l) => l.max(&w),
            });
        }
        let mut rho: Option<Wall> = None;
        for t in &node.right {
            let w = match *t {
                Target::Game(g) => store.thermograph(g)?.left_wall().add_slope(&plus_one),
                Target::Node(u) => {
                    let u = u.index();
                    let Some(next) = self.step(v, u, visited, Side::Right) else {
                        continue;
                    };
                    self.eval(store, u, &next)?.left.add_slope(&plus_one)
                }
            };
            rho = Some(match rho {
                None => w,
                Some(r) => r.min(&w),
            });
        }
        let (lambda, rho) = match (lambda, rho) {
            (Some(l), Some(r)) => (l, r),
            (Some(l), None) => (l.clone(), l),
            (None, Some(r)) => (r.clone(), r),
            (None, None) => {
                return Err(KoError::Stuck {
                    node: graph.label(NodeId(v as u32)).to_string(),
                    komaster: self.komaster,
                })
            }
        };
        let w = Rc::new(settle(lambda, rho));
        self.memo.insert(key, w.clone());
        Ok(w)
    }
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1u64 << (i % 64);
}

fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1u64 << (i % 64)) != 0
}

/// Where the unsettled points end (module doc, rule 3).
#[derive(Debug, PartialEq, Eq)]
enum Unsettled {
    Nowhere,
    Until(Q),
    Forever,
}

fn unsettled(l: &Wall, r: &Wall) -> Unsettled {
    let mut ts: Vec<Q> = l
        .points()
        .iter()
        .chain(r.points().iter())
        .map(|p| p.0.clone())
        .collect();
    ts.sort();
    ts.dedup();
    let mut sup = Unsettled::Nowhere;
    for (i, a) in ts.iter().enumerate() {
        let da = l.eval(a) - r.eval(a);
        match ts.get(i + 1) {
            Some(b) => {
                let db = l.eval(b) - r.eval(b);
                let slope = (l.eval(b) - l.eval(a)) / (b - a);
                if db.is_positive() || (da.is_zero() && db.is_zero() && !slope.is_zero()) {
                    sup = Unsettled::Until(b.clone());
                } else if da.is_positive() {
                    sup = Unsettled::Until(a + &da * (b - a) / (&da - &db));
                }
            }
            None => {
                let ds = l.tail_slope() - r.tail_slope();
                if ds.is_positive()
                    || (ds.is_zero() && da.is_positive())
                    || (ds.is_zero() && da.is_zero() && !l.tail_slope().is_zero())
                {
                    return Unsettled::Forever;
                }
                if da.is_positive() {
                    sup = Unsettled::Until(a - &da / &ds);
                }
            }
        }
    }
    sup
}

/// Scaffolds to walls (module doc, rule 3).
fn settle(l: Wall, r: Wall) -> Walls {
    match unsettled(&l, &r) {
        Unsettled::Forever => Walls {
            left: l,
            right: r,
            mast: None,
        },
        Unsettled::Until(t) if !t.is_negative() => {
            let m = l.eval(&t);
            Walls {
                left: l.truncate(&t),
                right: r.truncate(&t),
                mast: Some((t, m)),
            }
        }
        _ => {
            let zero = Q::zero();
            let (a, b) = (l.eval(&zero), r.eval(&zero));
            let x = if a < b { simplest_between(&a, &b) } else { a };
            let temp = match Dyadic::from_rational(&x) {
                Some(d) => number_temperature(&d),
                None => -Q::one(),
            };
            let w = Wall::constant(-Q::one(), x.clone());
            Walls {
                left: w.clone(),
                right: w,
                mast: Some((temp, x)),
            }
        }
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

impl KoGraph {
    /// The komaster thermograph of `node`.
    pub fn thermograph(
        &self,
        store: &mut Store,
        node: NodeId,
        komaster: Komaster,
    ) -> Result<Thermograph, KoError> {
        KomasterAnalysis::new(self, komaster).thermograph(store, node)
    }

    /// The komaster thermographs of every node, in node order.
    pub fn thermographs(
        &self,
        store: &mut Store,
        komaster: Komaster,
    ) -> Result<Vec<Thermograph>, KoError> {
        let mut a = KomasterAnalysis::new(self, komaster);
        self.node_ids().map(|n| a.thermograph(store, n)).collect()
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
        Ok(self.thermograph(store, node, komaster)?.temperature().clone())
    }

    /// Placid, active or hyperactive (module doc); `None` for a ko-free node.
    pub fn ko_kind(&self, store: &mut Store, node: NodeId) -> Result<Option<KoKind>, KoError> {
        if self.is_ko_free(node) {
            return Ok(None);
        }
        let mut ths = Vec::with_capacity(2);
        for km in [Komaster::Black, Komaster::White] {
            match self.thermograph(store, node, km) {
                Ok(t) => ths.push(t),
                Err(KoError::NoMast { .. }) => return Ok(Some(KoKind::Hyperactive)),
                Err(e) => return Err(e),
            }
        }
        let (b, w) = (&ths[0], &ths[1]);
        if b.mean() == w.mean() && b.temperature() == w.temperature() {
            return Ok(Some(KoKind::Placid));
        }
        if ths.iter().any(ends_inclined) {
            return Ok(Some(KoKind::Hyperactive));
        }
        Ok(Some(KoKind::Active))
    }
}

/// The walls coincide with a non-zero slope just below the temperature.
fn ends_inclined(th: &Thermograph) -> bool {
    let t = th.temperature();
    let (l, r) = (th.left_wall(), th.right_wall());
    // The last breakpoint strictly below T of either wall bounds the piece
    // that ends at T.
    let below = l
        .points()
        .iter()
        .chain(r.points().iter())
        .map(|p| &p.0)
        .filter(|s| *s < t)
        .max()
        .cloned();
    let Some(s) = below else { return false };
    let mid = (&s + t) / Q::from_integer(BigInt::from(2));
    l.eval(&mid) == r.eval(&mid) && l.eval(&mid) != th.mean().clone()
}

