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
    #[arg(required_unless_present = "up_to", conflicts_with = "up_to")]
    pub material: Option<String>,
    /// Build every material of at most this many pieces (both sides together, at least one each):
    /// `damelab endgame international --up-to 4`, the tables the engine then probes in play.
    #[arg(long, value_name = "PIECES", value_parser = clap::value_parser!(u32).range(2..=32))]
    pub up_to: Option<u32>,
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
    let opts = options(args)?;
    match (&args.material, args.up_to) {
        (Some(material), _) => {
            report_built(v, material, args, &opts).map(|(text, unsaved, _)| (text, unsaved))
        }
        (None, Some(n)) => report_up_to(v, n, args, &opts),
        (None, None) => Err(miette::miette!(
            help = "give one, `KK v K`, or `--up-to 4` for every material of at most 4 pieces",
            "no material given"
        )),
    }
}

fn options(args: &Args) -> Result<Options, Report> {
    let max_memory = match &args.max_memory {
        Some(s) => parse_memory(s).map_err(Report::new)?,
        None => DEFAULT_MAX_MEMORY,
    };
    let cache = if args.no_cache {
        None
    } else {
        args.cache.clone().or_else(store::default_dir)
    };
    Ok(Options {
        cache,
        max_memory,
        progress: !args.json,
        watch: None,
    })
}

/// `--up-to N`: each material of at most N pieces not already solved as part of an earlier one
/// (`Material::up_to`'s order), its report in turn (JSON: a list of them), then a closing line
/// of the count.
fn report_up_to(
    v: &Variant,
    n: u32,
    args: &Args,
    opts: &Options,
) -> Result<(String, usize), Report> {
    let rules = &v.rules;
    let mut solved = std::collections::BTreeSet::new();
    let (mut texts, mut unsaved) = (Vec::new(), 0);
    for m in crate::endgame::material::up_to(rules, n) {
        if solved.contains(&m) {
            continue;
        }
        let (text, u, materials) = report_built(v, &m.name(rules), args, opts)?;
        solved.extend(materials);
        texts.push(text);
        unsaved += u;
    }
    let out = if args.json {
        format!("[{}]", texts.join(","))
    } else {
        let mut out = texts.join("\n");
        out.push_str(&format!(
            "\nevery material of at most {n} pieces: {} tables in {} builds\n",
            solved.len(),
            texts.len()
        ));
        out
    };
    Ok((out, unsaved))
}

/// One material's build: the report, the tables that could not be saved, and every material
/// the build solved or loaded.
fn report_built(
    v: &Variant,
    material: &str,
    args: &Args,
    opts: &Options,
) -> Result<(String, usize, Vec<crate::endgame::Material>), Report> {
    let rules = &v.rules;
    let built = report::build(rules, material, opts).map_err(Report::new)?;
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
    let materials = built.est.materials.clone();
    Ok((out, built.tables.unsaved, materials))
}
