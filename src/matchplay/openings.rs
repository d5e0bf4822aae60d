//! The openings of a match: read from a file (one FEN a line, or the games of a PDN file, their
//! moves played out), or made of seeded random plies from the start position. Each is played twice,
//! colours reversed.

use crate::engine::{GenOptions, Move, Position};
use crate::notation::parse_fen;
use crate::search::weights::Weights;
use crate::search::{Limits, Score, Searcher};
use crate::{Game, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// Where a match's games start: a position and the moves played from it (the opening moves are
/// part of the game record; the engines play on from their end).
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The game as it stands after the opening.
    pub fn game(&self, rules: &Arc<Rules>) -> Game {
        let mut g = Game::from_position(rules.clone(), self.start);
        for m in &self.moves {
            g.play(*m);
        }
        g
    }
}

/// An openings file that gives no openings to play: why (the file named in the message).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(help("give a file of FEN lines or of PDN games of this variant"))]
pub enum OpeningsError {
    #[error("cannot read `{file}`: {why}")]
    Unreadable {
        file: String,
        why: crate::fsio::ReadError,
    },
    #[error("`{file}`: opening {number} does not replay: {why}")]
    NoReplay {
        file: String,
        number: usize,
        why: String,
    },
    #[error("`{file}` line {line}: {why}")]
    BadFen {
        file: String,
        line: usize,
        why: String,
    },
    #[error("`{0}` holds no opening")]
    Empty(String),
    #[error("`{file}`: opening {number} leaves a game that is over ({result})")]
    Over {
        file: String,
        number: usize,
        result: String,
    },
}

/// Read openings from a file: PDN when it holds a tag or a numbered move, else one FEN a line
/// (blank lines and lines starting with `#` skipped). Every opening must leave a game that goes on.
pub fn read_file(rules: &Arc<Rules>, path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let file = path.display().to_string();
    let bytes = crate::fsio::read_file(path, crate::fsio::Kind::Pdn).map_err(|why| {
        OpeningsError::Unreadable {
            file: file.clone(),
            why,
        }
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let is_pdn = text
        .lines()
        .map(str::trim)
        .any(|l| l.starts_with('[') || l.starts_with("1."));
    let mut out = Vec::new();
    if is_pdn {
        for (i, g) in crate::pdn::read_games(&bytes).iter().enumerate() {
            let r = crate::pdn::replay(rules.clone(), g).map_err(|f| OpeningsError::NoReplay {
                file: file.clone(),
                number: i + 1,
                why: f.message,
            })?;
            out.push(Opening {
                start: *r.game.start(),
                moves: r.game.moves().to_vec(),
            });
        }
    } else {
        for (n, line) in text.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let pos = parse_fen(rules, l).map_err(|e| OpeningsError::BadFen {
                file: file.clone(),
                line: n + 1,
                why: e.message,
            })?;
            out.push(Opening {
                start: pos,
                moves: Vec::new(),
            });
        }
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(file));
    }
    for (i, o) in out.iter().enumerate() {
        let g = o.game(rules);
        let over =
            g.result().is_some() || g.try_legal_moves().map(|l| l.is_empty()).unwrap_or(true);
        if over {
            return Err(OpeningsError::Over {
                file,
                number: i + 1,
                result: g.describe_result().to_string(),
            });
        }
    }
    Ok(out)
}

/// Opening `index` of a match seeded with `seed`: `plies` uniformly random legal moves from the
/// start position, drawn again (another stream of the same seed) when they end the game.
pub fn random(rules: &Arc<Rules>, seed: u64, index: u64, plies: u32) -> Opening {
    (0..100u64)
        .find_map(|attempt| draw(rules, seed, index, plies, attempt))
        .unwrap_or_else(|| start_of(rules))
}

/// How lopsided a random opening may be (`match --balanced`): a search of `depth` plies with the
/// rules' default evaluation must score the position after it within `score` either way
/// (hundredths of a man).
#[derive(Clone, Debug)]
pub struct Balance {
    pub score: Score,
    pub depth: u32,
    /// The rules' default evaluation (their bundled weights, when there are any), read once for
    /// the whole match.
    weights: Option<Arc<Weights>>,
}

impl Balance {
    /// The bound for these rules, with their default evaluation.
    pub fn new(rules: &Rules, score: Score, depth: u32) -> Balance {
        Balance {
            score,
            depth,
            weights: crate::search::weights::resolve(None, rules).ok().flatten(),
        }
    }
}

/// Random openings tried for one balanced opening before the closest to level is taken.
pub const BALANCE_ATTEMPTS: u64 = 200;

/// Opening `index` as [`random`] draws it, but only one whose position a search of
/// `balance.depth` plies scores within `balance.score`: the draws go on along the same seeded
/// streams (the first is [`random`]'s opening) until one is, and after [`BALANCE_ATTEMPTS`]
/// the draw closest to level is taken. The same seed, rules and build give the same openings.
pub fn balanced(
    rules: &Arc<Rules>,
    seed: u64,
    index: u64,
    plies: u32,
    balance: &Balance,
) -> Opening {
    let mut searcher = Searcher::new(rules.clone(), 1);
    let w = balance.weights.clone();
    searcher.set_options(crate::search::weights::options(w.as_deref()));
    searcher.set_weights(w);
    let limits = Limits {
        depth: Some(balance.depth),
        ..Limits::default()
    };
    let mut best: Option<(Score, Opening)> = None;
    for attempt in 0..BALANCE_ATTEMPTS {
        let Some(o) = draw(rules, seed, index, plies, attempt) else {
            continue;
        };
        searcher.clear();
        let g = o.game(rules);
        let history = searcher.history_of(g.start(), g.moves());
        let score = searcher
            .search(g.position(), &history, limits, &mut |_| {})
            .score
            .saturating_abs();
        if score <= balance.score {
            return o;
        }
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, o));
        }
    }
    best.map_or_else(|| start_of(rules), |(_, o)| o)
}

/// The start position, no moves: the opening when no draw of random plies leaves a game going on.
fn start_of(rules: &Arc<Rules>) -> Opening {
    Opening {
        start: rules.start,
        moves: Vec::new(),
    }
}

/// Draw `attempt` of opening `index`: `plies` random legal moves from the start, or `None` when
/// they end the game (or leave it without a move).
fn draw(rules: &Arc<Rules>, seed: u64, index: u64, plies: u32, attempt: u64) -> Option<Opening> {
    let mut s = seed
        ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ attempt.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let mut rng = ChaCha8Rng::seed_from_u64(crate::search::zobrist::splitmix(&mut s));
    let mut g = Game::new(rules.clone());
    let mut buf = Vec::new();
    for _ in 0..plies {
        buf.clear();
        if g.result().is_some()
            || rules
                .try_generate(g.position(), &mut buf, GenOptions::default())
                .is_err()
            || buf.is_empty()
        {
            return None;
        }
        let m = buf[rng.random_range(0..buf.len())];
        g.play(m);
    }
    (g.result().is_none() && g.try_legal_moves().is_ok_and(|l| !l.is_empty())).then(|| Opening {
        start: *g.start(),
        moves: g.moves().to_vec(),
    })
}
