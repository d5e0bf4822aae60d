//! A learned evaluation's weights, read from a file and checked against the rules it was trained
//! for. (Placeholder: loading is not implemented yet.)

use crate::engine::Rules;
use miette::{miette, Report};
use std::path::Path;

/// The weights of a learned evaluation for one rules file.
#[derive(Clone, Debug)]
pub struct Weights {
    _private: (),
}

impl Weights {
    /// Read a weights file for `rules`; a file of other rules, truncated or corrupt is refused.
    pub fn load(path: &Path, rules: &Rules) -> Result<Weights, Report> {
        let _ = rules;
        Err(miette!(
            "cannot read evaluation file `{}`: learned evaluations are not supported yet",
            path.display()
        ))
    }
}
