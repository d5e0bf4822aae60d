//! Board diagrams for the terminal.

use crate::engine::{Move, Position, Rules};

/// A plain-text diagram: ranks from the top, file letters below; the first side's pieces by their
/// letter, the second side's in lower case; `.` an empty playable square, blank an unplayable one.
/// Squares of the last move are bracketed.
pub fn board_text(rules: &Rules, pos: &Position, last: Option<&Move>) -> String {
    let geo = &rules.geo;
    let mut marked = Vec::new();
    if let Some(m) = last {
        marked.push(m.from);
        marked.extend_from_slice(m.route());
    }
    let mut out = String::new();
    for r in (0..geo.height).rev() {
        out.push_str(&format!("{:>2} ", r + 1));
        for f in 0..geo.width {
            let sq = geo.square((f, r)).expect("coordinates inside the board");
            let c = match pos.at(sq) {
                Some((side, kind)) => {
                    let l = rules.piece_letter(kind);
                    if side == 0 {
                        l.to_ascii_uppercase()
                    } else {
                        l.to_ascii_lowercase()
                    }
                }
                None if geo.is_playable(sq) => '.',
                None => ' ',
            };
            if marked.contains(&sq) {
                out.push_str(&format!("[{c}]"));
            } else {
                out.push_str(&format!(" {c} "));
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for f in 0..geo.width {
        out.push_str(&format!(" {} ", (b'a' + f) as char));
    }
    out.push('\n');
    out
}
