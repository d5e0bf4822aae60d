//! `damelab match`: seeded matches with node or depth limits are exactly reproducible (whatever
//! the concurrency), the PDN replays, the JSON holds the standings, absurd settings are refused.

use std::path::PathBuf;
use std::process::{Command, Output};

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Run a match that writes `--json` to `json`; it must succeed. Its standard output and the file.
fn match_json(args: &[&str], json: &std::path::Path) -> (String, serde_json::Value) {
    let mut all = args.to_vec();
    all.extend(["--json", json.to_str().unwrap()]);
    let o = damelab(&all);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let j = crate::common::read_json(json);
    (out, j)
}

fn run_small(tag: &str, concurrency: &str) -> (String, String, serde_json::Value) {
    let pdn = temp(&format!("{tag}.pdn"));
    let json = temp(&format!("{tag}.json"));
    let o = damelab(&[
        "match",
        "dameo",
        "--engine",
        "name=deep depth=3",
        "--engine",
        "name=nodes nodes=800",
        "--each",
        "hash=1",
        "--games",
        "6",
        "--seed",
        "7",
        "--no-tables",
        "--max-plies",
        "120",
        "--concurrency",
        concurrency,
        "--pdn",
        pdn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    let j: serde_json::Value = crate::common::read_json(&json);
    (out, std::fs::read_to_string(&pdn).unwrap(), j)
}

/// Every game's result, reason and length, in order.
fn results(j: &serde_json::Value) -> Vec<String> {
    j["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g["index"], g["result"], g["plies"], g["reason"]
            )
        })
        .collect()
}

#[test]
fn a_seeded_match_is_reproducible_and_its_pdn_replays() {
    let (out1, pdn1, j1) = run_small("a", "1");
    let (out2, pdn2, j2) = run_small("b", "2");
    assert_eq!(results(&j1), results(&j2));
    assert_eq!(pdn1, pdn2, "the same games, in the same order");
    // The same standings (the first line says how many games ran at once).
    assert_eq!(
        out1.lines().skip(1).collect::<Vec<_>>(),
        out2.lines().skip(1).collect::<Vec<_>>()
    );
    assert_eq!(j1["games"].as_array().unwrap().len(), 6);
    assert_eq!(j1["format"], "damelab-match");
    let st = &j1["standings"][0];
    assert_eq!(st["engine"], "deep");
    assert_eq!(st["estimate"]["model"], "pentanomial");
    let t = &st["tally"];
    let sum =
        t["wins"].as_u64().unwrap() + t["draws"].as_u64().unwrap() + t["losses"].as_u64().unwrap();
    assert_eq!(sum, 6);
    assert!(out1.contains("deep vs nodes: 6 games"), "{out1}");
    // Scores and depths as comments, the variant named.
    assert!(pdn1.contains("[Variant \"dameo\"]"), "{pdn1}");
    assert!(pdn1.contains("/3}"), "depth-3 comments: {pdn1}");
    // damelab replay reads every game back.
    let pdn = temp("a.pdn");
    let o = damelab(&["replay", pdn.to_str().unwrap()]);
    let (rout, rerr) = text(&o);
    assert!(o.status.success(), "{rout}\n{rerr}");
    assert!(rout.contains("6 games: 6 replayed"), "{rout}");
}

#[test]
fn the_sprt_stops_a_lopsided_match() {
    let json = temp("sprt.json");
    let o = damelab(&[
        "match",
        "dameo",
        "--engine",
        "name=strong depth=4",
        "--engine",
        "name=weak depth=1",
        "--each",
        "hash=1",
        "--games",
        "400",
        "--no-tables",
        "--max-plies",
        "150",
        "--json",
        json.to_str().unwrap(),
        "--sprt",
        "elo0=0",
        "elo1=200",
        "alpha=0.1",
        "beta=0.1",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("SPRT: LLR"), "{out}");
    let j: serde_json::Value = crate::common::read_json(&json);
    assert_eq!(j["finished"], "sprt", "{out}");
    assert_eq!(j["standings"][0]["verdict"], "h1", "{out}");
    assert!(j["games"].as_array().unwrap().len() < 400);
}

#[test]
fn absurd_settings_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["--games", "0"], "--games 0 is out of range"),
        (&["--concurrency", "0"], "--concurrency 0 is out of range"),
        (&["--concurrency", "65"], "--concurrency 65 is out of range"),
        (&["--each", "movetime=-1"], "`movetime=-1` is out of range"),
        (&["--each", "tc=10+-1"], "the increment is out of range"),
        (&["--each", "speed=9"], "unknown engine setting `speed`"),
        (
            &["--each", "option.nonsense=1"],
            "unknown search option `nonsense`",
        ),
        (&["--sprt", "elo0=5", "elo1=0"], "elo0 < elo1"),
        (
            &["--json", "/nonexistent-dir/m.json"],
            "cannot write `/nonexistent-dir/m.json`",
        ),
        (&["--each", "hash=0"], "`hash=0` is out of range"),
        (
            &["--each", "cmd=\"x y\" nodes=5"],
            "the Hub protocol has no node",
        ),
        (&["--balanced", "0"], "--balanced 0 with --balance-depth 8"),
        (
            &["--balanced", "0.5", "--balance-depth", "31"],
            "--balance-depth 31 is out of range",
        ),
        (
            &["--balanced", "0.5", "--random-plies", "0"],
            "every opening is the start position",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec![
            "match",
            "dameo",
            "--engine",
            "name=a depth=1",
            "--engine",
            "name=b depth=1",
        ];
        args.extend_from_slice(extra);
        let o = damelab(&args);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {out}\n{err}");
        assert!(err.contains(want), "{extra:?}: wanted `{want}` in\n{err}");
        assert!(err.contains("help"), "{extra:?}: a help line in\n{err}");
    }
    // One engine only; an engine without a limit.
    let o = damelab(&["match", "dameo", "--engine", "name=a depth=1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("two or more engines"));
    let o = damelab(&[
        "match",
        "dameo",
        "--engine",
        "name=a",
        "--engine",
        "name=b depth=1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("has no limit"));
}

#[test]
fn openings_come_from_a_file_and_are_played_both_ways() {
    let fens = temp("openings.fen");
    // Two openings: the start, and the start after one move (a PDN game).
    let pdn = temp("openings.pdn");
    std::fs::write(&pdn, "[Event \"o\"]\n\n1. 32-28 *\n").unwrap();
    std::fs::write(&fens, "# one a line\nW:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20\n").unwrap();
    for file in [&fens, &pdn] {
        let json = temp("open.json");
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
            "30",
            "--openings",
            file.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}\n{err}");
        let j: serde_json::Value = crate::common::read_json(&json);
        let g = j["games"].as_array().unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0]["engines"], serde_json::json!([0, 1]));
        assert_eq!(g[1]["engines"], serde_json::json!([1, 0]));
    }
    let bad = temp("bad.fen");
    std::fs::write(&bad, "not a fen\n").unwrap();
    let o = damelab(&[
        "match",
        "international",
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=1",
        "--openings",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("line 1"), "{}", text(&o).1);
}

/// Ctrl-C (SIGINT) stops the match: every finished game stays in the PDN, the standings so far are
/// printed, the exit status is 1.
#[cfg(unix)]
#[test]
fn an_interrupted_match_keeps_its_finished_games() {
    interrupted_by("INT", "interrupted after");
}

/// SIGTERM (a scheduler's or `kill`'s) stops it the same way, and says so.
#[cfg(unix)]
#[test]
fn a_terminated_match_keeps_its_finished_games() {
    interrupted_by("TERM", "interrupted by SIGTERM after");
}

#[cfg(unix)]
fn interrupted_by(signal: &str, says: &str) {
    use std::time::{Duration, Instant};
    let pdn = temp(&format!("interrupted-{signal}.pdn"));
    let child = crate::common::bin()
        .args([
            "match",
            "dameo",
            "--engine",
            "name=a depth=2",
            "--engine",
            "name=b depth=2",
            "--each",
            "hash=1",
            "--games",
            "100000",
            "--no-tables",
            "--max-plies",
            "60",
            "--pdn",
            pdn.to_str().unwrap(),
        ])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a few finished games.
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(30) {
        let n = std::fs::read_to_string(&pdn)
            .map(|s| s.matches("[Event").count())
            .unwrap_or(0);
        if n >= 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let o = child.wait_with_output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains(says), "{err}");
    let games = std::fs::read_to_string(&pdn)
        .unwrap()
        .matches("[Event")
        .count();
    assert!(games >= 3, "{games} games in the PDN");
    assert!(out.contains(&format!("a vs b: {games} games")), "{out}");
}

#[test]
fn endgame_tables_adjudicate() {
    let dir = temp("tables");
    let o = damelab(&[
        "endgame",
        "english",
        "KK v K",
        "--cache",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let fens = temp("kk-k.fen");
    std::fs::write(&fens, "W:WK29,K30:BK4\n").unwrap();
    let json = temp("tables.json");
    let o = damelab(&[
        "match",
        "english",
        "--engine",
        "name=a depth=2",
        "--engine",
        "name=b depth=2",
        "--games",
        "2",
        "--openings",
        fens.to_str().unwrap(),
        "--tables",
        dir.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("endgame tables"), "{out}");
    let j: serde_json::Value = crate::common::read_json(&json);
    for g in j["games"].as_array().unwrap() {
        assert!(
            g["reason"]
                .as_str()
                .unwrap()
                .contains("adjudicated by the endgame tables"),
            "{g}"
        );
        // White wins; in English draughts Black moves first, so the result reads 0-1.
        assert_eq!(g["result"], "0-1");
    }
    // Each engine had the winning side once.
    assert_eq!(j["standings"][0]["tally"]["wins"], 1);
    assert_eq!(j["standings"][0]["tally"]["losses"], 1);
}

#[test]
fn agreed_scores_adjudicate() {
    let json = temp("adj.json");
    let (_, j) = match_json(
        &[
            "match",
            "dameo",
            "--engine",
            "name=a depth=3",
            "--engine",
            "name=b depth=1",
            "--games",
            "4",
            "--no-tables",
            "--adjudicate-score",
            "2",
            "--adjudicate-plies",
            "4",
        ],
        &json,
    );
    let adjudicated = j["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| {
            g["reason"]
                .as_str()
                .unwrap()
                .starts_with("adjudicated: both engines scored +2.00")
        })
        .count();
    assert!(adjudicated > 0, "{}", j["games"]);
}

#[test]
fn balanced_openings_are_the_random_ones_a_short_search_finds_level() {
    use damelab::matchplay::openings::{balanced, random, Balance};
    use damelab::search::{Limits, Searcher};
    let v = damelab::Variant::load("turkish").unwrap();
    let rules = v.rules.clone();
    let b = Balance::new(&rules, 50, 4);
    // An independent scorer: the engine as `analyse` runs it, with the default evaluation.
    let mut s = Searcher::new(rules.clone(), 1);
    let w = damelab::search::weights::resolve(None, &rules).unwrap();
    s.set_options(damelab::search::weights::options(w.as_deref()));
    s.set_weights(w);
    let mut score = |o: &damelab::matchplay::openings::Opening| {
        s.clear();
        let g = o.game(&rules);
        let h = s.history_of(g.start(), g.moves());
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        s.search(g.position(), &h, limits, &mut |_| {}).score
    };
    let (mut lopsided, mut kept) = (0, 0);
    for i in 0..12 {
        let r = random(&rules, 5, i, 6);
        let o = balanced(&rules, 5, i, 6, &b);
        assert_eq!(o.moves.len(), 6, "opening {i}: six plies");
        let (sr, so) = (score(&r), score(&o));
        assert!(so.abs() <= 50, "opening {i}: {so} is not within half a man");
        if sr.abs() > 50 {
            lopsided += 1;
            assert_ne!(
                r.moves, o.moves,
                "opening {i}: a lopsided draw is drawn again"
            );
        } else {
            kept += 1;
            assert_eq!(r.moves, o.moves, "opening {i}: a level first draw is kept");
        }
        // The same seed gives the same opening.
        assert_eq!(balanced(&rules, 5, i, 6, &b).moves, o.moves);
    }
    assert!(lopsided > 0 && kept > 0, "{lopsided} lopsided, {kept} kept");
}

#[test]
fn a_balanced_match_says_so_and_records_it() {
    let json = temp("balanced.json");
    let (out, j) = match_json(
        &[
            "match",
            "turkish",
            "--engine",
            "name=a depth=1",
            "--engine",
            "name=b depth=2",
            "--games",
            "4",
            "--random-plies",
            "6",
            "--balanced",
            "0.5",
            "--balance-depth",
            "4",
            "--no-tables",
        ],
        &json,
    );
    assert!(
        out.contains("openings a depth-4 search scores within 0.5 men"),
        "{out}"
    );
    assert_eq!(j["settings"]["balanced"], serde_json::json!([0.5, 4]));
    // Only with random openings, and the depth only with it.
    let f = temp("one.fen");
    std::fs::write(&f, "W:W31-50:B1-20\n").unwrap();
    for extra in [
        &["--openings", f.to_str().unwrap(), "--balanced", "1"][..],
        &["--balance-depth", "4"][..],
    ] {
        let mut args = vec![
            "match",
            "international",
            "--engine",
            "name=a depth=1",
            "--engine",
            "name=b depth=1",
        ];
        args.extend_from_slice(extra);
        let o = damelab(&args);
        let (out, err) = text(&o);
        assert!(!o.status.success(), "{extra:?}: {out}\n{err}");
        assert!(err.contains("--balance"), "{extra:?}: {err}");
    }
}
