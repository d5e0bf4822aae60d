//! `damelab train`: the arguments turned into checked settings before any game, a whole run on
//! this machine, a generation's shard, `train merge`, `train search-settings` and
//! `train symmetric`. The loop is in [`crate::train::run`].

mod shard;

use crate::search::weights::Weights;
use crate::search::MAX_DEPTH;
use crate::train::run::{
    bad, command_line, file_stem, not_folder, threads, train_from, RunJson, MAX_EPOCHS,
    MAX_GENERATIONS, MAX_OPENING_PLIES, MAX_PLIES, MAX_RUN_NODES, MAX_TRAIN_GAMES,
};
use crate::train::TrainSettings;
use crate::Variant;
use miette::Report;
use std::path::PathBuf;

/// `damelab train`: a training run (or one generation's shard of one), or one of the
/// subcommands on data and weights files (`merge`, `search-settings`, `symmetric`).
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
    /// Make a weights file score every position's mirror image (each piece turned through 180°
    /// with its colour swapped, the other side to move) exactly as the position, for the other
    /// side: each weight and the weight of its mirror feature set to their average. Only for
    /// rules that treat the two sides alike (as `train --mirror`).
    Symmetric {
        /// A bundled variant's name or a path to a rules file: the weights' rules.
        variant: String,
        /// The weights file.
        weights: PathBuf,
        /// Write the symmetric weights here instead of over the weights file.
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
    /// Add the race features: per side its free men (no enemy piece in the way to the promotion
    /// zone or beside it), the tempi of its fastest one and who queens first; and, without
    /// --phases, an ending's weight for each small feature (material, mobility, runaways, races),
    /// blended with the opening's by the material left.
    #[arg(long)]
    pub race: bool,
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
    /// Which weights the fit moves: `all`, or `new`: only those the --start file does not have
    /// (the groups its layout lacks, as the race features, and the small features' ending
    /// weights carried into --race); every weight carried from it keeps its value.
    #[arg(long, value_enum, default_value = "all")]
    pub fit: FitWhich,
    /// Fit only the quiet positions with at most N pieces on the board (both sides, every kind):
    /// the games are still played whole, the other positions are left out of the fit.
    #[arg(long, value_name = "N")]
    pub fit_pieces_at_most: Option<u32>,
    /// Fit each position together with its mirror image (every piece turned through 180° with
    /// its colour swapped, the other side to move, the result reversed), so that the two sides'
    /// weights come out alike. Only for rules that treat the two sides alike: checked before the
    /// games (the board, the start, the goals, and the moves and ends along random games).
    #[arg(long)]
    pub mirror: bool,
    /// After each generation's fit, tie every weight to its mirror feature's (set the two to
    /// their average, as `train symmetric` does), so that the weights score each position's
    /// mirror image exactly as the position. Only for rules that treat the two sides alike.
    #[arg(long)]
    pub symmetric: bool,
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

/// `train --fit`: which weights the fit moves.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitWhich {
    // Every weight (no doc comment: `--help` keeps its short form).
    All,
    // Only the weights the --start file does not have.
    New,
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
    range("games", a.games, 1, MAX_TRAIN_GAMES)?;
    if let Some(n) = a.nodes {
        range("nodes", n, 1, MAX_RUN_NODES)?;
    }
    if let Some(d) = a.depth {
        range("depth", d, 1, MAX_DEPTH)?;
    }
    range("epochs", a.epochs, 1, MAX_EPOCHS)?;
    range("match-games", a.match_games, 0, MAX_TRAIN_GAMES)?;
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
        race: a.race,
        result_weight: a.result_weight,
        start: None,
        window: a.window.0[0],
        more_windows: a.window.0[1..].to_vec(),
        fit_new: a.fit == FitWhich::New,
        fit_pieces_at_most: a.fit_pieces_at_most,
        mirror: a.mirror,
        symmetric: a.symmetric,
    })
}

/// The settings of `a` with its `--start` weights loaded and checked against the run's layout:
/// the weights generation 1 plays with and fits from (`None`: the derived evaluation).
pub fn settings_with_start(
    a: &TrainArgs,
    v: &Variant,
) -> Result<(TrainSettings, Option<Weights>), Report> {
    let mut t = settings(a)?;
    if let Some(n) = t.fit_pieces_at_most {
        let squares = crate::engine::BitSet::count(v.rules.geo.playable);
        range("fit-pieces-at-most", n, 1, squares)?;
    }
    if t.mirror {
        if let Err(why) = crate::train::mirror::Mirror::of(&v.rules) {
            return Err(bad(
                crate::train::PlayError::from(why).to_string(),
                "leave out --mirror: each side's weights are then fitted from its own positions",
            ));
        }
    }
    if t.symmetric {
        // Refused here, before any game, for rules without a mirror image.
        crate::train::run::ties(v, &t)?;
        if t.fit_new {
            return Err(bad(
                "--symmetric with --fit new would move the weights --fit new holds",
                "make the start file symmetric first (`damelab train symmetric`), or leave out one \
                 of the two",
            ));
        }
    }
    let Some(path) = &a.start else {
        if t.fit_new {
            return Err(bad(
                "--fit new fits only the weights the --start file does not have, and there is \
                 no --start",
                "give the weights to start from (`--start FILE`) in a layout with more \
                 features than theirs (as --race), or leave out --fit new",
            ));
        }
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
    t.start = Some(crate::train::Start {
        path: path.display().to_string(),
        digest: w.digest(),
        layout: w.layout.clone(),
    });
    if t.held(v.rules.as_ref())
        .is_some_and(|h| h.iter().all(|&x| x))
    {
        return Err(bad(
            format!(
                "--fit new: the start weights `{}` have every weight of this run's layout \
                 (`{}`): nothing is new to fit",
                path.display(),
                layout.summary()
            ),
            "--fit new fits the features the start's layout lacks: add them (as --race, or \
             another --window shape beside the start's), or leave out --fit new",
        ));
    }
    Ok((t, Some(w)))
}

/// `damelab train`: a run, a generation's shard, or a subcommand.
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
        ) => crate::train::shard::merge_command(
            files,
            &crate::train::shard::MergeOptions {
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
        (
            Some(MergeCommand::Symmetric {
                variant,
                weights,
                out: dest,
            }),
            _,
        ) => symmetric(variant, weights, dest.as_deref(), out),
        (None, Some(a)) if a.generation.is_some() => shard::play_command(a, out),
        (None, Some(a)) => run(a, out),
        (None, None) => Err(bad(
            "`train` needs a variant",
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

/// `damelab train symmetric`: the weights file again, each weight averaged with its mirror
/// feature's ([`crate::train::symmetry`]).
fn symmetric(
    variant: &str,
    weights: &std::path::Path,
    dest: Option<&std::path::Path>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Report> {
    let v = Variant::load(variant).map_err(Report::new)?;
    let mirror = crate::train::mirror::Mirror::of(&v.rules).map_err(|why| {
        bad(
            format!("the rules do not treat the two sides alike: {why}"),
            "weights of such rules have no mirror image to be averaged with",
        )
    })?;
    let mut w = Weights::load(weights, &v.rules)?;
    let layout = crate::search::learned::Layout::from_summary(v.rules.as_ref(), &w.layout);
    let mut sym = crate::train::symmetry::Symmetry::of(&mirror, &layout);
    let applied = sym.apply(&mut w.values);
    const STEP: &str = "; damelab train symmetric";
    if !w.made_by.ends_with(STEP) {
        w.made_by.push_str(STEP);
    }
    let dest = dest.unwrap_or(weights);
    not_folder(dest)?;
    crate::fsio::write_file(dest, w.to_text().as_bytes())?;
    let untied = match sym.untied_windows {
        0 => String::new(),
        n => format!("; {n} windows have no mirror window and keep their weights"),
    };
    out(&format!(
        "{}: {} of {} weights changed (by at most {}){untied}",
        dest.display(),
        applied.changed,
        w.values.len(),
        applied.largest
    ));
    Ok(())
}

/// A whole run's checked plan ([`plan`]).
struct TrainPlan {
    v: Variant,
    t: TrainSettings,
    /// The weights of `--start`, carried into the run's layout by the first generation.
    start: Option<Weights>,
    threads: usize,
    /// The weights file written after each generation.
    path: PathBuf,
}

/// Every check of a whole run's arguments, before any game: the variant, the settings and the
/// start weights, the threads, no flag of a generation's shard, the outputs.
fn plan(a: &TrainArgs) -> Result<TrainPlan, Report> {
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
    Ok(TrainPlan {
        v,
        t,
        start,
        threads,
        path,
    })
}

/// `damelab train`: the whole run on this machine, its plan checked first.
pub fn run(a: &TrainArgs, out: &mut dyn FnMut(&str)) -> Result<(), Report> {
    let TrainPlan {
        v,
        t,
        start,
        threads,
        path,
    } = plan(a)?;
    crate::interrupt::install_termination();
    crate::interrupt::reset();
    out(&format!("{}: {}", v.name(), command_line(v.name(), &t)));
    let trained = train_from(&v, &t, start.as_ref(), threads, out, &mut |w| {
        crate::fsio::write_file(&path, w.to_text().as_bytes()).map_err(Report::new)
    })?;
    if trained.generations.is_empty() {
        return Err(bad(
            "interrupted before the first generation finished: no weights written",
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
        let text = crate::train::chart::svg(&title, &trained.generations)
            .map_err(|e| bad(e.to_string(), ""))?;
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
