//! Every bound damelab puts on its input, in one place (docs/limits.md lists them for users):
//! how much of a file is read, how many diagnostics are printed, how deep a perft may go, how many
//! threads may be asked for. Each limit, when hit, is a diagnostic that names it — never a panic,
//! a hang or an allocation that runs the machine out of memory.
//!
//! A bound that belongs to one module alone is named there, and has a name no other bound has
//! (`tests/layers.rs` checks it): the web server's (`web::guard`, `web::engine`, `web::study`,
//! `web::endgame`, `workbench::tree`), the search's depth (`search::MAX_DEPTH`), the engine's settings
//! (`matchplay::engine`), the language's (`lang`), the endgame tables' (`endgame`).

/// The largest rules or case file read (1 MiB): the bundled files are a few KB.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The largest PDN file read (16 MiB): the largest public archive known is 2.6 MB. Memory while
/// reading stays proportional to it (see docs/limits.md).
pub const MAX_PDN_BYTES: u64 = 16 << 20;

/// The largest self-play run file read by `selfplay merge` and `chart` (256 MiB: some 2.5 million
/// game records).
pub const MAX_RUN_FILE_BYTES: u64 = 256 << 20;

/// The largest PDN file of a run's shard read by `selfplay merge` and `match merge` (1 GiB: some
/// million games; a whole archive's PDN is bounded by [`MAX_PDN_BYTES`]).
pub const MAX_RUN_PDN_BYTES: u64 = 1 << 30;

/// The largest evaluation weights file read (64 MiB; the bundled ones are at most 0.6 MB).
pub const MAX_WEIGHTS_BYTES: u64 = 64 << 20;

/// The largest training data file read by `train merge` (1 GiB: some 13,000 games of a layout
/// with 2x4 windows; a shard whose data would be larger is refused before it is written).
pub const MAX_TRAIN_DATA_BYTES: u64 = 1 << 30;

/// The deepest nesting of PDN variations read (`( … ( … ) … )`): a game whose variations nest
/// deeper is reported (`variations nest deeper than 64 levels`) and not replayed. Recorded games
/// nest a handful of levels; the bound keeps every walk over variations (replay, the REPL, the
/// web workbench, PDN out) shallow, so a crafted file cannot overflow the stack.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// The smallest `endgame --max-memory` (1 MiB: the figures are given in MiB); sizes that do not
/// fit a 64-bit count (`1e30G`) are refused too.
pub const MIN_MAX_MEMORY: u64 = 1 << 20;

/// The most diagnostics shown for one file; the rest are counted ("… and 4,812 more errors").
pub const MAX_DIAGNOSTICS: usize = 20;

/// The deepest `damelab perft` (the move buffers are allocated per ply up front).
pub const MAX_PERFT_DEPTH: usize = 30;

/// The deepest perft of a case file (`perft: N` or a list of N figures) and of the REPL's
/// `perft` and `divide`.
pub const MAX_CASE_PERFT_DEPTH: usize = 12;

/// The most nodes a case's perft figures may count together (International draughts counts
/// about 27 M nodes/s on one core: some 75 s of work): a depth
/// whose count, judged by the growth so far, would pass it is not computed.
pub const CASE_PERFT_NODE_BUDGET: u64 = 2_000_000_000;

/// The most nodes one `perft` or `divide` of a REPL script (stdin not a terminal) may count: the
/// same budget as a case file's perft. Interactively there is no limit: Ctrl-C stops the count.
pub const REPL_SCRIPT_PERFT_NODES: u64 = CASE_PERFT_NODE_BUDGET;

/// The longest search time accepted (`analyse --time`, an engine's `movetime=` and `tc=`), in
/// seconds: a day.
pub const MAX_SEARCH_SECONDS: f64 = 86_400.0;

/// The most games one self-play run may play (`selfplay --games`).
pub const MAX_SELFPLAY_GAMES: u64 = 100_000_000;

/// The most threads a run may ask for (`selfplay --threads`, `train --threads`).
pub const MAX_RUN_THREADS: usize = 1024;

/// The largest node budget a move of a run may have (`train --nodes`, a ladder's rung).
pub const MAX_RUN_NODES: u64 = 1_000_000_000;

/// The most games of each pairing of a match (`match --games`).
pub const MAX_MATCH_GAMES: u64 = 10_000_000;

/// The most games a match plays at once (`match --concurrency`).
pub const MAX_MATCH_CONCURRENCY: usize = 64;

/// The longest line a REPL script may send (64 KiB).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// `--threads` is capped at this many threads per core.
pub const THREADS_PER_CORE: usize = 4;

/// The most threads `--threads` may ask for on this machine.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * THREADS_PER_CORE
}

/// "… and 4,812 more errors": the line closing a capped list of diagnostics.
pub fn more_errors(n: usize) -> String {
    more(n, "error")
}

/// `3`, `warning` → `… and 3 more warnings`.
pub fn more(n: usize, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("… and {} more {noun}{s}", thousands(n as u64))
}

/// `4812` → `4,812`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_separators() {
        assert_eq!(thousands(4812), "4,812");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(more_errors(1), "… and 1 more error");
    }
}
