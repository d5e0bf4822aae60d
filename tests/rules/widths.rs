//! The generator in every bit-set width agrees with itself: a variant whose board fits 64 or 128
//! bits runs perft, search and self-play on `u64` or `u128` sets, everything else on 256-bit sets.
//! On random reachable positions of every bundled variant and of the largest boards, the narrow
//! rules must give exactly the moves (routes, order, duplicates kept or merged) the wide rules
//! give, and perft must count the same.

use crate::reference;

use damelab::engine::geometry::NONE;
use damelab::engine::{BitSet, GenOptions, Move, Position, Rules};
use damelab::notation::{move_to_string, parse_fen, to_fen};
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
    let mut fast = Vec::new();
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
                // The games' (and the Python package's) way: the same list, within the budget.
                if rules.try_generate_narrowest(&pos, &mut fast, opts).is_ok() {
                    assert_eq!(fast, moves, "{name}: at {}", to_fen(rules, &pos));
                }
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
    let text = "variant \"x\"\nboard 17x16, all squares\nsides white \"W\", black \"B\"; white moves first\n\
                piece man \"M\"\nsetup white man a1\nman: step forward\ngame: no moves loses\n";
    let err = Variant::from_source("x.rules", "x", text, None).expect_err("17x16 is too large");
    let shown = format!("{err:?}");
    assert!(
        shown.contains("\"17\"") && shown.contains("up to 16x16"),
        "{shown}"
    );
}

/// Turkish draughts on 16x16 of all squares (examples/turkish-16x16.rules): every one of the 256
/// square indices is a square, 0 (a1) to 255 (p16).
fn turkish_16x16() -> Rules {
    let text = include_str!("../../examples/turkish-16x16.rules");
    Variant::from_source("turkish-16x16.rules", "turkish-16x16", text, None)
        .expect("the 16x16 example compiles")
        .rules
        .as_ref()
        .clone()
}

fn fen(rules: &Rules, text: &str) -> Position {
    parse_fen(rules, text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

/// The moves of `pos`, written, sorted.
fn written(rules: &Rules, pos: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    rules.generate(pos, &mut moves, GenOptions::default());
    let mut out: Vec<String> = moves.iter().map(|m| move_to_string(rules, m)).collect();
    out.sort();
    out
}

/// The fast generator against the reference (`tests/reference/`) in `pos`: the same moves
/// (origin, destination, captured set, resulting piece), each route one of the reference's, and
/// bulk counting agrees with the list.
fn agrees_with_reference(rules: &Rules, pos: &Position) {
    let want = reference::moves(rules, pos);
    let mut want_ids: Vec<_> = want.iter().map(|m| m.id()).collect();
    want_ids.sort();
    want_ids.dedup();
    let mut moves = Vec::new();
    rules.generate(pos, &mut moves, GenOptions::default());
    let mut ids: Vec<_> = moves
        .iter()
        .map(|m| reference::from_engine(rules, m).id())
        .collect();
    ids.sort();
    let fen = to_fen(rules, pos);
    assert_eq!(
        ids, want_ids,
        "--fen \"{fen}\": moves differ from the reference"
    );
    for m in &moves {
        assert!(
            want.contains(&reference::from_engine(rules, m)),
            "--fen \"{fen}\": route {} is not a reference route",
            move_to_string(rules, m)
        );
    }
    let mut buf = Vec::new();
    assert_eq!(
        rules.count_moves(pos, &mut buf, GenOptions::default()),
        moves.len() as u64,
        "--fen \"{fen}\": bulk count"
    );
}

/// Perft by the reference generator: its moves, one per identity (duplicates merged), played
/// with the engine's `Position::play`.
fn reference_perft(rules: &Rules, pos: &Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut seen = Vec::new();
    let mut n = 0;
    for r in reference::moves(rules, pos) {
        if seen.contains(&r.id()) {
            continue;
        }
        seen.push(r.id());
        n += if depth == 1 {
            1
        } else {
            let sq = |c: (i32, i32)| {
                rules
                    .geo
                    .square((c.0 as u8, c.1 as u8))
                    .expect("a square of the board")
            };
            let mut mv = Move::quiet(sq(r.from), sq(r.to), 0, r.kind_after);
            mv.kind_before = pos.kind_at(mv.from) as u8;
            for c in &r.captured {
                mv.captured |= damelab::engine::U256::bit(sq(*c));
            }
            reference_perft(rules, &pos.play(&mv), depth - 1)
        };
    }
    n
}

#[test]
fn the_16x16_board_of_all_squares_uses_every_index() {
    let rules = turkish_16x16();
    assert!(rules.narrow.is_none() && rules.mid.is_none());
    assert_eq!(rules.geo.size(), 256);
    assert_eq!(rules.geo.playable.count(), 256);
    assert_eq!(rules.max_captures, 255);
    let (a1, p16) = (rules.geo.square((0, 0)), rules.geo.square((15, 15)));
    assert_eq!((a1, p16), (Some(0), Some(255)));
    assert!(rules.geo.is_playable(255) && rules.geo.is_playable(0));
    assert_eq!(
        (rules.geo.name(0), rules.geo.name(255)),
        ("a1".into(), "p16".into())
    );
    // The neighbours of the corners: none off the board, every other one a square.
    let next = &rules.geo.next;
    assert_eq!(next[0][255], NONE); // north of p16
    assert_eq!(next[2][255], NONE); // east
    assert_eq!((next[4][255], next[6][255]), (239, 254)); // south, west
    assert_eq!((next[0][0], next[2][0]), (16, 1));
    assert_eq!((next[4][0], next[6][0]), (NONE, NONE));
    assert_eq!((next[0][254], next[2][254]), (NONE, 255));
    // Ranks 2-7 against 10-15: 16 men step forward (sideways is full), and Black likewise.
    assert_eq!(rules.perft(&rules.start, 3, GenOptions::default()), 4996);
}

#[test]
fn a_piece_on_square_255_moves_and_captures() {
    let rules = turkish_16x16();
    // A king on p16 (index 255) flies down the p file over p12 or along rank 16 over d16.
    let pos = fen(&rules, "W:WKp16:Bp12,d16");
    let mut want: Vec<String> = (1..=11).map(|r| format!("p16xp{r}")).collect();
    want.extend(["p16xa16", "p16xb16", "p16xc16"].map(String::from));
    want.sort();
    assert_eq!(written(&rules, &pos), want);
    agrees_with_reference(&rules, &pos);
    // Quiet: along both lines from the corner.
    let pos = fen(&rules, "W:WKp16:Ba1,b1");
    assert_eq!(written(&rules, &pos).len(), 30);
    agrees_with_reference(&rules, &pos);
    // A man jumps onto p16 and on from it, sideways, promoted only at the end (n16).
    let pos = fen(&rules, "W:Wp14:Bp15,o16");
    assert_eq!(written(&rules, &pos), ["p14xp16xn16"]);
    let mut moves = Vec::new();
    rules.generate(&pos, &mut moves, GenOptions::default());
    assert_eq!(moves[0].route(), [255, 253]);
    assert_eq!(rules.piece_letter(moves[0].kind_after as usize), 'K');
    agrees_with_reference(&rules, &pos);
    // A king lands on p16, the last square of its line; a black man takes onto a1 (index 0).
    let pos = fen(&rules, "W:WKp1:Bp15,a8");
    assert_eq!(written(&rules, &pos), ["p1xp16"]);
    let after = pos.play(&{
        let mut m = Vec::new();
        rules.generate(&pos, &mut m, GenOptions::default());
        m[0]
    });
    assert_eq!(to_fen(&rules, &after), "B:WKp16:Ba8");
    let pos = fen(&rules, "B:Wa2,b1:Ba3,Kp16");
    assert_eq!(written(&rules, &pos), ["a3xa1xc1"]);
    agrees_with_reference(&rules, &pos);
}

#[test]
#[ignore = "release: 11 s in the test profile, where the plain reference generator is slow (.ci/run)"]
fn the_16x16_generator_agrees_with_the_reference_on_random_positions() {
    let rules = turkish_16x16();
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut moves = Vec::new();
    let mut checked = 0;
    for game in 0..60 {
        // Random pieces, the corners a1 (0) and p16 (255) always taken; men never on the rank
        // where they would have been promoted.
        let mut pos = Position::empty(game % 2);
        let count = rng.random_range(4..28);
        let mut squares: Vec<u8> = vec![0, 255];
        while squares.len() < count {
            squares.push(rng.random_range(0..=255u8));
        }
        for sq in squares {
            let side = rng.random_range(0..2usize);
            let (_, rank) = rules.geo.coord(sq);
            let far = if side == 0 { 15 } else { 0 };
            let kind = if rank == far || rng.random_range(0..4) == 0 {
                1
            } else {
                0
            };
            pos.put(sq, side, kind);
        }
        for _ in 0..30 {
            agrees_with_reference(&rules, &pos);
            checked += 1;
            rules.generate(&pos, &mut moves, GenOptions::default());
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(checked > 300, "{checked} positions");
    // And perft from a position with kings in the four corners, move list and reference alike.
    let pos = fen(&rules, "W:WKp16,Ka1,b8,c8:BKp1,Ka16,Kh9,g9,i9");
    let want = [60, 740, 21122];
    for (depth, &n) in want.iter().enumerate() {
        let depth = depth + 1;
        assert_eq!(rules.perft(&pos, depth, GenOptions::default()), n);
        assert_eq!(wide_perft(&rules, &pos, depth), n);
        assert_eq!(reference_perft(&rules, &pos, depth), n);
    }
    // The example's start position (examples/turkish-16x16.yaml), by the reference too.
    for (depth, n) in [(1, 16), (2, 256), (3, 4996)] {
        assert_eq!(rules.perft(&rules.start, depth, GenOptions::default()), n);
        assert_eq!(reference_perft(&rules, &rules.start, depth), n);
    }
}

/// The deeper perft figures of examples/turkish-16x16.yaml by the reference generator (a few
/// seconds in release).
#[test]
#[ignore = "release: 21 s in the test profile, where the plain reference generator is slow (.ci/run)"]
fn the_16x16_example_perft_by_the_reference() {
    let rules = turkish_16x16();
    assert_eq!(reference_perft(&rules, &rules.start, 4), 93862);
    assert_eq!(reference_perft(&rules, &rules.start, 5), 1928890);
    let pos = fen(&rules, "W:WKp16,Ka1,b8,c8:BKp1,Ka16,Kh9,g9,i9");
    assert_eq!(reference_perft(&rules, &pos, 4), 841902);
}

#[test]
fn square_number_256_reads_and_writes() {
    let text = "variant \"n\"\nboard 16x16, all squares, numbered\n\
                sides white \"W\", black \"B\"; white moves first\n\
                piece man \"M\"\npiece king \"K\"\nsetup white man 225..256\n\
                man: step forward\n      capture jump forward\n      promote to king on far rank\n\
                king: slide orthogonal\n      capture fly orthogonal\n\
                captures: compulsory\ngame: no moves loses\n";
    let rules = Variant::from_source("n.rules", "n", text, None)
        .expect("16x16 numbered compiles")
        .rules
        .as_ref()
        .clone();
    // Numbers run from a16 (1) along each rank: p16 (index 255) is 16, a1 (0) is 241, p1 256.
    assert_eq!(rules.geo.number[255], 16);
    assert_eq!(rules.geo.number[0], 241);
    assert_eq!(rules.geo.number[15], 256);
    assert_eq!(rules.geo.name(15), "256");
    assert_eq!(rules.geo.parse("256"), Some(15));
    assert_eq!(rules.geo.parse("257"), None);
    assert_eq!(to_fen(&rules, &rules.start), "W:W225-256:B1-32");
    for text in ["W:WK16,256:B241", "B:WK1,250-256:B17,K241", "W:W256:B255"] {
        let pos = fen(&rules, text);
        assert_eq!(to_fen(&rules, &pos), text);
        assert_eq!(fen(&rules, &to_fen(&rules, &pos)), pos);
    }
    assert!(parse_fen(&rules, "W:W257:B1").is_err());
    assert!(parse_fen(&rules, "W:W250-257:B1").is_err());
    // The man on 256 (p1) steps to 240 (p2); the king on 16 (p16) slides from the corner.
    let pos = fen(&rules, "W:WK16,256:B241");
    let moves = written(&rules, &pos);
    assert!(moves.contains(&"256-240".to_string()), "{moves:?}");
    assert!(moves.contains(&"16-1".to_string()) && moves.contains(&"16-32".to_string()));
    assert_eq!(moves.len(), 1 + 29);
}
