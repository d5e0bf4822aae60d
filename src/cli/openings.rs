//! `damelab openings`: a ballot of openings written to a file, one a line as moves from the start
//! (what `selfplay --openings` and `match --openings` read).

use crate::cli::load;
use crate::matchplay::openings::{ballot, line_of, Balance};
use crate::util::bad;
use miette::Report as Diag;
use std::path::PathBuf;

/// The most openings one ballot gives.
pub const MAX_BALLOT: usize = 10_000;
/// The longest opening of a ballot.
pub const MAX_BALLOT_PLIES: u32 = 40;

#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// A bundled variant's name or a path to a rules file.
    pub variant: String,
    /// Plies of each opening (2 or 3 make a federation-style two- or three-move ballot).
    #[arg(long, default_value_t = 3)]
    pub plies: u32,
    /// How many different openings.
    #[arg(long, default_value_t = 20)]
    pub count: usize,
    /// Keep only openings that a search of --balance-depth plies with the rules' default
    /// evaluation scores within this many men either way.
    #[arg(long, value_name = "MEN")]
    pub balanced: Option<f64>,
    /// The depth of --balanced's search.
    #[arg(long, default_value_t = 8, value_name = "PLIES", requires = "balanced")]
    pub balance_depth: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the ballot here (else print it).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Draw the ballot and write it: a comment line with the command's settings, then one opening a
/// line.
pub fn openings(a: &OpeningsArgs, out: &mut dyn FnMut(&str)) -> Result<(), Diag> {
    let v = load(&a.variant)?;
    if a.count == 0 || a.count > MAX_BALLOT {
        return Err(bad(
            format!("--count {} is out of range", a.count),
            &format!("give from 1 to {MAX_BALLOT} openings"),
        ));
    }
    if a.plies == 0 || a.plies > MAX_BALLOT_PLIES {
        return Err(bad(
            format!("--plies {} is out of range", a.plies),
            &format!("give from 1 to {} plies", MAX_BALLOT_PLIES),
        ));
    }
    let balance =
        crate::cli::matches::check_balanced(a.balanced, a.balance_depth, a.plies, "--plies")?
            .map(|(score, depth)| Balance::new(&v.rules, score, depth));
    if let Some(p) = &a.output {
        crate::selfplay::file::check_writable(p)?;
    }
    let got = ballot(&v.rules, a.seed, a.count, a.plies, balance.as_ref());
    if crate::interrupt::requested() {
        return Err(bad("interrupted: no ballot written", "run again"));
    }
    let mut text = format!(
        "# damelab openings {} --plies {} --count {} --seed {}{}\n",
        v.name(),
        a.plies,
        a.count,
        a.seed,
        a.balanced.map_or(String::new(), |m| format!(
            " --balanced {m} --balance-depth {}",
            a.balance_depth
        ))
    );
    if got.len() < a.count {
        text.push_str(&format!(
            "# only {} different openings of {} plies were found\n",
            got.len(),
            a.plies
        ));
    }
    for o in &got {
        text.push_str(&line_of(&v.rules, o));
        text.push('\n');
    }
    match &a.output {
        Some(p) => {
            crate::fsio::write_file(p, text.as_bytes())?;
            out(&format!(
                "{} openings of {} plies written to {}",
                got.len(),
                a.plies,
                p.display()
            ));
            Ok(())
        }
        None => {
            out(text.trim_end());
            Ok(())
        }
    }
}
