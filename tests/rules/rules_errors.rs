//! Every broken rules file in `tests/rules_errors/` is rejected, and its rendered diagnostics are
//! snapshotted in `snapshots/` (review them like code).

use miette::{GraphicalReportHandler, GraphicalTheme};

#[test]
fn broken_rules_files() {
    insta::glob!("..", "rules_errors/*.rules", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let file_name = path.file_name().unwrap().to_str().unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let err = match damelab::lang::load(file_name, stem, &text) {
            Ok(_) => panic!("{file_name} loads, but it should not"),
            Err(e) => e,
        };
        let mut out = String::new();
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(100)
            .render_report(&mut out, &err)
            .unwrap();
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(out);
        });
    });
}

/// The rendered diagnostics of a broken file.
fn rendered(name: &str) -> (usize, String) {
    let path = format!("{}/tests/rules_errors/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let err = damelab::lang::load(name, "t", &text).expect_err("the file is broken");
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, &err)
        .unwrap();
    (err.errors().len(), out)
}

#[test]
fn a_board_without_squares_is_one_precise_error() {
    let (n, out) = rendered("board_without_squares.rules");
    assert_eq!(
        n, 1,
        "one error, not a second at the last statement:\n{out}"
    );
    assert!(
        out.contains("`all squares`, `dark squares` or `all points`"),
        "{out}"
    );
    assert!(!out.contains("before `sides`"), "{out}");
}

#[test]
fn a_direction_in_two_words_suggests_the_hyphen() {
    let (n, out) = rendered("direction_in_two_words.rules");
    assert_eq!(n, 1, "{out}");
    assert!(out.contains("did you mean `forward-diagonal`?"), "{out}");
}

/// The help of a diagnostic names what an installed binary has: `damelab show NAME` of a bundled
/// variant, never a file of the source tree (`variants/…`).
#[test]
fn helps_name_bundled_variants_not_files_of_the_source_tree() {
    let mut shown = 0;
    for entry in
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rules_errors")).unwrap()
    {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let (_, out) = rendered(&name);
        assert!(!out.contains("variants/"), "{name}:\n{out}");
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        for (_, rest) in flat
            .match_indices("`damelab show ")
            .map(|(i, _)| flat.split_at(i))
        {
            let variant = rest["`damelab show ".len()..].split('`').next().unwrap();
            assert!(
                damelab::variants::bundled(variant).is_some(),
                "{name} names `damelab show {variant}`, not a bundled variant:\n{out}"
            );
            shown += 1;
        }
    }
    assert!(shown > 0, "some help names a bundled variant to look at");
}
