//! The generator in every bit-set width agrees with itself: a variant whose board fits 64 or 128
//! bits runs perft, search and self-play on `u64` or `u128` sets, everything else on 256-bit sets.
//! On random reachable positions of every bundled variant and of the largest boards, the narrow
//! rules must give exactly the moves (routes, order, duplicates kept or merged) the wide rules
//! give, and perft must count the same.

use damelab::engine::{BitSet, GenOptions, Move, Position, Rules};
use damelab::notation::to_fen;
use damelab::Variant;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The moves of `pos` in rules of width `W`, as 256-bit moves.
fn moves_in<W: BitSet>(narrow: &Rules<W>, pos: &Position, opts: GenOptions) -> Vec<Move> {
    let mut out: Vec<Move<W>> = Vec::new();
    narrow.generate(&pos.to_width(), &mut out, opts);
    out.iter().map(|m| m.to_width()).collect()
}

/// The moves of `pos` in the narrowest width the rules have, if narrower than 256 bits.
fn narrow_moves(rules: &Rules, pos: &Position, opts: GenOptions) -> Option<Vec<Move>> {
    if let Some(n) = &rules.narrow {
        Some(moves_in(n, pos, opts))
    } else {
        rules.mid.as_ref().map(|m| moves_in(m, pos, opts))
    }
}

/// Perft on the 256-bit rules alone (no narrower width), move list at every ply.
fn wide_perft(rules: &Rules, pos: &Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    rules.generate(pos, &mut moves, GenOptions::default());
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| wide_perft(rules, &pos.play(m), depth - 1))
        .sum()
}

fn check(name: &str, rules: &Rules, games: usize, plies: usize) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    let all = [
        GenOptions::default(),
        GenOptions {
            keep_duplicates: true,
            ..GenOptions::default()
        },
    ];
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = rules.start;
        for _ in 0..plies {
            for opts in all {
                let Some(narrow) = narrow_moves(rules, &pos, opts) else {
                    return 0;
                };
                rules.generate(&pos, &mut moves, opts);
                assert_eq!(
                    narrow,
                    moves,
                    "{name}: widths disagree at {} ({opts:?})",
                    to_fen(rules, &pos)
                );
                checked += 1;
            }
            rules.generate(&pos, &mut moves, GenOptions::default());
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
    }
    checked
}

#[test]
fn narrow_and_wide_generators_agree_on_every_bundled_variant() {
    let mut narrowed = 0;
    for (name, _) in damelab::variants::BUNDLED {
        let v = Variant::load(name).expect("bundled variant loads");
        let n = check(name, &v.rules, 8, 120);
        if n > 0 {
            narrowed += 1;
        }
    }
    // Every bundled board fits 64 or 128 bits.
    assert_eq!(narrowed, damelab::variants::BUNDLED.len());
}

#[test]
fn perft_counts_the_same_in_every_width() {
    for (name, depth) in [
        ("turkish", 4),
        ("dameo", 3),
        ("international", 4),
        ("big-dameo-4", 3),
        ("canadian", 4),
        ("frisian", 4),
        ("damone", 4),
    ] {
        let v = Variant::load(name).expect("bundled variant loads");
        let rules = &v.rules;
        assert_eq!(
            rules.perft(&rules.start, depth, GenOptions::default()),
            wide_perft(rules, &rules.start, depth),
            "{name}"
        );
    }
}

/// A 16x16 dark-squares board and a 16x15 board of all squares need 256-bit sets.
fn large(board: &str, setup: &str) -> Rules {
    let text = format!(
        "variant \"large\"\nboard {board}\nsides white \"W\", black \"B\"; white moves first\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man {setup}\n\
         man: step forward-diagonal\n      capture jump diagonal\n      promote to king on far rank\n\
         king: slide diagonal\n      capture fly diagonal\n\
         captures: compulsory, removed at end of turn, priority most pieces\n\
         game: no moves loses\n"
    );
    Variant::from_source("large.rules", "large", &text, None)
        .expect("the large board compiles")
        .rules
        .as_ref()
        .clone()
}

#[test]
fn the_largest_boards_run_on_256_bit_sets() {
    let dark = large("16x16, dark squares, numbered", "97..128");
    assert!(dark.narrow.is_none() && dark.mid.is_none());
    assert_eq!(dark.geo.playable.count(), 128);
    // 8 men on the front rank: the edge man has one step, the others two.
    assert_eq!(dark.perft(&dark.start, 1, GenOptions::default()), 15);
    assert_eq!(
        dark.perft(&dark.start, 3, GenOptions::default()),
        wide_perft(&dark, &dark.start, 3)
    );
    let all = large("16x15, all squares", "a1..p3");
    assert_eq!(all.geo.playable.count(), 240);
    // Squares past index 127 are reached: the far ranks.
    let far = all.geo.square((15, 14)).expect("p15 exists");
    assert!(far > 128 && all.geo.is_playable(far));
    let mut moves = Vec::new();
    all.generate(&all.start, &mut moves, GenOptions::default());
    assert_eq!(
        moves.len(),
        30,
        "16 men on the third rank, two diagonal steps each but the edges"
    );
}

#[test]
fn boards_past_the_limit_are_refused() {
    let text = "variant \"x\"\nboard 16x16, all squares\nsides white \"W\", black \"B\"; white moves first\n\
                piece man \"M\"\nsetup white man a1\nman: step forward\ngame: no moves loses\n";
    let err = Variant::from_source("x.rules", "x", text, None)
        .expect_err("16x16 of all squares is too large");
    let shown = format!("{err:?}");
    assert!(shown.contains("16") && shown.contains("255"), "{shown}");
}
