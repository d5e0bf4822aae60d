//! Every reader given a FIFO that no program writes (opening it for reading would wait for ever)
//! and `/dev/zero` (reading it never ends): each must refuse at once with a diagnostic and a
//! non-zero exit. Also: inputs whose parsing used to cost far more than their size.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

// The runner and the output matcher are the fault tests' own (one crate, one copy).
use crate::hardening::faults::{bin, run, text};

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", p.display());
}

/// Each way a file is read, as (arguments, stdin) with `F` standing for the file.
fn readers(good_run: &Path) -> Vec<(Vec<String>, String)> {
    let f = "F".to_string();
    let run = good_run.display().to_string();
    let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (a(&["check", "F"]), String::new()),
        (a(&["moves", "F"]), String::new()),
        (a(&["show", "F"]), String::new()),
        (a(&["verify", "F"]), String::new()),
        (a(&["replay", "F"]), String::new()),
        (a(&["replay", "--manifest", "F"]), String::new()),
        (
            a(&["replay", "tests/pdn/english.pdn", "--expect", "F"]),
            String::new(),
        ),
        (
            vec!["selfplay".into(), "merge".into(), f.clone()],
            String::new(),
        ),
        (
            vec!["selfplay".into(), "merge".into(), run.clone(), f.clone()],
            String::new(),
        ),
        (
            vec![
                "selfplay".into(),
                "chart".into(),
                f.clone(),
                "--svg".into(),
                "/tmp/never-written.svg".into(),
            ],
            String::new(),
        ),
        (a(&["repl", "dameo"]), "open F\n".into()),
        (a(&["repl", "dameo"]), "load F\n".into()),
        (a(&["repl", "F"]), String::new()),
    ]
}

fn good_run(dir: &Path) -> PathBuf {
    let p = dir.join("good.json");
    let mut c = bin();
    c.args(["selfplay", "dameo", "--games", "2", "--random", "--json"])
        .arg(&p);
    let o = run(c, "", 60);
    assert!(o.status.success(), "{}", text(&o.stderr));
    p
}

fn refuses_everywhere(path: &Path, what: &str) {
    let dir = tempfile::tempdir().expect("dir");
    let good = good_run(dir.path());
    let p = path.display().to_string();
    for (args, stdin) in readers(&good) {
        let args: Vec<String> = args
            .iter()
            .map(|a| if a == "F" { p.clone() } else { a.clone() })
            .collect();
        let stdin = stdin.replace('F', &p);
        let mut c = bin();
        c.args(&args);
        let o = run(c, &stdin, 20);
        assert_ne!(o.status.code(), Some(0), "{args:?} {stdin:?}");
        let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
        assert!(
            all.contains(what),
            "{args:?} {stdin:?}: no `{what}` in {all}"
        );
    }
}

#[test]
fn a_fifo_is_refused_by_every_reader() {
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("pipe.rules");
    mkfifo(&fifo);
    refuses_everywhere(&fifo, "not a regular file but a pipe");
}

#[test]
fn dev_zero_is_refused_by_every_reader() {
    refuses_everywhere(Path::new("/dev/zero"), "not a regular file but a device");
}

/// A table file that is a FIFO or of the wrong size is not used, never waited on: the table is
/// rebuilt (`endgame`) or left out and said so (`analyse --tables`).
#[test]
fn table_files_that_are_pipes_or_damaged_are_not_trusted() {
    let dir = tempfile::tempdir().expect("dir");
    let cache = dir.path();
    let mut c = bin();
    c.args(["endgame", "english", "K v K", "--cache"])
        .arg(cache);
    let o = run(c, "", 60);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let tables: Vec<PathBuf> = std::fs::read_dir(cache)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "dlt"))
        .collect();
    assert!(!tables.is_empty());
    // Damage every one (flip a value byte: the checksum no longer matches).
    let originals: Vec<Vec<u8>> = tables
        .iter()
        .map(|t| std::fs::read(t).expect("reads"))
        .collect();
    for (t, b) in tables.iter().zip(&originals) {
        let mut bytes = b.clone();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(t, &bytes).expect("writes");
    }
    let analyse = || {
        let mut c = bin();
        c.args([
            "analyse",
            "english",
            "--fen",
            "W:WK1:BK32",
            "--depth",
            "3",
            "--tables",
        ])
        .arg(cache);
        run(c, "", 60)
    };
    let o = analyse();
    let err = text(&o.stderr);
    assert!(err.contains("checksum mismatch"), "{err}");
    // Truncated files are left out when the folder is opened: none is usable, and it says why.
    for (t, b) in tables.iter().zip(&originals) {
        std::fs::write(t, &b[..b.len() / 2]).expect("writes");
    }
    let o = analyse();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no usable endgame table"), "{err}");
    assert!(err.contains("bytes where"), "{err}");
    // A FIFO in place of a table: rebuilt, not waited on.
    std::fs::remove_file(&tables[0]).expect("rm");
    mkfifo(&tables[0]);
    let mut c = bin();
    c.args(["endgame", "english", "K v K", "--cache"])
        .arg(cache);
    let o = run(c, "", 60);
    assert!(text(&o.stderr).contains("pipe"), "{}", text(&o.stderr));
}

/// `[[[[…` in a case file: refused before the YAML parser, which took 9–15 s for 100 KB.
#[test]
fn deep_yaml_nesting_is_refused_quickly() {
    let dir = tempfile::tempdir().expect("dir");
    let p = dir.path().join("deep.yaml");
    let body = format!("variant: dameo\ncases: {}\n", "[".repeat(200_000));
    std::fs::write(&p, body).expect("write");
    let t = Instant::now();
    let mut c = bin();
    c.arg("verify").arg(&p);
    let o = run(c, "", 20);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stdout).contains("nests deeper than 64"),
        "{}",
        text(&o.stdout)
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

/// 40 million empty comments in a PDN game: kept up to the cap, so memory follows the file.
#[test]
fn pdn_comments_are_capped() {
    let text = format!("[Event \"x\"]\n1. 11-15 {} *\n", "{}".repeat(100_000));
    let games = damelab::pdn::read_games(text.as_bytes());
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].comments.len(), damelab::pdn::MAX_COMMENTS);
}
