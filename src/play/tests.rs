//! Tests of the sum solver and the strategies: the worked examples of the
//! Hotstrat counterexamples paper (examples/hotstrat_fails.cgt names it),
//! cross-checks against canonical sums and against a plain minimax, budget and
//! interrupt behaviour.

use super::Strategy as Strat;
use super::*;
use crate::game::testkit::{build, number_or_nus, trees, Tree};
use crate::game::{Dyadic, GameId, Nus, Store};
use num_rational::BigRational;
use proptest::prelude::*;
use proptest::strategy::Strategy;
use rustc_hash::FxHashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

const BIG: u64 = 10_000_000;

fn d(n: i64) -> Dyadic {
    Dyadic::from_i64(n)
}

fn half(n: i64) -> Dyadic {
    Dyadic::new(n.into(), 1)
}

// The Go-like board and its builders are the benches' (`benches/boards`), so
// the tests check the very board the play and ko benches time.
#[path = "../../benches/boards/mod.rs"]
mod boards;
use boards::{g, go_board, num, sw, three_stop};

fn q(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

/// Seed 002's counterexample: `G = {10 | {0 | -100}}`, `H = {8 | -8}`.
fn seed_p(s: &mut Store) -> (GameId, GameId) {
    let y = sw(s, 0, -100);
    let ten = num(s, 10);
    let gg = g(s, &[ten], &[y]);
    let h = sw(s, 8, -8);
    (gg, h)
}

/// Plain minimax to all-numbers, no shortcuts at all (memoised on the
/// sorted multiset only).
fn brute(
    s: &mut Store,
    comps: &[GameId],
    left: bool,
    memo: &mut FxHashMap<(Vec<GameId>, bool), Dyadic>,
) -> Dyadic {
    let mut key = comps.to_vec();
    key.sort();
    if let Some(v) = memo.get(&(key.clone(), left)) {
        return v.clone();
    }
    let mut best: Option<Dyadic> = None;
    let mut total = Dyadic::zero();
    let mut all_numbers = true;
    for (i, &c) in comps.iter().enumerate() {
        if let Some(x) = s.as_number(c) {
            total = total.add(x);
            continue;
        }
        all_numbers = false;
        let (l, r) = s.options(c);
        let opts = if left { l } else { r };
        for &o in opts.iter() {
            let mut child = comps.to_vec();
            child[i] = o;
            let v = brute(s, &child, !left, memo);
            if best
                .as_ref()
                .is_none_or(|b| if left { &v > b } else { &v < b })
            {
                best = Some(v);
            }
        }
    }
    let v = if all_numbers { total } else { best.unwrap() };
    memo.insert((key, left), v.clone());
    v
}

fn brute_stop(s: &mut Store, comps: &[GameId], p: Player) -> Dyadic {
    brute(s, comps, p.is_left(), &mut FxHashMap::default())
}

/// The line is legal, alternates from `first`, and ends with all numbers
/// summing to `result`.
fn check_line(s: &mut Store, comps: &[GameId], first: Player, line: &Line) {
    let mut pos = comps.to_vec();
    let mut p = first;
    for (k, m) in line.moves.iter().enumerate() {
        assert_eq!(m.number, k + 1);
        assert_eq!(m.player, p);
        assert_eq!(pos[m.component], m.from);
        let (l, r) = s.options(m.from);
        let opts = if p.is_left() { l } else { r };
        assert!(opts.contains(&m.to), "illegal move {m:?}");
        assert!(!s.is_number(m.from), "moved in a number");
        pos[m.component] = m.to;
        p = p.opponent();
    }
    let mut total = Dyadic::zero();
    for &c in &pos {
        total = total.add(s.as_number(c).expect("line ends with numbers"));
    }
    assert_eq!(total, line.result);
}

// ----- the Hotstrat counterexamples paper -------------------------------------

#[test]
fn seed_002_theorem_1() {
    let mut s = Store::new();
    let (gg, h) = seed_p(&mut s);
    let p = [gg, h];
    // (a) temperatures; the paper's mean μ(G) = 5 is wrong: it is 0.
    assert_eq!(s.temperature(gg).unwrap(), q(10));
    assert_eq!(s.temperature(h).unwrap(), q(8));
    assert_eq!(s.mean(gg).unwrap(), d(0));
    // (b) LS(P) = 8, uniquely by moving in H.
    let sol = solve(&mut s, &p, Player::Left, BIG).unwrap();
    assert_eq!(sol.stop, d(8));
    assert_eq!(sol.line.result, d(8));
    assert_eq!(sol.line.moves[0].component, 1);
    check_line(&mut s, &p, Player::Left, &sol.line);
    let eight = num(&mut s, 8);
    assert_eq!(
        best_moves(&mut s, &p, Player::Left, BIG).unwrap(),
        vec![Move {
            player: Player::Left,
            component: 1,
            to: eight
        }]
    );
    let sum = s.sum(&p).unwrap();
    assert_eq!(s.left_stop(sum).unwrap(), d(8));
    // (c) Hotstrat plays in G and, against optimal White, ends at 2.
    let hot = hotstrat(&mut s, &p, Player::Left).unwrap().unwrap();
    assert_eq!(hot.component, 0);
    let line = play_out(&mut s, &p, Player::Left, Strat::Hotstrat, Strat::Optimal).unwrap();
    assert_eq!(line.result, d(2));
    check_line(&mut s, &p, Player::Left, &line);
    // Optimal against optimal reaches the stop; Thermostrat finds H.
    let line = play_out(&mut s, &p, Player::Left, Strat::Optimal, Strat::Optimal).unwrap();
    assert_eq!(line.result, d(8));
    assert_eq!(
        thermostrat(&mut s, &p, Player::Left)
            .unwrap()
            .unwrap()
            .component,
        1
    );
    let line = play_out(&mut s, &p, Player::Left, Strat::Thermostrat, Strat::Optimal).unwrap();
    assert_eq!(line.result, d(8));
}

#[test]
fn seed_002_proposition_3_2() {
    let mut s = Store::new();
    let (gg, h) = seed_p(&mut s);
    let p = [gg, h];
    assert_eq!(must_play(&mut s, &p, 0, Player::Left, BIG).unwrap(), d(2));
    assert_eq!(must_play(&mut s, &p, 1, Player::Left, BIG).unwrap(), d(8));
    // Swings LS - RS: 10 and 16.
    assert_eq!(
        s.left_stop(gg).unwrap().sub(&s.right_stop(gg).unwrap()),
        d(10)
    );
    assert_eq!(
        s.left_stop(h).unwrap().sub(&s.right_stop(h).unwrap()),
        d(16)
    );
    // Avoid-play: playing first in G costs 6, in H nothing.
    assert_eq!(avoid_play(&mut s, &p, 0, Player::Left, BIG).unwrap(), d(6));
    assert_eq!(avoid_play(&mut s, &p, 1, Player::Left, BIG).unwrap(), d(0));
    // Right: RS(P) = -8 + 10? Right moves H to -8 or G to Y.
    let rs = solve(&mut s, &p, Player::Right, BIG).unwrap().stop;
    assert_eq!(rs, brute_stop(&mut s, &p, Player::Right));
    let sum = s.sum(&p).unwrap();
    assert_eq!(rs, s.right_stop(sum).unwrap());
}

/// Switches `±t` around 0 for the given swings `2t` (halves allowed).
fn zero_mean_switches(s: &mut Store, swings_x2: &[i64]) -> Vec<GameId> {
    swings_x2
        .iter()
        .map(|&t| {
            let a = s.number(Dyadic::new(t.into(), 2));
            let b = s.number(Dyadic::new((-t).into(), 2));
            g(s, &[a], &[b])
        })
        .collect()
}

#[test]
fn seed_002_examples_5_2_and_5_3() {
    let mut s = Store::new();
    let c = zero_mean_switches(&mut s, &[20, 16, 12]);
    let v: Vec<Dyadic> = (0..3)
        .map(|j| must_play(&mut s, &c, j, Player::Left, BIG).unwrap())
        .collect();
    assert_eq!(v, vec![d(4), d(2), d(2)]);
    let c = zero_mean_switches(&mut s, &[20, 16, 12, 8]);
    let v: Vec<Dyadic> = (0..4)
        .map(|j| must_play(&mut s, &c, j, Player::Left, BIG).unwrap())
        .collect();
    assert_eq!(v, vec![d(2), d(0), d(0), d(-2)]);
}

#[test]
fn seed_002_theorem_6_1() {
    let mut s = Store::new();
    let mut c = zero_mean_switches(&mut s, &[20, 18, 16, 2]);
    c.push(s.number(half(1)));
    let v: Vec<Dyadic> = (0..4)
        .map(|j| must_play(&mut s, &c, j, Player::Left, BIG).unwrap())
        .collect();
    assert_eq!(v, vec![half(9), half(7), half(7), half(-7)]);
    assert_eq!(solve(&mut s, &c, Player::Left, BIG).unwrap().stop, half(9));
    // The paper's "unique minimum" V_4 = -7/2 ignores the number region:
    // Black's (legal, bad) move 1/2 -> 0 there gives -4.
    let rank = avoid_play_ranking(&mut s, &c, Player::Left, BIG).unwrap();
    assert_eq!(rank[0], (4, d(-4)));
    assert_eq!(rank[1], (3, half(-7)));
    // The number component: Left may move 1/2 to 0, a legal if bad move.
    // Right answers at -5 + 4.5 - 4 + 0.5 = -4.
    assert_eq!(must_play(&mut s, &c, 4, Player::Left, BIG).unwrap(), d(-4));
    let zero = s.zero();
    assert_eq!(
        must_play(&mut s, &[zero], 0, Player::Left, BIG),
        Err(PlayError::NoMove {
            component: 0,
            player: Player::Left
        })
    );
    assert_eq!(
        must_play(&mut s, &c, 9, Player::Left, BIG),
        Err(PlayError::NoComponent {
            component: 9,
            len: 5
        })
    );
}

// ----- closed forms and performance-shaped cases ------------------------------

#[test]
fn switches_one_to_forty() {
    let mut s = Store::new();
    let c: Vec<GameId> = (1..=40).map(|k| sw(&mut s, k, -k)).collect();
    let sol = solve(&mut s, &c, Player::Left, BIG).unwrap();
    assert_eq!(sol.stop, d(20));
    assert_eq!(sol.line.moves.len(), 40);
    assert_eq!(sol.line.moves[0].component, 39);
    check_line(&mut s, &c, Player::Left, &sol.line);
    assert_eq!(solve(&mut s, &c, Player::Right, BIG).unwrap().stop, d(-20));
    assert!(sol.nodes < 10_000, "{} nodes", sol.nodes);
}

#[test]
fn infinitesimals_do_not_change_stops_but_are_played_out() {
    let mut s = Store::new();
    let star = s.star();
    let up = s.ups(1);
    let five = sw(&mut s, 5, -5);
    let three = sw(&mut s, 3, -3);
    let c = [five, star, three, up];
    let sol = solve(&mut s, &c, Player::Left, BIG).unwrap();
    assert_eq!(sol.stop, d(2));
    check_line(&mut s, &c, Player::Left, &sol.line);
    // * + * is 0 already, but the line settles both stars.
    let sol = solve(&mut s, &[star, star], Player::Left, BIG).unwrap();
    assert_eq!(sol.stop, d(0));
    assert_eq!(sol.line.moves.len(), 2);
}

#[test]
fn go_board_matches_plain_search_on_a_part() {
    let mut s = Store::new();
    let c = go_board(&mut s);
    assert_eq!(c.len(), 20);
    // A 9-region part is within reach of the plain minimax.
    let part: Vec<GameId> = [0, 1, 5, 7, 8, 10, 11, 15, 16]
        .iter()
        .map(|&i| c[i])
        .collect();
    for p in [Player::Left, Player::Right] {
        let sol = solve(&mut s, &part, p, BIG).unwrap();
        assert_eq!(sol.stop, brute_stop(&mut s, &part, p));
        check_line(&mut s, &part, p, &sol.line);
    }
    let sol = solve(&mut s, &c, Player::Left, BIG).unwrap();
    check_line(&mut s, &c, Player::Left, &sol.line);
    assert_eq!(sol.line.result, sol.stop);
}

/// A deterministic pseudo-random Go-like board of `n` regions.
pub(super) fn random_board(s: &mut Store, seed: u64, n: usize) -> Vec<GameId> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |m: i64| -> i64 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % (m as u64)) as i64
    };
    let mut c = Vec::new();
    for _ in 0..n {
        let z = next(13) - 6;
        let p = next(6) + 1;
        let q = next(6) + 1;
        let game = match next(8) {
            0 | 1 => sw(s, z + p, z),
            2 | 3 => three_stop(s, z + p + q, z + p, z),
            4 => {
                // {x | {y | z}} with a big follow-up.
                let inner = sw(s, z, z - 5 * q);
                let xx = num(s, z + p);
                g(s, &[xx], &[inner])
            }
            5 => {
                let l = sw(s, z + p + q, z + p);
                let r = sw(s, z - q, z - q - p);
                g(s, &[l], &[r])
            }
            6 => {
                let k = num(s, p);
                s.tiny(k).unwrap()
            }
            _ => {
                // {a | b || c}
                let l = sw(s, z + p + q, z + q);
                let r = num(s, z - p);
                g(s, &[l], &[r])
            }
        };
        c.push(game);
    }
    c
}

#[test]
fn random_boards_match_plain_search() {
    for seed in 0..6 {
        let mut s = Store::new();
        let c = random_board(&mut s, seed, 9);
        for p in [Player::Left, Player::Right] {
            let sol = solve(&mut s, &c, p, BIG).unwrap();
            let expect = brute_stop(&mut s, &c, p);
            assert_eq!(sol.stop, expect, "seed {seed}, {p}");
            check_line(&mut s, &c, p, &sol.line);
        }
    }
}

// ----- budget and interrupt -----------------------------------------------------

#[test]
fn tiny_budget_is_reported() {
    let mut s = Store::new();
    let c = go_board(&mut s);
    match solve(&mut s, &c, Player::Left, 10) {
        Err(PlayError::Budget { nodes, limit }) => {
            assert_eq!(limit, 10);
            assert!(nodes > 10);
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
}

#[test]
fn interrupt_flag_stops_the_search() {
    let mut s = Store::new();
    // About 12 000 nodes: well past the store's polling interval.
    let c = random_board(&mut s, 2, 30);
    let flag = Arc::new(AtomicBool::new(true));
    s.set_interrupt_flag(flag);
    assert_eq!(
        solve(&mut s, &c, Player::Left, BIG).unwrap_err(),
        PlayError::Interrupted
    );
}

// ----- strategies ------------------------------------------------------------------

#[test]
fn sentestrat_answers_a_threat() {
    let mut s = Store::new();
    let (gg, h) = seed_p(&mut s);
    let y = s.right_options(gg)[0];
    // White has just played G to Y = {0 | -100}: T(Y) = 50 > ambient 10.
    let pos = [y, h];
    let ctx = SenteContext {
        last: Some(0),
        ambient: Some(q(10)),
    };
    let mv = sentestrat_after(&mut s, &pos, Player::Left, &ctx)
        .unwrap()
        .unwrap();
    assert_eq!(mv.component, 0);
    assert_eq!(mv.to, s.zero());
    // Without a threat it is Hotstrat.
    assert_eq!(
        sentestrat(&mut s, &[gg, h], Player::Left).unwrap(),
        hotstrat(&mut s, &[gg, h], Player::Left).unwrap()
    );
    // Play-outs end at numbers with every strategy pair.
    let c = go_board(&mut s);
    let all = [
        Strat::Optimal,
        Strat::Hotstrat,
        Strat::Sentestrat,
        Strat::Thermostrat,
    ];
    let best = solve(&mut s, &c, Player::Left, BIG).unwrap().stop;
    for b in all {
        let line = play_out(&mut s, &c, Player::Left, b, Strat::Optimal).unwrap();
        check_line(&mut s, &c, Player::Left, &line);
        assert!(line.result <= best, "{b:?} beat optimal play");
        let line = play_out(&mut s, &c, Player::Left, Strat::Optimal, b).unwrap();
        assert!(line.result >= best, "{b:?} beat optimal play");
    }
}

#[test]
fn strategies_on_switches_are_optimal() {
    let mut s = Store::new();
    let c: Vec<GameId> = (1..=12).map(|k| sw(&mut s, 2 * k, -k)).collect();
    let best = solve(&mut s, &c, Player::Left, BIG).unwrap().stop;
    for b in [Strat::Hotstrat, Strat::Sentestrat, Strat::Thermostrat] {
        let line = play_out(&mut s, &c, Player::Left, b, b).unwrap();
        assert_eq!(line.result, best, "{b:?}");
    }
}

// ----- property tests ------------------------------------------------------------

fn tree(depth: u32) -> BoxedStrategy<Tree> {
    let halves = (-8i64..=8).boxed();
    trees(
        depth,
        number_or_nus(halves, (-4..=4, -2..=2, 0..3)),
        3,
        1..3,
    )
}

/// Go-like pieces: switches, three-stop games, tinies/minies, games with hot
/// follow-ups, number-up-star values.
#[derive(Clone, Debug)]
enum Piece {
    Switch(i64, i64),
    ThreeStop(i64, i64, i64),
    Tiny(i64),
    Miny(i64),
    FollowUp(i64, i64, i64),
    Nus(i64, i64, u64),
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (-6i64..=6, 1i64..=8).prop_map(|(b, s)| Piece::Switch(b + s, b)),
        2 => (-6i64..=6, 1i64..=5, 1i64..=5).prop_map(|(z, p, q)| Piece::ThreeStop(z + p + q, z + p, z)),
        1 => (1i64..=4).prop_map(Piece::Tiny),
        1 => (1i64..=4).prop_map(Piece::Miny),
        2 => (-4i64..=8, -4i64..=4, 1i64..=20).prop_map(|(x, y, s)| Piece::FollowUp(x, y, y - s)),
        1 => (-4i64..=4, -2i64..=2, 0u64..2).prop_map(|(x, k, n)| Piece::Nus(x, k, n)),
    ]
}

fn build_piece(s: &mut Store, p: &Piece) -> GameId {
    match *p {
        Piece::Switch(a, b) => sw(s, a, b),
        Piece::ThreeStop(x, y, z) => three_stop(s, x, y, z),
        Piece::Tiny(x) => {
            let x = num(s, x);
            s.tiny(x).unwrap()
        }
        Piece::Miny(x) => {
            let x = num(s, x);
            s.miny(x).unwrap()
        }
        // {x | {y | z}} with no order between x and y: sente, gote, reverse sente.
        Piece::FollowUp(x, y, z) => {
            let inner = sw(s, y, z);
            let x = num(s, x);
            g(s, &[x], &[inner])
        }
        Piece::Nus(x, k, n) => s.nus(Nus {
            number: Dyadic::new(x.into(), 1),
            ups: k,
            nim: n,
        }),
    }
}

fn any_player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::Left), Just(Player::Right)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// solve == the stops of the canonical sum, on small random sums.
    #[test]
    fn solve_matches_canonical_sum(ts in prop::collection::vec(tree(3), 2..=4), p in any_player()) {
        let mut s = Store::new();
        let c: Vec<GameId> = ts.iter().map(|t| build(&mut s, t)).collect();
        let sum = s.sum(&c).unwrap();
        let expect = match p {
            Player::Left => s.left_stop(sum).unwrap(),
            Player::Right => s.right_stop(sum).unwrap(),
        };
        let sol = solve(&mut s, &c, p, BIG).unwrap();
        prop_assert_eq!(&sol.stop, &expect);
        prop_assert_eq!(&sol.line.result, &expect);
        check_line(&mut s, &c, p, &sol.line);
        prop_assert_eq!(sol.stop, brute_stop(&mut s, &c, p));
    }

    /// Seed 002 Lemma 4.1: the swing-sorted closed form equals plain search.
    #[test]
    fn switch_sums_match_plain_search(
        sws in prop::collection::vec((-10i64..=10, 1i64..=12), 1..=8),
        p in any_player(),
    ) {
        let mut s = Store::new();
        let c: Vec<GameId> = sws.iter().map(|&(b, w)| sw(&mut s, b + w, b)).collect();
        let mut sorted: Vec<(i64, i64)> = sws.iter().map(|&(b, w)| (b + w, b)).collect();
        sorted.sort_by_key(|&(a, b)| -(a - b));
        let formula: i64 = sorted
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| if (k % 2 == 0) == p.is_left() { a } else { b })
            .sum();
        let sol = solve(&mut s, &c, p, BIG).unwrap();
        prop_assert_eq!(&sol.stop, &d(formula));
        prop_assert_eq!(sol.stop, brute_stop(&mut s, &c, p));
        // Corollary 4.3 / must-play against plain search.
        for j in 0..c.len() {
            let v = must_play(&mut s, &c, j, p, BIG).unwrap();
            let mut child = c.clone();
            child[j] = match p {
                Player::Left => s.left_options(c[j])[0],
                Player::Right => s.right_options(c[j])[0],
            };
            prop_assert_eq!(v, brute_stop(&mut s, &child, p.opponent()));
        }
    }

    /// Seed 002 Theorem 5.1: with distinct swings, Left's must-play values in
    /// swing order are `V_1 > V_2 = V_3 > V_4 = V_5 > …`.
    #[test]
    fn must_play_ties_of_theorem_5_1(
        sws in prop::collection::btree_map(1i64..=30, -8i64..=8, 3..=8),
    ) {
        let mut s = Store::new();
        // Distinct swings w (keys), bottom stops b: {b + w | b}, largest swing first.
        let list: Vec<(i64, i64)> = sws.iter().rev().map(|(&w, &b)| (w, b)).collect();
        let c: Vec<GameId> = list.iter().map(|&(w, b)| sw(&mut s, b + w, b)).collect();
        let v: Vec<Dyadic> = (0..c.len()).map(|j| must_play(&mut s, &c, j, Player::Left, BIG).unwrap()).collect();
        prop_assert!(v[0] > v[1]);
        let mut k = 1;
        while k + 1 < v.len() {
            prop_assert_eq!(&v[k], &v[k + 1]);
            if k + 2 < v.len() {
                prop_assert!(v[k + 1] > v[k + 2]);
            }
            k += 2;
        }
        prop_assert_eq!(&v[0], &solve(&mut s, &c, Player::Left, BIG).unwrap().stop);
    }

    /// Mixed Go-like sums of 3-7 regions: stop, line and every optimal first
    /// move against plain search.
    #[test]
    fn mixed_sums_match_plain_search(ps in prop::collection::vec(piece(), 3..=7), p in any_player()) {
        let mut s = Store::new();
        let c: Vec<GameId> = ps.iter().map(|x| build_piece(&mut s, x)).collect();
        let sol = solve(&mut s, &c, p, BIG).unwrap();
        let expect = brute_stop(&mut s, &c, p);
        prop_assert_eq!(&sol.stop, &expect);
        check_line(&mut s, &c, p, &sol.line);
        // Every move of the line is optimal for its player.
        let mut pos = c.clone();
        let mut q = p;
        for m in &sol.line.moves {
            pos[m.component] = m.to;
            q = q.opponent();
            prop_assert_eq!(brute_stop(&mut s, &pos, q), expect.clone());
        }
        // best_moves is exactly the set of optimal first moves.
        let best = best_moves(&mut s, &c, p, BIG).unwrap();
        let mut expected = Vec::new();
        for (i, &x) in c.iter().enumerate() {
            if s.is_number(x) {
                continue;
            }
            let (l, r) = s.options(x);
            for &o in (if p.is_left() { l } else { r }).iter() {
                let mut child = c.clone();
                child[i] = o;
                if brute_stop(&mut s, &child, p.opponent()) == expect {
                    expected.push(Move { player: p, component: i, to: o });
                }
            }
        }
        prop_assert_eq!(best, expected);
    }

    /// Strategies never beat optimal play, and always end at numbers.
    #[test]
    fn strategies_are_bounded_by_optimal_play(ps in prop::collection::vec(piece(), 2..=6)) {
        let mut s = Store::new();
        let c: Vec<GameId> = ps.iter().map(|x| build_piece(&mut s, x)).collect();
        let best = solve(&mut s, &c, Player::Left, BIG).unwrap().stop;
        for b in [Strat::Hotstrat, Strat::Sentestrat, Strat::Thermostrat] {
            let line = play_out(&mut s, &c, Player::Left, b, Strat::Optimal).unwrap();
            check_line(&mut s, &c, Player::Left, &line);
            prop_assert!(line.result <= best);
        }
    }
}
