//! `selfplay merge` of ladder files: the shards of a ladder (`selfplay --ladder … --shard K/N`),
//! each holding its games of every rung, put back together rung by rung into exactly the ladder
//! played on one machine. Each rung is merged as a run's shards are ([`super::merge::merge_named`]:
//! one build, equal settings, one split, no shard twice), and none may miss a shard unless
//! `--partial` is given.

use super::file::{bad, Outputs};
use super::ladder::{self, Ladder, LadderFile};
use super::merge::{merge_named, read_pdn_inputs};
use super::pdn::merge_pdn_runs;
use super::RunFile;
use crate::runs::merge::rules_for_merge;
use crate::runs::shard;
use miette::{Diagnostic, Report as Diag};
use std::path::{Path, PathBuf};

const HELP: &str = "merge the ladder files the shards of one `selfplay --ladder … --shard K/N` \
                    run wrote";

/// Read and check ladder files (`texts`: each file's path and text) and merge them rung by rung.
/// Every file must be a ladder of the same variant, key and rungs; a rung that lacks a shard is
/// refused, naming both, unless `partial`.
pub fn merge_ladders(
    texts: &[(&PathBuf, String)],
    rules: Option<&Path>,
    partial: bool,
) -> Result<LadderFile, Diag> {
    let mut files = Vec::with_capacity(texts.len());
    for (p, text) in texts {
        files.push(ladder::read(p, text)?);
    }
    let (first, first_path) = (&files[0], texts[0].0);
    for (f, (p, _)) in files.iter().zip(texts).skip(1) {
        let describe = |f: &LadderFile| {
            format!(
                "a ladder of `{}` at {} {}",
                f.variant,
                f.key.name(),
                f.asked
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        if (&f.variant, f.key, &f.asked) != (&first.variant, first.key, &first.asked) {
            return Err(bad(
                format!(
                    "`{}` is {}, `{}` {}",
                    p.display(),
                    describe(f),
                    first_path.display(),
                    describe(first)
                ),
                HELP,
            ));
        }
    }
    let Some(run) = files.iter().find_map(|f| f.runs.first()) else {
        return Err(bad("the ladder files hold no rung", HELP));
    };
    let v = rules_for_merge(
        rules,
        &run.settings.variant,
        &run.settings.rules_fingerprint,
    )?;
    let k = first.key.name();
    let mut runs: Vec<RunFile> = Vec::new();
    for (r, value) in first.asked.iter().enumerate() {
        let (names, rung): (Vec<String>, Vec<RunFile>) = files
            .iter()
            .zip(texts)
            .filter_map(|(f, (p, _))| {
                f.runs
                    .get(r)
                    .map(|run| (format!("{} rung {k}={value}", p.display()), run.clone()))
            })
            .unzip();
        if rung.is_empty() {
            if partial {
                break;
            }
            return Err(bad(
                format!(
                    "no file holds rung {k}={value}: every shard's ladder was interrupted before \
                     it ({} of {} rungs merged)",
                    runs.len(),
                    first.asked.len()
                ),
                "play the shards again (the same commands: each game is seeded, so the same \
                 games are played), or give --partial for the rungs here",
            ));
        }
        let merged = merge_named(&names, &rung, &v.rules)?;
        shard::require_whole(&merged.shards, merged.settings.games, partial).map_err(|e| {
            let help = e.help().map(|h| h.to_string()).unwrap_or_default();
            bad(format!("rung {k}={value}: {e}"), &help)
        })?;
        runs.push(merged);
    }
    let ladder = Ladder {
        key: first.key,
        rungs: first.asked.clone(),
    };
    Ok(LadderFile::new(&first.variant, &ladder, runs))
}

/// `selfplay merge` of ladder files (`json`, read as `texts`) and their PDN files (`pdn`): the
/// merged ladder's report, and its JSON, chart and PDN when asked for. The caller
/// ([`super::merge::merge`]) has checked the outputs.
pub(crate) fn merge(
    texts: &[(&PathBuf, String)],
    pdn: &[&PathBuf],
    to: &Outputs,
    partial: bool,
    rules: Option<&Path>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Diag> {
    let file = merge_ladders(texts, rules, partial)?;
    let text = if to.pdn.is_some() {
        let inputs = read_pdn_inputs(
            pdn,
            "give the PDN files written by `selfplay --ladder … --pdn`",
        )?;
        let first = &file.runs[0].settings;
        let v = rules_for_merge(rules, &first.variant, &first.rules_fingerprint)?;
        merge_pdn_runs(&inputs, &v.rules, &file.runs)?
    } else {
        String::new()
    };
    out(file.text().trim_end());
    if let Some(p) = to.pdn {
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    if let Some(p) = to.json {
        let json = serde_json::to_string_pretty(&file)
            .map_err(|e| bad(format!("cannot write the ladder as JSON: {e}"), ""))?;
        crate::fsio::write_file(p, json.as_bytes())?;
    }
    if let Some(p) = to.svg {
        let svg = super::ladder_chart::svg(std::slice::from_ref(&file))
            .map_err(|e| bad(e.to_string(), ""))?;
        crate::fsio::write_file(p, svg.as_bytes())?;
    }
    Ok(())
}
