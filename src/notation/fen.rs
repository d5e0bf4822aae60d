//! The FEN (docs/notation.md): `TURN:SIDE1SQUARES:SIDE2SQUARES`, e.g. `W:Wa2,b2,Kd5:Ba6,h7` or, on
//! numbered boards, `W:W31-50:B1-20`. Under huffing, a last field `*` lists the pieces of the side
//! not to move that may be huffed (`B:W31-50:B1-19,23:*33`). Under a declared single combat, a
//! last field `combat` (`B:Wf6:Bd8:combat`).

use super::InputError;
use crate::engine::bits::BitSet;
use crate::engine::geometry::BitIter;
use crate::engine::{Position, Rules};
use crate::spec::Notation;

/// A FEN diagnostic pointing at `len` characters from `at` (one at least).
pub(super) fn err(
    input: &str,
    at: usize,
    len: usize,
    msg: String,
    label: &str,
    help: String,
) -> Box<InputError> {
    InputError::new("fen", input, (at, len.max(1)), msg, label, Some(help))
}

fn side_of(rules: &Rules, c: char) -> Option<usize> {
    (0..2).find(|&s| rules.side_letter(s) == c)
}

fn letters(rules: &Rules) -> String {
    format!("`{}` or `{}`", rules.side_letter(0), rules.side_letter(1))
}

/// The FEN inside a PDN tag (`[FEN "W:W31-50:B1-20"]`) or quotes, the wrapper turned into blanks so
/// that positions in diagnostics still point into the text as given.
fn unwrap_tag(input: &str) -> String {
    let t = input.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .map(|r| r.trim_start())
        .and_then(|r| {
            r.get(..3)
                .filter(|n| n.eq_ignore_ascii_case("fen"))
                .map(|_| &r[3..])
        })
        .map(str::trim)
        .unwrap_or(t);
    let inner = inner
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(inner);
    if inner.len() == t.len() {
        return input.to_string();
    }
    // `inner` is a slice of `input`: blank everything around it.
    let start = inner.as_ptr() as usize - input.as_ptr() as usize;
    let end = start + inner.len();
    let mut out = String::with_capacity(input.len());
    for (i, c) in input.char_indices() {
        if i < start || i >= end {
            out.push_str(&" ".repeat(c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Read a position. Squares must be playable, each named once. The PDN forms are accepted too:
/// the FEN inside a `[FEN "…"]` tag, and the `H` (moves since a capture or man move) and `F`
/// (move number) fields that some programs add (`W:W31-50:B1-20:H0:F1`), which are ignored.
pub fn parse_fen(rules: &Rules, input: &str) -> Result<Position, Box<InputError>> {
    let unwrapped = unwrap_tag(input);
    let input = unwrapped.as_str();
    let text = input.trim_end().trim_end_matches('.');
    let lead = input.len() - input.trim_start().len();
    let mut fields = Vec::new();
    let mut at = 0;
    for f in text.split(':') {
        fields.push((at, f));
        at += f.len() + 1;
    }
    // The pieces open to a huff: `*` and their squares, after the groups (and counters).
    let huff = fields
        .iter()
        .skip(1)
        .position(|(_, f)| f.trim_start().starts_with('*'))
        .map(|i| fields.remove(i + 1));
    let combat = super::combat::take_field(&mut fields);
    // The pieces in hand: `[` and the counts, after the groups.
    let hand = fields
        .iter()
        .skip(1)
        .position(|(_, f)| f.trim_start().starts_with('['))
        .map(|i| fields.remove(i + 1));
    drop_trailing_counters(rules, input, &mut fields)?;
    let (turn_at, turn_text) = fields[0];
    let turn_trim = turn_text.trim();
    let turn = turn_trim
        .chars()
        .next()
        .filter(|_| turn_trim.chars().count() == 1)
        .and_then(|c| side_of(rules, c.to_ascii_uppercase()))
        .ok_or_else(|| {
            err(
                input,
                turn_at + lead.min(turn_text.len()),
                turn_trim.len(),
                format!("`{turn_trim}` is not a side to move"),
                "side to move expected here",
                format!(
                    "a FEN starts with the side to move, {}, then `:`",
                    letters(rules)
                ),
            )
        })?;
    if fields.len() == 1 {
        // `W` alone would be an empty board: more likely a slip than a wish.
        return Err(err(
            input,
            0,
            input.len(),
            "the position has no squares".into(),
            "only the side to move",
            format!(
                "after the side to move come the groups, e.g. `{0}:{0}a1,c1:{1}h8`; an empty \
                 board is written `{0}:{0}:{1}`",
                rules.side_letter(0),
                rules.side_letter(1)
            ),
        ));
    }
    // The optional move-count field: it starts with a digit, where a group starts with a letter.
    let counters = match fields.get(3) {
        Some(&(cat, f)) if f.trim_start().starts_with(|c: char| c.is_ascii_digit()) => {
            fields.remove(3);
            Some((cat, f))
        }
        _ => None,
    };
    if fields.len() > 3 {
        let (at, f) = fields[3];
        return Err(err(
            input,
            at.saturating_sub(1),
            f.len() + 1,
            "too many groups".into(),
            "unexpected group",
            "a FEN has the side to move and one group of squares per side".into(),
        ));
    }
    let mut pos = Position::empty(turn);
    if let Some((cat, f)) = counters {
        parse_counters(rules, input, cat, f, &mut pos)?;
    }
    let mut seen = [false; 2];
    for &(gat, group) in &fields[1..] {
        parse_group(rules, input, gat, group, &mut seen, &mut pos)?;
    }
    if let Some((hat, f)) = huff {
        parse_huff(rules, input, hat, f, &mut pos)?;
    }
    if let Some((hat, f)) = hand {
        super::hand::parse_hand(rules, input, hat, f, &mut pos)?;
    }
    super::columns::check_total(rules, input, &pos)?;
    if let Some(field) = combat {
        super::combat::declare(rules, input, field, &mut pos)?;
    }
    Ok(pos)
}

/// Drop the trailing `H…` and `F…` counters (when their letter is not a side's), or say why a
/// counter's number is bad.
fn drop_trailing_counters(
    rules: &Rules,
    input: &str,
    fields: &mut Vec<(usize, &str)>,
) -> Result<(), Box<InputError>> {
    while fields.len() > 3 {
        let (f_at, raw) = fields[fields.len() - 1];
        let f = raw.trim();
        let letter = matches!(f.chars().next(), Some('H' | 'F'))
            && side_of(rules, f.chars().next().unwrap_or(' ')).is_none();
        if letter && f.len() > 1 && f[1..].bytes().all(|b| b.is_ascii_digit()) {
            fields.pop();
            continue;
        }
        if letter && f[1..].bytes().any(|b| b.is_ascii_digit()) {
            // `F-1`, `H1.5`: a counter with a bad number, not a group.
            return Err(err(
                input,
                f_at + (raw.len() - raw.trim_start().len()),
                f.len(),
                format!("`{f}` is not a move counter"),
                "a number of moves expected after the letter",
                "the trailing `H` (half-moves) and `F` (move number) fields take a whole number \
                 of moves, as in `:H0:F1`"
                    .into(),
            ));
        }
        break;
    }
    Ok(())
}

/// One side's group: its letter, then its squares (`W31,K45,33-35`), each put on `pos`.
fn parse_group(
    rules: &Rules,
    input: &str,
    gat: usize,
    group: &str,
    seen: &mut [bool; 2],
    pos: &mut Position,
) -> Result<(), Box<InputError>> {
    let gtrim_start = group.len() - group.trim_start().len();
    let g = group.trim();
    let gat = gat + gtrim_start;
    let Some(c) = g.chars().next() else {
        return Err(err(
            input,
            gat,
            1,
            "empty group".into(),
            "side letter expected",
            format!(
                "each group starts with its side's letter, {}",
                letters(rules)
            ),
        ));
    };
    let Some(side) = side_of(rules, c.to_ascii_uppercase()) else {
        return Err(err(
            input,
            gat,
            c.len_utf8(),
            format!("`{c}` is not a side of this variant"),
            "unknown side",
            format!(
                "each group starts with its side's letter, {}",
                letters(rules)
            ),
        ));
    };
    if seen[side] {
        return Err(err(
            input,
            gat,
            1,
            format!("side `{c}` has two groups"),
            "second group",
            "list each side's squares in one group".into(),
        ));
    }
    seen[side] = true;
    let mut iat = gat + c.len_utf8();
    for item in g[c.len_utf8()..].split(',') {
        let this_at = iat + (item.len() - item.trim_start().len());
        iat += item.len() + 1;
        let item = item.trim();
        if item.is_empty() {
            if g.len() == c.len_utf8() {
                return Ok(()); // an empty group is just the letter
            }
            return Err(err(
                input,
                this_at,
                1,
                "empty square in the list".into(),
                "square expected",
                "squares are separated by single commas".into(),
            ));
        }
        parse_item(rules, input, this_at, item, side, pos)?;
    }
    Ok(())
}

/// `*33,38`: the squares of the pieces that could have captured on the last move and did not;
/// each must hold a piece of the side not to move, in a variant with huffing.
fn parse_huff(
    rules: &Rules,
    input: &str,
    at: usize,
    field: &str,
    pos: &mut Position,
) -> Result<(), Box<InputError>> {
    let at = at + (field.len() - field.trim_start().len());
    let f = field.trim();
    if !rules.huffing {
        return Err(err(
            input,
            at,
            f.len(),
            "this variant has no huffing".into(),
            "pieces open to a huff",
            "the `*` field lists the pieces that may be huffed, in variants whose captures \
             say `huffing`; remove it"
                .into(),
        ));
    }
    let other = 1 - pos.turn();
    let mut iat = at + 1;
    for item in f[1..].split(',') {
        let this_at = iat + (item.len() - item.trim_start().len());
        iat += item.len() + 1;
        let item = item.trim();
        let Some(sq) = rules.geo.parse(item) else {
            return Err(err(
                input,
                this_at,
                item.len(),
                format!("`{item}` is not a playable square"),
                "square expected",
                "after `*` come the squares of the pieces that may be huffed, separated by \
                 commas, as in `:*33,38`"
                    .into(),
            ));
        };
        if !pos.sides[other].has(sq) {
            return Err(err(
                input,
                this_at,
                item.len(),
                format!(
                    "no piece of side `{}` on {item} to huff",
                    rules.side_letter(other)
                ),
                "not a piece of the side that just moved",
                "only the pieces of the side not to move, which could have captured on its last \
                 move, may be huffed"
                    .into(),
            ));
        }
        pos.huff |= crate::engine::geometry::Bits::bit(sq);
    }
    Ok(())
}

/// `12,0`: per move-count rule of the variant, in file order, the single moves since its count
/// last started again.
fn parse_counters(
    rules: &Rules,
    input: &str,
    at: usize,
    field: &str,
    pos: &mut Position,
) -> Result<(), Box<InputError>> {
    let rules_n = rules.spec.game.move_count_draws.len();
    let mut iat = at;
    for (n, item) in field.split(',').enumerate() {
        let this_at = iat + (item.len() - item.trim_start().len());
        iat += item.len() + 1;
        let text = item.trim();
        if n >= rules_n {
            return Err(err(
                input,
                this_at,
                text.len(),
                format!(
                    "`{text}`: this variant has {rules_n} move-count rule{}",
                    if rules_n == 1 { "" } else { "s" }
                ),
                "one count too many",
                "the last field holds one count per move-count rule of the variant, in the \
                 order of its rules file"
                    .into(),
            ));
        }
        let Ok(v) = text.parse::<u8>() else {
            return Err(err(
                input,
                this_at,
                text.len(),
                format!("`{text}` is not a move count"),
                "a number from 0 to 255 expected",
                "the last field counts the single moves since each move-count rule's count \
                 started, as in `:12` or `:12,3`"
                    .into(),
            ));
        };
        pos.counters[n] = v;
    }
    Ok(())
}

fn parse_item(
    rules: &Rules,
    input: &str,
    at: usize,
    item: &str,
    side: usize,
    pos: &mut Position,
) -> Result<(), Box<InputError>> {
    let geo = &rules.geo;
    let first = item.chars().next().unwrap_or(' ');
    let (kind, sq_text, sq_at) = if first.is_ascii_uppercase() {
        let Some(kind) = (0..rules.kinds).find(|&k| rules.piece_letter(k) == first) else {
            let known: Vec<String> = (0..rules.kinds)
                .map(|k| format!("`{}`", rules.piece_letter(k)))
                .collect();
            return Err(err(
                input,
                at,
                1,
                format!("`{first}` is not a piece of this variant"),
                "unknown piece letter",
                format!("piece letters here: {}", known.join(", ")),
            ));
        };
        (kind, &item[1..], at + 1)
    } else {
        (0, item, at)
    };
    // A column: the pieces under the top in parentheses after the square (`Oc3(BBWO)`).
    let (sq_text, column) = match sq_text.split_once('(') {
        Some((sq, rest)) => (
            sq,
            Some(super::columns::parse_column(rules, input, at, item, rest)?),
        ),
        None => (sq_text, None),
    };
    let squares: Vec<u8> = if let Some((a, b)) = sq_text.split_once('-') {
        let (na, nb) = (a.trim().parse::<usize>(), b.trim().parse::<usize>());
        match (geo.notation, na, nb) {
            (Notation::Numbered, Ok(x), Ok(y)) if x >= 1 && x <= y && y <= geo.numbered.len() => {
                geo.numbered[x - 1..y].to_vec()
            }
            _ => {
                return Err(err(
                    input,
                    sq_at,
                    sq_text.len(),
                    format!("`{sq_text}` is not a range of squares"),
                    "bad range",
                    format!(
                        "ranges are for numbered boards, low to high within 1-{}",
                        geo.numbered.len()
                    ),
                ))
            }
        }
    } else {
        match geo.parse_coord(sq_text).map(|c| geo.square(c)) {
            Some(Some(sq)) if geo.is_playable(sq) => vec![sq],
            Some(_) => {
                return Err(err(
                    input,
                    sq_at,
                    sq_text.len(),
                    format!("`{sq_text}` is not a playable square"),
                    "not playable",
                    "pieces stand on the dark squares of this board".into(),
                ))
            }
            None => {
                return Err(err(
                    input,
                    sq_at,
                    sq_text.len(),
                    format!("`{sq_text}` is not a square of this board"),
                    "unknown square",
                    square_help(rules),
                ))
            }
        }
    };
    for sq in squares {
        if pos.at(sq).is_some() {
            return Err(err(
                input,
                at,
                item.len(),
                format!("square `{}` is given twice", geo.name(sq)),
                "already occupied",
                "name each square once".into(),
            ));
        }
        pos.put(sq, side, kind);
        if let Some(column) = &column {
            super::columns::lay(input, at, item, pos, sq, column)?;
        }
    }
    Ok(())
}

fn square_help(rules: &Rules) -> String {
    let geo = &rules.geo;
    let last = geo.algebraic(geo.rotate(0));
    match geo.notation {
        Notation::Numbered => {
            format!(
                "squares are numbered 1-{} (or named a1-{last})",
                geo.numbered.len()
            )
        }
        Notation::Algebraic => format!("squares are named a1-{last}"),
    }
}

/// Write a position. Squares in board order (numbers ascending on numbered boards, with runs of
/// three or more written as ranges); a square holding the first-declared piece has no prefix.
pub fn to_fen(rules: &Rules, pos: &Position) -> String {
    let geo = &rules.geo;
    let mut out = String::new();
    out.push(rules.side_letter(pos.turn()));
    for side in 0..2 {
        out.push(':');
        out.push(rules.side_letter(side));
        let mut items: Vec<(usize, u8)> = Vec::new(); // (sort key, square)
        for sq in BitIter(pos.sides[side]) {
            let key = match geo.notation {
                Notation::Numbered => geo.number[sq as usize] as usize,
                Notation::Algebraic => sq as usize,
            };
            items.push((key, sq));
        }
        items.sort_unstable();
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let kind = pos.kind_at(items[i].1);
            let prefix = if kind == 0 {
                String::new()
            } else {
                rules.piece_letter(kind).to_string()
            };
            let mut j = i;
            let column = super::columns::column_text(rules, pos, items[i].1);
            if geo.notation == Notation::Numbered && column.is_empty() {
                while j + 1 < items.len()
                    && items[j + 1].0 == items[j].0 + 1
                    && pos.kind_at(items[j + 1].1) == kind
                    && pos.stacks.under(items[j + 1].1).next().is_none()
                {
                    j += 1;
                }
            }
            if j >= i + 2 {
                parts.push(format!("{prefix}{}-{}", items[i].0, items[j].0));
                i = j + 1;
            } else {
                parts.push(format!("{prefix}{}{column}", geo.name(items[i].1)));
                i += 1;
            }
        }
        out.push_str(&parts.join(","));
    }
    let n = rules.spec.game.move_count_draws.len();
    if pos.counters[..n].iter().any(|&c| c != 0) {
        out.push(':');
        let counts: Vec<String> = pos.counters[..n].iter().map(|c| c.to_string()).collect();
        out.push_str(&counts.join(","));
    }
    if pos.huff.any() {
        let mut squares: Vec<(usize, u8)> = BitIter(pos.huff)
            .map(|sq| match geo.notation {
                Notation::Numbered => (geo.number[sq as usize] as usize, sq),
                Notation::Algebraic => (sq as usize, sq),
            })
            .collect();
        squares.sort_unstable();
        let names: Vec<String> = squares.iter().map(|&(_, sq)| geo.name(sq)).collect();
        out.push_str(":*");
        out.push_str(&names.join(","));
    }
    out.push_str(&super::hand::hand_text(rules, pos));
    out.push_str(super::combat::fen_suffix(pos));
    out
}
