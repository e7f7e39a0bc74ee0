//! Kos: ko graphs (loopy local positions), their validation and printing,
//! and komaster thermography (Berlekamp, “The Economist's View of Combinatorial Games”, and Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”).
//!
//! A [`KoGraph`] is a finite graph of local positions. Each node has Left
//! (Black) and Right (White) options; an option leads to another node (so
//! play may cycle: a ko) or to a short game ([`GameId`](crate::game::GameId)),
//! a terminal value where play leaves the graph, and may score a number on
//! the way (a *gain*, below). Graphs are written in
//! CGSuite's labelled loopy notation, `kw: {{b | kw} | w}` for the simple
//! direct ko with Black to capture, and built from [`NodeSpec`]s or by the
//! shorthands [`KoGraph::ko`], [`KoGraph::ko_captured`],
//! [`KoGraph::multi_stage_ko`] and [`KoGraph::approach_ko`].
//!
//! Validation ([`KoError`], each naming the node at fault):
//! * every label is defined once and every reference names a node
//!   ([`KoError::DuplicateLabel`], [`KoError::Dangling`]);
//! * every node is reachable from the root ([`KoError::Unreachable`]);
//! * every node has options ([`KoError::NoOptions`]) and a way out: some line
//!   of play from it reaches a short game ([`KoError::NoWayOut`]);
//! * no player can return to a position with his own moves alone
//!   ([`KoError::NoKoStructure`]): in Go every repetition needs a capture and
//!   a recapture, so every cycle of a ko graph contains moves of both players.
//!
//! # Gains (scoring edges)
//!
//! A move may score a number at once: every option carries a *gain* `g`
//! (a dyadic rational, 0 unless written), and the option is the game
//! `g + target` — `g` plus the value of the node (or short game) it leads
//! to. A node's value is the value of *its* position, whatever was scored
//! on the way to it. Written `g + target`, `target + g` or `target − g`
//! (`a: {{2 | 1 + a} | -2}`: White's retake scores 1 for Black); printed
//! `g + target`. Go graphs put prisoners (Japanese rules) or newly immortal
//! stones (area) there, and chilling adds −1 per Black move and +1 per
//! White move ([`crate::go::GoValue::chill`]).
//!
//! *What is required of a graph with gains: nothing more.* In particular a
//! cycle may score (its gains need not sum to 0). The reason is that no
//! analysis here is a fixpoint over the cycles of the graph:
//! * the komaster thermographs ([`thermo`]) unfold play into a finite tree
//!   of states (a node and the positions of its strongly connected
//!   component already visited; a player who may not repeat must move to a
//!   new position, and every cycle has moves of both players), so the walls
//!   of a state are determined by its finitely many continuations, and a
//!   gain just shifts the walls of the option it is on;
//! * the ko solver ([`solve`]) settles a gain as a number when the move is
//!   made, and forbids repeating a whole-sum state, so play is finite too.
//!
//! Where cycles do matter — in the wall recursion a node's Left wall is
//! built from its Left options' Right walls and vice versa, so the lines it
//! follows alternate, and a cycle of those lines has as many Black as White
//! moves — Go regions never score: under Japanese rules a cycle's prisoner
//! balance is White's moves minus Black's moves round it (each colour's
//! stones placed in it must all be captured in it for the position to come
//! back), which is 0 on an alternating cycle. A cycle that scores (an
//! *unbalanced* one: "White plays twice into atari, Black takes both, White
//! takes one back") needs a player to move twice in a row, which in the
//! thermograph happens only at a ban (rule 2 of [`thermo`]); there the
//! unfolding handles it like any other line.
//!
//! *Potentials.* A graph whose cycles all score 0 can be written without
//! gains: give each node the points scored on some line from the root to it
//! (φ), let it denote φ plus its value, and shift the short games by φ —
//! the graph the Go module built before gains existed, where a position
//! reached with two different φ was two nodes. The walls of (v, φ) are then
//! those of v shifted by φ, except where a state settles to a number:
//! `2 + {-4 | 0}` is 1 while `{-2 | 2}` is 0 (a property test checks the
//! rest on random graphs). The gains reading, a number plus the position,
//! is the right one for Go.
//!
//! Komaster thermography is in [`thermo`] (definitions and
//! references there).
//!
//! No syntax, no IO: the parser and the interpreter build on this module.

pub mod component;
mod display;
mod graph;
pub mod kofight;
pub mod latent;
mod shapes;
pub mod solve;
pub mod thermo;

pub use component::{Component, Compound};
pub(crate) use graph::{plus_gain, strongly_connected_components, GainIndices};
pub use graph::{
    GraphCounts, KoError, KoGraph, KoGraphBuilder, KoNode, Komaster, NodeId, NodeRef, NodeSpec,
    OptionSpec, Options, PackedTarget, Rule, Side, Target,
};
pub use solve::{
    equivalent, first_moves, ko_winner, net_threats, pseudo_incentive, solve, solve_from, Action,
    Ending, Equivalence, FirstMove, FirstMoves, KoFill, KoMove, KoSolution, KoSolveError,
    KoSolveOptions, KoWinner, PseudoIncentive, StartBan,
};
pub use thermo::{KoKind, KomasterAnalysis};

#[cfg(test)]
mod tests;
