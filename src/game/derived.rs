//! Memo tables of the derived operations (birthdays, up-nth,
//! thermographs, the cooling family, incentives, atomic weight, reduced
//! canonical form). They live in one struct
//! so that [`super::ops::Memo`] needs a single field for all of them.

use super::dyadic::Dyadic;
use super::store::GameId;
use super::thermo::Thermograph;
use num_bigint::BigInt;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Berlekamp's parity of an elementary game (see [`super::Store::is_even`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Parity {
    Even,
    Odd,
    Neither,
}

/// What the atomic-weight calculus records of a game that is not
/// number-up-star, found in one pass over its options
/// ([`super::Store::aw_facts`]): its weight and the facts about it that the
/// calculus and the atomicity check ask for, each otherwise a walk of its own
/// over the subpositions with a memo of its own.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AwFacts {
    /// The calculus's weight ([`super::Store::naive_atomic_weight`]).
    pub(crate) weight: GameId,
    /// The facts the weight is computed from.
    pub(crate) shape: AwShape,
}

/// The facts of [`AwFacts`] other than the weight: each the value the
/// store's own function gives.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AwShape {
    /// `Store::nim_bound`.
    pub(crate) nim_bound: u64,
    /// `Store::star_sets`: `(S, T)`, bit `j` of `S` is `*j ≤ G`, of `T` is
    /// `G ≤ *j` (`j < 64`).
    pub(crate) star_sets: (u64, u64),
    /// [`super::Store::is_all_small`].
    pub(crate) all_small: bool,
}

#[derive(Default)]
pub(crate) struct DerivedMemo {
    pub(crate) birthday: FxHashMap<GameId, BigInt>,
    /// `↑^1`, `↑^2`, … as far as asked.
    pub(crate) up_nth: Vec<GameId>,
    pub(crate) thermograph: FxHashMap<GameId, Rc<Thermograph>>,
    pub(crate) cool: FxHashMap<(GameId, Dyadic), GameId>,
    pub(crate) heat: FxHashMap<(GameId, GameId), GameId>,
    pub(crate) overheat: FxHashMap<(GameId, GameId, GameId), GameId>,
    pub(crate) chill: FxHashMap<GameId, GameId>,
    pub(crate) norton: FxHashMap<(GameId, GameId), GameId>,
    pub(crate) parity: FxHashMap<GameId, Parity>,
    pub(crate) all_small: FxHashMap<GameId, bool>,
    pub(crate) incentives: FxHashMap<GameId, Rc<[GameId]>>,
    pub(crate) naive_aw: FxHashMap<GameId, AwFacts>,
    pub(crate) nim_bound: FxHashMap<GameId, u64>,
    pub(crate) ordinal_sum: FxHashMap<(GameId, GameId), GameId>,
    pub(crate) star_projection: FxHashMap<GameId, GameId>,
}

/// The initial capacity of a derived table on first use: a fresh store that
/// computes one thermograph or atomic weight of a deep game meets tens of
/// subpositions, and growing the tables from empty cost more than the
/// computation itself in the benchmarks.
const FIRST_USE_CAPACITY: usize = 64;

/// The initial capacity of the atomic-weight tables (see
/// [`DerivedMemo::prepare_atomic_weight`]).
const AW_FIRST_USE_CAPACITY: usize = 16;

impl DerivedMemo {
    /// Sizes the thermograph table on first use.
    pub(crate) fn prepare_thermograph(&mut self) {
        if self.thermograph.capacity() == 0 {
            self.thermograph.reserve(FIRST_USE_CAPACITY);
        }
    }

    /// Sizes the tables of the atomic-weight calculus on first use.
    pub(crate) fn prepare_atomic_weight(&mut self) {
        // Smaller than the thermograph's: the atomicity check of a deep game
        // meets a dozen subpositions, and tables of a few hundred bytes come
        // from the allocator's free lists, where 64-entry ones grew the heap
        // (a system call and page faults) in a fresh store.
        if self.naive_aw.capacity() == 0 {
            // The calculus's one table (`AwFacts`); the nim-bound and
            // all-small tables serve other games than `G`'s subpositions.
            self.naive_aw.reserve(AW_FIRST_USE_CAPACITY);
        }
    }
}
