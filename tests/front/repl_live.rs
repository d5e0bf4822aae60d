//! The interactive workbench through a pseudo-terminal: `perft` shows each depth as it is
//! counted, Ctrl-C during `go` plays no move, and the engine's lines come after the echo of the
//! user's move.
#![cfg(unix)]

use rexpect::session::{spawn_command, PtySession};

fn start(variant: &str, name: &str) -> Result<PtySession, rexpect::error::Error> {
    let history = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut cmd = crate::common::bin();
    cmd.args(["repl", variant, "--history"])
        .arg(&history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        // No endgame tables from the user's cache.
        .env(
            "DAMELAB_CACHE",
            std::env::temp_dir().join("damelab-repl-live-no-cache"),
        );
    spawn_command(cmd, Some(30_000))
}

#[test]
fn perft_shows_each_depth_before_it_ends() -> Result<(), rexpect::error::Error> {
    let mut p = start("international", "repl_live_perft")?;
    p.exp_string("damelab (white)> ")?;
    p.send("perft 12\r")?;
    p.flush()?;
    // The first depths are on screen while the count goes on; only then Ctrl-C.
    p.exp_string("perft(4) = 4265")?;
    p.send_control('c')?;
    p.exp_string("interrupted")?;
    p.exp_string("damelab (white)> ")?;
    p.send_control('d')?;
    p.exp_eof()?;
    Ok(())
}

#[test]
fn ctrl_c_during_go_plays_no_move() -> Result<(), rexpect::error::Error> {
    let mut p = start("international", "repl_live_go")?;
    p.exp_string("damelab (white)> ")?;
    p.send("go time 60\r")?;
    p.flush()?;
    p.exp_string("depth  1")?;
    std::thread::sleep(std::time::Duration::from_millis(300));
    p.send_control('c')?;
    p.exp_string("(interrupted)")?;
    p.exp_string("the move is not played")?;
    p.exp_string("damelab (white)> ")?;
    p.send("history\r")?;
    p.flush()?;
    p.exp_string("no moves yet")?;
    // Ctrl-D only once the editor is reading again: sent while the command still runs, the
    // terminal is in line mode and swallows it.
    p.exp_string("damelab (white)> ")?;
    p.send_control('d')?;
    p.exp_eof()?;
    Ok(())
}

#[test]
fn the_engine_answers_after_the_users_move_is_shown() -> Result<(), rexpect::error::Error> {
    let mut p = start("dameo", "repl_live_engine")?;
    p.exp_string("damelab (white)> ")?;
    p.send("engine black depth 3\r")?;
    p.flush()?;
    p.exp_string("the engine plays black")?;
    p.exp_string("damelab (white)> ")?;
    p.send("c3-c4\r")?;
    p.flush()?;
    // In this order: the user's move, the engine's search, its move.
    p.exp_string("1. c3-c4")?;
    p.exp_string("depth  1")?;
    p.exp_string("best ")?;
    p.exp_string("1... ")?;
    p.exp_string("damelab (white)> ")?;
    p.send_control('d')?;
    p.exp_eof()?;
    Ok(())
}
