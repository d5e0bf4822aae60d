//! Why a move is legal or not, for the REPL's `explain` command (and its `why:` line) and for the
//! `explain` entries of case files. The legal moves come from the variant's rules; "what the move
//! would be without the priority rule or the compulsory capture" from a copy of the rules compiled
//! with both relaxed. Priority comparisons use the engine's own key ([`Rules::priority_key`]), read
//! field by field to name the criterion that decided.

use crate::engine::geometry::Bits;
use crate::engine::{GenOptions, Move, Position, Rules, Sq, TooManyRoutes};
use crate::notation::{move_to_string, parse_move, InputError};

mod combat;
mod drops;
mod priority;
mod shapes;

use combat::{combat_notes, combat_refusal};
use priority::{best_of, criteria_names, priority_reason};
use shapes::{across_note, columns_taken, shape_notes, step_legs_text};

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

fn shorten(list: &[String]) -> String {
    if list.len() <= 8 {
        list.join(", ")
    } else {
        format!("{}, … ({} in all)", list[..8].join(", "), list.len())
    }
}
