//! Self-play past one machine, through the binary: shards found from a scheduler's variables
//! (`--shard auto`), merged into exactly the single run (JSON field by field, PDN byte for byte),
//! missing shards named, shards of other settings or builds refused, and the PDN read back.

use damelab::selfplay::RunFile;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{flat, ok, text};

/// `damelab ARGS` with `env` set (and no scheduler's variables).
fn damelab(args: &[&str], env: &[(&str, String)]) -> Output {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    crate::common::damelab_with(args, &env)
}

fn fails(o: &Output, needle: &str) -> String {
    crate::common::fails(o, 1, needle)
}

fn scratch(test: &str) -> PathBuf {
    crate::common::scratch("scale", test)
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn read(path: &Path) -> RunFile {
    serde_json::from_slice(&std::fs::read(path).unwrap()).expect("a run file")
}

/// A small run of `variant` with these extra arguments, its JSON and PDN under `dir/name`.
fn run(dir: &Path, name: &str, variant: &str, extra: &[&str], env: &[(&str, String)]) -> Output {
    let json = dir.join(format!("{name}.json"));
    let pdn = dir.join(format!("{name}.pdn"));
    let mut args = vec!["selfplay", variant, "--json", p(&json), "--pdn", p(&pdn)];
    // The defaults of these tests, unless `extra` gives its own.
    for (option, value) in [
        ("--games", "10"),
        ("--depth", "2"),
        ("--seed", "3"),
        ("--max-plies", "150"),
        ("--threads", "1"),
    ] {
        if !extra.contains(&option) {
            args.extend([option, value]);
        }
    }
    args.extend_from_slice(extra);
    damelab(&args, env)
}

/// Slurm's variables for task `id` of `--array=MIN-MAX:STEP`.
fn slurm(id: u64, min: u64, step: u64, count: u64) -> Vec<(&'static str, String)> {
    vec![
        ("SLURM_JOB_ID", "99".into()),
        ("SLURM_ARRAY_TASK_ID", id.to_string()),
        ("SLURM_ARRAY_TASK_MIN", min.to_string()),
        (
            "SLURM_ARRAY_TASK_MAX",
            (min + step * (count - 1)).to_string(),
        ),
        ("SLURM_ARRAY_TASK_STEP", step.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
    ]
}

/// The four shards' JSON and PDN files under `dir`, named `shard-K`.
fn files(dir: &Path) -> Vec<String> {
    let mut f = Vec::new();
    for k in 1..=4 {
        f.push(p(&dir.join(format!("shard-{k}.json"))).to_string());
        f.push(p(&dir.join(format!("shard-{k}.pdn"))).to_string());
    }
    f
}

fn merge(inputs: &[String], extra: &[&str]) -> Output {
    let mut args = vec!["selfplay", "merge"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend_from_slice(extra);
    damelab(&args, &[])
}

#[test]
fn slurm_shards_merge_into_exactly_the_single_run() {
    let dir = scratch("slurm");
    ok(&run(&dir, "whole", "english", &[], &[]));
    // An array `--array=1-7:2`: tasks 1, 3, 5, 7 are shards 1 to 4.
    for k in 1..=4u64 {
        let out = ok(&run(
            &dir,
            &format!("shard-{k}"),
            "english",
            &["--shard", "auto"],
            &slurm(2 * k - 1, 1, 2, 4),
        ));
        assert!(out.contains(&format!("shard {k}/4")), "{out}");
    }
    let merged = dir.join("merged.json");
    let merged_pdn = dir.join("merged.pdn");
    let report = ok(&merge(
        &files(&dir),
        &["--json", p(&merged), "--pdn", p(&merged_pdn)],
    ));
    let (whole, m) = (read(&dir.join("whole.json")), read(&merged));
    // Field by field (the files hold no timings).
    assert_eq!(m.format, whole.format);
    assert_eq!(m.version, whole.version);
    assert_eq!(m.damelab, whole.damelab);
    assert_eq!(m.settings, whole.settings);
    assert_eq!(m.shards, whole.shards);
    assert_eq!(m.report, whole.report);
    assert_eq!(m.games, whole.games);
    assert_eq!(m, whole);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(dir.join("whole.json")).unwrap()
    );
    assert_eq!(
        text(&std::fs::read(&merged_pdn).unwrap()),
        text(&std::fs::read(dir.join("whole.pdn")).unwrap())
    );
    assert!(
        report.starts_with("english: 10 of 10 games, depth 2, learned ")
            && report.contains(" evaluation, seed 3"),
        "{report}"
    );
    assert!(!report.contains("partial"), "{report}");
    // The merged PDN replays: every move legal, every result agreeing with the board.
    let replay = ok(&damelab(&["replay", p(&merged_pdn)], &[]));
    assert!(replay.contains("10 games: 10 replayed"), "{replay}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kubernetes_index_and_missing_shards() {
    let dir = scratch("k8s");
    for k in [1u64, 2, 4] {
        let env = [
            ("JOB_COMPLETION_INDEX", (k - 1).to_string()),
            ("DAMELAB_SHARDS", "4".to_string()),
        ];
        ok(&run(
            &dir,
            &format!("shard-{k}"),
            "dameo",
            &["--shard", "auto"],
            &env,
        ));
    }
    // The count may come from --shards instead of the variable.
    let env = [("JOB_COMPLETION_INDEX", "2".to_string())];
    ok(&run(
        &dir,
        "shard-3",
        "dameo",
        &["--shard", "auto", "--shards", "4"],
        &env,
    ));
    let all = files(&dir);
    let three: Vec<String> = all
        .iter()
        .filter(|f| !f.contains("shard-3."))
        .cloned()
        .collect();
    let out = dir.join("m.json");
    let e = fails(
        &merge(&three, &["--json", p(&out), "--pdn", p(&dir.join("m.pdn"))]),
        "shard 3 of 4 is missing: the files hold 8 of the run's 10 games",
    );
    assert!(e.contains("--partial"), "{e}");
    assert!(!out.exists(), "no partial result written as whole");
    // With --partial: the figures of the shards present, marked so in the report and the file.
    let rep = ok(&merge(
        &three,
        &[
            "--partial",
            "--json",
            p(&out),
            "--pdn",
            p(&dir.join("m.pdn")),
        ],
    ));
    assert!(
        rep.contains("8 of 10 games") && rep.contains("shards 1, 2, 4 of 4 (partial)"),
        "{rep}"
    );
    let partial = read(&out);
    assert_eq!(partial.shards.held, vec![1, 2, 4]);
    // Merging the partial file with the missing shard gives the whole run.
    let whole_out = dir.join("all.json");
    ok(&merge(
        &[
            p(&out).to_string(),
            p(&dir.join("shard-3.json")).to_string(),
        ],
        &["--json", p(&whole_out)],
    ));
    assert!(read(&whole_out).shards.is_whole());
    // Dameo has no GameType: the games are read back in the variant named.
    let replay = ok(&damelab(
        &["replay", p(&dir.join("m.pdn")), "--variant", "dameo"],
        &[],
    ));
    assert!(replay.contains("8 games: 8 replayed"), "{replay}");
    // A PDN file missing from the inputs: the games it held are named.
    let no_pdn: Vec<String> = all.iter().filter(|f| *f != &all[3]).cloned().collect();
    fails(
        &merge(&no_pdn, &["--pdn", p(&dir.join("x.pdn"))]),
        "the PDN files lack 3 of the 10 games merged: 2, 6, 10",
    );
    // A shard given twice.
    let twice = [all[0].clone(), all[0].clone()];
    fails(&merge(&twice, &[]), "shard 1/4 is in both");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_other_settings_splits_or_builds_are_refused() {
    let dir = scratch("refuse");
    ok(&run(&dir, "a", "turkish", &["--shard", "1/2"], &[]));
    ok(&run(
        &dir,
        "seed",
        "turkish",
        &["--shard", "2/2", "--seed", "4"],
        &[],
    ));
    ok(&run(
        &dir,
        "depth",
        "turkish",
        &["--shard", "2/2", "--depth", "3"],
        &[],
    ));
    ok(&run(&dir, "split", "turkish", &["--shard", "2/3"], &[]));
    let a = p(&dir.join("a.json")).to_string();
    let with = |other: &str| vec![a.clone(), p(&dir.join(other)).to_string()];
    fails(&merge(&with("seed.json"), &[]), "`seed` 3 against 4");
    fails(&merge(&with("depth.json"), &[]), "`depth` 2 against 3");
    fails(&merge(&with("split.json"), &[]), "shards of 2, ");
    // Another build of damelab.
    let body = text(&std::fs::read(dir.join("seed.json")).unwrap());
    let version = format!("\"damelab\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(
        body.contains(&version),
        "the file records the damelab version"
    );
    let fixed = body
        .replacen(&version, "\"damelab\": \"0.0.1-other\"", 1)
        .replacen("\"seed\": 4", "\"seed\": 3", 1);
    std::fs::write(dir.join("build.json"), fixed).unwrap();
    fails(&merge(&with("build.json"), &[]), "by damelab 0.0.1-other");
    // A PDN file of another run beside the right JSON files.
    let right = dir.join("b");
    ok(&run(&dir, "b", "turkish", &["--shard", "2/2"], &[]));
    let e = fails(
        &merge(
            &[
                a.clone(),
                p(&right.with_extension("json")).to_string(),
                p(&dir.join("a.pdn")).to_string(),
                p(&dir.join("seed.pdn")).to_string(),
            ],
            &["--pdn", p(&dir.join("x.pdn"))],
        ),
        "is of another run",
    );
    assert!(flat(&e).contains("seed 4"), "{e}");
    // PDN files without --pdn, and --pdn without PDN files.
    fails(
        &merge(&[a.clone(), p(&dir.join("a.pdn")).to_string()], &[]),
        "no --pdn was given",
    );
    fails(
        &merge(std::slice::from_ref(&a), &["--pdn", p(&dir.join("x.pdn"))]),
        "--pdn needs the shards' PDN files",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shard_auto_outside_a_scheduler_and_bad_arrays() {
    let args = [
        "selfplay", "english", "--games", "2", "--random", "--shard", "auto",
    ];
    let e = fails(&damelab(&args, &[]), "--shard auto found no array job");
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
    ] {
        assert!(e.contains(v), "{e}");
    }
    fails(
        &damelab(&args, &[("SLURM_JOB_ID", "5".into())]),
        "not an array job",
    );
    // `--array=1,3,4`: a list, not a range.
    let list = vec![
        ("SLURM_ARRAY_TASK_ID", "3".to_string()),
        ("SLURM_ARRAY_TASK_MIN", "1".into()),
        ("SLURM_ARRAY_TASK_MAX", "4".into()),
        ("SLURM_ARRAY_TASK_STEP", "1".into()),
        ("SLURM_ARRAY_TASK_COUNT", "3".into()),
    ];
    fails(&damelab(&args, &list), "the Slurm array is not a range");
    fails(
        &damelab(&args, &[("JOB_COMPLETION_INDEX", "0".into())]),
        "the number of shards is not",
    );
    fails(
        &damelab(
            &args,
            &[
                ("JOB_COMPLETION_INDEX", "4".into()),
                ("DAMELAB_SHARDS", "4".into()),
            ],
        ),
        "only 4 shards",
    );
    let mut with_count = args.to_vec();
    with_count.extend(["--shards", "3"]);
    fails(
        &damelab(&with_count, &slurm(0, 0, 1, 4)),
        "the Slurm array has 4 tasks",
    );
    fails(
        &damelab(
            &[
                "selfplay", "english", "--games", "2", "--random", "--shards", "3",
            ],
            &[],
        ),
        "only read with `--shard auto`",
    );
}

#[test]
fn selfplay_pdn_opens_in_the_workbench() {
    let dir = scratch("repl");
    let pdn = dir.join("t.pdn");
    let out = ok(&damelab(
        &[
            "selfplay",
            "turkish",
            "--games",
            "3",
            "--depth",
            "1",
            "--threads",
            "1",
            "--pdn",
            p(&pdn),
        ],
        &[],
    ));
    assert!(out.contains("games            3"), "{out}");
    let body = text(&std::fs::read(&pdn).unwrap());
    assert_eq!(
        body.matches("[Event \"damelab selfplay turkish: damelab depth 1")
            .count(),
        3
    );
    assert!(
        body.contains("[Round \"3\"]") && body.contains("[GameType \"30\"]"),
        "{body}"
    );
    use std::io::Write;
    let mut child = crate::common::bin()
        .args(["repl", "turkish", "--echo"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the damelab binary runs");
    let script = format!("open {} 2\n", p(&pdn));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = text(&child.wait_with_output().unwrap().stdout);
    assert!(out.contains("opened game 2 of 3"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_a_rules_file_merge_with_rules() {
    let dir = scratch("rules");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = root.join("examples/short-kings.rules");
    let r = p(&rules);
    ok(&run(&dir, "whole", r, &[], &[]));
    for k in 1..=2 {
        let s = format!("{k}/2");
        ok(&run(&dir, &format!("shard-{k}"), r, &["--shard", &s], &[]));
    }
    let inputs: Vec<String> = ["shard-1.json", "shard-1.pdn", "shard-2.json", "shard-2.pdn"]
        .iter()
        .map(|f| p(&dir.join(f)).to_string())
        .collect();
    let (mj, mp) = (dir.join("merged.json"), dir.join("merged.pdn"));
    let outputs = ["--json", p(&mj), "--pdn", p(&mp)];
    // Found by its name, the rules file is not there: the diagnostic says what to give.
    let e = fails(
        &merge(&inputs, &outputs),
        "played under the rules `short-kings`, which are not a bundled variant",
    );
    assert!(flat(&e).contains("--rules short-kings.rules"), "{e}");
    assert!(!mj.exists());
    let mut with_rules = outputs.to_vec();
    with_rules.extend(["--rules", r]);
    let report = ok(&merge(&inputs, &with_rules));
    assert!(
        report.starts_with("short-kings: 10 of 10 games"),
        "{report}"
    );
    assert_eq!(
        std::fs::read(&mj).unwrap(),
        std::fs::read(dir.join("whole.json")).unwrap()
    );
    assert_eq!(
        std::fs::read(&mp).unwrap(),
        std::fs::read(dir.join("whole.pdn")).unwrap()
    );
    // Another variant's rules: both named, with their fingerprints.
    let jsons = [inputs[0].clone(), inputs[2].clone()];
    let russian = p(&root.join("variants/russian.rules")).to_string();
    let e = fails(
        &merge(&jsons, &["--rules", &russian]),
        "holds the rules `russian` (fingerprint",
    );
    assert!(flat(&e).contains("not `short-kings` (fingerprint"), "{e}");
    // The same name, the rules changed: kings that go three squares.
    let changed = dir.join("short-kings.rules");
    let text = std::fs::read_to_string(&rules)
        .unwrap()
        .replace("up to 2", "up to 3");
    std::fs::write(&changed, text).unwrap();
    let e = fails(
        &merge(&jsons, &["--rules", p(&changed)]),
        "is not the rules the files were played under: its rules fingerprint is",
    );
    assert!(
        flat(&e).contains("changed since the games were played"),
        "{e}"
    );
    // `match merge` finds the rules the same way.
    let m = |k: u64| {
        let (json, shard) = (dir.join(format!("m-{k}.json")), format!("{k}/2"));
        let args = [
            "match",
            r,
            "--engine",
            "name=a nodes=200",
            "--engine",
            "name=b depth=1",
            "--games",
            "4",
            "--no-tables",
            "--max-plies",
            "100",
            "--shard",
            &shard,
            "--json",
            p(&json),
        ];
        ok(&damelab(&args, &[]));
        p(&json).to_string()
    };
    let files = [m(1), m(2)];
    let merge_match = |extra: &[&str]| {
        let mut args = vec!["match", "merge", files[0].as_str(), files[1].as_str()];
        args.extend_from_slice(extra);
        damelab(&args, &[])
    };
    fails(&merge_match(&[]), "which are not a bundled variant");
    let out = ok(&merge_match(&["--rules", r]));
    assert!(out.contains("(4 of 4 games, merged)"), "{out}");
    fails(
        &merge_match(&["--rules", &russian]),
        "holds the rules `russian`",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
