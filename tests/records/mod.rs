//! Text and records: FEN and move text, PDN, diagrams, case files and `verify`.

pub mod cases;
pub mod combat;
pub mod diagram;
pub mod notation;
pub mod pdn;
pub mod pdn_real;
pub mod verify;
