//! `explain` of the capture priority: the criteria's names, the best capture under the engine's
//! own priority key, and the criterion (read field by field from the key) that decided.

use super::taken_list;
use crate::engine::{Move, Position, Rules};
use crate::notation::move_to_string;
use crate::spec::Criterion;

pub(super) fn criteria_names(rules: &Rules) -> String {
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

/// A priority key split into its fields, one per criterion in the order written: the key is
/// packed high-to-low, [`Rules::key`] giving each field's width.
fn fields(rules: &Rules, key: u128) -> Vec<u128> {
    let mut shift: u32 = rules.key.iter().map(|f| f.width).sum();
    rules
        .key
        .iter()
        .map(|f| {
            shift -= f.width;
            let mask = u128::MAX.checked_shr(128 - f.width).unwrap_or(0);
            key.checked_shr(shift).unwrap_or(0) & mask
        })
        .collect()
}

/// The move that ranks highest under the priority (the first by name among equals).
pub(super) fn best_of<'a>(rules: &Rules, pos: &Position, moves: &[&'a Move]) -> Option<&'a Move> {
    let mut sorted: Vec<&Move> = moves.to_vec();
    sorted.sort_by_key(|m| move_to_string(rules, m));
    sorted
        .into_iter()
        .rev()
        .max_by_key(|m| (rules.priority_key(pos, m), m.captures()))
}

/// Why `mv` loses to `best` under the priority: the first criterion where they differ.
pub(super) fn priority_reason(rules: &Rules, pos: &Position, mv: &Move, best: &Move) -> String {
    let spec = &rules.spec;
    let name = |m: &Move| move_to_string(rules, m);
    let (m, b) = (name(mv), name(best));
    let fm = fields(rules, rules.priority_key(pos, mv));
    let fb = fields(rules, rules.priority_key(pos, best));
    for ((field, &vm), &vb) in rules.key.iter().zip(&fm).zip(&fb) {
        if vm == vb {
            continue;
        }
        return match field.criterion {
            Criterion::MostPieces => format!("{m} takes {vm}; the maximum is {vb}: {b}"),
            Criterion::MostValue => format!("{m} takes pieces worth {vm}; the most is {vb}: {b}"),
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
                "{m} takes {vm} {}s; {b} takes {vb}",
                spec.pieces[k as usize].name
            ),
            Criterion::EarliestOf(k) => format!(
                "{b} takes a {} earlier in the sequence than {m}",
                spec.pieces[k as usize].name
            ),
        };
    }
    format!("the priority ({}) prefers {b}", criteria_names(rules))
}
