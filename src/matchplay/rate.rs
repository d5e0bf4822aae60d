//! The strength of one setting of damelab's engine, as the Elo it scores in a match against a
//! fixed reference setting of the same engine (`selfplay --rate-against`): the match machinery of
//! [`super`] used as a library — seeded random openings, each played with both colours, the
//! pentanomial interval.

use super::engine::EngineSpec;
use super::{jobs, run, Config, Control, Finish};
use crate::Rules;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// What to rate against: the reference engine's settings (as `match --engine` takes them) and the
/// number of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateRequest {
    pub reference: String,
    pub games: u64,
}

/// A setting's Elo against the reference, from its side, with the 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rated setting and the reference, as the match describes engines.
    pub setting: String,
    pub reference: String,
    pub games: u64,
    pub seed: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    #[serde(with = "elo_serde")]
    pub elo: f64,
    #[serde(with = "elo_serde")]
    pub elo_low: f64,
    #[serde(with = "elo_serde")]
    pub elo_high: f64,
    /// `pentanomial` (over pairs of games) or `trinomial`.
    pub model: String,
    /// What the strength is relative to, in words: `damelab's own engine at nodes=50`, or an
    /// external Hub engine's name and command (absent in files written before it was said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_to: Option<String>,
}

impl Rating {
    /// `+52.1 [+10.3, +95.0] against nodes=500 hash=4 (100 games, pentanomial)`.
    pub fn text(&self) -> String {
        format!(
            "Elo {} [{}, {}] against {} ({} games, +{} ={} -{}, {})",
            elo(self.elo),
            elo(self.elo_low),
            elo(self.elo_high),
            self.reference,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.model
        )
    }
}

/// An Elo difference with its sign, `+inf`/`-inf` for a score of 100% or 0%.
pub fn elo(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x };
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// Infinite Elo bounds as the strings `+inf` and `-inf` (JSON has no infinity).
mod elo_serde {
    use super::*;

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_finite() {
            s.serialize_f64(*x)
        } else {
            s.serialize_str(if *x > 0.0 { "+inf" } else { "-inf" })
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Num {
            N(f64),
            S(String),
        }
        match Num::deserialize(d)? {
            Num::N(x) => Ok(x),
            Num::S(s) if s == "+inf" => Ok(f64::INFINITY),
            Num::S(s) if s == "-inf" => Ok(f64::NEG_INFINITY),
            Num::S(s) => Err(serde::de::Error::custom(format!(
                "`{s}` is not an Elo difference"
            ))),
        }
    }
}

/// What a rating match plays beside its two engines.
pub struct RateSetup<'a> {
    pub variant: &'a str,
    pub rules: &'a Arc<Rules>,
    pub games: u64,
    pub seed: u64,
    /// Random plies of each opening (each opening played with both colours).
    pub random_plies: u32,
    pub max_plies: u32,
    pub concurrency: usize,
}

/// Play `subject` against `reference` and give the subject's Elo; `progress` is told of each
/// finished game. `None` when interrupted (Ctrl-C).
pub fn rate(
    setup: &RateSetup,
    subject: EngineSpec,
    reference: EngineSpec,
    progress: &mut dyn FnMut(),
) -> Option<Rating> {
    let (setting, against) = (subject.describe(), reference.describe());
    let cfg = Config {
        variant: setup.variant.to_string(),
        hub_variant: setup.variant.to_string(),
        rules: setup.rules.clone(),
        engines: vec![subject, reference],
        games: setup.games,
        openings: Vec::new(),
        random_plies: setup.random_plies,
        balance: None,
        seed: setup.seed,
        max_plies: setup.max_plies,
        tables: None,
        adjudicate: None,
        concurrency: setup
            .concurrency
            .clamp(1, crate::limits::MAX_MATCH_CONCURRENCY),
    };
    let mut games = Vec::new();
    let finish = run(&cfg, &jobs(&cfg), &mut |g| {
        games.push(g.clone());
        progress();
        Control::Continue
    });
    if finish == Finish::Interrupted {
        return None;
    }
    let st = super::standings::standings(&cfg.engines, &games, None);
    let s = st.first()?;
    Some(Rating {
        setting,
        reference: against,
        games: s.tally.games(),
        seed: setup.seed,
        wins: s.tally.wins,
        draws: s.tally.draws,
        losses: s.tally.losses,
        score: s.estimate.score,
        elo: s.estimate.elo,
        elo_low: s.estimate.elo_low,
        elo_high: s.estimate.elo_high,
        model: s.estimate.model.clone(),
        relative_to: None,
    })
}
