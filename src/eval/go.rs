//! Go positions in the language (issue 5): the `go` statement, the builtins
//! `go`, `play`, `value`, `chilled` and `go_stats`, and the diagnostics of
//! diagrams and move strings, on top of [`crate::go`].
//!
//! # Conventions
//!
//! * `go Q = """ … """` binds a position drawn by a diagram string (any
//!   string expression; `go(s)` is the same as a function). Leading
//!   whitespace of each line and blank lines are ignored, so a diagram may be
//!   indented like the code around it, and Sensei's Library diagrams
//!   (`$$`-lines) can be pasted as they are.
//! * A position prints as its diagram (ASCII or Unicode as the REPL / CLI
//!   style says) followed by the prisoners taken so far.
//! * `play(Q, "B a, W b")` and Jasiek's `play(Q, "B[ab]")` (`t` a tenuki)
//!   return the position after the moves. The name `play` is free: the play
//!   questions on sums are `solve`, `best_moves`, `play_out`, ….
//! * `value(Q)` is the unchilled value, `chilled(Q)` the chilled one (the
//!   papers' default view). Both take `rules: japanese` (the default:
//!   territory + prisoners) or `rules: chinese` (area), and `budget: N`
//!   (expanded positions; 1 000 000 by default).
//! * **Latent kos.** A ko that provably cannot change the result of play
//!   (the rule and theorem of [`crate::ko::latent`]: every move into it is
//!   answered so that the mover is no better off, and the counts agree) is
//!   resolved: `value(Q)` / `chilled(Q)`, and a position used as a game,
//!   give the short game of correct play (chilled `X . . O` is 0).
//!   `latent: keep` gives the ko graph as searched. The rule is decided on
//!   the graph of the view asked for, so the unchilled and chilled values
//!   may decide differently; a ko the rule does not resolve may matter, and
//!   stays a graph, analysed by the ko builtins (`temperature(K, komaster:
//!   black)`, …).
//! * **A position used where a game is expected stands for its chilled value
//!   under Japanese rules**: `temperature(Q)`, `thermograph(Q)`,
//!   `incentives(Q)`, `mean(Q)`, `Q + *`, `Q == 1/2`, `region R = Q` all see
//!   `chilled(Q)`. Write `value(Q)` or `chilled(Q, rules: chinese)` for the
//!   other views.
//! * `go_stats(Q)` reports what the search did (nodes, table hits, …).
//!
//! # Diagnostics
//!
//! Errors in a diagram or a move string point at the character or move at
//! fault inside the string literal: the byte offsets the core reports are
//! mapped back to the source through the literal (raw `"""…"""` strings map
//! one to one; escapes in `"…"` strings are decoded alongside). When the
//! string was not written as a literal at the call (a variable, a function
//! argument), the whole argument is labelled and a note gives the line and
//! column inside the string.

use super::registry::{self, Builtin, Call, NamedArg};
use super::value::Value;
use super::{EvalResult, Interp, Span, Stop};
use crate::diag::Diagnostic;
use crate::game::GameId;
use crate::go::{
    self, Cell, DiagramError, DiagramErrorKind, GoError, GoValue, KoRule, MoveError, MoveErrorKind,
    Position, Rules, SearchOptions, SearchStats, Status,
};
use std::cell::RefCell;
use std::rc::Rc;

pub(super) const BUILTINS: &[Builtin] = &[GO, PLAY, VALUE, CHILLED, GAME, SAME_BOARD, GO_STATS];

const LATENT: NamedArg = NamedArg {
    name: "latent",
    values: "resolve|keep",
    default: "resolve (a latent ko resolved as the rules say)",
};
const BUDGET: NamedArg = registry::budget("1 000 000 positions per search");

const GO_ENTRY: Builtin = Builtin {
    name: "",
    params: "Q",
    arity: (1, 1),
    named: &[registry::RULES, BUDGET, registry::KO_RULE, LATENT],
    returns: "",
    help: "",
    example: "",
    takes_kos: false,
    run: go_value,
};

const GO: Builtin = Builtin {
    name: "go",
    params: "diagram",
    named: &[],
    returns: "a Go position",
    help: "the Go position drawn by a diagram string (X black, O white, . empty; also `go Q = \"\"\"…\"\"\"`), or a game's board (its safe-marked stones framing, its points named C3); used as a game it stands for its chilled value",
    example: "go(\"XXXXX\\nX...O\\nXXXXX\")",
    run: go_diagram,
    ..GO_ENTRY
};
const PLAY: Builtin = Builtin {
    name: "play",
    params: "Q, \"B a, W b\"",
    arity: (2, 2),
    named: &[],
    returns: "a Go position (or game)",
    help: "the position (or game) after the moves (also `B[ab]`, `t` = tenuki), with captures",
    example: "play(go(\"XXXXX\\nXa.bO\\nXXXXX\"), \"B a, W b\")",
    run: play,
    ..GO_ENTRY
};
const VALUE: Builtin = Builtin {
    name: "value",
    returns: "a game, unchilled (or a ko value)",
    help: "the unchilled value of a Go position: points as counted on the board (a position used as a game stands for its chilled value instead)",
    example: "value(go(\"XXXXX\\nX...O\\nXXXXX\"))",
    ..GO_ENTRY
};
const CHILLED: Builtin = Builtin {
    name: "chilled",
    returns: "a game, chilled (or a ko value)",
    help: "the chilled value of a Go position, the default view (what a position used as a game stands for)",
    example: "chilled(go(\"XXXXX\\nX...O\\nXXXXX\"), rules: chinese)",
    ..GO_ENTRY
};
const GAME: Builtin = Builtin {
    name: "game",
    named: &[
        NamedArg {
            name: "to_move",
            values: "black|white",
            default: "black (a game's own)",
        },
        NamedArg {
            name: "komi",
            values: "a number such as 6.5",
            default: "0 (a game's own)",
        },
        NamedArg {
            name: "rules",
            values: "japanese|chinese|ultimate|fundamental",
            default: "japanese (a game's own)",
        },
        registry::KO_RULE,
        NamedArg {
            name: "version",
            values: "original|simple",
            default: "original (no-pass rules only)",
        },
        NamedArg {
            name: "handicap",
            values: "N",
            default: "none (no-pass rules only)",
        },
    ],
    returns: "a game in progress",
    help: "a game in progress on the whole board Q (a diagram, a position or a game; uppercase stones are marked safe; a Sensei's Library `$$` diagram reads as SL means it)",
    example: "game(go(\"...\\n.X.\\n...\"), to_move: white, komi: 1/2)",
    run: game,
    ..GO_ENTRY
};
const SAME_BOARD: Builtin = Builtin {
    name: "same_board",
    params: "P, Q",
    arity: (2, 2),
    named: &[],
    returns: "true or false",
    help: "the two positions or games show the same stones on the same points",
    example: "same_board(go(\"X.\\n..\"), play(go(\"..\\n..\"), \"B A2\"))",
    run: same_board,
    ..GO_ENTRY
};
const GO_STATS: Builtin = Builtin {
    name: "go_stats",
    named: &[registry::RULES, BUDGET, registry::KO_RULE],
    returns: "a record: region_points, nodes, tt_lookups, tt_hits, hit_percent, settled, max_depth",
    help: "what the search for Q's value did",
    example: "go_stats(go(\"XXXXX\\nX...O\\nXXXXX\"))[\"nodes\"]",
    run: go_stats,
    ..GO_ENTRY
};

/// What a search depends on: rules, ko rule and node budget.
type SearchKey = (Rules, KoRule, u64);

/// The search behind a position used as a game: Japanese rules, the basic
/// ko rule, the default budget (README, "A position used where a game is
/// expected").
fn default_view() -> SearchKey {
    let budget = SearchOptions::default().node_budget;
    (Rules::Japanese, KoRule::Basic, budget)
}

/// What one search found for a position: the unchilled value, the chilled
/// value, or both (a value with kos is searched for the view asked, the
/// chilled one built directly: [`go::evaluate_go_chilled`]; the other view
/// is added when asked, the chilled one by chilling the unchilled), and the
/// statistics (the same for either view).
struct GoEval {
    key: SearchKey,
    value: Option<GoValue>,
    chilled: Option<GoValue>,
    stats: SearchStats,
}

/// The options of the search behind `key`.
fn search_options(key: SearchKey) -> SearchOptions {
    let (rules, ko_rule, budget) = key;
    SearchOptions {
        node_budget: budget,
        ko_rule,
        ..SearchOptions::with_rules(rules)
    }
}

/// A position with the values computed for it so far.
pub struct GoPosition {
    pub pos: Position,
    /// Evaluations already made, by rules, ko rule and node budget.
    evals: RefCell<Vec<GoEval>>,
    /// [`Interp::position_ko_value`] once computed: the chilled ko value,
    /// or `None` when the position holds no ko.
    ko_view: RefCell<Option<Option<Value>>>,
    /// Values with their latent kos resolved ([`GoValue::resolve_latent`]),
    /// by search and view (chilled or not).
    resolved: RefCell<Vec<(SearchKey, bool, GoValue)>>,
}

impl GoPosition {
    pub fn new(pos: Position) -> GoPosition {
        GoPosition {
            pos,
            evals: RefCell::new(Vec::new()),
            ko_view: RefCell::new(None),
            resolved: RefCell::new(Vec::new()),
        }
    }
}

impl std::fmt::Debug for GoPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GoPosition({:?})", self.pos)
    }
}

/// The printed form of a position: its diagram and the captures so far.
pub fn render(p: &GoPosition, style: crate::render::Style) -> String {
    let style = match style {
        crate::render::Style::Ascii | crate::render::Style::Cgsuite => go::Style::Ascii,
        crate::render::Style::Unicode => go::Style::Unicode,
    };
    p.pos.render(style).trim_end().to_string()
}

/// The printed form of a game in progress: the board with coordinates, who
/// is to move, prisoners, komi and rules.
pub fn render_game(g: &go::Game, style: crate::render::Style) -> String {
    let style = match style {
        crate::render::Style::Ascii | crate::render::Style::Cgsuite => go::Style::Ascii,
        crate::render::Style::Unicode => go::Style::Unicode,
    };
    g.render(style).trim_end().to_string()
}

// ------------------------------------------------------- string origins

/// For a string value that was written as a literal at `span` in `src`, the
/// source offset of each byte offset of the string (and of its end).
fn string_origin(src: &str, span: &Span, value: &str) -> Option<Vec<usize>> {
    let text = src.get(span.clone())?;
    let q = text.find('"')?;
    if !text[..q].chars().all(|c| c == '(' || c.is_whitespace()) {
        return None;
    }
    let start = span.start + q;
    if src[start..].starts_with("\"\"\"") {
        let body = start + 3;
        let end = body + value.len();
        if src.get(body..end)? != value || !src[end..].starts_with("\"\"\"") {
            return None;
        }
        return Some((body..=end).collect());
    }
    let mut map = Vec::with_capacity(value.len() + 1);
    let mut decoded = String::with_capacity(value.len());
    let mut i = start + 1;
    loop {
        if i >= span.end {
            return None;
        }
        let c = src[i..].chars().next()?;
        match c {
            '"' => break,
            '\\' => {
                let e = src[i + 1..].chars().next()?;
                let d = match e {
                    'n' => '\n',
                    't' => '\t',
                    '"' => '"',
                    '\\' => '\\',
                    _ => return None,
                };
                map.extend(std::iter::repeat_n(i, d.len_utf8()));
                decoded.push(d);
                i += 1 + e.len_utf8();
            }
            c => {
                map.extend(i..i + c.len_utf8());
                decoded.push(c);
                i += c.len_utf8();
            }
        }
    }
    map.push(i);
    (decoded == value).then_some(map)
}

/// Line and column (from 1, columns in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

impl Interp {
    /// A diagnostic for `range` (bytes of the string `text`, the value of the
    /// argument written at `arg_span`): labelled inside the literal when it is
    /// one, else on the whole argument with a note.
    pub(super) fn string_diag(
        &self,
        text: &str,
        arg_span: &Span,
        range: std::ops::Range<usize>,
        message: String,
        label: String,
    ) -> Diagnostic {
        let src = self.sources[self.current].text.clone();
        let diag = Diagnostic::error(message);
        match string_origin(&src, arg_span, text) {
            Some(map) => {
                let a = map[range.start.min(text.len())];
                let b = map[range.end.min(text.len())];
                diag.with_label(a..b.max(a), label)
            }
            None => {
                let (line, col) = line_col(text, range.start);
                diag.with_label(arg_span.clone(), label)
                    .with_note(format!("at line {line}, column {col} of the string"))
            }
        }
    }

    fn diagram_error(&self, e: &DiagramError, text: &str, arg_span: &Span) -> Stop {
        let at = e.offset.min(text.len());
        let len = match text[at..].chars().next() {
            Some(c) if c != '\n' && c != '\r' => c.len_utf8(),
            _ => 0,
        };
        let label = match &e.kind {
            DiagramErrorKind::NoRows => "no points here".to_string(),
            DiagramErrorKind::UnknownCharacter(c) => format!("`{c}` is not a point"),
            DiagramErrorKind::MisplacedEdge(_) => "misplaced edge".to_string(),
            DiagramErrorKind::MissingDollars => "expected `$$`".to_string(),
            DiagramErrorKind::RaggedRow { expected, found } if found > expected => {
                format!("point {} of a row of {expected}", expected + 1)
            }
            DiagramErrorKind::RaggedRow { found, .. } => {
                format!("this row ends after {found} points")
            }
            DiagramErrorKind::DuplicateLabel(c) => format!("`{c}` again"),
            DiagramErrorKind::NoEmptyPoint => "no empty point in this diagram".to_string(),
            DiagramErrorKind::NoLiberties => "this chain has no liberty".to_string(),
            DiagramErrorKind::BoardTooLarge { .. } => "too large a board".to_string(),
            DiagramErrorKind::DuplicateMove(n) => format!("move {n} again"),
            DiagramErrorKind::MissingMove(n) => format!("move {n} is missing before this one"),
            DiagramErrorKind::IllegalNumberedMove(..) => "illegal move".to_string(),
        };
        let mut diag = self.string_diag(
            text,
            arg_span,
            at..at + len,
            format!("bad Go diagram: {}", e.kind),
            label,
        );
        if let DiagramErrorKind::DuplicateLabel(c) = e.kind {
            if let Some(first) = text[..at].rfind(c) {
                let src = self.sources[self.current].text.clone();
                if let Some(map) = string_origin(&src, arg_span, text) {
                    diag = diag.with_secondary(map[first]..map[first + 1], "first used here");
                }
            }
        }
        self.error_with(diag)
    }

    /// A move string that cannot be played; for an illegal move, a note
    /// shows `before`: what it is ("position", "game") and, rendered, the
    /// state the move was tried on.
    pub(super) fn move_error(
        &self,
        e: &MoveError,
        text: &str,
        arg_span: &Span,
        before: Option<(&str, String)>,
    ) -> Stop {
        let label = move_error_label(e);
        let mut diag = self.string_diag(text, arg_span, e.span.clone(), e.to_string(), label);
        if let (MoveErrorKind::Illegal(_), Some((what, before))) = (&e.kind, before) {
            diag = diag.with_note(format!(
                "the {what} before move {}:\n{}",
                e.index,
                before.trim_end()
            ));
        }
        self.error_with(diag)
    }

    pub(crate) fn go_error(&self, e: GoError, span: &Span) -> Stop {
        match e {
            GoError::Cg(err) => self.cg_error(err, span),
            GoError::NodeBudget { nodes, budget } => self.error_with(
                Diagnostic::error(format!(
                    "the Go search gave up after {nodes} positions (node budget {budget})"
                ))
                .with_label(
                    span.clone(),
                    format!("this search needs more than {budget} positions"),
                )
                .with_help("raise the limit with `budget: N`, or draw a smaller region"),
            ),
            GoError::Ko { .. } => self.error_with(
                Diagnostic::error(e.to_string())
                    .with_label(span.clone(), "this position holds a ko"),
            ),
            GoError::KoGraph(err) => self.ko_error(err, span),
            GoError::TooLarge { .. } => self.error_with(
                Diagnostic::error(e.to_string()).with_label(span.clone(), "region too large"),
            ),
            GoError::NoLocalValue { .. } => self.error_with(
                Diagnostic::error(e.to_string())
                    .with_label(span.clone(), "no local value under this ko rule"),
            ),
        }
    }

    /// Parses a diagram string written at `span`.
    pub(crate) fn parse_diagram(&self, text: &str, span: &Span) -> EvalResult<Value> {
        match Position::parse(text) {
            Ok(p) => Ok(Value::Position(Rc::new(GoPosition::new(p)))),
            Err(e) => Err(self.diagram_error(&e, text, span)),
        }
    }

    /// The `go NAME = …` statement's value: a diagram string or a position.
    pub(crate) fn go_statement_value(&self, v: Value, span: &Span) -> EvalResult<Value> {
        match v {
            Value::Position(_) => Ok(v),
            Value::Str(s) => self.parse_diagram(&s, span),
            other => Err(self.error(
                span,
                format!(
                    "`go` needs a diagram string such as \"\"\"X . O\"\"\", found {}",
                    other.kind()
                ),
            )),
        }
    }

    /// The unchilled evaluation of a position (remembered on the position).
    fn go_evaluate(
        &mut self,
        p: &GoPosition,
        key: SearchKey,
        span: &Span,
    ) -> EvalResult<(GoValue, SearchStats)> {
        if let Some(e) = p.evals.borrow().iter().find(|e| e.key == key) {
            if let Some(v) = &e.value {
                return Ok((v.clone(), e.stats.clone()));
            }
        }
        let e = go::evaluate_go(&mut self.store, &p.pos, &search_options(key))
            .map_err(|e| self.go_error(e, span))?;
        let mut evals = p.evals.borrow_mut();
        match evals.iter_mut().find(|e| e.key == key) {
            Some(known) => known.value = Some(e.value.clone()),
            None => evals.push(GoEval {
                key,
                value: Some(e.value.clone()),
                chilled: None,
                stats: e.stats.clone(),
            }),
        }
        Ok((e.value, e.stats))
    }

    /// The chilled value of a position (remembered on the position): the
    /// unchilled value chilled when it is known, else searched for directly
    /// ([`go::evaluate_go_chilled`], which builds a ko graph chilled rather
    /// than building it unchilled and chilling it).
    fn go_evaluate_chilled(
        &mut self,
        p: &GoPosition,
        key: SearchKey,
        span: &Span,
    ) -> EvalResult<GoValue> {
        let known = p
            .evals
            .borrow()
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.value.clone(), e.chilled.clone()));
        if let Some((value, chilled)) = known {
            if let Some(c) = chilled {
                return Ok(c);
            }
            if let Some(v) = value {
                let c = v
                    .chill(&mut self.store)
                    .map_err(|e| self.go_error(e, span))?;
                if let Some(e) = p.evals.borrow_mut().iter_mut().find(|e| e.key == key) {
                    e.chilled = Some(c.clone());
                }
                return Ok(c);
            }
        }
        let e = go::evaluate_go_chilled(&mut self.store, &p.pos, &search_options(key))
            .map_err(|e| self.go_error(e, span))?;
        p.evals.borrow_mut().push(GoEval {
            key,
            value: e.value,
            chilled: Some(e.chilled.clone()),
            stats: e.stats,
        });
        Ok(e.chilled)
    }

    /// The value (`chilled`: the chilled value) of a position with its
    /// latent kos resolved: a short game where the rule of
    /// [`crate::ko::latent`] shows that no ko can change the result of play
    /// (remembered on the position).
    fn go_resolved(
        &mut self,
        p: &GoPosition,
        key: SearchKey,
        chilled: bool,
        span: &Span,
    ) -> EvalResult<GoValue> {
        if let Some((_, _, v)) = p
            .resolved
            .borrow()
            .iter()
            .find(|(k, c, _)| *k == key && *c == chilled)
        {
            return Ok(v.clone());
        }
        let v = if chilled {
            self.go_evaluate_chilled(p, key, span)?
        } else {
            self.go_evaluate(p, key, span)?.0
        };
        let v = v
            .resolve_latent(&mut self.store)
            .map_err(|e| self.go_error(e, span))?;
        p.resolved.borrow_mut().push((key, chilled, v.clone()));
        Ok(v)
    }

    /// The statistics of the search of a position (searched unchilled if it
    /// has not been searched yet).
    fn go_stats(&mut self, p: &GoPosition, key: SearchKey, span: &Span) -> EvalResult<SearchStats> {
        if let Some(e) = p.evals.borrow().iter().find(|e| e.key == key) {
            return Ok(e.stats.clone());
        }
        Ok(self.go_evaluate(p, key, span)?.1)
    }

    /// A Go value as a language value (for other builtins' records).
    pub(crate) fn go_value_to_value(&mut self, v: &GoValue) -> Value {
        self.go_value_of(v)
    }

    /// The Go moves behind the option `to` of a position's chilled value
    /// (Japanese rules, the view a position stands for as a game):
    /// [`go::moves_to_option`].
    pub(crate) fn go_moves_to(
        &mut self,
        pos: &Position,
        colour: go::Colour,
        to: GameId,
    ) -> Option<(Vec<go::Move>, Position)> {
        let opts = search_options(default_view());
        go::moves_to_option(&mut self.store, pos, colour, to, &opts, true)
    }

    /// A Go value as a language value: a game, or a sum with ko graphs.
    fn go_value_of(&mut self, v: &GoValue) -> Value {
        match v {
            GoValue::Short(g) => Value::game(*g),
            GoValue::Ko { .. } => super::ko::value_of_parts(v.components(&self.store), None),
        }
    }

    /// A position where a game is expected: its chilled value under Japanese
    /// rules. Where kos are taken (the ko, ko-solver and play builtins,
    /// arithmetic, negation) a position holding a ko has already become its
    /// chilled ko value ([`Interp::ko_views`]); anywhere else a short game
    /// is needed, so the ko is the error.
    pub(crate) fn position_game(&mut self, p: &GoPosition, span: &Span) -> EvalResult<GameId> {
        let c = self.go_resolved(p, default_view(), true, span)?;
        c.into_short().map_err(|e| self.go_error(e, span))
    }

    /// `Some(chilled(Q))` when `v` is a position `Q` whose value (Japanese
    /// rules, the basic ko rule) holds a ko: the sum with ko graphs that the
    /// ko builtins and the arithmetic of sums take, so that
    /// `temperature(Q, komaster: black)` and `Q + ^` work on a ko position
    /// as on its value. `None` for any other value (a ko-free position
    /// stays a position and becomes its chilled game where one is needed).
    pub(crate) fn position_ko_value(
        &mut self,
        v: &Value,
        span: &Span,
    ) -> EvalResult<Option<Value>> {
        let Value::Position(p) = v else {
            return Ok(None);
        };
        if let Some(view) = p.ko_view.borrow().as_ref() {
            return Ok(view.clone());
        }
        let c = self.go_resolved(p, default_view(), true, span)?;
        let view = match c.as_short() {
            Some(_) => None,
            None => Some(self.go_value_of(&c)),
        };
        *p.ko_view.borrow_mut() = Some(view.clone());
        if view.is_some() {
            self.ko_positions.retain(|w| w.strong_count() > 0);
            self.ko_positions.push(Rc::downgrade(p));
        }
        Ok(view)
    }

    /// The Go move of a ko-graph move from node `from` to node `to` of
    /// `graph`, when the graph is the chilled ko value of a position the
    /// interpreter handed out (`B C3`, or `B a` on a labelled diagram):
    /// the point that is empty at `from` and holds the mover's stone at
    /// `to`, the nodes' positions replayed from the walk's lines.
    pub(crate) fn ko_move_name(
        &self,
        graph: &Rc<crate::ko::KoGraph>,
        from: crate::ko::NodeId,
        to: crate::ko::NodeId,
        colour: go::Colour,
    ) -> Option<String> {
        let (pos, ko) = self.ko_positions.iter().find_map(|w| {
            let p = w.upgrade()?;
            let evals = p.evals.borrow();
            let e = evals.iter().find(|e| e.key == default_view())?;
            let Some(GoValue::Ko { kos, .. }) = &e.chilled else {
                return None;
            };
            let ko = kos.iter().find(|k| Rc::ptr_eq(&k.graph, graph))?.clone();
            Some((p.pos.clone(), ko))
        })?;
        let at = |node: crate::ko::NodeId| -> Option<Position> {
            let line = ko.line(node).join(", ");
            let mut cur = pos.clone();
            for w in go::parse_moves(&pos, &line).ok()? {
                // The walk's lines ignore the ko ban, like the local game.
                let mut free = cur.clone();
                free.clear_ko_ban();
                cur = free.play_move(w.mv).ok()?;
            }
            Some(cur)
        };
        let (before, after) = (at(from)?, at(to)?);
        let point = (0..before.cells_len()).find(|&q| {
            before.cell(q) == go::Cell::Empty && after.cell(q) == go::Cell::Stone(colour)
        })?;
        Some(before.move_name_at(colour, point))
    }

    /// The arguments of a builtin that takes kos, each position holding a
    /// ko (also inside a list) replaced by its chilled ko value
    /// ([`Interp::position_ko_value`]).
    pub(crate) fn ko_views(
        &mut self,
        args: Vec<Value>,
        spans: &[Span],
        span: &Span,
    ) -> EvalResult<Vec<Value>> {
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.into_iter().enumerate() {
            let at = spans.get(i).unwrap_or(span);
            let a = match a {
                Value::List(items) if items.iter().any(|x| matches!(x, Value::Position(_))) => {
                    let mut list = Vec::with_capacity(items.len());
                    for x in items.iter() {
                        list.push(self.position_ko_value(x, at)?.unwrap_or_else(|| x.clone()));
                    }
                    Value::list(list)
                }
                a => self.position_ko_value(&a, at)?.unwrap_or(a),
            };
            out.push(a);
        }
        Ok(out)
    }
}

/// The short label under a move error.
fn move_error_label(e: &MoveError) -> String {
    match &e.kind {
        MoveErrorKind::Syntax(_) => "here".to_string(),
        MoveErrorKind::UnknownPoint(p) => format!("no point `{p}`"),
        MoveErrorKind::AmbiguousT => "tenuki or the point `t`?".to_string(),
        MoveErrorKind::Coordinate(_, go::CoordError::ColumnI) => "no column I".to_string(),
        MoveErrorKind::Coordinate(_, go::CoordError::OffBoard { .. }) => {
            "off the board".to_string()
        }
        MoveErrorKind::Coordinate(_, go::CoordError::Malformed) => "here".to_string(),
        MoveErrorKind::Notation(_) => "no such move here".to_string(),
        MoveErrorKind::Illegal(why) => match why {
            go::IllegalMove::Occupied => "occupied".to_string(),
            go::IllegalMove::Suicide => "suicide".to_string(),
            go::IllegalMove::KoBan => "ko-banned retake".to_string(),
            go::IllegalMove::OffBoard => "off the board".to_string(),
            go::IllegalMove::OutOfTurn(c) => format!("{c} is to move"),
            go::IllegalMove::Superko { .. } => "repeats a position".to_string(),
            go::IllegalMove::NewKoRules { rule, .. } => format!("forbidden by the {}", rule.name()),
            go::IllegalMove::NoPass(why) => super::ultimate::rule_break_label(why),
            go::IllegalMove::NotAMoveHere { rules: Some(_), .. } => {
                "not a move under this game's rules".to_string()
            }
            go::IllegalMove::NotAMoveHere { rules: None, .. } => {
                "not a move on a position".to_string()
            }
        },
    }
}

fn position_of<'a>(interp: &Interp, v: &'a Value, span: &Span) -> EvalResult<&'a Rc<GoPosition>> {
    match v {
        Value::Position(p) => Ok(p),
        other => Err(interp.error(
            span,
            format!(
                "expected a Go position (from `go Q = \"\"\"…\"\"\"` or `go(\"…\")`), found {}",
                other.kind()
            ),
        )),
    }
}

/// `to_move: black | white`.
fn colour_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<go::Colour> {
    if let Value::Str(s) = v {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => return Ok(go::Colour::Black),
            "white" | "w" => return Ok(go::Colour::White),
            _ => {}
        }
    }
    Err(interp.error(span, "expected a player: `black` or `white`"))
}

/// `ko_rule: basic | positional | situational | natural_situational |
/// new_ko_rules | none` (bare names or strings); an unknown name gets the
/// nearest one as a suggestion.
pub(crate) fn ko_rule_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<KoRule> {
    let name = match v {
        Value::Str(s) => s.to_string(),
        other => {
            return Err(interp.error(
                span,
                format!(
                    "`ko_rule:` is a rule name such as basic, found {}",
                    other.kind()
                ),
            ))
        }
    };
    KoRule::from_name(&name).map_err(|near| {
        let all: Vec<&str> = KoRule::ALL.iter().map(|r| r.name()).collect();
        let mut d = Diagnostic::error(format!("unknown ko rule `{name}`"))
            .with_label(span.clone(), "not a ko rule")
            .with_note(format!("the ko rules are {}", all.join(", ")));
        if let Some(n) = near {
            d = d.with_help(format!("did you mean `{n}`?"));
        }
        interp.error_with(d)
    })
}

/// `latent: resolve | keep` (bare names or strings): whether a ko that
/// provably cannot change the result becomes the short game of correct play
/// ([`crate::ko::latent`]; the default) or stays a ko graph.
fn latent_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<bool> {
    match v {
        Value::Str(s) if &**s == "resolve" => Ok(true),
        Value::Str(s) if &**s == "keep" => Ok(false),
        _ => Err(interp.error(
            span,
            "`latent:` is \"resolve\" (a ko that provably cannot change the result becomes the short game of correct play; the default) or \"keep\" (the ko graph)",
        )),
    }
}

pub(crate) fn rules_of(interp: &Interp, v: &Value, span: &Span) -> EvalResult<Rules> {
    if let Value::Str(s) = v {
        match s.to_ascii_lowercase().as_str() {
            "japanese" | "territory" => return Ok(Rules::Japanese),
            "chinese" | "area" => return Ok(Rules::Chinese),
            _ => {}
        }
    }
    Err(interp.choice_error(
        span,
        "expected the rules: `japanese` (territory, the default) or `chinese` (area)",
        v,
        &["japanese", "chinese", "territory", "area"],
    ))
}

/// The rules, ko rule, budget and latent-ko choice of a search (`game`
/// reads `rules: ultimate|fundamental` itself).
fn search_named(interp: &mut Interp, c: &Call) -> EvalResult<(Rules, KoRule, u64, bool)> {
    let mut rules = Rules::Japanese;
    if let Some((v, s)) = c.named("rules") {
        if !(c.name == "game" && super::ultimate::nopass_variant(v).is_some()) {
            rules = rules_of(interp, v, s)?;
        }
    }
    let ko_rule = match c.named("ko_rule") {
        Some((v, s)) => ko_rule_of(interp, v, s)?,
        None => KoRule::Basic,
    };
    let resolve = match c.named("latent") {
        Some((v, s)) => latent_of(interp, v, s)?,
        None => true,
    };
    let budget = c.budget(interp, SearchOptions::default().node_budget)?;
    Ok((rules, ko_rule, budget, resolve))
}

fn go_diagram(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let args = &c.args[..];
    let sp = |i: usize| c.sp(i);
    match &args[0] {
        Value::Str(s) => interp.parse_diagram(s, &sp(0)),
        Value::Position(_) => Ok(args[0].clone()),
        // A game's board as a position: its stones marked safe are framing
        // stones (as they were drawn uppercase), and its points keep their
        // board names (`C3`), so the play builtins' lines say `B C3`.
        Value::GoGame(g) => {
            let mut pos = g.position().clone();
            for p in 0..pos.width() * pos.height() {
                pos.frame[p] = pos.cell(p) != Cell::Empty && g.mark(p) == Some(Status::Safe);
            }
            Ok(Value::Position(Rc::new(GoPosition::new(pos))))
        }
        other => Err(interp.error(
            &sp(0),
            format!(
                "`go` needs a diagram string or a game, found {}",
                other.kind()
            ),
        )),
    }
}

fn play(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let args = &c.args[..];
    let sp = |i: usize| c.sp(i);
    if let Value::GoGame(g) = &args[0] {
        // A move string, or a line of `analyse` (`A["white_first"]`), as
        // `sgf_write` takes.
        let (moves, _) = super::sgf::line_arg(interp, &args[1], &sp(1))?;
        if let (Value::Record(..), Some(first)) = (&args[1], moves.trim_start().chars().next()) {
            // A line of `analyse` begun by the player not to move (its
            // `white_first` on a game where Black is to move).
            let to_move = g.to_move();
            if first != to_move.letter() {
                return Err(interp.error(
                    &sp(1),
                    format!(
                        "this line begins with {}, but it is {to_move}'s turn in the game: play `{} pass` first, or the line that begins with {to_move}",
                        if first == 'B' { "Black" } else { "White" },
                        to_move.letter()
                    ),
                ));
            }
        }
        let moves = moves.as_str();
        return match go::play_game(g, moves) {
            Ok(next) => Ok(Value::GoGame(Rc::new(next))),
            Err(e) => {
                let before = go::state_before(&**g, moves, e.index);
                let shown = before.map(|b| ("game", b.render(go::Style::Ascii)));
                Err(interp.move_error(&e, moves, &sp(1), shown))
            }
        };
    }
    let p = position_of(interp, &args[0], &sp(0))?.clone();
    let Value::Str(moves) = &args[1] else {
        return Err(interp.error(
            &sp(1),
            format!(
                "`play` needs a move string such as \"B a, W b\" or \"B[ab]\", found {}",
                args[1].kind()
            ),
        ));
    };
    match go::play(&p.pos, moves) {
        Ok(next) => Ok(Value::Position(Rc::new(GoPosition::new(next)))),
        Err(e) => {
            let before = go::state_before(&p.pos, moves, e.index);
            let shown = before.map(|b| ("position", b.render(go::Style::Ascii)));
            Err(interp.move_error(&e, moves, &sp(1), shown))
        }
    }
}

fn game(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let sp = |i: usize| c.sp(i);
    let named = &c.named;
    let (rules, ko_rule, _, _) = search_named(interp, c)?;
    let mut to_move = None;
    let mut komi = None;
    let mut rules_given = None;
    let mut ko_given = None;
    let mut nopass_given = None;
    let mut version_given = None;
    let mut handicap = None;
    for (k, v, s) in named {
        match k.as_str() {
            "to_move" => to_move = Some(colour_of(interp, v, s)?),
            "komi" => match v {
                Value::Rational(r) => komi = Some(r.clone()),
                other => {
                    return Err(interp.error(
                        s,
                        format!("`komi:` is a number such as 6.5, found {}", other.kind()),
                    ))
                }
            },
            "rules" => match super::ultimate::nopass_variant(v) {
                Some(variant) => nopass_given = Some(variant),
                None => rules_given = Some(rules),
            },
            "ko_rule" => ko_given = Some(ko_rule),
            "version" => version_given = Some(super::ultimate::version_of(interp, v, s)?),
            "handicap" => {
                let h = interp.to_integer(v, s)?;
                handicap =
                    Some(u32::try_from(h).map_err(|_| {
                        interp.error(s, "a handicap is a number of stones, 2 or more")
                    })?);
            }
            _ => {}
        }
    }
    let zero = || num_rational::BigRational::from_integer(0.into());
    let game = match &args[0] {
        Value::GoGame(g) => {
            let old = g.rules();
            let rule_set = go::RuleSet {
                scoring: rules_given.unwrap_or(old.scoring),
                ko_rule: ko_given.unwrap_or(old.ko_rule),
                nopass: old.nopass,
            };
            (**g).clone().with_settings(
                to_move.unwrap_or(g.to_move()),
                komi.unwrap_or_else(|| g.komi().clone()),
                rule_set,
            )
        }
        // A Sensei's Library diagram pasted whole: X and O are
        // ordinary stones, marks say safe / dead, numbered stones
        // are the history (go::read_sensei).
        Value::Str(s) if go::is_sensei(s) => {
            let g = go::read_sensei(s).map_err(|e| interp.diagram_error(&e, s, &sp(0)))?;
            let rule_set = go::RuleSet {
                scoring: rules_given.unwrap_or_default(),
                ko_rule: ko_given.unwrap_or_default(),
                nopass: None,
            };
            let to_move = to_move.unwrap_or(g.to_move());
            g.with_settings(to_move, komi.unwrap_or_else(zero), rule_set)
        }
        other => {
            let pos = match other {
                Value::Str(s) => match go::Position::parse(s) {
                    Ok(p) => p,
                    Err(e) => return Err(interp.diagram_error(&e, s, &sp(0))),
                },
                Value::Position(p) => p.pos.clone(),
                other => {
                    return Err(interp.error(
                        &sp(0),
                        format!(
                            "`game` needs a board: a diagram, a position or a game, found {}",
                            other.kind()
                        ),
                    ))
                }
            };
            let rule_set = go::RuleSet {
                scoring: rules_given.unwrap_or_default(),
                ko_rule: ko_given.unwrap_or_default(),
                nopass: None,
            };
            let to_move = to_move.unwrap_or(go::Colour::Black);
            go::Game::new(&pos, to_move, komi.unwrap_or_else(zero), rule_set)
                .map_err(|e| interp.error(&sp(0), e.to_string()))?
        }
    };
    let game = super::ultimate::apply_nopass(
        interp,
        game,
        super::ultimate::NoPassArgs {
            variant: nopass_given,
            version: version_given,
            handicap,
            ko_rule: ko_given,
        },
        &named,
        span,
    )?;
    Ok(Value::GoGame(Rc::new(game)))
}

fn same_board(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let args = &c.args[..];
    let sp = |i: usize| c.sp(i);
    let board = |i: usize| -> EvalResult<go::Position> {
        match &args[i] {
            Value::GoGame(g) => Ok(g.position().clone()),
            Value::Position(p) => Ok(p.pos.clone()),
            other => Err(interp.error(
                &sp(i),
                format!(
                    "`same_board` compares Go positions or games, found {}",
                    other.kind()
                ),
            )),
        }
    };
    let (a, b) = (board(0)?, board(1)?);
    Ok(Value::Bool(a.same_stones(&b)))
}

fn go_value(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (name, args, span) = (c.name, &c.args[..], c.span);
    let sp = |i: usize| c.sp(i);
    let (rules, ko_rule, budget, resolve) = search_named(interp, c)?;
    let p = position_of(interp, &args[0], &sp(0))?.clone();
    let key = (rules, ko_rule, budget);
    if ko_rule == KoRule::NoRule {
        // No rule decides a repetition: a region whose positions can
        // repeat has no value (the game need not end).
        if let GoValue::Ko { .. } = interp.go_evaluate(&p, key, span)?.0 {
            return Err(interp.error_with(
                Diagnostic::error(
                    "no value under `ko_rule: none`: a position of this region can repeat, and with no ko rule the cycle may go on for ever",
                )
                .with_label(sp(0), "a region with a ko")
                .with_help("pick a rule: basic (a ko graph), positional or situational (short games), new_ko_rules"),
            ));
        }
    }
    let v = match (name, resolve) {
        ("value", false) => interp.go_evaluate(&p, key, span)?.0,
        (_, false) => interp.go_evaluate_chilled(&p, key, span)?,
        (_, true) => interp.go_resolved(&p, key, name == "chilled", span)?,
    };
    let out = interp.go_value_of(&v);
    if name == "value" {
        if let GoValue::Short(g) = v {
            // Remembered to warn when it meets a position used as a game
            // (which is chilled) in one sum or comparison.
            interp.unchilled.insert(g);
        }
    }
    Ok(out)
}

fn go_stats(interp: &mut Interp, c: &Call) -> EvalResult<Value> {
    let (args, span) = (&c.args[..], c.span);
    let sp = |i: usize| c.sp(i);
    let (rules, ko_rule, budget, _) = search_named(interp, c)?;
    let p = position_of(interp, &args[0], &sp(0))?.clone();
    let s = interp.go_stats(&p, (rules, ko_rule, budget), span)?;
    let n = |x: u64| Value::int(x as i64);
    let fields = vec![
        ("region_points", n(s.region_points as u64)),
        ("nodes", n(s.nodes)),
        ("tt_lookups", n(s.tt_lookups)),
        ("tt_hits", n(s.tt_hits)),
        ("hit_percent", n(s.hit_percent())),
        ("settled", n(s.settled)),
        ("max_depth", n(s.max_depth as u64)),
    ];
    Ok(Value::Record(
        "record",
        Rc::new(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::{default_view, render, search_options, string_origin, GoPosition, SearchKey};
    use crate::eval::{Interp, Mode};
    use crate::go::{self, play, GoValue, KoRule, Position, Rules};
    use crate::render::Style;
    use std::rc::Rc;

    /// The graphs of a value with kos (none for a short game).
    fn graphs(v: &GoValue) -> Vec<Rc<crate::ko::KoGraph>> {
        match v {
            GoValue::Short(_) => Vec::new(),
            GoValue::Ko { kos, .. } => kos.iter().map(|k| k.graph.clone()).collect(),
        }
    }

    #[test]
    fn chilled_and_unchilled_views_are_remembered_and_agree() {
        // A ko (the graph built chilled when `chilled` comes first) and a
        // ko-free corridor, under the default view and area rules. Asked
        // again, a view is the value remembered (the very graphs, not a
        // new search); asked after the other view, it is what the core
        // gives for it; the statistics are the search's either way.
        let ko = "XXOO\nXa.O\nXXOO";
        let corridor = "XXXXXX\nX....O\nXXXXXX";
        let area: SearchKey = (Rules::Chinese, KoRule::Basic, default_view().2);
        let mut interp = Interp::new(Mode::Script, Style::Ascii);
        let span = 0..0;
        for text in [ko, corridor] {
            for key in [default_view(), area] {
                for chilled_first in [true, false] {
                    let pos = Position::parse(text).unwrap();
                    let opts = search_options(key);
                    let s = &mut interp.store;
                    let value = go::go_value(s, &pos, &opts).unwrap();
                    let chilled = value.chill(s).unwrap();
                    let stats = go::evaluate_go(s, &pos, &opts).unwrap().stats;
                    let p = GoPosition::new(pos);
                    let (c1, v1) = if chilled_first {
                        let c = interp.go_evaluate_chilled(&p, key, &span).unwrap();
                        // The corridor's chilled search also gave its
                        // unchilled value; the ko's graphs were built
                        // chilled only.
                        let known = p.evals.borrow()[0].value.is_some();
                        assert_eq!(known, text == corridor, "{text}");
                        (c, interp.go_evaluate(&p, key, &span).unwrap().0)
                    } else {
                        let v = interp.go_evaluate(&p, key, &span).unwrap().0;
                        (interp.go_evaluate_chilled(&p, key, &span).unwrap(), v)
                    };
                    assert!(c1 == chilled && v1 == value, "{text}");
                    let c2 = interp.go_evaluate_chilled(&p, key, &span).unwrap();
                    let v2 = interp.go_evaluate(&p, key, &span).unwrap().0;
                    assert!(c2 == c1 && v2 == v1);
                    let same = |a: &GoValue, b: &GoValue| {
                        graphs(a)
                            .iter()
                            .zip(graphs(b))
                            .all(|(x, y)| Rc::ptr_eq(x, &y))
                    };
                    assert!(same(&c1, &c2) && same(&v1, &v2), "{text}: searched again");
                    assert_eq!(interp.go_stats(&p, key, &span).unwrap(), stats);
                    assert_eq!(p.evals.borrow().len(), 1);
                    assert_eq!(graphs(&c1).len(), usize::from(text == ko));
                }
            }
        }
    }

    #[test]
    fn positions_print_in_both_styles_with_captures() {
        let p = Position::parse("X X X X\nX a o X\nX X X X").unwrap();
        let q = GoPosition::new(play(&p, "B a").unwrap());
        expect_test::expect![[r#"
            ● ● ● ●
            ● ◆ · ●
            ● ● ● ●
            captures: Black 1, White 0"#]]
        .assert_eq(&render(&q, Style::Unicode));
        expect_test::expect![[r#"
            X X X X
            X x . X
            X X X X
            captures: Black 1, White 0"#]]
        .assert_eq(&render(&q, Style::Ascii));
    }

    #[test]
    fn origins_of_raw_and_escaped_literals() {
        let src = r#"go("""X.O""") + f("a\nb\"c")"#;
        let m = string_origin(src, &(2..13), "X.O").unwrap();
        assert_eq!(m, vec![6, 7, 8, 9]);
        let m = string_origin(src, &(18..27), "a\nb\"c").unwrap();
        assert_eq!(&src[m[1]..m[1] + 2], "\\n");
        assert_eq!(&src[m[2]..m[2] + 1], "b");
        assert_eq!(&src[m[3]..m[3] + 2], "\\\"");
        assert_eq!(m[5], 26);
        // A different value (a variable's span, say) has no origin.
        assert!(string_origin(src, &(2..13), "X.X").is_none());
        assert!(string_origin("s", &(0..1), "s").is_none());
    }
}
