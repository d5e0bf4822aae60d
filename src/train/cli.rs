//! The `train` command: settings checked, generations run with progress bars, the weights file and
//! the learning curve written.

use super::fit::{dequantise, fit, fit_k, loss, quantise, sigmoid};
use super::{duel, play, Data, TrainSettings, Wdl};
use crate::search::learned::PHASE_BITS;
use crate::search::weights::Weights;
use crate::search::MAX_DEPTH;
use crate::Variant;
use miette::{miette, Report};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

pub const MAX_GENERATIONS: u32 = 100;
pub const MAX_GAMES: u64 = 1_000_000;
pub const MAX_NODES: u64 = 1_000_000_000;
pub const MAX_EPOCHS: u32 = 100_000;
pub const MAX_OPENING_PLIES: u32 = 200;
pub const MAX_PLIES: u32 = 10_000;

/// `damelab train`: a training run (or one generation's shard of one), or `train merge`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TrainCommand {
    #[command(subcommand)]
    pub merge: Option<MergeCommand>,
    #[command(flatten)]
    pub run: Option<TrainArgs>,
}

#[derive(clap::Subcommand, Debug)]
pub enum MergeCommand {
    /// Fit a generation from its shards' data files (`train --generation G --shard K/N --data F`)
    /// and those of every generation before it, and write its weights: the single run's weights
    /// after that generation, bit for bit. The next generation's shards play with them (`--from`).
    Merge {
        /// The data files of generations 1 to G, every shard of each.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The weights the last generation's shards played with (the merge of generation G - 1);
        /// not for generation 1, which plays with the derived evaluation.
        #[arg(long)]
        from: Option<PathBuf>,
        /// The weights file to write (default: VARIANT.weights in the current folder).
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Threads of the generation match (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Write the settings and the generation's figures as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Fit the last generation with this pull toward the derived evaluation instead of the
        /// run's `--l2` (the games stay the run's; the weights' `made-by` line says so).
        #[arg(long, value_name = "X")]
        l2: Option<f64>,
    },
    /// Record in a weights file the search options measured stronger with its weights than the
    /// defaults (its `search` line): every engine that plays with these weights starts from
    /// them, and options given by name (`option.NAME=` in a match, `--option`, Hub `set-param`)
    /// still override them. With no settings, the line is removed.
    SearchSettings {
        /// A bundled variant's name or a path to a rules file: the weights' rules.
        variant: String,
        /// The weights file.
        weights: PathBuf,
        /// Search options as NAME=VALUE (the names of `analyse --option`).
        settings: Vec<String>,
        /// Write the changed file here instead of over the weights file.
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
}

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// A bundled variant's name or a path to a rules file.
    pub variant: String,
    /// The weights file to write (default: VARIANT.weights in the current folder).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Generations: each plays its games with the weights of the one before (the first with the
    /// derived evaluation).
    #[arg(long, default_value_t = 3)]
    pub generations: u32,
    /// Self-play games per generation.
    #[arg(long, default_value_t = 400)]
    pub games: u64,
    /// Node budget per move in self-play and in the generation matches (default 2000 unless
    /// --depth).
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per move instead of a node budget.
    #[arg(long)]
    pub depth: Option<u32>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes of the optimiser over the positions per generation.
    #[arg(long, default_value_t = 200)]
    pub epochs: u32,
    /// Games of each generation's match against the derived evaluation (0: none).
    #[arg(long, default_value_t = 40)]
    pub match_games: u64,
    /// Random plies at the start of each game, for varied openings.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: u32,
    /// Games longer than this many plies end as draws.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// The pull of each weight toward where it started (0: none).
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    /// Add wide patterns to the features: every window of nine squares (a 3x3 block, or a diamond
    /// of three diagonal steps each way) scored from one table of its 19683 configurations shared
    /// by all windows. Slower to evaluate; sees formations the four-square windows cannot.
    #[arg(long)]
    pub wide_patterns: bool,
    /// Give every feature two weights, one for the opening and one for the ending, blended by
    /// the share of the starting pieces that have left the board.
    #[arg(long)]
    pub phases: bool,
    /// The share of each position's target that is its game's result (0 to 1); the rest is the
    /// self-play search's score of the position, turned into a probability with the fit's scale.
    #[arg(long, default_value_t = 1.0)]
    pub result_weight: f64,
    /// Start from these weights instead of the derived evaluation (a bundled file, or an earlier
    /// run's): generation 1 plays with them and fits from them, carried into the run's layout
    /// (what both layouts have is kept; a phased start only into a phased run).
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// The pattern windows' shape, AxB: A squares one way by B the other (east and north, or the
    /// two forward diagonals on dark-squares boards), each window with its own table of
    /// 3^(AxB) configurations; at most 8 squares. Larger windows see more and need more games.
    /// Up to three shapes side by side, joined by `+` (`2x2+2x4`): each has its own windows.
    #[arg(long, default_value = "2x2", value_parser = crate::search::learned::Shapes::parse)]
    pub window: crate::search::learned::Shapes,
    /// Threads (default: every core). The weights do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Draw the learning curve (loss and match score per generation) as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write the settings and every generation's figures as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Play only this generation's self-play games (from 1), or a shard of them (--shard), and
    /// write their positions to --data for `train merge`; give the other settings as for the whole
    /// run.
    #[arg(long)]
    pub generation: Option<u32>,
    /// With --generation: the weights of the generation before (what `train merge` wrote for it).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// With --generation: the data file to write.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// With --generation: play only the K-th of N disjoint slices of its games (`--shard 2/8`), or
    /// `--shard auto`: the shard of this task of a Slurm array job or Kubernetes indexed job.
    #[arg(long)]
    pub shard: Option<String>,
    /// The number of shards for `--shard auto` where the scheduler does not say it (Kubernetes;
    /// or the DAMELAB_SHARDS variable).
    #[arg(long)]
    pub shards: Option<u64>,
}

/// One generation's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Generation {
    pub generation: u32,
    pub games: u64,
    /// Wins of the first side, draws, wins of the second side in its self-play games.
    pub results: [u64; 3],
    /// Positions fitted so far (all generations), and held out.
    pub positions: usize,
    pub held_out: usize,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    pub validation_before: f64,
    pub validation_after: f64,
    /// The new weights against the derived evaluation.
    pub against_derived: Option<Wdl>,
}

#[derive(Serialize)]
pub(crate) struct RunJson<'a> {
    pub format: &'static str,
    pub variant: &'a str,
    pub settings: &'a TrainSettings,
    pub generations: &'a [Generation],
}

pub(crate) fn bad(msg: String, help: &str) -> Report {
    miette!(help = help.to_string(), "{msg}")
}

fn range<T: PartialOrd + std::fmt::Display + Copy>(
    flag: &str,
    v: T,
    lo: T,
    hi: T,
) -> Result<(), Report> {
    if v < lo || v > hi {
        return Err(bad(
            format!("--{flag} {v} is out of range"),
            &format!("give --{flag} from {lo} to {hi}"),
        ));
    }
    Ok(())
}

/// The settings from the arguments, refused when absurd.
pub fn settings(a: &TrainArgs) -> Result<TrainSettings, Report> {
    range("generations", a.generations, 1, MAX_GENERATIONS)?;
    range("games", a.games, 1, MAX_GAMES)?;
    if let Some(n) = a.nodes {
        range("nodes", n, 1, MAX_NODES)?;
    }
    if let Some(d) = a.depth {
        range("depth", d, 1, MAX_DEPTH)?;
    }
    range("epochs", a.epochs, 1, MAX_EPOCHS)?;
    range("match-games", a.match_games, 0, MAX_GAMES)?;
    range("opening-plies", a.opening_plies, 0, MAX_OPENING_PLIES)?;
    range("max-plies", a.max_plies, 1, MAX_PLIES)?;
    if !(a.result_weight.is_finite() && (0.0..=1.0).contains(&a.result_weight)) {
        return Err(bad(
            format!("--result-weight {} is out of range", a.result_weight),
            "give --result-weight from 0 (the search's scores alone) to 1 (the results alone)",
        ));
    }
    if !(a.l2.is_finite() && (0.0..=1.0).contains(&a.l2)) {
        return Err(bad(
            format!("--l2 {} is out of range", a.l2),
            "give --l2 from 0 to 1",
        ));
    }
    Ok(TrainSettings {
        seed: a.seed,
        generations: a.generations,
        games: a.games,
        nodes: if a.depth.is_some() {
            None
        } else {
            Some(a.nodes.unwrap_or(2000))
        },
        depth: a.depth,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        epochs: a.epochs,
        match_games: a.match_games,
        l2: a.l2,
        wide_patterns: a.wide_patterns,
        phases: a.phases,
        result_weight: a.result_weight,
        start: None,
        window: a.window.0[0],
        more_windows: a.window.0[1..].to_vec(),
    })
}

/// The settings of `a` with its `--start` weights loaded and checked against the run's layout:
/// the weights generation 1 plays with and fits from (`None`: the derived evaluation).
pub fn settings_with_start(
    a: &TrainArgs,
    v: &Variant,
) -> Result<(TrainSettings, Option<Weights>), Report> {
    let mut t = settings(a)?;
    let Some(path) = &a.start else {
        return Ok((t, None));
    };
    let w = Weights::load(path, &v.rules)?;
    let layout = t.layout(v.rules.as_ref());
    if let Err(e) = w.carried_into(&v.rules, &layout) {
        return Err(bad(
            format!(
                "the start weights `{}` do not fit this run: {e}",
                path.display()
            ),
            "give --phases as the start weights were trained, or train from the derived \
             evaluation (no --start)",
        ));
    }
    t.start = Some(super::Start {
        path: path.display().to_string(),
        digest: w.digest(),
    });
    Ok((t, Some(w)))
}

/// The command that reproduces a run (threads aside: they change nothing).
pub fn command_line(variant: &str, t: &TrainSettings) -> String {
    let budget = match (t.nodes, t.depth) {
        (_, Some(d)) => format!("--depth {d}"),
        (Some(n), None) => format!("--nodes {n}"),
        (None, None) => String::new(),
    };
    let mut flags = String::new();
    if t.wide_patterns {
        flags.push_str(" --wide-patterns");
    }
    if t.phases {
        flags.push_str(" --phases");
    }
    if t.result_weight != 1.0 {
        flags.push_str(&format!(" --result-weight {}", t.result_weight));
    }
    let shapes = t.shapes();
    if shapes != [crate::search::learned::Window::SMALL] {
        flags.push_str(&format!(
            " --window {}",
            crate::search::learned::shapes_text(&shapes)
        ));
    }
    if let Some(s) = &t.start {
        flags.push_str(&format!(" --start {}", s.path));
    }
    format!(
        "damelab train {variant} --seed {} --generations {} --games {} {budget} --epochs {} \
         --match-games {} --opening-plies {} --max-plies {} --l2 {}{flags}",
        t.seed, t.generations, t.games, t.epochs, t.match_games, t.opening_plies, t.max_plies, t.l2
    )
}

pub(crate) fn bar(len: u64, what: &str) -> crate::progress::Bar {
    crate::progress::Bar::new(len, what)
}

/// What a run produced: the weights and every generation's figures.
pub struct Trained {
    pub weights: Weights,
    pub generations: Vec<Generation>,
    /// Stopped by Ctrl-C after this many generations.
    pub interrupted: bool,
}

/// Run the generations from the derived evaluation; `out` gets a line per generation.
pub fn train(
    v: &Variant,
    t: &TrainSettings,
    threads: usize,
    out: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(&Weights) -> Result<(), Report>,
) -> Result<Trained, Report> {
    train_from(v, t, None, threads, out, checkpoint)
}

/// Run the generations from `start` (the weights of `t.start`, loaded by
/// [`settings_with_start`]) or, with none, from the derived evaluation.
pub fn train_from(
    v: &Variant,
    t: &TrainSettings,
    start: Option<&Weights>,
    threads: usize,
    out: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(&Weights) -> Result<(), Report>,
) -> Result<Trained, Report> {
    let rules = &v.rules;
    let layout = t.layout(rules.as_ref());
    debug_assert_eq!(
        t.start.as_ref().map(|s| s.digest.clone()),
        start.map(Weights::digest)
    );
    let derived = Weights::derived_in(rules, &layout);
    // The pull is toward the derived evaluation, with or without a start.
    let anchor = dequantise(&derived.values);
    let mut current = derived.clone();
    current.variant = v.name().to_string();
    current.made_by = command_line(v.name(), t);
    if let Some(s) = start {
        // Checked by `settings_with_start`: the start moves into the run's layout.
        let carried = s.carried_into(rules, &layout).map_err(|e| bad(e, ""))?;
        current.values = carried.values;
        current.search = carried.search;
    }
    let mut data = Data {
        shift: if t.phases { PHASE_BITS } else { 0 },
        ..Data::default()
    };
    let mut generations = Vec::new();
    let mut interrupted = false;
    for g in 0..t.generations {
        // Generation 1 plays with the start weights as they are, in their own layout.
        let playing = match (g, start) {
            (0, Some(s)) => Some(Arc::new(s.clone())),
            (0, None) => None,
            _ => Some(Arc::new(current.clone())),
        };
        let b = bar(t.games, &format!("generation {} self-play", g + 1));
        let played = play(rules, t, g, playing, threads, &|| b.inc(1)).map_err(|e| bad(e, ""))?;
        b.finish();
        let Some(played) = played else {
            interrupted = true;
            break;
        };
        data.extend(&played.data);
        let Some(step) = fit_step(&mut data, &current.values, &anchor, t, g) else {
            interrupted = true;
            break;
        };
        current.values = step.values.clone();
        let new = Arc::new(current.clone());
        let against = if t.match_games > 0 {
            let b = bar(t.match_games, &format!("generation {} match", g + 1));
            let r = duel(rules, t, g, Some(new), None, threads, &|| b.inc(1))
                .map_err(|e| bad(e, ""))?;
            b.finish();
            if r.is_none() {
                interrupted = true;
            }
            r
        } else {
            None
        };
        let held = data.held_out.iter().filter(|h| **h).count();
        let gen = Generation {
            generation: g + 1,
            games: played.games,
            results: played.results,
            positions: data.rows() - held,
            held_out: held,
            k: step.k,
            loss_before: step.loss_before,
            loss_after: step.loss_after,
            validation_before: step.validation_before,
            validation_after: step.validation_after,
            against_derived: against,
        };
        out(&generation_line(&gen));
        generations.push(gen);
        // Each generation's weights are written as it ends: a long run stopped late keeps them.
        checkpoint(&current)?;
        if interrupted {
            break;
        }
    }
    debug_assert_eq!(current.values.len(), layout.len);
    Ok(Trained {
        weights: current,
        generations,
        interrupted,
    })
}

/// What a generation's fit gave: the scale, the losses before and after, the new weights.
pub(crate) struct Step {
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    pub validation_before: f64,
    pub validation_after: f64,
    pub values: Vec<i32>,
}

/// Generation `g`'s fit (from 0) of all the data so far, starting from the weights `current`
/// and pulled toward `anchor`. `None` when interrupted. The single run and `train merge` both fit
/// here, so they give the same weights.
pub(crate) fn fit_step(
    data: &mut Data,
    current: &[i32],
    anchor: &[f64],
    t: &TrainSettings,
    g: u32,
) -> Option<Step> {
    let start = dequantise(current);
    // The scale is fitted to the results; with a result weight below 1 the targets are then
    // the results blended with the searches' scores on that scale (the results come back after).
    let k = fit_k(data, &start);
    let results = (t.result_weight < 1.0).then(|| {
        let blended = data
            .y
            .iter()
            .zip(&data.score)
            .map(|(&y, &s)| {
                if s.is_nan() {
                    y
                } else {
                    let p = sigmoid(s as f64 / k);
                    (t.result_weight * y as f64 + (1.0 - t.result_weight) * p) as f32
                }
            })
            .collect();
        std::mem::replace(&mut data.y, blended)
    });
    let step = fit_targets(data, &start, anchor, k, t, g);
    if let Some(y) = results {
        data.y = y;
    }
    step
}

/// The fit of `data`'s targets as they stand, on the scale `k`.
fn fit_targets(
    data: &Data,
    start: &[f64],
    anchor: &[f64],
    k: f64,
    t: &TrainSettings,
    g: u32,
) -> Option<Step> {
    let (lb, vb) = (loss(data, start, k, false), loss(data, start, k, true));
    let b = bar(t.epochs as u64, &format!("generation {} fit", g + 1));
    let fitted = fit(data, start, anchor, k, t.epochs, t.l2, &|| b.inc(1));
    b.finish();
    let q = quantise(&fitted?);
    let back = dequantise(&q);
    let (la, va) = (loss(data, &back, k, false), loss(data, &back, k, true));
    Some(Step {
        k,
        loss_before: lb,
        loss_after: la,
        validation_before: vb,
        validation_after: va,
        values: q,
    })
}

pub(crate) fn generation_line(g: &Generation) -> String {
    let [w, d, l] = g.results;
    let mut line = format!(
        "generation {}: {} games (+{w} ={d} -{l}), {} positions (+{} held out), K {:.0}, \
         loss {:.4} -> {:.4}, validation {:.4} -> {:.4}",
        g.generation,
        g.games,
        g.positions,
        g.held_out,
        g.k,
        g.loss_before,
        g.loss_after,
        g.validation_before,
        g.validation_after
    );
    if let Some(m) = g.against_derived {
        let (e, lo, hi) = m.elo();
        line.push_str(&format!(
            "; against derived +{} ={} -{} score {:.3} Elo {e:+.0} [{lo:+.0}, {hi:+.0}]",
            m.wins,
            m.draws,
            m.losses,
            m.score()
        ));
    }
    line
}

/// `damelab train`: a run, a generation's shard, or `train merge`.
pub fn command(c: &TrainCommand, out: &mut dyn FnMut(&str)) -> Result<(), Report> {
    match (&c.merge, &c.run) {
        (
            Some(MergeCommand::Merge {
                files,
                from,
                out: weights,
                threads,
                json,
                l2,
            }),
            _,
        ) => super::shard::merge_command(
            files,
            &super::shard::MergeOptions {
                from: from.as_deref(),
                weights_out: weights.as_deref(),
                threads: *threads,
                json: json.as_deref(),
                l2: *l2,
            },
            out,
        ),
        (
            Some(MergeCommand::SearchSettings {
                variant,
                weights,
                settings,
                out: dest,
            }),
            _,
        ) => search_settings(variant, weights, settings, dest.as_deref(), out),
        (None, Some(a)) if a.generation.is_some() => super::shard::play_command(a, out),
        (None, Some(a)) => run(a, out),
        (None, None) => Err(bad(
            "`train` needs a variant".into(),
            "e.g. `damelab train dameo --games 400`",
        )),
    }
}

/// `damelab train search-settings`: the weights file again, with its `search` line set.
fn search_settings(
    variant: &str,
    weights: &std::path::Path,
    settings: &[String],
    dest: Option<&std::path::Path>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Report> {
    let v = Variant::load(variant).map_err(Report::new)?;
    let mut w = Weights::load(weights, &v.rules)?;
    w.search = crate::search::weights::parse_search(&settings.join(" ")).map_err(|e| {
        bad(
            format!("bad search setting: {e}"),
            "give search options as NAME=VALUE, e.g. `lmr_div=110`: the options of `analyse --option` (an unknown name is answered with the list)",
        )
    })?;
    let dest = dest.unwrap_or(weights);
    not_folder(dest)?;
    crate::fsio::write_file(dest, w.to_text().as_bytes())?;
    let what = if w.search.is_empty() {
        "no search settings".to_string()
    } else {
        format!("search {}", w.search_text())
    };
    out(&format!("{}: {what}", dest.display()));
    Ok(())
}

/// `--threads`, or every core.
pub(crate) fn threads(n: Option<usize>) -> Result<usize, Report> {
    match n {
        Some(0) | Some(1025..) => Err(bad(
            format!("--threads {} is out of range", n.unwrap_or(0)),
            "give from 1 to 1024 threads",
        )),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Refuse to write to a folder.
pub(crate) fn not_folder(p: &std::path::Path) -> Result<(), Report> {
    if p.is_dir() {
        return Err(bad(
            format!("cannot write `{}`: it is a folder", p.display()),
            "give a file path",
        ));
    }
    Ok(())
}

/// `damelab train`: the whole run on this machine.
pub fn run(a: &TrainArgs, out: &mut dyn FnMut(&str)) -> Result<(), Report> {
    let v = Variant::load(&a.variant).map_err(Report::new)?;
    let (t, start) = settings_with_start(a, &v)?;
    let threads = threads(a.threads)?;
    for (flag, given) in [
        ("--from", a.from.is_some()),
        ("--data", a.data.is_some()),
        ("--shard", a.shard.is_some()),
        ("--shards", a.shards.is_some()),
    ] {
        if given {
            return Err(bad(
                format!("{flag} is only read with --generation"),
                "give `--generation G` to play one generation's games (or a shard of them)",
            ));
        }
    }
    let path = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.weights", file_stem(v.name()))));
    for p in [Some(&path), a.svg.as_ref(), a.json.as_ref()]
        .into_iter()
        .flatten()
    {
        not_folder(p)?;
    }
    crate::interrupt::install_termination();
    crate::interrupt::reset();
    out(&format!("{}: {}", v.name(), command_line(v.name(), &t)));
    let trained = train_from(&v, &t, start.as_ref(), threads, out, &mut |w| {
        crate::fsio::write_file(&path, w.to_text().as_bytes()).map_err(Report::new)
    })?;
    if trained.generations.is_empty() {
        return Err(bad(
            "interrupted before the first generation finished: no weights written".into(),
            "run again; the games are seeded, so the same ones are played",
        ));
    }
    out(&format!(
        "wrote {} ({} weights{})",
        path.display(),
        trained.weights.values.len(),
        if trained.interrupted {
            format!(
                ", interrupted after {} generations",
                trained.generations.len()
            )
        } else {
            String::new()
        }
    ));
    if let Some(svg) = &a.svg {
        let title = format!("{}: {}", v.name(), command_line(v.name(), &t));
        let text = super::chart::svg(&title, &trained.generations).map_err(|e| bad(e, ""))?;
        crate::fsio::write_file(svg, text.as_bytes())?;
    }
    if let Some(json) = &a.json {
        let file = RunJson {
            format: "damelab-train",
            variant: v.name(),
            settings: &t,
            generations: &trained.generations,
        };
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| bad(format!("cannot write the figures as JSON: {e}"), ""))?;
        crate::fsio::write_file(json, text.as_bytes())?;
    }
    Ok(())
}

/// A variant's name as a file name: a rules file's stem, not its path.
pub(crate) fn file_stem(name: &str) -> String {
    std::path::Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "variant".into())
}
