//! `leaping a row of adjacent pieces` against the capture rules it cannot combine with: one jump
//! then takes several pieces, so the priorities that count or weigh the pieces jump by jump, the
//! huff of smaller captures, a landing that depends on the kind taken last and the columns'
//! generator (`take top`) are refused with it.

use super::*;

impl Checker<'_> {
    /// Refuse `leaping a row of adjacent pieces` with the rules that weigh a capture jump by
    /// jump, each a clash between the two clauses.
    pub(super) fn row_leaps(&mut self, moves: &[&MovesDecl], rules: &[Spanned<CaptureRule>]) {
        let clauses = moves.iter().flat_map(|m| m.clauses.iter());
        let mut row = None;
        let mut behind_last = None;
        for c in clauses {
            if let MoveClause::Capture {
                row_leap: Some(r),
                landing,
                ..
            } = &c.node
            {
                row = row.or(Some(*r));
                if let Some(l) = landing.as_ref().filter(|l| l.node.last_of.is_some()) {
                    behind_last = behind_last.or(Some(l.span));
                }
            }
        }
        let Some(row) = row else {
            return;
        };
        let mut clashes: Vec<(Span, &str)> = Vec::new();
        if let Some(span) = behind_last {
            clashes.push((
                span,
                "a leap over a row has no single piece taken last; remove the landing's \
                 `when the last piece taken is a ...`",
            ));
        }
        for r in rules {
            let why = match &r.node {
                CaptureRule::TakeTop => {
                    "the columns' generator takes one column per jump; remove `leaping a row of \
                     adjacent pieces` or `take top`"
                }
                CaptureRule::Huffing(true) => {
                    "the huff of smaller captures counts jumps, and a leap over a row takes \
                     several pieces in one; use `huffing` alone or remove the leap"
                }
                CaptureRule::Priority(criteria)
                    if criteria.iter().any(|c| {
                        !matches!(c.node, CriterionText::Free | CriterionText::HighestCapturer)
                    }) =>
                {
                    "this priority weighs a capture jump by jump, and a leap over a row takes \
                     several pieces in one jump; use `priority free` or `priority highest \
                     capturer`, or remove the leap"
                }
                _ => continue,
            };
            clashes.push((r.span, why));
        }
        for (span, why) in clashes {
            self.errors.push(RuleError::Clash {
                message: format!(
                    "`leaping a row of adjacent pieces` with `{}`",
                    self.text(span).trim()
                ),
                first: span.into(),
                first_label: "this rule".to_string(),
                span: row.into(),
                label: "a flying capture that leaps a row".to_string(),
                help: why.to_string(),
            });
        }
    }
}
