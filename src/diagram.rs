//! Board diagrams as SVG, for articles and notes: the board as the first side sees it, coordinates
//! or square numbers as the variant's notation writes them, the last move drawn as an arrow over
//! its shaded squares, the pieces it captured shown faded and crossed out, and a caption naming the
//! side to move.
//!
//! Pieces are discs in their side's colour ([`side_colour`]); the first kind of piece is plain
//! (with an inner ring, like a draughts man), the second carries a crown, the third two crowns, and
//! any further kind its letter. The output is plain text, deterministic (snapshots compare it).

use crate::engine::geometry::{BitIter, Sq};
use crate::engine::BitSet;
use crate::engine::{Move, Position, Rules};
use crate::spec::{Notation, SquareSet};
use std::fmt::Write;

mod layout;
pub use layout::{Form, Layout, HEX_R, SQ};

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Relative luminance (WCAG 2), 0 for black to 1 for white.
    pub fn luminance(self) -> f64 {
        let lin = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.0) + 0.7152 * lin(self.1) + 0.0722 * lin(self.2)
    }

    /// Contrast ratio (WCAG 2) between two colours, 1 to 21.
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// Colour words a side may be named by, and the colour drawn for them.
const NAMED: &[(&str, Rgb)] = &[
    ("white", Rgb(0xfa, 0xfa, 0xf5)),
    ("black", Rgb(0x26, 0x26, 0x26)),
    ("red", Rgb(0xc8, 0x10, 0x2e)),
    ("green", Rgb(0x1e, 0x80, 0x3c)),
    ("blue", Rgb(0x1f, 0x4e, 0xb4)),
    ("yellow", Rgb(0xf2, 0xc6, 0x1f)),
    ("brown", Rgb(0x7a, 0x4a, 0x22)),
];

/// The colour a side is drawn in: its name when the name is a colour word (`red`), otherwise white
/// for the first side and black for the second.
pub fn side_colour(rules: &Rules, side: usize) -> Rgb {
    let name = rules.spec.sides[side.min(1)].name.to_ascii_lowercase();
    NAMED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
        .unwrap_or(if side == 0 { NAMED[0].1 } else { NAMED[1].1 })
}

/// What to draw besides the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks<'a> {
    /// The last move and the position it was played from (for the captured pieces).
    pub last: Option<(&'a Position, &'a Move)>,
    /// Seen from the second side: its home rank at the bottom, the files right to left.
    pub flipped: bool,
}

const LIGHT: &str = "#f0dfbf";
const DARK: &str = "#b5875a";
/// The second shade of an all-squares board (every square playable, pieces on both shades).
const ALL_LIGHT: &str = "#ead3a8";
const ALL_DARK: &str = "#c89b6a";
const FRAME: &str = "#4a3520";
const MARK: &str = "#f5d547";
const ARROW: &str = "#1d5fbf";
const CROSS: &str = "#c0141c";

/// The board of a diagram: squares, or the cells of a hexagon, or the lines and points of a
/// board of points; `(left, top)` is its top-left corner.
fn board(s: &mut String, rules: &Rules, layout: &Layout, form: Form, (left, top): (f64, f64)) {
    let geo = &rules.geo;
    let hexagon = form == Form::Hexagon;
    let lines_only = form != Form::Squares;
    let (board_w, board_h) = (layout.width, layout.height);
    let corner_at = |c: (u8, u8)| layout.corner_at(c);
    let centre = |sq: Sq| layout.centre(sq);
    s.push_str("<g id=\"board\">\n");
    let all = rules.spec.board.squares == SquareSet::All;
    if hexagon {
        for sq in BitIter(geo.playable) {
            let corners: Vec<String> = layout
                .hexagon(sq)
                .iter()
                .map(|(x, y)| format!("{},{}", round(*x), round(*y)))
                .collect();
            let (f, r) = geo.coord(sq);
            // Three shades, so that no two neighbouring cells look alike.
            let fill = [ALL_LIGHT, ALL_DARK, DARK][(f as usize + r as usize) % 3];
            let _ = writeln!(
                s,
                r#"<polygon points="{}" fill="{fill}" stroke="{FRAME}" stroke-width="1"/>"#,
                corners.join(" ")
            );
        }
    } else if lines_only {
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{top}" width="{board_w}" height="{board_h}" fill="{ALL_LIGHT}"/>"#
        );
        for (a, b) in layout.lines() {
            let ((x0, y0), (x1, y1)) = (centre(a), centre(b));
            let _ = writeln!(
                s,
                r#"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{FRAME}" stroke-width="2"/>"#
            );
        }
        for sq in BitIter(geo.playable) {
            let (x, y) = centre(sq);
            if rules.spec.board.is_corner(geo.coord(sq)) {
                let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="4" fill="{FRAME}"/>"#);
            } else {
                // A centre of a grid of corners and centres: a ring where the diagonals cross.
                let _ = writeln!(
                    s,
                    r#"<circle cx="{x}" cy="{y}" r="4" fill="{ALL_LIGHT}" stroke="{FRAME}" stroke-width="2"/>"#
                );
            }
        }
    }
    for r in 0..geo.height {
        if lines_only {
            break;
        }
        for f in 0..geo.width {
            // A dark-squares board indexes only its playable squares: the others are light.
            let sq = geo.square((f, r));
            let (x, y) = corner_at((f, r));
            // a1 is dark on every board but those whose a1 is light.
            let dark_a1 = rules.spec.board.squares != SquareSet::DarkA1Light;
            let dark = ((f + r) % 2 == 0) == dark_a1;
            let fill = match (all, dark) {
                (true, true) => ALL_DARK,
                (true, false) => ALL_LIGHT,
                (false, _) if sq.is_some_and(|sq| geo.is_playable(sq)) => DARK,
                (false, _) => LIGHT,
            };
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#
            );
        }
    }
    s.push_str("</g>\n");
}

/// The last move's route as an arrow, its head at the moved piece's edge.
fn arrow(s: &mut String, layout: &Layout, m: &Move) {
    let centre = |sq: Sq| layout.centre(sq);
    let mut points = vec![centre(m.from)];
    points.extend(m.route().iter().map(|&sq| centre(sq)));
    // End the line at the moved piece's edge, so the head points at the piece and hides
    // none of it.
    if let (Some(&(x1, y1)), Some(&(x0, y0))) =
        (points.last(), points.get(points.len().wrapping_sub(2)))
    {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let back = SQ * 0.38 + 9.0;
        let n = points.len();
        points[n - 1] = (x1 - dx / len * back, y1 - dy / len * back);
    }
    let list: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{},{}", round(*x), round(*y)))
        .collect();
    let _ = writeln!(
        s,
        r#"<polyline id="arrow" points="{}" fill="none" stroke="{ARROW}" stroke-width="4.5" stroke-opacity="0.85" stroke-linejoin="round" stroke-linecap="round" marker-end="url(#head)"/>"#,
        list.join(" ")
    );
}

/// Square numbers (numbered notation), small, in each playable square's top-left corner; a
/// hexagon names each cell inside it, above its centre, in either notation.
fn numbers(s: &mut String, rules: &Rules, layout: &Layout, hexagon: bool) {
    let geo = &rules.geo;
    let algebraic = geo.notation == Notation::Algebraic;
    let corner = |sq: Sq| layout.corner(sq);
    let centre = |sq: Sq| layout.centre(sq);
    if hexagon {
        s.push_str("<g id=\"numbers\" font-size=\"9\" fill=\"#333\" text-anchor=\"middle\">\n");
        for &sq in &geo.numbered {
            let (x, y) = centre(sq);
            let _ = writeln!(
                s,
                r#"<text x="{x}" y="{}">{}</text>"#,
                round(y - SQ * 0.3),
                geo.name(sq)
            );
        }
        s.push_str("</g>\n");
    } else if !algebraic {
        s.push_str("<g id=\"numbers\" font-size=\"10\" fill=\"#fff3dc\">\n");
        for &sq in &geo.numbered {
            let (x, y) = corner(sq);
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                x + 2.5,
                y + 10.5,
                geo.number[sq as usize]
            );
        }
        s.push_str("</g>\n");
    }
}

/// The caption under the board at `(left, cy)`: the side to move, the last move.
fn draw_caption(
    s: &mut String,
    rules: &Rules,
    pos: &Position,
    marks: Marks,
    (left, cy): (f64, f64),
) {
    let spec = &rules.spec;
    let mut text = format!("{} to move", capitalise(&spec.sides[pos.turn()].name));
    if let Some((_, m)) = marks.last {
        let _ = write!(
            text,
            " · last move {}",
            crate::notation::move_to_string(rules, m)
        );
    }
    let mover = side_colour(rules, pos.turn());
    let _ = writeln!(
        s,
        r##"<circle cx="{}" cy="{}" r="7" fill="{}" stroke="#222" stroke-width="1.2"/>"##,
        left + 7.0,
        cy - 4.5,
        mover.hex()
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{cy}" font-size="14" fill="#222">{}</text>"##,
        left + 20.0,
        esc(&text)
    );
}

/// The SVG text of a diagram of `pos`.
pub fn svg(rules: &Rules, pos: &Position, marks: Marks) -> String {
    let geo = &rules.geo;
    let form = Layout::new(rules, 0.0, 0.0, false).form;
    let hexagon = form == Form::Hexagon;
    let lines_only = form != Form::Squares;
    let (w, h) = (geo.width as f64, geo.height as f64);
    let algebraic = geo.notation == Notation::Algebraic;
    // Room for rank numbers on the left and file letters below (algebraic), a caption below. A
    // hexagon names its cells inside them.
    let coordinates = algebraic && !hexagon;
    let left = if coordinates { 22.0 } else { 8.0 };
    let top = 8.0;
    let below = if coordinates { 22.0 } else { 8.0 };
    let caption = 26.0;
    let layout = Layout::new(rules, left, top, marks.flipped);
    let (board_w, board_h) = (layout.width, layout.height);
    let width = round(left + board_w + 8.0);
    let height = round(top + board_h + below + caption);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        "<title>{}: {}</title>",
        esc(&rules.spec.title),
        esc(&crate::notation::to_fen(rules, pos))
    );
    s.push_str(&defs());
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#
    );
    let corner = |sq: Sq| layout.corner(sq);
    let centre = |sq: Sq| layout.centre(sq);
    let (column, row) = (|f: u8| layout.column(f), |r: u8| layout.row(r));

    board(&mut s, rules, &layout, form, (left, top));

    // The last move's squares.
    if let Some((_, m)) = marks.last {
        s.push_str("<g id=\"last-move\" fill=\"");
        s.push_str(MARK);
        s.push_str("\" fill-opacity=\"0.6\">\n");
        for &sq in std::iter::once(&m.from).chain(m.route()) {
            if lines_only {
                let (x, y) = centre(sq);
                let r = SQ * 0.46;
                let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="{r}"/>"#);
                continue;
            }
            let (x, y) = corner(sq);
            let _ = writeln!(s, r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}"/>"#);
        }
        s.push_str("</g>\n");
    }

    numbers(&mut s, rules, &layout, hexagon);

    // Frame.
    if !lines_only {
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="{FRAME}" stroke-width="2"/>"#,
            w * SQ,
            h * SQ
        );
    }

    // Coordinates (algebraic): rank numbers on the left, file letters below.
    if coordinates {
        s.push_str(
            "<g id=\"coordinates\" font-size=\"13\" fill=\"#333\" text-anchor=\"middle\">\n",
        );
        for r in 0..geo.height {
            let y = top + row(r) * SQ + SQ / 2.0 + 4.5;
            let _ = writeln!(s, r#"<text x="{}" y="{y}">{}</text>"#, left / 2.0, r + 1);
        }
        for f in 0..geo.width {
            let x = left + column(f) * SQ + SQ / 2.0;
            let _ = writeln!(
                s,
                r#"<text x="{x}" y="{}">{}</text>"#,
                top + board_h + 16.0,
                (b'a' + f) as char
            );
        }
        s.push_str("</g>\n");
    }

    // Pieces, then the captured ones faded and crossed out.
    s.push_str("<g id=\"pieces\">\n");
    for side in 0..2 {
        for (sq, kind) in pos.pieces(side) {
            let (cx, cy) = centre(sq);
            s.push_str(&piece(rules, side, kind, cx, cy, sq, 1.0));
        }
    }
    s.push_str("</g>\n");
    if let Some((before, m)) = marks.last {
        if m.captured.any() {
            s.push_str("<g id=\"captured\">\n");
            for sq in BitIter(m.captured) {
                let (cx, cy) = centre(sq);
                if let Some((side, kind)) = before.at(sq) {
                    s.push_str(&piece(rules, side, kind, cx, cy, sq, 0.35));
                }
                let d = SQ * 0.22;
                let _ = writeln!(
                    s,
                    r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{CROSS}" stroke-width="4" stroke-linecap="round"/>"#,
                    cx - d,
                    cy - d,
                    cx + d,
                    cy + d,
                    cx + d,
                    cy - d,
                    cx - d,
                    cy + d
                );
            }
            s.push_str("</g>\n");
        }
    }

    if let Some((_, m)) = marks.last {
        arrow(&mut s, &layout, m);
    }

    draw_caption(
        &mut s,
        rules,
        pos,
        marks,
        (left, top + board_h + below + 17.0),
    );
    s.push_str("</svg>\n");
    s
}

/// The arrow head and the crown shape.
fn defs() -> String {
    format!(
        "<defs>\n\
         <marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"3\" refY=\"5\" markerWidth=\"3.2\" markerHeight=\"3.2\" orient=\"auto\">\
         <path d=\"M0 0L10 5L0 10z\" fill=\"{ARROW}\"/></marker>\n\
         <path id=\"crown\" d=\"M-9 4L-10 -5L-5 -1L0 -7L5 -1L10 -5L9 4Z\"/>\n\
         </defs>\n"
    )
}

/// One piece at (cx, cy): a disc with a rim, an inner ring for the first kind, crowns or a letter
/// for the others.
fn piece(
    rules: &Rules,
    side: usize,
    kind: usize,
    cx: f64,
    cy: f64,
    sq: Sq,
    opacity: f64,
) -> String {
    let fill = side_colour(rules, side);
    let light = fill.luminance() > 0.4;
    let rim = if light { "#2a2a2a" } else { "#0a0a0a" };
    // The mark (ring, crown, letter) contrasts with the disc.
    let mark = if light { "#3a3a3a" } else { "#f3d36b" };
    let r = SQ * 0.38;
    let spec = &rules.spec;
    let mut s = format!(
        "<g opacity=\"{opacity}\"><title>{} {} on {}</title>",
        esc(&spec.sides[side.min(1)].name),
        esc(&spec.pieces[kind].name),
        rules.geo.name(sq)
    );
    let _ = write!(
        s,
        r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="{}" stroke="{rim}" stroke-width="2"/>"#,
        r,
        fill.hex()
    );
    match kind {
        0 => {
            let _ = write!(
                s,
                r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{mark}" stroke-width="1.5"/>"#,
                round(r * 0.62)
            );
        }
        1 => {
            let _ = write!(
                s,
                r##"<use href="#crown" transform="translate({cx} {})" fill="{mark}"/>"##,
                cy + 1.0
            );
        }
        2 => {
            for dy in [-5.0, 6.0] {
                let _ = write!(
                    s,
                    r##"<use href="#crown" transform="translate({cx} {}) scale(0.72)" fill="{mark}"/>"##,
                    cy + dy
                );
            }
        }
        _ => {
            let _ = write!(
                s,
                r#"<text x="{cx}" y="{}" font-size="20" font-weight="bold" text-anchor="middle" fill="{mark}">{}</text>"#,
                cy + 7.0,
                esc(&rules.piece_letter(kind).to_string())
            );
        }
    }
    s.push_str("</g>\n");
    s
}

/// The diagram of the CLI's `diagram` command: `fen` (or the start position), with `last` played
/// on it when given (it must be legal there, the capture search within the route budget) and
/// marked.
pub fn from_text(
    rules: &Rules,
    fen: Option<&str>,
    last: Option<&str>,
) -> Result<String, miette::Report> {
    let boxed = |e: Box<crate::notation::InputError>| miette::Report::new_boxed(e);
    let pos = match fen {
        Some(f) => crate::notation::parse_fen(rules, f).map_err(boxed)?,
        None => rules.start,
    };
    let Some(text) = last else {
        return Ok(svg(rules, &pos, Marks::default()));
    };
    let mut legal = Vec::new();
    rules
        .try_generate(&pos, &mut legal, crate::engine::GenOptions::default())
        .map_err(miette::Report::new)?;
    let mv = crate::notation::parse_move(rules, &legal, text).map_err(boxed)?;
    let after = pos.play(&mv);
    Ok(svg(
        rules,
        &after,
        Marks {
            last: Some((&pos, &mv)),
            flipped: false,
        },
    ))
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Escape text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn contrast_of_black_and_white() {
        let c = Rgb(255, 255, 255).contrast(Rgb(0, 0, 0));
        assert!((c - 21.0).abs() < 0.01, "{c}");
    }

    #[test]
    fn every_bundled_board_draws() {
        for (name, _) in crate::variants::BUNDLED {
            let v = Variant::load(name).expect("bundled variants load");
            let text = svg(&v.rules, &v.rules.start, Marks::default());
            assert!(
                text.starts_with("<svg") && text.ends_with("</svg>\n"),
                "{name}"
            );
            let pieces = v.rules.start.occupied().count() as usize;
            assert_eq!(text.matches("<title>").count(), pieces + 1, "{name}");
        }
    }
}
