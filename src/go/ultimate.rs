//! Ultimate Go and Fundamental Go: no-pass Go with prisoner return (Yoav
//! Yaffe, "Analysis of Ultimate Go", Sensei's Library), as rules data
//! consulted by [`super::Game::play`] / [`super::Game::act`], and an exact
//! solver of those rules with the scores of the paper.
//!
//! # The rules (§III), as this module reads them
//!
//! * A move is a *placement* (captured stones go to the mover's *bowl*;
//!   a stone left surrounded is illegal, rule 5; the board may not repeat
//!   any board of the game, the start included: whole-game positional
//!   superko, rule 5) or a *delay* (rule 6: one stone of the mover's bowl
//!   goes back to the opponent). There is no pass (rule 9): a player who
//!   cannot or will not move resigns.
//! * Ultimate Go adds one *ultimate prisoner* per player (rule 3): returning
//!   it is the *ultimate delay*. The player who returns hers second gives
//!   the other (the one who delayed his ultimate prisoner first) the right
//!   to *declare a draw* at any of his turns (rule 8). Fundamental Go has no
//!   ultimate prisoners, so no draws.
//! * [`Version::Original`] is §III as written and **the default**.
//!   [`Version::Simple`] is the "current version" of the remarks: the first
//!   delay of the game must be an ultimate delay, and the second ultimate
//!   delay is allowed only to a player with no regular prisoners. The paper
//!   (§VI) says they make no strategic difference; the tests check that on
//!   many positions (the exact results agree).
//! * Komi (remarks): komi `K` gives White `⌊K⌋` stones in her bowl at the
//!   start, and a half gives her the draws (a draw counts as her win); a
//!   negative komi does the same for Black. Handicap `H` is Black giving
//!   komi `H − 1`, then White delaying on her first `H − 1` turns (those
//!   delays do not count as "the first delay" of the simple version).
//!
//! # The solver ([`Solver`])
//!
//! Minimax over the rules as written: placements, delays, ultimate delays,
//! draw declarations and resignation. Repetition: a state's key holds the
//! boards of the history that could come back, and only those (the rest
//! cannot matter, so the key is exact). A stone whose chain holds a
//! framing stone is never captured, so a history board without it cannot
//! come back. And a history board `B` came before the current board `N`,
//! so it can come back only if `N` can lead back to `B`: both in one
//! strongly connected component of the graph of placements (either colour,
//! any order, superko ignored). The solver finds those components once per
//! root, region by region (the regions the uncapturable stones cut the
//! board into are independent; regions of up to 10 points,
//! [`GoArena::with_recurrence_classes`]). Some early boards of a line are
//! alone in their component (the empty region never comes back: the last
//! capture leaves the capturer's stone), so some lines that differ only in
//! move order meet again; but in an open area most boards lie in one large
//! component, and the gain is modest (BENCHMARKS.md). The solver is for
//! small boards (up to 64 points; a node budget bounds the work).
//!
//! **Komi thresholds.** Under the original rules the bowls matter only by
//! their difference (§IV's "adding one prisoner to each player does not
//! affect the score"; the tests check it against the literal solver), and
//! the outcome is monotone in the komi. So for each goal of Black (an
//! outright win; a draw or better) and each player to move, a node (board,
//! ultimate prisoners, who delayed first, recurring history — no bowls)
//! has a *threshold*: the largest komi `K` (bowls differing by `−K`) at
//! which Black reaches the goal. A search at komi `K` is a win / loss
//! minimax with cut-offs in which a capture of `c` stones shifts `K` by
//! `c` and a delay by one (Black has a stone to return iff `K ≤ −1`, White
//! iff `K ≥ 1`); each answer is kept in the node's entry as a bound on its
//! threshold (`K` reached: threshold ≥ `K`; not: < `K`), so every komi, and
//! every bowl difference met inside the tree, shares one table. Every
//! score is then read off two thresholds found one komi at a time from
//! komi 0. (A single minimax returning the thresholds exactly exists —
//! with `A` and `B` the best non-delay options of Black and of White, the
//! delays give `L = max(A, min(−1, B − 1))` and `R = min(B, max(0, L + 1))`
//! — but it cannot cut off, and it expanded 20 times the states of the old
//! per-komi search on a corridor of four points.) The holder of the draw
//! right reaches "draw or better" at every komi (her threshold is
//! infinite). Under the simple rules an empty bowl decides whether the
//! second ultimate delay is legal, so the bowls stay in the state there and
//! the solver is the literal one: one win / draw / loss minimax per komi.
//!
//! The scores are read off these thresholds (or, in the literal solver,
//! found by a komi search; the outcome is monotone in the stones given to
//! one side, checked by the tests):
//!
//! * [`fundamental_score`] (§IV): with Black winning, `min{K : White wins
//!   with K extra prisoners} − ½`, else `−min{K : Black wins with K} + ½`.
//!   Computed under Fundamental Go with the ultimate prisoners still held
//!   counted as ordinary prisoners ("clearly adding a prisoner to each
//!   player has no effect per se", §VI).
//! * [`ultimate_score`]: with Black winning, `min{K : White draws or wins
//!   with K extra prisoners}`; with White winning, minus the same for Black;
//!   0 for a draw. Where exactly one komi gives a draw (every position before
//!   the second ultimate delay, proved below), it is "the mid-game komi that
//!   makes the game a draw".
//! * [`sente_level`] (§V): the cost of a delay or reverse delay for the
//!   player to move; [`phase`] (§V); [`optimal_moves`] with each move's cost.
//!
//! # The theorem: the scores in terms of the position's value
//!
//! **Theorem 1 (Fundamental Go is normal play on the Japanese value).**
//! Let `G` be the game value of the board under no-pass play with
//! whole-game positional superko from the current board (options: each
//! legal placement, scoring the stones it captures; leaves: the numbers
//! the prisoners make). On a board where no position can repeat this is
//! the Japanese value `value(Q)` of the local search (a short game; with
//! framing stones, settled areas count as Japanese rules count them).
//! Where a capture can be retaken this is not proved: the local search's
//! superko is local to each region, while after a placement elsewhere the
//! whole board is new and a retake legal again. (A counterexample seen
//! earlier, `x . X O . .`, came from a bug of the superko search, which
//! split a region into components; with the region searched whole the
//! formula gives the solver's 3/2 there, and a test pins that.) The
//! property test checks the theorem on boards with no repetition only. Let `d` be Black's bowl minus
//! White's. Then Black, moving first, wins Fundamental Go iff `G + d ⧐ 0`
//! (Left wins moving first), and with White to move Black wins iff
//! `G + d ≥ 0`. Hence
//!
//! * Black to move: `fundamental_score = max{K ∈ ℤ : G + d ⧐ K} + ½`;
//! * White to move: `fundamental_score = min{K ∈ ℤ : G + d ⧏ K} − ½`.
//!
//! So with `x = LS(G + d)` (Black to move) the score is `⌊x⌋ + ½` when `x`
//! is not an integer, and `x + ½` or `x − ½` as `G + d − x ⧐ 0` or not when it
//! is; symmetrically with the Right stop for White.
//!
//! *Argument.* A delay returns one stone, which lowers the mover's count of
//! future delays by one: a bowl of `b` stones is exactly the integer `b`
//! as a normal-play game (`b` free moves), and Black's bowl minus White's
//! is the integer `d` (a stone in each bowl cancels: `1 + (−1) = 0`, which
//! is the paper's "adding one prisoner to each player does not affect the
//! score"). A placement capturing `c` stones adds `c` free moves: the
//! option `c + G'`. The player who cannot move resigns: normal play. A
//! delay does not change the board, so the history (positional superko)
//! is the same after it; the local search's superko value lets a player
//! move twice in the board when the other plays elsewhere, which is what a
//! delay is. So the game is the normal-play sum `G + d` and the rest is
//! the definition of ⧐ and of the score (komi `K` for White is `−K` added
//! to `d`). The stop form is the usual relation of outcomes to stops. The
//! property tests check it against the literal solver on random boards,
//! with and without framing stones, both players first, several bowls.
//!
//! **Theorem 2 (Ultimate Go after the first ultimate delay).** Let F be the
//! player who delayed his ultimate prisoner first and S the other, and let
//! `s` be the Fundamental Go score counting S's ultimate prisoner (if he
//! still holds it) as an ordinary prisoner. If S still holds it, then with
//! F = Black: Black wins iff `s ≥ ½`, it is a draw iff `s = −½`, White wins
//! iff `s ≤ −3/2`; so `ultimate_score = s + ½` (and `s − ½` with F =
//! White).
//! After S's ultimate delay, F wins iff he wins Fundamental Go, else it is
//! a draw: every komi that lets F lose Fundamental Go draws, so the draw
//! komi is not unique there.
//!
//! *Argument.* After the second ultimate delay F may declare a draw at
//! every turn, so S can never win, and F wins exactly when he wins without
//! the option. Before it, S wins iff he wins without ever using his
//! ultimate prisoner (using it hands F the draw): Fundamental Go without
//! that stone, score `s + 1` for F = Black, a White win iff `s + 1 ≤ −½`.
//! F wins iff he wins Fundamental Go against S's extra stone (`s ≥ ½`):
//! the draw right never hurts F. Otherwise S avoids losing only by using
//! the stone, and F then holds a draw. Checked by the tests against the
//! solver.
//!
//! **Theorem 3 (Ultimate Go before any ultimate delay).** Let `H` be the
//! position as a Fundamental Go game (normal play; by Theorem 1 `H = G +
//! d` where no position can repeat), the ultimate prisoners aside (one
//! each: they cancel), under the original rules. Then, counting a draw as
//! Black's win, the outcome of Ultimate Go is that of the normal-play game
//! `H + ½`, and counting it as White's win that of `H − ½`. Hence
//!
//! * Black to move: `ultimate_score = max{k ∈ ℤ : H + ½ ⧐ k}`;
//! * White to move: `ultimate_score = max{k ∈ ℤ : H + ½ ≥ k}`;
//!
//! the game is a draw exactly when `H + ½` wins for Black (with the player
//! to move) and `H − ½` does not, and the draw komi is unique. In stops
//! (Black to move, `x = LS(H) + ½`): the score is `⌊x⌋` when `x` is not an
//! integer, else `x` or `x − 1` as `H + ½ − x ⧐ 0` or not; with White to
//! move the same with the Right stop and `≥`. With the Fundamental Go
//! score `f = max{K : H ⧐ K} + ½` (Black to move), `ultimate_score` is
//! `f − ½` or `f + ½`.
//!
//! *Proof.* Count draws as Black's wins. After Black's first ultimate
//! delay, Theorem 2 (F = Black, White holding hers, `s` the score of
//! `H − 1`) says Black wins or draws iff `s ≥ −½`, i.e. iff Black wins
//! `H` (at every node below, whoever is to move): the game has become
//! `H + 0`. After White's first ultimate delay (F = White, Black holding
//! his, `s` the score of `H + 1`), Theorem 2 with the colours exchanged
//! says White wins iff `s ≤ −½`, a draw iff `s = ½`: Black reaches a draw
//! or better iff `s ≥ ½`, i.e. iff Black wins `H + 1`: the game has
//! become `H + 1`.
//! A delay changes no board, so the history and `H` are the same after it.
//! So, by induction on the length of the game, the game before any
//! ultimate delay has the outcomes of `H + U` with `U = {0 | 1}`: Black's
//! options are her options in `H` (the ultimate prisoners still held) and
//! `H + 0`; White's, hers in `H` and `H + 1`. And `{0 | 1} = ½` (the
//! simplest number between), and equal games have equal outcomes in
//! every sum. With draws counted as White's wins, Black's ultimate delay
//! leads to `H − 1` (he wins iff `s ≥ ½`, `s` the score of `H − 1`) and
//! White's to `H + 0`: `U = {−1 | 0} = −½`. The score is the komi `k`
//! where Black still draws (`H + ½ − k` wins) and no longer wins (`H − ½ −
//! k` does not): since `H − ½ − k ⧐ 0` iff `H + ½ − (k + 1) ⧐ 0`, that `k`
//! is the largest with `H + ½ − k` a win for Black, and there is exactly
//! one. ∎
//!
//! The first guess — the ultimate delay as a button `{½ | −½}` taken by
//! whoever delays first — is wrong: the first delayer gains nothing, the
//! second pays a point, and the draw goes to one side; the button gives
//! 1 where the solver gives 2 on `. X O x . / O X X . O`, Black to move,
//! Black two stones ahead (a test pins both, and Theorem 3's 2). The tests
//! check Theorem 3 against the solver on random boards with no repetition,
//! both players first, several komis, under both versions of the rules,
//! on sums of separate regions on one board (the formula applied to
//! the sum of the regions' values), and on abstract sums: the rules played
//! on sums of random game trees with captures and of random canonical
//! games ([`trees`], where the choice of what an abstract Ultimate Go
//! position is is written down), with Theorems 1 and 2 and the simple
//! version.
//!
//! Checked by the tests on random boards: the Ultimate Go score is always
//! one of the two integers next to the Fundamental Go score (so the draw
//! option changes the winner only at |score| = ½, as §VI says), and the
//! draw komi is unique before the second ultimate delay.
//!
//! **§VI on the second ultimate delay.** "A player should do that only if
//! it's her unique optimal move": true in the sense that whenever it is not
//! her unique optimal move of §IV (a free delay, every placement costing a
//! point or more, no regular prisoner), another move gives her as good an
//! Ultimate Go score; by Theorem 2 a cost-0 placement or a regular delay
//! keeps the score `s ± ½`, and the second ultimate delay can only give
//! the other the draw. "The result will thus be either a win for her
//! opponent (if he has at least one optimal move), or a draw (if he has
//! none)": the either/or is Theorem 2, but the condition is false — on
//! the abstract game `{−1 | 2}` the opponent has an optimal move after it
//! and the result is a draw, because he loses Fundamental Go by ½ (a
//! test pins it; none was found on small boards).

use super::position::{Cell, Colour, Position};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// With or without ultimate prisoners.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    /// No ultimate prisoners, hence no draws (§III remarks).
    Fundamental,
    /// One ultimate prisoner each, and the draw right of rule 8.
    Ultimate,
}

/// Which version of the rules of §III.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub enum Version {
    /// §III as written (the default).
    #[default]
    Original,
    /// The "current (and simpler) version": the first delay must be the
    /// ultimate one, and the second ultimate delay needs an empty bowl.
    Simple,
}

/// The rules of a no-pass game: a value consulted by the move judge.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct NoPassRules {
    pub variant: Variant,
    pub version: Version,
}

impl NoPassRules {
    pub fn describe(&self) -> String {
        let name = match self.variant {
            Variant::Fundamental => "fundamental go",
            Variant::Ultimate => "ultimate go",
        };
        match (self.variant, self.version) {
            (Variant::Fundamental, _) => name.to_string(),
            (_, Version::Original) => format!("{name} (original rules)"),
            (_, Version::Simple) => format!("{name} (simple rules)"),
        }
    }
}

/// A move other than a placement.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Special {
    /// Return one prisoner from the bowl (rule 6).
    Delay,
    /// Return the ultimate prisoner (rule 6).
    Ultimate,
    /// Declare a draw (rule 8, 9).
    Draw,
    /// Resign (rule 9).
    Resign,
}

impl Special {
    pub fn word(self) -> &'static str {
        match self {
            Special::Delay => "delay",
            Special::Ultimate => "ultimate",
            Special::Draw => "draw",
            Special::Resign => "resign",
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Ending {
    Draw,
    /// This player resigned.
    Resigned(Colour),
}

/// A move that breaks a rule of §III (or of the simple version).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuleBreak {
    OutOfTurn(Colour),
    Occupied,
    /// The placed stone would be surrounded.
    Surrounded,
    /// The board would repeat the one after move `after_move` (0: the start).
    Repeated {
        after_move: usize,
    },
    Pass,
    EmptyBowl,
    NoUltimatePrisoner,
    NoDrawRight,
    GameOver(Ending),
    FirstDelayNotUltimate,
    SecondUltimateWithPrisoners(u32),
    HandicapDelay,
    /// A delay, draw or resignation in a game that is not played under
    /// no-pass rules.
    NotNoPass(Special),
}

impl RuleBreak {
    /// The rule broken, as the paper numbers it.
    pub fn rule(&self) -> &'static str {
        match self {
            RuleBreak::OutOfTurn(_) => "rule 3",
            RuleBreak::Occupied => "rule 4",
            RuleBreak::Surrounded | RuleBreak::Repeated { .. } => "rule 5",
            RuleBreak::EmptyBowl | RuleBreak::NoUltimatePrisoner => "rule 6",
            RuleBreak::NoDrawRight => "rule 8",
            RuleBreak::Pass | RuleBreak::GameOver(_) => "rule 9",
            RuleBreak::FirstDelayNotUltimate | RuleBreak::SecondUltimateWithPrisoners(_) => {
                "the simple version's rule"
            }
            RuleBreak::HandicapDelay => "the handicap remark",
            RuleBreak::NotNoPass(_) => "rule 6",
        }
    }
}

impl fmt::Display for RuleBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of Ultimate Go: ", self.rule())?;
        match self {
            RuleBreak::OutOfTurn(c) => write!(f, "players move alternately; it is {c}'s turn"),
            RuleBreak::Occupied => write!(f, "a placement needs an empty intersection"),
            RuleBreak::Surrounded => write!(
                f,
                "the placed stone would be surrounded (captures nothing and has no liberty)"
            ),
            RuleBreak::Repeated { after_move: 0 } => {
                write!(f, "the board would repeat the board at the start")
            }
            RuleBreak::Repeated { after_move } => {
                write!(f, "the board would repeat the board after move {after_move}")
            }
            RuleBreak::Pass => write!(
                f,
                "there is no pass: move (a placement or a delay), declare a draw, or resign"
            ),
            RuleBreak::EmptyBowl => write!(f, "a delay returns a prisoner, and the bowl is empty"),
            RuleBreak::NoUltimatePrisoner => {
                write!(f, "the ultimate prisoner has already been returned (or there is none)")
            }
            RuleBreak::NoDrawRight => write!(
                f,
                "only the player whose opponent played the second ultimate delay may declare a draw"
            ),
            RuleBreak::GameOver(Ending::Draw) => write!(f, "the game has ended in a draw"),
            RuleBreak::GameOver(Ending::Resigned(c)) => {
                write!(f, "the game has ended: {c} resigned")
            }
            RuleBreak::FirstDelayNotUltimate => {
                write!(f, "the first delay of the game must be an ultimate delay")
            }
            RuleBreak::SecondUltimateWithPrisoners(n) => write!(
                f,
                "the second ultimate delay is allowed only with no regular prisoners ({n} in the bowl)"
            ),
            RuleBreak::HandicapDelay => {
                write!(f, "White must delay on each of her first handicap turns")
            }
            RuleBreak::NotNoPass(m) => write!(
                f,
                "`{}` is a move of Ultimate and Fundamental Go only; this game is played under other rules (make it with `game(G, rules: ultimate)`)",
                m.word()
            ),
        }
    }
}

/// The bowls and ultimate prisoners of a game in progress, and how it
/// ended. Part of a [`super::Game`] played under [`NoPassRules`].
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct NoPassState {
    pub rules: NoPassRules,
    /// Stones in Black's (0) and White's (1) bowl.
    pub bowls: [u32; 2],
    /// Whether each player still holds her ultimate prisoner.
    pub ultimate: [bool; 2],
    /// The player who returned her ultimate prisoner first.
    pub first_ultimate: Option<Colour>,
    /// Delays played so far (handicap delays excluded).
    pub delays: u32,
    /// Handicap delays White still owes.
    pub handicap_delays: u32,
    /// Komi ½: a draw counts as this player's win.
    pub draw_wins_for: Option<Colour>,
    pub ended: Option<Ending>,
}

/// Why komi or handicap cannot be given as §III says.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum KomiError {
    NotHalfInteger(String),
    Handicap(i64),
}

impl fmt::Display for KomiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KomiError::NotHalfInteger(k) => write!(
                f,
                "komi in Ultimate Go is whole stones, plus ½ for the draws; {k} is neither"
            ),
            KomiError::Handicap(h) => write!(f, "a handicap is 2 or more stones, not {h}"),
        }
    }
}

impl NoPassState {
    /// The state at the start of a game with `komi` (`num / den` with den 1
    /// or 2) and `handicap` (0: none).
    pub fn new(
        rules: NoPassRules,
        komi: &num_rational::BigRational,
        handicap: u32,
    ) -> Result<NoPassState, KomiError> {
        use num_traits::{Signed, ToPrimitive};
        let twice = komi * num_rational::BigRational::from_integer(2.into());
        if !twice.is_integer() {
            return Err(KomiError::NotHalfInteger(komi.to_string()));
        }
        let twice = twice
            .to_integer()
            .to_i64()
            .ok_or_else(|| KomiError::NotHalfInteger(komi.to_string()))?;
        let whole = (twice.abs() / 2) as u32;
        let half = twice.abs() % 2 == 1;
        let mut bowls = [0, 0];
        let receiver = if komi.is_negative() {
            Colour::Black
        } else {
            Colour::White
        };
        bowls[receiver.index()] += whole;
        if handicap == 1 {
            return Err(KomiError::Handicap(1));
        }
        let handicap_delays = handicap.saturating_sub(1);
        bowls[Colour::White.index()] += handicap_delays;
        let held = rules.variant == Variant::Ultimate;
        Ok(NoPassState {
            rules,
            bowls,
            ultimate: [held, held],
            first_ultimate: None,
            delays: 0,
            handicap_delays,
            draw_wins_for: half.then_some(receiver),
            ended: None,
        })
    }

    /// The player who may declare a draw (rule 8): the one who delayed his
    /// ultimate prisoner first, once the other has delayed hers.
    pub fn draw_right(&self) -> Option<Colour> {
        let first = self.first_ultimate?;
        (!self.ultimate[first.opponent().index()]).then_some(first)
    }

    /// Whether `colour` may play the special move `m` now (placements are
    /// judged by the board).
    pub fn check(&self, colour: Colour, m: Special) -> Result<(), RuleBreak> {
        if let Some(e) = self.ended {
            return Err(RuleBreak::GameOver(e));
        }
        let me = colour.index();
        if self.handicap_delays > 0 && colour == Colour::White && m != Special::Delay {
            if m != Special::Resign {
                return Err(RuleBreak::HandicapDelay);
            }
        }
        match m {
            Special::Delay => {
                if self.bowls[me] == 0 {
                    return Err(RuleBreak::EmptyBowl);
                }
                if self.handicap_delays == 0
                    && self.rules.version == Version::Simple
                    && self.rules.variant == Variant::Ultimate
                    && self.first_ultimate.is_none()
                {
                    return Err(RuleBreak::FirstDelayNotUltimate);
                }
            }
            Special::Ultimate => {
                if !self.ultimate[me] {
                    return Err(RuleBreak::NoUltimatePrisoner);
                }
                let second = self.first_ultimate.is_some();
                if second && self.rules.version == Version::Simple && self.bowls[me] > 0 {
                    return Err(RuleBreak::SecondUltimateWithPrisoners(self.bowls[me]));
                }
            }
            Special::Draw => {
                if self.draw_right() != Some(colour) {
                    return Err(RuleBreak::NoDrawRight);
                }
            }
            Special::Resign => {}
        }
        Ok(())
    }

    /// The state after `colour` plays the special move `m` (checked first).
    pub fn after(&self, colour: Colour, m: Special) -> Result<NoPassState, RuleBreak> {
        self.check(colour, m)?;
        let mut next = self.clone();
        let me = colour.index();
        match m {
            Special::Delay => {
                next.bowls[me] -= 1;
                if self.handicap_delays > 0 && colour == Colour::White {
                    next.handicap_delays -= 1;
                } else {
                    next.delays += 1;
                }
            }
            Special::Ultimate => {
                next.ultimate[me] = false;
                next.first_ultimate = next.first_ultimate.or(Some(colour));
                next.delays += 1;
            }
            Special::Draw => next.ended = Some(Ending::Draw),
            Special::Resign => next.ended = Some(Ending::Resigned(colour)),
        }
        Ok(next)
    }

    /// A placement by `colour` that captured `captured` stones; the handicap
    /// remark forbids White placements while she owes delays.
    pub fn after_placement(&self, colour: Colour, captured: u32) -> Result<NoPassState, RuleBreak> {
        if let Some(e) = self.ended {
            return Err(RuleBreak::GameOver(e));
        }
        if self.handicap_delays > 0 && colour == Colour::White {
            return Err(RuleBreak::HandicapDelay);
        }
        let mut next = self.clone();
        next.bowls[colour.index()] += captured;
        Ok(next)
    }

    /// The winner so far (`None`: a draw or not over), draws counted as the
    /// half-komi says.
    pub fn winner(&self) -> Option<Colour> {
        match self.ended? {
            Ending::Resigned(c) => Some(c.opponent()),
            Ending::Draw => self.draw_wins_for,
        }
    }

    /// The lines a game prints under its board.
    pub fn render(&self, to_move: Colour) -> String {
        let mut out = format!(
            "{} · bowls: Black {}, White {}\n",
            self.rules.describe(),
            self.bowls[0],
            self.bowls[1]
        );
        if self.rules.variant == Variant::Ultimate {
            let held = |c: Colour| {
                if self.ultimate[c.index()] {
                    "held".to_string()
                } else if self.first_ultimate == Some(c) {
                    "returned first".to_string()
                } else {
                    "returned second".to_string()
                }
            };
            out.push_str(&format!(
                "ultimate prisoners: Black {}, White {} · draw right: {}\n",
                held(Colour::Black),
                held(Colour::White),
                self.draw_right().map_or("nobody".into(), |c| c.to_string())
            ));
        }
        if let Some(c) = self.draw_wins_for {
            out.push_str(&format!("a draw counts as a win for {c} (komi ½)\n"));
        }
        if self.handicap_delays > 0 {
            out.push_str(&format!(
                "White owes {} handicap delays\n",
                self.handicap_delays
            ));
        }
        match self.ended {
            Some(Ending::Draw) => out.push_str("game over: a draw\n"),
            Some(Ending::Resigned(c)) => {
                out.push_str(&format!("game over: {c} resigned, {} wins\n", c.opponent()))
            }
            None => out.push_str(&format!("{to_move} to move\n")),
        }
        out
    }
}

// ------------------------------------------------------------------ solver

/// Why a solve stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// More states than the budget.
    Budget { nodes: u64, budget: u64 },
    /// Ctrl-C.
    Interrupted,
    /// A board of more than 64 points.
    TooLarge(usize),
    /// The game is over.
    Ended,
    /// White still owes handicap delays (the solver does not model them).
    HandicapPending,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Budget { nodes, budget } => write!(
                f,
                "the Ultimate Go solver gave up after {nodes} states (node budget {budget})"
            ),
            SolveError::Interrupted => write!(f, "interrupted"),
            SolveError::TooLarge(n) => write!(
                f,
                "the exact solver takes boards of at most 64 points; this one has {n}"
            ),
            SolveError::Ended => write!(f, "the game is over"),
            SolveError::HandicapPending => write!(
                f,
                "White still owes handicap delays; play them before asking the solver"
            ),
        }
    }
}

/// What the solver plays on: boards and the placements from them. A board
/// value is what the history records (positional superko compares boards).
pub trait Arena {
    type Board: Copy + Eq + Hash + Ord + fmt::Debug;
    /// Every legal placement of `colour` on `board` (superko aside): the
    /// board after it and the stones it captures.
    fn placements(&self, board: Self::Board, colour: Colour, out: &mut Vec<(Self::Board, u32)>);
    /// Whether `earlier` could be the board again after `now` (a necessary
    /// condition only; boards that cannot recur are left out of the memo
    /// keys, which is what makes transpositions possible).
    fn can_recur(&self, _now: Self::Board, _earlier: Self::Board) -> bool {
        true
    }
    /// The boards of `history` other than `now` that could come back
    /// ([`Arena::can_recur`]), appended to `out`.
    fn recurring(&self, now: Self::Board, history: &[Self::Board], out: &mut Vec<Self::Board>) {
        out.extend(
            history
                .iter()
                .copied()
                .filter(|&b| b != now && self.can_recur(now, b)),
        );
    }
}

/// A small Go board as an [`Arena`]: 2 bits a point in a `u128`, framing
/// stones (immortal, as in a diagram) in a mask. Chains are found with bit
/// masks (a board has at most 64 points).
#[derive(Clone, Debug)]
pub struct GoArena {
    n: usize,
    /// The neighbours of each point, as a mask.
    neighbours: Vec<u64>,
    immortal: u64,
    /// Which boards can lead back to which ([`GoArena::with_recurrence_classes`]).
    classes: Option<Arc<RecurClasses>>,
}

/// The regions of a board up to [`RECUR_CLASS_POINTS`] points each, and
/// for each the strongly connected component of every state of the region
/// reachable from the root (module docs, "Repetition").
#[derive(Debug, Default)]
struct RecurClasses {
    /// The region's points (2 bits a point, as in a board code), the root
    /// board, and the component of each reachable state (the board with
    /// the root's cells outside the region).
    regions: Vec<(u128, BoardCode, FxHashMap<BoardCode, u32>)>,
}

/// The largest region whose states are enumerated for the recurrence
/// classes: 3^10 = 59 049 states at most (a twelve-point region took 0.75 s
/// and 57 MB to enumerate, more than the solves the classes can still
/// help: open areas with captures are out of reach from about 8 points).
pub const RECUR_CLASS_POINTS: u32 = 10;

/// The code of a board: point `p` holds `(code >> 2p) & 3`: 0 empty, 1
/// Black, 2 White.
pub type BoardCode = u128;

fn cell_at(code: BoardCode, p: usize) -> u8 {
    ((code >> (2 * p)) & 3) as u8
}

fn with_cell(code: BoardCode, p: usize, v: u8) -> BoardCode {
    (code & !(3u128 << (2 * p))) | ((v as u128) << (2 * p))
}

fn colour_code(c: Colour) -> u8 {
    match c {
        Colour::Black => 1,
        Colour::White => 2,
    }
}

/// The even bits of `x`, packed: bit `2p` of `x` becomes bit `p`.
fn even_bits(x: u128) -> u64 {
    let mut x = x & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333_3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    x = (x | (x >> 8)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    x = (x | (x >> 16)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    x = (x | (x >> 32)) & 0x0000_0000_0000_0000_ffff_ffff_ffff_ffff;
    x as u64
}

/// The inverse of [`even_bits`]: bit `p` becomes bit `2p`.
fn spread(x: u64) -> u128 {
    let mut x = x as u128;
    x = (x | (x << 32)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333_3333_3333_3333_3333;
    x = (x | (x << 1)) & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    x
}

/// The points of a mask, lowest first.
fn points(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            p
        })
    })
}

impl GoArena {
    /// The arena of a position's rectangle and the code of its board.
    pub fn of(pos: &Position) -> Result<(GoArena, BoardCode), SolveError> {
        let n = pos.cells_len();
        if n > 64 {
            return Err(SolveError::TooLarge(n));
        }
        let neighbours = (0..n)
            .map(|p| pos.neighbours(p).fold(0u64, |m, q| m | 1 << q))
            .collect();
        let mut immortal = 0u64;
        let mut code = 0;
        for p in 0..n {
            if let Cell::Stone(c) = pos.cell(p) {
                code = with_cell(code, p, colour_code(c));
                if pos.is_frame(p) {
                    immortal |= 1 << p;
                }
            }
        }
        Ok((
            GoArena {
                n,
                neighbours,
                immortal,
                classes: None,
            },
            code,
        ))
    }

    /// The code of the cells of `pos` (same rectangle).
    pub fn code(&self, pos: &Position) -> BoardCode {
        let mut code = 0;
        for p in 0..self.n {
            if let Cell::Stone(c) = pos.cell(p) {
                code = with_cell(code, p, colour_code(c));
            }
        }
        code
    }

    /// Every point of the board, as a mask.
    fn all(&self) -> u64 {
        if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// The number of empty points of a board.
    pub fn empty_points(&self, code: BoardCode) -> usize {
        let (b, w) = (even_bits(code), even_bits(code >> 1));
        (self.all() & !(b | w)).count_ones() as usize
    }

    /// The points next to a mask's points.
    fn around(&self, m: u64) -> u64 {
        points(m).fold(0, |a, p| a | self.neighbours[p])
    }

    /// The stones of `same` connected to `seed` (a mask within `same`).
    fn flood(&self, seed: u64, same: u64) -> u64 {
        let (mut chain, mut frontier) = (seed, seed);
        while frontier != 0 {
            let next = self.around(frontier) & same & !chain;
            chain |= next;
            frontier = next;
        }
        chain
    }

    /// The placement of `colour` at `p`, if legal (empty point, not left
    /// surrounded): the board after it and the stones captured.
    pub fn place(&self, code: BoardCode, p: usize, colour: Colour) -> Option<(BoardCode, u32)> {
        if cell_at(code, p) != 0 {
            return None;
        }
        let (black, white) = (even_bits(code), even_bits(code >> 1));
        let (mut mine, theirs) = match colour {
            Colour::Black => (black, white),
            Colour::White => (white, black),
        };
        mine |= 1 << p;
        let mut empty = self.all() & !(mine | theirs);
        let mut captured = 0u64;
        let mut seen = 0u64;
        for q in points(self.neighbours[p] & theirs) {
            if seen & (1 << q) != 0 {
                continue;
            }
            let chain = self.flood(1 << q, theirs);
            seen |= chain;
            if chain & self.immortal == 0 && self.around(chain) & empty == 0 {
                captured |= chain;
            }
        }
        empty |= captured;
        let own = self.flood(1 << p, mine);
        if own & self.immortal == 0 && self.around(own) & empty == 0 {
            return None;
        }
        let next = with_cell(code & !(spread(captured) * 3), p, colour_code(colour));
        Some((next, captured.count_ones()))
    }

    /// The point where `after` has a stone of `colour` that `before` lacks
    /// (the point of a placement).
    pub fn placed_point(&self, before: BoardCode, after: BoardCode, colour: Colour) -> usize {
        (0..self.n)
            .find(|&p| cell_at(before, p) == 0 && cell_at(after, p) == colour_code(colour))
            .unwrap_or(0)
    }

    /// The stones of `code` whose chains hold a framing stone: never
    /// captured, so they never leave the board.
    fn fixed(&self, code: BoardCode) -> u64 {
        let (black, white) = (even_bits(code), even_bits(code >> 1));
        self.flood(self.immortal & black, black) | self.flood(self.immortal & white, white)
    }

    /// The arena with the recurrence classes of `root` (module docs,
    /// "Repetition"): the board is cut into regions by the stones that can
    /// never be captured (chains holding a framing stone); a placement in
    /// one region changes nothing in another, so the placement graph of the
    /// board (placements of either colour in any order: delays let a player
    /// wait) is the product of the regions' graphs. For each region of at
    /// most [`RECUR_CLASS_POINTS`] points every state reachable from the
    /// root is enumerated and its strongly connected component found
    /// (Tarjan). A board `B` of the history came before the current board
    /// `N`, so `N` is reachable from `B`; `B` can come back only if `B` is
    /// reachable from `N`, i.e. only if in every region the two states lie
    /// in one component. Positional superko only removes edges, so this is
    /// a necessary condition, which is all [`Arena::can_recur`] asks.
    pub fn with_recurrence_classes(mut self, root: BoardCode) -> GoArena {
        let fixed = self.fixed(root);
        let free = self.all() & !fixed;
        let mut left = free;
        let mut classes = RecurClasses::default();
        while left != 0 {
            let region = self.flood(left & left.wrapping_neg(), free);
            left &= !region;
            if region.count_ones() <= RECUR_CLASS_POINTS {
                let comps = self.components(root, region);
                classes.regions.push((spread(region) * 3, root, comps));
            }
        }
        self.classes = Some(Arc::new(classes));
        self
    }

    /// The strongly connected component of every state of `region`
    /// reachable from `root` by placements of either colour inside it
    /// (Tarjan's algorithm, iterative; a component is named by its first
    /// state found).
    fn components(&self, root: BoardCode, region: u64) -> FxHashMap<BoardCode, u32> {
        struct Frame {
            id: u32,
            code: BoardCode,
            /// Points still to try for Black, then for White.
            todo: [u64; 2],
        }
        const OPEN: u32 = u32::MAX;
        let mut id_of: FxHashMap<BoardCode, u32> = FxHashMap::default();
        let (mut low, mut comp): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        let mut stack: Vec<u32> = Vec::new();
        let mut codes: Vec<BoardCode> = Vec::new();
        let empty_in = |code: BoardCode| {
            let (b, w) = (even_bits(code), even_bits(code >> 1));
            region & !(b | w)
        };
        let mut frames = vec![Frame {
            id: 0,
            code: root,
            todo: [empty_in(root); 2],
        }];
        id_of.insert(root, 0);
        low.push(0);
        comp.push(OPEN);
        stack.push(0);
        codes.push(root);
        while let Some(f) = frames.last_mut() {
            let (v, code) = (f.id, f.code);
            let next = if f.todo[0] != 0 {
                let p = f.todo[0].trailing_zeros() as usize;
                f.todo[0] &= f.todo[0] - 1;
                Some(self.place(code, p, Colour::Black))
            } else if f.todo[1] != 0 {
                let p = f.todo[1].trailing_zeros() as usize;
                f.todo[1] &= f.todo[1] - 1;
                Some(self.place(code, p, Colour::White))
            } else {
                None
            };
            match next {
                Some(None) => {}
                Some(Some((succ, _))) => match id_of.get(&succ) {
                    Some(&w) => {
                        if comp[w as usize] == OPEN {
                            low[v as usize] = low[v as usize].min(w);
                        }
                    }
                    None => {
                        let w = codes.len() as u32;
                        id_of.insert(succ, w);
                        low.push(w);
                        comp.push(OPEN);
                        stack.push(w);
                        codes.push(succ);
                        frames.push(Frame {
                            id: w,
                            code: succ,
                            todo: [empty_in(succ); 2],
                        });
                    }
                },
                None => {
                    frames.pop();
                    if low[v as usize] == v {
                        while let Some(w) = stack.pop() {
                            comp[w as usize] = v;
                            if w == v {
                                break;
                            }
                        }
                    }
                    if let Some(parent) = frames.last() {
                        let p = parent.id as usize;
                        low[p] = low[p].min(low[v as usize]);
                    }
                }
            }
        }
        id_of
            .into_iter()
            .map(|(code, id)| (code, comp[id as usize]))
            .collect()
    }

    /// The component of `now` in each region with classes (`None`: not
    /// found, which the root's descendants never are).
    fn classes_of(&self, now: BoardCode) -> Vec<Option<u32>> {
        let Some(classes) = &self.classes else {
            return Vec::new();
        };
        classes
            .regions
            .iter()
            .map(|(mask, root, comps)| comps.get(&((now & mask) | (root & !mask))).copied())
            .collect()
    }

    /// Whether the recurrence classes allow `earlier` to come back after
    /// the board whose [`GoArena::classes_of`] is `now` (true where a
    /// region has no classes).
    fn same_classes(&self, now: &[Option<u32>], earlier: BoardCode) -> bool {
        let Some(classes) = &self.classes else {
            return true;
        };
        classes
            .regions
            .iter()
            .zip(now)
            .all(|((mask, root, comps), &a)| {
                match (a, comps.get(&((earlier & mask) | (root & !mask)))) {
                    (Some(a), Some(&b)) => a == b,
                    // Not reachable from the root: it cannot come back.
                    (Some(_), None) => false,
                    (None, _) => true,
                }
            })
    }
}

impl Arena for GoArena {
    type Board = BoardCode;
    /// A stone that can never be captured never leaves: a board without it
    /// (at its point) cannot come back; nor can a board outside the
    /// recurrence class of the current one ([`GoArena::with_recurrence_classes`]).
    fn can_recur(&self, now: BoardCode, earlier: BoardCode) -> bool {
        let m = spread(self.fixed(now)) * 3;
        now & m == earlier & m && self.same_classes(&self.classes_of(now), earlier)
    }
    fn recurring(&self, now: BoardCode, history: &[BoardCode], out: &mut Vec<BoardCode>) {
        let m = spread(self.fixed(now)) * 3;
        let mut classes = None;
        for &b in history {
            if b != now && now & m == b & m {
                let c = classes.get_or_insert_with(|| self.classes_of(now));
                if self.same_classes(c, b) {
                    out.push(b);
                }
            }
        }
    }
    fn placements(&self, board: BoardCode, colour: Colour, out: &mut Vec<(BoardCode, u32)>) {
        let (b, w) = (even_bits(board), even_bits(board >> 1));
        for p in points(self.all() & !(b | w)) {
            if let Some(m) = self.place(board, p, colour) {
                out.push(m);
            }
        }
    }
}

/// A state of the solver, the history aside.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Situation<B> {
    pub board: B,
    pub to_move: Colour,
    pub bowls: [u32; 2],
    pub ultimate: [bool; 2],
    pub first_ultimate: Option<Colour>,
}

impl<B: Copy> Situation<B> {
    fn draw_right(&self) -> Option<Colour> {
        let first = self.first_ultimate?;
        (!self.ultimate[first.opponent().index()]).then_some(first)
    }

    /// The same situation with `k` stones given to White (`k < 0`: `−k` to
    /// Black) as mid-game komi.
    pub fn with_komi(&self, k: i64) -> Situation<B> {
        let mut s = *self;
        if k >= 0 {
            s.bowls[1] += k as u32;
        } else {
            s.bowls[0] += (-k) as u32;
        }
        s
    }
}

/// A move in a solved line or list: a placement (the board after it) or a
/// special move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum SolverMove<B> {
    Place(B),
    Special(Special),
}

type Key<B> = (Situation<B>, Vec<B>);

/// A node of the threshold search: a situation without the player to move
/// and without the bowls (both are outputs, see [`Thresholds`]), and the
/// history boards that can recur.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct NodeKey<B> {
    board: B,
    variant: Variant,
    ultimate: [bool; 2],
    first_ultimate: Option<Colour>,
    recur: Vec<B>,
}

/// What the threshold search knows of a node: `t[g][p] = (lo, hi)` bounds
/// the *threshold*, the largest komi `K` (stones to White, counted from
/// equal bowls; a negative komi gives stones to Black) at which Black
/// reaches goal `g` with `p` to move (`p` = 0: Black, 1: White). Goal 0:
/// Black wins outright; goal 1: Black draws or wins. Black reaches a goal
/// at every komi up to the threshold and at none above it (monotonicity).
type Thresholds = [[(i32, i32); 2]; 2];

/// An entry of the threshold search's table: the bounds, and for each
/// player to move the option that last decided the node (tried first next
/// time; `u8::MAX`: none yet).
#[derive(Clone, Copy, Debug)]
struct NodeEntry {
    bounds: Thresholds,
    best: [u8; 2],
}

/// "Every komi" in a threshold; real thresholds are below the board size.
const INF: i32 = 1 << 24;

/// `t + c`, leaving the infinite thresholds infinite.
fn shift(t: i32, c: i32) -> i32 {
    if t.abs() >= INF {
        t
    } else {
        t + c
    }
}

/// The exact solver (module docs).
pub struct Solver<A: Arena> {
    pub arena: A,
    pub rules: NoPassRules,
    memo: HashMap<Key<A::Board>, i8>,
    /// The threshold search's table (module docs): every komi at once.
    thresholds_memo: FxHashMap<NodeKey<A::Board>, NodeEntry>,
    pub nodes: u64,
    pub budget: u64,
    interrupt: Option<Arc<AtomicBool>>,
    track_history: bool,
    /// Under the original rules (and Fundamental Go), let only the
    /// difference of the bowls matter (§IV: "the absolute number of
    /// prisoners is irrelevant"), which is what the threshold search needs
    /// (module docs). Not under the simple rules, where an empty bowl
    /// decides whether the second ultimate delay is legal: there, and with
    /// this off, the solver is the literal one (one minimax per komi, the
    /// bowls in the state), which the tests use as the oracle of the
    /// threshold search.
    pub normalise: bool,
}

/// The default node budget of the solver (states).
pub const DEFAULT_BUDGET: u64 = 5_000_000;

impl<A: Arena> Solver<A> {
    /// A solver; `track_history`: whether boards can repeat (false for
    /// abstract game trees, whose boards never recur).
    pub fn new(arena: A, rules: NoPassRules, budget: u64, track_history: bool) -> Solver<A> {
        Solver {
            arena,
            rules,
            memo: HashMap::new(),
            thresholds_memo: FxHashMap::default(),
            nodes: 0,
            budget,
            interrupt: None,
            track_history,
            normalise: true,
        }
    }

    pub fn set_interrupt_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }

    /// The same solver under other rules (the memo is dropped, the position
    /// graph kept).
    pub fn set_rules(&mut self, rules: NoPassRules) {
        if rules != self.rules {
            self.rules = rules;
            self.memo.clear();
        }
    }

    fn tick(&mut self) -> Result<(), SolveError> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(SolveError::Budget {
                nodes: self.nodes,
                budget: self.budget,
            });
        }
        if self.nodes & 0x3ff == 0 {
            if let Some(f) = &self.interrupt {
                if f.load(Ordering::Relaxed) {
                    return Err(SolveError::Interrupted);
                }
            }
        }
        Ok(())
    }

    /// The key of a state: the situation (bowls normalised, see
    /// [`Solver::normalise`]) and the history boards that can recur, sorted
    /// ([`Arena::can_recur`]).
    fn key(&self, s: &Situation<A::Board>, history: &[A::Board]) -> Key<A::Board> {
        let mut s = *s;
        if self.normalise && self.rules.version == Version::Original {
            let m = s.bowls[0].min(s.bowls[1]);
            s.bowls[0] -= m;
            s.bowls[1] -= m;
        }
        if !self.track_history {
            return (s, Vec::new());
        }
        let mut v = Vec::new();
        self.arena.recurring(s.board, history, &mut v);
        v.sort_unstable();
        v.dedup();
        (s, v)
    }

    /// Every legal move of the player to move, with the situation after it
    /// (`None` for a draw declaration or a resignation, which end the game).
    pub fn moves(
        &self,
        s: &Situation<A::Board>,
        history: &[A::Board],
    ) -> Vec<(SolverMove<A::Board>, Option<Situation<A::Board>>, u32)> {
        let me = s.to_move;
        let i = me.index();
        let mut out = Vec::new();
        let mut buf = Vec::new();
        self.arena.placements(s.board, me, &mut buf);
        for (b, c) in buf {
            if self.track_history && history.contains(&b) {
                continue;
            }
            let mut n = *s;
            n.board = b;
            n.bowls[i] += c;
            n.to_move = me.opponent();
            out.push((SolverMove::Place(b), Some(n), c));
        }
        let ultimate = self.rules.variant == Variant::Ultimate;
        let simple = self.rules.version == Version::Simple;
        if s.bowls[i] > 0 && !(ultimate && simple && s.first_ultimate.is_none()) {
            let mut n = *s;
            n.bowls[i] -= 1;
            n.to_move = me.opponent();
            out.push((SolverMove::Special(Special::Delay), Some(n), 0));
        }
        if ultimate && s.ultimate[i] {
            let second = s.first_ultimate.is_some();
            if !(second && simple && s.bowls[i] > 0) {
                let mut n = *s;
                n.ultimate[i] = false;
                n.first_ultimate = n.first_ultimate.or(Some(me));
                n.to_move = me.opponent();
                out.push((SolverMove::Special(Special::Ultimate), Some(n), 0));
            }
        }
        if ultimate && s.draw_right() == Some(me) {
            out.push((SolverMove::Special(Special::Draw), None, 0));
        }
        out.push((SolverMove::Special(Special::Resign), None, 0));
        out
    }

    /// The exact outcome (+1 Black wins, 0 draw, −1 White wins) of the
    /// situation with the given history (every board so far, the current
    /// one included).
    pub fn outcome(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i8, SolveError> {
        match self.komi_thresholds(s, history)? {
            Some([win, draw]) => Ok(if win >= 0 {
                1
            } else if draw >= 0 {
                0
            } else {
                -1
            }),
            None => self.solve(s, history),
        }
    }

    /// Whether the threshold search applies: bowls matter only by their
    /// difference (original rules, or no ultimate prisoners).
    fn by_thresholds(&self) -> bool {
        self.normalise
            && (self.rules.variant == Variant::Fundamental
                || self.rules.version == Version::Original)
    }

    /// For the player to move in `s`: the largest komi (stones to White
    /// from the bowls of `s`; negative: to Black) at which Black wins
    /// outright, and the largest at which she draws or wins (±[`INF`]: at
    /// every komi / at none). `None` where the threshold search does not
    /// apply ([`Solver::by_thresholds`]).
    pub fn komi_thresholds(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<Option<[i32; 2]>, SolveError> {
        if !self.by_thresholds() {
            return Ok(None);
        }
        let d = s.bowls[0] as i32 - s.bowls[1] as i32;
        // Komi 0 from the bowls of `s` is relative komi −d.
        let win = self.threshold(s, 0, -d, history)?;
        let draw = self.threshold(s, 1, if win.abs() < INF { win } else { -d }, history)?;
        Ok(Some([shift(win, d), shift(draw, d)]))
    }

    fn node_key(
        &self,
        board: A::Board,
        ultimate: [bool; 2],
        first_ultimate: Option<Colour>,
        history: &[A::Board],
    ) -> NodeKey<A::Board> {
        let fundamental = self.rules.variant == Variant::Fundamental;
        let mut recur = Vec::new();
        if self.track_history {
            self.arena.recurring(board, history, &mut recur);
            recur.sort_unstable();
            recur.dedup();
        }
        NodeKey {
            board,
            variant: self.rules.variant,
            ultimate: if fundamental { [false; 2] } else { ultimate },
            first_ultimate: if fundamental { None } else { first_ultimate },
            recur,
        }
    }

    /// Whether Black reaches goal `g` (0: an outright win, 1: a draw or
    /// better) with `p` to move (0: Black, 1: White) at relative komi `k`
    /// (bowls differing by `−k`): one win / loss minimax with cut-offs,
    /// whose answers are kept as bounds on the node's threshold, so that
    /// searches at other komis (the komi search, and every delay and
    /// capture inside the tree, which shift the komi) share them.
    #[allow(clippy::too_many_arguments)]
    fn reaches(
        &mut self,
        board: A::Board,
        ultimate: [bool; 2],
        first_ultimate: Option<Colour>,
        p: usize,
        g: usize,
        k: i32,
        history: &mut Vec<A::Board>,
    ) -> Result<bool, SolveError> {
        let key = self.node_key(board, ultimate, first_ultimate, history);
        let (ultimate, first_ultimate) = (key.ultimate, key.first_ultimate);
        let draw_right =
            first_ultimate.and_then(|f| (!ultimate[f.opponent().index()]).then_some(f));
        // The holder of the draw right can end the game drawn at any of
        // her turns, and the other cannot end it but by resigning.
        match (draw_right, g) {
            (Some(Colour::Black), 1) => return Ok(true),
            (Some(Colour::White), 0) => return Ok(false),
            _ => {}
        }
        if let Some(e) = self.thresholds_memo.get(&key) {
            let (lo, hi) = e.bounds[g][p];
            if lo >= k {
                return Ok(true);
            }
            if hi < k {
                return Ok(false);
            }
        }
        self.tick()?;
        let black = p == 0;
        let colour = if black { Colour::Black } else { Colour::White };
        // Black to move reaches the goal iff one of her options does;
        // White to move, iff every one of hers does. `black` is the answer
        // that stops the search. A draw declaration changes nothing here
        // (the goals it decides are answered above), and resigning is a
        // loss for the mover.
        // The options by number: 0 a delay, 1 the ultimate delay, 2 + i
        // the i-th placement. The one that decided this node last time
        // (at another komi or goal) is tried first, then delays, then
        // captures, the largest first, then the other placements.
        let hint = self
            .thresholds_memo
            .get(&key)
            .and_then(|e| (e.best[p] != u8::MAX).then_some(e.best[p] as usize))
            .unwrap_or(usize::MAX);
        let mut placements: Option<Vec<(A::Board, u32)>> = None;
        let mut cut = None;
        let mut order = vec![hint, 0, 1];
        let mut next = 0;
        loop {
            if next == 3 && order.len() == 3 {
                // After the special moves: the placements, captures first.
                let n = match &placements {
                    Some(buf) => buf.len(),
                    None => {
                        let mut buf = Vec::new();
                        self.arena.placements(board, colour, &mut buf);
                        let n = buf.len();
                        placements = Some(buf);
                        n
                    }
                };
                let buf = placements.as_ref().expect("generated");
                let mut pl: Vec<usize> = (0..n).collect();
                pl.sort_by_key(|&i| std::cmp::Reverse(buf[i].1));
                order.extend(pl.into_iter().map(|i| i + 2));
            }
            let Some(&o) = order.get(next) else { break };
            next += 1;
            if o == usize::MAX || (next > 1 && o == hint) {
                continue;
            }
            if o >= 2 && placements.is_none() {
                let mut buf = Vec::new();
                self.arena.placements(board, colour, &mut buf);
                placements = Some(buf);
            }
            let r = match o {
                // A delay: with bowls differing by −k Black has stones iff
                // k ≤ −1, White iff k ≥ 1; a delay moves k by one towards 0.
                0 if black && k <= -1 || !black && k >= 1 => {
                    let kk = if black { k + 1 } else { k - 1 };
                    Some(self.reaches(board, ultimate, first_ultimate, 1 - p, g, kk, history)?)
                }
                1 if self.rules.variant == Variant::Ultimate && ultimate[p] => {
                    let mut u = ultimate;
                    u[p] = false;
                    let f = first_ultimate.or(Some(colour));
                    Some(self.reaches(board, u, f, 1 - p, g, k, history)?)
                }
                0 | 1 => None,
                _ => {
                    let (b, c) = placements.as_ref().expect("generated")[o - 2];
                    if self.track_history && history.contains(&b) {
                        None
                    } else {
                        // Black's capture of c stones is c stones of komi
                        // for her.
                        let kk = if black { k - c as i32 } else { k + c as i32 };
                        history.push(b);
                        let r = self.reaches(b, ultimate, first_ultimate, 1 - p, g, kk, history);
                        history.pop();
                        Some(r?)
                    }
                }
            };
            if r == Some(black) {
                cut = Some(o);
                break;
            }
        }
        let found = cut.is_some();
        let answer = if found { black } else { !black };
        let e = self.thresholds_memo.entry(key).or_insert(NodeEntry {
            bounds: [[(-INF, INF); 2]; 2],
            best: [u8::MAX; 2],
        });
        if let Some(o) = cut {
            e.best[p] = o as u8;
        }
        let (lo, hi) = &mut e.bounds[g][p];
        if answer {
            *lo = (*lo).max(k);
        } else {
            *hi = (*hi).min(k - 1);
        }
        Ok(answer)
    }

    /// The threshold of goal `g` for the player `p` to move (relative komi,
    /// module docs): the largest `k` at which Black reaches the goal,
    /// searched from `start` one komi at a time (the thresholds are
    /// finite except where a draw right decides, which comes first).
    fn threshold(
        &mut self,
        s: &Situation<A::Board>,
        g: usize,
        start: i32,
        history: &mut Vec<A::Board>,
    ) -> Result<i32, SolveError> {
        let (b, u, f, p) = (s.board, s.ultimate, s.first_ultimate, s.to_move.index());
        if self.rules.variant == Variant::Ultimate {
            let right = f.and_then(|f| (!u[f.opponent().index()]).then_some(f));
            match (right, g) {
                (Some(Colour::Black), 1) => return Ok(INF),
                (Some(Colour::White), 0) => return Ok(-INF),
                _ => {}
            }
        }
        let mut k = start;
        if self.reaches(b, u, f, p, g, k, history)? {
            while self.reaches(b, u, f, p, g, k + 1, history)? {
                k += 1;
            }
            Ok(k)
        } else {
            k -= 1;
            while !self.reaches(b, u, f, p, g, k, history)? {
                k -= 1;
            }
            Ok(k)
        }
    }

    fn solve(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i8, SolveError> {
        let key = self.key(s, history);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        self.tick()?;
        let sign: i8 = match s.to_move {
            Colour::Black => 1,
            Colour::White => -1,
        };
        // The best for the mover: her win. Start from resigning (a loss).
        let mut best = -1i8;
        for (m, next, _) in self.moves(s, history) {
            let v = match (m, next) {
                (SolverMove::Special(Special::Draw), _) => 0,
                (SolverMove::Special(Special::Resign), _) => -1,
                (SolverMove::Place(b), Some(n)) => {
                    history.push(b);
                    let r = self.solve(&n, history);
                    history.pop();
                    r? * sign
                }
                (_, Some(n)) => self.solve(&n, history)? * sign,
                (_, None) => -1,
            };
            if v > best {
                best = v;
                if best == 1 {
                    break;
                }
            }
        }
        let v = best * sign;
        self.memo.insert(key, v);
        Ok(v)
    }

    /// The outcome with mid-game komi `k` (stones to White; negative: to
    /// Black).
    pub fn outcome_with_komi(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
        k: i64,
    ) -> Result<i8, SolveError> {
        self.outcome(&s.with_komi(k), history)
    }

    /// The Fundamental Go score of §IV, doubled (an odd integer): `2s`.
    /// Ultimate prisoners still held count as ordinary prisoners.
    pub fn fundamental_score2(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let saved = self.rules;
        self.set_rules(NoPassRules {
            variant: Variant::Fundamental,
            version: saved.version,
        });
        let r = self.fundamental_score2_here(s, history);
        self.set_rules(saved);
        r
    }

    fn fundamental_score2_here(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let mut f = *s;
        for c in 0..2 {
            if f.ultimate[c] {
                f.bowls[c] += 1;
                f.ultimate[c] = false;
            }
        }
        f.first_ultimate = None;
        if let Some([t, _]) = self.komi_thresholds(&f, history)? {
            // Black wins at komi k iff k ≤ t: the score is t + ½.
            return Ok(2 * i64::from(t) + 1);
        }
        let at0 = self.outcome(&f, history)?;
        let mut k = 1i64;
        loop {
            if at0 > 0 {
                if self.outcome_with_komi(&f, history, k)? < 0 {
                    return Ok(2 * k - 1);
                }
            } else if self.outcome_with_komi(&f, history, -k)? > 0 {
                return Ok(-(2 * k - 1));
            }
            k += 1;
        }
    }

    /// The Ultimate Go score: with Black winning, the least komi to White
    /// that gives her a draw or better; with White winning, minus the same
    /// for Black; 0 for a draw. Under Fundamental Go rules it is the
    /// Fundamental Go score rounded away from zero.
    pub fn ultimate_score(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        if let Some([win, draw]) = self.komi_thresholds(s, history)? {
            // Black wins outright at komi k iff k ≤ win, draws or wins iff
            // k ≤ draw.
            return Ok(if win >= 0 {
                i64::from(win) + 1
            } else if draw >= 0 {
                0
            } else {
                i64::from(draw)
            });
        }
        let at0 = self.outcome(s, history)?;
        if at0 == 0 {
            return Ok(0);
        }
        let mut k = 1i64;
        loop {
            if at0 > 0 {
                if self.outcome_with_komi(s, history, k)? <= 0 {
                    return Ok(k);
                }
            } else if self.outcome_with_komi(s, history, -k)? >= 0 {
                return Ok(-k);
            }
            k += 1;
        }
    }

    /// The komis (stones to White, negative to Black) in `range` that make
    /// the result a draw.
    pub fn draw_komis(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Vec<i64>, SolveError> {
        let mut out = Vec::new();
        for k in range {
            if self.outcome_with_komi(s, history, k)? == 0 {
                out.push(k);
            }
        }
        Ok(out)
    }

    /// The Fundamental Go score (doubled) after a delay of the player to
    /// move — or, with an empty bowl, a reverse delay (a stone given to the
    /// opponent): the same board with the other player to move and one
    /// stone fewer for the mover (§V).
    pub fn score2_after_delay(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let mut n = *s;
        let i = s.to_move.index();
        // Count held ultimate prisoners as prisoners (as the score does).
        for c in 0..2 {
            if n.ultimate[c] {
                n.bowls[c] += 1;
                n.ultimate[c] = false;
            }
        }
        n.first_ultimate = None;
        if n.bowls[i] > 0 {
            n.bowls[i] -= 1;
        } else {
            n.bowls[1 - i] += 1;
        }
        n.to_move = s.to_move.opponent();
        self.fundamental_score2(&n, history)
    }

    /// The sente level of §V for the player to move: the cost of a delay or
    /// reverse delay (doubled scores differ by an even number; the level is
    /// an integer ≥ 0).
    pub fn sente_level(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<i64, SolveError> {
        let before = self.fundamental_score2(s, history)?;
        let after = self.score2_after_delay(s, history)?;
        let sign = s.to_move.sign();
        Ok((before - after) * sign / 2)
    }

    /// Each legal move of the player to move (placements, a delay if her
    /// bowl — ultimate prisoner included — is not empty) with its cost in
    /// Fundamental Go (§IV: how much it moves the score against the mover).
    pub fn move_costs(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<Vec<(SolverMove<A::Board>, i64)>, SolveError> {
        let before = self.fundamental_score2(s, history)?;
        let sign = s.to_move.sign();
        let mut out = Vec::new();
        let moves = self.moves(s, history);
        for (m, next, _) in moves {
            match (m, next) {
                (SolverMove::Place(b), Some(n)) => {
                    history.push(b);
                    let after = self.fundamental_score2(&n, history);
                    history.pop();
                    out.push((m, (before - after?) * sign / 2));
                }
                (SolverMove::Special(Special::Delay), _) => {}
                _ => {}
            }
        }
        let i = s.to_move.index();
        if s.bowls[i] > 0 || s.ultimate[i] {
            let after = self.score2_after_delay(s, history)?;
            out.push((
                SolverMove::Special(Special::Delay),
                (before - after) * sign / 2,
            ));
        }
        Ok(out)
    }
}

/// The phases of §V.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Phase {
    /// The sente level is positive.
    NormalPlay,
    /// The sente level is 0 and a delay or a placement is optimal.
    Counting,
    /// The sente level is 0 and only the reverse delay is optimal.
    ShouldResign,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::NormalPlay => "normal play",
            Phase::Counting => "counting",
            Phase::ShouldResign => "should resign",
        }
    }
}

impl<A: Arena> Solver<A> {
    /// The phase of §V for the player to move.
    pub fn phase(
        &mut self,
        s: &Situation<A::Board>,
        history: &mut Vec<A::Board>,
    ) -> Result<Phase, SolveError> {
        if self.sente_level(s, history)? > 0 {
            return Ok(Phase::NormalPlay);
        }
        let costs = self.move_costs(s, history)?;
        Ok(if costs.iter().any(|(_, c)| *c == 0) {
            Phase::Counting
        } else {
            Phase::ShouldResign
        })
    }
}

/// The solver's view of a game in progress: the arena, the situation and
/// the history boards.
pub fn situation_of(
    game: &super::Game,
) -> Result<(GoArena, Situation<BoardCode>, Vec<BoardCode>), SolveError> {
    let state = game.nopass().cloned().unwrap_or_else(|| {
        NoPassState::new(
            NoPassRules {
                variant: Variant::Fundamental,
                version: Version::Original,
            },
            &num_rational::BigRational::from_integer(0.into()),
            0,
        )
        .expect("komi 0")
    });
    if state.ended.is_some() {
        return Err(SolveError::Ended);
    }
    if state.handicap_delays > 0 {
        return Err(SolveError::HandicapPending);
    }
    let (arena, code) = GoArena::of(game.position())?;
    let arena = arena.with_recurrence_classes(code);
    let history = game
        .history_boards()
        .map(|cells| {
            let mut c = 0;
            for (p, cell) in cells.iter().enumerate() {
                if let Cell::Stone(col) = cell {
                    c = with_cell(c, p, colour_code(*col));
                }
            }
            c
        })
        .collect();
    let s = Situation {
        board: code,
        to_move: game.to_move(),
        bowls: state.bowls,
        ultimate: state.ultimate,
        first_ultimate: state.first_ultimate,
    };
    Ok((arena, s, history))
}

pub mod trees;

#[cfg(test)]
mod tests;
