//! The findings of the second hostile-input campaign, each pinned: a panic on 16x16 endgames,
//! settings whose memory the machine does not have, Ctrl-C in REPL scripts, forged self-play
//! files, one file for two outputs, control characters from PDN tags, and the small ones
//! (a huge material's count, the line limit, a bad FEN counter, a stored draw rate of −500%).
#![cfg(unix)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = crate::common::bin();
    c.env("NO_COLOR", "1")
        .env_remove("DAMELAB_WRITE_FAULT")
        .env_remove("DAMELAB_MEM_AVAILABLE");
    c
}

fn run(mut cmd: Command, stdin: &str) -> Output {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("damelab starts");
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let o = child.wait_with_output().expect("runs");
    let _ = feeder.join();
    o
}

fn damelab(args: &[&str]) -> Output {
    let mut c = bin();
    c.args(args);
    run(c, "")
}

/// The output with miette's line wrapping undone (`│` gutters, line breaks), for matching.
fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

const DARK_16: &str = "variant \"16x16 dark\"\nboard 16x16, dark squares, algebraic\n\
sides white \"W\", black \"B\"; white moves first\npiece man \"M\"\npiece king \"K\"\n\
setup white man a1..p3\nman: step forward-diagonal\n     capture jump forward-diagonal\n\
     promote to king on far rank\nking: slide diagonal\n      capture fly diagonal\n\
captures: compulsory, removed at end of turn, priority most pieces\ngame: no moves loses\n";

/// Finding 4: `endgame` on a 16x16 board of dark squares panicked; on 16x16 of all squares the
/// help read "the limit is ;".
#[test]
fn endgames_on_the_largest_boards() {
    let dir = tempfile::tempdir().expect("dir");
    let rules = dir.path().join("dark16.rules");
    std::fs::write(&rules, DARK_16).expect("write");
    let r = rules.display().to_string();
    let o = damelab(&["check", &r]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = damelab(&["endgame", &r, "K v K", "--no-cache"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("K v K"), "{}", text(&o.stdout));
    let o = damelab(&[
        "endgame",
        "examples/turkish-16x16.rules",
        "K v K",
        "--no-cache",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("at most 128 playable squares"), "{err}");
    assert!(!err.contains("the limit is ;"), "{err}");
}

/// Finding 6: a setting whose memory the machine does not have is refused before starting.
#[test]
fn settings_beyond_the_machines_memory_are_refused() {
    let mut c = bin();
    c.env("DAMELAB_MEM_AVAILABLE", (1u64 << 30).to_string())
        .args(["analyse", "dameo", "--hash", "65536", "--depth", "1"]);
    let o = run(c, "");
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("--hash 65536 needs about 64.0 GiB"), "{err}");
    let mut c = bin();
    c.env("DAMELAB_MEM_AVAILABLE", (1u64 << 30).to_string())
        .args(["selfplay", "dameo", "--games", "100000000", "--random"]);
    let o = run(c, "");
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("--games 100000000 needs about"), "{err}");
    assert!(err.contains("--shard"), "{err}");
}

/// Finding 7: SIGINT during `perft` in a script stops the count (the depths counted stay) and the
/// script goes on; between commands it ends the script with 130.
#[test]
fn ctrl_c_in_a_script_stops_the_command_not_the_script() {
    let mut child = bin()
        .args(["repl", "international"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(b"perft 12\n").expect("write");
    input.flush().expect("flush");
    // Give perft time to count a few depths, then interrupt it.
    std::thread::sleep(Duration::from_millis(400));
    let pid = child.id() as i32;
    // SAFETY: signalling the child this test started.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    std::thread::sleep(Duration::from_millis(300));
    input.write_all(b"moves\n").expect("the script goes on");
    drop(input);
    let o = child.wait_with_output().expect("ends");
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("perft(1) = 9"), "{out}");
    assert!(out.contains("interrupted"), "{out}");
    assert!(out.contains("9 legal moves"), "{out}");

    // Idle, waiting for a line: Ctrl-C ends the script as usual.
    let mut child = bin()
        .args(["repl", "dameo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let input = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: as above.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "Ctrl-C did not end an idle script"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(input);
    assert_eq!(status.code(), Some(130));
}

/// A run file of 6 games, and its JSON as a value to forge.
fn run_file(dir: &Path, args: &[&str]) -> (PathBuf, serde_json::Value) {
    let p = dir.join(format!("run{}.json", args.len()));
    let mut c = bin();
    c.args(["selfplay", "dameo", "--games", "6", "--random", "--json"])
        .arg(&p)
        .args(args);
    let o = run(c, "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v = crate::common::read_json(&p);
    (p, v)
}

fn merge_refuses(dir: &Path, v: &serde_json::Value, what: &str) {
    let p = dir.join("forged.json");
    std::fs::write(&p, serde_json::to_string(v).expect("json")).expect("write");
    let o = damelab(&["selfplay", "merge", p.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1), "{what}: {}", text(&o.stdout));
    let err = text(&o.stderr);
    assert!(err.contains(what), "expected `{what}` in {err}");
    let o = damelab(&[
        "selfplay",
        "chart",
        p.to_str().expect("utf-8"),
        "--svg",
        dir.join("c.svg").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "chart of a forged file");
}

/// Finding 8: forged self-play files are refused by `merge` and `chart`.
#[test]
fn forged_run_files_are_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let (_, whole) = run_file(dir.path(), &[]);
    let (shard, half) = run_file(dir.path(), &["--shard", "1/2"]);
    // Sound files merge.
    let o = damelab(&[
        "selfplay",
        "merge",
        shard.to_str().expect("utf-8"),
        "--partial",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    let mut v = whole.clone();
    v["games"][0]["i"] = 1000.into();
    merge_refuses(dir.path(), &v, "lies outside its run");
    let mut v = half.clone();
    v["games"][0]["i"] = 1.into(); // shard 1/2 holds the even games
    merge_refuses(dir.path(), &v, "does not belong to its shards");
    let mut v = whole.clone();
    v["games"][0]["w"] = 5.into();
    merge_refuses(dir.path(), &v, "winner `5`");
    let mut v = whole.clone();
    let g = v["games"][0].clone();
    v["games"] = serde_json::Value::Array((0..200_000).map(|_| g.clone()).collect());
    merge_refuses(dir.path(), &v, "200000 game records");
    // Finding 9: a stored draw rate of −500%.
    let mut v = whole.clone();
    v["report"]["draws"]["rate"] = (-5.0).into();
    merge_refuses(dir.path(), &v, "its report says");
}

/// Finding 8: `--json X --svg X` would write both outputs to one file.
#[test]
fn one_file_for_two_outputs_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let x = dir.path().join("x");
    let x = x.to_str().expect("utf-8");
    let o = damelab(&[
        "selfplay", "dameo", "--games", "2", "--random", "--json", x, "--svg", x,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("both name"), "{}", text(&o.stderr));
    assert!(!Path::new(x).exists());
}

/// Finding 8: control characters from a PDN's tags never reach the terminal.
#[test]
fn control_characters_from_pdn_tags_are_not_printed() {
    let dir = tempfile::tempdir().expect("dir");
    let p = dir.path().join("evil.pdn");
    std::fs::write(
        &p,
        "[Event \"\x1b[2J\x1b]0;pwned\x07\"]\n[GameType \"21\"]\n1. 11-15 99-98 *\n",
    )
    .expect("write");
    let o = damelab(&["replay", p.to_str().expect("utf-8")]);
    let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(!all.contains('\x1b') && !all.contains('\x07'), "{all:?}");
    let mut c = bin();
    c.args(["repl", "english"]);
    let o = run(c, &format!("open {}\n", p.display()));
    let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(!all.contains('\x1b') && !all.contains('\x07'), "{all:?}");
}

/// Finding 9: a material of 100,001 pieces is reported with its count.
#[test]
fn a_huge_material_is_counted() {
    let material = format!("{} v K", "K".repeat(100_000));
    let o = damelab(&["endgame", "english", &material, "--no-cache"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("100001 pieces"), "{err}");
    assert!(
        err.len() < 2000,
        "the whole material was echoed: {} bytes",
        err.len()
    );
}

/// Finding 9: a REPL line of exactly the limit is read; one byte more is refused.
#[test]
fn the_line_limit_is_exact() {
    let limit = damelab::limits::MAX_LINE_BYTES;
    let line = format!("# {}", "x".repeat(limit - 2));
    assert_eq!(line.len(), limit);
    let mut c = bin();
    c.args(["repl", "dameo"]);
    let o = run(c, &format!("{line}\n"));
    assert!(
        !text(&o.stderr).contains("longer than"),
        "{}",
        text(&o.stderr)
    );
    let mut c = bin();
    c.args(["repl", "dameo"]);
    let o = run(c, &format!("{line}x\n"));
    assert!(
        text(&o.stderr).contains("longer than"),
        "{}",
        text(&o.stderr)
    );
}

/// Finding 9: a bad FEN counter is named as one, not as "too many groups".
#[test]
fn a_bad_fen_counter_is_named() {
    let o = damelab(&["moves", "english", "--fen", "W:W21:B1:H0:F-1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("`F-1` is not a move counter"), "{err}");
    assert!(!err.contains("too many groups"), "{err}");
}

/// Issue 49, finding 9: `--max-memory 1K` said "the limit is 0 MiB", `1e30G` was accepted, and
/// a material too large to index read "would need about more than this machine has … the limit
/// is ;".
#[test]
fn endgame_sizes_are_parsed_strictly_and_said_plainly() {
    let o = damelab(&[
        "endgame",
        "english",
        "KK v K",
        "--no-cache",
        "--max-memory",
        "1K",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("below the smallest limit, 1 MiB"), "{err}");
    for huge in ["1e30G", "inf", "20000000000G"] {
        let o = damelab(&[
            "endgame",
            "english",
            "KK v K",
            "--no-cache",
            "--max-memory",
            huge,
        ]);
        assert_eq!(o.status.code(), Some(1), "{huge}");
        let err = text(&o.stderr);
        assert!(
            err.contains("larger than any machine's memory") || err.contains("not a memory size"),
            "{huge}: {err}"
        );
    }
    let men = "M".repeat(18);
    let o = damelab(&["endgame", "dameo", &format!("{men} v {men}"), "--no-cache"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!(
            "the tables for `{men} v {men}` are too large to build"
        )),
        "{err}"
    );
    assert!(err.contains("far more than any machine's memory"), "{err}");
    assert!(
        !err.contains("the limit is ;") && !err.contains("about more"),
        "{err}"
    );
}

/// Issue 49, finding 9: the memory check read the machine's available memory only; under
/// `ulimit -v` a setting within the machine's memory but beyond the process's limit is refused
/// with a diagnostic, not an allocation failure.
#[test]
fn the_process_memory_limit_is_honoured() {
    let avail = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            let l = t.lines().find(|l| l.starts_with("MemAvailable:"))?;
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .unwrap_or(0);
    if avail < 3 << 20 {
        eprintln!("skipped: the machine has less than 3 GiB available ({avail} kB)");
        return;
    }
    let mut c = Command::new("bash");
    c.env("NO_COLOR", "1")
        .env_remove("DAMELAB_MEM_AVAILABLE")
        .arg("-c")
        .arg(format!(
            "ulimit -v 800000 && exec {} analyse dameo --hash 2048 --depth 1",
            env!("CARGO_BIN_EXE_damelab")
        ));
    crate::common::hermetic(&mut c);
    let o = run(c, "");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--hash 2048 needs about 2.0 GiB"), "{err}");
}
