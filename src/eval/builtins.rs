//! Builtin functions. Names are snake_case; CGSuite's `Tiny`/`Miny` are accepted
//! as notation.

use super::registry::{self, Builtin, Call};
use super::value::{ThermoLabel, Value};
use super::{EvalResult, Interp, Span};
use crate::game::{GameId, Outcome};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// The builtins of games, numbers and lists (the play, Go, SGF and ko
/// builtins are in their own modules).
pub(super) const BUILTINS: &[Builtin] = &[
    CANONICAL,
    LEFT_OPTIONS,
    RIGHT_OPTIONS,
    BIRTHDAY,
    OUTCOME,
    LEFT_STOP,
    RIGHT_STOP,
    IS_NUMBER,
    IS_INTEGER,
    IS_INFINITESIMAL,
    IS_NUMBERISH,
    RELATION,
    TINY,
    MINY,
    TINY_CGSUITE,
    MINY_CGSUITE,
    UP_NTH,
    UPTIMAL,
    NIMBER,
    SWITCH,
    COMPONENTS,
    LEN,
    PUSH,
    CONCAT,
    RANGE,
    REVERSE,
    SORT,
    SUM,
    MIN,
    MAX,
    MAP,
    FILTER,
    ALL,
    ANY,
    CONTAINS,
    ABS,
    POW,
    FLOOR,
    CEIL,
    STR,
    MEAN,
    TEMPERATURE,
    TEMP,
    THERMOGRAPH,
    COOL,
    FREEZE,
    HEAT,
    OVERHEAT,
    CHILL,
    WARM,
    NORTON,
    LEFT_INCENTIVES,
    RIGHT_INCENTIVES,
    INCENTIVES,
    ATOMIC_WEIGHT,
    AW,
    RCF,
    ZERO_PREFIX,
    IS_EVEN,
    IS_ODD,
    IS_ALL_SMALL,
    SWING,
    SVG,
    SKETCH,
];

/// The fields most entries share; each entry names its own.
pub(super) const ONE_GAME: Builtin = Builtin {
    name: "",
    params: "G",
    arity: (1, 1),
    named: &[],
    returns: "a game",
    help: "",
    example: "",
    takes_kos: false,
    run: not_written,
};

fn not_written(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    Err(interp.error(c.span, format!("builtin `{}` has no function", c.name)))
}

fn cg(interp: &Interp, e: crate::game::CgError, c: &Call) -> super::Stop {
    interp.cg_error(e, c.span)
}

fn games_to_list(ids: &[GameId]) -> Value {
    Value::list(ids.iter().map(|g| Value::game(*g)).collect())
}

const CANONICAL: Builtin = Builtin {
    name: "canonical",
    help: "the canonical form of G",
    example: "canonical({0, *|0, *})",
    run: canonical,
    ..ONE_GAME
};
fn canonical(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    Ok(Value::game(interp.game_of(&c.args[0], &c.sp(0))?))
}

const LEFT_OPTIONS: Builtin = Builtin {
    name: "left_options",
    returns: "a list of games",
    help: "the Left options of G's canonical form",
    example: "left_options({1, 0 | -1})",
    run: options,
    ..ONE_GAME
};
const RIGHT_OPTIONS: Builtin = Builtin {
    name: "right_options",
    returns: "a list of games",
    help: "the Right options of G's canonical form",
    example: "right_options({1 | -1, *})",
    run: options,
    ..ONE_GAME
};
fn options(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let (l, r) = interp.store.options(g);
    Ok(games_to_list(if c.name == "left_options" {
        &l
    } else {
        &r
    }))
}

const BIRTHDAY: Builtin = Builtin {
    name: "birthday",
    returns: "an integer",
    help: "the birthday of G (of its canonical form)",
    example: "birthday({1 | -1})",
    run: birthday,
    ..ONE_GAME
};
fn birthday(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let b = interp.store.birthday(g).map_err(|e| cg(interp, e, c))?;
    Ok(Value::Rational(b.into()))
}

const OUTCOME: Builtin = Builtin {
    name: "outcome",
    returns: "a string",
    help:
        "\"L\" (Left wins), \"R\", \"P\" (the second player wins) or \"N\" (the first player wins)",
    example: "outcome(*)",
    run: outcome,
    ..ONE_GAME
};
fn outcome(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let o = interp.store.outcome(g).map_err(|e| cg(interp, e, c))?;
    Ok(Value::str(match o {
        Outcome::Left => "L",
        Outcome::Right => "R",
        Outcome::Previous => "P",
        Outcome::Next => "N",
    }))
}

const LEFT_STOP: Builtin = Builtin {
    name: "left_stop",
    returns: "a number",
    help: "the Left stop: where play ends, Left first, both playing best",
    example: "left_stop({3 | 1})",
    run: stop,
    ..ONE_GAME
};
const RIGHT_STOP: Builtin = Builtin {
    name: "right_stop",
    returns: "a number",
    help: "the Right stop: where play ends, Right first, both playing best",
    example: "right_stop({3 | 1})",
    run: stop,
    ..ONE_GAME
};
fn stop(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let s = if c.name == "left_stop" {
        interp.store.left_stop(g)
    } else {
        interp.store.right_stop(g)
    };
    Ok(Value::from_dyadic(&s.map_err(|e| cg(interp, e, c))?))
}

const IS_NUMBER: Builtin = Builtin {
    name: "is_number",
    returns: "true or false",
    help: "G is a number",
    example: "is_number({0 | 1})",
    run: is_number,
    ..ONE_GAME
};
const IS_INTEGER: Builtin = Builtin {
    name: "is_integer",
    returns: "true or false",
    help: "G is an integer",
    example: "is_integer({2 | })",
    run: is_number,
    ..ONE_GAME
};
fn is_number(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let integer = c.name == "is_integer";
    if let Value::Rational(r) = &c.args[0] {
        return Ok(Value::Bool(!integer || r.is_integer()));
    }
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let x = interp.store.as_number(g);
    Ok(Value::Bool(if integer {
        x.is_some_and(|x| x.is_integer())
    } else {
        x.is_some()
    }))
}

const IS_INFINITESIMAL: Builtin = Builtin {
    name: "is_infinitesimal",
    returns: "true or false",
    help: "both stops of G are 0",
    example: "is_infinitesimal(^*)",
    run: is_infinitesimal,
    ..ONE_GAME
};
const IS_NUMBERISH: Builtin = Builtin {
    name: "is_numberish",
    returns: "true or false",
    help: "G is a number plus an infinitesimal (its stops are equal)",
    example: "is_numberish(1 + ^)",
    run: is_infinitesimal,
    ..ONE_GAME
};
fn is_infinitesimal(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let r = if c.name == "is_infinitesimal" {
        interp.store.is_infinitesimal(g)
    } else {
        interp.store.is_numberish(g)
    };
    Ok(Value::Bool(r.map_err(|e| cg(interp, e, c))?))
}

const RELATION: Builtin = Builtin {
    name: "relation",
    params: "G, H",
    arity: (2, 2),
    returns: "a string",
    help: "how G compares with H: \"=\", \"<\", \">\" or \"<>\" (confused)",
    example: "relation(*, 0)",
    run: relation,
    ..ONE_GAME
};
fn relation(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let rel = interp.relation(&c.args[0], &c.args[1], c.span)?;
    Ok(Value::str(match rel {
        crate::game::Relation::Equal => "=",
        crate::game::Relation::Less => "<",
        crate::game::Relation::Greater => ">",
        crate::game::Relation::Confused => "<>",
    }))
}

const TINY: Builtin = Builtin {
    name: "tiny",
    params: "x",
    help: "{0 || 0 | -x}, for any game x (also written Tiny(x) and ⧾x)",
    example: "tiny(2)",
    run: tiny,
    ..ONE_GAME
};
const MINY: Builtin = Builtin {
    name: "miny",
    params: "x",
    help: "{x | 0 || 0}, for any game x (also written Miny(x) and ⧿x)",
    example: "miny(2)",
    run: tiny,
    ..ONE_GAME
};
const TINY_CGSUITE: Builtin = Builtin {
    name: "Tiny",
    params: "x",
    help: "CGSuite's spelling of tiny(x)",
    example: "Tiny({1 | 0})",
    run: tiny,
    ..ONE_GAME
};
const MINY_CGSUITE: Builtin = Builtin {
    name: "Miny",
    params: "x",
    help: "CGSuite's spelling of miny(x)",
    example: "Miny(1)",
    run: tiny,
    ..ONE_GAME
};
fn tiny(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    // Any game, as in CGSuite, which prints `4Tiny({1|0})`: tinies of
    // non-positive games are still games.
    let x = interp.game_of(&c.args[0], &c.sp(0))?;
    let r = if c.name.eq_ignore_ascii_case("tiny") {
        interp.store.tiny(x)
    } else {
        interp.store.miny(x)
    };
    Ok(Value::game(r.map_err(|e| cg(interp, e, c))?))
}

const UP_NTH: Builtin = Builtin {
    name: "up_nth",
    params: "n",
    help: "↑^n (1 ≤ n ≤ 4096), also written ^<n>",
    example: "up_nth(2)",
    run: up_nth,
    ..ONE_GAME
};
const UPTIMAL: Builtin = Builtin {
    name: "uptimal",
    params: "n",
    help: "↑ + ↑^2 + … + ↑^n (1 ≤ n ≤ 4096), also written ^[n]",
    example: "uptimal(3)",
    run: up_nth,
    ..ONE_GAME
};
fn up_nth(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let n = interp.to_integer(&c.args[0], &c.sp(0))?;
    let k = n
        .to_u32()
        .filter(|k| (1..=4096).contains(k))
        .ok_or_else(|| {
            interp.error(
                &c.sp(0),
                format!("the order must be between 1 and 4096, found {n}"),
            )
        })?;
    let r = if c.name == "up_nth" {
        interp.store.up_nth(k)
    } else {
        interp.store.uptimal(k)
    };
    Ok(Value::game(r.map_err(|e| cg(interp, e, c))?))
}

const NIMBER: Builtin = Builtin {
    name: "nimber",
    params: "n",
    help: "the nimber *n (0 ≤ n < 2^64)",
    example: "nimber(3) + *2",
    run: nimber,
    ..ONE_GAME
};
fn nimber(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let n = interp.to_integer(&c.args[0], &c.sp(0))?;
    let k = n.to_u64().ok_or_else(|| {
        interp.error(
            &c.sp(0),
            format!("a nimber `*n` needs 0 ≤ n < 2^64, found {n}"),
        )
    })?;
    Ok(Value::game(interp.store.nimber(k)))
}

const SWITCH: Builtin = Builtin {
    name: "switch",
    help: "±G = {G | -G}",
    example: "switch(3)",
    run: switch,
    ..ONE_GAME
};
fn switch(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    Ok(Value::game(
        interp.store.switch(g).map_err(|e| cg(interp, e, c))?,
    ))
}

const COMPONENTS: Builtin = Builtin {
    name: "components",
    params: "S",
    returns: "a list of games",
    help: "the components of a sum kept unsimplified (such as `board`)",
    example: "components(+-1 + +-2)",
    run: components,
    ..ONE_GAME
};
fn components(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let s = interp.game_sum_of(&c.args[0], &c.sp(0))?;
    Ok(games_to_list(s.parts()))
}

const LEN: Builtin = Builtin {
    name: "len",
    params: "xs",
    returns: "an integer",
    help: "the length of a list or string",
    example: "len([1, 2, 3])",
    run: len,
    ..ONE_GAME
};
fn len(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    match &c.args[0] {
        Value::List(xs) => Ok(Value::int(xs.len() as i64)),
        Value::Str(s) => Ok(Value::int(s.chars().count() as i64)),
        other => Err(interp.error(
            &c.sp(0),
            format!("`len` needs a list or string, found {}", other.kind()),
        )),
    }
}

const PUSH: Builtin = Builtin {
    name: "push",
    params: "xs, v",
    arity: (2, 2),
    returns: "a list",
    help: "a new list: xs with v appended",
    example: "push([1, 2], 3)",
    run: push,
    ..ONE_GAME
};
fn push(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let mut xs = expect_list(interp, &c.args[0], &c.sp(0))?;
    xs.push(c.args[1].clone());
    Ok(Value::list(xs))
}

const CONCAT: Builtin = Builtin {
    name: "concat",
    params: "xs, ys",
    arity: (2, 2),
    returns: "a list",
    help: "the two lists joined",
    example: "concat([1], [2, 3])",
    run: concat,
    ..ONE_GAME
};
fn concat(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let mut xs = expect_list(interp, &c.args[0], &c.sp(0))?;
    xs.extend(expect_list(interp, &c.args[1], &c.sp(1))?);
    Ok(Value::list(xs))
}

const RANGE: Builtin = Builtin {
    name: "range",
    params: "a, b",
    arity: (2, 2),
    returns: "a list of integers",
    help: "[a, a+1, …, b-1] (also written a..b; a..=b includes b)",
    example: "range(1, 4)",
    run: range,
    ..ONE_GAME
};
fn range(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let a = interp.to_integer(&c.args[0], &c.sp(0))?;
    let b = interp.to_integer(&c.args[1], &c.sp(1))?;
    if (&b - &a) > BigInt::from(10_000_000) {
        return Err(interp.error(c.span, "range longer than 10 000 000 elements"));
    }
    let mut out = Vec::new();
    let mut i = a;
    while i < b {
        out.push(Value::Rational(i.clone().into()));
        i += 1;
    }
    Ok(Value::list(out))
}

const SORT: Builtin = Builtin {
    name: "sort",
    params: "xs",
    returns: "a list",
    help: "numbers ascending, or strings in alphabetical order",
    example: "sort([3, 1/2, -1])",
    run: sort,
    ..ONE_GAME
};
fn sort(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let xs = expect_list(interp, &c.args[0], &c.sp(0))?;
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
        keyed.push((interp.to_rational(&x, &c.sp(0))?, x));
    }
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Value::list(keyed.into_iter().map(|(_, x)| x).collect()))
}

const REVERSE: Builtin = Builtin {
    name: "reverse",
    params: "xs",
    returns: "a list",
    help: "the list reversed",
    example: "reverse([1, 2, 3])",
    run: reverse,
    ..ONE_GAME
};
fn reverse(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let mut xs = expect_list(interp, &c.args[0], &c.sp(0))?;
    xs.reverse();
    Ok(Value::list(xs))
}

const SUM: Builtin = Builtin {
    name: "sum",
    params: "xs",
    returns: "a game or number",
    help: "the sum of a list of games or numbers",
    example: "sum(map(fn(k) = +-k, 1..=4))",
    run: sum,
    ..ONE_GAME
};
fn sum(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let xs = expect_list(interp, &c.args[0], &c.sp(0))?;
    let mut acc = Value::int(0);
    for x in xs {
        acc = interp.binary_values(
            crate::syntax::ast::BinOp::Add,
            acc,
            x,
            &c.sp(0),
            &c.sp(0),
            c.span,
        )?;
    }
    Ok(acc)
}

const MIN: Builtin = Builtin {
    name: "min",
    params: "xs (or a, b, …)",
    arity: (1, usize::MAX),
    returns: "a number",
    help: "the least of some numbers: of a list, or of the arguments",
    example: "min([3, 1/2, 2])",
    run: min_max,
    ..ONE_GAME
};
const MAX: Builtin = Builtin {
    name: "max",
    params: "xs (or a, b, …)",
    arity: (1, usize::MAX),
    returns: "a number",
    help: "the greatest of some numbers: of a list, or of the arguments",
    example: "max(3, 1/2, 2)",
    run: min_max,
    ..ONE_GAME
};
fn min_max(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let xs = if c.args.len() == 1 {
        expect_list(interp, &c.args[0], &c.sp(0))?
    } else {
        c.args.clone()
    };
    if xs.is_empty() {
        return Err(interp.error(c.span, format!("`{}` of an empty list", c.name)));
    }
    let mut best = interp.to_rational(&xs[0], &c.sp(0))?;
    for x in &xs[1..] {
        let r = interp.to_rational(x, &c.sp(0))?;
        if (c.name == "min" && r < best) || (c.name == "max" && r > best) {
            best = r;
        }
    }
    Ok(Value::Rational(best))
}

const MAP: Builtin = Builtin {
    name: "map",
    params: "f, xs",
    arity: (2, 2),
    returns: "a list",
    help: "[f(x) for each x in xs]",
    example: "map(fn(x) = 2 . x, [1, 2, 3])",
    run: map_filter,
    ..ONE_GAME
};
const FILTER: Builtin = Builtin {
    name: "filter",
    params: "f, xs",
    arity: (2, 2),
    returns: "a list",
    help: "the x in xs with f(x) true",
    example: "filter(is_integer, [1, 1/2, 2])",
    run: map_filter,
    ..ONE_GAME
};
fn map_filter(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let xs = expect_list(interp, &c.args[1], &c.sp(1))?;
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        let r = interp.apply(
            &c.args[0],
            "the function",
            vec![x.clone()],
            &[c.sp(1)],
            &c.sp(0),
        )?;
        if c.name == "map" {
            out.push(r);
        } else if interp.bool_of(&r, &c.sp(0))? {
            out.push(x);
        }
    }
    Ok(Value::list(out))
}

const ALL: Builtin = Builtin {
    name: "all",
    params: "xs",
    returns: "true or false",
    help: "every element of xs is true",
    example: "all([1 > 0, * <> 0])",
    run: all_any,
    ..ONE_GAME
};
const ANY: Builtin = Builtin {
    name: "any",
    params: "xs",
    returns: "true or false",
    help: "some element of xs is true",
    example: "any(map(fn(x) = x > 2, [1, 3]))",
    run: all_any,
    ..ONE_GAME
};
fn all_any(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let xs = expect_list(interp, &c.args[0], &c.sp(0))?;
    let all = c.name == "all";
    let mut acc = all;
    for x in xs {
        let b = interp.bool_of(&x, &c.sp(0))?;
        if all {
            acc &= b;
        } else {
            acc |= b;
        }
    }
    Ok(Value::Bool(acc))
}

const CONTAINS: Builtin = Builtin {
    name: "contains",
    params: "xs, v",
    arity: (2, 2),
    returns: "true or false",
    help: "v equals some element of xs",
    example: "contains([*, ^], {0 | 0})",
    run: contains,
    ..ONE_GAME
};
fn contains(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let xs = expect_list(interp, &c.args[0], &c.sp(0))?;
    for x in xs {
        if interp
            .compare_op(crate::syntax::ast::CmpOp::Eq, &x, &c.args[1], c.span)
            .unwrap_or(false)
        {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

const ABS: Builtin = Builtin {
    name: "abs",
    params: "x",
    returns: "a number",
    help: "the absolute value of a number",
    example: "abs(-3/2)",
    run: abs_floor_ceil,
    ..ONE_GAME
};
const FLOOR: Builtin = Builtin {
    name: "floor",
    params: "x",
    returns: "an integer",
    help: "the greatest integer ≤ x",
    example: "floor(-3/2)",
    run: abs_floor_ceil,
    ..ONE_GAME
};
const CEIL: Builtin = Builtin {
    name: "ceil",
    params: "x",
    returns: "an integer",
    help: "the least integer ≥ x",
    example: "ceil(-3/2)",
    run: abs_floor_ceil,
    ..ONE_GAME
};
fn abs_floor_ceil(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let r = interp.to_rational(&c.args[0], &c.sp(0))?;
    Ok(Value::Rational(match c.name {
        "abs" => r.abs(),
        "floor" => r.floor(),
        _ => r.ceil(),
    }))
}

const POW: Builtin = Builtin {
    name: "pow",
    params: "x, n",
    arity: (2, 2),
    returns: "a number",
    help: "x to the integer power n (|n| ≤ 100000)",
    example: "pow(1/2, 3)",
    run: pow,
    ..ONE_GAME
};
fn pow(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let x = interp.to_rational(&c.args[0], &c.sp(0))?;
    let n = interp.to_integer(&c.args[1], &c.sp(1))?;
    let k = n
        .abs()
        .to_u32()
        .filter(|k| *k <= 100_000)
        .ok_or_else(|| interp.error(&c.sp(1), "exponent too large (at most 100000)"))?;
    if n.is_negative() && x.is_zero() {
        return Err(interp.error(c.span, "division by zero"));
    }
    let p = num_traits::pow(x, k as usize);
    Ok(Value::Rational(if n.is_negative() {
        BigRational::from_integer(1.into()) / p
    } else {
        p
    }))
}

const STR: Builtin = Builtin {
    name: "str",
    params: "v",
    returns: "a string",
    help: "v as text, as it prints, except that a ko graph is written whole however large (`print` shows one of more than 100 positions one move deep), so the text reads back: `print str(V)` writes a large graph out",
    example: "str({1 | 0}) + \"!\"",
    run: str_of,
    ..ONE_GAME
};
fn str_of(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    Ok(Value::str(&interp.display(&c.args[0])?))
}

const SVG: Builtin = Builtin {
    name: "svg",
    params: "T, \"file.svg\"",
    arity: (2, 2),
    returns: "the file name",
    help: "write thermograph(s) T (a thermograph, a game, or a list of them) as an SVG plot, or the board of an analysis (svg(analyse(Q), \"board.svg\"))",
    example: "svg([{3 | 1}, thermograph(+-2)], \"/tmp/yose-help-example.svg\")",
    run: svg,
    ..ONE_GAME
};
fn svg(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let args = &c.args;
    let sp = |i| c.sp(i);
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

const SKETCH: Builtin = Builtin {
    name: "sketch",
    params: "T",
    returns: "a string",
    help: "a small terminal drawing of a thermograph (or of a game's thermograph), or of the board of an analysis",
    example: "sketch({3 | 1})",
    run: sketch,
    ..ONE_GAME
};
fn sketch(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    if let Some(text) = super::analyse::picture(interp, &c.args[0], false)? {
        return Ok(Value::str(&text));
    }
    let (_, t) = thermograph_of(interp, &c.args[0], &c.sp(0))?;
    Ok(Value::str(&crate::render::thermograph::sketch(&t, 40, 12)))
}

const MEAN: Builtin = Builtin {
    name: "mean",
    named: &[registry::KOMASTER],
    returns: "a number",
    help: "the mean (the mast value of the thermograph); of a sum, the sum of the components' means (no canonical form of the sum); of a ko, with a komaster",
    example: "mean(+-1 + {5 | 1})",
    takes_kos: true,
    run: mean,
    ..ONE_GAME
};
// A sum answers from its components (no canonical form of the sum).
fn mean(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    if let Some(v) = super::ko::thermo_of_ko(interp, c)? {
        return Ok(v);
    }
    let parts = interp.game_sum_of(&c.args[0], &c.sp(0))?;
    let m = interp.store.sum_mean(parts.parts());
    Ok(Value::from_dyadic(&m.map_err(|e| cg(interp, e, c))?))
}

const TEMPERATURE: Builtin = Builtin {
    name: "temperature",
    named: &[registry::KOMASTER],
    returns: "a number",
    help: "where the thermograph's walls meet (integers -1, m/2^k: -1/2^k); of a sum, from the components when the hottest is alone (else from sums of the tied ones); of a ko, with a komaster",
    example: "temperature({5 | 1} + +-1)",
    takes_kos: true,
    run: temperature,
    ..ONE_GAME
};
const TEMP: Builtin = Builtin {
    name: "temp",
    help: "alias of temperature",
    example: "temp({3 | 1})",
    ..TEMPERATURE
};
fn temperature(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    if let Some(v) = super::ko::thermo_of_ko(interp, c)? {
        return Ok(v);
    }
    let parts = interp.game_sum_of(&c.args[0], &c.sp(0))?;
    let t = interp.store.sum_temperature(parts.parts());
    Ok(Value::Rational(t.map_err(|e| cg(interp, e, c))?))
}

const THERMOGRAPH: Builtin = Builtin {
    name: "thermograph",
    named: &[registry::KOMASTER],
    returns: "a thermograph",
    help: "both walls as exact pieces and the mast; of a ko, with a komaster",
    example: "thermograph({3 | {1 | 0}})",
    takes_kos: true,
    run: thermograph,
    ..ONE_GAME
};
fn thermograph(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    if let Some(v) = super::ko::thermo_of_ko(interp, c)? {
        return Ok(v);
    }
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let t = interp.store.thermograph(g).map_err(|e| cg(interp, e, c))?;
    let label = ThermoLabel::Of(c.args[0].clone(), interp.style);
    Ok(Value::Thermograph(t, Rc::new(label)))
}

const SWING: Builtin = Builtin {
    name: "swing",
    returns: "a number",
    help: "the left stop minus the right stop",
    example: "swing({4 | -2})",
    run: swing,
    ..ONE_GAME
};
fn swing(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let l = interp.store.left_stop(g).map_err(|e| cg(interp, e, c))?;
    let r = interp.store.right_stop(g).map_err(|e| cg(interp, e, c))?;
    Ok(Value::from_dyadic(&l.sub(&r)))
}

const COOL: Builtin = Builtin {
    name: "cool",
    params: "G, t",
    arity: (2, 2),
    help: "G cooled by a dyadic t > -1 (below 0, subzero cooling as in CGSuite)",
    example: "cool({3 | 1}, 1/2)",
    run: cool,
    ..ONE_GAME
};
fn cool(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let t = interp.to_rational(&c.args[1], &c.sp(1))?;
    let minus_one = num_rational::BigRational::from_integer((-1).into());
    let t = match super::value::rational_to_dyadic(&t) {
        Some(d) if t > minus_one => d,
        Some(_) => {
            return Err(interp.error_with(
                crate::diag::Diagnostic::error(format!(
                    "cooling is defined for t > -1 only, found {}",
                    super::format_rational(&t)
                ))
                .with_label(c.sp(1), "t ≤ -1")
                .with_note("below 0 this is subzero cooling (as in CGSuite), which stops at -1")
                .with_help(format!(
                    "to heat by {}, write `heat(G, {})`",
                    super::format_rational(&-t.clone()),
                    super::format_rational(&-t)
                )),
            ))
        }
        None => {
            return Err(interp.error(
                &c.sp(1),
                format!(
                    "cooling needs a number t with a power-of-two denominator, found {}",
                    super::format_rational(&t)
                ),
            ))
        }
    };
    Ok(Value::game(
        interp.store.cool(g, &t).map_err(|e| cg(interp, e, c))?,
    ))
}

const FREEZE: Builtin = Builtin {
    name: "freeze",
    help: "G cooled by its temperature",
    example: "freeze({3 | 1})",
    run: transform,
    ..ONE_GAME
};
const CHILL: Builtin = Builtin {
    name: "chill",
    help: "Go chilling (cool by 1, keeping m and m* as m)",
    example: "chill({3 | -3})",
    run: transform,
    ..ONE_GAME
};
const WARM: Builtin = Builtin {
    name: "warm",
    help: "Go warming, the inverse of chilling on even elementary values",
    example: "warm(+-2)",
    run: transform,
    ..ONE_GAME
};
const RCF: Builtin = Builtin {
    name: "rcf",
    help: "the reduced canonical form (the simplest game infinitesimally close to G)",
    example: "rcf({2 | 1*})",
    run: transform,
    ..ONE_GAME
};
fn transform(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let r = match c.name {
        "freeze" => interp.store.freeze(g),
        "chill" => interp.store.chill(g),
        "warm" => interp.store.warm(g),
        _ => interp.store.rcf(g),
    };
    Ok(Value::game(r.map_err(|e| cg(interp, e, c))?))
}

const HEAT: Builtin = Builtin {
    name: "heat",
    params: "G, t",
    arity: (2, 2),
    help: "G heated by t",
    example: "heat(*, 1)",
    run: heat_norton,
    ..ONE_GAME
};
const NORTON: Builtin = Builtin {
    name: "norton",
    params: "G, U",
    arity: (2, 2),
    help: "the Norton product G.U, also written `G . U`; with an integer U write `norton(G, U)` (`G . 3` is refused as ambiguous: `3 . G` is three copies of G)",
    example: "norton(2, ^)",
    run: heat_norton,
    ..ONE_GAME
};
fn heat_norton(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let t = interp.game_of(&c.args[1], &c.sp(1))?;
    let r = if c.name == "heat" {
        interp.store.heat(g, t)
    } else {
        interp.store.norton(g, t)
    };
    Ok(Value::game(r.map_err(|e| cg(interp, e, c))?))
}

const OVERHEAT: Builtin = Builtin {
    name: "overheat",
    params: "G, s, t",
    arity: (3, 3),
    help: "G overheated from s to t",
    example: "overheat(1, 1, 2)",
    run: overheat,
    ..ONE_GAME
};
fn overheat(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let a = interp.game_of(&c.args[1], &c.sp(1))?;
    let b = interp.game_of(&c.args[2], &c.sp(2))?;
    Ok(Value::game(
        interp
            .store
            .overheat(g, a, b)
            .map_err(|e| cg(interp, e, c))?,
    ))
}

const LEFT_INCENTIVES: Builtin = Builtin {
    name: "left_incentives",
    returns: "a list of games",
    help: "G^L - G for each Left option",
    example: "left_incentives({3 | 1})",
    run: incentives,
    ..ONE_GAME
};
const RIGHT_INCENTIVES: Builtin = Builtin {
    name: "right_incentives",
    returns: "a list of games",
    help: "G - G^R for each Right option",
    example: "right_incentives({3 | 1})",
    run: incentives,
    ..ONE_GAME
};
const INCENTIVES: Builtin = Builtin {
    name: "incentives",
    returns: "a list of games",
    help: "all incentives with the dominated ones removed",
    example: "incentives({3 | 1})",
    run: incentives,
    ..ONE_GAME
};
fn incentives(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let r: Vec<GameId> = match c.name {
        "left_incentives" => interp
            .store
            .left_incentives(g)
            .map_err(|e| cg(interp, e, c))?,
        "right_incentives" => interp
            .store
            .right_incentives(g)
            .map_err(|e| cg(interp, e, c))?,
        _ => interp
            .store
            .incentives(g)
            .map_err(|e| cg(interp, e, c))?
            .to_vec(),
    };
    Ok(games_to_list(&r))
}

const ATOMIC_WEIGHT: Builtin = Builtin {
    name: "atomic_weight",
    help: "the atomic weight of an infinitesimal G",
    example: "atomic_weight(^ + ^ + *)",
    run: atomic_weight,
    ..ONE_GAME
};
const AW: Builtin = Builtin {
    name: "aw",
    help: "alias of atomic_weight",
    example: "aw({0 | v})",
    ..ATOMIC_WEIGHT
};
fn atomic_weight(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    match interp.store.atomic_weight(g) {
        Ok(w) => Ok(Value::game(w)),
        Err(crate::game::AtomicWeightError::Interrupted) => Err(super::Stop::Interrupted),
        Err(e) => {
            let shown = interp.display(&c.args[0])?;
            Err(interp.error(&c.sp(0), format!("atomic weight of {shown}: {e}")))
        }
    }
}

const ZERO_PREFIX: Builtin = Builtin {
    name: "zero_prefix",
    params: "n, G",
    arity: (2, 2),
    help: "Berlekamp's 0^n G for a tiny or miny G (0 ≤ n ≤ 4096)",
    example: "zero_prefix(2, tiny(1))",
    run: zero_prefix,
    ..ONE_GAME
};
fn zero_prefix(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let n = interp.to_integer(&c.args[0], &c.sp(0))?;
    let k = n
        .to_u32()
        .filter(|k| *k <= 4096)
        .ok_or_else(|| interp.error(&c.sp(0), format!("0^n needs 0 ≤ n ≤ 4096, found {n}")))?;
    let g = interp.game_of(&c.args[1], &c.sp(1))?;
    Ok(Value::game(
        interp
            .store
            .zero_prefix(k, g)
            .map_err(|e| cg(interp, e, c))?,
    ))
}

const IS_EVEN: Builtin = Builtin {
    name: "is_even",
    returns: "true or false",
    help: "G is even (Mathematical Go's parity of elementary values)",
    example: "is_even({2 | 0})",
    run: parity,
    ..ONE_GAME
};
const IS_ODD: Builtin = Builtin {
    name: "is_odd",
    returns: "true or false",
    help: "G is odd (Mathematical Go's parity of elementary values)",
    example: "is_odd(*)",
    run: parity,
    ..ONE_GAME
};
const IS_ALL_SMALL: Builtin = Builtin {
    name: "is_all_small",
    returns: "true or false",
    help: "every position with a move for one player has one for the other",
    example: "is_all_small(^*)",
    run: parity,
    ..ONE_GAME
};
fn parity(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let g = interp.game_of(&c.args[0], &c.sp(0))?;
    let r = match c.name {
        "is_even" => interp.store.is_even(g),
        "is_odd" => interp.store.is_odd(g),
        _ => interp.store.is_all_small(g),
    };
    Ok(Value::Bool(r.map_err(|e| cg(interp, e, c))?))
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
        let text = label.text(&mut interp.store);
        return Ok((text.map_err(|e| interp.cg_error(e, &(0..0)))?, t.clone()));
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
