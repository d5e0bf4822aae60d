//! PDN: reading (tags, move text, comments, variations, results), the GameType map, the FEN
//! forms, writing and reading back (a property test), replaying, the one-game-a-line archive
//! format, bad input of every kind (each game's error with its line and column, the other games
//! still read, never a panic) and the `replay` command.

use damelab::engine::GenOptions;
use damelab::notation::{parse_fen, to_fen};
use damelab::pdn::{read_acf, read_games, replay, write_game, Loc};
use damelab::{Game, Variant};
use proptest::prelude::*;
use std::process::Output;

fn load(name: &str) -> Variant {
    Variant::load(name).expect("bundled variant")
}

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the damelab binary runs")
}

const SAMPLE: &str = r#"; a line comment
[Event "Sample \"quoted\""]
[White "W"]
[Black "B"]
[GameType "20"]
[Result "1-0"]

1. 32-28 19-23 2. 28x19 14x23 {an exchange} 3. 33-28 $1 23x32 (3... 18-22 4. 37-32) 4. 37x28! 1-0

[Event "Second"]
[GameType "25"]
1.c3-d4 f6-g5 2.d4-e5 d6:f4 3.g3:e5 *
"#;

#[test]
fn reads_tags_moves_comments_variations_and_results() {
    let games = read_games(SAMPLE.as_bytes());
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.tag("event"), Some("Sample \"quoted\""));
    assert_eq!(g.tag("GameType"), Some("20"));
    let moves: Vec<&str> = g.moves.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(
        moves,
        ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]
    );
    assert_eq!(g.comments, [(4, "an exchange".to_string())]);
    assert_eq!(g.result.as_deref(), Some("1-0"));
    assert_eq!(g.moves[0].loc, Loc { line: 8, col: 4 });
    let second = &games[1];
    assert_eq!(second.moves[0].text, "c3-d4");
    assert_eq!(second.moves[0].loc, Loc { line: 12, col: 3 });
    assert_eq!(second.result.as_deref(), Some("*"));
    // Both replay, each in the variant its GameType names.
    let r = replay(load("international").rules.clone(), g).expect("replays");
    assert_eq!(r.game.moves().len(), 7);
    let r = replay(load("russian").rules.clone(), second).expect("replays");
    assert_eq!(r.game.moves().len(), 5);
}

#[test]
fn every_result_token_is_read() {
    for res in ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"] {
        let text = format!("[GameType \"20\"]\n1. 32-28 {res}\n");
        let g = &read_games(text.as_bytes())[0];
        assert!(g.errors.is_empty(), "{res}: {:?}", g.errors);
        assert_eq!(g.result.as_deref(), Some(res));
        assert_eq!(g.moves.len(), 1);
    }
}

#[test]
fn a_recorded_result_must_agree_with_the_board() {
    // White's last man is taken: Black has won on the board, so `1-0` is wrong and `0-1` right.
    let rules = load("international").rules;
    for (res, ok) in [
        ("1-0", false),
        ("0-1", true),
        ("1/2-1/2", false),
        ("*", true),
    ] {
        let text = format!("[FEN \"B:W28:B23\"]\n1... 23x32 {res}\n");
        let g = &read_games(text.as_bytes())[0];
        let r = replay(rules.clone(), g);
        assert_eq!(r.is_ok(), ok, "{res}: {r:?}");
        if let Err(f) = r {
            assert!(
                f.message.contains("disagrees with the board"),
                "{}",
                f.message
            );
        }
    }
}

#[test]
fn an_illegal_move_is_reported_with_ply_position_and_legal_moves() {
    let text = "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *\n";
    let g = &read_games(text.as_bytes())[0];
    let f = replay(load("international").rules.clone(), g).expect_err("illegal");
    assert_eq!(f.ply, Some(2));
    assert_eq!(f.at, Some(Loc { line: 3, col: 19 }));
    assert_eq!(f.recorded.as_deref(), Some("28-22"));
    assert_eq!(f.fen.as_deref(), Some("W:W28,31,33-50:B1-18,20,23"));
    assert_eq!(f.legal, ["28x19"]);
}

#[test]
fn a_capture_from_x_to_must_name_one_capture() {
    // English: 10x26 goes through 17 or 19, taking different men.
    let fen = "B:W14,15,18,21-23,30:B6-8,10,12,13";
    let rules = load("english").rules;
    let text = format!("[FEN \"{fen}\"]\n1... 10x26 *\n");
    let f = replay(rules.clone(), &read_games(text.as_bytes())[0]).expect_err("ambiguous");
    assert!(f.message.contains("ambiguous"), "{}", f.message);
    assert_eq!(f.legal, ["10x17x26", "10x19x26"]);
    // With its landing square it is one move.
    let text = format!("[FEN \"{fen}\"]\n1... 10x17x26 *\n");
    assert!(replay(rules, &read_games(text.as_bytes())[0]).is_ok());
}

#[test]
fn a_flying_capture_may_name_any_landing_square_of_its_route() {
    // Czech: the king on b8 takes c7 and f4 on one line, landing on d6 or e5 between them.
    let rules = load("czech").rules;
    for mv in ["b8xe5xh2", "b8xd6xh2", "1x15x28", "1x28"] {
        let text = format!("[FEN \"W:WK1,11,22,27,30-32:B3,4,6,13,19,25\"]\n1. {mv} *\n");
        let r = replay(rules.clone(), &read_games(text.as_bytes())[0]);
        assert!(r.is_ok(), "{mv}: {r:?}");
    }
}

#[test]
fn game_types_map_to_bundled_variants() {
    use damelab::pdn::parse_game_type;
    for (code, name) in [
        ("20", "international"),
        ("21", "english"),
        ("22", "italian"),
        ("23", "pool"),
        ("24", "spanish"),
        ("25", "russian"),
        ("26", "brazilian"),
        ("29", "czech"),
        ("30", "turkish"),
        ("40", "frisian"),
    ] {
        assert_eq!(parse_game_type(code).map(|(n, _)| n), Ok(name));
        load(name);
    }
    assert_eq!(
        parse_game_type("20,W,10,10,N2,0"),
        Ok(("international", Some((10, 10))))
    );
    assert_eq!(parse_game_type("27").map(|(n, _)| n), Ok("canadian"));
    assert!(parse_game_type("28")
        .unwrap_err()
        .to_string()
        .contains("Portuguese"));
    assert!(parse_game_type("99")
        .unwrap_err()
        .to_string()
        .contains("`99`"));
    assert!(parse_game_type("x")
        .unwrap_err()
        .to_string()
        .contains("not a number"));
    // The extended form's board must be the variant's.
    let text = "[GameType \"20,W,8,8,N1,0\"]\n1. 32-28 *\n";
    let g = &read_games(text.as_bytes())[0];
    let mut cache = damelab::pdn::VariantCache::default();
    let e = damelab::pdn::variant_for(g, None, &mut cache).expect_err("wrong board");
    assert!(e.to_string().contains("8x8"), "{e}");
}

#[test]
fn fen_forms_of_pdn_and_lidraughts() {
    let rules = load("international").rules;
    let start = to_fen(&rules, &rules.start);
    for f in [
        "W:W31-50:B1-20",
        "W:W31-50:B1-20:H0:F1",
        "[FEN \"W:W31-50:B1-20\"]",
        "[FEN \"W:W31-50:B1-20:H0:F1\"]",
        "\"W:W31-50:B1-20\"",
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20.",
    ] {
        let pos = parse_fen(&rules, f).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(to_fen(&rules, &pos), start, "{f}");
    }
    // A counter field stays an error where it is not a trailing counter.
    assert!(parse_fen(&rules, "W:W31-50:B1-20:X3").is_err());
    let e = parse_fen(&rules, "[FEN \"W:W31-50:Q1-20\"]").expect_err("bad side");
    assert_eq!(
        e.span.offset(),
        15,
        "the span points into the text as given"
    );
}

#[test]
fn bad_input_is_reported_per_game_and_the_others_are_read() {
    let text = concat!(
        "[Event \"unterminated tag]\n",
        "1. 32-28 *\n",
        "\n",
        "[Event \"ok 1\"]\n",
        "1. 32-28 *\n",
        "\n",
        "[Event \"moves after result\"]\n",
        "1. 32-28 1-0 19-23\n",
        "\n",
        "[Event \"stray\"]\n",
        "1. 32-28 } 19-23 *\n",
        "\n",
        "[Event \"not a move\"]\n",
        "1. 32-28 hello *\n",
        "\n",
        "[Event \"unterminated comment\"]\n",
        "1. 32-28 { no end\n",
        "19-23 *\n",
        "\n",
        "[Event \"ok 2\"]\n",
        "1. 33-28 *\n",
    );
    let games = read_games(text.as_bytes());
    let summary: Vec<(Option<&str>, Vec<String>)> = games
        .iter()
        .map(|g| {
            (
                g.tag("Event"),
                g.errors.iter().map(|e| e.to_string()).collect(),
            )
        })
        .collect();
    let ok = |name| {
        summary
            .iter()
            .any(|(e, errs)| *e == Some(name) && errs.is_empty())
    };
    assert!(ok("ok 1"), "{summary:#?}");
    assert!(ok("ok 2"), "{summary:#?}");
    let err = |needle: &str| {
        summary
            .iter()
            .flat_map(|(_, e)| e)
            .find(|e| e.contains(needle))
            .cloned()
            .unwrap_or_else(|| panic!("no error with {needle}: {summary:#?}"))
    };
    assert!(err("unterminated tag").starts_with("1:1: "));
    assert!(err("after the result").starts_with("8:14: "));
    assert!(err("unmatched `}`").starts_with("11:10: "));
    assert!(err("`hello` is not a move").starts_with("14:10: "));
    assert!(err("unterminated comment").starts_with("17:10: "));
}

#[test]
fn bytes_that_are_not_utf8_are_reported_where_they_stand() {
    let mut text = b"[Event \"ok\"]\n1. 32-28 *\n\n[Event \"caf".to_vec();
    text.extend_from_slice(&[0xE9, b'"', b']', b'\n']);
    text.extend_from_slice(b"1. 32-28 {x\xFFy} *\n\n[Event \"after\"]\n1. 33-28 *\n");
    let games = read_games(&text);
    assert_eq!(games.len(), 3);
    assert!(games[0].errors.is_empty());
    assert!(games[2].errors.is_empty());
    let errs: Vec<String> = games[1].errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].starts_with("4:9: byte 0xE9"), "{errs:?}");
    assert!(errs[1].starts_with("5:12: byte 0xFF"), "{errs:?}");
}

#[test]
#[ignore = "slow: run in release by .ci/run"]
fn a_hundred_megabyte_file_is_read_without_panic() {
    big_file_is_read(100_000_000);
}

#[test]
fn a_ten_megabyte_file_is_read_without_panic() {
    big_file_is_read(10_000_000);
}

fn big_file_is_read(size: usize) {
    let mut text =
        b"[Event \"first\"]\n[GameType \"20\"]\n1. 32-28 *\n\n[Event \"huge\"]\n".to_vec();
    let chunk = b"1. 32-28 19-23 2. 28x19 14x23 ";
    while text.len() < size {
        text.extend_from_slice(chunk);
    }
    text.extend_from_slice(b"*\n\n[Event \"last\"]\n[GameType \"20\"]\n1. 33-28 { never closed ");
    text.extend(std::iter::repeat_n(b'z', 1_000_000));
    let games = read_games(&text);
    assert_eq!(games.len(), 3);
    assert!(games[0].errors.is_empty());
    let huge = &games[1];
    assert!(
        huge.errors[0].message.contains("more than"),
        "{:?}",
        huge.errors
    );
    assert!(huge.moves.len() <= damelab::pdn::MAX_MOVES + 1);
    assert!(games[2].errors[0].message.contains("unterminated comment"));
}

#[test]
fn the_archive_format_maps_its_squares() {
    let games = read_acf(b"10-14 22-17\t1-0\n8-12 21-14-5\t0-1\n0-4 x\n");
    assert_eq!(games.len(), 3);
    let moves: Vec<&str> = games[0].moves.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(moves, ["10-14", "22-19"]);
    assert_eq!(games[0].result.as_deref(), Some("1-0"));
    assert_eq!(games[1].moves[1].text, "23-14-7");
    let errs: Vec<String> = games[2].errors.iter().map(|e| e.to_string()).collect();
    assert!(
        errs.iter().any(|e| e.starts_with("3:7: no result")),
        "{errs:?}"
    );
    assert!(errs.iter().any(|e| e.starts_with("3:5: `x`")), "{errs:?}");
}

/// Play `picks` (each an index into the legal moves, modulo their number) from the start.
fn random_game(variant: &Variant, picks: &[usize]) -> Game {
    let mut g = Game::new(variant.rules.clone());
    let mut legal = Vec::new();
    for &p in picks {
        legal.clear();
        variant
            .rules
            .generate(g.position(), &mut legal, GenOptions::default());
        if legal.is_empty() || g.result().is_some() {
            break;
        }
        g.play(legal[p % legal.len()]);
    }
    g
}

const ROUND_TRIP_VARIANTS: &[&str] = &[
    "international",
    "english",
    "italian",
    "russian",
    "czech",
    "pool",
    "spanish",
    "brazilian",
    "turkish",
    "frisian",
    "dameo",
    "armenian",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Write a game (from the start or from a FEN), read it back: the same start, moves and tags.
    #[test]
    fn pdn_round_trip(
        v in 0..ROUND_TRIP_VARIANTS.len(),
        prefix in proptest::collection::vec(0usize..64, 0..30),
        picks in proptest::collection::vec(0usize..64, 0..80),
        event in "[ -~]{0,20}",
    ) {
        let variant = load(ROUND_TRIP_VARIANTS[v]);
        // A start other than the usual one, half the time: the position after `prefix`.
        let start = *random_game(&variant, &prefix).position();
        let mut g = Game::from_position(variant.rules.clone(), start);
        let mut legal = Vec::new();
        for &p in &picks {
            variant.rules.generate(g.position(), &mut legal, GenOptions::default());
            if legal.is_empty() || g.result().is_some() {
                break;
            }
            g.play(legal[p % legal.len()]);
        }
        let tags = vec![("Event".to_string(), event.clone()), ("White".to_string(), "A \\ B".to_string())];
        let comments = vec![(0, "start".to_string())];
        let text = write_game(&g, &tags, &comments, None);
        let read = read_games(text.as_bytes());
        prop_assert_eq!(read.len(), 1, "{}", text);
        let back = &read[0];
        prop_assert!(back.errors.is_empty(), "{:?}\n{}", back.errors, text);
        prop_assert_eq!(back.tag("Event"), Some(event.as_str()));
        prop_assert_eq!(back.tag("White"), Some("A \\ B"));
        prop_assert_eq!(&back.comments, &comments);
        let r = replay(variant.rules.clone(), back);
        prop_assert!(r.is_ok(), "{:?}\n{}", r.err(), text);
        let r = r.expect("checked");
        prop_assert_eq!(r.game.start(), g.start());
        prop_assert_eq!(r.game.moves().len(), g.moves().len());
        for (a, b) in r.game.moves().iter().zip(g.moves()) {
            prop_assert!(a.same_move(b), "{}", text);
        }
    }
}

#[test]
fn replay_samples_with_their_expectations() {
    let o = damelab(&[
        "replay",
        "tests/pdn/english.pdn",
        "tests/pdn/international.pdn",
        "tests/pdn/russian.pdn",
        "tests/pdn/bad.pdn",
        "--expect",
        "tests/pdn/known-bad.tsv",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("tests/pdn/english.pdn: 2 games: 2 replayed, 0 failed"),
        "{out}"
    );
    assert!(
        out.contains("tests/pdn/bad.pdn: 8 games: 3 replayed, 5 failed (5 known bad)"),
        "{out}"
    );
    assert!(out.contains("; 0 unexpected;"), "{out}");
}

#[test]
fn replay_fails_on_an_unexpected_failure_and_shows_it_in_full() {
    let o = damelab(&["replay", "tests/pdn/bad.pdn"]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "game 1 (line 1) FAILED at ply 3 (5:19): `28-22` is not a legal move here",
        "    tags: [Event \"bad: an illegal move\"] [GameType \"20\"] [Result \"*\"]",
        "    position: W:W28,31,33-50:B1-18,20,23",
        "    recorded move: 28-22",
        "    legal moves: 28x19",
        "game 7 (line 31) FAILED (35:10): unterminated comment",
        "5 unexpected",
    ] {
        assert!(out.contains(needle), "{needle}\n{out}");
    }
}

#[test]
fn replay_reports_a_stale_expectation_and_bad_arguments() {
    let dir = std::env::temp_dir().join(format!("damelab-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let exp = dir.join("expect.tsv");
    std::fs::write(&exp, "tests/pdn/english.pdn\t1\t-\tnot really bad\n").expect("write");
    let o = damelab(&[
        "replay",
        "tests/pdn/english.pdn",
        "--expect",
        exp.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("listed as a bad record (not really bad) but it did not fail"));
    std::fs::write(&exp, "garbage\n").expect("write");
    let o = damelab(&[
        "replay",
        "tests/pdn/english.pdn",
        "--expect",
        exp.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read `garbage`"));
    let o = damelab(&["replay", "no-such.pdn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read `no-such.pdn`"));
    let o = damelab(&["replay"]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_without_game_type_is_guessed_with_a_note() {
    let dir = std::env::temp_dir().join(format!("damelab-pdn-nv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("g.pdn");
    std::fs::write(&f, "1. 11-15 23-19 *\n").expect("write");
    let path = f.to_str().expect("utf-8 path");
    // Squares up to 32: English draughts, said in a note.
    let o = damelab(&["replay", path]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}");
    assert!(
        stdout.contains("no GameType tag; its squares go up to 23: read as English draughts"),
        "{stdout}"
    );
    let o = damelab(&["replay", path, "--variant", "english"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_workbench_saves_opens_and_moves_through_games() {
    use damelab::repl::Session;
    let dir = std::env::temp_dir().join(format!("damelab-pdn-repl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("g.pdn");
    let path = file.to_str().expect("utf-8 path");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut s = Session::new(load("english"));
    let out = s.execute("11-15 23-19 8-11 22-17");
    assert!(!out.contains('×'), "{out}");
    s.execute("undo");
    let out = s.execute(&format!("save {path}"));
    assert_eq!(out, format!("saved 4 moves to {path} (result *)\n"));
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    assert!(text.contains("1. 11-15 23-19 2. 8-11 22-17 *"), "{text}");

    let mut t = Session::new(load("dameo"));
    let out = t.execute(&format!("open {path}"));
    assert!(
        out.starts_with("loaded English draughts\nopened game 1 of 1"),
        "{out}"
    );
    assert_eq!(t.game.moves().len(), 4);
    assert_eq!(t.execute("goto 2"), "ply 2 of 4: 23-19 (black to move)\n");
    assert!(t
        .execute("goto 9")
        .contains("give a number from 0 (the start) to 4"));
    assert!(t
        .execute("goto x")
        .contains("`x` is not a ply of this game"));
    t.execute("last");
    assert!(t.execute("next").contains("already at the end of the game"));
    t.execute("first");
    assert!(t.execute("prev").contains("already at the start"));
    assert!(t.execute("first 2").contains("`first` takes no argument"));
    assert!(t.execute("save").contains("`save` needs a file name"));
    assert!(t.execute("open").contains("`open` needs a PDN file"));
    assert!(t
        .execute("open no-such.pdn")
        .contains("cannot read `no-such.pdn`"));
    let bad = format!("{root}/tests/pdn/bad.pdn");
    assert!(t
        .execute(&format!("open {bad} 9"))
        .contains("has 8 games: there is no game 9"));
    // A game with a bad move opens up to it, and says so.
    let out = t.execute(&format!("open {bad} 1"));
    assert!(out.contains("opened game 1 of 8"), "{out}");
    assert!(
        out.contains("the record stops here: its move 3 (`28-22`, 5:19) does not replay"),
        "{out}"
    );
    assert!(
        out.contains("opened the 2 moves before it; 1 move left out"),
        "{out}"
    );
    assert_eq!(t.game.moves().len(), 2);
    // A game that does not open at all leaves the game as it was.
    let out = t.execute(&format!("open {bad} 3"));
    assert!(out.contains("GameType `99`"), "{out}");
    assert_eq!(t.game.rules.spec.name, "international");
    assert_eq!(t.game.moves().len(), 2);
    // `undo` at the start goes back to the game before `open`.
    t.execute("first");
    assert!(t.execute("undo").starts_with("undid `open`"));
    assert_eq!(t.game.rules.spec.name, "english");
    // A game saved from the middle keeps the moves taken back.
    let out = t.execute(&format!("save {path}"));
    assert_eq!(out, format!("saved 4 moves to {path} (result *)\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game whose variations nest `depth` deep, each holding a move (`1. 32-28 (32-28 (32-28 …)))`),
/// then a sound game.
fn nested_variations(depth: usize) -> String {
    let mut s = String::from("[Event \"deep\"]\n[GameType \"20\"]\n1. 32-28 ");
    s.push_str(&"(32-28 ".repeat(depth));
    s.push_str(&")".repeat(depth));
    s.push_str(" *\n\n[Event \"after\"]\n[GameType \"20\"]\n1. 33-28 *\n");
    s
}

/// Issue 49, finding 1: variations nested 5,000 deep (40 KB) overflowed the stack of `replay`,
/// the REPL's `open` and `match --openings`. Up to `MAX_VARIATION_DEPTH` they replay; past it the
/// game gets a diagnostic that names the bound, and the next game is read.
#[test]
fn variations_nested_past_the_bound_are_a_diagnostic() {
    use damelab::limits::MAX_VARIATION_DEPTH;
    let international = load("international");
    let games = read_games(nested_variations(MAX_VARIATION_DEPTH).as_bytes());
    assert!(games[0].errors.is_empty(), "{:?}", games[0].errors);
    let r = replay(international.rules.clone(), &games[0]).expect("replays");
    let mut depth = 0;
    let mut v = &r.variations;
    while let Some(inner) = v.first() {
        depth += 1;
        v = &inner.variations;
    }
    assert_eq!(depth, MAX_VARIATION_DEPTH);
    let games = read_games(nested_variations(MAX_VARIATION_DEPTH + 1).as_bytes());
    assert_eq!(games.len(), 2);
    assert!(
        games[0].errors[0]
            .message
            .contains("nest deeper than 64 levels"),
        "{:?}",
        games[0].errors
    );
    assert!(games[1].errors.is_empty(), "{:?}", games[1].errors);
    assert!(replay(international.rules.clone(), &games[0]).is_err());

    let dir = std::env::temp_dir().join(format!("damelab-pdn-{}-nested", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("deep.pdn");
    std::fs::write(&file, nested_variations(5_000)).unwrap();
    let f = file.to_str().unwrap();
    let o = damelab(&["replay", f]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        format!("{out}{err}").contains("variations nest deeper than 64 levels"),
        "{out}\n{err}"
    );
    assert!(
        !err.contains("overflow") && !err.contains("panicked"),
        "{err}"
    );
    // The REPL's `open`.
    let mut child = crate::common::bin()
        .args(["repl", "international"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the REPL starts");
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        writeln!(input, "open {f}").unwrap();
    }
    let o = child.wait_with_output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{all}");
    assert!(all.contains("nest deeper than 64"), "{all}");
    // `match --openings`: the deep game is refused with its diagnostic.
    let o = damelab(&[
        "match",
        "international",
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=1",
        "--games",
        "2",
        "--no-tables",
        "--max-plies",
        "4",
        "--openings",
        f,
    ]);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !all.contains("overflow") && !all.contains("panicked"),
        "{all}"
    );
    assert!(all.contains("nest deeper than 64"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 49, finding 3: parentheses nested around one move took time quadratic in the depth
/// (100,000 levels 29 s; 200,000 overflowed the stack). Now the reader stops at the bound.
#[test]
fn parentheses_nested_around_one_move_are_read_in_linear_time() {
    let depth = 200_000;
    let mut s = String::from("[GameType \"20\"]\n1. 32-28 ");
    s.push_str(&"(".repeat(depth));
    s.push_str("32-28");
    s.push_str(&")".repeat(depth));
    s.push_str(" *\n");
    let t = std::time::Instant::now();
    let games = read_games(s.as_bytes());
    assert!(t.elapsed().as_secs_f64() < 2.0, "{:?}", t.elapsed());
    assert_eq!(games.len(), 1);
    assert!(
        games[0].errors[0].message.contains("nest deeper than"),
        "{:?}",
        games[0].errors
    );
    // Within the bound the empty levels cost nothing and the move is kept.
    let mut s = String::from("[GameType \"20\"]\n1. 32-28 ");
    s.push_str(&"(".repeat(60));
    s.push_str("33-28");
    s.push_str(&")".repeat(60));
    s.push_str(" *\n");
    let games = read_games(s.as_bytes());
    assert!(games[0].errors.is_empty(), "{:?}", games[0].errors);
    assert_eq!(games[0].variations.len(), 1);
}

/// Issue 49, finding 7: an external engine's NUL and ESC bytes (its name in a tag, its remarks in
/// a comment) were copied raw into the match PDN. Control characters are written as `\u{FFFD}`;
/// comments keep their line ends.
#[test]
fn control_characters_are_not_written_into_pdn() {
    let v = load("international");
    let mut game = Game::new(v.rules.clone());
    let mut legal = Vec::new();
    v.rules
        .generate(game.position(), &mut legal, GenOptions::default());
    game.play(legal[0]);
    let tags = vec![
        ("White".to_string(), "evil\0engine\x1b[31m".to_string()),
        ("Black\x1b".to_string(), "b\u{7}".to_string()),
    ];
    let comments = vec![(1, "says \x1b]0;owned\x07 hi\nsecond line".to_string())];
    let text = write_game(&game, &tags, &comments, None);
    let bad: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(bad.is_empty(), "{bad:?} in {text:?}");
    assert!(
        text.contains("[White \"evil\u{FFFD}engine\u{FFFD}[31m\"]"),
        "{text}"
    );
    assert!(text.contains("[Black \"b\u{FFFD}\"]"), "{text}");
    assert!(text.contains("\u{FFFD}]0;owned\u{FFFD} hi"), "{text}");
    // And it reads back.
    let games = read_games(text.as_bytes());
    assert!(games[0].errors.is_empty(), "{:?}", games[0].errors);
    assert_eq!(
        games[0].tag("White"),
        Some("evil\u{FFFD}engine\u{FFFD}[31m")
    );
}

/// Lidraughts' own GameType numbers (96 Breakthrough, 97 Frysk!, 98 Antidraughts) are read as the
/// bundled variants and written for them; the giveaway games no program numbers get a Rules tag.
#[test]
fn lidraughts_game_types_read_and_written() {
    use damelab::pdn::{game_type_of, parse_game_type, variant_for, VariantCache};
    for (code, name) in [(96, "breakthrough"), (97, "frysk"), (98, "antidraughts")] {
        assert_eq!(parse_game_type(&code.to_string()).expect(name).0, name);
        assert_eq!(game_type_of(name), Some(code));
        let game = Game::new(load(name).rules.clone());
        let text = write_game(&game, &[], &[], None);
        assert!(text.contains(&format!("[GameType \"{code}\"]")), "{text}");
    }
    let text = "[GameType \"98\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n";
    let g = &read_games(text.as_bytes())[0];
    let v = variant_for(g, None, &mut VariantCache::default()).expect("antidraughts");
    assert_eq!(v.rules.spec.name, "antidraughts");
    let r = replay(v.rules.clone(), g).expect("replays");
    assert_eq!(r.game.moves().len(), 4);
    for name in ["poddavki", "giveaway", "doov"] {
        assert_eq!(game_type_of(name), None, "{name}");
        let text = write_game(&Game::new(load(name).rules.clone()), &[], &[], None);
        assert!(text.contains("[Rules \""), "{text}");
    }
}
