//! The ko solver in the language (issue 4 §3): `solve` on a sum with kos,
//! θ threats or compounds, and the builtins `ko_winner`, `net_threats`,
//! `equivalent` and `pseudo_incentive`, on top of [`crate::ko::solve`].
//!
//! # `solve` on a sum with kos
//!
//! `solve(S)` hands a sum without kos and threats to the ordinary solver
//! (`eval::play`); a sum that contains a ko, a threat or a compound comes
//! here. The answer is a record shaped like the ordinary one:
//!
//! * `left_stop`, `right_stop`: the final score with Black (Left) / White
//!   (Right) moving first;
//! * `black_first`, `white_first`: an optimal line each, a `line` record with
//!   `moves` (each a `move` record: `number`, `player`, `kind` — `"move"`,
//!   `"ko"` (a take), `"fill"`, `"threat"`, `"answer"` or `"pass"` —,
//!   `region`, `from`, `to`, `score` (the numbers settled so far), and
//!   `note` for ko takes, fills, threats, answers and passes),
//!   `result`, `fills` (one record per ko resolved on the line: `number`,
//!   `player`, `region`, `value`), and `ending` (`"all numbers"` or
//!   `"two passes"`);
//! * `nodes`: search nodes of both searches.
//!
//! Components are named as in the sum (`#1`, `#2`, … or the region names of
//! a `board`). Components that a compound creates when it is played are
//! named after it: `P` when it creates one, `P.1`, `P.2`, … otherwise. A
//! threat `θ` and its forced answer are two consecutive moves; a ko move
//! shows the labels of the ko positions (`kw → kb`), a fill the short game
//! it leaves.
//!
//! `budget: N` caps the search nodes of each search (default
//! [`crate::play::DEFAULT_BUDGET`]); over the budget is a diagnostic.
//!
//! A component that is a Go position (an item of a list that makes one
//! component, or a region of `board`) has its short moves named on the
//! board (`point`, and `go_moves` when a move of the game stands for
//! several), as `eval::play` names them; a ko graph's moves are named from
//! the graph ([`Interp::ko_move_name`]).
//!
//! # Play questions on a sum with kos
//!
//! `best_moves(S[, player])`, `optimal(S[, player])`, `must_play(S, j[,
//! player])` and `avoid_play(S, j[, player])` on such a sum come here too,
//! from [`ko::first_moves`]: every legal first turn with the exact final
//! score of optimal play after it. `best_moves` lists those that reach the
//! best score, each a `move` record as in a line with `result` (that final
//! score) in place of the running `score`; a threat stands for the threat
//! and its forced answer, and a pass is listed when passing is as good as
//! the best move (the solver's game has passes, so a ko fight may leave
//! nothing worth a move). `optimal` is the first of them (component moves
//! come before the threat and the pass). `must_play(S, j)` is the best score
//! among the moves in component `j` (a list item that made several
//! components, `#j.1`, `#j.2`, …, counts as one), and `avoid_play` its
//! regret against the stop, as for sums without kos.
//!
//! # The other builtins
//!
//! * `ko_winner(S)`: for each ko component of `S`, a record (`region`,
//!   `black_first`, `white_first`: `"B"`, `"W"` or `"none"` — who fills it on
//!   the optimal line with that player first —, and `black_first_at`,
//!   `white_first_at`: the move numbers, 0 when unfilled). One ko: that
//!   record; several: a list of them.
//! * `net_threats(S)`: Black's threats minus White's among the threats on
//!   the board now. Threats inside an unplayed compound are not counted:
//!   who receives them depends on who plays it (`{12 - θ | -12 + θ}` counts
//!   0; after Black's move there, `12 - θ`, it counts −1).
//! * `equivalent(K, X, env)`: `true` when `env + K` and `env + X` have the
//!   same optimal score with either player first (the "K ≡ X" of Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”).
//! * `pseudo_incentive(K, env)`: the pseudo-value `x` the §6 rule of
//!   [`crate::ko::pseudo_incentive`] prescribes for the single ko component
//!   `K` in `env`, its incentive `incentive` = Δ(X), `confirmed` (whether
//!   `equivalent(K, X, env)` holds), and the data of the rule: `filler`,
//!   `fill`, `lo`, `hi` (the temperature interval; `hi` is `"none"` when no
//!   environment move precedes the fill), `c` (X's incentive is `{c | 0}`),
//!   and `with_ko`, `with_x` (the scores `[Black first, White first]` that
//!   `confirmed` compares).

use super::ko::value_of_parts;
use super::play::GoComponents;
use super::registry::{self, Builtin, Call};
use super::value::Value;
use super::{EvalResult, Interp, Span, Stop};
use crate::diag::Diagnostic;
use crate::ko::{
    self, Action, Component, Ending, KoSolution, KoSolveError, KoSolveOptions, Side, Target,
};
use num_rational::BigRational;

pub(super) const BUILTINS: &[Builtin] = &[KO_WINNER, NET_THREATS, EQUIVALENT, PSEUDO_INCENTIVE];

const KO_WINNER: Builtin = Builtin {
    name: "ko_winner",
    params: "S",
    arity: (1, 1),
    named: &[registry::budget("20 000 000 nodes")],
    returns: "a record (a list of them for several kos): region, black_first, black_first_at, white_first, white_first_at",
    help: "who fills each ko of the sum S on the optimal line with each player first (a Go position counts chilled)",
    example: "ko_winner(ko(2, -2) + +-1)",
    takes_kos: true,
    run: ko_winner,
};
const NET_THREATS: Builtin = Builtin {
    name: "net_threats",
    named: &[],
    returns: "an integer",
    help: "Black's ko threats minus White's on the board in the sum S (threats inside an unplayed compound are not counted)",
    example: "net_threats(ko(2, -2) + {θ | 0})",
    run: net_threats,
    ..KO_WINNER
};
const EQUIVALENT: Builtin = Builtin {
    name: "equivalent",
    params: "K, X, env",
    arity: (3, 3),
    returns: "true or false",
    help: "whether env + K and env + X have the same optimal score with either player first",
    example: "equivalent(ko(2, -2), ko(2, -2), +-3)",
    run: equivalent,
    ..KO_WINNER
};
const PSEUDO_INCENTIVE: Builtin = Builtin {
    name: "pseudo_incentive",
    params: "K, env",
    arity: (2, 2),
    returns: "a record: incentive, x, confirmed, filler, fill, lo, hi, c, with_ko, with_x",
    help: "the pseudo-value X of the ko K in env (Berlekamp and Kim, \"Where is the Thousand-Dollar Ko?\", §6), its incentive Δ(X), and whether equivalent(K, X, env) confirms it",
    example: "pseudo_incentive(ko(12, 0), {4|0} + {2|0} - θ)[\"x\"]",
    run: pseudo_incentive,
    ..KO_WINNER
};

fn side_name(s: Side) -> &'static str {
    match s {
        Side::Left => "B",
        Side::Right => "W",
    }
}

/// Whether a value needs the ko solver: a sum with kos, threats or
/// compounds, or a list holding one.
pub fn needs_ko_solver(v: &Value) -> bool {
    match v {
        Value::Mixed(_) => true,
        Value::List(items) => items.iter().any(|x| matches!(x, Value::Mixed(_))),
        _ => false,
    }
}

/// The components of a sum (or a list of games) with their names.
fn parts_of(
    interp: &mut Interp,
    v: &Value,
    span: &Span,
) -> EvalResult<(Vec<Component>, Vec<String>)> {
    match v {
        Value::Mixed(m) => {
            let parts = m.parts().to_vec();
            let labels = (0..parts.len()).map(|i| m.label(i)).collect();
            Ok((parts, labels))
        }
        Value::List(items) => {
            let mut parts = Vec::new();
            let mut labels = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let cs = interp.components_of(item, span)?;
                let n = cs.len();
                for (j, c) in cs.into_iter().enumerate() {
                    parts.push(c);
                    labels.push(if n == 1 {
                        format!("#{}", i + 1)
                    } else {
                        format!("#{}.{}", i + 1, j + 1)
                    });
                }
            }
            Ok((parts, labels))
        }
        Value::Game(s) => {
            let parts = s.parts().iter().map(|g| Component::Short(*g)).collect();
            let labels = (0..s.parts().len()).map(|i| s.label(i)).collect();
            Ok((parts, labels))
        }
        other => {
            let c = interp.components_of(other, span)?;
            let labels = (0..c.len()).map(|i| format!("#{}", i + 1)).collect();
            Ok((c, labels))
        }
    }
}

/// A ko solver error as a diagnostic at `span`.
pub fn ko_solve_error(interp: &Interp, e: KoSolveError, span: &Span) -> Stop {
    match e {
        KoSolveError::Interrupted => Stop::Interrupted,
        KoSolveError::NodeBudget { nodes } => interp.error_with(
            Diagnostic::error(format!(
                "the ko search needs more nodes than its budget (stopped after {nodes})"
            ))
            .with_label(span.clone(), "this search is too big")
            .with_help("raise the limit with `budget: N`, or split the question"),
        ),
        other => interp.error(span, other.to_string()),
    }
}

/// A component shown as a value (kos by the label of their position).
fn component_value(c: &Component) -> Value {
    match c {
        Component::Short(g) => Value::game(*g),
        Component::Ko { graph, node } => Value::str(&graph.label(*node)),
        other => value_of_parts(vec![other.clone()], None),
    }
}

/// The label of component `i` (`#i` past the known ones).
fn label(labels: &[String], i: usize) -> String {
    labels
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("#{}", i + 1))
}

/// The fields of a move record for `action` by `player` (all but its
/// number and score), advancing `now`, the components' current values, and
/// `labels`, their names, past it.
fn move_fields(
    interp: &mut Interp,
    player: Side,
    action: &Action,
    now: &mut [Component],
    labels: &mut Vec<String>,
    go: &mut GoComponents,
) -> Vec<(&'static str, Value)> {
    let mut fields: Vec<(&'static str, Value)> = Vec::new();
    match action {
        Action::Short { component, to, .. } => {
            fields.push(("kind", Value::str("move")));
            fields.push(("region", Value::str(&label(labels, *component))));
            // A component that is a Go position: its moves on the board.
            let as_player = match player {
                Side::Left => crate::play::Player::Left,
                Side::Right => crate::play::Player::Right,
            };
            if let Some(moves) = go.moves(interp, *component, as_player, *to) {
                let point = moves[0].split_once(' ').map_or("", |(_, p)| p);
                fields.push(("point", Value::str(point)));
                if moves.len() > 1 {
                    let list = moves.iter().map(|m| Value::str(m)).collect();
                    fields.push(("go_moves", Value::list(list)));
                }
            }
            if let Some(c) = now.get(*component) {
                fields.push(("from", component_value(c)));
            }
            fields.push(("to", Value::game(*to)));
            if let Some(c) = now.get_mut(*component) {
                *c = Component::Short(*to);
            }
        }
        Action::Ko {
            component,
            option,
            from,
            to,
        } => {
            let fill = matches!(to, Target::Game(_));
            fields.push(("kind", Value::str(if fill { "fill" } else { "ko" })));
            fields.push(("region", Value::str(&label(labels, *component))));
            let graph = match now.get(*component) {
                Some(Component::Ko { graph, .. }) => Some(graph.clone()),
                _ => None,
            };
            if let Some(g) = &graph {
                fields.push(("from", Value::str(&g.label(*from))));
                // A scoring edge (a gain) is shown in the note: the
                // running score already includes it.
                let gain = g.node(*from).gain(player, *option);
                let scores = if gain.is_zero() {
                    String::new()
                } else {
                    format!(", scores {gain}")
                };
                match to {
                    Target::Node(n) => {
                        let colour = match player {
                            Side::Left => crate::go::Colour::Black,
                            Side::Right => crate::go::Colour::White,
                        };
                        if let Some(name) = interp.ko_move_name(g, *from, *n, colour) {
                            let point = name.split_once(' ').map_or("", |(_, p)| p);
                            fields.push(("point", Value::str(point)));
                        }
                        fields.push(("to", Value::str(&g.label(*n))));
                        fields.push(("note", Value::str(&format!("ko{scores}"))));
                        now[*component] = Component::Ko {
                            graph: g.clone(),
                            node: *n,
                        };
                    }
                    Target::Game(v) => {
                        fields.push(("to", Value::game(*v)));
                        fields.push(("note", Value::str(&format!("fills the ko{scores}"))));
                        now[*component] = Component::Short(*v);
                    }
                }
            }
        }
        Action::Compound {
            component,
            option,
            created,
        } => {
            let parent = label(labels, *component);
            fields.push(("kind", Value::str("move")));
            fields.push(("region", Value::str(&parent)));
            if let Some(Component::Compound(k)) = now.get(*component).cloned() {
                fields.push(("from", component_value(&now[*component])));
                let side = if player == Side::Left {
                    &k.left
                } else {
                    &k.right
                };
                if let Some(o) = side.get(*option) {
                    fields.push(("to", value_of_parts(o.clone(), None)));
                }
            }
            for (j, &id) in created.iter().enumerate() {
                while labels.len() <= id {
                    labels.push(format!("#{}", labels.len() + 1));
                }
                labels[id] = if created.len() == 1 {
                    parent.clone()
                } else {
                    format!("{parent}.{}", j + 1)
                };
            }
        }
        Action::Threat { component } => {
            fields.push(("kind", Value::str("threat")));
            fields.push(("region", Value::str(&label(labels, *component))));
            fields.push(("note", Value::str("plays a ko threat")));
        }
        Action::Answer { component } => {
            fields.push(("kind", Value::str("answer")));
            fields.push(("region", Value::str(&label(labels, *component))));
            fields.push(("note", Value::str("answers the threat")));
        }
        Action::Pass => {
            fields.push(("kind", Value::str("pass")));
            fields.push(("note", Value::str("passes")));
        }
    }
    fields
}

/// The line of a solution as a `line` record (`go`: the components that
/// are Go positions, as they stand at the start).
fn line_value(
    interp: &mut Interp,
    sol: &KoSolution,
    input_labels: &[String],
    go: &GoComponents,
) -> Value {
    let mut go = go.clone();
    let mut labels: Vec<String> = input_labels.to_vec();
    // The current value of each component along the line.
    let mut now: Vec<Component> = sol.components.clone();
    let mut moves = Vec::with_capacity(sol.line.len());
    for m in &sol.line {
        let mut fields: Vec<(&str, Value)> = vec![
            ("number", Value::int(m.number as i64)),
            ("player", Value::str(side_name(m.player))),
        ];
        fields.extend(move_fields(
            interp,
            m.player,
            &m.action,
            &mut now,
            &mut labels,
            &mut go,
        ));
        fields.push(("score", Value::Rational(m.score.clone())));
        moves.push(Value::record("move", fields));
    }
    let fills = sol
        .fills
        .iter()
        .map(|f| {
            Value::record(
                "record",
                vec![
                    ("number", Value::int(f.number as i64)),
                    ("player", Value::str(side_name(f.player))),
                    ("region", Value::str(&label(&labels, f.component))),
                    ("value", Value::game(f.value)),
                ],
            )
        })
        .collect();
    let ending = match sol.ending {
        Ending::AllNumbers => "all numbers",
        Ending::TwoPasses => "two passes",
    };
    Value::record(
        "line",
        vec![
            ("moves", Value::list(moves)),
            ("result", Value::Rational(sol.score.clone())),
            ("fills", Value::list(fills)),
            ("ending", Value::str(ending)),
        ],
    )
}

/// `solve(S)` for a sum with kos, threats or compounds (module docs).
pub fn solve(
    interp: &mut Interp,
    v: &Value,
    vspan: &Span,
    budget: u64,
    span: &Span,
) -> EvalResult<Value> {
    let (parts, labels) = parts_of(interp, v, vspan)?;
    let go = GoComponents::of_parts(interp, v, &labels);
    let opts = KoSolveOptions::with_budget(budget);
    let black = ko::solve(&mut interp.store, &parts, Side::Left, &opts)
        .map_err(|e| ko_solve_error(interp, e, span))?;
    let white = ko::solve(&mut interp.store, &parts, Side::Right, &opts)
        .map_err(|e| ko_solve_error(interp, e, span))?;
    let black_first = line_value(interp, &black, &labels, &go);
    let white_first = line_value(interp, &white, &labels, &go);
    Ok(Value::record(
        "record",
        vec![
            ("left_stop", Value::Rational(black.score.clone())),
            ("right_stop", Value::Rational(white.score.clone())),
            ("black_first", black_first),
            ("white_first", white_first),
            ("nodes", Value::int((black.nodes + white.nodes) as i64)),
        ],
    ))
}

/// Every first turn of `player` in a sum with kos, threats or compounds,
/// each with the final score of optimal play after it, and the components'
/// names.
fn first_moves_of(
    interp: &mut Interp,
    v: &Value,
    vspan: &Span,
    player: Side,
    budget: u64,
    span: &Span,
) -> EvalResult<(ko::FirstMoves, Vec<String>)> {
    let (parts, labels) = parts_of(interp, v, vspan)?;
    let opts = KoSolveOptions::with_budget(budget);
    let fm = ko::first_moves(&mut interp.store, &parts, player, None, &opts)
        .map_err(|e| ko_solve_error(interp, e, span))?;
    Ok((fm, labels))
}

/// The best score among `moves` for `player` (none when there are none).
fn best_score(moves: &[&ko::FirstMove], player: Side) -> Option<BigRational> {
    let scores = moves.iter().map(|m| &m.score);
    match player {
        Side::Left => scores.max().cloned(),
        Side::Right => scores.min().cloned(),
    }
}

/// `best_moves(S)` (and `optimal(S)`, the first of them) for a sum with
/// kos, threats or compounds: every optimal first turn, each a `move`
/// record as in a line, with `result`, the final score of optimal play
/// after it, in place of a line's running `score`. A pass is listed when
/// passing is as good as the best move (a ko fight may leave nothing worth
/// a move); a threat stands for the threat and its forced answer.
pub fn best_moves(
    interp: &mut Interp,
    v: &Value,
    vspan: &Span,
    player: Side,
    budget: u64,
    span: &Span,
) -> EvalResult<Vec<Value>> {
    let (fm, labels) = first_moves_of(interp, v, vspan, player, budget, span)?;
    let go = GoComponents::of_parts(interp, v, &labels);
    let all: Vec<&ko::FirstMove> = fm.moves.iter().collect();
    let Some(best) = best_score(&all, player) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for m in fm.moves.iter().filter(|m| m.score == best) {
        let (mut now, mut names, mut go) = (fm.components.clone(), labels.clone(), go.clone());
        let mut fields = vec![("player", Value::str(side_name(player)))];
        fields.extend(move_fields(
            interp, player, &m.action, &mut now, &mut names, &mut go,
        ));
        fields.push(("result", Value::Rational(m.score.clone())));
        out.push(Value::record("move", fields));
    }
    Ok(out)
}

/// `must_play(S, j)` and `avoid_play(S, j)` for a sum with kos, threats or
/// compounds: the best score when `player` must move first in component
/// `j` (its number from 1, or a region name; a component of the sum made of
/// several parts, `#j.1`, `#j.2`, …, counts as one), and with `avoid` the
/// regret of it (the stop minus it for Black, it minus the stop for
/// White), from [`ko::first_moves`].
#[allow(clippy::too_many_arguments)]
pub fn must_play(
    interp: &mut Interp,
    v: &Value,
    vspan: &Span,
    j: &Value,
    jspan: &Span,
    player: Side,
    budget: u64,
    span: &Span,
    avoid: bool,
) -> EvalResult<Value> {
    let (fm, labels) = first_moves_of(interp, v, vspan, player, budget, span)?;
    let wanted = |label: &str| -> bool {
        match j {
            Value::Str(name) => label == &**name,
            _ => false,
        }
    };
    let number = match j {
        Value::Str(_) => None,
        other => Some(interp.to_integer(other, jspan)?),
    };
    let chosen: Vec<usize> = (0..labels.len())
        .filter(|&i| match &number {
            Some(n) => {
                let l = &labels[i];
                let own = format!("#{n}");
                *l == own || l.starts_with(&format!("{own}."))
            }
            None => wanted(&labels[i]),
        })
        .collect();
    if chosen.is_empty() {
        let what = match (&number, j) {
            (Some(n), _) => format!("component {n} does not exist in this sum (numbered from 1)"),
            (None, Value::Str(name)) => format!("no region named `{name}` in this sum"),
            _ => "no such component".to_string(),
        };
        return Err(interp.error(jspan, what));
    }
    let component_of = |a: &Action| match a {
        Action::Short { component, .. }
        | Action::Ko { component, .. }
        | Action::Compound { component, .. }
        | Action::Threat { component } => Some(*component),
        Action::Answer { .. } | Action::Pass => None,
    };
    let inside: Vec<&ko::FirstMove> = fm
        .moves
        .iter()
        .filter(|m| component_of(&m.action).is_some_and(|c| chosen.contains(&c)))
        .collect();
    let Some(forced) = best_score(&inside, player) else {
        let who = match player {
            Side::Left => "Black",
            Side::Right => "White",
        };
        // A number (a Go position counts chilled) has no move for anyone.
        let style = interp.style;
        let numbers: Vec<String> = chosen
            .iter()
            .filter_map(|&i| match &fm.components[i] {
                Component::Short(g) if interp.store.is_number(*g) => {
                    Value::game(*g).display(&mut interp.store, style).ok()
                }
                _ => None,
            })
            .collect();
        let why = match numbers.len() == chosen.len() {
            true => format!(
                "{who} has no move in this component: it is the number {} (a Go position counts chilled)",
                numbers.join(" + ")
            ),
            false => format!("{who} has no move in this component"),
        };
        return Err(interp.error(jspan, why));
    };
    if !avoid {
        return Ok(Value::Rational(forced));
    }
    let all: Vec<&ko::FirstMove> = fm.moves.iter().collect();
    let stop = best_score(&all, player).unwrap_or_else(|| forced.clone());
    Ok(Value::Rational(match player {
        Side::Left => stop - forced,
        Side::Right => forced - stop,
    }))
}

fn net_threats(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (parts, _) = parts_of(interp, &c.args[0], &c.sp(0))?;
    Ok(Value::int(ko::net_threats(&parts)))
}

fn ko_winner(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let opts = KoSolveOptions::with_budget(c.budget(interp, crate::play::DEFAULT_BUDGET)?);
    let sp = |i: usize| c.sp(i);
    Ok({
        let (parts, labels) = parts_of(interp, &args[0], &sp(0))?;
        let kos: Vec<usize> = (0..parts.len())
            .filter(|&i| matches!(parts[i], Component::Ko { .. }))
            .collect();
        if kos.is_empty() {
            return Err(interp.error(&sp(0), "this sum has no ko component"));
        }
        let w = ko::ko_winner(&mut interp.store, &parts, &opts)
            .map_err(|e| ko_solve_error(interp, e, span))?;
        let who = |sol: &KoSolution, k: usize| -> (Value, Value) {
            match sol.fills.iter().find(|f| f.component == k) {
                Some(f) => (Value::str(side_name(f.player)), Value::int(f.number as i64)),
                None => (Value::str("none"), Value::int(0)),
            }
        };
        let mut out: Vec<Value> = kos
            .iter()
            .map(|&k| {
                let (b, bn) = who(&w.black_first, k);
                let (wh, wn) = who(&w.white_first, k);
                Value::record(
                    "record",
                    vec![
                        ("region", Value::str(&labels[k])),
                        ("black_first", b),
                        ("black_first_at", bn),
                        ("white_first", wh),
                        ("white_first_at", wn),
                    ],
                )
            })
            .collect();
        if out.len() == 1 {
            out.pop().unwrap_or(Value::Unit)
        } else {
            Value::list(out)
        }
    })
}

fn equivalent(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let opts = KoSolveOptions::with_budget(c.budget(interp, crate::play::DEFAULT_BUDGET)?);
    let sp = |i: usize| c.sp(i);
    Ok({
        let (k, _) = parts_of(interp, &args[0], &sp(0))?;
        let (x, _) = parts_of(interp, &args[1], &sp(1))?;
        let (env, _) = parts_of(interp, &args[2], &sp(2))?;
        let r = ko::equivalent(&mut interp.store, &k, &x, &env, &opts)
            .map_err(|e| ko_solve_error(interp, e, span))?;
        Value::Bool(r.holds)
    })
}

fn pseudo_incentive(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let opts = KoSolveOptions::with_budget(c.budget(interp, crate::play::DEFAULT_BUDGET)?);
    let sp = |i: usize| c.sp(i);
    Ok({
        let (k, _) = parts_of(interp, &args[0], &sp(0))?;
        let kc = match k.as_slice() {
            [c @ Component::Ko { .. }] => c.clone(),
            _ => {
                return Err(interp.error(
                    &sp(0),
                    "pseudo_incentive needs a single ko position here (one component)",
                ))
            }
        };
        let (env, _) = parts_of(interp, &args[1], &sp(1))?;
        let p = ko::pseudo_incentive(&mut interp.store, &kc, &env, &opts)
            .map_err(|e| ko_solve_error(interp, e, span))?;
        let pair = |a: &[num_rational::BigRational; 2]| {
            Value::list(vec![
                Value::Rational(a[0].clone()),
                Value::Rational(a[1].clone()),
            ])
        };
        Value::record(
            "record",
            vec![
                ("incentive", Value::game(p.incentive)),
                ("x", Value::game(p.x)),
                ("confirmed", Value::Bool(p.check.holds)),
                ("filler", Value::str(side_name(p.filler))),
                ("fill", Value::game(p.fill)),
                ("lo", Value::Rational(p.lo.clone())),
                (
                    "hi",
                    match &p.hi {
                        Some(h) => Value::Rational(h.clone()),
                        None => Value::str("none"),
                    },
                ),
                ("c", Value::from_dyadic(&p.c)),
                ("with_ko", pair(&p.check.with_ko)),
                ("with_x", pair(&p.check.with_x)),
            ],
        )
    })
}
