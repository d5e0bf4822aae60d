//! Bit sets of squares, one bit a square, in the width a board needs.
//!
//! The generator, positions and moves are generic over [`BitSet`]: a board whose layout fits 64
//! indices runs on `u64`, others on `u128` (see [`Rules`](super::Rules) for which width a variant
//! gets). Every operation the generator needs is here, so each width compiles to its own machine
//! code with no run-time choice in the inner loops.

use super::geometry::Sq;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// A capture route's landing squares (and the kinds it takes), one entry per capture: room
    /// for as many captures as the width has squares.
    type Route: Copy + Debug + Send + Sync + 'static + AsRef<[Sq]> + AsMut<[Sq]>;
    /// An empty route.
    const ROUTE: Self::Route;

    /// The empty set.
    const ZERO: Self;
    /// How many squares the set can hold.
    const BITS: u32;

    /// The set of one square.
    fn bit(sq: Sq) -> Self;
    /// Whether the set has no square.
    fn none(self) -> bool;
    /// Whether the set has a square.
    #[inline(always)]
    fn any(self) -> bool {
        !self.none()
    }
    /// The number of squares.
    fn count(self) -> u32;
    /// The lowest square (the set must not be empty).
    fn lowest(self) -> Sq;
    /// The highest square (the set must not be empty).
    fn highest(self) -> Sq;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// Every square moved by `delta` index places; squares pushed out of range vanish.
    fn shift(self, delta: i16) -> Self;
    /// [`BitSet::shift`] where the caller keeps only squares whose step stays on the board: the
    /// squares that would leave the range may come back at the other end (a rotation, one
    /// instruction on the primitive widths). Exact for [`Rules::step`](super::Rules::step) and
    /// [`Rules::step_back`](super::Rules::step_back), which mask by the squares that have a
    /// neighbour that way: a step is the same index difference everywhere, so a square that
    /// came round is never one of them.
    #[inline(always)]
    fn shift_wrapping(self, delta: i16) -> Self {
        self.shift(delta)
    }
    /// The set from a `u128` (the squares must fit).
    fn from_u128(bits: u128) -> Self;
    /// The set as a `u128` (the squares must fit).
    fn to_u128(self) -> u128;
    /// The set as (high, low) halves of 256 bits: any width, any square.
    #[inline(always)]
    fn halves(self) -> (u128, u128) {
        (0, self.to_u128())
    }
    /// The set from 256 bits (the squares must fit).
    #[inline(always)]
    fn from_halves(hi: u128, lo: u128) -> Self {
        debug_assert!(hi == 0, "squares out of range");
        Self::from_u128(lo)
    }
    /// The same squares in another width (they must fit).
    #[inline(always)]
    fn to<C: BitSet>(self) -> C {
        let (hi, lo) = self.halves();
        C::from_halves(hi, lo)
    }
    /// Whether the set has exactly one square (no population count).
    #[inline(always)]
    fn is_single(self) -> bool {
        self.any() && self.without_lowest().none()
    }
    /// Whether the set holds `sq`.
    #[inline(always)]
    fn has(self, sq: Sq) -> bool {
        (self & Self::bit(sq)).any()
    }
}

macro_rules! prim_bitset {
    ($t:ty) => {
        impl BitSet for $t {
            type Route = [Sq; <$t>::BITS as usize];
            const ROUTE: Self::Route = [0; <$t>::BITS as usize];
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;

            #[inline(always)]
            fn bit(sq: Sq) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn none(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> Sq {
                self.trailing_zeros() as Sq
            }
            #[inline(always)]
            fn highest(self) -> Sq {
                (<$t>::BITS - 1 - self.leading_zeros()) as Sq
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn shift(self, delta: i16) -> Self {
                if delta >= 0 {
                    self << delta as u32
                } else {
                    self >> (-delta) as u32
                }
            }
            #[inline(always)]
            fn shift_wrapping(self, delta: i16) -> Self {
                self.rotate_left(delta as i32 as u32 & (<$t>::BITS - 1))
            }
            #[inline(always)]
            fn from_u128(bits: u128) -> Self {
                debug_assert!(bits >> (Self::BITS - 1) >> 1 == 0, "squares out of range");
                bits as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

prim_bitset!(u64);
prim_bitset!(u128);

/// A 256-square set, for the boards a `u128` cannot hold (up to 16x16): two `u128` halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct U256 {
    pub hi: u128,
    pub lo: u128,
}

macro_rules! u256_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl std::ops::$tr for U256 {
            type Output = U256;
            #[inline(always)]
            fn $f(self, o: U256) -> U256 {
                U256 { hi: self.hi $op o.hi, lo: self.lo $op o.lo }
            }
        }
        impl std::ops::$tra for U256 {
            #[inline(always)]
            fn $fa(&mut self, o: U256) {
                self.hi = self.hi $op o.hi;
                self.lo = self.lo $op o.lo;
            }
        }
    };
}
u256_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
u256_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
u256_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        U256 {
            hi: !self.hi,
            lo: !self.lo,
        }
    }
}

impl BitSet for U256 {
    // 256 squares: a capture takes at most every piece but the capturing one, 255.
    type Route = [Sq; 255];
    const ROUTE: Self::Route = [0; 255];
    const ZERO: Self = U256 { hi: 0, lo: 0 };
    const BITS: u32 = 256;

    #[inline(always)]
    fn bit(sq: Sq) -> Self {
        if sq < 128 {
            U256 { hi: 0, lo: 1 << sq }
        } else {
            U256 {
                hi: 1 << (sq - 128),
                lo: 0,
            }
        }
    }
    #[inline(always)]
    fn none(self) -> bool {
        (self.hi | self.lo) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.hi.count_ones() + self.lo.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> Sq {
        if self.lo != 0 {
            self.lo.trailing_zeros() as Sq
        } else {
            (128 + self.hi.trailing_zeros()) as Sq
        }
    }
    #[inline(always)]
    fn highest(self) -> Sq {
        if self.hi != 0 {
            (255 - self.hi.leading_zeros()) as Sq
        } else {
            (127 - self.lo.leading_zeros()) as Sq
        }
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        if self.lo != 0 {
            U256 {
                hi: self.hi,
                lo: self.lo & (self.lo - 1),
            }
        } else {
            U256 {
                hi: self.hi & self.hi.wrapping_sub(1),
                lo: 0,
            }
        }
    }
    #[inline(always)]
    fn shift(self, delta: i16) -> Self {
        // Steps are at most a rank and a file: never a whole half.
        let k = delta.unsigned_abs() as u32;
        if k == 0 {
            self
        } else if k >= 128 {
            if delta > 0 {
                U256 {
                    hi: self.lo << (k - 128),
                    lo: 0,
                }
            } else {
                U256 {
                    hi: 0,
                    lo: self.hi >> (k - 128),
                }
            }
        } else if delta > 0 {
            U256 {
                hi: (self.hi << k) | (self.lo >> (128 - k)),
                lo: self.lo << k,
            }
        } else {
            U256 {
                hi: self.hi >> k,
                lo: (self.lo >> k) | (self.hi << (128 - k)),
            }
        }
    }
    #[inline(always)]
    fn from_u128(bits: u128) -> Self {
        U256 { hi: 0, lo: bits }
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        debug_assert!(self.hi == 0, "squares out of range");
        self.lo
    }
    #[inline(always)]
    fn halves(self) -> (u128, u128) {
        (self.hi, self.lo)
    }
    #[inline(always)]
    fn from_halves(hi: u128, lo: u128) -> Self {
        U256 { hi, lo }
    }
}

/// Iterate the squares of a bit set, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter<B>(pub B);

impl<B: BitSet> Iterator for BitIter<B> {
    type Item = Sq;
    #[inline(always)]
    fn next(&mut self) -> Option<Sq> {
        if self.0.none() {
            return None;
        }
        let sq = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<B: BitSet>() {
        let sqs = [0u8, 1, 5, 30, (B::BITS - 1) as u8];
        let mut set = B::ZERO;
        for &s in &sqs {
            set |= B::bit(s);
        }
        assert_eq!(set.count(), sqs.len() as u32);
        assert_eq!(BitIter(set).collect::<Vec<_>>(), sqs);
        let (hi, lo) = set.halves();
        assert_eq!(B::from_halves(hi, lo), set);
        assert_eq!(B::bit(3).shift(2), B::bit(5));
        assert_eq!(B::bit(5).shift(-2), B::bit(3));
        assert!(B::bit(0).shift(-1).none());
        assert!(set.has(30) && !set.has(31));
        assert_eq!(set.highest(), sqs[sqs.len() - 1]);
        assert_eq!(B::bit(7).highest(), 7);
    }

    #[test]
    fn every_width_holds_its_squares() {
        roundtrip::<u64>();
        roundtrip::<u128>();
        roundtrip::<U256>();
    }

    #[test]
    fn wide_shifts_cross_the_halves() {
        let b = U256::bit(120);
        assert_eq!(b.shift(17), U256::bit(137));
        assert_eq!(U256::bit(137).shift(-17), b);
        assert_eq!(
            U256::bit(254).shift(1),
            U256::ZERO.shift(0) | U256::bit(255)
        );
        assert!(U256::bit(255).shift(1).none());
        let mut it = BitIter(U256::bit(3) | U256::bit(200));
        assert_eq!(
            (it.next(), it.next(), it.next()),
            (Some(3), Some(200), None)
        );
    }
}
