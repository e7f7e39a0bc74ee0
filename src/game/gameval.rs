//! [`GameVal`]: a game held outside the store while it is a number-up-star
//! value, interned only when an operation needs a general game node.
//!
//! Sums of numbers, ups and nimbers are the bulk of what a user adds up, and
//! interning every partial sum (a hash probe and a node push per addition)
//! made them several times slower than adding three fields. A `GameVal`
//! adds, negates and compares number-up-star values by their parameters and
//! goes through the store ([`Store::intern_val`]) only when the other operand
//! is a general game or the operation (canonical form of `{L | R}`,
//! thermograph, …) needs ids.
//!
//! Invariant: `GameVal::Id(g)` never holds a number-up-star node (constructors
//! go through [`Store::val`]), so the derived equality is game equality, as it
//! is for ids.

use super::ops::{checked_ups, nus_le};
use super::store::{CgResult, GameId, Node, Nus, Store};

/// A canonical game: a number-up-star value by its parameters, or the id of
/// an interned general game.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum GameVal {
    Nus(Nus),
    /// A general node `{L | R}` (never a number-up-star value).
    Id(GameId),
}

impl GameVal {
    pub fn as_nus(&self) -> Option<&Nus> {
        match self {
            GameVal::Nus(n) => Some(n),
            GameVal::Id(_) => None,
        }
    }
}

/// `a + b` for number-up-star values (fails only past 2^63 ups).
#[inline]
pub fn nus_add(a: &Nus, b: &Nus) -> CgResult<Nus> {
    // The check first, so that the number is built straight into the
    // result (built before a possible early return, it was built on the
    // stack and copied: a stalled store-to-load forward in the hot loop).
    let ups = checked_ups(a.ups.checked_add(b.ups))?;
    Ok(Nus {
        number: a.number.add(&b.number),
        ups,
        nim: a.nim ^ b.nim,
    })
}

/// `-a` for a number-up-star value whose `ups` is not `i64::MIN` (sums never
/// make that value: they go through `checked_ups`).
#[inline]
pub fn nus_neg(a: &Nus) -> Nus {
    Nus {
        number: a.number.neg(),
        ups: a.ups.wrapping_neg(),
        nim: a.nim,
    }
}

impl Store {
    /// The value of an interned game, out of the store when it is
    /// number-up-star.
    pub fn val(&self, g: GameId) -> GameVal {
        match self.node(g) {
            Node::Nus(n) => GameVal::Nus(n.clone()),
            Node::General { .. } => GameVal::Id(g),
        }
    }

    /// The id of a value (interning a number-up-star value).
    pub fn intern_val(&mut self, v: &GameVal) -> GameId {
        match v {
            GameVal::Nus(n) => self.nus(n.clone()),
            GameVal::Id(g) => *g,
        }
    }

    /// `a + b`; two number-up-star values are added without the store.
    #[inline]
    pub fn add_val(&mut self, a: &GameVal, b: &GameVal) -> CgResult<GameVal> {
        if let (GameVal::Nus(x), GameVal::Nus(y)) = (a, b) {
            return Ok(GameVal::Nus(nus_add(x, y)?));
        }
        let (g, h) = (self.intern_val(a), self.intern_val(b));
        let s = self.add(g, h)?;
        Ok(self.val(s))
    }

    /// `-a`.
    pub fn neg_val(&mut self, a: &GameVal) -> GameVal {
        match a {
            GameVal::Nus(n) if n.ups != i64::MIN => GameVal::Nus(nus_neg(n)),
            _ => {
                let g = self.intern_val(a);
                let n = self.neg(g);
                self.val(n)
            }
        }
    }

    /// `a - b`.
    pub fn sub_val(&mut self, a: &GameVal, b: &GameVal) -> CgResult<GameVal> {
        let nb = self.neg_val(b);
        self.add_val(a, &nb)
    }

    /// `a ≤ b`; two number-up-star values are compared by their parameters.
    pub fn le_val(&mut self, a: &GameVal, b: &GameVal) -> CgResult<bool> {
        if let (GameVal::Nus(x), GameVal::Nus(y)) = (a, b) {
            return Ok(nus_le(x, y));
        }
        let (g, h) = (self.intern_val(a), self.intern_val(b));
        self.le(g, h)
    }

    /// The canonical form of `{left | right}` (options canonical).
    pub fn canonical_val(&mut self, left: &[GameVal], right: &[GameVal]) -> CgResult<GameVal> {
        let l: Vec<GameId> = left.iter().map(|v| self.intern_val(v)).collect();
        let r: Vec<GameId> = right.iter().map(|v| self.intern_val(v)).collect();
        let g = self.canonical(l, r)?;
        Ok(self.val(g))
    }

    /// `parts[0] + parts[1] + …`: the number-up-star parts are added by
    /// their parameters, the rest through the store (in one sum).
    pub fn sum_val(&mut self, parts: &[GameVal]) -> CgResult<GameVal> {
        let mut nus: Option<Nus> = None;
        let mut rest: Vec<GameId> = Vec::new();
        for p in parts {
            match p {
                GameVal::Nus(n) => {
                    nus = Some(match nus {
                        None => n.clone(),
                        Some(acc) => nus_add(&acc, n)?,
                    })
                }
                GameVal::Id(g) => rest.push(*g),
            }
        }
        if rest.is_empty() {
            return Ok(GameVal::Nus(
                nus.unwrap_or_else(|| Nus::number(super::Dyadic::zero())),
            ));
        }
        if let Some(n) = nus {
            let g = self.nus(n);
            rest.push(g);
        }
        let s = self.sum(&rest)?;
        Ok(self.val(s))
    }
}

#[cfg(test)]
mod tests {
    //! The out-of-store path against the interned one: every operation on
    //! [`GameVal`]s, run on random programs over number-up-star values and
    //! general games, gives the game the id operations give (`Store::add` on
    //! two number-up-star ids interns the sum, the path every sum took
    //! before `GameVal`).
    use super::super::testkit::{build, number_or_nus, trees, Tree};
    use super::*;
    use proptest::prelude::*;

    fn leaf() -> BoxedStrategy<Tree> {
        number_or_nus((-8i64..=8).boxed(), (-4..=4, -3..=3, 0..5))
    }

    /// Mostly number-up-star leaves, sometimes a general game.
    fn operand() -> BoxedStrategy<Tree> {
        prop_oneof![4 => leaf(), 1 => trees(2, leaf(), 2, 1..3)].boxed()
    }

    #[derive(Clone, Debug)]
    enum Op {
        Add(usize, usize),
        Sub(usize, usize),
        Neg(usize),
        Le(usize, usize),
        Game(Vec<usize>, Vec<usize>),
        Sum(Vec<usize>),
    }

    fn op() -> impl Strategy<Value = Op> {
        let i = 0usize..64;
        let few = prop::collection::vec(0usize..64, 0..3);
        prop_oneof![
            4 => (i.clone(), i.clone()).prop_map(|(a, b)| Op::Add(a, b)),
            2 => (i.clone(), i.clone()).prop_map(|(a, b)| Op::Sub(a, b)),
            1 => i.clone().prop_map(Op::Neg),
            2 => (i.clone(), i.clone()).prop_map(|(a, b)| Op::Le(a, b)),
            1 => (few.clone(), few).prop_map(|(l, r)| Op::Game(l, r)),
            1 => prop::collection::vec(i, 0..5).prop_map(Op::Sum),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn values_agree_with_the_interned_path(
            start in prop::collection::vec(operand(), 1..5),
            program in prop::collection::vec(op(), 1..40),
        ) {
            let mut s = Store::new();
            let mut ids: Vec<GameId> = start.iter().map(|t| build(&mut s, t)).collect();
            let mut vals: Vec<GameVal> = ids.iter().map(|&g| s.val(g)).collect();
            for op in &program {
                let n = ids.len();
                let (id, val) = match op {
                    Op::Add(a, b) => {
                        let (a, b) = (a % n, b % n);
                        (s.add(ids[a], ids[b]).unwrap(), s.add_val(&vals[a], &vals[b]).unwrap())
                    }
                    Op::Sub(a, b) => {
                        let (a, b) = (a % n, b % n);
                        (s.sub(ids[a], ids[b]).unwrap(), s.sub_val(&vals[a], &vals[b]).unwrap())
                    }
                    Op::Neg(a) => (s.neg(ids[a % n]), s.neg_val(&vals[a % n])),
                    Op::Le(a, b) => {
                        let (a, b) = (a % n, b % n);
                        let old = s.le(ids[a], ids[b]).unwrap();
                        prop_assert_eq!(s.le_val(&vals[a], &vals[b]).unwrap(), old);
                        continue;
                    }
                    Op::Game(l, r) => {
                        let li: Vec<GameId> = l.iter().map(|i| ids[i % n]).collect();
                        let ri: Vec<GameId> = r.iter().map(|i| ids[i % n]).collect();
                        let lv: Vec<GameVal> = l.iter().map(|i| vals[i % n].clone()).collect();
                        let rv: Vec<GameVal> = r.iter().map(|i| vals[i % n].clone()).collect();
                        (s.canonical(li, ri).unwrap(), s.canonical_val(&lv, &rv).unwrap())
                    }
                    Op::Sum(parts) => {
                        // The old path: one addition (one interned partial sum) at a time.
                        let mut acc = s.zero();
                        for i in parts {
                            acc = s.add(acc, ids[i % n]).unwrap();
                        }
                        let pi: Vec<GameId> = parts.iter().map(|i| ids[i % n]).collect();
                        prop_assert_eq!(s.sum(&pi).unwrap(), acc);
                        let pv: Vec<GameVal> = parts.iter().map(|i| vals[i % n].clone()).collect();
                        (acc, s.sum_val(&pv).unwrap())
                    }
                };
                // The invariant: an `Id` is never a number-up-star node.
                if let GameVal::Id(g) = &val {
                    prop_assert!(s.as_nus(*g).is_none());
                }
                prop_assert_eq!(&s.val(id), &val);
                prop_assert_eq!(s.intern_val(&val), id);
                ids.push(id);
                vals.push(val);
            }
        }
    }

    #[test]
    fn a_thousand_ups_never_enter_the_store() {
        let mut s = Store::new();
        let before = s.len();
        let up = GameVal::Nus(Nus {
            number: super::super::Dyadic::zero(),
            ups: 1,
            nim: 0,
        });
        let mut acc = s.val(s.zero());
        for _ in 0..1000 {
            acc = s.add_val(&acc, &up).unwrap();
        }
        assert_eq!(s.len(), before);
        let g = s.intern_val(&acc);
        let thousand = s.ups(1000);
        assert_eq!(g, thousand);
    }

    #[test]
    fn too_many_ups_is_an_error_not_an_overflow() {
        let mut s = Store::new();
        let big = GameVal::Nus(Nus {
            number: super::super::Dyadic::zero(),
            ups: i64::MAX,
            nim: 0,
        });
        let up = s.ups(1);
        let up = s.val(up);
        assert!(s.add_val(&big, &up).is_err());
        let (b, u) = (s.intern_val(&big), s.intern_val(&up));
        assert!(s.add(b, u).is_err());
    }
}
