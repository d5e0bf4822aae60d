//! `explain MOVE`: why a move is legal or not, worked out on top of the engine's public API. The
//! legal moves come from the variant's rules; "what the move would be without the priority rule or
//! the compulsory capture" from a copy of the rules compiled with both relaxed.

use crate::engine::geometry::{bit, Bits};
use crate::engine::{GenOptions, Move, Position, Rules, Sq};
use crate::notation::{move_to_string, parse_move};
use crate::spec::Criterion;
use crate::Game;
use miette::Report;

/// The explanation of `text` in the game's current position, or the diagnostic of a text that
/// does not name a move at all.
pub fn explain(game: &Game, text: &str) -> Result<String, Report> {
    let rules = &game.rules;
    let pos = game.position();
    let legal = game.legal_moves();
    let squares = match squares(rules, text) {
        Some(s) if s.len() >= 2 => s,
        _ => {
            // Let the notation module say what is wrong with the text.
            return Err(match parse_move(rules, &legal, text) {
                Err(e) => boxed(e),
                Ok(_) => miette::miette!("`{text}` is not a move"),
            });
        }
    };
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let name = |m: &Move| move_to_string(rules, m);
    if let Ok(mv) = parse_move(rules, &legal, text) {
        return Ok(explain_legal(rules, pos, &legal, &mv));
    }
    if game.result().is_some() {
        return Ok(format!(
            "`{text}` is not legal: the game is over ({})\n",
            game.describe_result()
        ));
    }
    if legal.iter().any(|m| m.from == from && m.to == to) {
        // The squares name legal moves, but not one of them alone or not by this route.
        return Err(match parse_move(rules, &legal, text) {
            Err(e) => boxed(e),
            Ok(_) => miette::miette!("`{text}` is ambiguous"),
        });
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
    let relaxed = relaxed_moves(rules, pos)?;
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

fn boxed(e: Box<crate::notation::InputError>) -> Report {
    Report::new_boxed(e as Box<dyn miette::Diagnostic + Send + Sync>)
}

/// The squares a move text names, if every part is a playable square.
fn squares(rules: &Rules, text: &str) -> Option<Vec<Sq>> {
    text.trim()
        .split(['-', 'x', 'X', ':'])
        .map(|p| rules.geo.parse(p.trim()))
        .collect()
}

/// The moves of `pos` with the priority rule and the compulsory capture switched off.
fn relaxed_moves(rules: &Rules, pos: &Position) -> Result<Vec<Move>, Report> {
    let mut spec = rules.spec.clone();
    spec.captures.priority.clear();
    spec.captures.compulsory = false;
    let relaxed = Rules::compile(&spec).map_err(Report::new)?;
    let mut out = Vec::new();
    relaxed.generate(pos, &mut out, GenOptions::default());
    Ok(out)
}

fn explain_legal(rules: &Rules, pos: &Position, legal: &[Move], mv: &Move) -> String {
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
    if mv.is_capture() {
        let others = legal
            .iter()
            .filter(|m| m.is_capture() && !m.same_move(mv))
            .count();
        let relaxed = relaxed_moves(rules, pos).unwrap_or_default();
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
    } else if rules.compulsory {
        out.push_str("no capture is available\n");
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

/// The captured squares of a move in the order they are jumped, walking its route.
fn capture_order(rules: &Rules, mv: &Move) -> Vec<Sq> {
    let geo = &rules.geo;
    let mut order = Vec::new();
    let mut prev = mv.from;
    for &next in mv.route() {
        let (f0, r0) = geo.coord(prev);
        let (f1, r1) = geo.coord(next);
        let (df, dr) = (
            (f1 as i16 - f0 as i16).signum(),
            (r1 as i16 - r0 as i16).signum(),
        );
        let (mut f, mut r) = (f0 as i16, r0 as i16);
        // Jumps run along lines; the bound only guards against a segment that is not one.
        let mut steps = geo.width as usize + geo.height as usize;
        while (f, r) != (f1 as i16, r1 as i16) && steps > 0 {
            steps -= 1;
            f += df;
            r += dr;
            if let Some(sq) = geo.square((f as u8, r as u8)) {
                if mv.captured & bit(sq) != 0 && !order.contains(&sq) {
                    order.push(sq);
                }
            }
        }
        prev = next;
    }
    order
}

/// A move's standing under one criterion: larger is preferred.
fn value(rules: &Rules, pos: &Position, mv: &Move, c: Criterion) -> Vec<i64> {
    let taken: Vec<usize> = crate::engine::geometry::BitIter(mv.captured)
        .map(|sq| pos.kind_at(sq))
        .collect();
    let spec = &rules.spec;
    match c {
        Criterion::MostPieces => vec![mv.captures() as i64],
        Criterion::MostValue => vec![taken.iter().map(|&k| spec.pieces[k].value as i64).sum()],
        Criterion::HighestCapturer => vec![spec.pieces[mv.kind_before as usize].rank as i64],
        Criterion::HighestCapturedRanks => rules
            .ranks_desc
            .iter()
            .map(|&r| taken.iter().filter(|&&k| spec.pieces[k].rank == r).count() as i64)
            .collect(),
        Criterion::MostOf(k) => vec![taken.iter().filter(|&&t| t == k as usize).count() as i64],
        Criterion::EarliestOf(k) => {
            let order = capture_order(rules, mv);
            let at = order.iter().position(|&sq| pos.kind_at(sq) == k as usize);
            vec![at.map(|i| -(i as i64)).unwrap_or(i64::MIN)]
        }
    }
}

fn key(rules: &Rules, pos: &Position, mv: &Move) -> Vec<Vec<i64>> {
    rules
        .spec
        .captures
        .priority
        .iter()
        .map(|&c| value(rules, pos, mv, c))
        .collect()
}

/// The move that ranks highest under the priority (the first by name among equals).
fn best_of<'a>(rules: &Rules, pos: &Position, moves: &[&'a Move]) -> Option<&'a Move> {
    let mut sorted: Vec<&Move> = moves.to_vec();
    sorted.sort_by_key(|m| move_to_string(rules, m));
    sorted
        .into_iter()
        .rev()
        .max_by_key(|m| (key(rules, pos, m), m.captures()))
}

/// Why `mv` loses to `best` under the priority: the first criterion where they differ.
fn priority_reason(rules: &Rules, pos: &Position, mv: &Move, best: &Move) -> String {
    let spec = &rules.spec;
    let name = |m: &Move| move_to_string(rules, m);
    let (m, b) = (name(mv), name(best));
    for &c in &spec.captures.priority {
        let (vm, vb) = (value(rules, pos, mv, c), value(rules, pos, best, c));
        if vm == vb {
            continue;
        }
        return match c {
            Criterion::MostPieces => format!(
                "{m} takes {}; the maximum is {}: {b}",
                vm[0], vb[0]
            ),
            Criterion::MostValue => format!(
                "{m} takes pieces worth {}; the most is {}: {b}",
                vm[0], vb[0]
            ),
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
                "{m} takes {} {}s; {b} takes {}",
                vm[0], spec.pieces[k as usize].name, vb[0]
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
