//! The `yose` executable: everything is in the library ([`yose::cli::process_main`]),
//! so that the unit-test binary can stand in for this one in the tests.

fn main() {
    yose::cli::process_main()
}
