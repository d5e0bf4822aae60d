//! Issue 49, "never down": one `damelab serve` process (the binary, with a home and a cache of its
//! own) under a barrage of hostile requests from many connections at once — bodies over the
//! limit, PDN variations nested thousands deep, parentheses 100,000 deep, rules files with huge
//! boards, more engine searches than the server runs, malformed JSON, path traversal — while a
//! second client plays its game. Every hostile request gets an answer (a status, JSON), the second
//! client's every request is answered in time, its game is intact, and the server is still up.

use crate::front::web_api::Reply;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::Child;
use std::time::{Duration, Instant};

/// `damelab serve VARIANT --port 0` in a folder of its own; killed when dropped.
struct Served {
    addr: SocketAddr,
    child: Child,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    fn start(variant: &str) -> Served {
        let root = crate::common::scratch("web_hostile", variant);
        let (child, addr) = crate::common::serve_child(
            crate::common::bin()
                .args(["serve", variant, "--port", "0"])
                .current_dir(&root),
        );
        Served { addr, child }
    }

    fn up(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// One request (`Connection: close`) as `client`, with a JSON (or any) body.
fn req(addr: SocketAddr, method: &str, path: &str, client: &str, body: Option<&[u8]>) -> Reply {
    let mut r = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nX-Damelab-Client: {client}\r\n",
        addr.port()
    )
    .into_bytes();
    if let Some(b) = body {
        r.extend(
            format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            )
            .bytes(),
        );
    }
    r.extend(b"\r\n");
    if let Some(b) = body {
        r.extend(b);
    }
    send(addr, &r)
}

/// Send a request and read the answer to the end (at most 30 s). A body over the limit is
/// answered (413) and the connection closed before it is all sent: the answer is read all the
/// same.
fn send(addr: SocketAddr, request: &[u8]) -> Reply {
    crate::front::web_api::raw_within(addr, request, 30)
}

fn post(addr: SocketAddr, path: &str, client: &str, body: &Value) -> Reply {
    req(
        addr,
        "POST",
        path,
        client,
        Some(body.to_string().as_bytes()),
    )
}

/// The hostile requests: a name, a method, a path and a body each.
fn hostile() -> Vec<(&'static str, &'static str, &'static str, Vec<u8>)> {
    let nest = |n: usize| format!("1. 32-28 {}32-28{} *", "(32-28 ".repeat(n), ")".repeat(n));
    let parens = format!("{}32-28{} *", "(".repeat(100_000), ")".repeat(100_000));
    let many_games = "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n".repeat(15_000);
    let huge_board =
        "variant \"Huge\"\nboard 5000x5000, all squares, algebraic\nsides white \"W\", \
                      black \"B\"; white moves first\npiece man \"M\"\nsetup white man a1..zz99\n\
                      man: step forward\n";
    let wide = {
        let mut t = String::from(
            "variant \"Wide\"\nboard 16x16, all squares, algebraic\nsides white \"W\", black \"B\"; \
             white moves first\npiece man \"M\"\npiece king \"K\"\n",
        );
        for r in 1..=16 {
            t.push_str(&format!("setup white man a{r}..p{r}\n"));
        }
        t.push_str(
            "man: step all\n      capture jump all\nking: step all\n      capture jump all\n",
        );
        t
    };
    let mut v: Vec<(&str, &str, &str, Vec<u8>)> = vec![
        ("huge body", "POST", "/api/pdn/import", vec![b'x'; 5 << 20]),
        (
            "nested variations",
            "POST",
            "/api/pdn/import",
            json!({ "text": nest(5_000) }).to_string().into_bytes(),
        ),
        (
            "parentheses",
            "POST",
            "/api/pdn/import",
            json!({ "text": parens }).to_string().into_bytes(),
        ),
        (
            "many games",
            "POST",
            "/api/pdn/import",
            json!({ "text": many_games, "game": 14_999 })
                .to_string()
                .into_bytes(),
        ),
        (
            "huge board",
            "POST",
            "/api/rules/check",
            json!({ "text": huge_board }).to_string().into_bytes(),
        ),
        (
            "huge board applied",
            "POST",
            "/api/rules/apply",
            json!({ "text": huge_board }).to_string().into_bytes(),
        ),
        (
            "full 16x16 board",
            "POST",
            "/api/rules/apply",
            json!({ "text": wide }).to_string().into_bytes(),
        ),
        (
            "malformed JSON",
            "POST",
            "/api/play",
            b"{\"moves\": [".to_vec(),
        ),
        (
            "not UTF-8",
            "POST",
            "/api/fen",
            b"{\"fen\": \"\xff\xfe\"}".to_vec(),
        ),
        (
            "wrong types",
            "POST",
            "/api/play",
            br#"{"moves": 3, "node": "x"}"#.to_vec(),
        ),
        (
            "deep JSON",
            "POST",
            "/api/fen",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes(),
        ),
        (
            "traversal",
            "POST",
            "/api/variant",
            br#"{"name": "../../../../etc/passwd"}"#.to_vec(),
        ),
        (
            "absolute path",
            "POST",
            "/api/variant",
            br#"{"name": "/etc/hostname.rules"}"#.to_vec(),
        ),
        (
            "save outside",
            "POST",
            "/api/rules/save",
            br#"{"text": "x", "path": "../escape.rules"}"#.to_vec(),
        ),
        (
            "traversal in the path",
            "GET",
            "/api/../../etc/passwd",
            Vec::new(),
        ),
    ];
    for _ in 0..10 {
        v.push((
            "engine",
            "POST",
            "/api/engine/move",
            br#"{"seconds": 2.0}"#.to_vec(),
        ));
    }
    v
}

#[test]
fn hostile_requests_leave_another_clients_game_intact() {
    let mut srv = Served::start("international");
    let addr = srv.addr;
    let friend = "client-friend-0001";
    // The friend's game before the barrage: two moves.
    let r = post(
        addr,
        "/api/play",
        friend,
        &json!({ "moves": ["32-28", "19-23"] }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let before = r.json();
    let fen = before["fen"].as_str().expect("a FEN").to_string();
    // Every hostile request on a connection of its own, all at once, each from its own client.
    let barrage: Vec<_> = hostile()
        .into_iter()
        .enumerate()
        .map(|(i, (name, method, path, body))| {
            std::thread::spawn(move || {
                let client = format!("client-hostile-{i:04}");
                let body = (method == "POST").then_some(body);
                let r = req(addr, method, path, &client, body.as_deref());
                (name, r)
            })
        })
        .collect();
    // Meanwhile the friend looks at the board and plays, every answer in time.
    let slowest = Duration::from_secs(5);
    let mut worst = Duration::ZERO;
    for _ in 0..10 {
        let t = Instant::now();
        let r = req(addr, "GET", "/api/state", friend, None);
        worst = worst.max(t.elapsed());
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["fen"], fen.as_str(), "the friend's game changed");
        let t = Instant::now();
        let r = post(addr, "/api/play", friend, &json!({ "moves": ["28x19"] }));
        assert_eq!(r.status, 200, "{}", r.body);
        let r = post(addr, "/api/undo", friend, &json!({}));
        worst = worst.max(t.elapsed());
        assert_eq!(r.status, 200, "{}", r.body);
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut engines = (0, 0);
    for b in barrage {
        let (name, r) = b.join().expect("a request thread");
        assert!(
            r.status >= 200,
            "`{name}`: no answer (the connection dropped): {}",
            r.head
        );
        if r.status >= 400 {
            let v: Value = serde_json::from_str(&r.body).unwrap_or_else(|e| {
                panic!("`{name}`: {} without JSON ({e}): {}", r.status, r.body)
            });
            assert!(
                v["error"].as_str().is_some_and(|e| !e.is_empty()),
                "`{name}`: {v}"
            );
        }
        match name {
            "huge body" => assert_eq!(r.status, 413, "{}", r.body),
            "malformed JSON" | "not UTF-8" | "wrong types" | "deep JSON" => {
                assert!((400..500).contains(&r.status), "`{name}`: {}", r.body)
            }
            "traversal" | "absolute path" | "save outside" => {
                assert!((400..500).contains(&r.status), "`{name}`: {}", r.body)
            }
            "huge board" => assert!(r.body.contains("\"ok\":false"), "{}", r.body),
            "huge board applied" => assert_eq!(r.status, 422, "{}", r.body),
            "engine" if r.status == 200 => engines.0 += 1,
            "engine" => {
                assert_eq!(r.status, 503, "{}", r.body);
                engines.1 += 1;
            }
            _ => assert!(r.status < 500, "`{name}`: {} {}", r.status, r.body),
        }
    }
    assert!(engines.0 >= 1 && engines.1 >= 1, "{engines:?}");
    assert!(worst < slowest, "the friend waited {worst:?}");
    // After it all: the server is up and the friend's game is the one it was.
    assert!(srv.up(), "the server died");
    let r = req(addr, "GET", "/api/state", friend, None);
    assert_eq!(r.status, 200, "{}", r.body);
    let after = r.json();
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["tree"]["path"], before["tree"]["path"]);
    let r = req(addr, "GET", "/api/pdn/export", friend, None);
    assert!(
        r.json()["pdn"].as_str().unwrap().contains("1. 32-28 19-23"),
        "{}",
        r.body
    );
}
