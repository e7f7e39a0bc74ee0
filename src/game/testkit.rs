//! Random games for property tests: one home for the tree generators that the
//! game, play and ko-solver tests share (each picks its own leaves).

use super::{Dyadic, GameId, Nus, Store};
use proptest::prelude::*;
use std::ops::{Range, RangeInclusive};

/// A game tree to be built through `Store::canonical`.
#[derive(Clone, Debug)]
pub(crate) enum Tree {
    /// A number-up-star leaf `x/2 + k·↑ + *n`.
    Leaf(i64, i64, u64),
    Node(Vec<Tree>, Vec<Tree>),
}

/// Trees of depth at most `depth` over `leaf`: below the top, a subtree is a
/// leaf with weight 1 and a node with weight `node_weight`; a node's sides
/// have `options` children each.
pub(crate) fn trees(
    depth: u32,
    leaf: BoxedStrategy<Tree>,
    node_weight: u32,
    options: Range<usize>,
) -> BoxedStrategy<Tree> {
    if depth == 0 {
        return leaf;
    }
    let child = trees(depth - 1, leaf.clone(), node_weight, options.clone());
    let side = prop::collection::vec(child, options);
    prop_oneof![
        1 => leaf,
        node_weight => (side.clone(), side).prop_map(|(l, r)| Tree::Node(l, r)),
    ]
    .boxed()
}

/// Go-like leaves: a number `x/2` for `x` from `halves` (3 parts in 4) or a
/// number-up-star value `x/2 + k·↑ + *n` from the three ranges (1 part in 4).
pub(crate) fn number_or_nus(
    halves: BoxedStrategy<i64>,
    nus: (RangeInclusive<i64>, RangeInclusive<i64>, Range<u64>),
) -> BoxedStrategy<Tree> {
    prop_oneof![
        3 => halves.prop_map(|x| Tree::Leaf(x, 0, 0)),
        1 => nus.prop_map(|(x, k, n)| Tree::Leaf(x, k, n)),
    ]
    .boxed()
}

pub(crate) fn build(s: &mut Store, t: &Tree) -> GameId {
    match t {
        Tree::Leaf(x, k, n) => s.nus(Nus {
            number: Dyadic::new((*x).into(), 1),
            ups: *k,
            nim: *n,
        }),
        Tree::Node(l, r) => {
            let l: Vec<GameId> = l.iter().map(|x| build(s, x)).collect();
            let r: Vec<GameId> = r.iter().map(|x| build(s, x)).collect();
            s.canonical(l, r).unwrap()
        }
    }
}
