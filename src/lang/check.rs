//! Syntax tree → [`VariantSpec`]: resolves names, directions and squares, applies the defaults,
//! and collects every semantic error of the file (it does not stop at the first).

use std::collections::HashMap;

use super::ast::*;
use super::error::RuleError;
use crate::engine::geometry::{layout_size, LAYOUT_BITS};
use crate::spec::*;

mod sanity;

/// Piece masks are `u8` bit masks of piece indices.
const MAX_PIECES: usize = 8;

/// Check a parsed file and resolve it into a spec, or return every error found.
pub fn check(
    file: &RulesFile,
    source: &str,
    default_name: &str,
) -> Result<VariantSpec, Vec<RuleError>> {
    let mut cx = Checker {
        source,
        errors: Vec::new(),
    };
    let spec = cx.run(file, default_name);
    cx.sanity(file, spec.as_ref());
    match spec {
        Some(spec) if cx.errors.is_empty() => Ok(spec),
        _ => {
            let mut errors = cx.errors;
            if errors.is_empty() {
                // Every path that yields no spec reports why; keep the promise of an error anyway.
                errors.push(RuleError::Conflict {
                    message: "the rules file is incomplete".to_string(),
                    span: Span::new(0, 0).into(),
                    help: "see `variants/dameo.rules` for a complete file".to_string(),
                });
            }
            errors.sort_by_key(first_offset);
            Err(errors)
        }
    }
}

/// Where an error starts, to report errors in file order.
fn first_offset(e: &RuleError) -> usize {
    use miette::Diagnostic;
    e.labels()
        .and_then(|mut l| l.next())
        .map(|l| l.offset())
        .unwrap_or(0)
}

struct Checker<'a> {
    source: &'a str,
    errors: Vec<RuleError>,
}

/// A declared piece, with where it was declared.
struct PieceInfo {
    name: String,
    span: Span,
}

/// The first statement of a kind, and where it was.
fn first_of<'f, T>(
    cx: &mut Checker,
    found: Vec<(Span, &'f T)>,
    what: &str,
    help: &str,
) -> Option<&'f T> {
    let mut it = found.into_iter();
    let (first_span, first) = it.next()?;
    for (span, _) in it {
        cx.errors.push(RuleError::DefinedTwice {
            what: what.to_string(),
            first: first_span.into(),
            second: span.into(),
            help: help.to_string(),
        });
    }
    Some(first)
}

impl Checker<'_> {
    fn text(&self, span: Span) -> &str {
        self.source.get(span.start..span.end).unwrap_or("")
    }

    fn missing(&mut self, what: &str, help: &str) {
        let end = self.source.trim_end().len();
        self.errors.push(RuleError::Missing {
            what: what.to_string(),
            span: Span::new(end, end).into(),
            help: help.to_string(),
        });
    }

    fn run(&mut self, file: &RulesFile, default_name: &str) -> Option<VariantSpec> {
        let mut variants = Vec::new();
        let mut boards = Vec::new();
        let mut sides_decls = Vec::new();
        let mut piece_decls = Vec::new();
        let mut setups = Vec::new();
        let mut captures = Vec::new();
        let mut games = Vec::new();
        let mut moves = Vec::new();
        for st in &file.statements {
            match &st.kind {
                StatementKind::Variant(t) => variants.push((st.span, t)),
                StatementKind::Board(b) => boards.push((st.span, b)),
                StatementKind::Sides(s) => sides_decls.push((st.span, s)),
                StatementKind::Piece(p) => piece_decls.push(p),
                StatementKind::Setup(p) => setups.extend(p.iter()),
                StatementKind::Captures(c) => captures.push((st.span, c)),
                StatementKind::Game(g) => games.push((st.span, g)),
                StatementKind::Moves(m) => moves.push(m),
            }
        }

        let title = first_of(
            self,
            variants,
            "`variant`",
            "a file describes one variant; remove one of the `variant` lines",
        )
        .map(|t| t.node.clone());
        if title.is_none() {
            self.missing(
                "a `variant` line",
                "name the variant at the top of the file, as in `variant \"Dameo\"`",
            );
        }

        let board = match first_of(
            self,
            boards,
            "`board`",
            "keep one `board` line and remove the other",
        ) {
            Some(b) => self.board(b),
            None => {
                self.missing(
                    "a `board` line",
                    "describe the board, as in `board 8x8, all squares, algebraic`",
                );
                None
            }
        };

        let sides_decl = first_of(
            self,
            sides_decls,
            "`sides`",
            "keep one `sides` line and remove the other",
        );
        let sides = match sides_decl {
            Some(s) => Some(self.sides(s)),
            None => {
                self.missing(
                    "a `sides` line",
                    "name the two sides, as in `sides white \"W\", black \"B\"; white moves first`",
                );
                None
            }
        };

        let pieces = self.pieces(&piece_decls);
        if piece_decls.is_empty() {
            self.missing(
                "a `piece` line",
                "declare at least one piece, as in `piece man \"M\"`",
            );
        }
        self.letters(sides_decl, &piece_decls);

        let mut specs: Vec<PieceSpec> = piece_decls
            .iter()
            .map(|p| PieceSpec {
                name: p.name.node.clone(),
                letter: p.letter.node.chars().next().unwrap_or('?'),
                rank: p.rank.as_ref().map_or(1, |r| r.node.clamp(0, 255) as u8),
                value: p.value.as_ref().map_or(1, |v| v.node.clamp(0, 255) as u8),
                quiet: Vec::new(),
                captures: Vec::new(),
                promotions: Vec::new(),
                quiet_limit: None,
            })
            .collect();
        let forward: Angle = sides.as_ref().map_or(0, |s| s.forward);

        // Promotion zones need the board; remember them and resolve after the setup is known.
        let mut seen_moves: HashMap<usize, Span> = HashMap::new();
        for m in &moves {
            let Some(idx) = self.piece_index(&pieces, &m.piece, PieceUse::MovesSection) else {
                continue;
            };
            if let Some(first) = seen_moves.get(&idx) {
                self.errors.push(RuleError::DefinedTwice {
                    what: format!("moves section of `{}`", pieces[idx].name),
                    first: (*first).into(),
                    second: m.piece.span.into(),
                    help: "write all of a piece's moves in one section".to_string(),
                });
                continue;
            }
            seen_moves.insert(idx, m.piece.span);
            for clause in &m.clauses {
                self.move_clause(
                    &pieces,
                    board.as_ref(),
                    forward,
                    &clause.node,
                    &mut specs[idx],
                );
            }
        }

        let side_names: Vec<String> = sides
            .as_ref()
            .map(|s| s.spec.iter().map(|x| x.name.clone()).collect())
            .unwrap_or_default();
        let setup = self.setup(&setups, &pieces, &side_names, board.as_ref());
        if let Some(setup) = &setup {
            self.empty_start_zones(&moves, &pieces, setup);
        }

        let capture_spec = match first_of(
            self,
            captures,
            "`captures:`",
            "write all capture rules in one `captures:` section",
        ) {
            Some(c) => self.captures(c, &pieces, &piece_decls),
            None => default_captures(),
        };
        let game = match first_of(
            self,
            games,
            "`game:`",
            "write all end-of-game rules in one `game:` section",
        ) {
            Some(g) => self.game(g, &pieces),
            None => default_game(),
        };

        let sides = sides?;
        Some(VariantSpec {
            name: default_name.to_string(),
            title: title?,
            board: board?,
            sides: sides.spec,
            first_to_move: sides.first,
            pieces: specs,
            setup: setup?,
            captures: capture_spec,
            game,
            forward,
        })
    }

    fn board(&mut self, b: &BoardDecl) -> Option<BoardSpec> {
        let (w, h) = b.size.node;
        let squares = match (b.dark_only, &b.a1_light) {
            (false, None) => SquareSet::All,
            (false, Some(a1)) => {
                self.errors.push(RuleError::Conflict {
                    message: "the colour of `a1` matters only on a dark-squares board".to_string(),
                    span: a1.span.into(),
                    help: "remove it, or play on `dark squares`".to_string(),
                });
                SquareSet::All
            }
            (true, Some(a1)) if a1.node => SquareSet::DarkA1Light,
            (true, _) => SquareSet::Dark,
        };
        let fits = (2..=16).contains(&w)
            && (2..=16).contains(&h)
            && layout_size(w as u8, h as u8, squares != SquareSet::All) <= LAYOUT_BITS;
        if !fits {
            // As written: a number too large for u64 was read as u64::MAX.
            let written = self.text(b.size.span).to_string();
            let (width, height) = written
                .split_once(['x', 'X'])
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .unwrap_or_else(|| (w.to_string(), h.to_string()));
            self.errors.push(RuleError::BoardSize {
                width,
                height,
                span: b.size.span.into(),
                help: "width and height run from 2 to 16: every board up to 16x16 fits, of all squares (at most 256) or of dark squares".to_string(),
            });
            return None;
        }
        Some(BoardSpec {
            width: w as u8,
            height: h as u8,
            squares,
            notation: if b.numbered {
                Notation::Numbered
            } else {
                Notation::Algebraic
            },
        })
    }

    fn sides(&mut self, s: &SidesDecl) -> SidesInfo {
        let [(n0, l0), (n1, l1)] = &s.sides;
        if n0.node == n1.node {
            self.errors.push(RuleError::DefinedTwice {
                what: format!("side `{}`", n1.node),
                first: n0.span.into(),
                second: n1.span.into(),
                help: "give the two sides different names".to_string(),
            });
        }
        let spec = [
            SideSpec {
                name: n0.node.clone(),
                letter: l0.node.chars().next().unwrap_or('?'),
            },
            SideSpec {
                name: n1.node.clone(),
                letter: l1.node.chars().next().unwrap_or('?'),
            },
        ];
        let names = [n0.node.as_str(), n1.node.as_str()];
        let mut first = 0u8;
        let mut first_span: Option<Span> = None;
        for f in &s.first {
            if let Some(prev) = first_span {
                self.errors.push(RuleError::DefinedTwice {
                    what: "the side that moves first".to_string(),
                    first: prev.into(),
                    second: f.span.into(),
                    help: "say once which side moves first".to_string(),
                });
                continue;
            }
            first_span = Some(f.span);
            match names.iter().position(|n| *n == f.node) {
                Some(i) => first = i as u8,
                None => self.unknown_side(f, &names),
            }
        }
        let mut forward = 0;
        for (i, fd) in s.forward_diagonal.iter().enumerate() {
            if i > 0 {
                self.errors.push(RuleError::DefinedTwice {
                    what: "the forward direction".to_string(),
                    first: s.forward_diagonal[0].span.into(),
                    second: fd.span.into(),
                    help: "say once whether forward is `straight` or `diagonal`".to_string(),
                });
            } else if fd.node {
                forward = 1;
            }
        }
        SidesInfo {
            spec,
            first,
            forward,
        }
    }

    fn unknown_side(&mut self, name: &Name, names: &[&str]) {
        let help = did_you_mean(&name.node, names.iter().copied())
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| format!("the sides are {}", list_names(names.iter().copied())));
        self.errors.push(RuleError::UnknownSide {
            name: name.node.clone(),
            span: name.span.into(),
            help,
        });
    }

    fn pieces(&mut self, decls: &[&PieceDecl]) -> Vec<PieceInfo> {
        let mut out: Vec<PieceInfo> = Vec::new();
        for (i, p) in decls.iter().enumerate() {
            if let Some(prev) = out.iter().find(|q| q.name == p.name.node) {
                self.errors.push(RuleError::DefinedTwice {
                    what: format!("piece `{}`", p.name.node),
                    first: prev.span.into(),
                    second: p.name.span.into(),
                    help: "declare each piece once; give different pieces different names"
                        .to_string(),
                });
            }
            if i == MAX_PIECES {
                self.errors.push(RuleError::Conflict {
                    message: format!("too many kinds of piece: `{}` is the ninth", p.name.node),
                    span: p.name.span.into(),
                    help: "a variant may declare at most 8 kinds of piece".to_string(),
                });
            }
            for (what, v) in [("rank", &p.rank), ("value", &p.value)] {
                if let Some(v) = v {
                    if !(1..=255).contains(&v.node) {
                        self.errors.push(RuleError::OutOfRange {
                            what: what.to_string(),
                            value: self.text(v.span).to_string(),
                            span: v.span.into(),
                            range: "from 1 to 255".to_string(),
                            help: format!("give a {what} from 1 to 255"),
                        });
                    }
                }
            }
            out.push(PieceInfo {
                name: p.name.node.clone(),
                span: p.name.span,
            });
        }
        out
    }

    /// Side and piece letters: each one uppercase letter, all different.
    /// FEN reads them all from one alphabet, so a side and a piece may not share a letter either.
    fn letters(&mut self, sides: Option<&SidesDecl>, pieces: &[&PieceDecl]) {
        let mut all: Vec<&Spanned<String>> = Vec::new();
        if let Some(s) = sides {
            all.extend(s.sides.iter().map(|(_, l)| l));
        }
        all.extend(pieces.iter().map(|p| &p.letter));
        self.check_letters(&all);
    }

    fn check_letters(&mut self, letters: &[&Spanned<String>]) {
        let mut seen: Vec<(char, Span)> = Vec::new();
        for l in letters {
            let mut chars = l.node.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                self.bad_letter(l);
                continue;
            };
            if !c.is_ascii_uppercase() {
                self.bad_letter(l);
                continue;
            }
            if let Some((_, first)) = seen.iter().find(|(d, _)| *d == c) {
                self.errors.push(RuleError::LetterTaken {
                    letter: c.to_string(),
                    first: (*first).into(),
                    second: l.span.into(),
                    help: "every side and every piece needs its own letter".to_string(),
                });
            } else {
                seen.push((c, l.span));
            }
        }
    }

    fn bad_letter(&mut self, l: &Spanned<String>) {
        let suggestion = l
            .node
            .chars()
            .find(|c| c.is_ascii_alphabetic())
            .map(|c| format!("write it as `\"{}\"`", c.to_ascii_uppercase()))
            .unwrap_or_else(|| "use one letter from `A` to `Z`, as in `\"M\"`".to_string());
        self.errors.push(RuleError::BadLetter {
            letter: l.node.clone(),
            span: l.span.into(),
            help: suggestion,
        });
    }

    /// Resolve a reference to one kind of piece.
    fn piece_index(&mut self, pieces: &[PieceInfo], name: &Name, usage: PieceUse) -> Option<usize> {
        if let Some(i) = find_piece(pieces, &name.node) {
            return Some(i);
        }
        let suggestion = did_you_mean(&name.node, pieces.iter().map(|p| p.name.as_str()));
        let help = match suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None if pieces.is_empty() => "declare it first, as in `piece man \"M\"`".to_string(),
            None => format!(
                "the declared pieces are {}; declare it with a `piece` line",
                list_names(pieces.iter().map(|p| p.name.as_str()))
            ),
        };
        let (name_s, span) = (name.node.clone(), name.span.into());
        self.errors.push(match usage {
            PieceUse::Reference => RuleError::UnknownPiece {
                name: name_s,
                span,
                help,
            },
            PieceUse::Promotion => RuleError::PromotionToUnknown {
                name: name_s,
                span,
                help,
            },
            PieceUse::MovesSection => RuleError::MovesForUnknown {
                name: name_s,
                span,
                help,
            },
        });
        None
    }

    /// A piece reference where exactly one kind is meant.
    fn one_piece(&mut self, pieces: &[PieceInfo], r: &PieceRef, usage: PieceUse) -> Option<u8> {
        match r {
            PieceRef::Named(n) => self.piece_index(pieces, n, usage).map(|i| i as u8),
            PieceRef::Any(span) => {
                self.errors.push(RuleError::Conflict {
                    message: "`pieces` means every kind of piece, but one kind is needed here"
                        .to_string(),
                    span: (*span).into(),
                    help: format!(
                        "name one piece, such as {}",
                        either_names(pieces.iter().take(2).map(|p| p.name.as_str()))
                    ),
                });
                None
            }
        }
    }

    fn piece_mask(&mut self, pieces: &[PieceInfo], r: &PieceRef) -> Option<u8> {
        match r {
            PieceRef::Any(_) => Some(((1u16 << pieces.len().min(8)) - 1) as u8),
            PieceRef::Named(n) => self
                .piece_index(pieces, n, PieceUse::Reference)
                .map(|i| 1u8.checked_shl(i as u32).unwrap_or(0)),
        }
    }

    fn directions(&mut self, forward: Angle, dirs: &[Name]) -> AngleSet {
        let mut set = 0;
        for d in dirs {
            match resolve_direction(&d.node, forward) {
                Some(s) => set |= s,
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

    /// The directions of a quiet move (`step`, `slide`, `leap`). On a dark-squares board an
    /// orthogonal direction is a jump to the dark square two squares away, over the light square in
    /// between: the geometry of Frisian draughts' orthogonal captures. As a quiet move it has no
    /// meaning in any game, so it is an error there (captures may still go orthogonally).
    fn quiet_directions(
        &mut self,
        board: Option<&BoardSpec>,
        forward: Angle,
        dirs: &[Name],
        what: &str,
    ) -> AngleSet {
        let set = self.directions(forward, dirs);
        if !board.is_some_and(|b| b.squares != SquareSet::All) {
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
                     for captures; {hint}"
                ),
            });
        }
        set
    }

    fn move_clause(
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
                fly,
                dirs,
                range,
                landing,
            } => {
                let dirs = self.directions(forward, dirs);
                if !*fly {
                    if let Some(r) = range {
                        self.errors.push(RuleError::Conflict {
                            message: "`up to` on a short jump, which always goes one square over \
                                      and one beyond"
                                .to_string(),
                            span: r.span.into(),
                            help: "limit a flying capture instead: `capture fly diagonal up to 2`"
                                .to_string(),
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
                    spec.captures.push(CaptureOp::Jump { dirs });
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
                let zone = match zone {
                    ZoneText::FarRank(span) => {
                        // With `forward is diagonal` the sides play corner to corner: there is no
                        // rank facing the mover, so `far rank` means nothing.
                        if forward % 2 == 1 {
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
                };
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

    /// `up to N`: from 1 to 255.
    fn range(&mut self, r: &Spanned<u64>, what: &str) -> Option<u8> {
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

    /// The squares of a square or a range, each with the span to blame for it. Errors are reported
    /// and the bad squares left out.
    fn squares(&mut self, board: &BoardSpec, r: &SquareRange) -> Vec<(Coord, Span)> {
        let Some(from) = self.square(board, &r.from, r.to.is_none()) else {
            return Vec::new();
        };
        let Some(to_text) = &r.to else {
            return vec![(from, r.from.span)];
        };
        let Some(to) = self.square(board, to_text, false) else {
            return Vec::new();
        };
        let span = r.span();
        let out: Vec<(Coord, Span)> = match (&r.from.node, &to_text.node) {
            (SquareText::Number(_), SquareText::Number(_)) => {
                let (a, b) = (coord_to_number(board, from), coord_to_number(board, to));
                let (Some(a), Some(b)) = (a, b) else {
                    return Vec::new();
                };
                (a.min(b)..=a.max(b))
                    .filter_map(|n| number_to_coord(board, n))
                    .map(|c| (c, span))
                    .collect()
            }
            (SquareText::Algebraic { .. }, SquareText::Algebraic { .. }) => {
                let mut v = Vec::new();
                for rank in from.1.min(to.1)..=from.1.max(to.1) {
                    for file in from.0.min(to.0)..=from.0.max(to.0) {
                        if playable(board, (file, rank)) {
                            v.push(((file, rank), span));
                        }
                    }
                }
                v
            }
            _ => {
                self.errors.push(RuleError::Conflict {
                    message: "a range must join two squares written the same way".to_string(),
                    span: span.into(),
                    help: "write both ends as numbers (`31..50`) or both as names (`a1..h1`)"
                        .to_string(),
                });
                return Vec::new();
            }
        };
        if out.is_empty() {
            self.errors.push(RuleError::NotPlayable {
                square: self.text(span).to_string(),
                span: span.into(),
                help: "the range holds no playable square; check its corners".to_string(),
            });
        }
        out
    }

    /// One written square. `single`: it stands alone (not a range corner), so it must be playable.
    fn square(
        &mut self,
        board: &BoardSpec,
        s: &Spanned<SquareText>,
        single: bool,
    ) -> Option<Coord> {
        let text = self.text(s.span).to_string();
        let coord = match s.node {
            SquareText::Algebraic { file, rank } => {
                if u64::from(file) < u64::from(board.width)
                    && (1..=u64::from(board.height)).contains(&rank)
                {
                    Some((file, (rank - 1) as u8))
                } else {
                    None
                }
            }
            SquareText::Number(n) => {
                if board.notation == Notation::Algebraic {
                    self.errors.push(RuleError::NumberOnAlgebraic {
                        square: text,
                        span: s.span.into(),
                        help: "name the square, as in `a1`, or declare the board `numbered`"
                            .to_string(),
                    });
                    return None;
                }
                u32::try_from(n)
                    .ok()
                    .and_then(|n| number_to_coord(board, n))
            }
        };
        let Some(coord) = coord else {
            let help = match (&s.node, board.notation) {
                (SquareText::Number(_), _) => format!(
                    "the playable squares are numbered from 1 to {}",
                    playable_count(board)
                ),
                _ => format!(
                    "files run from `a` to `{}` and ranks from 1 to {}",
                    (b'a' + board.width - 1) as char,
                    board.height
                ),
            };
            self.errors.push(RuleError::OffBoard {
                square: text,
                width: board.width,
                height: board.height,
                span: s.span.into(),
                help,
            });
            return None;
        };
        if single && !playable(board, coord) {
            let (f, r) = coord;
            let near = [(f + 1, r), (f.wrapping_sub(1), r)]
                .into_iter()
                .find(|&c| c.0 < board.width && playable(board, c))
                .map(|c| {
                    format!(
                        "; the dark square next to it is `{}`",
                        square_name(board, c)
                    )
                })
                .unwrap_or_default();
            self.errors.push(RuleError::NotPlayable {
                square: text,
                span: s.span.into(),
                help: format!("pieces stand on the dark squares only{near}"),
            });
            return None;
        }
        Some(coord)
    }

    fn setup(
        &mut self,
        placements: &[&Placement],
        pieces: &[PieceInfo],
        side_names: &[String],
        board: Option<&BoardSpec>,
    ) -> Option<[Vec<(u8, Coord)>; 2]> {
        if placements.is_empty() {
            self.missing(
                "a `setup` line",
                "place the first side's pieces, as in `setup white man a1..h1`; the second side's are turned through 180°",
            );
            return None;
        }
        let mut per_side: [Vec<(u8, Coord, Span)>; 2] = [Vec::new(), Vec::new()];
        let mut written = [false, false];
        let names: Vec<&str> = side_names.iter().map(String::as_str).collect();
        for p in placements {
            let side = if names.is_empty() {
                None
            } else {
                match names.iter().position(|n| *n == p.side.node) {
                    Some(i) => Some(i),
                    None => {
                        self.unknown_side(&p.side, &names);
                        None
                    }
                }
            };
            let piece = self.one_piece(pieces, &p.piece, PieceUse::Reference);
            let Some(board) = board else { continue };
            let squares: Vec<(Coord, Span)> = p
                .squares
                .iter()
                .flat_map(|r| self.squares(board, r))
                .collect();
            if let (Some(side), Some(piece)) = (side, piece) {
                written[side] = true;
                per_side[side].extend(squares.into_iter().map(|(c, s)| (piece, c, s)));
            }
        }
        let board = board?;
        // A side without setup lines gets the other side's, turned through 180°.
        let turn = |c: Coord| (board.width - 1 - c.0, board.height - 1 - c.1);
        // Turning through 180° keeps a square's colour only when width + height is even: on an
        // 8x9 dark-squares board `a1` turns onto the light `h9`.
        if board.squares != SquareSet::All && written[0] != written[1] {
            let (own, other) = if written[0] { (0, 1) } else { (1, 0) };
            let name = |i: usize| side_names.get(i).map_or("", String::as_str).to_string();
            // Every square changes colour, so one error (at the first piece) says it all.
            if let Some(&(_, c, span)) = per_side[own].iter().find(|p| !playable(board, turn(p.1)))
            {
                self.errors.push(RuleError::TurnedOntoLight {
                    square: square_name(board, c),
                    turned_square: square_name(board, turn(c)),
                    side: name(own),
                    other: name(other),
                    span: span.into(),
                    help: format!(
                        "on the {}x{} board turning through 180° swaps the colour of every square; write `{}`'s setup too, as in `setup {} …`",
                        board.width,
                        board.height,
                        name(other),
                        name(other)
                    ),
                });
            }
        }
        match written {
            [true, false] => {
                per_side[1] = per_side[0]
                    .iter()
                    .map(|&(p, c, s)| (p, turn(c), s))
                    .collect()
            }
            [false, true] => {
                per_side[0] = per_side[1]
                    .iter()
                    .map(|&(p, c, s)| (p, turn(c), s))
                    .collect()
            }
            _ => {}
        }
        // Two pieces of one side on a square: checked on the sides as written.
        for (side, list) in per_side.iter().enumerate() {
            if !written[side] {
                continue;
            }
            let mut taken: HashMap<Coord, Span> = HashMap::new();
            for &(_, c, span) in list {
                match taken.get(&c) {
                    Some(first) => self.errors.push(RuleError::SquareTaken {
                        square: square_name(board, c),
                        first: (*first).into(),
                        second: span.into(),
                        help:
                            "each square holds one piece; remove the square from one of the lists"
                                .to_string(),
                    }),
                    None => {
                        taken.insert(c, span);
                    }
                }
            }
        }
        // A piece of each side on a square.
        let first_side: HashMap<Coord, Span> =
            per_side[0].iter().map(|&(_, c, s)| (c, s)).collect();
        let mut reported: Vec<Coord> = Vec::new();
        for &(_, c, span) in &per_side[1] {
            let Some(&first) = first_side.get(&c) else {
                continue;
            };
            if written == [true, true] {
                self.errors.push(RuleError::SquareTaken {
                    square: square_name(board, c),
                    first: first.into(),
                    second: span.into(),
                    help: "each square holds one piece; remove the square from one of the lists"
                        .to_string(),
                });
            } else if !reported.contains(&turn(c)) {
                // Turned setups clash in pairs (c and its turned square); report each pair once.
                reported.push(c);
                let (own, other) = if written[0] { (0, 1) } else { (1, 0) };
                let name = |i: usize| side_names.get(i).map_or("", String::as_str).to_string();
                let own_span = if own == 0 { first } else { span };
                let turned_span = if own == 0 { span } else { first };
                self.errors.push(RuleError::TurnedSetupClash {
                    square: square_name(board, c),
                    turned_square: square_name(board, turn(c)),
                    side: name(own),
                    other: name(other),
                    own: own_span.into(),
                    turned: turned_span.into(),
                    help: format!(
                        "keep `{}`'s pieces on its own half of the board, or write `{}`'s setup too",
                        name(own),
                        name(other)
                    ),
                });
            }
        }
        if per_side.iter().all(|s| s.is_empty()) {
            return None;
        }
        Some(per_side.map(|list| list.into_iter().map(|(p, c, _)| (p, c)).collect()))
    }

    /// `promote to … on start of enemy <piece>` where a side starts without that piece: the zone
    /// would be empty and the promotion silently impossible.
    fn empty_start_zones(
        &mut self,
        moves: &[&MovesDecl],
        pieces: &[PieceInfo],
        setup: &[Vec<(u8, Coord)>; 2],
    ) {
        for m in moves {
            for clause in &m.clauses {
                let MoveClause::Promote {
                    zone: ZoneText::EnemyStart(PieceRef::Named(name)),
                    ..
                } = &clause.node
                else {
                    continue;
                };
                let Some(idx) = find_piece(pieces, &name.node) else {
                    continue;
                };
                if setup
                    .iter()
                    .any(|side| side.iter().all(|&(p, _)| usize::from(p) != idx))
                {
                    self.errors.push(RuleError::EmptyZone {
                        piece: pieces[idx].name.clone(),
                        span: name.span.into(),
                        help: "name the squares instead, as in `promote to king on h8`".to_string(),
                    });
                }
            }
        }
    }

    fn captures(
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
                CaptureRule::EqualOrLowerRank => "`only equal or lower rank`",
                CaptureRule::MidCapture(_) => "promotion during a capture",
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
                CaptureRule::Priority(list) => {
                    spec.priority = self.priority(list, pieces, any_rank);
                }
            }
        }
        spec
    }

    fn needs_ranks(&mut self, criterion: &str, span: Span) {
        self.errors.push(RuleError::NeedsRanks {
            criterion: criterion.to_string(),
            span: span.into(),
            help: "give the pieces ranks, as in `piece king \"K\" rank 2`".to_string(),
        });
    }

    /// `most captured`: neither a fixed criterion nor `most <piece>`; list the criteria.
    fn unknown_criterion(&mut self, span: Span, most: bool, word: &str, pieces: &[PieceInfo]) {
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

    fn priority(
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

    fn game(&mut self, rules: &[Spanned<GameRule>], pieces: &[PieceInfo]) -> GameSpec {
        let mut spec = default_game();
        let mut repetition: Option<Span> = None;
        for r in rules {
            match &r.node {
                GameRule::NoMovesLoses => spec.no_moves_loses = true,
                GameRule::LoneBeats(a, b) => {
                    let a = self.one_piece(pieces, a, PieceUse::Reference);
                    let b = self.one_piece(pieces, b, PieceUse::Reference);
                    if let (Some(a), Some(b)) = (a, b) {
                        spec.lone_wins.push((a, b));
                    }
                }
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
}

impl Checker<'_> {
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

struct SidesInfo {
    spec: [SideSpec; 2],
    first: u8,
    forward: Angle,
}

#[derive(Clone, Copy)]
enum PieceUse {
    Reference,
    Promotion,
    MovesSection,
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
        priority: Vec::new(),
    }
}

/// Defaults for the `game:` section: no legal move loses, draw on the third repetition.
pub(crate) fn default_game() -> GameSpec {
    GameSpec {
        no_moves_loses: true,
        lone_wins: Vec::new(),
        lose_without: Vec::new(),
        repetition_draw: 3,
        repetition_claimed: false,
        move_count_draws: Vec::new(),
    }
}

/// The priority criteria that take no piece.
const CRITERIA: [&str; 5] = [
    "free",
    "most pieces",
    "most value",
    "highest capturer",
    "highest captured ranks",
];

/// The relative direction words; the compass names ([`ANGLE_NAMES`], absolute as the first side
/// sees the board) are direction words too.
const RELATIVE_DIRECTIONS: [&str; 8] = [
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
fn direction_names() -> impl Iterator<Item = &'static str> {
    RELATIVE_DIRECTIONS.into_iter().chain(ANGLE_NAMES)
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

/// The four orthogonal angles (north, east, south, west), whichever side moves.
const ORTHOGONAL_ANGLES: AngleSet = 0b0101_0101;

/// Whether a square is played on.
pub(crate) fn playable(board: &BoardSpec, (f, r): Coord) -> bool {
    match board.squares {
        SquareSet::All => true,
        SquareSet::Dark => (f + r) % 2 == 0,
        SquareSet::DarkA1Light => (f + r) % 2 == 1,
    }
}

fn playable_count(board: &BoardSpec) -> u32 {
    (0..board.height)
        .flat_map(|r| (0..board.width).map(move |f| (f, r)))
        .filter(|&c| playable(board, c))
        .count() as u32
}

/// Playable squares in numbering order: from the top-left as the first side sees the board, row by
/// row from the highest rank down, each row left to right.
fn numbering(board: &BoardSpec) -> impl Iterator<Item = Coord> + '_ {
    (0..board.height)
        .rev()
        .flat_map(move |r| (0..board.width).map(move |f| (f, r)))
        .filter(move |&c| playable(board, c))
}

/// The square of a number (from 1), if there is one.
pub(crate) fn number_to_coord(board: &BoardSpec, n: u32) -> Option<Coord> {
    let i = usize::try_from(n.checked_sub(1)?).ok()?;
    numbering(board).nth(i)
}

/// The number (from 1) of a playable square.
pub(crate) fn coord_to_number(board: &BoardSpec, c: Coord) -> Option<u32> {
    numbering(board).position(|d| d == c).map(|i| i as u32 + 1)
}

/// A square's name in the board's notation.
pub(crate) fn square_name(board: &BoardSpec, c: Coord) -> String {
    match (board.notation, coord_to_number(board, c)) {
        (Notation::Numbered, Some(n)) => n.to_string(),
        _ => format!("{}{}", (b'a' + c.0) as char, u32::from(c.1) + 1),
    }
}

/// A piece by name or plural (`kings`, `men`, `damas`, `boxes`).
fn find_piece(pieces: &[PieceInfo], word: &str) -> Option<usize> {
    pieces.iter().position(|p| {
        let n = p.name.as_str();
        word == n
            || word.strip_suffix('s') == Some(n)
            || word.strip_suffix("es") == Some(n)
            || (n.ends_with("man") && word.strip_suffix("men") == n.strip_suffix("man"))
    })
}

/// `a`, `a` and `b`, `a`, `b` and `c`.
fn list_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    join_names(names, "and")
}

/// `a`, `a` or `b`, `a`, `b` or `c`.
fn either_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    join_names(names, "or")
}

fn join_names<'a>(names: impl Iterator<Item = &'a str>, conjunction: &str) -> String {
    let v: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    match v.as_slice() {
        [] => "none".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conjunction} {}", init.join(", "), last),
    }
}

/// The closest candidate within a small edit distance, if any.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .map(|c| (crate::util::edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
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

    fn board(w: u8, h: u8, squares: SquareSet) -> BoardSpec {
        BoardSpec {
            width: w,
            height: h,
            squares,
            notation: Notation::Numbered,
        }
    }

    #[test]
    fn numbered_squares_international() {
        let b = board(10, 10, SquareSet::Dark);
        assert_eq!(number_to_coord(&b, 1), Some((1, 9))); // b10
        assert_eq!(number_to_coord(&b, 5), Some((9, 9))); // j10
        assert_eq!(number_to_coord(&b, 6), Some((0, 8))); // a9
        assert_eq!(number_to_coord(&b, 46), Some((0, 0))); // a1
        assert_eq!(number_to_coord(&b, 50), Some((8, 0))); // i1
        assert_eq!(number_to_coord(&b, 0), None);
        assert_eq!(number_to_coord(&b, 51), None);
        assert_eq!(coord_to_number(&b, (0, 0)), Some(46));
        assert_eq!(coord_to_number(&b, (1, 0)), None);
    }

    #[test]
    fn numbered_squares_8x8() {
        let b = board(8, 8, SquareSet::Dark);
        assert_eq!(number_to_coord(&b, 29), Some((0, 0))); // a1
        assert_eq!(number_to_coord(&b, 32), Some((6, 0))); // g1
        assert_eq!(number_to_coord(&b, 1), Some((1, 7))); // b8
        let mirrored = board(8, 8, SquareSet::DarkA1Light);
        assert_eq!(number_to_coord(&mirrored, 1), Some((0, 7))); // a8
        assert_eq!(number_to_coord(&mirrored, 32), Some((7, 0))); // h1
        for n in 1..=32 {
            let c = number_to_coord(&b, n).unwrap();
            assert_eq!(coord_to_number(&b, c), Some(n));
        }
    }

    #[test]
    fn edit_distance() {
        assert_eq!(
            did_you_mean("kng", ["man", "king"].into_iter()),
            Some("king")
        );
        assert_eq!(did_you_mean("queen", ["man", "king"].into_iter()), None);
    }
}
