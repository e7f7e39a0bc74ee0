//! Tests of the whole-board analysis, with the whole-board oracle of the
//! module docs ("The oracle"): the local game of the whole board computed
//! by plain recursion over whole boards, no decomposition.

use super::*;
use crate::go::{evaluate_go, KoRule};
use rustc_hash::FxHashSet;

fn opts(scoring: Rules) -> AnalysisOptions {
    AnalysisOptions {
        rules: RuleSet {
            scoring,
            ko_rule: KoRule::Basic,
            nopass: None,
        },
        ..AnalysisOptions::default()
    }
}

fn analyse_diagram(store: &mut Store, d: &str, scoring: Rules) -> Analysis {
    let pos = Position::parse(d).unwrap();
    analyse(store, &pos, &diagram_marks(&pos), &opts(scoring)).unwrap()
}

// ----------------------------------------------------------------- oracle

#[derive(Debug)]
enum OracleError {
    /// A line of play repeats a whole-board position.
    Repetition,
    /// Over the node budget.
    Budget,
}

/// A board as two bit sets (Black's stones, White's stones): the oracles'
/// boards (the random boards have at most 64 points).
type BoardKey = (u64, u64);

fn board_key(pos: &Position) -> BoardKey {
    assert!(
        pos.cells.len() <= 64,
        "the oracle keys boards of up to 64 points"
    );
    let mut key = (0u64, 0u64);
    for (p, c) in pos.cells.iter().enumerate() {
        match c {
            Cell::Stone(Colour::Black) => key.0 |= 1 << p,
            Cell::Stone(Colour::White) => key.1 |= 1 << p,
            Cell::Empty => {}
        }
    }
    key
}

/// The points of a bit set, in increasing order.
fn points(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            p
        })
    })
}

/// The shape of the oracle's board: each point's neighbours as a bit set,
/// and the framing stones. The oracle plays on bit sets with its own capture
/// rule (below), not through [`Position::play_move`], so that it shares no
/// move code with the analysis it checks, and because it meets hundreds of
/// thousands of boards.
struct Geometry {
    all: u64,
    neighbours: Vec<u64>,
    frame: u64,
    /// The board's width, and the points off its first and its last column:
    /// a set's neighbours by shifts ([`Geometry::around`]).
    width: usize,
    not_first_column: u64,
    not_last_column: u64,
}

impl Geometry {
    fn of(pos: &Position) -> Geometry {
        let n = pos.cells.len();
        assert!(n <= 64, "the oracle's bit sets hold 64 points");
        let width = pos.width;
        let column = |c: usize| {
            (0..n)
                .filter(|p| p % width == c)
                .fold(0u64, |m, p| m | 1 << p)
        };
        let all = u64::MAX >> (64 - n);
        let g = Geometry {
            all,
            neighbours: (0..n)
                .map(|p| pos.neighbours(p).fold(0, |m, q| m | 1 << q))
                .collect(),
            frame: (0..n).filter(|&p| pos.frame[p]).fold(0, |m, p| m | 1 << p),
            width,
            not_first_column: all & !column(0),
            not_last_column: all & !column(width - 1),
        };
        // The shifts are the board's own neighbours, point by point.
        for p in 0..n {
            assert_eq!(g.around(1 << p), g.neighbours[p], "point {p}");
        }
        g
    }

    /// The points next to some point of `set`: a shift per direction (the
    /// oracle floods every chain of hundreds of thousands of boards).
    fn around(&self, set: u64) -> u64 {
        ((set & self.not_last_column) << 1
            | (set & self.not_first_column) >> 1
            | set.checked_shl(self.width as u32).unwrap_or(0)
            | set.checked_shr(self.width as u32).unwrap_or(0))
            & self.all
    }

    /// The points of `within` connected to `from` through `within`.
    fn flood(&self, within: u64, from: u64) -> u64 {
        let mut set = from & within;
        let mut frontier = set;
        loop {
            let grown = self.around(frontier) & within & !set;
            if grown == 0 {
                return set;
            }
            set |= grown;
            frontier = grown;
        }
    }

    /// `colour` plays on the empty point `p` of `board`: the board after it
    /// and the number of stones it captured, or `None` for a suicide. As
    /// the analysis's rules: a chain that holds a framing stone is never
    /// captured and never counts as a suicide; no ko ban (the oracle finds
    /// repetitions itself).
    fn play(&self, board: BoardKey, colour: Colour, p: usize) -> Option<(BoardKey, u32)> {
        let (own, opp) = match colour {
            Colour::Black => board,
            Colour::White => (board.1, board.0),
        };
        let own = own | 1 << p;
        let mut captured = 0u64;
        for q in points(self.neighbours[p] & opp & !captured) {
            if captured & (1 << q) != 0 {
                continue;
            }
            let chain = self.flood(opp, 1 << q);
            if chain & self.frame == 0 && self.around(chain) & !(own | opp) == 0 {
                captured |= chain;
            }
        }
        let opp = opp & !captured;
        let chain = self.flood(own, 1 << p);
        if chain & self.frame == 0 && self.around(chain) & !(own | opp) == 0 {
            return None;
        }
        let next = match colour {
            Colour::Black => (own, opp),
            Colour::White => (opp, own),
        };
        Some((next, captured.count_ones()))
    }

    /// The stones whose chain holds a framing stone.
    fn immortals(&self, board: BoardKey) -> u64 {
        self.flood(board.0, board.0 & self.frame) | self.flood(board.1, board.1 & self.frame)
    }

    /// Immortal stones on non-framing points, Black's minus White's.
    fn immortal_count(&self, board: BoardKey) -> i64 {
        let imm = self.immortals(board) & !self.frame;
        i64::from((imm & board.0).count_ones()) - i64::from((imm & board.1).count_ones())
    }
}

/// The whole-board local game (module docs, "The oracle"), written again on
/// plain boards: no components, no settled-area pruning by components of
/// the search, no symmetry, no transposition by component.
struct Oracle<'s> {
    store: &'s mut Store,
    rules: Rules,
    geometry: Geometry,
    memo: FxHashMap<BoardKey, GameId>,
    on_line: FxHashSet<BoardKey>,
    nodes: u64,
    budget: u64,
    /// Whole-board positional superko instead of refusing repetitions: a
    /// move may not recreate a board of the current line (the board
    /// searched included); the memo is then keyed by the board and the
    /// line's set of boards.
    superko: bool,
    memo_superko: FxHashMap<LineKey, GameId>,
    /// The boards of the current line, sorted, and the sum of their
    /// [`line_hash`]es.
    line: Vec<BoardKey>,
    line_hash: u64,
}

/// A board and the set of boards on the line before it (sorted), hashed by
/// the board and the sum of the line's boards' [`line_hash`]es, which the
/// oracle keeps as the line grows: hashing a key, at each lookup and again
/// each time the memo grows, costs the same however long the line. (Keys
/// hashed whole made the memo's insertions a third of the superko test.)
#[derive(PartialEq, Eq)]
struct LineKey {
    here: BoardKey,
    line_hash: u64,
    seen: Vec<BoardKey>,
}

impl std::hash::Hash for LineKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // Equal keys have equal sets of boards, so equal sums.
        self.here.hash(h);
        self.line_hash.hash(h);
    }
}

/// A board's share of a line's hash (SplitMix64's finaliser of its two
/// colours' sets).
fn line_hash(board: BoardKey) -> u64 {
    let mut z = board.0 ^ board.1.rotate_left(29) ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<'s> Oracle<'s> {
    /// An oracle for boards of the shape of `board` (its size and framing
    /// stones).
    fn new(store: &'s mut Store, board: &Position, rules: Rules, budget: u64) -> Oracle<'s> {
        Oracle {
            store,
            rules,
            geometry: Geometry::of(board),
            memo: FxHashMap::default(),
            on_line: FxHashSet::default(),
            nodes: 0,
            budget,
            superko: false,
            memo_superko: FxHashMap::default(),
            line: Vec::new(),
            line_hash: 0,
        }
    }

    /// The value of `pos` from now on (its prisoners, and immortal stones
    /// already on the board, not included); `pos` has the oracle's shape
    /// and no ko ban.
    fn value(&mut self, pos: &Position) -> Result<GameId, OracleError> {
        assert_eq!(pos.ko_ban, None, "the oracle ignores ko bans");
        assert_eq!(
            Geometry::of(pos).frame,
            self.geometry.frame,
            "a board of another shape"
        );
        self.value_of(board_key(pos))
    }

    /// [`Oracle::value_of`] under whole-board positional superko.
    fn value_superko(&mut self, here: BoardKey) -> Result<GameId, OracleError> {
        let key = LineKey {
            here,
            line_hash: self.line_hash,
            seen: self.line.clone(),
        };
        if let Some(&v) = self.memo_superko.get(&key) {
            return Ok(v);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OracleError::Budget);
        }
        let at = self.line.binary_search(&here).unwrap_err();
        self.line.insert(at, here);
        self.line_hash = self.line_hash.wrapping_add(line_hash(here));
        let (mask, settled) = self.settled(here);
        let mut black = self.moves_outside(here, Colour::Black, mask);
        let mut white = self.moves_outside(here, Colour::White, mask);
        black.retain(|(_, _, next)| self.line.binary_search(next).is_err());
        white.retain(|(_, _, next)| self.line.binary_search(next).is_err());
        let s = self.store.integer(settled);
        let mut sides = [Vec::new(), Vec::new()];
        for (i, moves) in [black, white].into_iter().enumerate() {
            for (_, gain, next) in moves {
                let w = match self.value_superko(next) {
                    Ok(w) => w,
                    Err(e) => {
                        self.leave(at, here);
                        return Err(e);
                    }
                };
                let g = self.store.integer(gain - settled);
                sides[i].push(self.store.add(g, w).unwrap());
            }
        }
        self.leave(at, here);
        let [l, r] = sides;
        let v = if l.is_empty() && r.is_empty() {
            s
        } else {
            let u = self.store.canonical(l, r).unwrap();
            self.store.add(s, u).unwrap()
        };
        self.memo_superko.insert(key, v);
        Ok(v)
    }

    /// Takes `here`, at `at`, off the line.
    fn leave(&mut self, at: usize, here: BoardKey) {
        self.line.remove(at);
        self.line_hash = self.line_hash.wrapping_sub(line_hash(here));
    }

    /// The settled points of the board (in a settled component), and the
    /// settled score (Black positive): a component of the points that hold
    /// no immortal stone is settled for a colour when it holds no stone of
    /// that colour, no opponent's immortal stone touches it, and each of its
    /// points touches a stone of that colour; it scores its points, and
    /// under territory scoring also the opponent's (dead) stones in it.
    fn settled(&self, board: BoardKey) -> (u64, i64) {
        let g = &self.geometry;
        let inside = g.all & !g.immortals(board);
        let mut settled = 0u64;
        let mut score = 0i64;
        let mut left = inside;
        while left != 0 {
            let comp = g.flood(inside, left & left.wrapping_neg());
            left &= !comp;
            for colour in [Colour::Black, Colour::White] {
                let (own, opp) = match colour {
                    Colour::Black => board,
                    Colour::White => (board.1, board.0),
                };
                let no_own = comp & own == 0;
                let no_opp_around = g.around(comp) & !inside & opp == 0;
                let all_touch = points(comp).all(|p| g.neighbours[p] & own != 0);
                // Area scoring: also when the opponent has no legal move in
                // it and this colour has.
                let in_comp = |c: Colour| self.moves_outside(board, c, g.all & !comp);
                let opp_stuck = || {
                    self.rules == Rules::Chinese
                        && in_comp(colour.opponent()).is_empty()
                        && !in_comp(colour).is_empty()
                };
                if (no_own && no_opp_around && all_touch) || opp_stuck() {
                    let mut s = i64::from(comp.count_ones());
                    if self.rules == Rules::Japanese {
                        s += i64::from((comp & opp).count_ones());
                    }
                    score += colour.sign() * s;
                    settled |= comp;
                    break;
                }
            }
        }
        (settled, score)
    }

    /// The moves of `colour` with what each scores at once and the board it
    /// leads to.
    fn moves(&self, board: BoardKey, colour: Colour) -> Vec<(usize, i64, BoardKey)> {
        let (settled, _) = self.settled(board);
        self.moves_outside(board, colour, settled)
    }

    /// [`Oracle::moves`] with the settled points already known (the
    /// searches compute them once per board, not once per side and again
    /// for the score).
    fn moves_outside(
        &self,
        board: BoardKey,
        colour: Colour,
        settled: u64,
    ) -> Vec<(usize, i64, BoardKey)> {
        let g = &self.geometry;
        let immortal_before = match self.rules {
            Rules::Japanese => 0,
            Rules::Chinese => g.immortal_count(board),
        };
        let empty = g.all & !(board.0 | board.1);
        points(empty & !settled)
            .filter_map(|p| {
                let (next, captured) = g.play(board, colour, p)?;
                let gain = match self.rules {
                    Rules::Japanese => colour.sign() * i64::from(captured),
                    Rules::Chinese => g.immortal_count(next) - immortal_before,
                };
                Some((p, gain, next))
            })
            .collect()
    }

    /// The value of the board from now on (prisoners already taken and
    /// immortal stones already on the board not included).
    fn value_of(&mut self, here: BoardKey) -> Result<GameId, OracleError> {
        if self.superko {
            return self.value_superko(here);
        }
        if let Some(&v) = self.memo.get(&here) {
            return Ok(v);
        }
        if self.on_line.contains(&here) {
            return Err(OracleError::Repetition);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OracleError::Budget);
        }
        // The settled areas are a number added to the rest (module docs,
        // "The oracle"): each option is taken relative to them.
        let (mask, settled) = self.settled(here);
        let black = self.moves_outside(here, Colour::Black, mask);
        let white = self.moves_outside(here, Colour::White, mask);
        let s = self.store.integer(settled);
        let v = if black.is_empty() && white.is_empty() {
            s
        } else {
            self.on_line.insert(here);
            let mut sides = [Vec::new(), Vec::new()];
            for (i, moves) in [black, white].into_iter().enumerate() {
                for (_, gain, next) in moves {
                    let w = match self.value_of(next) {
                        Ok(w) => w,
                        Err(e) => {
                            self.on_line.remove(&here);
                            return Err(e);
                        }
                    };
                    let g = self.store.integer(gain - settled);
                    sides[i].push(self.store.add(g, w).unwrap());
                }
            }
            self.on_line.remove(&here);
            let [l, r] = sides;
            let u = self.store.canonical(l, r).unwrap();
            self.store.add(s, u).unwrap()
        };
        self.memo.insert(here, v);
        Ok(v)
    }
}

// ------------------------------------------------------- random boards

/// A board from rows of `X O x o .` (separated by spaces), without the
/// diagram parser's checks (the generator repairs what they would refuse).
fn from_text(w: usize, h: usize, text: &str) -> Position {
    let mut cells = Vec::new();
    let mut frame = Vec::new();
    for ch in text.chars().filter(|c| !c.is_whitespace()) {
        let (cell, f) = match ch {
            'X' => (Cell::Stone(Colour::Black), true),
            'O' => (Cell::Stone(Colour::White), true),
            'x' => (Cell::Stone(Colour::Black), false),
            'o' => (Cell::Stone(Colour::White), false),
            _ => (Cell::Empty, false),
        };
        cells.push(cell);
        frame.push(f);
    }
    Position {
        width: w,
        height: h,
        cells,
        frame,
        labels: vec![None; w * h],
        prisoners: [0, 0],
        ko_ban: None,
        origin: None,
    }
}

/// SplitMix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random late-endgame board of 5×5 to 7×7: safe (framing) stones in
/// random places cutting the board into regions, at most 14 empty points,
/// and capturable stones (each chain with a liberty).
fn random_board(rng: &mut Rng) -> Position {
    let w = 5 + rng.below(3) as usize;
    let h = 5 + rng.below(3) as usize;
    let max_empty = 4 + rng.below(11) as usize;
    let mut text = String::new();
    for _ in 0..h {
        for _ in 0..w {
            let r = rng.below(100);
            let black = rng.below(2) == 0;
            text.push(match r {
                0..=44 => {
                    if black {
                        'X'
                    } else {
                        'O'
                    }
                }
                45..=79 => '.',
                _ => {
                    if black {
                        'x'
                    } else {
                        'o'
                    }
                }
            });
            text.push(' ');
        }
        text.push('\n');
    }
    let mut pos = from_text(w, h, &text);
    let n = pos.cells.len();
    // At most `max_empty` empty points: fill the others with safe stones.
    let mut empties: Vec<usize> = (0..n).filter(|&p| pos.cells[p] == Cell::Empty).collect();
    while empties.len() > max_empty {
        let i = rng.below(empties.len() as u64) as usize;
        let p = empties.swap_remove(i);
        let colour = if rng.below(2) == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        pos.cells[p] = Cell::Stone(colour);
        pos.frame[p] = true;
    }
    if empties.is_empty() {
        let p = rng.below(n as u64) as usize;
        pos.cells[p] = Cell::Empty;
        pos.frame[p] = false;
    }
    // Capturable chains need a liberty: a chain without one becomes safe.
    for p in 0..n {
        if pos.cells[p] != Cell::Empty && !pos.frame[p] {
            let chain = pos.chain(p);
            if !chain.iter().any(|&q| pos.frame[q]) && pos.liberties(&chain).is_empty() {
                chain.iter().for_each(|&q| pos.frame[q] = true);
            }
        }
    }
    pos
}

/// The stops of a game, as rationals.
fn stops(store: &mut Store, g: GameId) -> (BigRational, BigRational) {
    (
        store.left_stop(g).unwrap().to_rational(),
        store.right_stop(g).unwrap().to_rational(),
    )
}

#[derive(Default)]
struct Compared {
    boards: usize,
    /// Boards with kos compared through the ko solver, and those skipped
    /// (a search or a komaster analysis over its budget).
    ko_compared: usize,
    ko_skipped: usize,
    /// Ko boards where the two disagree (area scoring only, open).
    ko_disagree: usize,
    with_ko: usize,
    over_budget: usize,
    moves_checked: usize,
    /// Boards compared with a region of at least `MEMO_POINTS` points (its
    /// positions after moves valued with the tables of the searches
    /// before: `Play::memos`).
    large: usize,
    /// Boards analysed on one thread and on two, the answers compared.
    threads_compared: usize,
}

/// The search of a whole board as one component (no decomposition), as
/// the ko oracles value it: one graph whose nodes are whole boards.
fn whole_board_search(scoring: Rules) -> SearchOptions {
    SearchOptions {
        rules: scoring,
        split_components: false,
        node_budget: 20_000,
        ..SearchOptions::default()
    }
}

/// A board whose whole-board game repeats a position: the analysis' stops
/// (the ko solver on the regions' graphs) against the ko solver on the whole
/// board searched as one component (`split_components: false`: one graph
/// whose nodes are whole boards, no decomposition). The states of the two
/// games correspond one to one (a whole-board state is the tuple of the
/// regions' states), and so do the basic ko ban (undoing the opponent's
/// last move) and the no-repetition rule; the two-pass count could differ
/// (the komaster mean of the product graph against the sum of the regions'
/// means), which optimal play did not reach on these boards.
fn compare_ko(
    store: &mut Store,
    board: &Position,
    whole: &Position,
    first: &Analysis,
    o: &AnalysisOptions,
    tally: &mut Compared,
) {
    let diagram = board.diagram(crate::go::Style::Ascii);
    // The ko solver's two-pass counts need komaster thermographs of the
    // graphs, unbounded by its node budget: keep the graphs small.
    let graph_nodes = |v: &GoValue| match v {
        GoValue::Ko { kos, .. } => kos.iter().map(|k| k.graph.len()).sum::<usize>(),
        GoValue::Short(_) => 0,
    };
    // (`first` is the caller's analysis of the board without stops: its
    // region values are the ones to size.)
    let region_nodes: usize = first
        .regions
        .iter()
        .map(|r| {
            r.outcome
                .as_ref()
                .map_or(usize::MAX / 2, |v| graph_nodes(&v.value))
        })
        .sum();
    if region_nodes > 60 {
        tally.ko_skipped += 1;
        return;
    }
    // The whole board first: it is the cheaper search, and most boards
    // are left out here (over its budget, or a graph too large to count),
    // before the analysis with stops, which costs most.
    let opts = whole_board_search(o.rules.scoring);
    let Ok(e) = evaluate_go(store, whole, &opts) else {
        tally.ko_skipped += 1;
        return;
    };
    if graph_nodes(&e.value) > 60 {
        tally.ko_skipped += 1;
        return;
    }
    let Ok(a) = analyse(
        store,
        board,
        &diagram_marks(board),
        &AnalysisOptions {
            lines: false,
            play_budget: 200_000,
            ..o.clone()
        },
    ) else {
        tally.ko_skipped += 1;
        return;
    };
    let (Some(ls), Some(rs)) = (a.left_stop.clone(), a.right_stop.clone()) else {
        tally.ko_skipped += 1;
        return;
    };
    let mut comps = e.value.components(store);
    comps.push(Component::Short(store.integer(a.constant)));
    let mut stops = Vec::new();
    for first in [Side::Left, Side::Right] {
        match crate::ko::solve::solve(store, &comps, first, &KoSolveOptions::with_budget(200_000)) {
            Ok(sol) => stops.push(sol.score - &o.komi),
            Err(_) => {
                tally.ko_skipped += 1;
                return;
            }
        }
    }
    tally.ko_compared += 1;
    if (ls.clone(), rs.clone()) != (stops[0].clone(), stops[1].clone()) {
        // Open: see `ko_boards_under_area_scoring_can_disagree`.
        assert_eq!(
            o.rules.scoring,
            Rules::Chinese,
            "kos: the regions give {ls} / {rs}, the whole board {} / {}\n{diagram}",
            stops[0],
            stops[1]
        );
        tally.ko_disagree += 1;
    }
}

/// Compares the analysis with the oracle on one board; `None` when the
/// oracle could not decide it (repetition or budget).
/// The points of `colour`'s moves, among the whole board's `(player,
/// point, value after it)`, after which the stop (`c` added, the
/// opponent to move) is `stop`: the optimal first moves by the oracle.
fn moves_keeping_stop(
    store: &mut Store,
    moves: impl Iterator<Item = (Colour, usize, GameId)>,
    colour: Colour,
    c: GameId,
    stop: &BigRational,
) -> Vec<usize> {
    let mut expected = Vec::new();
    for (c2, p, v) in moves {
        if c2 != colour {
            continue;
        }
        let after = store.add(v, c).unwrap();
        let s = match colour {
            Colour::Black => store.right_stop(after).unwrap(),
            Colour::White => store.left_stop(after).unwrap(),
        };
        if s.to_rational() == *stop {
            expected.push(p);
        }
    }
    expected
}

/// `budget`: the region search's and the oracle's (positions).
fn compare(board: &Position, scoring: Rules, komi: i64, budget: u64, tally: &mut Compared) {
    let mut store = Store::new();
    let mut o = opts(scoring);
    o.komi = BigRational::from_integer(komi.into());
    o.region_budget = budget;
    let t0 = std::time::Instant::now();
    let diagram = board.diagram(crate::go::Style::Ascii);
    // The oracle first: boards with kos are left to the ko comparison.
    let marks = diagram_marks(board);
    let a = analyse(
        &mut store,
        board,
        &marks,
        &AnalysisOptions {
            stops: false,
            ..o.clone()
        },
    );
    let first = match a {
        Ok(a) if a.regions.iter().any(|r| r.outcome.is_err()) => {
            tally.over_budget += 1;
            return;
        }
        Ok(a) => a,
        Err(e) => panic!("{e}\n{diagram}"),
    };
    let mut whole = first.board.clone();
    let t1 = t0.elapsed();
    whole.prisoners = [0, 0];
    let mut oracle = Oracle::new(&mut store, &whole, scoring, budget);
    let w = match oracle.value(&whole) {
        Ok(w) => w,
        Err(OracleError::Repetition) => {
            tally.with_ko += 1;
            drop(oracle);
            if tally.ko_compared < 30 {
                compare_ko(&mut store, board, &whole, &first, &o, tally);
            }
            return;
        }
        Err(OracleError::Budget) => {
            tally.over_budget += 1;
            return;
        }
    };
    // The score outside the whole-board game, counted again from the board
    // (not taken from the analysis): no prisoners and no dead stones on
    // these boards (Japanese); under area scoring the framing (safe) stones
    // and the immortal stones already on the board.
    let base = match scoring {
        Rules::Japanese => 0,
        Rules::Chinese => {
            let framing: i64 = (0..whole.cells.len())
                .filter(|&p| whole.frame[p])
                .map(|p| match whole.cells[p] {
                    Cell::Stone(c) => c.sign(),
                    Cell::Empty => 0,
                })
                .sum();
            framing + Geometry::of(&whole).immortal_count(board_key(&whole))
        }
    };
    // The oracle's root moves, for the optimal-move check (from the same
    // search: the children of the root are already in its table).
    let root_moves: Vec<(Colour, usize, GameId)> = {
        let mut out = Vec::new();
        for colour in [Colour::Black, Colour::White] {
            for (p, gain, next) in oracle.moves(board_key(&whole), colour) {
                let v = oracle.value_of(next).expect("children of a decided board");
                let g = oracle.store.integer(gain);
                out.push((colour, p, oracle.store.add(g, v).unwrap()));
            }
        }
        out
    };
    drop(oracle);
    let t2 = t0.elapsed();
    let a = analyse(&mut store, board, &marks, &o).unwrap();
    let t3 = t0.elapsed();
    if t3.as_millis() > 2000 {
        eprintln!(
            "slow board: regions {t1:?}, oracle {:?}, analysis {:?}\n{diagram}",
            t2 - t1,
            t3 - t2
        );
    }
    assert!(!a.has_ko(), "the oracle found no repetition:\n{diagram}");
    let c = store.integer(base - komi);
    let total = store.add(w, c).unwrap();
    // The values: Σ regions + c equals the whole-board value.
    let mut sum = store.integer(a.constant - komi);
    for r in &a.regions {
        let v = r.outcome.as_ref().unwrap().value.as_short().unwrap();
        sum = store.add(sum, v).unwrap();
    }
    assert_eq!(
        sum,
        total,
        "{scoring:?}: Σ regions + c = {} but the whole board is {}\n{diagram}",
        crate::render::format_game(&mut store, sum, crate::render::Style::Ascii).unwrap(),
        crate::render::format_game(&mut store, total, crate::render::Style::Ascii).unwrap(),
    );
    let (ls, rs) = stops(&mut store, total);
    assert_eq!(
        a.left_stop.as_ref(),
        Some(&ls),
        "{scoring:?} Black first\n{diagram}"
    );
    assert_eq!(
        a.right_stop.as_ref(),
        Some(&rs),
        "{scoring:?} White first\n{diagram}"
    );
    // Optimal first moves: exactly the oracle's moves that keep the stop,
    // unless every region is a number (then none).
    let all_numbers = a.regions.iter().all(|r| {
        let v = r.outcome.as_ref().unwrap().value.as_short().unwrap();
        store.is_number(v)
    });
    let komi_q = BigRational::from_integer(komi.into());
    for (colour, best, stop) in [
        (Colour::Black, &a.best_black, &ls),
        (Colour::White, &a.best_white, &rs),
    ] {
        let mut expected: Vec<usize> = Vec::new();
        if !all_numbers {
            expected = moves_keeping_stop(&mut store, root_moves.iter().copied(), colour, c, stop);
        }
        let mut got: Vec<usize> = best.iter().map(|m| a.board_point(m)).collect();
        got.sort_unstable();
        expected.sort_unstable();
        assert_eq!(
            got, expected,
            "{scoring:?} optimal moves for {colour}\n{diagram}"
        );
        tally.moves_checked += got.len();
    }
    // The lines end at the stops.
    let bl = a.black_first.as_ref().unwrap();
    let wl = a.white_first.as_ref().unwrap();
    assert!(bl.finished && wl.finished);
    assert_eq!(bl.score, ls, "{scoring:?} Black's line\n{diagram}");
    assert_eq!(wl.score, rs, "{scoring:?} White's line\n{diagram}");
    let _ = komi_q;
    tally.boards += 1;
    tally.large += usize::from(a.regions.iter().any(|r| r.points.len() >= MEMO_POINTS));
}

/// The analysis against the whole-board oracle on random boards (module
/// docs, "The oracle"), under one scoring rule: 200 boards compared, both
/// players first. One test per rule, so that the two halves of this, the
/// heaviest test of the suite, can run on the test harness's two threads.
fn the_analysis_equals_whole_board_minimax(scoring: Rules) {
    let started = std::time::Instant::now();
    let mut rng = Rng(0x5eed_0015 + scoring as u64);
    let mut tally = Compared::default();
    let mut tried = 0;
    while tally.boards < 200 && tried < 2000 {
        tried += 1;
        let board = random_board(&mut rng);
        let komi = rng.below(7) as i64 - 3;
        compare(&board, scoring, komi, 20_000, &mut tally);
    }
    eprintln!(
        "{:?} {scoring:?}: {} boards compared ({} optimal moves, {} with a large region), {} with kos ({} compared through the ko solver, {} disagreeing, {} over a budget), {} over the oracle's budget, {tried} tried",
        started.elapsed(), tally.boards, tally.moves_checked, tally.large, tally.with_ko, tally.ko_compared, tally.ko_disagree, tally.ko_skipped, tally.over_budget
    );
    assert!(
        tally.boards >= 200,
        "{scoring:?}: only {} boards",
        tally.boards
    );
    assert!(tally.moves_checked > 0);
    assert!(
        tally.ko_compared >= 10,
        "{scoring:?}: {} kos compared",
        tally.ko_compared
    );
}

/// A board whose one region is a rectangle of 12 to 14 points (at least
/// [`MEMO_POINTS`]), nearly half of them capturable stones so that the
/// whole-board oracle can search it, framed by safe stones.
fn large_region_board(rng: &mut Rng) -> Position {
    let (rh, rw) = [(2, 6), (2, 7), (3, 4), (4, 3)][rng.below(4) as usize];
    let (w, h) = (rw + 2, rh + 2);
    let (r0, c0) = (rng.below(2) as usize, rng.below(2) as usize);
    let inside = |r: usize, c: usize| (r0..r0 + rh).contains(&r) && (c0..c0 + rw).contains(&c);
    // The walls first, then the stones inside, each of a colour no wall
    // next to it has (a stone joined to a safe chain would be safe too,
    // and split the region).
    // Black's walls, perhaps White's at the right end: a Black stone inside
    // then touches a Black wall (it is safe) unless it is deep inside, so
    // few positions repeat and the oracle decides most boards.
    let white_end = rng.below(2) == 0;
    let mut grid = vec![vec!['.'; w]; h];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if !inside(r, c) {
                *cell = if white_end && c == w - 1 { 'O' } else { 'X' };
            }
        }
    }
    for r in 0..h {
        for c in 0..w {
            if !inside(r, c) || rng.below(100) < 55 {
                continue;
            }
            let walls: Vec<char> = [(0, 1), (2, 1), (1, 0), (1, 2)]
                .iter()
                .filter_map(|&(dr, dc)| {
                    let (r2, c2) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
                    grid.get(r2)?.get(c2).copied()
                })
                .filter(|ch| ch.is_ascii_uppercase())
                .collect();
            let allowed: Vec<char> = [('x', 'X'), ('o', 'O')]
                .iter()
                .filter(|(_, wall)| !walls.contains(wall))
                .map(|&(stone, _)| stone)
                .collect();
            if !allowed.is_empty() {
                grid[r][c] = allowed[rng.below(allowed.len() as u64) as usize];
            }
        }
    }
    let text: String = grid
        .iter()
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect();
    let mut pos = from_text(w, h, &text);
    for p in 0..pos.cells.len() {
        if pos.cells[p] != Cell::Empty && !pos.frame[p] {
            let chain = pos.chain(p);
            if pos.liberties(&chain).is_empty() {
                chain.iter().for_each(|&q| pos.frame[q] = true);
            }
        }
    }
    pos
}

#[test]
fn large_regions_equal_whole_board_minimax() {
    // A region of at least `MEMO_POINTS` points is valued in the analysis's
    // store and the positions after its moves with the tables of the
    // searches before (`Play::memos`): the stops, the optimal moves and the
    // lines against the oracle, as for the random boards.
    // The oracle recurses once a move: a stack larger than a test
    // thread's.
    let tally = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut rng = Rng(0x5eed_0018);
            let mut tally = Compared::default();
            for i in 0..60 {
                let board = large_region_board(&mut rng);
                let scoring = if i % 2 == 0 {
                    Rules::Japanese
                } else {
                    Rules::Chinese
                };
                let komi = rng.below(5) as i64 - 2;
                let before = tally.boards;
                compare(&board, scoring, komi, 400_000, &mut tally);
                // On two threads the region's search has a helper, whose
                // values enter the store as they come: the answers must not
                // change (the counts of positions searched may).
                if tally.boards > before {
                    let mut o = opts(scoring);
                    o.komi = BigRational::from_integer(komi.into());
                    o.region_budget = 400_000;
                    let answers = |threads: usize| {
                        let mut store = Store::new();
                        let o = AnalysisOptions {
                            threads,
                            ..o.clone()
                        };
                        let a = analyse(&mut store, &board, &diagram_marks(&board), &o).unwrap();
                        let values: Vec<String> = a
                            .regions
                            .iter()
                            .map(|r| match &r.outcome {
                                Ok(v) => v
                                    .value
                                    .format(&mut store, crate::render::Style::Ascii)
                                    .unwrap(),
                                Err(e) => e.to_string(),
                            })
                            .collect();
                        format!(
                            "{values:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                            a.left_stop,
                            a.right_stop,
                            a.best_black,
                            a.best_white,
                            a.black_first.map(|l| (l.moves, l.score)),
                            a.white_first.map(|l| (l.moves, l.score)),
                        )
                    };
                    let one = answers(1);
                    assert_eq!(
                        one,
                        answers(2),
                        "{}",
                        board.diagram(crate::go::Style::Ascii)
                    );
                    tally.threads_compared += 1;
                }
            }
            tally
        })
        .unwrap()
        .join()
        .unwrap();
    eprintln!(
        "{} boards compared ({} with a large region, {} optimal moves), {} with kos, {} over a budget, {} on one thread and two",
        tally.boards, tally.large, tally.moves_checked, tally.with_ko, tally.over_budget, tally.threads_compared
    );
    assert!(tally.threads_compared >= 15, "{}", tally.threads_compared);
    assert!(
        tally.large >= 15,
        "{} boards with a large region",
        tally.large
    );
}

#[test]
fn the_analysis_equals_whole_board_minimax_on_random_boards_japanese() {
    the_analysis_equals_whole_board_minimax(Rules::Japanese);
}

#[test]
fn the_analysis_equals_whole_board_minimax_on_random_boards_chinese() {
    the_analysis_equals_whole_board_minimax(Rules::Chinese);
}

/// A random small board with a territory of Black's in the top-left
/// corner (two to five points walled by framing stones, perhaps a stone of
/// either colour inside), a strip of points between the two walls, and
/// White's side; colours swapped on odd seeds' boards.
fn territory_board(rng: &mut Rng) -> Position {
    let mut rows = vec![
        vec!['.', '.', 'X', '.', 'O', '.'],
        vec!['.', '.', 'X', '.', 'O', '.'],
        vec!['X', 'X', 'X', '.', 'O', '.'],
    ];
    // The territory: some of its four points walled off or occupied.
    for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        rows[r][c] = match rng.below(10) {
            0 => 'X',
            1 => 'o',
            2 => 'x',
            _ => '.',
        };
    }
    if rng.below(2) == 0 {
        // A fifth point: the corner grows down the edge.
        rows[2][0] = '.';
    }
    // The strip: each point empty or framing.
    for row in rows.iter_mut() {
        row[3] = match rng.below(4) {
            0 => 'X',
            1 => 'O',
            _ => '.',
        };
        if rng.below(3) == 0 {
            row[5] = 'O';
        }
    }
    let swap = rng.below(2) == 1;
    let text: String = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|&c| match (c, swap) {
                    ('X', true) => 'O',
                    ('O', true) => 'X',
                    ('x', true) => 'o',
                    ('o', true) => 'x',
                    (c, _) => c,
                })
                .map(|c| format!("{c} "))
                .collect::<String>()
                + "\n"
        })
        .collect();
    from_text(6, 3, &text)
}

/// The territory rule (module docs of `go::territory`, Theorem A and the
/// note after it) against the whole-board oracle under positional
/// superko: on random boards with a territory the rule values (and that
/// the analysis then treats as a number, not played), the analysis's stops
/// are the oracle's, both players first. Boards where another region
/// holds a ko, or the oracle is over its budget, are left out and counted.
#[test]
fn territories_equal_whole_board_minimax_under_superko() {
    let mut rng = Rng(0x7e77_0015);
    let (mut compared, mut skipped, mut tried) = (0, 0, 0);
    while compared < 24 && tried < 400 {
        tried += 1;
        let board = territory_board(&mut rng);
        let mut store = Store::new();
        let Ok(a) = analyse(
            &mut store,
            &board,
            &diagram_marks(&board),
            &opts(Rules::Japanese),
        ) else {
            continue;
        };
        let values: Vec<&RegionValue> = a
            .regions
            .iter()
            .filter_map(|r| r.outcome.as_ref().ok())
            .collect();
        if values.len() != a.regions.len()
            || !values.iter().any(|v| v.territory)
            || values.iter().any(|v| v.latent || v.has_ko())
        {
            skipped += 1;
            continue;
        }
        let (Some(ls), Some(rs)) = (a.left_stop.clone(), a.right_stop.clone()) else {
            skipped += 1;
            continue;
        };
        // No prisoners and no dead stones on these boards: the oracle's
        // stops are the whole score (komi 0).
        let mut whole = a.board.clone();
        whole.prisoners = [0, 0];
        let mut oracle = Oracle::new(&mut store, &whole, Rules::Japanese, 300_000);
        oracle.superko = true;
        let Ok(w) = oracle.value(&whole) else {
            skipped += 1;
            continue;
        };
        let diagram = board.diagram(crate::go::Style::Ascii);
        let (l, r) = stops(&mut store, w);
        assert_eq!((ls, rs), (l, r), "{diagram}");
        compared += 1;
    }
    eprintln!(
        "territories under superko: {compared} boards compared, {skipped} left out, {tried} tried"
    );
    assert!(compared >= 20, "{compared} compared, {skipped} left out");
}

#[test]
fn a_small_board_has_regions_and_stops() {
    let d = "\
. X . O .
X X X O O
. . x O .
X X X O O
. X . O .";
    let mut store = Store::new();
    let a = analyse_diagram(&mut store, d, Rules::Japanese);
    let report = a.report(&mut store).unwrap();
    println!("{report}");
    assert!(a.left_stop.is_some());
}

/// The board on which a first oracle, which put the settled areas inside
/// the options (`{-2 | }` = 0 where the sum says −3 + `{1 | }` = −1), was
/// wrong: numbers do not translate through `{ | }` when several integers
/// fit between the options. The settled areas are a summand.
#[test]
fn settled_areas_are_a_summand_of_the_whole_board() {
    let d = "\
O . O X X o O
X O . X X o .
O X X O o O O
. . X O X X x
. x O O X o O
X X X o O . O";
    let board = from_text(7, 6, d);
    let mut store = Store::new();
    let a = analyse(
        &mut store,
        &board,
        &diagram_marks(&board),
        &opts(Rules::Japanese),
    )
    .unwrap();
    let q = |n: i64| BigRational::from_integer(n.into());
    assert_eq!(a.left_stop, Some(q(-1)));
    assert_eq!(a.right_stop, Some(q(-3)));
    let names: Vec<String> = a.best_black.iter().map(|m| a.point_name(m)).collect();
    assert_eq!(names, ["A3"]);
    let mut whole = a.board.clone();
    whole.prisoners = [0, 0];
    let mut oracle = Oracle::new(&mut store, &whole, Rules::Japanese, 200_000);
    let w = oracle.value(&whole).unwrap();
    assert_eq!(
        crate::render::format_game(&mut store, w, crate::render::Style::Ascii).unwrap(),
        "{-1*|-3*}"
    );
}

/// Open (found at the end of the session, not resolved): on this board with
/// kos, under area scoring, the ko solver on the regions' graphs gives White
/// first −2 (the ko `{2 | {k0 | −2}}`, the region −1 and the dame ±1: White
/// takes the ko, Black may not retake at once, plays the dame, White fills)
/// while the ko solver on the whole board searched as one graph gives 0.
/// Under Japanese rules the two agree on every ko board compared. Whether
/// the product graph or the sum is at fault is not known yet; the analysis
/// reports the sum's value.
///
/// The test pins the disagreement as it stands (one board compared, one
/// disagreeing), so that it is seen: when the cause is found and mended it
/// fails, and the expected pair becomes `(1, 0)`.
#[test]
fn ko_boards_under_area_scoring_can_disagree() {
    let d = "\
X . x O X O
X X O O O X
. o X x X X
o . X X O X
O o X O O .
o X O O X O";
    let board = from_text(6, 6, d);
    let mut store = Store::new();
    let o = opts(Rules::Chinese);
    let a = analyse(&mut store, &board, &diagram_marks(&board), &o).unwrap();
    let mut whole = a.board.clone();
    whole.prisoners = [0, 0];
    let mut tally = Compared::default();
    compare_ko(&mut store, &board, &whole, &a, &o, &mut tally);
    assert_eq!((tally.ko_compared, tally.ko_disagree), (1, 1));
}

/// The analysis on `threads` threads in a fresh store: everything it says
/// (the record with its region times zeroed, the report) and the store it
/// leaves (games interned, steps charged).
fn analysed_on(
    board: &Position,
    o: &AnalysisOptions,
    threads: usize,
) -> (String, usize, u64, Option<bool>) {
    let mut store = Store::new();
    let r = analyse(
        &mut store,
        board,
        &diagram_marks(board),
        &AnalysisOptions {
            threads,
            ..o.clone()
        },
    );
    let (text, has_stops) = match r {
        Ok(mut a) => {
            a.regions.iter_mut().for_each(|r| r.time = Duration::ZERO);
            let report = a.report(&mut store).map_err(|e| e.to_string());
            let has_stops = a.left_stop.is_some();
            (format!("{a:?}\n{report:?}"), Some(has_stops))
        }
        Err(e) => (format!("error {e:?}"), None),
    };
    (text, store.len(), store.steps(), has_stops)
}

#[test]
fn threads_do_not_change_the_analysis() {
    // Random boards of both kinds (with and without kos, territories,
    // regions over a small budget), both scorings: one thread and two give
    // the same record, report, games under the same ids, and steps. (120
    // boards: 92 with stops, 48 with kos, 28 without stops; 10 minutes of
    // a test build on the loaded machine, so 60.)
    let mut rng = Rng(0x7428_0002);
    let (mut with_stops, mut with_ko, mut over_budget, mut failed) = (0, 0, 0, 0);
    for i in 0..60 {
        let board = if i % 3 == 2 {
            territory_board(&mut rng)
        } else {
            random_board(&mut rng)
        };
        let mut o = opts(if i % 2 == 0 {
            Rules::Japanese
        } else {
            Rules::Chinese
        });
        o.komi = BigRational::from_integer((rng.below(5) as i64 - 2).into());
        o.region_budget = if i % 7 == 0 { 50 } else { 20_000 };
        o.play_budget = 100_000;
        let one = analysed_on(&board, &o, 1);
        let two = analysed_on(&board, &o, 2);
        assert_eq!(one, two, "{}", board.diagram(crate::go::Style::Ascii));
        match one.3 {
            Some(true) => with_stops += 1,
            Some(false) => over_budget += 1,
            None => failed += 1,
        }
        with_ko += usize::from(one.0.contains("Ko {"));
    }
    eprintln!(
        "{with_stops} with stops, {with_ko} with kos, {over_budget} without stops, {failed} failed"
    );
    assert!(
        with_stops >= 30 && with_ko >= 10 && over_budget >= 5,
        "{with_stops} {with_ko} {over_budget}"
    );
}

#[test]
fn an_interrupt_stops_every_thread() {
    // Two open areas that take many steps each: the flag, set before the
    // analysis, stops it on both threads.
    let board = Position::parse(
        "\
X X X X X X X X X
X . . . X . . . X
X . . . O . . . O
O . . . O . . . O
O O O O O O O O O",
    )
    .unwrap();
    let mut store = Store::new();
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    store.set_interrupt_flag(flag);
    let r = analyse(
        &mut store,
        &board,
        &diagram_marks(&board),
        &AnalysisOptions {
            threads: 2,
            ..opts(Rules::Japanese)
        },
    );
    assert_eq!(r.err(), Some(AnalysisError::Interrupted));
}

/// The board of `tests/cases/ok/analyse_ko_ban.cgt` before Black's ko
/// capture at F5: every group lives (Benson); left are the ko E5–F5 (White
/// holds E5, Black may take it at F5), the dame-like E9 (`*`), E2–E1
/// (`0`) and settled points (0 in all, so the board is 0 before the
/// capture, 1 after it with Black's prisoner).
const KO_BAN_BOARD: &str = "\
. x . x . o . o .
x . x x x o o . o
. x x x x o o o .
x x . x x o o . o
. x x x o . o o .
x . x x x o o o o
x x x x x o o . o
. x . x . o o o .
x . x x . o . o .";

/// A game whose last move is a ko capture: White may not retake at E5 at
/// once. With the ban (the game) White first cannot take the ko back: she
/// plays E9 (or E2, E1), Black fills E5, and Black keeps her point: 1.
/// With the ban lifted (the same board as a position) White retakes, Black
/// may not retake, plays E9, and White fills F5: 0, and no first move of
/// White is listed (the retake is optimal but not provable by the
/// replacement, module docs). Black first is 1 either way (she fills).
/// The stop with the ban is checked against the ko solver on the whole
/// board searched as one graph (no regions), started from the same ban.
#[test]
fn a_game_after_a_ko_capture_keeps_the_ban() {
    let q = |n: i64| BigRational::from_integer(n.into());
    let start = Position::parse(KO_BAN_BOARD).unwrap();
    let o = opts(Rules::Japanese);
    let game = Game::new(&start, Colour::Black, q(0), o.rules).unwrap();
    let f5 = 4 * 9 + 5;
    let game = game
        .play(Move {
            colour: Colour::Black,
            point: Some(f5),
        })
        .unwrap();
    let e5 = f5 - 1;
    assert_eq!(game.position().ko_ban(), Some((Colour::White, e5)));
    let mut store = Store::new();
    let a = analyse_game(&mut store, &game, &o).unwrap();
    let names = |a: &Analysis, ms: &[GoMove]| -> Vec<String> {
        ms.iter().map(|m| a.point_name(m)).collect()
    };
    assert_eq!(
        a.ko_ban,
        Some(KoBan {
            colour: Colour::White,
            point: e5,
            exact_stop: true
        })
    );
    assert_eq!(
        (a.left_stop.clone(), a.right_stop.clone()),
        (Some(q(1)), Some(q(1)))
    );
    assert_eq!(names(&a, &a.best_white), ["E9", "E2", "E1"]);
    assert_eq!(names(&a, &a.best_black), ["E5"]);
    let white_first = a.white_first.as_ref().unwrap();
    assert_eq!(names(&a, &white_first.moves), ["E9", "E5"]);
    assert_eq!(white_first.score, q(1));
    let report = a.report(&mut store).unwrap();
    let said: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("ko ban") || l.starts_with("stops") || l.contains("first"))
        .collect();
    expect_test::expect![[r#"
        ko ban: White may not retake at E5 at once (ko); White's optimal first moves and line with White first respect it, and so does the stop with White first (exact)
        stops (komi included): Black first 1, White first 1
        optimal first moves for Black: E5
        optimal first moves for White: E9 E2 E1
        Black first: B E5, W E9 → score 1 (Black wins by 1)
        White first: W E9, B E5 → score 1 (Black wins by 1)"#]]
    .assert_eq(&said.join("\n"));

    // The ban lifted: the same board, prisoners and marks, as it stands.
    let mut lifted = game.position().clone();
    lifted.clear_ko_ban();
    let marks: Vec<Option<Status>> = (0..lifted.cells.len()).map(|p| game.mark(p)).collect();
    let b = analyse(&mut store, &lifted, &marks, &o).unwrap();
    assert_eq!(b.ko_ban, None);
    assert_eq!(
        (b.left_stop.clone(), b.right_stop.clone()),
        (Some(q(1)), Some(q(0)))
    );
    assert_eq!(names(&b, &b.best_white), Vec::<String>::new());

    // The whole board as one ko graph, from the banned start.
    let mut whole = a.board.clone();
    whole.prisoners = [0, 0];
    let search = whole_board_search(Rules::Japanese);
    let e = evaluate_go(&mut store, &whole, &search).unwrap();
    let (k, forbidden) = retake_node(&whole, &e.value, Colour::White, e5).unwrap();
    let GoValue::Ko { kos, .. } = &e.value else {
        unreachable!()
    };
    assert_eq!(kos.len(), 1, "one graph: the board is one component");
    let mut comps = e.value.components(&store);
    comps.push(Component::Short(store.integer(a.constant)));
    let ban = StartBan {
        component: k,
        forbidden,
    };
    let opts = KoSolveOptions::with_budget(200_000);
    let banned = crate::ko::solve_from(&mut store, &comps, Side::Right, Some(ban), &opts).unwrap();
    assert_eq!(banned.score, q(1));
    let free = crate::ko::solve(&mut store, &comps, Side::Right, &opts).unwrap();
    assert_eq!(free.score, q(0));
}

/// Random boards just after a ko capture (the first ko capture found on a
/// random board, either colour; Japanese rules): the banned player's stop
/// (the ko solver from the banned start on the regions' graphs) equals the
/// ko solver on the whole board searched as one graph (no regions, as in
/// `compare_ko`) started from the same ban, and no listed first move of
/// that player is the retake. (12 boards compared of 1 770 tried, the ban
/// changing the stop on 9; 20 s of a test build.)
#[test]
fn ko_bans_on_random_boards_agree_with_the_whole_board() {
    let mut rng = Rng(0x6b0b_a2e5);
    let (mut compared, mut differ, mut tried) = (0, 0, 0);
    let o = AnalysisOptions {
        lines: false,
        play_budget: 200_000,
        region_budget: 20_000,
        ..opts(Rules::Japanese)
    };
    while compared < 12 && tried < 4_000 {
        tried += 1;
        let board = random_board(&mut rng);
        let capture = (0..board.cells.len())
            .flat_map(|p| [(Colour::Black, p), (Colour::White, p)])
            .find_map(|(colour, p)| {
                board
                    .play_move(Move {
                        colour,
                        point: Some(p),
                    })
                    .ok()
                    .filter(|next| next.ko_ban.is_some())
            });
        let Some(after) = capture else { continue };
        let mut store = Store::new();
        let Ok(a) = analyse(&mut store, &after, &diagram_marks(&after), &o) else {
            continue;
        };
        let (Some(ban), Some(ls), Some(rs)) = (&a.ko_ban, &a.left_stop, &a.right_stop) else {
            continue;
        };
        assert!(ban.exact_stop, "{}", after.render(crate::go::Style::Ascii));
        let mut whole = a.board.clone();
        whole.prisoners = [0, 0];
        let search = whole_board_search(Rules::Japanese);
        let Ok(e) = evaluate_go(&mut store, &whole, &search) else {
            continue;
        };
        let GoValue::Ko { kos, .. } = &e.value else {
            panic!(
                "a ko capture makes a cycle\n{}",
                after.render(crate::go::Style::Ascii)
            )
        };
        if kos.iter().map(|k| k.graph.len()).sum::<usize>() > 60 {
            continue;
        }
        let (k, forbidden) = retake_node(&whole, &e.value, ban.colour, ban.point)
            .expect("the retake is a move of the whole board's graph");
        let mut comps = e.value.components(&store);
        comps.push(Component::Short(store.integer(a.constant)));
        let first = side(ban.colour);
        let ko_opts = KoSolveOptions::with_budget(200_000);
        let start = Some(StartBan {
            component: k,
            forbidden,
        });
        let Ok(banned) = crate::ko::solve_from(&mut store, &comps, first, start, &ko_opts) else {
            continue;
        };
        let Ok(free) = crate::ko::solve(&mut store, &comps, first, &ko_opts) else {
            continue;
        };
        let (mine, best) = match ban.colour {
            Colour::Black => (ls, &a.best_black),
            Colour::White => (rs, &a.best_white),
        };
        assert_eq!(
            *mine,
            banned.score,
            "{}",
            after.render(crate::go::Style::Ascii)
        );
        assert!(best.iter().all(|m| a.board_point(m) != ban.point));
        compared += 1;
        differ += usize::from(banned.score != free.score);
    }
    eprintln!("ko bans: {compared} boards compared ({differ} where the ban changes the stop), {tried} tried");
    assert!(
        compared >= 12 && differ >= 4,
        "{compared} compared, {differ} changed"
    );
}

/// Under positional superko, boards with a ko and one region where play
/// is left (every other region settled or a territory: no move there, so
/// a whole board recurs exactly when that region's position does, and
/// the region's local reading is the whole-board rule): the analysis
/// against the oracle's whole-board search under positional superko
/// (`Oracle::value_superko`), fresh and just after a ko capture (the
/// board before it on the oracle's line; the analysis reads it from the
/// position's ban), both players first: the stops, every optimal first
/// move, and each line's score equal to its stop. Before the positions
/// after moves took the line as history, the optimal moves and the lines
/// disagreed (the position after a ko capture valued fresh lets the
/// opponent retake at once); before the board before the capture was
/// read, the stops after a capture did (the retake's).
///
/// With one region where play is left the game's boards are that
/// region's line's history (module docs, "The board as it stands"), as on
/// the whole board. (Bound to the first move only, as on a board with
/// other regions to play in, the board before the capture gave other
/// stops than the whole board's on 38 of 43 of these boards.)
#[test]
fn ko_boards_under_positional_superko_equal_the_whole_board_search() {
    // The oracle recurses once a move of its lines.
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(superko_boards)
        .unwrap()
        .join()
        .unwrap();
}

fn superko_boards() {
    let (mut fresh, mut captured, mut tried) = (0, 0, 0);
    // Framed diagrams of a few points: the framing stones are marked safe,
    // the rest is the region.
    for text in crate::go::tests::random_diagrams(1500, 0x05c0_0018) {
        if fresh >= 40 && captured >= 40 {
            break;
        }
        tried += 1;
        let board = Position::parse(&text).unwrap();
        let mut o = opts(Rules::Japanese);
        o.rules.ko_rule = KoRule::PositionalSuperko;
        o.threads = 1;
        let mut store = Store::new();
        let Some(whole) = single_active_region(&mut store, &board, &o) else {
            continue;
        };
        // A ko: the plain whole-board search meets a repetition.
        let mut plain = Oracle::new(&mut store, &whole, Rules::Japanese, 100_000);
        if !matches!(plain.value(&whole), Err(OracleError::Repetition)) {
            continue;
        }
        drop(plain);
        if superko_compare(&mut store, &board, &o, None).is_some() {
            fresh += 1;
        }
        // Every ko capture on it, each a board of its own with the board
        // before on its line.
        for colour in [Colour::Black, Colour::White] {
            for p in 0..board.cells.len() {
                let mut free = board.clone();
                free.ko_ban = None;
                let Ok(next) = free.play_move(Move {
                    colour,
                    point: Some(p),
                }) else {
                    continue;
                };
                if next.ko_ban.is_none() {
                    continue;
                }
                if superko_compare(&mut store, &next, &o, Some(&board)).is_some() {
                    captured += 1;
                }
            }
        }
    }
    eprintln!(
        "positional superko: {fresh} fresh boards and {captured} after a ko capture \
         compared, {tried} tried"
    );
    assert!(fresh >= 20 && captured >= 20, "{fresh} / {captured}");
}

/// The board analysed (safe stones framing, no prisoners) when every
/// region has a value and one only has moves; else `None`.
fn single_active_region(
    store: &mut Store,
    board: &Position,
    o: &AnalysisOptions,
) -> Option<Position> {
    let marks = diagram_marks(board);
    let first = analyse(
        store,
        board,
        &marks,
        &AnalysisOptions {
            stops: false,
            ..o.clone()
        },
    )
    .ok()?;
    if first.regions.iter().any(|r| r.outcome.is_err()) {
        return None;
    }
    let active = first
        .regions
        .iter()
        .filter(|r| {
            !r.outcome.as_ref().is_ok_and(|v| v.territory)
                && [Colour::Black, Colour::White].iter().any(|&c| {
                    search_moves(&r.position, c, true, Rules::Japanese).is_ok_and(|m| !m.is_empty())
                })
        })
        .count();
    let mut whole = first.board.clone();
    whole.prisoners = [0, 0];
    whole.ko_ban = None;
    // Small enough for the oracle's lines.
    let points = first
        .regions
        .iter()
        .map(|r| r.points.len())
        .max()
        .unwrap_or(0);
    (active == 1 && points <= 7 && whole.cells.len() <= 64).then_some(whole)
}

/// [`ko_boards_under_positional_superko_equal_the_whole_board_search`] on
/// one board, `before` the board before its last move (a ko capture):
/// `None` when left out (the searches' budgets); a difference fails.
fn superko_compare(
    store: &mut Store,
    board: &Position,
    o: &AnalysisOptions,
    before: Option<&Position>,
) -> Option<()> {
    let diagram = board.render(crate::go::Style::Ascii);
    let whole = single_active_region(store, board, o)?;
    let a = analyse(store, board, &diagram_marks(board), o).ok()?;
    let (ls, rs) = (a.left_stop.clone()?, a.right_stop.clone()?);
    let c = store.integer(a.constant);
    let line: Vec<BoardKey> = before.map(board_key).into_iter().collect();
    let mut oracle = Oracle::new(store, &whole, Rules::Japanese, 200_000);
    oracle.superko = true;
    // The whole-board value with `line` as the history, and the root's
    // moves (not to a board of the line) with their values.
    let value_with = |oracle: &mut Oracle, line: &[BoardKey]| {
        oracle.line = line.to_vec();
        oracle.line.sort_unstable();
        oracle.line_hash = line.iter().fold(0u64, |h, &b| h.wrapping_add(line_hash(b)));
        let here = board_key(&whole);
        let w = oracle.value_of(here).ok()?;
        let mut with_root = line.to_vec();
        with_root.push(here);
        with_root.sort_unstable();
        oracle.line = with_root.clone();
        oracle.line_hash = with_root
            .iter()
            .fold(0u64, |h, &b| h.wrapping_add(line_hash(b)));
        let mut moves = Vec::new();
        for colour in [Colour::Black, Colour::White] {
            for (p, gain, next) in oracle.moves(here, colour) {
                if with_root.binary_search(&next).is_ok() {
                    continue;
                }
                let v = oracle.value_of(next).ok()?;
                let g = oracle.store.integer(gain);
                moves.push((colour, p, next, oracle.store.add(g, v).unwrap()));
            }
        }
        Some((w, moves))
    };
    let (w, moves) = value_with(&mut oracle, &line)?;
    drop(oracle);
    let total = store.add(w, c).unwrap();
    let (wl, wr) = stops(store, total);
    assert_eq!(
        (ls.clone(), rs.clone()),
        (wl, wr),
        "the analysis's stops, the whole board's\n{diagram}"
    );
    for (colour, best, stop) in [
        (Colour::Black, &a.best_black, &ls),
        (Colour::White, &a.best_white, &rs),
    ] {
        let root_moves = moves.iter().map(|&(c2, p, _, v)| (c2, p, v));
        let mut expected = moves_keeping_stop(store, root_moves, colour, c, stop);
        let all_numbers = a.regions.iter().all(|r| {
            let v = r.outcome.as_ref().unwrap().value.as_short().unwrap();
            store.is_number(v)
        });
        if all_numbers {
            expected.clear();
        }
        let mut got: Vec<usize> = best.iter().map(|m| a.board_point(m)).collect();
        got.sort_unstable();
        expected.sort_unstable();
        assert_eq!(got, expected, "optimal moves for {colour}\n{diagram}");
    }
    let (bl, wl_) = (a.black_first.as_ref()?, a.white_first.as_ref()?);
    assert!(bl.finished && wl_.finished, "{diagram}");
    assert_eq!(bl.score, ls, "Black's line\n{diagram}");
    assert_eq!(wl_.score, rs, "White's line\n{diagram}");
    Some(())
}
