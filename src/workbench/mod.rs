//! The workbench the REPL and the web are front ends over: one game with its variations
//! ([`tree::Tree`]), one way to play a typed move or say why it is refused ([`play`]), one
//! position set-up ([`setup`]). Each front end keeps its own words and drawing; what a move,
//! a line or an edit means is decided here once.

pub mod notes;
pub mod open;
pub mod play;
pub mod setup;
pub mod tree;

pub use open::{tree_of_game, variant_of_game, OpenError};
pub use play::{explain_in_game, read_move, Refusal};
pub use setup::{apply, Edit, SetupError};
pub use tree::Tree;
