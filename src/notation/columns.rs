//! Columns in the FEN (`take top`, docs/notation.md): the pieces under a column's top follow its
//! square in parentheses, from just below the top to the bottom, each its side's letter, then its
//! piece's letter unless it is of the first-declared kind: `W:Wa1,Oc3(BBWO):Bg7` is a White
//! officer on c3 over two Black soldiers and a White officer.

use super::fen::err;
use super::InputError;
use crate::engine::bits::BitSet;
use crate::engine::{Position, Rules};

/// The pieces (side, kind) of a column's text, after its `(`: `BBWO)`.
pub(super) fn parse_column(
    rules: &Rules,
    input: &str,
    at: usize,
    item: &str,
    rest: &str,
) -> Result<Vec<(usize, usize)>, Box<InputError>> {
    let help = || {
        format!(
            "a column is written after its square, its pieces from the top down in parentheses, \
             each a side's letter ({}{}) and, unless of the first kind, its piece's letter: \
             `c3(BBW{})`",
            rules.side_letter(0),
            rules.side_letter(1),
            rules.piece_letter(rules.kinds.saturating_sub(1))
        )
    };
    if !rules.stacks {
        return Err(err(
            input,
            at,
            item.len(),
            "a column in a variant without stacks".into(),
            "column",
            "only a variant with `captures: take top` stacks pieces into columns".into(),
        ));
    }
    let Some(body) = rest.strip_suffix(')') else {
        return Err(err(
            input,
            at,
            item.len(),
            format!("`{item}`: the column is not closed"),
            "`)` expected at the end",
            help(),
        ));
    };
    let side_of = |c: char| (0..2).find(|&s| rules.side_letter(s) == c);
    let kind_of = |c: char| (1..rules.kinds).find(|&k| rules.piece_letter(k) == c);
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        let Some(side) = side_of(c) else {
            return Err(err(
                input,
                at,
                item.len(),
                format!("`{c}` in the column of `{item}` is not a side's letter"),
                "bad column",
                help(),
            ));
        };
        let kind = match chars.peek().copied() {
            Some(p) if side_of(p).is_none() => match kind_of(p) {
                Some(k) => {
                    chars.next();
                    k
                }
                None => {
                    return Err(err(
                        input,
                        at,
                        item.len(),
                        format!("`{p}` in the column of `{item}` is not a piece's letter"),
                        "bad column",
                        help(),
                    ))
                }
            },
            _ => 0,
        };
        out.push((side, kind));
    }
    if out.is_empty() {
        return Err(err(
            input,
            at,
            item.len(),
            format!("`{item}`: an empty column"),
            "nothing under the top",
            "leave out the parentheses of a single piece".into(),
        ));
    }
    Ok(out)
}

/// Put the pieces of a column under the top on `sq`.
pub(super) fn lay(
    input: &str,
    at: usize,
    item: &str,
    pos: &mut Position,
    sq: u8,
    column: &[(usize, usize)],
) -> Result<(), Box<InputError>> {
    pos.stacks.set_under(sq, column).map_err(|_| {
        err(
            input,
            at,
            item.len(),
            format!(
                "too many pieces under the tops: a position holds at most {}",
                crate::engine::stacks::MAX_PRISONERS
            ),
            "one column too many",
            "a variant with stacks holds at most 25 pieces in all".into(),
        )
    })
}

/// The text of the column on `sq` (empty when nothing lies under its top).
pub(super) fn column_text(rules: &Rules, pos: &Position, sq: u8) -> String {
    let mut s = String::new();
    for (side, kind) in pos.stacks.under(sq) {
        s.push(rules.side_letter(side));
        if kind != 0 {
            s.push(rules.piece_letter(kind));
        }
    }
    if s.is_empty() {
        s
    } else {
        format!("({s})")
    }
}

/// Under `take top`: at most as many pieces (tops and prisoners) as a setup may hold, so that
/// every capture finds room under its column.
pub(super) fn check_total(
    rules: &Rules,
    input: &str,
    pos: &Position,
) -> Result<(), Box<InputError>> {
    let max = crate::engine::stacks::MAX_PRISONERS + 1;
    let n = pos.occupied().count() as usize + pos.stacks.len();
    if rules.stacks && n > max {
        return Err(err(
            input,
            0,
            input.len(),
            format!("{n} pieces on the board; a variant with stacks holds at most {max}"),
            "too many pieces",
            "columns keep every prisoner in a few bytes: give fewer pieces".into(),
        ));
    }
    Ok(())
}
