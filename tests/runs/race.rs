//! The race features (`train --race`): free men, the tempi of each side's fastest one and who
//! queens first, read from the compiled rules' promotion zones and move directions; the small
//! features' opening and ending weights blended by the material left, scored the same by every
//! way the evaluation has (plain, gathered, kept up to date) and as training reads a row.

use super::train::{every_width_variant, load, positions};
use damelab::engine::{Position, Rules};
use damelab::search::learned::{Features, Layout, Learned, RACE_DIST, RACE_MARGIN};
use damelab::search::weights::Weights;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A race layout's features of `pos`, as `(index, value)` pairs.
fn features(rules: &Rules, pos: &Position) -> (Layout, Vec<(usize, i32)>) {
    let layout = Layout::new(rules).raced(true);
    let f = Features::with(rules, layout.clone());
    let mut out = Vec::new();
    f.visit(pos, |i, v| out.push((i, v)));
    (layout, out)
}

/// The race features alone (material left out): `(index from the first race group, value)`.
fn race_part(l: &Layout, all: &[(usize, i32)]) -> Vec<(usize, i32)> {
    let mut r: Vec<(usize, i32)> = all
        .iter()
        .filter(|(i, _)| (l.free..l.patterns).contains(i))
        .map(|&(i, v)| (i - l.free, v))
        .collect();
    r.sort();
    r
}

#[test]
fn free_men_their_tempi_and_who_queens_first() {
    let v = load("international");
    let rules = v.rules.as_ref();
    let at = |fen: &str| damelab::notation::parse_fen(&v.rules, fen).unwrap();
    let l = Layout::new(rules).raced(true);
    let (free, fastest, margin) = (0, l.fastest - l.free, l.margin - l.free);
    // White's man on 26 is five steps from its zone, Black's on 35 three: both free, and with
    // White to move Black still queens first by one tempo (margin 3 − 5 + 1 = −1).
    let (_, all) = features(rules, &at("W:W26:B35"));
    let expect = vec![
        (free, 1),
        (free + 1, -1),
        (fastest + 4, 1),
        (fastest + RACE_DIST + 2, -1),
        (margin + RACE_MARGIN - 1, 1),
    ];
    assert_eq!(race_part(&l, &all), expect);
    // Black to move: one tempo more for Black.
    let (_, all) = features(rules, &at("B:W26:B35"));
    assert!(race_part(&l, &all).contains(&(margin + RACE_MARGIN - 2, 1)));
    // A black man ahead of White's: White's man is no longer free, no race is counted.
    let (_, all) = features(rules, &at("W:W26:B16,35"));
    assert_eq!(
        race_part(&l, &all),
        vec![(free + 1, -1), (fastest + RACE_DIST + 2, -1)]
    );
    // A man beside the path (not in it) stops it too: it could take it.
    let (_, all) = features(rules, &at("W:W26:B22,35"));
    assert!(!race_part(&l, &all).contains(&(free, 1)));
    // Too far from the zone: not counted.
    let (_, all) = features(rules, &at("W:W46:B5"));
    assert!(race_part(&l, &all).is_empty(), "{all:?}");
    // The pieces' count per side and kind: first side +, second side −.
    let (_, all) = features(rules, &at("W:W26,K40:B35,30"));
    let material: Vec<_> = all
        .iter()
        .filter(|(i, _)| (l.material..l.free).contains(i))
        .map(|&(i, v)| (i - l.material, v))
        .collect();
    assert_eq!(material, vec![(0, 1), (1, 1), (2, -2)]);
}

/// Every way of scoring `w` gives the same score for every position, and the score is the sum of
/// the training row's features.
fn all_agree(rules: &Rules, w: &Weights, pos: &[Position]) {
    let layout = Layout::from_summary(rules, &w.layout);
    let f = Features::with(rules, layout.clone());
    let learned = Learned::new(w, rules);
    let plain = learned.clone().ungathered();
    let mut inc = learned.clone().ungathered().with_increments();
    assert!(inc.is_incremental(), "{}", w.layout);
    let shift = damelab::search::learned::SHIFT + layout.row_shift();
    for p in pos {
        let expect = plain.evaluate(p);
        assert_eq!(learned.evaluate(p), expect, "{}", w.layout);
        assert_eq!(inc.evaluate_mut(p), expect, "{}", w.layout);
        let mut sum = 0i64;
        f.row(p, |i, v| sum += w.values[i] as i64 * v as i64);
        let white = ((sum + (1 << (shift - 1))) >> shift) as i32;
        let white = if p.turn() == 0 { white } else { -white };
        assert_eq!(expect, white.clamp(-20_000, 20_000), "{}", w.layout);
    }
}

#[test]
fn race_weights_score_alike_every_way_and_round_trip() {
    for (k, name) in every_width_variant().into_iter().enumerate() {
        let v = load(name);
        let rules = v.rules.as_ref();
        let layout = Layout::new(rules).raced(true);
        assert!(layout.summary().contains(&format!(" race={RACE_DIST} ")));
        assert_eq!(Layout::from_summary(rules, &layout.summary()), layout);
        assert_eq!(layout.row_shift(), 4);
        assert_eq!(layout.tapered, layout.patterns - layout.mobility);
        // The derived weights score as in the layout without races: the race weights are 0,
        // the endings the openings.
        let derived = Weights::derived_in(rules, &layout);
        let learned = Learned::new(&derived, rules);
        let plain = Learned::new(&Weights::derived_in(rules, &Layout::new(rules)), rules);
        let pos = positions(rules, 40, 30 + k as u64);
        for p in &pos {
            assert_eq!(learned.evaluate(p), plain.evaluate(p), "{name}");
        }
        let mut w = derived.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
        for x in w.values.iter_mut() {
            *x += rng.random_range(-300..300);
        }
        all_agree(rules, &w, &pos);
        assert_eq!(Weights::parse(&w.to_text(), "mem", &v.rules).unwrap(), w);
        // Phased and raced: everything has two weights, nothing more is tapered.
        let both = Layout::shaped(rules, false, true).raced(true);
        assert_eq!(both.tapered, 0);
        assert_eq!(both.len, 2 * both.base);
    }
}

#[test]
fn bundled_weights_carried_into_the_race_layout_score_the_same() {
    for name in ["international", "turkish", "dameo"] {
        let v = load(name);
        let rules = v.rules.as_ref();
        let bundled = Weights::bundled(&v.rules).expect("bundled weights");
        let from = Layout::from_summary(rules, &bundled.layout);
        let to = from.clone().raced(true);
        let raced = bundled.carried_into(rules, &to).unwrap();
        assert_eq!(raced.layout, to.summary());
        let (a, b) = (Learned::new(&bundled, rules), Learned::new(&raced, rules));
        for p in positions(rules, 40, 11) {
            assert_eq!(a.evaluate(&p), b.evaluate(&p), "{name}");
        }
        // Back out of it: the ending's weights would be dropped, refused (unless the bundled
        // file has the race features already, as international's: then `from` is `to`).
        assert_eq!(
            raced.carried_into(rules, &from).is_err(),
            !from.race,
            "{name}"
        );
        // Into itself: unchanged.
        assert_eq!(raced.carried_into(rules, &to).unwrap().values, raced.values);
    }
}
