//! Issue 48's page features in a real browser (headless Chromium over WebDriver, as
//! `web_browser.rs`): a Lidraughts game with comments pasted into the Dameo page shows the
//! international board and the comments; an arrow drawn with a right-drag is in the exported
//! PDN (and the paste box keeps the paste); a review of a short game draws the graph and marks
//! the blunder; a two-file collection is searched by the board's position and the game found
//! opens at its ply; `/?selftest=1` passes on a Dameo server. Skips (saying why) when `chromium` or `chromedriver` is not installed.

use super::web_browser::{http, serve_variant};
use super::webdriver::{chromium, Driver};
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// Two PDN files under the served folder: only the first game of `a.pdn` passes through
/// 32-28 19-23.
fn write_collection(root: &Path) {
    std::fs::create_dir_all(root.join("games")).unwrap();
    std::fs::write(
        root.join("games/a.pdn"),
        "[White \"alice\"]\n[Black \"bob\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *\n\n\
         [White \"carl\"]\n[Black \"dora\"]\n[GameType \"20\"]\n\n1. 33-28 18-23 *\n",
    )
    .unwrap();
    std::fs::write(
        root.join("games/b.pdn"),
        "[White \"erik\"]\n[Black \"fay\"]\n[GameType \"20\"]\n\n1. 31-27 19-23 *\n",
    )
    .unwrap();
}

const LIDRAUGHTS: &str =
    "[Event \"Casual\"]\n[White \"alice\"]\n[Black \"bob\"]\n[GameType \"20\"]\n\n\
    {a quiet start} 1. 32-28 {[%clock W0:05:00 B0:05:00]} 19-23?! 2. 28x19 14x23 *\n";
/// Black gives a man away on its last move.
const BLUNDER: &str = "[FEN \"W:W37,38,47:B13,17,22\"]\n1. 37-31 13-18 2. 47-41 22-27 *";

#[test]
#[ignore = "real browser, about 10 s: run by .ci/run (`cargo test --release --test it -- --include-ignored web_browser_review::`)"]
fn pdn_annotation_and_review_in_headless_chromium() {
    let Some((chromium, chromedriver)) = chromium() else {
        return;
    };
    let base = std::env::temp_dir().join(format!("damelab-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("root")).unwrap();
    write_collection(&base.join("root"));
    let srv = serve_variant(&base.join("root"), "dameo");
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots-review");
    let _ = std::fs::remove_dir_all(&shots);
    let b = Driver::start(
        &chromium,
        &chromedriver,
        &base.join("profile"),
        shots,
        (1200, 1600),
    );
    let url = format!("http://127.0.0.1:{}/", srv.addr.port());
    b.go(&url);
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

    // A two-file collection searched by the position on the board: the one game that passes
    // through 32-28 19-23 is found, and opens on the board at that ply.
    b.click("#new");
    b.wait("state.tree.nodes.length === 1", 5);
    for sq in ["32", "28", "19", "23"] {
        b.square(sq);
    }
    b.wait("document.querySelectorAll('#moves .mv').length === 2", 5);
    b.js("const c = document.getElementById('collection-box'); c.open = true; c.scrollIntoView();");
    b.wait(
        "document.getElementById('coll-path').options.length > 1",
        10,
    );
    b.js("const s = document.getElementById('coll-path'); s.value = 'games'; s.dispatchEvent(new Event('change'));");
    b.wait(
        "Array.from(document.getElementById('coll-path').options).some(o => o.value === 'games/b.pdn')",
        10,
    );
    b.click("#coll-position");
    b.click("#coll-search");
    b.wait(
        "document.querySelectorAll('#coll-results .coll-result').length === 1",
        20,
    );
    let found = b.js("return document.getElementById('coll-results').textContent");
    assert!(
        found.as_str().unwrap_or("").contains("alice - bob")
            && found.as_str().unwrap_or("").contains("ply 2"),
        "{found}"
    );
    b.shot_of("#collection-box", "docs-collection");
    b.click("#coll-results .coll-result");
    b.wait(
        "state.pdn && state.pdn.file === 'games/a.pdn' && state.tree.nodes.length === 6 && state.last && state.last.text === '19-23'",
        10,
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#moves .mv').length"),
        json!(5),
        "the whole game is in the move list"
    );
    assert_eq!(
        b.js("return document.querySelector('#moves .mv.current').textContent.trim()"),
        json!("19-23"),
        "the board is at the ply found"
    );

    // A phone's screen, 375 x 740: the board fits its width, the buttons under it are on the
    // first screen, and every control is within the width (the rest is reached by scrolling
    // down, never sideways).
    b.cmd(
        "POST",
        "window/rect",
        Some(json!({ "width": 375, "height": 740 })),
    );
    b.go(&url);
    b.wait(
        "typeof state !== 'undefined' && state && document.querySelector('#board svg')",
        10,
    );
    b.js("window.scrollTo(0, 0);");
    std::thread::sleep(Duration::from_millis(300));
    let view = b
        .js("return [window.innerWidth, window.innerHeight, document.documentElement.scrollWidth]");
    let (w, h) = (view[0].as_f64().unwrap(), view[1].as_f64().unwrap());
    assert!(w <= 400.0, "a phone's width: {view}");
    assert!(view[2].as_f64().unwrap() <= w, "no sideways scroll: {view}");
    let rect = |css: &str| {
        b.js(&format!(
            "const r = document.querySelector('{css}').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
        ))
    };
    let board = rect("#board svg");
    assert!(
        board[0].as_f64().unwrap() >= 0.0 && board[2].as_f64().unwrap() <= w,
        "the board fits: {board}"
    );
    for key in ["#flip", "#undo", "#redo", "#new", "#movein"] {
        let r = rect(key);
        assert!(
            r[0].as_f64().unwrap() >= 0.0 && r[2].as_f64().unwrap() <= w,
            "{key} within the width: {r}"
        );
        assert!(
            r[3].as_f64().unwrap() <= h,
            "{key} on the first screen: {r} (height {h})"
        );
    }
    let wide = b.js(
        "return Array.from(document.querySelectorAll('button, input, select, textarea')).filter(e => e.getClientRects().length && (e.getBoundingClientRect().right > window.innerWidth + 1 || e.getBoundingClientRect().left < -1)).map(e => e.id);",
    );
    assert_eq!(wide, json!([]), "every control within the width");
    b.shot("docs-phone");
    b.cmd(
        "POST",
        "window/rect",
        Some(json!({ "width": 1200, "height": 1600 })),
    );

    // The page's self-test on a server started on Dameo: it switches to International itself.
    b.go(&format!("{url}?selftest=1"));
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
