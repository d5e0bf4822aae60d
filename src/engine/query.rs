//! Questions the search asks of a position that need less than the move list: whether the side to
//! move has a capture (or the other side would have one: a threat), and whether it has a quiet
//! move (which stops at the first one found).
//!
//! They use the generator's own first-capture test and the pieces its quiet-move count moves;
//! `tests/engine/search.rs` checks them against [`Rules::generate`] for every bundled variant.

use super::bits::BitSet;
use super::rules::MAX_KINDS;
use super::{Position, Rules};

impl<B: BitSet> Rules<B> {
    /// Whether the side to move in `pos` has a capture: exactly when [`Rules::generate`] lists a
    /// capture, except in a position a material rule decides (no moves at all). Short jumps are
    /// found for all pieces of a kind at once by bit-set steps, flying ones by one look along each
    /// ray.
    pub fn has_capture(&self, pos: &Position<B>) -> bool {
        // A side still placing pieces drops them: it captures nothing.
        if self.drops.active && pos.holds(pos.turn()) {
            return false;
        }
        self.can_capture(pos, pos.turn())
    }

    /// Whether the side not to move in `pos` would have a capture if it were its turn: a threat
    /// the side to move has to answer (the test of [`Rules::has_capture`], for the other side).
    pub fn threatened(&self, pos: &Position<B>) -> bool {
        if self.drops.active && pos.holds(1 - pos.turn()) {
            return false;
        }
        self.can_capture(pos, 1 - pos.turn())
    }

    #[inline]
    fn can_capture(&self, pos: &Position<B>, side: usize) -> bool {
        let mut cand = [B::ZERO; MAX_KINDS];
        if self.approach {
            return self.step_candidates(pos, side, &mut cand);
        }
        self.capture_candidates(pos, side, &mut cand)
    }

    /// Whether the side to move in `pos`, which has no capture ([`Rules::has_capture`]), has a
    /// move: [`Rules::count_moves`] above zero, without counting. Steps and slides are tested for
    /// all pieces of a kind at once; a variant with leaps asks [`Rules::has_moves`].
    pub fn has_quiet(&self, pos: &Position<B>) -> bool {
        if self.drops.active && pos.holds(pos.turn()) {
            return self.drop_count(pos) > 0;
        }
        let side = pos.turn();
        let empty = !pos.occupied() & self.playable;
        let mut leaps = false;
        for kind in 0..self.kinds {
            let prog = &self.programs[side][kind];
            let pieces = self.quiet_movers(pos, side, kind);
            if pieces.none() {
                continue;
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
