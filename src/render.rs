//! Board diagrams for the terminal: coordinates on both axes, a symbol per side and kind of piece,
//! the last move marked, colour only when asked for.

use crate::engine::geometry::BitIter;
use crate::engine::{Move, Position, Rules};
use crate::spec::Notation;

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
}

impl Default for Style {
    fn default() -> Style {
        Style {
            color: false,
            unicode: true,
        }
    }
}

const RESET: &str = "\x1b[0m";
const LIGHT: &str = "\x1b[48;5;187m";
const DARK: &str = "\x1b[48;5;101m";
const SHADED: &str = "\x1b[48;5;230m";
const MARK: &str = "\x1b[48;5;178m";
const SIDE_FG: [&str; 2] = ["\x1b[1;97m", "\x1b[1;30m"];

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

/// A diagram, ranks from the top, coordinates on all four edges. Without colour: `·` an empty
/// playable square, blank an unplayable one, the last move's squares bracketed and the squares it
/// captured on shown as `×`. With colour the board is shaded and the last move highlighted instead.
pub fn board(rules: &Rules, pos: &Position, last: Option<&Move>, style: Style) -> String {
    let geo = &rules.geo;
    let mut marked = Vec::new();
    let mut taken = 0;
    if let Some(m) = last {
        marked.push(m.from);
        marked.extend_from_slice(m.route());
        taken = m.captured;
    }
    let files: String = (0..geo.width)
        .map(|f| format!(" {} ", (b'a' + f) as char))
        .collect();
    let mut out = format!("   {files}\n");
    for r in (0..geo.height).rev() {
        out.push_str(&format!("{:>2} ", r + 1));
        for f in 0..geo.width {
            let sq = geo.square((f, r)).expect("coordinates inside the board");
            let playable = geo.is_playable(sq);
            let c = match pos.at(sq) {
                Some((side, kind)) => piece_char(rules, side, kind, style),
                None if BitIter(taken).any(|t| t == sq) => '×',
                None if playable => '·',
                None => ' ',
            };
            let is_marked = marked.contains(&sq);
            if style.color {
                let bg = if is_marked {
                    MARK
                } else if !playable {
                    SHADED
                } else if (f + r) % 2 == 0 {
                    DARK
                } else {
                    LIGHT
                };
                let fg = match pos.at(sq) {
                    Some((side, _)) => SIDE_FG[side.min(1)],
                    None => "\x1b[30m",
                };
                out.push_str(&format!("{bg}{fg} {c} {RESET}"));
            } else if is_marked {
                out.push_str(&format!("[{c}]"));
            } else {
                out.push_str(&format!(" {c} "));
            }
        }
        out.push_str(&format!(" {}", r + 1));
        if geo.notation == Notation::Numbered {
            // The numbers of the rank's playable squares, since moves are written with them.
            let nums: Vec<u8> = (0..geo.width)
                .filter_map(|f| geo.square((f, r)))
                .filter(|&sq| geo.is_playable(sq))
                .map(|sq| geo.number[sq as usize])
                .collect();
            if let (Some(first), Some(last)) = (nums.iter().min(), nums.iter().max()) {
                out.push_str(&format!(
                    "{:>w$}{first}-{last}",
                    "",
                    w = 4 - (r + 1).to_string().len()
                ));
            }
        }
        out.push('\n');
    }
    out.push_str(&format!("   {files}\n"));
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
            },
        );
        assert!(colour.contains("\x1b["));
        let letters = board_text(&v.rules, &v.rules.start, None);
        assert!(letters.contains(" M ") && letters.contains(" m "));
    }
}
