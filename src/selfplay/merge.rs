//! `selfplay merge`: the JSON (and PDN) files of a run's shards put back together into exactly
//! the run played in one go, the rules they were played under found again and checked by the
//! runs' kernel ([`crate::runs::merge`]).

use super::file::{bad, check_outputs, check_writable, header, parse_run, tables_line, Outputs};
use super::pdn::{merge_pdn, PdnInput};
use super::RunFile;
use crate::runs::merge::{rules_for_merge, Inputs};
use crate::runs::shard::{self, ShardSet, Stamp};
use crate::Rules;
use miette::Report as Diag;
use std::path::{Path, PathBuf};

/// The shards' PDN files, read whole; `help` says which files were meant.
pub(super) fn read_pdn_inputs(paths: &[&PathBuf], help: &str) -> Result<Vec<PdnInput>, Diag> {
    paths
        .iter()
        .map(|p| {
            crate::fsio::read_file(p, crate::fsio::Kind::RunPdn)
                .map(|text| PdnInput {
                    name: p.display().to_string(),
                    text,
                })
                .map_err(|e| bad(format!("cannot read `{}`: {e}", p.display()), help))
        })
        .collect()
}

/// Merge run files: the same settings, disjoint shards; the report is recomputed from the games.
/// The files are named by their place (`file 1`, …) in messages; see [`merge_named`].
pub fn merge_files(files: &[RunFile], rules: &Rules) -> Result<RunFile, Diag> {
    let names: Vec<String> = (1..=files.len()).map(|i| format!("file {i}")).collect();
    merge_named(&names, files, rules)
}

/// Merge run files named `names` (for messages): one format, build and settings, one split into
/// shards, no shard twice (see [`shard::check_mergeable`]). A merge of every shard is the whole
/// run (`1 of 1`, equal to the run played at once); a merge lacking shards says which it holds.
pub fn merge_named(names: &[String], files: &[RunFile], rules: &Rules) -> Result<RunFile, Diag> {
    let Some(first) = files.first() else {
        return Err(bad("no files to merge", "give the shards' JSON files"));
    };
    let held = shard::check_mergeable(&stamps(names, files)?).map_err(Diag::new)?;
    let mut games: Vec<_> = files.iter().flat_map(|f| f.games.iter().cloned()).collect();
    games.sort_by_key(|g| g.i);
    if let Some(w) = games.windows(2).find(|w| w[0].i == w[1].i) {
        return Err(bad(
            format!("game {} appears in more than one file", w[0].i),
            "merge each shard once",
        ));
    }
    let shards = if held.is_whole() {
        ShardSet::whole()
    } else {
        held
    };
    // The rating: played by shard 1 only; every copy of it must agree.
    let mut ratings = files.iter().filter_map(|f| f.rating.as_ref());
    let rating = ratings.next().cloned();
    if ratings.any(|r| Some(r) != rating.as_ref()) {
        return Err(bad(
            "the files hold different ratings of the run's setting",
            "merge the files the shards of one run wrote, unedited",
        ));
    }
    let mut file = RunFile::new(rules, first.settings.clone(), shards, games);
    file.rate_against = first.rate_against.clone();
    file.rating = rating;
    Ok(file)
}

/// What [`shard::check_mergeable`] compares of each file.
fn stamps<'a>(names: &'a [String], files: &'a [RunFile]) -> Result<Vec<Stamp<'a>>, Diag> {
    names
        .iter()
        .zip(files)
        .map(|(name, f)| {
            let mut settings = serde_json::to_value(&f.settings)
                .map_err(|e| bad(format!("cannot compare the settings: {e}"), ""))?;
            // The reference of the rating is part of the run: shards rated against different
            // ones are not merged.
            if let (Some(r), Some(map)) = (&f.rate_against, settings.as_object_mut()) {
                map.insert(
                    "rate_against".into(),
                    serde_json::json!({"reference": r.reference, "games": r.games}),
                );
            }
            Ok(Stamp {
                name,
                format: &f.format,
                version: f.version,
                damelab: &f.damelab,
                settings,
                shards: &f.shards,
            })
        })
        .collect()
}

/// `selfplay merge FILE... [--rules FILE]`: check the files, merge them, report and write.
pub(crate) fn merge(
    paths: &[PathBuf],
    to: &Outputs,
    partial: bool,
    rules: Option<&Path>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Diag> {
    check_outputs(to.json, to.svg)?;
    if let Some(p) = to.pdn {
        check_writable(p)?;
    }
    let inputs = Inputs::of(paths, to.pdn.is_some(), "give the shards' `--json` files")?;
    let (pdn_paths, json_paths) = (inputs.pdn, inputs.json);
    let read = |p: &Path| {
        crate::fsio::read_text(p, crate::fsio::Kind::RunJson).map_err(|e| {
            bad(
                format!("cannot read `{}`: {e}", p.display()),
                "give the JSON files written by `selfplay --json`",
            )
        })
    };
    let mixed = |p: &Path, ladder: bool| {
        let (this, that) = if ladder {
            ("a ladder file", "a run file")
        } else {
            ("not a ladder file", "one")
        };
        bad(
            format!(
                "`{}` is {this}, but `{}` is {that}",
                p.display(),
                json_paths[0].display()
            ),
            "merge the ladder files of one ladder's shards, or the run files of one run's",
        )
    };
    let first = read(json_paths[0])?;
    if is_ladder(&first) {
        // The files of a ladder's shards are merged rung by rung.
        let mut texts = vec![(json_paths[0], first)];
        for p in &json_paths[1..] {
            let text = read(p)?;
            if !is_ladder(&text) {
                return Err(mixed(p, false));
            }
            texts.push((*p, text));
        }
        return super::ladder_merge::merge(&texts, &pdn_paths, to, partial, rules, out);
    }
    let mut files = vec![parse_run(json_paths[0], &first)?];
    drop(first);
    for p in &json_paths[1..] {
        let text = read(p)?;
        if is_ladder(&text) {
            return Err(mixed(p, true));
        }
        files.push(parse_run(p, &text)?);
    }
    let s = &files[0].settings;
    let v = rules_for_merge(rules, &s.variant, &s.rules_fingerprint)?;
    let names: Vec<String> = json_paths.iter().map(|p| p.display().to_string()).collect();
    let settings: Vec<&super::Settings> = files.iter().map(|f| &f.settings).collect();
    if let Some(configs) = super::configs_files::configurations(&settings) {
        let configs: Vec<super::Settings> = configs.into_iter().cloned().collect();
        // Files of several configurations are their runs only when each configuration's shards
        // are whole; otherwise they are most likely shards of one run played with other
        // settings by mistake, and the one-run merge below names the setting that differs.
        if let Some(runs) = config_runs(&names, &files, &configs, &v.rules, partial)? {
            return merge_configs(runs, &v.rules, to, out);
        }
    }
    let merged = merge_named(&names, &files, &v.rules)?;
    shard::require_whole(&merged.shards, merged.settings.games, partial).map_err(Diag::new)?;
    let pdn = if to.pdn.is_some() {
        let inputs = read_pdn_inputs(&pdn_paths, "give the PDN files written by `selfplay --pdn`")?;
        merge_pdn(&inputs, &v.rules, &merged)?
    } else {
        String::new()
    };
    out(&header(&merged));
    out(merged.report.text().trim_end());
    let table = super::openings::file_text(&merged);
    if !table.is_empty() {
        out(table.trim_end());
    }
    if let Some(line) = tables_line(&merged) {
        out(&line);
    }
    if merged.rate_against.is_some() {
        out(&super::strength::line(&merged));
    }
    super::file::write_outputs(&merged, to, &pdn)
}

/// Each configuration's files merged as one run, or `None` when one of them is not whole (and
/// `--partial` was not given).
fn config_runs(
    names: &[String],
    files: &[RunFile],
    configs: &[super::Settings],
    rules: &Rules,
    partial: bool,
) -> Result<Option<Vec<RunFile>>, Diag> {
    let mut runs = Vec::new();
    for c in configs {
        let (n, f): (Vec<String>, Vec<RunFile>) = names
            .iter()
            .zip(files)
            .filter(|(_, f)| f.settings == *c)
            .map(|(n, f)| (n.clone(), f.clone()))
            .unzip();
        let merged = merge_named(&n, &f, rules)?;
        if !partial && shard::require_whole(&merged.shards, merged.settings.games, false).is_err() {
            return Ok(None);
        }
        runs.push(merged);
    }
    Ok(Some(runs))
}

/// Merge the shards of runs of the same games under several engine configurations: each
/// configuration's files merged as one run, then each figure across the configurations, and
/// with `--svg` the chart `selfplay --configs --svg` draws, with `--json` its file.
fn merge_configs(
    runs: Vec<RunFile>,
    rules: &Rules,
    to: &Outputs,
    out: &mut dyn FnMut(&str),
) -> Result<(), Diag> {
    use super::configs_files as cf;
    if to.pdn.is_some() {
        return Err(bad(
            "--pdn merges the games of one run, but these files are runs of several engine configurations",
            "merge each configuration's files with --pdn apart",
        ));
    }
    let figures = cf::figures(rules, &runs);
    out(&cf::header(&runs));
    out(super::robust::text(&figures).trim_end());
    if let Some(p) = to.svg {
        let text =
            super::robust_chart::figures_svg(&cf::title(&runs[0].settings.variant), &figures)
                .map_err(|e| bad(e.to_string(), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    if let Some(p) = to.json {
        let file = cf::file(runs, figures);
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| bad(format!("cannot write the figures as JSON: {e}"), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    Ok(())
}

/// Whether a JSON text is a ladder file (`selfplay --ladder --json`), by its format.
fn is_ladder(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default)]
        format: String,
    }
    serde_json::from_str::<Head>(text).is_ok_and(|h| h.format == super::ladder::FORMAT)
}
