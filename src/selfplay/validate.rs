//! Checking a self-play run file read back (`selfplay merge`, `selfplay chart`): a file is data
//! anyone could have edited, so every record must be one the run it claims could have played,
//! and the stored figures must be those of its records.

use super::{End, RunFile};
use crate::search::MAX_DEPTH;
use std::path::Path;

/// A run file refused: the file, and the first inconsistency found in it.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`{file}` is not a sound self-play file: {why}")]
#[diagnostic(help(
    "merge the files `selfplay --json` wrote, unedited; play the run again if in doubt"
))]
pub struct UnsoundRun {
    pub file: String,
    pub why: String,
}

/// Why a run file is refused: the first inconsistency found.
pub fn check_run(path: &Path, f: &RunFile) -> Result<(), UnsoundRun> {
    let s = &f.settings;
    let bad = |why: String| {
        Err(UnsoundRun {
            file: path.display().to_string(),
            why,
        })
    };
    if s.games == 0 || s.games > crate::limits::MAX_SELFPLAY_GAMES {
        return bad(format!("its run has {} games", s.games));
    }
    if s.max_plies == 0 {
        return bad("its length cap is 0 plies".into());
    }
    if s.depth.is_some_and(|d| d == 0 || d > MAX_DEPTH) {
        return bad(format!("its depth {:?} is out of range", s.depth));
    }
    // The shards it claims: of one count, ascending, each once, within the run.
    let sh = &f.shards;
    if sh.count == 0 || sh.count > s.games.max(1) {
        return bad(format!("its shards are split {} ways", sh.count));
    }
    if sh.held.is_empty() || sh.held.iter().any(|&k| k == 0 || k > sh.count) {
        return bad(format!(
            "its shards {:?} are not shards of {}",
            sh.held, sh.count
        ));
    }
    if sh.held.windows(2).any(|w| w[0] >= w[1]) {
        return bad("it lists a shard twice, or out of order".into());
    }
    let held: Vec<String> = sh
        .held
        .iter()
        .map(|k| format!("{k}/{}", sh.count))
        .collect();
    let expected = sh.items(s.games);
    if f.games.len() as u64 != expected {
        return bad(format!(
            "it holds {} game records where its {} has {expected}",
            f.games.len(),
            if sh.is_whole() {
                "run".to_string()
            } else {
                format!("shards ({})", held.join(" "))
            }
        ));
    }
    let mut seen = std::collections::HashSet::with_capacity(f.games.len());
    let mut draws = 0u64;
    let (mut reached, mut decided) = (0u64, 0u64);
    for g in &f.games {
        if g.i >= s.games {
            return bad(format!(
                "game {} lies outside its run of {} games",
                g.i, s.games
            ));
        }
        if !sh.holds(g.i) {
            return bad(format!(
                "game {} does not belong to its shards ({})",
                g.i,
                held.join(" ")
            ));
        }
        if !seen.insert(g.i) {
            return bad(format!("game {} appears twice", g.i));
        }
        if !(-1..=1).contains(&g.w) {
            return bad(format!(
                "game {} has the winner `{}` (0, 1 or -1 for a draw)",
                g.i, g.w
            ));
        }
        if g.plies > s.max_plies || g.caps > g.plies || g.promos > g.plies {
            return bad(format!(
                "game {} has {} plies, {} capture positions and {} promotions under a cap of {}",
                g.i, g.plies, g.caps, g.promos, s.max_plies
            ));
        }
        if matches!(g.end, End::Cap | End::Repetition | End::MoveCount) && g.w != -1 {
            return bad(format!(
                "game {} ended by a draw rule but has a winner",
                g.i
            ));
        }
        if g.tb.is_some_and(|t| !(-1..=1).contains(&t)) || (g.tb.is_some() && s.tables.is_none()) {
            return bad(format!(
                "game {} has the tables' verdict `{:?}` (0, 1 or -1, and only in a run with tables)",
                g.i, g.tb
            ));
        }
        if g.tb_material.is_some() && g.tb.is_none() {
            return bad(format!(
                "game {} names the tables' material but has no verdict of theirs",
                g.i
            ));
        }
        if (g.draw.is_some() && g.w != -1) || (g.shuffle && g.end != End::Repetition) {
            return bad(format!(
                "game {} has the draw class `{:?}` (shuffling: {}) but ended `{:?}` with winner {}",
                g.i, g.draw, g.shuffle, g.end, g.w
            ));
        }
        draws += (g.w == -1) as u64;
        reached += g.tb.is_some() as u64;
        decided += g.tables_decided() as u64;
    }
    if f.report.tables_reached != reached || f.report.tables_decided != decided {
        return bad(format!(
            "its report says the tables were reached in {} games and decided {} where its \
             records have {reached} and {decided}",
            f.report.tables_reached, f.report.tables_decided
        ));
    }
    // The stored figures must be those of the records.
    let r = &f.report;
    let n = f.games.len() as u64;
    let rate_ok = |count: u64, rate: f64| {
        let want = if n == 0 { 0.0 } else { count as f64 / n as f64 };
        (rate - want).abs() < 1e-9
    };
    if r.games != n || r.draws.count != draws || !rate_ok(r.draws.count, r.draws.rate) {
        return bad(format!(
            "its report says {} games, {} draws ({:.1}%) where its records have {n} games, \
             {draws} draws",
            r.games,
            r.draws.count,
            100.0 * r.draws.rate
        ));
    }
    for w in &r.wins {
        if w.count > n || !rate_ok(w.count, w.rate) {
            return bad("its win counts do not match their rates".into());
        }
    }
    if f.opening_table != super::openings::table(s, r.first_side, &f.games) {
        return bad("its table of scores by opening is not that of its records".into());
    }
    Ok(())
}
