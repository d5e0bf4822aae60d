//! `selfplay --ladder`: a small ladder on English at tiny node budgets — each rung exactly the
//! plain run at that budget, the figures and the levelling verdict from its games, the rating
//! against a reference, the PDN of every game, the chart — and bad ladders refused precisely;
//! Ctrl-C keeps the finished rungs.

use crate::common::{damelab, fails, ok, p, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(test: &str) -> PathBuf {
    crate::common::scratch("ladder", test)
}

use crate::common::read_json as json;

const COMMON: [&str; 8] = [
    "--games",
    "6",
    "--max-plies",
    "120",
    "--threads",
    "1",
    "--seed",
    "5",
];

#[test]
fn a_small_ladder_reports_each_rung_and_keeps_its_games() {
    let dir = scratch("small");
    let (lj, ls, lp) = (
        p(&dir.join("l.json")),
        p(&dir.join("l.svg")),
        p(&dir.join("l.pdn")),
    );
    let mut args = vec!["selfplay", "english", "--ladder", "nodes=40,160"];
    args.extend(COMMON);
    args.extend([
        "--rate-against",
        "nodes=40",
        "--rate-games",
        "4",
        "--json",
        &lj,
        "--svg",
        &ls,
        "--pdn",
        &lp,
    ]);
    let out = ok(&damelab(&args));
    assert!(
        out.starts_with("english ladder: nodes 40, 160; 6 games a rung"),
        "{out}"
    );
    assert!(out.contains("\nnodes=40 "), "{out}");
    assert!(out.contains("\nnodes=160 "), "{out}");
    assert!(out.contains("draw rate nodes=40 to nodes=160: "), "{out}");
    let l = json(&dir.join("l.json"));
    assert_eq!(l["format"], "damelab-ladder");
    assert_eq!(l["complete"], true);
    let (rungs, runs) = (
        l["rungs"].as_array().unwrap(),
        l["runs"].as_array().unwrap(),
    );
    assert_eq!((rungs.len(), runs.len()), (2, 2));
    for (r, run) in rungs.iter().zip(runs) {
        assert_eq!(r["games"], 6);
        // The figures are those of the rung's games.
        let games = run["games"].as_array().unwrap();
        let draws = games.iter().filter(|g| g["w"] == -1).count();
        assert_eq!(r["draws"]["count"], draws as u64);
        let mean = games
            .iter()
            .map(|g| g["plies"].as_f64().unwrap())
            .sum::<f64>()
            / 6.0;
        let len = &r["length_mean"];
        assert!((len["value"].as_f64().unwrap() - mean).abs() < 1e-9);
        assert!(len["low"].as_f64().unwrap() <= mean && mean <= len["high"].as_f64().unwrap());
        let ends: u64 = r["ends"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[1]["count"].as_u64().unwrap())
            .sum();
        assert_eq!(ends, 6);
        assert_eq!(run["rate_against"]["reference"], "nodes=40");
    }
    // The weakest rung against itself: the same engine, every pair of games 1 point: Elo 0.
    let r0 = &rungs[0]["rating"];
    assert_eq!(
        (r0["games"].as_u64(), r0["score"].as_f64()),
        (Some(4), Some(0.5))
    );
    assert_eq!(r0["elo"].as_f64(), Some(0.0));
    assert!(out.contains("Elo: each rung against nodes=40"), "{out}");
    // The verdict from the two draw rates.
    let lev = &l["levelling"];
    let d = lev["difference"].as_f64().unwrap();
    let want =
        rungs[1]["draws"]["rate"].as_f64().unwrap() - rungs[0]["draws"]["rate"].as_f64().unwrap();
    assert!((d - want).abs() < 1e-12);
    let (lo, hi) = (lev["low"].as_f64().unwrap(), lev["high"].as_f64().unwrap());
    assert!(lo <= d && d <= hi);
    assert_eq!(lev["levelled"].as_bool(), Some(lo <= 0.0 && hi >= 0.0));
    // Each rung is exactly the plain run at its budget.
    let plain = dir.join("plain.json");
    let plain_path = p(&plain);
    let mut args = vec!["selfplay", "english", "--nodes", "160"];
    args.extend(COMMON);
    args.extend(["--json", &plain_path]);
    ok(&damelab(&args));
    let plain = json(&plain);
    assert_eq!(plain["games"], runs[1]["games"]);
    assert_eq!(plain["report"], runs[1]["report"]);
    // Every game as PDN, and it replays.
    let pdn = std::fs::read_to_string(dir.join("l.pdn")).unwrap();
    assert_eq!(pdn.matches("[Event ").count(), 12);
    assert!(pdn.contains("[White \"damelab 160 nodes\"]"), "{pdn}");
    let replay = ok(&damelab(&["replay", &lp]));
    assert!(replay.contains("12 games: 12 replayed"), "{replay}");
    let svg = std::fs::read_to_string(dir.join("l.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("draw rate"),
        "{svg:.200}"
    );
    // The ladder file charts (with other variants' ladders).
    let chart = p(&dir.join("chart.svg"));
    let out = ok(&damelab(&["selfplay", "chart", &lj, "--svg", &chart]));
    assert!(out.starts_with("english "), "{out}");
    assert!(
        out.contains("nodes=40: ") && out.contains("nodes=160: "),
        "{out}"
    );
    // A ladder file and a run file do not chart together.
    let plain = p(&dir.join("plain.json"));
    fails(
        &damelab(&["selfplay", "chart", &lj, &plain, "--svg", &chart]),
        1,
        "is not a ladder file, but other files are",
    );
}

#[test]
fn bad_ladders_are_refused_precisely() {
    let cases: [(&str, &str); 7] = [
        ("nodes=", "the ladder `nodes=` has no rungs"),
        ("time=1,2", "unknown ladder key `time`"),
        (
            "speed=1,2",
            "unknown ladder key `speed`: the keys are `nodes` and `depth`",
        ),
        ("nodes=100,100", "ladder rung `nodes=100` is given twice"),
        (
            "nodes=1000,100",
            "ladder rungs must rise: `nodes=100` comes after `1000`",
        ),
        ("depth=3", "has one rung: a ladder needs two or more"),
        ("nodes=1k,2k", "`1k` is not a whole number"),
    ];
    for (ladder, needle) in cases {
        let o = damelab(&["selfplay", "english", "--games", "2", "--ladder", ladder]);
        fails(&o, 1, needle);
    }
    // More arguments beside `selfplay english --games 2`, and what each refusal says.
    let refused: [(&[&str], &str); 5] = [
        (
            &["--ladder", "depth=0,2"],
            "ladder rung `depth=0` is out of range",
        ),
        // A ladder sets the limit itself.
        (
            &["--depth", "2", "--ladder", "depth=1,2"],
            "cannot be used with",
        ),
        // It is sharded as a run is (tests/runs/ladder_shards.rs): `--shard auto` outside a
        // scheduler names the variables it looked for.
        (
            &["--shard", "auto", "--ladder", "depth=1,2"],
            "--shard auto found no array job",
        ),
        // A bad reference.
        (
            &["--ladder", "depth=1,2", "--rate-against", "speed=3"],
            "--rate-against: unknown engine setting `speed`",
        ),
        (
            &["--depth", "1", "--rate-against", "name=x"],
            "has no limit",
        ),
    ];
    for (more, needle) in refused {
        let mut args = vec!["selfplay", "english", "--games", "2"];
        args.extend_from_slice(more);
        fails(&damelab(&args), 1, needle);
    }
}

/// Ctrl-C (SIGINT) during the second rung: the first rung's figures are reported and written, the
/// exit status is 1.
#[cfg(unix)]
#[test]
fn an_interrupted_ladder_keeps_its_finished_rungs() {
    use std::time::{Duration, Instant};
    let dir = scratch("interrupted");
    let lj = p(&dir.join("l.json"));
    let mut child = crate::common::bin()
        .args([
            "selfplay",
            "english",
            "--ladder",
            "nodes=30,2000000",
            "--games",
            "4",
            "--threads",
            "1",
            "--json",
            &lj,
        ])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first rung takes milliseconds, the second minutes: interrupt once stderr says the
    // first has finished.
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut all = Vec::new();
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line.clone());
            all.extend_from_slice(line.as_bytes());
            all.push(b'\n');
        }
        all
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.starts_with("rung 1/2 nodes=30 finished: 4 games") => break,
            Ok(_) => {}
            Err(e) => panic!("no line for the first rung: {e}"),
        }
    }
    let t = Instant::now();
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let mut o = child.wait_with_output().unwrap();
    o.stderr = reader.join().unwrap();
    assert!(t.elapsed() < Duration::from_secs(60), "it stopped");
    fails(
        &o,
        1,
        "interrupted during rung nodes=2000000: 1 of 2 rungs finished, their figures and files written",
    );
    let out = text(&o.stdout);
    assert!(
        out.contains("\nnodes=30 ") && out.contains("(interrupted: 1 of 2 rungs finished)"),
        "{out}"
    );
    let l = json(Path::new(&lj));
    assert_eq!(l["complete"], false);
    assert_eq!(l["rungs"].as_array().unwrap().len(), 1);
    assert_eq!(l["runs"][0]["games"].as_array().unwrap().len(), 4);
}

/// A rated run: the strength line, the rating in the JSON; its shards (shard 1 plays the rating
/// match) merge into exactly the rated run played at once.
#[test]
fn a_rated_run_quotes_its_strength_and_merges_from_shards() {
    let dir = scratch("rated");
    let run_against = |name: &str, reference: &str, extra: &[&str]| {
        let path = p(&dir.join(format!("{name}.json")));
        let mut args = vec![
            "selfplay",
            "english",
            "--games",
            "4",
            "--depth",
            "2",
            "--threads",
            "1",
            "--rate-against",
            reference,
            "--rate-games",
            "6",
            "--json",
            &path,
        ];
        args.extend_from_slice(extra);
        ok(&damelab(&args))
    };
    let run = |name: &str, extra: &[&str]| run_against(name, "depth=1", extra);
    let whole = run("whole", &[]);
    assert!(
        whole.contains("\nstrength         depth 2: Elo +"),
        "{whole}"
    );
    assert!(whole.contains(" against depth=1 (6 games, +"), "{whole}");
    let s1 = run("s1", &["--shard", "1/2"]);
    let s2 = run("s2", &["--shard", "2/2"]);
    assert!(s1.contains("strength         depth 2: Elo"), "{s1}");
    assert!(
        s2.contains("(rated against depth=1 in shard 1's file)"),
        "{s2}"
    );
    let j = json(&dir.join("whole.json"));
    assert_eq!(j["version"], 4);
    assert_eq!(j["rating"]["games"], 6);
    assert_eq!(j["rating"]["reference"], "depth=1");
    assert_eq!(
        json(&dir.join("s2.json"))["rating"],
        serde_json::Value::Null
    );
    let merged = p(&dir.join("merged.json"));
    let (a, b) = (p(&dir.join("s1.json")), p(&dir.join("s2.json")));
    ok(&damelab(&["selfplay", "merge", &b, &a, "--json", &merged]));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(dir.join("whole.json")).unwrap()
    );
    // Shards rated against different references are not merged.
    run_against("s2b", "depth=3", &["--shard", "2/2"]);
    let c = p(&dir.join("s2b.json"));
    fails(
        &damelab(&["selfplay", "merge", &a, &c]),
        1,
        "`rate_against.reference` \"depth=1\" against \"depth=3\"",
    );
}
