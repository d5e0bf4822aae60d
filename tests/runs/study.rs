//! The study of docs/analysis.md kept true (issue 45): its figures are tagged with the engine's
//! digest (the version and the bundled weights), and these tests fail when the engine's digest is
//! no longer the one the study was made with. Hermetic and fast: no game is played.

use crate::common::{damelab, ok};
use damelab::search::weights::{digest_of, engine_digest};
use std::path::Path;

const RERUN: &str = "re-run scripts/study.sh (the whole study, about an hour) and commit docs/study/ and docs/analysis.md";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The digest recorded in the document's `study:digest` block.
fn recorded_digest(doc: &str) -> Option<&str> {
    let block = doc.split("<!-- study:digest -->").nth(1)?;
    let block = block.split("<!-- /study:digest -->").next()?;
    block.split('`').nth(1)
}

#[test]
fn the_study_was_made_with_todays_engine() {
    let doc = std::fs::read_to_string(root().join("docs/analysis.md")).unwrap();
    let recorded = recorded_digest(&doc).expect("docs/analysis.md has a study:digest block");
    let today = engine_digest();
    assert_eq!(
        recorded, today,
        "docs/analysis.md's study was made with engine digest {recorded}, today's engine is {today} \
         (the bundled weights or the version changed): {RERUN}"
    );
}

#[test]
fn every_saved_run_was_made_with_todays_engine() {
    let dir = root().join("docs/study");
    let today = engine_digest();
    let mut runs = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cmd") {
            let meta = std::fs::read_to_string(&path).unwrap();
            let digest = meta.lines().find_map(|l| l.strip_prefix("digest "));
            assert_eq!(
                digest,
                Some(today.as_str()),
                "{} was made with another engine: {RERUN}",
                path.display()
            );
            assert!(
                meta.lines().any(|l| l == "quick 0"),
                "{} is a --quick run, not the study's size: {RERUN}",
                path.display()
            );
            runs += 1;
        }
    }
    assert!(runs >= 6, "docs/study/ holds {runs} runs: {RERUN}");
}

#[test]
fn the_cli_prints_the_engine_digest() {
    let today = engine_digest();
    assert_eq!(today.len(), 16);
    assert!(today.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(ok(&damelab(&["version", "--digest"])).trim(), today);
    assert!(ok(&damelab(&["version"])).contains(&today));
}

#[test]
fn the_digest_moves_with_any_weights_file_and_the_version() {
    let base = digest_of("0.1.0", &[("a", "1 2 3"), ("b", "4")]);
    assert_ne!(base, digest_of("0.1.0", &[("a", "1 2 3"), ("b", "5")]));
    assert_ne!(base, digest_of("0.1.0", &[("a", "1 2 3")]));
    assert_ne!(base, digest_of("0.2.0", &[("a", "1 2 3"), ("b", "4")]));
    assert_eq!(base, digest_of("0.1.0", &[("a", "1 2 3"), ("b", "4")]));
}

#[test]
fn a_recorded_digest_is_read_from_its_block() {
    let doc = "text\n<!-- study:digest -->\nEngine digest `0123456789abcdef` (…).\n<!-- /study:digest -->\n";
    assert_eq!(recorded_digest(doc), Some("0123456789abcdef"));
    assert_eq!(recorded_digest("no block"), None);
}
