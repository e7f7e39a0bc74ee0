//! Whole-board analysis (issue 15 §3): from a whole board (a [`Game`] or a
//! [`Position`] taken as one) to the values of its independent regions, the
//! stops of the whole board, every optimal first move in Go coordinates and
//! an optimal line to the end with the final score under the rules and komi.
//!
//! No syntax and no IO.
//!
//! One file (about 1 500 lines) because it is one pipeline over one
//! record: settling stones, cutting regions, valuing them (on several
//! threads), then stops, moves and lines, each step reading what the step
//! before left in the [`Analysis`]. The tests are in `analysis/tests.rs`.
//!
//! # What is taken as settled
//!
//! * **Safe stones.** A chain is *safe* when Benson's algorithm
//!   ([`super::benson`]) proves it unconditionally alive on the board (after
//!   the stones marked dead are removed), or when one of its stones is
//!   marked [`Status::Safe`] (uppercase `X` / `O` in a diagram, a game's
//!   marks, a named argument): a mark covers the whole chain. Each safe
//!   chain is reported with its reason.
//! * **Dead stones.** A chain with a stone marked [`Status::Dead`] is
//!   removed from the board before anything else; under Japanese rules its
//!   stones are the opponent's prisoners, under area rules they count
//!   nothing (their points become empty points of a region, which the
//!   region's owner will count as area). A chain marked both safe and dead,
//!   or marked dead while Benson proves it alive, is an error.
//!
//! # Regions
//!
//! Every point that is not a safe stone belongs to a *region*: a connected
//! component of non-safe points. Two regions touch only through safe stones,
//! which never change, so a move in one changes nothing in another (the
//! local game applies no ko ban, see below), and the whole board is the
//! disjunctive sum of its regions.
//!
//! A region is cut out as its own [`Position`]: the bounding box of its
//! points grown by one point on each side (so every neighbour of a region
//! point is in the box), clipped to the board. Safe stones in the box are
//! framing stones; points of the box that belong to other regions become
//! Black framing stones. Such a filler point touches no point of this region
//! (it would otherwise be in the region: it is not safe), and the local
//! search reads framing stones only through the region points next to them
//! (which stones are immortal, which components are settled: see "Settled
//! areas" in [`crate::go`]), so the filler changes nothing. The cut carries
//! an [`super::Origin`], so its points print as `C3`. Each region is
//! evaluated by [`evaluate_go`] under the game's scoring and ko rule and a
//! per-region node budget; a region over budget (or over the search's 128
//! points, or whose search stops at the memory limit: its store, and all
//! it held, is dropped) is reported as too large with its point count and
//! the others are still analysed (the stops and lines then need every
//! region and are not given). So is a region that has no local value: one where play can go on
//! for ever (a whole board where no stone is or can become safe, `. .`: its
//! ko graph has no way out), or one the ko rule gives none; the report says
//! "no value" for those.
//!
//! The search runs with the territory rule on ([`super::SearchOptions::territories`],
//! Japanese scoring and the basic ko rule): a region that is a territory in
//! which the opponent cannot live (module docs of `go::territory`: every
//! invasion is answered by a move joining the wall, or by a capture of
//! more stones than the invasion took) is the number of its points plus the dead
//! stones in it, without a ko graph. It stands for that number in the sum,
//! so, like a settled area, it is not played in the optimal moves and
//! lines (a number is never a move worth making; an invasion that the
//! owner answers would only keep the stop). The report marks such regions.
//!
//! # The whole board's score
//!
//! The local search scores a region as the module docs of [`crate::go`]
//! say: under Japanese rules the prisoners taken in it plus its settled
//! areas, under area rules its region points that hold immortal stones plus
//! its settled areas (framing stones count nothing). So the whole board is
//!
//! `Σ regions + c − komi`,
//!
//! with the constant `c` = the prisoners already taken plus the stones
//! marked dead, as prisoners of their opponent (Japanese), or the safe
//! stones on the board, Black's minus White's (area). Black is positive.
//!
//! # Stops, optimal moves and lines
//!
//! The stops of the whole board are the stops of the sum of the regions'
//! values and `c`, minus komi: [`crate::play`] when every region is a short
//! game, the ko solver [`crate::ko::solve`] (basic ko rule, threats none)
//! when some region holds a ko (for a player under a ko ban, from the
//! banned start: "The ko ban of the last move" below).
//!
//! *Optimal first moves* are Go moves. A legal move of player `P` in region
//! `R` (on a point the local search would play: not in a settled area) is
//! optimal when the stop, with the opponent to move, of the sum with `R`
//! replaced by the value of the position after the move equals `P`'s stop
//! of the whole board. For a sum of short games this is exactly the
//! definition of the stop: `LS(G) = max RS(G^L)` over the Left options of
//! any form of a game `G` not equal to a number, and the Go moves are the
//! options of the sum. When every region is a number no move is listed
//! (play is over: the stop is that number). With kos the replacement loses
//! the ban on an immediate retake, so after a ko capture the opponent is
//! credited with a retake the ko rule forbids: a listed move is optimal, but
//! a ko capture may be optimal without being listed. The report says so
//! ("none proved" when no move is listed); "none (every region is a
//! number)" only when every region is one. Under a superko rule the
//! regions are short games and the positions after moves are valued with
//! the line's history, so the list is exact.
//!
//! *Lines* start from the given player and, move after move, play a
//! listed optimal move (the one the short-game solver's own line takes when
//! some Go move leads to exactly that option, else the first found), until
//! every region is a number; the final score is then the sum of those
//! numbers plus `c` minus komi. With kos, or a ko ban in force (where the
//! short-game solver's move could be the banned retake), the line plays the
//! move with the best replaced stop and respects the basic ko ban on the
//! board (a player left with no legal move passes, and the line shows the
//! pass); it is capped in length and marked unfinished if the cap is
//! reached.
//!
//! *The board as it stands.* Under the basic ko rule (and the New Ko Rules
//! and no ko rule, which the local search reads as it), apart from the ko
//! ban below, the board is analysed without its history: the stops and
//! lines, with either player first, are those of the board as a fresh
//! start (the ko solver's no-repetition rule starts there). A line with
//! kos is a heuristic, not a proved optimal line: its final score can
//! differ from the stop (the stop, from the ko solver, is the answer).
//!
//! Under a superko rule ([`KoRule::local_reading`] positional or
//! situational: positional, situational, natural situational superko) a
//! region's value is the local reading of the rule documented on
//! [`KoRule`]: the value of its line of play, on which a move may not
//! recreate a position of the region that stood earlier on the line (for
//! the situational reading, one the same player created; the position
//! valued counts as created by the opponent of whoever moves first). The
//! history is read so:
//!
//! * *Along a line.* The position of region `r` after a move is valued
//!   with the positions of `r` before it on the line as its history (the
//!   region's start position and every later one, each with who created
//!   it: [`evaluate_go_with_history`]), and a move that recreates one of
//!   them is not played. This is exactly what the region's own value does
//!   with its options (step 3 of `go::kos` unfolds each option with the
//!   line so far), so the options of a region's value are the values of
//!   the positions after its moves (tested against a brute force over
//!   lines, `values_with_the_line_as_history_agree_with_brute_force` in
//!   `go::superko_oracle`), and the optimal first moves and the lines are
//!   read off the values as under a short game. Valued fresh instead, the
//!   position after a ko capture let the opponent retake at once, which
//!   the region's value forbids: the capture was never listed and the
//!   line's score was not the stop.
//! * *The game's history.* The earlier boards of a game ([`Game::past_boards`]:
//!   under positional superko every board, situationally the boards a
//!   board play of each player may not recreate; only those with as many
//!   stones played elsewhere as now), and, for a position, the board
//!   before a ko capture that its ban records (the board after the retake),
//!   are whole boards. One whose points outside region `r` are those of the
//!   board now is an earlier position of `r` (`region_history`), and
//!   recreating it recreates that whole board only while nothing else on
//!   the board has changed. When `r` is the only region with moves, nothing
//!   else ever changes: these boards are then `r`'s line's history, for its
//!   value and every position after its moves, exactly as on the whole
//!   board (test `ko_boards_under_positional_superko_equal_the_whole_board_search`:
//!   stops, optimal first moves and lines against a whole-board search
//!   under positional superko, fresh and after a ko capture). Otherwise,
//!   as the basic ko ban binds the next move only,
//!   these boards bind the first move from the board analysed, of either
//!   player: a first move that recreates one is not played (the stop with
//!   that player first is the best stop after the other moves,
//!   `Play::stop_without_past`; the optimal first moves and the line's
//!   first move are chosen among the others); the region values and every
//!   later move read the line's own history only. After a ko capture the
//!   retake is so forbidden at once, and allowed after a move elsewhere, as
//!   in the game; the stops are those of the basic ko ban (the reviewer's
//!   board: White first 1, where the retake's −1 was given). Valuing the
//!   regions with the game's boards as their line's history instead would
//!   forbid the retake for ever (the local reading keeps a position of the
//!   region forbidden whatever is played elsewhere), and give Black a point
//!   more on that board than either the game or the basic rule does. Not
//!   read, on a board with other regions to play in: a return of region
//!   `r` to a game's board after two moves or more all played in `r` (the
//!   whole board recurs, and the game forbids it). (Bound to the first
//!   move only on boards of one region with moves, the stops after a ko
//!   capture differed from the whole board's on 38 of 43 boards of that
//!   test: there the retake is often never possible again.)
//!
//! The report says how many of the game's boards bind the first move.
//! Under the New Ko Rules the ban of the last capture is kept as under the
//! basic rule (their rule 1, module docs of `korules`, forbids recreating
//! the board before the opponent's last board play: the immediate retake);
//! the game keeps no ban on its board, so it is found by playing the last
//! move again ([`Game::last_ko_capture`]). Under `ko_rule: none` there is
//! no ban, and a region whose positions can repeat has no value (as
//! `value` says: no rule ends its cycles), so the board has no stops.
//!
//! # The ko ban of the last move
//!
//! A game (or a position played to) whose last move captured a stone in a
//! ko under the basic ko rule carries a ban: its player to move (the
//! ban's colour, for a position) may not retake at once. The analysis
//! starts from it ([`Analysis::ko_ban`]); the regions are valued without
//! it (a region's value is a game, the ban a fact about the next move
//! only), and only the banned player's first move sees it:
//!
//! * *That player first.* The stop is exact: the retake is found as an
//!   option of the root of the region's ko graph (`retake_node`: the
//!   walk's line to each node the root's options reach is replayed on the
//!   region, and the node whose stones are those after the retake is it),
//!   and the ko solver plays the sum from a start where that option is
//!   banned ([`crate::ko::solve_from`], a [`StartBan`]: the search's root
//!   carries the ban as a node reached by a ko capture does, so the rules
//!   and the proof of the solver are unchanged; a property test there
//!   compares it with a plain minimax started from the same ban). The
//!   optimal first moves are the legal moves other than the retake whose
//!   replaced stop (above) equals that stop, and the line never takes the
//!   retake first. The ban binds that player's first turn only: any other
//!   move, or a pass, lifts it, as in the game.
//! * *The other player first* reads as the banned player passing first,
//!   which under the basic ko rule lifts the ban: that stop, those moves
//!   and that line are those of the board with the ban lifted.
//! * When the retake is no move of the region's local game (a territory
//!   the rule values as a number, a settled area) the ban changes nothing
//!   and the stop is exact as it is. Were the retake a move of a region
//!   whose value holds no ko graph with it (not met: a capture and its
//!   retake make a cycle, so the search returns a graph and the latent-ko
//!   rules, which need the root off the cycles, keep it), the stop would be
//!   that of the board with the ban lifted: [`KoBan::exact_stop`] is then
//!   false and the report says so; the moves and the line still respect
//!   the ban.
//! * The ban is dropped when the board analysed no longer has that ko (a
//!   stone of it marked dead or safe: the retake captures no single
//!   stone). It holds under the basic ko rule and the New Ko Rules; under
//!   a superko rule the board before the capture joins the game's history
//!   ("The board as it stands" above), which forbids the retake as the
//!   first move; with no ko rule there is none.
//!
//! The report names the ban in Go coordinates ("White may not retake at E5
//! at once (ko)") and says whether the stop is exact with it. The tests
//! `a_game_after_a_ko_capture_keeps_the_ban` and
//! `ko_bans_on_random_boards_agree_with_the_whole_board` check the stop
//! against the ko solver on the whole board searched as one graph (as in
//! "The oracle" below), started from the same ban.
//!
//! # Threads
//!
//! The regions are independent, and so are the positions after the first
//! moves that the optimal-move list values: `analyse` values them on
//! [`AnalysisOptions::threads`] threads (the calling one and helpers, each
//! taking the next item when done). The store that interns games is
//! single-threaded, so each item is valued in a *fresh store* of its own
//! and its value is copied out as plain data (a [`GameExport`] of its
//! games, a [`DetachedGoValue`] of its graphs) and interned into the
//! analysis's store, item after item in board order, when all are done.
//! Each item is valued the same way on one thread or several (a fresh
//! store, with FxHash tables, has no history), and the copies are interned
//! in the same order, so the analysis's store ends with the same games
//! under the same ids and the result does not depend on the threads (a
//! test compares one thread with two on random boards). With two threads
//! or more a region's large ko graph is also built in two halves on two
//! threads (`SearchOptions::graph_threads`): the same graph, with the same
//! games made in the same order in the item's store and the same steps,
//! so this too changes nothing (the test build takes that path for every
//! graph of two nodes or more, so the same test covers it). The lines and
//! stops then run on the calling thread, in its store.
//!
//! The helper stores share the interrupt flag (Ctrl-C stops every thread),
//! what is left of a step limit (with one, the items run on one thread,
//! so the limit is charged in order), and the process's memory limit; the
//! steps they take are added to the analysis's store. A region stopped by
//! the memory limit while other threads were working is valued again,
//! alone (the others' memory given back), and reported too large if it
//! stops there again. A position after a first move whose search fails is
//! left to the sequential code, which meets the failure in its own order;
//! when the stops, moves or lines stop at the memory limit, that is
//! reported as the analysis's missing stops (`play_error`, as a play
//! budget is) and the store's memo tables are emptied.
//!
//! *Large regions.* A region of at least 12 points (`MEMO_POINTS`), under
//! the basic ko rule, is valued differently when stops are asked for: in
//! the analysis's own store, on the calling thread (with a helper thread
//! the positions counted against the budget would be the calling thread's
//! alone, so whether the region fits would depend on the threads), and the
//! tables of its search are kept (`SearchMemo`); every position of that region met
//! afterwards (after a first move, along a line) is searched taking over
//! the tables of the searches before (`evaluate_go_reusing`), so it is
//! mostly lookups. Valuing each such position afresh cost a search of
//! nearly the whole region per move: the open 2 × 8 area took 84 s to
//! analyse, of which its own search was 7 s; it now takes 7 s
//! (BENCHMARKS.md, "Analysis of a large region"). A table entry is the
//! value of a component, whatever the position it was met from, so the
//! values are the same (tests: `a_search_that_takes_over_earlier_tables_
//! gives_the_same_values`, and `large_regions_equal_whole_board_minimax`
//! against the oracle below). Such a region is searched after the other
//! regions' searches, and its games enter the store in board order with
//! theirs, so the store's games and steps still do not depend on the
//! threads. The stops are found before the positions after the first
//! moves are valued, so that a board whose stops fail (a ko graph too
//! large for the komaster analyses) does not value them in vain.
//!
//! # The oracle (tests)
//!
//! `analysis/tests.rs` computes, with no decomposition, the value of the
//! *whole-board local game*: positions are whole boards (safe stones as
//! framing stones), moves are the legal moves outside settled areas, a
//! Japanese move scores its captures, an area move the change in immortal
//! stones, and play ends on a board where neither player can move (the
//! rules of [`crate::go`], implemented again on two bit sets per board
//! with a capture rule of its own, not through the analysis's move code:
//! no components, no symmetry). The settled areas of a board are a number
//! *added* to the game of the rest: `W(P) = s(P) + {g + W(P^L) − s(P) | …}`
//! with `s(P)` the settled score and `g` what the move scores. (Putting
//! them inside the options instead is a different game: `{−2 | }` is 0,
//! while `−3 + {1 | }` is −1; integers do not translate through a form
//! with several integers between its options. The first oracle did that,
//! and the test caught it: `settled_areas_are_a_summand_of_the_whole_board`.
//! That the settled areas are a summand is the pruning theorem of
//! [`crate::go`].) The canonical value `W` is computed recursively over
//! whole boards, and the score outside it (framing stones under area
//! scoring) is counted again from the board.
//!
//! **Theorem:** `W + c = Σ regions + c` as games, so their stops and their
//! optimal first moves are equal. *Proof sketch:* the regions are exactly
//! the components of the whole board that are connected through non-safe
//! points; a move in one leaves the other regions' points and the
//! settledness of their components unchanged (settledness reads only a
//! component and the stones next to it), so the whole-board game tree is
//! the disjunctive sum of the region game trees (induction on the position:
//! the options of the sum are the options of one summand, the settled
//! areas a number added to both), and the local search computes each
//! summand's value (the module docs of [`crate::go`]). The test compares
//! `W + c` with the sum of the regions' values and `c`, the stops, and the
//! set of optimal first moves (the oracle's root moves whose option keeps
//! the stop) on 200 random 5×5–7×7 boards with at most 14 empty points and
//! capturable stones per scoring, komi from −3 to 3. Boards whose
//! whole-board game repeats a position (kos) have no short value `W`; on
//! those (up to 30 per scoring, whole-board graphs of at most 60 nodes) the analysis' stops, from the ko solver on
//! the regions' graphs, are compared with the ko solver on the whole board
//! searched as a single component (`split_components: false`: one graph
//! whose nodes are whole boards). There the states, the basic ko ban and
//! the no-repetition rule of the two correspond one to one; the two-pass
//! count (a komaster mean of the product graph against the sum of the
//! regions' means) could in principle differ. Under Japanese rules they
//! agree on every ko board compared; under area scoring they disagree on
//! some (test `ko_boards_under_area_scoring_can_disagree` pins one such
//! board: open, not explained yet), so the test counts those instead of failing.
//!
//! The stops are CGT stops: play until the remaining sum is a number. A Go
//! game with passes ending at two passes can differ where moving hurts both
//! players (a region worth 1/2 is never played out, and the Go score of the
//! unplayed board is not defined by the local game): the analysis reports
//! the CGT stop, and the line's final score is that number, not always an
//! integer.

use super::benson::unconditionally_alive;
use super::game::{Game, RuleSet, Status};
use super::kos::DetachedGoValue;
use super::kos::GoValue;
use super::position::{Cell, Colour, Move, Position};
use super::search::{
    evaluate_go_reusing, evaluate_go_with_history, search_moves, Earlier, GoError, KoRule, Rules,
    SearchMemo, SearchOptions,
};
use super::Origin;
use crate::game::{CgError, GameExport, GameExporter, GameId, Store};
use crate::ko::{solve::KoSolveOptions, Component, Komaster, NodeId, Side, StartBan, Target};
use crate::limits::Exceeded;
use crate::play::{self, Player};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// What the analysis needs besides the board.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    pub rules: RuleSet,
    pub komi: BigRational,
    /// The node budget of the local search of one region.
    pub region_budget: u64,
    /// The node budget of one stop computation on the sum.
    pub play_budget: u64,
    /// Compute the stops and the optimal first moves.
    pub stops: bool,
    /// Compute the two optimal lines to the end (with the stops).
    pub lines: bool,
    /// Threads that value regions and the positions after first moves
    /// (module docs, "Threads"); 1 values them all on the calling thread.
    /// The result does not depend on it.
    pub threads: usize,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            rules: RuleSet::default(),
            komi: BigRational::zero(),
            region_budget: 1_000_000,
            play_budget: play::DEFAULT_BUDGET,
            stops: true,
            lines: true,
            threads: default_threads(),
        }
    }
}

/// The threads an analysis uses by default: the machine's cores, at most
/// [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// The most threads an analysis starts by default: each may hold a large
/// search's tables at once.
const MAX_THREADS: usize = 4;

/// Why a chain was taken as safe.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SafeReason {
    /// Benson's algorithm proves it unconditionally alive.
    Benson,
    /// The user marked it safe.
    Marked,
}

/// A chain the analysis took as safe or dead.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chain {
    pub colour: Colour,
    /// Board points, in order.
    pub points: Vec<usize>,
}

/// One region and what the local search made of it.
#[derive(Clone, Debug)]
pub struct RegionReport {
    /// Board points, in order.
    pub points: Vec<usize>,
    /// The region cut out of the board (see the module docs).
    pub position: Position,
    /// The value, or why there is none (over budget: too large).
    pub outcome: Result<RegionValue, GoError>,
    /// Positions the local search expanded (up to the budget).
    pub nodes: u64,
    /// Wall time of the local search.
    pub time: Duration,
    /// Under a superko rule: the game's earlier boards that are positions
    /// of the region (module docs, "The board as it stands"), which a move
    /// there may not recreate.
    pub history: usize,
}

/// The value of a region.
#[derive(Clone, Debug)]
pub struct RegionValue {
    /// The value, a latent ko resolved (module docs, "Latent kos").
    pub value: GoValue,
    pub chilled: GoValue,
    /// The temperature of a short value (`None` with kos).
    pub temperature: Option<BigRational>,
    /// The search found a ko graph that the latent-ko rules replaced by
    /// the short game of correct play (`value` is that game).
    pub latent: bool,
    /// The territory rule (`go::territory`) valued the region as a number
    /// without searching it: a territory in which the opponent cannot
    /// live. Like a settled area it is not played in the optimal moves and
    /// lines: it stands for a number, in which no move is ever needed.
    pub territory: bool,
}

impl RegionValue {
    pub fn has_ko(&self) -> bool {
        matches!(self.value, GoValue::Ko { .. })
    }
}

/// A Go move of the analysis: a stone of `colour` on board point `point`,
/// in region number `region` (an index into [`Analysis::regions`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct GoMove {
    pub colour: Colour,
    pub region: usize,
    pub point: usize,
}

/// An optimal line to the end.
#[derive(Clone, Debug)]
pub struct GoLine {
    pub first: Colour,
    pub moves: Vec<GoMove>,
    /// The final score, komi included (Black positive): the sum of the
    /// numbers the regions reached plus the constant, minus komi.
    pub score: BigRational,
    /// Whether every region reached a number (else the line was cut at its
    /// length cap, possible only with kos).
    pub finished: bool,
    /// The passes of the line: a player with no legal move (with kos: the
    /// ko ban) passes, here after that many of `moves`.
    pub passes: Vec<(usize, Colour)>,
}

/// One step of a [`GoLine`] in the order played: a move, or a pass.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GoStep<'a> {
    Move(&'a GoMove),
    Pass(Colour),
}

impl GoLine {
    /// The moves and passes of the line in the order played.
    pub fn steps(&self) -> Vec<GoStep<'_>> {
        let passes_at = |i: usize| {
            self.passes
                .iter()
                .filter(move |(at, _)| *at == i)
                .map(|&(_, c)| GoStep::Pass(c))
        };
        let mut out = Vec::with_capacity(self.moves.len() + self.passes.len());
        for (i, m) in self.moves.iter().enumerate() {
            out.extend(passes_at(i));
            out.push(GoStep::Move(m));
        }
        out.extend(passes_at(self.moves.len()));
        out
    }
}

/// The result of [`analyse`].
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The board analysed: dead stones removed, safe stones as framing
    /// stones, named in Go coordinates.
    pub board: Position,
    pub safe: Vec<(Chain, SafeReason)>,
    pub dead: Vec<Chain>,
    pub regions: Vec<RegionReport>,
    /// The score outside the regions (module docs), Black positive.
    pub constant: i64,
    pub komi: BigRational,
    pub rules: RuleSet,
    /// Black first / White first, komi included; `None` when some region
    /// has no value.
    pub left_stop: Option<BigRational>,
    pub right_stop: Option<BigRational>,
    /// Every optimal first move of Black / White (module docs).
    pub best_black: Vec<GoMove>,
    pub best_white: Vec<GoMove>,
    pub black_first: Option<GoLine>,
    pub white_first: Option<GoLine>,
    /// Why the stops are missing when every region has a value (the play
    /// search on the sum ran out of budget).
    pub play_error: Option<String>,
    /// The basic-ko ban the board was analysed with (module docs, "The ko
    /// ban of the last move").
    pub ko_ban: Option<KoBan>,
    /// Whether the board is a game's ([`analyse_game`]): its stones are
    /// stones of play, not the frame of a diagram, so the report notes a
    /// line that, played on the board, captures stones safe only by their
    /// marks or is illegal there.
    pub game: bool,
}

/// The basic-ko ban in force on the board analysed: the last move captured
/// a stone in a ko, and `colour` may not retake at `point` at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoBan {
    /// The player banned (the player to move of a game).
    pub colour: Colour,
    /// The board point of the banned retake.
    pub point: usize,
    /// Whether `colour`'s stop is exact with the ban: the ko solver started
    /// from the banned state, or a board on which the retake is no move of
    /// the local game (the ban changes nothing). `false`: the retake is a
    /// move of a region whose value holds no ko graph with it, and the stop
    /// is that of the board with the ban lifted. Also `false` when there are
    /// no stops.
    pub exact_stop: bool,
}

/// Why there is no analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// A mark on a point without a stone.
    NoStone {
        point: String,
    },
    /// A chain marked both safe and dead.
    SafeAndDead {
        point: String,
    },
    /// A chain marked dead that Benson's algorithm proves alive.
    DeadButAlive {
        point: String,
    },
    /// The board is larger than 19 × 19.
    TooLarge {
        width: usize,
        height: usize,
    },
    /// A play question on the sum failed (budget, interrupt).
    Play(String),
    /// A play question on the sum stopped at the memory limit.
    PlayMemory(String),
    /// The local search failed otherwise than by its budget.
    Search(GoError),
    Interrupted,
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::NoStone { point } => {
                write!(f, "{point} holds no stone to mark safe or dead")
            }
            AnalysisError::SafeAndDead { point } => {
                write!(f, "the chain at {point} is marked both safe and dead")
            }
            AnalysisError::DeadButAlive { point } => write!(
                f,
                "the chain at {point} is marked dead, but Benson's algorithm proves it \
                 unconditionally alive"
            ),
            AnalysisError::TooLarge { width, height } => write!(
                f,
                "a board has at most 19×19 points; this one is {width}×{height}"
            ),
            AnalysisError::Play(m) | AnalysisError::PlayMemory(m) => write!(f, "{m}"),
            AnalysisError::Search(e) => write!(f, "{e}"),
            AnalysisError::Interrupted => write!(f, "interrupted"),
        }
    }
}

impl std::error::Error for AnalysisError {}

impl AnalysisError {
    /// Whether the computation stopped at the memory limit.
    fn over_memory(&self) -> bool {
        match self {
            AnalysisError::PlayMemory(_) => true,
            AnalysisError::Search(e) => over_memory(e),
            _ => false,
        }
    }
}

impl From<CgError> for AnalysisError {
    fn from(e: CgError) -> Self {
        match e {
            CgError::Interrupted => AnalysisError::Interrupted,
            e => AnalysisError::Search(GoError::Cg(e)),
        }
    }
}

impl From<GoError> for AnalysisError {
    fn from(e: GoError) -> Self {
        match e {
            GoError::Cg(CgError::Interrupted) => AnalysisError::Interrupted,
            e => AnalysisError::Search(e),
        }
    }
}

impl From<play::PlayError> for AnalysisError {
    fn from(e: play::PlayError) -> Self {
        match e {
            play::PlayError::Interrupted => AnalysisError::Interrupted,
            e @ play::PlayError::Engine(CgError::Limit(
                Exceeded::Memory { .. } | Exceeded::Table { .. },
            )) => AnalysisError::PlayMemory(format!("the stops of the whole board: {e}")),
            e => AnalysisError::Play(format!("the stops of the whole board: {e}")),
        }
    }
}

impl From<crate::ko::KoSolveError> for AnalysisError {
    fn from(e: crate::ko::KoSolveError) -> Self {
        match e {
            crate::ko::KoSolveError::Interrupted => AnalysisError::Interrupted,
            e @ crate::ko::KoSolveError::Engine(CgError::Limit(
                Exceeded::Memory { .. } | Exceeded::Table { .. },
            )) => AnalysisError::PlayMemory(format!("the stops of the whole board (kos): {e}")),
            e => AnalysisError::Play(format!("the stops of the whole board (kos): {e}")),
        }
    }
}

/// The marks of a diagram taken as a whole board: its framing stones
/// (uppercase) are marked safe.
pub fn diagram_marks(pos: &Position) -> Vec<Option<Status>> {
    pos.frame
        .iter()
        .map(|&f| f.then_some(Status::Safe))
        .collect()
}

/// Analyses a game in progress with its own marks, komi and rules
/// (`opts.rules` and `opts.komi` are replaced by the game's).
pub fn analyse_game(
    store: &mut Store,
    game: &Game,
    opts: &AnalysisOptions,
) -> Result<Analysis, AnalysisError> {
    let marks: Vec<Option<Status>> = (0..game.position().cells.len())
        .map(|p| game.mark(p))
        .collect();
    let opts = AnalysisOptions {
        rules: game.rules(),
        komi: game.komi().clone(),
        ..opts.clone()
    };
    analyse_game_as(store, game, &marks, &opts)
}

/// Analyses a game in progress under `opts` (the game's rules and komi, or
/// others the caller chose) with the marks `marks` (one per point): its
/// board, with the last move's ko ban under the rules that have the basic
/// ko rule and its earlier boards under a superko rule.
pub fn analyse_game_as(
    store: &mut Store,
    game: &Game,
    marks: &[Option<Status>],
    opts: &AnalysisOptions,
) -> Result<Analysis, AnalysisError> {
    let mut pos = game.position().clone();
    // The ban of the last move under the rules that have the basic ko rule
    // (a game under the other rules keeps none on its board); under a
    // superko rule the game's boards say what the retake may recreate.
    if opts.rules.ko_rule.local_reading() == KoRule::Basic {
        pos.ko_ban = game.last_ko_capture();
    }
    let past = game.past_boards(opts.rules.ko_rule);
    let mut analysis = analyse_with_history(store, &pos, marks, opts, &past)?;
    analysis.game = true;
    Ok(analysis)
}

/// Analyses `board` taken as a whole board, every stone capturable but for
/// the marks (one per point; see the module docs). The board's own framing
/// flags are ignored: pass [`diagram_marks`] to honour them.
pub fn analyse(
    store: &mut Store,
    board: &Position,
    marks: &[Option<Status>],
    opts: &AnalysisOptions,
) -> Result<Analysis, AnalysisError> {
    analyse_with_history(store, board, marks, opts, &[])
}

/// [`analyse`] of a board that the whole boards `past` preceded in its
/// game, each with the player whose board play created it as the ko rule
/// reads it ([`Game::past_boards`]): under a superko rule a move may not
/// recreate one of them (module docs, "The board as it stands": the first
/// move, or every move when one region only has moves); under the other
/// rules `past` is not read.
pub fn analyse_with_history(
    store: &mut Store,
    board: &Position,
    marks: &[Option<Status>],
    opts: &AnalysisOptions,
    past: &[Earlier],
) -> Result<Analysis, AnalysisError> {
    let (width, height) = (board.width(), board.height());
    if width > super::MAX_BOARD || height > super::MAX_BOARD {
        return Err(AnalysisError::TooLarge { width, height });
    }
    let mut pos = board.clone();
    if pos.origin.is_none() {
        pos.origin = Some(Origin::board(width, height));
    }
    pos.frame.iter_mut().for_each(|f| *f = false);
    pos.labels.iter_mut().for_each(|l| *l = None);
    // The ban of the last move is kept aside: the regions are valued
    // without it, and only the first move of the banned player sees it.
    // The New Ko Rules hold the basic ko rule (their rule 1: a board play
    // may not recreate the board before the opponent's board play just
    // made), so the ban stands under them. The superko rules forbid the
    // retake because it recreates a board of the history: the board before
    // the capture (the board after the retake) joins the game's boards
    // read (module docs, "The board as it stands"). With no ko rule there
    // is no ban.
    let superko = opts.rules.ko_rule.local_reading() != KoRule::Basic;
    let mut past = past.to_vec();
    if superko {
        if let Some((colour, q)) = pos.ko_ban {
            // The board after the retake: `colour` on `q`, the capturing
            // stone (a single stone whose one liberty is `q`, not a framing
            // or safe one) gone. (Not `play_move` on `pos`, whose framing
            // flags are cleared: a framing stone with no liberty would go
            // too.)
            let mut before = pos.cells.clone();
            before[q] = Cell::Stone(colour);
            for n in pos.neighbours(q) {
                let framing = board.frame[n] || marks.get(n) == Some(&Some(Status::Safe));
                if !framing
                    && pos.cells[n] == Cell::Stone(colour.opponent())
                    && pos.chain(n).len() == 1
                    && pos.liberties(&[n]) == [q]
                {
                    before[n] = Cell::Empty;
                }
            }
            past.push((before, Some(colour)));
        }
    }
    if opts.rules.ko_rule.local_reading() == KoRule::PositionalSuperko {
        // Who created a board means nothing to positional superko.
        past.iter_mut().for_each(|(_, by)| *by = None);
    }
    let start_ban = pos.ko_ban.filter(|_| {
        matches!(opts.rules.ko_rule, KoRule::Basic | KoRule::NewKoRules)
            && opts.rules.nopass.is_none()
    });
    pos.ko_ban = None;
    let n = pos.cells.len();

    // Marks cover whole chains.
    let mut chain_mark: Vec<Option<Status>> = vec![None; n];
    // The marked point of each marked chain, to name it in errors.
    let mut marked_at: Vec<usize> = (0..n).collect();
    for p in 0..n {
        let Some(m) = marks.get(p).copied().flatten() else {
            continue;
        };
        if pos.cells[p] == Cell::Empty {
            return Err(AnalysisError::NoStone {
                point: pos.point_name(p),
            });
        }
        for q in pos.chain(p) {
            match chain_mark[q] {
                Some(old) if old != m => {
                    return Err(AnalysisError::SafeAndDead {
                        point: pos.point_name(p),
                    })
                }
                _ => {
                    chain_mark[q] = Some(m);
                    marked_at[q] = p;
                }
            }
        }
    }

    // Dead stones leave the board.
    let mut dead = Vec::new();
    let mut done = vec![false; n];
    let mut constant: i64 = 0;
    if opts.rules.scoring == Rules::Japanese {
        constant +=
            i64::from(pos.prisoners(Colour::Black)) - i64::from(pos.prisoners(Colour::White));
    }
    let before_removal = pos.clone();
    for p in 0..n {
        if done[p] || chain_mark[p] != Some(Status::Dead) {
            continue;
        }
        let Cell::Stone(colour) = before_removal.cells[p] else {
            continue;
        };
        let chain = before_removal.chain(p);
        for &q in &chain {
            done[q] = true;
            pos.cells[q] = Cell::Empty;
        }
        if opts.rules.scoring == Rules::Japanese {
            // Prisoners of the opponent: Black's score rises for White stones.
            constant -= colour.sign() * chain.len() as i64;
        }
        dead.push(Chain {
            colour,
            points: chain,
        });
    }

    // Safe stones: Benson after the removal, and the marks.
    let alive = unconditionally_alive(&pos);
    let alive_before = unconditionally_alive(&before_removal);
    if let Some(d) = dead.iter().find(|d| alive_before[d.points[0]]) {
        return Err(AnalysisError::DeadButAlive {
            point: pos.point_name(marked_at[d.points[0]]),
        });
    }
    let mut safe_flag = vec![false; n];
    let mut safe = Vec::new();
    let mut seen = vec![false; n];
    for p in 0..n {
        let Cell::Stone(colour) = pos.cells[p] else {
            continue;
        };
        if seen[p] {
            continue;
        }
        let chain = pos.chain(p);
        chain.iter().for_each(|&q| seen[q] = true);
        let reason = if alive[p] {
            Some(SafeReason::Benson)
        } else if chain_mark[p] == Some(Status::Safe) {
            Some(SafeReason::Marked)
        } else {
            None
        };
        if let Some(reason) = reason {
            for &q in &chain {
                safe_flag[q] = true;
            }
            if opts.rules.scoring == Rules::Chinese {
                constant += colour.sign() * chain.len() as i64;
            }
            safe.push((
                Chain {
                    colour,
                    points: chain,
                },
                reason,
            ));
        }
    }

    // Regions: connected components of non-safe points.
    let mut region_of = vec![usize::MAX; n];
    let mut region_points: Vec<Vec<usize>> = Vec::new();
    for start in 0..n {
        if safe_flag[start] || region_of[start] != usize::MAX {
            continue;
        }
        let id = region_points.len();
        region_of[start] = id;
        let mut stack = vec![start];
        let mut pts = Vec::new();
        while let Some(p) = stack.pop() {
            pts.push(p);
            for q in pos.neighbours(p) {
                if !safe_flag[q] && region_of[q] == usize::MAX {
                    region_of[q] = id;
                    stack.push(q);
                }
            }
        }
        pts.sort_unstable();
        region_points.push(pts);
    }

    let mut board_pos = pos.clone();
    board_pos.frame.copy_from_slice(&safe_flag);
    // The ban stands while the retake still captures one stone on the board
    // analysed (a stone marked dead or safe may have undone the ko).
    let start_ban = start_ban.filter(|&(colour, q)| {
        !safe_flag[q]
            && board_pos
                .play_move(Move {
                    colour,
                    point: Some(q),
                })
                .is_ok_and(|next| next.prisoners(colour) == board_pos.prisoners(colour) + 1)
    });

    let search_opts = SearchOptions {
        rules: opts.rules.scoring,
        ko_rule: opts.rules.ko_rule,
        node_budget: opts.region_budget,
        territories: true,
        // A large ko graph built on two threads changes nothing seen (the
        // same graph, games and steps: `SearchOptions::graph_threads`).
        graph_threads: opts.threads,
        ..SearchOptions::default()
    };
    let cuts: Vec<Position> = (0..region_points.len())
        .map(|id| cut_region(&board_pos, &region_of, id))
        .collect();
    // Under a superko rule, each region's earlier positions: the past
    // boards equal to the board outside the region (module docs, "The
    // board as it stands").
    let histories: Vec<Vec<Earlier>> = cuts
        .iter()
        .enumerate()
        .map(|(id, cut)| match superko {
            true => region_history(board, &board_pos, &region_of, id, cut, &past),
            false => Vec::new(),
        })
        .collect();
    // When one region only has moves, nothing else on the board changes:
    // the game's boards recur exactly when that region's positions do, so
    // they are its line's history, for its value and every position after
    // its moves. Otherwise they bind the first move only (module docs).
    let active = cuts
        .iter()
        .filter(|cut| {
            [Colour::Black, Colour::White].iter().any(|&c| {
                search_moves(cut, c, true, opts.rules.scoring).is_ok_and(|m| !m.is_empty())
            })
        })
        .count();
    let (lines_start, first_only): (Vec<Vec<Earlier>>, Vec<Vec<Earlier>>) = match active {
        1 => (histories.clone(), vec![Vec::new(); histories.len()]),
        _ => (vec![Vec::new(); histories.len()], histories.clone()),
    };
    let threads = if store.steps_left() == u64::MAX {
        opts.threads
    } else {
        // A step limit is charged region after region, as on one thread.
        1
    };
    // A large region is valued in the analysis's own store, and its
    // search's tables are kept for the positions after its moves
    // (`Play::memos`); the others each in a fresh store, on the threads.
    let in_place: Vec<bool> = region_points
        .iter()
        .map(|pts| {
            opts.stops
                && pts.len() >= MEMO_POINTS
                && search_opts.ko_rule.local_reading() == KoRule::Basic
        })
        .collect();
    let fresh: Vec<(Position, Vec<Earlier>)> = cuts
        .iter()
        .zip(&lines_start)
        .zip(&in_place)
        .filter(|(_, &p)| !p)
        .map(|((c, h), _)| (c.clone(), h.clone()))
        .collect();
    let work = |store: &mut Store, (cut, history): &(Position, Vec<Earlier>)| {
        detached_region(store, cut, history, &search_opts)
    };
    let mut worked = in_fresh_stores(store, threads, &fresh, work)?.into_iter();
    let mut regions = Vec::new();
    let mut memos = Vec::new();
    let zipped = region_points.into_iter().zip(cuts).zip(in_place);
    for ((((pts, cut), in_place), history), line_history) in
        zipped.zip(&histories).zip(&lines_start)
    {
        if in_place {
            let started = Instant::now();
            let mut memo = None;
            // On this thread alone: a helper's search (`SearchOptions::
            // threads`) would make the positions counted against the
            // budget, and so whether the region fits, depend on the threads.
            let (outcome, nodes) = region_value(store, &cut, &[], &search_opts, Some(&mut memo))?;
            if outcome.as_ref().is_err_and(over_memory) {
                // What the failed search memoised in the store is dropped.
                store.clear_memos();
            }
            regions.push(RegionReport {
                points: pts,
                position: cut,
                outcome,
                nodes,
                time: started.elapsed(),
                history: history.len(),
            });
            memos.push(Some(memo));
            continue;
        }
        memos.push(None);
        let (mut worked, mut steps) = worked.next().expect("one outcome a fresh region");
        let over_limit = match &worked.outcome {
            Err(AnalysisError::Search(GoError::Cg(CgError::Limit(_)))) => true,
            Ok((Err(e), _)) => over_memory(e),
            _ => false,
        };
        if threads > 1 && over_limit {
            // The limit may have come from the other threads' work: this
            // region again, alone.
            store.add_steps(steps);
            let item = (cut.clone(), line_history.clone());
            (worked, steps) = in_fresh_stores(store, 1, std::slice::from_ref(&item), work)?
                .pop()
                .expect("one region");
        }
        store.add_steps(steps);
        let (outcome, nodes) = worked.outcome?;
        let outcome = match outcome {
            Ok(v) => {
                let ids = store.import(&worked.games)?;
                Ok(v.attach(&ids))
            }
            Err(e) => Err(e),
        };
        regions.push(RegionReport {
            points: pts,
            position: cut,
            outcome,
            nodes,
            time: worked.time,
            history: history.len(),
        });
    }

    let mut analysis = Analysis {
        board: board_pos,
        safe,
        dead,
        regions,
        constant,
        komi: opts.komi.clone(),
        rules: opts.rules,
        left_stop: None,
        right_stop: None,
        best_black: Vec::new(),
        best_white: Vec::new(),
        black_first: None,
        white_first: None,
        play_error: None,
        ko_ban: start_ban.map(|(colour, point)| KoBan {
            colour,
            point,
            exact_stop: false,
        }),
        game: false,
    };
    let values: Option<Vec<GoValue>> = analysis
        .regions
        .iter()
        .map(|r| r.outcome.as_ref().ok().map(|v| v.value.clone()))
        .collect();
    let Some(values) = values else {
        return Ok(analysis);
    };
    if !opts.stops {
        return Ok(analysis);
    }
    let mut play = Play {
        store,
        constant,
        budget: opts.play_budget,
        search: search_opts,
        cache: FxHashMap::default(),
        threads,
        territory: analysis
            .regions
            .iter()
            .map(|r| r.outcome.as_ref().is_ok_and(|v| v.territory))
            .collect(),
        memos,
        superko: opts.rules.ko_rule.local_reading(),
        hists: lines_start,
        created: vec![None; analysis.regions.len()],
        past: first_only,
    };
    let positions: Vec<Position> = analysis
        .regions
        .iter()
        .map(|r| r.position.clone())
        .collect();
    // The ban as a move of a cut: (region, the cut's point).
    let ban_in_cut = start_ban.map(|(colour, q)| {
        let r = region_of[q];
        let cut = &positions[r];
        let p = (0..cut.cells.len())
            .find(|&p| board_point(&analysis.board, cut, p) == q)
            .expect("a region's cut holds its points");
        (colour, r, p)
    });
    match play.everything(&positions, &values, opts.lines, ban_in_cut) {
        Ok((ls, rs, best_black, best_white, lines, exact_stop)) => {
            if let Some(b) = &mut analysis.ko_ban {
                b.exact_stop = exact_stop;
            }
            analysis.left_stop = Some(ls - &opts.komi);
            analysis.right_stop = Some(rs - &opts.komi);
            analysis.best_black = best_black;
            analysis.best_white = best_white;
            if let Some((mut b, mut w)) = lines {
                b.score -= &opts.komi;
                w.score -= &opts.komi;
                analysis.black_first = Some(b);
                analysis.white_first = Some(w);
            }
        }
        Err(AnalysisError::Interrupted) => return Err(AnalysisError::Interrupted),
        Err(e) => {
            if e.over_memory() {
                // Reported like a failed stop, not as the analysis's error:
                // what the stops memoised in the store is dropped (every
                // game stays), so that what comes after has the memory back.
                play.store.clear_memos();
            }
            analysis.play_error = Some(e.to_string());
        }
    }
    Ok(analysis)
}

/// What the local search makes of one region: its value, or why it has
/// none (over budget, too large, over the memory limit: reported, the
/// analysis goes on), with the positions expanded; the outer error ends
/// the analysis.
#[allow(clippy::type_complexity)]
fn region_value(
    store: &mut Store,
    cut: &Position,
    history: &[Earlier],
    search_opts: &SearchOptions,
    memo: Option<&mut Option<SearchMemo>>,
) -> Result<(Result<RegionValue, GoError>, u64), AnalysisError> {
    let evaluated = match memo {
        Some(memo) => evaluate_go_reusing(store, cut, search_opts, memo),
        None => evaluate_go_with_history(store, cut, search_opts, history, None),
    };
    let e = match evaluated {
        Ok(e) => e,
        Err(e @ GoError::NodeBudget { nodes, .. }) => return Ok((Err(e), nodes)),
        Err(e @ GoError::TooLarge { .. }) => return Ok((Err(e), 0)),
        // The region's search stopped at the memory limit: too large, like
        // a region over its budget. The store it worked in is dropped with
        // what it held, so the other regions and the stops have the memory
        // back.
        Err(e) if over_memory(&e) => return Ok((Err(e), 0)),
        Err(e @ GoError::NoLocalValue { .. }) => return Ok((Err(e), 0)),
        // A region where play never ends (no stone next to it is safe and
        // none can become so, e.g. a whole empty board): its ko graph has
        // no way out. Reported as the region's, like a region too large.
        Err(e @ GoError::KoGraph(_)) => return Ok((Err(e), 0)),
        Err(e) => return Err(e.into()),
    };
    let nodes = e.stats.nodes;
    if search_opts.ko_rule == KoRule::NoRule && e.value.as_short().is_none() {
        // No rule decides a repetition: a region whose positions can
        // repeat has no value (the game need not end), as `value` says.
        return Ok((
            Err(GoError::NoLocalValue {
                rule: KoRule::NoRule,
                why: "a position of this region can repeat, and with no ko rule the cycle may \
                      go on for ever"
                    .to_string(),
            }),
            nodes,
        ));
    }
    let valued = (|| {
        let value = e.value.resolve_latent(store)?;
        let latent = e.value.as_short().is_none() && value.as_short().is_some();
        // The chilled view of a ko still there is its own graph,
        // decided by the rules on its own (they may resolve it).
        let chilled = match value.as_short() {
            Some(_) => value.chill(store),
            None => value.chill(store).and_then(|c| c.resolve_latent(store)),
        }?;
        let temperature = match value.as_short() {
            Some(g) => Some(store.temperature(g)?),
            None => None,
        };
        Ok::<_, GoError>(RegionValue {
            value,
            chilled,
            temperature,
            latent,
            territory: e.stats.nodes == 0 && e.stats.territories > 0,
        })
    })();
    match valued {
        Ok(v) => Ok((Ok(v), nodes)),
        // What the value needs besides the search (its latent kos, its
        // chilled graph, its thermograph) stopped at the memory limit: the
        // same.
        Err(e) if over_memory(&e) => Ok((Err(e), nodes)),
        Err(e) => Err(e.into()),
    }
}

/// Whether a search stopped at the memory limit (memory in use, or a table
/// whose growth would not fit).
fn over_memory(e: &GoError) -> bool {
    matches!(
        e,
        GoError::Cg(CgError::Limit(
            Exceeded::Memory { .. } | Exceeded::Table { .. }
        ))
    )
}

/// [`region_value`] out of the worker's store, to be imported by the
/// analysis's own (module docs, "Threads").
struct DetachedRegion {
    games: GameExport,
    #[allow(clippy::type_complexity)]
    outcome: Result<(Result<DetachedRegionValue, GoError>, u64), AnalysisError>,
    time: Duration,
}

struct DetachedRegionValue {
    value: DetachedGoValue,
    chilled: DetachedGoValue,
    temperature: Option<BigRational>,
    latent: bool,
    territory: bool,
}

impl DetachedRegionValue {
    fn attach(self, ids: &[GameId]) -> RegionValue {
        RegionValue {
            value: self.value.attach(ids),
            chilled: self.chilled.attach(ids),
            temperature: self.temperature,
            latent: self.latent,
            territory: self.territory,
        }
    }
}

fn detached_region(
    store: &mut Store,
    cut: &Position,
    history: &[Earlier],
    search_opts: &SearchOptions,
) -> DetachedRegion {
    let started = Instant::now();
    let outcome = region_value(store, cut, history, search_opts, None);
    let time = started.elapsed();
    let mut export = GameExporter::new(store);
    let outcome = outcome.map(|(o, nodes)| {
        let o = o.map(|v| DetachedRegionValue {
            value: v.value.detach(&mut export),
            chilled: v.chilled.detach(&mut export),
            temperature: v.temperature,
            latent: v.latent,
            territory: v.territory,
        });
        (o, nodes)
    });
    DetachedRegion {
        games: export.finish(),
        outcome,
        time,
    }
}

/// The value of a position after a move, as [`Play::value`] computes it,
/// out of the worker's store; `None` when it fails (then `Play::value`
/// meets the failure itself, in the order of the analysis without
/// threads).
fn detached_value(
    store: &mut Store,
    pos: &Position,
    (earlier, created): (&[Earlier], Option<Colour>),
    search_opts: &SearchOptions,
) -> Option<(GameExport, DetachedGoValue)> {
    let e = evaluate_go_with_history(store, pos, search_opts, earlier, created).ok()?;
    let value = e.value.resolve_latent(store).ok()?;
    let mut export = GameExporter::new(store);
    let value = value.detach(&mut export);
    Some((export.finish(), value))
}

/// The stack of a helper thread: large, as the searches recurse, but at
/// most an eighth of an address-space limit.
fn helper_stack() -> usize {
    let most = crate::limits::address_space_limit().map_or(usize::MAX, |l| l / 8);
    (256usize << 20).min(most).max(16 << 20)
}

/// `work` on every item, each in a fresh store that shares `main`'s
/// interrupt flag and what is left of its step limit, on up to `threads`
/// threads (this one included; a helper thread that cannot be started is
/// done without), with the steps each item took; in item order (module
/// docs, "Threads"). The flag is also read before each item (a fresh
/// store reads it only every 1024 steps, which a small item never takes):
/// once it is set no item starts, and the answer is `Interrupted`.
fn in_fresh_stores<T, R, F>(
    main: &Store,
    threads: usize,
    items: &[T],
    work: F,
) -> Result<Vec<(R, u64)>, AnalysisError>
where
    T: Sync,
    R: Send,
    F: Fn(&mut Store, &T) -> R + Sync,
{
    let flag = main.interrupt_flag();
    let left = main.steps_left();
    let interrupted = || {
        flag.as_ref()
            .is_some_and(|f| f.load(AtomicOrdering::Relaxed))
    };
    let one = |item: &T| {
        let mut store = Store::new();
        if let Some(f) = &flag {
            store.set_interrupt_flag(f.clone());
        }
        if left != u64::MAX {
            store.limit_steps(left);
        }
        let r = work(&mut store, item);
        (r, store.steps())
    };
    let threads = threads.min(items.len());
    if threads <= 1 {
        let mut done = Vec::with_capacity(items.len());
        for item in items {
            if interrupted() {
                return Err(AnalysisError::Interrupted);
            }
            done.push(one(item));
        }
        return Ok(done);
    }
    let next = AtomicUsize::new(0);
    let run = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, AtomicOrdering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            if interrupted() {
                return done;
            }
            done.push((i, one(item)));
        }
    };
    let size = helper_stack();
    let mut done = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("yose-analyse".into())
                    .stack_size(size)
                    .spawn_scoped(scope, move || {
                        crate::limits::enter_thread(size);
                        run()
                    })
                    .ok()
            })
            .collect();
        let mut done = run();
        for h in helpers {
            match h.join() {
                Ok(more) => done.extend(more),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    if done.len() < items.len() {
        return Err(AnalysisError::Interrupted);
    }
    done.sort_unstable_by_key(|(i, _)| *i);
    Ok(done.into_iter().map(|(_, r)| r).collect())
}

/// The region numbered `id` cut out of the board (module docs, "Regions").
fn cut_region(board: &Position, region_of: &[usize], id: usize) -> Position {
    let (w, h) = (board.width, board.height);
    let (mut r0, mut c0, mut r1, mut c1) = (h, w, 0, 0);
    for p in (0..board.cells.len()).filter(|&p| region_of[p] == id) {
        let (r, c) = board.coords(p);
        r0 = r0.min(r);
        c0 = c0.min(c);
        r1 = r1.max(r);
        c1 = c1.max(c);
    }
    let (r0, c0) = (r0.saturating_sub(1), c0.saturating_sub(1));
    let (r1, c1) = ((r1 + 1).min(h - 1), (c1 + 1).min(w - 1));
    let (cw, ch) = (c1 - c0 + 1, r1 - r0 + 1);
    let mut cells = Vec::with_capacity(cw * ch);
    let mut frame = Vec::with_capacity(cw * ch);
    for r in r0..=r1 {
        for c in c0..=c1 {
            let p = r * w + c;
            if region_of[p] == id {
                cells.push(board.cells[p]);
                frame.push(false);
            } else if board.frame[p] {
                cells.push(board.cells[p]);
                frame.push(true);
            } else {
                // A point of another region: it touches no point of this
                // one, so any framing stone will do.
                cells.push(Cell::Stone(Colour::Black));
                frame.push(true);
            }
        }
    }
    let o = board.board_origin();
    Position {
        width: cw,
        height: ch,
        cells,
        frame,
        labels: vec![None; cw * ch],
        prisoners: [0, 0],
        ko_ban: None,
        origin: Some(Origin {
            board_width: o.board_width,
            board_height: o.board_height,
            row: o.row + r0,
            col: o.col + c0,
        }),
    }
}

/// The earlier positions of region `id` (its cut `cut`) among the whole
/// boards `past`: those equal to `board` (the board as given, dead stones
/// included) on every point outside the region, each as a position of the
/// cut (module docs, "The board as it stands"), without repeats.
fn region_history(
    board: &Position,
    board_pos: &Position,
    region_of: &[usize],
    id: usize,
    cut: &Position,
    past: &[Earlier],
) -> Vec<Earlier> {
    let n = board.cells.len();
    let points: Vec<(usize, usize)> = (0..cut.cells.len())
        .filter(|&p| !cut.frame[p])
        .map(|p| (p, board_point(board_pos, cut, p)))
        .collect();
    let mut out: Vec<Earlier> = Vec::new();
    for (cells, by) in past {
        if cells.len() != n || (0..n).any(|q| region_of[q] != id && cells[q] != board.cells[q]) {
            continue;
        }
        let mut c = cut.cells.clone();
        for &(p, q) in &points {
            c[p] = cells[q];
        }
        let e = (c, *by);
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

/// The board point of a cut's point.
fn board_point(board: &Position, cut: &Position, p: usize) -> usize {
    let (r, c) = cut.coords(p);
    let o = cut.origin.expect("cuts carry an origin");
    let bo = board.board_origin();
    (o.row - bo.row + r) * board.width + (o.col - bo.col + c)
}

fn player(colour: Colour) -> Player {
    match colour {
        Colour::Black => Player::Left,
        Colour::White => Player::Right,
    }
}

fn side(colour: Colour) -> Side {
    match colour {
        Colour::Black => Side::Left,
        Colour::White => Side::Right,
    }
}

/// Play questions on the sum of the regions.
struct Play<'s> {
    store: &'s mut Store,
    constant: i64,
    budget: u64,
    search: SearchOptions,
    /// Values of region positions met after moves: (cells, prisoners).
    cache: FxHashMap<PositionKey, GoValue>,
    /// Threads for the values of the positions after first moves.
    threads: usize,
    /// The regions valued by the territory rule, not played
    /// ([`RegionValue::territory`]).
    territory: Vec<bool>,
    /// For each region of at least [`MEMO_POINTS`] points, the tables of
    /// the searches of its positions so far ([`SearchMemo`]): the
    /// positions after its moves are valued one after another in the
    /// analysis's store, each search taking over the last one's tables
    /// (module docs, "Threads").
    memos: Vec<Option<Option<SearchMemo>>>,
    /// How the local search reads the ko rule: under the superko readings
    /// a region's positions are valued with their line's history.
    superko: KoRule,
    /// Under a superko reading, for each region, its positions before the
    /// current one on the line (the game's, then the line's), and who
    /// created the current one (`None`: the start; module docs, "The
    /// board as it stands"). Empty under the basic reading.
    hists: Vec<Vec<Earlier>>,
    created: Vec<Option<Colour>>,
    /// Under a superko rule, for each region, the game's earlier boards
    /// that are positions of it (module docs, "The board as it stands"):
    /// a first move may not recreate one.
    past: Vec<Vec<Earlier>>,
}

/// The size from which a region's positions after moves are valued with
/// the tables of the searches before ([`Play::memos`]) rather than each in
/// a fresh store: a search of such a region takes long enough that
/// searching the region again for each of its moves costs more than the
/// threads save. (The open 2 × 8 area: its analysis took 84 s searching
/// each position after a move afresh, and with the tables 6.6 s, about
/// the time of the region's own search: BENCHMARKS.md.) 12 was chosen,
/// not measured against other sizes.
const MEMO_POINTS: usize = 12;

/// A region position in [`Play`]'s cache: its cells, prisoners and place
/// on the board, and under a superko reading its history (sorted) and
/// creator as the rule reads them.
type PositionKey = (
    Vec<Cell>,
    [u32; 2],
    usize,
    usize,
    Vec<Earlier>,
    Option<Colour>,
);

fn position_key(pos: &Position) -> PositionKey {
    let o = pos.origin.expect("cuts carry an origin");
    (
        pos.cells.clone(),
        pos.prisoners,
        o.row,
        o.col,
        Vec::new(),
        None,
    )
}

/// The stops, optimal first moves of each side, (optionally) the two
/// lines, and whether the banned player's stop is exact ([`KoBan`]).
type PlayAnswers = (
    BigRational,
    BigRational,
    Vec<GoMove>,
    Vec<GoMove>,
    Option<(GoLine, GoLine)>,
    bool,
);

impl Play<'_> {
    /// `ban`: the player who may not retake at once, the region and the
    /// cut's point of the retake (module docs, "The ko ban of the last
    /// move").
    fn everything(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        lines: bool,
        ban: Option<(Colour, usize, usize)>,
    ) -> Result<PlayAnswers, AnalysisError> {
        let mut exact = false;
        let mut stop_of = |play: &mut Self, colour: Colour| match ban {
            Some((c, r, q)) if c == colour => {
                let (s, e) = play.banned_stop(positions, values, colour, r, q)?;
                exact = e;
                Ok::<_, AnalysisError>(s)
            }
            _ if play.past_forbids(positions, colour)? => {
                play.stop_without_past(positions, values, colour)
            }
            _ => play.stop(values, colour),
        };
        let ls = stop_of(self, Colour::Black)?;
        let rs = stop_of(self, Colour::White)?;
        // After the stops: when they fail (a ko graph too large for the
        // komaster analyses) the moves are not valued in vain.
        if !self.all_numbers(values) {
            self.first_moves_in_advance(positions)?;
        }
        let ban_of = |colour: Colour| match ban {
            Some((c, r, q)) if c == colour => Some((r, q)),
            _ => None,
        };
        let best_black =
            self.best_moves(positions, values, Colour::Black, &ls, ban_of(Colour::Black))?;
        let best_white =
            self.best_moves(positions, values, Colour::White, &rs, ban_of(Colour::White))?;
        let lines = if lines {
            Some((
                self.line(positions, values, Colour::Black, ban_of(Colour::Black))?,
                self.line(positions, values, Colour::White, ban_of(Colour::White))?,
            ))
        } else {
            None
        };
        Ok((ls, rs, best_black, best_white, lines, exact))
    }

    /// The stop with `colour` first when `colour` may not retake at once at
    /// the cut's point `q` of region `r`, and whether it is exact
    /// ([`KoBan::exact_stop`]). Exact: the ko solver from the banned state,
    /// when the retake is a move of one of the region's ko graphs (found by
    /// [`retake_node`]); the stop as without the ban when the retake is no
    /// move of the region's local game (then the ban changes nothing).
    /// Otherwise the stop without the ban, marked not exact.
    fn banned_stop(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        colour: Colour,
        r: usize,
        q: usize,
    ) -> Result<(BigRational, bool), AnalysisError> {
        if let Some((k, forbidden)) = retake_node(&positions[r], &values[r], colour, q) {
            let mut comps: Vec<Component> = Vec::new();
            let mut component = 0;
            for (i, v) in values.iter().enumerate() {
                if i == r {
                    // `GoValue::components` lists the ko graphs first, in order.
                    component = comps.len() + k;
                }
                comps.extend(v.components(self.store));
            }
            comps.push(Component::Short(self.store.integer(self.constant)));
            let sol = crate::ko::solve_from(
                self.store,
                &comps,
                side(colour),
                Some(StartBan {
                    component,
                    forbidden,
                }),
                &KoSolveOptions::with_budget(self.budget),
            )?;
            return Ok((sol.score, true));
        }
        let local_move = !self.territory[r]
            && search_moves(&positions[r], colour, true, self.search.rules)
                .map_err(AnalysisError::Search)?
                .iter()
                .any(|(mv, _)| mv.point == Some(q));
        Ok((self.stop(values, colour)?, !local_move))
    }

    /// The stop of `values` plus the constant with `first` to move.
    fn stop(&mut self, values: &[GoValue], first: Colour) -> Result<BigRational, AnalysisError> {
        let shorts: Option<Vec<GameId>> = values.iter().map(|v| v.as_short()).collect();
        if let Some(mut comps) = shorts {
            comps.push(self.store.integer(self.constant));
            let mut s = play::search::Solver::new(self.store, self.budget);
            return Ok(s.stop(&comps, player(first))?.to_rational());
        }
        let mut comps: Vec<Component> = Vec::new();
        for v in values {
            comps.extend(v.components(self.store));
        }
        comps.push(Component::Short(self.store.integer(self.constant)));
        let sol = crate::ko::solve::solve(
            self.store,
            &comps,
            side(first),
            &KoSolveOptions::with_budget(self.budget),
        )?;
        Ok(sol.score)
    }

    fn all_numbers(&self, values: &[GoValue]) -> bool {
        values
            .iter()
            .all(|v| v.as_short().is_some_and(|g| self.store.is_number(g)))
    }

    /// Values, into the cache, the positions after every first move that
    /// [`Play::best_moves`] values (both players, every region not a
    /// territory), in fresh stores on [`Play::threads`] threads (module
    /// docs, "Threads"). A position whose search fails is left to
    /// [`Play::value`], which meets the failure in its own order.
    fn first_moves_in_advance(&mut self, positions: &[Position]) -> Result<(), AnalysisError> {
        let mut queued = FxHashSet::default();
        let mut items = Vec::new();
        for colour in [Colour::Black, Colour::White] {
            for (r, pos) in positions.iter().enumerate() {
                if self.territory[r] || self.memos[r].is_some() {
                    continue;
                }
                let Ok(moves) = search_moves(pos, colour, true, self.search.rules) else {
                    continue;
                };
                for (mv, next) in moves {
                    if mv.point.is_none() {
                        continue;
                    }
                    let (earlier, created) = self.history_after(r, pos, colour);
                    if self.repeats(&earlier, &next, colour) {
                        continue;
                    }
                    let key = self.key(&next, (&earlier, created));
                    if !self.cache.contains_key(&key) && queued.insert(key.clone()) {
                        items.push((key, next, earlier, created));
                    }
                }
            }
        }
        let search = &self.search;
        #[allow(clippy::type_complexity)]
        let work =
            |store: &mut Store, item: &(PositionKey, Position, Vec<Earlier>, Option<Colour>)| {
                detached_value(store, &item.1, (&item.2, item.3), search)
            };
        let worked = in_fresh_stores(self.store, self.threads, &items, work)?;
        for ((key, ..), (value, steps)) in items.into_iter().zip(worked) {
            self.store.add_steps(steps);
            if let Some((games, value)) = value {
                let ids = self.store.import(&games)?;
                self.cache.insert(key, value.attach(&ids));
            }
        }
        Ok(())
    }

    /// The history of region `r`'s position after `colour` plays from
    /// `pos` (its current position), and who created it: under a superko
    /// reading the region's history so far and `pos`, created by the move
    /// that reached it (at the start, by `colour`'s opponent, as the
    /// region's own value reads its root); `colour`. Empty otherwise.
    fn history_after(
        &self,
        r: usize,
        pos: &Position,
        colour: Colour,
    ) -> (Vec<Earlier>, Option<Colour>) {
        if self.superko == KoRule::Basic {
            return (Vec::new(), None);
        }
        let mut earlier = self.hists[r].clone();
        let by = self.created[r].unwrap_or(colour.opponent());
        earlier.push((pos.cells.clone(), Some(by)));
        (earlier, Some(colour))
    }

    /// Whether a legal move of `colour` from `positions` (the board
    /// analysed) recreates one of the game's earlier boards.
    fn past_forbids(&self, positions: &[Position], colour: Colour) -> Result<bool, AnalysisError> {
        for (r, pos) in positions.iter().enumerate() {
            if self.past[r].is_empty() || self.territory[r] {
                continue;
            }
            let moves = search_moves(pos, colour, true, self.search.rules)
                .map_err(AnalysisError::Search)?;
            if moves
                .iter()
                .any(|(_, next)| self.repeats(&self.past[r], next, colour))
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The stop with `colour` first when some of `colour`'s first moves
    /// recreate an earlier board of the game ([`Play::past_forbids`]):
    /// the best stop after the others (the definition of the stop over
    /// the options left: the Go moves are the options of the sum); the
    /// stop of the sum when it is a number (no move is needed); with no
    /// move left, the stop after a pass.
    fn stop_without_past(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        colour: Colour,
    ) -> Result<BigRational, AnalysisError> {
        if let Some(shorts) = values
            .iter()
            .map(|v| v.as_short())
            .collect::<Option<Vec<_>>>()
        {
            let mut sum = self.store.integer(self.constant);
            for g in shorts {
                sum = self.store.add(sum, g)?;
            }
            if let Some(x) = self.store.as_number(sum) {
                return Ok(x.to_rational());
            }
        }
        let all = self.moves_with_stops(positions, values, colour, None, true)?;
        let best = all
            .into_iter()
            .map(|(_, s, _, _)| s)
            .reduce(|a, b| match colour {
                Colour::Black => a.max(b),
                Colour::White => a.min(b),
            });
        match best {
            Some(s) => Ok(s),
            None => self.stop(values, colour.opponent()),
        }
    }

    /// Whether `colour`'s move to `next` recreates a position of the
    /// history `earlier` that the superko reading forbids it to.
    fn repeats(&self, earlier: &[Earlier], next: &Position, colour: Colour) -> bool {
        match self.superko {
            KoRule::Basic => false,
            KoRule::SituationalSuperko => earlier
                .iter()
                .any(|(c, by)| *by == Some(colour) && *c == next.cells),
            _ => earlier.iter().any(|(c, _)| *c == next.cells),
        }
    }

    /// The cache key of a position with its history, as the rule reads it.
    fn key(&self, pos: &Position, (earlier, created): (&[Earlier], Option<Colour>)) -> PositionKey {
        let mut key = position_key(pos);
        if self.superko != KoRule::Basic {
            let situational = self.superko == KoRule::SituationalSuperko;
            let mut h: Vec<Earlier> = earlier
                .iter()
                .map(|(c, by)| (c.clone(), by.filter(|_| situational)))
                .collect();
            let code = |c: &Cell| match c {
                Cell::Empty => 0u8,
                Cell::Stone(Colour::Black) => 1,
                Cell::Stone(Colour::White) => 2,
            };
            h.sort_by_cached_key(|(c, by)| {
                (
                    c.iter().map(code).collect::<Vec<u8>>(),
                    *by == Some(Colour::White),
                    by.is_some(),
                )
            });
            h.dedup();
            key.4 = h;
            key.5 = created.filter(|_| situational);
        }
        key
    }

    /// The value of a position of region `r` with its history (cached).
    fn value(
        &mut self,
        r: usize,
        pos: &Position,
        history: (&[Earlier], Option<Colour>),
    ) -> Result<GoValue, AnalysisError> {
        let key = self.key(pos, history);
        if let Some(v) = self.cache.get(&key) {
            return Ok(v.clone());
        }
        let evaluated = match &mut self.memos[r] {
            Some(memo) => evaluate_go_reusing(self.store, pos, &self.search, memo),
            None => evaluate_go_with_history(self.store, pos, &self.search, history.0, history.1),
        };
        let v = match evaluated {
            Ok(e) => e.value.resolve_latent(self.store)?,
            Err(GoError::Cg(CgError::Interrupted)) => return Err(AnalysisError::Interrupted),
            Err(e) => return Err(AnalysisError::Search(e)),
        };
        self.cache.insert(key, v.clone());
        Ok(v)
    }

    /// Every move of `colour` with the stop after it (opponent to move) and
    /// the position it leads to. `ban`: a point the basic ko rule forbids.
    /// `first`: a first move from the board analysed, which may not
    /// recreate one of the game's earlier boards ([`Play::past`]).
    #[allow(clippy::type_complexity)]
    fn moves_with_stops(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        colour: Colour,
        ban: Option<(usize, usize)>,
        first: bool,
    ) -> Result<Vec<(GoMove, BigRational, Position, GoValue)>, AnalysisError> {
        let mut out = Vec::new();
        for (r, pos) in positions.iter().enumerate() {
            if self.territory[r] {
                continue;
            }
            let moves = search_moves(pos, colour, true, self.search.rules)
                .map_err(AnalysisError::Search)?;
            for (mv, next) in moves {
                let Some(p) = mv.point else { continue };
                if ban == Some((r, p)) {
                    continue;
                }
                let (earlier, created) = self.history_after(r, pos, colour);
                if self.repeats(&earlier, &next, colour)
                    || (first && self.repeats(&self.past[r], &next, colour))
                {
                    continue;
                }
                let v = self.value(r, &next, (&earlier, created))?;
                let mut after = values.to_vec();
                after[r] = v.clone();
                let s = self.stop(&after, colour.opponent())?;
                out.push((
                    GoMove {
                        colour,
                        region: r,
                        point: p,
                    },
                    s,
                    next,
                    v,
                ));
            }
        }
        Ok(out)
    }

    /// Every optimal first move (module docs), as moves in the cuts; the
    /// caller maps them to the board.
    fn best_moves(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        colour: Colour,
        stop: &BigRational,
        ban: Option<(usize, usize)>,
    ) -> Result<Vec<GoMove>, AnalysisError> {
        if self.all_numbers(values) {
            return Ok(Vec::new());
        }
        let all = self.moves_with_stops(positions, values, colour, ban, true)?;
        Ok(all
            .into_iter()
            .filter(|(_, s, _, _)| s == stop)
            .map(|(m, _, _, _)| m)
            .collect())
    }

    /// An optimal line from `first` to the end (module docs); `ban`: the
    /// retake (region, cut's point) `first` may not play at once. The
    /// regions' histories are those of the start again afterwards.
    fn line(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        first: Colour,
        ban: Option<(usize, usize)>,
    ) -> Result<GoLine, AnalysisError> {
        let start = (self.hists.clone(), self.created.clone());
        let line = self.line_from_here(positions, values, first, ban);
        (self.hists, self.created) = start;
        line
    }

    /// [`Play::line`], the regions' histories growing with the line.
    fn line_from_here(
        &mut self,
        positions: &[Position],
        values: &[GoValue],
        first: Colour,
        ban: Option<(usize, usize)>,
    ) -> Result<GoLine, AnalysisError> {
        let mut positions = positions.to_vec();
        let mut values = values.to_vec();
        let mut colour = first;
        let mut moves = Vec::new();
        let cap = 4 * positions.iter().map(|p| p.cells.len()).sum::<usize>() + 16;
        let mut ban = ban;
        let mut finished = true;
        let mut passes = Vec::new();
        while !self.all_numbers(&values) {
            if moves.len() >= cap {
                finished = false;
                break;
            }
            // With a ban in force the short-game solver's move may be the
            // banned one: the moves are then chosen as with kos. So with a
            // first move that the game's history forbids.
            let first = moves.is_empty() && passes.is_empty();
            let shorts: Option<Vec<GameId>> = match ban {
                None if !(first && self.past_forbids(&positions, colour)?) => {
                    values.iter().map(|v| v.as_short()).collect()
                }
                _ => None,
            };
            let mut chosen = None;
            if let Some(mut comps) = shorts {
                // The short-game solver's own first move, if a Go move
                // leads to exactly that option.
                comps.push(self.store.integer(self.constant));
                let stop;
                let target = {
                    let mut s = play::search::Solver::new(self.store, self.budget);
                    stop = s.stop(&comps, player(colour))?.to_rational();
                    s.optimal_move(&comps, player(colour))?
                };
                if let Some(m) = target {
                    if m.component < positions.len() {
                        let pos = &positions[m.component];
                        for (mv, next) in search_moves(pos, colour, true, self.search.rules)
                            .map_err(AnalysisError::Search)?
                        {
                            let Some(p) = mv.point else { continue };
                            let history = self.history_after(m.component, pos, colour);
                            if self.repeats(&history.0, &next, colour) {
                                continue;
                            }
                            let v = self.value(m.component, &next, (&history.0, history.1))?;
                            if v.as_short() == Some(m.to) {
                                chosen = Some((m.component, p, next, v));
                                break;
                            }
                        }
                    }
                }
                if chosen.is_none() {
                    let all = self.moves_with_stops(&positions, &values, colour, None, first)?;
                    chosen = all
                        .into_iter()
                        .find(|(_, s, _, _)| *s == stop)
                        .map(|(m, _, next, v)| (m.region, m.point, next, v));
                }
            } else {
                let all = self.moves_with_stops(&positions, &values, colour, ban, first)?;
                let better = |a: &BigRational, b: &BigRational| match colour {
                    Colour::Black => a > b,
                    Colour::White => a < b,
                };
                let mut best: Option<(GoMove, BigRational, Position, GoValue)> = None;
                for cand in all {
                    if best.as_ref().is_none_or(|b| better(&cand.1, &b.1)) {
                        best = Some(cand);
                    }
                }
                chosen = best.map(|(m, _, next, v)| (m.region, m.point, next, v));
            }
            let Some((r, p, next, v)) = chosen else {
                // No legal move for this player: pass.
                passes.push((moves.len(), colour));
                colour = colour.opponent();
                ban = None;
                if moves.len() >= cap {
                    break;
                }
                continue;
            };
            if self.superko == KoRule::Basic {
                ban = next.ko_ban.map(|(_, q)| (r, q));
            } else {
                // The superko rules forbid the retake by the history.
                ban = None;
                let (earlier, created) = self.history_after(r, &positions[r], colour);
                self.hists[r] = earlier;
                self.created[r] = created;
            }
            moves.push(GoMove {
                colour,
                region: r,
                point: p,
            });
            positions[r] = next;
            values[r] = v;
            colour = colour.opponent();
        }
        let mut score = BigRational::from_integer(self.constant.into());
        if finished {
            for v in &values {
                if let Some(x) = v.as_short().and_then(|g| self.store.as_number(g)) {
                    score += x.to_rational();
                }
            }
        }
        Ok(GoLine {
            first,
            moves,
            score,
            finished,
            passes,
        })
    }
}

/// Where the retake of `colour` at the point `q` of the region position
/// `pos` leads in the region's value: the index of the ko graph among the
/// value's graphs and the node, or `None` when the value holds no graph
/// with that move. A graph does not record which point each option plays,
/// so each node the root's options for `colour` lead to is checked by
/// replaying the walk's line to it ([`super::GoKo::line`]) on `pos` and
/// comparing the stones with those after the retake: a node is one
/// position of its component, and the line plays in that component alone,
/// so the stones agree exactly for the retake's node.
fn retake_node(
    pos: &Position,
    value: &GoValue,
    colour: Colour,
    q: usize,
) -> Option<(usize, NodeId)> {
    let GoValue::Ko { kos, .. } = value else {
        return None;
    };
    let mut free = pos.clone();
    free.ko_ban = None;
    let retaken = free
        .play_move(Move {
            colour,
            point: Some(q),
        })
        .ok()?;
    let points: FxHashMap<String, usize> = (0..pos.cells.len())
        .map(|p| (pos.point_name(p), p))
        .collect();
    // The stones after a walk's line (moves written `W C3`), or `None` if a
    // move does not read back or is not legal.
    let replay = |line: Vec<String>| -> Option<Vec<Cell>> {
        let mut at = free.clone();
        for mv in line {
            let (who, name) = mv.split_once(' ')?;
            let colour = match who {
                "B" => Colour::Black,
                "W" => Colour::White,
                _ => return None,
            };
            at.ko_ban = None;
            at = at
                .play_move(Move {
                    colour,
                    point: Some(*points.get(name)?),
                })
                .ok()?;
        }
        Some(at.cells)
    };
    for (i, k) in kos.iter().enumerate() {
        let root = k.graph.root();
        for t in k.graph.node(root).options(side(colour)) {
            let Target::Node(m) = t else { continue };
            if replay(k.line(m)).is_some_and(|cells| cells == retaken.cells) {
                return Some((i, m));
            }
        }
    }
    None
}

/// Whether a region's error says it is too large (over the node budget,
/// the search's points or the memory limit), rather than that it has no
/// local value.
pub fn too_large(e: &GoError) -> bool {
    matches!(e, GoError::NodeBudget { .. } | GoError::TooLarge { .. }) || over_memory(e)
}

/// Why a region has no value, as the report and the record say it.
pub fn region_error(e: &GoError) -> String {
    match e {
        GoError::KoGraph(k) => {
            format!("play in it can go on for ever (no line of play settles it): {k}")
        }
        e => e.to_string(),
    }
}

/// The ko graphs printed in full in a report; a larger one is summed up
/// by its size and its komaster answers.
const REPORT_GRAPH_NODES: usize = 12;

/// The largest ko graph whose komaster answers a report computes (they
/// cost more than the search of the region).
const REPORT_KOMASTER_NODES: usize = 1_000;

/// A region value that holds a ko the latent-ko rules cannot resolve: the
/// ko may matter. Small graphs are printed; every graph gets its komaster
/// means and temperatures (or why the komaster analysis has none).
fn ko_summary(
    store: &mut Store,
    value: &GoValue,
    style: crate::render::Style,
) -> Result<String, GoError> {
    use super::game::format_number;
    let GoValue::Ko { kos, short } = value else {
        return value.format(store, style);
    };
    let nodes: usize = kos.iter().map(|k| k.graph.len()).sum();
    let mut out = if nodes <= REPORT_GRAPH_NODES {
        format!("value {}", value.format(store, style)?)
    } else {
        let shown = if *short == store.zero() {
            String::new()
        } else {
            format!(
                " plus {}",
                crate::render::format_game(store, *short, style)?
            )
        };
        // "nodes" here, "positions searched" for the search's count after
        // it: two sizes of one region, named apart.
        format!("a ko graph of {nodes} nodes{shown} (in full in the region's `value` field)")
    };
    if kos.iter().any(|k| k.graph.len() > super::LATENT_NODE_LIMIT) {
        out.push_str(", holds a ko that may matter (too large for the latent-ko rules)");
    } else {
        out.push_str(", holds a ko that may matter (the latent-ko rules do not resolve it)");
    }
    if nodes > REPORT_KOMASTER_NODES {
        out.push_str("; komaster answers not computed for a graph this large");
    } else if kos.len() == 1 && *short == store.zero() {
        let graph = &kos[0].graph;
        for (who, k) in [("Black", Komaster::Black), ("White", Komaster::White)] {
            match graph.thermograph(store, graph.root(), k) {
                Ok(th) => out.push_str(&format!(
                    "; {who} komaster: mean {}, temperature {}",
                    format_number(th.mean()),
                    format_number(th.temperature())
                )),
                Err(e) => out.push_str(&format!("; {who} komaster: none ({e})")),
            }
        }
    }
    Ok(out)
}

impl Analysis {
    /// The board name (`C3`) of a move's point.
    pub fn point_name(&self, mv: &GoMove) -> String {
        let cut = &self.regions[mv.region].position;
        self.board
            .point_name(board_point(&self.board, cut, mv.point))
    }

    /// The board point of a move.
    pub fn board_point(&self, mv: &GoMove) -> usize {
        board_point(&self.board, &self.regions[mv.region].position, mv.point)
    }

    /// Whether some region holds a ko.
    pub fn has_ko(&self) -> bool {
        self.regions
            .iter()
            .any(|r| r.outcome.as_ref().is_ok_and(|v| v.has_ko()))
    }

    /// The winner of a final score: `Some(Black)`, `Some(White)` or `None`
    /// (jigo).
    pub fn winner(score: &BigRational) -> Option<Colour> {
        if score.is_positive() {
            Some(Colour::Black)
        } else if score.is_negative() {
            Some(Colour::White)
        } else {
            None
        }
    }

    /// Why a chain safe only by its mark looks capturable, if it does: a
    /// chain of at most three stones with at most two liberties that
    /// touches the opponent's unconditionally alive stones (a lone stone
    /// inside the opponent's territory, not a wall). Most likely a slip,
    /// such as an uppercase stone of a diagram typed as Sensei's Library
    /// types every stone: the regions treat it as uncapturable, and a line
    /// may fill its last liberty.
    fn doubtful_mark(&self, chain: &Chain) -> Option<String> {
        let liberties = self.board.liberties(&chain.points).len();
        let opponent = chain.colour.opponent();
        let touches_alive = self.safe.iter().any(|(c, r)| {
            *r == SafeReason::Benson
                && c.colour == opponent
                && c.points.iter().any(|&p| {
                    chain
                        .points
                        .iter()
                        .any(|&q| self.board.neighbours(q).any(|n| n == p))
                })
        });
        if chain.points.len() > 3 || liberties > 2 || !touches_alive {
            return None;
        }
        let liberties = match liberties {
            0 => "no liberty",
            1 => "one liberty",
            _ => "two liberties",
        };
        Some(format!(
            "has {liberties} and touches {opponent}'s unconditionally alive stones"
        ))
    }

    /// A readable report.
    pub fn report(&self, store: &mut Store) -> Result<String, GoError> {
        use super::game::format_number;
        let style = crate::render::Style::Ascii;
        let mut out = String::new();
        let rules = self.rules.describe();
        out.push_str(&format!(
            "whole-board analysis · {rules} · komi {}\n",
            format_number(&self.komi)
        ));
        let names = |pts: &[usize]| {
            pts.iter()
                .map(|&p| self.board.point_name(p))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (chain, reason) in &self.safe {
            let why = match reason {
                SafeReason::Benson => "unconditionally alive (Benson)",
                SafeReason::Marked => "marked safe",
            };
            out.push_str(&format!(
                "safe {}: {} — {why}\n",
                chain.colour,
                names(&chain.points)
            ));
            if *reason == SafeReason::Marked {
                if let Some(why) = self.doubtful_mark(chain) {
                    out.push_str(&format!(
                        "  note: {} is marked safe but {why}: the analysis never captures it; \
                         if it can be captured, write it in lowercase or mark it dead\n",
                        names(&chain.points)
                    ));
                }
            }
        }
        for chain in &self.dead {
            out.push_str(&format!(
                "dead {} (removed): {}\n",
                chain.colour,
                names(&chain.points)
            ));
        }
        out.push_str(&format!("score outside the regions: {}\n", self.constant));
        if let Some(b) = &self.ko_ban {
            let c = b.colour;
            let stop = match (&self.left_stop, b.exact_stop) {
                (None, _) => String::new(),
                (Some(_), true) => format!(", and so does the stop with {c} first (exact)"),
                (Some(_), false) => format!(
                    ", but the stop with {c} first is that of the board with the ban lifted \
                     (the retake is no move of a ko graph of its region)"
                ),
            };
            out.push_str(&format!(
                "ko ban: {c} may not retake at {} at once (ko); {c}'s optimal first moves \
                 and line with {c} first respect it{stop}\n",
                self.board.point_name(b.point)
            ));
        }
        let read: usize = self.regions.iter().map(|r| r.history).sum();
        if read > 0 {
            out.push_str(&format!(
                "history ({}): a move may not recreate {} of the game (the first move; \
                 every move when one region only has moves)\n",
                self.rules.ko_rule.describe(),
                count(read, "earlier board"),
            ));
        }
        for (i, r) in self.regions.iter().enumerate() {
            out.push_str(&format!(
                "region {} ({}: {}): ",
                i + 1,
                count(r.points.len(), "point"),
                names(&r.points)
            ));
            match &r.outcome {
                Ok(v) if v.value.as_short().is_some() => {
                    let value = v.value.format(store, style)?;
                    let chilled = v.chilled.format(store, style)?;
                    out.push_str(&format!("value {value}, chilled {chilled}"));
                    if let Some(t) = &v.temperature {
                        out.push_str(&format!(", temperature {t}"));
                    }
                    if v.territory {
                        out.push_str(", a territory the opponent cannot live in (the territory rule; not played)");
                    }
                    if v.latent {
                        out.push_str(", a latent ko (only a mistake reaches it; it cannot change the result)");
                    }
                    out.push_str(&format!(
                        " ({} searched)\n",
                        count(r.nodes as usize, "position")
                    ));
                }
                Ok(v) => {
                    out.push_str(&ko_summary(store, &v.value, style)?);
                    out.push_str(&format!(
                        " ({} searched)\n",
                        count(r.nodes as usize, "position")
                    ));
                }
                Err(e) if too_large(e) => out.push_str(&format!("too large: {e}\n")),
                Err(e) => out.push_str(&format!("no value: {}\n", region_error(e))),
            }
        }
        match (&self.left_stop, &self.right_stop) {
            (Some(l), Some(r)) => {
                out.push_str(&format!(
                    "stops (komi included): Black first {}, White first {}\n",
                    format_number(l),
                    format_number(r)
                ));
                for (colour, best) in [
                    (Colour::Black, &self.best_black),
                    (Colour::White, &self.best_white),
                ] {
                    let list: Vec<String> = best.iter().map(|m| self.point_name(m)).collect();
                    let every_number = self.regions.iter().all(|r| {
                        r.outcome
                            .as_ref()
                            .is_ok_and(|v| v.value.as_short().is_some_and(|g| store.is_number(g)))
                    });
                    out.push_str(&format!(
                        "optimal first moves for {colour}: {}\n",
                        match (list.is_empty(), every_number, self.has_ko()) {
                            (false, ..) => list.join(" "),
                            (true, true, _) => "none (every region is a number)".to_string(),
                            (true, false, true) => {
                                "none proved (a ko capture may be optimal)".to_string()
                            }
                            (true, false, false) => {
                                "none found (no legal move keeps the stop)".to_string()
                            }
                        }
                    ));
                }
                if self.has_ko() {
                    out.push_str("(with kos, a ko capture may be optimal without being listed)\n");
                }
            }
            _ => match &self.play_error {
                Some(e) => out.push_str(&format!("no stops: {e}\n")),
                None => out.push_str("no stops: some region has no value (see above)\n"),
            },
        }
        for line in [&self.black_first, &self.white_first].into_iter().flatten() {
            let moves: Vec<String> = line
                .steps()
                .into_iter()
                .map(|step| match step {
                    GoStep::Move(m) => format!("{} {}", m.colour.letter(), self.point_name(m)),
                    GoStep::Pass(c) => format!("{} pass", c.letter()),
                })
                .collect();
            let who = match Analysis::winner(&line.score) {
                Some(c) => format!("{c} wins by {}", format_number(&line.score.abs())),
                None => "jigo".to_string(),
            };
            out.push_str(&format!(
                "{} first: {}{} → score {} ({who})\n",
                line.first,
                if moves.is_empty() {
                    "no move".to_string()
                } else {
                    moves.join(", ")
                },
                if line.finished { "" } else { " … (cut)" },
                format_number(&line.score),
            ));
            if let Some(note) = self.line_on_the_board(line).filter(|_| self.game) {
                out.push_str(&format!("  note: {note}\n"));
            }
        }
        Ok(out)
    }

    /// Where a line, played on the board with the stones safe only by their
    /// marks made capturable, captures some of them or is illegal: the
    /// analysis took those stones as uncapturable (an uppercase stone of a
    /// diagram is such a mark), so on a game's board the line means
    /// something else (the game `X X X X X X / X . . . . O / X X X X X X`:
    /// the line `B E2` captures the White stone marked safe).
    fn line_on_the_board(&self, line: &GoLine) -> Option<String> {
        let marked: Vec<usize> = self
            .safe
            .iter()
            .filter(|(_, r)| *r == SafeReason::Marked)
            .flat_map(|(c, _)| c.points.iter().copied())
            .collect();
        if marked.is_empty() {
            return None;
        }
        let mut board = self.board.clone();
        board.frame.iter_mut().for_each(|f| *f = false);
        for (i, mv) in line.moves.iter().enumerate() {
            board.ko_ban = None;
            let p = self.board_point(mv);
            let name = format!("{} {}", mv.colour.letter(), self.point_name(mv));
            let next = match board.play_move(Move {
                colour: mv.colour,
                point: Some(p),
            }) {
                Ok(next) => next,
                Err(e) => {
                    return Some(format!(
                        "on the board with the marked stones capturable, the line's move {} ({name}) is illegal ({e})",
                        i + 1
                    ))
                }
            };
            let taken: Vec<String> = marked
                .iter()
                .filter(|&&q| board.cells[q] != Cell::Empty && next.cells[q] == Cell::Empty)
                .map(|&q| self.board.point_name(q))
                .collect();
            if !taken.is_empty() {
                return Some(format!(
                    "on the board, the line's move {} ({name}) captures {}, which the analysis takes as safe (marked); \
                     if they can be captured, write them in lowercase or mark them dead",
                    i + 1,
                    taken.join(" ")
                ));
            }
            board = next;
        }
        None
    }
}

/// `n` and the noun, in the plural unless `n` is 1 ("1 point", "3 points").
fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests;
