//! Operators on values: arithmetic, comparison and the conversions they need.

use super::value::{rational_to_dyadic, GameSum, Value};
use super::{EvalResult, Interp, Scope, Span, Stop};
use crate::diag::Diagnostic;
use crate::game::{GameId, Relation};
use crate::syntax::ast::{BinOp, ChainLink, CmpOp, Expr, UnaryOp};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use rustc_hash::FxHashMap;

impl Interp {
    /// The game a value denotes (canonical), or an error naming what it is instead.
    pub(crate) fn game_of(&mut self, v: &Value, span: &Span) -> EvalResult<GameId> {
        match v {
            Value::Game(s) => s
                .canonical(&mut self.store)
                .map_err(|e| self.cg_error(e, span)),
            Value::Mixed(m) => Err(self.mixed_not_a_game(m, span)),
            Value::Rational(r) => match rational_to_dyadic(r) {
                Some(d) => Ok(self.store.number(d)),
                None => Err(self.error(
                    span,
                    format!(
                        "{} is not a dyadic rational, so it is not a short game",
                        super::format_rational(r)
                    ),
                )),
            },
            Value::Position(p) => self.position_game(p, span),
            other => Err(self.error(span, format!("expected a game, found {}", other.kind()))),
        }
    }

    /// Like [`Interp::game_of`] but keeps a sum's components.
    pub(crate) fn game_sum_of(&mut self, v: &Value, span: &Span) -> EvalResult<GameSum> {
        match v {
            Value::Game(s) => Ok(s.clone()),
            other => Ok(GameSum::single(self.game_of(other, span)?)),
        }
    }

    /// An exact rational from a scalar or a game that is a number.
    pub(crate) fn to_rational(&mut self, v: &Value, span: &Span) -> EvalResult<BigRational> {
        match v {
            Value::Rational(r) => Ok(r.clone()),
            Value::Game(_) => {
                let g = self.game_of(v, span)?;
                match self.store.as_number(g) {
                    Some(x) => Ok(x.to_rational()),
                    None => {
                        let shown = self.display(v)?;
                        Err(self.error(span, format!("expected a number, found the game {shown}")))
                    }
                }
            }
            other => Err(self.error(span, format!("expected a number, found {}", other.kind()))),
        }
    }

    pub(crate) fn to_integer(&mut self, v: &Value, span: &Span) -> EvalResult<BigInt> {
        let r = self.to_rational(v, span)?;
        if r.is_integer() {
            Ok(r.to_integer())
        } else {
            Err(self.error(
                span,
                format!("expected an integer, found {}", super::format_rational(&r)),
            ))
        }
    }

    fn is_scalar(v: &Value) -> bool {
        matches!(v, Value::Rational(_))
    }

    pub(crate) fn unary(
        &mut self,
        op: UnaryOp,
        v: Value,
        span: &Span,
        inner: &Span,
    ) -> EvalResult<Value> {
        // A position holding a ko takes part as its chilled ko value.
        let v = self.position_ko_value(&v, inner)?.unwrap_or(v);
        match op {
            _ if matches!(v, Value::Mixed(_)) => match &v {
                Value::Mixed(m) => self.mixed_unary(op, m),
                _ => unreachable!(),
            },
            UnaryOp::Neg => match v {
                Value::Rational(r) => Ok(Value::Rational(-r)),
                other => {
                    let s = self.game_sum_of(&other, inner)?;
                    Ok(Value::Game(s.negate(&mut self.store)))
                }
            },
            UnaryOp::Switch => {
                let g = self.game_of(&v, inner)?;
                let r = self.store.switch(g).map_err(|e| self.cg_error(e, span))?;
                Ok(Value::game(r))
            }
        }
    }

    /// A chain `first op₁ a₁ … opₙ aₙ` evaluated left to right, as
    /// `((first op₁ a₁) op₂ a₂) …`: a loop, so a chain of any length needs
    /// no deeper stack than one operand. `and` / `or` short-circuit: once
    /// the value so far decides them, the operands after are not evaluated.
    /// A run of games added or subtracted gathers their components and adds
    /// them once at its end, as [`GameSum::plus`] one by one would (which
    /// copies the components so far each time: n² for n games).
    pub(crate) fn chain(
        &mut self,
        e: &Expr,
        first: &Expr,
        rest: &[ChainLink],
        scope: &Scope,
    ) -> EvalResult<Value> {
        let mut acc = self.eval(first, scope)?;
        let mut acc_span = first.span.clone();
        let mut gathered: Vec<GameId> = Vec::new();
        for (i, link) in rest.iter().enumerate() {
            let span = e.chain_prefix_span(first, rest, i);
            let rhs = &link.operand;
            match link.op {
                BinOp::And | BinOp::Or => {
                    let a = self.bool_of(&acc, &acc_span)?;
                    if a != (link.op == BinOp::Or) {
                        let b = self.eval(rhs, scope)?;
                        acc = Value::Bool(self.bool_of(&b, &rhs.span)?);
                    }
                }
                op => {
                    let b = self.eval(rhs, scope)?;
                    match (&acc, b, op) {
                        (Value::Game(_), Value::Game(s), BinOp::Add) => {
                            gathered.extend_from_slice(s.parts());
                        }
                        (Value::Game(_), Value::Game(s), BinOp::Sub) => {
                            gathered.extend_from_slice(s.negate(&mut self.store).parts());
                        }
                        (_, b, op) => {
                            let a = self.add_gathered(acc, &mut gathered, &acc_span)?;
                            acc = self.binary_values(op, a, b, &acc_span, &rhs.span, &span)?;
                        }
                    }
                }
            }
            acc_span = span;
        }
        self.add_gathered(acc, &mut gathered, &acc_span)
    }

    /// `acc` (a game, when anything was gathered) plus the components
    /// `gathered` since it, which are taken; `span` is the chain so far.
    fn add_gathered(
        &mut self,
        acc: Value,
        gathered: &mut Vec<GameId>,
        span: &Span,
    ) -> EvalResult<Value> {
        if gathered.is_empty() {
            return Ok(acc);
        }
        let Value::Game(sum) = acc else {
            unreachable!("components are gathered only onto a game")
        };
        let more = GameSum::from_parts(std::mem::take(gathered));
        let total = sum
            .plus(&more, &mut self.store)
            .map_err(|err| self.cg_error(err, span))?;
        Ok(Value::Game(total))
    }

    pub(crate) fn binary_values(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        ls: &Span,
        rs: &Span,
        span: &Span,
    ) -> EvalResult<Value> {
        if matches!(op, BinOp::Add | BinOp::Sub) {
            self.warn_chill_mix(&a, &b, span)?;
        }
        // A position holding a ko takes part as its chilled ko value.
        let a = self.position_ko_value(&a, ls)?.unwrap_or(a);
        let b = self.position_ko_value(&b, rs)?.unwrap_or(b);
        if matches!(a, Value::Mixed(_)) || matches!(b, Value::Mixed(_)) {
            return self.mixed_binary(op, &a, &b, ls, rs, span);
        }
        match op {
            BinOp::Add | BinOp::Sub => {
                if let (Value::Rational(x), Value::Rational(y)) = (&a, &b) {
                    return Ok(Value::Rational(if op == BinOp::Add {
                        x + y
                    } else {
                        x - y
                    }));
                }
                if let (Value::Str(x), Value::Str(y), BinOp::Add) = (&a, &b, op) {
                    // Twice the length: the text is built, then shared.
                    self.reserve(2 * (x.len() + y.len()), span)?;
                    return Ok(Value::str(&format!("{x}{y}")));
                }
                if let (Value::List(x), Value::List(y), BinOp::Add) = (&a, &b, op) {
                    self.reserve((x.len() + y.len()) * std::mem::size_of::<Value>(), span)?;
                    let mut v = (**x).clone();
                    v.extend(y.iter().cloned());
                    return Ok(Value::list(v));
                }
                let x = self.game_sum_of(&a, ls)?;
                let mut y = self.game_sum_of(&b, rs)?;
                if op == BinOp::Sub {
                    y = y.negate(&mut self.store);
                }
                let s = x
                    .plus(&y, &mut self.store)
                    .map_err(|e| self.cg_error(e, span))?;
                Ok(Value::Game(s))
            }
            BinOp::Dot => {
                if Self::is_scalar(&a) && Self::is_scalar(&b) {
                    let x = self.to_rational(&a, ls)?;
                    let y = self.to_rational(&b, rs)?;
                    return Ok(Value::Rational(x * y));
                }
                let n = match &a {
                    Value::Rational(r) if r.is_integer() => r.to_integer(),
                    _ => {
                        let g = self.game_of(&a, ls)?;
                        match self.store.as_number(g).and_then(|x| x.to_bigint()) {
                            Some(n) => n,
                            None => {
                                // A game that is not an integer: the Norton product G.U,
                                // unless U is an integer, where `G . n` reads as n copies
                                // of G just as well (see `ambiguous_dot`).
                                if let Some(n) = self.integer_value(&b) {
                                    return Err(self.ambiguous_dot(g, &n, ls, rs));
                                }
                                let u = self.game_of(&b, rs)?;
                                let r = self
                                    .store
                                    .norton(g, u)
                                    .map_err(|e| self.cg_error(e, span))?;
                                return Ok(Value::game(r));
                            }
                        }
                    }
                };
                let g = self.game_of(&b, rs)?;
                if n.abs() > BigInt::from(1u64 << 40) && self.store.as_nus(g).is_none() {
                    return Err(self.error(
                        ls,
                        "too many copies of a game that is not a number-up-star value",
                    ));
                }
                let r = self
                    .store
                    .copies(&n, g)
                    .map_err(|e| self.cg_error(e, span))?;
                Ok(Value::game(r))
            }
            BinOp::Div => {
                let x = self.to_rational(&a, ls)?;
                let y = self.to_rational(&b, rs)?;
                if y.is_zero() {
                    return Err(self.error(rs, "division by zero"));
                }
                Ok(Value::Rational(x / y))
            }
            BinOp::Mod => {
                let x = self.to_integer(&a, ls)?;
                let y = self.to_integer(&b, rs)?;
                if y.is_zero() {
                    return Err(self.error(rs, "division by zero"));
                }
                let m = ((x % &y) + &y) % &y;
                Ok(Value::Rational(m.into()))
            }
            BinOp::And | BinOp::Or => unreachable!("handled by the caller"),
        }
    }

    /// The integer a value is (a scalar or a game), if it is one.
    pub(crate) fn integer_value(&mut self, v: &Value) -> Option<BigInt> {
        match v {
            Value::Rational(r) => r.is_integer().then(|| r.to_integer()),
            Value::Game(s) if s.parts().len() == 1 => self
                .store
                .as_number(s.parts()[0])
                .and_then(|x| x.to_bigint()),
            _ => None,
        }
    }

    /// `G . n` with G not an integer: `.` is Norton's product G.U (Winning
    /// Ways, Siegel; CGSuite's `G.NortonMultiply(U)`), of which `n . G`, n
    /// copies of G, is the case of an integer on the left. With the integer
    /// on the right the reader may mean either, and the two differ
    /// (`{1|0} . 3` is `{5|-2}`, three copies `{2|1}`), so neither is
    /// guessed.
    fn ambiguous_dot(&mut self, g: GameId, n: &BigInt, ls: &Span, rs: &Span) -> Stop {
        const SHOWN: usize = 40;
        let shown = crate::render::format_game(&mut self.store, g, self.style)
            .ok()
            .filter(|t| t.chars().count() <= SHOWN);
        let left = match &shown {
            Some(t) => format!("this is {t}, not an integer"),
            None => "this is not an integer".to_string(),
        };
        let game = shown.unwrap_or_else(|| "G".to_string());
        self.error_with(
            Diagnostic::error(format!(
                "`G . {n}` with a game G that is not an integer is ambiguous"
            ))
            .with_label(ls.clone(), left)
            .with_secondary(rs.clone(), format!("this is the integer {n}"))
            .with_note(
                "`.` is Norton's product G.U; `n . G` with the integer n on the left is n copies of G",
            )
            .with_help(format!(
                "write `{n} . {game}` for {n} copies, or `norton({game}, {n})` for the Norton product"
            )),
        )
    }

    pub(crate) fn bool_of(&self, v: &Value, span: &Span) -> EvalResult<bool> {
        match v {
            Value::Bool(b) => Ok(*b),
            other => Err(self.error(span, format!("expected a boolean, found {}", other.kind()))),
        }
    }

    /// The order relation between two values that are games or numbers.
    pub(crate) fn relation(&mut self, a: &Value, b: &Value, span: &Span) -> EvalResult<Relation> {
        if let (Value::Rational(x), Value::Rational(y)) = (a, b) {
            return Ok(match x.cmp(y) {
                std::cmp::Ordering::Less => Relation::Less,
                std::cmp::Ordering::Equal => Relation::Equal,
                std::cmp::Ordering::Greater => Relation::Greater,
            });
        }
        // A non-dyadic rational against a game: only numbers compare with it.
        for (r, other, flip) in [(a, b, false), (b, a, true)] {
            if let Value::Rational(x) = r {
                if rational_to_dyadic(x).is_none() {
                    let y = self.to_rational(other, span)?;
                    let rel = match x.cmp(&y) {
                        std::cmp::Ordering::Less => Relation::Less,
                        std::cmp::Ordering::Equal => Relation::Equal,
                        std::cmp::Ordering::Greater => Relation::Greater,
                    };
                    return Ok(if flip { flip_relation(rel) } else { rel });
                }
            }
        }
        if let (Some(x), Some(y)) = (self.comparison_parts(a), self.comparison_parts(b)) {
            if x.len() + y.len() > 2 {
                return self.sums_relation(&x, &y, span);
            }
        }
        let g = self.game_for_comparison(a, span)?;
        let h = self.game_for_comparison(b, span)?;
        self.store.compare(g, h).map_err(|e| self.cg_error(e, span))
    }

    /// The components of a lazy sum, or a dyadic number as one component.
    fn comparison_parts(&mut self, v: &Value) -> Option<Vec<GameId>> {
        match v {
            Value::Game(s) => Some(s.parts().to_vec()),
            Value::Rational(r) => rational_to_dyadic(r).map(|d| vec![self.store.number(d)]),
            _ => None,
        }
    }

    /// Two lazy sums compared from their components. `x` against `y` is
    /// `x − y` against 0, so two components whose sum in `x − y` is 0 cancel:
    /// one on both sides (`G + X` and `H + X` stand as `G` and `H` do), or a
    /// component and its negative on one side (`±1 + ±1` is 0). What is left
    /// of each side is then put in canonical form and compared; two sums of
    /// the same 40 switches, whose forms are out of reach, are equal at once.
    fn sums_relation(&mut self, x: &[GameId], y: &[GameId], span: &Span) -> EvalResult<Relation> {
        // The components not cancelled so far, by their term of `x − y`
        // (`g` for a component `g` of `x`, `−h` for a component `h` of
        // `y`): which side each came from and as what.
        let mut open: FxHashMap<GameId, Vec<(bool, GameId)>> = FxHashMap::default();
        let terms = x
            .iter()
            .map(|&g| (true, g))
            .chain(y.iter().map(|&h| (false, h)));
        for (from_x, g) in terms {
            let term = if from_x { g } else { self.store.neg(g) };
            let inverse = self.store.neg(term);
            match open.get_mut(&inverse).and_then(|v| v.pop()) {
                Some(_) => {}
                None => open.entry(term).or_default().push((from_x, g)),
            }
        }
        let (mut left, mut right) = (Vec::new(), Vec::new());
        // Sorted, so that what is left does not depend on the table's order.
        let mut kept: Vec<(bool, GameId)> = open.into_values().flatten().collect();
        kept.sort_unstable();
        for (from_x, g) in kept {
            if from_x {
                left.push(g);
            } else {
                right.push(g);
            }
        }
        let g = GameSum::from_parts(left)
            .canonical(&mut self.store)
            .map_err(|e| self.cg_error(e, span))?;
        let h = GameSum::from_parts(right)
            .canonical(&mut self.store)
            .map_err(|e| self.cg_error(e, span))?;
        self.store.compare(g, h).map_err(|e| self.cg_error(e, span))
    }

    /// Structural equality for values that are not games (lists elementwise).
    fn values_equal(
        &mut self,
        a: &Value,
        b: &Value,
        approx: bool,
        span: &Span,
    ) -> EvalResult<bool> {
        // Lists nest as deeply as a program builds them.
        crate::limits::check_stack().map_err(|x| self.limit_error(x, span))?;
        match (a, b) {
            (Value::Bool(x), Value::Bool(y)) => Ok(x == y),
            (Value::Str(x), Value::Str(y)) => Ok(x == y),
            (Value::Unit, Value::Unit) => Ok(true),
            // `x == nothing` asks whether a value is missing (`optimal(S)`
            // with no move): any other value is not.
            (Value::Unit, _) | (_, Value::Unit) => Ok(false),
            (Value::List(x), Value::List(y)) => {
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (p, q) in x.iter().zip(y.iter()) {
                    if !self.values_equal(p, q, approx, span)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (
                Value::Game(_) | Value::Rational(_) | Value::Position(_) | Value::Mixed(_),
                Value::Game(_) | Value::Rational(_) | Value::Position(_) | Value::Mixed(_),
            ) => {
                if approx {
                    self.approx_equal(a, b, span)
                } else {
                    Ok(self.relation(a, b, span)? == Relation::Equal)
                }
            }
            _ => Err(self.error(
                span,
                format!("cannot compare {} with {}", a.kind(), b.kind()),
            )),
        }
    }

    /// `a ≈ b`: the difference is infinitesimal.
    fn approx_equal(&mut self, a: &Value, b: &Value, span: &Span) -> EvalResult<bool> {
        if let (Value::Rational(x), Value::Rational(y)) = (a, b) {
            return Ok(x == y);
        }
        let g = self.game_for_comparison(a, span)?;
        let h = self.game_for_comparison(b, span)?;
        let d = self.store.sub(g, h).map_err(|e| self.cg_error(e, span))?;
        self.store
            .is_infinitesimal(d)
            .map_err(|e| self.cg_error(e, span))
    }

    /// A Go position used as a game stands for its chilled value; mixed
    /// in one sum or comparison with an unchilled `value(Q)`, the units
    /// differ (a point is worth 1 unchilled, a move is taxed 1 chilled).
    /// Warned once per session, on standard error; writing `chilled(Q)`
    /// for the position says the chilled value is meant and silences it.
    pub(crate) fn warn_chill_mix(&mut self, a: &Value, b: &Value, span: &Span) -> EvalResult<()> {
        if self.chill_mix_warned || self.unchilled.is_empty() {
            return Ok(());
        }
        let other = match (a, b) {
            (Value::Position(_), Value::Position(_)) => return Ok(()),
            (Value::Position(_), o) | (o, Value::Position(_)) => o,
            _ => return Ok(()),
        };
        let unchilled = match other {
            Value::Game(s) => s.parts().iter().any(|g| self.unchilled.contains(g)),
            _ => false,
        };
        if unchilled {
            self.chill_mix_warned = true;
            let source = &self.sources[self.current];
            let before = &source.text[..span.start.min(source.text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            eprintln!(
                "warning: {}:{line}:{col}: a Go position used as a game stands for its chilled value, and here it meets an unchilled `value(…)`; write `chilled(Q)` to say the chilled value is meant (this silences the warning), or `value(Q)` for both",
                source.name
            );
        }
        Ok(())
    }

    pub(crate) fn compare_op(
        &mut self,
        op: CmpOp,
        a: &Value,
        b: &Value,
        span: &Span,
    ) -> EvalResult<bool> {
        self.warn_chill_mix(a, b, span)?;
        match op {
            CmpOp::Eq => self.values_equal(a, b, false, span),
            CmpOp::Ne => Ok(!self.values_equal(a, b, false, span)?),
            CmpOp::Approx => self.values_equal(a, b, true, span),
            CmpOp::NotApprox => Ok(!self.values_equal(a, b, true, span)?),
            _ => {
                let rel = self.relation(a, b, span)?;
                Ok(match op {
                    CmpOp::Lt => rel == Relation::Less,
                    CmpOp::Le => matches!(rel, Relation::Less | Relation::Equal),
                    CmpOp::Gt => rel == Relation::Greater,
                    CmpOp::Ge => matches!(rel, Relation::Greater | Relation::Equal),
                    CmpOp::Confused => rel == Relation::Confused,
                    CmpOp::LessOrConfused => matches!(rel, Relation::Less | Relation::Confused),
                    CmpOp::GreaterOrConfused => {
                        matches!(rel, Relation::Greater | Relation::Confused)
                    }
                    CmpOp::Eq | CmpOp::Ne | CmpOp::Approx | CmpOp::NotApprox => unreachable!(),
                })
            }
        }
    }

    /// "the left side is less than the right side", for failed assertions.
    pub(crate) fn describe_relation(
        &mut self,
        a: &Value,
        b: &Value,
        span: &Span,
    ) -> EvalResult<String> {
        let orderable =
            |v: &Value| matches!(v, Value::Game(_) | Value::Rational(_) | Value::Mixed(_));
        if !(orderable(a) && orderable(b)) {
            return Ok(if self.values_equal(a, b, false, span)? {
                "the two sides are equal".into()
            } else {
                "the two sides differ".into()
            });
        }
        let rel = self.relation(a, b, span)?;
        let mut text = match rel {
            Relation::Equal => "the two sides are equal".to_string(),
            Relation::Less => "the left side is less than the right side".to_string(),
            Relation::Greater => "the left side is greater than the right side".to_string(),
            Relation::Confused => "the two sides are confused (incomparable)".to_string(),
        };
        // "Only an infinitesimal apart" is news only when the sides are not
        // themselves infinitesimal. It needs canonical forms, which a large
        // sum may not give in reasonable time: past a step budget the note
        // is left out (an error under a smaller budget set before stands).
        if rel != Relation::Equal {
            let budget_end = self
                .store
                .steps()
                .saturating_add(super::COMPARED_FORM_STEPS);
            let old = self.store.limit_steps(super::COMPARED_FORM_STEPS);
            let note = self.differ_by_an_infinitesimal(a, b, span);
            self.store.restore_step_limit(old);
            match note {
                Ok(true) => text.push_str(", though they differ only by an infinitesimal"),
                Ok(false) => {}
                Err(_) if self.store.steps() >= budget_end => {}
                Err(e) => return Err(e),
            }
        }
        Ok(text)
    }

    /// The two sides are not equal, the left one is not infinitesimal, and
    /// their difference is.
    fn differ_by_an_infinitesimal(
        &mut self,
        a: &Value,
        b: &Value,
        span: &Span,
    ) -> EvalResult<bool> {
        let a_game = self.game_for_comparison(a, span)?;
        let a_small = self
            .store
            .is_infinitesimal(a_game)
            .map_err(|e| self.cg_error(e, span))?;
        Ok(!a_small && self.approx_equal(a, b, span)?)
    }
}

fn flip_relation(r: Relation) -> Relation {
    match r {
        Relation::Less => Relation::Greater,
        Relation::Greater => Relation::Less,
        other => other,
    }
}
