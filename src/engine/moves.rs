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
    /// Under `huffing`: the enemy piece removed (huffed) before this move, if any.
    pub huff: Option<Sq>,
    /// Under `huffing`, for a quiet move played while a capture was due: the number of the
    /// mover's pieces that could have captured, whose squares (after this move) follow the route
    /// in `path` (`path[path_len..path_len + due]`); they may be huffed next turn. A quiet move
    /// uses one square of its route, so the space is always there and costs the move nothing.
    pub due: u8,
    /// A capture by approach or withdrawal whose route another legal move shares (one step could
    /// take either way): its text marks each step `A` (approach) or `W` (withdrawal). Set by the
    /// generator; not part of the move's identity.
    pub marked: bool,
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
            huff: None,
            due: 0,
            marked: false,
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
            && self.huff == other.huff
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
                let n = self.path_len as usize + self.due as usize;
                p.as_mut()[..n].copy_from_slice(&self.path.as_ref()[..n]);
                p
            },
            run: self.run,
            huff: self.huff,
            due: self.due,
            marked: self.marked,
        }
    }
}
