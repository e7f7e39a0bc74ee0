//! The one registry of builtins. Each builtin is one [`Builtin`] entry —
//! name, positional parameters, named arguments with their defaults, help
//! text, a runnable example and the function — declared beside its
//! function in its module (`builtins.rs`, `play.rs`, `go.rs`, …); each
//! module lists its entries in a `BUILTINS` slice and [`all`] chains them.
//! [`call`] is the one dispatcher: it checks the arity, turns Go positions
//! holding kos into their ko values for the builtins that take kos, and
//! hands the function a [`Call`], whose methods are the one reader of
//! named arguments.

use super::value::Value;
use super::{EvalResult, Interp, Span};
use crate::diag::Diagnostic;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A named argument a builtin takes (`budget: 1000`).
#[derive(Debug)]
pub struct NamedArg {
    pub name: &'static str,
    /// What it takes, such as `black|white` or `N`.
    pub values: &'static str,
    /// The default when left out, in words.
    pub default: &'static str,
}

/// One builtin function.
pub struct Builtin {
    pub name: &'static str,
    /// The positional parameters as shown in the signature (`G, t`;
    /// optional ones in brackets: `S[, player]`).
    pub params: &'static str,
    /// The fewest and most positional arguments.
    pub arity: (usize, usize),
    pub named: &'static [NamedArg],
    /// What it returns (for a Go position: chilled or unchilled).
    pub returns: &'static str,
    pub help: &'static str,
    /// An expression that runs (a test replays every one).
    pub example: &'static str,
    /// A Go position holding a ko passed to it stands for its chilled ko
    /// value (README, "A position used where a game is expected").
    pub takes_kos: bool,
    pub run: fn(&mut Interp, &Call) -> EvalResult<Value>,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<builtin {}>", self.name)
    }
}

impl Builtin {
    /// `name(params, named: values, …)`.
    pub fn signature(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !self.params.is_empty() {
            parts.push(self.params.to_string());
        }
        for n in self.named {
            parts.push(format!("{}: {}", n.name, n.values));
        }
        format!("{}({})", self.name, parts.join(", "))
    }

    /// The whole help: signature and result, description, named arguments
    /// with defaults, example.
    pub fn help_text(&self) -> String {
        let mut out = format!("{} → {}\n  {}", self.signature(), self.returns, self.help);
        if !self.named.is_empty() {
            out.push_str("\nnamed arguments:");
            for n in self.named {
                out.push_str(&format!(
                    "\n  {:<10} {} (default: {})",
                    format!("{}:", n.name),
                    n.values,
                    n.default
                ));
            }
        }
        out.push_str(&format!("\nexample:\n  {}", self.example));
        out
    }

    pub fn takes_named(&self, arg: &str) -> bool {
        self.named.iter().any(|n| n.name == arg)
    }
}

/// `budget: N`, the search nodes (each builtin says its default).
pub const fn budget(default: &'static str) -> NamedArg {
    NamedArg {
        name: "budget",
        values: "N",
        default,
    }
}

/// `rules: japanese|chinese`.
pub const RULES: NamedArg = NamedArg {
    name: "rules",
    values: "japanese|chinese",
    default: "japanese",
};

/// `ko_rule: …`.
pub const KO_RULE: NamedArg = NamedArg {
    name: "ko_rule",
    values: "basic|positional|situational|natural_situational|new_ko_rules|none",
    default: "basic",
};

/// `komaster: black|white`.
pub const KOMASTER: NamedArg = NamedArg {
    name: "komaster",
    values: "black|white",
    default: "none: a short game's own; a ko needs one",
};

/// Every builtin, module by module.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    super::builtins::BUILTINS
        .iter()
        .chain(super::play::BUILTINS)
        .chain(super::go::BUILTINS)
        .chain(super::sgf::BUILTINS)
        .chain(super::ko::BUILTINS)
        .chain(super::kofight::BUILTINS)
        .chain(super::kosolve::BUILTINS)
        .chain(super::analyse::BUILTINS)
        .chain(super::korules::BUILTINS)
        .chain(super::ultimate::BUILTINS)
}

pub fn lookup(name: &str) -> Option<&'static Builtin> {
    static INDEX: OnceLock<HashMap<&'static str, &'static Builtin>> = OnceLock::new();
    INDEX
        .get_or_init(|| all().map(|b| (b.name, b)).collect())
        .get(name)
        .copied()
}

/// The arguments of one call of a builtin.
pub struct Call<'a> {
    pub name: &'static str,
    pub args: Vec<Value>,
    pub spans: &'a [Span],
    /// The whole call.
    pub span: &'a Span,
    /// Named arguments, each one the builtin takes (checked by the caller).
    pub named: Vec<(String, Value, Span)>,
}

impl Call<'_> {
    /// The span of argument `i` (the call's when there is none).
    pub fn sp(&self, i: usize) -> Span {
        self.spans
            .get(i)
            .cloned()
            .unwrap_or_else(|| self.span.clone())
    }

    /// The named argument `key`, with its span.
    pub fn named(&self, key: &str) -> Option<(&Value, &Span)> {
        self.named
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, s)| (v, s))
    }

    /// `budget: N`, or `default`.
    pub fn budget(&self, interp: &mut Interp, default: u64) -> EvalResult<u64> {
        match self.named("budget") {
            Some((v, s)) => budget_arg(interp, v, s),
            None => Ok(default),
        }
    }
}

/// The one dispatcher.
pub fn call(
    interp: &mut Interp,
    b: &'static Builtin,
    args: Vec<Value>,
    named: Vec<(String, Value, Span)>,
    spans: &[Span],
    span: &Span,
) -> EvalResult<Value> {
    let (min, max) = b.arity;
    if !(min..=max).contains(&args.len()) {
        return Err(interp.error_with(
            Diagnostic::error(format!(
                "`{}` takes {}, given {}",
                b.name,
                arguments(min, max),
                args.len()
            ))
            .with_label(span.clone(), "wrong number of arguments")
            .with_note(format!("usage: {}", b.signature()))
            .with_note(format!("example: {}", b.example)),
        ));
    }
    let args = if b.takes_kos {
        interp.ko_views(args, spans, span)?
    } else {
        args
    };
    let c = Call {
        name: b.name,
        args,
        spans,
        span,
        named,
    };
    (b.run)(interp, &c)
}

/// "1 argument", "2 arguments", "1 to 2 arguments".
pub(crate) fn arguments(min: usize, max: usize) -> String {
    let noun = if max == 1 { "argument" } else { "arguments" };
    if max == usize::MAX {
        format!(
            "at least {min} {}",
            if min == 1 { "argument" } else { "arguments" }
        )
    } else if min == max {
        format!("{min} {noun}")
    } else {
        format!("{min} to {max} {noun}")
    }
}

/// A `budget:` named argument: a node count.
pub(crate) fn budget_arg(interp: &mut Interp, v: &Value, span: &Span) -> EvalResult<u64> {
    let n = interp.to_integer(v, span)?;
    u64::try_from(n).map_err(|_| interp.error(span, "the budget must be a non-negative integer"))
}

#[cfg(test)]
mod tests {
    use super::all;
    use crate::eval::{Interp, Mode};
    use crate::render::Style;

    /// Every builtin has a description, what it returns and an example that
    /// calls it; every example runs, and its value is pinned in
    /// `help_examples.txt` (so an example that stops working, or changes
    /// its answer, fails here).
    #[test]
    fn every_builtin_has_help_and_a_running_example() {
        let mut out = String::new();
        let mut names = std::collections::HashSet::new();
        let mut failures = Vec::new();
        for b in all() {
            assert!(names.insert(b.name), "`{}` registered twice", b.name);
            assert!(!b.help.is_empty(), "`{}` has no help", b.name);
            assert!(
                !b.returns.is_empty(),
                "`{}` does not say what it returns",
                b.name
            );
            assert!(
                b.example.contains(&format!("{}(", b.name)),
                "the example of `{}` does not call it: {}",
                b.name,
                b.example
            );
            assert!(b.arity.0 <= b.arity.1, "`{}`", b.name);
            let mut interp = Interp::new(Mode::Script, Style::Ascii);
            let id = interp.add_source("example", b.example, None);
            let shown = match interp.eval_source_expr(id) {
                Ok(v) => interp
                    .display(&v)
                    .unwrap_or_else(|_| panic!("`{}`: cannot print", b.name)),
                Err(e) => {
                    failures.push(format!("`{}`: {} ({e:?})", b.name, b.example));
                    continue;
                }
            };
            out.push_str(&format!(
                "{}\n  = {}\n",
                b.example,
                shown.replace('\n', "\n    ")
            ));
        }
        assert!(
            failures.is_empty(),
            "examples that fail:\n{}",
            failures.join("\n")
        );
        expect_test::expect_file!["help_examples.txt"].assert_eq(&out);
    }

    #[test]
    fn help_shows_signature_named_arguments_and_example() {
        let h = super::lookup("value").unwrap().help_text();
        expect_test::expect![[r#"
            value(Q, rules: japanese|chinese, budget: N, ko_rule: basic|positional|situational|natural_situational|new_ko_rules|none, latent: resolve|keep) → a game, unchilled (or a ko value)
              the unchilled value of a Go position: points as counted on the board (a position used as a game stands for its chilled value instead)
            named arguments:
              rules:     japanese|chinese (default: japanese)
              budget:    N (default: 1 000 000 positions per search)
              ko_rule:   basic|positional|situational|natural_situational|new_ko_rules|none (default: basic)
              latent:    resolve|keep (default: resolve (a latent ko resolved as the rules say))
            example:
              value(go("XXXXX\nX...O\nXXXXX"))"#]]
        .assert_eq(&h);
    }
}
