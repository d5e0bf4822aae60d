//! damelab: a rules-DSL interpreter and workbench for the draughts family.
//!
//! A variant's rules are a text file (`variants/*.rules`), parsed and checked by [`lang`] into a
//! [`spec::VariantSpec`], compiled by [`engine`] into tables, and run by one generic move generator.

pub mod endgame;
pub mod engine;
pub mod fsio;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod hub;
pub mod interrupt;
pub mod lang;
pub mod limits;
pub mod matchplay;
pub mod notation;
pub mod pdn;
pub mod runs;
pub mod search;
pub mod selfplay;
pub mod spec;
pub mod train;
pub mod util;
pub mod variant;
pub mod variants;

pub use engine::{Move, Position, Rules};
pub use game::Game;
pub use variant::Variant;
pub mod cases;
pub mod describe;
pub mod diagram;
pub mod explain;
pub mod render;
pub mod repl;
pub mod verify;
pub mod web;
