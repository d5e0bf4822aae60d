//! The console: the one way the command line prints. Standard output through [`out!`] and
//! [`outln!`] (a closed pipe ends quietly, a full disk is a diagnostic) or [`out_keep_going`]
//! (for commands that write files after their output), diagnostics and notes through [`errln!`]
//! (a closed stderr drops them instead of panicking).

/// Print to stdout; a closed pipe (`damelab perft … | head`) ends the program quietly instead of
/// panicking; any other failure (a full disk, `/dev/full`) is a diagnostic and exit code 1.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            $crate::cli::console::stdout_failed(e);
        }
    }};
}
pub(crate) use out;

/// Output that could not be written: quiet for a closed pipe (the reader has what it wanted),
/// otherwise said on stderr, and the program ends with a failure either way but the pipe's.
pub fn stdout_failed(e: std::io::Error) -> ! {
    use std::io::Write;
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let report = miette::miette!(
        help = "free some space, or send the output somewhere it can be written",
        "cannot write the output: {e}"
    );
    let _ = writeln!(std::io::stderr(), "{report:?}");
    std::process::exit(1);
}

/// Print for a command that writes files after its output (self-play, training, a match, endgame
/// tables):
/// a closed pipe (`damelab selfplay … --json F | head -1`) drops the rest of the output instead of
/// ending the program, so that the files are still written; any other failure is as for `out!`.
pub fn out_keep_going(text: &str) {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().write_all(text.as_bytes()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CLOSED.store(true, Ordering::Relaxed);
            return;
        }
        stdout_failed(e);
    }
}

/// Print a diagnostic to stderr; a closed or broken stderr drops it instead of panicking.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use errln;

/// [`out!`] and a new line.
macro_rules! outln {
    ($($arg:tt)*) => {{
        $crate::cli::console::out!($($arg)*);
        $crate::cli::console::out!("\n");
    }};
}
pub(crate) use outln;

/// The command line's progress bars, one template for every long command: drawn on standard
/// error when it is a terminal, never into a pipe or a file.
pub struct Bars;

impl crate::progress::Drawer for Bars {
    fn bar(&self, len: u64, message: &str) -> Box<dyn crate::progress::Drawn> {
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return Box::new(indicatif::ProgressBar::hidden());
        }
        let b = indicatif::ProgressBar::new(len);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {eta}")
        {
            b.set_style(style.progress_chars("=> "));
        }
        b.set_message(message.to_string());
        Box::new(b)
    }
}

impl crate::progress::Drawn for indicatif::ProgressBar {
    fn inc(&self, n: u64) {
        indicatif::ProgressBar::inc(self, n);
    }
    fn set_length(&self, len: u64) {
        indicatif::ProgressBar::set_length(self, len);
    }
    fn set_position(&self, pos: u64) {
        indicatif::ProgressBar::set_position(self, pos);
    }
    fn set_message(&self, message: String) {
        indicatif::ProgressBar::set_message(self, message);
    }
    fn finish(&self) {
        self.finish_and_clear();
    }
}
