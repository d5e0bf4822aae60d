//! The command-line contract of DESIGN.md: output and exit codes of `list`, `check`, `moves`,
//! `perft`, `rules`, `compile`, and bad input of every kind (exit 1 with a diagnostic, no panic).

use std::process::Output;

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
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

/// Issue 12's rough edges of the command line: bundled names for `check`, `show`, perft(0), the
/// help texts, and `verify` finding a case file's rules file beside the case file only.
#[test]
fn check_takes_bundled_names_and_show_prints_the_source() {
    let o = damelab(&["check", "turkish", "variants/keny.rules"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "turkish: ok (Turkish draughts)\nvariants/keny.rules: ok (Keny)\n"
    );
    let o = damelab(&["show", "dameo"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        std::fs::read_to_string("variants/dameo.rules").expect("Dameo's rules")
    );
    let o = damelab(&["show", "variants/keny.rules"]);
    assert!(stdout(&o).contains("variant \"Keny\""));
    let o = damelab(&["show", "dameoo"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("did you mean `dameo`?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn perft_zero_is_one() {
    for args in [
        &["perft", "dameo", "0"][..],
        &["perft", "dameo", "0", "--divide"],
    ] {
        let o = damelab(args);
        assert!(o.status.success());
        assert!(
            stdout(&o).starts_with("perft(0) = 1\n1 nodes"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn every_argument_has_help() {
    for cmd in [
        "check", "show", "moves", "perft", "rules", "compile", "diagram", "repl",
    ] {
        let o = damelab(&[cmd, "--help"]);
        let help = stdout(&o);
        // An argument without help text is listed as its bare name.
        for line in help.lines() {
            let l = line.trim();
            if l.starts_with('<') || l.starts_with("--") || l.starts_with("-o") {
                assert!(l.contains("  "), "`{cmd} --help`: `{l}` has no help text");
            }
        }
    }
}

#[test]
fn verify_finds_rules_beside_the_case_file_only() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify_relative");
    let (cases, cwd) = (tmp.join("cases"), tmp.join("elsewhere"));
    std::fs::create_dir_all(&cases).expect("scratch folder");
    std::fs::create_dir_all(&cwd).expect("scratch folder");
    let rules = std::fs::read_to_string("variants/dameo.rules").expect("Dameo's rules");
    let case = "variant: mine.rules\ncases:\n  - name: opening\n    perft: [1]\n";
    std::fs::write(cases.join("c.yaml"), case).expect("case file");
    // The rules file only in the current directory: not found.
    std::fs::write(cwd.join("mine.rules"), &rules).expect("rules file");
    std::fs::remove_file(cases.join("mine.rules")).ok();
    let run = || {
        crate::common::bin()
            .args(["verify"])
            .arg(cases.join("c.yaml"))
            .current_dir(&cwd)
            .env("NO_COLOR", "1")
            .output()
            .expect("damelab runs")
    };
    let o = run();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("its variant does not load"),
        "{}",
        stdout(&o)
    );
    // Beside the case file: found (and the count is wrong, so the case fails on its own).
    std::fs::write(cases.join("mine.rules"), &rules).expect("rules file");
    let o = run();
    assert!(stdout(&o).contains("(Dameo)"), "{}", stdout(&o));
}

/// `damelab selfplay … --json F | head -1`: the reader is gone before the report is printed, and
/// the files are written all the same (the output is dropped, the run is not cut short).
#[test]
fn a_closed_pipe_does_not_lose_the_files_of_a_run() {
    let dir = std::env::temp_dir().join(format!("damelab-cli-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let json = dir.join("run.json");
    let pdn = dir.join("run.pdn");
    let mut child = crate::common::bin()
        .args([
            "selfplay",
            "english",
            "--games",
            "4",
            "--depth",
            "1",
            "--threads",
            "1",
        ])
        .arg("--json")
        .arg(&json)
        .arg("--pdn")
        .arg(&pdn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the damelab binary runs");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("it ends");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&json).expect("the JSON file is written");
    assert!(text.contains("\"format\": \"damelab-selfplay\""), "{text}");
    let games = std::fs::read_to_string(&pdn).expect("the PDN file is written");
    assert_eq!(games.matches("[Round ").count(), 4, "{games}");
    let _ = std::fs::remove_dir_all(&dir);
}
