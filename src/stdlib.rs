//! The standard library: modules written in yose itself, embedded in the binary.
//! Each is also a proof script that `yose check stdlib` replays.

/// `(name, source)` of every module, loaded by `use name`.
pub const MODULES: &[(&str, &str)] = &[
    ("games", include_str!("../stdlib/games.cgt")),
    ("thermo", include_str!("../stdlib/thermo.cgt")),
    ("go", include_str!("../stdlib/go.cgt")),
    ("kos", include_str!("../stdlib/kos.cgt")),
];

pub fn module(name: &str) -> Option<&'static str> {
    MODULES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, src)| *src)
}

/// What the module `name` defines, for `:help MODULE`: each top-level
/// `fn NAME(params)` or `let NAME`, with the comment lines written directly
/// above it. `None` for an unknown module.
pub fn definitions(name: &str) -> Option<Vec<(String, String)>> {
    use crate::syntax::StmtKind;
    let text = module(name)?;
    let program = crate::syntax::parse_program(text).ok()?;
    let mut out = Vec::new();
    for stmt in &program.stmts {
        let signature = match &stmt.kind {
            StmtKind::Fn { name, params, .. } => {
                let ps: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
                format!("{}({})", name.name, ps.join(", "))
            }
            StmtKind::Let { name, .. } => name.name.clone(),
            _ => continue,
        };
        // The comment block right above the statement.
        let mut doc: Vec<&str> = Vec::new();
        for line in text[..stmt.span.start]
            .lines()
            .rev()
            .skip_while(|l| l.trim().is_empty())
        {
            match line.trim().strip_prefix('#') {
                Some(c) => doc.push(c.trim()),
                None => break,
            }
        }
        doc.reverse();
        out.push((signature, doc.join(" ")));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_module_says_what_it_defines() {
        for (name, _) in super::MODULES {
            let defs = super::definitions(name).unwrap();
            assert!(!defs.is_empty(), "{name} defines nothing");
        }
        let games = super::definitions("games").unwrap();
        let chain = games.iter().find(|(s, _)| s == "star_chain(n)").unwrap();
        assert!(
            chain.1.starts_with("Corridor-like infinitesimals"),
            "{}",
            chain.1
        );
        assert!(super::definitions("nosuch").is_none());
    }
}
