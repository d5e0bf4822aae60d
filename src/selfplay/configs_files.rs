//! Saved runs per engine configuration: run files (`selfplay --json`, or shards of them) of the
//! same games — one rules file, seed, games, openings, cap, contempt, tables — played with
//! different engine configurations (depth or nodes, evaluation). `selfplay merge` merges each
//! configuration's shards and `selfplay chart` draws them as `selfplay --configs --svg` does:
//! each figure per configuration with its interval, flagged engine-dependent when the
//! configurations' intervals do not meet ([`super::robust`]).

use super::file::bad;
use super::robust::{self, ConfigRun, ConfigsFile, Figure};
use super::{RunFile, Settings};
use crate::engine::Rules;
use miette::Report as Diag;

/// A run's engine configuration, written as `--configs` takes it: `eval=derived,nodes=3000`,
/// `eval=learned 1a2b3c4d,depth=6`.
pub fn label(s: &Settings) -> String {
    let eval = s.eval.as_deref().unwrap_or("derived");
    match (s.depth, s.nodes) {
        (Some(d), Some(n)) => format!("eval={eval},depth={d},nodes={n}"),
        (Some(d), None) => format!("eval={eval},depth={d}"),
        (None, Some(n)) => format!("eval={eval},nodes={n}"),
        (None, None) => format!("eval={eval}"),
    }
}

/// The settings with the engine configuration left out: two runs equal in this play the same
/// games (the same seeds and openings), whatever engine played them.
fn games_of(s: &Settings) -> Settings {
    Settings {
        depth: None,
        nodes: None,
        eval: None,
        ..s.clone()
    }
}

/// The configurations of runs of the same games, each once, in the order first met; `None` when
/// the runs are not the same games (another rules file, seed, number of games, openings …), are
/// random play, or are of one configuration only.
pub fn configurations<'a>(settings: &[&'a Settings]) -> Option<Vec<&'a Settings>> {
    let first = settings.first()?;
    if first.random || settings.iter().any(|s| games_of(s) != games_of(first)) {
        return None;
    }
    let mut out: Vec<&Settings> = Vec::new();
    for &s in settings {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    (out.len() >= 2).then_some(out)
}

/// Whether the configurations differ in depth alone (one evaluation, no node budget): such runs
/// are charted as the draw rate against depth, as before.
pub fn depths_only(configs: &[&Settings]) -> bool {
    configs
        .iter()
        .all(|s| s.nodes.is_none() && s.eval == configs[0].eval)
}

/// The figures of whole runs of the same games, one a configuration, labelled by [`label`].
pub fn figures(rules: &Rules, runs: &[RunFile]) -> Vec<Figure> {
    let views: Vec<(String, &[super::GameRecord])> = runs
        .iter()
        .map(|f| (label(&f.settings), f.games.as_slice()))
        .collect();
    robust::figures(rules, &views)
}

/// The first line of the report of runs per configuration.
pub fn header(runs: &[RunFile]) -> String {
    let s = runs.first().map(|f| &f.settings);
    match s {
        Some(s) => format!(
            "{}: {} games under each of {} engine configurations, seed {}, {} random opening plies, cap {} plies",
            s.variant,
            s.games,
            runs.len(),
            s.seed,
            s.opening_plies,
            s.max_plies
        ),
        None => String::new(),
    }
}

/// The file `selfplay --configs --json` writes, of whole runs per configuration.
pub fn file(runs: Vec<RunFile>, figures: Vec<Figure>) -> ConfigsFile {
    ConfigsFile {
        format: robust::FORMAT.into(),
        version: robust::VERSION,
        damelab: crate::runs::shard::DAMELAB_VERSION.into(),
        runs: runs
            .into_iter()
            .map(|f| ConfigRun {
                config: label(&f.settings),
                settings: f.settings,
                report: f.report,
            })
            .collect(),
        figures,
    }
}

/// The chart's title for runs of `variant`.
pub fn title(variant: &str) -> String {
    format!("{variant}: figures across engine configurations")
}

/// Read a configurations file (`selfplay --configs --json`): its format and version checked,
/// and each figure checked to hold one finite value a run (the file keeps no games, so the
/// values are drawn as stored).
pub fn parse(path: &std::path::Path, text: &str) -> Result<ConfigsFile, Diag> {
    let help = "give the JSON file written by `selfplay --configs --json`";
    let f: ConfigsFile = serde_json::from_str(text).map_err(|e| {
        bad(
            format!(
                "`{}` is not a valid configurations file: {e}",
                path.display()
            ),
            help,
        )
    })?;
    if f.format != robust::FORMAT || f.version != robust::VERSION {
        return Err(bad(
            format!(
                "`{}` is not a configurations file of version {}",
                path.display(),
                robust::VERSION
            ),
            help,
        ));
    }
    let consistent = f.figures.iter().all(|g| {
        g.values.len() == f.runs.len()
            && g.values
                .iter()
                .zip(&f.runs)
                .all(|(v, r)| v.config == r.config)
            && g.values
                .iter()
                .all(|v| v.value.is_finite() && v.ci95.0.is_finite() && v.ci95.1.is_finite())
    });
    if f.runs.len() < 2 || f.figures.is_empty() || !consistent {
        return Err(bad(
            format!(
                "`{}` does not hold a figure per configuration for each of its runs",
                path.display()
            ),
            help,
        ));
    }
    Ok(f)
}

/// Whether a JSON text is a configurations file, by its format.
fn is_configs(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default)]
        format: String,
    }
    serde_json::from_str::<Head>(text).is_ok_and(|h| h.format == robust::FORMAT)
}

/// `selfplay chart`: the configurations chart when the files are one configurations file, or
/// run files of the same games under engine configurations that differ in more than depth
/// (runs that differ in depth alone are drawn as the draw rate against depth); `false` when
/// they are neither, for the other charts.
pub fn chart(
    paths: &[std::path::PathBuf],
    svg: &std::path::Path,
    out: &mut dyn FnMut(&str),
) -> Result<bool, Diag> {
    let mut texts = Vec::new();
    for p in paths {
        let text = crate::fsio::read_text(p, crate::fsio::Kind::RunJson).map_err(|e| {
            bad(
                format!("cannot read `{}`: {e}", p.display()),
                "give the JSON files of runs, of ladders or of `selfplay --configs`",
            )
        })?;
        texts.push(text);
    }
    let (title, figures) = if let Some(k) = texts.iter().position(|t| is_configs(t)) {
        if paths.len() > 1 {
            return Err(bad(
                format!(
                    "`{}` is a configurations file: chart it alone",
                    paths[k].display()
                ),
                "give one `selfplay --configs --json` file, or the run files of each configuration",
            ));
        }
        let f = parse(&paths[k], &texts[k])?;
        let variant = f.runs[0].settings.variant.clone();
        // The flags and ranges are drawn as the values give them, not as the file says.
        let figures: Vec<Figure> = f
            .figures
            .into_iter()
            .map(|g| Figure::of(&g.name, g.values))
            .collect();
        out(&format!(
            "{}: {} engine configurations (from `{}`)",
            variant,
            f.runs.len(),
            paths[k].display()
        ));
        (title(&variant), figures)
    } else {
        let mut runs = Vec::new();
        for (p, t) in paths.iter().zip(&texts) {
            runs.push(super::file::parse_run(p, t)?);
        }
        let settings: Vec<&Settings> = runs.iter().map(|f| &f.settings).collect();
        let per_config = match configurations(&settings) {
            Some(c) => settings.len() == c.len() && !depths_only(&c),
            None => false,
        };
        if !per_config {
            return Ok(false);
        }
        if let Some(f) = runs.iter().find(|f| !f.shards.is_whole()) {
            return Err(bad(
                format!(
                    "the run of `{}` holds {} only",
                    label(&f.settings),
                    f.shards
                ),
                "merge each configuration's shards first (`selfplay merge` of them all does it)",
            ));
        }
        let v = crate::runs::merge::rules_for_merge(
            None,
            &runs[0].settings.variant,
            &runs[0].settings.rules_fingerprint,
        )?;
        let figures = figures(&v.rules, &runs);
        out(&header(&runs));
        (title(&runs[0].settings.variant), figures)
    };
    out(robust::text(&figures).trim_end());
    let text =
        super::robust_chart::figures_svg(&title, &figures).map_err(|e| bad(e.to_string(), ""))?;
    crate::fsio::write_file(svg, text.as_bytes())?;
    Ok(true)
}
