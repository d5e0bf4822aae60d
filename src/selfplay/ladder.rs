//! `selfplay --ladder`: the same self-play run at a series of strengths (node budgets or depths
//! per move), each figure — draw rate, the first player's score, mean game length, how games end —
//! reported against strength with its 95% interval, and whether the draw rate has levelled off
//! between the last two rungs. A ladder file holds every rung's run file, so its figures can be
//! computed again and charted with other variants' ladders (`selfplay chart`).

use super::file::bad;
use super::{share, wilson, End, RunFile, Share, ENDS};
use crate::runs::shard::ShardSet;
use miette::Report as Diag;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A bare `--ladder`: node budgets of 1,000, 10,000 and 100,000 a move.
pub const DEFAULT_LADDER: &str = "nodes=1000,10000,100000";
pub const FORMAT: &str = "damelab-ladder";
pub const VERSION: u32 = 1;
/// The most rungs a ladder may have.
pub const MAX_RUNGS: usize = 32;
/// The largest node budget of a rung.
pub use crate::limits::MAX_RUN_NODES as MAX_NODES;

/// What a ladder varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Key {
    Nodes,
    Depth,
}

impl Key {
    pub fn name(self) -> &'static str {
        match self {
            Key::Nodes => "nodes",
            Key::Depth => "depth",
        }
    }

    /// The axis of a chart: `nodes per move`, `depth`.
    pub fn axis(self) -> &'static str {
        match self {
            Key::Nodes => "nodes per move",
            Key::Depth => "search depth",
        }
    }
}

/// The rungs of a ladder, weakest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    pub key: Key,
    pub rungs: Vec<u64>,
}

/// `nodes=1000,10000,100000` or `depth=2,4,6`: two or more rising values of one key.
pub fn parse(text: &str) -> Result<Ladder, LadderSpecError> {
    use LadderSpecError as E;
    let text = text.trim();
    let Some((key, values)) = text.split_once('=') else {
        return Err(E::NotALadder(text.to_string()));
    };
    let key = match key.trim() {
        "nodes" => Key::Nodes,
        "depth" => Key::Depth,
        k @ ("movetime" | "time" | "tc") => return Err(E::MachineKey(k.to_string())),
        k => return Err(E::UnknownKey(k.to_string())),
    };
    let k = key.name();
    let mut rungs: Vec<u64> = Vec::new();
    for word in values.split(',').map(str::trim) {
        if word.is_empty() {
            continue;
        }
        let n: u64 = word.replace('_', "").parse().map_err(|_| E::NotANumber {
            key: k,
            word: word.to_string(),
        })?;
        let max = match key {
            Key::Nodes => MAX_NODES,
            Key::Depth => crate::search::MAX_DEPTH as u64,
        };
        if n == 0 || n > max {
            return Err(E::OutOfRange { key: k, n, max });
        }
        if rungs.contains(&n) {
            return Err(E::Twice { key: k, n });
        }
        if let Some(&last) = rungs.last() {
            if n < last {
                return Err(E::NotRising { key: k, n, last });
            }
        }
        rungs.push(n);
    }
    if rungs.is_empty() {
        return Err(E::NoRungs(text.to_string()));
    }
    if rungs.len() < 2 {
        return Err(E::OneRung {
            text: text.to_string(),
            key: k,
        });
    }
    if rungs.len() > MAX_RUNGS {
        return Err(E::TooMany(rungs.len()));
    }
    Ok(Ladder { key, rungs })
}

/// A `--ladder` that is not one: why, and in the type how one is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(help(
    "write the ladder after the variant: `damelab selfplay dameo --games 100 --ladder nodes=1000,10000,100000` (or a bare `--ladder` for those)"
))]
pub enum LadderSpecError {
    #[error("`{0}` is not a ladder: write KEY=V1,V2,… with KEY `nodes` or `depth`")]
    NotALadder(String),
    #[error(
        "unknown ladder key `{0}`: self-play plays to a node budget or a depth (its games then do \
         not depend on the machine); the keys are `nodes` and `depth`"
    )]
    MachineKey(String),
    #[error("unknown ladder key `{0}`: the keys are `nodes` and `depth`")]
    UnknownKey(String),
    #[error("ladder rung `{key}={word}`: `{word}` is not a whole number")]
    NotANumber { key: &'static str, word: String },
    #[error("ladder rung `{key}={n}` is out of range: give {key} from 1 to {max}")]
    OutOfRange { key: &'static str, n: u64, max: u64 },
    #[error("ladder rung `{key}={n}` is given twice")]
    Twice { key: &'static str, n: u64 },
    #[error("ladder rungs must rise: `{key}={n}` comes after `{last}`")]
    NotRising {
        key: &'static str,
        n: u64,
        last: u64,
    },
    #[error("the ladder `{0}` has no rungs")]
    NoRungs(String),
    #[error("the ladder `{text}` has one rung: a ladder needs two or more (`{key}=1000,10000`)")]
    OneRung { text: String, key: &'static str },
    #[error("the ladder has {0} rungs: give at most {MAX_RUNGS}")]
    TooMany(usize),
}

/// A mean with its 95% interval (normal approximation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

const Z95: f64 = 1.959_963_984_540_054;

/// The mean of `xs` with its 95% interval.
pub fn mean_interval(xs: &[f64]) -> Interval {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return Interval {
            value: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = Z95 * (var / n).sqrt();
    Interval {
        value: mean,
        low: mean - half,
        high: mean + half,
    }
}

/// One rung's figures, all from its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// The rung's node budget or depth.
    pub value: u64,
    pub games: u64,
    pub draws: Share,
    /// The first player's score per game (win 1, draw ½).
    pub first_player_score: Interval,
    /// Mean game length in plies.
    pub length_mean: Interval,
    /// How games ended: each way's share of the games.
    pub ends: Vec<(End, Share)>,
    pub rating: Option<super::Rating>,
    /// The games the endgame tables decided ([`super::GameRecord::tables_decided`]), in a
    /// ladder played with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables_decided: Option<Share>,
}

impl Rung {
    pub fn of(value: u64, f: &RunFile) -> Rung {
        let first = f.report.first_side as i8;
        let scores: Vec<f64> = f
            .games
            .iter()
            .map(|g| match g.w {
                -1 => 0.5,
                w if w == first => 1.0,
                _ => 0.0,
            })
            .collect();
        let lengths: Vec<f64> = f.games.iter().map(|g| g.plies as f64).collect();
        let n = f.games.len() as u64;
        Rung {
            value,
            games: n,
            draws: f.report.draws.clone(),
            first_player_score: mean_interval(&scores),
            length_mean: mean_interval(&lengths),
            ends: ENDS
                .iter()
                .map(|&e| {
                    (
                        e,
                        share(f.games.iter().filter(|g| g.end == e).count() as u64, n),
                    )
                })
                .collect(),
            rating: f.rating.clone(),
            tables_decided: f
                .settings
                .tables
                .is_some()
                .then(|| share(f.report.tables_decided, n)),
        }
    }
}

/// The change of the draw rate between two rungs, with the 95% interval of the difference
/// (Newcombe's hybrid score interval from the two Wilson intervals).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Levelling {
    pub from: u64,
    pub to: u64,
    /// `to`'s draw rate minus `from`'s.
    pub difference: f64,
    pub low: f64,
    pub high: f64,
    /// Whether the interval holds zero: no change can be told at these numbers of games.
    pub levelled: bool,
}

pub fn levelling(a: &Rung, b: &Rung) -> Levelling {
    let (p1, p2) = (a.draws.rate, b.draws.rate);
    let (l1, u1) = wilson(a.draws.count, a.games);
    let (l2, u2) = wilson(b.draws.count, b.games);
    let d = p2 - p1;
    let low = d - ((p2 - l2).powi(2) + (u1 - p1).powi(2)).sqrt();
    let high = d + ((u2 - p2).powi(2) + (p1 - l1).powi(2)).sqrt();
    Levelling {
        from: a.value,
        to: b.value,
        difference: d,
        low,
        high,
        levelled: low <= 0.0 && high >= 0.0,
    }
}

/// A ladder run as `--json` writes it: the figures of each rung, and each rung's run file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderFile {
    pub format: String,
    pub version: u32,
    pub damelab: String,
    pub variant: String,
    pub key: Key,
    /// The rungs asked for; `rungs` holds those finished (all of them unless interrupted).
    pub asked: Vec<u64>,
    pub complete: bool,
    pub rungs: Vec<Rung>,
    /// The draw rate between the last two finished rungs.
    pub levelling: Option<Levelling>,
    pub runs: Vec<RunFile>,
}

impl LadderFile {
    pub fn new(variant: &str, ladder: &Ladder, runs: Vec<RunFile>) -> LadderFile {
        let rungs: Vec<Rung> = runs
            .iter()
            .zip(&ladder.rungs)
            .map(|(f, &v)| Rung::of(v, f))
            .collect();
        let levelling = match rungs.as_slice() {
            [.., a, b] => Some(levelling(a, b)),
            _ => None,
        };
        LadderFile {
            format: FORMAT.into(),
            version: VERSION,
            damelab: crate::runs::shard::DAMELAB_VERSION.into(),
            variant: variant.into(),
            key: ladder.key,
            asked: ladder.rungs.clone(),
            complete: runs.len() == ladder.rungs.len(),
            rungs,
            levelling,
            runs,
        }
    }

    /// The report: a header, a line per rung, the endings per rung, the levelling verdict.
    pub fn text(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let k = self.key.name();
        let mut out = String::new();
        let s = self.runs.first().map(|r| &r.settings);
        let first = self
            .runs
            .first()
            .map(|r| r.report.side_names[r.report.first_side as usize].clone())
            .unwrap_or_default();
        if let Some(s) = s {
            out.push_str(&format!(
                "{} ladder: {} {}; {} games a rung, seed {}, {} random opening plies, cap {} plies{}{}\n",
                self.variant,
                k,
                self.asked
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                s.games,
                s.seed,
                s.opening_plies,
                s.max_plies,
                match &s.eval {
                    Some(e) => format!(", {e} evaluation"),
                    None => String::new(),
                },
                self.runs.first().map_or_else(String::new, |r| shards_part(&r.shards))
            ));
        }
        let rated = self.rungs.iter().any(|r| r.rating.is_some());
        out.push_str(&format!(
            "{:<14} {:>6}  {:<22} {:<24} {:<22}{}\n",
            "rung",
            "games",
            "draws [95% CI]",
            format!("{first} score [95% CI]"),
            "length [95% CI]",
            if rated { "  Elo [95% CI]" } else { "" }
        ));
        for r in &self.rungs {
            let f = &r.first_player_score;
            let l = &r.length_mean;
            out.push_str(&format!(
                "{:<14} {:>6}  {:<22} {:<24} {:<22}{}\n",
                format!("{k}={}", r.value),
                r.games,
                format!(
                    "{} [{}–{}]",
                    pct(r.draws.rate),
                    pct(r.draws.ci95.0),
                    pct(r.draws.ci95.1)
                ),
                format!("{:.3} [{:.3}–{:.3}]", f.value, f.low, f.high),
                format!("{:.1} [{:.1}–{:.1}]", l.value, l.low, l.high),
                match &r.rating {
                    Some(g) => format!(
                        "  {} [{}, {}]",
                        super::strength::whole(g.elo),
                        super::strength::whole(g.elo_low),
                        super::strength::whole(g.elo_high)
                    ),
                    None => String::new(),
                }
            ));
        }
        if let Some(g) = self.rungs.iter().find_map(|r| r.rating.as_ref()) {
            out.push_str(&format!(
                "Elo: each rung against {} over {} games (pentanomial when every pair finished){}\n",
                g.reference,
                g.games,
                g.relative_to
                    .as_deref()
                    .map_or_else(String::new, |t| format!("; strength {t}"))
            ));
        }
        out.push_str("endings\n");
        for r in &self.rungs {
            let ends: Vec<String> = r
                .ends
                .iter()
                .filter(|(_, s)| s.count > 0)
                .map(|(e, s)| format!("{} {}", e.label(), pct(s.rate)))
                .collect();
            out.push_str(&format!(
                "  {:<12} {}\n",
                format!("{k}={}", r.value),
                ends.join(", ")
            ));
        }
        if self.rungs.iter().any(|r| r.tables_decided.is_some()) {
            out.push_str("decided by the endgame tables\n");
            for r in &self.rungs {
                if let Some(t) = &r.tables_decided {
                    out.push_str(&format!(
                        "  {:<12} {} of {} games ({})\n",
                        format!("{k}={}", r.value),
                        t.count,
                        r.games,
                        pct(t.rate)
                    ));
                }
            }
        }
        if let Some(l) = &self.levelling {
            out.push_str(&format!(
                "draw rate {k}={} to {k}={}: {:+.1} points, 95% CI [{:+.1}, {:+.1}]: {}\n",
                l.from,
                l.to,
                100.0 * l.difference,
                100.0 * l.low,
                100.0 * l.high,
                if l.levelled {
                    "levelled off at these numbers of games (the interval holds zero)"
                } else if l.difference > 0.0 {
                    "still rising (the interval excludes zero)"
                } else {
                    "still falling (the interval excludes zero)"
                }
            ));
        }
        if !self.complete {
            out.push_str(&format!(
                "(interrupted: {} of {} rungs finished)\n",
                self.rungs.len(),
                self.asked.len()
            ));
        }
        out
    }
}

/// The header's words on the shards a ladder file holds: none for a whole ladder.
fn shards_part(s: &ShardSet) -> String {
    if s.is_whole() {
        String::new()
    } else if s.held.len() == 1 {
        format!(", shard {}/{}", s.held[0], s.count)
    } else {
        format!(", {s} (partial)")
    }
}

/// Read a ladder file (`--ladder --json`): every rung's run file checked as `selfplay merge`
/// checks one, and the figures computed again from them.
pub fn read(path: &Path, text: &str) -> Result<LadderFile, Diag> {
    let name = path.display();
    let help = "give the JSON files written by `selfplay --ladder --json`";
    let f: LadderFile = serde_json::from_str(text)
        .map_err(|e| bad(format!("`{name}` is not a valid ladder file: {e}"), help))?;
    if f.format != FORMAT || f.version != VERSION {
        return Err(bad(
            format!(
                "`{name}` is not a ladder file of version {VERSION} (format `{}`, version {})",
                f.format, f.version
            ),
            help,
        ));
    }
    let ladder = Ladder {
        key: f.key,
        rungs: f.asked.clone(),
    };
    let sound = f.runs.len() <= f.asked.len()
        && f.runs.iter().zip(&f.asked).all(|(r, &v)| {
            r.settings.variant == f.variant
                && match f.key {
                    Key::Nodes => r.settings.nodes == Some(v),
                    Key::Depth => r.settings.depth == Some(v as u32),
                }
        });
    if !sound {
        return Err(bad(
            format!("`{name}` is not a sound ladder file: its runs are not its rungs"),
            help,
        ));
    }
    let mut runs = Vec::with_capacity(f.runs.len());
    for (i, r) in f.runs.iter().enumerate() {
        let text = serde_json::to_string(r).map_err(|e| bad(e.to_string(), help))?;
        let shown = Path::new(&format!("{name} rung {}", i + 1)).to_path_buf();
        runs.push(super::file::parse_run(&shown, &text)?);
    }
    Ok(LadderFile::new(&f.variant, &ladder, runs))
}

/// Whether the shard `shard` plays rung `i`'s rating match (`i` from 0): every rung's match is
/// played by one shard, in turn (rung 1's by shard 1, rung 2's by shard 2, …), so that the
/// rating games are shared out too; a whole ladder plays them all.
pub fn rates(i: usize, shard: Option<crate::runs::shard::Shard>) -> bool {
    shard.is_none_or(|s| i as u64 % s.n + 1 == s.k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladders_parse() {
        assert_eq!(
            parse(DEFAULT_LADDER),
            Ok(Ladder {
                key: Key::Nodes,
                rungs: vec![1000, 10_000, 100_000]
            })
        );
        assert_eq!(
            parse(" depth = 2, 4,6 ").map(|l| l.rungs),
            Ok(vec![2, 4, 6])
        );
        assert_eq!(
            parse("nodes=1_000,10_000").map(|l| l.rungs),
            Ok(vec![1000, 10_000])
        );
        assert!(parse("nodes")
            .unwrap_err()
            .to_string()
            .contains("is not a ladder"));
    }

    fn rung(draws: u64, games: u64) -> Rung {
        Rung {
            value: games,
            games,
            draws: share(draws, games),
            first_player_score: mean_interval(&[]),
            length_mean: mean_interval(&[]),
            ends: Vec::new(),
            rating: None,
            tables_decided: None,
        }
    }

    #[test]
    fn levelling_reads_the_interval_of_the_difference() {
        // 20% against 21% of 1000 games each: no change to tell.
        let l = levelling(&rung(200, 1000), &rung(210, 1000));
        assert!((l.difference - 0.01).abs() < 1e-12);
        assert!(l.levelled && l.low < 0.0 && l.high > 0.0, "{l:?}");
        // 5% against 26%: rising.
        let l = levelling(&rung(5, 100), &rung(26, 100));
        assert!(!l.levelled && l.low > 0.0, "{l:?}");
        // Newcombe's interval for 5/100 against 26/100 (hybrid score, from the Wilson intervals
        // [0.0215, 0.1118] and [0.1840, 0.3536]): [0.112, 0.308].
        assert!(
            (l.low - 0.112).abs() < 0.002 && (l.high - 0.308).abs() < 0.002,
            "{l:?}"
        );
    }

    #[test]
    fn means_and_their_intervals() {
        let i = mean_interval(&[1.0, 0.0, 0.5, 0.5]);
        assert!((i.value - 0.5).abs() < 1e-12);
        // sd sqrt(1/6), n 4: half-width 1.96 * 0.2041.
        assert!((i.high - 0.5 - Z95 * (1.0f64 / 6.0).sqrt() / 2.0).abs() < 1e-12);
    }
}
