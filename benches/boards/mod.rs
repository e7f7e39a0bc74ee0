//! Builders of the short games shared by the play and ko benches and the play
//! unit tests (one home for the Go-like board, so all of them use the same
//! regions; `src/play/tests.rs` includes this file by path).

use yose::game::{GameId, Store};

pub fn num(s: &mut Store, n: i64) -> GameId {
    s.integer(n)
}

pub fn g(s: &mut Store, l: &[GameId], r: &[GameId]) -> GameId {
    s.canonical(l.to_vec(), r.to_vec()).unwrap()
}

/// `{a | b}`.
pub fn sw(s: &mut Store, a: i64, b: i64) -> GameId {
    let (x, y) = (num(s, a), num(s, b));
    g(s, &[x], &[y])
}

/// `{x || y | z}`.
pub fn three_stop(s: &mut Store, x: i64, y: i64, z: i64) -> GameId {
    let l = num(s, x);
    let r = sw(s, y, z);
    g(s, &[l], &[r])
}

/// The first ten regions of [`go_board`], none of them a switch: five
/// three-stop games, a tiny, a miny, a corridor `{0 || 0 | {0 | -2}}`, `↑`
/// and `↑*`.
pub fn go_board_general(s: &mut Store) -> Vec<GameId> {
    let mut c = vec![
        three_stop(s, 6, 2, -2),
        three_stop(s, 4, 1, -3),
        three_stop(s, 9, 5, 0),
        three_stop(s, 3, 0, -4),
        three_stop(s, 12, 8, 3),
    ];
    let (two, three) = (num(s, 2), num(s, 3));
    c.push(s.tiny(two).unwrap());
    c.push(s.miny(three).unwrap());
    let zero = s.zero();
    let inner = sw(s, 0, -2);
    let mid = g(s, &[zero], &[inner]);
    c.push(g(s, &[zero], &[mid]));
    c.push(s.ups(1));
    let star = s.star();
    let up = s.ups(1);
    c.push(s.add(up, star).unwrap());
    c
}

/// Twenty Go-like regions: [`go_board_general`], then switches and gote/sente
/// games with hot follow-ups, and a number.
pub fn go_board(s: &mut Store) -> Vec<GameId> {
    let mut c = go_board_general(s);
    for (a, b) in [(5, -5), (3, 1), (7, -2), (2, -6), (4, 0)] {
        c.push(sw(s, a, b));
    }
    let y = sw(s, 3, -6);
    let eight = num(s, 8);
    c.push(g(s, &[eight], &[y]));
    let gl = sw(s, 10, 4);
    let gr = sw(s, -2, -8);
    c.push(g(s, &[gl], &[gr]));
    let l = sw(s, 7, 3);
    let m2 = num(s, -2);
    c.push(g(s, &[l], &[m2]));
    c.push(three_stop(s, 2, 0, -3));
    c.push(num(s, 2));
    c
}
