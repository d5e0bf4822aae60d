//! pest's pairs → syntax tree: each grammar rule's pairs become an [`ast`](crate::lang::ast)
//! node with its byte span.

use pest::iterators::Pair;

use super::Rule;
use crate::lang::ast::*;

pub(super) fn build(mut pairs: pest::iterators::Pairs<Rule>, source: &str) -> RulesFile {
    let file = pairs
        .next()
        .expect("the grammar's `file` rule yields one pair");
    let statements = file
        .into_inner()
        .filter(|p| p.as_rule() == Rule::statement)
        .map(statement)
        .collect();
    RulesFile {
        statements,
        end: source.len(),
    }
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

/// The span of a pair without the whitespace (and comments) it may end with after an optional
/// part that was not written.
fn trimmed_span(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let text = pair.as_str();
    let mut len = text.trim_end().len();
    // A comment at the end: cut back to the text before it.
    while let Some(i) = text[..len].rfind('#') {
        if text[..i].contains('"') {
            break;
        }
        len = text[..i].trim_end().len();
    }
    Span::new(s.start(), s.start() + len)
}

fn name(pair: Pair<Rule>) -> Name {
    Spanned::new(pair.as_str().to_string(), span_of(&pair))
}

/// A number as written; too large to fit is `u64::MAX`, which every range check rejects.
fn number(pair: &Pair<Rule>) -> u64 {
    pair.as_str().parse().unwrap_or(u64::MAX)
}

/// The pairs of a node without its keywords and punctuation.
fn significant<'a>(pair: Pair<'a, Rule>) -> impl Iterator<Item = Pair<'a, Rule>> {
    pair.into_inner().filter(|p| {
        let r = p.as_rule();
        !matches!(r, Rule::comma | Rule::semi | Rule::colon | Rule::range_to)
            && !format!("{r:?}").starts_with("kw_")
            || r == Rule::kw_any_piece
    })
}

fn statement(pair: Pair<Rule>) -> Statement {
    let inner = pair
        .into_inner()
        .next()
        .expect("a statement holds one declaration");
    let span = {
        let first = inner
            .clone()
            .into_inner()
            .next()
            .expect("every declaration starts with a keyword or a name");
        span_of(&first)
    };
    let kind = match inner.as_rule() {
        Rule::variant_decl => {
            let s = significant(inner).next().expect("variant has a string");
            StatementKind::Variant(string(s))
        }
        Rule::board_decl => StatementKind::Board(board(inner)),
        Rule::sides_decl => StatementKind::Sides(sides(inner)),
        Rule::piece_decl => StatementKind::Piece(piece(inner)),
        Rule::setup_decl => StatementKind::Setup(significant(inner).map(placement).collect()),
        Rule::captures_section => {
            StatementKind::Captures(significant(inner).map(capture_rule).collect())
        }
        Rule::game_section => StatementKind::Game(significant(inner).map(game_rule).collect()),
        Rule::placement_section => {
            StatementKind::Placement(significant(inner).map(placement_rule).collect())
        }
        Rule::moves_section => StatementKind::Moves(moves(inner)),
        r => unreachable!("statement alternatives are declarations, got {r:?}"),
    };
    Statement { span, kind }
}

fn string(pair: Pair<Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("a string holds its text");
    Spanned::new(inner.as_str().to_string(), span)
}

fn board(pair: Pair<Rule>) -> BoardDecl {
    let mut decl = BoardDecl {
        size: Spanned::new((0, 0), Span::default()),
        hexagon: false,
        cells: None,
        forms: Vec::new(),
    };
    for p in significant(pair) {
        match p.as_rule() {
            Rule::size => {
                let span = span_of(&p);
                let mut nums = p.into_inner();
                let w = number(&nums.next().expect("size has a width"));
                let h = number(&nums.next().expect("size has a height"));
                decl.size = Spanned::new((w, h), span);
            }
            Rule::hexagon => {
                let span = span_of(&p);
                let side = p
                    .into_inner()
                    .find(|n| n.as_rule() == Rule::number)
                    .map_or(0, |n| number(&n));
                decl.size = Spanned::new((side, side), span);
                decl.hexagon = true;
            }
            Rule::cells => decl.cells = Some(span_of(&p)),
            Rule::square_kind => decl.forms.push(square_kind(p)),
            Rule::board_form => {
                let Some(form) = p.into_inner().next() else {
                    continue;
                };
                let span = span_of(&form);
                let node = match form.as_rule() {
                    Rule::square_kind => {
                        decl.forms.push(square_kind(form));
                        continue;
                    }
                    Rule::a1_colour => {
                        BoardForm::A1Light(form.into_inner().any(|k| k.as_rule() == Rule::kw_light))
                    }
                    Rule::lines_kind => BoardForm::AlquerqueLines,
                    Rule::across_light => BoardForm::OrthogonalAcrossLight,
                    Rule::without => BoardForm::Without(
                        form.into_inner()
                            .filter(|l| l.as_rule() == Rule::square_list)
                            .flat_map(square_list)
                            .collect(),
                    ),
                    Rule::notation => BoardForm::Numbered(
                        form.into_inner().any(|k| k.as_rule() == Rule::kw_numbered),
                    ),
                    _ => continue,
                };
                decl.forms.push(Spanned::new(node, span));
            }
            _ => {}
        }
    }
    decl
}

fn square_kind(p: Pair<Rule>) -> Spanned<BoardForm> {
    let span = span_of(&p);
    let k = p.into_inner().next().expect("square kind has one form");
    let form = match k.as_rule() {
        Rule::dark_squares => BoardForm::DarkSquares,
        Rule::all_points => BoardForm::AllPoints,
        Rule::corners_centres => BoardForm::CornersAndCentres,
        _ => BoardForm::AllSquares,
    };
    Spanned::new(form, span)
}

fn sides(pair: Pair<Rule>) -> SidesDecl {
    let mut defs = Vec::new();
    let mut first = Vec::new();
    let mut forward_diagonal = Vec::new();
    for p in significant(pair) {
        match p.as_rule() {
            Rule::side_def => {
                let mut it = p.into_inner();
                let n = name(it.next().expect("side has a name"));
                let l = string(it.next().expect("side has a letter"));
                defs.push((n, l));
            }
            Rule::first_clause => {
                let n = p.into_inner().next().expect("`moves first` has a side");
                first.push(name(n));
            }
            Rule::forward_clause => {
                let span = span_of(&p);
                let diag = p.into_inner().any(|k| k.as_rule() == Rule::kw_diagonal);
                forward_diagonal.push(Spanned::new(diag, span));
            }
            _ => {}
        }
    }
    let mut defs = defs.into_iter();
    let a = defs.next().expect("sides has two sides");
    let b = defs.next().expect("sides has two sides");
    SidesDecl {
        sides: [a, b],
        first,
        forward_diagonal,
    }
}

fn piece(pair: Pair<Rule>) -> PieceDecl {
    let mut it = significant(pair);
    let n = name(it.next().expect("piece has a name"));
    let letter = string(it.next().expect("piece has a letter"));
    let mut decl = PieceDecl {
        name: n,
        letter,
        rank: None,
        value: None,
    };
    for p in it {
        let rule = p.as_rule();
        let num = p
            .into_inner()
            .find(|q| q.as_rule() == Rule::number)
            .expect("rank and value have a number");
        let v = Spanned::new(number(&num), span_of(&num));
        match rule {
            Rule::rank_opt => decl.rank = Some(v),
            _ => decl.value = Some(v),
        }
    }
    decl
}

fn piece_ref(pair: Pair<Rule>) -> PieceRef {
    let inner = pair.into_inner().next().expect("piece_ref has one form");
    match inner.as_rule() {
        Rule::kw_any_piece => PieceRef::Any(span_of(&inner)),
        _ => PieceRef::Named(name(inner)),
    }
}

fn placement(pair: Pair<Rule>) -> Placement {
    let mut it = pair.into_inner();
    let side = name(it.next().expect("placement has a side"));
    let piece = piece_ref(it.next().expect("placement has a piece"));
    let where_ = it.next().expect("placement has squares or a hand");
    if where_.as_rule() == Rule::in_hand {
        let span = span_of(&where_);
        let n = significant(where_)
            .next()
            .map_or(u64::MAX, |n| n.as_str().parse().unwrap_or(u64::MAX));
        return Placement {
            side,
            piece,
            squares: Vec::new(),
            in_hand: Some(Spanned::new(n, span)),
        };
    }
    Placement {
        side,
        piece,
        squares: square_list(where_),
        in_hand: None,
    }
}

/// One rule of a `placement:` section.
fn placement_rule(pair: Pair<Rule>) -> Spanned<PlacementRule> {
    let rule = pair
        .into_inner()
        .next()
        .expect("a placement rule has one form");
    let span = span_of(&rule);
    let node = match rule.as_rule() {
        Rule::per_turn => {
            let n = significant(rule)
                .next()
                .map_or(u64::MAX, |n| n.as_str().parse().unwrap_or(u64::MAX));
            PlacementRule::PerTurn(n)
        }
        _ => PlacementRule::NotOn(square_list(
            significant(rule).next().expect("`not on` has squares"),
        )),
    };
    Spanned::new(node, span)
}

fn square_list(pair: Pair<Rule>) -> Vec<SquareRange> {
    significant(pair)
        .map(|range| {
            let mut it = significant(range);
            let from = square(it.next().expect("a range has a first square"));
            let to = it.next().map(square);
            SquareRange { from, to }
        })
        .collect()
}

fn square(pair: Pair<Rule>) -> Spanned<SquareText> {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("square has one form");
    let text = inner.as_str();
    let node = match inner.as_rule() {
        Rule::alg_square => {
            let file = text.as_bytes()[0] - b'a';
            let rank = text[1..].parse().unwrap_or(u64::MAX);
            SquareText::Algebraic { file, rank }
        }
        _ => SquareText::Number(text.parse().unwrap_or(u64::MAX)),
    };
    Spanned::new(node, span)
}

fn directions(pair: Pair<Rule>) -> Vec<Name> {
    significant(pair).map(name).collect()
}

fn moves(pair: Pair<Rule>) -> MovesDecl {
    let mut it = significant(pair);
    let piece = name(it.next().expect("moves section starts with a piece name"));
    let clauses = it
        .map(|clause| {
            let clause = clause
                .into_inner()
                .next()
                .expect("move clause has one form");
            let span = span_of(&clause);
            let rule = clause.as_rule();
            let mut parts = significant(clause);
            let node = match rule {
                Rule::step_clause => {
                    MoveClause::Step(directions(parts.next().expect("step has directions")))
                }
                Rule::slide_clause => {
                    let dirs = directions(parts.next().expect("slide has directions"));
                    let range = parts.next().map(|r| range(&r));
                    MoveClause::Slide { dirs, range }
                }
                Rule::leap_clause => {
                    let mut max = None;
                    let mut over = None;
                    let mut dirs = Vec::new();
                    for p in parts {
                        match p.as_rule() {
                            Rule::leap_count => {
                                let c = p.into_inner().next().expect("leap count has one form");
                                let n = if c.as_rule() == Rule::number {
                                    number(&c)
                                } else {
                                    1
                                };
                                max = Some(Spanned::new(n, span_of(&c)));
                            }
                            Rule::piece_ref => over = Some(piece_ref(p)),
                            Rule::directions => dirs = directions(p),
                            _ => {}
                        }
                    }
                    MoveClause::Leap {
                        max,
                        over: over.expect("leap names the pieces it leaps over"),
                        dirs,
                    }
                }
                Rule::capture_clause => {
                    let kind = parts.next().expect("capture has a kind");
                    let kind = match kind.into_inner().next().map(|k| k.as_rule()) {
                        Some(Rule::kw_fly) => CaptureKind::Fly,
                        Some(Rule::kw_approach) => CaptureKind::Approach,
                        Some(Rule::kw_withdrawal) => CaptureKind::Withdrawal,
                        _ => CaptureKind::Jump,
                    };
                    let dirs = directions(parts.next().expect("capture has directions"));
                    let mut range_limit = None;
                    let mut landing = None;
                    let mut one_line = None;
                    let mut edge_turn = None;
                    let mut row_leap = None;
                    let mut gap = None;
                    for p in parts {
                        match p.as_rule() {
                            Rule::range => range_limit = Some(range(&p)),
                            Rule::gap => gap = Some(trimmed_span(&p)),
                            Rule::row_leap => row_leap = Some(trimmed_span(&p)),
                            Rule::one_line => {
                                one_line = Some(trimmed_span(&p));
                                edge_turn = p
                                    .into_inner()
                                    .find(|q| q.as_rule() == Rule::edge_turn)
                                    .map(|q| trimmed_span(&q));
                            }
                            _ => {
                                let span = trimmed_span(&p);
                                let last_of = significant(p)
                                    .next()
                                    .and_then(|l| significant(l).next())
                                    .map(piece_ref);
                                landing = Some(Spanned::new(LandingText { last_of }, span));
                            }
                        }
                    }
                    MoveClause::Capture {
                        kind,
                        dirs,
                        range: range_limit,
                        landing,
                        one_line,
                        edge_turn,
                        row_leap,
                        gap,
                    }
                }
                Rule::promote_clause => {
                    let to = piece_ref(parts.next().expect("promote names a piece"));
                    let zone = zone(parts.next().expect("promote has a zone"));
                    MoveClause::Promote { to, zone }
                }
                Rule::limit_clause => {
                    let mut max = None;
                    let mut own = None;
                    for p in parts {
                        match p.as_rule() {
                            Rule::number => max = Some(Spanned::new(number(&p), span_of(&p))),
                            Rule::piece_ref => own = Some(piece_ref(p)),
                            _ => {}
                        }
                    }
                    MoveClause::QuietLimit {
                        max: max.expect("the limit has a number"),
                        while_own: own.expect("the limit names the pieces that must remain"),
                    }
                }
                r => unreachable!("move clause alternatives, got {r:?}"),
            };
            Spanned::new(node, span)
        })
        .collect();
    MovesDecl { piece, clauses }
}

fn capture_rule(pair: Pair<Rule>) -> Spanned<CaptureRule> {
    let inner = pair.into_inner().next().expect("capture rule has one form");
    let span = span_of(&inner);
    let node = match inner.as_rule() {
        Rule::kw_compulsory => CaptureRule::Compulsory(true),
        Rule::kw_optional => CaptureRule::Compulsory(false),
        Rule::removal => CaptureRule::RemovedImmediately(
            inner
                .into_inner()
                .any(|k| k.as_rule() == Rule::kw_immediately),
        ),
        Rule::no_180_turn => CaptureRule::No180Turn,
        Rule::no_revisit => CaptureRule::NoRevisit,
        Rule::no_same_direction => CaptureRule::NoSameDirection,
        Rule::equal_or_lower => CaptureRule::EqualOrLowerRank,
        Rule::may_stop => CaptureRule::MayStop,
        Rule::single_jump => CaptureRule::SingleJump,
        Rule::huffing => {
            CaptureRule::Huffing(significant(inner).any(|k| k.as_rule() == Rule::huff_smaller))
        }
        Rule::take_top => CaptureRule::TakeTop,
        Rule::mid_capture => {
            let form = significant(inner)
                .next()
                .expect("promotion rule has one form");
            let text = match form.as_rule() {
                Rule::promotion_at_end => MidCaptureText::AtEnd,
                _ if form.into_inner().any(|k| k.as_rule() == Rule::kw_stops) => {
                    MidCaptureText::Stops
                }
                _ => MidCaptureText::Continues,
            };
            CaptureRule::MidCapture(text)
        }
        Rule::priority => CaptureRule::Priority(significant(inner).map(criterion).collect()),
        r => unreachable!("capture rule alternatives, got {r:?}"),
    };
    Spanned::new(node, span)
}

fn criterion(pair: Pair<Rule>) -> Spanned<CriterionText> {
    let inner = pair.into_inner().next().expect("criterion has one form");
    let span = span_of(&inner);
    let node = match inner.as_rule() {
        Rule::kw_free => CriterionText::Free,
        Rule::most_pieces => CriterionText::MostPieces,
        Rule::most_value => CriterionText::MostValue,
        Rule::highest_capturer => CriterionText::HighestCapturer,
        Rule::highest_ranks => CriterionText::HighestCapturedRanks,
        Rule::most_of => CriterionText::MostOf(piece_ref(
            significant(inner).next().expect("`most` names a piece"),
        )),
        Rule::earliest_of => CriterionText::EarliestOf(piece_ref(
            significant(inner).next().expect("`earliest` names a piece"),
        )),
        r => unreachable!("criterion alternatives, got {r:?}"),
    };
    Spanned::new(node, span)
}

/// A zone (`far rank`, `start of enemy <piece>`, squares) of a promotion or a goal.
fn zone(pair: Pair<Rule>) -> ZoneText {
    let zone = pair.into_inner().next().expect("zone has one form");
    match zone.as_rule() {
        Rule::far_rank => ZoneText::FarRank(span_of(&zone)),
        Rule::enemy_start => ZoneText::EnemyStart(piece_ref(
            significant(zone)
                .next()
                .expect("`start of enemy` names a piece"),
        )),
        _ => ZoneText::Squares(square_list(zone)),
    }
}

fn game_rule(pair: Pair<Rule>) -> Spanned<GameRule> {
    let inner = pair.into_inner().next().expect("game rule has one form");
    let span = trimmed_span(&inner);
    let node = match inner.as_rule() {
        Rule::no_moves_loses => GameRule::NoMovesLoses,
        Rule::no_moves_wins => GameRule::NoMovesWins,
        Rule::first_wins => GameRule::FirstWins(piece_ref(
            significant(inner)
                .next()
                .expect("`first <piece> wins` names a piece"),
        )),
        Rule::reach_wins => GameRule::ReachWins(zone(
            significant(inner)
                .next()
                .expect("`reaching <zone> wins` has a zone"),
        )),
        Rule::combat => GameRule::Combat {
            below_highest: significant(inner).any(|p| p.as_rule() == Rule::below_highest),
        },
        Rule::lone_beats => {
            let mut it = significant(inner);
            let a = piece_ref(it.next().expect("lone rule has a winner"));
            let b = piece_ref(it.next().expect("lone rule has a loser"));
            GameRule::LoneBeats(a, b)
        }
        Rule::lone_draws => {
            let mut it = significant(inner);
            let a = piece_ref(it.next().expect("lone rule has a first piece"));
            let b = piece_ref(it.next().expect("lone rule has a second piece"));
            GameRule::LoneDraws(a, b)
        }
        Rule::lose_without => GameRule::LoseWithout(piece_ref(
            significant(inner)
                .next()
                .expect("`no <piece> loses` names a piece"),
        )),
        Rule::repetition => {
            let ord = significant(inner.clone())
                .next()
                .expect("repetition has an ordinal");
            let digits: String = ord
                .as_str()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let claimed = significant(inner).any(|p| p.as_rule() == Rule::if_claimed);
            GameRule::Repetition(
                Spanned::new(digits.parse().unwrap_or(u64::MAX), span_of(&ord)),
                claimed,
            )
        }
        Rule::move_count => GameRule::MoveCount(move_count(inner)),
        Rule::no_repetition => GameRule::NoRepetition,
        r => unreachable!("game rule alternatives, got {r:?}"),
    };
    Spanned::new(node, span)
}

/// `up to N`: the number, with its span.
fn range(pair: &Pair<Rule>) -> Spanned<u64> {
    let num = pair
        .clone()
        .into_inner()
        .find(|q| q.as_rule() == Rule::number)
        .expect("a range has a number");
    Spanned::new(number(&num), span_of(&num))
}

fn force(pair: Pair<Rule>) -> ForceText {
    significant(pair)
        .map(|count_of| {
            let mut it = significant(count_of);
            let n = it.next().expect("a count has a number");
            let piece = piece_ref(it.next().expect("a count names a piece"));
            (Spanned::new(number(&n), span_of(&n)), piece)
        })
        .collect()
}

fn move_count(pair: Pair<Rule>) -> MoveCountText {
    let mut text = MoveCountText {
        moves: Spanned::new(0, Span::default()),
        each: false,
        resets: Vec::new(),
        material: None,
        claimed: false,
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::number => text.moves = Spanned::new(number(&p), span_of(&p)),
            Rule::kw_each => text.each = true,
            Rule::resets => {
                for r in significant(p) {
                    let span = span_of(&r);
                    let what = r.into_inner().next().expect("a reset has one form");
                    let node = match what.as_rule() {
                        Rule::moves_of => Some(piece_ref(
                            significant(what).next().expect("`… move` names a piece"),
                        )),
                        _ => None,
                    };
                    text.resets.push(Spanned::new(node, span));
                }
            }
            Rule::material => {
                let mut forces: Vec<ForceText> = significant(p).map(force).collect();
                let weak = forces.pop().expect("material has a weaker side");
                text.material = Some((forces, weak));
            }
            Rule::if_claimed => text.claimed = true,
            _ => {}
        }
    }
    text
}
