//! Shorthands for the common ko shapes. Black is Left; `b` is the value when
//! Black wins (fills) the ko, `w` when White does; any short games will do,
//! though the shapes are meant for `b > w`.

use super::graph::{KoGraph, KoNode, NodeId, Target};
use crate::game::GameId;

fn node(label: String, left: Vec<Target>, right: Vec<Target>) -> KoNode {
    KoNode::new(label, true, left, right)
}

fn n(i: usize) -> Target {
    Target::Node(NodeId(i as u32))
}

fn built(nodes: Vec<KoNode>) -> KoGraph {
    // The shapes below are valid by construction: every node reaches `b` or
    // `w`, and every cycle alternates Black's and White's captures.
    KoGraph::from_parts(nodes, NodeId(0)).expect("ko shorthands build valid graphs")
}

impl KoGraph {
    /// The simple direct ko, Black to capture: `kw: {{b | kw} | w}`.
    ///
    /// `kw` (the root): Black may capture, reaching `kb`; White may fill,
    /// ending the ko at `w`. `kb`: the position after Black's capture — Black
    /// may fill (`b`), White may retake (back to `kw`).
    pub fn ko(b: GameId, w: GameId) -> KoGraph {
        built(vec![
            node("kw".into(), vec![n(1)], vec![Target::Game(w)]),
            node("kb".into(), vec![Target::Game(b)], vec![n(0)]),
        ])
    }

    /// The same ko just after Black's capture: `kb: {b | {kb | w}}`.
    pub fn ko_captured(b: GameId, w: GameId) -> KoGraph {
        let g = KoGraph::ko(b, w);
        g.rooted_at(NodeId(1))
    }

    /// The `stages`-stage ko in which Black has the ko and may fill for `b`,
    /// while White needs `stages` successive takes and then a fill to get
    /// `w`. Nodes `s0 … s{stages}`: at `s0` Black fills (`b`) or White takes
    /// (`s1`); at `s_i` (0 < i < stages) Black takes back (`s_{i-1}`) or White
    /// takes again (`s_{i+1}`); at `s{stages}` Black takes back or White
    /// fills (`w`). The root is `s0`. One stage is the simple ko seen after
    /// Black's capture (`s0` = `kb`, `s1` = `kw`); zero stages is the switch
    /// `{b | w}`. Each move is worth `(b − w)/(stages + 2)` (the
    /// three-stage ko with `b = 3`, `w = −4` has miai value `7/5`).
    pub fn multi_stage_ko(stages: usize, b: GameId, w: GameId) -> KoGraph {
        let mut nodes = Vec::with_capacity(stages + 1);
        for i in 0..=stages {
            let left = if i == 0 {
                vec![Target::Game(b)]
            } else {
                vec![n(i - 1)]
            };
            let right = if i == stages {
                vec![Target::Game(w)]
            } else {
                vec![n(i + 1)]
            };
            nodes.push(node(format!("s{i}"), left, right));
        }
        built(nodes)
    }

    /// The approach ko in which Black needs `approaches` approach moves
    /// before the ko becomes the direct ko [`KoGraph::ko`]`(b, w)` (Black to
    /// capture), and White may fill at any time for `w`. Nodes
    /// `a{approaches} … a1` (Black approaches to the next, White fills), then
    /// `kw` and `kb` as in the direct ko; the root is `a{approaches}` (or `kw`
    /// with no approach move).
    pub fn approach_ko(approaches: usize, b: GameId, w: GameId) -> KoGraph {
        let mut nodes = Vec::with_capacity(approaches + 2);
        for k in 0..approaches {
            // Node k is `a{approaches - k}`; its approach leads to node k + 1.
            nodes.push(node(
                format!("a{}", approaches - k),
                vec![n(k + 1)],
                vec![Target::Game(w)],
            ));
        }
        let kw = approaches;
        nodes.push(node("kw".into(), vec![n(kw + 1)], vec![Target::Game(w)]));
        nodes.push(node("kb".into(), vec![Target::Game(b)], vec![n(kw)]));
        built(nodes)
    }
}
