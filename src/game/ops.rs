//! Order, canonical form, sums and the constructions built on them.

use super::dyadic::Dyadic;
use super::store::{node_stops, CgError, CgResult, GameId, Node, Nus, Store, Table};
use num_bigint::BigInt;
use std::cmp::Ordering;

/// How two games compare.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Relation {
    Equal,
    Less,
    Greater,
    /// Incomparable (fuzzy).
    Confused,
}

/// Outcome class: who wins, playing first or second.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Left wins whoever starts (G > 0).
    Left,
    /// Right wins whoever starts (G < 0).
    Right,
    /// The second player wins (G = 0).
    Previous,
    /// The first player wins (G confused with 0).
    Next,
}

/// Memo tables of the derived operations.
pub(crate) struct Memo {
    /// Birthdays, up-nth, thermographs, cooling, incentives, atomic
    /// weight, rcf (see `derived.rs`); boxed at first use
    /// ([`Memo::derived`]): its empty tables were half the size of a fresh
    /// store, made, copied and dropped by every question, and the drops of
    /// the stop and birthday tables alone were a twentieth of the cost of a
    /// fresh interpreter answering `0` (BENCHMARKS.md, issue 21).
    derived: Option<Box<super::derived::DerivedMemo>>,
}

impl Memo {
    /// The tables of the derived operations, made at their first use.
    #[inline]
    pub(crate) fn derived(&mut self) -> &mut super::derived::DerivedMemo {
        self.derived.get_or_insert_with(Box::default)
    }
}

impl Default for Memo {
    /// Empty; the tables are made at their first use, like the store's.
    #[inline(always)]
    fn default() -> Memo {
        Memo { derived: None }
    }
}

impl Store {
    // ----- order ----------------------------------------------------------------

    /// `g ≤ h`.
    pub fn le(&mut self, g: GameId, h: GameId) -> CgResult<bool> {
        if g == h {
            return Ok(true);
        }
        let (ng, nh) = (self.node(g), self.node(h));
        if let (Node::Nus(a), Node::Nus(b)) = (ng, nh) {
            return Ok(nus_le(a, b));
        }
        if let Some(r) = le_by_stops(ng, nh) {
            self.count_step()?;
            return Ok(r);
        }
        if let Some(&r) = self.le_memo.get(&(g, h)) {
            return Ok(r);
        }
        self.tick()?;
        let result = self.le_uncached(g, h)?;
        self.before_insert(Table::Comparisons)?;
        if self.le_memo.capacity() == 0 {
            self.le_memo.reserve(super::store::FIRST_LE_MEMO);
        }
        self.le_memo.insert((g, h), result);
        Ok(result)
    }

    fn le_uncached(&mut self, g: GameId, h: GameId) -> CgResult<bool> {
        // A canonical non-number is never a number, so number avoidance applies:
        // G ≤ x iff no G^L ≥ x, and x ≤ H iff no H^R ≤ x.
        if self.is_number(h) {
            for gl in self.left_options(g).iter() {
                if self.le(h, *gl)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        if self.is_number(g) {
            for hr in self.right_options(h).iter() {
                if self.le(*hr, g)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        // Right options first: they fail fast on most Go values.
        for hr in self.right_options(h).iter() {
            if self.le(*hr, g)? {
                return Ok(false);
            }
        }
        for gl in self.left_options(g).iter() {
            if self.le(h, *gl)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    pub fn ge(&mut self, g: GameId, h: GameId) -> CgResult<bool> {
        self.le(h, g)
    }

    pub fn compare(&mut self, g: GameId, h: GameId) -> CgResult<Relation> {
        if g == h {
            return Ok(Relation::Equal);
        }
        let le = self.le(g, h)?;
        let ge = self.le(h, g)?;
        Ok(match (le, ge) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Less,
            (false, true) => Relation::Greater,
            (false, false) => Relation::Confused,
        })
    }

    pub fn outcome(&mut self, g: GameId) -> CgResult<Outcome> {
        let zero = self.zero();
        Ok(match self.compare(g, zero)? {
            Relation::Equal => Outcome::Previous,
            Relation::Greater => Outcome::Left,
            Relation::Less => Outcome::Right,
            Relation::Confused => Outcome::Next,
        })
    }

    // ----- comparisons against an option list not yet interned ------------------

    /// `x ≤ {left | right}`.
    fn le_lists(&mut self, x: GameId, left: &[GameId], right: &[GameId]) -> CgResult<bool> {
        self.tick()?;
        for r in right {
            if self.le(*r, x)? {
                return Ok(false);
            }
        }
        for xl in self.left_options(x).iter() {
            if self.lists_le(left, right, *xl)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `{left | right} ≤ y`.
    fn lists_le(&mut self, left: &[GameId], right: &[GameId], y: GameId) -> CgResult<bool> {
        self.tick()?;
        for l in left {
            if self.le(y, *l)? {
                return Ok(false);
            }
        }
        for yr in self.right_options(y).iter() {
            if self.le_lists(*yr, left, right)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    // ----- canonical form ------------------------------------------------------

    /// The canonical game equal to `{left | right}` (options already canonical).
    pub fn canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> CgResult<GameId> {
        let mut left = left;
        let mut right = right;
        if let Some(x) = self.number_between(&left, &right) {
            return Ok(self.number(x));
        }
        if let Some(g) = self.number_switch(&left, &right) {
            return Ok(g);
        }
        loop {
            self.remove_dominated(&mut left, true)?;
            self.remove_dominated(&mut right, false)?;
            let mut changed = false;
            // Bypass reversible Left options: G^L with some G^LR ≤ G.
            let mut new_left = Vec::with_capacity(left.len());
            for &gl in &left {
                let mut reversed = None;
                for glr in self.right_options(gl).iter() {
                    if self.le_lists(*glr, &left, &right)? {
                        reversed = Some(*glr);
                        break;
                    }
                }
                match reversed {
                    Some(glr) => {
                        new_left.extend(self.left_options(glr).iter().copied());
                        changed = true;
                    }
                    None => new_left.push(gl),
                }
            }
            let mut new_right = Vec::with_capacity(right.len());
            for &gr in &right {
                let mut reversed = None;
                for grl in self.left_options(gr).iter() {
                    if self.lists_le(&new_left, &right, *grl)? {
                        reversed = Some(*grl);
                        break;
                    }
                }
                match reversed {
                    Some(grl) => {
                        new_right.extend(self.right_options(grl).iter().copied());
                        changed = true;
                    }
                    None => new_right.push(gr),
                }
            }
            left = new_left;
            right = new_right;
            if !changed {
                break;
            }
            if let Some(x) = self.number_between(&left, &right) {
                return Ok(self.number(x));
            }
        }
        self.before_insert(Table::Games)?;
        Ok(self.intern_canonical(left, right))
    }

    /// When every option is a number and each Left one is below each Right one,
    /// the game is the simplest number between them.
    pub(crate) fn number_between(&self, left: &[GameId], right: &[GameId]) -> Option<Dyadic> {
        let mut max_l: Option<&Dyadic> = None;
        for l in left {
            let x = self.as_number(*l)?;
            if max_l.is_none_or(|m| x > m) {
                max_l = Some(x);
            }
        }
        let mut min_r: Option<&Dyadic> = None;
        for r in right {
            let x = self.as_number(*r)?;
            if min_r.is_none_or(|m| x < m) {
                min_r = Some(x);
            }
        }
        if let (Some(l), Some(r)) = (max_l, min_r) {
            if l >= r {
                return None;
            }
        }
        Some(Dyadic::simplest_between(max_l, min_r))
    }

    /// `{left | right}` when every option is a number and the greatest Left one,
    /// `a`, is at least the least Right one, `b`: the canonical form is
    /// `{a | b}` (interned through [`Store::intern_canonical`], which recognises
    /// `a = b` as `a*`). Proof: the other options are dominated. `a` is not
    /// reversible: `a` has a Right option only as a number, `a^R > a ≥ b`, and
    /// `a^R ≤ G = {a | b}` fails because Right, moving first in `G - a^R`,
    /// moves to `b - a^R < 0` and wins. Symmetrically `b^L < b ≤ a` and
    /// `G ≤ b^L` fails (Left moves to `a - b^L > 0`). So `{a | b}` has no
    /// dominated or reversible option. (`None` when some option is not a
    /// number, or a side is empty: then [`Store::number_between`] applies.)
    pub(crate) fn number_switch(&mut self, left: &[GameId], right: &[GameId]) -> Option<GameId> {
        let mut max_l: Option<(GameId, &Dyadic)> = None;
        for &l in left {
            let x = self.as_number(l)?;
            if max_l.is_none_or(|(_, m)| x > m) {
                max_l = Some((l, x));
            }
        }
        let mut min_r: Option<(GameId, &Dyadic)> = None;
        for &r in right {
            let x = self.as_number(r)?;
            if min_r.is_none_or(|(_, m)| x < m) {
                min_r = Some((r, x));
            }
        }
        let (a, b) = (max_l?.0, min_r?.0);
        Some(self.intern_canonical(vec![a], vec![b]))
    }

    /// Keeps the maximal options (Left) or the minimal ones (Right), one of each value.
    fn remove_dominated(&mut self, opts: &mut Vec<GameId>, is_left: bool) -> CgResult<()> {
        opts.sort_unstable();
        opts.dedup();
        if opts.len() < 2 {
            return Ok(());
        }
        let mut keep = vec![true; opts.len()];
        for i in 0..opts.len() {
            if !keep[i] {
                continue;
            }
            for j in 0..opts.len() {
                if i == j || !keep[j] {
                    continue;
                }
                // Drop i when it is dominated by j.
                let dominated = if is_left {
                    self.le(opts[i], opts[j])?
                } else {
                    self.le(opts[j], opts[i])?
                };
                if dominated {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut k = 0;
        opts.retain(|_| {
            let r = keep[k];
            k += 1;
            r
        });
        Ok(())
    }

    // ----- arithmetic ----------------------------------------------------------

    /// `-g`. Iterative (an explicit stack, options before the game), so
    /// negating a game nested however deeply cannot overflow the stack.
    pub fn neg(&mut self, g: GameId) -> GameId {
        if let Some(r) = self.neg_known(g) {
            return r;
        }
        // (game, whether its options are already pushed)
        let mut todo = vec![(g, false)];
        while let Some((x, expanded)) = todo.pop() {
            if self.neg_known(x).is_some() {
                continue;
            }
            let (l, r) = self.options(x);
            if !expanded {
                todo.push((x, true));
                for &y in l.iter().chain(r.iter()) {
                    if self.neg_known(y).is_none() {
                        todo.push((y, false));
                    }
                }
                continue;
            }
            let negated = |opts: &[GameId], store: &mut Store| -> Vec<GameId> {
                opts.iter()
                    // Every option was negated before its game was taken up
                    // again; the fallback is never used.
                    .map(|&y| store.neg_known(y).unwrap_or_else(|| store.neg(y)))
                    .collect()
            };
            let new_left = negated(&r, self);
            let new_right = negated(&l, self);
            let result = self.intern_canonical(new_left, new_right);
            self.neg_memo.insert(x, result);
            self.neg_memo.insert(result, x);
        }
        self.neg_known(g).unwrap_or_else(|| self.zero())
    }

    /// `-g` when it costs no recursion: a number-up-star value, or a
    /// negation already made.
    fn neg_known(&mut self, g: GameId) -> Option<GameId> {
        if let Node::Nus(n) = self.node(g) {
            if n.ups != i64::MIN {
                let m = Nus {
                    number: n.number.neg(),
                    ups: n.ups.wrapping_neg(),
                    nim: n.nim,
                };
                return Some(self.nus(m));
            }
        }
        self.neg_memo.get(&g).copied()
    }

    pub fn add(&mut self, g: GameId, h: GameId) -> CgResult<GameId> {
        let zero = self.zero();
        if g == zero {
            return Ok(h);
        }
        if h == zero {
            return Ok(g);
        }
        if let (Node::Nus(a), Node::Nus(b)) = (self.node(g), self.node(h)) {
            let ups = checked_ups(a.ups.checked_add(b.ups))?;
            let n = Nus {
                number: a.number.add(&b.number),
                ups,
                nim: a.nim ^ b.nim,
            };
            return Ok(self.nus(n));
        }
        let key = if g <= h { (g, h) } else { (h, g) };
        if let Some(&r) = self.add_memo.get(&key) {
            return Ok(r);
        }
        self.tick()?;
        let result = if let Some(x) = self.as_number(g).cloned() {
            self.translate(h, &x)?
        } else if let Some(x) = self.as_number(h).cloned() {
            self.translate(g, &x)?
        } else {
            let (gl, gr) = self.options(g);
            let (hl, hr) = self.options(h);
            let mut left = Vec::with_capacity(gl.len() + hl.len());
            for x in gl.iter() {
                left.push(self.add(*x, h)?);
            }
            for x in hl.iter() {
                left.push(self.add(g, *x)?);
            }
            let mut right = Vec::with_capacity(gr.len() + hr.len());
            for x in gr.iter() {
                right.push(self.add(*x, h)?);
            }
            for x in hr.iter() {
                right.push(self.add(g, *x)?);
            }
            self.canonical(left, right)?
        };
        self.before_insert(Table::Sums)?;
        self.add_memo.insert(key, result);
        Ok(result)
    }

    /// `x + G` for a number `x` and a non-number `G`: by number translation it is
    /// `{x + G^L | x + G^R}`, and that form is already canonical.
    fn translate(&mut self, g: GameId, x: &Dyadic) -> CgResult<GameId> {
        let xg = self.number(x.clone());
        let (gl, gr) = self.options(g);
        let mut left = Vec::with_capacity(gl.len());
        for o in gl.iter() {
            left.push(self.add(*o, xg)?);
        }
        let mut right = Vec::with_capacity(gr.len());
        for o in gr.iter() {
            right.push(self.add(*o, xg)?);
        }
        self.before_insert(Table::Games)?;
        Ok(self.intern_canonical(left, right))
    }

    pub fn sub(&mut self, g: GameId, h: GameId) -> CgResult<GameId> {
        let nh = self.neg(h);
        self.add(g, nh)
    }

    /// The canonical sum of many games.
    pub fn sum(&mut self, parts: &[GameId]) -> CgResult<GameId> {
        // Number-up-star parts first, added by their parameters and
        // interned once: they combine without search.
        let mut nus: Option<Nus> = None;
        let mut rest = Vec::new();
        for &p in parts {
            match (self.as_nus(p), nus.as_ref()) {
                (Some(n), None) => nus = Some(n.clone()),
                (Some(n), Some(acc)) => nus = Some(super::gameval::nus_add(acc, n)?),
                (None, _) => rest.push(p),
            }
        }
        let mut acc = match nus {
            Some(n) => self.nus(n),
            None => self.zero(),
        };
        for p in rest {
            acc = self.add(acc, p)?;
        }
        Ok(acc)
    }

    /// `n . G`: `n` copies of `G` (negative `n` means copies of `-G`).
    pub fn copies(&mut self, n: &BigInt, g: GameId) -> CgResult<GameId> {
        use num_traits::{Signed, ToPrimitive, Zero};
        if n.is_negative() {
            let ng = self.neg(g);
            return self.copies(&-n, ng);
        }
        if n.is_zero() {
            return Ok(self.zero());
        }
        if let Some(a) = self.as_nus(g).cloned() {
            let ups = match n
                .to_i64()
                .and_then(|k| a.ups.checked_mul(k))
                .filter(|u| *u != i64::MIN)
            {
                Some(u) => u,
                None if a.ups == 0 => 0,
                None => return Err(too_many_ups()),
            };
            let odd = n.bit(0);
            let number = a.number.mul(&Dyadic::from_bigint(n.clone()));
            return Ok(self.nus(Nus {
                number,
                ups,
                nim: if odd { a.nim } else { 0 },
            }));
        }
        // Binary method: log2(n) doublings.
        let mut result = self.zero();
        let mut power = g;
        let bits = n.bits();
        for i in 0..bits {
            if n.bit(i) {
                result = self.add(result, power)?;
            }
            if i + 1 < bits {
                power = self.add(power, power)?;
            }
        }
        Ok(result)
    }

    /// `±G = {G | -G}`.
    pub fn switch(&mut self, g: GameId) -> CgResult<GameId> {
        let ng = self.neg(g);
        self.canonical(vec![g], vec![ng])
    }

    /// `⧾_x = {0 || 0 | -x}`.
    pub fn tiny(&mut self, x: GameId) -> CgResult<GameId> {
        let zero = self.zero();
        let nx = self.neg(x);
        let inner = self.canonical(vec![zero], vec![nx])?;
        self.canonical(vec![zero], vec![inner])
    }

    /// `⧿_x = {x | 0 || 0}`.
    pub fn miny(&mut self, x: GameId) -> CgResult<GameId> {
        let t = self.tiny(x)?;
        Ok(self.neg(t))
    }

    /// Up-nth `↑^n` (Conway–Norton): `↑^1 = ↑`, `↑^(n+1) = {0 | * - ↑^(→n)}`.
    pub fn up_nth(&mut self, n: u32) -> CgResult<GameId> {
        if n == 0 {
            return Ok(self.zero());
        }
        if self.memo.derived().up_nth.is_empty() {
            let up = self.ups(1);
            self.memo.derived().up_nth.push(up);
        }
        while (self.memo.derived().up_nth.len() as u32) < n {
            let k = self.memo.derived().up_nth.len() as u32;
            let uptimal = self.uptimal(k)?;
            let star = self.star();
            let right = self.sub(star, uptimal)?;
            let zero = self.zero();
            let next = self.canonical(vec![zero], vec![right])?;
            self.memo.derived().up_nth.push(next);
        }
        Ok(self.memo.derived().up_nth[n as usize - 1])
    }

    /// Uptimal `↑^(→n) = ↑ + ↑^2 + … + ↑^n`.
    pub fn uptimal(&mut self, n: u32) -> CgResult<GameId> {
        let mut acc = self.zero();
        for i in 1..=n {
            // up_nth(i) for i ≤ n only needs uptimal(i - 1), so this terminates.
            let u = if (i as usize) <= self.memo.derived().up_nth.len() {
                self.memo.derived().up_nth[i as usize - 1]
            } else {
                self.up_nth(i)?
            };
            acc = self.add(acc, u)?;
        }
        Ok(acc)
    }

    // ----- measures ------------------------------------------------------------

    pub fn birthday(&mut self, g: GameId) -> CgResult<BigInt> {
        if let Some(n) = self.as_nus(g) {
            return Ok(nus_birthday(n));
        }
        if let Some(b) = self.memo.derived().birthday.get(&g) {
            return Ok(b.clone());
        }
        self.tick()?;
        let (l, r) = self.options(g);
        let mut best = BigInt::from(0);
        for o in l.iter().chain(r.iter()) {
            let b = self.birthday(*o)? + 1;
            if b > best {
                best = b;
            }
        }
        self.memo.derived().birthday.insert(g, best.clone());
        Ok(best)
    }

    /// Left stop: the number reached when Left moves first and both play to the
    /// first number (a player who would move to a number stops there).
    /// Recorded in the node ([`Store::stops`]).
    pub fn left_stop(&mut self, g: GameId) -> CgResult<Dyadic> {
        Ok(self.stops(g).0.clone())
    }

    pub fn right_stop(&mut self, g: GameId) -> CgResult<Dyadic> {
        Ok(self.stops(g).1.clone())
    }

    /// Infinitesimal: strictly between every negative and every positive number,
    /// i.e. both stops are 0. (Numbers other than 0 are not infinitesimal; 0 is.)
    pub fn is_infinitesimal(&mut self, g: GameId) -> CgResult<bool> {
        let (ls, rs) = self.stops(g);
        Ok(ls.is_zero() && rs.is_zero())
    }

    /// Numberish: infinitesimally close to a number (equal stops).
    pub fn is_numberish(&mut self, g: GameId) -> CgResult<bool> {
        Ok(self.left_stop(g)? == self.right_stop(g)?)
    }
}

/// The birthday of `x + k·↑ + *m` in closed form (no walk down the `k`
/// levels of its options). The options of `x + G` are `x + G'`, so the
/// birthday is `b(x) + b(k·↑ + *m)`; `b(*m) = m`, `↑* = {0, * | 0}` has
/// birthday 2, and otherwise `k·↑ + *m = {0 | (k-1)·↑ + *(m^1)}` (k ≥ 1; the
/// store's canonical shapes) adds one per level down to `k = 1`, where
/// `↑ + *m` is 2 for `m ≤ 1` and `1 + (m^1)` above. Downs mirror ups.
fn nus_birthday(n: &Nus) -> BigInt {
    let k = n.ups.unsigned_abs();
    let infinitesimal = if k == 0 {
        BigInt::from(n.nim)
    } else {
        // The nim part once the walk reaches k = 1.
        let m = n.nim ^ ((k - 1) & 1);
        let at_one = if m <= 1 {
            BigInt::from(2)
        } else {
            BigInt::from(m ^ 1) + 1
        };
        at_one + (k - 1)
    };
    n.number.birthday() + infinitesimal
}

/// A count of ups in the range the engine represents, the same both ways:
/// `|k| ≤ 2^63 - 1` (so negating never overflows).
#[inline]
pub(crate) fn checked_ups(k: Option<i64>) -> CgResult<i64> {
    k.filter(|k| *k != i64::MIN).ok_or_else(too_many_ups)
}

#[cold]
pub(crate) fn too_many_ups() -> CgError {
    CgError::TooLarge("more than 2^63 - 1 ups or downs".into())
}

/// `G ≤ H` when the stops of the two nodes decide it, `None` otherwise.
/// `LS(G) < RS(H)` implies `G < H`: `LS(G - H) ≤ LS(G) + LS(-H) = LS(G) -
/// RS(H) < 0`, and a game whose left stop is negative is negative. The stops
/// are monotone: `G ≤ H` implies `LS(G) ≤ LS(H)` and `RS(G) ≤ RS(H)`; these
/// can fail only when `LS(G) > RS(H)` (`RS(G) ≤ LS(G) = RS(H) ≤ LS(H)`
/// otherwise), so one comparison settles the common case of equal stops.
/// Most comparisons of hot games are settled here, without a search or a
/// memo entry.
#[inline]
fn le_by_stops(g: &Node, h: &Node) -> Option<bool> {
    let (lg, rg) = node_stops(g);
    let (lh, rh) = node_stops(h);
    match lg.cmp(rh) {
        Ordering::Less => Some(true),
        Ordering::Equal => None,
        Ordering::Greater => (lg > lh || rg > rh).then_some(false),
    }
}

/// `a ≤ b` for number-up-star values.
pub(crate) fn nus_le(a: &Nus, b: &Nus) -> bool {
    match a.number.cmp(&b.number) {
        std::cmp::Ordering::Less => return true,
        std::cmp::Ordering::Greater => return false,
        std::cmp::Ordering::Equal => {}
    }
    // a ≤ b iff d = (a.ups - b.ups)·↑ + *(a.nim ^ b.nim) ≤ 0.
    let d = a.ups as i128 - b.ups as i128;
    let q = a.nim ^ b.nim;
    match d {
        0 => q == 0,
        -1 => q != 1, // ↓* is confused with 0; ↓ + *m < 0 otherwise
        d if d < 0 => true,
        _ => false,
    }
}
