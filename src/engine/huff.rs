//! Huffing (`captures: … huffing`): a capture that was due and not taken lets the opponent remove
//! one of the pieces that could have captured, together with its own move.
//!
//! Under huffing a player who has a capture may still move quietly: capturing is due, not forced.
//! Such a quiet move records, in the move (see [`Move::due`]), the squares of the mover's pieces
//! that could have captured (the piece that moved counted on its new square); playing it puts
//! them in [`Position::huff`]. The opponent's legal moves are then its moves in the position as it
//! stands (declining the huff) and, for each piece X open to a huff, its moves in the position
//! without X, each marked as huffing X ([`Move::huff`]): the huff is no move of its own, it comes
//! with one. Only the next move may huff: every move sets the record afresh.
//!
//! The generator takes this path once per position when the rules file asks for huffing
//! ([`Rules::huffing`]); no other variant pays for it. Its entry points are out of line (`#[cold]`,
//! never inlined), so that the generator's own entry points inline as they did before huffing. Bulk counting is not used here: the moves
//! are built and counted.

use super::bits::{BitIter, BitSet};
use super::movegen::{GenOptions, TooManyRoutes};
use super::moves::Move;
use super::position::Position;
use super::rules::{Rules, MAX_KINDS};

impl<B: BitSet> Rules<B> {
    /// Every legal move of `pos` under huffing (the caller has cleared `out` and checked the
    /// material rules): first the moves that huff nothing, captures first, then those that huff
    /// each piece open to it in turn (lowest square first).
    #[cold]
    #[inline(never)]
    pub(super) fn huff_moves(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        let mut base = *pos;
        base.huff = B::ZERO;
        let r = self.huff_plain(&base, out, opts, budget).and_then(|()| {
            for x in BitIter(pos.huff & pos.sides[1 - pos.turn()]) {
                let mut without = base;
                without.clear(x);
                let start = out.len();
                self.huff_plain(&without, out, opts, budget)?;
                for m in &mut out[start..] {
                    m.set_huff(x);
                }
            }
            Ok(())
        });
        if r.is_err() {
            out.clear();
        }
        r
    }

    /// The moves of `pos` ignoring any huff: the captures, then every quiet move (legal under
    /// huffing even when a capture is due, and then marked with the pieces that could have
    /// captured).
    fn huff_plain(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        let side = pos.turn();
        let start = out.len();
        let mut cand = [B::ZERO; MAX_KINDS];
        if self.capture_candidates(pos, side, &mut cand) {
            self.capture_search(pos, side, &cand, out, opts, budget, false)?;
        }
        let quiet = out.len();
        if self.huff_smaller {
            mark_smaller(&mut out[start..quiet]);
        }
        self.generate_quiet(pos, side, out);
        if quiet == start {
            return Ok(());
        }
        // The pieces that could have captured: those with a legal capture (under the priority).
        let due = out[start..quiet]
            .iter()
            .fold(B::ZERO, |d, m| d | B::bit(m.from));
        for m in &mut out[quiet..] {
            let mut n = m.path_len as usize;
            let path = m.path.as_mut();
            for sq in BitIter(due) {
                path[n] = if sq == m.from { m.to } else { sq };
                n += 1;
            }
            m.due = (n - m.path_len as usize) as u8;
        }
        Ok(())
    }
}

/// `huffing of smaller captures`: each capture that takes fewer pieces than the most of
/// `captures` leaves the piece that made it, on its landing square, open to a huff.
fn mark_smaller<B: BitSet>(captures: &mut [Move<B>]) {
    let most = captures.iter().map(Move::captures).max().unwrap_or(0);
    for m in captures.iter_mut().filter(|m| m.captures() < most) {
        let n = m.path_len as usize;
        if let Some(slot) = m.path.as_mut().get_mut(n) {
            *slot = m.to;
            m.due = 1;
        }
    }
}

impl<B: BitSet> Rules<B> {
    /// [`Rules::has_moves`] under huffing: a move that declines the huff, or one after some huff
    /// (removing a piece may free a square).
    #[cold]
    #[inline(never)]
    pub(super) fn huff_has_moves(&self, pos: &Position<B>) -> bool {
        let side = pos.turn();
        let any = |p: &Position<B>| {
            let mut cand = [B::ZERO; MAX_KINDS];
            self.capture_candidates(p, side, &mut cand) || self.count_quiet(p, side) > 0
        };
        any(pos)
            || BitIter(pos.huff & pos.sides[1 - side]).any(|x| {
                let mut without = *pos;
                without.clear(x);
                any(&without)
            })
    }

    /// [`Rules::count_moves_within`] under huffing: the whole list is built; `buf` keeps its
    /// leading captures (those that huff nothing), as the callers expect, and the rest is reached
    /// through [`Rules::nth_quiet`].
    #[cold]
    #[inline(never)]
    pub(super) fn huff_count(
        &self,
        pos: &Position<B>,
        buf: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<u64, TooManyRoutes> {
        self.huff_moves(pos, buf, opts, budget)?;
        let n = buf.len() as u64;
        let captures = buf
            .iter()
            .take_while(|m| m.is_capture() && m.huff().is_none())
            .count();
        buf.truncate(captures);
        Ok(n)
    }

    /// [`Rules::nth_quiet`] under huffing: move `k` after the leading captures of the list.
    #[cold]
    #[inline(never)]
    pub(super) fn huff_nth_quiet(&self, pos: &Position<B>, k: usize) -> Move<B> {
        let mut all = Vec::new();
        // Within the budget the callers' count was made with: no budget here either.
        let _ = self.huff_moves(pos, &mut all, GenOptions::default(), u64::MAX);
        all.iter()
            .skip_while(|m| m.is_capture() && m.huff().is_none())
            .nth(k)
            .copied()
            .expect("nth_quiet: k is below the count of moves after the captures")
    }
}
