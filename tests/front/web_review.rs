//! Game review from the page: every position of the main line searched in turn, streamed for the
//! graph, the moves that lost ground marked with NAGs and the better move, all in the exported
//! PDN; one review (or study) at a time, stoppable, refused past its size limit.

use super::web_api::{assert_error, get, ok, post, start};
use super::web_streams::events;
use serde_json::json;

/// Black gives a man away on its last move (`22-27`: White takes it for nothing).
const BLUNDER: &str = "[FEN \"W:W37,38,47:B13,17,22\"]\n1. 37-31 13-18 2. 47-41 22-27 *";

#[test]
fn a_review_draws_the_graph_and_marks_the_blunder() {
    let srv = start("international");
    ok(post(&srv, "/api/pdn/import", json!({ "text": BLUNDER })));
    let r = ok(post(&srv, "/api/review", json!({ "seconds": 0.1 })));
    assert_eq!(r["plies"], 4);
    // One review at a time on a server.
    assert_error(&post(&srv, "/api/review", json!({})), 409);
    let evs = events(&srv, r["stream"].as_str().unwrap(), "done", 60);
    let progress = evs.iter().filter(|(n, _)| n == "progress").count();
    assert_eq!(progress, 5, "one event a position: {evs:?}");
    let (_, done) = evs.iter().find(|(n, _)| n == "done").expect("done");
    assert_eq!(done["stopped"], false);
    assert_eq!(done["evals"].as_array().unwrap().len(), 5);
    let marks = done["marks"].as_array().unwrap();
    let last = marks.last().expect("a mark");
    assert_eq!(last["nag"], 4, "22-27 gives a man away: {marks:?}");
    let pdn = ok(get(&srv, "/api/pdn/export"))["pdn"]
        .as_str()
        .unwrap()
        .to_string();
    let words = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("22-27??"), "{pdn}");
    assert!(words.contains("was best}"), "{pdn}");
    assert!(words.contains("[%eval "), "{pdn}");
    // Reviewed again: the marks are replaced, not doubled.
    let r = ok(post(&srv, "/api/review", json!({ "seconds": 0.05 })));
    events(&srv, r["stream"].as_str().unwrap(), "done", 60);
    let again = ok(get(&srv, "/api/pdn/export"))["pdn"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(again.matches("was best").count() <= 4, "{again}");
    assert!(!again.contains("was best was best"), "{again}");
    assert_eq!(again.matches("[%eval").count(), 4, "{again}");
}

#[test]
fn a_review_is_bounded_and_stoppable() {
    let srv = start("international");
    assert_error(&post(&srv, "/api/review", json!({})), 422);
    ok(post(
        &srv,
        "/api/play",
        json!({ "moves": ["32-28", "19-23"] }),
    ));
    for secs in [0.0, 6.0, f64::NAN] {
        let body = format!(
            "{{\"seconds\": {}}}",
            if secs.is_nan() {
                "-1".into()
            } else {
                secs.to_string()
            }
        );
        let r = super::web_api::request(
            &srv,
            "POST",
            "/api/review",
            super::web_api::C1,
            &[],
            Some(&body),
        );
        assert_error(&r, 422);
    }
    let r = ok(post(&srv, "/api/review", json!({ "seconds": 5.0 })));
    ok(post(&srv, "/api/study/stop", json!({})));
    let evs = events(&srv, r["stream"].as_str().unwrap(), "done", 30);
    let (_, done) = evs.iter().find(|(n, _)| n == "done").expect("done");
    assert_eq!(done["stopped"], true, "{done}");
}
