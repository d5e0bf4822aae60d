//! A position: who stands where, and whose turn it is. Small and `Copy`: the generator plays a move
//! by copying (copy-make), which at this size is cheaper than make/unmake bookkeeping.

use super::bits::{BitIter, BitSet};
use super::geometry::{Bits, Sq};
use super::moves::Move;
use super::rules::MAX_KINDS;
use super::stacks::Stacks;
use crate::spec::MAX_MOVE_COUNT_RULES;

/// Generic over the width of its bit sets (see [`BitSet`]); `Position` alone is the `u128` one
/// every board fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B: BitSet = Bits> {
    /// Squares occupied by each side.
    pub sides: [B; 2],
    /// Squares occupied by each kind of piece, both sides together.
    pub kinds: [B; MAX_KINDS],
    /// The side to move (bit 0: 0 or 1), and under a declared single combat the bit
    /// [`Position::COMBAT`]; read the side with [`Position::turn`]. A move flips bit 0 only, so
    /// a combat once declared stays with the position, at no cost to variants without it.
    pub turn: u8,
    /// Per side, the run of quiet moves in a row of a piece whose quiet moves are limited
    /// (`at most N quiet moves in a row`); all zero in variants without the limit.
    pub runs: [Run; 2],
    /// Per move-count draw rule of the variant (in file order), the single moves played since its
    /// count last started again. Kept by [`Rules::play`](super::Rules::play) (games); perft and
    /// [`Position::play`] leave them as they are. Not part of the placement: see
    /// [`Position::same_placement`].
    pub counters: [u8; MAX_MOVE_COUNT_RULES],
    /// Under `huffing`: the pieces of the side not to move that could have captured on its last
    /// move and did not; the side to move may huff one of them with its move. Always empty in
    /// variants without huffing.
    pub huff: B,
    /// Under `take top`: the pieces under the columns' tops (`sides` and `kinds` hold the tops).
    /// Always empty in variants without stacks.
    pub stacks: Stacks,
    /// Per side, per kind, the pieces in hand (a placement phase, [`super::drops`]). All zero in
    /// variants without pieces in hand.
    pub hand: [[u8; MAX_KINDS]; 2],
}

/// A run of quiet moves in a row by one piece: where it stands now, and how many moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Run {
    pub sq: Sq,
    pub count: u8,
}

impl Position {
    pub fn empty(turn: usize) -> Position {
        Position::<Bits>::empty_of(turn)
    }
}

impl<B: BitSet> Position<B> {
    /// The bit of [`Position::turn`] that marks a declared single combat (`… may declare single
    /// combat`): from then on every quiet move must bring the mover nearer to the enemy piece.
    pub const COMBAT: u8 = 2;

    /// Whether a single combat has been declared.
    #[inline(always)]
    pub fn in_combat(&self) -> bool {
        self.turn & Self::COMBAT != 0
    }

    /// An empty board of any width.
    pub fn empty_of(turn: usize) -> Position<B> {
        Position {
            sides: [B::ZERO; 2],
            kinds: [B::ZERO; MAX_KINDS],
            turn: turn as u8,
            runs: [Run::default(); 2],
            counters: [0; MAX_MOVE_COUNT_RULES],
            huff: B::ZERO,
            stacks: Stacks::default(),
            hand: [[0; MAX_KINDS]; 2],
        }
    }

    /// The same position for repetition: the same pieces, side to move, runs of quiet moves and
    /// pieces open to a huff, whatever the move-count counters say.
    pub fn same_placement(&self, other: &Position<B>) -> bool {
        self.sides == other.sides
            && self.kinds == other.kinds
            && self.turn == other.turn
            && self.runs == other.runs
            && self.huff == other.huff
            && self.stacks == other.stacks
            && self.hand == other.hand
    }

    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.sides[0] | self.sides[1]
    }

    #[inline(always)]
    pub fn turn(&self) -> usize {
        (self.turn & 1) as usize
    }

    #[inline(always)]
    pub fn kind_bits(&self, side: usize, kind: usize) -> B {
        self.sides[side] & self.kinds[kind]
    }

    /// The (side, kind) on a square, if any.
    #[inline(always)]
    pub fn at(&self, sq: Sq) -> Option<(usize, usize)> {
        let side = if self.sides[0].has(sq) {
            0
        } else if self.sides[1].has(sq) {
            1
        } else {
            return None;
        };
        Some((side, self.kind_at(sq)))
    }

    /// The kind of the piece on an occupied square.
    #[inline(always)]
    pub fn kind_at(&self, sq: Sq) -> usize {
        let mut k = 0;
        while k < MAX_KINDS - 1 && !self.kinds[k].has(sq) {
            k += 1;
        }
        k
    }

    pub fn put(&mut self, sq: Sq, side: usize, kind: usize) {
        self.clear(sq);
        self.sides[side] |= B::bit(sq);
        self.kinds[kind] |= B::bit(sq);
    }

    pub fn clear(&mut self, sq: Sq) {
        let m = !B::bit(sq);
        self.sides[0] &= m;
        self.sides[1] &= m;
        for k in &mut self.kinds {
            *k &= m;
        }
    }

    /// Every piece of a side, as (square, kind).
    pub fn pieces(&self, side: usize) -> impl Iterator<Item = (Sq, usize)> + '_ {
        BitIter(self.sides[side]).map(move |sq| (sq, self.kind_at(sq)))
    }

    /// The position after `mv` (which must be legal here).
    #[inline(always)]
    pub fn play(&self, mv: &Move<B>) -> Position<B> {
        // One test of the two huffing fields and the stacks' flag, which no other variant sets:
        // their work is out of line, and the common path builds the position with nothing more
        // to read or test.
        if (mv.due
            | (mv.flags
                & (Move::<B>::HUFFS | Move::<B>::STACKS | Move::<B>::COMBAT | Move::<B>::DROPS)))
            != 0
        {
            if mv.flags & Move::<B>::STACKS != 0 {
                return self.play_stacks(mv);
            }
            if mv.flags & Move::<B>::DROPS != 0 {
                return self.play_drop(mv);
            }
            if mv.flags & Move::<B>::COMBAT != 0 {
                return self.play_combat(mv);
            }
            return self.play_huffing(mv);
        }
        self.play_plain(mv)
    }

    /// [`Position::play`] in rules without huffing, whose moves never huff nor leave a huff due:
    /// for loops that tested the rules once (perft).
    #[inline(always)]
    fn play_plain(&self, mv: &Move<B>) -> Position<B> {
        debug_assert!(
            mv.due == 0
                && mv.flags
                    & (Move::<B>::HUFFS | Move::<B>::STACKS | Move::<B>::COMBAT | Move::<B>::DROPS)
                    == 0
        );
        self.play_with(mv, mv.captured, B::ZERO)
    }

    /// [`Position::play`], or with `SPECIAL` false [`Position::play_plain`]: for loops that
    /// tested [`Rules::special`](super::Rules) once.
    #[inline(always)]
    pub(super) fn play_as<const SPECIAL: bool>(&self, mv: &Move<B>) -> Position<B> {
        if SPECIAL {
            self.play(mv)
        } else {
            self.play_plain(mv)
        }
    }

    /// [`Position::play`] of a move that declares a single combat, or ends one by a capture.
    #[cold]
    #[inline(never)]
    fn play_combat(&self, mv: &Move<B>) -> Position<B> {
        let mut p = self.play_with(mv, mv.captured, B::ZERO);
        if mv.flags & Move::<B>::DECLARES != 0 {
            p.turn |= Self::COMBAT;
        } else {
            p.turn &= !Self::COMBAT;
        }
        p
    }

    /// [`Position::play`] of a move that huffs a piece or leaves pieces open to a huff.
    #[cold]
    #[inline(never)]
    fn play_huffing(&self, mv: &Move<B>) -> Position<B> {
        // A huffed piece leaves the board with the captured ones (it is the enemy's too).
        let cap = match mv.huff() {
            None => mv.captured,
            Some(h) => mv.captured | B::bit(h),
        };
        let huff = mv
            .due_squares()
            .iter()
            .fold(B::ZERO, |h, &sq| h | B::bit(sq));
        self.play_with(mv, cap, huff)
    }

    /// The position after `mv`, taking the pieces of `cap` and leaving those of `huff` open to a
    /// huff.
    #[inline(always)]
    pub(super) fn play_with(&self, mv: &Move<B>, cap: B, huff: B) -> Position<B> {
        let me = (self.turn & 1) as usize;
        let from = B::bit(mv.from);
        let to = B::bit(mv.to);
        // The new position is built whole, every set in registers: writing fields into a copy of
        // `self` and then returning the copy makes the processor wait for the small stores to
        // reach the wide loads.
        let (mine, theirs) = if me == 0 {
            (self.sides[0], self.sides[1])
        } else {
            (self.sides[1], self.sides[0])
        };
        // The mover may land on a square it captured from (only under immediate removal): the
        // captured mask never removes the mover itself.
        let mine = (mine & !from) | to;
        let theirs = theirs & !cap;
        // Each kind's set computed on its own, with no indexed store: a wide read of a set just
        // written in part would wait for the store.
        let kinds = std::array::from_fn(|k| {
            let mut x = self.kinds[k] & !cap;
            if k == mv.kind_before as usize {
                x &= !from;
            }
            if k == mv.kind_after as usize {
                x |= to;
            }
            x
        });
        let mut runs = self.runs;
        if (mv.run as u8 | runs[0].count | runs[1].count) != 0 {
            let r = &mut runs[me];
            *r = if !mv.run {
                Run::default()
            } else if r.count != 0 && r.sq == mv.from {
                Run {
                    sq: mv.to,
                    count: r.count.saturating_add(1),
                }
            } else {
                Run {
                    sq: mv.to,
                    count: 1,
                }
            };
            let o = &mut runs[1 - me];
            if o.count != 0 && mv.captured.has(o.sq) {
                *o = Run::default();
            }
        }
        Position {
            sides: if me == 0 {
                [mine, theirs]
            } else {
                [theirs, mine]
            },
            kinds,
            turn: self.turn ^ 1,
            runs,
            counters: self.counters,
            huff,
            stacks: self.stacks,
            hand: self.hand,
        }
    }
}

impl<B: BitSet> Position<B> {
    /// The same position in another bit-set width (the board must fit it).
    pub fn to_width<C: BitSet>(&self) -> Position<C> {
        Position {
            sides: self.sides.map(|b| b.to::<C>()),
            kinds: self.kinds.map(|b| b.to::<C>()),
            turn: self.turn,
            runs: self.runs,
            counters: self.counters,
            huff: self.huff.to::<C>(),
            stacks: self.stacks,
            hand: self.hand,
        }
    }
}
