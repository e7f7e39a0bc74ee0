use super::*;
use crate::game::{GameId, Store};
use crate::render::{format_game, Style as GameStyle};

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn show(s: &mut Store, g: GameId) -> String {
    format_game(s, g, GameStyle::Ascii).unwrap()
}

fn val(s: &mut Store, text: &str) -> GameId {
    value(s, &pos(text), &SearchOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn dame_is_star() {
    let mut s = Store::new();
    let v = val(&mut s, "X . O");
    assert_eq!(show(&mut s, v), "*");
}
