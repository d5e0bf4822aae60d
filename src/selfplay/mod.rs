//! Self-play statistics: many games of a variant between two copies of the engine (or random
//! players), each seeded from (seed, game index) so the figures never depend on the thread count or
//! on how the games are split into shards; the figures are computed from the per-game records, so
//! merging shards gives exactly the figures of one run.

pub mod chart;
pub mod compare;
pub mod draws;
pub mod file;
pub mod ladder;
pub mod ladder_chart;
pub mod ladder_merge;
pub mod merge;
pub mod pdn;
pub mod playout;
pub mod robust;
pub mod strength;
mod validate;

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

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut s = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix(&mut s)
}

/// Play game `index` of a run. `engine` is required unless the settings say `random`. Any bit-set
/// width plays the same game; [`run`] plays on 64-bit sets when the board fits them.
pub fn play_game<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: Option<&mut Searcher<B>>,
    index: u64,
    buf: &mut Vec<Move<B>>,
) -> GameRecord {
    play_game_into(rules, settings, engine, index, buf, None)
}

/// [`play_game`], and the moves played pushed onto `moves` when given (cleared first; for the
/// PDN of the game).
pub fn play_game_into<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: Option<&mut Searcher<B>>,
    index: u64,
    buf: &mut Vec<Move<B>>,
    mut moves: Option<&mut Vec<Move<B>>>,
) -> GameRecord {
    if let Some(m) = moves.as_deref_mut() {
        m.clear();
    }
    let probe = engine.as_ref().and_then(|e| e.probe().cloned());
    // The tables' verdict on the first position of their materials (see `GameRecord::tb`).
    let mut tb: Option<i8> = None;
    let mut tb_material: Option<String> = None;
    let mut record = |pos: &Position<B>, mv: &Move<B>, _: bool| {
        if let Some(m) = moves.as_deref_mut() {
            m.push(*mv);
        }
        if tb.is_none() {
            if let Some(score) = probe.as_ref().and_then(|p| p(pos)) {
                let mover = pos.turn() as i8;
                tb = Some(match score.signum() {
                    1 => mover,
                    -1 => 1 - mover,
                    _ => -1,
                });
                // Once a game, at its first position in the tables.
                tb_material = Some(crate::endgame::material::Material::of(pos).name(rules));
            }
        }
    };
    match engine {
        Some(e) => {
            e.clear();
            let mut rec = play_game_with(
                rules,
                settings,
                true,
                index,
                buf,
                &mut |pos, history, limits| e.search(pos, history, limits, &mut |_| {}).best,
                &mut record,
            );
            rec.tb = tb;
            rec.tb_material = tb_material;
            if rec.w == -1 && tb == Some(-1) {
                rec.draw = Some(draws::DrawClass::Table);
            }
            rec
        }
        None => play_game_with(
            rules,
            settings,
            false,
            index,
            buf,
            &mut |_, _, _| None,
            &mut record,
        ),
    }
}

/// A player's choice in a position reached after the positions hashed in the history, within
/// the limits (`None`: the first legal move).
pub type Chooser<'a, B> = dyn FnMut(&Position<B>, &[u64], Limits) -> Option<Move<B>> + 'a;

/// Told each position a game was played from, the move played there and whether it was the
/// engine's.
pub type Observer<'a, B> = dyn FnMut(&Position<B>, &Move<B>, bool) + 'a;

/// [`play_game`] with the engine's choices made by `choose` (`engine`: whether there is one; if
/// not, or under `random`, every move is random) and `observe` told each position played from,
/// the move played there and whether it was the engine's. Training plays two evaluations against
/// each other and keeps the positions this way.
pub fn play_game_with<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: bool,
    index: u64,
    buf: &mut Vec<Move<B>>,
    choose: &mut Chooser<'_, B>,
    observe: &mut Observer<'_, B>,
) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(settings.seed, index));
    let keys = crate::search::zobrist::Keys::shared();
    let limits = Limits {
        depth: settings.depth,
        nodes: settings.nodes,
        time: None,
        target: None,
    };
    let rep = rules.spec.game.repetition_draw as usize;
    let move_counts = !rules.spec.game.move_count_draws.is_empty();
    // Hashes serve repetition, and the engine's search (its history).
    let hashing = rep > 0 || engine;
    let mut pos: Position<B> = rules.start;
    let mut hash = if hashing { keys.hash(&pos) } else { 0 };
    let mut history: Vec<u64> = Vec::with_capacity(256);
    // How many positions of `history` fall in each slot of their hash: a position repeats only if
    // its slot holds enough of them, so most plies need no look through the history.
    let mut slots = [0u32; REP_SLOTS];
    let mut rec = GameRecord {
        i: index,
        w: -1,
        end: End::Cap,
        plies: 0,
        moves: 0,
        caps: 0,
        promos: 0,
        tb: None,
        tb_material: None,
        draw: None,
        shuffle: false,
    };
    // A man moved since the last capture or promotion (see `draws`).
    let men = draws::promoting_kinds(rules);
    let mut progress = false;
    // A material rule decides before any other end: the generator gives no move in a position it
    // decides, so it is looked at only when a game ends.
    let material = |pos: &Position<B>, rec: &mut GameRecord| match rules.material_outcome(pos) {
        Some(o) => {
            rec.w = o.winner.map_or(-1, |w| w as i8);
            rec.end = End::Material;
            true
        }
        None => false,
    };
    loop {
        // Draws that must be claimed are taken to be claimed at once by the side to move.
        if rep > 0
            && slots[hash as usize % REP_SLOTS] as usize + 1 >= rep
            && repeated(&history, hash, rep - 1)
        {
            if !material(&pos, &mut rec) {
                rec.end = End::Repetition;
            }
            break;
        }
        if move_counts && crate::engine::draws::move_count_draw(rules, &pos) {
            if !material(&pos, &mut rec) {
                rec.end = End::MoveCount;
            }
            break;
        }
        let searching = engine && !settings.random && rec.plies >= settings.opening_plies;
        // A random move needs the number of moves and the one drawn, not the whole list.
        let n = if searching {
            rules.generate(&pos, buf, GenOptions::default());
            buf.len()
        } else {
            playout::count(rules, &pos, buf)
        };
        if n == 0 {
            if material(&pos, &mut rec) {
                break;
            }
            let o = rules.outcome(&pos, 0);
            rec.w = o.and_then(|o| o.winner).map_or(-1, |w| w as i8);
            rec.end = End::NoMoves;
            break;
        }
        if rec.plies >= settings.max_plies {
            rec.end = End::Cap;
            break;
        }
        rec.moves += n as u64;
        rec.caps += buf.first().is_some_and(|m| m.is_capture()) as u32;
        let mv = if searching {
            choose(&pos, &history, limits).unwrap_or(buf[0])
        } else {
            playout::nth(rules, &pos, buf, rng.random_range(0..n))
        };
        observe(&pos, &mv, searching);
        rec.promos += (mv.kind_after != mv.kind_before) as u32;
        let next = rules.play(&pos, &mv);
        if mv.is_capture() || mv.kind_after != mv.kind_before {
            progress = false;
        } else if men & (1 << mv.kind_before) != 0 {
            progress = true;
        }
        if hashing {
            let nh = keys.after(&pos, hash, &mv, &next);
            if mv.is_capture() || mv.kind_after != mv.kind_before {
                for h in history.drain(..) {
                    slots[h as usize % REP_SLOTS] -= 1;
                }
            } else {
                history.push(hash);
                slots[hash as usize % REP_SLOTS] += 1;
            }
            hash = nh;
        }
        pos = next;
        rec.plies += 1;
    }
    draws::classify(rules, &pos, &mut rec, progress);
    rec
}

/// Slots of the repetition filter of [`play_game`].
const REP_SLOTS: usize = 256;

/// Whether `hash` occurs `times` times among the positions of `history` with the same side to
/// move (every second one from the end: the history runs from the last irreversible move, a
/// position a ply, up to the one before the current position).
#[inline]
fn repeated(history: &[u64], hash: u64, times: usize) -> bool {
    let mut seen = 0;
    for &h in history.iter().rev().skip(1).step_by(2) {
        if h == hash {
            seen += 1;
            if seen >= times {
                return true;
            }
        }
    }
    times == 0
}

/// A 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A share with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub count: u64,
    pub rate: f64,
    pub ci95: (f64, f64),
}

pub(crate) fn share(k: u64, n: u64) -> Share {
    Share {
        count: k,
        rate: if n == 0 { 0.0 } else { k as f64 / n as f64 },
        ci95: wilson(k, n),
    }
}

/// The figures of a run, all computed from its game records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub games: u64,
    /// Index of the side that moves first.
    pub first_side: u8,
    pub side_names: [String; 2],
    pub wins: [Share; 2],
    pub draws: Share,
    /// The first player's score (win 1, draw ½) and its excess over ½.
    pub first_player_score: f64,
    pub first_player_advantage: f64,
    pub length_mean: f64,
    pub length_min: u32,
    pub length_p10: u32,
    pub length_p25: u32,
    pub length_median: u32,
    pub length_p75: u32,
    pub length_p90: u32,
    pub length_max: u32,
    pub branching_mean: f64,
    pub capture_share: f64,
    pub promotions_per_game: f64,
    /// (how, count) for every way a game can end.
    pub ends: Vec<(End, u64)>,
    /// log10 of b^d: mean branching factor to the power of the mean game length.
    pub complexity_log10: f64,
    /// Games that reached a position of a material the endgame tables hold (0 without tables;
    /// absent in files of versions 2 and 3).
    #[serde(default)]
    pub tables_reached: u64,
    /// Games decided by the tables: they reached such a position and ended with the result the
    /// tables gave the first of them ([`GameRecord::tables_decided`]).
    #[serde(default)]
    pub tables_decided: u64,
    /// The draws by class ([`draws::DrawClass`], every class); absent in files written before
    /// draws were classed.
    #[serde(default)]
    pub draw_classes: Vec<(draws::DrawClass, u64)>,
    /// The draws by repetition of a quiet position with the material level.
    #[serde(default)]
    pub shuffling: u64,
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

impl Report {
    pub fn from_games(rules: &Rules, games: &[GameRecord]) -> Report {
        let n = games.len() as u64;
        let count = |f: &dyn Fn(&GameRecord) -> bool| games.iter().filter(|g| f(g)).count() as u64;
        let w0 = count(&|g| g.w == 0);
        let w1 = count(&|g| g.w == 1);
        let d = n - w0 - w1;
        let first = rules.spec.first_to_move as usize;
        let wf = if first == 0 { w0 } else { w1 };
        let fscore = if n == 0 {
            0.0
        } else {
            (wf as f64 + d as f64 / 2.0) / n as f64
        };
        let mut lengths: Vec<u32> = games.iter().map(|g| g.plies).collect();
        lengths.sort_unstable();
        let plies: u64 = lengths.iter().map(|&l| l as u64).sum();
        let moves: u64 = games.iter().map(|g| g.moves).sum();
        let caps: u64 = games.iter().map(|g| g.caps as u64).sum();
        let promos: u64 = games.iter().map(|g| g.promos as u64).sum();
        let mean = if n == 0 { 0.0 } else { plies as f64 / n as f64 };
        let (draw_classes, shuffling) = draws::count(games);
        let b = if plies == 0 {
            0.0
        } else {
            moves as f64 / plies as f64
        };
        Report {
            games: n,
            first_side: first as u8,
            side_names: [
                rules.spec.sides[0].name.clone(),
                rules.spec.sides[1].name.clone(),
            ],
            wins: [share(w0, n), share(w1, n)],
            draws: share(d, n),
            first_player_score: fscore,
            first_player_advantage: fscore - 0.5,
            length_mean: mean,
            length_min: lengths.first().copied().unwrap_or(0),
            length_p10: percentile(&lengths, 0.10),
            length_p25: percentile(&lengths, 0.25),
            length_median: percentile(&lengths, 0.5),
            length_p75: percentile(&lengths, 0.75),
            length_p90: percentile(&lengths, 0.90),
            length_max: lengths.last().copied().unwrap_or(0),
            branching_mean: b,
            capture_share: if plies == 0 {
                0.0
            } else {
                caps as f64 / plies as f64
            },
            promotions_per_game: if n == 0 {
                0.0
            } else {
                promos as f64 / n as f64
            },
            ends: ENDS.iter().map(|&e| (e, count(&|g| g.end == e))).collect(),
            complexity_log10: if b > 0.0 { mean * b.log10() } else { 0.0 },
            tables_reached: count(&|g| g.tb.is_some()),
            tables_decided: count(&|g| g.tables_decided()),
            draw_classes,
            shuffling,
        }
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let ci = |s: &Share| format!("[{} – {}]", pct(s.ci95.0), pct(s.ci95.1));
        let mut out = String::new();
        out.push_str(&format!("games            {}\n", self.games));
        for side in 0..2 {
            let s = &self.wins[side];
            out.push_str(&format!(
                "{:<16} {:>6}  {:>6}  95% CI {}\n",
                format!("{} wins", self.side_names[side]),
                s.count,
                pct(s.rate),
                ci(s)
            ));
        }
        // The games stopped at the length cap count as draws, here and in the chart.
        let capped = self
            .ends
            .iter()
            .find(|(e, _)| *e == End::Cap)
            .map_or(0, |e| e.1);
        out.push_str(&format!(
            "{:<16} {:>6}  {:>6}  95% CI {}{}\n",
            "draws",
            self.draws.count,
            pct(self.draws.rate),
            ci(&self.draws),
            if capped > 0 {
                format!(" ({capped} of them at the length cap)")
            } else {
                String::new()
            }
        ));
        out.push_str(&format!(
            "first player     {} scores {:.3} (advantage {:+.3})\n",
            self.side_names[self.first_side as usize],
            self.first_player_score,
            self.first_player_advantage
        ));
        out.push_str(&format!(
            "game length      mean {:.1} plies; min {} p10 {} p25 {} median {} p75 {} p90 {} max {}\n",
            self.length_mean,
            self.length_min,
            self.length_p10,
            self.length_p25,
            self.length_median,
            self.length_p75,
            self.length_p90,
            self.length_max
        ));
        out.push_str(&format!(
            "branching factor {:.2} legal moves per position\n",
            self.branching_mean
        ));
        out.push_str(&format!(
            "capture pending  {} of positions\n",
            pct(self.capture_share)
        ));
        out.push_str(&format!(
            "promotions       {:.2} per game\n",
            self.promotions_per_game
        ));
        out.push_str("endings         ");
        let ends: Vec<String> = self
            .ends
            .iter()
            .filter(|(_, c)| *c > 0)
            .map(|(e, c)| format!(" {} {c}", e.label()))
            .collect();
        out.push_str(&ends.join(","));
        out.push('\n');
        if let Some(line) = draws::line(&self.draw_classes, self.shuffling) {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&format!(
            "complexity       b^d = {:.2}^{:.1} ≈ 10^{:.0}\n",
            self.branching_mean, self.length_mean, self.complexity_log10
        ));
        out
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
        RunFile {
            format: FORMAT.into(),
            version: VERSION,
            damelab: crate::runs::shard::DAMELAB_VERSION.into(),
            settings,
            shards,
            rate_against: None,
            rating: None,
            report: Report::from_games(rules, &games),
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
) -> Result<Option<Vec<GameRecord>>, ThreadsError> {
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
) -> Result<Option<Played>, ThreadsError> {
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
) -> Result<Option<Played>, ThreadsError> {
    use rayon::prelude::*;
    let pool = crate::runs::pool(threads)?;
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
                    let record = pdn.then_some(&mut *moves);
                    let g = play_game_into(rules, settings, engine.as_mut(), i, buf, record);
                    let text = pdn.then(|| pdn::game_text(wide, settings, &g, moves));
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
