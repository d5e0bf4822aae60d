//! The runs' kernel: what self-play, matches, ladders and training share. A run is seeded by its
//! items' indices, split into shards that processes (or a cluster's array job) play apart,
//! written as JSON (and PDN), and merged back byte for byte into the run played at once.
//!
//! - [`shard`]: which slice of a run a process plays, the shard set a file holds, the checks
//!   before a merge (nothing in it knows what an item is);
//! - [`merge`]: the merge driver's shared steps, each refusal written once — the files given
//!   told apart (JSON and PDN), the rules the files were played under found again and checked
//!   against the fingerprint they record;
//! - [`pdn`]: the PDN of a run's games, one game a record from its `Event` line;
//! - [`pool`]: the threads a run's games are played on.

pub mod merge;
pub mod pdn;
pub mod shard;

/// The thread pool a run's games are played on could not be started.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("cannot start {threads} threads: {why}")]
#[diagnostic(help("give fewer threads"))]
pub struct ThreadsError {
    pub threads: usize,
    pub why: rayon::ThreadPoolBuildError,
}

/// A pool of `threads` threads for a run's games.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|why| ThreadsError { threads, why })
}
