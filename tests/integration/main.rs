//! All integration tests, one module per concern, in one test binary: each
//! binary links the whole library, so one binary instead of seven saves six
//! links of it on every clean `cargo test` (BENCHMARKS.md, "Test time").
//! Run one concern with a filter: `cargo test --test integration cases::`.

mod algebra;
mod cases;
mod cli;
mod fuzz;
mod readme;
mod robustness;
mod stdlib;
