//! A match's result file (`match --json`): its settings, engines, the shards it holds, the
//! standings and every game; read back and checked for `match merge`, which puts the shards of a
//! match together into exactly the file of the match played in one go (see `docs/match.md`).

use super::standings::{standings_of, Standing};
use super::stats::Sprt;
use super::{job_list, pair_of, GameRecord};
use crate::runs::pdn::{merge_by_index, split_games, Placed};
use crate::runs::shard::{self, ShardSet, Stamp};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The name and version of the JSON format. Version 2 added the build, the rules' fingerprint and
/// the shards, and dropped the concurrency (it changes no game with node or depth limits).
pub const FORMAT: &str = "damelab-match";
pub const VERSION: u32 = 2;

/// What decides a match's games (with node or depth limits, equal settings and engines play the
/// same games): shards of one match have equal settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSettings {
    pub variant: String,
    /// A fingerprint of the compiled rules (a changed rules file of the same name is noticed).
    pub rules_fingerprint: String,
    pub games_per_pairing: u64,
    pub seed: u64,
    /// The openings file, as given.
    pub openings: Option<String>,
    pub random_plies: u32,
    /// `--balanced` and `--balance-depth`: random openings kept only when a search of that depth
    /// scores them within that many men (absent from the files of matches without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balanced: Option<(f64, u32)>,
    pub max_plies: u32,
    /// The endgame tables' directory, when they adjudicate.
    pub tables: Option<String>,
    pub adjudicate_score: Option<f64>,
    pub adjudicate_plies: u32,
    /// The sequential test, when one was run (never in a sharded match).
    pub sprt: Option<Sprt>,
}

/// A match (or a shard of one, or a merge of shards) as `--json` writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchFile {
    pub format: String,
    pub version: u32,
    /// The version of damelab that played the games.
    pub damelab: String,
    pub settings: MatchSettings,
    /// Each engine's name and settings.
    pub engines: Vec<(String, String)>,
    /// The shards of the match's pairs of games this file holds (`1 of 1`: the whole match).
    pub shards: ShardSet,
    /// `complete`, `sprt` (the test decided) or `interrupted`.
    pub finished: String,
    /// Written for the reader; not read back (a merge computes them again from the games, and
    /// an interval bound of a lopsided match is infinite, which JSON writes as `null`).
    #[serde(default, skip_deserializing)]
    pub standings: Vec<Standing>,
    /// The games the endgame tables decided, when they adjudicate (written for the reader, like
    /// the standings; see [`super::tables_decided`]).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub tables_decided: Option<u64>,
    pub games: Vec<GameRecord>,
}

impl MatchFile {
    /// The pairs of games (openings) of the whole match.
    pub fn pairs(&self) -> u64 {
        self.settings.games_per_pairing.div_ceil(2)
    }

    fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.0.clone()).collect()
    }
}

/// Why match files cannot be read or merged: the reason, and in the type what to do about it.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum MatchFileError {
    /// A file that is not a sound match file (unreadable, another format, a record the match
    /// could not have played).
    #[error("{0}")]
    #[diagnostic(help("give the files `damelab match --shard K/N --json FILE` wrote"))]
    Unsound(String),
    /// Files that are not the complete shards of one match.
    #[error("{0}")]
    #[diagnostic(help(
        "merge the complete shards of one match: the same settings and engines, one `--shard K/N` split"
    ))]
    NotOneMatch(String),
    /// A shard's PDN file that does not hold the games its JSON file records.
    #[error("{0}")]
    #[diagnostic(help("give the PDN file of every shard merged, as `match --pdn` wrote it"))]
    PdnMismatch(String),
}

/// Read a match file written by `match --json`, checked game by game against the match it claims.
pub fn read(path: &Path) -> Result<MatchFile, MatchFileError> {
    let text = crate::fsio::read_text(path, crate::fsio::Kind::RunJson)
        .map_err(|e| MatchFileError::Unsound(format!("cannot read `{}`: {e}", path.display())))?;
    parse(path, &text)
}

/// A match file's text (read from `path`), checked as [`read`] does.
pub fn parse(path: &Path, text: &str) -> Result<MatchFile, MatchFileError> {
    let name = path.display();
    crate::runs::shard::check_head(
        &name.to_string(),
        text,
        FORMAT,
        VERSION as u64,
        "a match file",
    )
    .map_err(|e| MatchFileError::Unsound(e.to_string()))?;
    let f: MatchFile = serde_json::from_str(text)
        .map_err(|e| MatchFileError::Unsound(format!("`{name}` is not a valid match file: {e}")))?;
    check(&f, &name.to_string())?;
    Ok(f)
}

/// Every record must be one the match could have played, in one of the file's shards (the file
/// is named `name` in the message).
fn check(f: &MatchFile, name: &str) -> Result<(), MatchFileError> {
    let unsound =
        |why: String| MatchFileError::Unsound(format!("`{name}` is not a sound match file: {why}"));
    let s = &f.settings;
    let engines = f.engines.len();
    if !(2..=64).contains(&engines) {
        return Err(unsound(format!("it has {engines} engines")));
    }
    if s.games_per_pairing == 0 || s.games_per_pairing > crate::limits::MAX_MATCH_GAMES {
        return Err(unsound(format!(
            "its pairings have {} games",
            s.games_per_pairing
        )));
    }
    let sh = &f.shards;
    if !sh.is_valid() || sh.count > f.pairs() {
        return Err(unsound(format!(
            "its shards {:?} of {} are not shards of its {} pairs of games",
            sh.held,
            sh.count,
            f.pairs()
        )));
    }
    let jobs = job_list(engines, s.games_per_pairing);
    let pairings = super::pairings(engines);
    let mut seen = std::collections::HashSet::with_capacity(f.games.len());
    for g in &f.games {
        let Some(job) = jobs.get(g.index as usize) else {
            return Err(unsound(format!(
                "game {} lies outside its match of {} games",
                g.index + 1,
                jobs.len()
            )));
        };
        if !seen.insert(g.index) {
            return Err(unsound(format!("game {} appears twice", g.index + 1)));
        }
        if !sh.holds(pair_of(job.round)) {
            return Err(unsound(format!(
                "game {} does not belong to its shards ({sh})",
                g.index + 1
            )));
        }
        let (a, b) = pairings[job.pairing];
        let sides = if job.round.is_multiple_of(2) {
            [a, b]
        } else {
            [b, a]
        };
        if g.pairing != job.pairing || g.round != job.round || g.engines != sides {
            return Err(unsound(format!(
                "game {} is not the match's game {} (pairing, round or engines differ)",
                g.index + 1,
                g.index + 1
            )));
        }
        if g.winner.is_some_and(|w| w > 1) || g.plies > s.max_plies.max(1) + 1_000 {
            return Err(unsound(format!(
                "game {} has the winner {:?} and {} plies",
                g.index + 1,
                g.winner,
                g.plies
            )));
        }
        if !["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str())
            || (g.winner.is_none() != (g.result == "1/2-1/2"))
        {
            return Err(unsound(format!(
                "game {} has the result `{}` and the winner {:?}",
                g.index + 1,
                g.result,
                g.winner
            )));
        }
    }
    if f.finished == "complete" {
        let expected = jobs.iter().filter(|j| sh.holds(pair_of(j.round))).count();
        if f.games.len() != expected {
            return Err(unsound(format!(
                "it says it is complete but holds {} of its {expected} games ({sh})",
                f.games.len()
            )));
        }
    }
    Ok(())
}

/// Merge match files named `names` (for messages): one format, build, settings and engines, one
/// split, no shard twice, every file a complete shard. The standings are computed again from the
/// games, in game order, so that a merge of every shard is the file of the match played at once.
pub fn merge(names: &[String], files: &[MatchFile]) -> Result<MatchFile, MatchFileError> {
    let not_one = MatchFileError::NotOneMatch;
    let Some(first) = files.first() else {
        return Err(not_one("no files to merge".into()));
    };
    for (n, f) in names.iter().zip(files) {
        if f.finished != "complete" {
            return Err(not_one(format!(
                "`{n}` holds a match that did not finish ({}: {} games)",
                f.finished,
                f.games.len()
            )));
        }
    }
    let values: Vec<serde_json::Value> = files
        .iter()
        .map(|f| serde_json::json!({"settings": f.settings, "engines": f.engines}))
        .collect();
    let stamps: Vec<Stamp> = names
        .iter()
        .zip(files)
        .zip(values)
        .map(|((name, f), settings)| Stamp {
            name,
            format: &f.format,
            version: f.version,
            damelab: &f.damelab,
            settings,
            shards: &f.shards,
        })
        .collect();
    let held = shard::check_mergeable(&stamps).map_err(|e| not_one(e.to_string()))?;
    let mut games: Vec<GameRecord> = files.iter().flat_map(|f| f.games.iter().cloned()).collect();
    games.sort_by_key(|g| g.index);
    if let Some(w) = games.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(not_one(format!(
            "game {} appears in more than one file",
            w[0].index + 1
        )));
    }
    let shards = if held.is_whole() {
        ShardSet::whole()
    } else {
        held
    };
    Ok(MatchFile {
        format: FORMAT.into(),
        version: VERSION,
        damelab: first.damelab.clone(),
        settings: first.settings.clone(),
        engines: first.engines.clone(),
        shards,
        finished: "complete".into(),
        standings: standings_of(&first.names(), &games, None),
        tables_decided: first
            .settings
            .tables
            .is_some()
            .then(|| super::tables_decided(&games)),
        games,
    })
}

/// The games of the shards' PDN files (`(name, text)`) in game order, as one text
/// ([`merge_by_index`]): each game must be one of `merged`'s (its `Round` tag is its number in
/// the match) with the result the JSON records, none given twice or missing. The text is the PDN
/// of the match played at once.
pub fn merge_pdn(
    inputs: &[(String, String)],
    merged: &MatchFile,
) -> Result<String, MatchFileError> {
    let mismatch = MatchFileError::PdnMismatch;
    let mut games: Vec<Placed> = Vec::new();
    for (name, text) in inputs {
        for (line, chunk) in split_games(text) {
            let at = format!("`{name}` (line {line})");
            let tag = |t: &str| -> Option<String> {
                let head = format!("[{t} \"");
                chunk
                    .lines()
                    .find_map(|l| l.strip_prefix(&head)?.strip_suffix("\"]"))
                    .map(str::to_string)
            };
            let round = tag("Round").unwrap_or_default();
            let index = match round.parse::<u64>() {
                Ok(r) if r >= 1 => r - 1,
                _ => {
                    return Err(mismatch(format!(
                        "the game at {at} has no game number (`Round`)"
                    )))
                }
            };
            let Ok(pos) = merged.games.binary_search_by_key(&index, |g| g.index) else {
                return Err(mismatch(format!(
                    "game {} at {at} is not among the games merged ({})",
                    index + 1,
                    merged.shards
                )));
            };
            let want = &merged.games[pos].result;
            let got = tag("Result").unwrap_or_default();
            if &got != want {
                return Err(mismatch(format!(
                    "game {} at {at} has result `{got}` but the JSON files record `{want}`",
                    index + 1
                )));
            }
            games.push(Placed {
                run: 0,
                index,
                text: chunk,
            });
        }
    }
    let indices = vec![merged.games.iter().map(|g| g.index).collect()];
    merge_by_index(games, &indices, |_, e| mismatch(e.to_string()))
}
