//! damelab as an engine of the first Hub protocol (`damelab hub --protocol 1`), the one Scan 2.x
//! speaks: plain words, no `name=value`. A second implementation beside [`super::engine`] (Hub 2),
//! so that GUIs of that protocol can drive damelab and `damelab match` has a real engine to
//! play its Hub-1 client against. The search runs on its own thread: `ping` is answered while it
//! thinks, and any other command stops it first (`stop` does nothing else).
//!
//! | GUI sends | damelab answers |
//! | --- | --- |
//! | `hub` | `name damelab VERSION`, `author damelab`, `wait` |
//! | `set NAME VALUE` | nothing (`variant`, `hash`, `eval`, `tables`, the search options) |
//! | `init` | `ready`, or `error …` when the variant does not load |
//! | `start` · `pos LETTERS` | nothing: the start position, or the one given (`w`/`b` first) |
//! | `move M` | nothing: the move is played on the position |
//! | `time MS` · `depth N` · `level MOVES MS INC-MS` | nothing (`pos` and `start` set depth 12 again) |
//! | `go` · `analyse` · `ponder` | `info DEPTH DEPTH SCORE NODES SECONDS MNPS PV…` per iteration, `move M [PONDER]` |
//! | `new` | nothing: the tables are cleared |
//! | `ping` | `pong` |
//! | `quit`, or the end of the input | the process ends |
//!
//! Anything that cannot be done is answered `error …` and changes nothing.

use super::protocol::{move_from_hub, move_to_hub, position_from_hub};
use super::setup::{self, LoadError, Outcome, SettingError, Settings};
use crate::search::{Limits, Searcher, MAX_DEPTH};
use crate::{Game, Rules};
use miette::Report;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}").and_then(|_| w.flush());
    }
}

/// Why a command of the first protocol cannot be done (answered `error …`).
#[derive(Debug, thiserror::Error)]
pub enum Hub1Error {
    #[error("`{0}` needs {1}")]
    Missing(&'static str, &'static str),
    #[error("unknown variable `{0}`: the variables are variant, hash, eval, tables and the search options")]
    UnknownVariable(String),
    #[error("`{0}` is not {1}")]
    BadValue(String, &'static str),
    #[error("{0}")]
    Refused(String),
    #[error("the game is over: {0}")]
    Over(String),
}

/// The search limit of the next `go`.
#[derive(Clone, Copy, Debug)]
enum Level {
    Depth(u32),
    MoveTime(Duration),
    Clock {
        moves: u32,
        time: Duration,
        inc: Duration,
    },
}

/// The limit of a move: depth 12 until a command says otherwise.
const DEFAULT_LEVEL: Level = Level::Depth(12);

impl From<SettingError> for Hub1Error {
    fn from(e: SettingError) -> Self {
        match e {
            SettingError::Hash(v) => Hub1Error::BadValue(v, "a table size of 1 to 65536 MiB"),
            SettingError::Option(e) => Hub1Error::Refused(e.to_string()),
            SettingError::Unknown(n) => Hub1Error::UnknownVariable(n),
        }
    }
}

impl From<LoadError> for Hub1Error {
    fn from(e: LoadError) -> Self {
        Hub1Error::Refused(match e {
            LoadError::Variant { name, why } => format!("cannot load variant `{name}`: {why}"),
            LoadError::Open(r) => r.to_string(),
            LoadError::Option(e) => e.to_string(),
        })
    }
}

struct Server {
    settings: Settings,
    rules: Option<Arc<Rules>>,
    searcher: Option<Searcher>,
    game: Option<Game>,
    level: Level,
    depth: Option<u32>,
    search: Option<JoinHandle<Searcher>>,
}

fn number<T: std::str::FromStr>(text: Option<&str>, what: &'static str) -> Result<T, Hub1Error> {
    let t = text.ok_or(Hub1Error::Missing("the command", what))?;
    t.parse()
        .map_err(|_| Hub1Error::BadValue(t.to_string(), what))
}

fn millis(text: Option<&str>) -> Result<Duration, Hub1Error> {
    let ms: u64 = number(text, "a number of milliseconds")?;
    Ok(Duration::from_millis(
        ms.min(crate::limits::MAX_SEARCH_SECONDS as u64 * 1000),
    ))
}

impl Server {
    fn set(&mut self, name: &str, value: &str) -> Result<(), Hub1Error> {
        self.settings.set(name, value)?;
        self.rules = None;
        self.searcher = None;
        self.game = None;
        Ok(())
    }

    /// Load the variant and make the searcher (`init`, or the first command that needs them).
    fn init(&mut self) -> Result<Arc<Rules>, Hub1Error> {
        if let (Some(r), Some(_)) = (&self.rules, &self.searcher) {
            return Ok(r.clone());
        }
        let (rules, s) = self.settings.load()?;
        self.rules = Some(rules.clone());
        self.searcher = Some(s);
        Ok(rules)
    }

    /// `start` (no text) or `pos LETTERS`: a new position, the limits back to their default.
    fn position(&mut self, text: Option<&str>) -> Result<(), Hub1Error> {
        let rules = self.init()?;
        let pos = match text {
            None => rules.start,
            Some(t) => {
                position_from_hub(&rules, t).map_err(|e| Hub1Error::Refused(e.to_string()))?
            }
        };
        self.game = Some(Game::from_position(rules, pos));
        self.level = DEFAULT_LEVEL;
        self.depth = None;
        Ok(())
    }

    fn play(&mut self, text: Option<&str>) -> Result<(), Hub1Error> {
        let text = text.ok_or(Hub1Error::Missing("move", "a move"))?;
        let rules = self.init()?;
        let game = self.game.get_or_insert_with(|| Game::new(rules.clone()));
        let mv = move_from_hub(&rules, game.position(), text)
            .map_err(|e| Hub1Error::Refused(format!("illegal move: {e}")))?;
        game.play(mv);
        Ok(())
    }

    fn limits(&self, ply: u32) -> Limits {
        let mut l = match self.level {
            Level::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            Level::MoveTime(t) => Limits {
                time: Some(t.max(Duration::from_millis(1))),
                ..Limits::default()
            },
            Level::Clock { moves, time, inc } => setup::clock_limits(time, inc, Some(moves), ply),
        };
        if let Some(d) = self.depth {
            l.depth = Some(d);
        }
        l
    }

    fn go(&mut self, out: &Out) -> Result<(), Hub1Error> {
        let rules = self.init()?;
        let game = self
            .game
            .clone()
            .unwrap_or_else(|| Game::new(rules.clone()));
        let legal = game
            .try_legal_moves()
            .map_err(|e| Hub1Error::Refused(e.to_string()))?;
        if game.result().is_some() || legal.is_empty() {
            return Err(Hub1Error::Over(game.describe_result()));
        }
        let s = self.searcher.take().expect("init makes the searcher");
        let limits = self.limits(game.moves().len() as u32);
        let (info_out, info_rules) = (out.clone(), rules.clone());
        let out = out.clone();
        let info = move |i: &crate::search::Info| {
            let pv: Vec<String> = i.pv.iter().map(|m| move_to_hub(&info_rules, m)).collect();
            let secs = i.elapsed.as_secs_f64();
            let mnps = i.nodes as f64 / secs.max(1e-6) / 1e6;
            let line = format!(
                "info {} {}.0 {} {} {secs:.2} {mnps:.1} {}",
                i.depth,
                i.depth,
                i.score,
                i.nodes,
                pv.join(" ")
            );
            say(&info_out, line.trim_end());
        };
        let done = move |outcome: Outcome| match outcome {
            Err(why) => say(&out, &format!("error {why}")),
            Ok((best, ponder)) => {
                let mut answer = "move".to_string();
                if let Some(m) = best.or_else(|| legal.first().copied()) {
                    answer = format!("move {}", move_to_hub(&rules, &m));
                    if let Some(p) = ponder {
                        answer = format!("{answer} {}", move_to_hub(&rules, &p));
                    }
                }
                say(&out, &answer);
            }
        };
        self.search = Some(setup::think(s, game, limits, info, done));
        Ok(())
    }

    /// Wait for the running search, if any, asking it to end now.
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.searcher = setup::join(h, true);
            if self.searcher.is_none() {
                self.rules = None;
            }
        }
    }

    /// One command (any search over first); `Ok(false)` for `quit`.
    fn command(&mut self, out: &Out, words: &[&str]) -> Result<bool, Hub1Error> {
        let arg = |i: usize| words.get(i).copied();
        match words[0] {
            "hub" => {
                say(out, &format!("name damelab {}", env!("CARGO_PKG_VERSION")));
                say(out, "author damelab");
                say(out, "wait");
            }
            "set" => {
                let name = arg(1).ok_or(Hub1Error::Missing("set", "a name and a value"))?;
                self.set(name, arg(2).unwrap_or_default())?;
            }
            "init" => {
                self.init()?;
                say(out, "ready");
            }
            "start" => self.position(None)?,
            "pos" => self.position(Some(arg(1).ok_or(Hub1Error::Missing("pos", "a position"))?))?,
            "move" => self.play(arg(1))?,
            "time" => self.level = Level::MoveTime(millis(arg(1))?),
            "depth" => {
                let d: u32 = number(arg(1), "a depth")?;
                if d == 0 || d > MAX_DEPTH {
                    return Err(Hub1Error::BadValue(d.to_string(), "a depth from 1 to 64"));
                }
                self.depth = Some(d);
            }
            "level" => {
                self.level = Level::Clock {
                    moves: number(arg(1), "a number of moves")?,
                    time: millis(arg(2))?,
                    inc: millis(arg(3).or(Some("0")))?,
                }
            }
            "go" | "analyse" | "ponder" => self.go(out)?,
            "new" => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            "quit" => return Ok(false),
            // Unknown commands are ignored.
            _ => {}
        }
        Ok(true)
    }
}

/// Run the first protocol until `quit` or the end of the input.
pub fn run(
    variant: &str,
    no_tables: bool,
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
) -> Result<(), Report> {
    let out: Out = Arc::new(Mutex::new(output));
    let rx = super::protocol::read_lines(input);
    let mut s = Server {
        settings: Settings::new(variant, no_tables),
        rules: None,
        searcher: None,
        game: None,
        level: DEFAULT_LEVEL,
        depth: None,
        search: None,
    };
    for text in rx.iter() {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first().copied() {
            None => continue,
            Some("ping") => {
                say(&out, "pong");
                continue;
            }
            Some("ponder-hit") => continue,
            Some(_) => {}
        }
        s.finish_search();
        match s.command(&out, &words) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => say(&out, &format!("error {e}")),
        }
    }
    s.finish_search();
    Ok(())
}
