//! Thermographs, temperature and mean (Berlekamp; Siegel, *Combinatorial Game
//! Theory*, §II.5; Berlekamp–Conway–Guy, *Winning Ways*, ch. 6).
//!
//! A wall is an exact continuous piecewise-linear function of the temperature
//! `t` on `[-1, ∞)` with rational breakpoints ([`Wall`]). For short games every
//! slope is `0` or `±1`, but nothing here depends on that, so the komaster
//! thermographs of kos (rational slopes) can reuse the type.
//!
//! Definition implemented (for a canonical short game `G`):
//! * a number `x` has both walls the vertical mast `x` for `t ≥ -1`; its
//!   *temperature* is nevertheless `-1` for an integer and `-1/2^k` for
//!   `m/2^k` (`m` odd, `k ≥ 1`), the usual convention (Siegel §II.5;
//!   the usual convention), so that `t(x) < 0 ≤ t(G)` for every non-number `G`;
//! * otherwise the *scaffolds* are `λ(t) = max over G^L of (RW_{G^L}(t) - t)` and
//!   `ρ(t) = min over G^R of (LW_{G^R}(t) + t)`. `λ - ρ` is non-increasing; the
//!   temperature `T` is the least `t ≥ -1` with `λ(t) ≤ ρ(t)` (where they meet),
//!   the mean is `λ(T) = ρ(T)`, and the walls are `LW = λ`, `RW = ρ` on
//!   `[-1, T]`, both equal to the vertical mast at the mean above `T`.
//!
//! So infinitesimals (`↑`, `*`, tinies) have temperature 0, and
//! `{10||0|-100}` has mast 0 from `t = 10`, left wall `10 - t`, right wall 0.

use super::dyadic::Dyadic;
use super::store::{CgError, CgResult, GameId, Node, Store};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cell::OnceCell;
use std::fmt;
use std::rc::Rc;

type Q = BigRational;

/// An exact rational for wall arithmetic: a reduced `i64` fraction while it
/// fits, a [`BigRational`] otherwise. Walls of short games have dyadic
/// breakpoints and slopes in `{-1, 0, 1}`, so almost every value met here is
/// small; komaster walls of kos have small rational slopes. No floats.
///
/// Invariant (so that the derived equality is equality of values):
/// `S(n, d)` has `d > 0`, `gcd(|n|, d) = 1` and `n ≠ i64::MIN`; `B` holds only
/// values that do not have that form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum R {
    S(i64, i64),
    B(Box<BigRational>),
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        return gcd_u64(a as u64, b as u64) as u128;
    }
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl R {
    const ZERO: R = R::S(0, 1);

    fn int(n: i64) -> R {
        R::from_i128(n as i128, 1)
    }

    /// `n / d` for `d ≠ 0`, reduced.
    fn from_i128(n: i128, d: i128) -> R {
        debug_assert!(d != 0);
        let (mut n, mut d) = if d < 0 { (-n, -d) } else { (n, d) };
        if n == 0 {
            return R::ZERO;
        }
        if d == 1 {
            if let Ok(n) = i64::try_from(n) {
                if n != i64::MIN {
                    return R::S(n, 1);
                }
            }
        } else if let (Ok(a), Ok(b)) = (u64::try_from(n.unsigned_abs()), u64::try_from(d)) {
            // In 64 bits (a 128-bit division is a library call); a power
            // of two (the dyadic walls of short games) by shifts alone.
            let (a, b) = match b.is_power_of_two() {
                true => {
                    let shift = a.trailing_zeros().min(b.trailing_zeros());
                    (a >> shift, b >> shift)
                }
                false => {
                    let g = gcd_u64(a, b);
                    (a / g, b / g)
                }
            };
            if a <= i64::MAX as u64 && b <= i64::MAX as u64 {
                let a = a as i64;
                return R::S(if n < 0 { -a } else { a }, b as i64);
            }
        }
        if d != 1 {
            let g = gcd_u128(n.unsigned_abs(), d as u128) as i128;
            if g != 1 {
                n /= g;
                d /= g;
            }
        }
        if n > i64::MIN as i128 && n <= i64::MAX as i128 && d <= i64::MAX as i128 {
            R::S(n as i64, d as i64)
        } else {
            R::B(Box::new(BigRational::new_raw(
                BigInt::from(n),
                BigInt::from(d),
            )))
        }
    }

    fn from_big(q: BigRational) -> R {
        use num_traits::ToPrimitive;
        match (q.numer().to_i64(), q.denom().to_i64()) {
            (Some(n), Some(d)) if n != i64::MIN => R::S(n, d),
            _ => R::B(Box::new(q)),
        }
    }

    pub(crate) fn from_q(q: &Q) -> R {
        R::from_big(q.clone())
    }

    pub(crate) fn to_q(&self) -> Q {
        match self {
            R::S(n, d) => Q::new_raw(BigInt::from(*n), BigInt::from(*d)),
            R::B(b) => (**b).clone(),
        }
    }

    fn from_dyadic(x: &Dyadic) -> R {
        if let (Some(n), e) = (x.small_numerator(), x.exponent()) {
            if e < 63 && n != i64::MIN {
                return R::S(n, 1i64 << e);
            }
        }
        R::from_big(x.to_rational())
    }

    fn signum(&self) -> i32 {
        match self {
            R::S(n, _) => n.signum() as i32,
            R::B(b) => {
                if b.is_positive() {
                    1
                } else if b.is_negative() {
                    -1
                } else {
                    0
                }
            }
        }
    }

    fn is_zero(&self) -> bool {
        matches!(self, R::S(0, _))
    }

    /// Writes the value as `BigRational` prints it (`n` or `n/d`).
    fn write_to(&self, out: &mut String) {
        match self {
            R::S(n, 1) => push_i64(out, *n),
            R::S(n, d) => {
                push_i64(out, *n);
                out.push('/');
                push_i64(out, *d);
            }
            R::B(q) => {
                use fmt::Write;
                let _ = write!(out, "{}", ShowQ(q));
            }
        }
    }

    /// `a/b + c/d` when both denominators are powers of two (the walls
    /// of short games) and the sum fits in 64 bits, reduced by shifts.
    #[inline]
    fn dyadic_sum(a: i64, b: i64, c: i64, d: i64) -> Option<R> {
        // (Denominators are positive, numerators above `i64::MIN`: the
        // invariant of `R`.)
        if !(b as u64).is_power_of_two() || !(d as u64).is_power_of_two() {
            return None;
        }
        let l = b.max(d);
        let n = a.checked_mul(l / b)?.checked_add(c.checked_mul(l / d)?)?;
        if n == 0 {
            return Some(R::ZERO);
        }
        let shift = n.trailing_zeros().min(l.trailing_zeros());
        let n = n >> shift;
        (n != i64::MIN).then_some(R::S(n, l >> shift))
    }

    fn add(&self, o: &R) -> R {
        match (self, o) {
            (R::S(a, b), R::S(c, d)) if let Some(r) = R::dyadic_sum(*a, *b, *c, *d) => r,
            (R::S(a, b), R::S(c, d)) => {
                if b == d {
                    R::from_i128(*a as i128 + *c as i128, *b as i128)
                } else {
                    let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                    R::from_i128(a * d + c * b, b * d)
                }
            }
            _ => R::from_big(self.to_q() + o.to_q()),
        }
    }

    fn neg(&self) -> R {
        match self {
            R::S(n, d) => R::S(-n, *d),
            R::B(b) => R::from_big(-(**b).clone()),
        }
    }

    fn sub(&self, o: &R) -> R {
        match (self, o) {
            (R::S(a, b), R::S(c, d)) if let Some(r) = R::dyadic_sum(*a, *b, -*c, *d) => r,
            (R::S(a, b), R::S(c, d)) => {
                if b == d {
                    R::from_i128(*a as i128 - *c as i128, *b as i128)
                } else {
                    let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                    R::from_i128(a * d - c * b, b * d)
                }
            }
            _ => R::from_big(self.to_q() - o.to_q()),
        }
    }

    fn mul(&self, o: &R) -> R {
        match (self, o) {
            (R::S(0, _), _) | (_, R::S(0, _)) => R::ZERO,
            (R::S(1, 1), x) | (x, R::S(1, 1)) => x.clone(),
            (R::S(-1, 1), x) | (x, R::S(-1, 1)) => x.neg(),
            (R::S(a, b), R::S(c, d)) => {
                R::from_i128(*a as i128 * *c as i128, *b as i128 * *d as i128)
            }
            _ => R::from_big(self.to_q() * o.to_q()),
        }
    }

    /// `self / o` for `o ≠ 0`.
    fn div(&self, o: &R) -> R {
        match (self, o) {
            (R::S(a, b), R::S(c, d)) => {
                R::from_i128(*a as i128 * *d as i128, *b as i128 * *c as i128)
            }
            _ => R::from_big(self.to_q() / o.to_q()),
        }
    }

    /// `v + s·(t - t0)`, the value at `t` of the line through `(t0, v)` with slope `s`.
    fn along(v: &R, s: &R, t: &R, t0: &R) -> R {
        if s.is_zero() || t == t0 {
            return v.clone();
        }
        v.add(&s.mul(&t.sub(t0)))
    }
}

impl PartialOrd for R {
    fn partial_cmp(&self, o: &R) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for R {
    fn cmp(&self, o: &R) -> std::cmp::Ordering {
        match (self, o) {
            (R::S(a, b), R::S(c, d)) => {
                if b == d {
                    a.cmp(c)
                } else {
                    (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128))
                }
            }
            _ => self.to_q().cmp(&o.to_q()),
        }
    }
}

/// One breakpoint of a wall: the value `v` at `t`, and the slope `s` of the
/// piece that starts there (up to the next breakpoint, or for ever).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seg {
    t: R,
    v: R,
    s: R,
}

/// An exact continuous piecewise-linear function of the temperature `t`,
/// defined from its first breakpoint on (`t = -1` for games' walls).
///
/// Stored as breakpoints with the slope of the piece after each one
/// (consecutive slopes always differ: the wall is kept simplified), in the
/// small-rational type `R`. The `BigRational` view that [`Wall::points`] and
/// [`Wall::tail_slope`] lend out is built on first use.
#[derive(Clone)]
pub struct Wall {
    /// Never empty; `t` strictly increasing; `segs[i].s != segs[i + 1].s`.
    segs: Vec<Seg>,
    /// Boxed: most walls never build it (a komaster analysis keeps
    /// hundreds of thousands of walls), and inline it tripled a wall's size.
    view: OnceCell<Box<(Vec<(Q, Q)>, Q)>>,
}

impl PartialEq for Wall {
    fn eq(&self, o: &Wall) -> bool {
        self.segs == o.segs
    }
}

impl Eq for Wall {}

impl fmt::Debug for Wall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (points, tail) = self.view();
        f.debug_struct("Wall")
            .field("points", points)
            .field("tail", tail)
            .finish()
    }
}

/// One linear piece of a wall: `value(t) = intercept + slope·t` for
/// `from ≤ t ≤ to` (`to = None`: for all `t ≥ from`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WallPiece {
    pub from: Q,
    pub to: Option<Q>,
    pub slope: Q,
    pub intercept: Q,
}

impl WallPiece {
    /// The piece's formula alone, e.g. `3 - t`, `t`, `9/4`, `1/3 + 2/3 t`.
    pub fn formula(&self) -> String {
        let c = &self.intercept;
        let s = &self.slope;
        if s.is_zero() {
            return ShowQ(c).to_string();
        }
        let term = if s.abs().is_one() {
            "t".to_string()
        } else {
            format!("{} t", ShowQ(&s.abs()))
        };
        let c = ShowQ(c);
        if self.intercept.is_zero() {
            if s.is_negative() {
                format!("-{term}")
            } else {
                term
            }
        } else if s.is_negative() {
            format!("{c} - {term}")
        } else {
            format!("{c} + {term}")
        }
    }
}

impl fmt::Display for WallPiece {
    /// `3 - t for -1 ≤ t ≤ 3/4`, `9/4 for t ≥ 3/4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.to {
            Some(to) => write!(
                f,
                "{} for {} ≤ t ≤ {}",
                self.formula(),
                ShowQ(&self.from),
                ShowQ(to)
            ),
            None => write!(f, "{} for t ≥ {}", self.formula(), ShowQ(&self.from)),
        }
    }
}

/// A rational printed as `BigRational` prints it (`n` or `n/d`), through
/// `i64` when both parts fit: printing a `BigInt` costs about a thousand
/// instructions, and a thermograph prints a dozen rationals
/// (BENCHMARKS.md, issue 21).
pub struct ShowQ<'a>(pub &'a Q);

impl fmt::Display for ShowQ<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use num_traits::ToPrimitive;
        let (n, d) = (self.0.numer(), self.0.denom());
        match (n.to_i64(), d.to_i64()) {
            (Some(n), Some(1)) => write!(f, "{n}"),
            (Some(n), Some(d)) => write!(f, "{n}/{d}"),
            _ => write!(f, "{}", self.0),
        }
    }
}

/// [`WallPiece::formula`] of `intercept + slope·t`, written into `out`.
fn write_formula(out: &mut String, intercept: &R, slope: &R) {
    if slope.is_zero() {
        intercept.write_to(out);
        return;
    }
    let negative = slope.signum() < 0;
    if !intercept.is_zero() {
        intercept.write_to(out);
        out.push_str(if negative { " - " } else { " + " });
    } else if negative {
        out.push('-');
    }
    match slope {
        R::S(n, 1) if n.unsigned_abs() == 1 => {}
        R::S(n, d) => {
            R::S(n.abs(), *d).write_to(out);
            out.push(' ');
        }
        R::B(q) => {
            use fmt::Write;
            let _ = write!(out, "{} ", ShowQ(&q.abs()));
        }
    }
    out.push('t');
}

/// Writes `q` as [`ShowQ`] prints it.
pub fn write_rational(out: &mut String, q: &Q) {
    use num_traits::ToPrimitive;
    match (q.numer().to_i64(), q.denom().to_i64()) {
        (Some(n), Some(1)) => push_i64(out, n),
        (Some(n), Some(d)) => {
            push_i64(out, n);
            out.push('/');
            push_i64(out, d);
        }
        _ => {
            use fmt::Write;
            let _ = write!(out, "{q}");
        }
    }
}

/// `n` in decimal, as `Display` writes it, without the formatting machinery.
fn push_i64(out: &mut String, n: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut m = n.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    out.reserve(buf.len() - i);
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

/// Appends the piece `(t, v, s)` to a wall under construction, unless it
/// continues the last piece (same slope; walls are continuous).
fn push_seg(out: &mut Vec<Seg>, t: R, v: R, s: R) {
    if let Some(last) = out.last() {
        if last.s == s {
            return;
        }
        debug_assert!(last.t < t);
    }
    out.push(Seg { t, v, s });
}

/// Where a pair of scaffolds stops being unsettled
/// ([`Wall::unsettled_until`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Unsettled {
    /// Settled everywhere.
    Nowhere,
    /// Unsettled up to this temperature, settled above it.
    Until(Q),
    /// Never settled.
    Forever,
}

impl Wall {
    fn from_segs(segs: Vec<Seg>) -> Wall {
        debug_assert!(!segs.is_empty());
        Wall {
            segs,
            view: OnceCell::new(),
        }
    }

    /// The constant `value` from `start` on.
    pub fn constant(start: Q, value: Q) -> Wall {
        Wall::constant_r(R::from_big(start), R::from_big(value))
    }

    fn constant_r(start: R, value: R) -> Wall {
        Wall::from_segs(vec![Seg {
            t: start,
            v: value,
            s: R::ZERO,
        }])
    }

    /// A wall through the given breakpoints (strictly increasing `t`, at least
    /// one) continuing with slope `tail` after the last. `None` when the points
    /// are empty or not strictly increasing.
    pub fn from_points(points: Vec<(Q, Q)>, tail: Q) -> Option<Wall> {
        let pts: Vec<(R, R)> = points
            .into_iter()
            .map(|(t, v)| (R::from_big(t), R::from_big(v)))
            .collect();
        Wall::from_points_r(pts, R::from_big(tail))
    }

    fn from_points_r(pts: Vec<(R, R)>, tail: R) -> Option<Wall> {
        if pts.is_empty() || pts.windows(2).any(|w| w[0].0 >= w[1].0) {
            return None;
        }
        let mut segs = Vec::with_capacity(pts.len());
        for i in 0..pts.len() {
            let s = match pts.get(i + 1) {
                Some((t1, v1)) => v1.sub(&pts[i].1).div(&t1.sub(&pts[i].0)),
                None => tail.clone(),
            };
            push_seg(&mut segs, pts[i].0.clone(), pts[i].1.clone(), s);
        }
        Some(Wall::from_segs(segs))
    }

    fn view(&self) -> &(Vec<(Q, Q)>, Q) {
        self.view.get_or_init(|| {
            let points = self.segs.iter().map(|s| (s.t.to_q(), s.v.to_q())).collect();
            let tail = self.segs[self.segs.len() - 1].s.to_q();
            Box::new((points, tail))
        })
    }

    /// Where the wall starts.
    pub fn start(&self) -> &Q {
        &self.view().0[0].0
    }

    /// The breakpoints `(t, value)`, first one at the start.
    pub fn points(&self) -> &[(Q, Q)] {
        &self.view().0
    }

    /// The slope after the last breakpoint.
    pub fn tail_slope(&self) -> &Q {
        &self.view().1
    }

    /// Where the last piece starts and its value, when that piece is flat:
    /// read from the breakpoints, without building the `BigRational` view.
    pub(crate) fn flat_tail(&self) -> Option<(&R, &R)> {
        let last = self.segs.last()?;
        last.s.is_zero().then_some((&last.t, &last.v))
    }

    /// The index of the piece that holds `t` (the first one below the start).
    fn piece_at(&self, t: &R) -> usize {
        self.segs.partition_point(|s| &s.t <= t).saturating_sub(1)
    }

    /// The value at `t`. Below the start the first piece is extended.
    pub fn eval(&self, t: &Q) -> Q {
        self.eval_r(&R::from_q(t)).to_q()
    }

    fn eval_r(&self, t: &R) -> R {
        let s = &self.segs[self.piece_at(t)];
        R::along(&s.v, &s.s, t, &s.t)
    }

    /// Whether the wall is one constant piece (vertical in a thermograph),
    /// as a number's walls are.
    pub fn is_vertical(&self) -> bool {
        self.segs.len() == 1 && self.segs[0].s == R::ZERO
    }

    /// The linear pieces, in increasing `t`.
    pub fn pieces(&self) -> Vec<WallPiece> {
        (0..self.segs.len())
            .map(|i| {
                let s = &self.segs[i];
                WallPiece {
                    from: s.t.to_q(),
                    to: self.segs.get(i + 1).map(|n| n.t.to_q()),
                    intercept: s.v.sub(&s.s.mul(&s.t)).to_q(),
                    slope: s.s.to_q(),
                }
            })
            .collect()
    }

    /// Writes the wall's pieces as `pieces()` would print them, joined by
    /// `"; "`, straight from the small rationals: a thermograph is printed
    /// far more often than it is computed from, and building a
    /// `BigRational` for every number and a string for every piece cost
    /// more than the thermograph itself (BENCHMARKS.md, issue 21).
    pub fn write_pieces(&self, out: &mut String) {
        for (i, s) in self.segs.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            write_formula(out, &s.v.sub(&s.s.mul(&s.t)), &s.s);
            match self.segs.get(i + 1) {
                Some(next) => {
                    out.push_str(" for ");
                    s.t.write_to(out);
                    out.push_str(" ≤ t ≤ ");
                    next.t.write_to(out);
                }
                None => {
                    out.push_str(" for t ≥ ");
                    s.t.write_to(out);
                }
            }
        }
    }

    /// `t ↦ self(t) + s·t`.
    pub fn add_slope(&self, s: &Q) -> Wall {
        self.add_slope_r(&R::from_q(s))
    }

    /// `t ↦ self(t) + s·t` (consecutive slopes still differ).
    fn add_slope_r(&self, s: &R) -> Wall {
        Wall::from_segs(
            self.segs
                .iter()
                .map(|g| Seg {
                    t: g.t.clone(),
                    v: g.v.add(&s.mul(&g.t)),
                    s: g.s.add(s),
                })
                .collect(),
        )
    }

    /// `t ↦ self(t) + s·t + c` for an integer slope `s` and a dyadic `c`,
    /// in one pass and without `BigRational`s (komaster thermography taxes
    /// every option of every state this way).
    pub(crate) fn taxed(&self, s: i64, c: &Dyadic) -> Wall {
        let (s, c) = (R::int(s), R::from_dyadic(c));
        Wall::from_segs(
            self.segs
                .iter()
                .map(|g| Seg {
                    t: g.t.clone(),
                    v: g.v.add(&s.mul(&g.t)).add(&c),
                    s: g.s.add(&s),
                })
                .collect(),
        )
    }

    /// `t ↦ self(t) + c`.
    pub fn add_constant(&self, c: &Q) -> Wall {
        let c = R::from_q(c);
        Wall::from_segs(
            self.segs
                .iter()
                .map(|g| Seg {
                    t: g.t.clone(),
                    v: g.v.add(&c),
                    s: g.s.clone(),
                })
                .collect(),
        )
    }

    /// Pointwise maximum.
    pub fn max(&self, other: &Wall) -> Wall {
        self.extreme(other, true)
    }

    /// Pointwise minimum.
    pub fn min(&self, other: &Wall) -> Wall {
        self.extreme(other, false)
    }

    /// Walks both walls together from the smaller start, calling `f` once per
    /// interval `[t, next)` between consecutive breakpoints of either wall
    /// with `(t, next, value of self at t, slope of self, value of other at
    /// t, slope of other)`; stops when `f` returns `false`.
    fn sweep(&self, other: &Wall, mut f: impl FnMut(&R, Option<&R>, R, &R, R, &R) -> bool) {
        let (a, b) = (&self.segs, &other.segs);
        let mut t = std::cmp::min(&a[0].t, &b[0].t).clone();
        let (mut ia, mut ib) = (0, 0);
        loop {
            while ia + 1 < a.len() && a[ia + 1].t <= t {
                ia += 1;
            }
            while ib + 1 < b.len() && b[ib + 1].t <= t {
                ib += 1;
            }
            let next = match (a.get(ia + 1), b.get(ib + 1)) {
                (Some(x), Some(y)) => Some(std::cmp::min(&x.t, &y.t)),
                (Some(x), None) => Some(&x.t),
                (None, Some(y)) => Some(&y.t),
                (None, None) => None,
            };
            let (sa, sb) = (&a[ia], &b[ib]);
            let va = R::along(&sa.v, &sa.s, &t, &sa.t);
            let vb = R::along(&sb.v, &sb.s, &t, &sb.t);
            if !f(&t, next, va, &sa.s, vb, &sb.s) {
                return;
            }
            match next {
                Some(n) => t = n.clone(),
                None => return,
            }
        }
    }

    /// The pointwise maximum (`want_max`) or minimum, in one sweep.
    fn extreme(&self, other: &Wall, want_max: bool) -> Wall {
        let mut out: Vec<Seg> = Vec::with_capacity(self.segs.len() + other.segs.len());
        self.sweep(other, |t, next, va, sa, vb, sb| {
            let d = va.sub(&vb);
            let ds = sa.sub(sb);
            // Who is extreme just after t: the larger value, or on a tie the
            // larger slope (for max).
            let sign = if d.is_zero() { ds.signum() } else { d.signum() };
            let self_wins = if want_max { sign >= 0 } else { sign <= 0 };
            let (v, s, other_s) = if self_wins {
                (va, sa, sb)
            } else {
                (vb, sb, sa)
            };
            push_seg(&mut out, t.clone(), v.clone(), s.clone());
            // A crossing strictly inside (t, next): d and ds of opposite signs.
            if d.signum() * ds.signum() < 0 {
                let tc = t.sub(&d.div(&ds));
                if next.is_none_or(|n| &tc < n) {
                    let vc = R::along(&v, s, &tc, t);
                    push_seg(&mut out, tc, vc, other_s.clone());
                }
            }
            true
        });
        Wall::from_segs(out)
    }

    /// The least `t` (from the smaller start on) with `self(t) ≤ other(t)`,
    /// or `None` if `self` stays above `other` for ever.
    pub fn first_at_most(&self, other: &Wall) -> Option<Q> {
        self.first_at_most_r(other).map(|t| t.to_q())
    }

    fn first_at_most_r(&self, other: &Wall) -> Option<R> {
        let mut found = None;
        self.sweep(other, |t, next, va, sa, vb, sb| {
            let d = va.sub(&vb);
            if d.signum() <= 0 {
                found = Some(t.clone());
                return false;
            }
            let ds = sa.sub(sb);
            if ds.signum() < 0 {
                let tc = t.sub(&d.div(&ds));
                if next.is_none_or(|n| &tc <= n) {
                    found = Some(tc);
                    return false;
                }
            }
            true
        });
        found
    }

    /// Where a pair of scaffolds stops being unsettled, `self` the left one
    /// (rule 3 of komaster thermography, `ko::thermo`): the supremum of the
    /// points where `self` lies above `right`, or where the two coincide on
    /// an interval with a non-zero slope (an inclined mast).
    pub fn unsettled_until(&self, right: &Wall) -> Unsettled {
        let mut sup = Unsettled::Nowhere;
        self.sweep(right, |t, next, vl, sl, vr, sr| {
            let d = vl.sub(&vr);
            let ds = sl.sub(sr);
            match next {
                Some(n) => {
                    let d_next = d.add(&ds.mul(&n.sub(t)));
                    if d_next.signum() > 0 || (d.is_zero() && d_next.is_zero() && !sl.is_zero()) {
                        sup = Unsettled::Until(n.to_q());
                    } else if d.signum() > 0 {
                        // Above at t, not at n: they cross inside.
                        sup = Unsettled::Until(t.sub(&d.div(&ds)).to_q());
                    }
                }
                None => {
                    if ds.signum() > 0
                        || (ds.is_zero() && d.signum() > 0)
                        || (ds.is_zero() && d.is_zero() && !sl.is_zero())
                    {
                        sup = Unsettled::Forever;
                    } else if d.signum() > 0 {
                        sup = Unsettled::Until(t.sub(&d.div(&ds)).to_q());
                    }
                }
            }
            true
        });
        sup
    }

    /// The same wall up to `t`, then constant (vertical mast) from `t` on.
    pub fn truncate(&self, t: &Q) -> Wall {
        self.truncate_r(&R::from_q(t))
    }

    fn truncate_r(&self, t: &R) -> Wall {
        let v = self.eval_r(t);
        let mut segs: Vec<Seg> = self.segs.iter().take_while(|s| &s.t < t).cloned().collect();
        push_seg(&mut segs, t.clone(), v, R::ZERO);
        Wall::from_segs(segs)
    }
}

/// The thermograph of a game: its two walls, the mast value (mean) and the
/// temperature at which the walls meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    left: Wall,
    right: Wall,
    mean: Q,
    temperature: Q,
}

impl Thermograph {
    /// Assembles a thermograph (for callers that compute walls themselves, e.g.
    /// komaster thermographs of kos). `left` and `right` should coincide with
    /// the mast `mean` from `temperature` on.
    pub fn new(left: Wall, right: Wall, mean: Q, temperature: Q) -> Thermograph {
        Thermograph {
            left,
            right,
            mean,
            temperature,
        }
    }

    pub fn left_wall(&self) -> &Wall {
        &self.left
    }
    pub fn right_wall(&self) -> &Wall {
        &self.right
    }
    /// The mast value.
    pub fn mean(&self) -> &Q {
        &self.mean
    }
    pub fn temperature(&self) -> &Q {
        &self.temperature
    }
    /// The left wall's value at `t` (the left stop of `G` cooled by `t`).
    pub fn left_at(&self, t: &Q) -> Q {
        self.left.eval(t)
    }
    /// The right wall's value at `t`.
    pub fn right_at(&self, t: &Q) -> Q {
        self.right.eval(t)
    }
}

/// `-1` for an integer, `-1/2^k` for `m/2^k` with `m` odd.
pub(crate) fn number_temperature(x: &Dyadic) -> Q {
    if x.is_integer() {
        -Q::one()
    } else {
        -Dyadic::unit(x.exponent()).to_rational()
    }
}

/// The dyadic value of a rational that is known to be dyadic (all means and
/// temperatures of short games are).
pub(crate) fn to_dyadic(q: &Q) -> CgResult<Dyadic> {
    Dyadic::from_rational(q)
        .ok_or_else(|| CgError::TooLarge(format!("{q} is not a dyadic rational")))
}

impl Store {
    /// The thermograph of `g` (memoised).
    pub fn thermograph(&mut self, g: GameId) -> CgResult<Rc<Thermograph>> {
        if let Some(t) = self.memo.derived().thermograph.get(&g) {
            return Ok(t.clone());
        }
        self.tick()?;
        self.memo.derived().prepare_thermograph();
        let start = R::int(-1);
        let th = match self.node(g) {
            Node::Nus(n) if n.is_number() => {
                let x = R::from_dyadic(&n.number);
                let w = Wall::constant_r(start, x);
                Thermograph {
                    left: w.clone(),
                    right: w,
                    mean: n.number.to_rational(),
                    temperature: number_temperature(&n.number),
                }
            }
            Node::Nus(n) => {
                // x + k·↑ + *n, not a number: temperature 0, mast x. On [-1, 0] the
                // left wall is x - t unless k < 0 (and not ↓*), the right wall
                // x + t unless k > 0 (and not ↑*); checked against the general
                // rule in the tests.
                let x = R::from_dyadic(&n.number);
                let star_like = n.ups == 0 || (n.ups.abs() == 1 && n.nim == 1);
                let left_slants = star_like || n.ups > 0;
                let right_slants = star_like || n.ups < 0;
                // The value at t = -1 is x + delta; from t = 0 on the mast x.
                let wall = |slants: bool, delta: i64| {
                    if slants {
                        Wall::from_segs(vec![
                            Seg {
                                t: start.clone(),
                                v: x.add(&R::int(delta)),
                                s: R::int(-delta),
                            },
                            Seg {
                                t: R::ZERO,
                                v: x.clone(),
                                s: R::ZERO,
                            },
                        ])
                    } else {
                        Wall::constant_r(start.clone(), x.clone())
                    }
                };
                Thermograph {
                    left: wall(left_slants, 1),
                    right: wall(right_slants, -1),
                    mean: n.number.to_rational(),
                    temperature: Q::zero(),
                }
            }
            Node::General { .. } => self.thermograph_general(g)?,
        };
        let th = Rc::new(th);
        self.memo.derived().thermograph.insert(g, th.clone());
        Ok(th)
    }

    /// The thermograph by the definition (used for general nodes, and by the
    /// tests for number-up-star values too).
    pub(crate) fn thermograph_general(&mut self, g: GameId) -> CgResult<Thermograph> {
        let (left, right) = self.options(g);
        let minus_one = R::int(-1);
        let plus_one = R::int(1);
        let mut lambda: Option<Wall> = None;
        for &gl in left.iter() {
            let w = self.thermograph(gl)?.right.add_slope_r(&minus_one);
            lambda = Some(match lambda {
                None => w,
                Some(l) => l.max(&w),
            });
        }
        let mut rho: Option<Wall> = None;
        for &gr in right.iter() {
            let w = self.thermograph(gr)?.left.add_slope_r(&plus_one);
            rho = Some(match rho {
                None => w,
                Some(r) => r.min(&w),
            });
        }
        // A canonical non-number has options on both sides; be total anyway.
        let (lambda, rho) = match (lambda, rho) {
            (Some(l), Some(r)) => (l, r),
            (l, r) => {
                let s = R::from_dyadic(&self.left_stop(g)?);
                let c = Wall::constant_r(R::int(-1), s);
                (l.unwrap_or_else(|| c.clone()), r.unwrap_or(c))
            }
        };
        let temperature = match lambda.first_at_most_r(&rho) {
            Some(t) => t,
            None => return Err(CgError::TooLarge("thermograph walls never meet".into())),
        };
        let mean = lambda.eval_r(&temperature);
        Ok(Thermograph {
            left: lambda.truncate_r(&temperature),
            right: rho.truncate_r(&temperature),
            mean: mean.to_q(),
            temperature: temperature.to_q(),
        })
    }

    /// The temperature of `g` (see the module doc for numbers).
    pub fn temperature(&mut self, g: GameId) -> CgResult<BigRational> {
        if let Some(n) = self.as_nus(g) {
            return Ok(if n.is_number() {
                number_temperature(&n.number)
            } else {
                Q::zero()
            });
        }
        Ok(self.thermograph(g)?.temperature.clone())
    }

    /// The mean (mast value) of `g`; always dyadic for short games.
    pub fn mean(&mut self, g: GameId) -> CgResult<Dyadic> {
        if let Some(n) = self.as_nus(g) {
            return Ok(n.number.clone());
        }
        let th = self.thermograph(g)?;
        to_dyadic(&th.mean)
    }

    /// The mean of the sum of `parts`, from the parts: means add (the mean
    /// is the limit of `LS(n·G)/n`, and stops of multiples of a sum are
    /// squeezed between sums of stops), so no canonical form of the sum.
    pub fn sum_mean(&mut self, parts: &[GameId]) -> CgResult<Dyadic> {
        let mut m = Dyadic::zero();
        for &p in parts {
            self.tick()?;
            m = m.add(&self.mean(p)?);
        }
        Ok(m)
    }

    /// The temperature of the sum of `parts`, from the parts where it can.
    ///
    /// Two facts: `T(G + H) ≤ max(T(G), T(H))` (Winning Ways, ch. 6), and so,
    /// writing `G = (G + H) + (-H)`, `T(G) ≤ max(T(G + H), T(H))`: when
    /// `T(G) > T(H)` the sum has exactly `G`'s temperature. The parts are
    /// taken from the hottest down; each group of equally hot parts joins a
    /// running canonical sum `S`, and as soon as `T(S)` exceeds the hottest
    /// part left (numbers included) that is the answer. So a sum whose
    /// hottest part is alone (`±1 + ±2 + … + ±40`) costs one thermograph
    /// per part, and only ties cost canonical sums of the tied parts.
    pub fn sum_temperature(&mut self, parts: &[GameId]) -> CgResult<BigRational> {
        let mut hot: Vec<(BigRational, GameId)> = Vec::with_capacity(parts.len());
        for &p in parts {
            self.tick()?;
            hot.push((self.temperature(p)?, p));
        }
        // Hottest first; ties side by side.
        hot.sort_by(|a, b| b.0.cmp(&a.0));
        let mut running: Option<(GameId, BigRational)> = None;
        let mut i = 0;
        while i < hot.len() {
            if let Some((_, t)) = &running {
                if *t > hot[i].0 {
                    return Ok(t.clone());
                }
            }
            // Join every part as hot as hot[i] (and, when the running sum
            // is not hotter, the running sum itself).
            let level = hot[i].0.clone();
            let mut group: Vec<GameId> = running.iter().map(|(g, _)| *g).collect();
            while i < hot.len() && hot[i].0 == level {
                group.push(hot[i].1);
                i += 1;
            }
            let s = self.sum(&group)?;
            let t = self.temperature(s)?;
            running = Some((s, t));
        }
        match running {
            Some((_, t)) => Ok(t),
            None => Ok(number_temperature(&Dyadic::zero())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Nus;
    use crate::render::{format_game, Style};
    use expect_test::{expect, Expect};

    fn q(n: i64, d: i64) -> Q {
        Q::new(BigInt::from(n), BigInt::from(d))
    }

    /// The small rationals' arithmetic (its integer and power-of-two
    /// shortcuts included) agrees with `BigRational`'s and keeps the
    /// invariant of [`R`], near the ends of `i64` too.
    #[test]
    fn small_rationals_agree_with_big_ones() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let edges = [
            0,
            1,
            -1,
            2,
            3,
            6,
            1 << 31,
            i64::MAX,
            i64::MIN + 1,
            i64::MAX - 1,
        ];
        let pick = move |next: &mut dyn FnMut() -> u64| -> (i64, i64) {
            let n = match next() % 3 {
                0 => edges[(next() % edges.len() as u64) as usize],
                1 => (next() % 64) as i64 - 32,
                _ => next() as i64 >> (next() % 63),
            };
            let n = if n == i64::MIN { 0 } else { n };
            let d = match next() % 4 {
                0 => 1,
                1 => 1 << (next() % 62),
                2 => (next() % 12 + 1) as i64,
                _ => ((next() >> 2) as i64).max(1),
            };
            (n, d)
        };
        let well_formed = |r: &R| match r {
            R::S(n, d) => {
                *d > 0 && *n != i64::MIN && gcd_u64(n.unsigned_abs(), *d as u64) == 1
                    || *n == 0 && *d == 1
            }
            R::B(b) => {
                R::from_big((**b).clone()) == *r && !matches!(R::from_big((**b).clone()), R::S(..))
            }
        };
        for _ in 0..20_000 {
            let ((a, b), (c, d)) = (pick(&mut next), pick(&mut next));
            let (x, y) = (
                R::from_i128(a as i128, b as i128),
                R::from_i128(c as i128, d as i128),
            );
            let (qx, qy) = (q(a, b), q(c, d));
            assert_eq!(x.to_q(), qx);
            for (r, expected) in [
                (x.add(&y), &qx + &qy),
                (x.sub(&y), &qx - &qy),
                (x.mul(&y), &qx * &qy),
            ] {
                assert_eq!(r.to_q(), expected, "{a}/{b}, {c}/{d}");
                assert!(well_formed(&r), "{r:?} from {a}/{b}, {c}/{d}");
            }
        }
    }

    fn describe(th: &Thermograph) -> String {
        let mut out = format!("temperature {}, mean {}\n", th.temperature(), th.mean());
        for p in th.left_wall().pieces() {
            out.push_str(&format!("  left  {p}\n"));
        }
        for p in th.right_wall().pieces() {
            out.push_str(&format!("  right {p}\n"));
        }
        out
    }

    fn check(s: &mut Store, g: GameId, expect: Expect) {
        let th = s.thermograph(g).unwrap();
        let name = format_game(s, g, Style::Ascii).unwrap();
        expect.assert_eq(&format!("{name}: {}", describe(&th)));
    }

    fn sw(s: &mut Store, l: GameId, r: GameId) -> GameId {
        s.canonical(vec![l], vec![r]).unwrap()
    }

    #[test]
    fn walls_evaluate_and_combine() {
        let a =
            Wall::from_points(vec![(q(-1, 1), q(4, 1)), (q(2, 1), q(1, 1))], Q::zero()).unwrap();
        let b = Wall::constant(q(-1, 1), q(2, 1)).add_slope(&Q::one());
        assert_eq!(a.eval(&q(1, 2)), q(5, 2));
        assert_eq!(b.eval(&q(1, 2)), q(5, 2));
        let m = a.max(&b);
        assert_eq!(m.points().len(), 2);
        assert_eq!(m.eval(&q(0, 1)), q(3, 1));
        assert_eq!(m.eval(&q(3, 1)), q(5, 1));
        assert_eq!(a.min(&b).eval(&q(10, 1)), q(1, 1));
        assert_eq!(a.first_at_most(&b), Some(q(1, 2)));
        assert_eq!(b.first_at_most(&a), Some(q(-1, 1)));
        let flat = Wall::constant(q(-1, 1), q(0, 1));
        assert_eq!(flat.first_at_most(&a), Some(q(-1, 1)));
        assert_eq!(a.first_at_most(&flat), None);
        // Scaffolds: unsettled while left > right, or equal and inclined.
        assert_eq!(a.unsettled_until(&b), Unsettled::Until(q(1, 2)));
        assert_eq!(b.unsettled_until(&a), Unsettled::Forever);
        assert_eq!(flat.unsettled_until(&a), Unsettled::Nowhere);
        assert_eq!(b.unsettled_until(&b), Unsettled::Forever);
        assert_eq!(flat.unsettled_until(&flat), Unsettled::Nowhere);
        let up_to_2 = a.truncate(&q(2, 1));
        assert_eq!(up_to_2.unsettled_until(&flat), Unsettled::Forever);
        // Above min(a, 2) below t = 1, then equal to it on the incline up to 2.
        assert_eq!(
            a.unsettled_until(&a.min(&flat.add_constant(&q(2, 1)))),
            Unsettled::Until(q(2, 1))
        );
        // Rational slopes survive (komaster walls).
        let k = Wall::from_points(vec![(q(0, 1), q(0, 1))], q(2, 3)).unwrap();
        assert_eq!(k.pieces()[0].to_string(), "2/3 t for t ≥ 0");
        assert_eq!(
            k.first_at_most(&Wall::constant(q(0, 1), q(1, 1)).add_slope(&q(-1, 3))),
            Some(q(0, 1))
        );
        assert_eq!(
            Wall::constant(q(0, 1), q(1, 1)).first_at_most(&k),
            Some(q(3, 2))
        );
    }

    /// Values beyond `i64` spill to `BigRational` and give the same walls as
    /// the small case shifted by the same constant.
    #[test]
    fn walls_beyond_i64() {
        let big = Q::from_integer(BigInt::from(1) << 70);
        let shift = |w: &Wall| w.add_constant(&big);
        let a =
            Wall::from_points(vec![(q(-1, 1), q(4, 1)), (q(2, 1), q(1, 1))], Q::zero()).unwrap();
        let b = Wall::constant(q(-1, 1), q(2, 1)).add_slope(&Q::one());
        let (sa, sb) = (shift(&a), shift(&b));
        assert_eq!(sa.eval(&q(1, 2)), &big + q(5, 2));
        assert_eq!(sa.max(&sb), shift(&a.max(&b)));
        assert_eq!(sa.min(&sb), shift(&a.min(&b)));
        assert_eq!(sa.first_at_most(&sb), Some(q(1, 2)));
        assert_eq!(sa.truncate(&q(1, 2)), shift(&a.truncate(&q(1, 2))));
        // A tiny slope whose crossing has a denominator beyond i64.
        let eps = Q::new(BigInt::from(1), BigInt::from(1) << 80);
        let c = Wall::constant(q(0, 1), q(1, 1)).add_slope(&(-eps.clone()));
        let zero = Wall::constant(q(0, 1), q(0, 1));
        assert_eq!(
            c.first_at_most(&zero),
            Some(Q::from_integer(BigInt::from(1) << 80))
        );
        assert_eq!(c.pieces()[0].slope, -eps);
    }

    /// [`Wall::write_pieces`] writes what the pieces print, joined by
    /// `"; "`: walls of every kind of piece (zero, positive and negative
    /// intercepts; slopes 0, ±1, other rationals; values beyond `i64`) and
    /// the walls of games born by day 2 and sums of them.
    #[test]
    fn written_pieces_are_the_pieces_printed() {
        let joined = |w: &Wall| {
            let p: Vec<String> = w.pieces().iter().map(|p| p.to_string()).collect();
            p.join("; ")
        };
        let written = |w: &Wall| {
            let mut out = String::new();
            w.write_pieces(&mut out);
            out
        };
        let big = Q::from_integer(BigInt::from(1) << 70);
        let eps = Q::new(BigInt::from(1), BigInt::from(1) << 80);
        let a =
            Wall::from_points(vec![(q(-1, 1), q(4, 1)), (q(2, 1), q(1, 1))], Q::zero()).unwrap();
        let mut walls = vec![
            a.clone(),
            a.add_constant(&big),
            a.add_slope(&q(-2, 3)),
            a.add_slope(&q(5, 1)),
            Wall::constant(q(-1, 1), q(0, 1)).add_slope(&q(-1, 1)),
            Wall::constant(q(-1, 1), q(0, 1)).add_slope(&q(-3, 1)),
            Wall::constant(q(-1, 2), q(-7, 4)).add_slope(&q(1, 1)),
            Wall::from_points(vec![(q(0, 1), q(0, 1))], q(2, 3)).unwrap(),
            Wall::constant(q(0, 1), q(1, 1)).add_slope(&(-eps.clone())),
            Wall::constant(q(0, 1), q(0, 1)).add_slope(&eps),
            Wall::constant(q(0, 1), -big.clone()).add_slope(&q(-1, 1)),
        ];
        let mut s = Store::new();
        let mut games = vec![s.zero()];
        for _ in 0..2 {
            let born = games.clone();
            let sides: Vec<Vec<GameId>> = (0..1u32 << born.len())
                .map(|m| {
                    (0..born.len())
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| born[i])
                        .collect()
                })
                .collect();
            for l in &sides {
                for r in &sides {
                    let g = s.canonical(l.clone(), r.clone()).unwrap();
                    if !games.contains(&g) {
                        games.push(g);
                    }
                }
            }
        }
        let sums: Vec<GameId> = games
            .iter()
            .zip(games.iter().rev())
            .map(|(&g, &h)| s.add(g, h).unwrap())
            .collect();
        for g in games.into_iter().chain(sums) {
            let th = s.thermograph(g).unwrap();
            walls.push(th.left_wall().clone());
            walls.push(th.right_wall().clone());
        }
        for w in &walls {
            assert_eq!(written(w), joined(w));
        }
        assert_eq!(
            written(&walls[2]),
            "3 - 5/3 t for -1 ≤ t ≤ 2; 1 - 2/3 t for t ≥ 2"
        );
    }

    #[test]
    fn numbers_and_infinitesimals() {
        let mut s = Store::new();
        let n = s.integer(7);
        assert_eq!(s.temperature(n).unwrap(), q(-1, 1));
        let x = s.number(Dyadic::new(3.into(), 3));
        assert_eq!(s.temperature(x).unwrap(), q(-1, 8));
        assert_eq!(s.thermograph(x).unwrap().temperature(), &q(-1, 8));
        check(
            &mut s,
            x,
            expect![[r#"
            3/8: temperature -1/8, mean 3/8
              left  3/8 for t ≥ -1
              right 3/8 for t ≥ -1
        "#]],
        );
        let up = s.ups(1);
        check(
            &mut s,
            up,
            expect![[r#"
            ^: temperature 0, mean 0
              left  -t for -1 ≤ t ≤ 0
              left  0 for t ≥ 0
              right 0 for t ≥ -1
        "#]],
        );
        let star = s.star();
        check(
            &mut s,
            star,
            expect![[r#"
            *: temperature 0, mean 0
              left  -t for -1 ≤ t ≤ 0
              left  0 for t ≥ 0
              right t for -1 ≤ t ≤ 0
              right 0 for t ≥ 0
        "#]],
        );
        let one = s.integer(1);
        let tiny = s.tiny(one).unwrap();
        assert_eq!(s.temperature(tiny).unwrap(), Q::zero());
        assert_eq!(s.mean(tiny).unwrap(), Dyadic::zero());
    }

    #[test]
    fn hot_games() {
        let mut s = Store::new();
        let (zero, one, two, three) = (s.zero(), s.integer(1), s.integer(2), s.integer(3));
        let (ten, m100) = (s.integer(10), s.integer(-100));
        let inner = sw(&mut s, zero, m100);
        let g = sw(&mut s, ten, inner);
        check(
            &mut s,
            g,
            expect![[r#"
            {10||0|-100}: temperature 10, mean 0
              left  10 - t for -1 ≤ t ≤ 10
              left  0 for t ≥ 10
              right 0 for t ≥ -1
        "#]],
        );
        let inner = sw(&mut s, two, one);
        let g = sw(&mut s, three, inner);
        check(
            &mut s,
            g,
            expect![[r#"
            {3||2|1}: temperature 3/4, mean 9/4
              left  3 - t for -1 ≤ t ≤ 3/4
              left  9/4 for t ≥ 3/4
              right 2 for -1 ≤ t ≤ 1/2
              right 3/2 + t for 1/2 ≤ t ≤ 3/4
              right 9/4 for t ≥ 3/4
        "#]],
        );
        assert_eq!(s.mean(g).unwrap(), Dyadic::new(9.into(), 2));
        let four = s.integer(4);
        let g = sw(&mut s, four, zero);
        check(
            &mut s,
            g,
            expect![[r#"
            {4|0}: temperature 2, mean 2
              left  4 - t for -1 ≤ t ≤ 2
              left  2 for t ≥ 2
              right t for -1 ≤ t ≤ 2
              right 2 for t ≥ 2
        "#]],
        );
        // A game with two Left options whose scaffolds cross.
        let a = sw(&mut s, four, zero); // {4|0}: right wall t, mast 2
        let g = s.canonical(vec![a, one], vec![m100]).unwrap();
        check(
            &mut s,
            g,
            expect![[r#"
            {1,{4|0}|-100}: temperature 51, mean -49
              left  1 - t for -1 ≤ t ≤ 1
              left  0 for 1 ≤ t ≤ 2
              left  2 - t for 2 ≤ t ≤ 51
              left  -49 for t ≥ 51
              right -100 + t for -1 ≤ t ≤ 51
              right -49 for t ≥ 51
        "#]],
        );
    }

    #[test]
    fn nus_fast_path_agrees_with_the_definition() {
        let mut s = Store::new();
        for x in [
            Dyadic::zero(),
            Dyadic::from_i64(-3),
            Dyadic::new(5.into(), 2),
        ] {
            for ups in -3..=3 {
                for nim in 0..4 {
                    let g = s.nus(Nus {
                        number: x.clone(),
                        ups,
                        nim,
                    });
                    if s.is_number(g) {
                        continue;
                    }
                    let fast = s.thermograph(g).unwrap();
                    let slow = s.thermograph_general(g).unwrap();
                    assert_eq!(*fast, slow, "{ups} {nim}");
                }
            }
        }
    }
}
