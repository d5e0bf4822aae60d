//! Fuzz target `rules`: see `damelab::fuzzing::rules` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::rules(data));
}
