//! The Kubernetes manifests of `scripts/k8s/`: each is valid YAML of the Job it says it is (an
//! indexed Job's count of shards equal to its `completions`, its volume mounted), and its command
//! line runs as its pods would run it — `sh -c` with the Job's variables and `JOB_COMPLETION_INDEX`,
//! the shared volume a scratch folder, the run made tiny — through the binary's argument parser to
//! the end: the self-play Job's shards merged by the merge Job, and two generations of the
//! training Jobs (`sed s/gen1/gen2/g` of the files, as docs/scale.md runs them), equal the run
//! played in one go, byte for byte.

use crate::common::{scratch, text, SCHEDULER_VARS};
use serde_yaml::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a test needs of a Job manifest, checked on the way.
struct Job {
    name: String,
    /// `completions` of an indexed Job.
    completions: Option<u64>,
    env: Vec<(String, String)>,
    /// The container's `sh -c` script.
    script: String,
    /// Where the shared volume is mounted.
    mount: String,
}

fn k8s(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/k8s")
        .join(file)
}

fn str_of<'a>(v: &'a Value, what: &str) -> &'a str {
    v.as_str()
        .unwrap_or_else(|| panic!("{what} is not a string: {v:?}"))
}

/// The manifest `file` of generation `gen` (the word `gen1` replaced by `gen{gen}`), checked.
fn job(file: &str, generation: u32) -> Job {
    let body = std::fs::read_to_string(k8s(file)).expect("the manifest reads");
    let body = body.replace("gen1", &format!("gen{generation}"));
    let v: Value = serde_yaml::from_str(&body).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(str_of(&v["apiVersion"], "apiVersion"), "batch/v1", "{file}");
    assert_eq!(str_of(&v["kind"], "kind"), "Job", "{file}");
    let spec = &v["spec"];
    let pod = &spec["template"]["spec"];
    assert_eq!(
        str_of(&pod["restartPolicy"], "restartPolicy"),
        "Never",
        "{file}"
    );
    let containers = pod["containers"].as_sequence().expect("containers");
    assert_eq!(containers.len(), 1, "{file}: one container");
    let c = &containers[0];
    let command: Vec<&str> = c["command"]
        .as_sequence()
        .expect("a command")
        .iter()
        .map(|w| str_of(w, "command"))
        .collect();
    assert_eq!(command, ["sh", "-c"], "{file}");
    let args = c["args"].as_sequence().expect("args");
    assert_eq!(args.len(), 1, "{file}: the script is one argument");
    let env: Vec<(String, String)> = c["env"]
        .as_sequence()
        .map(|s| {
            s.iter()
                .map(|e| {
                    (
                        str_of(&e["name"], "env name").to_string(),
                        str_of(&e["value"], "env value").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    // The volume the container mounts is one of the pod's, a claim every pod can share.
    let mounts = c["volumeMounts"].as_sequence().expect("volumeMounts");
    assert_eq!(mounts.len(), 1, "{file}: one volume");
    let volume = str_of(&mounts[0]["name"], "volume name");
    let volumes = pod["volumes"].as_sequence().expect("volumes");
    assert!(
        volumes.iter().any(|v| v["name"].as_str() == Some(volume)
            && v["persistentVolumeClaim"]["claimName"].as_str().is_some()),
        "{file}: the volume `{volume}` is a claim of the pod"
    );
    let completions = match spec["completionMode"].as_str() {
        Some("Indexed") => {
            let n = spec["completions"].as_u64().expect("completions");
            let shards = env.iter().find(|(k, _)| k == "DAMELAB_SHARDS");
            assert_eq!(
                shards.map(|(_, v)| v.as_str()),
                Some(n.to_string().as_str()),
                "{file}: DAMELAB_SHARDS equals completions"
            );
            let parallel = spec["parallelism"].as_u64().unwrap_or(1);
            assert!(parallel >= 1 && parallel <= n, "{file}: parallelism");
            Some(n)
        }
        None => None,
        Some(other) => panic!("{file}: completionMode {other}"),
    };
    Job {
        name: str_of(&v["metadata"]["name"], "name").to_string(),
        completions,
        env,
        script: str_of(&args[0], "args").to_string(),
        mount: str_of(&mounts[0]["mountPath"], "mountPath").to_string(),
    }
}

/// `script` with the value after each option of `small` replaced (each must be there).
fn shrink(script: &str, small: &[(&str, &str)]) -> String {
    let mut words: Vec<String> = script.split(' ').map(str::to_string).collect();
    for (option, value) in small {
        let at = words
            .iter()
            .position(|w| w == option)
            .unwrap_or_else(|| panic!("`{option}` is not in `{script}`"));
        words[at + 1] = value.to_string();
    }
    words.join(" ")
}

/// Run `script` as a pod of `job` would, the volume at `dir`, as task `index` of an indexed Job.
fn pod(job: &Job, script: &str, dir: &Path, index: Option<u64>) -> Output {
    let script = script.replace(&job.mount, dir.to_str().unwrap());
    let bin = Path::new(env!("CARGO_BIN_EXE_damelab")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("sh");
    crate::common::hermetic(&mut c);
    c.arg("-c")
        .arg(&script)
        .env("PATH", path)
        .env("NO_COLOR", "1");
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    for (k, v) in &job.env {
        c.env(k, v);
    }
    if let Some(i) = index {
        c.env("JOB_COMPLETION_INDEX", i.to_string());
    }
    c.output().expect("sh runs")
}

fn ok(o: &Output, what: &str) -> String {
    assert!(o.status.success(), "{what}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_selfplay_job_and_its_merge_give_the_single_run() {
    let dir = scratch("k8s", "selfplay");
    let play = job("selfplay-job.yaml", 1);
    let merge = job("selfplay-merge-job.yaml", 1);
    let n = play.completions.expect("an indexed Job");
    assert!(merge.completions.is_none(), "the merge is one pod");
    let small = [("--games", "12"), ("--depth", "2"), ("--threads", "1")];
    let script = shrink(&play.script, &small);
    for i in 0..n {
        let out = ok(&pod(&play, &script, &dir, Some(i)), &play.name);
        assert!(out.contains(&format!(", shard {}/{n}", i + 1)), "{out}");
    }
    let report = ok(&pod(&merge, &merge.script, &dir, None), &merge.name);
    assert!(report.contains("12 of 12 games"), "{report}");
    // The same run in one go: the pods' command without the shard.
    let whole = script
        .replace(" --shard auto", "")
        .replace("shard-$JOB_COMPLETION_INDEX", "whole");
    ok(&pod(&play, &whole, &dir, None), "the single run");
    assert_eq!(
        bytes(&dir.join("merged.json")),
        bytes(&dir.join("whole.json"))
    );
    assert_eq!(
        bytes(&dir.join("merged.pdn")),
        bytes(&dir.join("whole.pdn"))
    );
    assert!(dir.join("merged.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_training_jobs_generation_after_generation_give_the_single_run() {
    let dir = scratch("k8s", "train");
    let small = [
        ("--generations", "2"),
        ("--games", "8"),
        ("--nodes", "150"),
        ("--epochs", "5"),
        ("--match-games", "2"),
        ("--threads", "1"),
    ];
    for g in 1..=2u32 {
        let play = job("train-job.yaml", g);
        let merge = job("train-merge-job.yaml", g);
        assert_eq!(play.name, format!("damelab-train-gen{g}"));
        assert_eq!(merge.name, format!("damelab-train-merge-gen{g}"));
        for j in [&play, &merge] {
            assert!(
                j.env.contains(&("GENERATION".into(), format!("gen{g}"))),
                "{}",
                j.name
            );
        }
        let n = play.completions.expect("an indexed Job");
        let script = shrink(&play.script, &small);
        for i in 0..n {
            let out = ok(&pod(&play, &script, &dir, Some(i)), &play.name);
            assert!(out.contains(&format!("shard {}/{n}", i + 1)), "{out}");
        }
        let script = shrink(&merge.script, &[("--threads", "1")]);
        let out = ok(&pod(&merge, &script, &dir, None), &merge.name);
        assert!(out.contains(&format!("generation {g} merged")), "{out}");
        assert!(dir.join(format!("gen{g}.weights")).exists());
    }
    // The same run in one go: the pods' command up to its generation's options.
    let play = job("train-job.yaml", 1);
    let script = shrink(&play.script, &small);
    let at = script
        .find("exec damelab train")
        .expect("the train command");
    let end = script.find(" --generation \"$g\"").expect("--generation");
    let whole = format!("{} --out {}/whole.weights", &script[at..end], play.mount);
    ok(&pod(&play, &whole, &dir, None), "the single run");
    assert_eq!(
        bytes(&dir.join("gen2.weights")),
        bytes(&dir.join("whole.weights"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
