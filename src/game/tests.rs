use super::*;

fn d(n: i64, e: u32) -> Dyadic {
    Dyadic::new(n.into(), e)
}

#[test]
fn nus_canonical_forms_agree_with_generic_comparison() {
    // For every small nus, its formula options must define a game equal to the
    // nus itself; checked with the generic rule against the other nus values.
    let mut s = Store::new();
    let mut all = Vec::new();
    for x in [d(0, 0), d(1, 0), d(-1, 1)] {
        for ups in -3..=3 {
            for nim in 0..4 {
                all.push(s.nus(Nus {
                    number: x.clone(),
                    ups,
                    nim,
                }));
            }
        }
    }
    for &g in &all {
        let (l, r) = s.options(g);
        // Rebuild {l | r} through the generic canonicaliser: must give g back.
        let rebuilt = s.canonical(l.to_vec(), r.to_vec()).unwrap();
        assert_eq!(rebuilt, g, "nus {:?}", s.as_nus(g));
    }
}

#[test]
fn generic_and_fast_comparison_agree() {
    let mut s = Store::new();
    let mut all = Vec::new();
    for ups in -3..=3 {
        for nim in 0..4 {
            all.push(s.nus(Nus {
                number: Dyadic::zero(),
                ups,
                nim,
            }));
        }
    }
    // A general game equal in value: {G^L | G^R} interned without recognition is
    // impossible, so compare nus against general games built from them instead.
    for &a in &all {
        for &b in &all {
            let fast = s.le(a, b).unwrap();
            // a ≤ b iff a - b ≤ 0 iff (generic recursion on options of a - b)
            let (al, ar) = s.options(a);
            let mut slow = true;
            for x in al.iter() {
                if s.le(b, *x).unwrap() {
                    slow = false;
                }
            }
            for y in s.right_options(b).iter() {
                if s.le(*y, a).unwrap() {
                    slow = false;
                }
            }
            let _ = ar;
            assert_eq!(fast, slow, "{:?} <= {:?}", s.as_nus(a), s.as_nus(b));
        }
    }
}

#[test]
fn issue_examples() {
    let mut s = Store::new();
    let zero = s.zero();
    let star = s.star();
    let up = s.ups(1);
    // {0|^} = ^^*
    let g = s.canonical(vec![zero], vec![up]).unwrap();
    assert_eq!(
        s.as_nus(g),
        Some(&Nus {
            number: Dyadic::zero(),
            ups: 2,
            nim: 1
        })
    );
    // {1|1} = 1*
    let one = s.integer(1);
    let g = s.canonical(vec![one], vec![one]).unwrap();
    assert_eq!(
        s.as_nus(g),
        Some(&Nus {
            number: d(1, 0),
            ups: 0,
            nim: 1
        })
    );
    // {0,*|0,*} = *2
    let g = s.canonical(vec![zero, star], vec![zero, star]).unwrap();
    assert_eq!(g, s.nimber(2));
    // {5/8|11/16} = 21/32
    let a = s.number(d(5, 3));
    let b = s.number(d(11, 4));
    let g = s.canonical(vec![a], vec![b]).unwrap();
    assert_eq!(s.as_number(g), Some(&d(21, 5)));
    // {0|^*} = ^^
    let upstar = s.nus(Nus {
        number: Dyadic::zero(),
        ups: 1,
        nim: 1,
    });
    let g = s.canonical(vec![zero], vec![upstar]).unwrap();
    assert_eq!(g, s.ups(2));
    // {0 | v*} = ^<2>
    let downstar = s.neg(upstar);
    let g = s.canonical(vec![zero], vec![downstar]).unwrap();
    assert_eq!(g, s.up_nth(2).unwrap());
    // {^ | *} = ^[2]
    let g = s.canonical(vec![up], vec![star]).unwrap();
    assert_eq!(g, s.uptimal(2).unwrap());
    // 3 . {1|0} = {2|1}
    let sw = s.canonical(vec![one], vec![zero]).unwrap();
    let three = s.copies(&3.into(), sw).unwrap();
    let two = s.integer(2);
    let expect = s.canonical(vec![two], vec![one]).unwrap();
    assert_eq!(three, expect);
    // stops of {{2|0}|-1}
    let two_zero = s.canonical(vec![two], vec![zero]).unwrap();
    let m1 = s.integer(-1);
    let g = s.canonical(vec![two_zero], vec![m1]).unwrap();
    assert_eq!(s.left_stop(g).unwrap(), Dyadic::zero());
    assert_eq!(s.right_stop(g).unwrap(), d(-1, 0));
}

#[test]
fn group_laws_on_switch_sums() {
    let mut s = Store::new();
    let mut parts = Vec::new();
    for k in 1..=6 {
        let x = s.integer(k);
        parts.push(s.switch(x).unwrap());
    }
    let total = s.sum(&parts).unwrap();
    let mut back = total;
    for &p in parts.iter().rev() {
        back = s.sub(back, p).unwrap();
    }
    assert_eq!(back, s.zero());
}

mod printing {
    use super::*;
    use crate::render::{format_game, Style};

    fn ascii(s: &mut Store, g: GameId) -> String {
        format_game(s, g, Style::Ascii).unwrap()
    }

    #[test]
    fn issue_examples_print() {
        let mut s = Store::new();
        let zero = s.zero();
        let one = s.integer(1);
        let two = s.integer(2);
        let three = s.integer(3);
        let five = s.integer(5);
        // {5|3} - {2|1} = {4|3||2|1}
        let a = s.canonical(vec![five], vec![three]).unwrap();
        let b = s.canonical(vec![two], vec![one]).unwrap();
        let g = s.sub(a, b).unwrap();
        assert_eq!(ascii(&mut s, g), "{4|3||2|1}");
        // +-3 + +-2 + +-1 = +-{6|4||2|0}
        let parts: Vec<GameId> = [3, 2, 1]
            .iter()
            .map(|&k| {
                let x = s.integer(k);
                s.switch(x).unwrap()
            })
            .collect();
        let g = s.sum(&parts).unwrap();
        assert_eq!(ascii(&mut s, g), "+-{6|4||2|0}");
        // {3||2|1} + {3||2|1} = {5||4,{5|4}|3}
        let inner = s.canonical(vec![two], vec![one]).unwrap();
        let g = s.canonical(vec![three], vec![inner]).unwrap();
        let g2 = s.add(g, g).unwrap();
        assert_eq!(ascii(&mut s, g2), "{5||4,{5|4}|3}");
        // {0||0|-5} = Tiny(5), {0|{0|-1}} = Tiny(1)
        let t = s.tiny(five).unwrap();
        assert_eq!(ascii(&mut s, t), "Tiny(5)");
        let m1 = s.integer(-1);
        let inner = s.canonical(vec![zero], vec![m1]).unwrap();
        let t = s.canonical(vec![zero], vec![inner]).unwrap();
        assert_eq!(ascii(&mut s, t), "Tiny(1)");
        let up2 = s.up_nth(2).unwrap();
        assert_eq!(ascii(&mut s, up2), "^<2>");
        let upt = s.uptimal(2).unwrap();
        assert_eq!(ascii(&mut s, upt), "^[2]");
        let g = s.nus(Nus {
            number: d(73, 4),
            ups: -9,
            nim: 8,
        });
        assert_eq!(ascii(&mut s, g), "73/16v9*8");
        let g = s.nus(Nus {
            number: d(-2, 0),
            ups: -1,
            nim: 1,
        });
        assert_eq!(ascii(&mut s, g), "-2v*");
        let g = s.canonical(vec![two], vec![zero]).unwrap();
        let g = s.canonical(vec![g], vec![m1]).unwrap();
        assert_eq!(ascii(&mut s, g), "{2|0||-1}");
        let m100 = s.integer(-100);
        let ten = s.integer(10);
        let inner = s.canonical(vec![zero], vec![m100]).unwrap();
        let g = s.canonical(vec![ten], vec![inner]).unwrap();
        assert_eq!(ascii(&mut s, g), "{10||0|-100}");
        assert_eq!(
            format_game(&mut s, g, Style::Unicode).unwrap(),
            "{10||0|-100}"
        );
        let g = s.nus(Nus {
            number: d(3, 1),
            ups: 2,
            nim: 1,
        });
        assert_eq!(format_game(&mut s, g, Style::Unicode).unwrap(), "3/2⇑∗");
    }

    /// Berlekamp's `0ⁿ` prefix prints in Unicode from two zeros on; ASCII and
    /// a single zero stay braced, and a number part keeps braces (no `20²⧾1`).
    #[test]
    fn zero_prefix_prints_in_unicode() {
        let mut s = Store::new();
        let one = s.integer(1);
        let tiny = s.tiny(one).unwrap();
        let miny = s.miny(one).unwrap();
        let mut lines = Vec::new();
        for base in [tiny, miny] {
            for n in 0..4 {
                let g = s.zero_prefix(n, base).unwrap();
                let unicode = format_game(&mut s, g, Style::Unicode).unwrap();
                let ascii = ascii(&mut s, g);
                lines.push(format!("{n}: {unicode}   {ascii}"));
            }
        }
        let g = s.zero_prefix(2, tiny).unwrap();
        let g = s.add(g, one).unwrap();
        lines.push(format!(
            "1 + 0²⧾1: {}",
            format_game(&mut s, g, Style::Unicode).unwrap()
        ));
        expect_test::expect![[r#"
            0: ⧾1   Tiny(1)
            1: {0|⧾1}   Tiny({1|0})
            2: 0²⧾1   {0|Tiny({1|0})}
            3: 0³⧾1   {0||0|Tiny({1|0})}
            0: ⧿1   Miny(1)
            1: {⧿1|0}   Miny({1|0})
            2: 0²⧿1   {Miny({1|0})|0}
            3: 0³⧿1   {Miny({1|0})|0||0}
            1 + 0²⧾1: {1||1|1⧾1}"#]]
        .assert_eq(&lines.join("\n"));
    }
}

/// The closed form of a number-up-star birthday agrees with the recursion
/// over its canonical options.
#[test]
fn nus_birthdays_agree_with_the_options() {
    fn walk(s: &mut Store, g: GameId) -> num_bigint::BigInt {
        if let Some(x) = s.as_number(g) {
            return x.birthday();
        }
        let (l, r) = s.options(g);
        let mut best = num_bigint::BigInt::from(0);
        for o in l.iter().chain(r.iter()) {
            best = best.max(walk(s, *o) + 1);
        }
        best
    }
    let mut s = Store::new();
    for x in [d(0, 0), d(1, 0), d(-2, 0), d(1, 1), d(-3, 2)] {
        for ups in -7..=7 {
            for nim in 0..7 {
                let g = s.nus(Nus {
                    number: x.clone(),
                    ups,
                    nim,
                });
                let expected = walk(&mut s, g);
                assert_eq!(s.birthday(g).unwrap(), expected, "{x} {ups} {nim}");
            }
        }
    }
    // And where no walk could go: 2^63 - 1 levels.
    let g = s.ups(i64::MAX);
    assert_eq!(
        s.birthday(g).unwrap(),
        num_bigint::BigInt::from(i64::MAX) + 1
    );
}

/// `-G` for a game nested 200 000 levels deep, on a 1 MiB stack: the
/// recursive negation overflowed it; the iterative one gives the mirror
/// chain, built independently.
#[test]
fn negating_a_very_deep_game_needs_no_stack() {
    let r = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let mut s = Store::new();
            let n = 200_000i64;
            // g_0 = {1 | -1}, g_k = {g_(k-1) | -(k+1)}: canonical as built
            // (one option a side, and the left option's right option -k is
            // not ≤ g_k, whose right option -(k+1) is ≤ -k).
            let (one, minus_one) = (s.integer(1), s.integer(-1));
            let mut g = s.intern_canonical(vec![one], vec![minus_one]);
            let mut h = g;
            for k in 1..=n {
                let (down, up) = (s.integer(-(k + 1)), s.integer(k + 1));
                g = s.intern_canonical(vec![g], vec![down]);
                h = s.intern_canonical(vec![up], vec![h]);
            }
            let neg = s.neg(g);
            (neg == h, s.neg(neg) == g)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(r, (true, true));
}

/// A fresh store keeps its zero node outside the (still empty) game table;
/// the first game interned enters it at id 0, so `zero` names the same
/// game before and after.
#[test]
fn a_fresh_store_has_zero_before_its_table() {
    let mut s = Store::new();
    let z = s.zero();
    assert_eq!(s.len(), 1);
    assert_eq!(s.as_nus(z), Some(&Nus::number(Dyadic::zero())));
    let one = s.integer(1);
    assert_ne!(one, z);
    assert_eq!(s.zero(), z);
    assert_eq!(s.len(), 2);
    let zero = s.integer(0);
    assert_eq!(zero, z);
    let minus_one = s.integer(-1);
    assert_eq!(s.add(one, minus_one).unwrap(), z);
    assert_eq!(s.as_nus(z), Some(&Nus::number(Dyadic::zero())));
}

#[test]
fn small_integers_are_the_interned_numbers() {
    // The table of small integers' ids answers what the number-up-star
    // index would, whichever is asked first, at both ends of the table and
    // past them.
    let mut s = Store::new();
    for n in [-40i64, -33, -32, -31, -1, 0, 1, 7, 31, 32, 33, 1 << 40] {
        let by_number = s.number(Dyadic::from_i64(n));
        assert_eq!(s.integer(n), by_number, "{n}");
        assert_eq!(s.integer(n), by_number, "{n}");
    }
    let mut t = Store::new();
    for n in -40i64..40 {
        let first = t.integer(n);
        assert_eq!(t.number(Dyadic::from_i64(n)), first, "{n}");
        assert_eq!(t.integer(n), first, "{n}");
        assert_eq!(t.as_number(first), Some(&Dyadic::from_i64(n)), "{n}");
    }
}
