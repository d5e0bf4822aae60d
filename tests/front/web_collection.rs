//! A collection of PDN files from the page: the folders and files under the served folder listed,
//! searched by tags and by the position on the board, a result opened at its ply; every path that
//! would leave the served folder refused in words.

use super::web_api::{assert_error, ok, post, scratch, start_in};
use serde_json::{json, Value};
use std::path::Path;

/// Two files of international games: two games in the first, one (and an English one) in the
/// second. Only `alice - bob` and `dora - alice` pass through 32-28 19-23 28x19 (at ply 3).
const FIRST: &str = r#"[Event "Club 2019"]
[White "alice"]
[Black "bob"]
[Date "2019.05.04"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *

[Event "Club 2019"]
[White "carl"]
[Black "alice"]
[Date "2019.06.01"]
[Result "0-2"]
[GameType "20"]

1. 33-28 18-23 2. 39-33 12-18 *
"#;

const SECOND: &str = r#"[Event "Open 2021"]
[White "dora"]
[Black "alice"]
[Date "2021.01.10"]
[Result "1-1"]
[GameType "20"]

1. 34-30 19-23 2. 30-25 23-28 3. 32x23 *

[Event "Open 2021"]
[White "erik"]
[Black "fay"]
[Result "1-0"]
[GameType "21"]

1. 11-15 23-19 *
"#;

/// The same position as FIRST's first game after 28x19, reached by another order of moves.
const THIRD: &str = r#"[Event "Transposed"]
[White "gus"]
[Black "hal"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 *
"#;

fn collection() -> std::path::PathBuf {
    let root = scratch("collection");
    std::fs::create_dir_all(root.join("games/old")).unwrap();
    std::fs::write(root.join("games/first.pdn"), FIRST).unwrap();
    std::fs::write(root.join("games/second.PDN"), SECOND).unwrap();
    std::fs::write(root.join("games/notes.txt"), "not a game").unwrap();
    std::fs::write(root.join("games/old/third.pdn"), THIRD).unwrap();
    root
}

fn titles(r: &Value) -> Vec<String> {
    r["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["title"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn folders_and_pdn_files_are_listed() {
    let root = collection();
    let srv = start_in("international", &root);
    let top = ok(post(&srv, "/api/collection/list", json!({})));
    assert_eq!(top["folders"], json!(["games"]), "{top}");
    assert_eq!(top["parent"], Value::Null);
    let games = ok(post(
        &srv,
        "/api/collection/list",
        json!({ "path": "games" }),
    ));
    assert_eq!(games["folders"], json!(["games/old"]), "{games}");
    let files: Vec<&str> = games["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["games/first.pdn", "games/second.PDN"], "{games}");
    assert_eq!(games["parent"], "");
}

#[test]
fn a_two_file_collection_is_searched_by_tags() {
    let root = collection();
    let srv = start_in("international", &root);
    let search = |q: Value| ok(post(&srv, "/api/collection/search", q));
    let all = search(json!({ "path": "games" }));
    assert_eq!(all["files"], 2);
    assert_eq!(all["games"], 4);
    let alice = search(json!({ "path": "games", "player": "ALICE" }));
    assert_eq!(
        titles(&alice),
        [
            "alice - bob (Club 2019)",
            "carl - alice (Club 2019)",
            "dora - alice (Open 2021)"
        ]
    );
    let white = search(json!({ "path": "games", "white": "alice" }));
    assert_eq!(titles(&white), ["alice - bob (Club 2019)"]);
    let black_2021 = search(json!({ "path": "games", "black": "alice", "date": "2021" }));
    assert_eq!(titles(&black_2021), ["dora - alice (Open 2021)"]);
    let draws = search(json!({ "path": "games", "result": "1-1" }));
    assert_eq!(titles(&draws), ["dora - alice (Open 2021)"]);
    let english = search(json!({ "path": "games", "variant": "english" }));
    assert_eq!(titles(&english), ["erik - fay (Open 2021)"]);
    assert_eq!(english["results"][0]["file"], "games/second.PDN");
    let event = search(json!({ "path": "games/first.pdn", "event": "club" }));
    assert_eq!(event["files"], 1);
    assert_eq!(titles(&event).len(), 2);
}

#[test]
fn a_collection_is_searched_by_the_position_on_the_board_and_a_result_opens_there() {
    let root = collection();
    let srv = start_in("dameo", &root);
    // On a Dameo board, no international game passes through the start.
    let none = ok(post(
        &srv,
        "/api/collection/search",
        json!({ "path": "games", "position": true }),
    ));
    assert_eq!(titles(&none), Vec::<String>::new(), "{none}");
    ok(post(
        &srv,
        "/api/variant",
        json!({ "name": "international" }),
    ));
    ok(post(
        &srv,
        "/api/play",
        json!({ "moves": ["32-28", "19-23", "28x19"] }),
    ));
    let hits = ok(post(
        &srv,
        "/api/collection/search",
        json!({ "path": "", "position": true }),
    ));
    // The folder searched is the served one: no .pdn files of its own.
    assert_eq!(hits["files"], 0);
    let hits = ok(post(
        &srv,
        "/api/collection/search",
        json!({ "path": "games", "position": true }),
    ));
    assert_eq!(titles(&hits), ["alice - bob (Club 2019)"], "{hits}");
    assert_eq!(hits["results"][0]["ply"], 3);
    let old = ok(post(
        &srv,
        "/api/collection/search",
        json!({ "path": "games/old", "position": true, "white": "gus" }),
    ));
    assert_eq!(old["results"][0]["ply"], 3, "{old}");
    // The start position: every international game of the folder passes through it, at ply 0.
    ok(post(&srv, "/api/new", json!({})));
    let start = ok(post(
        &srv,
        "/api/collection/search",
        json!({ "path": "games", "position": true }),
    ));
    assert_eq!(titles(&start).len(), 3, "{start}");
    // Opened at the ply found: the board shows the position after 28x19, the game's tags kept.
    let s = ok(post(
        &srv,
        "/api/collection/open",
        json!({ "path": "games/first.pdn", "game": 0, "ply": 3 }),
    ));
    assert_eq!(s["last"]["text"], "28x19", "{}", s["last"]);
    assert_eq!(s["pdn"]["file"], "games/first.pdn");
    assert_eq!(s["pdn"]["games"].as_array().unwrap().len(), 2);
    let exported = ok(super::web_api::get(&srv, "/api/pdn/export"));
    assert!(exported["pdn"].as_str().unwrap().contains("alice"));
    // An English game switches the board, as an import does.
    let s = ok(post(
        &srv,
        "/api/collection/open",
        json!({ "path": "games/second.PDN", "game": 1 }),
    ));
    assert_eq!(s["variant"]["name"], "english");
}

fn refused(srv: &super::web_api::Server, endpoint: &str, body: Value, status: u16, words: &str) {
    let r = post(srv, endpoint, body.clone());
    assert_error(&r, status);
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(e.contains(words), "{endpoint} {body}: {e}");
}

#[test]
fn paths_out_of_the_served_folder_are_refused_in_words() {
    let root = collection();
    let outside = scratch("collection-outside");
    std::fs::write(outside.join("secret.pdn"), FIRST).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, root.join("games/link")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.pdn"), root.join("games/s.pdn")).unwrap();
    }
    let srv = start_in("international", &root);
    let abs = outside.join("secret.pdn").display().to_string();
    for ep in [
        "/api/collection/list",
        "/api/collection/search",
        "/api/collection/open",
    ] {
        let body = |p: &str| match ep {
            "/api/collection/open" => json!({ "path": p, "game": 0 }),
            _ => json!({ "path": p }),
        };
        refused(&srv, ep, body("../"), 403, "without `..`");
        refused(&srv, ep, body("games/../../x.pdn"), 403, "without `..`");
        refused(&srv, ep, body(&abs), 403, "without `..`");
        refused(&srv, ep, body("/etc"), 403, "without `..`");
        refused(&srv, ep, body("games\\first.pdn"), 403, "only `/`");
        refused(&srv, ep, body(&"a/".repeat(600)), 400, "more than 1024");
        #[cfg(unix)]
        {
            refused(&srv, ep, body("games/link"), 403, "symbolic link");
            refused(
                &srv,
                ep,
                body("games/link/secret.pdn"),
                403,
                "symbolic link",
            );
            refused(&srv, ep, body("games/s.pdn"), 403, "symbolic link");
        }
    }
    refused(
        &srv,
        "/api/collection/list",
        json!({ "path": "games/first.pdn" }),
        400,
        "not a folder",
    );
    refused(
        &srv,
        "/api/collection/search",
        json!({ "path": "games/notes.txt" }),
        400,
        "neither a folder nor a .pdn file",
    );
    refused(
        &srv,
        "/api/collection/open",
        json!({ "path": "games/notes.txt", "game": 0 }),
        400,
        "not a .pdn file",
    );
    refused(
        &srv,
        "/api/collection/open",
        json!({ "path": "games/missing.pdn", "game": 0 }),
        404,
        "cannot read",
    );
    refused(
        &srv,
        "/api/collection/open",
        json!({ "path": "games/first.pdn", "game": 9 }),
        422,
        "no game 10",
    );
    // The listing never shows the links.
    let games = ok(post(
        &srv,
        "/api/collection/list",
        json!({ "path": "games" }),
    ));
    assert!(!games.to_string().contains("link"), "{games}");
    assert!(!games.to_string().contains("s.pdn"), "{games}");
    assert!(Path::new(&abs).exists());
}
