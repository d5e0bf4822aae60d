//! Robust statistics (`selfplay --configs`): the same games (the same seeds and openings) played
//! with several engine configurations, each figure given per configuration with its 95% interval
//! and as a range, and flagged *engine-dependent* when two configurations' intervals do not meet:
//! such a figure says more about the engine than about the game.

use super::{GameRecord, Report};
use crate::engine::Rules;
use serde::{Deserialize, Serialize};

pub const FORMAT: &str = "damelab-configs";
pub const VERSION: u32 = 1;

/// One figure under one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    pub config: String,
    pub value: f64,
    pub ci95: (f64, f64),
}

/// A figure across the configurations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub name: String,
    pub values: Vec<Value>,
    /// The lowest and highest value over the configurations.
    pub range: (f64, f64),
    /// Two configurations' intervals do not meet.
    pub engine_dependent: bool,
}

impl Figure {
    /// A figure of its values: their range, and the flag when two intervals do not meet.
    pub fn of(name: &str, values: Vec<Value>) -> Figure {
        let lo = values.iter().map(|v| v.value).fold(f64::INFINITY, f64::min);
        let hi = values
            .iter()
            .map(|v| v.value)
            .fold(f64::NEG_INFINITY, f64::max);
        let top_low = values
            .iter()
            .map(|v| v.ci95.0)
            .fold(f64::NEG_INFINITY, f64::max);
        let low_high = values
            .iter()
            .map(|v| v.ci95.1)
            .fold(f64::INFINITY, f64::min);
        Figure {
            name: name.to_string(),
            range: (lo, hi),
            engine_dependent: top_low > low_high,
            values,
        }
    }
}

/// One configuration's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigRun {
    pub config: String,
    pub settings: super::Settings,
    pub report: Report,
}

/// `selfplay --configs --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigsFile {
    pub format: String,
    pub version: u32,
    pub damelab: String,
    pub runs: Vec<ConfigRun>,
    pub figures: Vec<Figure>,
}

const Z95: f64 = 1.959_963_984_540_054;

/// A mean of per-game values with its normal 95% interval.
fn mean_ci(xs: &[f64]) -> (f64, (f64, f64)) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, (0.0, 0.0));
    }
    let m = xs.iter().sum::<f64>() / n;
    let half = if xs.len() < 2 {
        0.0
    } else {
        let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
        Z95 * (var / n).sqrt()
    };
    (m, (m - half, m + half))
}

/// The figures of the configurations' games (`runs`: label and records, the same game indices).
pub fn figures(rules: &Rules, runs: &[(String, &[GameRecord])]) -> Vec<Figure> {
    let first = rules.spec.first_to_move as i8;
    type PerGame = fn(i8, &GameRecord) -> f64;
    let per_game: [(&str, PerGame); 4] = [
        ("draw rate", |_, g| (g.w == -1) as u8 as f64),
        ("first-player score", |f, g| match g.w {
            -1 => 0.5,
            w if w == f => 1.0,
            _ => 0.0,
        }),
        ("game length", |_, g| g.plies as f64),
        ("shuffling draws", |_, g| g.shuffle as u8 as f64),
    ];
    per_game
        .iter()
        .map(|(name, f)| {
            let values: Vec<Value> = runs
                .iter()
                .map(|(label, games)| {
                    let (value, ci95) = if *name == "draw rate" || *name == "shuffling draws" {
                        let k = games.iter().filter(|g| f(first, g) > 0.5).count() as u64;
                        let n = games.len() as u64;
                        (
                            if n == 0 { 0.0 } else { k as f64 / n as f64 },
                            super::wilson(k, n),
                        )
                    } else {
                        let xs: Vec<f64> = games.iter().map(|g| f(first, g)).collect();
                        mean_ci(&xs)
                    };
                    Value {
                        config: label.clone(),
                        value,
                        ci95,
                    }
                })
                .collect();
            Figure::of(name, values)
        })
        .collect()
}

/// The figures as text: a line a figure and configuration, the range and the flag.
pub fn text(figures: &[Figure]) -> String {
    let mut out = String::new();
    for f in figures {
        let pct = f.name != "game length";
        let show = |x: f64| {
            if pct {
                format!("{:.1}%", 100.0 * x)
            } else {
                format!("{x:.1}")
            }
        };
        let show = |x: f64| {
            if f.name == "first-player score" {
                format!("{x:.3}")
            } else {
                show(x)
            }
        };
        out.push_str(&format!(
            "{:<20} range {} – {}{}\n",
            f.name,
            show(f.range.0),
            show(f.range.1),
            if f.engine_dependent {
                "  ENGINE-DEPENDENT (the configurations' intervals do not meet)"
            } else {
                "  (the configurations agree within their intervals)"
            }
        ));
        for v in &f.values {
            out.push_str(&format!(
                "  {:<36} {:>8}  [{} – {}]\n",
                v.config,
                show(v.value),
                show(v.ci95.0),
                show(v.ci95.1)
            ));
        }
    }
    out
}
