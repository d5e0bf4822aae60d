//! Draws examined (issue 45): every drawn game of a self-play run classed, the shuffling draws
//! flagged, and the engines' contempt for a draw by repetition.

use crate::common::{damelab, fails, ok, p, scratch};
use serde_json::Value;

/// A run's JSON file, read back.
fn run(dir: &std::path::Path, name: &str, extra: &[&str]) -> (String, Value) {
    let json = dir.join(format!("{name}.json"));
    let mut args = vec!["selfplay", "turkish", "--games", "12", "--threads", "1"];
    args.extend_from_slice(extra);
    let path = p(&json);
    args.extend_from_slice(&["--json", &path]);
    let out = ok(&damelab(&args));
    let doc = crate::common::read_json(&json);
    (out, doc)
}

#[test]
fn every_draw_has_a_class_and_the_classes_add_up_to_the_draws() {
    let dir = scratch("draws", "classes");
    // Random play repeats positions often: classes of several kinds.
    let (out, doc) = run(&dir, "random", &["--random", "--seed", "3"]);
    let games = doc["games"].as_array().unwrap();
    let mut draws = 0;
    let mut shuffles = 0;
    for g in games {
        let drawn = g["w"] == -1;
        draws += drawn as u64;
        assert_eq!(g.get("draw").is_some(), drawn, "{g}");
        if g.get("shuffle").is_some() {
            assert_eq!(g["end"], "repetition", "{g}");
            shuffles += 1;
        }
        if g["end"] == "repetition" {
            let class = g["draw"].as_str().unwrap();
            assert!(class.starts_with("repetition-"), "{g}");
        }
    }
    assert!(draws > 0, "no draw in 12 random Turkish games: {out}");
    let classes = doc["report"]["draw_classes"].as_array().unwrap();
    assert_eq!(classes.len(), 7);
    let total: u64 = classes.iter().map(|c| c[1].as_u64().unwrap()).sum();
    assert_eq!(total, draws);
    assert_eq!(doc["report"]["shuffling"].as_u64(), Some(shuffles));
    assert!(out.contains("draws by class"), "{out}");
    // A merge of the file recomputes the same classes.
    let merged = ok(&damelab(&[
        "selfplay",
        "merge",
        &p(&dir.join("random.json")),
    ]));
    let line = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("draws by class"))
            .map(str::to_string)
    };
    assert_eq!(line(&merged), line(&out));
}

#[test]
fn contempt_is_recorded_changes_the_games_and_is_checked() {
    let dir = scratch("draws", "contempt");
    let (_, plain) = run(&dir, "plain", &["--depth", "2", "--seed", "5"]);
    let (out, keen) = run(
        &dir,
        "keen",
        &["--depth", "2", "--seed", "5", "--contempt", "300"],
    );
    assert!(out.contains("contempt 300"), "{out}");
    assert_eq!(keen["settings"]["contempt"], 300);
    assert!(plain["settings"].get("contempt").is_none());
    // The same seeds and openings, other choices wherever a repetition was in sight.
    assert_ne!(plain["games"], keen["games"]);
    fails(
        &damelab(&["selfplay", "turkish", "--games", "2", "--contempt", "5000"]),
        1,
        "--contempt 5000 is out of range",
    );
    fails(
        &damelab(&[
            "selfplay",
            "turkish",
            "--games",
            "2",
            "--random",
            "--contempt",
            "5",
        ]),
        1,
        "cannot be used with",
    );
}
