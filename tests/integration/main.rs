//! The integration tests, one module per concern. They are a module of the
//! library's unit-test binary (loaded from `src/lib.rs`), not a test crate of
//! their own: a test crate links the library compiled a second time, outside
//! the test harness, and that second compilation of yose was about half of a
//! clean `cargo test` (BENCHMARKS.md, "Test time, session 7").
//!
//! The tests that run the `yose` executable as a child process run this
//! test binary instead ([`yose_binary`]): with `YOSE_TEST_AS_BINARY` set, a
//! constructor hands the process to [`yose::cli::process_main`] before the
//! test harness starts, so the child is the executable's `main` exactly.
//! Run one concern with a filter: `cargo test integration::cases::`.

mod algebra;
mod cases;
mod cli;
mod fuzz;
mod readme;
mod robustness;
mod stdlib;

use std::process::Command;

const AS_BINARY: &str = "YOSE_TEST_AS_BINARY";

/// A command that runs the `yose` executable: this test binary, which acts
/// as it (module documentation).
pub fn yose_binary() -> Command {
    let mut cmd = Command::new(std::env::current_exe().expect("the test binary's path"));
    cmd.env(AS_BINARY, "1");
    cmd
}

// SAFETY: runs before `main`; it only reads the environment and, when asked,
// runs the executable's whole process, which never returns to the harness.
#[ctor::ctor]
unsafe fn act_as_the_yose_binary() {
    if std::env::var_os(AS_BINARY).is_some() {
        yose::cli::process_main()
    }
}
