//! Diagrams of the corridor families shared by the Go bench and the Go unit
//! tests (`src/go/tests.rs` includes this file by path), so both measure and
//! check the same shapes.

/// Sensei's Library's closed corridor of length `n` ("Corridors",
/// senseis.xmp.net/?Corridors): `n` empty points in a row, Black walls on
/// both sides and at the far end, White's stone at the mouth.
pub fn closed_corridor(n: usize) -> String {
    let wall = "X".repeat(n + 2);
    format!("{wall}\nX{}O\n{wall}", ".".repeat(n))
}

/// A corridor of length `n` whose far end forks into two points: a stem of
/// `n - 1` points from White's stone to the junction, and the points on both
/// sides of the junction. Sensei's Library's corridor trees ("Corridor
/// Infinitesimals"): Black's block scores `n + 1`, White's push leaves the
/// corridor one shorter, and the shortest is `{2 | 0}`.
pub fn forked_corridor(n: usize) -> String {
    let mut rows = vec!["XXXXX".to_string(), "X...X".to_string()];
    for _ in 1..n {
        rows.push("XX.XX".to_string());
    }
    rows.push("XXOXX".to_string());
    rows.join("\n")
}
