//! The page's analysis as players expect it: several lines at once (multi-PV), each with its
//! score, and the depth, nodes, speed and time of the search.

use super::web_api::{assert_error, ok, post, start};
use super::web_streams::events;
use serde_json::json;

#[test]
fn an_analysis_shows_several_lines_with_its_figures() {
    let srv = start("international");
    let r = ok(post(
        &srv,
        "/api/analyse",
        json!({ "seconds": 1.0, "lines": 3 }),
    ));
    let evs = events(&srv, r["stream"].as_str().unwrap(), "done", 30);
    let infos: Vec<_> = evs.iter().filter(|(n, _)| n == "info").collect();
    assert!(!infos.is_empty(), "{evs:?}");
    let (_, last) = infos[infos.len() - 1];
    let lines = last["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{last}");
    // Different first moves, best first.
    let firsts: Vec<_> = lines.iter().map(|l| l["pv"][0]["text"].clone()).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2],
        "{firsts:?}"
    );
    let evals: Vec<f64> = lines.iter().map(|l| l["eval"].as_f64().unwrap()).collect();
    assert!(evals[0] >= evals[1] && evals[1] >= evals[2], "{evals:?}");
    for k in ["depth", "nodes", "ms", "nps"] {
        assert!(last[k].as_u64().is_some(), "{k} in {last}");
    }
    let (_, done) = evs.iter().find(|(n, _)| n == "done").unwrap();
    assert_eq!(done["best"]["text"], lines[0]["pv"][0]["text"]);
    for bad in [0, 6] {
        assert_error(&post(&srv, "/api/analyse", json!({ "lines": bad })), 422);
    }
}

#[test]
fn one_line_analysis_sends_speed_too() {
    let srv = start("dameo");
    let r = ok(post(&srv, "/api/analyse", json!({ "seconds": 0.3 })));
    let evs = events(&srv, r["stream"].as_str().unwrap(), "done", 30);
    let (_, info) = evs.iter().find(|(n, _)| n == "info").expect("info");
    assert!(info["nps"].as_u64().is_some(), "{info}");
}
