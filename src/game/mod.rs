//! The CGT core: numbers, interned canonical short games, order and sums.
//! No syntax, no IO.

pub mod dyadic;

pub use dyadic::Dyadic;
