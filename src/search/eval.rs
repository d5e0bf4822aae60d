//! A generic evaluation, derived from the compiled rules alone (no variant names):
//!
//! - **material**: a piece's `value` from the rules file when the file gives values (any kind with a
//!   value other than 1), in hundredths; otherwise derived from the piece's reach on an empty board:
//!   the mean number of squares its quiet moves and captures can go to from a square, relative to
//!   the first kind's, as `100 × (1 + (ratio − 1) / 2)`, capped at 500, and never below a kind that
//!   promotes to it;
//! - **advancement**: a piece that promotes gains `ADVANCE` per rank it has travelled toward the
//!   nearest square of its promotion zone;
//! - **mobility**: `MOBILITY` per empty square a piece's step or slide directions reach in one step
//!   (a cheap, allocation-free stand-in for the number of quiet moves).
//!
//! Both material and advancement live in one piece-square table per (side, kind, square), so the
//! evaluation is a handful of bit-set loops. Where the aim is reversed (`no moves wins`) the score
//! turns its sign: a side wants to be rid of its pieces and its moves.

use crate::engine::bits::BitSet;
use crate::engine::geometry::{bit, BitIter, Bits, Sq, NONE};
use crate::engine::rules::MAX_KINDS;
use crate::engine::{Position, Rules};
use crate::search::learned::Learned;

/// Score units per rank of advancement toward the promotion zone.
pub const ADVANCE: i32 = 4;
/// Score units per empty neighbouring square in a piece's quiet directions.
pub const MOBILITY: i32 = 2;

const SQUARES: usize = Bits::BITS as usize;

/// Generic over the bit-set width of the positions it scores (see [`BitSet`]); the tables are the
/// same in every width, so a position scores the same in each.
pub struct Eval<B: BitSet = Bits> {
    /// `table[side][kind][sq]`: material plus advancement.
    table: Box<[[[i32; SQUARES]; MAX_KINDS]; 2]>,
    /// Per side and kind, the bit-set deltas of its one-step quiet directions.
    /// (bit-set delta, squares that have a neighbour that way) per direction.
    dirs: [[[(i16, B); 8]; MAX_KINDS]; 2],
    ndirs: [[u8; MAX_KINDS]; 2],
    kinds: usize,
    playable: B,
    /// The material value of each kind (hundredths of the first kind, when derived).
    pub values: Vec<i32>,
    /// Whether the values come from the rules file (`true`) or were derived.
    pub from_rules: bool,
    /// 1, or -1 where the aim is reversed (`no moves wins`): there material, advancement and
    /// mobility are what a side wants to lose.
    sign: i32,
    /// A learned evaluation that replaces this one, when weights are loaded
    /// ([`Eval::set_learned`]).
    learned: Option<Box<Learned<B>>>,
}

/// Squares a piece of this program reaches from `sq` on an otherwise empty board.
fn reach<B: BitSet>(rules: &Rules<B>, side: usize, kind: usize, sq: Sq) -> u32 {
    let p = &rules.programs[side][kind];
    let geo = &rules.geo;
    let mut set = Bits::ZERO;
    let ray = |d: u8, long: bool, set: &mut Bits| {
        let mut s = geo.next[d as usize][sq as usize];
        while s != NONE {
            *set |= bit(s as Sq);
            if !long {
                break;
            }
            s = geo.next[d as usize][s as usize];
        }
    };
    for d in p.steps.iter() {
        ray(d, false, &mut set);
    }
    for d in p.slides.iter().chain(p.flies.iter()) {
        ray(d, true, &mut set);
    }
    for d in p.jumps.iter() {
        let s = geo.next[d as usize][sq as usize];
        if s != NONE && geo.next[d as usize][s as usize] != NONE {
            set |= bit(geo.next[d as usize][s as usize] as Sq);
        }
    }
    // A jump at a fixed gap lands three squares away: the gap, the piece taken, the landing.
    for d in p.gaps.iter() {
        let line = &geo.next[d as usize];
        let mut s = sq as usize;
        for _ in 0..3 {
            s = line[s] as usize;
            if s == NONE as usize {
                break;
            }
        }
        if s != NONE as usize {
            set |= bit(s as Sq);
        }
    }
    set.count()
}

impl<B: BitSet> Eval<B> {
    pub fn new(rules: &Rules<B>) -> Eval<B> {
        let kinds = rules.kinds;
        let geo = &rules.geo;
        let from_rules = rules.spec.pieces.iter().any(|p| p.value != 1);
        let mut values: Vec<i32> = if from_rules {
            rules
                .spec
                .pieces
                .iter()
                .map(|p| p.value as i32 * 100)
                .collect()
        } else {
            let squares = BitIter(geo.playable).count().max(1) as f64;
            let mean: Vec<f64> = (0..kinds)
                .map(|k| {
                    BitIter(geo.playable)
                        .map(|sq| reach(rules, 0, k, sq) as f64)
                        .sum::<f64>()
                        / squares
                })
                .collect();
            let base = mean[0].max(0.5);
            mean.iter()
                .map(|m| {
                    let ratio = (m / base).max(1.0);
                    ((100.0 * (1.0 + (ratio - 1.0) / 2.0)).round() as i32).min(500)
                })
                .collect()
        };
        if !from_rules {
            // A promotion never loses value: the piece promoted to is worth at least the promoter.
            for _ in 0..kinds {
                for k in 0..kinds {
                    for &(to, _) in &rules.programs[0][k].promotions {
                        values[to as usize] = values[to as usize].max(values[k]);
                    }
                }
            }
        }
        let mut table = Box::new([[[0i32; SQUARES]; MAX_KINDS]; 2]);
        let mut dirs = [[[(0i16, B::ZERO); 8]; MAX_KINDS]; 2];
        let mut ndirs = [[0u8; MAX_KINDS]; 2];
        for side in 0..2 {
            for kind in 0..kinds {
                let p = &rules.programs[side][kind];
                let zone: Bits = p
                    .promotions
                    .iter()
                    .fold(Bits::ZERO, |z, &(_, b)| z | b.to::<Bits>());
                for sq in BitIter(geo.playable) {
                    let mut v = values[kind];
                    if zone.any() {
                        let (_, r) = geo.coord(sq);
                        let dist = BitIter(zone)
                            .map(|z| (geo.coord(z).1 as i32 - r as i32).abs())
                            .min()
                            .unwrap_or(0);
                        v += ADVANCE * (geo.height as i32 - 1 - dist).max(0);
                    }
                    table[side][kind][sq as usize] = v;
                }
                for d in p.steps.iter().chain(p.slides.iter()) {
                    if (ndirs[side][kind] as usize) < 8 {
                        dirs[side][kind][ndirs[side][kind] as usize] =
                            (geo.delta[d as usize], rules.from[d as usize]);
                        ndirs[side][kind] += 1;
                    }
                }
            }
        }
        Eval {
            table,
            dirs,
            ndirs,
            kinds,
            playable: rules.playable,
            values,
            from_rules,
            sign: if rules.spec.game.no_moves_wins { -1 } else { 1 },
            learned: None,
        }
    }

    /// Score with a learned evaluation instead (`None`: the derived one again).
    pub fn set_learned(&mut self, learned: Option<Learned<B>>) {
        self.learned = learned.map(Box::new);
    }

    /// Whether a learned evaluation is in use.
    pub fn is_learned(&self) -> bool {
        self.learned.is_some()
    }

    /// The piece-square value (material plus advancement) of a kind of a side on a square.
    pub fn table_value(&self, side: usize, kind: usize, sq: Sq) -> i32 {
        self.table[side][kind][sq as usize]
    }

    /// The derived score of `pos` for the side to move, whatever is loaded.
    #[inline]
    pub fn derived(&self, pos: &Position<B>) -> i32 {
        self.evaluate_derived(pos)
    }

    /// The score of `pos` for the side to move (positive: better for it).
    #[inline]
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        match &self.learned {
            Some(l) => l.evaluate(pos),
            None => self.evaluate_derived(pos),
        }
    }

    /// Under `take top`, what the columns hold: a piece under a top of its own side is a reserve
    /// (three quarters of its value to that side: it tops the column again if the top is taken);
    /// an enemy prisoner is half its value to the side on top (it stays out of play while the
    /// column is not taken, and goes back to its side when it is).
    #[cold]
    #[inline(never)]
    fn columns(&self, pos: &Position<B>, score: &mut [i32; 2]) {
        for sq in pos.stacks.squares() {
            let Some((top, _)) = pos.at(sq) else {
                continue;
            };
            for (side, kind) in pos.stacks.under(sq) {
                let v = self.values.get(kind).copied().unwrap_or(100);
                score[top] += if side == top { v * 3 / 4 } else { v / 2 };
            }
        }
    }

    /// [`Eval::evaluate`], the same score; a learned evaluation counts only what changed since
    /// the last position this scored (the search scores its positions this way).
    #[inline]
    pub fn evaluate_mut(&mut self, pos: &Position<B>) -> i32 {
        match &mut self.learned {
            Some(l) => l.evaluate_mut(pos),
            None => self.evaluate_derived(pos),
        }
    }

    #[inline]
    fn evaluate_derived(&self, pos: &Position<B>) -> i32 {
        let empty = self.playable & !pos.occupied();
        let mut score = [0i32; 2];
        for (side, s) in score.iter_mut().enumerate() {
            for kind in 0..self.kinds {
                let bits = pos.kind_bits(side, kind);
                if bits.none() {
                    continue;
                }
                let t = &self.table[side][kind];
                for sq in BitIter(bits) {
                    *s += t[sq as usize];
                }
                let mut reach = B::ZERO;
                for &(d, from) in &self.dirs[side][kind][..self.ndirs[side][kind] as usize] {
                    reach |= (bits & from).shift(d) & empty;
                }
                *s += MOBILITY * reach.count() as i32;
            }
        }
        // One byte's test in variants without stacks, which never hold a column.
        if pos.has_columns() {
            self.columns(pos, &mut score);
        }
        let me = pos.turn();
        (score[me] - score[1 - me]) * self.sign
    }
}
