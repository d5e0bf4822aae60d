//! Self-play statistics: many games of a variant between two copies of the engine (or random
//! players), each seeded from (seed, game index) so the figures never depend on the thread count or
//! on how the games are split into shards; the figures are computed from the per-game records, so
//! merging shards gives exactly the figures of one run.
//!
//! This file holds a run (its settings, its JSON file, the games played across threads); one game
//! is in `game`, the figures of a run in `report`.

pub mod chart;
pub mod compare;
pub mod configs_files;
pub mod draws;
pub mod explore;
pub mod file;
mod game;
pub mod ladder;
pub mod ladder_chart;
pub mod ladder_merge;
pub mod merge;
pub mod openings;
pub mod pdn;
pub mod playout;
mod report;
pub mod robust;
pub mod robust_chart;
pub mod strength;
mod validate;

pub use game::*;
pub use report::*;

use crate::engine::{BitSet, GenOptions, Move, Position, Rules};
pub use crate::matchplay::rate::{RateRequest, Rating};
use crate::runs::shard::{Shard, ShardSet};
use crate::runs::ThreadsError;
use crate::search::{weights::Weights, zobrist::splitmix, Limits, Probe, Searcher};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The name and version of the JSON format. Version 3 added the strength of play measured by a
/// match (`rate_against`, `rating`), version 4 the endgame tables the engines used (`tables`) and
/// what they said of each game (`tb`, and the report's `tables_reached`, `tables_decided`); files
/// of versions 2 and 3 (without them) are read too.
pub const FORMAT: &str = "damelab-selfplay";
pub const VERSION: u32 = 4;
/// The oldest version read.
pub const OLDEST_VERSION: u32 = 2;
/// Transposition table per engine in self-play (cleared before each game).
pub const TT_MIB: usize = 4;

/// What was played: everything that decides the games. Two runs with equal settings play the same
/// games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub variant: String,
    /// A fingerprint of the compiled rules, so a changed rules file of the same name is noticed.
    pub rules_fingerprint: String,
    /// Games of the whole run (all shards).
    pub games: u64,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub random: bool,
    pub seed: u64,
    pub max_plies: u32,
    /// Uniformly random plies at the start of every game (the varied openings).
    pub opening_plies: u32,
    /// The learned evaluation both engines use (the weights file's checksum line and origin),
    /// absent for the derived evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<String>,
    /// The materials of the endgame tables both engines use (`--tables`), absent without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<String>,
    /// The engines' contempt for a draw by repetition or move count (search option `contempt`,
    /// score units; 0, the default, is left out of the file).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub contempt: i32,
    /// The openings the games begin from before their random plies (`--openings`,
    /// `--balanced`); absent: the start position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<openings::OpeningSet>,
}

fn is_zero(c: &i32) -> bool {
    *c == 0
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// The side to move had no legal move.
    NoMoves,
    /// A material rule decided (lone piece against lone piece, no piece of a kind left).
    Material,
    /// A position occurred the variant's number of times.
    Repetition,
    /// A move-count draw rule of the variant (a claimable one is taken as claimed).
    MoveCount,
    /// The `--max-plies` cap: scored as a draw, reported apart.
    Cap,
}

pub const ENDS: [End; 5] = [
    End::NoMoves,
    End::Material,
    End::Repetition,
    End::MoveCount,
    End::Cap,
];

impl End {
    pub fn label(self) -> &'static str {
        match self {
            End::NoMoves => "no legal move",
            End::Material => "material rule",
            End::Repetition => "repetition",
            End::MoveCount => "move-count rule",
            End::Cap => "length cap (draw)",
        }
    }
}

/// One game, as the figures need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in the run (its seed is derived from it).
    pub i: u64,
    /// The winning side (0 or 1), or -1 for a draw.
    pub w: i8,
    pub end: End,
    pub plies: u32,
    /// Sum over the positions played of their number of legal moves.
    pub moves: u64,
    /// Sum over the positions played of log10 of their number of legal moves, in millionths:
    /// log10 of the product of the moves of each position, the game's own tree size (absent in
    /// older files).
    #[serde(default)]
    pub lm: u64,
    /// Positions played in which the side to move had a capture.
    pub caps: u32,
    pub promos: u32,
    /// The endgame tables' value of the first position played from whose material they hold, as
    /// a result: the side it wins for (0 or 1) or -1 for a draw. Absent when no such position
    /// occurred (always, without tables). The game was decided by the tables when this is its
    /// result `w` ([`GameRecord::tables_decided`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tb: Option<i8>,
    /// The material of that position, as the tables name it (`KK v K`): which table decided the
    /// game, or would have. Absent with `tb` (and in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tb_material: Option<String>,
    /// How a draw was drawn ([`draws::DrawClass`]); absent for a win, and in files written before
    /// draws were classed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<draws::DrawClass>,
    /// A repetition draw of a quiet position (no capture due) with the material level: shuffling.
    #[serde(default, skip_serializing_if = "draws::is_false")]
    pub shuffle: bool,
}

impl GameRecord {
    /// Whether the game reached a position of a material the tables hold and ended with the
    /// result the tables gave that position.
    pub fn tables_decided(&self) -> bool {
        self.tb == Some(self.w)
    }
}

/// A run (or a shard of one, or a merge of shards) as written to `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    pub format: String,
    pub version: u32,
    /// The version of damelab that played the games: shards of different builds are not merged.
    pub damelab: String,
    pub settings: Settings,
    /// The shards this file holds: `1 of 1` for a whole run, played at once or merged.
    pub shards: ShardSet,
    /// The reference setting the run's strength was measured against (`--rate-against`), in
    /// every shard of the run; absent in files of version 2.
    #[serde(default)]
    pub rate_against: Option<RateRequest>,
    /// The Elo of the run's setting against the reference: in the whole run, and in the file of
    /// shard 1 (which plays the rating match) and any merge holding it.
    #[serde(default)]
    pub rating: Option<Rating>,
    pub report: Report,
    /// The first player's score by opening, for a run of a fixed set of openings
    /// ([`openings::table`]); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening_table: Vec<openings::OpeningRow>,
    pub games: Vec<GameRecord>,
}

impl RunFile {
    /// A file of this format, version and build; the report is computed from `games`.
    pub fn new(
        rules: &Rules,
        settings: Settings,
        shards: ShardSet,
        games: Vec<GameRecord>,
    ) -> Self {
        let report = Report::from_games(rules, &games);
        RunFile {
            opening_table: openings::table(&settings, report.first_side, &games),
            format: FORMAT.into(),
            version: VERSION,
            damelab: crate::runs::shard::DAMELAB_VERSION.into(),
            settings,
            shards,
            rate_against: None,
            rating: None,
            report,
            games,
        }
    }
}

/// The game indices of shard `k` (1-based) of `n`, out of `games`.
pub fn shard_indices(games: u64, shard: Option<(u64, u64)>) -> Vec<u64> {
    match shard {
        None => (0..games).collect(),
        Some((k, n)) => Shard { k, n }.items(games).collect(),
    }
}

/// Play the given game indices on `threads` threads (results in index order, whatever the
/// threads). `progress` is called after each game. Returns `None` when interrupted.
pub fn run(
    rules: &Arc<Rules>,
    settings: &Settings,
    indices: &[u64],
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Vec<GameRecord>>, RunError> {
    run_games(
        rules,
        settings,
        indices,
        threads,
        false,
        Aids::default(),
        progress,
    )
    .map(|p| p.map(|p| p.games))
}

/// What a run's engines consult beside the rules and settings.
#[derive(Clone)]
pub struct Aids<B: BitSet = crate::engine::geometry::Bits> {
    /// An outside oracle asked at every node (endgame tables, see
    /// [`crate::search::tables::EndgameTables::probe`]).
    pub probe: Option<Probe<B>>,
    /// A learned evaluation for both engines (`None`: the derived one).
    pub weights: Option<Arc<Weights>>,
}

impl<B: BitSet> Default for Aids<B> {
    fn default() -> Self {
        Aids {
            probe: None,
            weights: None,
        }
    }
}

/// Why a run's games could not be played.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum RunError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Threads(#[from] ThreadsError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Openings(#[from] crate::matchplay::openings::OpeningsError),
}

/// What [`run_games`] played: the records, and each game's PDN text when asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Played {
    pub games: Vec<GameRecord>,
    /// Empty unless PDN was asked for; else one text per record, in the same order.
    pub pdn: Vec<String>,
}

/// [`run`], with each game written as PDN when `pdn` (see [`pdn::game_text`]).
pub fn run_games(
    rules: &Arc<Rules>,
    settings: &Settings,
    indices: &[u64],
    threads: usize,
    pdn: bool,
    aids: Aids,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Played>, RunError> {
    // The oracle reads wide positions; the games are played in the narrowest width that fits.
    fn narrowed<C: BitSet>(a: &Aids) -> Aids<C> {
        Aids {
            probe: a
                .probe
                .clone()
                .map(|p| -> Probe<C> { Arc::new(move |pos: &Position<C>| p(&pos.to_width())) }),
            weights: a.weights.clone(),
        }
    }
    if let Some(n) = &rules.narrow {
        let aids = narrowed(&aids);
        run_width(n, rules, settings, indices, threads, pdn, aids, progress)
    } else if let Some(m) = &rules.mid {
        let aids = narrowed(&aids);
        run_width(m, rules, settings, indices, threads, pdn, aids, progress)
    } else {
        run_width(
            rules, rules, settings, indices, threads, pdn, aids, progress,
        )
    }
}

/// [`run_games`] in one bit-set width; `wide` is the same rules in the usual width, for PDN.
// The arguments are `run_games`' own plus the width's rules: a struct for them would only be
// built here to be taken apart below.
#[allow(clippy::too_many_arguments)]
fn run_width<B: BitSet>(
    rules: &Arc<Rules<B>>,
    wide: &Arc<Rules>,
    settings: &Settings,
    indices: &[u64],
    threads: usize,
    pdn: bool,
    aids: Aids<B>,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Played>, RunError> {
    use rayon::prelude::*;
    let pool = crate::runs::pool(threads).map_err(RunError::Threads)?;
    let starts = openings::Starts::new(wide, settings).map_err(RunError::Openings)?;
    let games: Vec<Option<(GameRecord, Option<String>)>> = pool.install(|| {
        indices
            .par_iter()
            .map_init(
                || {
                    let engine = (!settings.random).then(|| {
                        let mut e = Searcher::new(rules.clone(), TT_MIB);
                        e.set_probe(aids.probe.clone());
                        e.set_tuned_weights(aids.weights.clone());
                        if settings.contempt != 0 {
                            let mut o = e.options.clone();
                            o.contempt = settings.contempt;
                            e.set_options(o);
                        }
                        e
                    });
                    let moves: Vec<Move<B>> = Vec::with_capacity(if pdn { 512 } else { 0 });
                    (engine, Vec::with_capacity(128), moves)
                },
                |(engine, buf, moves), &i| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    let (opening, random_plies) = starts.of(wide, settings, i);
                    let (start, prefix) = match &opening {
                        Some(o) => openings::narrowed(o),
                        None => (rules.start, Vec::new()),
                    };
                    let begin = Begin {
                        start,
                        moves: &prefix,
                        random_plies,
                    };
                    let record = pdn.then_some(&mut *moves);
                    let g =
                        play_game_into(rules, settings, engine.as_mut(), i, &begin, buf, record);
                    let wide_start = opening.as_ref().map_or(wide.start, |o| o.start);
                    let text = pdn.then(|| pdn::game_text(wide, settings, &wide_start, &g, moves));
                    progress();
                    Some((g, text))
                },
            )
            .collect()
    });
    // A game finished after Ctrl-C was played with searches cut short: not a game of the run.
    if games.iter().any(Option::is_none) || crate::interrupt::requested() {
        return Ok(None);
    }
    let mut played = Played::default();
    for (g, text) in games.into_iter().flatten() {
        played.games.push(g);
        played.pdn.extend(text);
    }
    Ok(Some(played))
}
