//! The `game:` section: how a game is lost or won, repetition and move-count draws.

use super::*;

impl Checker<'_> {
    pub(super) fn game(
        &mut self,
        rules: &[Spanned<GameRule>],
        pieces: &[PieceInfo],
        board: Option<&BoardSpec>,
        forward: Angle,
    ) -> GameSpec {
        let mut spec = default_game();
        let mut repetition: Option<Span> = None;
        // `no moves loses` and `no moves wins`: the first said, to point at both when both are.
        let mut no_moves: Option<(Span, bool)> = None;
        for r in rules {
            match &r.node {
                GameRule::NoMovesLoses | GameRule::NoMovesWins => {
                    let wins = matches!(r.node, GameRule::NoMovesWins);
                    match no_moves {
                        Some((first, was)) if was != wins => {
                            self.errors.push(RuleError::Clash {
                                message: "`no moves loses` with `no moves wins`: a side with no \
                                          move cannot both lose and win"
                                    .to_string(),
                                first: first.into(),
                                first_label: if was {
                                    "the aim reversed"
                                } else {
                                    "the usual aim"
                                }
                                .to_string(),
                                span: r.span.into(),
                                label: if wins {
                                    "the aim reversed"
                                } else {
                                    "the usual aim"
                                }
                                .to_string(),
                                help: "keep `no moves wins` for a giveaway game (the side that \
                                       cannot move, or has no pieces, wins), or `no moves loses`"
                                    .to_string(),
                            });
                        }
                        Some((first, _)) => {
                            self.errors.push(RuleError::DefinedTwice {
                                what: "the rule for a side with no move".to_string(),
                                first: first.into(),
                                second: r.span.into(),
                                help: "keep one of the two clauses".to_string(),
                            });
                        }
                        None => {
                            no_moves = Some((r.span, wins));
                            spec.no_moves_loses = !wins;
                            spec.no_moves_wins = wins;
                        }
                    }
                }
                GameRule::FirstWins(p) => {
                    if let Some(k) = self.one_piece(pieces, p, PieceUse::Reference) {
                        if !spec.first_wins.contains(&k) {
                            spec.first_wins.push(k);
                        }
                    }
                }
                GameRule::ReachWins(z) => {
                    if let Some(z) = self.zone(pieces, board, forward, z) {
                        spec.reach_wins.push(z);
                    }
                }
                GameRule::LoneBeats(a, b) => {
                    let a = self.one_piece(pieces, a, PieceUse::Reference);
                    let b = self.one_piece(pieces, b, PieceUse::Reference);
                    if let (Some(a), Some(b)) = (a, b) {
                        spec.lone_wins.push((a, b));
                    }
                }
                GameRule::LoneDraws(a, b) => {
                    let a = self.one_piece(pieces, a, PieceUse::Reference);
                    let b = self.one_piece(pieces, b, PieceUse::Reference);
                    if let (Some(a), Some(b)) = (a, b) {
                        spec.lone_draws.push((a, b));
                    }
                }
                // Checked with the pieces' ranks and the captures (`check::combat`).
                GameRule::Combat { .. } => {}
                GameRule::LoseWithout(p) => {
                    if let Some(p) = self.one_piece(pieces, p, PieceUse::Reference) {
                        spec.lose_without.push(p);
                    }
                }
                GameRule::MoveCount(m) => {
                    if let Some(rule) = self.move_count(m, r.span, pieces) {
                        if spec.move_count_draws.len() == MAX_MOVE_COUNT_RULES {
                            self.errors.push(RuleError::Conflict {
                                message: format!(
                                    "too many move-count rules: at most {MAX_MOVE_COUNT_RULES}"
                                ),
                                span: r.span.into(),
                                help: "keep the rules the variant really has".to_string(),
                            });
                        } else {
                            spec.move_count_draws.push(rule);
                        }
                    }
                }
                GameRule::Repetition(..) | GameRule::NoRepetition => {
                    if let Some(first) = repetition {
                        self.errors.push(RuleError::DefinedTwice {
                            what: "the repetition rule".to_string(),
                            first: first.into(),
                            second: r.span.into(),
                            help: "keep one of the two clauses".to_string(),
                        });
                        continue;
                    }
                    repetition = Some(r.span);
                    spec.repetition_draw = match &r.node {
                        GameRule::Repetition(n, claimed) if (2..=255).contains(&n.node) => {
                            spec.repetition_claimed = *claimed;
                            n.node as u8
                        }
                        GameRule::Repetition(n, _) => {
                            self.errors.push(RuleError::OutOfRange {
                                what: "repetition".to_string(),
                                value: self.text(n.span).to_string(),
                                span: n.span.into(),
                                range: "from 2nd to 255th".to_string(),
                                help: "write `draw on 3rd repetition`, or `no repetition draw`"
                                    .to_string(),
                            });
                            0
                        }
                        _ => 0,
                    };
                }
            }
        }
        spec
    }

    /// A move-count draw rule: its number of moves, resets and material, checked.
    fn move_count(
        &mut self,
        m: &MoveCountText,
        span: Span,
        pieces: &[PieceInfo],
    ) -> Option<MoveCountDraw> {
        let mut ok = true;
        let max = if m.each { 127 } else { 255 };
        if !(1..=max).contains(&m.moves.node) {
            self.errors.push(RuleError::OutOfRange {
                what: "number of moves".to_string(),
                value: self.text(m.moves.span).to_string(),
                span: m.moves.span.into(),
                range: format!("from 1 to {max}"),
                help: "a move-count draw counts at most 255 single moves (127 moves each)"
                    .to_string(),
            });
            ok = false;
        }
        if m.resets.is_empty() {
            self.errors.push(RuleError::Conflict {
                message: "a move-count rule with no reset: nothing starts the count again"
                    .to_string(),
                span: span.into(),
                help: "say what starts the count again, as in `draw after 25 moves each without \
                       capture or man move`"
                    .to_string(),
            });
            ok = false;
        }
        let mut reset_on_capture = false;
        let mut reset_on_move_of = 0u8;
        for r in &m.resets {
            match &r.node {
                None => reset_on_capture = true,
                Some(p) => reset_on_move_of |= self.piece_mask(pieces, p).unwrap_or(0),
            }
        }
        let material = match &m.material {
            None => None,
            Some((strong, weak)) => {
                let strong = strong
                    .iter()
                    .map(|f| self.force(f, pieces))
                    .collect::<Vec<_>>();
                let weak = self.force(weak, pieces);
                Some(Material { strong, weak })
            }
        };
        ok.then_some(MoveCountDraw {
            moves: m.moves.node.min(255) as u8,
            each: m.each,
            reset_on_capture,
            reset_on_move_of,
            material,
            claimed: m.claimed,
        })
    }

    /// `2 kings and 1 man`: the count of each kind.
    fn force(&mut self, force: &ForceText, pieces: &[PieceInfo]) -> Vec<u8> {
        let mut counts = vec![0u8; pieces.len()];
        for (n, p) in force {
            if !(1..=64).contains(&n.node) {
                self.errors.push(RuleError::OutOfRange {
                    what: "number of pieces".to_string(),
                    value: self.text(n.span).to_string(),
                    span: n.span.into(),
                    range: "from 1 to 64".to_string(),
                    help: "count the pieces of each kind, as in `2 kings and 1 man`".to_string(),
                });
                continue;
            }
            if let Some(k) = self.one_piece(pieces, p, PieceUse::Reference) {
                let c = &mut counts[k as usize];
                *c = c.saturating_add(n.node as u8);
            }
        }
        counts
    }
}

/// Defaults for the `game:` section: no legal move loses, draw on the third repetition.
pub(crate) fn default_game() -> GameSpec {
    GameSpec {
        no_moves_loses: true,
        lone_wins: Vec::new(),
        lone_draws: Vec::new(),
        lose_without: Vec::new(),
        no_moves_wins: false,
        first_wins: Vec::new(),
        reach_wins: Vec::new(),
        repetition_draw: 3,
        repetition_claimed: false,
        move_count_draws: Vec::new(),
        combat: None,
    }
}
