//! The board and the sides: the `board` line (size, playable squares, notation), the `sides`
//! line (names, who moves first, which way is forward) and the squares written in setups and
//! promotion zones, with the board's numbering.

use super::*;

impl Checker<'_> {
    pub(super) fn board(&mut self, b: &BoardDecl) -> Option<BoardSpec> {
        let spec = self.board_shape(b)?;
        Some(self.across_light(b, spec))
    }

    fn board_shape(&mut self, b: &BoardDecl) -> Option<BoardSpec> {
        let (w, h) = b.size.node;
        let mut kind: Option<&Spanned<BoardForm>> = None;
        let mut a1: Option<(bool, Span)> = None;
        let mut alquerque: Option<Span> = None;
        let mut notation: Option<(bool, Span)> = None;
        let mut without: Vec<&SquareRange> = Vec::new();
        for form in &b.forms {
            let span = form.span;
            match &form.node {
                BoardForm::AllSquares
                | BoardForm::DarkSquares
                | BoardForm::AllPoints
                | BoardForm::CornersAndCentres => {
                    if let Some(first) = kind {
                        self.form_twice(
                            "which squares are played",
                            first.span,
                            span,
                            first.node == form.node,
                        );
                    } else {
                        kind = Some(form);
                    }
                }
                BoardForm::A1Light(light) => match a1 {
                    Some((_, first)) => self.form_twice("the colour of `a1`", first, span, false),
                    None => a1 = Some((*light, span)),
                },
                BoardForm::AlquerqueLines => match alquerque {
                    Some(first) => self.form_twice("the lines", first, span, true),
                    None => alquerque = Some(span),
                },
                BoardForm::Numbered(n) => match notation {
                    Some((m, first)) => self.form_twice("the notation", first, span, m == *n),
                    None => notation = Some((*n, span)),
                },
                BoardForm::Without(list) => without.extend(list.iter()),
                // Checked once the squares are known (`across_light`).
                BoardForm::OrthogonalAcrossLight => {}
            }
        }
        let dark = kind.is_some_and(|k| k.node == BoardForm::DarkSquares);
        if b.hexagon {
            return self.hexagon(b, kind, a1, alquerque, notation, &without);
        }
        if kind.is_some_and(|k| k.node == BoardForm::CornersAndCentres) {
            return self.cells_grid(b, a1, alquerque, notation, &without);
        }
        if let Some(span) = b.cells {
            self.errors.push(RuleError::Conflict {
                message: "`cells` counts the cells of a grid drawn with their corners and \
                          centres, and this board is not one"
                    .to_string(),
                span: span.into(),
                help: format!(
                    "write `board {}x{} cells, corners and centres`, or leave out `cells` to count \
                     squares or points",
                    w, h
                ),
            });
        }
        let squares = match (dark, a1) {
            (false, None) => SquareSet::All,
            (false, Some((_, span))) => {
                self.errors.push(RuleError::Conflict {
                    message: "the colour of `a1` matters only on a dark-squares board".to_string(),
                    span: span.into(),
                    help: "remove it, or play on `dark squares`".to_string(),
                });
                SquareSet::All
            }
            (true, Some((true, _))) => SquareSet::DarkA1Light,
            (true, _) => SquareSet::Dark,
        };
        if let (true, Some(span)) = (dark, alquerque) {
            self.errors.push(RuleError::Conflict {
                message: "`alquerque lines` on a dark-squares board, whose squares all lie on \
                          diagonal lines"
                    .to_string(),
                span: span.into(),
                help: "the alquerque pattern needs every point: write `all points`".to_string(),
            });
        }
        let fits = (2..=16).contains(&w)
            && (2..=16).contains(&h)
            && layout_size(w as u8, h as u8, squares != SquareSet::All) <= LAYOUT_BITS;
        if !fits {
            // As written: a number too large for u64 was read as u64::MAX.
            let (width, height) = self.written_size(b.size.span, w, h);
            self.errors.push(RuleError::BoardSize {
                width,
                height,
                span: b.size.span.into(),
                help: "width and height run from 2 to 16: every board up to 16x16 fits, of all squares (at most 256) or of dark squares".to_string(),
            });
            return None;
        }
        let spec = BoardSpec {
            width: w as u8,
            height: h as u8,
            squares,
            notation: match notation {
                Some((true, _)) => Notation::Numbered,
                _ => Notation::Algebraic,
            },
            shape: Shape::Rectangle,
            lines: if alquerque.is_some() && !dark {
                Lines::Alquerque
            } else {
                Lines::EveryPoint
            },
            removed: Vec::new(),
            points: kind.is_some_and(|k| k.node == BoardForm::AllPoints),
            orthogonal_across: false,
        };
        self.finish_board(b, spec, &without)
    }

    /// `board hexagon N`: the cells of a hexagon of side N, in the (2N-1) x (2N-1) rectangle of
    /// their axial coordinates.
    fn hexagon(
        &mut self,
        b: &BoardDecl,
        kind: Option<&Spanned<BoardForm>>,
        a1: Option<(bool, Span)>,
        alquerque: Option<Span>,
        notation: Option<(bool, Span)>,
        without: &[&SquareRange],
    ) -> Option<BoardSpec> {
        let hex_help = "a hexagon's cells are all played and joined by six lines; write \
                        `board hexagon 5` with only `algebraic` or `numbered` (and `without …`)";
        if let Some(k) = kind.filter(|k| k.node == BoardForm::DarkSquares) {
            self.errors.push(RuleError::Conflict {
                message: "`dark squares` on a hexagon, which has no colours".to_string(),
                span: k.span.into(),
                help: hex_help.to_string(),
            });
        }
        if let Some(k) = kind.filter(|k| k.node == BoardForm::CornersAndCentres) {
            self.errors.push(RuleError::Conflict {
                message: "`corners and centres` on a hexagon, whose cells have no corners to \
                          play on"
                    .to_string(),
                span: k.span.into(),
                help: hex_help.to_string(),
            });
        }
        self.own_lines(
            a1,
            alquerque,
            "a hexagon, whose six lines pass through every cell",
            hex_help,
        );
        let side = b.size.node.0;
        if !(2..=8).contains(&side) {
            self.errors.push(RuleError::OutOfRange {
                what: "side of a hexagon".to_string(),
                value: self
                    .text(b.size.span)
                    .trim_start_matches("hexagon")
                    .trim()
                    .to_string(),
                span: b.size.span.into(),
                range: "from 2 to 8".to_string(),
                help: "a hexagon of side N takes a (2N-1) x (2N-1) rectangle of coordinates, at \
                       most 15x15; HexDame's board is `hexagon 5` (61 cells)"
                    .to_string(),
            });
            return None;
        }
        let w = (2 * side - 1) as u8;
        let spec = BoardSpec {
            width: w,
            height: w,
            squares: SquareSet::All,
            notation: match notation {
                Some((true, _)) => Notation::Numbered,
                _ => Notation::Algebraic,
            },
            shape: Shape::Hexagon,
            lines: Lines::EveryPoint,
            removed: Vec::new(),
            points: false,
            orthogonal_across: false,
        };
        self.finish_board(b, spec, without)
    }

    /// `board WxH cells, corners and centres`: a grid of W x H cells, each crossed by both its
    /// diagonals, with pieces on the cells' corners and centres; the dark points of the
    /// (2W + 1) x (2H + 1) lattice (see [`Lines::CornersAndCentres`]).
    fn cells_grid(
        &mut self,
        b: &BoardDecl,
        a1: Option<(bool, Span)>,
        alquerque: Option<Span>,
        notation: Option<(bool, Span)>,
        without: &[&SquareRange],
    ) -> Option<BoardSpec> {
        let help = "a grid of corners and centres has its own points and lines; write \
                    `board 5x6 cells, corners and centres` with only `algebraic` or `numbered` \
                    (and `without …`)";
        self.own_lines(
            a1,
            alquerque,
            "a grid of corners and centres, whose diagonals pass through every point and whose \
             orthogonal lines join the corners",
            help,
        );
        let (w, h) = b.size.node;
        if b.cells.is_none() {
            self.errors.push(RuleError::Conflict {
                message: "`corners and centres` needs the grid's size in cells".to_string(),
                span: b.size.span.into(),
                help: format!(
                    "write `board {w}x{h} cells, corners and centres`: {w}x{h} cells have \
                     {}x{} corners",
                    w.saturating_add(1),
                    h.saturating_add(1)
                ),
            });
            return None;
        }
        if !(1..=7).contains(&w) || !(1..=7).contains(&h) {
            let (width, height) = self.written_size(b.size.span, w, h);
            self.errors.push(RuleError::BoardSize {
                width,
                height,
                span: b.size.span.into(),
                help: "a grid of corners and centres runs from 1 to 7 cells each way (its \
                       corners and centres lie on a lattice of at most 15x15 points)"
                    .to_string(),
            });
            return None;
        }
        let spec = BoardSpec {
            width: (2 * w + 1) as u8,
            height: (2 * h + 1) as u8,
            squares: SquareSet::Dark,
            notation: match notation {
                Some((true, _)) => Notation::Numbered,
                _ => Notation::Algebraic,
            },
            shape: Shape::Rectangle,
            lines: Lines::CornersAndCentres,
            removed: Vec::new(),
            points: true,
            orthogonal_across: false,
        };
        self.finish_board(b, spec, without)
    }

    /// The points left out (`without …`), and the check that the lines join what is left.
    fn finish_board(
        &mut self,
        b: &BoardDecl,
        mut spec: BoardSpec,
        without: &[&SquareRange],
    ) -> Option<BoardSpec> {
        let mut removed = Vec::new();
        for r in without {
            removed.extend(self.squares(&spec, r).into_iter().map(|(c, _)| c));
        }
        spec.removed = removed;
        if spec.points().count() < 2 {
            self.errors.push(RuleError::Conflict {
                message: "the board keeps fewer than two points".to_string(),
                span: b.size.span.into(),
                help: "leave out fewer points with `without`".to_string(),
            });
            return None;
        }
        let cut = spec.unreachable();
        if !cut.is_empty() {
            let first = spec
                .points()
                .next()
                .map_or(String::new(), |c| square_name(&spec, c));
            let names: Vec<String> = cut.iter().take(4).map(|&c| square_name(&spec, c)).collect();
            let more = if cut.len() > 4 { ", …" } else { "" };
            let span = b
                .forms
                .iter()
                .find(|f| matches!(f.node, BoardForm::Without(_)))
                .map_or(b.size.span, |f| f.span);
            self.errors.push(RuleError::Disconnected {
                message: format!(
                    "no line joins `{first}` to {}{more}",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                span: span.into(),
                help: "every point must be reachable along the lines from every other; leave \
                       out fewer points"
                    .to_string(),
            });
            return None;
        }
        Some(spec)
    }

    /// A board form written twice: the same (`same`) or two that contradict each other.
    /// `a1 …` and `alquerque lines` written for a board whose points and lines are its own (`on`
    /// says which and why): each is a conflict at its text.
    fn own_lines(
        &mut self,
        a1: Option<(bool, Span)>,
        alquerque: Option<Span>,
        on: &str,
        help: &str,
    ) {
        for (what, span) in [
            ("the colour of `a1`", a1.map(|a| a.1)),
            ("`alquerque lines`", alquerque),
        ] {
            if let Some(span) = span {
                self.errors.push(RuleError::Conflict {
                    message: format!("{what} on {on}"),
                    span: span.into(),
                    help: help.to_string(),
                });
            }
        }
    }

    /// A board size as written (a number too large for u64 was read as u64::MAX), else as read.
    fn written_size(&self, span: Span, w: u64, h: u64) -> (String, String) {
        self.text(span)
            .split_once(['x', 'X'])
            .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
            .unwrap_or_else(|| (w.to_string(), h.to_string()))
    }

    pub(super) fn form_twice(&mut self, what: &str, first: Span, second: Span, same: bool) {
        if same {
            self.errors.push(RuleError::DefinedTwice {
                what: what.to_string(),
                first: first.into(),
                second: second.into(),
                help: "say it once on the `board` line".to_string(),
            });
        } else {
            self.errors.push(RuleError::Conflict {
                message: format!(
                    "`{}` contradicts `{}`: {what} is said twice",
                    self.text(second),
                    self.text(first)
                ),
                span: second.into(),
                help: format!("keep one of them; `{}` came first", self.text(first)),
            });
        }
    }

    pub(super) fn sides(&mut self, s: &SidesDecl) -> SidesInfo {
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

    pub(super) fn unknown_side(&mut self, name: &Name, names: &[&str]) {
        let help = did_you_mean(&name.node, names.iter().copied())
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| format!("the sides are {}", list_names(names.iter().copied())));
        self.errors.push(RuleError::UnknownSide {
            name: name.node.clone(),
            span: name.span.into(),
            help,
        });
    }

    /// The squares of a square or a range, each with the span to blame for it. Errors are reported
    /// and the bad squares left out.
    pub(super) fn squares(&mut self, board: &BoardSpec, r: &SquareRange) -> Vec<(Coord, Span)> {
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
                        if board.is_point((file, rank)) {
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
    pub(super) fn square(
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
        if single && !board.is_point(coord) {
            let cells_gap = board.cells().is_some() && (coord.0 + coord.1) % 2 != 0;
            if board.squares == SquareSet::All || board.cells().is_some() {
                let (what, label, help) = match board.shape {
                    _ if cells_gap => (
                        "point",
                        "between the corners and the centres",
                        "on a grid of corners and centres the corners have an odd file letter and \
                         an odd rank (`a1`, `c1`, `a3`), the centres an even file letter and an \
                         even rank (`b2`, `d2`, `b4`)"
                            .to_string(),
                    ),
                    Shape::Hexagon => (
                        "cell",
                        "outside the hexagon",
                        format!(
                            "a hexagon's cells have |file - rank| < {}: the corners of its \
                             rectangle of coordinates are no cells",
                            board.hex_side()
                        ),
                    ),
                    Shape::Rectangle => (
                        "point",
                        "left out with `without`",
                        "the `board` line leaves this point out".to_string(),
                    ),
                };
                self.errors.push(RuleError::NoSuchPoint {
                    square: text,
                    what: what.to_string(),
                    span: s.span.into(),
                    label: label.to_string(),
                    help,
                });
                return None;
            }
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
}

/// Whether a square is played on (a point of the board).
pub(crate) fn playable(board: &BoardSpec, c: Coord) -> bool {
    board.is_point(c)
}

pub(super) fn playable_count(board: &BoardSpec) -> u32 {
    board.points().count() as u32
}

/// Playable squares in numbering order: from the top-left as the first side sees the board, row by
/// row from the highest rank down, each row left to right (see [`BoardSpec::reading_order`]).
pub(super) fn numbering(board: &BoardSpec) -> impl Iterator<Item = Coord> + '_ {
    board.reading_order().into_iter()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn board(w: u8, h: u8, squares: SquareSet) -> BoardSpec {
        BoardSpec {
            width: w,
            height: h,
            squares,
            notation: Notation::Numbered,
            shape: Shape::Rectangle,
            lines: Lines::EveryPoint,
            removed: Vec::new(),
            points: false,
            orthogonal_across: false,
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
}
