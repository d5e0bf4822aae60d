//! The `match` command: arguments, checks (absurd settings are refused before any game), the
//! progress line, the standings, the PDN and JSON outputs.

use crate::matchplay::engine::{EngineSpec, Internal};
use crate::matchplay::file::{MatchFile, MatchSettings, FORMAT, VERSION};
use crate::matchplay::openings::Balance;
use crate::matchplay::standings::{standings, standings_text};
use crate::matchplay::stats::{Sprt, Verdict};
use crate::matchplay::{jobs, run, Config, Control, Finish, GameRecord};
use crate::runs::shard::ShardSet;
use crate::search::tables::EndgameTables;
use crate::util::bad;
use crate::Variant;
use miette::Report as Diag;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::limits::{MAX_MATCH_CONCURRENCY as MAX_CONCURRENCY, MAX_MATCH_GAMES as MAX_GAMES};

/// `damelab match`: play a match (or a shard of one), or merge the shards' files.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchCommand {
    #[command(subcommand)]
    pub merge: Option<MergeCommand>,
    #[command(flatten)]
    pub run: Option<MatchArgs>,
}

#[derive(clap::Subcommand, Debug)]
pub enum MergeCommand {
    /// Combine the JSON files of a match's shards into its standings (and one JSON with --json);
    /// with --pdn, their PDN files (given among the files, `*.pdn`) into one PDN in game order.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        json: Option<PathBuf>,
        /// Write the games of the PDN files given, in game order.
        #[arg(long)]
        pdn: Option<PathBuf>,
        /// Merge even when shards are missing: the standings of the shards present, marked partial.
        #[arg(long)]
        partial: bool,
        /// The rules file the games were played under, for rules that are not a bundled variant
        /// (checked against the rules fingerprint the files record).
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
}

#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// A bundled variant's name or a path to a rules file.
    pub variant: String,
    /// An engine's settings, `key=value` separated by blanks (give two or more):
    /// `name=NAME` and a limit `depth=N`, `nodes=N`, `movetime=SECONDS` or `tc=SECONDS+INC`;
    /// `hash=MIB`, `eval=FILE`, `option.NAME=VALUE` (search options); `cmd="COMMAND LINE"` for an
    /// external Hub engine, `margin=SECONDS` it may overrun its time.
    #[arg(long = "engine", value_name = "SETTINGS", required = true)]
    pub engines: Vec<String>,
    /// Settings every engine shares (given before each engine's own).
    #[arg(long, value_name = "SETTINGS")]
    pub each: Vec<String>,
    /// Games of each pairing of engines (played in pairs: an opening with both colours).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Openings: a file of FEN lines or of PDN games (their moves played out), used in turn.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Without --openings: this many seeded random plies from the start make each opening.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Keep only random openings that a search of --balance-depth plies (with the rules' default
    /// evaluation) scores within this many men either way; the others are drawn again.
    #[arg(long, value_name = "MEN", conflicts_with = "openings")]
    pub balanced: Option<f64>,
    /// The depth of --balanced's search.
    #[arg(long, default_value_t = 8, value_name = "PLIES", requires = "balanced")]
    pub balance_depth: u32,
    /// Seed of the random openings (with node or depth limits, the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each game has its own engines).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Games reaching this many plies are adjudicated drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Adjudicate by the variant's endgame tables in this directory, and give them to damelab's
    /// own engines (default: the cache of `damelab endgame`, when it holds tables of the variant).
    #[arg(long, conflicts_with = "no_tables")]
    pub tables: Option<PathBuf>,
    /// Never adjudicate by endgame tables, and play damelab's own engines without them.
    #[arg(long)]
    pub no_tables: bool,
    /// Adjudicate a win when both engines' scores agree on it by at least this many men…
    #[arg(long, value_name = "MEN")]
    pub adjudicate_score: Option<f64>,
    /// … for this many plies in a row.
    #[arg(long, default_value_t = 6, value_name = "PLIES")]
    pub adjudicate_plies: u32,
    /// Stop when a sequential test decides, e.g. `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`
    /// (two engines only).
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Write every finished game here as PDN, with each move's score and depth.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Write the settings, the games and the standings as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Play only the K-th of N disjoint slices of the openings (K from 1), each opening's games
    /// (both colours, every pairing) kept together: `--shard 2/8`; or `--shard auto`: the shard
    /// of this task of a Slurm array job or Kubernetes indexed job. Not with --sprt.
    #[arg(long, conflicts_with = "sprt")]
    pub shard: Option<String>,
    /// The number of shards for `--shard auto` where the scheduler does not say it (Kubernetes;
    /// or the DAMELAB_SHARDS variable).
    #[arg(long)]
    pub shards: Option<u64>,
}

fn parse_sprt(words: &[String]) -> Result<Sprt, Diag> {
    let help = "write `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05` (any of the four; those are the defaults)";
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for w in words {
        let Some((k, v)) = w.split_once('=') else {
            return Err(bad(format!("`{w}` is not an SPRT setting"), help));
        };
        let x: f64 = v
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{w}`: `{v}` is not a number"), help))?;
        match k.trim() {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            "beta" => s.beta = x,
            _ => return Err(bad(format!("unknown SPRT setting `{k}`"), help)),
        }
    }
    if !(s.elo0.is_finite() && s.elo1.is_finite() && s.elo0 < s.elo1 && s.elo1 - s.elo0 <= 2000.0) {
        return Err(bad(
            format!("the SPRT needs elo0 < elo1 (got {} and {})", s.elo0, s.elo1),
            help,
        ));
    }
    for (n, x) in [("alpha", s.alpha), ("beta", s.beta)] {
        if !(x > 0.0 && x < 0.5) {
            return Err(bad(
                format!("the SPRT's {n} {x} is out of range"),
                "give an error rate above 0 and below 0.5",
            ));
        }
    }
    Ok(s)
}

/// The ranges of a match's numbers.
fn check_numbers(a: &MatchArgs) -> Result<(), Diag> {
    if a.games == 0 || a.games > MAX_GAMES {
        return Err(bad(
            format!("--games {} is out of range", a.games),
            &format!("give from 1 to {MAX_GAMES} games per pairing"),
        ));
    }
    if a.concurrency == 0 || a.concurrency > MAX_CONCURRENCY {
        return Err(bad(
            format!("--concurrency {} is out of range", a.concurrency),
            &format!("give from 1 to {MAX_CONCURRENCY} games at once"),
        ));
    }
    if a.max_plies == 0 || a.max_plies > 100_000 {
        return Err(bad(
            format!("--max-plies {} is out of range", a.max_plies),
            "give from 1 to 100000 plies",
        ));
    }
    if a.random_plies > 1000 {
        return Err(bad(
            format!("--random-plies {} is out of range", a.random_plies),
            "give at most 1000 plies",
        ));
    }
    Ok(())
}

/// The engines of `--engine` (over `--each`), each named, no two alike.
fn parse_engines(a: &MatchArgs) -> Result<Vec<EngineSpec>, Diag> {
    if a.engines.len() < 2 {
        return Err(bad(
            format!(
                "a match needs two or more engines; {} given",
                a.engines.len()
            ),
            "give `--engine \"name=A nodes=10000\" --engine \"name=B nodes=10000\"`",
        ));
    }
    let engine_help = "write an engine as `--engine \"name=A movetime=0.1 option.NAME=VALUE\"` (see `damelab match --help`)";
    let mut engines = Vec::new();
    for (i, text) in a.engines.iter().enumerate() {
        let mut spec =
            EngineSpec::parse(&a.each, text).map_err(|e| bad(e.to_string(), engine_help))?;
        if spec.name.is_empty() {
            spec.name = format!("engine{}", i + 1);
        }
        engines.push(spec);
    }
    for i in 0..engines.len() {
        if engines[..i].iter().any(|e| e.name == engines[i].name) {
            return Err(bad(
                format!("two engines are named `{}`", engines[i].name),
                "give each engine its own `name=`",
            ));
        }
    }
    Ok(engines)
}

/// `--balanced MEN` with `--balance-depth PLIES` over `plies` random plies (given by the option
/// `plies_flag`): the bound in hundredths of a man and the depth, checked.
pub(crate) fn check_balanced(
    balanced: Option<f64>,
    depth: u32,
    plies: u32,
    plies_flag: &str,
) -> Result<Option<(i32, u32)>, Diag> {
    match balanced {
        None => Ok(None),
        Some(m) if m > 0.0 && m <= 250.0 && (1..=30).contains(&depth) => {
            if plies == 0 {
                return Err(bad(
                    format!("--balanced with {plies_flag} 0: every opening is the start position"),
                    "give the random plies that --balanced should choose among (e.g. 6)",
                ));
            }
            Ok(Some(((m * 100.0).round() as i32, depth)))
        }
        Some(m) => Err(bad(
            format!("--balanced {m} with --balance-depth {depth} is out of range"),
            "give a score above 0 men (e.g. 0.5) and a depth from 1 to 30",
        )),
    }
}

/// Every check of a match's arguments, before any game or file: the ranges, the engines (and
/// damelab's own engines' options and evaluation files), the openings, the tables, the outputs,
/// the shard; the match's configuration and the games this process plays.
fn plan(a: &MatchArgs) -> Result<MatchPlan, Diag> {
    let v = Variant::load(&a.variant).map_err(Diag::new)?;
    check_numbers(a)?;
    let balance = check_balanced(
        a.balanced,
        a.balance_depth,
        a.random_plies,
        "--random-plies",
    )?
    .map(|(score, depth)| Balance::new(&v.rules, score, depth));
    let adjudicate = match a.adjudicate_score {
        None => None,
        Some(s) if s > 0.0 && s <= 250.0 && a.adjudicate_plies > 0 => {
            Some(((s * 100.0).round() as i32, a.adjudicate_plies))
        }
        Some(s) => {
            return Err(bad(
                format!(
                    "--adjudicate-score {s} with --adjudicate-plies {} is out of range",
                    a.adjudicate_plies
                ),
                "give a score above 0 men (e.g. 3) and at least 1 ply",
            ))
        }
    };
    let engines = parse_engines(a)?;
    let sprt = a.sprt.as_deref().map(parse_sprt).transpose()?;
    let shard = crate::runs::shard::resolve(a.shard.as_deref(), a.shards, &|name| {
        std::env::var(name).ok()
    })
    .map_err(Diag::new)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(bad(
            format!("--sprt compares two engines; {} given", engines.len()),
            "give exactly two engines with --sprt",
        ));
    }
    // damelab's own engines: their options and evaluation files are checked now, once.
    for e in engines.iter().filter(|e| e.cmd.is_none()) {
        Internal::new(&v.rules, e)
            .map_err(|m| bad(m.to_string(), "see `damelab match --help` for the settings"))?;
    }
    if engines.iter().any(|e| e.cmd.is_some()) {
        crate::hub::protocol::position_to_hub(&v.rules, &v.rules.start).map_err(|m| {
            bad(
                m.to_string(),
                "play this variant with damelab's own engines only",
            )
        })?;
    }
    let openings = match &a.openings {
        Some(p) => crate::matchplay::openings::read_file(&v.rules, p).map_err(Diag::new)?,
        None => Vec::new(),
    };
    let tables = if a.no_tables {
        None
    } else {
        match &a.tables {
            Some(dir) => Some(Arc::new(EndgameTables::open(&v.rules, dir)?)),
            None => EndgameTables::in_cache(&v.rules)?.map(Arc::new),
        }
    };
    for p in [&a.pdn, &a.json].into_iter().flatten() {
        check_writable(p)?;
    }
    let cfg = Config {
        variant: v.name().to_string(),
        hub_variant: v
            .path
            .as_ref()
            .map_or_else(|| v.name().to_string(), |p| p.display().to_string()),
        rules: v.rules.clone(),
        engines,
        games: a.games,
        openings,
        random_plies: a.random_plies,
        balance,
        seed: a.seed,
        max_plies: a.max_plies,
        tables: tables.clone(),
        adjudicate,
        concurrency: a.concurrency,
    };
    let all = jobs(&cfg);
    let pairs = crate::matchplay::pairs(&cfg);
    if let Some(s) = shard {
        if s.n > pairs {
            return Err(bad(
                format!(
                    "--shard {s}: the match has {pairs} pairs of games (openings) to share out, \
                     fewer than {} shards",
                    s.n
                ),
                "give at most as many shards as pairs of games (half of --games, rounded up)",
            ));
        }
    }
    let jobs = match shard {
        Some(s) => crate::matchplay::shard_jobs(&all, s),
        None => all.clone(),
    };
    Ok(MatchPlan {
        cfg,
        sprt,
        shard,
        jobs,
        all_games: all.len(),
        tables,
    })
}

/// A match's checked plan ([`plan`]).
struct MatchPlan {
    cfg: Config,
    sprt: Option<Sprt>,
    shard: Option<crate::runs::shard::Shard>,
    jobs: Vec<crate::matchplay::Job>,
    /// The games of the whole match (the shard plays `jobs` of them).
    all_games: usize,
    tables: Option<Arc<EndgameTables>>,
}

/// `damelab match`: the plan checked, then the games played, the standings reported and the
/// files written.
pub fn run_match(a: &MatchArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let MatchPlan {
        cfg,
        sprt,
        shard,
        jobs,
        all_games,
        tables,
    } = plan(a)?;
    // The PDN grows a game at a time; the user's file is replaced only once a game is whole.
    let mut pdn_file = match &a.pdn {
        Some(p) => Some(crate::fsio::Appender::create(p)?),
        None => None,
    };
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    out(&format!(
        "{}: {} ({}{}), seed {}{}, {} at once{}",
        cfg.variant,
        names.join(" vs "),
        match shard {
            Some(s) => format!("{} of {} games, shard {s}", jobs.len(), all_games),
            None => format!("{} games", jobs.len()),
        },
        if cfg.engines.len() > 2 {
            format!(", {} per pairing", cfg.games)
        } else {
            String::new()
        },
        cfg.seed,
        match &cfg.balance {
            Some(b) => format!(
                ", openings a depth-{} search scores within {} men",
                b.depth,
                b.score as f64 / 100.0
            ),
            None => String::new(),
        },
        cfg.concurrency,
        match &tables {
            Some(t) => format!(", endgame tables: {} materials", t.len()),
            None => String::new(),
        }
    ));
    crate::interrupt::install_termination();
    crate::interrupt::reset();
    let bar = crate::progress::Bar::new(jobs.len() as u64, "games");
    let mut games: Vec<GameRecord> = Vec::new();
    let mut write_error: Option<crate::fsio::WriteError> = None;
    let finish = run(&cfg, &jobs, &mut |g| {
        games.push(g.clone());
        if let Some(f) = &mut pdn_file {
            if let Err(e) = f.append(g.pdn.as_bytes()) {
                // Reported now: the match stops, and every game before it is in the file.
                write_error.get_or_insert(e);
                return Control::Stop;
            }
        }
        bar.inc(1);
        let st = standings(&cfg.engines, &games, sprt.as_ref());
        if let Some(s) = st.first() {
            let t = &s.tally;
            let mut msg = format!(
                "+{} ={} -{} Elo {:+.0}",
                t.wins, t.draws, t.losses, s.estimate.elo
            );
            if let Some(l) = s.llr {
                msg.push_str(&format!(" LLR {l:.2}"));
            }
            bar.set_message(msg);
        }
        // The test is read only between pairs of games (pentanomial), as fishtest does.
        match st
            .first()
            .filter(|s| s.tally.all_paired())
            .and_then(|s| s.verdict)
        {
            Some(Verdict::H0 | Verdict::H1) => Control::Stop,
            _ => Control::Continue,
        }
    });
    bar.finish();
    let st = standings(&cfg.engines, &games, sprt.as_ref());
    out(standings_text(&st).trim_end());
    let tables_decided = tables
        .is_some()
        .then(|| crate::matchplay::tables_decided(&games));
    if let Some(n) = tables_decided {
        out(&tables_line(n, games.len()));
    }
    let finished = match finish {
        // The match stopped because its PDN could not be written.
        _ if write_error.is_some() => "interrupted",
        Finish::Complete => "complete",
        Finish::Stopped => "sprt",
        Finish::Interrupted => "interrupted",
    };
    if let Some(p) = &a.json {
        let doc = MatchFile {
            format: FORMAT.into(),
            version: VERSION,
            damelab: crate::runs::shard::DAMELAB_VERSION.into(),
            settings: MatchSettings {
                variant: cfg.variant.clone(),
                rules_fingerprint: cfg.rules.fingerprint(),
                games_per_pairing: cfg.games,
                seed: cfg.seed,
                openings: a.openings.as_ref().map(|p| p.display().to_string()),
                random_plies: cfg.random_plies,
                balanced: a.balanced.map(|m| (m, a.balance_depth)),
                max_plies: cfg.max_plies,
                tables: tables.as_ref().map(|t| t.dir().display().to_string()),
                adjudicate_score: a.adjudicate_score,
                adjudicate_plies: a.adjudicate_plies,
                sprt,
            },
            engines: cfg
                .engines
                .iter()
                .map(|e| (e.name.clone(), e.describe()))
                .collect(),
            shards: shard.map_or_else(ShardSet::whole, ShardSet::of),
            finished: finished.into(),
            standings: st,
            tables_decided,
            games,
        };
        write_json(p, &doc)?;
        games = doc.games;
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if finish == Finish::Interrupted {
        let by = if crate::interrupt::terminated() {
            " by SIGTERM"
        } else {
            ""
        };
        return Err(bad(
            format!("interrupted{by} after {} finished games", games.len()),
            "every finished game is in the PDN and the JSON; run again for more",
        ));
    }
    Ok(())
}

/// The report's line on the games the endgame tables decided (adjudicated).
fn tables_line(decided: u64, games: usize) -> String {
    format!("endgame tables decided {decided} of {games} games (adjudicated on reaching a position of their materials)")
}

/// Check before any game that a file can be written there (nothing is left behind).
fn check_writable(path: &Path) -> Result<(), Diag> {
    Ok(crate::fsio::check_writable(path)?)
}

fn write_json(path: &Path, file: &MatchFile) -> Result<(), Diag> {
    let text = serde_json::to_string_pretty(file)
        .map_err(|e| bad(format!("cannot write the match as JSON: {e}"), ""))?;
    Ok(crate::fsio::write_file(path, text.as_bytes())?)
}

/// `damelab match`: a match, or `match merge`.
pub fn command(c: &MatchCommand, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    match (&c.merge, &c.run) {
        (
            Some(MergeCommand::Merge {
                files,
                json,
                pdn,
                partial,
                rules,
            }),
            _,
        ) => {
            let to = (json.as_deref(), pdn.as_deref());
            merge(files, to, *partial, rules.as_deref(), out)
        }
        (None, Some(run)) => run_match(run, out),
        (None, None) => Err(bad(
            "`match` needs a variant and two or more --engine",
            "e.g. `damelab match dameo --engine \"name=a nodes=1000\" --engine \"name=b nodes=2000\"`",
        )),
    }
}

/// `damelab match merge`: the shards' files checked (one match, one split, no shard twice, none
/// missing unless `partial`) and put together; the standings computed again from the games.
fn merge(
    paths: &[PathBuf],
    (json, pdn): (Option<&Path>, Option<&Path>),
    partial: bool,
    rules: Option<&Path>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Diag> {
    let help = "give the files `damelab match --shard K/N --json FILE` wrote";
    for p in [json, pdn].into_iter().flatten() {
        check_writable(p)?;
    }
    let inputs = crate::runs::merge::Inputs::of(paths, pdn.is_some(), help)?;
    let (pdn_paths, json_paths) = (inputs.pdn, inputs.json);
    let files = json_paths
        .iter()
        .map(|p| crate::matchplay::file::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let s = &files[0].settings;
    // The rules are checked; what is merged is the files' own (the games are not replayed).
    crate::runs::merge::rules_for_merge(rules, &s.variant, &s.rules_fingerprint)?;
    let names: Vec<String> = json_paths.iter().map(|p| p.display().to_string()).collect();
    let merged = crate::matchplay::file::merge(&names, &files)?;
    crate::runs::shard::require_whole_of(&merged.shards, merged.pairs(), partial, "pairs of games")
        .map_err(Diag::new)?;
    let text = if pdn.is_some() {
        let inputs = pdn_paths
            .iter()
            .map(|p| {
                crate::fsio::read_text(p, crate::fsio::Kind::RunPdn)
                    .map(|t| (p.display().to_string(), t))
                    .map_err(|e| bad(format!("cannot read `{}`: {e}", p.display()), help))
            })
            .collect::<Result<Vec<_>, _>>()?;
        crate::matchplay::file::merge_pdn(&inputs, &merged)?
    } else {
        String::new()
    };
    let names: Vec<&str> = merged.engines.iter().map(|e| e.0.as_str()).collect();
    out(&format!(
        "{}: {} ({} of {} games, {}), seed {}",
        merged.settings.variant,
        names.join(" vs "),
        merged.games.len(),
        crate::matchplay::job_list(merged.engines.len(), merged.settings.games_per_pairing).len(),
        if merged.shards.is_whole() {
            "merged".to_string()
        } else {
            format!("{} (partial)", merged.shards)
        },
        merged.settings.seed
    ));
    out(standings_text(&merged.standings).trim_end());
    if let Some(n) = merged.tables_decided {
        out(&tables_line(n, merged.games.len()));
    }
    if let Some(p) = pdn {
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    if let Some(p) = json {
        write_json(p, &merged)?;
    }
    Ok(())
}
