//! A typed move in a game: the legal move it names, or the refusal with the rule that forbids it.

use crate::engine::{Move, TooManyRoutes};
use crate::explain::{self, ExplainError};
use crate::notation::{parse_move, InputError};
use crate::Game;

/// Why a typed move was not played.
#[derive(Debug)]
pub enum Refusal {
    /// The position's capture search runs past the route budget: no move of it is checked.
    NotChecked(TooManyRoutes),
    /// The text names no legal move: the reader's diagnostic, and `explain`'s sentence when it
    /// names the rule that forbids the move (or says the game is over).
    Illegal {
        error: Box<InputError>,
        why: Option<String>,
    },
}

/// The legal move `text` names in the game's current position, or why not.
pub fn read_move(game: &Game, text: &str) -> Result<Move, Refusal> {
    let legal = game.try_legal_moves().map_err(Refusal::NotChecked)?;
    parse_move(&game.rules, &legal, text).map_err(|error| Refusal::Illegal {
        error,
        why: explain_in_game(game, text)
            .ok()
            .filter(|w| w.contains("is not legal")),
    })
}

/// `explain` in the game's current position ([`crate::explain::explain`]); a move the position
/// would allow but the game does not, because it is over, says so. A position whose capture
/// search runs past the route budget is an error.
pub fn explain_in_game(game: &Game, text: &str) -> Result<String, ExplainError> {
    let why = explain::explain(&game.rules, game.position(), text);
    let unreadable = match &why {
        Err(ExplainError::Input(e)) => explain::is_syntax_error(e),
        Err(ExplainError::TooManyRoutes(_)) => true,
        Ok(_) => false,
    };
    if !unreadable && game.result().is_some() {
        let legal = game.try_legal_moves()?;
        if parse_move(&game.rules, &legal, text).is_err() {
            return Ok(format!(
                "`{text}` is not legal: the game is over ({})\n",
                game.describe_result()
            ));
        }
    }
    why
}
