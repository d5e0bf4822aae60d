//! `train --generation G --shard K/N --data FILE`: one generation's shard planned (every
//! argument checked), played and its positions written for `train merge`.

use super::{settings_with_start, TrainArgs};
use crate::runs::shard::{self, Shard, ShardSet, DAMELAB_VERSION};
use crate::search::weights::Weights;
use crate::train::run::{bad, bar, command_line, not_folder, threads};
use crate::train::shard::{digest, to_rows, DataFile, DataSettings, FORMAT, VERSION};
use crate::train::TrainSettings;
use crate::train::{play_games, played};
use crate::Variant;
use miette::Report;
use std::path::Path;
use std::sync::Arc;

/// A generation's shard's checked plan ([`plan`]).
struct ShardPlan<'a> {
    v: Variant,
    t: TrainSettings,
    threads: usize,
    /// The generation, from 1.
    g: u32,
    data: &'a Path,
    /// The weights the generation plays with (`None`: the derived evaluation).
    weights: Option<Weights>,
    shard: Shard,
}

/// Every check of a generation's shard's arguments, before any game: the variant, the settings,
/// the threads, the generation, no output of a whole run, the data file, the weights it plays
/// with (`--from`, or the start for generation 1), the shard.
fn plan(a: &TrainArgs) -> Result<ShardPlan<'_>, Report> {
    let v = Variant::load(&a.variant).map_err(Report::new)?;
    let (t, start) = settings_with_start(a, &v)?;
    let threads = threads(a.threads)?;
    let g = a.generation.unwrap_or(1);
    if g == 0 || g > t.generations {
        return Err(bad(
            format!("--generation {g} is out of range"),
            &format!(
                "give a generation from 1 to {} (the run's --generations)",
                t.generations
            ),
        ));
    }
    for (flag, given) in [
        ("--out", a.out.is_some()),
        ("--svg", a.svg.is_some()),
        ("--json", a.json.is_some()),
    ] {
        if given {
            return Err(bad(
                format!("{flag} is not written with --generation"),
                "a generation's shard writes its data (--data); `train merge` writes the weights",
            ));
        }
    }
    let Some(data) = &a.data else {
        return Err(bad(
            "--generation needs --data FILE",
            "give the file the shard's positions go to, e.g. `--data gen1-shard1.json`",
        ));
    };
    not_folder(data)?;
    let first = "generation 1 plays with the derived evaluation or the --start weights: --from \
                 is not read";
    let weights = match (g, &a.from) {
        (1, Some(_)) => return Err(bad(first, "leave --from out for generation 1")),
        (1, None) => start,
        (_, Some(p)) => Some(Weights::load(p, &v.rules)?),
        (_, None) => {
            let before = g - 1;
            return Err(bad(
                format!("generation {g} needs --from, the weights of generation {before}"),
                &format!(
                    "give the file `train merge` wrote for generation {before}: \
                     `--from gen{before}.weights`"
                ),
            ));
        }
    };
    let shard = shard::resolve(a.shard.as_deref(), a.shards, &|name| {
        std::env::var(name).ok()
    })
    .map_err(Report::new)?
    .unwrap_or(Shard::WHOLE);
    Ok(ShardPlan {
        v,
        t,
        threads,
        g,
        data,
        weights,
        shard,
    })
}

/// `damelab train … --generation G [--shard K/N|auto] [--from W] --data FILE`: its plan checked,
/// then the shard's games played and their positions written.
pub fn play_command(a: &TrainArgs, out: &mut dyn FnMut(&str)) -> Result<(), Report> {
    let ShardPlan {
        v,
        t,
        threads,
        g,
        data,
        weights,
        shard,
    } = plan(a)?;
    let indices: Vec<u64> = shard.items(t.games).collect();
    crate::interrupt::install_termination();
    crate::interrupt::reset();
    out(&format!(
        "{}: generation {g} of `{}`, shard {shard}: {} of {} games, evaluation {}",
        v.name(),
        command_line(v.name(), &t),
        indices.len(),
        t.games,
        crate::search::weights::describe(weights.as_ref()),
    ));
    let b = bar(indices.len() as u64, &format!("generation {g} self-play"));
    let playing = weights.clone().map(Arc::new);
    let games = play_games(&v.rules, &t, g - 1, playing, threads, &indices, &|| {
        b.inc(1)
    })
    .map_err(|e| bad(e.to_string(), ""))?;
    b.finish();
    let Some(games) = games else {
        return Err(bad(
            "interrupted: no data written",
            "run the shard again; its games are seeded, so the same ones are played",
        ));
    };
    let p = played(t.games, &games, t.mirror);
    let file = DataFile {
        format: FORMAT.into(),
        version: VERSION,
        damelab: DAMELAB_VERSION.into(),
        settings: DataSettings::new(&a.variant, v.rules.fingerprint(), &t),
        generation: g,
        played_with: digest(weights.as_ref()),
        shards: ShardSet::of(shard),
        games: games.iter().map(to_rows).collect(),
    };
    let text = serde_json::to_string(&file)
        .map_err(|e| bad(format!("cannot write the data as JSON: {e}"), ""))?;
    if text.len() as u64 > crate::limits::MAX_TRAIN_DATA_BYTES {
        return Err(bad(
            format!(
                "the data of these {} games is {} bytes, more than the {} a data file may hold",
                games.len(),
                text.len(),
                crate::limits::MAX_TRAIN_DATA_BYTES
            ),
            "split the generation into more shards (`--shard K/N` with a larger N)",
        ));
    }
    crate::fsio::write_file(data, text.as_bytes())?;
    let [w, d, l] = p.results;
    let left = t.fit_pieces_at_most.map_or(String::new(), |n| {
        format!(" (+{} with more than {n} pieces left out)", p.data.left_out)
    });
    out(&format!(
        "generation {g}, shard {shard}: {} games (+{w} ={d} -{l}), {} positions{left}; wrote {}",
        games.len(),
        p.data.rows(),
        data.display()
    ));
    Ok(())
}
