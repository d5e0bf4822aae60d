//! The windows and squares of the learned evaluation kept up to date from one scored position to
//! the next, instead of counted again from every piece (issue 46).
//!
//! The search scores positions one after another that differ on a few squares: siblings (the two
//! moves' squares), a child after its parent, cousins. The state remembers the last position it
//! scored: each window's configuration index and the sum of the windows' weights and of the pieces'
//! square weights. Scoring the next position looks only at the squares whose piece changed: each
//! such square takes its old square weight out and puts the new one in, and each window holding
//! it swaps its old configuration's weight for the new one. When too many squares changed (a
//! position far from the last), everything is counted again. The sum is of the same integer
//! weights as the plain evaluation's, so every score is exactly the same.

use super::features::Features;
use super::MAX_WINDOWS;
use crate::engine::bits::{BitIter, BitSet};
use crate::engine::rules::MAX_KINDS;
use crate::engine::Position;

/// Past this many changed squares, counting everything again is cheaper than the changes.
const MOST_CHANGES: u32 = 12;

/// A piece-square feature's value: +1 for the first side's piece, −1 for the second's.
#[inline(always)]
fn sign(side: usize) -> i32 {
    1 - 2 * side as i32
}

/// The last position scored, its windows' indices and the sum of its windows' and squares'
/// weights (before the shift to the search's units).
#[derive(Clone, Debug)]
pub(super) struct Incremental<B: BitSet> {
    /// Whether `sides`, `kinds`, `idx` and `sum` describe a position.
    valid: bool,
    sides: [B; 2],
    kinds: [B; MAX_KINDS],
    idx: [u16; MAX_WINDOWS],
    sum: i32,
}

impl<B: BitSet> Incremental<B> {
    pub(super) fn new() -> Incremental<B> {
        Incremental {
            valid: false,
            sides: [B::ZERO; 2],
            kinds: [B::ZERO; MAX_KINDS],
            idx: [0; MAX_WINDOWS],
            sum: 0,
        }
    }

    /// The sum of the windows' and the pieces' square weights of `pos`, from the last position's.
    #[inline]
    pub(super) fn sum(&mut self, f: &Features<B>, w: &[i32], pos: &Position<B>) -> i32 {
        let mut changed = (self.sides[0] ^ pos.sides[0]) | (self.sides[1] ^ pos.sides[1]);
        for k in 0..f.kinds() {
            changed |= self.kinds[k] ^ pos.kinds[k];
        }
        if !self.valid || changed.count() > MOST_CHANGES {
            self.recount(f, w, pos);
        } else if changed.any() {
            self.update(f, w, pos, changed);
        }
        self.sum
    }

    /// Everything counted again from `pos`.
    fn recount(&mut self, f: &Features<B>, w: &[i32], pos: &Position<B>) {
        let l = &f.layout;
        let windows = l.windows.len();
        self.idx[..windows].fill(0);
        let mut sum = 0;
        for side in 0..2 {
            for kind in 0..f.kinds() {
                let pst = l.pst_of(side, kind);
                for sq in BitIter(pos.kind_bits(side, kind)) {
                    // The second side's pieces count −1, as in the plain evaluation.
                    sum += sign(side) * w[pst + sq as usize];
                    for &(win, mult) in f.members(sq) {
                        self.idx[win as usize] += mult * (side as u16 + 1);
                    }
                }
            }
        }
        for (&t, &i) in f.tables().iter().zip(&self.idx[..windows]) {
            sum += w[t as usize + i as usize];
        }
        self.remember(pos, sum);
    }

    /// The squares in `changed` replaced: their square weights, and their windows' weights.
    fn update(&mut self, f: &Features<B>, w: &[i32], pos: &Position<B>, changed: B) {
        let tables = f.tables();
        let state = |sides: &[B; 2], sq| {
            if sides[0].has(sq) {
                1i32
            } else if sides[1].has(sq) {
                2
            } else {
                0
            }
        };
        let old = Position {
            sides: self.sides,
            kinds: self.kinds,
            ..*pos
        };
        let mut sum = self.sum;
        for sq in BitIter(changed) {
            let square = |side: usize, kind: usize| {
                sign(side) * w[f.layout.pst_of(side, kind) + sq as usize]
            };
            if let Some((side, kind)) = old.at(sq) {
                sum -= square(side, kind);
            }
            if let Some((side, kind)) = pos.at(sq) {
                sum += square(side, kind);
            }
            let delta = state(&pos.sides, sq) - state(&self.sides, sq);
            if delta == 0 {
                continue;
            }
            for &(win, mult) in f.members(sq) {
                let (win, t) = (win as usize, tables[win as usize] as usize);
                let i = &mut self.idx[win];
                sum -= w[t + *i as usize];
                *i = (*i as i32 + delta * mult as i32) as u16;
                sum += w[t + *i as usize];
            }
        }
        self.remember(pos, sum);
    }

    fn remember(&mut self, pos: &Position<B>, sum: i32) {
        self.valid = true;
        self.sides = pos.sides;
        self.kinds = pos.kinds;
        self.sum = sum;
    }
}
