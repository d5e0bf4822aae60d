//! `damelab rules`: the variant in plain English, generated from the compiled rules.

use crate::engine::Rules;

/// A plain-English description of what a compiled variant says.
pub fn describe(rules: &Rules) -> String {
    format!("{}\n", rules.spec.title)
}
