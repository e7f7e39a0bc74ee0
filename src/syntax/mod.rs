//! Source text -> AST with byte spans. Placeholder until the parser lands.
