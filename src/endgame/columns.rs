//! A perfect index of the positions of one material under `take top` (columns).
//!
//! Under `take top` no piece leaves the board: a capture puts the jumped column's top under the
//! capturer. A material is then the multiset of the pieces (side × kind), wherever they stand, and
//! a position is an arrangement of them into columns on distinct squares, each column an order of
//! its pieces from the top down.
//!
//! Such an arrangement of `n` pieces in `k` columns is, one to one, three choices:
//!
//! * the `k` squares of the columns (a `k`-subset of the `S` playable squares, ranked by the
//!   combinatorial number system);
//! * a *word*: the pieces read column after column (squares ascending), each column from its top
//!   down — one of the `n! / ∏ m!` orders of the multiset (`m` the count of each side × kind),
//!   ranked lexicographically;
//! * where the word is cut into the `k` columns: a `(k-1)`-subset of the `n-1` places between
//!   two pieces, ranked by the combinatorial number system.
//!
//! So a material has `W · Σ_k C(S, k) · C(n-1, k-1)` arrangements (`W` the number of words), and
//! the ranks combine in mixed radix after the blocks of smaller `k`. Every number below
//! [`Columns::len`] is one position and every position one number: no gaps, no search. Every
//! arrangement is legal, a man on the row where it would have been promoted included (a prisoner
//! set free there becomes the top without moving, and is not promoted).

use super::index::Binomials;
use super::material::Material;
use crate::engine::geometry::{BitIter, Sq};
use crate::engine::rules::MAX_KINDS;
use crate::engine::BitSet;
use crate::engine::{Position, Rules};

/// The most pieces a table of columns takes: a word's factorial must fit a `u64` (20! does), and
/// far fewer already make tables larger than any machine's memory.
pub const MAX_COLUMN_PIECES: usize = 16;

/// A piece's symbol in a word: `side * MAX_KINDS + kind`.
const SYMBOLS: usize = 2 * MAX_KINDS;

/// The index of one material's arrangements into columns (both sides to move).
pub struct Columns {
    /// Compact index → padded square.
    squares: Vec<Sq>,
    /// Padded square → compact index.
    compact: [u8; 256],
    /// The number of pieces.
    n: usize,
    /// How many pieces of each symbol.
    counts: [u8; SYMBOLS],
    /// The number of words (orders of the multiset).
    words: u64,
    /// `starts[k]`: the first rank of the arrangements in `k` columns (`starts[n + 1]`: the
    /// number of arrangements).
    starts: Vec<u64>,
    binom: Binomials,
    fact: [u64; MAX_COLUMN_PIECES + 1],
}

impl Columns {
    /// The index of a material, or the number of its positions (saturated) when it is past a
    /// `u64` (or the material has more than [`MAX_COLUMN_PIECES`] pieces).
    pub fn new<B: BitSet>(rules: &Rules<B>, material: &Material) -> Result<Columns, u128> {
        let squares: Vec<Sq> = BitIter(rules.geo.playable).collect();
        let n = material.total() as usize;
        if n > MAX_COLUMN_PIECES || n == 0 || squares.len() > super::index::Indexer::MAX_SQUARES {
            return Err(u128::MAX);
        }
        let mut compact = [0xFFu8; 256];
        for (i, &sq) in squares.iter().enumerate() {
            compact[sq as usize] = i as u8;
        }
        let mut counts = [0u8; SYMBOLS];
        for side in 0..2 {
            for kind in 0..MAX_KINDS {
                counts[side * MAX_KINDS + kind] = material.counts[side][kind];
            }
        }
        let mut fact = [1u64; MAX_COLUMN_PIECES + 1];
        for i in 1..=MAX_COLUMN_PIECES {
            fact[i] = fact[i - 1] * i as u64;
        }
        let binom = Binomials::new();
        let words = counts.iter().fold(fact[n], |w, &c| w / fact[c as usize]);
        let mut starts = vec![0u64; n + 2];
        let mut total: u128 = 0;
        for (k, start) in starts.iter_mut().enumerate().take(n + 1).skip(1) {
            *start = total.min(u64::MAX as u128) as u64;
            let block = binom.get(squares.len(), k) as u128
                * words as u128
                * binom.get(n - 1, k - 1) as u128;
            total = total.saturating_add(block);
        }
        starts[n + 1] = total.min(u64::MAX as u128) as u64;
        // Twice (both sides to move), with room to spare, as the index of placements asks.
        if total.saturating_mul(2) > u64::MAX as u128 / 2 {
            return Err(total.saturating_mul(2));
        }
        Ok(Columns {
            squares,
            compact,
            n,
            counts,
            words,
            starts,
            binom,
            fact,
        })
    }

    /// The number of arrangements (one side to move).
    pub fn placements(&self) -> u64 {
        self.starts[self.n + 1]
    }

    /// The number of orders of the multiset `m` of `total` pieces.
    fn orders(&self, m: &[u8; SYMBOLS], total: usize) -> u64 {
        m.iter()
            .fold(self.fact[total], |w, &c| w / self.fact[c as usize])
    }

    /// The rank of a word among the orders of the material's multiset.
    fn word_rank(&self, word: &[u8]) -> u64 {
        let mut m = self.counts;
        let mut rank = 0;
        for (i, &s) in word.iter().enumerate() {
            let left = word.len() - i - 1;
            for t in 0..s as usize {
                if m[t] > 0 {
                    m[t] -= 1;
                    rank += self.orders(&m, left);
                    m[t] += 1;
                }
            }
            m[s as usize] = m[s as usize].saturating_sub(1);
        }
        rank
    }

    /// The word of a rank (the inverse of [`Columns::word_rank`]).
    fn word_of(&self, mut rank: u64, word: &mut [u8; MAX_COLUMN_PIECES]) {
        let mut m = self.counts;
        for (i, slot) in word.iter_mut().enumerate().take(self.n) {
            let left = self.n - i - 1;
            for s in 0..SYMBOLS {
                if m[s] == 0 {
                    continue;
                }
                m[s] -= 1;
                let c = self.orders(&m, left);
                if rank < c {
                    *slot = s as u8;
                    break;
                }
                rank -= c;
                m[s] += 1;
            }
        }
    }

    /// The `k` numbers (ascending, below the bound the rank was made for) of a combinatorial
    /// number system rank, as a bit mask.
    fn subset_of(&self, mut rank: u64, k: usize, bound: usize) -> u128 {
        let mut mask = 0u128;
        let mut c = bound;
        for i in (1..=k).rev() {
            // The largest c with C(c, i) <= rank.
            c -= 1;
            while self.binom.get(c, i) > rank {
                c -= 1;
            }
            rank -= self.binom.get(c, i);
            mask |= 1u128 << c;
        }
        mask
    }

    /// The rank (without the side to move) of a position of this material (the caller checks
    /// the material).
    pub fn rank<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let mut word = [0u8; MAX_COLUMN_PIECES];
        let mut len = 0;
        let (mut squares_rank, mut cuts_rank) = (0u64, 0u64);
        let mut k = 0;
        for sq in BitIter(pos.occupied()) {
            k += 1;
            squares_rank += self.binom.get(self.compact[sq as usize] as usize, k);
            if len > 0 {
                // A cut between the pieces `len - 1` and `len`: the (k-1)-th cut.
                cuts_rank += self.binom.get(len - 1, k - 1);
            }
            let side = usize::from(!pos.sides[0].has(sq));
            let top = (side, pos.kind_at(sq));
            for (s, kd) in std::iter::once(top).chain(pos.stacks.under(sq)) {
                if len < MAX_COLUMN_PIECES {
                    word[len] = (s * MAX_KINDS + kd) as u8;
                    len += 1;
                }
            }
        }
        if k == 0 || k > self.n {
            return 0;
        }
        let block = self.binom.get(self.n - 1, k - 1);
        self.starts[k]
            + (squares_rank * self.words + self.word_rank(&word[..len])) * block
            + cuts_rank
    }

    /// The position of a rank and side to move.
    pub fn position<B: BitSet>(&self, rank: u64, turn: usize) -> Position<B> {
        let mut pos = Position::<B>::empty_of(turn);
        let k = (1..=self.n)
            .find(|&k| rank < self.starts[k + 1])
            .unwrap_or(self.n);
        let block = self.binom.get(self.n - 1, k - 1);
        let r = rank - self.starts[k];
        let cuts = self.subset_of(r % block, k - 1, self.n - 1);
        let r = r / block;
        let mut word = [0u8; MAX_COLUMN_PIECES];
        self.word_of(r % self.words, &mut word);
        let squares = self.subset_of(r / self.words, k, self.squares.len());
        let mut start = 0;
        let mut cols = squares;
        while cols != 0 {
            let c = cols.trailing_zeros() as usize;
            cols &= cols - 1;
            // This column runs to the next cut (a cut at `i` ends a column after piece `i`).
            let rest = cuts >> start;
            let end = if rest == 0 {
                self.n
            } else {
                start + rest.trailing_zeros() as usize + 1
            };
            let sq = self.squares[c];
            let piece = |s: u8| ((s as usize) / MAX_KINDS, (s as usize) % MAX_KINDS);
            let (side, kind) = piece(word[start]);
            pos.sides[side] |= B::bit(sq);
            pos.kinds[kind] |= B::bit(sq);
            let under: Vec<(usize, usize)> =
                word[start + 1..end].iter().map(|&s| piece(s)).collect();
            // Never full: a material of columns has at most MAX_COLUMN_PIECES pieces.
            let _ = pos.stacks.set_under(sq, &under);
            start = end;
        }
        pos
    }
}
