//! Kos in Go positions: from a region whose positions can repeat to a ko
//! graph (basic ko rule) or to a short game (local superko).
//!
//! See the module docs of [`crate::go`], section "Kos", for the definitions;
//! this file implements them in three steps.
//!
//! 1. **Position graph.** From a component found loopy by the search
//!    (`Val::Loopy`) every position reachable by legal moves is explored,
//!    the component kept whole (not split). A position none of whose parts
//!    can reach a cycle is *ko-free*: its exact short value comes from the
//!    ordinary search and play leaves the graph there. Every other position
//!    is a *node*; its moves (on every playable point of the component,
//!    including the ko-free parts of it, so a node is the position of the
//!    whole component) lead to nodes or ko-free positions, each with the
//!    points it scores at once (prisoners under Japanese rules, stones that
//!    become immortal under area rules).
//! 2. **Basic ko rule: one node per position, gains on the edges.** Each
//!    position of step 1 is a node `k{i}` (numbered as the depth-first walk
//!    first meets it). Its potential φ is the points scored on the walk's
//!    line to it; the node denotes φ plus the value of the position, so a
//!    move scoring `g` to a node of potential φ' has the gain `φ + g − φ'`
//!    and one to a ko-free position of value `v` is the short game
//!    `φ + g + v`. The gain is 0 on the walk's edges and on every cycle that
//!    scores nothing, so a region whose cycles balance gives the graph it
//!    gave before ko graphs had gains (then a position reached with two
//!    potentials was two nodes; now it is one node and a gain). An
//!    unbalanced cycle (it used to be `GoError::UnbalancedCycle`) is a
//!    non-zero gain on one of its edges.
//! 3. **Superko.** The line's history decides which moves are legal, so the
//!    value is a (finite) tree: positions of the line that can recur are
//!    those of the strongly connected component of the position graph the
//!    line is in, so the history kept (and memoised on) is the part of the
//!    line inside that component.
//!
//! **Cost** (the open 3 × 4 area: 149 953 nodes, 1.5 million edges). Each
//! position met is evaluated once: the walk keeps every position it met, a
//! node or a ko-free position with its value, in one table, so a move to a
//! position met before is a table lookup (why this is exact:
//! `Search::board_graph`). A component of at most 16 points has a slot for
//! each way to fill its points, one word each, allocated zeroed so that
//! only the pages written cost memory (3¹² slots for 12 points: 2.1 MB,
//! against 8.9 MB for the hash table it first replaced; 3¹⁵ for the open
//! 3 × 5 area: 57 MB, against a hash table of 5.3 million positions that
//! grew by doubling; `Met`), advised to huge pages
//! (`search::advise_huge_pages`) so that its random lookups do not also
//! miss the TLB; larger components are hashed, by the board packed into a
//! word when the region's bits allow. A node's immortal stones are those `step`
//! returned with its position (the same as recomputing them: `step`
//! checks this in debug builds), not recomputed; so is its split into
//! components, made once per node and used for its playable points and
//! for every move that makes no stone immortal (the split depends only on
//! the immortal stones). Edges live in two flat arrays
//! (`BoardGraph::targets`, `BoardGraph::gains`): a position's moves are
//! given room there when the walk first meets it, so the positions' moves
//! lie in the order of their numbers, each position's Black moves before
//! its White ones, which is the order of the ko graph's options; step 2
//! then makes the graph's targets in place of the walk's (a target stays
//! a node's number, a ko-free value becomes its terminal game), so the
//! walk's edges and the graph's options are never held side by side
//! (BENCHMARKS.md, "Big regions, session 11"). No position allocates.
//!
//! One file (past 1 500 lines) because the three steps extend the same
//! `Search` and share the walk's private tables (`BoardGraph`, `Met`); its
//! tests are the last hundred lines.
//! A position's moves are all played, with a prefetch of each one's
//! slot, and their positions then looked up in the table, before any is
//! followed, so that the lookups overlap with the moves and each other (an
//! entry never changes once made; a position not found is looked up again
//! when its turn comes). The walk's line (`BoardGraph::on_path`) is read
//! only until the first cycle is found, and step 2 asks for the
//! potentials of the nodes a node's moves reach one node ahead: both are
//! read at random. The terminal games of step 2 are memoised by
//! (points scored, value). The chilled value (`go_chilled`, the default
//! view) builds the chilled graph directly (`Search::ko_graph` with
//! `CHILL`): each chilled gain is written once as the graph is built, and
//! the terminal games are chilled in place once the walk's edges are freed,
//! instead of building the unchilled graph and retaxing a copy of it
//! ([`GoValue::chill`], still used for values already computed). On
//! `open_3x4_two_sides` this takes the chilled path (both rules together)
//! from 4.03 G to 3.92 G instructions, and `yose check` of its chilled
//! area value from 33 200 to 25 700 page faults and from 98.8 MB to
//! 85.6 MB of peak memory (BENCHMARKS.md). The lines of
//! [`GoKo::line`] are a tree (each node's line is its walk parent's line
//! plus one move), stored as (parent, colour, point) and written out as
//! move strings only when asked ([`GoKo::line`], [`GoKo::lines`],
//! [`GoKo::first_cycle`]); the printed graph, its labels `k{i}` and every
//! line are the same as when each line was stored as strings. The mirror
//! symmetry of the search is not used to merge nodes: a position and its
//! mirror image have the same value, but as nodes of a ko graph they are
//! different positions (a line from one to the other repeats nothing, so
//! the ko rule must not treat it as a repetition), and the printed graph
//! would change. The symmetry still serves the table of the search that
//! evaluates the positions the walk meets, so mirror images are evaluated
//! once, and the walk itself: a position it meets for the first time
//! whose mirror image it met (`Met::get_kid_image`, the table's slots of
//! the images looked up beside the position's own) is what the image is,
//! a node (numbered when the walk first meets it, as any node) or ko-free
//! with the image's value, and the search is not asked (it would find the
//! image's entry in its table: the same answer). Only the symmetries that
//! send the component and the stones off it to themselves are used
//! (`Region::symmetries_of`); on the open 3 × 5 area the walk then asks
//! the search about 2.7 million positions instead of 8 million
//! (BENCHMARKS.md, "Big regions, session 12").
//!
//! **Two threads.** With `SearchOptions::graph_threads` (or `threads`) ≥ 2
//! a graph of [`PARALLEL_NODES`] nodes or more is built in two ranges of
//! nodes on two threads, neither touching the store, and joined
//! (`Search::graph_builder`, which argues why the graph, the games
//! made and their order are those of one thread). On the open
//! 3 × 5 area step 2 is about a tenth of the time; the walk of step 1
//! (over four fifths) stays on one thread: it numbers the nodes in the
//! order of one depth-first walk and asks the search, one position at a
//! time, whether each position it meets reaches a cycle (BENCHMARKS.md,
//! "Open areas of 15–16 points, session 8"). With `threads` ≥ 2 the
//! search's helper thread (`Search::with_helper`) goes on during the walk,
//! searching the region exhaustively in the other move order and sending
//! its finished entries, so that many of the walk's questions find their
//! answer in the table instead of a search (on the open 3 × 5 area the
//! calling thread expands 6.3 million positions instead of 7.8 million);
//! it is stopped when the last walk ends (`Search::stop_helper`)
//! (BENCHMARKS.md, "Big regions, session 13").

use super::position::Colour;
use super::search::{bits, mix_masks, prefetch, Board, GoError, KoRule, Search};
use crate::game::{CgError, GameExporter, GameId, Store};
use crate::ko::{
    plus_gain, Component, GainIndices, KoGraph, KoGraphBuilder, NodeId, PackedTarget, Side, Target,
};
use crate::prehashed::Prehashed;
use crate::render::Style;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::atomic::Ordering;

/// The largest ko graph [`GoValue::resolve_latent`] tries (the rule's
/// komaster analyses grow with the graph).
pub const LATENT_NODE_LIMIT: usize = 5_000;

/// The value of a Go position: a short game, or one with kos.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoValue {
    /// No line of play repeats a position (or a superko rule forbids every
    /// repetition): an ordinary canonical short game.
    Short(GameId),
    /// The region holds kos: the sum of `short` (its ko-free components) and
    /// one ko graph per component in which a position can repeat. A number
    /// part is folded into the first graph (its terminal games shifted), so
    /// `short` is 0 unless some ko-free component is not a number.
    Ko { kos: Vec<GoKo>, short: GameId },
}

/// The ko graph of one component of a region, with what each node stands
/// for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoKo {
    /// Nodes `k0` (the position searched), `k1`, … in the order a
    /// depth-first walk (points in order, Black's move before White's)
    /// first meets them. Shared, not copied, by the values made from it
    /// ([`GoValue::components`]).
    pub graph: Rc<KoGraph>,
    /// For each node, the points scored along its line (φ, its potential):
    /// the node denotes φ plus the value of its position (module docs).
    /// Four bytes a node (a graph of millions of nodes keeps them): the
    /// walk refuses a line whose φ leaves `i32`.
    pub potentials: Vec<i32>,
    /// For each node, Black's moves minus White's moves on its line (the tax
    /// that chilling charges; see [`GoValue::chill`]); at most the line's
    /// length, below 2³¹ as the node numbers are.
    pub moves: Vec<i32>,
    /// The walk's lines, kept as moves and named only when asked
    /// ([`GoKo::line`]).
    walk: Rc<WalkLines>,
}

/// The lines of the depth-first walk as a tree: each node's line is the line
/// of the node the walk came from plus one move. Moves are a colour and a
/// region bit; the names of the points are taken once, when the graph is
/// built, so a line costs nothing until it is written out.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WalkLines {
    /// For each node but the root: the node the walk came from and the move.
    parent: Vec<Option<(u32, Colour, u8)>>,
    /// The first edge found that closes a cycle: the node it leaves, the
    /// move, and the depth where the repeated position first stood on the
    /// line.
    cycle: Option<(u32, Colour, u8, usize)>,
    /// The name of each region bit's point (as in move strings; empty for
    /// bits of no point of the component).
    names: Vec<String>,
}

impl WalkLines {
    fn name(&self, colour: Colour, bit: u8) -> String {
        format!("{} {}", colour.letter(), self.names[bit as usize])
    }

    fn line(&self, node: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut at = node;
        while let Some((from, colour, bit)) = self.parent[at] {
            out.push(self.name(colour, bit));
            at = from as usize;
        }
        out.reverse();
        out
    }
}

/// A [`GoValue`] taken out of its store ([`GoValue::detach`]), to be
/// rebuilt in another one ([`DetachedGoValue::attach`]), possibly on
/// another thread: its games are indices into the [`crate::game::GameExport`]
/// it was written to (held in the place of ids), its graphs are plain data.
#[derive(Clone, Debug)]
pub enum DetachedGoValue {
    Short(u32),
    Ko { kos: Vec<DetachedKo>, short: u32 },
}

/// A [`GoKo`] out of its store: the graph's terminal games are export
/// indices.
#[derive(Clone, Debug)]
pub struct DetachedKo {
    graph: KoGraph,
    potentials: Vec<i32>,
    moves: Vec<i32>,
    walk: WalkLines,
}

impl DetachedGoValue {
    /// The value in the store whose ids of the export's games are `ids`
    /// (from [`Store::import`]): equal, part for part, to the value detached.
    pub fn attach(self, ids: &[GameId]) -> GoValue {
        let id = |i: u32| ids[i as usize];
        match self {
            DetachedGoValue::Short(g) => GoValue::Short(id(g)),
            DetachedGoValue::Ko { kos, short } => GoValue::Ko {
                kos: kos
                    .into_iter()
                    .map(|mut k| {
                        let Ok(()) = k
                            .graph
                            .map_games(|_, _, g| Ok::<_, std::convert::Infallible>(id(g.0)));
                        GoKo {
                            graph: Rc::new(k.graph),
                            potentials: k.potentials,
                            moves: k.moves,
                            walk: Rc::new(k.walk),
                        }
                    })
                    .collect(),
                short: id(short),
            },
        }
    }
}

impl GoValue {
    /// The value out of its store, its games written to `export` (see
    /// [`DetachedGoValue`]).
    pub fn detach(&self, export: &mut GameExporter<'_>) -> DetachedGoValue {
        match self {
            GoValue::Short(g) => DetachedGoValue::Short(export.add(*g)),
            GoValue::Ko { kos, short } => DetachedGoValue::Ko {
                kos: kos
                    .iter()
                    .map(|k| {
                        let mut graph = (*k.graph).clone();
                        let Ok(()) = graph.map_games(|_, _, g| {
                            Ok::<_, std::convert::Infallible>(GameId(export.add(g)))
                        });
                        DetachedKo {
                            graph,
                            potentials: k.potentials.clone(),
                            moves: k.moves.clone(),
                            walk: (*k.walk).clone(),
                        }
                    })
                    .collect(),
                short: export.add(*short),
            },
        }
    }
}

impl GoValue {
    /// The short game, or [`GoError::Ko`] naming a line that repeats a
    /// position.
    pub fn into_short(self) -> Result<GameId, GoError> {
        match self {
            GoValue::Short(g) => Ok(g),
            GoValue::Ko { kos, .. } => {
                let (line, cycle_start) = kos[0].first_cycle();
                Err(GoError::Ko { line, cycle_start })
            }
        }
    }

    /// The short game, if the value has no ko.
    pub fn as_short(&self) -> Option<GameId> {
        match self {
            GoValue::Short(g) => Some(*g),
            GoValue::Ko { .. } => None,
        }
    }

    /// The ko graph, if the value is exactly one ko graph (one component
    /// with kos, every other component a number).
    pub fn as_ko(&self, store: &Store) -> Option<&GoKo> {
        match self {
            GoValue::Ko { kos, short } if kos.len() == 1 && *short == store.zero() => Some(&kos[0]),
            _ => None,
        }
    }

    /// The value as a sum of components for the ko solver.
    pub fn components(&self, store: &Store) -> Vec<Component> {
        match self {
            GoValue::Short(g) => vec![Component::Short(*g)],
            GoValue::Ko { kos, short } => {
                let mut out: Vec<Component> =
                    kos.iter().map(|k| Component::ko(k.graph.clone())).collect();
                if *short != store.zero() {
                    out.push(Component::Short(*short));
                }
                out
            }
        }
    }

    /// The chilled value (Mathematical Go's tax of one point per move).
    ///
    /// A short game is chilled by [`Store::chill`]. A ko graph is chilled
    /// move by move: the chilled node `P` is `{Q − 1 | R + 1}` over its
    /// options as for short games, with no exception for temperatures below
    /// 1 inside the graph (that exception of cooling is about numbers, and a
    /// node is not one). Since chilling is additive and leaves numbers
    /// alone, an option `g + Q` becomes `g − 1 + chill(Q)` for Black and
    /// `g + 1 + chill(Q)` for White: every move inside the graph gets a gain
    /// of −1 (Black) or +1 (White) more. So that the graph keeps the gains
    /// of the unchilled one on the walk's edges, node `P` of the chilled
    /// graph denotes `chill(P) − m(P)`, `m(P)` being Black's moves minus
    /// White's moves on its line ([`GoKo::moves`]): an edge from `P` to `Q`
    /// by Black gets `g + m(Q) − m(P) − 1` (so `g` on the walk's edges), by
    /// White `g + m(Q) − m(P) + 1`, and a terminal game `T` reached by a
    /// move of Black from `P` becomes `chill(T) − (m(P) + 1)` and one
    /// reached by White `chill(T) − (m(P) − 1)`. The root has `m = 0`, so
    /// the chilled root is the chilled value itself. A cycle with unequal
    /// numbers of Black and White moves (possible under area scoring, where
    /// it scores nothing unchilled) gets a non-zero gain. For the simple ko
    /// `{b | {k | w}}` (Black has just captured) this gives
    /// `{chill(b) − 1 | {k | chill(w) + 2}}`: the swing drops by 3 and the
    /// komaster temperature by 1, as chilling must.
    pub fn chill(&self, store: &mut Store) -> Result<GoValue, GoError> {
        match self {
            GoValue::Short(g) => Ok(GoValue::Short(store.chill(*g)?)),
            GoValue::Ko { kos, short } => {
                let kos = kos
                    .iter()
                    .map(|k| k.chill(store))
                    .collect::<Result<Vec<_>, _>>()?;
                let short = store.chill(*short)?;
                Ok(GoValue::Ko { kos, short })
            }
        }
    }

    /// The value with its latent kos resolved ([`crate::ko::latent`]): when
    /// every ko graph satisfies the rule there, the short game, the sum of
    /// each graph's game of correct play and the ko-free rest (exact in
    /// every sum of short games and ko threats, by the theorem there, which
    /// covers several graphs replaced at once); otherwise the value as it
    /// is. A graph of more than [`LATENT_NODE_LIMIT`] nodes is not tried
    /// and stays. Applied to the graphs as given: a chilled value's graphs
    /// are decided chilled.
    pub fn resolve_latent(&self, store: &mut Store) -> Result<GoValue, GoError> {
        let GoValue::Ko { kos, short } = self else {
            return Ok(self.clone());
        };
        let mut sum = *short;
        for k in kos {
            if k.graph.len() > LATENT_NODE_LIMIT {
                return Ok(self.clone());
            }
            match crate::ko::latent::latent(store, &k.graph)? {
                crate::ko::latent::Latent::Short(g) => sum = store.add(sum, g)?,
                crate::ko::latent::Latent::Live { .. } => return Ok(self.clone()),
            }
        }
        Ok(GoValue::Short(sum))
    }

    /// The value printed: the game, or the ko graphs (labelled loopy
    /// notation) and the short part, joined by ` + `.
    pub fn format(&self, store: &mut Store, style: Style) -> Result<String, GoError> {
        match self {
            GoValue::Short(g) => Ok(crate::render::format_game(store, *g, style)?),
            GoValue::Ko { kos, short } => {
                let mut parts = Vec::new();
                for k in kos {
                    parts.push(k.graph.format(store, style).map_err(GoError::KoGraph)?);
                }
                if *short != store.zero() {
                    parts.push(crate::render::format_game(store, *short, style)?);
                }
                Ok(parts.join(" + "))
            }
        }
    }
}

impl GoKo {
    /// A line that repeats a position: the first cycle the depth-first walk
    /// closed, as the moves from the position searched and the index in
    /// them where the cycle starts.
    pub fn first_cycle(&self) -> (Vec<String>, usize) {
        match self.walk.cycle {
            Some((from, colour, bit, depth)) => {
                let mut line = self.walk.line(from as usize);
                line.push(self.walk.name(colour, bit));
                (line, depth)
            }
            None => (Vec::new(), 0),
        }
    }

    /// The line of moves from the position searched by which the
    /// depth-first walk first reached node `node` (written as in move
    /// strings; empty for the root).
    pub fn line(&self, node: NodeId) -> Vec<String> {
        self.walk.line(node.index())
    }

    /// [`GoKo::line`] of every node, in node order.
    pub fn lines(&self) -> Vec<Vec<String>> {
        (0..self.walk.parent.len())
            .map(|i| self.walk.line(i))
            .collect()
    }

    /// The chilled graph ([`GoValue::chill`]): the same nodes and moves, so
    /// [`KoGraph::retaxed`] with the potentials `m` and a tax of 1 (it says
    /// why the result needs no new check). Each short game is chilled once.
    fn chill(&self, store: &mut Store) -> Result<GoKo, GoError> {
        let mut chilled = FxHashMap::default();
        let moves: Vec<i64> = self.moves.iter().map(|&m| i64::from(m)).collect();
        let graph = self.graph.retaxed(&moves, 1, |gain, x, k| {
            let c = chill_terminal(store, &mut chilled, x, k)?;
            plus_gain(store, gain.clone(), c)
        })?;
        Ok(GoKo {
            graph: Rc::new(graph),
            potentials: self.potentials.clone(),
            moves: self.moves.clone(),
            walk: self.walk.clone(),
        })
    }
}

// ----- step 1: the position graph --------------------------------------------

/// Where a move leads.
#[derive(Copy, Clone, Debug)]
enum To {
    /// A node: a position that reaches a cycle (its number).
    Board(u32),
    /// A ko-free position: its value (what it scores from then on).
    Game(GameId),
}

/// A move of the position graph, as [`BoardGraph::edges`] gives it:
/// where it leads, what it scores at once (Black positive) and who plays it.
#[derive(Copy, Clone, Debug)]
struct Edge {
    to: To,
    gain: i16,
    colour: Colour,
}

impl Edge {
    fn to(&self) -> To {
        self.to
    }
}

/// A move of a position being explored: the position it leads to and its
/// immortal stones (see [`Stash`]), what it scores, and what `met` said of
/// it when the moves were generated.
#[derive(Clone, Copy)]
struct Kid {
    child: u64,
    imm: u64,
    gain: i32,
    colour: Colour,
    p: u8,
    found: Option<To>,
}

/// How the walk keeps the positions of the moves not yet followed: when
/// the region's bits allow, each mask packed into one word (Black's stones
/// beside White's, as `Met::Packed`'s keys); otherwise the position and its
/// immortal stones in `wide`, the kid holding their index.
struct Stash {
    span: u32,
    packed: bool,
    wide: Vec<(Board, [u128; 2])>,
}

impl Stash {
    fn new(span: u32) -> Stash {
        Stash {
            span,
            packed: span <= 32,
            wide: Vec::new(),
        }
    }

    fn put(&mut self, child: Board, imm: [u128; 2]) -> (u64, u64) {
        if self.packed {
            let pack = |m: [u128; 2]| (m[0] | m[1] << self.span) as u64;
            (pack(child.stones), pack(imm))
        } else {
            self.wide.push((child, imm));
            ((self.wide.len() - 1) as u64, 0)
        }
    }

    fn get(&self, child: u64, imm: u64) -> (Board, [u128; 2]) {
        if self.packed {
            let low = (1u64 << self.span) - 1;
            let unpack = |w: u64| [u128::from(w & low), u128::from(w >> self.span)];
            (
                Board {
                    stones: unpack(child),
                },
                unpack(imm),
            )
        } else {
            self.wide[child as usize].clone()
        }
    }
}

/// Not on the walk's current line (see [`BoardGraph::on_path`]).
const OFF_PATH: u32 = u32::MAX;

/// The positions of one loopy component that reach a cycle, and their
/// moves.
struct BoardGraph {
    /// Where each move leads (a ko-free position as its value), position
    /// by position in the order of their numbers, each position's Black
    /// moves first and then White's, each in the order of its points: the
    /// order of the ko graph's options, so that step 2 makes the graph's
    /// targets of this array in place (the walk's edges and the graph's
    /// options are not held side by side).
    targets: Vec<PackedTarget>,
    /// What each move scores at once (Black positive; at most the region's
    /// 128 points), beside its target: an `i16`'s bits, so that step 2
    /// writes each option's gain index (`u16`) over it (`range_options`)
    /// and the graph keeps this array as its gain indices.
    gains: Vec<u16>,
    /// For each position, where its moves start in `targets` and how many
    /// are Black's and White's. A position's moves are given room when the
    /// walk first meets it, so each position's follow the previous one's.
    moves_of: Vec<(u32, u16, u16)>,
    /// For each position but the root, the position the depth-first walk
    /// came from when it first met it and the move (colour, region bit):
    /// its line is that position's line plus the move.
    parent: Vec<Option<(u32, Colour, u8)>>,
    /// For each position, the points scored along its line (φ) and Black's
    /// moves minus White's on it (m), four bytes each (as
    /// [`GoKo::potentials`]).
    phi: Vec<i32>,
    m: Vec<i32>,
    /// For each position, its depth on the walk's current line, or
    /// [`OFF_PATH`].
    on_path: Vec<u32>,
    /// The moves of the positions on the walk's current line not yet
    /// followed (see `explore`), each position's after its parent's (one
    /// buffer for the whole walk).
    kids: Vec<Kid>,
    /// Their positions.
    stash: Stash,
    /// The first edge found that closes a cycle: the position it leaves,
    /// the move, and the depth where the repeated position first stood on
    /// the line.
    cycle: Option<(u32, Colour, u8, usize)>,
}

impl BoardGraph {
    /// The gain of the ko graph's edge from node `i` to node `q` for a move
    /// of `colour` that scores `gain`: the score relative to the potentials,
    /// and when chilled the tax of the move (module docs).
    fn edge_gain<const CHILL: bool>(&self, i: usize, q: usize, gain: i64, colour: Colour) -> i64 {
        let (phi, m) = (
            |v: usize| i64::from(self.phi[v]),
            |v: usize| i64::from(self.m[v]),
        );
        let mut d = phi(i) + gain - phi(q);
        if CHILL {
            d += m(q) - (m(i) + colour.sign());
        }
        d
    }

    fn len(&self) -> usize {
        self.moves_of.len()
    }

    /// Fails when the walk's arrays or its table of positions met would
    /// grow past the memory limit before the next node's check: a position
    /// adds up to 256 moves (two on each of the region's points) and as
    /// many positions met, and an array doubles in one allocation
    /// (BENCHMARKS.md, "Memory limit, session 16").
    fn check_growth(&self, met: &Met) -> Result<(), crate::limits::Exceeded> {
        use crate::limits::{table_growth_by, vec_growth, vec_growth_by};
        const MOVES: usize = 256;
        let met = match met {
            Met::Dense { .. } => None,
            Met::Packed(map) => table_growth_by("ko walk's table", map, MOVES),
            Met::Full(map) => table_growth_by("ko walk's table", map, MOVES),
        };
        let due = [
            met,
            vec_growth_by("ko walk's moves", &self.targets, MOVES),
            vec_growth_by("ko walk's gains", &self.gains, MOVES),
            vec_growth("ko walk's positions", &self.moves_of),
            vec_growth("ko walk's lines", &self.parent),
            vec_growth("ko walk's scores", &self.phi),
            vec_growth("ko walk's scores", &self.m),
            vec_growth("ko walk's line depths", &self.on_path),
        ];
        for g in due.into_iter().flatten() {
            g.check()?;
        }
        Ok(())
    }

    /// The moves of position `i`: Black's, then White's.
    fn edges(&self, i: usize) -> impl Iterator<Item = Edge> + '_ {
        let (start, black, white) = self.moves_of[i];
        let (start, black) = (start as usize, usize::from(black));
        (start..start + black + usize::from(white)).map(move |j| Edge {
            to: match self.targets[j].get() {
                Target::Node(q) => To::Board(q.0),
                Target::Game(g) => To::Game(g),
            },
            gain: self.gains[j] as i16,
            colour: match j - start < black {
                true => Colour::Black,
                false => Colour::White,
            },
        })
    }
}

/// Where the moves of the walk led: the positions met (nodes and ko-free
/// positions).
///
/// The walk's positions differ only on the points of its component (moves
/// and captures stay inside it), so a component of at most
/// [`DENSE_POINTS`] points whose boards pack into one word gets a slot for
/// each of the 3ⁿ ways to fill its points ([`Met::Dense`]): no key is
/// stored or compared, and the table is half the size of a hash table
/// of the same positions, so it stays in the cache more (the
/// lookups of the walk were its largest cost in wall time). Larger
/// components are keyed by the board, packed into one word when the
/// region's bits allow.
enum Met {
    Dense {
        /// What each bit of a packed board (`black | white << span`) adds
        /// to its slot: the `i`-th point of the component (lowest bit
        /// first) is a ternary digit, 3^i for a Black stone and 2 · 3^i for
        /// a White one; the other bits add nothing (they are the same in
        /// every position of the walk). So distinct fillings of the
        /// component's points have distinct slots below 3^|comp|.
        weights: Box<[u32; 64]>,
        /// One word per slot ([`Met::encode`]): 0 for a position not met,
        /// so that the table is allocated zeroed and only the pages of
        /// slots written cost memory.
        slots: Vec<u32>,
        len: usize,
        /// For each symmetry of the walk's positions (`Region::symmetries_of`;
        /// at most [`MAX_IMAGES`]), `weights` read through it: what each bit of a
        /// packed board adds to the slot of the board's image.
        images: Vec<[u32; 64]>,
    },
    Packed(FxHashMap<PackedBoard, To>),
    Full(FxHashMap<FullBoard, To>),
}

/// The most symmetries of a region other than the identity (those of a
/// square: two reflections in the sides, two in the diagonals, three
/// turns).
const MAX_IMAGES: usize = 7;

/// A position's packed board and its slot in [`Met::Dense`], and the
/// slots of its images (unused by the other tables).
#[derive(Copy, Clone)]
struct Near {
    packed: u64,
    slot: usize,
    images: [usize; MAX_IMAGES],
}

/// The most points of a component whose positions [`Met::Dense`] gives a
/// slot each: 3¹⁶ slots of 4 bytes are 172 MB of address space, allocated
/// zeroed, so that only the pages holding positions met are ever touched
/// (the open 4 × 4 area meets 19.5 million of its 43 million, where the
/// hash table held 16 bytes per position and grew by doubling; 3¹⁵ slots,
/// for 3 × 5, are 57 MB).
const DENSE_POINTS: u32 = 16;

/// Black's and White's stones side by side (`black | white << span`).
#[derive(Copy, Clone, PartialEq, Eq)]
struct PackedBoard(u64);

impl std::hash::Hash for PackedBoard {
    /// One multiply–xorshift round per step (the key is one word).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut h = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 29;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        state.write_u64(h ^ (h >> 32));
    }
}

#[derive(Clone, PartialEq, Eq)]
struct FullBoard(Board);

impl std::hash::Hash for FullBoard {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(mix_masks(&self.0.stones));
    }
}

impl Met {
    /// An empty table for the positions of the component `comp`, with
    /// room for about `capacity` of them when it is hashed; `symmetries`,
    /// where each symmetry of the positions sends each bit
    /// (`Region::symmetries_of`), serve [`Met::Dense`] only.
    fn new(
        span: u32,
        comp: u128,
        capacity: usize,
        dense: bool,
        symmetries: &[[usize; 128]],
    ) -> Met {
        let hasher = Default::default();
        let points = comp.count_ones();
        if dense && span <= 32 && points <= DENSE_POINTS {
            let mut weights = Box::new([0u32; 64]);
            let mut power = 1u32;
            for p in bits(comp) {
                weights[p] = power;
                weights[span as usize + p] = 2 * power;
                power *= 3;
            }
            // A stone on bit `p` stands on `to[p]` in the image (a point
            // of `comp` when `p` is).
            let images = symmetries
                .iter()
                .take(MAX_IMAGES)
                .map(|to| {
                    let mut image = [0u32; 64];
                    for p in bits(comp) {
                        image[p] = weights[to[p]];
                        image[span as usize + p] = weights[span as usize + to[p]];
                    }
                    image
                })
                .collect();
            let mut slots = vec![0; 3usize.pow(points)];
            super::search::advise_huge_pages(&mut slots);
            Met::Dense {
                weights,
                slots,
                len: 0,
                images,
            }
        } else if span <= 32 {
            Met::Packed(FxHashMap::with_capacity_and_hasher(capacity, hasher))
        } else {
            Met::Full(FxHashMap::with_capacity_and_hasher(capacity, hasher))
        }
    }

    /// A [`Met::Dense`] slot's word for `to`: a node `i` is `i + 1`, a
    /// game `g` is `g | 2³¹` (0 is an empty slot).
    #[inline]
    fn encode(to: To) -> u32 {
        match to {
            To::Board(i) => {
                assert!(i < 1 << 31, "too many positions for the dense table");
                i + 1
            }
            To::Game(g) => {
                assert!(g.0 < 1 << 31, "too many games for the dense table");
                g.0 | 1 << 31
            }
        }
    }

    /// The entry of a [`Met::Dense`] slot's word ([`Met::encode`]).
    #[inline(always)]
    fn decode(w: u32) -> Option<To> {
        match w {
            0 => None,
            w if w & 1 << 31 != 0 => Some(To::Game(GameId(w & !(1 << 31)))),
            w => Some(To::Board(w - 1)),
        }
    }

    /// The slot of a packed board in [`Met::Dense`].
    fn dense_slot(weights: &[u32; 64], packed: u64) -> usize {
        let (mut slot, mut rest) = (0, packed);
        while rest != 0 {
            slot += weights[rest.trailing_zeros() as usize] as usize;
            rest &= rest - 1;
        }
        slot
    }

    /// The slot in [`Met::Dense`] of a kid (packed board `child`) of the
    /// position `near`: a kid differs from its parent in a few stones (the
    /// one played and those it captured), so its slot is the parent's
    /// changed by their digits.
    #[inline(always)]
    fn kid_slot(weights: &[u32; 64], near: Near, child: u64) -> usize {
        let mut slot = near.slot + Met::dense_slot(weights, child & !near.packed);
        slot -= Met::dense_slot(weights, near.packed & !child);
        debug_assert_eq!(slot, Met::dense_slot(weights, child));
        slot
    }

    /// Where the kids of position `b` are looked up from (see
    /// [`Met::kid_slot`]).
    fn near(&self, span: u32, b: &Board) -> Near {
        match self {
            Met::Dense {
                weights, images, ..
            } => {
                let packed = pack(span, b).0;
                let slot = Met::dense_slot(weights, packed);
                let mut near = Near {
                    packed,
                    slot,
                    images: [0; MAX_IMAGES],
                };
                for (at, image) in near.images.iter_mut().zip(images) {
                    *at = Met::dense_slot(image, packed);
                }
                near
            }
            _ => Near {
                packed: 0,
                slot: 0,
                images: [0; MAX_IMAGES],
            },
        }
    }

    /// The slots in [`Met::Dense`] of the images of a kid (packed board
    /// `child`) of the position `near` (see [`Met::kid_slot`]).
    #[inline(always)]
    fn image_slots(&self, child: u64, near: Near) -> impl Iterator<Item = usize> + '_ {
        let images: &[[u32; 64]] = match self {
            Met::Dense { images, .. } => images,
            _ => &[],
        };
        // `kid_slot` reads only the parent's board and slot. (Written out:
        // `Near { slot, ..near }` here made rustc 1.95's MIR check crash
        // once `images` was sized by a constant.)
        let packed = near.packed;
        images.iter().zip(near.images).map(move |(image, slot)| {
            let at = Near {
                packed,
                slot,
                images: [0; MAX_IMAGES],
            };
            Met::kid_slot(image, at, child)
        })
    }

    /// The entry of an image of a kid's position met before, if any: a
    /// node (the kid is one too, not yet numbered, since the kid itself was
    /// not met) or a ko-free value (the kid's).
    #[inline]
    fn get_kid_image(&self, child: u64, near: Near) -> Option<To> {
        let Met::Dense { slots, .. } = self else {
            return None;
        };
        self.image_slots(child, near)
            .find_map(|slot| Met::decode(slots[slot]))
    }

    /// Asks the memory for the slots of a kid's images (a hint).
    #[inline]
    fn prefetch_kid_images(&self, child: u64, near: Near) {
        if let Met::Dense { slots, .. } = self {
            for slot in self.image_slots(child, near) {
                prefetch(&slots[slot]);
            }
        }
    }

    /// The entry of a kid's position (see [`Stash`]) of the position
    /// `near`.
    #[inline(always)]
    fn get_kid(&self, child: u64, stash: &Stash, near: Near) -> Option<To> {
        match self {
            Met::Dense { weights, slots, .. } => {
                Met::decode(slots[Met::kid_slot(weights, near, child)])
            }
            Met::Packed(map) => map.get(&PackedBoard(child)).copied(),
            Met::Full(map) => map
                .get(&FullBoard(stash.wide[child as usize].0.clone()))
                .copied(),
        }
    }

    /// Asks the memory for the [`Met::Dense`] slot of a kid's position
    /// (a hint, with no effect on the table; the other tables are left to
    /// their own lookups).
    #[inline(always)]
    fn prefetch_kid(&self, child: u64, near: Near) {
        if let Met::Dense { weights, slots, .. } = self {
            prefetch(&slots[Met::kid_slot(weights, near, child)]);
        }
    }

    /// The number of positions met.
    fn len(&self) -> usize {
        match self {
            Met::Dense { len, .. } => *len,
            Met::Packed(map) => map.len(),
            Met::Full(map) => map.len(),
        }
    }

    /// Records the position `b`, not met before, whose slot (if any) is
    /// `near`'s.
    fn insert(&mut self, span: u32, b: &Board, near: Near, to: To) {
        match self {
            Met::Dense { slots, len, .. } => {
                let slot = &mut slots[near.slot];
                debug_assert!(*slot == 0, "a position is met once");
                *slot = Met::encode(to);
                *len += 1;
            }
            Met::Packed(map) => {
                map.insert(pack(span, b), to);
            }
            Met::Full(map) => {
                map.insert(FullBoard(b.clone()), to);
            }
        }
    }

    /// Records a kid's position (as [`Met::get_kid`] finds it), not met
    /// before.
    fn insert_kid(&mut self, child: u64, stash: &Stash, near: Near, to: To) {
        match self {
            Met::Dense {
                weights,
                slots,
                len,
                ..
            } => {
                let slot = &mut slots[Met::kid_slot(weights, near, child)];
                debug_assert!(*slot == 0, "a position is met once");
                *slot = Met::encode(to);
                *len += 1;
            }
            Met::Packed(map) => {
                map.insert(PackedBoard(child), to);
            }
            Met::Full(map) => {
                map.insert(FullBoard(stash.wide[child as usize].0.clone()), to);
            }
        }
    }
}

fn pack(span: u32, b: &Board) -> PackedBoard {
    PackedBoard((b.stones[0] | b.stones[1] << span) as u64)
}

impl Search<'_> {
    /// The value of a region whose components `loopy` reach cycles, the
    /// ko-free rest being `short`. With `chill`, a [`GoValue::Ko`] is made
    /// chilled (each ko graph by [`Search::ko_graph`], the short part by
    /// [`Store::chill`]): the same value as [`GoValue::chill`] of the
    /// unchilled one. A [`GoValue::Short`] is unchilled either way (the
    /// caller chills it, and may keep both).
    pub(super) fn loopy_value(
        &mut self,
        root: &Board,
        short: GameId,
        loopy: &[u128],
        chill: bool,
    ) -> Result<GoValue, GoError> {
        if loopy.is_empty() {
            return Ok(GoValue::Short(short));
        }
        match self.opts.ko_rule.local_reading() {
            KoRule::Basic => {
                let (mut shift, mut rest) = (short, self.store.zero());
                if !self.store.is_number(short) {
                    (shift, rest) = (self.store.zero(), short);
                }
                let mut kos = Vec::with_capacity(loopy.len());
                for (i, &comp) in loopy.iter().enumerate() {
                    let bg = self.board_graph(comp, root)?;
                    if i + 1 == loopy.len() {
                        self.stop_helper();
                    }
                    kos.push(match chill {
                        true => self.ko_graph::<true>(comp, bg, shift)?,
                        false => self.ko_graph::<false>(comp, bg, shift)?,
                    });
                    shift = self.store.zero();
                }
                if chill {
                    rest = self.store.chill(rest)?;
                }
                Ok(GoValue::Ko { kos, short: rest })
            }
            rule => {
                let mut total = short;
                for (i, &comp) in loopy.iter().enumerate() {
                    let bg = self.board_graph(comp, root)?;
                    if i + 1 == loopy.len() {
                        self.stop_helper();
                    }
                    let v = self.unfold_superko(comp, root, &bg, rule)?;
                    total = self.store.add(total, v)?;
                }
                Ok(GoValue::Short(total))
            }
        }
    }

    /// Step 1 (module docs): the positions of `comp` reachable from `root`
    /// that reach a cycle.
    ///
    /// Each position met is evaluated once: `met` keeps the nodes and the
    /// ko-free positions met, with their values. The root is one of the
    /// loopy components of the search, every other node was evaluated as
    /// reaching a cycle, and whether a position reaches a cycle (and its
    /// value when it does not) depends on the position alone (the search's
    /// table holds one entry per position), so a move to a position met
    /// before leads where it led the first time.
    fn board_graph(&mut self, comp: u128, root: &Board) -> Result<BoardGraph, GoError> {
        // Room from the start, so that the tables do not grow by doubling
        // (a rehash each time): the open 3 × 4 areas meet 0.7–0.8 × 3¹²
        // positions, 0.3–0.5 × 3¹² of them nodes, with about 10 moves each.
        // A large allocation only costs the pages written.
        let points = comp.count_ones().min(13);
        let nodes = 3usize.pow(points) / 2;
        let mut bg = BoardGraph {
            targets: Vec::with_capacity(10 * nodes),
            gains: Vec::with_capacity(10 * nodes),
            moves_of: Vec::with_capacity(nodes),
            parent: Vec::with_capacity(nodes),
            phi: Vec::with_capacity(nodes),
            m: Vec::with_capacity(nodes),
            on_path: Vec::with_capacity(nodes),
            kids: Vec::with_capacity(1024),
            stash: Stash::new(self.region.span),
            cycle: None,
        };
        // The mirror images of a position met give the status and value
        // of the position (`Region::symmetries_of`), as the search's own
        // table does.
        let symmetries = match self.opts.symmetry {
            true => self.region.symmetries_of(comp, root),
            false => Vec::new(),
        };
        let dense = self.opts.dense_walk;
        let mut met = Met::new(self.region.span, comp, nodes, dense, &symmetries);
        let imm = self.region.immortal(root);
        self.explore(comp, root, imm, None, 0, 0, 0, &mut bg, &mut met)?;
        Ok(bg)
    }

    /// Adds the position `b` (its immortal stones `b_imm`, as `step` gives
    /// them with the position), reached by the move `parent` (see
    /// [`BoardGraph::parent`]) at depth `depth` with φ = `phi` and m = `m`,
    /// and the positions it reaches; returns its number.
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &mut self,
        comp: u128,
        b: &Board,
        b_imm: [u128; 2],
        parent: Option<(u32, Colour, u8)>,
        depth: u32,
        phi: i64,
        m: i64,
        bg: &mut BoardGraph,
        met: &mut Met,
    ) -> Result<u32, GoError> {
        let id = bg.len();
        // Node numbers are kept in 31 bits (`PackedTarget`) and the places
        // of moves in 32 (`moves_of`); a position has at most 256 moves.
        if id >= 1 << 31 || bg.targets.len() + 256 > u32::MAX as usize {
            return Err(CgError::TooLarge(format!(
                "a ko graph of {id} positions and {} moves (at most 2^31 and 2^32)",
                bg.targets.len()
            ))
            .into());
        }
        bg.moves_of.push((0, 0, 0));
        bg.parent.push(parent);
        // (m is at most the depth, below the 2³¹ nodes checked above.)
        let Ok(phi32) = i32::try_from(phi) else {
            return Err(CgError::TooLarge(format!(
                "a ko graph whose line to position {id} scores {phi} points (at most 2^31)"
            ))
            .into());
        };
        bg.phi.push(phi32);
        bg.m.push(m as i32);
        bg.on_path.push(depth);
        let near = met.near(self.region.span, b);
        met.insert(self.region.span, b, near, To::Board(id as u32));
        self.count_node()?;
        if crate::limits::CHECKS {
            bg.check_growth(met).map_err(|e| GoError::Cg(e.into()))?;
        }
        // The components of `b` (its empty and capturable points in
        // `comp`), kept for its moves: a move that makes no stone immortal
        // leaves the immortal stones, hence the points that are empty or
        // capturable, hence their components, as they were.
        let split = self.split(comp, b_imm);
        let playable = self.playable(comp, b, split.clone());
        // First every move, with a prefetch of the table slot of the
        // position it leads to; then the table's answer for each, in a loop
        // with no other work, so that the lookups (mostly cache misses on
        // the large areas) overlap with the moves and with each other; then
        // the moves in order. An answer found stays true (a position enters
        // `met` once and keeps its entry); a position not found is looked
        // up again, as an earlier move's subtree may have met it since.
        let kids = bg.kids.len();
        let wide = bg.stash.wide.len();
        for p in bits(playable) {
            for colour in [Colour::Black, Colour::White] {
                let Some((child, imm, gain)) = self.step(comp, b, b_imm, colour, p) else {
                    continue;
                };
                let (child, imm) = bg.stash.put(child, imm);
                met.prefetch_kid(child, near);
                // A move scores at most the 128 points of the region.
                let gain = gain as i32;
                bg.kids.push(Kid {
                    child,
                    imm,
                    gain,
                    colour,
                    p: p as u8,
                    found: None,
                });
            }
        }
        for k in kids..bg.kids.len() {
            let kid = bg.kids[k];
            bg.kids[k].found = met.get_kid(kid.child, &bg.stash, near);
            if bg.kids[k].found.is_none() {
                met.prefetch_kid_images(kid.child, near);
                // And the search's table slots of its components, which
                // `eval_short_split` below reads unless an image is met.
                let (child, imm) = bg.stash.get(kid.child, kid.imm);
                if imm == b_imm {
                    for i in split.clone() {
                        self.prefetch(self.split[i], &child);
                    }
                }
            }
        }
        // Room for the moves, Black's first (written as they are followed).
        let n = bg.kids.len() - kids;
        let black = bg.kids[kids..]
            .iter()
            .filter(|kid| kid.colour == Colour::Black)
            .count();
        let start = bg.targets.len();
        bg.targets
            .resize(start + n, PackedTarget::new(Target::Node(NodeId(0))));
        bg.gains.resize(start + n, 0);
        // (A move scores at most the region's 128 points, and a position
        // has at most two moves on each of them.)
        bg.moves_of[id] = (start as u32, black as u16, (n - black) as u16);
        let mut next = [start, start + black];
        let looked = met.len();
        for k in kids..bg.kids.len() {
            // Read in place: the position and its immortal stones are
            // copied out only for a move whose position is evaluated.
            let kid = bg.kids[k];
            let (gain, colour, p) = (kid.gain, kid.colour, kid.p);
            // Nothing met since the first look: the answer stands.
            let found = match kid.found {
                None if met.len() != looked => met.get_kid(kid.child, &bg.stash, near),
                found => found,
            };
            {
                let p = usize::from(p);
                let to = match found {
                    Some(To::Board(i)) => {
                        // Only until the first cycle is found: `on_path` is
                        // read at random, a cache miss on the large areas.
                        if bg.cycle.is_none() {
                            let at = bg.on_path[i as usize];
                            if at != OFF_PATH {
                                bg.cycle = Some((id as u32, colour, p as u8, at as usize));
                            }
                        }
                        To::Board(i)
                    }
                    Some(to) => to,
                    None => {
                        let (child, imm) = bg.stash.get(kid.child, kid.imm);
                        // A position whose image was met is what the image
                        // is: a node, or ko-free with the same value (the
                        // search, asked, would find the image's entry).
                        let v = match met.get_kid_image(kid.child, near) {
                            Some(image) => {
                                self.stats.walk_images += 1;
                                match image {
                                    To::Game(v) => Some(v),
                                    To::Board(_) => None,
                                }
                            }
                            None if imm == b_imm => {
                                self.eval_short_split(split.clone(), &child, imm)?
                            }
                            None => self.eval_short(comp, &child, imm)?,
                        };
                        if let Some(v) = v {
                            met.insert_kid(kid.child, &bg.stash, near, To::Game(v));
                            To::Game(v)
                        } else {
                            let from = Some((id as u32, colour, p as u8));
                            let (phi, m) = (phi + i64::from(gain), m + colour.sign());
                            let i =
                                self.explore(comp, &child, imm, from, depth + 1, phi, m, bg, met)?;
                            To::Board(i)
                        }
                    }
                };
                let j = &mut next[colour.index()];
                bg.targets[*j] = PackedTarget::new(match to {
                    To::Board(i) => Target::Node(NodeId(i)),
                    To::Game(g) => Target::Game(g),
                });
                bg.gains[*j] = gain as i16 as u16;
                *j += 1;
            }
        }
        bg.kids.truncate(kids);
        bg.stash.wide.truncate(wide);
        bg.on_path[id] = OFF_PATH;
        Ok(id as u32)
    }

    /// Step 2 (module docs): the ko graph, one node per position, with the
    /// points each move scores as the gains of its edges; `shift` is added
    /// to every terminal game.
    ///
    /// With `CHILL`, the chilled graph ([`GoValue::chill`]) is made without
    /// making the unchilled one: a move of `colour` (sign `s`: +1 for
    /// Black, −1 for White) from node `i` gets the unchilled gain plus
    /// `m(q) − (m(i) + s)` to node `q`, and the terminal game
    /// `chill(T) − (m(i) + s)` for the unchilled terminal game `T`. That is
    /// what [`GoKo::chill`] makes of the unchilled graph
    /// ([`KoGraph::retaxed`] with the potentials `m` and a tax of 1): the
    /// same options in the same order, so the same gains are interned in
    /// the same order and the two graphs are equal, array for array. The
    /// gains are written as the graph is built; the terminal games are
    /// chilled in place once it is built and the walk's edges are freed
    /// ([`KoGraph::map_games`]), so that the games chilling adds to the
    /// store do not add to the memory the walk's edges and the graph take
    /// together. (`CHILL` is a constant, so that the unchilled graph pays
    /// nothing for it.)
    fn ko_graph<const CHILL: bool>(
        &mut self,
        comp: u128,
        mut bg: BoardGraph,
        shift: GameId,
    ) -> Result<GoKo, GoError> {
        let threads = self.opts.threads.max(self.opts.graph_threads);
        // (Under a step limit that the graph could reach, one thread, so
        // that the limit stops the loop where it always did.)
        // The walk's line is of no use from here on: its memory goes before
        // the graph's arrays grow (the peak is while they and the walk's
        // edges are both held).
        bg.on_path = Vec::new();
        let halves =
            threads > 1 && bg.len() >= PARALLEL_NODES && self.store.steps_left() > bg.len() as u64;
        let builder = self.graph_builder::<CHILL>(&mut bg, shift, halves, NARROW_GAINS)?;
        // The rest of the walk's edges go before the graph is checked, so
        // that the check's own arrays (a few bytes a node) do not add to
        // the peak.
        bg.moves_of = Vec::new();
        // A player's own moves alone never repeat a position: each adds a
        // stone of his and removes none of his.
        let mut graph = builder
            .build_one_player_acyclic(NodeId(0))
            .map_err(GoError::KoGraph)?;
        if CHILL {
            // The terminal games chilled and taxed, by unchilled game and
            // tax `m(i) + s` (many moves share them), as `GoKo::chill` does.
            let m = &bg.m;
            let mut chilled = FxHashMap::default();
            graph.map_games(|v, side, x| {
                // Left is Black.
                let s = match side {
                    Side::Left => 1,
                    Side::Right => -1,
                };
                Ok::<_, GoError>(chill_terminal(
                    self.store,
                    &mut chilled,
                    x,
                    i64::from(m[v.index()]) + s,
                )?)
            })?;
        }
        let names = (0..128)
            .map(|bit| match comp >> bit & 1 {
                1 => self.pos.point_name(self.region.points[bit]),
                _ => String::new(),
            })
            .collect();
        // The walk sized these for the most positions it could meet; a
        // value keeps them (and may live all session), so only what is used.
        let (mut phi, mut m, mut parent) = (bg.phi, bg.m, bg.parent);
        phi.shrink_to_fit();
        m.shrink_to_fit();
        parent.shrink_to_fit();
        Ok(GoKo {
            graph: Rc::new(graph),
            potentials: phi,
            moves: m,
            walk: Rc::new(WalkLines {
                parent,
                cycle: bg.cycle,
                names,
            }),
        })
    }

    /// The options of step 2 (`Search::ko_graph`), made of the walk's
    /// edges in place: each node's options are its moves in the walk's
    /// order (Black's, the Left options, then White's), a move to a node
    /// keeping its target with the gain relative to the potentials, a move
    /// to a ko-free position of value `v` scoring `g` becoming the terminal
    /// game `φ + g + v + shift`; the gains are interned 0 first, the
    /// others in the order the options meet them, as
    /// [`KoGraphBuilder::numbered_node_integer`] interns them node by node.
    ///
    /// With `halves` the nodes are cut in two ranges of about as many
    /// options, the second made on a helper thread: each range is made by
    /// [`range_options`] without the store (a terminal game named by its
    /// (points scored, ko-free value) pair, numbered in the order the range
    /// meets it, and a gain by its number in the range's own table, in the
    /// order met). Either way this thread then goes through the first
    /// range's pairs and then the second's, making each pair's game once
    /// (`integer(score) + value + shift`, memoised by pair): the order in
    /// which the options meet them, so the store makes the same games in
    /// the same order on one thread or two. The gains likewise: the first
    /// range's table is the start of the graph's (both begin with 0 and
    /// list gains in the order met), and the second range's gains not in it
    /// follow in the second range's order. Every option's target and gain
    /// is then renamed. One store step is charged per node (on one thread
    /// by a `tick` per node, on two all at once); the helper polls the
    /// interrupt flag and the memory limit. If the thread cannot start, the
    /// second range is made here.
    ///
    /// The gain indices are written over the walk's gains, two bytes each,
    /// and that array becomes the graph's (no third array of the options
    /// beside the targets and the walk's gains: BENCHMARKS.md, "Big
    /// regions, session 12"), while there are at most `narrow` distinct
    /// gains ([`NARROW_GAINS`], the most two bytes can name; fewer in a
    /// test, to take the other path); past that a range goes on in a
    /// four-byte array of its own, and so does the graph.
    fn graph_builder<const CHILL: bool>(
        &mut self,
        bg: &mut BoardGraph,
        shift: GameId,
        halves: bool,
        narrow: usize,
    ) -> Result<KoGraphBuilder, GoError> {
        debug_assert!((1..=NARROW_GAINS).contains(&narrow));
        let n = bg.len();
        let mut targets = std::mem::take(&mut bg.targets);
        let mut gains = std::mem::take(&mut bg.gains);
        let bg = &*bg;
        let total = targets.len();
        // The cut: the first node whose moves start after half of them
        // (`n`: one range).
        let cut = match halves {
            true => (1..n)
                .find(|&i| bg.moves_of[i].0 as usize >= total / 2)
                .unwrap_or(n - 1),
            false => n,
        };
        let split = match cut < n {
            true => bg.moves_of[cut].0 as usize,
            false => total,
        };
        let (first, second) = match halves {
            true => {
                let flag = self.store.interrupt_flag();
                let flag = flag.as_deref();
                let poll = |i: usize| -> Result<(), GoError> {
                    if i.is_multiple_of(1024) {
                        if flag.is_some_and(|f| f.load(Ordering::Relaxed)) {
                            return Err(GoError::Cg(CgError::Interrupted));
                        }
                        crate::limits::check_memory().map_err(|e| GoError::Cg(e.into()))?;
                    }
                    Ok(())
                };
                let (low, high) = targets.split_at_mut(split);
                let (low_gains, high_gains) = gains.split_at_mut(split);
                let (first, second) = std::thread::scope(|scope| {
                    let helper = std::thread::Builder::new()
                        .name("yose-ko-graph".into())
                        .spawn_scoped(scope, move || {
                            let range = (cut..n, high, high_gains);
                            range_options::<CHILL>(bg, range, narrow, 0, &mut { poll })
                        });
                    let range = (0..cut, low, low_gains);
                    let first = range_options::<CHILL>(bg, range, narrow, total, &mut { poll });
                    let second = helper.ok().map(|h| {
                        h.join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    });
                    (first, second)
                });
                let second = match second {
                    Some(second) => second,
                    None => {
                        let range = (cut..n, &mut targets[split..], &mut gains[split..]);
                        range_options::<CHILL>(bg, range, narrow, 0, &mut { poll })
                    }
                };
                let (first, second) = (first?, second?);
                // The loop's one step per node: n − 1 counted, the last taken.
                self.store.add_steps(n as u64 - 1);
                self.store.tick()?;
                (first, second)
            }
            false => {
                let store = &mut *self.store;
                let mut tick = |_| store.tick().map_err(GoError::from);
                let range = (0..n, &mut targets[..], &mut gains[..]);
                let first = range_options::<CHILL>(bg, range, narrow, total, &mut tick)?;
                (first, RangeOptions::default())
            }
        };
        let mut first = first;
        // The terminal games, range by range, in the order met.
        let zero = self.store.zero();
        let mut terminal: FxHashMap<(i64, GameId), GameId> = FxHashMap::default();
        let mut games = |search: &mut Self, pairs: &[(i64, GameId)]| {
            pairs
                .iter()
                .map(|&(score, g)| match terminal.get(&(score, g)) {
                    Some(&v) => Ok(v),
                    None => {
                        let x = search.integer(score);
                        let mut v = search.store.add(x, g)?;
                        if shift != zero {
                            v = search.store.add(v, shift)?;
                        }
                        terminal.insert((score, g), v);
                        Ok(v)
                    }
                })
                .collect::<Result<Vec<GameId>, GoError>>()
        };
        let games_first = games(self, &first.terminals)?;
        let games_second = games(self, &second.terminals)?;
        let rename = |targets: &mut [PackedTarget], games: &[GameId]| {
            for t in targets {
                if let Target::Game(k) = t.get() {
                    *t = PackedTarget::new(Target::Game(games[k.0 as usize]));
                }
            }
        };
        rename(&mut targets[..split], &games_first);
        rename(&mut targets[split..], &games_second);
        // The gains: the first range's table, then the second's new ones.
        let mut gain_values = std::mem::take(&mut first.gain_values);
        let index: FxHashMap<i64, u32> = gain_values
            .iter()
            .enumerate()
            .map(|(i, &g)| (g, i as u32))
            .collect();
        let gains_second: Vec<u32> = second
            .gain_values
            .iter()
            .map(|&g| match index.get(&g) {
                Some(&i) => i,
                None => {
                    gain_values.push(g);
                    (gain_values.len() - 1) as u32
                }
            })
            .collect();
        let gains = match (first.wide, second.wide) {
            (None, None) if gain_values.len() <= narrow => {
                // Every index fits in two bytes (`narrow` ≤ 2¹⁶).
                for k in &mut gains[split..] {
                    *k = gains_second[usize::from(*k)] as u16;
                }
                GainIndices::Narrow(gains)
            }
            (first_wide, second_wide) => {
                let mut wide = first_wide
                    .unwrap_or_else(|| gains[..split].iter().map(|&k| u32::from(k)).collect());
                match second_wide {
                    Some(second) => {
                        wide.extend(second.iter().map(|&k| gains_second[k as usize]));
                    }
                    None => {
                        let second = &gains[split..];
                        wide.extend(second.iter().map(|&k| gains_second[usize::from(k)]));
                    }
                }
                GainIndices::Wide(wide)
            }
        };
        let mut bounds = Vec::with_capacity(2 * n + 1);
        bounds.push(0);
        for &(start, black, white) in &bg.moves_of {
            // (Below 2³², as the walk checks.)
            let black = start + u32::from(black);
            bounds.extend([black, black + u32::from(white)]);
        }
        Ok(KoGraphBuilder::from_numbered_integer_arrays(
            bounds,
            targets,
            gains,
            &gain_values,
        ))
    }

    /// Step 3 (module docs): the short value under a superko rule. A line's
    /// history is a sorted list of (board, tag) entries, the root's included,
    /// and the positions of the line before the root
    /// ([`Search::history`], `evaluate_go_with_history`) that are nodes of
    /// the graph: an earlier position that is no node can never recur (a
    /// position the root reaches and that reaches the root reaches a
    /// cycle, so it is a node).
    fn unfold_superko(
        &mut self,
        comp: u128,
        root: &Board,
        bg: &BoardGraph,
        rule: KoRule,
    ) -> Result<GameId, GoError> {
        let scc = sccs(bg);
        let mut memo = SuperkoMemo::default();
        let tag = |c: Colour| -> u8 {
            match rule {
                KoRule::SituationalSuperko => 1 + c.index() as u8,
                _ => 0,
            }
        };
        // The root: positionally it has occurred; situationally, before
        // Black's move it is as if White had just moved, and vice versa.
        // A root whose creator is known (`Search::root_by`) is tagged so
        // for both.
        let mut left_hist = vec![(0, tag(self.root_by.unwrap_or(Colour::White)))];
        let mut right_hist = vec![(0, tag(self.root_by.unwrap_or(Colour::Black)))];
        if !self.history.is_empty() {
            // The nodes' boards, rebuilt along the walk's first lines (a
            // node's parent is numbered before it).
            let mut boards: Vec<(Board, [u128; 2])> = Vec::with_capacity(bg.len());
            boards.push((root.clone(), self.region.immortal(root)));
            for i in 1..bg.len() {
                let (from, colour, p) = bg.parent[i].expect("every node but the root has a parent");
                let (b, imm) = &boards[from as usize];
                let (child, imm, _) = self
                    .step(comp, b, *imm, colour, usize::from(p))
                    .expect("the walk's move is legal");
                boards.push((child, imm));
            }
            let node_of: FxHashMap<&Board, usize> = boards
                .iter()
                .enumerate()
                .map(|(i, (b, _))| (b, i))
                .collect();
            for (b, by) in &self.history {
                let Some(&q) = node_of.get(b) else { continue };
                // Under positional superko every earlier position counts;
                // situationally only one created by a board play
                // (`evaluate_go_with_history` keeps no other).
                let t = match (rule, by) {
                    (KoRule::SituationalSuperko, Some(c)) => tag(*c),
                    (KoRule::SituationalSuperko, None) => continue,
                    _ => 0,
                };
                for hist in [&mut left_hist, &mut right_hist] {
                    if let Err(i) = hist.binary_search(&(q, t)) {
                        hist.insert(i, (q, t));
                    }
                }
            }
        }
        let l = self.superko_options(bg, &scc, &mut memo, rule, 0, &left_hist)?[0].clone();
        let r = self.superko_options(bg, &scc, &mut memo, rule, 0, &right_hist)?[1].clone();
        Ok(self.store.canonical(l, r)?)
    }

    fn superko_options(
        &mut self,
        bg: &BoardGraph,
        scc: &[usize],
        memo: &mut SuperkoMemo,
        rule: KoRule,
        board: usize,
        hist: &[(usize, u8)],
    ) -> Result<[Vec<GameId>; 2], GoError> {
        self.count_node()?;
        let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for e in bg.edges(board) {
            let g = self.store.integer(i64::from(e.gain));
            let v = match e.to() {
                To::Game(v) => v,
                To::Board(q) => {
                    let q = q as usize;
                    let t = match rule {
                        KoRule::SituationalSuperko => 1 + e.colour.index() as u8,
                        _ => 0,
                    };
                    // The history stays sorted: the entry for `q` goes in
                    // at its place (sized once, no sort).
                    let mut next: Vec<(usize, u8)> = Vec::with_capacity(hist.len() + 1);
                    // Components are numbered successors first, so a
                    // position `q` can reach only those of components
                    // numbered at most its own. A position of the line
                    // reaches `q`: it is kept when it is in `q`'s
                    // component. An earlier position (before the root)
                    // may have reached the root by moves the local game
                    // does not make (in a game, a play in a settled
                    // area), so it is kept while `q` may still reach it.
                    next.extend(hist.iter().copied().filter(|&(x, _)| scc[x] <= scc[q]));
                    match next.binary_search(&(q, t)) {
                        Ok(_) => continue,
                        Err(i) => next.insert(i, (q, t)),
                    }
                    let key = Prehashed::new((q, next));
                    match memo.get(&key) {
                        Some(&v) => v,
                        None => {
                            let [l, r] =
                                self.superko_options(bg, scc, memo, rule, q, &key.value().1)?;
                            let v = self.store.canonical(l, r)?;
                            memo.insert(key, v);
                            v
                        }
                    }
                }
            };
            sides[e.colour.index()].push(self.store.add(g, v)?);
        }
        Ok(sides)
    }
}

/// Graphs of at least this many nodes are built on two threads when the
/// search has them (`Search::graph_builder`; a few in the tests, so
/// that their small graphs take that path too).
const PARALLEL_NODES: usize = if cfg!(test) { 2 } else { 1 << 14 };

/// The most distinct gains whose indices a graph of step 2 keeps in two
/// bytes each (`Search::graph_builder`).
const NARROW_GAINS: usize = 1 << 16;

/// The options of a range of nodes of step 2, made without the store
/// (`Search::graph_builder`): the tables that name their gains and
/// terminal games.
#[derive(Default)]
struct RangeOptions {
    /// The options' gains as indices into `gain_values`, when some index
    /// did not fit in two bytes (else they are written over the walk's
    /// gains).
    wide: Option<Vec<u32>>,
    /// The distinct gains, 0 first and the others in the order met.
    gain_values: Vec<i64>,
    /// The distinct (points scored, ko-free value) pairs of the terminal
    /// games, in the order met.
    terminals: Vec<(i64, GameId)>,
}

/// The options of the nodes `nodes` of the position graph `bg`, made in
/// place of their moves' targets `targets` and gains `gains` (those of the
/// range, from its first node's first move on): a terminal game as
/// `Game(k)`, the `k`-th pair of the range's `terminals`, a node left as it
/// is; a gain as its index in the range's own table ([`RangeOptions`]),
/// written over the move's gain while the indices are below `narrow`, and
/// from the first that is not, every index of the range in
/// [`RangeOptions::wide`], with room for `room` of them. `poll` is called
/// at every node, with its number.
fn range_options<const CHILL: bool>(
    bg: &BoardGraph,
    (nodes, targets, gains): (std::ops::Range<usize>, &mut [PackedTarget], &mut [u16]),
    narrow: usize,
    room: usize,
    poll: &mut dyn FnMut(usize) -> Result<(), GoError>,
) -> Result<RangeOptions, GoError> {
    let (phi, m) = (&bg.phi, &bg.m);
    let mut out = RangeOptions {
        wide: None,
        gain_values: vec![0],
        terminals: Vec::new(),
    };
    let Some(&(base, _, _)) = bg.moves_of.get(nodes.start) else {
        return Ok(out);
    };
    let base = base as usize;
    let mut terminal: FxHashMap<(i64, GameId), u32> = FxHashMap::default();
    // Small gains by a table, as `KoGraphBuilder` interns them.
    const SMALL: i64 = 64;
    let mut small = [u32::MAX; 2 * SMALL as usize];
    let mut large: FxHashMap<i64, u32> = FxHashMap::default();
    let mut gain_index = |values: &mut Vec<i64>, d: i64| -> u32 {
        if d == 0 {
            return 0;
        }
        let slot = match (-SMALL..SMALL).contains(&d) {
            true => &mut small[(d + SMALL) as usize],
            false => large.entry(d).or_insert(u32::MAX),
        };
        if *slot == u32::MAX {
            values.push(d);
            *slot = (values.len() - 1) as u32;
        }
        *slot
    };
    // Node `i`'s moves, Black's first, as indices into `targets`.
    let moves = |i: usize| {
        let (start, black, white) = bg.moves_of[i];
        let (start, black) = (start as usize - base, usize::from(black));
        (start..start + black + usize::from(white), start + black)
    };
    // The potentials of the nodes a node's moves reach are read at random
    // (cache misses on the large areas): asked for one node ahead, so
    // that they arrive while the node before is made.
    let ask = |targets: &[PackedTarget], i: usize| {
        for t in &targets[moves(i).0] {
            if let Some(q) = t.node() {
                prefetch(&phi[q.0 as usize]);
                if CHILL {
                    prefetch(&m[q.0 as usize]);
                }
            }
        }
    };
    ask(targets, nodes.start);
    for i in nodes.clone() {
        poll(i)?;
        if i + 1 < nodes.end {
            ask(targets, i + 1);
        }
        let (range, white) = moves(i);
        for j in range {
            let gain = i64::from(gains[j] as i16);
            let d = match targets[j].get() {
                Target::Game(g) => {
                    let pair = (i64::from(phi[i]) + gain, g);
                    let k = *terminal.entry(pair).or_insert_with(|| {
                        out.terminals.push(pair);
                        (out.terminals.len() - 1) as u32
                    });
                    targets[j] = PackedTarget::new(Target::Game(GameId(k)));
                    0
                }
                Target::Node(q) => {
                    let colour = match j < white {
                        true => Colour::Black,
                        false => Colour::White,
                    };
                    bg.edge_gain::<CHILL>(i, q.0 as usize, gain, colour)
                }
            };
            let k = gain_index(&mut out.gain_values, d);
            match &mut out.wide {
                Some(wide) => wide.push(k),
                None if (k as usize) < narrow => gains[j] = k as u16,
                None => {
                    let mut wide = Vec::with_capacity(room.max(gains.len()));
                    wide.extend(gains[..j].iter().map(|&k| u32::from(k)));
                    wide.push(k);
                    out.wide = Some(wide);
                }
            }
        }
    }
    Ok(out)
}

/// Superko values by position and the part of the line's history that can
/// recur from it (positions, with the mover's tag under situational superko).
/// Values by (board, the line's history in the board's component); the keys
/// carry their hash ([`Prehashed`]), as histories are long.
type SuperkoMemo = FxHashMap<Prehashed<(usize, Vec<(usize, u8)>)>, GameId>;

/// A terminal game `x` of a ko graph chilled and taxed `tax` (the moves
/// counted on the line to it): `chill(x) − tax`, memoised by (`x`, `tax`),
/// as many moves share both ([`GoKo::chill`], `Search::ko_graph`).
fn chill_terminal(
    store: &mut Store,
    memo: &mut FxHashMap<(GameId, i64), GameId>,
    x: GameId,
    tax: i64,
) -> Result<GameId, crate::game::CgError> {
    if let Some(&c) = memo.get(&(x, tax)) {
        return Ok(c);
    }
    let c = store.chill(x)?;
    let t = store.integer(-tax);
    let c = store.add(c, t)?;
    memo.insert((x, tax), c);
    Ok(c)
}

/// Strongly connected components of the position graph (Tarjan, iterative):
/// the component number of every position.
fn sccs(bg: &BoardGraph) -> Vec<usize> {
    let succ: Vec<Vec<usize>> = (0..bg.len())
        .map(|i| {
            bg.edges(i)
                .filter_map(|e| match e.to() {
                    To::Board(q) => Some(q as usize),
                    To::Game(_) => None,
                })
                .collect()
        })
        .collect();
    crate::ko::strongly_connected_components(&succ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::search::Region;
    use crate::go::{Position, Rules, SearchOptions};

    /// Step 2 as it was first written, the oracle of the graph made in
    /// place: node by node through the builder, each node's moves split
    /// into Left (Black's) and Right (White's) options in their order, the
    /// terminal games made as the options meet them.
    fn built_node_by_node<const CHILL: bool>(
        search: &mut Search<'_>,
        bg: &BoardGraph,
        shift: GameId,
    ) -> KoGraph {
        let zero = search.store.zero();
        let mut terminal: FxHashMap<(i64, GameId), GameId> = FxHashMap::default();
        let mut graph = KoGraphBuilder::with_capacity(0, 0);
        for i in 0..bg.len() {
            let mut sides: [Vec<(i64, Target)>; 2] = [Vec::new(), Vec::new()];
            for e in bg.edges(i) {
                let gain = i64::from(e.gain);
                let option = match e.to() {
                    To::Game(g) => {
                        let score = i64::from(bg.phi[i]) + gain;
                        let v = match terminal.get(&(score, g)) {
                            Some(&v) => v,
                            None => {
                                let x = search.integer(score);
                                let mut v = search.store.add(x, g).unwrap();
                                if shift != zero {
                                    v = search.store.add(v, shift).unwrap();
                                }
                                terminal.insert((score, g), v);
                                v
                            }
                        };
                        (0, Target::Game(v))
                    }
                    To::Board(q) => (
                        bg.edge_gain::<CHILL>(i, q as usize, gain, e.colour),
                        Target::Node(NodeId(q)),
                    ),
                };
                sides[e.colour.index()].push(option);
            }
            let [left, right] = sides;
            graph.numbered_node_integer(left, right);
        }
        graph.build_one_player_acyclic(NodeId(0)).unwrap()
    }

    #[test]
    fn the_graph_made_in_place_is_the_one_built_node_by_node() {
        // `Search::graph_builder` (one range, and two on two threads)
        // against the builder fed node by node, unchilled and chilled,
        // with and without a shift, on the walks of loopy areas (the open
        // 3 × 3 one a graph of a few thousand nodes, one with captures on
        // its cycles), both rules.
        let diagrams = [
            "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
            "XXOOXX\nXo..xO\nXXOOXX",
            "XXXXXXX\nXx.ox.O\nXo.x.oO\nXXXXXXX",
            "XXXXXX\nXxo.xO\nX.ox.O\nXXXXXX",
        ];
        let (mut graphs, mut wide) = (0, 0);
        for rules in [Rules::Japanese, Rules::Chinese] {
            let opts = SearchOptions::with_rules(rules);
            for text in diagrams {
                let pos = Position::parse(text).unwrap();
                let region = Region::new(&pos).unwrap();
                let (root, imm) = (&region.root, region.immortal(&region.root));
                let mut store = Store::new();
                let mut search = Search::new(&mut store, &region, &pos, &opts);
                let parts = search.eval_parts(region.all, root, imm).unwrap();
                let three = search.integer(3);
                for &comp in &parts.loopy {
                    for (chill, shift) in
                        [(false, three), (true, three), (false, search.store.zero())]
                    {
                        let walk = search.board_graph(comp, root).unwrap();
                        let expected = match chill {
                            true => built_node_by_node::<true>(&mut search, &walk, shift),
                            false => built_node_by_node::<false>(&mut search, &walk, shift),
                        };
                        // The gain indices in two bytes, and past one or
                        // two distinct gains in four (in the first range
                        // or the second).
                        for narrow in [NARROW_GAINS, 2, 1] {
                            for halves in [false, true] {
                                let mut bg = search.board_graph(comp, root).unwrap();
                                let builder = match chill {
                                    true => {
                                        search.graph_builder::<true>(&mut bg, shift, halves, narrow)
                                    }
                                    false => search
                                        .graph_builder::<false>(&mut bg, shift, halves, narrow),
                                };
                                let graph = builder.unwrap().build_one_player_acyclic(NodeId(0));
                                let graph = graph.unwrap();
                                assert_eq!(graph, expected, "{text}, {halves}, {narrow}");
                                wide += usize::from(matches!(
                                    graph.gain_indices(),
                                    GainIndices::Wide(_)
                                ));
                            }
                        }
                        graphs += 1;
                    }
                }
            }
        }
        assert!(graphs >= 12, "{graphs}");
        assert!(wide >= graphs, "{wide} of {graphs}");
    }
}
