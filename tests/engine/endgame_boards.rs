//! Endgame tables on the boards beyond the rectangle of squares and on the optional-capture games:
//! a board of points (zamma, fanorona), a hexagon (hexdame), optional capture with stops
//! (damspel), a crowning mid-capture that goes on (comoros). Every value agrees with its children
//! and with a plain search; a huffing variant is refused with a diagnostic.

use crate::engine::endgame::{agree_with_search, check_all};

const NEW_BOARDS: &[(&str, &str)] = &[
    ("zamma", "K v K"),
    ("hexdame", "K v M"),
    ("fanorona", "MM v M"),
    ("damspel", "KK v K"),
    ("damspel", "M v M"),
    ("comoros", "K v M"),
    ("comoros", "M v M"),
];

#[test]
fn every_value_agrees_with_its_children_on_the_new_boards() {
    check_all(NEW_BOARDS);
}

#[test]
fn tables_of_the_new_boards_agree_with_a_plain_search() {
    agree_with_search(NEW_BOARDS);
}

#[test]
fn huffing_is_refused_with_a_diagnostic() {
    let o = crate::common::bin()
        .args(["endgame", "ghanaian", "K v K", "--no-cache"])
        .env("NO_COLOR", "1")
        .output()
        .expect("damelab runs");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("endgame tables do not handle huffing (ghanaian)"),
        "{err}"
    );
    assert!(err.contains("damelab analyse"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
