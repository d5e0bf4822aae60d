//! How a game ends: by the position alone (material rules), by having no move, by repetition.

use super::bits::BitSet;
use super::position::Position;
use super::rules::Rules;

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move has no legal move (or no pieces).
    NoMoves,
    /// A side's lone piece of one kind beats the other side's lone piece of another: (winner kind,
    /// loser kind).
    LoneWins(u8, u8),
    /// A lone piece of one kind against a lone piece of another (or the same): a draw.
    LoneDraws(u8, u8),
    /// A side has no piece of this kind left.
    LostKind(u8),
    /// A side has a piece of this kind (`first king wins`): the winner's goal.
    FirstKind(u8),
    /// A side has a piece on its goal (`reaching far rank wins`).
    Reached,
    /// The same position occurred this many times with the same side to move.
    Repetition(u8),
    /// A move-count draw rule (its index in the variant's rules) reached its count.
    MoveCount(u8),
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub reason: EndReason,
}

impl<B: BitSet> Rules<B> {
    /// The outcome a position has by the material rules alone, whatever its moves.
    pub fn material_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let game = &self.spec.game;
        // A lone piece against a lone piece: one test for every rule.
        let lone = !(game.lone_wins.is_empty() && game.lone_draws.is_empty())
            && pos.sides[0].is_single()
            && pos.sides[1].is_single();
        for &(win, lose) in game.lone_wins.iter().filter(|_| lone) {
            for side in 0..2 {
                let mine = pos.sides[side];
                let theirs = pos.sides[1 - side];
                if (pos.kinds[win as usize] & mine).any()
                    && (pos.kinds[lose as usize] & theirs).any()
                {
                    return Some(Outcome {
                        winner: Some(side),
                        reason: EndReason::LoneWins(win, lose),
                    });
                }
            }
        }
        for &(a, b) in game.lone_draws.iter().filter(|_| lone) {
            let has = |side: usize, kind: u8| (pos.kinds[kind as usize] & pos.sides[side]).any();
            if (has(0, a) && has(1, b)) || (has(0, b) && has(1, a)) {
                return Some(Outcome {
                    winner: None,
                    reason: EndReason::LoneDraws(a, b),
                });
            }
        }
        // A goal: the side that just moved is judged first (it is the one that reached it).
        if !(game.first_wins.is_empty() && game.reach_wins.is_empty()) {
            if let Some(o) = self.goal_outcome(pos) {
                return Some(o);
            }
        }
        for &kind in &game.lose_without {
            // The side to move is judged first: if both have lost the kind, the mover's loss stands.
            for side in [pos.turn(), 1 - pos.turn()] {
                if pos.kind_bits(side, kind as usize).none() && pos.hand[side][kind as usize] == 0 {
                    return Some(Outcome {
                        winner: Some(1 - side),
                        reason: EndReason::LostKind(kind),
                    });
                }
            }
        }
        None
    }

    /// A side that has reached a goal (`first king wins`, `reaching far rank wins`) has won.
    #[cold]
    #[inline(never)]
    fn goal_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let game = &self.spec.game;
        for side in [1 - pos.turn(), pos.turn()] {
            for &kind in &game.first_wins {
                if pos.kind_bits(side, kind as usize).any() {
                    return Some(Outcome {
                        winner: Some(side),
                        reason: EndReason::FirstKind(kind),
                    });
                }
            }
            if (pos.sides[side] & self.goal[side]).any() {
                return Some(Outcome {
                    winner: Some(side),
                    reason: EndReason::Reached,
                });
            }
        }
        None
    }

    /// The outcome of a position, given the number of legal moves it has (repetition aside).
    pub fn outcome(&self, pos: &Position<B>, legal_moves: usize) -> Option<Outcome> {
        if let Some(o) = self.material_outcome(pos) {
            return Some(o);
        }
        (legal_moves == 0 && self.spec.game.no_moves_loses)
            .then(|| Outcome {
                winner: Some(1 - pos.turn()),
                reason: EndReason::NoMoves,
            })
            .or_else(|| {
                // The aim reversed: the side that cannot move (or has no pieces) wins.
                (legal_moves == 0 && self.spec.game.no_moves_wins).then(|| Outcome {
                    winner: Some(pos.turn()),
                    reason: EndReason::NoMoves,
                })
            })
            .or_else(|| {
                // A variant may say that having no move is not a loss: then it is a draw.
                (legal_moves == 0).then_some(Outcome {
                    winner: None,
                    reason: EndReason::NoMoves,
                })
            })
    }
}
