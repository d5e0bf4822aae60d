//! Pieces in hand (`setup white man 12 in hand`) and the `placement:` section (`placement: 2
//! pieces a turn, not on c3`): a side with pieces in hand places them on the board, a drop a
//! turn, before it moves (see `engine::drops`).

use super::board::playable;
use super::*;
use crate::spec::placement::{MAX_DROP, MAX_HAND};

/// What the placement check reads from the rest of the file.
pub(super) struct PlacementInput<'f> {
    /// The `setup` lines that put pieces in hand.
    pub hands: Vec<&'f Placement>,
    /// Every `placement:` section, with the span of its keyword.
    pub sections: Vec<(Span, &'f Vec<Spanned<PlacementRule>>)>,
    /// The span of `take top`, if the captures say it.
    pub take_top: Option<Span>,
}

impl<'f> PlacementInput<'f> {
    pub fn new(
        hands: Vec<&'f Placement>,
        sections: Vec<(Span, &'f Vec<Spanned<PlacementRule>>)>,
        captures: Option<&'f Vec<Spanned<CaptureRule>>>,
    ) -> PlacementInput<'f> {
        let take_top = captures
            .and_then(|c| c.iter().find(|r| r.node == CaptureRule::TakeTop))
            .map(|r| r.span);
        PlacementInput {
            hands,
            sections,
            take_top,
        }
    }
}

/// The setup's squares, and the `setup` lines that put pieces in hand.
type SetupAndHands<'f> = (Option<[Vec<(u8, Coord)>; 2]>, Vec<&'f Placement>);

impl Checker<'_> {
    /// The setup's squares (see `pieces`), and apart from them the lines that put pieces in
    /// hand: a setup of pieces in hand alone starts on an empty board.
    pub(super) fn setup_and_hands<'f>(
        &mut self,
        lines: Vec<&'f Placement>,
        pieces: &[PieceInfo],
        side_names: &[String],
        board: Option<&BoardSpec>,
    ) -> SetupAndHands<'f> {
        let (hands, setups): (Vec<&Placement>, Vec<&Placement>) =
            lines.into_iter().partition(|p| p.in_hand.is_some());
        let setup = if setups.is_empty() && !hands.is_empty() {
            Some([Vec::new(), Vec::new()])
        } else {
            self.setup(&setups, pieces, side_names, board)
        };
        (setup, hands)
    }

    /// The pieces in hand and the placement rules, checked into a [`PlacementSpec`]; `None` when
    /// no piece starts in hand (a `placement:` section is then refused).
    pub(super) fn placement(
        &mut self,
        input: &PlacementInput,
        pieces: &[PieceInfo],
        side_names: &[String],
        board: Option<&BoardSpec>,
        setup: Option<&[Vec<(u8, Coord)>; 2]>,
    ) -> Option<PlacementSpec> {
        let section = first_of(
            self,
            input.sections.clone(),
            "`placement:`",
            "write all placement rules in one `placement:` section",
        );
        let Some(first_hand) = input.hands.first() else {
            if let Some((span, _)) = input.sections.first() {
                self.errors.push(RuleError::Conflict {
                    message: "a `placement:` section, but no piece starts in hand".to_string(),
                    span: (*span).into(),
                    help: "put pieces in hand in the setup, as in `setup white man 12 in hand`, \
                           or remove the `placement:` section"
                        .to_string(),
                });
            }
            return None;
        };
        let hand_span = first_hand
            .in_hand
            .as_ref()
            .map_or(first_hand.side.span, |h| h.span);
        if let Some(top) = input.take_top {
            self.errors.push(RuleError::Clash {
                message: "pieces in hand with `take top`".to_string(),
                first: hand_span.into(),
                first_label: "pieces placed from hand".to_string(),
                span: top.into(),
                label: "pieces stack into columns".to_string(),
                help: "a drop places single pieces, and the columns' generator places none; \
                       remove one of the two"
                    .to_string(),
            });
        }
        let hand = self.hands(&input.hands, pieces, side_names);
        let (per_turn, not_on) = match section {
            Some(rules) => self.placement_rules(rules, board),
            None => (1, Vec::new()),
        };
        let spec = PlacementSpec {
            hand: hand?,
            per_turn,
            not_on,
        };
        if let (Some(board), Some(setup)) = (board, setup) {
            self.room_for_hands(&spec, board, setup, hand_span);
        }
        Some(spec)
    }

    /// The `N in hand` lines: per side, per kind, the pieces in hand. A side with no such line
    /// holds what the other holds (as a side without setup lines gets the other's setup).
    fn hands(
        &mut self,
        hands: &[&Placement],
        pieces: &[PieceInfo],
        side_names: &[String],
    ) -> Option<[Vec<u8>; 2]> {
        let mut out = [vec![0u8; pieces.len()], vec![0u8; pieces.len()]];
        let mut seen: [Vec<Option<Span>>; 2] = [vec![None; pieces.len()], vec![None; pieces.len()]];
        let mut written = [false, false];
        let names: Vec<&str> = side_names.iter().map(String::as_str).collect();
        for p in hands {
            let Some(count) = &p.in_hand else { continue };
            let side = names.iter().position(|n| *n == p.side.node);
            if side.is_none() && !names.is_empty() {
                self.unknown_side(&p.side, &names);
            }
            let piece = self.one_piece(pieces, &p.piece, PieceUse::Reference);
            if count.node == 0 || count.node > MAX_HAND as u64 {
                self.errors.push(RuleError::OutOfRange {
                    what: "the number of pieces in hand".to_string(),
                    value: count.node.to_string(),
                    span: count.span.into(),
                    range: format!("1 to {MAX_HAND}"),
                    help: "a side holds at least one piece of a kind in hand, and a position \
                           counts a kind's pieces in hand in a byte"
                        .to_string(),
                });
                continue;
            }
            let (Some(side), Some(piece)) = (side, piece) else {
                continue;
            };
            let k = piece as usize;
            if let Some(first) = seen[side][k] {
                self.errors.push(RuleError::DefinedTwice {
                    what: format!("`{} {} … in hand`", p.side.node, pieces[k].name),
                    first: first.into(),
                    second: count.span.into(),
                    help: "say once how many pieces of a kind a side holds in hand".to_string(),
                });
                continue;
            }
            seen[side][k] = Some(count.span);
            written[side] = true;
            out[side][k] = count.node as u8;
        }
        if written[0] != written[1] {
            let (own, other) = if written[0] { (0, 1) } else { (1, 0) };
            out[other] = out[own].clone();
        }
        (written[0] || written[1]).then_some(out)
    }

    /// `N pieces a turn` and `not on …`: the pieces a drop places, and the squares barred to it.
    fn placement_rules(
        &mut self,
        rules: &[Spanned<PlacementRule>],
        board: Option<&BoardSpec>,
    ) -> (u8, Vec<Coord>) {
        let mut per_turn: Option<(u8, Span)> = None;
        let mut not_on: Vec<Coord> = Vec::new();
        for r in rules {
            match &r.node {
                PlacementRule::PerTurn(n) => {
                    if let Some((_, first)) = per_turn {
                        self.errors.push(RuleError::DefinedTwice {
                            what: "`pieces a turn`".to_string(),
                            first: first.into(),
                            second: r.span.into(),
                            help: "say once how many pieces a turn places".to_string(),
                        });
                        continue;
                    }
                    if *n == 0 || *n > MAX_DROP as u64 {
                        self.errors.push(RuleError::OutOfRange {
                            what: "the pieces placed a turn".to_string(),
                            value: n.to_string(),
                            span: r.span.into(),
                            range: format!("1 to {MAX_DROP}"),
                            help: "a turn of the placement phase places at least one piece, and \
                                   a drop's squares are written as one move"
                                .to_string(),
                        });
                        per_turn = Some((1, r.span));
                        continue;
                    }
                    per_turn = Some((*n as u8, r.span));
                }
                PlacementRule::NotOn(list) => {
                    let Some(board) = board else { continue };
                    for range in list {
                        for (c, _) in self.squares(board, range) {
                            if !not_on.contains(&c) {
                                not_on.push(c);
                            }
                        }
                    }
                }
            }
        }
        (per_turn.map_or(1, |(n, _)| n), not_on)
    }

    /// Every piece in hand must find a square: the empty squares of the setup, less those barred
    /// to a drop, must hold both hands.
    fn room_for_hands(
        &mut self,
        spec: &PlacementSpec,
        board: &BoardSpec,
        setup: &[Vec<(u8, Coord)>; 2],
        span: Span,
    ) {
        let mut free = 0usize;
        for rank in 0..board.height {
            for file in 0..board.width {
                let c = (file, rank);
                if playable(board, c)
                    && !spec.not_on.contains(&c)
                    && !setup.iter().flatten().any(|&(_, s)| s == c)
                {
                    free += 1;
                }
            }
        }
        let held: usize = spec.hand.iter().flatten().map(|&n| n as usize).sum();
        if held > free {
            self.errors.push(RuleError::Conflict {
                message: format!(
                    "{held} pieces in hand, but only {free} empty squares to place them on"
                ),
                span: span.into(),
                help: "a drop places pieces on empty squares not barred by `not on`: hold fewer \
                       pieces in hand, or set up or bar fewer squares"
                    .to_string(),
            });
        }
    }
}
