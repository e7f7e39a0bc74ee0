//! Runtime values of the language.

use crate::game::{CgError, CgResult, Dyadic, GameId, Store};
use crate::limits::Exceeded;
use crate::render::{format_game, Style};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::rc::Rc;

/// The steps of the game store (each a unit of work of the sum and
/// canonical-form searches, [`Store::tick`]) that printing a sum, or a side
/// of a failed comparison, may spend on its canonical form: past them the
/// sum is written as its components. Counting steps rather than time keeps
/// the output the same from run to run and machine to machine; 2 000 000
/// steps take well under a second, and the canonical form of ±1 + … + ±40
/// (which this stops) would take minutes and gigabytes.
pub const SUM_FORM_STEPS: u64 = 2_000_000;

/// A game kept as a sum of components.
///
/// Adding games only concatenates components (number-up-star parts are merged
/// at once, which is free), so `+-1 + +-2 + … + +-40` is instant; the canonical
/// form is computed when an operation needs it (printing, comparing) and that
/// computation is interruptible. Printing asks for it within
/// [`SUM_FORM_STEPS`] only ([`GameSum::canonical_within`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSum {
    parts: Rc<[GameId]>,
    /// Names of the components (the regions of `board`), when known.
    labels: Option<Rc<[Rc<str>]>>,
}

impl GameSum {
    pub fn single(g: GameId) -> GameSum {
        GameSum {
            parts: Rc::from(vec![g]),
            labels: None,
        }
    }
    /// A sum of unnamed components, kept as given.
    pub fn from_parts(parts: Vec<GameId>) -> GameSum {
        GameSum {
            parts: Rc::from(parts),
            labels: None,
        }
    }
    pub fn parts(&self) -> &[GameId] {
        &self.parts
    }
    /// A sum of named components, kept exactly as given (nothing merged).
    pub fn labelled(parts: Vec<GameId>, labels: Vec<Rc<str>>) -> GameSum {
        GameSum {
            parts: Rc::from(parts),
            labels: Some(Rc::from(labels)),
        }
    }
    /// The name of component `i`: its region name, or `#i+1`.
    pub fn label(&self, i: usize) -> String {
        match &self.labels {
            Some(l) if i < l.len() => l[i].to_string(),
            _ => format!("#{}", i + 1),
        }
    }
    /// The canonical game this sum equals.
    pub fn canonical(&self, store: &mut Store) -> CgResult<GameId> {
        if self.parts.len() == 1 {
            return Ok(self.parts[0]);
        }
        store.sum(&self.parts)
    }
    /// The text of the canonical form if the form is found and written
    /// within `steps` further steps of the store (the printer takes a step
    /// per option it writes, so a form small as a graph of games but huge as
    /// text is out of budget too), `None` past them. A step limit set before
    /// (a budgeted search printing as it goes) still binds: running out of
    /// it is the error it always was, not `None`.
    pub fn canonical_text_within(
        &self,
        store: &mut Store,
        style: Style,
        steps: u64,
    ) -> CgResult<Option<String>> {
        let budget_end = store.steps().saturating_add(steps);
        let old = store.limit_steps(steps);
        let text = self
            .canonical(store)
            .and_then(|g| format_game(store, g, style));
        store.restore_step_limit(old);
        match text {
            Ok(t) => Ok(Some(t)),
            Err(CgError::Limit(Exceeded::Steps)) if store.steps() >= budget_end => Ok(None),
            Err(e) => Err(e),
        }
    }
    /// The text `print` writes: the components of the board (a sum of
    /// named regions, whose canonical form can be far larger and slower to
    /// find; `canonical(board)` asks for it), a single game's canonical
    /// form, and for any other sum its canonical form when that is found
    /// and written within [`SUM_FORM_STEPS`], else its components; with
    /// whether the form was out of that budget.
    pub fn printed(&self, store: &mut Store, style: Style) -> CgResult<(String, bool)> {
        if self.parts.len() == 1 {
            return Ok((format_game(store, self.parts[0], style)?, false));
        }
        if self.labels.is_some() {
            return Ok((self.format_components(store, style)?, false));
        }
        Ok(
            match self.canonical_text_within(store, style, SUM_FORM_STEPS)? {
                Some(text) => (text, false),
                None => (self.format_components(store, style)?, true),
            },
        )
    }
    /// Concatenates components, merging number-up-star parts into one.
    pub fn plus(&self, other: &GameSum, store: &mut Store) -> CgResult<GameSum> {
        // The number-up-star parts are added by their parameters and the
        // total interned once.
        let mut nus: Option<crate::game::Nus> = None;
        let mut rest = Vec::with_capacity(self.parts.len() + other.parts.len());
        for &p in self.parts.iter().chain(other.parts.iter()) {
            match (store.as_nus(p), nus.as_ref()) {
                (Some(n), None) => nus = Some(n.clone()),
                (Some(n), Some(acc)) => nus = Some(crate::game::nus_add(acc, n)?),
                (None, _) => rest.push(p),
            }
        }
        let nus = match nus {
            Some(n) => store.nus(n),
            None => store.zero(),
        };
        if nus != store.zero() || rest.is_empty() {
            rest.insert(0, nus);
        }
        Ok(GameSum {
            parts: Rc::from(rest),
            labels: None,
        })
    }
    /// The components written as a sum, `a + b + …` (no canonical form).
    pub fn format_components(&self, store: &mut Store, style: Style) -> CgResult<String> {
        let mut texts = Vec::with_capacity(self.parts.len());
        for &p in self.parts.iter() {
            texts.push(format_game(store, p, style)?);
        }
        Ok(texts.join(" + "))
    }
    pub fn negate(&self, store: &mut Store) -> GameSum {
        let parts: Vec<GameId> = self.parts.iter().map(|&p| store.neg(p)).collect();
        GameSum {
            parts: Rc::from(parts),
            labels: self.labels.clone(),
        }
    }
}

/// A user function: parameters and body, closing over the scope it was defined in.
pub struct Function {
    pub name: String,
    pub params: Vec<String>,
    pub body: crate::syntax::ast::Expr,
    pub scope: super::Scope,
    /// The source the body's spans point into.
    pub source: super::SourceId,
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fn {}({})", self.name, self.params.join(", "))
    }
}

/// A list value: shared, immutable elements. Its own type so that dropping
/// a deeply nested list (`[[[…]]]` built by recursion, millions deep) is a
/// loop over an explicit stack rather than one native frame per level,
/// which would overflow the stack at the end of a long session.
#[derive(Clone, Debug, Default)]
pub struct List(Rc<Vec<Value>>);

impl List {
    pub fn new(items: Vec<Value>) -> List {
        List(Rc::new(items))
    }
    pub fn ptr_eq(a: &List, b: &List) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }
}

impl std::ops::Deref for List {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl Drop for List {
    fn drop(&mut self) {
        // Only the last owner empties the list; its nested lists are
        // emptied the same way before they are dropped, so each drop below
        // finds nothing left to recurse into.
        let Some(items) = Rc::get_mut(&mut self.0) else {
            return;
        };
        let mut pending: Vec<Value> = std::mem::take(items);
        while let Some(mut value) = pending.pop() {
            if let Value::List(List(inner)) = &mut value {
                if let Some(items) = Rc::get_mut(inner) {
                    pending.append(items);
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
pub enum Value {
    /// A short game (possibly a lazy sum of components).
    Game(GameSum),
    /// A sum containing kos or ko threats (see `eval::ko`).
    Mixed(super::ko::MixedSum),
    /// An exact rational scalar: literals, arithmetic on them, means and temperatures.
    /// Used as a game whenever it is dyadic.
    Rational(BigRational),
    Bool(bool),
    Str(Rc<str>),
    List(List),
    Function(Rc<Function>),
    /// A builtin, by name.
    Builtin(&'static super::registry::Builtin),
    /// *nothing*: the value of a statement or block, and of a field with no
    /// value (an analysis with no stops). Prints as `nothing`, so a missing
    /// value is never a blank.
    Unit,
    /// Named fields, read with `r["field"]`: results of `solve`, moves, lines of play.
    /// `kind` picks a readable layout when printed ("line", "move" or "record").
    Record(&'static str, Rc<Vec<(String, Value)>>),
    /// A thermograph (from `thermograph(G)`), with the game's printed form as its label.
    Thermograph(Rc<crate::game::Thermograph>, Rc<ThermoLabel>),
    /// A Go position (`go Q = """…"""`); where a game is expected it stands
    /// for its chilled value (see `eval/go.rs`).
    Position(Rc<super::go::GoPosition>),
    /// A game in progress on a whole board (`game(Q, to_move: black)`):
    /// board, prisoners, history, komi and rules (see `crate::go::Game`).
    GoGame(Rc<crate::go::Game>),
}

/// A thermograph's label (the legend of its plot): the printed form of the
/// game it is the thermograph of. Printed only when a plot asks for it:
/// printing the game cost more than finding its thermograph, and most
/// thermographs are only printed (BENCHMARKS.md, issue 21).
#[derive(Debug)]
pub enum ThermoLabel {
    Text(Rc<str>),
    /// `value` as printed in `style` (the style when the thermograph was
    /// made, so that the label does not depend on when it is printed).
    Of(Value, Style),
}

impl ThermoLabel {
    /// The label's text.
    pub fn text(&self, store: &mut Store) -> CgResult<Rc<str>> {
        match self {
            ThermoLabel::Text(t) => Ok(t.clone()),
            ThermoLabel::Of(v, style) => Ok(Rc::from(v.display(store, *style)?)),
        }
    }
}

impl Value {
    pub fn int(n: i64) -> Value {
        Value::Rational(BigRational::from_integer(BigInt::from(n)))
    }
    pub fn from_dyadic(x: &Dyadic) -> Value {
        Value::Rational(x.to_rational())
    }
    pub fn game(g: GameId) -> Value {
        Value::Game(GameSum::single(g))
    }
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }
    /// A list of values.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(List::new(items))
    }
    /// The Go names (`C3`) of points of `board`, as a list of strings.
    pub fn point_names(board: &crate::go::Position, points: &[usize]) -> Value {
        Value::list(
            points
                .iter()
                .map(|&p| Value::str(&board.point_name(p)))
                .collect(),
        )
    }
    /// A record of `kind` (`"record"`, `"line"`, `"move"`: how it prints)
    /// with its fields in order.
    pub fn record(kind: &'static str, fields: Vec<(&str, Value)>) -> Value {
        let fields = fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        Value::Record(kind, Rc::new(fields))
    }

    /// What the value is, for error messages ("expected a game, found a list").
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Game(_) => "a game",
            Value::Mixed(m) if m.first_ko().is_some() => "a game with a ko",
            Value::Mixed(_) => "a game with ko threats",
            Value::Rational(r) if r.is_integer() => "an integer",
            Value::Rational(_) => "a rational number",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::List(_) => "a list",
            Value::Function(_) | Value::Builtin(_) => "a function",
            Value::Unit => "nothing",
            Value::Thermograph(..) => "a thermograph",
            Value::Record(..) => "a record",
            Value::Position(_) => "a Go position",
            Value::GoGame(_) => "a Go game",
        }
    }

    /// Formats for output; games are canonicalised (interruptible). Ko
    /// graphs are written whole, however large, so that the text reads
    /// back (`str`, diagnostics).
    pub fn display(&self, store: &mut Store, style: Style) -> CgResult<String> {
        self.show(store, style, None)
    }

    /// [`Value::display`] for reading (`print`, the REPL's echo, `yose
    /// eval`): a ko graph too large to read whole is written one move deep,
    /// here or inside a list or record, and a note on it pushed on `notes`
    /// (to be written after the value: [`super::ko::MixedSum::format_summarised`]).
    pub fn display_summarised(
        &self,
        store: &mut Store,
        style: Style,
        notes: &mut Vec<String>,
    ) -> CgResult<String> {
        self.show(store, style, Some(notes))
    }

    /// [`Value::display_summarised`] with the notes on lines of their own
    /// after the text.
    pub fn display_for_reading(&self, store: &mut Store, style: Style) -> CgResult<String> {
        let mut notes = Vec::new();
        let text = self.display_summarised(store, style, &mut notes)?;
        Ok(with_notes(text, &notes))
    }

    fn show(
        &self,
        store: &mut Store,
        style: Style,
        mut notes: Option<&mut Vec<String>>,
    ) -> CgResult<String> {
        // Lists nest as deeply as a program builds them.
        crate::limits::check_stack()?;
        Ok(match self {
            Value::Game(s) => s.printed(store, style)?.0,
            Value::Mixed(m) => match notes {
                Some(notes) => m.format_summarised(store, style, notes)?,
                None => m.format(store, style)?,
            },
            Value::Rational(r) => format_rational(r),
            Value::Bool(b) => b.to_string(),
            Value::Str(s) => s.to_string(),
            Value::List(items) => {
                let mut parts = Vec::with_capacity(items.len());
                for v in items.iter() {
                    parts.push(match v {
                        Value::Str(s) => format!("{s:?}"),
                        other => other.show(store, style, notes.as_deref_mut())?,
                    });
                }
                format!("[{}]", parts.join(", "))
            }
            Value::Function(f) if f.name.is_empty() => format!("<fn({})>", f.params.join(", ")),
            Value::Function(f) => format!("<fn {}>", f.name),
            Value::Builtin(b) => format!("<builtin {}>", b.name),
            Value::Unit => "nothing".to_string(),
            Value::Thermograph(t, _) => format_thermograph(t),
            Value::Record(kind, fields) => format_record(kind, fields, store, style, notes)?,
            Value::Position(p) => super::go::render(p, style),
            Value::GoGame(g) => super::go::render_game(g, style),
        })
    }
}

/// `text`, then each note on a line of its own.
pub fn with_notes(mut text: String, notes: &[String]) -> String {
    for note in notes {
        text.push('\n');
        text.push_str(note);
    }
    text
}

/// `3`, `-1/3`.
pub fn format_rational(r: &BigRational) -> String {
    // Room for two `i64`s and the slash: one allocation, no regrowth.
    let mut out = String::with_capacity(41);
    crate::game::thermo::write_rational(&mut out, r);
    out
}

/// The dyadic rational a scalar denotes, if it is one.
pub fn rational_to_dyadic(r: &BigRational) -> Option<Dyadic> {
    if r.denom().is_zero() {
        return None;
    }
    Dyadic::from_rational(r)
}

/// "mast 0 from t = 10", then each wall's pieces.
pub fn format_thermograph(t: &crate::game::Thermograph) -> String {
    use crate::game::thermo::write_rational;
    let mut out = String::with_capacity(128);
    out.push_str("thermograph: mast at ");
    write_rational(&mut out, t.mean());
    out.push_str(" from t = ");
    // A number's walls are the mast from t = -1 while its temperature is
    // -1/2^k by convention (module docs of `game::thermo`): say both, so
    // that the first line agrees with the walls below it.
    let number = t.left_wall().is_vertical() && t.right_wall().is_vertical();
    if number && *t.temperature() > -BigRational::one() {
        out.push_str("-1 (a number: its temperature is ");
        write_rational(&mut out, t.temperature());
        out.push_str(" by convention)");
    } else {
        write_rational(&mut out, t.temperature());
    }
    for (name, wall) in [
        ("left wall ", t.left_wall()),
        ("right wall", t.right_wall()),
    ] {
        out.push_str("\n  ");
        out.push_str(name);
        out.push_str(": ");
        wall.write_pieces(&mut out);
    }
    out
}

impl Value {
    /// The field `name` of a record.
    pub fn field(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Record(_, fields) => fields.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Records print as `(a: 1, b: 2)`; a move as `3. B at H: +-8 → 8`; a line as its
/// moves one per line, then the result.
fn format_record(
    kind: &str,
    fields: &[(String, Value)],
    store: &mut Store,
    style: Style,
    mut notes: Option<&mut Vec<String>>,
) -> CgResult<String> {
    let get = |n: &str| fields.iter().find(|(k, _)| k == n).map(|(_, v)| v);
    match kind {
        "move" => {
            let mut out = String::new();
            if let Some(n) = get("number") {
                out.push_str(&format!("{}. ", n.display(store, style)?));
            }
            let player = get("player")
                .map(|p| p.display(store, style))
                .transpose()?
                .unwrap_or_default();
            let region = get("region")
                .map(|p| p.display(store, style))
                .transpose()?
                .unwrap_or_default();
            // Ko lines: a pass has no region; `note` says what a ko move,
            // a threat or a pass did.
            match (get("region"), get("point"), get("go_moves")) {
                (Some(_), _, Some(Value::List(moves))) => {
                    let mut names = Vec::with_capacity(moves.len());
                    for m in moves.iter() {
                        names.push(m.display(store, style)?);
                    }
                    out.push_str(&format!(
                        "{} in {region} (through a reversible move):",
                        names.join(", ")
                    ));
                }
                (Some(_), Some(point), _) => {
                    let point = point.display(store, style)?;
                    out.push_str(&format!("{player} {point} in {region}:"));
                }
                (Some(_), None, _) => out.push_str(&format!("{player} at {region}:")),
                (None, _, _) => out.push_str(&player),
            }
            if let Some(from) = get("from") {
                out.push_str(&format!(" {} →", from.display(store, style)?));
            }
            if let Some(to) = get("to") {
                out.push_str(&format!(" {}", to.display(store, style)?));
            }
            if let Some(note) = get("note") {
                let note = note.display(store, style)?;
                if get("to").is_some() {
                    out.push_str(&format!(" ({note})"));
                } else {
                    out.push_str(&format!(" {note}"));
                }
            }
            // A first move of the ko solver's `best_moves`: the score of
            // optimal play after it (its `to` is only the component's).
            if let Some(result) = get("result") {
                out.push_str(&format!(", result {}", result.display(store, style)?));
            }
            Ok(out)
        }
        "line" => {
            let mut lines = Vec::new();
            if let Some(Value::List(moves)) = get("moves") {
                for m in moves.iter() {
                    lines.push(m.display(store, style)?);
                }
            }
            if let Some(r) = get("result") {
                lines.push(format!("result {}", r.display(store, style)?));
            }
            // Ko lines: who filled each ko and when.
            if let Some(Value::List(fills)) = get("fills") {
                for f in fills.iter() {
                    let mut part = |n: &str| -> CgResult<String> {
                        match f.field(n) {
                            Some(v) => v.display(store, style),
                            None => Ok(String::new()),
                        }
                    };
                    lines.push(format!(
                        "ko {} filled by {} at move {} ({})",
                        part("region")?,
                        part("player")?,
                        part("number")?,
                        part("value")?
                    ));
                }
            }
            Ok(lines.join("\n"))
        }
        _ => {
            let mut parts = Vec::with_capacity(fields.len());
            for (k, v) in fields {
                let shown = v.show(store, style, notes.as_deref_mut())?;
                if shown.contains('\n') {
                    let indented = shown
                        .lines()
                        .map(|l| format!("  {l}"))
                        .collect::<Vec<_>>()
                        .join("\n");
                    parts.push(format!("{k}:\n{indented}"));
                } else {
                    parts.push(format!("{k}: {shown}"));
                }
            }
            if parts.iter().any(|p| p.contains('\n')) {
                Ok(parts.join("\n"))
            } else {
                Ok(format!("({})", parts.join(", ")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    /// A list nested a million deep is dropped on a 256 KiB stack: the drop
    /// is a loop (with a recursive drop this aborts the test binary with a
    /// stack overflow). Shared inner lists are left to their other owner.
    #[test]
    fn deep_list_drops_without_recursion() {
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let mut list = Value::list(vec![]);
                for _ in 0..1_000_000 {
                    list = Value::list(vec![list]);
                }
                let shared = list.clone();
                let outer = Value::list(vec![list, Value::int(1)]);
                drop(outer);
                let Value::List(items) = &shared else {
                    panic!("not a list")
                };
                assert_eq!(items.len(), 1, "the shared list kept its element");
                drop(shared);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
