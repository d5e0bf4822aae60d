//! Fuzz target `repl`: see `damelab::fuzzing::repl` for what runs and what must hold.
fn main() {
    afl::fuzz!(|data: &[u8]| damelab::fuzzing::repl(data));
}
