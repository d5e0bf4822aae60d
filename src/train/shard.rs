//! Training past one machine. A generation's self-play games are seeded by (seed, generation,
//! index), so they split into shards like self-play's (`train --generation G --shard K/N --data
//! FILE` plays the games of shard K and writes their positions), and `train merge` puts every
//! generation's shards back in game order and fits exactly what the single run fits after
//! generation G: the same weights file, bit for bit. Generation G + 1's shards play with those
//! weights (`--from`), so a run of G generations is G array jobs, each followed by a merge.
//!
//! A data file records the build, the run's settings, the generation, the evaluation its games
//! were played with and the shards it holds: a merge refuses files of other runs, builds or
//! evaluations, a shard twice, and names the shards and generations that are missing.

use super::run::{
    bad, bar, command_line, file_stem, fit_step, generation_line, not_folder, threads, ties,
    Generation, RunJson,
};
use super::{duel, played, Data, GameData, TrainSettings};
use crate::runs::shard::{self, ShardSet};
use crate::search::weights::Weights;
use crate::Variant;
use miette::Report;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first field of a data file, and the format version this build reads and writes.
pub const FORMAT: &str = "damelab-train-data";
pub const VERSION: u32 = 1;

/// What `played_with` says of generation 1's games.
pub const DERIVED: &str = "derived";

/// The run a data file belongs to: the variant as given, its rules' fingerprint and the training
/// settings (the pull `l2` as its shortest exact decimal text, so that it reads back bit for bit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataSettings {
    pub variant: String,
    pub rules_fingerprint: String,
    pub seed: u64,
    pub generations: u32,
    pub games: u64,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub epochs: u32,
    pub match_games: u64,
    pub l2: String,
    #[serde(default)]
    pub wide_patterns: bool,
    #[serde(default)]
    pub phases: bool,
    #[serde(default)]
    pub race: bool,
    /// `--result-weight` as its shortest exact decimal text (absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_weight: Option<String>,
    /// `--start`: the file as given and its digest (absent: the derived evaluation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<super::Start>,
    /// `--window` when not 2x2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<crate::search::learned::Window>,
    /// The shapes `--window` names beside the first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_windows: Vec<crate::search::learned::Window>,
    /// `--fit new`: only the weights the start file lacks are fitted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fit_new: bool,
    /// `--fit-pieces-at-most`: the positions with more pieces are left out of the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit_pieces_at_most: Option<u32>,
    /// `--mirror`: each game's rows come in pairs, a position and its mirror image.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mirror: bool,
    /// `--symmetric`: each weight tied to its mirror feature's after the fit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub symmetric: bool,
}

impl DataSettings {
    pub(crate) fn new(variant: &str, fingerprint: String, t: &TrainSettings) -> DataSettings {
        DataSettings {
            variant: variant.to_string(),
            rules_fingerprint: fingerprint,
            seed: t.seed,
            generations: t.generations,
            games: t.games,
            nodes: t.nodes,
            depth: t.depth,
            opening_plies: t.opening_plies,
            max_plies: t.max_plies,
            epochs: t.epochs,
            match_games: t.match_games,
            l2: t.l2.to_string(),
            wide_patterns: t.wide_patterns,
            phases: t.phases,
            race: t.race,
            result_weight: (t.result_weight != 1.0).then(|| t.result_weight.to_string()),
            start: t.start.clone(),
            window: (t.window != crate::search::learned::Window::SMALL).then_some(t.window),
            more_windows: t.more_windows.clone(),
            fit_new: t.fit_new,
            fit_pieces_at_most: t.fit_pieces_at_most,
            mirror: t.mirror,
            symmetric: t.symmetric,
        }
    }

    fn train(&self) -> Result<TrainSettings, DataError> {
        let not_number = |name, value: &str| DataError::NotANumber {
            name,
            value: value.to_string(),
        };
        let l2: f64 = self.l2.parse().map_err(|_| not_number("l2", &self.l2))?;
        if self.fit_new && self.start.as_ref().is_none_or(|s| s.layout.is_empty()) {
            return Err(DataError::FitNewWithoutStart);
        }
        let result_weight = match &self.result_weight {
            None => 1.0,
            Some(x) => x.parse().map_err(|_| not_number("result_weight", x))?,
        };
        Ok(TrainSettings {
            seed: self.seed,
            generations: self.generations,
            games: self.games,
            nodes: self.nodes,
            depth: self.depth,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            epochs: self.epochs,
            match_games: self.match_games,
            l2,
            wide_patterns: self.wide_patterns,
            phases: self.phases,
            race: self.race,
            result_weight,
            start: self.start.clone(),
            window: self.window.unwrap_or_default(),
            more_windows: self.more_windows.clone(),
            fit_new: self.fit_new,
            fit_pieces_at_most: self.fit_pieces_at_most,
            mirror: self.mirror,
            symmetric: self.symmetric,
        })
    }
}

/// One game's positions: each row its features as `index, value` pairs, flat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRows {
    pub i: u64,
    /// 0: the first side won, 1: the second, -1: a draw.
    pub w: i8,
    pub rows: Vec<Vec<i64>>,
    /// The search's score of each row's position for the first side (absent: not recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<i64>,
    /// Quiet positions left out of the fit (`--fit-pieces-at-most`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub left_out: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A shard's data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataFile {
    pub format: String,
    pub version: u32,
    pub damelab: String,
    pub settings: DataSettings,
    /// From 1.
    pub generation: u32,
    /// The evaluation the games were played with: `derived`, or the weights' digest.
    pub played_with: String,
    pub shards: ShardSet,
    /// The shard's games, ascending by index.
    pub games: Vec<GameRows>,
}

pub(crate) fn to_rows(g: &GameData) -> GameRows {
    GameRows {
        i: g.i,
        w: g.w,
        rows: g
            .rows
            .iter()
            .map(|r| r.iter().flat_map(|&(i, v)| [i as i64, v as i64]).collect())
            .collect(),
        scores: g.scores.iter().map(|&s| s as i64).collect(),
        left_out: g.left_out,
    }
}

/// Why a data file cannot be read: unreadable, of another kind, or not a shard's data.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(help("give the data files `train --generation G --data FILE` wrote"))]
pub enum DataFileError {
    #[error("cannot read `{path}`: {why}")]
    Unreadable {
        path: String,
        why: crate::fsio::ReadError,
    },
    #[error(transparent)]
    Head(#[from] crate::runs::shard::HeadError),
    #[error("`{name}` is not a valid training data file: {why}")]
    Invalid {
        name: String,
        why: serde_json::Error,
    },
    #[error("`{name}`: its generation or shards are malformed")]
    Malformed { name: String },
    #[error("`{name}`: game {} is not one of its shards' games, in order", index + 1)]
    OutOfOrder { name: String, index: u64 },
    #[error("`{name}` holds {holds} games, but its shards have {shards}")]
    Count {
        name: String,
        holds: usize,
        shards: u64,
    },
}

/// Why the data of a file read cannot be used in a merge: a setting or a game that is not one
/// a run writes.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(help(
    "give the data files `train --generation G --shard K/N --data FILE` wrote, every shard of \
     every generation from 1 to the one to fit"
))]
pub enum DataError {
    #[error("`{name}` is `{value}`, not a number")]
    NotANumber { name: &'static str, value: String },
    #[error("the settings say `fit_new` (`--fit new`) but name no start weights and layout")]
    FitNewWithoutStart,
    #[error("`{name}`: game {} has result {w}", index + 1)]
    Result { name: String, index: u64, w: i8 },
    #[error("`{name}`: game {} holds a malformed position", index + 1)]
    Position { name: String, index: u64 },
    #[error("`{name}`: game {} has {scores} scores for {positions} positions", index + 1)]
    Scores {
        name: String,
        index: u64,
        scores: usize,
        positions: usize,
    },
}

/// A game read back, its features checked against the layout's `len` weights.
fn from_rows(g: &GameRows, len: usize, name: &str) -> Result<GameData, DataError> {
    let bad = || DataError::Position {
        name: name.to_string(),
        index: g.i,
    };
    if !(-1..=1).contains(&g.w) {
        return Err(DataError::Result {
            name: name.to_string(),
            index: g.i,
            w: g.w,
        });
    }
    let rows = g
        .rows
        .iter()
        .map(|r| {
            if r.len() % 2 != 0 {
                return Err(bad());
            }
            r.chunks(2)
                .map(|p| match (u32::try_from(p[0]), i16::try_from(p[1])) {
                    (Ok(i), Ok(v)) if (i as usize) < len => Ok((i, v)),
                    _ => Err(bad()),
                })
                .collect()
        })
        .collect::<Result<_, _>>()?;
    if !g.scores.is_empty() && g.scores.len() != g.rows.len() {
        return Err(DataError::Scores {
            name: name.to_string(),
            index: g.i,
            scores: g.scores.len(),
            positions: g.rows.len(),
        });
    }
    let scores = g
        .scores
        .iter()
        .map(|&s| i32::try_from(s).map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    Ok(GameData {
        i: g.i,
        rows,
        w: g.w,
        scores,
        left_out: g.left_out,
    })
}

/// A `played_with` digest in words.
fn describe_digest(d: &str) -> String {
    if d == DERIVED {
        "the derived evaluation".into()
    } else {
        format!("weights {d}")
    }
}

pub(crate) fn digest(w: Option<&Weights>) -> String {
    w.map_or_else(|| DERIVED.to_string(), Weights::digest)
}

/// Read a data file, its format and version checked.
pub fn read(path: &Path) -> Result<DataFile, DataFileError> {
    let text = crate::fsio::read_text(path, crate::fsio::Kind::TrainData).map_err(|why| {
        DataFileError::Unreadable {
            path: path.display().to_string(),
            why,
        }
    })?;
    parse(&path.display().to_string(), &text)
}

/// A data file's text (`name` for messages), checked as [`read`] does.
pub fn parse(name: &str, text: &str) -> Result<DataFile, DataFileError> {
    crate::runs::shard::check_head(name, text, FORMAT, VERSION as u64, "a training data file")?;
    let name = name.to_string();
    let f: DataFile = match serde_json::from_str(text) {
        Ok(f) => f,
        Err(why) => return Err(DataFileError::Invalid { name, why }),
    };
    if f.generation == 0 || f.generation > f.settings.generations || !f.shards.is_valid() {
        return Err(DataFileError::Malformed { name });
    }
    let games = f.settings.games;
    let mut last = None;
    for g in &f.games {
        if g.i >= games || !f.shards.holds(g.i) || last.is_some_and(|l| l >= g.i) {
            return Err(DataFileError::OutOfOrder { name, index: g.i });
        }
        last = Some(g.i);
    }
    if f.games.len() as u64 != f.shards.items(games) {
        return Err(DataFileError::Count {
            name,
            holds: f.games.len(),
            shards: f.shards.items(games),
        });
    }
    Ok(f)
}

/// The merged run: its settings, every generation's data (in order) and the last generation's
/// figures from its games.
pub struct Merged {
    pub variant: Variant,
    pub settings: TrainSettings,
    /// The last generation, from 1.
    pub generation: u32,
    pub data: Data,
    /// The last generation's results (first side's wins, draws, second side's wins).
    pub results: [u64; 3],
    /// The evaluation the last generation played with.
    pub played_with: String,
}

/// Put the data files of generations 1 to G together: one run, build and split per generation,
/// every shard once, every generation there.
pub fn merge_files(names: &[String], files: &[DataFile]) -> Result<Merged, Report> {
    let help = "give the data files `train --generation G --shard K/N --data FILE` wrote, every \
                shard of every generation from 1 to the one to fit";
    let Some(first) = files.first() else {
        return Err(bad("no data files to merge", help));
    };
    let v = Variant::load(&first.settings.variant).map_err(Report::new)?;
    if v.rules.fingerprint() != first.settings.rules_fingerprint {
        return Err(bad(
            format!(
                "the rules of `{}` changed since the data was played",
                first.settings.variant
            ),
            "merge with the rules the games were played under",
        ));
    }
    let t = first.settings.train()?;
    let last = files.iter().map(|f| f.generation).max().unwrap_or(1);
    let layout = t.layout(v.rules.as_ref());
    let mut data = Data {
        shift: layout.row_shift(),
        ..Data::default()
    };
    let mut results = [0; 3];
    let mut played_with = String::new();
    // One run and one build: every file against the first (the runs' kernel's refusals).
    let stamps: Vec<shard::Stamp> = names
        .iter()
        .zip(files)
        .map(|(name, f)| shard::Stamp {
            name,
            format: &f.format,
            version: f.version,
            damelab: &f.damelab,
            settings: serde_json::to_value(&f.settings).unwrap_or_default(),
            shards: &f.shards,
        })
        .collect();
    for s in &stamps {
        shard::same_run(&stamps[0], s).map_err(Report::new)?;
    }
    for g in 1..=last {
        let of_g: Vec<usize> = (0..files.len())
            .filter(|&i| files[i].generation == g)
            .collect();
        if of_g.is_empty() {
            return Err(bad(
                format!("generation {g} is missing: the files hold generations up to {last}"),
                &format!(
                    "the fit of generation {last} uses the positions of every generation before \
                     it: give generation {g}'s data files too"
                ),
            ));
        }
        // Within a generation: one evaluation, one split, every shard once.
        let stamps: Vec<shard::Stamp> = of_g
            .iter()
            .map(|&i| shard::Stamp {
                name: &names[i],
                format: &files[i].format,
                version: files[i].version,
                damelab: &files[i].damelab,
                settings: serde_json::json!({ "played_with": files[i].played_with }),
                shards: &files[i].shards,
            })
            .collect();
        let set = shard::check_mergeable(&stamps).map_err(Report::new)?;
        shard::require_whole(&set, t.games, false).map_err(|e| {
            bad(
                format!("generation {g} is incomplete: {e}"),
                "play the missing shards (the same command with `--shard K/N`) and merge all the \
                 files again: a fit needs every game of every generation",
            )
        })?;
        // Generation 1 plays with the start weights (or the derived evaluation); the
        // digests of later ones are checked against --from by the merge.
        let first_with = t.start.as_ref().map_or(DERIVED, |s| s.digest.as_str());
        let with = &files[of_g[0]].played_with;
        if (g == 1 && with != first_with) || (g > 1 && with == DERIVED) {
            return Err(bad(
                format!(
                    "generation {g}'s games were played with {}, not {}",
                    describe_digest(with),
                    if g == 1 {
                        describe_digest(first_with)
                    } else {
                        "the weights of the generation before".into()
                    }
                ),
                "generation 1 plays with the derived evaluation or the --start weights, each \
                 later one with the weights of the generation before (--from)",
            ));
        }
        let mut games: Vec<GameData> = Vec::with_capacity(t.games as usize);
        for &i in &of_g {
            for gr in &files[i].games {
                games.push(from_rows(gr, layout.len, &names[i])?);
            }
        }
        games.sort_by_key(|g| g.i);
        let p = played(t.games, &games, t.mirror);
        data.extend(&p.data);
        results = p.results;
        played_with = with.clone();
    }
    Ok(Merged {
        variant: v,
        settings: t,
        generation: last,
        data,
        results,
        played_with,
    })
}

/// What `train merge` is told beside its data files.
#[derive(Clone, Copy, Debug, Default)]
pub struct MergeOptions<'a> {
    /// The weights the last generation played with.
    pub from: Option<&'a Path>,
    pub weights_out: Option<&'a Path>,
    pub threads: Option<usize>,
    pub json: Option<&'a Path>,
    /// The last generation's fit with this pull instead of the run's.
    pub l2: Option<f64>,
}

/// A merge's checked plan ([`merge_plan`]): the merged data, the fit's settings and the weights
/// it starts from.
struct MergePlan {
    m: Merged,
    /// The run's settings, or with --l2 its last fit's pull in their place.
    fitted_with: TrainSettings,
    /// The weights file's `made by` line.
    made_by: String,
    /// The weights the fit starts from (the last generation's, in the run's layout).
    current: Weights,
    /// The derived evaluation's values, which the fit's pull draws toward.
    anchor: Vec<f64>,
    threads: usize,
}

/// Every check of `train merge`'s files and options, before the fit: the threads, the outputs,
/// --l2, the data files (read and merged, every refusal of the runs' kernel), the weights the
/// last generation played with (--from, checked against the data's digest).
fn merge_plan(paths: &[PathBuf], o: &MergeOptions) -> Result<MergePlan, Report> {
    let (from, weights_out, json) = (o.from, o.weights_out, o.json);
    let threads = threads(o.threads)?;
    for p in [weights_out, json].into_iter().flatten() {
        not_folder(p)?;
    }
    if let Some(x) = o.l2 {
        if !(x.is_finite() && (0.0..=1.0).contains(&x)) {
            return Err(bad(
                format!("--l2 {x} is out of range"),
                "give --l2 from 0 to 1",
            ));
        }
    }
    let files = paths
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let m = merge_files(&names, &files)?;
    let (v, g) = (&m.variant, m.generation);
    let run_line = command_line(v.name(), &m.settings);
    // The run's settings, or with --l2 its last fit's pull in their place.
    let refit = o.l2.filter(|&x| x != m.settings.l2);
    let mut fitted_with = m.settings.clone();
    if let Some(x) = refit {
        fitted_with.l2 = x;
    }
    let t = &fitted_with;
    let made_by = match refit {
        Some(x) => format!("{run_line}, generation {g} fitted again by train merge --l2 {x}"),
        None => run_line,
    };
    let start = match (g, from) {
        (1, Some(p)) if t.start.is_some() => Some(Weights::load(p, &v.rules)?),
        (1, Some(_)) => {
            return Err(bad(
                "generation 1 starts from the derived evaluation: --from is not read",
                "leave --from out when merging generation 1",
            ))
        }
        (1, None) if t.start.is_some() => {
            return Err(bad(
                "merging generation 1 of a run with --start needs --from, the start weights",
                "give the weights the run started from: `--from START.weights`",
            ))
        }
        (1, None) => None,
        (_, Some(p)) => Some(Weights::load(p, &v.rules)?),
        (_, None) => {
            return Err(bad(
                format!(
                    "merging generation {g} needs --from, the weights its games were played with"
                ),
                &format!(
                    "give the weights `train merge` wrote for generation {}",
                    g - 1
                ),
            ))
        }
    };
    if digest(start.as_ref()) != m.played_with {
        return Err(bad(
            format!(
                "generation {g}'s games were played with weights {}, not those of `{}` ({})",
                m.played_with,
                from.map_or(String::new(), |p| p.display().to_string()),
                digest(start.as_ref())
            ),
            "give as --from the weights file the shards of this generation played with",
        ));
    }
    let layout = t.layout(v.rules.as_ref());
    let derived = Weights::derived_in(&v.rules, &layout);
    let anchor = super::fit::dequantise(&derived.values);
    let mut current = derived.clone();
    current.variant = v.name().to_string();
    current.made_by = made_by.clone();
    if let Some(s) = &start {
        // Generation 1's start moves into the run's layout; a later --from has it already.
        let carried = s
            .carried_into(&v.rules, &layout)
            .map_err(|e| bad(e.to_string(), ""))?;
        current.values = carried.values;
        current.search = carried.search;
    }
    Ok(MergePlan {
        m,
        fitted_with,
        made_by,
        current,
        anchor,
        threads,
    })
}

/// `damelab train merge FILES… [--from W] [-o OUT] [--json J] [--l2 X]`: its plan checked, then
/// the last generation fitted (and matched), the weights and figures written.
pub fn merge_command(
    paths: &[PathBuf],
    o: &MergeOptions,
    out: &mut dyn FnMut(&str),
) -> Result<(), Report> {
    let MergePlan {
        mut m,
        fitted_with,
        made_by,
        mut current,
        anchor,
        threads,
    } = merge_plan(paths, o)?;
    let (weights_out, json) = (o.weights_out, o.json);
    let (v, g, t) = (&m.variant, m.generation, &fitted_with);
    crate::interrupt::install_termination();
    crate::interrupt::reset();
    out(&format!("{}: `{made_by}`: generation {g} merged", v.name()));
    let held = t.held(v.rules.as_ref());
    let mut tie = ties(v, t)?;
    let Some(step) = fit_step(
        &mut m.data,
        &current.values,
        &anchor,
        held.as_deref(),
        tie.as_mut(),
        t,
        g - 1,
    ) else {
        return Err(bad(
            "interrupted: no weights written",
            "run the merge again",
        ));
    };
    current.values = step.values.clone();
    let against = if t.match_games > 0 {
        let b = bar(t.match_games, &format!("generation {g} match"));
        let r = duel(
            &v.rules,
            t,
            g - 1,
            Some(Arc::new(current.clone())),
            None,
            threads,
            &|| b.inc(1),
        )
        .map_err(|e| bad(e.to_string(), ""))?;
        b.finish();
        if r.is_none() {
            return Err(bad(
                "interrupted during the generation match: no weights written",
                "run the merge again",
            ));
        }
        r
    } else {
        None
    };
    let gen = Generation::of(g, t.games, m.results, &m.data, &step, against).left_out(t, &m.data);
    out(&generation_line(&gen));
    let path = weights_out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(format!("{}.weights", file_stem(v.name()))));
    crate::fsio::write_file(&path, current.to_text().as_bytes())?;
    out(&format!(
        "wrote {} ({} weights, generation {g} of {})",
        path.display(),
        current.values.len(),
        t.generations
    ));
    if let Some(p) = json {
        let file = RunJson {
            format: "damelab-train",
            variant: v.name(),
            settings: t,
            generations: std::slice::from_ref(&gen),
        };
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| bad(format!("cannot write the figures as JSON: {e}"), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    Ok(())
}
