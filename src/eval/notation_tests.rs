//! Printing reads back: a corpus of games built in the store, printed in
//! every style (CGSuite's ASCII, `--cgsuite`, Unicode) and parsed again must
//! give the same game (issue 20). The corpus is deterministic: a fixed-seed generator over
//! leaves that exercise every named form the printer has (numbers with
//! fractions, ups and stars, `Tiny`/`Miny` of any game, `±` of one or several
//! options, up-nth, uptimals) and braced games up to depth 3.

use super::{Interp, Mode};
use crate::game::{Dyadic, GameId, Store};
use crate::render::{format_game, Style};

/// A small linear congruential generator: the corpus must be the same on
/// every run, and no crate is needed for that.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn leaf(s: &mut Store, r: &mut Lcg) -> GameId {
    match r.below(6) {
        0 => {
            let num = r.below(13) as i64 - 6;
            let den_exp = r.below(3) as u32;
            s.number(Dyadic::new(num.into(), den_exp))
        }
        1 => s.nimber(r.below(4)),
        2 => {
            let ups = s.ups(r.below(5) as i64 - 2);
            let star = s.nimber(r.below(2));
            let x = s.number(Dyadic::new((r.below(7) as i64 - 3).into(), 1));
            let a = s.add(ups, star).unwrap();
            s.add(a, x).unwrap()
        }
        3 => {
            let n = 2 + r.below(2) as u32;
            let g = if r.below(2) == 0 {
                s.up_nth(n).unwrap()
            } else {
                s.uptimal(n).unwrap()
            };
            if r.below(2) == 0 {
                s.neg(g)
            } else {
                g
            }
        }
        _ => {
            let v = r.below(5) as i64 - 1;
            s.number(Dyadic::new(v.into(), 0))
        }
    }
}

fn game(s: &mut Store, r: &mut Lcg, depth: u32) -> GameId {
    if depth == 0 || r.below(4) == 0 {
        return leaf(s, r);
    }
    let sub = |s: &mut Store, r: &mut Lcg| game(s, r, depth - 1);
    match r.below(8) {
        // Tiny / Miny of any game, shifted by a number.
        0 | 1 => {
            let x = sub(s, r);
            let t = if r.below(2) == 0 {
                s.tiny(x).unwrap()
            } else {
                s.miny(x).unwrap()
            };
            let shift = s.number(Dyadic::new((r.below(9) as i64 - 4).into(), 1));
            s.add(t, shift).unwrap()
        }
        // ± of one or several options.
        2 => {
            let n = 1 + r.below(3);
            let left: Vec<GameId> = (0..n).map(|_| sub(s, r)).collect();
            let right = left.iter().map(|&g| s.neg(g)).collect();
            s.canonical(left, right).unwrap()
        }
        _ => {
            let nl = r.below(3);
            let nr = r.below(3);
            let left = (0..nl).map(|_| sub(s, r)).collect();
            let right = (0..nr).map(|_| sub(s, r)).collect();
            s.canonical(left, right).unwrap()
        }
    }
}

#[test]
fn every_printed_game_parses_back_to_itself() {
    let mut interp = Interp::new(Mode::Script, Style::Ascii);
    let mut rng = Lcg(20);
    let mut corpus: Vec<GameId> = Vec::new();
    while corpus.len() < 400 {
        let g = game(&mut interp.store, &mut rng, 3);
        if !corpus.contains(&g) {
            corpus.push(g);
        }
    }
    let mut named = [0usize; 3]; // Tiny/Miny, ±{…}, up-nth/uptimal
                                 // Games `--cgsuite` prints otherwise than `--ascii` (option order,
                                 // braces at four slashes, `+-(…)`): the corpus must reach them.
    let mut cgsuite_differs = 0;
    for &g in &corpus {
        let ascii = format_game(&mut interp.store, g, Style::Ascii).unwrap();
        let cgsuite = format_game(&mut interp.store, g, Style::Cgsuite).unwrap();
        cgsuite_differs += usize::from(ascii != cgsuite);
        for style in [Style::Ascii, Style::Cgsuite, Style::Unicode] {
            let text = format_game(&mut interp.store, g, style).unwrap();
            if text.contains("iny(") || text.contains('⧾') || text.contains('⧿') {
                named[0] += 1;
            }
            if text.contains("+-{") || text.contains("±{") {
                named[1] += 1;
            }
            if text.contains('<') || text.contains('[') {
                named[2] += 1;
            }
            // The parser's fast path for game literals reads it as pest does.
            crate::syntax::compare_fast_path(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let id = interp.add_source("<corpus>", &text, None);
            let v = interp
                .eval_source_expr(id)
                .unwrap_or_else(|e| panic!("{text} does not parse back: {e:?}"));
            let back = interp.game_of(&v, &(0..0)).unwrap();
            assert_eq!(back, g, "{text} reads back as another game");
        }
    }
    // The corpus exercises the named forms, not only braces.
    assert!(named.iter().all(|&n| n >= 20), "{named:?}");
    assert!(cgsuite_differs >= 10, "{cgsuite_differs}");
}
