//! Exhaustive local search: from a position to its game value.
//!
//! One file (past 2 000 lines) because the bitboard region, the move
//! generation, the transposition tables and the search share private
//! representations (masks, packed keys, table slots) whose invariants are
//! easier to keep in one place than across module boundaries.
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
//!
//! When the region's bounding box (plus a spare column) fits in 128 bits,
//! bit `r · stride + c` is row `r`, column `c`, and the neighbours of a
//! mask are four shifts. When moreover every region bit and the stride are
//! below 64 (as for the open 3 × 4 area), neighbours and floods of masks
//! below bit 64 are computed on `u64`: a left shift gives the same low 64 bits in both widths, a right
//! shift of such a mask the same bits altogether, and the bits a `u64`
//! shift loses lie outside the region, so the results are the same masks
//! (`Region::nbrs_of`, `Region::flood`); a move (`Search::step`) is then
//! played entirely on `u64` masks, knowing the immortal stones
//! (`Region::apply_narrow`; checked against the general code in debug
//! builds). The mirror image of a mask is read from tables built with the
//! region, one entry per byte value and byte position (`Region::image_of`);
//! when a table key packs into one word, its images are made by exchanges
//! of bits in all three of its masks at once (`Region::least_packed`).
//!
//! On the large regions (the open 2 × 8 area: 3.1 million positions, 39
//! million lookups at 92% hits) the search waits mostly on the memory of
//! its table. One-word keys live in an open-addressing table whose slot
//! holds the key and its entry side by side (`SmallTable`: one cache line
//! per lookup, against two for a general hash table's control bytes and
//! bucket), `eval` plays every move of a position before following any and
//! prefetches the slots of the positions they lead to (the lookups
//! overlap), and the large tables are advised to huge pages
//! (`advise_huge_pages`). The store that interns the values is one per
//! search and not shared, so splitting one region's search by its first
//! moves does not pay (their subtrees nest: BENCHMARKS.md, "goperf10");
//! with [`SearchOptions::threads`] ≥ 2 a helper thread instead searches
//! the whole region in the other move order, in a store of its own, and
//! the two hand each other their finished table entries as they go
//! (`Search::with_helper`). The helper's search is exhaustive (it follows
//! a loopy position's other moves too) and goes on through the ko graph
//! walk, so that it values ahead of the walk, which stays on one thread,
//! the positions the walk asks about. Whole-board analysis runs whole
//! searches (the regions, the positions after first moves) on several
//! threads, each in its own store (module docs of `go::analysis`,
//! "Threads").

use super::kos::GoValue;
use super::position::{Cell, Colour, Move, Position};
use crate::game::{CgError, Dyadic, ExportSeries, GameExport, GameExporter, GameId, Store};
use crate::ko::KoError;
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
    /// many positions, counting with them the positions the territory
    /// rule's checks examine ([`SearchStats::territory_states`]).
    pub node_budget: u64,
    /// Score settled areas instead of playing in them (see the module docs
    /// of [`crate::go`]). Turning this off is for testing that it never
    /// changes a value (Japanese rules); under area rules the settledness
    /// rule is part of the definition of the local game.
    pub prune_settled: bool,
    /// Evaluate the components of a position separately and add the values.
    /// Exact under the basic rule; turning it off is for testing. Ignored
    /// under a superko rule, which couples the components through the
    /// history (see `search_value`).
    pub split_components: bool,
    /// What a repetition means ([`KoRule`]).
    pub ko_rule: KoRule,
    /// Share the transposition table between positions that are mirror
    /// images under a symmetry of the region (see the module docs of
    /// [`crate::go`]). Exact; turning it off is for testing.
    pub symmetry: bool,
    /// In a region with kos, give each position of a component of at most
    /// 16 points its own slot in the table of positions met, instead of
    /// hashing it (module docs of `kos`). Exact; turning it off is for
    /// testing.
    pub dense_walk: bool,
    /// Score a territory in which the opponent cannot live (the territory
    /// rule of `go::territory`: a won position) as its number instead of
    /// searching it. Applied only under Japanese scoring and the basic ko
    /// rule, where its theorems hold. Off by default (a region's own value
    /// is then its ko graph); whole-board analysis turns it on.
    pub territories: bool,
    /// Threads for one region's search: with 2 or more, a helper thread
    /// searches the region too, following the moves in the other order in
    /// a store of its own, and the two hand each other their finished
    /// table entries as they go (`Search::with_helper`); in a region
    /// with kos the helper goes on through the ko graph walk (which itself
    /// stays on one thread), valuing ahead of it the positions it asks
    /// about. Exact; the node count is then the calling thread's. Default 1.
    pub threads: usize,
    /// Threads for building a ko graph (step 2 of `go::kos`): with 2 or
    /// more, a graph of many nodes is built in two halves on two threads
    /// (`Search::graph_builder`), the same graph array for array, with
    /// the same games made in the same order in the store and the same
    /// steps counted, so nothing a caller can see changes. [`threads`]
    /// ≥ 2 implies it. Default 1; whole-board analysis gives it its own
    /// threads.
    ///
    /// [`threads`]: SearchOptions::threads
    pub graph_threads: usize,
}

/// How the search treats a line of play that repeats a position (see the
/// module docs of [`crate::go`], "Kos").
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum KoRule {
    /// The basic ko rule: the search plays every legal move (a local game
    /// has no "previous move", so no ban applies inside it) and a region in
    /// which a position can repeat is a ko graph ([`GoValue::Ko`]); the
    /// basic ko rule and the ko threats are then the business of whoever
    /// plays or analyses the graph (komaster thermography, sums with θ).
    #[default]
    Basic,
    /// Positional superko, local: a move may not recreate a position of the
    /// region that already occurred on the current line of play from the
    /// position searched (the position searched included). Every line is
    /// then finite and the value is a short game.
    PositionalSuperko,
    /// Situational superko, local: a move by a player may not recreate a
    /// position of the region that already occurred on the current line
    /// *after a move by the same player* (the same position with the same
    /// player to move next). The position searched counts as reached by a
    /// White move for Black's options and by a Black move for White's. The
    /// value is a short game.
    ///
    /// A local line records no tenuki (a move elsewhere leaves no trace in
    /// the region's history), so "the same player to move next" is read as
    /// "created by a board play of the same player": the local reading of
    /// situational superko is the natural situational one
    /// ([`KoRule::NaturalSituationalSuperko`]), see `go::korules`.
    SituationalSuperko,
    /// Natural situational superko (whole games): a player may not use a
    /// board play to recreate a board position that the same player created
    /// with a board play. Passes create nothing. Locally the same as
    /// [`KoRule::SituationalSuperko`].
    NaturalSituationalSuperko,
    /// Robert Jasiek's New Ko Rules (basic ko rule, fighting rule, disturber
    /// rule, prohibition rule), as reconstructed in `go::korules`. They need
    /// the whole board (the ko census) and the game's history; the local
    /// search reads them as the basic ko rule (module docs of `korules`).
    NewKoRules,
    /// No ko rule at all: any cycle may be repeated (the game may have no
    /// result). Locally the position graph, as under the basic rule, but a
    /// region whose positions can repeat has no value.
    NoRule,
}

impl KoRule {
    /// Every ko rule, in the order of the documentation.
    pub const ALL: [KoRule; 6] = [
        KoRule::Basic,
        KoRule::PositionalSuperko,
        KoRule::SituationalSuperko,
        KoRule::NaturalSituationalSuperko,
        KoRule::NewKoRules,
        KoRule::NoRule,
    ];

    /// The name the language uses (`ko_rule: natural_situational`).
    pub fn name(self) -> &'static str {
        match self {
            KoRule::Basic => "basic",
            KoRule::PositionalSuperko => "positional",
            KoRule::SituationalSuperko => "situational",
            KoRule::NaturalSituationalSuperko => "natural_situational",
            KoRule::NewKoRules => "new_ko_rules",
            KoRule::NoRule => "none",
        }
    }

    /// A longer name for reports (`positional superko`).
    pub fn describe(self) -> &'static str {
        match self {
            KoRule::Basic => "basic ko",
            KoRule::PositionalSuperko => "positional superko",
            KoRule::SituationalSuperko => "situational superko",
            KoRule::NaturalSituationalSuperko => "natural situational superko",
            KoRule::NewKoRules => "New Ko Rules",
            KoRule::NoRule => "no ko rule",
        }
    }

    /// The rule named `name` (the names of [`KoRule::name`], a few
    /// spellings more); `Err` carries the nearest name when one is close.
    pub fn from_name(name: &str) -> Result<KoRule, Option<&'static str>> {
        let n = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        let rule = match n.as_str() {
            "basic" | "simple" => KoRule::Basic,
            "positional" | "psk" | "positional_superko" => KoRule::PositionalSuperko,
            "situational" | "ssk" | "situational_superko" => KoRule::SituationalSuperko,
            "natural_situational" | "nssk" | "natural_situational_superko" => {
                KoRule::NaturalSituationalSuperko
            }
            "new_ko_rules" | "newko" | "jasiek" => KoRule::NewKoRules,
            "none" | "no_rule" => KoRule::NoRule,
            _ => {
                const SPELLINGS: [(&str, KoRule); 4] = [
                    ("jasiek", KoRule::NewKoRules),
                    ("newko", KoRule::NewKoRules),
                    ("superko", KoRule::PositionalSuperko),
                    ("no_rule", KoRule::NoRule),
                ];
                let best = KoRule::ALL
                    .iter()
                    .map(|r| (r.name(), *r))
                    .chain(SPELLINGS)
                    .map(|(s, r)| (edit_distance(&n, s), r.name()))
                    .min();
                return Err(best.filter(|&(d, _)| d <= 3).map(|(_, s)| s));
            }
        };
        Ok(rule)
    }

    /// How the local search reads the rule: basic (a ko graph), positional
    /// or situational superko (a short game). See the variants' docs.
    pub fn local_reading(self) -> KoRule {
        match self {
            KoRule::NaturalSituationalSuperko => KoRule::SituationalSuperko,
            KoRule::NewKoRules | KoRule::NoRule => KoRule::Basic,
            r => r,
        }
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            rules: Rules::Japanese,
            node_budget: 1_000_000,
            prune_settled: true,
            split_components: true,
            ko_rule: KoRule::Basic,
            symmetry: true,
            dense_walk: true,
            territories: false,
            threads: 1,
            graph_threads: 1,
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
    /// Of those, the territories scored by the territory rule
    /// ([`SearchOptions::territories`]).
    pub territories: u64,
    /// Positions examined by the territory rule's checks. They count
    /// against [`SearchOptions::node_budget`] with the positions expanded,
    /// so that a region whose checks run long (a large open area) is
    /// stopped by the budget like any other.
    pub territory_states: u64,
    /// Deepest line of play searched.
    pub max_depth: usize,
    /// Points in the region (empty points and capturable stones).
    pub region_points: usize,
    /// Positions the walk of a loopy component (`go::kos`) met for the
    /// first time and knew by a mirror image it had met, without asking
    /// the search.
    pub walk_images: u64,
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
    /// A position repeats: the region holds a ko (or a longer cycle), and a
    /// short game was asked for ([`value`], [`evaluate`]). `line` is the
    /// sequence of moves from the position searched to the repetition,
    /// written as in move strings; the position after `line[..cycle_start]`
    /// is the one that comes back after the rest. [`go_value`] gives the ko
    /// graph instead.
    Ko {
        line: Vec<String>,
        cycle_start: usize,
    },
    /// The ko graph built from the region was rejected: a region where play
    /// can go on for ever, such as an empty board with no safe stone
    /// (`go(". ")`: every move can be captured and retaken, and no line
    /// reaches a position where play stops), which `analyse` reports as a
    /// region with no value.
    KoGraph(KoError),
    /// The node budget ran out.
    NodeBudget { nodes: u64, budget: u64 },
    /// The region has more points than the search represents.
    TooLarge { points: usize, max: usize },
    /// Interrupted, or a value out of range.
    Cg(CgError),
    /// The ko rule gives the region no local value (for the New Ko Rules:
    /// [`new_ko_rules_locally`]).
    NoLocalValue { rule: KoRule, why: String },
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
                    "the moves {} repeat the position (a ko is not a short game: \
                     ask for the ko value instead)",
                    cycle.join(", ")
                )
            }
            GoError::KoGraph(e) => write!(f, "{e}"),
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
            GoError::NoLocalValue { rule, why } => {
                write!(f, "no local value under the {}: {why}", rule.describe())
            }
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

/// A value that may hold kos, with the statistics of the search.
#[derive(Clone, Debug)]
pub struct GoEvaluation {
    pub value: GoValue,
    pub stats: SearchStats,
}

/// The unchilled value of a position, kos included, with statistics (see the
/// module docs of [`crate::go`]). Prisoners already taken in `pos` count
/// under Japanese rules, and stones already immortal on region points count
/// under area rules, so `evaluate_go(play(pos, "B a"))` is the value of
/// Black's option `a`. A ko ban recorded in `pos` is ignored: the local game
/// has none.
pub fn evaluate_go(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
) -> Result<GoEvaluation, GoError> {
    let (value, stats) = search_value(store, pos, opts, false)?;
    Ok(GoEvaluation { value, stats })
}

/// A position of a region that stood earlier on the line of play leading
/// to the position searched, and the player whose board play created it
/// (`None`: unknown, or no board play: the start of a game, a pass). See
/// [`evaluate_go_with_history`].
pub type Earlier = (Vec<Cell>, Option<Colour>);

/// [`evaluate_go`] of a position whose line of play already met the
/// positions `earlier` of the same region (the same cut: the same size and
/// framing stones; an entry whose framing stones differ from `pos`'s is
/// skipped, as it can never recur). Under the local superko readings
/// ([`KoRule::local_reading`] positional or situational) a region's value
/// is that of its line's history ([`KoRule::PositionalSuperko`]: a move may
/// not recreate a position of the line, the position searched included),
/// and the line's history is then `earlier` followed by `pos`: a move may
/// not recreate one of them either. Under the situational reading an
/// earlier position forbids only a board play of the player who created it
/// (an entry with `None` forbids nothing), and `pos` itself was created by
/// `created_by` (a board play of that player: the move that reached it),
/// or, with `None`, counts as in [`evaluate_go`] as created by the
/// opponent of whoever moves first. So the options of a region's value
/// under a superko rule are the values of the positions after its moves
/// with the line as history: after a move of `c` from `pos`,
/// `evaluate_go_with_history(next, earlier + [(pos, by)], Some(c))`, `by`
/// being `pos`'s creator (`c`'s opponent for a `pos` of unknown creator).
/// Under the other rules the history is ignored (the basic ko rule's ban
/// is applied by whoever plays the ko graph) and this is [`evaluate_go`].
///
/// Only the earlier positions that the line can reach again change the
/// value: step 3 of `go::kos` starts the histories of both players' first
/// moves with the nodes of the region's position graph whose boards are
/// those of `earlier`.
pub fn evaluate_go_with_history(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
    earlier: &[Earlier],
    created_by: Option<Colour>,
) -> Result<GoEvaluation, GoError> {
    let rule = opts.ko_rule.local_reading();
    let root_by = created_by.filter(|_| rule == KoRule::SituationalSuperko);
    if rule == KoRule::Basic || (earlier.is_empty() && root_by.is_none()) {
        return evaluate_go(store, pos, opts);
    }
    let earlier: Vec<Earlier> = earlier
        .iter()
        .filter(|(cells, by)| {
            cells.len() == pos.cells.len()
                && (0..cells.len()).all(|p| !pos.frame[p] || cells[p] == pos.cells[p])
                && (rule == KoRule::PositionalSuperko || by.is_some())
        })
        .cloned()
        .collect();
    let (value, stats) = search_value_with(store, pos, opts, false, None, (&earlier, root_by))?;
    Ok(GoEvaluation { value, stats })
}

/// A chilled value with the statistics of the search ([`evaluate_go_chilled`]).
#[derive(Clone, Debug)]
pub struct ChilledEvaluation {
    /// The chilled value: what [`GoValue::chill`] makes of the unchilled one.
    pub chilled: GoValue,
    /// The unchilled value when the search had it on the way: when the
    /// value is a short game (the chilled value is that game chilled).
    /// `None` for a value with kos, whose graphs were built chilled.
    pub value: Option<GoValue>,
    pub stats: SearchStats,
}

/// The chilled value of a position, kos included, with statistics: the same
/// value as [`evaluate_go`]'s chilled by [`GoValue::chill`], and the same
/// statistics, but a ko graph is built chilled from the walk (each gain and
/// terminal game written once) rather than built unchilled and then taxed
/// (a second graph as large as the first).
pub fn evaluate_go_chilled(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
) -> Result<ChilledEvaluation, GoError> {
    let (value, stats) = search_value(store, pos, opts, true)?;
    Ok(match value {
        GoValue::Short(g) => ChilledEvaluation {
            chilled: GoValue::Short(store.chill(g)?),
            value: Some(value),
            stats,
        },
        ko => ChilledEvaluation {
            chilled: ko,
            value: None,
            stats,
        },
    })
}

/// The search behind [`evaluate_go`] and [`evaluate_go_chilled`]: the value
/// and the statistics; with `chill`, a value with kos is chilled (a short
/// value never is: [`Search::loopy_value`]).
fn search_value(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
    chill: bool,
) -> Result<(GoValue, SearchStats), GoError> {
    search_value_with(store, pos, opts, chill, None, (&[], None))
}

/// What searches of one region have learnt that holds for every position
/// of the region, whatever its stones: the values of components by key
/// (the transposition tables), the canonical forms by option lists, the
/// stops of the games met, the splits and the territory rule's memo, all
/// in the store they were made in. [`evaluate_go_reusing`] hands it from
/// one search to the next, so that a position after moves in a region
/// already searched is mostly table lookups.
pub struct SearchMemo {
    /// The region's layout ([`Region::points`], its framing stones, the
    /// board's width) and the options that decide what an entry means: a
    /// memo is used only for positions of the same frame, searched the
    /// same way.
    layout: (Vec<usize>, [u128; 2], usize),
    options: (Rules, bool, bool, KoRule, bool, bool),
    tt: FxHashMap<Key, Entry>,
    tt_small: SmallTable,
    tt_packed: FxHashMap<Packed, Entry>,
    canon_memo: FxHashMap<Box<[u32]>, GameId>,
    stops: Vec<StopsSlot>,
    ints: Vec<Option<GameId>>,
    split: Vec<u128>,
    split_of: FxHashMap<u128, (u32, u32)>,
    won: FxHashMap<(u128, u128, u128), bool>,
}

impl SearchMemo {
    fn options_of(opts: &SearchOptions) -> (Rules, bool, bool, KoRule, bool, bool) {
        (
            opts.rules,
            opts.prune_settled,
            opts.split_components,
            opts.ko_rule,
            opts.symmetry,
            opts.territories,
        )
    }
}

/// [`evaluate_go`] on one thread ([`SearchOptions::threads`] is not
/// read), taking over the tables `memo` holds when they are of the same
/// region (frame) searched with the same options, and leaving this search's
/// tables there. The value is the
/// one [`evaluate_go`] gives: an entry is the value of a component, which
/// does not depend on the position it was met from (a component found to
/// reach a cycle reaches it from any position), and a search that ends
/// leaves no entry half made; a search that fails leaves `memo` empty.
/// The statistics count this search's own work. For the basic ko rule
/// only (under a superko rule the search follows histories, and the memo
/// is not used).
pub fn evaluate_go_reusing(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
    memo: &mut Option<SearchMemo>,
) -> Result<GoEvaluation, GoError> {
    if opts.ko_rule.local_reading() != KoRule::Basic {
        *memo = None;
        let one = SearchOptions {
            threads: 1,
            ..opts.clone()
        };
        return evaluate_go(store, pos, &one);
    }
    let (value, stats) = search_value_with(store, pos, opts, false, Some(memo), (&[], None))?;
    Ok(GoEvaluation { value, stats })
}

fn search_value_with(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
    chill: bool,
    memo: Option<&mut Option<SearchMemo>>,
    (earlier, root_by): (&[Earlier], Option<Colour>),
) -> Result<(GoValue, SearchStats), GoError> {
    if opts.ko_rule == KoRule::NewKoRules {
        new_ko_rules_locally(pos)?;
    }
    let region = Region::new(pos)?;
    // Under a superko rule a repetition is judged on the whole region: a
    // move in one component may make a position of another component
    // repeatable again (the superko oracle's property test), so the
    // components are not independent and are searched together.
    let together;
    let opts = match opts.ko_rule.local_reading() {
        KoRule::PositionalSuperko | KoRule::SituationalSuperko if opts.split_components => {
            together = SearchOptions {
                split_components: false,
                ..opts.clone()
            };
            &together
        }
        _ => opts,
    };
    let mut search = Search::new(store, &region, pos, opts);
    search.stats.region_points = region.n;
    search.history = earlier
        .iter()
        .map(|(cells, by)| (region.board_of(cells), *by))
        .collect();
    search.root_by = root_by;
    let Some(memo) = memo else {
        let value = match opts.threads > 1 {
            true => {
                let (root, imm) = (&region.root, region.immortal(&region.root));
                search.with_helper(region.all, root, imm, |s| s.region_value(chill))?
            }
            false => search.region_value(chill)?,
        };
        return Ok((value, search.stats));
    };
    let layout = (region.points.clone(), region.seed, pos.width);
    let options = SearchMemo::options_of(opts);
    if let Some(m) = memo.take() {
        if m.layout == layout && m.options == options {
            search.take_memo(m);
        }
    }
    let value = search.region_value(chill)?;
    let stats = search.stats.clone();
    *memo = Some(search.into_memo(layout, options));
    Ok((value, stats))
}

impl Search<'_> {
    /// The value of the whole region from its root (the work of
    /// [`search_value`] on the calling thread): its ko-free components'
    /// sum, the prisoners (Japanese) or immortal stones (area) already
    /// there, and the loopy components' ko graphs ([`Search::loopy_value`]).
    fn region_value(&mut self, chill: bool) -> Result<GoValue, GoError> {
        let (region, pos) = (self.region, self.pos);
        let root = &region.root;
        let imm = region.immortal(root);
        let constant = match self.opts.rules {
            Rules::Japanese => {
                i64::from(pos.prisoners(Colour::Black)) - i64::from(pos.prisoners(Colour::White))
            }
            Rules::Chinese => {
                i64::from((imm[0] & region.all).count_ones())
                    - i64::from((imm[1] & region.all).count_ones())
            }
        };
        let parts = self.eval_parts(region.all, root, imm)?;
        let c = self.store.integer(constant);
        let short = self.store.add(c, parts.short)?;
        self.loopy_value(root, short, &parts.loopy, chill)
    }
}

/// Whether the New Ko Rules give `pos` a local value, read as the basic
/// ko rule with threats (module docs of `korules`, "Local analyses"). They
/// do when every ko position of the census is a single-mouth fighting ko
/// found by the census' reading K1 (not K4, a mouth between walls of both
/// colours such as eternal life, where the fighting rule also forbids the
/// capture that answers a sacrifice or a throw-in):
/// there the fighting rule forbids exactly the immediate retake, and the
/// prohibition rule never bites because every retake follows a threat (a
/// tenuki, which starts a new epoch). They do not when a ko position is
/// coupled (the fighting rule then forbids every capture in all its mouths
/// after the opponent's ko-stone play, and the prohibition rule counts each
/// player's ko stones per epoch: neither is a function of the position) or
/// is a DK between mortal strings (the disturber rule depends on who
/// disturbed it first in the current ko-stone move-sequence, and whether
/// its stones have stood as before since). A ko position next to an
/// immortal frame string is read as a fighting ko: the frame's breaths mean
/// nothing. The check is made on the position searched; kos that arise only
/// later in the region's play are read under the basic rule.
pub fn new_ko_rules_locally(pos: &Position) -> Result<(), GoError> {
    let c = super::census::census(pos);
    for k in c.positions.iter() {
        let names: Vec<String> = k.points.iter().map(|&p| pos.point_name(p)).collect();
        let framed = c.mouths[k.mouths[0]]
            .adjacent
            .iter()
            .any(|&s| c.string(s).stones.iter().any(|&p| pos.is_frame(p)));
        let why = if k.mouths.len() > 1 {
            format!(
                "the ko position {} ({}) has {} coupled mouths: which captures are allowed \
                 there depends on the game's history (the fighting rule forbids every capture in \
                 all of a fighting ko's mouths after the opponent's ko-stone play, the disturber \
                 rule remembers who disturbed a DK first, the prohibition rule counts each \
                 player's ko stones since the stones outside the ko positions last changed), not \
                 on the position; judge the moves on a game (`judge`, `play`), or ask for \
                 `ko_rule: basic`",
                names.join(" "),
                k.ko_type.describe(),
                k.mouths.len()
            )
        } else if c.mouths[k.mouths[0]].both_walls {
            format!(
                "the ko position {} (FK) lies between walls of both colours, as eternal life \
                 does: there the fighting rule forbids a capture after any ko-stone play of the \
                 opponent (a sacrifice or a throw-in too), not only the immediate retake, so the \
                 basic rule's ko graph is not its game; judge the moves on a game (`judge`, \
                 `play`), or ask for `ko_rule: basic`",
                names.join(" ")
            )
        } else if k.ko_type.is_dk() && !framed {
            format!(
                "the ko position {} is a {}: the disturber rule depends on who disturbed it first \
                 in the current ko-stone move-sequence and whether its stones have stood as before \
                 since, which a local search does not know; judge the moves on a game \
                 (`judge`, `play`), or ask for `ko_rule: basic`",
                names.join(" "),
                k.ko_type.describe()
            )
        } else {
            continue;
        };
        return Err(GoError::NoLocalValue {
            rule: KoRule::NewKoRules,
            why,
        });
    }
    Ok(())
}

/// The unchilled value of a position, kos included.
pub fn go_value(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
) -> Result<GoValue, GoError> {
    Ok(evaluate_go(store, pos, opts)?.value)
}

/// The chilled value of a position, kos included (see [`GoValue::chill`]):
/// `go_value(…)?.chill(store)`, computed by [`evaluate_go_chilled`], which
/// builds a ko graph chilled rather than chilling the unchilled one.
pub fn go_chilled(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
) -> Result<GoValue, GoError> {
    Ok(evaluate_go_chilled(store, pos, opts)?.chilled)
}

/// The unchilled value of a position as a short game, with statistics. A
/// region that holds a ko (under the basic ko rule) is the error
/// [`GoError::Ko`] naming a line that repeats a position; use
/// [`evaluate_go`] for its ko graph.
pub fn evaluate(
    store: &mut Store,
    pos: &Position,
    opts: &SearchOptions,
) -> Result<Evaluation, GoError> {
    let e = evaluate_go(store, pos, opts)?;
    Ok(Evaluation {
        value: e.value.into_short()?,
        stats: e.stats,
    })
}

/// The unchilled value of a position as a short game ([`evaluate`]).
pub fn value(store: &mut Store, pos: &Position, opts: &SearchOptions) -> Result<GameId, GoError> {
    Ok(evaluate(store, pos, opts)?.value)
}

/// The chilled value (Mathematical Go's `f`), the default view of a Go value,
/// as a short game ([`evaluate`]).
pub fn chilled(store: &mut Store, pos: &Position, opts: &SearchOptions) -> Result<GameId, GoError> {
    let v = value(store, pos, opts)?;
    Ok(store.chill(v)?)
}

/// The moves the search considers for `colour` in `pos`, with the positions
/// they lead to: every legal move on a point outside the settled areas of
/// `rules` (all legal moves when `prune_settled` is off), ignoring any ko
/// ban. This is the move generator the ko machinery can build ko graphs
/// from.
pub fn search_moves(
    pos: &Position,
    colour: Colour,
    prune_settled: bool,
    rules: Rules,
) -> Result<Vec<(Move, Position)>, GoError> {
    let region = Region::new(pos)?;
    let root = &region.root;
    let mut playable = region.all & !(root.stones[0] | root.stones[1]);
    if prune_settled {
        for comp in region.components(region.nonimmortal(root)) {
            if region.settled_under(comp, root, rules).is_some() {
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

/// The number of bits of `m`, one step per bit (for masks of a few bits,
/// such as a newly immortal chain: cheaper than a 128-bit population count
/// without a hardware instruction).
#[inline]
fn few_bits(mut m: u128) -> u32 {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}

/// Maximum number of region points.
pub const MAX_REGION_POINTS: usize = 128;

pub(super) fn bits(mut m: u128) -> impl Iterator<Item = usize> {
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
pub(super) struct Board {
    /// Black stones, White stones (region points only).
    pub(super) stones: [u128; 2],
}

/// The geometry of a region.
pub(super) struct Region {
    /// Number of region points.
    pub(super) n: usize,
    /// Bit → point index of the position (`usize::MAX` for no point).
    pub(super) points: Vec<usize>,
    /// Region neighbours of each bit.
    nbr: Vec<u128>,
    /// Region points next to a framing stone of Black / White.
    seed: [u128; 2],
    /// The bits of region points.
    pub(super) all: u128,
    /// One more than the highest bit of a region point.
    pub(super) span: u32,
    /// `Some(stride)` when bit `r * stride + c` is the point in row `r`,
    /// column `c` of the region's bounding box (`stride` is its width plus a
    /// spare column, so shifts never wrap onto a region point).
    grid: Option<usize>,
    /// With `grid`: every region point's bit and the stride are below 64,
    /// so neighbours of masks within the low 64 bits are computed on `u64`
    /// (see [`Region::nbrs_of`]).
    narrow: bool,
    /// The rows of the bounding box (with `grid`).
    rows: usize,
    /// The symmetries of the region other than the identity (module docs of
    /// [`crate::go`], "Symmetry").
    pub(super) syms: Vec<Sym>,
    /// For each symmetry of `syms`, the image of every byte of a mask:
    /// entry `256 · k + v` is the image of `v << 8k`, for the bytes `k`
    /// of a mask, `k < span.div_ceil(8)` (see [`Region::image_of`]).
    sym_tables: Vec<Vec<u128>>,
    /// The spacing of the three masks of a one-word table key
    /// ([`Search::key`]): `rows · stride − 1` with `grid` (above every
    /// region bit, and the whole of each row of the bounding box), else
    /// `span`.
    part: u32,
    /// With `grid` and `part` ≤ 21: the symmetries of a one-word key as
    /// exchanges of bits (see [`Region::least_packed`]): `(distance, mask)`
    /// pairs, each exchanging the bits of `mask` with those `distance`
    /// above them; the first list reverses the rows, the second the
    /// columns, the third (square boxes only) transposes.
    swaps: [Vec<(u32, u64)>; 3],
    pub(super) root: Board,
}

/// A symmetry of the region's bounding box (with the grid layout): a
/// reflection or a turn. Row `r`, column `c` of an `n × n` box goes to
/// the point named beside each of the last four, which exist only when
/// the box is square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Sym {
    /// Rows reversed.
    Vertical,
    /// Columns reversed.
    Horizontal,
    /// Both (a half turn).
    HalfTurn,
    /// Rows and columns exchanged: `(c, r)`.
    Transpose,
    /// The reflection in the other diagonal (transposed, then a half
    /// turn): `(n − 1 − c, n − 1 − r)`.
    AntiTranspose,
    /// Transposed, then rows reversed (a quarter turn): `(n − 1 − c, r)`.
    QuarterTurn,
    /// Transposed, then columns reversed (the other quarter turn):
    /// `(c, n − 1 − r)`.
    QuarterTurnBack,
}

impl Sym {
    /// The symmetries other than the identity; the last four for square
    /// bounding boxes only.
    const ALL: [Sym; 7] = [
        Sym::Vertical,
        Sym::Horizontal,
        Sym::HalfTurn,
        Sym::Transpose,
        Sym::AntiTranspose,
        Sym::QuarterTurn,
        Sym::QuarterTurnBack,
    ];

    /// Whether the symmetry exchanges rows with columns.
    fn transposes(self) -> bool {
        !matches!(self, Sym::Vertical | Sym::Horizontal | Sym::HalfTurn)
    }
}

impl Region {
    /// The stones of `cells` (a position of this region's cut) on the
    /// region's points.
    pub(super) fn board_of(&self, cells: &[Cell]) -> Board {
        let mut b = Board { stones: [0, 0] };
        for i in bits(self.all) {
            if let Cell::Stone(c) = cells[self.points[i]] {
                b.stones[c.index()] |= 1 << i;
            }
        }
        b
    }

    pub(super) fn new(pos: &Position) -> Result<Region, GoError> {
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
        let span = 128 - all.leading_zeros();
        let mut region = Region {
            n,
            points,
            nbr,
            seed,
            all,
            span,
            grid,
            narrow: grid.is_some_and(|s| s < 64) && all >> 64 == 0,
            rows: r1 - r0 + 1,
            syms: Vec::new(),
            sym_tables: Vec::new(),
            part: span,
            swaps: [Vec::new(), Vec::new(), Vec::new()],
            root,
        };
        if grid.is_some() {
            let square = region.rows + 1 == stride;
            for sym in Sym::ALL {
                if sym.transposes() && !square {
                    continue;
                }
                let fixed = |m: u128| region.image(sym, m) == m;
                if fixed(region.all) && fixed(region.seed[0]) && fixed(region.seed[1]) {
                    region.syms.push(sym);
                }
            }
            let bytes = region.span.div_ceil(8) as usize;
            region.sym_tables = region
                .syms
                .iter()
                .map(|&sym| {
                    (0..256 * bytes)
                        .map(|i| region.image(sym, ((i % 256) as u128) << (8 * (i / 256))))
                        .collect()
                })
                .collect();
            let stride = stride as u32;
            region.part = region.rows as u32 * stride - 1;
            if region.part <= 21 {
                let (rows, part) = (region.rows as u32, region.part);
                let spread = |m: u64| m | m << part | m << (2 * part);
                let row = (1u64 << (stride - 1)) - 1;
                let column = (0..rows).fold(0u64, |acc, r| acc | 1 << (r * stride));
                // Transposing exchanges row r, column r + j (bit
                // r · stride + r + j) with row r + j, column r, j · (stride − 1)
                // bits above it.
                let transpose = match square {
                    true => (1..rows)
                        .map(|j| {
                            let lower =
                                (0..rows - j).fold(0u64, |acc, r| acc | 1 << (r * stride + r + j));
                            (j * (stride - 1), spread(lower))
                        })
                        .collect(),
                    false => Vec::new(),
                };
                region.swaps = [
                    (0..rows / 2)
                        .map(|r| ((rows - 1 - 2 * r) * stride, spread(row << (r * stride))))
                        .collect(),
                    (0..(stride - 1) / 2)
                        .map(|c| (stride - 2 - 2 * c, spread(column << c)))
                        .collect(),
                    transpose,
                ];
            }
        }
        Ok(region)
    }

    /// The least of the one-word key `k` (`white | black << part | comp <<
    /// 2·part`, `part` ≤ 21, with `grid`) and its images under the
    /// symmetries `syms`: each of the three masks is mapped in its place,
    /// the same as packing their images. A reflection of rows exchanges
    /// row `r` with row `rows − 1 − r`, one of columns column `c` with
    /// column `stride − 2 − c`, each pair by one exchange of bits
    /// (`t = (k >> d ^ k) & mask`, `k ^ t ^ t << d`) done in every part at
    /// once; a part spans whole rows, so no bit crosses into another part.
    /// The half turn is both reflections. Transposing exchanges each bit
    /// above the diagonal with its partner below, a distance `j · (stride −
    /// 1)` for the `j`-th diagonal above the main one; the other three
    /// symmetries of a square are a transpose followed by reflections.
    #[inline]
    fn least_packed(&self, k: u64) -> u64 {
        let swap = |mut k: u64, swaps: &[(u32, u64)]| {
            for &(d, mask) in swaps {
                let t = ((k >> d) ^ k) & mask;
                k ^= t ^ (t << d);
            }
            k
        };
        let mut least = k;
        for &sym in &self.syms {
            let [rows, columns, diagonal] = &self.swaps;
            let image = match sym {
                Sym::Vertical => swap(k, rows),
                Sym::Horizontal => swap(k, columns),
                Sym::HalfTurn => swap(swap(k, columns), rows),
                Sym::Transpose => swap(k, diagonal),
                Sym::AntiTranspose => swap(swap(swap(k, diagonal), columns), rows),
                Sym::QuarterTurn => swap(swap(k, diagonal), rows),
                Sym::QuarterTurnBack => swap(swap(k, diagonal), columns),
            };
            #[cfg(debug_assertions)]
            {
                let (part, ones) = (self.part, (1u64 << self.part) - 1);
                let by_mask = (0..3).fold(0u64, |acc, j| {
                    let m = u128::from((k >> (j * part)) & ones);
                    acc | (self.image(sym, m) as u64) << (j * part)
                });
                debug_assert_eq!(image, by_mask);
            }
            least = least.min(image);
        }
        least
    }

    /// The image of the mask `m` (of region points) under the symmetry
    /// `syms[i]`: the same as [`Region::image`], by table. A symmetry maps
    /// each bit to one bit, so the image of a mask is the union of the
    /// images of its bytes; every region point's bit is below `span`.
    #[inline]
    fn image_of(&self, i: usize, m: u128) -> u128 {
        let table = &self.sym_tables[i];
        let (mut out, mut rest, mut k) = (0, m, 0);
        while rest != 0 {
            out |= table[k + (rest & 255) as usize];
            rest >>= 8;
            k += 256;
        }
        debug_assert_eq!(out, self.image(self.syms[i], m));
        out
    }

    /// For each symmetry of `syms` that maps the points `comp` onto
    /// themselves and the stones of `b` off them onto themselves, where it
    /// sends each bit (`usize::MAX` for a bit of no region point): the
    /// positions that differ from `b` only on `comp` are then sent to
    /// positions that do too, with equal values (the symmetry maps the
    /// region, its framing stones and the stones off `comp` to
    /// themselves), which the walk of `go::kos` uses.
    pub(super) fn symmetries_of(&self, comp: u128, b: &Board) -> Vec<[usize; 128]> {
        (0..self.syms.len())
            .filter(|&i| {
                let fixed = |m: u128| self.image_of(i, m) == m;
                fixed(comp) && fixed(b.stones[0] & !comp) && fixed(b.stones[1] & !comp)
            })
            .map(|i| {
                let mut to = [usize::MAX; 128];
                for bit in bits(self.all) {
                    to[bit] = self.image_of(i, 1 << bit).trailing_zeros() as usize;
                }
                to
            })
            .collect()
    }

    /// The image of the mask `m` under a symmetry (grid layout only).
    /// Bit `r * stride + c` (with `c` < `stride − 1`) is row `r`, column `c`.
    fn image(&self, sym: Sym, m: u128) -> u128 {
        let Some(stride) = self.grid else {
            return m;
        };
        let rows = self.rows;
        let vertical = |m: u128| {
            let row = (1u128 << stride) - 1;
            (0..rows).fold(0u128, |acc, r| {
                acc | (((m >> (r * stride)) & row) << ((rows - 1 - r) * stride))
            })
        };
        // Reversing all 128 bits sends bit i to 127 − i; the shift brings it
        // to rows·stride − 2 − i, which is row rows − 1 − r and column
        // stride − 2 − c (the spare column, never set, falls off).
        let half_turn = |m: u128| m.reverse_bits() >> (129 - rows * stride);
        // Row r, column c to row c, column r (a square box: `stride` is
        // `rows + 1`).
        let transpose = |m: u128| {
            debug_assert_eq!(stride, rows + 1);
            bits(m).fold(0u128, |acc, i| {
                acc | 1 << ((i % stride) * stride + i / stride)
            })
        };
        match sym {
            Sym::Vertical => vertical(m),
            Sym::HalfTurn => half_turn(m),
            Sym::Horizontal => half_turn(vertical(m)),
            Sym::Transpose => transpose(m),
            Sym::AntiTranspose => half_turn(transpose(m)),
            Sym::QuarterTurn => vertical(transpose(m)),
            Sym::QuarterTurnBack => half_turn(vertical(transpose(m))),
        }
    }

    /// Union of the neighbours of the points of `m`.
    #[inline]
    pub(super) fn nbrs_of(&self, m: u128) -> u128 {
        match self.grid {
            // The same shifts on the low word: a mask with no bit above 63
            // has, under a left shift, the same low 64 bits in `u64` as in
            // `u128` and, under a right shift, the same bits altogether;
            // every bit the `u64` shifts lose is 64 or above, outside `all`.
            // (A `u128` shift by a variable amount costs several
            // instructions; this is the hot loop of the search.)
            Some(stride) if self.narrow && m >> 64 == 0 => {
                let (m, s) = (m as u64, stride as u32);
                u128::from((m << 1) | (m >> 1) | (m << s) | (m >> s)) & self.all
            }
            Some(stride) => ((m << 1) | (m >> 1) | (m << stride) | (m >> stride)) & self.all,
            None => bits(m).fold(0, |acc, i| acc | self.nbr[i]),
        }
    }

    /// The points of `within` connected to `seed` through `within`.
    #[inline(always)]
    fn flood(&self, seed: u128, within: u128) -> u128 {
        if let Some(stride) = self.grid.filter(|_| self.narrow && within >> 64 == 0) {
            // As `nbrs_of` on the low word: every mask here is within
            // `within`, so below bit 64.
            let (all, within, s) = (self.all as u64, within as u64, stride as u32);
            let mut region = seed as u64 & within;
            let mut frontier = region;
            while frontier != 0 {
                let nbrs = (frontier << 1) | (frontier >> 1) | (frontier << s) | (frontier >> s);
                let next = nbrs & all & within & !region;
                region |= next;
                frontier = next;
            }
            return u128::from(region);
        }
        let mut region = seed & within;
        let mut frontier = region;
        while frontier != 0 {
            let next = self.nbrs_of(frontier) & within & !region;
            region |= next;
            frontier = next;
        }
        region
    }

    /// Region points next to a framing stone of colour `c` (0 Black, 1
    /// White).
    pub(super) fn seed(&self, c: usize) -> u128 {
        self.seed[c]
    }

    /// Immortal stones of each colour: chains touching a framing stone.
    pub(super) fn immortal(&self, b: &Board) -> [u128; 2] {
        [
            self.flood(b.stones[0] & self.seed[0], b.stones[0]),
            self.flood(b.stones[1] & self.seed[1], b.stones[1]),
        ]
    }

    /// Points that are empty or hold capturable stones.
    pub(super) fn nonimmortal(&self, b: &Board) -> u128 {
        let imm = self.immortal(b);
        self.all & !(imm[0] | imm[1])
    }

    /// Connected components of `m`.
    pub(super) fn components(&self, m: u128) -> Vec<u128> {
        let mut out = Vec::new();
        let mut rest = m;
        while rest != 0 {
            let c = self.flood(rest & rest.wrapping_neg(), m);
            out.push(c);
            rest &= !c;
        }
        out
    }

    /// The move of [`Search::step`] on a narrow grid (every region bit and
    /// the stride below 64), all on `u64` masks with neighbours by four
    /// shifts (see [`Region::nbrs_of`]), knowing the immortal stones `imm`
    /// of `b`: the new board, the number of stones captured and the points
    /// that become immortal (the new stone's chain but for the immortal
    /// stones it joins; 0 when it stays mortal), or `None` for suicide.
    /// This is the move of the search's inner loop.
    ///
    /// Knowing `imm` saves most floods. An immortal chain is never
    /// captured, so only the opponent's mortal stones next to `p` are
    /// candidates (and none of them touches a framing stone). The new chain
    /// is the new stone and the chains of `me` next to it; it touches a
    /// framing stone exactly when the new stone does or one of those chains
    /// is immortal (a mortal chain touches none). A mortal new chain is not
    /// suicide when the new stone has an empty neighbour after the
    /// captures; only otherwise is it flooded for a liberty.
    #[inline(always)]
    fn apply_narrow(
        &self,
        b: &Board,
        imm: [u128; 2],
        me: usize,
        p: usize,
        s: u32,
    ) -> Option<(Board, u32, u64)> {
        let op = 1 - me;
        let all = self.all as u64;
        let nbrs = |m: u64| ((m << 1) | (m >> 1) | (m << s) | (m >> s)) & all;
        let flood = |from: u64, within: u64| {
            let mut region = from & within;
            let mut frontier = region;
            while frontier != 0 {
                let next = nbrs(frontier) & within & !region;
                region |= next;
                frontier = next;
            }
            region
        };
        let bit = 1u64 << p;
        let nbr = self.nbr[p] as u64;
        let mut stones = [b.stones[0] as u64, b.stones[1] as u64];
        stones[me] |= bit;
        let mut empty = all & !(stones[0] | stones[1]);
        let mut captured = 0;
        let mut candidates = nbr & stones[op] & !(imm[op] as u64);
        while candidates != 0 {
            let stone = candidates & candidates.wrapping_neg();
            // A stone with a liberty of its own shows that its chain is not
            // captured.
            if self.nbr[stone.trailing_zeros() as usize] as u64 & empty != 0 {
                candidates &= !stone;
                continue;
            }
            let chain = flood(stone, stones[op]);
            candidates &= !chain;
            if nbrs(chain) & empty == 0 {
                stones[op] &= !chain;
                captured += chain.count_ones();
            }
        }
        if captured != 0 {
            empty = all & !(stones[0] | stones[1]);
        }
        let immortal = bit & self.seed[me] as u64 != 0 || nbr & imm[me] as u64 != 0;
        let own = if immortal {
            // The points that become immortal: the new stone and the mortal
            // chains it joins (a mortal chain touching an immortal one
            // would be part of it), so the flood stays on mortal stones.
            flood(bit, stones[me] & !(imm[me] as u64))
        } else {
            if nbr & empty == 0 && nbrs(flood(bit, stones[me])) & empty == 0 {
                return None;
            }
            0
        };
        let stones = [u128::from(stones[0]), u128::from(stones[1])];
        Some((Board { stones }, captured, own))
    }

    /// Plays a stone of colour `me` (0 Black, 1 White) on the empty region
    /// point `p`, on any layout: returns the new board, the number of stones
    /// captured and the chain of the new stone, or `None` for suicide.
    #[inline(never)]
    pub(super) fn apply(&self, b: &Board, me: usize, p: usize) -> Option<(Board, u32, u128)> {
        let op = 1 - me;
        let mut stones = b.stones;
        stones[me] |= 1 << p;
        let empty = self.all & !(stones[0] | stones[1]);
        let mut captured = 0;
        let mut candidates = self.nbr[p] & stones[op];
        while candidates != 0 {
            let stone = candidates & candidates.wrapping_neg();
            // A stone with a liberty of its own, or touching a framing
            // stone, shows that its chain is not captured.
            if self.nbrs_of(stone) & empty != 0 || stone & self.seed[op] != 0 {
                candidates &= !stone;
                continue;
            }
            let chain = self.flood(stone, stones[op]);
            candidates &= !chain;
            if chain & self.seed[op] != 0 {
                continue;
            }
            if self.nbrs_of(chain) & empty == 0 {
                stones[op] &= !chain;
                captured += chain.count_ones();
            }
        }
        let own = if self.nbr[p] & stones[me] == 0 {
            1 << p
        } else {
            self.flood(1 << p, stones[me])
        };
        if own & self.seed[me] == 0 {
            let empty = self.all & !(stones[0] | stones[1]);
            if self.nbrs_of(own) & empty == 0 {
                return None;
            }
        }
        Some((Board { stones }, captured, own))
    }

    /// If the component `comp` is settled (see the module docs of `crate::go`), the colour it is
    /// settled for: it holds no stone of that colour, every stone around it
    /// is of that colour (hence immortal), and every point of it touches such
    /// a stone.
    pub(super) fn settled(&self, comp: u128, b: &Board) -> Option<Colour> {
        // Settled for one colour, a component touches no framing stone of
        // the other: one touching both kinds is settled for neither.
        if comp & self.seed[0] != 0 && comp & self.seed[1] != 0 {
            return None;
        }
        if let Some(stride) = self.grid.filter(|_| self.narrow) {
            let out = self.settled_narrow(comp as u64, b, stride as u32);
            debug_assert_eq!(out, self.settled_wide(comp, b));
            return out;
        }
        self.settled_wide(comp, b)
    }

    /// [`Region::settled`] on a narrow grid, on `u64` masks (see
    /// [`Region::nbrs_of`]), with the same tests in the same order.
    #[inline]
    fn settled_narrow(&self, comp: u64, b: &Board, s: u32) -> Option<Colour> {
        let all = self.all as u64;
        let nbrs = |m: u64| ((m << 1) | (m >> 1) | (m << s) | (m >> s)) & all;
        let stones = [b.stones[0] as u64, b.stones[1] as u64];
        let seed = [self.seed[0] as u64, self.seed[1] as u64];
        for (c, colour) in [(0, Colour::Black), (1, Colour::White)] {
            let op = 1 - c;
            if comp & (stones[c] | seed[op]) != 0
                || nbrs(comp) & !comp & stones[op] != 0
                || comp & !(nbrs(stones[c]) | seed[c]) != 0
            {
                continue;
            }
            return Some(colour);
        }
        None
    }

    /// [`Region::settled`] on any layout.
    fn settled_wide(&self, comp: u128, b: &Board) -> Option<Colour> {
        let settled_for = |c: usize| {
            let op = 1 - c;
            if comp & b.stones[c] != 0 || comp & self.seed[op] != 0 {
                return false;
            }
            if self.nbrs_of(comp) & !comp & b.stones[op] != 0 {
                return false;
            }
            // Every point of `comp` touches a stone of colour `c` (in the
            // region, or framing).
            comp & !(self.nbrs_of(b.stones[c]) | self.seed[c]) == 0
        };
        if settled_for(0) {
            Some(Colour::Black)
        } else if settled_for(1) {
            Some(Colour::White)
        } else {
            None
        }
    }

    /// [`Region::settled`] under `rules`: under area scoring a component is
    /// also settled when the other colour can never play in it
    /// ([`Region::settled_area`]).
    pub(super) fn settled_under(&self, comp: u128, b: &Board, rules: Rules) -> Option<Colour> {
        match self.settled(comp, b) {
            Some(c) => Some(c),
            None if rules == Rules::Chinese => self.settled_area(comp, b),
            None => None,
        }
    }

    /// The colour a component is settled for under area scoring because the
    /// other colour has no legal move in it and this one has (module docs
    /// of `crate::go`, "Settled areas").
    pub(super) fn settled_area(&self, comp: u128, b: &Board) -> Option<Colour> {
        let empty = comp & !(b.stones[0] | b.stones[1]);
        // An empty point next to another is a legal move for both colours.
        if self.nbrs_of(empty) & empty != 0 {
            return None;
        }
        let can_play = |c: usize| bits(empty).any(|p| self.apply(b, c, p).is_some());
        match (can_play(0), can_play(1)) {
            (true, false) => Some(Colour::Black),
            (false, true) => Some(Colour::White),
            _ => None,
        }
    }
}

/// The value of a component found by the search: a short game, or `Loopy`
/// when some line of play from it repeats a position (it reaches a cycle of
/// the position graph), so that it has no short value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Val {
    Short(GameId),
    Loopy,
}

#[derive(Copy, Clone, Debug)]
enum Entry {
    Expanding,
    Done(Val),
}

/// The running sum of [`Search::eval_short`].
struct ShortSum {
    total: GameId,
    /// Without splitting: the union of the components not settled.
    unsettled: u128,
}

/// The value of the points of a mask: the sum of its ko-free components
/// (with the settled scores) and the components that reach a cycle.
pub(super) struct Parts {
    pub(super) short: GameId,
    /// The components (or, without splitting, their union) whose value is
    /// [`Val::Loopy`].
    pub(super) loopy: Vec<u128>,
}

/// A table key: three masks, or packed into one or two words when every
/// region point has a bit below `span` and the three masks fit side by side.
enum TtKey {
    Small(u64),
    Packed(u128),
    Full(Key),
}

/// Asks the kernel to back the buffer of `v` with huge pages (Linux
/// `madvise(MADV_HUGEPAGE)`; a hint, with no effect on what `v` holds),
/// when it is large: the search's large tables are read at random, one
/// slot per lookup, so with 4 kB pages nearly every lookup also misses the
/// TLB (the 57 MB walk table of the open 3 × 5 area spans 14 000 pages, a
/// few dozen huge ones). Call it before the buffer is written: a fresh
/// zeroed allocation of this size is pages not yet touched.
pub(super) fn advise_huge_pages<T>(v: &mut [T]) {
    let bytes = std::mem::size_of_val(v);
    if bytes < 4 << 20 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = (v.as_mut_ptr() as usize).next_multiple_of(PAGE);
        let end = (v.as_mut_ptr() as usize + bytes) / PAGE * PAGE;
        if end > start {
            // SAFETY: the range lies inside the buffer of `v`, which this
            // function borrows mutably; MADV_HUGEPAGE changes how the pages
            // are backed, never their contents. Failure (no THP) is
            // harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}

/// Asks the memory for the cache line of `r`, to be read soon: a hint,
/// with no effect on any value (the large tables are read at random, and
/// reads issued together wait for the memory together).
#[inline(always)]
pub(super) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and faults on no address; `r` is a
    // valid reference anyway.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(r as *const T as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// The table of the one-word keys `white | black << part | comp << 2·part`
/// (`Region::part`): open addressing with linear probing, each slot the key
/// and its entry side by side in 16 bytes, so that a lookup reads one cache
/// line where a general hash table reads its control bytes and then the
/// bucket, two lines far apart. The table is the search's largest cost on
/// the large regions (its lookups mostly miss the cache: the open 2 × 8
/// area makes 3.1 million entries). A key is never 0 (its component is not
/// empty), so 0 marks an empty slot. It grows by doubling at 3/4 full.
pub(super) struct SmallTable {
    /// `[key, entry]` ([`SmallTable::encode`]); the length is a power of 2.
    slots: Vec<[u64; 2]>,
    len: usize,
    /// `64 − log2(slots.len())`: a key's first slot is the top bits of its
    /// hash.
    shift: u32,
}

impl SmallTable {
    fn new() -> SmallTable {
        const BITS: u32 = 10;
        SmallTable {
            slots: vec![[0, 0]; 1 << BITS],
            len: 0,
            shift: 64 - BITS,
        }
    }

    /// A well-mixed hash of a key (multiply–xorshift).
    #[inline(always)]
    fn hash(k: u64) -> u64 {
        let mut h = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 29;
        h.wrapping_mul(0xbf58_476d_1ce4_e5b9)
    }

    #[inline(always)]
    fn encode(e: Entry) -> u64 {
        match e {
            Entry::Expanding => 1,
            Entry::Done(Val::Loopy) => 2,
            Entry::Done(Val::Short(g)) => u64::from(g.0) << 2 | 3,
        }
    }

    #[inline(always)]
    fn decode(w: u64) -> Entry {
        match w {
            1 => Entry::Expanding,
            2 => Entry::Done(Val::Loopy),
            w => Entry::Done(Val::Short(GameId((w >> 2) as u32))),
        }
    }

    /// The slot of `k`, or of the empty slot where it would go.
    #[inline(always)]
    fn find(&self, k: u64) -> usize {
        debug_assert!(k != 0, "a key is never 0");
        let mask = self.slots.len() - 1;
        let mut i = (SmallTable::hash(k) >> self.shift) as usize;
        loop {
            let slot = self.slots[i][0];
            if slot == k || slot == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The entry of `k`, or `None` after recording it as being expanded.
    #[inline]
    fn probe(&mut self, k: u64) -> Option<Entry> {
        let i = self.find(k);
        if self.slots[i][0] == k {
            return Some(SmallTable::decode(self.slots[i][1]));
        }
        self.slots[i] = [k, SmallTable::encode(Entry::Expanding)];
        self.len += 1;
        if 4 * self.len > 3 * self.slots.len() {
            self.grow();
        }
        None
    }

    /// Records the finished entry `e` of `k` unless the table has an entry
    /// for `k` already (`Search::take_batches`).
    fn adopt(&mut self, k: u64, e: Entry) {
        let i = self.find(k);
        if self.slots[i][0] == k {
            return;
        }
        self.slots[i] = [k, SmallTable::encode(e)];
        self.len += 1;
        if 4 * self.len > 3 * self.slots.len() {
            self.grow();
        }
    }

    /// Asks the memory for the first slot of `k` (a hint: no effect on
    /// what the table holds).
    #[inline(always)]
    fn prefetch(&self, k: u64) {
        let i = (SmallTable::hash(k) >> self.shift) as usize;
        prefetch(&self.slots[i]);
    }

    /// Sets the entry of `k` (made by [`SmallTable::probe`]).
    #[inline]
    fn record(&mut self, k: u64, e: Entry) {
        let i = self.find(k);
        debug_assert_eq!(self.slots[i][0], k, "recorded keys were probed");
        self.slots[i] = [k, SmallTable::encode(e)];
    }

    /// The growth `extra` more entries may make, if any: the table doubles
    /// (while it moves its entries the old array is held too) until they
    /// fit. Tables under 256 KiB are not checked.
    fn growth(&self, extra: usize) -> Option<crate::limits::Growth> {
        let need = self.len.saturating_add(extra);
        let mut size = self.slots.len();
        if size < 1 << 14 || 4 * need <= 3 * size {
            return None;
        }
        while 4 * need > 3 * size {
            size *= 2;
        }
        let bytes = size.saturating_mul(std::mem::size_of::<[u64; 2]>());
        Some(crate::limits::Growth::new(
            "search table",
            size / 4 * 3,
            bytes,
        ))
    }

    #[cold]
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let mut slots = vec![[0, 0]; size];
        advise_huge_pages(&mut slots);
        let old = std::mem::replace(&mut self.slots, slots);
        self.shift -= 1;
        for slot in old {
            if slot[0] != 0 {
                let i = self.find(slot[0]);
                self.slots[i] = slot;
            }
        }
    }

    /// Every entry (for tests).
    #[cfg(test)]
    fn values(&self) -> impl Iterator<Item = Entry> + '_ {
        self.slots
            .iter()
            .filter(|s| s[0] != 0)
            .map(|s| SmallTable::decode(s[1]))
    }
}

/// A packed key in two words (`[low, high]`, so that it aligns as a `u64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed([u64; 2]);

fn packed(k: u128) -> Packed {
    Packed([k as u64, (k >> 64) as u64])
}

impl std::hash::Hash for Packed {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(mix_masks(&[
            u128::from(self.0[0]) | u128::from(self.0[1]) << 64
        ]));
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    comp: u128,
    black: u128,
    white: u128,
}

impl std::hash::Hash for Key {
    /// One well-mixed word: the three masks are sparse and structured, which
    /// a plain multiplicative hash spreads poorly over the table.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(mix_masks(&[self.comp, self.black, self.white]));
    }
}

/// A 64-bit hash of some 128-bit masks (multiply–xorshift mixing).
pub(super) fn mix_masks(masks: &[u128]) -> u64 {
    let mut h: u64 = 0x243f_6a88_85a3_08d3;
    for &m in masks {
        for w in [m as u64, (m >> 64) as u64] {
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= h >> 29;
        }
    }
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

pub(super) struct Search<'a> {
    pub(super) store: &'a mut Store,
    pub(super) region: &'a Region,
    pub(super) pos: &'a Position,
    pub(super) opts: &'a SearchOptions,
    /// Values found, and the components being expanded (meeting one again
    /// is a repetition).
    tt: FxHashMap<Key, Entry>,
    /// The same for regions whose keys pack into one or two words.
    tt_small: SmallTable,
    tt_packed: FxHashMap<Packed, Entry>,
    /// Canonical forms by option lists (see [`Search::canonical`]): the
    /// length of the Left list, then both lists' game indices.
    canon_memo: FxHashMap<Box<[u32]>, GameId>,
    /// The key of `canon_memo` being looked up.
    canon_key: Vec<u32>,
    /// The Left and Right options of the positions being expanded on the
    /// search's current line, each position's after its parent's (see
    /// [`Search::eval`]).
    options: [Vec<GameId>; 2],
    /// The stops of the games met as options, indexed by [`GameId::index`]
    /// (see [`Search::reduce`]).
    stops: Vec<StopsSlot>,
    /// The integers `−SMALL_INT ..= SMALL_INT`, once interned (a store
    /// lookup hashes a number).
    ints: Vec<Option<GameId>>,
    /// The moves of the positions being expanded on the search's current
    /// line, each position's after its parent's (see [`Search::eval`]).
    moves: Vec<SearchMove>,
    /// The depth of the current line of play (for statistics).
    depth: usize,
    /// The components of the masks split so far ([`Search::split`]), each
    /// mask's together, lowest bit first.
    pub(super) split: Vec<u128>,
    /// Where each mask's components are in `split`: a position's points
    /// that are empty or capturable depend only on its immortal stones, of
    /// which a region has few arrangements, so most splits are looked up
    /// instead of flooded.
    split_of: FxHashMap<u128, (u32, u32)>,
    /// The last entry of `split_of` asked for: nearly every position of a
    /// large area has the same immortal stones as the one before.
    split_last: (u128, (u32, u32)),
    /// The territory rule's memo of won positions (`go::territory`).
    won: FxHashMap<(u128, u128, u128), bool>,
    pub(super) stats: SearchStats,
    /// On a helper thread ([`Search::with_helper`]): the moves
    /// of each position are followed last first.
    reverse: bool,
    /// On a helper thread: every move of a position (and every component
    /// of a split) is followed even after one reached a cycle, so that the
    /// table comes to hold the status of every position the region
    /// reaches: the questions of the calling thread's ko graph walk
    /// (`Search::board_graph`), answered ahead of it.
    exhaustive: bool,
    /// On both threads of [`Search::with_helper`]: finished
    /// entries, sent to the other thread's search.
    outbox: Option<Outbox>,
    /// On both threads: the other thread's entries, to be taken in.
    inbox: Option<Inbox>,
    /// Positions of the region met on the line before the position
    /// searched, with who created each ([`evaluate_go_with_history`]):
    /// read by step 3 of `go::kos` under a superko rule, else empty.
    pub(super) history: Vec<(Board, Option<Colour>)>,
    /// Who created the position searched, when the situational reading
    /// is told ([`evaluate_go_with_history`]); `None`: the opponent of
    /// whoever moves first.
    pub(super) root_by: Option<Colour>,
}

/// Finished table entries of a helper's search, with their games
/// ([`Search::with_helper`]).
struct Batch {
    /// One-word keys, and the number of the value's game in the export
    /// series (`None`: loopy).
    entries: Vec<(u64, Option<u32>)>,
    games: GameExport,
}

/// The sending side of [`Search::with_helper`], on each thread.
struct Outbox {
    tx: std::sync::mpsc::Sender<Batch>,
    series: ExportSeries,
    /// Entries finished since the last batch.
    log: Vec<(u64, Val)>,
    /// The helper's interrupt flag, set when the other thread no longer
    /// listens: the calling thread has ended, so the helper stops (set by
    /// the calling thread when the helper has ended, it changes nothing).
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Outbox {
    fn new(
        tx: std::sync::mpsc::Sender<Batch>,
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Outbox {
        Outbox {
            tx,
            series: ExportSeries::default(),
            log: Vec::with_capacity(BATCH),
            stop,
        }
    }
}

/// The receiving side of [`Search::with_helper`], on each
/// thread.
struct Inbox {
    rx: std::sync::mpsc::Receiver<Batch>,
    /// This store's ids of the games of the helper's export series.
    ids: Vec<GameId>,
}

/// Entries a helper sends at once, and the nodes between two looks of the
/// calling thread for them (small in tests, so that small regions take
/// many batches).
const BATCH: usize = if cfg!(test) { 16 } else { 1 << 14 };
const LOOK_EVERY: u64 = if cfg!(test) { 16 } else { 4096 };

/// A move of a position being expanded ([`Search::eval`]): the position it
/// leads to, its immortal stones, what it scores and who plays it.
#[derive(Clone)]
struct SearchMove {
    child: Board,
    imm: [u128; 2],
    gain: i64,
    colour: Colour,
}

/// The integers `−SMALL_INT ..= SMALL_INT` are cached by the search.
const SMALL_INT: i64 = 64;

/// The stops of a game (see [`Search::reduce`]), scaled by `2^STOP_SCALE`.
#[derive(Copy, Clone, Debug)]
enum StopsSlot {
    /// Not computed yet.
    Unknown,
    /// Left stop and right stop, times `2^STOP_SCALE`.
    Known(i64, i64),
    /// A stop too large or too fine for the scaled form: no shortcut.
    Unusable,
}

const STOP_SCALE: u32 = 32;

/// `d · 2^STOP_SCALE` when it fits in an `i64` (exact: `d` is dyadic).
fn scaled(d: &Dyadic) -> Option<i64> {
    let num = d.small_numerator()?;
    let exp = d.exponent();
    if exp > STOP_SCALE {
        return None;
    }
    i64::try_from(i128::from(num) << (STOP_SCALE - exp)).ok()
}

impl<'a> Search<'a> {
    pub(super) fn new(
        store: &'a mut Store,
        region: &'a Region,
        pos: &'a Position,
        opts: &'a SearchOptions,
    ) -> Search<'a> {
        Search {
            store,
            region,
            pos,
            opts,
            tt: FxHashMap::default(),
            tt_small: SmallTable::new(),
            tt_packed: FxHashMap::default(),
            canon_memo: FxHashMap::default(),
            canon_key: Vec::new(),
            options: [Vec::new(), Vec::new()],
            moves: Vec::new(),
            stops: Vec::new(),
            ints: Vec::new(),
            depth: 0,
            split: Vec::new(),
            split_of: FxHashMap::default(),
            split_last: (0, (0, 0)),
            won: FxHashMap::default(),
            stats: SearchStats::default(),
            reverse: false,
            exhaustive: false,
            outbox: None,
            inbox: None,
            history: Vec::new(),
            root_by: None,
        }
    }

    /// Takes over the tables of an earlier search of the same region
    /// ([`SearchMemo`]).
    fn take_memo(&mut self, m: SearchMemo) {
        self.tt = m.tt;
        self.tt_small = m.tt_small;
        self.tt_packed = m.tt_packed;
        self.canon_memo = m.canon_memo;
        self.stops = m.stops;
        self.ints = m.ints;
        self.split = m.split;
        self.split_of = m.split_of;
        self.split_last = (0, (0, 0));
        self.won = m.won;
    }

    /// This search's tables, for the next search of the region.
    fn into_memo(
        self,
        layout: (Vec<usize>, [u128; 2], usize),
        options: (Rules, bool, bool, KoRule, bool, bool),
    ) -> SearchMemo {
        SearchMemo {
            layout,
            options,
            tt: self.tt,
            tt_small: self.tt_small,
            tt_packed: self.tt_packed,
            canon_memo: self.canon_memo,
            stops: self.stops,
            ints: self.ints,
            split: self.split,
            split_of: self.split_of,
            won: self.won,
        }
    }

    /// The game of the integer `n`.
    #[inline]
    pub(super) fn integer(&mut self, n: i64) -> GameId {
        if n.abs() > SMALL_INT {
            return self.store.integer(n);
        }
        if self.ints.is_empty() {
            self.ints = vec![None; 2 * SMALL_INT as usize + 1];
        }
        let i = (n + SMALL_INT) as usize;
        match self.ints[i] {
            Some(g) => g,
            None => {
                let g = self.store.integer(n);
                self.ints[i] = Some(g);
                g
            }
        }
    }

    /// `g + h`, with no call into the store when either is 0 (the first
    /// component of a sum, the moves that score nothing).
    #[inline(always)]
    fn add(&mut self, g: GameId, h: GameId) -> Result<GameId, GoError> {
        let zero = self.store.zero();
        if g == zero {
            return Ok(h);
        }
        if h == zero {
            return Ok(g);
        }
        Ok(self.store.add(g, h)?)
    }

    /// The stops of `g`, scaled, when they fit (cached by game).
    fn stops(&mut self, g: GameId) -> Result<Option<(i64, i64)>, GoError> {
        let i = g.index();
        if i >= self.stops.len() {
            let len = self.store.len().max(i + 1);
            self.stops.resize(len, StopsSlot::Unknown);
        }
        let slot = match self.stops[i] {
            StopsSlot::Known(l, r) => return Ok(Some((l, r))),
            StopsSlot::Unusable => return Ok(None),
            StopsSlot::Unknown => {
                let l = self.store.left_stop(g)?;
                let r = self.store.right_stop(g)?;
                match (scaled(&l), scaled(&r)) {
                    (Some(l), Some(r)) => StopsSlot::Known(l, r),
                    _ => StopsSlot::Unusable,
                }
            }
        };
        self.stops[i] = slot;
        Ok(match slot {
            StopsSlot::Known(l, r) => Some((l, r)),
            _ => None,
        })
    }

    /// `g ≤ h`, deciding from the stops when they suffice: `g ≤ h` implies
    /// `L(g) ≤ L(h)` and `R(g) ≤ R(h)`, and `L(g) < R(h)` implies `g < h`
    /// (the left stop of `g − h` is at most `L(g) − R(h)`, and a game whose
    /// left stop is negative is negative).
    fn le_by_stops(
        &mut self,
        g: GameId,
        gs: Option<(i64, i64)>,
        h: GameId,
        hs: Option<(i64, i64)>,
    ) -> Result<bool, GoError> {
        if let (Some((gl, gr)), Some((hl, hr))) = (gs, hs) {
            if gl > hl || gr > hr {
                return Ok(false);
            }
            if gl < hr {
                return Ok(true);
            }
        }
        Ok(self.store.le(g, h)?)
    }

    /// Removes the dominated options of one side (Left: `left`), keeping one
    /// option of each maximal (Left) or minimal (Right) value. The canonical
    /// form would remove them too, but with a comparison in the store for
    /// every pair of options; the stops decide most pairs of Go options at
    /// once. Removing dominated options never changes the value, so the
    /// canonical form is the same.
    fn reduce(&mut self, opts: &mut Vec<GameId>, left: bool) -> Result<(), GoError> {
        opts.sort_unstable();
        opts.dedup();
        if opts.len() < 2 {
            return Ok(());
        }
        let mut all = Vec::with_capacity(opts.len());
        for &g in opts.iter() {
            all.push((g, self.stops(g)?));
        }
        // The best stops first (Left: highest, Right: lowest): an option is
        // then met after those that dominate it, and cannot dominate an
        // earlier one unless their stops are equal.
        all.sort_by_key(|&(g, s)| match (s, left) {
            (Some((l, r)), true) => (0, -i128::from(l), -i128::from(r), g),
            (Some((l, r)), false) => (0, i128::from(r), i128::from(l), g),
            (None, _) => (1, 0, 0, g),
        });
        let mut kept: Vec<(GameId, Option<(i64, i64)>)> = Vec::with_capacity(opts.len());
        for &(g, gs) in &all {
            // `a` is dominated by `b`: `a ≤ b` for Left, `a ≥ b` for Right.
            let mut dominated = false;
            for &(k, ks) in &kept {
                let d = if left {
                    self.le_by_stops(g, gs, k, ks)?
                } else {
                    self.le_by_stops(k, ks, g, gs)?
                };
                if d {
                    dominated = true;
                    break;
                }
            }
            if dominated {
                continue;
            }
            let mut i = 0;
            while i < kept.len() {
                let (k, ks) = kept[i];
                let d = if left {
                    self.le_by_stops(k, ks, g, gs)?
                } else {
                    self.le_by_stops(g, gs, k, ks)?
                };
                if d {
                    kept.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            kept.push((g, gs));
        }
        opts.clear();
        opts.extend(kept.iter().map(|&(g, _)| g));
        Ok(())
    }

    /// The table key of the component `comp` of `b`: its points and the
    /// stones on them and around them, the least of its mirror images when
    /// the symmetry is on.
    fn key(&self, comp: u128, b: &Board) -> TtKey {
        let region = self.region;
        let ext = comp | (region.nbrs_of(comp) & region.all);
        let span = region.span;
        if region.part <= 21 {
            // One word, `comp` highest (a region's table holds keys of one
            // kind only, so the packing need only be fixed).
            let part = region.part;
            let (black, white) = (b.stones[0] & ext, b.stones[1] & ext);
            let packed = (white | black << part | comp << (2 * part)) as u64;
            let key = if self.opts.symmetry {
                region.least_packed(packed)
            } else {
                packed
            };
            return TtKey::Small(key);
        }
        let mut key = (comp, b.stones[0] & ext, b.stones[1] & ext);
        if self.opts.symmetry {
            // The least of the key's images names the class of positions
            // that are mirror images of each other.
            let (comp, black, white) = key;
            for i in 0..region.syms.len() {
                // Tuples compare by their first mask first: an image whose
                // first mask is larger is not the least.
                let first = region.image_of(i, comp);
                if first > key.0 {
                    continue;
                }
                let image = (first, region.image_of(i, black), region.image_of(i, white));
                if image < key {
                    key = image;
                }
            }
        }
        let (comp, black, white) = key;
        if span <= 42 {
            TtKey::Packed(comp | black << span | white << (2 * span))
        } else {
            TtKey::Full(Key { comp, black, white })
        }
    }

    /// Asks the memory for the table slot of the component `comp` of `b`
    /// (one-word keys only), ahead of its lookup.
    #[inline(always)]
    pub(super) fn prefetch(&self, comp: u128, b: &Board) {
        if let TtKey::Small(k) = self.key(comp, b) {
            self.tt_small.prefetch(k);
        }
    }

    /// The entry of `key`, or `None` after recording it as being expanded.
    fn probe(&mut self, key: &TtKey) -> Option<Entry> {
        use std::collections::hash_map::Entry as E;
        match key {
            TtKey::Small(k) => self.tt_small.probe(*k),
            TtKey::Packed(k) => match self.tt_packed.entry(packed(*k)) {
                E::Occupied(o) => Some(*o.get()),
                E::Vacant(v) => {
                    v.insert(Entry::Expanding);
                    None
                }
            },
            TtKey::Full(k) => match self.tt.entry(k.clone()) {
                E::Occupied(o) => Some(*o.get()),
                E::Vacant(v) => {
                    v.insert(Entry::Expanding);
                    None
                }
            },
        }
    }

    fn record(&mut self, key: &TtKey, e: Entry) {
        match key {
            TtKey::Small(k) => self.tt_small.record(*k, e),
            TtKey::Packed(k) => {
                self.tt_packed.insert(packed(*k), e);
            }
            TtKey::Full(k) => {
                self.tt.insert(k.clone(), e);
            }
        }
    }

    /// [`Search::eval_parts`] for a mask known to be one component of
    /// `b`'s empty and capturable points: its value, or `None` when loopy.
    fn eval_one(
        &mut self,
        comp: u128,
        b: &Board,
        imm: [u128; 2],
    ) -> Result<Option<GameId>, GoError> {
        if self.opts.prune_settled {
            if let Some(s) = self.settled_score(comp, b)? {
                self.stats.settled += 1;
                return Ok(Some(s));
            }
        }
        Ok(match self.eval(comp, b, imm)? {
            Val::Short(v) => Some(v),
            Val::Loopy => None,
        })
    }

    /// The canonical form of `{left | right}` (options canonical), where
    /// `left` and `right` are the options in `self.options` from `start`
    /// on (removed before returning), through a memo keyed by the two
    /// option lists: positions with the same option values are common
    /// (about three in four in the open 2 × 6 area). The key is made in a
    /// buffer and the lists copied out only when the memo lacks them.
    fn canonical(&mut self, start: [usize; 2]) -> Result<GameId, GoError> {
        for (side, &from) in start.iter().enumerate() {
            let opts = &mut self.options[side];
            opts[from..].sort_unstable();
            let mut kept = from;
            for i in from..opts.len() {
                if kept == from || opts[i] != opts[kept - 1] {
                    opts[kept] = opts[i];
                    kept += 1;
                }
            }
            opts.truncate(kept);
        }
        let [left, right] = [&self.options[0][start[0]..], &self.options[1][start[1]..]];
        self.canon_key.clear();
        self.canon_key.push(left.len() as u32);
        self.canon_key
            .extend(left.iter().chain(right).map(|g| g.index() as u32));
        let value = match self.canon_memo.get(self.canon_key.as_slice()) {
            Some(&v) => v,
            None => {
                let key: Box<[u32]> = self.canon_key.as_slice().into();
                let (mut left, mut right) = (left.to_vec(), right.to_vec());
                #[cfg(debug_assertions)]
                let unreduced = (left.clone(), right.clone());
                self.reduce(&mut left, true)?;
                self.reduce(&mut right, false)?;
                let value = self.store.canonical(left, right)?;
                #[cfg(debug_assertions)]
                {
                    let (left, right) = unreduced;
                    debug_assert_eq!(value, self.store.canonical(left, right)?);
                }
                self.canon_memo.insert(key, value);
                value
            }
        };
        self.options[0].truncate(start[0]);
        self.options[1].truncate(start[1]);
        Ok(value)
    }

    /// Counts one expanded position against the node budget and polls the
    /// interrupt flag.
    pub(super) fn count_node(&mut self) -> Result<(), GoError> {
        if self.inbox.is_some() && self.stats.nodes % LOOK_EVERY == 0 {
            self.take_batches()?;
        }
        self.stats.nodes += 1;
        self.within_budget(1)?;
        self.store.tick()?;
        if crate::limits::CHECKS {
            self.check_growth()?;
        }
        Ok(())
    }

    /// [`GoError::NodeBudget`] once the positions expanded and those the
    /// territory rule examined pass the budget. The count given is the work
    /// done: all of them but the `undone` last (a node counted but not
    /// expanded; a territory check cannot stop midway, so its positions
    /// were all examined).
    #[inline]
    fn within_budget(&self, undone: u64) -> Result<(), GoError> {
        let used = self.stats.nodes + self.stats.territory_states;
        if used > self.opts.node_budget {
            return Err(GoError::NodeBudget {
                nodes: used - undone,
                budget: self.opts.node_budget,
            });
        }
        Ok(())
    }

    /// Fails when one of the search's tables is about to grow (a node adds
    /// an entry or a few) and its new array would not fit under the memory
    /// limit: a table doubles in one allocation between two steps, so a
    /// check of the memory in use alone would let it overshoot the limit by
    /// the new array (BENCHMARKS.md, "Memory limit, session 16").
    #[inline]
    fn check_growth(&self) -> Result<(), GoError> {
        use crate::limits::table_growth;
        let due = [
            self.tt_small.growth(64),
            table_growth("search table", &self.tt_packed),
            table_growth("search table", &self.tt),
            table_growth("canonical-form memo", &self.canon_memo),
        ];
        for g in due.into_iter().flatten() {
            g.check().map_err(|e| GoError::Cg(e.into()))?;
        }
        Ok(())
    }

    /// The value of the points of `within` that are empty or hold capturable
    /// stones: the sum over its ko-free components, and the list of those
    /// that reach a cycle ([`Search::eval_short`] stops at the first).
    pub(super) fn eval_parts(
        &mut self,
        within: u128,
        b: &Board,
        imm: [u128; 2],
    ) -> Result<Parts, GoError> {
        // The steps of `eval_short` (`add_short`, `finish_short`), keeping
        // the loopy components instead of stopping at the first.
        let mut sum = ShortSum {
            total: self.store.zero(),
            unsettled: 0,
        };
        let mut loopy = Vec::new();
        for i in self.split(within, imm) {
            let comp = self.split[i];
            if !self.add_short(comp, b, imm, &mut sum)? {
                loopy.push(comp);
            }
        }
        let (total, unsettled) = (sum.total, sum.unsettled);
        let short = match self.finish_short(b, imm, sum)? {
            Some(v) => v,
            None => {
                loopy.push(unsettled);
                total
            }
        };
        Ok(Parts { short, loopy })
    }

    /// [`Search::eval_parts`] stopping at the first loopy component: the
    /// value of the points of `within`, or `None` when one of their
    /// components reaches a cycle. The same steps in the same order (so the
    /// same statistics), without building the list of loopy components.
    pub(super) fn eval_short(
        &mut self,
        within: u128,
        b: &Board,
        imm: [u128; 2],
    ) -> Result<Option<GameId>, GoError> {
        let split = self.split(within, imm);
        self.eval_short_split(split, b, imm)
    }

    /// [`Search::eval_short`] with the split already made: `self.split[at]`
    /// are the components of the points of `within` that are empty or hold
    /// capturable stones ([`Search::split`]). The split depends only on
    /// `within` and the immortal stones, so a position and every position
    /// a move leads to without a new immortal stone share it (see
    /// `Search::explore`).
    pub(super) fn eval_short_split(
        &mut self,
        at: std::ops::Range<usize>,
        b: &Board,
        imm: [u128; 2],
    ) -> Result<Option<GameId>, GoError> {
        let mut sum = ShortSum {
            total: self.store.zero(),
            unsettled: 0,
        };
        let mut loopy = false;
        for i in at {
            let comp = self.split[i];
            if !self.add_short(comp, b, imm, &mut sum)? {
                // (An exhaustive search goes on, for the entries.)
                if !self.exhaustive {
                    return Ok(None);
                }
                loopy = true;
            }
        }
        match loopy {
            true => Ok(None),
            false => self.finish_short(b, imm, sum),
        }
    }

    /// The components of the points of `within` that are not immortal
    /// stones (`imm`): where they are in `self.split`, lowest bit first.
    pub(super) fn split(&mut self, within: u128, imm: [u128; 2]) -> std::ops::Range<usize> {
        let region = self.region;
        let nonimmortal = region.all & !(imm[0] | imm[1]) & within;
        // (The first `split_last`, mask 0, has no components: right too.)
        let known = match self.split_last {
            (mask, at) if mask == nonimmortal => Some(at),
            _ => self.split_of.get(&nonimmortal).copied(),
        };
        let (start, len) = match known {
            Some(at) => at,
            None => {
                let start = self.split.len();
                let mut rest = nonimmortal;
                while rest != 0 {
                    let comp = region.flood(rest & rest.wrapping_neg(), nonimmortal);
                    rest &= !comp;
                    self.split.push(comp);
                }
                let at = (start as u32, (self.split.len() - start) as u32);
                self.split_of.insert(nonimmortal, at);
                at
            }
        };
        self.split_last = (nonimmortal, (start, len));
        start as usize..(start + len) as usize
    }

    /// One component of [`Search::eval_short`] and [`Search::eval_parts`]:
    /// adds its value (or, without splitting, its points) to `sum`; `false`
    /// when it reaches a cycle.
    #[inline(always)]
    fn add_short(
        &mut self,
        comp: u128,
        b: &Board,
        imm: [u128; 2],
        sum: &mut ShortSum,
    ) -> Result<bool, GoError> {
        if self.opts.prune_settled {
            if let Some(s) = self.settled_score(comp, b)? {
                self.stats.settled += 1;
                sum.total = self.add(sum.total, s)?;
                return Ok(true);
            }
        }
        if self.opts.split_components {
            match self.eval(comp, b, imm)? {
                Val::Short(v) => sum.total = self.add(sum.total, v)?,
                Val::Loopy => return Ok(false),
            }
        } else {
            sum.unsettled |= comp;
        }
        Ok(true)
    }

    /// The end of [`Search::eval_short`]: the unsplit union, if any.
    #[inline(always)]
    fn finish_short(
        &mut self,
        b: &Board,
        imm: [u128; 2],
        sum: ShortSum,
    ) -> Result<Option<GameId>, GoError> {
        let mut total = sum.total;
        if sum.unsettled != 0 {
            match self.eval(sum.unsettled, b, imm)? {
                Val::Short(v) => total = self.store.add(total, v)?,
                Val::Loopy => return Ok(None),
            }
        }
        Ok(Some(total))
    }

    /// The score of a component if it is settled (module docs), or, with
    /// [`SearchOptions::territories`], a won territory (`go::territory`):
    /// its points, plus (Japanese) the opponent's stones in it less the
    /// owner's mortal stones in it (none in a component settled under
    /// Japanese rules; under area scoring only the points count, the
    /// owner's stones among them).
    fn settled_score(&mut self, comp: u128, b: &Board) -> Result<Option<GameId>, GoError> {
        let colour = match self.region.settled_under(comp, b, self.opts.rules) {
            Some(c) => c,
            None if self.opts.territories
                && self.opts.rules == Rules::Japanese
                && self.opts.ko_rule == KoRule::Basic =>
            {
                // The check fills its memo with up to TERRITORY_STATES
                // entries and no step between them: a doubling of the memo
                // (old and new arrays held at once) must fit before it
                // starts, or it overshoots the memory limit by half as
                // much again (BENCHMARKS.md, "Memory limit, session 16").
                if crate::limits::CHECKS {
                    let most = super::territory::TERRITORY_STATES;
                    if let Some(g) =
                        crate::limits::table_growth_by("territory memo", &self.won, most)
                    {
                        g.check().map_err(|e| GoError::Cg(e.into()))?;
                    }
                }
                let (owner, examined) =
                    super::territory::territory(self.region, comp, b, &mut self.won);
                self.stats.territory_states += examined as u64;
                self.within_budget(0)?;
                let Some(c) = owner else {
                    return Ok(None);
                };
                self.stats.territories += 1;
                c
            }
            None => return Ok(None),
        };
        let size = i64::from(comp.count_ones());
        let dead = i64::from((comp & b.stones[1 - colour.index()]).count_ones());
        let own = i64::from((comp & b.stones[colour.index()]).count_ones());
        let score = match self.opts.rules {
            Rules::Japanese => size + dead - own,
            Rules::Chinese => size,
        };
        Ok(Some(self.integer(colour.sign() * score)))
    }

    /// The points a player may play on in the points `within` of `b`: empty
    /// points outside the settled components. `self.split[at]` are the
    /// components of `within` ([`Search::split`] with `b`'s immortal
    /// stones).
    pub(super) fn playable(&self, within: u128, b: &Board, at: std::ops::Range<usize>) -> u128 {
        let region = self.region;
        let empty = within & region.all & !(b.stones[0] | b.stones[1]);
        if !self.opts.prune_settled {
            return empty;
        }
        let mut out = empty;
        for &comp in &self.split[at] {
            if region.settled_under(comp, b, self.opts.rules).is_some() {
                out &= !comp;
            }
        }
        out
    }

    /// What a move of `colour` on point `p` of `b` scores at once: captured
    /// stones (Japanese) or the points of `within` that become immortal
    /// (area), with the new board and its immortal stones; `None` for
    /// suicide. `imm` is the immortal stones of `b`.
    ///
    /// The immortal stones change only through the new stone's chain: it is
    /// immortal when it touches a framing stone (an immortal chain it joins
    /// does), and captures never take an immortal chain. So under area
    /// rules the points that become immortal are those of the new chain
    /// that were not, when the chain touches a framing stone of its colour.
    #[inline(always)]
    pub(super) fn step(
        &self,
        within: u128,
        b: &Board,
        imm: [u128; 2],
        colour: Colour,
        p: usize,
    ) -> Option<(Board, [u128; 2], i64)> {
        let region = self.region;
        let me = colour.index();
        if let Some(stride) = region.grid.filter(|_| region.narrow) {
            let out = region.apply_narrow(b, imm, me, p, stride as u32);
            let out = out.map(|(child, captured, new_immortal)| {
                let new_immortal = u128::from(new_immortal);
                let mut child_imm = imm;
                child_imm[me] |= new_immortal;
                (
                    child,
                    child_imm,
                    self.gain(colour, captured, new_immortal & within),
                )
            });
            #[cfg(debug_assertions)]
            debug_assert_eq!(out, self.step_wide(within, b, imm, colour, p));
            return out;
        }
        self.step_wide(within, b, imm, colour, p)
    }

    /// What a move scores at once: `captured` stones (Japanese) or the
    /// points `new_immortal` that become immortal (area).
    #[inline(always)]
    fn gain(&self, colour: Colour, captured: u32, new_immortal: u128) -> i64 {
        match self.opts.rules {
            Rules::Japanese => colour.sign() * i64::from(captured),
            Rules::Chinese if new_immortal == 0 => 0,
            Rules::Chinese => colour.sign() * i64::from(few_bits(new_immortal)),
        }
    }

    /// [`Search::step`] on any layout, through [`Region::apply`].
    #[inline(never)]
    fn step_wide(
        &self,
        within: u128,
        b: &Board,
        imm: [u128; 2],
        colour: Colour,
        p: usize,
    ) -> Option<(Board, [u128; 2], i64)> {
        let region = self.region;
        let me = colour.index();
        let (child, captured, own) = region.apply(b, me, p)?;
        let mut child_imm = imm;
        let mut new_immortal = 0;
        if own & region.seed[me] != 0 {
            child_imm[me] |= own;
            new_immortal = own & !imm[me] & within;
        }
        debug_assert_eq!(child_imm, region.immortal(&child));
        let gain = self.gain(colour, captured, new_immortal);
        Some((child, child_imm, gain))
    }

    /// `work` on two threads (`opts.threads` ≥ 2): a helper, in a store
    /// and a table of its own, searches the points `within` of `b` (the
    /// region) following each position's moves last first, so that it
    /// finishes first what this thread's search, following them first
    /// first, reaches last. Each thread sends the other the entries it
    /// finishes, every 2¹⁴ of them (one-word keys, their games exported),
    /// and takes the other's into its table every 4 096 nodes
    /// ([`Search::take_batches`]), then finds them there: the two searches
    /// meet in the middle of the move order instead of the helper searching
    /// the whole region alone (with entries sent one way only, the helper
    /// expanded as many positions as this search, and this search three
    /// fifths of those it expands alone: BENCHMARKS.md, "Big regions,
    /// session 10"). The helper's search is exhaustive
    /// ([`Search::exhaustive`]: a loopy position's other moves are followed
    /// too), so that when the region reaches a cycle it goes on through
    /// this thread's ko graph walk, valuing ahead of the walk the positions
    /// the walk asks this search about (BENCHMARKS.md, "Big regions,
    /// session 13"); a region with no cycle is searched as before (no
    /// position of it is loopy). The helper stops when `work` ends, when the
    /// last walk ends ([`Search::stop_helper`]), or at its own end.
    ///
    /// Exact: a finished entry is a fact about its position alone, so it
    /// may come from any search of the region. `Done(Short(v))`: no line
    /// from the position repeats one, and `v` is its value; `Done(Loopy)`:
    /// some line does (a search marks a position loopy only when it meets
    /// a position on its own current line, which the position can reach
    /// and which can reach it, or a position already marked loopy, which
    /// it reaches; an exhaustive search too, after following the other
    /// moves). An entry a search already has (finished, or being
    /// expanded on its current line) is kept, and an entry taken in is not
    /// sent back. The statistics are this thread's: the positions the
    /// helper expanded are not counted, nor charged to the node budget
    /// (the helper has its own).
    pub(super) fn with_helper<T>(
        &mut self,
        within: u128,
        b: &Board,
        imm: [u128; 2],
        work: impl FnOnce(&mut Self) -> Result<T, GoError>,
    ) -> Result<T, GoError> {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        if self.region.part > 21 {
            return work(self);
        }
        let stop = Arc::new(AtomicBool::new(false));
        // To this thread, and to the helper.
        let (tx, rx) = std::sync::mpsc::channel();
        let (tx_helper, rx_helper) = std::sync::mpsc::channel();
        let (region, pos, opts) = (self.region, self.pos, self.opts);
        const STACK: usize = 256 << 20;
        std::thread::scope(|scope| {
            let helper_stop = stop.clone();
            let helper = std::thread::Builder::new()
                .name("yose-search".into())
                .stack_size(STACK)
                .spawn_scoped(scope, move || {
                    crate::limits::enter_thread(STACK);
                    let mut store = Store::new();
                    store.set_interrupt_flag(helper_stop.clone());
                    let mut search = Search::new(&mut store, region, pos, opts);
                    search.reverse = true;
                    search.exhaustive = true;
                    search.outbox = Some(Outbox::new(tx, helper_stop));
                    search.inbox = Some(Inbox {
                        rx: rx_helper,
                        ids: Vec::new(),
                    });
                    if search.eval_parts(within, b, imm).is_ok() {
                        search.send_batch();
                    }
                });
            if helper.is_ok() {
                self.inbox = Some(Inbox {
                    rx,
                    ids: Vec::new(),
                });
                self.outbox = Some(Outbox::new(tx_helper, stop.clone()));
            }
            let out = work(self);
            // The helper stops at its next step; its batches are dropped.
            stop.store(true, Ordering::Relaxed);
            self.inbox = None;
            self.outbox = None;
            out
        })
    }

    /// Stops the helper of [`Search::with_helper`], if any (its batches
    /// are dropped): once the last ko graph walk has ended, no question is
    /// left for it to answer ahead, and step 2 may want the core.
    pub(super) fn stop_helper(&mut self) {
        if let Some(out) = self.outbox.take() {
            out.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.inbox = None;
    }

    /// Takes in the batches the other thread has sent
    /// ([`Search::with_helper`]).
    #[cold]
    fn take_batches(&mut self) -> Result<(), GoError> {
        let Some(mut inbox) = self.inbox.take() else {
            return Ok(());
        };
        while let Ok(batch) = inbox.rx.try_recv() {
            // A batch is taken in with no step between its entries.
            if crate::limits::CHECKS {
                if let Some(g) = self.tt_small.growth(batch.entries.len()) {
                    g.check().map_err(|e| GoError::Cg(e.into()))?;
                }
            }
            self.store.import_more(&batch.games, &mut inbox.ids)?;
            // The slots are read at random: each is asked for a few
            // entries ahead, so that the misses overlap.
            const AHEAD: usize = 8;
            for &(k, _) in batch.entries.iter().take(AHEAD) {
                self.tt_small.prefetch(k);
            }
            for (j, &(k, v)) in batch.entries.iter().enumerate() {
                if let Some(&(ahead, _)) = batch.entries.get(j + AHEAD) {
                    self.tt_small.prefetch(ahead);
                }
                let v = match v {
                    Some(i) => Val::Short(inbox.ids[i as usize]),
                    None => Val::Loopy,
                };
                self.tt_small.adopt(k, Entry::Done(v));
            }
        }
        self.inbox = Some(inbox);
        Ok(())
    }

    /// Sends the entries this search finished since its last batch
    /// ([`Search::with_helper`]); when the other thread no
    /// longer listens, sets the helper's stop flag and sends no more.
    #[cold]
    fn send_batch(&mut self) {
        let Some(out) = &mut self.outbox else {
            return;
        };
        let mut exporter = GameExporter::resume(self.store, &mut out.series);
        let entries = out
            .log
            .drain(..)
            .map(|(k, v)| match v {
                Val::Short(g) => (k, Some(exporter.add(g))),
                Val::Loopy => (k, None),
            })
            .collect();
        let games = exporter.finish_series(&mut out.series);
        if out.tx.send(Batch { entries, games }).is_err() {
            out.stop.store(true, std::sync::atomic::Ordering::Relaxed);
            self.outbox = None;
        }
    }

    /// Records the finished entry `e` of `key`, and with a helper logs it
    /// for the other thread.
    #[inline(always)]
    fn finish(&mut self, key: &TtKey, v: Val) {
        self.record(key, Entry::Done(v));
        if let (Some(out), TtKey::Small(k)) = (&mut self.outbox, key) {
            out.log.push((*k, v));
            if out.log.len() >= BATCH {
                self.send_batch();
            }
        }
    }

    /// The value of the component (or union of components) `comp`: a short
    /// game, or [`Val::Loopy`] when a line of play from it repeats a
    /// position. A position met again while it is being expanded is on a
    /// cycle; a position from which such a position (or one already known to
    /// be loopy) can be reached is loopy; every other position's subtree is
    /// finite and free of repetitions, so its value is an exact short game.
    ///
    /// `b_imm` is the immortal stones of `b` (as `step` gives them with the
    /// position, or as the caller found them), not recomputed here.
    pub(super) fn eval(&mut self, comp: u128, b: &Board, b_imm: [u128; 2]) -> Result<Val, GoError> {
        let region = self.region;
        let key = self.key(comp, b);
        self.stats.tt_lookups += 1;
        match self.probe(&key) {
            Some(Entry::Done(v)) => {
                self.stats.tt_hits += 1;
                return Ok(v);
            }
            Some(Entry::Expanding) => return Ok(Val::Loopy),
            None => {}
        }
        self.count_node()?;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        let empty = comp & !(b.stones[0] | b.stones[1]);
        debug_assert_eq!(b_imm, region.immortal(b));
        // This position's options go after those of the positions above it
        // on the line; a child's evaluation that returns leaves the lists as
        // it found them (an error abandons the whole search, lists and all).
        let start = [self.options[0].len(), self.options[1].len()];
        // Every move first, with a prefetch of the table slot of the
        // position it leads to, so that the lookups (mostly cache misses
        // on large regions) overlap; then the moves in order. The moves
        // are kept in one buffer for the line, as the options are.
        let first = self.moves.len();
        for p in bits(empty) {
            for colour in [Colour::Black, Colour::White] {
                let Some((child, imm, gain)) = self.step(comp, b, b_imm, colour, p) else {
                    continue;
                };
                if imm == b_imm {
                    self.prefetch(comp, &child);
                }
                self.moves.push(SearchMove {
                    child,
                    imm,
                    gain,
                    colour,
                });
            }
        }
        let n = self.moves.len() - first;
        // A move has reached a cycle: the value is loopy. The search stops
        // there; an exhaustive one follows the other moves too, for their
        // positions' entries.
        let mut loopy = false;
        for j in 0..n {
            // A helper follows the moves last first.
            let k = match self.reverse {
                true => first + n - 1 - j,
                false => first + j,
            };
            let SearchMove {
                child,
                imm,
                gain,
                colour,
            } = self.moves[k].clone();
            self.depth += 1;
            // With no new immortal stone the points of `comp` that are
            // empty or capturable are still all of `comp`, one component.
            // (Not split, `comp` is the union of the components not settled
            // when it was made, and a move may settle one of them: split
            // again, so that each is scored as settled when it is, as it is
            // when split.)
            let rest = if imm == b_imm && self.opts.split_components {
                self.eval_one(comp, &child, imm)
            } else {
                self.eval_short(comp, &child, imm)
            };
            self.depth -= 1;
            match rest? {
                Some(rest) if !loopy => {
                    let v = if gain == 0 {
                        rest
                    } else {
                        let g = self.integer(gain);
                        self.store.add(g, rest)?
                    };
                    self.options[colour.index()].push(v);
                }
                Some(_) => {}
                None => {
                    loopy = true;
                    if !self.exhaustive {
                        break;
                    }
                }
            }
        }
        if loopy {
            self.options[0].truncate(start[0]);
            self.options[1].truncate(start[1]);
            self.moves.truncate(first);
            self.finish(&key, Val::Loopy);
            return Ok(Val::Loopy);
        }
        self.moves.truncate(first);
        let value = self.canonical(start)?;
        self.finish(&key, Val::Short(value));
        Ok(Val::Short(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values a search met: every short value in its table.
    fn values_of(store: &mut Store, text: &str, rules: Rules) -> Vec<GameId> {
        let pos = Position::parse(text).expect("test diagrams parse");
        let region = Region::new(&pos).expect("small region");
        let opts = SearchOptions::with_rules(rules);
        let mut search = Search::new(store, &region, &pos, &opts);
        let root = region.root.clone();
        let imm = region.immortal(&root);
        search
            .eval_parts(region.all, &root, imm)
            .expect("ko-free test regions");
        let mut out: Vec<GameId> = search
            .tt_small
            .values()
            .filter_map(|e| match e {
                Entry::Done(Val::Short(v)) => Some(v),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn each_symmetry_sends_every_point_where_its_doc_says() {
        // On the open 3 × 3 square framed the same on every side (the
        // middle of each side White, the rest Black), all seven symmetries
        // are the region's; each sends row r, column c to the point its
        // doc names, by mask (`image`), by byte table (`image_of`) and,
        // for a one-word key, by exchanges of bits (`least_packed` keeps
        // the least image, checked against the masks in debug builds).
        let pos = Position::parse("XXOXX\nX...X\nO...O\nX...X\nXXOXX").unwrap();
        let region = Region::new(&pos).unwrap();
        assert_eq!(region.syms, Sym::ALL);
        let n = 3;
        let at = |r: usize, c: usize| {
            let p = (0..pos.cells.len())
                .find(|&p| pos.coords(p) == (r + 1, c + 1))
                .unwrap();
            1u128 << region.points.iter().position(|&q| q == p).unwrap()
        };
        for (i, &sym) in region.syms.iter().enumerate() {
            for r in 0..n {
                for c in 0..n {
                    let (rr, cc) = match sym {
                        Sym::Vertical => (n - 1 - r, c),
                        Sym::Horizontal => (r, n - 1 - c),
                        Sym::HalfTurn => (n - 1 - r, n - 1 - c),
                        Sym::Transpose => (c, r),
                        Sym::AntiTranspose => (n - 1 - c, n - 1 - r),
                        Sym::QuarterTurn => (n - 1 - c, r),
                        Sym::QuarterTurnBack => (c, n - 1 - r),
                    };
                    assert_eq!(region.image(sym, at(r, c)), at(rr, cc), "{sym:?}");
                    assert_eq!(region.image_of(i, at(r, c)), at(rr, cc), "{sym:?}");
                }
            }
        }
        assert!(region.part <= 21);
        let (mut x, ones) = (0x9e37_79b9_7f4a_7c15u64, (1u64 << region.part) - 1);
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let part = |j: u32| (x >> (20 * j)) as u128 & region.all & u128::from(ones);
            let k = (0..3).fold(0u64, |acc, j| acc | (part(j) as u64) << (j * region.part));
            region.least_packed(k);
        }
    }

    #[test]
    fn the_one_word_table_agrees_with_a_map() {
        // `SmallTable` (open addressing, growing by doubling) against a
        // hash map: random probes and records of keys drawn from a few
        // thousand, enough to make it grow several times from its first
        // 1 024 slots, and the records made after a grow.
        let mut table = SmallTable::new();
        let mut model: std::collections::HashMap<u64, Entry> = Default::default();
        let mut x: u64 = 0x0123_4567_89ab_cdef;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let entry = |n: u64| match n % 3 {
            0 => Entry::Expanding,
            1 => Entry::Done(Val::Loopy),
            _ => Entry::Done(Val::Short(GameId((n >> 8) as u32))),
        };
        let same = |a: Entry, b: Entry| SmallTable::encode(a) == SmallTable::encode(b);
        for _ in 0..40_000 {
            // Keys spread like packed positions: never 0, often sharing
            // their high bits.
            let k = 1 + (next() % 6_000) * 0x1_0001;
            match next() % 2 {
                0 => {
                    let found = table.probe(k);
                    match model.get(&k) {
                        Some(&e) => assert!(same(found.expect("a key met before"), e)),
                        None => {
                            assert!(found.is_none());
                            model.insert(k, Entry::Expanding);
                        }
                    }
                }
                _ => {
                    if model.contains_key(&k) {
                        let e = entry(next());
                        table.record(k, e);
                        model.insert(k, e);
                    }
                }
            }
        }
        assert!(table.len == model.len() && table.slots.len() >= 8192);
        let mut values: Vec<u64> = table.values().map(SmallTable::encode).collect();
        let mut expected: Vec<u64> = model.values().map(|&e| SmallTable::encode(e)).collect();
        values.sort_unstable();
        expected.sort_unstable();
        assert_eq!(values, expected);
    }

    #[test]
    fn a_helper_thread_never_changes_a_value() {
        // `with_helper` (and the ko graph built on two threads,
        // `Search::graph_builder`, which in the test build takes every
        // graph of two nodes or more) against the one-thread search: the
        // same value, part for part (games by id in one store, ko graphs
        // array for array, potentials, lines), unchilled and chilled, on
        // open areas, crowded ones, two kos side by side, the open 3 × 3
        // area (a ko graph of a few thousand nodes), both rules; the calling
        // thread never expands more positions than the search alone.
        let diagrams = HANDOVER_AREAS;
        let mut store = Store::new();
        // Values with kos met (the last two diagrams, both rules, both
        // views), so that the graphs built on two threads are compared.
        let mut kos = 0;
        for rules in [Rules::Japanese, Rules::Chinese] {
            for text in diagrams {
                let pos = Position::parse(text).unwrap();
                let one = SearchOptions::with_rules(rules);
                let two = SearchOptions {
                    threads: 2,
                    ..one.clone()
                };
                for chill in [false, true] {
                    let (v1, s1) = search_value(&mut store, &pos, &one, chill).unwrap();
                    let (v2, s2) = search_value(&mut store, &pos, &two, chill).unwrap();
                    assert_eq!(v1, v2, "{text}, chilled: {chill}");
                    let show = |v: &GoValue, store: &mut Store| {
                        v.format(store, crate::render::Style::default()).unwrap()
                    };
                    assert_eq!(show(&v1, &mut store), show(&v2, &mut store), "{text}");
                    kos += usize::from(matches!(v1, GoValue::Ko { .. }));
                    assert!(s2.nodes <= s1.nodes, "{text}: {} > {}", s2.nodes, s1.nodes);
                }
            }
        }
        assert_eq!(kos, 8);
    }

    /// Open, crowded and loopy areas (the open 3 × 3 one a ko graph of a
    /// few thousand nodes) for the tests of a search's two threads.
    const HANDOVER_AREAS: [&str; 6] = [
        "XXXXXX\nX....O\nX....O\nXXXXXX",
        "XXXXXXX\nX.o.x.O\nX.....O\nXXXXXXX",
        "XXXXXXX\nXx.ox.O\nXo.x.oO\nXXXXXXX",
        "XXXXX\nX...X\nXX.XX\nXX.XX\nXXOXX",
        "XXOOXX\nXo..xO\nXXOOXX",
        "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
    ];

    #[test]
    fn entries_taken_from_another_search_never_change_a_value() {
        // The hand-over of `with_helper` (`send_batch`,
        // `take_batches`) in sequence, so that what is taken in does not
        // depend on timing: one search runs to its end in its own store,
        // sending every entry it finishes; the entries of every other batch
        // are taken in, at its first node, by a search of the other move order
        // in a second store, which must find the value of the search alone
        // in that store, part for part, while expanding fewer positions.
        // Both directions, both rules, open, crowded and loopy areas.
        let diagrams = HANDOVER_AREAS;
        let mut adopted = 0;
        for rules in [Rules::Japanese, Rules::Chinese] {
            let opts = SearchOptions::with_rules(rules);
            for text in diagrams {
                let pos = Position::parse(text).unwrap();
                let region = Region::new(&pos).unwrap();
                let (root, imm) = (&region.root, region.immortal(&region.root));
                for sender_reversed in [false, true] {
                    let mut sender_store = Store::new();
                    let (tx, rx) = std::sync::mpsc::channel();
                    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                    let mut sender = Search::new(&mut sender_store, &region, &pos, &opts);
                    sender.reverse = sender_reversed;
                    sender.outbox = Some(Outbox::new(tx, stop));
                    sender.eval_parts(region.all, root, imm).unwrap();
                    sender.send_batch();
                    drop(sender);
                    let (tx, taken) = std::sync::mpsc::channel();
                    // (The games of every batch, for those of the later
                    // batches refer to them.)
                    for (i, mut batch) in rx.try_iter().enumerate() {
                        if i % 2 == 1 {
                            batch.entries.clear();
                        }
                        tx.send(batch).unwrap();
                    }
                    let mut store = Store::new();
                    let mut alone = Search::new(&mut store, &region, &pos, &opts);
                    let plain = alone.eval_parts(region.all, root, imm).unwrap();
                    let plain_nodes = alone.stats.nodes;
                    let mut taker = Search::new(&mut store, &region, &pos, &opts);
                    taker.reverse = !sender_reversed;
                    taker.inbox = Some(Inbox {
                        rx: taken,
                        ids: Vec::new(),
                    });
                    let parts = taker.eval_parts(region.all, root, imm).unwrap();
                    assert_eq!(parts.short, plain.short, "{text}");
                    assert_eq!(parts.loopy, plain.loopy, "{text}");
                    assert!(taker.stats.nodes <= plain_nodes, "{text}");
                    adopted += usize::from(taker.stats.nodes < plain_nodes);
                }
            }
        }
        // The open areas and the crowded ones take entries in.
        assert!(adopted >= 12, "{adopted}");
    }

    #[test]
    fn an_exhaustive_helpers_entries_never_change_a_ko_graph() {
        // The helper of `with_helper` searches exhaustively and goes on
        // through the calling thread's ko graph walk; here in sequence, so
        // that what is taken in does not depend on timing. A search (last
        // move first, as the helper) runs to its end in its own store,
        // sending every entry it finishes; a search in a second store takes
        // them all in at its first node and values the region, walk
        // included: it must give the value of the search alone in that
        // store (ko graphs array for array, potentials, lines), unchilled
        // and chilled, both rules. On the loopy areas the walk must find
        // what only an exhaustive sender finishes (the positions past a
        // loopy position's first loopy move): it expands fewer positions
        // than with the entries of a search that stops there.
        let mut kos = 0;
        for rules in [Rules::Japanese, Rules::Chinese] {
            let opts = SearchOptions::with_rules(rules);
            for text in HANDOVER_AREAS {
                let pos = Position::parse(text).unwrap();
                let region = Region::new(&pos).unwrap();
                let (root, imm) = (&region.root, region.immortal(&region.root));
                for chill in [false, true] {
                    let mut store = Store::new();
                    let mut alone = Search::new(&mut store, &region, &pos, &opts);
                    let plain = alone.region_value(chill).unwrap();
                    let plain_nodes = alone.stats.nodes;
                    let mut nodes = [0; 2];
                    for (exhaustive, nodes) in [false, true].into_iter().zip(&mut nodes) {
                        let mut sender_store = Store::new();
                        let (tx, rx) = std::sync::mpsc::channel();
                        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                        let mut sender = Search::new(&mut sender_store, &region, &pos, &opts);
                        sender.reverse = true;
                        sender.exhaustive = exhaustive;
                        sender.outbox = Some(Outbox::new(tx, stop));
                        sender.eval_parts(region.all, root, imm).unwrap();
                        sender.send_batch();
                        drop(sender);
                        let mut taker = Search::new(&mut store, &region, &pos, &opts);
                        taker.inbox = Some(Inbox {
                            rx,
                            ids: Vec::new(),
                        });
                        let value = taker.region_value(chill).unwrap();
                        assert_eq!(value, plain, "{text}, exhaustive: {exhaustive}");
                        assert!(taker.stats.nodes <= plain_nodes, "{text}");
                        *nodes = taker.stats.nodes;
                    }
                    if matches!(plain, GoValue::Ko { .. }) {
                        kos += 1;
                        assert!(nodes[1] < nodes[0], "{text}: {nodes:?}");
                    }
                }
            }
        }
        assert_eq!(kos, 8);
    }

    #[test]
    fn stops_decide_order_as_the_store_does() {
        // `le_by_stops` answers from the stops where it can and asks the
        // store otherwise; on every pair of values met in these regions it
        // must agree with the store's own comparison, and `reduce` must keep
        // exactly the options the canonical form keeps.
        let diagrams = [
            "XXXXXX\nX....O\nX....O\nXXXXXX",
            "XXXXXXXX\nX......O\nXXXXXXXX",
            "XXXXXXX\nX.o.x.O\nX.....O\nXXXXXXX",
            "XXXXX\nX...X\nXX.XX\nXX.XX\nXXOXX",
            "XXOOXX\nXo..xO\nXXOOXX",
            "XXXXX\nX...O\nX...O\nX...O\nXXXXX",
        ];
        let mut store = Store::new();
        let (mut decided, mut pairs) = (0, 0);
        for rules in [Rules::Japanese, Rules::Chinese] {
            for text in diagrams {
                let values = values_of(&mut store, text, rules);
                let pos = Position::parse(text).unwrap();
                let region = Region::new(&pos).unwrap();
                let opts = SearchOptions::with_rules(rules);
                let mut search = Search::new(&mut store, &region, &pos, &opts);
                for (i, &g) in values.iter().enumerate().take(60) {
                    for &h in values.iter().skip(i).take(60) {
                        let (gs, hs) = (search.stops(g).unwrap(), search.stops(h).unwrap());
                        if let (Some((gl, gr)), Some((hl, hr))) = (gs, hs) {
                            if gl > hl || gr > hr || gl < hr {
                                decided += 1;
                            }
                        }
                        pairs += 1;
                        let fast = search.le_by_stops(g, gs, h, hs).unwrap();
                        assert_eq!(fast, search.store.le(g, h).unwrap(), "{g:?} ≤ {h:?}");
                        let fast = search.le_by_stops(h, hs, g, gs).unwrap();
                        assert_eq!(fast, search.store.le(h, g).unwrap(), "{h:?} ≤ {g:?}");
                    }
                }
                let some: Vec<GameId> = values.iter().copied().take(12).collect();
                for left in [true, false] {
                    let mut reduced = some.clone();
                    search.reduce(&mut reduced, left).unwrap();
                    let (l, r) = if left {
                        (reduced, vec![])
                    } else {
                        (vec![], reduced)
                    };
                    let (l0, r0) = if left {
                        (some.clone(), vec![])
                    } else {
                        (vec![], some.clone())
                    };
                    let reduced_value = search.store.canonical(l, r).unwrap();
                    let value = search.store.canonical(l0, r0).unwrap();
                    assert_eq!(reduced_value, value);
                }
            }
        }
        // The test is not vacuous: the stops decided some pairs and left
        // some to the store.
        assert!(decided > 0 && decided < pairs, "{decided} of {pairs}");
    }
}
