//! Every rule and predicted profit of the paper ([`super::advice_read`])
//! checked over an exhaustive grid of small positions of the abstract game.
//!
//! A grid ([`GridSpec`]) is every ko value `1 ≤ k ≤ k_max`, every multiset
//! of at most `threats` Black threats and of at most `threats` White threats
//! with values in `1 ..= threat_max`, every multiset of at most `moves`
//! valuable moves with values in `1 ..= move_max`, and every case of the
//! paper: 1, 2, 5, 6, 7 once, 3 without and with an ignored Black threat
//! `t` and 4 with White's threat `w`, `t, w ∈ 1 ..= threat_max`.
//!
//! Each position is solved by a minimax over [`super::State::moves`] and the
//! pass, in integers (sixths of a point: the count of play ended by two
//! passes has the ko at `±k/3` and a pending threat at `±t/2`, as in
//! [`super::exact`]), memoised per ko value — the same game [`super::exact`]
//! hands to the ko solver, which the unit tests check it against, move by
//! move, over a whole smaller grid. Millions of positions need this: the ko
//! solver takes milliseconds per position.
//!
//! Each rule ([`RULES`]) is judged on the positions where it applies: a
//! move rule holds when the advised move is optimal, a profit rule when the
//! exact score of the advised move satisfies the paper's figure. For each,
//! the counts and the smallest counterexample (smallest total
//! `k + Σb + Σw + Σx + t`, then `k`, `x`, `b`, `w`, `t` lexicographically)
//! are kept.

use super::{advice_read, Claim, Fitting, KoFight, Last, Move};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

/// The grid's bounds. Counts are at most [`MAX_LIST`], values at most
/// [`MAX_VALUE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridSpec {
    pub k_max: u8,
    pub threats: usize,
    pub threat_max: u8,
    pub moves: usize,
    pub move_max: u8,
}

/// The most threats per side, or valuable moves, in a grid position.
pub const MAX_LIST: usize = 3;
/// The largest value in a grid position.
pub const MAX_VALUE: u8 = 60;

/// Every rule checked, with what it says. A name is `c<case>_…`; `d<n>` is
/// the threat distribution.
pub const RULES: &[(&str, &str)] = &[
    ("c1_unfit_x1", "case 1, fitting condition false: x1 is optimal"),
    ("c1_unfit_formula", "case 1, fitting condition false: x1 scores x1 + X_even − (k + X_odd) (§3.2)"),
    ("c1_d1_b1", "case 1, distribution 1: b1 is optimal"),
    ("c1_d1_at_least", "case 1, distribution 1: b1 scores at least k + X_odd − (x1 + X_even)"),
    ("c1_d2_b1", "case 1, distribution 2: b1 is optimal"),
    ("c1_d2_between", "case 1, distribution 2: b1 scores between 0 and k + X_odd − (x1 + X_even)"),
    ("c1_d3_b1", "case 1, distribution 3 with a fitting threat: b1 (exchange) is optimal"),
    ("c1_d3_x1", "case 1, distribution 3, no fitting threat, x1 ≥ bu − x1: x1 is optimal"),
    ("c1_d3_bu", "case 1, distribution 3, no fitting threat, x1 < bu − x1: bu is optimal"),
    ("c1_d3_formula", "case 1, distribution 3: the advised move scores max(x1 + X_even − (k + X_odd), bu + X_even − (k + x1 + X_odd)) (§3.2)"),
    ("c1_d3_loses", "case 1, distribution 3: \"Black will lose some profit\" read as score < 0"),
    ("c1_d3_no_gain", "case 1, distribution 3: \"Black will lose some profit\" read as score ≤ 0"),
    ("c2_retake", "case 2: retaking is optimal"),
    ("c3_follow_up", "case 3 after Black's ignored threat: following it up is optimal"),
    ("c3_x1", "case 3, no pending threat: x1 is optimal"),
    ("c4_d1_move", "case 4, distribution 1: answer w ≥ WKTVL, else connect, is optimal"),
    ("c4_d1_at_least", "case 4, distribution 1: the advised move scores at least k − x1 − x2"),
    ("c4_d2_move", "case 4, distribution 2: answer w ≥ WKTVL, else connect, is optimal"),
    ("c4_d2_less_than", "case 4, distribution 2: the advised move scores less than k − x1 − x2"),
    ("c4_d3_move", "case 4, distribution 3: connect below WKTVL, else the comparison of §3.1, is optimal"),
    ("c4_d3_formula", "case 4, distribution 3: the advised move scores the compared value"),
    ("c4_d3_loses", "case 4, distribution 3: \"Black will lose some profit\" read as score < 0"),
    ("c4_d3_no_gain", "case 4, distribution 3: \"Black will lose some profit\" read as score ≤ 0"),
    ("c5_connect", "case 5: connecting is optimal"),
    ("c6_x1", "case 6: x1 is optimal"),
    ("c7_connect", "case 7: connecting is optimal"),
];

/// One position of the grid with its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub k: u8,
    /// Ascending.
    pub black: Vec<u8>,
    pub white: Vec<u8>,
    pub moves: Vec<u8>,
    pub last: Last,
    pub advice: Move,
    /// Exact scores in sixths of a point.
    pub advised: i64,
    pub optimum: i64,
    pub best: Vec<Move>,
    /// The paper's figure for the advised move, if any.
    pub claim: Claim,
}

type OrderKey = (u32, u8, Vec<u8>, Vec<u8>, Vec<u8>, u32);

/// The order of "smallest": total, then `k`, `x`, `b`, `w`, `t`.
fn order_key(k: u8, b: &[u8], w: &[u8], x: &[u8], last: &Last) -> OrderKey {
    let t = last_value(last);
    let sum = |v: &[u8]| v.iter().map(|&x| x as u32).sum::<u32>();
    (
        k as u32 + sum(b) + sum(w) + sum(x) + t,
        k,
        x.to_vec(),
        b.to_vec(),
        w.to_vec(),
        t,
    )
}

fn last_value(last: &Last) -> u32 {
    match last {
        Last::Threat(w) | Last::ConnectedKo { pending: Some(w) } => w.to_u32().unwrap_or(0),
        _ => 0,
    }
}

/// The verdict of one rule over the grid, under one reading of "fitting"
/// (`None` for rules the reading does not touch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleResult {
    pub rule: &'static str,
    pub reading: Option<Fitting>,
    pub tested: u64,
    pub holds: u64,
    pub fails: u64,
    /// Move rules: the largest `optimum − advised`, in sixths.
    pub max_loss: i64,
    pub smallest_failure: Option<Instance>,
    pub smallest_holding: Option<Instance>,
}

/// The grid's verdicts, one per rule and reading that applied somewhere, in
/// the order of [`RULES`] (the reading `≥` first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridReport {
    pub instances: u64,
    pub rules: Vec<RuleResult>,
}

/// The grid was interrupted (Ctrl-C).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// Multisets of size `0 ..= count` of values `1 ..= max`, ascending.
pub fn multisets(count: usize, max: u8) -> Vec<Vec<u8>> {
    fn go(count: usize, from: u8, max: u8, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        out.push(cur.clone());
        if cur.len() == count {
            return;
        }
        for v in from..=max {
            cur.push(v);
            go(count, v, max, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(count, 1, max, &mut Vec::new(), &mut out);
    out
}

impl GridSpec {
    /// How many positions the grid has.
    pub fn size(&self) -> u64 {
        let b = multisets(self.threats, self.threat_max).len() as u64;
        let x = multisets(self.moves, self.move_max).len() as u64;
        let per = 5 + 1 + 2 * self.threat_max as u64;
        self.k_max as u64 * b * b * x * per
    }
}

// ------------------------------------------------------------ the fast game

const PENDING: usize = MAX_LIST + 1;

/// A position of [`super::State`] in bytes: lists descending, 0-padded.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Fast {
    /// 0: White holds, 1: Black holds, 2: filled by Black, 3: by White.
    ko: u8,
    banned: bool,
    passed: bool,
    black: bool,
    bt: [u8; MAX_LIST],
    /// Pending: a side's threats and, in cases 3 and 4, the one pending at
    /// the start.
    bp: [u8; PENDING],
    wt: [u8; MAX_LIST],
    wp: [u8; PENDING],
    mv: [u8; MAX_LIST],
}

impl Fast {
    fn key(&self) -> u128 {
        let mut k: u128 = (self.ko as u128)
            | (self.banned as u128) << 2
            | (self.passed as u128) << 3
            | (self.black as u128) << 4;
        // 17 values of 6 bits (≤ MAX_VALUE) after 5 bits of flags.
        let lists: [&[u8]; 5] = [&self.bt, &self.bp, &self.wt, &self.wp, &self.mv];
        for list in lists {
            for &v in list.iter() {
                k = k << 6 | v as u128;
            }
        }
        k
    }
}

fn remove<const N: usize>(list: &[u8; N], i: usize) -> [u8; N] {
    let mut out = [0; N];
    let mut j = 0;
    for (n, &v) in list.iter().enumerate() {
        if n != i && v != 0 {
            out[j] = v;
            j += 1;
        }
    }
    out
}

fn insert<const N: usize>(list: &[u8; N], v: u8) -> [u8; N] {
    let mut all: Vec<u8> = list.iter().copied().filter(|&x| x != 0).collect();
    all.push(v);
    all.sort_by(|a, b| b.cmp(a));
    let mut out = [0; N];
    out[..all.len()].copy_from_slice(&all);
    out
}

fn list<const N: usize>(values: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    for &v in values {
        out = insert(&out, v);
    }
    out
}

/// The distinct nonzero entries of a descending list, with their index.
fn firsts(list: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    list.iter()
        .enumerate()
        .filter(move |&(i, &v)| v != 0 && (i == 0 || list[i - 1] != v))
        .map(|(i, &v)| (i, v))
}

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}

/// The minimax of the abstract game for one ko value, memoised.
pub struct FastGame {
    k: i64,
    memo: HashMap<u128, i64, BuildHasherDefault<KeyHasher>>,
}

/// A first move of Black in the fast game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FastMove {
    Retake,
    Connect,
    Threat(u8),
    FollowUp(u8),
    Answer,
    Gote(u8),
    Pass,
}

impl FastMove {
    fn to_move(self) -> Move {
        let b = |v: u8| BigInt::from(v);
        match self {
            FastMove::Retake => Move::Retake,
            FastMove::Connect => Move::Connect,
            FastMove::Threat(t) => Move::Threat(b(t)),
            FastMove::FollowUp(t) => Move::FollowUp(b(t)),
            FastMove::Answer => Move::Answer,
            FastMove::Gote(x) => Move::Gote(b(x)),
            FastMove::Pass => Move::Pass,
        }
    }
}

impl FastGame {
    pub fn new(k: u8) -> FastGame {
        FastGame {
            k: k as i64,
            memo: HashMap::default(),
        }
    }

    /// The count, in sixths, when two passes end play (module docs of
    /// [`super::exact`]).
    fn count(&self, s: &Fast) -> i64 {
        let mut c = match s.ko {
            0 => -2 * self.k,
            1 => 2 * self.k,
            _ => 0,
        };
        c += s.bp.iter().map(|&t| 3 * t as i64).sum::<i64>();
        c -= s.wp.iter().map(|&t| 3 * t as i64).sum::<i64>();
        c
    }

    /// Every move but the pass: the move, its gain in sixths (for the mover's
    /// sign: positive is good for Black) and the position after it.
    fn moves(&self, s: &Fast, out: &mut Vec<(FastMove, i64, Fast)>) {
        let black = s.black;
        let sign = if black { 1 } else { -1 };
        let mut next = *s;
        next.black = !black;
        next.banned = false;
        next.passed = false;
        let (capture, connect) = match (s.ko, black) {
            (0, true) | (1, false) => (true, false),
            (1, true) | (0, false) => (false, true),
            _ => (false, false),
        };
        if capture && !s.banned {
            let mut t = next;
            t.ko = if black { 1 } else { 0 };
            t.banned = true;
            out.push((FastMove::Retake, 0, t));
        }
        if connect {
            let mut t = next;
            t.ko = if black { 2 } else { 3 };
            out.push((FastMove::Connect, sign * 6 * self.k, t));
        }
        let (mine, my_pending, their_pending) = if black {
            (&s.bt, &s.bp, &s.wp)
        } else {
            (&s.wt, &s.wp, &s.bp)
        };
        for (i, v) in firsts(mine) {
            let mut t = next;
            if black {
                t.bt = remove(mine, i);
                t.bp = insert(&s.bp, v);
            } else {
                t.wt = remove(mine, i);
                t.wp = insert(&s.wp, v);
            }
            out.push((FastMove::Threat(v), 0, t));
        }
        for (i, v) in firsts(my_pending) {
            let mut t = next;
            if black {
                t.bp = remove(my_pending, i);
            } else {
                t.wp = remove(my_pending, i);
            }
            out.push((FastMove::FollowUp(v), sign * 6 * v as i64, t));
        }
        for (i, _) in firsts(their_pending) {
            let mut t = next;
            if black {
                t.wp = remove(their_pending, i);
            } else {
                t.bp = remove(their_pending, i);
            }
            out.push((FastMove::Answer, 0, t));
        }
        for (i, v) in firsts(&s.mv) {
            let mut t = next;
            t.mv = remove(&s.mv, i);
            out.push((FastMove::Gote(v), sign * 6 * v as i64, t));
        }
    }

    /// The pass and the position after it (`None`: the pass ends play).
    fn pass(s: &Fast) -> Option<Fast> {
        if s.passed {
            return None;
        }
        let mut t = *s;
        t.black = !s.black;
        t.banned = false;
        t.passed = true;
        Some(t)
    }

    /// The score still to come from `s`, in sixths (a filled ko counted
    /// when it is filled).
    fn value(&mut self, s: &Fast) -> i64 {
        let key = s.key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut kids = Vec::with_capacity(12);
        self.moves(s, &mut kids);
        let mut best = match Self::pass(s) {
            Some(t) => self.value(&t),
            None => self.count(s),
        };
        for (_, gain, t) in kids {
            let v = gain + self.value(&t);
            if (s.black && v > best) || (!s.black && v < best) {
                best = v;
            }
        }
        self.memo.insert(key, best);
        best
    }

    /// Black's every first move from the position of `last`, with the final
    /// score in sixths (the filled ko included), in the order of
    /// [`super::State::moves`], the pass last.
    fn first_moves(
        &mut self,
        black: &[u8],
        white: &[u8],
        moves: &[u8],
        last: &Last,
    ) -> Vec<(FastMove, i64)> {
        let mut s = Fast {
            ko: 1,
            banned: false,
            passed: false,
            black: true,
            bt: list(black),
            bp: [0; PENDING],
            wt: list(white),
            wp: [0; PENDING],
            mv: list(moves),
        };
        let small = |v: &BigInt| v.to_u8().unwrap_or(0);
        match last {
            Last::TookKo => {
                s.ko = 0;
                s.banned = true;
            }
            Last::AnsweredThreat => s.ko = 0,
            Last::ConnectedKo { pending } => {
                s.ko = 3;
                if let Some(t) = pending {
                    s.bp = list(&[small(t)]);
                }
            }
            Last::Threat(w) => s.wp = list(&[small(w)]),
            Last::Gote | Last::Other => {}
            Last::FollowedUp => s.ko = 2,
        }
        let fixed = match s.ko {
            2 => 6 * self.k,
            3 => -6 * self.k,
            _ => 0,
        };
        let mut kids = Vec::new();
        self.moves(&s, &mut kids);
        let mut out: Vec<(FastMove, i64)> = kids
            .into_iter()
            .map(|(m, gain, t)| (m, fixed + gain + self.value(&t)))
            .collect();
        let pass = Self::pass(&s).expect("no pass before the first move");
        out.push((FastMove::Pass, fixed + self.value(&pass)));
        out
    }

    /// [`FastGame::first_moves`] as [`Move`]s, for the tests.
    pub fn first_move_values(&mut self, pos: &KoFight, last: &Last) -> Vec<(Move, i64)> {
        let small = |v: &[BigInt]| v.iter().map(|x| x.to_u8().unwrap_or(0)).collect::<Vec<_>>();
        self.first_moves(
            &small(&pos.black_threats),
            &small(&pos.white_threats),
            &small(&pos.moves),
            last,
        )
        .into_iter()
        .map(|(m, v)| (m.to_move(), v))
        .collect()
    }
}

// ------------------------------------------------------------ the rules

struct Acc {
    result: RuleResult,
    failure_key: Option<OrderKey>,
    holding_key: Option<OrderKey>,
}

#[derive(Default)]
struct Tally {
    accs: HashMap<(&'static str, Option<Fitting>), Acc>,
}

impl Tally {
    fn record(
        &mut self,
        rule: &'static str,
        reading: Option<Fitting>,
        holds: bool,
        loss: i64,
        key: &OrderKey,
        inst: &dyn Fn() -> Instance,
    ) {
        let acc = self.accs.entry((rule, reading)).or_insert_with(|| Acc {
            result: RuleResult {
                rule,
                reading,
                tested: 0,
                holds: 0,
                fails: 0,
                max_loss: 0,
                smallest_failure: None,
                smallest_holding: None,
            },
            failure_key: None,
            holding_key: None,
        });
        acc.result.tested += 1;
        acc.result.max_loss = acc.result.max_loss.max(loss);
        if holds {
            acc.result.holds += 1;
        } else {
            acc.result.fails += 1;
        }
        let slot = if holds {
            (&mut acc.holding_key, &mut acc.result.smallest_holding)
        } else {
            (&mut acc.failure_key, &mut acc.result.smallest_failure)
        };
        if slot.0.as_ref().is_none_or(|k| key < k) {
            *slot.0 = Some(key.clone());
            *slot.1 = Some(inst());
        }
    }
}

fn big(v: &[u8]) -> Vec<BigInt> {
    v.iter().map(|&x| BigInt::from(x)).collect()
}

/// Judge every rule that applies to one position.
fn judge(tally: &mut Tally, game: &mut FastGame, k: u8, b: &[u8], w: &[u8], x: &[u8], last: &Last) {
    let values = game.first_moves(b, w, x, last);
    let optimum = values.iter().map(|(_, v)| *v).max().unwrap_or(0);
    let pos = KoFight::new(BigInt::from(k), big(b), big(w), big(x));
    let s = pos.sums();
    let six = |v: &BigInt| 6 * v.to_i64().unwrap_or(0);
    let key = order_key(k, b, w, x, last);
    let readings: &[Option<Fitting>] = match last {
        Last::TookKo | Last::Threat(_) => &[Some(Fitting::AtLeast), Some(Fitting::Above)],
        _ => &[None],
    };
    for &reading in readings {
        let a = match advice_read(&pos, last, reading.unwrap_or(Fitting::AtLeast)) {
            Ok(a) => a,
            Err(_) => continue,
        };
        let advised = values
            .iter()
            .find(|(m, _)| m.to_move() == a.mv)
            .map(|(_, v)| *v)
            .unwrap_or(i64::MIN);
        let optimal = advised == optimum;
        let loss = optimum - advised;
        let inst = || Instance {
            k,
            black: b.to_vec(),
            white: w.to_vec(),
            moves: x.to_vec(),
            last: last.clone(),
            advice: a.mv.clone(),
            advised,
            optimum,
            best: values
                .iter()
                .filter(|(_, v)| *v == optimum)
                .map(|(m, _)| m.to_move())
                .collect(),
            claim: a.claim.clone(),
        };
        let claimed = || a.claim.profit().map(six).unwrap_or(0);
        let mut rec = |rule: &'static str, r: Option<Fitting>, holds: bool, loss: i64| {
            tally.record(rule, r, holds, loss, &key, &inst)
        };
        let p = six(&s.p);
        let d = a.distribution.as_ref().map(|d| d.number).unwrap_or(0);
        match last {
            Last::TookKo if !a.fitting => {
                // The fitting condition does not depend on the reading.
                if reading == Some(Fitting::AtLeast) {
                    rec("c1_unfit_x1", None, optimal, loss);
                    rec("c1_unfit_formula", None, advised == claimed(), 0);
                }
            }
            Last::TookKo => match d {
                1 => {
                    rec("c1_d1_b1", reading, optimal, loss);
                    rec("c1_d1_at_least", reading, advised >= p, 0);
                }
                2 => {
                    rec("c1_d2_b1", reading, optimal, loss);
                    rec("c1_d2_between", reading, 0 <= advised && advised <= p, 0);
                }
                _ => {
                    let rule = match (&a.distribution.as_ref().and_then(|d| d.b1.clone()), &a.mv) {
                        (Some(_), _) => "c1_d3_b1",
                        (None, Move::Threat(_)) => "c1_d3_bu",
                        _ => "c1_d3_x1",
                    };
                    rec(rule, reading, optimal, loss);
                    rec("c1_d3_formula", reading, advised == claimed(), 0);
                    rec("c1_d3_loses", reading, advised < 0, 0);
                    rec("c1_d3_no_gain", reading, advised <= 0, 0);
                }
            },
            Last::Threat(_) => {
                let kx = six(&(&pos.k - &s.x1 - &s.x2));
                match d {
                    1 => {
                        rec("c4_d1_move", reading, optimal, loss);
                        rec("c4_d1_at_least", reading, advised >= kx, 0);
                    }
                    2 => {
                        rec("c4_d2_move", reading, optimal, loss);
                        rec("c4_d2_less_than", reading, advised < kx, 0);
                    }
                    _ => {
                        rec("c4_d3_move", reading, optimal, loss);
                        rec("c4_d3_formula", reading, advised == claimed(), 0);
                        rec("c4_d3_loses", reading, advised < 0, 0);
                        rec("c4_d3_no_gain", reading, advised <= 0, 0);
                    }
                }
            }
            Last::AnsweredThreat => rec("c2_retake", None, optimal, loss),
            Last::ConnectedKo { pending: Some(_) } => rec("c3_follow_up", None, optimal, loss),
            Last::ConnectedKo { pending: None } => rec("c3_x1", None, optimal, loss),
            Last::Gote => rec("c5_connect", None, optimal, loss),
            Last::FollowedUp => rec("c6_x1", None, optimal, loss),
            Last::Other => rec("c7_connect", None, optimal, loss),
        }
    }
}

/// Check every rule over the grid. `stop` is polled between ko values and
/// between lists of moves.
pub fn check_grid(spec: &GridSpec, stop: &AtomicBool) -> Result<GridReport, Interrupted> {
    let threat_lists = multisets(spec.threats.min(MAX_LIST), spec.threat_max.min(MAX_VALUE));
    let move_lists = multisets(spec.moves.min(MAX_LIST), spec.move_max.min(MAX_VALUE));
    let tmax = spec.threat_max.min(MAX_VALUE);
    let mut lasts = vec![
        Last::TookKo,
        Last::AnsweredThreat,
        Last::ConnectedKo { pending: None },
        Last::Gote,
        Last::FollowedUp,
        Last::Other,
    ];
    for t in 1..=tmax {
        lasts.push(Last::ConnectedKo {
            pending: Some(BigInt::from(t)),
        });
        lasts.push(Last::Threat(BigInt::from(t)));
    }
    let mut tally = Tally::default();
    let mut instances = 0u64;
    for k in 1..=spec.k_max.min(MAX_VALUE) {
        let mut game = FastGame::new(k);
        for x in &move_lists {
            if stop.load(Ordering::Relaxed) {
                return Err(Interrupted);
            }
            for b in &threat_lists {
                for w in &threat_lists {
                    for last in &lasts {
                        judge(&mut tally, &mut game, k, b, w, x, last);
                        instances += 1;
                    }
                }
            }
        }
    }
    let mut rules = Vec::new();
    for (name, _) in RULES {
        for reading in [None, Some(Fitting::AtLeast), Some(Fitting::Above)] {
            if let Some(acc) = tally.accs.remove(&(*name, reading)) {
                rules.push(acc.result);
            }
        }
    }
    Ok(GridReport { instances, rules })
}
