//! Training past one machine, through the binary: a two-generation run played as shards of each
//! generation (one found from Slurm's variables), merged generation by generation, writes the
//! single run's weights file byte for byte; merges that lack a shard or a generation, mix runs or
//! evaluations, or are given the wrong `--from` are refused with the difference named.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{damelab, damelab_with, ok, p};

fn fails(o: &Output, needle: &str) -> String {
    crate::common::fails(o, 1, needle)
}

/// The run of these tests: English, two generations of 6 games at 200 nodes a move.
const RUN: [&str; 15] = [
    "english",
    "--generations",
    "2",
    "--games",
    "6",
    "--nodes",
    "200",
    "--epochs",
    "5",
    "--match-games",
    "2",
    "--seed",
    "3",
    "--threads",
    "1",
];

/// `train` with the run's options, but those `extra` gives its own value of.
fn with(extra: &[&str]) -> Vec<String> {
    let mut a = vec!["train".to_string(), RUN[0].to_string()];
    for pair in RUN[1..].chunks(2) {
        if !extra.contains(&pair[0]) {
            a.extend(pair.iter().map(|s| s.to_string()));
        }
    }
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    damelab(&args)
}

/// Generation `g`'s shard `k` of `n` into `dir/g{g}-{k}.json`, playing with `from`.
fn shard(dir: &Path, g: u32, k: u64, n: u64, from: Option<&Path>) -> PathBuf {
    let data = dir.join(format!("g{g}-{k}.json"));
    let (gs, ks, ds) = (g.to_string(), format!("{k}/{n}"), p(&data));
    let mut extra = vec!["--generation", &gs, "--shard", &ks, "--data", &ds];
    let f = from.map(p);
    if let Some(f) = &f {
        extra.extend(["--from", f.as_str()]);
    }
    let out = ok(&run(&with(&extra)));
    assert!(out.contains(&format!("shard {k}/{n}")), "{out}");
    data
}

fn merge(files: &[PathBuf], from: Option<&Path>, out: &Path) -> Output {
    let mut args = vec!["train".to_string(), "merge".to_string()];
    args.extend(files.iter().map(|f| p(f)));
    if let Some(f) = from {
        args.extend(["--from".to_string(), p(f)]);
    }
    args.extend(["--threads", "1", "--out"].iter().map(|s| s.to_string()));
    args.push(p(out));
    run(&args)
}

/// The generation lines of a run's output (`generation N: …`).
fn generation_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("generation ") && l.contains(": "))
        .collect()
}

#[test]
fn sharded_training_writes_the_single_runs_weights() {
    let dir = crate::common::scratch("train_shards", "equal");
    let whole = dir.join("whole.weights");
    let single = ok(&run(&with(&["--out", &p(&whole)])));

    // Generation 1 in three shards; the second finds its shard from a Slurm array's variables.
    let mut g1 = vec![shard(&dir, 1, 1, 3, None), shard(&dir, 1, 3, 3, None)];
    let data = dir.join("g1-2.json");
    let mut args = with(&["--generation", "1", "--shard", "auto", "--data"]);
    args.push(p(&data));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
    ];
    assert!(ok(&damelab_with(&args, &slurm)).contains("shard 2/3"));
    g1.push(data);
    let w1 = dir.join("g1.weights");
    let m1 = ok(&merge(&g1, None, &w1));
    refits_with_another_pull(&g1, &w1);

    // Generation 2 in two shards, playing with generation 1's merged weights.
    let g2 = vec![
        shard(&dir, 2, 1, 2, Some(&w1)),
        shard(&dir, 2, 2, 2, Some(&w1)),
    ];
    let w2 = dir.join("g2.weights");
    let all: Vec<PathBuf> = g1.iter().chain(&g2).cloned().collect();
    let m2 = ok(&merge(&all, Some(&w1), &w2));

    let a = std::fs::read(&whole).unwrap();
    let b = std::fs::read(&w2).unwrap();
    assert!(a == b, "the merged weights differ from the single run's");
    assert_ne!(
        std::fs::read(&w1).unwrap(),
        a,
        "generation 2 moved the weights"
    );
    // Each merge prints the single run's line for its generation (the figures, the match).
    let lines = generation_lines(&single);
    assert_eq!(lines.len(), 2, "{single}");
    assert_eq!(generation_lines(&m1), [lines[0]], "{m1}");
    assert_eq!(generation_lines(&m2), [lines[1]], "{m2}");
}

/// `train merge --l2 X` fits the same games with another pull: the run's own value writes the
/// same file, another one other weights and a `made-by` line that says so; out of range is refused.
fn refits_with_another_pull(files: &[PathBuf], plain: &Path) {
    let refit = |x: &str, name: &str| {
        let out = plain.with_file_name(name);
        let mut args = vec!["train".to_string(), "merge".to_string()];
        args.extend(files.iter().map(|f| p(f)));
        args.extend(["--threads", "1", "--l2", x, "--out"].map(String::from));
        args.push(p(&out));
        (run(&args), out)
    };
    let weights = |f: &Path| {
        std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .skip_while(|l| *l != "weights")
            .map(String::from)
            .collect::<Vec<_>>()
    };
    // The run's --l2 is the default, 0.000001.
    let (o, same) = refit("0.000001", "same.weights");
    ok(&o);
    assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(plain).unwrap());
    let (o, other) = refit("1", "pulled.weights");
    let said = ok(&o);
    assert!(
        said.contains("fitted again by train merge --l2 1"),
        "{said}"
    );
    let text = std::fs::read_to_string(&other).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("made-by damelab train english")
                && l.ends_with(", generation 1 fitted again by train merge --l2 1")),
        "{text}"
    );
    assert_ne!(
        weights(&other),
        weights(plain),
        "a strong pull moves the fit"
    );
    let (o, _) = refit("2", "refused.weights");
    fails(&o, "--l2 2 is out of range");
}

#[test]
fn search_scores_as_targets_survive_the_shards_and_change_the_fit() {
    // `--result-weight 0.5`: each position's target is half its game's result and half its
    // search's score. The scores travel in the data files, so a merge fits what the single run
    // fits; the same games fitted to their results alone give other weights.
    let dir = crate::common::scratch("train_shards", "scores");
    let blended = dir.join("blended.weights");
    let results = dir.join("results.weights");
    let gen1 = ["--generations", "1", "--match-games", "0"];
    let mut a = with(&gen1);
    a.extend(["--result-weight", "0.5", "--out", &p(&blended)].map(String::from));
    let single = ok(&run(&a));
    assert!(single.contains("--result-weight 0.5"), "{single}");
    let mut b = with(&gen1);
    b.extend(["--out".to_string(), p(&results)]);
    ok(&run(&b));
    let text = std::fs::read_to_string(&blended).unwrap();
    assert!(
        text.contains("--result-weight 0.5"),
        "the made-by line says it"
    );
    assert_ne!(
        text.lines()
            .skip_while(|l| *l != "weights")
            .collect::<Vec<_>>(),
        std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .skip_while(|l| *l != "weights")
            .collect::<Vec<_>>(),
        "the scores moved the fit"
    );
    let mut files = Vec::new();
    for k in 1..=2u64 {
        let data = dir.join(format!("s{k}.json"));
        let ks = format!("{k}/2");
        let mut args = with(&gen1);
        args.extend(
            [
                "--result-weight",
                "0.5",
                "--generation",
                "1",
                "--shard",
                &ks,
                "--data",
                &p(&data),
            ]
            .map(String::from),
        );
        ok(&run(&args));
        files.push(data);
    }
    let merged = dir.join("merged.weights");
    ok(&merge(&files, None, &merged));
    assert!(
        std::fs::read(&merged).unwrap() == std::fs::read(&blended).unwrap(),
        "the merged weights differ from the single run's"
    );
    // Out of range is refused.
    let mut bad = with(&gen1);
    bad.extend(["--result-weight", "1.5"].map(String::from));
    fails(&run(&bad), "--result-weight 1.5 is out of range");
}

#[test]
fn training_continues_from_start_weights_in_one_run_or_in_shards() {
    // `--start W`: generation 1 plays with W and its fit starts from W. Sharded, the shards
    // record W's digest as the evaluation they played with and the merge of generation 1 takes
    // W as its `--from`: the single run's file, byte for byte.
    let dir = crate::common::scratch("train_shards", "start");
    let start = dir.join("start.weights");
    ok(&run(&with(&["--generations", "1", "--out", &p(&start)])));
    let s = p(&start);
    let whole = dir.join("whole.weights");
    let continued = ["--generations", "1", "--seed", "4", "--start", s.as_str()];
    let mut a = continued.to_vec();
    let w = p(&whole);
    a.extend(["--out", w.as_str()]);
    let single = ok(&run(&with(&a)));
    let text = std::fs::read_to_string(&whole).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("made-by ") && l.ends_with(&format!("--start {s}"))),
        "{text}"
    );
    // The same games and fit from the derived evaluation give other weights.
    let fresh = dir.join("fresh.weights");
    let mut a = continued[..4].to_vec();
    let f = p(&fresh);
    a.extend(["--out", f.as_str()]);
    ok(&run(&with(&a)));
    let body = |t: &str| t.split("weights\n").nth(1).map(str::to_string);
    assert_ne!(
        body(&text),
        body(&std::fs::read_to_string(&fresh).unwrap()),
        "the start changed nothing"
    );

    let g1: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let data = dir.join(format!("g1-{k}.json"));
            let (ks, ds) = (format!("{k}/2"), p(&data));
            let mut a = continued.to_vec();
            a.extend(["--generation", "1", "--shard", &ks, "--data", &ds]);
            ok(&run(&with(&a)));
            data
        })
        .collect();
    let file: serde_json::Value = crate::common::read_json(&g1[0]);
    let v = damelab::Variant::load("english").unwrap();
    let digest = damelab::search::weights::Weights::load(&start, &v.rules)
        .unwrap()
        .digest();
    assert_eq!(
        file["played_with"],
        digest.as_str(),
        "played with the start"
    );
    assert_eq!(file["settings"]["start"]["path"], s.as_str());

    let out = dir.join("out.weights");
    fails(&merge(&g1, None, &out), "needs --from, the start weights");
    fails(&merge(&g1, Some(&fresh), &out), "were played with weights");
    assert!(!out.exists(), "a refused merge writes nothing");
    let m = ok(&merge(&g1, Some(&start), &out));
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&whole).unwrap(),
        "the merged weights differ from the single run's"
    );
    assert_eq!(generation_lines(&m), generation_lines(&single), "{m}");

    let mut a = continued.to_vec();
    a.extend([
        "--generation",
        "1",
        "--from",
        s.as_str(),
        "--data",
        "x.json",
    ]);
    fails(&run(&with(&a)), "--from is not read");
}

#[test]
fn train_merge_names_what_is_missing_or_differs() {
    let dir = crate::common::scratch("train_shards", "refused");
    let g1: Vec<PathBuf> = (1..=3).map(|k| shard(&dir, 1, k, 3, None)).collect();
    let w1 = dir.join("g1.weights");
    let out = dir.join("out.weights");

    // A shard missing, or given twice.
    let e = fails(&merge(&g1[..2], None, &out), "generation 1 is incomplete");
    assert!(
        crate::common::flat(&e).contains("shard 3 of 3 is missing"),
        "{e}"
    );
    let twice = [g1[0].clone(), g1[0].clone(), g1[1].clone()];
    fails(&merge(&twice, None, &out), "is in both");
    assert!(!out.exists(), "a refused merge writes nothing");

    ok(&merge(&g1, None, &w1));
    let g2: Vec<PathBuf> = (1..=2).map(|k| shard(&dir, 2, k, 2, Some(&w1))).collect();
    // Generation 2 alone: its fit needs generation 1's positions.
    fails(&merge(&g2, Some(&w1), &out), "generation 1 is missing");
    let all: Vec<PathBuf> = g1.iter().chain(&g2).cloned().collect();
    fails(&merge(&all, None, &out), "needs --from");
    // Weights other than those the shards played with: a run of another seed.
    let other = dir.join("other.weights");
    let o = p(&other);
    ok(&run(&with(&[
        "--generations",
        "1",
        "--games",
        "4",
        "--match-games",
        "0",
        "--seed",
        "9",
        "--out",
        &o,
    ])));
    fails(&merge(&all, Some(&other), &out), "were played with weights");
    fails(&merge(&g1, Some(&w1), &out), "--from is not read");

    // A shard of another run (seed 4): the differing field is named.
    let data = dir.join("seed4.json");
    let mut a = with(&[
        "--generation",
        "1",
        "--shard",
        "3/3",
        "--seed",
        "4",
        "--data",
    ]);
    a.push(p(&data));
    ok(&run(&a));
    let mixed = [g1[0].clone(), g1[1].clone(), data];
    fails(&merge(&mixed, None, &out), "`seed` 3 against 4");

    // Not a data file.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"format\": \"damelab-selfplay\", \"version\": 3}").unwrap();
    fails(&merge(&[junk], None, &out), "is not a training data file");
    assert!(!out.exists());
}

#[test]
fn train_shard_arguments_are_checked() {
    let dir = crate::common::scratch("train_shards", "args");
    let data = dir.join("d.json");
    let d = p(&data);
    fails(
        &run(&with(&[
            "--generation",
            "1",
            "--shard",
            "auto",
            "--data",
            &d,
        ])),
        "--shard auto found no array job",
    );
    fails(
        &run(&with(&["--generation", "2", "--data", &d])),
        "generation 2 needs --from",
    );
    fails(
        &run(&with(&["--generation", "3", "--data", &d])),
        "--generation 3 is out of range",
    );
    fails(
        &run(&with(&["--generation", "1"])),
        "--generation needs --data",
    );
    fails(
        &run(&with(&["--shard", "1/2"])),
        "--shard is only read with --generation",
    );
    fails(
        &run(&with(&["--generation", "1", "--data", &d, "--out", &d])),
        "--out is not written with --generation",
    );
    fails(
        &run(&with(&[
            "--generation",
            "1",
            "--shard",
            "3/2",
            "--data",
            &d,
        ])),
        "is not a shard",
    );
    assert!(!data.exists());
}
