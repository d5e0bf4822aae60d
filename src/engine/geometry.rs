//! Board geometry: the square layout, neighbour tables per direction, square names.
//!
//! A board is a set of points with lines through them ([`BoardSpec::line`]); every line goes one
//! lattice angle, so that one step along it is one index difference everywhere and the generator
//! moves whole sets with one shift. A point without a line in some direction is simply not in
//! `from[angle]` (alquerque diagonals, a hexagon's edges). Indices:
//! - on a board of all squares or points (and a hexagon, in the rectangle of its axial
//!   coordinates), `rank * width + file`;
//! - on a dark-squares board, the dark squares packed two to a pair of files:
//!   `(rank * stride + file) / 2` with an odd `stride` (`width + 1` for an even width, `width` for
//!   an odd one), so that a step in any direction is the same index difference on every rank.
//!
//! A step of a whole set of squares at once ([`Rules::step`](super::Rules::step)) first keeps only the squares
//! that have a neighbour that way, so nothing wraps onto the next rank. [`LAYOUT_BITS`] bounds
//! the indices: a board is accepted when [`layout_size`] is at most that.

pub use super::bits::{BitIter, BitSet, U256};
use crate::spec::{Angle, BoardSpec, Coord, Notation, SquareSet};

pub use crate::spec::board::{layout_size, stride_of, LAYOUT_BITS};

/// A square index in the layout (`0..=255`).
pub type Sq = u8;

/// An entry of the neighbour tables: a square index ([`Sq`]), or [`NONE`]. Wider than a square,
/// so that every one of the 256 indices is a square and the "no square" is none of them. Once
/// checked against [`NONE`], narrow it (`t as Sq`) before indexing a table with it: a `u8` index
/// needs no bounds check in a table of 256.
pub type Link = u16;

/// The "no square" sentinel of the neighbour tables (no [`Sq`] equals it).
pub const NONE: Link = 0xFFFF;

/// A set of squares, one bit a square, wide enough for every board: what positions and moves
/// use unless a narrower width is asked for (see [`BitSet`]).
pub type Bits = U256;

#[inline(always)]
pub fn bit(sq: Sq) -> Bits {
    Bits::bit(sq)
}

/// (file, rank) step of each absolute angle, north first, clockwise (one definition, the
/// board description's).
pub use crate::spec::board::ANGLE_VECTORS;

pub use crate::spec::ANGLE_NAMES;

#[derive(Clone, Debug)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
    /// Index difference of one rank, in files (see the module documentation).
    pub stride: u8,
    /// Dark squares packed two files to an index.
    pub packed: bool,
    /// On a packed board, the parity of `rank * stride + file` on playable squares.
    pub parity: u8,
    pub playable: Bits,
    pub notation: Notation,
    /// `next[angle][sq]`: the neighbouring playable square, or [`NONE`] (test before narrowing
    /// to a [`Sq`]).
    pub next: [[Link; 256]; 8],
    /// `delta[angle]`: the index difference of one step in that direction (a bit-set shift).
    pub delta: [i16; 8],
    /// `from[angle]`: the playable squares that have a playable neighbour in that direction.
    pub from: [Bits; 8],
    /// Playable squares in numbering order (index 0 = square number 1).
    pub numbered: Vec<Sq>,
    /// `number[sq]`: the square's number (1-based, up to 256), 0 for unplayable squares.
    pub number: [u16; 256],
    /// The far rank of each side (see [`BoardSpec::is_far_rank`]).
    pub far: [Bits; 2],
}

impl Geometry {
    pub fn new(board: &BoardSpec) -> Geometry {
        let (w, h) = (board.width, board.height);
        let packed = board.squares != SquareSet::All;
        let stride = stride_of(w, packed);
        let parity = match board.squares {
            SquareSet::DarkA1Light => 1,
            _ => 0,
        };
        let mut geo = Geometry {
            width: w,
            height: h,
            stride,
            packed,
            parity,
            playable: Bits::ZERO,
            notation: board.notation,
            next: [[NONE; 256]; 8],
            delta: [0; 8],
            from: [Bits::ZERO; 8],
            numbered: Vec::new(),
            number: [0; 256],
            far: [Bits::ZERO; 2],
        };
        for c in board.points() {
            geo.playable |= bit(geo.index(c.0, c.1));
        }
        // Every line goes one lattice angle, so one step along it is the same index difference
        // from every point (on a dark-squares board an orthogonal line skips the light square).
        for a in 0..8u8 {
            let (df, dr) = board.vector(a);
            let full = dr * stride as i16 + df;
            geo.delta[a as usize] = if packed { full / 2 } else { full };
            for c in board.points() {
                if let Some(n) = board.line(c, a) {
                    let (sq, n) = (geo.index(c.0, c.1), geo.index(n.0, n.1));
                    debug_assert_eq!(n as i16 - sq as i16, geo.delta[a as usize]);
                    geo.next[a as usize][sq as usize] = n as Link;
                    geo.from[a as usize] |= bit(sq);
                }
            }
        }
        for c in board.reading_order() {
            let sq = geo.index(c.0, c.1);
            geo.numbered.push(sq);
            geo.number[sq as usize] = geo.numbered.len() as u16;
        }
        for side in 0..2 {
            for c in board.points().filter(|&c| board.is_far_rank(c, side)) {
                geo.far[side] |= bit(geo.index(c.0, c.1));
            }
        }
        geo
    }

    /// The index of the square at (file, rank), which must be on the board (and playable on a
    /// packed board).
    #[inline]
    fn index(&self, f: u8, r: u8) -> Sq {
        let full = r as u32 * self.stride as u32 + f as u32;
        (if self.packed { full / 2 } else { full }) as Sq
    }

    /// The square at a coordinate, if it is on the board and has an index: every square of a
    /// board of all squares, the playable ones of a dark-squares board (see [`Geometry::on_board`]).
    pub fn square(&self, (f, r): Coord) -> Option<Sq> {
        if f >= self.width || r >= self.height {
            return None;
        }
        if self.packed && (r as u32 * self.stride as u32 + f as u32) % 2 != self.parity as u32 {
            return None;
        }
        Some(self.index(f, r))
    }

    /// Whether a coordinate is on the board, playable or not.
    pub fn on_board(&self, (f, r): Coord) -> bool {
        f < self.width && r < self.height
    }

    pub fn coord(&self, sq: Sq) -> Coord {
        let full = if self.packed {
            2 * sq as u32 + self.parity as u32
        } else {
            sq as u32
        };
        (
            (full % self.stride as u32) as u8,
            (full / self.stride as u32) as u8,
        )
    }

    /// The number of square indices the board uses.
    pub fn size(&self) -> u32 {
        layout_size(self.width, self.height, self.packed)
    }

    pub fn is_playable(&self, sq: Sq) -> bool {
        self.playable.has(sq)
    }

    /// The square seen by the other side: turned through 180°. On a packed board whose turned
    /// square is light (an odd number of squares along one side), the result is the index it
    /// would have; only [`Geometry::rotate_coord`] is meaningful there.
    pub fn rotate(&self, sq: Sq) -> Sq {
        let (f, r) = self.coord(sq);
        self.index(self.width - 1 - f, self.height - 1 - r)
    }

    pub fn rotate_coord(&self, (f, r): Coord) -> Coord {
        (self.width - 1 - f, self.height - 1 - r)
    }

    /// The square's name in the board's notation (`e4` or `23`).
    pub fn name(&self, sq: Sq) -> String {
        match self.notation {
            Notation::Numbered => self.number[sq as usize].to_string(),
            Notation::Algebraic => self.algebraic(sq),
        }
    }

    pub fn algebraic(&self, sq: Sq) -> String {
        let (f, r) = self.coord(sq);
        format!("{}{}", (b'a' + f) as char, r + 1)
    }

    /// Parse a square name: algebraic (`e4`) always, a number on numbered boards. Only playable
    /// squares are returned.
    pub fn parse(&self, text: &str) -> Option<Sq> {
        let sq = self.parse_any(text)?;
        self.is_playable(sq).then_some(sq)
    }

    /// Whether `text` names a square of the board, playable or not.
    pub fn names_square(&self, text: &str) -> bool {
        self.parse_coord(text).is_some()
    }

    /// Like [`Geometry::parse`] but also returns squares that exist but are not playable (on a
    /// board of all squares; a dark-squares board indexes only its playable squares).
    pub fn parse_any(&self, text: &str) -> Option<Sq> {
        self.square(self.parse_coord(text)?)
    }

    /// The coordinate a square name stands for, if it is on the board.
    pub fn parse_coord(&self, text: &str) -> Option<Coord> {
        // Only ASCII letters and digits make a square name: no sign (`a+1`), no leading zero,
        // and never a slice inside a multi-byte character.
        let (&first, rest) = text.as_bytes().split_first()?;
        let digits = |b: &[u8]| !b.is_empty() && b.iter().all(u8::is_ascii_digit);
        if first.is_ascii_digit() {
            if !digits(text.as_bytes()) || self.notation != Notation::Numbered {
                return None;
            }
            let n: usize = text.parse().ok()?;
            return self
                .numbered
                .get(n.checked_sub(1)?)
                .map(|&sq| self.coord(sq));
        }
        if !first.is_ascii_alphabetic() || !digits(rest) || rest[0] == b'0' {
            return None;
        }
        let f = first.to_ascii_lowercase() - b'a';
        let r: u8 = text.get(1..)?.parse().ok()?;
        let c = (f, r - 1);
        self.on_board(c).then_some(c)
    }

    /// The squares of the last rank for a side (0 = the first side, whose far rank is the top;
    /// on a hexagon, its two far edges).
    pub fn far_rank(&self, side: usize) -> Bits {
        self.far[side]
    }

    /// The angle `a` as seen by `side` (the second side's directions are turned through 180°).
    pub fn side_angle(side: usize, a: Angle) -> Angle {
        if side == 0 {
            a
        } else {
            (a + 4) % 8
        }
    }
}
