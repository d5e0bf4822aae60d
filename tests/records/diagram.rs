//! SVG diagrams (`damelab diagram`): one snapshot per kind of board — 10x10 numbered, 8x8 all
//! squares, 8x8 dark squares with `a1` light, Damone's three kinds on its diagonal setup, 10x10
//! all squares — each with a last move and its captures where the position has one; and the bad
//! input of the command.

fn diagram(args: &[&str]) -> std::process::Output {
    crate::common::bin()
        .arg("diagram")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

fn svg(args: &[&str]) -> String {
    let o = diagram(args);
    assert!(
        o.status.success(),
        "diagram {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("SVG is UTF-8")
}

macro_rules! snap {
    ($name:expr, $text:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(format!("diagram__{}", $name), $text);
        });
    };
}

#[test]
fn international_opening_move() {
    let s = svg(&["international", "--last", "32-28"]);
    // Numbered board: every square number 1..50 is written, no file letters.
    assert!(s.contains(">50</text>") && !s.contains(">j</text>"));
    snap!("international_32-28", s);
}

#[test]
fn dameo_king_capture() {
    let s = svg(&[
        "dameo",
        "--fen",
        "W:Wc3,Kd4:Bd5,d7,Ke7",
        "--last",
        "d4xd6xd8",
    ]);
    assert_eq!(
        s.matches("stroke=\"#c0141c\"").count(),
        2,
        "two captures crossed"
    );
    assert!(s.contains(">a</text>") && s.contains(">8</text>"));
    snap!("dameo_king_capture", s);
}

#[test]
fn italian_a1_light() {
    snap!(
        "italian_position",
        svg(&["italian", "--fen", "W:W21,K30:B17,18,K10"])
    );
}

#[test]
fn damone_three_kinds() {
    let s = svg(&[
        "damone",
        "--fen",
        "R:RIa1,Dc1,e1:BDb2,d4,If6",
        "--last",
        "a1xc3xe5xg7",
    ]);
    // The red side is drawn red.
    assert!(s.contains("fill=\"#c8102e\""));
    snap!("damone_capture", s);
}

#[test]
fn damone_start_and_big_dameo() {
    snap!("damone_start", svg(&["damone"]));
    snap!("big-dameo-4_start", svg(&["big-dameo-4"]));
}

#[test]
fn writes_a_file() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("english.svg");
    std::fs::remove_file(&path).ok();
    let o = diagram(&["english", "-o", path.to_str().expect("a UTF-8 path")]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&path).expect("the SVG was written");
    assert!(text.starts_with("<svg"));
}

#[test]
fn bad_input_is_a_diagnostic() {
    for args in [
        &["dameo", "--last", "a1-a5"][..],
        &["dameo", "--fen", "W:Wz9"],
        &["nowhere"],
        &["dameo", "-o", "/nonexistent-dir/x.svg"],
    ] {
        let o = diagram(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("panicked") && !err.is_empty(),
            "{args:?}: {err}"
        );
    }
}
