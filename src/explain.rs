//! Why a move is legal or not: a one-line explanation of the capture rules' decision (compulsion,
//! the priority rule) for a move text in a position, built on the public engine API only.

use crate::engine::{GenOptions, Move, Position, Rules};
use crate::notation::{move_to_string, parse_move, InputError};
use crate::spec::Criterion;

/// A short explanation of `move_text` in `pos`: "c3-c4 is legal", "c3xe5 is legal: takes 2, the
/// maximum", "c3xe5 takes 1; the maximum is 2: d4xd6xf6", "c3-c4 is illegal: a capture is
/// compulsory (d4xd6xf6)". Text that is not a move at all gets the reader's message.
///
/// ```
/// use damelab::{explain::explain, notation::parse_fen, Variant};
/// let v = Variant::load("turkish").unwrap();
/// let pos = parse_fen(&v.rules, "W:Wb2,g2:Bb3,b5,Kg3").unwrap();
/// assert_eq!(explain(&v.rules, &pos, "g2xg4"), "g2xg4 takes 1; the maximum is 2: b2xb4xb6");
/// ```
pub fn explain(rules: &Rules, pos: &Position, move_text: &str) -> String {
    try_explain(rules, pos, move_text).unwrap_or_else(|e| e.message.clone())
}

/// As [`explain`], but a text that does not read as a move (a bad square, one square only) is an
/// error pointing into `move_text`.
pub fn try_explain(
    rules: &Rules,
    pos: &Position,
    move_text: &str,
) -> Result<String, Box<InputError>> {
    let text = move_text.trim();
    let legal = generate(rules, pos);
    let err = match parse_move(rules, &legal, move_text) {
        Ok(mv) => return Ok(legal_move(rules, pos, &mv)),
        Err(e) if is_syntax_error(&e) => return Err(e),
        Err(e) => e,
    };
    if err.label == "ambiguous" {
        return Ok(format!("{text} is ambiguous: {}", help(&err)));
    }
    // The move may be one the pieces can make but the capture rules forbid: look for it among the
    // moves of the same rules without compulsion and priority.
    if let Some(free) = free_rules(rules) {
        let all = generate(&free, pos);
        if let Ok(mv) = parse_move(&free, &all, move_text) {
            let name = move_to_string(rules, &mv);
            let mut best: Vec<(u32, String)> = legal
                .iter()
                .map(|m| (m.captures(), move_to_string(rules, m)))
                .collect();
            // Most captures first, then by name, so the move shown does not depend on the
            // generator's order.
            best.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            if let Some((top_n, top_name)) = best.first() {
                if mv.is_capture() {
                    let n = mv.captures();
                    return Ok(if *top_n > n {
                        format!("{name} takes {n}; the maximum is {top_n}: {top_name}")
                    } else {
                        format!(
                            "{name} takes {n}; the priority ({}) prefers {top_name}",
                            criteria(rules)
                        )
                    });
                }
                let mut caps: Vec<String> = legal
                    .iter()
                    .filter(|m| m.is_capture())
                    .map(|m| move_to_string(rules, m))
                    .collect();
                caps.sort();
                caps.dedup();
                if !caps.is_empty() {
                    return Ok(format!(
                        "{name} is illegal: a capture is compulsory ({})",
                        shorten(&caps)
                    ));
                }
            }
        }
    }
    Ok(format!("{text} is illegal: {}", help(&err)))
}

fn legal_move(rules: &Rules, pos: &Position, mv: &Move) -> String {
    let name = move_to_string(rules, mv);
    if !mv.is_capture() {
        return format!("{name} is legal");
    }
    let n = mv.captures();
    let most = free_rules(rules)
        .map(|free| generate(&free, pos))
        .unwrap_or_default()
        .iter()
        .map(Move::captures)
        .max()
        .unwrap_or(n);
    if n >= most {
        format!("{name} is legal: takes {n}, the maximum")
    } else if rules.spec.captures.priority.is_empty() {
        format!("{name} is legal: takes {n}; the player chooses (the most is {most})")
    } else {
        format!(
            "{name} is legal: takes {n}; the priority ({}) prefers it to taking {most}",
            criteria(rules)
        )
    }
}

fn generate(rules: &Rules, pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    rules.generate(pos, &mut out, GenOptions::default());
    out
}

/// The same rules with neither compulsion nor priority: every move the pieces can make.
fn free_rules(rules: &Rules) -> Option<Rules> {
    let mut spec = rules.spec.clone();
    spec.captures.priority.clear();
    spec.captures.compulsory = false;
    Rules::compile(&spec).ok()
}

/// The move reader reports a text it cannot read and a move that is not legal with the same error
/// type; its label tells them apart.
pub(crate) fn is_syntax_error(e: &InputError) -> bool {
    e.label != "illegal move" && e.label != "ambiguous"
}

fn help(e: &InputError) -> String {
    e.help.clone().unwrap_or_else(|| e.message.clone())
}

fn criteria(rules: &Rules) -> String {
    let spec = &rules.spec;
    let piece = |k: u8| {
        spec.pieces
            .get(k as usize)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    spec.captures
        .priority
        .iter()
        .map(|c| match *c {
            Criterion::MostPieces => "most pieces".to_string(),
            Criterion::MostValue => "most value".to_string(),
            Criterion::HighestCapturer => "highest capturer".to_string(),
            Criterion::HighestCapturedRanks => "highest captured ranks".to_string(),
            Criterion::MostOf(k) => format!("most {}", piece(k)),
            Criterion::EarliestOf(k) => format!("{} earliest", piece(k)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn shorten(list: &[String]) -> String {
    if list.len() <= 4 {
        list.join(", ")
    } else {
        format!("{}, … ({} in all)", list[..4].join(", "), list.len())
    }
}
