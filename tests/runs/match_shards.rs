//! `damelab match --shard K/N|auto` and `match merge`: the shards of a match (its pairs of games,
//! never split) merged give exactly the match played in one go — the JSON field by field, the PDN
//! byte for byte, the standings line — and missing shards, other settings and out-of-range shards
//! are refused with a precise diagnostic.

use crate::common::{damelab_with as damelab, fails, ok, p};
use std::path::{Path, PathBuf};
use std::process::Output;

fn scratch(test: &str) -> PathBuf {
    crate::common::scratch("mshard", test)
}

/// A small round robin of three engines (English, 8 games a pairing: 4 pairs of games), its JSON
/// and PDN as `dir/name.*`, with `extra` arguments.
fn play(dir: &Path, name: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let (json, pdn) = (
        dir.join(format!("{name}.json")),
        dir.join(format!("{name}.pdn")),
    );
    let (json, pdn) = (p(&json), p(&pdn));
    let mut args = vec![
        "match",
        "english",
        "--engine",
        "name=a nodes=300",
        "--engine",
        "name=b depth=2",
        "--engine",
        "name=c nodes=120",
        "--each",
        "hash=1",
        "--games",
        "8",
        "--no-tables",
        "--max-plies",
        "150",
        "--json",
        &json,
        "--pdn",
        &pdn,
    ];
    if !extra.contains(&"--seed") {
        args.extend(["--seed", "3"]);
    }
    args.extend_from_slice(extra);
    damelab(&args, env)
}

use crate::common::read_json as json;

/// Each differing field of two JSON values, one a line.
fn diff(a: &serde_json::Value, b: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let null = Value::Null;
                diff(
                    x.get(k).unwrap_or(&null),
                    y.get(k).unwrap_or(&null),
                    &format!("{at}.{k}"),
                    out,
                );
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                diff(u, v, &format!("{at}[{i}]"), out);
            }
        }
        _ if a != b => out.push(format!("{at}: {a} against {b}")),
        _ => {}
    }
}

#[test]
fn merged_match_shards_equal_the_unsharded_match_field_by_field() {
    let dir = scratch("equal");
    let whole = ok(&play(&dir, "whole", &["--concurrency", "2"], &[]));
    // Shard 2 of 3 from Slurm's variables (`--array=0-2`), the others given.
    let slurm = [
        ("SLURM_JOB_ID", "7"),
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
    ];
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = if k == 2 {
            ok(&play(&dir, "shard-2", &["--shard", "auto"], &slurm))
        } else {
            ok(&play(
                &dir,
                &format!("shard-{k}"),
                &["--shard", &shard],
                &[],
            ))
        };
        assert!(out.contains(&format!("shard {shard}")), "{out}");
        // A shard holds whole pairs: both colours of each of its openings, in every pairing.
        let j = json(&dir.join(format!("shard-{k}.json")));
        let games = j["games"].as_array().unwrap();
        assert!(!games.is_empty());
        for g in games {
            let (pairing, round) = (&g["pairing"], g["round"].as_u64().unwrap());
            let partner = round ^ 1;
            assert!(
                games
                    .iter()
                    .any(|h| &h["pairing"] == pairing && h["round"] == partner),
                "shard {k}: game {round} of pairing {pairing} without its pair"
            );
            assert_eq!((round / 2) % 3, k - 1, "shard {k} holds pair {}", round / 2);
        }
        assert_eq!(j["shards"]["count"], 3);
    }
    let files: Vec<String> = (1..=3)
        .flat_map(|k| ["json", "pdn"].map(|e| p(&dir.join(format!("shard-{k}.{e}")))))
        .collect();
    let (mj, mp) = (p(&dir.join("merged.json")), p(&dir.join("merged.pdn")));
    let mut args = vec!["match", "merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--json", &mj, "--pdn", &mp]);
    let merged = ok(&damelab(&args, &[]));
    // The same standings, line for line (the first line of each is its header).
    let lines = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(lines(&whole), lines(&merged), "{whole}\n{merged}");
    assert!(merged.contains("a vs b: 8 games"), "{merged}");
    let (a, b) = (
        json(&dir.join("whole.json")),
        json(&dir.join("merged.json")),
    );
    let mut d = Vec::new();
    diff(&a, &b, "", &mut d);
    assert!(
        d.is_empty(),
        "merged differs from the single match:\n{}",
        d.join("\n")
    );
    assert_eq!(a["games"].as_array().unwrap().len(), 24);
    assert_eq!(a["shards"]["held"], serde_json::json!([1]));
    assert_eq!(
        std::fs::read(dir.join("whole.pdn")).unwrap(),
        std::fs::read(dir.join("merged.pdn")).unwrap(),
        "the merged PDN is the single match's, byte for byte"
    );
    // A missing shard is named, with how much of the match is there.
    let mut args = vec!["match", "merge"];
    args.extend([files[0].as_str(), files[4].as_str()]);
    fails(
        &damelab(&args, &[]),
        1,
        "shard 2 of 3 is missing: the files hold 3 of the run's 4 pairs of games",
    );
    args.push("--partial");
    let partial = ok(&damelab(&args, &[]));
    assert!(partial.contains("shards 1, 3 of 3 (partial)"), "{partial}");
    // A shard given twice.
    let args = vec!["match", "merge", files[0].as_str(), files[0].as_str()];
    fails(&damelab(&args, &[]), 1, "shard 1/3 is in both");
}

#[test]
fn shards_of_other_settings_and_bad_shards_are_refused() {
    let dir = scratch("refused");
    ok(&play(&dir, "s1", &["--shard", "1/2"], &[]));
    ok(&play(&dir, "s2", &["--shard", "2/2", "--seed", "4"], &[]));
    let (a, b) = (p(&dir.join("s1.json")), p(&dir.join("s2.json")));
    fails(
        &damelab(&["match", "merge", &a, &b], &[]),
        1,
        "were played with different settings: `settings.seed` 3 against 4",
    );
    // Out of range, malformed, more shards than pairs, outside a scheduler, with an SPRT.
    fails(
        &play(&dir, "x", &["--shard", "5/4"], &[]),
        1,
        "`5/4` is not a shard",
    );
    fails(
        &play(&dir, "x", &["--shard", "0/4"], &[]),
        1,
        "`0/4` is not a shard",
    );
    fails(
        &play(&dir, "x", &["--shard", "1/5"], &[]),
        1,
        "the match has 4 pairs of games (openings) to share out, fewer than 5 shards",
    );
    fails(
        &play(&dir, "x", &["--shard", "auto"], &[]),
        1,
        "--shard auto found no array job: it looked for SLURM_ARRAY_TASK_ID",
    );
    let o = damelab(
        &[
            "match",
            "english",
            "--engine",
            "name=a depth=1",
            "--engine",
            "name=b depth=2",
            "--shard",
            "1/2",
            "--sprt",
            "elo0=0",
        ],
        &[],
    );
    fails(&o, 1, "cannot be used with");
    // Not a match file; a PDN without --pdn.
    fails(
        &damelab(&["match", "merge", &p(&dir.join("s1.pdn"))], &[]),
        1,
        "is a PDN file but no --pdn was given",
    );
    let selfplay = dir.join("sp.json");
    ok(&damelab(
        &[
            "selfplay",
            "english",
            "--games",
            "2",
            "--depth",
            "1",
            "--json",
            &p(&selfplay),
        ],
        &[],
    ));
    fails(
        &damelab(&["match", "merge", &p(&selfplay)], &[]),
        1,
        "is not a match file of version 2 (format `damelab-selfplay`",
    );
}
