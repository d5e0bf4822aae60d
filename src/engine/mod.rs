//! The generic move generator: compiled tables, positions, moves, perft.

pub mod approach;
pub mod bits;
pub mod combat;
pub mod draws;
pub mod drops;
pub mod geometry;
pub mod huff;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod query;
pub mod rules;
pub mod stacks;

pub use bits::{BitSet, U256};
pub use geometry::{Geometry, Sq};
pub use movegen::{GenOptions, TooManyRoutes, ROUTE_BUDGET};
pub use moves::Move;
pub use outcome::{EndReason, Outcome};
pub use perft::{PerftError, PerftLimits};
pub use position::Position;
pub use rules::{CompileError, Rules};
