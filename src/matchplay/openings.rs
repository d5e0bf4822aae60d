//! The openings of a match: read from a file (one FEN a line, or the games of a PDN file, their
//! moves played out), or made of seeded random plies from the start position. Each is played twice,
//! colours reversed.

use crate::engine::{GenOptions, Move, Position};
use crate::notation::parse_fen;
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

/// Read openings from a file: PDN when it holds a tag or a numbered move, else one FEN a line
/// (blank lines and lines starting with `#` skipped). Every opening must leave a game that goes on.
pub fn read_file(rules: &Arc<Rules>, path: &Path) -> Result<Vec<Opening>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let is_pdn = text
        .lines()
        .map(str::trim)
        .any(|l| l.starts_with('[') || l.starts_with("1."));
    let mut out = Vec::new();
    if is_pdn {
        for (i, g) in crate::pdn::read_games(&bytes).iter().enumerate() {
            let r = crate::pdn::replay(rules.clone(), g).map_err(|f| {
                format!(
                    "`{}`: opening {} does not replay: {}",
                    path.display(),
                    i + 1,
                    f.message
                )
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
            let pos = parse_fen(rules, l)
                .map_err(|e| format!("`{}` line {}: {}", path.display(), n + 1, e.message))?;
            out.push(Opening {
                start: pos,
                moves: Vec::new(),
            });
        }
    }
    if out.is_empty() {
        return Err(format!("`{}` holds no opening", path.display()));
    }
    for (i, o) in out.iter().enumerate() {
        let g = o.game(rules);
        let over =
            g.result().is_some() || g.try_legal_moves().map(|l| l.is_empty()).unwrap_or(true);
        if over {
            return Err(format!(
                "`{}`: opening {} leaves a game that is over ({})",
                path.display(),
                i + 1,
                g.describe_result()
            ));
        }
    }
    Ok(out)
}

/// Opening `index` of a match seeded with `seed`: `plies` uniformly random legal moves from the
/// start position, drawn again (another stream of the same seed) when they end the game.
pub fn random(rules: &Arc<Rules>, seed: u64, index: u64, plies: u32) -> Opening {
    for attempt in 0..100u64 {
        let mut s = seed
            ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ attempt.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let mut rng = ChaCha8Rng::seed_from_u64(crate::search::zobrist::splitmix(&mut s));
        let mut g = Game::new(rules.clone());
        let mut buf = Vec::new();
        let mut ok = true;
        for _ in 0..plies {
            buf.clear();
            if g.result().is_some()
                || rules
                    .try_generate(g.position(), &mut buf, GenOptions::default())
                    .is_err()
                || buf.is_empty()
            {
                ok = false;
                break;
            }
            let m = buf[rng.random_range(0..buf.len())];
            g.play(m);
        }
        if ok && g.result().is_none() && g.try_legal_moves().is_ok_and(|l| !l.is_empty()) {
            return Opening {
                start: *g.start(),
                moves: g.moves().to_vec(),
            };
        }
    }
    Opening {
        start: rules.start,
        moves: Vec::new(),
    }
}
