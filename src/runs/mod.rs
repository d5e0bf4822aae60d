//! The runs' kernel: what self-play, matches, ladders and training share. A run is seeded by its
//! items' indices, split into shards that processes (or a cluster's array job) play apart,
//! written as JSON (and PDN), and merged back byte for byte into the run played at once.
//!
//! - [`shard`]: which slice of a run a process plays, the shard set a file holds, the checks
//!   before a merge (nothing in it knows what an item is);
//! - [`merge`]: the merge driver's shared steps, each refusal written once — the files given
//!   told apart (JSON and PDN), the rules the files were played under found again and checked
//!   against the fingerprint they record;
//! - [`pdn`]: the PDN of a run's games, one game a record from its `Event` line.

pub mod merge;
pub mod pdn;
pub mod shard;
