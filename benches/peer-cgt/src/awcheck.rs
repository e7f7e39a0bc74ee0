//! `--aw-check`: the atomic-weight criterion, tested without either engine's
//! `atomic_weight`, on the games where the engines' answers differ.
//!
//! A game `G` has atomic weight `g` when `-ε ≤ G - g.↑ ≤ ε` with
//! `ε = ↑* + (✶ : -1)`, `✶ = *N` a remote star (David Wolfe's test, as in CGSuite
//! and in yose's `atomic.rs`). Here the Norton product `g.↑`, the ordinal sum
//! `*N : -1 = {0, *, …, *(N-1) | 0, *, …, *N}` and `ε` are built by their
//! definitions through the [`Engine`] trait, with `N = 8` (every game tested has
//! nim values below 4), and the two inequalities are each engine's own `≤`. The
//! candidates are `g = k/4` for `k = -16..=16`.

use crate::common::{self, Engine, Yose};
use crate::Cgt;

/// `(n / 2^k).↑`: `U.↑ = n·↑` for an integer, otherwise
/// `{x^L.↑ + U + I | x^R.↑ - (U + I)}` with `U + I` over `{0, ⇑*}` (↑ plus each of
/// its incentives `↓` and `↑*`), `x^L, x^R = (n ∓ 1) / 2^k`.
fn norton_up<E: Engine>(e: &mut E, n: i64, k: u32) -> E::G {
    if k == 0 {
        return e.ups(n as i32);
    }
    if n % 2 == 0 {
        return norton_up(e, n / 2, k - 1);
    }
    let l = norton_up(e, n - 1, k);
    let r = norton_up(e, n + 1, k);
    let up2 = e.ups(2);
    let star = e.nim(1);
    let up2star = e.add(&up2, &star);
    let l2 = e.add(&l, &up2star);
    let r2 = e.sub(&r, &up2star);
    e.game(vec![l, l2], vec![r, r2])
}

/// `ε = ↑* + (*N : -1)`.
fn epsilon<E: Engine>(e: &mut E, n: u32) -> E::G {
    let left: Vec<E::G> = (0..n).map(|i| e.nim(i)).collect();
    let right: Vec<E::G> = (0..=n).map(|i| e.nim(i)).collect();
    let kite = e.game(left, right);
    let up = e.ups(1);
    let star = e.nim(1);
    let upstar = e.add(&up, &star);
    e.add(&upstar, &kite)
}

/// The candidates `k/4` that pass the criterion for `g`, as strings.
fn passing<E: Engine>(e: &mut E, g: &E::G) -> Vec<String> {
    let eps = epsilon(e, 8);
    let neg_eps = e.neg(&eps);
    let mut out = Vec::new();
    for k in -16..=16i64 {
        let w = norton_up(e, k, 2);
        let d = e.sub(g, &w);
        if e.le(&d, &eps) && e.le(&neg_eps, &d) {
            let (n, den) = match k.rem_euclid(4) {
                0 => (k / 4, 1),
                2 => (k / 2, 2),
                _ => (k, 4),
            };
            out.push(if den == 1 {
                n.to_string()
            } else {
                format!("{n}/{den}")
            });
        }
    }
    out
}

fn answer<E: Engine>(e: &mut E, g: &E::G) -> String {
    match e.atomic_weight(g) {
        Ok(w) => e.show(&w, 200).unwrap_or("(long)".into()),
        Err(err) => err.to_string(),
    }
}

pub fn run() {
    println!("candidates g = k/4, k = -16..=16, passing -ε ≤ G - g.↑ ≤ ε (ε = ↑* + (*8 : -1)):");
    let mut names: Vec<String> = vec!["d (deep_mixed)".into()];
    names.extend(common::SMALL_NAMES.iter().map(|s| s.to_string()));
    for (i, name) in names.iter().enumerate() {
        let mut y = Yose::fresh();
        let mut c = Cgt::fresh();
        let (gy, gc) = if i == 0 {
            (
                common::deep_games(&mut y)[3].clone(),
                common::deep_games(&mut c)[3].clone(),
            )
        } else {
            (
                common::small_games(&mut y)[i - 1].clone(),
                common::small_games(&mut c)[i - 1].clone(),
            )
        };
        let py = passing(&mut y, &gy);
        let pc = passing(&mut c, &gc);
        println!(
            "{name}: atomic_weight yose {} / cgt {}; criterion passes for {{{}}} (yose ≤), {{{}}} (cgt ≤)",
            answer(&mut y, &gy),
            answer(&mut c, &gc),
            py.join(", "),
            pc.join(", ")
        );
    }
}
