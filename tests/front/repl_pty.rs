//! Drives the interactive front end through a pseudo-terminal: tab completion of a move, the
//! greyed hint, Ctrl-C cancelling a line, Ctrl-D quitting, and the history file.
#![cfg(unix)]

use rexpect::session::spawn_command;

#[test]
fn completes_a_move_and_keeps_history() -> Result<(), rexpect::error::Error> {
    let history = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl_pty_history");
    std::fs::remove_file(&history).ok();
    let mut cmd = crate::common::bin();
    cmd.args(["repl", "dameo", "--history"])
        .arg(&history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut p = spawn_command(cmd, Some(20_000))?;
    // The prompt names the side to move.
    p.exp_string("damelab (white)> ")?;

    // In Dameo's start position the man on a1 has two moves, a1-a2 and a1-d4: `a1-a` + Tab
    // can only become a1-a2.
    p.send("a1-a\t")?;
    p.flush()?;
    p.exp_string("a1-a2")?;
    p.send("\r")?;
    p.flush()?;
    p.exp_string("1. a1-a2")?;
    p.exp_string("damelab (black)> ")?;

    // The hint: Black's man on c6 steps to b5, c5 or d5; after `c6-c` the rest of c6-c5 is
    // drawn after the cursor. Ctrl-C then cancels the line and the session goes on unchanged.
    p.send("c6-c")?;
    p.flush()?;
    p.exp_string("c6-c5")?;
    p.send_control('c')?;
    p.exp_string("> ")?;
    p.send("result\r")?;
    p.flush()?;
    p.exp_string("black to move")?;
    p.exp_string("> ")?;

    // Tab after a command word adds the space: `expl<Tab>` + a move reads as `explain MOVE`.
    p.send("expl\t")?;
    p.flush()?;
    p.exp_string("explain ")?;
    p.send("c6-c5\r")?;
    p.flush()?;
    p.exp_string("`c6-c5` is legal")?;
    p.exp_string("> ")?;

    // Ctrl-D leaves, saving the history.
    p.send_control('d')?;
    p.exp_eof()?;
    let saved = std::fs::read_to_string(&history).unwrap_or_default();
    assert!(saved.contains("a1-a2"), "history file: {saved:?}");
    assert!(saved.contains("result"), "history file: {saved:?}");
    Ok(())
}

/// Ctrl-C during a long command (perft 12 on the international board takes many minutes) stops the
/// count and gives the prompt back with the game kept.
#[test]
fn ctrl_c_stops_a_long_perft_and_keeps_the_game() -> Result<(), rexpect::error::Error> {
    let mut cmd = crate::common::bin();
    let history = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl_pty_history_perft");
    cmd.args(["repl", "international", "--history"])
        .arg(&history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut p = spawn_command(cmd, Some(30_000))?;
    p.exp_string("damelab (white)> ")?;
    p.send("32-28\r")?;
    p.flush()?;
    p.exp_string("damelab (black)> ")?;
    p.send("perft 12\r")?;
    p.flush()?;
    // Let the count start, then interrupt it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    p.send_control('c')?;
    p.exp_string("interrupted")?;
    p.exp_string("damelab (black)> ")?;
    p.send("history\r")?;
    p.flush()?;
    p.exp_string("1. 32-28")?;
    p.exp_string("damelab (black)> ")?;
    p.send_control('d')?;
    p.exp_eof()?;
    Ok(())
}
