use super::*;
use crate::go::play_game;

fn opts() -> ReadOptions {
    ReadOptions::default()
}

fn game_of(text: &str) -> Game {
    match read(text, &opts()) {
        Ok(g) => g.game,
        Err(e) => panic!("{e}\n{text}"),
    }
}

fn err_of(text: &str) -> SgfError {
    match read(text, &opts()) {
        Ok(g) => panic!("read:\n{}", g.game),
        Err(e) => e,
    }
}

/// The text an error points at.
fn at<'a>(text: &'a str, e: &SgfError) -> &'a str {
    &text[e.span.clone()]
}

/// A board's point by its Go name.
fn pt(g: &Game, name: &str) -> usize {
    let pos = g.position();
    let (r, c) = coords::parse_go(name, pos.width(), pos.height()).unwrap();
    pos.index(r, c).unwrap()
}

fn rational(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn the_tree_keeps_every_property_with_decoded_values_and_spans() {
    let text = "junk (before) (;FF[4]C[a\\]b\\\\c\\\nd]SZ[9]XY[kept][two]\n;B[cc](;W[dd])(;W[ee];B[ff])) \n";
    let c = parse(text).unwrap();
    assert_eq!(c.roots, vec![0]);
    let root = &c.nodes[0];
    let comment = root.get("C").unwrap();
    assert_eq!(comment.values[0].text, "a]b\\cd");
    assert_eq!(&text[comment.values[0].span.clone()], "a\\]b\\\\c\\\nd");
    let unknown = root.get("XY").unwrap();
    assert_eq!(unknown.values.len(), 2);
    assert_eq!(&text[unknown.ident_span.clone()], "XY");
    assert_eq!(&text[unknown.values[1].span.clone()], "two");
    // Root → B[cc] → two variations.
    assert_eq!(root.children, vec![1]);
    assert_eq!(c.nodes[1].children, vec![2, 3]);
    assert_eq!(c.nodes[3].children, vec![4]);
    assert_eq!(c.nodes[4].get("B").unwrap().values[0].text, "ff");
    assert_eq!(&text[c.nodes[2].offset..c.nodes[2].offset + 1], ";");
}

#[test]
fn malformed_text_is_an_error_at_the_byte_at_fault() {
    let cases: &[(&str, &str, &str)] = &[
        ("no tree here", "", "no SGF game tree"),
        ("(;B[aa];W[bb]", "(", "never closed"),
        ("(;C[oops)", "[", "value is never closed"),
        ("(;B[aa] % )", "%", "unexpected `%`"),
        ("(;FF[4]()", "(", "must start with a node"),
        ("(;B[aa](;W[bb]);B[cc])", ";", "a node after the variations"),
        ("(;FF[4]B ;W[aa])", "B", "has no value"),
        ("(;FF[4]add[aa])", "add", "not a property name"),
        ("(B[aa])", "B", "unexpected `B`"),
    ];
    for &(text, fault, message) in cases {
        let e = parse(text).unwrap_err();
        assert_eq!(at(text, &e), fault, "{text}: {e}");
        assert!(e.kind.to_string().contains(message), "{text}: {e}");
    }
    // The `;` at fault is the one after the variation.
    let text = "(;B[aa](;W[bb]);B[cc])";
    assert_eq!(parse(text).unwrap_err().span, 15..16);
}

#[test]
fn text_after_the_last_game_tree_is_an_error_and_more_trees_a_note() {
    // A stray `)`, a node outside any tree, other text: each an error at
    // its first character (the file's author meant something by it).
    for (text, fault, c) in [
        ("(;GM[1]SZ[9];B[cc]));W[dd])", 19, ')'),
        ("(;GM[1]SZ[9];B[cc])garbage ;W[dd]", 19, 'g'),
        ("(;SZ[9];B[cc])\n\n  ;W[dd]", 18, ';'),
        ("(;SZ[9])\n(;SZ[5])é", 17, 'é'),
    ] {
        let e = read(text, &opts()).unwrap_err();
        assert_eq!(
            (e.span.start, e.kind.clone()),
            (fault, SgfErrorKind::AfterLastTree(c)),
            "{text}"
        );
        assert!(
            e.kind.to_string().contains("after the last game tree"),
            "{e}"
        );
    }
    // Whitespace may follow.
    assert_eq!(game_of("(;SZ[9];B[cc]) \r\n\t\n").moves().len(), 1);
    // A collection of several game trees: each is parsed (a malformed
    // second tree is an error), the first is read, with a note at the
    // second.
    let text = "(;SZ[9];B[cc])\n(;SZ[5];W[aa];B[bb])(;SZ[7])";
    let r = read(text, &opts()).unwrap();
    assert_eq!(r.game.position().width(), 9);
    assert_eq!(r.game.moves().len(), 1);
    assert_eq!(r.notes.len(), 1);
    assert_eq!(
        r.notes[0].text,
        "the file holds 3 game trees; yose reads the first"
    );
    assert_eq!(r.notes[0].span, 16..17);
    let e = read("(;SZ[9];B[cc])(;SZ[5];W[aa]", &opts()).unwrap_err();
    assert_eq!((e.span.start, e.kind), (14, SgfErrorKind::UnclosedTree));
}

#[test]
fn a_point_set_up_twice_in_one_node_is_an_error_at_the_second() {
    for (text, fault, first, second) in [
        ("(;GM[1]SZ[9]AB[cc]AW[cc])", 21, "AB[cc]", "AW[cc]"),
        ("(;SZ[9]AB[cc][cc])", 14, "AB[cc]", "AB[cc]"),
        (
            "(;SZ[9]AB[aa:cc];AE[dd]AW[ee]AE[bb:ee])",
            32,
            "AE[dd]",
            "AE[bb:ee]",
        ),
    ] {
        let e = err_of(text);
        assert_eq!(e.span.start, fault, "{text}: {e}");
        let point = if first == "AE[dd]" { "D6" } else { "C7" };
        assert_eq!(
            e.kind,
            SgfErrorKind::SetupTwice {
                point: point.into(),
                first: first.into(),
                second: second.into(),
            },
            "{text}"
        );
    }
    assert_eq!(
        err_of("(;SZ[9]AB[cc]AW[cc])").kind.to_string(),
        "C7 is set up twice in one node (`AB[cc]`, then `AW[cc]`): \
         the points of `AB`, `AW` and `AE` in a node are unique"
    );
}

#[test]
fn ae_clears_points_in_a_setup_node_and_setup_is_refused_in_a_move_node() {
    let g = game_of("(;FF[4]GM[1]SZ[9]AB[cc][dd];AE[cc];W[ee])");
    assert_eq!(g.position().cell(pt(&g, "C7")), Cell::Empty);
    assert_eq!(g.position().cell(pt(&g, "D6")), Cell::Stone(Colour::Black));
    assert_eq!(g.position().cell(pt(&g, "E5")), Cell::Stone(Colour::White));
    // A rectangle, and a point cleared and set again in later nodes.
    let g = game_of("(;SZ[5]AB[aa:ea][ac:ec];AE[ba:da];AW[ca])");
    let stones = |g: &Game, colour| {
        (0..25)
            .filter(|&p| g.position().cell(p) == Cell::Stone(colour))
            .count()
    };
    assert_eq!(
        (stones(&g, Colour::Black), stones(&g, Colour::White)),
        (7, 1)
    );
    // FF[4]: setup and a move are not mixed in one node; which comes first
    // is not said, so the node is refused at its first setup value.
    for (text, fault, setup, mv) in [
        (
            "(;FF[4]GM[1]SZ[9];B[cc]AE[cc];W[dd])",
            26,
            "AE[cc]",
            "B[cc]",
        ),
        ("(;SZ[9]AW[dd]B[cc])", 10, "AW[dd]", "B[cc]"),
        ("(;SZ[9];W[ee]AB[aa:bb])", 16, "AB[aa:bb]", "W[ee]"),
    ] {
        let e = err_of(text);
        assert_eq!(e.span.start, fault, "{text}: {e}");
        assert_eq!(
            e.kind,
            SgfErrorKind::SetupWithMove {
                setup: setup.into(),
                mv: mv.into()
            }
        );
    }
    // Marks, labels, comments and `PL` go with a move (the move, played
    // after `PL`, decides the turn after it).
    let g = game_of("(;SZ[9];B[cc]PL[B]MA[cc]LB[dd:a]C[x])");
    assert_eq!(g.to_move(), Colour::White);
    assert_eq!(g.mark(pt(&g, "C7")), Some(Status::Dead));
}

#[test]
fn a_setup_node_counts_where_it_stands_in_the_line() {
    // B C7, W D6, setup B F4, W G3.
    let text = "(;GM[1]SZ[9];B[cc];W[dd];AB[ff];W[gg])";
    let at_move = |m| {
        read(
            text,
            &ReadOptions {
                move_number: m,
                variation: vec![],
            },
        )
        .unwrap()
        .game
    };
    let f4 = |g: &Game| g.position().cell(pt(g, "F4"));
    let g3 = |g: &Game| g.position().cell(pt(g, "G3"));
    let two = at_move(Some(2));
    assert_eq!((f4(&two), g3(&two)), (Cell::Empty, Cell::Empty));
    assert_eq!(two.move_number(), 2);
    assert!(two.render(crate::go::Style::Ascii).contains("· move 2\n"));
    for whole in [at_move(Some(3)), at_move(None)] {
        assert_eq!(f4(&whole), Cell::Stone(Colour::Black));
        assert_eq!(g3(&whole), Cell::Stone(Colour::White));
        // The history restarts at the setup; the numbering does not.
        assert_eq!(whole.moves().len(), 1);
        assert_eq!(whole.move_number(), 3);
        assert!(whole.render(crate::go::Style::Ascii).contains("· move 3\n"));
        assert_eq!(whole.to_move(), Colour::Black);
    }
    // Before the first move, setup nodes make the start.
    let text = "(;SZ[9];AB[cc];PL[W];W[dd])";
    let start = read(
        text,
        &ReadOptions {
            move_number: Some(0),
            variation: vec![],
        },
    )
    .unwrap()
    .game;
    assert_eq!(
        start.position().cell(pt(&start, "C7")),
        Cell::Stone(Colour::Black)
    );
    assert_eq!((start.to_move(), start.move_number()), (Colour::White, 0));
    // After move N, the next `PL` belongs to the next move.
    let text = "(;SZ[9];B[cc];PL[B];B[dd])";
    let one = read(
        text,
        &ReadOptions {
            move_number: Some(1),
            variation: vec![],
        },
    )
    .unwrap()
    .game;
    assert_eq!(one.to_move(), Colour::White);
}

#[test]
fn every_prefix_and_mangling_of_a_file_is_read_or_refused_without_panic() {
    let text = "(;FF[4]GM[1]SZ[5]KM[0.5]RU[AGA]PL[W]AB[aa:bb]AW[dd]LB[cc:a][ee:hello]MA[dd]\
                ;W[cd];B[tt](;W[]C[x\\]y];B[ce])(;W[ec]))";
    read(text, &opts()).unwrap();
    for end in 0..=text.len() {
        let _ = read(&text[..end], &opts());
        let mut mangled = text.as_bytes().to_vec();
        if end < mangled.len() {
            for b in [b'(', b')', b'[', b']', b';', b'\\', b'z', b':'] {
                mangled[end] = b;
                if let Ok(s) = std::str::from_utf8(&mangled) {
                    for m in [None, Some(0), Some(3)] {
                        for variation in [vec![], vec![1], vec![1, 5]] {
                            let o = ReadOptions {
                                move_number: m,
                                variation,
                            };
                            let _ = read(s, &o);
                        }
                    }
                }
            }
        }
    }
    // Too many nodes are refused at the first past the limit.
    let many = format!("(;{})", ";".repeat(MAX_NODES));
    let e = parse(&many).unwrap_err();
    assert_eq!(
        (e.kind, e.span.start),
        (SgfErrorKind::TooManyNodes, MAX_NODES + 1)
    );
    // Deep nesting does not overflow the stack.
    let deep = format!("{}{}", "(;B[aa]".repeat(100_000), ")".repeat(100_000));
    assert!(parse(&deep).is_ok());
}

#[test]
fn a_file_gives_the_board_setup_moves_and_settings() {
    let text = "(;FF[4]GM[1]SZ[9]KM[6.5]RU[Chinese]PL[W]
        AB[aa][ba:ca]AW[ab][bb]
        ;W[ee];B[ff]
        ;W[gg]MA[ab]SQ[aa]TR[ba]CR[ee]LB[hh:a][ii:ab][gg:b])";
    let r = read(text, &opts()).unwrap();
    let g = &r.game;
    assert_eq!((g.position().width(), g.position().height()), (9, 9));
    assert_eq!(*g.komi(), rational(13, 2));
    assert_eq!(g.rules().scoring, Rules::Chinese);
    assert_eq!(g.rules().ko_rule, KoRule::PositionalSuperko);
    assert_eq!(g.start_to_move(), Colour::White);
    assert_eq!(g.to_move(), Colour::Black);
    assert_eq!(g.moves().len(), 3);
    assert_eq!(r.line_moves, 3);
    let pos = g.position();
    for (name, cell) in [
        ("A9", Cell::Stone(Colour::Black)),
        ("B9", Cell::Stone(Colour::Black)),
        ("C9", Cell::Stone(Colour::Black)),
        ("A8", Cell::Stone(Colour::White)),
        ("B8", Cell::Stone(Colour::White)),
        ("E5", Cell::Stone(Colour::White)),
        ("F4", Cell::Stone(Colour::Black)),
        ("G3", Cell::Stone(Colour::White)),
        ("D9", Cell::Empty),
    ] {
        assert_eq!(pos.cell(pt(g, name)), cell, "{name}");
    }
    // MA dead, SQ safe, TR / CR nothing.
    assert_eq!(g.mark(pt(g, "A8")), Some(Status::Dead));
    assert_eq!(g.mark(pt(g, "A9")), Some(Status::Safe));
    assert_eq!(g.mark(pt(g, "B9")), None);
    assert_eq!(g.mark(pt(g, "E5")), None);
    // Labels: single lowercase letters are kept, the rest noted.
    assert_eq!(pos.label_point('a'), Some(pt(g, "H2")));
    assert_eq!(pos.label_point('b'), Some(pt(g, "G3")));
    assert_eq!(r.notes.len(), 1);
    assert!(r.notes[0].text.contains("`ab`"), "{:?}", r.notes);
    assert_eq!(&text[r.notes[0].span.clone()], "ii:ab");
    // The labels name points in move strings.
    let next = play_game(g, "B a").unwrap();
    assert_eq!(
        next.position().cell(pt(g, "H2")),
        Cell::Stone(Colour::Black)
    );
}

#[test]
fn territory_marks_the_opponents_stones_in_it_dead() {
    let text = "(;SZ[5]AB[bb][cc]AW[dd][ee];TB[aa:bb][dd]TW[cc][ee][ab])";
    let g = game_of(text);
    assert_eq!(g.mark(pt(&g, "D2")), Some(Status::Dead));
    assert_eq!(g.mark(pt(&g, "C3")), Some(Status::Dead));
    // Own stones and empty points in one's territory: nothing.
    assert_eq!(g.mark(pt(&g, "B4")), None);
    assert_eq!(g.mark(pt(&g, "E1")), None);
}

#[test]
fn ff3_files_long_names_tt_passes_and_the_default_size() {
    let text = "(;GaMe[1]AddBlack[dd]AddWhite[pp]Komi[0];B[tt];White[qq];B[])";
    let r = read(text, &opts()).unwrap();
    let g = &r.game;
    assert_eq!(g.position().width(), 19);
    assert_eq!(g.moves().len(), 3);
    assert_eq!(g.moves()[0].point, None);
    assert_eq!(g.moves()[2].point, None);
    assert_eq!(g.position().cell(pt(g, "D16")), Cell::Stone(Colour::Black));
    assert_eq!(g.position().cell(pt(g, "Q4")), Cell::Stone(Colour::White));
    assert_eq!(g.position().cell(pt(g, "R3")), Cell::Stone(Colour::White));
    // A rectangle and the default komi.
    let g = game_of("(;SZ[13:9]B[mi])");
    assert_eq!((g.position().width(), g.position().height()), (13, 9));
    assert_eq!(g.moves()[0].point, Some(8 * 13 + 12));
    assert!(g.komi().is_zero());
}

#[test]
fn moves_need_not_alternate() {
    let g = game_of("(;SZ[5];B[aa];B[bb];W[cc];W[dd])");
    assert_eq!(g.moves().len(), 4);
    assert_eq!(g.to_move(), Colour::Black);
}

#[test]
fn a_handicap_game_gives_white_the_first_move() {
    // Who is to move after the root, for each root.
    let cases = [
        ("(;SZ[9]HA[2]AB[cc][gg])", Colour::White),
        ("(;SZ[9]HA[2]AB[cc][gg]PL[B])", Colour::Black),
        // Free placement: the handicap stones come as moves, Black first.
        ("(;SZ[9]HA[2])", Colour::Black),
        ("(;SZ[9]HA[0]AB[cc])", Colour::Black),
        ("(;SZ[9]HA[1]AB[cc])", Colour::Black),
        ("(;SZ[9]AB[cc][gg])", Colour::Black),
        // After White's first move, Black's turn.
        ("(;SZ[9]HA[2]AB[cc][gg];W[ee])", Colour::Black),
    ];
    for (text, to_move) in cases {
        assert_eq!(game_of(text).to_move(), to_move, "{text}");
    }
}

#[test]
fn bad_games_are_errors_at_their_values() {
    struct Case {
        text: &'static str,
        fault: &'static str,
        message: &'static str,
    }
    let cases = [
        Case {
            text: "(;SZ[21];B[aa])",
            fault: "21",
            message: "1 to 19 lines each way; this one is 21×21",
        },
        Case {
            text: "(;SZ[19:25])",
            fault: "19:25",
            message: "19×25",
        },
        Case {
            text: "(;SZ[nine])",
            fault: "nine",
            message: "bad board size",
        },
        Case {
            text: "(;GM[2]SZ[8])",
            fault: "2",
            message: "not a game of Go",
        },
        Case {
            text: "(;SZ[9]KM[six])",
            fault: "six",
            message: "`KM[six]` is not a number",
        },
        Case {
            text: "(;SZ[9]PL[X])",
            fault: "X",
            message: "not a colour",
        },
        Case {
            text: "(;SZ[9];B[jj])",
            fault: "jj",
            message: "off the 9×9 board",
        },
        Case {
            text: "(;SZ[9]AB[a])",
            fault: "a",
            message: "not a point",
        },
        Case {
            text: "(;SZ[9]AB[aa:zz])",
            fault: "aa:zz",
            message: "off the 9×9 board",
        },
        // Two moves in one node (FF[4] allows one).
        Case {
            text: "(;SZ[9];B[cc]W[dd])",
            fault: "dd",
            message: "`W[dd]` is a second move in the node of `B[cc]`",
        },
        // The black stone in the corner has no liberty.
        Case {
            text: "(;SZ[9]AW[ba][ab]AB[aa])",
            fault: "aa",
            message: "after this setup the black chain at A9 has no liberty",
        },
        // A later setup node is checked as well; here the white stone
        // takes the last liberty of the black chain.
        Case {
            text: "(;SZ[9]AB[aa][ba];W[ca];AW[ab][bb])",
            fault: "ab",
            message: "the black chain at A9 has no liberty",
        },
        Case {
            text: "(;SZ[9];B[cc];W[cc])",
            fault: "cc",
            message: "move 2 `W[cc]` is illegal: the point is occupied",
        },
        Case {
            text: "(;SZ[9]AB[ba][ab];W[aa])",
            fault: "aa",
            message: "move 1 `W[aa]` is illegal: suicide",
        },
        // A ko: Black takes at C2 … on a 4×3 board, White retakes at once.
        Case {
            text: "(;SZ[4:3]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb])",
            fault: "bb",
            message: "move 2 `W[bb]` is illegal: ko",
        },
        Case {
            text: "(;SZ[4:3]RU[NZ]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[];B[];W[bb])",
            fault: "bb",
            message: "situational superko",
        },
    ];
    for case in &cases {
        let e = err_of(case.text);
        assert_eq!(at(case.text, &e), case.fault, "{}: {e}", case.text);
        assert!(
            e.kind.to_string().contains(case.message),
            "{}: {e}",
            case.text
        );
    }
}

#[test]
fn a_line_of_too_many_moves_is_refused_in_time() {
    // Passes are always legal: 5 000 of them are read, one more is not.
    let passes = |n: usize| format!("(;SZ[9]{})", ";B[];W[]".repeat(n / 2));
    let start = std::time::Instant::now();
    assert_eq!(
        game_of(&passes(MAX_LINE_MOVES)).moves().len(),
        MAX_LINE_MOVES
    );
    let text = passes(MAX_LINE_MOVES + 2);
    let e = err_of(&text);
    assert_eq!(e.kind, SgfErrorKind::TooManyMoves);
    assert_eq!(e.span.start, text.len() - "];W[])".len());
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn unknown_properties_and_rules_are_kept_and_ignored() {
    let text = "(;FF[4]SZ[5]RU[Martian]ZZ[whatever]FOO[1][2];B[cc]XX[y])";
    let r = read(text, &opts()).unwrap();
    assert_eq!(r.game.moves().len(), 1);
    assert_eq!(r.game.rules(), RuleSet::default());
    assert_eq!(r.notes.len(), 1);
    assert!(r.notes[0].text.contains("unknown rules `Martian`"));
    assert_eq!(&text[r.notes[0].span.clone()], "Martian");
    let c = parse(text).unwrap();
    assert!(c.nodes[0].get("FOO").is_some() && c.nodes[1].get("XX").is_some());
}

#[test]
fn variations_and_move_numbers_pick_the_position() {
    // Root, B[aa], then two variations: W[bb] B[cc] | W[dd].
    let text = "(;SZ[5];B[aa](;W[bb];B[cc])(;W[dd]))";
    let read_with = |move_number, variation: Vec<usize>| {
        read(
            text,
            &ReadOptions {
                move_number,
                variation,
            },
        )
    };
    let name = |g: &Game| -> Vec<String> {
        g.moves()
            .iter()
            .map(|&m| g.position().move_name(m))
            .collect()
    };
    let main = read_with(None, vec![]).unwrap();
    assert_eq!(name(&main.game), ["B A5", "W B4", "B C3"]);
    assert_eq!(main.line_moves, 3);
    let second = read_with(None, vec![1]).unwrap();
    assert_eq!(name(&second.game), ["B A5", "W D2"]);
    assert_eq!(second.line_moves, 2);
    let after_one = read_with(Some(1), vec![]).unwrap();
    assert_eq!(name(&after_one.game), ["B A5"]);
    let start = read_with(Some(0), vec![]).unwrap();
    assert!(start.game.moves().is_empty());
    let e = read_with(Some(4), vec![]).unwrap_err();
    assert_eq!(e.kind, SgfErrorKind::NoSuchMove { asked: 4, moves: 3 });
    let e = read_with(None, vec![2]).unwrap_err();
    assert_eq!(&text[e.span.clone()], ";");
    assert_eq!(e.span.start, 7);
    assert!(e.kind.to_string().contains("no variation 3 at branch 1"));
    // A variation list longer than the line's branchings is refused.
    let e = read_with(None, vec![0, 0]).unwrap_err();
    assert_eq!(
        e.kind,
        SgfErrorKind::TooFewBranches {
            asked: 2,
            branches: 1
        }
    );
}

#[test]
fn komi_is_an_exact_decimal_and_writes_back() {
    for (text, n, d) in [
        ("6.5", 13, 2),
        ("-0.5", -1, 2),
        ("7", 7, 1),
        ("+3.75", 15, 4),
        ("0.125", 1, 8),
        (".5", 1, 2),
    ] {
        let x = decimal(text).unwrap();
        assert_eq!(x, rational(n, d), "{text}");
        assert_eq!(decimal(&real(&x)), Some(x));
    }
    for bad in ["", "-", ".", "6,5", "1e3", "--1"] {
        assert_eq!(decimal(bad), None, "{bad}");
    }
    assert_eq!(real(&rational(1, 3)), "0.333333");
    assert_eq!(real(&rational(-13, 2)), "-6.5");
}

/// A game with setup stones, marks, labels, moves, komi and rules.
fn sample() -> Game {
    let pos = Position::parse(
        "\
. . . . . . .
. x x o o . .
. x . x o . a
. x x o . o .
. . . . . . .",
    )
    .unwrap();
    let rules = RuleSet {
        scoring: Rules::Chinese,
        ko_rule: KoRule::SituationalSuperko,
        nopass: None,
    };
    let mut g = Game::new(&pos, Colour::White, rational(7, 2), rules).unwrap();
    g = play_game(&g, "W F3, B G4, W pass, B F5").unwrap();
    let d4 = pt(&g, "D4");
    g.set_mark(d4, Some(Status::Dead));
    let b4 = pt(&g, "B4");
    g.set_mark(b4, Some(Status::Safe));
    g
}

#[test]
fn a_written_game_reads_back_the_same() {
    let g = sample();
    let text = write(&g, None);
    let back = read(&text, &opts()).unwrap();
    assert!(back.notes.is_empty(), "{:?}", back.notes);
    let h = back.game;
    assert!(h.same_board(g.position()), "{text}\n{h}");
    assert!(h.start().cells == g.start().cells);
    assert_eq!(h.moves(), g.moves());
    assert_eq!(h.to_move(), g.to_move());
    assert_eq!(h.start_to_move(), g.start_to_move());
    assert_eq!(h.komi(), g.komi());
    assert_eq!(h.rules(), g.rules());
    assert_eq!(h.position().labels, g.position().labels);
    for p in 0..35 {
        assert_eq!(h.mark(p), g.mark(p), "{p}");
    }
    expect_test::expect![[r#"
        (;FF[4]GM[1]CA[UTF-8]AP[yose:0.1]SZ[7:5]KM[3.5]RU[AGA]PL[W]
        AB[bb][cb][bc][dc][bd][cd]AW[db][eb][ec][dd][fd]
        ;W[fc] ;B[gb] ;W[] ;B[fa]SQ[bb]MA[db]LB[gc:a])
    "#]]
    .assert_eq(&text);
}

#[test]
fn a_solved_line_is_a_variation_with_the_score_in_a_comment() {
    let g = sample();
    let line = play_game(&g, "W G3, B pass").unwrap();
    let moves = &line.moves()[g.moves().len()..];
    let text = write(&g, Some((moves, "yose: W G3 [score: -1/2] ]")));
    assert!(text.contains("\n(;W[gc]C[yose: W G3 [score: -1/2\\] \\]];B[])"));
    let back = read(&text, &opts()).unwrap().game;
    assert!(back.same_board(line.position()));
    assert_eq!(back.moves(), line.moves());
    // The comment is on the variation's first node.
    let c = parse(&text).unwrap();
    let last = c.nodes.iter().position(|n| n.get("C").is_some()).unwrap();
    assert_eq!(
        c.nodes[last].get("C").unwrap().values[0].text,
        "yose: W G3 [score: -1/2] ]"
    );
    // The position alone stops before the line.
    let before = read(
        &text,
        &ReadOptions {
            move_number: Some(g.moves().len()),
            variation: vec![],
        },
    )
    .unwrap();
    assert!(before.game.same_board(g.position()));
}

// ------------------------------------------------ comparison with sgf-parse

/// What sgf-parse makes of a node: identifiers with their values in our
/// terms (moves and point lists as board indices on a board `width` wide).
fn their_node(node: &sgf_parse::SgfNode<sgf_parse::go::Prop>, width: usize) -> Vec<String> {
    use sgf_parse::go::{Move as M, Prop};
    use sgf_parse::SgfProp;
    let mut out: Vec<String> = node
        .properties()
        .map(|p| match p {
            Prop::B(m) | Prop::W(m) => {
                let at = match m {
                    M::Pass => "pass".to_string(),
                    // FF[3]'s pass, which sgf-parse reads as a point.
                    M::Move(q) if (q.x, q.y) == (19, 19) && width <= 19 => "pass".to_string(),
                    M::Move(q) => (q.y as usize * width + q.x as usize).to_string(),
                };
                format!("{}={at}", p.identifier())
            }
            Prop::AB(ps) | Prop::AW(ps) | Prop::AE(ps) | Prop::MA(ps) | Prop::SQ(ps) => {
                let mut v: Vec<usize> = ps
                    .iter()
                    .map(|q| q.y as usize * width + q.x as usize)
                    .collect();
                v.sort_unstable();
                format!("{}={v:?}", p.identifier())
            }
            Prop::KM(x) => format!("KM={x}"),
            Prop::C(t) => format!("C={}", t.text),
            other => other.identifier(),
        })
        .collect();
    out.sort();
    out
}

/// The same from our parse.
fn our_node(node: &Node, width: usize, height: usize) -> Vec<String> {
    let mut out: Vec<String> = node
        .props
        .iter()
        .map(|p| match p.ident.as_str() {
            "B" | "W" => {
                let at = match move_point(&p.values[0], width, height).unwrap() {
                    None => "pass".to_string(),
                    Some(q) => q.to_string(),
                };
                format!("{}={at}", p.ident)
            }
            "AB" | "AW" | "AE" | "MA" | "SQ" => {
                let mut v: Vec<usize> = p
                    .values
                    .iter()
                    .flat_map(|v| points(v, width, height).unwrap())
                    .map(|(r, c)| r * width + c)
                    .collect();
                v.sort_unstable();
                v.dedup();
                format!("{}={v:?}", p.ident)
            }
            "KM" => format!("KM={}", p.values[0].text.parse::<f64>().unwrap()),
            "C" => format!("C={}", p.values[0].text),
            _ => p.ident.clone(),
        })
        .collect();
    out.sort();
    out
}

/// Both parses of `text` agree node by node, tree shape included.
fn same_as_sgf_parse(text: &str) {
    let theirs = sgf_parse::go::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let ours = parse(text).unwrap();
    assert_eq!(theirs.len(), ours.roots.len());
    let (w, h) = board_size(&ours.nodes[ours.roots[0]]).unwrap();
    let mut stack: Vec<(&sgf_parse::SgfNode<_>, usize)> = theirs
        .iter()
        .zip(&ours.roots)
        .map(|(t, &o)| (t, o))
        .collect();
    let mut count = 0;
    while let Some((t, o)) = stack.pop() {
        let node = &ours.nodes[o];
        assert_eq!(their_node(t, w), our_node(node, w, h), "{text}");
        let kids: Vec<_> = t.children().collect();
        assert_eq!(kids.len(), node.children.len(), "{text}");
        stack.extend(kids.into_iter().zip(node.children.iter().copied()));
        count += 1;
    }
    assert_eq!(count, ours.nodes.len());
}

/// sgf-parse finds nothing wrong in what we write (FF[4]: no move and
/// setup in one node, no duplicate property, game information only once).
fn valid_for_sgf_parse(text: &str) {
    for node in sgf_parse::go::parse(text).unwrap() {
        node.validate().unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    }
}

#[test]
fn our_parse_agrees_with_sgf_parse() {
    let g = sample();
    let line = play_game(&g, "W G3, B pass").unwrap();
    same_as_sgf_parse(&write(&g, None));
    same_as_sgf_parse(&write(&g, Some((&line.moves()[4..], "score: 1/2"))));
    valid_for_sgf_parse(&write(&g, None));
    valid_for_sgf_parse(&write(&g, Some((&line.moves()[4..], "score: 1/2"))));
    let empty = Game::new(
        &Position::empty(9, 9),
        Colour::Black,
        BigRational::zero(),
        RuleSet::default(),
    )
    .unwrap();
    valid_for_sgf_parse(&write(&empty, None));
    valid_for_sgf_parse(&write(&empty, Some((&[], "nothing to play"))));
    same_as_sgf_parse(include_str!("../../../examples/endgame.sgf"));
    for text in [
        "(;FF[4]GM[1]SZ[9]KM[6.5]AB[aa:cc]AE[bb]C[a\\]b];B[dd](;W[ee]MA[dd]SQ[aa])(;W[];B[ff]))",
        "(;GM[1]SZ[19]AddBlack[pd][dp]AddWhite[dd]Comment[FF3 \\\\ file];B[tt];W[qq])",
        "(;SZ[13:9]AB[aa][mi];B[cc];W[dd])(;SZ[5];B[cc])",
        // (sgf-parse keeps soft line breaks, `\\` before a break, which FF[4]
        // removes: the first test checks ours.)
        "  (;FF[4]\n  C[multi\nline]\n  ;B[aa]\n  ;W[bb]\n)\n",
    ] {
        same_as_sgf_parse(text);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// Any text, and any text made of SGF's own characters, is read or
    /// refused with an error inside the text; never a panic.
    #[test]
    fn random_text_never_panics(
        noise in "\\PC{0,80}",
        sgfish in "[();\\[\\]\\\\:ABWELSZKMPRUabcdtz0-9 \n]{0,120}",
    ) {
        for text in [noise.clone(), sgfish.clone(), format!("(;{sgfish}"), format!("(;SZ[5]{sgfish})")] {
            match read(&text, &opts()) {
                Ok(_) => {}
                Err(e) => proptest::prop_assert!(e.span.end <= text.len() && e.span.start <= e.span.end),
            }
        }
    }
}
