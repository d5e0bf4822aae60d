//! Declared single combat, from its definition (`lone pieces of equal rank [below the highest]
//! may declare single combat`, docs/language.md): when each side has exactly one piece and the two
//! are of equal rank (with `below the highest`, below the variant's highest rank), the side to
//! move may declare a combat together with a quiet move that brings its piece nearer to the enemy
//! piece; that move declared is one more move beside the same move undeclared. Under a declared
//! combat a side moves by a capture or by a quiet move that comes nearer, and keeps all its
//! ordinary moves when it has neither.
//!
//! Nearer: the distance from a square to the enemy's square is the fewest quiet moves the mover's
//! piece (its side and kind) needs to stand there on an otherwise empty board, found here by a
//! breadth-first search over the board's points (a square that cannot reach it is farther than
//! any other); a quiet move comes nearer when it ends on a square of smaller distance than the one
//! it left.

use super::{Board, RefMove, C};
use damelab::engine::{Position, Rules};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The moves `out` (the rules' moves without the combat) as the combat rule shapes them in `pos`.
pub(super) fn shape(
    rules: &Rules,
    pos: &Position,
    board: &Board,
    mut out: Vec<RefMove>,
) -> Vec<RefMove> {
    let Some(rule) = rules.spec.game.combat else {
        return out;
    };
    let side = board.side;
    let lone = |s: usize| -> Vec<(C, u8)> {
        board
            .pieces
            .iter()
            .filter(|(_, &(x, _))| x == s)
            .map(|(&c, &(_, k))| (c, k))
            .collect()
    };
    let (mine, theirs) = (lone(side), lone(1 - side));
    let ([(_, my_kind)], [(enemy, their_kind)]) = (mine.as_slice(), theirs.as_slice()) else {
        return out;
    };
    let rank = |k: u8| board.spec.pieces[k as usize].rank;
    let highest = board.spec.pieces.iter().map(|p| p.rank).max().unwrap_or(0);
    let empty = Board {
        spec: board.spec,
        pieces: BTreeMap::new(),
        columns: BTreeMap::new(),
        side,
    };
    let nearer = |m: &RefMove| {
        m.captured.is_empty()
            && m.huff.is_none()
            && distance(&empty, m.to, *enemy, *my_kind) < distance(&empty, m.from, *enemy, *my_kind)
    };
    if pos.in_combat() {
        let kept: Vec<RefMove> = out
            .iter()
            .filter(|m| !m.captured.is_empty() || nearer(m))
            .cloned()
            .collect();
        if !kept.is_empty() {
            out = kept;
        }
        return out;
    }
    let equal = rank(*my_kind) == rank(*their_kind);
    if !equal || (rule.below_highest && rank(*my_kind) >= highest) {
        return out;
    }
    let declared: Vec<RefMove> = out
        .iter()
        .filter(|m| nearer(m))
        .map(|m| RefMove {
            declares: true,
            ..m.clone()
        })
        .collect();
    out.extend(declared);
    out
}

/// The fewest quiet moves a piece of `kind` of the side to move needs from `from` to `to` on the
/// empty board `empty`; `u32::MAX` when it cannot get there.
fn distance(empty: &Board, from: C, to: C, kind: u8) -> u32 {
    let mut seen = BTreeSet::from([from]);
    let mut queue = VecDeque::from([(from, 0u32)]);
    while let Some((c, d)) = queue.pop_front() {
        if c == to {
            return d;
        }
        for t in empty.quiet_targets(c, kind) {
            if seen.insert(t) {
                queue.push_back((t, d + 1));
            }
        }
    }
    u32::MAX
}
