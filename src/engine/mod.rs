//! The generic move generator: compiled tables, positions, moves, perft.

pub mod draws;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod rules;

pub use geometry::{Geometry, Sq};
pub use movegen::GenOptions;
pub use moves::Move;
pub use outcome::{EndReason, Outcome};
pub use position::Position;
pub use rules::{CompileError, Rules};
