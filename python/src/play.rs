//! The engine and the long runs: `analyse` (a search), `selfplay` and `endgame` (the figures the
//! command line writes as JSON), each without the interpreter lock; and `probe` (a value read
//! from the endgame tables).

use crate::errors::{plain, raise, report, DamelabError};
use crate::position::{Move, Position};
use crate::variant::Variant;
use damelab::limits::{MAX_RUN_THREADS, MAX_SELFPLAY_GAMES};
use damelab::search::{format_score, Searcher, MAX_DEPTH};
use damelab::selfplay::{Aids, RunFile, Settings};
use pyo3::prelude::*;

/// What a search found: the score for the side to move, the principal variation.
#[pyclass(frozen, module = "damelab", get_all)]
pub struct Analysis {
    /// The best move (`None` when there is no legal move).
    pub best: Option<Py<Move>>,
    /// The score in hundredths of the first kind of piece, for the side to move; wins and
    /// losses are beyond ±28000 (`score_text` says `win in N`).
    pub score: i32,
    /// The score as `damelab analyse` prints it: `+0.25`, `win in 7`.
    pub score_text: String,
    /// The deepest finished iteration.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Py<Move>>,
    /// Stopped by the time or node limit before the depth limit.
    pub stopped: bool,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self, py: Python<'_>) -> String {
        let pv: Vec<String> = self.pv.iter().map(|m| m.get().to_string_py(py)).collect();
        format!(
            "<Analysis depth {} score {} pv {}>",
            self.depth,
            self.score_text,
            pv.join(" ")
        )
    }
}

impl Move {
    fn to_string_py(&self, _py: Python<'_>) -> String {
        damelab::notation::move_to_string(&self.rules, &self.mv)
    }
}

/// Search `position` (its history counts for repetition) within `time` seconds, `depth` plies
/// or `nodes` nodes (any limit reached ends it; depth 10 when none is given), with a table of
/// `hash` MiB and the evaluation `eval` (`derived`, `bundled` or a weights file; default: the
/// bundled weights when there are any), as `damelab analyse` does.
/// The limits of one search from `analyse`'s and `analyse_many`'s arguments, checked: a depth
/// or time as the command line reads them, at least one node, a table of 1 to 65536 MiB.
fn search_limits(
    depth: Option<u32>,
    time: Option<f64>,
    nodes: Option<u64>,
    hash: usize,
) -> PyResult<damelab::search::Limits> {
    let default_depth = if nodes.is_some() { MAX_DEPTH } else { 10 };
    let mut limits = damelab::search::info::limits(depth, time, default_depth)
        .map_err(|e| raise::<DamelabError>(&e))?;
    if nodes == Some(0) {
        return Err(plain::<DamelabError>(
            "nodes=0 is out of range: give at least 1",
        ));
    }
    limits.nodes = nodes;
    if hash == 0 || hash > 65_536 {
        return Err(plain::<DamelabError>(format!(
            "hash={hash} is out of range: give a table size from 1 to 65536 MiB"
        )));
    }
    Ok(limits)
}

#[pyfunction]
#[pyo3(signature = (position, time = None, depth = None, nodes = None, hash = 64, eval = None))]
pub fn analyse(
    py: Python<'_>,
    position: PyRef<'_, Position>,
    time: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    hash: usize,
    eval: Option<&str>,
) -> PyResult<Analysis> {
    let rules = position.rules().clone();
    let pos = *position.game.position();
    let start = *position.game.start();
    let moves = position.game.moves().to_vec();
    let limits = search_limits(depth, time, nodes, hash)?;
    damelab::fsio::check_memory(
        &format!("hash={hash}"),
        (hash as u64) << 20,
        "give a smaller table with `hash` (in MiB)",
    )
    .map_err(|e| raise::<DamelabError>(&e))?;
    let weights = damelab::search::weights::resolve(eval, &rules).map_err(report)?;
    let options = damelab::search::weights::options(weights.as_deref());
    let search_rules = rules.clone();
    let (r, too_many) = py.detach(move || {
        let mut s = Searcher::new(search_rules, hash);
        s.set_options(options);
        s.set_weights(weights);
        let history = s.history_of(&start, &moves);
        let r = s.search(&pos, &history, limits, &mut |_| {});
        (r, s.too_many_routes())
    });
    if too_many {
        return Err(raise::<DamelabError>(&damelab::engine::TooManyRoutes {
            budget: damelab::engine::ROUTE_BUDGET,
        }));
    }
    analysis(py, &rules, r)
}

/// [`analyse`] of many positions at once, spread over `threads` threads (default: every core),
/// each with its own table of `hash` MiB, without the interpreter lock: the analyses in the
/// positions' order. For labelling positions in bulk.
#[pyfunction]
#[pyo3(signature = (positions, time = None, depth = None, nodes = None, hash = 16, eval = None,
                    threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_many(
    py: Python<'_>,
    positions: Vec<PyRef<'_, Position>>,
    time: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    hash: usize,
    eval: Option<&str>,
    threads: Option<usize>,
) -> PyResult<Vec<Analysis>> {
    let Some(first) = positions.first() else {
        return Ok(Vec::new());
    };
    let rules = first.rules().clone();
    if positions
        .iter()
        .any(|p| p.rules().fingerprint_hash() != rules.fingerprint_hash())
    {
        return Err(plain::<DamelabError>(
            "analyse_many takes positions of one variant",
        ));
    }
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, MAX_RUN_THREADS)
        .min(positions.len());
    let limits = search_limits(depth, time, nodes, hash)?;
    damelab::fsio::check_memory(
        &format!("hash={hash} on {threads} threads"),
        ((hash as u64) << 20).saturating_mul(threads as u64),
        "give a smaller table with `hash` (in MiB) or fewer threads",
    )
    .map_err(|e| raise::<DamelabError>(&e))?;
    let weights = damelab::search::weights::resolve(eval, &rules).map_err(report)?;
    let options = damelab::search::weights::options(weights.as_deref());
    let games: Vec<(damelab::Position, damelab::Position, Vec<damelab::Move>)> = positions
        .iter()
        .map(|p| (*p.game.start(), *p.game.position(), p.game.moves().to_vec()))
        .collect();
    let search_rules = rules.clone();
    let results = py.detach(move || {
        let chunk = games.len().div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = games
                .chunks(chunk)
                .map(|part| {
                    let (rules, weights, options) =
                        (search_rules.clone(), weights.clone(), options.clone());
                    s.spawn(move || {
                        let mut s = Searcher::new(rules, hash);
                        s.set_options(options);
                        s.set_weights(weights);
                        part.iter()
                            .map(|(start, pos, moves)| {
                                s.clear();
                                let history = s.history_of(start, moves);
                                let r = s.search(pos, &history, limits, &mut |_| {});
                                (r, s.too_many_routes())
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect::<Vec<_>>()
        })
    });
    if results.len() != positions.len() {
        return Err(plain::<DamelabError>("a search thread stopped (a panic)"));
    }
    results
        .into_iter()
        .map(|(r, too_many)| {
            if too_many {
                return Err(raise::<DamelabError>(&damelab::engine::TooManyRoutes {
                    budget: damelab::engine::ROUTE_BUDGET,
                }));
            }
            analysis(py, &rules, r)
        })
        .collect()
}

fn analysis(
    py: Python<'_>,
    rules: &std::sync::Arc<damelab::Rules>,
    r: damelab::search::SearchResult,
) -> PyResult<Analysis> {
    let wrap = |mv: damelab::Move| {
        Py::new(
            py,
            Move {
                mv,
                rules: rules.clone(),
            },
        )
    };
    Ok(Analysis {
        best: r.best.map(wrap).transpose()?,
        score: r.score,
        score_text: format_score(r.score),
        depth: r.depth,
        nodes: r.nodes,
        pv: r.pv.into_iter().map(wrap).collect::<PyResult<_>>()?,
        stopped: r.stopped,
    })
}

fn json_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Self-play, as `damelab selfplay VARIANT --json FILE` plays it: `games` games, both sides at
/// `depth` plies (4 unless `nodes` or `random`), `nodes` per move, or uniformly random moves,
/// on `threads` threads (default: every core; the figures do not depend on it). Returns the
/// figures of the JSON file the command writes (settings, report, one record per game).
#[pyfunction]
#[pyo3(signature = (variant, games, depth = None, nodes = None, random = false, seed = 1,
                    max_plies = 400, opening_plies = 4, threads = None, eval = None))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay<'py>(
    py: Python<'py>,
    variant: PyRef<'py, Variant>,
    games: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    random: bool,
    seed: u64,
    max_plies: u32,
    opening_plies: u32,
    threads: Option<usize>,
    eval: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let bad = |m: String| plain::<DamelabError>(m);
    if games == 0 || games > MAX_SELFPLAY_GAMES {
        return Err(bad(format!(
            "games={games} is out of range: give from 1 to {MAX_SELFPLAY_GAMES}"
        )));
    }
    if let Some(d) = depth.filter(|&d| d == 0 || d > MAX_DEPTH) {
        return Err(bad(format!(
            "depth={d} is out of range: give from 1 to {MAX_DEPTH}"
        )));
    }
    if nodes == Some(0) {
        return Err(bad("nodes=0 is out of range: give at least 1".into()));
    }
    let given = [depth.is_some(), nodes.is_some(), random];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(bad("give one of depth, nodes and random".into()));
    }
    let threads = match threads {
        Some(t) if t == 0 || t > MAX_RUN_THREADS => {
            return Err(bad(format!(
                "threads={t} is out of range: give from 1 to {MAX_RUN_THREADS}"
            )))
        }
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if max_plies == 0 {
        return Err(bad("max_plies=0 is out of range: give at least 1".into()));
    }
    let v = &variant.inner;
    let weights = if random {
        None
    } else {
        damelab::search::weights::resolve(eval, &v.rules).map_err(report)?
    };
    damelab::selfplay::file::check_play_memory(games, None, threads, random, true)
        .map_err(report)?;
    let settings = Settings {
        variant: v.name().to_string(),
        rules_fingerprint: v.rules.fingerprint(),
        games,
        depth: if random || nodes.is_some() {
            depth
        } else {
            Some(depth.unwrap_or(4))
        },
        nodes,
        random,
        seed,
        max_plies,
        opening_plies,
        eval: weights
            .as_deref()
            .map(|w| damelab::search::weights::describe(Some(w))),
        tables: None,
        contempt: 0,
        openings: None,
    };
    let rules = v.rules.clone();
    let indices = damelab::selfplay::shard_indices(games, None);
    let aids = Aids {
        probe: None,
        weights,
    };
    let run_settings = settings.clone();
    let played = py
        .detach(move || {
            damelab::selfplay::run_games(
                &rules,
                &run_settings,
                &indices,
                threads,
                false,
                aids,
                &|| {},
            )
        })
        .map_err(|e| bad(e.to_string()))?
        .ok_or_else(|| bad("interrupted: no figures".into()))?;
    let file = RunFile::new(
        &v.rules,
        settings,
        damelab::runs::shard::ShardSet::whole(),
        played.games,
    );
    let text = serde_json::to_string(&file)
        .map_err(|e| bad(format!("cannot write the figures as JSON: {e}")))?;
    json_value(py, &text)
}

/// Endgame tables of `material` (`"KK v K"`, in the variant's letters), built or loaded from
/// the cache (`cache`: a directory, default the command line's; `no_cache`: neither read nor
/// write), as `damelab endgame VARIANT MATERIAL --json` reports them.
#[pyfunction]
#[pyo3(signature = (variant, material, cache = None, no_cache = false, max_memory = None))]
pub fn endgame<'py>(
    py: Python<'py>,
    variant: PyRef<'py, Variant>,
    material: &str,
    cache: Option<std::path::PathBuf>,
    no_cache: bool,
    max_memory: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    use damelab::endgame::{self as eg, report as egr};
    let max_memory = match &max_memory {
        Some(s) => eg::parse_memory(s).map_err(|e| report(miette::Report::new(e)))?,
        None => eg::DEFAULT_MAX_MEMORY,
    };
    let opts = eg::Options {
        cache: if no_cache {
            None
        } else {
            cache.or_else(eg::store::default_dir)
        },
        max_memory,
        progress: false,
        watch: None,
    };
    let v = variant.inner.clone();
    let material = material.to_string();
    let text = py
        .detach(move || egr::build(&v.rules, &material, &opts).and_then(|b| egr::json(&b)))
        .map_err(|e| report(miette::Report::new(e)))?;
    json_value(py, &text)
}

/// The endgame tables' value of `position` for the side to move (`"win in 21"`, `"loss in 2"`,
/// `"draw"`), read from the tables in `cache` (a directory; default: the cache `damelab endgame`
/// and `endgame` write to), as the REPL's `probe` reads it; `None` when no table there holds the
/// position's material. Nothing is built here: `endgame` builds the tables.
#[pyfunction]
#[pyo3(signature = (position, cache = None))]
pub fn probe(
    position: PyRef<'_, Position>,
    cache: Option<std::path::PathBuf>,
) -> PyResult<Option<String>> {
    use damelab::search::tables::EndgameTables;
    let rules = position.rules();
    let tables = match cache {
        Some(dir) => Some(EndgameTables::open(rules, &dir).map_err(report)?),
        None => EndgameTables::in_cache(rules).map_err(report)?,
    };
    Ok(tables
        .and_then(|t| t.value(position.game.position()))
        .map(|v| v.describe()))
}
