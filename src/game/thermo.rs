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
//!   DESIGN.md §1), so that `t(x) < 0 ≤ t(G)` for every non-number `G`;
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
use std::fmt;
use std::rc::Rc;

type Q = BigRational;

fn q_int(n: i64) -> Q {
    Q::from_integer(BigInt::from(n))
}

/// An exact continuous piecewise-linear function of the temperature `t`,
/// defined from its first breakpoint on (`t = -1` for games' walls).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    /// `(t, value)` at each breakpoint, `t` strictly increasing; never empty.
    /// Interior points always change the slope (the wall is kept simplified).
    points: Vec<(Q, Q)>,
    /// The slope after the last breakpoint.
    tail: Q,
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
            return c.to_string();
        }
        let term = if s.abs().is_one() {
            "t".to_string()
        } else {
            format!("{} t", s.abs())
        };
        if c.is_zero() {
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
            Some(to) => write!(f, "{} for {} ≤ t ≤ {}", self.formula(), self.from, to),
            None => write!(f, "{} for t ≥ {}", self.formula(), self.from),
        }
    }
}

impl Wall {
    /// The constant `value` from `start` on.
    pub fn constant(start: Q, value: Q) -> Wall {
        Wall {
            points: vec![(start, value)],
            tail: Q::zero(),
        }
    }

    /// A wall through the given breakpoints (strictly increasing `t`, at least
    /// one) continuing with slope `tail` after the last. `None` when the points
    /// are empty or not strictly increasing.
    pub fn from_points(points: Vec<(Q, Q)>, tail: Q) -> Option<Wall> {
        if points.is_empty() || points.windows(2).any(|w| w[0].0 >= w[1].0) {
            return None;
        }
        let mut w = Wall { points, tail };
        w.simplify();
        Some(w)
    }

    /// Where the wall starts.
    pub fn start(&self) -> &Q {
        &self.points[0].0
    }

    /// The breakpoints `(t, value)`, first one at the start.
    pub fn points(&self) -> &[(Q, Q)] {
        &self.points
    }

    /// The slope after the last breakpoint.
    pub fn tail_slope(&self) -> &Q {
        &self.tail
    }

    /// The slope on the piece that starts at breakpoint `i`.
    fn slope_after(&self, i: usize) -> Q {
        match self.points.get(i + 1) {
            Some((t1, v1)) => {
                let (t0, v0) = &self.points[i];
                (v1 - v0) / (t1 - t0)
            }
            None => self.tail.clone(),
        }
    }

    /// The value at `t`. Below the start the first piece is extended.
    pub fn eval(&self, t: &Q) -> Q {
        let idx = self.points.partition_point(|p| &p.0 <= t);
        let i = idx.saturating_sub(1);
        let (t0, v0) = &self.points[i];
        v0 + self.slope_after(i) * (t - t0)
    }

    /// The linear pieces, in increasing `t`.
    pub fn pieces(&self) -> Vec<WallPiece> {
        (0..self.points.len())
            .map(|i| {
                let (t0, v0) = &self.points[i];
                let slope = self.slope_after(i);
                WallPiece {
                    from: t0.clone(),
                    to: self.points.get(i + 1).map(|p| p.0.clone()),
                    intercept: v0 - &slope * t0,
                    slope,
                }
            })
            .collect()
    }

    /// `t ↦ self(t) + s·t`.
    pub fn add_slope(&self, s: &Q) -> Wall {
        let points = self
            .points
            .iter()
            .map(|(t, v)| (t.clone(), v + s * t))
            .collect();
        let mut w = Wall {
            points,
            tail: &self.tail + s,
        };
        w.simplify();
        w
    }

    /// `t ↦ self(t) + c`.
    pub fn add_constant(&self, c: &Q) -> Wall {
        let points = self
            .points
            .iter()
            .map(|(t, v)| (t.clone(), v + c))
            .collect();
        Wall {
            points,
            tail: self.tail.clone(),
        }
    }

    /// Pointwise maximum.
    pub fn max(&self, other: &Wall) -> Wall {
        self.extreme(other, true)
    }

    /// Pointwise minimum.
    pub fn min(&self, other: &Wall) -> Wall {
        self.extreme(other, false)
    }

    /// The union of both walls' breakpoints, from the smaller start.
    fn merged_ts(&self, other: &Wall) -> Vec<Q> {
        let mut ts: Vec<Q> = self
            .points
            .iter()
            .chain(other.points.iter())
            .map(|p| p.0.clone())
            .collect();
        ts.sort();
        ts.dedup();
        ts
    }

    fn extreme(&self, other: &Wall, want_max: bool) -> Wall {
        let ts = self.merged_ts(other);
        let pick = |a: Q, b: Q| if (a > b) == want_max { a } else { b };
        let mut all: Vec<Q> = Vec::with_capacity(ts.len() * 2);
        for (i, t0) in ts.iter().enumerate() {
            all.push(t0.clone());
            let d0 = self.eval(t0) - other.eval(t0);
            match ts.get(i + 1) {
                Some(t1) => {
                    let d1 = self.eval(t1) - other.eval(t1);
                    if (d0.is_positive() && d1.is_negative())
                        || (d0.is_negative() && d1.is_positive())
                    {
                        all.push(t0 + &d0 * (t1 - t0) / (&d0 - &d1));
                    }
                }
                None => {
                    let ds = &self.tail - &other.tail;
                    if (d0.is_positive() && ds.is_negative())
                        || (d0.is_negative() && ds.is_positive())
                    {
                        all.push(t0 - &d0 / &ds);
                    }
                }
            }
        }
        let last = all.last().cloned().unwrap_or_else(Q::zero);
        let (a, b) = (self.eval(&last), other.eval(&last));
        let tail = if a == b {
            pick(self.tail.clone(), other.tail.clone())
        } else if (a > b) == want_max {
            self.tail.clone()
        } else {
            other.tail.clone()
        };
        let points = all
            .into_iter()
            .map(|t| {
                let v = pick(self.eval(&t), other.eval(&t));
                (t, v)
            })
            .collect();
        let mut w = Wall { points, tail };
        w.simplify();
        w
    }

    /// The least `t` (from the smaller start on) with `self(t) ≤ other(t)`,
    /// or `None` if `self` stays above `other` for ever.
    pub fn first_at_most(&self, other: &Wall) -> Option<Q> {
        let ts = self.merged_ts(other);
        let mut prev: Option<(Q, Q)> = None;
        for t in &ts {
            let d = self.eval(t) - other.eval(t);
            if !d.is_positive() {
                return Some(match prev {
                    None => t.clone(),
                    Some((tp, dp)) => &tp + &dp * (t - &tp) / (&dp - &d),
                });
            }
            prev = Some((t.clone(), d));
        }
        let (tp, dp) = prev?;
        let ds = &self.tail - &other.tail;
        if ds.is_negative() {
            Some(&tp - &dp / &ds)
        } else {
            None
        }
    }

    /// The same wall up to `t`, then constant (vertical mast) from `t` on.
    pub fn truncate(&self, t: &Q) -> Wall {
        let v = self.eval(t);
        let mut points: Vec<(Q, Q)> = self.points.iter().filter(|p| &p.0 < t).cloned().collect();
        points.push((t.clone(), v));
        let mut w = Wall {
            points,
            tail: Q::zero(),
        };
        w.simplify();
        w
    }

    /// Drops breakpoints where the slope does not change.
    fn simplify(&mut self) {
        if self.points.len() < 2 {
            return;
        }
        let mut out: Vec<(Q, Q)> = Vec::with_capacity(self.points.len());
        out.push(self.points[0].clone());
        for i in 1..self.points.len() {
            let before = {
                let (t0, v0) = out.last().unwrap_or(&self.points[0]);
                let (t1, v1) = &self.points[i];
                (v1 - v0) / (t1 - t0)
            };
            let after = self.slope_after(i);
            if before != after {
                out.push(self.points[i].clone());
            }
        }
        self.points = out;
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
        if let Some(t) = self.memo.derived.thermograph.get(&g) {
            return Ok(t.clone());
        }
        self.tick()?;
        let start = -Q::one();
        let th = match self.node(g) {
            Node::Nus(n) if n.is_number() => {
                let x = n.number.to_rational();
                let w = Wall::constant(start, x.clone());
                Thermograph {
                    left: w.clone(),
                    right: w,
                    mean: x,
                    temperature: number_temperature(&n.number),
                }
            }
            Node::Nus(n) => {
                // x + k·↑ + *n, not a number: temperature 0, mast x. On [-1, 0] the
                // left wall is x - t unless k < 0 (and not ↓*), the right wall
                // x + t unless k > 0 (and not ↑*); checked against the general
                // rule in the tests.
                let x = n.number.to_rational();
                let star_like = n.ups == 0 || (n.ups.abs() == 1 && n.nim == 1);
                let left_slants = star_like || n.ups > 0;
                let right_slants = star_like || n.ups < 0;
                let zero = Q::zero();
                // The value at t = -1 is x + delta; from t = 0 on the mast x.
                let slanted = |delta: i64| {
                    Wall::from_points(
                        vec![
                            (start.clone(), &x + q_int(delta)),
                            (zero.clone(), x.clone()),
                        ],
                        Q::zero(),
                    )
                };
                let flat = Wall::constant(start.clone(), x.clone());
                let left =
                    if left_slants { slanted(1) } else { None }.unwrap_or_else(|| flat.clone());
                let right = if right_slants { slanted(-1) } else { None }.unwrap_or(flat);
                Thermograph {
                    left,
                    right,
                    mean: x,
                    temperature: Q::zero(),
                }
            }
            Node::General { .. } => self.thermograph_general(g)?,
        };
        let th = Rc::new(th);
        self.memo.derived.thermograph.insert(g, th.clone());
        Ok(th)
    }

    /// The thermograph by the definition (used for general nodes, and by the
    /// tests for number-up-star values too).
    pub(crate) fn thermograph_general(&mut self, g: GameId) -> CgResult<Thermograph> {
        let start = -Q::one();
        let (left, right) = self.options(g);
        let minus_one = -Q::one();
        let plus_one = Q::one();
        let mut lambda: Option<Wall> = None;
        for &gl in left.iter() {
            let w = self.thermograph(gl)?.right.add_slope(&minus_one);
            lambda = Some(match lambda {
                None => w,
                Some(l) => l.max(&w),
            });
        }
        let mut rho: Option<Wall> = None;
        for &gr in right.iter() {
            let w = self.thermograph(gr)?.left.add_slope(&plus_one);
            rho = Some(match rho {
                None => w,
                Some(r) => r.min(&w),
            });
        }
        // A canonical non-number has options on both sides; be total anyway.
        let (lambda, rho) = match (lambda, rho) {
            (Some(l), Some(r)) => (l, r),
            (l, r) => {
                let s = self.left_stop(g)?.to_rational();
                let c = Wall::constant(start.clone(), s);
                (l.unwrap_or_else(|| c.clone()), r.unwrap_or(c))
            }
        };
        let temperature = match lambda.first_at_most(&rho) {
            Some(t) => t,
            None => return Err(CgError::TooLarge("thermograph walls never meet".into())),
        };
        let mean = lambda.eval(&temperature);
        Ok(Thermograph {
            left: lambda.truncate(&temperature),
            right: rho.truncate(&temperature),
            mean,
            temperature,
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
