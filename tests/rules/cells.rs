//! The grid of corners and centres (`board 5x6 cells, corners and centres`, Dablot Prejjesne):
//! its points and lines, drawn in the terminal and in SVG, read and written in FEN; and the rule
//! `lone king against lone king draws`. Search, self-play and replay on it are tested with the
//! other new boards in `boards.rs`.

use crate::common::{damelab, text};
use damelab::engine::geometry::BitSet;
use damelab::notation::{parse_fen, to_fen};
use damelab::render::Style;
use damelab::Variant;

fn dablot() -> Variant {
    Variant::load("dablot-prejjesne").expect("bundled")
}

fn load(board: &str, moves: &str) -> Result<Variant, String> {
    let text = format!(
        "variant \"T\"\nboard {board}\nsides white \"W\", black \"B\"\npiece man \"M\"\n\
         setup white man a1..c1\nman: {moves}\n"
    );
    Variant::from_source("t.rules", "t", &text, None).map_err(|e| format!("{e:?}"))
}

#[test]
fn the_grid_has_42_corners_30_centres_and_191_segments() {
    let v = dablot();
    let b = &v.rules.spec.board;
    assert_eq!((b.width, b.height), (11, 13), "the lattice of 5x6 cells");
    assert_eq!(b.cells(), Some((5, 6)));
    assert_eq!(v.rules.geo.playable.count(), 72);
    let corners = b.points().filter(|&c| b.is_corner(c)).count();
    assert_eq!(corners, 42);
    let links: usize = b
        .points()
        .map(|c| (0..8).filter(|&a| b.line(c, a).is_some()).count())
        .sum();
    assert_eq!(links / 2, 191);
    // Thirty pieces a side: 28 men, a prince, a king.
    for side in 0..2 {
        let count = |k: usize| v.rules.start.kind_bits(side, k).count();
        assert_eq!((count(0), count(1), count(2)), (28, 1, 1));
    }
}

#[test]
fn a_quiet_move_may_go_orthogonally_on_the_grid_only() {
    assert!(load("5x6 cells, corners and centres", "step all").is_ok());
    let err = load("8x8, dark squares", "step all").unwrap_err();
    assert!(err.contains("OrthogonalQuietMove"), "{err}");
}

#[test]
fn the_terminal_draws_corners_centres_and_the_lines_between() {
    let v = dablot();
    let style = Style {
        unicode: false,
        ..Style::default()
    };
    let b = damelab::render::board(&v.rules, &v.rules.start, None, style);
    let rows: Vec<&str> = b.lines().collect();
    // The file letters, 13 ranks and the 12 links between them, the letters again.
    assert_eq!(rows.len(), 1 + 13 + 12 + 1, "{b}");
    // A corner row: the rank line runs from corner to corner over the centres' files.
    assert!(rows[1].trim_start().starts_with("13   m ───── m"), "{b}");
    // A centre row: the file lines pass beside the centres.
    assert_eq!(
        rows[3].trim(),
        "12   │   m   │   m   │   m   │   m   │   m   │   12"
    );
    // Between them the cells' diagonals meet at the centres.
    assert_eq!(rows[2].trim(), "│ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │");
    assert_eq!(rows[4].trim(), "│ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │");
    // Twelve empty points: the middle line's four, the two centre rows' four each.
    assert_eq!(b.matches('·').count(), 12, "{b}");
}

#[test]
fn svg_draws_every_segment_once_and_centres_as_rings() {
    let v = dablot();
    let svg = damelab::diagram::svg(&v.rules, &v.rules.start, Default::default());
    assert_eq!(svg.matches("<line").count(), 191);
    let rings = svg.matches(r##"r="4" fill="#ead3a8""##).count();
    let dots = svg.matches(r##"r="4" fill="#4a3520""##).count();
    assert_eq!((dots, rings), (42, 30));
}

#[test]
fn fen_names_the_corners_and_the_centres_only() {
    let v = dablot();
    let fen = to_fen(&v.rules, &v.rules.start);
    assert_eq!(parse_fen(&v.rules, &fen).unwrap(), v.rules.start);
    assert!(parse_fen(&v.rules, "W:Wa1,b2:BKk13").is_ok());
    // b1 lies between two corners: no point.
    assert!(parse_fen(&v.rules, "W:Wb1:Bk13").is_err());
}

#[test]
fn lone_kings_draw_and_the_file_may_say_so_for_any_two_pieces() {
    let v = dablot();
    let pos = parse_fen(&v.rules, "W:WKe7:BKa1").unwrap();
    let o = v.rules.material_outcome(&pos).expect("the kings' draw");
    assert_eq!(o.winner, None);
    // A prince against a king plays on.
    let pos = parse_fen(&v.rules, "W:WPe7:BKa1").unwrap();
    assert!(v.rules.material_outcome(&pos).is_none());
    let o = damelab(&["rules", "dablot-prejjesne"]);
    assert!(text(&o.stdout).contains("a lone king against a lone king: the game is drawn at once"));
}
