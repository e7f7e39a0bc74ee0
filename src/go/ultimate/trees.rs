//! Abstract Ultimate Go: the rules of §III played on a sum of game trees
//! instead of a board, so that the solver and the theorems of the module
//! docs can be checked on sums of arbitrary short games, not only on the
//! sums of Go regions a small board can hold.
//!
//! **What an abstract position is (the choice made here).** A finite sum
//! of components; each component is a node of a finite game tree. A
//! *placement* by a player moves one component along one of that player's
//! edges, and each edge carries the number of opponent stones it
//! *captures*, which go to the mover's bowl (rule 4). Everything else is
//! the rules of a board: no pass, a delay returns one prisoner (rule 6),
//! one ultimate prisoner each with its delay and the draw right (rules 3,
//! 6, 8), the simple version's restrictions, komi as stones in a bowl. A
//! player with no placement and nothing to return resigns. The stone count
//! is the bowls and the captures: a component has no board, so the §III
//! invariant "stones in the game" reduces to the bowls, which the solver
//! keeps as on a board.
//!
//! What a board has and a tree has not: repetition. Every placement moves
//! one component down its tree, so no sum of components can come back and
//! positional superko never bites; the solver runs without a history
//! ([`super::Solver::new`] with `track_history` false). That is the case of
//! Go the theorems are stated for ("where no position can repeat").
//!
//! The value of a component, as a normal-play game, is `{ c + GL | −c + GR
//! }` over its edges (a capture of `c` stones is `c` free delays); an
//! integer `n` is `n` placements only Black can make (territory), or a
//! capture of `n` stones on the edge into a terminal node. [`TreeArena::
//! from_game`] builds a component from a canonical game (captures 0), so
//! any short game can be played as Ultimate Go.

use super::Arena;
use crate::game::{CgResult, GameId, Store};
use crate::go::position::Colour;
use std::collections::HashMap;

/// The most components a sum may have (the board is a fixed array).
pub const MAX_COMPONENTS: usize = 6;

/// A position: the node of each component (unused slots hold the terminal
/// node 0, which has no edges).
pub type TreeBoard = [u16; MAX_COMPONENTS];

/// One node of a game tree: each player's edges, as (node after, stones
/// captured).
#[derive(Clone, Debug, Default)]
pub struct TreeNode {
    pub black: Vec<(u16, u32)>,
    pub white: Vec<(u16, u32)>,
}

/// The game trees of an abstract sum, as an [`Arena`]. Node 0 is the
/// terminal node `{ | }`.
#[derive(Clone, Debug)]
pub struct TreeArena {
    nodes: Vec<TreeNode>,
    /// Nodes built from canonical games, by game.
    from_games: HashMap<GameId, u16>,
}

impl Default for TreeArena {
    fn default() -> Self {
        TreeArena::new()
    }
}

impl TreeArena {
    pub fn new() -> TreeArena {
        TreeArena {
            nodes: vec![TreeNode::default()],
            from_games: HashMap::new(),
        }
    }

    /// A new node with these edges (their targets must exist already, so a
    /// tree is built from its leaves up and has no cycle).
    pub fn node(&mut self, black: Vec<(u16, u32)>, white: Vec<(u16, u32)>) -> u16 {
        let n = self.nodes.len() as u16;
        assert!(
            black.iter().chain(&white).all(|&(t, _)| t < n),
            "edges lead to existing nodes"
        );
        self.nodes.push(TreeNode { black, white });
        n
    }

    pub fn get(&self, n: u16) -> &TreeNode {
        &self.nodes[n as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The component of a game's canonical form: Black's edges to its Left
    /// options, White's to its Right options, no captures.
    pub fn from_game(&mut self, store: &mut Store, g: GameId) -> u16 {
        if let Some(&n) = self.from_games.get(&g) {
            return n;
        }
        let (left, right) = store.options(g);
        let black = left
            .iter()
            .map(|&l| (self.from_game(store, l), 0))
            .collect();
        let white = right
            .iter()
            .map(|&r| (self.from_game(store, r), 0))
            .collect();
        let n = self.node(black, white);
        self.from_games.insert(g, n);
        n
    }

    /// The normal-play value of node `n`: `{ c + GL | −c + GR }` over its
    /// edges (module docs).
    pub fn value(&self, store: &mut Store, n: u16) -> CgResult<GameId> {
        let mut memo = HashMap::new();
        self.value_memo(store, n, &mut memo)
    }

    fn value_memo(
        &self,
        store: &mut Store,
        n: u16,
        memo: &mut HashMap<u16, GameId>,
    ) -> CgResult<GameId> {
        if let Some(&g) = memo.get(&n) {
            return Ok(g);
        }
        let mut side = |edges: &[(u16, u32)], sign: i64, memo: &mut HashMap<u16, GameId>| {
            edges
                .iter()
                .map(|&(t, c)| {
                    let v = self.value_memo(store, t, memo)?;
                    let c = store.integer(sign * i64::from(c));
                    store.add(c, v)
                })
                .collect::<CgResult<Vec<GameId>>>()
        };
        let node = &self.nodes[n as usize];
        let left = side(&node.black, 1, memo)?;
        let right = side(&node.white, -1, memo)?;
        let g = store.canonical(left, right)?;
        memo.insert(n, g);
        Ok(g)
    }

    /// The value of a position: the sum of its components' values.
    pub fn board_value(&self, store: &mut Store, board: &TreeBoard) -> CgResult<GameId> {
        let mut sum = store.zero();
        for &n in board {
            let v = self.value(store, n)?;
            sum = store.add(sum, v)?;
        }
        Ok(sum)
    }
}

/// A position of the given components (at most [`MAX_COMPONENTS`]).
pub fn tree_board(components: &[u16]) -> TreeBoard {
    assert!(components.len() <= MAX_COMPONENTS, "too many components");
    let mut b = [0; MAX_COMPONENTS];
    b[..components.len()].copy_from_slice(components);
    b
}

impl Arena for TreeArena {
    type Board = TreeBoard;
    /// Every edge of `colour` in every component.
    fn placements(&self, board: TreeBoard, colour: Colour, out: &mut Vec<(TreeBoard, u32)>) {
        for (i, &n) in board.iter().enumerate() {
            let node = &self.nodes[n as usize];
            let edges = match colour {
                Colour::Black => &node.black,
                Colour::White => &node.white,
            };
            for &(t, c) in edges {
                let mut b = board;
                b[i] = t;
                out.push((b, c));
            }
        }
    }
    /// A tree never leads back to a node above it.
    fn can_recur(&self, _now: TreeBoard, _earlier: TreeBoard) -> bool {
        false
    }
}
