//! Ko graphs: finite graphs of local positions with Left (Black) and Right
//! (White) option edges, built from labelled node specifications and
//! validated.

use crate::game::{CgError, Dyadic, GameId, Store};
use std::collections::HashMap;
use std::fmt;

/// The index of a node (a local position) inside one [`KoGraph`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A player. Black is Left (positive), White is Right (negative).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
    /// `Black` / `White`, the Go names used in messages.
    pub fn player(self) -> &'static str {
        match self {
            Side::Left => "Black",
            Side::Right => "White",
        }
    }
}

/// Where an option leads: another position of the graph, or a short game
/// (a terminal value: play leaves the ko graph for good).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Target {
    Node(NodeId),
    Game(GameId),
}

/// One local position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoNode {
    /// Unique within the graph. For a node the user left anonymous (written
    /// inline, as the capture node `{b | kw}` in `kw: {{b | kw} | w}`) a
    /// label is made up from its place, e.g. `kw_L1` (the first Left option
    /// of `kw`); such labels are still valid identifiers.
    pub(crate) label: String,
    /// Whether the label was given by the user (or a shorthand).
    pub(crate) named: bool,
    pub(crate) left: Vec<Target>,
    pub(crate) right: Vec<Target>,
    /// The gain of each option, in the order of `left` / `right`: the
    /// number the move scores at once (module doc of [`crate::ko`],
    /// "Gains"). Option `i` of Left is the game `left_gains[i] + left[i]`.
    pub(crate) left_gains: Vec<Dyadic>,
    pub(crate) right_gains: Vec<Dyadic>,
}

impl KoNode {
    /// A node whose moves score nothing.
    pub fn new(
        label: impl Into<String>,
        named: bool,
        left: Vec<Target>,
        right: Vec<Target>,
    ) -> KoNode {
        KoNode {
            label: label.into(),
            named,
            left_gains: vec![Dyadic::zero(); left.len()],
            right_gains: vec![Dyadic::zero(); right.len()],
            left,
            right,
        }
    }

    /// A node with a gain on every option (`(gain, target)` pairs).
    pub fn with_gains(
        label: impl Into<String>,
        named: bool,
        left: Vec<(Dyadic, Target)>,
        right: Vec<(Dyadic, Target)>,
    ) -> KoNode {
        let split = |options: Vec<(Dyadic, Target)>| {
            let mut gains = Vec::with_capacity(options.len());
            let mut targets = Vec::with_capacity(options.len());
            for (g, t) in options {
                gains.push(g);
                targets.push(t);
            }
            (gains, targets)
        };
        let (left_gains, left) = split(left);
        let (right_gains, right) = split(right);
        KoNode {
            label: label.into(),
            named,
            left,
            right,
            left_gains,
            right_gains,
        }
    }

    /// [`KoNode::with_gains`] with the options and their gains given as
    /// separate lists (of equal lengths, side by side).
    pub(crate) fn with_gain_lists(
        label: String,
        named: bool,
        (left, left_gains): (Vec<Target>, Vec<Dyadic>),
        (right, right_gains): (Vec<Target>, Vec<Dyadic>),
    ) -> KoNode {
        debug_assert!(left.len() == left_gains.len() && right.len() == right_gains.len());
        KoNode {
            label,
            named,
            left,
            right,
            left_gains,
            right_gains,
        }
    }
    pub fn label(&self) -> &str {
        &self.label
    }
    pub fn is_named(&self) -> bool {
        self.named
    }
    pub fn left(&self) -> &[Target] {
        &self.left
    }
    pub fn right(&self) -> &[Target] {
        &self.right
    }
    pub fn options(&self, side: Side) -> &[Target] {
        match side {
            Side::Left => &self.left,
            Side::Right => &self.right,
        }
    }
    /// The gains of `side`'s options, in the order of [`KoNode::options`].
    pub fn gains(&self, side: Side) -> &[Dyadic] {
        match side {
            Side::Left => &self.left_gains,
            Side::Right => &self.right_gains,
        }
    }
    /// The gain of `side`'s option `i` (what that move scores at once).
    pub fn gain(&self, side: Side, i: usize) -> &Dyadic {
        &self.gains(side)[i]
    }
    /// Whether some move of this node scores something.
    pub fn has_gains(&self) -> bool {
        self.left_gains
            .iter()
            .chain(self.right_gains.iter())
            .any(|g| !g.is_zero())
    }
}

/// A validated ko graph with a designated root (the position the value
/// denotes). Every node is reachable from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoGraph {
    pub(crate) nodes: Vec<KoNode>,
    pub(crate) root: NodeId,
}

/// Who is komaster: the player who may make a move that repeats a position
/// (he can always win a ko fight, having enough threats); the other may not.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Komaster {
    Black,
    White,
}

/// Which player may repeat a position in a komaster analysis.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// The komaster may, the other player may not.
    Komaster(Komaster),
    /// Neither player may (nobody has ko threats).
    NoRepetition,
}

impl Rule {
    pub fn may_repeat(self, side: Side) -> bool {
        match self {
            Rule::Komaster(k) => k.side() == side,
            Rule::NoRepetition => false,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Komaster(k) => write!(f, "with {} as komaster", k.player()),
            Rule::NoRepetition => write!(f, "with no repetition allowed"),
        }
    }
}

impl Komaster {
    pub fn side(self) -> Side {
        match self {
            Komaster::Black => Side::Left,
            Komaster::White => Side::Right,
        }
    }
    pub fn player(self) -> &'static str {
        self.side().player()
    }
}

/// How an option is written in a node specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionSpec {
    /// A reference to a labelled node (`kw` in `{b | kw}`).
    Ref(String),
    /// A short game: a terminal value.
    Game(GameId),
    /// A node written inline, labelled (`kb: {…}`) or not (`{…}`).
    Node(NodeSpec),
    /// A move that scores `gain` at once and then leads to `to` (written
    /// `gain + to`, e.g. `1 + kw`).
    Scored { gain: Dyadic, to: Box<OptionSpec> },
}

/// A node as written: `label: {L1, L2 | R1, R2}` (the label is optional for
/// nodes written inline).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSpec {
    pub label: Option<String>,
    pub left: Vec<OptionSpec>,
    pub right: Vec<OptionSpec>,
}

impl NodeSpec {
    pub fn new(label: Option<&str>, left: Vec<OptionSpec>, right: Vec<OptionSpec>) -> NodeSpec {
        NodeSpec {
            label: label.map(str::to_string),
            left,
            right,
        }
    }
}

/// Why a ko graph was rejected, or why an analysis of it stopped. Every
/// variant names the node at fault by its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KoError {
    /// No node at all.
    Empty,
    /// Two nodes carry the same label.
    DuplicateLabel { label: String },
    /// Node `node` refers to `target`, which no node of the graph is called.
    Dangling { node: String, target: String },
    /// Node `node` cannot be reached from the root `root`.
    Unreachable { node: String, root: String },
    /// Node `node` has no options for either player. (A finished position is
    /// a value: write the short game, e.g. `0`, instead.)
    NoOptions { node: String },
    /// No line of play from `node` ever reaches a short game: every option
    /// leads back into positions from which play can never leave the graph.
    /// (A ko graph must end in values.)
    NoWayOut { node: String },
    /// `side` alone can return to `node`: the cycle `cycle` (labels, starting
    /// and ending at `node`) is made of that player's moves only. Go's ko rule
    /// makes every repetition need moves of both players (a capture and a
    /// recapture), so such a cycle has no ko structure.
    NoKoStructure {
        node: String,
        side: Side,
        cycle: Vec<String>,
    },
    /// In a komaster analysis neither player has a legal local move at
    /// `node` (the only moves left would repeat a position, which the player
    /// who is not komaster may not do).
    Stuck { node: String, rule: Rule },
    /// The walls of `node` never become a vertical mast under the komaster
    /// assumption, so it has no mean or temperature.
    NoMast { node: String, rule: Rule },
    /// A canonical short game was asked of a position from which a cycle can
    /// be reached.
    ContainsKo { node: String },
    /// The analysis would visit more than `limit` (position, history) states.
    TooLarge { node: String, limit: usize },
    /// An error of the short-game engine (interrupt, size).
    Cg(CgError),
}

impl From<CgError> for KoError {
    fn from(e: CgError) -> Self {
        KoError::Cg(e)
    }
}

impl fmt::Display for KoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KoError::Empty => write!(f, "a ko graph needs at least one node"),
            KoError::DuplicateLabel { label } => {
                write!(f, "two nodes of the ko graph are labelled `{label}`")
            }
            KoError::Dangling { node, target } => write!(
                f,
                "node `{node}` refers to `{target}`, but no node of the ko graph is labelled `{target}`"
            ),
            KoError::Unreachable { node, root } => write!(
                f,
                "node `{node}` cannot be reached from the ko graph's first node `{root}`"
            ),
            KoError::NoOptions { node } => write!(
                f,
                "node `{node}` has no options for either player (write the value of a finished position, e.g. 0, instead)"
            ),
            KoError::NoWayOut { node } => write!(
                f,
                "node `{node}` has no way out: no line of play from it ever reaches a value (a short game)"
            ),
            KoError::NoKoStructure { node, side, cycle } => write!(
                f,
                "{} alone can return to node `{node}` ({}): a cycle needs moves by both players (a capture and a recapture), so it has no ko structure",
                side.player(),
                cycle.join(" → ")
            ),
            KoError::Stuck { node, rule } => write!(
                f,
                "{rule} neither player has a legal move at node `{node}` (the only moves left would repeat a position)"
            ),
            KoError::NoMast { node, rule } => write!(
                f,
                "{rule} the thermograph of node `{node}` never reaches a vertical mast"
            ),
            KoError::ContainsKo { node } => write!(
                f,
                "this value contains a ko (from node `{node}` play can repeat a position), so it has no canonical form"
            ),
            KoError::TooLarge { node, limit } => write!(
                f,
                "the komaster analysis of node `{node}` needs more than {limit} states"
            ),
            KoError::Cg(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for KoError {}

// ----- construction ------------------------------------------------------------

/// A flattened node before its references are resolved.
struct RawNode {
    label: String,
    named: bool,
    left: Vec<(Dyadic, RawTarget)>,
    right: Vec<(Dyadic, RawTarget)>,
}

enum RawTarget {
    Label(String),
    Index(usize),
    Game(GameId),
}

struct Flattener {
    nodes: Vec<RawNode>,
    /// Labels given by the user, to keep made-up ones distinct.
    used: std::collections::HashSet<String>,
}

impl Flattener {
    /// Adds `spec` (and the nodes written inside it); returns its index.
    fn add(&mut self, spec: NodeSpec, made_up: Option<String>) -> usize {
        let idx = self.nodes.len();
        let (label, named) = match spec.label {
            Some(l) => (l, true),
            None => (made_up.unwrap_or_else(|| "k".to_string()), false),
        };
        self.nodes.push(RawNode {
            label: label.clone(),
            named,
            left: Vec::new(),
            right: Vec::new(),
        });
        for (side, opts) in [(Side::Left, spec.left), (Side::Right, spec.right)] {
            let mut out = Vec::with_capacity(opts.len());
            for (i, o) in opts.into_iter().enumerate() {
                let mut gain = Dyadic::zero();
                let mut o = o;
                while let OptionSpec::Scored { gain: g, to } = o {
                    gain = gain.add(&g);
                    o = *to;
                }
                out.push((
                    gain,
                    match o {
                        OptionSpec::Scored { .. } => unreachable!("unwrapped above"),
                        OptionSpec::Ref(l) => RawTarget::Label(l),
                        OptionSpec::Game(g) => RawTarget::Game(g),
                        OptionSpec::Node(n) => {
                            let tag = if side == Side::Left { 'L' } else { 'R' };
                            let base = format!("{label}_{tag}{}", i + 1);
                            let mut name = base.clone();
                            while self.used.contains(&name) {
                                name.push('_');
                            }
                            if n.label.is_none() {
                                self.used.insert(name.clone());
                            }
                            RawTarget::Index(self.add(n, Some(name)))
                        }
                    },
                ));
            }
            match side {
                Side::Left => self.nodes[idx].left = out,
                Side::Right => self.nodes[idx].right = out,
            }
        }
        idx
    }
}

fn collect_labels(spec: &NodeSpec, out: &mut std::collections::HashSet<String>) {
    if let Some(l) = &spec.label {
        out.insert(l.clone());
    }
    for o in spec.left.iter().chain(spec.right.iter()) {
        let mut o = o;
        while let OptionSpec::Scored { to, .. } = o {
            o = to;
        }
        if let OptionSpec::Node(n) = o {
            collect_labels(n, out);
        }
    }
}

impl KoGraph {
    /// A ko graph from one literal, the future syntax `kw: {{b | kw} | w}`:
    /// the root node with its options, nodes written inline where they first
    /// occur and referred to by label elsewhere.
    pub fn from_spec(root: NodeSpec) -> Result<KoGraph, KoError> {
        KoGraph::from_nodes(vec![root])
    }

    /// A ko graph from a list of (possibly nested) node specifications whose
    /// labels all share one scope; the first node is the root. Top-level
    /// nodes after the first must be labelled (they are only reachable by
    /// reference).
    pub fn from_nodes(specs: Vec<NodeSpec>) -> Result<KoGraph, KoError> {
        if specs.is_empty() {
            return Err(KoError::Empty);
        }
        let mut used = std::collections::HashSet::new();
        for s in &specs {
            collect_labels(s, &mut used);
        }
        let mut fl = Flattener {
            nodes: Vec::new(),
            used,
        };
        for (i, s) in specs.into_iter().enumerate() {
            let made_up = if i == 0 { "k" } else { "k_top" };
            let mut name = made_up.to_string();
            while fl.used.contains(&name) {
                name.push('_');
            }
            if s.label.is_none() {
                fl.used.insert(name.clone());
            }
            fl.add(s, Some(name));
        }
        // Labels must be unique.
        let mut by_label: HashMap<&str, usize> = HashMap::new();
        for (i, n) in fl.nodes.iter().enumerate() {
            if by_label.insert(&n.label, i).is_some() {
                return Err(KoError::DuplicateLabel {
                    label: n.label.clone(),
                });
            }
        }
        let mut nodes = Vec::with_capacity(fl.nodes.len());
        for n in &fl.nodes {
            let resolve = |ts: &[(Dyadic, RawTarget)]| -> Result<Vec<(Dyadic, Target)>, KoError> {
                ts.iter()
                    .map(|(gain, t)| {
                        Ok((
                            gain.clone(),
                            match t {
                                RawTarget::Game(g) => Target::Game(*g),
                                RawTarget::Index(i) => Target::Node(NodeId(*i as u32)),
                                RawTarget::Label(l) => match by_label.get(l.as_str()) {
                                    Some(i) => Target::Node(NodeId(*i as u32)),
                                    None => {
                                        return Err(KoError::Dangling {
                                            node: n.label.clone(),
                                            target: l.clone(),
                                        })
                                    }
                                },
                            },
                        ))
                    })
                    .collect()
            };
            nodes.push(KoNode::with_gains(
                n.label.clone(),
                n.named,
                resolve(&n.left)?,
                resolve(&n.right)?,
            ));
        }
        let g = KoGraph {
            nodes,
            root: NodeId(0),
        };
        g.validate()?;
        Ok(g)
    }

    /// Builds a graph from already-resolved nodes (shorthands, the Go module)
    /// and validates it.
    pub fn from_parts(nodes: Vec<KoNode>, root: NodeId) -> Result<KoGraph, KoError> {
        if nodes.is_empty() {
            return Err(KoError::Empty);
        }
        let mut seen = rustc_hash::FxHashSet::default();
        seen.reserve(nodes.len());
        for n in &nodes {
            if !seen.insert(n.label.as_str()) {
                return Err(KoError::DuplicateLabel {
                    label: n.label.clone(),
                });
            }
        }
        debug_assert!(nodes
            .iter()
            .all(|n| n.left.len() == n.left_gains.len() && n.right.len() == n.right_gains.len()));
        let g = KoGraph { nodes, root };
        g.validate()?;
        Ok(g)
    }

    /// The same positions with `node` as the root (nodes no longer reachable
    /// are dropped; the rest keep their labels and order).
    pub fn rooted_at(&self, node: NodeId) -> KoGraph {
        let reach = self.reachable_from(node);
        let mut map = vec![None; self.nodes.len()];
        let mut order: Vec<usize> = vec![node.index()];
        order.extend((0..self.nodes.len()).filter(|&i| reach[i] && i != node.index()));
        for (new, &old) in order.iter().enumerate() {
            map[old] = Some(NodeId(new as u32));
        }
        let remap = |ts: &[Target]| -> Vec<Target> {
            ts.iter()
                .map(|t| match t {
                    Target::Node(n) => Target::Node(map[n.index()].expect("reachable")),
                    g => *g,
                })
                .collect()
        };
        let nodes = order
            .iter()
            .map(|&old| {
                let n = &self.nodes[old];
                KoNode {
                    label: n.label.clone(),
                    named: n.named,
                    left: remap(&n.left),
                    right: remap(&n.right),
                    left_gains: n.left_gains.clone(),
                    right_gains: n.right_gains.clone(),
                }
            })
            .collect();
        KoGraph {
            nodes,
            root: NodeId(0),
        }
    }

    /// The negative: Left and Right options swapped and every short game
    /// negated (Black and White exchange roles). Labels are kept.
    pub fn negate(&self, store: &mut Store) -> KoGraph {
        let mut neg = |ts: &[Target]| -> Vec<Target> {
            ts.iter()
                .map(|t| match t {
                    Target::Game(g) => Target::Game(store.neg(*g)),
                    n => *n,
                })
                .collect()
        };
        let nodes = self
            .nodes
            .iter()
            .map(|n| KoNode {
                label: n.label.clone(),
                named: n.named,
                left: neg(&n.right),
                right: neg(&n.left),
                left_gains: n.right_gains.iter().map(Dyadic::neg).collect(),
                right_gains: n.left_gains.iter().map(Dyadic::neg).collect(),
            })
            .collect();
        KoGraph {
            nodes,
            root: self.root,
        }
    }

    // ----- accessors -------------------------------------------------------------

    pub fn root(&self) -> NodeId {
        self.root
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
    pub fn node(&self, n: NodeId) -> &KoNode {
        &self.nodes[n.index()]
    }
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }
    pub fn label(&self, n: NodeId) -> &str {
        &self.nodes[n.index()].label
    }
    /// The node with this label.
    pub fn find(&self, label: &str) -> Option<NodeId> {
        self.nodes
            .iter()
            .position(|n| n.label == label)
            .map(|i| NodeId(i as u32))
    }

    /// Node successors (ignoring short-game options), on one side or both.
    fn succ(&self, n: usize, side: Option<Side>) -> impl Iterator<Item = usize> + '_ {
        let node = &self.nodes[n];
        let l = match side {
            None | Some(Side::Left) => node.left.as_slice(),
            Some(Side::Right) => &[],
        };
        let r = match side {
            None | Some(Side::Right) => node.right.as_slice(),
            Some(Side::Left) => &[],
        };
        l.iter().chain(r.iter()).filter_map(|t| match t {
            Target::Node(m) => Some(m.index()),
            Target::Game(_) => None,
        })
    }

    fn reachable_from(&self, start: NodeId) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![start.index()];
        seen[start.index()] = true;
        while let Some(n) = stack.pop() {
            for m in self.succ(n, None) {
                if !seen[m] {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
        seen
    }

    /// Strongly connected components of the node graph restricted to `side`'s
    /// edges (`None`: all edges). Returns the component index of every node
    /// (components numbered in reverse topological order: successors first).
    pub(crate) fn sccs(&self, side: Option<Side>) -> Vec<usize> {
        let succs: Vec<Vec<usize>> = (0..self.nodes.len())
            .map(|v| self.succ(v, side).collect())
            .collect();
        strongly_connected_components(&succs)
    }

    /// Whether each node lies on a cycle (its component has two or more
    /// nodes, or it has an option to itself).
    pub(crate) fn on_cycle(&self, comp: &[usize], side: Option<Side>) -> Vec<bool> {
        let n = self.nodes.len();
        let mut size = vec![0usize; n];
        for &c in comp {
            size[c] += 1;
        }
        (0..n)
            .map(|v| size[comp[v]] > 1 || self.succ(v, side).any(|w| w == v))
            .collect()
    }

    /// For every node: can play from it reach a position that lies on a
    /// cycle? Nodes for which this is false are ordinary short games.
    pub fn reaches_cycle(&self) -> Vec<bool> {
        let comp = self.sccs(None);
        let cyc = self.on_cycle(&comp, None);
        let n = self.nodes.len();
        let mut memo: Vec<Option<bool>> = vec![None; n];
        // Components are numbered successors-first, so visiting nodes by
        // component number settles every successor first.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&v| comp[v]);
        for v in order {
            let r = cyc[v] || self.succ(v, None).any(|w| w != v && memo[w] == Some(true));
            memo[v] = Some(r);
        }
        memo.into_iter().map(|m| m.unwrap_or(false)).collect()
    }

    /// Is the root (or any node) ko-free, i.e. an ordinary short game?
    pub fn is_ko_free(&self, n: NodeId) -> bool {
        !self.reaches_cycle()[n.index()]
    }

    /// The canonical short game of a ko-free node, or
    /// [`KoError::ContainsKo`] naming a node that lies on a cycle.
    pub fn short_game(&self, store: &mut Store, n: NodeId) -> Result<GameId, KoError> {
        let reach = self.reaches_cycle();
        let mut memo: HashMap<usize, GameId> = HashMap::new();
        self.short_game_rec(store, n.index(), &reach, &mut memo)
    }

    fn short_game_rec(
        &self,
        store: &mut Store,
        v: usize,
        reach: &[bool],
        memo: &mut HashMap<usize, GameId>,
    ) -> Result<GameId, KoError> {
        if reach[v] {
            let comp = self.sccs(None);
            let cyc = self.on_cycle(&comp, None);
            // Name a node on a cycle reachable from v (v itself if it is one).
            let reach_v = self.reachable_from(NodeId(v as u32));
            let at = if cyc[v] {
                v
            } else {
                (0..self.nodes.len())
                    .find(|&w| reach_v[w] && cyc[w])
                    .unwrap_or(v)
            };
            return Err(KoError::ContainsKo {
                node: self.nodes[at].label.clone(),
            });
        }
        if let Some(g) = memo.get(&v) {
            return Ok(*g);
        }
        let mut sides: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for (i, t) in self.nodes[v].options(side).to_vec().into_iter().enumerate() {
                let g = match t {
                    Target::Game(g) => g,
                    Target::Node(m) => self.short_game_rec(store, m.index(), reach, memo)?,
                };
                let gain = self.nodes[v].gain(side, i).clone();
                sides[k].push(plus_gain(store, gain, g)?);
            }
        }
        let [l, r] = sides;
        let g = store.canonical(l, r)?;
        memo.insert(v, g);
        Ok(g)
    }

    // ----- validation ------------------------------------------------------------

    /// Checks reachability from the root, the way out of every node, and
    /// that no player can repeat a position with his own moves alone.
    fn validate(&self) -> Result<(), KoError> {
        let n = self.nodes.len();
        let reach = self.reachable_from(self.root);
        if let Some(v) = (0..n).find(|&v| !reach[v]) {
            return Err(KoError::Unreachable {
                node: self.nodes[v].label.clone(),
                root: self.nodes[self.root.index()].label.clone(),
            });
        }
        // A way out: some short game reachable. Fixpoint from the nodes with a
        // short-game option.
        let mut out = vec![false; n];
        let mut changed = true;
        while changed {
            changed = false;
            for v in 0..n {
                if out[v] {
                    continue;
                }
                let node = &self.nodes[v];
                let ok = node.left.iter().chain(node.right.iter()).any(|t| match t {
                    Target::Game(_) => true,
                    Target::Node(m) => out[m.index()],
                });
                if ok {
                    out[v] = true;
                    changed = true;
                }
            }
        }
        let no_options =
            |v: &usize| self.nodes[*v].left.is_empty() && self.nodes[*v].right.is_empty();
        if let Some(v) = (0..n).find(no_options) {
            return Err(KoError::NoOptions {
                node: self.nodes[v].label.clone(),
            });
        }
        if let Some(v) = (0..n).find(|&v| !out[v]) {
            return Err(KoError::NoWayOut {
                node: self.nodes[v].label.clone(),
            });
        }
        // One-player cycles (the components only to name one).
        for side in [Side::Left, Side::Right] {
            if !self.has_cycle(side) {
                continue;
            }
            let comp = self.sccs(Some(side));
            let cyc = self.on_cycle(&comp, Some(side));
            if let Some(v) = (0..n).find(|&v| cyc[v]) {
                let cycle = self.find_cycle(v, side, &comp);
                return Err(KoError::NoKoStructure {
                    node: self.nodes[v].label.clone(),
                    side,
                    cycle: cycle
                        .into_iter()
                        .map(|i| self.nodes[i].label.clone())
                        .collect(),
                });
            }
        }
        Ok(())
    }

    /// Whether `side`'s moves alone can repeat a node (a depth-first walk
    /// meets a node on its own line, or an option to the node itself).
    fn has_cycle(&self, side: Side) -> bool {
        const NEW: u8 = 0;
        const ON_LINE: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; self.nodes.len()];
        // The walk's line: a node and how many of its options were tried.
        let mut line: Vec<(usize, usize)> = Vec::new();
        for start in 0..self.nodes.len() {
            if state[start] != NEW {
                continue;
            }
            state[start] = ON_LINE;
            line.push((start, 0));
            while let Some(top) = line.last_mut() {
                let (v, i) = *top;
                let options = self.nodes[v].options(side);
                if i == options.len() {
                    state[v] = DONE;
                    line.pop();
                    continue;
                }
                top.1 += 1;
                if let Target::Node(w) = options[i] {
                    match state[w.index()] {
                        ON_LINE => return true,
                        NEW => {
                            state[w.index()] = ON_LINE;
                            line.push((w.index(), 0));
                        }
                        _ => {}
                    }
                }
            }
        }
        false
    }

    /// A shortest cycle through `v` using `side`'s edges inside v's component
    /// (breadth-first), as node indices starting and ending at `v`.
    fn find_cycle(&self, v: usize, side: Side, comp: &[usize]) -> Vec<usize> {
        let n = self.nodes.len();
        let mut prev = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        queue.push_back(v);
        let mut seen = vec![false; n];
        seen[v] = true;
        while let Some(u) = queue.pop_front() {
            for w in self.succ(u, Some(side)) {
                if comp[w] != comp[v] {
                    continue;
                }
                if w == v {
                    let mut path = vec![u];
                    let mut x = u;
                    while x != v {
                        x = prev[x];
                        path.push(x);
                    }
                    path.reverse();
                    path.push(v);
                    return path;
                }
                if !seen[w] {
                    seen[w] = true;
                    prev[w] = u;
                    queue.push_back(w);
                }
            }
        }
        vec![v, v]
    }
}

/// `gain + g` (just `g` when the gain is 0).
pub(crate) fn plus_gain(store: &mut Store, gain: Dyadic, g: GameId) -> Result<GameId, CgError> {
    if gain.is_zero() {
        return Ok(g);
    }
    let x = store.number(gain);
    store.add(x, g)
}

/// Strongly connected components of the graph with successor lists `succs`
/// (iterative Tarjan): the component index of every vertex, components
/// numbered in reverse topological order (successors first).
pub(crate) fn strongly_connected_components(succs: &[Vec<usize>]) -> Vec<usize> {
    let n = succs.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next_index = 0;
    let mut next_comp = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < succs[v].len() {
                let w = succs[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().expect("tarjan stack");
                        on_stack[w] = false;
                        comp[w] = next_comp;
                        if w == v {
                            break;
                        }
                    }
                    next_comp += 1;
                }
            }
        }
    }
    comp
}
