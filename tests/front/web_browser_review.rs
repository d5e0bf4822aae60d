//! Issue 48's page features in a real browser (headless Chromium over WebDriver, as
//! `web_browser.rs`): a Lidraughts game with comments pasted into the Dameo page shows the
//! international board and the comments; an arrow drawn with a right-drag is in the exported
//! PDN (and the paste box keeps the paste); a review of a short game draws the graph and marks
//! the blunder; `/?selftest=1` passes on a Dameo server. Skips (saying why) when `chromium` or `chromedriver` is not installed.

use super::web_browser::{find, http, serve_variant};
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Browser {
    child: Child,
    addr: SocketAddr,
    session: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = http(self.addr, "DELETE", &path, None);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn js(&self, script: &str) -> Value {
        let path = format!("/session/{}/execute/sync", self.session);
        let r = http(
            self.addr,
            "POST",
            &path,
            Some(&json!({ "script": script, "args": [] })),
        );
        assert!(r["value"].get("error").is_none(), "{script}: {r}");
        r["value"].clone()
    }

    fn wait(&self, expr: &str, secs: u64) {
        let t = Instant::now();
        while self.js(&format!("return !!({expr});")) != json!(true) {
            let msg = self.js("return document.getElementById('message').textContent + ' / ' + document.getElementById('pdn-msg').textContent");
            assert!(
                t.elapsed() < Duration::from_secs(secs),
                "waited {secs} s for `{expr}`; the page says {msg}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A right-button press on square `a` and its release on `b` (a circle when they are one).
    fn right_drag(&self, a: &str, b: &str) {
        self.js(&format!(
            "const c = (n) => {{ const q = state.board.squares.find(x => x.name === n); \
             const r = document.querySelector('#board rect[data-sq=\"' + q.sq + '\"]').getBoundingClientRect(); \
             return {{ clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button: 2, bubbles: true }}; }}; \
             const svg = document.getElementById('board-svg'); \
             svg.dispatchEvent(new PointerEvent('pointerdown', c('{a}'))); \
             svg.dispatchEvent(new PointerEvent('pointerup', c('{b}')));"
        ));
    }
}

const LIDRAUGHTS: &str =
    "[Event \"Casual\"]\n[White \"alice\"]\n[Black \"bob\"]\n[GameType \"20\"]\n\n\
    {a quiet start} 1. 32-28 {[%clock W0:05:00 B0:05:00]} 19-23?! 2. 28x19 14x23 *\n";
/// Black gives a man away on its last move.
const BLUNDER: &str = "[FEN \"W:W37,38,47:B13,17,22\"]\n1. 37-31 13-18 2. 47-41 22-27 *";

#[test]
#[ignore = "real browser, about 10 s: run by .ci/run (`cargo test --release --test it -- --include-ignored web_browser_review::`)"]
fn pdn_annotation_and_review_in_headless_chromium() {
    let (Some(chromium), Some(chromedriver)) = (
        find(&["chromium", "chromium-browser"]),
        find(&["chromedriver"]),
    ) else {
        println!(
            "skipped: chromium and chromedriver are not installed \
             (apt-get install -y chromium chromium-driver)"
        );
        return;
    };
    let base = std::env::temp_dir().join(format!("damelab-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("root")).unwrap();
    let srv = serve_variant(&base.join("root"), "dameo");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let t = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(t.elapsed() < Duration::from_secs(20), "chromedriver up");
        std::thread::sleep(Duration::from_millis(100));
    }
    let caps = json!({ "capabilities": { "alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium.display().to_string(),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-dev-shm-usage", "--window-size=1200,1600",
                     format!("--user-data-dir={}", base.join("profile").display())]
        }
    }}});
    let r = http(addr, "POST", "/session", Some(&caps));
    let session = r["value"]["sessionId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!session.is_empty(), "a WebDriver session: {r}");
    let b = Browser {
        child,
        addr,
        session,
    };
    let url = format!("http://127.0.0.1:{}/", srv.addr.port());
    http(
        addr,
        "POST",
        &format!("/session/{}/url", b.session),
        Some(&json!({ "url": url })),
    );
    b.wait(
        "typeof state !== 'undefined' && state && state.variant.name === 'dameo'",
        10,
    );

    // A Lidraughts game pasted into the Dameo page: the international board and the comments.
    b.js(&format!(
        "document.getElementById('pdn').value = {}; document.getElementById('import').click();",
        json!(LIDRAUGHTS)
    ));
    b.wait("state.variant.name === 'international' && document.querySelectorAll('#board .piece').length === 38", 10);
    b.wait(
        "document.getElementById('moves').textContent.includes('a quiet start')",
        5,
    );
    assert!(b
        .js("return document.getElementById('moves').textContent")
        .as_str()
        .unwrap()
        .contains("19-23?!"));
    assert_eq!(
        b.js("return document.querySelectorAll('#moves .clock').length"),
        json!(1)
    );

    // An arrow drawn with the mouse, found in the exported PDN; the paste box keeps the paste.
    b.right_drag("34", "29");
    b.wait(
        "document.querySelectorAll('#board .arrow-shape').length === 1",
        5,
    );
    b.js("document.getElementById('export').click();");
    b.wait(
        "document.getElementById('pdn-out').value.includes('[%draw arrow,34,29,green]')",
        5,
    );
    assert_eq!(
        b.js("return document.getElementById('pdn').value.startsWith('[Event')"),
        json!(true)
    );

    // A review of a short game: the graph and the blunder's mark.
    b.js(&format!(
        "document.getElementById('pdn').value = {}; document.getElementById('import').click();",
        json!(BLUNDER)
    ));
    b.wait("state.tree.nodes.length === 5", 10);
    b.js("document.getElementById('review-secs').value = '0.1'; document.getElementById('review').click();");
    b.wait(
        "document.getElementById('review-msg').textContent.startsWith('reviewed')",
        60,
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#graph .graph-point').length"),
        json!(5)
    );
    b.wait(
        "document.querySelectorAll('#graph .graph-mark').length >= 1",
        5,
    );
    assert!(b
        .js("return document.getElementById('moves').textContent")
        .as_str()
        .unwrap()
        .contains("22-27??"));

    // The page's self-test on a server started on Dameo: it switches to International itself.
    http(
        addr,
        "POST",
        &format!("/session/{}/url", b.session),
        Some(&json!({ "url": format!("{url}?selftest=1") })),
    );
    let t = Instant::now();
    let result = loop {
        let r = http(srv.addr, "GET", "/api/selftest", None);
        if let Some(first) = r["results"].as_array().and_then(|a| a.first()) {
            break first.clone();
        }
        assert!(t.elapsed() < Duration::from_secs(60), "no self-test result");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(result["passed"], true, "{result}");
    drop(b);
    drop(srv);
    let _ = std::fs::remove_dir_all(&base);
}
