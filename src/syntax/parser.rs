//! pest pairs -> AST, and pest errors -> [`Diagnostic`]s.
//!
//! The `Rule` enum generated from grammar/yose.pest stays private to this
//! module.
//!
//! One file (past 1 500 lines) for that reason: every conversion from pest
//! pairs matches on `Rule`, so splitting it would make the enum public to
//! the syntax layer.

use super::ast::*;
use super::fast::{self, FastGame};
use super::layout::{self, BLOCK_CLOSE, BLOCK_OPEN};
use super::MAX_DEPTH;
use crate::diag::Diagnostic;
use num_bigint::BigInt;
use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;
use rustc_hash::FxHashMap;

#[derive(Parser)]
#[grammar = "../grammar/yose.pest"]
struct YoseParser;

/// What went wrong, and whether more input could fix it.
pub(crate) struct Failure {
    pub diags: Vec<Diagnostic>,
    pub at_end: bool,
}

fn fail(diag: Diagnostic, at_end: bool) -> Failure {
    Failure {
        diags: vec![diag],
        at_end,
    }
}

/// Runs layout, pest and the AST builder on `src` starting at `rule`: first
/// with the game literals the fast path reads spliced in (see [`fast`]),
/// then, if that fails in any way, on the plain text, so diagnostics are
/// always pest's. pest and the builder run on a thread with enough stack
/// for the input's nesting (see [`super::on_enough_stack`]).
fn run<T: Send>(
    src: &str,
    rule: Rule,
    whole: impl Fn(&str) -> Option<T> + Sync,
    build: impl Fn(&mut Builder, Pair<Rule>) -> Option<T> + Sync,
) -> Result<T, Failure> {
    let (text, nesting) = layout::layout(src).map_err(|e| fail(e.diag, e.at_end))?;
    super::on_enough_stack(nesting, &text, &|| {
        // Input that is one expression the fast path reads (`0`,
        // `thermograph({3|{2|1}})`) needs no pest at all.
        if let Some(v) = whole(&text) {
            return Ok(v);
        }
        let mut spliced = text.clone().into_owned();
        let games = fast::splice(&mut spliced);
        if !games.is_empty() {
            if let Some(v) = attempt(src, rule, &spliced, games, &build) {
                return Ok(v);
            }
        }
        plain(src, rule, &text, &build)
    })
}

/// The fast path's attempt: `None` on any failure.
fn attempt<T>(
    src: &str,
    rule: Rule,
    text: &str,
    fast: FxHashMap<usize, FastGame>,
    build: &impl Fn(&mut Builder, Pair<Rule>) -> Option<T>,
) -> Option<T> {
    let mut pairs = YoseParser::parse(rule, text).ok()?;
    let top = pairs.next()?;
    let mut b = Builder {
        src,
        errors: Vec::new(),
        fast,
        fallback: false,
    };
    let out = build(&mut b, top)?;
    (b.errors.is_empty() && !b.fallback).then_some(out)
}

fn plain<T>(
    src: &str,
    rule: Rule,
    text: &str,
    build: &impl Fn(&mut Builder, Pair<Rule>) -> Option<T>,
) -> Result<T, Failure> {
    let mut pairs = YoseParser::parse(rule, text).map_err(|e| pest_failure(e, src, text))?;
    let top = pairs.next().expect("pest returns the top rule on success");
    let mut b = Builder {
        src,
        errors: Vec::new(),
        fast: FxHashMap::default(),
        fallback: false,
    };
    let out = build(&mut b, top);
    match out {
        Some(v) if b.errors.is_empty() => Ok(v),
        _ => {
            if b.errors.is_empty() {
                b.errors.push(Diagnostic::error("could not parse input"));
            }
            Err(Failure {
                diags: b.errors,
                at_end: false,
            })
        }
    }
}

pub(crate) fn program(src: &str) -> Result<Program, Failure> {
    run(src, Rule::program, whole_program, build_program)
}

/// A program that is one expression statement read by the fast path (the
/// statement one level above its expression, as the builder counts).
fn whole_program(text: &str) -> Option<Program> {
    let (expr, end, _) = fast::whole(text).filter(|(_, _, d)| 1 + d <= MAX_DEPTH)?;
    let span = expr.span.start..end;
    Some(Program {
        stmts: vec![Stmt {
            kind: StmtKind::Expr(expr),
            span,
        }],
        span: 0..text.len(),
    })
}

fn build_program(b: &mut Builder, top: Pair<Rule>) -> Option<Program> {
    let span = 0..b.src.len();
    let stmts = top
        .into_inner()
        .find(|p| p.as_rule() == Rule::stmts)
        .map(|p| b.stmts(p, 0))
        .unwrap_or(Some(Vec::new()))?;
    Some(Program { stmts, span })
}

pub(crate) fn expression(src: &str) -> Result<Expr, Failure> {
    let whole = |text: &str| {
        let (expr, _, _) = fast::whole(text).filter(|(_, _, d)| *d <= MAX_DEPTH)?;
        Some(expr)
    };
    run(src, Rule::expr_input, whole, build_expression)
}

fn build_expression(b: &mut Builder, top: Pair<Rule>) -> Option<Expr> {
    let e = top.into_inner().find(|p| p.as_rule() == Rule::expr)?;
    b.expr(e, 0)
}

/// [`expression`] with pest alone (for benchmarks and the agreement tests).
pub(crate) fn expression_with_pest_only(src: &str) -> Result<Expr, Failure> {
    let (text, _) = layout::layout(src).map_err(|e| fail(e.diag, e.at_end))?;
    super::on_enough_stack(MAX_DEPTH, &text, &|| {
        plain(src, Rule::expr_input, &text, &build_expression)
    })
}

// ------------------------------------------------------------------ builder

struct Builder<'s> {
    /// The original source (the layout text differs only in blanked
    /// comments, soft newlines and block braces, none of which the builder
    /// reads).
    src: &'s str,
    errors: Vec<Diagnostic>,
    /// Game literals read by the fast path, by start offset.
    fast: FxHashMap<usize, FastGame>,
    /// A fast-path literal would be too deep here: rerun without them.
    fallback: bool,
}

fn sp(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    s.start()..s.end()
}

fn int_of(p: &Pair<Rule>) -> BigInt {
    // The grammar guarantees ASCII digits.
    BigInt::parse_bytes(p.as_str().as_bytes(), 10).unwrap_or_default()
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Builder<'_> {
    /// Records `d` and returns `None`, the builder's failure value.
    fn err<T>(&mut self, d: Diagnostic) -> Option<T> {
        self.errors.push(d);
        None
    }

    fn check_depth(&mut self, d: usize, span: Span) -> Option<()> {
        if d > MAX_DEPTH {
            // Report once; deeper levels would repeat it.
            if !self
                .errors
                .iter()
                .any(|e| e.message == "expression nested too deeply")
            {
                self.errors.push(
                    Diagnostic::error("expression nested too deeply")
                        .with_label(span, "this is nested too deeply")
                        .with_note(format!(
                            "yose accepts expressions at most {MAX_DEPTH} levels deep \
                             (brackets, braces, prefix operators and calls nest; a chain \
                             such as `a + b + c` is one level however long)"
                        ))
                        .with_help("split it up with `let`"),
                );
            }
            return None;
        }
        Some(())
    }

    fn ident(&self, p: Pair<Rule>) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: sp(&p),
        }
    }

    // ------------------------------------------------------------ statements

    fn stmts(&mut self, p: Pair<Rule>, d: usize) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut ok = true;
        for s in p.into_inner() {
            if s.as_rule() == Rule::sep {
                continue;
            }
            match self.stmt(s, d) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn block(&mut self, p: Pair<Rule>, d: usize) -> Option<Block> {
        let span = sp(&p);
        self.check_depth(d, span.clone())?;
        let stmts = p
            .into_inner()
            .find(|q| q.as_rule() == Rule::stmts)
            .map(|q| self.stmts(q, d + 1))
            .unwrap_or(Some(Vec::new()))?;
        Some(Block { stmts, span })
    }

    fn stmt(&mut self, p: Pair<Rule>, d: usize) -> Option<Stmt> {
        let span = sp(&p);
        self.check_depth(d, span.clone())?;
        let rule = p.as_rule();
        let mut it = p.into_inner();
        let kind = match rule {
            Rule::let_stmt | Rule::region_stmt | Rule::go_stmt => {
                it.next(); // keyword
                let name = self.ident(it.next()?);
                it.next(); // =
                let value = self.expr(it.next()?, d + 1)?;
                match rule {
                    Rule::let_stmt => StmtKind::Let { name, value },
                    Rule::go_stmt => StmtKind::Go { name, value },
                    _ => StmtKind::Region { name, value },
                }
            }
            Rule::fn_stmt => {
                it.next();
                let name = self.ident(it.next()?);
                let params = self.params(it.next()?);
                it.next(); // =
                let body = self.fn_body(it.next()?, d + 1)?;
                StmtKind::Fn { name, params, body }
            }
            Rule::assert_stmt => {
                it.next();
                let cond = self.expr(it.next()?, d + 1)?;
                let message = match it.find(|q| q.as_rule() != Rule::comma) {
                    Some(q) => Some(self.expr(q, d + 1)?),
                    None => None,
                };
                StmtKind::Assert { cond, message }
            }
            Rule::theorem_stmt => {
                it.next();
                let name = self.ident(it.next()?);
                let body = self.block(it.next()?, d + 1)?;
                StmtKind::Theorem { name, body }
            }
            Rule::for_stmt => {
                it.next();
                let var = self.ident(it.next()?);
                it.next(); // in
                let iter = self.for_iter(it.next()?, d + 1)?;
                let body = self.block(it.next()?, d + 1)?;
                StmtKind::For { var, iter, body }
            }
            Rule::print_stmt => {
                it.next();
                let mut args = Vec::new();
                let mut ok = true;
                for q in it {
                    if q.as_rule() == Rule::expr {
                        match self.expr(q, d + 1) {
                            Some(e) => args.push(e),
                            None => ok = false,
                        }
                    }
                }
                if !ok {
                    return None;
                }
                StmtKind::Print(args)
            }
            Rule::use_stmt => {
                it.next();
                let q = it.next()?;
                if q.as_rule() == Rule::name {
                    StmtKind::Use(UseTarget::Module(self.ident(q)))
                } else {
                    let span = sp(&q);
                    let path = self.string(q)?;
                    StmtKind::Use(UseTarget::File { path, span })
                }
            }
            Rule::expr_stmt => StmtKind::Expr(self.expr(it.next()?, d + 1)?),
            _ => return None,
        };
        Some(Stmt { kind, span })
    }

    /// The distinct parameter names of `(a, b, …)`.
    fn params(&mut self, p: Pair<Rule>) -> Vec<Ident> {
        let mut params: Vec<Ident> = Vec::new();
        for q in p.into_inner() {
            if q.as_rule() == Rule::name {
                let id = self.ident(q);
                if let Some(prev) = params.iter().find(|x| x.name == id.name) {
                    let prev = prev.span.clone();
                    self.errors.push(
                        Diagnostic::error(format!("parameter `{}` appears twice", id.name))
                            .with_label(id.span.clone(), "second use")
                            .with_secondary(prev, "first use"),
                    );
                }
                params.push(id);
            }
        }
        params
    }

    /// A function body: a block or an expression.
    fn fn_body(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        if p.as_rule() == Rule::block {
            let b = self.block(p, d)?;
            let span = b.span.clone();
            Some(Expr::new(ExprKind::Block(b), span))
        } else {
            self.expr(p, d)
        }
    }

    /// `fn(params) = body` as an expression.
    fn lambda(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        let mut it = p.into_inner();
        it.next(); // fn
        let params = self.params(it.next()?);
        it.next(); // =
        let body = self.fn_body(it.next()?, d + 1)?;
        Some(Expr::new(
            ExprKind::Lambda {
                params,
                body: boxed(body),
            },
            span,
        ))
    }

    /// The option expressions when `p` is (through levels holding only it)
    /// an option set `{a, b}` or a parenthesis with several expressions
    /// `(a, b)`: what `±` may take besides a single game.
    fn option_pairs<'i>(p: &Pair<'i, Rule>) -> Option<Vec<Pair<'i, Rule>>> {
        match p.as_rule() {
            Rule::mul_expr | Rule::unary | Rule::postfix | Rule::atom => {
                let mut inner = p.clone().into_inner();
                let only = inner.next()?;
                if inner.next().is_some() {
                    return None;
                }
                Self::option_pairs(&only)
            }
            Rule::option_set => Some(
                p.clone()
                    .into_inner()
                    .filter(|q| q.as_rule() == Rule::additive)
                    .collect(),
            ),
            Rule::paren => {
                let exprs: Vec<Pair<Rule>> = p
                    .clone()
                    .into_inner()
                    .filter(|q| q.as_rule() == Rule::expr)
                    .collect();
                (exprs.len() > 1).then_some(exprs)
            }
            _ => None,
        }
    }

    /// `±` applied to the operand `p`, the operator starting at `start`:
    /// `PlusMinus` of an option set, else the switch of one game.
    fn switch_of(&mut self, p: Pair<Rule>, start: usize, d: usize) -> Option<Expr> {
        let span = start..p.as_span().end();
        if let Some(pairs) = Self::option_pairs(&p) {
            let mut items = Vec::with_capacity(pairs.len());
            let mut ok = true;
            for q in pairs {
                match self.expr(q, d + 1) {
                    Some(e) => items.push(e),
                    None => ok = false,
                }
            }
            return ok.then(|| Expr::new(ExprKind::PlusMinus(items), span));
        }
        let e = self.expr(p, d + 1)?;
        Some(Expr::new(
            ExprKind::Unary {
                op: UnaryOp::Switch,
                expr: boxed(e),
            },
            span,
        ))
    }

    fn for_iter(&mut self, p: Pair<Rule>, d: usize) -> Option<ForIter> {
        let mut it = p.into_inner();
        let from = self.expr(it.next()?, d + 1)?;
        match it.next() {
            None => Some(ForIter::List(from)),
            Some(op) => {
                let inclusive = op.as_str() == "..=";
                let to = self.expr(it.next()?, d + 1)?;
                Some(ForIter::Range {
                    from,
                    to,
                    inclusive,
                })
            }
        }
    }

    fn string(&mut self, p: Pair<Rule>) -> Option<String> {
        match p.as_rule() {
            Rule::raw_string => Some(
                p.into_inner()
                    .next()
                    .map(|q| q.as_str().to_string())
                    .unwrap_or_default(),
            ),
            Rule::string => {
                let inner = p.into_inner().next()?;
                let base = inner.as_span().start();
                let raw = inner.as_str();
                let mut out = String::with_capacity(raw.len());
                let mut chars = raw.char_indices();
                let mut ok = true;
                while let Some((i, c)) = chars.next() {
                    if c != '\\' {
                        out.push(c);
                        continue;
                    }
                    match chars.next() {
                        Some((_, 'n')) => out.push('\n'),
                        Some((_, 't')) => out.push('\t'),
                        Some((_, '"')) => out.push('"'),
                        Some((_, '\\')) => out.push('\\'),
                        Some((j, other)) => {
                            let end = base + j + other.len_utf8();
                            self.errors.push(
                                Diagnostic::error(format!("unknown escape `\\{other}`"))
                                    .with_label(base + i..end, "not a valid escape")
                                    .with_help(
                                        "the escapes are `\\\"`, `\\\\`, `\\n` and `\\t`; \
                                         `\"\"\"…\"\"\"` strings take text as written",
                                    ),
                            );
                            ok = false;
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
            _ => None,
        }
    }

    // ----------------------------------------------------------- expressions

    /// Builds any expression-level pair (from `expr` down to `primary`).
    fn expr(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        self.check_depth(d, sp(&p))?;
        match p.as_rule() {
            Rule::expr => self.fold(p, d, |_, op| {
                (op.as_rule() == Rule::kw_or).then_some(BinOp::Or)
            }),
            Rule::and_expr => self.fold(p, d, |_, op| {
                (op.as_rule() == Rule::kw_and).then_some(BinOp::And)
            }),
            Rule::additive => self.additive(p, d),
            Rule::range_expr => {
                let mut it = p.into_inner();
                let from = it.next()?;
                let Some(op) = it.next() else {
                    return self.expr(from, d);
                };
                let from = self.expr(from, d + 1)?;
                let to = self.expr(it.next()?, d + 1)?;
                let span = from.span.start..to.span.end;
                Some(Expr::new(
                    ExprKind::Range {
                        from: boxed(from),
                        to: boxed(to),
                        inclusive: op.as_str() == "..=",
                    },
                    span,
                ))
            }
            Rule::mul_expr => self.fold(p, d, |_, op| match op.as_str() {
                "." | "·" => Some(BinOp::Dot),
                "/" => Some(BinOp::Div),
                _ if op.as_str().starts_with("mod") => Some(BinOp::Mod),
                _ => None,
            }),
            Rule::not_expr => {
                let start = p.as_span().start();
                let inner: Vec<Pair<Rule>> = p.into_inner().collect();
                let (last, nots) = inner.split_last()?;
                let k = nots.len();
                let mut e = self.expr(last.clone(), d + k)?;
                for n in nots.iter().rev() {
                    let span = n.as_span().start()..e.span.end;
                    e = Expr::new(ExprKind::Not(boxed(e)), span);
                }
                debug_assert!(k == 0 || e.span.start == start);
                Some(e)
            }
            Rule::cmp_expr => self.compare(p, d),
            Rule::unary => {
                let inner: Vec<Pair<Rule>> = p.into_inner().collect();
                let (last, mut ops) = inner.split_last()?;
                // `±{a, b}` / `±(a, b)`: the innermost ± takes the options.
                let mut e = match ops.split_last() {
                    Some((op, rest))
                        if op.as_str() != "-"
                            && op.as_str() != "−"
                            && Self::option_pairs(last).is_some() =>
                    {
                        ops = rest;
                        self.switch_of(last.clone(), op.as_span().start(), d + ops.len())?
                    }
                    _ => self.expr(last.clone(), d + ops.len())?,
                };
                for op in ops.iter().rev() {
                    let op_kind = if op.as_str() == "-" || op.as_str() == "−" {
                        UnaryOp::Neg
                    } else {
                        UnaryOp::Switch
                    };
                    let span = op.as_span().start()..e.span.end;
                    e = Expr::new(
                        ExprKind::Unary {
                            op: op_kind,
                            expr: boxed(e),
                        },
                        span,
                    );
                }
                Some(e)
            }
            _ => self.primary(p, d),
        }
    }

    /// `a + b - c +- d`, one flat chain; `a +- b` is a + ±b.
    fn additive(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        self.chain(p, d, |b, op, rhs, level| {
            Some(match op.as_str() {
                "+" => (BinOp::Add, b.expr(rhs, level)?),
                "-" | "−" => (BinOp::Sub, b.expr(rhs, level)?),
                _ => (BinOp::Add, b.switch_of(rhs, op.as_span().start(), level)?),
            })
        })
    }

    /// `operand (op operand)*` with the operators `op_of` reads.
    fn fold(
        &mut self,
        p: Pair<Rule>,
        d: usize,
        op_of: impl Fn(&mut Self, &Pair<Rule>) -> Option<BinOp>,
    ) -> Option<Expr> {
        self.chain(p, d, |b, op, rhs, level| {
            let op = op_of(b, &op)?;
            Some((op, b.expr(rhs, level)?))
        })
    }

    /// `operand (op operand)*` as one [`ExprKind::Chain`] a level below
    /// `d`, its operands all two levels below (one operand: that operand at
    /// `d`). Read in a loop, so a chain of any length costs no depth and no
    /// stack beyond one operand's; `link` builds an operator and its operand.
    fn chain(
        &mut self,
        p: Pair<Rule>,
        d: usize,
        mut link: impl FnMut(&mut Self, Pair<Rule>, Pair<Rule>, usize) -> Option<(BinOp, Expr)>,
    ) -> Option<Expr> {
        let mut it = p.into_inner();
        let first = it.next()?;
        let Some(mut op) = it.next() else {
            return self.expr(first, d);
        };
        let first = self.expr(first, d + 1)?;
        let mut rest = Vec::new();
        loop {
            let (op_kind, operand) = link(self, op, it.next()?, d + 1)?;
            rest.push(ChainLink {
                op: op_kind,
                operand,
            });
            match it.next() {
                Some(next) => op = next,
                None => break,
            }
        }
        Some(Expr::chain(first, rest))
    }

    fn compare(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let mut it = p.into_inner().peekable();
        let lhs_pair = it.next()?;
        let Some(op) = it.next() else {
            return self.expr(lhs_pair, d);
        };
        let lhs = self.expr(lhs_pair, d + 1)?;
        let rhs = self.expr(it.next()?, d + 1)?;
        let ish = it.next_if(|q| q.as_rule() == Rule::kw_ish);
        if let Some(second) = it.next() {
            return self.err(
                Diagnostic::error("comparisons cannot be chained")
                    .with_label(sp(&second), "second comparison")
                    .with_secondary(sp(&op), "first comparison")
                    .with_help("combine comparisons with `and`: `a < b and b < c`"),
            );
        }
        let mut cmp = match op.as_str() {
            "==" => CmpOp::Eq,
            "!=" | "≠" => CmpOp::Ne,
            "<=" | "≤" => CmpOp::Le,
            ">=" | "≥" => CmpOp::Ge,
            "<>" => CmpOp::Confused,
            "<|" => CmpOp::LessOrConfused,
            "|>" => CmpOp::GreaterOrConfused,
            "<" => CmpOp::Lt,
            ">" => CmpOp::Gt,
            _ => CmpOp::Approx, // "~=" | "≈"
        };
        let mut end = rhs.span.end;
        if let Some(ish) = ish {
            end = ish.as_span().end();
            cmp = match cmp {
                CmpOp::Eq | CmpOp::Approx => CmpOp::Approx,
                CmpOp::Ne => CmpOp::NotApprox,
                _ => {
                    return self.err(
                        Diagnostic::error("`ish` can only follow `==` or `!=`")
                            .with_label(sp(&ish), "`ish` here")
                            .with_secondary(sp(&op), "after this comparison")
                            .with_note("`a == b ish` means a ≈ b: a - b is infinitesimal"),
                    )
                }
            };
        }
        let span = lhs.span.start..end;
        Some(Expr::new(
            ExprKind::Compare {
                op: cmp,
                lhs: boxed(lhs),
                rhs: boxed(rhs),
            },
            span,
        ))
    }

    fn primary(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        match p.as_rule() {
            Rule::signed => {
                let inner = p.into_inner().next()?;
                self.number_lit(inner, true, span.start, d)
            }
            Rule::number_lit => self.number_lit(p, false, span.start, d),
            Rule::frac | Rule::decimal | Rule::int => self.number(p, false, span.start),
            Rule::star => self.star(p, d),
            Rule::up_lit | Rule::down_lit => self.updown(p, d),
            Rule::tiny_glyph_app => self.tiny_glyph_app(p, d),
            Rule::zero_prefix_app => self.zero_prefix_app(p, d),
            Rule::tiny_call => {
                let mut it = p.into_inner();
                let name = self.ident(it.next()?);
                let args = self.call_args(it.next()?, d + 1)?;
                Some(Expr::new(
                    ExprKind::Call {
                        name: Box::new(name),
                        args,
                    },
                    span,
                ))
            }
            Rule::game => self.game(p, d),
            Rule::raw_string | Rule::string => {
                let s = self.string(p)?;
                Some(Expr::new(ExprKind::Str(s), span))
            }
            Rule::bool_lit => Some(Expr::new(ExprKind::Bool(p.as_str().starts_with('t')), span)),
            Rule::theta => {
                let n = if p.as_str() == "theta" {
                    1
                } else {
                    p.as_str().chars().count()
                };
                Some(Expr::new(ExprKind::Theta(n), span))
            }
            Rule::labelled_game => {
                let mut it = p.into_inner();
                let label = self.ident(it.next()?);
                it.next(); // :
                let game = self.game(it.next()?, d + 1)?;
                Some(Expr::new(
                    ExprKind::Labelled {
                        label,
                        game: boxed(game),
                    },
                    span,
                ))
            }
            Rule::if_expr => self.if_expr(p, d),
            Rule::lambda => self.lambda(p, d),
            Rule::option_set => self.err(
                Diagnostic::error("braces without `|` are not a game")
                    .with_label(span, "a set of options")
                    .with_note("only `±` takes a set of options: `±{1, 1*}` is {1, 1* | -1, -1*}")
                    .with_help(
                        "a game needs `|` (`{|}` is 0, `{0|}` is 1); braces without `|` make a \
                         block, which only follows `if`, `else`, `for`, `theorem` or `fn … =`; \
                         a list is `[a, b]`",
                    ),
            ),
            Rule::postfix => self.postfix(p, d),
            Rule::expr
            | Rule::and_expr
            | Rule::not_expr
            | Rule::cmp_expr
            | Rule::range_expr
            | Rule::additive
            | Rule::mul_expr
            | Rule::unary => self.expr(p, d),
            _ => self.err(
                Diagnostic::error("internal error: unexpected syntax node")
                    .with_label(span, format!("{:?}", p.as_rule())),
            ),
        }
    }

    /// `int` or `frac`, negated when `negative` (the `-` starts at `start`).
    fn number(&mut self, p: Pair<Rule>, negative: bool, start: usize) -> Option<Expr> {
        let span = start..p.as_span().end();
        let sign = |n: BigInt| if negative { -n } else { n };
        match p.as_rule() {
            Rule::int => Some(Expr::new(ExprKind::Int(sign(int_of(&p))), span)),
            Rule::frac => {
                let mut it = p.into_inner();
                let num = int_of(&it.next()?);
                let den = int_of(&it.next()?);
                Some(Expr::new(ExprKind::Frac(Box::new((sign(num), den))), span))
            }
            Rule::decimal => {
                // `6.25` is 625/100: the digits after the point over 10^k.
                let mut it = p.into_inner();
                let whole = int_of(&it.next()?);
                let digits = it.next()?;
                let scale = num_traits::pow(BigInt::from(10), digits.as_str().len());
                let num = whole * &scale + int_of(&digits);
                Some(Expr::new(
                    ExprKind::Frac(Box::new((sign(num), scale))),
                    span,
                ))
            }
            _ => None,
        }
    }

    /// A number with an optional juxtaposed tail: `2*` is 2 + *.
    fn number_lit(
        &mut self,
        p: Pair<Rule>,
        negative: bool,
        start: usize,
        d: usize,
    ) -> Option<Expr> {
        let end = p.as_span().end();
        let mut it = p.into_inner();
        let num = self.number(it.next()?, negative, start)?;
        match it.next() {
            None => Some(num),
            Some(tail) => {
                self.check_depth(d + 1, start..end)?;
                let tail = self.primary(tail, d + 1)?;
                let mut e = Expr::binary(BinOp::Add, num, tail);
                e.span = start..end;
                Some(e)
            }
        }
    }

    fn star(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        let arg = match p.into_inner().next() {
            None => None,
            Some(q) if q.as_rule() == Rule::int => {
                Some(boxed(Expr::new(ExprKind::Int(int_of(&q)), sp(&q))))
            }
            Some(q) => {
                // star_paren: ( expr )
                let qspan = sp(&q);
                let inner = q.into_inner().find(|r| r.as_rule() == Rule::expr)?;
                let mut e = self.expr(inner, d + 1)?;
                e.span = qspan;
                Some(boxed(e))
            }
        };
        Some(Expr::new(ExprKind::Star(arg), span))
    }

    /// `up_lit` / `down_lit`, with an optional star suffix (`^*` = ^ + *).
    fn updown(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        let down = p.as_rule() == Rule::down_lit;
        let mut it = p.into_inner();
        let head = it.next()?;
        let hspan = sp(&head);
        let sign = |n: BigInt| if down { -n } else { n };
        let kind = match head.as_rule() {
            Rule::up_count | Rule::down_count => {
                ExprKind::Ups(sign(int_of(&head.into_inner().next()?)))
            }
            Rule::up_nth | Rule::down_nth => ExprKind::UpNth {
                n: int_of(&head.into_inner().next()?),
                down,
            },
            Rule::up_timal | Rule::down_timal => ExprKind::Uptimal {
                n: int_of(&head.into_inner().next()?),
                down,
            },
            _ => {
                let count: u64 = head
                    .as_str()
                    .chars()
                    .map(|c| if c == '⇑' || c == '⇓' { 2 } else { 1 })
                    .sum();
                ExprKind::Ups(sign(BigInt::from(count)))
            }
        };
        let base = Expr::new(kind, hspan);
        match it.next() {
            None => Some(base),
            Some(star) => {
                self.check_depth(d + 1, span.clone())?;
                let star = self.star(star, d + 1)?;
                let mut e = Expr::binary(BinOp::Add, base, star);
                e.span = span;
                Some(e)
            }
        }
    }

    /// `0⁴⧾1` → `zero_prefix(4, tiny(1))`.
    fn zero_prefix_app(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        let mut it = p.into_inner();
        let sup = it.next()?;
        let digits: String = sup
            .as_str()
            .chars()
            .map(|c| match c {
                '⁰' => '0',
                '¹' => '1',
                '²' => '2',
                '³' => '3',
                _ => char::from_digit(
                    "⁴⁵⁶⁷⁸⁹".chars().position(|x| x == c).unwrap_or(0) as u32 + 4,
                    10,
                )
                .unwrap_or('0'),
            })
            .collect();
        let n: BigInt = digits.parse().ok()?;
        let operand = it.next()?.into_inner().next()?;
        let value = match operand.as_rule() {
            Rule::int | Rule::frac | Rule::decimal => {
                let start = operand.as_span().start();
                self.number(operand, false, start)?
            }
            _ => self.primary(operand, d + 1)?,
        };
        let count = Expr::new(ExprKind::Int(n), sp(&sup));
        let name = Ident {
            name: "zero_prefix".to_string(),
            span: span.start..sup.as_span().end(),
        };
        Some(Expr::new(
            ExprKind::Call {
                name: Box::new(name),
                args: vec![
                    Arg {
                        name: None,
                        value: count,
                    },
                    Arg { name: None, value },
                ],
            },
            span,
        ))
    }

    fn tiny_glyph_app(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        let mut it = p.into_inner();
        let glyph = it.next()?;
        let name = Ident {
            name: if glyph.as_str() == "⧾" {
                "tiny"
            } else {
                "miny"
            }
            .to_string(),
            span: sp(&glyph),
        };
        let operand = it.next()?.into_inner().next()?;
        let value = match operand.as_rule() {
            Rule::int | Rule::frac | Rule::decimal => {
                let start = operand.as_span().start();
                self.number(operand, false, start)?
            }
            _ => self.primary(operand, d + 1)?,
        };
        Some(Expr::new(
            ExprKind::Call {
                name: Box::new(name),
                args: vec![Arg { name: None, value }],
            },
            span,
        ))
    }

    fn call_args(&mut self, p: Pair<Rule>, d: usize) -> Option<Vec<Arg>> {
        let mut args = Vec::new();
        let mut ok = true;
        for a in p.into_inner() {
            if a.as_rule() != Rule::arg {
                continue;
            }
            let mut it = a.into_inner();
            let first = it.next()?;
            let (name, value_pair) = if first.as_rule() == Rule::arg_name {
                let n = self.ident(first.into_inner().next()?);
                (Some(n), it.next()?)
            } else {
                (None, first)
            };
            match self.expr(value_pair, d + 1) {
                Some(value) => args.push(Arg { name, value }),
                None => ok = false,
            }
        }
        ok.then_some(args)
    }

    fn postfix(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let mut parts: Vec<Pair<Rule>> = p.into_inner().collect();
        let suffixes = parts.split_off(1);
        let atom = parts.pop()?.into_inner().next()?;
        let k = suffixes.len();
        let mut suffixes = suffixes.into_iter().peekable();
        let mut e = match atom.as_rule() {
            Rule::name => {
                let id = self.ident(atom);
                match suffixes.next_if(|s| s.as_rule() == Rule::call_args) {
                    Some(args) => {
                        let span = id.span.start..args.as_span().end();
                        let args = self.call_args(args, d + k)?;
                        Expr::new(
                            ExprKind::Call {
                                name: Box::new(id),
                                args,
                            },
                            span,
                        )
                    }
                    None => Expr::new(ExprKind::Name(id.name), id.span),
                }
            }
            Rule::paren => {
                let span = sp(&atom);
                let exprs = atom
                    .clone()
                    .into_inner()
                    .filter(|q| q.as_rule() == Rule::expr);
                if exprs.count() > 1 {
                    return self.err(
                        Diagnostic::error("a parenthesis holds one expression")
                            .with_label(span, "several expressions")
                            .with_note("only `±` takes several: `±(1, 1*)` is {1, 1* | -1, -1*}")
                            .with_help("a list is `[a, b]`"),
                    );
                }
                let inner = atom.into_inner().find(|q| q.as_rule() == Rule::expr)?;
                let mut e = self.expr(inner, d + k)?;
                e.span = span;
                e
            }
            Rule::list => {
                let span = sp(&atom);
                if let Some(comp) = atom
                    .clone()
                    .into_inner()
                    .find(|q| q.as_rule() == Rule::comprehension)
                {
                    let elem = atom.into_inner().find(|q| q.as_rule() == Rule::expr)?;
                    let elem = self.expr(elem, d + k + 1)?;
                    let clauses = self.clauses(comp, d + k + 1)?;
                    Expr::new(
                        ExprKind::Comprehension {
                            elem: boxed(elem),
                            clauses,
                        },
                        span,
                    )
                } else {
                    self.list_items(atom, span, d + k)?
                }
            }
            _ => return None,
        };
        let mut level = d + k;
        for s in suffixes {
            level -= 1;
            let span = e.span.start..s.as_span().end();
            if s.as_rule() == Rule::call_args {
                return self.err(
                    Diagnostic::error("only named functions can be called")
                        .with_label(sp(&s), "call arguments")
                        .with_secondary(e.span.clone(), "this is not a function name")
                        .with_help("bind the function to a name with `fn name(…) = …`"),
                );
            }
            let idx = s.into_inner().find(|q| q.as_rule() == Rule::expr)?;
            let idx = self.expr(idx, level + 1)?;
            e = Expr::new(
                ExprKind::Index {
                    base: boxed(e),
                    index: boxed(idx),
                },
                span,
            );
        }
        Some(e)
    }

    fn list_items(&mut self, atom: Pair<Rule>, span: Span, d: usize) -> Option<Expr> {
        let mut items = Vec::new();
        let mut ok = true;
        for q in atom.into_inner() {
            if q.as_rule() == Rule::expr {
                match self.expr(q, d + 1) {
                    Some(e) => items.push(e),
                    None => ok = false,
                }
            }
        }
        if !ok {
            return None;
        }
        Some(Expr::new(ExprKind::List(items), span))
    }

    fn clauses(&mut self, p: Pair<Rule>, d: usize) -> Option<Vec<Clause>> {
        let mut out = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::comp_for => {
                    let mut it = c
                        .into_inner()
                        .filter(|q| q.as_rule() != Rule::kw_for && q.as_rule() != Rule::kw_in);
                    let var = self.ident(it.next()?);
                    let iter = self.for_iter(it.next()?, d)?;
                    out.push(Clause::For { var, iter });
                }
                Rule::comp_if => {
                    let cond = c.into_inner().find(|q| q.as_rule() == Rule::expr)?;
                    out.push(Clause::If(self.expr(cond, d + 1)?));
                }
                _ => {}
            }
        }
        Some(out)
    }

    fn if_expr(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        let mut it = p.into_inner();
        it.next(); // if
        let cond = self.expr(it.next()?, d + 1)?;
        let then_block = self.block(it.next()?, d + 1)?;
        let else_block = match it.find(|q| q.as_rule() != Rule::kw_else) {
            None => None,
            Some(q) if q.as_rule() == Rule::block => Some(self.block(q, d + 1)?),
            Some(q) => {
                // `else if …` becomes `else { if … }`.
                let inner = self.if_expr(q, d + 2)?;
                let bspan = inner.span.clone();
                Some(Block {
                    stmts: vec![Stmt {
                        span: bspan.clone(),
                        kind: StmtKind::Expr(inner),
                    }],
                    span: bspan,
                })
            }
        };
        Some(Expr::new(
            ExprKind::If(Box::new(IfElse {
                cond,
                then_block,
                else_block,
            })),
            span,
        ))
    }

    // ----------------------------------------------------------------- games

    /// `{ side bar side bar … side }` with the slash convention: split at the
    /// unique longest run of bars; a part with bars inside is a nested game.
    fn game(&mut self, p: Pair<Rule>, d: usize) -> Option<Expr> {
        let span = sp(&p);
        if let Some(g) = self.fast.remove(&span.start) {
            if d + g.depth > MAX_DEPTH {
                self.fallback = true;
                return None;
            }
            return Some(g.expr);
        }
        let mut sides: Vec<Pair<Rule>> = Vec::new();
        let mut bars: Vec<Span> = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::game_side => sides.push(q),
                Rule::bar => bars.push(sp(&q)),
                _ => {}
            }
        }
        // Check the bar structure before building any option, so that an
        // ambiguous game reports only that.
        let shape = match self.slash_shape(&sides, &bars, 0, sides.len() - 1) {
            Ok(depth) => depth,
            Err(diag) => return self.err(*diag),
        };
        let side_spans: Vec<Span> = sides.iter().map(sp).collect();
        let mut options: Vec<Option<Vec<Expr>>> = Vec::with_capacity(sides.len());
        let mut ok = true;
        for s in sides {
            let mut opts = Vec::new();
            for q in s.into_inner() {
                if q.as_rule() == Rule::comma {
                    continue;
                }
                match self.expr(q, d + shape + 1) {
                    Some(e) => opts.push(e),
                    None => ok = false,
                }
            }
            options.push(Some(opts));
        }
        if !ok {
            return None;
        }
        let (left, right) = split_game(&mut options, &side_spans, &bars, 0, side_spans.len() - 1);
        Some(Expr::new(ExprKind::Game { left, right }, span))
    }

    /// Checks that the sides `lo..=hi` split unambiguously and returns the
    /// nesting depth of the games they form.
    fn slash_shape(
        &self,
        sides: &[Pair<Rule>],
        bars: &[Span],
        lo: usize,
        hi: usize,
    ) -> Result<usize, Box<Diagnostic>> {
        if lo == hi {
            return Ok(0);
        }
        let len = |i: usize| bars[i].len();
        let longest = (lo..hi).map(len).max().unwrap_or(1);
        let at: Vec<usize> = (lo..hi).filter(|&i| len(i) == longest).collect();
        if at.len() > 1 {
            return Err(Box::new(self.ambiguous(sides, bars, lo, hi, &at)));
        }
        let k = at[0];
        let l = self.slash_shape(sides, bars, lo, k)?;
        let r = self.slash_shape(sides, bars, k + 1, hi)?;
        Ok(1 + l.max(r))
    }

    fn ambiguous(
        &self,
        sides: &[Pair<Rule>],
        bars: &[Span],
        lo: usize,
        hi: usize,
        at: &[usize],
    ) -> Diagnostic {
        let run = "|".repeat(bars[at[0]].len());
        let times = match at.len() {
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        let mut d = Diagnostic::error(format!(
            "ambiguous game: `{run}` appears {times} at the same level"
        ));
        for (n, &i) in at.iter().enumerate() {
            let msg = if n == 0 {
                "this split"
            } else if n == 1 {
                "and this one have the same number of bars"
            } else {
                "and this one"
            };
            d = d.with_label(bars[i].clone(), msg);
        }
        let side_text = |i: usize| self.src[sp(&sides[i])].trim().to_string();
        let part = |a: usize, b: usize, extra: Option<usize>| -> String {
            let mut s = side_text(a);
            for (i, bar) in bars.iter().enumerate().take(b).skip(a) {
                s.push_str(&self.src[bar.clone()]);
                if Some(i) == extra {
                    s.push('|');
                }
                s.push_str(&side_text(i + 1));
            }
            s
        };
        let nested = |a: usize, b: usize| -> String {
            if a == b {
                side_text(a)
            } else {
                format!("{{{}}}", part(a, b, None))
            }
        };
        let whole = lo == 0 && hi == bars.len();
        let readings: Vec<String> = at
            .iter()
            .take(2)
            .map(|&k| {
                let meaning = format!("{{{}|{}}}", nested(lo, k), nested(k + 1, hi));
                if whole {
                    format!("`{{{}}}` means {meaning}", part(lo, hi, Some(k)))
                } else {
                    format!(
                        "`{{{}}}` makes `{}` {meaning}",
                        part(0, bars.len(), Some(k)),
                        part(lo, hi, None)
                    )
                }
            })
            .collect();
        d.with_note("more bars bind looser: `{a || b | c}` is {a | {b | c}}")
            .with_help(format!(
                "add a bar to say which split is outermost: {}",
                readings.join("; ")
            ))
    }
}

/// Builds the (left, right) option lists of the game formed by sides
/// `lo..=hi` (the shape was validated by `slash_shape`).
pub(super) fn split_game(
    options: &mut [Option<Vec<Expr>>],
    side_spans: &[Span],
    bars: &[Span],
    lo: usize,
    hi: usize,
) -> (Vec<Expr>, Vec<Expr>) {
    let longest = (lo..hi).map(|i| bars[i].len()).max().unwrap_or(1);
    let k = (lo..hi).find(|&i| bars[i].len() == longest).unwrap_or(lo);
    let left = part_options(options, side_spans, bars, lo, k);
    let right = part_options(options, side_spans, bars, k + 1, hi);
    (left, right)
}

fn part_options(
    options: &mut [Option<Vec<Expr>>],
    side_spans: &[Span],
    bars: &[Span],
    lo: usize,
    hi: usize,
) -> Vec<Expr> {
    if lo == hi {
        return options[lo].take().unwrap_or_default();
    }
    let (left, right) = split_game(options, side_spans, bars, lo, hi);
    let span = side_spans[lo].start..side_spans[hi].end;
    vec![Expr::new(ExprKind::Game { left, right }, span)]
}

// ------------------------------------------------------------ pest errors

/// How an expected rule is named in messages; `None` hides it.
fn rule_name(r: Rule) -> Option<(u8, &'static str)> {
    use Rule::*;
    Some(match r {
        expr | and_expr | not_expr | cmp_expr | range_expr | additive | mul_expr | unary
        | signed | lambda | option_set | number_lit | star | up_lit | down_lit | tiny_glyph_app
        | game | bool_lit | theta | labelled_game | if_expr | postfix | atom | paren | list
        | prefix_op | kw_not | expr_stmt | for_iter | tiny_operand => (0, "an expression"),
        let_stmt | region_stmt | go_stmt | fn_stmt | assert_stmt | theorem_stmt | for_stmt
        | print_stmt | use_stmt => (1, "a statement"),
        name | arg_name => (2, "a name"),
        string | raw_string => (3, "a string"),
        cmp_op | add_op | mul_op | kw_and | kw_or | kw_mod => (4, "an operator"),
        assign => (5, "`=`"),
        lparen => (6, "`(`"),
        rparen => (7, "`)`"),
        lbracket => (8, "`[`"),
        rbracket => (9, "`]`"),
        block_open | lbrace => (10, "`{`"),
        block_close | rbrace => (11, "`}`"),
        bar => (12, "`|`"),
        comma => (13, "`,`"),
        range_op => (14, "`..`"),
        kw_in => (15, "`in`"),
        kw_else => (16, "`else`"),
        params => (17, "a parameter list `(…)`"),
        block => (18, "a block `{ … }`"),
        sep => (19, "end of line"),
        EOI => (20, "end of input"),
        _ => return None,
    })
}

fn expected_list(positives: &[Rule]) -> Vec<&'static str> {
    let mut names: Vec<(u8, &'static str)> =
        positives.iter().filter_map(|&r| rule_name(r)).collect();
    names.sort();
    names.dedup();
    // `..` is an operator too.
    if names.iter().any(|n| n.1 == "an operator") {
        names.retain(|n| n.1 != "`..`");
    }
    // "end of line or end of input" says nothing more than "end of line".
    if names.iter().any(|n| n.1 == "end of line") {
        names.retain(|n| n.1 != "end of input");
    }
    names.into_iter().map(|(_, n)| n).collect()
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn is_known_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || " \t\r\n_'{}[]()|,;*^<>=!~+-./\"#:".contains(c)
        || "↑↓⇑⇓∗±≈≤≥≠⧾⧿θ·−\u{FEFF}⁰¹²³⁴⁵⁶⁷⁸⁹".contains(c)
}

/// `Some(3)` when the text before `pos` ends with `0^3` (possibly spaced):
/// an ASCII try at Berlekamp's 0ⁿ prefix.
fn ascii_zero_prefix_before(src: &str, pos: usize) -> Option<u32> {
    let before = src[..pos].trim_end();
    let digits = before.trim_end_matches(|c: char| c.is_ascii_digit());
    let n = &before[digits.len()..];
    let base = digits.strip_suffix('^')?.strip_suffix('0')?;
    let standalone = !base.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '/' || c == '.');
    n.parse().ok().filter(|_| standalone)
}

/// True when the line up to `pos` is a lone name (`x = 3`, a missing `let`).
fn binds_a_name(src: &str, pos: usize) -> bool {
    let line_start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
    let before = src[line_start..pos].trim();
    !before.is_empty()
        && before
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && before.chars().all(is_ident_char)
}

/// True when only spaces and tabs separate `pos` from the previous newline.
fn starts_line(src: &str, pos: usize) -> bool {
    src[..pos]
        .trim_end_matches([' ', '\t', '\r'])
        .ends_with('\n')
}

/// `v`, `vv`, …, `v3`: words that are downs, never names.
fn is_down_word(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('v') else {
        return false;
    };
    rest.chars().all(|c| c == 'v') || rest.chars().all(|c| c.is_ascii_digit())
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

fn pest_failure(e: pest::error::Error<Rule>, src: &str, text: &str) -> Failure {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
    .min(src.len());
    let positives = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { message } => {
            return fail(
                Diagnostic::error("input too complex to parse")
                    .with_label(pos..pos, message.clone()),
                false,
            )
        }
    };
    let expected = expected_list(&positives);
    let expected_msg = if expected.is_empty() {
        String::new()
    } else {
        format!("expected {}", join_or(&expected))
    };
    let at_end = pos >= text.trim_end().len();
    if at_end {
        let label = if expected_msg.is_empty() {
            "input ends here".to_string()
        } else {
            expected_msg
        };
        return fail(
            Diagnostic::error("unexpected end of input").with_label(pos..pos, label),
            true,
        );
    }
    // `{}` where an expression is expected: the option set `{a, …}` that
    // only `±` takes failed on its first option; the brace is the mistake.
    let mut pos = pos;
    if text.as_bytes().get(pos) == Some(&BLOCK_CLOSE) && expected.contains(&"an expression") {
        let before = text[..pos].trim_end_matches([' ', '\t', '\r', '\n']);
        if before.as_bytes().last() == Some(&BLOCK_OPEN) {
            pos = before.len() - 1;
        }
    }
    let rest = &src[pos..];
    let c = rest.chars().next().unwrap_or(' ');
    let wants_operator = expected.contains(&"an operator");
    let label = |fallback: &str| {
        if expected_msg.is_empty() {
            fallback.to_string()
        } else {
            expected_msg.clone()
        }
    };

    if c == '\n' {
        return fail(
            Diagnostic::error("unexpected end of line")
                .with_label(pos..pos, label("line ends here")),
            false,
        );
    }
    if (c == '*' || c == '∗') && wants_operator {
        let spaced = pos > 0 && src[..pos].ends_with([' ', '\t']);
        let mut d = Diagnostic::error(
            "`*` is not multiplication in yose (it is the game star); \
             for n copies of G write `n . G`",
        )
        .with_label(pos..pos + c.len_utf8(), "star used as an operator");
        d = if spaced {
            d.with_help("for n copies of G write `n . G` (Norton product)")
        } else {
            d.with_note("only a number written directly before `*` makes a sum (`2*` is 2 + *)")
                .with_help("to add star, write `+ *`; for n copies of G write `n . G`")
        };
        return fail(d, false);
    }
    if !is_known_char(c) {
        return fail(
            Diagnostic::error(format!("unexpected character `{c}`")).with_label(
                pos..pos + c.len_utf8(),
                "this character is not part of yose's syntax",
            ),
            false,
        );
    }
    let token_len = if is_ident_char(c) {
        rest.find(|ch: char| !is_ident_char(ch))
            .unwrap_or(rest.len())
    } else {
        c.len_utf8()
    };
    let token = &rest[..token_len];
    let mut d = Diagnostic::error(format!("unexpected `{token}`"))
        .with_label(pos..pos + token_len, label("not expected here"));
    let byte = text.as_bytes()[pos];
    if byte == BLOCK_OPEN && expected.contains(&"an expression") {
        d = d.with_help(
            "a game needs `|` (`{|}` is 0, `{0|}` is 1); braces without `|` make a block, \
             which only follows `if`, `else`, `for`, `theorem` or `fn … =`",
        );
    } else if c == '{' && byte != BLOCK_OPEN && expected.contains(&"`{`") {
        d = d.with_help(
            "this `{ … | … }` is a game, but a block of statements is expected here; \
             to make a game the value of a block, wrap it: `{ {1|0} }`",
        );
    } else if c == '=' && wants_operator && binds_a_name(src, pos) {
        let line_start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
        let lhs = src[line_start..pos].trim();
        d = d.with_help(format!(
            "to bind a name, write `let {lhs} = …`; to compare, write `==`"
        ));
    } else if c == '=' && wants_operator {
        d = d.with_help("to compare, write `==`");
    } else if let Some(n) = ascii_zero_prefix_before(src, pos)
        .filter(|_| matches!(c, '⧾' | '⧿') || matches!(token, "Tiny" | "tiny" | "Miny" | "miny"))
    {
        let (glyph, name) = if c == '⧿' || token.eq_ignore_ascii_case("miny") {
            ('⧿', "miny")
        } else {
            ('⧾', "tiny")
        };
        d = d.with_help(format!(
            "`0^{n}` is 0 + {n} ups; for Berlekamp's prefix 0^{n} write superscript digits \
             (`0{}{glyph}1`) or `zero_prefix({n}, {name}(1))`",
            crate::render::superscript(n)
        ));
    } else if starts_line(src, pos)
        && (matches!(token, "and" | "or" | "mod") || "+./=<>|·≈≤≥≠~!".contains(c))
    {
        d = d.with_help(
            "a line break ends a statement; to continue an expression on the next line, \
             end the previous line with the operator",
        );
    } else if expected.contains(&"a name") && token == "theta" {
        d = d.with_note("`theta` is the ko threat θ, so it cannot be a name");
    } else if expected.contains(&"a name") && is_down_word(token) {
        d = d.with_note(format!(
            "`{token}` is down-notation (↓), so it cannot be a name"
        ));
    }
    fail(d, false)
}

/// (tests only) Parses `src` as a program with and without the fast path
/// and compares the results (AST with spans, or diagnostics and `at_end`);
/// returns how many literals the fast path read, or what differs.
#[cfg(test)]
pub(crate) fn compare_fast_path(src: &str) -> Result<usize, String> {
    let with = program(src);
    let without = match layout::layout(src) {
        Ok((text, _)) => super::on_enough_stack(MAX_DEPTH, &text, &|| {
            plain(src, Rule::program, &text, &build_program)
        }),
        Err(e) => Err(fail(e.diag, e.at_end)),
    };
    // The expression rule too (for `yose eval`), when the text is one.
    match (expression(src), expression_with_pest_only(src)) {
        (Ok(a), Ok(b)) if a == b => {}
        (Err(a), Err(b)) if a.diags == b.diags && a.at_end == b.at_end => {}
        (a, b) => {
            return Err(format!(
                "expression, fast path: {:?}\npest only: {:?}",
                a.map_err(|f| (f.diags, f.at_end)),
                b.map_err(|f| (f.diags, f.at_end))
            ))
        }
    }
    let taken = match layout::layout(src) {
        Ok((text, _)) => fast::splice(&mut text.into_owned()).len(),
        Err(_) => 0,
    };
    match (with, without) {
        (Ok(a), Ok(b)) if a == b => Ok(taken),
        (Err(a), Err(b)) if a.diags == b.diags && a.at_end == b.at_end => Ok(taken),
        (a, b) => Err(format!(
            "fast path: {:?}\npest only: {:?}",
            a.map_err(|f| (f.diags, f.at_end)),
            b.map_err(|f| (f.diags, f.at_end))
        )),
    }
}
