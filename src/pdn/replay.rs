//! Replaying a recorded game against a variant's rules: every move must be one of the legal moves
//! of its position, and where the game ended on the board the recorded result must agree.

use super::{parse_game_type, GameTypeError, PdnGame, Token, Variation, RULES_TAG};
use crate::engine::{EndReason, GenOptions, Move, Position, Rules, TooManyRoutes};
use crate::notation::{move_to_string, parse_fen, parse_move, to_fen, InputError};
use crate::{Game, Variant};
use std::collections::HashMap;
use std::sync::Arc;

/// Why the variant a game is played in cannot be had: its tags name none that loads, or a board
/// the variant named is not played on. The caller says what to do (it knows what was asked).
#[derive(Debug, Clone, thiserror::Error, miette::Diagnostic)]
pub enum VariantError {
    #[error("cannot load variant `{name}`: {why}")]
    Load {
        name: String,
        why: Arc<crate::variant::LoadError>,
    },
    #[error(transparent)]
    GameType(#[from] GameTypeError),
    /// The extended `GameType` form's board is not the variant's.
    #[error(
        "GameType `{tag}` gives a {}x{} board but {title} is played on {}x{}",
        given.0, given.1, board.0, board.1
    )]
    Board {
        tag: String,
        given: (u8, u8),
        title: String,
        board: (u8, u8),
    },
    #[error("the game's {RULES_TAG} tag names `{named}`, which does not load: {why}")]
    RulesTag {
        named: String,
        why: Box<VariantError>,
    },
}

/// Loaded variants by name, so that a collection compiles each one once.
#[derive(Default)]
pub struct VariantCache {
    loaded: HashMap<String, Result<Variant, VariantError>>,
}

impl VariantCache {
    pub fn get(&mut self, name: &str) -> Result<Variant, VariantError> {
        self.loaded
            .entry(name.to_string())
            .or_insert_with(|| {
                Variant::load(name).map_err(|e| VariantError::Load {
                    name: name.to_string(),
                    why: Arc::new(e),
                })
            })
            .clone()
    }
}

/// The variant a game is played in: its `GameType` tag, else its [`RULES_TAG`] tag (written by
/// `save` for variants without a `GameType`), else its `Variant` tag (a bundled name or a rules
/// file, as `damelab match` writes it), else `default`, else a guess from its squares.
pub fn variant_for(
    game: &PdnGame,
    default: Option<&str>,
    cache: &mut VariantCache,
) -> Result<Variant, VariantError> {
    variant_and_note(game, default, cache).map(|(v, _)| v)
}

/// [`variant_for`], with a note when the variant is not the one the game names: a guess, or rules
/// that changed since the game was written.
pub fn variant_and_note(
    game: &PdnGame,
    default: Option<&str>,
    cache: &mut VariantCache,
) -> Result<(Variant, Option<String>), VariantError> {
    let (name, board, mut note) = match (game.tag("GameType"), game.tag(RULES_TAG), default) {
        (Some(v), _, _) => {
            let (name, board) = parse_game_type(v)?;
            (name.to_string(), board, None)
        }
        (None, Some(r), _) => {
            let v = rules_variant(r, cache)?;
            return Ok(v);
        }
        (None, None, _) if game.tag("Variant").is_some_and(|v| !v.trim().is_empty()) => {
            let named = game.tag("Variant").unwrap_or_default();
            (named.trim().to_string(), None, None)
        }
        (None, None, Some(d)) => (d.to_string(), None, None),
        (None, None, None) => {
            let (name, why) = guess_variant(game);
            (name.to_string(), None, Some(why))
        }
    };
    let v = cache.get(&name)?;
    if let Some((w, h)) = board {
        let b = &v.rules.spec.board;
        if (b.width, b.height) != (w, h) {
            return Err(VariantError::Board {
                tag: game.tag("GameType").unwrap_or_default().to_string(),
                given: (w, h),
                title: v.rules.spec.title.clone(),
                board: (b.width, b.height),
            });
        }
    }
    if let Some(n) = note.as_mut() {
        *n = format!("{n}: read as {}", v.rules.spec.title);
    }
    Ok((v, note))
}

/// The variant a [`RULES_TAG`] value (`NAME-OR-PATH HASH`) names, with a note when its rules
/// have changed since.
fn rules_variant(
    value: &str,
    cache: &mut VariantCache,
) -> Result<(Variant, Option<String>), VariantError> {
    let (source, hash) = match value.trim().rsplit_once(' ') {
        Some((s, h)) if h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            (s.trim(), Some(h))
        }
        _ => (value.trim(), None),
    };
    let v = cache.get(source).map_err(|e| VariantError::RulesTag {
        named: source.to_string(),
        why: Box::new(e),
    })?;
    let now = v.rules.fingerprint();
    let note = hash.filter(|h| *h != now).map(|h| {
        format!(
            "the rules of `{source}` have changed since the game was written (hash {h}, now {now})"
        )
    });
    Ok((v, note))
}

/// A variant for a game that names none, from the squares its moves and FEN use: algebraic
/// squares are Russian draughts' (the most played game written so), numbers up to 32 English
/// draughts', up to 50 international, up to 72 Canadian; with no squares at all, international,
/// the PDN standard's default `GameType` (20). Returns the name and why.
pub fn guess_variant(game: &PdnGame) -> (&'static str, String) {
    let mut words: Vec<&str> = game.moves.iter().map(|t| t.text.as_str()).collect();
    let fen = game.tag("FEN").unwrap_or_default();
    words.push(fen);
    let mut algebraic = false;
    let mut max = 0u32;
    for w in words {
        for part in w.split(|c: char| !c.is_ascii_alphanumeric()) {
            let b = part.as_bytes();
            match b {
                [l, d, ..] if l.is_ascii_lowercase() && d.is_ascii_digit() => algebraic = true,
                _ => {
                    // FEN pieces: `K12`, `W31`; moves: `32`.
                    let digits = part.trim_start_matches(|c: char| c.is_ascii_uppercase());
                    if let Ok(n) = digits.parse::<u32>() {
                        max = max.max(n);
                    }
                }
            }
        }
    }
    let name = if algebraic {
        "russian"
    } else {
        match max {
            0 => "international",
            1..=32 => "english",
            33..=50 => "international",
            _ => "canadian",
        }
    };
    let why = if algebraic {
        "no GameType tag; its squares are written as letter and digit".to_string()
    } else if max == 0 {
        "no GameType tag: the PDN default (GameType 20)".to_string()
    } else {
        format!("no GameType tag; its squares go up to {max}")
    };
    (name, why)
}

/// A game's `FEN` tag that is not a position of its variant.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("the FEN tag `{fen}`: {why}")]
pub struct FenTagError {
    pub fen: String,
    pub why: Box<InputError>,
}

/// The game's start: its `FEN` tag, else the variant's start position.
pub fn start_position(rules: &Rules, game: &PdnGame) -> Result<Position, FenTagError> {
    match game.tag("FEN") {
        Some(f) if !f.trim().is_empty() => parse_fen(rules, f).map_err(|why| FenTagError {
            fen: f.to_string(),
            why,
        }),
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
    /// The variations that replay (each up to its first move that does not).
    pub variations: Vec<Variation<Move>>,
    /// Remarks that are not failures: play going on after a repeated position or after the game
    /// was over, a capture resolved by the moves after it, a variation cut short.
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
    let start =
        start_position(&rules, game).map_err(|e| Box::new(Failure::plain(e.to_string())))?;
    let mut g = Game::from_position(rules.clone(), start);
    let mut notes = Vec::new();
    // Every route, so that a capture written through any of its landing squares is found; within
    // the route budget, or the game fails there.
    let mut legal: Vec<Move> = Vec::new();
    let mut repeated = false;
    let mut over = false;
    for (ply, tok) in game.moves.iter().enumerate() {
        if let Err(e) = rules.try_generate(g.position(), &mut legal, EVERY_ROUTE) {
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
        if let Some(o) = g.result() {
            match o.reason {
                EndReason::Repetition(n) if !repeated => {
                    repeated = true;
                    notes.push(format!(
                        "continues after repetition: the position before move {} ({}) occurred {n} times",
                        ply + 1,
                        tok.loc
                    ));
                }
                EndReason::Repetition(_) => {}
                _ if !over => {
                    over = true;
                    notes.push(format!(
                        "the game was already over before move {} ({}): {}; the record plays on for {} more",
                        ply + 1,
                        tok.loc,
                        g.describe_result(),
                        plural(game.moves.len() - ply, "move")
                    ));
                }
                _ => {}
            }
        }
        if legal.is_empty() {
            // The rules ended the game here (no move, or a material rule such as a lone king
            // against a lone man): the record plays on past its end.
            return Err(Box::new(Failure {
                ply: Some(ply),
                at: Some(tok.loc),
                message: format!(
                    "the game was already over: {}; the record goes on with `{}`",
                    g.describe_result(),
                    tok.text
                ),
                fen: Some(to_fen(&rules, g.position())),
                recorded: Some(tok.text.clone()),
                legal: Vec::new(),
                legal_unknown: false,
            }));
        }
        match pick(
            &rules,
            g.position(),
            &legal,
            &tok.text,
            &game.moves[ply + 1..],
        ) {
            Ok((mv, note)) => {
                if let Some(n) = note {
                    notes.push(format!("move {} ({}): {n}", ply + 1, tok.loc));
                }
                g.play(mv)
            }
            Err(e) => {
                let mut names: Vec<String> =
                    legal.iter().map(|m| move_to_string(&rules, m)).collect();
                names.sort();
                names.dedup();
                return Err(Box::new(Failure {
                    ply: Some(ply),
                    at: Some(tok.loc),
                    message: e.to_string(),
                    fen: Some(to_fen(&rules, g.position())),
                    recorded: Some(tok.text.clone()),
                    legal: names,
                    legal_unknown: false,
                }));
            }
        }
    }
    let variations = replay_variations(&rules, start, g.moves(), &game.variations, &mut notes);
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
    Ok(Replayed {
        game: g,
        variations,
        notes,
    })
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

/// Every route and every duplicate: a capture may be written through any of its landing squares.
const EVERY_ROUTE: GenOptions = GenOptions {
    keep_duplicates: true,
    all_routes: true,
};

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Why a recorded move is not played: its text names no legal move, or a capture by its ends
/// that the moves after it do not settle, or the moves could not be listed.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum Unplayed {
    #[error(transparent)]
    Input(Box<InputError>),
    #[error("{} and the moves after it do not tell which ({})", why.message, routes.join(", "))]
    Undecided {
        why: Box<InputError>,
        routes: Vec<String>,
    },
    #[error(transparent)]
    Routes(#[from] TooManyRoutes),
}

/// The legal move `text` names in `pos`. A capture written by its ends that names several routes
/// (taking different pieces) is settled by the moves after it (`rest`): the one route after which
/// more of them replay, with a note; it stays an error only when the moves after it do not tell.
fn pick(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    text: &str,
    rest: &[Token],
) -> Result<(Move, Option<String>), Unplayed> {
    let e = match parse_move(rules, legal, text) {
        Ok(mv) => return Ok((mv, None)),
        Err(e) => e,
    };
    if e.label != "ambiguous" {
        return Err(Unplayed::Input(e));
    }
    let mut routes: Vec<Move> = Vec::new();
    for m in legal {
        if parse_move(rules, std::slice::from_ref(m), text).is_ok()
            && !routes.iter().any(|r| r.same_move(m))
        {
            routes.push(*m);
        }
    }
    let reach: Vec<usize> = routes
        .iter()
        .map(|m| replays_after(rules, &rules.play(pos, m), rest))
        .collect();
    let best = reach.iter().copied().max().unwrap_or(0);
    let winners: Vec<usize> = (0..routes.len()).filter(|&i| reach[i] == best).collect();
    let names: Vec<String> = routes.iter().map(|m| move_to_string(rules, m)).collect();
    match winners[..] {
        [w] => Ok((
            routes[w],
            Some(format!(
                "`{text}` names {} captures ({}); the moves after it show it is {}",
                routes.len(),
                names.join(", "),
                names[w]
            )),
        )),
        _ => Err(Unplayed::Undecided {
            why: e,
            routes: names,
        }),
    }
}

/// How many of `moves` replay in a row from `pos` (an ambiguous one counts with its first route).
fn replays_after(rules: &Rules, pos: &Position, moves: &[Token]) -> usize {
    let mut pos = *pos;
    let mut legal = Vec::new();
    for (i, tok) in moves.iter().enumerate() {
        if rules.try_generate(&pos, &mut legal, EVERY_ROUTE).is_err() {
            return i;
        }
        let mv = match parse_move(rules, &legal, &tok.text) {
            Ok(mv) => mv,
            Err(e) if e.label == "ambiguous" => {
                match legal
                    .iter()
                    .find(|m| parse_move(rules, std::slice::from_ref(*m), &tok.text).is_ok())
                {
                    Some(m) => *m,
                    None => return i,
                }
            }
            Err(_) => return i,
        };
        pos = rules.play(&pos, &mv);
    }
    moves.len()
}

/// The variations of a line that starts at `start` with `line`, replayed: each up to its first
/// move that does not replay (said in a note); one that branches off past the line's end is left
/// out with a note.
fn replay_variations(
    rules: &Rules,
    start: Position,
    line: &[Move],
    variations: &[Variation<Token>],
    notes: &mut Vec<String>,
) -> Vec<Variation<Move>> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for v in variations {
        let Some(first) = v.moves.first() else {
            continue;
        };
        if v.ply >= line.len() {
            notes.push(format!(
                "the variation at {} is left out: it replaces move {} of a line of {}",
                first.loc,
                v.ply + 1,
                plural(line.len(), "move")
            ));
            continue;
        }
        let mut pos = start;
        for m in &line[..v.ply] {
            pos = rules.play(&pos, m);
        }
        let from = pos;
        let mut played = Vec::new();
        for (i, tok) in v.moves.iter().enumerate() {
            let found = rules
                .try_generate(&pos, &mut legal, EVERY_ROUTE)
                .map_err(Unplayed::from)
                .and_then(|_| pick(rules, &pos, &legal, &tok.text, &v.moves[i + 1..]));
            match found {
                Ok((mv, _)) => {
                    pos = rules.play(&pos, &mv);
                    played.push(mv);
                }
                Err(why) if i == 0 => {
                    notes.push(format!("the variation at {} is left out: {why}", first.loc));
                    break;
                }
                Err(why) => {
                    notes.push(format!(
                        "the variation at {} stops at its move {} ({}): {why}; its first {} {} kept",
                        first.loc,
                        i + 1,
                        tok.loc,
                        plural(i, "move"),
                        if i == 1 { "is" } else { "are" }
                    ));
                    break;
                }
            }
        }
        if played.is_empty() {
            continue;
        }
        let inner = replay_variations(rules, from, &played, &v.variations, notes);
        out.push(Variation {
            ply: v.ply,
            moves: played,
            variations: inner,
        });
    }
    out
}

/// A failure in full: tags, ply, position, the recorded move and the legal moves.
pub fn describe_failure(index: usize, g: &PdnGame, f: &Failure) -> String {
    let mut s = format!("  game {index} (line {}) FAILED", g.loc.line);
    if let Some(p) = f.ply {
        s.push_str(&format!(" at ply {}", p + 1));
    }
    if let Some(at) = f.at {
        s.push_str(&format!(" ({at})"));
    }
    s.push_str(&format!(": {}\n", f.message));
    if !g.tags.is_empty() {
        let tags: Vec<String> = g
            .tags
            .iter()
            .map(|(n, v)| format!("[{n} \"{v}\"]"))
            .collect();
        s.push_str(&format!("    tags: {}\n", tags.join(" ")));
    }
    if let Some(fen) = &f.fen {
        s.push_str(&format!("    position: {fen}\n"));
    }
    if let Some(r) = &f.recorded {
        s.push_str(&format!("    recorded move: {r}\n"));
    }
    if f.ply.is_some() && !f.legal_unknown {
        let legal = if f.legal.is_empty() {
            "none".to_string()
        } else {
            f.legal.join(", ")
        };
        s.push_str(&format!("    legal moves: {legal}\n"));
    }
    s
}
