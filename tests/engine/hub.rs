//! `damelab hub`: the Hub protocol spoken over a pipe, and `damelab match` driving Hub engines —
//! damelab itself through the protocol, and broken engines that crash, hang, answer illegal moves
//! or speak garbage (each loses its games with the reason recorded; the match goes on).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_damelab");

/// A Hub session: lines in, lines out, each wait bounded.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = crate::common::bin()
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

    fn send(&mut self, l: &str) {
        writeln!(self.stdin, "{l}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `until`.
    fn read_until(&mut self, until: &str) -> Vec<String> {
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
