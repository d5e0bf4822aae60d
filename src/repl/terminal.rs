//! The terminal front end: rustyline with history, completion and hints when stdin is a terminal;
//! otherwise one command per input line, results only. Everything else is [`Session`]'s.

use super::helper::{Candidates, ReplHelper};
use super::Session;
use crate::render::{self, Style};
use crate::Variant;
use miette::Report;
use rustyline::config::{ColorMode, CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::Editor;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;

// Output that cannot be written (a closed pipe or terminal) is dropped: never a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

macro_rules! sayln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

macro_rules! errln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// How the front end was started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The history file; `~/.damelab_history` when absent.
    pub history: Option<PathBuf>,
    /// Never colour (`--no-color`, or `NO_COLOR` set).
    pub no_color: bool,
    /// In scripted mode, print each input line (after `> `) before its result: readable logs.
    pub echo: bool,
    /// Letters instead of the draughts symbols (`--ascii`; `set ascii` changes it later).
    pub ascii: bool,
}

/// Run the REPL on a variant (a bundled name or a rules file): interactive with line editing when
/// stdin is a terminal, otherwise one command per input line with results only.
pub fn run(variant: &str, opts: Options) -> Result<(), Report> {
    let v = Variant::load(variant).map_err(Report::new)?;
    let mut session = Session::new(v);
    let no_color = opts.no_color || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if !std::io::stdin().is_terminal() {
        // Scripts and tests: never colour here, whatever stdout is.
        session.style = Style {
            color: false,
            unicode: !opts.ascii,
            flipped: false,
        };
        run_script(&mut session, opts.echo)?;
        return match session.failed {
            0 => Ok(()),
            n => Err(miette::miette!(
                help = "each failing line printed its diagnostic above",
                "{n} line{} of the script failed",
                if n == 1 { "" } else { "s" }
            )),
        };
    }
    let color = !no_color && std::io::stdout().is_terminal();
    session.style = Style {
        color,
        unicode: !opts.ascii,
        flipped: false,
    };
    session.show_after_change = true;
    session.perft_nodes = u64::MAX;
    // Ctrl-C during long work (perft) stops the work, not the REPL.
    crate::interrupt::install();
    run_interactive(&mut session, opts.history, color)
}

/// The prompt names the side to move: `damelab (white)> `, or `damelab (over)> `.
fn prompt(session: &Session) -> String {
    let game = &session.game;
    let who = if game.result().is_some() {
        "over"
    } else {
        &game.rules.spec.sides[game.position().turn()].name
    };
    format!("damelab ({who})> ")
}

fn run_script(session: &mut Session, echo: bool) -> Result<(), Report> {
    // Ctrl-C while a command runs stops that command (its output so far is printed) and the
    // script goes on; between commands it ends the script as usual.
    crate::interrupt::install_for_script();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    loop {
        // One line of at most MAX_LINE_BYTES: `damelab repl < /dev/zero` must not fill memory.
        buf.clear();
        let limit = crate::limits::MAX_LINE_BYTES as u64;
        // The limit is on the line itself: its end (`\n` or `\r\n`) is read beyond it.
        let n = (&mut input)
            .take(limit + 2)
            .read_until(b'\n', &mut buf)
            .map_err(|e| miette::miette!("cannot read stdin: {e}"))?;
        if n == 0 {
            break;
        }
        let body = buf
            .strip_suffix(b"\n")
            .map(|b| b.strip_suffix(b"\r").unwrap_or(b))
            .unwrap_or(&buf);
        if body.len() as u64 > limit {
            return Err(miette::miette!(
                help = "a workbench command fits on one short line",
                "an input line is longer than {limit} bytes, the limit for a line"
            ));
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        if echo {
            writeln!(out, "> {line}").ok();
        }
        let text = {
            let _busy = crate::interrupt::busy();
            session.execute(line)
        };
        if let Err(e) = write!(out, "{text}").and_then(|_| out.flush()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                break; // the reader went away: nothing more to say
            }
            return Err(miette::miette!(
                help = "free some space, or send the output somewhere it can be written",
                "cannot write the output: {e}"
            ));
        }
        if session.quit {
            break;
        }
    }
    Ok(())
}

fn run_interactive(
    session: &mut Session,
    history: Option<PathBuf>,
    color: bool,
) -> Result<(), Report> {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .color_mode(if color {
            ColorMode::Enabled
        } else {
            ColorMode::Disabled
        })
        .auto_add_history(true)
        .build();
    let mut rl: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)
        .map_err(|e| miette::miette!("cannot start line editing: {e}"))?;
    rl.set_helper(Some(ReplHelper::new(Candidates::of(session), color)));
    let history = history
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".damelab_history")));
    if let Some(h) = &history {
        // A missing history file is the normal first run; a pipe, a device or a huge file is
        // never opened (it could block, or fill memory).
        match crate::fsio::check_readable(h, crate::fsio::Kind::History) {
            Ok(()) => {
                rl.load_history(h).ok();
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => errln!("note: the history `{}` is not read: {e}", h.display()),
        }
    }
    sayln!(
        "damelab — {} (`help` for the commands, Ctrl-D to leave)",
        session.variant.rules.spec.title
    );
    say!("{}", render::legend(&session.game.rules, session.style));
    say!("{}", session.board());
    sayln!("{}", session.game.describe_result());
    loop {
        match rl.readline(&prompt(session)) {
            Ok(line) => {
                say!("{}", session.execute(&line));
                std::io::stdout().flush().ok();
                if session.quit {
                    break;
                }
                if let Some(h) = rl.helper_mut() {
                    h.candidates = Candidates::of(session);
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                errln!("cannot read the terminal: {e}");
                break;
            }
        }
    }
    if let Some(h) = &history {
        // Whole or not at all: a full disk keeps the old history instead of a cut line.
        let saved = crate::fsio::write_via_path(h, |tmp| {
            rl.save_history(tmp).map_err(std::io::Error::other)
        });
        if let Err(e) = saved {
            errln!("{:?}", Report::new(e));
            return Err(miette::miette!("the history was not saved"));
        }
    }
    Ok(())
}
