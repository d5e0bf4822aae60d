//! What a random playout needs of the generator, and no more: the number of legal moves of a
//! position and the one move drawn among them, in the generator's order.
//!
//! [`Rules::generate`] builds every move; a playout uses one. [`Rules::count_moves`] counts quiet
//! moves with a few bit-set shifts (it builds only the captures, when there are any), and
//! [`nth_quiet`] walks the quiet moves in the generator's order to the one drawn, building only
//! that one. The generator's order is the contract: `tests/playout.rs` checks for every bundled
//! variant that `nth_quiet` gives exactly the moves `generate` lists after its captures.
//!
//! (This belongs in the generator, next to `generate_quiet`, as a `Rules::nth_move`; it lives here
//! only while the generator is being changed elsewhere.)

use crate::engine::bits::{BitIter, BitSet};
use crate::engine::geometry::{Sq, NONE};
use crate::engine::rules::LeapOp;
use crate::engine::{GenOptions, Move, Position, Rules};

/// The legal moves of `pos` as a playout sees them: `count` moves, the first `buf.len()` of them
/// the captures now in `buf` (in the generator's order), the rest quiet moves ([`nth_quiet`]).
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
        None => nth_quiet(rules, pos, i - buf.len()),
    }
}

/// Quiet move `k` of the side to move, in the generator's order: kind by kind, square by square
/// (lowest first), then steps, slides (nearest landing first) and leaps in program order.
pub fn nth_quiet<B: BitSet>(rules: &Rules<B>, pos: &Position<B>, mut k: usize) -> Move<B> {
    let next = &rules.geo.next;
    let empty = !pos.occupied();
    let side = pos.turn();
    for kind in 0..rules.kinds {
        let prog = &rules.programs[side][kind];
        let target = |from: Sq, to: Sq| {
            let after = prog.promotion_at(to).unwrap_or(kind as u8);
            let mut mv = Move::quiet_of(from, to, kind as u8, after);
            mv.run = prog.quiet_limit.is_some();
            mv
        };
        let movers = quiet_movers(rules, pos, side, kind);
        if prog.slides.is_empty() && prog.leaps.is_empty() {
            // Steps only (men): per direction, the pieces that can step that way, found with one
            // bit-set shift each; a kind with too few moves is passed over whole.
            let open = empty & rules.playable;
            let mut can = [B::ZERO; 8];
            let mut any = B::ZERO;
            let mut total = 0;
            for (i, d) in prog.steps.iter().enumerate() {
                can[i] = rules.step_back(open, d) & movers;
                any |= can[i];
                total += can[i].count() as usize;
            }
            if k >= total {
                k -= total;
                continue;
            }
            for sq in BitIter(any) {
                for (i, d) in prog.steps.iter().enumerate() {
                    if can[i].has(sq) {
                        if k == 0 {
                            return target(sq, next[d as usize][sq as usize]);
                        }
                        k -= 1;
                    }
                }
            }
            unreachable!("the count of the kind's moves covers k");
        }
        for sq in BitIter(movers) {
            for d in prog.steps.iter() {
                let t = next[d as usize][sq as usize];
                if t != NONE && empty.has(t) {
                    if k == 0 {
                        return target(sq, t);
                    }
                    k -= 1;
                }
            }
            for d in prog.slides.iter() {
                let mut t = next[d as usize][sq as usize];
                let mut left = prog.slide_max;
                while t != NONE && left > 0 && empty.has(t) {
                    if k == 0 {
                        return target(sq, t);
                    }
                    k -= 1;
                    t = next[d as usize][t as usize];
                    left -= 1;
                }
            }
            for leap in &prog.leaps {
                if let Some(t) = leap_target(rules, pos, side, sq, leap) {
                    if k == 0 {
                        return target(sq, t);
                    }
                    k -= 1;
                }
            }
        }
    }
    panic!("nth_quiet: fewer quiet moves than asked for");
}

/// The pieces of `kind` that may make a quiet move (the generator's `quiet_movers`).
#[inline(always)]
fn quiet_movers<B: BitSet>(rules: &Rules<B>, pos: &Position<B>, side: usize, kind: usize) -> B {
    let pieces = pos.kind_bits(side, kind);
    match rules.programs[side][kind].quiet_limit {
        Some((max, while_own)) => {
            let run = pos.runs[side];
            let has_own =
                (0..rules.kinds).any(|k| while_own & (1 << k) != 0 && pos.kind_bits(side, k).any());
            if run.count >= max && has_own {
                pieces & !B::bit(run.sq)
            } else {
                pieces
            }
        }
        None => pieces,
    }
}

/// Where a leap over a file of own pieces lands (the generator's `leap_target`).
#[inline(always)]
fn leap_target<B: BitSet>(
    rules: &Rules<B>,
    pos: &Position<B>,
    side: usize,
    from: Sq,
    leap: &LeapOp,
) -> Option<Sq> {
    let next = &rules.geo.next[leap.dir as usize];
    let mut file_bits = B::ZERO;
    for k in 0..rules.kinds {
        if leap.over & (1 << k) != 0 {
            file_bits |= pos.kind_bits(side, k);
        }
    }
    let mut t = next[from as usize];
    let mut len = 0u8;
    while t != NONE && file_bits.has(t) {
        len += 1;
        t = next[t as usize];
    }
    (len > 0 && len <= leap.max && t != NONE && !pos.occupied().has(t)).then_some(t)
}

/// Whether a move-count draw rule of the variant is reached in `pos`, automatic or claimable
/// (`move_count_reached(pos, false) || move_count_reached(pos, true)` in one pass, the counter
/// compared before the material).
#[inline]
pub fn move_count_draw<B: BitSet>(rules: &Rules<B>, pos: &Position<B>) -> bool {
    rules
        .spec
        .game
        .move_count_draws
        .iter()
        .enumerate()
        .any(|(i, r)| {
            pos.counters[i] as u16 >= r.plies()
                && r.material
                    .as_ref()
                    .is_none_or(|m| rules.material_holds(m, pos))
        })
}
