//! Exhaustive local search: from a position to its game value.
//!
//! See the module docs of [`crate::go`] for the rules this implements. The
//! search works on bitboards over the *region* (the points that are not
//! framing stones, at most 128) and evaluates one *component* at a time: a
//! maximal connected set of points that are empty or hold capturable stones.
//! Components are separated by immortal stones, which never change, so a
//! position is exactly the disjunctive sum of its components (the search
//! applies no ko ban, so nothing couples them) and the transposition table
//! is keyed by a component's points, their contents and the colours of the
//! immortal stones around it.

use super::position::{Cell, Colour, Move, Position};
use crate::game::{CgError, GameId, Store};
use rustc_hash::FxHashMap;
use std::fmt;

/// The scoring rule of the terminal positions.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Rules {
    /// Territory + prisoners (Japanese), local to the region. The default.
    #[default]
    Japanese,
    /// Area (Chinese): stones + territory on the points of the region.
    Chinese,
}

/// Knobs of the search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub rules: Rules,
    /// The search stops with [`GoError::NodeBudget`] after expanding this
    /// many positions.
    pub node_budget: u64,
    /// Score settled areas instead of playing in them (see the module docs
    /// of [`crate::go`]). Turning this off is for testing that it never
    /// changes a value (Japanese rules); under area rules the settledness
    /// rule is part of the definition of the local game.
    pub prune_settled: bool,
    /// Evaluate the components of a position separately and add the values.
    /// Exact; turning it off is for testing.
    pub split_components: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            rules: Rules::Japanese,
            node_budget: 1_000_000,
            prune_settled: true,
            split_components: true,
        }
    }
}

impl SearchOptions {
    pub fn with_rules(rules: Rules) -> SearchOptions {
        SearchOptions {
            rules,
            ..SearchOptions::default()
        }
    }
}

/// What a search did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions (components) expanded: their moves were generated.
    pub nodes: u64,
    /// Transposition-table lookups and hits.
    pub tt_lookups: u64,
    pub tt_hits: u64,
    /// Components found settled and scored without search.
    pub settled: u64,
    /// Deepest line of play searched.
    pub max_depth: usize,
    /// Points in the region (empty points and capturable stones).
    pub region_points: usize,
}

impl SearchStats {
    /// Hit rate of the transposition table in percent (0 without lookups),
    /// rounded down.
    pub fn hit_percent(&self) -> u64 {
        (self.tt_hits * 100)
            .checked_div(self.tt_lookups)
            .unwrap_or(0)
    }
}

/// Why a position has no (short) game value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A position repeats: the region holds a ko (or a longer cycle). `line`
    /// is the sequence of moves from the position searched to the
    /// repetition, written as in move strings; the position after
    /// `line[..cycle_start]` is the one that comes back after the rest. The
    /// ko machinery (issue 4) will turn such regions into ko graphs; until
    /// then this is an error.
    Ko {
        line: Vec<String>,
        cycle_start: usize,
    },
    /// The node budget ran out.
    NodeBudget { nodes: u64, budget: u64 },
    /// The region has more points than the search represents.
    TooLarge { points: usize, max: usize },
    /// Interrupted, or a value out of range.
    Cg(CgError),
}

impl From<CgError> for GoError {
    fn from(e: CgError) -> Self {
        GoError::Cg(e)
    }
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::Ko { line, cycle_start } => {
                let (lead, cycle) = line.split_at(*cycle_start);
                write!(f, "the region holds a ko: ")?;
                if !lead.is_empty() {
                    write!(f, "after {}, ", lead.join(", "))?;
                }
                write!(
                    f,
                    "the moves {} repeat the position (ko values are not short games; \
                     the ko machinery is not wired to Go positions yet)",
                    cycle.join(", ")
                )
            }
            GoError::NodeBudget { nodes, budget } => write!(
                f,
                "gave up after searching {nodes} positions (node budget {budget}): the region is \
                 too large for exhaustive search"
            ),
            GoError::TooLarge { points, max } => write!(
                f,
                "the region has {points} points (empty or capturable); the search handles at most {max}"
            ),
            GoError::Cg(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GoError {}

/// A value with the statistics of the search that found it.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The unchilled value.
    pub value: GameId,
    pub stats: SearchStats,
}

/// The unchilled value of a position with statistics (see the module docs of
/// [`crate::go`]). Prisoners already taken in `pos` count under Japanese
/// rules, and stones already immortal on region points count under area
/// rules, so `evaluate(play(pos, "B a"))` is the value of Black's option `a`.
/// A ko ban recorded in `pos` is ignored: the local game has none.
pub fn evaluate(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
) -> Result<Evaluation, GoError> {
    let region = Region::new(pos)?;
    let root = region.root.clone();
    let mut search = Search {
        store,
        region: &region,
        pos,
        opts,
        tt: FxHashMap::default(),
        line: Vec::new(),
        stats: SearchStats {
            region_points: region.n,
            ..SearchStats::default()
        },
    };
    let imm = region.immortal(&root);
    let constant = match opts.rules {
        Rules::Japanese => {
            i64::from(pos.prisoners(Colour::Black)) - i64::from(pos.prisoners(Colour::White))
        }
        Rules::Chinese => {
            i64::from((imm[0] & region.all).count_ones())
                - i64::from((imm[1] & region.all).count_ones())
        }
    };
    let parts = search.eval_parts(region.all, &root, imm)?;
    let c = search.store.integer(constant);
    let value = search.store.add(c, parts)?;
    Ok(Evaluation {
        value,
        stats: search.stats,
    })
}

/// The unchilled value of a position.
pub fn value(store: &mut Store, pos: &Position, opts: &SearchOptions) -> Result<GameId, GoError> {
    Ok(evaluate(store, pos, opts)?.value)
}

/// The chilled value (Mathematical Go's `f`), the default view of a Go value.
pub fn chilled(store: &mut Store, pos: &Position, opts: &SearchOptions) -> Result<GameId, GoError> {
    let v = value(store, pos, opts)?;
    Ok(store.chill(v)?)
}

/// The moves the search considers for `colour` in `pos`, with the positions
/// they lead to: every legal move on a point outside the settled areas (all
/// legal moves when `prune_settled` is off), ignoring any ko ban. This is the
/// move generator the ko machinery can build ko graphs from.
pub fn search_moves(
    pos: &Position,
    colour: Colour,
    prune_settled: bool,
) -> Result<Vec<(Move, Position)>, GoError> {
    let region = Region::new(pos)?;
    let root = &region.root;
    let mut playable = region.all & !(root.stones[0] | root.stones[1]);
    if prune_settled {
        for comp in region.components(region.nonimmortal(root)) {
            if region.settled(comp, root).is_some() {
                playable &= !comp;
            }
        }
    }
    let mut unbanned = pos.clone();
    unbanned.ko_ban = None;
    let mut out = Vec::new();
    for i in bits(playable) {
        let mv = Move {
            colour,
            point: Some(region.points[i]),
        };
        if let Ok(next) = unbanned.play_move(mv) {
            out.push((mv, next));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------- bitboards

/// Maximum number of region points.
pub const MAX_REGION_POINTS: usize = 128;

fn bits(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(i)
    })
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Board {
    /// Black stones, White stones (region points only).
    stones: [u128; 2],
}

/// The geometry of a region.
struct Region {
    /// Number of region points.
    n: usize,
    /// Bit → point index of the position (`usize::MAX` for no point).
    points: Vec<usize>,
    /// Region neighbours of each bit.
    nbr: Vec<u128>,
    /// Region points next to a framing stone of Black / White.
    seed: [u128; 2],
    /// The bits of region points.
    all: u128,
    /// `Some(stride)` when bit `r * stride + c` is the point in row `r`,
    /// column `c` of the region's bounding box (`stride` is its width plus a
    /// spare column, so shifts never wrap onto a region point).
    grid: Option<usize>,
    root: Board,
}

impl Region {
    fn new(pos: &Position) -> Result<Region, GoError> {
        let region_points: Vec<usize> = (0..pos.cells.len()).filter(|&p| !pos.frame[p]).collect();
        let n = region_points.len();
        if n > MAX_REGION_POINTS {
            return Err(GoError::TooLarge {
                points: n,
                max: MAX_REGION_POINTS,
            });
        }
        // Bit layout: the bounding box of the region with one spare column
        // when it fits in 128 bits (neighbours are then shifts), else the
        // region points in order.
        let (rows, cols): (Vec<usize>, Vec<usize>) =
            region_points.iter().map(|&p| pos.coords(p)).unzip();
        let (r0, c0) = (
            rows.iter().copied().min().unwrap_or(0),
            cols.iter().copied().min().unwrap_or(0),
        );
        let (r1, c1) = (
            rows.iter().copied().max().unwrap_or(0),
            cols.iter().copied().max().unwrap_or(0),
        );
        let stride = c1 - c0 + 2;
        let grid = (stride < 128 && stride * (r1 - r0 + 1) <= 128).then_some(stride);
        let mut bit = vec![usize::MAX; pos.cells.len()];
        for (i, &p) in region_points.iter().enumerate() {
            let (r, c) = pos.coords(p);
            bit[p] = match grid {
                Some(stride) => (r - r0) * stride + (c - c0),
                None => i,
            };
        }
        let mut points = vec![usize::MAX; 128];
        let mut nbr = vec![0u128; 128];
        let mut seed = [0u128; 2];
        let mut all = 0u128;
        let mut root = Board { stones: [0, 0] };
        for &p in &region_points {
            let i = bit[p];
            points[i] = p;
            all |= 1 << i;
            for q in pos.neighbours(p) {
                if pos.frame[q] {
                    if let Cell::Stone(c) = pos.cells[q] {
                        seed[c.index()] |= 1 << i;
                    }
                } else {
                    nbr[i] |= 1 << bit[q];
                }
            }
            if let Cell::Stone(c) = pos.cells[p] {
                root.stones[c.index()] |= 1 << i;
            }
        }
        Ok(Region {
            n,
            points,
            nbr,
            seed,
            all,
            grid,
            root,
        })
    }

    /// Union of the neighbours of the points of `m`.
    #[inline]
    fn nbrs_of(&self, m: u128) -> u128 {
        match self.grid {
            Some(stride) => ((m << 1) | (m >> 1) | (m << stride) | (m >> stride)) & self.all,
            None => bits(m).fold(0, |acc, i| acc | self.nbr[i]),
        }
    }

    /// The points of `within` connected to `seed` through `within`.
    fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut region = seed & within;
        let mut frontier = region;
        while frontier != 0 {
            let next = self.nbrs_of(frontier) & within & !region;
            region |= next;
            frontier = next;
        }
        region
    }

    /// Immortal stones of each colour: chains touching a framing stone.
    fn immortal(&self, b: &Board) -> [u128; 2] {
        [
            self.flood(b.stones[0] & self.seed[0], b.stones[0]),
            self.flood(b.stones[1] & self.seed[1], b.stones[1]),
        ]
    }

    /// Points that are empty or hold capturable stones.
    fn nonimmortal(&self, b: &Board) -> u128 {
        let imm = self.immortal(b);
        self.all & !(imm[0] | imm[1])
    }

    /// Connected components of `m`.
    fn components(&self, m: u128) -> Vec<u128> {
        let mut out = Vec::new();
        let mut rest = m;
        while rest != 0 {
            let c = self.flood(rest & rest.wrapping_neg(), m);
            out.push(c);
            rest &= !c;
        }
        out
    }

    /// Plays a stone of colour `me` (0 Black, 1 White) on the empty region
    /// point `p`: returns the new board and the number of stones captured,
    /// or `None` for suicide.
    fn apply(&self, b: &Board, me: usize, p: usize) -> Option<(Board, u32)> {
        let op = 1 - me;
        let mut stones = b.stones;
        stones[me] |= 1 << p;
        let empty = self.all & !(stones[0] | stones[1]);
        let mut captured = 0;
        let mut candidates = self.nbr[p] & stones[op];
        while candidates != 0 {
            let chain = self.flood(candidates & candidates.wrapping_neg(), stones[op]);
            candidates &= !chain;
            if chain & self.seed[op] != 0 {
                continue;
            }
            if self.nbrs_of(chain) & empty == 0 {
                stones[op] &= !chain;
                captured += chain.count_ones();
            }
        }
        let own = self.flood(1 << p, stones[me]);
        if own & self.seed[me] == 0 {
            let empty = self.all & !(stones[0] | stones[1]);
            if self.nbrs_of(own) & empty == 0 {
                return None;
            }
        }
        Some((Board { stones }, captured))
    }

    /// If the component `comp` is settled (DESIGN.md §4), the colour it is
    /// settled for: it holds no stone of that colour, every stone around it
    /// is of that colour (hence immortal), and every point of it touches such
    /// a stone.
    fn settled(&self, comp: u128, b: &Board) -> Option<Colour> {
        for (c, colour) in [(0, Colour::Black), (1, Colour::White)] {
            let op = 1 - c;
            if comp & b.stones[c] != 0 || comp & self.seed[op] != 0 {
                continue;
            }
            if self.nbrs_of(comp) & !comp & b.stones[op] != 0 {
                continue;
            }
            if bits(comp).all(|p| self.nbr[p] & b.stones[c] != 0 || self.seed[c] & (1 << p) != 0) {
                return Some(colour);
            }
        }
        None
    }
}

#[derive(Copy, Clone, Debug)]
enum Entry {
    Expanding(usize),
    Done(GameId),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    comp: u128,
    black: u128,
    white: u128,
}

struct Search<'a> {
    store: &'a mut Store,
    region: &'a Region,
    pos: &'a Position,
    opts: &'a SearchOptions,
    /// Values found, and the components being expanded (with the length of
    /// `line` when they were: meeting one again is a repetition).
    tt: FxHashMap<Key, Entry>,
    /// The moves from the root to the current node: colour, region point.
    line: Vec<(Colour, usize)>,
    stats: SearchStats,
}

impl Search<'_> {
    /// The value of the points of `within` that are empty or hold capturable
    /// stones: the sum over its components.
    fn eval_parts(&mut self, within: u128, b: &Board, imm: [u128; 2]) -> Result<GameId, GoError> {
        let region = self.region;
        let mut total = self.store.zero();
        let mut unsettled = 0u128;
        let nonimmortal = region.all & !(imm[0] | imm[1]);
        for comp in region.components(nonimmortal & within) {
            if self.opts.prune_settled {
                if let Some(colour) = region.settled(comp, b) {
                    self.stats.settled += 1;
                    let size = i64::from(comp.count_ones());
                    let dead = i64::from((comp & b.stones[1 - colour.index()]).count_ones());
                    let score = match self.opts.rules {
                        Rules::Japanese => size + dead,
                        Rules::Chinese => size,
                    };
                    let s = self.store.integer(colour.sign() * score);
                    total = self.store.add(total, s)?;
                    continue;
                }
            }
            if self.opts.split_components {
                let v = self.eval(comp, b)?;
                total = self.store.add(total, v)?;
            } else {
                unsettled |= comp;
            }
        }
        if unsettled != 0 {
            let v = self.eval(unsettled, b)?;
            total = self.store.add(total, v)?;
        }
        Ok(total)
    }

    /// The value of the component (or union of components) `comp`.
    fn eval(&mut self, comp: u128, b: &Board) -> Result<GameId, GoError> {
        let region = self.region;
        let ext = comp | (region.nbrs_of(comp) & region.all);
        let key = Key {
            comp,
            black: b.stones[0] & ext,
            white: b.stones[1] & ext,
        };
        self.stats.tt_lookups += 1;
        let slot = match self.tt.entry(key.clone()) {
            std::collections::hash_map::Entry::Occupied(o) => Some(*o.get()),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(Entry::Expanding(self.line.len()));
                None
            }
        };
        if let Some(Entry::Done(v)) = slot {
            self.stats.tt_hits += 1;
            return Ok(v);
        }
        if let Some(Entry::Expanding(start)) = slot {
            let line = self
                .line
                .iter()
                .map(|&(colour, i)| {
                    self.pos.move_name(Move {
                        colour,
                        point: Some(region.points[i]),
                    })
                })
                .collect();
            return Err(GoError::Ko {
                line,
                cycle_start: start,
            });
        }
        self.stats.nodes += 1;
        if self.stats.nodes > self.opts.node_budget {
            return Err(GoError::NodeBudget {
                nodes: self.stats.nodes - 1,
                budget: self.opts.node_budget,
            });
        }
        self.store.tick()?;
        self.stats.max_depth = self.stats.max_depth.max(self.line.len());
        let empty = comp & !(b.stones[0] | b.stones[1]);
        let mut options: [Vec<GameId>; 2] = [Vec::new(), Vec::new()];
        for p in bits(empty) {
            for colour in [Colour::Black, Colour::White] {
                let me = colour.index();
                let Some((child, captured)) = region.apply(b, me, p) else {
                    continue;
                };
                let imm = region.immortal(&child);
                let gain = match self.opts.rules {
                    Rules::Japanese => colour.sign() * i64::from(captured),
                    Rules::Chinese => {
                        i64::from((imm[0] & comp).count_ones())
                            - i64::from((imm[1] & comp).count_ones())
                    }
                };
                self.line.push((colour, p));
                let rest = self.eval_parts(comp, &child, imm);
                self.line.pop();
                let rest = rest?;
                let g = self.store.integer(gain);
                let v = self.store.add(g, rest)?;
                options[me].push(v);
            }
        }
        let [left, right] = options;
        let value = self.store.canonical(left, right)?;
        self.tt.insert(key, Entry::Done(value));
        Ok(value)
    }
}
