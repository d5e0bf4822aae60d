//! A placement phase: pieces in hand, placed on the board before they move (`setup white man 12
//! in hand`, `placement: 2 pieces a turn, not on c3`; Mraha wa Bwe of the Comoros).
//!
//! The position counts each side's pieces in hand per kind ([`Position::hand`]). A side to move
//! that holds pieces in hand places them instead of moving: a drop puts `min(per turn, pieces of
//! that kind in hand, empty squares open to a drop)` pieces of one kind on empty squares not
//! barred (`not on`); every set of that many squares is one drop (a set, not an order: no two
//! drops place the same pieces on the same squares). A side moves once its hand is empty. During
//! a drop nothing is captured, and the counts of empty squares and of pieces in hand fall
//! together, so a drop always finds its squares (the checker makes the start hold them all).
//!
//! A drop is a [`Move`] flagged [`Move::DROPS`]: its route holds the squares, in ascending
//! order (`from` the first, `to` the last), its kind the pieces placed. Variants without pieces
//! in hand never see one: the rules' `special` flag (tested once per position) routes drops here,
//! and [`Position::play`] tests the flag with those of huffing and stacks, in one test.

use super::bits::{BitIter, BitSet};
use super::geometry::Sq;
use super::moves::Move;
use super::position::{Position, Run};
use super::rules::{Rules, MAX_KINDS};
use crate::spec::VariantSpec;

/// The placement rules, compiled.
#[derive(Clone, Debug)]
pub struct DropRules<B: BitSet> {
    /// Some piece starts in hand: the generator tests the side to move's hand.
    pub active: bool,
    /// The pieces one drop places (at most).
    pub per_turn: u8,
    /// The squares a drop may use (the playable squares less those `not on`).
    pub squares: B,
}

impl<B: BitSet> DropRules<B> {
    /// From the spec: the squares open to a drop, given the board's playable squares.
    pub fn compile(spec: &VariantSpec, geo: &super::Geometry, playable: B) -> DropRules<B> {
        let Some(p) = &spec.placement else {
            return DropRules {
                active: false,
                per_turn: 0,
                squares: B::ZERO,
            };
        };
        let mut barred = B::ZERO;
        for &c in &p.not_on {
            if let Some(sq) = geo.square(c) {
                barred |= B::bit(sq);
            }
        }
        DropRules {
            active: true,
            per_turn: p.per_turn.max(1),
            squares: playable & !barred,
        }
    }

    /// Put the spec's hands into a start position.
    pub fn fill_hands(spec: &VariantSpec, start: &mut Position<B>) {
        if let Some(p) = &spec.placement {
            for side in 0..2 {
                for (k, &n) in p.hand[side].iter().enumerate().take(MAX_KINDS) {
                    start.hand[side][k] = n;
                }
            }
        }
    }
}

impl<B: BitSet> Position<B> {
    /// Whether `side` holds any piece in hand.
    #[inline]
    pub fn holds(&self, side: usize) -> bool {
        self.hand[side].iter().any(|&n| n != 0)
    }

    /// The pieces `side` holds in hand, all kinds together.
    pub fn in_hand(&self, side: usize) -> u32 {
        self.hand[side].iter().map(|&n| n as u32).sum()
    }

    /// [`Position::play`] of a drop: the pieces go on the board, out of the hand.
    #[cold]
    #[inline(never)]
    pub(super) fn play_drop(&self, mv: &Move<B>) -> Position<B> {
        let me = self.turn();
        let kind = mv.kind_after as usize;
        let mut p = *self;
        for &sq in mv.route() {
            p.put(sq, me, kind);
        }
        p.hand[me][kind] = p.hand[me][kind].saturating_sub(mv.path_len);
        p.runs[me] = Run::default();
        p.huff = B::ZERO;
        p.turn ^= 1;
        p
    }
}

impl<B: BitSet> Move<B> {
    /// A placement: the squares of a drop in its route (see [`crate::engine::drops`]). Not part
    /// of the identity by itself: the route is (see [`Move::same_move`]).
    pub const DROPS: u8 = 64;

    /// Whether the move places pieces from hand.
    #[inline]
    pub fn is_drop(&self) -> bool {
        self.flags & Self::DROPS != 0
    }

    /// A drop of pieces of `kind` on `squares` (ascending, at least one).
    pub fn drop_of(kind: u8, squares: &[Sq]) -> Move<B> {
        let mut path = B::ROUTE;
        let n = squares.len().min(path.as_ref().len());
        path.as_mut()[..n].copy_from_slice(&squares[..n]);
        Move {
            from: squares.first().copied().unwrap_or(0),
            to: squares.get(n.saturating_sub(1)).copied().unwrap_or(0),
            kind_before: kind,
            kind_after: kind,
            path_len: n as u8,
            captured: B::ZERO,
            path,
            run: false,
            due: 0,
            flags: Self::DROPS,
        }
    }
}

/// The number of sets of `k` among `n` (saturating).
fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k) as u64;
    let mut c: u64 = 1;
    for i in 0..k {
        c = c.saturating_mul(n as u64 - i) / (i + 1);
    }
    c
}

impl<B: BitSet> Rules<B> {
    /// Whether the side to move places pieces (it holds some in hand, in a variant with them).
    #[inline(always)]
    pub fn placing(&self, pos: &Position<B>) -> bool {
        self.drops.active && pos.holds(pos.turn())
    }

    /// The empty squares open to a drop, and per kind the number of pieces a drop of it places.
    fn drop_shape(&self, pos: &Position<B>) -> (B, [u32; MAX_KINDS]) {
        let open = self.drops.squares & !pos.occupied();
        let free = open.count();
        let side = pos.turn();
        let sizes = std::array::from_fn(|k| {
            (self.drops.per_turn as u32)
                .min(pos.hand[side][k] as u32)
                .min(free)
        });
        (open, sizes)
    }

    /// Every drop of the side to move, appended to `out`: kind by kind, the sets of squares in
    /// lexicographic order of their ascending squares.
    #[cold]
    #[inline(never)]
    pub(super) fn drop_moves(&self, pos: &Position<B>, out: &mut Vec<Move<B>>) {
        let (open, sizes) = self.drop_shape(pos);
        let squares: Vec<Sq> = BitIter(open).collect();
        for (kind, &k) in sizes.iter().enumerate().take(self.kinds) {
            if k == 0 {
                continue;
            }
            let k = k as usize;
            // The indices of the chosen squares, advanced like an odometer.
            let mut idx: Vec<usize> = (0..k).collect();
            let mut chosen = vec![0 as Sq; k];
            loop {
                for (c, &i) in chosen.iter_mut().zip(&idx) {
                    *c = squares[i];
                }
                out.push(Move::drop_of(kind as u8, &chosen));
                let Some(j) = (0..k).rev().find(|&j| idx[j] < squares.len() - k + j) else {
                    break;
                };
                idx[j] += 1;
                for m in j + 1..k {
                    idx[m] = idx[m - 1] + 1;
                }
            }
        }
    }

    /// The number of drops of the side to move (without listing them).
    #[cold]
    #[inline(never)]
    pub(super) fn drop_count(&self, pos: &Position<B>) -> u64 {
        let (open, sizes) = self.drop_shape(pos);
        let free = open.count();
        sizes
            .iter()
            .take(self.kinds)
            .filter(|&&k| k > 0)
            .map(|&k| choose(free, k))
            .sum()
    }

    /// Drop `k` of the side to move, in [`Rules::drop_moves`]' order (`k` below their number).
    #[cold]
    #[inline(never)]
    pub(super) fn nth_drop(&self, pos: &Position<B>, mut k: usize) -> Move<B> {
        let (open, sizes) = self.drop_shape(pos);
        let squares: Vec<Sq> = BitIter(open).collect();
        let free = squares.len() as u32;
        for (kind, &size) in sizes.iter().enumerate().take(self.kinds) {
            if size == 0 {
                continue;
            }
            let total = choose(free, size) as usize;
            if k >= total {
                k -= total;
                continue;
            }
            // The k-th set in lexicographic order, square by square.
            let mut chosen = Vec::with_capacity(size as usize);
            let mut start = 0usize;
            for left in (1..=size).rev() {
                let mut i = start;
                loop {
                    let after = choose(free - i as u32 - 1, left - 1) as usize;
                    if k < after {
                        break;
                    }
                    k -= after;
                    i += 1;
                }
                chosen.push(squares[i]);
                start = i + 1;
            }
            return Move::drop_of(kind as u8, &chosen);
        }
        // Out of range: the first drop (callers keep `k` below the count).
        let mut out = Vec::new();
        self.drop_moves(pos, &mut out);
        out.first()
            .copied()
            .unwrap_or_else(|| Move::drop_of(0, &[]))
    }
}

#[cfg(test)]
mod tests {
    use super::choose;

    #[test]
    fn sets_of_squares_are_counted() {
        assert_eq!(choose(24, 2), 276);
        assert_eq!(choose(22, 2), 231);
        assert_eq!(choose(5, 0), 1);
        assert_eq!(choose(2, 3), 0);
        assert_eq!(choose(10, 9), 10);
    }
}
