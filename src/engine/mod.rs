//! The generic move generator: compiled tables, positions, moves, perft.
