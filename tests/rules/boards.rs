//! Boards of points and lines: the alquerque board (Zamma) and the hexagon (HexDame) drawn in the
//! terminal and in SVG, read and written in FEN and PDN, searched, played by self-play and in the
//! REPL.

use crate::common::{damelab, text};
use damelab::notation::{parse_fen, to_fen};
use damelab::render::{board_text, Style};
use damelab::Variant;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-boards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_terminal_draws_a_hexagon_row_by_drawn_row() {
    let v = Variant::load("hexdame").expect("bundled");
    let b = board_text(&v.rules, &v.rules.start, None);
    let rows: Vec<&str> = b.lines().collect();
    assert_eq!(rows.len(), 17, "{b}");
    // Cells per drawn row: 1, 2, 3, 4, then 5 and 4 in turn, then 3, 2, 1.
    let cells: Vec<usize> = rows
        .iter()
        .map(|r| r.chars().filter(|c| matches!(c, 'M' | 'm' | '·')).count())
        .collect();
    assert_eq!(
        cells,
        [1, 2, 3, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 3, 2, 1],
        "{b}"
    );
    // Black's far corner on top, White's corner a1 at the bottom, both in the middle column.
    assert!(rows[0].trim_start().starts_with("i9") && rows[16].trim_start().starts_with("a1"));
    let col = |r: &str, c: char| r.find(c).unwrap();
    assert_eq!(col(rows[0], 'm'), col(rows[16], 'M'), "{b}");
    // a5 on the left of its row and e1 on the right.
    assert!(
        rows[12].trim_start().starts_with("a5") && rows[12].ends_with("e1"),
        "{b}"
    );
}

#[test]
fn the_terminal_draws_the_lines_of_a_board_of_points() {
    let v = Variant::load("zamma").expect("bundled");
    let style = Style {
        unicode: false,
        ..Style::default()
    };
    let b = damelab::render::board(&v.rules, &v.rules.start, None, style);
    let rows: Vec<&str> = b.lines().collect();
    // The file letters, then rank 9, its links to rank 8, … rank 1, the letters again.
    assert_eq!(rows.len(), 1 + 9 + 8 + 1, "{b}");
    assert!(rows[1].trim_start().starts_with("9   m ─ m"), "{b}");
    // a9 (file + rank even) has a diagonal down to b8; b9 has none; a1 goes up to b2.
    assert_eq!(rows[2].trim(), "│ ╲ │ ╱ │ ╲ │ ╱ │ ╲ │ ╱ │ ╲ │ ╱ │", "{b}");
    assert_eq!(rows[16].trim(), "│ ╱ │ ╲ │ ╱ │ ╲ │ ╱ │ ╲ │ ╱ │ ╲ │", "{b}");
    // The centre e5 is the only empty point.
    assert_eq!(b.matches('·').count(), 1, "{b}");
}

#[test]
fn svg_draws_the_hexagon_cells_and_the_alquerque_lines() {
    let hex = Variant::load("hexdame").expect("bundled");
    let svg = damelab::diagram::svg(&hex.rules, &hex.rules.start, Default::default());
    assert_eq!(svg.matches("<polygon").count(), 61);
    let y_of = |name: &str| -> f64 {
        let at = svg.find(&format!(">{name}</text>")).unwrap();
        let head = &svg[..at];
        let y = &head[head.rfind("y=\"").unwrap() + 3..];
        y[..y.find('"').unwrap()].parse().unwrap()
    };
    assert!(y_of("a1") > y_of("e5") && y_of("e5") > y_of("i9"));
    assert_eq!(
        y_of("a5"),
        y_of("e1"),
        "a5 and e1 are the two ends of one drawn row"
    );
    let zamma = Variant::load("zamma").expect("bundled");
    let svg = damelab::diagram::svg(&zamma.rules, &zamma.rules.start, Default::default());
    // 2 x 9 x 8 orthogonal segments and one diagonal in each of the 64 little squares.
    assert_eq!(svg.matches("<line").count(), 144 + 64);
    assert_eq!(svg.matches("<polygon").count(), 0);
}

#[test]
fn fen_names_cells_of_the_hexagon_only() {
    let v = Variant::load("hexdame").expect("bundled");
    let fen = to_fen(&v.rules, &v.rules.start);
    assert_eq!(parse_fen(&v.rules, &fen).unwrap(), v.rules.start);
    assert!(parse_fen(&v.rules, "W:We5:Bi9").is_ok());
    // a9 lies in the rectangle of coordinates but outside the hexagon.
    assert!(parse_fen(&v.rules, "W:We5:Ba9").is_err());
}

#[test]
fn moves_search_and_selfplay_run_on_the_new_boards() {
    for name in ["zamma", "hexdame", "dablot-prejjesne"] {
        let o = damelab(&["analyse", name, "--depth", "3"]);
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        assert!(text(&o.stdout).lines().last().unwrap().starts_with("best "));
        let pdn = scratch(&format!("{name}.pdn"));
        let o = damelab(&[
            "selfplay",
            name,
            "--games",
            "2",
            "--random",
            "--threads",
            "1",
            "--max-plies",
            "60",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        // The games written replay move by move.
        let o = damelab(&["replay", pdn.to_str().unwrap()]);
        assert!(
            o.status.success(),
            "{name}: {}{}",
            text(&o.stdout),
            text(&o.stderr)
        );
    }
}

#[test]
fn the_repl_plays_a_hexdame_move_and_draws_the_board() {
    let mut c = crate::common::bin();
    c.args(["repl", "hexdame"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"d4-e5\nshow\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = text(&out.stdout);
    // The hexagon, drawn row by drawn row, with the man that moved to e5 marked.
    assert!(out.contains(" a5 ") && out.contains(" e1"), "{out}");
    assert!(out.contains("[⛀]") && out.contains("[·]"), "{out}");
}
