//! Columns (`take top`) on the web page, in a real browser: headless Chromium over WebDriver (the
//! client of `webdriver.rs`) opens Lasca, plays two captures by clicking, and reads the board's
//! SVG: each column a group of discs, the top's drawn last and highest, the pieces under it below
//! it in order, their colours the sides' and the column's height written beside it. A picture of
//! the board goes to `target/web-screenshots-columns/docs-lasca.png` (docs/web/lasca.png).
//!
//! Skips (with the reason printed) when `chromium` or `chromedriver` is not installed; run by
//! `.ci/run` with the other browser tests: `cargo test --release --test it -- --include-ignored
//! web_browser`.

use super::web_browser::serve_variant;
use super::webdriver::{chromium, Driver};
use serde_json::{json, Value};
use std::path::Path;

/// The column on the square of this algebraic name, as the page drew it: its discs' sides and
/// fill colours from the top down, the discs' centres' heights (top first), the height written
/// beside it (`null` for a single piece), and the sides' colours.
fn column(d: &Driver, alg: &str) -> Value {
    d.js(&format!(
        "const g = [...document.querySelectorAll('#board g.piece')]
            .find(g => squareAt(+g.dataset.sq).alg === '{alg}');
         if (!g) return null;
         const under = [...g.querySelectorAll('circle.under')].reverse();
         const top = [...g.querySelectorAll('circle')].find(c => !c.classList.contains('under'));
         const discs = [top, ...under];
         const h = g.querySelector('text.height');
         return {{
           sides: [+g.dataset.side, ...under.map(c => +c.dataset.side)],
           fills: discs.map(c => c.getAttribute('fill')),
           ys: discs.map(c => +c.getAttribute('cy')),
           height: h ? +h.textContent : null,
           colours: state.board.sides.map(s => s.colour),
         }};"
    ))
}

/// The checks of one column: the sides from the top down, each disc in its side's colour, each
/// disc below the one above it, the height written when more than one.
fn assert_column(d: &Driver, alg: &str, sides: &[u64]) {
    let c = column(d, alg);
    assert!(c.is_object(), "no piece drawn on {alg}");
    assert_eq!(c["sides"], json!(sides), "{alg}: {c}");
    let colours = c["colours"].as_array().expect("colours");
    let want: Vec<&Value> = sides.iter().map(|&s| &colours[s as usize]).collect();
    assert_eq!(
        c["fills"]
            .as_array()
            .expect("fills")
            .iter()
            .collect::<Vec<_>>(),
        want,
        "{alg}: {c}"
    );
    let ys: Vec<f64> = c["ys"]
        .as_array()
        .expect("ys")
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    assert_eq!(ys.len(), sides.len(), "{alg}: {c}");
    assert!(
        ys.windows(2).all(|w| w[0] < w[1]),
        "{alg}: each disc below the one above: {c}"
    );
    let height = if sides.len() > 1 {
        json!(sides.len())
    } else {
        Value::Null
    };
    assert_eq!(c["height"], height, "{alg}: {c}");
}

#[test]
#[ignore = "real browser, a few seconds: run by .ci/run (`cargo test --release --test it -- --include-ignored web_browser`)"]
fn lasca_columns_in_headless_chromium() {
    let Some((chromium, chromedriver)) = chromium() else {
        return;
    };
    let base = std::env::temp_dir().join(format!("damelab-columns-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("root")).unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots-columns");
    let _ = std::fs::remove_dir_all(&shots);
    let srv = serve_variant(&base.join("root"), "lasca");
    let mut d = Driver::start(
        &chromium,
        &chromedriver,
        &base.join("profile"),
        shots.clone(),
        (1280, 1000),
    );
    d.go(&format!("http://127.0.0.1:{}/", srv.addr.port()));
    d.wait(
        "document.querySelectorAll('#board .piece').length === 22",
        20,
    );
    assert_eq!(
        d.js("return document.querySelectorAll('#board circle.under').length"),
        json!(0)
    );
    assert_column(&d, "c3", &[0]);
    d.step("lasca-start");

    // White c3-d4; Black takes it, e5xc3: the white soldier goes under the black one on c3.
    for sq in ["c3", "d4", "e5", "c3"] {
        d.square_alg(sq);
    }
    d.wait("document.querySelectorAll('#moves .mv').length === 2", 5);
    d.wait(
        "document.querySelectorAll('#board circle.under').length === 1",
        5,
    );
    assert_column(&d, "c3", &[1, 0]);
    assert_eq!(column(&d, "d4"), Value::Null, "the jumped square is empty");
    // A single piece taken whole: crossed out where it stood.
    assert_eq!(
        d.js(
            "return [document.querySelectorAll('#board path.captured').length, \
              document.querySelectorAll('#board path.top-taken').length]"
        ),
        json!([1, 0])
    );
    assert_eq!(
        d.js("return document.querySelectorAll('#board .piece').length"),
        json!(21)
    );
    d.step("lasca-first-column");

    // White takes back, b2xd4 over the column on c3: its black top goes under the white soldier
    // on d4, and the white soldier it held is free again on c3.
    d.square_alg("b2");
    d.square_alg("d4");
    d.wait("document.querySelectorAll('#moves .mv').length === 3", 5);
    d.wait("state.last && squareAt(state.last.to).alg === 'd4'", 5);
    assert_column(&d, "d4", &[0, 1]);
    assert_column(&d, "c3", &[0]);
    assert_eq!(column(&d, "b2"), Value::Null);
    assert_eq!(
        d.js("return document.querySelectorAll('#board .piece').length"),
        json!(21)
    );
    assert_eq!(
        d.js("return document.querySelectorAll('#board circle.under').length"),
        json!(1)
    );
    // The jumped column is marked by a small cross in its square's corner, clear of its piece.
    assert_eq!(
        d.js("return document.querySelectorAll('#board path.captured.top-taken').length"),
        json!(1)
    );
    d.step("lasca-jumped-column");
    d.shot_of("#play", "docs-lasca");
    println!("screenshots: {}", shots.display());
    drop(d);
    drop(srv);
    let _ = std::fs::remove_dir_all(&base);
}
