//! The command line's contract: every subcommand's `--help` text, pinned by a snapshot (in
//! `snapshots/help__*.snap`), so that moving the clap types about cannot change what a user
//! reads or may type. The subcommands are found from the help texts themselves (their
//! `Commands:` sections), so a new one is pinned as soon as it exists.

use crate::common::{damelab, ok};

/// The subcommands a help text lists under `Commands:` (`help` aside).
fn subcommands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap_or("");
            // A description's continuation lines are indented further than the names.
            if line.starts_with("  ") && !line.starts_with("   ") && name != "help" {
                out.push(name.to_string());
            }
        }
    }
    out
}

#[test]
fn every_subcommands_help_is_pinned() {
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    let mut seen = 0;
    while let Some(path) = todo.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = ok(&damelab(&args));
        for sub in subcommands(&help) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        let name = if path.is_empty() {
            "help__damelab".to_string()
        } else {
            format!("help__{}", path.join("-"))
        };
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, help);
        });
        seen += 1;
    }
    // The top level and its commands, with the subcommands of match, train and ladders.
    assert!(seen >= 20, "only {seen} help texts found");
}

#[test]
fn subcommands_are_read_from_a_help_text() {
    let help = "Usage: x\n\nCommands:\n  run    Run it\n         on and on\n  stop   Stop\n  help   Print this\n\nOptions:\n  -h\n";
    assert_eq!(subcommands(help), ["run", "stop"]);
}
