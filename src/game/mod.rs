//! The CGT core: numbers, interned canonical short games, order and sums.
//! No syntax, no IO; long computations poll an interrupt flag and return
//! [`CgError::Interrupted`] instead of hanging.

pub mod dyadic;
mod ops;
mod store;

mod atomic;
mod cooling;
mod derived;
mod gameval;
mod incentives;
mod reduced;
pub mod thermo;

pub use atomic::AtomicWeightError;
pub use dyadic::Dyadic;
pub use gameval::{nus_add, nus_neg, GameVal};
pub use ops::{Outcome, Relation};
pub use store::{CgError, CgResult, ExportSeries, GameExport, GameExporter, GameId, Nus, Store};
pub use thermo::{Thermograph, Unsettled, Wall, WallPiece};

#[cfg(test)]
mod props;
#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;
