//! The openings of a match or a self-play run: read from a file (one opening a line — a FEN, moves
//! from the start as a ballot gives them, or a FEN followed by moves — or the games of a PDN file,
//! their moves played out), or made of seeded random plies from the start position. A match plays
//! each twice, colours reversed.

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
#[diagnostic(help(
    "give a file of PDN games of this variant, or one opening a line: a FEN, moves from the \
     start (`32-28 19-23`), or a FEN and moves"
))]
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

/// Read openings from a file: PDN when it holds a tag or a numbered move, else one opening a line
/// ([`parse_line`]; blank lines and lines starting with `#` skipped). Every opening must leave a
/// game that goes on.
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
            out.push(parse_line(rules, l).map_err(|why| OpeningsError::BadFen {
                file: file.clone(),
                line: n + 1,
                why: why.0,
            })?);
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

/// One opening as a line of an openings file gives it: a FEN; or moves from the start position,
/// separated by spaces (a ballot: `32-28 19-23 28-19`); or a FEN, then moves from it. Every move
/// must be legal where it is played. The error says which token is wrong and why.
pub fn parse_line(rules: &Arc<Rules>, line: &str) -> Result<Opening, BadLine> {
    let line = line.trim();
    let fen_error = match parse_fen(rules, line) {
        Ok(start) => {
            return Ok(Opening {
                start,
                moves: Vec::new(),
            })
        }
        Err(e) => e.message,
    };
    let mut tokens = line.split_whitespace().peekable();
    let first = tokens.peek().copied().unwrap_or("");
    let start = match parse_fen(rules, first) {
        Ok(p) => {
            tokens.next();
            p
        }
        // A first token that looks like a FEN and is not one: the FEN's own message is the one
        // to give.
        Err(_) if first.chars().nth(1) == Some(':') || first.starts_with('[') => {
            return Err(BadLine(fen_error))
        }
        Err(_) => rules.start,
    };
    let mut g = Game::from_position(rules.clone(), start);
    for (i, t) in tokens.enumerate() {
        if g.result().is_some() {
            return Err(BadLine(format!(
                "move {} `{t}` comes after the game is over",
                i + 1
            )));
        }
        let legal = g
            .try_legal_moves()
            .map_err(|e| BadLine(format!("move {} `{t}`: {e}", i + 1)))?;
        let m = crate::notation::parse_move(rules, &legal, t)
            .map_err(|e| BadLine(format!("move {} `{t}`: {}", i + 1, e.message)))?;
        g.play(m);
    }
    Ok(Opening {
        start,
        moves: g.moves().to_vec(),
    })
}

/// A line of an openings file that is no opening: why (which move, or the FEN's message).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{0}")]
#[diagnostic(help(
    "write an opening as moves from the start (`32-28 19-23`), a FEN, or a FEN and moves"
))]
pub struct BadLine(pub String);

/// An opening as one line of an openings file ([`parse_line`] reads it back): its moves from the
/// start position, or the FEN it starts from and its moves.
pub fn line_of(rules: &Rules, o: &Opening) -> String {
    let mut parts: Vec<String> = Vec::with_capacity(o.moves.len() + 1);
    if o.start != rules.start {
        parts.push(crate::notation::to_fen(rules, &o.start));
    }
    parts.extend(
        o.moves
            .iter()
            .map(|m| crate::notation::move_to_string(rules, m)),
    );
    parts.join(" ")
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

/// A ballot of `count` different openings of `plies` plies each (different move sequences), drawn
/// along the seeded streams of [`random`] (or of [`balanced`] when `balance` is given), in the
/// order drawn: at most `count` × [`BALLOT_TRIES`] draws are made, so a variant with fewer
/// openings than asked gives fewer. The same seed, rules and build give the same ballot.
pub fn ballot(
    rules: &Arc<Rules>,
    seed: u64,
    count: usize,
    plies: u32,
    balance: Option<&Balance>,
) -> Vec<Opening> {
    let mut out: Vec<Opening> = Vec::with_capacity(count);
    let mut seen = std::collections::HashSet::new();
    for index in 0..(count as u64).saturating_mul(BALLOT_TRIES) {
        if out.len() >= count || crate::interrupt::requested() {
            break;
        }
        let o = match balance {
            Some(b) => balanced(rules, seed, index, plies, b),
            None => random(rules, seed, index, plies),
        };
        if o.moves.len() == plies as usize && seen.insert(line_of(rules, &o)) {
            out.push(o);
        }
    }
    out
}

/// Draws a ballot makes for each opening it asks for, before it gives what it found.
pub const BALLOT_TRIES: u64 = 20;
