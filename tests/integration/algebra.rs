//! Property tests of the game engine against a naive model.
//!
//! The model is the textbook definition: games are trees, `G ≤ H` iff no
//! `G^L ≥ H` and no `H^R ≤ G`, computed with no canonical forms, interning or
//! fast paths. Random games of birthday ≤ 4 are built both ways and must agree.

use proptest::prelude::*;
use yose::eval::{Interp, Mode, Value};
use yose::game::{GameId, Outcome, Relation, Store};
use yose::render::{format_game, Style};

#[derive(Clone, Debug)]
struct Tree {
    left: Vec<Tree>,
    right: Vec<Tree>,
}

fn tree(depth: u32) -> BoxedStrategy<Tree> {
    let leaf = Just(Tree {
        left: vec![],
        right: vec![],
    })
    .boxed();
    if depth == 0 {
        return leaf;
    }
    let sub = tree(depth - 1);
    let side = prop::collection::vec(sub, 0..3);
    prop_oneof![
        1 => leaf,
        4 => (side.clone(), side).prop_map(|(left, right)| Tree { left, right }),
    ]
    .boxed()
}

fn naive_le(g: &Tree, h: &Tree) -> bool {
    !g.left.iter().any(|gl| naive_le(h, gl)) && !h.right.iter().any(|hr| naive_le(hr, g))
}

fn naive_sum(g: &Tree, h: &Tree) -> Tree {
    let mut left: Vec<Tree> = g.left.iter().map(|x| naive_sum(x, h)).collect();
    left.extend(h.left.iter().map(|x| naive_sum(g, x)));
    let mut right: Vec<Tree> = g.right.iter().map(|x| naive_sum(x, h)).collect();
    right.extend(h.right.iter().map(|x| naive_sum(g, x)));
    Tree { left, right }
}

fn naive_neg(g: &Tree) -> Tree {
    Tree {
        left: g.right.iter().map(naive_neg).collect(),
        right: g.left.iter().map(naive_neg).collect(),
    }
}

fn build(s: &mut Store, t: &Tree) -> GameId {
    let left: Vec<GameId> = t.left.iter().map(|x| build(s, x)).collect();
    let right: Vec<GameId> = t.right.iter().map(|x| build(s, x)).collect();
    s.canonical(left, right).unwrap()
}

/// The canonical form as a tree (through the engine's own options).
fn unbuild(s: &mut Store, g: GameId) -> Tree {
    let (l, r) = s.options(g);
    Tree {
        left: l.iter().map(|x| unbuild(s, *x)).collect(),
        right: r.iter().map(|x| unbuild(s, *x)).collect(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn order_agrees_with_the_definition(a in tree(4), b in tree(4)) {
        let mut s = Store::new();
        let (ga, gb) = (build(&mut s, &a), build(&mut s, &b));
        prop_assert_eq!(s.le(ga, gb).unwrap(), naive_le(&a, &b));
        prop_assert_eq!(s.le(gb, ga).unwrap(), naive_le(&b, &a));
        // Equal values are identical ids.
        prop_assert_eq!(ga == gb, naive_le(&a, &b) && naive_le(&b, &a));
    }

    #[test]
    fn canonical_form_equals_the_game_and_is_idempotent(a in tree(4)) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let c = unbuild(&mut s, g);
        prop_assert!(naive_le(&a, &c) && naive_le(&c, &a));
        let (l, r) = s.options(g);
        prop_assert_eq!(s.canonical(l.to_vec(), r.to_vec()).unwrap(), g);
    }

    #[test]
    fn sums_agree_with_the_definition(a in tree(3), b in tree(2)) {
        let mut s = Store::new();
        let (ga, gb) = (build(&mut s, &a), build(&mut s, &b));
        let sum = s.add(ga, gb).unwrap();
        let formal = naive_sum(&a, &b);
        let c = unbuild(&mut s, sum);
        prop_assert!(naive_le(&formal, &c) && naive_le(&c, &formal));
        let neg = s.neg(ga);
        let c = unbuild(&mut s, neg);
        let formal = naive_neg(&a);
        prop_assert!(naive_le(&formal, &c) && naive_le(&c, &formal));
    }

    #[test]
    fn group_laws(a in tree(4), b in tree(4), c in tree(3)) {
        let mut s = Store::new();
        let (ga, gb, gc) = (build(&mut s, &a), build(&mut s, &b), build(&mut s, &c));
        let d = s.sub(ga, ga).unwrap();
        prop_assert_eq!(d, s.zero());
        prop_assert_eq!(s.add(ga, gb).unwrap(), s.add(gb, ga).unwrap());
        let ab = s.add(ga, gb).unwrap();
        let bc = s.add(gb, gc).unwrap();
        prop_assert_eq!(s.add(ab, gc).unwrap(), s.add(ga, bc).unwrap());
        let nn = s.neg(ga);
        prop_assert_eq!(s.neg(nn), ga);
    }

    #[test]
    fn order_is_a_partial_order_consistent_with_outcomes(a in tree(3), b in tree(3), c in tree(3)) {
        let mut s = Store::new();
        let (ga, gb, gc) = (build(&mut s, &a), build(&mut s, &b), build(&mut s, &c));
        prop_assert!(s.le(ga, ga).unwrap());
        if s.le(ga, gb).unwrap() && s.le(gb, gc).unwrap() {
            prop_assert!(s.le(ga, gc).unwrap());
        }
        if s.le(ga, gb).unwrap() && s.le(gb, ga).unwrap() {
            prop_assert_eq!(ga, gb);
        }
        let zero = s.zero();
        let expected = match s.compare(ga, zero).unwrap() {
            Relation::Greater => Outcome::Left,
            Relation::Less => Outcome::Right,
            Relation::Equal => Outcome::Previous,
            Relation::Confused => Outcome::Next,
        };
        prop_assert_eq!(s.outcome(ga).unwrap(), expected);
        // Outcome from play: Left wins moving first iff some G^L ≥ 0 (naively).
        let empty = Tree { left: vec![], right: vec![] };
        let left_first = a.left.iter().any(|x| naive_le(&empty, x));
        let right_first = a.right.iter().any(|x| naive_le(x, &empty));
        let naive = match (left_first, right_first) {
            (true, true) => Outcome::Next,
            (true, false) => Outcome::Left,
            (false, true) => Outcome::Right,
            (false, false) => Outcome::Previous,
        };
        prop_assert_eq!(s.outcome(ga).unwrap(), naive);
    }

    #[test]
    fn printing_then_parsing_gives_the_same_game(a in tree(4), b in tree(3)) {
        for style in [Style::Ascii, Style::Unicode] {
            let mut interp = Interp::new(Mode::Check, style);
            let ga = build(&mut interp.store, &a);
            let gb = build(&mut interp.store, &b);
            // Sums exercise number translation and the named forms in print.
            let g = interp.store.add(ga, gb).unwrap();
            let text = format_game(&mut interp.store, g, style).unwrap();
            let id = interp.add_source("<roundtrip>", &text, None);
            let v = interp.eval_source_expr(id).unwrap_or_else(|_| panic!("{text} does not parse back"));
            let back = match v {
                Value::Game(s) => s.canonical(&mut interp.store).unwrap(),
                Value::Rational(r) => interp.store.number(yose::game::Dyadic::from_rational(&r).unwrap()),
                other => panic!("{text} evaluated to {other:?}"),
            };
            prop_assert_eq!(back, g, "{}", text);
        }
    }

    /// Heating by t and cooling back by t returns the game (checked for
    /// t = 1/2, 1, 2, 3 on random games; cooling loses information, so the other
    /// order is not an identity).
    #[test]
    fn cooling_undoes_heating(a in tree(3), k in 0usize..4) {
        let mut s = Store::new();
        let g = build(&mut s, &a);
        let t = [yose::game::Dyadic::new(1.into(), 1), yose::game::Dyadic::from_i64(1), yose::game::Dyadic::from_i64(2), yose::game::Dyadic::from_i64(3)][k].clone();
        let tg = s.number(t.clone());
        let hot = s.heat(g, tg).unwrap();
        prop_assert_eq!(s.cool(hot, &t).unwrap(), g);
    }
}
