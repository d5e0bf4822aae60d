//! Declared single combat in records: a PDN game whose moves declare (`@`) replays, the FEN of a
//! declared combat reads back, and an `@` where no combat can be declared is refused.

use crate::common::{damelab, fails, ok};

#[test]
fn a_declared_combat_replays_from_pdn() {
    let dir = crate::common::temp_home();
    let path = dir.join("combat.pdn");
    std::fs::write(
        &path,
        "[Event \"t\"]\n[FEN \"W:Wc3:Bg9\"]\n[Result \"*\"]\n\
         1. @c3-d4 g9-f8 2. d4-e5 f8-e7 3. e5xe9 *\n",
    )
    .unwrap();
    let out = ok(&damelab(&[
        "replay",
        "--variant",
        "dablot-prejjesne",
        path.to_str().unwrap(),
    ]));
    assert!(out.contains("1 replayed, 0 failed"), "{out}");
}

#[test]
fn the_fen_of_a_combat_reads_back_and_binds_the_moves() {
    let out = ok(&damelab(&[
        "moves",
        "dablot-prejjesne",
        "--fen",
        "B:Wd4:Bg9:combat",
    ]));
    assert_eq!(
        out.split_whitespace().collect::<Vec<_>>(),
        ["g9-e9", "g9-f8", "g9-g7"]
    );
}

#[test]
fn a_combat_field_where_none_can_be_declared_is_refused() {
    let o = damelab(&["moves", "dablot-prejjesne", "--fen", "W:WKc3:BKg9:combat"]);
    fails(&o, 1, "no single combat can be declared in this position");
}
