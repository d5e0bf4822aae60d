//! A game: positions and moves from a start, with undo/redo and the end-of-game rules, repetition
//! included (which needs the history, not just the position).

use crate::engine::{EndReason, GenOptions, Move, Outcome, Position, Rules, TooManyRoutes};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Arc<Rules>,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Moves undone, most recent last, for `redo`.
    undone: Vec<Move>,
}

impl Game {
    pub fn new(rules: Arc<Rules>) -> Game {
        let start = rules.start;
        Game::from_position(rules, start)
    }

    pub fn from_position(rules: Arc<Rules>, pos: Position) -> Game {
        Game {
            rules,
            positions: vec![pos],
            moves: Vec::new(),
            undone: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<&Move> {
        self.moves.last()
    }

    /// The legal moves of the current position (none once the game is over), the capture search
    /// bounded by the route budget ([`crate::engine::ROUTE_BUDGET`]): every legal move, or
    /// [`TooManyRoutes`] when the rules allow more capture routes here than the budget. There is
    /// no unbounded variant: positions come from users.
    pub fn try_legal_moves(&self) -> Result<Vec<Move>, TooManyRoutes> {
        if self.automatic_draw().is_some() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        self.rules
            .try_generate_narrowest(self.position(), &mut out, GenOptions::default())?;
        Ok(out)
    }

    /// Play a move (which must be one of [`Game::try_legal_moves`]).
    pub fn play(&mut self, mv: Move) {
        let next = self.rules.play(self.position(), &mv);
        self.positions.push(next);
        self.moves.push(mv);
        self.undone.clear();
    }

    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.undone.push(mv);
        Some(mv)
    }

    /// The moves taken back by `undo`, in the order `redo` replays them.
    pub fn ahead(&self) -> Vec<Move> {
        self.undone.iter().rev().copied().collect()
    }

    /// Make `moves` the ones `redo` replays next, in this order (they must be legal in turn).
    pub fn set_ahead(&mut self, moves: &[Move]) {
        self.undone = moves.iter().rev().copied().collect();
    }

    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.undone.pop()?;
        let next = self.rules.play(self.position(), &mv);
        self.positions.push(next);
        self.moves.push(mv);
        Some(mv)
    }

    /// How often the current position has occurred (with the same side to move), if that reaches the
    /// variant's repetition draw.
    fn repetition(&self) -> Option<u8> {
        let n = self.rules.spec.game.repetition_draw;
        if n == 0 {
            return None;
        }
        let cur = self.position();
        let count = self
            .positions
            .iter()
            .filter(|p| p.same_placement(cur))
            .count();
        (count >= n as usize).then_some(count.min(255) as u8)
    }

    /// A draw that ends the game by itself: repetition (unless it must be claimed) or a
    /// move-count rule (likewise).
    fn automatic_draw(&self) -> Option<EndReason> {
        if !self.rules.spec.game.repetition_claimed {
            if let Some(n) = self.repetition() {
                return Some(EndReason::Repetition(n));
            }
        }
        self.rules
            .move_count_reached(self.position(), false)
            .map(|(i, _)| EndReason::MoveCount(i as u8))
    }

    /// A draw the player to move may claim (`… if claimed`); the game goes on unless it is
    /// claimed. `None` once the game is over.
    pub fn claimable_draw(&self) -> Option<EndReason> {
        if self.result().is_some() {
            return None;
        }
        if self.rules.spec.game.repetition_claimed {
            if let Some(n) = self.repetition() {
                return Some(EndReason::Repetition(n));
            }
        }
        self.rules
            .move_count_reached(self.position(), true)
            .map(|(i, _)| EndReason::MoveCount(i as u8))
    }

    /// The game's result, if it is over.
    pub fn result(&self) -> Option<Outcome> {
        if let Some(o) = self.rules.material_outcome(self.position()) {
            return Some(o);
        }
        if let Some(reason) = self.automatic_draw() {
            return Some(Outcome {
                winner: None,
                reason,
            });
        }
        // Only whether a move exists matters: no capture search, so no budget to run out of.
        let legal = self.rules.has_moves(self.position()) as usize;
        self.rules.outcome(self.position(), legal)
    }

    /// A sentence for the result: "white wins: black has no legal move", "draw: …", or whose turn.
    pub fn describe_result(&self) -> String {
        let spec = &self.rules.spec;
        let side = |s: usize| spec.sides[s].name.clone();
        let piece = |k: u8| spec.pieces[k as usize].name.clone();
        let why = |reason: EndReason| match reason {
            EndReason::Repetition(n) => format!("the position occurred {n} times"),
            EndReason::MoveCount(i) => crate::engine::draws::move_count_words(
                spec,
                &spec.game.move_count_draws[i as usize],
            ),
            _ => String::new(),
        };
        match self.result() {
            None => match self.claimable_draw() {
                Some(reason) => format!(
                    "{} to move; a draw may be claimed: {}",
                    side(self.position().turn()),
                    why(reason)
                ),
                None => format!("{} to move", side(self.position().turn())),
            },
            Some(o) => {
                let head = match o.winner {
                    Some(w) => format!("{} wins", side(w)),
                    None => "draw".to_string(),
                };
                let loser = o.winner.map(|w| side(1 - w)).unwrap_or_default();
                let why = match o.reason {
                    EndReason::NoMoves => match o.winner {
                        // The aim reversed: the side to move has no move and wins.
                        Some(w) if w == self.position().turn() => {
                            format!("{} has no legal move left (the aim is reversed)", side(w))
                        }
                        Some(_) => format!("{loser} has no legal move"),
                        None => "no legal move".into(),
                    },
                    EndReason::FirstKind(k) => {
                        let w = o.winner.map(side).unwrap_or_default();
                        format!("{w} has the first {}", piece(k))
                    }
                    EndReason::Reached => {
                        let w = o.winner.map(side).unwrap_or_default();
                        format!("{w} reached its goal")
                    }
                    EndReason::LoneWins(w, l) => {
                        format!("lone {} against lone {}", piece(w), piece(l))
                    }
                    EndReason::LoneDraws(a, b) => {
                        format!("lone {} against lone {}", piece(a), piece(b))
                    }
                    EndReason::LostKind(k) => format!("{loser} has no {} left", piece(k)),
                    EndReason::Repetition(_) | EndReason::MoveCount(_) => why(o.reason),
                };
                format!("{head}: {why}")
            }
        }
    }
}
