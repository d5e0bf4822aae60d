//! Weights that score a position's mirror image exactly as the position, for the other side
//! (`train symmetric`): every weight tied to the weight of its mirror feature and the tied
//! weights set to their average.
//!
//! Training with mirror images (`train --mirror`) makes the two sides' weights come out alike, but
//! only as alike as the fit gets them: each side's weights are still fitted on their own, and a
//! small lean left in them shows as one side's engine playing a little differently from the
//! other's. The mirror feature of each feature is found from the layout and the board's half
//! turn ([`Mirror`]), never from a variant's name:
//!
//! - a first-side piece of a kind on a square is the second side's piece of that kind on the
//!   turned square (the same weight, since the second side's pieces count −1), and so are each
//!   side's mobility, runaway men, pieces, free men and fastest free man the other side's;
//! - a window's configuration is the turned window's configuration with each piece's colour
//!   swapped, with the opposite weight (configurations count +1 for both sides);
//! - who queens first: a margin of `m` tempi is the mirror image's margin of `1 − m` (the side to
//!   move changes), with the opposite weight; the margins clamped at the ends tie together;
//! - the side to move is its own mirror feature (its value changes sign with the side).
//!
//! A feature tied to itself with the opposite sign (a window's configuration that is its own
//! mirror image) has weight 0. For rules that treat the two sides alike, an evaluation of
//! symmetric weights gives the mirror image of every position the same score for the side to
//! move as the position itself, to the rounding of the last quarter unit.
//!
//! With training data made of pairs (`--mirror`), the fit's loss is the same for a set of weights
//! and for its mirror set, and it is convex: their average is as good a fit as either, or better.

use super::mirror::Mirror;
use crate::search::learned::{Layout, RACE_DIST, RACE_MARGIN, RUN_DIST};
use std::collections::HashMap;

/// The weights tied together by the mirror: each weight's group, and its sign in the group.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Per weight, (group root, odd: the weight is minus the root's).
    parent: Vec<u32>,
    odd: Vec<bool>,
    /// Per group root, whether the group is tied to its own opposite (its weights are 0).
    zero: Vec<bool>,
    /// Windows whose turned squares are no window of the layout (their weights stay untied).
    pub untied_windows: usize,
}

/// What [`Symmetry::apply`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Weights whose value changed.
    pub changed: usize,
    /// The largest change of one weight, in the file's units.
    pub largest: i32,
}

impl Symmetry {
    /// The ties of `layout`'s weights under the mirror of its rules.
    pub fn of(mirror: &Mirror, layout: &Layout) -> Symmetry {
        let mut s = Symmetry {
            parent: (0..layout.len as u32).collect(),
            odd: vec![false; layout.len],
            zero: vec![false; layout.len],
            untied_windows: 0,
        };
        let mut ties = Vec::new();
        s.untied_windows = block_ties(mirror, layout, &mut ties);
        for &(a, b, same) in &ties {
            s.tie(a, b, same);
            if layout.phased {
                s.tie(layout.base + a, layout.base + b, same);
            }
            let small = layout.mobility..layout.patterns;
            if layout.tapered > 0 && small.contains(&a) && small.contains(&b) {
                let off = layout.taper - layout.mobility;
                s.tie(a + off, b + off, same);
            }
        }
        s
    }

    /// The root of `i`'s group, and whether `i` is minus the root.
    fn find(&mut self, i: usize) -> (usize, bool) {
        let mut path = Vec::new();
        let mut at = i;
        while self.parent[at] as usize != at {
            path.push(at);
            at = self.parent[at] as usize;
        }
        // Compress: each weight on the path points at the root with its whole sign.
        let root = at;
        let mut odd = false;
        for &p in path.iter().rev() {
            odd ^= self.odd[p];
            self.odd[p] = odd;
            self.parent[p] = root as u32;
        }
        (root, self.odd[i] && i != root)
    }

    /// Tie weight `a` to weight `b`: `a = b` when `same`, else `a = −b`.
    fn tie(&mut self, a: usize, b: usize, same: bool) {
        let (ra, oa) = self.find(a);
        let (rb, ob) = self.find(b);
        // a = ±ra, b = ±rb; a = ±b gives rb = ±ra.
        let odd = oa ^ ob ^ !same;
        if ra == rb {
            if odd {
                self.zero[ra] = true;
            }
            return;
        }
        self.parent[rb] = ra as u32;
        self.odd[rb] = odd;
        self.zero[ra] |= self.zero[rb];
    }

    /// Set every group of tied weights to their average (signs counted), rounded to a whole
    /// unit, and 0 for a group tied to its own opposite.
    pub fn apply(&mut self, values: &mut [i32]) -> Applied {
        let n = values.len().min(self.parent.len());
        let mut sum = vec![0i64; n];
        let mut count = vec![0u32; n];
        let mut signed = Vec::with_capacity(n);
        for (i, &v) in values.iter().enumerate().take(n) {
            let (root, odd) = self.find(i);
            let v = v as i64;
            sum[root] += if odd { -v } else { v };
            count[root] += 1;
            signed.push((root, odd));
        }
        let mut applied = Applied::default();
        for (i, &(root, odd)) in signed.iter().enumerate() {
            let mean = if self.zero[root] {
                0
            } else {
                (sum[root] as f64 / count[root] as f64).round() as i32
            };
            let v = if odd { -mean } else { mean };
            if v != values[i] {
                applied.changed += 1;
                applied.largest = applied.largest.max((v - values[i]).abs());
                values[i] = v;
            }
        }
        applied
    }
}

/// The ties within one set of weights (`0..layout.base`): (weight, its mirror feature's weight,
/// whether they are equal rather than opposite). Returns how many windows have no mirror window.
fn block_ties(mirror: &Mirror, layout: &Layout, ties: &mut Vec<(usize, usize, bool)>) -> usize {
    let (kinds, squares) = (layout.kinds, layout.squares);
    let sides = |at: usize, per: usize, ties: &mut Vec<(usize, usize, bool)>| {
        for j in 0..per {
            ties.push((at + j, at + per + j, true));
        }
    };
    for kind in 0..kinds {
        for sq in 0..squares {
            if let Some(t) = mirror.turned_square(sq) {
                let a = layout.pst_of(0, kind) + sq;
                let b = layout.pst_of(1, kind) + t;
                ties.push((a, b, true));
            }
        }
    }
    sides(layout.mobility, kinds, ties);
    sides(layout.runaway, RUN_DIST, ties);
    if layout.race {
        sides(layout.material, kinds, ties);
        sides(layout.free, 1, ties);
        sides(layout.fastest, RACE_DIST, ties);
        // The margin counted by the evaluation lies in -(RACE_DIST - 1)..=RACE_DIST before it is
        // clamped; the mirror image's is 1 - m.
        let bucket = |m: i32| {
            let r = RACE_MARGIN as i32;
            layout.margin + (m.clamp(-r, r) + r) as usize
        };
        for m in -(RACE_DIST as i32 - 1)..=RACE_DIST as i32 {
            ties.push((bucket(m), bucket(1 - m), false));
        }
    }
    let mut untied = 0;
    // Each window by its shape's group and its squares.
    let mut found: HashMap<(usize, Vec<usize>), usize> = HashMap::new();
    for (g, range) in layout.groups.iter().enumerate() {
        for k in range.clone() {
            let mut cells: Vec<usize> = layout.windows[k].iter().map(|&s| s as usize).collect();
            cells.sort_unstable();
            found.insert((g, cells), k);
        }
    }
    for (g, range) in layout.groups.iter().enumerate() {
        for k in range.clone() {
            let cells: Vec<usize> = layout.windows[k].iter().map(|&s| s as usize).collect();
            let Some(image) = image_places(mirror, &cells, |key| {
                found
                    .get(&(g, key))
                    .map(|&k2| (k2, layout.windows[k2].iter().map(|&s| s as usize).collect()))
            }) else {
                untied += 1;
                continue;
            };
            let (k2, places) = image;
            for c in 0..3usize.pow(cells.len() as u32) {
                ties.push((
                    layout.tables[k] + c,
                    layout.tables[k2] + turned_config(c, &places),
                    false,
                ));
            }
        }
    }
    // The wide windows share one table: it ties to itself when every window's mirror window
    // turns its squares in the same order.
    if !layout.wide.is_empty() {
        let mut keyed: HashMap<Vec<usize>, Vec<usize>> = HashMap::new();
        for w in &layout.wide {
            let cells: Vec<usize> = w.iter().map(|&s| s as usize).collect();
            let mut key = cells.clone();
            key.sort_unstable();
            keyed.insert(key, cells);
        }
        let mut order: Option<Vec<usize>> = None;
        let mut alike = true;
        for w in &layout.wide {
            let cells: Vec<usize> = w.iter().map(|&s| s as usize).collect();
            match image_places(mirror, &cells, |key| {
                keyed.get(&key).map(|c| (0, c.clone()))
            }) {
                Some((_, places)) if order.as_ref().is_none_or(|o| *o == places) => {
                    order = Some(places)
                }
                _ => alike = false,
            }
        }
        match order.filter(|_| alike) {
            Some(places) => {
                for c in 0..crate::search::learned::WIDE_CONFIGS {
                    let d = turned_config(c, &places);
                    ties.push((layout.wide_table + c, layout.wide_table + d, false));
                }
            }
            None => untied += layout.wide.len(),
        }
    }
    untied
}

/// The mirror window of a window's `cells` (found by its sorted squares through `window`), and
/// for each place of the window the place its turned square has in the mirror window.
fn image_places(
    mirror: &Mirror,
    cells: &[usize],
    window: impl Fn(Vec<usize>) -> Option<(usize, Vec<usize>)>,
) -> Option<(usize, Vec<usize>)> {
    let turned: Vec<usize> = cells
        .iter()
        .map(|&s| mirror.turned_square(s))
        .collect::<Option<_>>()?;
    let mut key = turned.clone();
    key.sort_unstable();
    let (k2, other) = window(key)?;
    let places = turned
        .iter()
        .map(|t| other.iter().position(|o| o == t))
        .collect::<Option<Vec<usize>>>()?;
    Some((k2, places))
}

/// A window's configuration (a digit per place: 0 empty, 1 first side, 2 second side) seen in
/// the mirror window: each place's digit moved to its turned place, the colours swapped.
fn turned_config(mut c: usize, places: &[usize]) -> usize {
    let mut out = 0;
    for &to in places {
        let swapped = [0, 2, 1][c % 3];
        out += swapped * 3usize.pow(to as u32);
        c /= 3;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::learned::Learned;
    use crate::search::weights::Weights;
    use crate::search::zobrist::splitmix;

    #[test]
    fn a_configuration_turns_with_its_colours_swapped() {
        // Two places swapped: a first-side piece on place 0 becomes a second-side one on place 1.
        assert_eq!(turned_config(1, &[1, 0]), 2 * 3);
        assert_eq!(turned_config(2, &[1, 0]), 3);
        // A second-side piece on place 0 and a first-side one on place 1: its own mirror image.
        assert_eq!(turned_config(2 + 3, &[1, 0]), 2 + 3);
        // Turned twice, every configuration comes back.
        let places = [3, 2, 1, 0];
        for c in 0..81 {
            assert_eq!(turned_config(turned_config(c, &places), &places), c);
        }
    }

    /// The bundled weights, moved apart and made symmetric, score each position's mirror image as
    /// the position for the side to move (to the last quarter's rounding), in every way the
    /// search evaluates.
    #[test]
    fn symmetric_weights_score_a_mirror_image_alike() {
        for name in ["international", "dameo"] {
            let v = crate::variant::Variant::load(name).unwrap();
            let rules = v.rules.as_ref();
            let mirror = Mirror::of(rules).unwrap();
            // The bundled weights, every third moved by a little (a bundled file may be
            // symmetric already): they lean.
            let mut leaning = Weights::bundled(rules).unwrap();
            for (i, x) in leaning.values.iter_mut().enumerate().step_by(3) {
                *x += 4 * (1 + (i % 5) as i32);
            }
            let mut w = leaning.clone();
            let layout = Layout::from_summary(rules, &w.layout);
            let mut sym = Symmetry::of(&mirror, &layout);
            assert_eq!(sym.untied_windows, 0, "{name}");
            let applied = sym.apply(&mut w.values);
            assert!(applied.changed > 0, "{name}: the moved weights lean");
            // Applying again changes nothing.
            assert_eq!(sym.apply(&mut w.values), Applied::default(), "{name}");
            let plain = Learned::new(&w, rules).ungathered().without_increments();
            let mut fast = Learned::new(&w, rules);
            let before = Learned::new(&leaning, rules).ungathered();
            let (mut leaned, mut seed, mut moves) = (0, 7u64, Vec::new());
            for _ in 0..20 {
                let mut pos = rules.start;
                for _ in 0..120 {
                    let image = mirror.turn(&pos).unwrap();
                    let (a, b) = (plain.evaluate(&pos), plain.evaluate(&image));
                    assert!((a - b).abs() <= 1, "{name}: {a} and {b}");
                    assert_eq!(fast.evaluate_mut(&pos), a);
                    leaned += (before.evaluate(&pos) != before.evaluate(&image)) as u32;
                    rules.generate(&pos, &mut moves, crate::engine::GenOptions::default());
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(splitmix(&mut seed) % moves.len() as u64) as usize];
                    pos = rules.play(&pos, &m);
                }
            }
            // The test can fail: unchanged weights score mirror images differently.
            assert!(leaned > 0, "{name}");
        }
    }

    #[test]
    fn tied_weights_take_their_average_with_their_signs() {
        let v = crate::variant::Variant::load("international").unwrap();
        let rules = v.rules.as_ref();
        let mirror = Mirror::of(rules).unwrap();
        let layout = Layout::new(rules).raced(true);
        let mut sym = Symmetry::of(&mirror, &layout);
        // Every weight different: each tie shows in the result.
        let before: Vec<i32> = (0..layout.len as i32).collect();
        let mut values = before.clone();
        sym.apply(&mut values);
        // A first-side man on a square and a second-side man on the turned square: their average.
        let sq = (0..layout.squares)
            .find(|&s| mirror.turned_square(s).is_some())
            .unwrap();
        let t = mirror.turned_square(sq).unwrap();
        let (a, b) = (layout.pst_of(0, 0) + sq, layout.pst_of(1, 0) + t);
        let mean = ((before[a] + before[b]) as f64 / 2.0).round() as i32;
        assert_eq!((values[a], values[b]), (mean, mean));
        // A window's empty configuration and its mirror window's are opposite: over the board's
        // windows they cancel (and weigh 0 in a window that turns onto itself).
        let empty: Vec<i32> = layout.tables.iter().map(|&t| values[t]).collect();
        assert_eq!(empty.iter().sum::<i32>(), 0);
        assert!(empty.iter().any(|&e| e != 0));
        // The side to move is its own mirror feature: untouched.
        assert_eq!(values[layout.tempo], before[layout.tempo]);
        // Margins m and 1 - m are opposite; the clamped ends (-3, -2 and +3) tie together.
        let margin = |m: i32| values[layout.margin + (m + RACE_MARGIN as i32) as usize];
        assert_eq!(margin(0), -margin(1));
        assert_eq!(margin(-1), -margin(2));
        assert_eq!(margin(-3), margin(-2));
        assert_eq!(margin(-2), -margin(3));
        assert_ne!(margin(0), 0);
    }
}
