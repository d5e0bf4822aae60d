//! The rules: the language and its diagnostics, compiled tables, the generator against published perft and the reference generator.

pub mod agreement;
pub mod approach;
pub mod boards;
pub mod capture_limits;
pub mod cells;
pub mod compile;
pub mod describe;
pub mod lang;
pub mod perft_tables;
pub mod playout;
pub mod priority;
pub mod properties;
pub mod row_leap;
pub mod rules_errors;
pub mod rules_warnings;
pub mod scale;
pub mod setup_clash;
pub mod widths;
