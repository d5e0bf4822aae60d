//! Random playouts draw their move without building the move list (`selfplay::playout`): for every
//! bundled variant, in every bit-set width, the count and the move drawn must be exactly those of
//! the generator's list, in its order, or self-play would play other games.

use damelab::engine::{BitSet, GenOptions, Move, Position, Rules};
use damelab::selfplay::playout;
use rand::{RngExt, SeedableRng};

fn check<B: BitSet>(name: &str, rules: &Rules<B>) -> usize {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut list: Vec<Move<B>> = Vec::new();
    let mut buf: Vec<Move<B>> = Vec::new();
    let mut positions = 0;
    for _game in 0..12 {
        let mut pos: Position<B> = rules.start;
        for _ply in 0..300 {
            rules.generate(&pos, &mut list, GenOptions::default());
            let n = playout::count(rules, &pos, &mut buf);
            assert_eq!(n, list.len(), "{name}: count");
            for (i, m) in list.iter().enumerate() {
                let got = playout::nth(rules, &pos, &buf, i);
                assert_eq!(&got, m, "{name}: move {i} of {n}");
                assert_eq!(got.kind_before, m.kind_before, "{name}: move {i}");
                assert_eq!(got.run, m.run, "{name}: move {i}");
            }
            positions += 1;
            if list.is_empty() || playout::move_count_draw(rules, &pos) {
                break;
            }
            let mv = list[rng.random_range(0..list.len())];
            pos = rules.play(&pos, &mv);
        }
    }
    positions
}

#[test]
fn a_playout_draws_the_generators_moves_in_its_order() {
    for (name, _) in damelab::variants::BUNDLED {
        let rules = damelab::Variant::load(name).expect("bundled").rules;
        let n = check(name, &rules);
        assert!(n > 100, "{name}: {n} positions");
        if let Some(narrow) = &rules.narrow {
            check(name, narrow);
        }
    }
}

#[test]
fn one_pass_move_count_test_agrees_with_the_rules() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut list = Vec::new();
    for (name, _) in damelab::variants::BUNDLED {
        let rules = damelab::Variant::load(name).expect("bundled").rules;
        if rules.spec.game.move_count_draws.is_empty() {
            continue;
        }
        for _game in 0..20 {
            let mut pos = rules.start;
            for _ply in 0..400 {
                let reached = rules.move_count_reached(&pos, false).is_some()
                    || rules.move_count_reached(&pos, true).is_some();
                assert_eq!(playout::move_count_draw(&rules, &pos), reached, "{name}");
                rules.generate(&pos, &mut list, GenOptions::default());
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.random_range(0..list.len())];
                pos = rules.play(&pos, &mv);
            }
        }
    }
}
