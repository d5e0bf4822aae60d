//! Fuzz target `pdnvar`: see `damelab::fuzzing::pdnvar` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::pdnvar(data));
}
