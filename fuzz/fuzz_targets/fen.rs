//! Fuzz target `fen`: see `damelab::fuzzing::fen` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::fen(data));
}
