//! Fault injection on every output damelab writes: a full disk (a small tmpfs when this test may
//! mount one, as root does; otherwise the writer's test hook `DAMELAB_WRITE_FAULT=enospc`), a
//! kill between the write of the temporary file and its rename, and standard output that cannot
//! be written (`/dev/full`). Each asserts a non-zero exit and the old file intact.
#![cfg(unix)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub(crate) fn bin() -> Command {
    let mut c = crate::common::bin();
    c.env("NO_COLOR", "1")
        .env_remove("DAMELAB_WRITE_FAULT")
        .env_remove("DAMELAB_MEM_AVAILABLE");
    c
}

/// Run with `stdin` as input, failing the test if it takes more than `secs` (a hang).
pub(crate) fn run(mut cmd: Command, stdin: &str, secs: u64) -> Output {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("damelab starts");
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let ereader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err.read_to_end(&mut b);
        b
    });
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not finish in {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = feeder.join();
    Output {
        status,
        stdout: reader.join().unwrap_or_default(),
        stderr: ereader.join().unwrap_or_default(),
    }
}

/// The output with miette's line wrapping undone (`│` gutters, line breaks), for matching.
pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A folder whose disk is full: a tmpfs of 256 KiB filled up when mounting works, else an
/// ordinary folder with the writer's full-disk hook set on each command.
struct Disk {
    dir: tempfile::TempDir,
    mounted: bool,
}

impl Disk {
    fn new() -> Disk {
        let dir = tempfile::tempdir().expect("temp dir");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("note: cannot mount a tmpfs here; the writer's full-disk hook stands in");
        }
        Disk { dir, mounted }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Fill the disk: from now on no byte more can be written.
    fn fill(&self) {
        if !self.mounted {
            return;
        }
        let mut f = std::fs::File::create(self.path("filler")).expect("filler");
        for chunk in [65536usize, 4096, 1] {
            let buf = vec![b'x'; chunk];
            while f.write_all(&buf).is_ok() {}
        }
    }

    fn command(&self) -> Command {
        let mut c = bin();
        if !self.mounted {
            c.env("DAMELAB_WRITE_FAULT", "enospc");
        }
        c
    }

    /// The names in the folder but the filler: what a failed write left behind.
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.dir.path())
            .expect("dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "filler")
            .collect();
        v.sort();
        v
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount")
                .arg("-l")
                .arg(self.dir.path())
                .status();
        }
    }
}

const OLD: &str = "the old file: it must survive\n";

/// Put the old file in place, fill the disk, run, and check: non-zero exit, the old file intact,
/// nothing left beside it.
fn full_disk_keeps(name: &str, make: impl FnOnce(&Disk, &Path) -> (Command, String)) {
    let disk = Disk::new();
    let target = disk.path(name);
    std::fs::write(&target, OLD).expect("old file");
    let (cmd, stdin) = make(&disk, &target);
    disk.fill();
    let o = run(cmd, &stdin, 60);
    assert_ne!(o.status.code(), Some(0), "{name}: {}", text(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&target).expect("still there"),
        OLD,
        "{name}: the old file changed; stderr: {}",
        text(&o.stderr)
    );
    let names = disk.names();
    let extra: Vec<&String> = names.iter().filter(|n| !n.ends_with(".input")).collect();
    assert_eq!(extra, vec![&name.to_string()], "{name}: debris left");
    let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        all.contains("No space left") || all.contains("no space"),
        "{name}: no diagnostic about the full disk: {all}"
    );
}

#[test]
fn diagram_output_on_a_full_disk() {
    full_disk_keeps("d.svg", |disk, t| {
        let mut c = disk.command();
        c.args(["diagram", "dameo", "-o"]).arg(t);
        (c, String::new())
    });
}

#[test]
fn repl_save_and_diagram_on_a_full_disk() {
    full_disk_keeps("g.pdn", |disk, t| {
        let mut c = disk.command();
        c.args(["repl", "dameo"]);
        (c, format!("a1-a2\nsave {}\n", t.display()))
    });
    full_disk_keeps("p.svg", |disk, t| {
        let mut c = disk.command();
        c.args(["repl", "dameo"]);
        (c, format!("diagram {}\n", t.display()))
    });
}

/// The blessed case file is not `OLD`: check it by its own text.
#[test]
fn verify_bless_on_a_full_disk_keeps_the_case_file() {
    let disk = Disk::new();
    let t = disk.path("cases.yaml");
    let original = std::fs::read_to_string("tests/verify/blank.yaml").expect("reads");
    std::fs::write(&t, &original).expect("copy");
    let mut c = disk.command();
    c.args(["verify", "--bless"]).arg(&t);
    disk.fill();
    let o = run(c, "", 60);
    assert_ne!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&t).expect("reads"), original);
    assert!(
        text(&o.stdout).contains("the old file is unchanged"),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(disk.names(), vec!["cases.yaml".to_string()]);
}

#[test]
fn selfplay_json_and_svg_on_a_full_disk() {
    full_disk_keeps("run.json", |disk, t| {
        let mut c = disk.command();
        c.args(["selfplay", "dameo", "--games", "2", "--random", "--json"])
            .arg(t);
        (c, String::new())
    });
    full_disk_keeps("run.svg", |disk, t| {
        let mut c = disk.command();
        c.args(["selfplay", "dameo", "--games", "2", "--random", "--svg"])
            .arg(t);
        (c, String::new())
    });
}

/// A match's PDN grows a game at a time: on a full disk the first game fails, and the user's
/// file is still whole (it is replaced only once a game is on disk).
#[test]
fn match_pdn_on_a_full_disk() {
    full_disk_keeps("m.pdn", |disk, t| {
        let mut c = disk.command();
        c.args(MATCH).arg("--pdn").arg(t);
        (c, String::new())
    });
}

/// A small match of two games.
const MATCH: &[&str] = &[
    "match",
    "dameo",
    "--engine",
    "name=a depth=1",
    "--engine",
    "name=b depth=1",
    "--games",
    "2",
    "--no-tables",
    "--max-plies",
    "40",
];

/// A real run file to merge and chart.
fn run_file(dir: &Path) -> PathBuf {
    let p = dir.join("a.json");
    let mut c = bin();
    c.args(["selfplay", "dameo", "--games", "4", "--random", "--json"])
        .arg(&p);
    let o = run(c, "", 60);
    assert!(o.status.success(), "{}", text(&o.stderr));
    p
}

#[test]
fn merge_and_chart_on_a_full_disk() {
    let src = tempfile::tempdir().expect("dir");
    let input = run_file(src.path());
    full_disk_keeps("merged.json", |disk, t| {
        let mut c = disk.command();
        c.args(["selfplay", "merge"])
            .arg(&input)
            .arg("--json")
            .arg(t);
        (c, String::new())
    });
    full_disk_keeps("chart.svg", |disk, t| {
        let mut c = disk.command();
        c.args(["selfplay", "chart"])
            .arg(&input)
            .arg("--svg")
            .arg(t);
        (c, String::new())
    });
}

#[test]
fn endgame_tables_on_a_full_disk_leave_no_debris() {
    let disk = Disk::new();
    let mut c = disk.command();
    c.args(["endgame", "english", "K v K", "--cache"])
        .arg(disk.dir.path());
    disk.fill();
    let o = run(c, "", 60);
    assert_ne!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // The figures still come; the cache is said not to be written.
    assert!(text(&o.stdout).contains("K v K"), "{}", text(&o.stdout));
    assert!(
        text(&o.stderr).contains("could not be written to the cache"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(disk.names(), Vec::<String>::new(), "debris in the cache");
}

/// The writer ends (as after `kill -9`) once the temporary is written and synced, before the
/// rename: the old file is untouched.
fn killed_before_rename_keeps(name: &str, args: &[&str], stdin: &str) {
    let dir = tempfile::tempdir().expect("dir");
    let target = dir.path().join(name);
    std::fs::write(&target, OLD).expect("old");
    let mut c = bin();
    c.current_dir(dir.path())
        .env("DAMELAB_WRITE_FAULT", "kill-before-rename")
        .args(args);
    let o = run(c, stdin, 60);
    assert_eq!(o.status.code(), Some(137), "{name}: {}", text(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&target).expect("there"),
        OLD,
        "{name}"
    );
}

#[test]
fn a_kill_between_write_and_rename_keeps_every_old_file() {
    killed_before_rename_keeps("d.svg", &["diagram", "dameo", "-o", "d.svg"], "");
    killed_before_rename_keeps("g.pdn", &["repl", "dameo"], "a1-a2\nsave g.pdn\n");
    killed_before_rename_keeps("p.svg", &["repl", "dameo"], "diagram p.svg\n");
    killed_before_rename_keeps(
        "r.json",
        &[
            "selfplay", "dameo", "--games", "2", "--random", "--json", "r.json",
        ],
        "",
    );
    let mut args = MATCH.to_vec();
    args.extend(["--pdn", "m.pdn"]);
    killed_before_rename_keeps("m.pdn", &args, "");
    // The case file to bless is the old file: compare with its own text.
    let dir = tempfile::tempdir().expect("dir");
    let t = dir.path().join("c.yaml");
    let original = std::fs::read_to_string("tests/verify/blank.yaml").expect("reads");
    std::fs::write(&t, &original).expect("copy");
    let mut c = bin();
    c.env("DAMELAB_WRITE_FAULT", "kill-before-rename")
        .args(["verify", "--bless"])
        .arg(&t);
    let o = run(c, "", 60);
    assert_eq!(o.status.code(), Some(137));
    assert_eq!(std::fs::read_to_string(&t).expect("reads"), original);
}

/// Standard output that cannot be written (`/dev/full`): a diagnostic and exit 1, for every
/// command that prints.
#[test]
fn output_to_dev_full_fails() {
    let dir = tempfile::tempdir().expect("dir");
    let pdn = dir.path().join("g.pdn");
    std::fs::copy("tests/pdn/english.pdn", &pdn).expect("copy");
    let cases: Vec<Vec<String>> = vec![
        vec!["list".into()],
        vec!["check".into(), "dameo".into()],
        vec!["show".into(), "dameo".into()],
        vec!["rules".into(), "dameo".into()],
        vec!["moves".into(), "dameo".into()],
        vec!["perft".into(), "dameo".into(), "2".into()],
        vec!["diagram".into(), "dameo".into()],
        vec!["compile".into(), "dameo".into(), "--dump".into()],
        vec![
            "endgame".into(),
            "english".into(),
            "K v K".into(),
            "--json".into(),
            "--no-cache".into(),
        ],
        vec![
            "analyse".into(),
            "dameo".into(),
            "--depth".into(),
            "2".into(),
        ],
        vec![
            "selfplay".into(),
            "dameo".into(),
            "--games".into(),
            "2".into(),
            "--random".into(),
        ],
        vec!["verify".into(), "tests/verify/pass.yaml".into()],
        vec!["replay".into(), pdn.display().to_string()],
        vec!["repl".into(), "dameo".into()],
    ];
    for args in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let o = bin()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut ch| {
                if let Some(mut i) = ch.stdin.take() {
                    let _ = i.write_all(b"moves\n");
                }
                ch.wait_with_output()
            })
            .expect("runs");
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("No space left"),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

/// A closed pipe (`damelab perft … | head -1`) stays quiet and succeeds.
#[test]
fn a_closed_pipe_is_quiet() {
    let mut child = bin()
        .args(["perft", "dameo", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut out = child.stdout.take().expect("stdout");
    let mut first = [0u8; 8];
    out.read_exact(&mut first).expect("a line comes");
    drop(out);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "perft goes on after its reader left"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    assert_eq!(status.code(), Some(0), "{err}");
    assert_eq!(err, "");
}

/// The full-disk hook itself (what stands in for the tmpfs where mounting is refused).
#[test]
fn the_full_disk_hook_keeps_the_old_file() {
    let dir = tempfile::tempdir().expect("dir");
    let t = dir.path().join("d.svg");
    std::fs::write(&t, OLD).expect("old");
    let mut c = bin();
    c.env("DAMELAB_WRITE_FAULT", "enospc")
        .args(["diagram", "dameo", "-o"])
        .arg(&t);
    let o = run(c, "", 60);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("No space left"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&t).expect("there"), OLD);
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
}
