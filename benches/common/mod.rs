//! Benchmark cases shared by `benches/engine.rs` (criterion, yose only) and the
//! peer comparison `benches/peer-cgt` (yose vs the `cgt` crate).
//!
//! Every case is written once, generically over [`Engine`], so both engines run
//! literally the same sequence of constructions, sums and comparisons. An engine
//! value is the whole state of a computation: the harnesses make a fresh one
//! (`Engine::fresh`) for every repetition, so yose's memo tables never carry
//! over from one repetition to the next and what is timed is the cold cost.
#![allow(dead_code)]

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use yose::game::{AtomicWeightError, Dyadic, GameId, GameVal, Nus, Store, Thermograph};

/// The operations the cases need. Derived constructions (switch, tiny, ↑^n, n·G)
/// have textbook default definitions; yose overrides them with its own API.
pub trait Engine: Sized {
    type G: Clone;
    /// The engine's own thermograph value (converted by [`Engine::thermo_facts`]
    /// outside the timed region).
    type Th;

    fn fresh() -> Self;
    fn int(&mut self, n: i64) -> Self::G;
    /// `num / 2^exp`.
    fn dyadic(&mut self, num: i64, exp: u32) -> Self::G;
    fn nim(&mut self, n: u32) -> Self::G;
    fn ups(&mut self, k: i32) -> Self::G;
    /// Canonical form of `{left | right}` (options are canonical).
    fn game(&mut self, left: Vec<Self::G>, right: Vec<Self::G>) -> Self::G;
    fn add(&mut self, a: &Self::G, b: &Self::G) -> Self::G;
    fn neg(&mut self, a: &Self::G) -> Self::G;
    fn le(&mut self, a: &Self::G, b: &Self::G) -> bool;
    fn birthday(&mut self, g: &Self::G) -> u64;
    fn left_stop(&mut self, g: &Self::G) -> f64;
    fn right_stop(&mut self, g: &Self::G) -> f64;
    /// Hash of the canonical form's structure, computed from the option sets
    /// alone (numbers and nus values included), so equal across engines iff the
    /// canonical forms are identical (up to hash collisions).
    fn shape(&mut self, g: &Self::G) -> u64;
    /// Short human-readable form, for discrepancy reports (None when too big).
    fn show(&mut self, g: &Self::G, limit: usize) -> Option<String>;
    /// The thermograph of `g` (the timed part of the thermograph cases).
    fn thermograph(&mut self, g: &Self::G) -> Self::Th;
    /// Mast, temperature and walls of a thermograph, as exact rationals.
    fn thermo_facts(&mut self, th: &Self::Th) -> ThermoFacts;
    /// The atomic weight of `g`, or why the engine gives none.
    fn atomic_weight(&mut self, g: &Self::G) -> Result<Self::G, AwError>;

    fn zero(&mut self) -> Self::G {
        self.int(0)
    }
    fn sub(&mut self, a: &Self::G, b: &Self::G) -> Self::G {
        let nb = self.neg(b);
        self.add(a, &nb)
    }
    /// `±g = {g | -g}`.
    fn switch(&mut self, g: &Self::G) -> Self::G {
        let ng = self.neg(g);
        self.game(vec![g.clone()], vec![ng])
    }
    /// `⧾_x = {0 || 0 | -x}`.
    fn tiny(&mut self, x: &Self::G) -> Self::G {
        let z = self.zero();
        let nx = self.neg(x);
        let inner = self.game(vec![z.clone()], vec![nx]);
        self.game(vec![z], vec![inner])
    }
    /// `⧿_x = -⧾_x`.
    fn miny(&mut self, x: &Self::G) -> Self::G {
        let t = self.tiny(x);
        self.neg(&t)
    }
    /// `↑^n`: `↑^1 = ↑`, `↑^(k+1) = {0 | * - (↑ + ↑^2 + … + ↑^k)}`.
    fn up_nth(&mut self, n: u32) -> Self::G {
        let star = self.nim(1);
        let z = self.zero();
        let mut upt = self.zero();
        let mut cur = self.ups(1);
        for _ in 1..n {
            upt = self.add(&upt, &cur);
            let r = self.sub(&star, &upt);
            cur = self.game(vec![z.clone()], vec![r]);
        }
        cur
    }
    /// `parts[0] + parts[1] + …` by repeated addition.
    fn sum(&mut self, parts: &[Self::G]) -> Self::G {
        let mut acc = self.zero();
        for p in parts {
            acc = self.add(&acc, p);
        }
        acc
    }
    /// `n . g` by binary doubling.
    fn copies(&mut self, n: u64, g: &Self::G) -> Self::G {
        let mut acc = self.zero();
        let mut pow = g.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                acc = self.add(&acc, &pow);
            }
            k >>= 1;
            if k > 0 {
                pow = self.add(&pow, &pow);
            }
        }
        acc
    }
}

/// Order-independent combination of option hashes into a node hash.
pub fn combine(mut left: Vec<u64>, mut right: Vec<u64>) -> u64 {
    left.sort_unstable();
    right.sort_unstable();
    let mut h = DefaultHasher::new();
    b'{'.hash(&mut h);
    left.hash(&mut h);
    b'|'.hash(&mut h);
    right.hash(&mut h);
    h.finish()
}

/// Why an engine gives no atomic weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AwError {
    NotInfinitesimal,
    NotAtomic,
    Other(String),
}

impl fmt::Display for AwError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AwError::NotInfinitesimal => write!(f, "not infinitesimal"),
            AwError::NotAtomic => write!(f, "not atomic"),
            AwError::Other(s) => write!(f, "error: {s}"),
        }
    }
}

type Q = BigRational;

/// Exact rational `num / den`, for converting another engine's rationals.
pub fn q(num: i64, den: i64) -> Q {
    Q::new(BigInt::from(num), BigInt::from(den))
}

/// A thermograph wall as an exact piecewise-linear function of the temperature:
/// breakpoints `(t, value)` with `t` strictly increasing (the first is where the
/// wall starts, `t = -1`), then slope `tail` after the last breakpoint.
#[derive(Clone, Debug)]
pub struct WallFacts {
    pub points: Vec<(Q, Q)>,
    pub tail: Q,
}

impl WallFacts {
    pub fn eval(&self, t: &Q) -> Q {
        let i = self.points.iter().rposition(|p| &p.0 <= t).unwrap_or(0);
        let (t0, v0) = &self.points[i];
        match self.points.get(i + 1) {
            Some((t1, v1)) => v0 + (v1 - v0) * (t - t0) / (t1 - t0),
            None => v0 + &self.tail * (t - t0),
        }
    }

    /// The wall from `from` on, with only the breakpoints where the slope changes:
    /// `v@t, …, then slope s` (a normal form: equal walls print equally).
    pub fn normal_form(&self, from: &Q) -> String {
        let mut pts: Vec<(Q, Q)> = vec![(from.clone(), self.eval(from))];
        pts.extend(self.points.iter().filter(|p| &p.0 > from).cloned());
        let slope = |pts: &[(Q, Q)], i: usize| -> Q {
            match pts.get(i + 1) {
                Some(next) => (&next.1 - &pts[i].1) / (&next.0 - &pts[i].0),
                None => self.tail.clone(),
            }
        };
        let mut keep = vec![pts[0].clone()];
        for i in 1..pts.len() {
            if slope(&pts, i - 1) != slope(&pts, i) {
                keep.push(pts[i].clone());
            }
        }
        let mut out: Vec<String> = keep.iter().map(|(t, v)| format!("{v}@{t}")).collect();
        out.push(format!("then slope {}", self.tail));
        out.join(", ")
    }
}

/// What the thermograph cases compare: mast value, temperature and both walls.
#[derive(Clone, Debug)]
pub struct ThermoFacts {
    pub mast: Q,
    pub temperature: Q,
    pub left: WallFacts,
    pub right: WallFacts,
}

impl ThermoFacts {
    /// Mast and temperature, plus the walls from `from` on.
    pub fn fingerprint(&self, from: &Q) -> String {
        format!(
            "mast={} temp={} LW[t≥{from}]=({}) RW[t≥{from}]=({})",
            self.mast,
            self.temperature,
            self.left.normal_form(from),
            self.right.normal_form(from)
        )
    }
}

// ----- yose ---------------------------------------------------------------------

/// yose's engine state: a [`Store`] plus the memo of the structural hash (used
/// only outside the timed region).
pub struct Yose {
    pub store: Store,
    shape_memo: HashMap<GameId, u64>,
}

fn dyadic_to_f64(d: &Dyadic) -> f64 {
    d.numerator().to_f64().unwrap() / 2f64.powi(d.exponent() as i32)
}

impl Engine for Yose {
    /// Number-up-star values stay out of the store (`GameVal`); general
    /// games are ids.
    type G = GameVal;
    type Th = Rc<Thermograph>;

    fn fresh() -> Self {
        Yose {
            store: Store::new(),
            shape_memo: HashMap::new(),
        }
    }
    fn int(&mut self, n: i64) -> GameVal {
        GameVal::Nus(Nus::number(Dyadic::from_i64(n)))
    }
    fn dyadic(&mut self, num: i64, exp: u32) -> GameVal {
        GameVal::Nus(Nus::number(Dyadic::new(BigInt::from(num), exp)))
    }
    fn nim(&mut self, n: u32) -> GameVal {
        GameVal::Nus(Nus {
            number: Dyadic::zero(),
            ups: 0,
            nim: n as u64,
        })
    }
    fn ups(&mut self, k: i32) -> GameVal {
        GameVal::Nus(Nus {
            number: Dyadic::zero(),
            ups: k as i64,
            nim: 0,
        })
    }
    fn game(&mut self, left: Vec<GameVal>, right: Vec<GameVal>) -> GameVal {
        self.store.canonical_val(&left, &right).unwrap()
    }
    fn add(&mut self, a: &GameVal, b: &GameVal) -> GameVal {
        self.store.add_val(a, b).unwrap()
    }
    fn neg(&mut self, a: &GameVal) -> GameVal {
        self.store.neg_val(a)
    }
    fn sub(&mut self, a: &GameVal, b: &GameVal) -> GameVal {
        self.store.sub_val(a, b).unwrap()
    }
    fn le(&mut self, a: &GameVal, b: &GameVal) -> bool {
        self.store.le_val(a, b).unwrap()
    }
    fn birthday(&mut self, g: &GameVal) -> u64 {
        let g = self.id(g);
        self.store.birthday(g).unwrap().to_u64().unwrap()
    }
    fn left_stop(&mut self, g: &GameVal) -> f64 {
        let g = self.id(g);
        dyadic_to_f64(&self.store.left_stop(g).unwrap())
    }
    fn right_stop(&mut self, g: &GameVal) -> f64 {
        let g = self.id(g);
        dyadic_to_f64(&self.store.right_stop(g).unwrap())
    }
    fn switch(&mut self, g: &GameVal) -> GameVal {
        let g = self.id(g);
        let r = self.store.switch(g).unwrap();
        self.store.val(r)
    }
    fn tiny(&mut self, x: &GameVal) -> GameVal {
        let x = self.id(x);
        let r = self.store.tiny(x).unwrap();
        self.store.val(r)
    }
    fn miny(&mut self, x: &GameVal) -> GameVal {
        let x = self.id(x);
        let r = self.store.miny(x).unwrap();
        self.store.val(r)
    }
    fn up_nth(&mut self, n: u32) -> GameVal {
        let r = self.store.up_nth(n).unwrap();
        self.store.val(r)
    }
    fn sum(&mut self, parts: &[GameVal]) -> GameVal {
        self.store.sum_val(parts).unwrap()
    }
    fn copies(&mut self, n: u64, g: &GameVal) -> GameVal {
        let g = self.id(g);
        let r = self.store.copies(&BigInt::from(n), g).unwrap();
        self.store.val(r)
    }
    fn shape(&mut self, g: &GameVal) -> u64 {
        let g = self.id(g);
        self.shape_of(g)
    }
    fn show(&mut self, g: &GameVal, limit: usize) -> Option<String> {
        let g = self.id(g);
        let mut out = String::new();
        show_yose(&mut self.store, g, limit, &mut out).then_some(out)
    }
    fn thermograph(&mut self, g: &GameVal) -> Rc<Thermograph> {
        let g = self.id(g);
        self.store.thermograph(g).unwrap()
    }
    fn thermo_facts(&mut self, th: &Rc<Thermograph>) -> ThermoFacts {
        let wall = |w: &yose::game::Wall| WallFacts {
            points: w.points().to_vec(),
            tail: w.tail_slope().clone(),
        };
        ThermoFacts {
            mast: th.mean().clone(),
            temperature: th.temperature().clone(),
            left: wall(th.left_wall()),
            right: wall(th.right_wall()),
        }
    }
    fn atomic_weight(&mut self, g: &GameVal) -> Result<GameVal, AwError> {
        let g = self.id(g);
        match self.store.atomic_weight(g) {
            Ok(w) => Ok(self.store.val(w)),
            Err(e) => Err(match e {
                AtomicWeightError::NotInfinitesimal => AwError::NotInfinitesimal,
                AtomicWeightError::NotAtomic => AwError::NotAtomic,
                other => AwError::Other(other.to_string()),
            }),
        }
    }
}

impl Yose {
    /// The store's id of a value (interning a number-up-star value).
    pub fn id(&mut self, g: &GameVal) -> GameId {
        self.store.intern_val(g)
    }

    fn shape_of(&mut self, g: GameId) -> u64 {
        if let Some(&h) = self.shape_memo.get(&g) {
            return h;
        }
        let (l, r) = self.store.options(g);
        let lh = l.iter().map(|o| self.shape_of(*o)).collect();
        let rh = r.iter().map(|o| self.shape_of(*o)).collect();
        let h = combine(lh, rh);
        self.shape_memo.insert(g, h);
        h
    }
}

/// Prints in cgt's notation (`{a, b | c}`, `^`, `v`, `*n`) so that a discrepancy
/// can be pasted into either tool. Returns false when `limit` is exceeded.
fn show_yose(s: &mut Store, g: GameId, limit: usize, out: &mut String) -> bool {
    if out.len() > limit {
        return false;
    }
    if let Some(n) = s.as_nus(g).cloned() {
        let mut t = String::new();
        if !n.number.is_zero() || (n.ups == 0 && n.nim == 0) {
            t.push_str(&n.number.to_string());
        }
        if n.ups != 0 {
            t.push(if n.ups > 0 { '^' } else { 'v' });
            if n.ups.abs() != 1 {
                t.push_str(&n.ups.abs().to_string());
            }
        }
        if n.nim != 0 {
            t.push('*');
            if n.nim != 1 {
                t.push_str(&n.nim.to_string());
            }
        }
        out.push_str(&t);
        return true;
    }
    let (l, r) = s.options(g);
    out.push('{');
    for (i, o) in l.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if !show_yose(s, *o, limit, out) {
            return false;
        }
    }
    out.push_str(" | ");
    for (i, o) in r.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if !show_yose(s, *o, limit, out) {
            return false;
        }
    }
    out.push('}');
    out.len() <= limit
}

// ----- the cases -------------------------------------------------------------------

/// What a case produced, reduced to something comparable across engines.
pub enum Out<E: Engine> {
    Game(E::G),
    Bools(Vec<bool>),
    Numbers(Vec<f64>),
    Thermograph(E::Th),
    AtomicWeight(Result<E::G, AwError>),
}

pub type Setup<E> = Box<dyn Fn(&mut E) -> Vec<<E as Engine>::G>>;
pub type Run<E> = Box<dyn Fn(&mut E, &[<E as Engine>::G]) -> Out<E>>;

pub struct Case<E: Engine> {
    /// Criterion group / benchmark id, e.g. `switches/16`.
    pub group: &'static str,
    pub param: String,
    pub what: &'static str,
    /// Only a handful of samples in criterion.
    pub heavy: bool,
    /// Built before the clock starts (same fresh engine as `run`).
    pub setup: Setup<E>,
    /// The timed part.
    pub run: Run<E>,
}

impl<E: Engine> Case<E> {
    pub fn name(&self) -> String {
        if self.param.is_empty() {
            self.group.to_string()
        } else {
            format!("{}/{}", self.group, self.param)
        }
    }
}

fn no_setup<E: Engine>() -> Setup<E> {
    Box::new(|_| Vec::new())
}

/// `±1 + ±2 + … + ±k` by repeated addition.
pub fn switches<E: Engine>(e: &mut E, ks: impl IntoIterator<Item = i64>) -> E::G {
    let mut acc = e.zero();
    for i in ks {
        let x = e.int(i);
        let s = e.switch(&x);
        acc = e.add(&acc, &s);
    }
    acc
}

/// `{3 || 2 | 1}`.
pub fn hot_331<E: Engine>(e: &mut E) -> E::G {
    let (one, two, three) = (e.int(1), e.int(2), e.int(3));
    let inner = e.game(vec![two], vec![one]);
    e.game(vec![three], vec![inner])
}

/// Five games of birthday 5–6 (a 6, b 6, c 5, d 6, f 5), nesting `{a | b}` over tinies, minies, switches,
/// ups and numbers (`describe` in benches/peer-cgt prints their canonical forms).
pub fn deep_games<E: Engine>(e: &mut E) -> Vec<E::G> {
    let (z, one, two, three, four, five) =
        (e.int(0), e.int(1), e.int(2), e.int(3), e.int(4), e.int(5));
    let m1 = e.int(-1);
    let m2 = e.int(-2);
    let up = e.ups(1);
    let up2 = e.ups(2);
    let star = e.nim(1);
    let upstar = e.add(&up, &star);
    let t1 = e.tiny(&one);
    let t2 = e.tiny(&two);
    let mi1 = e.miny(&one);
    let s1 = e.switch(&one);

    // a = {5 | {3 | ⧾2}}
    let a_r = e.game(vec![three.clone()], vec![t2.clone()]);
    let a = e.game(vec![five], vec![a_r]);
    // b = {{4 | ±1} | -2 + ⧿1}
    let b_l = e.game(vec![four.clone()], vec![s1.clone()]);
    let b_r = e.add(&m2, &mi1);
    let b = e.game(vec![b_l], vec![b_r.clone()]);
    // c = {{3 | *}, 2↑ | {-1 | {-2 | -2 + ↓}}}
    let c_l = e.game(vec![three.clone()], vec![star.clone()]);
    let down = e.neg(&up);
    let m2d = e.add(&m2, &down);
    let c_rr = e.game(vec![m2.clone()], vec![m2d]);
    let c_r = e.game(vec![m1.clone()], vec![c_rr]);
    let c = e.game(vec![c_l, up2], vec![c_r]);
    // d = {±1 + ⧾1, {2 | ↑*} | {0 | -2 + ⧿1}, {-1 | ±1}}
    let d_l1 = e.add(&s1, &t1);
    let d_l2 = e.game(vec![two.clone()], vec![upstar.clone()]);
    let d_r1 = e.game(vec![z.clone()], vec![b_r.clone()]);
    let d_r2 = e.game(vec![m1.clone()], vec![s1.clone()]);
    let d = e.game(vec![d_l1, d_l2], vec![d_r1, d_r2]);
    // f = {{2 | ±1 + ⧾1}, ↑* | {-1 | c - 1}}
    let s1t1 = e.add(&s1, &t1);
    let f_l1 = e.game(vec![two.clone()], vec![s1t1]);
    let c_m1 = e.add(&c, &m1);
    let f_r = e.game(vec![m1.clone()], vec![c_m1]);
    let f = e.game(vec![f_l1, upstar.clone()], vec![f_r]);
    vec![a, b, c, d, f]
}

/// Names of the games of [`small_games`], in order.
pub const SMALL_NAMES: [&str; 7] = ["p", "q", "r", "s", "w", "x", "n"];

/// `{l | r}` from option expressions (cloned), for the nested recipes below.
macro_rules! g {
    ($e:ident, [$($l:expr),*], [$($r:expr),*]) => {{
        let l = vec![$($l.clone()),*];
        let r = vec![$($r.clone()),*];
        $e.game(l, r)
    }};
}

/// Seven infinitesimals of birthday 5–6 for the atomic-weight cases (`--describe`
/// in benches/peer-cgt prints their canonical forms and weights).
///
/// * p, q, r, s are all-small, built from 0, ups, stars and `{0 | …}` nests. The
///   atomic-weight calculus is a theorem for them, so both engines must agree.
/// * w and x contain tinies (`⧾`, `⧿`): infinitesimal but not all-small, so yose
///   also runs its atomicity check.
/// * n = `{^3* | * || vv*} + ⧿1` is the known case where the calculus proposes
///   -1/2 although the weight is -1/4 (yose's `atomic.rs` tests): yose's check
///   refuses -1/2 and its search over number candidates finds -1/4; cgt,
///   which has no check, returns the candidate.
pub fn small_games<E: Engine>(e: &mut E) -> Vec<E::G> {
    let z = e.zero();
    let one = e.int(1);
    let star = e.nim(1);
    let star2 = e.nim(2);
    let up = e.ups(1);
    let down = e.ups(-1);
    let up2 = e.ups(2);
    let down2 = e.ups(-2);
    let upstar = e.add(&up, &star);
    let downstar = e.neg(&upstar);
    let up2star = e.add(&up2, &star);
    let down2star = e.neg(&up2star);
    let up3star = e.ups(3);
    let up3star = e.add(&up3star, &star);
    let t1 = e.tiny(&one);
    let mi1 = e.miny(&one);
    let zero_down = g!(e, [z], [down]);
    let zero_downstar = g!(e, [z], [downstar]);
    let zero_star2 = g!(e, [z], [star2]);

    // p = {0 | {0 | {0 | {0 | ↓*}}}}
    let mut p = downstar.clone();
    for _ in 0..4 {
        p = g!(e, [z], [p]);
    }
    // q = {{0 | {0 | {0 | ⇓}}} | {↑* | ⇓}, *}
    let zero_down2 = g!(e, [z], [down2]);
    let q_l = g!(e, [z], [zero_down2]);
    let q_l = g!(e, [z], [q_l]);
    let q_r1 = g!(e, [upstar], [down2]);
    let q = g!(e, [q_l], [q_r1, star]);
    // r = {0, {↑ | {0 | *2}} | {{0 | ↓*} | {↓ | ⇓*}}}
    let r_l = g!(e, [up], [zero_star2]);
    let r_r2 = g!(e, [down], [down2star]);
    let r_r = g!(e, [zero_downstar], [r_r2]);
    let r = g!(e, [z, r_l], [r_r]);
    // s = {{0 | {↑ | ↓*}} | {* | {0 | ↓}}, *2}
    let s_li = g!(e, [up], [downstar]);
    let s_l = g!(e, [z], [s_li]);
    let s_r1 = g!(e, [star], [zero_down]);
    let s = g!(e, [s_l], [s_r1, star2]);
    // w = {{0 | ⧾1} | {⧿1 | ⇓}}
    let w_l = g!(e, [z], [t1]);
    let miny_down2 = g!(e, [mi1], [down2]);
    let w = g!(e, [w_l], [miny_down2]);
    // x = {⇑ | {0 | {⧿1 | ⇓}}}
    let x_r = g!(e, [z], [miny_down2]);
    let x = g!(e, [up2], [x_r]);
    // n = {^3* | * || vv*} + ⧿1
    let n_l = g!(e, [up3star], [star]);
    let n0 = g!(e, [n_l], [down2star]);
    let n = e.add(&n0, &mi1);
    vec![p, q, r, s, w, x, n]
}

pub fn cases<E: Engine + 'static>() -> Vec<Case<E>> {
    let mut v: Vec<Case<E>> = Vec::new();
    v.push(Case {
        group: "ups_x1000",
        param: String::new(),
        what: "0 + ↑ + ↑ + … (1000 additions of ↑)",
        heavy: false,
        setup: no_setup(),
        run: Box::new(|e, _| {
            let up = e.ups(1);
            let mut acc = e.zero();
            for _ in 0..1000 {
                acc = e.add(&acc, &up);
            }
            Out::Game(acc)
        }),
    });
    v.push(Case {
        group: "nimbers_1_to_64",
        param: String::new(),
        what: "*1 + *2 + … + *64 by repeated addition",
        heavy: false,
        setup: no_setup(),
        run: Box::new(|e, _| {
            let mut acc = e.zero();
            for k in 1..=64 {
                let s = e.nim(k);
                acc = e.add(&acc, &s);
            }
            Out::Game(acc)
        }),
    });
    v.push(Case {
        group: "up_nth",
        param: "6".into(),
        what: "↑^6 via ↑^(k+1) = {0 | * - (↑ + … + ↑^k)} (yose: Store::up_nth)",
        heavy: false,
        setup: no_setup(),
        run: Box::new(|e, _| Out::Game(e.up_nth(6))),
    });
    for k in [10i64, 16, 20] {
        v.push(Case {
            group: "switches",
            param: k.to_string(),
            what: "±1 + ±2 + … + ±k by repeated addition",
            heavy: k >= 16,
            setup: no_setup(),
            run: Box::new(move |e, _| Out::Game(switches(e, 1..=k))),
        });
    }
    for n in 2..=8u64 {
        v.push(Case {
            group: "hot331_copies",
            param: n.to_string(),
            what: "{3||2|1} added to itself: n copies by n-1 repeated additions",
            heavy: n >= 6,
            setup: no_setup(),
            run: Box::new(move |e, _| {
                let g = hot_331(e);
                let mut acc = g.clone();
                for _ in 1..n {
                    acc = e.add(&acc, &g);
                }
                Out::Game(acc)
            }),
        });
    }
    v.push(Case {
        group: "hot331_times",
        param: "8".into(),
        what: "8.{3||2|1} by binary doubling (yose: Store::copies)",
        heavy: true,
        setup: no_setup(),
        run: Box::new(|e, _| {
            let g = hot_331(e);
            Out::Game(e.copies(8, &g))
        }),
    });
    v.push(Case {
        group: "deep_mixed",
        param: "build".into(),
        what: "build the five nested games a, b, c, d, f of deep_games (birthdays 5–6)",
        heavy: false,
        setup: no_setup(),
        run: Box::new(|e, _| {
            let gs = deep_games(e);
            Out::Game(gs.last().unwrap().clone())
        }),
    });
    for k in 2..=5usize {
        v.push(Case {
            group: "deep_mixed",
            param: format!("sum{k}"),
            what: "the first k of a, b, c, d, f (prebuilt, not timed) summed by repeated addition",
            heavy: true,
            setup: Box::new(deep_games),
            run: Box::new(move |e, gs| {
                let mut acc = gs[0].clone();
                for g in &gs[1..k] {
                    acc = e.add(&acc, g);
                }
                Out::Game(acc)
            }),
        });
    }
    v.push(Case {
        group: "deep_mixed",
        param: "stops".into(),
        what: "left stop, right stop and birthday of a + b + c + d (sum prebuilt, not timed)",
        heavy: false,
        setup: Box::new(|e| {
            let gs = deep_games(e);
            let mut acc = e.zero();
            for g in &gs[..4] {
                acc = e.add(&acc, g);
            }
            vec![acc]
        }),
        run: Box::new(|e, d| {
            let ls = e.left_stop(&d[0]);
            let rs = e.right_stop(&d[0]);
            let b = e.birthday(&d[0]) as f64;
            Out::Numbers(vec![ls, rs, b])
        }),
    });
    v.push(Case {
        group: "cmp_confused",
        param: "12".into(),
        what: "G = ±1+…+±12, H = ±1+…+±11 + ±13 (prebuilt, not timed): G ≤ H and H ≤ G",
        heavy: true,
        setup: Box::new(|e| {
            let g = switches(e, 1..=12);
            let h = switches(e, (1..=11).chain([13]));
            vec![g, h]
        }),
        run: Box::new(|e, d| {
            let a = e.le(&d[0], &d[1]);
            let b = e.le(&d[1], &d[0]);
            Out::Bools(vec![a, b])
        }),
    });
    v.push(Case {
        group: "cmp_less",
        param: "12".into(),
        what: "G = ±1+…+±12, H = G + ↑ (prebuilt, not timed): G ≤ H and H ≤ G",
        heavy: true,
        setup: Box::new(|e| {
            let g = switches(e, 1..=12);
            let up = e.ups(1);
            let h = e.add(&g, &up);
            vec![g, h]
        }),
        run: Box::new(|e, d| {
            let a = e.le(&d[0], &d[1]);
            let b = e.le(&d[1], &d[0]);
            Out::Bools(vec![a, b])
        }),
    });
    const DEEP: [&str; 5] = ["a", "b", "c", "d", "f"];
    for (i, name) in DEEP.iter().enumerate() {
        v.push(Case {
            group: "thermograph",
            param: (*name).into(),
            what: "thermograph of one deep_mixed game (prebuilt, not timed)",
            heavy: false,
            setup: Box::new(move |e| vec![deep_games(e)[i].clone()]),
            run: Box::new(|e, d| Out::Thermograph(e.thermograph(&d[0]))),
        });
    }
    for k in [2usize, 3] {
        v.push(Case {
            group: "thermograph",
            param: format!("sum{k}"),
            what: "thermograph of a + b (sum2) or a + b + c (sum3) (sum prebuilt, not timed)",
            heavy: k >= 3,
            setup: Box::new(move |e| {
                let gs = deep_games(e);
                vec![e.sum(&gs[..k])]
            }),
            run: Box::new(|e, d| Out::Thermograph(e.thermograph(&d[0]))),
        });
    }
    for (i, name) in SMALL_NAMES.iter().enumerate() {
        v.push(Case {
            group: "atomic_weight",
            param: (*name).into(),
            what: "atomic weight of one game of small_games (prebuilt, not timed)",
            heavy: false,
            setup: Box::new(move |e| vec![small_games(e)[i].clone()]),
            run: Box::new(|e, d| Out::AtomicWeight(e.atomic_weight(&d[0]))),
        });
    }
    // Sums of two and three of them (indices into small_games).
    let sums: [&[usize]; 5] = [&[0, 1], &[2, 3], &[0, 4], &[0, 1, 2], &[1, 2, 3]];
    for parts in sums {
        let name = parts
            .iter()
            .map(|&i| SMALL_NAMES[i])
            .collect::<Vec<_>>()
            .join("+");
        v.push(Case {
            group: "atomic_weight",
            param: name,
            what: "atomic weight of a sum of small_games (sum prebuilt, not timed)",
            heavy: false,
            setup: Box::new(move |e| {
                let gs = small_games(e);
                let chosen: Vec<E::G> = parts.iter().map(|&i| gs[i].clone()).collect();
                vec![e.sum(&chosen)]
            }),
            run: Box::new(|e, d| Out::AtomicWeight(e.atomic_weight(&d[0]))),
        });
    }
    // Hot deep_mixed games: "not infinitesimal" (the error path). a has a left
    // stop of 5 (answered at once); c has stops 0 and -1 and temperature 3/2.
    for (i, name) in [(0usize, "a"), (2, "c")] {
        v.push(Case {
            group: "atomic_weight",
            param: format!("hot_{name}"),
            what: "atomic weight of a hot deep_mixed game: not infinitesimal (prebuilt, not timed)",
            heavy: false,
            setup: Box::new(move |e| vec![deep_games(e)[i].clone()]),
            run: Box::new(|e, d| Out::AtomicWeight(e.atomic_weight(&d[0]))),
        });
    }
    // d is not hot: both stops are 0 (temperature 0), so it is an infinitesimal
    // that is not all-small, and its weight needs yose's atomicity check.
    v.push(Case {
        group: "atomic_weight",
        param: "deep_d".into(),
        what: "atomic weight of deep_mixed d: infinitesimal, not all-small (prebuilt, not timed)",
        heavy: false,
        setup: Box::new(|e| vec![deep_games(e)[3].clone()]),
        run: Box::new(|e, d| Out::AtomicWeight(e.atomic_weight(&d[0]))),
    });
    v
}
