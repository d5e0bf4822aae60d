//! The `match` command: arguments, checks (absurd settings are refused before any game), the
//! progress line, the standings, the PDN and JSON outputs.

use super::engine::{EngineSpec, Internal};
use super::stats::{Estimate, Sprt, Tally, Verdict};
use super::{jobs, pairings, run, Config, Control, Finish, GameRecord};
use crate::search::tables::EndgameTables;
use crate::Variant;
use miette::{miette, Report as Diag};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most games a pairing may play.
pub const MAX_GAMES: u64 = 10_000_000;
/// The most games played at once.
pub const MAX_CONCURRENCY: usize = 64;
/// The name and version of the JSON format.
pub const FORMAT: &str = "damelab-match";
pub const VERSION: u32 = 1;

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
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each game has its own engines).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Games reaching this many plies are adjudicated drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Adjudicate by the variant's endgame tables in this directory (default: the cache of
    /// `damelab endgame`, when it holds tables of the variant).
    #[arg(long, conflicts_with = "no_tables")]
    pub tables: Option<PathBuf>,
    /// Never adjudicate by endgame tables.
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
}

fn bad(msg: impl Into<String>, help: &str) -> Diag {
    miette!(help = help.to_string(), "{}", msg.into())
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

/// The settings as the JSON records them.
#[derive(Serialize)]
struct SettingsOut<'a> {
    variant: &'a str,
    games_per_pairing: u64,
    seed: u64,
    openings: Option<String>,
    random_plies: u32,
    max_plies: u32,
    tables: Option<String>,
    adjudicate_score: Option<f64>,
    adjudicate_plies: u32,
    concurrency: usize,
    sprt: Option<Sprt>,
}

/// One pairing's figures, from its first engine's side.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    pub engine: String,
    pub opponent: String,
    pub tally: Tally,
    pub estimate: Estimate,
    pub llr: Option<f64>,
    pub llr_bounds: Option<(f64, f64)>,
    pub verdict: Option<Verdict>,
}

#[derive(Serialize)]
struct JsonOut<'a> {
    format: &'static str,
    version: u32,
    settings: SettingsOut<'a>,
    engines: Vec<(String, String)>,
    finished: &'static str,
    standings: Vec<Standing>,
    games: &'a [GameRecord],
}

/// The figures of every pairing from the games so far.
pub fn standings(
    engines: &[EngineSpec],
    games: &[GameRecord],
    sprt: Option<&Sprt>,
) -> Vec<Standing> {
    let mut out = Vec::new();
    for (p, (a, b)) in pairings(engines.len()).into_iter().enumerate() {
        let mine: Vec<&GameRecord> = games.iter().filter(|g| g.pairing == p).collect();
        let mut t = Tally::default();
        for g in &mine {
            match g.points_of(a) {
                x if x == 1.0 => t.wins += 1,
                x if x == 0.0 => t.losses += 1,
                _ => t.draws += 1,
            }
        }
        // Pairs: games 2k and 2k+1 of the pairing, both finished.
        for g in &mine {
            if g.round % 2 == 0 {
                if let Some(h) = mine.iter().find(|h| h.round == g.round + 1) {
                    let pts = g.points_of(a) + h.points_of(a);
                    t.pairs[(pts * 2.0).round() as usize] += 1;
                }
            }
        }
        let llr = sprt.map(|s| s.llr(&t));
        out.push(Standing {
            engine: engines[a].name.clone(),
            opponent: engines[b].name.clone(),
            estimate: t.estimate(),
            tally: t,
            llr,
            llr_bounds: sprt.map(|s| s.bounds()),
            verdict: sprt.zip(llr).map(|(s, l)| s.verdict(l)),
        });
    }
    out
}

fn elo_text(e: &Estimate) -> String {
    let f = |x: f64| {
        if x.is_finite() {
            format!("{x:+.1}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    format!("{} [{}, {}]", f(e.elo), f(e.elo_low), f(e.elo_high))
}

/// The standings as text: a line per pairing, then the SPRT.
pub fn standings_text(st: &[Standing]) -> String {
    let mut out = String::new();
    for s in st {
        let t = &s.tally;
        out.push_str(&format!(
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}/{} ({:.1}%), Elo {} (95%, {}",
            s.engine,
            s.opponent,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.wins as f64 + t.draws as f64 / 2.0,
            t.games(),
            100.0 * s.estimate.score,
            elo_text(&s.estimate),
            s.estimate.model
        ));
        if s.estimate.model == "pentanomial" {
            let p = t.pairs;
            out.push_str(&format!(
                " over {} pairs: {} {} {} {} {}",
                p.iter().sum::<u64>(),
                p[0],
                p[1],
                p[2],
                p[3],
                p[4]
            ));
        }
        out.push_str(")\n");
        if let (Some(llr), Some((lo, hi)), Some(v)) = (s.llr, s.llr_bounds, s.verdict) {
            let verdict = match v {
                Verdict::H1 => "H1 accepted",
                Verdict::H0 => "H0 accepted",
                Verdict::Continue => "no decision yet",
            };
            out.push_str(&format!(
                "SPRT: LLR {llr:.2} (bounds {lo:.2}, {hi:.2}): {verdict}\n"
            ));
        }
    }
    out
}

/// `damelab match`.
pub fn run_match(a: &MatchArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let v = Variant::load(&a.variant).map_err(Diag::new)?;
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
        let mut spec = EngineSpec::parse(&a.each, text).map_err(|e| bad(e, engine_help))?;
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
    let sprt = a.sprt.as_deref().map(parse_sprt).transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(bad(
            format!("--sprt compares two engines; {} given", engines.len()),
            "give exactly two engines with --sprt",
        ));
    }
    // damelab's own engines: their options and evaluation files are checked now, once.
    for e in engines.iter().filter(|e| e.cmd.is_none()) {
        Internal::new(&v.rules, e)
            .map_err(|m| bad(m, "see `damelab match --help` for the settings"))?;
    }
    if engines.iter().any(|e| e.cmd.is_some()) {
        crate::hub::protocol::position_to_hub(&v.rules, &v.rules.start)
            .map_err(|m| bad(m, "play this variant with damelab's own engines only"))?;
    }
    let openings = match &a.openings {
        Some(p) => super::openings::read_file(&v.rules, p).map_err(|m| {
            bad(
                m,
                "give a file of FEN lines or of PDN games of this variant",
            )
        })?,
        None => Vec::new(),
    };
    let tables = if a.no_tables {
        None
    } else {
        match &a.tables {
            Some(dir) => Some(Arc::new(EndgameTables::open(&v.rules, dir)?)),
            None => EndgameTables::from_cache(&v.rules).map(Arc::new),
        }
    };
    for p in [&a.pdn, &a.json].into_iter().flatten() {
        check_writable(p)?;
    }
    let mut pdn_file = match &a.pdn {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| {
            bad(
                format!("cannot write `{}`: {e}", p.display()),
                "give a path in a folder you can write to",
            )
        })?),
        None => None,
    };
    let cfg = Config {
        variant: v.name().to_string(),
        rules: v.rules.clone(),
        engines,
        games: a.games,
        openings,
        random_plies: a.random_plies,
        seed: a.seed,
        max_plies: a.max_plies,
        tables: tables.clone(),
        adjudicate,
        concurrency: a.concurrency,
    };
    let jobs = jobs(&cfg);
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    out(&format!(
        "{}: {} ({} games{}), seed {}, {} at once{}",
        cfg.variant,
        names.join(" vs "),
        jobs.len(),
        if cfg.engines.len() > 2 {
            format!(", {} per pairing", cfg.games)
        } else {
            String::new()
        },
        cfg.seed,
        cfg.concurrency,
        match &tables {
            Some(t) => format!(", endgame tables: {} materials", t.len()),
            None => String::new(),
        }
    ));
    crate::interrupt::install();
    crate::interrupt::reset();
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let b = indicatif::ProgressBar::new(jobs.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut games: Vec<GameRecord> = Vec::new();
    let mut write_error: Option<String> = None;
    let finish = run(&cfg, &jobs, &mut |g| {
        games.push(g.clone());
        if let Some(f) = &mut pdn_file {
            if let Err(e) = f.write_all(g.pdn.as_bytes()).and_then(|_| f.flush()) {
                write_error.get_or_insert_with(|| e.to_string());
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
        match st.first().and_then(|s| s.verdict) {
            Some(Verdict::H0 | Verdict::H1) => Control::Stop,
            _ => Control::Continue,
        }
    });
    bar.finish_and_clear();
    let st = standings(&cfg.engines, &games, sprt.as_ref());
    out(standings_text(&st).trim_end());
    let finished = match finish {
        Finish::Complete => "complete",
        Finish::Stopped => "sprt",
        Finish::Interrupted => "interrupted",
    };
    if let Some(p) = &a.json {
        let doc = JsonOut {
            format: FORMAT,
            version: VERSION,
            settings: SettingsOut {
                variant: &cfg.variant,
                games_per_pairing: cfg.games,
                seed: cfg.seed,
                openings: a.openings.as_ref().map(|p| p.display().to_string()),
                random_plies: cfg.random_plies,
                max_plies: cfg.max_plies,
                tables: tables.as_ref().map(|t| t.dir().display().to_string()),
                adjudicate_score: a.adjudicate_score,
                adjudicate_plies: a.adjudicate_plies,
                concurrency: cfg.concurrency,
                sprt,
            },
            engines: cfg
                .engines
                .iter()
                .map(|e| (e.name.clone(), e.describe()))
                .collect(),
            finished,
            standings: st,
            games: &games,
        };
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| bad(format!("cannot write the match as JSON: {e}"), ""))?;
        crate::selfplay::cli::write_atomic(p, text.as_bytes())?;
    }
    if let Some(e) = write_error {
        return Err(bad(
            format!("cannot write the PDN file: {e}"),
            "give a path on a disk with room",
        ));
    }
    if finish == Finish::Interrupted {
        return Err(bad(
            format!("interrupted after {} finished games", games.len()),
            "every finished game is in the PDN and the JSON; run again for more",
        ));
    }
    Ok(())
}

fn check_writable(path: &Path) -> Result<(), Diag> {
    if path.is_dir() {
        return Err(bad(
            format!("cannot write `{}`: it is a folder", path.display()),
            "give a file path",
        ));
    }
    Ok(())
}
