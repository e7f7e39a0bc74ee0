//! The one-point ko strategy of Huang, Lin and Yen, "The Strategies for
//! Simple One-Point Ko Situation of Computer Go" (Huang, Lin and Yen): the paper's rule
//! ([`advice`]) and the abstract game it reasons about, stated precisely so
//! that an exact solver can play the same game and check the rule.
//!
//! # The abstract game (the model)
//!
//! Black is Left (scores count for Black), White is Right. The sum is
//!
//! * **the ko**, of value `k > 0`: a simple direct ko whose fills score
//!   `+k` (Black connects) and `−k` (White connects). As a ko graph this is
//!   [`KoGraph::ko`](super::KoGraph::ko)`(k, −k)`: the position where White
//!   holds the ko (`kw`, Black may capture, White may connect) and the one
//!   where Black holds it (`kb`, Black may connect, White may capture). The
//!   basic ko rule holds: a player whose stone was just captured in the ko
//!   may not recapture at once; any other move lifts the ban.
//! * **ko threats**, each owned by one player and usable only by him (the
//!   paper's "ko threats with the property that only one player can use
//!   it"). A Black threat of value `t > 0` is the game `{{t | 0} | }`: Black
//!   may play it, leaving the switch `{t | 0}` — White answers (back to 0:
//!   the paper's assumption (1), answering costs nothing) or Black follows up
//!   and gains `t` (the paper's "value of a ko threat is the sum of the values
//!   of two continuous moves"). White's threat of value `t` is `{ | {0 | −t}}`.
//!   A threat is *not* θ: its owner gains only `t` when it is ignored.
//! * **valuable gote moves** `x1 ≥ x2 ≥ … > 0`, each the switch
//!   `{x_i | −x_i}`.
//!
//! Play ends when nothing but numbers is left; the result is the score, and
//! it is exactly the paper's "profit": e.g. when Black wins the ko because
//! White gives up and plays `x1`, the play White `x1`, Black connects, White
//! `x2`, Black `x3`, … scores `k + X_odd − (x1 + X_even)` with
//! `X_even = x2 + x4 + …` and `X_odd = x3 + x5 + …`.
//!
//! **Why `±k` and `{x | −x}` and not a swing of `k`.** Section 2 of the paper
//! defines the value of a ko as the difference between Black winning it and
//! White winning it, which would be the fills `k` and `0`. But the thresholds
//! of section 3 only make sense with the convention above: Black's threat `t`
//! ignored by White (White connects, Black follows up, White `x1`, …) scores
//! `t − (k + x1 + X_odd − X_even)` against `k + X_odd − (x1 + X_even)` when
//! White answers it and later gives up, so White must answer exactly when
//! `t ≥ 2(k + X_odd − X_even)` — the paper's BKTVL — and Black must answer
//! White's threat `w` exactly when `w ≥ 2·x1` — the paper's WKTVL `2x1 + 1`
//! for integers. With fills `k`/`0` and swings `x_i` both thresholds would
//! be halved. So the paper's `k` and `x_i` are half swings (gains over the
//! midpoint) and its threat values are full gains; the model follows the
//! formulas, and the section-2 sentence is an error of a factor 2.
//!
//! # Positions: the seven cases
//!
//! The paper advises Black after each kind of White move. [`Last`] names the
//! case and fixes the position Black faces (the lists are the threats and
//! moves not yet used):
//!
//! | case | White's last move | the position, Black to move |
//! | --- | --- | --- |
//! | 1 | took the ko | `kw`, Black banned from retaking at once |
//! | 2 | answered Black's threat | `kw`, Black may retake |
//! | 3 | connected the ko | ko filled (`−k`); Black's threat `t` pending (`{t \| 0}`) if his last move was a threat |
//! | 4 | played a threat `w` | `kb` (Black may connect), White's threat pending (`{0 \| −w}`) |
//! | 5 | played a valuable move | `kb` (that move is no longer in the list) |
//! | 6 | followed up his ignored threat | ko filled by Black (`+k`) |
//! | 7 | passed or played elsewhere | `kb` |
//!
//! # The rule
//!
//! See [`advice`]. Choices the paper leaves open, fixed here:
//! * "fitting" means value ≥ the lower bound: the paper's case 4 says "equal
//!   to or higher than WKTVL", and its §3.2 count "from 3 to 1" with
//!   BKTVL = WKTVL = 45 counts White's 45.
//! * `b1` is Black's smallest fitting threat (every threat of the model is
//!   one-sided, so rule (a) of §3 picks it; there are no local or shared
//!   threats), `bu` Black's largest non-fitting threat, `x1 = 0` when no
//!   valuable move is left.
//! * Distribution 2's loop is run exactly (its `m` and `n` change only at
//!   the threat values, so only those steps are tried).
//! * When the fitting condition fails in case 1 (the paper says only that
//!   Black does not join the fight), Black plays `x1`, expecting
//!   `x1 + X_even − (k + X_odd)`.
//! * Case 4 uses the distributions of case 1 whether or not the fitting
//!   condition holds (the paper: "similar to case 1").
//! * In distribution 3 Black plays `b1` whenever he has a fitting threat
//!   (all threats are one-sided); otherwise he compares `x1` with
//!   `bu − x1`. With no `b1`, `bu` or valuable move he passes.
//!
//! # What the exact solution shows
//!
//! [`exact`] solves the same game with [`crate::ko::solve`](mod@crate::ko::solve); the tests
//! check it against an independent brute-force oracle, and
//! `examples/one_point_ko.cgt` replays each case. [`grid`] judges every rule
//! over exhaustive grids of small positions (a minimax of the same game,
//! checked against [`exact`] in the tests). In short: the thresholds
//! BKTVL `2Q` and WKTVL `2x1 + 1` are exactly where the optimum changes
//! (with the convention above); case 1's advice is optimal in every
//! position of the five grids of `examples/one_point_ko.cgt` (k ≤ 6, one
//! threat a side ≤ 12, two moves ≤ 6; k ≤ 3, two threats a side ≤ 6, one
//! move ≤ 3; k ≤ 12, one threat a side ≤ 12, one move ≤ 12; k ≤ 2, three
//! threats a side ≤ 4, one move ≤ 2; k ≤ 3, one threat a side ≤ 6, three
//! moves ≤ 4), in both readings of "fitting" — not a proof beyond them; but
//! the profit formulas assume the player who gives up
//! the ko lets it be connected at once (he can take `x2` first: §3.2's
//! example loses 17, not 13), a non-fitting threat `bu` is answered rather
//! than ignored, case 4's "less than `k − x1 − x2`" is false, connecting
//! against a small threat is not optimal when Black has threats to spare,
//! and cases 2, 3, 5, 7 as stated hold only when the ko is bigger than the
//! valuable moves (and an ignored threat bigger than `2·x1`). Read as
//! "value > bound", "fitting" breaks distribution 1's and 2's profit
//! claims; read as "≥" (the paper's §3.2 count and case 4) they hold on
//! every grid.
//!
//! No syntax, no IO.

use super::{Component, Compound, KoGraph, Side};
use crate::game::{CgResult, Dyadic, Store};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::fmt;
use std::rc::Rc;

/// White's last move: which of the paper's seven cases Black is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Last {
    /// Case 1: White just took the ko.
    TookKo,
    /// Case 2: White just answered Black's threat.
    AnsweredThreat,
    /// Case 3: White just connected the ko; `pending` is the value of Black's
    /// last threat when White ignored it to connect.
    ConnectedKo { pending: Option<BigInt> },
    /// Case 4: White just played a threat of this value.
    Threat(BigInt),
    /// Case 5: White just played a valuable gote move (already removed from
    /// the list of moves).
    Gote,
    /// Case 6: White just followed up a threat Black had ignored.
    FollowedUp,
    /// Case 7: White passed, or played an invaluable move or a blind threat.
    Other,
}

impl Last {
    /// The paper's case number, 1 to 7.
    pub fn case(&self) -> u8 {
        match self {
            Last::TookKo => 1,
            Last::AnsweredThreat => 2,
            Last::ConnectedKo { .. } => 3,
            Last::Threat(_) => 4,
            Last::Gote => 5,
            Last::FollowedUp => 6,
            Last::Other => 7,
        }
    }
}

/// The abstract position: the ko value, the unused threats of each player,
/// and the valuable gote moves left (any order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoFight {
    pub k: BigInt,
    pub black_threats: Vec<BigInt>,
    pub white_threats: Vec<BigInt>,
    pub moves: Vec<BigInt>,
}

/// A move for Black in the abstract game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Play Black's (unused) threat of this value.
    Threat(BigInt),
    /// Capture the ko.
    Retake,
    /// Connect (fill) the ko.
    Connect,
    /// Answer White's pending threat.
    Answer,
    /// Follow up Black's pending (ignored) threat of this value.
    FollowUp(BigInt),
    /// Play the valuable gote move of this value.
    Gote(BigInt),
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Move::Threat(t) => write!(f, "threat {t}"),
            Move::Retake => write!(f, "retake"),
            Move::Connect => write!(f, "connect"),
            Move::Answer => write!(f, "answer"),
            Move::FollowUp(t) => write!(f, "follow up {t}"),
            Move::Gote(x) => write!(f, "gote {x}"),
            Move::Pass => write!(f, "pass"),
        }
    }
}

/// What the paper says about the outcome of its recommended move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The paper states no figure (cases 2, 3, 5, 6, 7).
    None,
    /// "Black will gain at least …".
    AtLeast(BigInt),
    /// "Black will gain profit less than …" (case 4, distribution 2).
    LessThan(BigInt),
    /// The outcome of the line the paper has in mind (its formulas for
    /// playing `x1`, `bu`, or connecting in distribution 3, and for giving
    /// up the ko).
    Expected(BigInt),
}

impl Claim {
    /// The figure, if any.
    pub fn profit(&self) -> Option<&BigInt> {
        match self {
            Claim::None => None,
            Claim::AtLeast(p) | Claim::LessThan(p) | Claim::Expected(p) => Some(p),
        }
    }
    /// `"at least"`, `"less than"`, `"expected"` or `"none"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Claim::None => "none",
            Claim::AtLeast(_) => "at least",
            Claim::LessThan(_) => "less than",
            Claim::Expected(_) => "expected",
        }
    }
    /// Whether an exact result agrees with the claim (`None` agrees with
    /// everything).
    pub fn holds_for(&self, exact: &BigRational) -> bool {
        let q = |p: &BigInt| BigRational::from_integer(p.clone());
        match self {
            Claim::None => true,
            Claim::AtLeast(p) => *exact >= q(p),
            Claim::LessThan(p) => *exact < q(p),
            Claim::Expected(p) => *exact == q(p),
        }
    }
}

/// The threat distribution that holds, with the bounds and counts that
/// decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// 1, 2 or 3.
    pub number: u8,
    pub bktvl: BigInt,
    pub wktvl: BigInt,
    /// Black's and White's fitting threats (value ≥ the bound).
    pub m: usize,
    pub n: usize,
    /// Distribution 2: the step `i` of the loop at which `m > n`.
    pub step: Option<BigInt>,
    /// Black's smallest fitting threat.
    pub b1: Option<BigInt>,
    /// Black's largest threat that is not fitting.
    pub bu: Option<BigInt>,
    /// White's smallest fitting threat.
    pub w1: Option<BigInt>,
}

/// The paper's advice for Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    pub case: u8,
    /// Cases 1 and 4: the threat distribution.
    pub distribution: Option<Distribution>,
    /// The simple one-point ko situation fitting condition
    /// `x1 + X_even ≤ k + X_odd`.
    pub fitting: bool,
    pub mv: Move,
    pub claim: Claim,
}

/// Bad input to [`advice`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KoFightError {
    /// A value that must be positive is not; `what` names it.
    NotPositive { what: &'static str, value: BigInt },
}

impl fmt::Display for KoFightError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            KoFightError::NotPositive { what, value } => {
                write!(f, "{what} must be positive, found {value}")
            }
        }
    }
}

impl std::error::Error for KoFightError {}

/// The derived sums of the paper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sums {
    /// `x1`, or 0 with no valuable move.
    pub x1: BigInt,
    /// `x2`, or 0.
    pub x2: BigInt,
    pub x_even: BigInt,
    pub x_odd: BigInt,
    /// `Q = k + X_odd − X_even`.
    pub q: BigInt,
    /// `P = k + X_odd − (x1 + X_even)`, what winning the ko is worth when
    /// the loser gives up for `x1`.
    pub p: BigInt,
}

impl KoFight {
    pub fn new(
        k: BigInt,
        black_threats: Vec<BigInt>,
        white_threats: Vec<BigInt>,
        moves: Vec<BigInt>,
    ) -> KoFight {
        KoFight {
            k,
            black_threats,
            white_threats,
            moves,
        }
    }

    /// Every value must be positive (the paper's `x_1 ≥ … > 0`, and a ko or
    /// a threat worth nothing is no ko or threat).
    pub fn validate(&self) -> Result<(), KoFightError> {
        let check = |what: &'static str, v: &BigInt| {
            if v.is_positive() {
                Ok(())
            } else {
                Err(KoFightError::NotPositive {
                    what,
                    value: v.clone(),
                })
            }
        };
        check("the ko value k", &self.k)?;
        for t in &self.black_threats {
            check("a Black ko threat", t)?;
        }
        for t in &self.white_threats {
            check("a White ko threat", t)?;
        }
        for x in &self.moves {
            check("a valuable move", x)?;
        }
        Ok(())
    }

    /// The valuable moves, largest first.
    pub fn sorted_moves(&self) -> Vec<BigInt> {
        let mut xs = self.moves.clone();
        xs.sort_by(|a, b| b.cmp(a));
        xs
    }

    pub fn sums(&self) -> Sums {
        let xs = self.sorted_moves();
        let get = |i: usize| xs.get(i).cloned().unwrap_or_else(BigInt::zero);
        let mut x_even = BigInt::zero();
        let mut x_odd = BigInt::zero();
        for (i, x) in xs.iter().enumerate().skip(1) {
            // xs[1] is x2.
            if i % 2 == 1 {
                x_even += x;
            } else {
                x_odd += x;
            }
        }
        let q = &self.k + &x_odd - &x_even;
        let x1 = get(0);
        let p = &q - &x1;
        Sums {
            x1,
            x2: get(1),
            x_even,
            x_odd,
            q,
            p,
        }
    }

    fn distribution_with(
        &self,
        reading: Fitting,
        number: u8,
        bktvl: BigInt,
        wktvl: BigInt,
        step: Option<BigInt>,
    ) -> Distribution {
        let fits_b = |t: &&BigInt| reading.fits(t, &bktvl);
        let fits_w = |t: &&BigInt| reading.fits(t, &wktvl);
        let m = self.black_threats.iter().filter(fits_b).count();
        let n = self.white_threats.iter().filter(fits_w).count();
        let b1 = self.black_threats.iter().filter(fits_b).min().cloned();
        let bu = self
            .black_threats
            .iter()
            .filter(|t| !fits_b(t))
            .max()
            .cloned();
        let w1 = self.white_threats.iter().filter(fits_w).min().cloned();
        Distribution {
            number,
            bktvl,
            wktvl,
            m,
            n,
            step,
            b1,
            bu,
            w1,
        }
    }

    /// The threat distribution of section 3.1, case 1.
    ///
    /// 1. BKTVL = `2Q`, WKTVL = `2x1 + 1`; holds when `m > n`.
    /// 2. For `i = 1 … P`: BKTVL = `2Q − i`, WKTVL = `2x1 + 1 + i`; holds at
    ///    the first `i` with `m > n`.
    /// 3. BKTVL = `Q + x1`, WKTVL = `Q + x1 + 1`; `m ≤ n`. (These are the
    ///    bounds of the last step `i = P` of distribution 2, or of
    ///    distribution 1 when `P = 0`, so distribution 3 holds whenever 1
    ///    and 2 do not and `P ≥ 0`.)
    pub fn distribution(&self) -> Distribution {
        self.distribution_read(Fitting::AtLeast)
    }

    /// [`KoFight::distribution`] with "fitting" read as `reading`.
    pub fn distribution_read(&self, reading: Fitting) -> Distribution {
        let s = self.sums();
        let two = BigInt::from(2);
        let one = BigInt::from(1);
        let d1 = self.distribution_with(reading, 1, &two * &s.q, &two * &s.x1 + &one, None);
        if d1.m > d1.n {
            return d1;
        }
        // Distribution 2: m grows and n shrinks with i, and both change only
        // where i = 2Q − b (+ 1 when fitting is strict: a Black threat b
        // becomes fitting) or i = w − 2x1 (− 1 when strict: a White threat w
        // stops being fitting), so the first i with m > n is 1 or one of
        // those values.
        if s.p >= one {
            let mut steps: Vec<BigInt> = vec![one.clone()];
            for b in &self.black_threats {
                steps.push(&two * &s.q - b);
                steps.push(&two * &s.q - b + &one);
            }
            for w in &self.white_threats {
                steps.push(w - &two * &s.x1);
                steps.push(w - &two * &s.x1 - &one);
            }
            steps.retain(|i| *i >= one && *i <= s.p);
            steps.sort();
            steps.dedup();
            for i in steps {
                let d = self.distribution_with(
                    reading,
                    2,
                    &two * &s.q - &i,
                    &two * &s.x1 + &one + &i,
                    Some(i.clone()),
                );
                if d.m > d.n {
                    return d;
                }
            }
        }
        self.distribution_with(reading, 3, &s.q + &s.x1, &s.q + &s.x1 + &one, None)
    }
}

/// The two readings of "fitting" (§3 (2)): "the ko threats whose value are
/// greater than the lower bound" ([`Fitting::Above`]), against case 4's
/// "equal to or higher than WKTVL" and §3.2's count, which counts a threat
/// equal to the bound ([`Fitting::AtLeast`], the default).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fitting {
    /// value ≥ bound.
    AtLeast,
    /// value > bound.
    Above,
}

impl Fitting {
    pub fn fits(self, value: &BigInt, bound: &BigInt) -> bool {
        match self {
            Fitting::AtLeast => value >= bound,
            Fitting::Above => value > bound,
        }
    }
    /// `">="` or `">"`.
    pub fn symbol(self) -> &'static str {
        match self {
            Fitting::AtLeast => ">=",
            Fitting::Above => ">",
        }
    }
}

/// Black's best fall-back in distribution 3 (section 3.1, case 1, and
/// §3.2): `x1` scoring `x1 + X_even − (k + X_odd)`, or the largest
/// non-fitting threat `bu`, expected to be ignored, scoring
/// `bu + X_even − (k + x1 + X_odd)`; `x1` when `x1 ≥ bu − x1`.
fn fall_back(s: &Sums, d: &Distribution, have_moves: bool) -> (Move, BigInt) {
    let by_x1 = -&s.p;
    match &d.bu {
        Some(bu) if s.x1 < bu - &s.x1 => (Move::Threat(bu.clone()), bu - &s.q - &s.x1),
        _ if have_moves => (Move::Gote(s.x1.clone()), by_x1),
        // No valuable move, no threat to use: Black can only pass, and White
        // connects (−k, then the moves, of which there are none).
        _ => (Move::Pass, -&s.p),
    }
}

/// The paper's advice for Black in `pos` after White's `last` move (section
/// 3.1), with the profit the paper predicts.
///
/// * Case 1 (White took the ko): if the fitting condition fails, `x1`.
///   Distribution 1: `b1`, "Black will gain at least `P`". Distribution 2:
///   `b1` (fitting at the loop's bounds); the paper says only "between 0 and
///   `P`"; the loop's step `i` implies at least `P − i`, which is the claim
///   returned. Distribution 3: `b1` if Black has a fitting threat (exchange
///   threats), else the better of `x1` and `bu` (see [`fall_back`]); the
///   claim is the expected result of that fall-back.
/// * Case 2: retake. Case 3: follow up the pending threat, else `x1`.
///   Case 5, 7: connect. Case 6: `x1`.
/// * Case 4 (White's threat `w`): distributions 1 and 2: answer when
///   `w ≥ WKTVL`, else connect; the paper claims "at least `k − x1 − x2`"
///   (distribution 1) and "less than `k − x1 − x2`" (distribution 2).
///   Distribution 3: connect when `w < WKTVL`; else answer when
///   `max(x1 + X_even − (k + X_odd), bu + X_even − (k + x1 + X_odd))` is
///   larger than `k + x1 + X_odd − (w + X_even)`, else connect; the claim is
///   the compared value of the chosen move.
pub fn advice(pos: &KoFight, last: &Last) -> Result<Advice, KoFightError> {
    advice_read(pos, last, Fitting::AtLeast)
}

/// [`advice`] with "fitting" read as `reading` (cases 1 and 4; case 4's
/// own comparison of White's threat with WKTVL is "equal to or higher" in
/// both readings, as the paper words it).
pub fn advice_read(pos: &KoFight, last: &Last, reading: Fitting) -> Result<Advice, KoFightError> {
    pos.validate()?;
    if let Last::Threat(w) | Last::ConnectedKo { pending: Some(w) } = last {
        if !w.is_positive() {
            return Err(KoFightError::NotPositive {
                what: "the pending ko threat",
                value: w.clone(),
            });
        }
    }
    let s = pos.sums();
    let fitting = !s.p.is_negative();
    let have_moves = !pos.moves.is_empty();
    let x1_move = || {
        if have_moves {
            Move::Gote(s.x1.clone())
        } else {
            Move::Pass
        }
    };
    let case = last.case();
    let simple = |mv: Move| Advice {
        case,
        distribution: None,
        fitting,
        mv,
        claim: Claim::None,
    };
    Ok(match last {
        Last::TookKo => {
            let d = pos.distribution_read(reading);
            let (mv, claim) = if !fitting {
                (x1_move(), Claim::Expected(-&s.p))
            } else {
                match (d.number, &d.b1) {
                    (1, Some(b1)) => (Move::Threat(b1.clone()), Claim::AtLeast(s.p.clone())),
                    (2, Some(b1)) => {
                        let i = d.step.clone().unwrap_or_else(BigInt::zero);
                        (Move::Threat(b1.clone()), Claim::AtLeast(&s.p - i))
                    }
                    (_, Some(b1)) => {
                        let (_, expected) = fall_back(&s, &d, have_moves);
                        (Move::Threat(b1.clone()), Claim::Expected(expected))
                    }
                    (_, None) => {
                        let (mv, expected) = fall_back(&s, &d, have_moves);
                        (mv, Claim::Expected(expected))
                    }
                }
            };
            Advice {
                case,
                distribution: Some(d),
                fitting,
                mv,
                claim,
            }
        }
        Last::Threat(w) => {
            let d = pos.distribution_read(reading);
            let k_x1_x2 = &pos.k - &s.x1 - &s.x2;
            let connect_value = &s.q + &s.x1 - w;
            let (mv, claim) = match d.number {
                1 | 2 => {
                    let mv = if *w >= d.wktvl {
                        Move::Answer
                    } else {
                        Move::Connect
                    };
                    let claim = if d.number == 1 {
                        Claim::AtLeast(k_x1_x2)
                    } else {
                        Claim::LessThan(k_x1_x2)
                    };
                    (mv, claim)
                }
                _ => {
                    if *w < d.wktvl {
                        (Move::Connect, Claim::Expected(connect_value))
                    } else {
                        let by_x1 = -&s.p;
                        let former = match &d.bu {
                            Some(bu) => {
                                let by_bu = bu - &s.q - &s.x1;
                                by_x1.max(by_bu)
                            }
                            None => by_x1,
                        };
                        if former > connect_value {
                            (Move::Answer, Claim::Expected(former))
                        } else {
                            (Move::Connect, Claim::Expected(connect_value))
                        }
                    }
                }
            };
            Advice {
                case,
                distribution: Some(d),
                fitting,
                mv,
                claim,
            }
        }
        Last::AnsweredThreat => simple(Move::Retake),
        Last::ConnectedKo { pending: Some(t) } => simple(Move::FollowUp(t.clone())),
        Last::ConnectedKo { pending: None } | Last::FollowedUp => simple(x1_move()),
        Last::Gote | Last::Other => simple(Move::Connect),
    })
}

/// The state of the ko in the abstract game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KoState {
    /// White holds the ko (`kw`): Black may capture, White may connect.
    WhiteHolds,
    /// Black holds the ko (`kb`): Black may connect, White may capture.
    BlackHolds,
    /// Connected: `+k` (Black) or `−k` (White) is in the score.
    Filled(Side),
}

/// A position of the abstract game with the player to move: the positions
/// of the seven cases ([`State::start`]) and every position play reaches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub k: BigInt,
    pub ko: KoState,
    /// The player to move may not capture in the ko (his stone was just
    /// captured there and no other move has been played since).
    pub banned: bool,
    /// Unused threats, ascending.
    pub black_threats: Vec<BigInt>,
    pub white_threats: Vec<BigInt>,
    /// Threats played and neither answered nor followed up, ascending:
    /// Black's `{t | 0}`, White's `{0 | −t}`.
    pub black_pending: Vec<BigInt>,
    pub white_pending: Vec<BigInt>,
    /// Valuable gote moves left, ascending.
    pub moves: Vec<BigInt>,
    pub to_move: Side,
}

fn sorted(v: &[BigInt]) -> Vec<BigInt> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn without(v: &[BigInt], i: usize) -> Vec<BigInt> {
    let mut v = v.to_vec();
    v.remove(i);
    v
}

fn with(v: &[BigInt], t: &BigInt) -> Vec<BigInt> {
    let mut v = v.to_vec();
    v.push(t.clone());
    v.sort();
    v
}

impl State {
    /// The position Black faces after White's `last` (the table of the
    /// module docs).
    pub fn start(pos: &KoFight, last: &Last) -> State {
        let mut s = State {
            k: pos.k.clone(),
            ko: KoState::BlackHolds,
            banned: false,
            black_threats: sorted(&pos.black_threats),
            white_threats: sorted(&pos.white_threats),
            black_pending: vec![],
            white_pending: vec![],
            moves: sorted(&pos.moves),
            to_move: Side::Left,
        };
        match last {
            Last::TookKo => {
                s.ko = KoState::WhiteHolds;
                s.banned = true;
            }
            Last::AnsweredThreat => s.ko = KoState::WhiteHolds,
            Last::ConnectedKo { pending } => {
                s.ko = KoState::Filled(Side::Right);
                if let Some(t) = pending {
                    s.black_pending = vec![t.clone()];
                }
            }
            Last::Threat(w) => s.white_pending = vec![w.clone()],
            Last::Gote | Last::Other => {}
            Last::FollowedUp => s.ko = KoState::Filled(Side::Left),
        }
        s
    }

    /// The score already fixed: the filled ko.
    pub fn fixed(&self) -> BigInt {
        match self.ko {
            KoState::Filled(Side::Left) => self.k.clone(),
            KoState::Filled(Side::Right) => -&self.k,
            _ => BigInt::zero(),
        }
    }

    /// The legal moves of the player to move (a pass is not listed), each
    /// with the score it adds and the position it leads to. Equal threats or
    /// moves give one entry.
    pub fn moves(&self) -> Vec<(Move, BigInt, State)> {
        let black = self.to_move == Side::Left;
        let sign = |v: &BigInt| if black { v.clone() } else { -v };
        let next = || {
            let mut t = self.clone();
            t.to_move = self.to_move.opponent();
            t.banned = false;
            t
        };
        let mut out = Vec::new();
        match (self.ko, black) {
            (KoState::WhiteHolds, true) | (KoState::BlackHolds, false) => {
                if !self.banned {
                    let mut t = next();
                    t.ko = if black {
                        KoState::BlackHolds
                    } else {
                        KoState::WhiteHolds
                    };
                    t.banned = true;
                    out.push((Move::Retake, BigInt::zero(), t));
                }
            }
            (KoState::BlackHolds, true) | (KoState::WhiteHolds, false) => {
                let mut t = next();
                t.ko = KoState::Filled(self.to_move);
                out.push((Move::Connect, sign(&self.k), t));
            }
            _ => {}
        }
        let (mine, my_pending, their_pending) = if black {
            (
                &self.black_threats,
                &self.black_pending,
                &self.white_pending,
            )
        } else {
            (
                &self.white_threats,
                &self.white_pending,
                &self.black_pending,
            )
        };
        let firsts = |v: &[BigInt]| -> Vec<usize> {
            (0..v.len())
                .filter(|&i| i == 0 || v[i - 1] != v[i])
                .collect()
        };
        for i in firsts(mine) {
            let mut t = next();
            if black {
                t.black_threats = without(mine, i);
                t.black_pending = with(&self.black_pending, &mine[i]);
            } else {
                t.white_threats = without(mine, i);
                t.white_pending = with(&self.white_pending, &mine[i]);
            }
            out.push((Move::Threat(mine[i].clone()), BigInt::zero(), t));
        }
        for i in firsts(my_pending) {
            let mut t = next();
            if black {
                t.black_pending = without(my_pending, i);
            } else {
                t.white_pending = without(my_pending, i);
            }
            out.push((
                Move::FollowUp(my_pending[i].clone()),
                sign(&my_pending[i]),
                t,
            ));
        }
        for i in firsts(their_pending) {
            let mut t = next();
            if black {
                t.white_pending = without(their_pending, i);
            } else {
                t.black_pending = without(their_pending, i);
            }
            out.push((Move::Answer, BigInt::zero(), t));
        }
        for i in firsts(&self.moves) {
            let mut t = next();
            t.moves = without(&self.moves, i);
            out.push((Move::Gote(self.moves[i].clone()), sign(&self.moves[i]), t));
        }
        out
    }

    /// The position as components of a sum for the exact solver (the ban,
    /// if any, is not part of it; see [`State::banned`]): the ko (a node of
    /// [`KoGraph::ko`]`(k, −k)`, or the number `±k` once filled), each unused
    /// threat as a [`Compound`] (`{{t | 0} | }` for Black, `{ | {0 | −t}}` for
    /// White: not short games, whose canonical form would be 0), each pending
    /// threat as the switch `{t | 0}` or `{0 | −t}`, each valuable move as
    /// `{x | −x}`.
    pub fn components(&self, store: &mut Store) -> CgResult<Vec<Component>> {
        let int = |store: &mut Store, v: &BigInt| store.number(Dyadic::from_bigint(v.clone()));
        let mut out = Vec::new();
        match self.ko {
            KoState::Filled(_) => {
                let v = self.fixed();
                out.push(Component::Short(int(store, &v)));
            }
            holds => {
                let b = int(store, &self.k);
                let w = int(store, &-&self.k);
                let graph = KoGraph::ko(b, w);
                // `ko(b, w)` is rooted at `kw`; `kb` is its other node.
                let node = match holds {
                    KoState::WhiteHolds => graph.root(),
                    _ => graph
                        .node_ids()
                        .find(|&n| n != graph.root())
                        .unwrap_or(graph.root()),
                };
                out.push(Component::Ko {
                    graph: Rc::new(graph),
                    node,
                });
            }
        }
        let zero = store.zero();
        for t in &self.black_threats {
            let tv = int(store, t);
            let pending = store.canonical(vec![tv], vec![zero])?;
            out.push(Component::Compound(Rc::new(Compound {
                left: vec![vec![Component::Short(pending)]],
                right: vec![],
            })));
        }
        for t in &self.white_threats {
            let tv = int(store, &-t);
            let pending = store.canonical(vec![zero], vec![tv])?;
            out.push(Component::Compound(Rc::new(Compound {
                left: vec![],
                right: vec![vec![Component::Short(pending)]],
            })));
        }
        for t in &self.black_pending {
            let tv = int(store, t);
            out.push(Component::Short(store.canonical(vec![tv], vec![zero])?));
        }
        for t in &self.white_pending {
            let tv = int(store, &-t);
            out.push(Component::Short(store.canonical(vec![zero], vec![tv])?));
        }
        for x in &self.moves {
            let l = int(store, x);
            let r = int(store, &-x);
            out.push(Component::Short(store.canonical(vec![l], vec![r])?));
        }
        Ok(out)
    }
}

pub mod exact;
pub mod grid;

#[cfg(test)]
mod tests;
