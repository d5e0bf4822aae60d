//! Pieces and the setup: `piece` lines, the side and piece letters, references to pieces by
//! name or plural, and the `setup` lines (written or turned through 180°).

use super::board::{playable, square_name};
use super::*;

impl Checker<'_> {
    pub(super) fn pieces(&mut self, decls: &[&PieceDecl]) -> Vec<PieceInfo> {
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
    pub(super) fn letters(&mut self, sides: Option<&SidesDecl>, pieces: &[&PieceDecl]) {
        let mut all: Vec<&Spanned<String>> = Vec::new();
        if let Some(s) = sides {
            all.extend(s.sides.iter().map(|(_, l)| l));
        }
        all.extend(pieces.iter().map(|p| &p.letter));
        self.check_letters(&all);
    }

    pub(super) fn check_letters(&mut self, letters: &[&Spanned<String>]) {
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

    pub(super) fn bad_letter(&mut self, l: &Spanned<String>) {
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
    pub(super) fn piece_index(
        &mut self,
        pieces: &[PieceInfo],
        name: &Name,
        usage: PieceUse,
    ) -> Option<usize> {
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
    pub(super) fn one_piece(
        &mut self,
        pieces: &[PieceInfo],
        r: &PieceRef,
        usage: PieceUse,
    ) -> Option<u8> {
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

    pub(super) fn piece_mask(&mut self, pieces: &[PieceInfo], r: &PieceRef) -> Option<u8> {
        match r {
            PieceRef::Any(_) => Some(((1u16 << pieces.len().min(8)) - 1) as u8),
            PieceRef::Named(n) => self
                .piece_index(pieces, n, PieceUse::Reference)
                .map(|i| 1u8.checked_shl(i as u32).unwrap_or(0)),
        }
    }

    pub(super) fn setup(
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
        let turn = |c: Coord| board.turn(c);
        // Points left out (`without`) need not be symmetric: a turned piece may land on none.
        if board.squares == SquareSet::All && written[0] != written[1] {
            let (own, other) = if written[0] { (0, 1) } else { (1, 0) };
            let name = |i: usize| side_names.get(i).map_or("", String::as_str).to_string();
            if let Some(&(_, c, span)) = per_side[own].iter().find(|p| !playable(board, turn(p.1)))
            {
                self.errors.push(RuleError::NoSuchPoint {
                    square: square_name(board, turn(c)),
                    what: "point".to_string(),
                    span: span.into(),
                    label: format!(
                        "turned through 180° for `{}`, `{}` lands on `{}`",
                        name(other),
                        square_name(board, c),
                        square_name(board, turn(c))
                    ),
                    help: format!(
                        "write `{}`'s setup too, as in `setup {} …`",
                        name(other),
                        name(other)
                    ),
                });
            }
        }
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
        // Clashing squares, grouped by the two lists (spans) that place them.
        let mut taken_twice = Grouped::default();
        let mut turned_clash = Grouped::default();
        // Two pieces of one side on a square: checked on the sides as written.
        for (side, list) in per_side.iter().enumerate() {
            if !written[side] {
                continue;
            }
            let mut taken: HashMap<Coord, Span> = HashMap::new();
            for &(_, c, span) in list {
                match taken.get(&c) {
                    Some(&first) => taken_twice.add((first, span), c),
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
                taken_twice.add((first, span), c);
            } else if !reported.contains(&turn(c)) {
                // Turned setups clash in pairs (c and its turned square); report each pair once.
                reported.push(c);
                let own_span = if written[0] { first } else { span };
                let turned_span = if written[0] { span } else { first };
                turned_clash.add((own_span, turned_span), c);
            }
        }
        // One diagnostic for each pair of lists, naming all the squares they share, rank by rank.
        for (_, list) in taken_twice.0.iter_mut().chain(turned_clash.0.iter_mut()) {
            list.sort_by_key(|c| (c.1, c.0));
        }
        for ((first, second), squares) in taken_twice.0 {
            self.errors.push(RuleError::SquareTaken {
                squares: square_list(board, &squares, |c| c),
                first: first.into(),
                second: second.into(),
                help: "each square holds one piece; remove the square from one of the lists"
                    .to_string(),
            });
        }
        if !turned_clash.0.is_empty() {
            let (own, other) = if written[0] { (0, 1) } else { (1, 0) };
            let name = |i: usize| side_names.get(i).map_or("", String::as_str).to_string();
            for ((own_span, turned_span), squares) in turned_clash.0 {
                let (piece, one) = if squares.len() == 1 {
                    ("a piece", "one")
                } else {
                    ("pieces", "pieces")
                };
                self.errors.push(RuleError::TurnedSetupClash {
                    squares: square_list(board, &squares, |c| c),
                    own: own_span.into(),
                    own_label: format!(
                        "`{}` has {piece} on {}",
                        name(own),
                        square_names(board, &squares, |c| c)
                    ),
                    turned: turned_span.into(),
                    turned_label: format!(
                        "`{}` has {one} on {}: turned through 180° for `{}`, {} on {}",
                        name(own),
                        square_names(board, &squares, turn),
                        name(other),
                        if squares.len() == 1 { "it lands" } else { "they land" },
                        square_names(board, &squares, |c| c)
                    ),
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
    pub(super) fn empty_start_zones(
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
}

/// Squares grouped by a pair of spans (the two lists that clash there), in the order first met.
#[derive(Default)]
struct Grouped(Vec<((Span, Span), Vec<Coord>)>);

impl Grouped {
    fn add(&mut self, spans: (Span, Span), c: Coord) {
        match self.0.iter_mut().find(|(s, _)| *s == spans) {
            Some((_, list)) => list.push(c),
            None => self.0.push((spans, vec![c])),
        }
    }
}

/// The most squares a diagnostic names before `and N more`.
const NAMED_SQUARES: usize = 12;

/// `` `a1` ``, `` `a1` and `b1` ``, `` `a1`, `b1` and `c1` `` (each square mapped by `f`).
fn square_names(board: &BoardSpec, squares: &[Coord], f: impl Fn(Coord) -> Coord) -> String {
    let mut shown: Vec<String> = squares
        .iter()
        .take(NAMED_SQUARES)
        .map(|&c| format!("`{}`", square_name(board, f(c))))
        .collect();
    if squares.len() > NAMED_SQUARES {
        shown.push(format!("{} more", squares.len() - NAMED_SQUARES));
    }
    match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => shown.concat(),
    }
}

/// `` square `d1` `` or `` squares `a1`, `b1` and `c1` ``.
fn square_list(board: &BoardSpec, squares: &[Coord], f: impl Fn(Coord) -> Coord) -> String {
    let noun = if squares.len() == 1 {
        "square"
    } else {
        "squares"
    };
    format!("{noun} {}", square_names(board, squares, f))
}
