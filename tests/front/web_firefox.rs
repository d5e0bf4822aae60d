//! The web workbench in Firefox: there is no geckodriver package here, so the page tests itself.
//! Headless Firefox opens `/?selftest=1`; the page loads `selftest.js`, plays a scripted
//! sequence through its own handlers (clicks on the board, a capture, undo and redo, a typed
//! move, a PDN import with a variation, a rules mistake and its diagnostic, an analysis and its
//! arrow) and posts the result to the server, which this test reads. `/?selftest=hand` plays
//! Mraha wa Bwe's first drop and Dablot Prejjesne's declaration of a single combat by clicks.
//!
//! Skips (with the reason printed) when Firefox is not installed. Firefox takes 7–13 s to start
//! on a fresh profile, so a plain `cargo test` leaves it out; `.ci/run` runs it in release:
//! `cargo test --release --test it -- --include-ignored web_firefox::`.

use crate::front::web_browser::{find, http, serve_variant};
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Headless Firefox on `/?selftest=WHICH` of a server on `variant`: the self-test's result, its
/// steps printed; `None` (the reason printed) when Firefox is not installed.
fn selftest(variant: &str, which: &str) -> Option<Value> {
    let Some(firefox) = find(&["firefox-esr", "firefox"]) else {
        println!("skipped: firefox is not installed (apt-get install -y firefox-esr)");
        return None;
    };
    let base = std::env::temp_dir().join(format!("damelab-firefox-{which}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("root")).unwrap();
    std::fs::create_dir_all(base.join("profile")).unwrap();
    let srv = serve_variant(&base.join("root"), variant);
    let url = format!("http://127.0.0.1:{}/?selftest={which}", srv.addr.port());
    let mut child = Command::new(&firefox)
        .args(["--headless", "--no-remote", "--new-instance", "--profile"])
        .arg(base.join("profile"))
        .args(["--window-size", "1280,1000", &url])
        .env("MOZ_HEADLESS", "1")
        .env("HOME", &base)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("firefox starts");
    // Firefox's first start makes its profile: allow for it.
    let t = Instant::now();
    let result = loop {
        let r = http(srv.addr, "GET", "/api/selftest", None);
        if let Some(first) = r["results"].as_array().and_then(|a| a.first()) {
            break first.clone();
        }
        if t.elapsed() > Duration::from_secs(120) || child.try_wait().ok().flatten().is_some() {
            break Value::Null;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = child.kill();
    let _ = child.wait();
    drop(srv);
    let _ = std::fs::remove_dir_all(&base);
    assert!(!result.is_null(), "the page never reported its self-test");
    for s in result["steps"].as_array().into_iter().flatten() {
        println!(
            "firefox self-test: {:<40} {:>5} ms {}",
            s["name"].as_str().unwrap_or(""),
            s["ms"],
            if s["ok"] == true { "ok" } else { "FAILED" }
        );
    }
    println!(
        "page load to first board in Firefox: {:.0} ms ({})",
        result["first_board_ms"].as_f64().unwrap_or(-1.0),
        result["agent"].as_str().unwrap_or("")
    );
    Some(result)
}

#[test]
#[ignore = "real browser, 7-13 s for Firefox to start: run by .ci/run (`cargo test --release --test it -- --include-ignored web_firefox::`)"]
fn the_workbench_tests_itself_in_headless_firefox() {
    let Some(result) = selftest("international", "1") else {
        return;
    };
    assert_eq!(result["passed"], true, "the self-test failed: {result}");
    assert_eq!(
        result["steps"].as_array().map(Vec::len),
        Some(10),
        "{result}"
    );
}

/// `?selftest=hand`: Mraha wa Bwe's first drop by clicks (the hands beside the board count down,
/// and up again on undo), Dablot Prejjesne's single combat declared by clicks and marked.
#[test]
#[ignore = "real browser, 7-13 s for Firefox to start: run by .ci/run (`cargo test --release --test it -- --include-ignored web_firefox::`)"]
fn drops_and_a_declaration_by_clicks_in_headless_firefox() {
    let Some(result) = selftest("mraha-wa-bwe", "hand") else {
        return;
    };
    assert_eq!(result["passed"], true, "the self-test failed: {result}");
    assert_eq!(
        result["steps"].as_array().map(Vec::len),
        Some(5),
        "{result}"
    );
}
