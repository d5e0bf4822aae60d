//! `damelab explore BASE.rules`: a space of rules around a base. Each `--vary` names a clause of
//! the base and alternative words for it (`captures: priority most pieces | free`); exactly one
//! of the words must stand in the base's clause, and every combination of the words is built as
//! text, the base's word replaced. Each combination is checked (an illegal one is reported with
//! its diagnostic and not played); the legal ones play the same games (seeds, random openings,
//! engine configurations) as `compare` plays a side ([`super::compare::play_side`]), and their
//! figures are ranked.

use super::compare::{play_side, SideGame};
use super::{game_seed, report::wilson, Settings, TT_MIB};
use crate::matchplay::openings;
use crate::runs::shard::ShardSet;
use crate::search::weights::Weights;
use crate::search::Searcher;
use crate::{Rules, Variant};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub const FORMAT: &str = "damelab-explore";
pub const VERSION: u32 = 1;
/// The most combinations an exploration may build.
pub const MAX_EXPLORE_VARIANTS: usize = 4096;

/// A space that cannot be explored: why, before any game.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExploreError {
    #[error("`--vary {0}` is not `CLAUSE: WORDS | WORDS …`")]
    #[diagnostic(help(
        "e.g. --vary 'captures: priority most pieces | free' (two words at least)"
    ))]
    BadVary(String),
    #[error("the base has no `{clause}` clause (a line starting with `{clause}`)")]
    #[diagnostic(help("vary a clause the base file has, named as its line starts"))]
    NoClause { clause: String },
    #[error("the base's `{clause}` clause holds none of {words}")]
    #[diagnostic(help("the first word to vary must be the base's own, as the clause writes it"))]
    NoWord { clause: String, words: String },
    #[error("the base's `{clause}` clause holds more than one of {words}")]
    #[diagnostic(help("give words of which exactly one stands in the base's clause, once"))]
    AmbiguousWord { clause: String, words: String },
    #[error("two --vary change the same text of the `{clause}` clause")]
    #[diagnostic(help("vary each part of a clause once"))]
    Overlap { clause: String },
    #[error("the space has {count} combinations, more than --max-variants {max}")]
    #[diagnostic(help("vary fewer words, or raise --max-variants (at most 4096)"))]
    TooLarge { count: u128, max: usize },
}

/// One clause varied: its name and its words (the base's among them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vary {
    pub clause: String,
    pub words: Vec<String>,
}

/// Read `CLAUSE: W1 | W2 …` (or `CLAUSE W1 | W2 …` for a clause without a colon, `board 8x8 |
/// 10x10`).
pub fn parse_vary(text: &str) -> Result<Vary, ExploreError> {
    let bad = || ExploreError::BadVary(text.to_string());
    let t = text.trim();
    let (clause, rest) = match t.split_once(':') {
        Some((c, r)) if !c.trim().is_empty() && !c.trim().contains(char::is_whitespace) => {
            (c.trim(), r)
        }
        _ => t.split_once(char::is_whitespace).ok_or_else(bad)?,
    };
    let words: Vec<String> = rest
        .split('|')
        .map(|w| w.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    if words.len() < 2 || words.iter().any(String::is_empty) {
        return Err(bad());
    }
    Ok(Vary {
        clause: clause.to_string(),
        words,
    })
}

/// Where a vary's base word stands in the base text: its byte range and which word it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub start: usize,
    pub end: usize,
    pub word: usize,
}

/// Find the base's word of `v` in its clause: the clause's first line starts with the clause's
/// name (then a colon or a space); its following indented lines continue it. Comments are not
/// looked in.
pub fn locate(base: &str, v: &Vary) -> Result<Site, ExploreError> {
    let mut at = 0usize;
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut inside = false;
    for line in base.split_inclusive('\n') {
        let starts =
            line.starts_with(&v.clause) && line[v.clause.len()..].starts_with([':', ' ', '\t']);
        let continues = inside && line.starts_with([' ', '\t']) && !line.trim().is_empty();
        if starts || continues {
            inside = true;
            let code = line.find('#').unwrap_or(line.len());
            let from = if starts { v.clause.len() } else { 0 };
            ranges.push((at + from, at + code));
        } else if inside {
            break;
        }
        at += line.len();
    }
    if ranges.is_empty() {
        return Err(ExploreError::NoClause {
            clause: v.clause.clone(),
        });
    }
    let mut found: Vec<Site> = Vec::new();
    for (wi, w) in v.words.iter().enumerate() {
        for &(s, e) in &ranges {
            let text = &base[s..e];
            let mut from = 0;
            while let Some(k) = text[from..].find(w.as_str()) {
                let (a, b) = (from + k, from + k + w.len());
                let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_');
                if edge(text[..a].chars().next_back()) && edge(text[b..].chars().next()) {
                    found.push(Site {
                        start: s + a,
                        end: s + b,
                        word: wi,
                    });
                }
                from = b;
            }
        }
    }
    let words = v
        .words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ");
    // A word inside another found at the same place (`most` in `most pieces`) is the longer's.
    found.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
    found.dedup_by(|b, a| b.start >= a.start && b.end <= a.end);
    match found.len() {
        0 => Err(ExploreError::NoWord {
            clause: v.clause.clone(),
            words,
        }),
        1 => Ok(found.remove(0)),
        _ => Err(ExploreError::AmbiguousWord {
            clause: v.clause.clone(),
            words,
        }),
    }
}

/// One combination of the space: its words (one a vary), its name and its rules text.
#[derive(Clone, Debug)]
pub struct Combination {
    pub choice: Vec<usize>,
    pub name: String,
    pub text: String,
}

/// Every combination of the varies' words, the base's own first among them (the first of every
/// vary's words in order, the others after), refused when there are more than `max`.
pub fn space(base: &str, varies: &[Vary], max: usize) -> Result<Vec<Combination>, ExploreError> {
    let sites: Vec<Site> = varies
        .iter()
        .map(|v| locate(base, v))
        .collect::<Result<_, _>>()?;
    for (i, a) in sites.iter().enumerate() {
        for b in &sites[i + 1..] {
            if a.start < b.end && b.start < a.end {
                return Err(ExploreError::Overlap {
                    clause: varies[i].clause.clone(),
                });
            }
        }
    }
    let count: u128 = varies.iter().map(|v| v.words.len() as u128).product();
    if count > max as u128 || count > MAX_EXPLORE_VARIANTS as u128 {
        return Err(ExploreError::TooLarge { count, max });
    }
    let mut order: Vec<usize> = (0..sites.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sites[i].start));
    let mut out = Vec::with_capacity(count as usize);
    for n in 0..count as usize {
        let mut rest = n;
        let choice: Vec<usize> = varies
            .iter()
            .rev()
            .map(|v| {
                let k = rest % v.words.len();
                rest /= v.words.len();
                k
            })
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let mut text = base.to_string();
        for &i in &order {
            let w = &varies[i].words[choice[i]];
            text.replace_range(sites[i].start..sites[i].end, w);
        }
        let name = varies
            .iter()
            .zip(&choice)
            .map(|(v, &k)| format!("{}={}", v.clause, v.words[k]))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(Combination { choice, name, text });
    }
    Ok(out)
}

/// One engine configuration of an exploration: its label and search limits and evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineConfig {
    pub label: String,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// `derived`, `bundled` or a weights file (as `--eval`).
    pub eval: String,
}

/// What an exploration plays: everything that decides its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreSettings {
    pub base: String,
    pub base_fingerprint: String,
    pub varies: Vec<Vary>,
    pub games: u64,
    pub seed: u64,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub configs: Vec<EngineConfig>,
    /// The side that moves first in the base (the first player's score is that side's).
    pub first_side: i8,
}

/// One combination's outcome: its name, its rules' fingerprint, and either the checker's
/// diagnostic or its games (one list a configuration, in game order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explored {
    pub name: String,
    pub choice: Vec<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    #[serde(default)]
    pub games: Vec<Vec<SideGame>>,
}

/// An exploration (or a shard of one, or a merge) as `--json` writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreFile {
    pub format: String,
    pub version: u32,
    pub damelab: String,
    pub settings: ExploreSettings,
    pub shards: ShardSet,
    pub variants: Vec<Explored>,
    /// The ranked table (recomputed from the games whenever the file is written).
    #[serde(default)]
    pub table: Vec<Row>,
}

/// A figure with its 95% interval, per configuration, and whether the configurations'
/// intervals fail to meet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub value: f64,
    pub ci95: (f64, f64),
    /// The value under each configuration (the first is `value`).
    pub per_config: Vec<f64>,
    pub engine_dependent: bool,
}

/// The metrics, in the table's order.
pub const METRICS: [&str; 5] = ["balance", "draws", "decisiveness", "length", "drama"];

/// A combination's figures: balance (|first player's score − ½|), draw rate, decisiveness (the
/// share of games the side ahead in material at mid-game won), mean length in plies, drama
/// (mean lead changes a game).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    pub games: u64,
    pub figures: Vec<Figure>,
}

fn mean_ci(xs: &[f64]) -> (f64, (f64, f64)) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, (0.0, 0.0));
    }
    let m = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let h = 1.959_964 * (var / n).sqrt();
    // Every figure so measured is a count or a length: never below 0.
    (m, ((m - h).max(0.0), m + h))
}

/// The five figures of one configuration's games, each with its interval.
fn figures_of(first: i8, games: &[SideGame]) -> [(f64, (f64, f64)); 5] {
    let n = games.len() as u64;
    let scores: Vec<f64> = games
        .iter()
        .map(|g| match g.record.w {
            -1 => 0.5,
            w if w == first => 1.0,
            _ => 0.0,
        })
        .collect();
    let (s, (lo, hi)) = mean_ci(&scores);
    let balance = (s - 0.5).abs();
    let bci = if lo <= 0.5 && hi >= 0.5 {
        (0.0, (lo - 0.5).abs().max((hi - 0.5).abs()))
    } else {
        let (a, b) = ((lo - 0.5).abs(), (hi - 0.5).abs());
        (a.min(b), a.max(b))
    };
    let draws = games.iter().filter(|g| g.record.w == -1).count() as u64;
    let decided = games.iter().filter(|g| g.mid_leader_won).count() as u64;
    let rate = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let lengths: Vec<f64> = games.iter().map(|g| g.record.plies as f64).collect();
    let drama: Vec<f64> = games.iter().map(|g| g.lead_changes as f64).collect();
    let (lm, lci) = mean_ci(&lengths);
    let (dm, dci) = mean_ci(&drama);
    [
        (balance, bci),
        (rate(draws), wilson(draws, n)),
        (rate(decided), wilson(decided, n)),
        (lm, lci),
        (dm, dci),
    ]
}

/// The ranked table: the legal combinations with games, by `rank_by` (an index into
/// [`METRICS`]; balance and draws rank lowest first, the others highest first), each figure
/// under the first configuration with its interval and its spread over the configurations.
pub fn table(f: &ExploreFile, rank_by: usize) -> Vec<Row> {
    let first = f.settings.first_side;
    let mut rows: Vec<Row> = f
        .variants
        .iter()
        .filter(|v| v.illegal.is_none() && v.games.first().is_some_and(|g| !g.is_empty()))
        .map(|v| {
            let per: Vec<[(f64, (f64, f64)); 5]> =
                v.games.iter().map(|g| figures_of(first, g)).collect();
            let figures = (0..5)
                .map(|m| {
                    let lo = per.iter().map(|p| p[m].1 .0).fold(f64::MIN, f64::max);
                    let hi = per.iter().map(|p| p[m].1 .1).fold(f64::MAX, f64::min);
                    Figure {
                        value: per[0][m].0,
                        ci95: per[0][m].1,
                        per_config: per.iter().map(|p| p[m].0).collect(),
                        engine_dependent: per.len() > 1 && lo > hi,
                    }
                })
                .collect();
            Row {
                name: v.name.clone(),
                games: v.games[0].len() as u64,
                figures,
            }
        })
        .collect();
    let m = rank_by.min(4);
    let lower_first = m <= 1;
    rows.sort_by(|a, b| {
        let (x, y) = (a.figures[m].value, b.figures[m].value);
        let o = x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal);
        if lower_first {
            o
        } else {
            o.reverse()
        }
    });
    rows
}

/// The table as text: a line a combination (its figures under the first configuration, an
/// interval each, `!` after a figure the configurations disagree on), then the illegal ones.
pub fn text(f: &ExploreFile, rank_by: usize) -> String {
    let mut out = format!(
        "{:<4} {:<40} {:>5}  {:<20} {:<20} {:<20} {:<22} {:<18}\n",
        "rank", "variant", "games", "balance", "draws", "decisiveness", "length", "drama"
    );
    for (k, r) in f.table.iter().enumerate() {
        let cells: Vec<String> = r
            .figures
            .iter()
            .enumerate()
            .map(|(m, x)| {
                let mark = if x.engine_dependent { "!" } else { "" };
                match m {
                    1 | 2 => format!(
                        "{:.1}% [{:.0}–{:.0}]{mark}",
                        100.0 * x.value,
                        100.0 * x.ci95.0,
                        100.0 * x.ci95.1
                    ),
                    3 => format!("{:.1} [{:.0}–{:.0}]{mark}", x.value, x.ci95.0, x.ci95.1),
                    _ => format!("{:.3} [{:.2}–{:.2}]{mark}", x.value, x.ci95.0, x.ci95.1),
                }
            })
            .collect();
        out.push_str(&format!(
            "{:<4} {:<40} {:>5}  {:<20} {:<20} {:<20} {:<22} {:<18}\n",
            k + 1,
            r.name,
            r.games,
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4]
        ));
    }
    out.push_str(&format!(
        "ranked by {}{}\n",
        METRICS[rank_by.min(4)],
        if rank_by <= 1 {
            " (lowest first)"
        } else {
            " (highest first)"
        }
    ));
    if f.settings.configs.len() > 1 {
        out.push_str(&format!(
            "ENGINE-DEPENDENT figures are marked `!` (the intervals of the {} configurations do \
             not meet); the figures shown are those of `{}`\n",
            f.settings.configs.len(),
            f.settings.configs[0].label
        ));
    }
    for v in f.variants.iter().filter(|v| v.illegal.is_some()) {
        out.push_str(&format!(
            "illegal  {}: {}\n",
            v.name,
            v.illegal.as_deref().unwrap_or("")
        ));
    }
    out
}

/// Play `indices` of one combination under one configuration on `threads` threads, in index
/// order; `None` when interrupted.
pub fn play(
    rules: &Arc<Rules>,
    settings: &Settings,
    weights: Option<Arc<Weights>>,
    indices: &[u64],
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Option<Vec<SideGame>>, crate::runs::ThreadsError> {
    use rayon::prelude::*;
    let pool = crate::runs::pool(threads)?;
    let games: Vec<Option<SideGame>> = pool.install(|| {
        indices
            .par_iter()
            .map_init(
                || {
                    let mut e = Searcher::new(rules.clone(), TT_MIB);
                    e.set_tuned_weights(weights.clone());
                    e
                },
                |e, &i| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    let seed = game_seed(settings.seed, i);
                    let open = openings::random(rules, seed, i, settings.opening_plies).moves;
                    let g = play_side(rules, settings, e, &open, i, false);
                    progress();
                    Some(g)
                },
            )
            .collect()
    });
    if games.iter().any(Option::is_none) || crate::interrupt::requested() {
        return Ok(None);
    }
    Ok(Some(games.into_iter().flatten().collect()))
}

/// The self-play settings of a combination under a configuration (the games' seeds, openings
/// and cap are the exploration's).
pub fn run_settings(
    v: &Variant,
    s: &ExploreSettings,
    c: &EngineConfig,
    eval: Option<String>,
) -> Settings {
    Settings {
        variant: v.name().to_string(),
        rules_fingerprint: v.rules.fingerprint(),
        games: s.games,
        depth: c.depth,
        nodes: c.nodes,
        random: false,
        seed: s.seed,
        max_plies: s.max_plies,
        opening_plies: s.opening_plies,
        eval,
        tables: None,
        contempt: 0,
        openings: None,
    }
}
