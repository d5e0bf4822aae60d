//! `damelab perft`: the move sequences of each length counted (or divided by the first move).

use super::console::{errln, outln};
use super::{load, position};
use crate::engine::{GenOptions, PerftLimits};
use crate::notation::move_to_string;
use miette::Report;
use std::time::Instant;

pub fn perft(
    variant: &str,
    depth: usize,
    fen: Option<&str>,
    divide: bool,
    threads: usize,
    keep_duplicates: bool,
) -> Result<(), Report> {
    use crate::limits::{max_threads, MAX_PERFT_DEPTH, THREADS_PER_CORE};
    if depth > MAX_PERFT_DEPTH {
        return Err(miette::miette!(
            help = format!("give a depth from 0 to {MAX_PERFT_DEPTH}"),
            "depth {depth} is beyond the limit of {MAX_PERFT_DEPTH}"
        ));
    }
    let threads = if threads > max_threads() {
        errln!(
            "note: --threads {threads} capped at {} ({THREADS_PER_CORE} per core)",
            max_threads()
        );
        max_threads()
    } else {
        threads
    };
    let v = load(variant)?;
    let pos = position(&v, fen)?;
    let opts = GenOptions {
        keep_duplicates,
        ..GenOptions::default()
    };
    let rules = &v.rules;
    let t = Instant::now();
    let mut total = 0u64;
    // At depth 0 there is no first move to divide by: perft(0) alone.
    if divide && depth > 0 {
        let mut rows: Vec<(String, u64)> = rules
            .divide_interruptible(&pos, depth, opts, threads, PerftLimits::default())?
            .iter()
            .map(|(m, n)| (move_to_string(rules, m), *n))
            .collect();
        rows.sort();
        for (m, n) in &rows {
            outln!("{m} {n}");
            total += n;
        }
        outln!("perft({depth}) = {total}");
    } else if depth == 0 {
        // The empty sequence: one.
        outln!("perft(0) = 1");
        total = 1;
    } else {
        for d in 1..=depth {
            let n = rules.perft_interruptible(&pos, d, opts, threads, PerftLimits::default())?;
            outln!("perft({d}) = {n}");
            total += n;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    outln!(
        "{total} nodes in {secs:.3} s: {:.1} M nodes/s",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
