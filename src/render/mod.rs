//! Turning values into text and pictures: games (ASCII / Unicode), thermographs, whole boards.

pub mod board;
pub mod game;
pub mod thermograph;

pub use game::{format_game, format_nus, superscript, Style};
