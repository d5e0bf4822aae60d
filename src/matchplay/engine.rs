//! The players of a match: an engine's settings as given on the command line (`name=… nodes=…
//! option.NAME=VALUE …`), and the [`Player`] behind them — damelab's own search in this process, or
//! an external engine speaking Hub ([`super::external`]).

use crate::engine::Move;
use crate::search::clock::move_limits;
use crate::search::{Limits, Score, Searcher, MAX_DEPTH};
use crate::{Game, Rules};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The longest time per move or clock accepted, in seconds.
use crate::limits::MAX_SEARCH_SECONDS as MAX_SECONDS;

/// The largest transposition table an engine may ask for, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;
/// The table of an engine that names no `hash=`.
pub const DEFAULT_HASH_MIB: usize = 16;

/// One engine of a match, as its settings were given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSpec {
    pub name: String,
    /// An external Hub engine's command line; damelab's own search when absent.
    pub cmd: Option<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Seconds per move.
    pub movetime: Option<f64>,
    /// A game clock: seconds at the start and seconds added after each move.
    pub tc: Option<(f64, f64)>,
    pub hash: usize,
    pub eval: Option<PathBuf>,
    /// `option.NAME=VALUE`: search options (damelab) or parameters (`set-param`, Hub engines).
    pub options: Vec<(String, String)>,
    /// Seconds an external engine may go beyond its budget before it loses on time.
    pub margin: f64,
}

/// The keys an engine's settings accept, for the diagnostics.
pub const KEYS: &str = "name, cmd, depth, nodes, movetime, tc, hash, eval, margin, option.NAME";

/// An engine's settings that are not one engine: the setting and what is accepted.
#[derive(Debug, Clone, PartialEq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(damelab::engine), help("settings are `key=value` ({KEYS})"))]
pub enum EngineSpecError {
    #[error(transparent)]
    Quote(#[from] crate::hub::protocol::UnbalancedQuote),
    #[error("`{key}={value}` is not {what}")]
    NotA {
        key: String,
        value: String,
        what: &'static str,
    },
    #[error("`{key}={value}` is out of range: give seconds above 0 and at most {MAX_SECONDS}")]
    Seconds { key: String, value: String },
    #[error("engine `{0}` has both `movetime=` and `tc=`: give a time per move or a game clock")]
    TimeTwice(String),
    #[error("engine `{0}` has no limit: give `depth=`, `nodes=`, `movetime=` or `tc=`")]
    NoLimit(String),
    #[error("engine `{0}` is a Hub engine with `nodes=`: the Hub protocol has no node limit")]
    HubNodes(String),
    #[error(
        "engine `{0}` is a Hub engine with `eval=`: give its evaluation file in its command line"
    )]
    HubEval(String),
    #[error("`{0}` has no value: engine settings are `key=value` ({KEYS})")]
    NoValue(String),
    #[error("`cmd=` is empty: give the engine's command line")]
    EmptyCmd,
    #[error("`depth={0}` is out of range: give a depth from 1 to {MAX_DEPTH}")]
    Depth(String),
    #[error("`nodes=0` is out of range: give at least 1 node")]
    NoNodes,
    #[error("`tc={0}`: the increment is out of range (0 to {MAX_SECONDS} s)")]
    Increment(String),
    #[error("`hash={0}` is out of range: give 1 to {MAX_HASH_MIB} MiB")]
    Hash(String),
    #[error("`margin={0}` is out of range (0 to {MAX_SECONDS} s)")]
    Margin(String),
    #[error("unknown engine setting `{0}`: the settings are {KEYS}")]
    Unknown(String),
}

/// damelab's own engine that cannot be made from its settings: its evaluation or an option.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(damelab::engine))]
pub enum InternalError {
    #[error("engine `{name}`: {why}")]
    Eval { name: String, why: miette::Report },
    #[error("engine `{name}`: {why}")]
    Option {
        name: String,
        why: crate::search::options::OptionError,
    },
}

fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    what: &'static str,
) -> Result<T, EngineSpecError> {
    value.trim().parse().map_err(|_| EngineSpecError::NotA {
        key: key.to_string(),
        value: value.to_string(),
        what,
    })
}

fn seconds(key: &str, value: &str) -> Result<f64, EngineSpecError> {
    let s: f64 = number(key, value, "a number of seconds")?;
    if !(s > 0.0 && s <= MAX_SECONDS) {
        return Err(EngineSpecError::Seconds {
            key: key.to_string(),
            value: value.to_string(),
        });
    }
    Ok(s)
}

impl EngineSpec {
    fn empty() -> EngineSpec {
        EngineSpec {
            name: String::new(),
            cmd: None,
            depth: None,
            nodes: None,
            movetime: None,
            tc: None,
            hash: DEFAULT_HASH_MIB,
            eval: None,
            options: Vec::new(),
            margin: 1.0,
        }
    }

    /// An engine from its settings `key=value …` on top of `each` (settings every engine shares,
    /// given first). Values with blanks are quoted: `cmd="damelab hub dameo"`.
    pub fn parse(each: &[String], text: &str) -> Result<EngineSpec, EngineSpecError> {
        let mut spec = EngineSpec::empty();
        for t in each.iter().map(String::as_str).chain([text]) {
            spec.apply(t)?;
        }
        let given = [
            spec.depth.is_some(),
            spec.nodes.is_some(),
            spec.movetime.is_some(),
        ];
        if spec.tc.is_some() && spec.movetime.is_some() {
            return Err(EngineSpecError::TimeTwice(spec.label(text)));
        }
        if spec.tc.is_none() && !given.iter().any(|&g| g) {
            return Err(EngineSpecError::NoLimit(spec.label(text)));
        }
        if spec.cmd.is_some() && spec.nodes.is_some() {
            return Err(EngineSpecError::HubNodes(spec.label(text)));
        }
        if spec.cmd.is_some() && spec.eval.is_some() {
            return Err(EngineSpecError::HubEval(spec.label(text)));
        }
        Ok(spec)
    }

    fn label(&self, text: &str) -> String {
        if self.name.is_empty() {
            text.to_string()
        } else {
            self.name.clone()
        }
    }

    fn apply(&mut self, text: &str) -> Result<(), EngineSpecError> {
        let line = super::super::hub::protocol::Line::parse(&format!("engine {text}"))?
            .unwrap_or_else(|| super::super::hub::protocol::Line::new("engine"));
        for (key, value) in &line.args {
            let Some(value) = value else {
                return Err(EngineSpecError::NoValue(key.clone()));
            };
            match key.as_str() {
                "name" => self.name = value.clone(),
                "cmd" => {
                    if value.trim().is_empty() {
                        return Err(EngineSpecError::EmptyCmd);
                    }
                    self.cmd = Some(value.clone())
                }
                "depth" => {
                    let d: u32 = number(key, value, "a depth")?;
                    if d == 0 || d > MAX_DEPTH {
                        return Err(EngineSpecError::Depth(value.clone()));
                    }
                    self.depth = Some(d);
                }
                "nodes" => {
                    let n: u64 = number(key, value, "a number of nodes")?;
                    if n == 0 {
                        return Err(EngineSpecError::NoNodes);
                    }
                    self.nodes = Some(n);
                }
                "movetime" => self.movetime = Some(seconds(key, value)?),
                "tc" => {
                    let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
                    let base = seconds(key, base)?;
                    let inc: f64 = number(key, inc, "a number of seconds")?;
                    if !(0.0..=MAX_SECONDS).contains(&inc) {
                        return Err(EngineSpecError::Increment(value.clone()));
                    }
                    self.tc = Some((base, inc));
                }
                "hash" => {
                    let h: usize = number(key, value, "a table size in MiB")?;
                    if h == 0 || h > MAX_HASH_MIB {
                        return Err(EngineSpecError::Hash(value.clone()));
                    }
                    self.hash = h;
                }
                "eval" => self.eval = Some(PathBuf::from(value)),
                "margin" => {
                    let m: f64 = number(key, value, "a number of seconds")?;
                    if !(0.0..=MAX_SECONDS).contains(&m) {
                        return Err(EngineSpecError::Margin(value.clone()));
                    }
                    self.margin = m;
                }
                k => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        self.options.retain(|(n, _)| n != name);
                        self.options.push((name.to_string(), value.clone()));
                    }
                    _ => return Err(EngineSpecError::Unknown(k.to_string())),
                },
            }
        }
        Ok(())
    }

    /// The settings as one line (for the JSON and the PDN).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = &self.cmd {
            parts.push(format!("cmd=\"{c}\""));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime={t}"));
        }
        if let Some((b, i)) = self.tc {
            parts.push(format!("tc={b}+{i}"));
        }
        if self.cmd.is_none() {
            parts.push(format!("hash={}", self.hash));
        }
        if let Some(e) = &self.eval {
            parts.push(format!("eval={}", e.display()));
        }
        for (n, v) in &self.options {
            parts.push(format!("option.{n}={v}"));
        }
        parts.join(" ")
    }

    /// The search limits of damelab's own engine for one move (`clock`: remaining and increment).
    pub fn limits(&self, clock: Option<(Duration, Duration)>, ply: u32) -> Limits {
        let mut l = match clock {
            Some((left, inc)) => move_limits(left, inc, ply),
            None => Limits::default(),
        };
        if let Some(t) = self.movetime {
            l.time = Some(Duration::from_secs_f64(t));
        }
        l.depth = self.depth;
        l.nodes = self.nodes;
        l
    }
}

/// What a player answered for one move.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: Move,
    /// The score for the side that moved, in hundredths of a man, when the engine said one.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Why a player loses a game without it being decided on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process ended (or could not be started).
    Crash(String),
    /// No answer within the budget and its margin.
    Timeout(String),
    /// A move that is not legal in the position.
    Illegal(String),
    /// An answer that is not the protocol.
    Garbage(String),
    /// The engine said it cannot move here and why (a Hub engine's `error` to `go`; damelab's
    /// search past the route budget).
    Refused(String),
    /// The work was stopped (Ctrl-C or the match ended): the game is abandoned, not scored.
    Abandoned,
}

impl Fault {
    /// The reason as the PDN and the JSON record it.
    pub fn reason(&self) -> String {
        match self {
            Fault::Crash(s) => format!("crashed: {s}"),
            Fault::Timeout(s) => format!("time forfeit: {s}"),
            Fault::Illegal(s) => format!("illegal move: {s}"),
            Fault::Garbage(s) => format!("protocol error: {s}"),
            Fault::Refused(s) => format!("refused to move: {s}"),
            Fault::Abandoned => "abandoned".into(),
        }
    }
}

/// One move's question to a player.
pub struct Turn<'a> {
    pub game: &'a Game,
    pub legal: &'a [Move],
    /// With a game clock: the mover's time left and increment.
    pub clock: Option<(Duration, Duration)>,
    /// Set when the game must be abandoned (the match stops).
    pub abort: &'a std::sync::atomic::AtomicBool,
}

/// A player of a match: starts a game, answers moves.
pub trait Player: Send {
    fn new_game(&mut self) -> Result<(), Fault>;
    fn play(&mut self, turn: &Turn) -> Result<Reply, Fault>;
}

/// damelab's own search, in this process.
pub struct Internal {
    spec: EngineSpec,
    searcher: Searcher,
}

impl Internal {
    /// The engine of `spec` for these rules: its options and evaluation file checked now.
    pub fn new(rules: &Arc<Rules>, spec: &EngineSpec) -> Result<Internal, InternalError> {
        let mut searcher = Searcher::new(rules.clone(), spec.hash);
        // `eval=derived`, `eval=bundled` or a file; without it, the bundled weights of these
        // rules when there are any (as every command that runs the engine).
        let eval = spec.eval.as_ref().map(|p| p.to_string_lossy().into_owned());
        let w = crate::search::weights::resolve(eval.as_deref(), rules).map_err(|why| {
            InternalError::Eval {
                name: spec.name.clone(),
                why,
            }
        })?;
        // The weights' tuned search settings, then the engine's own options over them.
        let mut opts = crate::search::weights::options(w.as_deref());
        for (n, v) in &spec.options {
            opts.set(n, v).map_err(|why| InternalError::Option {
                name: spec.name.clone(),
                why,
            })?;
        }
        searcher.set_options(opts);
        searcher.set_weights(w);
        Ok(Internal {
            spec: spec.clone(),
            searcher,
        })
    }
}

impl Internal {
    /// The endgame tables' oracle of the search (`None`: none).
    pub fn set_probe(&mut self, probe: Option<crate::search::Probe>) {
        self.searcher.set_probe(probe);
    }
}

impl Player for Internal {
    fn new_game(&mut self) -> Result<(), Fault> {
        self.searcher.clear();
        Ok(())
    }

    fn play(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let game = turn.game;
        let history = self.searcher.history_of(game.start(), game.moves());
        let limits = self.spec.limits(turn.clock, game.moves().len() as u32);
        let r = self
            .searcher
            .search(game.position(), &history, limits, &mut |_| {});
        if r.stopped && crate::interrupt::requested() {
            return Err(Fault::Abandoned);
        }
        // A search stopped by the route budget has no move worth playing: the game ends with
        // the reason, not with a move picked half-way.
        if self.searcher.too_many_routes() {
            let why = crate::engine::TooManyRoutes {
                budget: crate::engine::ROUTE_BUDGET,
            };
            return Err(Fault::Refused(why.to_string()));
        }
        let mv = r
            .best
            .or_else(|| turn.legal.first().copied())
            .ok_or_else(|| {
                Fault::Garbage("the search found no move in a position with legal moves".into())
            })?;
        Ok(Reply {
            mv,
            score: Some(r.score),
            depth: Some(r.depth),
            nodes: Some(r.nodes),
        })
    }
}
