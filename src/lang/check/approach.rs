//! Captures by approach and withdrawal (`capture approach …`, `capture withdrawal …`) against
//! the rest of the file: the clauses they cannot go with, and the removal they imply.

use super::*;

impl Checker<'_> {
    /// With a capture by approach or withdrawal somewhere in the file: refuse what cannot go with
    /// it, and remove captured pieces at once unless the file says otherwise (and is refused).
    /// Without one: refuse the capture rules that only govern such captures.
    pub(super) fn step_captures(
        &mut self,
        moves: &[&MovesDecl],
        rules: &[Spanned<CaptureRule>],
        spec: &mut CaptureSpec,
    ) {
        let clause = |step: bool| {
            moves
                .iter()
                .flat_map(|m| m.clauses.iter())
                .find(|c| match &c.node {
                    MoveClause::Capture { kind, .. } => {
                        step == matches!(kind, CaptureKind::Approach | CaptureKind::Withdrawal)
                    }
                    _ => false,
                })
                .map(|c| c.span)
        };
        let rule = |f: fn(&CaptureRule) -> bool| rules.iter().find(|r| f(&r.node)).map(|r| r.span);
        let Some(step) = clause(true) else {
            let only_for = [
                (
                    rule(|r| *r == CaptureRule::NoRevisit),
                    "`no return to a visited square`",
                ),
                (
                    rule(|r| *r == CaptureRule::NoSameDirection),
                    "`no two steps in one direction`",
                ),
            ];
            for (span, what) in only_for {
                if let Some(span) = span {
                    self.errors.push(RuleError::Conflict {
                        message: format!(
                            "{what} governs captures by approach or withdrawal, and no piece here \
                             captures so"
                        ),
                        span: span.into(),
                        help: "remove it, or give a piece `capture approach …` or `capture \
                               withdrawal …`"
                            .to_string(),
                    });
                }
            }
            return;
        };
        let label = "a capture by approach or withdrawal".to_string();
        if let Some(jump) = clause(false) {
            self.errors.push(RuleError::Clash {
                message: "captures by jumping and captures by approach or withdrawal in one \
                          variant"
                    .to_string(),
                first: jump.into(),
                first_label: "a capture by jumping".to_string(),
                span: step.into(),
                label: label.clone(),
                help: "a variant's pieces capture either by jumping or by approach and \
                       withdrawal: the engine does not mix the two in one capture sequence"
                    .to_string(),
            });
        }
        if let Some(huff) = rule(|r| matches!(r, CaptureRule::Huffing(_))) {
            self.errors.push(RuleError::Clash {
                message: "`huffing` with captures by approach or withdrawal".to_string(),
                first: huff.into(),
                first_label: "huffing punishes a jump not taken".to_string(),
                span: step.into(),
                label: label.clone(),
                help: "huffing is defined for captures by jumping; remove `huffing` (capturing \
                       stays compulsory)"
                    .to_string(),
            });
        }
        if let Some(end) = rule(|r| *r == CaptureRule::RemovedImmediately(false)) {
            self.errors.push(RuleError::Clash {
                message: "`removed at end of turn` with captures by approach or withdrawal"
                    .to_string(),
                first: end.into(),
                first_label: "captured pieces would block until the move ends".to_string(),
                span: step.into(),
                label: label.clone(),
                help: "a line taken by approach or withdrawal leaves the board at once, and the \
                       next step may go where it stood; write `removed immediately` or leave the \
                       removal out"
                    .to_string(),
            });
        }
        if let Some(mid) = rule(|r| {
            matches!(
                r,
                CaptureRule::MidCapture(MidCaptureText::Continues | MidCaptureText::Stops)
            )
        }) {
            self.errors.push(RuleError::Clash {
                message: "promotion mid-capture with captures by approach or withdrawal"
                    .to_string(),
                first: mid.into(),
                first_label: "promotion during the capture".to_string(),
                span: step.into(),
                label,
                help: "a piece capturing by approach or withdrawal promotes only where its move \
                       ends; write `promotion at end of move` or leave it out"
                    .to_string(),
            });
        }
        spec.removal = Removal::Immediate;
    }
}
