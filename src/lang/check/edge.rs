//! `in one line, turning at the edge` against the capture rules it cannot combine with: a
//! `single jump` never makes the second jump the turn is about, and the columns' generator
//! (`take top`) keeps its lines without turns.

use super::*;

impl Checker<'_> {
    /// Refuse `turning at the edge` with `single jump` and with `take top`, each a clash between
    /// the two clauses.
    pub(super) fn edge_turns(&mut self, moves: &[&MovesDecl], rules: &[Spanned<CaptureRule>]) {
        let Some(turn) = moves
            .iter()
            .flat_map(|m| m.clauses.iter())
            .find_map(|c| match &c.node {
                MoveClause::Capture { edge_turn, .. } => *edge_turn,
                _ => None,
            })
        else {
            return;
        };
        for r in rules {
            let why = match r.node {
                CaptureRule::SingleJump => {
                    "a capture of one jump never makes the second jump a turn at the edge would \
                     allow; remove one of the two clauses"
                }
                CaptureRule::TakeTop => {
                    "the columns' generator keeps a one-line capture straight; remove \
                     `turning at the edge` or `take top`"
                }
                _ => continue,
            };
            self.errors.push(RuleError::Clash {
                message: format!("`turning at the edge` with `{}`", self.text(r.span).trim()),
                first: r.span.into(),
                first_label: "this rule".to_string(),
                span: turn.into(),
                label: "a one-line capture that may turn at the edge".to_string(),
                help: why.to_string(),
            });
        }
    }
}
