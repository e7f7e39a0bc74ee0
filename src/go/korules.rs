//! Ko rules as data: what each [`KoRule`] forbids in a game in progress
//! ([`super::Game::play`] consults this module, nothing else decides), and
//! the state the New Ko Rules carry from move to move.
//!
//! # The rules (whole games)
//!
//! A game's history records, for every board since the start, the stones,
//! who is to move, which player's *board play* created it (none for the
//! start and after a pass) and how many stones each player has played
//! *elsewhere*: a tenuki (`t`) is a board play off the diagram that is
//! never captured, so no board before it can recur after it; a pass (`p`)
//! changes nothing on the board.
//!
//! * `basic`: a single stone that has just captured a single stone may not
//!   recapture at once.
//! * `positional`: a board play may not recreate any earlier board.
//! * `situational`: a board play may not recreate an earlier board with the
//!   same player to move.
//! * `natural_situational`: a player may not use a board play to recreate a
//!   board he created with a board play (Sensei's Library, "Natural
//!   Situational Superko Rule"): a board reached by a pass does not count.
//! * `none`: no ko rule; every cycle may be repeated (Jasiek's "no rules",
//!   under which `B[acbd]` in eternal life is a cyclical move-sequence).
//! * `new_ko_rules`: Robert Jasiek's New Ko Rules (below).
//!
//! # Local analyses
//!
//! The local search (`value(Q, ko_rule: …)`) sees one region, no passes and
//! no tenukis: a line of play in the region is its board plays only. It
//! assumes the history of the region starts at the position searched and
//! that the rest of the board never recreates an earlier whole board on its
//! own. Under that assumption:
//! * `positional`: a play may not recreate a region position of the line;
//! * `situational` and `natural_situational` are the same rule locally: "the
//!   same player to move" can only be read as "created by a board play of the
//!   same player", since a tenuki leaves no trace (the root counts as
//!   created by the opponent of whoever moves first);
//! * `basic`, `new_ko_rules`, `none`: the position graph (a ko graph), with
//!   the basic ko rule and ko threats applied by whoever plays it (the ko
//!   solver, komaster thermography). Under `none` a region with a
//!   repetition has no value (the game need not end); `value` says so.
//! * `new_ko_rules` has a local value only where it is the basic rule with
//!   threats: when every ko position of the searched position's census is a
//!   single-mouth fighting ko whose mouth touches the walls of one colour
//!   (census reading K1; not eternal life's mouth, K4, where the fighting
//!   rule also forbids the capture that answers a sacrifice or a throw-in,
//!   which the basic rule allows). There the fighting rule forbids exactly the
//!   immediate retake, and the prohibition rule never bites, since in a ko
//!   graph every retake follows a threat (a tenuki starts a new epoch). A
//!   coupled ko position (the fighting rule then forbids every capture in
//!   all its mouths, the disturber rule remembers who disturbed it first)
//!   or a DK between mortal strings gives no local value, and `value` says
//!   which ko position and why ([`super::search::new_ko_rules_locally`]);
//!   `judge` and `play` on a game apply all four rules with the game's
//!   history. (A ko position next to an immortal frame string counts as a
//!   fighting ko: the frame's breaths mean nothing. Kos that arise only
//!   later in the region's play are read under the basic rule.)
//!
//! Where there is no local value, the region can be played out on a game
//! under all four rules, threats as tenukis ([`super::fight`]; README, "Ko
//! rules", (d)). Doing so showed a limit of this reconstruction: with a
//! pass between captures, a double ko, a triple ko in DLife, eternal life
//! and sending two, returning one can be cycled (a pass ends the ko-stone
//! MS and clears the disturber, and the set of ko points read from the
//! board changes as a ko flips, which starts a new epoch), where Jasiek's
//! rules claim to end every game.
//!
//! Why the situational example `X X X X O O / X a b o d O` is `*` and not
//! `{3|1||0}` (as under positional superko) is proved in the module docs of
//! the superko oracle and pinned by its tests.
//!
//! # The New Ko Rules (reconstructed)
//!
//! The definitions page is lost from the text we start from ("The New Ko
//! Rules", Examples 1, 1996); Jasiek's related public pages ("The New Ko
//! Rules", "The Ko Coupling Rules", "The Basic Ko Rules", "The Prohibition
//! Rules", `home.snafu.de/jasiek/`) and the examples fix most of it. The
//! census (ko positions, FK / DK) is [`super::census`]. A *ko-stone play*
//! is a board play on a point of a ko position (census of the board before
//! the play). A *ko-stone move-sequence* (MS) is a maximal run of
//! consecutive ko-stone plays; any other move (a pass, a tenuki, a board
//! play outside every ko position) ends it. Each rule, in the order they
//! are checked:
//!
//! 1. **Basic ko rule** (Choice N1: the general form of "The Configuration
//!    Rules"): a board play may not recreate the board that stood before
//!    the opponent's board play just made. For a basic ko this is the
//!    usual ban; it also forbids `B[aa]` and `B[abb]` in a double ko.
//! 2. **Fighting rule**: after a ko-stone play by one player in a FK, the
//!    other player's next move may not be a capturing play in the same ko
//!    position ("the triple ko is fought as if it were a basic ko"). The
//!    stones of the play are *hot* until the next move.
//! 3. **Disturber rule**: a ko-stone play in a DLife *disturbs* it when it
//!    takes a breath from an opponent's string next to the ko position
//!    (Examples 1: "disturbs a DK due to a reduction of the breath number
//!    of at least one string of the opponent"); in a DDeath when it turns a
//!    stable DDeath into an instable one (Examples 1: `B[cttc]#` "disturb
//!    the DDeath by transforming it from a state of stable DDeath into
//!    instable DDeath"; `B[a]` in a single DDeath does not; a play after
//!    which no ko position is left there ends the ko and does not disturb
//!    it: Choice N3). The first player to disturb
//!    a DK during a ko-stone MS becomes its disturber until the MS ends.
//!    Once the ko position's stones are again those they were before the
//!    disturber's first disturbing play, the disturber may not disturb it
//!    again (Choice N2: "repeated" is judged on the points of the ko
//!    position).
//! 4. **Prohibition rule** (after "The Prohibition Rules"): an *epoch* is a
//!    stretch of play over which the set of ko-position points and the
//!    stones on every other point (elsewhere stones included) stay the same;
//!    a tenuki or a play outside the kos starts a new one. Within an epoch
//!    a player may play a ko stone on a point of a FK only once, not
//!    counting the first ko-stone play in a FK of the epoch (the rule's
//!    exception), and may become the disturber of a DK only once.
//!
//! Choices: N1, N2 above; a move is judged with the census of the board
//! before it; a ko position is identified by its set of points.

use super::census::{census, mix, stone_word, Census, GoString, KoType};
use super::position::{Cell, Colour, Position};

pub use super::search::KoRule;

/// Which of the New Ko Rules forbids a move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum NkrRule {
    BasicKo,
    Fighting,
    Disturber,
    Prohibition,
}

impl NkrRule {
    pub fn name(self) -> &'static str {
        match self {
            NkrRule::BasicKo => "basic ko rule",
            NkrRule::Fighting => "fighting rule",
            NkrRule::Disturber => "disturber rule",
            NkrRule::Prohibition => "prohibition rule",
        }
    }
}

/// The disturber of a DK during the current ko-stone MS.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Disturber {
    pub colour: Colour,
    /// The ko position's points.
    pub points: Vec<usize>,
    /// Its stones before the first disturbing play.
    pub before: Vec<Cell>,
    /// Whether those stones have stood there again since.
    pub repeated: bool,
}

/// What the New Ko Rules remember between moves (module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NkrState {
    /// The last move was a ko-stone play in a FK: its player and the ko
    /// position's points (the hot stones' position).
    pub hot: Option<(Colour, Vec<usize>)>,
    /// Whether a ko-stone MS is going on.
    pub in_ms: bool,
    /// The disturbers of the current MS.
    pub disturbers: Vec<Disturber>,
    /// The epoch's key (a hash of the ko points and the stones outside).
    pub epoch: u64,
    /// Whether the epoch's first ko-stone play in a FK was made.
    pub first_fk_done: bool,
    /// Ko-stone plays in FKs recorded in the epoch.
    pub played: Vec<(Colour, usize)>,
    /// Disturbers recorded in the epoch: player and ko position.
    pub disturbed: Vec<(Colour, Vec<usize>)>,
}

/// A move as the rules see it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Play {
    Board(usize),
    Pass,
    Tenuki,
}

/// The epoch key of a board (module docs, rule 4): a hash of the ko
/// points, the stones on every other point and the elsewhere stones. The
/// census keeps the sum of a mixed word per stone from board to board
/// ([`Census::stones_hash`]); the words of the ko points' stones are taken
/// out of it and a word per ko point put in, so the key costs the ko
/// points, not the board.
fn epoch_key(pos: &Position, c: &Census, elsewhere: [u32; 2]) -> u64 {
    let mut h = c.stones_hash();
    for &p in c.ko_points() {
        h = h
            .wrapping_sub(stone_word(p, pos.cell(p)))
            .wrapping_add(mix((p as u64) << 2 | 3));
    }
    h ^ mix(u64::from(elsewhere[0]) << 32 | u64::from(elsewhere[1]) | 1 << 63)
}

fn cells_on(pos: &Position, points: &[usize]) -> Vec<Cell> {
    points.iter().map(|&p| pos.cell(p)).collect()
}

fn names(pos: &Position, points: &[usize]) -> String {
    points
        .iter()
        .map(|&p| pos.point_name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Judges a move under the New Ko Rules. `c` is the census of `before`
/// (the game caches it) and `c_after` that of `after` (the game keeps it
/// for the next move), `before` the board, `after`
/// the board after the move (legal by the rules of Go), `two_back` the
/// board before the opponent's last move when that move was a board play,
/// `elsewhere` the elsewhere stones after the move. Returns the state after
/// the move, or the rule that forbids it and why.
pub fn judge_nkr(
    state: &NkrState,
    c: &Census,
    c_after: &Census,
    before: &Position,
    after: &Position,
    two_back: Option<&[Cell]>,
    colour: Colour,
    play: Play,
    elsewhere_before: [u32; 2],
    elsewhere_after: [u32; 2],
) -> Result<NkrState, (NkrRule, String)> {
    let mut next = state.clone();
    // The epoch is judged on the board before the move.
    let key = epoch_key(before, c, elsewhere_before);
    if key != next.epoch {
        next.epoch = key;
        next.first_fk_done = false;
        next.played.clear();
        next.disturbed.clear();
    }
    let q = match play {
        Play::Pass | Play::Tenuki => {
            next.hot = None;
            next.in_ms = false;
            next.disturbers.clear();
            if play == Play::Tenuki {
                // A stone elsewhere: the next move starts a new epoch.
                next.epoch = epoch_key(after, c_after, elsewhere_after);
                next.first_fk_done = false;
                next.played.clear();
                next.disturbed.clear();
            }
            return Ok(next);
        }
        Play::Board(q) => q,
    };
    let opp = colour.opponent();
    // 1. Basic ko rule.
    if let Some(prev) = two_back {
        // The played point first: most plays differ from that board there.
        if prev[q] == after.cells[q] && *prev == *after.cells {
            return Err((
                NkrRule::BasicKo,
                format!(
                    "{colour} at {} would recreate the board before {opp}'s last play (an immediate recapture)",
                    before.point_name(q)
                ),
            ));
        }
    }
    let Some(k) = c.position_of(q) else {
        // Outside every ko position: the MS ends.
        next.hot = None;
        next.in_ms = false;
        next.disturbers.clear();
        return Ok(next);
    };
    let kp = &c.positions[k];
    let points = kp.points.clone();
    let captures = after.prisoners(colour) > before.prisoners(colour);
    if !next.in_ms {
        next.disturbers.clear();
    }
    match kp.ko_type {
        KoType::Fk => {
            // 2. Fighting rule.
            if let Some((who, hot)) = &state.hot {
                if *who == opp && *hot == points && captures {
                    return Err((
                        NkrRule::Fighting,
                        format!(
                            "{opp} has just played a ko stone in this fighting ko ({}); its hot stones may not be captured at once",
                            names(before, &points)
                        ),
                    ));
                }
            }
            // 4. Prohibition rule (FK part).
            if next.first_fk_done {
                if next.played.contains(&(colour, q)) {
                    return Err((
                        NkrRule::Prohibition,
                        format!(
                            "{colour} has already played a ko stone at {} since the stones outside the ko positions last changed",
                            before.point_name(q)
                        ),
                    ));
                }
                next.played.push((colour, q));
            } else {
                next.first_fk_done = true;
            }
            next.hot = Some((colour, points));
        }
        _ => {
            next.hot = None;
            // 3. Disturber rule.
            let disturbs = match kp.ko_type {
                KoType::DDeath { stable, .. } => stable && destabilises(c_after, &points),
                _ => reduces_breaths(before, after, c, &points, colour),
            };
            if disturbs {
                let current = next.disturbers.iter().position(|d| d.points == points);
                match current.map(|i| next.disturbers[i].clone()) {
                    Some(d) if d.colour == colour && d.repeated => {
                        return Err((
                            NkrRule::Disturber,
                            format!(
                                "{colour} is the disturber of this {} ({}), and its stones have stood as before the disturbance again",
                                kp.ko_type.describe(),
                                names(before, &points)
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        // 4. Prohibition rule (DK part).
                        if next.disturbed.contains(&(colour, points.clone())) {
                            return Err((
                                NkrRule::Prohibition,
                                format!(
                                    "{colour} has already been the disturber of this {} ({}) since the stones outside the ko positions last changed",
                                    kp.ko_type.describe(),
                                    names(before, &points)
                                ),
                            ));
                        }
                        next.disturbed.push((colour, points.clone()));
                        next.disturbers.push(Disturber {
                            colour,
                            points: points.clone(),
                            before: cells_on(before, &points),
                            repeated: false,
                        });
                    }
                }
            }
        }
    }
    next.in_ms = true;
    for d in next.disturbers.iter_mut() {
        if cells_on(after, &d.points) == d.before {
            d.repeated = true;
        }
    }
    Ok(next)
}

/// Whether a play turned the stable DDeath on `points` into a DK that is
/// not a stable DDeath (a play after which no ko position overlaps the
/// points, such as a connection, ends the ko instead of disturbing it).
fn destabilises(c: &Census, points: &[usize]) -> bool {
    let overlapping: Vec<KoType> = c
        .positions
        .iter()
        .filter(|k| k.points.iter().any(|p| points.binary_search(p).is_ok()))
        .map(|k| k.ko_type)
        .collect();
    !overlapping.is_empty()
        && !overlapping
            .iter()
            .any(|t| matches!(t, KoType::DDeath { stable: true, .. }))
}

/// Whether a play by `colour` takes a breath from an opponent string next
/// to the ko position `points` (module docs, rule 3).
fn reduces_breaths(
    before: &Position,
    after: &Position,
    c: &Census,
    points: &[usize],
    colour: Colour,
) -> bool {
    let opp = colour.opponent();
    // The opponent strings next to the points, each once (by its first
    // stone): those the rule asks about, found without a pass over every
    // string of the board.
    let mut next_to: Vec<&GoString> = Vec::new();
    for &p in points {
        for n in before.neighbours(p) {
            if let Some(s) = c.string_at(n) {
                if s.colour == opp && !next_to.iter().any(|t| t.stones[0] == s.stones[0]) {
                    next_to.push(s);
                }
            }
        }
    }
    next_to.into_iter().any(|s| {
        s.stones.iter().all(|p| points.binary_search(p).is_err()) && {
            let now = if after.cell(s.stones[0]) == Cell::Stone(opp) {
                after.liberties(&after.chain(s.stones[0])).len()
            } else {
                0
            };
            now < s.breaths.len()
        }
    })
}

/// The current disturbers, for reports: `(colour, points)`.
pub fn disturbers(state: &NkrState) -> Vec<(Colour, Vec<usize>)> {
    state
        .disturbers
        .iter()
        .map(|d| (d.colour, d.points.clone()))
        .collect()
}

/// The plays that would disturb the DK ko position `k` of `pos`'s census
/// (module docs, rule 3): `(colour, point)` for each empty point of the ko
/// position and each player whose play there is legal and disturbs it.
pub fn disturbing_moves(pos: &Position, c: &Census, k: usize) -> Vec<(Colour, usize)> {
    let kp = &c.positions[k];
    if !kp.ko_type.is_dk() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &q in &kp.points {
        if pos.cell(q) != Cell::Empty {
            continue;
        }
        for colour in [Colour::Black, Colour::White] {
            let mut free = pos.clone();
            free.clear_ko_ban();
            let Ok(after) = free.play_move(super::position::Move {
                colour,
                point: Some(q),
            }) else {
                continue;
            };
            let disturbs = match kp.ko_type {
                KoType::DDeath { stable, .. } => {
                    stable && destabilises(&census(&after), &kp.points)
                }
                _ => reduces_breaths(pos, &after, c, &kp.points, colour),
            };
            if disturbs {
                out.push((colour, q));
            }
        }
    }
    out
}
