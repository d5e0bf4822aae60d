//! `damelab explore BASE.rules --vary 'CLAUSE: W1 | W2' …`: every combination checked, the legal
//! ones played, a ranked table; resumable from its `--json`, sharded, `explore merge`. The work is
//! in [`crate::selfplay::explore`].

use crate::cli::selfplay::configs::{parse_list, Config};
use crate::cli::selfplay::{check_game_args, check_limits, check_threads};
use crate::runs::shard::{self, ShardSet, Stamp};
use crate::selfplay::explore::{
    self, EngineConfig, ExploreFile, ExploreSettings, Explored, FORMAT, METRICS, VERSION,
};
use crate::util::bad;
use crate::Variant;
use miette::Report as Diag;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ExploreArgs {
    #[command(subcommand)]
    pub merge: Option<ExploreMerge>,
    #[command(flatten)]
    pub run: Option<ExploreRun>,
}

#[derive(clap::Subcommand, Debug)]
pub enum ExploreMerge {
    /// Combine the JSON files of an exploration's shards into one (the figures of the whole).
    Merge {
        /// The shards' JSON files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged exploration as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Merge even when shards are missing.
        #[arg(long)]
        partial: bool,
        /// The metric the table is ranked by: balance, draws, decisiveness, length, drama.
        #[arg(long, default_value = "balance")]
        rank_by: String,
    },
}

#[derive(clap::Args, Debug)]
pub struct ExploreRun {
    /// The base rules file.
    pub base: PathBuf,
    /// A clause to vary and its words, `CLAUSE: W1 | W2 …` (the base's word among them);
    /// repeated for more clauses.
    #[arg(long)]
    pub vary: Vec<String>,
    /// More --vary, one a line (`#` starts a comment line).
    #[arg(long, value_name = "FILE")]
    pub vary_file: Option<PathBuf>,
    /// Games of each combination (under each configuration).
    #[arg(long, default_value_t = 20)]
    pub games: u64,
    /// Search depth (default 4 unless --nodes or --configs).
    #[arg(long, conflicts_with_all = ["nodes", "configs"])]
    pub depth: Option<u32>,
    /// Node budget per move.
    #[arg(long, conflicts_with = "configs")]
    pub nodes: Option<u64>,
    /// The evaluation: `derived` (default: learned weights fit the base, not its neighbours),
    /// `bundled` or a weights file.
    #[arg(long, default_value = "derived", conflicts_with = "configs")]
    pub eval: String,
    /// Several engine configurations, `;` between them (as `selfplay --configs`): each figure
    /// under each, marked `!` (engine-dependent) when their intervals do not meet.
    #[arg(long, value_name = "CONFIG; CONFIG…")]
    pub configs: Option<String>,
    /// Seed of the games (the same seed plays the same openings under every combination).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Games longer than this many plies end as draws.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// The most combinations to build: a larger space is refused before any game.
    #[arg(long, default_value_t = 16)]
    pub max_variants: usize,
    /// The most games in all (combinations × configurations × games): a larger budget is
    /// refused before any game.
    #[arg(long, default_value_t = 100_000)]
    pub max_games: u64,
    /// Threads (default: every core). The figures do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write (and resume from) this file: the settings, every finished combination's games.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// `K/N` or `auto`, as `selfplay --shard`: this process plays the K-th slice of every
    /// combination's games.
    #[arg(long)]
    pub shard: Option<String>,
    /// The number of shards for `--shard auto` where the scheduler does not say it.
    #[arg(long)]
    pub shards: Option<u64>,
    /// The metric the table is ranked by: balance, draws, decisiveness, length, drama.
    #[arg(long, default_value = "balance")]
    pub rank_by: String,
}

/// Read a text file, the error naming it.
fn read_named(path: &Path, kind: crate::fsio::Kind) -> Result<String, Diag> {
    crate::fsio::read_text(path, kind).map_err(|e| {
        bad(
            format!("cannot read `{}`: {e}", path.display()),
            "give a readable file",
        )
    })
}

fn rank_index(name: &str) -> Result<usize, Diag> {
    METRICS.iter().position(|m| *m == name).ok_or_else(|| {
        bad(
            format!("--rank-by {name} is not a metric"),
            &format!("give one of {}", METRICS.join(", ")),
        )
    })
}

pub fn explore(a: &ExploreArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    match (&a.merge, &a.run) {
        (
            Some(ExploreMerge::Merge {
                files,
                json,
                partial,
                rank_by,
            }),
            _,
        ) => merge(files, json.as_deref(), *partial, rank_index(rank_by)?, out),
        (None, Some(r)) => run(r, out),
        (None, None) => Err(bad(
            "`explore` needs a base rules file and --vary",
            "e.g. `damelab explore my.rules --vary 'captures: priority most pieces | free'`",
        )),
    }
}

/// The settings of the run, checked: varies, configurations.
fn settings_of(a: &ExploreRun, base: &Variant) -> Result<ExploreSettings, Diag> {
    let mut texts = a.vary.clone();
    if let Some(f) = &a.vary_file {
        let t = read_named(f, crate::fsio::Kind::List)?;
        texts.extend(
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from),
        );
    }
    if texts.is_empty() {
        return Err(bad(
            "the space is empty: no --vary given",
            "give at least one --vary 'CLAUSE: W1 | W2'",
        ));
    }
    let varies = texts
        .iter()
        .map(|t| explore::parse_vary(t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Diag::new)?;
    let configs: Vec<Config> = match &a.configs {
        Some(spec) => parse_list(spec)?,
        None => {
            check_limits(a.depth, a.nodes)?;
            vec![Config {
                label: "the engine".into(),
                depth: if a.nodes.is_some() {
                    a.depth
                } else {
                    Some(a.depth.unwrap_or(4))
                },
                nodes: a.nodes,
                eval: Some(a.eval.clone()),
            }]
        }
    };
    Ok(ExploreSettings {
        base: a.base.display().to_string(),
        base_fingerprint: base.rules.fingerprint(),
        varies,
        games: a.games,
        seed: a.seed,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        configs: configs
            .into_iter()
            .map(|c| EngineConfig {
                label: c.label,
                depth: c.depth,
                nodes: c.nodes,
                eval: c.eval.unwrap_or_else(|| "derived".into()),
            })
            .collect(),
        first_side: base.rules.spec.first_to_move as i8,
    })
}

fn run(a: &ExploreRun, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let rank = rank_index(&a.rank_by)?;
    let base_text = read_named(&a.base, crate::fsio::Kind::Rules)?;
    let base = Variant::load(&a.base.display().to_string()).map_err(|e| {
        bad(
            format!("the base `{}` does not check: {e}", a.base.display()),
            "run `damelab check` on it and explore from a base that checks",
        )
    })?;
    if a.games == 0 || a.games > crate::limits::MAX_SELFPLAY_GAMES {
        return Err(bad(
            format!("--games {} is out of range", a.games),
            "give at least 1 game",
        ));
    }
    check_game_args(a.max_plies, 0)?;
    let threads = check_threads(a.threads)?;
    let settings = settings_of(a, &base)?;
    let combos = explore::space(&base_text, &settings.varies, a.max_variants).map_err(Diag::new)?;
    let budget = (combos.len() as u64)
        .saturating_mul(settings.configs.len() as u64)
        .saturating_mul(a.games);
    if budget > a.max_games {
        return Err(bad(
            format!(
                "the space needs {budget} games ({} combinations × {} configurations × {} games), \
                 more than --max-games {}",
                combos.len(),
                settings.configs.len(),
                a.games,
                a.max_games
            ),
            "vary fewer words, play fewer games, or raise --max-games",
        ));
    }
    let shard = shard::resolve(a.shard.as_deref(), a.shards, &|n| std::env::var(n).ok())
        .map_err(Diag::new)?;
    let shards = shard.map_or_else(ShardSet::whole, ShardSet::of);
    let indices = crate::selfplay::shard_indices(a.games, shard.map(|s| (s.k, s.n)));
    if let Some(j) = &a.json {
        crate::selfplay::file::check_writable(j)?;
    }
    // Every combination checked before any game.
    let file_name = a.base.display().to_string();
    let mut checked: Vec<(Explored, Option<Variant>)> = Vec::new();
    for c in &combos {
        let name = base.name().to_string();
        let e = Explored {
            name: c.name.clone(),
            choice: c.choice.clone(),
            illegal: None,
            fingerprint: None,
            games: Vec::new(),
        };
        match Variant::from_source(&file_name, &name, &c.text, None) {
            Ok(v) => checked.push((
                Explored {
                    fingerprint: Some(v.rules.fingerprint()),
                    ..e
                },
                Some(v),
            )),
            Err(err) => checked.push((
                Explored {
                    illegal: Some(flat_diagnostic(&err)),
                    ..e
                },
                None,
            )),
        }
    }
    let legal = checked.iter().filter(|c| c.1.is_some()).count();
    out(&format!(
        "explore {}: {} combinations, {legal} legal, {} games each under {} configuration{}, seed {}",
        a.base.display(),
        combos.len(),
        a.games,
        settings.configs.len(),
        if settings.configs.len() == 1 { "" } else { "s" },
        a.seed
    ));
    // Resume: the finished combinations of an earlier run of the same exploration.
    let mut file = ExploreFile {
        format: FORMAT.into(),
        version: VERSION,
        damelab: shard::DAMELAB_VERSION.into(),
        settings: settings.clone(),
        shards,
        variants: checked.iter().map(|c| c.0.clone()).collect(),
        table: Vec::new(),
    };
    if let Some(j) = a.json.as_deref().filter(|j| j.exists()) {
        let old = read(j)?;
        if old.settings != file.settings || old.shards != file.shards || old.damelab != file.damelab
        {
            return Err(bad(
                format!(
                    "`{}` holds another exploration (other settings, shard or build)",
                    j.display()
                ),
                "give another --json, or remove it to start again",
            ));
        }
        for (v, o) in file.variants.iter_mut().zip(old.variants) {
            if o.name == v.name && o.fingerprint == v.fingerprint {
                v.games = o.games;
            }
        }
        let kept = file.variants.iter().filter(|v| !v.games.is_empty()).count();
        out(&format!(
            "resuming from {}: {kept} combinations kept",
            j.display()
        ));
    }
    for (k, (_, v)) in checked.iter().enumerate() {
        let Some(v) = v else { continue };
        for (ci, c) in settings.configs.iter().enumerate() {
            if file.variants[k].games.len() > ci {
                continue;
            }
            let weights = crate::search::weights::resolve(Some(&c.eval), &v.rules)?;
            let eval = Some(crate::search::weights::describe(weights.as_deref()));
            let s = explore::run_settings(v, &settings, c, eval);
            let bar = crate::progress::Bar::new(indices.len() as u64, &file.variants[k].name);
            let played = explore::play(&v.rules, &s, weights, &indices, threads, &|| bar.inc(1))
                .map_err(Diag::new)?;
            bar.finish();
            let Some(games) = played else {
                return Err(bad(
                    "interrupted: the finished combinations are kept in --json",
                    "run the same command again to resume",
                ));
            };
            file.variants[k].games.push(games);
            if let Some(j) = &a.json {
                file.table = explore::table(&file, rank);
                write(j, &file)?;
            }
        }
    }
    file.table = explore::table(&file, rank);
    out(explore::text(&file, rank).trim_end());
    if let Some(j) = &a.json {
        write(j, &file)?;
    }
    Ok(())
}

/// A checker's diagnostic on one line: its message and those of its parts.
fn flat_diagnostic(e: &crate::variant::LoadError) -> String {
    let mut parts = vec![e.to_string()];
    if let Some(related) = miette::Diagnostic::related(e) {
        parts.extend(related.map(|r| r.to_string()));
    }
    parts.join("; ")
}

fn read(path: &Path) -> Result<ExploreFile, Diag> {
    let text = read_named(path, crate::fsio::Kind::RunJson)?;
    let f: ExploreFile = serde_json::from_str(&text).map_err(|e| {
        bad(
            format!("`{}` is not an exploration's JSON: {e}", path.display()),
            "give the files `explore --json` wrote",
        )
    })?;
    if f.format != FORMAT || f.version != VERSION {
        return Err(bad(
            format!(
                "`{}` is not a {FORMAT} file of version {VERSION}",
                path.display()
            ),
            "give the files `explore --json` wrote",
        ));
    }
    Ok(f)
}

fn write(path: &Path, f: &ExploreFile) -> Result<(), Diag> {
    let text = serde_json::to_string_pretty(f).map_err(|e| bad(e.to_string(), ""))?;
    Ok(crate::fsio::write_file(path, text.as_bytes())?)
}

fn merge(
    files: &[PathBuf],
    json: Option<&Path>,
    partial: bool,
    rank: usize,
    out: &mut dyn FnMut(&str),
) -> Result<(), Diag> {
    let read_all: Vec<ExploreFile> = files.iter().map(|p| read(p)).collect::<Result<_, _>>()?;
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let stamps: Vec<Stamp> = read_all
        .iter()
        .zip(&names)
        .map(|(f, n)| Stamp {
            name: n,
            format: &f.format,
            version: f.version,
            damelab: &f.damelab,
            settings: serde_json::to_value(&f.settings).unwrap_or_default(),
            shards: &f.shards,
        })
        .collect();
    let set = shard::check_mergeable(&stamps).map_err(Diag::new)?;
    let first = &read_all[0];
    shard::require_whole(&set, first.settings.games, partial).map_err(Diag::new)?;
    let configs = first.settings.configs.len();
    let mut variants = first.variants.clone();
    for v in &mut variants {
        v.games = vec![Vec::new(); if v.illegal.is_some() { 0 } else { configs }];
    }
    for (f, n) in read_all.iter().zip(&names) {
        if f.variants.len() != variants.len() {
            return Err(bad(
                format!("`{n}` holds another space of combinations"),
                "merge the shards of one exploration",
            ));
        }
        for (m, v) in variants.iter_mut().zip(&f.variants) {
            if v.illegal.is_none() && v.games.len() != configs {
                return Err(bad(
                    format!("`{n}`: combination `{}` is unfinished", v.name),
                    "finish the shard (run its command again) before merging",
                ));
            }
            for (dst, src) in m.games.iter_mut().zip(&v.games) {
                dst.extend(src.iter().cloned());
            }
        }
    }
    for v in &mut variants {
        for g in &mut v.games {
            g.sort_by_key(|x| x.record.i);
        }
    }
    // Every shard merged is the whole run, and says so as the single run does: the merged file
    // equals the single run's, byte for byte.
    let shards = if set.is_whole() {
        ShardSet::whole()
    } else {
        set
    };
    let mut merged = ExploreFile {
        shards,
        variants,
        table: Vec::new(),
        ..first.clone()
    };
    merged.table = explore::table(&merged, rank);
    out(explore::text(&merged, rank).trim_end());
    if let Some(j) = json {
        write(j, &merged)?;
    }
    Ok(())
}
