//! `damelab compare A B`: the arguments checked before any game, the comparison file read back to
//! go on from it, the games played a batch at a time (the file written after each), the report
//! and the files. The work is in [`crate::selfplay::compare`].

use crate::cli::load;
use crate::cli::selfplay::{check_game_args, check_limits, check_threads};
use crate::limits::MAX_SELFPLAY_GAMES as MAX_GAMES;
use crate::selfplay::compare::{self, CompareFile, CompareSettings, Engines, Pair};
use crate::selfplay::file::{bad, check_writable};
use crate::selfplay::Settings;
use crate::Rules;
use miette::Report as Diag;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Rules A: a bundled variant's name or a path to a rules file.
    pub a: String,
    /// Rules B, played on the same games.
    pub b: String,
    /// Games under each rules file (pairs).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Search depth of the engines (default 4 unless --nodes).
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Node budget per move of the engines.
    #[arg(long)]
    pub nodes: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games longer than this many plies end as draws.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Random plies at the start of each game, drawn under A and replayed under B.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Refuse rules files whose boards differ (instead of falling back to the same seeds with
    /// each rules' own openings).
    #[arg(long)]
    pub same_openings: bool,
    /// The evaluation of both sides' engines: `derived` (the default: the same method for both
    /// files) or `bundled` (each rules' bundled weights).
    #[arg(long, default_value = "derived")]
    pub eval: String,
    /// The engines' contempt for a draw by repetition or move count (hundredths of a man).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub contempt: i32,
    /// Threads (default: every core). The figures do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The comparison file: every pair as it finishes; given again, an interrupted comparison
    /// goes on from the pairs it holds.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write A's games as PDN.
    #[arg(long, value_name = "FILE")]
    pub pdn_a: Option<PathBuf>,
    /// Write B's games as PDN.
    #[arg(long, value_name = "FILE")]
    pub pdn_b: Option<PathBuf>,
    /// Draw each figure's difference with its interval as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

fn check_args(a: &CompareArgs) -> Result<usize, Diag> {
    if a.games < 2 || a.games > MAX_GAMES {
        return Err(bad(
            format!("--games {} is out of range", a.games),
            &format!("give from 2 to {MAX_GAMES} games (pairs need two to give an interval)"),
        ));
    }
    check_limits(a.depth, a.nodes)?;
    check_game_args(a.max_plies, a.contempt)?;
    if a.eval != "derived" && a.eval != "bundled" {
        return Err(bad(
            format!("--eval `{}` is not an evaluation of both files", a.eval),
            "give `derived` or `bundled` (a weights file belongs to one rules file)",
        ));
    }
    check_threads(a.threads)
}

/// `damelab compare`.
pub fn compare(a: &CompareArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let threads = check_args(a)?;
    let both = format!("comparing `{}` with `{}`", a.a, a.b);
    let va =
        load(&a.a).map_err(|e| e.wrap_err(format!("rules A `{}` does not check ({both})", a.a)))?;
    let vb =
        load(&a.b).map_err(|e| e.wrap_err(format!("rules B `{}` does not check ({both})", a.b)))?;
    let shared_openings = va.rules.spec.board == vb.rules.spec.board;
    if a.same_openings && !shared_openings {
        return Err(bad(
            format!(
                "`{}` and `{}` have different boards: the same openings cannot be played under both",
                a.a, a.b
            ),
            "leave out --same-openings to compare on the same seeds, each rules with its own openings",
        ));
    }
    for p in [&a.json, &a.pdn_a, &a.pdn_b, &a.svg].into_iter().flatten() {
        check_writable(p)?;
    }
    let eval = Some(a.eval.as_str());
    let weights = [
        crate::search::weights::resolve(eval, &va.rules)?,
        crate::search::weights::resolve(eval, &vb.rules)?,
    ];
    let run = |v: &crate::Variant, w: &Option<Arc<crate::search::weights::Weights>>| Settings {
        variant: v.name().to_string(),
        rules_fingerprint: v.rules.fingerprint(),
        games: a.games,
        depth: if a.nodes.is_some() {
            a.depth
        } else {
            Some(a.depth.unwrap_or(4))
        },
        nodes: a.nodes,
        random: false,
        seed: a.seed,
        max_plies: a.max_plies,
        opening_plies: a.opening_plies,
        eval: Some(crate::search::weights::describe(w.as_deref())),
        tables: None,
        contempt: a.contempt,
        openings: None,
    };
    let settings = CompareSettings {
        files: [a.a.clone(), a.b.clone()],
        runs: [run(&va, &weights[0]), run(&vb, &weights[1])],
        shared_openings,
    };
    let rules = [va.rules.clone(), vb.rules.clone()];
    let mut pairs = match &a.json {
        Some(p) if p.exists() => resume(p, &settings)?,
        _ => Vec::new(),
    };
    if !pairs.is_empty() {
        out(&format!(
            "going on from {} finished pairs in `{}`",
            pairs.len(),
            a.json
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string())
        ));
    }
    let pdn = a.pdn_a.is_some() || a.pdn_b.is_some();
    let done: std::collections::HashSet<u64> = pairs.iter().map(|p| p.i).collect();
    let todo: Vec<u64> = (0..a.games).filter(|i| !done.contains(i)).collect();
    let bar = crate::progress::Bar::new(todo.len() as u64, "pairs");
    let pool = crate::runs::pool(threads).map_err(Diag::new)?;
    let mut interrupted = false;
    for batch in todo.chunks((threads * 2).max(4)) {
        let played = play_batch(&pool, &rules, &settings, &weights, batch, pdn, &|| {
            bar.inc(1)
        });
        match played {
            Some(mut p) => pairs.append(&mut p),
            None => {
                interrupted = true;
                break;
            }
        }
        pairs.sort_by_key(|p| p.i);
        let file = file_of(&rules, &settings, &pairs);
        if let (Some(p), false) = (&a.json, file.complete) {
            write_json(p, &file)?;
        }
    }
    bar.finish();
    let file = file_of(&rules, &settings, &pairs);
    if interrupted || !file.complete {
        if let Some(p) = &a.json {
            write_json(p, &file)?;
            return Err(bad(
                format!(
                    "interrupted: {} of {} pairs kept in `{}`",
                    pairs.len(),
                    a.games,
                    p.display()
                ),
                "run the same command again: it goes on from the pairs in the file",
            ));
        }
        return Err(bad(
            "interrupted: no figures written",
            "run again (with --json FILE to keep the finished pairs); each game is seeded",
        ));
    }
    out(&header(&file));
    out(compare::text(&file).trim_end());
    if let Some(p) = &a.json {
        write_json(p, &file)?;
    }
    for (k, path) in [&a.pdn_a, &a.pdn_b].into_iter().enumerate() {
        if let Some(path) = path {
            let text: String = file
                .pairs
                .iter()
                .filter_map(|p| if k == 0 { &p.a } else { &p.b }.pdn.clone())
                .collect();
            crate::fsio::write_file(path, text.as_bytes())?;
        }
    }
    if let Some(p) = &a.svg {
        let text = compare::svg(&file).map_err(Diag::new)?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    Ok(())
}

/// Play a batch of pairs on the pool (`None`: interrupted; the batch's games are not kept).
fn play_batch(
    pool: &rayon::ThreadPool,
    rules: &[Arc<Rules>; 2],
    settings: &CompareSettings,
    weights: &[Option<Arc<crate::search::weights::Weights>>; 2],
    batch: &[u64],
    pdn: bool,
    progress: &(dyn Fn() + Sync),
) -> Option<Vec<Pair>> {
    use rayon::prelude::*;
    let played: Vec<Option<Pair>> = pool.install(|| {
        batch
            .par_iter()
            .map_init(
                || Engines::new(rules, weights, settings.runs[0].contempt),
                |engines, &i| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    let p = compare::play_pair(rules, settings, engines, i, pdn);
                    progress();
                    Some(p)
                },
            )
            .collect()
    });
    if crate::interrupt::requested() {
        return None;
    }
    played.into_iter().collect()
}

fn file_of(rules: &[Arc<Rules>; 2], settings: &CompareSettings, pairs: &[Pair]) -> CompareFile {
    CompareFile {
        format: compare::FORMAT.into(),
        version: compare::VERSION,
        damelab: crate::runs::shard::DAMELAB_VERSION.into(),
        settings: settings.clone(),
        pairs: pairs.to_vec(),
        complete: pairs.len() as u64 == settings.runs[0].games,
        metrics: compare::metrics(&rules[0], &rules[1], pairs),
    }
}

fn write_json(path: &Path, f: &CompareFile) -> Result<(), Diag> {
    let text = serde_json::to_string_pretty(f).map_err(|e| bad(e.to_string(), ""))?;
    Ok(crate::fsio::write_file(path, text.as_bytes())?)
}

/// The pairs of a comparison file of the same settings (anything else is refused: another
/// comparison's file is not overwritten).
fn resume(path: &Path, settings: &CompareSettings) -> Result<Vec<Pair>, Diag> {
    let help = "give --json a new file, or the file of this same comparison to go on from it";
    let text = crate::fsio::read_text(path, crate::fsio::Kind::RunJson)
        .map_err(|e| bad(format!("cannot read `{}`: {e}", path.display()), help))?;
    let f: CompareFile = serde_json::from_str(&text).map_err(|e| {
        bad(
            format!("`{}` is not a comparison file: {e}", path.display()),
            help,
        )
    })?;
    if f.format != compare::FORMAT || f.version != compare::VERSION {
        return Err(bad(
            format!(
                "`{}` is not a comparison file of version {}",
                path.display(),
                compare::VERSION
            ),
            help,
        ));
    }
    if f.settings != *settings || f.damelab != crate::runs::shard::DAMELAB_VERSION {
        return Err(bad(
            format!(
                "`{}` holds another comparison (other files, settings or damelab version)",
                path.display()
            ),
            help,
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for p in &f.pairs {
        if p.i >= settings.runs[0].games || !seen.insert(p.i) {
            return Err(bad(
                format!(
                    "`{}` holds pair {} twice or outside the run",
                    path.display(),
                    p.i
                ),
                help,
            ));
        }
    }
    Ok(f.pairs)
}

fn header(f: &CompareFile) -> String {
    let s = &f.settings.runs[0];
    let strength = match (s.depth, s.nodes) {
        (_, Some(n)) => format!("{n} nodes"),
        (Some(d), None) => format!("depth {d}"),
        (None, None) => "engine".into(),
    };
    let contempt = match s.contempt {
        0 => String::new(),
        c => format!(", contempt {c}"),
    };
    format!(
        "compare: A `{}` ({}) with B `{}` ({}): {} pairs, {strength}, {} / {} evaluation{contempt}, seed {}, {} random opening plies, cap {} plies",
        f.settings.files[0],
        s.variant,
        f.settings.files[1],
        f.settings.runs[1].variant,
        f.pairs.len(),
        s.eval.as_deref().unwrap_or("derived"),
        f.settings.runs[1].eval.as_deref().unwrap_or("derived"),
        s.seed,
        s.opening_plies,
        s.max_plies
    )
}
