//! The family's last geometric forms: quiet orthogonal moves across light squares on a
//! dark-squares board (`orthogonal moves across light squares` on the `board` line), and short
//! jumps at a fixed gap (`capture jump … after one empty square`).

use super::*;

impl Checker<'_> {
    /// `orthogonal moves across light squares`: only a dark-squares board has light squares to
    /// cross; on it the form lets quiet moves go orthogonally (see `quiet_directions`).
    pub(super) fn across_light(&mut self, b: &BoardDecl, mut spec: BoardSpec) -> BoardSpec {
        let mut forms = b
            .forms
            .iter()
            .filter(|f| f.node == BoardForm::OrthogonalAcrossLight);
        let Some(first) = forms.next() else {
            return spec;
        };
        for again in forms {
            self.form_twice("orthogonal moves", first.span, again.span, true);
        }
        if spec.squares == SquareSet::All {
            self.errors.push(RuleError::Conflict {
                message: "`orthogonal moves across light squares` on a board whose every square \
                          is played: there is no light square to cross"
                    .to_string(),
                span: first.span.into(),
                help: "remove it: on a board of all squares (or points) orthogonal moves are \
                       ordinary steps; the form is for `dark squares`"
                    .to_string(),
            });
            return spec;
        }
        spec.orthogonal_across = true;
        spec
    }

    /// A capture clause's `after one empty square`: a short jump at a fixed gap. Only a short
    /// jump has a fixed length; a flying capture already crosses any number of empty squares and
    /// a capture by approach or withdrawal is a step. Returns whether the clause is a gap jump.
    pub(super) fn gap_capture(&mut self, kind: CaptureKind, gap: Option<Span>) -> bool {
        let Some(span) = gap else {
            return false;
        };
        let (what, help) = match kind {
            CaptureKind::Jump => return true,
            CaptureKind::Fly => (
                "a flying capture, which already crosses any number of empty squares",
                "limit it with `up to N`, or write `capture jump … after one empty square` for \
                 a jump that always crosses exactly one",
            ),
            CaptureKind::Approach | CaptureKind::Withdrawal => (
                "a capture by approach or withdrawal, which is always one step to the adjacent \
                 square",
                "remove it, or write `capture jump … after one empty square`",
            ),
        };
        self.errors.push(RuleError::Conflict {
            message: format!("`after one empty square` on {what}"),
            span: span.into(),
            help: help.to_string(),
        });
        false
    }
}
