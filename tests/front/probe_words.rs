//! `probe` (the REPL's command and the page's button) in words a player reads: a position far
//! too large for tables says so, and a suggested `damelab endgame` command is one that command
//! accepts (its memory limit raised with `--max-memory` when the default is too small) (#48).

use damelab::endgame::probe::probe_in;
use damelab::endgame::{parse_memory, DEFAULT_MAX_MEMORY};
use damelab::notation::parse_fen;
use damelab::Variant;

fn probe(variant: &str, fen: &str) -> String {
    let v = Variant::load(variant).expect("a bundled variant");
    let pos = parse_fen(&v.rules, fen).expect("a position");
    // No cache: nothing is read from or written to the user's home.
    probe_in(&v, &pos, None).expect("a probe answer")
}

#[test]
fn dameo_start_says_the_position_has_far_too_many_pieces() {
    let v = Variant::load("dameo").expect("dameo");
    let text = probe_in(&v, &v.rules.start, None).expect("a probe answer");
    assert_eq!(
        text,
        "MMMMMMMMMMMMMMMMMM v MMMMMMMMMMMMMMMMMM: 36 pieces, far too many for endgame tables \
         (they hold every position of the material and of all it reaches); probe again with \
         fewer pieces\n"
    );
    assert!(!text.contains("- v"), "{text}");
}

#[test]
fn a_suggested_endgame_command_fits_its_memory_limit() {
    // Within the default limit: the plain command.
    let text = probe("dameo", "W:Wa1,b1:Bg8,h8");
    assert_eq!(
        text,
        "MM v MM: no table yet (126,056,960 positions with what it reaches, about 844 MiB); \
         build it with `damelab endgame dameo \"MM v MM\"`\n"
    );
    // Over it: the limit raised to what the build needs.
    let text = probe("dameo", "W:Wa1,b1,c1:Bg8,h8");
    let (_, limit) = text
        .split_once("--max-memory ")
        .expect("a raised limit is suggested");
    let limit =
        parse_memory(limit.trim_end_matches(['`', '\n'])).expect("a limit `damelab endgame` reads");
    let v = Variant::load("dameo").expect("dameo");
    let m = damelab::endgame::Material::parse(&v.rules, "MMM v MM").expect("a material");
    let est = damelab::endgame::Tables::new(&v.rules)
        .estimate(&m)
        .expect("an estimate");
    assert!(
        est.bytes > DEFAULT_MAX_MEMORY && est.bytes <= limit,
        "{text}"
    );
    // Far over any machine: no command at all.
    let text = probe("dameo", "W:Wa1,b1,c1:Bf8,g8,h8");
    assert!(
        text.starts_with("MMM v MMM: no table (201,983,803,904 positions"),
        "{text}"
    );
    assert!(!text.contains("damelab endgame"), "{text}");
}
