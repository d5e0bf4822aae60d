//! Self-play games as PDN: each game's text (tags naming the run and the game, the moves, the
//! result the run scored), and the PDN files of shards put back together in game order.

use super::{End, GameRecord, RunFile, Settings};
use crate::engine::{BitSet, Move, Rules};
use crate::pdn::{read_games, write_game};
use crate::runs::pdn::{merge_by_index, split_games, Placed};
use crate::Game;
use std::sync::Arc;

/// The `Event` tag of every game of a run: the settings that decide the games, so that games of
/// another run are noticed when shard files are merged.
pub fn event(s: &Settings) -> String {
    let openings = s
        .openings
        .as_ref()
        .map_or(String::new(), |o| format!("{}, ", o.describe()));
    format!(
        "damelab selfplay {}: {}, seed {}, {openings}{} random opening plies, cap {} plies",
        s.variant,
        player(s),
        s.seed,
        s.opening_plies,
        s.max_plies
    )
}

/// Who played: the engine's limits, or random moves.
pub fn player(s: &Settings) -> String {
    if s.random {
        return "random moves".into();
    }
    match (s.depth, s.nodes) {
        (Some(d), Some(n)) => format!("damelab depth {d}, {n} nodes"),
        (Some(d), None) => format!("damelab depth {d}"),
        (None, Some(n)) => format!("damelab {n} nodes"),
        (None, None) => "damelab".into(),
    }
}

/// The result token of a record: the first number is the first mover's score. A game stopped by
/// the length cap is scored as the run scores it, a draw (its `Termination` tag says why).
pub fn result_token(rules: &Rules, g: &GameRecord) -> &'static str {
    crate::pdn::finished_result(rules, usize::try_from(g.w).ok())
}

/// A game as PDN: `Event` (the run), `Round` (the game's index from 1), `White` and `Black` (the
/// players), `Termination` (how it ended), the variant's `GameType`, the moves and the result.
/// `moves` (from `start`) are in any width; `wide` are the same rules in the usual one.
pub fn game_text<B: BitSet>(
    wide: &Arc<Rules>,
    settings: &Settings,
    start: &crate::engine::Position,
    g: &GameRecord,
    moves: &[Move<B>],
) -> String {
    let mut game = Game::from_position(wide.clone(), *start);
    for m in moves {
        game.play(m.to_width());
    }
    let who = player(settings);
    let tags = [
        ("Event", event(settings)),
        ("Round", (g.i + 1).to_string()),
        ("White", who.clone()),
        ("Black", who),
        ("Termination", termination(g.end).into()),
    ]
    .map(|(n, v)| (n.to_string(), v));
    write_game(&game, &tags, &[], Some(result_token(wide, g)))
}

fn termination(e: End) -> &'static str {
    e.label()
}

/// A PDN file given to `merge`: its name for messages and its text.
pub struct PdnInput {
    pub name: String,
    pub text: Vec<u8>,
}

/// The games of `inputs` (PDN files written by shards of the run `merged` holds) as one text in
/// game order. Every game must be one of `merged`'s, with the same result, and none may be
/// missing or given twice.
pub fn merge_pdn(
    inputs: &[PdnInput],
    rules: &Rules,
    merged: &RunFile,
) -> Result<String, PdnMergeError> {
    games_in_order(inputs, rules, std::slice::from_ref(merged))
        .map_err(|why| PdnMergeError { why, ladder: false })
}

/// Shards' PDN files that do not hold the games of the runs merged: why, and in the type what to
/// give instead (the PDN files `selfplay --pdn` wrote, or `selfplay --ladder … --pdn` for a
/// ladder).
#[derive(Debug, thiserror::Error)]
#[error("{why}")]
pub struct PdnMergeError {
    pub why: PdnMismatch,
    /// Whether the files are a ladder's.
    pub ladder: bool,
}

impl miette::Diagnostic for PdnMergeError {
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(format!(
            "give the PDN file of every shard merged, as `selfplay {}--pdn` wrote it",
            if self.ladder { "--ladder … " } else { "" }
        )))
    }
}

/// What is wrong with a game of the shards' PDN files (`at`: the file and line).
#[derive(Debug, thiserror::Error)]
pub enum PdnMismatch {
    #[error(
        "`{name}` is not a PDN file written by `selfplay --pdn`: {read} games read, {tagged} start with an `Event` tag"
    )]
    NotSelfplay {
        name: String,
        read: usize,
        tagged: usize,
    },
    #[error("the game at {at} does not read: {why}")]
    Unreadable { at: String, why: String },
    #[error("the game at {at} is of another run: `{event}`, not `{run}`")]
    OtherRun {
        at: String,
        event: String,
        run: String,
    },
    #[error(
        "the game at {at} is of none of the runs merged: `{event}`, not one of {}",
        runs.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")
    )]
    NoRun {
        at: String,
        event: String,
        runs: Vec<String>,
    },
    #[error("the game at {at} has no game number (`Round \"{round}\"`)")]
    NoNumber { at: String, round: String },
    #[error("game {} at {at} is not among the games merged ({shards})", index + 1)]
    NotMerged {
        at: String,
        index: u64,
        shards: String,
    },
    #[error(
        "game {} at {at} has result `{got}` but the JSON files record `{want}`",
        index + 1
    )]
    OtherResult {
        at: String,
        index: u64,
        got: String,
        want: String,
    },
    /// Games missing or twice, of the one run merged or of the run of `player`.
    #[error("{}{why}", player.as_ref().map(|p| format!("{p}: ")).unwrap_or_default())]
    Games {
        player: Option<String>,
        why: crate::runs::shard::PdnGamesError,
    },
}

/// The games of `inputs` (PDN files written by shards of the runs `runs`, as a ladder's shards
/// write them: the games of each rung in turn) as one text, the runs in order and each run's games
/// in game order. Each game is told to its run by its `Event` tag; it must be one of that run's,
/// with the same result, and none may be missing or given twice.
pub fn merge_pdn_runs(
    inputs: &[PdnInput],
    rules: &Rules,
    runs: &[RunFile],
) -> Result<String, PdnMergeError> {
    games_in_order(inputs, rules, runs).map_err(|why| PdnMergeError { why, ladder: true })
}

fn games_in_order(
    inputs: &[PdnInput],
    rules: &Rules,
    runs: &[RunFile],
) -> Result<String, PdnMismatch> {
    let events: Vec<String> = runs.iter().map(|r| event(&r.settings)).collect();
    let mut games: Vec<Placed> = Vec::new();
    for input in inputs {
        let parsed = read_games(&input.text);
        // Each game's text from its `Event` line (none when the file is not UTF-8).
        let texts: Vec<&str> = std::str::from_utf8(&input.text)
            .map(|t| split_games(t).into_iter().map(|(_, g)| g).collect())
            .unwrap_or_default();
        if texts.len() != parsed.len() {
            return Err(PdnMismatch::NotSelfplay {
                name: input.name.clone(),
                read: parsed.len(),
                tagged: texts.len(),
            });
        }
        for (g, text) in parsed.iter().zip(texts) {
            let at = format!("`{}` (line {})", input.name, g.loc.line);
            if let Some(e) = g.errors.first() {
                return Err(PdnMismatch::Unreadable {
                    at,
                    why: e.to_string(),
                });
            }
            let event = g.tag("Event").unwrap_or_default();
            let Some(run) = events.iter().position(|e| *e == event) else {
                let event = event.to_string();
                return Err(match events.as_slice() {
                    [one] => PdnMismatch::OtherRun {
                        at,
                        event,
                        run: one.clone(),
                    },
                    _ => PdnMismatch::NoRun {
                        at,
                        event,
                        runs: events.clone(),
                    },
                });
            };
            let merged = &runs[run];
            let round = g.tag("Round").unwrap_or_default();
            let index = match round.trim().parse::<u64>() {
                Ok(r) if r >= 1 => r - 1,
                _ => {
                    return Err(PdnMismatch::NoNumber {
                        at,
                        round: round.to_string(),
                    })
                }
            };
            let Ok(pos) = merged.games.binary_search_by_key(&index, |r| r.i) else {
                return Err(PdnMismatch::NotMerged {
                    at,
                    index,
                    shards: merged.shards.to_string(),
                });
            };
            let want = result_token(rules, &merged.games[pos]);
            let got = g.tag("Result").unwrap_or_default();
            if got != want {
                return Err(PdnMismatch::OtherResult {
                    at,
                    index,
                    got: got.to_string(),
                    want: want.to_string(),
                });
            }
            games.push(Placed { run, index, text });
        }
    }
    let indices: Vec<Vec<u64>> = runs
        .iter()
        .map(|r| r.games.iter().map(|g| g.i).collect())
        .collect();
    merge_by_index(games, &indices, |r, why| PdnMismatch::Games {
        player: (runs.len() > 1).then(|| player(&runs[r].settings)),
        why,
    })
}
