//! Fuzz target `web`: see `damelab::fuzzing::web` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::web(data));
}
