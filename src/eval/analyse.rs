//! The builtin `analyse` (issue 15 §3): whole-board analysis of a game, or
//! of a Go position or diagram string taken as a whole board, on top of
//! [`crate::go::analysis`].
//!
//! `analyse(Q, rules: japanese|chinese, komi: k, ko_rule: basic|positional|situational,
//! budget: N, safe: "C3 D4", dead: "E5")` returns a record:
//!
//! * `safe`, `dead`: the chains taken as safe (with `reason`: `benson` or
//!   `marked`) and removed as dead, as records with `colour` and `points`;
//! * `regions`: one record per region: `points` (Go coordinates), `value`,
//!   `chilled`, `temperature` (a ko region has none: `ko: true`), `nodes`;
//!   a region with no value has `size` and `reason`, and `too_large`:
//!   `true` when it is over the node budget (or the search's points, or
//!   its search reached the memory limit),
//!   `false` when play in it has no local value (a whole empty board, where
//!   no stone can become safe, or no local value under the ko rule);
//! * `left_stop`, `right_stop`: the stops with Black / White first, komi
//!   included (when some region is too large they, and the two lines
//!   below, are *nothing*: the value that prints as `nothing` and compares
//!   with nothing else, so an `assert` on them is an error that says so);
//! * `black_best`, `white_best`: every optimal first move, as points;
//! * `black_first`, `white_first`: optimal lines to the end: `moves` (each
//!   with `player`, `point`, `region`: the index of the move's region in
//!   `regions`, from 0 like every list index, where the report's headings
//!   count from 1; a pass has `point: "pass"` and region *nothing*),
//!   `score` (komi included) and `winner`;
//! * `ko_ban`: when the last move of a game (or the position) was a ko
//!   capture under the basic ko rule or the New Ko Rules, the ban the
//!   analysis started from (under a superko rule the game's earlier boards
//!   forbid the retake instead: module docs of `go::analysis`, "The board
//!   as it stands"):
//!   `player` (who may not retake at once), `point` and `exact_stop`
//!   (module docs of `go::analysis`, "The ko ban of the last move");
//!   otherwise *nothing*;
//! * `report`: the readable report (`print(A["report"])`).
//!
//! Uppercase stones of the diagram are marked safe; `safe:` and `dead:`
//! mark more (a mark covers the stone's chain). `budget:` is the node budget
//! of each region's local search. `threads:` is how many threads value the
//! regions (the result does not depend on it).

use super::registry::{self, Builtin, Call, NamedArg};
use super::value::Value;
use super::{EvalResult, Interp, Span};
use crate::go::analysis::{
    analyse, analyse_game_as, diagram_marks, Analysis, AnalysisOptions, GoLine, SafeReason,
};
use crate::go::{Position, RuleSet, Status};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::rc::Rc;

pub(super) const BUILTINS: &[Builtin] = &[ANALYSE];

const ANALYSE: Builtin = Builtin {
    name: "analyse",
    params: "Q",
    arity: (1, 1),
    named: &[
        registry::RULES,
        NamedArg {
            name: "komi",
            values: "a number such as 6.5",
            default: "0 (a game's own)",
        },
        registry::KO_RULE,
        registry::budget("the analysis's per-region budget"),
        NamedArg {
            name: "safe",
            values: "points such as \"C3 D4\"",
            default: "the diagram's uppercase stones",
        },
        NamedArg {
            name: "dead",
            values: "points such as \"E5\"",
            default: "none",
        },
        NamedArg {
            name: "threads",
            values: "a whole number from 1 to 64",
            default: "the machine's cores, at most 4",
        },
    ],
    returns: "an analysis record (its `report` field is the readable report; values unchilled, in points)",
    help: "whole-board analysis of a game, a position or a diagram string: safe stones, regions with values, stops, optimal first moves and lines",
    example: "analyse(\"XXXXX\\nX...O\\nXXXXX\", komi: 1/2)[\"left_stop\"]",
    takes_kos: false,
    run: analyse_call,
};

/// Where a point of a `safe:` / `dead:` argument was written: the string,
/// the argument's span and the word's bytes in the string, so that an
/// error about the point can point at the word.
pub(super) struct MarkSource {
    point: usize,
    text: String,
    arg: Span,
    word: std::ops::Range<usize>,
}

/// Reads a list of Go coordinates (`"C3 D4"`, commas allowed) as marks;
/// an error points at the word in the string.
pub(super) fn mark_points(
    interp: &Interp,
    board: &Position,
    v: &Value,
    span: &Span,
    status: Status,
    marks: &mut [Option<Status>],
    sources: &mut Vec<MarkSource>,
) -> EvalResult<()> {
    let text = match v {
        Value::Str(s) => s.to_string(),
        other => {
            return Err(interp.error(
                span,
                format!(
                    "expected board points in Go coordinates, such as \"C3 D4\", found {}",
                    other.kind()
                ),
            ))
        }
    };
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let sep = c.is_whitespace() || c == ',';
        match (start, sep) {
            (None, false) => start = Some(i),
            (Some(a), true) => {
                words.push(a..i);
                start = None;
            }
            _ => {}
        }
    }
    for range in words {
        let word = &text[range.clone()];
        let fail = |message: String, label: &str| {
            interp.error_with(interp.string_diag(
                &text,
                span,
                range.clone(),
                message,
                label.to_string(),
            ))
        };
        let (row, col) = crate::go::parse_go(word, board.width(), board.height())
            .map_err(|e| fail(format!("`{word}`: {e}"), "not a point of the board"))?;
        let p = row * board.width() + col;
        if board.cell(p) == crate::go::Cell::Empty {
            return Err(fail(
                format!("`{word}` holds no stone to mark"),
                "no stone here",
            ));
        }
        marks[p] = Some(status);
        sources.push(MarkSource {
            point: p,
            text: text.clone(),
            arg: span.clone(),
            word: range,
        });
    }
    Ok(())
}

/// An analysis error about a marked point, pointing at the point's word in
/// a `safe:` / `dead:` argument when it was named there (else at the call).
fn mark_error(
    interp: &Interp,
    board: &Position,
    sources: &[MarkSource],
    e: &crate::go::analysis::AnalysisError,
    call: &Span,
) -> super::Stop {
    use crate::go::analysis::AnalysisError as E;
    let point = match e {
        E::SafeAndDead { point } | E::DeadButAlive { point } | E::NoStone { point } => {
            crate::go::parse_go(point, board.width(), board.height())
                .ok()
                .map(|(r, c)| r * board.width() + c)
        }
        _ => None,
    };
    // The last word naming a stone of the point's chain: the mark that
    // decided.
    let chain = point.map(|p| board.chain(p)).unwrap_or_default();
    match sources.iter().rev().find(|m| chain.contains(&m.point)) {
        Some(m) => interp.error_with(interp.string_diag(
            &m.text,
            &m.arg,
            m.word.clone(),
            e.to_string(),
            "this mark".to_string(),
        )),
        None => interp.error(call, e.to_string()),
    }
}

fn analyse_call(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, named, span) = (&c.args, &c.named, c.span);
    let sp0 = c.sp(0);
    let mut opts = AnalysisOptions::default();
    let mut rules = RuleSet::default();
    // A game brings its own rules, komi and marks; a diagram its uppercase
    // stones as safe marks. Named arguments override either.
    // A diagram string is read as `go(…)` reads it.
    let diagram = match &args[0] {
        Value::Str(s) => Some(interp.parse_diagram(s, &sp0)?),
        _ => None,
    };
    let (board, mut marks) = match diagram.as_ref().unwrap_or(&args[0]) {
        Value::Position(p) => (p.pos.clone(), diagram_marks(&p.pos)),
        Value::GoGame(g) => {
            rules = g.rules();
            opts.komi = g.komi().clone();
            let pos = g.position().clone();
            let marks = (0..pos.width() * pos.height()).map(|p| g.mark(p)).collect();
            (pos, marks)
        }
        other => {
            return Err(interp.error(
                &sp0,
                format!(
                    "`analyse` needs a whole board: a game, a Go position (from `go Q = \"\"\"…\"\"\"`) or a diagram string, found {}",
                    other.kind()
                ),
            ))
        }
    };
    let mut named_marks = Vec::new();
    for (k, v, s) in named {
        match k.as_str() {
            "rules" => rules.scoring = super::go::rules_of(interp, v, s)?,
            "ko_rule" => rules.ko_rule = super::go::ko_rule_of(interp, v, s)?,
            "budget" => opts.region_budget = registry::budget_arg(interp, v, s)?,
            "komi" => match v {
                Value::Rational(r) => opts.komi = r.clone(),
                other => {
                    return Err(interp.error(
                        s,
                        format!(
                            "`komi:` is a number such as 6.5 or 7, found {}",
                            other.kind()
                        ),
                    ))
                }
            },
            "safe" => mark_points(
                interp,
                &board,
                v,
                s,
                Status::Safe,
                &mut marks,
                &mut named_marks,
            )?,
            "dead" => mark_points(
                interp,
                &board,
                v,
                s,
                Status::Dead,
                &mut marks,
                &mut named_marks,
            )?,
            "threads" => opts.threads = threads_of(interp, v, s)?,
            _ => {}
        }
    }
    opts.rules = rules;
    // A game with its last move's ko ban and its earlier boards, under the
    // rules in force (`analyse_game_as`).
    let analysed = match &args[0] {
        Value::GoGame(g) => analyse_game_as(&mut interp.store, g, &marks, &opts),
        _ => analyse(&mut interp.store, &board, &marks, &opts),
    };
    let a = analysed.map_err(|e| match e {
        // Ctrl-C ends the analysis as it ends anything else: "interrupted".
        crate::go::analysis::AnalysisError::Interrupted => super::Stop::Interrupted,
        e => mark_error(interp, &board, &named_marks, &e, span),
    })?;
    record_of(interp, &a, span)
}

/// `threads:`: how many threads value the regions (the result is the same
/// on any number; module docs of `go::analysis`, "Threads").
fn threads_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<usize> {
    match v {
        Value::Rational(r) if r.is_integer() => {
            if let Some(n) = r.to_integer().to_usize().filter(|n| (1..=64).contains(n)) {
                return Ok(n);
            }
        }
        _ => {}
    }
    let found = match v {
        Value::Rational(r) => r.to_string(),
        other => other.kind().to_string(),
    };
    Err(interp.error(
        span,
        format!("`threads:` is a whole number from 1 to 64, found {found}"),
    ))
}

fn line_value(a: &Analysis, line: &GoLine) -> Value {
    use crate::go::analysis::GoStep;
    let moves = line
        .steps()
        .into_iter()
        .map(|step| {
            let (colour, point, region) = match step {
                // The region's index in the record's `regions` list (from
                // 0, as lists are), so `A["regions"][m["region"]]` is it.
                GoStep::Move(m) => (m.colour, a.point_name(m), Value::int(m.region as i64)),
                GoStep::Pass(c) => (c, "pass".to_string(), Value::Unit),
            };
            Value::record(
                "record",
                vec![
                    ("player", Value::str(&colour.letter().to_string())),
                    ("point", Value::str(&point)),
                    ("region", region),
                ],
            )
        })
        .collect();
    let winner = match Analysis::winner(&line.score) {
        Some(c) => c.to_string(),
        None => "jigo".to_string(),
    };
    Value::record(
        "record",
        vec![
            ("moves", Value::list(moves)),
            ("score", Value::Rational(line.score.clone())),
            ("winner", Value::str(&winner)),
            ("finished", Value::Bool(line.finished)),
        ],
    )
}

fn record_of(interp: &mut Interp, a: &Analysis, span: &Span) -> EvalResult<Value> {
    let board = &a.board;
    let safe = a
        .safe
        .iter()
        .map(|(c, why)| {
            Value::record(
                "record",
                vec![
                    ("colour", Value::str(&c.colour.to_string())),
                    ("points", Value::point_names(board, &c.points)),
                    (
                        "reason",
                        Value::str(match why {
                            SafeReason::Benson => "benson",
                            SafeReason::Marked => "marked",
                        }),
                    ),
                ],
            )
        })
        .collect();
    let dead = a
        .dead
        .iter()
        .map(|c| {
            Value::record(
                "record",
                vec![
                    ("colour", Value::str(&c.colour.to_string())),
                    ("points", Value::point_names(board, &c.points)),
                ],
            )
        })
        .collect();
    let mut regions = Vec::new();
    for r in &a.regions {
        let mut fields = vec![("points", Value::point_names(board, &r.points))];
        match &r.outcome {
            Ok(v) => {
                let value = interp.go_value_to_value(&v.value);
                let chilled = interp.go_value_to_value(&v.chilled);
                fields.push(("value", value));
                fields.push(("chilled", chilled));
                fields.push((
                    "temperature",
                    match &v.temperature {
                        Some(t) => Value::Rational(t.clone()),
                        None => Value::Unit,
                    },
                ));
                fields.push(("ko", Value::Bool(v.has_ko())));
                fields.push(("nodes", Value::int(r.nodes as i64)));
            }
            Err(e) => {
                fields.push(("too_large", Value::Bool(crate::go::analysis::too_large(e))));
                fields.push(("size", Value::int(r.points.len() as i64)));
                fields.push(("reason", Value::str(&crate::go::analysis::region_error(e))));
            }
        }
        regions.push(Value::record("record", fields));
    }
    let stop = |s: &Option<BigRational>| match s {
        Some(x) => Value::Rational(x.clone()),
        None => Value::Unit,
    };
    let best = |ms: &[crate::go::analysis::GoMove]| {
        Value::list(ms.iter().map(|m| Value::str(&a.point_name(m))).collect())
    };
    let report = a
        .report(&mut interp.store)
        .map_err(|e| interp.go_error(e, span))?;
    let mut fields = vec![
        ("safe", Value::list(safe)),
        ("dead", Value::list(dead)),
        ("regions", Value::list(regions)),
        ("left_stop", stop(&a.left_stop)),
        ("right_stop", stop(&a.right_stop)),
        ("black_best", best(&a.best_black)),
        ("white_best", best(&a.best_white)),
    ];
    for (name, line) in [
        ("black_first", &a.black_first),
        ("white_first", &a.white_first),
    ] {
        fields.push((
            name,
            match line {
                Some(l) => line_value(a, l),
                None => Value::Unit,
            },
        ));
    }
    fields.push((
        "ko_ban",
        match &a.ko_ban {
            Some(b) => Value::record(
                "record",
                vec![
                    ("player", Value::str(&b.colour.letter().to_string())),
                    ("point", Value::str(&board.point_name(b.point))),
                    ("exact_stop", Value::Bool(b.exact_stop)),
                ],
            ),
            None => Value::Unit,
        },
    ));
    fields.push((
        "komi",
        Value::Rational(if a.komi.is_zero() {
            BigRational::zero()
        } else {
            a.komi.clone()
        }),
    ));
    fields.push(("report", Value::str(&report)));
    // The board with the dead stones put back, for `svg(A, …)` and `sketch(A)`.
    let mut pictured = a.board.clone();
    for c in &a.dead {
        pictured = pictured.with_stones(c.colour, &c.points);
    }
    fields.push((
        "board",
        Value::Position(Rc::new(super::go::GoPosition::new(pictured))),
    ));
    Ok(Value::record("record", fields))
}

/// The picture of an analysis record (`svg(A, "board.svg")`, `sketch(A)`):
/// its board, regions captioned with their values, safe and dead stones,
/// and the line with Black first numbered on the stones. `None` when the
/// value is no analysis record.
pub(crate) fn picture(interp: &mut Interp, v: &Value, svg: bool) -> EvalResult<Option<String>> {
    let Some(Value::Position(board)) = v.field("board") else {
        return Ok(None);
    };
    let board = &board.pos;
    let origin = board.board_origin();
    let point = |name: &Value| -> Option<usize> {
        let Value::Str(s) = name else { return None };
        let (r, c) = crate::go::parse_go(s, origin.board_width, origin.board_height).ok()?;
        board.board_point(r, c)
    };
    let points_of = |v: Option<&Value>| -> Vec<usize> {
        match v {
            Some(Value::List(items)) => items.iter().filter_map(point).collect(),
            _ => Vec::new(),
        }
    };
    let chains = |v: Option<&Value>| -> Vec<usize> {
        match v {
            Some(Value::List(items)) => items
                .iter()
                .flat_map(|c| points_of(c.field("points")))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut regions = Vec::new();
    if let Some(Value::List(items)) = v.field("regions") {
        for r in items.iter() {
            let caption = match (r.field("value"), r.field("chilled"), r.field("temperature")) {
                (Some(value), Some(chilled), t) => {
                    let mut c = format!(
                        "{} (chilled {}",
                        interp.display(value)?,
                        interp.display(chilled)?
                    );
                    if let Some(t @ Value::Rational(_)) = t {
                        c.push_str(&format!(", temperature {}", interp.display(t)?));
                    }
                    c.push(')');
                    c
                }
                _ => format!(
                    "{} ({} points)",
                    match r.field("too_large") {
                        Some(Value::Bool(false)) => "no value",
                        _ => "too large",
                    },
                    points_of(r.field("points")).len()
                ),
            };
            regions.push(crate::render::board::Shade {
                points: points_of(r.field("points")),
                caption,
            });
        }
    }
    let mut line = Vec::new();
    if let Some(Value::List(moves)) = v.field("black_first").and_then(|l| l.field("moves")) {
        for m in moves.iter() {
            let colour = match m.field("player") {
                Some(Value::Str(p)) if &**p == "W" => crate::go::Colour::White,
                _ => crate::go::Colour::Black,
            };
            if let Some(p) = m.field("point").and_then(point) {
                line.push((colour, p));
            }
        }
    }
    let score = v
        .field("black_first")
        .and_then(|l| l.field("score"))
        .map(|s| interp.display(s))
        .transpose()?;
    let title = match score {
        Some(s) => format!("Black first: an optimal line, score {s} (komi included)"),
        None => "whole-board analysis".to_string(),
    };
    let picture = crate::render::board::BoardPicture {
        board,
        regions,
        safe: chains(v.field("safe")),
        dead: chains(v.field("dead")),
        line,
        title,
    };
    Ok(Some(if svg {
        crate::render::board::board_svg(&picture)
    } else {
        crate::render::board::board_text(&picture)
    }))
}
