//! Fuzz target `pdn`: see `damelab::fuzzing::pdn` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::pdn(data));
}
