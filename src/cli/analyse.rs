//! `damelab analyse`: search a position and print a line per finished depth.

use super::console::errln;
use super::load;
use crate::notation::{move_to_string, parse_fen};
use crate::search::info::{info_line, limits};
use crate::search::options::Options;
use crate::search::tables::EndgameTables;
use crate::search::{format_score, Searcher};
use crate::util::bad;
use miette::Report as Diag;
use std::path::PathBuf;

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
    /// Use no endgame tables (by default those in the cache directory, as the workbench does).
    #[arg(long, conflicts_with = "tables")]
    pub no_tables: bool,
    /// A search option, `NAME=VALUE` (repeatable): `--option preset=8d59e68` is the engine of
    /// that commit, `--option lmr=false` turns late-move reductions off.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The evaluation: `derived`, `bundled` or a weights file from `damelab train` (default:
    /// the bundled weights of these rules when there are any, else derived).
    #[arg(long)]
    pub eval: Option<String>,
}

/// Search options from `NAME=VALUE` texts, in order (a later one overrides an earlier one).
/// `base` is where they start: the defaults, or a weights file's tuned settings.
pub fn parse_options_over(base: Options, texts: &[String]) -> Result<Options, Diag> {
    let mut o = base;
    let names: Vec<&str> = Options::NAMES.iter().map(|(n, _)| *n).collect();
    let help = format!("write NAME=VALUE with NAME one of {}", names.join(", "));
    for t in texts {
        let Some((name, value)) = t.split_once('=') else {
            return Err(bad(format!("`{t}` is not a search option setting"), &help));
        };
        o.set(name.trim(), value)
            .map_err(|e| bad(e.to_string(), &format!("e.g. `--option lmr=false`; {help}")))?;
    }
    Ok(o)
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
    crate::fsio::check_memory(
        &format!("--hash {}", args.hash),
        (args.hash as u64) << 20,
        "give a smaller table with `--hash` (in MiB; 64 is the default)",
    )
    .map_err(Diag::new)?;
    let weights = crate::search::weights::resolve(args.eval.as_deref(), &v.rules)?;
    // The weights' tuned search settings, then `--option`s over them.
    let options = parse_options_over(
        crate::search::weights::options(weights.as_deref()),
        &args.options,
    )?;
    let mut s = Searcher::new(v.rules.clone(), args.hash);
    s.set_options(options);
    let mut tables = None;
    // `--tables DIR`, else the default cache's tables when it has any (as in the workbench).
    let found = match &args.tables {
        Some(dir) => Some(EndgameTables::open(&v.rules, dir)?),
        None if args.no_tables => None,
        None => EndgameTables::in_cache(&v.rules)?,
    };
    if let Some(t) = found {
        let t = std::sync::Arc::new(t);
        out(&format!(
            "endgame tables: {} materials in {}",
            t.len(),
            t.dir().display()
        ));
        let notes = t.notes();
        for note in &notes {
            errln!("note: {note}");
        }
        s.set_probe(Some(t.probe()));
        tables = Some((t, notes.len()));
    }
    if let Some(w) = &weights {
        // The file's tuned search settings, when it has some: they are where the options start.
        let tuned = if w.search.is_empty() {
            String::new()
        } else {
            format!(" (its search settings: {})", w.search_text())
        };
        out(&format!(
            "evaluation: {}{tuned}",
            crate::search::weights::describe(Some(w))
        ));
    }
    s.set_weights(weights);
    let r = s.search(&pos, &[], limits, &mut |i| out(&info_line(&v.rules, i)));
    if s.too_many_routes() {
        return Err(Diag::new(crate::engine::TooManyRoutes {
            budget: crate::engine::ROUTE_BUDGET,
        }));
    }
    if let Some((t, seen)) = &tables {
        // Tables found damaged while searching (their checksum) were left out: say which.
        for note in t.notes().iter().skip(*seen) {
            errln!("note: {note}");
        }
    }
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
