//! Tests of the latent-ko rule: Go shapes and hand-made graphs, every
//! verdict that resolves a ko checked against the exact ko solver with
//! threats on either side, and kos the rule keeps shown to matter.

use super::*;
use crate::game::Dyadic;
use crate::go::{go_chilled, go_value, GoValue, Position, SearchOptions};
use crate::ko::{solve, Component, KoSolveOptions};
use crate::render::{format_game, Style};
use std::rc::Rc;

/// The ko graph of a one-component Go region (`chilled`: the chilled one).
pub(crate) fn go_graph(store: &mut Store, text: &str, chilled: bool) -> Option<Rc<KoGraph>> {
    let pos = Position::parse(text).unwrap();
    let opts = SearchOptions::default();
    let v = if chilled {
        go_chilled(store, &pos, &opts).ok()?
    } else {
        go_value(store, &pos, &opts).ok()?
    };
    match v {
        GoValue::Ko { kos, short } if kos.len() == 1 && short == store.zero() => {
            Some(kos[0].graph.clone())
        }
        _ => None,
    }
}

/// Short games for the environment: numbers, infinitesimals, switches and
/// a few sums of them.
fn environments(store: &mut Store) -> Vec<GameId> {
    let z = store.zero();
    let int = |s: &mut Store, n: i64| s.integer(n);
    let (one, m1, two, m2) = (int(store, 1), int(store, -1), int(store, 2), int(store, -2));
    let half = store.number(Dyadic::new(1.into(), 1));
    let mhalf = store.neg(half);
    let star = store.canonical(vec![z], vec![z]).unwrap();
    let up = store.canonical(vec![z], vec![star]).unwrap();
    let down = store.neg(up);
    let mut sw = |a: GameId, b: GameId| store.canonical(vec![a], vec![b]).unwrap();
    let (pm1, s10, s0m1, s20, s0m2, pm2) = (
        sw(one, m1),
        sw(one, z),
        sw(z, m1),
        sw(two, z),
        sw(z, m2),
        sw(two, m2),
    );
    let base = [
        z, star, up, down, pm1, s10, s0m1, s20, s0m2, half, mhalf, pm2,
    ];
    let mut out = base.to_vec();
    for (i, &a) in base.iter().enumerate().skip(1) {
        for &b in &base[i..] {
            if out.len() < 24 && a != b {
                out.push(store.add(a, b).unwrap());
            }
        }
    }
    out
}

/// The threats (Black's, White's) the sums get.
const THREATS: [(u32, u32); 6] = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1)];

fn sum(main: Component, x: GameId, (b, w): (u32, u32)) -> Vec<Component> {
    let mut out = vec![main, Component::Short(x)];
    for (owner, count) in [(Side::Left, b), (Side::Right, w)] {
        if count > 0 {
            out.push(Component::Threats { owner, count });
        }
    }
    out
}

/// The first sum `K + X` (X a short game and threats, either player
/// first) whose solver score differs from that of `g + X`, described.
pub(crate) fn first_difference(
    store: &mut Store,
    graph: &Rc<KoGraph>,
    g: GameId,
) -> Option<String> {
    let opts = KoSolveOptions::default();
    for x in environments(store) {
        for threats in THREATS {
            for first in [Side::Left, Side::Right] {
                let k = sum(Component::ko(graph.clone()), x, threats);
                let s = sum(Component::Short(g), x, threats);
                // A sum the solver cannot finish (a ko it cannot count after
                // two passes) differs too.
                let a = solve(store, &k, first, &opts).map(|x| x.score);
                let c = solve(store, &s, first, &opts).unwrap().score;
                if a.as_ref() != Ok(&c) {
                    let xs = format_game(store, x, Style::Ascii).unwrap();
                    let a = match a {
                        Ok(a) => a.to_string(),
                        Err(e) => e.to_string(),
                    };
                    return Some(format!(
                        "X = {xs}, threats {threats:?}, {} first: ko {a}, short {c}",
                        first.player()
                    ));
                }
            }
        }
    }
    None
}

/// As [`first_difference`], but a sum the solver cannot finish (a ko it
/// cannot count after two passes) is left out and counted: the first
/// difference where both finish, and how many sums were left out.
/// How many sums [`difference_where_solved`] plays a graph in (each
/// environment, each threat setting, either player first).
pub(crate) fn sums_per_graph(store: &mut Store) -> usize {
    environments(store).len() * THREATS.len() * 2
}

pub(crate) fn difference_where_solved(
    store: &mut Store,
    graph: &Rc<KoGraph>,
    g: GameId,
) -> (Option<String>, usize) {
    let opts = KoSolveOptions::default();
    let mut unfinished = 0;
    for x in environments(store) {
        for threats in THREATS {
            for first in [Side::Left, Side::Right] {
                let k = sum(Component::ko(graph.clone()), x, threats);
                let s = sum(Component::Short(g), x, threats);
                let c = solve(store, &s, first, &opts).unwrap().score;
                match solve(store, &k, first, &opts) {
                    Ok(a) if a.score == c => {}
                    Ok(a) => {
                        let xs = format_game(store, x, Style::Ascii).unwrap();
                        return (
                            Some(format!(
                                "X = {xs}, threats {threats:?}, {} first: ko {}, short {c}",
                                first.player(),
                                a.score
                            )),
                            unfinished,
                        );
                    }
                    Err(_) => unfinished += 1,
                }
            }
        }
    }
    (None, unfinished)
}

/// Whether the owner of the threats changes some result of `K + X`: the
/// ko can matter.
pub(crate) fn threats_matter(store: &mut Store, graph: &Rc<KoGraph>) -> bool {
    let opts = KoSolveOptions::default();
    for x in environments(store) {
        for first in [Side::Left, Side::Right] {
            let mut scores = Vec::new();
            for threats in [(2, 0), (0, 2)] {
                let k = sum(Component::ko(graph.clone()), x, threats);
                scores.push(solve(store, &k, first, &opts).unwrap().score);
            }
            if scores[0] != scores[1] {
                return true;
            }
        }
    }
    false
}

fn show(store: &mut Store, g: GameId) -> String {
    format_game(store, g, Style::Ascii).unwrap()
}

#[test]
fn chilled_x_o_is_zero_and_agrees_with_the_solver() {
    let mut s = Store::new();
    let k = go_graph(&mut s, "X . . O", true).unwrap();
    let Latent::Short(g) = latent(&mut s, &k).unwrap() else {
        panic!("chilled X..O should resolve")
    };
    assert_eq!(show(&mut s, g), "0");
    assert_eq!(first_difference(&mut s, &k, g), None);
}

#[test]
fn unchilled_x_o_is_kept_the_bounds_are_too_crude() {
    // After Black's self-atari `hi` lets Black win the ko at once and for
    // nothing, so (R) fails for Black's entering move; the graph stays.
    // (The solver finds no sum here where the ko matters: the rule is
    // sufficient, not necessary.)
    let mut s = Store::new();
    let k = go_graph(&mut s, "X . . O", false).unwrap();
    let v = latent(&mut s, &k).unwrap();
    assert!(
        matches!(
            v,
            Latent::Live {
                why: Why::Unanswered {
                    player: Side::Left,
                    ..
                },
                ..
            }
        ),
        "{v:?}"
    );
}

/// `text` in the labelled loopy notation.
fn graph(s: &mut Store, text: &str) -> Rc<KoGraph> {
    Rc::new(crate::ko::tests::read(s, text).unwrap())
}

#[test]
fn a_ko_at_the_root_is_live_and_matters() {
    let mut s = Store::new();
    let (b, w) = (s.integer(3), s.integer(-3));
    let k = Rc::new(KoGraph::ko(b, w));
    let v = latent(&mut s, &k).unwrap();
    assert!(
        matches!(
            v,
            Latent::Live {
                why: Why::RootInKo,
                ..
            }
        ),
        "{v:?}"
    );
    assert!(threats_matter(&mut s, &k));
}

#[test]
fn an_entering_move_that_pays_is_not_resolved() {
    let mut s = Store::new();
    // White's move into the ko k is the only one he has; Black's best
    // answer leaves the ko to be fought: T(r) = {1 | } = 2 is wrong.
    let k = graph(&mut s, "r: {1 | k: {{3 | k} | -3}}");
    let v = latent(&mut s, &k).unwrap();
    assert!(
        matches!(
            v,
            Latent::Live {
                why: Why::Unanswered {
                    player: Side::Right,
                    ..
                },
                ..
            }
        ),
        "{v:?}"
    );
    let t = Bounds::new(&mut s, &k).unwrap().unwrap().t[0].unwrap();
    assert_eq!(show(&mut s, t), "2");
    assert!(first_difference(&mut s, &k, t).is_some());
    assert!(threats_matter(&mut s, &k));
}

#[test]
fn a_bad_entering_move_is_resolved() {
    let mut s = Store::new();
    // Same ko, but White has a better move (-5): entering gives Black at
    // least lo(k) = { | -3} = -4 ≥ T(r) = {1 | -5}? No — Black answers
    // with her capture {3 | k}, lo = {3 | -4} ≥ {1 | -5}.
    let k = graph(&mut s, "r: {1 | -5, k: {{3 | k} | -3}}");
    let v = latent(&mut s, &k).unwrap();
    let Latent::Short(g) = v else { panic!("{v:?}") };
    assert_eq!(show(&mut s, g), "{1|-5}");
    assert_eq!(first_difference(&mut s, &k, g), None);
}

/// The rule without (R) resolves this graph, wrongly: White's move into
/// the ko is his best when he has a threat (he wins it and fills for −4),
/// yet the counts (C) hold at the root. (Found by a search over small
/// graphs of this shape.)
#[test]
fn the_reversal_condition_is_needed() {
    let mut s = Store::new();
    let k = graph(&mut s, "r: {-1 | -3, k: {{0 | k} | -4}}");
    let v = latent(&mut s, &k).unwrap();
    assert!(
        matches!(
            v,
            Latent::Live {
                why: Why::Unanswered {
                    player: Side::Right,
                    ..
                },
                ..
            }
        ),
        "{v:?}"
    );
    let no_r = Checks {
        reversal: false,
        count: true,
    };
    let Latent::Short(g) = decide(&mut s, &k, no_r).unwrap() else {
        panic!("(C) alone should accept it")
    };
    assert_eq!(show(&mut s, g), "{-1|-3}");
    let d = first_difference(&mut s, &k, g);
    expect_test::expect![[r#"
        Some(
            "X = 0, threats (0, 1), White first: ko -4, short -3",
        )
    "#]]
    .assert_debug_eq(&d);
}

/// Random small ko graphs in the literal notation: two to five nodes, each
/// player one or two options per node, each option a node or an integer
/// from −4 to 4 (no gains). `None` when the graph is not valid (a player
/// can cycle alone) or no cycle can be reached from the root (nothing for
/// the rules to decide).
fn random_graph(s: &mut Store, next: &mut impl FnMut() -> u64) -> Option<(String, Rc<KoGraph>)> {
    let n = 2 + (next() % 4) as usize;
    let mut specs = Vec::new();
    for i in 0..n {
        let mut sides = Vec::new();
        for _ in 0..2 {
            let k = 1 + next() % 2;
            let opts: Vec<String> = (0..k)
                .map(|_| match next() % 2 {
                    0 => format!("n{}", next() % n as u64),
                    _ => format!("{}", (next() % 9) as i64 - 4),
                })
                .collect();
            sides.push(opts.join(", "));
        }
        specs.push(format!("n{i}: {{{} | {}}}", sides[0], sides[1]));
    }
    let text = specs.join("; ");
    let k = Rc::new(crate::ko::tests::read(s, &text).ok()?);
    k.reaches_cycle()[k.root().index()].then_some((text, k))
}

/// The two rules on random small graphs (not Go's: any shape of cycle,
/// entries by either player at any node), every graph they resolve played
/// by the exact solver next to each short game of the environment with
/// the threats of [`THREATS`], either player first, as its short game; and
/// the mutants of the first rule (without (R), without (C)) each shown wrong
/// on some of the same graphs, so the comparison can tell. The second rule
/// without (C') was shown wrong here too until rule 3 of `ko::thermo` took
/// the stops an option reverses through; now none of these graphs (nor of
/// 3 000 drawn) shows it, and `go::tests::latent_kos_agree_with_the_ko_solver`
/// is the test that shows it wrong, on a Go graph. (Over 8 900 resolved graphs, 1 000 of them by the
/// first rule, found no difference when this was written.)
#[test]
fn random_graphs_the_rules_resolve_play_as_their_game() {
    let mut state: u64 = 0x1a7e_9a9f;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut s = Store::new();
    let (mut graphs, mut resolved, mut by_first) = (0, 0, 0);
    // Mutants: (R) off, (C) off, (C') off; the first graph each is wrong on.
    let mut mutants: [Option<String>; 3] = [None, None, None];
    while resolved < 150 {
        let Some((text, k)) = random_graph(&mut s, &mut next) else {
            continue;
        };
        graphs += 1;
        for (m, checks) in Checks::MUTANTS.into_iter().enumerate() {
            if mutants[m].is_none() {
                if let Latent::Short(g) = decide(&mut s, &k, checks).unwrap() {
                    if first_difference(&mut s, &k, g).is_some() {
                        mutants[m] = Some(text.clone());
                    }
                }
            }
        }
        if mutants[2].is_none() {
            if let Some(g) = no_return(&mut s, &k, false).unwrap() {
                if first_difference(&mut s, &k, g).is_some() {
                    mutants[2] = Some(text.clone());
                }
            }
        }
        if let Latent::Short(g) = latent(&mut s, &k).unwrap() {
            resolved += 1;
            if matches!(decide(&mut s, &k, Checks::ALL).unwrap(), Latent::Short(_)) {
                by_first += 1;
            }
            assert_eq!(first_difference(&mut s, &k, g), None, "{text}");
        }
    }
    expect_test::expect![[r#"
        368 graphs with a cycle, 150 resolved (15 by the first rule); mutants wrong on [
            Some(
                "n0: {n2, -1 | 2, -4}; n1: {0 | -3, 3}; n2: {4, n3 | n1, -3}; n3: {4, n1 | n2, 3}",
            ),
            Some(
                "n0: {n2 | n1, 1}; n1: {1, n2 | -3}; n2: {-1 | n3}; n3: {1, n1 | -4}",
            ),
            None,
        ]"#]]
    .assert_eq(&format!(
        "{graphs} graphs with a cycle, {resolved} resolved ({by_first} by the first rule); \
         mutants wrong on {mutants:#?}"
    ));
}
