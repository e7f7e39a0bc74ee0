//! Reduced canonical form and equality up to infinitesimals (Grossman & Siegel,
//! "Reductions of partizan games", *Games of No Chance 3*, 2009; Siegel,
//! *Combinatorial Game Theory* §II.6).
//!
//! `G ≈ H` ("G is H-ish") when `G - H` is infinitesimal (both stops 0). The
//! reduced canonical form `rcf(G)` is the simplest game infinitesimally close to
//! `G`: the unique game with no Inf-dominated and no Inf-reversible options in
//! its class. It is computed as Grossman–Siegel (and CGSuite) do: for a
//! number-up-star value `x + k·↑ + *n` it is the number `x`; otherwise heat by
//! `*` and take the star projection,
//!
//! `rcf(G) = π(∫^* G)`, where `π(x) = π(x*) = x` for a number `x` and otherwise
//! `π(G) = {π(G^L) | π(G^R)}`.
//!
//! Heating by `*` adds `*` to each option's translation, which makes every
//! infinitesimal difference between options visible as a star that `π` then
//! erases. The tests check the defining properties (`rcf(G) ≈ G`, idempotence,
//! `rcf(G + ε) = rcf(G)` for infinitesimal `ε`, birthday never grows).

use super::store::{CgResult, GameId, Node, Store};

impl Store {
    /// `G - H` is infinitesimal.
    pub fn approx_equal(&mut self, g: GameId, h: GameId) -> CgResult<bool> {
        if g == h {
            return Ok(true);
        }
        let d = self.sub(g, h)?;
        self.is_infinitesimal(d)
    }

    /// The reduced canonical form of `g`.
    pub fn rcf(&mut self, g: GameId) -> CgResult<GameId> {
        if let Some(n) = self.as_nus(g) {
            let x = n.number.clone();
            return Ok(self.number(x));
        }
        let star = self.star();
        let heated = self.heat(g, star)?;
        self.star_projection(heated)
    }

    /// `π`: numbers and number-plus-star become the number, the rest maps
    /// through its options.
    fn star_projection(&mut self, g: GameId) -> CgResult<GameId> {
        if let Node::Nus(n) = self.node(g) {
            if n.ups == 0 && n.nim <= 1 {
                let x = n.number.clone();
                return Ok(self.number(x));
            }
        }
        if let Some(&r) = self.memo.derived().star_projection.get(&g) {
            return Ok(r);
        }
        self.tick()?;
        let (left, right) = self.options(g);
        let mut l = Vec::with_capacity(left.len());
        for &o in left.iter() {
            l.push(self.star_projection(o)?);
        }
        let mut r = Vec::with_capacity(right.len());
        for &o in right.iter() {
            r.push(self.star_projection(o)?);
        }
        let result = self.canonical(l, r)?;
        self.memo.derived().star_projection.insert(g, result);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Dyadic, Nus};
    use crate::render::{format_game, Style};
    use expect_test::{expect, Expect};

    fn ascii(s: &mut Store, g: GameId) -> String {
        format_game(s, g, Style::Ascii).unwrap()
    }

    fn check(s: &mut Store, g: GameId, expect: Expect) {
        let r = s.rcf(g).unwrap();
        assert!(s.approx_equal(g, r).unwrap());
        let text = format!("rcf({}) = {}", ascii(s, g), ascii(s, r));
        expect.assert_eq(&text);
    }

    fn nus(s: &mut Store, x: i64, ups: i64, nim: u64) -> GameId {
        s.nus(Nus {
            number: Dyadic::from_i64(x),
            ups,
            nim,
        })
    }

    #[test]
    fn rcf_facts() {
        let mut s = Store::new();
        let (three, two_star, one_star) =
            (s.integer(3), nus(&mut s, 2, 0, 1), nus(&mut s, 1, 0, 1));
        let inner = s.canonical(vec![two_star], vec![one_star]).unwrap();
        let g = s.canonical(vec![three], vec![inner]).unwrap();
        check(&mut s, g, expect!["rcf({3||2*|1*}) = {3||2|1}"]);
        let g = nus(&mut s, 5, -3, 2);
        check(&mut s, g, expect!["rcf(5v3*2) = 5"]);
        let one = s.integer(1);
        let tiny = s.tiny(one).unwrap();
        check(&mut s, tiny, expect!["rcf(Tiny(1)) = 0"]);
        // ±1 + ↑ is ±1-ish.
        let pm = s.switch(one).unwrap();
        let up = s.ups(1);
        let g = s.add(pm, up).unwrap();
        check(&mut s, g, expect!["rcf({1^|-1^}) = +-1"]);
        // {2|0} + {1|0}* keeps its hot structure, loses the star.
        let (zero, two) = (s.zero(), s.integer(2));
        let a = s.canonical(vec![two], vec![zero]).unwrap();
        let b = s.canonical(vec![one], vec![zero]).unwrap();
        let star = s.star();
        let bs = s.add(b, star).unwrap();
        let g = s.add(a, bs).unwrap();
        check(&mut s, g, expect!["rcf({3*|2*||1*|*}) = {3|2||1|0}"]);
    }

    #[test]
    fn approximate_equality() {
        let mut s = Store::new();
        let (one, two) = (s.integer(1), s.integer(2));
        let up = s.ups(1);
        let one_up = s.add(one, up).unwrap();
        assert!(s.approx_equal(one, one_up).unwrap());
        assert!(!s.approx_equal(one, two).unwrap());
        let pm = s.switch(one).unwrap();
        let star = s.star();
        let pm_star = s.add(pm, star).unwrap();
        assert!(s.approx_equal(pm, pm_star).unwrap());
        assert!(!s.approx_equal(pm, one).unwrap());
    }
}
