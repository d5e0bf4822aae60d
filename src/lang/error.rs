//! The errors a rules file can contain, as miette diagnostics: each has a span, a label and a help
//! line. [`RulesError`] owns the source text and carries every error found in one file;
//! [`RulesWarnings`] does the same for the warnings of a file that loads.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};
use thiserror::Error;

/// One problem in a rules file.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq, Eq)]
pub enum RuleError {
    #[error("expected {expected}, found {found}")]
    #[diagnostic(code(rules::syntax))]
    Syntax {
        expected: String,
        found: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: Option<String>,
    },

    #[error("unknown piece `{name}`")]
    #[diagnostic(code(rules::unknown_piece))]
    UnknownPiece {
        name: String,
        #[label("no piece of this name is declared")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("unknown priority criterion `{text}`")]
    #[diagnostic(code(rules::unknown_criterion))]
    UnknownCriterion {
        text: String,
        #[label("not a criterion")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(code(rules::unknown_word))]
    UnknownWord {
        message: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },

    #[error("unknown side `{name}`")]
    #[diagnostic(code(rules::unknown_side))]
    UnknownSide {
        name: String,
        #[label("not one of the two sides")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("unknown direction `{name}`")]
    #[diagnostic(code(rules::unknown_direction))]
    UnknownDirection {
        name: String,
        #[label("not a direction")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("promotion to undeclared piece `{name}`")]
    #[diagnostic(code(rules::unknown_promotion))]
    PromotionToUnknown {
        name: String,
        #[label("no piece of this name is declared")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("moves for undeclared piece `{name}`")]
    #[diagnostic(code(rules::moves_for_unknown))]
    MovesForUnknown {
        name: String,
        #[label("no piece of this name is declared")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("square `{square}` is off the {width}x{height} board")]
    #[diagnostic(code(rules::off_board))]
    OffBoard {
        square: String,
        width: u8,
        height: u8,
        #[label("off the board")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("square `{square}` is not playable on this board")]
    #[diagnostic(code(rules::not_playable))]
    NotPlayable {
        square: String,
        #[label("a light square; only dark squares are played on")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("`{square}` is not a {what} of this board")]
    #[diagnostic(code(rules::no_such_point))]
    NoSuchPoint {
        square: String,
        what: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },

    #[error("direction `{name}` names no line on this board")]
    #[diagnostic(code(rules::no_line))]
    NoLine {
        name: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },

    #[error("the board is not connected: {message}")]
    #[diagnostic(code(rules::board_not_connected))]
    Disconnected {
        message: String,
        #[label("this board falls apart")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("numbered square `{square}` on a board with algebraic notation")]
    #[diagnostic(code(rules::number_on_algebraic))]
    NumberOnAlgebraic {
        square: String,
        #[label("a square number")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// Every square two lists share, in one diagnostic: `square `d1`` or `squares `a1`, `b1``.
    #[error("two pieces on {squares}")]
    #[diagnostic(code(rules::square_taken))]
    SquareTaken {
        squares: String,
        #[label("first placed here")]
        first: SourceSpan,
        #[label("placed again here")]
        second: SourceSpan,
        #[help]
        help: String,
    },

    /// Every clashing square of a pair of lists, in one diagnostic.
    #[error("the turned setup puts two pieces on {squares}")]
    #[diagnostic(code(rules::turned_setup_clash))]
    TurnedSetupClash {
        squares: String,
        #[label("{own_label}")]
        own: SourceSpan,
        own_label: String,
        #[label("{turned_label}")]
        turned: SourceSpan,
        turned_label: String,
        #[help]
        help: String,
    },

    #[error("the turned setup puts `{side}`'s `{square}` on the light square `{turned_square}`")]
    #[diagnostic(code(rules::turned_onto_light))]
    TurnedOntoLight {
        square: String,
        turned_square: String,
        side: String,
        #[label("turned through 180° for `{other}`, `{square}` lands on `{turned_square}`, a light square")]
        span: SourceSpan,
        other: String,
        #[help]
        help: String,
    },

    #[error(
        "{what} `{name}` goes orthogonally, which a dark-squares board allows only for captures"
    )]
    #[diagnostic(code(rules::orthogonal_quiet_move))]
    OrthogonalQuietMove {
        what: String,
        name: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },

    #[error("{what} defined twice")]
    #[diagnostic(code(rules::defined_twice))]
    DefinedTwice {
        what: String,
        #[label("first defined here")]
        first: SourceSpan,
        #[label("defined again here")]
        second: SourceSpan,
        #[help]
        help: String,
    },

    #[error("missing {what}")]
    #[diagnostic(code(rules::missing))]
    Missing {
        what: String,
        #[label("the file ends without it")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("no `{piece}` in the setup, so this promotion zone is empty")]
    #[diagnostic(code(rules::empty_zone))]
    EmptyZone {
        piece: String,
        #[label("a side starts without any `{piece}`")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("`{criterion}` needs piece ranks, but no piece declares a rank")]
    #[diagnostic(code(rules::needs_ranks))]
    NeedsRanks {
        criterion: String,
        #[label("compares ranks")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("board {width}x{height} is not supported")]
    #[diagnostic(code(rules::board_size))]
    BoardSize {
        width: String,
        height: String,
        #[label("unsupported size")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("letter `{letter}` must be one uppercase letter")]
    #[diagnostic(code(rules::bad_letter))]
    BadLetter {
        letter: String,
        #[label("not a single uppercase letter")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error("letter `{letter}` is used twice")]
    #[diagnostic(code(rules::letter_taken))]
    LetterTaken {
        letter: String,
        #[label("first used here")]
        first: SourceSpan,
        #[label("used again here")]
        second: SourceSpan,
        #[help]
        help: String,
    },

    #[error("{what} `{value}` is out of range")]
    #[diagnostic(code(rules::out_of_range))]
    OutOfRange {
        what: String,
        value: String,
        #[label("must be {range}")]
        span: SourceSpan,
        range: String,
        #[help]
        help: String,
    },

    #[error(
        "`may stop after any jump` with `priority {criterion}`: going on always takes more, so \
         the priority would forbid every stop"
    )]
    #[diagnostic(code(rules::conflict))]
    StopsNeverPlayed {
        criterion: String,
        #[label("a capture may stop after any jump")]
        stop: SourceSpan,
        #[label("but this prefers the longer capture every time")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    #[error(
        "`huffing` with `optional` captures: no capture is ever due, so there is nothing to huff"
    )]
    #[diagnostic(code(rules::conflict))]
    HuffingOptional {
        #[label("capturing is optional here")]
        optional: SourceSpan,
        #[label("but huffing punishes a capture not taken")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// Two clauses that cannot go together, each labelled.
    #[error("{message}")]
    #[diagnostic(code(rules::conflict))]
    Clash {
        message: String,
        #[label("{first_label}")]
        first: SourceSpan,
        first_label: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(code(rules::conflict))]
    Conflict {
        message: String,
        #[label("here")]
        span: SourceSpan,
        #[help]
        help: String,
    },
}

/// A rules file that loads, but probably does not say what its author meant.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq, Eq)]
pub enum RuleWarning {
    #[error("{message}")]
    #[diagnostic(code(rules::unreachable_piece), severity(Warning))]
    UnreachablePiece {
        message: String,
        #[label("declared here")]
        span: SourceSpan,
        #[help]
        help: String,
    },
}

/// One kind of diagnostic a rules file is checked for: its errors, or its warnings.
pub trait FileDiagnostic: Diagnostic + Send + Sync + 'static {
    /// The word for one of them: `error`, `warning`.
    const NOUN: &'static str;
    /// How the whole list renders.
    const SEVERITY: miette::Severity;
}

impl FileDiagnostic for RuleError {
    const NOUN: &'static str = "error";
    const SEVERITY: miette::Severity = miette::Severity::Error;
}

impl FileDiagnostic for RuleWarning {
    const NOUN: &'static str = "warning";
    const SEVERITY: miette::Severity = miette::Severity::Warning;
}

/// Every diagnostic of one kind found in one rules file, with the file's text so they can be
/// rendered. Rendering shows the first [`crate::limits::MAX_DIAGNOSTICS`] and counts the rest, so
/// a file of thousands of errors prints a screenful in linear time. One diagnostic is rendered as
/// the whole report.
#[derive(Debug)]
pub struct FileDiagnostics<D> {
    src: NamedSource<String>,
    items: Vec<D>,
    more: Option<More>,
}

/// Every error found in one rules file.
pub type RulesError = FileDiagnostics<RuleError>;

/// Every warning of one rules file that loads ([`crate::lang::load_with_warnings`] gives `None`
/// for a file without warnings).
pub type RulesWarnings = FileDiagnostics<RuleWarning>;

/// The closing line of a capped list: "… and 4,812 more errors".
#[derive(Debug, Error)]
#[error("{}", crate::limits::more(self.count, self.noun))]
pub struct More {
    count: usize,
    noun: &'static str,
}

impl Diagnostic for More {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("rules::more_errors"))
    }
}

impl<D: FileDiagnostic> FileDiagnostics<D> {
    pub(crate) fn new(file_name: &str, source: &str, items: Vec<D>) -> Self {
        debug_assert!(!items.is_empty());
        let cap = crate::limits::MAX_DIAGNOSTICS;
        FileDiagnostics {
            src: NamedSource::new(file_name, source.to_string()),
            more: (items.len() > cap).then(|| More {
                count: items.len() - cap,
                noun: D::NOUN,
            }),
            items,
        }
    }

    /// The one diagnostic, when there is exactly one: it is then rendered as the whole report.
    fn single(&self) -> Option<&D> {
        match self.items.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }
}

impl RulesError {
    /// The errors, in the order of the file.
    pub fn errors(&self) -> &[RuleError] {
        &self.items
    }
}

impl RulesWarnings {
    /// The warnings, in the order of the file.
    pub fn warnings(&self) -> &[RuleWarning] {
        &self.items
    }
}

impl<D: FileDiagnostic> fmt::Display for FileDiagnostics<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.single() {
            Some(one) => fmt::Display::fmt(one, f),
            None => write!(
                f,
                "{} {}s in rules file `{}`",
                crate::limits::thousands(self.items.len() as u64),
                D::NOUN,
                self.src.name()
            ),
        }
    }
}

impl<D: FileDiagnostic> std::error::Error for FileDiagnostics<D> {}

impl<D: FileDiagnostic> Diagnostic for FileDiagnostics<D> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.single().and_then(|e| e.code())
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(D::SEVERITY)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.single().and_then(|e| e.help())
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.single().and_then(|e| e.labels())
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.single().is_some() {
            None
        } else {
            let shown = self.items.iter().take(crate::limits::MAX_DIAGNOSTICS);
            let more = self.more.iter().map(|m| m as &dyn Diagnostic);
            Some(Box::new(shown.map(|e| e as &dyn Diagnostic).chain(more)))
        }
    }
}
