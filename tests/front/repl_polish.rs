//! The workbench as a new user meets it: a line left after `goto` kept as a variation and saved,
//! tags that stay with their game, a variant without a GameType saved so that it reopens, the
//! one-game-a-line archive opened game by game, and the engine that plays a side taking back a
//! full move or playing itself, and `load` and `reload` showing the checker's warnings.

use damelab::repl::Session;
use damelab::Variant;
use std::path::PathBuf;

fn load(name: &str) -> Variant {
    Variant::load(name).expect("a bundled variant")
}

/// A scratch folder of this test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("damelab-repl-polish-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn a_move_played_after_goto_keeps_the_old_line_as_a_variation() {
    let dir = scratch("variation");
    let file = dir.join("g.pdn");
    let path = file.to_str().expect("a UTF-8 path");
    let mut s = Session::new(load("english"));
    s.execute("11-15 23-19 8-11 22-17 9-13");
    assert_eq!(s.execute("gt 2"), "ply 2 of 5: 23-19 (black to move)\n");
    let out = s.execute("9-14");
    assert_eq!(
        out,
        "2. 9-14\nthe game's other 3 moves from here are kept as a variation (`save` writes it)\n"
    );
    let out = s.execute(&format!("save {path}"));
    assert_eq!(
        out,
        format!("saved 3 moves and 1 variation (3 moves) to {path} (result *)\n")
    );
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(
        text.contains("1. 11-15 23-19 2. 9-14 (2. 8-11 22-17 3. 9-13) *"),
        "{text}"
    );
    // Opened again, the variation is there; its first move follows it.
    let mut t = Session::new(load("dameo"));
    let out = t.execute(&format!("open {path}"));
    assert!(out.contains("with 1 variation (3 moves)"), "{out}");
    t.execute("goto 2");
    assert_eq!(
        t.execute("8-11"),
        "2. 8-11\nthe game's other move from here is kept as a variation (`save` writes it)\n"
    );
    assert_eq!(t.execute("next"), "ply 4 of 5: 22-17 (black to move)\n");
    assert_eq!(t.execute("last"), "ply 5 of 5: 9-13 (white to move)\n");
    // Both lines are in the file written now, the new main line first.
    t.execute(&format!("save {path}"));
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(
        text.contains("2. 8-11 (2. 9-14) 2... 22-17 3. 9-13 *"),
        "{text}"
    );
    // Playing the game's own next move just goes forward.
    t.execute("goto 3");
    assert_eq!(t.execute("22-17"), "2... 22-17\n");
    assert_eq!(t.execute("last"), "ply 5 of 5: 9-13 (white to move)\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tags_stay_with_their_game() {
    let dir = scratch("tags");
    let (a, b) = (dir.join("a.pdn"), dir.join("b.pdn"));
    std::fs::write(
        &a,
        "[Event \"club night\"]\n[White \"Ann\"]\n[GameType \"21\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 1-0\n",
    )
    .expect("written");
    let mut s = Session::new(load("english"));
    s.execute(&format!("open {}", a.display()));
    // A new game is not the game `open` read: its tags are not written over it.
    s.execute("new");
    s.execute("9-13");
    s.execute(&format!("save {}", b.display()));
    let text = std::fs::read_to_string(&b).expect("saved");
    assert!(
        !text.contains("club night") && !text.contains("Ann"),
        "{text}"
    );
    assert!(text.contains("[Result \"*\"]"), "{text}");
    // `undo` brings the opened game back, tags and all.
    s.execute("undo");
    s.execute("undo");
    s.execute(&format!("save {}", b.display()));
    let text = std::fs::read_to_string(&b).expect("saved");
    assert!(text.contains("[Event \"club night\"]"), "{text}");
    assert!(text.contains("1. 11-15 23-19 1-0"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variant_without_game_type_reopens_from_its_rules_tag() {
    let dir = scratch("rules-tag");
    let file = dir.join("d.pdn");
    let path = file.to_str().expect("a UTF-8 path");
    let mut s = Session::new(load("dameo"));
    s.execute("c3-c4 f6-f5");
    s.execute(&format!("save {path}"));
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains("[Rules \"dameo "), "{text}");
    assert!(!text.contains("GameType"), "{text}");
    let mut t = Session::new(load("english"));
    let out = t.execute(&format!("open {path}"));
    assert!(out.starts_with("loaded Dameo\nopened game 1 of 1"), "{out}");
    assert_eq!(t.game.moves().len(), 2);

    // A rules file: its path is in the tag, and a changed file is noticed.
    let rules = dir.join("mydameo.rules");
    let original =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/dameo.rules"))
            .expect("Dameo's rules");
    std::fs::write(&rules, &original).expect("copied");
    let mut u = Session::new(Variant::from_path(&rules).expect("the copy loads"));
    u.execute("c3-c4");
    u.execute(&format!("save {path}"));
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(
        text.contains(&format!("[Rules \"{} ", rules.display())),
        "{text}"
    );
    let out = Session::new(load("english")).execute(&format!("open {path}"));
    assert!(out.contains("opened game 1 of 1"), "{out}");
    assert!(!out.contains("have changed"), "{out}");
    std::fs::write(
        &rules,
        original.replace("draw on 3rd repetition", "draw on 4th repetition"),
    )
    .expect("edited");
    let out = Session::new(load("english")).execute(&format!("open {path}"));
    assert!(
        out.contains("have changed since the game was written"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn open_reads_every_game_of_the_one_game_a_line_archive() {
    let dir = scratch("acf");
    let file = dir.join("archive.txt");
    std::fs::write(
        &file,
        "10-13 21-17 5-10 22-18\t*\n10-13 21-17 5-10 22-19 9-12\t*\n10-13 21-17\t*\n",
    )
    .expect("written");
    let mut s = Session::new(load("dameo"));
    let out = s.execute(&format!("open {} 2", file.display()));
    assert!(
        out.starts_with("loaded English draughts\nopened game 2 of 3"),
        "{out}"
    );
    assert!(
        out.contains("note: the archive's games are English draughts"),
        "{out}"
    );
    assert_eq!(s.game.moves().len(), 5);
    assert!(s
        .execute(&format!("open {} 3", file.display()))
        .contains("game 3 of 3"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undo_takes_back_a_full_move_when_the_engine_plays_a_side() {
    let mut s = Session::new(load("turkish"));
    let out = s.execute("engine black depth 1");
    assert_eq!(out, "the engine plays black\n");
    let out = s.execute("a3-a4");
    assert!(out.starts_with("1. a3-a4\n"), "{out}");
    assert!(out.contains("1... "), "the engine answers: {out}");
    assert_eq!(s.game.moves().len(), 2);
    let out = s.execute("undo");
    assert!(out.starts_with("took back "), "{out}");
    assert_eq!(s.game.moves().len(), 0, "{out}");
    assert_eq!(s.game.position().turn(), 0);

    // The engine plays White: after the user's undo it is Black's (the user's) turn again, and
    // when only the engine's first move is left it moves again instead of sitting idle.
    let mut t = Session::new(load("turkish"));
    t.execute("engine white depth 1");
    assert_eq!(t.game.moves().len(), 1);
    let legal = t.legal_move_names();
    t.execute(&legal[0]);
    assert_eq!(t.game.moves().len(), 3);
    t.execute("undo");
    assert_eq!(t.game.moves().len(), 1);
    assert_eq!(t.game.position().turn(), 1);
    let out = t.execute("undo");
    assert_eq!(t.game.moves().len(), 1, "{out}");
    assert!(out.contains("1. "), "the engine moved again: {out}");
}

#[test]
fn the_engine_plays_itself_bounded() {
    let mut s = Session::new(load("english"));
    // Two kings against one: the game ends well within the bound.
    s.execute("fen W:WK1,K3:BK30");
    let out = s.execute("engine both depth 3");
    assert!(
        out.starts_with("the engine plays both sides (Ctrl-C stops it)\n"),
        "{out}"
    );
    assert!(out.contains("you play both sides again"), "{out}");
    let plies = s.game.moves().len();
    assert!(plies > 0 && plies <= 300, "{plies} plies");
    assert!(s.execute("engine both").contains("the game is over") || plies == 300);
    assert!(s
        .execute("engine both depth x")
        .contains("`x` is not a depth"));
}

#[test]
fn load_and_reload_show_the_checkers_warnings() {
    let dir = scratch("warnings");
    let rules = dir.join("nokings.rules");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/rules_warnings/unreachable_king.rules"
    ))
    .expect("the warning's example");
    std::fs::write(&rules, &text).expect("copied");
    let mut s = Session::new(load("dameo"));
    let out = s.execute(&format!("load {}", rules.display()));
    assert!(out.starts_with("loaded nokings: Test\n"), "{out}");
    assert!(out.contains("rules::unreachable_piece"), "{out}");
    assert!(out.contains("piece `king` never comes into play"), "{out}");
    assert!(out.contains("declared here"), "{out}");
    assert_eq!(s.failed, 0, "a warning is not a failure");
    let out = s.execute("reload");
    assert!(
        out.starts_with("reloaded Test: the game's 0 moves"),
        "{out}"
    );
    assert!(out.contains("never comes into play"), "{out}");
    // The file fixed: no warning any more.
    let fixed = text
        .replace("piece king \"K\"\n", "")
        .replace("king: slide orthogonal\n      capture fly orthogonal\n", "");
    std::fs::write(&rules, fixed).expect("rewritten");
    let out = s.execute("reload");
    assert!(out.starts_with("reloaded Test"), "{out}");
    assert!(!out.contains("never comes into play"), "{out}");
    // A bundled variant has none.
    let out = s.execute("load turkish");
    assert!(!out.contains('⚠'), "{out}");
    // The example of `load`'s help is one an installed binary can follow.
    let out = s.execute("load");
    assert!(out.contains("load turkish"), "{out}");
    assert!(!out.contains("variants/"), "{out}");
}
