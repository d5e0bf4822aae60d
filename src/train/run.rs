//! A training run's loop, shared by the single run (`damelab train`) and `train merge`: each
//! generation's self-play, the fit of every position so far, the duel against the weights before,
//! the figures and the line that reports them, and the command line that reproduces the run.

use super::fit::{dequantise, fit, fit_k, loss, quantise, sigmoid};
use super::mirror::Mirror;
use super::symmetry::{Applied, Symmetry};
use super::{duel, play, Data, TrainSettings, Wdl};
use crate::search::weights::Weights;
use crate::Variant;
use miette::Report;
use serde::Serialize;
use std::sync::Arc;

pub const MAX_GENERATIONS: u32 = 100;
pub const MAX_TRAIN_GAMES: u64 = 1_000_000;
pub use crate::limits::MAX_RUN_NODES;
pub const MAX_EPOCHS: u32 = 100_000;
pub const MAX_OPENING_PLIES: u32 = 200;
pub const MAX_PLIES: u32 = 10_000;

/// One generation's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Generation {
    pub generation: u32,
    pub games: u64,
    /// Wins of the first side, draws, wins of the second side in its self-play games.
    pub results: [u64; 3],
    /// Positions fitted so far (all generations), and held out.
    pub positions: usize,
    pub held_out: usize,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    pub validation_before: f64,
    pub validation_after: f64,
    /// The new weights against the derived evaluation.
    pub against_derived: Option<Wdl>,
    /// With `--fit-pieces-at-most N`: N, and the quiet positions so far left out of the fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<(u32, usize)>,
    /// With `--symmetric`: the fitted weights the ties moved, and the largest move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tied: Option<(usize, i32)>,
}

#[derive(Serialize)]
pub(crate) struct RunJson<'a> {
    pub format: &'static str,
    pub variant: &'a str,
    pub settings: &'a TrainSettings,
    pub generations: &'a [Generation],
}

pub(crate) use crate::util::bad;

/// The command that reproduces a run (threads aside: they change nothing).
pub fn command_line(variant: &str, t: &TrainSettings) -> String {
    let budget = match (t.nodes, t.depth) {
        (_, Some(d)) => format!("--depth {d}"),
        (Some(n), None) => format!("--nodes {n}"),
        (None, None) => String::new(),
    };
    let mut flags = String::new();
    if t.wide_patterns {
        flags.push_str(" --wide-patterns");
    }
    if t.phases {
        flags.push_str(" --phases");
    }
    if t.race {
        flags.push_str(" --race");
    }
    if t.result_weight != 1.0 {
        flags.push_str(&format!(" --result-weight {}", t.result_weight));
    }
    let shapes = t.shapes();
    if shapes != [crate::search::learned::Window::SMALL] {
        flags.push_str(&format!(
            " --window {}",
            crate::search::learned::shapes_text(&shapes)
        ));
    }
    if let Some(s) = &t.start {
        flags.push_str(&format!(" --start {}", s.path));
    }
    if t.fit_new {
        flags.push_str(" --fit new");
    }
    if let Some(n) = t.fit_pieces_at_most {
        flags.push_str(&format!(" --fit-pieces-at-most {n}"));
    }
    if t.mirror {
        flags.push_str(" --mirror");
    }
    if t.symmetric {
        flags.push_str(" --symmetric");
    }
    format!(
        "damelab train {variant} --seed {} --generations {} --games {} {budget} --epochs {} \
         --match-games {} --opening-plies {} --max-plies {} --l2 {}{flags}",
        t.seed, t.generations, t.games, t.epochs, t.match_games, t.opening_plies, t.max_plies, t.l2
    )
}

pub(crate) fn bar(len: u64, what: &str) -> crate::progress::Bar {
    crate::progress::Bar::new(len, what)
}

/// What a run produced: the weights and every generation's figures.
pub struct Trained {
    pub weights: Weights,
    pub generations: Vec<Generation>,
    /// Stopped by Ctrl-C after this many generations.
    pub interrupted: bool,
}

/// Run the generations from the derived evaluation; `out` gets a line per generation.
pub fn train(
    v: &Variant,
    t: &TrainSettings,
    threads: usize,
    out: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(&Weights) -> Result<(), Report>,
) -> Result<Trained, Report> {
    train_from(v, t, None, threads, out, checkpoint)
}

/// Run the generations from `start` (the weights of `t.start`, loaded by
/// [`settings_with_start`]) or, with none, from the derived evaluation.
pub fn train_from(
    v: &Variant,
    t: &TrainSettings,
    start: Option<&Weights>,
    threads: usize,
    out: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(&Weights) -> Result<(), Report>,
) -> Result<Trained, Report> {
    let rules = &v.rules;
    let layout = t.layout(rules.as_ref());
    debug_assert_eq!(
        t.start.as_ref().map(|s| s.digest.clone()),
        start.map(Weights::digest)
    );
    let derived = Weights::derived_in(rules, &layout);
    // The pull is toward the derived evaluation, with or without a start.
    let anchor = dequantise(&derived.values);
    let mut current = derived.clone();
    current.variant = v.name().to_string();
    current.made_by = command_line(v.name(), t);
    if let Some(s) = start {
        // Checked by `settings_with_start`: the start moves into the run's layout.
        let carried = s
            .carried_into(rules, &layout)
            .map_err(|e| bad(e.to_string(), ""))?;
        current.values = carried.values;
        current.search = carried.search;
    }
    let held = t.held(rules.as_ref());
    let mut tie = ties(v, t)?;
    let mut data = Data {
        shift: layout.row_shift(),
        ..Data::default()
    };
    let mut generations = Vec::new();
    let mut interrupted = false;
    for g in 0..t.generations {
        // Generation 1 plays with the start weights as they are, in their own layout.
        let playing = match (g, start) {
            (0, Some(s)) => Some(Arc::new(s.clone())),
            (0, None) => None,
            _ => Some(Arc::new(current.clone())),
        };
        let b = bar(t.games, &format!("generation {} self-play", g + 1));
        let played = play(rules, t, g, playing, threads, &|| b.inc(1))
            .map_err(|e| bad(e.to_string(), ""))?;
        b.finish();
        let Some(played) = played else {
            interrupted = true;
            break;
        };
        data.extend(&played.data);
        let Some(step) = fit_step(
            &mut data,
            &current.values,
            &anchor,
            held.as_deref(),
            tie.as_mut(),
            t,
            g,
        ) else {
            interrupted = true;
            break;
        };
        current.values = step.values.clone();
        let new = Arc::new(current.clone());
        let against = if t.match_games > 0 {
            let b = bar(t.match_games, &format!("generation {} match", g + 1));
            let r = duel(rules, t, g, Some(new), None, threads, &|| b.inc(1))
                .map_err(|e| bad(e.to_string(), ""))?;
            b.finish();
            if r.is_none() {
                interrupted = true;
            }
            r
        } else {
            None
        };
        let gen = Generation::of(g + 1, played.games, played.results, &data, &step, against)
            .left_out(t, &data);
        out(&generation_line(&gen));
        generations.push(gen);
        // Each generation's weights are written as it ends: a long run stopped late keeps them.
        checkpoint(&current)?;
        if interrupted {
            break;
        }
    }
    debug_assert_eq!(current.values.len(), layout.len);
    Ok(Trained {
        weights: current,
        generations,
        interrupted,
    })
}

impl Generation {
    /// Generation `generation`'s figures: its games and their results, the positions fitted so
    /// far (`data`), the fit (`step`) and the duel against the derived evaluation.
    pub(crate) fn of(
        generation: u32,
        games: u64,
        results: [u64; 3],
        data: &Data,
        step: &Step,
        against_derived: Option<Wdl>,
    ) -> Generation {
        let held = data.held_out.iter().filter(|h| **h).count();
        Generation {
            generation,
            games,
            results,
            positions: data.rows() - held,
            held_out: held,
            k: step.k,
            loss_before: step.loss_before,
            loss_after: step.loss_after,
            validation_before: step.validation_before,
            validation_after: step.validation_after,
            against_derived,
            left_out: None,
            tied: step.tied.map(|a| (a.changed, a.largest)),
        }
    }

    /// With `--fit-pieces-at-most`, the quiet positions of `data` left out of the fit.
    pub(crate) fn left_out(mut self, t: &TrainSettings, data: &Data) -> Generation {
        self.left_out = t.fit_pieces_at_most.map(|n| (n, data.left_out));
        self
    }
}

/// What a generation's fit gave: the scale, the losses before and after, the new weights.
pub(crate) struct Step {
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    pub validation_before: f64,
    pub validation_after: f64,
    pub values: Vec<i32>,
    /// With `--symmetric`: what tying the fitted weights to their mirror features changed.
    pub tied: Option<Applied>,
}

/// With `--symmetric`, the ties of the run's weights to their mirror features.
pub(crate) fn ties(v: &Variant, t: &TrainSettings) -> Result<Option<Symmetry>, Report> {
    if !t.symmetric {
        return Ok(None);
    }
    let mirror = Mirror::of(&v.rules).map_err(|why| {
        bad(
            format!("--symmetric needs rules that treat the two sides alike: {why}"),
            "leave out --symmetric: such rules' weights have no mirror feature to be tied to",
        )
    })?;
    Ok(Some(Symmetry::of(&mirror, &t.layout(v.rules.as_ref()))))
}

/// Generation `g`'s fit (from 0) of all the data so far, starting from the weights `current`
/// and pulled toward `anchor`, then (with `tie`, `--symmetric`) each weight tied to its mirror
/// feature's. `None` when interrupted. The single run and `train merge` both fit here, so they
/// give the same weights.
pub(crate) fn fit_step(
    data: &mut Data,
    current: &[i32],
    anchor: &[f64],
    held: Option<&[bool]>,
    tie: Option<&mut Symmetry>,
    t: &TrainSettings,
    g: u32,
) -> Option<Step> {
    let start = dequantise(current);
    // The scale is fitted to the results; with a result weight below 1 the targets are then
    // the results blended with the searches' scores on that scale (the results come back after).
    let k = fit_k(data, &start);
    let results = (t.result_weight < 1.0).then(|| {
        let blended = data
            .y
            .iter()
            .zip(&data.score)
            .map(|(&y, &s)| {
                if s.is_nan() {
                    y
                } else {
                    let p = sigmoid(s as f64 / k);
                    (t.result_weight * y as f64 + (1.0 - t.result_weight) * p) as f32
                }
            })
            .collect();
        std::mem::replace(&mut data.y, blended)
    });
    let step = fit_targets(data, &start, anchor, held, tie, k, t, g);
    if let Some(y) = results {
        data.y = y;
    }
    step
}

/// The fit of `data`'s targets as they stand, on the scale `k`; the losses after it are those
/// of the weights as written (tied, with `tie`).
#[allow(clippy::too_many_arguments)]
fn fit_targets(
    data: &Data,
    start: &[f64],
    anchor: &[f64],
    held: Option<&[bool]>,
    tie: Option<&mut Symmetry>,
    k: f64,
    t: &TrainSettings,
    g: u32,
) -> Option<Step> {
    let (lb, vb) = (loss(data, start, k, false), loss(data, start, k, true));
    let b = bar(t.epochs as u64, &format!("generation {} fit", g + 1));
    let fitted = fit(data, start, anchor, held, k, t.epochs, t.l2, &|| b.inc(1));
    b.finish();
    let mut q = quantise(&fitted?);
    let tied = tie.map(|s| s.apply(&mut q));
    let back = dequantise(&q);
    let (la, va) = (loss(data, &back, k, false), loss(data, &back, k, true));
    Some(Step {
        k,
        loss_before: lb,
        loss_after: la,
        validation_before: vb,
        validation_after: va,
        values: q,
        tied,
    })
}

pub(crate) fn generation_line(g: &Generation) -> String {
    let [w, d, l] = g.results;
    let left = g.left_out.map_or(String::new(), |(n, out)| {
        format!("; {out} with more than {n} pieces left out")
    });
    let tied = g.tied.map_or(String::new(), |(n, most)| {
        format!("; {n} weights tied to their mirror feature's (moved by at most {most})")
    });
    let mut line = format!(
        "generation {}: {} games (+{w} ={d} -{l}), {} positions (+{} held out{left}), K {:.0}, \
         loss {:.4} -> {:.4}, validation {:.4} -> {:.4}{tied}",
        g.generation,
        g.games,
        g.positions,
        g.held_out,
        g.k,
        g.loss_before,
        g.loss_after,
        g.validation_before,
        g.validation_after
    );
    if let Some(m) = g.against_derived {
        let (e, lo, hi) = m.elo();
        line.push_str(&format!(
            "; against derived +{} ={} -{} score {:.3} Elo {e:+.0} [{lo:+.0}, {hi:+.0}]",
            m.wins,
            m.draws,
            m.losses,
            m.score()
        ));
    }
    line
}

/// `--threads`, or every core.
pub(crate) fn threads(n: Option<usize>) -> Result<usize, Report> {
    match n {
        Some(0) | Some(1025..) => Err(bad(
            format!("--threads {} is out of range", n.unwrap_or(0)),
            "give from 1 to 1024 threads",
        )),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Refuse to write to a folder.
pub(crate) fn not_folder(p: &std::path::Path) -> Result<(), Report> {
    if p.is_dir() {
        return Err(bad(
            format!("cannot write `{}`: it is a folder", p.display()),
            "give a file path",
        ));
    }
    Ok(())
}

/// A variant's name as a file name: a rules file's stem, not its path.
pub(crate) fn file_stem(name: &str) -> String {
    std::path::Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "variant".into())
}
