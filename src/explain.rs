//! Why a move is legal or not, for the REPL's `explain` command (and its `why:` line) and for the
//! `explain` entries of case files. The legal moves come from the variant's rules; "what the move
//! would be without the priority rule or the compulsory capture" from a copy of the rules compiled
//! with both relaxed. Priority comparisons use the engine's own key ([`Rules::priority_key`]), read
//! field by field to name the criterion that decided.

use crate::engine::geometry::Bits;
use crate::engine::BitSet;
use crate::engine::{GenOptions, Move, Position, Rules, Sq, TooManyRoutes};
use crate::notation::{move_to_string, parse_move, InputError};
use crate::spec::Criterion;

mod drops;

/// Why [`explain`] gives no explanation: the text names no single legal move (the move reader's
/// error), or the position's capture search runs past the route budget.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExplainError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Input(#[from] Box<InputError>),
    #[error(transparent)]
    #[diagnostic(transparent)]
    TooManyRoutes(#[from] TooManyRoutes),
}

/// The explanation of `text` in `pos`, one or more lines each ending in a newline: "`c3-c4` is
/// legal: a quiet move of …", "`c3-c4` is not legal: a capture is available: …". A text that does
/// not name a move at all, or names several legal moves, is the move reader's error.
///
/// ```
/// use damelab::{explain::explain, notation::parse_fen, Variant};
/// let v = Variant::load("turkish").unwrap();
/// let pos = parse_fen(&v.rules, "W:Wb2,g2:Bb3,b5,Kg3").unwrap();
/// assert_eq!(
///     explain(&v.rules, &pos, "g2xg4").unwrap(),
///     "`g2xg4` is not legal under the priority (most pieces): g2xg4 takes 1; the maximum is 2: b2xb4xb6\n"
/// );
/// ```
pub fn explain(rules: &Rules, pos: &Position, text: &str) -> Result<String, ExplainError> {
    let legal = generate(rules, pos)?;
    if let Some(why) = drops::explain_drop(rules, pos, &legal, text) {
        return Ok(why);
    }
    let squares = match squares(rules, text) {
        Some(s) if s.len() >= 2 => s,
        _ => {
            // Let the notation module say what is wrong with the text.
            return Err(match parse_move(rules, &legal, text) {
                Err(e) => e,
                Ok(_) => not_a_move(text, "not a move"),
            }
            .into());
        }
    };
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let name = |m: &Move| move_to_string(rules, m);
    if let Ok(mv) = parse_move(rules, &legal, text) {
        return Ok(explain_legal(rules, pos, &legal, &mv)?);
    }
    if legal.iter().any(|m| m.from == from && m.to == to) {
        // The squares name legal moves, but not one of them alone or not by this route.
        return Err(match parse_move(rules, &legal, text) {
            Err(e) => e,
            Ok(_) => not_a_move(text, "ambiguous"),
        }
        .into());
    }
    let spec = &rules.spec;
    let piece =
        |side: usize, kind: usize| format!("{} {}", spec.sides[side].name, spec.pieces[kind].name);
    let turn = pos.turn();
    let sq_name = |sq: Sq| rules.geo.name(sq);
    match pos.at(from) {
        None => {
            return Ok(format!(
                "`{text}` is not legal: there is no piece on {}\n",
                sq_name(from)
            ))
        }
        Some((side, kind)) if side != turn => {
            return Ok(format!(
                "`{text}` is not legal: {} holds a {}, and it is {}'s turn\n",
                sq_name(from),
                piece(side, kind),
                spec.sides[turn].name
            ))
        }
        _ => {}
    }
    let relaxed = relaxed_moves(rules, pos)?.unwrap_or_else(|| legal.clone());
    let mut found: Vec<Move> = match parse_move(rules, &relaxed, text) {
        Ok(m) => vec![m],
        Err(_) => relaxed
            .iter()
            .filter(|m| m.from == from && m.to == to)
            .copied()
            .collect(),
    };
    found.sort_by_key(|m| std::cmp::Reverse(m.captures()));
    let captures: Vec<&Move> = legal.iter().filter(|m| m.is_capture()).collect();
    if let Some(mv) = found.first() {
        if mv.is_capture() {
            if let Some(best) = best_of(rules, pos, &captures) {
                return Ok(format!(
                    "`{text}` is not legal under the priority ({}): {}\n",
                    criteria_names(rules),
                    priority_reason(rules, pos, mv, best)
                ));
            }
        } else if !captures.is_empty() {
            let mut names: Vec<String> = captures.iter().map(|m| name(m)).collect();
            names.sort();
            names.dedup();
            return Ok(format!(
                "`{text}` is not legal: a capture is available: {} (capturing is compulsory)\n",
                shorten(&names)
            ));
        }
    }
    let mut through: Vec<String> = relaxed
        .iter()
        .filter(|m| {
            m.is_capture() && m.from == from && m.route()[..m.route().len() - 1].contains(&to)
        })
        .map(&name)
        .collect();
    if !through.is_empty() {
        through.sort();
        through.dedup();
        return Ok(format!(
            "`{text}` is not legal: a capture may not stop on {} while the piece can jump on: {}\n",
            sq_name(to),
            shorten(&through)
        ));
    }
    if let Some(why) = combat_refusal(rules, pos, &legal, text, from, to)? {
        return Ok(why);
    }
    let (side, kind) = pos
        .at(from)
        .expect("checked above: the origin holds a piece");
    let mut why = format!(
        "`{text}` is not legal: the {} on {} cannot move to {}",
        piece(side, kind),
        sq_name(from),
        sq_name(to)
    );
    if to != from && pos.at(to).is_some() {
        why.push_str(&format!(" ({} is occupied)", sq_name(to)));
    }
    let mut own: Vec<String> = legal.iter().filter(|m| m.from == from).map(name).collect();
    own.sort();
    if own.is_empty() {
        why.push_str("; it has no legal move here");
    } else {
        why.push_str(&format!("; its legal moves: {}", shorten(&own)));
    }
    why.push('\n');
    Ok(why)
}

/// As [`explain`], for case files: one line per explanation joined by "; ", and an error only
/// for a text that does not read as a move (a bad square, one square only) or a position past the
/// route budget; an ambiguous text is explained as such.
pub fn try_explain(rules: &Rules, pos: &Position, move_text: &str) -> Result<String, ExplainError> {
    match explain(rules, pos, move_text) {
        Ok(text) => Ok(text.trim_end().lines().collect::<Vec<_>>().join("; ")),
        Err(ExplainError::Input(e)) if !is_syntax_error(&e) => Ok(format!(
            "`{}` is {}: {}",
            move_text.trim(),
            if e.label == "ambiguous" {
                "ambiguous"
            } else {
                "not legal"
            },
            e.help.clone().unwrap_or_else(|| e.message.clone())
        )),
        Err(e) => Err(e),
    }
}

/// The move reader reports a text it cannot read and a move that is not legal with the same error
/// type; its label tells them apart.
pub(crate) fn is_syntax_error(e: &InputError) -> bool {
    e.label != "illegal move" && e.label != "ambiguous"
}

fn not_a_move(text: &str, label: &str) -> Box<InputError> {
    InputError::new(
        "move",
        text,
        (0, text.len()),
        format!("`{}` is not a move", text.trim()),
        label,
        None,
    )
}

/// The legal moves, within the capture search's route budget.
fn generate(rules: &Rules, pos: &Position) -> Result<Vec<Move>, TooManyRoutes> {
    let mut out = Vec::new();
    rules.try_generate(pos, &mut out, GenOptions::default())?;
    Ok(out)
}

/// The squares a move text names, if every part is a playable square.
fn squares(rules: &Rules, text: &str) -> Option<Vec<Sq>> {
    let text = text.trim();
    // `*33,28-32`: the huffed piece named first is no square of the move.
    let text = match text.strip_prefix('*') {
        Some(rest) => rest.split_once(',').map_or(rest, |(_, m)| m),
        None => text,
    };
    // `@f6-e7`: a declaration of single combat.
    let text = text.strip_prefix('@').unwrap_or(text);
    text.trim()
        .split(['-', 'x', 'X', ':'])
        .map(|p| {
            let p = p.trim();
            let name = if rules.approach {
                crate::notation::split_mark(p).0
            } else {
                p
            };
            rules.geo.parse(name)
        })
        .collect()
}

/// The moves of `pos` with the priority rule and the compulsory capture switched off (`None` if
/// those rules do not compile), within the route budget.
fn relaxed_moves(rules: &Rules, pos: &Position) -> Result<Option<Vec<Move>>, TooManyRoutes> {
    let mut spec = rules.spec.clone();
    spec.captures.priority.clear();
    spec.captures.compulsory = false;
    match Rules::compile(&spec) {
        Ok(relaxed) => generate(&relaxed, pos).map(Some),
        Err(_) => Ok(None),
    }
}

fn explain_legal(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    mv: &Move,
) -> Result<String, TooManyRoutes> {
    let spec = &rules.spec;
    let side = pos.turn();
    let who = format!(
        "the {} {} on {}",
        spec.sides[side].name,
        spec.pieces[mv.kind_before as usize].name,
        rules.geo.name(mv.from)
    );
    let name = move_to_string(rules, mv);
    let mut out = if mv.is_capture() {
        format!(
            "`{name}` is legal: {who} takes {} ({})",
            mv.captures(),
            taken_list(rules, pos, mv.captured)
        )
    } else {
        format!("`{name}` is legal: a quiet move of {who}")
    };
    if mv.kind_after != mv.kind_before {
        out.push_str(&format!(
            ", which becomes a {}",
            spec.pieces[mv.kind_after as usize].name
        ));
    }
    out.push('\n');
    out.push_str(&step_legs_text(rules, pos, mv));
    out.push_str(&huff_notes(rules, pos, legal, mv));
    out.push_str(&combat_notes(rules, pos, legal, mv));
    if mv.is_capture() && rules.stacks {
        out.push_str(&columns_taken(rules, pos, mv));
    }
    out.push_str(&across_note(rules, mv));
    if mv.is_capture() {
        let others = legal
            .iter()
            .filter(|m| m.is_capture() && !m.same_move(mv))
            .count();
        let relaxed = relaxed_moves(rules, pos)?.unwrap_or_default();
        let excluded: Vec<&Move> = relaxed
            .iter()
            .filter(|m| m.is_capture() && !legal.iter().any(|l| l.same_move(m)))
            .collect();
        if let Some(worse) = best_of(rules, pos, &excluded) {
            out.push_str(&format!(
                "the priority ({}) rules out {} other capture{}, e.g. {}\n",
                criteria_names(rules),
                excluded.len(),
                if excluded.len() == 1 { "" } else { "s" },
                move_to_string(rules, worse)
            ));
        }
        if others > 0 {
            let how = if spec.captures.priority.is_empty() {
                "captures are free choice".to_string()
            } else {
                format!("it ties under the priority ({})", criteria_names(rules))
            };
            out.push_str(&format!(
                "{others} other capture{} also legal: {how}\n",
                if others == 1 { " is" } else { "s are" }
            ));
        }
        if !rules.compulsory {
            let quiet = legal.iter().filter(|m| !m.is_capture()).count();
            out.push_str(&match quiet {
                0 => "capturing is optional, though no quiet move is possible here\n".to_string(),
                n => format!(
                    "capturing is optional: {n} quiet move{} also legal\n",
                    if n == 1 { " is" } else { "s are" }
                ),
            });
        }
        if rules.may_stop {
            out.push_str(&stops(rules, legal, mv));
        }
        out.push_str(&shape_notes(rules, side, mv));
        if rules.spec.captures.single_jump {
            let leg = if rules.approach { "step" } else { "jump" };
            out.push_str(&format!(
                "a capture is a single {leg}: it ends on {}, whatever it could take from there\n",
                rules.geo.name(mv.to)
            ));
        }
    } else if !rules.compulsory {
        let captures = legal.iter().filter(|m| m.is_capture()).count();
        if captures > 0 {
            out.push_str(&format!(
                "capturing is optional: {captures} capture{} could have been played instead\n",
                if captures == 1 { "" } else { "s" }
            ));
        }
    } else if rules.compulsory && mv.due == 0 {
        out.push_str("no capture is available\n");
    }
    Ok(out)
}

/// How far (in the mover's own quiet moves, on an empty board) `from` is from the enemy piece
/// of a single combat, in words.
fn combat_distance(rules: &Rules, pos: &Position, kind: usize, from: Sq) -> String {
    let (Some(c), Some((_, _, e, _))) = (&rules.combat, rules.lone_pieces(pos)) else {
        return String::new();
    };
    match c.distance(pos.turn(), kind, from, e) {
        u8::MAX => "out of reach".to_string(),
        1 => "1 move away".to_string(),
        d => format!("{d} moves away"),
    }
}

/// What a legal move says of a single combat: that it declares one, keeps to one, or could have
/// declared one.
fn combat_notes(rules: &Rules, pos: &Position, legal: &[Move], mv: &Move) -> String {
    let Some((_, _, e, _)) = rules.lone_pieces(pos).filter(|_| rules.combat.is_some()) else {
        return String::new();
    };
    let kind = mv.kind_before as usize;
    let nearer = || {
        format!(
            "it brings the piece nearer to the enemy piece on {} ({} from {}, {} from {})",
            rules.geo.name(e),
            combat_distance(rules, pos, kind, mv.from),
            rules.geo.name(mv.from),
            combat_distance(rules, pos, kind, mv.to),
            rules.geo.name(mv.to)
        )
    };
    if mv.declares() {
        return format!(
            "it declares single combat: {}; from now on every quiet move of either side must \
             come nearer to the enemy piece, until one takes the other\n",
            nearer()
        );
    }
    if pos.in_combat() {
        return if mv.is_capture() {
            "under the declared single combat, captures are as usual\n".to_string()
        } else if rules.approaches(pos, mv) {
            format!("under the declared single combat: {}\n", nearer())
        } else {
            "under the declared single combat: no capture and no quiet move comes nearer to the \
             enemy piece, so the ordinary moves stand\n"
                .to_string()
        };
    }
    if legal
        .iter()
        .any(|m| m.declares() && m.same_but_declaration(mv))
    {
        return format!(
            "it declares nothing: single combat may be declared with this move (`@{}`)\n",
            move_to_string(rules, mv)
        );
    }
    String::new()
}

/// Why a move that the rules would otherwise allow is not legal under a declared single combat:
/// it does not come nearer to the enemy piece. `None` when that is not the reason.
fn combat_refusal(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    text: &str,
    from: Sq,
    to: Sq,
) -> Result<Option<String>, TooManyRoutes> {
    if !pos.in_combat() {
        return Ok(None);
    }
    let mut spec = rules.spec.clone();
    spec.game.combat = None;
    let Ok(plain) = Rules::compile(&spec) else {
        return Ok(None);
    };
    let ordinary = generate(&plain, pos)?;
    let Some(mv) = ordinary
        .iter()
        .find(|m| !m.is_capture() && m.from == from && m.to == to)
    else {
        return Ok(None);
    };
    let Some((_, _, e, _)) = rules.lone_pieces(pos) else {
        return Ok(None);
    };
    let kind = mv.kind_before as usize;
    let mut nearer: Vec<String> = legal.iter().map(|m| move_to_string(rules, m)).collect();
    nearer.sort();
    Ok(Some(format!(
        "`{text}` is not legal under the declared single combat: it does not bring the piece \
         nearer to the enemy piece on {} ({} from {}, {} from {}); the legal moves: {}\n",
        rules.geo.name(e),
        combat_distance(rules, pos, kind, from),
        rules.geo.name(from),
        combat_distance(rules, pos, kind, to),
        rules.geo.name(to),
        shorten(&nearer)
    )))
}

/// What a move says of huffs: a piece it huffs first, a huff it declines, or the huff it leaves
/// open (a capture of fewer than the most, or a quiet move while a capture was due).
fn huff_notes(rules: &Rules, pos: &Position, legal: &[Move], mv: &Move) -> String {
    let spec = &rules.spec;
    let side = pos.turn();
    let mut out = String::new();
    if let Some(h) = mv.huff() {
        let (hs, hk) = pos.at(h).unwrap_or((1 - side, 0));
        out.push_str(&format!(
            "before it, the {} {} on {} is huffed: {}\n",
            spec.sides[hs].name,
            spec.pieces[hk].name,
            rules.geo.name(h),
            if rules.huff_smaller {
                "on the last move it could have captured, or captured more, and did not"
            } else {
                "it could have captured on the last move and did not"
            }
        ));
    }
    if mv.huff().is_none() {
        // A huff declined: the same turn could have begun by removing a piece that failed to
        // capture on the last move.
        let mut could: Vec<Sq> = legal.iter().filter_map(|m| m.huff()).collect();
        could.sort_unstable();
        could.dedup();
        if !could.is_empty() {
            let names: Vec<String> = could.iter().map(|&s| rules.geo.name(s)).collect();
            out.push_str(&format!(
                "it huffs no piece: the piece{} on {} could have been huffed first ({} to \
                 capture on the last move), which is allowed but not required\n",
                if names.len() == 1 { "" } else { "s" },
                names.join(", "),
                if names.len() == 1 {
                    "it failed"
                } else {
                    "each failed"
                }
            ));
        }
    }
    if mv.due > 0 && mv.is_capture() {
        let most = legal.iter().map(Move::captures).max().unwrap_or(0);
        out.push_str(&format!(
            "it takes {} piece{} where {} could be taken: after it the opponent may huff the piece \
             now on {}\n",
            mv.captures(),
            if mv.captures() == 1 { "" } else { "s" },
            most,
            rules.geo.name(mv.to)
        ));
    } else if mv.due > 0 {
        let names: Vec<String> = mv
            .due_squares()
            .iter()
            .map(|&s| rules.geo.name(s))
            .collect();
        out.push_str(&format!(
            "a capture was due: after this quiet move the opponent may huff the piece{} now on {}\n",
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        ));
    }
    out
}

/// Under `may stop after any jump`: where else the same capture may end — further on, if the
/// piece could go on from where `mv` stops, or earlier, on a square its route passed.
fn stops(rules: &Rules, legal: &[Move], mv: &Move) -> String {
    let route = mv.route();
    let same_start = |m: &&Move| m.is_capture() && m.from == mv.from && !m.same_move(mv);
    let mut longer: Vec<String> = legal
        .iter()
        .filter(same_start)
        .filter(|m| m.route().len() > route.len() && m.route().starts_with(route))
        .map(|m| move_to_string(rules, m))
        .collect();
    let mut shorter: Vec<String> = legal
        .iter()
        .filter(same_start)
        .filter(|m| m.route().len() < route.len() && route.starts_with(m.route()))
        .map(|m| move_to_string(rules, m))
        .collect();
    let mut out = String::new();
    // A capture by approach or withdrawal is made of steps, the others of jumps.
    let (leg, go_on) = if rules.approach {
        ("step", "go on capturing")
    } else {
        ("jump", "jump on")
    };
    if !longer.is_empty() {
        longer.sort();
        out.push_str(&format!(
            "the capture may stop after any {leg}: it stops on {}, where the piece could {go_on}: {}\n",
            rules.geo.name(mv.to),
            shorten(&longer)
        ));
    }
    if !shorter.is_empty() {
        shorter.sort();
        out.push_str(&format!(
            "the capture may stop after any {leg}: it could also end earlier: {}\n",
            shorten(&shorter)
        ));
    }
    out
}

/// A capture by approach or withdrawal, step by step: "it steps to d3 and takes by approach the
/// line beyond it: black man on e3, black man on f3".
fn step_legs_text(rules: &Rules, pos: &Position, mv: &Move) -> String {
    let legs = rules.step_legs(mv);
    let mut out = String::new();
    for (i, leg) in legs.iter().enumerate() {
        let line = leg
            .line
            .iter()
            .fold(Bits::ZERO, |b, &sq| b | crate::engine::geometry::bit(sq));
        out.push_str(&format!(
            "{}it steps to {} and takes by {}: {}\n",
            match (i, legs.len()) {
                (0, 1) => "",
                (0, _) => "first ",
                _ => "then ",
            },
            rules.geo.name(leg.to),
            if leg.withdrawal {
                "withdrawal the line behind the square it left"
            } else {
                "approach the line beyond the square it reaches"
            },
            taken_list(rules, pos, line)
        ));
    }
    if mv.marked() {
        out.push_str(
            "another legal move has the same route and takes the other way: the marks after the \
             squares (A approach, W withdrawal) tell them apart\n",
        );
    }
    out
}

/// "black man on d4, black king on f6".
fn taken_list(rules: &Rules, pos: &Position, captured: Bits) -> String {
    let spec = &rules.spec;
    let mut parts = Vec::new();
    for sq in crate::engine::geometry::BitIter(captured) {
        if let Some((side, kind)) = pos.at(sq) {
            parts.push(format!(
                "{} {} on {}",
                spec.sides[side].name,
                spec.pieces[kind].name,
                rules.geo.name(sq)
            ));
        }
    }
    parts.join(", ")
}

fn criteria_names(rules: &Rules) -> String {
    let names: Vec<String> = rules
        .spec
        .captures
        .priority
        .iter()
        .map(|c| criterion_name(rules, *c))
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", then ")
    }
}

fn criterion_name(rules: &Rules, c: Criterion) -> String {
    let piece = |k: u8| {
        rules
            .spec
            .pieces
            .get(k as usize)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("kind {k}"))
    };
    match c {
        Criterion::MostPieces => "most pieces".into(),
        Criterion::MostValue => "most value".into(),
        Criterion::HighestCapturer => "highest capturing piece".into(),
        Criterion::HighestCapturedRanks => "highest captured ranks".into(),
        Criterion::MostOf(k) => format!("most {}s", piece(k)),
        Criterion::EarliestOf(k) => format!("{}s earliest", piece(k)),
    }
}

/// A priority key split into its fields, one per criterion in the order written: the key is
/// packed high-to-low, [`Rules::key`] giving each field's width.
fn fields(rules: &Rules, key: u128) -> Vec<u128> {
    let mut shift: u32 = rules.key.iter().map(|f| f.width).sum();
    rules
        .key
        .iter()
        .map(|f| {
            shift -= f.width;
            let mask = u128::MAX.checked_shr(128 - f.width).unwrap_or(0);
            key.checked_shr(shift).unwrap_or(0) & mask
        })
        .collect()
}

/// The move that ranks highest under the priority (the first by name among equals).
fn best_of<'a>(rules: &Rules, pos: &Position, moves: &[&'a Move]) -> Option<&'a Move> {
    let mut sorted: Vec<&Move> = moves.to_vec();
    sorted.sort_by_key(|m| move_to_string(rules, m));
    sorted
        .into_iter()
        .rev()
        .max_by_key(|m| (rules.priority_key(pos, m), m.captures()))
}

/// Why `mv` loses to `best` under the priority: the first criterion where they differ.
fn priority_reason(rules: &Rules, pos: &Position, mv: &Move, best: &Move) -> String {
    let spec = &rules.spec;
    let name = |m: &Move| move_to_string(rules, m);
    let (m, b) = (name(mv), name(best));
    let fm = fields(rules, rules.priority_key(pos, mv));
    let fb = fields(rules, rules.priority_key(pos, best));
    for ((field, &vm), &vb) in rules.key.iter().zip(&fm).zip(&fb) {
        if vm == vb {
            continue;
        }
        return match field.criterion {
            Criterion::MostPieces => format!("{m} takes {vm}; the maximum is {vb}: {b}"),
            Criterion::MostValue => format!("{m} takes pieces worth {vm}; the most is {vb}: {b}"),
            Criterion::HighestCapturer => format!(
                "{m} captures with a {}; a capture by a higher-ranked piece comes first: {b} (a {})",
                spec.pieces[mv.kind_before as usize].name,
                spec.pieces[best.kind_before as usize].name
            ),
            Criterion::HighestCapturedRanks => format!(
                "{m} takes {}; {b} takes more of a higher rank: {}",
                taken_list(rules, pos, mv.captured),
                taken_list(rules, pos, best.captured)
            ),
            Criterion::MostOf(k) => format!(
                "{m} takes {vm} {}s; {b} takes {vb}",
                spec.pieces[k as usize].name
            ),
            Criterion::EarliestOf(k) => format!(
                "{b} takes a {} earlier in the sequence than {m}",
                spec.pieces[k as usize].name
            ),
        };
    }
    format!("the priority ({}) prefers {b}", criteria_names(rules))
}

fn shorten(list: &[String]) -> String {
    if list.len() <= 8 {
        list.join(", ")
    } else {
        format!("{}, … ({} in all)", list[..8].join(", "), list.len())
    }
}

/// Under `take top`: what a capture does to the columns it jumps and to its own.
fn columns_taken(rules: &Rules, pos: &Position, mv: &Move) -> String {
    let child = pos.play(mv);
    let name = |(side, kind): (usize, usize)| {
        format!(
            "{} {}",
            rules.spec.sides[side].name, rules.spec.pieces[kind].name
        )
    };
    let jumped: Vec<String> = mv.jumps().iter().map(|&s| rules.geo.name(s)).collect();
    let height = 1 + child.stacks.under(mv.to).count();
    let mut out = format!(
        "it takes the top of each column it jumps ({}) and puts it under its own column, which \
         ends on {} {height} piece{} high\n",
        jumped.join(", "),
        rules.geo.name(mv.to),
        if height == 1 { "" } else { "s" }
    );
    let mut seen = Vec::new();
    for &j in mv.jumps() {
        if seen.contains(&j) {
            continue;
        }
        seen.push(j);
        match child.at(j) {
            Some(top) if top.0 == pos.turn() => out.push_str(&format!(
                "on {} a {} is set free and tops the column\n",
                rules.geo.name(j),
                name(top)
            )),
            Some(top) => out.push_str(&format!(
                "on {} a {} now tops the column\n",
                rules.geo.name(j),
                name(top)
            )),
            None => out.push_str(&format!("{} is empty now\n", rules.geo.name(j))),
        }
    }
    out
}

/// A capture by a piece whose jumps keep a fixed gap (`after one empty square`): say so.
fn gap_note(rules: &Rules, side: usize, mv: &Move) -> String {
    if rules.programs[side][mv.kind_before as usize]
        .gaps
        .is_empty()
    {
        return String::new();
    }
    "its jumps keep a fixed gap: each crosses one empty square, takes the enemy piece next to \
     it and lands directly behind\n"
        .to_string()
}

/// A quiet orthogonal move on a board whose orthogonal moves cross the light squares.
fn across_note(rules: &Rules, mv: &Move) -> String {
    if !rules.spec.board.orthogonal_across || mv.is_capture() {
        return String::new();
    }
    let (from, to) = (rules.geo.coord(mv.from), rules.geo.coord(mv.to));
    if from.0 != to.0 && from.1 != to.1 {
        return String::new();
    }
    format!(
        "an orthogonal move from {} to {}, across the light squares between (`orthogonal moves \
         across light squares`)\n",
        rules.geo.name(mv.from),
        rules.geo.name(mv.to)
    )
}

/// A one-line capture that turned at the board's edge (`turning at the edge`): where it turned.
fn edge_turn_note(rules: &Rules, mv: &Move) -> String {
    if !rules.spec.pieces[mv.kind_before as usize].edge_turn {
        return String::new();
    }
    let mut points = vec![rules.geo.coord(mv.from)];
    points.extend(mv.route().iter().map(|&s| rules.geo.coord(s)));
    let heading = |a: (u8, u8), b: (u8, u8)| {
        (
            (b.0 as i32 - a.0 as i32).signum(),
            (b.1 as i32 - a.1 as i32).signum(),
        )
    };
    let turns: Vec<String> = points
        .windows(3)
        .zip(mv.route())
        .filter(|(w, _)| heading(w[0], w[1]) != heading(w[1], w[2]))
        .map(|(_, &s)| rules.geo.name(s))
        .collect();
    if turns.is_empty() {
        return "its capture keeps to one line (it may turn only where a jump's line ends at the \
                board's edge)\n"
            .to_string();
    }
    format!(
        "its capture keeps to one line but turns at the board's edge on {}, where the line of \
         the jump before ends (`turning at the edge`)\n",
        turns.join(", ")
    )
}

/// The notes on a capture's shape: a jump at a fixed gap, a turn at the edge, a row leapt whole.
fn shape_notes(rules: &Rules, side: usize, mv: &Move) -> String {
    gap_note(rules, side, mv) + &edge_turn_note(rules, mv) + &row_leap_note(rules, mv)
}

/// A flying capture that leapt rows of adjacent pieces (`leaping a row of adjacent pieces`): the
/// rows, each as its pieces, where one jump took more than one.
fn row_leap_note(rules: &Rules, mv: &Move) -> String {
    if !rules.spec.pieces[mv.kind_before as usize].row_leap {
        return String::new();
    }
    let order = rules.capture_order(mv);
    if order.len() == mv.route().len() {
        return String::new();
    }
    // Each jump's pieces: those of the order that lie on its leg, between its two squares.
    let mut rows = Vec::new();
    let mut cur = rules.geo.coord(mv.from);
    let mut taken = order.iter().peekable();
    for &land in mv.route() {
        let to = rules.geo.coord(land);
        let between = |sq: Sq| {
            let (f, r) = rules.geo.coord(sq);
            let on = |a: u8, b: u8, x: u8| a.min(b) < x && x < a.max(b) || a == b && a == x;
            on(cur.0, to.0, f) && on(cur.1, to.1, r)
        };
        let mut row = Vec::new();
        while let Some(&&sq) = taken.peek() {
            if !between(sq) {
                break;
            }
            row.push(rules.geo.name(sq));
            taken.next();
        }
        if row.len() > 1 {
            rows.push(row.join(", "));
        }
        cur = to;
    }
    format!(
        "it leaps {} {} (`leaping a row of adjacent pieces`)\n",
        rows.iter()
            .map(|r| format!("the row {r}"))
            .collect::<Vec<_>>()
            .join(" and "),
        if rows.len() == 1 {
            "in one jump"
        } else {
            "each in one jump"
        }
    )
}
