//! A declared single combat in text (docs/notation.md): in the FEN, a last field `combat`
//! (`B:Wf6:Bd8:combat`); in move text, a declaring move's prefix `@` (`@f6-e7`: declare the
//! combat and play f6-e7).

use super::fen::err;
use super::InputError;
use crate::engine::{Move, Position, Rules};

/// The word of the FEN field.
const FIELD: &str = "combat";

/// Take the `combat` field out of a FEN's fields, if there: where it was.
pub(super) fn take_field(fields: &mut Vec<(usize, &str)>) -> Option<(usize, usize)> {
    let i = fields
        .iter()
        .skip(1)
        .position(|(_, f)| f.trim().eq_ignore_ascii_case(FIELD))?;
    let (at, f) = fields.remove(i + 1);
    Some((at + (f.len() - f.trim_start().len()), f.trim().len()))
}

/// Mark `pos` (read whole) as under a declared combat, or say why it cannot be.
pub(super) fn declare(
    rules: &Rules,
    input: &str,
    (at, len): (usize, usize),
    pos: &mut Position,
) -> Result<(), Box<InputError>> {
    if rules.combat.is_none() {
        return Err(err(
            input,
            at,
            len,
            "this variant has no single combat".into(),
            "a declared combat",
            "the `combat` field marks a declared single combat, in variants whose `game:` \
             section says `lone pieces of equal rank may declare single combat`; remove it"
                .into(),
        ));
    }
    if !rules.may_declare(pos) && !promoted_since(rules, pos) {
        return Err(err(
            input,
            at,
            len,
            "no single combat can be declared in this position".into(),
            "a declared combat",
            "a combat is fought by two lone pieces, one a side, of the ranks the rules allow \
             (or promoted from them since); remove the field, or the other pieces"
                .into(),
        ));
    }
    pos.turn |= Position::<crate::engine::geometry::Bits>::COMBAT;
    Ok(())
}

/// Whether the two lone pieces of `pos` may be a combat's after a promotion: a piece that
/// promotes during a combat fights on, so each may have been of a kind that promotes to its own
/// (in one promotion or several) when the combat was declared, and those two kinds may declare.
fn promoted_since(rules: &Rules, pos: &Position) -> bool {
    let (Some(spec), Some((_, a, _, b))) = (&rules.spec.game.combat, rules.lone_pieces(pos)) else {
        return false;
    };
    let pieces = &rules.spec.pieces;
    let highest = pieces.iter().map(|p| p.rank).max().unwrap_or(0);
    // The kinds a piece of kind `k` may have been: `k` and every kind that promotes to it.
    let before = |k: usize| {
        let mut kinds = vec![k];
        let mut i = 0;
        while let Some(&now) = kinds.get(i) {
            for (j, p) in pieces.iter().enumerate() {
                if !kinds.contains(&j) && p.promotions.iter().any(|q| q.to as usize == now) {
                    kinds.push(j);
                }
            }
            i += 1;
        }
        kinds
    };
    let (was_a, was_b) = (before(a), before(b));
    was_a.iter().any(|&x| {
        was_b
            .iter()
            .any(|&y| spec.allows(pieces[x].rank, pieces[y].rank, highest))
    })
}

/// The FEN field of a position under a declared combat (`:combat`), or nothing.
pub(super) fn fen_suffix(pos: &Position) -> &'static str {
    if pos.in_combat() {
        ":combat"
    } else {
        ""
    }
}

/// The prefix of a move that declares a combat.
pub(super) fn move_prefix(mv: &Move) -> &'static str {
    if mv.declares() {
        "@"
    } else {
        ""
    }
}

/// `@`: the moves a text's declaration (or its absence) leaves, in a variant with single combat,
/// and the rest of the text. Without the prefix the moves that declare nothing are meant; with
/// it, those that declare (an error when none does).
pub(super) fn declaring<'a>(
    rules: &Rules,
    legal: &[Move],
    input: &'a str,
) -> Result<(Option<Vec<Move>>, &'a str), Box<InputError>> {
    let trimmed = input.trim_start();
    let only = |declares: bool| {
        let kept = legal.iter().filter(|m| m.declares() == declares);
        rules.combat.as_ref().map(|_| kept.copied().collect())
    };
    let Some(rest) = trimmed.strip_prefix('@') else {
        return Ok((only(false), input));
    };
    if !legal.iter().any(Move::declares) {
        let at = input.len() - trimmed.len();
        return Err(InputError::new(
            "move",
            input,
            (at, 1),
            "no single combat may be declared here",
            "a declaration",
            Some(
                "a combat is declared (`@f6-e7`) by the side to move when each side has one \
                 piece left, of the ranks the rules allow, with a quiet move that comes nearer \
                 to the enemy piece; write the move without `@`"
                    .into(),
            ),
        ));
    }
    Ok((only(true), rest))
}
