//! The syntax tree of a rules file: what was written, with byte spans, nothing resolved yet.

use miette::SourceSpan;

/// A byte range in the rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Span> for SourceSpan {
    fn from(s: Span) -> Self {
        SourceSpan::new(s.start.into(), s.end.saturating_sub(s.start))
    }
}

/// A value with the span of the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

pub type Name = Spanned<String>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesFile {
    pub statements: Vec<Statement>,
    /// Byte offset of the end of the text (where "missing section" errors point).
    pub end: usize,
}

/// One top-level statement; `span` covers its leading keyword (or name), where "defined twice"
/// errors point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub span: Span,
    pub kind: StatementKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementKind {
    Variant(Name),
    Board(BoardDecl),
    Sides(SidesDecl),
    Piece(PieceDecl),
    Setup(Vec<Placement>),
    Captures(Vec<Spanned<CaptureRule>>),
    Game(Vec<Spanned<GameRule>>),
    /// `placement: 2 pieces a turn, not on c3` (see `check::placement`).
    Placement(Vec<Spanned<PlacementRule>>),
    Moves(MovesDecl),
}

/// One rule of a `placement:` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementRule {
    /// `N pieces a turn`: the number as written.
    PerTurn(u64),
    /// `not on c3, d4`: squares where no piece is placed.
    NotOn(Vec<SquareRange>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardDecl {
    /// Width and height as written (may be out of range; checked later); for a hexagon, its
    /// side twice, with the span of `hexagon N`.
    pub size: Spanned<(u64, u64)>,
    /// `hexagon N` rather than `WxH`.
    pub hexagon: bool,
    /// `cells` after the size (`5x6 cells`): the size counts cells, not points.
    pub cells: Option<Span>,
    /// The forms after the size, in the order written.
    pub forms: Vec<Spanned<BoardForm>>,
}

/// One form of a `board` line after its size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardForm {
    AllSquares,
    DarkSquares,
    AllPoints,
    /// `corners and centres`: the corners of a grid's cells and the crossings of their diagonals.
    CornersAndCentres,
    /// `a1 light` (true) or `a1 dark` (false).
    A1Light(bool),
    AlquerqueLines,
    /// `orthogonal moves across light squares`.
    OrthogonalAcrossLight,
    Without(Vec<SquareRange>),
    Numbered(bool),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidesDecl {
    pub sides: [(Name, Spanned<String>); 2],
    /// `<side> moves first`, each time it is written.
    pub first: Vec<Name>,
    /// `forward is diagonal` (true) / `forward is straight` (false), each time it is written.
    pub forward_diagonal: Vec<Spanned<bool>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDecl {
    pub name: Name,
    pub letter: Spanned<String>,
    pub rank: Option<Spanned<u64>>,
    pub value: Option<Spanned<u64>>,
}

/// `white man a1..h1, b2`, or `white man 12 in hand` (`squares` empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub side: Name,
    pub piece: PieceRef,
    pub squares: Vec<SquareRange>,
    /// `12 in hand`: the number as written, with the span of the whole `12 in hand`.
    pub in_hand: Option<Spanned<u64>>,
}

/// A reference to a kind of piece: a name (singular or plural) or `piece`/`pieces` for all kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceRef {
    Any(Span),
    Named(Name),
}

/// A square as written: `a1` or `31`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareText {
    Algebraic { file: u8, rank: u64 },
    Number(u64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareRange {
    pub from: Spanned<SquareText>,
    pub to: Option<Spanned<SquareText>>,
}

impl SquareRange {
    pub fn span(&self) -> Span {
        match &self.to {
            Some(t) => self.from.span.to(t.span),
            None => self.from.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesDecl {
    pub piece: Name,
    pub clauses: Vec<Spanned<MoveClause>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveClause {
    Step(Vec<Name>),
    /// `slide DIRS`, optionally `up to N`.
    Slide {
        dirs: Vec<Name>,
        range: Option<Spanned<u64>>,
    },
    Leap {
        max: Option<Spanned<u64>>,
        over: PieceRef,
        dirs: Vec<Name>,
    },
    Capture {
        kind: CaptureKind,
        dirs: Vec<Name>,
        /// `up to N`.
        range: Option<Spanned<u64>>,
        /// `landing directly behind [when the last piece taken is a PIECE]`.
        landing: Option<Spanned<LandingText>>,
        /// `in one line`: the piece's multi-capture keeps the direction of its first jump.
        one_line: Option<Span>,
        /// `turning at the edge` (after `in one line`): a jump that ends its line at the board's
        /// edge may be followed by one in another direction.
        edge_turn: Option<Span>,
        /// `leaping a row of adjacent pieces` (flying captures): one jump may take an unbroken
        /// row of enemy pieces on its line and land beyond the last.
        row_leap: Option<Span>,
        /// `after one empty square`: a short jump at a fixed gap.
        gap: Option<Span>,
    },
    Promote {
        to: PieceRef,
        zone: ZoneText,
    },
    /// `at most 3 quiet moves in a row while own men remain`
    QuietLimit {
        max: Spanned<u64>,
        while_own: PieceRef,
    },
}

/// How a `capture` clause takes: by a short jump, a long (flying) jump, or a step that takes by
/// approach or by withdrawal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureKind {
    Jump,
    Fly,
    Approach,
    Withdrawal,
}

/// `landing directly behind`, optionally only `when the last piece taken is a PIECE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LandingText {
    pub last_of: Option<PieceRef>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZoneText {
    /// `far rank`, with its span.
    FarRank(Span),
    EnemyStart(PieceRef),
    Squares(Vec<SquareRange>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptureRule {
    Compulsory(bool),
    RemovedImmediately(bool),
    No180Turn,
    /// `no return to a visited square` (or `point`).
    NoRevisit,
    /// `no two steps in one direction`.
    NoSameDirection,
    EqualOrLowerRank,
    MidCapture(MidCaptureText),
    /// `may stop after any jump`.
    MayStop,
    /// `single jump` (`single step`): a capture is one jump and never goes on.
    SingleJump,
    /// `huffing`; `true` for `huffing of smaller captures` (a capture taking fewer pieces than
    /// the most available may be huffed too).
    Huffing(bool),
    /// `take top`: pieces stack into columns; a capture takes the jumped column's top piece.
    TakeTop,
    Priority(Vec<Spanned<CriterionText>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MidCaptureText {
    AtEnd,
    Continues,
    Stops,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CriterionText {
    Free,
    MostPieces,
    MostValue,
    HighestCapturer,
    HighestCapturedRanks,
    MostOf(PieceRef),
    EarliestOf(PieceRef),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameRule {
    NoMovesLoses,
    /// `no moves wins`: the aim reversed.
    NoMovesWins,
    /// `first <piece> wins`: a side that has a piece of this kind wins at once.
    FirstWins(PieceRef),
    /// `reaching <zone> wins`: a side with a piece on its zone wins at once.
    ReachWins(ZoneText),
    /// `lone pieces of equal rank [below the highest] may declare single combat`.
    Combat {
        below_highest: bool,
    },
    LoneBeats(PieceRef, PieceRef),
    /// `lone A against lone B draws`.
    LoneDraws(PieceRef, PieceRef),
    LoseWithout(PieceRef),
    /// `draw on 3rd repetition [if claimed]`; the number as written.
    Repetition(Spanned<u64>, bool),
    NoRepetition,
    /// `draw after N moves [each] without … [with … against …] [if claimed]`.
    MoveCount(MoveCountText),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCountText {
    pub moves: Spanned<u64>,
    pub each: bool,
    /// `without capture or man move`: `None` for `capture`, else the piece whose moves reset.
    pub resets: Vec<Spanned<Option<PieceRef>>>,
    /// `with 3 kings or 2 kings and 1 man against 1 king`: the stronger side's forces, then the
    /// weaker side's; each force a list of (count, piece).
    pub material: Option<(Vec<ForceText>, ForceText)>,
    pub claimed: bool,
}

pub type ForceText = Vec<(Spanned<u64>, PieceRef)>;
