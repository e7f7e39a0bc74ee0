//! A game in progress: a whole board with its history, whose turn it is,
//! komi and the rules in force.
//!
//! [`Game`] is what a Go player means by "the game": the board (any
//! rectangle up to 19 × 19, named in [`super::coords`]), the prisoners each
//! side holds, the player to move, every board position since the start
//! (for whole-game superko), the moves played (for writing SGF), komi, and a
//! [`RuleSet`]. [`Game::play`] is the one place where a move on a real board
//! is judged: turn order, occupied points, suicide, and the ko rule of the
//! rule set, consulted as data.
//!
//! Unlike a diagram of a region, a game has no framing stones: every stone
//! can be captured. Stones the user declares safe or dead (uppercase `X` /
//! `O` in a diagram, SGF marks, named arguments) are kept as [`Status`]
//! marks for the analysis; they do not change what a move does. A mark goes
//! with its stone: when the stone is captured the mark is dropped.
//!
//! The ko rules, as a whole game applies them, are described in
//! [`super::korules`] (the local search's reading of the same rules is in
//! [`super::search::KoRule`]).
//!
//! A pass is always legal and is part of the history (the same board with
//! the other player to move). A tenuki ([`Game::play_elsewhere`]) is a
//! board play off the board that is never captured: the history counts the
//! stones each player has played elsewhere, so no board before a tenuki can
//! recur after it. Two passes in a row do not end the game here:
//! scoring is the analysis' business.

use super::census::{census, census_after_play, Census};
use super::coords::{Origin, MAX_BOARD};
use super::korules::{self, NkrState, Play};
use super::position::{Cell, Colour, IllegalMove, Move, Position};
use super::search::{KoRule, Rules};
use super::ultimate::{Ending, KomiError, NoPassRules, NoPassState, RuleBreak, Special};
use num_rational::BigRational;
use std::cell::OnceCell;
use std::fmt;
use std::rc::Rc;

/// The rules in force for a game: how it is scored and which ko rule
/// applies. A value, consulted by [`Game::play`] (and by the analysis).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct RuleSet {
    pub scoring: Rules,
    pub ko_rule: KoRule,
    /// Ultimate or Fundamental Go ([`super::ultimate`]): no pass, delays,
    /// bowls, whole-game positional superko (rule 5, whatever `ko_rule`
    /// says). `None`: ordinary Go.
    pub nopass: Option<NoPassRules>,
}

impl RuleSet {
    /// `japanese, basic ko`.
    pub fn describe(&self) -> String {
        if let Some(r) = self.nopass {
            return format!("{}, positional superko", r.describe());
        }
        let scoring = match self.scoring {
            Rules::Japanese => "japanese",
            Rules::Chinese => "chinese",
        };
        format!("{scoring}, {}", self.ko_rule.describe())
    }
}

/// What the legality of a game's later moves depends on under the ko
/// rules that read no more than the last two boards
/// ([`Game::rule_state_key`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RuleStateKey {
    cells: Vec<Cell>,
    to_move: Colour,
    ko_ban: Option<(Colour, usize)>,
    elsewhere: [u32; 2],
    nkr: Option<NkrState>,
    two_back: Option<Vec<Cell>>,
}

/// What the user declared of a stone, for the analysis.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    Safe,
    Dead,
}

/// One entry of the history: a board and who is to move on it.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Seen {
    board: Rc<[Cell]>,
    /// A hash of `board` ([`board_hash`]), computed when a superko rule
    /// first compares the board: it compares the hashes first.
    hash: OnceCell<u64>,
    to_move: Colour,
    /// The player whose board play created it (none: the start, a pass).
    by: Option<Colour>,
    /// Stones played elsewhere (tenukis) by Black and White so far.
    elsewhere: [u32; 2],
}

/// A hash of a board's stones, for comparing boards of the history.
/// (A multiply-rotate over one small code a point: a few instructions a
/// point, where hashing the cells with SipHash costs many; equal boards
/// have equal hashes, and the boards are compared when the hashes agree.)
fn board_hash(cells: &[Cell]) -> u64 {
    cells.iter().fold(0x9e37_79b9_7f4a_7c15, |h: u64, c| {
        let code = match c {
            Cell::Empty => 1,
            Cell::Stone(Colour::Black) => 2,
            Cell::Stone(Colour::White) => 3,
        };
        (h ^ code).wrapping_mul(0x0100_0000_01b3).rotate_left(17)
    })
}

impl Seen {
    fn hash(&self) -> u64 {
        *self.hash.get_or_init(|| board_hash(&self.board))
    }
}

/// One entry of the history with the move that made it (none for the
/// start), linked to the entry before it.
#[derive(Debug)]
struct HistoryNode {
    seen: Seen,
    mv: Option<Move>,
    before: Option<Rc<HistoryNode>>,
}

impl Drop for HistoryNode {
    /// Unlinks the entries one by one: a long game's list would otherwise
    /// drop recursively, one stack frame an entry.
    fn drop(&mut self) {
        let mut next = self.before.take();
        while let Some(node) = next {
            match Rc::try_unwrap(node) {
                Ok(mut node) => next = node.before.take(),
                Err(_) => break,
            }
        }
    }
}

/// The history of a game: every board since the start with the move that
/// made it, as a list from the current entry back, whose entries a game
/// shares with the games it was played from (a move adds one entry and
/// copies none).
#[derive(Clone, Debug)]
struct History {
    last: Rc<HistoryNode>,
    len: usize,
    /// Who was to move at the start.
    start_to_move: Colour,
}

impl History {
    fn new(start: Seen) -> History {
        History {
            start_to_move: start.to_move,
            last: Rc::new(HistoryNode {
                seen: start,
                mv: None,
                before: None,
            }),
            len: 1,
        }
    }

    /// The history with `seen`, made by `mv`, added.
    fn push(&mut self, seen: Seen, mv: Move) {
        self.last = Rc::new(HistoryNode {
            seen,
            mv: Some(mv),
            before: Some(self.last.clone()),
        });
        self.len += 1;
    }

    /// The entries from the current one back to the start.
    fn newest_first(&self) -> impl Iterator<Item = &HistoryNode> {
        std::iter::successors(Some(&*self.last), |n| n.before.as_deref())
    }

    /// The index (from the start) of the earliest entry with `found`.
    fn earliest(&self, found: impl Fn(&Seen) -> bool) -> Option<usize> {
        let mut at = None;
        for (i, n) in self.newest_first().enumerate() {
            if found(&n.seen) {
                at = Some(self.len - 1 - i);
            }
        }
        at
    }

    /// The entry `back` moves before the current one.
    fn back(&self, back: usize) -> Option<&Seen> {
        self.newest_first().nth(back).map(|n| &n.seen)
    }
}

/// A game in progress (see the module docs).
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    to_move: Colour,
    komi: BigRational,
    rules: RuleSet,
    marks: Vec<Option<Status>>,
    /// Every board since the start and the moves that made them, passes
    /// included.
    history: History,
    /// The board the game started from (for writing SGF setup stones).
    start: Rc<Position>,
    /// Stones played elsewhere (tenukis) by Black and White.
    elsewhere: [u32; 2],
    /// What the New Ko Rules remember (unused under the other rules).
    nkr: NkrState,
    /// The ko census of the current board, computed when first asked for
    /// (the New Ko Rules judge the next move with it; a game that several
    /// moves are tried on computes it once; clones share the cell).
    census: Rc<OnceCell<Rc<Census>>>,
    /// Bowls, ultimate prisoners and the end, under `rules.nopass`.
    nopass: Option<NoPassState>,
    /// Moves of the record before the start (an SGF file's moves before
    /// its last setup node): the game's history begins at the setup, but
    /// its moves are numbered as the file numbers them.
    moves_before_start: usize,
}

/// Why a position cannot be the board of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Wider or taller than 19 lines.
    TooLarge { width: usize, height: usize },
    /// Komi or handicap that Ultimate Go cannot give.
    Komi(KomiError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::TooLarge { width, height } => write!(
                f,
                "a board has at most {MAX_BOARD}×{MAX_BOARD} points; this one is {width}×{height}"
            ),
            BoardError::Komi(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BoardError {}

impl Game {
    /// A game starting from `board`: every stone capturable, the board's
    /// framing stones (uppercase in a diagram) marked [`Status::Safe`], the
    /// rectangle taken as the whole board.
    pub fn new(
        board: &Position,
        to_move: Colour,
        komi: BigRational,
        rules: RuleSet,
    ) -> Result<Game, BoardError> {
        let (width, height) = (board.width(), board.height());
        if width > MAX_BOARD || height > MAX_BOARD {
            return Err(BoardError::TooLarge { width, height });
        }
        let mut position = board.clone().with_origin(Origin::board(width, height));
        let marks = position
            .frame
            .iter()
            .map(|&f| f.then_some(Status::Safe))
            .collect();
        position.frame.iter_mut().for_each(|f| *f = false);
        let start = Rc::new(position.clone());
        let history = History::new(Seen {
            board: position.cells.clone().into(),
            hash: OnceCell::new(),
            to_move,
            by: None,
            elsewhere: [0, 0],
        });
        let nopass = match rules.nopass {
            Some(r) => Some(NoPassState::new(r, &komi, 0).map_err(BoardError::Komi)?),
            None => None,
        };
        Ok(Game {
            position,
            to_move,
            komi,
            rules,
            marks,
            history,
            start,
            elsewhere: [0, 0],
            nkr: NkrState::default(),
            census: Rc::new(OnceCell::new()),
            nopass,
            moves_before_start: 0,
        })
    }

    /// The board as it stands (prisoners and the basic-ko ban included).
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    pub fn komi(&self) -> &BigRational {
        &self.komi
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The moves played since the start, passes (`point: None`) included.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self.history.newest_first().filter_map(|n| n.mv).collect();
        moves.reverse();
        moves
    }

    /// The number of moves played since the start.
    pub fn move_count(&self) -> usize {
        self.history.len - 1
    }

    /// The number of the last move played, as the game's record counts
    /// them: the moves since the start, and those before it when the game
    /// was set up again partway through an SGF file ([`Game::with_setup`]).
    pub fn move_number(&self) -> usize {
        self.moves_before_start + self.move_count()
    }

    /// The board the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The user's mark on the stone at `point`, if any.
    pub fn mark(&self, point: usize) -> Option<Status> {
        self.marks[point]
    }

    /// Marks (or unmarks) the stone at `point`. Marks on empty points are
    /// ignored.
    pub fn set_mark(&mut self, point: usize, status: Option<Status>) {
        if self.position.cells[point] != Cell::Empty {
            self.marks[point] = status;
        }
    }

    /// The same game with another player to move, komi or rule set; the
    /// history is kept.
    pub fn with_settings(mut self, to_move: Colour, komi: BigRational, rules: RuleSet) -> Game {
        if self.history.len == 1 {
            let start = &self.history.last.seen;
            self.history = History::new(Seen {
                to_move,
                ..start.clone()
            });
        }
        self.to_move = to_move;
        self.komi = komi;
        self.rules = rules;
        if rules.nopass.is_none() {
            self.nopass = None;
        }
        self
    }

    /// The same game under no-pass rules (Ultimate or Fundamental Go) with
    /// bowls set from komi and handicap as §III's remarks say; the board
    /// and its history are kept. `rules.nopass` must be set.
    pub fn with_nopass(mut self, handicap: u32) -> Result<Game, KomiError> {
        match self.rules.nopass {
            Some(r) => {
                self.rules.ko_rule = KoRule::PositionalSuperko;
                // Stones marked safe are framing stones here (module docs of
                // `ultimate`): living groups whose eyes lie off the board.
                for (p, m) in self.marks.iter().enumerate() {
                    self.position.frame[p] = *m == Some(Status::Safe);
                }
                self.census = Rc::new(OnceCell::new());
                self.nopass = Some(NoPassState::new(r, &self.komi, handicap)?);
            }
            None => self.nopass = None,
        }
        Ok(self)
    }

    /// The same game with `colour` to move and nothing else changed: for
    /// procedures that let one player move alone (the count of expedited
    /// counting's step 4), never for play.
    pub(crate) fn with_turn(mut self, colour: Colour) -> Game {
        self.to_move = colour;
        self
    }

    /// Bowls, ultimate prisoners and the end of a no-pass game.
    pub fn nopass(&self) -> Option<&NoPassState> {
        self.nopass.as_ref()
    }

    /// The boards of the history, the start first and the current one last
    /// (delays repeat the board they were played on).
    pub fn history_boards(&self) -> impl Iterator<Item = &[Cell]> {
        let mut boards: Vec<&[Cell]> = self
            .history
            .newest_first()
            .map(|n| &*n.seen.board)
            .collect();
        boards.reverse();
        boards.into_iter()
    }

    /// Who was to move at the start (the player of the first move, unless
    /// the game was set up out of turn).
    pub fn start_to_move(&self) -> Colour {
        self.history.start_to_move
    }

    /// The game restarted from the current board with stones added or
    /// removed (SGF setup: `AB`, `AW`, `AE`): the new board is the start,
    /// the history and the moves so far are dropped, the prisoners, komi,
    /// rules and player to move are kept, the marks of changed points are
    /// cleared, and the moves dropped still count in [`Game::move_number`]. Stones are not checked for liberties here (the caller
    /// says which setup value is at fault).
    pub(crate) fn with_setup(&self, changes: &[(usize, Cell)]) -> Game {
        let mut position = self.position.clone();
        position.ko_ban = None;
        let mut marks = self.marks.clone();
        for &(p, cell) in changes {
            if p < position.cells.len() {
                position.cells[p] = cell;
                marks[p] = None;
            }
        }
        let start = Rc::new(position.clone());
        let history = History::new(Seen {
            board: position.cells.clone().into(),
            hash: OnceCell::new(),
            to_move: self.to_move,
            by: None,
            elsewhere: self.elsewhere,
        });
        Game {
            position,
            to_move: self.to_move,
            komi: self.komi.clone(),
            rules: self.rules,
            marks,
            history,
            start,
            elsewhere: self.elsewhere,
            nkr: NkrState::default(),
            census: Rc::new(OnceCell::new()),
            nopass: self.nopass.clone(),
            moves_before_start: self.moves_before_start + self.move_count(),
        }
    }

    /// Labels the point `point` (or removes its label); a label already on
    /// another point moves here. Labels name points in move strings.
    pub(crate) fn set_label(&mut self, point: usize, label: Option<char>) {
        if point >= self.position.labels.len() {
            return;
        }
        if let Some(l) = label {
            for other in self.position.labels.iter_mut() {
                if *other == Some(l) {
                    *other = None;
                }
            }
        }
        self.position.labels[point] = label;
    }

    /// The boards before the current one, the start first, that the ko
    /// rule `rule` forbids some board play to recreate from here, each with
    /// the player whose board play would be forbidden (what whole-board
    /// analysis takes as the regions' history: `go::analysis`, "The board
    /// as it stands"): under positional superko every board (its creator,
    /// `None` for the start and after a pass); under situational superko
    /// every board, as if created by the opponent of the player to move on
    /// it (a board play recreating it gives the move to that player);
    /// under natural situational superko the boards created by a board
    /// play, with their creator. Only boards with as many stones played
    /// elsewhere as now count (no board before a tenuki can recur). None
    /// under the other rules.
    pub fn past_boards(&self, rule: KoRule) -> Vec<(Vec<Cell>, Option<Colour>)> {
        if !matches!(
            rule,
            KoRule::PositionalSuperko
                | KoRule::SituationalSuperko
                | KoRule::NaturalSituationalSuperko
        ) {
            return Vec::new();
        }
        let mut out: Vec<(Vec<Cell>, Option<Colour>)> = self
            .history
            .newest_first()
            .skip(1)
            .filter(|n| n.seen.elsewhere == self.elsewhere)
            .filter_map(|n| {
                let by = match rule {
                    KoRule::SituationalSuperko => Some(n.seen.to_move.opponent()),
                    _ => n.seen.by,
                };
                (rule == KoRule::PositionalSuperko || by.is_some())
                    .then(|| (n.seen.board.to_vec(), by))
            })
            .collect();
        out.reverse();
        out
    }

    /// The basic ko rule's ban after the last move, whatever the game's ko
    /// rule: when it was a board play that captured a single stone in a
    /// ko, its opponent (the player to move) and the point of the retake.
    /// (Under the basic rule the board's own ban; the other rules keep
    /// none on the board, so it is found by playing the last move again on
    /// the board before it.)
    pub fn last_ko_capture(&self) -> Option<(Colour, usize)> {
        if self.rules.ko_rule == KoRule::Basic {
            return self.position.ko_ban;
        }
        let last = &self.history.last;
        let mv = last.mv.filter(|m| m.point.is_some())?;
        let before = &last.before.as_ref()?.seen;
        let mut pos = self.position.clone();
        pos.cells = before.board.to_vec();
        pos.ko_ban = None;
        let after = pos.play_move(mv).ok()?;
        (after.cells == self.position.cells)
            .then_some(after.ko_ban)
            .flatten()
    }

    /// The number of board positions in the history (the start included).
    pub fn history_len(&self) -> usize {
        self.history.len
    }

    /// Whether two games (or a game and a position) show the same board:
    /// the same stones on the same points, whatever the history.
    pub fn same_board(&self, other: &Position) -> bool {
        self.position.same_stones(other)
    }

    /// Plays one move: `mv.point == None` is a pass. The move must be the
    /// player to move's, on an empty point, not suicide, and allowed by the
    /// ko rule in force ([`super::korules`]).
    pub fn play(&self, mv: Move) -> Result<Game, IllegalMove> {
        if let Some(state) = &self.nopass {
            return self.place_nopass(state, mv);
        }
        let play = match mv.point {
            Some(p) => Play::Board(p),
            None => Play::Pass,
        };
        self.judge(mv.colour, play)
    }

    /// A tenuki: `colour` plays elsewhere, off the board (module docs).
    pub fn play_elsewhere(&self, colour: Colour) -> Result<Game, IllegalMove> {
        self.judge(colour, Play::Tenuki)
    }

    /// The stones each player has played elsewhere (Black, White).
    pub fn elsewhere(&self) -> [u32; 2] {
        self.elsewhere
    }

    /// The ko census of the current board (cached).
    pub fn census(&self) -> Rc<Census> {
        self.census
            .get_or_init(|| Rc::new(census(&self.position)))
            .clone()
    }

    /// The New Ko Rules' state (disturbers, hot stones, the epoch).
    pub fn nkr_state(&self) -> &NkrState {
        &self.nkr
    }

    /// Everything the legality of later moves depends on, when the ko rule
    /// reads no more of the history than the last two boards (basic, none,
    /// the New Ko Rules): two games with equal keys allow the same
    /// continuations, with the same captures (the prisoners so far are not
    /// part of the key). `None` under
    /// the superko rules and no-pass rules (the whole history counts).
    pub fn rule_state_key(&self) -> Option<RuleStateKey> {
        if self.nopass.is_some() {
            return None;
        }
        let rule = self.rules.ko_rule;
        let two_back = match rule {
            KoRule::Basic | KoRule::NoRule => None,
            KoRule::NewKoRules => self.two_back(self.to_move),
            _ => return None,
        };
        Some(RuleStateKey {
            cells: self.position.cells.clone(),
            to_move: self.to_move,
            ko_ban: self.position.ko_ban,
            elsewhere: self.elsewhere,
            nkr: (rule == KoRule::NewKoRules).then(|| self.nkr.clone()),
            two_back: two_back.map(|b| b.to_vec()),
        })
    }

    /// The board before the opponent's last move when that move was a board
    /// play (what the New Ko Rules' basic ko rule compares with), for a move
    /// by `colour`.
    fn two_back(&self, colour: Colour) -> Option<&[Cell]> {
        let last = &self.history.last.seen;
        (last.by == Some(colour.opponent()))
            .then(|| self.history.back(1).map(|s| &*s.board))
            .flatten()
    }

    /// The same game, not yet played, whose start board counts as created
    /// by a board play of `colour` (natural situational superko reads who
    /// created a board): the local search's assumption that the position
    /// searched was made by the opponent of whoever moves first.
    pub fn with_start_created_by(mut self, colour: Colour) -> Game {
        if self.history.len == 1 {
            let start = &self.history.last.seen;
            self.history = History::new(Seen {
                by: Some(colour),
                ..start.clone()
            });
        }
        self
    }

    /// The same game with the stones marked safe immortal again (the frame
    /// of a diagram of a region, as in the local search): for playing a
    /// region out on a game whose walls are assumed alive
    /// ([`super::fight`]).
    pub fn with_frames(mut self) -> Game {
        for (p, m) in self.marks.iter().enumerate() {
            self.position.frame[p] = *m == Some(Status::Safe);
        }
        self.census = Rc::new(OnceCell::new());
        self
    }

    /// The one judge of a move in a game (module docs of `korules`).
    fn judge(&self, colour: Colour, play: Play) -> Result<Game, IllegalMove> {
        if colour != self.to_move {
            return Err(IllegalMove::OutOfTurn(self.to_move));
        }
        let rule = self.rules.ko_rule;
        let mut before = self.position.clone();
        if rule != KoRule::Basic {
            // The other rules decide every repetition, the immediate retake
            // too (the New Ko Rules by their own basic ko rule).
            before.ko_ban = None;
        }
        let point = match play {
            Play::Board(p) => Some(p),
            _ => None,
        };
        let mut next_position = before.play_move(Move { colour, point })?;
        let next_to_move = colour.opponent();
        let mut elsewhere = self.elsewhere;
        if play == Play::Tenuki {
            elsewhere[colour.index()] += 1;
        }
        let mut nkr = NkrState::default();
        let superko = !matches!(rule, KoRule::Basic | KoRule::NoRule | KoRule::NewKoRules);
        if let (Play::Board(_), true) = (play, superko) {
            let hash = board_hash(&next_position.cells);
            let same = |seen: &Seen| {
                seen.elsewhere == elsewhere
                    && seen.hash() == hash
                    && *seen.board == *next_position.cells
            };
            let repeated = match rule {
                KoRule::Basic | KoRule::NoRule | KoRule::NewKoRules => None,
                KoRule::PositionalSuperko => self.history.earliest(same),
                KoRule::SituationalSuperko => self
                    .history
                    .earliest(|seen| same(seen) && seen.to_move == next_to_move),
                KoRule::NaturalSituationalSuperko => self
                    .history
                    .earliest(|seen| same(seen) && seen.by == Some(colour)),
            };
            if let Some(at) = repeated {
                return Err(IllegalMove::Superko {
                    rule,
                    after_move: at,
                });
            }
        }
        // The census of the next board: the same cell when the board does
        // not change (a pass, a tenuki); under the New Ko Rules, updated
        // from this board's (the judge needs both, and the next move this
        // one); else computed when first asked for.
        let mut next_census = Rc::new(OnceCell::new());
        if point.is_none() {
            next_census = self.census.clone();
        }
        if rule == KoRule::NewKoRules {
            // The board before the opponent's last move, when it was a board
            // play (for the basic ko rule).
            let two_back = self.two_back(colour);
            let now = self.census();
            let after = match point {
                Some(p) => Rc::new(census_after_play(&now, &before, &next_position, p)),
                None => now.clone(),
            };
            nkr = korules::judge_nkr(
                &self.nkr,
                &now,
                &after,
                &before,
                &next_position,
                two_back,
                colour,
                play,
                self.elsewhere,
                elsewhere,
            )
            .map_err(|(rule, why)| IllegalMove::NewKoRules { rule, why })?;
            next_census = Rc::new(OnceCell::from(after));
        }
        if rule != KoRule::Basic {
            next_position.ko_ban = None;
        }
        let marks = self
            .marks
            .iter()
            .zip(&next_position.cells)
            .map(|(&m, &c)| if c == Cell::Empty { None } else { m })
            .collect();
        let mut history = self.history.clone();
        history.push(
            Seen {
                board: next_position.cells.clone().into(),
                hash: OnceCell::new(),
                to_move: next_to_move,
                by: point.map(|_| colour),
                elsewhere,
            },
            Move { colour, point },
        );
        Ok(Game {
            position: next_position,
            to_move: next_to_move,
            komi: self.komi.clone(),
            rules: self.rules,
            marks,
            history,
            start: self.start.clone(),
            elsewhere,
            nkr,
            census: next_census,
            nopass: self.nopass.clone(),
            moves_before_start: self.moves_before_start,
        })
    }

    /// A placement under no-pass rules: rules 3, 4, 5 and 9 of §III
    /// (whole-game positional superko from the start), captures to the
    /// mover's bowl.
    fn place_nopass(&self, state: &NoPassState, mv: Move) -> Result<Game, IllegalMove> {
        let brk = |b: RuleBreak| IllegalMove::NoPass(b);
        if let Some(e) = state.ended {
            return Err(brk(RuleBreak::GameOver(e)));
        }
        if mv.colour != self.to_move {
            return Err(brk(RuleBreak::OutOfTurn(self.to_move)));
        }
        if mv.point.is_none() {
            return Err(brk(RuleBreak::Pass));
        }
        let mut before = self.position.clone();
        before.ko_ban = None;
        let mut next_position = before.play_move(mv).map_err(|e| match e {
            IllegalMove::Occupied => brk(RuleBreak::Occupied),
            IllegalMove::Suicide => brk(RuleBreak::Surrounded),
            other => other,
        })?;
        next_position.ko_ban = None;
        let hash = board_hash(&next_position.cells);
        if let Some(at) = self
            .history
            .earliest(|seen| seen.hash() == hash && *seen.board == *next_position.cells)
        {
            return Err(brk(RuleBreak::Repeated { after_move: at }));
        }
        let captured = next_position.prisoners(mv.colour) - self.position.prisoners(mv.colour);
        let state = state.after_placement(mv.colour, captured).map_err(brk)?;
        let mut next = self.clone();
        next.marks = self
            .marks
            .iter()
            .zip(&next_position.cells)
            .map(|(&m, &c)| if c == Cell::Empty { None } else { m })
            .collect();
        next.history.push(
            Seen {
                board: next_position.cells.clone().into(),
                hash: OnceCell::new(),
                to_move: mv.colour.opponent(),
                by: Some(mv.colour),
                elsewhere: self.elsewhere,
            },
            mv,
        );
        next.position = next_position;
        next.census = Rc::new(OnceCell::new());
        next.to_move = mv.colour.opponent();
        next.nopass = Some(state);
        Ok(next)
    }

    /// A move that is not a placement (§III rules 6, 8, 9): a delay, the
    /// ultimate delay, a draw declaration or a resignation by `colour`. A
    /// delay is recorded in the moves as a pass (in SGF, say).
    pub fn act(&self, colour: Colour, m: Special) -> Result<Game, IllegalMove> {
        let Some(state) = &self.nopass else {
            return Err(IllegalMove::NotAMoveHere {
                word: m,
                rules: Some(self.rules.describe()),
            });
        };
        if let Some(e) = state.ended {
            return Err(IllegalMove::NoPass(RuleBreak::GameOver(e)));
        }
        if colour != self.to_move {
            return Err(IllegalMove::NoPass(RuleBreak::OutOfTurn(self.to_move)));
        }
        let state = state.after(colour, m).map_err(IllegalMove::NoPass)?;
        let mut next = self.clone();
        next.nopass = Some(state);
        if matches!(m, Special::Delay | Special::Ultimate) {
            next.history.push(
                Seen {
                    board: self.position.cells.clone().into(),
                    hash: OnceCell::new(),
                    to_move: colour.opponent(),
                    by: None,
                    elsewhere: self.elsewhere,
                },
                Move {
                    colour,
                    point: None,
                },
            );
            next.to_move = colour.opponent();
        }
        Ok(next)
    }

    /// How the game ended, under no-pass rules.
    pub fn ending(&self) -> Option<Ending> {
        self.nopass.as_ref().and_then(|s| s.ended)
    }

    /// The board with coordinates around it, then who is to move, the
    /// prisoners, komi and the rules. Stones marked safe print uppercase
    /// (`X` / `O`, as in a diagram), others lowercase; marked dead stones are
    /// listed below the board.
    pub fn render(&self, style: super::Style) -> String {
        let pos = &self.position;
        let (width, height) = (pos.width(), pos.height());
        let mut shown = pos.clone();
        for (p, m) in self.marks.iter().enumerate() {
            shown.frame[p] = *m == Some(Status::Safe);
        }
        let header: String = (0..width)
            .map(|c| format!(" {}", super::coords::column_letter(c)))
            .collect();
        let mut out = format!("   {}\n", header.trim_start());
        for (r, row) in shown.diagram(style).lines().enumerate() {
            let number = height - r;
            out.push_str(&format!("{number:>2} {row} {number}\n"));
        }
        out.push_str(&format!("   {}\n", header.trim_start()));
        let dead: Vec<String> = (0..self.marks.len())
            .filter(|&p| self.marks[p] == Some(Status::Dead))
            .map(|p| pos.point_name(p))
            .collect();
        if !dead.is_empty() {
            out.push_str(&format!("marked dead: {}\n", dead.join(" ")));
        }
        if let Some(state) = &self.nopass {
            out.push_str(&format!(
                "komi {} · move {}\n",
                format_number(&self.komi),
                self.move_number()
            ));
            out.push_str(&state.render(self.to_move));
            return out;
        }
        out.push_str(&format!(
            "{} to move · captures: Black {}, White {} · komi {} · {} · move {}\n",
            self.to_move,
            pos.prisoners(Colour::Black),
            pos.prisoners(Colour::White),
            format_number(&self.komi),
            self.rules.describe(),
            self.move_number(),
        ));
        if let Some((colour, p)) = pos.ko_ban() {
            out.push_str(&format!(
                "ko: {} may not retake at {} at once\n",
                colour,
                pos.point_name(p)
            ));
        }
        out
    }
}

/// A rational as Go players write komi: `6.5`, `7`, `-1/3`.
pub fn format_number(x: &BigRational) -> String {
    use num_traits::{One, Signed};
    if x.denom().is_one() {
        return x.numer().to_string();
    }
    let two = num_bigint::BigInt::from(2);
    if *x.denom() == two {
        let whole = x.numer().abs() / &two;
        let sign = if x.is_negative() { "-" } else { "" };
        return format!("{sign}{whole}.5");
    }
    x.to_string()
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(super::Style::Ascii))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{play_game, MoveErrorKind};

    fn game(diagram: &str, ko_rule: KoRule) -> Game {
        let pos = Position::parse(diagram).unwrap();
        let rules = RuleSet {
            scoring: Rules::Japanese,
            ko_rule,
            nopass: None,
        };
        Game::new(
            &pos,
            Colour::Black,
            BigRational::from_integer(0.into()),
            rules,
        )
        .unwrap()
    }

    fn illegal(g: &Game, moves: &str) -> IllegalMove {
        match play_game(g, moves) {
            Err(e) => match e.kind {
                MoveErrorKind::Illegal(why) => why,
                other => panic!("{other:?}"),
            },
            Ok(g) => panic!("legal:\n{g}"),
        }
    }

    // A 4×3 board with an empty point B2 inside Black's stones.
    const KO: &str = "\
. x o .
x . x o
. x o .";

    #[test]
    fn moves_alternate_and_name_board_points() {
        let g = game(KO, KoRule::Basic);
        assert_eq!(illegal(&g, "W A3"), IllegalMove::OutOfTurn(Colour::Black));
        let g2 = play_game(&g, "B B2").unwrap();
        assert_eq!(g2.position().prisoners(Colour::Black), 0);
        assert_eq!(g2.to_move(), Colour::White);
        assert_eq!(g2.moves().len(), 1);
        assert_eq!(g2.position().point_name(g2.moves()[0].point.unwrap()), "B2");
        // SGF letters name the same point.
        let g3 = play_game(&g, "B [bb]").unwrap();
        assert!(g3.same_board(g2.position()));
        assert_eq!(g3.history_len(), 2);
    }

    #[test]
    fn the_ko_rules_forbid_what_they_say() {
        // A plain ko: Black takes at C2, White would retake at B2.
        let ko = "\
. x o .
x o . o
. x o .";
        for rule in [
            KoRule::Basic,
            KoRule::PositionalSuperko,
            KoRule::SituationalSuperko,
        ] {
            let g = game(ko, rule);
            let taken = play_game(&g, "B C2").unwrap();
            assert_eq!(taken.position().prisoners(Colour::Black), 1, "{rule:?}");
            let why = illegal(&taken, "W B2");
            match rule {
                KoRule::Basic => assert_eq!(why, IllegalMove::KoBan),
                _ => assert_eq!(
                    why,
                    IllegalMove::Superko {
                        rule,
                        after_move: 0
                    }
                ),
            }
            // After two passes the retake is legal under the basic rule, and
            // still a repetition under positional superko (the board would
            // be the start's); situational superko also forbids it, since it
            // would again be Black's turn on that board.
            let later = play_game(&taken, "W pass, B pass").unwrap();
            let retake = play_game(&later, "W B2");
            match rule {
                KoRule::Basic => assert!(retake.is_ok()),
                _ => assert!(retake.is_err(), "{rule:?}"),
            }
        }
    }

    #[test]
    fn situational_superko_allows_the_same_board_with_the_other_player_to_move() {
        // Black passes: the board repeats with White to move, which is a new
        // situation but not a new board position; no move recreates a board
        // here, so a pass is never refused, and playing on is legal.
        let g = game(KO, KoRule::SituationalSuperko);
        let passed = play_game(&g, "B pass, W pass").unwrap();
        assert_eq!(passed.history_len(), 3);
        assert!(play_game(&passed, "B B2").is_ok());
    }

    /// A move shares the history it was played from: the games before it
    /// are unchanged, the moves come back in order, and a long history is
    /// dropped without a stack frame an entry (200 000 frames would
    /// overflow the test thread's stack).
    #[test]
    fn the_history_is_shared_and_a_long_one_drops() {
        let g = game(KO, KoRule::PositionalSuperko);
        let a = play_game(&g, "B B2").unwrap();
        let b = play_game(&a, "W pass").unwrap();
        let c = play_game(&a, "W D1").unwrap();
        assert_eq!(
            (a.history_len(), b.history_len(), c.history_len()),
            (2, 3, 3)
        );
        assert_eq!(b.moves()[1].point, None);
        assert_eq!(c.position().point_name(c.moves()[1].point.unwrap()), "D1");
        assert_eq!(a.moves().len(), 1);
        let mut long = g.clone();
        for _ in 0..100_000 {
            long = long
                .play(Move {
                    colour: long.to_move(),
                    point: None,
                })
                .unwrap();
        }
        assert_eq!(long.move_count(), 100_000);
        assert_eq!(long.history_boards().count(), 100_001);
        drop(long);
    }

    #[test]
    fn boards_larger_than_nineteen_lines_are_refused() {
        let row = ". ".repeat(20);
        let pos = Position::parse(&row).unwrap();
        let err = Game::new(
            &pos,
            Colour::Black,
            BigRational::from_integer(0.into()),
            RuleSet::default(),
        )
        .unwrap_err();
        assert_eq!(
            err,
            BoardError::TooLarge {
                width: 20,
                height: 1
            }
        );
    }
}
