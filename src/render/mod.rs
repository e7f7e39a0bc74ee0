//! Turning values into text: games (ASCII / Unicode) and, later, thermographs.

pub mod game;
pub mod thermograph;

pub use game::{format_game, format_nus, superscript, Style};
