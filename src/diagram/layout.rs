//! Where a board's points stand in a drawing: one layout for the SVG diagrams and the web page,
//! so that every board form (squares, a hexagon of cells, a board of points and lines) is drawn
//! and clicked at the same places by both.

use crate::engine::geometry::{BitIter, Geometry, Sq, NONE};
use crate::engine::Rules;
use crate::spec::Shape;

/// Size of a square, in SVG user units.
pub const SQ: f64 = 48.0;
/// A hexagon's cell: its radius (centre to corner), for cells one `SQ` high flat to flat, and the
/// distance between the centres of two neighbouring columns.
pub const HEX_R: f64 = SQ / 1.732_050_8;
const HEX_DX: f64 = HEX_R * 1.5;

/// How a board's points are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A rectangle of squares, each point a square.
    Squares,
    /// A hexagon of hexagonal cells.
    Hexagon,
    /// Points joined by the board's lines.
    Points,
}

impl Form {
    /// The form's name in the web page's board description.
    pub fn name(self) -> &'static str {
        match self {
            Form::Squares => "squares",
            Form::Hexagon => "hexagon",
            Form::Points => "points",
        }
    }
}

/// A board placed in a drawing: its top-left corner at (`left`, `top`), `width` x `height` units.
pub struct Layout<'a> {
    geo: &'a Geometry,
    pub form: Form,
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    flipped: bool,
    /// A hexagon's side, in cells.
    side: f64,
}

impl<'a> Layout<'a> {
    /// The layout of `rules`' board with its top-left corner at (`left`, `top`); `flipped`: seen
    /// from the second side (its home rank at the bottom, the files right to left).
    pub fn new(rules: &'a Rules, left: f64, top: f64, flipped: bool) -> Layout<'a> {
        let board = &rules.spec.board;
        let geo = &rules.geo;
        let form = if board.shape == Shape::Hexagon {
            Form::Hexagon
        } else if board.points {
            Form::Points
        } else {
            Form::Squares
        };
        let side = board.hex_side() as f64;
        let (w, h) = (geo.width as f64, geo.height as f64);
        // A hexagon, drawn with its line a1-i9 upright: columns 0.866 cells apart, cells of a
        // column one cell apart.
        let (width, height) = if form == Form::Hexagon {
            ((2.0 * side - 2.0) * HEX_DX + 2.0 * HEX_R, h * SQ)
        } else {
            (w * SQ, h * SQ)
        };
        Layout {
            geo,
            form,
            left,
            top,
            width,
            height,
            flipped,
            side,
        }
    }

    /// Where file `f` stands, in squares from the left.
    pub fn column(&self, f: u8) -> f64 {
        if self.flipped {
            self.geo.width as f64 - 1.0 - f as f64
        } else {
            f as f64
        }
    }

    /// Where rank `r` stands, in squares from the top.
    pub fn row(&self, r: u8) -> f64 {
        if self.flipped {
            r as f64
        } else {
            self.geo.height as f64 - 1.0 - r as f64
        }
    }

    /// The top-left corner of the square at (file, rank) (a rectangle of squares).
    pub fn corner_at(&self, (f, r): (u8, u8)) -> (f64, f64) {
        (self.left + self.column(f) * SQ, self.top + self.row(r) * SQ)
    }

    pub fn corner(&self, sq: Sq) -> (f64, f64) {
        self.corner_at(self.geo.coord(sq))
    }

    /// The centre of the point at (file, rank). A hexagon's cell (f, r) stands at column f - r
    /// and half-row f + r.
    pub fn centre_at(&self, (f, r): (u8, u8)) -> (f64, f64) {
        if self.form == Form::Hexagon {
            let (x, y) = (f as f64 - r as f64, f as f64 + r as f64);
            let h = self.geo.height as f64;
            let (x, y) = if self.flipped {
                (-x, y)
            } else {
                (x, 2.0 * h - 2.0 - y)
            };
            (
                self.left + HEX_R + (x + self.side - 1.0) * HEX_DX,
                self.top + SQ / 2.0 + y * SQ / 2.0,
            )
        } else {
            let (x, y) = self.corner_at((f, r));
            (x + SQ / 2.0, y + SQ / 2.0)
        }
    }

    pub fn centre(&self, sq: Sq) -> (f64, f64) {
        self.centre_at(self.geo.coord(sq))
    }

    /// A hexagonal cell's six corners.
    pub fn hexagon(&self, sq: Sq) -> [(f64, f64); 6] {
        let (cx, cy) = self.centre(sq);
        std::array::from_fn(|i| {
            let a = std::f64::consts::PI / 3.0 * i as f64;
            (cx + HEX_R * a.cos(), cy + HEX_R * a.sin())
        })
    }

    /// Every line between two neighbouring points, once: from each point to its neighbours
    /// north, north-east, east and south-east.
    pub fn lines(&self) -> Vec<(Sq, Sq)> {
        let mut out = Vec::new();
        for sq in BitIter(self.geo.playable) {
            for a in 0..4 {
                let t = self.geo.next[a][sq as usize];
                if t != NONE {
                    out.push((sq, t as Sq));
                }
            }
        }
        out
    }
}
