//! The tree-walking interpreter: scopes, statements, expressions and proofs.
//!
//! A script's `assert`s and `theorem`s are its proofs: each produces a
//! [`ProofResult`]. A failed top-level assert is recorded and the script goes
//! on; inside a theorem the first failure (or error) ends that theorem only. A
//! runtime error outside a theorem ends the script.

mod analyse;
mod builtins;
mod go;
pub mod ko;
mod kofight;
mod korules;
mod kosolve;
#[cfg(test)]
mod notation_tests;
mod ops;
mod play;
pub mod registry;
mod sgf;
mod source;
mod ultimate;
pub mod value;

use crate::diag::Diagnostic;
use crate::game::{CgError, CgResult, Store};
use crate::render::Style;
use crate::syntax::ast::{self, Expr, ExprKind, ForIter, Stmt, StmtKind, UseTarget};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use rustc_hash::FxHashMap;
pub use source::{Source, SourceId, SourceText, Sources};
use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
pub use value::{format_rational, Function, GameSum, Value};

/// Names of the builtin functions (for completion and help).
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    registry::all().map(|b| b.name)
}

/// The help of a builtin: signature, named arguments, description and
/// example.
pub fn builtin_help(name: &str) -> Option<String> {
    registry::lookup(name).map(registry::Builtin::help_text)
}

pub type Span = Range<usize>;

/// A diagnostic together with the source its spans point into.
#[derive(Clone, Debug)]
pub struct Report {
    pub source: SourceId,
    pub diag: Diagnostic,
    /// Further errors of the same failure, in source order (a script's
    /// other syntax errors).
    pub more: Vec<Diagnostic>,
}

/// The outcome of one proof: a top-level `assert` or a whole `theorem`.
#[derive(Clone, Debug)]
pub struct ProofResult {
    pub source: SourceId,
    pub span: Span,
    /// `Some(name)` for a theorem.
    pub theorem: Option<String>,
    pub failure: Option<Diagnostic>,
}

impl ProofResult {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Why evaluation stopped early.
#[derive(Debug)]
pub enum Stop {
    Error(Box<Report>),
    Interrupted,
    /// An assert failed inside a theorem (already recorded); unwinds the theorem.
    AssertFailed,
}

pub type EvalResult<T> = Result<T, Stop>;

/// A lexical scope. Functions capture the scope they are defined in. The
/// outermost scope is the interpreter's globals ([`Interp`] keeps their
/// table), so the global scope is no allocation of its own: a fresh
/// interpreter makes none, and a global function does not hold the table
/// that holds it.
#[derive(Clone, Default)]
pub struct Scope(Option<Rc<ScopeData>>);

/// The global variables, by name.
type Globals = FxHashMap<String, Value>;

pub struct ScopeData {
    vars: RefCell<FxHashMap<String, Value>>,
    /// The enclosing scope (the globals at the outermost level).
    parent: Scope,
}

impl Scope {
    fn child(&self) -> Scope {
        Scope(Some(Rc::new(ScopeData {
            vars: Default::default(),
            parent: self.clone(),
        })))
    }
    /// The innermost binding of `name`, the globals last.
    fn lookup(&self, name: &str, globals: &Globals) -> Option<Value> {
        let mut s = self;
        while let Some(scope) = &s.0 {
            if let Some(v) = scope.vars.borrow().get(name) {
                return Some(v.clone());
            }
            s = &scope.parent;
        }
        globals.get(name).cloned()
    }
    fn define(&self, name: &str, v: Value, globals: &mut Globals) {
        match &self.0 {
            Some(scope) => scope.vars.borrow_mut().insert(name.to_string(), v),
            None => globals.insert(name.to_string(), v),
        };
    }
    /// Every name visible from this scope.
    fn names(&self, globals: &Globals) -> Vec<String> {
        let mut out = Vec::new();
        let mut s = self;
        while let Some(scope) = &s.0 {
            out.extend(scope.vars.borrow().keys().cloned());
            s = &scope.parent;
        }
        out.extend(globals.keys().cloned());
        out
    }
}

/// How expression statements and proofs behave.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Mode {
    /// `yose run`: `print` writes, expression statements are silent.
    Script,
    /// The REPL: expression statements print their value.
    Repl,
    /// `yose check`: like Script but `print` output is discarded.
    Check,
}

const MAX_CALL_DEPTH: usize = 20_000;

/// The longest list a range `a..b` makes.
const MAX_RANGE: usize = 10_000_000;

/// The REPL writes out at most this many bytes of a value's text (a ko
/// graph too large to read is already summarised, `ko::SUMMARY_KO_NODES`);
/// a longer text is cut after `ECHO_PREFIX` bytes (fewer, to end on a
/// whole character).
const ECHO_BYTES: usize = 100_000;
const ECHO_PREFIX: usize = 2_000;
/// The steps a failed comparison's diagnostic may spend on canonical forms:
/// past them it shows a sum by its components and leaves out the note on
/// infinitesimals (well under a second). The budget of printing a sum.
pub(crate) const COMPARED_FORM_STEPS: u64 = value::SUM_FORM_STEPS;

pub struct Interp {
    pub store: Store,
    pub sources: Sources,
    /// The variables of the global scope ([`Scope`]).
    globals: Globals,
    pub style: Style,
    pub mode: Mode,
    pub results: Vec<ProofResult>,
    /// Lines written by `print` and (in the REPL) expression statements.
    pub output: Box<dyn FnMut(&str)>,
    /// Regions in definition order: the script's `board`.
    pub board: Vec<(String, Value)>,
    /// The flag Ctrl-C sets, made when someone asks for it
    /// ([`Interp::interrupt_flag`]): before that nothing can set it, so a
    /// fresh interpreter that answers one small question never allocates it.
    interrupt: Option<Arc<AtomicBool>>,
    current: SourceId,
    depth: usize,
    /// Name of the theorem being proved, if any.
    theorem: Option<String>,
    theorem_failure: Option<Diagnostic>,
    loaded_modules: Vec<String>,
    /// True while running a `use`d module: its proofs are not replayed.
    importing: usize,
    /// Named arguments of the builtin being called (`solve(B, budget: 1000)`).
    pub(crate) named_args: Vec<(String, Value, Span)>,
    /// The positions whose ko values were handed to ko builtins, so that a
    /// ko line can name its moves on the board (`eval/go.rs`,
    /// `ko_move_name`). Weak: a position no longer bound anywhere is gone.
    pub(crate) ko_positions: Vec<std::rc::Weak<go::GoPosition>>,
    /// The unchilled values `value(Q)` gave (short games), and whether the
    /// warning about mixing one with a position used as a game (chilled)
    /// has been given (it is given once).
    pub(crate) unchilled: rustc_hash::FxHashSet<crate::game::GameId>,
    pub(crate) chill_mix_warned: bool,
}

impl Interp {
    // Inlined, so that the interpreter (about a kilobyte, most of it the
    // store's empty tables) is built where it is kept rather than built
    // and copied (BENCHMARKS.md, issue 21).
    #[inline(always)]
    pub fn new(mode: Mode, style: Style) -> Interp {
        Interp {
            store: Store::new(),
            sources: Sources::default(),
            globals: Globals::default(),
            style,
            mode,
            results: Vec::new(),
            // Never a panic on a closed or full output (the command line
            // installs a writer that also reports the error).
            output: Box::new(|s| {
                use std::io::Write;
                let _ = writeln!(std::io::stdout(), "{s}");
            }),
            board: Vec::new(),
            interrupt: None,
            current: 0,
            depth: 0,
            theorem: None,
            theorem_failure: None,
            loaded_modules: Vec::new(),
            importing: 0,
            named_args: Vec::new(),
            ko_positions: Vec::new(),
            unchilled: Default::default(),
            chill_mix_warned: false,
        }
    }

    /// The names of the global variables (for completion).
    pub fn global_names(&self) -> Vec<String> {
        self.globals.keys().cloned().collect()
    }

    /// The flag Ctrl-C sets; computations poll it (the interpreter's
    /// steps and the store's, which gets it here).
    pub fn interrupt_flag(&mut self) -> Arc<AtomicBool> {
        if let Some(flag) = &self.interrupt {
            return flag.clone();
        }
        let flag = Arc::new(AtomicBool::new(false));
        self.store.set_interrupt_flag(flag.clone());
        self.interrupt = Some(flag.clone());
        flag
    }

    /// Records a source so that diagnostics can point into it; its id.
    /// `name` is a file's path or a fixed name such as `"<eval>"`.
    pub fn add_source(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        text: &str,
        dir: Option<PathBuf>,
    ) -> SourceId {
        self.sources.push(Source {
            name: name.into(),
            text: SourceText::new(text),
            dir,
        })
    }

    /// Parses and runs a whole source. Parse errors and a runtime error that ends
    /// the script are returned; proof results accumulate in `self.results`.
    pub fn run_source(&mut self, id: SourceId) -> Result<(), Stop> {
        let program = crate::syntax::parse_program(&self.sources[id].text)
            .map_err(|diags| parse_failure(id, diags))?;
        let saved = self.current;
        self.current = id;
        let r = self.run_top_level(&program.stmts, &Scope::default());
        self.current = saved;
        r
    }

    /// Top-level statements; in the REPL an expression statement prints its value.
    fn run_top_level(&mut self, stmts: &[Stmt], globals: &Scope) -> EvalResult<()> {
        for stmt in stmts {
            let v = self.exec(stmt, globals)?;
            // Every expression's value is echoed, `nothing` included (a
            // field with no value must not look like no answer), except
            // that of a statement-level `if` or block, run for its effect.
            let show = self.mode == Mode::Repl
                && self.importing == 0
                && match &stmt.kind {
                    StmtKind::Expr(e) => {
                        !(matches!(v, Value::Unit)
                            && matches!(e.kind, ExprKind::If(_) | ExprKind::Block(_)))
                    }
                    _ => false,
                };
            if show {
                let text = self.echo(&v).map_err(|e| self.cg_error(e, &stmt.span))?;
                // In the REPL a thermograph also gets a small drawing.
                let text = match &v {
                    Value::Thermograph(t, _) => {
                        format!("{text}\n{}", crate::render::thermograph::sketch(t, 40, 12))
                    }
                    _ => text,
                };
                (self.output)(&text);
            }
        }
        Ok(())
    }

    /// Parses and evaluates one expression (for `yose eval`).
    pub fn eval_source_expr(&mut self, id: SourceId) -> EvalResult<Value> {
        let text = &self.sources[id].text;
        let statement = crate::syntax::starts_with_statement(text);
        let expr = crate::syntax::parse_expr(text).map_err(|mut diags| {
            if statement {
                if let Some(d) = diags.first_mut() {
                    let d0 = std::mem::replace(d, Diagnostic::error(""));
                    *d = d0.with_help(
                        "`yose eval` takes one expression; statements go in a script for `yose run FILE`, or in the REPL (`yose repl`)",
                    );
                }
            }
            parse_failure(id, diags)
        })?;
        self.current = id;
        self.eval(&expr, &Scope::default())
    }

    /// The REPL's echo of a value: [`Value::display_summarised`] (a ko
    /// graph too large to read is written one move deep, with a note on
    /// it), and a text that would still flood the terminal is cut short
    /// with a note saying how to see it in full (`print str(…)` writes
    /// every value out).
    fn echo(&mut self, v: &Value) -> CgResult<String> {
        let mut notes = Vec::new();
        let text = match v {
            // A sum written as its components: say why.
            Value::Game(s) => {
                let (text, out_of_budget) = s.printed(&mut self.store, self.style)?;
                if out_of_budget {
                    notes.push(format!(
                        "(a sum of {} components, written as a sum: its canonical form was not found and written within {} steps; `canonical(…)` computes it)",
                        s.parts().len(),
                        ko::grouped(value::SUM_FORM_STEPS as usize)
                    ));
                }
                text
            }
            _ => v.display_summarised(&mut self.store, self.style, &mut notes)?,
        };
        let text = if text.len() <= ECHO_BYTES {
            text
        } else {
            let mut cut = ECHO_PREFIX;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            format!(
                "{} …\n({} bytes in all, not written out here; `print` writes it in full)",
                &text[..cut],
                ko::grouped(text.len())
            )
        };
        Ok(value::with_notes(text, &notes))
    }

    pub fn display(&mut self, v: &Value) -> EvalResult<String> {
        v.display(&mut self.store, self.style)
            .map_err(|e| self.cg_error(e, &(0..0)))
    }

    /// The values a `for` (statement or comprehension clause) runs over.
    fn for_items(
        &mut self,
        iter: &ForIter,
        scope: &Scope,
    ) -> EvalResult<Box<dyn Iterator<Item = Value>>> {
        Ok(match iter {
            ForIter::Range {
                from,
                to,
                inclusive,
            } => {
                let (a, b) = self.range_bounds(from, to, *inclusive, scope)?;
                Box::new(num_iter(a, b).map(|i| Value::Rational(i.into())))
            }
            ForIter::List(e) => {
                let v = self.eval(e, scope)?;
                match v {
                    Value::List(items) => Box::new((*items).clone().into_iter()),
                    other => {
                        return Err(self.error(
                            &e.span,
                            format!(
                                "`for` needs a list or a range `a..b`, found {}",
                                other.kind()
                            ),
                        ))
                    }
                }
            }
        })
    }

    /// The condition of an `if` (a statement, or a comprehension's filter):
    /// a boolean, or an error at the condition.
    fn eval_condition(&mut self, cond: &Expr, scope: &Scope) -> EvalResult<bool> {
        match self.eval(cond, scope)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.error(
                &cond.span,
                format!("`if` needs a boolean, found {}", other.kind()),
            )),
        }
    }

    /// `[elem for … if …]`: runs `clauses` nested left to right,
    /// each `for` in a child scope of the one before.
    fn comprehension(
        &mut self,
        elem: &Expr,
        clauses: &[ast::Clause],
        scope: &Scope,
        out: &mut Vec<Value>,
    ) -> EvalResult<()> {
        match clauses.split_first() {
            None => {
                let v = self.eval(elem, scope)?;
                out.push(v);
            }
            Some((ast::Clause::If(cond), rest)) => {
                if self.eval_condition(cond, scope)? {
                    self.comprehension(elem, rest, scope, out)?;
                }
            }
            Some((ast::Clause::For { var, iter }, rest)) => {
                for item in self.for_items(iter, scope)? {
                    self.check_interrupt(&elem.span)?;
                    let inner = scope.child();
                    inner.define(&var.name, item, &mut self.globals);
                    self.comprehension(elem, rest, &inner, out)?;
                }
            }
        }
        Ok(())
    }

    // ----- errors ---------------------------------------------------------------

    /// An error for a string argument that is none of `choices` (`komaster:
    /// "blak"`), with "did you mean" when one is close.
    pub(crate) fn choice_error(
        &self,
        span: &Span,
        msg: &str,
        got: &Value,
        choices: &[&str],
    ) -> Stop {
        let mut diag = Diagnostic::error(msg).with_label(span.clone(), msg);
        if let Value::Str(s) = got {
            if let Some(c) = closest(&s.to_ascii_lowercase(), choices.iter().copied()) {
                diag = diag.with_note(format!("did you mean \"{c}\"?"));
            }
        }
        self.error_with(diag)
    }

    pub(crate) fn error(&self, span: &Span, msg: impl Into<String>) -> Stop {
        let msg = msg.into();
        Stop::Error(Box::new(Report {
            source: self.current,
            diag: Diagnostic::error(msg.clone()).with_label(span.clone(), msg),
            more: Vec::new(),
        }))
    }

    pub(crate) fn error_with(&self, diag: Diagnostic) -> Stop {
        Stop::Error(Box::new(Report {
            source: self.current,
            diag,
            more: Vec::new(),
        }))
    }

    pub(crate) fn cg_error(&self, e: CgError, span: &Span) -> Stop {
        match e {
            CgError::Interrupted => Stop::Interrupted,
            CgError::TooLarge(what) => self.error(span, format!("too large: {what}")),
            CgError::Limit(e) => self.limit_error(e, span),
        }
    }

    /// Ctrl-C, the memory limit and the stack guard ([`crate::limits`]),
    /// polled at every statement, loop step and call; a limit reached is an
    /// error at `span`, the step that reached it.
    fn check_interrupt(&self, span: &Span) -> EvalResult<()> {
        if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(Stop::Interrupted);
        }
        crate::limits::check().map_err(|e| self.limit_error(e, span))
    }

    /// The diagnostic of a resource limit reached while evaluating `span`.
    pub(crate) fn limit_error(&self, e: crate::limits::Exceeded, span: &Span) -> Stop {
        self.error(span, e.to_string())
    }

    /// Refuses to build a string or list of `bytes` beyond the memory limit.
    pub(crate) fn reserve(&self, bytes: usize, span: &Span) -> EvalResult<()> {
        crate::limits::reserve(bytes).map_err(|e| self.limit_error(e, span))
    }

    // ----- statements -----------------------------------------------------------

    /// Runs statements in `scope`; the value of a trailing expression statement.
    fn exec_block_in(&mut self, stmts: &[Stmt], scope: &Scope) -> EvalResult<Value> {
        let mut last = Value::Unit;
        for stmt in stmts {
            last = self.exec(stmt, scope)?;
        }
        Ok(last)
    }

    fn exec(&mut self, stmt: &Stmt, scope: &Scope) -> EvalResult<Value> {
        self.check_interrupt(&stmt.span)?;
        match &stmt.kind {
            StmtKind::Let { name, value } => {
                let v = self.eval(value, scope)?;
                scope.define(&name.name, v, &mut self.globals);
            }
            StmtKind::Go { name, value } => {
                let v = self.eval(value, scope)?;
                let v = self.go_statement_value(v, &value.span)?;
                scope.define(&name.name, v, &mut self.globals);
            }
            StmtKind::Region { name, value } => {
                let v = self.eval(value, scope)?;
                if !matches!(v, Value::Mixed(_)) {
                    self.game_of(&v, &value.span)?;
                }
                scope.define(&name.name, v.clone(), &mut self.globals);
                self.board.retain(|(n, _)| n != &name.name);
                self.board.push((name.name.clone(), v));
            }
            StmtKind::Fn { name, params, body } => {
                let f = Function {
                    name: name.name.clone(),
                    params: params.iter().map(|p| p.name.clone()).collect(),
                    body: body.clone(),
                    scope: scope.clone(),
                    source: self.current,
                };
                scope.define(&name.name, Value::Function(Rc::new(f)), &mut self.globals);
            }
            StmtKind::Assert { cond, message } => {
                if self.importing > 0 {
                    return Ok(Value::Unit);
                }
                self.assert(cond, message.as_ref(), &stmt.span, scope)?;
            }
            StmtKind::Theorem { name, body } => {
                if self.importing > 0 {
                    return Ok(Value::Unit);
                }
                self.theorem(&name.name, &body.stmts, &stmt.span, scope)?;
            }
            StmtKind::For { var, iter, body } => {
                let items = self.for_items(iter, scope)?;
                for item in items {
                    self.check_interrupt(&stmt.span)?;
                    let inner = scope.child();
                    inner.define(&var.name, item, &mut self.globals);
                    self.exec_block_in(&body.stmts, &inner)?;
                }
            }
            StmtKind::Print(exprs) => {
                let mut parts = Vec::with_capacity(exprs.len());
                // The notes on large ko graphs go under the whole line.
                let mut notes = Vec::new();
                for e in exprs {
                    let v = self.eval(e, scope)?;
                    parts.push(
                        v.display_summarised(&mut self.store, self.style, &mut notes)
                            .map_err(|err| self.cg_error(err, &e.span))?,
                    );
                }
                if self.mode != Mode::Check && self.importing == 0 {
                    (self.output)(&value::with_notes(parts.join(" "), &notes));
                }
            }
            StmtKind::Use(target) => self.use_module(target, &stmt.span)?,
            StmtKind::Expr(e) => {
                let v = self.eval(e, scope)?;
                return Ok(v);
            }
        }
        Ok(Value::Unit)
    }

    /// The bounds of `from..to` or `from..=to` as a half-open interval
    /// `[a, b)` (for loops, comprehensions and range values alike).
    fn range_bounds(
        &mut self,
        from: &Expr,
        to: &Expr,
        inclusive: bool,
        scope: &Scope,
    ) -> EvalResult<(BigInt, BigInt)> {
        let a = self.integer_arg(from, scope)?;
        let mut b = self.integer_arg(to, scope)?;
        if inclusive {
            b += 1;
        }
        Ok((a, b))
    }

    fn integer_arg(&mut self, e: &Expr, scope: &Scope) -> EvalResult<BigInt> {
        let v = self.eval(e, scope)?;
        self.to_integer(&v, &e.span)
    }

    fn use_module(&mut self, target: &UseTarget, span: &Span) -> EvalResult<()> {
        let (name, text, dir) = match target {
            UseTarget::Module(ident) => {
                let m = &ident.name;
                let Some(text) = crate::stdlib::module(m) else {
                    let known = crate::stdlib::MODULES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(self.error_with(
                        Diagnostic::error(format!("no stdlib module named `{m}`"))
                            .with_label(span.clone(), "unknown module")
                            .with_note(format!("modules: {known}; use \"path.cgt\" for a file")),
                    ));
                };
                (format!("<stdlib>/{m}.cgt"), text.to_string(), None)
            }
            UseTarget::File { path, .. } => {
                let base = self.sources[self.current]
                    .dir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("."));
                let full = base.join(path);
                let text = crate::files::read_script(&full)
                    .map_err(|e| self.error(span, format!("cannot use {}: {e}", full.display())))?;
                // A module is known by the file's identity, not by how its
                // path is spelled (`a.cgt`, `./a.cgt`, a link to it).
                let canonical = std::fs::canonicalize(&full).unwrap_or_else(|_| full.clone());
                let dir = full.parent().map(Path::to_path_buf);
                let key = canonical.display().to_string();
                if self.loaded_modules.contains(&key) {
                    return Ok(());
                }
                self.loaded_modules.push(key);
                (full.display().to_string(), text, dir)
            }
        };
        if matches!(target, UseTarget::Module(_)) {
            if self.loaded_modules.contains(&name) {
                return Ok(());
            }
            self.loaded_modules.push(name.clone());
        }
        let id = self.add_source(name.clone(), &text, dir);
        self.importing += 1;
        let r = self.run_source(id);
        self.importing -= 1;
        r.map_err(|stop| match stop {
            Stop::Error(report) => {
                let mut diag = report.diag.clone();
                diag.notes.push(format!(
                    "while loading `{name}` (used at byte {})",
                    span.start
                ));
                Stop::Error(Box::new(Report {
                    source: report.source,
                    diag,
                    more: report.more.clone(),
                }))
            }
            other => other,
        })
    }

    fn record(&mut self, span: &Span, theorem: Option<String>, failure: Option<Diagnostic>) {
        self.results.push(ProofResult {
            source: self.current,
            span: span.clone(),
            theorem,
            failure,
        });
    }

    fn assert(
        &mut self,
        cond: &Expr,
        message: Option<&Expr>,
        span: &Span,
        scope: &Scope,
    ) -> EvalResult<()> {
        let mut failure = self.check_condition(cond, scope)?;
        // The message only when it is needed: it may be costly or describe
        // what failed (`str(x) + " is not 0"`). A string is shown as it is,
        // any other value as it prints.
        if let (Some(d), Some(m)) = (&mut failure, message) {
            // A message that fails to evaluate does not hide the failure it
            // was to describe; an interrupt still stops.
            let text = match self.eval(m, scope) {
                Ok(Value::Str(s)) => s.to_string(),
                Ok(v) => v
                    .display(&mut self.store, self.style)
                    .map_err(|e| self.cg_error(e, &m.span))?,
                Err(Stop::Error(r)) => format!("(the message failed: {})", r.diag.message),
                Err(other) => return Err(other),
            };
            d.notes.insert(0, text);
        }
        if self.theorem.is_some() {
            if let Some(d) = failure {
                self.theorem_failure = Some(d);
                return Err(Stop::AssertFailed);
            }
            return Ok(());
        }
        self.record(span, None, failure);
        Ok(())
    }

    /// A side of a failed comparison as the diagnostic shows it: a sum whose
    /// canonical form is not found and written within [`COMPARED_FORM_STEPS`] is shown
    /// by its components (the comparison itself cancels the components that
    /// add up to 0 and never needed that form; 40 switches would take
    /// minutes).
    fn display_compared(&mut self, v: &Value) -> EvalResult<String> {
        let Value::Game(s) = v else {
            return self.display(v);
        };
        if s.parts().len() < 2 {
            return self.display(v);
        }
        match s.canonical_text_within(&mut self.store, self.style, COMPARED_FORM_STEPS) {
            Ok(Some(text)) => Ok(text),
            Ok(None) => s.format_components(&mut self.store, self.style),
            Err(e) => Err(e),
        }
        .map_err(|e| self.cg_error(e, &(0..0)))
    }

    /// `None` when the condition holds; otherwise a diagnostic explaining why not.
    fn check_condition(&mut self, cond: &Expr, scope: &Scope) -> EvalResult<Option<Diagnostic>> {
        if let ExprKind::Compare { op, lhs, rhs } = &cond.kind {
            let a = self.eval(lhs, scope)?;
            let b = self.eval(rhs, scope)?;
            let holds = self.compare_op(*op, &a, &b, &cond.span)?;
            if holds {
                return Ok(None);
            }
            let relation = self.describe_relation(&a, &b, &cond.span)?;
            let left = self.display_compared(&a)?;
            let right = self.display_compared(&b)?;
            let diag = Diagnostic::error(format!("assertion failed: {}", relation))
                .with_label(lhs.span.clone(), format!("this is {left}"))
                .with_label(rhs.span.clone(), format!("this is {right}"))
                .with_compared(left, right);
            return Ok(Some(diag));
        }
        let v = self.eval(cond, scope)?;
        match v {
            Value::Bool(true) => Ok(None),
            Value::Bool(false) => Ok(Some(
                Diagnostic::error("assertion failed")
                    .with_label(cond.span.clone(), "this is false"),
            )),
            other => Err(self.error(
                &cond.span,
                format!("`assert` needs a boolean, found {}", other.kind()),
            )),
        }
    }

    fn theorem(&mut self, name: &str, body: &[Stmt], span: &Span, scope: &Scope) -> EvalResult<()> {
        let saved = (
            self.theorem.replace(name.to_string()),
            self.theorem_failure.take(),
        );
        let r = self.exec_block_in(body, &scope.child());
        let failure = match r {
            Ok(_) => None,
            Err(Stop::AssertFailed) => self.theorem_failure.take(),
            Err(Stop::Error(report)) if report.source == self.current => Some(report.diag),
            Err(Stop::Error(report)) => {
                self.theorem = saved.0;
                self.theorem_failure = saved.1;
                return Err(Stop::Error(report));
            }
            Err(Stop::Interrupted) => {
                self.theorem = saved.0;
                self.theorem_failure = saved.1;
                return Err(Stop::Interrupted);
            }
        };
        self.theorem = saved.0;
        self.theorem_failure = saved.1;
        let failure = failure.map(|mut d| {
            d.message = format!("theorem `{name}` failed: {}", d.message);
            d
        });
        if self.theorem.is_some() {
            // A theorem nested in a theorem fails its parent.
            if let Some(d) = failure {
                self.theorem_failure = Some(d);
                return Err(Stop::AssertFailed);
            }
            return Ok(());
        }
        self.record(span, Some(name.to_string()), failure);
        Ok(())
    }

    // ----- expressions ----------------------------------------------------------

    pub(crate) fn eval(&mut self, e: &Expr, scope: &Scope) -> EvalResult<Value> {
        crate::limits::check_stack().map_err(|x| self.limit_error(x, &e.span))?;
        match &e.kind {
            ExprKind::Int(n) => Ok(Value::Rational(n.clone().into())),
            ExprKind::Frac(f) => {
                let (n, d) = &**f;
                if d.is_zero_big() {
                    return Err(self.error(&e.span, "division by zero"));
                }
                Ok(Value::Rational(num_rational::BigRational::new(
                    n.clone(),
                    d.clone(),
                )))
            }
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Str(s) => Ok(Value::str(s)),
            ExprKind::Name(name) => self.lookup(name, &e.span, scope),
            ExprKind::Star(arg) => {
                let n = match arg {
                    None => 1,
                    Some(a) => {
                        let v = self.eval(a, scope)?;
                        let n = self.to_integer(&v, &a.span)?;
                        if n.is_negative() {
                            return Err(self
                                .error(&a.span, format!("a nimber `*n` needs n ≥ 0, found {n}")));
                        }
                        n.to_u64().ok_or_else(|| {
                            self.error(&a.span, "nimber too large (at most 2^64 - 1)")
                        })?
                    }
                };
                Ok(Value::game(self.store.nimber(n)))
            }
            ExprKind::Ups(count) => {
                // The same magnitude both ways: at most 2^63 - 1 ups or downs.
                let k = count.to_i64().filter(|k| *k != i64::MIN).ok_or_else(|| {
                    self.error(&e.span, "too many ups or downs (at most 2^63 - 1)")
                })?;
                Ok(Value::game(self.store.ups(k)))
            }
            ExprKind::UpNth { n, down } | ExprKind::Uptimal { n, down } => {
                let uptimal = matches!(e.kind, ExprKind::Uptimal { .. });
                let k = n
                    .to_u32()
                    .filter(|k| (1..=4096).contains(k))
                    .ok_or_else(|| {
                        self.error(
                            &e.span,
                            format!("the order must be between 1 and 4096, found {n}"),
                        )
                    })?;
                let g = if uptimal {
                    self.store.uptimal(k)
                } else {
                    self.store.up_nth(k)
                };
                let g = g.map_err(|err| self.cg_error(err, &e.span))?;
                Ok(Value::game(if *down { self.store.neg(g) } else { g }))
            }
            ExprKind::Game { .. } | ExprKind::Labelled { .. } => self.braces(e, scope),
            ExprKind::Theta(n) => self.theta(*n, &e.span),
            ExprKind::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i, scope)?);
                }
                Ok(Value::list(out))
            }
            ExprKind::Comprehension { elem, clauses } => {
                let mut out = Vec::new();
                self.comprehension(elem, clauses, scope, &mut out)?;
                Ok(Value::list(out))
            }
            ExprKind::Call { name, args } => {
                self.call(&name.name, &name.span, args, &e.span, scope)
            }
            ExprKind::Index { base, index } => {
                let b = self.eval(base, scope)?;
                if let Value::Mixed(m) = &b {
                    let key = self.eval(index, scope)?;
                    return self.ko_index(m, &key, &base.span, &index.span);
                }
                if let Value::Record(_, fields) = &b {
                    let key = self.eval(index, scope)?;
                    let Value::Str(key) = key else {
                        return Err(
                            self.error(&index.span, "a record is indexed by a field name string")
                        );
                    };
                    return match fields.iter().find(|(n, _)| **n == *key) {
                        Some((_, v)) => Ok(v.clone()),
                        None => {
                            let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
                            Err(self.error(
                                &index.span,
                                format!("no field \"{key}\"; the fields are {}", names.join(", ")),
                            ))
                        }
                    };
                }
                let i = self.integer_arg(index, scope)?;
                match &b {
                    Value::List(items) => {
                        let len = items.len() as i64;
                        let k = i.to_i64().map(|k| if k < 0 { k + len } else { k });
                        match k {
                            Some(k) if (0..len).contains(&k) => Ok(items[k as usize].clone()),
                            _ => Err(self.error(
                                &index.span,
                                format!("index {i} is out of range for a list of length {len}"),
                            )),
                        }
                    }
                    other => Err(self.error(
                        &base.span,
                        format!("only lists can be indexed, this is {}", other.kind()),
                    )),
                }
            }
            ExprKind::Unary { op, expr } => {
                let v = self.eval(expr, scope)?;
                self.unary(*op, v, &e.span, &expr.span)
            }
            ExprKind::Not(inner) => match self.eval(inner, scope)? {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                other => Err(self.error(
                    &inner.span,
                    format!("`not` needs a boolean, found {}", other.kind()),
                )),
            },
            ExprKind::Chain { first, rest } => self.chain(e, first, rest, scope),
            ExprKind::Compare { op, lhs, rhs } => {
                let a = self.eval(lhs, scope)?;
                let b = self.eval(rhs, scope)?;
                Ok(Value::Bool(self.compare_op(*op, &a, &b, &e.span)?))
            }
            ExprKind::If(branch) => {
                let ast::IfElse {
                    cond,
                    then_block,
                    else_block,
                } = &**branch;
                if self.eval_condition(cond, scope)? {
                    self.exec_block_in(&then_block.stmts, &scope.child())
                } else if let Some(b) = else_block {
                    self.exec_block_in(&b.stmts, &scope.child())
                } else {
                    Ok(Value::Unit)
                }
            }
            ExprKind::Block(block) => self.exec_block_in(&block.stmts, &scope.child()),
            ExprKind::Lambda { params, body } => Ok(Value::Function(Rc::new(Function {
                name: String::new(),
                params: params.iter().map(|p| p.name.clone()).collect(),
                body: (**body).clone(),
                scope: scope.clone(),
                source: self.current,
            }))),
            ExprKind::Range {
                from,
                to,
                inclusive,
            } => {
                let (a, b) = self.range_bounds(from, to, *inclusive, scope)?;
                let len = if b > a { &b - &a } else { BigInt::from(0) };
                if len > BigInt::from(MAX_RANGE) {
                    return Err(self.error(
                        &e.span,
                        format!(
                            "a range makes a list of at most {} numbers, this one has {len}",
                            ko::grouped(MAX_RANGE)
                        ),
                    ));
                }
                let items = num_iter(a, b).map(|i| Value::Rational(i.into())).collect();
                Ok(Value::list(items))
            }
            ExprKind::PlusMinus(items) => {
                let mut left = Vec::with_capacity(items.len());
                for item in items {
                    let v = self.eval(item, scope)?;
                    left.push(self.game_of(&v, &item.span)?);
                }
                let right: Vec<_> = left.iter().map(|&g| self.store.neg(g)).collect();
                let g = self
                    .store
                    .canonical(left, right)
                    .map_err(|err| self.cg_error(err, &e.span))?;
                Ok(Value::game(g))
            }
        }
    }

    fn lookup(&mut self, name: &str, span: &Span, scope: &Scope) -> EvalResult<Value> {
        if let Some(v) = scope.lookup(name, &self.globals) {
            return Ok(v);
        }
        if name == "board" {
            // The regions, kept as named components for play questions.
            if self.board.iter().any(|(_, v)| matches!(v, Value::Mixed(_))) {
                return self.mixed_board(&self.board.clone(), span);
            }
            let mut parts = Vec::with_capacity(self.board.len());
            let mut labels = Vec::with_capacity(self.board.len());
            for (region, v) in self.board.clone() {
                parts.push(self.game_of(&v, span)?);
                labels.push(Rc::from(region.as_str()));
            }
            if parts.is_empty() {
                parts.push(self.store.zero());
                labels.push(Rc::from("zero"));
            }
            return Ok(Value::Game(GameSum::labelled(parts, labels)));
        }
        if ARGUMENT_WORDS.contains(&name) {
            return Ok(Value::str(name));
        }
        // The missing value (what `optimal(3)` gives) reads as it prints.
        if name == "nothing" {
            return Ok(Value::Unit);
        }
        if let Some(b) = registry::lookup(name) {
            return Ok(Value::Builtin(b));
        }
        let mut diag = Diagnostic::error(format!("unknown name `{name}`"))
            .with_label(span.clone(), "not defined");
        if let Some(s) = self.suggest(name, scope) {
            diag = diag.with_note(format!("did you mean `{s}`?"));
        }
        Err(self.error_with(diag))
    }

    fn suggest(&self, name: &str, scope: &Scope) -> Option<String> {
        let mut candidates = scope.names(&self.globals);
        candidates.extend(builtin_names().map(str::to_string));
        // The words named arguments take (`komaster: blak` → `black`).
        candidates.extend(ARGUMENT_WORDS.iter().map(|w| w.to_string()));
        closest(name, candidates.iter().map(String::as_str)).map(str::to_string)
    }

    fn call(
        &mut self,
        name: &str,
        name_span: &Span,
        args: &[ast::Arg],
        span: &Span,
        scope: &Scope,
    ) -> EvalResult<Value> {
        let callee = self.lookup(name, name_span, scope)?;
        let mut values = Vec::with_capacity(args.len());
        let mut spans = Vec::with_capacity(args.len());
        let mut named = Vec::new();
        for a in args {
            let accepts = a
                .name
                .as_ref()
                .is_some_and(|n| accepts_named(&callee, &n.name));
            // `f(k: {…|…} + G)` where `k` is no named argument of `f`: a
            // labelled ko-graph literal passed positionally (the label names
            // the game it touches, as in `let K = k: {…|…} + G`).
            if let (Some(n), false) = (&a.name, accepts) {
                if let Some(lit) = label_leftmost_game(&a.value, n) {
                    values.push(self.eval(&lit, scope)?);
                    spans.push(lit.span.clone());
                    continue;
                }
            }
            let v = self.eval(&a.value, scope)?;
            match &a.name {
                Some(n) => {
                    if !accepts {
                        let msg = format!("`{name}` takes no named argument `{}`", n.name);
                        let mut diag =
                            Diagnostic::error(msg.clone()).with_label(n.span.clone(), msg);
                        let taken: Vec<&str> = match &callee {
                            Value::Builtin(b) => b.named.iter().map(|a| a.name).collect(),
                            _ => Vec::new(),
                        };
                        if let Some(s) = closest(&n.name, taken.iter().copied()) {
                            diag = diag.with_help(format!("did you mean `{s}:`?"));
                        } else if !taken.is_empty() {
                            diag = diag.with_note(format!(
                                "its named arguments: {}",
                                taken
                                    .iter()
                                    .map(|t| format!("`{t}:`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ));
                        }
                        return Err(self.error_with(diag));
                    }
                    named.push((n.name.clone(), v, a.value.span.clone()));
                }
                None => {
                    values.push(v);
                    spans.push(a.value.span.clone());
                }
            }
        }
        self.named_args = named;
        self.apply(&callee, name, values, &spans, span)
    }

    pub(crate) fn apply(
        &mut self,
        callee: &Value,
        name: &str,
        args: Vec<Value>,
        spans: &[Span],
        span: &Span,
    ) -> EvalResult<Value> {
        match callee {
            Value::Builtin(b) => {
                let named = std::mem::take(&mut self.named_args);
                registry::call(self, b, args, named, spans, span)
            }
            Value::Function(f) => {
                if f.params.len() != args.len() {
                    let who = if f.name.is_empty() {
                        "this function".to_string()
                    } else {
                        format!("`{}`", f.name)
                    };
                    return Err(self.error(
                        span,
                        format!(
                            "{who} takes {}, given {}",
                            registry::arguments(f.params.len(), f.params.len()),
                            args.len()
                        ),
                    ));
                }
                if self.depth >= MAX_CALL_DEPTH {
                    return Err(self.error(
                        span,
                        format!("recursion deeper than {MAX_CALL_DEPTH} calls"),
                    ));
                }
                self.check_interrupt(span)?;
                let inner = f.scope.child();
                for (p, v) in f.params.iter().zip(args) {
                    inner.define(p, v, &mut self.globals);
                }
                let saved = self.current;
                self.current = f.source;
                self.depth += 1;
                let r = self.eval(&f.body, &inner);
                self.depth -= 1;
                self.current = saved;
                r
            }
            other => Err(self.error(
                span,
                format!("`{name}` is {}, not a function", other.kind()),
            )),
        }
    }
}

fn num_iter(a: BigInt, b: BigInt) -> impl Iterator<Item = BigInt> {
    let mut i = a;
    std::iter::from_fn(move || {
        if i < b {
            let r = i.clone();
            i += 1;
            Some(r)
        } else {
            None
        }
    })
}

trait IsZeroBig {
    fn is_zero_big(&self) -> bool;
}
impl IsZeroBig for BigInt {
    fn is_zero_big(&self) -> bool {
        num_traits::Zero::is_zero(self)
    }
}

/// The first parse diagnostic, as a stop in source `id`.
fn parse_failure(id: SourceId, diags: Vec<Diagnostic>) -> Stop {
    let mut diags = diags.into_iter();
    let diag = diags
        .next()
        .unwrap_or_else(|| Diagnostic::error("parse error"));
    Stop::Error(Box::new(Report {
        source: id,
        diag,
        more: diags.collect(),
    }))
}

/// Words that stand for themselves as values of named arguments
/// (`komaster: black`, `rules: chinese`, `ko_rule: positional`).
const ARGUMENT_WORDS: &[&str] = &[
    "black",
    "white",
    "japanese",
    "chinese",
    "basic",
    "positional",
    "situational",
    "natural_situational",
    "new_ko_rules",
    "none",
    "keep",
    "resolve",
    "ultimate",
    "fundamental",
    "original",
    "simple",
];

/// Whether `callee` (a builtin) takes the named argument `arg`.
fn accepts_named(callee: &Value, arg: &str) -> bool {
    matches!(callee, Value::Builtin(b) if b.takes_named(arg))
}

/// The candidate closest to `name` by edit distance, if close enough.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .map(|c| (crate::go::edit_distance(name, c), c))
        .filter(|(d, c)| *d <= 2.max(name.len() / 3) && *d < c.len() && *d > 0)
        .min()
        .map(|(_, c)| c)
}

/// `value` with the label put on its leftmost operand when that is a braced
/// game written first (`{…} + G`, `{…}[i]`): how `k: value` reads outside a
/// call. `None` when the value does not start with a braced game.
fn label_leftmost_game(value: &Expr, label: &ast::Ident) -> Option<Expr> {
    let span = label.span.start..value.span.end;
    let kind = match &value.kind {
        ExprKind::Game { .. } => ExprKind::Labelled {
            label: label.clone(),
            game: Box::new(value.clone()),
        },
        ExprKind::Chain { first, rest } if first.span.start == value.span.start => {
            ExprKind::Chain {
                first: Box::new(label_leftmost_game(first, label)?),
                rest: rest.clone(),
            }
        }
        ExprKind::Compare { op, lhs, rhs } if lhs.span.start == value.span.start => {
            ExprKind::Compare {
                op: *op,
                lhs: Box::new(label_leftmost_game(lhs, label)?),
                rhs: rhs.clone(),
            }
        }
        ExprKind::Index { base, index } if base.span.start == value.span.start => ExprKind::Index {
            base: Box::new(label_leftmost_game(base, label)?),
            index: index.clone(),
        },
        _ => return None,
    };
    Some(Expr::new(kind, span))
}

#[cfg(test)]
mod tests {
    use super::{Interp, Mode};
    use crate::render::Style;
    use expect_test::{expect, Expect};
    use std::cell::RefCell;
    use std::rc::Rc;

    /// What the REPL echoes for `input` (one entry), errors as `error: …`.
    fn echo(input: &str) -> String {
        echo_in(Style::Ascii, input)
    }

    fn echo_in(style: Style, input: &str) -> String {
        let mut interp = Interp::new(Mode::Repl, style);
        let lines = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&lines);
        interp.output = Box::new(move |s| sink.borrow_mut().push(s.to_string()));
        let id = interp.add_source("<test>", input, None);
        if let Err(e) = interp.run_source(id) {
            return format!("error: {e:?}");
        }
        let out = lines.borrow().join("\n");
        out
    }

    fn check(input: &str, expect: Expect) {
        expect.assert_eq(&echo(input));
    }

    #[test]
    fn long_flat_chains_evaluate_from_the_left_in_a_loop() {
        // 100 000 terms: one chain node, evaluated in a loop (a nested
        // reading would recurse 100 000 deep).
        let n = 100_000;
        check(
            &format!("print {}", vec!["1"; n].join(" + ")),
            expect!["100000"],
        );
        // From the left: ((10 - 1) - 1) …, not 10 - (1 - (1 - …)).
        check(&format!("print 10{}", " - 1".repeat(n)), expect!["-99990"]);
        // Games: their components gathered and added once, in order.
        check(
            &format!("len(components({}))", vec!["{1|0}"; n].join(" + ")),
            expect!["100000"],
        );
        check(
            "{1|0} + {2|0} - {1|0} + 3 + ^ - *\n+-1 + +-2 - +-1 + {1|0} - {1|0}",
            expect![[r#"
                {5^*|3^*}
                +-2"#]],
        );
        // `and` / `or` short-circuit along the chain: after the `false` (or
        // the `true`), `1/0` is never evaluated.
        let trues = vec!["true"; n].join(" and ");
        check(
            &format!("{trues} and false and 1/0 == 1\nfalse or true or 1/0 == 1"),
            expect![[r#"
                false
                true"#]],
        );
        // An error in the middle of a chain points at the chain so far, as
        // the nested reading's left operand did.
        let err = echo("\"a\" + \"b\" + 1 + 2");
        assert!(
            err.contains("expected a game, found a string") && err.contains("span: 0..9"),
            "{err}"
        );
    }

    #[test]
    fn the_dot_is_nortons_product_and_copies_need_the_integer_on_the_left() {
        // `n . G`: n copies; `G . U`: Norton's product (CGSuite's
        // `(1/2).NortonMultiply(^)` is `{^^*|v*}`, `^.NortonMultiply(^)`
        // `{^^*||0|v4}`); two scalars multiply.
        check(
            "3 . {1|0}\n-2 . {1|0}\n1/2 . ^\n^ . ^\nnorton({1|0}, 3)\n2 . 3\n3 . 1/2",
            expect![[r#"
                {2|1}
                -1
                {^^*|v*}
                {^^*||0|v4}
                {5|-2}
                6
                3/2"#]],
        );
        // A non-integer game on the left and an integer on the right reads
        // both ways (Norton's `{1|0}.3` is `{5|-2}`, three copies `{2|1}`):
        // refused, with both spellings offered.
        for src in ["{1|0} . 3", "* . 3", "^ . -2", "{1|0} . (1 + 1)"] {
            let err = echo(src);
            assert!(
                err.contains("is ambiguous") && err.contains("norton("),
                "{src}: {err}"
            );
        }
    }

    #[test]
    fn a_sum_whose_form_is_out_of_budget_prints_as_its_components() {
        // ±1 + … + ±40: its canonical form is not found and written within
        // the budget (it took minutes and gigabytes); the echo says so.
        let b = "let B = sum(map(fn(k) = +-k, 1..=40))";
        let components: Vec<String> = (1..=40).map(|k| format!("+-{k}")).collect();
        let components = components.join(" + ");
        let echoed = echo(&format!("{b}\nB"));
        let (text, note) = echoed.split_once('\n').unwrap();
        assert_eq!(text, components);
        expect!["(a sum of 40 components, written as a sum: its canonical form was not found and written within 2 000 000 steps; `canonical(…)` computes it)"]
            .assert_eq(note);
        // `print` and `str` write the same text without the note, and again
        // when asked again (the work memoised by the first attempt must not
        // let the second one print a form too large to write).
        let printed = echo(&format!(
            "{b}\nprint B\nprint str(B) == str(B)\nprint len(str(B))"
        ));
        assert_eq!(printed, format!("{components}\ntrue\n{}", components.len()));
        // A small sum prints its canonical form, as before.
        check(
            "+-3 + +-2 + +-1\nprint [+-3 + +-2, 1 + *]",
            expect![[r#"
                +-{6|4||2|0}
                [+-{5|1}, 1*]"#]],
        );
    }

    #[test]
    fn the_echo_and_print_summarise_large_ko_graphs_only() {
        // A basic ko at the mouth of a 10-point corridor: a graph of 8 064
        // positions, written one move deep beside the number, with its
        // sizes under it.
        let corridor = r#"value(go("XXXXXXXXXXOO\nX........o.O\nXXXXXXXXXXOO"))"#;
        check(
            &format!("{corridor} + 1/2"),
            expect![[r#"
                1/2 + k0: {k1: ..., -1 + k2842: ..., -2 + k3843: ..., -3 + k4196: ..., -4 + k4321: ..., -5 + k4366: ..., -6 + k4383: ..., -7 + k4390: ... | k2841: ..., -8 + k7417: ..., -8 + k7837: ..., -8 + k7985: ..., -8 + k8037: ..., -8 + k8055: ..., -8 + k8061: ..., -8 + k8063: ..., {7|||||||6||||||5|||||4||||3|||2||1|*}}
                (k0: a ko graph of 8 064 positions and 32 128 moves, 8 064 to short games and 4 854 scoring; 8 064 positions on cycles, in 1 840 groups of positions that can repeat; shown one move deep: `node(…, "k1")` is a position, `print str(…)` writes the whole graph)"#]],
        );
        check("ko(2, -1) + 1", expect!["1 + kw: {{2 | kw} | -1}"]);
        // `print` summarises too, the notes of a line's values under it,
        // inside lists and records as well.
        check(
            &format!("print [{corridor}], 1, (a: multi_stage_ko(100, 3, -4))"),
            expect![[
                r#"error: Error(Report { source: 0, diag: Diagnostic { severity: Error, message: "unexpected `multi_stage_ko`", labels: [Label { span: 70..84, message: "expected `{`", primary: true }], notes: [], helps: [], compared: None }, more: [] })"#
            ]],
        );
        // 100 positions are written whole, by the echo and by `print`.
        let hundred = echo("multi_stage_ko(99, 3, -4)");
        assert!(hundred.starts_with("s0: {3 | s1: {s0 | s2: {s1 |") && !hundred.contains('\n'));
        assert_eq!(echo("print multi_stage_ko(99, 3, -4)"), hundred);
        // A label not in a large graph: the note names twenty of its nodes.
        let err = echo(&format!(r#"node({corridor}, "zz")"#));
        assert!(
            err.contains("its nodes: k0, k1, k2, ")
                && err.contains("k19, … (8 044 more); nodes(K) lists them all"),
            "{err}"
        );
        // `str` writes every graph whole, and the text reads back.
        let whole = echo(&format!("print str({corridor})"));
        assert!(
            whole.len() > 100_000 && !whole.contains("..."),
            "{}",
            &whole[..200]
        );
        let text = echo("print str(multi_stage_ko(100, 3, -4))");
        assert!(
            text.starts_with("s0: {3 | s1: {s0 | s2: {s1 |")
                && text.trim_end_matches('}').ends_with("{s99 | -4")
        );
        check(
            &format!("str({text}) == str(multi_stage_ko(100, 3, -4))"),
            expect!["true"],
        );
    }

    #[test]
    fn the_echo_shows_nothing_as_nothing() {
        // A field with no value (an analysis with no stops) is echoed as
        // `nothing`, as `print` writes it, not as an empty line or no line.
        check(
            "let A = analyse(go(\". .\"))\nA[\"left_stop\"]\nprint A[\"black_first\"]\n[A[\"ko_ban\"], 1]",
            expect![[r#"
                nothing
                nothing
                [nothing, 1]"#]],
        );
        // A statement-level `if` run for its effect echoes only what it prints.
        check("if true { print 1 }\nif false { 2 }", expect!["1"]);
    }

    #[test]
    fn the_echo_cuts_long_texts() {
        let text = echo("range(0, 30000)");
        let (head, note) = text.split_once(" …\n").unwrap();
        assert_eq!(head.len(), 2_000);
        assert!(head.starts_with("[0, 1, 2, "));
        expect!["(198 890 bytes in all, not written out here; `print` writes it in full)"]
            .assert_eq(note);
        // `[1, ⇑, ⇑, …`: the k-th `⇑` (3 bytes) starts at byte 4 + 5k, so
        // byte 2 000 is inside the one at 1 999 and the cut is before it.
        let text = echo_in(
            Style::Unicode,
            "fn up2(n) = ^^\nconcat([1], map(up2, range(0, 30000)))",
        );
        let (head, note) = text.split_once(" …\n").unwrap();
        assert_eq!(head.len(), 1_999);
        assert!(head.ends_with(", "));
        expect!["(150 003 bytes in all, not written out here; `print` writes it in full)"]
            .assert_eq(note);
        check("range(0, 3)", expect!["[0, 1, 2]"]);
        // A sum of many small kos: every graph is written out, the text cut.
        let text = echo("fn k(n) = ko(n, -n)\nsum(map(k, range(1, 6000)))");
        let (head, note) = text.split_once(" …\n").unwrap();
        assert!(head.starts_with("kw: {{1 | kw} | -1} + kw: {{2 | kw} | -2} + "));
        expect!["(165 755 bytes in all, not written out here; `print` writes it in full)"]
            .assert_eq(note);
    }
    /// The interrupt flag is made when asked for (a fresh interpreter has
    /// none); once made, setting it stops the interpreter's own steps and
    /// the store's, which hold the same flag.
    #[test]
    fn the_interrupt_flag_asked_for_stops_the_interpreter_and_its_store() {
        use std::sync::atomic::Ordering;
        use std::sync::Arc;
        let mut interp = Interp::new(Mode::Script, Style::Ascii);
        assert!(interp.store.interrupt_flag().is_none());
        let flag = interp.interrupt_flag();
        assert!(Arc::ptr_eq(&flag, &interp.interrupt_flag()));
        assert!(interp
            .store
            .interrupt_flag()
            .is_some_and(|f| Arc::ptr_eq(&f, &flag)));
        flag.store(true, Ordering::SeqCst);
        let id = interp.add_source("<test>", "for i in 1..3 { print i }", None);
        assert!(matches!(
            interp.run_source(id),
            Err(super::Stop::Interrupted)
        ));
    }

    /// The global scope lives in the interpreter: functions defined at the
    /// top see globals defined after them, and call themselves.
    #[test]
    fn global_functions_see_the_globals() {
        check(
            "fn f(n) = if n == 0 { k } else { f(n - 1) + 1 }\nlet k = 10\nf(3)",
            expect!["13"],
        );
        // A block's bindings stay in the block.
        check("let a = 1\nif true { let a = 2 }\na", expect!["1"]);
    }

    /// The first source is kept in place, the others in a list; ids count
    /// from 0 in the order they were added.
    #[test]
    fn sources_are_numbered_in_order() {
        let mut interp = Interp::new(Mode::Script, Style::Ascii);
        let names: Vec<String> = (0..3).map(|i| format!("<s{i}>")).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(interp.add_source(n.clone(), &format!("{i}"), None), i);
        }
        assert_eq!(interp.sources.len(), 3);
        for i in 0..3 {
            assert_eq!(interp.sources[i].name, names[i]);
            assert_eq!(&*interp.sources[i].text, format!("{i}").as_str());
        }
        assert!(interp.sources.get(3).is_none());
    }
}
