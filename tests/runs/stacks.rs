//! Variants with columns (`take top`: Lasca, Bashni) through the engine and the runs: self-play,
//! a match, an analysis and a PDN replay run without panic and finish; the search's incremental
//! hash of a capture that changes columns is the hash from scratch; a column's FEN reads back.

use crate::common::{runs_through_the_engine, scratch};
use damelab::engine::GenOptions;
use damelab::notation::{parse_fen, to_fen};
use damelab::search::zobrist::Keys;
use damelab::Variant;

#[test]
fn selfplay_match_analyse_and_replay_run_on_columns() {
    let dir = scratch("stacks", "runs");
    for v in ["lasca", "bashni"] {
        runs_through_the_engine(v, &dir);
    }
}

#[test]
fn the_hash_of_a_capture_of_columns_is_the_hash_from_scratch() {
    let v = Variant::load("lasca").expect("bundled");
    let rules = &v.rules;
    let keys = Keys::shared();
    for fen in [
        "W:Wa1(B):Bb2,d4(W),g7",
        "W:WOc3:Bd4(B),g7",
        "W:Wc5(BB):Bd6,f6",
    ] {
        let pos = parse_fen(rules, fen).expect("valid FEN");
        assert_eq!(to_fen(rules, &pos), fen, "a column's FEN reads back");
        let mut moves = Vec::new();
        rules.generate(&pos, &mut moves, GenOptions::default());
        assert!(!moves.is_empty());
        let h = keys.hash(&pos);
        for mv in &moves {
            let child = pos.play(mv);
            assert_eq!(keys.after(&pos, h, mv, &child), keys.hash(&child), "{fen}");
        }
    }
}

#[test]
fn the_hash_tells_columns_apart() {
    let v = Variant::load("lasca").expect("bundled");
    let keys = Keys::shared();
    let hash = |fen: &str| keys.hash(&parse_fen(&v.rules, fen).expect("valid FEN"));
    let plain = hash("W:Wc3:Bg7");
    let one = hash("W:Wc3(B):Bg7");
    let two = hash("W:Wc3(BB):Bg7");
    let officer = hash("W:Wc3(BO):Bg7");
    assert!(plain != one && one != two && two != officer && plain != two);
}

#[test]
fn the_web_state_lists_a_column_under_its_top() {
    use crate::front::web_api::{ok as ok_json, post, start};
    let srv = start("lasca");
    let s = ok_json(post(
        &srv,
        "/api/fen",
        serde_json::json!({ "fen": "W:Wc3:Bd4(WO),g7" }),
    ));
    let pieces = s["pieces"].as_array().expect("pieces");
    let d4 = pieces
        .iter()
        .find(|p| p["under"].is_array())
        .expect("a piece with a column under it");
    assert_eq!(d4["side"], 1);
    assert_eq!(d4["under"], serde_json::json!([[0, 1]]));
    assert_eq!(pieces.iter().filter(|p| p["under"].is_array()).count(), 1);
}

#[test]
fn a_position_with_more_pieces_than_columns_hold_is_refused() {
    let v = Variant::load("lasca").expect("bundled");
    // 26 pieces: 25 tops and one prisoner.
    let fen = "W:Wa1,c1,e1,g1,b2,d2,f2,a3,c3,e3,g3,b4,d4(B):Ba5,c5,e5,g5,b6,d6,f6,a7,c7,e7,g7,f4";
    let err = parse_fen(&v.rules, fen).expect_err("too many pieces");
    assert!(err.message.contains("at most 25"), "{}", err.message);
    assert!(parse_fen(&v.rules, "W:Wd4(B):Bg7").is_ok());
}

/// The column generator's quick answers agree with its list, over random games of Lasca, Bashni
/// and rules whose jumped columns go at once under a flying king: perft's last-ply count (which
/// counts captures without building them where no two routes are one), `has_moves`, and each
/// quiet move drawn by `nth_quiet`. Also the perft figures of the bundled pair past their cases.
#[test]
fn the_column_generators_quick_answers_agree_with_its_list() {
    use rand::{RngExt, SeedableRng};
    let flying = Variant::from_source(
        "flying",
        "flying",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal\n\
         captures: take top, removed immediately, promotion mid-capture continues\n",
        None,
    )
    .expect("the rules load");
    let bundled = ["lasca", "bashni"].map(|n| Variant::load(n).expect("bundled"));
    let opts = GenOptions::default();
    let mut checked = 0;
    for v in bundled.iter().chain([&flying]) {
        let rules = &v.rules;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut moves = Vec::new();
        for _ in 0..12 {
            let mut pos = rules.start;
            for _ in 0..150 {
                rules.generate(&pos, &mut moves, opts);
                assert_eq!(rules.perft(&pos, 1, opts), moves.len() as u64);
                assert_eq!(rules.has_moves(&pos), !moves.is_empty());
                let quiet: Vec<_> = moves.iter().filter(|m| !m.is_capture()).collect();
                for (k, m) in quiet.iter().enumerate() {
                    assert_eq!(&&rules.nth_quiet(&pos, k), m, "{}", to_fen(rules, &pos));
                }
                checked += 1;
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    assert!(checked > 1000, "{checked} positions");
    let perft = |v: &Variant, depth| v.rules.perft(&v.rules.start, depth, opts);
    assert_eq!(perft(&bundled[0], 10), 13_898);
    assert_eq!(perft(&bundled[1], 7), 189_912);
}

/// `damelab endgame` builds tables of columns for small materials, and refuses a material past
/// what a table of columns indexes with a diagnostic that says why, exit 1, building nothing.
#[test]
fn endgame_tables_of_columns_build_small_materials_and_refuse_large_ones() {
    let cache = scratch("stacks", "endgame-cache");
    for (v, small, large) in [
        ("lasca", "O v S", "SSSSSSSSS v SSSSSSSS"),
        ("bashni", "K v M", "MMMMMMMMM v MMMMMMMM"),
    ] {
        let o = crate::common::damelab_cached(&["endgame", v, small, "--no-cache"], &cache);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{v}: {out}");
        assert!(out.contains("white to move:"), "{v}: {out}");
        let o = crate::common::damelab_cached(&["endgame", v, large, "--no-cache"], &cache);
        assert_eq!(o.status.code(), Some(1), "{v}");
        let err = crate::common::flat(&String::from_utf8_lossy(&o.stderr));
        assert!(
            err.contains("endgame tables of columns (`take top`"),
            "{v}: {err}"
        );
        assert!(err.contains("it has 17 pieces"), "{v}: {err}");
        assert!(err.contains("damelab analyse"), "{v}: {err}");
        assert!(!err.contains("panicked"), "{v}: {err}");
    }
}
