//! The integration tests: one test crate whose modules are the files beside this one (one binary
//! links the library once, instead of one binary per file). Each module is named after its file;
//! `cargo test --test it MODULE::` runs one of them.
//!
//! Every `tests/*.rs` file must be declared here (`autotests = false` in Cargo.toml, so a file
//! that is not declared would silently not run): `every_test_file_is_a_module` checks it.

mod agreement;
mod approach;
mod boards;
mod capture_limits;
mod cases;
mod cells;
mod cli;
mod common;
mod compile;
mod describe;
mod diagram;
mod docs;
mod endgame;
mod endgame_boards;
mod endgame_cache;
mod fault_reads;
mod faults;
mod fuzz_afl;
mod help;
mod hub;
mod k8s;
mod ladder;
mod ladder_shards;
mod lang;
mod layers;
mod match_shards;
mod matches;
mod notation;
mod parallel_search;
mod pdn;
mod pdn_real;
mod perft_tables;
mod playout;
mod priority;
mod properties;
mod repl;
mod repl_live;
mod repl_polish;
mod repl_pty;
mod robust_findings;
mod robust_input;
mod rules_errors;
mod rules_warnings;
mod scale;
mod search;
mod search_strength;
mod selfplay_cli;
mod selfplay_tables;
mod train;
mod train_shards;
mod verify;
mod web_api;
mod web_boards;
mod web_browser;
mod web_firefox;
mod web_hostile;
mod web_streams;
mod widths;

/// The slow reference move generator the agreement and width tests compare against.
mod reference;

#[test]
fn every_test_file_is_a_module() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(root.join("main.rs")).expect("tests/main.rs reads");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&root).expect("tests/ lists") {
        let path = entry.expect("a directory entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rs")
            && stem != "main"
            && !main.contains(&format!("\nmod {stem};"))
        {
            missing.push(stem.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "tests/*.rs files not declared as modules in tests/main.rs: {missing:?}"
    );
}
