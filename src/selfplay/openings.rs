//! The openings of a self-play run beyond its random plies: a fixed set read from a file
//! (`--openings`, game `i` plays opening `i mod n`, then the run's random plies), or random plies
//! kept only when a short search scores them near level (`--balanced`, as `match --balanced`
//! draws them: [`crate::matchplay::openings::balanced`]). With a fixed set, the run's figures
//! include a balance table: the first player's score from each opening, with its interval, and
//! the openings that decide the game on their own flagged.

use super::{wilson, GameRecord, Settings};
use crate::engine::{BitSet, Move, Position};
use crate::matchplay::openings::{self as mo, Balance, Opening, OpeningsError};
use crate::Rules;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The openings a run's games begin from, as its settings record them (everything that decides
/// them: the file's openings themselves, not only its name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningSet {
    /// The openings file, as given (for the reader; the openings are `lines`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The file's openings, one line each ([`mo::line_of`]): game `i` plays opening `i mod n`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// `--balanced`: the bound in hundredths of a man and the depth of the search that checks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balanced: Option<(i32, u32)>,
}

impl OpeningSet {
    /// The set of a file's openings.
    pub fn of_file(rules: &Rules, file: &str, openings: &[Opening]) -> OpeningSet {
        OpeningSet {
            file: Some(file.to_string()),
            lines: openings.iter().map(|o| mo::line_of(rules, o)).collect(),
            balanced: None,
        }
    }

    /// How the text report names the set.
    pub fn describe(&self) -> String {
        match (&self.file, self.balanced) {
            (_, Some((score, depth))) => format!(
                "balanced random openings (a depth-{depth} search scores them within {:.2} men)",
                score as f64 / 100.0
            ),
            (Some(f), None) => format!("{} openings of `{f}`", self.lines.len()),
            (None, None) => format!("{} openings", self.lines.len()),
        }
    }
}

/// Where each game of a run begins, made ready once for the whole run.
pub enum Starts {
    /// From the start position, the run's random plies.
    Plies,
    /// A fixed set, used in turn.
    Fixed(Vec<Opening>),
    /// Balanced random openings of the run's random plies.
    Balanced(Balance),
}

impl Starts {
    /// The starts of a run with these settings: a fixed set's lines read back (they were checked
    /// when the file was read, but a run file is data anyone could have edited).
    pub fn new(rules: &Arc<Rules>, settings: &Settings) -> Result<Starts, OpeningsError> {
        let Some(set) = &settings.openings else {
            return Ok(Starts::Plies);
        };
        if let Some((score, depth)) = set.balanced {
            return Ok(Starts::Balanced(Balance::new(rules, score, depth)));
        }
        let file = set.file.clone().unwrap_or_default();
        let mut out = Vec::with_capacity(set.lines.len());
        for (i, l) in set.lines.iter().enumerate() {
            out.push(
                mo::parse_line(rules, l).map_err(|why| OpeningsError::BadFen {
                    file: file.clone(),
                    line: i + 1,
                    why: why.0,
                })?,
            );
        }
        if out.is_empty() {
            return Err(OpeningsError::Empty(file));
        }
        Ok(Starts::Fixed(out))
    }

    /// The opening game `index` plays before its random plies (`None`: the start position), and
    /// the random plies after it.
    pub fn of(
        &self,
        rules: &Arc<Rules>,
        settings: &Settings,
        index: u64,
    ) -> (Option<Opening>, u32) {
        match self {
            Starts::Plies => (None, settings.opening_plies),
            Starts::Fixed(v) => (
                Some(v[(index % v.len() as u64) as usize].clone()),
                settings.opening_plies,
            ),
            Starts::Balanced(b) => (
                Some(mo::balanced(
                    rules,
                    settings.seed,
                    index,
                    settings.opening_plies,
                    b,
                )),
                0,
            ),
        }
    }
}

/// An opening in the width the games are played in: its start and moves.
pub fn narrowed<B: BitSet>(o: &Opening) -> (Position<B>, Vec<Move<B>>) {
    (
        o.start.to_width(),
        o.moves.iter().map(|m| m.to_width()).collect(),
    )
}

/// One opening of a fixed set, as the balance table gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningRow {
    /// Its number in the set, from 1.
    pub opening: usize,
    pub line: String,
    pub games: u64,
    /// Wins of the first player, of the second, draws.
    pub first_wins: u64,
    pub second_wins: u64,
    pub draws: u64,
    /// The first player's score (win 1, draw ½) from this opening, and its 95% interval.
    pub first_score: f64,
    pub ci95: (f64, f64),
    /// The side (0 or 1) this opening wins for on its own: its interval lies wholly beyond ½
    /// toward that side's first player's score (none when ½ is inside it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decides_for: Option<u8>,
}

/// The balance table of a run with a fixed set of openings (empty for any other run): one row an
/// opening that has games. The interval is Wilson's for the score as a share of the games, which
/// is wider than the score's own when there are draws.
pub fn table(settings: &Settings, first_side: u8, games: &[GameRecord]) -> Vec<OpeningRow> {
    let Some(set) = settings.openings.as_ref().filter(|s| !s.lines.is_empty()) else {
        return Vec::new();
    };
    let n = set.lines.len();
    let mut counts = vec![[0u64; 3]; n];
    for g in games {
        let row = &mut counts[(g.i % n as u64) as usize];
        let k = match g.w {
            -1 => 2,
            w if w as u8 == first_side => 0,
            _ => 1,
        };
        row[k] += 1;
    }
    let second = 1 - first_side.min(1);
    counts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.iter().sum::<u64>() > 0)
        .map(|(i, &[fw, sw, d])| {
            let games = fw + sw + d;
            let points = fw as f64 + d as f64 / 2.0;
            let ci95 = wilson_share(points, games);
            OpeningRow {
                opening: i + 1,
                line: set.lines[i].clone(),
                games,
                first_wins: fw,
                second_wins: sw,
                draws: d,
                first_score: points / games as f64,
                ci95,
                decides_for: if ci95.0 > 0.5 {
                    Some(first_side)
                } else if ci95.1 < 0.5 {
                    Some(second)
                } else {
                    None
                },
            }
        })
        .collect()
}

/// [`wilson`] for a share of `points` out of `n` that need not be whole.
fn wilson_share(points: f64, n: u64) -> (f64, f64) {
    if points.fract() == 0.0 {
        return wilson(points as u64, n);
    }
    // Halfway between the intervals of the whole numbers either side, rounded outward.
    let lo = wilson(points.floor() as u64, n).0;
    let hi = wilson(points.ceil() as u64, n).1;
    (lo, hi)
}

/// The balance table as text: a line an opening, then how many decide the game on their own.
pub fn table_text(rows: &[OpeningRow], side_names: &[String; 2], random_plies: u32) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from("openings         first player's score by opening (95% CI)\n");
    for r in rows {
        let flag = match r.decides_for {
            Some(s) => format!(
                "  DECIDES for {}",
                side_names.get(s as usize).map_or("?", |n| n.as_str())
            ),
            None => String::new(),
        };
        out.push_str(&format!(
            "  {:>3}  {:<28} {:>4} games  +{} ={} -{}  {:.3} [{:.3} – {:.3}]{flag}\n",
            r.opening,
            r.line,
            r.games,
            r.first_wins,
            r.draws,
            r.second_wins,
            r.first_score,
            r.ci95.0,
            r.ci95.1
        ));
    }
    let deciding = rows.iter().filter(|r| r.decides_for.is_some()).count();
    out.push_str(&format!(
        "                 {deciding} of {} openings decide the game on their own",
        rows.len()
    ));
    if random_plies == 0 && rows.iter().any(|r| r.games > 1) {
        out.push_str(
            " (no random plies after the openings: an opening's games are one game repeated, \
             its interval says nothing)",
        );
    }
    out.push('\n');
    out
}

/// The balance table of a run file as text (empty for a run without a fixed set of openings).
pub fn file_text(f: &super::RunFile) -> String {
    table_text(
        &f.opening_table,
        &f.report.side_names,
        f.settings.opening_plies,
    )
}
