//! Dyadic rationals `m / 2^k` of arbitrary size: the numbers of short games.
//!
//! A `Dyadic` is one word: a small value (a numerator of up to 57 bits and
//! an exponent below 64, which is almost every number met in Go endgames) is
//! packed into the word itself, and only a larger one is boxed. Number-up-star
//! values are added and moved by value in the engine's innermost loops, and a
//! one-word number makes them three words, like a pair of plain integers and a
//! nimber (the three-word layout of a `Dyadic` made them five).
//!
//! The packing is the one `unsafe` part: the word is a `NonNull` that is either
//! a tagged small value (low bit 1, never dereferenced) or a pointer to a
//! boxed [`BigDyadic`] owned by the `Dyadic` (low bit 0: the box is aligned).
//! Which one is canonical (small whenever the value fits), so equality of two
//! small words is equality of the numbers.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ptr::NonNull;

/// A dyadic rational `num / 2^exp`, always in lowest terms (`num` odd when `exp > 0`).
pub struct Dyadic {
    /// Low bit 1: small; bits 1..7 the exponent, the rest the numerator
    /// (signed). Low bit 0: a pointer to the owned `BigDyadic`.
    word: NonNull<BigDyadic>,
}

/// A value that does not fit the small packing.
#[derive(Clone, PartialEq, Eq, Hash)]
struct BigDyadic {
    num: BigInt,
    exp: u32,
}

// The box is owned like a `Box<BigDyadic>`, which is `Send` and `Sync`.
unsafe impl Send for Dyadic {}
unsafe impl Sync for Dyadic {}

/// Bits of the word below the numerator: the tag and six bits of exponent.
const SHIFT: u32 = 7;
/// The largest exponent kept small.
const MAX_SMALL_EXP: u32 = 63;

/// The parts of a dyadic, borrowed.
enum Parts<'a> {
    Small(i64, u32),
    Big(&'a BigInt, u32),
}

impl Dyadic {
    /// `num / 2^exp` already in lowest terms, packed when it fits.
    #[inline]
    fn small(num: i64, exp: u32) -> Option<Dyadic> {
        let n = isize::try_from(num).ok()?;
        if exp > MAX_SMALL_EXP || (n << SHIFT) >> SHIFT != n {
            return None;
        }
        let bits = ((n << SHIFT) as usize) | ((exp as usize) << 1) | 1;
        // Non-zero (the tag bit) and never dereferenced.
        let word = NonNull::new(std::ptr::without_provenance_mut(bits)).expect("tag bit set");
        Some(Dyadic { word })
    }
    /// `num / 2^exp` already in lowest terms.
    #[inline]
    fn from_parts(num: i64, exp: u32) -> Dyadic {
        match Dyadic::small(num, exp) {
            Some(d) => d,
            None => Dyadic::boxed(BigInt::from(num), exp),
        }
    }
    /// `num / 2^exp` already in lowest terms.
    fn from_big_parts(num: BigInt, exp: u32) -> Dyadic {
        if let Some(d) = num.to_i64().and_then(|n| Dyadic::small(n, exp)) {
            return d;
        }
        Dyadic::boxed(num, exp)
    }
    fn boxed(num: BigInt, exp: u32) -> Dyadic {
        let word = NonNull::from(Box::leak(Box::new(BigDyadic { num, exp })));
        debug_assert!(word.as_ptr().addr() & 1 == 0);
        Dyadic { word }
    }
    #[inline]
    fn is_small(&self) -> bool {
        self.word.as_ptr().addr() & 1 == 1
    }
    #[inline]
    fn small_parts(&self) -> Option<(i64, u32)> {
        if self.is_small() {
            let bits = self.word.as_ptr().addr();
            Some((
                ((bits as isize) >> SHIFT) as i64,
                ((bits >> 1) as u32) & MAX_SMALL_EXP,
            ))
        } else {
            None
        }
    }
    #[inline]
    fn big(&self) -> Option<&BigDyadic> {
        if self.is_small() {
            None
        } else {
            // A word with the low bit clear is the pointer this `Dyadic` owns.
            Some(unsafe { self.word.as_ref() })
        }
    }
    #[inline]
    fn parts(&self) -> Parts<'_> {
        match self.small_parts() {
            Some((n, e)) => Parts::Small(n, e),
            None => {
                let b = self.big().expect("not small");
                Parts::Big(&b.num, b.exp)
            }
        }
    }
    #[inline]
    fn to_big(&self) -> BigInt {
        match self.parts() {
            Parts::Small(n, _) => BigInt::from(n),
            Parts::Big(b, _) => b.clone(),
        }
    }

    #[inline]
    pub fn zero() -> Dyadic {
        Dyadic::from_parts(0, 0)
    }
    #[inline]
    pub fn one() -> Dyadic {
        Dyadic::from_i64(1)
    }
    #[inline]
    pub fn from_i64(n: i64) -> Dyadic {
        Dyadic::from_parts(n, 0)
    }
    pub fn from_bigint(n: BigInt) -> Dyadic {
        Dyadic::from_big_parts(n, 0)
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
        Dyadic::from_big_parts(num, exp)
    }
    #[inline]
    fn small_normalize(mut num: i64, mut exp: u32) -> Dyadic {
        if num == 0 {
            return Dyadic::zero();
        }
        let shift = num.trailing_zeros().min(exp);
        num >>= shift;
        exp -= shift;
        Dyadic::from_parts(num, exp)
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
    #[inline]
    pub fn to_rational(&self) -> BigRational {
        // Already in lowest terms (`num` odd when `exp > 0`): no gcd.
        BigRational::new_raw(self.numerator(), BigInt::one() << self.exponent() as usize)
    }

    #[inline]
    pub fn numerator(&self) -> BigInt {
        self.to_big()
    }
    /// The numerator when it fits in an `i64`.
    #[inline]
    pub(crate) fn small_numerator(&self) -> Option<i64> {
        match self.parts() {
            Parts::Small(n, _) => Some(n),
            Parts::Big(b, _) => b.to_i64(),
        }
    }
    /// The `k` of the denominator `2^k`.
    #[inline]
    pub fn exponent(&self) -> u32 {
        match self.parts() {
            Parts::Small(_, e) | Parts::Big(_, e) => e,
        }
    }
    #[inline]
    pub fn is_zero(&self) -> bool {
        matches!(self.small_parts(), Some((0, _)))
    }
    #[inline]
    pub fn is_integer(&self) -> bool {
        self.exponent() == 0
    }
    #[inline]
    pub fn signum(&self) -> i32 {
        match self.parts() {
            Parts::Small(n, _) => n.signum() as i32,
            Parts::Big(b, _) => {
                if b.is_negative() {
                    -1
                } else {
                    1
                }
            }
        }
    }
    #[inline]
    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }
    #[inline]
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }
    #[inline]
    pub fn to_i64(&self) -> Option<i64> {
        match self.parts() {
            Parts::Small(n, 0) => Some(n),
            Parts::Big(b, 0) => b.to_i64(),
            _ => None,
        }
    }
    pub fn to_bigint(&self) -> Option<BigInt> {
        if self.exponent() == 0 {
            Some(self.to_big())
        } else {
            None
        }
    }

    /// Largest integer ≤ self.
    pub fn floor(&self) -> BigInt {
        let (n, e) = (self.to_big(), self.exponent());
        if e == 0 {
            n
        } else {
            n.div_floor(&(BigInt::one() << e as usize))
        }
    }
    /// Smallest integer ≥ self.
    pub fn ceil(&self) -> BigInt {
        -((-self).floor())
    }

    /// Largest integer ≤ self, as a dyadic (nothing allocated for an `i64`
    /// numerator).
    pub fn floor_dyadic(&self) -> Dyadic {
        match self.parts() {
            Parts::Small(_, 0) | Parts::Big(_, 0) => self.clone(),
            // An arithmetic shift rounds towards -∞ (e ≤ 63 for a small value).
            Parts::Small(s, e) => Dyadic::from_i64(s >> e),
            Parts::Big(..) => Dyadic::from_bigint(self.floor()),
        }
    }
    /// Smallest integer ≥ self, as a dyadic.
    pub fn ceil_dyadic(&self) -> Dyadic {
        match self.parts() {
            Parts::Small(_, 0) | Parts::Big(_, 0) => self.clone(),
            // ⌈s / 2^e⌉ = -⌊-s / 2^e⌋ = ((s - 1) >> e) + 1 for e ≥ 1 (no
            // overflow: a small numerator has at most 57 bits).
            Parts::Small(s, e) => Dyadic::from_i64(((s - 1) >> e) + 1),
            Parts::Big(..) => self.neg().floor_dyadic().neg(),
        }
    }

    #[inline]
    pub fn neg(&self) -> Dyadic {
        match self.parts() {
            // A small numerator has at most 57 bits: its negation fits in an i64.
            Parts::Small(s, e) => Dyadic::from_parts(-s, e),
            Parts::Big(b, e) => Dyadic::from_big_parts(-b, e),
        }
    }

    #[inline]
    pub fn add(&self, other: &Dyadic) -> Dyadic {
        // Two small integers: the word of the sum is the sum of the words
        // less one tag, and it overflows an i64 exactly when the sum
        // leaves the small range.
        let (a, b) = (self.word.as_ptr().addr(), other.word.as_ptr().addr());
        let int_tag = (MAX_SMALL_EXP as usize) << 1 | 1;
        if a & int_tag == 1 && b & int_tag == 1 {
            if let Some(s) = ((a ^ 1) as isize).checked_add(b as isize) {
                let word = NonNull::new(std::ptr::without_provenance_mut(s as usize))
                    .expect("tag bit set");
                return Dyadic { word };
            }
        }
        self.add_general(other)
    }

    fn add_general(&self, other: &Dyadic) -> Dyadic {
        if let (Some((a, ea)), Some((b, eb))) = (self.small_parts(), other.small_parts()) {
            // 57-bit numerators shifted by at most 5 bits cannot overflow
            // (the common case: exponents close to each other).
            let e = ea.max(eb);
            let (sa, sb) = (e - ea, e - eb);
            if sa < 62 && sb < 62 {
                if let (Some(x), Some(y)) = (a.checked_mul(1 << sa), b.checked_mul(1 << sb)) {
                    if let Some(s) = x.checked_add(y) {
                        return Dyadic::small_normalize(s, e);
                    }
                }
            }
        }
        let (ea, eb) = (self.exponent(), other.exponent());
        let e = ea.max(eb);
        let x = self.to_big() << (e - ea) as usize;
        let y = other.to_big() << (e - eb) as usize;
        Dyadic::normalize(x + y, e)
    }
    #[inline]
    pub fn sub(&self, other: &Dyadic) -> Dyadic {
        self.add(&other.neg())
    }
    pub fn mul(&self, other: &Dyadic) -> Dyadic {
        if let (Some((a, ea)), Some((b, eb))) = (self.small_parts(), other.small_parts()) {
            if let Some(p) = a.checked_mul(b) {
                return Dyadic::small_normalize(p, ea + eb);
            }
        }
        Dyadic::normalize(
            self.to_big() * other.to_big(),
            self.exponent() + other.exponent(),
        )
    }
    /// `self / 2^k`.
    pub fn half_pow(&self, k: u32) -> Dyadic {
        Dyadic::normalize(self.to_big(), self.exponent() + k)
    }
    /// `2^-k`.
    pub fn unit(k: u32) -> Dyadic {
        Dyadic::from_parts(1, k)
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
            // 0 first: the common case of the atomic-weight calculus.
            (Some(l), Some(h)) if l.is_negative() && h.is_positive() => Dyadic::zero(),
            (Some(l), Some(h)) => match (l.small_parts(), h.small_parts()) {
                (Some(l), Some(h)) => Dyadic::simplest_between_small(l, h),
                _ => Dyadic::simplest_between_big(l, h),
            },
        }
    }

    /// [`Dyadic::simplest_between`] of two small values `ln / 2^le <
    /// hn / 2^he` in machine words: the same steps as
    /// [`Dyadic::simplest_between_big`] (0, else the integer of least
    /// absolute value strictly between, else the least denominator), on the
    /// numerators scaled to the common exponent `e ≤ 63` (below `2^121` in
    /// magnitude, so `i128` holds every product).
    fn simplest_between_small((ln, le): (i64, u32), (hn, he): (i64, u32)) -> Dyadic {
        if ln < 0 && hn > 0 {
            return Dyadic::zero();
        }
        // ⌊l⌋ + 1 and ⌈h⌉ - 1 (an arithmetic shift rounds towards -∞).
        let (lo_int, hi_int) = ((ln >> le) + 1, (hn - 1) >> he);
        if lo_int <= hi_int {
            return Dyadic::from_i64(if lo_int < 0 { hi_int } else { lo_int });
        }
        let e = le.max(he);
        let (l, h) = ((ln as i128) << (e - le), (hn as i128) << (e - he));
        // The least `k` with `m / 2^k < h`, `m = ⌊l·2^k⌋ + 1`; at `k = e + 1`
        // it is `(2l + 1) / 2^(e+1) < (l + 1) / 2^e ≤ h`.
        for k in 1..=e {
            let m = (l >> (e - k)) + 1;
            if m << (e - k) < h {
                return Dyadic::from_i128_parts(m, k);
            }
        }
        Dyadic::from_i128_parts(2 * l + 1, e + 1)
    }

    /// `m / 2^k` in lowest terms.
    fn from_i128_parts(m: i128, k: u32) -> Dyadic {
        match i64::try_from(m) {
            Ok(m) => Dyadic::small_normalize(m, k),
            Err(_) => Dyadic::normalize(BigInt::from(m), k),
        }
    }

    /// [`Dyadic::simplest_between`] of `l < h` in big integers.
    fn simplest_between_big(l: &Dyadic, h: &Dyadic) -> Dyadic {
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
    /// `floor(self * 2^k)`.
    fn scaled_floor(&self, k: u32) -> BigInt {
        let (n, e) = (self.to_big(), self.exponent());
        if k >= e {
            n << (k - e) as usize
        } else {
            n.div_floor(&(BigInt::one() << (e - k) as usize))
        }
    }

    /// The birthday of this number as a game.
    pub fn birthday(&self) -> BigInt {
        let (a, e) = (self.to_big().abs(), self.exponent());
        if e == 0 {
            a
        } else {
            let int_part = a >> e as usize;
            int_part + BigInt::from(e) + 1
        }
    }
}

impl Drop for Dyadic {
    #[inline]
    fn drop(&mut self) {
        if !self.is_small() {
            self.drop_big();
        }
    }
}

impl Dyadic {
    #[cold]
    #[inline(never)]
    fn drop_big(&mut self) {
        // The pointer came from `Box::leak` in `boxed` and is owned here.
        drop(unsafe { Box::from_raw(self.word.as_ptr()) });
    }
}

impl Clone for Dyadic {
    #[inline]
    fn clone(&self) -> Dyadic {
        match self.big() {
            None => Dyadic { word: self.word },
            Some(b) => Dyadic::boxed(b.num.clone(), b.exp),
        }
    }
}

impl PartialEq for Dyadic {
    #[inline]
    fn eq(&self, other: &Dyadic) -> bool {
        match (self.big(), other.big()) {
            (Some(a), Some(b)) => a == b,
            // Small iff the value fits: a small word equals only itself.
            _ => self.word == other.word,
        }
    }
}
impl Eq for Dyadic {}

impl Hash for Dyadic {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self.big() {
            None => state.write_usize(self.word.as_ptr().addr()),
            Some(b) => b.hash(state),
        }
    }
}

impl PartialOrd for Dyadic {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Dyadic {
    /// Equal words (a small value is one word) and two small values of one
    /// exponent (integers above all) inline; the rest out of line, so that
    /// the common cases cost a few instructions where they are inlined (the
    /// order's stop test compares stops at every step, most often equal).
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        if self.word == other.word {
            return Ordering::Equal;
        }
        if let (Some((a, ea)), Some((b, eb))) = (self.small_parts(), other.small_parts()) {
            if ea == eb {
                return a.cmp(&b);
            }
        }
        self.cmp_other_exponents(other)
    }
}

impl Dyadic {
    /// [`Ord::cmp`] of two values not both small with one exponent.
    #[inline(never)]
    fn cmp_other_exponents(&self, other: &Self) -> Ordering {
        if let (Some((a, ea)), Some((b, eb))) = (self.small_parts(), other.small_parts()) {
            let e = ea.max(eb);
            let (sa, sb) = (e - ea, e - eb);
            if sa < 62 && sb < 62 {
                if let (Some(x), Some(y)) = (a.checked_mul(1 << sa), b.checked_mul(1 << sb)) {
                    return x.cmp(&y);
                }
            }
        }
        let (ea, eb) = (self.exponent(), other.exponent());
        let e = ea.max(eb);
        let x = self.to_big() << (e - ea) as usize;
        let y = other.to_big() << (e - eb) as usize;
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
        let e = match self.parts() {
            Parts::Small(s, e) => {
                write!(f, "{s}")?;
                e
            }
            Parts::Big(b, e) => {
                write!(f, "{b}")?;
                e
            }
        };
        if e > 0 {
            if e < 63 {
                write!(f, "/{}", 1u64 << e)?;
            } else {
                write!(f, "/{}", BigInt::one() << e as usize)?;
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

    /// The machine-word path of `simplest_between` against the big-integer
    /// one, on every ordered pair of a grid of small values and of values
    /// at the ends of the small range (57-bit numerators, exponents up to 63).
    #[test]
    fn simplest_between_small_agrees_with_the_big_path() {
        let big = (1i64 << 56) - 1;
        let mut xs: Vec<Dyadic> = Vec::new();
        for e in 0..=4 {
            xs.extend((-20..=20).map(|n| d(n, e)));
        }
        for (n, e) in [
            (big, 0),
            (-big, 0),
            (big, 63),
            (-big, 63),
            (1, 63),
            (-1, 63),
            (3, 62),
        ] {
            xs.extend([d(n, e), d(n - 2, e), d((n / 3) | 1, e)]);
        }
        xs.extend([d(big, 7), d(big - 1, 8), d(1, 40), d(3, 41), d(-5, 33)]);
        let mut checked = 0;
        for l in &xs {
            for h in &xs {
                if l >= h || !(l.is_small() && h.is_small()) {
                    continue;
                }
                let fast = Dyadic::simplest_between(Some(l), Some(h));
                assert_eq!(fast, Dyadic::simplest_between_big(l, h), "{l} < {h}");
                checked += 1;
            }
        }
        assert!(checked > 10_000);
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

    #[test]
    fn a_small_dyadic_is_one_word() {
        assert_eq!(std::mem::size_of::<Dyadic>(), std::mem::size_of::<usize>());
        assert_eq!(
            std::mem::size_of::<Option<Dyadic>>(),
            std::mem::size_of::<usize>()
        );
    }

    /// Numerators around the edges of the packing (57 bits), of an `i64`,
    /// and beyond; exponents around the largest small one.
    fn numerator() -> impl proptest::strategy::Strategy<Value = BigInt> {
        use proptest::prelude::*;
        prop_oneof![
            (-40i64..=40).prop_map(BigInt::from),
            (0u32..=90, -3i64..=3, any::<bool>()).prop_map(|(k, off, neg)| {
                let n = (BigInt::one() << k as usize) + off;
                if neg {
                    -n
                } else {
                    n
                }
            }),
        ]
    }

    fn dyadic() -> impl proptest::strategy::Strategy<Value = Dyadic> {
        use proptest::prelude::*;
        (numerator(), prop_oneof![0u32..=4, 58u32..=70]).prop_map(|(n, e)| Dyadic::new(n, e))
    }

    fn hash_of(x: &Dyadic) -> u64 {
        use std::collections::hash_map::DefaultHasher;
        let mut h = DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    }

    proptest::proptest! {
        /// The packed arithmetic against exact rationals: every operation,
        /// on both sides of the small/boxed boundary, gives the rational
        /// result, in lowest terms, in its canonical (small when it fits)
        /// form, so equality and hashing are those of the numbers.
        #[test]
        fn packed_arithmetic_is_rational_arithmetic(a in dyadic(), b in dyadic()) {
            let (ra, rb) = (a.to_rational(), b.to_rational());
            let canon = |x: &Dyadic, r: &BigRational| {
                proptest::prop_assert_eq!(&x.to_rational(), r);
                let rebuilt = Dyadic::new(r.numer().clone(), r.denom().trailing_zeros().unwrap_or(0) as u32);
                proptest::prop_assert_eq!(x, &rebuilt);
                proptest::prop_assert_eq!(hash_of(x), hash_of(&rebuilt));
                proptest::prop_assert_eq!(
                    x.is_small(),
                    x.numerator().to_i64().is_some_and(|n| Dyadic::small(n, x.exponent()).is_some())
                );
                Ok(())
            };
            canon(&a.add(&b), &(&ra + &rb))?;
            canon(&a.sub(&b), &(&ra - &rb))?;
            canon(&a.mul(&b), &(&ra * &rb))?;
            canon(&a.neg(), &-&ra)?;
            canon(&a.half_pow(3), &(&ra / BigRational::from_integer(BigInt::from(8))))?;
            canon(&a.clone(), &ra)?;
            canon(&a.floor_dyadic(), &BigRational::from_integer(ra.floor().to_integer()))?;
            canon(&a.ceil_dyadic(), &BigRational::from_integer(ra.ceil().to_integer()))?;
            proptest::prop_assert_eq!(a.cmp(&b), ra.cmp(&rb));
            proptest::prop_assert_eq!(a == b, ra == rb);
            proptest::prop_assert_eq!(a.signum(), if ra.is_zero() { 0 } else if ra.is_negative() { -1 } else { 1 });
            proptest::prop_assert_eq!(a.to_i64(), if ra.is_integer() { ra.to_integer().to_i64() } else { None });
            proptest::prop_assert_eq!(a.small_numerator(), ra.numer().to_i64());
            let shown = if ra.is_integer() { ra.numer().to_string() } else { format!("{}/{}", ra.numer(), ra.denom()) };
            proptest::prop_assert_eq!(a.to_string(), shown);
        }
    }
}
