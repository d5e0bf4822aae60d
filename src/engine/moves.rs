//! A move: origin, route, captured set, and the piece it ends as.

use super::bits::BitSet;
use super::geometry::{Bits, Sq};

/// A legal move. Two moves are the same move when `from`, `to`, `captured` and `kind_after` agree
/// (see [`Move::same_move`]); `path` is the route shown in notation.
#[derive(Clone, Copy, Debug)]
pub struct Move<B: BitSet = Bits> {
    pub from: Sq,
    pub to: Sq,
    pub kind_before: u8,
    pub kind_after: u8,
    /// Number of landing squares in `path` (1 for a quiet move).
    pub path_len: u8,
    /// Squares captured, in the padded layout.
    pub captured: B,
    /// Landing squares after `from`, in order; the last is `to`.
    pub path: B::Route,
    /// A quiet move of a piece whose quiet moves in a row are limited: it counts in the run.
    pub run: bool,
    /// Under `huffing`, for a quiet move played while a capture was due: the number of the
    /// mover's pieces that could have captured, whose squares (after this move) follow the route
    /// in `path` (`path[path_len..path_len + due]`); they may be huffed next turn. A quiet move
    /// uses one square of its route, so the space is always there and costs the move nothing.
    pub due: u8,
    /// Flags, one bit each ([`Move::HUFFS`], [`Move::MARKED`], [`Move::WAYS`], [`Move::STACKS`], [`Move::DECLARES`], [`Move::ENDS_COMBAT`]): one byte for all, so that the move
    /// stays as small as it was before them (80 bytes in 64 bits): move lists are written at every
    /// node.
    pub flags: u8,
}

impl Move {
    pub fn quiet(from: Sq, to: Sq, kind_before: u8, kind_after: u8) -> Move {
        Move::<Bits>::quiet_of(from, to, kind_before, kind_after)
    }
}

impl<B: BitSet> Move<B> {
    /// A quiet move in any width.
    #[inline(always)]
    pub fn quiet_of(from: Sq, to: Sq, kind_before: u8, kind_after: u8) -> Move<B> {
        let mut path = B::ROUTE;
        path.as_mut()[0] = to;
        Move {
            from,
            to,
            kind_before,
            kind_after,
            path_len: 1,
            captured: B::ZERO,
            path,
            run: false,
            due: 0,
            flags: 0,
        }
    }

    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    pub fn route(&self) -> &[Sq] {
        &self.path.as_ref()[..self.path_len as usize]
    }

    pub fn captures(&self) -> u32 {
        self.captured.count()
    }

    /// The identity of a move (docs/notation.md): origin, destination, captured set and resulting
    /// piece, and the piece huffed before it.
    #[inline(always)]
    pub fn same_move(&self, other: &Move<B>) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.captured == other.captured
            && self.kind_after == other.kind_after
            && self.huff() == other.huff()
            && (self.flags ^ other.flags) & Self::DECLARES == 0
            && (self.flags & Self::DROPS == 0 || self.route() == other.route())
    }

    /// The same move but for the declaration of a single combat ([`Move::DECLARES`]).
    #[inline]
    pub fn same_but_declaration(&self, other: &Move<B>) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.captured == other.captured
            && self.kind_after == other.kind_after
            && self.huff() == other.huff()
    }

    /// Under `huffing`: an enemy piece is removed (huffed) before this move; its square follows
    /// the due squares in `path` (see [`Move::huff`]).
    pub const HUFFS: u8 = 1;
    /// A capture by approach or withdrawal whose route another legal move shares (one step could
    /// take either way): its text marks each step `A` (approach) or `W` (withdrawal). Set by the
    /// generator; not part of the move's identity.
    pub const MARKED: u8 = 2;

    /// A capture by approach or withdrawal kept apart from others of the same route and captured
    /// set (`--keep-duplicates`): the move records which way each of its steps took (see
    /// [`Move::way`]), so that it prints its own marks. Not part of the move's identity.
    pub const WAYS: u8 = 4;

    /// Under `take top` (stacks): every move of the variant; a capture records the columns it
    /// jumped behind its route ([`Move::jumps`]), and [`Position::play`](super::Position::play)
    /// moves columns. Not part of the move's identity.
    pub const STACKS: u8 = 8;

    /// Under `… may declare single combat`: the move declares the combat (a quiet move that
    /// brings the mover nearer to the lone enemy piece); part of the move's identity, the same
    /// move undeclared being another. Set by the generator ([`Rules::combat_moves`](super::Rules)).
    pub const DECLARES: u8 = 16;

    /// Under a declared single combat: a capture, which ends the combat (the position after it
    /// is no longer marked [`Position::COMBAT`](super::Position::COMBAT)). Set by the generator;
    /// not part of the move's identity.
    pub const ENDS_COMBAT: u8 = 32;

    /// The flags of a single combat: a move with either leaves the common path of
    /// [`Position::play`](super::Position::play).
    pub const COMBAT: u8 = Self::DECLARES | Self::ENDS_COMBAT;

    /// Whether the move declares a single combat.
    #[inline(always)]
    pub fn declares(&self) -> bool {
        self.flags & Self::DECLARES != 0
    }

    /// The bytes at the end of `path` that hold the ways of a route of `n` steps, one bit a step;
    /// `None` when they would not fit behind the route (and the square a huff may use).
    #[inline]
    fn ways_bytes(&self, n: usize) -> Option<usize> {
        let bytes = n.div_ceil(8);
        (self.path_len as usize + self.due as usize + 2 + bytes <= self.path.as_ref().len())
            .then_some(bytes)
    }

    /// Records `ways[i]` (1: withdrawal) as the way step `i` took, in the unused end of `path`
    /// (no larger move), and sets [`Move::WAYS`]; records nothing when they would not fit.
    pub fn set_ways(&mut self, ways: &[Sq]) {
        let Some(bytes) = self.ways_bytes(ways.len()) else {
            return;
        };
        let cap = self.path.as_ref().len();
        let path = self.path.as_mut();
        for j in 0..bytes {
            path[cap - 1 - j] = 0;
        }
        for (i, &w) in ways.iter().enumerate() {
            if w != 0 {
                path[cap - 1 - i / 8] |= 1 << (i % 8);
            }
        }
        self.flags |= Self::WAYS;
    }

    /// Under [`Move::WAYS`]: whether step `i` took by withdrawal (`Some(false)`: by approach);
    /// `None` for any other move.
    #[inline]
    pub fn way(&self, i: usize) -> Option<bool> {
        if self.flags & Self::WAYS == 0 || i >= self.path_len as usize {
            return None;
        }
        let cap = self.path.as_ref().len();
        Some(self.path.as_ref()[cap - 1 - i / 8] & (1 << (i % 8)) != 0)
    }

    /// See [`Move::MARKED`].
    #[inline]
    pub fn marked(&self) -> bool {
        self.flags & Self::MARKED != 0
    }

    /// See [`Move::MARKED`].
    pub fn set_marked(&mut self) {
        self.flags |= Self::MARKED;
    }

    /// Under `huffing`: the enemy piece removed (huffed) before this move, if any.
    #[inline]
    pub fn huff(&self) -> Option<Sq> {
        if self.flags & Self::HUFFS != 0 {
            Some(self.path.as_ref()[self.path_len as usize + self.due as usize])
        } else {
            None
        }
    }

    /// Mark the move as huffing the piece on `sq` (after its due squares are set). There is
    /// always room: the route, the due squares and the huffed piece are squares of distinct
    /// pieces and one landing, fewer than the route holds.
    pub fn set_huff(&mut self, sq: Sq) {
        let i = self.path_len as usize + self.due as usize;
        if let Some(slot) = self.path.as_mut().get_mut(i) {
            *slot = sq;
            self.flags |= Self::HUFFS;
        }
    }

    /// Under `huffing`: the squares of the mover's pieces that could have captured and did not
    /// (empty for any other move).
    pub fn due_squares(&self) -> &[Sq] {
        let n = self.path_len as usize;
        &self.path.as_ref()[n..n + self.due as usize]
    }
}

impl<B: BitSet> PartialEq for Move<B> {
    fn eq(&self, other: &Move<B>) -> bool {
        self.same_move(other) && self.route() == other.route()
    }
}

impl<B: BitSet> Eq for Move<B> {}

impl<B: BitSet> Move<B> {
    /// The same move in another bit-set width (the board must fit it).
    #[inline]
    pub fn to_width<C: BitSet>(&self) -> Move<C> {
        Move {
            from: self.from,
            to: self.to,
            kind_before: self.kind_before,
            kind_after: self.kind_after,
            path_len: self.path_len,
            captured: self.captured.to::<C>(),
            path: {
                // The route fits: both widths hold every capture the board allows.
                let mut p = C::ROUTE;
                let n = self.path_len as usize
                    + self.due as usize
                    + usize::from(self.flags & Self::HUFFS != 0)
                    + self.jumps().len();
                p.as_mut()[..n].copy_from_slice(&self.path.as_ref()[..n]);
                p
            },
            run: self.run,
            due: self.due,
            flags: self.flags,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Move;

    /// Move lists are written at every node: huffing's fields must not make a move bigger than it
    /// was before them (80 bytes in 64 bits, 160 in 128).
    #[test]
    fn a_move_is_as_small_as_before_huffing() {
        assert_eq!(std::mem::size_of::<Move<u64>>(), 80);
        assert_eq!(std::mem::size_of::<Move<u128>>(), 160);
    }

    /// A position of 64 bits is one cache line (huffing's set of pieces included), the
    /// columns' 24 bytes (`take top`) and the hands' 8 (pieces in hand): 96 bytes. Measured
    /// with callgrind on perft (international 6, Russian 8, `--threads 1`): 0.6% more
    /// instructions than at 64 bytes with the columns, 1.3% and 1.4% more again with the hands.
    #[test]
    fn a_position_is_a_cache_line_the_columns_and_the_hands() {
        assert_eq!(std::mem::size_of::<crate::engine::Position<u64>>(), 96);
    }
}
