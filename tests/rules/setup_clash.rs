//! A setup whose lists clash on several squares is one diagnostic naming them all, not one per
//! square (#48).

use miette::{GraphicalReportHandler, GraphicalTheme};

fn rendered(setup: &str) -> (usize, String) {
    let text = format!(
        "variant \"Test\"\nboard 8x8, all squares, algebraic\nsides white \"W\", black \"B\"; \
         white moves first\npiece man \"M\"\npiece king \"K\"\n{setup}\n\
         man:  step forward, forward-diagonal\n      capture jump orthogonal\n      \
         promote to king on far rank\nking: slide all\n      capture fly orthogonal\n"
    );
    let err = damelab::lang::load("t.rules", "t", &text).expect_err("the setup clashes");
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(200)
        .render_report(&mut out, &err)
        .expect("rendered");
    (err.errors().len(), out)
}

#[test]
fn two_lists_sharing_squares_give_one_diagnostic_listing_them() {
    let (n, out) = rendered("setup white man a1..h2; white king a1..h1");
    assert_eq!(n, 1, "{out}");
    assert!(
        out.contains("two pieces on squares `a1`, `b1`, `c1`, `d1`, `e1`, `f1`, `g1` and `h1`"),
        "{out}"
    );
    // Both sides' lists: still one.
    let (n, out) = rendered("setup white man a1..h2; black man a2..h3");
    assert_eq!(n, 1, "{out}");
    assert!(out.contains("two pieces on squares `a2`, `b2`"), "{out}");
    // Lists that share one square keep the singular.
    let (n, out) = rendered("setup white man a1..h1; white king d1");
    assert_eq!(n, 1, "{out}");
    assert!(out.contains("two pieces on square `d1`"), "{out}");
}

#[test]
fn a_turned_setup_clashing_on_a_rank_is_one_diagnostic() {
    let (n, out) = rendered("setup white man a1..h5");
    assert_eq!(n, 1, "{out}");
    assert!(
        out.contains("the turned setup puts two pieces on squares `a5`, `b5`"),
        "{out}"
    );
    assert!(out.contains("they land on"), "{out}");
}

#[test]
fn a_long_list_of_clashing_squares_is_cut_short() {
    let (n, out) = rendered("setup white man a1..h4; black man a1..h4");
    assert_eq!(n, 1, "{out}");
    assert!(out.contains("and 20 more"), "{out}");
}
