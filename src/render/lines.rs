//! Terminal diagrams of the boards drawn as lines rather than squares: a board of points
//! (`all points`, the alquerque board) with its lines between the points, and a hexagon drawn
//! with its line `a1`–`i9` upright, each drawn row the cells of one file + rank.

use super::{piece_char, Style};
use crate::engine::geometry::{BitIter, Sq};
use crate::engine::{Move, Position, Rules};
use crate::spec::{Notation, Shape};

/// The marks of a cell: its content, and whether the last move passed there.
struct Cells<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    marked: Vec<Sq>,
    taken: Vec<Sq>,
    style: Style,
}

impl Cells<'_> {
    fn new<'a>(
        rules: &'a Rules,
        pos: &'a Position,
        last: Option<&Move>,
        style: Style,
    ) -> Cells<'a> {
        let (mut marked, mut taken) = (Vec::new(), Vec::new());
        if let Some(m) = last {
            marked.push(m.from);
            marked.extend_from_slice(m.route());
            taken = BitIter(m.captured).collect();
        }
        Cells {
            rules,
            pos,
            marked,
            taken,
            style,
        }
    }

    /// The cell's content, `width` characters wide.
    fn content(&self, sq: Sq, width: usize) -> String {
        let geo = &self.rules.geo;
        let text = match self.pos.at(sq) {
            Some((side, kind)) => {
                let c = piece_char(self.rules, side, kind, self.style);
                if self.style.color {
                    let colour = crate::diagram::side_colour(self.rules, side);
                    format!(
                        "\x1b[1;38;2;{};{};{}m{c}\x1b[0m",
                        colour.0, colour.1, colour.2
                    )
                } else {
                    c.to_string()
                }
            }
            None if self.taken.contains(&sq) => "×".to_string(),
            None if geo.notation == Notation::Numbered => geo.number[sq as usize].to_string(),
            None => "·".to_string(),
        };
        let shown = if text.starts_with('\x1b') || text.chars().count() >= width {
            1.max(width.saturating_sub(1))
        } else {
            text.chars().count()
        };
        format!("{}{text}", " ".repeat(width.saturating_sub(shown)))
    }
}

/// A board of points or a hexagon, or `None` for a board of squares.
pub fn board(rules: &Rules, pos: &Position, last: Option<&Move>, style: Style) -> Option<String> {
    let b = &rules.spec.board;
    let cells = Cells::new(rules, pos, last, style);
    match b.shape {
        Shape::Hexagon => Some(hexagon(&cells)),
        Shape::Rectangle if b.points => Some(points(&cells)),
        Shape::Rectangle => None,
    }
}

/// A hexagon: drawn row y holds the cells with file + rank = y, left to right by file - rank,
/// two columns per step of file - rank; each row names its end cells.
fn hexagon(cells: &Cells) -> String {
    let geo = &cells.rules.geo;
    let b = &cells.rules.spec.board;
    let side = b.hex_side() as i16;
    let numbered = geo.notation == Notation::Numbered;
    let width = if numbered { 2 } else { 1 };
    let flip = cells.style.flipped;
    let mut rows: Vec<i16> = (0..2 * b.width as i16 - 1).collect();
    if !flip {
        rows.reverse();
    }
    let mut out = String::new();
    for y in rows {
        let mut row: Vec<(i16, Sq)> = (0..b.width)
            .filter_map(|f| {
                let r = y - f as i16;
                let c = (f, u8::try_from(r).ok()?);
                b.is_point(c).then(|| (f as i16 - r, geo.square(c)))
            })
            .filter_map(|(x, sq)| Some((if flip { -x } else { x }, sq?)))
            .collect();
        row.sort_by_key(|&(x, _)| x);
        let (Some(&(_, first)), Some(&(_, last))) = (row.first(), row.last()) else {
            continue;
        };
        let mut line = if numbered {
            String::new()
        } else {
            format!("{:>3} ", geo.name(first))
        };
        let mut col = -(side - 1) * 2;
        for &(x, sq) in &row {
            let at = x * 2;
            line.push_str(&" ".repeat((at - col).max(0) as usize));
            let content = cells.content(sq, width);
            if cells.marked.contains(&sq) {
                // The bracket takes the space before the cell and the one after it.
                line.pop();
                line.push('[');
                line.push_str(&content);
                line.push(']');
                col = at + width as i16 + 1;
            } else {
                line.push_str(&content);
                col = at + width as i16;
            }
        }
        if !numbered {
            line.push_str(&format!("  {}", geo.name(last)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A board of points: each rank a row of points joined by `─`, and between two ranks the
/// file lines `│` and the diagonal lines `╱`, `╲` (or `╳` where both cross) that the board has.
fn points(cells: &Cells) -> String {
    let geo = &cells.rules.geo;
    let b = &cells.rules.spec.board;
    let numbered = geo.notation == Notation::Numbered;
    let width = if numbered { 2 } else { 1 };
    let flip = cells.style.flipped;
    let files: Vec<u8> = if flip {
        (0..b.width).rev().collect()
    } else {
        (0..b.width).collect()
    };
    let ranks: Vec<u8> = if flip {
        (0..b.height).collect()
    } else {
        (0..b.height).rev().collect()
    };
    // The drawn direction of lattice angle `a` (files right to left when flipped).
    let angle = |a: u8| if flip { (a + 4) % 8 } else { a };
    let has = |f: u8, r: u8, a: u8| {
        geo.square((f, r)).is_some_and(|sq| {
            geo.is_playable(sq)
                && geo.next[angle(a) as usize][sq as usize] != crate::engine::geometry::NONE
        })
    };
    // Whether a line going drawn direction `a` leaves (f, r): from the point there, or through
    // it when it is no point but lies halfway along a line two steps long (a grid of corners and
    // centres joins its corners so, over the centres' rows and files).
    let through = |f: u8, r: u8, a: u8| {
        let (df, dr) = crate::engine::geometry::ANGLE_VECTORS[angle(a) as usize];
        let back = (f as i16 - df, r as i16 - dr);
        has(f, r, a)
            || (!b.is_point((f, r))
                && back.0 >= 0
                && back.1 >= 0
                && has(back.0 as u8, back.1 as u8, a))
    };
    let pad = " ".repeat(width);
    let mut out = String::new();
    let header: String = files
        .iter()
        .map(|&f| format!("{pad}{}  ", (b'a' + f) as char))
        .collect();
    if !numbered {
        out.push_str(&format!("    {}\n", header.trim_end()));
    }
    for (i, &r) in ranks.iter().enumerate() {
        let mut line = if numbered {
            String::new()
        } else {
            format!("{:>2}  ", r + 1)
        };
        for (j, &f) in files.iter().enumerate() {
            let sq = geo.square((f, r)).filter(|&s| geo.is_playable(s));
            let content = match sq {
                Some(sq) if cells.marked.contains(&sq) => format!("[{}]", cells.content(sq, width)),
                Some(sq) => format!(" {}", cells.content(sq, width)) + " ",
                None if through(f, r, 2) => "─".repeat(width + 2),
                None if through(f, r, 4) => format!(" {}│ ", " ".repeat(width - 1)),
                None => format!(" {pad} "),
            };
            line.push_str(&content);
            if j + 1 < files.len() {
                line.push(if through(f, r, 2) { '─' } else { ' ' });
            }
        }
        if !numbered {
            line.push_str(&format!("  {}", r + 1));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        let Some(&below) = ranks.get(i + 1) else {
            continue;
        };
        // Between rank r and the one drawn below it: the lines going down the drawing.
        let mut link = if numbered {
            String::new()
        } else {
            "    ".to_string()
        };
        for (j, &f) in files.iter().enumerate() {
            link.push_str(&pad);
            link.push(if through(f, r, 4) { '│' } else { ' ' });
            link.push(' ');
            if j + 1 < files.len() {
                let down_right = has(f, r, 3);
                let up_right = has(f, below, 1);
                link.push(match (down_right, up_right) {
                    (true, true) => '╳',
                    (true, false) => '╲',
                    (false, true) => '╱',
                    _ => ' ',
                });
            }
        }
        out.push_str(link.trim_end());
        out.push('\n');
    }
    if !numbered {
        out.push_str(&format!("    {}\n", header.trim_end()));
    }
    out
}
