//! The web page's boards of every form: the server sends each point's centre from the layout of
//! the SVG diagrams (a hexagon's cells, a board of points and its lines, squares), seen from
//! either side, and moves are played on the new boards through the API.

use crate::front::web_api::{legal_texts, ok, post, scratch, start_in};
use damelab::diagram::{Form, Layout, SQ};
use damelab::engine::BitSet;
use serde_json::{json, Value};

fn state(variant: &str) -> Value {
    let srv = start_in(variant, &scratch(variant));
    ok(crate::front::web_api::get(&srv, "/api/state"))
}

fn num(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

/// Every playable square is sent once, at the diagrams' centre, inside the view, seen from
/// either side.
fn check_centres(variant: &str, form: &str) -> Value {
    let s = state(variant);
    let b = &s["board"];
    assert_eq!(b["form"], form, "{variant}");
    assert_eq!(num(&b["cell"]), SQ);
    let v = damelab::Variant::load(variant).unwrap();
    let rules = &v.rules;
    let (plain, turned) = (
        Layout::new(rules, 0.0, 0.0, false),
        Layout::new(rules, 0.0, 0.0, true),
    );
    assert_eq!(plain.form.name(), form);
    let (vw, vh) = (num(&b["view"][0]), num(&b["view"][1]));
    assert!((vw - plain.width).abs() < 0.01 && (vh - plain.height).abs() < 0.01);
    let squares = b["squares"].as_array().unwrap();
    assert_eq!(
        squares.len(),
        rules.geo.playable.count() as usize,
        "{variant}"
    );
    let mut seen = std::collections::HashSet::new();
    for q in squares {
        let sq = q["sq"].as_u64().unwrap() as u8;
        let (x, y) = (num(&q["x"]), num(&q["y"]));
        let near =
            |(a, b): (f64, f64), (c, d): (f64, f64)| (a - c).abs() < 0.01 && (b - d).abs() < 0.01;
        assert!(near((x, y), plain.centre(sq)), "{variant} {}", q["name"]);
        assert!(
            near((num(&q["fx"]), num(&q["fy"])), turned.centre(sq)),
            "{variant}"
        );
        assert!(x > 0.0 && x < vw && y > 0.0 && y < vh, "{variant} {q}");
        assert!(
            seen.insert(((x * 10.0) as i64, (y * 10.0) as i64)),
            "{variant}: two points at {x},{y}"
        );
    }
    s
}

#[test]
fn a_hexagon_sends_its_cells_centres() {
    let s = check_centres("hexdame", "hexagon");
    let b = &s["board"];
    assert!((num(&b["hex_r"]) - SQ / 3f64.sqrt()).abs() < 1e-3);
    assert!(b["lines"].as_array().unwrap().is_empty());
    // Neighbouring cells stand one cell apart (flat to flat), in all six directions: every cell
    // has at most six neighbours at that distance, and the centre cell has six.
    let squares = b["squares"].as_array().unwrap();
    let at = |q: &Value| (num(&q["x"]), num(&q["y"]));
    let neighbours = |q: &Value| {
        let (x, y) = at(q);
        squares
            .iter()
            .filter(|p| {
                let (px, py) = at(p);
                ((px - x).hypot(py - y) - SQ).abs() < 0.01
            })
            .count()
    };
    assert!(squares.iter().all(|q| neighbours(q) <= 6));
    let centre = squares.iter().find(|q| q["alg"] == "e5").unwrap();
    assert_eq!(neighbours(centre), 6);
}

#[test]
fn a_board_of_points_sends_its_lines() {
    for variant in ["zamma", "fanorona"] {
        let s = check_centres(variant, "points");
        let b = &s["board"];
        let v = damelab::Variant::load(variant).unwrap();
        let layout = Layout::new(&v.rules, 0.0, 0.0, false);
        let lines: Vec<(u8, u8)> = b["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l[0].as_u64().unwrap() as u8, l[1].as_u64().unwrap() as u8))
            .collect();
        assert_eq!(lines, layout.lines(), "{variant}");
        // Each line joins two neighbouring points: one square apart, or one diagonal.
        for (a, c) in &lines {
            let ((x0, y0), (x1, y1)) = (layout.centre(*a), layout.centre(*c));
            let d = (x1 - x0).hypot(y1 - y0);
            assert!(
                (d - SQ).abs() < 0.01 || (d - SQ * 2f64.sqrt()).abs() < 0.01,
                "{variant}: {a}-{c} is {d} long"
            );
        }
    }
    // Fanorona's 9x5 alquerque board: 8 x 5 lines along the ranks, 9 x 4 along the files, and
    // one diagonal in each of the 8 x 4 unit squares.
    let s = state("fanorona");
    assert_eq!(s["board"]["lines"].as_array().unwrap().len(), 40 + 36 + 32);
}

#[test]
fn squares_keep_their_grid() {
    for (variant, form) in [("dameo", "squares"), ("international", "squares")] {
        let s = check_centres(variant, form);
        let b = &s["board"];
        let h = b["height"].as_u64().unwrap() as f64;
        for q in b["squares"].as_array().unwrap() {
            let (f, r) = (num(&q["file"]), num(&q["rank"]));
            assert_eq!(num(&q["x"]), (f + 0.5) * SQ);
            assert_eq!(num(&q["y"]), (h - 1.0 - r + 0.5) * SQ);
        }
        assert!(b["lines"].as_array().unwrap().is_empty());
    }
    assert_eq!(
        Layout::new(
            &damelab::Variant::load("dameo").unwrap().rules,
            0.0,
            0.0,
            false
        )
        .form,
        Form::Squares
    );
}

#[test]
fn moves_are_played_on_the_new_boards() {
    for (variant, first) in [
        ("hexdame", None),
        ("fanorona", None),
        ("comoros", Some("a3-a4")),
    ] {
        let srv = start_in(variant, &scratch(variant));
        let s = ok(crate::front::web_api::get(&srv, "/api/state"));
        let texts = legal_texts(&s);
        let text = first
            .map(str::to_string)
            .unwrap_or_else(|| texts[0].clone());
        let i = texts
            .iter()
            .position(|t| *t == text)
            .expect("a listed move");
        let s = ok(post(&srv, "/api/play", json!({ "node": 0, "index": i })));
        assert_eq!(s["last"]["text"], text.as_str(), "{variant}");
        assert_eq!(s["ply"], 1, "{variant}");
    }
}

#[test]
fn the_page_draws_cells_and_points_where_the_server_places_them() {
    let srv = start_in("hexdame", &scratch("hexdame-js"));
    let js = crate::front::web_api::get(&srv, "/app.js").body;
    // The page reads the server's centres and draws hexagons and points itself.
    for needle in ["function drawCells", "q.fx * k", "\"polygon\"", "b.lines"] {
        assert!(js.contains(needle), "app.js lacks {needle}");
    }
}
