//! Pictures of a whole board: an SVG drawing and a text version.
//!
//! A [`BoardPicture`] is what an analysis wants to show: the board, its
//! regions (shaded, each with a caption such as its value), the stones taken
//! as safe or dead, and a line of play numbered on the stones the way Go
//! books print a solution (a move on a point already numbered is listed
//! under the board: "7 at 3"). The drawing knows nothing of how the regions
//! were found.

use crate::go::{Cell, Colour, Position};
use std::fmt::Write;

/// A region to shade: its points and a caption.
pub struct Shade {
    pub points: Vec<usize>,
    pub caption: String,
}

/// What to draw (see the module docs).
pub struct BoardPicture<'a> {
    pub board: &'a Position,
    pub regions: Vec<Shade>,
    pub safe: Vec<usize>,
    pub dead: Vec<usize>,
    /// The line: who played where, numbered from 1 in order.
    pub line: Vec<(Colour, usize)>,
    pub title: String,
}

/// Fill colours of the regions, light enough for stones and numbers to read
/// on them; they repeat after eight regions.
const FILLS: [&str; 8] = [
    "#f4a582", "#92c5de", "#b8e186", "#fdb863", "#c2a5cf", "#80cdc1", "#f1b6da", "#dfc27d",
];

/// The letter of region `i` in the text version: `A`…`Z`, then `a`…`z`.
fn region_letter(i: usize) -> char {
    // No X, O or the move digits: they are stones and numbers.
    let letters = b"ABCDEFGHJKLMNPQRSTUVWYZabcdefghjkmnpqrstuvwyz";
    letters[i % letters.len()] as char
}

/// A caption cut to about `max` characters (a ko graph can be long).
fn short(caption: &str, max: usize) -> String {
    if caption.chars().count() <= max {
        return caption.to_string();
    }
    let cut: String = caption.chars().take(max).collect();
    format!("{cut}…")
}

/// The number shown on each point (the first move there) and the moves on
/// points already numbered ("7 at 3").
fn numbering(p: &BoardPicture) -> (Vec<Option<(usize, Colour)>>, Vec<String>) {
    let mut on_point: Vec<Option<(usize, Colour)>> = vec![None; p.board.cells_len()];
    let mut later = Vec::new();
    for (i, &(colour, point)) in p.line.iter().enumerate() {
        match on_point[point] {
            None => on_point[point] = Some((i + 1, colour)),
            Some((first, _)) => later.push(format!("{} at {}", i + 1, first)),
        }
    }
    (on_point, later)
}

/// The SVG drawing.
pub fn board_svg(p: &BoardPicture) -> String {
    let board = p.board;
    let (w, h) = (board.width(), board.height());
    let cell = 32.0_f64;
    let margin = 36.0_f64;
    let legend_lines = p.regions.len() + 2;
    let width = margin * 2.0 + cell * (w.max(1) - 1) as f64 + 220.0;
    let height = margin * 2.0 + cell * (h.max(1) - 1) as f64 + 18.0 * legend_lines as f64 + 24.0;
    let x = |c: usize| margin + cell * c as f64;
    let y = |r: usize| margin + 18.0 + cell * r as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#e3c16f"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="{margin}" y="20" font-size="14">{}</text>"#,
        escape(&p.title)
    );
    // Region shading under the grid.
    for (i, region) in p.regions.iter().enumerate() {
        let fill = FILLS[i % FILLS.len()];
        for &pt in &region.points {
            let (r, c) = board.coords(pt);
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{cell}" height="{cell}" fill="{fill}" fill-opacity="0.7"/>"#,
                x(c) - cell / 2.0,
                y(r) - cell / 2.0
            );
        }
    }
    // Grid and coordinates.
    for c in 0..w {
        let _ = writeln!(
            s,
            r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="black"/>"#,
            x(c),
            y(0),
            y(h - 1)
        );
        let letter = crate::go::column_letter(c);
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{letter}</text>"#,
            x(c),
            y(h - 1) + cell * 0.85
        );
    }
    for r in 0..h {
        let _ = writeln!(
            s,
            r#"<line x1="{1:.1}" y1="{0:.1}" x2="{2:.1}" y2="{0:.1}" stroke="black"/>"#,
            y(r),
            x(0),
            x(w - 1)
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"#,
            x(0) - cell * 0.6,
            y(r) + 4.0,
            h - r
        );
    }
    // Stones, marks and move numbers.
    let (numbers, later) = numbering(p);
    let stone = |s: &mut String, pt: usize, colour: Colour| {
        let (r, c) = board.coords(pt);
        let (fill, stroke) = match colour {
            Colour::Black => ("black", "black"),
            Colour::White => ("white", "black"),
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" stroke="{stroke}"/>"#,
            x(c),
            y(r),
            cell * 0.46
        );
    };
    let ink = |colour: Colour| match colour {
        Colour::Black => "white",
        Colour::White => "black",
    };
    for pt in 0..board.cells_len() {
        let (r, c) = board.coords(pt);
        if let Cell::Stone(colour) = board.cell(pt) {
            stone(&mut s, pt, colour);
            if p.safe.contains(&pt) {
                let d = cell * 0.14;
                let _ = writeln!(
                    s,
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="{}"/>"#,
                    x(c) - d,
                    y(r) - d,
                    2.0 * d,
                    2.0 * d,
                    ink(colour)
                );
            }
            if p.dead.contains(&pt) {
                let d = cell * 0.2;
                let _ = writeln!(
                    s,
                    r#"<path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="red" stroke-width="2"/>"#,
                    x(c) - d,
                    y(r) - d,
                    x(c) + d,
                    y(r) + d,
                    x(c) - d,
                    y(r) + d,
                    x(c) + d,
                    y(r) - d
                );
            }
        }
        if numbers[pt].is_none() && board.cell(pt) == Cell::Empty {
            // The region's letter, which the legend explains (colours repeat).
            if let Some(i) = p.regions.iter().position(|r| r.points.contains(&pt)) {
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#333">{}</text>"##,
                    x(c),
                    y(r) + 4.0,
                    region_letter(i)
                );
            }
        }
        if let Some((n, colour)) = numbers[pt] {
            if board.cell(pt) == Cell::Empty {
                stone(&mut s, pt, colour);
            }
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="{}">{n}</text>"#,
                x(c),
                y(r) + 4.5,
                ink(colour)
            );
        }
    }
    // The legend: each region's caption, then the moves on numbered points.
    // A region whose letter is nowhere on the board (its empty points all
    // numbered) is named by its points, as in the text version.
    let mut ly = y(h - 1) + cell * 1.5;
    for (i, region) in p.regions.iter().enumerate() {
        let fill = FILLS[i % FILLS.len()];
        let lettered = region
            .points
            .iter()
            .any(|&pt| numbers[pt].is_none() && board.cell(pt) == Cell::Empty);
        let at = if lettered {
            String::new()
        } else {
            let names: Vec<String> = region.points.iter().map(|&q| board.point_name(q)).collect();
            format!(" ({})", names.join(" "))
        };
        let _ = writeln!(
            s,
            r#"<rect x="{margin}" y="{:.1}" width="12" height="12" fill="{fill}"/><text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
            ly - 10.0,
            margin + 18.0,
            ly,
            escape(&format!(
                "{}{at}: {}",
                region_letter(i),
                short(&region.caption, 90)
            ))
        );
        ly += 18.0;
    }
    if !later.is_empty() {
        let _ = writeln!(
            s,
            r#"<text x="{margin}" y="{ly:.1}" font-size="12">{}</text>"#,
            escape(&later.join(", "))
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The text version: the board with each region's empty points shown by
/// its letter, the line's first moves by their numbers (up to 9), then the
/// legend (a region whose letter is nowhere on the board, its points all
/// numbered, is given with its points: `B (D3): …`).
pub fn board_text(p: &BoardPicture) -> String {
    let board = p.board;
    let (w, h) = (board.width(), board.height());
    let mut region_of = vec![None; board.cells_len()];
    for (i, region) in p.regions.iter().enumerate() {
        for &pt in &region.points {
            region_of[pt] = Some(i);
        }
    }
    let (numbers, later) = numbering(p);
    let header: String = (0..w)
        .map(|c| format!(" {}", crate::go::column_letter(c)))
        .collect();
    let mut out = format!("   {}\n", header.trim_start());
    // Whether each region's letter is on the board: a region whose points
    // all show numbers names them in the legend instead.
    let mut lettered = vec![false; p.regions.len()];
    for r in 0..h {
        let mut row = format!("{:>2}", h - r);
        for c in 0..w {
            let pt = r * w + c;
            let ch = match (numbers[pt], board.cell(pt)) {
                (Some((n, _)), _) if n <= 9 => char::from_digit(n as u32, 10).unwrap_or('?'),
                (_, Cell::Stone(Colour::Black)) if p.dead.contains(&pt) => 'x',
                (_, Cell::Stone(Colour::White)) if p.dead.contains(&pt) => 'o',
                (_, Cell::Stone(Colour::Black)) => 'X',
                (_, Cell::Stone(Colour::White)) => 'O',
                (_, Cell::Empty) => match region_of[pt] {
                    Some(i) => {
                        lettered[i] = true;
                        region_letter(i)
                    }
                    None => '.',
                },
            };
            row.push(' ');
            row.push(ch);
        }
        let _ = writeln!(out, "{row} {}", h - r);
    }
    let _ = writeln!(out, "   {}", header.trim_start());
    for (i, region) in p.regions.iter().enumerate() {
        let at = if lettered[i] {
            String::new()
        } else {
            let names: Vec<String> = region.points.iter().map(|&q| board.point_name(q)).collect();
            format!(" ({})", names.join(" "))
        };
        let _ = writeln!(
            out,
            "{}{at}: {}",
            region_letter(i),
            short(&region.caption, 90)
        );
    }
    if !p.dead.is_empty() {
        // Lowercase on the board; named here so that they are not read as
        // stones of a region.
        let names: Vec<String> = p.dead.iter().map(|&q| board.point_name(q)).collect();
        let _ = writeln!(out, "dead (x, o; taken as prisoners): {}", names.join(" "));
    }
    if p.line.iter().enumerate().any(|(i, _)| i >= 9) || !later.is_empty() {
        let moves: Vec<String> = p
            .line
            .iter()
            .enumerate()
            .map(|(i, &(colour, pt))| format!("{}. {}", i + 1, board.move_name_at(colour, pt)))
            .collect();
        let _ = writeln!(out, "line: {}", moves.join(", "));
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(board: &Position) -> BoardPicture<'_> {
        BoardPicture {
            board,
            regions: vec![
                Shade {
                    points: vec![board.index(0, 0).unwrap(), board.index(1, 0).unwrap()],
                    caption: "{1|0}".into(),
                },
                Shade {
                    points: vec![board.index(0, 3).unwrap()],
                    caption: "* <&>".into(),
                },
            ],
            safe: vec![board.index(0, 1).unwrap()],
            dead: vec![board.index(1, 3).unwrap()],
            line: vec![
                (Colour::Black, board.index(0, 0).unwrap()),
                (Colour::White, board.index(0, 3).unwrap()),
                (Colour::Black, board.index(0, 0).unwrap()),
            ],
            title: "test".into(),
        }
    }

    #[test]
    fn the_text_version_shows_regions_marks_and_numbers() {
        let board = Position::parse(". X O .\n. X O o\nX X O O")
            .unwrap()
            .with_origin(crate::go::Origin::board(4, 3));
        let text = board_text(&picture(&board));
        expect_test::expect![[r#"
               A B C D
             3 1 X O 2 3
             2 A X O o 2
             1 X X O O 1
               A B C D
            A: {1|0}
            B (D3): * <&>
            dead (x, o; taken as prisoners): D2
            line: 1. B A3, 2. W D3, 3. B A3
        "#]]
        .assert_eq(&text);
    }

    #[test]
    fn the_svg_is_well_formed_and_escapes_captions() {
        let board = Position::parse(". X O .\n. X O o\nX X O O")
            .unwrap()
            .with_origin(crate::go::Origin::board(4, 3));
        let svg = board_svg(&picture(&board));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        // Region B's one point is numbered, so its letter is nowhere on the
        // board: the legend names its point (A's letter is on A2).
        assert!(svg.contains(">B (D3): * &lt;&amp;&gt;<"), "{svg}");
        assert!(svg.contains(">A: {1|0}<"), "{svg}");
        assert!(!svg.contains("<&>"));
        // Three stones for the numbered moves on empty points (the third move
        // is on a numbered point: listed, not drawn), plus the board's nine.
        assert_eq!(svg.matches("<circle").count(), 9 + 2);
        assert!(svg.contains("3 at 1"));
        // One shaded square per region point.
        assert_eq!(svg.matches("fill-opacity").count(), 3);
    }
}
