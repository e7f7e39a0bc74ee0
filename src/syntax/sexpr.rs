//! A compact S-expression dump of the AST, for tests and `--dump-ast` style
//! debugging. Not a pretty printer for users: see `render` for that.
//!
//! `{5||4,{5|4}|3}` dumps as
//! `(game (left 5) (right (game (left 4 (game (left 5) (right 4))) (right 3))))`.

use super::ast::*;
use std::fmt::Write as _;

/// One line per top-level statement.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    for s in &p.stmts {
        let mut line = String::new();
        stmt(&mut line, s, false);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Like [`program`], but every statement and expression is followed by
/// `@start..end`.
pub fn program_with_spans(p: &Program) -> String {
    let mut out = String::new();
    for s in &p.stmts {
        stmt(&mut out, s, true);
        out.push('\n');
    }
    out
}

pub fn expr_to_string(e: &Expr) -> String {
    let mut out = String::new();
    expr(&mut out, e, false);
    out
}

fn span(out: &mut String, sp: &Span, on: bool) {
    if on {
        let _ = write!(out, "@{}..{}", sp.start, sp.end);
    }
}

fn ident(out: &mut String, id: &Ident, spans: bool) {
    out.push_str(&id.name);
    span(out, &id.span, spans);
}

fn block(out: &mut String, b: &Block, spans: bool) {
    out.push_str("(block");
    for s in &b.stmts {
        out.push(' ');
        stmt(out, s, spans);
    }
    out.push(')');
    span(out, &b.span, spans);
}

fn stmt(out: &mut String, s: &Stmt, spans: bool) {
    match &s.kind {
        StmtKind::Expr(e) => {
            expr(out, e, spans);
            return;
        }
        StmtKind::Let { name, value }
        | StmtKind::Region { name, value }
        | StmtKind::Go { name, value } => {
            let kw = match s.kind {
                StmtKind::Let { .. } => "let",
                StmtKind::Go { .. } => "go",
                _ => "region",
            };
            let _ = write!(out, "({kw} ");
            ident(out, name, spans);
            out.push(' ');
            expr(out, value, spans);
        }
        StmtKind::Fn { name, params, body } => {
            out.push_str("(fn ");
            ident(out, name, spans);
            out.push_str(" (");
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                ident(out, p, spans);
            }
            out.push_str(") ");
            expr(out, body, spans);
        }
        StmtKind::Assert { cond, message } => {
            out.push_str("(assert ");
            expr(out, cond, spans);
            if let Some(m) = message {
                out.push(' ');
                expr(out, m, spans);
            }
        }
        StmtKind::Theorem { name, body } => {
            out.push_str("(theorem ");
            ident(out, name, spans);
            out.push(' ');
            block(out, body, spans);
        }
        StmtKind::For { var, iter, body } => {
            out.push_str("(for ");
            ident(out, var, spans);
            out.push(' ');
            for_iter(out, iter, spans);
            out.push(' ');
            block(out, body, spans);
        }
        StmtKind::Print(args) => {
            out.push_str("(print");
            for a in args {
                out.push(' ');
                expr(out, a, spans);
            }
        }
        StmtKind::Use(UseTarget::Module(m)) => {
            out.push_str("(use ");
            ident(out, m, spans);
        }
        StmtKind::Use(UseTarget::File { path, .. }) => {
            let _ = write!(out, "(use {path:?}");
        }
    }
    out.push(')');
    span(out, &s.span, spans);
}

fn list(out: &mut String, head: &str, items: &[Expr], spans: bool) {
    out.push('(');
    out.push_str(head);
    for e in items {
        out.push(' ');
        expr(out, e, spans);
    }
    out.push(')');
}

fn expr(out: &mut String, e: &Expr, spans: bool) {
    match &e.kind {
        ExprKind::Int(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Frac(f) => {
            let (n, d) = &**f;
            let _ = write!(out, "{n}/{d}");
        }
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Star(None) => out.push('*'),
        ExprKind::Star(Some(n)) => {
            out.push_str("(* ");
            expr(out, n, spans);
            out.push(')');
        }
        ExprKind::Ups(n) => {
            let _ = write!(out, "(ups {n})");
        }
        ExprKind::UpNth { n, down } => {
            let head = if *down { "down-nth" } else { "up-nth" };
            let _ = write!(out, "({head} {n})");
        }
        ExprKind::Uptimal { n, down } => {
            let head = if *down { "downtimal" } else { "uptimal" };
            let _ = write!(out, "({head} {n})");
        }
        ExprKind::Theta(n) => {
            let _ = write!(out, "(theta {n})");
        }
        ExprKind::Labelled { label, game } => {
            out.push_str("(label ");
            ident(out, label, spans);
            out.push(' ');
            expr(out, game, spans);
            out.push(')');
        }
        ExprKind::Game { left, right } => {
            out.push_str("(game ");
            list(out, "left", left, spans);
            out.push(' ');
            list(out, "right", right, spans);
            out.push(')');
        }
        ExprKind::List(items) => list(out, "list", items, spans),
        ExprKind::Call { name, args } => {
            out.push_str("(call ");
            ident(out, name, spans);
            for a in args {
                out.push(' ');
                match &a.name {
                    Some(n) => {
                        out.push_str("(named ");
                        ident(out, n, spans);
                        out.push(' ');
                        expr(out, &a.value, spans);
                        out.push(')');
                    }
                    None => expr(out, &a.value, spans),
                }
            }
            out.push(')');
        }
        ExprKind::Index { base, index } => {
            out.push_str("(index ");
            expr(out, base, spans);
            out.push(' ');
            expr(out, index, spans);
            out.push(')');
        }
        ExprKind::Unary { op, expr: inner } => {
            out.push_str(match op {
                UnaryOp::Neg => "(neg ",
                UnaryOp::Switch => "(switch ",
            });
            expr(out, inner, spans);
            out.push(')');
        }
        ExprKind::Not(inner) => {
            out.push_str("(not ");
            expr(out, inner, spans);
            out.push(')');
        }
        // Written as the nested binary operations it means, `(- (+ a b) c)`,
        // with the span of each (a loop, not a recursion, over the links).
        ExprKind::Chain { first, rest } => {
            for link in rest.iter().rev() {
                let _ = write!(out, "({} ", link.op.symbol());
            }
            expr(out, first, spans);
            for (i, link) in rest.iter().enumerate() {
                out.push(' ');
                expr(out, &link.operand, spans);
                out.push(')');
                if i + 1 < rest.len() {
                    span(out, &e.chain_prefix_span(first, rest, i), spans);
                }
            }
        }
        ExprKind::Compare { op, lhs, rhs } => {
            let _ = write!(out, "({} ", op.symbol());
            expr(out, lhs, spans);
            out.push(' ');
            expr(out, rhs, spans);
            out.push(')');
        }
        ExprKind::If(branch) => {
            let IfElse {
                cond,
                then_block,
                else_block,
            } = &**branch;
            out.push_str("(if ");
            expr(out, cond, spans);
            out.push(' ');
            block(out, then_block, spans);
            if let Some(b) = else_block {
                out.push(' ');
                block(out, b, spans);
            }
            out.push(')');
        }
        ExprKind::Block(b) => block(out, b, spans),
        ExprKind::Comprehension { elem, clauses } => {
            out.push_str("(comprehension ");
            expr(out, elem, spans);
            for c in clauses {
                match c {
                    Clause::For { var, iter } => {
                        out.push_str(" (for ");
                        ident(out, var, spans);
                        out.push(' ');
                        for_iter(out, iter, spans);
                        out.push(')');
                    }
                    Clause::If(cond) => {
                        out.push_str(" (if ");
                        expr(out, cond, spans);
                        out.push(')');
                    }
                }
            }
            out.push(')');
        }
        ExprKind::Lambda { params, body } => {
            out.push_str("(lambda (");
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                ident(out, p, spans);
            }
            out.push_str(") ");
            expr(out, body, spans);
            out.push(')');
        }
        ExprKind::Range {
            from,
            to,
            inclusive,
        } => {
            out.push_str(if *inclusive {
                "(range..= "
            } else {
                "(range.. "
            });
            expr(out, from, spans);
            out.push(' ');
            expr(out, to, spans);
            out.push(')');
        }
        ExprKind::PlusMinus(items) => list(out, "switch-of", items, spans),
    }
    span(out, &e.span, spans);
}

fn for_iter(out: &mut String, iter: &ForIter, spans: bool) {
    match iter {
        ForIter::Range {
            from,
            to,
            inclusive,
        } => {
            out.push_str(if *inclusive { "(range= " } else { "(range " });
            expr(out, from, spans);
            out.push(' ');
            expr(out, to, spans);
            out.push(')');
        }
        ForIter::List(e) => {
            out.push_str("(in ");
            expr(out, e, spans);
            out.push(')');
        }
    }
}
