//! `lone pieces of equal rank [below the highest] may declare single combat` against the rest of
//! the file: said once, a rank below the highest when the file asks for one, and none of the
//! rules a combat cannot be played under.

use super::*;
use crate::spec::combat::CombatSpec;

impl Checker<'_> {
    /// The combat rule of the `game:` section, if any, checked against the pieces' ranks and the
    /// capture rules.
    pub(super) fn combat(
        &mut self,
        games: &[Spanned<GameRule>],
        captures: &[Spanned<CaptureRule>],
        pieces: &[PieceSpec],
    ) -> Option<CombatSpec> {
        let mut found: Option<(Span, CombatSpec)> = None;
        for r in games {
            let GameRule::Combat { below_highest } = r.node else {
                continue;
            };
            if let Some((first, _)) = found {
                self.errors.push(RuleError::DefinedTwice {
                    what: "the single-combat rule".to_string(),
                    first: first.into(),
                    second: r.span.into(),
                    help: "keep one of the two clauses".to_string(),
                });
                continue;
            }
            found = Some((r.span, CombatSpec { below_highest }));
        }
        let (span, spec) = found?;
        let mut ok = true;
        let highest = pieces.iter().map(|p| p.rank).max().unwrap_or(1);
        if spec.below_highest && !pieces.is_empty() && pieces.iter().all(|p| p.rank == highest) {
            ok = false;
            self.errors.push(RuleError::Conflict {
                message: "single combat below the highest rank, but every piece has the same \
                          rank"
                    .to_string(),
                span: span.into(),
                help: "give the pieces their ranks (`piece king \"K\" rank 2`), or remove \
                       `below the highest`: with one rank, no combat could ever be declared"
                    .to_string(),
            });
        }
        if let Some(r) = games.iter().find(|r| r.node == GameRule::NoMovesWins) {
            ok = false;
            self.errors.push(RuleError::Clash {
                message: "single combat with `no moves wins`".to_string(),
                first: r.span.into(),
                first_label: "the aim reversed: losing every piece wins".to_string(),
                span: span.into(),
                label: "a combat is fought to take the enemy piece".to_string(),
                help: "remove one of the two: under the reversed aim the piece taken in the \
                       combat would win"
                    .to_string(),
            });
        }
        for r in captures {
            let why = match r.node {
                CaptureRule::Huffing(_) => {
                    "a huff would take the lone enemy piece without a capture, outside the combat"
                }
                CaptureRule::TakeTop => {
                    "under `take top` no piece leaves the board, so no side is ever down to one \
                     piece"
                }
                _ => continue,
            };
            ok = false;
            self.errors.push(RuleError::Clash {
                message: format!(
                    "single combat with `{}`",
                    if r.node == CaptureRule::TakeTop {
                        "take top"
                    } else {
                        "huffing"
                    }
                ),
                first: r.span.into(),
                first_label: why.to_string(),
                span: span.into(),
                label: "the combat of two lone pieces".to_string(),
                help: "remove one of the two clauses".to_string(),
            });
        }
        ok.then_some(spec)
    }
}
