//! The web workbench's API over real HTTP on 127.0.0.1: every endpoint (legal moves, play, undo,
//! FEN, PDN, check, analyse, cancel, studies), and the security rules (foreign `Origin`, wrong
//! `Host`, path traversal, symlinks, oversized bodies, malformed requests, per-client games).
//! Every request loop is bounded in count and time.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    pub(crate) stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub(crate) thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A fresh folder for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("damelab-web-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) fn start_in(variant: &str, root: &Path) -> Server {
    let v = damelab::Variant::load(variant).unwrap();
    let text = damelab::variants::bundled(variant)
        .map(str::to_string)
        .unwrap_or_else(|| std::fs::read_to_string(variant).unwrap());
    let opts = damelab::web::Options {
        variant: v,
        text,
        path: None,
        host: "127.0.0.1".into(),
        port: 0,
        root: root.to_path_buf(),
        cache: Some(root.join("tables")),
        engine: None,
    };
    let (addr, tx, thread) = crate::common::serve_in_thread(opts);
    Server {
        addr,
        stop: Some(tx),
        thread: Some(thread),
    }
}

pub(crate) fn start(variant: &str) -> Server {
    start_in(variant, &scratch(&format!("root-{variant}")))
}

pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) head: String,
    pub(crate) body: String,
}

impl Reply {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }
}

/// One HTTP/1.1 request with `Connection: close`, read to the end (at most 10 s).
pub(crate) fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    raw_within(addr, request, 10)
}

/// [`raw`], read for at most `secs`. A write that fails is not an error: a server that refuses a
/// body over its limit answers and closes before the body is all sent, and its answer is read
/// all the same.
pub(crate) fn raw_within(addr: SocketAddr, request: &[u8], secs: u64) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(secs))).unwrap();
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

pub(crate) fn request(
    srv: &Server,
    method: &str,
    path: &str,
    client: &str,
    extra: &[(&str, &str)],
    body: Option<&str>,
) -> Reply {
    let mut r = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nX-Damelab-Client: {client}\r\n",
        srv.addr.port()
    );
    for (k, v) in extra {
        r.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        r.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    r.push_str("\r\n");
    if let Some(b) = body {
        r.push_str(b);
    }
    raw(srv.addr, r.as_bytes())
}

pub(crate) const C1: &str = "client-one-0001";
const C2: &str = "client-two-0002";

pub(crate) fn get(srv: &Server, path: &str) -> Reply {
    request(srv, "GET", path, C1, &[], None)
}

pub(crate) fn post(srv: &Server, path: &str, body: Value) -> Reply {
    request(srv, "POST", path, C1, &[], Some(&body.to_string()))
}

pub(crate) fn ok(r: Reply) -> Value {
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

pub(crate) fn legal_texts(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

/// A JSON error with a message and a help line.
pub(crate) fn assert_error(r: &Reply, status: u16) {
    assert_eq!(r.status, status, "{} {}", r.head, r.body);
    let v = r.json();
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert!(v["help"].as_str().is_some(), "{v}");
}

#[test]
fn page_and_assets_are_served_from_the_binary() {
    let srv = start("dameo");
    let r = get(&srv, "/");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("id=\"board\""));
    assert!(r
        .head
        .to_ascii_lowercase()
        .contains("x-frame-options: deny"));
    assert!(get(&srv, "/app.js").body.contains("EventSource"));
    assert!(get(&srv, "/app.css").body.contains("#board"));
    assert!(get(&srv, "/review.js").body.contains("function drawGraph"));
}

#[test]
fn legal_moves_play_undo_redo_and_variations() {
    let srv = start("international");
    let s = ok(get(&srv, "/api/state"));
    assert_eq!(s["legal"].as_array().unwrap().len(), 9);
    assert_eq!(s["board"]["squares"].as_array().unwrap().len(), 50);
    assert_eq!(s["fen"], "W:W31-50:B1-20");
    let i = legal_texts(&s).iter().position(|t| t == "32-28").unwrap();
    let s = ok(post(&srv, "/api/play", json!({ "node": 0, "index": i })));
    assert_eq!(s["last"]["text"], "32-28");
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["19-23"] })));
    assert_eq!(legal_texts(&s), ["28x19"], "the capture is compulsory");
    // A refused move: 422 with the reason.
    let r = post(&srv, "/api/play", json!({ "moves": ["31-27"] }));
    assert_error(&r, 422);
    assert!(
        r.json()["error"].as_str().unwrap().contains("not legal"),
        "{}",
        r.body
    );
    // A stale node is a conflict, not a wrong move.
    assert_error(
        &post(&srv, "/api/play", json!({ "node": 0, "index": 0 })),
        409,
    );
    let s = ok(post(&srv, "/api/undo", json!({})));
    assert_eq!(s["ply"], 1);
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["18-23"] })));
    assert_eq!(
        s["tree"]["nodes"][1]["children"].as_array().unwrap().len(),
        2
    );
    let s = ok(post(&srv, "/api/goto", json!({ "node": 2 })));
    assert_eq!(s["last"]["text"], "19-23");
    let s = ok(post(&srv, "/api/undo", json!({})));
    let s2 = ok(post(&srv, "/api/redo", json!({})));
    assert_eq!(
        s2["tree"]["current"], 2,
        "redo goes back down the line left"
    );
    assert_eq!(s["ply"], 1);
    assert_error(&post(&srv, "/api/goto", json!({ "node": 999 })), 422);
    let e = ok(get(&srv, "/api/pdn/export"));
    let pdn = e["pdn"].as_str().unwrap();
    assert!(pdn.contains("1. 32-28 19-23 (1... 18-23)"), "{pdn}");
    assert!(pdn.contains("[GameType \"20\"]"), "{pdn}");
}

#[test]
fn fen_setup_and_explain() {
    let srv = start("turkish");
    let s = ok(post(
        &srv,
        "/api/fen",
        json!({ "fen": "W:Wb2,g2:Bb3,b5,Kg3" }),
    ));
    assert_eq!(legal_texts(&s), ["b2xb4xb6"]);
    let r = ok(post(&srv, "/api/explain", json!({ "text": "g2xg4" })));
    assert!(r["text"].as_str().unwrap().contains("priority"), "{r}");
    assert_error(&post(&srv, "/api/fen", json!({ "fen": "W:Wz9" })), 422);
    let long = "W:W".to_string() + &"a2,".repeat(3000);
    assert_error(&post(&srv, "/api/fen", json!({ "fen": long })), 413);
    // Set-up: a piece placed, the side to move changed, a bad square refused.
    let s = ok(post(&srv, "/api/setup", json!({ "clear": true })));
    assert_eq!(s["pieces"].as_array().unwrap().len(), 0);
    let sq = s["board"]["squares"][10]["sq"].as_u64().unwrap();
    let s = ok(post(
        &srv,
        "/api/setup",
        json!({ "sq": sq, "piece": [1, 1] }),
    ));
    assert_eq!(s["pieces"][0]["kind"], 1);
    let s = ok(post(&srv, "/api/setup", json!({ "turn": 1 })));
    assert_eq!(s["turn"], 1);
    assert_error(
        &post(&srv, "/api/setup", json!({ "sq": 250, "piece": [0, 0] })),
        422,
    );
    assert_error(
        &post(&srv, "/api/setup", json!({ "sq": sq, "piece": [0, 9] })),
        422,
    );
    let s = ok(post(&srv, "/api/new", json!({})));
    assert_eq!(s["legal"].as_array().unwrap().len(), 8);
}

#[test]
fn pdn_import_of_several_games() {
    let srv = start("international");
    let text = "[Event \"one\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n[Event \"two\"]\n1. 33-29 *\n";
    let s = ok(post(&srv, "/api/pdn/import", json!({ "text": text })));
    assert_eq!(s["pdn"]["games"].as_array().unwrap().len(), 2);
    assert_eq!(s["ply"], 4);
    let s = ok(post(
        &srv,
        "/api/pdn/import",
        json!({ "text": text, "game": 1 }),
    ));
    assert_eq!(s["last"]["text"], "33-29");
    let r = post(
        &srv,
        "/api/pdn/import",
        json!({ "text": "1. 32-28 32-28 *" }),
    );
    assert_error(&r, 422);
    assert!(
        r.json()["error"].as_str().unwrap().contains("move 2"),
        "{}",
        r.body
    );
    assert_error(
        &post(&srv, "/api/pdn/import", json!({ "text": text, "game": 5 })),
        422,
    );
}

#[test]
fn pdn_import_keeps_variations() {
    let srv = start("international");
    // A variation of Black's first move (with one of its own), and one of Black's recapture.
    let text = "[Event \"v\"]\n1. 32-28 19-23 (1... 18-23 2. 37-32 (2. 31-27) 12-18) \
                2. 28x19 14x23 (2... 13x24) *\n";
    let s = ok(post(&srv, "/api/pdn/import", json!({ "text": text })));
    assert_eq!(s["ply"], 4, "the main line's end");
    assert_eq!(s["last"]["text"], "14x23");
    let nodes = s["tree"]["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 1 + 4 + 3 + 1 + 1, "{nodes:?}");
    let text_of = |i: &Value| nodes[i.as_u64().unwrap() as usize]["text"].clone();
    let after_first = nodes[1]["children"].as_array().unwrap();
    assert_eq!(
        after_first.iter().map(text_of).collect::<Vec<_>>(),
        [json!("19-23"), json!("18-23")]
    );
    let var = &nodes[after_first[1].as_u64().unwrap() as usize];
    let replies: Vec<Value> = var["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(
        replies,
        [json!("37-32"), json!("31-27")],
        "the nested variation"
    );
    let recaptures = nodes[3]["children"].as_array().unwrap();
    assert_eq!(
        recaptures.iter().map(text_of).collect::<Vec<_>>(),
        [json!("14x23"), json!("13x24")]
    );
    // Out again, with the same variations.
    let pdn = ok(get(&srv, "/api/pdn/export"))["pdn"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        pdn.contains("(1... 18-23 2. 37-32 (2. 31-27) 2... 12-18)") && pdn.contains("(2... 13x24)"),
        "{pdn}"
    );
    // A variation that does not replay is cut where it stops, with a note.
    let bad = "1. 32-28 19-23 (1... 18-23 2. 28x19) *";
    let s = ok(post(&srv, "/api/pdn/import", json!({ "text": bad })));
    assert_eq!(s["tree"]["nodes"].as_array().unwrap().len(), 4);
    let notes = s["pdn"]["notes"].to_string();
    assert!(notes.contains("variation"), "{notes}");
}

#[test]
fn rules_check_apply_describe() {
    let srv = start("dameo");
    let r = ok(get(&srv, "/api/rules"));
    let text = r["text"].as_str().unwrap().to_string();
    assert!(r["describe"].as_str().unwrap().len() > 50);
    let c = ok(post(&srv, "/api/rules/check", json!({ "text": text })));
    assert_eq!(c["ok"], true);
    let line = text.lines().position(|l| l.contains("step")).unwrap() + 1;
    let bad = text.replacen("step", "stpe", 1);
    let c = ok(post(&srv, "/api/rules/check", json!({ "text": bad })));
    assert_eq!(c["ok"], false);
    let d = &c["diagnostics"][0];
    assert_eq!(d["line"].as_u64().unwrap() as usize, line, "{d}");
    assert!(d["help"].is_string() || d["label"].is_string(), "{d}");
    // Apply: a game of two moves stays under the same rules, stops under changed ones.
    ok(post(
        &srv,
        "/api/play",
        json!({ "moves": ["c3-c4", "c6-c5"] }),
    ));
    let a = ok(post(&srv, "/api/rules/apply", json!({ "text": text })));
    assert_eq!(a["applied"]["kept"], 2);
    assert!(a["applied"]["stopped"].is_null());
    assert_error(&post(&srv, "/api/rules/apply", json!({ "text": bad })), 422);
    let big = "#".repeat(300 * 1024);
    assert_error(&post(&srv, "/api/rules/check", json!({ "text": big })), 413);
}

#[test]
fn saving_stays_in_the_start_folder() {
    let root = scratch("save");
    let outside = scratch("outside");
    std::fs::write(outside.join("x.rules"), "variant \"x\"").unwrap();
    let srv = start_in("dameo", &root);
    let text = damelab::variants::bundled("dameo").unwrap();
    let r = ok(post(
        &srv,
        "/api/rules/save",
        json!({ "text": text, "path": "mine.rules" }),
    ));
    assert_eq!(r["saved"], "mine.rules");
    assert!(r["backup"].is_null());
    let r = ok(post(&srv, "/api/rules/save", json!({ "text": text })));
    assert_eq!(
        r["backup"], "mine.rules.bak",
        "saved where it came from, old file kept"
    );
    assert!(root.join("mine.rules.bak").exists());
    // Loading it back.
    let s = ok(post(&srv, "/api/variant", json!({ "name": "mine.rules" })));
    assert_eq!(s["variant"]["name"], "mine");
    for bad in [
        "../outside/x.rules",
        "/etc/passwd.rules",
        "sub/../../x.rules",
        "mine.txt",
    ] {
        assert_error(
            &post(
                &srv,
                "/api/rules/save",
                json!({ "text": text, "path": bad }),
            ),
            403,
        );
        assert_error(&post(&srv, "/api/variant", json!({ "name": bad })), 403);
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.join("x.rules"), root.join("link.rules")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("dir")).unwrap();
        assert_error(
            &post(&srv, "/api/variant", json!({ "name": "link.rules" })),
            403,
        );
        assert_error(
            &post(
                &srv,
                "/api/rules/save",
                json!({ "text": text, "path": "dir/y.rules" }),
            ),
            403,
        );
        assert!(!outside.join("y.rules").exists());
    }
    assert_error(
        &post(&srv, "/api/variant", json!({ "name": "none.rules" })),
        404,
    );
}

#[test]
fn foreign_origin_wrong_host_and_cross_site_are_refused() {
    let srv = start("dameo");
    let r = request(
        &srv,
        "POST",
        "/api/analyse",
        C1,
        &[("Origin", "http://evil.example")],
        Some("{}"),
    );
    assert_error(&r, 403);
    let r = request(
        &srv,
        "GET",
        "/api/state",
        C1,
        &[("Sec-Fetch-Site", "cross-site")],
        None,
    );
    assert_error(&r, 403);
    let port = srv.addr.port();
    let own = format!("http://localhost:{port}");
    let r = request(&srv, "GET", "/api/state", C1, &[("Origin", &own)], None);
    assert_eq!(r.status, 200, "the page's own origin, by name");
    // DNS rebinding: the right address, another name.
    let r = raw(
        srv.addr,
        format!("GET / HTTP/1.1\r\nHost: evil.example:{port}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_error(&r, 403);
    let r = raw(srv.addr, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert!(r.status >= 400 && r.status < 500, "no Host: {}", r.status);
}

#[test]
fn malformed_requests_get_json_errors() {
    let srv = start("dameo");
    assert_error(
        &request(&srv, "GET", "/api/state", "bad id!", &[], None),
        400,
    );
    assert_error(&request(&srv, "GET", "/api/state", "", &[], None), 400);
    assert_error(&post(&srv, "/api/play", json!({ "index": "x" })), 422);
    assert_error(
        &request(&srv, "POST", "/api/play", C1, &[], Some("{not json")),
        400,
    );
    assert_error(&post(&srv, "/api/play", json!({ "unknown": 1 })), 422);
    assert_error(&post(&srv, "/api/play", json!({})), 400);
    assert_error(&get(&srv, "/api/nothing"), 404);
    assert_error(&get(&srv, "/api/play"), 405);
    assert_error(&get(&srv, "/api/stream/0123"), 404);
    let r = request(
        &srv,
        "POST",
        "/api/play",
        C1,
        &[("Content-Type", "text/plain")],
        None,
    );
    assert!(r.status == 415 || r.status == 400, "{}", r.status);
    // Over the body limit: refused before it is read whole.
    let big = format!("{{\"text\": \"{}\"}}", "a".repeat(1 << 21));
    assert_error(
        &request(&srv, "POST", "/api/rules/check", C1, &[], Some(&big)),
        413,
    );
    assert_error(&post(&srv, "/api/analyse", json!({ "seconds": -1 })), 422);
    assert_error(&post(&srv, "/api/analyse", json!({ "seconds": 1e9 })), 422);
    assert_error(&post(&srv, "/api/study", json!({ "games": 100000 })), 422);
    // The server is still there.
    assert_eq!(get(&srv, "/api/state").status, 200);
}

#[test]
fn clients_keep_their_own_games() {
    let srv = start("dameo");
    ok(post(&srv, "/api/play", json!({ "moves": ["c3-c4"] })));
    let other = request(&srv, "GET", "/api/state", C2, &[], None).json();
    assert_eq!(other["ply"], 0);
    let mine = ok(get(&srv, "/api/state"));
    assert_eq!(mine["ply"], 1);
}

/// Issue 49, finding 1: 1,500 levels of nested variations pasted into the import overflowed the
/// server's stack. Now a 422 that names the bound, and the server goes on.
#[test]
fn pdn_import_of_deeply_nested_variations_is_refused() {
    let srv = start("international");
    let mut text = String::from("1. 32-28 ");
    text.push_str(&"(32-28 ".repeat(1_500));
    text.push_str(&")".repeat(1_500));
    text.push_str(" *\n");
    let r = post(&srv, "/api/pdn/import", json!({ "text": text }));
    assert_error(&r, 422);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("nest deeper than 64 levels"),
        "{}",
        r.body
    );
    // Within the bound: imported (each level plays the same move, so the tree has one), and the
    // server still answers.
    let mut text = String::from("1. 32-28 ");
    text.push_str(&"(32-28 ".repeat(64));
    text.push_str(&")".repeat(64));
    text.push_str(" *\n");
    let s = ok(post(&srv, "/api/pdn/import", json!({ "text": text })));
    assert_eq!(s["ply"], 1);
    let pdn = ok(get(&srv, "/api/pdn/export"));
    assert!(pdn["pdn"].as_str().unwrap().contains("32-28"), "{pdn}");
}

/// Issue 49, finding 4: the rules save followed symbolic links at `NAME.rules.bak` and
/// `NAME.rules.tmp` and hung on a FIFO named `NAME.rules`. Now it goes through `fsio`: links and
/// special files are refused with a 403 and nothing outside the folder changes.
#[cfg(unix)]
#[test]
fn saving_refuses_links_and_pipes_beside_the_file() {
    let root = scratch("save-links");
    let outside = scratch("save-links-outside");
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let srv = start_in("dameo", &root);
    let text = damelab::variants::bundled("dameo").unwrap();
    let save = |path: &str| {
        post(
            &srv,
            "/api/rules/save",
            json!({ "text": text, "path": path }),
        )
    };
    // A link at the backup's name: refused, the file it points to unchanged.
    std::fs::write(root.join("a.rules"), "old").unwrap();
    std::os::unix::fs::symlink(&victim, root.join("a.rules.bak")).unwrap();
    let r = save("a.rules");
    assert_error(&r, 403);
    assert!(r.body.contains("a.rules.bak"), "{}", r.body);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(
        std::fs::read_to_string(root.join("a.rules")).unwrap(),
        "old"
    );
    // A link at the old temporary's name is not used: the save works and leaves it alone.
    std::fs::write(root.join("b.rules"), "old").unwrap();
    std::os::unix::fs::symlink(&victim, root.join("b.rules.tmp")).unwrap();
    let r = ok(save("b.rules"));
    assert_eq!(r["backup"], "b.rules.bak");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(root.join("b.rules")).unwrap(), text);
    assert_eq!(
        std::fs::read_to_string(root.join("b.rules.bak")).unwrap(),
        "old"
    );
    // A FIFO as the file or as its backup: refused at once, not waited on.
    for (file, fifo) in [("c.rules", "c.rules"), ("d.rules", "d.rules.bak")] {
        if file != fifo {
            std::fs::write(root.join(file), "old").unwrap();
        }
        let made = std::process::Command::new("mkfifo")
            .arg(root.join(fifo))
            .status()
            .unwrap()
            .success();
        assert!(made, "mkfifo {fifo}");
        let t = std::time::Instant::now();
        let r = save(file);
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert_error(&r, 403);
        assert!(r.body.contains("not a regular file"), "{}", r.body);
    }
    // No temporary is left behind.
    let left: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") && n != "b.rules.tmp")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The server runs at most `MAX_SEARCHES` engine searches at once (every client's together): one
/// more is answered 503 at once, and a place is free again when a search ends.
#[test]
fn engine_searches_are_bounded() {
    use damelab::web::engine::MAX_SEARCHES;
    let srv = std::sync::Arc::new(start("international"));
    let body = json!({ "seconds": 3.0 }).to_string();
    let busy: Vec<_> = (0..MAX_SEARCHES)
        .map(|i| {
            let (srv, body) = (srv.clone(), body.clone());
            std::thread::spawn(move || {
                let client = format!("client-busy-{i:04}");
                request(&srv, "POST", "/api/engine/move", &client, &[], Some(&body))
            })
        })
        .collect();
    // Every place taken (each search thinks for three seconds): one more is refused at once.
    std::thread::sleep(std::time::Duration::from_millis(800));
    let t = std::time::Instant::now();
    let r = request(
        &srv,
        "POST",
        "/api/engine/move",
        "client-more-0001",
        &[],
        Some(&body),
    );
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.body.contains("its limit"), "{}", r.body);
    assert!(
        t.elapsed() < std::time::Duration::from_secs(1),
        "refused at once"
    );
    for b in busy {
        let r = b.join().expect("the request thread");
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // The places are free again.
    let quick = json!({ "seconds": 0.2 }).to_string();
    let r = request(
        &srv,
        "POST",
        "/api/engine/move",
        "client-more-0001",
        &[],
        Some(&quick),
    );
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A placement phase and a declared single combat through the page's API (issue 47): the drops
/// are the legal moves of Mraha wa Bwe's empty board and one is played by its text; a Dablot
/// position of two lone men offers the declaration, which the FEN then carries.
#[test]
fn drops_and_a_declaration_are_played_through_the_api() {
    let srv = start("mraha-wa-bwe");
    let s = ok(get(&srv, "/api/state"));
    let legal = legal_texts(&s);
    assert_eq!(legal.len(), 276, "{legal:?}");
    assert!(legal.iter().all(|t| t.starts_with('@')), "{legal:?}");
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["@b2,a1"] })));
    assert_eq!(s["fen"], "B:Wa1,b2:B:[W10,B12]", "{s}");

    let srv = start("dablot-prejjesne");
    let s = ok(post(&srv, "/api/fen", json!({ "fen": "W:Wc3:Bg9" })));
    assert!(legal_texts(&s).contains(&"@c3-d4".to_string()), "{s}");
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["@c3-d4"] })));
    assert_eq!(s["fen"], "B:Wd4:Bg9:combat", "{s}");
    let mut legal = legal_texts(&s);
    legal.sort();
    assert_eq!(legal, ["g9-e9", "g9-f8", "g9-g7"]);
}

#[test]
fn hands_and_a_combat_in_the_state_and_the_set_up() {
    let srv = start("mraha-wa-bwe");
    // The page's drops and hands have a script of their own, served like app.js.
    assert!(get(&srv, "/hand.js").body.contains("function dropClick"));
    let s = ok(get(&srv, "/api/state"));
    assert_eq!(s["hands"], json!([[12], [12]]));
    assert_eq!(s["combat"], Value::Null, "no combat rule: nothing said");
    let drop = &s["legal"][0];
    assert_eq!((&drop["drop"], &drop["kind"]), (&json!(true), &json!(0)));
    assert_eq!(drop["route"].as_array().map(Vec::len), Some(2), "{drop}");
    let s = ok(post(&srv, "/api/play", json!({ "moves": ["@a1,b2"] })));
    assert_eq!(s["hands"], json!([[10], [12]]));
    // The set-up counts the pieces in hand, keeps them when the board is cleared, and refuses
    // what the variant does not allow, saying why.
    let s = ok(post(&srv, "/api/setup", json!({ "hand": [1, 0, 5] })));
    assert_eq!(
        (&s["hands"], &s["fen"]),
        (&json!([[10], [5]]), &json!("B:Wa1,b2:B:[W10,B5]"))
    );
    let s = ok(post(&srv, "/api/setup", json!({ "clear": true })));
    assert_eq!(s["fen"], "B:W:B:[W10,B5]");
    let r = post(&srv, "/api/setup", json!({ "hand": [0, 0, 201] }));
    assert_error(&r, 422);
    assert!(
        r.json()["error"].as_str().unwrap().contains("200"),
        "{}",
        r.body
    );
    let r = post(&srv, "/api/setup", json!({ "combat": true }));
    assert_error(&r, 422);
    assert_eq!(r.json()["error"], "this variant has no single combat");

    let srv = start("international");
    let s = ok(get(&srv, "/api/state"));
    assert_eq!((&s["hands"], &s["combat"]), (&Value::Null, &Value::Null));
    assert!(s["legal"][0].get("drop").is_none(), "{}", s["legal"][0]);
    let r = post(&srv, "/api/setup", json!({ "hand": [0, 0, 1] }));
    assert_error(&r, 422);
    assert_eq!(r.json()["error"], "this variant has no pieces in hand");

    // Dablot: the declaration listed as one, the combat said in the state, kept by a set-up
    // that changes the side to move, taken off by the set-up's box, refused where it cannot be.
    let srv = start("dablot-prejjesne");
    let s = ok(get(&srv, "/api/state"));
    assert_eq!(s["combat"], json!({ "declared": false, "open": false }));
    let r = post(&srv, "/api/setup", json!({ "combat": true }));
    assert_error(&r, 422);
    assert_eq!(
        r.json()["error"],
        "no single combat can be declared in this position"
    );
    let s = ok(post(&srv, "/api/fen", json!({ "fen": "W:Wc3:Bg9" })));
    assert_eq!(s["combat"], json!({ "declared": false, "open": true }));
    let legal = s["legal"].as_array().unwrap();
    let declares: Vec<&Value> = legal.iter().filter(|m| m["declares"] == true).collect();
    assert!(
        declares.iter().any(|m| m["text"] == "@c3-d4"),
        "{declares:?}"
    );
    assert!(legal.iter().any(|m| m["text"] == "c3-d4"), "{legal:?}");
    let s = ok(post(&srv, "/api/setup", json!({ "combat": true })));
    assert_eq!(s["fen"], "W:Wc3:Bg9:combat");
    let s = ok(post(&srv, "/api/setup", json!({ "turn": 1 })));
    assert_eq!(
        (&s["fen"], &s["combat"]),
        (
            &json!("B:Wc3:Bg9:combat"),
            &json!({ "declared": true, "open": false })
        )
    );
    let s = ok(post(&srv, "/api/setup", json!({ "combat": false })));
    assert_eq!(s["fen"], "B:Wc3:Bg9");
}
