//! Drives the REPL as a script (stdin not a terminal) with every file of `tests/repl/*.txt` and
//! snapshots the transcript (`snapshots/repl__transcripts@<file>.snap`). A script's first line
//! names its variant: `# variant: dameo`. Add a file to add a transcript.

use std::io::Write;
use std::process::Stdio;

/// Run the binary's REPL on `variant` with `input` on stdin; its stdout, and fail on a crash.
fn run_repl(variant: &str, input: &str) -> String {
    let mut child = crate::common::bin()
        .args(["repl", variant, "--echo"])
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the damelab binary starts");
    child
        .stdin
        .take()
        .expect("stdin was piped")
        .write_all(input.as_bytes())
        .expect("the REPL reads its script");
    let out = child.wait_with_output().expect("the REPL finishes");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    // Exit 1 when a line failed (scripts with deliberate errors), never a crash.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "the REPL failed ({}):\nstderr:\n{}\nstdout:\n{stdout}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn transcripts() {
    insta::glob!("..", "repl/*.txt", |path| {
        let script = std::fs::read_to_string(path).expect("script is readable");
        let (first, rest) = script.split_once('\n').unwrap_or((&script, ""));
        let variant = first
            .strip_prefix("# variant:")
            .map(str::trim)
            .unwrap_or_else(|| panic!("{}: first line must be `# variant: NAME`", path.display()));
        let transcript = run_repl(variant, rest);
        assert!(
            !transcript.contains('\x1b'),
            "{}: colour codes in scripted output",
            path.display()
        );
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!("repl__transcripts", transcript);
        });
    });
}

#[test]
fn garbage_never_crashes() {
    let junk = "\u{0}\u{7f}é☃ \n-\nx\n--\nxx\na0-a1\nz9-z10\n99-98\nput\nput Z\nput Zz9\nput B\n\
                fen\nfen :\nfen W:W:B\nfen ::::\nclear\nclear zz\nturn Q\nperft\nperft -1\n\
                perft 99\ndivide x\nundo 0\nundo -3\nredo 99999999999999999999\nexplain\n\
                explain ;\nexplain a1\nexplain a1-a1\nload\nload nowhere/x.rules\nreload\n\
                help nothing\n    \n\t\n# a comment\nhelp\n";
    let out = run_repl("dameo", junk);
    assert!(out.contains("unknown command"), "{out}");
    assert!(!out.contains("panicked"), "{out}");
}

/// `reload` keeps the game when its moves stay legal, starts anew when one does not, and leaves
/// everything as it was when the edited file is broken.
#[test]
fn reload_after_editing_the_rules_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl_reload");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let file = dir.join("mydameo.rules");
    let original = std::fs::read_to_string("variants/dameo.rules").expect("Dameo's rules");
    std::fs::write(&file, &original).expect("write the copy");
    let v = damelab::Variant::from_path(&file).expect("the copy loads");
    let mut s = damelab::repl::Session::new(v);
    assert_eq!(s.execute("c3-c4 f6-f5"), "1. c3-c4\n1... f6-f5\n");

    // A harmless edit: the game goes on.
    std::fs::write(&file, original.replace("\"Dameo\"", "\"Dameo (edited)\"")).expect("edit");
    let out = s.execute("reload");
    assert!(out.contains("the game's 2 moves are still legal"), "{out}");
    assert!(out.contains("Dameo (edited)"), "{out}");
    assert_eq!(s.game.moves().len(), 2);

    // Men may no longer step straight forward: c3-c4 is gone, a new game starts.
    let edited = original.replace("step forward, forward-diagonal", "step forward-diagonal");
    assert_ne!(
        edited, original,
        "the edit must apply to Dameo's rules text"
    );
    std::fs::write(&file, edited).expect("edit");
    let out = s.execute("reload");
    assert!(out.contains("move 1 (`c3-c4`) is no longer legal"), "{out}");
    assert_eq!(s.game.moves().len(), 0);
    s.execute("c3-d4");

    // A broken file: a diagnostic, and the game is unchanged.
    std::fs::write(
        &file,
        "variant \"Broken\"\nboard 8x8, all squares\npiece man \"M\"\nman: fly\n",
    )
    .expect("edit");
    let out = s.execute("reload");
    assert!(out.contains('×'), "a diagnostic: {out}");
    assert_eq!(s.game.moves().len(), 1);
    assert!(s.execute("history").contains("c3-d4"));
}

/// Scripted use exits 0 when every line worked, 1 (with a count on stderr) when any failed.
#[test]
fn scripts_exit_non_zero_after_an_error() {
    let run = |input: &str| {
        let mut child = crate::common::bin()
            .args(["repl", "dameo"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the damelab binary starts");
        child
            .stdin
            .take()
            .expect("stdin was piped")
            .write_all(input.as_bytes())
            .expect("the REPL reads its script");
        child.wait_with_output().expect("the REPL finishes")
    };
    let ok = run("c3-c4\nshow\nundo\n");
    assert_eq!(ok.status.code(), Some(0));
    let bad = run("c3-c4\nnonsense\nc3-c5 f6-f5\nshow\n");
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("2 lines of the script failed"), "{err}");
}

/// `reload` keeps the moves before the first one the edited rules forbid; `undo` brings the whole
/// old game (and the old rules) back.
#[test]
fn reload_keeps_the_longest_legal_prefix() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl_reload_prefix");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let file = dir.join("mydameo.rules");
    let original = std::fs::read_to_string("variants/dameo.rules").expect("Dameo's rules");
    std::fs::write(&file, &original).expect("write the copy");
    let v = damelab::Variant::from_path(&file).expect("the copy loads");
    let mut s = damelab::repl::Session::new(v);
    // A diagonal step, then a straight one.
    assert_eq!(s.execute("c3-d4 f6-f5"), "1. c3-d4\n1... f6-f5\n");
    let edited = original.replace("step forward, forward-diagonal", "step forward-diagonal");
    assert_ne!(edited, original);
    std::fs::write(&file, edited).expect("edit");
    let out = s.execute("reload");
    assert!(
        out.contains("move 2 (`f6-f5`) is no longer legal; the game keeps its first 1 move"),
        "{out}"
    );
    assert_eq!(s.game.moves().len(), 1);
    let out = s.execute("undo");
    assert!(out.contains("took back c3-d4"), "{out}");
    let out = s.execute("undo");
    assert!(out.contains("undid `reload`"), "{out}");
    assert_eq!(s.game.moves().len(), 2);
}
