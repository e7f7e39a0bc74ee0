//! Exact play of a framed region on a game under its rule set, with ko
//! threats as moves elsewhere: the results of README's "Ko rules" table
//! that a local value cannot give (the New Ko Rules on coupled kos and on
//! eternal life, whose legality depends on the game's history).
//!
//! The region is a diagram whose uppercase stones are immortal (its frame),
//! taken as the whole board of a [`Game`] under the rule set; the game's own
//! judge ([`Game::play`], [`Game::play_elsewhere`]) decides every move, so
//! the search knows no rule of its own. A player to move may
//! * play on any point of the region (every move the game allows),
//! * play a *ko threat*, if he has one left: a tenuki ([`Game::play_elsewhere`])
//!   that the opponent answers at once with a tenuki of his own (a threat
//!   that must be answered, as θ in the ko solver), after which the same
//!   player is to move again; under the New Ko Rules the pair starts a new
//!   epoch and ends the ko-stone move-sequence, as any stone elsewhere does,
//! * pass. Two passes in a row end the play.
//!
//! Play ends, as in the ko solver (`ko::solve`), when the region is
//! settled or after two passes in a row. The board is valued by the local
//! search under the basic ko rule (the one home of Go scoring here:
//! territory scoring, captures as the search counts them, dead stones as its
//! values say): the region is *settled* when that value is a number, and
//! the result is Black's prisoners minus White's plus that number. After two
//! passes an unsettled board counts at its mean, a ko at its komaster mean
//! with the player who did not make the second pass as komaster (the
//! solver's rule: ending play with a ko open must not pay the one who ends
//! it). Both players play the best they can: the result is the minimax
//! score of the whole tree, once with Black first and once with White
//! first.
//!
//! The search is exhaustive. Under the rules whose legality of later moves
//! depends only on the current board, the last two boards and the New Ko
//! Rules' state ([`Game::rule_state_key`]: basic, none, the New Ko Rules),
//! a *whole state* is that key with the threats left and the passes in a
//! row. A board play that would bring back a whole state of its own line is
//! refused, as the ko solver refuses a repeated state of the whole sum
//! (that is how the basic rule's results in README's table end the cycles
//! the basic rule alone lets run for ever); the result says how many moves
//! were refused this way and the first such line, so a table can tell
//! where the rule set alone did not end play. (A pass never counts as the
//! repeating move: every cycle also holds a board play, which is refused
//! the next time round.) Values that refused no move for repeating a state
//! above them are kept in a table by whole state, less the prisoners taken
//! before (the rest of the play does not depend on them). Under the superko
//! rules every board play makes a new board, so the tree is finite and is
//! searched whole, without the table (their legality depends on the whole
//! history).
//! Each state searched counts against the budget; the local search of each
//! board (once per board) has the same budget of its own.

use super::game::{Game, RuleStateKey};
use super::position::{Cell, Colour, Move, Position};
use super::search::{go_value, GoError, KoRule, SearchOptions};
use crate::game::{CgError, Store};
use crate::ko::{Component, Komaster};
use num_rational::BigRational;
use std::collections::HashMap;

type Q = BigRational;

/// Why a fight has no result.
#[derive(Clone, Debug)]
pub enum FightError {
    /// The node budget ran out.
    Budget { budget: u64 },
    /// The local search of a board failed (its budget, a limit).
    Local(GoError),
    /// Interrupted, or a limit of [`crate::limits`].
    Cg(CgError),
}

impl From<CgError> for FightError {
    fn from(e: CgError) -> Self {
        FightError::Cg(e)
    }
}

impl std::fmt::Display for FightError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FightError::Budget { budget } => {
                write!(f, "the fight needs more than {budget} states (its budget)")
            }
            FightError::Local(e) => write!(f, "the local value of a board of the fight: {e}"),
            FightError::Cg(e) => write!(f, "{e}"),
        }
    }
}

/// The results of a fight: Black's score with Black first and with White
/// first, and the states searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FightResult {
    pub black_first: Q,
    pub white_first: Q,
    pub nodes: u64,
    /// Moves refused because they would have repeated a whole state of
    /// their line (0: the rule set alone ended every line searched), and
    /// the first such line, from the state repeated to the refused move.
    pub refused: u64,
    pub cycle: Option<Vec<String>>,
}

/// A state of the search.
#[derive(Clone)]
struct Node {
    game: Game,
    /// Threats left to Black and White.
    threats: [u32; 2],
    /// Passes in a row just before.
    passes: u8,
}

/// What a board is worth locally (module docs): its value when a number,
/// and its count after two passes with Black or White as komaster.
#[derive(Clone)]
struct Local {
    number: Option<Q>,
    count: [Q; 2],
}

/// What a memo entry and the cycle check are keyed by.
type Key = (RuleStateKey, [u32; 2], u8);

struct Search<'a> {
    store: &'a mut Store,
    region: Vec<usize>,
    budget: u64,
    nodes: u64,
    /// The value of a state less the prisoners taken before it (what is
    /// still to be won does not depend on them).
    memo: HashMap<Key, Q>,
    /// The states of the line being searched, with their depth.
    path: HashMap<Key, usize>,
    line: Vec<String>,
    locals: HashMap<Vec<Cell>, Local>,
    /// The lowest depth of the line whose state a move of the subtree being
    /// searched was refused for repeating (`usize::MAX`: none).
    taint: usize,
    /// Moves refused for repeating a whole state, and the first such line
    /// (from the state repeated to the refused move).
    refused: u64,
    cycle: Option<Vec<String>>,
}

/// Plays the region of `game` out under its rule set with `threats`
/// (Black's, White's) ko threats, once with each player first (module
/// docs). `game`'s player to move is ignored; its frame stones are the
/// region's frame.
pub fn fight(
    store: &mut Store,
    game: &Game,
    threats: [u32; 2],
    budget: u64,
) -> Result<FightResult, FightError> {
    let pos = game.position();
    let region: Vec<usize> = (0..pos.cells_len()).filter(|&p| !pos.is_frame(p)).collect();
    let mut s = Search {
        store,
        region,
        budget,
        nodes: 0,
        memo: HashMap::new(),
        path: HashMap::new(),
        line: Vec::new(),
        locals: HashMap::new(),
        taint: usize::MAX,
        refused: 0,
        cycle: None,
    };
    let mut first = |colour: Colour| {
        let g = game
            .clone()
            .with_settings(colour, game.komi().clone(), game.rules())
            .with_start_created_by(colour.opponent());
        s.path.clear();
        s.best(Node {
            game: g,
            threats,
            passes: 0,
        })
    };
    let black_first = first(Colour::Black)?;
    let white_first = first(Colour::White)?;
    Ok(FightResult {
        black_first,
        white_first,
        nodes: s.nodes,
        refused: s.refused,
        cycle: s.cycle,
    })
}

impl Search<'_> {
    fn best(&mut self, node: Node) -> Result<Q, FightError> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(FightError::Budget {
                budget: self.budget,
            });
        }
        self.store.tick()?;
        let pos = node.game.position();
        let prisoners = Q::from_integer(
            (pos.prisoners(Colour::Black) as i64 - pos.prisoners(Colour::White) as i64).into(),
        );
        if let Some(n) = self.local(pos)?.number {
            return Ok(prisoners + n);
        }
        let key = node
            .game
            .rule_state_key()
            .map(|k| (k, node.threats, node.passes));
        let depth = self.line.len();
        let mut on_path = false;
        if let Some(k) = &key {
            if let Some(v) = self.memo.get(k) {
                return Ok(prisoners + v);
            }
            // (A state reached again through a pass keeps its first depth.)
            if !self.path.contains_key(k) {
                self.path.insert(k.clone(), depth);
                on_path = true;
            }
        }
        let outer = std::mem::replace(&mut self.taint, usize::MAX);
        let value = self.children(&node, &prisoners);
        let inner = self.taint;
        self.taint = outer.min(inner);
        if let Some(k) = key {
            if on_path {
                self.path.remove(&k);
            }
            // A value that refused no move for repeating a state above this
            // one does not depend on the line that led here.
            if let (Ok(v), true) = (&value, inner >= depth) {
                self.memo.insert(k, v - &prisoners);
            }
        }
        value
    }

    /// Whether a move (not a pass) to `next` would repeat a whole state of
    /// the line (module docs): it is then refused, and counted.
    fn repeats(&mut self, next: &Game, threats: [u32; 2], text: &str) -> bool {
        let Some(k) = next.rule_state_key() else {
            return false;
        };
        let Some(&depth) = self.path.get(&(k, threats, 0)) else {
            return false;
        };
        self.refused += 1;
        self.taint = self.taint.min(depth);
        if self.cycle.is_none() {
            let mut line = self.line[depth..].to_vec();
            line.push(text.to_string());
            self.cycle = Some(line);
        }
        true
    }

    /// The best score for the player to move, over every move.
    fn children(&mut self, node: &Node, prisoners: &Q) -> Result<Q, FightError> {
        let g = &node.game;
        let me = g.to_move();
        let mut best: Option<Q> = None;
        let consider = |v: Q, best: &mut Option<Q>| {
            let better = match best {
                None => true,
                Some(b) => match me {
                    Colour::Black => v > *b,
                    Colour::White => v < *b,
                },
            };
            if better {
                *best = Some(v);
            }
        };
        let pos = g.position();
        for i in 0..self.region.len() {
            let p = self.region[i];
            if pos.cell(p) != Cell::Empty {
                continue;
            }
            let Ok(next) = g.play(Move {
                colour: me,
                point: Some(p),
            }) else {
                continue;
            };
            let text = pos.move_name_at(me, p);
            if self.repeats(&next, node.threats, &text) {
                continue;
            }
            self.line.push(text);
            let v = self.best(Node {
                game: next,
                threats: node.threats,
                passes: 0,
            });
            self.line.pop();
            consider(v?, &mut best);
        }
        if node.threats[me.index()] > 0 {
            // A threat and its answer (both tenukis, which every rule allows).
            if let Ok(next) = g
                .play_elsewhere(me)
                .and_then(|h| h.play_elsewhere(me.opponent()))
            {
                let mut threats = node.threats;
                threats[me.index()] -= 1;
                // (Never a repetition: a threat fewer is left.)
                self.line
                    .push(format!("{} t, {} t", me.letter(), me.opponent().letter()));
                let v = self.best(Node {
                    game: next,
                    threats,
                    passes: 0,
                });
                self.line.pop();
                consider(v?, &mut best);
            }
        }
        let v = if node.passes >= 1 {
            // The second pass: the board at its count, the first passer
            // (the opponent) as komaster.
            let local = self.local(pos)?;
            prisoners + &local.count[me.opponent().index()]
        } else {
            let passed = g
                .play(Move {
                    colour: me,
                    point: None,
                })
                .expect("a pass is always legal");
            self.line.push(format!("{} pass", me.letter()));
            let v = self.best(Node {
                game: passed,
                threats: node.threats,
                passes: node.passes + 1,
            });
            self.line.pop();
            v?
        };
        consider(v, &mut best);
        Ok(best.expect("a pass is always a move"))
    }

    /// The local value of the board of `pos` (module docs), once per board.
    fn local(&mut self, pos: &Position) -> Result<Local, FightError> {
        if let Some(l) = self.locals.get(&pos.cells) {
            return Ok(l.clone());
        }
        let mut board = pos.clone();
        board.prisoners = [0, 0];
        board.ko_ban = None;
        let opts = SearchOptions {
            node_budget: self.budget,
            ko_rule: KoRule::Basic,
            ..SearchOptions::default()
        };
        let v = go_value(self.store, &board, &opts).map_err(FightError::Local)?;
        let parts = v.components(self.store);
        let mut number = Some(Q::from_integer(0.into()));
        let mut count = [Q::from_integer(0.into()), Q::from_integer(0.into())];
        for part in &parts {
            match part {
                Component::Short(g) => {
                    let mean = self.store.mean(*g)?.to_rational();
                    if !self.store.is_number(*g) {
                        number = None;
                    }
                    for c in count.iter_mut() {
                        *c += &mean;
                    }
                }
                Component::Ko { graph, node } => {
                    number = None;
                    for (c, k) in count.iter_mut().zip([Komaster::Black, Komaster::White]) {
                        let mean = graph
                            .mean(self.store, *node, k)
                            .map_err(|e| FightError::Local(GoError::KoGraph(e)))?;
                        *c += mean;
                    }
                }
                Component::Threats { .. } | Component::Compound(_) => {
                    unreachable!("a Go region's value has no threats or compounds")
                }
            }
        }
        let number = number.map(|_| count[0].clone());
        let l = Local { number, count };
        self.locals.insert(pos.cells.clone(), l.clone());
        Ok(l)
    }
}

/// Territory scoring of a settled board, for the tests: prisoners, and each
/// empty area bordered by one colour's stones only.
#[cfg(test)]
fn score(pos: &Position) -> i64 {
    let mut total = pos.prisoners(Colour::Black) as i64 - pos.prisoners(Colour::White) as i64;
    let mut seen = vec![false; pos.cells_len()];
    for start in 0..pos.cells_len() {
        if seen[start] || pos.cell(start) != Cell::Empty {
            continue;
        }
        seen[start] = true;
        let mut area = vec![start];
        let mut borders = [false; 2];
        let mut i = 0;
        while i < area.len() {
            let p = area[i];
            i += 1;
            for q in pos.neighbours(p) {
                match pos.cell(q) {
                    Cell::Empty if !seen[q] => {
                        seen[q] = true;
                        area.push(q);
                    }
                    Cell::Empty => {}
                    Cell::Stone(c) => borders[c.index()] = true,
                }
            }
        }
        match borders {
            [true, false] => total += area.len() as i64,
            [false, true] => total -= area.len() as i64,
            _ => {}
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{KoRule, RuleSet};
    use num_rational::BigRational;

    fn framed(diagram: &str, ko_rule: KoRule) -> Game {
        let pos = Position::parse(diagram).unwrap();
        let rules = RuleSet {
            ko_rule,
            ..RuleSet::default()
        };
        Game::new(
            &pos,
            Colour::Black,
            BigRational::from_integer(0.into()),
            rules,
        )
        .unwrap()
        .with_frames()
    }

    /// The basic ko played out under the New Ko Rules gives what the ko
    /// solver gives its ko graph under the basic rule (README's table):
    /// Black first takes and fills (1), White first connects (0), two
    /// White threats win White the ko; the rules alone end every line.
    #[test]
    fn the_basic_ko_is_the_basic_rule_with_threats() {
        let mut store = Store::new();
        let g = framed("X X O O\nX o . O\nX X O O", KoRule::NewKoRules);
        let q = |n: i64| Q::from_integer(n.into());
        for (threats, want) in [([0, 0], [1, 0]), ([2, 0], [1, 0]), ([0, 2], [0, 0])] {
            let r = fight(&mut store, &g, threats, 10_000).unwrap();
            assert_eq!([r.black_first, r.white_first], want.map(q), "{threats:?}");
            assert_eq!(r.refused, 0);
        }
        // With no ko rule the retake repeats the start and is refused.
        let r = fight(
            &mut store,
            &framed("X X O O\nX o . O\nX X O O", KoRule::NoRule),
            [0, 0],
            10_000,
        )
        .unwrap();
        assert_eq!(r.cycle, Some(vec!["B C2".to_string(), "W B2".to_string()]));
        let e = fight(&mut store, &g, [2, 0], 5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the fight needs more than 5 states (its budget)"
        );
    }

    #[test]
    fn territory_is_counted_on_a_settled_board() {
        let pos = Position::parse("X X O O\nX . . O\nX X O O").unwrap();
        assert_eq!(score(&pos), 0);
        let pos = Position::parse("X X X O\nX . . O\nX X X O").unwrap();
        assert_eq!(score(&pos), 0, "both empty points touch both colours");
        let pos = Position::parse("X X X O\nX . X O\nX X X O").unwrap();
        assert_eq!(score(&pos), 1);
    }
}
