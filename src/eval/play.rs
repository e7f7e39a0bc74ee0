//! Builtins that answer play questions about sums from their components
//! (`solve`, `best_moves`, `must_play`, `avoid_play`, the strategies and
//! `play_out`), on top of `crate::play`.
//!
//! Conventions: players are `black` (Left) and `white` (Right); components are
//! numbered from 1 in the order of the sum (regions of `board` go by name);
//! `budget:` caps the search nodes.

use super::registry::{self, Builtin, Call, NamedArg};
use super::value::{GameSum, Value};
use super::{EvalResult, Interp, Span, Stop};
use crate::game::GameId;
use crate::go::{Colour, Position};
use crate::play::{self, Line, Move, PlayError, Player, Strategy};
use std::rc::Rc;

pub(super) const BUILTINS: &[Builtin] = &[
    SOLVE,
    BEST_MOVES,
    MUST_PLAY,
    AVOID_PLAY,
    HOTSTRAT,
    SENTESTRAT,
    THERMOSTRAT,
    OPTIMAL,
    PLAY_OUT,
];

const BUDGET: NamedArg = registry::budget("20 000 000 nodes");

const PLAY_ENTRY: Builtin = Builtin {
    name: "",
    params: "S[, black|white]",
    arity: (1, 2),
    named: &[BUDGET],
    returns: "a move record (component, option, player), or () when there is none",
    help: "",
    example: "",
    takes_kos: true,
    run: strategy_move,
};

const SOLVE: Builtin = Builtin {
    name: "solve",
    params: "S",
    arity: (1, 1),
    returns: "a record: left_stop, right_stop, black_first, white_first (lines), nodes",
    help: "the Left and Right stops of the sum S with an optimal line for each, from the components (a Go position counts chilled)",
    example: "solve({3 | 1} + +-2)[\"left_stop\"]",
    run: solve,
    ..PLAY_ENTRY
};
const BEST_MOVES: Builtin = Builtin {
    name: "best_moves",
    returns: "a list of moves",
    help: "every optimal first move of the player (Black when left out) in the sum S (with kos, threats or compounds: the ko solver's, each with the result of optimal play after it)",
    example: "best_moves({3 | 1} + +-2, white)",
    run: best_moves,
    ..PLAY_ENTRY
};
const MUST_PLAY: Builtin = Builtin {
    name: "must_play",
    params: "S, j[, black|white]",
    arity: (2, 3),
    returns: "a number",
    help: "the stop when the player (Black when left out) must move first in component j (from 1, or a region name; with kos, threats or compounds by the ko solver)",
    example: "must_play(+-1 + +-3, 1)",
    run: must_play,
    ..PLAY_ENTRY
};
const AVOID_PLAY: Builtin = Builtin {
    name: "avoid_play",
    params: "S, j[, black|white]",
    arity: (2, 3),
    returns: "a number",
    help: "how much the player loses by being forced to move first in component j",
    example: "avoid_play(+-1 + +-3, 1)",
    run: must_play,
    ..PLAY_ENTRY
};
const HOTSTRAT: Builtin = Builtin {
    name: "hotstrat",
    named: &[],
    help: "the move Hotstrat picks for the player (in the hottest component)",
    example: "hotstrat(+-1 + +-3)",
    ..PLAY_ENTRY
};
const SENTESTRAT: Builtin = Builtin {
    name: "sentestrat",
    named: &[],
    help: "the move Sentestrat picks for the player",
    example: "sentestrat(+-1 + {4 | 0 || -1}, white)",
    ..PLAY_ENTRY
};
const THERMOSTRAT: Builtin = Builtin {
    name: "thermostrat",
    named: &[],
    help: "the move Thermostrat picks for the player",
    example: "thermostrat(+-1 + +-3)",
    ..PLAY_ENTRY
};
const OPTIMAL: Builtin = Builtin {
    name: "optimal",
    help: "an optimal move for the player (the first of solve's line)",
    example: "optimal({3 | 1} + +-2)",
    ..PLAY_ENTRY
};
const PLAY_OUT: Builtin = Builtin {
    name: "play_out",
    params: "S, strategy_for_black, strategy_for_white",
    arity: (3, 3),
    named: &[
        BUDGET,
        NamedArg {
            name: "first",
            values: "black|white",
            default: "black",
        },
    ],
    returns: "a record: the moves and the final score",
    help: "S played out to the end by two strategies (optimal, hotstrat, sentestrat, thermostrat)",
    example: "play_out(+-1 + +-3, hotstrat, optimal, first: white)",
    run: play_out,
    ..PLAY_ENTRY
};

fn player_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<Player> {
    if let Value::Str(s) = v {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "left" | "l" => return Ok(Player::Left),
            "white" | "w" | "right" | "r" => return Ok(Player::Right),
            _ => {}
        }
    }
    Err(interp.error(span, "expected a player: `black` (Left) or `white` (Right)"))
}

/// The player given as argument `i`, or Black (Left) when it is left out.
fn optional_player(interp: &Interp, args: &[Value], i: usize, span: &Span) -> EvalResult<Player> {
    match args.get(i) {
        Some(v) => player_of(interp, v, span),
        None => Ok(Player::Left),
    }
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::Left => "B",
        Player::Right => "W",
    }
}

fn strategy_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<Strategy> {
    let name = match v {
        Value::Builtin(b) => b.name,
        Value::Str(s) => match &**s {
            "optimal" => "optimal",
            "hotstrat" => "hotstrat",
            "sentestrat" => "sentestrat",
            "thermostrat" => "thermostrat",
            _ => "",
        },
        _ => "",
    };
    match name {
        "optimal" => Ok(Strategy::Optimal),
        "hotstrat" => Ok(Strategy::Hotstrat),
        "sentestrat" => Ok(Strategy::Sentestrat),
        "thermostrat" => Ok(Strategy::Thermostrat),
        _ => Err(interp.error(
            span,
            "expected a strategy: `optimal`, `hotstrat`, `sentestrat` or `thermostrat`",
        )),
    }
}

fn play_error(interp: &Interp, e: PlayError, span: &Span) -> Stop {
    match e {
        PlayError::Interrupted => Stop::Interrupted,
        PlayError::Budget { nodes, limit } => interp.error_with(
            crate::diag::Diagnostic::error(format!(
                "the search needs more than {limit} nodes (stopped after {nodes})"
            ))
            .with_label(span.clone(), "this search is too big")
            .with_help("raise the limit with `budget: N`, or split the question"),
        ),
        // The engine numbers components from 0; the language from 1.
        PlayError::NoMove { component, player } => interp.error(
            span,
            format!(
                "{} has no move in component {}",
                player.go_name(),
                component + 1
            ),
        ),
        PlayError::NoComponent { component, len } => interp.error(
            span,
            format!(
                "component {} does not exist: the sum has {len}",
                component + 1
            ),
        ),
        other => interp.error(span, other.to_string()),
    }
}

/// The Go positions behind the components of a sum, where a component came
/// from one: a position used as a game (alone or in a list), or a region of
/// `board` bound to a position. Along a line, each is replaced by the
/// position after the Go moves played in it, so that moves are told in the
/// board's terms (`B C3`).
#[derive(Clone)]
pub(super) struct GoComponents {
    positions: Vec<Option<Position>>,
    /// What each component's game is above its position's chilled value:
    /// a solver's move to an option is taxed (−1 for Black, +1 for White,
    /// once per option, also through a reversible move), while the
    /// position after the Go moves is valued afresh.
    offsets: Vec<i64>,
}

impl GoComponents {
    fn of(interp: &Interp, arg: &Value, sum: &GameSum) -> GoComponents {
        let n = sum.parts().len();
        let mut positions = vec![None; n];
        match arg {
            Value::Position(p) if n == 1 => positions[0] = Some(p.pos.clone()),
            Value::List(items) if items.len() == n => {
                for (slot, item) in positions.iter_mut().zip(items.iter()) {
                    if let Value::Position(p) = item {
                        *slot = Some(p.pos.clone());
                    }
                }
            }
            Value::Game(_) => {
                for (i, slot) in positions.iter_mut().enumerate() {
                    let label = sum.label(i);
                    if let Some((_, Value::Position(p))) =
                        interp.board.iter().find(|(name, _)| **name == *label)
                    {
                        *slot = Some(p.pos.clone());
                    }
                }
            }
            _ => {}
        }
        GoComponents {
            offsets: vec![0; positions.len()],
            positions,
        }
    }

    /// [`GoComponents::of`] for the ko solver's components (`eval::kosolve`),
    /// named `labels`: a list's item that is a position and makes one
    /// component (`#i`, not `#i.1`, `#i.2`, …), or a `board` region bound to
    /// a position.
    pub(super) fn of_parts(interp: &Interp, arg: &Value, labels: &[String]) -> GoComponents {
        let positions = labels
            .iter()
            .map(|label| match arg {
                Value::List(items) => {
                    let i: usize = label.strip_prefix('#')?.parse().ok()?;
                    match items.get(i.checked_sub(1)?)? {
                        Value::Position(p) => Some(p.pos.clone()),
                        _ => None,
                    }
                }
                _ => match interp.board.iter().find(|(name, _)| **name == **label) {
                    Some((_, Value::Position(p))) => Some(p.pos.clone()),
                    _ => None,
                },
            })
            .collect::<Vec<_>>();
        GoComponents {
            offsets: vec![0; positions.len()],
            positions,
        }
    }

    /// The Go moves of a move of the solver in `component` (to the option
    /// `to`), advancing that component's position; `None` when the
    /// component is no position or no Go move matches.
    pub(super) fn moves(
        &mut self,
        interp: &mut Interp,
        component: usize,
        player: Player,
        to: GameId,
    ) -> Option<Vec<String>> {
        let pos = self.positions.get(component)?.as_ref()?;
        let colour = match player {
            Player::Left => Colour::Black,
            Player::Right => Colour::White,
        };
        let offset = self.offsets[component];
        let local = if offset == 0 {
            to
        } else {
            let shift = interp.store.integer(-offset);
            interp.store.add(to, shift).ok()?
        };
        let found = interp.go_moves_to(pos, colour, local);
        let (moves, next) = match found {
            Some(f) => f,
            None => {
                // The rest of this component's line cannot be told in Go moves.
                self.positions[component] = None;
                return None;
            }
        };
        // Points keep their names from one position to the next.
        let names = moves.iter().map(|&m| pos.move_name(m)).collect();
        self.positions[component] = Some(next);
        self.offsets[component] -= colour.sign();
        Some(names)
    }
}

/// A move as a record; `number` is its place in a line, when it has one.
/// `go` holds the Go moves it stands for, when the component is a position.
fn move_record(
    sum: &GameSum,
    number: Option<usize>,
    player: Player,
    component: usize,
    from: GameId,
    to: GameId,
    go: Option<Vec<String>>,
) -> Value {
    let mut fields = Vec::with_capacity(8);
    if let Some(n) = number {
        fields.push(("number", Value::int(n as i64)));
    }
    fields.extend([
        ("player", Value::str(player_name(player))),
        ("component", Value::int(component as i64 + 1)),
        ("region", Value::str(&sum.label(component))),
    ]);
    if let Some(moves) = go {
        let point = moves[0].split_once(' ').map_or("", |(_, p)| p);
        fields.push(("point", Value::str(point)));
        if moves.len() > 1 {
            let list = moves.iter().map(|m| Value::str(m)).collect();
            fields.push(("go_moves", Value::list(list)));
        }
    }
    fields.extend([("from", Value::game(from)), ("to", Value::game(to))]);
    Value::record("move", fields)
}

fn move_value(interp: &mut Interp, sum: &GameSum, go: &GoComponents, m: &Move) -> Value {
    let mut go = go.clone();
    let names = go.moves(interp, m.component, m.player, m.to);
    move_record(
        sum,
        None,
        m.player,
        m.component,
        sum.parts()[m.component],
        m.to,
        names,
    )
}

fn line_value(interp: &mut Interp, sum: &GameSum, go: &GoComponents, line: &Line) -> Value {
    let mut go = go.clone();
    let moves = line
        .moves
        .iter()
        .map(|m| {
            let names = go.moves(interp, m.component, m.player, m.to);
            move_record(
                sum,
                Some(m.number),
                m.player,
                m.component,
                m.from,
                m.to,
                names,
            )
        })
        .collect();
    Value::record(
        "line",
        vec![
            ("moves", Value::list(moves)),
            ("result", Value::from_dyadic(&line.result)),
        ],
    )
}

/// A 1-based component number, or a region name.
fn component_of(interp: &mut Interp, sum: &GameSum, v: &Value, span: &Span) -> EvalResult<usize> {
    if let Value::Str(name) = v {
        for i in 0..sum.parts().len() {
            if sum.label(i) == **name {
                return Ok(i);
            }
        }
        return Err(interp.error(span, format!("no region named `{name}` in this sum")));
    }
    let n = interp.to_integer(v, span)?;
    let len = sum.parts().len();
    match usize::try_from(n.clone()) {
        Ok(k) if (1..=len).contains(&k) => Ok(k - 1),
        _ => Err(interp.error(
            span,
            format!("component {n} does not exist: the sum has {len} (numbered from 1)"),
        )),
    }
}

/// The components a play question is asked about: a sum (kept as given) or a list of games.
fn components(interp: &mut Interp, v: &Value, span: &Span) -> EvalResult<GameSum> {
    if let Value::List(items) = v {
        let mut parts = Vec::with_capacity(items.len());
        let mut labels = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            parts.push(interp.game_of(item, span)?);
            labels.push(Rc::from(format!("#{}", i + 1)));
        }
        return Ok(GameSum::labelled(parts, labels));
    }
    interp.game_sum_of(v, span)
}

fn solve(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let budget = c.budget(interp, play::DEFAULT_BUDGET)?;
    let sp = |i: usize| c.sp(i);
    if super::kosolve::needs_ko_solver(&args[0]) {
        return super::kosolve::solve(interp, &args[0], &sp(0), budget, span);
    }
    let sum = components(interp, &args[0], &sp(0))?;
    let go = GoComponents::of(interp, &args[0], &sum);
    let black = play::solve(&mut interp.store, sum.parts(), Player::Left, budget)
        .map_err(|e| play_error(interp, e, span))?;
    let white = play::solve(&mut interp.store, sum.parts(), Player::Right, budget)
        .map_err(|e| play_error(interp, e, span))?;
    Ok(Value::record(
        "record",
        vec![
            ("left_stop", Value::from_dyadic(&black.stop)),
            ("right_stop", Value::from_dyadic(&white.stop)),
            ("black_first", line_value(interp, &sum, &go, &black.line)),
            ("white_first", line_value(interp, &sum, &go, &white.line)),
            ("nodes", Value::int((black.nodes + white.nodes) as i64)),
        ],
    ))
}

/// The ko solver's side of a player.
fn side_of(p: Player) -> crate::ko::Side {
    match p {
        Player::Left => crate::ko::Side::Left,
        Player::Right => crate::ko::Side::Right,
    }
}

fn best_moves(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let budget = c.budget(interp, play::DEFAULT_BUDGET)?;
    let sp = |i: usize| c.sp(i);
    let player = optional_player(interp, args, 1, &sp(1))?;
    if super::kosolve::needs_ko_solver(&args[0]) {
        let moves =
            super::kosolve::best_moves(interp, &args[0], &sp(0), side_of(player), budget, span)?;
        return Ok(Value::list(moves));
    }
    let sum = components(interp, &args[0], &sp(0))?;
    let go = GoComponents::of(interp, &args[0], &sum);
    let moves = play::best_moves(&mut interp.store, sum.parts(), player, budget)
        .map_err(|e| play_error(interp, e, span))?;
    let list = moves
        .iter()
        .map(|m| move_value(interp, &sum, &go, m))
        .collect();
    Ok(Value::list(list))
}

fn must_play(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (name, args, span) = (c.name, &c.args[..], c.span);
    let budget = c.budget(interp, play::DEFAULT_BUDGET)?;
    let sp = |i: usize| c.sp(i);
    let player = optional_player(interp, args, 2, &sp(2))?;
    if super::kosolve::needs_ko_solver(&args[0]) {
        return super::kosolve::must_play(
            interp,
            &args[0],
            &sp(0),
            &args[1],
            &sp(1),
            side_of(player),
            budget,
            span,
            name == "avoid_play",
        );
    }
    let sum = components(interp, &args[0], &sp(0))?;
    let j = component_of(interp, &sum, &args[1], &sp(1))?;
    let r = if name == "must_play" {
        play::must_play(&mut interp.store, sum.parts(), j, player, budget)
    } else {
        play::avoid_play(&mut interp.store, sum.parts(), j, player, budget)
    };
    Ok(Value::from_dyadic(
        &r.map_err(|e| play_error(interp, e, span))?,
    ))
}

fn strategy_move(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (name, args, span) = (c.name, &c.args[..], c.span);
    let budget = c.budget(interp, play::DEFAULT_BUDGET)?;
    let sp = |i: usize| c.sp(i);
    let player = optional_player(interp, args, 1, &sp(1))?;
    if name == "optimal" && super::kosolve::needs_ko_solver(&args[0]) {
        let moves =
            super::kosolve::best_moves(interp, &args[0], &sp(0), side_of(player), budget, span)?;
        return Ok(moves.into_iter().next().unwrap_or(Value::Unit));
    }
    let sum = components(interp, &args[0], &sp(0))?;
    let r = match name {
        "hotstrat" => play::strategy::hotstrat(&mut interp.store, sum.parts(), player),
        "sentestrat" => play::strategy::sentestrat(&mut interp.store, sum.parts(), player),
        "thermostrat" => play::strategy::thermostrat(&mut interp.store, sum.parts(), player),
        _ => play::best_moves(&mut interp.store, sum.parts(), player, budget)
            .map(|v| v.into_iter().next()),
    };
    let go = GoComponents::of(interp, &args[0], &sum);
    match r.map_err(|e| play_error(interp, e, span))? {
        Some(m) => Ok(move_value(interp, &sum, &go, &m)),
        None => Ok(Value::Unit),
    }
}

fn play_out(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let budget = c.budget(interp, play::DEFAULT_BUDGET)?;
    let first = match c.named("first") {
        Some((v, s)) => player_of(interp, v, s)?,
        None => Player::Left,
    };
    let sp = |i: usize| c.sp(i);
    let sum = components(interp, &args[0], &sp(0))?;
    let black = strategy_of(interp, &args[1], &sp(1))?;
    let white = strategy_of(interp, &args[2], &sp(2))?;
    let line = play::strategy::play_out_with_budget(
        &mut interp.store,
        sum.parts(),
        first,
        black,
        white,
        budget,
    )
    .map_err(|e| play_error(interp, e, span))?;
    let go = GoComponents::of(interp, &args[0], &sum);
    Ok(line_value(interp, &sum, &go, &line))
}
