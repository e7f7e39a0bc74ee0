//! Incentives (Berlekamp; *Winning Ways* ch. 6; Berlekamp–Kim §5) and a
//! deterministic, history-independent order on canonical games for listing
//! results.
//!
//! * Left incentives: `Δ^L = G^L - G` for each canonical Left option.
//! * Right incentives: `Δ^R = G - G^R` for each canonical Right option.
//! * Incentives: the union of both, duplicates merged, and an incentive dropped
//!   when another one is strictly greater (the maximal ones are kept, so
//!   incomparable incentives all stay).

use super::store::{CgResult, GameId, Node, Store};
use std::cmp::Ordering;
use std::rc::Rc;

impl Store {
    /// `G^L - G` for each Left option, in [`Store::game_order`], without duplicates.
    pub fn left_incentives(&mut self, g: GameId) -> CgResult<Vec<GameId>> {
        let mut out = Vec::new();
        for gl in self.left_options(g).iter() {
            self.tick()?;
            out.push(self.sub(*gl, g)?);
        }
        self.sort_games(&mut out)?;
        Ok(out)
    }

    /// `G - G^R` for each Right option, in [`Store::game_order`], without duplicates.
    pub fn right_incentives(&mut self, g: GameId) -> CgResult<Vec<GameId>> {
        let mut out = Vec::new();
        for gr in self.right_options(g).iter() {
            self.tick()?;
            out.push(self.sub(g, *gr)?);
        }
        self.sort_games(&mut out)?;
        Ok(out)
    }

    /// The undominated incentives of both players (memoised).
    pub fn incentives(&mut self, g: GameId) -> CgResult<Rc<[GameId]>> {
        if let Some(r) = self.memo.derived().incentives.get(&g) {
            return Ok(r.clone());
        }
        let mut all = self.left_incentives(g)?;
        all.extend(self.right_incentives(g)?);
        all.sort_unstable();
        all.dedup();
        let mut keep = Vec::with_capacity(all.len());
        for &i in &all {
            let mut dominated = false;
            for &j in &all {
                if i != j && self.le(i, j)? {
                    dominated = true;
                    break;
                }
            }
            if !dominated {
                keep.push(i);
            }
        }
        self.sort_games(&mut keep)?;
        let r: Rc<[GameId]> = Rc::from(keep);
        self.memo.derived().incentives.insert(g, r.clone());
        Ok(r)
    }

    /// A total order on canonical games that does not depend on the order in
    /// which games were interned: numbers ascending, then other number-up-star
    /// values by (number, ups, nim), then the rest by left stop, right stop,
    /// birthday, option counts and finally their sorted options.
    pub fn game_order(&mut self, a: GameId, b: GameId) -> CgResult<Ordering> {
        if a == b {
            return Ok(Ordering::Equal);
        }
        self.tick()?;
        let class = |s: &Store, g: GameId| match s.node(g) {
            Node::Nus(n) if n.is_number() => 0,
            Node::Nus(_) => 1,
            Node::General { .. } => 2,
        };
        let (ca, cb) = (class(self, a), class(self, b));
        if ca != cb {
            return Ok(ca.cmp(&cb));
        }
        if let (Node::Nus(x), Node::Nus(y)) = (self.node(a), self.node(b)) {
            return Ok(x
                .number
                .cmp(&y.number)
                .then(x.ups.cmp(&y.ups))
                .then(x.nim.cmp(&y.nim)));
        }
        let key = |s: &mut Store, g: GameId| -> CgResult<_> {
            Ok((s.left_stop(g)?, s.right_stop(g)?, s.birthday(g)?))
        };
        let (ka, kb) = (key(self, a)?, key(self, b)?);
        if ka != kb {
            return Ok(ka.cmp(&kb));
        }
        let (al, ar) = self.options(a);
        let (bl, br) = self.options(b);
        let by_len = al.len().cmp(&bl.len()).then(ar.len().cmp(&br.len()));
        if by_len != Ordering::Equal {
            return Ok(by_len);
        }
        for (x, y) in [(al, bl), (ar, br)] {
            let mut x = x.to_vec();
            let mut y = y.to_vec();
            self.sort_games(&mut x)?;
            self.sort_games(&mut y)?;
            for (p, q) in x.iter().zip(y.iter()) {
                let c = self.game_order(*p, *q)?;
                if c != Ordering::Equal {
                    return Ok(c);
                }
            }
        }
        // Unreachable for distinct canonical games (they differ in some option).
        Ok(a.cmp(&b))
    }

    /// Sorts by [`Store::game_order`] and removes duplicates.
    pub fn sort_games(&mut self, v: &mut Vec<GameId>) -> CgResult<()> {
        v.sort_unstable();
        v.dedup();
        // Insertion sort: the comparison can fail (interrupt), lists are short.
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && self.game_order(v[j - 1], v[j])? == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{format_game, Style};
    use expect_test::{expect, Expect};

    fn list(s: &mut Store, v: &[GameId]) -> String {
        let items: Vec<String> = v
            .iter()
            .map(|g| format_game(s, *g, Style::Ascii).unwrap())
            .collect();
        format!("[{}]", items.join(", "))
    }

    fn check(s: &mut Store, g: GameId, expect: Expect) {
        let name = format_game(s, g, Style::Ascii).unwrap();
        let l = s.left_incentives(g).unwrap();
        let r = s.right_incentives(g).unwrap();
        let all = s.incentives(g).unwrap();
        let text = format!(
            "{name}: left {} right {} incentives {}",
            list(s, &l),
            list(s, &r),
            list(s, &all)
        );
        expect.assert_eq(&text);
    }

    #[test]
    fn incentive_facts() {
        let mut s = Store::new();
        let up = s.ups(1);
        check(
            &mut s,
            up,
            expect![[r#"^: left [v] right [^*] incentives [^*]"#]],
        );
        let (one, two, three) = (s.integer(1), s.integer(2), s.integer(3));
        let inner = s.canonical(vec![two], vec![one]).unwrap();
        let g = s.canonical(vec![three], vec![inner]).unwrap();
        check(
            &mut s,
            g,
            expect!["{3||2|1}: left [{2|1||0}] right [{1,{2|1}|0}] incentives [{1,{2|1}|0}]"],
        );
        // The Right incentive strictly dominates the Left one here (same
        // thermograph, larger by an infinitesimal), so it alone is kept.
        let l = s.left_incentives(g).unwrap()[0];
        let r = s.right_incentives(g).unwrap()[0];
        assert_eq!(s.compare(l, r).unwrap(), crate::game::Relation::Less);
        // Three-stop games {x||y|z}: Δ^L = {x-z | x-y || 0} (Berlekamp–Kim §5).
        for (x, y, z) in [(5, 2, -3), (10, 0, -100), (7, 6, 1)] {
            let (gx, gy, gz) = (s.integer(x), s.integer(y), s.integer(z));
            let inner = s.canonical(vec![gy], vec![gz]).unwrap();
            let g = s.canonical(vec![gx], vec![inner]).unwrap();
            let (a, b) = (s.integer(x - z), s.integer(x - y));
            let zero = s.zero();
            let ab = s.canonical(vec![a], vec![b]).unwrap();
            let want = s.canonical(vec![ab], vec![zero]).unwrap();
            assert_eq!(s.left_incentives(g).unwrap(), vec![want]);
        }
        let star = s.star();
        check(
            &mut s,
            star,
            expect![[r#"*: left [*] right [*] incentives [*]"#]],
        );
        // Numbers have negative incentives.
        check(
            &mut s,
            three,
            expect![[r#"3: left [-1] right [] incentives [-1]"#]],
        );
        let sw = s.switch(three).unwrap();
        check(
            &mut s,
            sw,
            expect!["+-3: left [{6|0}] right [{6|0}] incentives [{6|0}]"],
        );
    }

    #[test]
    fn only_dominated_incentives_are_dropped() {
        let mut s = Store::new();
        // {2, {4|0} | -1}: the Left incentive through 2 is dominated by the
        // Right incentive; the other two are incomparable and both stay.
        let (zero, two, four, m1) = (s.zero(), s.integer(2), s.integer(4), s.integer(-1));
        let a = s.canonical(vec![four], vec![zero]).unwrap();
        let g = s.canonical(vec![two, a], vec![m1]).unwrap();
        check(
            &mut s,
            g,
            expect!["{2,{4|0}|-1}: left [{{5|1},{5|2,{4|0}}|0,{1|-2,{0|-4}}}, {3|0,+-2}] right [{3,{5|1}|0}] incentives [{{5|1},{5|2,{4|0}}|0,{1|-2,{0|-4}}}, {3,{5|1}|0}]"],
        );
        let kept = s.incentives(g).unwrap();
        assert_eq!(
            s.compare(kept[0], kept[1]).unwrap(),
            crate::game::Relation::Confused
        );
        let dropped = s.left_incentives(g).unwrap()[1];
        assert_eq!(
            s.compare(dropped, kept[1]).unwrap(),
            crate::game::Relation::Less
        );
    }
}
