//! Fuzz target `merge`: see `damelab::fuzzing::merge` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::merge(data));
}
