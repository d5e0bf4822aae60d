//! Fuzz target `move`: see `damelab::fuzzing::move_text` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::move_text(data));
}
