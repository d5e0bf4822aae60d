//! `damelab selfplay`: a run (or a ladder of runs, or a shard of either), `selfplay merge` and
//! `selfplay chart`: the arguments checked into a plan before any game ([`plan`]), the progress
//! line, the report and the files. The work is in [`crate::selfplay`].

pub(crate) mod configs;
mod ladder;

use crate::cli::load;
use crate::limits::{MAX_RUN_THREADS as MAX_THREADS, MAX_SELFPLAY_GAMES as MAX_GAMES};
use crate::runs::shard::{self, Shard, ShardSet};
use crate::search::MAX_DEPTH;
use crate::selfplay::file::{
    bad, check_outputs, check_play_memory, check_writable, header, open_tables, read_run,
    tables_line, write_outputs, Outputs,
};
use crate::selfplay::openings::OpeningSet;
use crate::selfplay::{chart, shard_indices, RateRequest, RunFile, Settings};
use crate::Variant;
use miette::Report as Diag;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SelfplayArgs {
    #[command(subcommand)]
    pub merge: Option<MergeCommand>,
    #[command(flatten)]
    pub run: Option<RunArgs>,
}

#[derive(clap::Subcommand, Debug)]
pub enum MergeCommand {
    /// Combine the JSON files of shards into one report (and one JSON with --json); with --pdn,
    /// their PDN files (given among the files, `*.pdn`) into one PDN file in game order. Runs of
    /// the same games under several engine configurations (each one's shards whole) merge into
    /// the configurations' report: each figure with its range across them, ENGINE-DEPENDENT
    /// where they disagree.
    Merge {
        /// The runs' JSON files (`selfplay --json`, one a shard or a whole run), and with --pdn
        /// their PDN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged run (or the configurations' `damelab-configs` file).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Draw the merged run's chart (or the configurations' chart).
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Write the games of the PDN files given, in game order.
        #[arg(long)]
        pdn: Option<PathBuf>,
        /// Merge even when shards are missing: the figures of the shards present, marked partial.
        #[arg(long)]
        partial: bool,
        /// The rules file the games were played under, for rules that are not a bundled variant
        /// (checked against the rules fingerprint the files record).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
    /// Draw the draw rate against search depth (random play as depth 0), one line per variant,
    /// from the JSON files of several runs; or, from ladder files (`--ladder --json`), every
    /// figure against strength, one line per variant; or, from runs of the same games under
    /// several engine configurations (or a `damelab-configs` file), each figure across the
    /// configurations, ENGINE-DEPENDENT marked.
    Chart {
        /// The runs' JSON files (`selfplay --json`, `--ladder --json` or `--configs --json`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The chart to write (SVG).
        #[arg(long, required = true)]
        svg: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// A bundled variant's name or a path to a rules file.
    pub variant: String,
    /// Number of games (of the whole run, all shards together).
    #[arg(long)]
    pub games: u64,
    /// Search depth of both engines (default 4 unless --nodes or --random).
    #[arg(long, conflicts_with_all = ["nodes", "random"])]
    pub depth: Option<u32>,
    /// Node budget per move of both engines.
    #[arg(long, conflicts_with = "random")]
    pub nodes: Option<u64>,
    /// Play uniformly random legal moves.
    #[arg(long)]
    pub random: bool,
    /// Threads (default: every core). The figures do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games longer than this many plies end as draws (reported apart).
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Random plies at the start of each game, for varied openings (with --openings: after the
    /// file's opening; with --balanced: the plies balanced openings are drawn from).
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Openings fixed in a file, used in turn (game i plays opening i mod n), each followed by
    /// --opening-plies random plies: one a line — moves from the start (`32-28 19-23`), a FEN,
    /// or a FEN and moves — or PDN games. The report adds the first player's score by opening.
    #[arg(long, value_name = "FILE", conflicts_with = "random")]
    pub openings: Option<PathBuf>,
    /// Keep only random openings (of --opening-plies plies) that a search of --balance-depth
    /// plies with the rules' default evaluation scores within this many men either way, as
    /// `match --balanced` draws them.
    #[arg(long, value_name = "MEN", conflicts_with_all = ["openings", "random"])]
    pub balanced: Option<f64>,
    /// The depth of --balanced's search.
    #[arg(long, default_value_t = 8, value_name = "PLIES", requires = "balanced")]
    pub balance_depth: u32,
    /// Play only the K-th of N disjoint slices of the games (K from 1): `--shard 2/8`; or
    /// `--shard auto`: the shard of this task of a Slurm array job or Kubernetes indexed job.
    #[arg(long)]
    pub shard: Option<String>,
    /// The engines use the variant's endgame tables in this directory (as `damelab endgame
    /// --cache DIR` writes them): positions of their materials get their exact value.
    #[arg(long, conflicts_with = "random")]
    pub tables: Option<PathBuf>,
    /// Play without endgame tables (by default the engines use the variant's tables in the
    /// cache of `damelab endgame`, when it holds some).
    #[arg(long, conflicts_with = "tables")]
    pub no_tables: bool,
    /// The number of shards for `--shard auto` where the scheduler does not say it (Kubernetes;
    /// or the DAMELAB_SHARDS variable).
    #[arg(long)]
    pub shards: Option<u64>,
    /// Write every game as PDN (the variant's tags, the run and game number, the result).
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Write the full figures and the per-game records as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Draw the game-length distribution and the outcome split as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// The evaluation of both engines: `derived`, `bundled` or a weights file from
    /// `damelab train` (default: the bundled weights of these rules when there are any).
    #[arg(long)]
    pub eval: Option<String>,
    /// The engines' contempt for a draw by repetition or move count, in hundredths of a man
    /// (-1000 to 1000): such a draw is scored this much below 0 for the side searching, which
    /// steers clear of it unless it judges itself worse by more; negative: it avoids the draw
    /// only when it judges itself better by more than that.
    #[arg(
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        conflicts_with = "random"
    )]
    pub contempt: i32,
    /// Measure the strength of the run's setting: its Elo in a match against this reference
    /// setting of the same engine (a match engine's settings: `nodes=1000`, `depth=4`).
    #[arg(long, value_name = "SETTINGS", conflicts_with = "random")]
    pub rate_against: Option<String>,
    /// Games of the rating match (pairs of games, both colours of each opening).
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub rate_games: u64,
    /// Play a ladder of strengths, `nodes=1000,10000,100000` or `depth=2,4,6` (bare: nodes per
    /// move 1000, 10000 and 100000), --games games a rung, and report each figure against
    /// strength (with --shard: the shard's games of every rung). Put the variant first.
    #[arg(long, value_name = "KEY=V1,V2,…", num_args = 0..=1,
          default_missing_value = crate::selfplay::ladder::DEFAULT_LADDER,
          conflicts_with_all = ["depth", "nodes", "random"])]
    pub ladder: Option<String>,
    /// Play the same games with each of several engine configurations, `;` between them, each
    /// `depth=D` or `nodes=N` with `eval=derived|bundled|FILE`: each figure per configuration
    /// and as a range, flagged engine-dependent when their intervals do not meet (with `--svg`,
    /// a panel a figure, a flagged one in red).
    #[arg(long, value_name = "CONFIG; CONFIG…",
          conflicts_with_all = ["depth", "nodes", "random", "ladder", "eval", "tables", "rate_against", "shard", "pdn"])]
    pub configs: Option<String>,
}

/// The shard of `--shard` and `--shards`, reading the scheduler's variables for `auto`.
fn resolve_shard(a: &RunArgs) -> Result<Option<Shard>, Diag> {
    shard::resolve(a.shard.as_deref(), a.shards, &|name| {
        std::env::var(name).ok()
    })
    .map_err(Diag::new)
}

/// The checks of a run's arguments every run makes before any game; gives the threads.
fn check_run_args(a: &RunArgs) -> Result<usize, Diag> {
    if a.games == 0 || a.games > MAX_GAMES {
        return Err(bad(
            format!("--games {} is out of range", a.games),
            &format!("give a number of games from 1 to {MAX_GAMES}"),
        ));
    }
    check_limits(a.depth, a.nodes)?;
    let threads = check_threads(a.threads)?;
    check_game_args(a.max_plies, a.contempt)?;
    Ok(threads)
}

/// `--depth` and `--nodes`, the search limits of a run's games.
pub(crate) fn check_limits(depth: Option<u32>, nodes: Option<u64>) -> Result<(), Diag> {
    if let Some(d) = depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(bad(
                format!("--depth {d} is out of range"),
                &format!("give a depth from 1 to {MAX_DEPTH}"),
            ));
        }
    }
    if nodes == Some(0) {
        return Err(bad("--nodes 0 is out of range", "give at least 1 node"));
    }
    Ok(())
}

/// `--threads`, or all the cores when it is not given.
pub(crate) fn check_threads(threads: Option<usize>) -> Result<usize, Diag> {
    match threads {
        Some(t) if t == 0 || t > MAX_THREADS => Err(bad(
            format!("--threads {t} is out of range"),
            &format!("give from 1 to {MAX_THREADS} threads"),
        )),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// `--max-plies` and `--contempt`.
pub(crate) fn check_game_args(max_plies: u32, contempt: i32) -> Result<(), Diag> {
    if max_plies == 0 {
        return Err(bad("--max-plies 0 is out of range", "give at least 1"));
    }
    if !(-1000..=1000).contains(&contempt) {
        return Err(bad(
            format!("--contempt {contempt} is out of range"),
            "give a contempt from -1000 to 1000 (hundredths of a man)",
        ));
    }
    Ok(())
}

/// `damelab selfplay`: play, or merge.
pub fn selfplay(args: &SelfplayArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    match (&args.merge, &args.run) {
        (
            Some(MergeCommand::Merge {
                files,
                json,
                svg,
                pdn,
                partial,
                rules,
            }),
            _,
        ) => {
            let outputs = Outputs {
                json: json.as_deref(),
                svg: svg.as_deref(),
                pdn: pdn.as_deref(),
            };
            crate::selfplay::merge::merge(files, &outputs, *partial, rules.as_deref(), out)
        }
        (Some(MergeCommand::Chart { files, svg }), _) => chart_files(files, svg, out),
        (None, Some(run)) => play(run, out),
        (None, None) => Err(bad(
            "`selfplay` needs a variant and --games",
            "e.g. `damelab selfplay dameo --games 100 --depth 4`",
        )),
    }
}

/// A run's checked plan ([`plan`]): what the games are played with and which are played.
pub(crate) struct RunPlan {
    pub v: Variant,
    pub threads: usize,
    pub shard: Option<Shard>,
    /// The endgame tables' probe and the evaluation of both engines.
    pub aids: crate::selfplay::Aids,
    pub rate_against: Option<RateRequest>,
    /// The endgame tables' materials, when the engines use tables.
    pub tables: Option<String>,
    /// The games of the run (of each rung of a ladder) this process plays.
    pub indices: Vec<u64>,
    /// The openings of `--openings` or `--balanced`.
    pub openings: Option<OpeningSet>,
}

/// The openings of `--openings FILE` (read and checked) or `--balanced`, for a run's settings.
pub(crate) fn opening_set(a: &RunArgs, v: &Variant) -> Result<Option<OpeningSet>, Diag> {
    if let Some(b) = crate::cli::matches::check_balanced(
        a.balanced,
        a.balance_depth,
        a.opening_plies,
        "--opening-plies",
    )? {
        return Ok(Some(OpeningSet {
            file: None,
            lines: Vec::new(),
            balanced: Some(b),
        }));
    }
    let Some(path) = &a.openings else {
        return Ok(None);
    };
    let openings = crate::matchplay::openings::read_file(&v.rules, path).map_err(Diag::new)?;
    if openings.len() as u64 > crate::limits::MAX_SELFPLAY_GAMES {
        return Err(bad(
            format!("`{}` holds {} openings", path.display(), openings.len()),
            &format!(
                "give at most {} openings",
                crate::limits::MAX_SELFPLAY_GAMES
            ),
        ));
    }
    Ok(Some(OpeningSet::of_file(
        &v.rules,
        &path.display().to_string(),
        &openings,
    )))
}

/// Every check of a run's arguments, before any game: the variant, the ranges and threads, the
/// shard, the evaluation, the rating's reference, the outputs, the memory of `runs` runs (a
/// ladder's rungs; 1 for a run), the endgame tables (opened, their line printed).
pub(crate) fn plan(a: &RunArgs, runs: u64, out: &mut dyn FnMut(&str)) -> Result<RunPlan, Diag> {
    let v = load(&a.variant)?;
    let threads = check_run_args(a)?;
    let shard = resolve_shard(a)?;
    let weights = if a.random {
        None
    } else {
        crate::search::weights::resolve(a.eval.as_deref(), &v.rules)?
    };
    let rate_against = crate::selfplay::strength::request(
        &v,
        a.rate_against.as_deref(),
        a.rate_games,
        a.random,
        a.eval.as_deref(),
    )?;
    check_outputs(a.json.as_deref(), a.svg.as_deref())?;
    if let Some(p) = &a.pdn {
        check_writable(p)?;
    }
    check_play_memory(
        a.games.saturating_mul(runs),
        shard.map(|s| (s.k, s.n)),
        threads,
        a.random,
        a.json.is_some(),
    )?;
    let openings = opening_set(a, &v)?;
    let (probe, tables) = open_tables(&v, a.tables.as_deref(), !a.no_tables && !a.random, out)?;
    let indices = shard_indices(a.games, shard.map(|s| (s.k, s.n)));
    Ok(RunPlan {
        v,
        threads,
        shard,
        aids: crate::selfplay::Aids { probe, weights },
        rate_against,
        tables,
        indices,
        openings,
    })
}

fn play(a: &RunArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    if let Some(spec) = &a.ladder {
        return ladder::play(a, spec, out);
    }
    if let Some(spec) = &a.configs {
        return configs::play(a, spec, out);
    }
    let RunPlan {
        v,
        threads,
        shard,
        aids,
        rate_against,
        tables,
        indices,
        openings,
    } = plan(a, 1, out)?;
    let settings = Settings {
        variant: v.name().to_string(),
        rules_fingerprint: v.rules.fingerprint(),
        games: a.games,
        depth: if a.random || a.nodes.is_some() {
            a.depth
        } else {
            Some(a.depth.unwrap_or(4))
        },
        nodes: a.nodes,
        random: a.random,
        seed: a.seed,
        max_plies: a.max_plies,
        opening_plies: a.opening_plies,
        eval: aids
            .weights
            .as_deref()
            .map(|w| crate::search::weights::describe(Some(w))),
        tables,
        contempt: a.contempt,
        openings,
    };
    let bar = crate::progress::Bar::new(indices.len() as u64, "games");
    let t = std::time::Instant::now();
    let pdn = a.pdn.is_some();
    let played =
        crate::selfplay::run_games(&v.rules, &settings, &indices, threads, pdn, aids, &|| {
            bar.inc(1)
        })
        .map_err(miette::Report::new)?;
    bar.finish();
    let Some(played) = played else {
        return Err(bad(
            "interrupted: no figures written",
            "run again; each game is seeded, so the same games are played",
        ));
    };
    let secs = t.elapsed().as_secs_f64();
    // Shard 1 plays the rating match (it is the same match in every shard).
    let rating = match &rate_against {
        Some(req) if shard.is_none_or(|s| s.k == 1) => {
            let r =
                crate::selfplay::strength::measure(&v, &settings, req, a.eval.as_deref(), threads)?;
            if r.is_none() {
                return Err(bad(
                    "interrupted while rating: no figures written",
                    "run again; each game is seeded, so the same games are played",
                ));
            }
            r
        }
        _ => None,
    };
    let shards = shard.map_or_else(ShardSet::whole, ShardSet::of);
    let mut file = RunFile::new(&v.rules, settings, shards, played.games);
    file.rate_against = rate_against;
    file.rating = rating;
    out(&header(&file));
    out(file.report.text().trim_end());
    let table = crate::selfplay::openings::file_text(&file);
    if !table.is_empty() {
        out(table.trim_end());
    }
    if let Some(line) = tables_line(&file) {
        out(&line);
    }
    if file.rate_against.is_some() {
        out(&crate::selfplay::strength::line(&file));
    }
    out(&format!(
        "time             {secs:.1} s ({:.1} games/s, {threads} threads)",
        file.games.len() as f64 / secs.max(1e-9)
    ));
    let outputs = Outputs {
        json: a.json.as_deref(),
        svg: a.svg.as_deref(),
        pdn: a.pdn.as_deref(),
    };
    write_outputs(&file, &outputs, &played.pdn.concat())
}

fn chart_files(paths: &[PathBuf], svg: &Path, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    check_writable(svg)?;
    if crate::selfplay::ladder_chart::chart_ladders(paths, svg, out)? {
        return Ok(());
    }
    if crate::selfplay::configs_files::chart(paths, svg, out)? {
        return Ok(());
    }
    let mut series: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for p in paths {
        let f = read_run(p)?;
        let depth = if f.settings.random {
            0
        } else {
            f.settings.depth.ok_or_else(|| {
                bad(
                    format!(
                        "`{}` was played with a node budget, not a depth",
                        p.display()
                    ),
                    "chart runs played with --depth or --random",
                )
            })?
        };
        let name = f.settings.variant.clone();
        // The records were checked against the stored figures on reading.
        let point = (depth, f.report.draws.rate);
        match series.iter_mut().find(|s| s.0 == name) {
            Some(s) => s.1.push(point),
            None => series.push((name, vec![point])),
        }
    }
    for (name, points) in &mut series {
        points.sort_by_key(|p| p.0);
        let cells: Vec<String> = points
            .iter()
            .map(|(d, r)| format!("depth {d}: {:.1}%", 100.0 * r))
            .collect();
        out(&format!("{name:<20} {}", cells.join("  ")));
    }
    let text = chart::draw_rate_svg(&series).map_err(|e| bad(e.to_string(), ""))?;
    Ok(crate::fsio::write_file(svg, text.as_bytes())?)
}
