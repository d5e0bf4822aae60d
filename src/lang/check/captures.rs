//! The `captures:` section: compulsion, removal, the 180° and rank rules, promotion during a
//! capture, and the priority criteria.

use super::*;

impl Checker<'_> {
    pub(super) fn captures(
        &mut self,
        rules: &[Spanned<CaptureRule>],
        pieces: &[PieceInfo],
        decls: &[&PieceDecl],
    ) -> CaptureSpec {
        let mut spec = default_captures();
        let mut seen: Vec<(&'static str, Span)> = Vec::new();
        let any_rank = decls.iter().any(|d| d.rank.is_some());
        for r in rules {
            let key = match &r.node {
                CaptureRule::Compulsory(_) => "whether capture is compulsory",
                CaptureRule::RemovedImmediately(_) => "the removal of captured pieces",
                CaptureRule::No180Turn => "`no 180 turn`",
                CaptureRule::NoRevisit => "`no return to a visited square`",
                CaptureRule::NoSameDirection => "`no two steps in one direction`",
                CaptureRule::EqualOrLowerRank => "`only equal or lower rank`",
                CaptureRule::MidCapture(_) => "promotion during a capture",
                CaptureRule::MayStop => "`may stop after any jump`",
                CaptureRule::SingleJump => "`single jump`",
                CaptureRule::Huffing(_) => "`huffing`",
                CaptureRule::TakeTop => "`take top`",
                CaptureRule::Priority(_) => "the capture priority",
            };
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                self.errors.push(RuleError::DefinedTwice {
                    what: key.to_string(),
                    first: (*first).into(),
                    second: r.span.into(),
                    help: "keep one of the two clauses".to_string(),
                });
                continue;
            }
            seen.push((key, r.span));
            match &r.node {
                CaptureRule::Compulsory(c) => spec.compulsory = *c,
                CaptureRule::RemovedImmediately(i) => {
                    spec.removal = if *i {
                        Removal::Immediate
                    } else {
                        Removal::EndOfTurn
                    }
                }
                CaptureRule::No180Turn => spec.no_180_turn = true,
                CaptureRule::NoRevisit => spec.no_revisit = true,
                CaptureRule::NoSameDirection => spec.no_same_direction = true,
                CaptureRule::EqualOrLowerRank => {
                    if !any_rank {
                        self.needs_ranks("only equal or lower rank", r.span);
                    }
                    spec.equal_or_lower_rank_only = true;
                }
                CaptureRule::MidCapture(m) => {
                    spec.mid_capture_promotion = match m {
                        MidCaptureText::AtEnd => MidCapturePromotion::AtEnd,
                        MidCaptureText::Continues => MidCapturePromotion::Continue,
                        MidCaptureText::Stops => MidCapturePromotion::Stop,
                    }
                }
                CaptureRule::MayStop => spec.may_stop = true,
                CaptureRule::SingleJump => spec.single_jump = true,
                CaptureRule::Huffing(smaller) => {
                    spec.huffing = true;
                    spec.huffing_smaller = *smaller;
                }
                CaptureRule::TakeTop => spec.stacks = true,
                CaptureRule::Priority(list) => {
                    spec.priority = self.priority(list, pieces, any_rank);
                }
            }
        }
        self.stops_and_priority(rules);
        self.single_and_stops(rules);
        self.huffing_and_optional(rules);
        self.huffing_smaller_and_priority(rules);
        spec
    }

    /// `huffing of smaller captures` makes the captures of the most pieces the due ones, and
    /// lets every capture be played; a priority among captures would forbid the smaller ones
    /// that the clause punishes. The two clauses contradict each other; say so.
    fn huffing_smaller_and_priority(&mut self, rules: &[Spanned<CaptureRule>]) {
        let Some(huff) = rules.iter().find(|r| r.node == CaptureRule::Huffing(true)) else {
            return;
        };
        let priority = rules.iter().find(|r| match &r.node {
            CaptureRule::Priority(list) => list.iter().any(|c| c.node != CriterionText::Free),
            _ => false,
        });
        if let Some(priority) = priority {
            self.errors.push(RuleError::Clash {
                message: "`huffing of smaller captures` with a capture priority".to_string(),
                first: priority.span.into(),
                first_label: "a priority forbids the captures it does not prefer".to_string(),
                span: huff.span.into(),
                label: "but these captures are legal and may be huffed".to_string(),
                help: "remove the priority (or write `priority free`): under `huffing of smaller \
                       captures` the captures of the most pieces are the due ones, and a smaller \
                       one is played at the risk of a huff"
                    .to_string(),
            });
        }
    }

    /// `single jump` with `may stop after any jump`: a single jump always stops, so the stops
    /// say nothing; one of the two was not meant.
    fn single_and_stops(&mut self, rules: &[Spanned<CaptureRule>]) {
        let single = rules.iter().find(|r| r.node == CaptureRule::SingleJump);
        let stop = rules.iter().find(|r| r.node == CaptureRule::MayStop);
        if let (Some(single), Some(stop)) = (single, stop) {
            self.errors.push(RuleError::Clash {
                message: "`single jump` with `may stop after any jump`: a capture of one jump \
                          has nowhere else to stop"
                    .to_string(),
                first: stop.span.into(),
                first_label: "a capture that may go on".to_string(),
                span: single.span.into(),
                label: "a capture that never goes on".to_string(),
                help: "keep `single jump` when a capture takes one piece and ends (Mongolian \
                       Doov), or `may stop after any jump` when it may go on"
                    .to_string(),
            });
        }
    }

    /// `huffing` punishes a capture that was due and not taken; under `optional` no capture is
    /// ever due, so nothing could be huffed. The two clauses contradict each other; say so.
    fn huffing_and_optional(&mut self, rules: &[Spanned<CaptureRule>]) {
        let Some(huff) = rules
            .iter()
            .find(|r| matches!(r.node, CaptureRule::Huffing(_)))
        else {
            return;
        };
        if let Some(optional) = rules
            .iter()
            .find(|r| r.node == CaptureRule::Compulsory(false))
        {
            self.errors.push(RuleError::HuffingOptional {
                optional: optional.span.into(),
                span: huff.span.into(),
                help: "remove `optional` (capturing is then due, and a capture not taken may be \
                       huffed), or remove `huffing` (a player may then decline any capture freely)"
                    .to_string(),
            });
        }
    }

    /// `may stop after any jump` with a priority that counts what is taken: a capture that goes on
    /// takes everything the stop took and one piece more, so `most pieces`, `most value` (every
    /// value is at least 1) and `highest captured ranks` always prefer going on, and no stop
    /// could ever be played. The two clauses contradict each other; say so.
    fn stops_and_priority(&mut self, rules: &[Spanned<CaptureRule>]) {
        let Some(stop) = rules.iter().find(|r| r.node == CaptureRule::MayStop) else {
            return;
        };
        let criteria = rules.iter().filter_map(|r| match &r.node {
            CaptureRule::Priority(list) => Some(list),
            _ => None,
        });
        for c in criteria.flatten() {
            let name = match c.node {
                CriterionText::MostPieces => "most pieces",
                CriterionText::MostValue => "most value",
                CriterionText::HighestCapturedRanks => "highest captured ranks",
                _ => continue,
            };
            self.errors.push(RuleError::StopsNeverPlayed {
                criterion: name.to_string(),
                stop: stop.span.into(),
                span: c.span.into(),
                help: "remove `may stop after any jump` (a capture then goes on while it can), \
                       or choose criteria that do not grow with every jump, such as `most kings` \
                       or `highest capturer`"
                    .to_string(),
            });
        }
    }

    pub(super) fn needs_ranks(&mut self, criterion: &str, span: Span) {
        self.errors.push(RuleError::NeedsRanks {
            criterion: criterion.to_string(),
            span: span.into(),
            help: "give the pieces ranks, as in `piece king \"K\" rank 2`".to_string(),
        });
    }

    /// `most captured`: neither a fixed criterion nor `most <piece>`; list the criteria.
    pub(super) fn unknown_criterion(
        &mut self,
        span: Span,
        most: bool,
        word: &str,
        pieces: &[PieceInfo],
    ) {
        let text = self.text(span).to_string();
        let lead = if most { "most" } else { "earliest" };
        let mut candidates: Vec<String> = CRITERIA.iter().map(|c| c.to_string()).collect();
        for p in pieces {
            candidates.push(format!("most {}", p.name));
            candidates.push(format!("earliest {}", p.name));
        }
        let guess = did_you_mean(
            &format!("{lead} {word}"),
            candidates.iter().map(String::as_str),
        );
        let names: Vec<String> = pieces.iter().map(|p| format!("`{}`", p.name)).collect();
        let help =
            format!(
            "{}the criteria are {}, `most <piece>` and `earliest <piece>`, with a piece of this \
             variant: {}",
            guess.map(|g| format!("did you mean `{g}`? ")).unwrap_or_default(),
            CRITERIA
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            names.join(", ")
        );
        self.errors.push(RuleError::UnknownCriterion {
            text,
            span: span.into(),
            help,
        });
    }

    pub(super) fn priority(
        &mut self,
        list: &[Spanned<CriterionText>],
        pieces: &[PieceInfo],
        any_rank: bool,
    ) -> Vec<Criterion> {
        let mut out = Vec::new();
        if list.len() > 1 {
            if let Some(free) = list.iter().find(|c| c.node == CriterionText::Free) {
                self.errors.push(RuleError::Conflict {
                    message: "`free` cannot be combined with other criteria".to_string(),
                    span: free.span.into(),
                    help: "remove `free`: the player chooses freely once the criteria tie anyway"
                        .to_string(),
                });
            }
        }
        for c in list {
            let crit = match &c.node {
                CriterionText::Free => None,
                CriterionText::MostPieces => Some(Criterion::MostPieces),
                CriterionText::MostValue => Some(Criterion::MostValue),
                CriterionText::HighestCapturer => {
                    if !any_rank {
                        self.needs_ranks("highest capturer", c.span);
                    }
                    Some(Criterion::HighestCapturer)
                }
                CriterionText::HighestCapturedRanks => {
                    if !any_rank {
                        self.needs_ranks("highest captured ranks", c.span);
                    }
                    Some(Criterion::HighestCapturedRanks)
                }
                CriterionText::MostOf(p) | CriterionText::EarliestOf(p) => {
                    let most = matches!(c.node, CriterionText::MostOf(_));
                    match p {
                        PieceRef::Named(n) if find_piece(pieces, &n.node).is_none() => {
                            self.unknown_criterion(c.span, most, &n.node, pieces);
                            None
                        }
                        _ => self.one_piece(pieces, p, PieceUse::Reference).map(|k| {
                            if most {
                                Criterion::MostOf(k)
                            } else {
                                Criterion::EarliestOf(k)
                            }
                        }),
                    }
                }
            };
            out.extend(crit);
        }
        out
    }
}

/// Defaults when a file has no `captures:` section (and for each clause it leaves out): capture is
/// compulsory (as in almost every draughts game), jumped pieces
/// leave at the end of the turn, no 180° rule, no rank restriction, a piece reaching its promotion
/// zone mid-capture promotes only if the move ends there, and free choice among the sequences.
pub(crate) fn default_captures() -> CaptureSpec {
    CaptureSpec {
        compulsory: true,
        removal: Removal::EndOfTurn,
        no_180_turn: false,
        equal_or_lower_rank_only: false,
        mid_capture_promotion: MidCapturePromotion::AtEnd,
        may_stop: false,
        single_jump: false,
        stacks: false,
        huffing: false,
        huffing_smaller: false,
        no_revisit: false,
        no_same_direction: false,
        priority: Vec::new(),
    }
}

/// The priority criteria that take no piece.
pub(super) const CRITERIA: [&str; 5] = [
    "free",
    "most pieces",
    "most value",
    "highest capturer",
    "highest captured ranks",
];
