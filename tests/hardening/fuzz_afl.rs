//! Replays every input the coverage-guided fuzzer kept (`tests/fuzz_afl/TARGET/`,
//! copied there by scripts/fuzz.sh) through its target: a finding, once fixed, stays fixed.

use std::path::Path;

#[test]
fn every_kept_finding_runs_clean() {
    let root = Path::new("tests/fuzz_afl");
    let mut ran = 0;
    for (name, target) in damelab::fuzzing::TARGETS {
        // Every target takes an empty and a nonsense input.
        target(b"");
        target(b"dameo\n\xff\xfe[[{{");
        let dir = root.join(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let bytes = std::fs::read(e.path()).expect("a kept input reads");
            target(&bytes);
            ran += 1;
        }
    }
    eprintln!("{ran} kept fuzz findings replayed");
}
