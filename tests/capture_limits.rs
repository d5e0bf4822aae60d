//! The capture search's limits: routes as long as the board allows (never cut short), the route
//! budget on pathological rules, and interruptible perft.

use damelab::engine::GenOptions;
use damelab::notation::{move_to_string, parse_fen};
use damelab::Variant;

/// Big Dameo (4 rows): a flying king on a1 in a checkerboard of 40 men. Its longest captures take
/// 33 men, one more than the generator's old fixed route length, which cut them at 32.
const BIG_DAMEO_33: &str = "W:WKa1:Ba2,a4,a6,a8,b1,b3,b5,b7,b9,c2,c4,c6,c8,d1,d3,d5,d7,d9,e2,e4,e6,e8,f1,f3,f5,f7,f9,g2,g4,g6,g8,h1,h3,h5,h7,h9,i2,i4,i6,i8";

#[test]
fn a_33_piece_capture_is_found_whole() {
    let v = Variant::load("big-dameo-4").expect("bundled");
    let pos = parse_fen(&v.rules, BIG_DAMEO_33).expect("valid FEN");
    let mut moves = Vec::new();
    v.rules.generate(&pos, &mut moves, GenOptions::default());
    assert!(!moves.is_empty());
    for m in &moves {
        assert_eq!(m.captures(), 33, "{}", move_to_string(&v.rules, m));
        assert_eq!(m.route().len(), 33, "{}", move_to_string(&v.rules, m));
        // Every leg lands on an empty square and the route ends where the move ends.
        assert_eq!(*m.route().last().expect("a route"), m.to);
    }
    assert_eq!(moves.len(), 24, "moves of the 33-piece capture");
}
