//! Warnings for a file that loads: rules that are valid but probably not what was meant. Today one
//! kind: a declared piece that can never come into play for a side, because that side does not
//! start with it and no promotion of a piece it can have leads to it (a king with no `promote`).

use super::*;
use crate::lang::error::RuleWarning;

/// The warnings of a checked file; `spec` is what [`check`] made of `file`.
pub(crate) fn warnings(file: &RulesFile, spec: &VariantSpec) -> Vec<RuleWarning> {
    let decls: Vec<&PieceDecl> = file
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::Piece(p) => Some(p),
            _ => None,
        })
        .collect();
    let reach = [0, 1].map(|side| reachable(spec, side));
    let mut out = Vec::new();
    for (k, piece) in spec.pieces.iter().enumerate() {
        let Some(decl) = decls.get(k) else { continue };
        let missing: Vec<usize> = (0..2).filter(|&s| reach[s] & (1 << k) == 0).collect();
        let name = &piece.name;
        let message = match missing.as_slice() {
            [] => continue,
            [side] => format!(
                "`{}` can never have a `{name}`: it starts with none and no promotion makes one",
                spec.sides[*side].name
            ),
            _ => format!(
                "piece `{name}` never comes into play: no side starts with one and no promotion \
                 makes one"
            ),
        };
        let side = &spec.sides[missing[0]].name;
        // An example promotion from a piece the side does have, so the help names real pieces.
        let from = spec
            .pieces
            .iter()
            .enumerate()
            .find(|&(j, _)| j != k && reach[missing[0]] & (1 << j) != 0)
            .map_or(spec.pieces[0].name.as_str(), |(_, p)| p.name.as_str());
        out.push(RuleWarning::UnreachablePiece {
            message,
            span: decl.name.span.into(),
            help: format!(
                "set it up, as in `setup {side} {name} …`, or let a piece promote to it, as in \
                 `{from}: promote to {name} on …`; or remove the piece"
            ),
        });
    }
    out
}

/// The kinds of piece `side` can ever have, as a bit mask: those it starts with, and whatever
/// their promotions make, and so on.
fn reachable(spec: &VariantSpec, side: usize) -> u32 {
    let mut reach: u32 = spec.setup[side].iter().fold(0, |m, &(p, _)| {
        m | 1u32.checked_shl(u32::from(p)).unwrap_or(0)
    });
    // Pieces in hand come into play when placed.
    if let Some(p) = &spec.placement {
        for (k, &n) in p.hand[side].iter().enumerate() {
            if n != 0 {
                reach |= 1u32.checked_shl(k as u32).unwrap_or(0);
            }
        }
    }
    loop {
        let next = spec
            .pieces
            .iter()
            .enumerate()
            .filter(|&(k, _)| reach & (1 << k) != 0)
            .flat_map(|(_, p)| &p.promotions)
            .fold(reach, |m, promo| {
                m | 1u32.checked_shl(u32::from(promo.to)).unwrap_or(0)
            });
        if next == reach {
            return reach;
        }
        reach = next;
    }
}
