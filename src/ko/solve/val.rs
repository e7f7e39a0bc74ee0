//! Search values of the ko solver: exact rationals with a fixed-point fast
//! path.
//!
//! Every value the search meets is a sum of numbers of short games (dyadic),
//! of edge gains and of counts (means of short games, dyadic; komaster means
//! of kos, rationals — a simple ko's are thirds). [`Val::S`] holds `n / D`
//! with the fixed denominator `D = 2^40 · 3^2 · 5 · 7 · 11 · 13`, an `i128`
//! numerator: adding and comparing such values is integer arithmetic. A value
//! with another denominator, or too large for the numerator, is kept as a
//! [`BigRational`] ([`Val::B`]), so nothing is ever rounded: the fast path is
//! only a representation. The representation is canonical (a value is `S`
//! whenever it can be), so equal values compare equal either way.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

/// The fixed denominator of [`Val::S`].
const D: i128 = (1i128 << 40) * 9 * 5 * 7 * 11 * 13;
/// Numerators of `S` stay below this in magnitude, so that adding two never
/// overflows before the check.
const LIMIT: i128 = 1i128 << 120;

#[derive(Clone)]
pub(in crate::ko) enum Val {
    /// `n / D`.
    S(i128),
    /// Any other rational.
    B(Rc<BigRational>),
}

impl Val {
    pub fn zero() -> Val {
        Val::S(0)
    }

    /// The smallest positive `S` value, `1 / D`.
    pub fn unit() -> Val {
        Val::S(1)
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Val::S(0))
    }

    fn small(n: i128) -> Option<Val> {
        (-LIMIT < n && n < LIMIT).then_some(Val::S(n))
    }

    pub fn from_q(q: &BigRational) -> Val {
        let d = BigInt::from(D);
        let (m, r) = d.div_rem(q.denom());
        if r.is_zero() {
            if let Some(n) = (q.numer() * m).to_i128().and_then(Val::small) {
                return n;
            }
        }
        Val::B(Rc::new(q.clone()))
    }

    pub fn to_q(&self) -> BigRational {
        match self {
            Val::S(n) => BigRational::new(BigInt::from(*n), BigInt::from(D)),
            Val::B(q) => (**q).clone(),
        }
    }

    fn big(&self, other: &Val, f: impl Fn(BigRational, BigRational) -> BigRational) -> Val {
        Val::from_q(&f(self.to_q(), other.to_q()))
    }

    pub fn add(&self, other: &Val) -> Val {
        if let (Val::S(a), Val::S(b)) = (self, other) {
            if let Some(v) = Val::small(a + b) {
                return v;
            }
        }
        self.big(other, |a, b| a + b)
    }

    pub fn sub(&self, other: &Val) -> Val {
        if let (Val::S(a), Val::S(b)) = (self, other) {
            if let Some(v) = Val::small(a - b) {
                return v;
            }
        }
        self.big(other, |a, b| a - b)
    }
}

impl Default for Val {
    fn default() -> Val {
        Val::zero()
    }
}

impl PartialEq for Val {
    fn eq(&self, other: &Val) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Val {}

impl PartialOrd for Val {
    fn partial_cmp(&self, other: &Val) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Val {
    fn cmp(&self, other: &Val) -> Ordering {
        match (self, other) {
            (Val::S(a), Val::S(b)) => a.cmp(b),
            _ => self.to_q().cmp(&other.to_q()),
        }
    }
}

impl fmt::Debug for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_q())
    }
}

impl std::ops::Add<&Val> for &Val {
    type Output = Val;
    fn add(self, o: &Val) -> Val {
        Val::add(self, o)
    }
}

impl std::ops::Add<&Val> for Val {
    type Output = Val;
    fn add(self, o: &Val) -> Val {
        Val::add(&self, o)
    }
}

impl std::ops::Sub<&Val> for &Val {
    type Output = Val;
    fn sub(self, o: &Val) -> Val {
        Val::sub(self, o)
    }
}

impl std::ops::AddAssign<&Val> for Val {
    fn add_assign(&mut self, o: &Val) {
        *self = Val::add(self, o);
    }
}

impl std::ops::AddAssign<Val> for Val {
    fn add_assign(&mut self, o: Val) {
        *self = Val::add(self, &o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn round_trips_and_arithmetic_agree_with_rationals() {
        let cases = [
            q(0, 1),
            q(7, 3),
            q(-5, 1024),
            q(1, 1 << 45),
            q(3, 17),
            q(i64::MAX, 1),
            q(-1, 3 * 5 * 7),
        ];
        for a in &cases {
            let va = Val::from_q(a);
            assert_eq!(&va.to_q(), a);
            for b in &cases {
                let vb = Val::from_q(b);
                assert_eq!((&va + &vb).to_q(), a + b);
                assert_eq!((&va - &vb).to_q(), a - b);
                assert_eq!(va.cmp(&vb), a.cmp(b));
                assert_eq!(va == vb, a == b);
            }
        }
        assert!(matches!(Val::from_q(&q(7, 3)), Val::S(_)));
        assert!(matches!(Val::from_q(&q(3, 17)), Val::B(_)));
        assert!(matches!(Val::from_q(&q(1, 1 << 45)), Val::B(_)));
        // A sum of two non-`S` values that is representable comes back as `S`.
        let s = &Val::from_q(&q(3, 17)) + &Val::from_q(&q(-3, 17));
        assert!(matches!(s, Val::S(0)));
        let big = Val::from_q(&(q(1, 1) * BigRational::from_integer(BigInt::from(1) << 100)));
        assert!(matches!(big, Val::B(_)));
        assert_eq!((&big - &big), Val::zero());
    }
}
