//! Board geometry: the padded square layout, neighbour tables per direction, square names.
//!
//! Squares are indexed `rank * (width + 2) + file`: two "ghost" files on the right of every rank
//! keep a step (or a two-square orthogonal step on a dark-squares board) from wrapping onto the
//! next rank, so every square fits one `u128` bit set. Ghost and unplayable squares are never in
//! [`Geometry::playable`].

use crate::spec::{Angle, BoardSpec, Coord, Notation, SquareSet};

/// A square index in the padded layout (`0..128`).
pub type Sq = u8;

/// The "no square" sentinel of the neighbour tables.
pub const NONE: Sq = 0xFF;

/// A set of squares, one bit a square.
pub type Bits = u128;

#[inline(always)]
pub const fn bit(sq: Sq) -> Bits {
    1u128 << sq
}

/// (file, rank) step of each absolute angle, north first, clockwise.
pub const ANGLE_VECTORS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

pub use crate::spec::ANGLE_NAMES;

#[derive(Clone, Debug)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
    /// Padded width: `width + 2`.
    pub stride: u8,
    pub playable: Bits,
    pub notation: Notation,
    /// `next[angle][sq]`: the neighbouring playable square, or [`NONE`].
    pub next: [[Sq; 128]; 8],
    /// `delta[angle]`: the index difference of one step in that direction (a bit-set shift).
    pub delta: [i16; 8],
    /// Playable squares in numbering order (index 0 = square number 1).
    pub numbered: Vec<Sq>,
    /// `number[sq]`: the square's number (1-based), 0 for unplayable squares.
    pub number: [u8; 128],
}

impl Geometry {
    pub fn new(board: &BoardSpec) -> Geometry {
        let (w, h) = (board.width, board.height);
        let stride = w + 2;
        let mut playable: Bits = 0;
        for r in 0..h {
            for f in 0..w {
                let dark = (f + r) % 2 == 0;
                let ok = match board.squares {
                    SquareSet::All => true,
                    SquareSet::Dark => dark,
                    SquareSet::DarkA1Light => !dark,
                };
                if ok {
                    playable |= bit(r * stride + f);
                }
            }
        }
        // On a dark-squares board the orthogonal neighbour is two squares away (the square in
        // between is light), so orthogonal directions move two squares.
        let orth_len: i8 = if board.squares == SquareSet::All {
            1
        } else {
            2
        };
        let mut next = [[NONE; 128]; 8];
        let mut delta = [0i16; 8];
        for (a, &(df, dr)) in ANGLE_VECTORS.iter().enumerate() {
            let len = if a % 2 == 0 { orth_len } else { 1 };
            delta[a] = (dr * len) as i16 * stride as i16 + (df * len) as i16;
            for r in 0..h {
                for f in 0..w {
                    let sq = r * stride + f;
                    if playable & bit(sq) == 0 {
                        continue;
                    }
                    let (nf, nr) = (f as i8 + df * len, r as i8 + dr * len);
                    if nf < 0 || nr < 0 || nf >= w as i8 || nr >= h as i8 {
                        continue;
                    }
                    let n = nr as u8 * stride + nf as u8;
                    if playable & bit(n) != 0 {
                        next[a][sq as usize] = n;
                    }
                }
            }
        }
        let mut numbered = Vec::new();
        let mut number = [0u8; 128];
        for r in (0..h).rev() {
            for f in 0..w {
                let sq = r * stride + f;
                if playable & bit(sq) != 0 {
                    numbered.push(sq);
                    number[sq as usize] = numbered.len() as u8;
                }
            }
        }
        Geometry {
            width: w,
            height: h,
            stride,
            playable,
            notation: board.notation,
            next,
            delta,
            numbered,
            number,
        }
    }

    /// The square at a coordinate, if it is on the board (playable or not).
    pub fn square(&self, (f, r): Coord) -> Option<Sq> {
        (f < self.width && r < self.height).then(|| r * self.stride + f)
    }

    pub fn coord(&self, sq: Sq) -> Coord {
        (sq % self.stride, sq / self.stride)
    }

    pub fn is_playable(&self, sq: Sq) -> bool {
        (sq as u32) < 128 && self.playable & bit(sq) != 0
    }

    /// The square seen by the other side: turned through 180°.
    pub fn rotate(&self, sq: Sq) -> Sq {
        let (f, r) = self.coord(sq);
        (self.height - 1 - r) * self.stride + (self.width - 1 - f)
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

    /// Like [`Geometry::parse`] but also returns squares that exist but are not playable.
    pub fn parse_any(&self, text: &str) -> Option<Sq> {
        // Only ASCII letters and digits make a square name: no sign (`a+1`), no leading zero,
        // and never a slice inside a multi-byte character.
        let (&first, rest) = text.as_bytes().split_first()?;
        let digits = |b: &[u8]| !b.is_empty() && b.iter().all(u8::is_ascii_digit);
        if first.is_ascii_digit() {
            if !digits(text.as_bytes()) || self.notation != Notation::Numbered {
                return None;
            }
            let n: usize = text.parse().ok()?;
            return self.numbered.get(n.checked_sub(1)?).copied();
        }
        if !first.is_ascii_alphabetic() || !digits(rest) || rest[0] == b'0' {
            return None;
        }
        let f = first.to_ascii_lowercase() - b'a';
        let r: u8 = text.get(1..)?.parse().ok()?;
        self.square((f, r - 1))
    }

    /// The squares of the last rank for a side (0 = the first side, whose far rank is the top).
    pub fn far_rank(&self, side: usize) -> Bits {
        let r = if side == 0 { self.height - 1 } else { 0 };
        let mut bits = 0;
        for f in 0..self.width {
            bits |= bit(r * self.stride + f);
        }
        bits & self.playable
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

/// Shift every square of a set one step of `delta` (see [`Geometry::delta`]). Squares pushed off
/// the 128-bit range vanish; squares pushed onto ghost files must be masked by the caller.
#[inline(always)]
pub fn shift(bits: Bits, delta: i16) -> Bits {
    if delta >= 0 {
        bits << delta as u32
    } else {
        bits >> (-delta) as u32
    }
}

/// Iterate the squares of a bit set, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter(pub Bits);

impl Iterator for BitIter {
    type Item = Sq;
    #[inline(always)]
    fn next(&mut self) -> Option<Sq> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as Sq;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}
