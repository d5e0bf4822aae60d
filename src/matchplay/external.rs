//! An external engine speaking the Hub protocol, driven by a match: started as a child process,
//! introduced with `hub` … `wait`, its parameters set, `init` … `ready`, then per game `new-game`
//! and per move `pos`, `level`, `go think` until `done`. Every wait has a deadline; an engine that
//! ends, overruns, answers an illegal move or no move loses the game with the reason.

use super::engine::{EngineSpec, Fault, Player, Reply, Turn};
use crate::hub::protocol::{move_among, move_to_hub, position_to_hub, split_command, Line};
use crate::Rules;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an engine may take to introduce itself (`hub` … `wait`) and to initialise
/// (`init` … `ready`).
const HELLO: Duration = Duration::from_secs(10);
const INIT: Duration = Duration::from_secs(60);
/// How long a move searched to a depth (no clock) may take.
pub(super) const DEPTH_MOVE: Duration = Duration::from_secs(120);
/// The longest line an engine may send (a longer one is garbage).
const MAX_LINE: usize = 1 << 20;

/// A running Hub engine.
pub struct Hub {
    spec: EngineSpec,
    rules: Arc<Rules>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    /// Start the engine of `spec` and bring it to `ready` for these rules: a Hub-2 engine, or
    /// one that answers `hub` in the first protocol ([`super::hub1`]).
    pub fn start(
        rules: &Arc<Rules>,
        variant: &str,
        spec: &EngineSpec,
    ) -> Result<Box<dyn Player>, Fault> {
        let cmd = spec.cmd.as_deref().unwrap_or_default();
        let words = split_command(cmd).map_err(|e| Fault::Crash(e.to_string()))?;
        let Some((program, args)) = words.split_first() else {
            return Err(Fault::Crash("the command line is empty".into()));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start `{cmd}`: {e}")))?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r
                    .by_ref()
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut hub = Hub {
            spec: spec.clone(),
            rules: rules.clone(),
            child,
            stdin,
            lines: rx,
        };
        hub.send(&Line::new("hub"))?;
        let mut params: Vec<Line> = Vec::new();
        hub.until(HELLO, None, |l| {
            params.push(l.clone());
            Ok(l.command == "wait")
        })?;
        if super::hub1::speaks_hub1(&params) {
            return Ok(Box::new(super::hub1::Hub1::start(hub, rules, spec)?));
        }
        params.retain(|l| l.command == "param");
        // The variant, when the engine declares a parameter that can take it.
        if let Some(p) = params.iter().find(|p| p.get("name") == Some("variant")) {
            let takes = p.get("type") == Some("string")
                || p.get("values")
                    .is_some_and(|v| v.split_whitespace().any(|w| w == variant));
            if takes && p.get("value") != Some(variant) {
                hub.send(
                    &Line::new("set-param")
                        .arg("name", "variant")
                        .arg("value", variant),
                )?;
            }
        }
        for (n, v) in &spec.options {
            hub.send(
                &Line::new("set-param")
                    .arg("name", n.as_str())
                    .arg("value", v.as_str()),
            )?;
        }
        hub.send(&Line::new("init"))?;
        hub.until(INIT, None, |l| match l.command.as_str() {
            "error" => Err(Fault::Garbage(format!(
                "it refused to start: {}",
                l.get("message").unwrap_or_default()
            ))),
            c => Ok(c == "ready"),
        })?;
        Ok(Box::new(hub))
    }

    pub(super) fn send(&mut self, line: &Line) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| self.ended(&format!("cannot write to it ({e})")))
    }

    /// The fault of an engine whose pipe broke: say how it ended, if it did.
    fn ended(&mut self, what: &str) -> Fault {
        std::thread::sleep(Duration::from_millis(20));
        match self.child.try_wait() {
            Ok(Some(status)) => Fault::Crash(format!("{what}; it exited ({status})")),
            _ => Fault::Crash(what.to_string()),
        }
    }

    /// Read lines until `done` says so, within `limit` (and the abort flag, when given).
    pub(super) fn until(
        &mut self,
        limit: Duration,
        abort: Option<&std::sync::atomic::AtomicBool>,
        mut done: impl FnMut(&Line) -> Result<bool, Fault>,
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + limit;
        loop {
            if abort.is_some_and(|a| a.load(Ordering::Relaxed)) || crate::interrupt::requested() {
                return Err(Fault::Abandoned);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::Timeout(format!(
                    "no answer within {:.3} s",
                    limit.as_secs_f64()
                )));
            }
            let wait = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(wait) {
                Ok(text) => {
                    if text.len() > MAX_LINE {
                        return Err(Fault::Garbage("a line longer than 1 MiB".into()));
                    }
                    let line = match Line::parse(&text) {
                        Ok(Some(l)) => l,
                        Ok(None) => continue,
                        Err(e) => return Err(Fault::Garbage(format!("`{}`: {e}", clip(&text)))),
                    };
                    if done(&line)? {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended("its output ended"));
                }
            }
        }
    }
}

fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(80).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

impl Player for Hub {
    fn new_game(&mut self) -> Result<(), Fault> {
        self.send(&Line::new("new-game"))
    }

    fn play(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let rules = self.rules.clone();
        let game = turn.game;
        let start =
            position_to_hub(&rules, game.start()).map_err(|e| Fault::Garbage(e.to_string()))?;
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| move_to_hub(&rules, m))
            .collect();
        let mut pos = Line::new("pos").arg("pos", start);
        if !moves.is_empty() {
            pos = pos.arg("moves", moves.join(" "));
        }
        self.send(&pos)?;
        let margin = Duration::from_secs_f64(self.spec.margin);
        let (level, limit) = match (turn.clock, self.spec.movetime, self.spec.depth) {
            (Some((left, inc)), _, _) => (
                Line::new("level")
                    .arg("time", format!("{:.3}", left.as_secs_f64()))
                    .arg("inc", format!("{:.3}", inc.as_secs_f64())),
                left + margin,
            ),
            (None, Some(t), _) => (
                Line::new("level").arg("move-time", format!("{t}")),
                Duration::from_secs_f64(t) + margin,
            ),
            (None, None, Some(d)) => (
                Line::new("level").arg("depth", d.to_string()),
                DEPTH_MOVE + margin,
            ),
            (None, None, None) => (Line::new("level").flag("infinite"), margin),
        };
        self.send(&level)?;
        self.send(&Line::new("go").flag("think"))?;
        let mut reply: Option<Reply> = None;
        let mut score = None;
        let mut depth = None;
        let mut nodes = None;
        let legal = turn.legal;
        let result = self.until(limit, Some(turn.abort), |l| match l.command.as_str() {
            "info" => {
                if let Some(s) = l.get("score").and_then(|s| s.parse::<f64>().ok()) {
                    score = Some((s * 100.0).round().clamp(-1e6, 1e6) as i32);
                }
                if let Some(d) = l.get("depth").and_then(|d| d.parse().ok()) {
                    depth = Some(d);
                }
                if let Some(n) = l.get("nodes").and_then(|n| n.parse().ok()) {
                    nodes = Some(n);
                }
                Ok(false)
            }
            "done" => {
                let Some(text) = l.get("move").filter(|m| !m.is_empty()) else {
                    return Err(Fault::Garbage(format!(
                        "`{}` names no move",
                        clip(&l.to_string())
                    )));
                };
                let mv =
                    move_among(&rules, legal, text).map_err(|e| Fault::Illegal(e.to_string()))?;
                reply = Some(Reply {
                    mv,
                    score,
                    depth,
                    nodes,
                });
                Ok(true)
            }
            // `error` in answer to `go`: the engine will not move here, and says why.
            "error" => Err(Fault::Refused(clip(l.get("message").unwrap_or_default()))),
            _ => Ok(false),
        });
        if let Err(Fault::Timeout(_)) = &result {
            let _ = self.send(&Line::new("stop"));
        }
        result?;
        reply.ok_or_else(|| Fault::Garbage("no move".into()))
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
