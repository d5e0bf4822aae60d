//! Hostile and extreme input (issue 13, the input side): no panic on multi-byte text, bounded
//! files, capped diagnostics, capped perft and threads, and no silent acceptance of nonsense.

use damelab::cases::{load::load, run_case, Case, Perft};
use damelab::engine::GenOptions;
use damelab::notation::{parse_fen, parse_move};
use damelab::Variant;
use miette::{GraphicalReportHandler, GraphicalTheme};
use std::process::{Output, Stdio};

fn render(d: &dyn miette::Diagnostic) -> String {
    let mut s = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut s, d)
        .expect("rendering to a String cannot fail");
    s
}

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("damelab-robust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn square_names_are_ascii_only() {
    let v = Variant::load("turkish").expect("bundled");
    for (fen, message) in [
        ("W:Wé1", "`é1` is not a square of this board"),
        ("W:Wa+1", "`a+1` is not a square of this board"),
        ("W:W5:B", "`5` is not a square of this board"),
        (
            "W:Wa\u{3000}1",
            "`a\u{3000}1` is not a square of this board",
        ),
        ("W:WKé1", "`é1` is not a square of this board"),
        ("W", "the position has no squares"),
    ] {
        let e = parse_fen(&v.rules, fen).expect_err(fen);
        assert_eq!(e.to_string(), message, "{fen}");
        assert!(!render(e.as_ref()).is_empty());
    }
    // Numbers stay squares on numbered boards.
    let intl = Variant::load("international").expect("bundled");
    assert!(parse_fen(&intl.rules, "W:W31:B1").is_ok());
    assert!(parse_fen(&intl.rules, "W:W+31:B1").is_err());
}

#[test]
fn move_text_with_multi_byte_characters_is_an_error() {
    let v = Variant::load("turkish").expect("bundled");
    let mut legal = Vec::new();
    v.rules
        .generate(&v.rules.start, &mut legal, GenOptions::default());
    for text in ["é3-a4", "a3-é4", "a3xé4", "ää", "a\u{3000}3-a4", "a+3-a4"] {
        let e = parse_move(&v.rules, &legal, text).expect_err(text);
        assert!(!render(e.as_ref()).is_empty());
    }
    assert!(parse_move(&v.rules, &legal, "a3-a4").is_ok());
}

#[test]
fn the_repl_reads_multi_byte_squares() {
    let mut s = damelab::repl::Session::new(Variant::load("turkish").expect("bundled"));
    for line in [
        "é1",
        "put Wé1",
        "clear é1",
        "é1-é2",
        "explain é1xé3",
        "put W\u{3000}é",
    ] {
        let out = s.execute(line);
        assert!(!out.is_empty(), "{line}");
    }
}

#[test]
fn a_scripts_perft_is_bounded_by_nodes() {
    let mut s = damelab::repl::Session::new(Variant::load("turkish").expect("bundled"));
    assert_eq!(
        s.perft_nodes,
        damelab::limits::REPL_SCRIPT_PERFT_NODES,
        "scripts start with the budget"
    );
    s.perft_nodes = 10_000;
    for line in ["perft 6", "divide 6"] {
        let out = s.execute(line);
        assert!(out.contains("more than 10000 nodes"), "{line}: {out}");
    }
    // Within the budget the figures come as before.
    let out = s.execute("perft 2");
    assert!(out.contains("perft(2) = 64"), "{out}");
}

#[test]
fn devices_and_huge_files_are_refused() {
    #[cfg(unix)]
    {
        let o = damelab(&["check", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stderr).contains("not a regular file"));
        let o = damelab(&["verify", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(1));
    }
    let dir = temp_dir("huge");
    let big = dir.join("big.rules");
    let size = damelab::limits::MAX_FILE_BYTES as usize + 1;
    std::fs::write(&big, "#".repeat(size)).expect("write");
    let o = damelab(&["check", big.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("larger than"));
}

#[test]
fn perft_depth_and_threads_are_capped() {
    let o = damelab(&["perft", "turkish", "18446744073709551615", "--divide"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("beyond the limit of 30"), "{err}");
    let o = damelab(&["perft", "turkish", "2", "--threads", "100000"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("capped at"));
    assert!(String::from_utf8_lossy(&o.stdout).contains("perft(2) = 64"));
}

#[cfg(unix)]
#[test]
fn a_closed_stderr_is_no_panic() {
    // stderr a pipe whose reader is gone: the diagnostic cannot be written, the exit code stays 1.
    let mut child = crate::common::bin()
        .args(["moves", "turkish", "--fen", "W:Wz9"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stderr.take());
    let status = child.wait().expect("exits");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn case_perft_is_bounded() {
    let v = Variant::load("international").expect("bundled");
    let deep = Case {
        name: "deep".into(),
        perft: Some(Perft::Depth(20)),
        ..Case::default()
    };
    let run = run_case(&v, &deep);
    assert_eq!(run.failures.len(), 1);
    assert!(run.failures[0].text.contains("beyond the limit of 12"));
    let long = Case {
        name: "long".into(),
        perft: Some(Perft::Counts(vec![1; 30])),
        ..Case::default()
    };
    assert!(run_case(&v, &long).failures[0]
        .text
        .contains("beyond the limit of 12"));
    let budget = Case {
        name: "budget".into(),
        perft: Some(Perft::Depth(12)),
        ..Case::default()
    };
    let run = damelab::cases::run_case_within(&v, &budget, 100_000);
    let text = &run.failures[0].text;
    assert!(text.contains("past the budget of 100,000 nodes"), "{text}");
}

#[test]
fn diagnostics_are_capped_per_rules_file() {
    let base = damelab::variants::bundled("turkish").expect("bundled");
    let setup = base
        .lines()
        .find(|l| l.starts_with("setup"))
        .expect("a setup line");
    let text = format!("{base}\n{}", format!("{setup}\n").repeat(300));
    let e = damelab::lang::load("rep.rules", "rep", &text).expect_err("squares taken twice");
    let cap = damelab::limits::MAX_DIAGNOSTICS;
    // One error a pair of clashing lists (not a square): still far more than the cap.
    assert!(e.errors().len() > 2 * cap, "{} errors", e.errors().len());
    let out = render(&e);
    assert_eq!(out.matches("two pieces on square").count(), cap);
    let more = e.errors().len() - cap;
    assert!(out.contains(&format!(
        "… and {} more errors",
        damelab::limits::thousands(more as u64)
    )));
    assert!(out.len() < 40_000, "{} bytes", out.len());
}

#[test]
fn diagnostics_are_capped_per_case_file() {
    let mut text = String::from("variant: turkish\ncases:\n");
    for i in 0..200 {
        text.push_str(&format!("  - name: c{i}\n    fen: \"W:Wz9\"\n"));
    }
    let file = load("many.yaml", &text).expect("reads");
    assert_eq!(file.cases.len(), 200);
    let dir = temp_dir("many");
    std::fs::write(dir.join("many.yaml"), &text).expect("write");
    let mut out = String::new();
    let tally = damelab::verify::run_with(
        &[dir.join("many.yaml")],
        damelab::verify::Options::default(),
        &mut |s| out.push_str(s),
    )
    .expect("runs");
    assert_eq!(tally.failed, 200);
    assert_eq!(
        out.matches("is not a square of this board").count(),
        damelab::limits::MAX_DIAGNOSTICS
    );
    assert!(out.contains("… and 180 more errors"), "{out}");
}

#[test]
fn verify_on_a_folder_without_case_files_fails() {
    let dir = temp_dir("empty");
    let o = damelab(&["verify", dir.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no case files in folder"));
}

#[test]
fn an_alias_to_another_case_reads_when_a_third_case_is_broken() {
    let text = "variant: turkish\ncases:\n  - name: first\n    fen: &pos \"W:Wa3:Bh7\"\n    contains: [a3-a4]\n  - name: second\n    fen: *pos\n    excludes: [a3-a5]\n  - name: broken\n    colour: red\n";
    let file = load("alias.yaml", text).expect("the top level reads");
    let names: Vec<&str> = file.cases.iter().map(|c| c.case.name.as_str()).collect();
    assert_eq!(names, ["first", "second"]);
    assert_eq!(file.cases[1].case.fen.as_deref(), Some("W:Wa3:Bh7"));
    assert_eq!(file.errors.len(), 1);
    let message = file.errors[0].1.to_string();
    assert!(message.contains("unknown field"), "{message}");
}

/// Inputs the fuzzer (`examples/fuzz.rs`) once crashed on: each must now load or be rejected with
/// diagnostics that render, without a panic.
#[test]
fn fuzz_regressions() {
    let mut seen = 0;
    for entry in std::fs::read_dir("tests/fuzz_regressions").expect("the folder exists") {
        let path = entry.expect("an entry").path();
        let bytes = std::fs::read(&path).expect("readable");
        let text = String::from_utf8_lossy(&bytes);
        if path.extension().is_some_and(|x| x == "rules") {
            seen += 1;
            if let Err(e) = damelab::lang::load("fuzz.rules", "fuzz", &text) {
                assert!(!render(&e).is_empty(), "{}", path.display());
            }
        }
    }
    assert!(seen > 0);
}
