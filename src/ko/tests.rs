use super::*;
use crate::game::{Store, Thermograph};
use crate::render::Style;

fn describe(th: &Thermograph) -> String {
    let mut out = format!("temperature {}, mean {}\n", th.temperature(), th.mean());
    for p in th.left_wall().pieces() {
        out.push_str(&format!("  left  {p}\n"));
    }
    for p in th.right_wall().pieces() {
        out.push_str(&format!("  right {p}\n"));
    }
    out
}

fn all(s: &mut Store, g: &KoGraph) -> String {
    let mut out = g.format(s, Style::Ascii).unwrap();
    out.push('\n');
    for km in [Komaster::Black, Komaster::White] {
        for n in g.node_ids() {
            let r = g.thermograph(s, n, km);
            out.push_str(&format!("{} komaster, {}: ", km.player(), g.label(n)));
            match r {
                Ok(th) => out.push_str(&describe(&th)),
                Err(e) => out.push_str(&format!("error: {e}\n")),
            }
        }
    }
    for n in g.node_ids() {
        out.push_str(&format!("{}: {:?}\n", g.label(n), g.ko_kind(s, n)));
    }
    out
}

#[test]
fn scratch() {
    let mut s = Store::new();
    let (b, w) = (s.integer(2), s.integer(-1));
    let g = KoGraph::ko(b, w);
    println!("{}", all(&mut s, &g));
    let (b3, w4) = (s.integer(3), s.integer(-4));
    let g = KoGraph::multi_stage_ko(3, b3, w4);
    println!("{}", all(&mut s, &g));
    let g = KoGraph::approach_ko(1, b, w);
    println!("{}", all(&mut s, &g));
    let g = KoGraph::approach_ko(2, b, w);
    println!("{}", all(&mut s, &g));
}
