//! Printing canonical games in CGSuite's ASCII spelling or Mathematical Go's Unicode.
//!
//! ASCII output is valid yose (and CGSuite) input: `{10||0|-100}`, `3*`, `^^*`,
//! `v3`, `+-1`, `Tiny(2)`, `^<2>`, `^[4]`, `73/16v9*8`. Slashes are as few as
//! possible: a side holding a single braced option writes it inline and the outer
//! separator gets one bar more than any inline one. Options are listed numbers
//! first (ascending), then other games in a deterministic order.

use crate::game::{CgResult, Dyadic, GameId, Nus, Store};
use std::fmt::Write;

#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Style {
    /// CGSuite-compatible ASCII.
    Ascii,
    /// Mathematical Go's glyphs: ↑ ↓ ⇑ ⇓ ∗ ± ⧾ ⧿.
    #[default]
    Unicode,
    /// ASCII as CGSuite itself prints it (`--cgsuite`): options in
    /// CGSuite's order (see [`Printer::cgsuite_cmp`]), at most four
    /// slashes (a game that needs four is braced and counts as one
    /// option), and `+-(1*)` for ± of a lone option that is not a number,
    /// nimber or up multiple.
    Cgsuite,
}

impl Style {
    /// ASCII output (`Ascii` and `Cgsuite`).
    pub fn is_ascii(self) -> bool {
        self != Style::Unicode
    }
}

/// Formats a canonical game.
pub fn format_game(store: &mut Store, g: GameId, style: Style) -> CgResult<String> {
    let piece = Printer {
        store,
        style,
        sorted: Default::default(),
    }
    .piece(g)?;
    Ok(piece.standalone())
}

/// A printed game: either a self-delimiting token (`3/2^*`, `Tiny(2)`, `+-{1|0}`)
/// or the inside of braces together with the number of bars at its top level.
struct Piece {
    text: String,
    bars: usize,
}

impl Piece {
    fn atom(text: String) -> Piece {
        Piece { text, bars: 0 }
    }
    fn standalone(self) -> String {
        if self.bars == 0 {
            self.text
        } else {
            format!("{{{}}}", self.text)
        }
    }
}

struct Printer<'a> {
    store: &'a mut Store,
    style: Style,
    /// (`Cgsuite` only) options already sorted in CGSuite's order, per game
    /// and side (true: Left), so comparisons deep in a game sort each
    /// option list once.
    sorted: rustc_hash::FxHashMap<(GameId, bool), Vec<GameId>>,
}

impl Printer<'_> {
    fn piece(&mut self, g: GameId) -> CgResult<Piece> {
        self.store.tick()?;
        if let Some(n) = self.store.as_nus(g) {
            return Ok(Piece::atom(format_nus(&n.clone(), self.style)));
        }
        if let Some(text) = self.special(g)? {
            return Ok(Piece::atom(text));
        }
        let (left, right) = self.store.options(g);
        let left = self.side(&left)?;
        let right = self.side(&right)?;
        let bars = left.1.max(right.1) + 1;
        let text = format!("{}{}{}", left.0, "|".repeat(bars), right.0);
        if self.style == Style::Cgsuite && bars >= CGSUITE_MAX_BARS {
            return Ok(Piece::atom(format!("{{{text}}}")));
        }
        Ok(Piece { text, bars })
    }

    /// One side's options joined by commas, with the bar count of an inlined option.
    /// Order: numbers ascending, then number-up-stars, then the rest by stops and text.
    fn side(&mut self, opts: &[GameId]) -> CgResult<(String, usize)> {
        if self.style == Style::Cgsuite {
            let mut sorted = opts.to_vec();
            self.cgsuite_sort(&mut sorted)?;
            if let [only] = sorted[..] {
                let p = self.piece(only)?;
                return Ok((p.text, p.bars));
            }
            let mut texts = Vec::with_capacity(sorted.len());
            for o in sorted {
                texts.push(self.piece(o)?.standalone());
            }
            return Ok((texts.join(","), 0));
        }
        type Key = (u8, Dyadic, Dyadic, i64, u64);
        let mut keyed: Vec<(Key, Piece)> = Vec::with_capacity(opts.len());
        for &o in opts {
            let key = if let Some(n) = self.store.as_nus(o) {
                let class = if n.is_number() { 0 } else { 1 };
                (class, n.number.clone(), n.number.clone(), n.ups, n.nim)
            } else {
                let ls = self.store.left_stop(o)?;
                let rs = self.store.right_stop(o)?;
                (2, ls, rs, 0, 0)
            };
            keyed.push((key, self.piece(o)?));
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.text.cmp(&b.1.text)));
        if keyed.len() == 1 {
            let p = keyed.pop().unwrap().1;
            return Ok((p.text, p.bars));
        }
        let texts: Vec<String> = keyed.into_iter().map(|(_, p)| p.standalone()).collect();
        Ok((texts.join(","), 0))
    }

    /// Sorts options as CGSuite lists them (CGSuite's `DeterministicOrdering`,
    /// read for the facts only): numbers ascending, then nimbers by nim value,
    /// then uptimals (numbers plus ups and stars, up-nth, uptimals) by their
    /// uptimal expansions, then every other game by its sorted Left options
    /// compared as lists, then its sorted Right options.
    fn cgsuite_sort(&mut self, opts: &mut [GameId]) -> CgResult<()> {
        // Insertion sort: the comparison can fail (budget), and option
        // lists are short.
        for i in 1..opts.len() {
            let mut j = i;
            while j > 0 && self.cgsuite_cmp(opts[j - 1], opts[j])?.is_gt() {
                opts.swap(j - 1, j);
                j -= 1;
            }
        }
        Ok(())
    }

    fn cgsuite_cmp(&mut self, g: GameId, h: GameId) -> CgResult<std::cmp::Ordering> {
        use std::cmp::Ordering;
        self.store.tick()?;
        if g == h {
            return Ok(Ordering::Equal);
        }
        let (a, b) = (self.cgsuite_class(g)?, self.cgsuite_class(h)?);
        match (a, b) {
            (CgClass::Number(x), CgClass::Number(y)) => Ok(x.cmp(&y)),
            (CgClass::Nimber(x), CgClass::Nimber(y)) => Ok(x.cmp(&y)),
            (CgClass::Uptimal(x), CgClass::Uptimal(y)) => Ok(x.cmp(&y)),
            (CgClass::Other, CgClass::Other) => {
                for left in [true, false] {
                    let go = self.sorted_side(g, left)?;
                    let ho = self.sorted_side(h, left)?;
                    let n = go.len().min(ho.len());
                    for k in 0..n {
                        let c = self.cgsuite_cmp(go[k], ho[k])?;
                        if c.is_ne() {
                            return Ok(c);
                        }
                    }
                    // A list that is a prefix of the other comes first.
                    let c = go.len().cmp(&ho.len());
                    if c.is_ne() {
                        return Ok(c);
                    }
                }
                Ok(Ordering::Equal)
            }
            (a, b) => Ok(a.rank().cmp(&b.rank())),
        }
    }

    fn sorted_side(&mut self, g: GameId, left: bool) -> CgResult<Vec<GameId>> {
        if let Some(side) = self.sorted.get(&(g, left)) {
            return Ok(side.clone());
        }
        let (l, r) = self.store.options(g);
        let mut side = if left { l.to_vec() } else { r.to_vec() };
        self.cgsuite_sort(&mut side)?;
        self.sorted.insert((g, left), side.clone());
        Ok(side)
    }

    fn cgsuite_class(&mut self, g: GameId) -> CgResult<CgClass> {
        if let Some(n) = self.store.as_nus(g) {
            let n = n.clone();
            return Ok(if n.is_number() {
                CgClass::Number(n.number)
            } else if n.number.is_zero() && n.ups == 0 {
                CgClass::Nimber(n.nim)
            } else {
                let coefficients = if n.ups == 0 { vec![] } else { vec![n.ups] };
                CgClass::Uptimal(UptimalKey::new(n.number, coefficients, n.nim))
            });
        }
        // x + ↑^n (+*) or x + ↑^(→n) (+*), possibly negated: the named forms.
        let ls = self.store.left_stop(g)?;
        if ls == self.store.right_stop(g)? {
            let x = self.store.number(ls.clone());
            let neg_x = self.store.neg(x);
            let h = self.store.add(g, neg_x)?;
            let nh = self.store.neg(h);
            for (inf, sign) in [(h, 1i64), (nh, -1i64)] {
                if let Some((n, form, starred)) = self.up_shape(inf)? {
                    let n = n as usize;
                    let coefficients = if form == 'n' {
                        let mut c = vec![0; n];
                        c[n - 1] = sign;
                        c
                    } else {
                        vec![sign; n]
                    };
                    return Ok(CgClass::Uptimal(UptimalKey::new(
                        ls,
                        coefficients,
                        u64::from(starred),
                    )));
                }
            }
        }
        Ok(CgClass::Other)
    }

    /// Whether CGSuite writes `+-(G)` for the switch of the lone option G:
    /// G is an uptimal that is not a number, a nimber or a multiple of up
    /// (`+-(1*)`, `+-(^*)`), or a named tiny or miny.
    fn cgsuite_parenthesised(&mut self, g: GameId) -> CgResult<bool> {
        if let Some(n) = self.store.as_nus(g) {
            let plain_ups = n.number.is_zero() && n.nim == 0;
            return Ok(!n.is_number() && !(n.number.is_zero() && n.ups == 0) && !plain_ups);
        }
        let text = self.piece(g)?;
        Ok(text.bars == 0 && !text.text.starts_with('{') && !text.text.starts_with("+-"))
    }

    /// Named forms: `±G`, `x + Tiny(G)`, `x + Miny(G)`, `x + ↑^n (+*)`, `x + ↑^(→n) (+*)`.
    fn special(&mut self, g: GameId) -> CgResult<Option<String>> {
        let (left, _) = self.store.options(g);
        // ±G = {G | -G}; ±{A, B} = {A, B | -A, -B} (any G = -G that is not
        // a nimber, as CGSuite prints it).
        if !left.is_empty() && self.store.neg(g) == g {
            let pm = if self.style.is_ascii() { "+-" } else { "±" };
            if left.len() == 1 {
                let a = self.piece(left[0])?.standalone();
                if self.style == Style::Cgsuite && self.cgsuite_parenthesised(left[0])? {
                    return Ok(Some(format!("{pm}({a})")));
                }
                return Ok(Some(format!("{pm}{a}")));
            }
            let (opts, _) = self.side(&left)?;
            return Ok(Some(format!("{pm}{{{opts}}}")));
        }
        let ls = self.store.left_stop(g)?;
        if ls != self.store.right_stop(g)? {
            return Ok(None);
        }
        if ls.is_zero() && self.style == Style::Unicode {
            if let Some(name) = self.zero_prefix_name(g)? {
                return Ok(Some(name));
            }
        }
        // G = x + H with H infinitesimal.
        let x = self.store.number(ls.clone());
        let neg_x = self.store.neg(x);
        let h = self.store.add(g, neg_x)?;
        let name = match self.infinitesimal_name(h)? {
            Some(name) => name,
            None => return Ok(None),
        };
        if ls.is_zero() {
            Ok(Some(name))
        } else {
            Ok(Some(format!("{ls}{name}")))
        }
    }

    /// Berlekamp's `0ⁿ⧾x` for `{0 | {0 | … ⧾x}}` with n ≥ 2 zeros before the
    /// tiny (and `0ⁿ⧿x` for the negative), Unicode only: ASCII has no spelling
    /// CGSuite reads. One zero stays braced (`{0|⧾1}` is as short and
    /// clearer). Only called with both stops 0, so no number is juxtaposed
    /// (`20²⧾1` would read as twenty squared).
    fn zero_prefix_name(&mut self, g: GameId) -> CgResult<Option<String>> {
        let zero = self.store.zero();
        for tiny_side in [true, false] {
            let mut n = 0u32;
            let mut cur = g;
            loop {
                let (left, right) = self.store.options(cur);
                // `{0 | next}` for tinies, `{next | 0}` for minies.
                let (zeros, next) = if tiny_side {
                    (&left, &right)
                } else {
                    (&right, &left)
                };
                if zeros.len() != 1 || zeros[0] != zero || next.len() != 1 {
                    break;
                }
                if n >= 2 {
                    if let Some(name) = self.tiny_or_miny_name(cur)? {
                        let glyph = if tiny_side { '⧾' } else { '⧿' };
                        if name.starts_with(glyph) {
                            return Ok(Some(format!("0{}{name}", superscript(n))));
                        }
                    }
                }
                n += 1;
                cur = next[0];
            }
        }
        Ok(None)
    }

    fn infinitesimal_name(&mut self, h: GameId) -> CgResult<Option<String>> {
        if let Some(name) = self.tiny_or_miny_name(h)? {
            return Ok(Some(name));
        }
        self.up_name(h)
    }

    /// `Tiny(x)` / `⧾x` or `Miny(x)` / `⧿x`.
    fn tiny_or_miny_name(&mut self, h: GameId) -> CgResult<Option<String>> {
        let ascii = self.style.is_ascii();
        let (left, right) = self.store.options(h);
        let zero = self.store.zero();
        // Tiny(x) = {0 || 0 | -x}, Miny(x) = {x | 0 || 0}. ASCII names them
        // when the mean of x is positive (CGSuite's rule: `Tiny({1|0})`);
        // Unicode, Berlekamp's style, when x > 0 (`{0|⧾1}`, `0²⧾1`).
        if left.len() == 1 && right.len() == 1 && left[0] == zero {
            let (il, ir) = self.store.options(right[0]);
            if il.len() == 1 && ir.len() == 1 && il[0] == zero {
                let x = self.store.neg(ir[0]);
                if self.names_tiny_of(x)? {
                    let arg = self.piece(x)?.standalone();
                    return Ok(Some(if ascii {
                        format!("Tiny({arg})")
                    } else {
                        format!("⧾{}", wrap_glyph_arg(arg))
                    }));
                }
            }
        }
        if left.len() == 1 && right.len() == 1 && right[0] == zero {
            let (il, ir) = self.store.options(left[0]);
            if il.len() == 1 && ir.len() == 1 && ir[0] == zero {
                let x = il[0];
                if self.names_tiny_of(x)? {
                    let arg = self.piece(x)?.standalone();
                    return Ok(Some(if ascii {
                        format!("Miny({arg})")
                    } else {
                        format!("⧿{}", wrap_glyph_arg(arg))
                    }));
                }
            }
        }
        Ok(None)
    }

    /// Whether `{0 || 0 | -x}` prints as a tiny of `x` (see above).
    fn names_tiny_of(&mut self, x: GameId) -> CgResult<bool> {
        if self.style.is_ascii() {
            return Ok(self.store.mean(x)?.is_positive());
        }
        let zero = self.store.zero();
        Ok(x != zero && self.store.le(zero, x)?)
    }

    /// `↑^n` and `↑^(→n)`, possibly negated and with a star, recognised by
    /// their canonical shapes (below) in one walk down the game: the cost
    /// is the size of `h`, not the construction of every `↑^k` up to the
    /// birthday of `h`.
    fn up_name(&mut self, h: GameId) -> CgResult<Option<String>> {
        let ascii = self.style.is_ascii();
        let nh = self.store.neg(h);
        for (g, negated) in [(h, false), (nh, true)] {
            let Some((n, form, starred)) = self.up_shape(g)? else {
                continue;
            };
            let arrow = match (negated, ascii) {
                (false, true) => "^",
                (true, true) => "v",
                (false, false) => "↑",
                (true, false) => "↓",
            };
            let (open, close) = if form == 'n' { ('<', '>') } else { ('[', ']') };
            let st = match (starred, ascii) {
                (false, _) => "",
                (true, true) => "*",
                (true, false) => "∗",
            };
            return Ok(Some(format!("{arrow}{open}{n}{close}{st}")));
        }
        Ok(None)
    }

    /// `Some((n, 'n' | 't', starred))` when `g` is `↑^n (+*)` (`'n'`) or
    /// `↑^(→n) (+*)` (`'t'`) for some `n ≥ 2`. The canonical forms, for
    /// `n ≥ 2` (Conway–Norton; checked against the constructed games in
    /// the tests):
    /// `↑^n = {0 | ↓^(→n-1)∗}`, `↑^n∗ = {0, ∗ | ↓^(→n-1)}`,
    /// `↑^(→n) = {↑^(→n-1) | ∗}`, `↑^(→n)∗ = {0, ↑^(→n-1)∗ | 0}`,
    /// with `↑^(→1) = ↑`.
    fn up_shape(&mut self, g: GameId) -> CgResult<Option<(u64, char, bool)>> {
        let (left, right) = self.store.options(g);
        let (zero, star) = (self.store.zero(), self.store.star());
        if right.len() != 1 {
            return Ok(None);
        }
        // ↑^n (+∗): the right option is minus an uptimal of order n - 1.
        let up_nth_left = match &left[..] {
            [z] if *z == zero => Some(true),
            [a, b] if (*a, *b) == (zero, star) || (*b, *a) == (zero, star) => Some(false),
            _ => None,
        };
        if let Some(wants_star) = up_nth_left {
            let minus = self.store.neg(right[0]);
            if let Some((k, starred)) = self.uptimal_shape(minus)? {
                if starred == wants_star {
                    return Ok(Some((k + 1, 'n', !wants_star)));
                }
            }
            return Ok(None);
        }
        match self.uptimal_shape(g)? {
            Some((n, starred)) if n >= 2 => Ok(Some((n, 't', starred))),
            _ => Ok(None),
        }
    }

    /// `Some((n, starred))` when `g` is `↑^(→n)` or `↑^(→n)∗` (`n ≥ 1`),
    /// walking the chain of the forms above iteratively.
    fn uptimal_shape(&mut self, g: GameId) -> CgResult<Option<(u64, bool)>> {
        let (zero, star) = (self.store.zero(), self.store.star());
        // The chain read from the top: each step is one order less.
        let mut steps = 0u64;
        let mut cur = g;
        loop {
            self.store.tick()?;
            if let Some(n) = self.store.as_nus(cur) {
                let base = match (n.number.is_zero(), n.ups, n.nim) {
                    (true, 1, 0) => Some(false),
                    (true, 1, 1) => Some(true),
                    _ => None,
                };
                return Ok(base.map(|s| (steps + 1, s)));
            }
            let (left, right) = self.store.options(cur);
            let next = match (&left[..], &right[..]) {
                // {↑^(→n-1) | ∗}
                ([l], [r]) if *r == star => (*l, false),
                // {0, ↑^(→n-1)∗ | 0}
                ([a, b], [r]) if *r == zero && (*a == zero || *b == zero) => {
                    (if *a == zero { *b } else { *a }, true)
                }
                _ => return Ok(None),
            };
            // Every step keeps the same starredness as the one below it.
            let below = self.starred_uptimal_step(next.0);
            if below != Some(next.1) {
                return Ok(None);
            }
            steps += 1;
            cur = next.0;
        }
    }

    /// Whether `g` (a candidate one order down an uptimal chain) would be
    /// read as starred (`Some(true)`), plain, or neither at its top.
    fn starred_uptimal_step(&mut self, g: GameId) -> Option<bool> {
        if let Some(n) = self.store.as_nus(g) {
            return match (n.number.is_zero(), n.ups, n.nim) {
                (true, 1, 0) => Some(false),
                (true, 1, 1) => Some(true),
                _ => None,
            };
        }
        let (zero, star) = (self.store.zero(), self.store.star());
        let (left, right) = self.store.options(g);
        match (&left[..], &right[..]) {
            ([_], [r]) if *r == star => Some(false),
            ([a, b], [r]) if *r == zero && (*a == zero || *b == zero) => Some(true),
            _ => None,
        }
    }
}

/// `n` in superscript digits (`²`, `¹²`).
pub fn superscript(n: u32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string()
        .bytes()
        .map(|b| DIGITS[usize::from(b - b'0')])
        .collect()
}

/// `⧾5` but `⧾(1/2)`: a glyph argument must be a single token that cannot absorb
/// what follows.
fn wrap_glyph_arg(arg: String) -> String {
    if arg.starts_with('{') || arg.chars().all(|c| c.is_ascii_digit()) {
        arg
    } else {
        format!("({arg})")
    }
}

/// Bars CGSuite writes at most: a game that needs this many is braced.
const CGSUITE_MAX_BARS: usize = 4;

/// Where CGSuite's order puts a game: numbers, nimbers, uptimals, others.
enum CgClass {
    Number(Dyadic),
    Nimber(u64),
    Uptimal(UptimalKey),
    Other,
}

impl CgClass {
    fn rank(&self) -> u8 {
        match self {
            CgClass::Number(_) => 0,
            CgClass::Nimber(_) => 1,
            CgClass::Uptimal(_) => 2,
            CgClass::Other => 3,
        }
    }
}

/// An uptimal expansion `x + c1·↑ + c2·↑² + … (+ *k)`, ordered as CGSuite
/// orders them: number, then the coefficients in turn, then the length,
/// then the nim part.
#[derive(PartialEq, Eq)]
struct UptimalKey {
    number: Dyadic,
    coefficients: Vec<i64>,
    nim: u64,
}

impl UptimalKey {
    fn new(number: Dyadic, coefficients: Vec<i64>, nim: u64) -> UptimalKey {
        UptimalKey {
            number,
            coefficients,
            nim,
        }
    }
}

impl PartialOrd for UptimalKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UptimalKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let common = self.coefficients.len().min(other.coefficients.len());
        self.number
            .cmp(&other.number)
            .then_with(|| self.coefficients[..common].cmp(&other.coefficients[..common]))
            .then_with(|| self.coefficients.len().cmp(&other.coefficients.len()))
            .then_with(|| self.nim.cmp(&other.nim))
    }
}

/// `0`, `3/2^*`, `-2v*`, `73/16v9*8`, `^^`, `*3` (ASCII) or `↑`, `⇑∗`, `↓3` (Unicode).
pub fn format_nus(n: &Nus, style: Style) -> String {
    let mut out = String::new();
    let ascii = style.is_ascii();
    if !n.number.is_zero() || (n.ups == 0 && n.nim == 0) {
        write!(out, "{}", n.number).unwrap();
    }
    let k = n.ups;
    if k != 0 {
        let (one, two) = match (k > 0, ascii) {
            (true, true) => ("^", "^^"),
            (false, true) => ("v", "vv"),
            (true, false) => ("↑", "⇑"),
            (false, false) => ("↓", "⇓"),
        };
        match k.unsigned_abs() {
            1 => out.push_str(one),
            2 => out.push_str(two),
            m => write!(out, "{one}{m}").unwrap(),
        }
    }
    if n.nim != 0 {
        out.push_str(if ascii { "*" } else { "∗" });
        if n.nim > 1 {
            write!(out, "{}", n.nim).unwrap();
        }
    }
    out
}

/// Formats a dyadic rational on its own (used for stops and scalars).
pub fn format_number(x: &Dyadic) -> String {
    x.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The named forms `↑^n`, `↑^(→n)` (negated, starred) are recognised by
    /// shape; the shapes are checked here against the games built by their
    /// definitions, and a near miss is not named.
    #[test]
    fn up_nth_and_uptimal_names_match_the_constructed_games() {
        let mut s = Store::new();
        let star = s.star();
        for n in 2..=24u32 {
            let nth = s.up_nth(n).unwrap();
            let upt = s.uptimal(n).unwrap();
            for (base, open, close) in [(nth, '<', '>'), (upt, '[', ']')] {
                for negated in [false, true] {
                    let b = if negated { s.neg(base) } else { base };
                    for starred in [false, true] {
                        let g = if starred { s.add(b, star).unwrap() } else { b };
                        let arrow = if negated { 'v' } else { '^' };
                        let st = if starred { "*" } else { "" };
                        assert_eq!(
                            format_game(&mut s, g, Style::Ascii).unwrap(),
                            format!("{arrow}{open}{n}{close}{st}")
                        );
                    }
                }
            }
        }
        // Near misses keep their braces.
        let u3 = s.uptimal(3).unwrap();
        let minus_one = s.integer(-1);
        let g = s.canonical(vec![u3], vec![minus_one]).unwrap();
        assert_eq!(format_game(&mut s, g, Style::Ascii).unwrap(), "{^[3]|-1}");
        let zero = s.zero();
        let u3s = s.add(u3, star).unwrap();
        let g = s.canonical(vec![zero, u3s], vec![zero, star]).unwrap();
        assert_eq!(
            format_game(&mut s, g, Style::Ascii).unwrap(),
            "{0,^[3]*|0,*}"
        );
    }

    /// `--cgsuite` against `--ascii` where they differ: CGSuite's option
    /// order (numbers, nimbers, uptimals, then others by their sorted
    /// options), braces at four slashes, `+-(1*)`.
    #[test]
    fn cgsuite_style_differs_from_ascii_where_cgsuite_does() {
        let mut s = Store::new();
        let both = |s: &mut Store, g| {
            format!(
                "{}  (ascii {})",
                format_game(s, g, Style::Cgsuite).unwrap(),
                format_game(s, g, Style::Ascii).unwrap()
            )
        };
        let n = |s: &mut Store, k: i64| s.integer(k);
        let star = s.star();
        let zero = s.zero();
        let one = n(&mut s, 1);
        let two = n(&mut s, 2);
        // {*, v | -1}: a nimber before an uptimal (yose: by up count).
        let down = s.ups(-1);
        let m1 = n(&mut s, -1);
        let g = s.canonical(vec![star, down], vec![m1]).unwrap();
        expect_test::expect!["{*,v|-1}  (ascii {v,*|-1})"].assert_eq(&both(&mut s, g));
        // Other games by their sorted Left options (a number before a game),
        // not by their stops.
        let m5 = n(&mut s, -5);
        let a = s.canonical(vec![two], vec![m5]).unwrap(); // {2|-5}
        let three = n(&mut s, 3);
        let b = s.canonical(vec![three], vec![one]).unwrap(); // {3|1}
        let b = s.canonical(vec![b], vec![zero]).unwrap(); // {3|1||0}
        let m9 = n(&mut s, -9);
        let g = s.canonical(vec![b, a], vec![m9]).unwrap();
        expect_test::expect!["{{2|-5},{3|1||0}|-9}  (ascii {{3|1||0},{2|-5}|-9})"]
            .assert_eq(&both(&mut s, g));
        // Four slashes are braced and count as one option.
        let mut g = s.canonical(vec![two], vec![one]).unwrap();
        for k in 3..=6 {
            let x = n(&mut s, k);
            g = s.canonical(vec![x], vec![g]).unwrap();
        }
        expect_test::expect!["{6|{5||||4|||3||2|1}}  (ascii {6|||||5||||4|||3||2|1})"]
            .assert_eq(&both(&mut s, g));
        // ± of a lone option that is not a number, nimber or up multiple.
        let one_star = s.add(one, star).unwrap();
        let neg = s.neg(one_star);
        let g = s.canonical(vec![one_star], vec![neg]).unwrap();
        expect_test::expect!["+-(1*)  (ascii +-1*)"].assert_eq(&both(&mut s, g));
    }
}
