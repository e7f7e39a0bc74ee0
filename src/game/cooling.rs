//! The cooling family and Berlekamp's Go-specific operators.
//!
//! All of these act on the *canonical form*: the options `G^L`, `G^R` below are
//! the canonical options (for a non-integer number `m/2^k` that is
//! `{(m-1)/2^k | (m+1)/2^k}`). Cooling is well defined on values; heating,
//! overheating, chilling, warming and Norton products in general depend on the
//! form, and canonical form is the convention of the literature and CGSuite.
//!
//! * **Cooling** (Siegel, *CGT* §II.5; *Winning Ways* ch. 6): `G_t` is `G` for a
//!   number; otherwise `{G^L_t - t | G^R_t + t}` for `t ≤ temperature(G)` and
//!   the mean for `t > temperature(G)` (for a non-number the least `t'` at which
//!   `G_{t'}` is infinitesimally close to a number is exactly its temperature).
//!   Cooling by exactly the temperature is **freezing** and gives the mean plus
//!   an infinitesimal: `freeze({3||2*|1*}) = 9/4*`.
//! * **Heating** `∫^t G`: `G` for a number, else `{∫^t G^L + t | ∫^t G^R - t}`;
//!   `t` may be any game.
//! * **Overheating** `∫_s^t G` (*Winning Ways* ch. 6, "overheating"): `n.s`
//!   (`n` copies of `s`) for an integer `n`, else `{∫_s^t G^L + t | ∫_s^t G^R - t}`
//!   — a non-integer number is not fixed, its canonical options are used.
//! * **Chilling** (Berlekamp–Wolfe, *Mathematical Go*): `f(G) = m` for `G = m`
//!   or `G = m*` with `m` an integer, else `{f(G^L) - 1 | f(G^R) + 1}` (so a
//!   non-integer number is chilled through its canonical options too:
//!   `f(1/2) = {-1 | 2} = 0`; unchilled Go values never are such numbers).
//! * **Warming** `∫G = ∫_{1*}^{1} G`: even integers fixed, odd `n ↦ n*`, else
//!   `{∫G^L + 1 | ∫G^R - 1}`; `∫(1/2) = {1|*}`.
//! * **Norton product** `G.U` (*Winning Ways* ch. 8; Siegel §II.7): `n` copies of
//!   `U` for an integer `n`, else `{G^L.U + U + I | G^R.U - (U + I)}` with `I`
//!   over the (undominated) incentives of `U` — dominated incentives only give
//!   dominated options.
//! * **Even / odd** (*Mathematical Go*, "even and odd elementary games"): an
//!   integer by its parity; any other canonical game is even when it has at
//!   least one option and all its options (both sides) are odd, odd when all of
//!   them are even; otherwise neither. Note `m*` is even exactly when `m` is odd.
//! * **All-small**: every subposition with a Left option has a Right option and
//!   vice versa (decided on the canonical form, which is all-small iff the value
//!   equals some all-small game).

use super::derived::Parity;
use super::dyadic::Dyadic;
use super::store::{CgResult, GameId, Node, Store};
use super::thermo::to_dyadic;
use num_bigint::BigInt;

impl Store {
    /// `G` cooled by `t`, for `t > -1` (the caller checks). Below zero this
    /// is subzero cooling as Siegel's *Combinatorial Game Theory* and CGSuite
    /// define it: `G_t = {G^L_t - t | G^R_t + t}` unless `G_t'` is a number
    /// plus an infinitesimal for some `t' < t`, that is unless `t` exceeds
    /// the temperature of `G`. A number `m/2^n` has temperature `-1/2^n`
    /// (an integer `-1`), so `1/2` cooled by `-3/4` is `{3/4 | 1/4}` while
    /// every `t ≥ 0` leaves numbers alone.
    pub fn cool(&mut self, g: GameId, t: &Dyadic) -> CgResult<GameId> {
        if t.is_zero() {
            return Ok(g);
        }
        if self.is_number(g) && (!t.is_negative() || t.to_rational() > self.temperature(g)?) {
            return Ok(g);
        }
        let key = (g, t.clone());
        if let Some(&r) = self.memo.derived().cool.get(&key) {
            return Ok(r);
        }
        self.tick()?;
        let temperature = self.temperature(g)?;
        let result = if t.to_rational() > temperature {
            let m = self.mean(g)?;
            self.number(m)
        } else {
            let tg = self.number(t.clone());
            let (left, right) = self.options(g);
            let mut l = Vec::with_capacity(left.len());
            for &gl in left.iter() {
                let c = self.cool(gl, t)?;
                l.push(self.sub(c, tg)?);
            }
            let mut r = Vec::with_capacity(right.len());
            for &gr in right.iter() {
                let c = self.cool(gr, t)?;
                r.push(self.add(c, tg)?);
            }
            self.canonical(l, r)?
        };
        self.memo.derived().cool.insert(key, result);
        Ok(result)
    }

    /// `G` cooled by its temperature (a number stays itself).
    pub fn freeze(&mut self, g: GameId) -> CgResult<GameId> {
        if self.is_number(g) {
            return Ok(g);
        }
        let t = self.temperature(g)?;
        let t = to_dyadic(&t)?;
        self.cool(g, &t)
    }

    /// `∫^t G`: numbers fixed, else `{∫^t G^L + t | ∫^t G^R - t}`.
    pub fn heat(&mut self, g: GameId, t: GameId) -> CgResult<GameId> {
        if self.is_number(g) {
            return Ok(g);
        }
        if let Some(&r) = self.memo.derived().heat.get(&(g, t)) {
            return Ok(r);
        }
        self.tick()?;
        let (left, right) = self.options(g);
        let mut l = Vec::with_capacity(left.len());
        for &gl in left.iter() {
            let h = self.heat(gl, t)?;
            l.push(self.add(h, t)?);
        }
        let mut r = Vec::with_capacity(right.len());
        for &gr in right.iter() {
            let h = self.heat(gr, t)?;
            r.push(self.sub(h, t)?);
        }
        let result = self.canonical(l, r)?;
        self.memo.derived().heat.insert((g, t), result);
        Ok(result)
    }

    /// `∫_s^t G`: an integer `n` becomes `n.s`, anything else (non-integer
    /// numbers included) `{∫_s^t G^L + t | ∫_s^t G^R - t}`.
    pub fn overheat(&mut self, g: GameId, s: GameId, t: GameId) -> CgResult<GameId> {
        if let Some(n) = self.as_integer(g) {
            return self.copies(&n, s);
        }
        if let Some(&r) = self.memo.derived().overheat.get(&(g, s, t)) {
            return Ok(r);
        }
        self.tick()?;
        let (left, right) = self.options(g);
        let mut l = Vec::with_capacity(left.len());
        for &gl in left.iter() {
            let h = self.overheat(gl, s, t)?;
            l.push(self.add(h, t)?);
        }
        let mut r = Vec::with_capacity(right.len());
        for &gr in right.iter() {
            let h = self.overheat(gr, s, t)?;
            r.push(self.sub(h, t)?);
        }
        let result = self.canonical(l, r)?;
        self.memo.derived().overheat.insert((g, s, t), result);
        Ok(result)
    }

    /// Go chilling `f(G)`: `m` for `G = m` or `m*` (`m` an integer), else
    /// `{f(G^L) - 1 | f(G^R) + 1}`.
    pub fn chill(&mut self, g: GameId) -> CgResult<GameId> {
        if let Some(n) = self.as_nus(g) {
            if n.ups == 0 && n.nim <= 1 && n.number.is_integer() {
                let m = n.number.clone();
                return Ok(self.number(m));
            }
        }
        if let Some(&r) = self.memo.derived().chill.get(&g) {
            return Ok(r);
        }
        self.tick()?;
        let one = self.integer(1);
        let (left, right) = self.options(g);
        let mut l = Vec::with_capacity(left.len());
        for &gl in left.iter() {
            let c = self.chill(gl)?;
            l.push(self.sub(c, one)?);
        }
        let mut r = Vec::with_capacity(right.len());
        for &gr in right.iter() {
            let c = self.chill(gr)?;
            r.push(self.add(c, one)?);
        }
        let result = self.canonical(l, r)?;
        self.memo.derived().chill.insert(g, result);
        Ok(result)
    }

    /// Warming `∫G = ∫_{1*}^{1} G`, the inverse of chilling on even elementary
    /// Go values.
    pub fn warm(&mut self, g: GameId) -> CgResult<GameId> {
        let one = self.integer(1);
        let star = self.star();
        let one_star = self.add(one, star)?;
        self.overheat(g, one_star, one)
    }

    /// Norton product `G.U`.
    pub fn norton(&mut self, g: GameId, u: GameId) -> CgResult<GameId> {
        if let Some(n) = self.as_integer(g) {
            return self.copies(&n, u);
        }
        if let Some(&r) = self.memo.derived().norton.get(&(g, u)) {
            return Ok(r);
        }
        self.tick()?;
        let incentives = self.incentives(u)?;
        let mut u_plus = Vec::with_capacity(incentives.len());
        for &i in incentives.iter() {
            u_plus.push(self.add(u, i)?);
        }
        let (left, right) = self.options(g);
        let mut l = Vec::with_capacity(left.len() * u_plus.len());
        for &gl in left.iter() {
            let p = self.norton(gl, u)?;
            for &v in &u_plus {
                l.push(self.add(p, v)?);
            }
        }
        let mut r = Vec::with_capacity(right.len() * u_plus.len());
        for &gr in right.iter() {
            let p = self.norton(gr, u)?;
            for &v in &u_plus {
                r.push(self.sub(p, v)?);
            }
        }
        let result = self.canonical(l, r)?;
        self.memo.derived().norton.insert((g, u), result);
        Ok(result)
    }

    /// Berlekamp's even elementary games (see the module doc).
    pub fn is_even(&mut self, g: GameId) -> CgResult<bool> {
        Ok(self.parity(g)? == Parity::Even)
    }

    /// Berlekamp's odd elementary games (see the module doc).
    pub fn is_odd(&mut self, g: GameId) -> CgResult<bool> {
        Ok(self.parity(g)? == Parity::Odd)
    }

    pub(crate) fn parity(&mut self, g: GameId) -> CgResult<Parity> {
        if let Some(n) = self.as_integer(g) {
            return Ok(if n.bit(0) { Parity::Odd } else { Parity::Even });
        }
        if let Some(&p) = self.memo.derived().parity.get(&g) {
            return Ok(p);
        }
        self.tick()?;
        let (left, right) = self.options(g);
        let (mut all_odd, mut all_even) = (true, true);
        for &o in left.iter().chain(right.iter()) {
            match self.parity(o)? {
                Parity::Even => all_odd = false,
                Parity::Odd => all_even = false,
                Parity::Neither => {
                    all_odd = false;
                    all_even = false;
                }
            }
            if !all_odd && !all_even {
                break;
            }
        }
        // A non-integer always has options, so the two flags cannot both hold.
        let p = if all_odd {
            Parity::Even
        } else if all_even {
            Parity::Odd
        } else {
            Parity::Neither
        };
        self.memo.derived().parity.insert(g, p);
        Ok(p)
    }

    /// Every subposition with a Left option has a Right option and vice versa.
    pub fn is_all_small(&mut self, g: GameId) -> CgResult<bool> {
        match self.node(g) {
            // 0 and every x + k·↑ + *n with x = 0 are all-small; other numbers
            // are not (n > 0 has Left options only), nor is anything with them.
            Node::Nus(n) => return Ok(n.number.is_zero()),
            Node::General { .. } => {}
        }
        if let Some(&b) = self.memo.derived().all_small.get(&g) {
            return Ok(b);
        }
        self.tick()?;
        let (left, right) = self.options(g);
        let mut result = left.is_empty() == right.is_empty();
        if result {
            for &o in left.iter().chain(right.iter()) {
                if !self.is_all_small(o)? {
                    result = false;
                    break;
                }
            }
        }
        self.memo.derived().all_small.insert(g, result);
        Ok(result)
    }

    /// The integer `g`, if it is one.
    pub(crate) fn as_integer(&self, g: GameId) -> Option<BigInt> {
        self.as_number(g).and_then(Dyadic::to_bigint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Nus;
    use crate::render::{format_game, Style};
    use expect_test::{expect, Expect};

    fn ascii(s: &mut Store, g: GameId) -> String {
        format_game(s, g, Style::Ascii).unwrap()
    }

    fn d(n: i64, e: u32) -> Dyadic {
        Dyadic::new(n.into(), e)
    }

    /// `{a || b | c}`.
    fn three_stop(s: &mut Store, a: GameId, b: GameId, c: GameId) -> GameId {
        let inner = s.canonical(vec![b], vec![c]).unwrap();
        s.canonical(vec![a], vec![inner]).unwrap()
    }

    fn check(
        s: &mut Store,
        f: impl Fn(&mut Store, GameId) -> CgResult<GameId>,
        g: GameId,
        expect: Expect,
    ) {
        let before = ascii(s, g);
        let r = f(s, g).unwrap();
        let after = ascii(s, r);
        expect.assert_eq(&format!("{before} -> {after}"));
    }

    #[test]
    fn cooling_facts() {
        let mut s = Store::new();
        let (zero, four) = (s.zero(), s.integer(4));
        let g = s.canonical(vec![four], vec![zero]).unwrap();
        check(
            &mut s,
            |s, g| s.cool(g, &d(1, 0)),
            g,
            expect!["{4|0} -> {3|1}"],
        );
        check(
            &mut s,
            |s, g| s.cool(g, &d(2, 0)),
            g,
            expect!["{4|0} -> 2*"],
        );
        check(&mut s, |s, g| s.cool(g, &d(3, 0)), g, expect!["{4|0} -> 2"]);
        check(
            &mut s,
            |s, g| s.cool(g, &d(3, 1)),
            g,
            expect!["{4|0} -> {5/2|3/2}"],
        );
        check(&mut s, |s, g| s.freeze(g), g, expect!["{4|0} -> 2*"]);
        let (one_star, two_star, three) = (
            s.nus(Nus {
                number: d(1, 0),
                ups: 0,
                nim: 1,
            }),
            s.nus(Nus {
                number: d(2, 0),
                ups: 0,
                nim: 1,
            }),
            s.integer(3),
        );
        let g = three_stop(&mut s, three, two_star, one_star);
        check(&mut s, |s, g| s.freeze(g), g, expect!["{3||2*|1*} -> 9/4*"]);
        check(
            &mut s,
            |s, g| s.cool(g, &d(1, 1)),
            g,
            expect!["{3||2*|1*} -> {5/2|2*}"],
        );
        check(
            &mut s,
            |s, g| s.cool(g, &d(1, 0)),
            g,
            expect!["{3||2*|1*} -> 9/4"],
        );
        // Numbers and cooling by 0 are fixed; infinitesimals freeze to their number.
        let x = s.number(d(3, 3));
        check(&mut s, |s, g| s.cool(g, &d(5, 0)), x, expect!["3/8 -> 3/8"]);
        check(
            &mut s,
            |s, g| s.cool(g, &d(0, 0)),
            g,
            expect!["{3||2*|1*} -> {3||2*|1*}"],
        );
        let up = s.nus(Nus {
            number: d(1, 0),
            ups: 1,
            nim: 0,
        });
        check(&mut s, |s, g| s.cool(g, &d(1, 2)), up, expect!["1^ -> 1"]);
        check(&mut s, |s, g| s.freeze(g), up, expect!["1^ -> 1^"]);
        let (ten, m100) = (s.integer(10), s.integer(-100));
        let g = three_stop(&mut s, ten, zero, m100);
        check(
            &mut s,
            |s, g| s.cool(g, &d(5, 0)),
            g,
            expect!["{10||0|-100} -> {5||0|-90}"],
        );
        check(
            &mut s,
            |s, g| s.freeze(g),
            g,
            expect!["{10||0|-100} -> Tiny(80)"],
        );
    }

    #[test]
    fn heating_and_overheating() {
        let mut s = Store::new();
        let (zero, one, two) = (s.zero(), s.integer(1), s.integer(2));
        let star = s.star();
        // ∫^1 * = {1|-1}; ∫^1 of a number is the number.
        check(&mut s, |s, g| s.heat(g, one), star, expect!["* -> +-1"]);
        let half = s.number(d(1, 1));
        check(&mut s, |s, g| s.heat(g, two), half, expect!["1/2 -> 1/2"]);
        let up = s.ups(1);
        check(&mut s, |s, g| s.heat(g, one), up, expect!["^ -> {1||0|-2}"]);
        // Heating undoes cooling: ∫^1 {3|1} = {4|0}.
        let three = s.integer(3);
        let g = s.canonical(vec![three], vec![one]).unwrap();
        check(&mut s, |s, g| s.heat(g, one), g, expect!["{3|1} -> {4|0}"]);
        // Overheating: ∫_1^2 of 1/2 = {0 + 2 | 1 - 2} uses 1/2 = {0|1}.
        check(
            &mut s,
            |s, g| s.overheat(g, one, two),
            half,
            expect!["1/2 -> {2|-1}"],
        );
        check(
            &mut s,
            |s, g| s.overheat(g, star, one),
            two,
            expect!["2 -> 0"],
        );
        let _ = zero;
    }

    #[test]
    fn chilling_and_warming() {
        let mut s = Store::new();
        let (zero, one, two, three) = (s.zero(), s.integer(1), s.integer(2), s.integer(3));
        let g = three_stop(&mut s, three, two, zero);
        check(&mut s, |s, g| s.chill(g), g, expect!["{3||2|0} -> 2^"]);
        let half = s.number(d(1, 1));
        check(&mut s, |s, g| s.warm(g), half, expect!["1/2 -> {1|*}"]);
        let two_up = s.nus(Nus {
            number: d(2, 0),
            ups: 1,
            nim: 0,
        });
        check(&mut s, |s, g| s.warm(g), two_up, expect!["2^ -> {3||2|0}"]);
        let g = s.nus(Nus {
            number: d(3, 0),
            ups: 2,
            nim: 1,
        });
        check(
            &mut s,
            |s, g| s.warm(g),
            g,
            expect!["3^^* -> {4*|||3*||2*|*}"],
        );
        check(&mut s, |s, g| s.warm(g), three, expect!["3 -> 3*"]);
        check(&mut s, |s, g| s.warm(g), two, expect!["2 -> 2"]);
        let m3 = s.integer(-3);
        check(&mut s, |s, g| s.warm(g), m3, expect!["-3 -> -3*"]);
        let one_star = s.nus(Nus {
            number: d(1, 0),
            ups: 0,
            nim: 1,
        });
        check(&mut s, |s, g| s.chill(g), one_star, expect!["1* -> 1"]);
        check(&mut s, |s, g| s.warm(g), one_star, expect!["1* -> {2*|*}"]);
        // Chilling {2|0} (a gote move worth 1 point) gives 1*.
        let g = s.canonical(vec![two], vec![zero]).unwrap();
        check(&mut s, |s, g| s.chill(g), g, expect!["{2|0} -> 1*"]);
        let _ = one;
    }

    #[test]
    fn parity_and_all_small() {
        let mut s = Store::new();
        let show = |s: &mut Store, g: GameId| -> String {
            let name = ascii(s, g);
            let p = match (s.is_even(g).unwrap(), s.is_odd(g).unwrap()) {
                (true, false) => "even",
                (false, true) => "odd",
                (false, false) => "neither",
                (true, true) => "both?!",
            };
            let small = if s.is_all_small(g).unwrap() {
                "all-small"
            } else {
                "not all-small"
            };
            format!("{name}: {p}, {small}")
        };
        let mut lines = Vec::new();
        let (zero, one, two, three) = (s.zero(), s.integer(1), s.integer(2), s.integer(3));
        let star = s.star();
        let up = s.ups(1);
        let one_star = s.nus(Nus {
            number: d(1, 0),
            ups: 0,
            nim: 1,
        });
        let half = s.number(d(1, 1));
        let tiny = s.tiny(one).unwrap();
        let sw = s.canonical(vec![two], vec![zero]).unwrap();
        let g = three_stop(&mut s, three, two, zero);
        let w = s.canonical(vec![one_star], vec![star]).unwrap();
        let t2 = s.canonical(vec![zero], vec![up]).unwrap();
        for x in [zero, one, two, star, up, one_star, half, tiny, sw, g, w, t2] {
            lines.push(show(&mut s, x));
        }
        expect![[r#"
            0: even, all-small
            1: odd, not all-small
            2: even, not all-small
            *: odd, all-small
            ^: neither, all-small
            1*: even, not all-small
            1/2: neither, not all-small
            Tiny(1): neither, not all-small
            {2|0}: odd, not all-small
            {3||2|0}: even, not all-small
            {1*|*}: neither, not all-small
            ^^*: neither, all-small
        "#]]
        .assert_eq(&(lines.join("\n") + "\n"));
    }

    #[test]
    fn norton_products() {
        let mut s = Store::new();
        let (zero, one) = (s.zero(), s.integer(1));
        let up = s.ups(1);
        let three = s.integer(3);
        check(&mut s, |s, g| s.norton(g, up), three, expect!["3 -> ^3"]);
        let m2 = s.integer(-2);
        let sw = s.canonical(vec![one], vec![zero]).unwrap();
        check(&mut s, |s, g| s.norton(g, sw), m2, expect!["-2 -> -1"]);
        let half = s.number(d(1, 1));
        check(
            &mut s,
            |s, g| s.norton(g, up),
            half,
            expect!["1/2 -> {^^*|v*}"],
        );
        let g = s.canonical(vec![one], vec![zero]).unwrap();
        check(
            &mut s,
            |s, g| s.norton(g, up),
            g,
            expect!["{1|0} -> {^3*|vv*}"],
        );
        // Norton multiplication by 1 is the identity on numbers? No: x.1 = x for
        // numbers because the incentive of 1 is -1, so U + I = 0... check 1/2.1.
        check(&mut s, |s, g| s.norton(g, one), half, expect!["1/2 -> 1/2"]);
    }
}
