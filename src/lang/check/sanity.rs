//! Checks for rules that read well but mean nothing (issue 13): each a diagnostic with a span
//! instead of a variant that silently does something else.
//!
//! - a piece whose name is another piece's plural (`man` and `men`: every `men` meant `man`);
//! - more kinds of piece than the engine handles (found here, with a place, not at compile time);
//! - a piece promoting to itself (`promote to man` for a man);
//! - `lone man beats lone man`: one piece named twice, so no side could win by it;
//! - `no man loses` where a side starts without a man: the game would be over at move 0;
//! - `first king wins` where a side starts with a king: the game would be won at move 0;
//! - `reaching ZONE wins` where a side starts with a piece on its goal: the same;
//! - an ordinal with the wrong suffix (`2rd`).

use super::*;

/// Is `word` the plural of `name`, as [`find_piece`] reads plurals?
fn plural_of(word: &str, name: &str) -> bool {
    word.strip_suffix('s') == Some(name)
        || word.strip_suffix("es") == Some(name)
        || (name.ends_with("man") && word.strip_suffix("men") == name.strip_suffix("man"))
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `12th`, `13th`, `21st`, …
fn ordinal_suffix(n: u64) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn nth(n: usize) -> String {
    format!("{n}{}", ordinal_suffix(n as u64))
}

impl Checker<'_> {
    /// Run after the file is resolved; `spec` when it could be built (for the setup).
    pub(super) fn sanity(&mut self, file: &RulesFile, spec: Option<&VariantSpec>) {
        let decls: Vec<&PieceDecl> = file
            .statements
            .iter()
            .filter_map(|s| match &s.kind {
                StatementKind::Piece(p) => Some(p),
                _ => None,
            })
            .collect();
        let names: Vec<&str> = decls.iter().map(|p| p.name.node.as_str()).collect();
        self.plural_clashes(&decls);
        self.too_many_kinds(&decls);
        let index = |n: &Name| names.iter().position(|&x| x == n.node);
        for st in &file.statements {
            match &st.kind {
                StatementKind::Moves(m) => {
                    for c in &m.clauses {
                        if let MoveClause::Promote {
                            to: PieceRef::Named(to),
                            ..
                        } = &c.node
                        {
                            if index(to).is_some() && index(to) == index(&m.piece) {
                                self.errors.push(RuleError::Conflict {
                                    message: format!("`{}` promotes to itself", m.piece.node),
                                    span: to.span.into(),
                                    help: "promote to another piece, or remove the clause"
                                        .to_string(),
                                });
                            }
                        }
                    }
                }
                StatementKind::Game(rules) => {
                    for r in rules {
                        self.game_rule(r, &names, spec);
                    }
                    self.goals_reached_at_start(rules, &names, spec);
                }
                _ => {}
            }
        }
    }

    fn plural_clashes(&mut self, decls: &[&PieceDecl]) {
        for p in decls {
            if let Some(q) = decls.iter().find(|q| plural_of(&p.name.node, &q.name.node)) {
                self.errors.push(RuleError::Conflict {
                    message: format!(
                        "piece `{}` is also the plural of piece `{}`",
                        p.name.node, q.name.node
                    ),
                    span: p.name.span.into(),
                    help: format!(
                        "a plural names every piece of its kind, so `{}` would be read as `{}`; \
                         give one of them another name",
                        p.name.node, q.name.node
                    ),
                });
            }
        }
    }

    fn too_many_kinds(&mut self, decls: &[&PieceDecl]) {
        let max = crate::spec::MAX_KINDS;
        // The ninth and later are reported by the piece check already.
        if let Some(p) = decls.get(max).filter(|_| decls.len() <= MAX_PIECES) {
            self.errors.push(RuleError::Conflict {
                message: format!(
                    "too many kinds of piece: `{}` is the {}",
                    p.name.node,
                    nth(max + 1)
                ),
                span: p.name.span.into(),
                help: format!(
                    "the move generator handles at most {max} kinds of piece; this file declares {}",
                    decls.len()
                ),
            });
        }
    }

    fn game_rule(&mut self, r: &Spanned<GameRule>, names: &[&str], spec: Option<&VariantSpec>) {
        let index = |p: &PieceRef| match p {
            PieceRef::Named(n) => find_piece_name(names, &n.node),
            PieceRef::Any(_) => None,
        };
        match &r.node {
            GameRule::LoneBeats(a, b) if index(a).is_some() && index(a) == index(b) => {
                let name = index(a).map_or("", |i| names[i]);
                self.errors.push(RuleError::Conflict {
                    message: format!("`lone {name} beats lone {name}` names one piece twice"),
                    span: r.span.into(),
                    help: format!(
                        "with a lone `{name}` on each side neither side would win: name two \
                         different pieces, as in `lone king beats lone man`"
                    ),
                });
            }
            GameRule::LoseWithout(p) => {
                let (Some(k), Some(spec)) = (index(p), spec) else {
                    return;
                };
                for side in 0..2 {
                    if !spec.setup[side].iter().any(|&(kind, _)| kind as usize == k) {
                        self.errors.push(RuleError::Conflict {
                            message: format!(
                                "`{}` starts without a `{}`: the game would be over before the \
                                 first move",
                                spec.sides[side].name, names[k]
                            ),
                            span: r.span.into(),
                            help: format!(
                                "a side with no `{}` loses; set up some for both sides, or \
                                 remove the clause",
                                names[k]
                            ),
                        });
                        break;
                    }
                }
            }
            GameRule::FirstWins(p) => {
                let (Some(k), Some(spec)) = (index(p), spec) else {
                    return;
                };
                for side in 0..2 {
                    if spec.setup[side].iter().any(|&(kind, _)| kind as usize == k) {
                        self.errors.push(RuleError::Conflict {
                            message: format!(
                                "`{}` starts with a `{}`: the game would be won before the \
                                 first move",
                                spec.sides[side].name, names[k]
                            ),
                            span: r.span.into(),
                            help: format!(
                                "`first {} wins` is a goal reached by promotion: set up no `{}`, \
                                 or remove the clause",
                                names[k], names[k]
                            ),
                        });
                        break;
                    }
                }
            }
            GameRule::Repetition(n, _) => {
                let text = self.text(n.span).to_string();
                let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
                let want = ordinal_suffix(n.node);
                if n.node != u64::MAX && !text.ends_with(want) {
                    self.errors.push(RuleError::Conflict {
                        message: format!("`{text}` is not an ordinal"),
                        span: n.span.into(),
                        help: format!("write `{digits}{want}`"),
                    });
                }
            }
            _ => {}
        }
    }
}

impl Checker<'_> {
    /// `reaching ZONE wins` where a side starts with a piece on its goal: the game would be won
    /// before the first move. The clauses pair with the spec's zones in order (when every zone
    /// resolved).
    fn goals_reached_at_start(
        &mut self,
        rules: &[Spanned<GameRule>],
        names: &[&str],
        spec: Option<&VariantSpec>,
    ) {
        let Some(spec) = spec else {
            return;
        };
        let clauses: Vec<&Spanned<GameRule>> = rules
            .iter()
            .filter(|r| matches!(r.node, GameRule::ReachWins(_)))
            .collect();
        if clauses.len() != spec.game.reach_wins.len() {
            return;
        }
        for (r, zone) in clauses.into_iter().zip(&spec.game.reach_wins) {
            let on_goal = (0..2).find_map(|side| {
                spec.setup[side]
                    .iter()
                    .find(|&&(_, c)| in_zone(spec, zone, side, c))
                    .map(|&(kind, c)| (side, kind, c))
            });
            if let Some((side, kind, c)) = on_goal {
                self.errors.push(RuleError::Conflict {
                    message: format!(
                        "`{}` starts with a `{}` on {}, on its goal: the game would be won before \
                         the first move",
                        spec.sides[side].name,
                        names.get(kind as usize).copied().unwrap_or("piece"),
                        super::board::square_name(&spec.board, c)
                    ),
                    span: r.span.into(),
                    help: "a goal is a place to reach: set up no piece on it, or name other \
                           squares"
                        .to_string(),
                });
            }
        }
    }
}

/// Whether `c` is on `side`'s part of a goal zone: its own far rank, the named squares as that
/// side sees the board, or where the enemy's pieces of a kind start.
fn in_zone(spec: &VariantSpec, zone: &Zone, side: usize, c: Coord) -> bool {
    match zone {
        Zone::FarRank => spec.board.is_far_rank(c, side),
        Zone::Squares(list) => list.contains(&if side == 0 { c } else { spec.board.turn(c) }),
        Zone::EnemyStart(k) => spec.setup[1 - side]
            .iter()
            .any(|&(kind, e)| kind == *k && e == c),
    }
}

/// [`find_piece`] over plain names.
fn find_piece_name(names: &[&str], word: &str) -> Option<usize> {
    names
        .iter()
        .position(|&n| n == word)
        .or_else(|| names.iter().position(|&n| plural_of(word, n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112]
            .iter()
            .map(|&n| format!("{n}{}", ordinal_suffix(n)))
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
        assert!(plural_of("men", "man") && plural_of("kings", "king"));
        assert!(!plural_of("man", "men"));
    }
}
