//! The engine in the workbench: `go`, `hint` and `engine SIDE|off` (the computer answers moves),
//! with the variant's endgame tables from the cache directory when there are any.

use crate::notation::move_to_string;
use crate::search::info::{info_line, limits};
use crate::search::tables::EndgameTables;
use crate::search::{format_score, Limits, Searcher};
use crate::Game;
use miette::{miette, Report};
use std::time::Duration;

/// Default limits of `go`, `hint` and the answering engine.
pub const DEFAULT_DEPTH: u32 = 8;
pub const DEFAULT_SECONDS: f64 = 5.0;
const TT_MIB: usize = 32;

/// The engine's state in a session: which side it plays and its searcher (kept between moves).
#[derive(Default)]
pub struct EngineState {
    /// The side the computer plays, if any.
    pub side: Option<usize>,
    /// Whether Ctrl-C stopped the last search: its best move is then not played.
    pub interrupted: bool,
    searcher: Option<Searcher>,
    /// The evaluation `set eval` chose (`derived`, `bundled` or a weights file); `None`: the
    /// bundled weights of the rules when there are any.
    pub eval: Option<String>,
}

/// `go [depth N | time S]` and `hint [depth N | time S]`.
pub fn parse_limits(arg: &str, cmd: &str) -> Result<Limits, Report> {
    let words: Vec<&str> = arg.split_whitespace().collect();
    let help = format!("e.g. `{cmd}`, `{cmd} depth 6` or `{cmd} time 2.5`");
    match words.as_slice() {
        [] => Ok(Limits {
            depth: Some(DEFAULT_DEPTH),
            nodes: None,
            time: Some(Duration::from_secs_f64(DEFAULT_SECONDS)),
            target: None,
        }),
        ["depth", n] => {
            let d: u32 = n
                .parse()
                .map_err(|_| miette!(help = help.clone(), "`{n}` is not a depth"))?;
            Ok(limits(Some(d), None, DEFAULT_DEPTH)?)
        }
        ["time", s] => {
            let t: f64 = s
                .parse()
                .map_err(|_| miette!(help = help.clone(), "`{s}` is not a number of seconds"))?;
            Ok(limits(None, Some(t), DEFAULT_DEPTH)?)
        }
        _ => Err(miette!(help = help, "`{arg}` is not a search limit")),
    }
}

impl EngineState {
    /// Look for endgame tables in the cache again before the next search (new ones may be there).
    pub fn reload_tables(&mut self) {
        self.searcher = None;
    }

    /// Evaluate with `eval` from the next search on (checked against `rules` now); returns what
    /// the engine will use.
    pub fn set_eval(&mut self, eval: &str, rules: &crate::Rules) -> Result<String, Report> {
        let arg = (eval != "default").then_some(eval);
        let w = crate::search::weights::resolve(arg, rules)?;
        self.eval = arg.map(str::to_string);
        self.searcher = None;
        Ok(crate::search::weights::describe(w.as_deref()))
    }

    /// Search the game's position; each finished depth goes to `line` as it comes. Returns the
    /// best move's text and the final line.
    pub fn think(
        &mut self,
        game: &Game,
        limits: Limits,
        line: &mut dyn FnMut(String),
    ) -> Result<Option<crate::Move>, Report> {
        self.interrupted = false;
        if game.result().is_some() {
            return Err(miette!(
                help = "`undo` a move or start a `new` game",
                "the game is over: {}",
                game.describe_result()
            ));
        }
        let rules = game.rules.clone();
        let s = match &mut self.searcher {
            Some(s) if std::sync::Arc::ptr_eq(&s.rules, &rules) => s,
            slot => {
                let mut s = Searcher::new(rules.clone(), TT_MIB);
                s.set_tuned_weights(crate::search::weights::resolve(
                    self.eval.as_deref(),
                    &rules,
                )?);
                // The endgame tables `probe` and `damelab endgame` left in the cache, if any.
                if let Some(t) = EndgameTables::from_cache(&rules) {
                    line(format!(
                        "endgame tables: {} materials in {}",
                        t.len(),
                        t.dir().display()
                    ));
                    s.set_probe(Some(std::sync::Arc::new(t).probe()));
                }
                slot.insert(s)
            }
        };
        let history = s.history_of(game.start(), game.moves());
        crate::interrupt::install();
        crate::interrupt::reset();
        let r = s.search(game.position(), &history, limits, &mut |i| {
            line(info_line(&rules, i))
        });
        let stopped = crate::interrupt::requested();
        self.interrupted = stopped;
        crate::interrupt::reset();
        if s.too_many_routes() {
            return Err(Report::new(crate::engine::TooManyRoutes {
                budget: crate::engine::ROUTE_BUDGET,
            }));
        }
        if let Some(m) = &r.best {
            line(format!(
                "best {}  score {}{}",
                move_to_string(&rules, m),
                format_score(r.score),
                if stopped { "  (interrupted)" } else { "" }
            ));
        }
        Ok(r.best)
    }
}
