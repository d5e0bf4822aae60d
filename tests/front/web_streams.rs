//! The web workbench's streams over real HTTP on 127.0.0.1: analysis as server-sent events, stop
//! and a client that goes away, the engine's move, probes, studies (self-play and endgame builds)
//! and every kind of board. Split from `web_api.rs`, whose server and request helpers it uses.

use super::web_api::{assert_error, get, ok, post, raw, scratch, start, start_in, Server, C1};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

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
pub(crate) fn events(srv: &Server, path: &str, until: &str, max_secs: u64) -> Vec<(String, Value)> {
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
