//! The page's PDN as players use it: a Lidraughts game pasted into a Dameo page switches the board
//! to its `GameType`'s variant; comments, NAGs, clocks and evaluations reach the move list and the
//! export; moves are annotated from the page (comment, NAGs, `[%draw …]` shapes).

use super::web_api::{assert_error, get, ok, post, scratch, start, start_in};
use serde_json::{json, Value};

/// A game as Lidraughts exports it: `GameType`, clock commands, a NAG as a mark and as `$n`,
/// a variation with a comment of its own.
const LIDRAUGHTS: &str = r#"[Event "Casual game"]
[Site "https://lidraughts.org/abcdefgh"]
[White "alice"]
[Black "bob"]
[Result "*"]
[GameType "20"]

{opening} 1. 32-28 { [%clock W0:05:00 B0:05:00] } 19-23?! 2. 28x19 $2 { a loose piece } 14x23
(2... 13x24 { the other way [%eval -0.3] }) 3. 37-32 *
"#;

fn node_with(state: &Value, text: &str) -> Value {
    state["tree"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["text"] == text)
        .cloned()
        .unwrap_or_else(|| panic!("no move {text} in {}", state["tree"]))
}

#[test]
fn a_lidraughts_game_switches_a_dameo_page_and_keeps_its_annotations() {
    let srv = start("dameo");
    let s = ok(post(&srv, "/api/pdn/import", json!({ "text": LIDRAUGHTS })));
    assert_eq!(s["variant"]["name"], "international", "{}", s["variant"]);
    assert_eq!(s["pdn"]["switched"], true);
    assert_eq!(s["board"]["squares"].as_array().unwrap().len(), 50);
    assert_eq!(s["tree"]["nodes"][0]["comment"], "opening");
    let first = node_with(&s, "32-28");
    assert_eq!(first["clock"], "W0:05:00 B0:05:00");
    assert_eq!(first["comment"], "", "the clock is not text");
    assert_eq!(node_with(&s, "19-23")["nags"], json!([6]));
    let cap = node_with(&s, "28x19");
    assert_eq!(cap["nags"], json!([2]));
    assert_eq!(cap["comment"], "a loose piece");
    let var = node_with(&s, "13x24");
    assert_eq!(var["comment"], "the other way");
    assert_eq!(var["eval"], "-0.3");
    // The rules the page now edits are International's.
    let rules = ok(get(&srv, "/api/rules"));
    assert!(rules["text"].as_str().unwrap().contains("nternational"));
    let pdn = ok(get(&srv, "/api/pdn/export"))["pdn"]
        .as_str()
        .unwrap()
        .to_string();
    let words = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "[White \"alice\"]",
        "[GameType \"20\"]",
        "{opening} 1. 32-28 {[%clock W0:05:00 B0:05:00]} 1... 19-23?! 2. 28x19? {a loose piece} \
         2... 14x23 (2... 13x24 {the other way [%eval -0.3]}) 3. 37-32 *",
    ] {
        assert!(words.contains(want), "{want:?} not in\n{pdn}");
    }
    // Exported and imported again: the same annotations.
    let again = ok(post(&srv, "/api/pdn/import", json!({ "text": pdn })));
    assert_eq!(again["tree"]["nodes"], s["tree"]["nodes"]);
}

#[test]
fn several_games_are_listed_with_their_players_and_results() {
    let srv = start("international");
    let text = "[White \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n1. 32-28 2-0\n\n[Event \"x\"]\n1. 33-29 *\n";
    let s = ok(post(
        &srv,
        "/api/pdn/import",
        json!({ "text": text, "game": 1 }),
    ));
    let games = s["pdn"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["title"], "a - b");
    assert_eq!(games[0]["result"], "2-0");
    assert_eq!(games[1]["title"], "x");
    assert_eq!(s["tree"]["nodes"][1]["text"], "33-29");
}

#[test]
fn games_of_variants_the_page_cannot_play_are_refused_in_words() {
    let root = scratch("pdn-refused");
    std::fs::write(root.join("secret.rules"), "not rules").unwrap();
    let srv = start_in("dameo", &root);
    let r = post(
        &srv,
        "/api/pdn/import",
        json!({ "text": "[GameType \"28\"]\n1. 22-17 *" }),
    );
    assert_error(&r, 422);
    assert!(r.body.contains("Portuguese"), "{}", r.body);
    // A tag naming a rules file is not read from disk by the page.
    for tag in [
        "[Rules \"/etc/passwd 0123456789abcdef\"]",
        "[Variant \"secret.rules\"]",
    ] {
        let r = post(
            &srv,
            "/api/pdn/import",
            json!({ "text": format!("{tag}\n1. 32-28 *") }),
        );
        assert_error(&r, 422);
        assert!(r.body.contains("not a bundled variant"), "{}", r.body);
    }
    // Damelab's own `Rules` tag of a bundled variant switches the board.
    let s = ok(post(
        &srv,
        "/api/pdn/import",
        json!({ "text": "[Rules \"frisian\"]\n1. 32-28 *" }),
    ));
    assert_eq!(s["variant"]["name"], "frisian");
}

#[test]
fn moves_are_annotated_from_the_page() {
    let srv = start("international");
    let s = ok(post(
        &srv,
        "/api/play",
        json!({ "moves": ["32-28", "19-23"] }),
    ));
    let node = s["tree"]["current"].as_u64().unwrap();
    let s = ok(post(
        &srv,
        "/api/annotate",
        json!({ "node": node, "comment": "active", "nags": [5],
                "shapes": [{ "from": "28", "to": "19", "colour": "red" }, { "from": "23", "colour": "green" }] }),
    ));
    let n = &s["tree"]["nodes"][node as usize];
    assert_eq!(n["comment"], "active");
    assert_eq!(n["nags"], json!([5]));
    assert_eq!(n["shapes"].as_array().unwrap().len(), 2);
    let pdn = ok(get(&srv, "/api/pdn/export"))["pdn"]
        .as_str()
        .unwrap()
        .to_string();
    let words = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("19-23!? {[%draw arrow,28,19,red] [%draw circle,23,green] active}"),
        "{pdn}"
    );
    // The shapes replaced, the comment kept.
    let s = ok(post(
        &srv,
        "/api/annotate",
        json!({ "node": node, "shapes": [] }),
    ));
    assert_eq!(s["tree"]["nodes"][node as usize]["comment"], "active");
    assert!(!ok(get(&srv, "/api/pdn/export"))["pdn"]
        .as_str()
        .unwrap()
        .contains("%draw"));
    // Refused: a square off the board, a colour not offered, a node not in the game, too much.
    for body in [
        json!({ "node": node, "shapes": [{ "from": "51", "colour": "red" }] }),
        json!({ "node": node, "shapes": [{ "from": "28", "colour": "pink" }] }),
        json!({ "node": 999, "comment": "x" }),
        json!({ "node": node, "nags": [1, 2, 3, 4, 5, 6, 7, 8, 9] }),
    ] {
        assert_error(&post(&srv, "/api/annotate", body), 422);
    }
    assert_error(
        &post(
            &srv,
            "/api/annotate",
            json!({ "node": node, "comment": "x".repeat(5000) }),
        ),
        413,
    );
}
