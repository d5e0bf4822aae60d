//! Ladders past one machine: `selfplay --ladder … --shard K/N|auto` plays the shard's games of
//! every rung (and the rating matches that fall to it), and `selfplay merge` of the shards' ladder
//! files gives exactly the ladder played in one go — its report, its JSON field by field and byte
//! for byte, its PDN byte for byte; a missing shard is named with its rung, and shards of other
//! settings or another ladder are refused.

use damelab::selfplay::ladder::LadderFile;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{damelab_with, fails, ok, p};

fn scratch(test: &str) -> PathBuf {
    crate::common::scratch("lshard", test)
}

/// A small rated ladder of English (two rungs of 6 games, each rated in a match of 2 games), its
/// JSON and PDN as `dir/name.*`, with `extra` arguments (replacing the defaults they give).
fn ladder(dir: &Path, name: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let (json, pdn) = (
        p(&dir.join(format!("{name}.json"))),
        p(&dir.join(format!("{name}.pdn"))),
    );
    let mut args = vec!["selfplay", "english", "--json", &json, "--pdn", &pdn];
    for (option, value) in [
        ("--ladder", "nodes=100,300"),
        ("--games", "6"),
        ("--seed", "5"),
        ("--max-plies", "120"),
        ("--threads", "1"),
        ("--rate-against", "nodes=50"),
        ("--rate-games", "2"),
    ] {
        if !extra.contains(&option) {
            args.extend([option, value]);
        }
    }
    args.extend_from_slice(extra);
    damelab_with(&args, env)
}

fn merge(files: &[PathBuf], extra: &[&str]) -> Output {
    let files: Vec<String> = files.iter().map(|f| p(f)).collect();
    let mut args = vec!["selfplay", "merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend_from_slice(extra);
    damelab_with(&args, &[])
}

fn read(path: &Path) -> LadderFile {
    serde_json::from_slice(&std::fs::read(path).unwrap()).expect("a ladder file")
}

/// Shard `k`'s JSON and PDN files.
fn shard_files(dir: &Path, k: u64) -> [PathBuf; 2] {
    [
        dir.join(format!("shard-{k}.json")),
        dir.join(format!("shard-{k}.pdn")),
    ]
}

#[test]
fn a_ladders_shards_merge_into_exactly_the_single_ladder() {
    let dir = scratch("whole");
    let whole = ok(&ladder(&dir, "whole", &[], &[]));
    // Shards 1 and 3 given, shard 2 found from Slurm's variables (`--array=0-2`).
    for k in [1u64, 3] {
        let s = format!("{k}/3");
        let out = ok(&ladder(&dir, &format!("shard-{k}"), &["--shard", &s], &[]));
        assert!(out.contains(&format!(", shard {k}/3")), "{out}");
    }
    let slurm = [
        ("SLURM_JOB_ID", "7"),
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    let out = ok(&ladder(&dir, "shard-2", &["--shard", "auto"], &slurm));
    assert!(out.contains(", shard 2/3"), "{out}");
    // Each shard plays its third of every rung; rung 1's rating match falls to shard 1, rung 2's
    // to shard 2, none to shard 3.
    for k in 1..=3u64 {
        let f = read(&shard_files(&dir, k)[0]);
        assert_eq!(f.runs.len(), 2);
        for (r, run) in f.runs.iter().enumerate() {
            assert_eq!(run.games.len(), 2, "shard {k} rung {r}");
            assert_eq!(run.shards.held, vec![k]);
            assert_eq!(
                run.rating.is_some(),
                r as u64 + 1 == k,
                "shard {k} rung {r}"
            );
        }
    }
    let (mj, mp) = (dir.join("merged.json"), dir.join("merged.pdn"));
    let mut inputs: Vec<PathBuf> = (1..=3).flat_map(|k| shard_files(&dir, k)).collect();
    let report = ok(&merge(
        &inputs,
        &[
            "--json",
            &p(&mj),
            "--pdn",
            &p(&mp),
            "--svg",
            &p(&dir.join("m.svg")),
        ],
    ));
    // The report is the single ladder's, less its time line.
    let single: Vec<&str> = whole.lines().filter(|l| !l.starts_with("time ")).collect();
    assert_eq!(report.lines().collect::<Vec<_>>(), single);
    assert!(report.contains("Elo [95% CI]"), "{report}");
    let (m, w) = (read(&mj), read(&dir.join("whole.json")));
    assert_eq!(m.variant, w.variant);
    assert_eq!(m.key, w.key);
    assert_eq!(m.asked, w.asked);
    assert_eq!(m.complete, w.complete);
    assert_eq!(m.rungs, w.rungs);
    assert_eq!(m.levelling, w.levelling);
    for (a, b) in m.runs.iter().zip(&w.runs) {
        assert_eq!(a.settings, b.settings);
        assert_eq!(a.shards, b.shards);
        assert_eq!(a.rating, b.rating);
        assert_eq!(a.report, b.report);
        assert_eq!(a.games, b.games);
    }
    assert_eq!(m, w);
    assert_eq!(
        std::fs::read(&mj).unwrap(),
        std::fs::read(dir.join("whole.json")).unwrap()
    );
    assert_eq!(
        std::fs::read(&mp).unwrap(),
        std::fs::read(dir.join("whole.pdn")).unwrap()
    );
    // The merged ladder is a ladder file like any other: it charts.
    let chart = p(&dir.join("chart.svg"));
    ok(&damelab_with(
        &["selfplay", "chart", &p(&mj), "--svg", &chart],
        &[],
    ));
    // A shard missing: named with its rung, nothing written; with --partial, marked so.
    inputs.retain(|f| !f.to_str().unwrap().contains("shard-2."));
    let out = dir.join("partial.json");
    let x = p(&dir.join("x.pdn"));
    fails(
        &merge(&inputs, &["--json", &p(&out), "--pdn", &x]),
        1,
        "rung nodes=100: shard 2 of 3 is missing",
    );
    assert!(!out.exists());
    inputs.retain(|f| f.extension().is_some_and(|e| e == "json"));
    let rep = ok(&merge(&inputs, &["--partial", "--json", &p(&out)]));
    assert!(rep.contains("shards 1, 3 of 3 (partial)"), "{rep}");
    assert_eq!(read(&out).runs[1].games.len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_other_ladders_or_settings_are_refused() {
    let dir = scratch("refuse");
    ok(&ladder(&dir, "a", &["--shard", "1/2"], &[]));
    ok(&ladder(
        &dir,
        "seed",
        &["--shard", "2/2", "--seed", "6"],
        &[],
    ));
    ok(&ladder(
        &dir,
        "rungs",
        &["--shard", "2/2", "--ladder", "nodes=100,200"],
        &[],
    ));
    ok(&ladder(&dir, "split", &["--shard", "2/3"], &[]));
    let a = dir.join("a.json");
    let with = |other: &str| vec![a.clone(), dir.join(other)];
    fails(&merge(&with("seed.json"), &[]), 1, "`seed` 5 against 6");
    fails(
        &merge(&with("rungs.json"), &[]),
        1,
        "is a ladder of `english` at nodes 100, 200",
    );
    fails(&merge(&with("split.json"), &[]), 1, "shards of 2, ");
    // A run file among ladder files.
    ok(&damelab_with(
        &[
            "selfplay",
            "english",
            "--games",
            "2",
            "--depth",
            "1",
            "--json",
            &p(&dir.join("run.json")),
        ],
        &[],
    ));
    fails(
        &merge(&with("run.json"), &[]),
        1,
        "is not a ladder file, but `",
    );
    // The PDN of another rung set beside the right JSON files.
    ok(&ladder(&dir, "b", &["--shard", "2/2"], &[]));
    fails(
        &merge(
            &[
                a.clone(),
                dir.join("b.json"),
                dir.join("a.pdn"),
                dir.join("seed.pdn"),
            ],
            &["--pdn", &p(&dir.join("x.pdn"))],
        ),
        1,
        "is of none of the runs merged",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
