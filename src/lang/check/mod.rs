//! Syntax tree → [`VariantSpec`]: resolves names, directions and squares, applies the defaults,
//! and collects every semantic error of the file (it does not stop at the first).
//!
//! This file runs the checks in order and holds what they share; each statement's checks live in
//! their own file: `board` (board, sides, squares), `pieces` (pieces, letters, setup), `moves`
//! (a piece's moves section), `captures` (the `captures:` section), `game` (the `game:` section),
//! `sanity` (rules that read well but mean nothing) and `warnings` (for a file that loads).

use std::collections::HashMap;

use super::ast::*;
use super::error::RuleError;
use crate::spec::board::{layout_size, LAYOUT_BITS};
use crate::spec::*;

mod approach;
mod board;
mod captures;
mod combat;
mod edge;
mod family;
mod game;
mod moves;
mod pieces;
mod placement;
mod rowleap;
mod sanity;
mod stacks;
mod warnings;

use captures::default_captures;
use game::default_game;
pub(crate) use moves::is_direction;
pub(crate) use warnings::warnings;

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
                    help: format!(
                        "docs/language.md lists the statements a file needs; `damelab show {}` \
                         prints a complete file",
                        crate::variants::DEFAULT
                    ),
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
        let mut placement_sections = Vec::new();
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
                StatementKind::Placement(p) => placement_sections.push((st.span, p)),
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

        let mut specs = piece_specs(&piece_decls);
        let forward = self.forward(board.as_ref(), sides_decl, sides.as_ref());
        self.moves_sections(&moves, &pieces, board.as_ref(), forward, &mut specs);

        let side_names: Vec<String> = sides
            .as_ref()
            .map(|s| s.spec.iter().map(|x| x.name.clone()).collect())
            .unwrap_or_default();
        let (setup, hands) = self.setup_and_hands(setups, &pieces, &side_names, board.as_ref());
        if let Some(setup) = &setup {
            self.empty_start_zones(&moves, &pieces, setup);
        }

        let capture_rules = first_of(
            self,
            captures,
            "`captures:`",
            "write all capture rules in one `captures:` section",
        );
        let mut capture_spec = match capture_rules {
            Some(c) => self.captures(c, &pieces, &piece_decls),
            None => default_captures(),
        };
        let capture_list = capture_rules.map_or(&[][..], |c| &c[..]);
        self.step_captures(&moves, capture_list, &mut capture_spec);
        self.stacks(
            &moves,
            capture_list,
            piece_decls.len(),
            board.as_ref(),
            setup.as_ref(),
        );
        let input = placement::PlacementInput::new(hands, placement_sections, capture_rules);
        let placement =
            self.placement(&input, &pieces, &side_names, board.as_ref(), setup.as_ref());
        self.edge_turns(&moves, capture_list);
        self.row_leaps(&moves, capture_list);
        let game_rules = first_of(
            self,
            games,
            "`game:`",
            "write all end-of-game rules in one `game:` section",
        );
        let mut game = match game_rules {
            Some(g) => self.game(g, &pieces, board.as_ref(), forward),
            None => default_game(),
        };
        game.combat = self.combat(game_rules.map_or(&[][..], |g| &g[..]), capture_list, &specs);

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
            placement,
        })
    }

    /// The first side's forward: as the `sides` line says, or straight ahead on a hexagon (where
    /// `forward is diagonal` is refused).
    fn forward(
        &mut self,
        board: Option<&BoardSpec>,
        sides_decl: Option<&SidesDecl>,
        sides: Option<&SidesInfo>,
    ) -> Angle {
        // A hexagon is drawn with a corner toward each side: forward is straight up its
        // upright diagonal, and no other forward means anything there.
        if let Some(b) = board.filter(|b| b.shape == Shape::Hexagon) {
            for fd in sides_decl.iter().flat_map(|s| &s.forward_diagonal) {
                if fd.node {
                    self.errors.push(RuleError::Conflict {
                        message: "`forward is diagonal` on a hexagon, whose sides face each \
                                  other corner to corner"
                            .to_string(),
                        span: fd.span.into(),
                        help: "remove it: on a hexagon forward is straight toward the far \
                               corner, and `forward-diagonal` names the two oblique lines"
                            .to_string(),
                    });
                }
            }
            return b.straight_ahead();
        }
        sides.map_or(0, |s| s.forward)
    }

    /// Each piece's moves section, checked into its spec (one section a piece).
    fn moves_sections(
        &mut self,
        moves: &[&MovesDecl],
        pieces: &[PieceInfo],
        board: Option<&BoardSpec>,
        forward: Angle,
        specs: &mut [PieceSpec],
    ) {
        // Promotion zones need the board; remember them and resolve after the setup is known.
        let mut seen_moves: HashMap<usize, Span> = HashMap::new();
        for m in moves {
            let Some(idx) = self.piece_index(pieces, &m.piece, PieceUse::MovesSection) else {
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
                self.move_clause(pieces, board, forward, &clause.node, &mut specs[idx]);
            }
        }
    }
}

/// The pieces' specs as declared, before their moves are read.
fn piece_specs(piece_decls: &[&PieceDecl]) -> Vec<PieceSpec> {
    piece_decls
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
            one_line: false,
            edge_turn: false,
            row_leap: false,
        })
        .collect()
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

    #[test]
    fn edit_distance() {
        assert_eq!(
            did_you_mean("kng", ["man", "king"].into_iter()),
            Some("king")
        );
        assert_eq!(did_you_mean("queen", ["man", "king"].into_iter()), None);
    }
}
