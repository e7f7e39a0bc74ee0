//! The one-point ko builtins of Huang, Lin and Yen, “The Strategies for Simple One-Point Ko Situation of Computer Go” (`kofight_advice`, `kofight_solve`),
//! on top of [`crate::ko::kofight`], which states the abstract game.
//!
//! Arguments: `k`, Black's unused threats (a list of values), White's, the
//! valuable gote moves left (any order), White's last move as a string —
//! `"took"` (case 1), `"answered"` (2), `"connected"` (3), `"threat"` (4),
//! `"gote"` (5), `"followed_up"` (6), `"other"` or `"pass"` (7) — and, for
//! `"threat"`, the value of White's threat; for `"connected"`, optionally the
//! value of Black's ignored threat (his last move). Every value is a positive
//! integer. `kofight_solve` takes `budget: N`: the most search nodes of the
//! whole question (all its solves together); over it is a diagnostic with
//! the node count.

use super::registry::{self, Builtin, Call};
use super::value::Value;
use super::{EvalResult, Interp, Span};
use crate::ko::kofight::grid::{self, GridSpec, Instance, RuleResult};
use crate::ko::kofight::{self, Advice, Fitting, KoFight, Last, Move};
use crate::ko::solve::KoSolveError;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

pub(super) const BUILTINS: &[Builtin] = &[KOFIGHT_SOLVE, KOFIGHT_ADVICE, KOFIGHT_GRID];

/// `fitting: ">=" | ">"`: how a threat compares with its lower bound.
const FITTING: registry::NamedArg = registry::NamedArg {
    name: "fitting",
    values: "\">=\" or \">\" (how a threat compares with its lower bound)",
    default: "\">=\"",
};

const KOFIGHT_SOLVE: Builtin = Builtin {
    name: "kofight_solve",
    params: "k, black_threats, white_threats, moves, last[, t]",
    arity: (5, 6),
    named: &[registry::budget("20 000 000 nodes"), FITTING],
    returns: "a record: optimum, best, advice, advised, optimal, profit, claim, claim_holds, moves, nodes",
    help: "the ko fight of the one-point ko paper (Berlekamp's rule for a one-point ko with threats) solved exactly: the optimum, each first move's score, and whether the paper's advice is optimal and its claim holds",
    example: "kofight_solve(4, [6], [5], [2], \"took\")[\"optimum\"]",
    takes_kos: false,
    run: kofight,
};
const KOFIGHT_ADVICE: Builtin = Builtin {
    name: "kofight_advice",
    named: &[FITTING],
    returns: "a record: the advised move and the profit the paper predicts",
    help: "the move the one-point ko rule advises for Black after White's `last` (\"took\", \"answered\", \"connected\", \"threat\", \"gote\", \"followed_up\", \"other\")",
    example: "kofight_advice(4, [6], [5], [2], \"took\")",
    ..KOFIGHT_SOLVE
};
const KOFIGHT_GRID: Builtin = Builtin {
    name: "kofight_grid",
    params: "k_max, threats, threat_max, moves, move_max",
    arity: (5, 5),
    named: &[],
    returns: "a record: instances, rules (per rule and reading: tested, holds, fails, max_loss, failure, holding)",
    help: "every rule of Huang, Lin and Yen's one-point ko strategy judged over every position with 1 ≤ k ≤ k_max, at most `threats` threats per side valued 1..threat_max, at most `moves` valuable moves valued 1..move_max, and every case (3 and 4 with each pending threat 1..threat_max): per rule and reading of \"fitting\", the counts and the smallest failing and holding positions",
    example: "kofight_grid(1, 0, 1, 1, 1)[\"instances\"]",
    takes_kos: false,
    run: grid_call,
};

/// The reading of "fitting" from the named argument `fitting:`.
fn reading_of(interp: &Interp, c: &Call) -> EvalResult<Fitting> {
    let Some((v, s)) = c.named("fitting") else {
        return Ok(Fitting::AtLeast);
    };
    match v {
        Value::Str(t) if &**t == ">=" || &**t == "≥" => Ok(Fitting::AtLeast),
        Value::Str(t) if &**t == ">" => Ok(Fitting::Above),
        _ => Err(interp.error(
            s,
            "`fitting:` takes \">=\" (a threat equal to its bound fits) or \">\"",
        )),
    }
}

fn int(n: &BigInt) -> Value {
    Value::Rational(BigRational::from_integer(n.clone()))
}

fn opt_int(n: &Option<BigInt>) -> Value {
    n.as_ref().map_or(Value::Unit, int)
}

fn values(interp: &mut Interp, v: &Value, span: &Span, what: &str) -> EvalResult<Vec<BigInt>> {
    match v {
        Value::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for x in items.iter() {
                let n = interp.to_integer(x, span)?;
                if !n.is_positive() {
                    return Err(
                        interp.error(span, format!("{what} must be positive integers, found {n}"))
                    );
                }
                out.push(n);
            }
            Ok(out)
        }
        other => Err(interp.error(
            span,
            format!(
                "expected a list of {what} (integers), found {}",
                other.kind()
            ),
        )),
    }
}

/// The position and White's last move from the arguments.
fn position(
    interp: &mut Interp,
    args: &[Value],
    spans: &[Span],
    span: &Span,
) -> EvalResult<(KoFight, Last)> {
    let sp = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    let k = interp.to_integer(&args[0], &sp(0))?;
    if !k.is_positive() {
        return Err(interp.error(
            &sp(0),
            format!("the ko value k must be positive, found {k}"),
        ));
    }
    let black = values(interp, &args[1], &sp(1), "Black's ko threats")?;
    let white = values(interp, &args[2], &sp(2), "White's ko threats")?;
    let moves = values(interp, &args[3], &sp(3), "valuable moves")?;
    let kind = match &args[4] {
        Value::Str(s) => s.to_ascii_lowercase(),
        other => {
            return Err(interp.error(
                &sp(4),
                format!(
                    "expected White's last move as a string, found {}",
                    other.kind()
                ),
            ))
        }
    };
    let extra = match args.get(5) {
        Some(v) => {
            let t = interp.to_integer(v, &sp(5))?;
            if !t.is_positive() {
                return Err(interp.error(
                    &sp(5),
                    format!("a ko threat's value must be positive, found {t}"),
                ));
            }
            Some(t)
        }
        None => None,
    };
    let needs_no_value = |interp: &Interp| -> EvalResult<()> {
        if extra.is_some() {
            return Err(interp.error(
                &sp(5),
                format!("White's last move `{kind}` takes no threat value"),
            ));
        }
        Ok(())
    };
    let last = match kind.as_str() {
        "took" => Last::TookKo,
        "answered" => Last::AnsweredThreat,
        "connected" => Last::ConnectedKo {
            pending: extra.clone(),
        },
        "threat" => match &extra {
            Some(w) => Last::Threat(w.clone()),
            None => {
                return Err(interp.error(
                    span,
                    "White's last move `threat` needs the threat's value as a sixth argument",
                ))
            }
        },
        "gote" => Last::Gote,
        "followed_up" => Last::FollowedUp,
        "other" | "pass" => Last::Other,
        _ => {
            return Err(interp.error(
                &sp(4),
                format!(
                    "unknown last move `{kind}`: expected \"took\", \"answered\", \"connected\", \"threat\", \"gote\", \"followed_up\", \"other\" or \"pass\""
                ),
            ))
        }
    };
    if !matches!(last, Last::Threat(_) | Last::ConnectedKo { .. }) {
        needs_no_value(interp)?;
    }
    let pos = KoFight::new(k, black, white, moves);
    let bad = |interp: &Interp, e: kofight::KoFightError| interp.error(span, e.to_string());
    pos.validate().map_err(|e| bad(interp, e))?;
    Ok((pos, last))
}

/// `(move: "threat", value: 16)`: a move's kind and value.
fn move_fields(m: &Move) -> (Value, Value) {
    let (kind, v) = match m {
        Move::Threat(t) => ("threat", Some(t)),
        Move::Retake => ("retake", None),
        Move::Connect => ("connect", None),
        Move::Answer => ("answer", None),
        Move::FollowUp(t) => ("follow_up", Some(t)),
        Move::Gote(x) => ("gote", Some(x)),
        Move::Pass => ("pass", None),
    };
    (Value::str(kind), v.map_or(Value::Unit, int))
}

fn advice_value(a: &Advice) -> Value {
    let (mv, value) = move_fields(&a.mv);
    let mut fields = vec![
        ("case", Value::int(a.case as i64)),
        ("move", mv),
        ("value", value),
        ("profit", opt_int(&a.claim.profit().cloned())),
        ("claim", Value::str(a.claim.kind())),
        ("fitting", Value::Bool(a.fitting)),
    ];
    if let Some(d) = &a.distribution {
        fields.extend([
            ("distribution", Value::int(d.number as i64)),
            ("bktvl", int(&d.bktvl)),
            ("wktvl", int(&d.wktvl)),
            ("m", Value::int(d.m as i64)),
            ("n", Value::int(d.n as i64)),
            ("step", opt_int(&d.step)),
            ("b1", opt_int(&d.b1)),
            ("bu", opt_int(&d.bu)),
        ]);
    }
    Value::record("record", fields)
}

/// Both builtins share the position read from the arguments.
fn kofight(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (name, span) = (c.name, c.span);
    let (pos, last) = position(interp, &c.args, c.spans, span)?;
    let reading = reading_of(interp, c)?;
    match name {
        "kofight_advice" => {
            let a = kofight::advice_read(&pos, &last, reading)
                .map_err(|e| interp.error(span, e.to_string()))?;
            Ok(advice_value(&a))
        }
        "kofight_solve" => {
            let a = kofight::advice_read(&pos, &last, reading)
                .map_err(|e| interp.error(span, e.to_string()))?;
            let budget = c.budget(interp, crate::play::DEFAULT_BUDGET)?;
            let opts = crate::ko::solve::KoSolveOptions::with_budget(budget);
            let ex =
                kofight::exact::exact(&mut interp.store, &pos, &last, &opts).map_err(
                    |e| match e {
                        e @ (KoSolveError::NodeBudget { .. } | KoSolveError::Interrupted) => {
                            super::kosolve::ko_solve_error(interp, e, span)
                        }
                        e => interp.error(span, format!("the exact solver failed: {e}")),
                    },
                )?;
            let advised = ex.value_of(&a.mv).cloned();
            let moves = ex
                .moves
                .iter()
                .map(|(m, v)| {
                    let (kind, value) = move_fields(m);
                    Value::record(
                        "record",
                        vec![
                            ("move", kind),
                            ("value", value),
                            ("score", Value::Rational(v.clone())),
                        ],
                    )
                })
                .collect();
            let best = ex
                .best()
                .iter()
                .map(|m| Value::str(&m.to_string()))
                .collect();
            let holds = advised.as_ref().is_some_and(|v| a.claim.holds_for(v));
            Ok(Value::record(
                "record",
                vec![
                    ("optimum", Value::Rational(ex.optimum.clone())),
                    ("best", Value::list(best)),
                    ("advice", Value::str(&a.mv.to_string())),
                    (
                        "advised",
                        advised.clone().map_or(Value::Unit, Value::Rational),
                    ),
                    (
                        "optimal",
                        Value::Bool(advised.as_ref() == Some(&ex.optimum)),
                    ),
                    ("profit", opt_int(&a.claim.profit().cloned())),
                    ("claim", Value::str(a.claim.kind())),
                    ("claim_holds", Value::Bool(holds)),
                    ("moves", Value::list(moves)),
                    ("nodes", Value::int(ex.nodes as i64)),
                ],
            ))
        }
        _ => Err(interp.error(span, format!("unknown ko-fight builtin `{name}`"))),
    }
}

/// The largest grid `kofight_grid` takes (positions), about a minute of
/// work in release.
const GRID_LIMIT: u64 = 20_000_000;

fn last_name(last: &Last) -> &'static str {
    match last {
        Last::TookKo => "took",
        Last::AnsweredThreat => "answered",
        Last::ConnectedKo { .. } => "connected",
        Last::Threat(_) => "threat",
        Last::Gote => "gote",
        Last::FollowedUp => "followed_up",
        Last::Other => "other",
    }
}

fn sixths(v: i64) -> Value {
    Value::Rational(BigRational::new(BigInt::from(v), BigInt::from(6)))
}

fn small_list(v: &[u8]) -> Value {
    Value::list(v.iter().map(|&x| Value::int(x as i64)).collect())
}

/// A grid position as a record: the arguments of `kofight_solve` (`k`,
/// `black`, `white`, `moves`, `last`, `t`) and the verdict.
fn instance_value(i: &Instance) -> Value {
    let t = match &i.last {
        Last::Threat(w) | Last::ConnectedKo { pending: Some(w) } => Some(w),
        _ => None,
    };
    Value::record(
        "record",
        vec![
            ("k", Value::int(i.k as i64)),
            ("black", small_list(&i.black)),
            ("white", small_list(&i.white)),
            ("moves", small_list(&i.moves)),
            ("last", Value::str(last_name(&i.last))),
            // `t` is the sixth argument of `kofight_solve` when `has_t`.
            ("has_t", Value::Bool(t.is_some())),
            ("t", t.map_or(Value::Unit, int)),
            ("advice", Value::str(&i.advice.to_string())),
            ("advised", sixths(i.advised)),
            ("optimum", sixths(i.optimum)),
            (
                "best",
                Value::list(i.best.iter().map(|m| Value::str(&m.to_string())).collect()),
            ),
            ("claim", Value::str(i.claim.kind())),
            ("profit", opt_int(&i.claim.profit().cloned())),
        ],
    )
}

fn rule_value(r: &RuleResult) -> Value {
    let opt = |i: &Option<Instance>| i.as_ref().map_or(Value::Unit, instance_value);
    Value::record(
        "record",
        vec![
            ("rule", Value::str(r.rule)),
            ("reading", Value::str(r.reading.map_or("-", |f| f.symbol()))),
            ("tested", Value::int(r.tested as i64)),
            ("holds", Value::int(r.holds as i64)),
            ("fails", Value::int(r.fails as i64)),
            ("max_loss", sixths(r.max_loss)),
            ("failure", opt(&r.smallest_failure)),
            ("holding", opt(&r.smallest_holding)),
        ],
    )
}

fn grid_call(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, spans, span) = (&c.args, c.spans, c.span);
    let sp = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    let mut nums = [0u64; 5];
    let limits = [
        ("k_max", 1, grid::MAX_VALUE as u64),
        ("threats", 0, grid::MAX_LIST as u64),
        ("threat_max", 1, grid::MAX_VALUE as u64),
        ("moves", 0, grid::MAX_LIST as u64),
        ("move_max", 1, grid::MAX_VALUE as u64),
    ];
    for (i, (what, lo, hi)) in limits.iter().enumerate() {
        let n = interp.to_integer(&args[i], &sp(i))?;
        match n.to_u64() {
            Some(v) if v >= *lo && v <= *hi => nums[i] = v,
            _ => {
                return Err(interp.error(
                    &sp(i),
                    format!("{what} must be an integer from {lo} to {hi}, found {n}"),
                ))
            }
        }
    }
    let spec = GridSpec {
        k_max: nums[0] as u8,
        threats: nums[1] as usize,
        threat_max: nums[2] as u8,
        moves: nums[3] as usize,
        move_max: nums[4] as u8,
    };
    let size = spec.size();
    if size > GRID_LIMIT {
        return Err(interp.error(
            span,
            format!("the grid has {size} positions, more than the {GRID_LIMIT} kofight_grid takes"),
        ));
    }
    let stop = interp.interrupt_flag();
    let report = grid::check_grid(&spec, &stop).map_err(|_| super::Stop::Interrupted)?;
    Ok(Value::record(
        "record",
        vec![
            ("instances", Value::int(report.instances as i64)),
            (
                "rules",
                Value::list(report.rules.iter().map(rule_value).collect()),
            ),
        ],
    ))
}
