//! Pieces in hand, drops and a declared single combat on the web page, in a real browser:
//! headless Chromium over WebDriver (the client of `webdriver.rs`). Mraha wa Bwe's first drops are
//! placed by clicking squares (a chosen square let go again, the barred centre explained) and the
//! hands beside the board count down, back up on undo and follow the set-up's count; Dablot
//! Prejjesne's lone pieces declare a single combat by clicks (the board asks: move, or declare),
//! the page marks the combat, and the set-up's box takes the mark off and puts it back. One page
//! load a test; every wait is on a condition. Pictures of the board go to
//! `target/web-screenshots-hand/` (`docs-hand.png` and `docs-combat.png`: docs/web/hand.png and
//! docs/web/combat.png).
//!
//! Skips (with the reason printed) when `chromium` or `chromedriver` is not installed; run by
//! `.ci/run` with the other browser tests: `cargo test --release --test it -- --include-ignored
//! web_browser_hand::`.

use super::web_browser::serve_variant;
use super::webdriver::{chromium, Driver};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A server on `variant` and a Chromium page on it, in a fresh folder; `None` (the reason
/// printed) without Chromium.
fn open(variant: &str) -> Option<(super::web_browser::Server, Driver, PathBuf)> {
    let (chromium, chromedriver) = chromium()?;
    let base = std::env::temp_dir().join(format!("damelab-hand-{variant}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("root")).unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots-hand");
    let srv = serve_variant(&base.join("root"), variant);
    let d = Driver::start(
        &chromium,
        &chromedriver,
        &base.join("profile"),
        shots,
        (1280, 1000),
    );
    d.go(&format!("http://127.0.0.1:{}/", srv.addr.port()));
    Some((srv, d, base))
}

/// Click the point or square of this algebraic name (a board of squares or of points).
fn click_alg(d: &Driver, alg: &str) {
    d.click(&format!("#board .sq[data-alg=\"{alg}\"]"));
}

/// The counts beside the board: `[[side, kind, "×n"], …]`, the side drawn at the top first.
fn hands(d: &Driver) -> Value {
    d.js("return [...document.querySelectorAll('#hands .hand-pile')]
            .map(b => [+b.dataset.side, +b.dataset.kind, b.querySelector('.count').textContent]);")
}

fn wait_hands(d: &Driver, white: u32, black: u32) {
    d.wait(
        &format!(
            "[...document.querySelectorAll('#hands .hand-pile .count')].map(c => c.textContent)\
             .join(' ') === '×{black} ×{white}'"
        ),
        5,
    );
}

#[test]
#[ignore = "real browser, a few seconds: run by .ci/run (`cargo test --release --test it -- --include-ignored web_browser_hand::`)"]
fn mraha_wa_bwe_drops_by_clicks_in_headless_chromium() {
    let Some((srv, mut d, base)) = open("mraha-wa-bwe") else {
        return;
    };
    d.wait(
        "state && document.querySelectorAll('#hands .hand-pile').length === 2",
        20,
    );
    assert_eq!(hands(&d), json!([[1, 0, "×12"], [0, 0, "×12"]]));
    assert_eq!(
        d.js("return document.getElementById('hands').hidden"),
        json!(false)
    );
    // Every square but the barred centre may take the first piece.
    assert_eq!(
        d.js(
            "return [document.querySelectorAll('#board .drop-target').length, \
              !!document.querySelector('#board .drop-target[data-sq=\"' + squareAt(\
              state.board.squares.find(q => q.alg === 'c3').sq).sq + '\"]')]"
        ),
        json!([24, false])
    );
    d.step("mraha-start");

    // A square chosen, let go, another chosen: nothing played until the drop is whole.
    click_alg(&d, "d4");
    d.wait(
        "document.querySelectorAll('#board .drop-chosen').length === 1",
        5,
    );
    click_alg(&d, "d4");
    d.wait(
        "document.querySelectorAll('#board .drop-chosen').length === 0",
        5,
    );
    click_alg(&d, "a1");
    d.wait(
        "document.querySelectorAll('#board .drop-chosen').length === 1",
        5,
    );
    assert_eq!(d.moves(), 0);
    d.shot_of("#play", "docs-hand");
    // The centre is barred: the server says why, and the choice stays.
    click_alg(&d, "c3");
    d.wait(
        "document.getElementById('message').textContent.includes('c3')",
        5,
    );
    assert_eq!(
        d.js("return document.querySelectorAll('#board .drop-chosen').length"),
        json!(1)
    );
    click_alg(&d, "b2");
    d.wait("document.querySelectorAll('#moves .mv').length === 1", 5);
    assert_eq!(d.js("return state.last.text"), json!("@a1,b2"));
    wait_hands(&d, 10, 12);
    assert_eq!(
        d.js("return document.querySelectorAll('#board .piece').length"),
        json!(2)
    );
    d.step("mraha-white-dropped");

    // Black's drop, then undo: the hands follow.
    click_alg(&d, "e5");
    click_alg(&d, "d5");
    d.wait("document.querySelectorAll('#moves .mv').length === 2", 5);
    wait_hands(&d, 10, 10);
    d.step("mraha-black-dropped");
    d.click("#undo");
    wait_hands(&d, 10, 12);
    // The typed move still works while placing.
    d.js(
        "const i = document.getElementById('movein'); i.value = '@e5,e4'; \
          i.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));",
    );
    wait_hands(&d, 10, 10);

    // The set-up's count: Black's hand set to 3, the FEN box says so.
    d.click("#setup-box summary");
    d.js(
        "const i = document.querySelector('#setup-hands input.hand-count[data-side=\"1\"]'); \
          i.value = '3'; i.dispatchEvent(new Event('change'));",
    );
    wait_hands(&d, 10, 3);
    assert_eq!(
        d.js("return document.getElementById('fen').value"),
        json!("W:Wa1,b2:Be4,e5:[W10,B3]")
    );
    drop(d);
    drop(srv);
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
#[ignore = "real browser, a few seconds: run by .ci/run (`cargo test --release --test it -- --include-ignored web_browser_hand::`)"]
fn dablot_declares_a_single_combat_by_clicks_in_headless_chromium() {
    let Some((srv, mut d, base)) = open("dablot-prejjesne") else {
        return;
    };
    d.wait(
        "state && document.querySelectorAll('#board .piece').length > 2",
        20,
    );
    assert_eq!(
        d.js("return document.getElementById('hands').hidden"),
        json!(true)
    );
    assert_eq!(
        d.js("return document.getElementById('combat').hidden"),
        json!(true)
    );
    // Two lone men through the FEN box.
    d.click("#setup-box summary");
    d.js("document.getElementById('fen').value = 'W:Wc3:Bg9';");
    d.click("#set-fen");
    d.wait("document.querySelectorAll('#board .piece').length === 2", 5);
    d.wait("!document.getElementById('combat').hidden", 5);
    // c3 to d4 may be played plainly or declare the combat: the board asks.
    click_alg(&d, "c3");
    click_alg(&d, "d4");
    d.wait("document.querySelector('#choices .choice-declare')", 5);
    assert_eq!(d.moves(), 0);
    d.step("dablot-asks");
    d.click("#choices .choice-declare");
    d.wait("state.combat && state.combat.declared", 5);
    assert_eq!(d.js("return state.last.text"), json!("@c3-d4"));
    assert_eq!(
        d.js("return document.getElementById('fen').value"),
        json!("B:Wd4:Bg9:combat")
    );
    let label = d.js("return document.getElementById('combat').textContent");
    assert!(
        label.as_str().unwrap_or("").contains("single combat"),
        "{label}"
    );
    assert_eq!(
        d.js("return document.querySelectorAll('#board .combat-ring').length"),
        json!(2)
    );
    assert_eq!(
        d.js("return document.getElementById('setup-combat').checked"),
        json!(true)
    );
    d.step("dablot-declared");
    d.shot_of("#play", "docs-combat");

    // The set-up's box takes the mark off and puts it back; the FEN follows.
    d.click("#setup-combat");
    d.wait("document.getElementById('fen').value === 'B:Wd4:Bg9'", 5);
    assert_eq!(
        d.js("return document.querySelectorAll('#board .combat-ring').length"),
        json!(0)
    );
    d.click("#setup-combat");
    d.wait(
        "document.getElementById('fen').value === 'B:Wd4:Bg9:combat'",
        5,
    );
    // Where no combat can be: refused, in words, and the box stays unticked.
    d.js("document.getElementById('fen').value = 'W:Wa1,c3:Bg9';");
    d.click("#set-fen");
    d.wait("document.querySelectorAll('#board .piece').length === 3", 5);
    d.click("#setup-combat");
    d.wait(
        "document.getElementById('message').textContent.includes('no single combat')",
        5,
    );
    assert_eq!(
        d.js("return document.getElementById('setup-combat').checked"),
        json!(false)
    );
    drop(d);
    drop(srv);
    let _ = std::fs::remove_dir_all(&base);
}
