//! The integration tests: one test crate (one binary links the library once, instead of one
//! binary per file), its modules grouped by area in folders that follow the pipeline — `rules`
//! (the language, the compiled tables, the generator), `records` (notation, PDN, diagrams, case
//! files), `engine` (search, endgame tables, Hub), `runs` (matches, self-play, training, shards),
//! `front` (the command line, the REPL, the web) and `hardening` (hostile input, faults,
//! fuzzers' findings) — beside `common` (the helpers that spawn the binary hermetically),
//! `reference` (the slow reference generator) and `layers` (the architecture's rules). Each
//! module is named after its file; `cargo test --test it MODULE::` runs one of them
//! (`front::repl::`, or `repl::` for every module whose path ends so).
//!
//! Every `.rs` file must be declared in its folder's `mod.rs` (here, in this file): `autotests =
//! false` in Cargo.toml, so a file that is not declared would silently not run;
//! `every_test_file_is_a_module` checks it.

mod common;
mod layers;

mod engine;
mod front;
mod hardening;
mod records;
mod rules;
mod runs;

/// The slow reference move generator the agreement and width tests compare against.
mod reference;

#[test]
fn every_test_file_is_a_module() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    // A folder of test code is one with a `mod.rs` (data folders have none), declared by this
    // file; its `.rs` files are declared by its `mod.rs`.
    let mut folders = vec![(root.clone(), "main.rs")];
    let mut missing = Vec::new();
    while let Some((dir, declaring)) = folders.pop() {
        let decl = std::fs::read_to_string(dir.join(declaring)).expect("a mod.rs reads");
        let declared = |stem: &str| {
            decl.lines()
                .any(|l| l == format!("mod {stem};") || l == format!("pub mod {stem};"))
        };
        for entry in std::fs::read_dir(&dir).expect("a test folder lists") {
            let path = entry.expect("a directory entry").path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.join("mod.rs").is_file() {
                if !declared(stem) {
                    missing.push(path.display().to_string());
                }
                folders.push((path, "mod.rs"));
            } else if path.extension().is_some_and(|e| e == "rs")
                && stem != "main"
                && stem != "mod"
                && !declared(stem)
            {
                missing.push(path.display().to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "test files or folders not declared as modules (in tests/main.rs or their folder's \
         mod.rs): {missing:?}"
    );
}
