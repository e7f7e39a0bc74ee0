//! Builtin functions. Names are snake_case; CGSuite's `Tiny`/`Miny` are accepted
//! as notation.

use super::value::Value;
use super::{EvalResult, Interp, Span};
use crate::diag::Diagnostic;
use crate::game::{GameId, Outcome};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// Every builtin with a one-line description (shown by `:help`).
pub const BUILTINS: &[(&str, &str)] = &[
    ("canonical", "canonical(G): the canonical form of G"),
    (
        "left_options",
        "left_options(G): the canonical Left options, as a list",
    ),
    (
        "right_options",
        "right_options(G): the canonical Right options, as a list",
    ),
    ("birthday", "birthday(G): the birthday of G"),
    (
        "outcome",
        "outcome(G): \"L\", \"R\", \"P\" (second player wins) or \"N\" (first player wins)",
    ),
    ("left_stop", "left_stop(G): the Left stop"),
    ("right_stop", "right_stop(G): the Right stop"),
    ("is_number", "is_number(G): G is a number"),
    ("is_integer", "is_integer(G): G is an integer"),
    ("is_infinitesimal", "is_infinitesimal(G): both stops are 0"),
    (
        "is_numberish",
        "is_numberish(G): G is a number plus an infinitesimal (equal stops)",
    ),
    (
        "relation",
        "relation(G, H): \"=\", \"<\", \">\" or \"<>\" (confused)",
    ),
    (
        "tiny",
        "tiny(x): {0 || 0 | -x}, for any game x (also Tiny, ⧾)",
    ),
    (
        "miny",
        "miny(x): {x | 0 || 0}, for any game x (also Miny, ⧿)",
    ),
    ("Tiny", "Tiny(x): CGSuite's spelling of tiny(x)"),
    ("Miny", "Miny(x): CGSuite's spelling of miny(x)"),
    ("up_nth", "up_nth(n): ↑^n, also written ^<n>"),
    (
        "uptimal",
        "uptimal(n): ↑ + ↑^2 + … + ↑^n, also written ^[n]",
    ),
    ("nimber", "nimber(n): *n"),
    ("switch", "switch(G): ±G = {G | -G}"),
    (
        "components",
        "components(G): the components of a sum kept unsimplified (such as `board`)",
    ),
    ("len", "len(xs): length of a list or string"),
    ("push", "push(xs, v): a new list with v appended"),
    ("concat", "concat(xs, ys): the two lists joined"),
    ("range", "range(a, b): the list [a, a+1, …, b-1]"),
    ("reverse", "reverse(xs): the list reversed"),
    ("sort", "sort(xs): numbers ascending, or strings in alphabetical order"),
    ("sum", "sum(xs): the sum of a list of games or numbers"),
    ("min", "min(xs) or min(a, b): the least of some numbers"),
    ("max", "max(xs) or max(a, b): the greatest of some numbers"),
    ("map", "map(f, xs): [f(x) for x in xs]"),
    ("filter", "filter(f, xs): the x in xs with f(x) true"),
    ("all", "all(xs): every element is true"),
    ("any", "any(xs): some element is true"),
    ("contains", "contains(xs, v): v == some element of xs"),
    ("abs", "abs(x): absolute value of a number"),
    ("pow", "pow(x, n): x to the integer power n"),
    ("floor", "floor(x): the greatest integer ≤ x"),
    ("ceil", "ceil(x): the least integer ≥ x"),
    ("str", "str(v): v as text"),
    (
        "mean",
        "mean(G): the mean (mast value of the thermograph); of a sum, the sum of the means",
    ),
    (
        "temperature",
        "temperature(G): where the thermograph's walls meet (integers -1, m/2^k: -1/2^k); \
         of a sum, from the components when the hottest is alone (else from sums of the tied ones)",
    ),
    ("temp", "temp(G): alias of temperature"),
    (
        "thermograph",
        "thermograph(G): both walls as exact pieces and the mast",
    ),
    (
        "cool",
        "cool(G, t): G cooled by a dyadic t > -1 (below 0, subzero cooling as in CGSuite)",
    ),
    ("freeze", "freeze(G): G cooled by its temperature"),
    ("heat", "heat(G, t): G heated by t"),
    ("overheat", "overheat(G, s, t): G overheated from s to t"),
    (
        "chill",
        "chill(G): Go chilling (cool by 1, keeping m and m* as m)",
    ),
    (
        "warm",
        "warm(G): Go warming, the inverse of chilling on even elementary values",
    ),
    ("norton", "norton(G, U): the Norton product G.U"),
    (
        "left_incentives",
        "left_incentives(G): G^L - G for each Left option",
    ),
    (
        "right_incentives",
        "right_incentives(G): G - G^R for each Right option",
    ),
    (
        "incentives",
        "incentives(G): all incentives with the dominated ones removed",
    ),
    (
        "atomic_weight",
        "atomic_weight(G): the atomic weight of an infinitesimal G",
    ),
    ("aw", "aw(G): alias of atomic_weight"),
    (
        "rcf",
        "rcf(G): the reduced canonical form (simplest game infinitesimally close to G)",
    ),
    (
        "zero_prefix",
        "zero_prefix(n, G): Berlekamp's 0^n G for a tiny or miny G",
    ),
    (
        "is_even",
        "is_even(G): G is even (Mathematical Go's parity of elementary values)",
    ),
    ("is_odd", "is_odd(G): G is odd"),
    (
        "is_all_small",
        "is_all_small(G): every position with a move for one player has one for the other",
    ),
    ("swing", "swing(G): left stop minus right stop"),
    ("svg", "svg(T, \"file.svg\"): write thermograph(s) T (a thermograph, a game, or a list of them) as an SVG plot, or the board of an analysis (svg(analyse(Q), \"board.svg\"))"),
    ("sketch", "sketch(T): a small terminal drawing of a thermograph (or of a game's thermograph), or of the board of an analysis"),
];

pub fn lookup(name: &str) -> Option<&'static str> {
    all().find(|(n, _)| *n == name).map(|(n, _)| *n)
}

pub fn names() -> impl Iterator<Item = &'static str> {
    all().map(|(n, _)| *n)
}

/// Every builtin with its description, the play questions included.
pub fn all() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    BUILTINS
        .iter()
        .chain(super::play::PLAY_BUILTINS.iter())
        .chain(super::go::GO_BUILTINS.iter())
        .chain(super::sgf::SGF_BUILTINS.iter())
        .chain(super::ko::KO_BUILTINS.iter())
        .chain(super::kofight::KOFIGHT_BUILTINS.iter())
        .chain(super::kosolve::KOSOLVE_BUILTINS.iter())
        .chain(super::analyse::ANALYSE_BUILTINS.iter())
        .chain(super::korules::KORULES_BUILTINS.iter())
        .chain(super::ultimate::ULTIMATE_BUILTINS.iter())
}

fn arity(
    interp: &Interp,
    name: &str,
    args: &[Value],
    min: usize,
    max: usize,
    span: &Span,
) -> EvalResult<()> {
    check_arity(interp, BUILTINS, name, args.len(), min, max, span)
}

fn games_to_list(ids: &[GameId]) -> Value {
    Value::list(ids.iter().map(|g| Value::game(*g)).collect())
}

pub fn call(
    interp: &mut Interp,
    name: &'static str,
    args: Vec<Value>,
    spans: &[Span],
    span: &Span,
) -> EvalResult<Value> {
    // A position holding a ko is its chilled ko value for the builtins that
    // take kos (README, "A position used where a game is expected").
    let args = if super::play::is_play_builtin(name)
        || super::ko::takes_kos(name)
        || super::kosolve::is_kosolve_builtin(name)
    {
        interp.ko_views(args, spans, span)?
    } else {
        args
    };
    if super::play::is_play_builtin(name) {
        return super::play::call(interp, name, args, spans, span);
    }
    if super::kofight::is_kofight_builtin(name) {
        return super::kofight::call(interp, name, args, spans, span);
    }
    if let Some(v) = super::ko::call(interp, name, &args, spans, span)? {
        return Ok(v);
    }
    if let Some(v) = super::kosolve::call(interp, name, &args, spans, span)? {
        return Ok(v);
    }
    if super::ultimate::is_ultimate_builtin(name) {
        return super::ultimate::call(interp, name, args, spans, span);
    }
    if super::analyse::is_analyse_builtin(name) {
        return super::analyse::call(interp, name, args, spans, span);
    }
    if super::korules::is_korules_builtin(name) {
        return super::korules::call(interp, name, args, spans, span);
    }
    if super::go::is_go_builtin(name) {
        return super::go::call(interp, name, args, spans, span);
    }
    if super::sgf::is_sgf_builtin(name) {
        return super::sgf::call(interp, name, args, spans, span);
    }
    interp.named_args.clear();
    let sp = |i: usize| spans.get(i).cloned().unwrap_or_else(|| span.clone());
    let one_arg = matches!(
        name,
        "canonical"
            | "left_options"
            | "right_options"
            | "birthday"
            | "outcome"
            | "left_stop"
            | "right_stop"
            | "is_number"
            | "is_integer"
            | "is_infinitesimal"
            | "is_numberish"
            | "tiny"
            | "miny"
            | "Tiny"
            | "Miny"
            | "up_nth"
            | "uptimal"
            | "nimber"
            | "switch"
            | "components"
            | "len"
            | "reverse"
            | "sum"
            | "all"
            | "any"
            | "abs"
            | "floor"
            | "ceil"
            | "str"
            | "mean"
            | "temperature"
            | "temp"
            | "thermograph"
            | "freeze"
            | "chill"
            | "warm"
            | "left_incentives"
            | "right_incentives"
            | "incentives"
            | "atomic_weight"
            | "aw"
            | "rcf"
            | "is_even"
            | "is_odd"
            | "is_all_small"
            | "swing"
            | "sketch"
    );
    if one_arg {
        arity(interp, name, &args, 1, 1, span)?;
    }
    let cg = |interp: &Interp, e| interp.cg_error(e, span);
    match name {
        "canonical" => Ok(Value::game(interp.game_of(&args[0], &sp(0))?)),
        "left_options" | "right_options" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let (l, r) = interp.store.options(g);
            Ok(games_to_list(if name == "left_options" { &l } else { &r }))
        }
        "birthday" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let b = interp.store.birthday(g).map_err(|e| cg(interp, e))?;
            Ok(Value::Rational(b.into()))
        }
        "outcome" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let o = interp.store.outcome(g).map_err(|e| cg(interp, e))?;
            Ok(Value::str(match o {
                Outcome::Left => "L",
                Outcome::Right => "R",
                Outcome::Previous => "P",
                Outcome::Next => "N",
            }))
        }
        "left_stop" | "right_stop" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let s = if name == "left_stop" {
                interp.store.left_stop(g)
            } else {
                interp.store.right_stop(g)
            };
            Ok(Value::from_dyadic(&s.map_err(|e| cg(interp, e))?))
        }
        "is_number" | "is_integer" => {
            if let Value::Rational(r) = &args[0] {
                return Ok(Value::Bool(if name == "is_integer" {
                    r.is_integer()
                } else {
                    true
                }));
            }
            let g = interp.game_of(&args[0], &sp(0))?;
            let x = interp.store.as_number(g);
            Ok(Value::Bool(if name == "is_integer" {
                x.is_some_and(|x| x.is_integer())
            } else {
                x.is_some()
            }))
        }
        "is_infinitesimal" | "is_numberish" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let r = if name == "is_infinitesimal" {
                interp.store.is_infinitesimal(g)
            } else {
                interp.store.is_numberish(g)
            };
            Ok(Value::Bool(r.map_err(|e| cg(interp, e))?))
        }
        "relation" => {
            arity(interp, name, &args, 2, 2, span)?;
            let rel = interp.relation(&args[0], &args[1], span)?;
            Ok(Value::str(match rel {
                crate::game::Relation::Equal => "=",
                crate::game::Relation::Less => "<",
                crate::game::Relation::Greater => ">",
                crate::game::Relation::Confused => "<>",
            }))
        }
        "tiny" | "Tiny" | "miny" | "Miny" => {
            // Any game, as in CGSuite, which prints `4Tiny({1|0})`: tinies
            // of non-positive games are still games.
            let x = interp.game_of(&args[0], &sp(0))?;
            let r = if name.eq_ignore_ascii_case("tiny") {
                interp.store.tiny(x)
            } else {
                interp.store.miny(x)
            };
            Ok(Value::game(r.map_err(|e| cg(interp, e))?))
        }
        "up_nth" | "uptimal" => {
            let n = interp.to_integer(&args[0], &sp(0))?;
            let k = n
                .to_u32()
                .filter(|k| (1..=4096).contains(k))
                .ok_or_else(|| {
                    interp.error(
                        &sp(0),
                        format!("the order must be between 1 and 4096, found {n}"),
                    )
                })?;
            let r = if name == "up_nth" {
                interp.store.up_nth(k)
            } else {
                interp.store.uptimal(k)
            };
            Ok(Value::game(r.map_err(|e| cg(interp, e))?))
        }
        "nimber" => {
            let n = interp.to_integer(&args[0], &sp(0))?;
            let k = n.to_u64().ok_or_else(|| {
                interp.error(
                    &sp(0),
                    format!("a nimber `*n` needs 0 ≤ n < 2^64, found {n}"),
                )
            })?;
            Ok(Value::game(interp.store.nimber(k)))
        }
        "switch" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            Ok(Value::game(
                interp.store.switch(g).map_err(|e| cg(interp, e))?,
            ))
        }
        "components" => {
            let s = interp.game_sum_of(&args[0], &sp(0))?;
            Ok(games_to_list(s.parts()))
        }
        "len" => match &args[0] {
            Value::List(xs) => Ok(Value::int(xs.len() as i64)),
            Value::Str(s) => Ok(Value::int(s.chars().count() as i64)),
            other => Err(interp.error(
                &sp(0),
                format!("`len` needs a list or string, found {}", other.kind()),
            )),
        },
        "push" => {
            arity(interp, name, &args, 2, 2, span)?;
            let mut xs = expect_list(interp, &args[0], &sp(0))?;
            xs.push(args[1].clone());
            Ok(Value::list(xs))
        }
        "concat" => {
            arity(interp, name, &args, 2, 2, span)?;
            let mut xs = expect_list(interp, &args[0], &sp(0))?;
            xs.extend(expect_list(interp, &args[1], &sp(1))?);
            Ok(Value::list(xs))
        }
        "range" => {
            arity(interp, name, &args, 2, 2, span)?;
            let a = interp.to_integer(&args[0], &sp(0))?;
            let b = interp.to_integer(&args[1], &sp(1))?;
            if (&b - &a) > BigInt::from(10_000_000) {
                return Err(interp.error(span, "range longer than 10 000 000 elements"));
            }
            let mut out = Vec::new();
            let mut i = a;
            while i < b {
                out.push(Value::Rational(i.clone().into()));
                i += 1;
            }
            Ok(Value::list(out))
        }
        "sort" => {
            arity(interp, name, &args, 1, 1, span)?;
            let xs = expect_list(interp, &args[0], &sp(0))?;
            if xs.iter().all(|x| matches!(x, Value::Str(_))) {
                let mut v: Vec<Rc<str>> = xs
                    .iter()
                    .filter_map(|x| match x {
                        Value::Str(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                v.sort();
                return Ok(Value::list(v.into_iter().map(Value::Str).collect()));
            }
            let mut keyed = Vec::with_capacity(xs.len());
            for x in xs {
                keyed.push((interp.to_rational(&x, &sp(0))?, x));
            }
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(Value::list(keyed.into_iter().map(|(_, x)| x).collect()))
        }
        "reverse" => {
            let mut xs = expect_list(interp, &args[0], &sp(0))?;
            xs.reverse();
            Ok(Value::list(xs))
        }
        "sum" => {
            let xs = expect_list(interp, &args[0], &sp(0))?;
            let mut acc = Value::int(0);
            for x in xs {
                acc = interp.binary_values(
                    crate::syntax::ast::BinOp::Add,
                    acc,
                    x,
                    &sp(0),
                    &sp(0),
                    span,
                )?;
            }
            Ok(acc)
        }
        "min" | "max" => {
            let xs = if args.len() == 1 {
                expect_list(interp, &args[0], &sp(0))?
            } else {
                args.clone()
            };
            if xs.is_empty() {
                return Err(interp.error(span, format!("`{name}` of an empty list")));
            }
            let mut best = interp.to_rational(&xs[0], &sp(0))?;
            for x in &xs[1..] {
                let r = interp.to_rational(x, &sp(0))?;
                if (name == "min" && r < best) || (name == "max" && r > best) {
                    best = r;
                }
            }
            Ok(Value::Rational(best))
        }
        "map" | "filter" => {
            arity(interp, name, &args, 2, 2, span)?;
            let xs = expect_list(interp, &args[1], &sp(1))?;
            let mut out = Vec::with_capacity(xs.len());
            for x in xs {
                let r =
                    interp.apply(&args[0], "the function", vec![x.clone()], &[sp(1)], &sp(0))?;
                if name == "map" {
                    out.push(r);
                } else if interp.bool_of(&r, &sp(0))? {
                    out.push(x);
                }
            }
            Ok(Value::list(out))
        }
        "all" | "any" => {
            let xs = expect_list(interp, &args[0], &sp(0))?;
            let mut acc = name == "all";
            for x in xs {
                let b = interp.bool_of(&x, &sp(0))?;
                if name == "all" {
                    acc &= b;
                } else {
                    acc |= b;
                }
            }
            Ok(Value::Bool(acc))
        }
        "contains" => {
            arity(interp, name, &args, 2, 2, span)?;
            let xs = expect_list(interp, &args[0], &sp(0))?;
            for x in xs {
                if interp
                    .compare_op(crate::syntax::ast::CmpOp::Eq, &x, &args[1], span)
                    .unwrap_or(false)
                {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        "abs" | "floor" | "ceil" => {
            let r = interp.to_rational(&args[0], &sp(0))?;
            Ok(Value::Rational(match name {
                "abs" => r.abs(),
                "floor" => r.floor(),
                _ => r.ceil(),
            }))
        }
        "pow" => {
            arity(interp, name, &args, 2, 2, span)?;
            let x = interp.to_rational(&args[0], &sp(0))?;
            let n = interp.to_integer(&args[1], &sp(1))?;
            let k = n
                .abs()
                .to_u32()
                .filter(|k| *k <= 100_000)
                .ok_or_else(|| interp.error(&sp(1), "exponent too large (at most 100000)"))?;
            if n.is_negative() && x.is_zero() {
                return Err(interp.error(span, "division by zero"));
            }
            let p = num_traits::pow(x, k as usize);
            Ok(Value::Rational(if n.is_negative() {
                BigRational::from_integer(1.into()) / p
            } else {
                p
            }))
        }
        "str" => Ok(Value::str(&interp.display(&args[0])?)),
        "svg" => {
            arity(interp, name, &args, 2, 2, span)?;
            if let Some(text) = super::analyse::picture(interp, &args[0], true)? {
                let Value::Str(path) = &args[1] else {
                    return Err(interp.error(
                        &sp(1),
                        format!("`svg` needs a file name string, found {}", args[1].kind()),
                    ));
                };
                write_atomically(path, &text)
                    .map_err(|e| interp.error(&sp(1), format!("cannot write {path}: {e}")))?;
                return Ok(Value::Str(path.clone()));
            }
            let items = match &args[0] {
                Value::List(xs) => (**xs).clone(),
                other => vec![other.clone()],
            };
            let mut plots = Vec::with_capacity(items.len());
            for item in &items {
                plots.push(thermograph_of(interp, item, &sp(0))?);
            }
            let path = match &args[1] {
                Value::Str(p) => p.to_string(),
                other => {
                    return Err(interp.error(
                        &sp(1),
                        format!("`svg` needs a file name string, found {}", other.kind()),
                    ))
                }
            };
            let refs: Vec<(String, &crate::game::Thermograph)> =
                plots.iter().map(|(l, t)| (l.to_string(), &**t)).collect();
            let text = crate::render::thermograph::svg(&refs);
            write_atomically(&path, &text)
                .map_err(|e| interp.error(&sp(1), format!("cannot write {path}: {e}")))?;
            Ok(Value::str(&path))
        }
        "sketch" => {
            if let Some(text) = super::analyse::picture(interp, &args[0], false)? {
                return Ok(Value::str(&text));
            }
            let (_, t) = thermograph_of(interp, &args[0], &sp(0))?;
            Ok(Value::str(&crate::render::thermograph::sketch(&t, 40, 12)))
        }
        // A sum answers from its components (no canonical form of the sum).
        "mean" => {
            let parts = interp.game_sum_of(&args[0], &sp(0))?;
            let m = interp.store.sum_mean(parts.parts());
            Ok(Value::from_dyadic(&m.map_err(|e| cg(interp, e))?))
        }
        "temperature" | "temp" => {
            let parts = interp.game_sum_of(&args[0], &sp(0))?;
            let t = interp.store.sum_temperature(parts.parts());
            Ok(Value::Rational(t.map_err(|e| cg(interp, e))?))
        }
        "thermograph" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let t = interp.store.thermograph(g).map_err(|e| cg(interp, e))?;
            let label = interp.display(&args[0])?;
            Ok(Value::Thermograph(t, Rc::from(label)))
        }
        "swing" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let l = interp.store.left_stop(g).map_err(|e| cg(interp, e))?;
            let r = interp.store.right_stop(g).map_err(|e| cg(interp, e))?;
            Ok(Value::from_dyadic(&l.sub(&r)))
        }
        "cool" => {
            arity(interp, name, &args, 2, 2, span)?;
            let g = interp.game_of(&args[0], &sp(0))?;
            let t = interp.to_rational(&args[1], &sp(1))?;
            let minus_one = num_rational::BigRational::from_integer((-1).into());
            let t =
                match super::value::rational_to_dyadic(&t) {
                    Some(d) if t > minus_one => d,
                    Some(_) => return Err(interp.error_with(
                        crate::diag::Diagnostic::error(format!(
                            "cooling is defined for t > -1 only, found {}",
                            super::format_rational(&t)
                        ))
                        .with_label(sp(1).clone(), "t ≤ -1")
                        .with_note(
                            "below 0 this is subzero cooling (as in CGSuite), which stops at -1",
                        )
                        .with_help(format!(
                            "to heat by {}, write `heat(G, {})`",
                            super::format_rational(&-t.clone()),
                            super::format_rational(&-t)
                        )),
                    )),
                    None => {
                        return Err(interp.error(
                            &sp(1),
                            format!(
                            "cooling needs a number t with a power-of-two denominator, found {}",
                            super::format_rational(&t)
                        ),
                        ))
                    }
                };
            Ok(Value::game(
                interp.store.cool(g, &t).map_err(|e| cg(interp, e))?,
            ))
        }
        "freeze" | "chill" | "warm" | "rcf" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let r = match name {
                "freeze" => interp.store.freeze(g),
                "chill" => interp.store.chill(g),
                "warm" => interp.store.warm(g),
                _ => interp.store.rcf(g),
            };
            Ok(Value::game(r.map_err(|e| cg(interp, e))?))
        }
        "heat" | "norton" => {
            arity(interp, name, &args, 2, 2, span)?;
            let g = interp.game_of(&args[0], &sp(0))?;
            let t = interp.game_of(&args[1], &sp(1))?;
            let r = if name == "heat" {
                interp.store.heat(g, t)
            } else {
                interp.store.norton(g, t)
            };
            Ok(Value::game(r.map_err(|e| cg(interp, e))?))
        }
        "overheat" => {
            arity(interp, name, &args, 3, 3, span)?;
            let g = interp.game_of(&args[0], &sp(0))?;
            let a = interp.game_of(&args[1], &sp(1))?;
            let b = interp.game_of(&args[2], &sp(2))?;
            Ok(Value::game(
                interp.store.overheat(g, a, b).map_err(|e| cg(interp, e))?,
            ))
        }
        "left_incentives" | "right_incentives" | "incentives" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let r: Vec<GameId> = match name {
                "left_incentives" => interp.store.left_incentives(g).map_err(|e| cg(interp, e))?,
                "right_incentives" => interp
                    .store
                    .right_incentives(g)
                    .map_err(|e| cg(interp, e))?,
                _ => interp
                    .store
                    .incentives(g)
                    .map_err(|e| cg(interp, e))?
                    .to_vec(),
            };
            Ok(games_to_list(&r))
        }
        "atomic_weight" | "aw" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            match interp.store.atomic_weight(g) {
                Ok(w) => Ok(Value::game(w)),
                Err(crate::game::AtomicWeightError::Interrupted) => Err(super::Stop::Interrupted),
                Err(e) => {
                    let shown = interp.display(&args[0])?;
                    Err(interp.error(&sp(0), format!("atomic weight of {shown}: {e}")))
                }
            }
        }
        "zero_prefix" => {
            arity(interp, name, &args, 2, 2, span)?;
            let n = interp.to_integer(&args[0], &sp(0))?;
            let k = n.to_u32().filter(|k| *k <= 4096).ok_or_else(|| {
                interp.error(&sp(0), format!("0^n needs 0 ≤ n ≤ 4096, found {n}"))
            })?;
            let g = interp.game_of(&args[1], &sp(1))?;
            Ok(Value::game(
                interp.store.zero_prefix(k, g).map_err(|e| cg(interp, e))?,
            ))
        }
        "is_even" | "is_odd" | "is_all_small" => {
            let g = interp.game_of(&args[0], &sp(0))?;
            let r = match name {
                "is_even" => interp.store.is_even(g),
                "is_odd" => interp.store.is_odd(g),
                _ => interp.store.is_all_small(g),
            };
            Ok(Value::Bool(r.map_err(|e| cg(interp, e))?))
        }
        _ => Err(interp.error(span, format!("builtin `{name}` is not implemented"))),
    }
}

fn expect_list(interp: &Interp, v: &Value, span: &Span) -> EvalResult<Vec<Value>> {
    match v {
        Value::List(xs) => Ok((**xs).clone()),
        other => Err(interp.error(span, format!("expected a list, found {}", other.kind()))),
    }
}

/// A thermograph value, or the thermograph of a game, with its label.
fn thermograph_of(
    interp: &mut Interp,
    v: &Value,
    span: &Span,
) -> EvalResult<(Rc<str>, Rc<crate::game::Thermograph>)> {
    if let Value::Thermograph(t, label) = v {
        return Ok((label.clone(), t.clone()));
    }
    let g = interp.game_of(v, span)?;
    let t = interp
        .store
        .thermograph(g)
        .map_err(|e| interp.cg_error(e, span))?;
    let label = interp.display(v)?;
    Ok((Rc::from(label), t))
}

/// Writes an SVG file as [`crate::files::write_atomic`] does (a temporary
/// file created exclusively, then renamed; targets that are not regular
/// files refused).
fn write_atomically(path: &str, text: &str) -> Result<(), crate::files::FileError> {
    crate::files::write_atomic(std::path::Path::new(path), text.as_bytes())
}

/// `name` must be given `n` arguments; the error quotes its usage line from
/// `table` (a module's builtin table of `(name, usage)`).
pub(crate) fn check_arity(
    interp: &Interp,
    table: &[(&str, &str)],
    name: &str,
    given: usize,
    min: usize,
    max: usize,
    span: &Span,
) -> EvalResult<()> {
    if (min..=max).contains(&given) {
        return Ok(());
    }
    let want = arguments(min, max);
    let usage = table
        .iter()
        .find(|(k, _)| *k == name)
        .map_or("", |(_, d)| *d);
    Err(interp.error_with(
        Diagnostic::error(format!("`{name}` takes {want}, given {given}"))
            .with_label(span.clone(), "wrong number of arguments")
            .with_note(format!("usage: {usage}")),
    ))
}

/// "1 argument", "2 arguments", "1 to 2 arguments".
pub(crate) fn arguments(min: usize, max: usize) -> String {
    let noun = if max == 1 { "argument" } else { "arguments" };
    if min == max {
        format!("{min} {noun}")
    } else {
        format!("{min} to {max} {noun}")
    }
}

/// A `budget:` named argument: a node count.
pub(crate) fn budget_arg(interp: &mut Interp, v: &Value, span: &Span) -> EvalResult<u64> {
    let n = interp.to_integer(v, span)?;
    u64::try_from(n).map_err(|_| interp.error(span, "the budget must be a non-negative integer"))
}
