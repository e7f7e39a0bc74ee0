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
mod repl;
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

/// With this variable set to a path, the process acting as `yose` writes its
/// own peak resident set there as it exits (the `VmHWM:` line of
/// `/proc/self/status`). A parent's `wait4` cannot tell it: a child forked
/// from this large test process starts with the parent's pages counted, and
/// the kernel keeps that high-water mark across `exec`.
pub const PEAK_FILE: &str = "YOSE_TEST_PEAK_FILE";

extern "C" fn write_the_peak() {
    let (Some(path), Ok(status)) = (
        std::env::var_os(PEAK_FILE),
        std::fs::read_to_string("/proc/self/status"),
    ) else {
        return;
    };
    if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
        let _ = std::fs::write(path, line);
    }
}

// SAFETY: runs before `main`; it only reads the environment and, when asked,
// registers an exit handler and runs the executable's whole process, which
// never returns to the harness.
#[ctor::ctor]
unsafe fn act_as_the_yose_binary() {
    // No transparent huge pages in the test process (its children acting
    // as `yose` inherit the setting): mimalloc asks for them, and the
    // suite's many small computations in fresh stores then fault memory in
    // 2 MB at a time. The suite ran 6-7 % faster without (BENCHMARKS.md,
    // "Test time, session 13"); the `yose` executable keeps them, since its
    // big searches run faster with them (open 3x5: 8.4 against 9.8 s).
    #[cfg(target_os = "linux")]
    // SAFETY: a flag of this process; no memory is touched.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    if std::env::var_os(AS_BINARY).is_some() {
        if std::env::var_os(PEAK_FILE).is_some() {
            // SAFETY: registers a plain function, run by `exit`.
            unsafe { libc::atexit(write_the_peak) };
        }
        yose::cli::process_main()
    }
}
