//! Progress of long work (an endgame build, a training generation, a rating match): the library
//! says how far it is, a front end draws it. The command line installs its drawer once
//! ([`install`], from `cli::console`); without one — the web server's studies, the tests, a
//! library user — a [`Bar`] draws nothing and costs one branch a call.

use std::sync::OnceLock;

/// What a front end draws a bar with.
pub trait Drawer: Send + Sync {
    /// A new bar of `len` steps, labelled `message`.
    fn bar(&self, len: u64, message: &str) -> Box<dyn Drawn>;
}

/// A bar as a front end draws it.
pub trait Drawn: Send + Sync {
    fn inc(&self, n: u64);
    fn set_length(&self, len: u64);
    fn set_position(&self, pos: u64);
    fn set_message(&self, message: String);
    /// Take the bar off the screen.
    fn finish(&self);
}

static DRAWER: OnceLock<Box<dyn Drawer>> = OnceLock::new();

/// The front end's drawer, for every bar the library starts from now on (the first call wins).
pub fn install(drawer: Box<dyn Drawer>) {
    let _ = DRAWER.set(drawer);
}

/// A progress bar: drawn by the installed [`Drawer`], or nothing.
pub struct Bar(Option<Box<dyn Drawn>>);

impl Bar {
    /// A bar of `len` steps labelled `message`, drawn when a front end installed a drawer.
    pub fn new(len: u64, message: &str) -> Bar {
        Bar(DRAWER.get().map(|d| d.bar(len, message)))
    }

    /// A bar that draws nothing.
    pub fn hidden() -> Bar {
        Bar(None)
    }

    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }

    pub fn set_length(&self, len: u64) {
        if let Some(b) = &self.0 {
            b.set_length(len);
        }
    }

    pub fn set_position(&self, pos: u64) {
        if let Some(b) = &self.0 {
            b.set_position(pos);
        }
    }

    pub fn set_message(&self, message: String) {
        if let Some(b) = &self.0 {
            b.set_message(message);
        }
    }

    /// Take the bar off the screen (also done when it is dropped).
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}
