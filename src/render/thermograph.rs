//! Pictures of thermographs: a self-contained SVG plot ([`svg`]) and a small
//! ASCII sketch for the terminal ([`sketch`]).
//!
//! Both use the usual CGT orientation: the temperature `t` runs up the
//! vertical axis from `t = -1`, and the value runs along the horizontal axis
//! *decreasing* to the right, so Left (positive) is on the left. A left wall
//! `3 - t` therefore leans like `/`, a right wall `3/2 + t` like `\`, and the
//! mast rises vertically from the temperature.
//!
//! Everything is computed with exact rationals; pixel coordinates are rounded
//! to hundredths only when printed, so the output is deterministic. Nothing here
//! does IO: the evaluator decides where the strings go.

use crate::game::{Thermograph, Wall};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt::Write;

type Q = BigRational;

fn q(n: i64) -> Q {
    Q::from_integer(BigInt::from(n))
}

fn qf(n: i64, d: i64) -> Q {
    Q::new(BigInt::from(n), BigInt::from(d))
}

/// Round half up: `floor(x + 1/2)`.
fn round(x: &Q) -> BigInt {
    (x + qf(1, 2)).floor().to_integer()
}

fn qmax(a: Q, b: Q) -> Q {
    if a >= b {
        a
    } else {
        b
    }
}

fn qmin(a: Q, b: Q) -> Q {
    if a <= b {
        a
    } else {
        b
    }
}

/// The part of the `(value, t)` plane a picture shows.
struct Frame {
    t_lo: Q,
    t_hi: Q,
    v_lo: Q,
    v_hi: Q,
}

impl Frame {
    /// From `t = -1` (or the lowest wall start) to a bit above the highest
    /// temperature (at least above `t = 0`), and every value a wall takes there.
    fn new(ths: &[&Thermograph]) -> Frame {
        let mut t_lo = -Q::one();
        let mut top = Q::zero();
        for th in ths {
            t_lo = qmin(t_lo, th.left_wall().start().clone());
            t_lo = qmin(t_lo, th.right_wall().start().clone());
            top = qmax(top, th.temperature().clone());
        }
        let pad = qmax(Q::one(), (&top - &t_lo) / q(4));
        let t_hi = top + pad;
        let mut values: Vec<Q> = Vec::new();
        for th in ths {
            for w in [th.left_wall(), th.right_wall()] {
                values.push(w.eval(&t_lo));
                values.push(w.eval(&t_hi));
                for (t, v) in w.points() {
                    if t >= &t_lo && t <= &t_hi {
                        values.push(v.clone());
                    }
                }
            }
            values.push(th.mean().clone());
        }
        let (mut v_lo, mut v_hi) = match values.iter().min().zip(values.iter().max()) {
            Some((lo, hi)) => (lo.clone(), hi.clone()),
            None => (Q::zero(), Q::zero()),
        };
        if v_lo == v_hi {
            v_lo -= Q::one();
            v_hi += Q::one();
        }
        Frame {
            t_lo,
            t_hi,
            v_lo,
            v_hi,
        }
    }
}

/// The corners of a wall between `from` and `to` (`from ≤ to`): its values at
/// both ends and at every breakpoint strictly between.
fn wall_points(w: &Wall, from: &Q, to: &Q) -> Vec<(Q, Q)> {
    let mut out = vec![(from.clone(), w.eval(from))];
    for (t, v) in w.points() {
        if t > from && t < to {
            out.push((t.clone(), v.clone()));
        }
    }
    if to > from {
        out.push((to.clone(), w.eval(to)));
    }
    out
}

// ---------------------------------------------------------------------------
// SVG

/// Line colours, cycled; distinguishable and readable on white.
const PALETTE: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

const MARGIN_LEFT: i64 = 72;
const MARGIN_RIGHT: i64 = 24;
const MARGIN_TOP: i64 = 20;
/// Room under the plot for tick labels and the axis title.
const MARGIN_BOTTOM: i64 = 56;
const LEGEND_LINE: i64 = 20;

/// A pixel coordinate rounded to hundredths: `12`, `12.5`, `12.34`.
fn px(x: &Q) -> String {
    let hundredths = round(&(x * q(100)));
    let sign = if hundredths.is_negative() { "-" } else { "" };
    let (int, frac) = hundredths.abs().div_rem(&BigInt::from(100));
    let frac: i64 = frac.try_into().unwrap_or(0);
    if frac == 0 {
        format!("{sign}{int}")
    } else if frac % 10 == 0 {
        format!("{sign}{int}.{}", frac / 10)
    } else {
        format!("{sign}{int}.{frac:02}")
    }
}

/// Escapes text for SVG element content and attribute values.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The smallest "nice" step (a power of two below 1, then 1, 2, 5, 10, 20, 50,
/// …) that puts at most `max_ticks` intervals on `span`. Powers of two keep the
/// ticks on the dyadic values short games take.
fn nice_step(span: &Q, max_ticks: i64) -> Q {
    let max_ticks = q(max_ticks.max(1));
    let mut step = qf(1, 1024);
    while span / &step > max_ticks {
        step = if step < Q::one() {
            step * q(2)
        } else {
            // 1 → 2 → 5 → 10 → 20 → 50 → …
            let ten_power = {
                let mut p = Q::one();
                while &p * q(10) <= step {
                    p *= q(10);
                }
                p
            };
            let lead = &step / &ten_power;
            if lead == Q::one() {
                ten_power * q(2)
            } else if lead == q(2) {
                ten_power * q(5)
            } else {
                ten_power * q(10)
            }
        };
    }
    step
}

/// The multiples of `step` in `[lo, hi]`.
fn ticks(lo: &Q, hi: &Q, step: &Q) -> Vec<Q> {
    let mut k = (lo / step).ceil();
    let mut out = Vec::new();
    while &(&k * step) <= hi {
        out.push(&k * step);
        k += Q::one();
    }
    out
}

/// Pixel mapping of a frame: `x` grows as the value decreases, `y` grows as
/// the temperature decreases.
struct Plot {
    frame: Frame,
    sx: Q,
    sy: Q,
    width: Q,
    height: Q,
}

impl Plot {
    fn new(ths: &[&Thermograph]) -> Plot {
        let mut frame = Frame::new(ths);
        let span = &frame.v_hi - &frame.v_lo;
        let vpad = qmax(qf(1, 2), &span / q(10));
        frame.v_lo -= &vpad;
        frame.v_hi += &vpad;
        let vspan = &frame.v_hi - &frame.v_lo;
        let tspan = &frame.t_hi - &frame.t_lo;
        // One scale for both axes (slopes ±1 at 45°) unless that makes the
        // plot too thin one way.
        let s = qmin(q(560) / &vspan, q(400) / &tspan);
        let sx = if &vspan * &s < q(240) {
            q(240) / &vspan
        } else {
            s.clone()
        };
        let sy = if &tspan * &s < q(160) {
            q(160) / &tspan
        } else {
            s
        };
        let width = &vspan * &sx;
        let height = &tspan * &sy;
        Plot {
            frame,
            sx,
            sy,
            width,
            height,
        }
    }

    fn x(&self, v: &Q) -> Q {
        q(MARGIN_LEFT) + (&self.frame.v_hi - v) * &self.sx
    }

    fn y(&self, t: &Q) -> Q {
        q(MARGIN_TOP) + (&self.frame.t_hi - t) * &self.sy
    }

    /// `x,y` of the point with value `v` at temperature `t`.
    fn point(&self, v: &Q, t: &Q) -> String {
        format!("{},{}", px(&self.x(v)), px(&self.y(t)))
    }

    fn polyline(&self, pts: &[(Q, Q)]) -> String {
        pts.iter()
            .map(|(t, v)| self.point(v, t))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A self-contained SVG plot of one or more thermographs, each with its label
/// in the legend (with its mast value and temperature).
///
/// Temperature runs upward from `t = -1`; value runs along the horizontal axis
/// decreasing to the right (Left, positive, on the left). Each thermograph
/// draws its left and right walls up to its temperature, a dot where they
/// meet, and its mast up to a bit above the highest temperature. Tick labels
/// are exact (`3/4`, `-1`); output is deterministic.
pub fn svg(thermographs: &[(String, &Thermograph)]) -> String {
    let ths: Vec<&Thermograph> = thermographs.iter().map(|(_, t)| *t).collect();
    let plot = Plot::new(&ths);
    let f = &plot.frame;
    let (x0, x1) = (q(MARGIN_LEFT), q(MARGIN_LEFT) + &plot.width);
    let (y0, y1) = (q(MARGIN_TOP), q(MARGIN_TOP) + &plot.height);
    let legend_top = &y1 + q(MARGIN_BOTTOM);
    let total_w = &x1 + q(MARGIN_RIGHT);
    let total_h = &legend_top + q(LEGEND_LINE * thermographs.len() as i64) + q(8);

    let mut out = String::new();
    let title = if thermographs.is_empty() {
        "Thermograph".to_string()
    } else {
        let names: Vec<&str> = thermographs.iter().map(|(l, _)| l.as_str()).collect();
        format!("Thermograph of {}", names.join(", "))
    };
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#,
        w = px(&total_w),
        h = px(&total_h)
    );
    let _ = writeln!(out, "<title>{}</title>", xml_escape(&title));
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
        px(&total_w),
        px(&total_h)
    );

    // Grid and tick labels.
    let vstep = nice_step(
        &(&f.v_hi - &f.v_lo),
        (&plot.width / q(60))
            .floor()
            .to_integer()
            .try_into()
            .unwrap_or(2),
    );
    let tstep = nice_step(
        &(&f.t_hi - &f.t_lo),
        (&plot.height / q(44))
            .floor()
            .to_integer()
            .try_into()
            .unwrap_or(2),
    );
    out.push_str("<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n");
    for v in ticks(&f.v_lo, &f.v_hi, &vstep) {
        let x = px(&plot.x(&v));
        let _ = writeln!(
            out,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
            px(&y0),
            px(&y1)
        );
    }
    for t in ticks(&f.t_lo, &f.t_hi, &tstep) {
        let y = px(&plot.y(&t));
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}"/>"#,
            px(&x0),
            px(&x1)
        );
    }
    out.push_str("</g>\n");
    // The lines t = 0 and value = 0, a little darker.
    out.push_str("<g stroke=\"#9a9a9a\" stroke-width=\"1\" stroke-dasharray=\"4 3\">\n");
    if f.v_lo <= Q::zero() && Q::zero() <= f.v_hi {
        let x = px(&plot.x(&Q::zero()));
        let _ = writeln!(
            out,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
            px(&y0),
            px(&y1)
        );
    }
    if f.t_lo <= Q::zero() && Q::zero() <= f.t_hi {
        let y = px(&plot.y(&Q::zero()));
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}"/>"#,
            px(&x0),
            px(&x1)
        );
    }
    out.push_str("</g>\n");
    // Frame and ticks.
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black" stroke-width="1"/>"#,
        px(&x0),
        px(&y0),
        px(&plot.width),
        px(&plot.height)
    );
    out.push_str("<g stroke=\"black\" stroke-width=\"1\">\n");
    for v in ticks(&f.v_lo, &f.v_hi, &vstep) {
        let x = px(&plot.x(&v));
        let _ = writeln!(
            out,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
            px(&y1),
            px(&(&y1 + q(5)))
        );
    }
    for t in ticks(&f.t_lo, &f.t_hi, &tstep) {
        let y = px(&plot.y(&t));
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}"/>"#,
            px(&(&x0 - q(5))),
            px(&x0)
        );
    }
    out.push_str("</g>\n");
    out.push_str("<g fill=\"black\">\n");
    for v in ticks(&f.v_lo, &f.v_hi, &vstep) {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            px(&plot.x(&v)),
            px(&(&y1 + q(18))),
            xml_escape(&v.to_string())
        );
    }
    for t in ticks(&f.t_lo, &f.t_hi, &tstep) {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            px(&(&x0 - q(8))),
            px(&(plot.y(&t) + q(4))),
            xml_escape(&t.to_string())
        );
    }
    // Axis titles.
    let label_y = px(&(&y1 + q(38)));
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{label_y}" text-anchor="start">← Left</text>"#,
        px(&x0)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{label_y}" text-anchor="middle">value</text>"#,
        px(&((&x0 + &x1) / q(2)))
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{label_y}" text-anchor="end">Right →</text>"#,
        px(&x1)
    );
    let ty = px(&((&y0 + &y1) / q(2)));
    let _ = writeln!(
        out,
        r#"<text x="18" y="{ty}" text-anchor="middle" transform="rotate(-90 18 {ty})">temperature t</text>"#
    );
    out.push_str("</g>\n");

    // The thermographs.
    for (i, (label, th)) in thermographs.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let temp = qmax(th.temperature().clone(), f.t_lo.clone());
        let left = wall_points(th.left_wall(), &f.t_lo, &temp);
        let right = wall_points(th.right_wall(), &f.t_lo, &temp);
        let _ = writeln!(
            out,
            r#"<g stroke="{colour}" fill="none" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"><!-- {} -->"#,
            xml_escape(label).replace("--", "- -")
        );
        if temp > f.t_lo {
            let mut area = left.clone();
            area.extend(right.iter().rev().cloned());
            let _ = writeln!(
                out,
                r#"<polygon points="{}" fill="{colour}" fill-opacity="0.08" stroke="none"/>"#,
                plot.polyline(&area)
            );
            let _ = writeln!(out, r#"<polyline points="{}"/>"#, plot.polyline(&left));
            let _ = writeln!(out, r#"<polyline points="{}"/>"#, plot.polyline(&right));
        }
        let mean = th.mean();
        let _ = writeln!(
            out,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
            px(&plot.y(&temp)),
            px(&plot.y(&f.t_hi)),
            x = px(&plot.x(mean))
        );
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="3" fill="{colour}" stroke="none"/>"#,
            px(&plot.x(mean)),
            px(&plot.y(&temp))
        );
        out.push_str("</g>\n");
    }

    // Legend.
    for (i, (label, th)) in thermographs.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let y = &legend_top + q(LEGEND_LINE * i as i64);
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="3"/>"#,
            px(&x0),
            px(&(&x0 + q(24))),
            y = px(&(&y - q(4)))
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}">{}: mast {}, temperature {}</text>"#,
            px(&(&x0 + q(32))),
            px(&y),
            xml_escape(label),
            th.mean(),
            th.temperature()
        );
    }
    out.push_str("</svg>\n");
    out
}

// ---------------------------------------------------------------------------
// ASCII sketch

/// A character sketch of a thermograph, `height` rows and at most `width`
/// columns, in the usual orientation (temperature up, value decreasing to the
/// right): `/` for a wall leaning right as `t` rises (the left wall `x - t`),
/// `\` for one leaning left (the right wall `x + t`), `|` for vertical walls
/// and the mast, and a dotted row at `t = 0`. Slopes ±1 come out at 45° (two
/// columns per row, as terminal cells are about twice as tall as wide) unless
/// the value range needs the whole width. Below the sketch: the values at its
/// left and right edges, then the mast value and the temperature.
pub fn sketch(t: &Thermograph, width: usize, height: usize) -> String {
    let width = width.max(2);
    let height = height.max(2);
    let f = Frame::new(&[t]);
    let vspan = &f.v_hi - &f.v_lo;
    let rows_per_unit = q(height as i64 - 1) / (&f.t_hi - &f.t_lo);
    let cols_per_unit = qmin(rows_per_unit * q(2), q(width as i64 - 1) / &vspan);
    let width: usize = (&vspan * &cols_per_unit)
        .floor()
        .to_integer()
        .try_into()
        .map_or(width, |w: usize| (w + 1).min(width));
    let mut grid = vec![vec![' '; width]; height];
    // The exact (fractional) column of a value.
    let col_of = |v: &Q| (&f.v_hi - v) * &cols_per_unit;
    let clamp = |c: BigInt| -> usize {
        let c: i64 = c.try_into().unwrap_or(i64::MAX);
        c.clamp(0, width as i64 - 1) as usize
    };
    let dt = (&f.t_hi - &f.t_lo) / q(height as i64 - 1);
    // Row r (0 at the top) stands for t in [t_r - dt/2, t_r + dt/2].
    let row_span = |r: usize| {
        let centre = &f.t_hi - &dt * q(r as i64);
        let half = &dt / q(2);
        (
            qmax(&centre - &half, f.t_lo.clone()),
            qmin(&centre + &half, f.t_hi.clone()),
        )
    };

    // The row holding t = 0, dotted.
    if f.t_lo <= Q::zero() && Q::zero() <= f.t_hi {
        let r = clamp(round(&(&f.t_hi / &dt)));
        grid[r].iter_mut().for_each(|c| *c = '.');
    }

    let temp = qmax(t.temperature().clone(), f.t_lo.clone());
    for wall in [t.left_wall(), t.right_wall()] {
        let pts = wall_points(wall, &f.t_lo, &temp);
        for seg in pts.windows(2) {
            let ((ta, va), (tb, vb)) = (&seg[0], &seg[1]);
            let slope = (vb - va) / (tb - ta);
            let ch = if slope.is_zero() {
                '|'
            } else if slope.is_negative() {
                '/'
            } else {
                '\\'
            };
            let value_at = |s: &Q| va + &slope * (s - ta);
            for (r, row) in grid.iter_mut().enumerate() {
                let (lo, hi) = row_span(r);
                let a = qmax(lo, ta.clone());
                let b = qmin(hi, tb.clone());
                if a >= b {
                    continue;
                }
                let (ca, cb) = (col_of(&value_at(&a)), col_of(&value_at(&b)));
                let (left, right) = if ca <= cb {
                    (ca.clone(), cb)
                } else {
                    (cb, ca.clone())
                };
                // Cells a segment crosses, without the half cells at its ends
                // that the neighbouring rows draw.
                let (from, to) = if &right - &left <= Q::one() {
                    // One cell; on a tie the one at the lower end, so that
                    // left and right walls come out symmetric.
                    let mid = (&left + &right) / q(2);
                    let cell = if (&mid - mid.floor()) == qf(1, 2) {
                        round(&ca)
                    } else {
                        round(&mid)
                    };
                    (cell.clone(), cell)
                } else {
                    (round(&(left + qf(1, 2))), round(&(right - qf(1, 2))))
                };
                row[clamp(from)..=clamp(to)].fill(ch);
            }
        }
    }

    // The mast, from the temperature up.
    let mast_col = clamp(round(&col_of(t.mean())));
    for (r, row) in grid.iter_mut().enumerate() {
        if row_span(r).1 > temp {
            row[mast_col] = '|';
        }
    }

    let mut out = String::new();
    for row in &grid {
        let line: String = row.iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let (l, r) = (f.v_hi.to_string(), f.v_lo.to_string());
    if l.chars().count() + r.chars().count() < width {
        let gap = width - l.chars().count() - r.chars().count();
        let _ = writeln!(out, "{l}{}{r}", " ".repeat(gap));
    }
    let _ = writeln!(out, "mast {}, temperature {}", t.mean(), t.temperature());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Dyadic, GameId, Store};
    use expect_test::{expect, Expect};

    fn sw(s: &mut Store, l: GameId, r: GameId) -> GameId {
        s.canonical(vec![l], vec![r]).unwrap()
    }

    /// `{a || b | c}`.
    fn three_stop(s: &mut Store, a: i64, b: i64, c: i64) -> GameId {
        let (a, b, c) = (s.integer(a), s.integer(b), s.integer(c));
        let inner = sw(s, b, c);
        sw(s, a, inner)
    }

    fn check_sketch(s: &mut Store, g: GameId, w: usize, h: usize, expect: Expect) {
        let th = s.thermograph(g).unwrap();
        expect.assert_eq(&sketch(&th, w, h));
    }

    #[test]
    fn exact_helpers() {
        assert_eq!(px(&qf(1, 3)), "0.33");
        assert_eq!(px(&qf(5, 2)), "2.5");
        assert_eq!(px(&q(-7)), "-7");
        assert_eq!(px(&qf(-1, 3)), "-0.33");
        assert_eq!(nice_step(&q(3), 8), qf(1, 2));
        assert_eq!(nice_step(&q(13), 8), q(2));
        assert_eq!(nice_step(&q(130), 8), q(20));
        assert_eq!(nice_step(&q(300), 8), q(50));
        assert_eq!(
            ticks(&qf(-3, 2), &qf(5, 4), &qf(1, 2)),
            vec![qf(-3, 2), q(-1), qf(-1, 2), q(0), qf(1, 2), q(1)]
        );
        assert_eq!(xml_escape("^<2> & <>"), "^&lt;2&gt; &amp; &lt;&gt;");
    }
    #[test]
    fn sketch_of_a_sente_like_gote() {
        let mut s = Store::new();
        let g = three_stop(&mut s, 10, 0, -100);
        check_sketch(
            &mut s,
            g,
            36,
            14,
            expect![[r#"
                                |
                                |
                                |
                                |
                              //|
                            //  |
                          //    |
                        //      |
                      //        |
                    //          |
                  //            |
                //              |
            ..//................|
            /                   |
            11                  0
            mast 0, temperature 10
        "#]],
        );
    }

    #[test]
    fn sketch_of_three_stop() {
        let mut s = Store::new();
        let g = three_stop(&mut s, 3, 2, 1);
        check_sketch(
            &mut s,
            g,
            36,
            14,
            expect![[r#"
                             |
                             |
                             |
                             |
                             |
                            /|\
                          //  \
                        //    |
            ..........//......|
                    //        |
                  //          |
                //            |
              //              |
            /                 |
            4                 2
            mast 9/4, temperature 3/4
        "#]],
        );
    }

    #[test]
    fn sketch_of_an_integer() {
        let mut s = Store::new();
        let g = s.integer(2);
        check_sketch(
            &mut s,
            g,
            21,
            6,
            expect![[r#"
                 |
                 |
                 |
            .....|.....
                 |
                 |
            3         1
            mast 2, temperature -1
        "#]],
        );
    }

    #[test]
    fn sketch_of_a_fraction() {
        let mut s = Store::new();
        let g = s.number(Dyadic::new((-3).into(), 1));
        check_sketch(
            &mut s,
            g,
            21,
            6,
            expect![[r#"
                 |
                 |
                 |
            .....|.....
                 |
                 |
            -1/2   -5/2
            mast -3/2, temperature -1/2
        "#]],
        );
    }

    #[test]
    fn sketch_of_plus_minus_one() {
        let mut s = Store::new();
        let (one, m1) = (s.integer(1), s.integer(-1));
        let g = sw(&mut s, one, m1);
        check_sketch(
            &mut s,
            g,
            25,
            9,
            expect![[r#"
                       |
                       |
                       |
                      /|\
                    //   \\
            ......//.......\\.....
                //           \\
              //               \\
            /                    \
            2                   -2
            mast 0, temperature 1
        "#]],
        );
    }

    #[test]
    fn sketch_of_star_and_up() {
        let mut s = Store::new();
        let g = s.star();
        check_sketch(
            &mut s,
            g,
            21,
            7,
            expect![[r#"
                  |
                  |
                  |
            ...../|\.....
                //  \\
              //      \\
            /           \
            1          -1
            mast 0, temperature 0
        "#]],
        );
        let g = s.ups(1);
        check_sketch(
            &mut s,
            g,
            21,
            7,
            expect![[r#"
                  |
                  |
                  |
            ...../|
                //|
              //  |
            /     |
            1     0
            mast 0, temperature 0
        "#]],
        );
    }

    #[test]
    fn svg_of_three_stop() {
        let mut s = Store::new();
        let g = three_stop(&mut s, 3, 2, 1);
        let th = s.thermograph(g).unwrap();
        expect![[r##"
            <svg xmlns="http://www.w3.org/2000/svg" width="532.36" height="504" viewBox="0 0 532.36 504" font-family="sans-serif" font-size="12">
            <title>Thermograph of {3||2|1}</title>
            <rect x="0" y="0" width="532.36" height="504" fill="white"/>
            <g stroke="#e4e4e4" stroke-width="1">
            <line x1="508.36" y1="20" x2="508.36" y2="420"/>
            <line x1="435.64" y1="20" x2="435.64" y2="420"/>
            <line x1="362.91" y1="20" x2="362.91" y2="420"/>
            <line x1="290.18" y1="20" x2="290.18" y2="420"/>
            <line x1="217.45" y1="20" x2="217.45" y2="420"/>
            <line x1="144.73" y1="20" x2="144.73" y2="420"/>
            <line x1="72" y1="20" x2="72" y2="420"/>
            <line x1="72" y1="420" x2="508.36" y2="420"/>
            <line x1="72" y1="347.27" x2="508.36" y2="347.27"/>
            <line x1="72" y1="274.55" x2="508.36" y2="274.55"/>
            <line x1="72" y1="201.82" x2="508.36" y2="201.82"/>
            <line x1="72" y1="129.09" x2="508.36" y2="129.09"/>
            <line x1="72" y1="56.36" x2="508.36" y2="56.36"/>
            </g>
            <g stroke="#9a9a9a" stroke-width="1" stroke-dasharray="4 3">
            <line x1="72" y1="274.55" x2="508.36" y2="274.55"/>
            </g>
            <rect x="72" y="20" width="436.36" height="400" fill="none" stroke="black" stroke-width="1"/>
            <g stroke="black" stroke-width="1">
            <line x1="508.36" y1="420" x2="508.36" y2="425"/>
            <line x1="435.64" y1="420" x2="435.64" y2="425"/>
            <line x1="362.91" y1="420" x2="362.91" y2="425"/>
            <line x1="290.18" y1="420" x2="290.18" y2="425"/>
            <line x1="217.45" y1="420" x2="217.45" y2="425"/>
            <line x1="144.73" y1="420" x2="144.73" y2="425"/>
            <line x1="72" y1="420" x2="72" y2="425"/>
            <line x1="67" y1="420" x2="72" y2="420"/>
            <line x1="67" y1="347.27" x2="72" y2="347.27"/>
            <line x1="67" y1="274.55" x2="72" y2="274.55"/>
            <line x1="67" y1="201.82" x2="72" y2="201.82"/>
            <line x1="67" y1="129.09" x2="72" y2="129.09"/>
            <line x1="67" y1="56.36" x2="72" y2="56.36"/>
            </g>
            <g fill="black">
            <text x="508.36" y="438" text-anchor="middle">3/2</text>
            <text x="435.64" y="438" text-anchor="middle">2</text>
            <text x="362.91" y="438" text-anchor="middle">5/2</text>
            <text x="290.18" y="438" text-anchor="middle">3</text>
            <text x="217.45" y="438" text-anchor="middle">7/2</text>
            <text x="144.73" y="438" text-anchor="middle">4</text>
            <text x="72" y="438" text-anchor="middle">9/2</text>
            <text x="64" y="424" text-anchor="end">-1</text>
            <text x="64" y="351.27" text-anchor="end">-1/2</text>
            <text x="64" y="278.55" text-anchor="end">0</text>
            <text x="64" y="205.82" text-anchor="end">1/2</text>
            <text x="64" y="133.09" text-anchor="end">1</text>
            <text x="64" y="60.36" text-anchor="end">3/2</text>
            <text x="72" y="458" text-anchor="start">← Left</text>
            <text x="290.18" y="458" text-anchor="middle">value</text>
            <text x="508.36" y="458" text-anchor="end">Right →</text>
            <text x="18" y="220" text-anchor="middle" transform="rotate(-90 18 220)">temperature t</text>
            </g>
            <g stroke="#1f77b4" fill="none" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"><!-- {3||2|1} -->
            <polygon points="144.73,420 399.27,165.45 399.27,165.45 435.64,201.82 435.64,420" fill="#1f77b4" fill-opacity="0.08" stroke="none"/>
            <polyline points="144.73,420 399.27,165.45"/>
            <polyline points="435.64,420 435.64,201.82 399.27,165.45"/>
            <line x1="399.27" y1="165.45" x2="399.27" y2="20"/>
            <circle cx="399.27" cy="165.45" r="3" fill="#1f77b4" stroke="none"/>
            </g>
            <line x1="72" y1="472" x2="96" y2="472" stroke="#1f77b4" stroke-width="3"/>
            <text x="104" y="476">{3||2|1}: mast 9/4, temperature 3/4</text>
            </svg>
        "##]].assert_eq(&svg(&[("{3||2|1}".to_string(), &th)]));
    }
    #[test]
    fn svg_of_several_thermographs() {
        let mut s = Store::new();
        let a = three_stop(&mut s, 10, 0, -100);
        let b = three_stop(&mut s, 3, 2, 1);
        let (one, m1) = (s.integer(1), s.integer(-1));
        let c = sw(&mut s, one, m1);
        let d = s.integer(-2);
        let up = s.ups(2);
        let e = s.tiny(up).unwrap();
        let ths: Vec<_> = [a, b, c, d, e]
            .iter()
            .map(|&g| s.thermograph(g).unwrap())
            .collect();
        let labels = [
            "{10||0|-100}",
            "{3||2|1}",
            "+-1",
            "-2",
            "Tiny(^^) <> 0 & more",
        ];
        let input: Vec<(String, &Thermograph)> = labels
            .iter()
            .zip(&ths)
            .map(|(l, t)| (l.to_string(), &**t))
            .collect();
        let out = svg(&input);
        assert_eq!(out, svg(&input), "deterministic");
        assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(out.ends_with("</svg>\n"));
        for colour in &PALETTE[..5] {
            assert!(out.contains(colour), "{colour}");
        }
        assert!(out.contains("Tiny(^^) &lt;&gt; 0 &amp; more: mast 0, temperature 0"));
        assert!(out.contains("{10||0|-100}: mast 0, temperature 10"));
        assert!(out.contains("-2: mast -2, temperature -1"));
        // Two walls for each game hotter than t = -1, one mast for each.
        assert_eq!(out.matches("<polyline").count(), 8);
        assert_eq!(out.matches("<circle").count(), 5);
        // Tags balance, and no float-looking tick label sneaks in.
        assert_eq!(out.matches("<g ").count(), out.matches("</g>").count());
        assert_eq!(out.matches("<text").count(), out.matches("</text>").count());
        for label in out.split("text-anchor=\"end\">").skip(1) {
            let label = &label[..label.find('<').unwrap()];
            assert!(!label.contains('.'), "{label}");
        }
    }

    #[test]
    fn empty_svg_is_still_a_picture() {
        let out = svg(&[]);
        assert!(out.contains("<title>Thermograph</title>"));
        assert!(out.ends_with("</svg>\n"));
    }
}
