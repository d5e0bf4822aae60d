//! The web workbench's API over real HTTP on 127.0.0.1: every endpoint (legal moves, play, undo,
//! FEN, PDN, check, analyse, cancel, studies), and the security rules (foreign `Origin`, wrong
//! `Host`, path traversal, symlinks, oversized bodies, malformed requests, per-client games).
//! Every request loop is bounded in count and time.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
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
fn scratch(name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("damelab-web-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn start_in(variant: &str, root: &Path) -> Server {
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
    };
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (atx, arx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            damelab::web::serve(opts, move |a| atx.send(a).unwrap(), async move {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
    });
    let addr = arx
        .recv_timeout(Duration::from_secs(10))
        .expect("server up");
    Server {
        addr,
        stop: Some(tx),
        thread: Some(thread),
    }
}

fn start(variant: &str) -> Server {
    start_in(variant, &scratch(&format!("root-{variant}")))
}

struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }
}

/// One HTTP/1.1 request with `Connection: close`, read to the end (at most 10 s).
fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).unwrap();
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

fn request(
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

const C1: &str = "client-one-0001";
const C2: &str = "client-two-0002";

fn get(srv: &Server, path: &str) -> Reply {
    request(srv, "GET", path, C1, &[], None)
}

fn post(srv: &Server, path: &str, body: Value) -> Reply {
    request(srv, "POST", path, C1, &[], Some(&body.to_string()))
}

fn ok(r: Reply) -> Value {
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

fn legal_texts(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

/// A JSON error with a message and a help line.
fn assert_error(r: &Reply, status: u16) {
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

/// The body of a chunked HTTP response, as far as it came.
fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let len = std::str::from_utf8(&b[..eol])
            .ok()
            .and_then(|l| usize::from_str_radix(l.trim(), 16).ok());
        let Some(len) = len.filter(|&n| n > 0) else {
            break;
        };
        let rest = &b[eol + 2..];
        let n = len.min(rest.len());
        out.extend_from_slice(&rest[..n]);
        if rest.len() < len + 2 {
            break;
        }
        b = &rest[len + 2..];
    }
    out
}

/// Read an event stream until the server ends it (or, for `until` other than the last event
/// `done`, until that event comes), at most `max_secs`; the events' names and data.
fn events(srv: &Server, path: &str, until: &str, max_secs: u64) -> Vec<(String, Value)> {
    let mut s = TcpStream::connect(srv.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let r = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        srv.addr.port()
    );
    s.write_all(r.as_bytes()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(max_secs);
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    while Instant::now() < deadline {
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => {}
        }
        if until != "done" && String::from_utf8_lossy(&buf).contains(&format!("event: {until}")) {
            break;
        }
    }
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(buf.len(), |i| i + 4);
    let text = String::from_utf8_lossy(&dechunk(&buf[split..])).into_owned();
    let mut out = Vec::new();
    let mut name = String::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            if let Ok(v) = serde_json::from_str(d.trim()) {
                out.push((name.clone(), v));
            }
        }
    }
    out
}

#[test]
fn analysis_streams_depth_lines_and_ends() {
    let srv = start("international");
    let r = ok(post(
        &srv,
        "/api/analyse",
        json!({ "seconds": 20, "depth": 4 }),
    ));
    let path = r["stream"].as_str().unwrap().to_string();
    let ev = events(&srv, &path, "done", 20);
    let infos: Vec<&Value> = ev
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(infos.len(), 4, "{ev:?}");
    assert!(infos[3]["pv"][0]["route"].is_array());
    let done = &ev.iter().find(|(n, _)| n == "done").unwrap().1;
    assert!(done["best"]["text"].is_string());
    // A stream opens once.
    assert_error(&get(&srv, &path), 404);
}

#[test]
fn stop_cancels_a_running_analysis() {
    let srv = start("international");
    let r = ok(post(&srv, "/api/analyse", json!({ "seconds": 50 })));
    let path = r["stream"].as_str().unwrap().to_string();
    let t = Instant::now();
    let stopper = {
        let addr = srv.addr;
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(700));
            let b = "{}";
            raw(
                addr,
                format!(
                    "POST /api/stop HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nX-Damelab-Client: {C1}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
                    addr.port(),
                    b.len()
                )
                .as_bytes(),
            )
        })
    };
    let ev = events(&srv, &path, "done", 20);
    assert_eq!(stopper.join().unwrap().status, 200);
    let done = &ev
        .iter()
        .find(|(n, _)| n == "done")
        .expect("a done event")
        .1;
    assert_eq!(done["stopped"], true);
    assert!(
        t.elapsed() < Duration::from_secs(15),
        "stopped long before its 50 s"
    );
}

#[test]
fn a_client_that_goes_away_stops_its_search() {
    let srv = start("international");
    let r = ok(post(&srv, "/api/analyse", json!({ "seconds": 50 })));
    let path = r["stream"].as_str().unwrap().to_string();
    let mut s = TcpStream::connect(srv.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let r = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        srv.addr.port()
    );
    s.write_all(r.as_bytes()).unwrap();
    let mut chunk = [0u8; 4096];
    let n = s.read(&mut chunk).unwrap();
    assert!(n > 0);
    assert_eq!(
        ok(get(&srv, "/api/state"))["thinking"],
        true,
        "searching while the page reads"
    );
    // The page goes away.
    drop(s);
    // The server notices within a few seconds and stops the search.
    let t = Instant::now();
    while ok(get(&srv, "/api/state"))["thinking"] == true {
        assert!(t.elapsed() < Duration::from_secs(10), "the search stopped");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn engine_move_probe_and_study() {
    let srv = start("turkish");
    let s = ok(post(
        &srv,
        "/api/engine/move",
        json!({ "seconds": 0.3, "depth": 3 }),
    ));
    assert_eq!(s["ply"], 1);
    ok(post(&srv, "/api/fen", json!({ "fen": "W:WKa1:Bh8" })));
    let p = ok(post(&srv, "/api/probe", json!({})));
    assert!(p["text"].as_str().unwrap().contains("K"), "{p}");
    let r = ok(post(&srv, "/api/study", json!({ "games": 2, "depth": 1 })));
    // One study at a time per server.
    assert_error(
        &post(&srv, "/api/study", json!({ "games": 2, "depth": 1 })),
        409,
    );
    let ev = events(&srv, r["stream"].as_str().unwrap(), "done", 60);
    assert!(ev.iter().any(|(n, _)| n == "progress"), "{ev:?}");
    let done = &ev.iter().find(|(n, _)| n == "done").expect("done").1;
    assert_eq!(done["games"], 2);
    assert!(done["svg"].as_str().unwrap().starts_with("<svg"));
    // Now another may start.
    let r = ok(post(&srv, "/api/study", json!({ "games": 1, "depth": 1 })));
    ok(post(&srv, "/api/study/stop", json!({})));
    let _ = events(&srv, r["stream"].as_str().unwrap(), "done", 30);
}

#[test]
fn endgame_build_with_progress_then_probe() {
    let root = scratch("endgame");
    let srv = start_in("russian", &root);
    // Refused: not a material, more than the page may build.
    assert_error(
        &post(&srv, "/api/endgame", json!({ "material": "Q v K" })),
        422,
    );
    let r = post(
        &srv,
        "/api/endgame",
        json!({ "material": "MMMMMM v MMMMMM" }),
    );
    assert_error(&r, 422);
    assert!(r.body.contains("damelab endgame"), "{}", r.body);
    assert_error(
        &post(&srv, "/api/endgame", json!({ "material": "K".repeat(300) })),
        422,
    );
    let r = ok(post(&srv, "/api/endgame", json!({ "material": "KK v K" })));
    assert!(r["tables"].as_u64().unwrap() >= 3, "{r}");
    // One study at a time: neither self-play nor another build while it runs.
    assert_error(&post(&srv, "/api/study", json!({ "games": 1 })), 409);
    assert_error(
        &post(&srv, "/api/endgame", json!({ "material": "K v K" })),
        409,
    );
    let ev = events(&srv, r["stream"].as_str().unwrap(), "done", 120);
    let progress: Vec<&Value> = ev
        .iter()
        .filter(|(n, _)| n == "progress")
        .map(|(_, v)| v)
        .collect();
    assert!(!progress.is_empty(), "{ev:?}");
    assert!(
        progress
            .iter()
            .all(|p| p["done"].as_u64() <= p["total"].as_u64()),
        "{progress:?}"
    );
    let done = &ev.iter().find(|(n, _)| n == "done").expect("done").1;
    assert_eq!(done["stopped"], false, "{done}");
    assert!(
        done["text"].as_str().unwrap().contains("tables: "),
        "{done}"
    );
    let files = std::fs::read_dir(root.join("tables")).map_or(0, |d| d.count());
    assert!(files >= 3, "the tables are in the cache ({files} files)");
    // The probe reads the table built (nothing to build now).
    ok(post(&srv, "/api/fen", json!({ "fen": "W:WKa1,Kc1:BKh8" })));
    let p = ok(post(&srv, "/api/probe", json!({})));
    let text = p["text"].as_str().unwrap();
    assert!(
        text.contains("KK v K: ") && !text.contains("building"),
        "{text}"
    );

    // Stopped from the page: a bigger build, stopped after its first progress.
    let r = ok(post(
        &srv,
        "/api/endgame",
        json!({ "material": "KKK v KM" }),
    ));
    let path = r["stream"].as_str().unwrap().to_string();
    let stopper = std::thread::spawn({
        let addr = srv.addr;
        move || {
            std::thread::sleep(Duration::from_millis(600));
            let srv = Server {
                addr,
                stop: None,
                thread: None,
            };
            ok(post(&srv, "/api/study/stop", json!({})));
        }
    });
    let ev = events(&srv, &path, "done", 60);
    stopper.join().unwrap();
    let done = &ev.iter().find(|(n, _)| n == "done").expect("done").1;
    assert_eq!(done["stopped"], true, "{done}");

    // Cancelled when the page goes away: the stream is dropped after its first progress, and
    // the server is free for another study within a few seconds.
    let r = ok(post(
        &srv,
        "/api/endgame",
        json!({ "material": "KKK v KM" }),
    ));
    let ev = events(&srv, r["stream"].as_str().unwrap(), "progress", 30);
    assert!(ev.iter().any(|(n, _)| n == "progress"), "{ev:?}");
    let t = Instant::now();
    loop {
        let r = post(&srv, "/api/study", json!({ "games": 1, "depth": 1 }));
        if r.status == 200 {
            let _ = events(&srv, r.json()["stream"].as_str().unwrap(), "done", 30);
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the build stopped: {}",
            r.body
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn every_kind_of_board() {
    for (variant, squares) in [
        ("dameo", 64),
        ("damone", 32),
        ("canadian", 72),
        ("examples/turkish-16x16.rules", 256),
        ("examples/international-14x14.rules", 98),
    ] {
        let srv = start(variant);
        let s = ok(get(&srv, "/api/state"));
        assert_eq!(
            s["board"]["squares"].as_array().unwrap().len(),
            squares,
            "{variant}"
        );
        let first = s["legal"][0]["text"].as_str().unwrap().to_string();
        let s = ok(post(&srv, "/api/play", json!({ "moves": [first] })));
        assert_eq!(s["ply"], 1, "{variant}");
    }
}
