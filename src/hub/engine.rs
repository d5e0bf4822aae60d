//! damelab as a Hub engine (`damelab hub [VARIANT]`): reads the protocol on one input, answers on
//! one output. A search runs on its own thread, so `ping`, `stop` and `ponder-hit` are answered
//! while it thinks; any other command waits for the search to end (stopping it first). The variant
//! is any rules file: given on the command line, or by the `variant` parameter before `init`.
//! Positions of another board, illegal moves and unknown parameters are answered with `error`.

use super::protocol::{move_from_hub, move_to_hub, position_from_hub, Line};
use super::setup::{self, LoadError, Outcome, SettingError, Settings};
use crate::search::options::Options;
use crate::search::{Limits, Searcher, MAX_DEPTH};
use crate::{Game, Rules};
use miette::Report;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub use super::setup::DEFAULT_HASH_MIB;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &Line) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}").and_then(|_| w.flush());
    }
}

fn error(out: &Out, message: &str) {
    say(out, &Line::new("error").arg("message", message));
}

/// A command the engine answers with `error`: the message says what is wrong and what is accepted.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(hub::command))]
pub enum HubError {
    #[error(transparent)]
    Quote(#[from] super::protocol::UnbalancedQuote),
    #[error("set-param needs name=… value=…")]
    SetParamArgs,
    #[error("hash `{0}` is out of range: give 1 to 65536 MiB")]
    Hash(String),
    #[error("unknown parameter `{name}`: the parameters are {known}")]
    UnknownParam { name: String, known: String },
    #[error(transparent)]
    Option(#[from] crate::search::options::OptionError),
    #[error("cannot load variant `{name}`: {why}")]
    Variant {
        name: String,
        why: crate::variant::LoadError,
    },
    /// The evaluation (`eval`) or the endgame tables (`tables`) that cannot be opened.
    #[error("{0}")]
    Open(miette::Report),
    #[error("`pos` needs `pos=…`")]
    NoPos,
    /// A position that does not fit the variant (as [`super::protocol::Refusal`] says).
    #[error("{0}")]
    Position(super::protocol::Refusal),
    #[error("moves: {0}")]
    Moves(super::protocol::Refusal),
    #[error("level: `{key}={value}` is not a number of seconds")]
    LevelSeconds { key: String, value: String },
    #[error("level: depth `{0}` is out of range (1 to {MAX_DEPTH})")]
    LevelDepth(String),
    #[error("level: `moves={0}` is not a number")]
    LevelMoves(String),
    #[error("level: give depth=, move-time=, time= [inc=] [moves=] or infinite")]
    NoLevel,
    #[error(transparent)]
    Routes(#[from] crate::engine::TooManyRoutes),
    #[error("the game is over: {0}")]
    Over(String),
}

/// A search's limit as `level` gave it.
#[derive(Clone, Copy, Debug)]
enum Level {
    Depth(u32),
    MoveTime(f64),
    Clock {
        time: f64,
        inc: f64,
        moves: Option<u32>,
    },
    Infinite,
}

impl From<SettingError> for HubError {
    fn from(e: SettingError) -> Self {
        match e {
            SettingError::Hash(v) => HubError::Hash(v),
            SettingError::Option(e) => HubError::Option(e),
            SettingError::Unknown(name) => HubError::UnknownParam {
                name,
                known: Settings::names().join(", "),
            },
        }
    }
}

impl From<LoadError> for HubError {
    fn from(e: LoadError) -> Self {
        match e {
            LoadError::Variant { name, why } => HubError::Variant { name, why },
            LoadError::Open(r) => HubError::Open(r),
            LoadError::Option(e) => HubError::Option(e),
        }
    }
}

struct Engine {
    settings: Settings,
    /// The loaded rules and a searcher, after `init` (dropped when a parameter changes).
    rules: Option<Arc<Rules>>,
    searcher: Option<Searcher>,
    game: Option<Game>,
    level: Level,
    search: Option<JoinHandle<Searcher>>,
}

impl Engine {
    fn params(&self) -> Vec<Line> {
        let set = &self.settings;
        let mut out = vec![
            Line::new("param")
                .arg("name", "variant")
                .arg("value", set.variant.as_str())
                .arg("type", "string"),
            Line::new("param")
                .arg("name", "hash")
                .arg("value", set.hash.to_string())
                .arg("type", "int")
                .arg("min", "1")
                .arg("max", "65536"),
            Line::new("param")
                .arg("name", "eval")
                .arg("value", set.eval.as_str())
                .arg("type", "string"),
            Line::new("param")
                .arg("name", "tables")
                .arg("value", set.tables.as_str())
                .arg("type", "string"),
        ];
        for (n, _) in Options::NAMES {
            out.push(
                Line::new("param")
                    .arg("name", *n)
                    .arg("value", set.option(n))
                    .arg("type", "string"),
            );
        }
        out
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), HubError> {
        self.settings.set(name, value)?;
        self.rules = None;
        self.searcher = None;
        self.game = None;
        Ok(())
    }

    /// Load the variant and make the searcher from the parameters (`init`).
    fn init(&mut self) -> Result<(), HubError> {
        if self.searcher.is_some() {
            return Ok(());
        }
        let (rules, s) = self.settings.load()?;
        self.rules = Some(rules);
        self.searcher = Some(s);
        Ok(())
    }

    fn pos(&mut self, l: &Line) -> Result<(), HubError> {
        self.init()?;
        let rules = self.rules.clone().expect("init loads the rules");
        let text = l.get("pos").ok_or(HubError::NoPos)?;
        let start = position_from_hub(&rules, text).map_err(HubError::Position)?;
        let mut game = Game::from_position(rules.clone(), start);
        for m in l.get("moves").unwrap_or_default().split_whitespace() {
            let mv = move_from_hub(&rules, game.position(), m).map_err(HubError::Moves)?;
            game.play(mv);
        }
        self.game = Some(game);
        Ok(())
    }

    fn level(&mut self, l: &Line) -> Result<(), HubError> {
        let num = |k: &str| -> Result<Option<f64>, HubError> {
            match l.get(k) {
                None => Ok(None),
                Some(v) => v
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 1e7)
                    .map(Some)
                    .ok_or_else(|| HubError::LevelSeconds {
                        key: k.to_string(),
                        value: v.to_string(),
                    }),
            }
        };
        self.level = if l.has("infinite") {
            Level::Infinite
        } else if let Some(d) = l.get("depth") {
            let d: u32 = d
                .parse()
                .ok()
                .filter(|d| (1..=MAX_DEPTH).contains(d))
                .ok_or_else(|| HubError::LevelDepth(d.to_string()))?;
            Level::Depth(d)
        } else if let Some(t) = num("move-time")? {
            Level::MoveTime(t)
        } else if let Some(time) = num("time")? {
            let moves = match l.get("moves") {
                None => None,
                Some(m) => Some(
                    m.parse::<u32>()
                        .map_err(|_| HubError::LevelMoves(m.to_string()))?,
                ),
            };
            Level::Clock {
                time,
                inc: num("inc")?.unwrap_or(0.0),
                moves,
            }
        } else {
            return Err(HubError::NoLevel);
        };
        Ok(())
    }

    fn limits(&self, ply: u32) -> Limits {
        match self.level {
            Level::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            Level::MoveTime(t) => Limits {
                time: Some(Duration::from_secs_f64(t.max(0.001))),
                ..Limits::default()
            },
            Level::Clock { time, inc, moves } => setup::clock_limits(
                Duration::from_secs_f64(time),
                Duration::from_secs_f64(inc),
                moves,
                ply,
            ),
            Level::Infinite => Limits::default(),
        }
    }

    fn go(&mut self, out: &Out) -> Result<(), HubError> {
        self.init()?;
        let rules = self.rules.clone().expect("init loads the rules");
        let game = self
            .game
            .clone()
            .unwrap_or_else(|| Game::new(rules.clone()));
        if game.result().is_some() || game.try_legal_moves()?.is_empty() {
            return Err(HubError::Over(game.describe_result()));
        }
        let s = self.searcher.take().expect("init makes the searcher");
        let limits = self.limits(game.moves().len() as u32);
        let (info_out, info_rules) = (out.clone(), rules.clone());
        let out = out.clone();
        let info = move |i: &crate::search::Info| {
            let pv: Vec<String> = i.pv.iter().map(|m| move_to_hub(&info_rules, m)).collect();
            let secs = i.elapsed.as_secs_f64();
            say(
                &info_out,
                &Line::new("info")
                    .arg("depth", i.depth.to_string())
                    .arg("score", format!("{:.2}", i.score as f64 / 100.0))
                    .arg("nodes", i.nodes.to_string())
                    .arg("time", format!("{secs:.3}"))
                    .arg(
                        "nps",
                        format!("{:.1}", i.nodes as f64 / secs.max(1e-6) / 1e6),
                    )
                    .arg("pv", pv.join(" ")),
            );
        };
        // A search that ran past the route budget has no move to stand by: it says why instead
        // of `done`.
        let done = move |outcome: Outcome| match outcome {
            Err(why) => error(&out, &why.to_string()),
            Ok((best, ponder)) => {
                let mut done = Line::new("done");
                if let Some(m) = best {
                    done = done.arg("move", move_to_hub(&rules, &m));
                }
                if let Some(p) = ponder {
                    done = done.arg("ponder", move_to_hub(&rules, &p));
                }
                say(&out, &done);
            }
        };
        self.search = Some(setup::think(s, game, limits, info, done));
        Ok(())
    }

    /// Wait for the running search, if any (`stop` first: ask it to end now).
    fn finish_search(&mut self, stop: bool) {
        if let Some(h) = self.search.take() {
            self.searcher = setup::join(h, stop);
            if self.searcher.is_none() {
                self.rules = None;
            }
        }
    }
}

/// Run the protocol until `quit` or the end of the input.
pub fn run(
    variant: &str,
    no_tables: bool,
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
) -> Result<(), Report> {
    let out: Out = Arc::new(Mutex::new(output));
    let rx = super::protocol::read_lines(input);
    let mut e = Engine {
        settings: Settings::new(variant, no_tables),
        rules: None,
        searcher: None,
        game: None,
        level: Level::Depth(12),
        search: None,
    };
    for text in rx.iter() {
        let line = match Line::parse(&text) {
            Ok(Some(l)) => l,
            Ok(None) => continue,
            Err(m) => {
                error(&out, &m.to_string());
                continue;
            }
        };
        // Commands a search answers while it runs.
        match line.command.as_str() {
            "ping" => {
                say(&out, &Line::new("pong"));
                continue;
            }
            "stop" => {
                if e.search.is_some() {
                    e.finish_search(true);
                }
                continue;
            }
            "ponder-hit" => continue,
            "quit" => {
                e.finish_search(true);
                return Ok(());
            }
            _ => {}
        }
        // Anything else: the search (if any) is over first.
        e.finish_search(true);
        let res = match line.command.as_str() {
            "hub" => {
                say(
                    &out,
                    &Line::new("id")
                        .arg("name", "damelab")
                        .arg("version", env!("CARGO_PKG_VERSION"))
                        .arg("author", "damelab")
                        .arg("variant", e.settings.variant.as_str()),
                );
                for p in e.params() {
                    say(&out, &p);
                }
                say(&out, &Line::new("wait"));
                Ok(())
            }
            "set-param" => match (line.get("name"), line.get("value")) {
                (Some(n), Some(v)) => e.set_param(n, v),
                _ => Err(HubError::SetParamArgs),
            },
            "init" => e.init().map(|_| say(&out, &Line::new("ready"))),
            "pos" => e.pos(&line),
            "level" => e.level(&line),
            "go" => e.go(&out),
            "new-game" => {
                if let Some(s) = &mut e.searcher {
                    s.clear();
                }
                e.game = None;
                Ok(())
            }
            // Unknown commands are ignored, as the protocol asks.
            _ => Ok(()),
        };
        if let Err(m) = res {
            error(&out, &m.to_string());
        }
    }
    // The input ended: the GUI is gone.
    e.finish_search(true);
    Ok(())
}
