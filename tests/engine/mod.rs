//! The engine: search, endgame tables, the Hub protocol.

pub mod endgame;
pub mod endgame_boards;
pub mod endgame_cache;
pub mod endgame_columns;
pub mod hub;
pub mod hub1;
pub mod parallel_search;
pub mod search;
pub mod search_strength;
