//! The learned evaluation scored incrementally (only the squares changed since the last position
//! scored, as the search does) gives the plain evaluation's score, in every width and window shape.

use super::train::{every_width_variant, load, positions, random_weights_in};
use damelab::engine::{BitSet, GenOptions, Position, Rules};
use damelab::search::learned::{Layout, Learned, Shapes};
use damelab::search::weights::Weights;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions in the order a search scores them: along random games, each position's children
/// (siblings, a few squares apart), then the position itself, and now and then one far away.
fn search_order(rules: &Rules, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let far = positions(rules, games * 4, seed + 1);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let mut pos = rules.start;
        for ply in 0..rng.random_range(10..90) {
            rules.generate(&pos, &mut moves, GenOptions::default());
            if moves.is_empty() {
                break;
            }
            out.extend(moves.iter().map(|m| pos.play(m)));
            out.push(pos);
            if ply % 16 == 5 {
                out.push(far[(g * 4 + ply / 16) % far.len()]);
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

/// The incremental evaluation (only what changed since the last position scored) against the
/// plain one, position by position, in one width.
fn incremental_and_plain<W: BitSet>(rules: &Rules<W>, w: &Weights, pos: &[Position]) -> usize {
    let plain = Learned::new(w, rules);
    let mut inc = plain.clone().with_increments();
    let mut fresh = plain.clone().without_increments();
    assert!(!fresh.is_incremental());
    for p in pos {
        let p = p.to_width();
        let expect = plain.evaluate(&p);
        assert_eq!(inc.evaluate_mut(&p), expect, "{}", w.layout);
        assert_eq!(fresh.evaluate_mut(&p), expect, "{}", w.layout);
    }
    inc.is_incremental() as usize
}

#[test]
fn the_incremental_evaluation_scores_as_the_plain_one() {
    let mut incremental = 0;
    for (k, name) in every_width_variant().into_iter().enumerate() {
        let v = load(name);
        let rules = v.rules.as_ref();
        let pos = search_order(rules, 3, 20 + k as u64);
        for shapes in ["2x2", "2x2+2x4+4x2"] {
            let Shapes(shapes) = Shapes::parse(shapes).unwrap();
            let mut w = Weights::derived_in(rules, &Layout::build(rules, &shapes, false, false));
            let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
            for x in w.values.iter_mut() {
                *x += rng.random_range(-300..300);
            }
            incremental += incremental_and_plain(rules, &w, &pos);
            if let Some(n) = &rules.narrow {
                incremental += incremental_and_plain(n.as_ref(), &w, &pos);
            }
            if let Some(m) = &rules.mid {
                incremental += incremental_and_plain(m.as_ref(), &w, &pos);
            }
        }
        // Phases and wide windows are scored the plain way.
        let w = random_weights_in(rules, 5, true);
        assert_eq!(incremental_and_plain(rules, &w, &pos), 0, "{name}");
    }
    assert!(incremental > 0);
}
