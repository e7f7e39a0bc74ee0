//! The standard library: every embedded module is a proof that must replay
//! cleanly, and its helpers must be usable through `use`.

use yose::eval::{Interp, Mode};
use yose::render::Style;

/// Runs `text` in check mode on a thread with a big stack (the interpreter
/// recurses deeply, as the binary's own thread allows) and returns
/// `(passed, failure messages)`; a script-ending error counts as a failure.
fn replay(name: &'static str, text: &'static str) -> (usize, Vec<String>) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut interp = Interp::new(Mode::Check, Style::Ascii);
            interp.output = Box::new(|_| {});
            let id = interp.add_source(name, text, None);
            let ended = interp.run_source(id);
            let mut failures: Vec<String> = interp
                .results
                .iter()
                .filter_map(|r| {
                    r.failure
                        .as_ref()
                        .map(|d| format!("{:?}: {}", r.theorem, d.message))
                })
                .collect();
            if let Err(e) = ended {
                failures.push(format!("script ended: {e:?}"));
            }
            let passed = interp.results.iter().filter(|r| r.passed()).count();
            (passed, failures)
        })
        .expect("spawn")
        .join()
        .expect("replay thread")
}

#[test]
fn every_module_replays() {
    for (name, text) in yose::stdlib::MODULES {
        let (passed, failures) = replay(name, text);
        assert!(failures.is_empty(), "{name}: {failures:#?}");
        assert!(passed > 0, "{name}: no proofs ran");
    }
}

#[test]
fn thermo_module_replays() {
    let text = yose::stdlib::module("thermo").expect("thermo is registered");
    let (passed, failures) = replay("thermo", text);
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(passed >= 11, "only {passed} proofs ran");
}

#[test]
fn thermo_helpers_are_usable() {
    let script = r#"
use thermo
assert three_stop(3, 2, 1) == {3 || 2 | 1}
assert switch_sum(3) == +-1 + +-2 + +-3
assert stops({3 || 2 | 1}) == [3, 2]
assert is_hot({1 | 0}) and not is_hot(^) and not is_hot(1/2)
assert same_games([*, 1], [1, *]) and not same_games([*], [*, 1])
assert translate_all(1, [*, ^]) == [1*, 1^]
assert len(switches(0, 1)) == 4 and len(three_stops(0, 1)) == 8
assert distinct([*, 1, *, 0, 1]) == [*, 1, 0]
assert pair_sums([1, *]) == [2, 1*, 0]
assert non_numbers([1, *, 1/2, ^]) == [*, ^]
"#;
    let (passed, failures) = replay("use-thermo", script);
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(passed, 10);
}
