//! Material signatures: how many pieces of each kind each side has, and their written form.

use super::EndgameError;
use crate::engine::rules::MAX_KINDS;
use crate::engine::BitSet;
use crate::engine::{Position, Rules};

/// The pieces of a table: `counts[side][kind]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Material {
    pub counts: [[u8; MAX_KINDS]; 2],
}

impl Material {
    /// The material of a position: every piece on the board, the columns' tops and (under
    /// `take top`) the pieces under them.
    #[inline]
    #[allow(clippy::needless_range_loop)]
    pub fn of<B: BitSet>(pos: &Position<B>) -> Material {
        let mut m = Material::default();
        for side in 0..2 {
            for kind in 0..MAX_KINDS {
                m.counts[side][kind] = pos.kind_bits(side, kind).count() as u8;
            }
        }
        if pos.has_columns() {
            for (side, kind) in pos.stacks.prisoners() {
                m.counts[side][kind] = m.counts[side][kind].saturating_add(1);
            }
        }
        m
    }

    /// Parse `KK v K`: the first side's pieces, `v`, the second side's, written with the variant's
    /// piece letters; `-` (or nothing) for a side without pieces.
    pub fn parse<B: BitSet>(rules: &Rules<B>, text: &str) -> Result<Material, EndgameError> {
        let letters: String = (0..rules.kinds)
            .map(|k| format!("{} ({})", rules.piece_letter(k), rules.spec.pieces[k].name))
            .collect::<Vec<_>>()
            .join(", ");
        let halves: Vec<&str> = split_v(text);
        if halves.len() != 2 {
            return Err(EndgameError::Syntax {
                text: text.to_string(),
                letters,
            });
        }
        // Counted first, so a material of 100,001 pieces is reported as that, not as the 256 a
        // count can hold.
        let pieces = halves
            .iter()
            .flat_map(|h| h.chars())
            .filter(|c| !c.is_whitespace() && *c != '-')
            .count();
        let squares = rules.geo.playable.count();
        if pieces > squares as usize {
            return Err(EndgameError::TooManyPieces {
                material: shorten(text),
                pieces: pieces.min(u32::MAX as usize) as u32,
                squares,
            });
        }
        let mut m = Material::default();
        for (side, half) in halves.iter().enumerate() {
            for ch in half.chars().filter(|c| !c.is_whitespace() && *c != '-') {
                let kind = (0..rules.kinds)
                    .find(|&k| rules.piece_letter(k) == ch)
                    .or_else(|| {
                        (0..rules.kinds).find(|&k| rules.piece_letter(k).eq_ignore_ascii_case(&ch))
                    });
                match kind {
                    Some(k) => {
                        m.counts[side][k] = m.counts[side][k].checked_add(1).ok_or_else(|| {
                            EndgameError::TooManyPieces {
                                material: text.to_string(),
                                pieces: pieces as u32,
                                squares: rules.geo.playable.count(),
                            }
                        })?
                    }
                    None => {
                        return Err(EndgameError::UnknownLetter {
                            letter: ch,
                            text: text.to_string(),
                            variant: rules.spec.title.clone(),
                            letters,
                        })
                    }
                }
            }
        }
        let total = m.total();
        if total == 0 {
            return Err(EndgameError::NoPieces(text.to_string()));
        }
        let squares = rules.geo.playable.count();
        if total > squares {
            return Err(EndgameError::TooManyPieces {
                material: text.to_string(),
                pieces: total,
                squares,
            });
        }
        Ok(m)
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().flatten().map(|&c| c as u32).sum()
    }

    pub fn side_total(&self, side: usize) -> u32 {
        self.counts[side].iter().map(|&c| c as u32).sum()
    }

    /// The pieces of one side in the written form (`KK`, `-` when none). Higher kinds first, as
    /// endgames are usually written (`KM`, not `MK`).
    pub fn side_name<B: BitSet>(&self, rules: &Rules<B>, side: usize) -> String {
        let mut s = String::new();
        for kind in (0..rules.kinds).rev() {
            for _ in 0..self.counts[side][kind] {
                s.push(rules.piece_letter(kind));
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The written form: `KK v K`.
    pub fn name<B: BitSet>(&self, rules: &Rules<B>) -> String {
        format!(
            "{} v {}",
            self.side_name(rules, 0),
            self.side_name(rules, 1)
        )
    }

    /// A short key for file names: `2k-1k` style counts, kind by kind.
    pub fn key(&self) -> String {
        let side = |s: usize| {
            self.counts[s]
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(".")
        };
        format!("{}_{}", side(0), side(1))
    }

    /// The material of a [`Material::key`] (a table file's name), for rules of `kinds` kinds;
    /// `None` for anything else.
    pub fn from_key(key: &str, kinds: usize) -> Option<Material> {
        let (a, b) = key.split_once('_')?;
        let mut m = Material::default();
        for (side, text) in [a, b].into_iter().enumerate() {
            let counts: Vec<&str> = text.split('.').collect();
            if counts.len() != MAX_KINDS {
                return None;
            }
            for (k, c) in counts.iter().enumerate() {
                let n: u8 = c.parse().ok()?;
                if n > 0 && k >= kinds {
                    return None;
                }
                m.counts[side][k] = n;
            }
        }
        (m.total() > 0).then_some(m)
    }

    /// Materials one move can lead to (a superset): one piece of either side removed (a capture of
    /// several pieces is a chain of these) or one piece promoted to a kind its rules name. Under
    /// `take top` no piece leaves the board (a capture puts it under the capturer): only
    /// promotions lead to another material.
    pub fn successors<B: BitSet>(&self, rules: &Rules<B>) -> Vec<Material> {
        let mut out = Vec::new();
        for side in 0..2 {
            for kind in 0..rules.kinds {
                if self.counts[side][kind] == 0 {
                    continue;
                }
                let mut m = *self;
                m.counts[side][kind] -= 1;
                if m.total() > 0 && !rules.stacks {
                    out.push(m);
                }
                for &(to, _) in &rules.programs[side][kind].promotions {
                    let to = to as usize;
                    if to != kind && to < rules.kinds {
                        let mut m = *self;
                        m.counts[side][kind] -= 1;
                        m.counts[side][to] += 1;
                        out.push(m);
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Every material of at most `n` pieces with at least one piece a side (`damelab endgame
/// VARIANT --up-to N`), the largest first and, among materials of one size, those of the lower
/// kinds first: a man's table reaches the tables of what it promotes to, so building in this
/// order leaves most later materials already solved. Each side's pieces are a multiset of the
/// rules' kinds.
pub fn up_to<B: BitSet>(rules: &Rules<B>, n: u32) -> Vec<Material> {
    let kinds = rules.kinds.min(MAX_KINDS);
    // Every multiset of `k` pieces over `kinds` kinds, as counts per kind.
    fn multisets(
        k: u32,
        kinds: usize,
        from: usize,
        acc: &mut [u8; MAX_KINDS],
        out: &mut Vec<[u8; MAX_KINDS]>,
    ) {
        if k == 0 {
            out.push(*acc);
            return;
        }
        for kind in from..kinds {
            acc[kind] += 1;
            multisets(k - 1, kinds, kind, acc, out);
            acc[kind] -= 1;
        }
    }
    let mut sides: Vec<Vec<[u8; MAX_KINDS]>> = vec![Vec::new()];
    for k in 1..n {
        let mut v = Vec::new();
        multisets(k, kinds, 0, &mut [0; MAX_KINDS], &mut v);
        sides.push(v);
    }
    let mut out = Vec::new();
    for total in (2..=n).rev() {
        let mut here = Vec::new();
        for a in 1..total {
            let b = total - a;
            for x in &sides[a as usize] {
                for y in &sides[b as usize] {
                    here.push(Material { counts: [*x, *y] });
                }
            }
        }
        let weight = |m: &Material| -> u32 {
            m.counts
                .iter()
                .flat_map(|c| c.iter().enumerate())
                .map(|(k, &c)| k as u32 * c as u32)
                .sum()
        };
        here.sort_by_key(|m| (weight(m), std::cmp::Reverse(m.counts[0])));
        out.extend(here);
    }
    out
}

/// Split `KK v K` at the `v` that stands alone (or between pieces when no letter is `v`).
fn split_v(text: &str) -> Vec<&str> {
    let t = text.trim();
    if let Some(i) = t.find(" v ") {
        return vec![&t[..i], &t[i + 3..]];
    }
    for sep in [" vs ", " vs. ", "v"] {
        if let Some(i) = t.find(sep) {
            return vec![&t[..i], &t[i + sep.len()..]];
        }
    }
    vec![t]
}

/// A material as quoted in a diagnostic: at most 40 characters, then `…`.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_to_lists_every_material_once_largest_and_lowest_kinds_first() {
        let v = crate::Variant::load("english").unwrap();
        let all = up_to(&v.rules, 3);
        let names: Vec<String> = all.iter().map(|m| m.name(&v.rules)).collect();
        // Two pieces: 2 x 2 materials; three: 3 x 2 each way round.
        assert_eq!(names.len(), 16, "{names:?}");
        assert_eq!(&names[..2], ["MM v M", "M v MM"]);
        assert_eq!(names.last().map(String::as_str), Some("K v K"));
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        assert!(all
            .iter()
            .all(|m| m.side_total(0) >= 1 && m.side_total(1) >= 1));
    }

    #[test]
    fn a_key_reads_back_as_its_material() {
        let mut m = Material::default();
        m.counts[0][1] = 2;
        m.counts[1][0] = 1;
        let key = m.key();
        assert_eq!(key, "0.2.0.0_1.0.0.0");
        assert_eq!(Material::from_key(&key, 2), Some(m));
        // A kind the rules do not have, a missing count, no pieces: not a key of these rules.
        assert_eq!(Material::from_key(&key, 1), None);
        assert_eq!(Material::from_key("0.2.0_1.0.0.0", 2), None);
        assert_eq!(Material::from_key("0.0.0.0_0.0.0.0", 2), None);
    }
}
