//! Questions the search asks of a position that need less than the move list: whether the side to
//! move has a capture, and whether it has a quiet move. Both stop at the first answer.
//!
//! These mirror the generator's own first-capture test (`capture_candidates` in `movegen.rs`) and
//! quiet-move count (`count_quiet`), which are private to it; `tests/search.rs` checks them against
//! [`Rules::generate`] for every bundled variant.

use super::bits::{BitIter, BitSet};
use super::geometry::NONE;
use super::{Position, Rules};

impl<B: BitSet> Rules<B> {
    /// Whether the side to move in `pos` has a capture: exactly when [`Rules::generate`] lists a
    /// capture, except in a position a material rule decides (no moves at all). Short jumps are
    /// found for all pieces of a kind at once by bit-set steps, flying ones by one look along each
    /// ray.
    pub fn has_capture(&self, pos: &Position<B>) -> bool {
        let side = pos.turn();
        let occupied = pos.occupied();
        let empty = !occupied & self.playable;
        for kind in 0..self.kinds {
            let prog = &self.programs[side][kind];
            let pieces = pos.kind_bits(side, kind);
            if pieces.none() || !prog.can_capture() {
                continue;
            }
            let mut kinds = B::ZERO;
            for k in 0..self.kinds {
                if prog.takes & (1 << k) != 0 {
                    kinds |= pos.kinds[k];
                }
            }
            let capturable = pos.sides[1 - side] & kinds;
            if capturable.none() {
                continue;
            }
            for d in prog.jumps.iter() {
                if (self.step_back(self.step_back(empty, d) & capturable, d) & pieces).any() {
                    return true;
                }
            }
            if prog.flies.is_empty() {
                continue;
            }
            for sq in BitIter(pieces) {
                for d in prog.flies.iter() {
                    let hits = self.rays[sq as usize][d as usize] & occupied;
                    if hits.none() {
                        continue;
                    }
                    let t = if self.geo.delta[d as usize] > 0 {
                        hits.lowest()
                    } else {
                        hits.highest()
                    };
                    let dist = (self.rays[sq as usize][d as usize]
                        ^ self.rays[t as usize][d as usize])
                        .count();
                    if capturable.has(t) && dist <= prog.fly_reach as u32 {
                        let land = self.geo.next[d as usize][t as usize];
                        if land != NONE && !occupied.has(land) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the side to move in `pos`, which has no capture ([`Rules::has_capture`]), has a
    /// move: [`Rules::count_moves`] above zero, without counting. Steps and slides are tested for
    /// all pieces of a kind at once; a variant with leaps asks [`Rules::has_moves`].
    pub fn has_quiet(&self, pos: &Position<B>) -> bool {
        let side = pos.turn();
        let empty = !pos.occupied() & self.playable;
        let mut leaps = false;
        for kind in 0..self.kinds {
            let prog = &self.programs[side][kind];
            let mut pieces = pos.kind_bits(side, kind);
            if pieces.none() {
                continue;
            }
            if let Some((max, while_own)) = prog.quiet_limit {
                // The piece that has used up its run of quiet moves in a row stays, while the
                // side has a piece of the kinds the limit names.
                let run = pos.runs[side];
                let own = (0..self.kinds)
                    .any(|k| while_own & (1 << k) != 0 && pos.kind_bits(side, k).any());
                if run.count >= max && own {
                    pieces &= !B::bit(run.sq);
                }
            }
            for d in prog.steps.iter() {
                if (self.step(pieces, d) & empty).any() {
                    return true;
                }
            }
            if prog.slide_max > 0 {
                for d in prog.slides.iter() {
                    if (self.step(pieces, d) & empty).any() {
                        return true;
                    }
                }
            }
            leaps |= !prog.leaps.is_empty();
        }
        leaps && self.has_moves(pos)
    }
}
