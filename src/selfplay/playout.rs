//! What a random playout needs of the generator, and no more: the number of legal moves of a
//! position and the one move drawn among them, in the generator's order.
//!
//! [`Rules::generate`] builds every move; a playout uses one. [`Rules::count_moves`] counts quiet
//! moves with a few bit-set shifts (it builds only the captures, when there are any), and
//! [`Rules::nth_quiet`] walks the quiet moves in the generator's order to the one drawn, building
//! only that one. `tests/rules/playout.rs` checks for every bundled variant that this gives exactly the
//! moves `generate` lists.

use crate::engine::bits::BitSet;
use crate::engine::{GenOptions, Move, Position, Rules};

/// The legal moves of `pos` as a playout sees them: `count` moves, the first `buf.len()` of them
/// the captures now in `buf` (in the generator's order), the rest quiet moves
/// ([`Rules::nth_quiet`]).
#[inline]
pub fn count<B: BitSet>(rules: &Rules<B>, pos: &Position<B>, buf: &mut Vec<Move<B>>) -> usize {
    rules.count_moves(pos, buf, GenOptions::default()) as usize
}

/// Move `i` of the list [`Rules::generate`] gives for `pos`, after [`count`] left the captures in
/// `buf` (`i` below the count).
#[inline]
pub fn nth<B: BitSet>(rules: &Rules<B>, pos: &Position<B>, buf: &[Move<B>], i: usize) -> Move<B> {
    match buf.get(i) {
        Some(m) => *m,
        None => rules.nth_quiet(pos, i - buf.len()),
    }
}

pub use crate::engine::draws::move_count_draw;
