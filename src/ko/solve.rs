//! Exact optimal play on sums with kos and ko threats (issue 4 §3).
//!
//! [`solve`] plays a sum of [`Component`]s — short games, positions of ko
//! graphs, threats θ and compounds — to the end under the rules below and
//! returns the final score with an optimal line. [`ko_winner`],
//! [`net_threats`], [`equivalent`] and [`pseudo_incentive`] build on it.
//! No syntax, no IO.
//!
//! # The game
//!
//! Black is Left and scores positive. The players alternate; a turn is one
//! of:
//! * **a move in one component**: a short game goes to one of its options; a
//!   ko position goes along one of its option edges (to another node, or out
//!   of the graph to a short game — a *fill*: the ko is resolved), and an
//!   edge's gain (a number, see "Gains" in [`crate::ko`]) is settled the
//!   moment the move is made, like a number reached; a compound
//!   `{L | R}` is replaced by the components of the chosen option (which may
//!   include threats, kos, other compounds);
//! * **a threat**: a player who owns a threat θ plays it, and the opponent
//!   answers it at once (see "Threats");
//! * **a pass**, always legal.
//!
//! Numbers are never played (number avoidance: they are settled points; a
//! player who wants to play elsewhere passes instead), so they are summed as
//! they appear.
//!
//! * **Basic ko rule.** A move may not return a ko component to the position
//!   it had just before the opponent's previous move when that move was in
//!   the same ko component (an immediate recapture). Any other move — a
//!   threat, its answer, a move elsewhere, a pass — lifts the ban. Play
//!   starts with no ban ([`solve`]), or with one given ([`solve_from`] and a
//!   [`StartBan`]: the opponent's last move, before the sum was given, was a
//!   capture in that ko component). The starting state is the first of the
//!   history either way: nothing before it counts for the repetition rule.
//! * **No repetition.** A move (not a pass) may not recreate a whole-sum
//!   state — the components with their positions, the threats left, and the
//!   player to move — that occurred before in the game. Passes are exempt
//!   (as in Go's superko rules), which keeps every position playable; since
//!   two passes in a row end play, every game is finite (each non-pass turn
//!   makes a new state, and there are finitely many).
//! * **End.** Play ends when every component is a number (threats left over
//!   are worth 0), or after two consecutive passes.
//!
//! # Scoring
//!
//! The score is the sum of the numbers reached. After two passes every
//! remaining non-number component counts at its *count*: a short game at its
//! mean (the mast of its thermograph), a threat at 0, a ko position at its
//! komaster mean ([`KoGraph::mean`]) **with the player who did not make the
//! second pass as komaster**. For a placid ko the two komaster means agree,
//! so this is simply its mean. For an active or hyperactive ko they differ,
//! and the player who ends play with the ko still open concedes it: the ko
//! counts as if the opponent could win every fight in it. (Rationale: a
//! two-pass end is a choice of the second passer, who could have played on;
//! leaving a disputed ko open must not be better for him than what the
//! opponent could claim as komaster. The rule is exact, defined for every
//! ko, symmetric under negation — the negated ko's means are exchanged and
//! negated, and the ender changes sides with them — and it changes nothing
//! on sums whose kos are placid.) A compound left on the board counts at
//! the mean of its short game (θ as 0) when no ko can arise in it,
//! otherwise [`KoSolveError::CompoundNoCount`], raised as soon as the search
//! considers such a two-pass ending, even on a line that would not be
//! optimal.
//!
//! For sums without kos this gives exactly the stops of the canonical sum
//! (property test): from a position `Q` with Left to move, Left guarantees
//! `LS(Q)` by never passing (a canonical non-number always has a move for
//! both players; a Right pass hands Left `LS(Q') ≥ RS(Q')`), and Right
//! guarantees at most `LS(Q)` symmetrically, so the two-pass count (between
//! the stops) is never reached in optimal play.
//!
//! # Threats
//!
//! θ (a Black threat) is the game `{{S | 0} | }` with `S` larger than the
//! total of all swings at stake: Black's move in it creates a pending threat
//! `{S | 0}`; if White does not answer (move it to 0) at once, Black takes
//! `S` next and wins more than everything else could change. So answering at
//! once is strictly best for White in every position, and the solver plays
//! the threat and its forced answer as one turn pair (the line shows both,
//! with consecutive move numbers): afterwards the threat is used up, the ko
//! ban is lifted and the same player is to move. `S` never appears in a
//! score. −θ is White's. In canonical arithmetic θ = 0 (its only option is
//! reversible), so a threat changes nothing in a sum without kos (property
//! test).
//!
//! # The search and why its shortcuts are exact
//!
//! Alpha-beta (fail-soft) over whole-sum states, values relative to the
//! numbers already settled.
//!
//! * **Transposition table.** The no-repetition rule makes values depend on
//!   history. Call a turn *irreversible* when no later state can equal an
//!   earlier one after it: a move in a short game (its birthday drops), in a
//!   compound, a ko move out of the graph or into another strongly connected
//!   component of it, a threat. (The multiset of short games, compounds,
//!   threats and ko graphs' components, ordered by birthday/containment,
//!   strictly decreases in the multiset order with each such turn and never
//!   changes otherwise, so no earlier state comes back.) Only passes and ko
//!   moves inside one strongly connected component are reversible. So the
//!   only history that can matter is the set of states since the last
//!   irreversible turn (the *segment*), and the key is
//!   `(state, ko ban, previous turn was a pass, segment)` — a state being
//!   the sorted multiset of components, the threats of each side and the
//!   player to move. Values are a function of this key, so every entry is
//!   sound; after an irreversible turn the segment is just the new state,
//!   so most entries are shared freely. The threats never change inside a
//!   segment (a threat is irreversible, and so is a compound move, the only
//!   other turn that adds threats), so the segment is stored as ids of the
//!   states *without* their threats, and the table holds, under the key
//!   `(components and player to move, ban, pass, segment)`, one entry per
//!   threat count `(b, w)` (Black's, White's). By the lemma of "Threats in
//!   the search" (an unused threat never hurts; applied once per threat,
//!   the segments correspond state by state), the value with `(b, w)` is at
//!   least the value with `(b', w')` when `b' ≤ b` and `w' ≥ w`, and at most
//!   it when `b' ≥ b` and `w' ≤ w`; a lookup takes the best lower and upper
//!   bounds over all entries so comparable (the entry of `(b, w)` itself
//!   included).
//! * **Principal variation search.** The first child is searched with the
//!   node's window, every later one first with a null window (of the
//!   smallest width of the value type, see `solve/val.rs`) at the mover's
//!   bound; a result beyond it is searched again with the full window. A
//!   pass that would end play (the previous turn was a pass) is a leaf
//!   worth the count and is tried first. Both only change which
//!   nodes are visited, never a value: each search returns a value that is
//!   exact strictly inside its window and a bound on the side it fails to.
//! * **Switches (fact S).** Among switches `{a | b}` (numbers `a > b`) a
//!   player only needs to consider the one of largest swing `a − b`.
//!   Proof (strategy stealing, valid with kos, threats and passes): let
//!   `s1 ≥ s2` be two swings and suppose the mover plays in switch 2. Playing
//!   in switch 1 instead and then following the same strategy with the two
//!   switches' roles exchanged gives a game whose states correspond one to
//!   one (so the ko and repetition rules allow the same moves) and whose
//!   score differs only in those two switches, by `0`, `s1 − s2` or
//!   `(s1 − s2)/2` (who took the other switch, or it counted at its mean),
//!   never against the mover. Identical components are searched once.
//! * **No ko left.** When no ko component remains (compounds with no ko in
//!   them count as their short game, θ as 0), threats and passes are
//!   irrelevant (argument of "Scoring"), and the value is the stop of the
//!   short sum, taken from [`crate::play::solve`] (with its own exact
//!   shortcuts). Can be switched off ([`KoSolveOptions::ko_free_shortcut`]),
//!   which the property tests do to check this module's own search.
//! * **Threats in the search.** *Lemma (an unused threat never hurts):* if
//!   two search nodes differ only in that player P holds one more threat in
//!   the first (in the state and in every state of its segment), P gets at
//!   least as much in the first: P plays the second node's optimal strategy
//!   and never uses the extra threat; every state then differs from its
//!   counterpart only by that threat, so the two games' moves, bans and
//!   repetitions correspond one to one and the scores are equal. Hence, at a
//!   node `N` where P plays a threat (and its answer), reaching `N'` (the
//!   same components, one threat fewer, no ban, segment `{N'}`), the
//!   continuations of `N'` that need not be searched are: (a) an
//!   irreversible move `X` (never banned, never a repetition): `X` played at
//!   once from `N` reaches the same node with P's threat still in hand;
//!   (b) when the segment of `N` is `N` alone and the previous turn was not
//!   a pass: a reversible ko move legal at `N`, or a pass — the same node
//!   again with one threat more (the segments `{N, child}` and `{N', child'}`
//!   correspond); (c) another threat: `N'` itself has no ban and segment
//!   `{N'}`, and at such a node a threat is never needed (by induction on
//!   P's threats, each node after it is worth at most a move available
//!   directly). So threats are searched only as *threat + X* in one step,
//!   `X` a move banned or repeating at `N`, or, when the segment of `N` is
//!   longer or the previous turn was a pass, also a reversible ko move or a
//!   pass; at a node without ban whose segment is itself and that does not
//!   follow a pass, no threat at all. The intermediate node `N'` is never
//!   stored in the table (its restricted value is not its value); the line
//!   (below) replays the threat and the move as separate turns.
//!
//! * **Dominated short moves (fact S generalised).** Let a player (say
//!   Left; Right is symmetric) have the moves `G1 → A` and `G2 → B` in two
//!   different short components. Call two short games *matching* when both
//!   are numbers, or both are non-numbers with as many Left and as many
//!   Right options and their options, paired in the store's order, match.
//!   For matching `X`, `Y` let `lo(X, Y)` be the least of: `x − y` when both
//!   are numbers; otherwise `mean(X) − mean(Y)` and `lo` of every pair of
//!   paired options (`hi` the greatest, alike). *If `A` matches `B`, `G2`
//!   matches `G1` and `lo(A, B) + lo(G2, G1) ≥ 0`, the move `G1 → A` is
//!   worth at least as much to Left as `G2 → B`* (for Right:
//!   `hi(A, B) + hi(G2, G1) ≤ 0`). Proof (the swap argument of fact S):
//!   after `G2 → B` let Left follow any strategy σ; after `G1 → A` Left
//!   plays σ with the two components' roles exchanged — a move σ makes in
//!   the component that was `G1` is made at the paired option in the one
//!   that was `G2`, and Right's moves map back the same way, the component
//!   holding `A` standing for the one holding `B`. Paired options are
//!   paired again, so this is a bijection of the two games' move sequences;
//!   the moves in these two components are short moves (never banned,
//!   irreversible) and every other turn is the same, so the ko ban, the
//!   segments (the two components are fixed inside one) and hence the
//!   repetition rule allow the same turns in both, and the games end
//!   together (a component becomes a number exactly when its partner does).
//!   The scores differ only in the two components, each by `x − y` for the
//!   numbers they end at, or by the difference of means if play ends by two
//!   passes with them still short (short games count at their means) —
//!   by at least `lo(A, B) + lo(G2, G1) ≥ 0` for Left. For switches this is
//!   fact S. The search keeps, among the short moves of one signature (a
//!   hash of the two games' tree shapes; matching games have equal ones),
//!   hottest first, each move no kept move dominates; every dropped move is
//!   dominated by a kept one, so the maximum is unchanged. (It matters:
//!   three-stops `{x ‖ y | z}`, `↑`, tinies share one shape.)
//!
//! Nothing else is pruned: no component is ever removed (a `*` or a tiny
//! can serve as a tempo move or a ko threat), and apart from the dominance
//! above, which compares whole move trees of the same shape, no move is
//! pruned by comparing incentives (that does not survive kos).
//! Short components are not merged into their canonical sum either: that
//! is not exact beside a ko. `G = {1/2 | 0 || −1}` and `−G` sum to 0, yet
//! with a ko Black just took (fills 0 / −4) and one Black threat, White
//! first gets −1 with the pair and 0 without it (the pair gives White a
//! tempo and a threat; test
//! `canonical_sum_of_short_components_is_not_exact_with_a_ko`).
//!
//! # Limits
//!
//! * A compound in which a ko can arise has no count: a sum holding one
//!   fails with [`KoSolveError::CompoundNoCount`] as soon as the search
//!   reaches a two-pass ending with it unplayed.
//! * Speed: with kos on the board only dominated short moves (fact S and
//!   its generalisation) and threat moves (above) are pruned; sums with
//!   many short games of different shapes, kos and threats grow quickly
//!   (BENCHMARKS.md).
//! * Moves in numbers are not part of the game (a player passes instead).
//!
//! The principal variation is rebuilt move by move, each chosen move being
//! the first, in a fixed order (components by number, then options), whose
//! child achieves the value (null-window searches reuse the table). The
//! chosen child's value is then known without a search (its parent's value
//! minus the numbers the move settles: the move achieves it and none does
//! better), and a short move dominated by one already found not to achieve
//! the value ("Dominated short moves") cannot achieve it either, so it is
//! skipped unsearched; neither changes which move is chosen. Values are
//! exact rationals with a fixed-point fast path (`solve/val.rs`).
//! Component numbers in the line are indices into
//! [`KoSolution::components`]: the input components first, then the
//! components that compounds create when played, numbered as they appear.

mod engine;
#[cfg(test)]
mod tests;
mod val;

use self::engine::{Engine, Mv, OptKind, C};
use super::{Component, KoError, KoGraph, NodeId, Side, Target};
use crate::game::{CgError, Dyadic, GameId, Store};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::fmt;

/// Search options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoSolveOptions {
    /// The most search nodes one call may visit
    /// ([`KoSolveError::NodeBudget`] beyond).
    pub budget: u64,
    /// Hand positions without kos to [`crate::play::solve`] (exact; see the
    /// module documentation).
    pub ko_free_shortcut: bool,
    /// Search only the switch of largest swing (exact; fact S).
    pub switch_pruning: bool,
    /// Search only the short moves no other short move dominates (exact;
    /// "Dominated short moves" in the module documentation), in the search
    /// and when the line is rebuilt.
    pub dominance_pruning: bool,
}

impl Default for KoSolveOptions {
    fn default() -> Self {
        KoSolveOptions {
            budget: crate::play::DEFAULT_BUDGET,
            ko_free_shortcut: true,
            switch_pruning: true,
            dominance_pruning: true,
        }
    }
}

impl KoSolveOptions {
    pub fn with_budget(budget: u64) -> Self {
        KoSolveOptions {
            budget,
            ..KoSolveOptions::default()
        }
    }
}

/// Why [`solve`] (or a function built on it) gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KoSolveError {
    /// The search visited more nodes than the budget allows.
    NodeBudget { nodes: u64 },
    /// The interrupt flag was set.
    Interrupted,
    /// Two passes ended a line with a compound still on the board in which a
    /// ko can arise: it has no count.
    CompoundNoCount,
    /// The komaster analysis of ko position `node` failed.
    Ko { node: String, error: KoError },
    /// [`pseudo_incentive`] found no X by its rule; the reason.
    NoPseudoValue { reason: String },
    /// An error of the short-game engine.
    Engine(CgError),
    /// A [`StartBan`] names a component that is not a ko position from
    /// which a cycle can be reached (there is no ko to ban a return in).
    BadBan { component: usize },
    /// Should not happen; reported rather than panicking.
    Internal(String),
}

impl KoSolveError {
    fn from_ko(graph: &KoGraph, n: NodeId, e: KoError) -> KoSolveError {
        match e {
            KoError::Cg(CgError::Interrupted) => KoSolveError::Interrupted,
            KoError::Cg(e) => KoSolveError::Engine(e),
            error => KoSolveError::Ko {
                node: graph.label(n).to_string(),
                error,
            },
        }
    }
}

impl From<CgError> for KoSolveError {
    fn from(e: CgError) -> Self {
        match e {
            CgError::Interrupted => KoSolveError::Interrupted,
            e => KoSolveError::Engine(e),
        }
    }
}

impl fmt::Display for KoSolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KoSolveError::NodeBudget { nodes } => {
                write!(f, "the ko search exceeded its node budget ({nodes} nodes)")
            }
            KoSolveError::Interrupted => write!(f, "interrupted"),
            KoSolveError::CompoundNoCount => write!(
                f,
                "play can end by two passes with a compound containing a ko still unplayed, and it has no count"
            ),
            KoSolveError::Ko { node, error } => {
                write!(f, "the komaster analysis of node `{node}` failed: {error}")
            }
            KoSolveError::NoPseudoValue { reason } => {
                write!(f, "no pseudo-value X: {reason}")
            }
            KoSolveError::Engine(e) => write!(f, "{e}"),
            KoSolveError::BadBan { component } => write!(
                f,
                "the ko ban at the start names component {component}, which is not a ko \
                 position from which a cycle can be reached"
            ),
            KoSolveError::Internal(m) => write!(f, "internal error in the ko solver: {m}"),
        }
    }
}

impl std::error::Error for KoSolveError {}

/// What one turn did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move in a short game to its option number `option` (0-based, in the
    /// order of the store's options), `to`.
    Short {
        component: usize,
        option: usize,
        to: GameId,
    },
    /// A move in a ko graph from node `from` along option edge `option`.
    Ko {
        component: usize,
        option: usize,
        from: NodeId,
        to: Target,
    },
    /// A compound played to its option `option`; the components that option
    /// is made of get the numbers `created` (threats and numbers included).
    Compound {
        component: usize,
        option: usize,
        created: Vec<usize>,
    },
    /// A ko threat played from threat component `component`.
    Threat {
        component: usize,
    },
    /// The forced answer to the threat just played.
    Answer {
        component: usize,
    },
    Pass,
}

/// One turn of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoMove {
    /// 1-based.
    pub number: usize,
    pub player: Side,
    pub action: Action,
    /// The sum of the numbers settled after this turn.
    pub score: BigRational,
}

/// A ko resolved on the line: `player` moved ko component `component` out
/// of its cycles at move `number`, to the short game `value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoFill {
    pub component: usize,
    pub player: Side,
    pub number: usize,
    pub value: GameId,
}

/// How the line ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    AllNumbers,
    TwoPasses,
}

/// The answer of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoSolution {
    /// The final score under optimal play.
    pub score: BigRational,
    pub first: Side,
    /// An optimal line: every turn is optimal for its player.
    pub line: Vec<KoMove>,
    pub fills: Vec<KoFill>,
    pub ending: Ending,
    /// Ko components still on the board at the end (after two passes).
    pub unfilled: Vec<usize>,
    /// The components the line's numbers refer to: the input, then those
    /// created by compounds (as they were created).
    pub components: Vec<Component>,
    /// Search nodes visited (the ko-free shortcut's included).
    pub nodes: u64,
    pub tt_hits: u64,
}

impl KoSolution {
    /// Who filled ko component `component` on the line (`None`: nobody).
    pub fn filler(&self, component: usize) -> Option<Side> {
        self.fills
            .iter()
            .find(|f| f.component == component)
            .map(|f| f.player)
    }
}

/// A component on the tracked line.
#[derive(Clone, Debug)]
enum Tracked {
    Live(C),
    Threats(Side, u32),
    Gone,
}

/// Exact optimal play on `components` with `first` to move (module
/// documentation).
pub fn solve(
    store: &mut Store,
    components: &[Component],
    first: Side,
    opts: &KoSolveOptions,
) -> Result<KoSolution, KoSolveError> {
    solve_from(store, components, first, None, opts)
}

/// The basic ko ban in force when play starts: the player to move may not
/// move ko component number `component` (an index into the components, a
/// [`Component::Ko`]) to node `forbidden` at once. It is what the
/// opponent's last move left: a capture in that component from
/// `forbidden` to where it stands. Any other first turn (a move elsewhere,
/// a threat, a pass) lifts it, as in play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StartBan {
    pub component: usize,
    pub forbidden: NodeId,
}

/// [`solve`] from a start with a ko ban (`None`: none, which is [`solve`]).
/// The search's root then carries the ban exactly as a node reached by a
/// ko capture does (the table key holds it), so the answer is exact under
/// the same rules; the start is still the whole history (module
/// documentation, "Basic ko rule").
pub fn solve_from(
    store: &mut Store,
    components: &[Component],
    first: Side,
    ban: Option<StartBan>,
    opts: &KoSolveOptions,
) -> Result<KoSolution, KoSolveError> {
    let mut e = Engine::new(store, opts.clone());
    solve_with(&mut e, components, first, ban)
}

/// The root of a search: the tracked components (one per input
/// component), the numbers settled at the start, the root node and its ban.
struct Start {
    all: Vec<Component>,
    tracked: Vec<Tracked>,
    settled: BigRational,
    node: engine::Node,
    ban: Option<(usize, NodeId)>,
}

fn start(
    e: &mut Engine,
    components: &[Component],
    first: Side,
    start_ban: Option<StartBan>,
) -> Result<Start, KoSolveError> {
    let all: Vec<Component> = components.to_vec();
    let mut tracked: Vec<Tracked> = Vec::new();
    let mut settled = BigRational::zero();
    for c in components {
        let parts = e.convert(std::slice::from_ref(c))?;
        settled += parts.delta.to_q();
        tracked.push(match (parts.comps.first(), c) {
            (Some(&x), _) => Tracked::Live(x),
            (None, Component::Threats { owner, count }) => Tracked::Threats(*owner, *count),
            _ => Tracked::Gone,
        });
    }
    let pos = pos_of(&tracked);
    let left = first == Side::Left;
    let mut node = e.root(pos, left);
    // The ban on the tracked line: (component number, forbidden node).
    let mut ban: Option<(usize, NodeId)> = None;
    if let Some(b) = start_ban {
        let Some(&Tracked::Live(C::Ko(gi, at))) = tracked.get(b.component) else {
            return Err(KoSolveError::BadBan {
                component: b.component,
            });
        };
        node.ban = Some((gi, at, b.forbidden));
        ban = Some((b.component, b.forbidden));
    }
    Ok(Start {
        all,
        tracked,
        settled,
        node,
        ban,
    })
}

fn solve_with(
    e: &mut Engine,
    components: &[Component],
    first: Side,
    start_ban: Option<StartBan>,
) -> Result<KoSolution, KoSolveError> {
    let Start {
        mut all,
        mut tracked,
        mut settled,
        mut node,
        mut ban,
    } = start(e, components, first, start_ban)?;
    let value_q = e.value(&node)?;
    let value = value_q.to_q();
    let target = &value + &settled;
    let mut line: Vec<KoMove> = Vec::new();
    let mut fills: Vec<KoFill> = Vec::new();
    let ending;
    // The value of the line's current node: the root's, then along the
    // line the chosen child's, which is known without a search — a chosen
    // move achieves `v` and none does better, so its child is worth exactly
    // `v` minus the numbers the move settles (`v` after a threat or a pass).
    let mut v = value_q;
    loop {
        if node.pos.comps.is_empty() {
            ending = Ending::AllNumbers;
            break;
        }
        let player = if node.left { Side::Left } else { Side::Right };
        let mut chosen = None;
        // Candidates: component moves, then the threat, then a pass.
        let mut cands: Vec<(usize, usize, usize)> = Vec::new();
        for (id, t) in tracked.iter().enumerate() {
            let Tracked::Live(c) = *t else { continue };
            let ci = match node.pos.comps.binary_search(&c) {
                Ok(i) => i,
                Err(_) => return Err(KoSolveError::Internal("tracked component lost".into())),
            };
            let n = e.options(c, node.left)?.len();
            cands.extend((0..n).map(|oi| (id, ci, oi)));
        }
        // Candidates are tried in this fixed order (not the table's best move
        // first), so that the line does not depend on the search's history:
        // `pseudo_incentive` reads temperatures off the line.
        let can_threat = node.pos.threats[engine::side_index(player)] > 0;
        {
            // Short moves found not to achieve `v`: a move one of them
            // dominates does not either (module documentation, "Dominated
            // short moves"), and is skipped without a search.
            let mut failed: Vec<(GameId, GameId)> = Vec::new();
            for &(id, ci, oi) in &cands {
                let opts = e.options(node.pos.comps[ci], node.left)?;
                let o = &opts[oi];
                let short = match (node.pos.comps[ci], &o.kind) {
                    (C::Short(g), OptKind::Short(x)) if e.opts.dominance_pruning => Some((g, *x)),
                    _ => None,
                };
                if let Some((g, x)) = short {
                    if e.dominated_by(&failed, g, x, node.left)? {
                        continue;
                    }
                }
                if let (Some((bid, forbidden)), OptKind::Ko { to, .. }) = (ban, &o.kind) {
                    if bid == id && *to == Target::Node(forbidden) {
                        continue;
                    }
                }
                let Some(child) = e.child_of_move(&node, ci, o) else {
                    continue;
                };
                if e.achieves(Some(&child), &o.delta, node.left, &v)? {
                    chosen = Some((Mv::Comp { ci, oi }, id, Some(child)));
                    break;
                }
                failed.extend(short);
            }
        }
        if chosen.is_none() && can_threat {
            let child = e.child_of_threat(&node);
            if e.achieves(Some(&child), &engine::Val::zero(), node.left, &v)? {
                chosen = Some((Mv::Threat, 0, Some(child)));
            }
        }
        if chosen.is_none() {
            chosen = Some((Mv::Pass, 0, e.child_of_pass(&node)));
        }
        let Some((mv, id, child)) = chosen else {
            unreachable!()
        };
        let number = line.len() + 1;
        match mv {
            Mv::Comp { ci, oi } => {
                let c = node.pos.comps[ci];
                let o = e.options(c, node.left)?[oi].clone();
                settled += o.delta.to_q();
                v = &v - &o.delta;
                ban = None;
                let action = match (&o.kind, c) {
                    (OptKind::Short(to), _) => {
                        tracked[id] = match o.comps.first() {
                            Some(&x) => Tracked::Live(x),
                            None => Tracked::Gone,
                        };
                        Action::Short {
                            component: id,
                            option: o.index,
                            to: *to,
                        }
                    }
                    (
                        OptKind::Ko {
                            to,
                            reversible,
                            fill,
                        },
                        C::Ko(_, from),
                    ) => {
                        tracked[id] = match o.comps.first() {
                            Some(&x) => Tracked::Live(x),
                            None => Tracked::Gone,
                        };
                        if let Some(value) = fill {
                            fills.push(KoFill {
                                component: id,
                                player,
                                number,
                                value: *value,
                            });
                        }
                        if *reversible {
                            ban = Some((id, from));
                        }
                        Action::Ko {
                            component: id,
                            option: o.index,
                            from,
                            to: *to,
                        }
                    }
                    _ => {
                        tracked[id] = Tracked::Gone;
                        let mut created = Vec::new();
                        for &x in &o.comps {
                            created.push(tracked.len());
                            tracked.push(Tracked::Live(x));
                            all.push(e.component(x));
                        }
                        for (k, s) in [Side::Left, Side::Right].into_iter().enumerate() {
                            if o.threats[k] > 0 {
                                created.push(tracked.len());
                                tracked.push(Tracked::Threats(s, o.threats[k]));
                                all.push(Component::Threats {
                                    owner: s,
                                    count: o.threats[k],
                                });
                            }
                        }
                        Action::Compound {
                            component: id,
                            option: o.index,
                            created,
                        }
                    }
                };
                line.push(KoMove {
                    number,
                    player,
                    action,
                    score: settled.clone(),
                });
            }
            Mv::Threat => {
                ban = None;
                let id = tracked
                    .iter()
                    .position(|t| matches!(t, Tracked::Threats(s, n) if *s == player && *n > 0))
                    .ok_or_else(|| KoSolveError::Internal("no threat to play".into()))?;
                if let Tracked::Threats(_, n) = &mut tracked[id] {
                    *n -= 1;
                }
                line.push(KoMove {
                    number,
                    player,
                    action: Action::Threat { component: id },
                    score: settled.clone(),
                });
                line.push(KoMove {
                    number: number + 1,
                    player: player.opponent(),
                    action: Action::Answer { component: id },
                    score: settled.clone(),
                });
            }
            Mv::ThreatComp { .. } | Mv::ThreatPass => {
                return Err(KoSolveError::Internal(
                    "a combined threat move on the line".into(),
                ))
            }
            Mv::Pass => {
                ban = None;
                line.push(KoMove {
                    number,
                    player,
                    action: Action::Pass,
                    score: settled.clone(),
                });
            }
        }
        let _ = id;
        match child {
            Some(ch) => node = ch,
            None => {
                settled += e.count(&node.pos, node.left)?.to_q();
                ending = Ending::TwoPasses;
                break;
            }
        }
    }
    if settled != target {
        return Err(KoSolveError::Internal(format!(
            "the principal variation scores {settled}, the search {target}"
        )));
    }
    let unfilled = tracked
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, Tracked::Live(C::Ko(..))))
        .map(|(i, _)| i)
        .collect();
    Ok(KoSolution {
        score: target,
        first,
        line,
        fills,
        ending,
        unfilled,
        components: all,
        nodes: e.nodes,
        tt_hits: e.tt_hits,
    })
}

/// A first move of [`first_moves`] and the final score with best play
/// after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstMove {
    /// The move; a threat ([`Action::Threat`]) stands for the threat and
    /// its forced answer, and a compound's `created` are the numbers its
    /// option's components would get.
    pub action: Action,
    /// The final score when this move is played first and both players
    /// play optimally after it (Black positive).
    pub score: BigRational,
}

/// Every legal first turn of `first` with its score ([`first_moves`]).
#[derive(Clone, Debug)]
pub struct FirstMoves {
    /// Component moves in the order of the components and of their options,
    /// then a threat (when the player owns one), then a pass.
    pub moves: Vec<FirstMove>,
    /// The components the moves' numbers refer to (the input).
    pub components: Vec<Component>,
    pub nodes: u64,
}

/// Every legal first turn of `first` in the sum, under the rules of
/// [`solve`] and from the start of [`solve_from`] (a start ban forbids the
/// banned retake), each with the exact final score of optimal play after
/// it. The best of them (the largest for Black, the smallest for White) is
/// [`solve_from`]'s score, and the moves that reach it are exactly the
/// optimal first moves: `best_moves`, `must_play` and `avoid_play` on sums
/// with kos. A move that would recreate a whole-sum state is not legal and
/// is not listed (none can at the start, which is the whole history).
pub fn first_moves(
    store: &mut Store,
    components: &[Component],
    first: Side,
    ban: Option<StartBan>,
    opts: &KoSolveOptions,
) -> Result<FirstMoves, KoSolveError> {
    let mut e = Engine::new(store, opts.clone());
    let Start {
        all,
        tracked,
        settled,
        node,
        ban,
    } = start(&mut e, components, first, ban)?;
    let mut moves = Vec::new();
    let after = |e: &mut Engine, child: &engine::Node, delta: &engine::Val| {
        let v = e.value(child)?;
        Ok::<_, KoSolveError>(&settled + delta.to_q() + v.to_q())
    };
    if !node.pos.comps.is_empty() {
        for (id, t) in tracked.iter().enumerate() {
            let Tracked::Live(c) = *t else { continue };
            let Ok(ci) = node.pos.comps.binary_search(&c) else {
                return Err(KoSolveError::Internal("tracked component lost".into()));
            };
            let opts = e.options(c, node.left)?.to_vec();
            for o in &opts {
                if let (Some((bid, forbidden)), OptKind::Ko { to, .. }) = (ban, &o.kind) {
                    if bid == id && *to == Target::Node(forbidden) {
                        continue;
                    }
                }
                let Some(child) = e.child_of_move(&node, ci, o) else {
                    continue;
                };
                let score = after(&mut e, &child, &o.delta)?;
                let action = match (&o.kind, c) {
                    (OptKind::Short(to), _) => Action::Short {
                        component: id,
                        option: o.index,
                        to: *to,
                    },
                    (OptKind::Ko { to, .. }, C::Ko(_, from)) => Action::Ko {
                        component: id,
                        option: o.index,
                        from,
                        to: *to,
                    },
                    _ => {
                        let threats = o.threats.iter().filter(|&&n| n > 0).count();
                        let n = o.comps.len() + threats;
                        Action::Compound {
                            component: id,
                            option: o.index,
                            created: (tracked.len()..tracked.len() + n).collect(),
                        }
                    }
                };
                moves.push(FirstMove { action, score });
            }
        }
        let player = if node.left { Side::Left } else { Side::Right };
        if node.pos.threats[engine::side_index(player)] > 0 {
            let id = tracked
                .iter()
                .position(|t| matches!(t, Tracked::Threats(s, n) if *s == player && *n > 0))
                .ok_or_else(|| KoSolveError::Internal("no threat to play".into()))?;
            let child = e.child_of_threat(&node);
            let score = after(&mut e, &child, &engine::Val::zero())?;
            moves.push(FirstMove {
                action: Action::Threat { component: id },
                score,
            });
        }
        if let Some(child) = e.child_of_pass(&node) {
            let score = after(&mut e, &child, &engine::Val::zero())?;
            moves.push(FirstMove {
                action: Action::Pass,
                score,
            });
        }
    }
    Ok(FirstMoves {
        moves,
        components: all,
        nodes: e.nodes,
    })
}

fn pos_of(tracked: &[Tracked]) -> engine::Pos {
    let mut comps = Vec::new();
    let mut threats = [0u32; 2];
    for t in tracked {
        match t {
            Tracked::Live(c) => comps.push(*c),
            Tracked::Threats(s, n) => threats[engine::side_index(*s)] += n,
            Tracked::Gone => {}
        }
    }
    comps.sort_unstable();
    engine::Pos::new(comps, threats)
}

/// The optimal score only (no line): cheaper than [`solve`].
pub fn score(
    store: &mut Store,
    components: &[Component],
    first: Side,
    opts: &KoSolveOptions,
) -> Result<BigRational, KoSolveError> {
    let mut e = Engine::new(store, opts.clone());
    score_with(&mut e, components, first)
}

fn score_with(
    e: &mut Engine,
    components: &[Component],
    first: Side,
) -> Result<BigRational, KoSolveError> {
    let parts = e.convert(components)?;
    let mut comps = parts.comps;
    comps.sort_unstable();
    let pos = engine::Pos::new(comps, parts.threats);
    let node = e.root(pos, first == Side::Left);
    Ok(e.value(&node)?.to_q() + parts.delta.to_q())
}

// ----- questions built on solve ------------------------------------------------------

/// Black's threats minus White's among the [`Component::Threats`] of the
/// list: the threats on the board now. Threats inside a compound are not
/// counted, because who gets them depends on who plays the compound: in
/// `{12 − θ | −12 + θ}` (region P of Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”) a Black move hands White a
/// threat and a White move hands Black one, so the compound counts 0 and the
/// sum after either move counts ∓1.
pub fn net_threats(components: &[Component]) -> i64 {
    components
        .iter()
        .map(|c| match c {
            Component::Threats {
                owner: Side::Left,
                count,
            } => *count as i64,
            Component::Threats {
                owner: Side::Right,
                count,
            } => -(*count as i64),
            _ => 0,
        })
        .sum()
}

/// Who resolves the kos of a sum, with each player moving first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoWinner {
    pub black_first: KoSolution,
    pub white_first: KoSolution,
}

impl KoWinner {
    /// Who fills ko component `component` on the optimal line with `first`
    /// to move (`None`: still unresolved at the end).
    pub fn filler(&self, component: usize, first: Side) -> Option<Side> {
        match first {
            Side::Left => self.black_first.filler(component),
            Side::Right => self.white_first.filler(component),
        }
    }
}

/// [`solve`] with each player first; the fills of each line say who wins
/// each ko. (Several lines may be optimal; these are the solver's principal
/// variations.)
pub fn ko_winner(
    store: &mut Store,
    components: &[Component],
    opts: &KoSolveOptions,
) -> Result<KoWinner, KoSolveError> {
    let black_first = solve(store, components, Side::Left, opts)?;
    let white_first = solve(store, components, Side::Right, opts)?;
    Ok(KoWinner {
        black_first,
        white_first,
    })
}

/// The answer of [`equivalent`]: the optimal scores of `env + ko` and
/// `env + X`, index 0 with Black first, 1 with White first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivalence {
    pub holds: bool,
    pub with_ko: [BigRational; 2],
    pub with_x: [BigRational; 2],
    pub nodes: u64,
}

/// Whether `env + ko` and `env + x` have the same optimal score with either
/// player first: the checkable form of the "ko ≡ X" of Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”.
pub fn equivalent(
    store: &mut Store,
    ko: &[Component],
    x: &[Component],
    env: &[Component],
    opts: &KoSolveOptions,
) -> Result<Equivalence, KoSolveError> {
    let mut e = Engine::new(store, opts.clone());
    let with = |extra: &[Component]| -> Vec<Component> {
        let mut v = env.to_vec();
        v.extend_from_slice(extra);
        v
    };
    let (a, b) = (with(ko), with(x));
    let with_ko = [
        score_with(&mut e, &a, Side::Left)?,
        score_with(&mut e, &a, Side::Right)?,
    ];
    let with_x = [
        score_with(&mut e, &b, Side::Left)?,
        score_with(&mut e, &b, Side::Right)?,
    ];
    Ok(Equivalence {
        holds: with_ko == with_x,
        with_ko,
        with_x,
        nodes: e.nodes,
    })
}

/// The answer of [`pseudo_incentive`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PseudoIncentive {
    /// Who resolves the ko on both optimal lines, and the short game `fill`
    /// it is resolved to.
    pub filler: Side,
    pub fill: GameId,
    /// The temperature interval the rule found, `(lo, hi)` (`hi` `None`: no
    /// environment move precedes the fill).
    pub lo: BigRational,
    pub hi: Option<BigRational>,
    /// `c` of `X` (below).
    pub c: Dyadic,
    /// The pseudo-value X: `{fill + c | fill}` when White fills, `{fill |
    /// fill − c}` when Black fills (just `fill` when `c = 0`).
    pub x: GameId,
    /// Δ(X): White's incentive `X − X^R` or Black's `X^L − X`, both `{c | 0}`
    /// (0 when `c = 0`).
    pub incentive: GameId,
    /// `equivalent(ko, X, env)`.
    pub check: Equivalence,
}

/// X and Δ(X) for the filler, the fill and `c` (step 3 below).
fn pseudo_value(
    store: &mut Store,
    filler: Side,
    fill: GameId,
    c: Dyadic,
) -> Result<(Dyadic, GameId, GameId), KoSolveError> {
    if c.is_zero() || c.to_rational().is_negative() {
        return Ok((Dyadic::zero(), fill, store.zero()));
    }
    let cg = store.number(c.clone());
    let x = match filler {
        Side::Right => {
            let top = store.add(fill, cg)?;
            store.canonical(vec![top], vec![fill])?
        }
        Side::Left => {
            let bottom = store.sub(fill, cg)?;
            store.canonical(vec![fill], vec![bottom])?
        }
    };
    let zero = store.zero();
    let incentive = store.canonical(vec![cg], vec![zero])?;
    Ok((c, x, incentive))
}

/// The pseudo-incentive of the ko `ko` in the environment `env` (Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”
/// §6), by this rule:
///
/// 1. Solve `env + ko` with each player first. On both lines the same player
///    must resolve the ko to the same short game `f` (otherwise
///    [`KoSolveError::NoPseudoValue`]).
/// 2. On each line take `hi` = the temperature of the last environment
///    short game played before the fill (the paper's ΔK) and `lo` = the
///    largest temperature (at least 0) of the environment short games still
///    unplayed just after it (ΔL). Over both lines, `hi` is the smaller and
///    `lo` the larger; `hi < lo` is [`KoSolveError::NoPseudoValue`] (no
///    single X fits both lines).
/// 3. X is the game whose Right (for a White fill) or Left (Black fill)
///    option is `f` and whose incentive `{c | 0}` has temperature `c/2`
///    halfway between `lo` and `hi`: `c = lo + hi` (`c = 2·lo + 2` when no
///    environment move precedes the fill; `X = f` when `c = 0`: the ko then
///    behaves like its fill). For a switch environment the incentives are
///    `{s | 0}` with swing `s` = twice the temperature, so ΔK > Δ(X) > ΔL as
///    §6 asks.
/// 4. `check` = [`equivalent`]`(ko, X, env)`: whether the rule's X really
///    gives the same optimal results.
/// 5. If the check fails and `lo = 0` (the fill comes after every hot
///    environment move), `X = f` is tried and taken when [`equivalent`]
///    confirms it (e.g. `ko(1, 0)` against two `{1/2 | 0}` and two White
///    threats: `c = 1/4` fails, `X = 0` holds).
///
/// `c` must come out dyadic (temperatures of short games are); otherwise
/// [`KoSolveError::NoPseudoValue`].
pub fn pseudo_incentive(
    store: &mut Store,
    ko: &Component,
    env: &[Component],
    opts: &KoSolveOptions,
) -> Result<PseudoIncentive, KoSolveError> {
    let mut all = env.to_vec();
    all.push(ko.clone());
    let k = env.len();
    let mut filler: Option<(Side, GameId)> = None;
    let mut lo = BigRational::zero();
    let mut hi: Option<BigRational> = None;
    for first in [Side::Left, Side::Right] {
        let sol = solve(store, &all, first, opts)?;
        let Some(fill) = sol.fills.iter().find(|f| f.component == k) else {
            return Err(KoSolveError::NoPseudoValue {
                reason: format!(
                    "nobody resolves the ko on the optimal line with {} first",
                    first.player()
                ),
            });
        };
        match filler {
            None => filler = Some((fill.player, fill.value)),
            Some(f) if f == (fill.player, fill.value) => {}
            Some(_) => return Err(KoSolveError::NoPseudoValue {
                reason:
                    "the two optimal lines (Black first, White first) resolve the ko differently"
                        .into(),
            }),
        }
        // Replay the environment's short games along the line.
        let mut state: Vec<Option<GameId>> = sol.components[..k]
            .iter()
            .map(|c| match c {
                Component::Short(g) if !store.is_number(*g) => Some(*g),
                _ => None,
            })
            .collect();
        let mut last: Option<BigRational> = None;
        for m in &sol.line {
            if m.number == fill.number {
                break;
            }
            if let Action::Short { component, to, .. } = m.action {
                if component < k {
                    if let Some(g) = state[component] {
                        last = Some(store.temperature(g)?);
                    }
                    state[component] = (!store.is_number(to)).then_some(to);
                }
            }
        }
        let mut after = BigRational::zero();
        for g in state.into_iter().flatten() {
            let t = store.temperature(g)?;
            if t > after {
                after = t;
            }
        }
        if after > lo {
            lo = after;
        }
        if let Some(t) = last {
            hi = Some(match hi {
                Some(h) if h < t => h,
                _ => t,
            });
        }
    }
    let Some((filler, fill)) = filler else {
        return Err(KoSolveError::Internal("no line".into()));
    };
    if let Some(h) = &hi {
        if h < &lo {
            return Err(KoSolveError::NoPseudoValue {
                reason: format!(
                    "the fill comes after a move of temperature {h} on one line but before one of temperature {lo} on the other"
                ),
            });
        }
    }
    let one = BigRational::from_integer(1.into());
    let c = match &hi {
        Some(h) => &lo + h,
        None => (&lo + &one) * BigRational::from_integer(2.into()),
    };
    let c = Dyadic::from_rational(&c).ok_or_else(|| KoSolveError::NoPseudoValue {
        reason: format!("c = {c} is not a dyadic rational"),
    })?;
    let (mut c, mut x, mut incentive) = pseudo_value(store, filler, fill, c)?;
    let mut check = equivalent(
        store,
        std::slice::from_ref(ko),
        &[Component::Short(x)],
        env,
        opts,
    )?;
    // Step 5: the fill comes after every hot environment move (the paper's
    // "fill during the infinitesimals"): the ko may behave like its fill.
    if !check.holds && lo.is_zero() && !c.is_zero() {
        let (c0, x0, i0) = pseudo_value(store, filler, fill, Dyadic::zero())?;
        let check0 = equivalent(
            store,
            std::slice::from_ref(ko),
            &[Component::Short(x0)],
            env,
            opts,
        )?;
        if check0.holds {
            (c, x, incentive, check) = (c0, x0, i0, check0);
        }
    }
    Ok(PseudoIncentive {
        filler,
        fill,
        lo,
        hi,
        c,
        x,
        incentive,
        check,
    })
}
