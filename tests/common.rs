//! Helpers shared by the test modules that run the `damelab` binary: run it (with the
//! schedulers' variables removed), read its output, match a diagnostic, make a scratch folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Every variable `--shard auto` reads: removed from each command, so that a test run inside a
/// Slurm job or a Kubernetes pod sees only what the test sets.
pub const SCHEDULER_VARS: [&str; 8] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_JOB_ID",
    "JOB_COMPLETION_INDEX",
    "DAMELAB_SHARDS",
];

/// A fresh, empty folder to serve as one command's home: tests never read or write the user's
/// home or cache (a cache holding endgame tables changed what `analyse` printed).
pub fn temp_home() -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir()
        .join(format!("damelab-tests-{}", std::process::id()))
        .join(format!("home-{n}"));
    std::fs::create_dir_all(&dir).expect("a temporary home");
    dir
}

/// Point `c` at a home of its own: `HOME` and `DAMELAB_CACHE` in a fresh temporary folder,
/// `XDG_CACHE_HOME` removed. A test that wants another cache sets it afterwards.
pub fn hermetic(c: &mut Command) -> &mut Command {
    let home = temp_home();
    c.env("DAMELAB_CACHE", home.join(".cache").join("damelab"))
        .env("HOME", &home)
        .env_remove("XDG_CACHE_HOME")
}

/// The `damelab` binary as a command, with a home and a cache of its own ([`hermetic`]): every
/// test that runs the binary starts from here.
pub fn bin() -> Command {
    bin_at(Path::new(env!("CARGO_BIN_EXE_damelab")))
}

/// [`bin`] for another build of the binary (`DAMELAB_SERVE_BIN`).
pub fn bin_at(path: &Path) -> Command {
    let mut c = Command::new(path);
    hermetic(&mut c);
    c
}

/// Run `damelab ARGS` with `env` set (and no scheduler's variables, no colour, a home of its
/// own).
pub fn damelab_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = bin();
    c.args(args).env("NO_COLOR", "1");
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the damelab binary runs")
}

/// Run `damelab ARGS` (no scheduler's variables, no colour).
pub fn damelab(args: &[&str]) -> Output {
    damelab_with(args, &[])
}

/// `damelab ARGS` with `DAMELAB_CACHE` set to `cache` (no scheduler's variables, no colour).
pub fn damelab_cached(args: &[&str], cache: &Path) -> Output {
    damelab_with(
        args,
        &[("DAMELAB_CACHE", cache.to_str().expect("a UTF-8 path"))],
    )
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Standard output of a command that must succeed.
pub fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
}

/// `damelab analyse VARIANT --fen FEN --depth DEPTH` with the tables of `cache` (the default
/// cache), then the same with `--no-tables`: both outputs, each run checked to succeed and the
/// second to name no tables.
pub fn analyse_with_and_without_tables(
    variant: &str,
    fen: &str,
    depth: &str,
    cache: &Path,
) -> (String, String) {
    let args = ["analyse", variant, "--fen", fen, "--depth", depth];
    let with = ok(&damelab_cached(&args, cache));
    let mut none = args.to_vec();
    none.push("--no-tables");
    let without = ok(&damelab_cached(&none, cache));
    assert!(!without.contains("endgame tables"), "{without}");
    (with, without)
}

/// A diagnostic's words on one line: miette wraps long messages to the terminal's width.
pub fn flat(s: &str) -> String {
    s.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

/// A command that must fail with exit `code`, a diagnostic holding `needle` and no panic; its
/// standard error.
pub fn fails(o: &Output, code: i32, needle: &str) -> String {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(flat(&err).contains(needle), "expected `{needle}` in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// An empty folder of its own for test `test` of module `module`.
pub fn scratch(module: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-{module}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as an argument.
pub fn p(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

/// `damelab serve … --port 0` as `cmd` runs it (its output read here, its errors dropped): the
/// process and the address its first line prints.
pub fn serve_child(cmd: &mut Command) -> (std::process::Child, std::net::SocketAddr) {
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut out = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    let _ = std::io::BufRead::read_line(&mut out, &mut line);
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("`damelab serve` printed no address: {line:?}"));
    (child, addr)
}

/// A server in this process: `damelab::web::serve` on a runtime of two threads in a thread of
/// its own. The address it listens on (within 10 s), the sender that stops it, and the thread to
/// join once stopped.
pub fn serve_in_thread(
    opts: damelab::web::Options,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    std::thread::JoinHandle<()>,
) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (atx, arx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let stop = async move {
                let _ = rx.await;
            };
            damelab::web::serve(opts, move |a| atx.send(a).unwrap(), stop)
                .await
                .unwrap();
        });
    });
    let addr = arx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("server up");
    (addr, tx, thread)
}

/// A variant through the engine and the runs: two self-play games written as PDN and replayed,
/// a two-game match and an analysis, each finishing with its report.
pub fn runs_through_the_engine(v: &str, dir: &std::path::Path) {
    let pdn = dir.join(format!("{v}.pdn"));
    let out = ok(&damelab(&[
        "selfplay",
        v,
        "--games",
        "2",
        "--depth",
        "2",
        "--threads",
        "1",
        "--max-plies",
        "120",
        "--pdn",
        &p(&pdn),
    ]));
    assert!(out.contains("time"), "{v}: {out}");
    let out = ok(&damelab(&["replay", &p(&pdn)]));
    assert!(out.contains("2 replayed, 0 failed"), "{v}: {out}");
    let out = ok(&damelab(&[
        "match",
        v,
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=2",
        "--games",
        "2",
        "--max-plies",
        "80",
        "--no-tables",
    ]));
    assert!(out.contains("a vs b: 2 games"), "{v}: {out}");
    let out = ok(&damelab(&["analyse", v, "--depth", "4", "--no-tables"]));
    assert!(out.contains("best "), "{v}: {out}");
}

/// A JSON file a run wrote, parsed (the test fails naming the file when it is missing or not JSON).
pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The binary ([`bin`]) run on `args` with `input` on its standard input and the variables of
/// `env` set: its output once it has ended.
pub fn with_input(args: &[&str], input: &str, env: &[(&str, &Path)]) -> Output {
    use std::io::Write;
    let mut c = bin();
    c.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("the binary starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}
