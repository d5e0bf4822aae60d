//! `damelab moves`: the legal moves of a position, one a line, sorted.

use super::console::outln;
use super::{load, position};
use crate::engine::GenOptions;
use crate::notation::move_to_string;
use miette::Report;

pub fn moves(variant: &str, fen: Option<&str>) -> Result<(), Report> {
    let v = load(variant)?;
    let pos = position(&v, fen)?;
    let mut list = Vec::new();
    v.rules
        .try_generate(&pos, &mut list, GenOptions::default())?;
    let mut names: Vec<String> = list.iter().map(|m| move_to_string(&v.rules, m)).collect();
    names.sort();
    for n in names {
        outln!("{n}");
    }
    Ok(())
}
