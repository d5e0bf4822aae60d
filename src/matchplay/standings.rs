//! The standings of a match: each pairing's tally (wins, draws, losses, and the pairs of games
//! with colours reversed), its Elo estimate with its interval, the SPRT's log-likelihood ratio
//! and verdict, and their text.

use super::engine::EngineSpec;
use super::stats::{Estimate, Sprt, Tally, Verdict};
use super::{pairings, GameRecord};
use serde::{Deserialize, Serialize};

/// One pairing's figures, from its first engine's side.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Standing {
    pub engine: String,
    pub opponent: String,
    pub tally: Tally,
    pub estimate: Estimate,
    pub llr: Option<f64>,
    pub llr_bounds: Option<(f64, f64)>,
    pub verdict: Option<Verdict>,
}

/// The figures of every pairing from the games so far.
pub fn standings(
    engines: &[EngineSpec],
    games: &[GameRecord],
    sprt: Option<&Sprt>,
) -> Vec<Standing> {
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    standings_of(&names, games, sprt)
}

/// [`standings`] of engines named `names`.
pub fn standings_of(names: &[String], games: &[GameRecord], sprt: Option<&Sprt>) -> Vec<Standing> {
    let mut out = Vec::new();
    for (p, (a, b)) in pairings(names.len()).into_iter().enumerate() {
        let mine: Vec<&GameRecord> = games.iter().filter(|g| g.pairing == p).collect();
        let mut t = Tally::default();
        for g in &mine {
            match g.winner.map(|w| g.engines[w] == a) {
                Some(true) => t.wins += 1,
                Some(false) => t.losses += 1,
                None => t.draws += 1,
            }
        }
        // Pairs: games 2k and 2k+1 of the pairing, both finished.
        let mut first: std::collections::HashMap<u64, f64> = std::collections::HashMap::new();
        for g in mine.iter().filter(|g| g.round.is_multiple_of(2)) {
            first.insert(g.round, g.points_of(a));
        }
        for h in mine.iter().filter(|g| !g.round.is_multiple_of(2)) {
            if let Some(p) = first.get(&(h.round - 1)) {
                t.pairs[((p + h.points_of(a)) * 2.0).round() as usize] += 1;
            }
        }
        let llr = sprt.map(|s| s.llr(&t));
        out.push(Standing {
            engine: names[a].clone(),
            opponent: names[b].clone(),
            estimate: t.estimate(),
            tally: t,
            llr,
            llr_bounds: sprt.map(|s| s.bounds()),
            verdict: sprt.zip(llr).map(|(s, l)| s.verdict(l)),
        });
    }
    out
}

fn elo_text(e: &Estimate) -> String {
    let f = |x: f64| {
        // No `-0.0`.
        let x = if x == 0.0 { 0.0 } else { x };
        if x.is_finite() {
            format!("{x:+.1}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    format!("{} [{}, {}]", f(e.elo), f(e.elo_low), f(e.elo_high))
}

/// The standings as text: a line per pairing, then the SPRT.
pub fn standings_text(st: &[Standing]) -> String {
    let mut out = String::new();
    for s in st {
        let t = &s.tally;
        out.push_str(&format!(
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}/{} ({:.1}%), Elo {} (95%, {}",
            s.engine,
            s.opponent,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.wins as f64 + t.draws as f64 / 2.0,
            t.games(),
            100.0 * s.estimate.score,
            elo_text(&s.estimate),
            s.estimate.model
        ));
        if s.estimate.model == "pentanomial" {
            let p = t.pairs;
            out.push_str(&format!(
                " over {} pairs: {} {} {} {} {}",
                p.iter().sum::<u64>(),
                p[0],
                p[1],
                p[2],
                p[3],
                p[4]
            ));
        }
        out.push_str(")\n");
        if let (Some(llr), Some((lo, hi)), Some(v)) = (s.llr, s.llr_bounds, s.verdict) {
            let verdict = match v {
                Verdict::H1 => "H1 accepted",
                Verdict::H0 => "H0 accepted",
                Verdict::Continue => "no decision yet",
            };
            out.push_str(&format!(
                "SPRT: LLR {llr:.2} (bounds {lo:.2}, {hi:.2}): {verdict}\n"
            ));
        }
    }
    out
}
