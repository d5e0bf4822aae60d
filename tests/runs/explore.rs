//! `damelab explore` (issue 45): a space of rules around a base, every combination checked, the
//! legal ones played and ranked; resumable, sharded and merged.

use crate::common::{damelab, damelab_with, fails, ok, p, scratch};

fn base(dir: &std::path::Path) -> String {
    let f = dir.join("t.rules");
    std::fs::write(&f, damelab::variants::bundled("turkish").unwrap()).unwrap();
    p(&f)
}

use crate::common::read_json as json;

const VARY: [&str; 4] = [
    "--vary",
    "captures: priority most pieces | free",
    "--vary",
    "king: slide | step",
];

fn explore(dir: &std::path::Path, extra: &[&str], out_json: &str) -> (String, serde_json::Value) {
    let b = base(dir);
    let j = dir.join(out_json);
    let jp = p(&j);
    let mut args = vec!["explore", &b];
    args.extend_from_slice(&VARY);
    args.extend_from_slice(&["--games", "4", "--depth", "1", "--threads", "2"]);
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--json", &jp]);
    let out = ok(&damelab(&args));
    (out, json(&j))
}

#[test]
fn every_combination_is_checked_and_the_legal_ones_ranked() {
    let dir = scratch("explore", "ranked");
    let (out, doc) = explore(&dir, &[], "e.json");
    assert!(out.contains("4 combinations, 2 legal"), "{out}");
    assert!(
        out.contains("illegal  captures=free, king=slide: expected a capture rule"),
        "{out}"
    );
    assert!(out.contains("ranked by balance"), "{out}");
    assert_eq!(doc["format"], "damelab-explore");
    assert_eq!(doc["variants"].as_array().unwrap().len(), 4);
    let table = doc["table"].as_array().unwrap();
    assert_eq!(table.len(), 2);
    let b0 = table[0]["figures"][0]["value"].as_f64().unwrap();
    let b1 = table[1]["figures"][0]["value"].as_f64().unwrap();
    assert!(b0 <= b1, "{out}");
    for row in table {
        assert_eq!(row["games"], 4);
        for f in row["figures"].as_array().unwrap() {
            let (v, lo, hi) = (
                f["value"].as_f64().unwrap(),
                f["ci95"][0].as_f64().unwrap(),
                f["ci95"][1].as_f64().unwrap(),
            );
            assert!(lo <= v + 1e-9 && v <= hi + 1e-9, "{f}");
        }
    }
    // Run again on the same file: every combination is kept, the table is the same.
    let (again, doc2) = explore(&dir, &[], "e.json");
    assert!(again.contains("2 combinations kept"), "{again}");
    assert_eq!(doc2["table"], doc["table"]);
    // Two shards merged give the whole run's games and table; shard 2 finds itself from Slurm's
    // variables (task 1 of an array of 0-1).
    let (_, _) = explore(&dir, &["--shard", "1/2"], "s1.json");
    let b = base(&dir);
    let s2 = p(&dir.join("s2.json"));
    let mut args = vec!["explore", &b];
    args.extend_from_slice(&VARY);
    args.extend_from_slice(&["--games", "4", "--depth", "1", "--threads", "2"]);
    args.extend_from_slice(&["--shard", "auto", "--json", &s2]);
    let slurm = [
        ("SLURM_JOB_ID", "7"),
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "1"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
    ];
    ok(&damelab_with(&args, &slurm));
    assert_eq!(json(&dir.join("s2.json"))["shards"]["held"][0], 2);
    let merged = dir.join("m.json");
    ok(&damelab(&[
        "explore",
        "merge",
        &p(&dir.join("s1.json")),
        &p(&dir.join("s2.json")),
        "--json",
        &p(&merged),
    ]));
    // The merged file is the single run's, byte for byte (the whole run says so, as one).
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(dir.join("e.json")).unwrap()
    );
    let merged = json(&merged);
    assert_eq!(merged["table"], doc["table"]);
    assert_eq!(merged["variants"], doc["variants"]);
    fails(
        &damelab(&["explore", "merge", &p(&dir.join("s1.json"))]),
        1,
        "missing",
    );
}

#[test]
fn empty_too_large_or_unchecked_spaces_are_refused_before_any_game() {
    let dir = scratch("explore", "refused");
    let b = base(&dir);
    fails(
        &damelab(&["explore", &b, "--games", "2"]),
        1,
        "the space is empty",
    );
    fails(
        &damelab(&["explore", &b, "--vary", "nosuch: a | b"]),
        1,
        "has no `nosuch` clause",
    );
    fails(
        &damelab(&["explore", &b, "--vary", "king: hop | skip"]),
        1,
        "holds none of",
    );
    fails(
        &damelab(&[
            "explore",
            &b,
            "--vary",
            "king: slide | step | a | b | c",
            "--vary",
            "captures: compulsory | optional | e | f",
            "--max-variants",
            "8",
        ]),
        1,
        "more than --max-variants 8",
    );
    fails(
        &damelab(&[
            "explore",
            &b,
            "--vary",
            "king: slide | step",
            "--games",
            "100",
            "--max-games",
            "10",
        ]),
        1,
        "more than --max-games 10",
    );
    let broken = dir.join("broken.rules");
    std::fs::write(&broken, "variant \"x\"\nboard 8x8\n").unwrap();
    fails(
        &damelab(&["explore", &p(&broken), "--vary", "board 8x8 | 10x10"]),
        1,
        "does not check",
    );
}
