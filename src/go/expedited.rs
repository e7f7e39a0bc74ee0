//! Expedited counting for Ultimate Go (§VIII of Yoav Yaffe's "Analysis of
//! Ultimate Go", Sensei's Library): once the players agree on dead stones,
//! play continues automatically by simple guidelines until one player
//! declares a draw or resigns, and the score is read off the moves left.
//!
//! The paper calls the procedure "work in progress" that "might change the
//! score" in unusual positions; [`expedited_count`] runs it exactly as this
//! module reads it, and the tests compare it with the exact solver of
//! [`super::ultimate`] to find where it does.
//!
//! # Definitions (§VIII), as read here
//!
//! * Two stones *see* each other when a path along the lines joins them
//!   avoiding all other stones (so adjacent stones see each other): the
//!   stones a stone sees are those next to it or next to the empty points
//!   reachable from it through empty points.
//! * A *dead-stone designation* is valid when every dead stone sees only
//!   opponent non-dead stones and friendly dead stones. A designation covers
//!   whole chains (marking one stone marks its chain; adjacent stones see
//!   each other, so a valid designation is a union of chains anyway).
//!   Framing stones (stones marked safe) are never dead.
//! * A chain that holds a framing stone (marked safe: a living group whose
//!   eyes lie off the board) is safe whatever its liberties on the board.
//! * A placement is *safe* when the placed stone's chain, after captures,
//!   has at least two liberties; *safe-enough* when it has at least two
//!   *extended* liberties, a dead opponent stone next to the chain counting
//!   as one.
//! * A safe placement is *dame-filling* when the placed stone (on the board
//!   after the placement) sees non-dead stones of both colours; a
//!   safe-enough placement is *territory-filling* when it sees only non-dead
//!   friendly stones and dead opponent stones. Stones placed during the
//!   procedure are non-dead.
//!
//! # The steps, for the player to move
//!
//! 0. If she has a dame-filling placement and every move she made during the
//!    procedure was dame-filling, she makes one.
//! 1. Otherwise, if she has a territory-filling placement, she makes one.
//! 2. Otherwise, if she has prisoners, she delays.
//! 3. Otherwise, if she may declare a draw, she does.
//! 4. Otherwise she resigns, and the score's absolute value is the number of
//!    moves her opponent could still make by the procedure, a draw
//!    declaration counted as one (the opponent plays on alone).
//!
//! # Choices where §VIII is silent (each marked in the code)
//!
//! * *Which placement.* Steps 0 and 1 say "one of these placements"; the
//!   first in board order (row by row from the top, then by column) is made.
//! * *Which delay.* "Prisoners" includes the ultimate prisoner. Step 2 plays
//!   the delay the rules in force allow: the ultimate delay when it must be
//!   the first delay of the game (the simple version) or when the bowl is
//!   empty, otherwise a regular prisoner.
//! * *Before the first delay.* The paper's last remark lets the procedure
//!   start before any delay: a player who reaches step 1 (no dame-filling
//!   placement) while no delay has been played delays first. This is applied
//!   whenever the procedure starts with no delay in the game, and the result
//!   says so.
//! * *The count of step 4* runs the same guidelines for the opponent alone
//!   (the resigning player makes no move), until the opponent too would
//!   reach step 4; superko still applies to the opponent's placements.
//! * *Legality.* Every move is a legal move of the game's rules: a placement
//!   the rules forbid (superko, a surrounded stone) is not a candidate.

use super::game::{Game, Status};
use super::position::{Cell, Colour, Move, Position};
use super::ultimate::{Ending, Special, Variant, Version};
use std::collections::HashSet;
use std::fmt;

/// The kind of a placement the procedure makes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Filling {
    Dame,
    Territory,
}

/// One move the procedure made (or counted, after a resignation).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ExpeditedMove {
    Place { point: usize, filling: Filling },
    Delay,
    Ultimate,
    Draw,
    Resign,
}

impl ExpeditedMove {
    /// The step of §VIII that chose the move.
    pub fn step(self) -> u8 {
        match self {
            ExpeditedMove::Place {
                filling: Filling::Dame,
                ..
            } => 0,
            ExpeditedMove::Place { .. } => 1,
            ExpeditedMove::Delay | ExpeditedMove::Ultimate => 2,
            ExpeditedMove::Draw => 3,
            ExpeditedMove::Resign => 4,
        }
    }

    /// `B C3`, `W delay`, `B ultimate`, `W draw`, `B resign`.
    pub fn name(self, colour: Colour, pos: &Position) -> String {
        match self {
            ExpeditedMove::Place { point, .. } => pos.move_name(Move {
                colour,
                point: Some(point),
            }),
            ExpeditedMove::Delay => format!("{} delay", colour.letter()),
            ExpeditedMove::Ultimate => format!("{} ultimate", colour.letter()),
            ExpeditedMove::Draw => format!("{} draw", colour.letter()),
            ExpeditedMove::Resign => format!("{} resign", colour.letter()),
        }
    }
}

/// What the procedure did and the score it gives.
#[derive(Clone, Debug)]
pub struct ExpeditedCount {
    /// The moves played, in order, the final draw or resignation included.
    pub moves: Vec<(Colour, ExpeditedMove)>,
    /// After a resignation: the moves the opponent could still make, which
    /// the score counts.
    pub extra: Vec<(Colour, ExpeditedMove)>,
    /// The score: positive when Black wins, 0 for a draw.
    pub score: i64,
    /// The game after the procedure (ended).
    pub game: Game,
    /// The dead stones used (whole chains).
    pub dead: Vec<usize>,
    /// Whether the procedure started before the first delay of the game
    /// (the paper's amended procedure).
    pub before_first_delay: bool,
}

/// Why the procedure cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpeditedError {
    /// The game is not played under Ultimate Go rules.
    NotUltimate,
    /// The game has already ended.
    Ended(Ending),
    /// A point designated dead holds no stone.
    NotAStone(usize),
    /// A stone marked safe (a framing stone) designated dead.
    SafeStone(usize),
    /// The dead stone on `dead` sees the stone on `seen`, which is a
    /// friendly non-dead stone or a dead opponent stone.
    Sees { dead: usize, seen: usize },
    /// The procedure made more moves than the bound (it cannot, by superko;
    /// a guard, not an expected outcome).
    TooLong(usize),
}

impl ExpeditedError {
    /// The message, with points named on `pos`.
    pub fn describe(&self, pos: &Position) -> String {
        match self {
            ExpeditedError::NotUltimate => {
                "expedited counting is a procedure of Ultimate Go: make the game with `game(…, rules: ultimate)`".to_string()
            }
            ExpeditedError::Ended(Ending::Draw) => "the game has ended in a draw".to_string(),
            ExpeditedError::Ended(Ending::Resigned(c)) => format!("the game has ended: {c} resigned"),
            ExpeditedError::NotAStone(p) => format!("{} holds no stone to call dead", pos.point_name(*p)),
            ExpeditedError::SafeStone(p) => format!("the stone on {} is marked safe and cannot be dead", pos.point_name(*p)),
            ExpeditedError::Sees { dead, seen } => {
                let which = match (pos.cell(*dead), pos.cell(*seen)) {
                    (Cell::Stone(a), Cell::Stone(b)) if a == b => "a friendly stone that is not dead",
                    _ => "an opponent stone that is dead",
                };
                format!(
                    "the dead stone on {} sees the stone on {}, {which}; a dead stone may see only opponent stones that are not dead and friendly dead stones (§VIII)",
                    pos.point_name(*dead),
                    pos.point_name(*seen)
                )
            }
            ExpeditedError::TooLong(n) => format!("the procedure made more than {n} moves"),
        }
    }
}

impl fmt::Display for Filling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Filling::Dame => "dame-filling",
            Filling::Territory => "territory-filling",
        })
    }
}

/// The stones the stone on `p` sees on `pos` (see the module docs).
pub fn seen_stones(pos: &Position, p: usize) -> Vec<usize> {
    let n = pos.cells_len();
    let mut visited = vec![false; n];
    let mut seen = Vec::new();
    let mut stack = vec![p];
    visited[p] = true;
    while let Some(q) = stack.pop() {
        for r in pos.neighbours(q) {
            if visited[r] {
                continue;
            }
            visited[r] = true;
            match pos.cell(r) {
                Cell::Empty => stack.push(r),
                Cell::Stone(_) => seen.push(r),
            }
        }
    }
    seen.sort_unstable();
    seen
}

/// The dead stones of `game` and of `extra` (points), grown to whole
/// chains and checked against the "sees" condition.
pub fn dead_stones(game: &Game, extra: &[usize]) -> Result<Vec<usize>, ExpeditedError> {
    let pos = game.position();
    let mut dead = vec![false; pos.cells_len()];
    let marked = (0..pos.cells_len()).filter(|&p| game.mark(p) == Some(Status::Dead));
    for p in marked.chain(extra.iter().copied()) {
        if pos.cell(p) == Cell::Empty {
            return Err(ExpeditedError::NotAStone(p));
        }
        for q in pos.chain(p) {
            if pos.is_frame(q) {
                return Err(ExpeditedError::SafeStone(q));
            }
            dead[q] = true;
        }
    }
    for p in (0..pos.cells_len()).filter(|&p| dead[p]) {
        let Cell::Stone(mine) = pos.cell(p) else {
            unreachable!("dead points hold stones")
        };
        for q in seen_stones(pos, p) {
            let bad = match pos.cell(q) {
                Cell::Stone(c) if c == mine => !dead[q],
                Cell::Stone(_) => dead[q],
                Cell::Empty => false,
            };
            if bad {
                return Err(ExpeditedError::Sees { dead: p, seen: q });
            }
        }
    }
    Ok((0..pos.cells_len()).filter(|&p| dead[p]).collect())
}

/// The game and what the procedure remembers while it runs.
struct Run {
    game: Game,
    /// The dead stones still on the board.
    dead: HashSet<usize>,
    /// Whether each player has made only dame-filling moves so far.
    dame_only: [bool; 2],
}

impl Run {
    /// Classifies the placement of `colour` on `p` (legal by the game's
    /// rules), with the game after it.
    fn classify(&self, colour: Colour, p: usize) -> Option<(Filling, Game)> {
        let next = self
            .game
            .play(Move {
                colour,
                point: Some(p),
            })
            .ok()?;
        let pos = next.position();
        let chain = pos.chain(p);
        // Choice: a chain holding a framing stone (a stone marked safe: its
        // eyes lie off the board) counts as safe whatever its liberties.
        let liberties = if chain.iter().any(|&q| pos.is_frame(q)) {
            usize::MAX / 2
        } else {
            pos.liberties(&chain).len()
        };
        let dead_next: usize = {
            let mut d: Vec<usize> = chain
                .iter()
                .flat_map(|&q| pos.neighbours(q))
                .filter(|q| self.dead.contains(q) && pos.cell(*q) == Cell::Stone(colour.opponent()))
                .collect();
            d.sort_unstable();
            d.dedup();
            d.len()
        };
        let seen = seen_stones(pos, p);
        let non_dead = |q: &usize| !self.dead.contains(q) || pos.cell(*q) == Cell::Empty;
        let sees_friend = seen
            .iter()
            .any(|q| non_dead(q) && pos.cell(*q) == Cell::Stone(colour));
        let sees_enemy = seen
            .iter()
            .any(|q| non_dead(q) && pos.cell(*q) == Cell::Stone(colour.opponent()));
        let only_territory = seen.iter().all(|q| {
            let friend = pos.cell(*q) == Cell::Stone(colour);
            (friend && non_dead(q)) || (!friend && self.dead.contains(q))
        });
        if liberties >= 2 && sees_friend && sees_enemy {
            Some((Filling::Dame, next))
        } else if liberties + dead_next >= 2 && only_territory {
            Some((Filling::Territory, next))
        } else {
            None
        }
    }

    /// The first placement of `colour` of the kind `want` (choice: board
    /// order).
    fn placement(&self, colour: Colour, want: Filling) -> Option<(usize, Game)> {
        let pos = self.game.position();
        (0..pos.cells_len())
            .filter(|&p| pos.cell(p) == Cell::Empty)
            .find_map(|p| match self.classify(colour, p) {
                Some((f, g)) if f == want => Some((p, g)),
                _ => None,
            })
    }

    /// The delay the rules allow `colour` now (choice: see the module docs).
    fn delay(&self, colour: Colour) -> Option<(ExpeditedMove, Game)> {
        let state = self.game.nopass()?;
        let must_be_ultimate =
            state.rules.version == Version::Simple && state.first_ultimate.is_none();
        let order = if must_be_ultimate || state.bowls[colour.index()] == 0 {
            [Special::Ultimate, Special::Delay]
        } else {
            [Special::Delay, Special::Ultimate]
        };
        order.into_iter().find_map(|m| {
            let g = self.game.act(colour, m).ok()?;
            Some((
                if m == Special::Ultimate {
                    ExpeditedMove::Ultimate
                } else {
                    ExpeditedMove::Delay
                },
                g,
            ))
        })
    }

    /// The move of steps 0–3 for `colour`, or `None` (step 4). `amended`:
    /// no delay has been played in the game and the procedure started
    /// before one.
    fn next_move(&self, colour: Colour, amended: bool) -> Option<(ExpeditedMove, Game)> {
        if self.dame_only[colour.index()] {
            if let Some((p, g)) = self.placement(colour, Filling::Dame) {
                let m = ExpeditedMove::Place {
                    point: p,
                    filling: Filling::Dame,
                };
                return Some((m, g));
            }
        }
        let no_delay_yet = self.game.nopass().is_some_and(|s| s.delays == 0);
        if amended && no_delay_yet {
            if let Some(d) = self.delay(colour) {
                return Some(d);
            }
        }
        if let Some((p, g)) = self.placement(colour, Filling::Territory) {
            let m = ExpeditedMove::Place {
                point: p,
                filling: Filling::Territory,
            };
            return Some((m, g));
        }
        if let Some(d) = self.delay(colour) {
            return Some(d);
        }
        let g = self.game.act(colour, Special::Draw).ok()?;
        Some((ExpeditedMove::Draw, g))
    }

    fn record(&mut self, colour: Colour, m: ExpeditedMove, g: Game) {
        if !matches!(
            m,
            ExpeditedMove::Place {
                filling: Filling::Dame,
                ..
            }
        ) {
            self.dame_only[colour.index()] = false;
        }
        let pos = g.position();
        self.dead.retain(|&q| pos.cell(q) != Cell::Empty);
        self.game = g;
    }
}

/// Runs the procedure of §VIII on `game` (under Ultimate Go rules) with the
/// stones marked dead in the game and the chains through `dead`.
pub fn expedited_count(game: &Game, dead: &[usize]) -> Result<ExpeditedCount, ExpeditedError> {
    let Some(state) = game.nopass() else {
        return Err(ExpeditedError::NotUltimate);
    };
    if state.rules.variant != Variant::Ultimate {
        return Err(ExpeditedError::NotUltimate);
    }
    if let Some(e) = state.ended {
        return Err(ExpeditedError::Ended(e));
    }
    let dead = dead_stones(game, dead)?;
    let before_first_delay = state.delays == 0;
    let mut run = Run {
        game: game.clone(),
        dead: dead.iter().copied().collect(),
        dame_only: [true, true],
    };
    // Each placement fills a point of a board that never repeats and each
    // delay empties a bowl that only captures fill: the procedure ends. The
    // bound is a guard.
    let bound =
        8 * game.position().cells_len() + 64 + 4 * (state.bowls[0] + state.bowls[1]) as usize;
    let mut moves = Vec::new();
    loop {
        if moves.len() > bound {
            return Err(ExpeditedError::TooLong(bound));
        }
        let colour = run.game.to_move();
        match run.next_move(colour, before_first_delay) {
            Some((m, g)) => {
                moves.push((colour, m));
                let ended = m == ExpeditedMove::Draw;
                run.record(colour, m, g);
                if ended {
                    return Ok(ExpeditedCount {
                        moves,
                        extra: Vec::new(),
                        score: 0,
                        game: run.game,
                        dead,
                        before_first_delay,
                    });
                }
            }
            None => {
                moves.push((colour, ExpeditedMove::Resign));
                let ended = run
                    .game
                    .act(colour, Special::Resign)
                    .expect("resigning is always allowed in a game not over");
                // The opponent plays on alone (choice: see the module docs).
                let winner = colour.opponent();
                let mut alone = Run {
                    game: run.game.clone().with_turn(winner),
                    dead: run.dead.clone(),
                    dame_only: run.dame_only,
                };
                let mut extra = Vec::new();
                while let Some((m, g)) = alone.next_move(winner, before_first_delay) {
                    if extra.len() > bound {
                        return Err(ExpeditedError::TooLong(bound));
                    }
                    extra.push((winner, m));
                    if m == ExpeditedMove::Draw {
                        break;
                    }
                    alone.record(winner, m, g.with_turn(winner));
                }
                let count = extra.len() as i64;
                return Ok(ExpeditedCount {
                    moves,
                    extra,
                    score: winner.sign() * count,
                    game: ended,
                    dead,
                    before_first_delay,
                });
            }
        }
    }
}
