//! The checked description of a variant: what a rules file says, resolved and validated, but not yet
//! compiled into tables. The language stage (`crate::lang`) produces it; the engine
//! (`crate::engine::compile`) turns it into move-generation tables. Plain data, serialisable, so
//! `damelab compile --dump` can print it.

use serde::{Deserialize, Serialize};

pub(crate) mod board;
pub mod combat;
pub(crate) mod forms;
pub mod placement;

pub use placement::PlacementSpec;

/// The most piece kinds a variant may declare (the position keeps one bit set per kind).
pub const MAX_KINDS: usize = 4;

/// An absolute compass direction, as seen by the first side: 0 = north (up the files), then
/// clockwise: 1 = north-east, 2 = east, … 7 = north-west. The opposite of `d` is `(d + 4) % 8`.
pub type Angle = u8;

/// The compass name of each angle, north first, clockwise (as the first side sees the board).
pub const ANGLE_NAMES: [&str; 8] = [
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
];

/// A set of [`Angle`]s as a bit mask (bit `d` set = direction `d` included).
pub type AngleSet = u8;

/// The four orthogonal angles (north, east, south, west), whichever side moves.
pub const ORTHOGONAL_ANGLES: AngleSet = 0b0101_0101;
/// The four diagonal angles (north-east, south-east, south-west, north-west).
pub const DIAGONAL_ANGLES: AngleSet = 0b1010_1010;

/// A square as (file, rank), both from 0, as seen by the first side (`a1` = (0, 0)).
pub type Coord = (u8, u8);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantSpec {
    /// Short name (`dameo`), from the file name or the `variant` line.
    pub name: String,
    /// Title as written on the `variant` line.
    pub title: String,
    pub board: BoardSpec,
    /// The two sides in declaration order; `sides[0]` is the side whose view the squares use.
    pub sides: [SideSpec; 2],
    /// Index into `sides` of the side that moves first.
    pub first_to_move: u8,
    /// Pieces in declaration order; the first is the "default" piece of the FEN (unprefixed squares).
    pub pieces: Vec<PieceSpec>,
    /// Start position: per side, (piece index, square).
    #[serde(with = "crate::spec::forms::setup")]
    pub setup: [Vec<(u8, Coord)>; 2],
    pub captures: CaptureSpec,
    pub game: GameSpec,
    /// The first side's forward direction (0 = north; 1 = north-east with `forward is diagonal`).
    /// Directions in the spec are already absolute; this is kept to describe them back.
    #[serde(default, with = "crate::spec::forms::angle")]
    pub forward: Angle,
    /// Pieces in hand and the placement phase that puts them on the board (`None`: every
    /// piece starts on the board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementSpec>,
}

/// A board: a set of points, each with the lines (directions) that pass through it. The points
/// sit on a rectangle of `width` x `height` coordinates; `shape`, `squares` and `removed` say
/// which of them exist, `lines` which directions have a line through each (see
/// [`crate::spec::board`] for the rules, shared by the checker and the geometry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpec {
    /// On a hexagon of side N: 2N-1 (the rectangle of its axial coordinates).
    pub width: u8,
    pub height: u8,
    pub squares: SquareSet,
    pub notation: Notation,
    /// The outline: a rectangle, or a hexagon embedded in the rectangle.
    #[serde(default, skip_serializing_if = "Shape::is_rectangle")]
    pub shape: Shape,
    /// Which lines pass through which points.
    #[serde(default, skip_serializing_if = "Lines::is_every_point")]
    pub lines: Lines,
    /// Points of the outline that are not on the board (`without d4, e5`).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::spec::forms::squares"
    )]
    pub removed: Vec<Coord>,
    /// The points are drawn as the crossings of lines (`all points`), not as squares.
    #[serde(default, skip_serializing_if = "is_false")]
    pub points: bool,
    /// `orthogonal moves across light squares` (a dark-squares board): quiet moves may go
    /// orthogonally, to the next dark square of the file or rank, across the light one between.
    #[serde(default, skip_serializing_if = "is_false")]
    pub orthogonal_across: bool,
}

/// The outline of a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Every coordinate of the `width` x `height` rectangle.
    #[default]
    Rectangle,
    /// A regular hexagon of cells, side `(width + 1) / 2`, in axial coordinates: the cells
    /// (file, rank) of the `width` x `width` rectangle with |file - rank| < side. Its six lines
    /// run along the files, the ranks and the a1-to-top-right diagonal; the board is drawn with
    /// that diagonal upright (see `docs/language.md`). The spec's angles stay the lattice's: the
    /// drawn north is the lattice's north-east ([`BoardSpec::compass_name`]).
    Hexagon,
}

impl Shape {
    pub fn is_rectangle(&self) -> bool {
        *self == Shape::Rectangle
    }
}

/// Which lines pass through the points of a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lines {
    /// Every direction of the shape through every point.
    #[default]
    EveryPoint,
    /// The alquerque pattern: orthogonal lines through every point, diagonal lines only through
    /// the points whose file + rank is even (`a1`, `c1`, `b2`, …).
    Alquerque,
    /// A grid of cells drawn with both diagonals of every cell (`corners and centres`): on a
    /// dark-squares lattice of (2w + 1) x (2h + 1) for w x h cells, the corners of the cells are
    /// the points of even file and rank, the centres those of odd file and rank. Diagonal lines
    /// pass through every point (corner, centre, corner, …); orthogonal lines, the grid's own,
    /// only through the corners, one step reaching the next corner.
    CornersAndCentres,
}

impl Lines {
    pub fn is_every_point(&self) -> bool {
        *self == Lines::EveryPoint
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SquareSet {
    /// Every square is playable.
    All,
    /// Only the dark squares, `a1` dark (file + rank even).
    Dark,
    /// Only the dark squares of a board with `a1` light (file + rank odd).
    DarkA1Light,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Notation {
    /// `a1`, `h8`, `j10`.
    Algebraic,
    /// Playable squares numbered 1.. from the top-left as the first side sees the board.
    Numbered,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSpec {
    pub name: String,
    /// The letter used in FEN (`W`, `B`, `R`).
    pub letter: char,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceSpec {
    pub name: String,
    /// The letter used in FEN and in board diagrams (`M`, `K`, `P`, `D`, `I`).
    pub letter: char,
    /// Rank for rank-based rules (capture restrictions, priority); 1 when not declared.
    pub rank: u8,
    /// Value for value-based priority; 1 when not declared.
    pub value: u8,
    pub quiet: Vec<QuietOp>,
    pub captures: Vec<CaptureOp>,
    pub promotions: Vec<PromotionSpec>,
    /// At most this many quiet moves in a row by the same piece of this kind (Frisian kings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet_limit: Option<QuietLimit>,
    /// `in one line`: every jump of this piece's multi-capture goes the way its first jump went
    /// (no turn between captures, not even through 180°).
    #[serde(default, skip_serializing_if = "is_false")]
    pub one_line: bool,
    /// `in one line, turning at the edge`: as `one_line`, except that after a jump whose line
    /// ends at the board's edge (no next square that way from the landing) the next jump may go
    /// in any of the piece's capture directions but straight back.
    #[serde(default, skip_serializing_if = "is_false")]
    pub edge_turn: bool,
    /// `leaping a row of adjacent pieces`: a flying jump may leap an unbroken row of enemy pieces
    /// standing side by side on its line (each it may take), taking them all, and land beyond the
    /// last.
    #[serde(default, skip_serializing_if = "is_false")]
    pub row_leap: bool,
}

/// `at most N quiet moves in a row while own PIECES remain`: a piece of this kind may make at most
/// `max` non-capturing moves in a row (its side's moves; any other move of that side starts the
/// count again), as long as its side still has a piece of a kind in `while_own`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietLimit {
    pub max: u8,
    /// Bit mask of own piece kinds whose presence makes the limit apply.
    pub while_own: u8,
}

/// A non-capturing move operation. Directions are absolute for the first side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuietOp {
    /// One square to an empty square.
    Step {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
    },
    /// Any number of squares over empty squares (at most `range` when given: `up to N`).
    Slide {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range: Option<u8>,
    },
    /// Over an unbroken file of own pieces of the given kinds (bit mask of piece indices), directly
    /// in front, to the empty square beyond the last of them. `max` limits the file's length
    /// (`None` = any length).
    Leap {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
        over: u8,
        max: Option<u8>,
    },
}

/// A capturing operation. Directions are absolute for the first side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureOp {
    /// Short jump over an adjacent enemy piece to the square directly beyond.
    Jump {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
    },
    /// Short jump at a fixed gap (`after one empty square`): over one empty square and then an
    /// enemy piece, to the square directly beyond it (Maleys).
    GapJump {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
    },
    /// Long (flying) jump: over empty squares, one enemy piece, and any empty square beyond.
    Fly {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
        /// `up to N`: the captured piece at most N squares away, the landing square at most N
        /// squares beyond it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range: Option<u8>,
        /// Where it may land.
        #[serde(default, skip_serializing_if = "Landing::is_anywhere")]
        landing: Landing,
    },
    /// A step to the adjacent empty square that takes the enemy piece next beyond it in the same
    /// direction, and the unbroken line of enemy pieces behind that one (Fanorona's approach).
    Approach {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
    },
    /// A step to the adjacent empty square that takes the enemy piece directly behind the square
    /// it left (opposite the step), and the unbroken line of enemy pieces behind that one
    /// (Fanorona's withdrawal).
    Withdrawal {
        #[serde(with = "crate::spec::forms::dirs")]
        dirs: AngleSet,
    },
}

impl CaptureOp {
    /// A capture by approach or withdrawal (a step that takes a line), not a jump.
    pub fn is_step_capture(&self) -> bool {
        matches!(
            self,
            CaptureOp::Approach { .. } | CaptureOp::Withdrawal { .. }
        )
    }
}

/// Where a flying capture may land beyond the piece it takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Landing {
    /// On any empty square beyond (within the range), by the continuation rule.
    #[default]
    Anywhere,
    /// Always on the square directly behind the captured piece (Thai draughts).
    DirectlyBehind,
    /// Directly behind the captured piece when it is the last piece the move takes and of one of
    /// these kinds (bit mask; Killer draughts: a king).
    BehindLast(u8),
}

impl Landing {
    pub fn is_anywhere(&self) -> bool {
        *self == Landing::Anywhere
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromotionSpec {
    /// Index of the piece it becomes.
    pub to: u8,
    pub zone: Zone,
}

/// Where a piece promotes, as seen by the first side (the compiler turns it for the second side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Zone {
    /// The last rank (from the mover's view).
    FarRank,
    /// Named squares, as seen by the first side.
    Squares(#[serde(with = "crate::spec::forms::squares")] Vec<Coord>),
    /// The squares where the enemy's pieces of this kind (index) stand in the start position.
    EnemyStart(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureSpec {
    pub compulsory: bool,
    pub removal: Removal,
    /// The capturing piece may not reverse direction between two jumps.
    pub no_180_turn: bool,
    /// Approach and withdrawal captures: the capturing piece never returns to a square it has stood
    /// on this turn (its starting square included).
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_revisit: bool,
    /// Approach and withdrawal captures: no two steps in a row in one direction.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_same_direction: bool,
    /// A piece may capture only enemy pieces of equal or lower rank.
    pub equal_or_lower_rank_only: bool,
    /// What a piece does on reaching its promotion zone in the middle of a capture.
    pub mid_capture_promotion: MidCapturePromotion,
    /// `may stop after any jump`: continuing a capture is optional; the capture may end after any
    /// of its jumps (each such stop is a move of its own).
    #[serde(default, skip_serializing_if = "is_false")]
    pub may_stop: bool,
    /// `single jump`: a capture is one jump (one step by approach or withdrawal) and ends there,
    /// whatever it could take next.
    #[serde(default, skip_serializing_if = "is_false")]
    pub single_jump: bool,
    /// `huffing`: a player who has a capture due may play a quiet move instead; the opponent may
    /// then remove (huff) one of the pieces that could have captured, together with its own move.
    #[serde(default, skip_serializing_if = "is_false")]
    pub huffing: bool,
    /// `huffing of smaller captures`: besides, a capture that takes fewer pieces than the most
    /// available leaves the piece that made it (on its landing square) open to a huff; any
    /// capture may be played, the captures of the most pieces are the due ones.
    #[serde(default, skip_serializing_if = "is_false")]
    pub huffing_smaller: bool,
    /// `take top`: pieces stack into columns. A capture does not remove the jumped piece: it takes
    /// the top piece of the jumped column and puts it under the capturing column; a column's top
    /// piece decides who owns it and how it moves (see `engine::stacks`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub stacks: bool,
    /// Ordered lexicographic criteria; empty = free choice among all complete sequences.
    pub priority: Vec<Criterion>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Removal {
    Immediate,
    EndOfTurn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MidCapturePromotion {
    /// It goes on as it is and promotes only if the move ends in the zone.
    AtEnd,
    /// It promotes at once and goes on capturing as the new piece.
    Continue,
    /// It promotes at once and the move ends there.
    Stop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    /// Most pieces captured.
    MostPieces,
    /// Highest total value captured.
    MostValue,
    /// The capture made by the highest-ranked piece.
    HighestCapturer,
    /// Compare the captured pieces rank by rank, highest rank first: most of the highest rank, then…
    HighestCapturedRanks,
    /// Most pieces of this kind (index) captured.
    MostOf(u8),
    /// Pieces of this kind (index) captured earliest in the sequence.
    EarliestOf(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    /// The side to move with no legal move loses (true in every bundled variant).
    pub no_moves_loses: bool,
    /// (winner's piece, loser's piece): a side whose only piece is of the first kind beats a side
    /// whose only piece is of the second kind.
    pub lone_wins: Vec<(u8, u8)>,
    /// (piece, piece): a side whose only piece is of one kind against a side whose only piece is
    /// of the other draws at once (`lone king against lone king draws`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lone_draws: Vec<(u8, u8)>,
    /// A side with no piece of this kind (index) loses.
    pub lose_without: Vec<u8>,
    /// The aim reversed (`no moves wins`): the side to move with no legal move (or no pieces)
    /// wins. `no_moves_loses` is then false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_moves_wins: bool,
    /// `first king wins`: a side that has a piece of one of these kinds (indices) wins at once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_wins: Vec<u8>,
    /// `reaching far rank wins`: a side with a piece on one of these zones (each side's own, as
    /// a promotion zone is) wins at once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reach_wins: Vec<Zone>,
    /// Draw when a position occurs for the n-th time with the same side to move (0 = never).
    pub repetition_draw: u8,
    /// The repetition draw is not automatic: a player may claim it, and play goes on otherwise.
    #[serde(default, skip_serializing_if = "is_false")]
    pub repetition_claimed: bool,
    /// Move-count draws, in file order (at most [`MAX_MOVE_COUNT_RULES`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_count_draws: Vec<MoveCountDraw>,
    /// `lone pieces of equal rank … may declare single combat` (see [`combat`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<combat::CombatSpec>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The most move-count draw rules a variant may have (a position keeps one counter per rule).
/// Three, the most any known variant has (international, Canadian, Malaysian, Sri Lankan): with
/// the set of pieces open to a huff, a position of 64 bits then stays within 64 bytes.
pub const MAX_MOVE_COUNT_RULES: usize = 3;

/// `draw after N moves [each] without … [with … against …] [if claimed]`: the game is drawn when
/// `plies` single moves (either side's) have been played since the last reset — a capture (with
/// `reset_on_capture`) or a move of a piece of a kind in `reset_on_move_of` — while the material,
/// when given, holds all along (the count starts again when it begins to hold).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveCountDraw {
    /// N as written.
    pub moves: u8,
    /// `N moves each`: N moves of each side (2N single moves); else N single moves.
    pub each: bool,
    pub reset_on_capture: bool,
    /// Bit mask of piece kinds whose moves reset the count.
    pub reset_on_move_of: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
    /// A player may claim the draw; play goes on otherwise.
    #[serde(default, skip_serializing_if = "is_false")]
    pub claimed: bool,
}

impl MoveCountDraw {
    /// The limit in single moves.
    pub fn plies(&self) -> u16 {
        self.moves as u16 * if self.each { 2 } else { 1 }
    }
}

/// `with 3 kings or 2 kings and 1 man against 1 king`: one side has exactly one of `strong` and
/// the other exactly `weak`. Each force counts pieces per kind (index = piece index).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Material {
    pub strong: Vec<Vec<u8>>,
    pub weak: Vec<u8>,
}
