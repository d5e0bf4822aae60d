//! Board diagrams for the terminal: coordinates on both axes, a symbol per side and kind of piece,
//! the last move marked, colour only when asked for.

use crate::diagram::Rgb;
use crate::engine::geometry::BitIter;
use crate::engine::BitSet;
use crate::engine::{Move, Position, Rules};
use crate::spec::{Notation, SquareSet};

mod lines;

/// Symbols by kind (declaration order: the first kind is the man or Pedine), for each side: the
/// first side's are hollow, the second side's filled. A variant with more kinds than symbols falls
/// back to letters.
const SYMBOLS: [[char; 4]; 2] = [['⛀', '⛁', '♕', '♔'], ['⛂', '⛃', '♛', '♚']];

/// How to draw a board.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// ANSI colours: square shading, piece colours, a highlighted last move.
    pub color: bool,
    /// Unicode piece symbols (otherwise letters: upper case for the first side).
    pub unicode: bool,
    /// Seen from the second side: its home rank at the bottom, the files right to left.
    pub flipped: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            color: false,
            unicode: true,
            flipped: false,
        }
    }
}

const RESET: &str = "\x1b[0m";

/// The RGB value of an xterm-256 colour (the 6x6x6 cube and the grey ramp; 0-15 are not used).
fn xterm_rgb(i: u8) -> Rgb {
    if i >= 232 {
        let g = 8 + 10 * (i - 232);
        return Rgb(g, g, g);
    }
    let i = i.saturating_sub(16);
    let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
    Rgb(level(i / 36), level(i / 6 % 6), level(i % 6))
}

/// The xterm-256 colour nearest to `c`.
fn nearest_xterm(c: Rgb) -> u8 {
    let d = |a: Rgb| {
        let dr = a.0 as i32 - c.0 as i32;
        let dg = a.1 as i32 - c.1 as i32;
        let db = a.2 as i32 - c.2 as i32;
        dr * dr + dg * dg + db * db
    };
    (16..=255u8)
        .min_by_key(|&i| d(xterm_rgb(i)))
        .expect("a non-empty range")
}

/// Wood-like square colours to choose from, and highlight colours for the last move.
const SQUARE_TONES: [u8; 14] = [
    94, 95, 101, 130, 131, 137, 138, 143, 173, 180, 187, 223, 240, 245,
];
const MARK_TONES: [u8; 8] = [25, 31, 67, 68, 136, 172, 178, 220];

/// The terminal colours of a board: each side's piece colour, the playable squares' two shades
/// and the highlight, chosen so both sides' pieces stand out (WCAG contrast) on every square
/// whatever the terminal's own background, since every cell's background is painted.
#[derive(Clone, Copy, Debug)]
struct Palette {
    side: [u8; 2],
    squares: [u8; 2],
    mark: u8,
    /// Unplayable squares: no piece stands there.
    off: u8,
}

fn palette(rules: &Rules) -> Palette {
    let side = [0, 1].map(|s| nearest_xterm(crate::diagram::side_colour(rules, s)));
    let worst = |bg: u8| {
        side.iter()
            .map(|&f| xterm_rgb(f).contrast(xterm_rgb(bg)))
            .fold(f64::INFINITY, f64::min)
    };
    let ranked = |list: &[u8]| {
        let mut v = list.to_vec();
        v.sort_by(|&a, &b| worst(b).total_cmp(&worst(a)));
        v
    };
    let tones = ranked(&SQUARE_TONES);
    Palette {
        side,
        squares: [tones[0], tones[1]],
        mark: ranked(&MARK_TONES)[0],
        off: 252,
    }
}

/// A foreground (black or white) readable on `bg`, for numbers and marks on empty squares.
fn plain_fg(bg: u8) -> u8 {
    let b = xterm_rgb(bg);
    if b.contrast(Rgb(0, 0, 0)) > b.contrast(Rgb(255, 255, 255)) {
        16
    } else {
        231
    }
}

/// The character for a piece of `side` and `kind`.
pub fn piece_char(rules: &Rules, side: usize, kind: usize, style: Style) -> char {
    if style.unicode && rules.kinds <= SYMBOLS[0].len() {
        return SYMBOLS[side.min(1)][kind.min(SYMBOLS[0].len() - 1)];
    }
    let l = rules.piece_letter(kind);
    if side == 0 {
        l.to_ascii_uppercase()
    } else {
        l.to_ascii_lowercase()
    }
}

/// One line naming each symbol: `⛀ white man  ⛁ white king  ⛂ black man  ⛃ black king`.
pub fn legend(rules: &Rules, style: Style) -> String {
    let spec = &rules.spec;
    let mut parts = Vec::new();
    for side in 0..2 {
        for kind in 0..rules.kinds {
            parts.push(format!(
                "{} {} {}",
                piece_char(rules, side, kind, style),
                spec.sides[side].name,
                spec.pieces[kind].name
            ));
        }
    }
    format!("{}\n", parts.join("  "))
}

/// A diagram, ranks from the top. Algebraic boards have coordinates on all four edges; numbered
/// boards show each empty playable square's number and each rank's range of numbers on the right.
/// Without colour: `·` an empty playable square, blank an unplayable one, the last move's squares
/// bracketed and the squares it captured on shown as `×`. With colour every cell is painted (so
/// the board reads the same on light and dark terminals), each side in its own colour, and the
/// last move highlighted.
pub fn board(rules: &Rules, pos: &Position, last: Option<&Move>, style: Style) -> String {
    // Boards drawn as lines (points, hexagons) have their own layout.
    if let Some(drawn) = lines::board(rules, pos, last, style) {
        return drawn;
    }
    let geo = &rules.geo;
    let numbered = geo.notation == Notation::Numbered;
    // Cell content width: two characters for square numbers, three past 99.
    let w = match (numbered, geo.numbered.len()) {
        (false, _) => 1,
        (true, n) if n > 99 => 3,
        (true, _) => 2,
    };
    let pal = palette(rules);
    let all = rules.spec.board.squares == SquareSet::All;
    let mut marked = Vec::new();
    let mut taken = crate::engine::geometry::Bits::ZERO;
    if let Some(m) = last {
        marked.push(m.from);
        marked.extend_from_slice(m.route());
        taken = m.captured;
    }
    // Files left to right and ranks top to bottom as the viewer sees them.
    let file_order: Vec<u8> = if style.flipped {
        (0..geo.width).rev().collect()
    } else {
        (0..geo.width).collect()
    };
    let rank_order: Vec<u8> = if style.flipped {
        (0..geo.height).collect()
    } else {
        (0..geo.height).rev().collect()
    };
    let files: String = file_order
        .iter()
        .map(|&f| format!(" {} ", (b'a' + f) as char))
        .collect();
    let mut out = String::new();
    if !numbered {
        out.push_str(&format!("   {files}\n"));
    }
    for &r in &rank_order {
        if !numbered {
            out.push_str(&format!("{:>2} ", r + 1));
        }
        for &f in &file_order {
            // A dark-squares board indexes only its playable squares.
            let sq = geo.square((f, r)).filter(|&sq| geo.is_playable(sq));
            let playable = sq.is_some();
            let piece = sq.and_then(|sq| pos.at(sq));
            let content = match (sq, piece) {
                (_, Some((side, kind))) => format!("{:>w$}", piece_char(rules, side, kind, style)),
                (Some(sq), None) if BitIter(taken).any(|t| t == sq) => format!("{:>w$}", '×'),
                (Some(sq), None) if numbered => format!("{:>w$}", geo.number[sq as usize]),
                (Some(_), None) => "·".into(),
                (None, _) => " ".repeat(w),
            };
            let is_marked = sq.is_some_and(|sq| marked.contains(&sq));
            if style.color {
                let bg = if is_marked {
                    pal.mark
                } else if !playable {
                    pal.off
                } else if all && (f + r) % 2 == 1 {
                    pal.squares[1]
                } else {
                    pal.squares[0]
                };
                let fg = match piece {
                    Some((side, _)) => format!("\x1b[1;38;5;{}m", pal.side[side.min(1)]),
                    None => format!("\x1b[38;5;{}m", plain_fg(bg)),
                };
                out.push_str(&format!("\x1b[48;5;{bg}m{fg} {content} {RESET}"));
            } else if is_marked {
                out.push_str(&format!("[{content}]"));
            } else {
                out.push_str(&format!(" {content} "));
            }
        }
        if !numbered {
            out.push_str(&format!(" {}", r + 1));
        } else {
            // The numbers of the rank's playable squares, since moves are written with them.
            let nums: Vec<u16> = (0..geo.width)
                .filter_map(|f| geo.square((f, r)))
                .filter(|&sq| geo.is_playable(sq))
                .map(|sq| geo.number[sq as usize])
                .collect();
            if let (Some(first), Some(last)) = (nums.iter().min(), nums.iter().max()) {
                out.push_str(&format!("  {first}-{last}"));
            }
        }
        out.push('\n');
    }
    if !numbered {
        out.push_str(&format!("   {files}\n"));
    }
    out
}

/// A plain diagram with letters (first side upper case), no colour: for logs and tests.
pub fn board_text(rules: &Rules, pos: &Position, last: Option<&Move>) -> String {
    board(
        rules,
        pos,
        last,
        Style {
            color: false,
            unicode: false,
            flipped: false,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn colour_only_when_asked() {
        let v = Variant::load("dameo").expect("Dameo is bundled");
        let plain = board(&v.rules, &v.rules.start, None, Style::default());
        assert!(!plain.contains('\x1b'));
        assert!(plain.contains('⛀') && plain.contains('⛂'));
        let colour = board(
            &v.rules,
            &v.rules.start,
            None,
            Style {
                color: true,
                unicode: true,
                flipped: false,
            },
        );
        assert!(colour.contains("\x1b["));
        let letters = board_text(&v.rules, &v.rules.start, None);
        assert!(letters.contains(" M ") && letters.contains(" m "));
    }

    #[test]
    fn flipped_shows_the_board_from_the_other_side() {
        let v = Variant::load("turkish").expect("Turkish is bundled");
        let style = Style {
            unicode: false,
            flipped: true,
            ..Style::default()
        };
        let b = board(&v.rules, &v.rules.start, None, style);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[0].trim(), "h  g  f  e  d  c  b  a");
        // Rank 1 on top, then rank 2 with White's men as seen from Black's side.
        assert!(lines[1].trim_start().starts_with("1 "), "{b}");
        assert!(lines[2].contains(" M "), "{b}");
        assert!(lines[8].trim_start().starts_with("8 "), "{b}");
    }
}
