//! yose: combinatorial game theory for the Go endgame.
//!
//! Layers (see ARCHITECTURE.md): `game` is the CGT core and knows nothing of
//! syntax or IO; `syntax` turns source text into an AST with byte spans;
//! `eval` walks the AST; `diag` is our diagnostic data, rendered by ariadne
//! only at the edges (`cli`, `repl`).

// The benches' board builders (`benches/boards`), shared with the unit tests,
// name the crate `yose`.
#[cfg(test)]
extern crate self as yose;

pub mod cli;
pub mod diag;
pub mod eval;
pub mod files;
pub mod game;
pub mod go;
pub mod ko;
pub mod limits;
pub mod play;
pub mod prehashed;
pub mod render;
pub mod repl;
pub mod stdlib;
pub mod syntax;

// The integration tests live in the unit-test binary (their module doc says
// why), so that `cargo test` compiles yose once.
#[cfg(test)]
#[path = "../tests/integration/main.rs"]
mod integration;
