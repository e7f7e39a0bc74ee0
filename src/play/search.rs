//! The exact search behind [`super::solve`] and friends.
//!
//! A position is a list of canonical components. The search works on its
//! *hot part*: the sorted multiset of components whose stops differ, plus a
//! number offset collecting numbers and the stops of the other components.
//! Alpha-beta over that multiset with a transposition table keyed by
//! `(multiset, player to move)`; values are stops of the hot part alone, so an
//! entry is reused under any offset.
//!
//! # Facts used, and why each is exact
//!
//! Stops are those of the module docs of `crate::play`. `≥` is the game order.
//!
//! * **F0 (play to all-numbers).** For canonical components the recursion
//!   "a sum is terminal iff every component is a number" gives the stops of
//!   the value of the sum, even when the value is a number earlier. Proof by
//!   induction: if the value `S` is not a number, `LS(S) = max RS(S^L)` for any
//!   form. If `S = x` is a number, every `S^L ⧏ x`, and `RS(H) > x` would imply
//!   `H > x`, so all `RS(S^L) ≤ x`; and a non-number component `G` (canonical,
//!   so not equal to a number) has an option with `RS(G^L) = LS(G)`, whence
//!   `RS(G^L + T) ≥ RS(G^L) + RS(T) = LS(G) + RS(x - G) = x` (`T` the rest,
//!   `RS(x - G) = x - LS(G)`). So the maximum is exactly `x`.
//! * **F1 (stop inequalities;** Siegel, *CGT*, §II.1**).**
//!   `LS(G) + RS(H) ≤ LS(G + H) ≤ LS(G) + LS(H)`,
//!   `RS(G) + RS(H) ≤ RS(G + H) ≤ RS(G) + LS(H)`.
//! * **F2 (number-ish components).** If `LS(H) = RS(H) = h` then by F1
//!   `LS(G + H) = LS(G) + h` and `RS(G + H) = RS(G) + h`. So numbers, `x + ↑`,
//!   `*n`, tinies, `0^n⧾` … — every component infinitesimally close to a number
//!   — leave the search and add their stop. (A `*` cannot "change the
//!   parity" of the hot play as far as stops go: F1 pins the result.)
//!   Number avoidance is the special case `H = x`; moving in a number is never
//!   optimal: `RS(x^L + G) = x^L + RS(G) < x + LS(G)`.
//! * **F3 (cancellation).** Components `A` and `-A` sum to 0, two copies of a
//!   switch `{a|b}` sum to the number `a + b`; such pairs are replaced by the
//!   number (stops depend only on the value).
//! * **F4 (incentive dominance across components).** Left's move `A → A^L`
//!   is at least as good as `B → B^L` in *any* sum when the incentives compare,
//!   `A^L - A ≥ B^L - B`, because then `A^L + B + X ≥ A + B^L + X` and stops are
//!   monotone. For Right, `A - A^R ≥ B - B^R`. Dominated moves are not searched
//!   (one of several equal ones is kept).
//! * **F5 (switches, Chang, “Hotstrat Optimality Fails”, Lemma 4.1).** The incentive of a switch `{a|b}`
//!   (numbers `a > b`) is `{a - b | 0}` for both players, increasing in the
//!   swing `a - b`. By F4 a move in the switch of largest swing dominates every
//!   other switch move, in any sum. Hence only that switch is searched, and a
//!   hot part made only of switches is solved by sorting on swing:
//!   `LS = Σ_{odd k} a_(k) + Σ_{even k} b_(k)` (Left takes, Right answers, in
//!   decreasing swing order), `RS` symmetric. This is a proof of Lemma 4.1 (the
//!   paper's exchange argument is not one: it treats play as a fixed
//!   permutation).
//! * **F6 (static bounds).** With `m = Σ mean`, `T = max temperature`,
//!   `σ = max (LS_i - RS_i)` over the hot components:
//!   `max(m, ΣRS_i + σ) ≤ LS ≤ min(m + T, ΣLS_i)` and
//!   `max(m - T, ΣRS_i) ≤ RS ≤ min(m, ΣLS_i - σ)`. (Left walls of thermographs
//!   have slopes in {0, -1} from `LS` down to the mast, so `m ≤ LS ≤ m + T`;
//!   the mean is additive and the temperature of a sum is at most the largest
//!   temperature; the rest is F1.) They cut the alpha-beta window.

use super::{Line, Move, MoveRecord, PlayError, PlayResult, Player};
use crate::game::{Dyadic, GameId, Store};
use num_rational::BigRational;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// What a component is, for the search.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Number(Dyadic),
    /// Not a number but `LS = RS` (infinitesimally close to a number): its stop.
    Ish(Dyadic),
    /// `{a | b}` with numbers `a > b`.
    Switch {
        a: Dyadic,
        b: Dyadic,
    },
    /// Anything else (`LS > RS`).
    Hot,
}

#[derive(Clone, Debug)]
pub(crate) struct Info {
    pub kind: Kind,
    pub ls: Dyadic,
    pub rs: Dyadic,
    pub mean: Dyadic,
    pub temp: BigRational,
    /// The temperature as a dyadic (always, for short games).
    pub temp_d: Option<Dyadic>,
}

impl Info {
    pub fn is_hot(&self) -> bool {
        matches!(self.kind, Kind::Switch { .. } | Kind::Hot)
    }
}

/// A move in the hot part, with the data that orders and prunes it.
#[derive(Clone, Debug)]
struct MoveInfo {
    /// The incentive: `to - from` for Left, `from - to` for Right.
    inc: GameId,
    inc_ls: Dyadic,
    inc_rs: Dyadic,
}

/// A transposition-table entry: bounds on the stop of the hot part.
#[derive(Clone, Debug, Default)]
struct Entry {
    lo: Option<Dyadic>,
    hi: Option<Dyadic>,
    best: Option<(GameId, GameId)>,
}

/// A lower window end (`None` = −∞) and an upper one (`None` = +∞).
type Lo = Option<Dyadic>;
type Hi = Option<Dyadic>;

pub(crate) struct Solver<'s> {
    pub store: &'s mut Store,
    info: FxHashMap<GameId, Rc<Info>>,
    moves: FxHashMap<(GameId, GameId, bool), Rc<MoveInfo>>,
    ge: FxHashMap<(GameId, GameId), bool>,
    /// Index 0: Right to move, 1: Left to move.
    tt: [FxHashMap<Vec<GameId>, Entry>; 2],
    pub nodes: u64,
    pub tt_hits: u64,
    /// The node count (of `nodes`) beyond which the search stops.
    pub budget: u64,
}

/// The tighter of two lower window ends or table bounds (`None` = −∞); the
/// ko solver's table uses it too.
pub(crate) fn max_lo<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(x.max(y)),
    }
}

/// The tighter of two upper window ends or table bounds (`None` = +∞).
pub(crate) fn min_hi<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(x.min(y)),
    }
}

impl<'s> Solver<'s> {
    pub fn new(store: &'s mut Store, budget: u64) -> Solver<'s> {
        Solver {
            store,
            info: FxHashMap::default(),
            moves: FxHashMap::default(),
            ge: FxHashMap::default(),
            tt: [FxHashMap::default(), FxHashMap::default()],
            nodes: 0,
            tt_hits: 0,
            budget,
        }
    }

    fn count_node(&mut self) -> PlayResult<()> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(PlayError::Budget {
                nodes: self.nodes,
                limit: self.budget,
            });
        }
        self.store.tick()?;
        Ok(())
    }

    // ----- component data ---------------------------------------------------

    pub fn info(&mut self, g: GameId) -> PlayResult<Rc<Info>> {
        if let Some(i) = self.info.get(&g) {
            return Ok(i.clone());
        }
        let st = &mut *self.store;
        let ls = st.left_stop(g)?;
        let rs = st.right_stop(g)?;
        let kind = if let Some(x) = st.as_number(g) {
            Kind::Number(x.clone())
        } else if ls == rs {
            Kind::Ish(ls.clone())
        } else {
            let (l, r) = st.options(g);
            let switch = match (&l[..], &r[..]) {
                ([a], [b]) => match (st.as_number(*a), st.as_number(*b)) {
                    (Some(a), Some(b)) if a > b => Some(Kind::Switch {
                        a: a.clone(),
                        b: b.clone(),
                    }),
                    _ => None,
                },
                _ => None,
            };
            switch.unwrap_or(Kind::Hot)
        };
        let temp = st.temperature(g)?;
        let mean = st.mean(g)?;
        let info = Rc::new(Info {
            temp_d: Dyadic::from_rational(&temp),
            kind,
            ls,
            rs,
            mean,
            temp,
        });
        self.info.insert(g, info.clone());
        Ok(info)
    }

    fn move_info(&mut self, from: GameId, to: GameId, left: bool) -> PlayResult<Rc<MoveInfo>> {
        if let Some(m) = self.moves.get(&(from, to, left)) {
            return Ok(m.clone());
        }
        let inc = if left {
            self.store.sub(to, from)?
        } else {
            self.store.sub(from, to)?
        };
        let m = Rc::new(MoveInfo {
            inc,
            inc_ls: self.store.left_stop(inc)?,
            inc_rs: self.store.right_stop(inc)?,
        });
        self.moves.insert((from, to, left), m.clone());
        Ok(m)
    }

    /// `a ≥ b` (memoised).
    fn game_ge(&mut self, a: GameId, b: GameId) -> PlayResult<bool> {
        if a == b {
            return Ok(true);
        }
        if let Some(&r) = self.ge.get(&(a, b)) {
            return Ok(r);
        }
        let r = self.store.le(b, a)?;
        self.ge.insert((a, b), r);
        Ok(r)
    }

    // ----- positions ----------------------------------------------------------

    /// Adds a component to a hot multiset (sorted), or its stop to the offset
    /// (F2), cancelling pairs (F3).
    fn absorb(&mut self, hot: &mut Vec<GameId>, offset: &mut Dyadic, g: GameId) -> PlayResult<()> {
        let info = self.info(g)?;
        match &info.kind {
            Kind::Number(x) | Kind::Ish(x) => {
                *offset = offset.add(x);
            }
            Kind::Switch { a, b } => {
                if let Ok(pos) = hot.binary_search(&g) {
                    hot.remove(pos);
                    *offset = offset.add(&a.add(b));
                } else {
                    let n = self.store.neg(g);
                    if let Ok(pos) = hot.binary_search(&n) {
                        hot.remove(pos);
                    } else {
                        let pos = hot.binary_search(&g).unwrap_or_else(|p| p);
                        hot.insert(pos, g);
                    }
                }
            }
            Kind::Hot => {
                let n = self.store.neg(g);
                if let Ok(pos) = hot.binary_search(&n) {
                    hot.remove(pos);
                } else {
                    let pos = hot.binary_search(&g).unwrap_or_else(|p| p);
                    hot.insert(pos, g);
                }
            }
        }
        Ok(())
    }

    /// The hot multiset and number offset of a full position.
    fn normalize(&mut self, comps: &[GameId]) -> PlayResult<(Vec<GameId>, Dyadic)> {
        let mut hot = Vec::new();
        let mut offset = Dyadic::zero();
        for &g in comps {
            self.absorb(&mut hot, &mut offset, g)?;
        }
        Ok((hot, offset))
    }

    fn child(&mut self, hot: &[GameId], i: usize, to: GameId) -> PlayResult<(Vec<GameId>, Dyadic)> {
        let mut v = Vec::with_capacity(hot.len());
        v.extend_from_slice(&hot[..i]);
        v.extend_from_slice(&hot[i + 1..]);
        let mut delta = Dyadic::zero();
        self.absorb(&mut v, &mut delta, to)?;
        Ok((v, delta))
    }

    // ----- the search -----------------------------------------------------------

    /// F5: the stop of a hot part made only of switches, else `None`.
    fn switch_closed_form(&mut self, hot: &[GameId], left: bool) -> PlayResult<Option<Dyadic>> {
        let mut sw: Vec<(Dyadic, Dyadic, Dyadic)> = Vec::with_capacity(hot.len());
        for &g in hot {
            let info = self.info(g)?;
            match &info.kind {
                Kind::Switch { a, b } => sw.push((a.sub(b), a.clone(), b.clone())),
                _ => return Ok(None),
            }
        }
        sw.sort_by(|x, y| y.0.cmp(&x.0));
        let mut total = Dyadic::zero();
        for (k, (_, a, b)) in sw.iter().enumerate() {
            let left_takes = (k % 2 == 0) == left;
            total = total.add(if left_takes { a } else { b });
        }
        Ok(Some(total))
    }

    /// F6: exact bounds on the stop of the hot part.
    fn static_bounds(
        &mut self,
        hot: &[GameId],
        left: bool,
    ) -> PlayResult<Option<(Dyadic, Dyadic)>> {
        let mut m = Dyadic::zero();
        let mut sum_ls = Dyadic::zero();
        let mut sum_rs = Dyadic::zero();
        let mut t = Dyadic::zero();
        let mut swing = Dyadic::zero();
        for &g in hot {
            let info = self.info(g)?;
            let Some(tg) = &info.temp_d else {
                return Ok(None);
            };
            m = m.add(&info.mean);
            sum_ls = sum_ls.add(&info.ls);
            sum_rs = sum_rs.add(&info.rs);
            if tg > &t {
                t = tg.clone();
            }
            let s = info.ls.sub(&info.rs);
            if s > swing {
                swing = s;
            }
        }
        Ok(Some(if left {
            (m.clone().max(sum_rs.add(&swing)), m.add(&t).min(sum_ls))
        } else {
            (m.sub(&t).max(sum_rs), m.min(sum_ls.sub(&swing)))
        }))
    }

    /// The moves searched at a node: one per distinct component option, minus
    /// the dominated ones (F4, F5), best first.
    fn node_moves(
        &mut self,
        hot: &[GameId],
        left: bool,
        hint: Option<(GameId, GameId)>,
    ) -> PlayResult<Vec<(usize, GameId)>> {
        struct Cand {
            idx: usize,
            from: GameId,
            to: GameId,
            temp: BigRational,
            mi: Rc<MoveInfo>,
        }
        let mut cands: Vec<Cand> = Vec::new();
        let mut best_switch: Option<(Dyadic, usize)> = None;
        for (i, &g) in hot.iter().enumerate() {
            if i > 0 && hot[i - 1] == g {
                continue;
            }
            let info = self.info(g)?;
            match &info.kind {
                Kind::Switch { a, b } => {
                    let s = a.sub(b);
                    if best_switch.as_ref().is_none_or(|(bs, _)| &s > bs) {
                        best_switch = Some((s, i));
                    }
                }
                _ => {
                    let opts = if left {
                        self.store.left_options(g)
                    } else {
                        self.store.right_options(g)
                    };
                    for &o in opts.iter() {
                        let mi = self.move_info(g, o, left)?;
                        cands.push(Cand {
                            idx: i,
                            from: g,
                            to: o,
                            temp: info.temp.clone(),
                            mi,
                        });
                    }
                }
            }
        }
        if let Some((_, i)) = best_switch {
            let g = hot[i];
            let o = if left {
                self.store.left_options(g)[0]
            } else {
                self.store.right_options(g)[0]
            };
            let mi = self.move_info(g, o, left)?;
            let temp = self.info(g)?.temp.clone();
            cands.push(Cand {
                idx: i,
                from: g,
                to: o,
                temp,
                mi,
            });
        }
        // F4: drop moves whose incentive is dominated by another component's.
        let n = cands.len();
        let mut keep = vec![true; n];
        for i in 0..n {
            for j in 0..n {
                if i == j || !keep[j] || cands[i].from == cands[j].from {
                    continue;
                }
                let (a, b) = (&cands[j].mi, &cands[i].mi);
                if a.inc == b.inc {
                    if j < i {
                        keep[i] = false;
                        break;
                    }
                    continue;
                }
                // Stops are monotone: a quick necessary condition first.
                if a.inc_ls < b.inc_ls || a.inc_rs < b.inc_rs {
                    continue;
                }
                let (ai, bi) = (a.inc, b.inc);
                if self.game_ge(ai, bi)? {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut out: Vec<Cand> = cands
            .into_iter()
            .zip(keep)
            .filter_map(|(c, k)| k.then_some(c))
            .collect();
        out.sort_by(|x, y| {
            let hx = hint == Some((x.from, x.to));
            let hy = hint == Some((y.from, y.to));
            hy.cmp(&hx)
                .then_with(|| y.temp.cmp(&x.temp))
                .then_with(|| y.mi.inc_ls.cmp(&x.mi.inc_ls))
                .then_with(|| y.mi.inc_rs.cmp(&x.mi.inc_rs))
                .then_with(|| x.idx.cmp(&y.idx))
        });
        Ok(out.into_iter().map(|c| (c.idx, c.to)).collect())
    }

    /// Fail-soft alpha-beta: the stop of the hot part `hot` (sorted) with
    /// `left` to move, exact when strictly inside `(alpha, beta)`; a result
    /// `≤ alpha` is an upper bound and one `≥ beta` a lower bound.
    fn search(&mut self, hot: &[GameId], left: bool, alpha: Lo, beta: Hi) -> PlayResult<Dyadic> {
        self.count_node()?;
        if hot.is_empty() {
            return Ok(Dyadic::zero());
        }
        if let Some(v) = self.switch_closed_form(hot, left)? {
            return Ok(v);
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let side = left as usize;
        let mut hint = None;
        if let Some(e) = self.tt[side].get(hot) {
            self.tt_hits += 1;
            if let (Some(lo), Some(hi)) = (&e.lo, &e.hi) {
                if lo == hi {
                    return Ok(lo.clone());
                }
            }
            if let (Some(lo), Some(b)) = (&e.lo, &beta) {
                if lo >= b {
                    return Ok(lo.clone());
                }
            }
            if let (Some(hi), Some(a)) = (&e.hi, &alpha) {
                if hi <= a {
                    return Ok(hi.clone());
                }
            }
            hint = e.best;
            alpha = max_lo(alpha, e.lo.clone());
            beta = min_hi(beta, e.hi.clone());
        }
        if let Some((lo, hi)) = self.static_bounds(hot, left)? {
            if lo == hi {
                self.store_tt(side, hot, Some(lo.clone()), Some(lo.clone()), None);
                return Ok(lo);
            }
            if alpha.as_ref().is_some_and(|a| &hi <= a) {
                return Ok(hi);
            }
            if beta.as_ref().is_some_and(|b| &lo >= b) {
                return Ok(lo);
            }
            alpha = max_lo(alpha, Some(lo));
            beta = min_hi(beta, Some(hi));
        }
        let (a0, b0) = (alpha.clone(), beta.clone());
        let moves = self.node_moves(hot, left, hint)?;
        let mut best: Option<Dyadic> = None;
        let mut best_move = None;
        for (i, to) in moves {
            let from = hot[i];
            let (child, delta) = self.child(hot, i, to)?;
            let ca = alpha.as_ref().map(|a| a.sub(&delta));
            let cb = beta.as_ref().map(|b| b.sub(&delta));
            let v = self.search(&child, !left, ca, cb)?.add(&delta);
            let better = best
                .as_ref()
                .is_none_or(|b| if left { &v > b } else { &v < b });
            if better {
                best = Some(v.clone());
                best_move = Some((from, to));
            }
            if left {
                if alpha.as_ref().is_none_or(|a| &v > a) {
                    alpha = Some(v);
                }
            } else if beta.as_ref().is_none_or(|b| &v < b) {
                beta = Some(v);
            }
            if let (Some(a), Some(b)) = (&alpha, &beta) {
                if a >= b {
                    break;
                }
            }
        }
        // A hot component always has options on both sides.
        let best = best.unwrap_or_else(Dyadic::zero);
        if a0.as_ref().is_some_and(|a| &best <= a) {
            self.store_tt(side, hot, None, Some(best.clone()), best_move);
        } else if b0.as_ref().is_some_and(|b| &best >= b) {
            self.store_tt(side, hot, Some(best.clone()), None, best_move);
        } else {
            self.store_tt(side, hot, Some(best.clone()), Some(best.clone()), best_move);
        }
        Ok(best)
    }

    fn store_tt(
        &mut self,
        side: usize,
        hot: &[GameId],
        lo: Lo,
        hi: Hi,
        best: Option<(GameId, GameId)>,
    ) {
        let e = match self.tt[side].get_mut(hot) {
            Some(e) => e,
            None => self.tt[side].entry(hot.to_vec()).or_default(),
        };
        if lo.is_some() {
            e.lo = max_lo(e.lo.take(), lo);
        }
        if hi.is_some() {
            e.hi = min_hi(e.hi.take(), hi);
        }
        if best.is_some() {
            e.best = best;
        }
    }

    // ----- questions on full positions ---------------------------------------

    /// The stop of the sum of `comps` with `player` to move.
    pub fn stop(&mut self, comps: &[GameId], player: Player) -> PlayResult<Dyadic> {
        let (hot, off) = self.normalize(comps)?;
        Ok(self.search(&hot, player.is_left(), None, None)?.add(&off))
    }

    /// Whether the stop (with `player` to move) is `≥ v`.
    fn at_least(&mut self, comps: &[GameId], player: Player, v: &Dyadic) -> PlayResult<bool> {
        let (hot, off) = self.normalize(comps)?;
        let b = v.sub(&off);
        let a = b.sub(&Dyadic::one());
        let r = self.search(&hot, player.is_left(), Some(a), Some(b.clone()))?;
        Ok(r >= b)
    }

    /// Whether the stop (with `player` to move) is `≤ v`.
    fn at_most(&mut self, comps: &[GameId], player: Player, v: &Dyadic) -> PlayResult<bool> {
        let (hot, off) = self.normalize(comps)?;
        let a = v.sub(&off);
        let b = a.add(&Dyadic::one());
        let r = self.search(&hot, player.is_left(), Some(a.clone()), Some(b))?;
        Ok(r <= a)
    }

    /// Whether the move leading to `child` achieves `v` for `player` (who just
    /// moved), i.e. the child's stop with the opponent to move is `v` or
    /// better for `player`.
    fn achieves(&mut self, child: &[GameId], player: Player, v: &Dyadic) -> PlayResult<bool> {
        match player {
            Player::Left => self.at_least(child, Player::Right, v),
            Player::Right => self.at_most(child, Player::Left, v),
        }
    }

    /// All moves of `player` in non-number components, hot components first
    /// (by decreasing temperature), then the number-ish ones; within a
    /// component the options by the player's preference of their mean.
    /// With `dedup`, only the first of several identical components.
    pub fn ordered_moves(
        &mut self,
        comps: &[GameId],
        player: Player,
        dedup: bool,
    ) -> PlayResult<Vec<(usize, GameId)>> {
        let mut cands: Vec<(bool, BigRational, Dyadic, usize, usize, GameId)> = Vec::new();
        for (i, &g) in comps.iter().enumerate() {
            if dedup && comps[..i].contains(&g) {
                continue;
            }
            let info = self.info(g)?;
            if matches!(info.kind, Kind::Number(_)) {
                continue;
            }
            let opts = if player.is_left() {
                self.store.left_options(g)
            } else {
                self.store.right_options(g)
            };
            for (k, &o) in opts.iter().enumerate() {
                let m = self.info(o)?.mean.clone();
                let pref = if player.is_left() { m } else { m.neg() };
                cands.push((info.is_hot(), info.temp.clone(), pref, i, k, o));
            }
        }
        cands.sort_by(|x, y| {
            y.0.cmp(&x.0)
                .then_with(|| y.1.cmp(&x.1))
                .then_with(|| y.2.cmp(&x.2))
                .then_with(|| x.3.cmp(&y.3))
                .then_with(|| x.4.cmp(&y.4))
        });
        Ok(cands.into_iter().map(|c| (c.3, c.5)).collect())
    }

    /// The stop and a principal variation.
    pub fn solve(&mut self, comps: &[GameId], first: Player) -> PlayResult<(Dyadic, Line)> {
        let v = self.stop(comps, first)?;
        let mut pos = comps.to_vec();
        let mut player = first;
        let mut moves = Vec::new();
        loop {
            let cands = self.ordered_moves(&pos, player, true)?;
            if cands.is_empty() {
                break;
            }
            let mut chosen = None;
            for &(i, to) in &cands {
                let from = std::mem::replace(&mut pos[i], to);
                let ok = self.achieves(&pos, player, &v)?;
                pos[i] = from;
                if ok {
                    chosen = Some((i, to));
                    break;
                }
            }
            // Some move always achieves the stop; be total anyway.
            let (i, to) = chosen.unwrap_or(cands[0]);
            moves.push(MoveRecord {
                number: moves.len() + 1,
                player,
                component: i,
                from: pos[i],
                to,
            });
            pos[i] = to;
            player = player.opponent();
        }
        let mut result = Dyadic::zero();
        for &g in &pos {
            if let Some(x) = self.store.as_number(g) {
                result = result.add(x);
            }
        }
        debug_assert_eq!(result, v, "the principal variation must reach the stop");
        Ok((v, Line { moves, result }))
    }

    /// The first move of a principal variation (`None` when every component is
    /// a number).
    pub fn optimal_move(&mut self, comps: &[GameId], player: Player) -> PlayResult<Option<Move>> {
        let v = self.stop(comps, player)?;
        let cands = self.ordered_moves(comps, player, true)?;
        let mut pos = comps.to_vec();
        for &(i, to) in &cands {
            let from = std::mem::replace(&mut pos[i], to);
            let ok = self.achieves(&pos, player, &v)?;
            pos[i] = from;
            if ok {
                return Ok(Some(Move {
                    player,
                    component: i,
                    to,
                }));
            }
        }
        Ok(cands.first().map(|&(i, to)| Move {
            player,
            component: i,
            to,
        }))
    }

    pub fn best_moves(&mut self, comps: &[GameId], player: Player) -> PlayResult<Vec<Move>> {
        let v = self.stop(comps, player)?;
        let mut cands = self.ordered_moves(comps, player, false)?;
        cands.sort_by_key(|&(i, _)| i);
        let mut pos = comps.to_vec();
        let mut out = Vec::new();
        for (i, to) in cands {
            let from = std::mem::replace(&mut pos[i], to);
            let ok = self.achieves(&pos, player, &v)?;
            pos[i] = from;
            if ok {
                out.push(Move {
                    player,
                    component: i,
                    to,
                });
            }
        }
        Ok(out)
    }

    pub fn must_play(&mut self, comps: &[GameId], j: usize, player: Player) -> PlayResult<Dyadic> {
        let Some(&g) = comps.get(j) else {
            return Err(PlayError::NoComponent {
                component: j,
                len: comps.len(),
            });
        };
        let opts = if player.is_left() {
            self.store.left_options(g)
        } else {
            self.store.right_options(g)
        };
        let mut best: Option<Dyadic> = None;
        let mut pos = comps.to_vec();
        for &o in opts.iter() {
            pos[j] = o;
            let v = self.stop(&pos, player.opponent())?;
            let better = best
                .as_ref()
                .is_none_or(|b| if player.is_left() { &v > b } else { &v < b });
            if better {
                best = Some(v);
            }
        }
        best.ok_or(PlayError::NoMove {
            component: j,
            player,
        })
    }
}
