//! A perfect index of the legal placements of one material signature.
//!
//! The pieces are split into groups, one per (side, kind) present. Group after group, each chooses
//! its squares among the playable squares the earlier groups left free; a choice of `k` squares out
//! of `m` free ones is ranked by the combinatorial number system (`C(c1,1) + C(c2,2) + …` over the
//! chosen squares' ranks among the free ones, ascending). The group ranks combine in mixed radix, and
//! the side to move doubles the range. Every number below [`Indexer::len`] is one placement, and
//! every placement one number: no gaps, no hashing. Placements the rules never produce (a piece on a
//! square where it would have been promoted) keep their number and are marked illegal by the solver.

use super::columns::Columns;
use super::material::Material;
use crate::engine::geometry::{BitIter, Sq};
use crate::engine::BitSet;
use crate::engine::{Position, Rules};

/// Binomial coefficients up to 128 choose 32, saturating.
pub struct Binomials {
    table: Vec<[u64; 33]>,
}

impl Binomials {
    #[allow(clippy::needless_range_loop)]
    pub fn new() -> Binomials {
        let mut table = vec![[0u64; 33]; 129];
        for n in 0..129 {
            table[n][0] = 1;
            for k in 1..33 {
                table[n][k] = if n == 0 {
                    0
                } else {
                    table[n - 1][k - 1].saturating_add(table[n - 1][k])
                };
            }
        }
        Binomials { table }
    }

    #[inline(always)]
    pub fn get(&self, n: usize, k: usize) -> u64 {
        if k > 32 || n > 128 {
            return u64::MAX;
        }
        self.table[n][k]
    }
}

impl Default for Binomials {
    fn default() -> Self {
        Binomials::new()
    }
}

/// One group: the pieces of one kind of one side.
#[derive(Clone, Debug)]
struct Group {
    side: usize,
    kind: usize,
    count: usize,
    /// Free squares when this group is placed.
    free: usize,
    /// Mixed-radix weight of this group's rank.
    weight: u64,
    /// Number of ways to place this group.
    ways: u64,
    /// Compact squares this piece may not stand on (it would have been promoted there).
    forbidden: u128,
}

/// The index of one material's positions (both sides to move): placements of single pieces, or,
/// under `take top`, arrangements into columns ([`Columns`]).
pub enum Indexer {
    Placements(Placements),
    Columns(Columns),
}

impl Indexer {
    /// The most playable squares a table's board may have (compact square sets are `u128`s).
    pub const MAX_SQUARES: usize = 128;

    /// The indexer of a material (of columns when the rules have them), or the number of its
    /// positions (saturated) when it exceeds `u64`.
    pub fn new<B: BitSet>(rules: &Rules<B>, material: &Material) -> Result<Indexer, u128> {
        if rules.stacks {
            Columns::new(rules, material).map(Indexer::Columns)
        } else {
            Placements::new(rules, material).map(Indexer::Placements)
        }
    }

    /// Whether it indexes columns.
    pub fn is_columns(&self) -> bool {
        matches!(self, Indexer::Columns(_))
    }

    /// Number of indices: positions times two sides to move.
    pub fn len(&self) -> u64 {
        match self {
            Indexer::Placements(p) => p.len(),
            Indexer::Columns(c) => c.placements() * 2,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of a position of this material (the caller checks the material).
    #[inline]
    pub fn encode<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        match self {
            Indexer::Placements(p) => p.encode(pos),
            Indexer::Columns(c) => pos.turn as u64 * c.placements() + c.rank(pos),
        }
    }

    /// The position of an index, or `None` when the placement is illegal.
    #[inline]
    pub fn decode<B: BitSet>(&self, index: u64) -> Option<Position<B>> {
        match self {
            Indexer::Placements(p) => p.decode(index),
            Indexer::Columns(c) => {
                let n = c.placements();
                Some(c.position(index % n.max(1), (index / n.max(1)) as usize))
            }
        }
    }
}

/// The index of the placements of one material signature (both sides to move).
pub struct Placements {
    /// Compact index → padded square.
    squares: Vec<Sq>,
    /// Padded square → compact index (a square is a `u8`: every padded square has a slot).
    compact: [u8; 256],
    groups: Vec<Group>,
    placements: u64,
    binom: Binomials,
}

impl Placements {
    /// The index of a material, or the number of placements (saturated) when it exceeds `u64`.
    pub fn new<B: BitSet>(rules: &Rules<B>, material: &Material) -> Result<Placements, u128> {
        let squares: Vec<Sq> = BitIter(rules.geo.playable).collect();
        // Compact square sets are `u128`s: a board of more playable squares has tables far too
        // large to build anyway.
        if squares.len() > Indexer::MAX_SQUARES {
            return Err(u128::MAX);
        }
        let mut compact = [0xFFu8; 256];
        for (i, &sq) in squares.iter().enumerate() {
            compact[sq as usize] = i as u8;
        }
        let binom = Binomials::new();
        let n = squares.len();
        let mut groups = Vec::new();
        let mut used = 0usize;
        let mut placements: u128 = 1;
        for side in 0..2 {
            for kind in 0..rules.kinds {
                let count = material.counts[side][kind] as usize;
                if count == 0 {
                    continue;
                }
                let free = n.saturating_sub(used);
                let ways = if count > free {
                    0
                } else {
                    binom.get(free, count)
                };
                let mut forbidden = 0u128;
                let prog = &rules.programs[side][kind];
                for (i, &sq) in squares.iter().enumerate() {
                    if prog.promotion_at(sq).is_some_and(|to| to as usize != kind) {
                        forbidden |= 1u128 << i;
                    }
                }
                groups.push(Group {
                    side,
                    kind,
                    count,
                    free,
                    weight: 0,
                    ways,
                    forbidden,
                });
                used += count;
                placements = placements.saturating_mul(ways as u128);
            }
        }
        if used > n || placements.saturating_mul(2) > u64::MAX as u128 / 2 {
            return Err(placements.saturating_mul(2));
        }
        let mut weight = 1u64;
        for g in groups.iter_mut().rev() {
            g.weight = weight;
            weight *= g.ways;
        }
        Ok(Placements {
            squares,
            compact,
            groups,
            placements: placements as u64,
            binom,
        })
    }

    /// Number of indices: placements times two sides to move.
    pub fn len(&self) -> u64 {
        self.placements * 2
    }

    pub fn is_empty(&self) -> bool {
        self.placements == 0
    }

    /// The index of a position of this material (the caller checks the material).
    #[inline]
    pub fn encode<B: BitSet>(&self, pos: &Position<B>) -> u64 {
        let mut occ: u128 = 0;
        let mut idx = 0u64;
        for g in &self.groups {
            let bits = pos.kind_bits(g.side, g.kind);
            let mut rank = 0u64;
            let mut mine: u128 = 0;
            for (i, sq) in BitIter(bits).enumerate() {
                let c = self.compact[sq as usize] as u32;
                let below = occ & ((1u128 << c) - 1);
                let rel = c - below.count_ones();
                rank += self.binom.get(rel as usize, i + 1);
                mine |= 1u128 << c;
            }
            occ |= mine;
            idx += rank * g.weight;
        }
        pos.turn as u64 * self.placements + idx
    }

    /// The position of an index, or `None` when the placement is illegal.
    #[inline]
    pub fn decode<B: BitSet>(&self, index: u64) -> Option<Position<B>> {
        let turn = (index / self.placements) as usize;
        let rest = index % self.placements;
        let mut pos = Position::<B>::empty_of(turn);
        let mut occ: u128 = 0;
        let mut legal = true;
        for g in &self.groups {
            let mut rank = (rest / g.weight) % g.ways;
            let mut mine: u128 = 0;
            let mut c = g.free;
            for i in (1..=g.count).rev() {
                // The largest c with C(c, i) <= rank.
                c -= 1;
                while self.binom.get(c, i) > rank {
                    c -= 1;
                }
                rank -= self.binom.get(c, i);
                mine |= 1u128 << select_free(occ, c as u32);
            }
            if mine & g.forbidden != 0 {
                legal = false;
            }
            occ |= mine;
            let mut b = B::ZERO;
            let mut m = mine;
            while m != 0 {
                let i = m.trailing_zeros();
                m &= m - 1;
                b |= B::bit(self.squares[i as usize]);
            }
            pos.sides[g.side] |= b;
            pos.kinds[g.kind] |= b;
        }
        legal.then_some(pos)
    }
}

/// The compact index of the `r`-th (0-based) square not in `occ`.
#[inline(always)]
fn select_free(occ: u128, r: u32) -> u32 {
    // Walk the occupied squares at or below the candidate: each one pushes it up by one.
    let mut c = r;
    let mut seen = 0;
    loop {
        // Squares 0..=c (all 128 when c is the last: the shift would overflow).
        let upto = if c >= 127 {
            u128::MAX
        } else {
            (1u128 << (c + 1)) - 1
        };
        let below = (occ & upto).count_ones();
        if below == seen {
            return c;
        }
        c += below - seen;
        seen = below;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        for (name, text) in [
            ("dameo", "K v KM"),
            ("english", "KK v K"),
            ("damone", "I v PD"),
            ("lasca", "OS v S"),
            ("bashni", "K v MM"),
        ] {
            let v = crate::Variant::load(name).expect("loads");
            let m = Material::parse(&v.rules, text).expect("parses");
            let ix = Indexer::new(&v.rules, &m).expect("fits");
            let mut legal = 0;
            for i in 0..ix.len() {
                if let Some(p) = ix.decode::<crate::engine::geometry::Bits>(i) {
                    assert_eq!(Material::of(&p), m);
                    assert_eq!(ix.encode(&p), i, "{name} {text}");
                    legal += 1;
                }
            }
            assert!(legal > 0);
        }
    }

    #[test]
    fn select_skips_occupied() {
        assert_eq!(select_free(0, 3), 3);
        assert_eq!(select_free(0b1, 0), 1);
        assert_eq!(select_free(0b1011, 0), 2);
        assert_eq!(select_free(0b1011, 1), 4);
    }
}
