//! Ctrl-C as a request to stop long work, not to end the program.
//!
//! Long computations (perft, search, self-play, endgame tables) poll [`requested`] at a coarse
//! interval and return early when it is set; the REPL then prints what was done and gives the
//! prompt back with the game intact. [`install`] puts the handler in place once per process; until
//! then Ctrl-C keeps its default meaning (end the program), which is right for one-shot commands
//! that have nothing to lose.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// In a REPL script: Ctrl-C between commands ends the program (there is no prompt to go back to).
static EXIT_WHEN_IDLE: AtomicBool = AtomicBool::new(false);
/// A command of a script is running: Ctrl-C stops it, the script goes on.
static BUSY: AtomicBool = AtomicBool::new(false);

/// Catch Ctrl-C (SIGINT) from now on: it sets the flag instead of ending the process. Returns
/// false when the handler could not be installed (then Ctrl-C ends the program as usual).
pub fn install() -> bool {
    INSTALL.call_once(|| {
        let ok = ctrlc::set_handler(|| {
            if EXIT_WHEN_IDLE.load(Ordering::SeqCst) && !BUSY.load(Ordering::SeqCst) {
                // The conventional status of a program ended by SIGINT.
                std::process::exit(130);
            }
            REQUESTED.store(true, Ordering::SeqCst);
        })
        .is_ok();
        INSTALLED.store(ok, Ordering::SeqCst);
    });
    INSTALLED.load(Ordering::SeqCst)
}

/// SIGTERMs received since [`install_termination`] (the second ends the program).
static TERMS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
static INSTALL_TERM: Once = Once::new();

#[cfg(unix)]
extern "C" fn on_term(_: libc::c_int) {
    // Only atomics and `_exit` here: both are safe in a signal handler.
    if TERMS.fetch_add(1, Ordering::SeqCst) > 0 {
        // SAFETY: `_exit` is async-signal-safe; a second SIGTERM means "now".
        unsafe { libc::_exit(143) };
    }
    REQUESTED.store(true, Ordering::SeqCst);
}

/// [`install`], and SIGTERM (what `kill`, `timeout` and batch schedulers send) taken the same way:
/// the long work stops, keeps and reports what it finished. A second SIGTERM ends the program at
/// once with status 143. For batch commands (`match`, `ladder`, `train`) only: in the REPL a
/// SIGTERM keeps its default meaning and ends it.
pub fn install_termination() -> bool {
    let ok = install();
    INSTALL_TERM.call_once(|| {
        #[cfg(unix)]
        // SAFETY: the handler only touches atomics and calls `_exit` (async-signal-safe).
        unsafe {
            let handler: extern "C" fn(libc::c_int) = on_term;
            libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
        }
    });
    ok
}

/// Whether the stop asked for came from SIGTERM rather than Ctrl-C.
pub fn terminated() -> bool {
    TERMS.load(Ordering::SeqCst) > 0
}

/// [`install`] for a REPL script (stdin not a terminal): Ctrl-C during a command stops that
/// command as it does interactively — a `perft` keeps the depths already counted — while Ctrl-C
/// between commands (the script waiting for its next line) ends the program with status 130.
pub fn install_for_script() -> bool {
    EXIT_WHEN_IDLE.store(true, Ordering::SeqCst);
    install()
}

/// Marks a command as running until dropped (see [`install_for_script`]).
pub struct Busy(());

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.store(false, Ordering::SeqCst);
    }
}

/// A command starts: Ctrl-C asks it to stop until the returned guard is dropped.
pub fn busy() -> Busy {
    BUSY.store(true, Ordering::SeqCst);
    Busy(())
}

/// Whether Ctrl-C was pressed since the last [`reset`].
#[inline]
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Forget an earlier Ctrl-C (call before starting a new piece of long work).
pub fn reset() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Ask the current long work to stop, as Ctrl-C would (for tests and time limits).
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Long work stopped early by Ctrl-C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("interrupted")]
pub struct Interrupted;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_and_reset() {
        reset();
        assert!(!requested());
        request();
        assert!(requested());
        reset();
        assert!(!requested());
    }
}
