//! A variant with the huff of a smaller capture (`huffing of smaller captures`: Dum Blas)
//! through the engine and the runs: self-play, a PDN replay, a match and an analysis run without
//! panic and finish; a smaller capture's huff is carried by the position and hashed.

use crate::common::{runs_through_the_engine, scratch};
use damelab::notation::{parse_fen, to_fen};
use damelab::search::zobrist::Keys;
use damelab::Variant;

#[test]
fn selfplay_match_analyse_and_replay_run_on_dum_blas() {
    let dir = scratch("huff-smaller", "runs");
    runs_through_the_engine("dum-blas", &dir);
}

#[test]
fn a_smaller_capture_leaves_its_piece_open_to_a_huff() {
    let v = Variant::load("dum-blas").expect("bundled");
    let rules = &v.rules;
    let keys = Keys::shared();
    let pos = parse_fen(rules, "W:W32,38:B17,27,28").expect("valid FEN");
    let mut moves = Vec::new();
    rules.generate(&pos, &mut moves, Default::default());
    let after = |n: u32| {
        let mv = moves
            .iter()
            .find(|m| m.captures() == n)
            .expect("a capture of n pieces");
        (pos.play(mv), mv)
    };
    let (smaller, mv) = after(1);
    assert_eq!(to_fen(rules, &smaller), "B:W23,38:B17,27:*23");
    let h = keys.hash(&pos);
    assert_eq!(keys.after(&pos, h, mv, &smaller), keys.hash(&smaller));
    let (most, _) = after(2);
    assert_eq!(to_fen(rules, &most), "B:W12,38:B28");
    let plain = parse_fen(rules, "B:W23,38:B17,27").expect("valid FEN");
    assert_ne!(keys.hash(&plain), keys.hash(&smaller), "the huff is hashed");
}
