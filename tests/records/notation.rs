//! Positions and move text: FEN round trips and errors, move parsing (full route, short form,
//! ambiguity, illegal moves), and the errors' rendered diagnostics.

use damelab::engine::GenOptions;
use damelab::notation::{move_to_string, parse_fen, parse_move, to_fen};
use damelab::Variant;

/// Turkish draughts with free choice among captures, so that two capture lines of one man can end
/// on the same square.
const FREE_TURKISH: &str = r#"
variant "Turkish, free choice"
board 8x8, all squares, algebraic
sides white "W", black "B"; white moves first
piece man "M"
piece king "K"
setup white man a2..h3
man: step forward, sideways; capture jump forward, sideways; promote to king on far rank
king: slide orthogonal; capture fly orthogonal
captures: compulsory, removed immediately, no 180 turn, priority free
"#;

fn render(e: &dyn miette::Diagnostic) -> String {
    let mut s = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut s, e)
        .expect("rendering to a String cannot fail");
    s
}

fn legal(v: &Variant, fen: &str) -> Vec<damelab::Move> {
    let pos = parse_fen(&v.rules, fen).expect("test FEN is valid");
    let mut out = Vec::new();
    v.rules.generate(&pos, &mut out, GenOptions::default());
    out
}

#[test]
fn fen_round_trips() {
    let v = Variant::load("turkish").expect("bundled");
    for fen in ["W:Wa2,b2,Kd5:Ba6,h7", "B:WKc8:Be8", "W:W:Ba1", "B:Wh8:B"] {
        let pos = parse_fen(&v.rules, fen).expect("valid FEN");
        assert_eq!(to_fen(&v.rules, &pos), fen);
    }
    let start = to_fen(&v.rules, &v.rules.start);
    assert_eq!(
        parse_fen(&v.rules, &start).expect("start FEN parses"),
        v.rules.start
    );
}

#[test]
fn fen_errors_point_at_the_text() {
    let v = Variant::load("turkish").expect("bundled");
    let cases = [
        ("X:Wa2:Ba7", "`X` is not a side to move"),
        ("W:Wa2:Qa7", "`Q` is not a side of this variant"),
        ("W:WZa2:Ba7", "`Z` is not a piece of this variant"),
        ("W:Wa9:Ba7", "`a9` is not a square of this board"),
        ("W:Wa2,a2:Ba7", "square `a2` is given twice"),
        ("W:Wa2:Ba7:Wb2", "too many groups"),
        ("W:Wa2:Wb2", "side `W` has two groups"),
        ("W:Wa2,,b2:B", "empty square in the list"),
    ];
    let mut rendered = String::new();
    for (fen, message) in cases {
        let e = parse_fen(&v.rules, fen).expect_err("invalid FEN");
        assert_eq!(e.to_string(), message, "{fen}");
        rendered.push_str(&render(e.as_ref()));
    }
    let damone = Variant::load("damone").expect("bundled");
    let e = parse_fen(&damone.rules, "R:Ra2:Bh8").expect_err("a2 is light");
    assert_eq!(e.to_string(), "`a2` is not a playable square");
    rendered.push_str(&render(e.as_ref()));
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("notation__fen_errors_point_at_the_text", rendered);
    });
}

#[test]
fn move_text_full_short_ambiguous_illegal() {
    let v = Variant::from_source("free.rules", "free", FREE_TURKISH, None).expect("valid rules");
    let moves = legal(&v, "W:Wc3:Bc4,c6,d3,d5,e4,a8");
    let mut names: Vec<String> = moves.iter().map(|m| move_to_string(&v.rules, m)).collect();
    names.sort();
    // By hand: the man goes on while it can; with free choice every complete line is legal.
    assert_eq!(names, ["c3xc5xc7", "c3xc5xe5", "c3xe3xe5xc5xc7"]);

    let full = parse_move(&v.rules, &moves, "c3xe3xe5xc5xc7").expect("full route");
    assert_eq!(full.captures(), 4);
    let short = parse_move(&v.rules, &moves, "c3xe5").expect("one move ends on e5");
    assert_eq!(move_to_string(&v.rules, &short), "c3xc5xe5");
    let partial = parse_move(&v.rules, &moves, "c3xe3xc7").expect("landing squares in order");
    assert_eq!(move_to_string(&v.rules, &partial), "c3xe3xe5xc5xc7");

    let mut rendered = String::new();
    let e = parse_move(&v.rules, &moves, "c3xc7").expect_err("two lines end on c7");
    assert_eq!(e.to_string(), "`c3xc7` is ambiguous: it names 2 moves");
    rendered.push_str(&render(e.as_ref()));
    let e = parse_move(&v.rules, &moves, "c3-c4").expect_err("a capture is compulsory");
    assert_eq!(e.to_string(), "`c3-c4` is not a legal move here");
    rendered.push_str(&render(e.as_ref()));
    let e = parse_move(&v.rules, &moves, "c3xq9").expect_err("not a square");
    rendered.push_str(&render(e.as_ref()));
    let e = parse_move(&v.rules, &moves, "c3").expect_err("one square only");
    rendered.push_str(&render(e.as_ref()));
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("notation__move_text_full_short_ambiguous_illegal", rendered);
    });
}

/// The move-count field: read, written back only when a count is not 0, and checked.
#[test]
fn move_count_field() {
    let v = Variant::load("international").expect("bundled");
    let rules = &v.rules;
    let pos = parse_fen(rules, "W:WK47,35:BK4,16:49").expect("valid FEN with counts");
    assert_eq!(pos.counters[..3], [49, 0, 0]);
    assert_eq!(to_fen(rules, &pos), "W:W35,K47:BK4,16:49,0,0");
    let start = parse_fen(rules, "W:W31-50:B1-20:0,0,0").expect("zero counts");
    assert_eq!(to_fen(rules, &start), "W:W31-50:B1-20");
    for bad in ["W:W31:B1:1,2,3,4", "W:W31:B1:x", "W:W31:B1:300"] {
        let e = parse_fen(rules, bad).expect_err(bad);
        assert!(
            render(e.as_ref()).contains("move"),
            "{bad}: {}",
            render(e.as_ref())
        );
    }
    // A variant without move-count rules has no such field.
    let t = Variant::load("turkish").expect("bundled");
    assert!(parse_fen(&t.rules, "W:Wa2:Bh7:3").is_err());
}
