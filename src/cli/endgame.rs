//! `damelab endgame VARIANT MATERIAL`: build (or load) the tables and report.

use super::console::errln;
use crate::endgame::report;
use crate::endgame::{parse_memory, store, Options, DEFAULT_MAX_MEMORY};
use crate::Variant;
use miette::Report;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bundled variant's name or a path to a rules file.
    pub variant: String,
    /// The pieces, first side first, in the variant's letters: `KK v K`, `KM v K`, `K v -`.
    pub material: String,
    /// Write the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// Cache directory for the tables (default: $DAMELAB_CACHE, $XDG_CACHE_HOME/damelab or
    /// ~/.cache/damelab).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Neither read nor write cached tables.
    #[arg(long)]
    pub no_cache: bool,
    /// Refuse to start when the estimated memory exceeds this (e.g. `1500M`, `2G`).
    #[arg(long)]
    pub max_memory: Option<String>,
    /// Print each table's size and build time on stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Build or load the tables and hand the report to `out`; a table that could not be written to
/// the cache makes the command fail after the report (the figures are right, the cache is not).
pub fn run_to(args: &Args, out: &mut dyn FnMut(&str)) -> Result<(), Report> {
    let (text, unsaved) = report_of(args)?;
    out(&text);
    if unsaved > 0 {
        return Err(miette::miette!(
            help = "free some space in the cache folder, give another with `--cache DIR`, or \
                    `--no-cache`",
            "{unsaved} table{} could not be written to the cache",
            if unsaved == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// The report of [`run_to`] as text (a cache that could not be written is only noted).
pub fn run(args: &Args) -> Result<String, Report> {
    report_of(args).map(|(text, _)| text)
}

fn report_of(args: &Args) -> Result<(String, usize), Report> {
    let v = Variant::load(&args.variant).map_err(Report::new)?;
    report_for(&v, args)
}

/// The report of `args` for a variant already loaded (`args.variant` unused): the text, or the
/// JSON with `args.json`, and the number of tables that could not be written to the cache.
fn report_for(v: &Variant, args: &Args) -> Result<(String, usize), Report> {
    let rules = &v.rules;
    let max_memory = match &args.max_memory {
        Some(s) => parse_memory(s).map_err(Report::new)?,
        None => DEFAULT_MAX_MEMORY,
    };
    let cache = if args.no_cache {
        None
    } else {
        args.cache.clone().or_else(store::default_dir)
    };
    let opts = Options {
        cache,
        max_memory,
        progress: !args.json,
        watch: None,
    };
    let built = report::build(rules, &args.material, &opts).map_err(Report::new)?;
    for note in &built.tables.notes {
        errln!("note: {note}");
    }
    if args.verbose {
        for m in &built.est.materials {
            if let Some(t) = built.tables.tables.get(m) {
                errln!(
                    "{:<16} {:>12} positions  {}",
                    m.name(rules),
                    t.values.len(),
                    if t.loaded {
                        "loaded".to_string()
                    } else {
                        format!("built in {:.2} s", t.seconds)
                    }
                );
            }
        }
    }
    let out = if args.json {
        report::json(&built).map_err(Report::new)?
    } else {
        report::text_of(&built).map_err(Report::new)?
    };
    Ok((out, built.tables.unsaved))
}
