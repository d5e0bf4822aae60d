//! The points and lines of a [`BoardSpec`]: which coordinates are points of the board, which
//! lines pass through each point, the reading order that numbers them, and the far rank. The one
//! definition that the checker, the geometry and the notation share.
//!
//! Every board lies on the square lattice of (file, rank) coordinates, and every line goes one
//! of the eight compass [`Angle`]s of that lattice, so a line is the same index step everywhere:
//! - a rectangle of `all squares` or `all points` has every point; a `dark squares` board the
//!   dark ones, its orthogonal lines reaching the dark square two squares away;
//! - `alquerque lines` keep the diagonal lines to the points whose file + rank is even;
//! - a grid of w x h `cells, corners and centres` is the dark points of the (2w + 1) x (2h + 1)
//!   lattice: the cells' corners at even file and rank, their centres at odd file and rank. The
//!   diagonals pass through every point; the orthogonal lines (the grid's, two lattice steps
//!   long, as on every dark-squares board) only through the corners;
//! - a hexagon of side N has the cells (f, r) of the (2N-1) x (2N-1) rectangle with
//!   |f - r| < N, and six lines: along the ranks (east, west), the files (north, south) and the
//!   a1-to-top-right diagonal (north-east, south-west). The anti-diagonal is no line.
//!
//! Drawn, a hexagon is turned 45° so that its a1-to-top-right diagonal stands upright: a
//! direction word is read as drawn, so on a hexagon the word for lattice angle `a` is the compass
//! name of `a - 1` (the lattice's north-east is the drawing's north).

use super::{Angle, AngleSet, BoardSpec, Coord, Lines, Shape, SquareSet, ANGLE_NAMES};

/// (file, rank) step of each lattice angle, north first, clockwise.
pub const ANGLE_VECTORS: [(i16, i16); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The angles of a hexagon's six lines (no line on the anti-diagonal, angles 3 and 7).
const HEX_LINES: AngleSet = 0b0111_0111;

impl BoardSpec {
    /// The side of a hexagon (cells along one edge).
    pub fn hex_side(&self) -> u8 {
        self.width.div_ceil(2)
    }

    /// Whether (file, rank) is a point of the board.
    pub fn has_point(&self, f: i16, r: i16) -> bool {
        if f < 0 || r < 0 || f >= self.width as i16 || r >= self.height as i16 {
            return false;
        }
        let inside = match self.shape {
            Shape::Rectangle => true,
            Shape::Hexagon => (f - r).abs() < self.hex_side() as i16,
        };
        let colour = match self.squares {
            SquareSet::All => true,
            SquareSet::Dark => (f + r) % 2 == 0,
            SquareSet::DarkA1Light => (f + r) % 2 == 1,
        };
        inside && colour && !self.removed.contains(&(f as u8, r as u8))
    }

    /// Whether a coordinate is a point of the board.
    pub fn is_point(&self, (f, r): Coord) -> bool {
        self.has_point(f as i16, r as i16)
    }

    /// The (file, rank) step of a line going `a`: on a dark-squares board an orthogonal line
    /// reaches the dark square two squares away.
    pub fn vector(&self, a: Angle) -> (i16, i16) {
        let (df, dr) = ANGLE_VECTORS[a as usize % 8];
        let len = if a.is_multiple_of(2) && self.squares != SquareSet::All {
            2
        } else {
            1
        };
        (df * len, dr * len)
    }

    /// Whether a quiet move may go orthogonally: on a dark-squares board an orthogonal line jumps
    /// the light square between two dark ones, which only a capture does, except on a grid of
    /// corners and centres, whose orthogonal lines are drawn from corner to corner.
    pub fn orthogonal_quiet_moves(&self) -> bool {
        self.squares == SquareSet::All
            || self.lines == Lines::CornersAndCentres
            || self.orthogonal_across
    }

    /// The size of a grid of corners and centres in cells (width, height), if the board is one.
    pub fn cells(&self) -> Option<(u8, u8)> {
        (self.lines == Lines::CornersAndCentres).then_some((self.width / 2, self.height / 2))
    }

    /// Whether `c` is a corner of a grid of corners and centres (even file and rank); on any
    /// other board every point is a corner.
    pub fn is_corner(&self, (f, r): Coord) -> bool {
        self.lines != Lines::CornersAndCentres || (f % 2 == 0 && r % 2 == 0)
    }

    /// The angles in which the board has lines at all (through some point).
    pub fn line_angles(&self) -> AngleSet {
        match self.shape {
            Shape::Rectangle => 0xff,
            Shape::Hexagon => HEX_LINES,
        }
    }

    /// Whether a line going `a` passes through the point `c`, whatever lies beyond it.
    fn line_through(&self, (f, r): Coord, a: Angle) -> bool {
        if self.line_angles() & (1 << (a % 8)) == 0 {
            return false;
        }
        match self.lines {
            Lines::EveryPoint => true,
            Lines::Alquerque => a.is_multiple_of(2) || (f + r).is_multiple_of(2),
            Lines::CornersAndCentres => !a.is_multiple_of(2) || f.is_multiple_of(2),
        }
    }

    /// The next point from `c` along the line going `a`, if there is one.
    pub fn line(&self, c: Coord, a: Angle) -> Option<Coord> {
        if !self.is_point(c) || !self.line_through(c, a) {
            return None;
        }
        let (df, dr) = self.vector(a);
        let (f, r) = (c.0 as i16 + df, c.1 as i16 + dr);
        self.has_point(f, r).then_some((f as u8, r as u8))
    }

    /// Every point, rank by rank from `a1`.
    pub fn points(&self) -> impl Iterator<Item = Coord> + '_ {
        (0..self.height)
            .flat_map(move |r| (0..self.width).map(move |f| (f, r)))
            .filter(move |&c| self.is_point(c))
    }

    /// The points in reading order, which numbers them from 1: from the top-left as the first
    /// side sees the board drawn, row by row from the top, each row left to right. A hexagon's
    /// drawn rows are its lines across the upright diagonal (file + rank constant), left to right
    /// by file - rank.
    pub fn reading_order(&self) -> Vec<Coord> {
        let mut v: Vec<Coord> = self.points().collect();
        match self.shape {
            Shape::Rectangle => v.sort_by_key(|&(f, r)| (std::cmp::Reverse(r), f)),
            Shape::Hexagon => v.sort_by_key(|&(f, r)| {
                (std::cmp::Reverse(f as i16 + r as i16), f as i16 - r as i16)
            }),
        }
        v
    }

    /// The square turned through 180° (the other side's view).
    pub fn turn(&self, (f, r): Coord) -> Coord {
        (self.width - 1 - f, self.height - 1 - r)
    }

    /// The angle that is straight ahead for the first side when forward is straight: north,
    /// or on a hexagon the lattice's north-east (drawn upright).
    pub fn straight_ahead(&self) -> Angle {
        match self.shape {
            Shape::Rectangle => 0,
            Shape::Hexagon => 1,
        }
    }

    /// Whether `c` is on the far rank of `side` (0 = the first side): the top rank of a
    /// rectangle (the bottom one for the second side); on a hexagon the cells with no cell
    /// straight ahead (its two far edges).
    pub fn is_far_rank(&self, c: Coord, side: usize) -> bool {
        if !self.is_point(c) {
            return false;
        }
        match self.shape {
            Shape::Rectangle => c.1 == if side == 0 { self.height - 1 } else { 0 },
            Shape::Hexagon => {
                let ahead = if side == 0 { 1 } else { 5 };
                self.line(c, ahead).is_none()
            }
        }
    }

    /// The name a direction (lattice angle) goes by on this board, as it is drawn.
    pub fn compass_name(&self, a: Angle) -> &'static str {
        match self.shape {
            Shape::Rectangle => ANGLE_NAMES[a as usize % 8],
            Shape::Hexagon => ANGLE_NAMES[(a as usize + 7) % 8],
        }
    }

    /// The lattice angle of a compass name as drawn on this board (see [`BoardSpec::compass_name`]).
    pub fn compass_angle(&self, drawn: Angle) -> Angle {
        match self.shape {
            Shape::Rectangle => drawn % 8,
            Shape::Hexagon => (drawn + 1) % 8,
        }
    }

    /// The points that the lines do not join to the first point (empty when the board is
    /// connected, as a board must be).
    pub fn unreachable(&self) -> Vec<Coord> {
        let all: Vec<Coord> = self.points().collect();
        let Some(&first) = all.first() else {
            return Vec::new();
        };
        let mut seen = vec![first];
        let mut todo = vec![first];
        while let Some(c) = todo.pop() {
            for a in 0..8 {
                if let Some(n) = self.line(c, a) {
                    if !seen.contains(&n) {
                        seen.push(n);
                        todo.push(n);
                    }
                }
            }
        }
        all.into_iter().filter(|c| !seen.contains(c)).collect()
    }
}

/// The most square indices a board may use: 256, every square of a 16x16 board (indices
/// `0..=255`, each a `u8`).
pub const LAYOUT_BITS: u32 = 256;

/// The index difference of one rank (see `crate::engine::geometry`).
pub const fn stride_of(width: u8, packed: bool) -> u8 {
    if packed && width.is_multiple_of(2) {
        width + 1
    } else {
        width
    }
}

/// The number of square indices a board of `width` x `height` uses: every square, or on a
/// dark-squares board (`packed`) about half. A board is accepted when this is at most
/// [`LAYOUT_BITS`].
pub const fn layout_size(width: u8, height: u8, packed: bool) -> u32 {
    if width == 0 || height == 0 {
        return 0;
    }
    let stride = stride_of(width, packed) as u32;
    let last = (height as u32 - 1) * stride + width as u32 - 1;
    if packed {
        // The last index belongs to the top-right square or its neighbour on the left.
        last / 2 + 1
    } else {
        last + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Notation;

    fn board(w: u8, shape: Shape, lines: Lines) -> BoardSpec {
        BoardSpec {
            width: w,
            height: w,
            squares: SquareSet::All,
            notation: Notation::Algebraic,
            shape,
            lines,
            removed: Vec::new(),
            points: true,
            orthogonal_across: false,
        }
    }

    #[test]
    fn a_hexagon_of_side_5_has_61_cells_and_a_far_rank_of_9() {
        let b = board(9, Shape::Hexagon, Lines::EveryPoint);
        assert_eq!(b.points().count(), 61);
        assert!(b.is_point((0, 0)) && b.is_point((8, 8)) && !b.is_point((0, 5)));
        let far: Vec<Coord> = b.points().filter(|&c| b.is_far_rank(c, 0)).collect();
        assert_eq!(far.len(), 9);
        assert!(far.iter().all(|&(f, r)| f == 8 || r == 8));
        assert_eq!(b.line((4, 4), 3), None, "no anti-diagonal line");
        assert_eq!(b.line((4, 4), 1), Some((5, 5)));
        assert_eq!(b.compass_name(1), "north");
        assert_eq!(b.reading_order()[0], (8, 8));
        assert!(b.unreachable().is_empty());
    }

    #[test]
    fn alquerque_diagonals_pass_through_even_points_only() {
        let b = board(5, Shape::Rectangle, Lines::Alquerque);
        assert_eq!(b.line((0, 0), 1), Some((1, 1)));
        assert_eq!(b.line((1, 0), 1), None);
        assert_eq!(b.line((1, 0), 0), Some((1, 1)));
        let diagonals = b.points().filter(|&c| b.line(c, 1).is_some()).count();
        assert_eq!(diagonals, 8, "a1, c1, b2, d2, a3, c3, b4, d4");
    }

    #[test]
    fn a_grid_of_corners_and_centres_joins_centres_by_diagonals_only() {
        // 5x6 cells: the 11 x 13 lattice, 42 corners and 30 centres.
        let mut b = board(11, Shape::Rectangle, Lines::CornersAndCentres);
        b.height = 13;
        b.squares = SquareSet::Dark;
        b.points = true;
        assert_eq!(b.points().count(), 72);
        assert_eq!(b.points().filter(|&c| b.is_corner(c)).count(), 42);
        assert_eq!(b.cells(), Some((5, 6)));
        assert_eq!(b.line((0, 0), 0), Some((0, 2)), "a corner's file line");
        assert_eq!(b.line((0, 0), 2), Some((2, 0)), "a corner's rank line");
        assert_eq!(b.line((0, 0), 1), Some((1, 1)), "corner to centre");
        assert_eq!(b.line((1, 1), 1), Some((2, 2)), "centre to corner");
        assert_eq!(
            b.line((1, 1), 0),
            None,
            "no orthogonal line through a centre"
        );
        assert_eq!(b.line((1, 1), 2), None);
        let links: usize = b
            .points()
            .map(|c| (0..8).filter(|&a| b.line(c, a).is_some()).count())
            .sum();
        assert_eq!(links / 2, 191, "71 orthogonal and 120 diagonal segments");
        assert!(b.orthogonal_quiet_moves());
        assert!(b.unreachable().is_empty());
    }

    #[test]
    fn a_board_cut_in_two_is_not_connected() {
        let mut b = board(3, Shape::Rectangle, Lines::Alquerque);
        b.removed = vec![(1, 0), (1, 1), (1, 2)];
        assert_eq!(b.unreachable().len(), 3);
    }
}
