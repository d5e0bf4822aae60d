//! Engine-against-engine matches for any rules file (`damelab match`): the games of every pairing
//! of two or more engines, each opening played twice with colours reversed, on several threads;
//! adjudication by endgame tables, by a score both engines hold, and by a move cap; each finished
//! game handed back in game order, as a record and as PDN.
//!
//! With node or depth limits a game depends only on the seed, the opening and the engines'
//! settings (each engine clears its tables before a game), so a seeded match is reproducible
//! whatever the concurrency.

pub mod engine;
pub mod external;
pub mod file;
pub mod hub1;
pub mod openings;
pub mod rate;
pub mod standings;
pub mod stats;

use crate::search::tables::EndgameTables;
use crate::search::{format_score, Score};
use crate::util::plies;
use crate::Rules;
use engine::{EngineSpec, Fault, Player, Turn};
use openings::Opening;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Everything that decides a match's games.
pub struct Config {
    /// The variant's name as given (written to the PDN's `Variant` tag).
    pub variant: String,
    /// The variant as a Hub engine is told it (`set-param name=variant`): a bundled variant's
    /// name, or the rules file's path (its name alone is no variant a Hub engine can load).
    pub hub_variant: String,
    pub rules: Arc<Rules>,
    pub engines: Vec<EngineSpec>,
    /// Games of each pairing of engines.
    pub games: u64,
    /// Openings from a file, used in turn; random openings when empty.
    pub openings: Vec<Opening>,
    pub random_plies: u32,
    /// Keep only random openings a short search scores near level (`--balanced`).
    pub balance: Option<openings::Balance>,
    pub seed: u64,
    /// Games reaching this many plies are drawn.
    pub max_plies: u32,
    pub tables: Option<Arc<EndgameTables>>,
    /// Adjudicate a win when both engines' scores say so, by at least this much (hundredths of a
    /// man), for this many plies in a row.
    pub adjudicate: Option<(Score, u32)>,
    pub concurrency: usize,
}

/// The pairings of a match: every two engines, in order.
pub fn pairings(engines: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            out.push((a, b));
        }
    }
    out
}

/// One game to play: its index in the match, its pairing and its number within the pairing.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    pub index: u64,
    pub pairing: usize,
    pub round: u64,
}

/// The games of a match in the order they are handed out: pair after pair of games (same opening,
/// colours reversed), the pairings taking turns.
pub fn jobs(cfg: &Config) -> Vec<Job> {
    job_list(cfg.engines.len(), cfg.games)
}

/// The jobs of a match of `engines` engines playing `games` games a pairing (see [`jobs`]).
pub fn job_list(engines: usize, games: u64) -> Vec<Job> {
    let pairings = pairings(engines).len();
    let mut out = Vec::new();
    let pairs = games.div_ceil(2);
    for p in 0..pairs {
        for pairing in 0..pairings {
            for round in [2 * p, 2 * p + 1] {
                if round < games {
                    out.push(Job {
                        index: out.len() as u64,
                        pairing,
                        round,
                    });
                }
            }
        }
    }
    out
}

/// The number of pairs of games (openings) of a match: the items its shards split. A pair is the
/// two games of one opening, colours reversed, of every pairing of engines; it is never split.
pub fn pairs(cfg: &Config) -> u64 {
    cfg.games.div_ceil(2)
}

/// The pair (opening) a game of a pairing belongs to.
pub fn pair_of(round: u64) -> u64 {
    round / 2
}

/// The jobs of `shard`: the games of its pairs, with their indices in the whole match.
pub fn shard_jobs(all: &[Job], shard: crate::runs::shard::Shard) -> Vec<Job> {
    all.iter()
        .copied()
        .filter(|j| shard.holds(pair_of(j.round)))
        .collect()
}

/// A finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u64,
    pub pairing: usize,
    /// The game's number within its pairing (its opening is `round / 2`).
    pub round: u64,
    /// The engine (index into the match's engines) playing each side.
    pub engines: [usize; 2],
    /// The winning side, `None` for a draw.
    pub winner: Option<usize>,
    /// `1-0`, `0-1` or `1/2-1/2` (the first number the first mover's).
    pub result: String,
    /// How the game ended, in words.
    pub reason: String,
    pub plies: u32,
    /// The game as PDN.
    #[serde(skip)]
    pub pdn: String,
}

impl GameRecord {
    /// Points (1, ½, 0) of engine `e` in this game.
    pub fn points_of(&self, e: usize) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if self.engines[w] == e => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// How one game ended: the winning side (or none) and why.
struct End {
    winner: Option<usize>,
    reason: String,
}

/// The players of one worker, one per engine, started when first needed and started again after
/// a fault (an external engine is stopped when it fails).
pub struct Seat {
    players: Vec<Option<Box<dyn Player>>>,
}

impl Seat {
    pub fn new(engines: usize) -> Seat {
        Seat {
            players: (0..engines).map(|_| None).collect(),
        }
    }

    fn get(&mut self, cfg: &Config, e: usize) -> Result<&mut Box<dyn Player>, Fault> {
        if self.players[e].is_none() {
            let spec = &cfg.engines[e];
            let p: Box<dyn Player> = match &spec.cmd {
                None => {
                    let mut p = engine::Internal::new(&cfg.rules, spec)
                        .map_err(|e| Fault::Crash(e.to_string()))?;
                    // The match's tables, which adjudicate, are the engines' oracle too.
                    p.set_probe(cfg.tables.as_ref().map(|t| t.probe()));
                    Box::new(p)
                }
                Some(_) => external::Hub::start(&cfg.rules, &cfg.hub_variant, spec)?,
            };
            self.players[e] = Some(p);
        }
        Ok(self.players[e]
            .as_mut()
            .expect("the player was just started"))
    }

    fn drop_player(&mut self, e: usize) {
        self.players[e] = None;
    }
}

fn result_token(rules: &Rules, winner: Option<usize>) -> &'static str {
    crate::pdn::finished_result(rules, winner)
}

/// The opening of game `round` of a match.
pub fn opening_of(cfg: &Config, round: u64) -> Opening {
    let pair = round / 2;
    if cfg.openings.is_empty() {
        match &cfg.balance {
            Some(b) => openings::balanced(&cfg.rules, cfg.seed, pair, cfg.random_plies, b),
            None => openings::random(&cfg.rules, cfg.seed, pair, cfg.random_plies),
        }
    } else {
        cfg.openings[(pair % cfg.openings.len() as u64) as usize].clone()
    }
}

/// How the reason of a game the endgame tables adjudicated begins.
pub const TABLES_REASON: &str = "adjudicated by the endgame tables";

/// The games the endgame tables decided: a game reaching a position of a material they hold ends
/// there with the tables' value (see [`play_game`]).
pub fn tables_decided(games: &[GameRecord]) -> u64 {
    games
        .iter()
        .filter(|g| g.reason.starts_with(TABLES_REASON))
        .count() as u64
}

/// Play one game; `None` when it was abandoned (Ctrl-C, or the match stopped).
pub fn play_game(
    cfg: &Config,
    job: Job,
    seat: &mut Seat,
    abort: &AtomicBool,
) -> Option<GameRecord> {
    let (a, b) = pairings(cfg.engines.len())[job.pairing];
    let engines = if job.round.is_multiple_of(2) {
        [a, b]
    } else {
        [b, a]
    };
    let opening = opening_of(cfg, job.round);
    let mut game = opening.game(&cfg.rules);
    let mut comments: Vec<(usize, String)> = Vec::new();
    let mut clocks: [Option<(Duration, Duration)>; 2] = [0, 1].map(|s| {
        cfg.engines[engines[s]]
            .tc
            .map(|(b, i)| (Duration::from_secs_f64(b), Duration::from_secs_f64(i)))
    });
    let name = |side: usize| cfg.engines[engines[side]].name.clone();
    let mut end: Option<End> = None;
    for (side, &e) in engines.iter().enumerate() {
        if end.is_some() {
            break;
        }
        let started = seat.get(cfg, e).and_then(|p| p.new_game());
        if let Err(f) = started {
            if f == Fault::Abandoned || crate::interrupt::requested() {
                return None;
            }
            seat.drop_player(e);
            end = Some(End {
                winner: Some(1 - side),
                reason: format!("{} {}", name(side), f.reason()),
            });
        }
    }
    // Each side's last score (for itself), and how many plies in a row both agreed on a winner.
    let mut last: [Option<Score>; 2] = [None, None];
    let mut streak: (Option<usize>, u32) = (None, 0);
    while end.is_none() {
        if abort.load(Ordering::Relaxed) || crate::interrupt::requested() {
            return None;
        }
        let legal = match legal_or_end(cfg, &game) {
            Ok(legal) => legal,
            Err(e) => {
                end = Some(e);
                break;
            }
        };
        let mover = game.position().turn();
        let e = engines[mover];
        let t0 = Instant::now();
        let reply = seat.get(cfg, e).and_then(|p| {
            p.play(&Turn {
                game: &game,
                legal: &legal,
                clock: clocks[mover],
                abort,
            })
        });
        let used = t0.elapsed();
        let reply = match reply {
            Ok(r) if legal.contains(&r.mv) => r,
            Ok(r) => {
                let f = Fault::Illegal(crate::notation::move_to_string(&cfg.rules, &r.mv));
                end = Some(End {
                    winner: Some(1 - mover),
                    reason: format!("{} {}", name(mover), f.reason()),
                });
                break;
            }
            Err(f) => {
                let stopping = crate::interrupt::requested() || abort.load(Ordering::Relaxed);
                if f == Fault::Abandoned || stopping {
                    return None;
                }
                seat.drop_player(e);
                end = Some(End {
                    winner: Some(1 - mover),
                    reason: format!("{} {}", name(mover), f.reason()),
                });
                break;
            }
        };
        if let Some((left, inc)) = clocks[mover] {
            let margin = Duration::from_secs_f64(cfg.engines[e].margin);
            if used > left + margin {
                end = Some(End {
                    winner: Some(1 - mover),
                    reason: format!(
                        "{} time forfeit: {:.3} s used with {:.3} s left",
                        name(mover),
                        used.as_secs_f64(),
                        left.as_secs_f64()
                    ),
                });
                break;
            }
            clocks[mover] = Some((left.saturating_sub(used) + inc, inc));
        }
        let note = move_note(&cfg.engines[e], &reply, used);
        game.play(reply.mv);
        comments.push((game.moves().len(), note));
        last[mover] = reply.score;
        if let Some(rule) = cfg.adjudicate {
            end = adjudicated(cfg, rule, &last, &mut streak);
        }
    }
    let end = end.expect("the loop ends only with an end");
    Some(record(cfg, job, engines, &game, comments, end))
}

/// Why the game is over before the mover plays (its result, a claimable draw, the move cap,
/// the endgame tables, no legal move or too many capture routes), or the mover's legal moves.
fn legal_or_end(cfg: &Config, game: &crate::Game) -> Result<Vec<crate::engine::Move>, End> {
    if let Some(o) = game.result() {
        return Err(End {
            winner: o.winner,
            reason: game.describe_result(),
        });
    }
    if game.claimable_draw().is_some() {
        return Err(End {
            winner: None,
            reason: format!("{} (claimed)", game.describe_result()),
        });
    }
    if game.moves().len() >= cfg.max_plies as usize {
        return Err(End {
            winner: None,
            reason: format!("adjudicated: the move cap of {} plies", cfg.max_plies),
        });
    }
    let mover = game.position().turn();
    if let Some(t) = &cfg.tables {
        use crate::endgame::value::Value;
        let said = match t.value(game.position()) {
            Some(Value::Win(d)) => Some((Some(mover), format!("win in {}", plies(d)))),
            Some(Value::Loss(d)) => Some((Some(1 - mover), format!("loss in {}", plies(d)))),
            Some(Value::Draw) => Some((None, "draw".into())),
            _ => None,
        };
        if let Some((winner, what)) = said {
            return Err(End {
                winner,
                reason: format!("{TABLES_REASON}: {what} for the side to move"),
            });
        }
    }
    match game.try_legal_moves() {
        Ok(l) if !l.is_empty() => Ok(l),
        Ok(_) => Err(End {
            winner: None,
            reason: "no legal move".into(),
        }),
        Err(e) => Err(End {
            winner: None,
            reason: format!("adjudicated: {e}"),
        }),
    }
}

/// A move's comment: the engine's score and depth, and the time it took only when the engine
/// plays on time (with node or depth limits the record stays exactly reproducible).
fn move_note(spec: &EngineSpec, reply: &engine::Reply, used: Duration) -> String {
    let mut note = match (reply.score, reply.depth) {
        (Some(s), Some(d)) => format!("{}/{d}", format_score(s)),
        (Some(s), None) => format_score(s),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => String::new(),
    };
    if spec.movetime.is_some() || spec.tc.is_some() || spec.cmd.is_some() {
        if !note.is_empty() {
            note.push(' ');
        }
        note.push_str(&format!("{:.3}s", used.as_secs_f64()));
    }
    note
}

/// The adjudication by a score both engines hold (`(threshold, plies)`): each side's `last`
/// score, and `streak`, the winner both agreed on and for how many plies in a row (updated).
fn adjudicated(
    cfg: &Config,
    (threshold, plies): (Score, u32),
    last: &[Option<Score>; 2],
    streak: &mut (Option<usize>, u32),
) -> Option<End> {
    let agreed = (0..2).find(|&s| {
        matches!((last[s], last[1 - s]), (Some(x), Some(y)) if x >= threshold && y <= -threshold)
    });
    *streak = match (agreed, *streak) {
        (Some(w), (Some(v), n)) if w == v => (Some(w), n + 1),
        (Some(w), _) => (Some(w), 1),
        (None, _) => (None, 0),
    };
    match *streak {
        (Some(w), n) if n >= plies => Some(End {
            winner: Some(w),
            reason: format!(
                "adjudicated: both engines scored {} or more for {} for {n} plies",
                format_score(threshold),
                cfg.rules.spec.sides[w].name
            ),
        }),
        _ => None,
    }
}

/// A finished game's record and PDN (the moves' comments, and the end's reason after the last).
fn record(
    cfg: &Config,
    job: Job,
    engines: [usize; 2],
    game: &crate::Game,
    comments: Vec<(usize, String)>,
    end: End,
) -> GameRecord {
    let name = |side: usize| cfg.engines[engines[side]].name.clone();
    let token = result_token(&cfg.rules, end.winner);
    let tags: Vec<(String, String)> = vec![
        ("Event".into(), "damelab match".into()),
        ("Round".into(), format!("{}", job.index + 1)),
        ("White".into(), name(0)),
        ("Black".into(), name(1)),
        ("Variant".into(), cfg.variant.clone()),
        ("Termination".into(), end.reason.clone()),
    ];
    let mut all_comments = comments;
    all_comments.push((game.moves().len(), end.reason.clone()));
    let pdn = crate::pdn::write_game(game, &tags, &all_comments, Some(token));
    GameRecord {
        index: job.index,
        pairing: job.pairing,
        round: job.round,
        engines,
        winner: end.winner,
        result: token.to_string(),
        reason: end.reason,
        plies: game.moves().len() as u32,
        pdn,
    }
}

/// What the collector of [`run`] wants after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// The match is decided (an SPRT bound): games after this one are not counted.
    Stop,
}

/// How a match run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    Complete,
    /// The collector stopped it.
    Stopped,
    /// Ctrl-C: every game finished so far was handed on.
    Interrupted,
}

/// Play the jobs on `cfg.concurrency` threads, handing each finished game to `collect` in the
/// order of `jobs` (a shard's jobs are a subset of the match's, their indices kept). When `collect` says stop, the games in progress are abandoned and games finished after
/// the one it stopped on are dropped (so the stop point does not depend on the threads); on Ctrl-C
/// every finished game is handed on, in order, gaps and all.
pub fn run(cfg: &Config, jobs: &[Job], collect: &mut dyn FnMut(&GameRecord) -> Control) -> Finish {
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    // Each game with its place in `jobs`: the order games are handed on in.
    let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
    let mut finish = Finish::Complete;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let (next, abort) = (&next, &abort);
            scope.spawn(move || {
                let mut seat = Seat::new(cfg.engines.len());
                loop {
                    if abort.load(Ordering::Relaxed) || crate::interrupt::requested() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&job) = jobs.get(i) else { break };
                    match play_game(cfg, job, &mut seat, abort) {
                        Some(g) => {
                            if tx.send((i, g)).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
        let mut want = 0usize;
        for (i, g) in rx.iter() {
            if finish == Finish::Stopped {
                continue;
            }
            pending.insert(i, g);
            while let Some(g) = pending.remove(&want) {
                want += 1;
                if collect(&g) == Control::Stop {
                    finish = Finish::Stopped;
                    abort.store(true, Ordering::SeqCst);
                    pending.clear();
                    break;
                }
            }
        }
        if finish != Finish::Stopped && crate::interrupt::requested() {
            finish = Finish::Interrupted;
        }
        for g in std::mem::take(&mut pending).into_values() {
            if finish == Finish::Interrupted {
                collect(&g);
            }
        }
    });
    finish
}
