//! A brute-force oracle for the ko graph walk (tests only).
//!
//! The oracle builds the position graph of a component by plain recursion
//! over [`Position::play_move`]. It does not use the search's bit boards,
//! its tables, mirror images, settled areas or the walk's table of
//! positions met. It then finds the graph's strongly connected parts with
//! its own Tarjan, and the positions that reach a cycle (in a part of two or
//! more positions, or with a move to such a position).
//!
//! Those positions must be the nodes of the ko graph that [`go_value`]
//! makes of the component (module docs of `kos`, steps 1 and 2), each node
//! found by replaying its line. The comparison is exact:
//! * the same positions;
//! * for each node, its Black moves as Left options and its White moves as
//!   Right options, in point order;
//! * a move to a position that reaches a cycle is an option to that node,
//!   with the gain `φ + g − φ'` (`φ` the potentials; `g` what the move
//!   scores at once, Black's points counted positive: the prisoners it takes
//!   under Japanese scoring, the stones of the component it makes immortal
//!   under area scoring);
//! * every other move is a terminal game.
//!
//! The settled areas are not pruned here (`prune_settled: false`), so that
//! a node's moves are every legal move on its component. Both scorings.
//!
//! The same count comes from outside the crate for the open areas
//! (`benches/walk_bound.rs` enumerates their positions; BENCHMARKS.md,
//! "The open 4 × 4 area, session 15"): an enumeration with Tarjan over
//! plain bit masks finds 149 953 positions of the open 3 × 4 area,
//! 5 291 484 of the 3 × 5 one and 19 543 096 of the 4 × 4 one that reach a
//! cycle, the node counts of yose's graphs.

use super::*;
use crate::game::{Dyadic, Store};
use crate::ko::{NodeId, Side, Target};
use std::collections::HashMap;

type Cells = Vec<Cell>;

fn cells(p: &Position) -> Cells {
    (0..p.cells_len()).map(|q| p.cell(q)).collect()
}

/// Black's prisoners minus White's.
fn score(p: &Position) -> i64 {
    i64::from(p.prisoners(Colour::Black)) - i64::from(p.prisoners(Colour::White))
}

/// One position of the oracle's graph: its moves, Black's then White's,
/// each in point order, as (colour, point, position reached, points scored
/// at once with Black's counted positive).
struct Met {
    pos: Position,
    moves: Vec<(Colour, usize, usize, i64)>,
}

/// The position graph of `comp` (points, in increasing order) from `root`:
/// every position reachable by moves on `comp`, with no ko ban (the graph
/// is of positions; the ban is the ko graph's business).
fn position_graph(root: &Position, comp: &[usize], rules: Rules) -> Vec<Met> {
    // Under area scoring a stone scores when its chain becomes immortal
    // (joins a framing stone); immortal stones are never captured.
    let immortal = |p: &Position| {
        comp.iter()
            .filter(|&&q| p.cell(q) != Cell::Empty && p.is_immortal(q))
            .count() as i64
    };
    let mut index: HashMap<Cells, usize> = HashMap::new();
    let mut graph: Vec<Met> = Vec::new();
    let mut todo = vec![0];
    index.insert(cells(root), 0);
    graph.push(Met {
        pos: root.clone(),
        moves: Vec::new(),
    });
    while let Some(i) = todo.pop() {
        let mut here = graph[i].pos.clone();
        here.ko_ban = None;
        let mut moves = Vec::new();
        for colour in [Colour::Black, Colour::White] {
            for &p in comp {
                let Ok(next) = here.play_move(Move {
                    colour,
                    point: Some(p),
                }) else {
                    continue;
                };
                let taken = match rules {
                    Rules::Japanese => score(&next) - score(&here),
                    Rules::Chinese => colour.sign() * (immortal(&next) - immortal(&here)),
                };
                let key = cells(&next);
                let j = match index.get(&key) {
                    Some(&j) => j,
                    None => {
                        let j = graph.len();
                        index.insert(key, j);
                        graph.push(Met {
                            pos: next,
                            moves: Vec::new(),
                        });
                        todo.push(j);
                        j
                    }
                };
                moves.push((colour, p, j, taken));
            }
        }
        graph[i].moves = moves;
    }
    graph
}

/// Whether each position reaches a cycle: Tarjan's strongly connected
/// components (recursive: the graphs here are small), a component
/// reaching a cycle when it has two positions or more or a move to a
/// component that does (Tarjan closes the components reached first).
fn reaches_cycle(graph: &[Met]) -> Vec<bool> {
    struct Tarjan<'a> {
        graph: &'a [Met],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        loopy: Vec<bool>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for k in 0..self.graph[v].moves.len() {
                let w = self.graph[v].moves[k].2;
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut part = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack[w] = false;
                    part.push(w);
                    if w == v {
                        break;
                    }
                }
                // Moves out of the part lead to parts closed before.
                let loopy = part.len() > 1
                    || part.iter().any(|&u| {
                        self.graph[u]
                            .moves
                            .iter()
                            .any(|m| !part.contains(&m.2) && self.loopy[m.2])
                    });
                for u in part {
                    self.loopy[u] = loopy;
                }
            }
        }
    }
    let n = graph.len();
    let mut t = Tarjan {
        graph,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        loopy: vec![false; n],
    };
    t.visit(0);
    t.loopy
}

/// The components of `pos` the walk could start from: connected sets of
/// points that are empty or hold mortal stones, in increasing order.
fn components(pos: &Position) -> Vec<Vec<usize>> {
    let free = |p: usize| !pos.is_frame(p) && !pos.is_immortal(p);
    let mut seen = vec![false; pos.cells_len()];
    let mut out = Vec::new();
    for start in 0..pos.cells_len() {
        if seen[start] || !free(start) {
            continue;
        }
        seen[start] = true;
        let (mut comp, mut todo) = (vec![start], vec![start]);
        while let Some(p) = todo.pop() {
            for q in pos.neighbours(p) {
                if !seen[q] && free(q) {
                    seen[q] = true;
                    comp.push(q);
                    todo.push(q);
                }
            }
        }
        comp.sort_unstable();
        out.push(comp);
    }
    out
}

/// The position after a node's line (no ko ban between moves: the local
/// game has none).
fn replay(pos: &Position, line: &[String]) -> Position {
    let mut q = pos.clone();
    for w in parse_moves(pos, &line.join(", ")).unwrap() {
        q.ko_ban = None;
        q = q.play_move(w.mv).unwrap();
    }
    q
}

/// Compares every ko graph of `text`'s value with the oracle; returns the
/// number of graphs and of nodes compared.
fn compare(store: &mut Store, text: &str, rules: Rules) -> (usize, usize) {
    let pos = Position::parse(text).unwrap();
    let opts = SearchOptions {
        prune_settled: false,
        ..SearchOptions::with_rules(rules)
    };
    let kos = match go_value(store, &pos, &opts).unwrap() {
        GoValue::Ko { kos, .. } => kos,
        GoValue::Short(_) => Vec::new(),
    };
    // The components whose root reaches a cycle, each with its graph.
    let mut loopy = Vec::new();
    for comp in components(&pos) {
        let graph = position_graph(&pos, &comp, rules);
        let reach = reaches_cycle(&graph);
        if reach[0] {
            loopy.push((comp, graph, reach));
        }
    }
    assert_eq!(kos.len(), loopy.len(), "ko graphs\n{text}");
    let mut nodes = 0;
    for k in &kos {
        // The component of this graph: the one its first move plays in
        // (a graph reaching a cycle has a node after the root).
        let first = replay(&pos, &k.line(NodeId(1)));
        let (comp, graph, reach) = loopy
            .iter()
            .find(|(comp, _, _)| comp.iter().any(|&p| first.cell(p) != pos.cell(p)))
            .unwrap_or_else(|| panic!("no component for a graph\n{text}"));
        let node_of: HashMap<Cells, usize> = (0..k.graph.len())
            .map(|i| (cells(&replay(&pos, &k.line(NodeId(i as u32)))), i))
            .collect();
        assert_eq!(
            node_of.len(),
            k.graph.len(),
            "two nodes, one position\n{text}"
        );
        let loopy_count = reach.iter().filter(|&&r| r).count();
        assert_eq!(k.graph.len(), loopy_count, "nodes\n{text}\n{comp:?}");
        for (met, &r) in graph.iter().zip(reach) {
            if !r {
                assert!(!node_of.contains_key(&cells(&met.pos)), "{text}");
                continue;
            }
            let i = *node_of
                .get(&cells(&met.pos))
                .unwrap_or_else(|| panic!("a position reaching a cycle is no node\n{text}"));
            let node = k.graph.node(NodeId(i as u32));
            for (colour, side) in [(Colour::Black, Side::Left), (Colour::White, Side::Right)] {
                let moves: Vec<_> = met.moves.iter().filter(|m| m.0 == colour).collect();
                let options = node.options(side);
                assert_eq!(options.len(), moves.len(), "moves of k{i}\n{text}");
                for (o, &&(_, p, j, taken)) in moves.iter().enumerate() {
                    let at = pos.point_name(p);
                    match (options.get(o), reach[j]) {
                        (Target::Node(q), true) => {
                            let want = node_of[&cells(&graph[j].pos)];
                            assert_eq!(q.index(), want, "k{i}, {colour:?} {at}\n{text}");
                            let gain =
                                i64::from(k.potentials[i]) + taken - i64::from(k.potentials[want]);
                            assert_eq!(
                                node.gain(side, o),
                                &Dyadic::from_i64(gain),
                                "gain of k{i}, {colour:?} {at}\n{text}"
                            );
                        }
                        (Target::Game(_), false) => {}
                        (t, r) => {
                            panic!("k{i}, {colour:?} {at}: {t:?}, reaches a cycle: {r}\n{text}")
                        }
                    }
                }
            }
            nodes += 1;
        }
    }
    (kos.len(), nodes)
}

#[test]
fn the_walk_makes_a_node_of_each_position_that_reaches_a_cycle() {
    let mut store = Store::new();
    let mut diagrams: Vec<String> = [
        // Open areas: Black on three sides, White's wall at the end.
        "XXXX\nX..O\nX..O\nXXXX",
        "XXXXX\nX...O\nX...O\nXXXXX",
        "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
        // A ko, a ko with captures on its cycles, two kos side by side.
        "XXOOXX\nXo..xO\nXXOOXX",
        "XXXXXXX\nXx.ox.O\nXo.x.oO\nXXXXXXX",
        "XXXXXX\nXxo.xO\nX.ox.O\nXXXXXX",
        "XXOOXXOO\nXo.xOx.O\nXXOOXXOO",
    ]
    .map(String::from)
    .to_vec();
    diagrams.extend(super::tests::random_diagrams(300, 0x0a1e_5eed_0f_ca11));
    let (mut graphs, mut nodes) = (0, 0);
    for rules in [Rules::Japanese, Rules::Chinese] {
        for text in &diagrams {
            let (g, n) = compare(&mut store, text, rules);
            graphs += g;
            nodes += n;
        }
    }
    // Enough graphs and nodes that the comparison means something (the open
    // 3 × 3 area alone is a few thousand nodes).
    expect_test::expect!["graphs 118, nodes 8684"]
        .assert_eq(&format!("graphs {graphs}, nodes {nodes}"));
}
