//! The web workbench in a real browser: headless Chromium driven over WebDriver (`chromedriver`,
//! plain HTTP/JSON from the client of `webdriver.rs`). Opens the page, plays the first moves of a
//! Dameo and an International game by clicking, takes a multi-capture by clicking through its
//! route, edits the rules to a mistake and sees the diagnostic under its line, fixes it, analyses
//! and sees the arrow, imports a PDN game. A screenshot of each step goes to
//! `target/web-screenshots/`; the page-load and server timings are printed.
//!
//! Skips (with the reason printed) when `chromium` or `chromedriver` is not installed. It takes
//! about 10 s, so a plain `cargo test` leaves it out; `.ci/run` runs it in release:
//! `cargo test --release --test it -- --include-ignored web_browser::`. The server runs in the
//! test's process; with `DAMELAB_SERVE_BIN=target/release/damelab` it is that binary instead
//! (`damelab serve dameo --port 0`), for the page-load timings of a release build.

use super::webdriver::{chromium, Driver};
pub(crate) use super::webdriver::{find, http};
use serde_json::json;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Child;
use std::time::Duration;

pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The server as a process of its own (`DAMELAB_SERVE_BIN`).
    child: Option<Child>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(root: &Path) -> Server {
    serve_variant(root, "dameo")
}

/// `damelab serve VARIANT --port 0` run by the binary `bin` in `root` (its table cache under it),
/// for timings of the release binary: `DAMELAB_SERVE_BIN=target/release/damelab`.
fn serve_binary(bin: &Path, root: &Path, variant: &str) -> Server {
    // A relative path would be taken from `root`, the child's folder: make it whole first.
    let bin = std::fs::canonicalize(bin)
        .unwrap_or_else(|e| panic!("DAMELAB_SERVE_BIN `{}`: {e}", bin.display()));
    let (child, addr) = crate::common::serve_child(
        crate::common::bin_at(&bin)
            .args(["serve", variant, "--port", "0"])
            .current_dir(root)
            .env("DAMELAB_CACHE", root.join("tables")),
    );
    Server {
        addr,
        stop: None,
        thread: None,
        child: Some(child),
    }
}

/// The server on a bundled variant, with its table cache under `root`: in this process, or the
/// binary `DAMELAB_SERVE_BIN` names.
pub(crate) fn serve_variant(root: &Path, variant: &str) -> Server {
    if let Some(bin) = std::env::var_os("DAMELAB_SERVE_BIN") {
        return serve_binary(Path::new(&bin), root, variant);
    }
    let v = damelab::Variant::load(variant).unwrap();
    let opts = damelab::web::Options {
        variant: v,
        text: damelab::variants::bundled(variant).unwrap().to_string(),
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
        child: None,
    }
}

fn set_select(d: &Driver, id: &str, value: &str) {
    d.js(&format!(
        "const s = document.getElementById('{id}'); s.value = '{value}'; s.dispatchEvent(new Event('change'));"
    ));
}

#[test]
#[ignore = "real browser, about 10 s: run by .ci/run (`cargo test --release --test it -- --include-ignored web_browser::`)"]
fn the_workbench_in_headless_chromium() {
    let Some((chromium, chromedriver)) = chromium() else {
        return;
    };
    let base = std::env::temp_dir().join(format!("damelab-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("root")).unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    let srv = serve(&base.join("root"));
    let url = format!("http://127.0.0.1:{}/", srv.addr.port());
    let mut d = Driver::start(
        &chromium,
        &chromedriver,
        &base.join("profile"),
        shots.clone(),
        (1280, 1000),
    );

    // 1. The page, on Dameo: the time from navigation to the first board drawn.
    d.go(&url);
    d.wait("window.__firstBoard !== undefined", 20);
    let first_board = d.js("return window.__firstBoard").as_f64().unwrap_or(-1.0);
    // A second load, warm (the binary's assets are cached by nothing but the OS).
    d.go(&url);
    d.wait("window.__firstBoard !== undefined", 20);
    let first_board_warm = d.js("return window.__firstBoard").as_f64().unwrap_or(-1.0);
    d.wait(
        "document.querySelectorAll('#board .piece').length === 36",
        10,
    );
    d.step("dameo-start");

    // 2. Dameo's first moves by clicking.
    d.square("c3");
    d.wait("document.querySelectorAll('#board .target').length > 0", 5);
    d.step("dameo-selected");
    d.square("c4");
    d.wait("document.querySelectorAll('#moves .mv').length === 1", 5);
    let play_ms = d.server_ms("/api/play");
    d.square("c6");
    d.square("c5");
    d.wait("document.querySelectorAll('#moves .mv').length === 2", 5);
    // A refused move is explained.
    d.square("e3");
    d.square("e4");
    d.wait(
        "document.getElementById('message').textContent.includes('not legal')",
        5,
    );
    d.step("dameo-moves-and-refusal");

    // 3. International: first moves, the capture.
    set_select(&d, "variant", "international");
    d.wait(
        "document.querySelectorAll('#board .piece').length === 40",
        10,
    );
    assert_eq!(d.moves(), 0);
    for sq in ["32", "28", "19", "23", "28", "19"] {
        d.square(sq);
    }
    d.wait("document.querySelectorAll('#moves .mv').length === 3", 5);
    d.wait(
        "document.querySelectorAll('#board .captured').length === 1",
        5,
    );
    d.step("international-capture");
    d.shot_of("#play", "docs-capture");

    // 4. A multi-capture with a route choice (Russian: two routes through c3).
    set_select(&d, "variant", "russian");
    d.wait(
        "document.querySelectorAll('#board .piece').length === 24",
        10,
    );
    d.js("document.getElementById('setup-box').open = true;");
    d.js("document.getElementById('fen').value = 'W:We1:Bd2,b4,d4';");
    d.click("#set-fen");
    d.wait("document.querySelectorAll('#board .piece').length === 4", 5);
    d.square_alg("e1");
    d.wait(
        "document.querySelectorAll('#board .target').length === 2",
        5,
    );
    d.square_alg("c3");
    d.wait(
        "document.querySelectorAll('#board .target').length === 2",
        5,
    );
    d.step("route-choice");
    d.square_alg("e5");
    d.wait(
        "state.last && state.last.route.length === 2 && squareAt(state.last.to).alg === 'e5'",
        5,
    );
    d.wait(
        "document.querySelectorAll('#board .captured').length === 2",
        5,
    );
    d.step("route-taken");

    // 5. The rules editor: a mistake, its diagnostic under its line, the fix.
    set_select(&d, "variant", "dameo");
    d.wait(
        "document.getElementById('rules').value.includes('Dameo')",
        10,
    );
    d.wait(
        "document.getElementById('diagnostics').textContent === 'no errors'",
        10,
    );
    let line = d
        .js("return document.getElementById('rules').value.split('\\n').findIndex(l => l.includes('step')) + 1")
        .as_u64()
        .unwrap();
    d.js("const t = document.getElementById('rules'); t.value = t.value.replace('step', 'stpe'); t.dispatchEvent(new Event('input'));");
    d.wait(
        &format!("document.querySelector('#diagnostics .diag[data-line=\"{line}\"]')"),
        10,
    );
    d.js("document.getElementById('rules-box').scrollIntoView();");
    d.step("rules-diagnostic");
    d.shot_of("#rules-box", "docs-rules-diagnostic");
    d.js("const t = document.getElementById('rules'); t.value = t.value.replace('stpe', 'step'); t.dispatchEvent(new Event('input'));");
    d.wait(
        "document.getElementById('diagnostics').textContent === 'no errors'",
        10,
    );
    d.click("#describe");
    d.wait(
        "document.getElementById('description').textContent.length > 40",
        10,
    );
    d.step("rules-fixed");
    d.js("window.scrollTo(0, 0);");

    // 6. Analysis: depth lines, the arrow.
    d.js("document.getElementById('secs').value = '2';");
    d.click("#analyse");
    d.wait("document.querySelector('#board .arrow')", 15);
    d.wait("document.querySelector('#lines .done')", 15);
    d.step("analysis-arrow");
    d.shot_of("#play", "docs-analysis");

    // 7. PDN import.
    set_select(&d, "variant", "international");
    d.wait(
        "document.querySelectorAll('#board .piece').length === 40",
        10,
    );
    d.js("document.getElementById('pdn-box').open = true;");
    d.js("document.getElementById('pdn').value = '[Event \"a\"]\\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *\\n\\n[Event \"b\"]\\n1. 33-29 *\\n';");
    d.click("#import");
    d.wait("document.querySelectorAll('#moves .mv').length === 5", 10);
    d.wait("document.getElementById('pdn-games').length === 2", 5);
    d.step("pdn-imported");
    // A game with variations: they come in as the move tree's branches.
    d.js("document.getElementById('pdn').value = '1. 32-28 19-23 (1... 18-23 2. 37-32 (2. 31-27)) 2. 28x19 14x23 *';");
    d.click("#import");
    d.wait(
        "state.tree.nodes.length === 8 && document.querySelectorAll('#moves .variation').length === 2",
        10,
    );
    d.js("document.getElementById('moves').scrollIntoView();");
    d.step("pdn-variations");
    d.js("window.scrollTo(0, 0);");

    // 8. An endgame build from the Studies panel, its progress bar, then a probe of its tables.
    d.js("document.getElementById('study-box').open = true;");
    d.js("document.getElementById('material').value = 'KK v K';");
    d.click("#endgame");
    d.wait(
        "document.getElementById('study-status').textContent.endsWith(': done')",
        120,
    );
    d.wait(
        "document.getElementById('study-text').textContent.includes('tables: ')",
        5,
    );
    d.js("document.getElementById('study-box').scrollIntoView();");
    d.step("endgame-built");
    d.shot_of("#study-box", "docs-endgame");
    d.js("window.scrollTo(0, 0);");
    d.js("document.getElementById('fen').value = 'W:WK46,K50:BK5';");
    d.click("#set-fen");
    d.wait("document.querySelectorAll('#board .piece').length === 3", 5);
    d.click("#probe");
    d.wait(
        "document.getElementById('message').textContent.includes('KK v K: ')",
        30,
    );
    let probed = d.js("return document.getElementById('message').textContent");
    assert!(
        !probed.as_str().unwrap_or("").contains("building"),
        "the probe reads the tables built: {probed}"
    );
    d.step("endgame-probe");

    // 9. A phone's width.
    d.cmd(
        "POST",
        "window/rect",
        Some(json!({ "width": 390, "height": 844 })),
    );
    d.js("window.scrollTo(0, 0);");
    std::thread::sleep(Duration::from_millis(300));
    d.step("phone-width");
    let wide = d.js(
        "return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8);",
    );
    assert_eq!(wide, json!([]), "nothing wider than a phone's screen");

    println!(
        "page load to first board: {first_board:.0} ms (cold), {first_board_warm:.0} ms (again)"
    );
    println!("server time of the first move's /api/play (legal moves of the new position): {play_ms:.2} ms");
    println!("screenshots: {}", shots.display());
    assert!(first_board > 0.0);
    drop(d);
    drop(srv);
    let _ = std::fs::remove_dir_all(&base);
}
