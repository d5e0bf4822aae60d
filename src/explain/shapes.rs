//! `explain`'s notes on a move's shape: steps of several legs, a capture at a fixed gap, a quiet
//! move across light squares, a king's line that turns at the edge, a row leap, and the pieces a
//! capture takes from columns.

use super::taken_list;
use crate::engine::geometry::Bits;
use crate::engine::{BitSet, Move, Position, Rules, Sq};

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
pub(super) fn across_note(rules: &Rules, mv: &Move) -> String {
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
pub(super) fn shape_notes(rules: &Rules, side: usize, mv: &Move) -> String {
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

/// A capture by approach or withdrawal, step by step: "it steps to d3 and takes by approach the
/// line beyond it: black man on e3, black man on f3".
pub(super) fn step_legs_text(rules: &Rules, pos: &Position, mv: &Move) -> String {
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

/// Under `take top`: what a capture does to the columns it jumps and to its own.
pub(super) fn columns_taken(rules: &Rules, pos: &Position, mv: &Move) -> String {
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
