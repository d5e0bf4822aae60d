//! Never panic, never lose work: damaged and hostile inputs, faults while writing, fuzzers' findings kept.

pub mod fault_reads;
pub mod faults;
pub mod fuzz_afl;
pub mod robust_findings;
pub mod robust_input;
