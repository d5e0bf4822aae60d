//! Endgame tables inside play: `selfplay --tables` records, game by game, the tables' value of
//! the first position of their materials and counts the games they decided (report, JSON, merge,
//! ladder); `match --tables` counts the games they adjudicated.

use crate::common::{damelab, ok, p, scratch};
use std::path::{Path, PathBuf};

/// English draughts starting from two kings a side (White's on 15 and 22, Black's turned
/// through 180°: 18 and 11), and its tables of "KK v KK" and below, in a folder of their own.
/// Black moves first and wins: the start is a won table position.
fn kings(test: &str) -> (PathBuf, PathBuf) {
    let dir = scratch("selfplay_tables", test);
    let english = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/english.rules"),
    )
    .unwrap();
    let rules = english.replacen("setup white man 21..32", "setup white king 15, 22", 1);
    assert_ne!(rules, english);
    let file = dir.join("kings.rules");
    std::fs::write(&file, rules).unwrap();
    let tables = dir.join("tables");
    ok(&damelab(&[
        "endgame",
        &p(&file),
        "KK v KK",
        "--cache",
        &p(&tables),
    ]));
    (file, tables)
}

use crate::common::read_json as json;

#[test]
fn selfplay_counts_the_games_the_tables_decided() {
    let (rules, tables) = kings("selfplay");
    let dir = rules.parent().unwrap().to_path_buf();
    let whole = dir.join("whole.json");
    let run = |extra: &[&str], out: &Path| {
        let mut args = vec![
            "selfplay".to_string(),
            p(&rules),
            "--games".into(),
            "8".into(),
            "--depth".into(),
            "2".into(),
            "--threads".into(),
            "1".into(),
            "--tables".into(),
            p(&tables),
            "--json".into(),
            p(out),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&damelab(&args))
    };
    // From the start, with no random plies: every game starts in the tables (a win for Black,
    // side 1), and the engines, given the tables, win it.
    let out = run(&["--opening-plies", "0"], &whole);
    assert!(
        out.contains(
            "endgame tables   decided 8 of 8 games (8 reached a position of their materials)"
        ),
        "{out}"
    );
    let j = json(&whole);
    assert_eq!(j["version"], 4);
    assert!(
        j["settings"]["tables"]
            .as_str()
            .unwrap()
            .contains("KK v KK"),
        "{}",
        j["settings"]
    );
    for g in j["games"].as_array().unwrap() {
        assert_eq!(g["tb"], 1, "{g}");
        assert_eq!(g["w"], 1, "{g}");
        // The table that decided it: the start's material.
        assert_eq!(g["tb_material"], "KK v KK", "{g}");
    }
    assert_eq!(j["report"]["tables_reached"], 8);
    assert_eq!(j["report"]["tables_decided"], 8);
    assert!(
        out.contains("tables decided   per material first reached: KK v KK 8 of 8"),
        "{out}"
    );

    // With random opening plies, some games leave the tables' result; the count is of those that
    // end with it, and the shards merge into exactly the single run.
    let varied = dir.join("varied.json");
    let out = run(&["--opening-plies", "6", "--seed", "5"], &varied);
    let j = json(&varied);
    let games = j["games"].as_array().unwrap();
    let decided = games.iter().filter(|g| g["tb"] == g["w"]).count();
    assert!(games.iter().all(|g| g["tb"] == 1), "{j}");
    // Per material: the games that reached each first, and of them those the tables decided.
    let mut per: Vec<(String, usize, usize)> = Vec::new();
    for g in games {
        let m = g["tb_material"].as_str().expect("a material").to_string();
        match per.iter_mut().find(|p| p.0 == m) {
            Some(p) => {
                p.1 += 1;
                p.2 += (g["tb"] == g["w"]) as usize;
            }
            None => per.push((m, 1, (g["tb"] == g["w"]) as usize)),
        }
    }
    for (m, n, d) in &per {
        assert!(out.contains(&format!("{m} {d} of {n}")), "{m}: {out}");
    }
    assert_eq!(j["report"]["tables_decided"], decided as u64);
    assert!(
        out.contains(&format!("decided {decided} of 8 games")),
        "{out}"
    );
    let (s1, s2) = (dir.join("s1.json"), dir.join("s2.json"));
    run(
        &["--opening-plies", "6", "--seed", "5", "--shard", "1/2"],
        &s1,
    );
    run(
        &["--opening-plies", "6", "--seed", "5", "--shard", "2/2"],
        &s2,
    );
    // (`selfplay merge` finds the rules by the variant's name, so a run of a rules file is
    // merged here by the library.)
    use damelab::selfplay::{file::read_run, merge::merge_files};
    let variant = damelab::Variant::load(&p(&rules)).unwrap();
    let shards = [read_run(&s1).unwrap(), read_run(&s2).unwrap()];
    let merged = merge_files(&shards, &variant.rules).unwrap();
    assert_eq!(merged.report.tables_decided, decided as u64);
    assert_eq!(
        serde_json::to_string_pretty(&merged).unwrap(),
        std::fs::read_to_string(&varied).unwrap()
    );
    // A shard played without the tables is another run.
    let bare = dir.join("bare.json");
    ok(&damelab(&[
        "selfplay",
        &p(&rules),
        "--games",
        "8",
        "--depth",
        "2",
        "--opening-plies",
        "6",
        "--seed",
        "5",
        "--shard",
        "2/2",
        "--json",
        &p(&bare),
    ]));
    let b = json(&bare);
    assert!(b["settings"].get("tables").is_none(), "{b}");
    assert!(b["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g.get("tb").is_none()));
    let err = merge_files(
        &[read_run(&s1).unwrap(), read_run(&bare).unwrap()],
        &variant.rules,
    )
    .unwrap_err();
    assert!(format!("{err}").contains("different settings"), "{err}");
    // An edited verdict is refused.
    let edited = dir.join("edited.json");
    let text = std::fs::read_to_string(&whole).unwrap();
    std::fs::write(&edited, text.replacen("\"tb\": 1", "\"tb\": 0", 1)).unwrap();
    let err = read_run(&edited).unwrap_err();
    assert!(
        format!("{err}").contains(
            "the tables were reached in 8 games and decided 8 where its records have 8 and 7"
        ),
        "{err}"
    );
}

#[test]
fn ladder_rows_count_the_games_the_tables_decided() {
    let (rules, tables) = kings("ladder");
    let out = ok(&damelab(&[
        "selfplay",
        &p(&rules),
        "--games",
        "4",
        "--ladder",
        "depth=1,2",
        "--opening-plies",
        "0",
        "--threads",
        "1",
        "--tables",
        &p(&tables),
    ]));
    assert!(out.contains("decided by the endgame tables\n"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("depth=2") && l.ends_with(" 4 of 4 games (100.0%)")),
        "{out}"
    );
}

#[test]
fn match_counts_the_games_the_tables_adjudicated() {
    let (rules, tables) = kings("match");
    let dir = rules.parent().unwrap();
    let file = dir.join("m.json");
    let out = ok(&damelab(&[
        "match",
        &p(&rules),
        "--engine",
        "name=a depth=2",
        "--engine",
        "name=b depth=2",
        "--games",
        "4",
        "--tables",
        &p(&tables),
        "--json",
        &p(&file),
    ]));
    assert!(
        out.contains("endgame tables decided 4 of 4 games (adjudicated on reaching a position of their materials)"),
        "{out}"
    );
    assert_eq!(json(&file)["tables_decided"], 4);
    // A merge counts them again from the games.
    let read = damelab::matchplay::file::read(&file).unwrap();
    let merged = damelab::matchplay::file::merge(&["m.json".into()], &[read]).unwrap();
    assert_eq!(merged.tables_decided, Some(4));
    // Without tables no such line, and no such field.
    let bare = dir.join("bare.json");
    let out = ok(&damelab(&[
        "match",
        &p(&rules),
        "--engine",
        "name=a depth=2",
        "--engine",
        "name=b depth=2",
        "--games",
        "2",
        "--no-tables",
        "--json",
        &p(&bare),
    ]));
    assert!(!out.contains("endgame tables"), "{out}");
    assert!(json(&bare).get("tables_decided").is_none());
}
