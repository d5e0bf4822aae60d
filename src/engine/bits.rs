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
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// Every square moved by `delta` index places; squares pushed out of range vanish.
    fn shift(self, delta: i16) -> Self;
    /// The set from a `u128` (the squares must fit).
    fn from_u128(bits: u128) -> Self;
    /// The set as a `u128`.
    fn to_u128(self) -> u128;
    /// Whether the set holds `sq`.
    #[inline(always)]
    fn has(self, sq: Sq) -> bool {
        (self & Self::bit(sq)).any()
    }
}

macro_rules! prim_bitset {
    ($t:ty) => {
        impl BitSet for $t {
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
        assert_eq!(B::from_u128(set.to_u128()), set);
        assert_eq!(B::bit(3).shift(2), B::bit(5));
        assert_eq!(B::bit(5).shift(-2), B::bit(3));
        assert!(B::bit(0).shift(-1).none());
        assert!(set.has(30) && !set.has(31));
    }

    #[test]
    fn every_width_holds_its_squares() {
        roundtrip::<u64>();
        roundtrip::<u128>();
    }
}
