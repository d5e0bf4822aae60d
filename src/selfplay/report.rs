//! The figures of a run, from its game records: results with Wilson intervals, lengths, draws.

use super::*;

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
