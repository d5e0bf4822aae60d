//! Fuzz target `case`: see `damelab::fuzzing::case` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::case(data));
}
