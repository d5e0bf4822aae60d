//! The web workbench under a reversed aim (`no moves wins`, issue 47): the page reports the side
//! that cannot move, or has no pieces left, as the winner, through the same /api routes the page
//! uses.

use super::web_api::{legal_texts, ok, post, start};
use serde_json::json;

#[test]
fn antidraughts_reports_the_side_without_moves_as_the_winner() {
    let srv = start("antidraughts");
    // White to move, its man on 46 (a1) blocked by 41 with 37 behind it: no step, no capture.
    let s = ok(post(&srv, "/api/fen", json!({ "fen": "W:W46:B37,41" })));
    assert!(legal_texts(&s).is_empty(), "{s}");
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(
        s["result"], "white wins: white has no legal move left (the aim is reversed)",
        "{s}"
    );
    // Black to move with no pieces left: black has given everything away and wins.
    let s = ok(post(&srv, "/api/fen", json!({ "fen": "B:W46,47:B" })));
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(
        s["result"], "black wins: black has no legal move left (the aim is reversed)",
        "{s}"
    );
    // Play into it: either of White's steps gives its last man to a forced capture; after Black
    // takes it, White has no piece and wins.
    let s = ok(post(&srv, "/api/fen", json!({ "fen": "W:W32:B22" })));
    let mut legal = legal_texts(&s);
    legal.sort();
    assert_eq!(legal, ["32-27", "32-28"], "{s}");
    assert_eq!(s["over"], false, "{s}");
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["32-27"] })));
    assert_eq!(legal_texts(&s), ["22x31"], "{s}");
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["22x31"] })));
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(
        s["result"], "white wins: white has no legal move left (the aim is reversed)",
        "{s}"
    );
}
