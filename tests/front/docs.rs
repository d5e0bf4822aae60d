//! Docs that are run: every command transcript in README.md and docs/*.md is executed against the
//! built binary and its output compared with the text, so a doc that drifts from the program fails.
//!
//! A transcript is a fenced block with lines that start with `$ `: each such line is a command
//! (run by `bash` with the binary's folder first on PATH, standard error merged into standard
//! output, colour off), and the lines after it, up to the next `$ ` line, are what it prints. The
//! text may elide what varies: `…` inside a line stands for any characters, a line that is only
//! `…` for any number of lines. A last line `[exit N]` says the command exits with N; without it
//! the command must exit 0. A command line that ends with `\\` goes on on the next line, as in
//! bash. A block whose info string holds the word `not-run` (`` ```console not-run ``) shows a
//! session that is not run: a server, Ctrl-C at a terminal, a cluster, or a run of many minutes.
//!
//! The commands of one document run in order in one scratch folder that holds the files of
//! `tests/doc_fixtures/` (the rules and case files the docs use as examples) and links to the
//! repository's `variants`, `examples`, `tests`, `docs` and `weights`, so documents may write
//! files.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// One command of a transcript and what the document says it prints.
#[derive(Debug, PartialEq)]
struct Transcript {
    /// The line of the document the command is on (1-based).
    line: usize,
    command: String,
    expected: Vec<String>,
    exit: i32,
}

/// The transcripts of a markdown text, in order.
fn transcripts(text: &str) -> Vec<Transcript> {
    let mut out: Vec<Transcript> = Vec::new();
    let mut in_block = false;
    let mut run_block = false;
    let mut current: Option<Transcript> = None;
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            if let Some(t) = current.take() {
                out.push(t);
            }
            in_block = !in_block;
            run_block = in_block && !info.split_whitespace().any(|w| w == "not-run");
            continued = false;
            continue;
        }
        if !run_block {
            continue;
        }
        if continued {
            if let Some(t) = &mut current {
                t.command.push('\n');
                t.command.push_str(line);
                continued = line.ends_with('\\');
                continue;
            }
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            continued = cmd.ends_with('\\');
            if let Some(t) = current.take() {
                out.push(t);
            }
            current = Some(Transcript {
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
                exit: 0,
            });
        } else if let Some(t) = &mut current {
            t.expected.push(line.to_string());
        }
    }
    if let Some(t) = current.take() {
        out.push(t);
    }
    for t in &mut out {
        while t.expected.last().is_some_and(|l| l.trim().is_empty()) {
            t.expected.pop();
        }
        if let Some(code) = t
            .expected
            .last()
            .and_then(|l| l.trim().strip_prefix("[exit "))
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|n| n.parse().ok())
        {
            t.exit = code;
            t.expected.pop();
        }
    }
    out
}

/// Whether one line of output matches one line of the document (`…` matches any characters).
fn line_matches(pattern: &str, actual: &str) -> bool {
    let pattern = pattern.trim_end();
    let actual = actual.trim_end();
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let mut rest = actual;
    for (k, part) in parts.iter().enumerate() {
        if k == 0 {
            match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if k == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
    }
    true
}

/// Whether the output's lines match the document's (a line `…` matches any number of lines).
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.iter().all(|l| l.trim().is_empty()),
        Some((first, rest)) if first.trim() == "…" => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => match actual.split_first() {
            Some((a, arest)) => line_matches(first, a) && lines_match(rest, arest),
            None => false,
        },
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("scratch folder");
    for entry in std::fs::read_dir(from).expect("fixtures list") {
        let entry = entry.expect("fixture entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("fixture copies");
        }
    }
}

/// A scratch folder for one document: the fixtures, and links to the repository's folders.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&repo().join("tests/doc_fixtures"), &dir);
    for link in ["variants", "examples", "tests", "docs", "weights"] {
        std::os::unix::fs::symlink(repo().join(link), dir.join(link)).expect("link");
    }
    dir
}

/// The longest one documented command may run.
const COMMAND_TIME: Duration = Duration::from_secs(300);

/// Run one command; its merged output and exit code (`None` when it ran past [`COMMAND_TIME`]
/// and was stopped).
fn run(cmd: &str, cwd: &Path) -> (String, Option<i32>) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_damelab"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("binary folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1; {cmd}"))
        .current_dir(cwd)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("HOME", cwd)
        .env("DAMELAB_CACHE", cwd.join("cache"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("bash runs");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status.code().unwrap_or(-1));
        }
        if start.elapsed() > COMMAND_TIME {
            // The whole group: bash and what it started (a pipe's other end holds the output).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = reader.join().expect("reader");
    (out, code)
}

/// The documents whose transcripts run.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![repo().join("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/ lists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

fn check_document(doc: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(doc).expect("document reads");
    let name = doc.file_stem().and_then(|s| s.to_str()).unwrap_or("doc");
    let dir = scratch(name);
    let mut failures = Vec::new();
    for t in transcripts(&text) {
        let (out, code) = run(&t.command, &dir);
        let lines: Vec<&str> = out.lines().collect();
        if !lines_match(&t.expected, &lines) || code != Some(t.exit) {
            let ended = match code {
                Some(c) => format!("exit {c}"),
                None => format!("stopped after {} s", COMMAND_TIME.as_secs()),
            };
            failures.push(format!(
                "{}:{}: `{}`\n--- the document says (exit {}):\n{}\n--- the program printed ({ended}):\n{}",
                doc.strip_prefix(repo()).unwrap_or(doc).display(),
                t.line,
                t.command,
                t.exit,
                t.expected.join("\n"),
                out.trim_end()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

#[test]
#[ignore = "release: runs every documented command with the release binary (.ci/run)"]
fn every_transcript_runs_as_documented() {
    let only = std::env::var("DAMELAB_DOC").ok();
    let mut failures = Vec::new();
    let mut count = 0;
    for doc in documents() {
        if only.as_deref().is_some_and(|o| !doc.ends_with(o)) {
            continue;
        }
        let n = transcripts(&std::fs::read_to_string(&doc).expect("reads")).len();
        let start = Instant::now();
        failures.extend(check_document(&doc));
        // Seen with `--nocapture`: which documents take the time.
        println!(
            "{}: {n} commands in {:.1} s",
            doc.strip_prefix(repo()).unwrap_or(&doc).display(),
            start.elapsed().as_secs_f64()
        );
        count += n;
    }
    assert!(count > 0, "no transcript found");
    assert!(
        failures.is_empty(),
        "{} of {count} documented commands print something else:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn transcripts_are_read_with_their_exit_codes() {
    let text = "intro\n```\n$ damelab list\ndameo  Dameo\n…\n\n$ damelab check x\n  × bad\n[exit 1]\n```\n$ not in a block\n";
    let ts = transcripts(text);
    assert_eq!(ts.len(), 2);
    assert_eq!(ts[0].command, "damelab list");
    assert_eq!(ts[0].line, 3);
    assert_eq!(ts[0].expected, vec!["dameo  Dameo", "…"]);
    assert_eq!(ts[0].exit, 0);
    assert_eq!(ts[1].expected, vec!["  × bad"]);
    assert_eq!(ts[1].exit, 1);

    let text = "```\n$ damelab match dameo \\\n    --games 2 \\\n    --depth 1\nout\n```\n\
                ```console not-run\n$ damelab serve\nlistening\n```\n```text\n$ true\n```\n";
    let ts = transcripts(text);
    assert_eq!(ts.len(), 2, "{ts:?}");
    assert_eq!(
        ts[0].command,
        "damelab match dameo \\\n    --games 2 \\\n    --depth 1"
    );
    assert_eq!(ts[0].expected, vec!["out"]);
    assert_eq!(ts[1].command, "true");
}

#[test]
fn elisions_match_what_varies_and_nothing_else() {
    assert!(line_matches(
        "1024 nodes in … s: … M nodes/s",
        "1024 nodes in 0.035 s: 29.1 M nodes/s"
    ));
    assert!(!line_matches("1024 nodes in … s", "1025 nodes in 0.035 s"));
    assert!(line_matches("perft(1) = 8", "perft(1) = 8   "));
    assert!(!line_matches("perft(1) = 8", "perft(1) = 9"));
    let exp: Vec<String> = ["a", "…", "d"].iter().map(|s| s.to_string()).collect();
    assert!(lines_match(&exp, &["a", "b", "c", "d"]));
    assert!(lines_match(&exp, &["a", "d"]));
    assert!(!lines_match(&exp, &["a", "b", "c"]));
    assert!(!lines_match(&exp, &["a", "d", "e"]));
}
