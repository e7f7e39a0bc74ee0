//! Memo tables of the derived operations (birthdays, stops, up-nth,
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

#[derive(Default)]
pub(crate) struct DerivedMemo {
    pub(crate) birthday: FxHashMap<GameId, BigInt>,
    pub(crate) left_stop: FxHashMap<GameId, Dyadic>,
    pub(crate) right_stop: FxHashMap<GameId, Dyadic>,
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
    pub(crate) naive_aw: FxHashMap<GameId, GameId>,
    pub(crate) nim_bound: FxHashMap<GameId, u64>,
    /// `(S, T)`: bit `j` of `S` is `*j ≤ G`, of `T` is `G ≤ *j` (`j < 64`).
    pub(crate) star_sets: FxHashMap<GameId, (u64, u64)>,
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
            self.naive_aw.reserve(AW_FIRST_USE_CAPACITY);
            self.nim_bound.reserve(AW_FIRST_USE_CAPACITY);
            self.star_sets.reserve(AW_FIRST_USE_CAPACITY);
            self.all_small.reserve(AW_FIRST_USE_CAPACITY);
        }
    }
}
