//! Runs: matches, self-play, ladders, training, their shards and merges (Slurm and Kubernetes scripts included).

pub mod compare;
pub mod configs_files;
pub mod draws;
pub mod explore;
pub mod huff_smaller;
pub mod incremental_eval;
pub mod k8s;
pub mod ladder;
pub mod ladder_hub;
pub mod ladder_shards;
pub mod match_shards;
pub mod matches;
pub mod openings;
pub mod placement;
pub mod race;
pub mod robust;
pub mod selfplay_cli;
pub mod selfplay_tables;
pub mod stacks;
pub mod study;
pub mod train;
pub mod train_fit;
pub mod train_mirror;
pub mod train_shards;
