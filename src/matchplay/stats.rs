//! Match statistics: Elo from a score, its 95% interval (trinomial over games, pentanomial over
//! game pairs played with colours reversed), and the sequential probability ratio test (the
//! generalized SPRT on the expected score, as fishtest computes it: the log-likelihood ratio of
//! the maximum-likelihood distributions with the two hypothesised expectations).

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of a player `elo` logistic Elo stronger than its opponent.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference that an expected score `score` means (±infinity at 1 and 0).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Results from one player's side: wins, draws, losses, and the pairs of games (same opening,
/// colours reversed) by their total: `[0, ½, 1, 1½, 2]` points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs scoring 0, ½, 1, 1½ and 2 points (LL, LD, DD or WL, WD, WW).
    pub pairs: [u64; 5],
}

/// What the figures of a [`Tally`] say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub games: u64,
    /// Points per game (win 1, draw ½).
    pub score: f64,
    pub elo: f64,
    /// The 95% interval of the Elo difference.
    pub elo_low: f64,
    pub elo_high: f64,
    /// `pentanomial` (over game pairs) or `trinomial` (over games).
    pub model: String,
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, ½ when no game was played.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// Whether every game belongs to a finished pair: then the pentanomial model applies.
    pub fn all_paired(&self) -> bool {
        let pairs: u64 = self.pairs.iter().sum();
        pairs > 0 && 2 * pairs == self.games()
    }

    /// The empirical distribution the statistics use: per game (`[L, D, W]`) or per pair
    /// (`[LL, LD, DD+WL, WD, WW]`), as counts.
    pub fn counts(&self) -> Vec<u64> {
        if self.all_paired() {
            self.pairs.to_vec()
        } else {
            vec![self.losses, self.draws, self.wins]
        }
    }

    /// Score, Elo and its 95% interval.
    pub fn estimate(&self) -> Estimate {
        let counts = self.counts();
        let (n, mean, var) = moments(&counts);
        let half = if n > 0.0 { Z95 * (var / n).sqrt() } else { 1.0 };
        Estimate {
            games: self.games(),
            score: self.score(),
            elo: elo_of_score(mean),
            elo_low: elo_of_score(mean - half),
            elo_high: elo_of_score(mean + half),
            model: if counts.len() == 5 {
                "pentanomial".into()
            } else {
                "trinomial".into()
            },
        }
    }
}

/// Number of samples, mean score and variance of a distribution given as counts over the
/// equally spaced scores `0, 1/(k-1), …, 1`.
fn moments(counts: &[u64]) -> (f64, f64, f64) {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return (0.0, 0.5, 0.0);
    }
    let k = (counts.len() - 1) as f64;
    let n = n as f64;
    let mean: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| i as f64 / k * c as f64)
        .sum::<f64>()
        / n;
    let var: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / k - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// An SPRT of `elo0` against `elo1` (logistic Elo) with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The LLR reached the upper bound: H1 (`elo1`) is accepted.
    H1,
    /// The LLR reached the lower bound: H0 (`elo0`) is accepted.
    H0,
    Continue,
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of the results (pentanomial when every game is in a
    /// finished pair, else trinomial).
    pub fn llr(&self, t: &Tally) -> f64 {
        llr_logistic(self.elo0, self.elo1, &t.counts())
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The GSPRT log-likelihood ratio for the expected score `score_of_elo(elo1)` against
/// `score_of_elo(elo0)`, for results given as counts over equally spaced scores (3: L, D, W; 5:
/// game pairs). Empty cells get a small weight (1e-3), as fishtest does, so the maximum-likelihood
/// distributions exist.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    if n == 0 || counts.len() < 2 {
        return 0.0;
    }
    let reg: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = reg.iter().sum();
    let k = (reg.len() - 1) as f64;
    let pdf: Vec<(f64, f64)> = reg
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / k, c / total))
        .collect();
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    let (Some(p0), Some(p1)) = (mle_with_mean(&pdf, s0), mle_with_mean(&pdf, s1)) else {
        return 0.0;
    };
    let per: f64 = pdf
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|((_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum();
    total * per
}

/// The distribution closest in likelihood to `pdf` (pairs of score and probability) whose
/// expectation is `s`: `p_i / (1 + x (a_i - s))` with `x` the root of
/// `Σ p_i (a_i - s) / (1 + x (a_i - s)) = 0`, found by bisection (the sum falls as `x` grows).
fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let lo_a = pdf.iter().map(|(a, _)| a - s).fold(f64::INFINITY, f64::min);
    let hi_a = pdf
        .iter()
        .map(|(a, _)| a - s)
        .fold(f64::NEG_INFINITY, f64::max);
    if lo_a >= 0.0 || hi_a <= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 {
        pdf.iter()
            .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / hi_a + eps, -1.0 / lo_a - eps);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = (lo + hi) / 2.0;
    Some(pdf.iter().map(|(a, p)| p / (1.0 + x * (a - s))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_of_score(0.6) - 70.437).abs() < 0.01);
        assert!((elo_of_score(0.5)).abs() < 1e-12);
        assert!((elo_of_score(0.75) - 190.849).abs() < 0.01);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
    }

    /// Figures from an independent transcription of fishtest's `LLR_logistic` (the MLE found by
    /// bisection to 300 steps, in Python).
    #[test]
    fn llr_matches_fishtest() {
        let cases: [(f64, f64, &[u64], f64); 3] = [
            (0.0, 10.0, &[10, 40, 120, 50, 20], 1.536_779_891),
            (0.0, 10.0, &[5, 30, 40], 1.639_431_185),
            (0.0, 5.0, &[0, 10, 50, 12, 3], 0.480_659_590),
        ];
        for (e0, e1, counts, want) in cases {
            let got = llr_logistic(e0, e1, counts);
            assert!((got - want).abs() < 1e-6, "{counts:?}: {got} != {want}");
        }
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
    }

    #[test]
    fn intervals_of_known_tallies() {
        // 60 wins, 20 draws, 20 losses: score 0.7, trinomial.
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            pairs: [0; 5],
        };
        let e = t.estimate();
        assert_eq!(e.model, "trinomial");
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!((e.elo - 147.2).abs() < 0.1);
        // sd of a game 0.4 (variance 0.16): half-width 1.96 * 0.04.
        let half = Z95 * 0.04;
        assert!((e.elo_low - elo_of_score(0.7 - half)).abs() < 1e-9);
        assert!((e.elo_high - elo_of_score(0.7 + half)).abs() < 1e-9);
        // The same games as 50 pairs: pentanomial.
        let p = Tally {
            pairs: [5, 5, 10, 10, 20],
            ..t
        };
        assert!(p.all_paired());
        assert_eq!(p.estimate().model, "pentanomial");
    }

    #[test]
    fn mle_keeps_the_mean() {
        let pdf = [(0.0, 0.2), (0.5, 0.5), (1.0, 0.3)];
        let p = mle_with_mean(&pdf, 0.52).unwrap();
        let mean: f64 = pdf.iter().zip(&p).map(|((a, _), q)| a * q).sum();
        let sum: f64 = p.iter().sum();
        assert!((mean - 0.52).abs() < 1e-9 && (sum - 1.0).abs() < 1e-9);
    }
}
