//! Fuzz target `table`: see `damelab::fuzzing::table` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::table(data));
}
