//! The command-line contract of DESIGN.md: output and exit codes of `list`, `check`, `moves`,
//! `perft`, `rules`, `compile`, and bad input of every kind (exit 1 with a diagnostic, no panic).

use std::process::{Command, Output};

fn damelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damelab"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn list_names_every_bundled_variant() {
    let o = damelab(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for (name, _) in damelab::variants::BUNDLED {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name} listed");
    }
    assert!(out.contains("Turkish draughts"));
}

#[test]
fn moves_are_sorted_one_a_line() {
    let o = damelab(&["moves", "turkish"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).lines().collect::<Vec<_>>(),
        ["a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"]
    );
    let o = damelab(&["moves", "dameo", "--fen", "W:WKd4:Bd6,d2"]);
    assert_eq!(stdout(&o), "d4xd1\nd4xd7\nd4xd8\n");
}

#[test]
fn perft_prints_each_depth_then_speed() {
    let o = damelab(&["perft", "turkish", "3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        ["perft(1) = 8", "perft(2) = 64", "perft(3) = 708"]
    );
    assert!(lines[3].contains("nodes/s"), "{out}");
    let o = damelab(&["perft", "turkish", "3", "--divide", "--threads", "2"]);
    let out = stdout(&o);
    assert!(out.contains("perft(3) = 708"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(" ") && !l.contains('=') && !l.contains("nodes"))
            .count(),
        8
    );
}

#[test]
fn check_accepts_valid_and_rejects_broken_files() {
    let o = damelab(&["check", "variants/dameo.rules", "variants/turkish.rules"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = damelab(&[
        "check",
        "variants/dameo.rules",
        "tests/rules_errors/unknown_direction.rules",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("did you mean"), "{}", stderr(&o));
}

#[test]
fn rules_and_compile_dump() {
    let o = damelab(&["rules", "croda"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("removed at the end of the move"));
    let o = damelab(&["compile", "turkish", "--dump"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("removal: immediate"), "{}", stdout(&o));
}

#[test]
fn bad_input_exits_1_with_a_diagnostic() {
    let cases: &[(&[&str], &str)] = &[
        (&["moves", "nosuch"], "unknown variant `nosuch`"),
        (&["moves", "turksh"], "did you mean `turkish`?"),
        (
            &["moves", "dameo", "--fen", "W:Wz9"],
            "`z9` is not a square of this board",
        ),
        (&["perft", "turkish", "x"], "invalid value 'x'"),
        (
            &["perft", "missing/file.rules", "1"],
            "cannot read `missing/file.rules`",
        ),
        (
            &["check", "tests/rules_errors/unknown_piece.rules"],
            "unknown piece",
        ),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        let o = damelab(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}
