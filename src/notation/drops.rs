//! The text of a drop (a placement phase, docs/notation.md): `@`, then the squares the pieces
//! go on, separated by `,`, in any order as input and ascending as written: `@a1,b2`. A drop of
//! any kind but the first-declared one starts with its piece's letter: `K@c3`.

use super::InputError;
use crate::engine::{Move, Rules, Sq};

/// The text of a drop.
pub(super) fn drop_to_string(rules: &Rules, mv: &Move) -> String {
    let geo = &rules.geo;
    let mut s = String::new();
    if mv.kind_after != 0 {
        s.push(rules.piece_letter(mv.kind_after as usize));
    }
    s.push('@');
    let names: Vec<String> = sorted(rules, mv.route())
        .iter()
        .map(|&sq| geo.name(sq))
        .collect();
    s.push_str(&names.join(","));
    s
}

/// The squares in the order they are written: board order (numbers ascending on numbered boards).
fn sorted(rules: &Rules, squares: &[Sq]) -> Vec<Sq> {
    let geo = &rules.geo;
    let mut v = squares.to_vec();
    v.sort_by_key(|&sq| match geo.notation {
        crate::spec::Notation::Numbered => geo.number[sq as usize] as usize,
        crate::spec::Notation::Algebraic => sq as usize,
    });
    v
}

/// Whether `text` is written as a drop: `@` and squares joined by `,` (`@a1,b2`, `K@c3`). A `@`
/// before a move (`@c3-d4`: squares joined by `-`, `x` or `:`) declares a single combat instead
/// (see `super::combat`).
pub fn is_drop_text(text: &str) -> bool {
    text.find('@')
        .is_some_and(|at| !text[at..].contains(['-', 'x', 'X', ':']))
}

/// The drop `input` names, if it is a drop's text ([`is_drop_text`]); `None` for any other move.
pub(super) fn parse_drop(
    rules: &Rules,
    legal: &[Move],
    input: &str,
) -> Option<Result<Move, Box<InputError>>> {
    let text = input.trim();
    if !is_drop_text(text) {
        return None;
    }
    let at_sign = text.find('@')?;
    let lead = input.len() - input.trim_start().len();
    let fail = |at: usize, len: usize, msg: String, label: &str, help: String| {
        Some(Err(InputError::new(
            "move",
            input,
            (lead + at, len.max(1)),
            msg,
            label,
            Some(help),
        )))
    };
    let prefix = &text[..at_sign];
    let kind = if prefix.is_empty() {
        0
    } else {
        let c = prefix.chars().next().unwrap_or(' ');
        match (0..rules.kinds).find(|&k| prefix.chars().count() == 1 && rules.piece_letter(k) == c)
        {
            Some(k) => k,
            None => {
                return fail(
                    0,
                    at_sign,
                    format!("`{prefix}` is not a piece of this variant"),
                    "piece letter expected",
                    "a drop is `@` and its squares (`@a1,b2`), after the piece's letter for any \
                     piece but the first-declared one (`K@c3`)"
                        .into(),
                );
            }
        }
    };
    let mut squares: Vec<Sq> = Vec::new();
    let mut at = at_sign + 1;
    for part in text[at_sign + 1..].split(',') {
        let name = part.trim();
        match rules.geo.parse(name) {
            Some(sq) if !squares.contains(&sq) => squares.push(sq),
            Some(_) => {
                return fail(
                    at,
                    part.len(),
                    format!("`{name}` is named twice in the drop"),
                    "named before",
                    "a drop places one piece on each square it names".into(),
                )
            }
            None => {
                return fail(
                    at,
                    part.len(),
                    format!("`{text}` is not a drop: expected a playable square here"),
                    "not a square",
                    "a drop is `@` and the squares its pieces go on, separated by `,`: `@a1,b2`"
                        .into(),
                )
            }
        }
        at += part.len() + 1;
    }
    squares.sort_unstable();
    let found = legal.iter().find(|m| {
        m.is_drop() && m.kind_after as usize == kind && {
            let mut r = m.route().to_vec();
            r.sort_unstable();
            r == squares
        }
    });
    match found {
        Some(m) => Some(Ok(*m)),
        None => {
            let drops: Vec<String> = legal
                .iter()
                .filter(|m| m.is_drop())
                .take(6)
                .map(|m| drop_to_string(rules, m))
                .collect();
            let help = if drops.is_empty() {
                "no piece may be placed here: the side to move holds none in hand".to_string()
            } else {
                let n = legal.iter().filter(|m| m.is_drop()).count();
                let k = legal.iter().find(|m| m.is_drop()).map_or(0, |m| m.path_len);
                format!(
                    "a drop here places {k} piece{} on empty squares open to it ({n} drops, such \
                     as {})",
                    if k == 1 { "" } else { "s" },
                    drops.join(", ")
                )
            };
            fail(
                0,
                text.len(),
                format!("`{text}` is not a legal drop here"),
                "illegal drop",
                help,
            )
        }
    }
}
