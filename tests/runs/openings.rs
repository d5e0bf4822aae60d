//! Openings for self-play (issue 45): a ballot written by `damelab openings`, played in turn by
//! `selfplay --openings` with the first player's score by opening; balanced random openings as
//! `match --balanced` draws them.

use crate::common::{damelab, fails, ok, p, scratch};
use damelab::matchplay::openings::{ballot, line_of, parse_line, read_file};
use damelab::selfplay::openings::{table, OpeningSet};
use damelab::selfplay::{End, GameRecord, Settings};

use crate::common::read_json as json;

#[test]
fn a_ballot_is_written_played_in_turn_and_tabled_by_opening() {
    let dir = scratch("openings", "ballot");
    let file = dir.join("ballot.txt");
    let out = ok(&damelab(&[
        "openings",
        "turkish",
        "--plies",
        "2",
        "--count",
        "5",
        "-o",
        &p(&file),
    ]));
    assert!(out.contains("5 openings of 2 plies written"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 5, "{text}");
    let mut distinct = lines.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 5, "{text}");
    assert!(lines.iter().all(|l| l.split(' ').count() == 2), "{text}");
    // The same seed draws the same ballot.
    let again = ok(&damelab(&[
        "openings", "turkish", "--plies", "2", "--count", "5",
    ]));
    assert_eq!(again.trim_end(), text.trim_end());

    let run = |extra: &[&str], name: &str| {
        let j = dir.join(name);
        let mut args = vec![
            "selfplay",
            "turkish",
            "--openings",
            file.to_str().unwrap(),
            "--games",
            "10",
            "--depth",
            "1",
            "--opening-plies",
            "2",
            "--threads",
            "2",
        ];
        args.extend_from_slice(extra);
        let jp = p(&j);
        args.extend_from_slice(&["--json", &jp]);
        (ok(&damelab(&args)), json(&j))
    };
    let (out, whole) = run(&[], "whole.json");
    assert!(out.contains("5 openings of"), "{out}");
    assert!(out.contains("first player's score by opening"), "{out}");
    assert!(
        out.contains("openings decide the game on their own"),
        "{out}"
    );
    let rows = whole["opening_table"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["games"], 2, "{r}");
        assert_eq!(r["line"], lines[i], "{r}");
        let (lo, hi) = (
            r["ci95"][0].as_f64().unwrap(),
            r["ci95"][1].as_f64().unwrap(),
        );
        let s = r["first_score"].as_f64().unwrap();
        assert!(lo <= s && s <= hi, "{r}");
    }
    assert_eq!(
        whole["settings"]["openings"]["lines"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    // Two shards merged are the whole run, its table included.
    let (_, s1) = run(&["--shard", "1/2"], "s1.json");
    let (_, s2) = run(&["--shard", "2/2"], "s2.json");
    assert!(s1["opening_table"].as_array().unwrap().len() <= 5);
    let merged = dir.join("merged.json");
    let out = ok(&damelab(&[
        "selfplay",
        "merge",
        &p(&dir.join("s1.json")),
        &p(&dir.join("s2.json")),
        "--json",
        &p(&merged),
    ]));
    assert!(out.contains("first player's score by opening"), "{out}");
    let merged = json(&merged);
    assert_eq!(merged["opening_table"], whole["opening_table"]);
    assert_eq!(merged["report"], whole["report"]);
    let _ = s2;
}

#[test]
fn openings_files_and_balance_settings_that_cannot_be_played_are_refused() {
    let dir = scratch("openings", "refused");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "b3-b4 f6-f5\nb3-b4 b3-b4\n").unwrap();
    let args = |f: &str| {
        vec![
            "selfplay".to_string(),
            "turkish".into(),
            "--openings".into(),
            f.into(),
            "--games".into(),
            "2".into(),
            "--depth".into(),
            "1".into(),
        ]
    };
    let run = |a: Vec<String>| damelab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = fails(&run(args(&p(&bad))), 1, "line 2");
    assert!(err.contains("move 2"), "{err}");
    let fen = dir.join("fen.txt");
    std::fs::write(&fen, "W:Wz9:B\n").unwrap();
    fails(&run(args(&p(&fen))), 1, "line 1");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    fails(&run(args(&p(&empty))), 1, "holds no opening");
    fails(
        &damelab(&[
            "selfplay",
            "turkish",
            "--games",
            "2",
            "--balanced",
            "0.5",
            "--opening-plies",
            "0",
        ]),
        1,
        "every opening is the start position",
    );
    fails(
        &damelab(&["openings", "turkish", "--count", "0"]),
        1,
        "--count 0 is out of range",
    );
    fails(
        &damelab(&["openings", "turkish", "--plies", "0"]),
        1,
        "--plies 0 is out of range",
    );
}

#[test]
fn balanced_self_play_draws_its_openings_as_a_match_does() {
    let out = ok(&damelab(&[
        "selfplay",
        "english",
        "--balanced",
        "0.3",
        "--balance-depth",
        "4",
        "--opening-plies",
        "4",
        "--games",
        "4",
        "--depth",
        "1",
        "--threads",
        "1",
    ]));
    assert!(
        out.contains(
            "balanced random openings (a depth-4 search scores them within 0.30 men) of 4 plies"
        ),
        "{out}"
    );
    assert!(out.contains("games            4"), "{out}");
}

#[test]
fn a_ballot_line_reads_back_as_the_opening_it_was_written_from() {
    for name in ["english", "international", "turkish"] {
        let v = damelab::Variant::load(name).unwrap();
        let rules = v.rules.clone();
        let got = ballot(&rules, 7, 8, 3, None);
        assert_eq!(got.len(), 8, "{name}");
        for o in &got {
            let line = line_of(&rules, o);
            let back = parse_line(&rules, &line).unwrap();
            assert_eq!(back.moves, o.moves, "{name}: {line}");
            assert_eq!(back.start, o.start, "{name}: {line}");
        }
    }
    // A file mixes moves, FENs, and a FEN with moves; `match --openings` reads it the same way.
    let v = damelab::Variant::load("english").unwrap();
    let rules = v.rules.clone();
    let dir = scratch("openings", "mixed");
    let f = dir.join("mixed.txt");
    let fen = damelab::notation::to_fen(&rules, &rules.start);
    std::fs::write(&f, format!("# a ballot\n11-15 23-19\n{fen}\n{fen} 9-13\n")).unwrap();
    let got = read_file(&rules, &f).unwrap();
    assert_eq!(
        got.iter().map(|o| o.moves.len()).collect::<Vec<_>>(),
        [2, 0, 1]
    );
}

fn record(i: u64, w: i8) -> GameRecord {
    GameRecord {
        i,
        w,
        end: if w == -1 {
            End::Repetition
        } else {
            End::NoMoves
        },
        plies: 50,
        moves: 400,
        lm: 0,
        caps: 0,
        promos: 0,
        tb: None,
        tb_material: None,
        draw: None,
        shuffle: false,
    }
}

#[test]
fn an_opening_whose_interval_lies_beyond_half_decides_the_game() {
    let settings = Settings {
        variant: "english".into(),
        rules_fingerprint: String::new(),
        games: 40,
        depth: Some(1),
        nodes: None,
        random: false,
        seed: 1,
        max_plies: 400,
        opening_plies: 2,
        eval: None,
        tables: None,
        contempt: 0,
        openings: Some(OpeningSet {
            file: Some("f".into()),
            lines: vec!["a".into(), "b".into()],
            balanced: None,
        }),
    };
    // Opening 1 (even games): the first side (0) always wins; opening 2: wins split, draws.
    let games: Vec<GameRecord> = (0..40)
        .map(|i| match (i % 2, i % 4) {
            (0, _) => record(i, 0),
            (_, 1) => record(i, 1),
            _ => record(i, -1),
        })
        .collect();
    let rows = table(&settings, 0, &games);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].decides_for, Some(0));
    assert_eq!(rows[0].first_score, 1.0);
    assert_eq!(rows[1].decides_for, Some(1), "{:?}", rows[1]);
    assert!((rows[1].first_score - 0.25).abs() < 1e-9);
    // With the first side 1 the same records make opening 1 the second player's.
    let rows = table(&settings, 1, &games);
    assert_eq!(rows[0].decides_for, Some(0));
    assert_eq!(rows[0].first_score, 0.0);
}
