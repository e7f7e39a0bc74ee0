//! Dyadic rationals `m / 2^k` of arbitrary size: the numbers of short games.
//!
//! The numerator is kept in an `i64` while it fits and spills to a `BigInt`
//! otherwise, because almost every number met in Go endgames is small and the
//! canonical-form engine compares and adds numbers in its innermost loops.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// A dyadic rational `num / 2^exp`, always in lowest terms (`num` odd when `exp > 0`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: Num,
    exp: u32,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Num {
    Small(i64),
    /// Only used when the value does not fit in an `i64`. Boxed, so that a
    /// `Dyadic` is three words, not five: number-up-star values are added and moved by
    /// value in the hottest loops.
    Big(Box<BigInt>),
}

impl Num {
    fn from_big(b: BigInt) -> Num {
        match b.to_i64() {
            Some(s) => Num::Small(s),
            None => Num::Big(Box::new(b)),
        }
    }
    fn to_big(&self) -> BigInt {
        match self {
            Num::Small(s) => BigInt::from(*s),
            Num::Big(b) => (**b).clone(),
        }
    }
    fn is_zero(&self) -> bool {
        matches!(self, Num::Small(0))
    }
    fn signum(&self) -> i32 {
        match self {
            Num::Small(s) => s.signum() as i32,
            Num::Big(b) => {
                if b.is_negative() {
                    -1
                } else {
                    1
                }
            }
        }
    }
}

impl Dyadic {
    pub fn zero() -> Dyadic {
        Dyadic {
            num: Num::Small(0),
            exp: 0,
        }
    }
    pub fn one() -> Dyadic {
        Dyadic::from_i64(1)
    }
    pub fn from_i64(n: i64) -> Dyadic {
        Dyadic {
            num: Num::Small(n),
            exp: 0,
        }
    }
    pub fn from_bigint(n: BigInt) -> Dyadic {
        Dyadic {
            num: Num::from_big(n),
            exp: 0,
        }
    }
    /// `num / 2^exp`, reduced.
    pub fn new(num: BigInt, exp: u32) -> Dyadic {
        Dyadic::normalize(num, exp)
    }
    fn normalize(mut num: BigInt, mut exp: u32) -> Dyadic {
        if num.is_zero() {
            return Dyadic::zero();
        }
        if exp > 0 {
            let tz = num.trailing_zeros().unwrap_or(0);
            let shift = (tz as u32).min(exp);
            if shift > 0 {
                num >>= shift as usize;
                exp -= shift;
            }
        }
        Dyadic {
            num: Num::from_big(num),
            exp,
        }
    }
    fn small_normalize(mut num: i64, mut exp: u32) -> Dyadic {
        if num == 0 {
            return Dyadic::zero();
        }
        let shift = num.trailing_zeros().min(exp);
        num >>= shift;
        exp -= shift;
        Dyadic {
            num: Num::Small(num),
            exp,
        }
    }

    /// Converts an exact rational; `None` when the denominator is not a power of two.
    pub fn from_rational(r: &BigRational) -> Option<Dyadic> {
        let den = r.denom();
        if den.is_zero() {
            return None;
        }
        let tz = den.trailing_zeros().unwrap_or(0);
        if (den >> tz as usize) != BigInt::one() {
            return None;
        }
        Some(Dyadic::normalize(r.numer().clone(), tz as u32))
    }
    pub fn to_rational(&self) -> BigRational {
        // Already in lowest terms (`num` odd when `exp > 0`): no gcd.
        BigRational::new_raw(self.numerator(), BigInt::one() << self.exp as usize)
    }

    pub fn numerator(&self) -> BigInt {
        self.num.to_big()
    }
    /// The numerator when it fits in an `i64`.
    pub(crate) fn small_numerator(&self) -> Option<i64> {
        match self.num {
            Num::Small(s) => Some(s),
            Num::Big(_) => None,
        }
    }
    /// The `k` of the denominator `2^k`.
    pub fn exponent(&self) -> u32 {
        self.exp
    }
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }
    pub fn is_integer(&self) -> bool {
        self.exp == 0
    }
    pub fn signum(&self) -> i32 {
        self.num.signum()
    }
    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }
    pub fn to_i64(&self) -> Option<i64> {
        match (&self.num, self.exp) {
            (Num::Small(s), 0) => Some(*s),
            _ => None,
        }
    }
    pub fn to_bigint(&self) -> Option<BigInt> {
        if self.exp == 0 {
            Some(self.num.to_big())
        } else {
            None
        }
    }

    /// Largest integer ≤ self.
    pub fn floor(&self) -> BigInt {
        let n = self.num.to_big();
        if self.exp == 0 {
            n
        } else {
            n.div_floor(&(BigInt::one() << self.exp as usize))
        }
    }
    /// Smallest integer ≥ self.
    pub fn ceil(&self) -> BigInt {
        -((-self).floor())
    }

    /// Largest integer ≤ self, as a dyadic (nothing allocated for an `i64`
    /// numerator).
    pub fn floor_dyadic(&self) -> Dyadic {
        match (&self.num, self.exp) {
            (_, 0) => self.clone(),
            // An arithmetic shift rounds towards -∞.
            (Num::Small(s), e) if e < 64 => Dyadic::from_i64(s >> e),
            (Num::Small(s), _) => Dyadic::from_i64(if *s < 0 { -1 } else { 0 }),
            (Num::Big(_), _) => Dyadic::from_bigint(self.floor()),
        }
    }
    /// Smallest integer ≥ self, as a dyadic.
    pub fn ceil_dyadic(&self) -> Dyadic {
        match (&self.num, self.exp) {
            (_, 0) => self.clone(),
            // ⌈s / 2^e⌉ = -⌊-s / 2^e⌋ = ((s - 1) >> e) + 1 for e ≥ 1 (no
            // overflow: s - 1 ≥ i64::MIN unless s = i64::MIN, which is even
            // and so never the numerator of a normalised fraction).
            (Num::Small(s), e) if e < 64 && *s != i64::MIN => Dyadic::from_i64(((s - 1) >> e) + 1),
            _ => self.neg().floor_dyadic().neg(),
        }
    }

    pub fn neg(&self) -> Dyadic {
        match &self.num {
            Num::Small(s) => match s.checked_neg() {
                Some(n) => Dyadic {
                    num: Num::Small(n),
                    exp: self.exp,
                },
                None => Dyadic::normalize(-BigInt::from(*s), self.exp),
            },
            Num::Big(b) => Dyadic::normalize(-&**b, self.exp),
        }
    }

    #[inline]
    pub fn add(&self, other: &Dyadic) -> Dyadic {
        if let (Num::Small(a), Num::Small(b)) = (&self.num, &other.num) {
            // Integers: the sum needs no normalising.
            if self.exp == 0 && other.exp == 0 {
                if let Some(s) = a.checked_add(*b) {
                    return Dyadic {
                        num: Num::Small(s),
                        exp: 0,
                    };
                }
            }
        }
        self.add_general(other)
    }

    fn add_general(&self, other: &Dyadic) -> Dyadic {
        if let (Num::Small(a), Num::Small(b)) = (&self.num, &other.num) {
            let e = self.exp.max(other.exp);
            let (sa, sb) = (e - self.exp, e - other.exp);
            if sa < 62 && sb < 62 {
                if let (Some(x), Some(y)) = (a.checked_mul(1 << sa), b.checked_mul(1 << sb)) {
                    if let Some(s) = x.checked_add(y) {
                        return Dyadic::small_normalize(s, e);
                    }
                }
            }
        }
        let e = self.exp.max(other.exp);
        let x = self.num.to_big() << (e - self.exp) as usize;
        let y = other.num.to_big() << (e - other.exp) as usize;
        Dyadic::normalize(x + y, e)
    }
    pub fn sub(&self, other: &Dyadic) -> Dyadic {
        self.add(&other.neg())
    }
    pub fn mul(&self, other: &Dyadic) -> Dyadic {
        if let (Num::Small(a), Num::Small(b)) = (&self.num, &other.num) {
            if let Some(p) = a.checked_mul(*b) {
                return Dyadic::small_normalize(p, self.exp + other.exp);
            }
        }
        Dyadic::normalize(self.num.to_big() * other.num.to_big(), self.exp + other.exp)
    }
    /// `self / 2^k`.
    pub fn half_pow(&self, k: u32) -> Dyadic {
        Dyadic::normalize(self.num.to_big(), self.exp + k)
    }
    /// `2^-k`.
    pub fn unit(k: u32) -> Dyadic {
        Dyadic {
            num: Num::Small(1),
            exp: k,
        }
    }
    /// Arithmetic mean `(a + b) / 2`.
    pub fn midpoint(&self, other: &Dyadic) -> Dyadic {
        self.add(other).half_pow(1)
    }

    /// The simplest number strictly between `lo` and `hi` (either bound may be absent).
    /// Requires `lo < hi` when both are present.
    pub fn simplest_between(lo: Option<&Dyadic>, hi: Option<&Dyadic>) -> Dyadic {
        match (lo, hi) {
            (None, None) => Dyadic::zero(),
            (Some(l), None) => {
                // Smallest integer > l, but never below 0 (0 is simplest when l < 0).
                if l.is_negative() {
                    Dyadic::zero()
                } else {
                    Dyadic::from_bigint(l.floor() + 1)
                }
            }
            (None, Some(h)) => {
                if h.is_positive() {
                    Dyadic::zero()
                } else {
                    Dyadic::from_bigint(h.ceil() - 1)
                }
            }
            (Some(l), Some(h)) => {
                debug_assert!(l < h);
                if l.is_negative() && h.is_positive() {
                    return Dyadic::zero();
                }
                // Integers strictly between: pick the one of least absolute value.
                let lo_int: BigInt = l.floor() + 1;
                let hi_int: BigInt = h.ceil() - 1;
                if lo_int <= hi_int {
                    return if lo_int.is_negative() {
                        // both bounds ≤ 0 here, so the integer closest to zero is hi_int
                        Dyadic::from_bigint(hi_int)
                    } else {
                        Dyadic::from_bigint(lo_int)
                    };
                }
                // No integer strictly between: the dyadic with the smallest denominator.
                let mut k = 1u32;
                loop {
                    let m = l.scaled_floor(k) + 1;
                    let cand = Dyadic::normalize(m, k);
                    if &cand < h {
                        return cand;
                    }
                    k += 1;
                }
            }
        }
    }
    /// `floor(self * 2^k)`.
    fn scaled_floor(&self, k: u32) -> BigInt {
        let n = self.num.to_big();
        if k >= self.exp {
            n << (k - self.exp) as usize
        } else {
            n.div_floor(&(BigInt::one() << (self.exp - k) as usize))
        }
    }

    /// The birthday of this number as a game.
    pub fn birthday(&self) -> BigInt {
        let a = self.num.to_big().abs();
        if self.exp == 0 {
            a
        } else {
            let int_part = a >> self.exp as usize;
            int_part + BigInt::from(self.exp) + 1
        }
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        if let (Num::Small(a), Num::Small(b)) = (&self.num, &other.num) {
            if self.exp == other.exp {
                return a.cmp(b);
            }
            let e = self.exp.max(other.exp);
            let (sa, sb) = (e - self.exp, e - other.exp);
            if sa < 62 && sb < 62 {
                if let (Some(x), Some(y)) = (a.checked_mul(1 << sa), b.checked_mul(1 << sb)) {
                    return x.cmp(&y);
                }
            }
        }
        let e = self.exp.max(other.exp);
        let x = self.num.to_big() << (e - self.exp) as usize;
        let y = other.num.to_big() << (e - other.exp) as usize;
        x.cmp(&y)
    }
}

impl std::ops::Neg for &Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic::neg(self)
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-5`, `21/32`: the spelling shared by CGSuite and yose input.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.num {
            Num::Small(s) => write!(f, "{s}")?,
            Num::Big(b) => write!(f, "{b}")?,
        }
        if self.exp > 0 {
            if self.exp < 63 {
                write!(f, "/{}", 1u64 << self.exp)?;
            } else {
                write!(f, "/{}", BigInt::one() << self.exp as usize)?;
            }
        }
        Ok(())
    }
}
impl fmt::Debug for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, e: u32) -> Dyadic {
        Dyadic::new(BigInt::from(n), e)
    }

    #[test]
    fn normalizes_and_prints() {
        assert_eq!(d(4, 3).to_string(), "1/2");
        assert_eq!(d(-6, 2).to_string(), "-3/2");
        assert_eq!(d(0, 5).to_string(), "0");
        assert_eq!(d(21, 5).to_string(), "21/32");
    }

    #[test]
    fn simplest_between() {
        let s = |l: Option<Dyadic>, h: Option<Dyadic>| {
            Dyadic::simplest_between(l.as_ref(), h.as_ref()).to_string()
        };
        assert_eq!(s(Some(d(5, 3)), Some(d(11, 4))), "21/32");
        assert_eq!(s(Some(d(1, 2)), Some(d(1, 0))), "1/2");
        assert_eq!(s(Some(d(1, 2)), Some(d(1, 1))), "3/8");
        assert_eq!(s(Some(d(1, 0)), None), "2");
        assert_eq!(s(None, Some(d(-3, 1))), "-2");
        assert_eq!(s(Some(d(-3, 0)), Some(d(5, 0))), "0");
        assert_eq!(s(Some(d(-5, 0)), Some(d(-2, 0))), "-3");
        assert_eq!(s(Some(d(2, 0)), Some(d(5, 0))), "3");
        assert_eq!(s(Some(d(1, 2)), Some(d(3, 0))), "1");
        assert_eq!(s(Some(d(-1, 0)), Some(d(0, 0))), "-1/2");
        assert_eq!(s(None, None), "0");
    }

    #[test]
    fn big_values_spill() {
        let big = Dyadic::from_i64(i64::MAX).add(&Dyadic::from_i64(i64::MAX));
        assert_eq!(big.to_string(), "18446744073709551614");
        assert!(big > Dyadic::from_i64(i64::MAX));
        assert_eq!(
            big.sub(&Dyadic::from_i64(i64::MAX)).to_i64(),
            Some(i64::MAX)
        );
    }

    #[test]
    fn floor_and_ceil_as_dyadics_agree_with_the_bigint_ones() {
        let big = Dyadic::new(BigInt::from(-7) << 80u32, 3);
        let mut xs = vec![big.clone(), big.neg(), d(i64::MIN, 0), d(i64::MAX, 0)];
        for n in -9..=9 {
            for e in 0..4 {
                xs.push(d(n, e));
            }
        }
        xs.push(d(-1, 70));
        xs.push(d(1, 70));
        xs.push(d(i64::MIN + 1, 63));
        // The edges of the shift formulas.
        for e in [1, 5, 62, 63, 64] {
            xs.push(d(i64::MAX, e));
            xs.push(d(i64::MIN + 1, e));
            xs.push(d(i64::MIN, e));
        }
        for x in xs {
            assert_eq!(x.floor_dyadic(), Dyadic::from_bigint(x.floor()), "{x}");
            assert_eq!(x.ceil_dyadic(), Dyadic::from_bigint(x.ceil()), "{x}");
        }
    }

    #[test]
    fn birthdays() {
        assert_eq!(d(1, 1).birthday(), BigInt::from(2));
        assert_eq!(d(3, 2).birthday(), BigInt::from(3));
        assert_eq!(d(5, 1).birthday(), BigInt::from(4));
        assert_eq!(d(-3, 0).birthday(), BigInt::from(3));
    }
}
