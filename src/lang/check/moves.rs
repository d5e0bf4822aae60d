//! A piece's moves section: directions, quiet moves (`step`, `slide`, `leap`), captures
//! (`capture jump`, `capture fly` with range and landing), promotion and the quiet-move limit.

use super::*;

impl Checker<'_> {
    pub(super) fn directions(
        &mut self,
        board: Option<&BoardSpec>,
        forward: Angle,
        dirs: &[Name],
    ) -> AngleSet {
        let mut set = 0;
        for d in dirs {
            match resolve_on(board, &d.node, forward) {
                Some(s) => set |= self.lines_of(board, d, s),
                None => {
                    let help = match did_you_mean(&d.node, direction_names()) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!(
                            "directions are {}, and the compass names {}",
                            list_names(RELATIVE_DIRECTIONS.into_iter()),
                            list_names(ANGLE_NAMES.into_iter())
                        ),
                    };
                    self.errors.push(RuleError::UnknownDirection {
                        name: d.node.clone(),
                        span: d.span.into(),
                        help,
                    });
                }
            }
        }
        set
    }

    /// The angles of a direction word that are lines of the board: `all` means every line there
    /// is; any other word must name lines only (`sideways` on a hexagon, drawn with its lines
    /// upright, names east and west, where a hexagon has no line).
    fn lines_of(&mut self, board: Option<&BoardSpec>, d: &Name, angles: AngleSet) -> AngleSet {
        let Some(board) = board else {
            return angles;
        };
        let lines = board.line_angles();
        if d.node == "all" || angles & !lines == 0 {
            return angles & lines;
        }
        let missing: Vec<&str> = (0..8u8)
            .filter(|a| angles & !lines & (1 << a) != 0)
            .map(|a| board.compass_name(a))
            .collect();
        let existing: Vec<&str> = (0..8u8)
            .filter(|a| lines & (1 << a) != 0)
            .map(|a| board.compass_name(a))
            .collect();
        self.errors.push(RuleError::NoLine {
            name: d.node.clone(),
            span: d.span.into(),
            label: format!(
                "goes {}, where no line runs",
                either_names(missing.into_iter())
            ),
            help: format!(
                "the lines of a hexagon run {}; `forward`, `backward`, `forward-diagonal`, \
                 `backward-diagonal`, `diagonal` and `all` name some of them",
                list_names(existing.into_iter())
            ),
        });
        angles & lines
    }

    /// The directions of a quiet move (`step`, `slide`, `leap`). On a dark-squares board an
    /// orthogonal direction is a jump to the dark square two squares away, over the light square in
    /// between: the geometry of Frisian draughts' orthogonal captures. As a quiet move it has no
    /// meaning in any game, so it is an error there (captures may still go orthogonally).
    pub(super) fn quiet_directions(
        &mut self,
        board: Option<&BoardSpec>,
        forward: Angle,
        dirs: &[Name],
        what: &str,
    ) -> AngleSet {
        let set = self.directions(board, forward, dirs);
        if board.is_none_or(|b| b.orthogonal_quiet_moves()) {
            return set;
        }
        for d in dirs {
            let Some(angles) = resolve_direction(&d.node, forward) else {
                continue;
            };
            if angles & ORTHOGONAL_ANGLES == 0 {
                continue;
            }
            let straight_forward = "write `forward is diagonal` on the `sides` line to turn \
                                    forward onto a diagonal";
            let (label, hint) = match d.node.as_str() {
                "forward" => (
                    "straight ahead: forward is not diagonal on this board".to_string(),
                    format!("write `forward-diagonal`, or {straight_forward}"),
                ),
                "backward" => (
                    "straight back: forward is not diagonal on this board".to_string(),
                    format!("write `backward-diagonal`, or {straight_forward}"),
                ),
                "sideways" => (
                    "straight left and right: forward is not diagonal on this board".to_string(),
                    straight_forward.to_string(),
                ),
                "orthogonal" | "all" => (
                    "includes the four orthogonal directions".to_string(),
                    "write `diagonal`".to_string(),
                ),
                _ => (
                    "an orthogonal direction".to_string(),
                    "name a diagonal direction, as in `north-east`".to_string(),
                ),
            };
            self.errors.push(RuleError::OrthogonalQuietMove {
                what: format!("{what} direction"),
                name: d.node.clone(),
                span: d.span.into(),
                label,
                help: format!(
                    "on a dark-squares board pieces move diagonally; orthogonal directions are \
                     for captures; {hint}; or write `orthogonal moves across light squares` on \
                     the `board` line to let quiet moves cross the light squares"
                ),
            });
        }
        set
    }

    /// A zone of a promotion or a goal (`far rank`, `start of enemy <piece>`, squares).
    pub(super) fn zone(
        &mut self,
        pieces: &[PieceInfo],
        board: Option<&BoardSpec>,
        forward: Angle,
        zone: &ZoneText,
    ) -> Option<Zone> {
        match zone {
            ZoneText::FarRank(span) => {
                // With `forward is diagonal` the sides play corner to corner: there is no
                // rank facing the mover, so `far rank` means nothing.
                if forward != board.map_or(0, BoardSpec::straight_ahead) {
                    self.errors.push(RuleError::Conflict {
                        message: "`far rank` with `forward is diagonal`: the sides play \
                                  corner to corner, no rank is ahead"
                            .to_string(),
                        span: (*span).into(),
                        help: "name the squares, as in `promote to dama on f8, h6`, or \
                               use `start of enemy <piece>`"
                            .to_string(),
                    });
                }
                Some(Zone::FarRank)
            }
            ZoneText::EnemyStart(p) => self
                .one_piece(pieces, p, PieceUse::Reference)
                .map(Zone::EnemyStart),
            ZoneText::Squares(list) => board.map(|b| {
                let squares = list
                    .iter()
                    .flat_map(|r| self.squares(b, r))
                    .map(|(c, _)| c)
                    .collect();
                Zone::Squares(squares)
            }),
        }
    }

    pub(super) fn move_clause(
        &mut self,
        pieces: &[PieceInfo],
        board: Option<&BoardSpec>,
        forward: Angle,
        clause: &MoveClause,
        spec: &mut PieceSpec,
    ) {
        match clause {
            MoveClause::Step(d) => {
                let dirs = self.quiet_directions(board, forward, d, "step");
                spec.quiet.push(QuietOp::Step { dirs });
            }
            MoveClause::Slide { dirs: d, range } => {
                let dirs = self.quiet_directions(board, forward, d, "slide");
                let range = range.as_ref().and_then(|r| self.range(r, "slide"));
                spec.quiet.push(QuietOp::Slide { dirs, range });
            }
            MoveClause::Leap { max, over, dirs } => {
                let dirs = self.quiet_directions(board, forward, dirs, "leap");
                let over = self.piece_mask(pieces, over).unwrap_or(0);
                let max = match max {
                    None => None,
                    Some(m) if (1..=255).contains(&m.node) => Some(m.node as u8),
                    Some(m) => {
                        self.errors.push(RuleError::OutOfRange {
                            what: "number of pieces to leap".to_string(),
                            value: self.text(m.span).to_string(),
                            span: m.span.into(),
                            range: "from 1 to 255".to_string(),
                            help: "leave the number out to leap over a file of any length"
                                .to_string(),
                        });
                        None
                    }
                };
                spec.quiet.push(QuietOp::Leap { dirs, over, max });
            }
            MoveClause::Capture {
                kind: kind @ (CaptureKind::Approach | CaptureKind::Withdrawal),
                dirs,
                range,
                landing,
                one_line,
                row_leap,
                gap,
                ..
            } => {
                self.gap_capture(*kind, *gap);
                let word = if *kind == CaptureKind::Approach {
                    "approach"
                } else {
                    "withdrawal"
                };
                // The capturing piece steps, as a quiet move does: the same directions make sense.
                let dirs = self.quiet_directions(board, forward, dirs, &format!("{word} capture"));
                let extras = [
                    range.as_ref().map(|r| (r.span, "`up to`")),
                    landing.as_ref().map(|l| (l.span, "a landing rule")),
                    one_line.map(|s| (s, "`in one line`")),
                    row_leap.map(|s| (s, "`leaping a row of adjacent pieces`")),
                ];
                for (span, what) in extras.into_iter().flatten() {
                    self.errors.push(RuleError::Conflict {
                        message: format!(
                            "{what} on a capture by {word}, which is always one step to the \
                             adjacent square"
                        ),
                        span: span.into(),
                        help: format!(
                            "remove it: `capture {word} orthogonal, diagonal` takes the whole line \
                             of enemy pieces it reaches"
                        ),
                    });
                }
                spec.captures.push(if *kind == CaptureKind::Approach {
                    CaptureOp::Approach { dirs }
                } else {
                    CaptureOp::Withdrawal { dirs }
                });
            }
            MoveClause::Capture {
                kind,
                dirs,
                range,
                landing,
                one_line,
                edge_turn,
                row_leap,
                gap,
            } => {
                let gap = self.gap_capture(*kind, *gap);
                let fly = &(*kind == CaptureKind::Fly);
                let dirs = self.directions(board, forward, dirs);
                // A piece's captures share one line rule, as they share one range.
                spec.one_line |= one_line.is_some();
                spec.edge_turn |= edge_turn.is_some();
                if let (false, Some(span)) = (*fly, row_leap) {
                    self.errors.push(RuleError::Conflict {
                        message: "`leaping a row of adjacent pieces` on a short jump, which \
                                  always goes over one piece"
                            .to_string(),
                        span: (*span).into(),
                        help: "a row is leapt by a flying capture: `capture fly diagonal leaping \
                               a row of adjacent pieces`"
                            .to_string(),
                    });
                }
                spec.row_leap |= *fly && row_leap.is_some();
                if !*fly {
                    let op = self.short_jump(dirs, range.as_ref(), landing.as_ref(), gap);
                    spec.captures.push(op);
                    return;
                }
                let range = range.as_ref().and_then(|r| self.range(r, "flying capture"));
                let landing = match landing {
                    None => Landing::Anywhere,
                    Some(l) => match &l.node.last_of {
                        None => Landing::DirectlyBehind,
                        Some(p) => Landing::BehindLast(self.piece_mask(pieces, p).unwrap_or(0)),
                    },
                };
                spec.captures.push(CaptureOp::Fly {
                    dirs,
                    range,
                    landing,
                });
            }
            MoveClause::Promote { to, zone } => {
                let to = self.one_piece(pieces, to, PieceUse::Promotion);
                let zone = self.zone(pieces, board, forward, zone);
                if let (Some(to), Some(zone)) = (to, zone) {
                    spec.promotions.push(PromotionSpec { to, zone });
                }
            }
            MoveClause::QuietLimit { max, while_own } => {
                let while_own = self.piece_mask(pieces, while_own).unwrap_or(0);
                if (1..=255).contains(&max.node) {
                    spec.quiet_limit = Some(QuietLimit {
                        max: max.node as u8,
                        while_own,
                    });
                } else {
                    self.errors.push(RuleError::OutOfRange {
                        what: "number of quiet moves in a row".to_string(),
                        value: self.text(max.span).to_string(),
                        span: max.span.into(),
                        range: "from 1 to 255".to_string(),
                        help: "leave the limit out to let the piece move freely".to_string(),
                    });
                }
            }
        }
    }

    /// A short jump's clause (`capture jump`): no range, no landing rule; `after one empty
    /// square` makes it a jump at a fixed gap.
    fn short_jump(
        &mut self,
        dirs: AngleSet,
        range: Option<&Spanned<u64>>,
        landing: Option<&Spanned<LandingText>>,
        gap: bool,
    ) -> CaptureOp {
        if let Some(r) = range {
            self.errors.push(RuleError::Conflict {
                message: "`up to` on a short jump, which always goes one square over \
                          and one beyond"
                    .to_string(),
                span: r.span.into(),
                help: "limit a flying capture instead: `capture fly diagonal up to 2`".to_string(),
            });
        }
        if let Some(l) = landing {
            self.errors.push(RuleError::Conflict {
                message: "a landing rule on a short jump, which always lands directly \
                          behind the piece it takes"
                    .to_string(),
                span: l.span.into(),
                help: "landing rules are for flying captures: `capture fly diagonal \
                       landing directly behind`"
                    .to_string(),
            });
        }
        if gap {
            CaptureOp::GapJump { dirs }
        } else {
            CaptureOp::Jump { dirs }
        }
    }

    /// `up to N`: from 1 to 255.
    pub(super) fn range(&mut self, r: &Spanned<u64>, what: &str) -> Option<u8> {
        if (1..=255).contains(&r.node) {
            return Some(r.node as u8);
        }
        self.errors.push(RuleError::OutOfRange {
            what: format!("range of a {what}"),
            value: self.text(r.span).to_string(),
            span: r.span.into(),
            range: "from 1 to 255".to_string(),
            help: format!("a {what} goes at least one square; leave `up to` out for no limit"),
        });
        None
    }
}

/// The relative direction words; the compass names ([`ANGLE_NAMES`], absolute as the first side
/// sees the board) are direction words too.
pub(super) const RELATIVE_DIRECTIONS: [&str; 8] = [
    "forward",
    "backward",
    "sideways",
    "forward-diagonal",
    "backward-diagonal",
    "orthogonal",
    "diagonal",
    "all",
];

/// Every direction word, the relative ones first, then the compass.
pub(super) fn direction_names() -> impl Iterator<Item = &'static str> {
    RELATIVE_DIRECTIONS.into_iter().chain(ANGLE_NAMES)
}

/// Whether `word` names a direction (relative or compass).
pub(crate) fn is_direction(word: &str) -> bool {
    resolve_direction(word, 0).is_some()
}

/// The lattice angles of a direction word on a board: on a hexagon, drawn turned so that its
/// lattice north-east is upright, every word is read as drawn (forward is straight up the
/// drawing, and a compass name is the drawing's), which turns the angles by one.
pub(crate) fn resolve_on(
    board: Option<&BoardSpec>,
    name: &str,
    forward: Angle,
) -> Option<AngleSet> {
    match board {
        Some(b) if b.shape == Shape::Hexagon => {
            let drawn = resolve_direction(name, 0)?;
            Some(
                (0..8u8)
                    .filter(|a| drawn & (1 << a) != 0)
                    .fold(0, |s, a| s | 1 << b.compass_angle(a)),
            )
        }
        _ => resolve_direction(name, forward),
    }
}

/// The angles of a direction word for the first side, whose forward is `forward` (0 = north,
/// 1 = north-east).
pub(crate) fn resolve_direction(name: &str, forward: Angle) -> Option<AngleSet> {
    let f = forward;
    let set = |angles: &[u8]| angles.iter().fold(0u8, |s, a| s | 1 << ((f + a) % 8));
    let abs = |angles: &[u8]| angles.iter().fold(0u8, |s, a| s | 1 << (a % 8));
    Some(match name {
        "forward" => set(&[0]),
        "backward" => set(&[4]),
        "sideways" => set(&[2, 6]),
        "forward-diagonal" => set(&[1, 7]),
        "backward-diagonal" => set(&[3, 5]),
        "orthogonal" => abs(&[0, 2, 4, 6]),
        "diagonal" => abs(&[1, 3, 5, 7]),
        "all" => 0xff,
        _ => {
            let i = ANGLE_NAMES.iter().position(|n| *n == name)?;
            abs(&[i as u8])
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn angles(set: AngleSet) -> Vec<u8> {
        (0..8).filter(|a| set & (1 << a) != 0).collect()
    }

    #[test]
    fn directions_with_forward_north() {
        let r = |n| angles(resolve_direction(n, 0).unwrap());
        assert_eq!(r("forward"), [0]);
        assert_eq!(r("backward"), [4]);
        assert_eq!(r("sideways"), [2, 6]);
        assert_eq!(r("forward-diagonal"), [1, 7]);
        assert_eq!(r("backward-diagonal"), [3, 5]);
        assert_eq!(r("orthogonal"), [0, 2, 4, 6]);
        assert_eq!(r("diagonal"), [1, 3, 5, 7]);
        assert_eq!(r("all"), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(r("south-west"), [5]);
        assert_eq!(resolve_direction("up", 0), None);
    }

    #[test]
    fn directions_with_forward_diagonal() {
        let r = |n| angles(resolve_direction(n, 1).unwrap());
        assert_eq!(r("forward"), [1]);
        assert_eq!(r("backward"), [5]);
        assert_eq!(r("sideways"), [3, 7]);
        assert_eq!(r("forward-diagonal"), [0, 2]);
        assert_eq!(r("backward-diagonal"), [4, 6]);
        assert_eq!(r("orthogonal"), [0, 2, 4, 6]);
        assert_eq!(r("diagonal"), [1, 3, 5, 7]);
        assert_eq!(r("north"), [0]);
    }
}
