//! Tests of the paper's rule against the paper's own figures (§3.1, §3.2)
//! and against a brute-force oracle of the abstract game of the module docs.
//!
//! The oracle is a test-only minimax over [`State::moves`] (memoised). Its
//! one rule the module docs leave to the solver: a player passes only when
//! he has no other legal move (every move of the model is worth something to
//! its mover, so passing is never better; this also keeps the ko from being
//! left unfilled). Two passes in a row end play. Play is finite: a capture
//! needs a move elsewhere before the recapture, and every move elsewhere
//! uses up a threat, a pending threat or a gote move.

use super::*;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use proptest::prelude::*;
use std::collections::HashMap;

fn big(v: &[i64]) -> Vec<BigInt> {
    v.iter().map(|&x| BigInt::from(x)).collect()
}

fn pos(k: i64, b: &[i64], w: &[i64], x: &[i64]) -> KoFight {
    KoFight::new(BigInt::from(k), big(b), big(w), big(x))
}

/// The oracle: minimax over [`State::moves`]; a player passes only when he
/// has no legal move, and two passes in a row end play.
struct Oracle {
    memo: HashMap<(State, bool), BigInt>,
}

impl Oracle {
    fn new() -> Oracle {
        Oracle {
            memo: HashMap::new(),
        }
    }

    /// The score still to come from `s` (`passed`: the last move was a pass).
    fn value(&mut self, s: &State, passed: bool) -> BigInt {
        let key = (s.clone(), passed);
        if let Some(v) = self.memo.get(&key) {
            return v.clone();
        }
        let ms = s.moves();
        let v = if ms.is_empty() {
            if passed {
                BigInt::zero()
            } else {
                let mut t = s.clone();
                t.to_move = s.to_move.opponent();
                t.banned = false;
                self.value(&t, true)
            }
        } else {
            let vals = ms.iter().map(|(_, d, t)| d + self.value(t, false));
            let best = if s.to_move == Side::Left {
                vals.max()
            } else {
                vals.min()
            };
            best.unwrap_or_default()
        };
        self.memo.insert(key, v.clone());
        v
    }
}

/// The exact final score after each Black move (the pass only when it is
/// his one move), best first.
fn exact(p: &KoFight, last: &Last) -> (i64, Vec<(Move, i64)>) {
    let s = State::start(p, last);
    let fixed = s.fixed();
    let mut o = Oracle::new();
    let ms = s.moves();
    let small = |v: BigInt| i64::try_from(v).unwrap();
    let mut out: Vec<(Move, i64)> = if ms.is_empty() {
        let mut t = s.clone();
        t.to_move = Side::Right;
        t.banned = false;
        vec![(Move::Pass, small(&fixed + o.value(&t, true)))]
    } else {
        ms.iter()
            .map(|(m, d, t)| (m.clone(), small(&fixed + d + o.value(t, false))))
            .collect()
    };
    out.sort_by(|a, b| b.1.cmp(&a.1));
    (out[0].1, out)
}

/// One line: the paper's advice, its claim, the exact value of the advised
/// move, the exact optimum and the optimal moves.
fn report(k: i64, b: &[i64], w: &[i64], x: &[i64], last: Last) -> String {
    let p = pos(k, b, w, x);
    let a = advice(&p, &last).unwrap();
    let (best, all) = exact(&p, &last);
    let advised = all
        .iter()
        .find(|(m, _)| *m == a.mv)
        .map(|(_, v)| *v)
        .expect("the advised move is legal");
    let optimal: Vec<String> = all
        .iter()
        .filter(|(_, v)| *v == best)
        .map(|(m, _)| m.to_string())
        .collect();
    let dist = match &a.distribution {
        Some(d) => format!(
            " dist {} (BKTVL {}, WKTVL {}, m {}, n {}{})",
            d.number,
            d.bktvl,
            d.wktvl,
            d.m,
            d.n,
            d.step
                .as_ref()
                .map(|i| format!(", i {i}"))
                .unwrap_or_default()
        ),
        None => String::new(),
    };
    let claim = match a.claim.profit() {
        Some(pr) => format!(
            "{} {pr} ({})",
            a.claim.kind(),
            if a.claim
                .holds_for(&BigRational::from_integer(BigInt::from(advised)))
            {
                "holds"
            } else {
                "FAILS"
            }
        ),
        None => "none".into(),
    };
    format!(
        "case {}{dist}: paper {} → {advised}, claim {claim}; exact {best} by {}{}",
        a.case,
        a.mv,
        optimal.join(", "),
        if advised == best {
            ""
        } else {
            "  ← NOT OPTIMAL"
        }
    )
}

#[test]
fn sums_follow_the_paper() {
    // x = (9, 7, 5, 3, 2): X_even = x2 + x4 = 10, X_odd = x3 + x5 = 7.
    let s = pos(12, &[], &[], &[5, 9, 2, 7, 3]).sums();
    assert_eq!(
        (s.x1, s.x2, s.x_even, s.x_odd, s.q, s.p),
        (
            BigInt::from(9),
            BigInt::from(7),
            BigInt::from(10),
            BigInt::from(7),
            BigInt::from(9),
            BigInt::from(0)
        )
    );
}

/// §3.2: with BKTVL = WKTVL = 45, B = (25, 30, 40, 60) and
/// W = (42, 45, 50, 55, 80) differ by 3 fitting threats ("≥ 45" counts
/// White's 45); after the exchanges 25/42, 30/45, 40/50 the lists
/// (60) and (55, 80) differ by 1 — "from 3 to 1", as the paper says.
#[test]
fn exchange_example_counts() {
    let count = |b: &[i64], w: &[i64]| {
        let p = pos(1, b, w, &[]);
        let d = p.distribution_with(
            Fitting::AtLeast,
            0,
            BigInt::from(45),
            BigInt::from(45),
            None,
        );
        d.n as i64 - d.m as i64
    };
    assert_eq!(count(&[25, 30, 40, 60], &[42, 45, 50, 55, 80]), 3);
    assert_eq!(count(&[60], &[55, 80]), 1);
}

#[test]
fn distribution_bounds_follow_the_paper() {
    // k = 10, x = (6, 4, 2): Q = 8, P = 2.
    let p = pos(10, &[16, 30], &[13], &[6, 4, 2]);
    let d = p.distribution();
    assert_eq!(
        (d.number, d.bktvl.clone(), d.wktvl.clone()),
        (1, 16.into(), 13.into())
    );
    assert_eq!((d.m, d.n, d.b1.clone()), (2, 1, Some(16.into())));
    // One Black threat just below 2Q: distribution 2 at i = 1.
    let p = pos(10, &[15], &[], &[6, 4, 2]);
    let d = p.distribution();
    assert_eq!(
        (d.number, d.step.clone(), d.b1.clone()),
        (2, Some(1.into()), Some(15.into()))
    );
    // A White threat of 14 ≥ 2x1 + 1 + 1 stops being fitting at i = 2.
    let p = pos(10, &[15], &[14], &[6, 4, 2]);
    let d = p.distribution();
    assert_eq!(
        (d.number, d.step.clone(), d.m, d.n),
        (2, Some(2.into()), 1, 0)
    );
    // Too few Black threats: distribution 3 with the bounds Q + x1, Q + x1 + 1.
    let p = pos(10, &[9, 20], &[20, 30], &[6, 4, 2]);
    let d = p.distribution();
    assert_eq!(
        (
            d.number,
            d.bktvl.clone(),
            d.wktvl.clone(),
            d.b1.clone(),
            d.bu.clone()
        ),
        (3, 14.into(), 15.into(), Some(20.into()), Some(9.into()))
    );
}

#[test]
fn bad_input_is_an_error() {
    let e = advice(&pos(0, &[], &[], &[]), &Last::TookKo).unwrap_err();
    assert_eq!(e.to_string(), "the ko value k must be positive, found 0");
    let e = advice(&pos(3, &[], &[2], &[-1]), &Last::TookKo).unwrap_err();
    assert_eq!(e.to_string(), "a valuable move must be positive, found -1");
    let e = advice(&pos(3, &[], &[], &[]), &Last::Threat(BigInt::from(0))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the pending ko threat must be positive, found 0"
    );
}

#[test]
fn oracle_knows_the_simple_lines() {
    // No threats, no moves: Black to retake after White's capture cannot,
    // passes, White connects.
    assert_eq!(exact(&pos(5, &[], &[], &[]), &Last::TookKo).0, -5);
    // Black may retake and White has nothing: Black wins the ko.
    assert_eq!(exact(&pos(5, &[], &[], &[]), &Last::AnsweredThreat).0, 5);
    // Only gote moves: Black takes the biggest, alternately.
    assert_eq!(
        exact(&pos(5, &[], &[], &[4, 3, 1]), &Last::FollowedUp).0,
        5 + 4 - 3 + 1
    );
}

/// One position of the paper's game: `k`, Black's and White's threats, the
/// gote moves, and White's last move.
type Case = (i64, &'static [i64], &'static [i64], &'static [i64], Last);

/// Every case and distribution of §3.1 on concrete numbers, with the
/// boundary conditions the paper's formulas turn on.
fn paper_positions() -> Vec<Case> {
    let t = |v: i64| BigInt::from(v);
    let connected = |pending: Option<i64>| Last::ConnectedKo {
        pending: pending.map(t),
    };
    vec![
        // Case 1, distribution 1: k = 10, x = (6, 4, 2), Q = 8, P = 2.
        (10, &[16, 30], &[13], &[6, 4, 2], Last::TookKo),
        // Case 1, distribution 2.
        (10, &[15], &[14], &[6, 4, 2], Last::TookKo),
        // Case 1, distribution 3, with a fitting threat to exchange.
        (10, &[9, 20], &[20, 30], &[6, 4, 2], Last::TookKo),
        // Case 1, distribution 3, no fitting threat: x1 or bu.
        (10, &[13], &[20], &[6, 4, 2], Last::TookKo),
        (10, &[9], &[20], &[6, 4, 2], Last::TookKo),
        // Case 1, the fitting condition fails: k = 3 < x1.
        (3, &[20], &[], &[6, 4, 2], Last::TookKo),
        // Case 2.
        (10, &[16], &[13, 14], &[6, 4, 2], Last::AnsweredThreat),
        // Case 3, with and without a pending Black threat.
        (10, &[], &[], &[6, 4, 2], connected(Some(20))),
        (10, &[], &[], &[6, 4, 2], connected(Some(5))),
        (10, &[], &[], &[6, 4, 2], connected(None)),
        // Case 4, distributions 1, 2 and 3, big and small threats.
        (10, &[16, 30], &[13], &[6, 4, 2], Last::Threat(t(20))),
        (10, &[16, 30], &[13], &[6, 4, 2], Last::Threat(t(9))),
        (10, &[15], &[14], &[6, 4, 2], Last::Threat(t(20))),
        (10, &[15], &[14], &[6, 4, 2], Last::Threat(t(9))),
        (10, &[9, 20], &[20, 30], &[6, 4, 2], Last::Threat(t(25))),
        (10, &[9, 20], &[20, 30], &[6, 4, 2], Last::Threat(t(12))),
        // Cases 5, 6, 7.
        (10, &[], &[12], &[4, 2], Last::Gote),
        (2, &[], &[], &[10, 9], Last::Gote),
        (10, &[], &[], &[6, 4, 2], Last::FollowedUp),
        (10, &[], &[12], &[6, 4, 2], Last::Other),
        (2, &[20, 20], &[], &[10, 9], Last::Other),
    ]
}

#[test]
fn paper_against_the_truth() {
    let lines: Vec<String> = paper_positions()
        .into_iter()
        .map(|(k, b, w, x, last)| report(k, b, w, x, last))
        .collect();
    expect_test::expect![[r#"
        case 1 dist 1 (BKTVL 16, WKTVL 13, m 2, n 1): paper threat 16 → 2, claim at least 2 (holds); exact 2 by threat 16, threat 30
        case 1 dist 2 (BKTVL 14, WKTVL 15, m 1, n 0, i 2): paper threat 15 → 0, claim at least 0 (holds); exact 0 by threat 15
        case 1 dist 3 (BKTVL 14, WKTVL 15, m 1, n 2): paper threat 20 → -2, claim expected -2 (holds); exact -2 by threat 20, gote 6
        case 1 dist 3 (BKTVL 14, WKTVL 15, m 0, n 1): paper threat 13 → -2, claim expected -1 (FAILS); exact -2 by threat 13, gote 4, gote 6
        case 1 dist 3 (BKTVL 14, WKTVL 15, m 0, n 1): paper gote 6 → -2, claim expected -2 (holds); exact -2 by gote 6
        case 1 dist 1 (BKTVL 2, WKTVL 13, m 1, n 0): paper gote 6 → 3, claim expected 5 (FAILS); exact 3 by threat 20, gote 6
        case 2: paper retake → 1, claim none; exact 1 by retake
        case 3: paper follow up 20 → 6, claim none; exact 6 by follow up 20
        case 3: paper follow up 5 → -9, claim none; exact -5 by gote 6  ← NOT OPTIMAL
        case 3: paper gote 6 → -6, claim none; exact -6 by gote 6
        case 4 dist 1 (BKTVL 16, WKTVL 13, m 2, n 1): paper answer → 2, claim at least 0 (holds); exact 2 by answer
        case 4 dist 1 (BKTVL 16, WKTVL 13, m 2, n 1): paper connect → 2, claim at least 0 (holds); exact 5 by gote 6  ← NOT OPTIMAL
        case 4 dist 2 (BKTVL 14, WKTVL 15, m 1, n 0, i 2): paper answer → 0, claim less than 0 (FAILS); exact 0 by answer
        case 4 dist 2 (BKTVL 14, WKTVL 15, m 1, n 0, i 2): paper connect → 2, claim less than 0 (FAILS); exact 2 by connect, threat 15
        case 4 dist 3 (BKTVL 14, WKTVL 15, m 1, n 2): paper answer → -2, claim expected -2 (holds); exact -2 by answer
        case 4 dist 3 (BKTVL 14, WKTVL 15, m 1, n 2): paper connect → 2, claim expected 2 (holds); exact 2 by connect, threat 20
        case 5: paper connect → 8, claim none; exact 8 by connect
        case 5: paper connect → 1, claim none; exact 3 by gote 10  ← NOT OPTIMAL
        case 6: paper gote 6 → 14, claim none; exact 14 by gote 6
        case 7: paper connect → 6, claim none; exact 6 by connect
        case 7: paper connect → 1, claim none; exact 3 by threat 20, gote 10  ← NOT OPTIMAL"#]].assert_eq(&lines.join("\n"));
}

/// The exact solver (through [`super::exact`]) and the oracle agree on every
/// first move of every position of `paper_against_the_truth`, and on the
/// optimum; also on a bare ko with nothing else to play.
#[test]
fn solver_agrees_with_oracle() {
    let mut cases = paper_positions();
    cases.push((5, &[], &[], &[], Last::TookKo));
    let mut store = Store::new();
    let opts = crate::ko::solve::KoSolveOptions::default();
    for (k, b, w, x, last) in cases {
        let p = pos(k, b, w, x);
        let (best, all) = exact(&p, &last);
        let ex = super::exact::exact(&mut store, &p, &last, &opts).unwrap();
        let q = |v: i64| BigRational::from_integer(BigInt::from(v));
        assert_eq!(ex.optimum, q(best), "optimum of {p:?} after {last:?}");
        for (m, v) in &all {
            assert_eq!(ex.value_of(m), Some(&q(*v)), "{m} in {p:?} after {last:?}");
        }
    }
}

fn arb_last() -> impl Strategy<Value = Last> {
    prop_oneof![
        Just(Last::TookKo),
        Just(Last::AnsweredThreat),
        Just(Last::ConnectedKo { pending: None }),
        (1i64..30).prop_map(|t| Last::ConnectedKo {
            pending: Some(BigInt::from(t))
        }),
        (1i64..30).prop_map(|t| Last::Threat(BigInt::from(t))),
        Just(Last::Gote),
        Just(Last::FollowedUp),
        Just(Last::Other),
    ]
}

fn arb_pos() -> impl Strategy<Value = KoFight> {
    (
        1i64..16,
        proptest::collection::vec(1i64..40, 0..3),
        proptest::collection::vec(1i64..40, 0..3),
        proptest::collection::vec(1i64..12, 0..4),
    )
        .prop_map(|(k, b, w, x)| pos(k, &b, &w, &x))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The paper's distributions are exhaustive: when 1 and 2 fail, the
    /// bounds of 3 give `m ≤ n` (they are those of 2's last step), and the
    /// advised move is always legal (a pass always is).
    #[test]
    fn advice_is_total_and_legal(p in arb_pos(), last in arb_last()) {
        let d = p.distribution();
        if d.number == 3 {
            prop_assert!(d.m <= d.n);
        } else {
            prop_assert!(d.m > d.n);
        }
        let a = advice(&p, &last).unwrap();
        let s = State::start(&p, &last);
        let legal: Vec<Move> = s.moves().into_iter().map(|(m, _, _)| m).collect();
        prop_assert!(
            a.mv == Move::Pass || legal.contains(&a.mv),
            "{} not legal in {:?}", a.mv, s
        );
    }
}

/// Every first move of `p` after `last`: the grid's minimax against the ko
/// solver ([`super::exact::exact`]), same moves, same scores.
fn grid_matches_solver(store: &mut Store, p: &KoFight, last: &Last) -> Result<(), String> {
    let opts = crate::ko::solve::KoSolveOptions::default();
    let ex = super::exact::exact(store, p, last, &opts).unwrap();
    let k = p.k.to_u8().unwrap();
    let mut fast = grid::FastGame::new(k);
    let mine = fast.first_move_values(p, last);
    let sixth = |v: i64| BigRational::new(BigInt::from(v), BigInt::from(6));
    if mine.len() != ex.moves.len() {
        return Err(format!(
            "{p:?} after {last:?}: moves {mine:?} against {:?}",
            ex.moves
        ));
    }
    for (m, v) in &mine {
        if ex.value_of(m) != Some(&sixth(*v)) {
            return Err(format!(
                "{p:?} after {last:?}: {m} scores {} in the grid, {:?} by the solver",
                sixth(*v),
                ex.value_of(m)
            ));
        }
    }
    Ok(())
}

fn every_last(t_max: i64) -> Vec<Last> {
    let mut lasts = vec![
        Last::TookKo,
        Last::AnsweredThreat,
        Last::ConnectedKo { pending: None },
        Last::Gote,
        Last::FollowedUp,
        Last::Other,
    ];
    for t in 1..=t_max {
        lasts.push(Last::ConnectedKo {
            pending: Some(BigInt::from(t)),
        });
        lasts.push(Last::Threat(BigInt::from(t)));
    }
    lasts
}

/// The grid's minimax is the ko solver's game: every first move of every
/// position of a small exhaustive grid (k ≤ 3, at most one threat a side
/// valued ≤ 3, at most two moves valued ≤ 2, every case) scores the same.
#[test]
fn grid_minimax_agrees_with_solver_exhaustively() {
    let mut store = Store::new();
    let threats = grid::multisets(1, 3);
    let moves = grid::multisets(2, 2);
    let mut n = 0;
    for k in 1..=3u8 {
        for b in &threats {
            for w in &threats {
                for x in &moves {
                    let p = KoFight::new(BigInt::from(k), grid_big(b), grid_big(w), grid_big(x));
                    for last in every_last(3) {
                        grid_matches_solver(&mut store, &p, &last).unwrap();
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 3 * 4 * 4 * 6 * 12);
}

fn grid_big(v: &[u8]) -> Vec<BigInt> {
    v.iter().map(|&x| BigInt::from(x)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// … and on larger random positions (three threats a side, three moves).
    #[test]
    fn grid_minimax_agrees_with_solver(
        k in 1u8..13,
        b in proptest::collection::vec(1u8..31, 0..4),
        w in proptest::collection::vec(1u8..31, 0..4),
        x in proptest::collection::vec(1u8..13, 0..4),
        last in arb_last(),
    ) {
        let p = KoFight::new(BigInt::from(k), grid_big(&b), grid_big(&w), grid_big(&x));
        let mut store = Store::new();
        prop_assert_eq!(grid_matches_solver(&mut store, &p, &last), Ok(()));
    }
}
