//! Printing ko graphs in the labelled loopy notation `kw: {{2 | kw} | -1}`.
//!
//! The root is printed first; every other node is written inline where a
//! depth-first walk (Left options, then Right options, in order) first meets
//! it, and by its label everywhere else. A label is printed (`kw: {…}`) only
//! for a node that is referred to somewhere besides the place where it is
//! written out, so the text reads back into the same graph. Short games are
//! printed by [`format_game`] in the chosen style (ASCII: CGSuite's
//! spelling; Unicode: Mathematical Go's glyphs). A move that scores a gain
//! `g ≠ 0` is printed `g + target` (`{2 | -1 + kw}`, `{1 + kb: {…} | 0}`),
//! which reads back as the same scoring edge.
//!
//! [`KoGraph::format_root`] is the partial view of a graph too large to
//! read whole: the root and its options, every other node elided to its
//! label (`{k1: …, 1 + k5: … | k2: …}`); it does not read back.

use super::graph::{KoError, KoGraph, NodeId, Side, Target};
use crate::game::{Dyadic, Store};
use crate::render::{format_game, Style};

impl KoGraph {
    /// The graph as one literal, from its root.
    pub fn format(&self, store: &mut Store, style: Style) -> Result<String, KoError> {
        let n = self.len();
        let mut occurrences = vec![0usize; n];
        for v in self.node_ids() {
            let node = self.node(v);
            for t in node.left().iter().chain(node.right()) {
                if let Target::Node(m) = t {
                    occurrences[m.index()] += 1;
                }
            }
        }
        let needs_label: Vec<bool> = (0..n)
            .map(|v| {
                if v == self.root.index() {
                    occurrences[v] > 0
                } else {
                    occurrences[v] > 1
                }
            })
            .collect();
        let mut p = Printer {
            graph: self,
            store,
            style,
            needs_label,
            written: vec![false; n],
            out: String::new(),
        };
        p.node(self.root)?;
        Ok(p.out)
    }
}

impl KoGraph {
    /// The root one move deep: its label and options, each option that
    /// leads to another node written as that node's label and `…`
    /// (`...` in the ASCII styles), a move back to the root as the root's label, short
    /// games in full; past `most` options a side ends with `… (N more)`.
    pub fn format_root(
        &self,
        store: &mut Store,
        style: Style,
        most: usize,
    ) -> Result<String, KoError> {
        let elided = match style {
            Style::Unicode => "…",
            _ => "...",
        };
        let root = self.node(self.root);
        let mut out = String::new();
        self.push_label(self.root, &mut out);
        out.push_str(": {");
        for side in [Side::Left, Side::Right] {
            let options = root.options(side);
            if side == Side::Right {
                out.push_str(if out.ends_with('{') { "|" } else { " |" });
            }
            for (k, t) in options.iter().enumerate().take(most) {
                match (side, k) {
                    (Side::Left, 0) => {}
                    (Side::Right, 0) => out.push(' '),
                    _ => out.push_str(", "),
                }
                let g = root.gain(side, k);
                if !g.is_zero() {
                    let x = store.number(g.clone());
                    out.push_str(&format_game(store, x, style)?);
                    out.push_str(" + ");
                }
                match t {
                    Target::Game(g) => out.push_str(&format_game(store, g, style)?),
                    Target::Node(m) => {
                        self.push_label(m, &mut out);
                        if m != self.root {
                            out.push_str(": ");
                            out.push_str(elided);
                        }
                    }
                }
            }
            if options.len() > most {
                out.push_str(&format!(", {elided} ({} more)", options.len() - most));
            }
        }
        out.push('}');
        Ok(out)
    }
}

struct Printer<'a> {
    graph: &'a KoGraph,
    store: &'a mut Store,
    style: Style,
    needs_label: Vec<bool>,
    written: Vec<bool>,
    out: String,
}

impl Printer<'_> {
    fn node(&mut self, v: NodeId) -> Result<(), KoError> {
        let i = v.index();
        self.written[i] = true;
        let node = self.graph.node(v);
        if self.needs_label[i] {
            self.graph.push_label(v, &mut self.out);
            self.out.push_str(": ");
        }
        self.out.push('{');
        for (k, t) in node.left().iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.gain(node.gain(Side::Left, k))?;
            self.target(t)?;
        }
        self.out
            .push_str(if node.left().is_empty() { "|" } else { " |" });
        for (k, t) in node.right().iter().enumerate() {
            self.out.push_str(if k > 0 { ", " } else { " " });
            self.gain(node.gain(Side::Right, k))?;
            self.target(t)?;
        }
        self.out.push('}');
        Ok(())
    }

    /// `g + ` before the target of a move scoring `g ≠ 0`.
    fn gain(&mut self, g: &Dyadic) -> Result<(), KoError> {
        if !g.is_zero() {
            let x = self.store.number(g.clone());
            let s = format_game(self.store, x, self.style)?;
            self.out.push_str(&s);
            self.out.push_str(" + ");
        }
        Ok(())
    }

    fn target(&mut self, t: Target) -> Result<(), KoError> {
        match t {
            Target::Game(g) => {
                let s = format_game(self.store, g, self.style)?;
                self.out.push_str(&s);
            }
            Target::Node(m) => {
                if self.written[m.index()] {
                    self.graph.push_label(m, &mut self.out);
                } else {
                    self.node(m)?;
                }
            }
        }
        Ok(())
    }
}
