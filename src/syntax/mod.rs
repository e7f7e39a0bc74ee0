//! Source text -> AST with byte spans.
//!
//! Three stages, all behind [`parse_program`] / [`parse_expr`]:
//!
//! 1. `layout` (hand-written byte scanner): strips comments, matches
//!    brackets and strings, caps nesting at [`MAX_NESTING`], tells game
//!    braces `{…|…}` from block braces, and turns newlines inside brackets and
//!    games into spaces. Byte offsets never change.
//! 2. pest, with grammar/yose.pest, on the layout output, with the game
//!    literals that `fast` (a hand-written reader for their common shape)
//!    accepts replaced by trivial games of the same length; pest alone
//!    reruns on any failure, so diagnostics are pest's.
//! 3. `parser`: pest pairs -> [`ast`] (the slash convention, juxtaposition,
//!    signed literals, `ish`), and pest errors -> [`Diagnostic`]s with
//!    human names for tokens.
//!
//! Nothing here panics on any `&str` input; every failure is a diagnostic.
//! See [`ast`] for how each surface form is represented.
//!
//! Language rules that are easy to miss:
//!
//! * A newline ends a statement, except inside `( )`, `[ ]` and a game's
//!   `{ | }`, and after a binary operator, `,` or `=`. `else` may start the
//!   line after a `}`.
//! * `{ … }` is a game when a `|` (not `<|`/`|>`) stands directly inside it,
//!   otherwise a block; blocks only follow `if`, `else`, `for x in …`,
//!   `theorem NAME` and `fn …(…) =`. So `if c {1|0}` is an error (write
//!   `if c { {1|0} }`), and `{}` is not a game (`{|}` is 0).
//! * Game options and `for` iterables are additive-level expressions
//!   (`for x in a..b`, `for g in games`, `for g in f(x)`); parenthesise
//!   anything looser.
//! * Calls and indexing must touch what they apply to: `f(x)`, `xs[0]`.
//!   Only names can be called; literals take no postfix.
//! * The word `v` (also `vv`, `v3`, `v<2>`, `v[3]`) is always a down, never
//!   a name; `value`, `vx`, `v'` are names.
//! * `θ`, `θθ`, … and `theta` are ko threats (`theta` is a keyword); a
//!   number touching them is a sum (`2θ` is 2 + θ). `name: {…|…}` is a
//!   labelled ko-graph node; inside a call's parentheses `f(k: …)` is a
//!   named argument (the evaluator reads `f(k: {…|…})` as a labelled
//!   literal when `f` takes no argument `k`).
//! * `*` is never an operator; `2*` is a sum only because the number touches
//!   the star. `2 * 3` and `G*` are errors with a hint about `n . G`.
//! * `-` directly before a digit in prefix position is a sign: `-2v*` is
//!   (-2) + ↓ + *. U+2212 `−` is accepted wherever `-` is.
//! * Limits: [`MAX_NESTING`] brackets (checked before pest runs) and
//!   [`MAX_DEPTH`] AST levels. Parsing runs on the caller's thread when its
//!   stack has room for the input's nesting, else on its own thread with a
//!   large stack, so callers need no special stack.

pub mod ast;
mod fast;
mod layout;
mod parser;
mod recover;
pub mod sexpr;

#[cfg(test)]
mod tests;

pub use ast::*;

/// Whether `src` begins with a word that only starts a statement (`let`,
/// `assert`, …, or `fn` and a name), as the error recovery reads it.
pub fn starts_with_statement(src: &str) -> bool {
    recover::starts_statement(src.trim_start(), 0)
}
pub use layout::MAX_NESTING;

use crate::diag::Diagnostic;

/// Deepest AST the parser returns (statements, blocks and expressions
/// together; a chain `a + b + c`, of any length, is one level, its operands
/// one below). Walkers recursing over a parsed AST may rely on it.
pub const MAX_DEPTH: usize = 1000;

/// Stack for the parsing thread, when the caller's is too small. pest's
/// generated parser recurses about ten rules per bracket level; at
/// `MAX_NESTING` brackets an unoptimised build needs some 16 MiB, more than
/// a main thread (8 MiB) or a test thread (2 MiB) has. The memory is only
/// reserved, not touched.
const PARSE_STACK: usize = 64 << 20;

/// Stack reckoned per level of recursion in pest and the builder (a
/// bracket, an `if` or an `fn`): what an unoptimised build uses at
/// `MAX_NESTING` brackets, with room to spare (optimised builds use less).
const STACK_PER_LEVEL: usize = 96 << 10;

/// Stack kept free besides the levels.
const STACK_BASE: usize = 512 << 10;

/// Runs `f` on the current thread when its stack has room for input with
/// `nesting` bracket levels (and as many more as `text` has `if` and `fn`
/// words, which recurse without brackets); otherwise on a scoped thread
/// with a [`PARSE_STACK`]-sized stack (or here, if no thread can be
/// spawned). Everyday input stays on the caller's thread: a spawn costs
/// more than parsing a line.
pub(crate) fn on_enough_stack<T: Send>(
    nesting: usize,
    text: &str,
    f: &(dyn Fn() -> T + Sync),
) -> T {
    let chains = text
        .as_bytes()
        .windows(2)
        .filter(|w| w == b"if" || w == b"fn")
        .count();
    let levels = nesting.saturating_add(chains).saturating_add(2);
    let needed = levels
        .saturating_mul(STACK_PER_LEVEL)
        .saturating_add(STACK_BASE);
    if crate::limits::stack_remaining().is_some_and(|left| left > needed) {
        return f();
    }
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("yose-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, f);
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => f(),
        }
    })
}

#[cfg(test)]
pub(crate) use parser::compare_fast_path;

/// Parses a whole script or REPL entry. Empty input is an empty program.
/// On failure, every syntax error of the script (see [`recover`]), sorted
/// by position.
pub fn parse_program(src: &str) -> Result<Program, Vec<Diagnostic>> {
    parser::program(src).map_err(|f| recover::all_errors(src, f.diags))
}

/// Parses a single expression (for `yose eval 'EXPR'`), surrounding
/// newlines allowed.
pub fn parse_expr(src: &str) -> Result<Expr, Vec<Diagnostic>> {
    parser::expression(src).map_err(|f| f.diags)
}

/// (benchmarks only) [`parse_expr`] without the fast path: pest alone, for
/// timing the fast path against it.
#[doc(hidden)]
pub fn parse_expr_with_pest_only(src: &str) -> Result<Expr, Vec<Diagnostic>> {
    parser::expression_with_pest_only(src).map_err(|f| f.diags)
}

/// True when `src` fails to parse only because it ended too early: an
/// unclosed bracket, brace or string, or a statement cut off after an
/// operator, a comma, `=`, `if cond`, … For the REPL's multi-line input.
pub fn is_incomplete(src: &str) -> bool {
    match parser::program(src) {
        Ok(_) => false,
        Err(f) => f.at_end,
    }
}
