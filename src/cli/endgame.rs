//! `damelab endgame VARIANT MATERIAL`: build (or load) the tables and report.

use super::console::errln;
use crate::endgame::report::{self, tables_line};
use crate::endgame::{store, EndgameError, Material, Options, Tables, DEFAULT_MAX_MEMORY};
use crate::Variant;
use miette::Report;
use std::path::PathBuf;
use std::time::Instant;

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

/// `1500M`, `2G`, `64K`, or plain bytes: at least 1 MiB, at most what a 64-bit count holds.
pub fn parse_memory(text: &str) -> Result<u64, EndgameError> {
    let t = text.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: u64 = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(EndgameError::MemorySize(text.into())),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    let n: f64 = num
        .trim_end_matches(['i', 'B'])
        .parse()
        .map_err(|_| EndgameError::MemorySize(text.into()))?;
    if n.is_nan() || n <= 0.0 || !n.is_finite() {
        return Err(EndgameError::MemorySize(text.into()));
    }
    let bytes = n * mult as f64;
    // u64::MAX as f64 rounds up to 2^64: anything from there on does not fit.
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(EndgameError::MemoryTooLarge(text.into()));
    }
    let bytes = bytes as u64;
    if bytes < crate::limits::MIN_MAX_MEMORY {
        return Err(EndgameError::MemoryTooSmall(text.into()));
    }
    Ok(bytes)
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
/// JSON with `args.json`, and the number of tables that could not be written to the cache. The
/// Python package calls it with the variant it holds.
pub fn report_for(v: &Variant, args: &Args) -> Result<(String, usize), Report> {
    let rules = &v.rules;
    let root = Material::parse(rules, &args.material).map_err(Report::new)?;
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
    let mut tables = Tables::new(rules);
    let t = Instant::now();
    let est = tables.solve_fast(&root, &opts).map_err(Report::new)?;
    let secs = t.elapsed().as_secs_f64();
    for note in &tables.notes {
        errln!("note: {note}");
    }
    let built: u64 = tables
        .tables
        .values()
        .filter(|t| !t.loaded)
        .map(|t| t.values.len() as u64)
        .sum();
    if args.verbose {
        for m in &est.materials {
            if let Some(t) = tables.tables.get(m) {
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
    let summary =
        report::summarize(&tables, &root).ok_or_else(|| Report::new(EndgameError::Internal))?;
    let rate = if built > 0 && secs > 0.0 {
        built as f64 / secs
    } else {
        0.0
    };
    if args.json {
        let mut value = serde_json::to_value(&summary)
            .map_err(|e| miette::miette!("cannot write JSON: {e}"))?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert(
                "tables".into(),
                serde_json::Value::Array(
                    est.materials
                        .iter()
                        .filter_map(|m| tables.tables.get(m))
                        .map(|t| {
                            serde_json::json!({
                                "material": t.material.name(rules),
                                "positions": t.values.len(),
                                "loaded": t.loaded,
                                "seconds": t.seconds,
                            })
                        })
                        .collect(),
                ),
            );
            obj.insert("seconds".into(), serde_json::json!(secs));
            obj.insert("positions_built".into(), serde_json::json!(built));
            obj.insert("positions_per_second".into(), serde_json::json!(rate));
            obj.insert(
                "estimated_memory_bytes".into(),
                serde_json::json!(est.bytes),
            );
        }
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| miette::miette!("cannot write JSON: {e}"))?;
        return Ok((format!("{text}\n"), tables.unsaved));
    }
    let mut out = report::text(&summary);
    out.push_str(&tables_line(&tables, &est, secs));
    Ok((out, tables.unsaved))
}
