//! Drops (a placement phase), from their definition: a side to move that holds pieces in hand
//! places `min(per turn, pieces of the kind in hand, open squares)` pieces of one kind on a set
//! of empty playable squares not barred by `not on`; every set is one move. A drop is written
//! here with no origin nor destination (`DROP`), its squares as its route, in coordinate order.

use super::{Board, RefMove, C};
use damelab::engine::{Position, Rules};
use std::collections::BTreeSet;

/// The origin and destination of a drop in the reference's terms.
pub const DROP: C = (-1, -1);

/// The drops of `pos` when the side to move holds pieces in hand; `None` otherwise.
pub(super) fn drops(rules: &Rules, pos: &Position, board: &Board) -> Option<Vec<RefMove>> {
    let placement = rules.spec.placement.as_ref()?;
    let side = pos.turn();
    if pos.hand[side].iter().all(|&n| n == 0) {
        return None;
    }
    let b = &rules.spec.board;
    let mut open = Vec::new();
    for r in 0..b.height as i32 {
        for f in 0..b.width as i32 {
            let c = (f, r);
            let barred = placement
                .not_on
                .iter()
                .any(|&(x, y)| (x as i32, y as i32) == c);
            if board.playable(c) && !barred && !board.pieces.contains_key(&c) {
                open.push(c);
            }
        }
    }
    open.sort();
    let mut out = Vec::new();
    for (kind, &held) in pos.hand[side].iter().enumerate() {
        let k = (placement.per_turn as usize)
            .min(held as usize)
            .min(open.len());
        if k == 0 {
            continue;
        }
        for set in subsets(&open, k) {
            out.push(RefMove {
                from: DROP,
                to: DROP,
                captured: BTreeSet::new(),
                kind_after: kind as u8,
                route: set,
                order: Vec::new(),
                huff: None,
                due: BTreeSet::new(),
                declares: false,
            });
        }
    }
    Some(out)
}

/// Every subset of `k` of `items`, each in the items' order.
fn subsets(items: &[C], k: usize) -> Vec<Vec<C>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &c) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], k - 1) {
            rest.insert(0, c);
            out.push(rest);
        }
    }
    out
}
