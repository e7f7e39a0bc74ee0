//! The abstract syntax tree. Every node carries a byte span (`Range<usize>`)
//! into the source it was parsed from; nothing here refers to pest.
//!
//! Representation choices the evaluator relies on:
//!
//! * **Juxtaposition is addition.** `2*`, `1^`, `3/2^*`, `2{0|-1}`,
//!   `9Tiny({2|1})` become [`BinOp::Add`] chains of one link whose span covers the whole
//!   literal. So do the star suffixes of up/down literals: `^*` is
//!   `Add(Ups(1), Star(None))`, `73/16v9*8` is
//!   `Add(Frac(73,16), Add(Ups(-9), Star(8)))`.
//! * **Signed literals.** A `-` written directly before a digit in prefix
//!   position is folded into the number: `-2v*` is `Add(Int(-2), Add(Ups(-1),
//!   Star))`, `-3/8` is `Frac(-3, 8)`. `- 2v*` (with a space) is
//!   `Unary(Neg, …)`.
//! * **Fractions** keep numerator and denominator as written (the sign, if
//!   any, is on the numerator); `1/0` parses, the evaluator must reject it.
//! * **Ups and downs** share one node: [`ExprKind::Ups`] with a signed count
//!   (`v3` is `Ups(-3)`). Up-nth and uptimals carry `down: bool`.
//! * **Tiny/miny**: `⧾x` / `⧿x` are `Call { name: "tiny" / "miny", .. }`, the
//!   same as writing `tiny(x)` / `miny(x)` (the `Tiny`/`Miny` spellings keep
//!   their capital letter in the call name).
//! * **Ko threats**: `θ`, `θθ`, … and ASCII `theta` are [`ExprKind::Theta`]
//!   with the number of θ written (`-θ` is `Unary(Neg, Theta(1))`).
//! * **Labelled nodes** of ko graphs: `kw: {{2 | kw} | -2}` is
//!   [`ExprKind::Labelled`] around a [`ExprKind::Game`]; a reference to a
//!   label inside the literal is an ordinary `Name` (the evaluator resolves
//!   it against the labels of the literal first).
//! * **Slash convention** is resolved by the parser: a [`ExprKind::Game`]
//!   always has plain option lists; `{a||b|c}` arrives as
//!   `Game { left: [a], right: [Game { left: [b], right: [c] }] }`.
//! * **`a +- b`** (CGSuite's binary ±) is `Add(a, Unary(Switch, b))`,
//!   the unary node spanning `+- b`; `a +- {b, c}` is `Add(a,
//!   PlusMinus([b, c]))`.
//! * **Chains** of one precedence level are flat: `a + b - c` is one
//!   [`ExprKind::Chain`] (`a`, then `+ b`, `- c`), meaning `Sub(Add(a, b),
//!   c)`; `Add(a, b)` above is the chain `a + b` of one link.
//! * **`ish`**: `a == b ish` is `Compare(Approx)`, `a != b ish` is
//!   `Compare(NotApprox)`.
//! * **`else if`** is desugared: the else block holds one expression
//!   statement, the inner `if`.
//! * **Parentheses** leave no node; the inner expression's span is widened to
//!   include them.
//! * Depth: the parser rejects trees deeper than [`super::MAX_DEPTH`], so
//!   recursive walks over an AST it returned are bounded (a chain is one
//!   level however long; walk its links in a loop).

use num_bigint::BigInt;
use std::ops::Range;

/// A byte range into the source text.
pub type Span = Range<usize>;

/// A whole script (or REPL entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

/// A name as written, with its span (`G'`, `corridor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `{ stmts }` after `if`, `else`, `for`, `theorem` or `fn … =`. The span
/// includes the braces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StmtKind {
    /// `let NAME = expr`
    Let { name: Ident, value: Expr },
    /// `region NAME = expr`: a binding that also joins the board sum.
    Region { name: Ident, value: Expr },
    /// `go NAME = expr`: binds the Go position drawn by the diagram string
    /// `expr` (or `expr` itself when it is already a position).
    Go { name: Ident, value: Expr },
    /// `fn NAME(params) = body`. A block body is an `ExprKind::Block`.
    /// Parameter names are distinct (checked by the parser).
    Fn {
        name: Ident,
        params: Vec<Ident>,
        body: Expr,
    },
    /// `assert cond` or `assert cond, "message"`.
    /// `assert cond, message`: the message (any expression, usually a
    /// string) is evaluated only when the assertion fails.
    Assert { cond: Expr, message: Option<Expr> },
    /// `theorem NAME { … }`
    Theorem { name: Ident, body: Block },
    /// `for VAR in ITER { … }`
    For {
        var: Ident,
        iter: ForIter,
        body: Block,
    },
    /// `print a, b, …` (possibly with no arguments).
    Print(Vec<Expr>),
    /// `use NAME` or `use "path"`.
    Use(UseTarget),
    /// An expression statement, including a statement-level `if`.
    Expr(Expr),
}

/// A clause of a list comprehension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clause {
    /// `for VAR in ITER`
    For { var: Ident, iter: ForIter },
    /// `if COND`: keeps the element when COND is true.
    If(Expr),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForIter {
    /// `a..b` (exclusive) or `a..=b` (inclusive).
    Range {
        from: Expr,
        to: Expr,
        inclusive: bool,
    },
    /// Any other (additive-level) expression; it should evaluate to a list.
    List(Expr),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UseTarget {
    /// `use go`: a standard-library module.
    Module(Ident),
    /// `use "path/file.cgt"`; the span is that of the string literal.
    File { path: String, span: Span },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// `if cond { … } else { … }` ([`ExprKind::If`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IfElse {
    pub cond: Expr,
    pub then_block: Block,
    pub else_block: Option<Block>,
}

/// A call argument: positional (`f(x)`) or named (`f(komaster: black)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal of any size, sign included (`-2` in prefix position).
    Int(BigInt),
    /// `num/den` written as one token (`3/8`, `-3/8`, `1/0`), as
    /// `(num, den)`. (This and the other large, rarer variants are boxed,
    /// so that an `Expr` is 64 bytes and moves cheaply through the
    /// parser; BENCHMARKS.md, issue 21.)
    Frac(Box<(BigInt, BigInt)>),
    Bool(bool),
    /// A string literal, escapes already processed (`"""…"""` is raw).
    Str(String),
    Name(String),
    /// `*` (None), `*3` (Some(Int 3)), `*(expr)`.
    Star(Option<Box<Expr>>),
    /// `count` ups; negative for downs: `^` 1, `⇑` 2, `^3` 3, `v` -1, `vv` -2.
    Ups(BigInt),
    /// `^<n>` (up-nth), or `v<n>` when `down`.
    UpNth {
        n: BigInt,
        down: bool,
    },
    /// `^[n]` (uptimal ↑ + ↑² + … + ↑ⁿ), or `v[n]` when `down`.
    Uptimal {
        n: BigInt,
        down: bool,
    },
    /// `θ` repeated `n` times (`theta` is one): `n` Black ko threats.
    Theta(usize),
    /// `label: { … }`: a labelled node of a ko graph literal. `game` is an
    /// [`ExprKind::Game`].
    Labelled {
        label: Ident,
        game: Box<Expr>,
    },
    /// `{ left | right }` with the slash convention already applied.
    Game {
        left: Vec<Expr>,
        right: Vec<Expr>,
    },
    List(Vec<Expr>),
    /// `[elem for x in xs if cond …]`: a list comprehension; the clauses
    /// nest left to right (the first `for` is the outermost loop).
    Comprehension {
        elem: Box<Expr>,
        clauses: Vec<Clause>,
    },
    /// `name(args)`. Only names can be called.
    Call {
        name: Box<Ident>,
        args: Vec<Arg>,
    },
    /// `base[index]`.
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    /// `not expr`.
    Not(Box<Expr>),
    /// `a + b - c`, `a . b / c`, `a and b and c`, and a juxtaposition such
    /// as `2*` (2 + *): operands joined by left-associative operators of one
    /// precedence level, meaning `((a op₁ b) op₂ c) …`. Kept flat, one node
    /// however long the chain, so that a generated sum of 100 000 terms is
    /// one level deep for the depth limit and every walker of the AST
    /// rather than 100 000 (see [`Expr::chain_prefix_span`]).
    Chain {
        first: Box<Expr>,
        /// At least one link.
        rest: Vec<ChainLink>,
    },
    Compare {
        op: CmpOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `if cond { … } else { … }`; its value is that of the last expression
    /// statement of the block taken.
    If(Box<IfElse>),
    /// A block used as a function body (`fn f(x) = { … }`).
    Block(Block),
    /// `fn(x, y) = body`: an anonymous function. A block body is an
    /// [`ExprKind::Block`]. Parameter names are distinct.
    Lambda {
        params: Vec<Ident>,
        body: Box<Expr>,
    },
    /// `a..b` (exclusive) or `a..=b` (inclusive): the list of integers.
    Range {
        from: Box<Expr>,
        to: Box<Expr>,
        inclusive: bool,
    },
    /// `±{a, b}` / `±(a, b)`: the switch of several options,
    /// `{a, b | -a, -b}` (CGSuite's `+-{…}`).
    PlusMinus(Vec<Expr>),
}

/// An operator of a [`ExprKind::Chain`] and the operand after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainLink {
    pub op: BinOp,
    pub operand: Expr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-G`
    Neg,
    /// `+-G` / `±G`, the switch {G | -G}.
    Switch,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    /// `G . U` / `G · U`: Norton's product G.U; `n . G` with an integer n
    /// on the left is n copies of G. A game that is not an integer on the
    /// left with an integer on the right is refused as ambiguous (the
    /// evaluator's `ambiguous_dot`); two scalars multiply.
    Dot,
    /// `a / b`: division of scalars (written with spaces or non-literal
    /// operands; `3/8` is a [`ExprKind::Frac`]).
    Div,
    Mod,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=` `≠`
    Ne,
    /// `<`
    Lt,
    /// `<=` `≤`
    Le,
    /// `>`
    Gt,
    /// `>=` `≥`
    Ge,
    /// `<>`: confused with (fuzzy).
    Confused,
    /// `<|`: less than or confused with.
    LessOrConfused,
    /// `|>`: greater than or confused with.
    GreaterOrConfused,
    /// `~=` `≈`, or `== … ish`: equal up to an infinitesimal.
    Approx,
    /// `!= … ish`.
    NotApprox,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Dot => ".",
            BinOp::Div => "/",
            BinOp::Mod => "mod",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Confused => "<>",
            CmpOp::LessOrConfused => "<|",
            CmpOp::GreaterOrConfused => "|>",
            CmpOp::Approx => "~=",
            CmpOp::NotApprox => "!~=",
        }
    }
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// The chain `first op₁ a₁ … opₙ aₙ` (at least one link), spanning
    /// from `first` to the last operand.
    pub fn chain(first: Expr, rest: Vec<ChainLink>) -> Expr {
        let end = rest.last().map_or(first.span.end, |l| l.operand.span.end);
        let span = first.span.start..end;
        Expr::new(
            ExprKind::Chain {
                first: Box::new(first),
                rest,
            },
            span,
        )
    }

    /// The two-operand chain `lhs op rhs`.
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::chain(lhs, vec![ChainLink { op, operand: rhs }])
    }

    /// In the chain `self` (`first op₁ a₁ … opₙ aₙ`), the span of the left
    /// part that ends with link `i` (`first … aᵢ₊₁`): the span of the
    /// subexpression `(… (first op₁ a₁) …) opᵢ₊₁ aᵢ₊₁` that a nested reading
    /// would have, the whole chain's span at the last link.
    pub fn chain_prefix_span(&self, first: &Expr, rest: &[ChainLink], i: usize) -> Span {
        if i + 1 == rest.len() {
            self.span.clone()
        } else {
            first.span.start..rest[i].operand.span.end
        }
    }
}
