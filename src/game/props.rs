//! Property tests of thermographs, the cooling family, incentives, atomic
//! weight and reduced canonical form on random canonical games.

use super::{Dyadic, GameId, Nus, Store};
use num_rational::BigRational;
use proptest::prelude::*;
use std::collections::HashMap;

use super::testkit::{build, number_or_nus, trees, Tree};

/// Trees with empty leaves only (birthday ≤ depth), like tests/algebra.rs.
fn plain(depth: u32) -> BoxedStrategy<Tree> {
    let empty = Just(Tree::Node(vec![], vec![])).boxed();
    trees(depth, empty, 4, 0..3)
}

/// Trees with integer and number-up-star leaves: Go-like values, hot and cold.
fn rich(depth: u32) -> BoxedStrategy<Tree> {
    let integers = (-6i64..=6).prop_map(|x| 2 * x).boxed();
    trees(
        depth,
        number_or_nus(integers, (-4..=4, -2..=2, 0..3)),
        4,
        1..3,
    )
}

/// Trees built to be even (`odd = false`) or odd elementary games in
/// Berlekamp's sense: integer leaves of the right parity, `m*` leaves, and
/// nodes whose options all have the opposite parity. (Canonical form may still
/// change the parity; the tests filter with `is_even`.)
fn parity_tree(odd: bool, depth: u32) -> BoxedStrategy<Tree> {
    let p = odd as i64;
    // m* = {m|m} has the parity opposite to m's.
    let leaf = prop_oneof![
        3 => (-4i64..=4).prop_map(move |x| Tree::Leaf(2 * (2 * x + p), 0, 0)),
        1 => (-4i64..=4).prop_map(move |x| Tree::Leaf(2 * (2 * x + 1 - p), 0, 1)),
    ]
    .boxed();
    if depth == 0 {
        return leaf;
    }
    let side = prop::collection::vec(parity_tree(!odd, depth - 1), 1..3);
    prop_oneof![1 => leaf, 4 => (side.clone(), side).prop_map(|(l, r)| Tree::Node(l, r))].boxed()
}

/// All-small trees: leaves `k·↑ + *n`, every node has options on both sides.
fn small(depth: u32) -> BoxedStrategy<Tree> {
    let leaf = (-2i64..=2, 0u64..3)
        .prop_map(|(k, n)| Tree::Leaf(0, k, n))
        .boxed();
    trees(depth, leaf, 3, 1..3)
}

/// Trees whose values are often infinitesimal but not all-small: leaves
/// `k·↑ + *n` and the integers -2..2 (which give tinies, minies and their
/// relatives in nests like `{0 | {0 | -1}}`).
fn near_zero(depth: u32) -> BoxedStrategy<Tree> {
    let leaf = prop_oneof![
        2 => (-2i64..=2, 0u64..4).prop_map(|(k, n)| Tree::Leaf(0, k, n)),
        1 => (-2i64..=2).prop_map(|x| Tree::Leaf(2 * x, 0, 0)),
    ]
    .boxed();
    trees(depth, leaf, 3, 1..3)
}

fn any_game() -> BoxedStrategy<Tree> {
    prop_oneof![plain(3), rich(3)].boxed()
}

fn q(x: &Dyadic) -> BigRational {
    x.to_rational()
}

fn temperatures() -> Vec<Dyadic> {
    (0..=8).map(|k| Dyadic::new(k.into(), 2)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mean_is_additive_and_temperature_subadditive(a in any_game(), b in any_game()) {
        let mut s = Store::new();
        let (g, h) = (build(&mut s, &a), build(&mut s, &b));
        let sum = s.add(g, h).unwrap();
        let (mg, mh, ms) = (s.mean(g).unwrap(), s.mean(h).unwrap(), s.mean(sum).unwrap());
        prop_assert_eq!(ms, mg.add(&mh));
        let (tg, th, ts) = (s.temperature(g).unwrap(), s.temperature(h).unwrap(), s.temperature(sum).unwrap());
        prop_assert!(ts <= tg.clone().max(th));
    }

    #[test]
    fn walls_are_the_stops_of_the_cooled_game(a in any_game()) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let th = s.thermograph(g).unwrap();
        if !s.is_number(g) {
            prop_assert!(th.temperature() >= &BigRational::from_integer(0.into()));
            let f = s.freeze(g).unwrap();
            prop_assert!(s.is_numberish(f).unwrap());
            prop_assert_eq!(q(&s.left_stop(f).unwrap()), th.mean().clone());
        }
        for t in temperatures() {
            let c = s.cool(g, &t).unwrap();
            prop_assert_eq!(q(&s.left_stop(c).unwrap()), th.left_at(&q(&t)));
            prop_assert_eq!(q(&s.right_stop(c).unwrap()), th.right_at(&q(&t)));
            // Walls never cross.
            prop_assert!(th.left_at(&q(&t)) >= th.right_at(&q(&t)));
        }
    }

    /// Subzero cooling (-1 < t < 0) against the temperature, which the
    /// thermograph computes on its own: below its temperature a game cooled
    /// by t is not a number plus an infinitesimal, above it is its mean
    /// (CGSuite's definition: the temperature is the least t > -1 at which
    /// the cooled game is numberish; a number m/2^k has -1/2^k).
    #[test]
    fn subzero_cooling_melts_below_the_temperature(a in any_game(), x in -8i64..=8, k in 0u32..4) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let n = s.number(Dyadic::new(x.into(), k));
        for g in [g, n] {
            let temp = s.temperature(g).unwrap();
            for j in 1..16i64 {
                let t = Dyadic::new((-j).into(), 4);
                let c = s.cool(g, &t).unwrap();
                if q(&t) < temp {
                    prop_assert!(!s.is_numberish(c).unwrap(), "t = {}", t);
                } else if q(&t) > temp {
                    let m = s.mean(g).unwrap();
                    prop_assert_eq!(c, s.number(m), "t = {}", t);
                }
            }
        }
    }

    /// Sums answer from their components: the mean and temperature of a sum
    /// of up to five games, computed from the parts, are those of its
    /// canonical form.
    #[test]
    fn sums_answer_from_components(parts in prop::collection::vec(prop_oneof![rich(2), plain(2)], 1..6)) {
        let mut s = Store::new();
        let ids: Vec<GameId> = parts.iter().map(|t| build(&mut s, t)).collect();
        let sum = s.sum(&ids).unwrap();
        prop_assert_eq!(s.sum_mean(&ids).unwrap(), s.mean(sum).unwrap());
        prop_assert_eq!(s.sum_temperature(&ids).unwrap(), s.temperature(sum).unwrap());
    }

    #[test]
    fn cooling_is_linear(a in rich(3), b in rich(2)) {
        let mut s = Store::new();
        let (g, h) = (build(&mut s, &a), build(&mut s, &b));
        let sum = s.add(g, h).unwrap();
        for t in temperatures() {
            let (cg, ch, cs) = (s.cool(g, &t).unwrap(), s.cool(h, &t).unwrap(), s.cool(sum, &t).unwrap());
            prop_assert_eq!(s.add(cg, ch).unwrap(), cs, "t = {}", t);
        }
    }

    #[test]
    fn chilling_inverts_warming(a in rich(3)) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let w = s.warm(g).unwrap();
        let back = s.chill(w).unwrap();
        let name = crate::render::format_game(&mut s, g, crate::render::Style::Ascii).unwrap();
        prop_assert_eq!(back, g, "{}", name);
    }

    #[test]
    fn warming_inverts_chilling_on_even_games(a in parity_tree(false, 4)) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        if s.is_even(g).unwrap() {
            let c = s.chill(g).unwrap();
            let back = s.warm(c).unwrap();
            let name = crate::render::format_game(&mut s, g, crate::render::Style::Ascii).unwrap();
            prop_assert_eq!(back, g, "{}", name);
        }
    }

    #[test]
    fn atomic_weight_is_additive_on_all_small_games(a in small(3), b in small(2)) {
        let mut s = Store::new();
        let (g, h) = (build(&mut s, &a), build(&mut s, &b));
        prop_assert!(s.is_all_small(g).unwrap());
        let sum = s.add(g, h).unwrap();
        let (wg, wh, ws) = (s.atomic_weight(g).unwrap(), s.atomic_weight(h).unwrap(), s.atomic_weight(sum).unwrap());
        prop_assert_eq!(s.add(wg, wh).unwrap(), ws);
        // The atomicity check (skipped for all-small games) accepts them.
        prop_assert!(s.passes_atomicity_check(g, wg).unwrap());
        prop_assert!(s.passes_atomicity_check(sum, ws).unwrap());
        // aw(G + k.↑) = aw(G) + k.
        let up3 = s.ups(3);
        let shifted = s.add(g, up3).unwrap();
        let w = s.atomic_weight(shifted).unwrap();
        let three = s.integer(3);
        prop_assert_eq!(w, s.add(wg, three).unwrap());
    }

    #[test]
    fn atomic_weight_ignores_tinies(a in small(3), x in 1i64..4, miny in any::<bool>()) {
        // G + ⧾_x is atomic with aw(G) (tinies are atomically negligible) but
        // not all-small, so this goes through the atomicity check.
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let xg = s.integer(x);
        let t = if miny { s.miny(xg).unwrap() } else { s.tiny(xg).unwrap() };
        let gt = s.add(g, t).unwrap();
        let w = s.atomic_weight(g).unwrap();
        // The atomicity criterion agrees that aw(G + ⧾_x) = aw(G) ...
        prop_assert!(s.passes_atomicity_check(gt, w).unwrap());
        // ... and the calculus never finds a different weight. (It may miss
        // this one: see atomic.rs, `calculus_can_miss_the_weight_of_non_all_small_games`.)
        match s.atomic_weight(gt) {
            Ok(v) => prop_assert_eq!(v, w),
            Err(e) => prop_assert_eq!(e, crate::game::AtomicWeightError::NotAtomic),
        }
    }

    #[test]
    fn reduced_canonical_form(a in any_game()) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let r = s.rcf(g).unwrap();
        prop_assert!(s.approx_equal(g, r).unwrap());
        prop_assert_eq!(s.rcf(r).unwrap(), r);
        prop_assert!(s.birthday(r).unwrap() <= s.birthday(g).unwrap());
        let one = s.integer(1);
        let epsilons = [s.ups(1), s.star(), s.tiny(one).unwrap(), s.up_nth(2).unwrap(), s.nus(Nus { number: Dyadic::zero(), ups: -1, nim: 1 })];
        for e in epsilons {
            let ge = s.add(g, e).unwrap();
            prop_assert_eq!(s.rcf(ge).unwrap(), r);
        }
    }

    #[test]
    fn incentives_are_the_maximal_ones(a in any_game()) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let mut all = s.left_incentives(g).unwrap();
        all.extend(s.right_incentives(g).unwrap());
        let kept = s.incentives(g).unwrap();
        for &k in kept.iter() {
            prop_assert!(all.contains(&k));
            for &j in kept.iter() {
                prop_assert!(j == k || !s.le(k, j).unwrap());
            }
        }
        for &i in &all {
            let mut covered = false;
            for &k in kept.iter() {
                covered |= s.le(i, k).unwrap();
            }
            prop_assert!(covered);
        }
    }

    #[test]
    fn norton_product_by_up(a in any_game(), b in plain(2)) {
        let mut s = Store::new();
        let (g, h) = (build(&mut s, &a), build(&mut s, &b));
        let up = s.ups(1);
        let (gu, hu) = (s.norton(g, up).unwrap(), s.norton(h, up).unwrap());
        let sum = s.add(g, h).unwrap();
        prop_assert_eq!(s.norton(sum, up).unwrap(), s.add(gu, hu).unwrap());
        prop_assert!(s.is_all_small(gu).unwrap());
        prop_assert_eq!(s.atomic_weight(gu).unwrap(), g);
    }
}

proptest! {
    // Most generated games are not infinitesimal and are skipped.
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    #[test]
    fn atomicity_check_agrees_with_the_generic_one(a in near_zero(4), shift in 0usize..5) {
        // The fast check (cheap tests + BandSearch) against the formal-sum
        // oracle, for the calculus's candidate (so atomic and non-atomic games)
        // and for wrong weights near it (so both refutations are exercised).
        // The candidate weight: the calculus's, shifted by one of five
        // numbers (built in each store, so the two checks share nothing).
        let candidate = |s: &mut Store, g: GameId| {
            let w = s.naive_atomic_weight(g).unwrap();
            let shifts = [(0, 0), (1, 0), (-1, 0), (1, 1), (-1, 2)];
            let (m, e) = shifts[shift];
            let delta = s.number(Dyadic::new(m.into(), e));
            s.add(w, delta).unwrap()
        };
        let mut s = Store::new();
        let g = build(&mut s, &a);
        prop_assume!(s.is_infinitesimal(g).unwrap());
        let cand = candidate(&mut s, g);
        let fast = s.passes_atomicity_check(g, cand).unwrap();
        let mut fresh = Store::new();
        let g2 = build(&mut fresh, &a);
        let cand2 = candidate(&mut fresh, g2);
        let oracle = fresh.passes_atomicity_check_formal(g2, cand2).unwrap();
        let name = crate::render::format_game(&mut s, g, crate::render::Style::Ascii).unwrap();
        prop_assert_eq!(fast, oracle, "{} with weight {}", name, crate::render::format_game(&mut s, cand, crate::render::Style::Ascii).unwrap());
    }
}

proptest! {
    // Most generated games are not infinitesimal and are skipped.
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    #[test]
    fn star_set_check_agrees_with_the_band_search(a in near_zero(4), shift in 0usize..5) {
        // Both sides of the check by the star sets (alone, and after the
        // quick refutation) against the band search, for the calculus's
        // candidate (a number or not) and for numbers near it, so that
        // both sides pass and fail.
        let mut s = Store::new();
        let g = build(&mut s, &a);
        prop_assume!(s.is_infinitesimal(g).unwrap());
        let w = s.naive_atomic_weight(g).unwrap();
        let shifts = [(0, 0), (1, 0), (-1, 0), (1, 1), (-1, 2)];
        let (m, e) = shifts[shift];
        let delta = s.number(Dyadic::new(m.into(), e));
        let cand = s.add(w, delta).unwrap();
        let (by_bands, by_sets, whole) = s.atomicity_sides_three_ways(g, cand).unwrap();
        let name = crate::render::format_game(&mut s, g, crate::render::Style::Ascii).unwrap();
        let weight = crate::render::format_game(&mut s, cand, crate::render::Style::Ascii).unwrap();
        // The generator's nim values are small: the star sets always apply.
        prop_assert_eq!(by_sets, Some(by_bands), "{} with weight {}", name, weight);
        prop_assert_eq!(whole, by_bands, "{} with weight {}", name, weight);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn atomic_weight_calculus_closed_form_agrees_with_the_canonical_candidate(
        a in prop_oneof![near_zero(4), rich(3), halves(3)]
    ) {
        // At every subposition: the closed form for number weights gives the
        // weight the canonical candidate gives (non-infinitesimal games
        // included: the calculus is defined on every canonical game).
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let mut todo = vec![g];
        let mut seen = std::collections::HashSet::new();
        while let Some(x) = todo.pop() {
            if !seen.insert(x) || s.as_nus(x).is_some() {
                continue;
            }
            let (fast, generic) = s.naive_atomic_weight_both_ways(x).unwrap();
            let show = |s: &mut Store, y| crate::render::format_game(s, y, crate::render::Style::Ascii).unwrap();
            prop_assert_eq!(fast, generic, "{}: {} vs {}", show(&mut s, x), show(&mut s, fast), show(&mut s, generic));
            let (l, r) = s.options(x);
            todo.extend(l.iter().chain(r.iter()).copied());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn calculus_facts_agree_with_the_separate_walks(
        a in prop_oneof![near_zero(4), rich(3), halves(3)]
    ) {
        // At every subposition that is not number-up-star: the nim bound,
        // star sets and all-smallness the calculus records in its one pass
        // (`Store::aw_facts`) against each computed on its own in a fresh
        // store (the nim bound and all-small walks with their own memos),
        // and the star sets' bits against comparisons with nimbers.
        let mut s = Store::new();
        let g = build(&mut s, &a);
        s.naive_atomic_weight(g).unwrap();
        let mut fresh = Store::new();
        let g2 = build(&mut fresh, &a);
        let mut todo = vec![(g, g2)];
        let mut seen = std::collections::HashSet::new();
        while let Some((x, x2)) = todo.pop() {
            if !seen.insert(x) || s.as_nus(x).is_some() {
                continue;
            }
            let facts = s.aw_facts(x).unwrap().shape;
            let show = crate::render::format_game(&mut s, x, crate::render::Style::Ascii).unwrap();
            prop_assert_eq!(facts.nim_bound, fresh.nim_bound(x2).unwrap(), "nim bound of {}", show);
            prop_assert_eq!(facts.all_small, fresh.is_all_small(x2).unwrap(), "all-small {}", show);
            let (below, above) = facts.star_sets;
            for j in 0..8u64 {
                let star = fresh.nimber(j);
                prop_assert_eq!((below >> j) & 1 == 1, fresh.le(star, x2).unwrap(), "S bit {} of {}", j, show);
                prop_assert_eq!((above >> j) & 1 == 1, fresh.le(x2, star).unwrap(), "T bit {} of {}", j, show);
            }
            let (l, r) = s.options(x);
            let (l2, r2) = fresh.options(x2);
            todo.extend(l.iter().chain(r.iter()).copied().zip(l2.iter().chain(r2.iter()).copied()));
        }
    }
}

/// Trees with dyadic leaves (halves and quarters) and nus leaves, so option
/// weights straddle integers and candidates are switches or non-integers.
fn halves(depth: u32) -> BoxedStrategy<Tree> {
    let leaf = prop_oneof![
        2 => (-2i64..=2, 0u64..3).prop_map(|(k, n)| Tree::Leaf(0, k, n)),
        1 => (-3i64..=3).prop_map(|x| Tree::Leaf(x, 0, 0)),
    ]
    .boxed();
    trees(depth, leaf, 3, 1..3)
}

/// The generators reach the games the properties are about.
#[test]
fn generators_cover_interesting_games() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut s = Store::new();
    let zero = BigRational::from_integer(0.into());
    let mut count = |strat: BoxedStrategy<Tree>,
                     pred: &mut dyn FnMut(&mut Store, GameId) -> bool| {
        let mut n = 0;
        for _ in 0..300 {
            let t = strat.new_tree(&mut runner).unwrap().current();
            let g = build(&mut s, &t);
            n += pred(&mut s, g) as usize;
        }
        n
    };
    let hot = count(rich(3), &mut |s, g| s.temperature(g).unwrap() > zero);
    let even = count(parity_tree(false, 4), &mut |s, g| {
        !s.is_number(g) && s.is_even(g).unwrap()
    });
    let small = count(small(3), &mut |s, g| {
        s.as_nus(g).is_none() && s.is_all_small(g).unwrap()
    });
    let (mut atomic, mut not_atomic) = (0, 0);
    count(near_zero(4), &mut |s, g| {
        if s.is_infinitesimal(g).unwrap() && !s.is_all_small(g).unwrap() {
            match s.atomic_weight(g) {
                Ok(_) => atomic += 1,
                Err(_) => not_atomic += 1,
            }
        }
        false
    });
    assert!(
        hot > 60 && even > 40 && small > 30 && atomic > 5 && not_atomic > 5,
        "hot {hot}, even {even}, all-small {small}, \
         atomic {atomic} and not atomic {not_atomic} (infinitesimal, not all-small)"
    );
}

/// Every operation polls the interrupt flag.
#[test]
fn operations_are_interruptible() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let build_big = |s: &mut Store| {
        let mut parts = Vec::new();
        for k in 1..=8 {
            let x = s.integer(k);
            let sw = s.switch(x).unwrap();
            let up = s.ups(k - 4);
            parts.push(s.add(sw, up).unwrap());
        }
        s.sum(&parts).unwrap()
    };
    let half = Dyadic::new(1.into(), 1);
    type Op = Box<dyn Fn(&mut Store, GameId) -> Result<(), super::CgError>>;
    let ops: Vec<(&str, Op)> = vec![
        (
            "thermograph",
            Box::new(|s: &mut Store, g| s.thermograph(g).map(drop)),
        ),
        (
            "cool",
            Box::new(move |s: &mut Store, g| s.cool(g, &half).map(drop)),
        ),
        (
            "heat",
            Box::new(|s: &mut Store, g| {
                let one = s.integer(1);
                s.heat(g, one).map(drop)
            }),
        ),
        ("chill", Box::new(|s: &mut Store, g| s.chill(g).map(drop))),
        ("warm", Box::new(|s: &mut Store, g| s.warm(g).map(drop))),
        (
            "norton",
            Box::new(|s: &mut Store, g| {
                let up = s.ups(1);
                s.norton(g, up).map(drop)
            }),
        ),
        ("rcf", Box::new(|s: &mut Store, g| s.rcf(g).map(drop))),
        (
            "incentives",
            Box::new(|s: &mut Store, g| s.incentives(g).map(drop)),
        ),
        (
            "naive aw",
            Box::new(|s: &mut Store, g| s.naive_atomic_weight(g).map(drop)),
        ),
    ];
    for (name, op) in ops {
        let mut s = Store::new();
        let g = build_big(&mut s);
        s.set_interrupt_flag(Arc::new(AtomicBool::new(true)));
        // The flag is polled every 1024 steps: the op's first step is made
        // one that polls, so that the test does not depend on how many steps
        // the build took (the stops settle most comparisons without one).
        s.add_steps(1023 - s.steps() % 1024);
        assert_eq!(op(&mut s, g), Err(super::CgError::Interrupted), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn star_sets_agree_with_the_comparisons(
        a in prop_oneof![any_game(), near_zero(4), small(4)],
        js in prop::collection::vec(prop_oneof![0u64..9, Just(16u64), Just(63u64)], 1..6),
    ) {
        // The bit-set reading of `*j ≤ G` and `G ≤ *j` against the general
        // comparison in a separate store (so the two share no memo).
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let (sb, tb) = s.star_sets(g).unwrap();
        let mut fresh = Store::new();
        let g2 = build(&mut fresh, &a);
        for j in js {
            let star = fresh.nimber(j);
            prop_assert_eq!((sb >> j) & 1 == 1, fresh.le(star, g2).unwrap(), "*{} <= G", j);
            prop_assert_eq!((tb >> j) & 1 == 1, fresh.le(g2, star).unwrap(), "G <= *{}", j);
        }
    }
}

/// The stops by their definition on the options (`LS(G) = max RS(G^L)`,
/// `RS(G) = min LS(G^R)`, a number is its own stops), memoised here: nothing
/// of the store's but its option lists.
fn stops_by_definition(
    s: &mut Store,
    g: GameId,
    memo: &mut HashMap<GameId, (Dyadic, Dyadic)>,
) -> (Dyadic, Dyadic) {
    if let Some(x) = s.as_number(g) {
        return (x.clone(), x.clone());
    }
    if let Some(st) = memo.get(&g) {
        return st.clone();
    }
    let (left, right) = s.options(g);
    let ls = left
        .iter()
        .map(|&o| stops_by_definition(s, o, memo).1)
        .max()
        .expect("a non-number has Left options");
    let rs = right
        .iter()
        .map(|&o| stops_by_definition(s, o, memo).0)
        .min()
        .expect("a non-number has Right options");
    memo.insert(g, (ls.clone(), rs.clone()));
    (ls, rs)
}

/// `G ≤ H` by the definition (no `H ≤ G^L`, no `H^R ≤ G`) on the option
/// lists, memoised here: no stops, no number avoidance, no memo of the store.
fn le_by_definition(
    s: &mut Store,
    g: GameId,
    h: GameId,
    memo: &mut HashMap<(GameId, GameId), bool>,
) -> bool {
    if let Some(&r) = memo.get(&(g, h)) {
        return r;
    }
    let r = s
        .left_options(g)
        .iter()
        .all(|&gl| !le_by_definition(s, h, gl, memo))
        && s.right_options(h)
            .iter()
            .all(|&hr| !le_by_definition(s, hr, g, memo));
    memo.insert((g, h), r);
    r
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The stops recorded in the nodes and the order (which the stops
    /// shortcut) against their definitions, on random games, a game near
    /// each (`G + e`, `e` among `0, *, ↑, ↓, ↑*`: the same stops, so the
    /// order must search) and games near zero; then every pair the
    /// definition met on the way.
    #[test]
    fn order_and_stops_agree_with_their_definitions(
        a in any_game(),
        b in prop_oneof![any_game(), near_zero(4)],
        k in -1i64..=1,
        n in 0u64..2,
    ) {
        let mut s = Store::new();
        let (g, h) = (build(&mut s, &a), build(&mut s, &b));
        let e = s.nus(Nus { number: Dyadic::zero(), ups: k, nim: n });
        let near = s.add(g, e).unwrap();
        let mut stops = HashMap::new();
        for x in [g, h, near] {
            let (ls, rs) = stops_by_definition(&mut s, x, &mut stops);
            prop_assert_eq!(&s.left_stop(x).unwrap(), &ls);
            prop_assert_eq!(&s.right_stop(x).unwrap(), &rs);
            prop_assert_eq!(s.is_infinitesimal(x).unwrap(), ls.is_zero() && rs.is_zero());
        }
        let mut order = HashMap::new();
        for (x, y) in [(g, h), (h, g), (g, near), (near, g), (h, near), (near, h)] {
            le_by_definition(&mut s, x, y, &mut order);
        }
        for ((x, y), r) in order {
            prop_assert_eq!(s.le(x, y).unwrap(), r);
        }
    }
}
