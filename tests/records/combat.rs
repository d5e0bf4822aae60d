//! Declared single combat in records: a PDN game whose moves declare (`@`) replays, the FEN of a
//! declared combat reads back (also after a promotion during the combat), and an `@` where no
//! combat can be declared is refused.

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

/// A man that promotes during a combat fights on as a king (the combat ends only by a capture):
/// the FEN of that combat, a king against a man where only men may declare, reads back and keeps
/// the king to the moves that come nearer (b6 and f4 are one slide from e3, c7 two).
#[test]
fn a_combat_after_a_promotion_reads_back() {
    let dir = crate::common::temp_home();
    let path = dir.join("t.rules");
    std::fs::write(
        &path,
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\" rank 1\npiece king \"K\" rank 2\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal\n\
         game: no moves loses, lone pieces of equal rank may declare single combat\n",
    )
    .unwrap();
    let rules = path.to_str().unwrap();
    let out = ok(&damelab(&["moves", rules, "--fen", "W:WKc7:Be3:combat"]));
    assert_eq!(
        out.split_whitespace().collect::<Vec<_>>(),
        ["c7-b6", "c7-f4"]
    );
    // Undeclared, a king and a man of unequal ranks have every move and none declares.
    let out = ok(&damelab(&["moves", rules, "--fen", "W:WKc7:Be3"]));
    assert_eq!(out.split_whitespace().count(), 9, "{out}");
    assert!(!out.contains('@'), "{out}");
}
