//! Kos: ko graphs (loopy local positions), their validation and printing,
//! and komaster thermography (DESIGN.md §2; issue 4).
//!
//! A [`KoGraph`] is a finite graph of local positions. Each node has Left
//! (Black) and Right (White) options; an option leads to another node (so
//! play may cycle: a ko) or to a short game ([`GameId`](crate::game::GameId)),
//! a terminal value where play leaves the graph. Graphs are written in
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
//! Komaster thermography is in [`thermo`] (definitions and
//! references there).
//!
//! No syntax, no IO: the parser and the interpreter build on this module.

pub mod component;
mod display;
mod graph;
pub mod kofight;
mod shapes;
pub mod solve;
pub mod thermo;

pub use component::{Component, Compound};
pub(crate) use graph::{plus_gain, strongly_connected_components};
pub use graph::{
    KoError, KoGraph, KoNode, Komaster, NodeId, NodeSpec, OptionSpec, Rule, Side, Target,
};
pub use solve::{
    equivalent, ko_winner, net_threats, pseudo_incentive, solve, Action, Ending, Equivalence,
    KoFill, KoMove, KoSolution, KoSolveError, KoSolveOptions, KoWinner, PseudoIncentive,
};
pub use thermo::{KoKind, KomasterAnalysis};

#[cfg(test)]
mod tests;
