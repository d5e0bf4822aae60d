//! A position: who stands where, and whose turn it is. Small and `Copy`: the generator plays a move
//! by copying (copy-make), which at this size is cheaper than make/unmake bookkeeping.

use super::geometry::{bit, BitIter, Bits, Sq};
use super::moves::Move;
use super::rules::MAX_KINDS;
use crate::spec::MAX_MOVE_COUNT_RULES;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Squares occupied by each side.
    pub sides: [Bits; 2],
    /// Squares occupied by each kind of piece, both sides together.
    pub kinds: [Bits; MAX_KINDS],
    /// The side to move (0 or 1).
    pub turn: u8,
    /// Per side, the run of quiet moves in a row of a piece whose quiet moves are limited
    /// (`at most N quiet moves in a row`); all zero in variants without the limit.
    pub runs: [Run; 2],
    /// Per move-count draw rule of the variant (in file order), the single moves played since its
    /// count last started again. Kept by [`Rules::play`](super::Rules::play) (games); perft and
    /// [`Position::play`] leave them as they are. Not part of the placement: see
    /// [`Position::same_placement`].
    pub counters: [u8; MAX_MOVE_COUNT_RULES],
}

/// A run of quiet moves in a row by one piece: where it stands now, and how many moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Run {
    pub sq: Sq,
    pub count: u8,
}

impl Position {
    pub fn empty(turn: usize) -> Position {
        Position {
            sides: [0; 2],
            kinds: [0; MAX_KINDS],
            turn: turn as u8,
            runs: [Run::default(); 2],
            counters: [0; MAX_MOVE_COUNT_RULES],
        }
    }

    /// The same position for repetition: the same pieces, side to move and runs of quiet moves,
    /// whatever the move-count counters say.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.sides == other.sides
            && self.kinds == other.kinds
            && self.turn == other.turn
            && self.runs == other.runs
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bits {
        self.sides[0] | self.sides[1]
    }

    #[inline(always)]
    pub fn turn(&self) -> usize {
        self.turn as usize
    }

    #[inline(always)]
    pub fn kind_bits(&self, side: usize, kind: usize) -> Bits {
        self.sides[side] & self.kinds[kind]
    }

    /// The (side, kind) on a square, if any.
    #[inline(always)]
    pub fn at(&self, sq: Sq) -> Option<(usize, usize)> {
        let b = bit(sq);
        let side = if self.sides[0] & b != 0 {
            0
        } else if self.sides[1] & b != 0 {
            1
        } else {
            return None;
        };
        Some((side, self.kind_at(sq)))
    }

    /// The kind of the piece on an occupied square.
    #[inline(always)]
    pub fn kind_at(&self, sq: Sq) -> usize {
        let b = bit(sq);
        let mut k = 0;
        while k < MAX_KINDS - 1 && self.kinds[k] & b == 0 {
            k += 1;
        }
        k
    }

    pub fn put(&mut self, sq: Sq, side: usize, kind: usize) {
        self.clear(sq);
        self.sides[side] |= bit(sq);
        self.kinds[kind] |= bit(sq);
    }

    pub fn clear(&mut self, sq: Sq) {
        let m = !bit(sq);
        self.sides[0] &= m;
        self.sides[1] &= m;
        for k in &mut self.kinds {
            *k &= m;
        }
    }

    /// Every piece of a side, as (square, kind).
    pub fn pieces(&self, side: usize) -> impl Iterator<Item = (Sq, usize)> + '_ {
        BitIter(self.sides[side]).map(move |sq| (sq, self.kind_at(sq)))
    }

    /// The position after `mv` (which must be legal here).
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        let mut p = *self;
        let me = p.turn as usize;
        let from = bit(mv.from);
        let to = bit(mv.to);
        p.sides[me] = (p.sides[me] & !from) | to;
        p.kinds[mv.kind_before as usize] &= !from;
        p.kinds[mv.kind_after as usize] |= to;
        if mv.captured != 0 {
            let keep = !mv.captured;
            p.sides[1 - me] &= keep;
            for k in &mut p.kinds {
                *k &= keep;
            }
            // The mover may land on a square it captured from only under immediate removal; the
            // mask above must not have removed it.
            p.sides[me] |= to;
            p.kinds[mv.kind_after as usize] |= to;
        }
        if (mv.run as u8 | p.runs[0].count | p.runs[1].count) != 0 {
            let r = &mut p.runs[me];
            *r = if !mv.run {
                Run::default()
            } else if r.count != 0 && r.sq == mv.from {
                Run {
                    sq: mv.to,
                    count: r.count.saturating_add(1),
                }
            } else {
                Run {
                    sq: mv.to,
                    count: 1,
                }
            };
            let o = &mut p.runs[1 - me];
            if o.count != 0 && mv.captured & bit(o.sq) != 0 {
                *o = Run::default();
            }
        }
        p.turn ^= 1;
        p
    }
}
