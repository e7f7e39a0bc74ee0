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
