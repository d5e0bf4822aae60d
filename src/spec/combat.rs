//! Declared single combat (`lone pieces of equal rank [below the highest] may declare single
//! combat`): when each side is down to one piece and the two are of one rank, the side to move may
//! declare a combat with its move; from then on every quiet move must bring the mover nearer to
//! the enemy piece, until one takes the other.

use serde::{Deserialize, Serialize};

/// The rule as the file states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatSpec {
    /// `below the highest`: two lone pieces of the highest rank may not declare it (their game
    /// is usually a draw of its own, `lone king against lone king draws`).
    pub below_highest: bool,
}

impl CombatSpec {
    /// Whether two lone pieces of ranks `a` and `b` may declare combat, the variant's highest
    /// rank being `highest`.
    pub fn allows(&self, a: u8, b: u8, highest: u8) -> bool {
        a == b && (!self.below_highest || a < highest)
    }
}
