//! `take top` (pieces stack into columns) against the rest of the file: the capture rules the
//! columns' generator does not combine with it, and the bounds of a column's encoding (see
//! `engine::stacks`).

use super::*;

/// Under `take top`, a position keeps every piece under a column's top in a few bytes: at most
/// this many pieces (tops and prisoners together) in the setup.
pub const MAX_STACKED_PIECES: usize = 25;

/// Under `take top`: at most this many kinds of piece (a prisoner's rank is one bit).
pub const MAX_STACKED_KINDS: usize = 2;

/// Under `take top`: the board's layout indices fit six bits, and one more value marks an empty
/// place: at most this many indices.
pub const MAX_STACKED_LAYOUT: u32 = 63;

impl Checker<'_> {
    /// With `take top`: refuse the clauses that cannot apply to columns (or that the columns'
    /// generator does not combine with them), and the boards, kinds and setups too large for a
    /// column's encoding.
    pub(super) fn stacks(
        &mut self,
        moves: &[&MovesDecl],
        rules: &[Spanned<CaptureRule>],
        pieces: usize,
        board: Option<&BoardSpec>,
        setup: Option<&[Vec<(u8, Coord)>; 2]>,
    ) {
        let Some(top) = rules
            .iter()
            .find(|r| r.node == CaptureRule::TakeTop)
            .map(|r| r.span)
        else {
            return;
        };
        let label = "pieces stack into columns".to_string();
        let clash = |what: &str, why: &str| (what.to_string(), why.to_string());
        for r in rules {
            let found = match &r.node {
                CaptureRule::Huffing(_) => Some(clash(
                    "`huffing`",
                    "a huff removes a piece from the board, and under `take top` no piece ever \
                     leaves it",
                )),
                CaptureRule::MayStop => Some(clash(
                    "`may stop after any jump`",
                    "a capture of columns goes on while it can (the columns' generator has no \
                     optional stops)",
                )),
                CaptureRule::SingleJump => Some(clash(
                    "`single jump`",
                    "a capture of columns goes on while it can (the columns' generator has no \
                     single jumps)",
                )),
                CaptureRule::EqualOrLowerRank => Some(clash(
                    "`only equal or lower rank`",
                    "a column's rank is its top's, and the columns' generator takes any top",
                )),
                CaptureRule::Priority(list)
                    if list.iter().any(|c| c.node != CriterionText::Free) =>
                {
                    Some(clash(
                        "a capture priority",
                        "a capture of columns takes one top a jump, and the columns' generator \
                         leaves the choice among captures free",
                    ))
                }
                _ => None,
            };
            if let Some((what, why)) = found {
                self.errors.push(RuleError::Clash {
                    message: format!("{what} with `take top`"),
                    first: r.span.into(),
                    first_label: "this rule cannot apply to columns".to_string(),
                    span: top.into(),
                    label: label.clone(),
                    help: format!("{why}; remove one of the two clauses"),
                });
            }
        }
        let step = moves
            .iter()
            .flat_map(|m| m.clauses.iter())
            .find(|c| {
                matches!(
                    &c.node,
                    MoveClause::Capture {
                        kind: CaptureKind::Approach | CaptureKind::Withdrawal,
                        ..
                    }
                )
            })
            .map(|c| c.span);
        if let Some(step) = step {
            self.errors.push(RuleError::Clash {
                message: "captures by approach or withdrawal with `take top`".to_string(),
                first: step.into(),
                first_label: "a capture that jumps over nothing".to_string(),
                span: top.into(),
                label: label.clone(),
                help: "a column's top is taken by jumping over it; capture by `jump` or `fly`, or \
                       remove `take top`"
                    .to_string(),
            });
        }
        self.stack_bounds(top, pieces, board, setup);
    }

    /// The bounds of a column's encoding: kinds, board and setup.
    fn stack_bounds(
        &mut self,
        top: Span,
        pieces: usize,
        board: Option<&BoardSpec>,
        setup: Option<&[Vec<(u8, Coord)>; 2]>,
    ) {
        let mut refuse = |message: String, help: &str| {
            self.errors.push(RuleError::Conflict {
                message,
                span: top.into(),
                help: help.to_string(),
            })
        };
        if pieces > MAX_STACKED_KINDS {
            refuse(
                format!(
                    "`take top` with {pieces} kinds of piece; columns hold at most \
                     {MAX_STACKED_KINDS}"
                ),
                "a prisoner keeps its rank in one bit: declare a man and a king",
            );
        }
        if let Some(b) = board {
            let size = layout_size(b.width, b.height, b.squares != SquareSet::All);
            if size > MAX_STACKED_LAYOUT {
                refuse(
                    format!(
                        "`take top` on a {}x{} board; columns fit boards of at most {} squares' \
                         indices (this one needs {size})",
                        b.width,
                        b.height,
                        MAX_STACKED_LAYOUT
                    ),
                    "play columns on a board of at most 8x8 dark squares or 7x7 (docs/language.md, \
                     Stacks)",
                );
            }
        }
        if let Some(s) = setup {
            let n = s[0].len() + s[1].len();
            if n > MAX_STACKED_PIECES {
                refuse(
                    format!(
                        "`take top` with {n} pieces in the setup; columns hold at most \
                         {MAX_STACKED_PIECES} pieces in all"
                    ),
                    "a position keeps every prisoner in a few bytes; set up fewer pieces",
                );
            }
        }
    }
}
