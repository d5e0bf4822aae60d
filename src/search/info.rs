//! The pieces every front end of the search shares (the command line's `analyse`, the REPL, the
//! runs): depth and time limits from the user's numbers, checked, and one line of output per
//! finished depth.

use super::{format_score, Info, Limits, MAX_DEPTH};
use crate::limits::MAX_SEARCH_SECONDS;
use crate::notation::move_to_string;
use crate::Rules;
use std::time::Duration;

/// A depth or a time out of range.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum LimitError {
    #[error("depth {0} is out of range")]
    #[diagnostic(help("give a depth from 1 to {MAX_DEPTH}"))]
    Depth(u32),
    #[error("time {0} is out of range")]
    #[diagnostic(help("give a number of seconds above 0 and at most {MAX_SEARCH_SECONDS}"))]
    Time(f64),
}

/// Depth and time limits from the user's numbers, checked.
pub fn limits(
    depth: Option<u32>,
    time: Option<f64>,
    default_depth: u32,
) -> Result<Limits, LimitError> {
    if let Some(d) = depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(LimitError::Depth(d));
        }
    }
    if let Some(t) = time {
        if !(t > 0.0 && t <= MAX_SEARCH_SECONDS) {
            return Err(LimitError::Time(t));
        }
    }
    Ok(Limits {
        depth: depth.or(time.is_none().then_some(default_depth)),
        nodes: None,
        time: time.map(Duration::from_secs_f64),
        target: None,
    })
}

/// One line of search output: depth, score, nodes, time, principal variation.
pub fn info_line(rules: &Rules, i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|m| move_to_string(rules, m)).collect();
    let secs = i.elapsed.as_secs_f64();
    format!(
        "depth {:>2}  score {:>9}  nodes {:>10}  {:>7.3} s  {:>6.0} kn/s  pv {}",
        i.depth,
        format_score(i.score),
        i.nodes,
        secs,
        i.nodes as f64 / secs.max(1e-6) / 1e3,
        pv.join(" ")
    )
}
