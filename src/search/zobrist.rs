//! Zobrist hashing of a [`Position`]: one random key per (side, kind, square), one for the side to
//! move, and a mix of the quiet-move runs. The only place that knows which fields a position has;
//! the keys are indexed by square, so a position hashes the same in every bit-set width.

use crate::engine::bits::{BitIter, BitSet};
use crate::engine::geometry::Bits;
use crate::engine::rules::MAX_KINDS;
use crate::engine::{Move, Position};

/// Squares a bit set can hold.
const SQUARES: usize = Bits::BITS as usize;

pub struct Keys {
    piece: [[[u64; SQUARES]; MAX_KINDS]; 2],
    turn: u64,
    /// A declared single combat ([`Position::in_combat`]).
    combat: u64,
}

/// SplitMix64: a fixed, well-mixed sequence for the keys (the same in every run and build).
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Keys {
    pub fn new() -> Keys {
        let mut s = 0x5EED_DA3E_1AB0_0001u64;
        let mut piece = [[[0u64; SQUARES]; MAX_KINDS]; 2];
        for side in piece.iter_mut() {
            for kind in side.iter_mut() {
                for k in kind.iter_mut() {
                    *k = splitmix(&mut s);
                }
            }
        }
        let turn = splitmix(&mut s);
        Keys {
            piece,
            turn,
            combat: splitmix(&mut s),
        }
    }

    #[inline(always)]
    fn runs<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let r = pos.runs;
        if (r[0].count | r[1].count) == 0 {
            return if pos.huff.none() { 0 } else { self.huff(pos) };
        }
        let mut s = (r[0].sq as u64) | (r[0].count as u64) << 8;
        s |= ((r[1].sq as u64) | (r[1].count as u64) << 8) << 16;
        let mut st = s ^ 0xA5A5_0000_0000_0000;
        splitmix(&mut st) ^ self.huff(pos)
    }

    /// The pieces open to a huff (huffing variants only), mixed like the runs: with the state
    /// that is not the placement.
    #[inline(never)]
    fn huff<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let mut h = 0;
        for sq in BitIter(pos.huff) {
            let mut st = (sq as u64) ^ 0x5A5A_0000_0000_0000;
            h ^= splitmix(&mut st);
        }
        h
    }

    /// The one key set of the process (the keys are fixed, so every user may share them).
    pub fn shared() -> &'static Keys {
        static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
        KEYS.get_or_init(Keys::new)
    }

    /// The hash of a position, computed from scratch.
    pub fn hash<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let mut h = if pos.turn() == 0 { 0 } else { self.turn };
        if pos.in_combat() {
            h ^= self.combat;
        }
        for side in 0..2 {
            for kind in 0..MAX_KINDS {
                for sq in BitIter(pos.kind_bits(side, kind)) {
                    h ^= self.piece[side][kind][sq as usize];
                }
            }
        }
        h ^ self.runs(pos) ^ self.columns(pos) ^ self.hands(pos)
    }

    /// The pieces in hand (a placement phase): one key per (side, kind, count), mixed like the
    /// runs (0 when no piece is in hand).
    fn hands<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let mut h = 0;
        for side in 0..2 {
            for (kind, &n) in pos.hand[side].iter().enumerate() {
                if n != 0 {
                    let mut st = (n as u64)
                        | (kind as u64) << 8
                        | (side as u64) << 16
                        | 0x6969_0000_0000_0000;
                    h ^= splitmix(&mut st);
                }
            }
        }
        h
    }

    /// Under `take top`, the pieces under the tops: one key per (square, depth, side, kind),
    /// mixed like the runs (0 in variants without stacks).
    fn columns<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let mut h = 0;
        for sq in pos.stacks.squares() {
            for (depth, (side, kind)) in pos.stacks.under(sq).enumerate() {
                let mut st = (sq as u64)
                    | (depth as u64) << 8
                    | (side as u64) << 16
                    | (kind as u64) << 24
                    | 0x3C3C_0000_0000_0000;
                h ^= splitmix(&mut st);
            }
        }
        h
    }

    /// [`Keys::after_placement`] of a move under `take top`, or of one that declares or ends a
    /// single combat: the child hashed from scratch (a jump changes the jumped column's top, not only
    /// the squares of the move; a declaration, or the capture that ends a combat, changes the state of the game).
    #[cold]
    #[inline(never)]
    fn after_stacks<B: BitSet>(&self, parent: &Position<B>, mv: &Move<B>) -> u64 {
        let child = parent.play(mv);
        self.hash(&child) ^ self.runs(&child)
    }

    /// The hash of `parent.play(mv)`, given the parent's hash and the child (copy-make).
    #[inline]
    pub fn after<B: BitSet>(
        &self,
        parent: &Position<B>,
        parent_hash: u64,
        mv: &Move<B>,
        child: &Position<B>,
    ) -> u64 {
        self.after_placement(parent, parent_hash, mv) ^ self.runs(child)
    }

    /// [`Keys::after`] from [`Keys::after_placement`]'s hash.
    #[inline(always)]
    pub fn with_runs<B: BitSet>(&self, placement_hash: u64, child: &Position<B>) -> u64 {
        placement_hash ^ self.runs(child)
    }

    /// [`Keys::after`] without the child's runs of quiet moves: the child's hash whenever it has
    /// none (in most variants, always), without playing the move. Good for a prefetch.
    #[inline(always)]
    pub fn after_placement<B: BitSet>(
        &self,
        parent: &Position<B>,
        parent_hash: u64,
        mv: &Move<B>,
    ) -> u64 {
        if mv.flags & (Move::<B>::STACKS | Move::<B>::COMBAT | Move::<B>::DROPS) != 0 {
            // A drop changes the hand too: hashed from scratch, as a move of columns.
            return self.after_stacks(parent, mv);
        }
        let me = parent.turn();
        let mut h = parent_hash ^ self.turn ^ self.runs(parent);
        h ^= self.piece[me][mv.kind_before as usize][mv.from as usize];
        for sq in BitIter(mv.captured & parent.sides[1 - me]) {
            h ^= self.piece[1 - me][parent.kind_at(sq)][sq as usize];
        }
        if let Some(sq) = mv.huff() {
            h ^= self.piece[1 - me][parent.kind_at(sq)][sq as usize];
        }
        h ^= self.piece[me][mv.kind_after as usize][mv.to as usize];
        h
    }
}

impl Default for Keys {
    fn default() -> Keys {
        Keys::new()
    }
}
