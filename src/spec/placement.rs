//! A placement phase: pieces in hand at the start, placed on the board a few at a turn before
//! they move (`setup white man 12 in hand`, `placement: 2 pieces a turn, not on c3`).

use serde::{Deserialize, Serialize};

use super::Coord;

/// The most pieces one drop places (`N pieces a turn`): a drop's squares are its route, and a
/// route of a board of 64 points holds at least this many.
pub const MAX_DROP: u8 = 8;

/// The most pieces of one kind a side may hold in hand (a position keeps a byte a count).
pub const MAX_HAND: u8 = 200;

/// The checked placement rules: who holds what in hand, how many pieces a turn places, where
/// none may be placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementSpec {
    /// Per side, per kind (in declaration order), the pieces in hand at the start.
    pub hand: [Vec<u8>; 2],
    /// The pieces a drop places (fewer when fewer are left in hand or there are fewer empty
    /// squares to place them on).
    pub per_turn: u8,
    /// Squares on which no piece is placed (moves may still go there).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::spec::forms::squares"
    )]
    pub not_on: Vec<Coord>,
}
