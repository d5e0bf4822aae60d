//! `damelab selfplay VARIANT --configs 'eval=derived,nodes=3000; eval=bundled,nodes=30000'`: the
//! same games with each engine configuration, and each figure's sensitivity to the engine
//! ([`crate::selfplay::robust`]).

use super::{check_run_args, RunArgs};
use crate::cli::load;
use crate::search::MAX_DEPTH;
use crate::selfplay::file::{bad, check_writable};
use crate::selfplay::robust::{self, ConfigRun, ConfigsFile};
use crate::selfplay::{Aids, RunFile, Settings};
use miette::Report as Diag;

/// One configuration: its label (as given), depth or nodes, and evaluation.
pub(crate) struct Config {
    pub label: String,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub eval: Option<String>,
}

fn parse(spec: &str) -> Result<Vec<Config>, Diag> {
    let out = parse_list(spec)?;
    if out.len() < 2 {
        return Err(bad("--configs needs at least two configurations", HELP));
    }
    Ok(out)
}

const HELP: &str = "give configurations separated by `;`, each `KEY=VALUE,…` with `depth` or \
                    `nodes` and optionally `eval` (`derived`, `bundled` or a weights file): \
                    `eval=derived,nodes=3000; eval=bundled,nodes=30000`";

/// The configurations of `spec`, one or more.
pub(crate) fn parse_list(spec: &str) -> Result<Vec<Config>, Diag> {
    let help = HELP;
    let mut out = Vec::new();
    for part in spec.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let mut c = Config {
            label: part.to_string(),
            depth: None,
            nodes: None,
            eval: None,
        };
        for kv in part.split(',').map(str::trim) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| bad(format!("`{kv}` in --configs is not KEY=VALUE"), help))?;
            let number = || {
                v.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| bad(format!("`{kv}` in --configs: not a positive number"), help))
            };
            match k.trim() {
                "depth" => {
                    let d = number()?;
                    if d > MAX_DEPTH as u64 {
                        return Err(bad(format!("`{kv}` in --configs is too deep"), help));
                    }
                    c.depth = Some(d as u32);
                }
                "nodes" => c.nodes = Some(number()?),
                "eval" => c.eval = Some(v.trim().to_string()),
                other => return Err(bad(format!("unknown key `{other}` in --configs"), help)),
            }
        }
        if c.depth.is_none() && c.nodes.is_none() {
            return Err(bad(
                format!("configuration `{part}` has no depth or nodes"),
                help,
            ));
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(bad("--configs gives no configuration", help));
    }
    Ok(out)
}

/// Play the run once per configuration and report each figure's range.
pub fn play(a: &RunArgs, spec: &str, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let v = load(&a.variant)?;
    let threads = check_run_args(a)?;
    let configs = parse(spec)?;
    for p in [&a.json, &a.svg].into_iter().flatten() {
        check_writable(p)?;
    }
    // Every configuration's evaluation is resolved before any game.
    let mut weights = Vec::new();
    for c in &configs {
        weights.push(crate::search::weights::resolve(
            c.eval.as_deref(),
            &v.rules,
        )?);
    }
    let openings = super::opening_set(a, &v)?;
    let mut runs = Vec::new();
    for (c, w) in configs.iter().zip(weights) {
        let settings = Settings {
            variant: v.name().to_string(),
            rules_fingerprint: v.rules.fingerprint(),
            games: a.games,
            depth: c.depth,
            nodes: c.nodes,
            random: false,
            seed: a.seed,
            max_plies: a.max_plies,
            opening_plies: a.opening_plies,
            eval: Some(crate::search::weights::describe(w.as_deref())),
            tables: None,
            contempt: a.contempt,
            openings: openings.clone(),
        };
        let indices: Vec<u64> = (0..a.games).collect();
        let bar = crate::progress::Bar::new(a.games, &c.label);
        let aids = Aids {
            probe: None,
            weights: w,
        };
        let played = crate::selfplay::run_games(
            &v.rules,
            &settings,
            &indices,
            threads,
            false,
            aids,
            &|| bar.inc(1),
        )
        .map_err(Diag::new)?;
        bar.finish();
        let Some(played) = played else {
            return Err(bad(
                "interrupted: no figures written",
                "run again; each game is seeded, so the same games are played",
            ));
        };
        let file = RunFile::new(
            &v.rules,
            settings,
            crate::runs::shard::ShardSet::whole(),
            played.games,
        );
        runs.push((c.label.clone(), file));
    }
    let views: Vec<(String, &[crate::selfplay::GameRecord])> = runs
        .iter()
        .map(|(l, f)| (l.clone(), f.games.as_slice()))
        .collect();
    let figures = robust::figures(&v.rules, &views);
    out(&format!(
        "{}: {} games under each of {} engine configurations, seed {}, {} random opening plies, cap {} plies",
        v.name(),
        a.games,
        runs.len(),
        a.seed,
        a.opening_plies,
        a.max_plies
    ));
    out(robust::text(&figures).trim_end());
    if let Some(p) = &a.svg {
        let title = format!("{}: figures across engine configurations", v.name());
        let text = crate::selfplay::robust_chart::figures_svg(&title, &figures)
            .map_err(|e| bad(e.to_string(), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    if let Some(p) = &a.json {
        let file = ConfigsFile {
            format: robust::FORMAT.into(),
            version: robust::VERSION,
            damelab: crate::runs::shard::DAMELAB_VERSION.into(),
            runs: runs
                .into_iter()
                .map(|(config, f)| ConfigRun {
                    config,
                    settings: f.settings,
                    report: f.report,
                })
                .collect(),
            figures,
        };
        let text = serde_json::to_string_pretty(&file).map_err(|e| bad(e.to_string(), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    Ok(())
}
