//! Move-count draws: the counters a position carries for them, kept as moves are played in a game,
//! and the test of whether one is reached. Perft does not use them (published tables ignore
//! move-count draws): it plays moves with [`Position::play`], which leaves the counters alone.

use super::bits::BitSet;
use super::moves::Move;
use super::position::Position;
use super::rules::Rules;
use crate::spec::{Material, MoveCountDraw};
use crate::util::plural;

impl<B: BitSet> Rules<B> {
    /// The position after `mv` in a game: [`Position::play`] and the move-count counters.
    pub fn play(&self, pos: &Position<B>, mv: &Move<B>) -> Position<B> {
        let mut next = pos.play(mv);
        self.count_move(pos, mv, &mut next);
        next
    }

    /// Update `after`'s move-count counters for `mv`, played from `before`.
    pub fn count_move(&self, before: &Position<B>, mv: &Move<B>, after: &mut Position<B>) {
        for (i, rule) in self.spec.game.move_count_draws.iter().enumerate() {
            let reset = (rule.reset_on_capture && mv.is_capture())
                || rule.reset_on_move_of & (1 << mv.kind_before) != 0
                || (rule.material.is_some()
                    && (!self.draw_material_holds(i, before)
                        || !self.draw_material_holds(i, after)));
            after.counters[i] = if reset {
                0
            } else {
                before.counters[i].saturating_add(1)
            };
        }
    }

    /// Whether move-count rule `i`'s material condition holds in `pos` (true when it has none): one
    /// side has one of the strong forces and the other the weak one, exactly. A board holding more
    /// pieces than the largest such force (worked out when the rules were compiled) is refused
    /// without counting.
    #[inline]
    pub fn draw_material_holds(&self, i: usize, pos: &Position<B>) -> bool {
        match &self.spec.game.move_count_draws[i].material {
            None => true,
            Some(m) => {
                at_most(pos.occupied(), self.draw_most[i] as u32) && self.forces_match(m, pos)
            }
        }
    }

    /// The exact test, on a board known to hold few pieces: each kind counted by clearing bits.
    fn forces_match(&self, m: &Material, pos: &Position<B>) -> bool {
        let counts = |side: usize| -> [u8; super::rules::MAX_KINDS] {
            let mut c = [0u8; super::rules::MAX_KINDS];
            for (k, n) in c.iter_mut().enumerate().take(self.kinds) {
                let mut b = pos.kind_bits(side, k);
                while b.any() {
                    *n += 1;
                    b = b.without_lowest();
                }
            }
            c
        };
        let same = |force: &[u8], have: &[u8; super::rules::MAX_KINDS]| {
            (0..self.kinds).all(|k| force.get(k).copied().unwrap_or(0) == have[k])
        };
        let c = [counts(0), counts(1)];
        (0..2).any(|s| m.strong.iter().any(|f| same(f, &c[s])) && same(&m.weak, &c[1 - s]))
    }

    /// The first move-count rule whose count is reached in `pos` (index and rule), among the
    /// automatic ones (`claimed` false) or the claimable ones (`claimed` true).
    pub fn move_count_reached(
        &self,
        pos: &Position<B>,
        claimed: bool,
    ) -> Option<(usize, &MoveCountDraw)> {
        self.spec
            .game
            .move_count_draws
            .iter()
            .enumerate()
            .find(|(i, r)| {
                r.claimed == claimed
                    && pos.counters[*i] as u16 >= r.plies()
                    && self.draw_material_holds(*i, pos)
            })
    }
}

/// A move-count rule in words, as written in a rules file: `25 moves each without capture or man
/// move`, `16 moves each without capture with 3 kings or 2 kings and 1 man against 1 king`.
pub fn move_count_words(spec: &crate::spec::VariantSpec, rule: &MoveCountDraw) -> String {
    let name = |k: usize| spec.pieces[k].name.as_str();
    let mut s = format!(
        "{} moves{}",
        rule.moves,
        if rule.each { " each" } else { "" }
    );
    let mut resets: Vec<String> = Vec::new();
    if rule.reset_on_capture {
        resets.push("capture".to_string());
    }
    for k in 0..spec.pieces.len() {
        if rule.reset_on_move_of & (1 << k) != 0 {
            resets.push(format!("{} move", name(k)));
        }
    }
    if !resets.is_empty() {
        s.push_str(" without ");
        s.push_str(&resets.join(" or "));
    }
    if let Some(m) = &rule.material {
        let force = |f: &[u8]| -> String {
            // The highest kind first: `2 kings and 1 man`.
            let parts: Vec<String> = f
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, &n)| n > 0)
                .map(|(k, &n)| format!("{n} {}", plural(name(k), n as usize)))
                .collect();
            parts.join(" and ")
        };
        let strong: Vec<String> = m.strong.iter().map(|f| force(f)).collect();
        s.push_str(&format!(
            " with {} against {}",
            strong.join(" or "),
            force(&m.weak)
        ));
    }
    s
}

/// The most pieces on the board when the material condition holds: the largest strong force and
/// the weak one.
pub(crate) fn most_pieces(m: &Material) -> u32 {
    let weak: u32 = m.weak.iter().map(|&n| n as u32).sum();
    let strong = m
        .strong
        .iter()
        .map(|f| f.iter().map(|&n| n as u32).sum::<u32>())
        .max()
        .unwrap_or(0);
    strong + weak
}

/// Whether `bits` has at most `n` squares: `n` clears of the lowest bit, no population count (the
/// portable target has no instruction for it).
#[inline(always)]
fn at_most<B: BitSet>(mut bits: B, n: u32) -> bool {
    for _ in 0..n {
        if bits.none() {
            return true;
        }
        bits = bits.without_lowest();
    }
    bits.none()
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
        .any(|(i, r)| pos.counters[i] as u16 >= r.plies() && rules.draw_material_holds(i, pos))
}
