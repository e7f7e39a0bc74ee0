//! Memo tables of the derived operations (thermographs, the cooling family,
//! incentives, atomic weight, reduced canonical form). They live in one struct
//! so that [`super::ops::Memo`] needs a single field for all of them.

use super::dyadic::Dyadic;
use super::store::GameId;
use super::thermo::Thermograph;
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
    pub(crate) ordinal_sum: FxHashMap<(GameId, GameId), GameId>,
    pub(crate) star_projection: FxHashMap<GameId, GameId>,
}
