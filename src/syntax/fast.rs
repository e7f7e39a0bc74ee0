//! A hand-written fast path for game literals.
//!
//! Why it exists: pest spends about 1–2 µs per character of nested braces
//! (its call-limit and stack-guard bookkeeping, string matching and the
//! token queue run for every one of the dozen rules a brace level passes
//! through), so a printed canonical form of 30 KB took some 40 ms to read.
//! This scanner reads the common shape of a game literal — braces, bars,
//! commas, numbers, ups, downs, stars, names, calls, `+` / `-` and the
//! prefix `+-` — directly into the AST in one pass.
//!
//! How it stays exact:
//!
//! * It accepts a literal only when it is sure of what the grammar and the
//!   AST builder (parser.rs) make of it, and declines everything else: any
//!   non-ASCII byte, parentheses, lists, strings, keywords, labels, `*(…)`,
//!   binary `+-`, comparisons, `.`/`/`/`mod`, ambiguous bar runs, malformed
//!   `^<n>` … A declined literal is left to pest (its inner literals may
//!   still be taken).
//! * An accepted literal is replaced, in the text pest reads, by a game of
//!   the same byte length, `{||…|}`, which pest reads in a few steps; the
//!   builder then takes the prebuilt [`Expr`] at that offset. Spans are
//!   byte offsets into the original source, so they are unchanged.
//! * The builder's depth limit (`MAX_DEPTH`) depends on where the literal
//!   stands, so each literal carries the deepest level the builder would
//!   have checked, relative to its own; a literal that would be too deep
//!   makes the whole parse rerun without the fast path.
//! * Any failure — from pest or from the builder — reruns the whole parse
//!   without the fast path, so diagnostics (and the REPL's "incomplete
//!   input" test) are exactly those of pest.
//! * Whitespace follows pest's rules, including atomicity: a game that
//!   touches a number (`2{0|-1}`) is part of the compound-atomic
//!   `number_lit`, where no implicit whitespace is allowed except inside
//!   call parentheses.
//!
//! tests.rs checks that the fast path and pest agree (AST and spans) on the
//! whole test corpus and on generated inputs.

use super::ast::*;
use super::parser::split_game;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;

/// A literal read by the fast path: its AST, and the deepest level the
/// builder would check inside it, relative to the level of the literal.
pub(crate) struct FastGame {
    pub expr: Expr,
    pub depth: usize,
}

/// Reads every game literal of the layout output `text` that the fast path
/// accepts, replaces it in `text` by `{||…|}` of the same length, and
/// returns the literals by start offset.
pub(crate) fn splice(text: &mut String) -> FxHashMap<usize, FastGame> {
    let mut found = FxHashMap::default();
    if !text.contains('{') {
        return found;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        match bytes[i] {
            b'"' => i = skip_string(&bytes, i),
            b'{' => {
                let atomic = i > 0 && bytes[i - 1].is_ascii_digit();
                let mut p = Fast { b: &bytes, atomic };
                match p.game(i) {
                    Some((expr, end, depth)) => {
                        found.insert(i, FastGame { expr, depth });
                        bytes[i + 1..end - 1].fill(b'|');
                        i = end;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes of accepted (all-ASCII) literals were rewritten.
    *text = String::from_utf8(bytes).expect("the fast path keeps UTF-8 intact");
    found
}

/// The whole layout output `text` as one additive expression the fast path
/// reads (surrounded by blanks and newlines only): the expression, the end
/// of the expression statement pest would give it in a program (which takes
/// the blanks after the expression; the statement starts where the
/// expression does), and the deepest level the builder would check in it
/// (relative to its own). `None` declines.
pub(crate) fn whole(text: &str) -> Parsed {
    let b = text.as_bytes();
    let mut p = Fast { b, atomic: false };
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let mut i = 0;
    while blank(p.at(i)) {
        i += 1;
    }
    // The result is changed in place and handed on, not taken apart and
    // rebuilt (a move of the whole expression; BENCHMARKS.md, issue 21).
    let mut parsed = p.additive(i);
    let (_, end, _) = parsed.as_mut()?;
    let mut j = *end;
    while blank(p.at(j)) {
        j += 1;
    }
    if j != b.len() {
        return None;
    }
    *end = p.ws(*end);
    parsed
}

/// The offset just after the string literal (plain or `"""` triple-quoted)
/// starting at `i`, or the end of the input if it is not closed. Shared
/// with the error recovery (`recover.rs`), which also skips strings.
pub(super) fn skip_string(b: &[u8], i: usize) -> usize {
    if b[i..].starts_with(b"\"\"\"") {
        let from = i + 3;
        return b[from..]
            .windows(3)
            .position(|w| w == b"\"\"\"")
            .map_or(b.len(), |p| from + p + 3);
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

const KEYWORDS: &[&[u8]] = &[
    b"let", b"region", b"fn", b"if", b"else", b"for", b"in", b"assert", b"theorem", b"print",
    b"use", b"and", b"or", b"not", b"mod", b"true", b"false", b"ish", b"theta",
];

/// A call read by the fast path, with the end of its text and its depth (the
/// arguments' deepest plus the call's own two levels; 0 without arguments).
fn call(name: Ident, args: Vec<Arg>, end: usize, arg_depth: Option<usize>) -> (Expr, usize, usize) {
    let span = name.span.start..end;
    let kind = ExprKind::Call {
        name: Box::new(name),
        args,
    };
    (Expr::new(kind, span), end, arg_depth.map_or(0, |d| 2 + d))
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'\''
}

/// `v`, `vv`, …, `v3`: words that are downs, never names.
fn is_down_word(w: &[u8]) -> bool {
    match w.split_first() {
        Some((b'v', rest)) => {
            rest.iter().all(|&c| c == b'v') || rest.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    }
}

fn int(b: &[u8]) -> BigInt {
    // Up to 19 decimal digits fit in a u64: read them directly (the general
    // parser cost three quarters of the parse of `0`; BENCHMARKS.md, issue 21).
    if b.len() <= 19 && b.iter().all(u8::is_ascii_digit) {
        let n = b.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
        return BigInt::from(n);
    }
    BigInt::parse_bytes(b, 10).unwrap_or_default()
}

/// The scanner. Every method returns `(expr, end, depth)`: the AST, the
/// offset after it and the deepest level the builder checks in it, relative
/// to the level the builder would pass for it; `None` declines.
struct Fast<'a> {
    b: &'a [u8],
    /// Inside a compound-atomic rule: no implicit whitespace.
    atomic: bool,
}

pub(crate) type Parsed = Option<(Expr, usize, usize)>;

impl Fast<'_> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    /// pest's implicit whitespace (the grammar's WHITESPACE, ASCII part;
    /// U+FEFF is non-ASCII and declined).
    fn ws(&self, mut i: usize) -> usize {
        if !self.atomic {
            while matches!(self.at(i), b' ' | b'\t' | b'\r') {
                i += 1;
            }
        }
        i
    }

    fn digits(&self, i: usize) -> usize {
        let mut j = i;
        while self.at(j).is_ascii_digit() {
            j += 1;
        }
        j
    }

    /// `{ side bar side … }` at `s`, the slash convention applied as
    /// parser.rs's `game` does.
    fn game(&mut self, s: usize) -> Parsed {
        debug_assert_eq!(self.at(s), b'{');
        let mut sides: Vec<Option<Vec<Expr>>> = Vec::new();
        let mut side_spans: Vec<Span> = Vec::new();
        let mut bars: Vec<Span> = Vec::new();
        let mut inner_depth: Option<usize> = None;
        let mut i = s + 1;
        loop {
            i = self.ws(i);
            let start = i;
            let mut end = i;
            let mut items = Vec::new();
            if !matches!(self.at(i), b'|' | b'}') {
                loop {
                    let (e, j, dep) = self.additive(i)?;
                    items.push(e);
                    inner_depth = Some(inner_depth.map_or(dep, |m| m.max(dep)));
                    // pest's game_side takes the blanks after each option.
                    end = self.ws(j);
                    if self.at(end) != b',' {
                        break;
                    }
                    i = self.ws(end + 1);
                }
            }
            sides.push(Some(items));
            side_spans.push(start..end);
            i = self.ws(end);
            match self.at(i) {
                b'|' => {
                    let from = i;
                    while self.at(i) == b'|' {
                        i += 1;
                    }
                    if self.at(i) == b'>' {
                        return None;
                    }
                    bars.push(from..i);
                }
                b'}' if !bars.is_empty() => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
        let shape = shape(&bars, 0, sides.len() - 1)?;
        let depth = inner_depth.map_or(0, |m| shape + 1 + m);
        let hi = side_spans.len() - 1;
        let (left, right) = split_game(&mut sides, &side_spans, &bars, 0, hi);
        Some((Expr::new(ExprKind::Game { left, right }, s..i), i, depth))
    }

    /// `unary ((+ | - ) unary)*`, one flat chain (parser.rs `additive`).
    fn additive(&mut self, i: usize) -> Parsed {
        let first = self.unary(i);
        // One operand (most options and arguments): handed on unmoved.
        let k = self.ws(first.as_ref()?.1);
        if !matches!(self.at(k), b'+' | b'-') {
            return first;
        }
        let (first, mut end, d0) = first?;
        // One flat chain: every operand is checked one level below it.
        let mut depth = 1 + d0;
        let mut links = Vec::new();
        loop {
            let k = self.ws(end);
            let op = match (self.at(k), self.at(k + 1)) {
                (b'+', b'-') => return None, // `a +- b`: left to pest
                (b'+', _) => BinOp::Add,
                (b'-', _) => BinOp::Sub,
                _ => break,
            };
            let (operand, j, dep) = self.unary(self.ws(k + 1))?;
            depth = depth.max(1 + dep);
            links.push(ChainLink { op, operand });
            end = j;
        }
        Some((Expr::chain(first, links), end, depth))
    }

    /// `prefix_op* primary` with the prefixes `+-` and `-` (not before a
    /// digit, where `-` is a sign).
    fn unary(&mut self, mut i: usize) -> Parsed {
        // No prefix (the common case): the primary, unmoved.
        if !matches!(self.at(i), b'+' | b'-') || self.at(i + 1).is_ascii_digit() {
            return self.primary(i);
        }
        let mut ops: Vec<(UnaryOp, usize)> = Vec::new();
        loop {
            match (self.at(i), self.at(i + 1)) {
                (b'+', b'-') => {
                    ops.push((UnaryOp::Switch, i));
                    i = self.ws(i + 2);
                }
                (b'-', c) if !c.is_ascii_digit() => {
                    ops.push((UnaryOp::Neg, i));
                    i = self.ws(i + 1);
                }
                _ => break,
            }
        }
        let (mut e, end, dep) = self.primary(i)?;
        let depth = ops.len() + dep;
        for (op, start) in ops.into_iter().rev() {
            let span = start..e.span.end;
            e = Expr::new(
                ExprKind::Unary {
                    op,
                    expr: Box::new(e),
                },
                span,
            );
        }
        Some((e, end, depth))
    }

    // Inlined into `unary`: one move of the parsed expression fewer.
    #[inline]
    fn primary(&mut self, i: usize) -> Parsed {
        match self.at(i) {
            b'{' => self.game(i),
            c if c.is_ascii_digit() => self.number_lit(i, false, i),
            b'-' if self.at(i + 1).is_ascii_digit() => self.number_lit(i + 1, true, i),
            b'*' => self.star(i),
            b'^' => self.updown(i, false),
            b'v' => match self.updown(i, true) {
                Some(p) => Some(p),
                None => self.name(i),
            },
            c if c.is_ascii_alphabetic() || c == b'_' => self.name(i),
            _ => None,
        }
    }

    /// A number and what may touch it: `2`, `3/8`, `6.5`, `2*`, `2^`,
    /// `2v*`, `2{0|-1}`, `10Miny(1)`. The sign `-` is at `start`.
    fn number_lit(&mut self, i: usize, negative: bool, start: usize) -> Parsed {
        let j = self.digits(i);
        if j == i {
            return None;
        }
        let sign = |n: BigInt| if negative { -n } else { n };
        let (kind, end) = match (self.at(j), self.at(j + 1)) {
            (b'/', c) if c.is_ascii_digit() => {
                let k = self.digits(j + 1);
                (
                    ExprKind::Frac(Box::new((sign(int(&self.b[i..j])), int(&self.b[j + 1..k])))),
                    k,
                )
            }
            (b'.', c) if c.is_ascii_digit() => {
                let k = self.digits(j + 1);
                let scale = num_traits::pow(BigInt::from(10), k - j - 1);
                let num = int(&self.b[i..j]) * &scale + int(&self.b[j + 1..k]);
                (ExprKind::Frac(Box::new((sign(num), scale))), k)
            }
            _ => (ExprKind::Int(sign(int(&self.b[i..j]))), j),
        };
        let num = Expr::new(kind, start..end);
        // The tail touches the number (number_lit is compound-atomic); its
        // builder level is one below the number's.
        let (tail, tail_end, tail_depth) = match self.at(end) {
            b'*' => self.star(end)?,
            b'^' => self.updown(end, false)?,
            b'v' => self.updown(end, true)?,
            b'{' => {
                let was = std::mem::replace(&mut self.atomic, true);
                let g = self.game(end);
                self.atomic = was;
                g?
            }
            c if c.is_ascii_alphabetic() => self.tiny_call(end)?,
            c if !c.is_ascii() => return None,
            _ => return Some((num, end, 0)),
        };
        let mut e = Expr::binary(BinOp::Add, num, tail);
        e.span = start..tail_end;
        Some((e, tail_end, 1 + tail_depth))
    }

    /// `Tiny(…)`, `miny(…)` touching a number (the builder reads its
    /// arguments two levels below the tail).
    fn tiny_call(&mut self, i: usize) -> Parsed {
        let mut k = i;
        while is_ident_char(self.at(k)) {
            k += 1;
        }
        if !matches!(&self.b[i..k], b"Tiny" | b"tiny" | b"Miny" | b"miny") || self.at(k) != b'(' {
            return None;
        }
        let (args, end, dep) = self.call_args(k)?;
        let name = Ident {
            name: String::from_utf8_lossy(&self.b[i..k]).into_owned(),
            span: i..k,
        };
        Some(call(name, args, end, dep))
    }

    /// `*`, `*n`.
    fn star(&mut self, i: usize) -> Parsed {
        let j = self.digits(i + 1);
        if j > i + 1 {
            let arg = Expr::new(ExprKind::Int(int(&self.b[i + 1..j])), i + 1..j);
            return Some((Expr::new(ExprKind::Star(Some(Box::new(arg))), i..j), j, 0));
        }
        if self.at(i + 1) == b'(' {
            return None;
        }
        Some((Expr::new(ExprKind::Star(None), i..i + 1), i + 1, 0))
    }

    /// `^`, `^^`, `^3`, `^<3>`, `^[3]` (or the same with `v`), then an
    /// optional touching star. `None` when no up/down literal starts here.
    fn updown(&mut self, i: usize, down: bool) -> Parsed {
        let glyph = if down { b'v' } else { b'^' };
        let sign = |n: BigInt| if down { -n } else { n };
        let bracketed = |open: u8, close: u8| -> Option<(BigInt, usize)> {
            if self.at(i + 1) != open {
                return None;
            }
            let k = self.digits(i + 2);
            (k > i + 2 && self.at(k) == close).then(|| (int(&self.b[i + 2..k]), k + 1))
        };
        let (kind, head_end) = if self.at(i + 1).is_ascii_digit() {
            let k = self.digits(i + 1);
            if down && is_ident_char(self.at(k)) {
                return None;
            }
            (ExprKind::Ups(sign(int(&self.b[i + 1..k]))), k)
        } else if matches!(self.at(i + 1), b'<' | b'[') {
            if let Some((n, k)) = bracketed(b'<', b'>') {
                (ExprKind::UpNth { n, down }, k)
            } else if let Some((n, k)) = bracketed(b'[', b']') {
                (ExprKind::Uptimal { n, down }, k)
            } else {
                return None;
            }
        } else {
            let mut k = i;
            while self.at(k) == glyph {
                k += 1;
            }
            if down && is_ident_char(self.at(k)) {
                return None;
            }
            (ExprKind::Ups(sign(BigInt::from(k - i))), k)
        };
        let base = Expr::new(kind, i..head_end);
        if self.at(head_end) != b'*' {
            return Some((base, head_end, 0));
        }
        let (star, end, _) = self.star(head_end)?;
        let mut e = Expr::binary(BinOp::Add, base, star);
        e.span = i..end;
        Some((e, end, 1))
    }

    /// A name, or a call `name(args)`.
    fn name(&mut self, i: usize) -> Parsed {
        let mut k = i;
        while is_ident_char(self.at(k)) {
            k += 1;
        }
        let word = &self.b[i..k];
        if KEYWORDS.contains(&word) || is_down_word(word) || self.at(self.ws(k)) == b':' {
            return None;
        }
        let name = String::from_utf8_lossy(word).into_owned();
        match self.at(k) {
            b'(' => {
                let (args, end, dep) = self.call_args(k)?;
                if matches!(self.at(end), b'(' | b'[') {
                    return None;
                }
                Some(call(Ident { name, span: i..k }, args, end, dep))
            }
            b'[' => None,
            _ => Some((Expr::new(ExprKind::Name(name), i..k), k, 0)),
        }
    }

    /// `( arg, arg, … )` with positional arguments only (call_args is
    /// non-atomic even inside a literal touching a number). The depth is
    /// the arguments' deepest, `None` without arguments.
    fn call_args(&mut self, open: usize) -> Option<(Vec<Arg>, usize, Option<usize>)> {
        let was = std::mem::replace(&mut self.atomic, false);
        let r = self.call_args_inner(open);
        self.atomic = was;
        r
    }

    fn call_args_inner(&mut self, open: usize) -> Option<(Vec<Arg>, usize, Option<usize>)> {
        let mut args = Vec::new();
        let mut depth: Option<usize> = None;
        let mut i = self.ws(open + 1);
        while self.at(i) != b')' {
            let (value, j, dep) = self.additive(i)?;
            args.push(Arg { name: None, value });
            depth = Some(depth.map_or(dep, |m| m.max(dep)));
            i = self.ws(j);
            match self.at(i) {
                b',' => i = self.ws(i + 1),
                b')' => {}
                _ => return None,
            }
        }
        Some((args, i + 1, depth))
    }
}

/// The nesting depth of the games formed by sides `lo..=hi` under the slash
/// convention; `None` when a split is ambiguous (left to pest and the
/// builder, which report it).
fn shape(bars: &[Span], lo: usize, hi: usize) -> Option<usize> {
    if lo == hi {
        return Some(0);
    }
    let longest = (lo..hi).map(|i| bars[i].len()).max()?;
    let mut at = (lo..hi).filter(|&i| bars[i].len() == longest);
    let k = at.next()?;
    if at.next().is_some() {
        return None;
    }
    Some(1 + shape(bars, lo, k)?.max(shape(bars, k + 1, hi)?))
}
