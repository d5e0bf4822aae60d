//! `damelab verify` as a user runs it: exit codes and output on passing and failing case files,
//! the diagnostics for broken case files (`tests/verify_errors/`, snapshotted), `--bless` filling
//! in blank expectations in a copy of a case file, and `--bless` keeping written ones without
//! `--force`. Also runs the project's own case files and the example, as CI does.

use std::path::{Path, PathBuf};

/// Run `damelab --no-color verify ARGS…` from the crate root: (exit code, stdout).
fn verify(args: &[&str]) -> (i32, String) {
    let out = crate::common::bin()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("--no-color")
        .arg("verify")
        .args(args)
        .output()
        .expect("the damelab binary runs");
    let stdout = String::from_utf8(out.stdout).expect("damelab writes UTF-8");
    (out.status.code().unwrap_or(-1), stdout)
}

fn summary(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or("")
}

/// A fresh folder under the system's temp dir, removed first if a previous run left it.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-verify-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp dir is writable");
    dir
}

fn copy_to(dir: &Path, file: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let dst = dir.join(src.file_name().expect("a file name"));
    std::fs::copy(&src, &dst).expect("the case file copies");
    dst
}

#[test]
fn passing_file_exits_0() {
    let (code, out) = verify(&["tests/verify/pass.yaml"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(summary(&out), "2 passed, 0 failed");
}

#[test]
fn failing_file_exits_1_with_a_diff() {
    let (code, out) = verify(&["tests/verify/fail.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(summary(&out), "1 passed, 1 failed");
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("verify__failing_file_exits_1_with_a_diff", out);
    });
}

#[test]
fn project_cases_and_example_pass() {
    for path in ["tests/cases", "examples"] {
        let (code, out) = verify(&[path]);
        assert_eq!(code, 0, "{out}");
        assert!(summary(&out).ends_with(" passed, 0 failed"), "{out}");
    }
}

#[test]
fn missing_path_is_an_error() {
    let (code, _) = verify(&["tests/no-such-file.yaml"]);
    assert_eq!(code, 1);
}

#[test]
fn broken_case_files() {
    insta::glob!("..", "verify_errors/*.yaml", |path| {
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .expect("the glob is under the crate");
        let (code, out) = verify(&[&rel.display().to_string()]);
        assert_eq!(code, 1, "{out}");
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!("verify__broken_case_files", out);
        });
    });
}

#[test]
fn bless_fills_blanks_and_keeps_written_expectations() {
    let dir = temp_dir("bless");
    let file = copy_to(&dir, "tests/verify/blank.yaml");
    let path = file.display().to_string();

    let (code, out) = verify(&[&path]);
    assert_eq!(code, 1, "blank expectations fail until blessed: {out}");

    // Without --force: the blanks are filled, the written (wrong) move list stays.
    let (code, out) = verify(&["--bless", &path]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(summary(&out), "1 passed, 1 failed", "{out}");
    let blessed = std::fs::read_to_string(&file).expect("the blessed file reads");
    assert!(
        blessed.contains("moves: [d4-c4, d4-d5, d4-d3]"),
        "{blessed}"
    );
    assert!(
        blessed.contains("# a comment between keys stays"),
        "{blessed}"
    );
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("verify__bless_fills_blanks_and_keeps_written_expectations", blessed);
    });

    // Blessing again changes nothing.
    let (_, _) = verify(&["--bless", &path]);
    let again = std::fs::read_to_string(&file).expect("the file reads");
    assert_eq!(again, blessed);

    // With --force the wrong list is replaced and everything passes.
    let (code, out) = verify(&["--bless", "--force", &path]);
    assert_eq!(code, 0, "{out}");
    let forced = std::fs::read_to_string(&file).expect("the file reads");
    assert!(forced.contains("moves: [d4-c4, d4-d5, d4-e4]"), "{forced}");
    let (code, out) = verify(&[&path]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(summary(&out), "2 passed, 0 failed");
    let _ = std::fs::remove_dir_all(&dir);
}
