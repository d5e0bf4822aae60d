//! `damelab check`: every error of each rules file, and the warnings of those that load.

use super::console::{errln, outln};
use crate::Variant;
use miette::Report;

pub fn check(files: &[String]) -> Result<(), Report> {
    let mut bad = 0;
    for f in files {
        match Variant::load_with_warnings(f) {
            Ok((v, None)) => outln!("{f}: ok ({})", v.rules.spec.title),
            Ok((v, Some(warnings))) => {
                let n = warnings.warnings().len();
                let s = if n == 1 { "" } else { "s" };
                outln!("{f}: ok ({}), {n} warning{s}", v.rules.spec.title);
                errln!("{:?}", Report::new(warnings));
            }
            Err(e) => {
                bad += 1;
                errln!("{:?}", Report::new(e));
            }
        }
    }
    if bad > 0 {
        Err(miette::miette!(
            "{bad} of {} rules files have errors",
            files.len()
        ))
    } else {
        Ok(())
    }
}
