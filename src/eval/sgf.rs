//! SGF files in the language: `sgf_read`, `sgf` and `sgf_write`, on top of
//! [`crate::go::sgf`] (which knows no IO).
//!
//! * `sgf_read("game.sgf")` is the game of the file's main line;
//!   `move: N` stops after the line's `N`th move (0: before the first);
//!   `variation: [2, 1]` follows, at the first node with several children,
//!   the second child, at the next such node the first (counted from 1;
//!   past the list, the first child; a move or a branching the file does
//!   not have is an error labelled on the option).
//! * `sgf(G)` is the SGF text of a game (or of a position, as `game(Q)`
//!   would make it); `sgf(G, "W C3, B D4", comment: "…")` adds the line of
//!   moves from the game's position after the game's last node, its first
//!   node carrying the comment (by default the line itself). That node has
//!   no other child, so in SGF the line is no variation but the game's
//!   continuation: `sgf_read` of the file gives the position after the
//!   line, `move: N` (N the game's moves) the game's position. In place of the
//!   move string, a line of `analyse` (`A["black_first"]`): its moves, and
//!   by default a comment giving its final score and the winner.
//! * `sgf_write(G, "out.sgf")` and `sgf_write(G, "W C3, B D4", "out.sgf",
//!   comment: "…")` write that text to a file and give its path.
//!
//! Paths are relative to the directory of the script that names them (as
//! `use "file.cgt"`; in the REPL, the current directory).
//!
//! Files are handled like a careful system tool does:
//! * reading, a symbolic link in place of the file is refused, even one to
//!   a good SGF file (the file is opened with `O_NOFOLLOW` after a
//!   `symlink_metadata` check: a link planted where a script expects its
//!   game is not followed), and so are anything but a regular file and
//!   files over 16 MiB;
//! * writing goes to a new temporary file beside the target (created
//!   exclusively, never through a link) renamed over it, so a failure
//!   leaves nothing half-written; a directory or a link in place of the
//!   target is refused;
//! * error messages quote the file only when it holds an SGF game tree:
//!   a malformed file is reported as `file:line:column` with a short
//!   excerpt of that line of the file, nothing else of it.
//!
//! Notes about parts of a file that were ignored (an unknown `RU`, a label
//! that is not one lowercase letter) are printed on standard error as
//! `note: file:line:column: …`; the game is read all the same.

use super::registry::{Builtin, Call, NamedArg};
use super::value::Value;
use super::{EvalResult, Interp, Span};
use crate::diag::Diagnostic;
use crate::go::{self, sgf};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The largest SGF file read: 16 MiB.
pub const MAX_SGF_BYTES: u64 = 16 << 20;

pub(super) const BUILTINS: &[Builtin] = &[SGF_READ, SGF, SGF_WRITE];

const COMMENT: NamedArg = NamedArg {
    name: "comment",
    values: "a string",
    default: "\"yose: \" and the line",
};

const SGF_READ: Builtin = Builtin {
    name: "sgf_read",
    params: "\"game.sgf\"",
    arity: (1, 1),
    named: &[
        NamedArg {
            name: "move",
            values: "N",
            default: "the end of the main line",
        },
        NamedArg {
            name: "variation",
            values: "a list such as [2, 1]",
            default: "[] (the main line)",
        },
    ],
    returns: "a game in progress",
    help: "the game of an SGF file (relative to the script): its main line; the position after move N; the child, from 1, followed at each branching",
    example: "sgf_read(\"examples/endgame.sgf\", move: 0)",
    takes_kos: false,
    run: sgf_call,
};
const SGF: Builtin = Builtin {
    name: "sgf",
    params: "G[, \"W C3, B D4\"]",
    arity: (1, 2),
    named: &[COMMENT],
    returns: "a string",
    help: "the SGF text of a game, with a line of moves from its position (or a line of `analyse`, with its score as the comment) after its last move",
    example: "sgf(game(go(\"...\\n...\\n...\")), \"B B2, W A1\")",
    ..SGF_READ
};
const SGF_WRITE: Builtin = Builtin {
    name: "sgf_write",
    params: "G[, \"W C3, B D4\"], \"out.sgf\"",
    arity: (2, 3),
    named: &[COMMENT],
    returns: "the file name",
    help: "write a game (and a line) as an SGF file (relative to the script)",
    example: "sgf_write(game(go(\"...\\n...\\n...\")), \"/tmp/yose-help-example.sgf\")",
    ..SGF_READ
};

/// Line and column (from 1, columns in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// The line of `text` holding `offset`, cut to about 60 characters around
/// the offset, and the column of the offset in that excerpt.
fn excerpt(text: &str, offset: usize) -> (String, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line: Vec<char> = text[start..end].trim_end_matches('\r').chars().collect();
    let col = text[start..at].chars().count();
    let from = col.saturating_sub(30);
    let to = (from + 60).min(line.len());
    let mut shown: String = line[from..to]
        .iter()
        .map(|&c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut caret = col - from;
    if from > 0 {
        shown.insert(0, '…');
        caret += 1;
    }
    if to < line.len() {
        shown.push('…');
    }
    (shown, caret)
}

/// Why a file cannot be read or written.
fn refuse(interp: &Interp, span: &Span, path: &Path, why: impl std::fmt::Display) -> super::Stop {
    interp.error(span, format!("cannot use {}: {why}", path.display()))
}

impl Interp {
    /// A path as a script names it: relative to the script's directory.
    fn script_path(&self, name: &str) -> PathBuf {
        let base = self.sources[self.current]
            .dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("."));
        base.join(name)
    }

    /// Reads an SGF file with the care the module docs describe.
    fn read_sgf_file(&self, path: &Path, span: &Span) -> EvalResult<String> {
        let bytes = crate::files::read_bytes(path, MAX_SGF_BYTES, crate::files::Links::Refuse)
            .map_err(|e| refuse(self, span, path, e))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Writes `text` to `path` through a temporary file and a rename.
    fn write_sgf_file(&self, path: &Path, text: &str, span: &Span) -> EvalResult<()> {
        crate::files::write_atomic(path, text.as_bytes()).map_err(|e| refuse(self, span, path, e))
    }

    /// The diagnostic of a malformed SGF file named `shown` (as the script
    /// wrote it) at `span`.
    fn sgf_error(&self, e: &sgf::SgfError, text: &str, shown: &str, span: &Span) -> super::Stop {
        let (line, col) = line_col(text, e.span.start);
        let mut diag = Diagnostic::error(format!("{shown}:{line}:{col}: {}", e.kind))
            .with_label(span.clone(), format!("in {shown}:{line}:{col}"));
        // The file is quoted only when it is an SGF file at all.
        if e.kind != sgf::SgfErrorKind::NoGameTree {
            let (shown_line, caret) = excerpt(text, e.span.start);
            let width = text.get(e.span.clone()).map_or(1, |s| {
                s.lines().next().unwrap_or("").chars().count().clamp(1, 40)
            });
            diag = diag.with_note(format!(
                "{shown}:{line}:{col}:\n  {shown_line}\n  {}{}",
                " ".repeat(caret),
                "^".repeat(width)
            ));
        }
        if let sgf::SgfErrorKind::Illegal { .. } = e.kind {
            diag = diag
                .with_help("read the game up to the move before with `move: N`, or fix the file");
        }
        self.error_with(diag)
    }
}

/// A game from a game value or a position (as `game(Q)` makes it).
fn game_of(interp: &Interp, v: &Value, span: &Span, name: &str) -> EvalResult<Rc<go::Game>> {
    match v {
        Value::GoGame(g) => Ok(g.clone()),
        Value::Position(p) => go::Game::new(
            &p.pos,
            go::Colour::Black,
            num_rational::BigRational::from_integer(0.into()),
            go::RuleSet::default(),
        )
        .map(Rc::new)
        .map_err(|e| interp.error(span, e.to_string())),
        other => Err(interp.error(
            span,
            format!(
                "`{name}` needs a game (from `game(…)` or `sgf_read(…)`), found {}",
                other.kind()
            ),
        )),
    }
}

fn string_arg<'a>(interp: &Interp, v: &'a Value, span: &Span, what: &str) -> EvalResult<&'a str> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(interp.error(span, format!("expected {what}, found {}", other.kind()))),
    }
}

/// A line of moves to write: a move string (`"W C3, B D4"`), or a line
/// record of `analyse` (`A["black_first"]`: `moves` with `player` and
/// `point`, and the final `score`), whose moves become the string and
/// whose score (with the winner) the default comment.
pub(super) fn line_arg(
    interp: &Interp,
    v: &Value,
    span: &Span,
) -> EvalResult<(String, Option<String>)> {
    let what = "a move string such as \"W C3, B D4\", or a line of `analyse` (A[\"black_first\"])";
    let bad = |found: &str| interp.error(span, format!("expected {what}, found {found}"));
    match v {
        Value::Str(s) => Ok((s.to_string(), None)),
        Value::Record(..) => {
            let Some(Value::List(moves)) = v.field("moves") else {
                return Err(bad("a record without a list of `moves`"));
            };
            let mut names = Vec::new();
            for m in moves.iter() {
                match (m.field("player"), m.field("point")) {
                    (Some(Value::Str(player)), Some(Value::Str(point))) => {
                        names.push(format!("{player} {point}"))
                    }
                    _ => return Err(bad("a move without `player` and `point`")),
                }
            }
            let line = names.join(", ");
            let comment = match (v.field("score"), v.field("winner")) {
                (Some(Value::Rational(score)), winner) => {
                    let score = go::format_number(score);
                    Some(match winner {
                        Some(Value::Str(w)) if &**w == "jigo" => {
                            format!("yose: {line}: score {score}, jigo")
                        }
                        Some(Value::Str(w)) => format!("yose: {line}: score {score}, {w} wins"),
                        _ => format!("yose: {line}: score {score}"),
                    })
                }
                _ => None,
            };
            Ok((line, comment))
        }
        other => Err(bad(other.kind())),
    }
}

/// The SGF text of `game`, with the line of moves `line` (a move string
/// played from the game's position) after the game's last move.
fn sgf_text(
    interp: &Interp,
    game: &go::Game,
    line: Option<(&str, &Span)>,
    comment: Option<String>,
) -> EvalResult<String> {
    let Some((moves, span)) = line else {
        return Ok(sgf::write(game, None));
    };
    // A line may start with the player who is not to move (`analyse`'s
    // `white_first` on a game where Black is to move): SGF allows it, and
    // `sgf_read` plays such a move as if `PL` had given that player the turn.
    let first = go::parse_moves(game.position(), moves)
        .ok()
        .and_then(|written| written.first().map(|w| w.mv.colour));
    let start = match first {
        Some(colour) if colour != game.to_move() => {
            game.clone()
                .with_settings(colour, game.komi().clone(), game.rules())
        }
        _ => game.clone(),
    };
    let after = go::play_game(&start, moves).map_err(|e| {
        let before = go::state_before(&start, moves, e.index);
        let shown = before.map(|b| ("game", b.render(go::Style::Ascii)));
        interp.move_error(&e, moves, span, shown)
    })?;
    let played = &after.moves()[start.moves().len()..];
    let comment = comment.unwrap_or_else(|| format!("yose: {}", moves.trim()));
    Ok(sgf::write(game, Some((played, &comment))))
}

/// `sgf_read`, `sgf` and `sgf_write` (the named arguments read once).
fn sgf_call(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (name, args, spans, span) = (c.name, &c.args[..], c.spans, c.span);
    let _ = span;
    let named = &c.named;
    let sp = |i: usize| c.sp(i);
    let mut options = sgf::ReadOptions::default();
    let mut comment = None;
    let (mut move_span, mut variation_span) = (None, None);
    for (k, v, s) in named {
        match k.as_str() {
            "move" => {
                move_span = Some(s.clone());
                let n = interp.to_integer(v, s)?;
                options.move_number = Some(
                    usize::try_from(n)
                        .map_err(|_| interp.error(s, "`move:` is a move number: 0 or more"))?,
                );
            }
            "variation" => {
                variation_span = Some(s.clone());
                let Value::List(items) = v else {
                    return Err(interp.error(
                        s,
                        "`variation:` is a list of child numbers from 1, such as [2, 1]",
                    ));
                };
                for x in items.iter() {
                    let n = interp.to_integer(x, s)?;
                    let k = usize::try_from(n)
                        .ok()
                        .filter(|&k| k >= 1)
                        .ok_or_else(|| interp.error(s, "variations are numbered from 1"))?;
                    options.variation.push(k - 1);
                }
            }
            "comment" => comment = Some(string_arg(interp, v, s, "a comment string")?.to_string()),
            _ => {}
        }
    }
    match name {
        "sgf_read" => {
            let shown = string_arg(interp, &args[0], &sp(0), "a file name string")?.to_string();
            let path = interp.script_path(&shown);
            let text = interp.read_sgf_file(&path, &sp(0))?;
            match sgf::read(&text, &options) {
                Ok(read) => {
                    for note in &read.notes {
                        let (line, col) = line_col(&text, note.span.start);
                        eprintln!("note: {shown}:{line}:{col}: {}", note.text);
                    }
                    Ok(Value::GoGame(Rc::new(read.game)))
                }
                // The options asked for what the file does not have.
                Err(e) => match (&e.kind, move_span, variation_span) {
                    (sgf::SgfErrorKind::NoSuchMove { .. }, Some(at), _)
                    | (sgf::SgfErrorKind::TooFewBranches { .. }, _, Some(at)) => {
                        Err(interp.error(&at, format!("{} ({shown})", e.kind)))
                    }
                    (sgf::SgfErrorKind::NoSuchVariation { .. }, _, Some(at)) => {
                        Err(interp.sgf_error(&e, &text, &shown, &at))
                    }
                    _ => Err(interp.sgf_error(&e, &text, &shown, &sp(0))),
                },
            }
        }
        "sgf" => {
            let game = game_of(interp, &args[0], &sp(0), name)?;
            let line = match args.get(1) {
                Some(v) => Some(line_arg(interp, v, &sp(1))?),
                None => None,
            };
            let comment = comment.or_else(|| line.as_ref().and_then(|l| l.1.clone()));
            let text = sgf_text(
                interp,
                &game,
                line.as_ref().map(|l| (l.0.as_str(), &spans[1])),
                comment,
            )?;
            Ok(Value::str(&text))
        }
        _ => {
            let game = game_of(interp, &args[0], &sp(0), name)?;
            let last = args.len() - 1;
            let shown =
                string_arg(interp, &args[last], &sp(last), "a file name string")?.to_string();
            let line = match last {
                2 => Some(line_arg(interp, &args[1], &sp(1))?),
                _ => None,
            };
            let comment = comment.or_else(|| line.as_ref().and_then(|l| l.1.clone()));
            let line_span = sp(1);
            let text = sgf_text(
                interp,
                &game,
                line.as_ref().map(|l| (l.0.as_str(), &line_span)),
                comment,
            )?;
            let path = interp.script_path(&shown);
            interp.write_sgf_file(&path, &text, &sp(last))?;
            Ok(Value::str(&shown))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{excerpt, line_col, MAX_SGF_BYTES};
    use crate::eval::{Interp, Mode};
    use crate::render::Style;
    use std::path::PathBuf;

    /// A fresh directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("yose-sgf-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn message(stop: crate::eval::Stop) -> String {
        match stop {
            crate::eval::Stop::Error(r) => r.diag.message.clone(),
            _ => panic!("not an error"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn files_are_read_and_written_with_care() {
        let dir = scratch("care");
        let interp = Interp::new(Mode::Script, Style::Ascii);
        let span = 0..0;
        let good = dir.join("good.sgf");
        std::fs::write(&good, "(;SZ[9];B[cc])").unwrap();
        assert_eq!(
            interp.read_sgf_file(&good, &span).unwrap(),
            "(;SZ[9];B[cc])"
        );
        // A link planted in place of the file is refused, not followed.
        let link = dir.join("link.sgf");
        std::os::unix::fs::symlink(&good, &link).unwrap();
        let e = message(interp.read_sgf_file(&link, &span).unwrap_err());
        assert!(e.contains("symbolic link"), "{e}");
        // Directories and other non-regular files are refused.
        let e = message(interp.read_sgf_file(&dir, &span).unwrap_err());
        assert!(e.contains("not a regular file"), "{e}");
        // So are absurd sizes (a sparse file: no 16 MiB written).
        let big = dir.join("big.sgf");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_SGF_BYTES + 1).unwrap();
        let e = message(interp.read_sgf_file(&big, &span).unwrap_err());
        assert!(e.contains("16 MiB"), "{e}");
        // Writing replaces the file through a temporary one and leaves
        // nothing else behind; a link at the target is refused and left
        // as it was.
        let out = dir.join("out.sgf");
        interp.write_sgf_file(&out, "(;SZ[5])", &span).unwrap();
        interp.write_sgf_file(&out, "(;SZ[7])", &span).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "(;SZ[7])");
        let e = message(interp.write_sgf_file(&link, "(;)", &span).unwrap_err());
        assert!(e.contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&good).unwrap(), "(;SZ[9];B[cc])");
        let e = message(interp.write_sgf_file(&dir, "(;)", &span).unwrap_err());
        assert!(e.contains("not a regular file"), "{e}");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["big.sgf", "good.sgf", "link.sgf", "out.sgf"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Runs `src` as a script of `dir`; the message of its error, if any.
    fn run_in(interp: &mut Interp, dir: &std::path::Path, src: &str) -> Result<(), String> {
        let id = interp.add_source("<test>", src, Some(dir.to_path_buf()));
        interp.run_source(id).map_err(message)
    }

    /// In SGF a node with one child has no variation: `sgf_write`'s line,
    /// after a game with no continuation, is the game's continuation and
    /// reads back as the main line, for `sgf_read` and for `sgf-parse`.
    #[test]
    fn a_written_line_continues_the_main_line() {
        let dir = scratch("line");
        let mut interp = Interp::new(Mode::Script, Style::Ascii);
        let setup = "let G = play(game(go(\". . . . .\\n. . . . .\\n. . . . .\\n. . . . .\\n. . . . .\")), \"B C3, W D4\")\n\
                     sgf_write(G, \"B B2, W D2\", \"line.sgf\", comment: \"the line\")\n";
        run_in(&mut interp, &dir, setup).unwrap();
        let text = std::fs::read_to_string(dir.join("line.sgf")).unwrap();
        assert!(
            text.ends_with(";W[db]\n(;B[bd]C[the line];W[dd]))\n"),
            "{text}"
        );
        // Ours: the whole file is the main line, the game is its move 2,
        // and the line has no branching to pick.
        run_in(
            &mut interp,
            &dir,
            "assert same_board(sgf_read(\"line.sgf\"), play(G, \"B B2, W D2\"))\n\
             assert same_board(sgf_read(\"line.sgf\", move: 2), G)\n",
        )
        .unwrap();
        let e = run_in(
            &mut interp,
            &dir,
            "sgf_read(\"line.sgf\", variation: [1])\n",
        )
        .unwrap_err();
        assert_eq!(
            e,
            "the variation picks a child at 1 branching node, but the line has 0 (line.sgf)"
        );
        // sgf-parse: one game tree whose main line holds the four moves and
        // no node with two children.
        let trees = sgf_parse::go::parse(&text).unwrap();
        assert_eq!(trees.len(), 1);
        let moves: Vec<String> = trees[0]
            .main_variation()
            .filter_map(|n| n.get_move().map(|m| m.to_string()))
            .collect();
        assert_eq!(moves, ["B[cc]", "W[db]", "B[bd]", "W[dd]"]);
        assert!(trees[0].main_variation().all(|n| n.children().count() <= 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn excerpts_show_the_line_around_the_offset() {
        let text = "(;FF[4]\nAB[aa][bb\n";
        let at = text.find("[bb").unwrap();
        assert_eq!(line_col(text, at), (2, 7));
        assert_eq!(excerpt(text, at), ("AB[aa][bb".to_string(), 6));
        let long = format!("(;C[{}]B[zz])", "x".repeat(100));
        let at = long.find("zz").unwrap();
        let (shown, caret) = excerpt(&long, at);
        assert_eq!(shown.chars().nth(caret), Some('z'));
        assert!(shown.chars().count() <= 62);
        assert_eq!(line_col("é\u{301}x", 3), (1, 2));
    }
}
