//! What both Hub protocols share ([`super::engine`], the second; [`super::hub1`], the first): the
//! engine's settings set by name before `init` (variant, hash, eval, tables, the search options)
//! and the searcher they make, the limits of a game clock, and the search on its own thread. Each
//! protocol keeps its own words and error lines; the settings' errors say what is wrong, and each
//! protocol words them its way.

use crate::engine::{Move, TooManyRoutes};
use crate::search::clock::move_limits;
use crate::search::options::{OptionError, Options};
use crate::search::tables::EndgameTables;
use crate::search::{Info, Limits, Searcher};
use crate::{Game, Rules, Variant};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The transposition table's size when the `hash` setting is not given, in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;

/// The settings a GUI gives by name before `init`.
pub(super) struct Settings {
    pub variant: String,
    pub hash: usize,
    /// `derived`, `bundled` or a weights file; empty: the bundled weights of the rules if any.
    pub eval: String,
    /// A directory, `none`, or empty for the cache's tables when it has some.
    pub tables: String,
    /// Search options by name, in the order set (the last value of a name kept).
    pub options: Vec<(String, String)>,
}

/// A setting refused.
#[derive(Debug)]
pub(super) enum SettingError {
    /// A hash size outside 1 to 65536 MiB.
    Hash(String),
    /// A search option's value refused.
    Option(OptionError),
    /// No setting of that name.
    Unknown(String),
}

/// The settings cannot make a searcher.
#[derive(Debug)]
pub(super) enum LoadError {
    Variant {
        name: String,
        why: crate::variant::LoadError,
    },
    /// The evaluation (`eval`) or the endgame tables (`tables`) that cannot be opened.
    Open(miette::Report),
    Option(OptionError),
}

impl Settings {
    pub fn new(variant: &str, no_tables: bool) -> Self {
        Settings {
            variant: variant.to_string(),
            hash: DEFAULT_HASH_MIB,
            eval: String::new(),
            tables: if no_tables { "none" } else { "" }.to_string(),
            options: Vec::new(),
        }
    }

    /// The settings' names: variant, hash, eval, tables, then the search options.
    pub fn names() -> Vec<&'static str> {
        let mut known = vec!["variant", "hash", "eval", "tables"];
        known.extend(Options::NAMES.iter().map(|(o, _)| *o));
        known
    }

    /// The value set for a search option (empty when not set).
    pub fn option(&self, name: &str) -> String {
        self.options
            .iter()
            .find(|(o, _)| o == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        match name {
            "variant" => self.variant = value.to_string(),
            "hash" => {
                self.hash = value
                    .parse()
                    .ok()
                    .filter(|h| (1..=65_536).contains(h))
                    .ok_or_else(|| SettingError::Hash(value.to_string()))?
            }
            "eval" => self.eval = value.to_string(),
            "tables" => self.tables = value.to_string(),
            n if Options::NAMES.iter().any(|(o, _)| *o == n) => {
                Options::default()
                    .set(n, value)
                    .map_err(SettingError::Option)?;
                self.options.retain(|(o, _)| o != n);
                self.options.push((n.to_string(), value.to_string()));
            }
            n => return Err(SettingError::Unknown(n.to_string())),
        }
        Ok(())
    }

    /// Load the variant and make a searcher: the weights' tuned search settings, the options set
    /// over them, the endgame tables.
    pub fn load(&self) -> Result<(Arc<Rules>, Searcher), LoadError> {
        let v = Variant::load(&self.variant).map_err(|why| LoadError::Variant {
            name: self.variant.clone(),
            why,
        })?;
        let mut s = Searcher::new(v.rules.clone(), self.hash);
        let eval = (!self.eval.is_empty()).then_some(self.eval.as_str());
        let w = crate::search::weights::resolve(eval, &v.rules).map_err(LoadError::Open)?;
        let mut opts = crate::search::weights::options(w.as_deref());
        for (n, val) in &self.options {
            opts.set(n, val).map_err(LoadError::Option)?;
        }
        s.set_options(opts);
        s.set_weights(w);
        let t = match self.tables.as_str() {
            "none" => None,
            "" => EndgameTables::in_cache(&v.rules).map_err(LoadError::Open)?,
            dir => Some(
                EndgameTables::open(&v.rules, std::path::Path::new(dir))
                    .map_err(LoadError::Open)?,
            ),
        };
        s.set_probe(t.map(|t| Arc::new(t).probe()));
        Ok((v.rules, s))
    }
}

/// The limits of a move on a game clock: `time` left, `inc` a move, `moves` to the next time
/// control (0 or none: the rest of the game), at ply `ply`.
pub(super) fn clock_limits(time: Duration, inc: Duration, moves: Option<u32>, ply: u32) -> Limits {
    let mut l = move_limits(time, inc, ply);
    if let Some(m) = moves.filter(|&m| m > 0) {
        // Moves left to the next time control: at most an equal share of the time.
        let most = (time / m).max(Duration::from_millis(1));
        l.target = l.target.map(|g| g.min(most));
        l.time = l.time.map(|t| t.min(most * 2));
    }
    l
}

/// What a search on its thread found: the best move (none when it found none) and the move it
/// expects in reply; or, when the position (or one a few plies down) has more capture routes than
/// the engine examines, why it has no move to stand by.
pub(super) type Outcome = Result<(Option<Move>, Option<Move>), TooManyRoutes>;

/// Search the game's position on a thread of its own: `info` hears each finished iteration,
/// `done` the outcome; the thread hands the searcher back when it ends.
pub(super) fn think(
    mut s: Searcher,
    game: Game,
    limits: Limits,
    mut info: impl FnMut(&Info) + Send + 'static,
    done: impl FnOnce(Outcome) + Send + 'static,
) -> JoinHandle<Searcher> {
    crate::interrupt::reset();
    std::thread::spawn(move || {
        let history = s.history_of(game.start(), game.moves());
        let r = s.search(game.position(), &history, limits, &mut |i| info(i));
        if s.too_many_routes() {
            done(Err(TooManyRoutes {
                budget: crate::engine::ROUTE_BUDGET,
            }));
        } else {
            done(Ok((r.best, r.pv.get(1).copied())));
        }
        s
    })
}

/// Wait for a search's thread (asking it to end now when `stop`): its searcher, or `None` when
/// the thread failed (the settings must then make a new one).
pub(super) fn join(search: JoinHandle<Searcher>, stop: bool) -> Option<Searcher> {
    if stop {
        crate::interrupt::request();
    }
    let s = search.join().ok();
    crate::interrupt::reset();
    s
}
