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
use crate::ko::kofight::{self, Advice, KoFight, Last, Move};
use crate::ko::solve::KoSolveError;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;
use std::rc::Rc;

pub(super) const BUILTINS: &[Builtin] = &[KOFIGHT_SOLVE, KOFIGHT_ADVICE];

const KOFIGHT_SOLVE: Builtin = Builtin {
    name: "kofight_solve",
    params: "k, black_threats, white_threats, moves, last[, t]",
    arity: (5, 6),
    named: &[registry::budget("20 000 000 nodes")],
    returns: "a record: optimum, best, advice, advised, optimal, profit, claim, claim_holds, moves, nodes",
    help: "the ko fight of the one-point ko paper (Berlekamp's rule for a one-point ko with threats) solved exactly: the optimum, each first move's score, and whether the paper's advice is optimal and its claim holds",
    example: "kofight_solve(4, [6], [5], [2], \"took\")[\"optimum\"]",
    takes_kos: false,
    run: kofight,
};
const KOFIGHT_ADVICE: Builtin = Builtin {
    name: "kofight_advice",
    named: &[],
    returns: "a record: the advised move and the profit the paper predicts",
    help: "the move the one-point ko rule advises for Black after White's `last` (\"took\", \"answered\", \"connected\", \"threat\", \"gote\", \"followed_up\", \"other\")",
    example: "kofight_advice(4, [6], [5], [2], \"took\")",
    ..KOFIGHT_SOLVE
};

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
    match name {
        "kofight_advice" => {
            let a = kofight::advice(&pos, &last).map_err(|e| interp.error(span, e.to_string()))?;
            Ok(advice_value(&a))
        }
        "kofight_solve" => {
            let a = kofight::advice(&pos, &last).map_err(|e| interp.error(span, e.to_string()))?;
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
                    ("best", Value::List(Rc::new(best))),
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
                    ("moves", Value::List(Rc::new(moves))),
                    ("nodes", Value::int(ex.nodes as i64)),
                ],
            ))
        }
        _ => Err(interp.error(span, format!("unknown ko-fight builtin `{name}`"))),
    }
}
