//! Replaying a recorded game against a variant's rules: every move must be one of the legal moves
//! of its position, and where the game ended on the board the recorded result must agree.

use super::{parse_game_type, PdnGame};
use crate::engine::{EndReason, GenOptions, Move, Position, Rules};
use crate::notation::{move_to_string, parse_fen, parse_move, to_fen};
use crate::{Game, Variant};
use std::collections::HashMap;
use std::sync::Arc;

/// Loaded variants by name, so that a collection compiles each one once.
#[derive(Default)]
pub struct VariantCache {
    loaded: HashMap<String, Result<Variant, String>>,
}

impl VariantCache {
    pub fn get(&mut self, name: &str) -> Result<Variant, String> {
        self.loaded
            .entry(name.to_string())
            .or_insert_with(|| {
                Variant::load(name).map_err(|e| format!("cannot load variant `{name}`: {e}"))
            })
            .clone()
    }
}

/// The variant a game is played in: its `GameType` tag, else its `Variant` tag (a bundled name or
/// a rules file, as `damelab match` writes it), else `default`.
pub fn variant_for(
    game: &PdnGame,
    default: Option<&str>,
    cache: &mut VariantCache,
) -> Result<Variant, String> {
    let named = game.tag("Variant").filter(|v| !v.trim().is_empty());
    let (name, board) = match game.tag("GameType") {
        Some(v) => parse_game_type(v)?,
        None => match named.or(default) {
            Some(d) => (d, None),
            None => {
                return Err(
                    "the game has no GameType tag: name its variant with --variant".to_string(),
                )
            }
        },
    };
    let v = cache.get(name)?;
    if let Some((w, h)) = board {
        let b = &v.rules.spec.board;
        if (b.width, b.height) != (w, h) {
            return Err(format!(
                "GameType `{}` gives a {w}x{h} board but {} is played on {}x{}",
                game.tag("GameType").unwrap_or_default(),
                v.rules.spec.title,
                b.width,
                b.height
            ));
        }
    }
    Ok(v)
}

/// The game's start: its `FEN` tag, else the variant's start position.
pub fn start_position(rules: &Rules, game: &PdnGame) -> Result<Position, String> {
    match game.tag("FEN") {
        Some(f) if !f.trim().is_empty() => {
            parse_fen(rules, f).map_err(|e| format!("the FEN tag `{f}`: {}", e.message))
        }
        _ => Ok(rules.start),
    }
}

/// What a recorded result says: `Some(Some(side))` a win for that side, `Some(None)` a draw,
/// `None` unknown or unfinished. The first number of a result is the first mover's score.
pub fn recorded_result(rules: &Rules, text: &str) -> Option<Option<usize>> {
    let first = rules.spec.first_to_move as usize;
    match text.trim() {
        "1-0" | "2-0" => Some(Some(first)),
        "0-1" | "0-2" => Some(Some(1 - first)),
        "1/2-1/2" | "1-1" | "½-½" => Some(None),
        _ => None,
    }
}

/// A game replayed to its end.
#[derive(Debug)]
pub struct Replayed {
    pub game: Game,
    /// Remarks that are not failures: play going on after a repeated position.
    pub notes: Vec<String>,
}

/// Why a game does not replay: at which move (if at a move), in which position, what was recorded
/// and what the rules allow.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The move's index in the main line (0 = the first move), when a move is at fault.
    pub ply: Option<usize>,
    /// `12:5`: where the move stands in the text.
    pub at: Option<super::Loc>,
    pub message: String,
    pub fen: Option<String>,
    pub recorded: Option<String>,
    pub legal: Vec<String>,
    /// The legal moves could not be listed (the capture search ran past the route budget).
    pub legal_unknown: bool,
}

impl Failure {
    fn plain(message: String) -> Failure {
        Failure {
            ply: None,
            at: None,
            message,
            fen: None,
            recorded: None,
            legal: Vec::new(),
            legal_unknown: false,
        }
    }
}

/// Replay `game` on `rules`. Syntax errors of the text come first; then the start position, every
/// move, and the recorded result where the board decides the game.
pub fn replay(rules: Arc<Rules>, game: &PdnGame) -> Result<Replayed, Box<Failure>> {
    if let Some(e) = game.errors.first() {
        let mut f = Failure::plain(e.message.clone());
        f.at = Some(e.loc);
        return Err(Box::new(f));
    }
    let start = start_position(&rules, game).map_err(|m| Box::new(Failure::plain(m)))?;
    let mut g = Game::from_position(rules.clone(), start);
    let mut notes = Vec::new();
    let mut legal: Vec<Move> = Vec::new();
    let mut repeated = false;
    for (ply, tok) in game.moves.iter().enumerate() {
        // Every route, so that a capture written through any of its landing squares is found;
        // within the route budget, or the game fails here.
        let every_route = GenOptions {
            keep_duplicates: true,
            all_routes: true,
        };
        if let Err(e) = rules.try_generate(g.position(), &mut legal, every_route) {
            return Err(Box::new(Failure {
                ply: Some(ply),
                at: Some(tok.loc),
                message: e.to_string(),
                fen: Some(to_fen(&rules, g.position())),
                recorded: Some(tok.text.clone()),
                legal: Vec::new(),
                legal_unknown: true,
            }));
        }
        if !repeated {
            if let Some(o) = g.result() {
                if let EndReason::Repetition(n) = o.reason {
                    repeated = true;
                    notes.push(format!(
                        "continues after repetition: the position before move {} ({}) occurred {n} times",
                        ply + 1,
                        tok.loc
                    ));
                }
            }
        }
        match parse_move(&rules, &legal, &tok.text) {
            Ok(mv) => g.play(mv),
            Err(e) => {
                let mut names: Vec<String> =
                    legal.iter().map(|m| move_to_string(&rules, m)).collect();
                names.sort();
                names.dedup();
                return Err(Box::new(Failure {
                    ply: Some(ply),
                    at: Some(tok.loc),
                    message: e.message.clone(),
                    fen: Some(to_fen(&rules, g.position())),
                    recorded: Some(tok.text.clone()),
                    legal: names,
                    legal_unknown: false,
                }));
            }
        }
    }
    // The recorded result: the token closing the moves, else the Result tag.
    let token = game.result.as_deref();
    let tag = game.tag("Result");
    if let (Some(t), Some(r)) = (token, tag) {
        let (a, b) = (recorded_result(&rules, t), recorded_result(&rules, r));
        if a.is_some() && b.is_some() && a != b {
            return Err(Box::new(Failure::plain(format!(
                "the move text ends in `{t}` but the Result tag says `{r}`"
            ))));
        }
    }
    let recorded = token.filter(|t| *t != "*").or(tag);
    if let Some(o) = board_outcome(&rules, &g) {
        if let Some(said) = recorded.and_then(|r| recorded_result(&rules, r)) {
            if said != o.0 {
                let mut f = Failure::plain(format!(
                    "the recorded result `{}` disagrees with the board: {}",
                    recorded.unwrap_or_default(),
                    o.1
                ));
                f.fen = Some(to_fen(&rules, g.position()));
                return Err(Box::new(f));
            }
        }
    }
    Ok(Replayed { game: g, notes })
}

/// The end the board itself gives (no legal move, or a material rule), not a repetition (which
/// some variants' players must claim).
fn board_outcome(rules: &Rules, g: &Game) -> Option<(Option<usize>, String)> {
    let pos = g.position();
    // Only whether a move exists matters: no capture search.
    let o = rules
        .material_outcome(pos)
        .or_else(|| rules.outcome(pos, rules.has_moves(pos) as usize))?;
    if matches!(o.reason, EndReason::Repetition(_)) {
        return None;
    }
    let text = Game::from_position(g.rules.clone(), *pos).describe_result();
    Some((o.winner, text))
}
