//! The `analyse` and `selfplay` commands of the command line (argument parsing and output; the work
//! is in [`crate::search`] and [`super`]).

use super::{chart, fingerprint, shard_indices, Report, RunFile, Settings, FORMAT, VERSION};
use crate::notation::{move_to_string, parse_fen};
use crate::search::tables::EndgameTables;
use crate::search::{format_score, Info, Limits, Searcher, MAX_DEPTH};
use crate::{Rules, Variant};
use miette::{miette, Report as Diag};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most games one run may play.
pub const MAX_GAMES: u64 = 100_000_000;
/// The most threads a run may ask for.
pub const MAX_THREADS: usize = 1024;
/// The longest `--time` accepted, in seconds.
pub const MAX_SECONDS: f64 = 86_400.0;

#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// A bundled variant's name or a path to a rules file.
    pub variant: String,
    /// The position (FEN); the start position when absent.
    #[arg(long)]
    pub fen: Option<String>,
    /// Search to this depth (plies; default 10 when no --time).
    #[arg(long, conflicts_with = "time")]
    pub depth: Option<u32>,
    /// Search for this many seconds.
    #[arg(long)]
    pub time: Option<f64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Use the variant's endgame tables in this directory (as `damelab endgame --cache DIR`
    /// writes them): positions of their materials get their exact value.
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// The evaluation: `derived`, `bundled` or a weights file from `damelab train` (default:
    /// the bundled weights of these rules when there are any, else derived).
    #[arg(long)]
    pub eval: Option<String>,
}

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
    /// Combine the JSON files of shards into one report (and one JSON with --json).
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        json: Option<PathBuf>,
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// Draw the draw rate against search depth (random play as depth 0), one line per variant,
    /// from the JSON files of several runs.
    Chart {
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
    /// Random plies at the start of each game, for varied openings.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Play only the K-th of N disjoint slices of the games (K from 1): `--shard 2/8`.
    #[arg(long)]
    pub shard: Option<String>,
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
}

fn bad(msg: String, help: &str) -> Diag {
    miette!(help = help.to_string(), "{msg}")
}

fn load(variant: &str) -> Result<Variant, Diag> {
    Variant::load(variant).map_err(Diag::new)
}

/// `damelab analyse`: iterative deepening from a position, one line per depth.
pub fn analyse(args: &AnalyseArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let v = load(&args.variant)?;
    let pos = match &args.fen {
        Some(f) => parse_fen(&v.rules, f).map_err(|e| Diag::new_boxed(e))?,
        None => v.rules.start,
    };
    let limits = limits(args.depth, args.time, 10)?;
    if args.hash == 0 || args.hash > 65_536 {
        return Err(bad(
            format!("--hash {} is out of range", args.hash),
            "give a table size from 1 to 65536 MiB",
        ));
    }
    let mut s = Searcher::new(v.rules.clone(), args.hash);
    let weights = crate::search::weights::resolve(args.eval.as_deref(), &v.rules)?;
    if let Some(dir) = &args.tables {
        let t = std::sync::Arc::new(EndgameTables::open(&v.rules, dir)?);
        out(&format!(
            "endgame tables: {} materials in {}",
            t.len(),
            t.dir().display()
        ));
        s.set_probe(Some(t.probe()));
    }
    if weights.is_some() {
        out(&format!(
            "evaluation: {}",
            crate::search::weights::describe(weights.as_deref())
        ));
    }
    s.set_weights(weights);
    let r = s.search(&pos, &[], limits, &mut |i| out(&info_line(&v.rules, i)));
    match r.best {
        None => out(&format!(
            "no legal move: {}",
            crate::Game::from_position(v.rules.clone(), pos).describe_result()
        )),
        Some(m) => out(&format!(
            "best {}  score {}{}",
            move_to_string(&v.rules, &m),
            format_score(r.score),
            if r.stopped { "  (stopped)" } else { "" }
        )),
    }
    Ok(())
}

/// Depth and time limits from the user's numbers, checked.
pub fn limits(depth: Option<u32>, time: Option<f64>, default_depth: u32) -> Result<Limits, Diag> {
    if let Some(d) = depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(bad(
                format!("depth {d} is out of range"),
                &format!("give a depth from 1 to {MAX_DEPTH}"),
            ));
        }
    }
    if let Some(t) = time {
        if !(t > 0.0 && t <= MAX_SECONDS) {
            return Err(bad(
                format!("time {t} is out of range"),
                &format!("give a number of seconds above 0 and at most {MAX_SECONDS}"),
            ));
        }
    }
    Ok(Limits {
        depth: depth.or(time.is_none().then_some(default_depth)),
        nodes: None,
        time: time.map(Duration::from_secs_f64),
    })
}

/// One line of search output: depth, score, nodes, time, principal variation.
pub fn info_line(rules: &Rules, i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|m| move_to_string(rules, m)).collect();
    let secs = i.elapsed.as_secs_f64();
    format!(
        "depth {:>2}  score {:>9}  nodes {:>10}  {:>7.3} s  {:>6.0} kn/s  pv {}",
        i.depth,
        format_score(i.score),
        i.nodes,
        secs,
        i.nodes as f64 / secs.max(1e-6) / 1e3,
        pv.join(" ")
    )
}

/// Write a file whole or not at all: into a temporary file beside it, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Diag> {
    let tmp = temp_path(path);
    let res = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(bad(
            format!("cannot write `{}`: {e}", path.display()),
            "give a path in a folder you can write to",
        ));
    }
    Ok(())
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.tmp{}", std::process::id()))
}

/// Check before any work that a file can be written there (nothing is left behind).
fn check_writable(path: &Path) -> Result<(), Diag> {
    if path.is_dir() {
        return Err(bad(
            format!("cannot write `{}`: it is a folder", path.display()),
            "give a file path",
        ));
    }
    let tmp = temp_path(path);
    match std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(e) => Err(bad(
            format!("cannot write `{}`: {e}", path.display()),
            "give a path in a folder you can write to",
        )),
    }
}

fn parse_shard(text: &str) -> Result<(u64, u64), Diag> {
    let err = || {
        bad(
            format!("`{text}` is not a shard"),
            "write K/N with 1 <= K <= N, e.g. `--shard 2/8`",
        )
    };
    let (k, n) = text.split_once('/').ok_or_else(err)?;
    let k: u64 = k.trim().parse().map_err(|_| err())?;
    let n: u64 = n.trim().parse().map_err(|_| err())?;
    if k == 0 || n == 0 || k > n {
        return Err(err());
    }
    Ok((k, n))
}

/// `damelab selfplay`: play, or merge.
pub fn selfplay(args: &SelfplayArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    match (&args.merge, &args.run) {
        (Some(MergeCommand::Merge { files, json, svg }), _) => {
            merge(files, json.as_deref(), svg.as_deref(), out)
        }
        (Some(MergeCommand::Chart { files, svg }), _) => chart_files(files, svg, out),
        (None, Some(run)) => play(run, out),
        (None, None) => Err(bad(
            "`selfplay` needs a variant and --games".into(),
            "e.g. `damelab selfplay dameo --games 100 --depth 4`",
        )),
    }
}

fn play(a: &RunArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let v = load(&a.variant)?;
    if a.games == 0 || a.games > MAX_GAMES {
        return Err(bad(
            format!("--games {} is out of range", a.games),
            &format!("give a number of games from 1 to {MAX_GAMES}"),
        ));
    }
    if let Some(d) = a.depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(bad(
                format!("--depth {d} is out of range"),
                &format!("give a depth from 1 to {MAX_DEPTH}"),
            ));
        }
    }
    if a.nodes == Some(0) {
        return Err(bad(
            "--nodes 0 is out of range".into(),
            "give at least 1 node",
        ));
    }
    let threads = match a.threads {
        Some(0) => {
            return Err(bad(
                "--threads 0 is out of range".into(),
                &format!("give from 1 to {MAX_THREADS} threads"),
            ))
        }
        Some(t) if t > MAX_THREADS => {
            return Err(bad(
                format!("--threads {t} is out of range"),
                &format!("give from 1 to {MAX_THREADS} threads"),
            ))
        }
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if a.max_plies == 0 {
        return Err(bad(
            "--max-plies 0 is out of range".into(),
            "give at least 1",
        ));
    }
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    let weights = if a.random {
        None
    } else {
        crate::search::weights::resolve(a.eval.as_deref(), &v.rules)?
    };
    for p in [&a.json, &a.svg].into_iter().flatten() {
        check_writable(p)?;
    }
    let settings = Settings {
        variant: v.name().to_string(),
        rules_fingerprint: fingerprint(&v.rules),
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
        eval: weights
            .as_deref()
            .map(|w| crate::search::weights::describe(Some(w))),
    };
    let indices = shard_indices(a.games, shard);
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        indicatif::ProgressBar::new(indices.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let t = std::time::Instant::now();
    let games = super::run_weighted(
        &v.rules,
        &settings,
        &indices,
        threads,
        &|| bar.inc(1),
        weights,
    )
    .map_err(|e| bad(e, "give fewer threads"))?;
    bar.finish_and_clear();
    let Some(games) = games else {
        return Err(bad(
            "interrupted: no figures written".into(),
            "run again; each game is seeded, so the same games are played",
        ));
    };
    let report = Report::from_games(&v.rules, &games);
    let secs = t.elapsed().as_secs_f64();
    let file = RunFile {
        format: FORMAT.into(),
        version: VERSION,
        settings,
        shards: shard
            .map(|(k, n)| vec![format!("{k}/{n}")])
            .unwrap_or_default(),
        report,
        games,
    };
    out(&header(&file));
    out(file.report.text().trim_end());
    out(&format!(
        "time             {secs:.1} s ({:.1} games/s, {threads} threads)",
        file.games.len() as f64 / secs.max(1e-9)
    ));
    write_outputs(&file, a.json.as_deref(), a.svg.as_deref())
}

fn header(f: &RunFile) -> String {
    let s = &f.settings;
    let player = if s.random {
        "random moves".to_string()
    } else {
        match (s.depth, s.nodes) {
            (Some(d), Some(n)) => format!("depth {d}, {n} nodes"),
            (Some(d), None) => format!("depth {d}"),
            (None, Some(n)) => format!("{n} nodes"),
            (None, None) => "engine".into(),
        }
    };
    let shards = if f.shards.is_empty() {
        String::new()
    } else {
        format!(", shards {}", f.shards.join(" "))
    };
    let player = match &s.eval {
        Some(e) => format!("{player}, {e} evaluation"),
        None => player,
    };
    format!(
        "{}: {} of {} games, {player}, seed {}, {} random opening plies, cap {} plies{shards}",
        s.variant,
        f.games.len(),
        s.games,
        s.seed,
        s.opening_plies,
        s.max_plies
    )
}

fn write_outputs(file: &RunFile, json: Option<&Path>, svg: Option<&Path>) -> Result<(), Diag> {
    if let Some(p) = json {
        let text = serde_json::to_string_pretty(file)
            .map_err(|e| bad(format!("cannot write the figures as JSON: {e}"), ""))?;
        write_atomic(p, text.as_bytes())?;
    }
    if let Some(p) = svg {
        let title = header(file);
        let text = chart::svg(&title, &file.report, &file.games).map_err(|e| bad(e, ""))?;
        write_atomic(p, text.as_bytes())?;
    }
    Ok(())
}

/// Read a run file written by `--json`, checked for format and version.
pub fn read_run(path: &Path) -> Result<RunFile, Diag> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        bad(
            format!("cannot read `{}`: {e}", path.display()),
            "give the JSON files written by `selfplay --json`",
        )
    })?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        bad(
            format!("`{}` is not JSON: {e}", path.display()),
            "give the JSON files written by `selfplay --json`",
        )
    })?;
    let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
    let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
    if format != FORMAT || version != VERSION as u64 {
        return Err(bad(
            format!(
                "`{}` is not a self-play file of version {VERSION} (format `{format}`, version {version})",
                path.display()
            ),
            "merge files written by this version of `damelab selfplay --json`",
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        bad(
            format!("`{}` is not a valid self-play file: {e}", path.display()),
            "merge files written by `damelab selfplay --json`",
        )
    })
}

/// Merge run files: the same settings, disjoint games; the report is recomputed from the games.
pub fn merge_files(files: &[RunFile], rules: &Rules) -> Result<RunFile, Diag> {
    let first = &files[0];
    let mut games = Vec::new();
    let mut shards = Vec::new();
    for f in files {
        if f.settings != first.settings {
            return Err(bad(
                format!(
                    "the files were not played with the same settings: {:?} differs from {:?}",
                    f.settings, first.settings
                ),
                "merge only shards of one run (same variant, rules, games, depth, seed, caps)",
            ));
        }
        games.extend(f.games.iter().cloned());
        shards.extend(f.shards.iter().cloned());
    }
    games.sort_by_key(|g| g.i);
    if let Some(w) = games.windows(2).find(|w| w[0].i == w[1].i) {
        return Err(bad(
            format!("game {} appears in more than one file", w[0].i),
            "merge each shard once",
        ));
    }
    let whole = games.len() as u64 == first.settings.games;
    shards.sort();
    Ok(RunFile {
        format: FORMAT.into(),
        version: VERSION,
        settings: first.settings.clone(),
        shards: if whole { Vec::new() } else { shards },
        report: Report::from_games(rules, &games),
        games,
    })
}

fn merge(
    paths: &[PathBuf],
    json: Option<&Path>,
    svg: Option<&Path>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Diag> {
    for p in [json, svg].into_iter().flatten() {
        check_writable(p)?;
    }
    let files = paths
        .iter()
        .map(|p| read_run(p))
        .collect::<Result<Vec<_>, _>>()?;
    let v = load(&files[0].settings.variant)?;
    if fingerprint(&v.rules) != files[0].settings.rules_fingerprint {
        return Err(bad(
            format!(
                "the rules of `{}` changed since the files were written",
                files[0].settings.variant
            ),
            "merge with the rules the games were played under",
        ));
    }
    let merged = merge_files(&files, &v.rules)?;
    out(&header(&merged));
    out(merged.report.text().trim_end());
    write_outputs(&merged, json, svg)
}

fn chart_files(paths: &[PathBuf], svg: &Path, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    check_writable(svg)?;
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
    let text = chart::draw_rate_svg(&series).map_err(|e| bad(e, ""))?;
    write_atomic(svg, text.as_bytes())
}
