//! damelab: a rules-DSL interpreter and workbench for the draughts family.
//!
//! A variant's rules are a text file (`variants/*.rules`), parsed and checked by [`lang`] into a
//! [`spec::VariantSpec`], compiled by [`engine`] into tables, and run by one generic move generator.
//! The modules are listed in the pipeline's order, from the foundations to the front ends; each
//! imports only modules listed before it (docs/architecture.md, checked by `tests/layers.rs`).
//! Modules that only the library itself uses (the progress drawer, the workbench under the REPL
//! and the web) are `pub(crate)`; the rest are the API of the tests, the benches, the fuzz
//! targets and the Python package.

// Foundations.
pub mod fsio;
pub mod interrupt;
pub mod limits;
pub(crate) mod progress;
pub mod util;
pub mod variants;

// The rules: the checked spec, the language that produces it, the generator that runs it.
pub mod engine;
pub mod lang;
pub mod spec;

// Text and records over the rules.
pub mod cases;
pub mod describe;
pub mod diagram;
pub mod explain;
pub mod game;
pub mod notation;
pub mod pdn;
pub mod render;
pub mod variant;
pub mod verify;

// The workbench under the REPL and the web: a game with variations, playing or refusing a
// typed move, position set-up.
pub(crate) mod workbench;

// The engine, its tables and its protocol.
pub mod endgame;
pub mod hub;
pub mod search;

// Runs: the kernel, then matches, self-play and training.
pub mod matchplay;
pub mod runs;
pub mod selfplay;
pub mod train;

// Front ends.
pub mod cli;
#[doc(hidden)]
pub mod fuzzing;
pub mod repl;
pub mod web;

pub use engine::{Move, Position, Rules};
pub use game::Game;
pub use variant::Variant;
