//! `explain` of a drop (a placement phase): why `@a1,b2` is legal or not, and why a move is not
//! while the side to move still holds pieces in hand.

use super::shorten;
use crate::engine::{BitSet, Move, Position, Rules, Sq};
use crate::notation::{move_to_string, parse_move};
use crate::util::plural;

/// The explanation of `text` as a drop (it holds `@`) or, while the side to move places, as any
/// move; `None` when neither applies.
pub(super) fn explain_drop(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    text: &str,
) -> Option<String> {
    let is_drop = crate::notation::is_drop_text(text);
    let placing = rules.placing(pos);
    if !is_drop && !placing {
        return None;
    }
    let spec = &rules.spec;
    let side = pos.turn();
    let who = &spec.sides[side].name;
    let held: Vec<String> = spec
        .pieces
        .iter()
        .enumerate()
        .filter(|&(k, _)| pos.hand[side][k] != 0)
        .map(|(k, p)| {
            format!(
                "{} {}",
                pos.hand[side][k],
                plural(&p.name, pos.hand[side][k] as usize)
            )
        })
        .collect();
    if !is_drop {
        let mut drops: Vec<String> = legal
            .iter()
            .take(4)
            .map(|m| move_to_string(rules, m))
            .collect();
        if legal.len() > 4 {
            drops.push("…".into());
        }
        return Some(format!(
            "`{text}` is not legal: {who} holds {} in hand and places them before moving: a drop, \
             such as {}\n",
            held.join(" and "),
            drops.join(", ")
        ));
    }
    if let Ok(mv) = parse_move(rules, legal, text) {
        let kind = &spec.pieces[mv.kind_after as usize].name;
        let n = mv.path_len;
        let squares: Vec<String> = mv.route().iter().map(|&sq| rules.geo.name(sq)).collect();
        let left = pos.hand[side][mv.kind_after as usize].saturating_sub(n);
        return Some(format!(
            "`{}` is legal: {who} places {n} {} from hand on {} ({left} left in hand)\n",
            move_to_string(rules, &mv),
            plural(kind, n as usize),
            squares.join(" and ")
        ));
    }
    if !placing {
        let why = if rules.drops.active {
            format!("{who} holds no piece in hand")
        } else {
            "this variant has no pieces in hand".to_string()
        };
        return Some(format!("`{text}` is not legal: {why}\n"));
    }
    Some(format!(
        "`{text}` is not legal: {}\n",
        illegal_drop(rules, pos, legal, text)
    ))
}

/// Why a drop's squares are refused: an occupied or barred square, or the wrong number.
fn illegal_drop(rules: &Rules, pos: &Position, legal: &[Move], text: &str) -> String {
    let geo = &rules.geo;
    let after = text.split_once('@').map_or("", |(_, r)| r);
    let squares: Vec<Sq> = after
        .split(',')
        .filter_map(|s| geo.parse(s.trim()))
        .collect();
    if let Some(&sq) = squares.iter().find(|&&sq| pos.at(sq).is_some()) {
        return format!("{} is occupied", geo.name(sq));
    }
    if let Some(&sq) = squares.iter().find(|&&sq| !rules.drops.squares.has(sq)) {
        return format!("no piece is placed on {} (`not on`)", geo.name(sq));
    }
    let k = legal.first().map_or(0, |m| m.path_len);
    if squares.len() != k as usize {
        let mut names: Vec<String> = legal
            .iter()
            .take(6)
            .map(|m| move_to_string(rules, m))
            .collect();
        if legal.len() > 6 {
            names.push("…".into());
        }
        return format!(
            "a drop here places {k} piece{} at once, on empty squares open to it: {}",
            if k == 1 { "" } else { "s" },
            shorten(&names)
        );
    }
    "no legal drop places these pieces".to_string()
}
