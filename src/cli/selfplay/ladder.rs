//! `selfplay VARIANT --ladder SPEC`: each rung a run, played in turn with a progress line.

use super::{plan, RunArgs, RunPlan};
use crate::cli::console::errln;
use crate::runs::shard::ShardSet;
use crate::selfplay::file::bad;
use crate::selfplay::ladder::{parse, rates, Key, LadderFile};
use crate::selfplay::{RunFile, Settings};
use miette::Report as Diag;

/// `selfplay VARIANT --ladder SPEC --games G …`: the ladder and the run's plan checked (as a
/// run's, [`plan`]), then each rung a run of G games (with `--shard K/N`,
/// the shard's games of each rung, and the rating matches [`rates`] gives it); Ctrl-C keeps the
/// rungs finished.
pub fn play(a: &RunArgs, spec: &str, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let ladder = parse(spec).map_err(Diag::new)?;
    let RunPlan {
        v,
        threads,
        shard,
        aids,
        rate_against,
        tables,
        indices,
        openings,
    } = plan(a, ladder.rungs.len() as u64, out)?;
    let eval = aids
        .weights
        .as_deref()
        .map(|w| crate::search::weights::describe(Some(w)));
    crate::interrupt::install_termination();
    crate::interrupt::reset();
    let shards = shard.map_or_else(ShardSet::whole, ShardSet::of);
    let mut runs: Vec<RunFile> = Vec::new();
    let mut pdn = String::new();
    let t = std::time::Instant::now();
    let mut stopped_at: Option<u64> = None;
    for (i, &value) in ladder.rungs.iter().enumerate() {
        let settings = Settings {
            variant: v.name().to_string(),
            rules_fingerprint: v.rules.fingerprint(),
            games: a.games,
            depth: (ladder.key == Key::Depth).then_some(value as u32),
            nodes: (ladder.key == Key::Nodes).then_some(value),
            random: false,
            seed: a.seed,
            max_plies: a.max_plies,
            opening_plies: a.opening_plies,
            eval: eval.clone(),
            tables: tables.clone(),
            contempt: a.contempt,
            openings: openings.clone(),
        };
        let bar = crate::progress::Bar::new(
            indices.len() as u64,
            &format!(
                "rung {}/{} {}={value}",
                i + 1,
                ladder.rungs.len(),
                ladder.key.name()
            ),
        );
        let rung_start = std::time::Instant::now();
        let played = crate::selfplay::run_games(
            &v.rules,
            &settings,
            &indices,
            threads,
            a.pdn.is_some(),
            aids.clone(),
            &|| bar.inc(1),
        )
        .map_err(miette::Report::new)?;
        bar.finish();
        let Some(played) = played else {
            stopped_at = Some(value);
            break;
        };
        let rating = match &rate_against {
            Some(req) if rates(i, shard) => {
                match crate::selfplay::strength::measure(
                    &v,
                    &settings,
                    req,
                    a.eval.as_deref(),
                    threads,
                )? {
                    Some(r) => Some(r),
                    None => {
                        stopped_at = Some(value);
                        break;
                    }
                }
            }
            _ => None,
        };
        let mut file = RunFile::new(&v.rules, settings, shards.clone(), played.games);
        file.rate_against = rate_against.clone();
        file.rating = rating;
        runs.push(file);
        pdn.push_str(&played.pdn.concat());
        // A line a rung on stderr, for batch logs as for terminals: the table waits for the end.
        errln!(
            "rung {}/{} {}={value} finished: {} games in {:.1} s",
            i + 1,
            ladder.rungs.len(),
            ladder.key.name(),
            indices.len(),
            rung_start.elapsed().as_secs_f64()
        );
    }
    let secs = t.elapsed().as_secs_f64();
    let file = LadderFile::new(v.name(), &ladder, runs);
    out(file.text().trim_end());
    out(&format!("time             {secs:.1} s ({threads} threads)"));
    if !file.runs.is_empty() {
        write_files(a, &file, &pdn)?;
    }
    if let Some(value) = stopped_at {
        return Err(bad(
            format!(
                "interrupted during rung {}={value}: {} of {} rungs finished{}",
                ladder.key.name(),
                file.runs.len(),
                ladder.rungs.len(),
                if file.runs.is_empty() {
                    ", nothing written"
                } else {
                    ", their figures and files written"
                }
            ),
            "run again for every rung; each game is seeded, so the same games are played",
        ));
    }
    Ok(())
}

/// The ladder's files asked for: its games' PDN, the ladder as JSON, its chart.
fn write_files(a: &RunArgs, file: &LadderFile, pdn: &str) -> Result<(), Diag> {
    if let Some(p) = &a.pdn {
        crate::fsio::write_file(p, pdn.as_bytes())?;
    }
    if let Some(p) = &a.json {
        let text = serde_json::to_string_pretty(file)
            .map_err(|e| bad(format!("cannot write the ladder as JSON: {e}"), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    if let Some(p) = &a.svg {
        let text = crate::selfplay::ladder_chart::svg(std::slice::from_ref(file))
            .map_err(|e| bad(e.to_string(), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    Ok(())
}
