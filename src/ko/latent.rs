//! Latent kos: ko graphs whose kos arise only after a mistake, and the
//! short game of correct play that replaces them (issue 15 §3).
//!
//! A Go region such as `X . . O` reaches a ko only after a mistake (White
//! plays next to Black's wall, Black captures, …), yet the search must
//! return the whole ko graph, since a ko *can* arise. [`latent`] decides,
//! by a sufficient condition proved below, that the ko cannot change the
//! result of play, and then gives the short game `T(root)` of correct play.
//! When the condition fails nothing is claimed: the ko may matter, and the
//! graph stays (with its komaster analyses, [`crate::ko::thermo`]).
//!
//! # Definitions
//!
//! Let `K` be a ko graph with root `r`. `A` is the set of nodes on a cycle
//! (a non-trivial strongly connected component, or a self-loop). A node not
//! in `A` is *off* the cycles. A move `u → v` with `u` off and `v ∈ A`
//! *enters* the ko. For a target `x` of an edge with gain `g` write
//! `g + x` for the option (a short game target is itself).
//!
//! * `T(u)`, for `u` off the cycles: the short game of `u` with every
//!   entering move deleted, `T(u) = { g + T(t) | g' + T(t') }` over the
//!   non-entering moves (a short game target `t` standing for itself). The
//!   off nodes with these edges form an acyclic graph (an off node lies on no
//!   cycle), so `T` is well defined, by recursion in the order of the
//!   strongly connected components.
//! * `lo(z)`, for `z ∈ A`: Black keeps only her moves that leave `A`,
//!   White keeps all his: `lo(z) = { g + T(t), g + s | g' + lo(z'),
//!   g' + T(t'), g' + s' }` (`t`, `t'` off nodes, `s`, `s'` short games,
//!   `z' ∈ A`). White alone never cycles (validation,
//!   [`crate::ko::KoError::NoKoStructure`]), so this recursion along White's
//!   edges ends. `hi(z)` is the mirror image: White keeps only his moves
//!   that leave `A`, Black keeps all hers.
//! * `V_B(x)` is `T(x)` for `x` off, `lo(x)` for `x ∈ A`, `x` for a short
//!   game; `V_W` the same with `hi`.
//! * `BK(x)`, `WK(x)`: the Black- and White-komaster means of node `x`
//!   ([`crate::ko::KoGraph::mean`]), which the ko solver uses to count a ko
//!   left open after two passes.
//!
//! **The rule.** `r ∉ A`, and there is a set `S` of nodes containing `r`
//! such that:
//!
//! * **(R)** for every off node `u ∈ S` and every move `u → v` entering the
//!   ko, with gain `g1`: if the move is White's, then `g1 + lo(v) ≥ T(u)`,
//!   or Black has an answer `v → w` (gain `g2`) with
//!   `g1 + g2 + V_B(w) ≥ T(u)`; if it is Black's, the mirror image
//!   (`g1 + hi(v) ≤ T(u)`, or a White answer with
//!   `g1 + g2 + V_W(w) ≤ T(u)`);
//! * **(C)** for every off node `u ∈ S`: `BK(u) = WK(u) = mean(T(u))`; for
//!   every `z ∈ A` in Black's part of `S` (below): `WK(z) ≥ mean(lo(z))`,
//!   and in White's part: `BK(z) ≤ mean(hi(z))`;
//! * **closure**: `S` contains the off targets of the non-entering moves of
//!   its off nodes; for each entering move of (R) the node where the answer
//!   (or, in the first case, the entering move) leaves play — an off node
//!   into `S`, a node of `A` into the part of `S` of the answering player;
//!   for `z` in Black's part, the targets of White's moves (`A` targets in
//!   Black's part) and the off targets of Black's moves, and the mirror
//!   image for White's part.
//!
//! [`latent`] builds `S` from `r`, taking for each entering move the first
//! way that satisfies (R), and checks (C) on the way.
//!
//! # The theorem
//!
//! *Let `K` satisfy the rule. Let `X` be any sum of short games and ko
//! threats θ for either player (any numbers of each), and let either player
//! move first. Then under the rules of [`crate::ko::solve`](mod@crate::ko::solve) (basic ko rule,
//! threats answered at once, no repeated whole-sum state, passes, two-pass
//! end with counts) the optimal score of `K + X` equals that of `T(r) + X`,
//! which is the stop of `T(r) + X` (Left stop with Black first, Right stop
//! with White first). The same holds for several graphs that satisfy the
//! rule, replaced all at once.* (The solver's game needs the count of every
//! node some line leaves open after two passes; where a komaster analysis
//! of such a node fails, [`solve`](mod@crate::ko::solve) reports an error,
//! not a score, and nothing is claimed. The nodes where the strategies
//! below rest have their counts by (C).)
//!
//! **Proof.** `T(r) + X` holds no ko, so its score is its stop, threats and
//! passes being irrelevant ([`crate::ko::solve`](mod@crate::ko::solve), "Scoring" and "No ko
//! left"). We show that Black can guarantee at least the stop in `K + X`;
//! the bound for White is the mirror image (negate everything: the rule is
//! symmetric). Three facts about the line of play:
//!
//! 1. *Off nodes are never met twice, and nothing after an off node `t`
//!    repeats a position from before it.* If `t` were met twice, or if a
//!    position reachable from `t` had occurred before `t`, the line would
//!    hold a cycle through `t`, but `t ∉ A`. So from an off node play is
//!    that of `K` rooted at `t`, history-free: no ban or repetition can
//!    involve an earlier position (moves in `X` are short moves or threats,
//!    which never repeat either).
//! 2. *Black's moves in the strategy below are always legal.* Each goes to
//!    a position of `K` not met before on the line: to an off node or short
//!    game (fact 1, and an off node reachable from a node of `A` or an off
//!    node met before would close a cycle), or, for an answer `v → w` with
//!    `w ∈ A` to an entering move `u → v`, to `w ∉ {u, v}` (`u` is off, and
//!    Black has no loop `v → v`: no one-player cycles) where no other node
//!    of `A` has occurred (the line entered `A` at `v`). A move to a new
//!    position is never banned (a ban forbids a return to the position before
//!    the opponent's last move) and never repeats a whole-sum state.
//! 3. *Stops are monotone:* if `P ≥ Q` are short games then
//!    `LS(P + Y) ≥ LS(Q + Y)` and `RS(P + Y) ≥ RS(Q + Y)`; and if a short
//!    form `Q` equals a number `q`, each of its Right options has Left stop
//!    at least `q` (else `Q^R < q`).
//!
//! *Black's strategy.* Black keeps a short game `B`, the *bound*, standing
//! for `K`: `T(u)` when `K` is at an off node `u`, `lo(z)` at `z ∈ A`, the
//! game itself at a short game; let `Q = B + Y` where `Y` is the short part
//! of `X` now. By induction on the play (the measure: the birthday of `Q`,
//! the threats left, and the node of `K` in the order of its strongly
//! connected components — which play never climbs — together with White's
//! moves inside `A` while Black keeps out of it, which cannot go on for
//! ever) Black gets at least `LS(Q)` with Black to move and `RS(Q)` with
//! White to move:
//!
//! * *Black to move, `Q` not a number:* `LS(Q) = RS(Q^L)` for some Left
//!   option; every Left option of `Q` is a real move (in `Y`, or in `K`: the
//!   non-entering moves of an off node, the moves out of `A` at `z ∈ A`),
//!   legal by fact 2, and then `B` follows the move.
//! * *Black to move, `Q` a number `q`:* Black passes. If White passes
//!   too, play ends: `Y` counts at its means, `K` at `BK` or `WK` of its node
//!   (the komaster is the player who did not pass last, here Black, or
//!   White when White passed first and Black second); by (C) and
//!   `BK ≥ WK` ([`crate::ko::thermo`], property (i)) this is at least
//!   `mean(B)`, so the score is at least `mean(Q) = q`. If White moves
//!   instead, see below (his option has `LS ≥ q`, fact 3).
//! * *White to move:* a threat is answered at once (Black never uses hers)
//!   and White is to move again with one threat fewer; a pass hands Black
//!   `LS(Q) ≥ RS(Q)`; a move in `Y`, a non-entering move at an off node, or
//!   any move at `z ∈ A`, is an option of `Q` (`lo` keeps all of White's
//!   moves), after which Black gets `LS(Q^R) ≥ RS(Q)`. At an off node `u`
//!   White may enter the ko, `u → v`: by (R) either `g1 + lo(v) ≥ T(u)`,
//!   and Black goes on with the bound `lo(v)`, getting
//!   `LS(g1 + lo(v) + Y) ≥ RS(g1 + lo(v) + Y) ≥ RS(T(u) + Y)` (fact 3); or
//!   Black answers `v → w` at once (legal, fact 2) and White is to move with
//!   the bound `V_B(w)`, getting `RS(g1 + g2 + V_B(w) + Y) ≥ RS(T(u) + Y)`.
//!   By fact 1 the history before never matters again once `K` is back at an
//!   off node; inside `A` Black's moves only leave it.
//!
//! Every node where `K` rests at a turn of this strategy is in `S`
//! (closure), so (C) was checked where it is used. Black ends with at least
//! the stop of `T(r) + X`; White's mirror strategy holds her to at most it.
//! Several graphs: the strategies work component by component (a White
//! move entering one graph's ko is answered in that graph), the legality
//! facts hold per component (a new position in one component is a new
//! whole-sum state), and at a two-pass end each graph counts at least its
//! bound's mean. ∎
//!
//! # The second rule: no return
//!
//! The bounds `lo` and `hi` forbid the strategy's player every move inside
//! the cycles. The second rule lets her make any move that goes to a
//! position not met before on the line, which is always legal, and tracks
//! the line exactly instead.
//!
//! For a node `v` let `C(v)` be its strongly connected component. A
//! *state* is a node `v` with the set `M ⊆ C(v)` of the nodes of `C(v)`
//! met on the line so far (`M = {v}` on arriving in `C(v)` at a node on a
//! cycle, `M = ∅` off the cycles: positions of other components can never
//! recur, since a line from a node back to an earlier one would put them in
//! one component). `N_B(v, M)` is the short game in which White may make
//! every move of the graph and Black every move except those to a node of
//! `M` (a move to another component, or to a node of `C(v)` outside `M`,
//! adds it); `N_W` is the mirror image. These games are finite: Black's
//! moves grow `M` or leave the component for a later one in the order of
//! the components, and White alone never cycles. [`no_return`] unfolds
//! them (at most [`NO_RETURN_STATES`] states each).
//!
//! **The rule.** `N_B(r, M_r) = N_W(r, M_r)` as games (`r` the root,
//! `M_r` its start set), and **(C')**: for every state `(v, M)` of the
//! unfolding of `N_B` at a node from which a cycle can be reached,
//! `WK(v) ≥ mean(N_B(v, M))`, and for every state of `N_W`,
//! `BK(v) ≤ mean(N_W(v, M))`. (At a node from which no cycle is reached
//! both sides are the node's short game.)
//!
//! **Theorem.** *If the rule holds, then for every sum `X` of short games
//! and threats, either player first, the solver's optimal score of `K + X`
//! is the stop of `N + X`, `N` the common game.*
//!
//! **Proof.** As for the first rule, with the bound `B = N_B(v, M)` at the
//! current state. Black's moves in `K` are options of `B`, and each goes
//! to a position not met on the line (not in `M`, and a node of another
//! component cannot have occurred: see above), so it is legal under the
//! basic ko rule (a ban forbids only a return) and repeats no whole-sum
//! state. Every White move in `K` that the solver allows is an option of
//! `B`, which keeps all of his moves; a move it forbids only takes an
//! option away from him. The rest is the induction of the first rule
//! (facts 2 and 3 with "new position" for "node off the cycles or answer"),
//! with the two-pass end counted at `BK(v)` or `WK(v)`, both at least
//! `WK(v) ≥ mean(B)` by (C'); the measure is the size of `M`, the component's place in the
//! order, White's acyclic runs, the birthday of the short part and the
//! threats. So Black gets at least the stop of `N_B + Y = N + Y`, and White
//! by the mirror argument at most the stop of `N_W + Y = N + Y`. ∎
//!
//! The counts are needed: without (C') the rule would resolve the chilled
//! `X.x. / OxOX / O.O.`, where the solver, White first with nothing else on
//! the board, reaches 1/2 with the ko and 1 with the game (the Go test
//! `latent_kos_agree_with_the_ko_solver`). [`latent`] tries the first rule
//! first and this one when it fails.
//!
//! # What is and is not claimed
//!
//! * The theorem is about sums with short games and threats (and other
//!   graphs that satisfy the rule). Next to a ko that does not, no claim is
//!   made — as for any short game: replacing a short game by its canonical
//!   form is not exact next to a ko either ([`crate::ko::solve`](mod@crate::ko::solve), the
//!   `G + (−G)` example), since a reversible move can serve as a ko threat.
//! * The rule is sufficient, not necessary. The bounds are crude: `lo`
//!   forbids Black every move inside the ko, `hi` lets her retake at once and
//!   for free. So a ko that cannot matter may still fail the rule; it is then
//!   kept as a graph (the unchilled `X . . O` is one: after Black's
//!   self-atari `hi` lets Black win the ko for nothing). The tests check
//!   every verdict of the rule against the solver, and show kos that fail
//!   it and do change results.
//! * Coverage, as measured by the Go test: of the 115 ko graphs of at most
//!   40 nodes (unchilled and chilled views) of its 404 diagrams (400 random
//!   small ones, 4 named) the first rule resolves 14 and the two together
//!   31; the rest are real kos, or fail the counts, which the komaster
//!   analysis cannot give where play gets stuck (a state where neither
//!   player has a legal move), or are over the state limit. An empty
//!   five-point corner of Black's (`X X X X / . . X X / . . . X`) is one of
//!   those: the two bounds agree, but the White-komaster count of one node
//!   gets stuck. Chilled `X . . O` is resolved; `X . . . O` (a White entry
//!   goes unanswered by these bounds) and the open 2 × 3 area (the komaster
//!   means of an off node differ from its `T`: (C)) are not.
//! * Cost: (R) is checked on the whole of `S` first; the komaster analyses
//!   of (C), the expensive part, run only when it holds.
//! * The rule is applied to the graph it is given: to the chilled graph for
//!   the chilled value, to the unchilled one for the unchilled value, so the
//!   two views may decide differently (chilled `X . . O` is the short game
//!   0; unchilled it stays a graph).

use super::graph::{plus_gain, KoGraph, NodeId, Side, Target};
use super::thermo::KomasterAnalysis;
use super::Komaster;
use crate::game::{CgError, GameId, Store};
use num_rational::BigRational;

/// What [`latent`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Latent {
    /// The rule applies: in every sum with short games and ko threats of
    /// either side, with either player first, the graph plays exactly as
    /// this short game (module docs, the theorem).
    Short(GameId),
    /// The rule does not apply: the ko may matter. `node` is where the rule
    /// failed first, `why` what failed.
    Live { node: NodeId, why: Why },
}

/// Why the rule does not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The position itself lies on a cycle: the ko is there from the start.
    RootInKo,
    /// `player`'s move from `node` to `to` enters the ko, and no answer of
    /// the opponent makes it no better for `player` than correct play
    /// (condition (R) of the module docs).
    Unanswered { player: Side, to: NodeId },
    /// The count after two passes (the komaster means of `node`) does not
    /// agree with the short game (condition (C) of the module docs), or
    /// the komaster analysis of `node` failed.
    Count,
    /// A player can cycle with his own moves alone (not a ko graph of Go).
    OneSided,
}

/// The bounds of the module docs: `t` for the nodes off the cycles, `lo`
/// and `hi` for the nodes on them (`None` elsewhere).
struct Bounds {
    on_cycle: Vec<bool>,
    t: Vec<Option<GameId>>,
    lo: Vec<Option<GameId>>,
    hi: Vec<Option<GameId>>,
}

impl Bounds {
    fn new(store: &mut Store, graph: &KoGraph) -> Result<Option<Bounds>, CgError> {
        let n = graph.len();
        let comp = graph.sccs(None);
        let on_cycle = graph.on_cycle(&comp, None);
        let mut b = Bounds {
            on_cycle,
            t: vec![None; n],
            lo: vec![None; n],
            hi: vec![None; n],
        };
        // T: off-cycle nodes, successors first (components are numbered in
        // reverse topological order); options into a cycle are dropped.
        let mut order: Vec<usize> = (0..n).filter(|&v| !b.on_cycle[v]).collect();
        order.sort_by_key(|&v| comp[v]);
        for v in order {
            let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
            for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
                let node = graph.node(NodeId(v as u32));
                for (i, target) in node.options(side).iter().enumerate() {
                    let g = match target {
                        Target::Game(g) => g,
                        Target::Node(m) if b.on_cycle[m.index()] => continue,
                        Target::Node(m) => match b.t[m.index()] {
                            Some(g) => g,
                            None => return Ok(None),
                        },
                    };
                    sides[k].push(plus_gain(store, node.gain(side, i).clone(), g)?);
                }
            }
            let [l, r] = sides;
            b.t[v] = Some(store.canonical(l, r)?);
        }
        // lo (hi): on-cycle nodes; the opponent of Black (White) may make
        // every move, Black (White) only moves that leave the cycles. The
        // opponent's moves alone never cycle (validation), so his
        // successors come first in the order of the components of his
        // edges.
        for (me, bound) in [(Side::Left, 0), (Side::Right, 1)] {
            let other = me.opponent();
            let comp_o = graph.sccs(Some(other));
            let mut order: Vec<usize> = (0..n).filter(|&v| b.on_cycle[v]).collect();
            order.sort_by_key(|&v| comp_o[v]);
            for v in order {
                let node = graph.node(NodeId(v as u32));
                let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
                for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
                    for (i, target) in node.options(side).iter().enumerate() {
                        let g = match target {
                            Target::Game(g) => g,
                            Target::Node(m) if b.on_cycle[m.index()] => {
                                if side == me {
                                    continue;
                                }
                                let own = if bound == 0 { &b.lo } else { &b.hi };
                                match own[m.index()] {
                                    Some(g) => g,
                                    None => return Ok(None),
                                }
                            }
                            Target::Node(m) => match b.t[m.index()] {
                                Some(g) => g,
                                None => return Ok(None),
                            },
                        };
                        sides[k].push(plus_gain(store, node.gain(side, i).clone(), g)?);
                    }
                }
                let [l, r] = sides;
                let g = store.canonical(l, r)?;
                if bound == 0 {
                    b.lo[v] = Some(g);
                } else {
                    b.hi[v] = Some(g);
                }
            }
        }
        Ok(Some(b))
    }

    /// The bound that stands for `target` when `me` keeps to the strategy
    /// of the proof: `T` off the cycles, `lo` (`me` Black) or `hi` (`me`
    /// White) on them.
    fn of(&self, target: Target, me: Side) -> GameId {
        match target {
            Target::Game(g) => g,
            Target::Node(m) if self.on_cycle[m.index()] => match me {
                Side::Left => self.lo[m.index()].unwrap(),
                Side::Right => self.hi[m.index()].unwrap(),
            },
            Target::Node(m) => self.t[m.index()].unwrap(),
        }
    }
}

/// Where a strategy of the proof may leave the graph between two turns.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
enum Item {
    /// An off-cycle node, bound `T`.
    Off(usize),
    /// An on-cycle node in Black's strategy (bound `lo`) or White's
    /// (bound `hi`).
    On(usize, Side),
}

/// `me` is better off (or as well) with `a` than with `b`.
fn at_least(store: &mut Store, me: Side, a: GameId, b: GameId) -> Result<bool, CgError> {
    match me {
        Side::Left => store.le(b, a),
        Side::Right => store.le(a, b),
    }
}

/// `T(root)` of the module docs (the root's short game with every move into
/// a ko deleted), whether or not the rule holds; `None` when the root lies
/// on a cycle (or a player can cycle alone).
pub fn without_entries(store: &mut Store, graph: &KoGraph) -> Result<Option<GameId>, CgError> {
    Ok(Bounds::new(store, graph)?.and_then(|b| b.t[graph.root().index()]))
}

/// Decide the rules of the module docs for `graph` (from its root): the
/// first rule, and when it fails the second ("No return"). A `Live`
/// verdict reports where the first rule failed.
pub fn latent(store: &mut Store, graph: &KoGraph) -> Result<Latent, CgError> {
    let first = decide(store, graph, Checks::ALL)?;
    if matches!(first, Latent::Short(_)) {
        return Ok(first);
    }
    match no_return(store, graph, true)? {
        Some(g) => Ok(Latent::Short(g)),
        None => Ok(first),
    }
}

/// The most states [`no_return`] unfolds, for each player's bound.
pub const NO_RETURN_STATES: usize = 20_000;

/// The second rule of the module docs ("No return"): `N_B(root)` and
/// `N_W(root)` are the same game and the counts (C') hold. `Some` of that
/// game, `None` when the rule fails or the unfolding needs more than
/// [`NO_RETURN_STATES`] states. `count: false` skips (C') (a mutant for the
/// tests that show it is needed).
pub(crate) fn no_return(
    store: &mut Store,
    graph: &KoGraph,
    count: bool,
) -> Result<Option<GameId>, CgError> {
    let comp = graph.sccs(None);
    let on_cycle = graph.on_cycle(&comp, None);
    let reaches = graph.reaches_cycle();
    // Both unfoldings first: when the bounds differ (the common failure) no
    // komaster analysis is made, and those are the expensive part.
    let mut unfoldings = Vec::with_capacity(2);
    for restricted in [Side::Left, Side::Right] {
        let Some(unfolded) = unfold(store, graph, &comp, &on_cycle, restricted)? else {
            return Ok(None);
        };
        unfoldings.push((restricted, unfolded));
    }
    let bound = unfoldings[0].1.root;
    if unfoldings[1].1.root != bound {
        return Ok(None);
    }
    if !count {
        return Ok(Some(bound));
    }
    for (restricted, unfolded) in unfoldings {
        // (C'): at every node a state of the unfolding rests on, the count
        // after two passes with the restricted player's opponent as
        // komaster is no worse for the restricted player than the mean of
        // her bound there. A node
        // from which no cycle is reached is an ordinary short game: its
        // count is its mean and every state there is that game.
        let ko_master = match restricted {
            Side::Left => Komaster::White,
            Side::Right => Komaster::Black,
        };
        let mut analysis = KomasterAnalysis::new(graph, ko_master);
        for (v, m) in unfolded.extreme_means {
            if !reaches[v] {
                continue;
            }
            let Ok(th) = analysis.thermograph(store, NodeId(v as u32)) else {
                return Ok(None);
            };
            let ok = match restricted {
                Side::Left => *th.mean() >= m,
                Side::Right => *th.mean() <= m,
            };
            if !ok {
                return Ok(None);
            }
        }
    }
    Ok(Some(bound))
}

/// What [`unfold`] found.
struct Unfolded {
    /// The bound of the root's state.
    root: GameId,
    /// For each node some state rests on: the greatest mean of its states'
    /// bounds (the least, when White is restricted), as `(node, mean)`.
    extreme_means: Vec<(usize, BigRational)>,
}

/// A state of the unfolding: a node and the nodes of its strongly
/// connected component met on the line so far (sorted; empty off the
/// cycles, where nothing can recur).
type State = (u32, Box<[u32]>);

/// `N_P(root)` of the module docs for `P = restricted`: the short game of
/// the graph played from the root where `P` may never move to a position of
/// its strongly connected component already met on the line, and the
/// opponent may make every move. `None` past [`NO_RETURN_STATES`] states.
fn unfold(
    store: &mut Store,
    graph: &KoGraph,
    comp: &[usize],
    on_cycle: &[bool],
    restricted: Side,
) -> Result<Option<Unfolded>, CgError> {
    // The state after a move from `from` (met: `seen`) to node `to`.
    let next = |from: usize, seen: &[u32], to: usize| -> Option<State> {
        if comp[to] == comp[from] {
            if seen.binary_search(&(to as u32)).is_ok() {
                return None;
            }
            let mut s = seen.to_vec();
            let at = s.binary_search(&(to as u32)).unwrap_err();
            s.insert(at, to as u32);
            Some((to as u32, s.into_boxed_slice()))
        } else if on_cycle[to] {
            Some((to as u32, vec![to as u32].into_boxed_slice()))
        } else {
            Some((to as u32, Box::default()))
        }
    };
    let root = graph.root().index();
    let root_state: State = if on_cycle[root] {
        (root as u32, vec![root as u32].into_boxed_slice())
    } else {
        (root as u32, Box::default())
    };
    let mut memo: rustc_hash::FxHashMap<State, GameId> = Default::default();
    // The state graph has no cycle: the restricted player's moves grow the
    // set met, the opponent's alone never cycle. So a post-order walk with
    // an explicit stack (lines can be long) settles every state.
    let mut stack = vec![root_state.clone()];
    while let Some(state) = stack.last().cloned() {
        if memo.contains_key(&state) {
            stack.pop();
            continue;
        }
        if memo.len() >= NO_RETURN_STATES {
            return Ok(None);
        }
        let (v, seen) = (state.0 as usize, &state.1);
        let node = graph.node(NodeId(v as u32));
        let mut missing = false;
        let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for (i, target) in node.options(side).iter().enumerate() {
                let g = match target {
                    Target::Game(g) => g,
                    Target::Node(m) => {
                        let after = if side == restricted {
                            match next(v, seen, m.index()) {
                                Some(s) => s,
                                None => continue,
                            }
                        } else {
                            // The opponent may return: the set met stays
                            // (the node is in it already, or is new).
                            match next(v, seen, m.index()) {
                                Some(s) => s,
                                None => (m.index() as u32, seen.clone()),
                            }
                        };
                        match memo.get(&after) {
                            Some(&g) => g,
                            None => {
                                missing = true;
                                stack.push(after);
                                continue;
                            }
                        }
                    }
                };
                if !missing {
                    sides[k].push(plus_gain(store, node.gain(side, i).clone(), g)?);
                }
            }
        }
        if missing {
            continue;
        }
        let [l, r] = sides;
        let g = store.canonical(l, r)?;
        memo.insert(state, g);
        stack.pop();
    }
    let mut extreme: rustc_hash::FxHashMap<usize, BigRational> = Default::default();
    for ((v, _), &g) in &memo {
        let m = store.mean(g)?.to_rational();
        let e = extreme.entry(*v as usize).or_insert_with(|| m.clone());
        let better = match restricted {
            Side::Left => m > *e,
            Side::Right => m < *e,
        };
        if better {
            *e = m;
        }
    }
    Ok(Some(Unfolded {
        root: memo[&root_state],
        extreme_means: extreme.into_iter().collect(),
    }))
}

/// Which conditions [`decide`] checks: all of them, except in the tests
/// that show each one is needed (a rule without it resolves kos that the
/// solver plays differently).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Checks {
    pub reversal: bool,
    pub count: bool,
}

impl Checks {
    pub(crate) const ALL: Checks = Checks {
        reversal: true,
        count: true,
    };
    /// The mutants the tests run: without (R), and without (C).
    #[cfg(test)]
    pub(crate) const MUTANTS: [Checks; 2] = [
        Checks {
            reversal: false,
            count: true,
        },
        Checks {
            reversal: true,
            count: false,
        },
    ];
}

pub(crate) fn decide(
    store: &mut Store,
    graph: &KoGraph,
    checks: Checks,
) -> Result<Latent, CgError> {
    let root = graph.root();
    let Some(b) = Bounds::new(store, graph)? else {
        return Ok(Latent::Live {
            node: root,
            why: Why::OneSided,
        });
    };
    if b.on_cycle[root.index()] {
        return Ok(Latent::Live {
            node: root,
            why: Why::RootInKo,
        });
    }
    let mut bk = KomasterAnalysis::new(graph, Komaster::Black);
    let mut wk = KomasterAnalysis::new(graph, Komaster::White);
    let mut komaster_mean = |store: &mut Store, v: usize, k: Komaster| -> Option<BigRational> {
        let a = if k == Komaster::Black {
            &mut bk
        } else {
            &mut wk
        };
        a.thermograph(store, NodeId(v as u32))
            .ok()
            .map(|th| th.mean().clone())
    };
    let mut seen = rustc_hash::FxHashSet::default();
    let mut work = vec![Item::Off(root.index())];
    seen.insert(Item::Off(root.index()));
    let mut push = |work: &mut Vec<Item>, it: Item| {
        if seen.insert(it) {
            work.push(it);
        }
    };
    let mut counted = Vec::new();
    while let Some(item) = work.pop() {
        counted.push(item);
        let live = |v: usize, why: Why| {
            Ok(Latent::Live {
                node: NodeId(v as u32),
                why,
            })
        };
        match item {
            Item::Off(u) => {
                let tu = b.t[u].unwrap();
                let node = graph.node(NodeId(u as u32));
                for p in [Side::Left, Side::Right] {
                    let q = p.opponent();
                    for (i, target) in node.options(p).iter().enumerate() {
                        let Target::Node(v) = target else { continue };
                        if !b.on_cycle[v.index()] {
                            push(&mut work, Item::Off(v.index()));
                            continue;
                        }
                        // (R): p enters the cycles; q answers, or leaves
                        // it, so that p is no better off than with T(u).
                        let g1 = node.gain(p, i).clone();
                        let here = plus_gain(store, g1.clone(), b.of(target, q))?;
                        let mut answered = None;
                        if at_least(store, q, here, tu)? {
                            answered = Some(Item::On(v.index(), q));
                        } else {
                            let vn = graph.node(v);
                            for (j, w) in vn.options(q).iter().enumerate() {
                                let gain = g1.add(vn.gain(q, j));
                                let after = plus_gain(store, gain, b.of(w, q))?;
                                if at_least(store, q, after, tu)? {
                                    answered = Some(match w {
                                        Target::Node(w) if b.on_cycle[w.index()] => {
                                            Item::On(w.index(), q)
                                        }
                                        Target::Node(w) => Item::Off(w.index()),
                                        Target::Game(_) => Item::Off(usize::MAX),
                                    });
                                    break;
                                }
                            }
                        }
                        match answered {
                            None if !checks.reversal => {}
                            None => return live(u, Why::Unanswered { player: p, to: v }),
                            Some(Item::Off(usize::MAX)) => {}
                            Some(it) => push(&mut work, it),
                        }
                    }
                }
            }
            Item::On(z, me) => {
                let node = graph.node(NodeId(z as u32));
                for side in [Side::Left, Side::Right] {
                    for target in node.options(side) {
                        let Target::Node(m) = target else { continue };
                        if !b.on_cycle[m.index()] {
                            push(&mut work, Item::Off(m.index()));
                        } else if side != me {
                            push(&mut work, Item::On(m.index(), me));
                        }
                    }
                }
            }
        }
    }
    // (C), once (R) holds everywhere (the komaster analyses cost the most).
    if checks.count {
        for item in counted {
            let (v, ok) = match item {
                // Both komaster means are the mean of T(u).
                Item::Off(u) => {
                    let m = store.mean(b.t[u].unwrap())?.to_rational();
                    let mut ok = true;
                    for k in [Komaster::Black, Komaster::White] {
                        ok = ok && komaster_mean(store, u, k) == Some(m.clone());
                    }
                    (u, ok)
                }
                // On the cycles: the count with the opponent as komaster is
                // no worse for `me` than the bound.
                Item::On(z, me) => {
                    let bound = b.of(Target::Node(NodeId(z as u32)), me);
                    let m = store.mean(bound)?.to_rational();
                    let k = match me {
                        Side::Left => Komaster::White,
                        Side::Right => Komaster::Black,
                    };
                    let ok = match komaster_mean(store, z, k) {
                        Some(c) => match me {
                            Side::Left => c >= m,
                            Side::Right => c <= m,
                        },
                        None => false,
                    };
                    (z, ok)
                }
            };
            if !ok {
                return Ok(Latent::Live {
                    node: NodeId(v as u32),
                    why: Why::Count,
                });
            }
        }
    }
    Ok(Latent::Short(b.t[root.index()].unwrap()))
}

#[cfg(test)]
pub(crate) mod tests;
