//! Draws examined: each drawn game of a run put in one class (how it was drawn) and flagged
//! *shuffling* when it ended by repeating a quiet position with the material level.
//!
//! A repetition draw is *with progress* when a piece of a promoting kind (a man) moved since the
//! last irreversible point (the last capture or promotion, or the start): the men were still
//! moving when the position came round again. It is *without progress* when only pieces that do
//! not promote (kings) moved since then. The endgame tables' class takes a draw in which the
//! first position of a material the tables hold was a draw by them (`--tables`).

use super::{End, GameRecord};
use crate::engine::{BitSet, Position, Rules};
use serde::{Deserialize, Serialize};

/// How a drawn game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawClass {
    /// A repetition with a man moved since the last capture or promotion.
    RepetitionProgress,
    /// A repetition with only kings moved since the last capture or promotion.
    RepetitionStill,
    /// A move-count rule of the variant.
    MoveCount,
    /// A material rule.
    Material,
    /// The `--max-plies` cap.
    Cap,
    /// The endgame tables called the game's first position of their materials a draw, and it was.
    Table,
    /// The side to move had no move and the rules call that a draw.
    NoMoves,
}

pub const CLASSES: [DrawClass; 7] = [
    DrawClass::RepetitionProgress,
    DrawClass::RepetitionStill,
    DrawClass::MoveCount,
    DrawClass::Material,
    DrawClass::Cap,
    DrawClass::Table,
    DrawClass::NoMoves,
];

impl DrawClass {
    pub fn label(self) -> &'static str {
        match self {
            DrawClass::RepetitionProgress => "repetition with progress",
            DrawClass::RepetitionStill => "repetition without progress",
            DrawClass::MoveCount => "move-count rule",
            DrawClass::Material => "material rule",
            DrawClass::Cap => "length cap",
            DrawClass::Table => "endgame table",
            DrawClass::NoMoves => "no legal move",
        }
    }
}

/// The kinds (bit mask) that promote: the men of a variant, whatever they are called.
pub fn promoting_kinds<B: BitSet>(rules: &Rules<B>) -> u32 {
    rules
        .spec
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.promotions.is_empty())
        .fold(0, |m, (k, _)| m | (1 << k))
}

/// Whether both sides have as many pieces of each kind in `pos`.
pub fn level<B: BitSet>(rules: &Rules<B>, pos: &Position<B>) -> bool {
    (0..rules.spec.pieces.len()).all(|k| pos.kind_bits(0, k).count() == pos.kind_bits(1, k).count())
}

/// Class a game that just ended in `pos` (its record's end and winner set); `progress`: a man
/// moved since the last capture or promotion.
pub fn classify<B: BitSet>(
    rules: &Rules<B>,
    pos: &Position<B>,
    rec: &mut GameRecord,
    progress: bool,
) {
    if rec.w != -1 {
        return;
    }
    rec.draw = Some(match rec.end {
        End::Repetition if progress => DrawClass::RepetitionProgress,
        End::Repetition => DrawClass::RepetitionStill,
        End::MoveCount => DrawClass::MoveCount,
        End::Material => DrawClass::Material,
        End::Cap => DrawClass::Cap,
        End::NoMoves => DrawClass::NoMoves,
    });
    rec.shuffle = rec.end == End::Repetition && !rules.has_capture(pos) && level(rules, pos);
}

/// The draws of a run by class, every class (zeros too), and the shuffling draws.
pub fn count(games: &[GameRecord]) -> (Vec<(DrawClass, u64)>, u64) {
    let classes = CLASSES
        .iter()
        .map(|&c| (c, games.iter().filter(|g| g.draw == Some(c)).count() as u64))
        .collect();
    (classes, games.iter().filter(|g| g.shuffle).count() as u64)
}

/// The report's line of draw classes (`None` when there is no classed draw).
pub fn line(classes: &[(DrawClass, u64)], shuffling: u64) -> Option<String> {
    let cells: Vec<String> = classes
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(d, c)| format!("{} {c}", d.label()))
        .collect();
    if cells.is_empty() {
        return None;
    }
    Some(format!(
        "draws by class   {}; shuffling (quiet, level repetition) {shuffling}",
        cells.join(", ")
    ))
}

/// For `#[serde(skip_serializing_if)]` of [`GameRecord::shuffle`].
pub(crate) fn is_false(b: &bool) -> bool {
    !b
}
