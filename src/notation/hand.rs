//! The FEN's hand field (docs/notation.md): in a variant with pieces in hand, `[` and the pieces
//! each side holds, then `]`: `[W10,B12]`, each entry a side's letter, a piece's letter unless it
//! is the first-declared kind, and a count: `[W3,WK1,B4]`.

use super::fen::err;
use super::InputError;
use crate::engine::{Position, Rules};

/// The hand field of `pos`, empty when no piece is in hand.
pub(super) fn hand_text(rules: &Rules, pos: &Position) -> String {
    let mut parts = Vec::new();
    for side in 0..2 {
        for (kind, &n) in pos.hand[side].iter().enumerate().take(rules.kinds) {
            if n == 0 {
                continue;
            }
            let letter = if kind == 0 {
                String::new()
            } else {
                rules.piece_letter(kind).to_string()
            };
            parts.push(format!("{}{letter}{n}", rules.side_letter(side)));
        }
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(":[{}]", parts.join(","))
}

/// Read the hand field (`[W10,B12]`, `at` its offset in `input`) into `pos`.
pub(super) fn parse_hand(
    rules: &Rules,
    input: &str,
    at: usize,
    field: &str,
    pos: &mut Position,
) -> Result<(), Box<InputError>> {
    let at = at + (field.len() - field.trim_start().len());
    let f = field.trim();
    let help = "the hand field lists the pieces each side holds in hand: its letter, a piece's \
                letter unless it is the first-declared one, and a count, as in `[W10,B12]`";
    if !rules.drops.active {
        return Err(err(
            input,
            at,
            f.len(),
            "this variant has no pieces in hand".into(),
            "pieces in hand",
            "the `[…]` field is for variants whose setup puts pieces in hand; remove it".into(),
        ));
    }
    let Some(inner) = f.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
        return Err(err(
            input,
            at,
            f.len(),
            format!("`{f}` is not a hand field"),
            "`[` … `]` expected",
            help.into(),
        ));
    };
    let mut iat = at + 1;
    for item in inner.split(',') {
        let this_at = iat + (item.len() - item.trim_start().len());
        iat += item.len() + 1;
        let item = item.trim();
        if item.is_empty() && inner.trim().is_empty() {
            return Ok(());
        }
        let mut chars = item.chars();
        let side = chars
            .next()
            .and_then(|c| (0..2).find(|&s| rules.side_letter(s) == c.to_ascii_uppercase()));
        let rest = chars.as_str();
        let (kind, digits) = match rest.chars().next() {
            Some(c) if !c.is_ascii_digit() => (
                (0..rules.kinds).find(|&k| rules.piece_letter(k) == c),
                &rest[c.len_utf8()..],
            ),
            _ => (Some(0), rest),
        };
        let count = digits.parse::<u8>().ok();
        let (Some(side), Some(kind), Some(count)) = (side, kind, count) else {
            return Err(err(
                input,
                this_at,
                item.len(),
                format!("`{item}` is not a count of pieces in hand"),
                "side letter, piece letter and count expected",
                help.into(),
            ));
        };
        pos.hand[side][kind] = count;
    }
    Ok(())
}
