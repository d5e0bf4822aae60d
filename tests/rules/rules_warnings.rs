//! Rules files that load but draw a warning: each in `tests/rules_warnings/` loads, has at least
//! one warning, and its rendered warnings are snapshotted in `snapshots/` (review them like code).
//! No bundled variant and no example draws one.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

fn render(d: &dyn Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, d)
        .unwrap();
    out
}

#[test]
fn rules_files_with_warnings() {
    insta::glob!("..", "rules_warnings/*.rules", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let file_name = path.file_name().unwrap().to_str().unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let warnings = match damelab::lang::load_with_warnings(file_name, stem, &text) {
            Ok((_, Some(w))) => w,
            Ok((_, None)) => panic!("{file_name} loads without a warning, but it should warn"),
            Err(e) => panic!("{file_name} does not load: {e}"),
        };
        assert_eq!(warnings.severity(), Some(miette::Severity::Warning));
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(render(&warnings));
        });
    });
}

#[test]
fn bundled_variants_and_examples_draw_no_warning() {
    let mut files: Vec<(String, String)> = damelab::variants::BUNDLED
        .iter()
        .map(|(name, text)| (format!("variants/{name}.rules"), text.to_string()))
        .collect();
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    for entry in std::fs::read_dir(examples).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rules") {
            let text = std::fs::read_to_string(&path).unwrap();
            files.push((path.display().to_string(), text));
        }
    }
    assert!(
        files.len() > 20,
        "the bundled variants and examples are found"
    );
    for (file, text) in &files {
        match damelab::lang::load_with_warnings(file, "v", text) {
            Ok((_, None)) => {}
            Ok((_, Some(w))) => panic!("{file} draws a warning:\n{}", render(&w)),
            Err(e) => panic!("{file} does not load: {e}"),
        }
    }
}

#[test]
fn a_file_with_errors_reports_errors_not_warnings() {
    // The king is unreachable and the direction misspelt: the error is what the user sees.
    let text = "variant \"T\"\nboard 4x4, all squares\nsides white \"W\", black \"B\"\n\
                piece man \"M\"\npiece king \"K\"\nsetup white man a1..d1\nman: step forwrd\n";
    let err = damelab::lang::load_with_warnings("t.rules", "t", text).expect_err("misspelt");
    assert_eq!(err.errors().len(), 1);
}

#[test]
fn check_prints_ok_and_the_warning_and_exits_0() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/rules_warnings/unreachable_king.rules"
    );
    let o = crate::common::bin()
        .args(["check", file])
        .output()
        .expect("damelab runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains(": ok (Test), 1 warning"), "{stdout}");
    assert!(stderr.contains("rules::unreachable_piece"), "{stderr}");
    assert!(stderr.contains("never comes into play"), "{stderr}");
}
