//! The route picker keeps its marks after the second click (#48): the page's own selection
//! functions, taken from app.js, run under Node with three routes to one landing square. Skipped
//! (with a note) where `node` is not installed, as the browser tests are without a browser.

use std::process::Command;

/// The text of the top-level function `name` in app.js (from `function name(` to its closing `}`).
fn function(js: &str, name: &str) -> String {
    let start = js
        .find(&format!("\nfunction {name}("))
        .expect("the function is in app.js");
    let end = js[start + 1..].find("\n}\n").expect("its end") + start + 3;
    js[start..end].to_string()
}

#[test]
fn marks_stay_after_clicking_a_square_passed_through() {
    let js = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/web/assets/app.js"
    ))
    .expect("app.js");
    let script = format!(
        "{}\n{}\n{}\n\
         let state = {{ legal: [\n\
           {{ from: 1, to: 9, route: [2, 3, 9] }},\n\
           {{ from: 1, to: 9, route: [2, 4, 9] }},\n\
           {{ from: 1, to: 9, route: [5, 3, 9] }} ] }};\n\
         let sel = {{ from: 1, clicked: [9] }};\n\
         const first = [...selectionTargets().keys()].sort();\n\
         sel.clicked = [9, 2];\n\
         const second = [...selectionTargets().keys()].sort();\n\
         console.log(JSON.stringify([first, second]));\n",
        function(&js, "movesFrom"),
        function(&js, "matching"),
        function(&js, "selectionTargets"),
    );
    let out = match Command::new("node").arg("-e").arg(&script).output() {
        Ok(o) => o,
        Err(_) => {
            eprintln!("node is not installed: the route-picker test is skipped");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // After the landing: every square that tells the routes apart; after 2: those left (3 or 4).
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "[[2,3,4,5],[3,4]]"
    );
}
