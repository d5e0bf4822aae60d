//! Self-play statistics.
