//! Declared single combat (`lone pieces of equal rank [below the highest] may declare single
//! combat`). When each side has exactly one piece left and the two are of one rank (below the
//! highest, if the file says so), the side to move may declare a combat together with a quiet move
//! that brings its piece nearer to the enemy piece ([`Move::DECLARES`]); the position then keeps
//! the declaration ([`Position::COMBAT`]). Under a declared combat every quiet move must bring the
//! mover nearer to the enemy piece; captures are as usual. When the mover has neither a capture
//! nor a quiet move that comes nearer, its ordinary moves stand (the combat cannot leave it
//! without a move that the rules would give it).
//!
//! **Nearer** is measured on the board's graph of quiet moves: the distance from a square to the
//! enemy's square is the fewest quiet moves the mover's piece (its side and kind) would need to
//! stand there on an otherwise empty board (a slide of any length is one move). A quiet move
//! from `a` to `b` comes nearer when the distance from `b` is smaller than from `a`. The distances
//! are computed once, when the rules are compiled, by a breadth-first search from every square;
//! a square from which the enemy's cannot be reached is farther than any other.
//!
//! Variants without the rule pay nothing: the rules without it never leave the common path for
//! it, and the declaration lives in a spare bit of the position's turn.

use super::bits::{BitIter, BitSet};
use super::geometry::Sq;
use super::movegen::{GenOptions, TooManyRoutes};
use super::moves::Move;
use super::position::Position;
use super::rules::{Rules, MAX_KINDS};
use crate::spec::combat::CombatSpec;
use std::collections::VecDeque;
use std::sync::Arc;

/// A distance for a square from which the target cannot be reached.
const FAR: u8 = u8::MAX;

/// The compiled rule: the file's wording, the kinds' ranks, and the distances.
#[derive(Clone, Debug)]
pub struct Combat {
    pub spec: CombatSpec,
    /// Each kind's rank.
    ranks: [u8; MAX_KINDS],
    /// The highest rank of the variant.
    highest: u8,
    /// The number of layout indices the table covers (the highest playable index, plus one).
    n: usize,
    /// `dist[((side * MAX_KINDS + kind) * n + from) * n + to]`: the fewest quiet moves of that
    /// piece from `from` to `to` on an empty board, [`FAR`] when it cannot get there.
    dist: Vec<u8>,
}

impl Combat {
    fn new<B: BitSet>(rules: &Rules<B>, spec: CombatSpec) -> Combat {
        let mut ranks = [0; MAX_KINDS];
        for (k, p) in rules.spec.pieces.iter().enumerate().take(MAX_KINDS) {
            ranks[k] = p.rank;
        }
        let highest = rules.spec.pieces.iter().map(|p| p.rank).max().unwrap_or(0);
        let n = if rules.playable.any() {
            rules.playable.highest() as usize + 1
        } else {
            0
        };
        let mut dist = vec![FAR; 2 * MAX_KINDS * n * n];
        let mut moves = Vec::new();
        for side in 0..2 {
            for kind in 0..rules.kinds {
                // The quiet moves of a lone piece from each square: the graph's edges.
                let mut edges: Vec<Vec<Sq>> = vec![Vec::new(); n];
                for from in BitIter(rules.playable) {
                    let mut pos = Position::<B>::empty_of(side);
                    pos.put(from, side, kind);
                    moves.clear();
                    rules.generate_quiet(&pos, side, &mut moves);
                    edges[from as usize] = moves.iter().map(|m| m.to).collect();
                }
                let table = &mut dist[(side * MAX_KINDS + kind) * n * n..][..n * n];
                for from in BitIter(rules.playable) {
                    bfs(&edges, from, &mut table[from as usize * n..][..n]);
                }
            }
        }
        Combat {
            spec,
            ranks,
            highest,
            n,
            dist,
        }
    }

    /// The fewest quiet moves of `side`'s piece of `kind` from `from` to `to` on an empty board
    /// ([`u8::MAX`] when it cannot get there).
    #[inline]
    pub fn distance(&self, side: usize, kind: usize, from: Sq, to: Sq) -> u8 {
        let (f, t) = (from as usize, to as usize);
        if f >= self.n || t >= self.n {
            return FAR;
        }
        self.dist[((side * MAX_KINDS + kind) * self.n + f) * self.n + t]
    }
}

/// Breadth-first distances from `from` along `edges`, written into `row` (indexed by square).
fn bfs(edges: &[Vec<Sq>], from: Sq, row: &mut [u8]) {
    let mut queue = VecDeque::from([from]);
    row[from as usize] = 0;
    while let Some(sq) = queue.pop_front() {
        let d = row[sq as usize];
        for &t in &edges[sq as usize] {
            if row[t as usize] == FAR && d < FAR - 1 {
                row[t as usize] = d + 1;
                queue.push_back(t);
            }
        }
    }
}

impl<B: BitSet> Rules<B> {
    /// The rules with their combat's tables, when the file has the rule.
    pub(super) fn with_combat(mut self) -> Rules<B> {
        if let Some(spec) = self.spec.game.combat {
            self.combat = Some(Arc::new(Combat::new(&self, spec)));
        }
        self
    }

    /// When each side has exactly one piece: the mover's square and kind, the enemy's square and
    /// kind.
    #[inline]
    pub fn lone_pieces(&self, pos: &Position<B>) -> Option<(Sq, usize, Sq, usize)> {
        if pos.sides[0].count() != 1 || pos.sides[1].count() != 1 {
            return None;
        }
        let me = pos.turn();
        let (s, e) = (pos.sides[me].lowest(), pos.sides[1 - me].lowest());
        Some((s, pos.kind_at(s), e, pos.kind_at(e)))
    }

    /// Whether the side to move may declare a single combat in `pos` (none declared yet, one
    /// piece each, of ranks the rule allows).
    pub fn may_declare(&self, pos: &Position<B>) -> bool {
        let Some(c) = &self.combat else {
            return false;
        };
        !pos.in_combat()
            && self
                .lone_pieces(pos)
                .is_some_and(|(_, k, _, j)| c.spec.allows(c.ranks[k], c.ranks[j], c.highest))
    }

    /// Whether the combat rule shapes the moves of `pos`: a combat declared, or one the side to
    /// move may declare.
    #[inline]
    pub(super) fn combat_governs(&self, pos: &Position<B>) -> bool {
        self.combat.is_some() && (pos.in_combat() || self.may_declare(pos))
    }

    /// Whether the quiet move `mv` brings the mover nearer to the lone enemy piece (false for a
    /// capture, or when the sides do not have one piece each).
    pub fn approaches(&self, pos: &Position<B>, mv: &Move<B>) -> bool {
        let (Some(c), Some((_, _, e, _))) = (&self.combat, self.lone_pieces(pos)) else {
            return false;
        };
        let (side, kind) = (pos.turn(), mv.kind_before as usize);
        !mv.is_capture() && c.distance(side, kind, mv.to, e) < c.distance(side, kind, mv.from, e)
    }

    /// The legal moves of `pos` where the combat rule shapes them
    /// ([`Rules::combat_governs`]): under a declared combat the captures and the quiet moves
    /// that come nearer (all the moves when there is none of either); where one may be declared,
    /// every move, and besides each quiet move that comes nearer once more, declaring it.
    #[cold]
    #[inline(never)]
    pub(super) fn combat_moves(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        self.generate_as::<false>(pos, out, opts, budget)?;
        if pos.in_combat() {
            let keep = |m: &Move<B>| m.is_capture() || self.approaches(pos, m);
            if out.iter().any(keep) {
                out.retain(keep);
            }
            for m in out.iter_mut().filter(|m| m.is_capture()) {
                m.flags |= Move::<B>::ENDS_COMBAT;
            }
        } else {
            for i in 0..out.len() {
                if self.approaches(pos, &out[i]) {
                    let mut m = out[i];
                    m.flags |= Move::<B>::DECLARES;
                    out.push(m);
                }
            }
        }
        Ok(())
    }

    /// [`Rules::nth_quiet`] where the combat rule shapes the moves: quiet move `k` of
    /// [`Rules::combat_moves`]' list.
    #[cold]
    pub(super) fn combat_nth_quiet(&self, pos: &Position<B>, k: usize) -> Move<B> {
        let mut out = Vec::new();
        // A position with one piece a side: its capture search is short.
        let _ = self.combat_moves(pos, &mut out, GenOptions::default(), u64::MAX);
        *out.iter()
            .filter(|m| !m.is_capture())
            .nth(k)
            .expect("k is below the number of quiet moves")
    }
}
