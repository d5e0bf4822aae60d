//! `damelab hub`: the Hub protocol spoken over a pipe, and `damelab match` driving Hub engines —
//! damelab itself through the protocol, and broken engines that crash, hang, answer illegal moves
//! or speak garbage (each loses its games with the reason recorded; the match goes on).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_damelab");

/// A Hub session (either protocol): lines in, lines out, each wait bounded.
pub(super) struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_with(args, &[])
    }

    /// [`Session::start`] with `env` set (a cache of tables, say).
    pub(super) fn start_with(args: &[&str], env: &[(&str, &std::path::Path)]) -> Session {
        let mut cmd = crate::common::bin();
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines: rx,
        }
    }

    pub(super) fn send(&mut self, l: &str) {
        writeln!(self.stdin, "{l}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `until`.
    pub(super) fn read_until(&mut self, until: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no `{until}` within 30 s; got {out:?}"));
            let done = l.starts_with(until);
            out.push(l);
            if done {
                return out;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn damelab_speaks_hub() {
    let mut s = Session::start(&["hub", "international"]);
    s.send("hub");
    let hello = s.read_until("wait");
    assert!(hello[0].starts_with("id name=damelab"), "{hello:?}");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("param name=variant value=international")),
        "{hello:?}"
    );
    s.send("set-param name=hash value=8");
    s.send("set-param name=colour value=red");
    let e = s.read_until("error");
    assert!(e[0].contains("unknown parameter `colour`"), "{e:?}");
    assert!(
        e[0].contains("the parameters are variant, hash, eval, tables, "),
        "{e:?}"
    );
    s.send("set-param name=hash value=0");
    let e = s.read_until("error");
    assert!(e[0].contains("hash `0` is out of range"), "{e:?}");
    s.send("init");
    s.read_until("ready");
    // The start of international draughts, after one move each.
    let start = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
    s.send(&format!("pos pos={start} moves=\"32-28 19-23\""));
    s.send("level depth=3");
    s.send("go think");
    s.send("ping");
    let lines = s.read_until("done");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=3")),
        "{lines:?}"
    );
    let done = lines.last().unwrap();
    // 28x19: the capture White must take after 32-28 19-23.
    assert!(done.starts_with("done move=28x19x23"), "{done}");
    // A position of another board, an illegal move, a bad level.
    s.send("pos pos=Wbbbbeeeewwww");
    // The error is the last line read (the search before it may still be printing its lines).
    let lines = s.read_until("error");
    assert!(
        lines.last().unwrap().contains("has 12 squares but"),
        "{lines:?}"
    );
    s.send(&format!("pos pos={start} moves=\"31-26 31-26\""));
    let lines = s.read_until("error");
    assert!(
        lines.last().unwrap().contains("not a legal move"),
        "{lines:?}"
    );
    s.send("level move-time=banana");
    let lines = s.read_until("error");
    assert!(
        lines.last().unwrap().contains("move-time=banana"),
        "{lines:?}"
    );
    // An infinite search ends on `stop`, answering `pong` meanwhile.
    s.send(&format!("pos pos={start}"));
    s.send("level infinite");
    s.send("go analyze");
    std::thread::sleep(Duration::from_millis(200));
    s.send("ping");
    s.read_until("pong");
    s.send("stop");
    let d = s.read_until("done");
    assert!(d.last().unwrap().starts_with("done move="), "{d:?}");
    s.send("quit");
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        if let Ok(Some(st)) = s.child.try_wait() {
            assert!(st.success());
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("`quit` did not end the engine");
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-hub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn match_json(engines: &[String], extra: &[&str], tag: &str) -> (Output, serde_json::Value) {
    let json = temp(&format!("{tag}.json"));
    let mut args: Vec<String> = vec!["match".into(), "dameo".into()];
    for e in engines {
        args.push("--engine".into());
        args.push(e.clone());
    }
    for x in extra {
        args.push(x.to_string());
    }
    args.extend([
        "--no-tables".into(),
        "--json".into(),
        json.display().to_string(),
    ]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = damelab(&refs);
    let j = std::fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(serde_json::Value::Null);
    (o, j)
}

#[test]
fn match_plays_damelab_against_itself_through_the_protocol() {
    let hub = format!("name=hub depth=2 cmd=\"{BIN} hub dameo\"");
    let (o, j) = match_json(
        &[hub, "name=inside depth=2".into()],
        &["--games", "4", "--concurrency", "2", "--max-plies", "80"],
        "self",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games = j["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for g in games {
        let r = g["reason"].as_str().unwrap();
        assert!(
            !r.contains("crashed")
                && !r.contains("protocol")
                && !r.contains("forfeit")
                && !r.contains("illegal"),
            "{r}"
        );
        assert!(g["plies"].as_u64().unwrap() > 4, "{g}");
    }
}

#[cfg(unix)]
/// A fake engine: a shell script that introduces itself and then does `then` on `go`.
fn fake(tag: &str, then: &str) -> String {
    let script = format!(
        "while read l; do case \"$l\" in hub) echo wait;; init) echo ready;; go*) {then};; quit) exit 0;; esac; done\n"
    );
    let path = temp(&format!("{tag}.sh"));
    std::fs::write(&path, script).unwrap();
    format!("cmd=\"sh {}\"", path.display())
}

/// Fake engines are shell scripts: Unix only.
#[cfg(unix)]
#[test]
fn broken_engines_lose_with_the_reason_and_the_match_goes_on() {
    let cases = [
        ("crash", fake("crash", "exit 3"), "crashed"),
        ("garbage", fake("garbage", "echo done"), "protocol error"),
        (
            "illegal",
            fake("illegal", "echo done move=1-50"),
            "illegal move",
        ),
        ("hang", fake("hang", "sleep 5"), "time forfeit"),
    ];
    for (tag, cmd, want) in cases {
        let bad = format!("name=bad movetime=0.05 margin=0.3 {cmd}");
        let (o, j) = match_json(&[bad, "name=good depth=1".into()], &["--games", "2"], tag);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{tag}: {out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let games = j["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "{tag}: both games are played");
        for g in games {
            let reason = g["reason"].as_str().unwrap();
            assert!(
                reason.starts_with("bad ") && reason.contains(want),
                "{tag}: {reason}"
            );
        }
        assert_eq!(j["standings"][0]["tally"]["losses"], 2, "{tag}: {out}");
    }
}

/// The pathological rules of tests/robust (a king whose capture routes are the trails of a grid)
/// and a position of them where Black has a handful of quiet moves and White, after any of them,
/// more capture routes than the budget: every search from it runs into the budget one ply down.
fn routes_fixture() -> (String, damelab::Variant, damelab::Position) {
    let rules = format!(
        "{}/tests/robust/short-jump-king.rules",
        env!("CARGO_MANIFEST_DIR")
    );
    let v = damelab::Variant::load(&rules).expect("the fixture loads");
    let mut men = Vec::new();
    for r in 0..7u8 {
        for f in 0..13u8 {
            if f % 2 == 1 || r % 2 == 1 {
                men.push(format!("{}{}", (b'a' + f) as char, r + 1));
            }
        }
    }
    let fen = format!("B:WKa1:B{}", men.join(","));
    let pos = damelab::notation::parse_fen(&v.rules, &fen).expect("the FEN reads");
    (rules, v, pos)
}

/// Issue 49: a position whose search runs past the route budget is answered with an `error` line
/// that says so, not with a move of a search that stopped half-way (or no move at all); the
/// engine goes on answering.
#[test]
fn the_hub_says_too_many_routes() {
    let (rules, v, pos) = routes_fixture();
    let hub = damelab::hub::protocol::position_to_hub(&v.rules, &pos).expect("two kinds");
    let mut s = Session::start(&["hub", &rules]);
    s.send("init");
    s.read_until("ready");
    s.send(&format!("pos pos={hub}"));
    s.send("level move-time=1");
    let t = Instant::now();
    s.send("go think");
    let lines = s.read_until("error");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let last = lines.last().unwrap();
    assert!(last.contains("too many capture routes"), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("done")),
        "no move from a search that stopped on the budget: {lines:?}"
    );
    // White to move in the grid itself: too many routes at the root, the same answer.
    let white = format!("W{}", &hub[1..]);
    s.send(&format!("pos pos={white}"));
    s.send("go think");
    let lines = s.read_until("error");
    assert!(
        lines.last().unwrap().contains("too many capture routes"),
        "{lines:?}"
    );
    s.send("ping");
    s.read_until("pong");
}

/// Issue 49: a match game whose position the engine cannot search within the route budget ends
/// there, recorded with the reason, for damelab's own engine and for damelab through the Hub
/// protocol; the match goes on to its other games.
#[test]
fn a_match_records_too_many_routes() {
    let (rules, v, pos) = routes_fixture();
    let openings = temp("routes-openings.txt");
    std::fs::write(
        &openings,
        format!("{}\n", damelab::notation::to_fen(&v.rules, &pos)),
    )
    .unwrap();
    let json = temp("routes.json");
    let hub = format!("name=hub movetime=0.5 margin=20 cmd=\"{BIN} hub {rules}\"");
    let o = damelab(&[
        "match",
        &rules,
        "--engine",
        "name=inside movetime=0.5",
        "--engine",
        &hub,
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--no-tables",
        "--json",
        json.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let j: serde_json::Value = crate::common::read_json(&json);
    let games = j["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{j}");
    for g in games {
        let reason = g["reason"].as_str().unwrap();
        assert!(reason.contains("too many capture routes"), "{g}");
        assert_eq!(g["plies"], 0, "no move played from a stopped search: {g}");
    }
}
