//! The rules of §III as data: [`NoPassRules`] (variant and version), the
//! special moves, the rule breaks with their numbers, and [`NoPassState`]
//! (bowls, ultimate prisoners, draw right, komi and handicap) that
//! [`crate::go::Game`] consults.

use crate::go::position::Colour;
use std::fmt;

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
