//! The workbench: commands over a [`crate::Game`], shared by the interactive terminal front end
//! and by scripted use (stdin not a terminal). The commands live here in the library
//! ([`Session`]); the terminal part ([`run`]) stays thin.

pub mod commands;
pub mod engine_state;
pub mod helper;
mod pdn_commands;
mod session;
mod terminal;
mod workbench;

pub use session::Session;
pub use terminal::{run, Options};
