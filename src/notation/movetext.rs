//! Move notation: `c3-c4` for a quiet move, `c3xe5xc7` for a capture through each landing square
//! (numbered boards: `32-28`, `28x19x10`). Input may name just origin and destination of a capture
//! (`c3xc7`) when that names one move. Under huffing, a move that huffs a piece first names it:
//! `*23,32-28` (huff the piece on 23, then play 32-28). A capture by approach or withdrawal whose
//! route another legal move shares marks each step `A` or `W`: `d2xd3A`, `d2xd3W`. A move that
//! declares a single combat has the prefix `@`: `@f6-e7`.

use super::InputError;
use crate::engine::{Move, Rules, Sq};

pub fn move_to_string(rules: &Rules, mv: &Move) -> String {
    if mv.is_drop() {
        return super::drops::drop_to_string(rules, mv);
    }
    let geo = &rules.geo;
    let sep = if mv.is_capture() { "x" } else { "-" };
    let mut s = match mv.huff() {
        Some(h) => format!("*{},", geo.name(h)),
        None => String::new(),
    };
    s.push_str(super::combat::move_prefix(mv));
    s.push_str(&geo.name(mv.from));
    // A capture by approach or withdrawal whose route another move shares marks each step.
    let legs = if mv.marked() {
        rules.step_legs(mv)
    } else {
        Vec::new()
    };
    for (i, &sq) in mv.route().iter().enumerate() {
        s.push_str(sep);
        s.push_str(&geo.name(sq));
        if let Some(leg) = legs.get(i) {
            s.push(if leg.withdrawal { 'W' } else { 'A' });
        }
    }
    s
}

/// A square of a move's text and the mark after it, if any: `A` (approach) or `W` (withdrawal)
/// right after the square's last digit (`e3A`, `19W`); `Some(true)` for withdrawal.
pub(crate) fn split_mark(part: &str) -> (&str, Option<bool>) {
    let b = part.as_bytes();
    if b.len() >= 2 && b[b.len() - 2].is_ascii_digit() {
        match b[b.len() - 1] {
            b'A' | b'a' => return (&part[..part.len() - 1], Some(false)),
            b'W' | b'w' => return (&part[..part.len() - 1], Some(true)),
            _ => {}
        }
    }
    (part, None)
}

/// `*23,`: the piece huffed before the move (the moves that huff it are meant, or without the
/// prefix those that huff none), and the rest of the text.
fn huff_prefix<'a>(
    rules: &Rules,
    legal: &[Move],
    input: &'a str,
) -> Result<(Option<Sq>, &'a str), Box<InputError>> {
    let geo = &rules.geo;
    let trimmed = input.trim_start();
    match trimmed.strip_prefix('*') {
        None => Ok((None, input)),
        Some(rest) => {
            let lead = input.len() - trimmed.len();
            let (name, after) = rest.split_once(',').unwrap_or((rest, ""));
            let Some(sq) = geo.parse(name.trim()) else {
                return Err(InputError::new(
                    "move",
                    input,
                    (lead, name.len() + 1),
                    format!("`*{name}` does not name a piece to huff"),
                    "not a square",
                    Some("a move that huffs a piece names its square first: `*23,32-28`".into()),
                ));
            };
            if !legal.iter().any(|m| m.huff() == Some(sq)) {
                return Err(InputError::new(
                    "move",
                    input,
                    (lead, name.len() + 1),
                    format!("the piece on {} may not be huffed here", geo.name(sq)),
                    "no huff",
                    Some(
                        "a piece may be huffed only right after a move on which it could have \
                         captured and did not"
                            .into(),
                    ),
                ));
            }
            Ok((
                Some(sq),
                &input[lead + 1 + name.len() + usize::from(!after.is_empty())..],
            ))
        }
    }
}

/// Why no legal move fits a move's squares: a compulsory capture, nothing from its origin, or
/// the moves that start there.
fn illegal_help(rules: &Rules, legal: &[Move], from: Sq, to: Sq, capture: bool) -> String {
    let geo = &rules.geo;
    let from_here: Vec<String> = legal
        .iter()
        .filter(|m| m.from == from)
        .map(|m| move_to_string(rules, m))
        .collect();
    if legal.is_empty() {
        "there are no legal moves in this position".to_string()
    } else if !capture
        && legal.iter().all(|m| m.is_capture())
        && !legal.iter().any(|m| m.from == from && m.to == to)
    {
        let mut all: Vec<String> = legal.iter().map(|m| move_to_string(rules, m)).collect();
        all.sort();
        format!("a capture is compulsory here: {}", shorten(&all))
    } else if from_here.is_empty() {
        let mut all: Vec<String> = legal.iter().map(|m| move_to_string(rules, m)).collect();
        all.sort();
        all.dedup();
        format!(
            "no legal move starts on {}; legal moves: {}",
            geo.name(from),
            shorten(&all)
        )
    } else {
        format!(
            "legal moves from {}: {}",
            geo.name(from),
            shorten(&from_here)
        )
    }
}

/// Kept apart (`--keep-duplicates`), two orders of one route and captured set both read as
/// these marks: the one that recorded them (`Move::way`) is the one they name.
fn recorded_order(exact: &[&Move], marks: &[Option<bool>]) -> Option<Move> {
    let own: Vec<&Move> = exact
        .iter()
        .copied()
        .filter(|m| {
            marks
                .iter()
                .enumerate()
                .all(|(i, &w)| w.is_none() || m.way(i) == w)
        })
        .collect();
    (own.len() == 1).then(|| *own[0])
}

/// Find the legal move (among `legal`) that `input` names.
pub fn parse_move(rules: &Rules, legal: &[Move], input: &str) -> Result<Move, Box<InputError>> {
    if let Some(found) = super::drops::parse_drop(rules, legal, input) {
        return found;
    }
    let geo = &rules.geo;
    let (huff, input) = huff_prefix(rules, legal, input)?;
    let huffed: Vec<Move>;
    let legal = if rules.huffing {
        huffed = legal.iter().filter(|m| m.huff() == huff).copied().collect();
        &huffed[..]
    } else {
        legal
    };
    let (declared, input) = super::combat::declaring(rules, legal, input)?;
    let legal = declared.as_deref().unwrap_or(legal);
    let text = input.trim();
    let lead = input.len() - input.trim_start().len();
    let mut squares: Vec<Sq> = Vec::new();
    let mut marks: Vec<Option<bool>> = Vec::new();
    let mut capture = false;
    let mut at = lead;
    for part in text.split(['-', 'x', 'X', ':']) {
        let len = part.len();
        let (name, mark) = if rules.approach {
            split_mark(part.trim())
        } else {
            (part.trim(), None)
        };
        if !squares.is_empty() {
            marks.push(mark);
        }
        match geo.parse(name) {
            Some(sq) => squares.push(sq),
            None => {
                let what = if part.trim().is_empty() {
                    "a square"
                } else {
                    "a playable square"
                };
                return Err(InputError::new(
                    "move",
                    input,
                    (at, len.max(1)),
                    format!("`{text}` is not a move: expected {what} here"),
                    "not a square",
                    Some(
                        "write a move as `from-to` or a capture as `fromxto` (e.g. `c3-c4`, `c3xe5`)"
                            .into(),
                    ),
                ));
            }
        }
        at += len;
        if at < lead + text.len() {
            capture |= matches!(input.as_bytes()[at], b'x' | b'X' | b':');
            at += 1;
        }
    }
    if squares.len() < 2 {
        return Err(InputError::new(
            "move",
            input,
            (lead, text.len().max(1)),
            format!("`{text}` is not a move"),
            "a move names at least two squares",
            Some("write a move as `from-to` or a capture as `fromxto`".into()),
        ));
    }
    let from = squares[0];
    let to = *squares.last().expect("at least two squares were parsed");
    // Marks (`A`, `W`) choose among captures by approach and withdrawal along the same route.
    let marked = marks.iter().any(Option::is_some);
    let fits = |m: &Move| !marked || rules.step_legs_matching(m, &marks).is_some();
    let exact: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            m.from == from && m.route() == &squares[1..] && (m.is_capture() || !capture) && fits(m)
        })
        .collect();
    if exact.len() == 1 || (exact.len() > 1 && !rules.approach) {
        return Ok(*exact[0]);
    }
    if exact.len() > 1 && marked {
        if let Some(m) = recorded_order(&exact, &marks) {
            return Ok(m);
        }
    }
    if exact.len() > 1 {
        let names: Vec<String> = exact.iter().map(|m| move_to_string(rules, m)).collect();
        return Err(InputError::new(
            "move",
            input,
            (lead, text.len().max(1)),
            format!("`{text}` is ambiguous: it names {} moves", exact.len()),
            "ambiguous",
            Some(format!(
                "mark each step `A` (approach) or `W` (withdrawal): {}",
                names.join(", ")
            )),
        ));
    }
    // The short form: origin and destination only, through any route.
    let short: Vec<&Move> = if marked {
        // A marked capture names every step.
        Vec::new()
    } else if squares.len() == 2 {
        legal
            .iter()
            .filter(|m| m.from == from && m.to == to)
            .collect()
    } else {
        // Or some landing squares named: they must appear in the route, in order.
        legal
            .iter()
            .filter(|m| m.from == from && m.to == to && is_subsequence(&squares[1..], m.route()))
            .collect()
    };
    let distinct: Vec<&Move> = short
        .iter()
        .enumerate()
        .filter(|(i, m)| short[..*i].iter().all(|o| !o.same_move(m)))
        .map(|(_, m)| *m)
        .collect();
    match distinct.len() {
        1 => Ok(*distinct[0]),
        0 => {
            let help = illegal_help(rules, legal, from, to, capture);
            Err(InputError::new(
                "move",
                input,
                (lead, text.len().max(1)),
                format!("`{text}` is not a legal move here"),
                "illegal move",
                Some(help),
            ))
        }
        _ => {
            let names: Vec<String> = distinct.iter().map(|m| move_to_string(rules, m)).collect();
            Err(InputError::new(
                "move",
                input,
                (lead, text.len().max(1)),
                format!("`{text}` is ambiguous: it names {} moves", distinct.len()),
                "ambiguous",
                Some(format!("name the landing squares: {}", names.join(", "))),
            ))
        }
    }
}

fn is_subsequence(needle: &[Sq], hay: &[Sq]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

fn shorten(list: &[String]) -> String {
    if list.len() <= 12 {
        list.join(", ")
    } else {
        format!("{}, … ({} in all)", list[..12].join(", "), list.len())
    }
}
