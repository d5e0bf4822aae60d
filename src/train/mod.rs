//! Training a learned evaluation for any rules file: self-play games keep their quiet positions
//! with the games' results, a logistic model of the features ([`crate::search::learned`]) is fitted
//! to them (`sigmoid(eval / K)` against the result, the "Texel" method), and each generation plays
//! its games with the weights of the one before. Every game is seeded from (seed, generation,
//! index) and the fit runs in a fixed order on one thread, so a seed gives the same weights
//! whatever the thread count.

pub mod chart;
pub mod fit;
pub mod mirror;
pub mod run;
pub mod shard;
pub mod symmetry;

use crate::engine::{BitSet, Move, Position, Rules};
use crate::runs::ThreadsError;
use crate::search::learned::Features;
use crate::search::weights::Weights;
use crate::search::zobrist::splitmix;
use crate::search::Searcher;
use crate::selfplay::{play_game_with, Settings};
use mirror::{Asymmetry, Mirror};
use serde::Serialize;
use std::sync::Arc;

/// Transposition table per engine while training (cleared before each game).
const TT_MIB: usize = 2;
/// Search scores kept as targets are clamped to this (won and lost scores among them).
const SCORE_CAP: i32 = 3000;

/// Everything that decides a training run: equal settings give equal weights.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct TrainSettings {
    pub seed: u64,
    pub generations: u32,
    /// Self-play games per generation.
    pub games: u64,
    /// The engines' budget per move in self-play and in the generation matches.
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub opening_plies: u32,
    pub max_plies: u32,
    /// Passes of the optimiser over the positions per generation.
    pub epochs: u32,
    /// Games of each generation's match against the derived evaluation (pairs, both colours).
    pub match_games: u64,
    /// Weight of the pull of every weight toward its starting value.
    pub l2: f64,
    /// Whether the layout has the wide patterns' table.
    #[serde(default)]
    pub wide_patterns: bool,
    /// Whether every feature has an opening and an ending weight.
    #[serde(default)]
    pub phases: bool,
    /// Whether the layout has the race features (free men, the fastest one's tempi, who queens
    /// first) and, without phases, an ending's weight for each small feature.
    #[serde(default)]
    pub race: bool,
    /// The share of a position's target that is its game's result; the rest is the self-play
    /// search's score of the position, as a probability (1: the result alone).
    #[serde(default = "one")]
    pub result_weight: f64,
    /// The weights the run starts from (`--start`): generation 1 plays with them and its fit
    /// starts from them (none: the derived evaluation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Start>,
    /// The pattern windows' shape (`--window`; 2x2 unless given).
    #[serde(default)]
    pub window: crate::search::learned::Window,
    /// Further window shapes beside the first (`--window 2x2+2x4`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_windows: Vec<crate::search::learned::Window>,
    /// Fit only the weights the start file does not have (`--fit new`): every weight carried
    /// from it keeps its value.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fit_new: bool,
    /// Fit only the positions with at most this many pieces on the board
    /// (`--fit-pieces-at-most`): the games are played whole, the other positions left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit_pieces_at_most: Option<u32>,
    /// Fit each position together with its mirror image (`--mirror`, [`mirror`]): the rows of a
    /// game come in pairs, a position and then its mirror image with the result reversed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mirror: bool,
    /// Tie each weight to its mirror feature's after every generation's fit (`--symmetric`,
    /// [`symmetry`]): the weights then score a position's mirror image exactly alike.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub symmetric: bool,
}

/// A run's starting weights: the file as given and its digest (what the games record as the
/// evaluation they were played with), and its layout line (which weights it carries into the
/// run's layout: those `--fit new` holds).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Start {
    pub path: String,
    pub digest: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub layout: String,
}

fn one() -> f64 {
    1.0
}

impl TrainSettings {
    /// The layout of the weights these settings train.
    pub fn layout<B: BitSet>(&self, rules: &Rules<B>) -> crate::search::learned::Layout {
        crate::search::learned::Layout::build(
            rules,
            &self.shapes(),
            self.wide_patterns,
            self.phases,
        )
        .raced(self.race)
    }

    /// With `--fit new`, which of the run's weights the fit holds: `true` for each one carried
    /// from the start file ([`crate::search::weights::carried_mask`]). `None`: every weight is
    /// fitted.
    pub fn held<B: BitSet>(&self, rules: &Rules<B>) -> Option<Vec<bool>> {
        let start = self.start.as_ref().filter(|_| self.fit_new)?;
        let from = crate::search::learned::Layout::from_summary(rules, &start.layout);
        Some(crate::search::weights::carried_mask(
            &from,
            &self.layout(rules),
        ))
    }

    /// Whether a position goes into the fit (`--fit-pieces-at-most`).
    pub fn fits<B: BitSet>(&self, pos: &Position<B>) -> bool {
        self.fit_pieces_at_most
            .is_none_or(|n| pos.occupied().count() <= n)
    }

    /// The window shapes, the first and those beside it.
    pub fn shapes(&self) -> Vec<crate::search::learned::Window> {
        let mut all = vec![self.window];
        all.extend_from_slice(&self.more_windows);
        all
    }
}

/// The positions of a set of games, as sparse feature rows, with the results.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// Row `r`'s features are `idx[start[r]..start[r + 1]]` with values `val[..]`.
    pub idx: Vec<u32>,
    pub val: Vec<i16>,
    pub start: Vec<u32>,
    /// The result for the first side: 1 a win, ½ a draw, 0 a loss.
    pub y: Vec<f32>,
    /// Rows kept for validation (every tenth game), not fitted.
    pub held_out: Vec<bool>,
    /// The values are this many bits larger than the features' (a phased layout's blend).
    pub shift: u32,
    /// Each row's self-play search score for the first side, in score units (NaN: unknown).
    pub score: Vec<f32>,
    /// Quiet positions of the games left out of the fit (`--fit-pieces-at-most`).
    pub left_out: usize,
}

impl Data {
    pub fn rows(&self) -> usize {
        self.y.len()
    }

    pub fn push(&mut self, feats: &[(u32, i16)], y: f32, held_out: bool) {
        self.push_scored(feats, y, held_out, f32::NAN);
    }

    /// A row with the search's score of its position (first side, score units).
    pub fn push_scored(&mut self, feats: &[(u32, i16)], y: f32, held_out: bool, score: f32) {
        self.score.push(score);
        if self.start.is_empty() {
            self.start.push(0);
        }
        for &(i, v) in feats {
            self.idx.push(i);
            self.val.push(v);
        }
        self.start.push(self.idx.len() as u32);
        self.y.push(y);
        self.held_out.push(held_out);
    }

    /// Another set's rows after this one's.
    pub fn extend(&mut self, other: &Data) {
        for r in 0..other.rows() {
            let (a, b) = (other.start[r] as usize, other.start[r + 1] as usize);
            let feats: Vec<(u32, i16)> = (a..b).map(|k| (other.idx[k], other.val[k])).collect();
            let score = other.score.get(r).copied().unwrap_or(f32::NAN);
            self.push_scored(&feats, other.y[r], other.held_out[r], score);
        }
        self.left_out += other.left_out;
    }
}

/// What one generation's games gave: the positions, and the games' outcomes.
pub struct Played {
    pub data: Data,
    pub games: u64,
    /// Wins of the first side, draws, wins of the second side.
    pub results: [u64; 3],
}

/// The seed of a generation's games.
pub fn generation_seed(seed: u64, generation: u32, what: u64) -> u64 {
    let mut s = seed ^ (generation as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ what << 56;
    splitmix(&mut s)
}

fn selfplay_settings(t: &TrainSettings, seed: u64, games: u64) -> Settings {
    Settings {
        variant: String::new(),
        rules_fingerprint: String::new(),
        games,
        depth: t.depth,
        nodes: t.nodes,
        random: false,
        seed,
        max_plies: t.max_plies,
        opening_plies: t.opening_plies,
        eval: None,
        tables: None,
        contempt: 0,
        openings: None,
    }
}

/// Play a generation's self-play games with `weights` (`None`: the derived evaluation) and keep
/// every quiet position the engine moved from. `None` when interrupted.
pub fn play(
    rules: &Arc<Rules>,
    t: &TrainSettings,
    generation: u32,
    weights: Option<Arc<Weights>>,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Played>, PlayError> {
    let all: Vec<u64> = (0..t.games).collect();
    let games = play_games(rules, t, generation, weights, threads, &all, progress)?;
    Ok(games.map(|g| played(t.games, &g, t.mirror)))
}

/// One self-play game of a generation: its index in the generation, its quiet positions' features
/// and its result (`w`: 0 the first side won, 1 the second, -1 a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    pub i: u64,
    pub rows: Vec<Vec<(u32, i16)>>,
    pub w: i8,
    /// The search's score of each row's position for the first side (empty: not recorded).
    pub scores: Vec<i32>,
    /// Quiet positions the game left out of the fit (`--fit-pieces-at-most`).
    pub left_out: u64,
}

/// The games `indices` (ascending) of a generation, as [`play`] plays them: the games of a shard.
/// `None` when interrupted.
pub fn play_games(
    rules: &Arc<Rules>,
    t: &TrainSettings,
    generation: u32,
    weights: Option<Arc<Weights>>,
    threads: usize,
    indices: &[u64],
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Vec<GameData>>, PlayError> {
    let mirror = t.mirror.then(|| Mirror::of(rules)).transpose()?;
    let m = mirror.as_ref();
    Ok(if let Some(n) = &rules.narrow {
        play_width(n, t, m, generation, weights, threads, indices, progress)
    } else if let Some(mid) = &rules.mid {
        play_width(mid, t, m, generation, weights, threads, indices, progress)
    } else {
        play_width(rules, t, m, generation, weights, threads, indices, progress)
    }?)
}

/// Why a generation's games could not be played.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum PlayError {
    #[error(transparent)]
    Threads(#[from] ThreadsError),
    #[error("--mirror needs rules that treat the two sides alike: {0}")]
    Mirror(#[from] Asymmetry),
}

/// A generation's data from its games, all `total` of them in index order (every tenth game held
/// out for validation, by its index). `mirrored`: the games' rows come in pairs, a position and
/// its mirror image, whose result is the other side's (`--mirror`).
pub fn played(total: u64, games: &[GameData], mirrored: bool) -> Played {
    let mut data = Data::default();
    let mut results = [0u64; 3];
    for g in games {
        let y = match g.w {
            0 => 1.0,
            1 => 0.0,
            _ => 0.5,
        };
        results[match g.w {
            0 => 0,
            1 => 2,
            _ => 1,
        }] += 1;
        for (r, row) in g.rows.iter().enumerate() {
            let score = g.scores.get(r).map_or(f32::NAN, |&s| s as f32);
            let y = if mirrored && r % 2 == 1 { 1.0 - y } else { y };
            data.push_scored(row, y, g.i % 10 == 9, score);
        }
        data.left_out += g.left_out as usize;
    }
    Played {
        data,
        games: total,
        results,
    }
}

/// A self-play thread's engine, move buffer and the game's positions with their scores.
type Player<B> = (Searcher<B>, Vec<Move<B>>, Vec<(Position<B>, i32)>);

#[allow(clippy::too_many_arguments)]
fn play_width<B: BitSet>(
    rules: &Arc<Rules<B>>,
    t: &TrainSettings,
    mirror: Option<&Mirror>,
    generation: u32,
    weights: Option<Arc<Weights>>,
    threads: usize,
    indices: &[u64],
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Vec<GameData>>, ThreadsError> {
    use rayon::prelude::*;
    let settings = selfplay_settings(t, generation_seed(t.seed, generation, 0), t.games);
    let features = Features::with(rules, t.layout(rules.as_ref()));
    let games: Vec<Option<GameData>> = crate::runs::pool(threads)?.install(|| {
        indices
            .par_iter()
            .map_init(
                || {
                    let mut e = Searcher::new(rules.clone(), TT_MIB);
                    e.set_weights(weights.clone());
                    (e, Vec::with_capacity(128), Vec::new())
                },
                |(e, buf, positions): &mut Player<B>, &i| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    e.clear();
                    positions.clear();
                    // The score of the last search, for the side to move.
                    let last = std::cell::Cell::new(0);
                    let mut left_out = 0;
                    let rec = play_game_with(
                        rules,
                        &settings,
                        true,
                        i,
                        buf,
                        &mut |pos, history, limits| {
                            let r = e.search(pos, history, limits, &mut |_| {});
                            last.set(r.score);
                            r.best
                        },
                        &mut |pos, _, searched| {
                            // Quiet positions only: a pending capture's score is the capture's.
                            if searched && !rules.has_capture(pos) && !t.fits(pos) {
                                left_out += 1;
                            } else if searched && !rules.has_capture(pos) {
                                let s = last.get().clamp(-SCORE_CAP, SCORE_CAP);
                                let s = if pos.turn() == 0 { s } else { -s };
                                // The mirror image is the other side's: its score for the
                                // first side is the position's for the second.
                                let image = mirror.map(|m| m.turn(pos));
                                match image {
                                    None => positions.push((*pos, s)),
                                    Some(Some(image)) => {
                                        positions.push((*pos, s));
                                        positions.push((image, -s));
                                    }
                                    // A position whose state does not turn: neither is kept,
                                    // so the rows stay in pairs.
                                    Some(None) => left_out += 1,
                                }
                            }
                        },
                    );
                    let scores = positions.iter().map(|&(_, s)| s).collect();
                    let rows = positions
                        .iter()
                        .map(|(p, _)| {
                            let mut row = Vec::with_capacity(96);
                            features.row(p, |i, v| row.push((i as u32, v as i16)));
                            row
                        })
                        .collect();
                    progress();
                    Some(GameData {
                        i,
                        rows,
                        w: rec.w,
                        scores,
                        left_out,
                    })
                },
            )
            .collect()
    });
    Ok(games.into_iter().collect())
}

/// A match's result for the first engine: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score (win 1, draw ½) per game.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// Elo from the score with a 95% interval (normal approximation over the games' scores).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let half = 1.96 * (var / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        (elo(s), elo(s - half), elo(s + half))
    }
}

/// Play `t.match_games` games, `a` against `b` (`None`: the derived evaluation), each opening of
/// `t.opening_plies` random plies with both colours, at the training's budget per move. The
/// result is `a`'s. `None` when interrupted.
pub fn duel(
    rules: &Arc<Rules>,
    t: &TrainSettings,
    generation: u32,
    a: Option<Arc<Weights>>,
    b: Option<Arc<Weights>>,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Wdl>, ThreadsError> {
    if let Some(n) = &rules.narrow {
        duel_width(n, t, generation, a, b, threads, progress)
    } else if let Some(m) = &rules.mid {
        duel_width(m, t, generation, a, b, threads, progress)
    } else {
        duel_width(rules, t, generation, a, b, threads, progress)
    }
}

fn duel_width<B: BitSet>(
    rules: &Arc<Rules<B>>,
    t: &TrainSettings,
    generation: u32,
    a: Option<Arc<Weights>>,
    b: Option<Arc<Weights>>,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Wdl>, ThreadsError> {
    use rayon::prelude::*;
    let settings = selfplay_settings(t, generation_seed(t.seed, generation, 1), t.match_games);
    let results: Vec<Option<i8>> = crate::runs::pool(threads)?.install(|| {
        (0..t.match_games)
            .into_par_iter()
            .map_init(
                || {
                    let mut ea = Searcher::new(rules.clone(), TT_MIB);
                    ea.set_weights(a.clone());
                    let mut eb = Searcher::new(rules.clone(), TT_MIB);
                    eb.set_weights(b.clone());
                    (ea, eb, Vec::with_capacity(128))
                },
                |(ea, eb, buf): &mut (Searcher<B>, Searcher<B>, Vec<Move<B>>), i| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    ea.clear();
                    eb.clear();
                    // Games 2k and 2k + 1 share an opening (the same index seeds it), colours
                    // reversed.
                    let a_side = (i % 2) as usize;
                    let rec = play_game_with(
                        rules,
                        &settings,
                        true,
                        i / 2,
                        buf,
                        &mut |pos, history, limits| {
                            let e = if pos.turn() == a_side {
                                &mut *ea
                            } else {
                                &mut *eb
                            };
                            e.search(pos, history, limits, &mut |_| {}).best
                        },
                        &mut |_, _, _| {},
                    );
                    progress();
                    Some(match rec.w {
                        -1 => 0,
                        w if w as usize == a_side => 1,
                        _ => -1,
                    })
                },
            )
            .collect()
    });
    if results.iter().any(Option::is_none) {
        return Ok(None);
    }
    let mut wdl = Wdl::default();
    for r in results.into_iter().flatten() {
        match r {
            1 => wdl.wins += 1,
            0 => wdl.draws += 1,
            _ => wdl.losses += 1,
        }
    }
    Ok(Some(wdl))
}
