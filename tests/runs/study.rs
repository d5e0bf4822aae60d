//! The study of docs/analysis.md kept true (issue 45): each run is tagged with the digest of the
//! weights it played with (the version and one variant's bundled weights, or the version alone),
//! and these tests fail, naming the runs to make again, when a run's digest is no longer today's.
//! Hermetic and fast: no game is played.

use crate::common::{damelab, ok};
use damelab::search::weights::{digest_of, engine_digest, weights_digest};
use std::path::Path;

/// What to do about a stale run.
fn rerun(name: &str) -> String {
    format!("re-run `scripts/study.sh --only {name}` and commit docs/study/ and docs/analysis.md")
}

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
fn the_study_document_marks_no_run_stale() {
    let doc = std::fs::read_to_string(root().join("docs/analysis.md")).unwrap();
    let recorded = recorded_digest(&doc).expect("docs/analysis.md has a study:digest block");
    assert_eq!(
        recorded.len(),
        16,
        "the digest block names an engine digest: {recorded}"
    );
    assert!(
        !doc.contains("**stale"),
        "docs/analysis.md shows a run marked stale: re-run it with `scripts/study.sh --only NAME`"
    );
}

#[test]
fn every_saved_run_was_made_with_todays_weights() {
    let dir = root().join("docs/study");
    let mut runs = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cmd") {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let meta = std::fs::read_to_string(&path).unwrap();
            let field = |key: &str| {
                meta.lines()
                    .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
                    .map(str::to_string)
            };
            let weights = field("weights")
                .unwrap_or_else(|| panic!("{} names no weights: {}", path.display(), rerun(&name)));
            let today = weights_digest(&weights)
                .unwrap_or_else(|| panic!("{}: no bundled weights `{weights}`", path.display()));
            assert_eq!(
                field("weights-digest"),
                Some(today),
                "{} was made with other `{weights}` weights or another version: {}",
                path.display(),
                rerun(&name)
            );
            assert!(
                meta.lines().any(|l| l == "quick 0"),
                "{} is a --quick run, not the study's size: {}",
                path.display(),
                rerun(&name)
            );
            runs += 1;
        }
    }
    assert!(
        runs >= 6,
        "docs/study/ holds {runs} runs: re-run scripts/study.sh"
    );
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
fn the_cli_prints_one_variants_weights_digest() {
    let dameo = weights_digest("dameo").unwrap();
    assert_eq!(
        ok(&damelab(&["version", "--digest", "--weights", "dameo"])).trim(),
        dameo
    );
    assert_ne!(Some(dameo), weights_digest("turkish"));
    assert_ne!(weights_digest("none"), weights_digest("turkish"));
    assert_eq!(weights_digest("no-such-variant"), None);
    let out = damelab(&["version", "--digest", "--weights", "no-such-variant"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no bundled weights for `no-such-variant`"),
        "{err}"
    );
    assert!(err.contains("turkish") && err.contains("`none`"), "{err}");
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
