//! Kos and ko threats in the language (issue 4): labelled loopy literals,
//! θ, sums that carry them, and the komaster builtins.
//!
//! # Values
//!
//! A value that contains a ko or a ko threat is a [`MixedSum`]: a list of
//! [`Component`]s (short games, ko positions, θ threats, compound games such
//! as `{12 − θ | −12 + θ}`), with names when it is a `board`. A sum whose
//! components are all short is an ordinary [`GameSum`] again.
//!
//! * `kw: {{2 | kw} | -2}` is a ko graph: every brace node of the literal that
//!   carries a label, refers to one, or contains such a node, is a position of
//!   the graph; other options are evaluated as short games. A name inside the
//!   literal that is one of its labels means that node (labels shadow
//!   variables there). A labelled literal with no cycle is an ordinary game.
//! * `θ` (`theta`) is one Black ko threat, `θθ` two, `n . θ` n of them, `-θ`
//!   White's. Threats of one owner merge (`θ + θ` is `θθ`); a Black and a
//!   White threat do not cancel (each side still has a threat to play).
//! * A braced game whose options contain kos or threats is a compound
//!   component: `{12 - θ | -12 + θ}` (region P of Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”: Black's move
//!   leaves 12 and hands White a threat).
//!
//! # Where kos and θ are refused
//!
//! Kos are loopy: nothing that needs a canonical form (comparison, `==`,
//! `canonical`, incentives, atomic weight, the plain `mean` / `temperature` /
//! `thermograph`, printing a sum as one game, play questions until the ko
//! solver takes them) accepts a value with a ko; the error names the ko.
//!
//! θ is worth 0 to the score. **Comparisons** (`==`, `<=`, `≈`, …) count every
//! θ as 0, so `{12 - θ | -12 + θ} == +-12` holds. **Everything else that needs
//! a canonical form refuses θ** with a diagnostic: a function that returns a
//! game built from its argument (`canonical`, `cool`, `incentives`, …) would
//! silently drop the threat, and a numeric question (`mean`, `left_stop`) is
//! one keystroke away from such a game. `drop_threats(X)` states the intent
//! and gives the short game with every θ counted as 0.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::registry::{Builtin, Call};
use super::value::{GameSum, ThermoLabel, Value};
use super::{EvalResult, Interp, Scope, Span, Stop};
use crate::diag::Diagnostic;
use crate::game::{CgError, CgResult, GameId, Store};
use crate::ko::{Component, Compound, KoError, KoGraph, Komaster, NodeSpec, OptionSpec, Side};
use crate::render::{format_game, Style};
use crate::syntax::ast::{BinOp, ChainLink, Expr, ExprKind};

/// The ko builtins (`thermograph`, `mean` and `temperature` of a ko are
/// in `builtins.rs`, through [`thermo_of_ko`]).
pub(super) const BUILTINS: &[Builtin] = &[
    KO,
    KO_CAPTURED,
    MULTI_STAGE_KO,
    APPROACH_KO,
    KO_KIND,
    NODE,
    NODES,
    DROP_THREATS,
];

const KO_ENTRY: Builtin = Builtin {
    name: "",
    params: "b, w",
    arity: (2, 2),
    named: &[],
    returns: "a ko",
    help: "",
    example: "",
    takes_kos: true,
    run: ko_builder,
};

const KO: Builtin = Builtin {
    name: "ko",
    help: "the simple direct ko, Black to capture: kw: {{b | kw} | w}",
    example: "mean(ko(2, -2), komaster: black)",
    ..KO_ENTRY
};
const KO_CAPTURED: Builtin = Builtin {
    name: "ko_captured",
    help: "the same ko just after Black's capture: kb: {b | {kb | w}}",
    example: "thermograph(ko_captured(2, -2), komaster: white)",
    ..KO_ENTRY
};
const MULTI_STAGE_KO: Builtin = Builtin {
    name: "multi_stage_ko",
    params: "n, b, w",
    arity: (3, 3),
    help: "Black fills for b; White needs n takes and a fill for w (one move is worth (b - w)/(n + 2))",
    example: "temperature(multi_stage_ko(2, 4, 0), komaster: black)",
    ..KO_ENTRY
};
const APPROACH_KO: Builtin = Builtin {
    name: "approach_ko",
    params: "n, b, w",
    arity: (3, 3),
    help: "Black needs n approach moves before the direct ko ko(b, w); White may fill for w at any time",
    example: "ko_kind(approach_ko(1, 3, -3))",
    ..KO_ENTRY
};
const KO_KIND: Builtin = Builtin {
    name: "ko_kind",
    params: "K",
    arity: (1, 1),
    returns: "a string",
    help: "\"placid\", \"active\" or \"hyperactive\" (the komaster masts compared)",
    example: "ko_kind(ko(2, -2))",
    ..KO_ENTRY
};
const NODE: Builtin = Builtin {
    name: "node",
    params: "K, \"label\"",
    returns: "a game or ko",
    help: "the position of ko graph K with that label (also K[\"label\"])",
    example: "node(ko(2, -2), \"kw\")",
    ..KO_ENTRY
};
const NODES: Builtin = Builtin {
    name: "nodes",
    params: "K",
    arity: (1, 1),
    returns: "a list of strings",
    help: "the labels of the positions of ko graph K, root first",
    example: "nodes(ko_captured(1, -1))",
    ..KO_ENTRY
};
const DROP_THREATS: Builtin = Builtin {
    name: "drop_threats",
    params: "X",
    arity: (1, 1),
    returns: "a game",
    help: "the short game X with every ko threat θ counted as 0",
    example: "drop_threats({2 | 0})",
    ..KO_ENTRY
};

/// A sum with at least one component that is not a short game.
#[derive(Clone, Debug)]
pub struct MixedSum {
    parts: Rc<[Component]>,
    labels: Option<Rc<[Rc<str>]>>,
}

/// A value from components: an ordinary game sum when every one is short.
pub fn value_of_parts(parts: Vec<Component>, labels: Option<Vec<Rc<str>>>) -> Value {
    if parts.iter().all(|c| matches!(c, Component::Short(_))) {
        let ids: Vec<GameId> = parts
            .iter()
            .filter_map(|c| match c {
                Component::Short(g) => Some(*g),
                _ => None,
            })
            .collect();
        return match labels {
            None if ids.is_empty() => Value::int(0),
            Some(l) => Value::Game(GameSum::labelled(ids, l)),
            None if ids.len() == 1 => Value::game(ids[0]),
            None => Value::Game(GameSum::from_parts(ids)),
        };
    }
    Value::Mixed(MixedSum {
        parts: Rc::from(parts),
        labels: labels.map(Rc::from),
    })
}

impl MixedSum {
    pub fn parts(&self) -> &[Component] {
        &self.parts
    }

    /// The name of component `i`: its region name, or `#i+1`.
    pub fn label(&self, i: usize) -> String {
        match &self.labels {
            Some(l) if i < l.len() => l[i].to_string(),
            _ => format!("#{}", i + 1),
        }
    }

    /// The label of the first ko position met (depth first), if any.
    pub fn first_ko(&self) -> Option<String> {
        first_ko(&self.parts)
    }

    /// The whole text: every ko graph written out, so that it reads back.
    pub fn format(&self, store: &mut Store, style: Style) -> CgResult<String> {
        format_sum(&self.parts, store, style, None)
    }

    /// The text for reading ([`Value::display_summarised`]): a ko graph of
    /// more than [`SUMMARY_KO_NODES`] positions is written one move deep
    /// ([`KoGraph::format_root`]), and a note on it, with its exact sizes,
    /// is pushed on `notes`.
    pub fn format_summarised(
        &self,
        store: &mut Store,
        style: Style,
        notes: &mut Vec<String>,
    ) -> CgResult<String> {
        format_sum(&self.parts, store, style, Some(notes))
    }
}

/// Where values are shown for reading (`print`, the REPL's echo, `yose
/// eval`), a ko graph of more than this many positions is summarised. Go
/// graphs print about 70 bytes per position (241 630 for the 3 514 of the
/// open 3 × 3 area), so the whole text of 100 is about 7 KB, more lines
/// than a screen; no graph printed by the README, the stdlib, the examples
/// or the tests' snapshots was summarised when the rule came in.
pub(crate) const SUMMARY_KO_NODES: usize = 100;
/// The options of each side of the root a summary writes (a Go region has
/// one per empty point).
const SUMMARY_ROOT_OPTIONS: usize = 24;

/// The note under a summarised graph: its exact sizes
/// ([`KoGraph::counts`]) and how to see more of it.
fn summary_note(graph: &KoGraph) -> String {
    let c = graph.counts();
    let plural = |n: usize, one: &str, many: &str| {
        format!("{} {}", grouped(n), if n == 1 { one } else { many })
    };
    let root = graph.label(graph.root());
    let next = graph
        .node(graph.root())
        .left()
        .iter()
        .chain(graph.node(graph.root()).right().iter())
        .find_map(|t| match t {
            crate::ko::Target::Node(m) if m != graph.root() => Some(graph.label(m).into_owned()),
            _ => None,
        })
        .unwrap_or_else(|| root.to_string());
    format!(
        "({root}: a ko graph of {} and {}, {} to short games and {} scoring; {} on cycles, in {} that can repeat; shown one move deep: `node(…, \"{next}\")` is a position, `print str(…)` writes the whole graph)",
        plural(c.positions, "position", "positions"),
        plural(c.moves, "move", "moves"),
        grouped(c.moves_to_short_games),
        grouped(c.scoring_moves),
        plural(c.positions_on_cycles, "position", "positions"),
        plural(c.cycle_groups, "group of positions", "groups of positions"),
    )
}

fn first_ko(parts: &[Component]) -> Option<String> {
    for c in parts {
        match c {
            Component::Ko { graph, node } => return Some(graph.label(*node).to_string()),
            Component::Compound(k) => {
                for o in k.left.iter().chain(k.right.iter()) {
                    if let Some(l) = first_ko(o) {
                        return Some(l);
                    }
                }
            }
            _ => {}
        }
    }
    None
}

fn ko_cg(e: KoError) -> CgError {
    match e {
        KoError::Cg(e) => e,
        other => CgError::TooLarge(other.to_string()),
    }
}

/// Where a summarised ko graph leaves its note; `None`: every graph is
/// written whole.
type Summaries<'a> = Option<&'a mut Vec<String>>;

fn format_component(
    c: &Component,
    store: &mut Store,
    style: Style,
    mut summaries: Summaries,
) -> CgResult<String> {
    Ok(match c {
        Component::Short(g) => format_game(store, *g, style)?,
        Component::Ko { graph, node } => {
            let rooted;
            let graph: &KoGraph = match *node == graph.root() {
                true => graph,
                false => {
                    rooted = graph.rooted_at(*node);
                    &rooted
                }
            };
            if let Some(notes) = &mut summaries {
                if graph.len() > SUMMARY_KO_NODES {
                    notes.push(summary_note(graph));
                    return graph
                        .format_root(store, style, SUMMARY_ROOT_OPTIONS)
                        .map_err(ko_cg);
                }
            }
            graph.format(store, style).map_err(ko_cg)?
        }
        Component::Threats { owner, count } => {
            let sign = if *owner == Side::Left { "" } else { "-" };
            match style {
                Style::Unicode if *count <= 4 => format!("{sign}{}", "θ".repeat(*count as usize)),
                Style::Unicode => format!("{sign}{count}.θ"),
                _ if *count == 1 => format!("{sign}theta"),
                _ => format!("{sign}{count}.theta"),
            }
        }
        Component::Compound(k) => {
            let mut side = |opts: &[Vec<Component>]| -> CgResult<String> {
                let mut out = Vec::with_capacity(opts.len());
                for o in opts {
                    out.push(format_sum(o, store, style, summaries.as_deref_mut())?);
                }
                Ok(out.join(", "))
            };
            let l = side(&k.left)?;
            let r = side(&k.right)?;
            let bar = match (l.is_empty(), r.is_empty()) {
                (true, true) => "|",
                (true, false) => "| ",
                (false, true) => " |",
                (false, false) => " | ",
            };
            format!("{{{l}{bar}{r}}}")
        }
    })
}

/// Components joined by ` + ` (a White threat as ` - θ`); `0` for none.
fn format_sum(
    parts: &[Component],
    store: &mut Store,
    style: Style,
    mut summaries: Summaries,
) -> CgResult<String> {
    if parts.is_empty() {
        return Ok("0".to_string());
    }
    let mut out = String::new();
    for (i, c) in parts.iter().enumerate() {
        let text = format_component(c, store, style, summaries.as_deref_mut())?;
        if i == 0 {
            out.push_str(&text);
        } else if let (
            Component::Threats {
                owner: Side::Right, ..
            },
            Some(rest),
        ) = (c, text.strip_prefix('-'))
        {
            out.push_str(" - ");
            out.push_str(rest);
        } else {
            out.push_str(" + ");
            out.push_str(&text);
        }
    }
    Ok(out)
}

/// `149953` as `149 953` (groups of three digits, as the docs write counts).
pub(crate) fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(d);
    }
    out
}

/// Concatenates components, merging number-up-star parts into one (first)
/// and the threats of each owner into one.
fn plus(a: &[Component], b: &[Component], store: &mut Store) -> CgResult<Vec<Component>> {
    let mut nus = store.zero();
    let mut rest: Vec<Component> = Vec::with_capacity(a.len() + b.len());
    for c in a.iter().chain(b.iter()) {
        match c {
            Component::Short(g) if store.as_nus(*g).is_some() => nus = store.add(nus, *g)?,
            Component::Threats { owner, count } => {
                let merged = rest.iter_mut().find_map(|r| match r {
                    Component::Threats { owner: o, count: n } if o == owner => Some(n),
                    _ => None,
                });
                match merged {
                    Some(n) => *n = n.saturating_add(*count),
                    None => rest.push(c.clone()),
                }
            }
            other => rest.push(other.clone()),
        }
    }
    if nus != store.zero() || rest.is_empty() {
        rest.insert(0, Component::Short(nus));
    }
    Ok(rest)
}

fn negate_parts(parts: &[Component], store: &mut Store) -> Vec<Component> {
    parts.iter().map(|c| negate(c, store)).collect()
}

fn negate(c: &Component, store: &mut Store) -> Component {
    match c {
        Component::Short(g) => Component::Short(store.neg(*g)),
        Component::Ko { graph, node } => Component::Ko {
            graph: Rc::new(graph.negate(store)),
            node: *node,
        },
        Component::Threats { owner, count } => Component::Threats {
            owner: owner.opponent(),
            count: *count,
        },
        Component::Compound(k) => Component::Compound(Rc::new(Compound {
            left: k.right.iter().map(|o| negate_parts(o, store)).collect(),
            right: k.left.iter().map(|o| negate_parts(o, store)).collect(),
        })),
    }
}

/// The short game with every θ counted as 0; `Err(label)` names a ko.
fn drop_threats(parts: &[Component], store: &mut Store) -> Result<GameId, KoError> {
    let mut ids = Vec::with_capacity(parts.len());
    for c in parts {
        match c {
            Component::Short(g) => ids.push(*g),
            Component::Threats { .. } => {}
            Component::Ko { graph, node } => ids.push(graph.short_game(store, *node)?),
            Component::Compound(k) => {
                let mut l = Vec::with_capacity(k.left.len());
                for o in &k.left {
                    l.push(drop_threats(o, store)?);
                }
                let mut r = Vec::with_capacity(k.right.len());
                for o in &k.right {
                    r.push(drop_threats(o, store)?);
                }
                ids.push(store.canonical(l, r)?);
            }
        }
    }
    Ok(match ids.len() {
        0 => store.zero(),
        1 => ids[0],
        _ => store.sum(&ids)?,
    })
}

/// Every label written in a literal (through nested braces only), with its
/// span; a duplicate is reported with both places.
fn collect_labels(e: &Expr, out: &mut Vec<(String, Span)>, dup: &mut Option<(String, Span, Span)>) {
    match &e.kind {
        ExprKind::Labelled { label, game } => {
            if let Some((_, first)) = out.iter().find(|(n, _)| *n == label.name) {
                if dup.is_none() {
                    *dup = Some((label.name.clone(), first.clone(), label.span.clone()));
                }
            } else {
                out.push((label.name.clone(), label.span.clone()));
            }
            collect_labels(game, out, dup);
        }
        ExprKind::Game { left, right } => {
            for o in left.iter().chain(right.iter()) {
                collect_labels(o, out, dup);
            }
        }
        // `g + kb: {…}`: a scoring move to a labelled node.
        ExprKind::Chain { first, rest }
            if rest.iter().all(|l| matches!(l.op, BinOp::Add | BinOp::Sub)) =>
        {
            collect_labels(first, out, dup);
            for link in rest {
                collect_labels(&link.operand, out, dup);
            }
        }
        _ => {}
    }
}

/// A scoring move written as an option, `g + target`, `target + g` or
/// `target - g` with `target` a label or a node: (the gain's expression,
/// the target, whether the gain is subtracted).
fn scored<'e>(e: &'e Expr, labels: &HashSet<String>) -> Option<(&'e Expr, &'e Expr, bool)> {
    let ExprKind::Chain { first: lhs, rest } = &e.kind else {
        return None;
    };
    let [ChainLink { op, operand: rhs }] = &rest[..] else {
        return None;
    };
    let target = |x: &Expr| match &x.kind {
        ExprKind::Name(n) => labels.contains(n),
        _ => is_node(x, labels),
    };
    match op {
        BinOp::Add if target(rhs) && !target(lhs) => Some((lhs, rhs, false)),
        BinOp::Add if target(lhs) && !target(rhs) => Some((rhs, lhs, false)),
        BinOp::Sub if target(lhs) && !target(rhs) => Some((rhs, lhs, true)),
        _ => None,
    }
}

/// Whether a brace option must become a node of the graph: it is labelled,
/// or some option inside it (through braces) is a label or a labelled node.
fn is_node(e: &Expr, labels: &HashSet<String>) -> bool {
    match &e.kind {
        ExprKind::Labelled { .. } => true,
        ExprKind::Game { left, right } => left.iter().chain(right.iter()).any(|o| match &o.kind {
            ExprKind::Name(n) => labels.contains(n),
            ExprKind::Chain { .. } => scored(o, labels).is_some(),
            _ => is_node(o, labels),
        }),
        _ => false,
    }
}

/// A label used inside an expression (not as a whole option).
fn label_inside<'e>(e: &'e Expr, labels: &HashSet<String>) -> Option<&'e Expr> {
    let sub: Vec<&Expr> = match &e.kind {
        ExprKind::Name(n) => return labels.contains(n).then_some(e),
        ExprKind::Star(Some(x)) => vec![x],
        ExprKind::Labelled { game, .. } => vec![game],
        ExprKind::Game { left, right } => left.iter().chain(right.iter()).collect(),
        ExprKind::List(xs) => xs.iter().collect(),
        ExprKind::Call { args, .. } => args.iter().map(|a| &a.value).collect(),
        ExprKind::Index { base, index } => vec![base, index],
        ExprKind::Unary { expr, .. } => vec![expr],
        ExprKind::Not(x) => vec![x],
        ExprKind::Chain { first, rest } => std::iter::once(&**first)
            .chain(rest.iter().map(|l| &l.operand))
            .collect(),
        ExprKind::Compare { lhs, rhs, .. } => vec![lhs, rhs],
        _ => vec![],
    };
    sub.into_iter().find_map(|x| label_inside(x, labels))
}

/// What the builder of one literal needs.
struct Literal<'a> {
    labels: &'a HashSet<String>,
    /// Every user label, for the made-up names of anonymous nodes.
    used: HashSet<String>,
    /// Node label (given or made up, as the core names it) → its span.
    spans: HashMap<String, Span>,
}

impl Interp {
    /// `θ` written `n` times.
    pub(crate) fn theta(&mut self, n: usize, span: &Span) -> EvalResult<Value> {
        let count =
            u32::try_from(n).map_err(|_| self.error(span, "too many ko threats in one literal"))?;
        Ok(value_of_parts(
            vec![Component::Threats {
                owner: Side::Left,
                count,
            }],
            None,
        ))
    }

    /// A braced literal: an ordinary game, a compound game (options with kos
    /// or θ), or a ko graph (labels).
    pub(crate) fn braces(&mut self, e: &Expr, scope: &Scope) -> EvalResult<Value> {
        let mut labels = Vec::new();
        let mut dup = None;
        collect_labels(e, &mut labels, &mut dup);
        if let Some((name, first, second)) = dup {
            return Err(self.error_with(
                Diagnostic::error(format!("two nodes of the ko graph are labelled `{name}`"))
                    .with_label(second, "second node with this label")
                    .with_secondary(first, "first one")
                    .with_help("give each node its own label"),
            ));
        }
        if labels.is_empty() {
            return self.plain_braces(e, scope);
        }
        self.ko_literal(e, &labels, scope)
    }

    fn plain_braces(&mut self, e: &Expr, scope: &Scope) -> EvalResult<Value> {
        let ExprKind::Game { left, right } = &e.kind else {
            return Err(self.error(&e.span, "internal error: not a braced game"));
        };
        let mut sides: [Vec<Value>; 2] = [Vec::new(), Vec::new()];
        for (k, opts) in [left, right].into_iter().enumerate() {
            for o in opts {
                sides[k].push(self.eval(o, scope)?);
            }
        }
        if sides.iter().flatten().any(|v| matches!(v, Value::Mixed(_))) {
            let mut comp: [Vec<Vec<Component>>; 2] = [Vec::new(), Vec::new()];
            for (k, (vals, exprs)) in sides.iter().zip([left, right]).enumerate() {
                for (v, o) in vals.iter().zip(exprs.iter()) {
                    comp[k].push(self.components_of(v, &o.span)?);
                }
            }
            let [l, r] = comp;
            return Ok(value_of_parts(
                vec![Component::Compound(Rc::new(Compound { left: l, right: r }))],
                None,
            ));
        }
        let mut ids: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for (k, (vals, exprs)) in sides.iter().zip([left, right]).enumerate() {
            for (v, o) in vals.iter().zip(exprs.iter()) {
                ids[k].push(self.game_of(v, &o.span)?);
            }
        }
        let [l, r] = ids;
        let g = self
            .store
            .canonical(l, r)
            .map_err(|err| self.cg_error(err, &e.span))?;
        Ok(Value::game(g))
    }

    /// The components of a value (a short game is one component).
    pub(crate) fn components_of(&mut self, v: &Value, span: &Span) -> EvalResult<Vec<Component>> {
        match v {
            Value::Mixed(m) => Ok(m.parts.to_vec()),
            Value::Game(s) => Ok(s.parts().iter().map(|g| Component::Short(*g)).collect()),
            other => Ok(vec![Component::Short(self.game_of(other, span)?)]),
        }
    }

    fn ko_literal(
        &mut self,
        e: &Expr,
        labels: &[(String, Span)],
        scope: &Scope,
    ) -> EvalResult<Value> {
        let set: HashSet<String> = labels.iter().map(|(n, _)| n.clone()).collect();
        let mut lit = Literal {
            labels: &set,
            used: set.clone(),
            spans: HashMap::new(),
        };
        // The root's made-up name, as the core makes it.
        let mut root_name = "k".to_string();
        while lit.used.contains(&root_name) {
            root_name.push('_');
        }
        if !matches!(e.kind, ExprKind::Labelled { .. }) {
            lit.used.insert(root_name.clone());
        }
        self.check_dangling(e, &e.span, &set, scope)?;
        let spec = self.node_spec(e, root_name, &mut lit, scope)?;
        let graph = match KoGraph::from_spec(spec) {
            Ok(g) => g,
            Err(err) => return Err(self.ko_literal_error(err, e, &lit.spans)),
        };
        let root = graph.root();
        if graph.is_ko_free(root) {
            let g = graph
                .short_game(&mut self.store, root)
                .map_err(|err| self.ko_error(err, &e.span))?;
            return Ok(Value::game(g));
        }
        Ok(value_of_parts(vec![Component::ko(Rc::new(graph))], None))
    }

    /// The node written at `e` (labelled or a plain brace), with `name` the
    /// label the core gives it when it has none.
    fn node_spec(
        &mut self,
        e: &Expr,
        name: String,
        lit: &mut Literal,
        scope: &Scope,
    ) -> EvalResult<NodeSpec> {
        let (label, game) = match &e.kind {
            ExprKind::Labelled { label, game } => (Some(label), &**game),
            _ => (None, e),
        };
        let ExprKind::Game { left, right } = &game.kind else {
            return Err(self.error(&e.span, "internal error: a node is not a braced game"));
        };
        let this = label.map(|l| l.name.clone()).unwrap_or(name);
        let span = label.map(|l| l.span.clone()).unwrap_or(e.span.clone());
        lit.spans.insert(this.clone(), span);
        let mut sides: [Vec<OptionSpec>; 2] = [Vec::new(), Vec::new()];
        for (k, (opts, tag)) in [(left, 'L'), (right, 'R')].into_iter().enumerate() {
            for (i, o) in opts.iter().enumerate() {
                let (gain, o) = match scored(o, lit.labels) {
                    Some((g, target, minus)) => {
                        let v = self.eval(g, scope)?;
                        let x = self.game_of(&v, &g.span)?;
                        let Some(x) = self.store.as_number(x).cloned() else {
                            return Err(self.error_with(
                                Diagnostic::error(
                                    "the points a move of a ko graph scores must be a number",
                                )
                                .with_label(g.span.clone(), "not a number")
                                .with_note("an option `g + node` scores g and leads to the node"),
                            ));
                        };
                        (Some(if minus { x.neg() } else { x }), target)
                    }
                    None => (None, o),
                };
                let spec = match &o.kind {
                    ExprKind::Name(n) if lit.labels.contains(n) => OptionSpec::Ref(n.clone()),
                    _ if is_node(o, lit.labels) => {
                        let mut made_up = format!("{this}_{tag}{}", i + 1);
                        while lit.used.contains(&made_up) {
                            made_up.push('_');
                        }
                        if !matches!(o.kind, ExprKind::Labelled { .. }) {
                            lit.used.insert(made_up.clone());
                        }
                        OptionSpec::Node(self.node_spec(o, made_up, lit, scope)?)
                    }
                    _ => OptionSpec::Game(self.ko_option(o, lit, scope)?),
                };
                let spec = match gain {
                    Some(gain) => OptionSpec::Scored {
                        gain,
                        to: Box::new(spec),
                    },
                    None => spec,
                };
                sides[k].push(spec);
            }
        }
        let [l, r] = sides;
        Ok(NodeSpec {
            label: label.map(|l| l.name.clone()),
            left: l,
            right: r,
        })
    }

    /// A bare name standing as an option anywhere in the literal (through
    /// braces) must be a label or a defined name: otherwise it is a dangling
    /// label.
    fn check_dangling(
        &self,
        e: &Expr,
        whole: &Span,
        labels: &HashSet<String>,
        scope: &Scope,
    ) -> EvalResult<()> {
        let (left, right) = match &e.kind {
            ExprKind::Labelled { game, .. } => {
                return self.check_dangling(game, whole, labels, scope)
            }
            ExprKind::Game { left, right } => (left, right),
            _ => return Ok(()),
        };
        for o in left.iter().chain(right.iter()) {
            let o = match scored(o, labels) {
                Some((_, target, _)) => target,
                None => o,
            };
            if let ExprKind::Name(n) = &o.kind {
                let known = labels.contains(n)
                    || scope.lookup(n, &self.globals).is_some()
                    || super::registry::lookup(n).is_some()
                    || matches!(n.as_str(), "board" | "black" | "white");
                if !known {
                    let mut names: Vec<&str> = labels.iter().map(String::as_str).collect();
                    names.sort();
                    let mut d = Diagnostic::error(format!(
                        "`{n}` is neither a label of this ko graph nor a defined name"
                    ))
                    .with_label(o.span.clone(), "dangling label")
                    .with_secondary(whole.clone(), "in this ko graph")
                    .with_note(format!("the labels of this ko graph: {}", names.join(", ")));
                    if let Some(best) = names
                        .iter()
                        .map(|c| (crate::go::edit_distance(n, c), *c))
                        .filter(|(d, _)| *d <= 2)
                        .min()
                    {
                        d = d.with_help(format!("did you mean `{}`?", best.1));
                    }
                    return Err(self.error_with(d));
                }
            } else {
                self.check_dangling(o, whole, labels, scope)?;
            }
        }
        Ok(())
    }

    /// An option of a ko graph that is not a node: a short game.
    fn ko_option(&mut self, o: &Expr, lit: &Literal, scope: &Scope) -> EvalResult<GameId> {
        if let Some(at) = label_inside(o, lit.labels) {
            let ExprKind::Name(n) = &at.kind else {
                return Err(self.error(&at.span, "internal error"));
            };
            return Err(self.error_with(
                Diagnostic::error(format!(
                    "the label `{n}` can only stand alone as an option of its ko graph"
                ))
                .with_label(at.span.clone(), "a label used inside an expression")
                .with_note("an option of a ko graph is a node, a label, a short game, or `g + node` (a move scoring the number g)"),
            ));
        }
        let v = self.eval(o, scope)?;
        if let Value::Mixed(m) = &v {
            let what = match m.first_ko() {
                Some(k) => format!("a ko (`{k}`)"),
                None => "a ko threat θ".to_string(),
            };
            return Err(self.error_with(
                Diagnostic::error(format!(
                    "an option of a ko graph must be a short game, a node or a label; this one contains {what}"
                ))
                .with_label(o.span.clone(), "not a short game")
                .with_note("write the whole ko as one literal, with labels for its positions; threats go beside the ko in a sum (K + θ)"),
            ));
        }
        self.game_of(&v, &o.span)
    }

    /// A rejected ko-graph literal: the message of the core, pointing at the
    /// node at fault.
    fn ko_literal_error(&self, err: KoError, e: &Expr, spans: &HashMap<String, Span>) -> Stop {
        let node = match &err {
            KoError::DuplicateLabel { label } => Some(label),
            KoError::Dangling { node, .. }
            | KoError::Unreachable { node, .. }
            | KoError::NoOptions { node }
            | KoError::NoWayOut { node }
            | KoError::NoKoStructure { node, .. } => Some(node),
            KoError::Cg(c) => return self.cg_error(c.clone(), &e.span),
            _ => None,
        };
        let at = node
            .and_then(|n| spans.get(n))
            .cloned()
            .unwrap_or(e.span.clone());
        let (label, help) = match &err {
            KoError::NoOptions { .. } => (
                "this node has no options",
                "a finished position is a value: write it (e.g. 0) instead of `{|}`",
            ),
            KoError::NoWayOut { .. } => (
                "no way out of this node",
                "some line of play must leave the graph for a value (a short game), e.g. a fill",
            ),
            KoError::NoKoStructure { .. } => (
                "one player alone can come back here",
                "every repetition in Go needs a capture and a recapture: each cycle needs moves of both players",
            ),
            _ => ("here", "check the labels of the literal"),
        };
        self.error_with(
            Diagnostic::error(err.to_string())
                .with_label(at.clone(), label)
                .with_secondary(e.span.clone(), "in this ko graph")
                .with_help(help),
        )
    }

    /// A ko error met while analysing a value at `span`.
    pub(crate) fn ko_error(&self, err: KoError, span: &Span) -> Stop {
        match err {
            KoError::Cg(e) => self.cg_error(e, span),
            other => self.error(span, other.to_string()),
        }
    }

    /// `game_of` for a value with kos or threats: always an error, naming the
    /// ko or the threat.
    pub(crate) fn mixed_not_a_game(&self, m: &MixedSum, span: &Span) -> Stop {
        match m.first_ko() {
            Some(k) => self.error_with(
                Diagnostic::error(format!(
                    "this value contains a ko (`{k}`), so it has no canonical form"
                ))
                .with_label(span.clone(), format!("contains the ko `{k}`"))
                .with_note(
                    "a ko is loopy: comparisons, canonical forms, incentives, atomic weights \
                     and the plain thermograph do not apply; for play on a sum with kos use \
                     solve(S), best_moves(S), must_play(S, j), ko_winner(S) or \
                     equivalent(ko, X, env)",
                )
                .with_help(
                    "for a ko use thermograph(K, komaster: black), mean(K, komaster: white), \
                     temperature(…), ko_kind(K)",
                ),
            ),
            None => self.error_with(
                Diagnostic::error(
                    "this value contains ko threats (θ), which have no canonical form",
                )
                .with_label(span.clone(), "contains θ")
                .with_note(
                    "θ counts as 0 only in comparisons (==, <=, ≈, …); elsewhere dropping the \
                     threat would silently change the game",
                )
                .with_help("drop_threats(X) is the short game with every θ counted as 0"),
            ),
        }
    }

    /// The canonical game of a value for comparisons: θ counts as 0.
    pub(crate) fn game_for_comparison(&mut self, v: &Value, span: &Span) -> EvalResult<GameId> {
        match v {
            Value::Mixed(m) if m.first_ko().is_none() => {
                drop_threats(&m.parts, &mut self.store).map_err(|e| self.ko_error(e, span))
            }
            other => self.game_of(other, span),
        }
    }

    /// `+`, `-` and `n . X` when a side has kos or threats.
    pub(crate) fn mixed_binary(
        &mut self,
        op: crate::syntax::ast::BinOp,
        a: &Value,
        b: &Value,
        ls: &Span,
        rs: &Span,
        span: &Span,
    ) -> EvalResult<Value> {
        use crate::syntax::ast::BinOp;
        match op {
            BinOp::Add | BinOp::Sub => {
                let x = self.components_of(a, ls)?;
                let mut y = self.components_of(b, rs)?;
                if op == BinOp::Sub {
                    y = negate_parts(&y, &mut self.store);
                }
                let parts = plus(&x, &y, &mut self.store).map_err(|e| self.cg_error(e, span))?;
                Ok(value_of_parts(parts, None))
            }
            BinOp::Dot if !matches!(a, Value::Mixed(_)) => {
                let n = self.to_integer(a, ls).map_err(|_| {
                    self.error(
                        ls,
                        "only an integer number of copies (`n . θ`) applies to a value with kos or threats",
                    )
                })?;
                let k: u32 = num_traits::ToPrimitive::to_u32(&num_traits::Signed::abs(&n))
                    .filter(|k| *k <= 1_000_000)
                    .ok_or_else(|| self.error(ls, "too many copies (at most 1000000)"))?;
                let mut x = self.components_of(b, rs)?;
                if num_traits::Signed::is_negative(&n) {
                    x = negate_parts(&x, &mut self.store);
                }
                let mut acc: Vec<Component> = Vec::new();
                for _ in 0..k {
                    acc = plus(&acc, &x, &mut self.store).map_err(|e| self.cg_error(e, span))?;
                }
                Ok(value_of_parts(acc, None))
            }
            BinOp::Dot if self.integer_value(b).is_some() => {
                // `θ . 2`: Norton's product has no meaning for a value with
                // threats or kos; copies are written with the integer first.
                let n = self.integer_value(b).expect("checked");
                let text = self.sources[self.current]
                    .text
                    .get(ls.clone())
                    .filter(|t| t.chars().count() <= 40)
                    .unwrap_or("X")
                    .to_string();
                Err(self.error_with(
                    Diagnostic::error(format!(
                        "`X . {n}` with a value X that holds kos or ko threats has no meaning"
                    ))
                    .with_label(ls.clone(), "this holds kos or ko threats")
                    .with_secondary(rs.clone(), format!("this is the integer {n}"))
                    .with_note("`n . X` with the integer n on the left is n copies of X")
                    .with_help(format!(
                        "write `{n} . {text}` for {n} {}",
                        if n == 1.into() { "copy" } else { "copies" }
                    )),
                ))
            }
            _ => {
                let m = match (a, b) {
                    (Value::Mixed(m), _) => (m, ls),
                    (_, Value::Mixed(m)) => (m, rs),
                    _ => return Err(self.error(span, "internal error: no ko here")),
                };
                Err(self.mixed_not_a_game(m.0, m.1))
            }
        }
    }

    /// `-X` and `±X` for a value with kos or threats.
    pub(crate) fn mixed_unary(
        &mut self,
        op: crate::syntax::ast::UnaryOp,
        m: &MixedSum,
    ) -> EvalResult<Value> {
        let neg = negate_parts(&m.parts, &mut self.store);
        Ok(match op {
            crate::syntax::ast::UnaryOp::Neg => {
                value_of_parts(neg, m.labels.as_ref().map(|l| l.to_vec()))
            }
            crate::syntax::ast::UnaryOp::Switch => value_of_parts(
                vec![Component::Compound(Rc::new(Compound {
                    left: vec![m.parts.to_vec()],
                    right: vec![neg],
                }))],
                None,
            ),
        })
    }

    /// `K["label"]`: a position of a ko graph.
    pub(crate) fn ko_index(
        &mut self,
        m: &MixedSum,
        key: &Value,
        span: &Span,
        key_span: &Span,
    ) -> EvalResult<Value> {
        let Value::Str(label) = key else {
            return Err(self.error(key_span, "a ko graph is indexed by a node label string"));
        };
        let graph = self.single_ko(m, span)?;
        self.node_of(&graph, label, key_span)
    }

    fn node_of(&mut self, graph: &Rc<KoGraph>, label: &str, span: &Span) -> EvalResult<Value> {
        match graph.find(label) {
            Some(node) => Ok(value_of_parts(
                vec![Component::Ko {
                    graph: graph.clone(),
                    node,
                }],
                None,
            )),
            None => {
                // A Go region's graph can have 150 000 nodes: name a few.
                const SHOWN: usize = 20;
                let mut names: Vec<_> = graph
                    .node_ids()
                    .take(SHOWN)
                    .map(|n| graph.label(n))
                    .collect();
                let more = graph.len().saturating_sub(SHOWN);
                let note = match more {
                    0 => format!("its nodes: {}", names.join(", ")),
                    _ => {
                        names.push(format!("… ({} more)", grouped(more)).into());
                        format!("its nodes: {}; nodes(K) lists them all", names.join(", "))
                    }
                };
                Err(self.error_with(
                    Diagnostic::error(format!("the ko graph has no node labelled `{label}`"))
                        .with_label(span.clone(), "no such node")
                        .with_note(note),
                ))
            }
        }
    }

    /// The graph of a value that is one ko position.
    fn single_ko(&mut self, m: &MixedSum, span: &Span) -> EvalResult<Rc<KoGraph>> {
        match &*m.parts {
            [Component::Ko { graph, node }] => Ok(if *node == graph.root() {
                graph.clone()
            } else {
                Rc::new(graph.rooted_at(*node))
            }),
            _ => {
                let shown = m
                    .format(&mut self.store, self.style)
                    .map_err(|e| self.cg_error(e, span))?;
                Err(self.error(span, format!("expected one ko, found the sum {shown}")))
            }
        }
    }

    fn ko_arg(&mut self, v: &Value, span: &Span) -> EvalResult<Rc<KoGraph>> {
        match v {
            Value::Mixed(m) => self.single_ko(m, span),
            other => Err(self.error(span, format!("expected a ko graph, found {}", other.kind()))),
        }
    }

    /// The `board` (the regions in order) when some region has a ko or a
    /// threat: one component per region; a region that is itself a sum of
    /// several such components gets names `R.1`, `R.2`, ….
    pub(crate) fn mixed_board(
        &mut self,
        regions: &[(String, Value)],
        span: &Span,
    ) -> EvalResult<Value> {
        let mut parts = Vec::new();
        let mut labels: Vec<Rc<str>> = Vec::new();
        for (name, v) in regions {
            let comps = match v {
                Value::Mixed(m) => {
                    // Short parts of a region together, then the rest.
                    let shorts: Vec<GameId> = m
                        .parts
                        .iter()
                        .filter_map(|c| match c {
                            Component::Short(g) => Some(*g),
                            _ => None,
                        })
                        .collect();
                    let mut out = Vec::new();
                    if !shorts.is_empty() {
                        let g = self
                            .store
                            .sum(&shorts)
                            .map_err(|e| self.cg_error(e, span))?;
                        out.push(Component::Short(g));
                    }
                    out.extend(
                        m.parts
                            .iter()
                            .filter(|c| !matches!(c, Component::Short(_)))
                            .cloned(),
                    );
                    out
                }
                other => vec![Component::Short(self.game_of(other, span)?)],
            };
            if comps.len() == 1 {
                labels.push(Rc::from(name.as_str()));
            } else {
                for i in 0..comps.len() {
                    labels.push(Rc::from(format!("{name}.{}", i + 1).as_str()));
                }
            }
            parts.extend(comps);
        }
        Ok(value_of_parts(parts, Some(labels)))
    }
}

fn komaster_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<Komaster> {
    if let Value::Str(s) = v {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "left" | "l" => return Ok(Komaster::Black),
            "white" | "w" | "right" | "r" => return Ok(Komaster::White),
            _ => {}
        }
    }
    Err(interp.choice_error(
        span,
        "expected a komaster: `black` or `white`",
        v,
        &["black", "white"],
    ))
}

/// The ko builtins.
fn ko_builder(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let name = c.name;
    let args = &c.args[..];
    let span = c.span;
    let sp = |i: usize| c.sp(i);
    let short =
        |interp: &mut Interp, i: usize| -> EvalResult<GameId> { interp.game_of(&args[i], &sp(i)) };
    let count = |interp: &mut Interp, i: usize| -> EvalResult<usize> {
        let n = interp.to_integer(&args[i], &sp(i))?;
        num_traits::ToPrimitive::to_usize(&n)
            .filter(|k| *k <= 10_000)
            .ok_or_else(|| {
                interp.error(
                    &sp(i),
                    format!("expected a count from 0 to 10000, found {n}"),
                )
            })
    };
    let ko_value = |g: KoGraph| value_of_parts(vec![Component::ko(Rc::new(g))], None);
    let v = match name {
        "ko" | "ko_captured" => {
            let (b, w) = (short(interp, 0)?, short(interp, 1)?);
            ko_value(if name == "ko" {
                KoGraph::ko(b, w)
            } else {
                KoGraph::ko_captured(b, w)
            })
        }
        "multi_stage_ko" | "approach_ko" => {
            let n = count(interp, 0)?;
            let (b, w) = (short(interp, 1)?, short(interp, 2)?);
            let g = if name == "multi_stage_ko" {
                KoGraph::multi_stage_ko(n, b, w)
            } else {
                KoGraph::approach_ko(n, b, w)
            };
            if g.is_ko_free(g.root()) {
                // zero stages: the switch {b | w}
                let s = g
                    .short_game(&mut interp.store, g.root())
                    .map_err(|e| interp.ko_error(e, span))?;
                Value::game(s)
            } else {
                ko_value(g)
            }
        }
        "node" => {
            let g = interp.ko_arg(&args[0], &sp(0))?;
            let Value::Str(label) = &args[1] else {
                return Err(interp.error(&sp(1), "`node` needs a label string"));
            };
            interp.node_of(&g, label, &sp(1))?
        }
        "nodes" => {
            let g = interp.ko_arg(&args[0], &sp(0))?;
            Value::list(g.node_ids().map(|n| Value::str(&g.label(n))).collect())
        }
        "ko_kind" => {
            let g = interp.ko_arg(&args[0], &sp(0))?;
            match g
                .ko_kind(&mut interp.store, g.root())
                .map_err(|e| interp.ko_error(e, &sp(0)))?
            {
                Some(k) => Value::str(&k.to_string()),
                None => {
                    return Err(interp.error(
                        &sp(0),
                        "this position is not a ko (no cycle can be reached from it)",
                    ))
                }
            }
        }
        "drop_threats" => match &args[0] {
            Value::Mixed(m) => {
                if let Some(k) = m.first_ko() {
                    return Err(interp.error(
                        &sp(0),
                        format!("this value contains a ko (`{k}`), which is not a threat"),
                    ));
                }
                let g = drop_threats(&m.parts, &mut interp.store)
                    .map_err(|e| interp.ko_error(e, &sp(0)))?;
                Value::game(g)
            }
            other => Value::game(interp.game_of(other, &sp(0))?),
        },
        _ => unreachable!("{name}"),
    };
    Ok(v)
}

/// `thermograph`, `mean` and `temperature` of a ko or with `komaster:`;
/// `None`: the ordinary builtin of short games answers.
pub(crate) fn thermo_of_ko(interp: &mut Interp, c: &Call) -> EvalResult<Option<Value>> {
    let name = c.name;
    let args = &c.args[..];
    let sp = |i: usize| c.sp(i);
    let komaster = match c.named("komaster") {
        Some((v, s)) => Some(komaster_of(interp, v, s)?),
        None => None,
    };
    if komaster.is_none()
        && !matches!(args.first(), Some(Value::Mixed(m)) if m.first_ko().is_some())
    {
        return Ok(None);
    }
    let Some(k) = komaster else {
        let who = match &args[0] {
            Value::Mixed(m) => m.first_ko().unwrap_or_default(),
            _ => String::new(),
        };
        return Err(interp.error_with(
            Diagnostic::error(format!("the {name} of a ko depends on who is komaster"))
                .with_label(sp(0), format!("contains the ko `{who}`"))
                .with_help(format!(
                    "write {name}(K, komaster: black) or {name}(K, komaster: white)"
                )),
        ));
    };
    // The label names the value in a thermograph's plot; only
    // `thermograph` keeps it (printing a large ko graph is not free).
    let keeps_label = name == "thermograph";
    let graph = match &args[0] {
        Value::Mixed(m) => interp.single_ko(m, &sp(0))?,
        other => {
            // A short game: its komaster thermograph is its thermograph.
            let g = interp.game_of(other, &sp(0))?;
            let t = interp
                .store
                .thermograph(g)
                .map_err(|e| interp.cg_error(e, &sp(0)))?;
            let label = ThermoLabel::Of(other.clone(), interp.style);
            return Ok(Some(thermo_value(name, t, label)));
        }
    };
    let t = graph
        .thermograph(&mut interp.store, graph.root(), k)
        .map_err(|e| interp.ko_error(e, &sp(0)))?;
    let label = match keeps_label {
        true => format!("{} ({} komaster)", interp.display(&args[0])?, k.player()),
        false => String::new(),
    };
    Ok(Some(thermo_value(
        name,
        Rc::new(t),
        ThermoLabel::Text(Rc::from(label)),
    )))
}

fn thermo_value(name: &str, t: Rc<crate::game::Thermograph>, label: ThermoLabel) -> Value {
    match name {
        "thermograph" => Value::Thermograph(t, Rc::new(label)),
        "mean" => Value::Rational(t.mean().clone()),
        _ => Value::Rational(t.temperature().clone()),
    }
}
