//! Ultimate Go and Fundamental Go in the language, on top of
//! [`crate::go::ultimate`]: the `rules: ultimate | fundamental`,
//! `version: original | simple` and `handicap: H` arguments of `game`, the
//! labels of rule breaks under a move string, and the builtins of the
//! scores, each asked of the exact solver for the player to move
//! (`budget: N` states, [`DEFAULT_BUDGET`] by default).

use super::registry::{self, Builtin, Call};
use super::value::Value;
use super::{EvalResult, Interp, Span};
use crate::diag::Diagnostic;
use crate::go::ultimate::{
    self, GoArena, NoPassRules, RuleBreak, SolveError, Solver, SolverMove, Variant, Version,
    DEFAULT_BUDGET,
};
use crate::go::{self, Colour, KoRule};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::rc::Rc;

pub(super) const BUILTINS: &[Builtin] = &[
    FUNDAMENTAL_SCORE,
    ULTIMATE_SCORE,
    ULTIMATE_RESULT,
    SENTE_LEVEL,
    PHASE,
    OPTIMAL_MOVES,
    MOVE_COSTS,
    ULTIMATE_STATS,
    EXPEDITED_COUNT,
];

/// The examples' game: no-pass Go on a 1×3 board, Black to move.
const ULTIMATE_ENTRY: Builtin = Builtin {
    name: "",
    params: "G",
    arity: (1, 1),
    named: &[registry::budget(
        "1 000 000 states (past it a budget error, within about 10–30 s of CPU)",
    )],
    returns: "",
    help: "",
    example: "",
    takes_kos: false,
    run: ultimate,
};

const FUNDAMENTAL_SCORE: Builtin = Builtin {
    name: "fundamental_score",
    returns: "a half-integer",
    help: "the Fundamental Go score of a game under `rules: ultimate|fundamental` (positive: Black wins), for the player to move",
    example: "fundamental_score(game(go(\"...\"), rules: fundamental))",
    ..ULTIMATE_ENTRY
};
const ULTIMATE_SCORE: Builtin = Builtin {
    name: "ultimate_score",
    returns: "an integer",
    help: "the Ultimate Go score: the least mid-game komi the loser needs for a draw (positive: Black wins by that many; 0: a draw)",
    example: "ultimate_score(game(go(\"...\"), rules: ultimate))",
    ..ULTIMATE_ENTRY
};
const ULTIMATE_RESULT: Builtin = Builtin {
    name: "ultimate_result",
    returns: "a record: result, black, white (win/draw/loss), score, draw_komis",
    help: "the exact result under the game's no-pass rules",
    example: "ultimate_result(game(go(\"...\"), rules: ultimate))[\"result\"]",
    ..ULTIMATE_ENTRY
};
const SENTE_LEVEL: Builtin = Builtin {
    name: "sente_level",
    returns: "an integer",
    help: "the cost of a delay (or reverse delay) for the player to move, in Fundamental Go",
    example: "sente_level(game(go(\"...\"), rules: fundamental))",
    ..ULTIMATE_ENTRY
};
const PHASE: Builtin = Builtin {
    name: "phase",
    returns: "a string",
    help: "\"normal play\", \"counting\" or \"should resign\" for the player to move",
    example: "phase(game(go(\"...\"), rules: fundamental))",
    ..ULTIMATE_ENTRY
};
const OPTIMAL_MOVES: Builtin = Builtin {
    name: "optimal_moves",
    returns: "a list of strings",
    help: "the moves of cost 0 for the player to move (\"B C3\", \"B delay\")",
    example: "optimal_moves(game(go(\"...\"), rules: fundamental))",
    ..ULTIMATE_ENTRY
};
const MOVE_COSTS: Builtin = Builtin {
    name: "move_costs",
    returns: "a list of records: move, cost",
    help: "every legal placement and the delay, each with its cost in Fundamental Go",
    example: "move_costs(game(go(\"...\"), rules: fundamental))",
    ..ULTIMATE_ENTRY
};
const ULTIMATE_STATS: Builtin = Builtin {
    name: "ultimate_stats",
    returns: "a record",
    help: "what the exact solver did for ultimate_score: states, board graph size",
    example: "ultimate_stats(game(go(\"...\"), rules: ultimate))",
    ..ULTIMATE_ENTRY
};

const EXPEDITED_COUNT: Builtin = Builtin {
    name: "expedited_count",
    params: "G",
    arity: (1, 1),
    named: &[registry::NamedArg {
        name: "dead",
        values: "points such as \"C3 D4\" (each marks its chain)",
        default: "the game's stones marked dead",
    }],
    returns: "a record: score, result, moves, extra, dead, game",
    help: "expedited counting (§VIII of Yoav Yaffe's \"Analysis of Ultimate Go\"): with dead stones agreed, play on by the automatic steps 0–4 until a draw or a resignation; the score counts the moves the winner could still make (the procedure is not exact in every position: compare ultimate_score)",
    example: "expedited_count(game(go(\"X . . O\"), rules: ultimate, version: simple))[\"moves\"]",
    takes_kos: false,
    run: expedited,
};

fn expedited(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    use crate::go::expedited::{expedited_count, ExpeditedMove};
    let at = c.sp(0);
    let g = match &c.args[0] {
        Value::GoGame(g) => g.clone(),
        other => {
            return Err(interp.error(
                &at,
                format!(
                    "expected a game under `rules: ultimate` (from `game(…)`), found {}",
                    other.kind()
                ),
            ))
        }
    };
    let pos = g.position();
    let mut marks = vec![None; pos.cells_len()];
    if let Some((v, s)) = c.named("dead") {
        super::analyse::mark_points(
            interp,
            pos,
            v,
            s,
            go::Status::Dead,
            &mut marks,
            &mut Vec::new(),
        )?;
    }
    let dead: Vec<usize> = (0..marks.len()).filter(|&p| marks[p].is_some()).collect();
    let e = expedited_count(&g, &dead).map_err(|e| {
        let span = c.named("dead").map_or(at.clone(), |(_, s)| s.clone());
        interp.error(&span, e.describe(pos))
    })?;
    let names = |ms: &[(Colour, ExpeditedMove)]| {
        Value::list(
            ms.iter()
                .map(|(col, m)| Value::str(&m.name(*col, pos)))
                .collect(),
        )
    };
    let result = match e.score {
        0 => "a draw".to_string(),
        s if s > 0 => format!("Black wins by {s}"),
        s => format!("White wins by {}", -s),
    };
    Ok(Value::record(
        "record",
        vec![
            ("score", Value::int(e.score)),
            ("result", Value::str(&result)),
            ("moves", names(&e.moves)),
            ("extra", names(&e.extra)),
            ("dead", Value::point_names(pos, &e.dead)),
            ("before_first_delay", Value::Bool(e.before_first_delay)),
            ("game", Value::GoGame(Rc::new(e.game))),
        ],
    ))
}

/// `rules: ultimate | fundamental` (bare names or strings).
pub fn nopass_variant(v: &Value) -> Option<Variant> {
    match v {
        Value::Str(s) if s.eq_ignore_ascii_case("ultimate") => Some(Variant::Ultimate),
        Value::Str(s) if s.eq_ignore_ascii_case("fundamental") => Some(Variant::Fundamental),
        _ => None,
    }
}

/// `version: original | simple`.
pub fn version_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<Version> {
    match v {
        Value::Str(s) if s.eq_ignore_ascii_case("original") => Ok(Version::Original),
        Value::Str(s) if s.eq_ignore_ascii_case("simple") => Ok(Version::Simple),
        _ => Err(interp.error(
            span,
            "`version:` is `original` (§III as written, the default) or `simple` (the first delay is the ultimate one; the second ultimate delay needs an empty bowl)",
        )),
    }
}

/// What `game(…)`'s arguments ask of the no-pass rules: `rules:` when it
/// names a no-pass variant, `version:`, `handicap:`, and the `ko_rule:`
/// given (checked against the variant's own ko rule).
pub struct NoPassArgs {
    pub variant: Option<Variant>,
    pub version: Option<Version>,
    pub handicap: Option<u32>,
    pub ko_rule: Option<KoRule>,
}

/// The game with the no-pass rules asked for by `game(…)`'s arguments.
pub fn apply_nopass(
    interp: &Interp,
    game: go::Game,
    args: NoPassArgs,
    named: &[(String, Value, Span)],
    span: &Span,
) -> EvalResult<go::Game> {
    let NoPassArgs {
        variant,
        version,
        handicap,
        ko_rule,
    } = args;
    let at = |k: &str| {
        named
            .iter()
            .find(|(n, _, _)| n == k)
            .map_or(span.clone(), |(_, _, s)| s.clone())
    };
    let old = game.rules();
    // Under no-pass rules the ko rule is the variant's own (rule 5: no
    // placement may repeat an earlier board of the game, positional
    // superko), which `Game::play` applies whatever the rule set's
    // `ko_rule` says; a different rule asked for would be silently
    // ignored, so it is refused. Naming the rule that applies is harmless.
    if variant.is_some() || old.nopass.is_some() {
        if let Some(rule) = ko_rule.filter(|&r| r != KoRule::PositionalSuperko) {
            let which = match variant.or(old.nopass.map(|r| r.variant)) {
                Some(Variant::Fundamental) => "Fundamental Go",
                _ => "Ultimate Go",
            };
            return Err(interp.error_with(
                Diagnostic::error(format!(
                    "`ko_rule: {}` does not apply under {which}",
                    rule.name()
                ))
                .with_label(at("ko_rule"), format!("{which} has its own ko rule"))
                .with_note(format!(
                    "{which}'s own ko rule applies: rule 5 forbids a placement that repeats an earlier board of the game (whole-game positional superko)"
                ))
                .with_help("leave `ko_rule:` out (`ko_rule: positional` names the rule that applies)"),
            ));
        }
    }
    // A game under no-pass rules keeps them: `rules:` naming a scoring rule
    // would be silently ignored, so it is refused.
    if let (None, Some(nopass)) = (variant, old.nopass) {
        if named.iter().any(|(n, _, _)| n == "rules") {
            let which = match nopass.variant {
                Variant::Fundamental => "Fundamental Go",
                _ => "Ultimate Go",
            };
            return Err(interp.error_with(
                Diagnostic::error(format!("this game is played under {which}"))
                    .with_label(at("rules"), "a game keeps the rules it was made with")
                    .with_help(format!(
                        "make a new game from its board, `game(go(G), rules: …)`, to play it under other rules ({which}'s game state, its bowls and delays, does not carry over)"
                    )),
            ));
        }
    }
    let variant = match (variant, old.nopass) {
        (Some(v), _) => v,
        (None, Some(_)) if version.is_none() && handicap.is_none() => return Ok(game),
        (None, Some(r)) => r.variant,
        (None, None) => {
            if version.is_some() || handicap.is_some() {
                let k = if version.is_some() {
                    "version"
                } else {
                    "handicap"
                };
                return Err(interp.error(
                    &at(k),
                    format!(
                        "`{k}:` belongs to Ultimate Go: add `rules: ultimate` (or `fundamental`)"
                    ),
                ));
            }
            return Ok(game);
        }
    };
    let version = version
        .or(old.nopass.map(|r| r.version))
        .unwrap_or_default();
    let rules = go::RuleSet {
        nopass: Some(NoPassRules { variant, version }),
        ..old
    };
    let komi = game.komi().clone();
    let to_move = game.to_move();
    game.with_settings(to_move, komi, rules)
        .with_nopass(handicap.unwrap_or(0))
        .map_err(|e| {
            let k = if matches!(e, ultimate::KomiError::Handicap(_)) {
                "handicap"
            } else {
                "komi"
            };
            interp.error(&at(k), e.to_string())
        })
}

/// The short label under a broken rule.
pub fn rule_break_label(why: &RuleBreak) -> String {
    let what = match why {
        RuleBreak::OutOfTurn(c) => format!("{c} is to move"),
        RuleBreak::Occupied => "occupied".into(),
        RuleBreak::Surrounded => "the stone would be surrounded".into(),
        RuleBreak::Repeated { .. } => "repeats a board".into(),
        RuleBreak::Pass => "no pass in Ultimate Go".into(),
        RuleBreak::EmptyBowl => "empty bowl".into(),
        RuleBreak::NoUltimatePrisoner => "no ultimate prisoner".into(),
        RuleBreak::NoDrawRight => "no right to a draw".into(),
        RuleBreak::GameOver(_) => "after the end".into(),
        RuleBreak::FirstDelayNotUltimate => "the first delay must be `ultimate`".into(),
        RuleBreak::SecondUltimateWithPrisoners(_) => "prisoners left".into(),
        RuleBreak::HandicapDelay => "White owes a handicap delay".into(),
    };
    format!("{} ({})", what, why.rule())
}

fn game_of<'a>(interp: &Interp, v: &'a Value, span: &Span) -> EvalResult<&'a Rc<go::Game>> {
    match v {
        Value::GoGame(g) if g.nopass().is_some() => Ok(g),
        Value::GoGame(_) => Err(interp.error(
            span,
            "this game is not played under Ultimate or Fundamental Go rules: make it with `game(G, rules: ultimate)`",
        )),
        other => Err(interp.error(
            span,
            format!(
                "expected a game under `rules: ultimate` or `fundamental` (from `game(…)`), found {}",
                other.kind()
            ),
        )),
    }
}

fn solve_error(interp: &Interp, e: SolveError, span: &Span) -> super::Stop {
    match e {
        SolveError::Budget { budget, .. } => interp.error_with(
            Diagnostic::error(e.to_string())
                .with_label(span.clone(), format!("needs more than {budget} states"))
                .with_help("raise the limit with `budget: N`, or ask about a smaller board: the exact solver is exponential (open areas up to about a dozen points, such as three rows of four, and corridors of twelve; about a dozen separate points between framing stones; BENCHMARKS.md)"),
        ),
        SolveError::Interrupted => interp.error(span, "interrupted"),
        SolveError::Limit(e) => interp.limit_error(e, span),
        _ => interp.error(span, e.to_string()),
    }
}

fn half(twice: i64) -> Value {
    Value::Rational(BigRational::new(BigInt::from(twice), BigInt::from(2)))
}

fn word(o: i8, c: Colour) -> &'static str {
    match o * c.sign() as i8 {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// The no-pass questions (one function: they share the solver set-up).
fn ultimate(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (name, args, span) = (c.name, &c.args, c.span);
    let budget = c.budget(interp, DEFAULT_BUDGET)?;
    let at = c.sp(0);
    let g = game_of(interp, &args[0], &at)?.clone();
    let state = g.nopass().expect("checked").clone();
    if name == "ultimate_result" {
        if let Some(end) = state.ended {
            let o: i8 = match end {
                ultimate::Ending::Draw => 0,
                ultimate::Ending::Resigned(c) => -(c.sign() as i8),
            };
            return Ok(result_record(o, &state, None, Vec::new()));
        }
    }
    let (arena, s, mut history) =
        ultimate::situation_of(&g).map_err(|e| solve_error(interp, e, span))?;
    let mut solver = Solver::new(arena, state.rules, budget, true);
    solver.set_interrupt_flag(Some(interp.interrupt_flag()));
    let pos = g.position().clone();
    let me = g.to_move();
    let name_of = |solver: &Solver<GoArena>, m: SolverMove<ultimate::BoardCode>| -> String {
        match m {
            SolverMove::Place(b) => {
                let p = solver.arena.placed_point(s.board, b, me);
                pos.move_name_at(me, p)
            }
            SolverMove::Special(sp) => format!("{} {}", me.letter(), sp.word()),
        }
    };
    let err = |interp: &Interp, e| solve_error(interp, e, span);
    match name {
        "fundamental_score" => {
            let t = solver
                .fundamental_score2(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            Ok(half(t))
        }
        "ultimate_score" => {
            let u = solver
                .ultimate_score(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            Ok(Value::int(u))
        }
        "ultimate_result" => {
            let o = solver
                .outcome(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            let u = solver
                .ultimate_score(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            let draws = solver
                .draw_komis(&s, &mut history, (u - 3)..=(u + 3))
                .map_err(|e| err(interp, e))?;
            Ok(result_record(o, &state, Some(u), draws))
        }
        "sente_level" => {
            let l = solver
                .sente_level(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            Ok(Value::int(l))
        }
        "phase" => {
            let p = solver.phase(&s, &mut history).map_err(|e| err(interp, e))?;
            Ok(Value::str(p.name()))
        }
        "optimal_moves" | "move_costs" => {
            let costs = solver
                .move_costs(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            let mut items: Vec<Value> = Vec::new();
            for (m, c) in costs {
                let n = name_of(&solver, m);
                if name == "optimal_moves" {
                    if c == 0 {
                        items.push(Value::str(&n));
                    }
                } else {
                    items.push(Value::record(
                        "record",
                        vec![("move", Value::str(&n)), ("cost", Value::int(c))],
                    ));
                }
            }
            Ok(Value::list(items))
        }
        "ultimate_stats" => {
            solver
                .ultimate_score(&s, &mut history)
                .map_err(|e| err(interp, e))?;
            let empty = solver.arena.empty_points(s.board);
            Ok(Value::record(
                "record",
                vec![
                    ("empty_points", Value::int(empty as i64)),
                    ("states", Value::int(solver.nodes as i64)),
                ],
            ))
        }
        _ => Err(interp.error(span, format!("unknown Ultimate Go builtin `{name}`"))),
    }
}

fn result_record(
    o: i8,
    state: &ultimate::NoPassState,
    score: Option<i64>,
    draws: Vec<i64>,
) -> Value {
    let result = match o {
        1 => "Black wins".to_string(),
        -1 => "White wins".to_string(),
        _ => match state.draw_wins_for {
            Some(c) => format!("a draw, which counts as a win for {c} (komi ½)"),
            None => "a draw".to_string(),
        },
    };
    let mut fields = vec![
        ("result", Value::str(&result)),
        ("black", Value::str(word(o, Colour::Black))),
        ("white", Value::str(word(o, Colour::White))),
    ];
    if let Some(u) = score {
        fields.push(("score", Value::int(u)));
        fields.push((
            "draw_komis",
            Value::list(draws.into_iter().map(Value::int).collect()),
        ));
    }
    Value::record("record", fields)
}
