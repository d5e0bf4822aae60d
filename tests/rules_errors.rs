//! Every broken rules file in `tests/rules_errors/` is rejected, and its rendered diagnostics are
//! snapshotted in `snapshots/` (review them like code).

use miette::{GraphicalReportHandler, GraphicalTheme};

#[test]
fn broken_rules_files() {
    insta::glob!("rules_errors/*.rules", |path| {
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
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(out);
        });
    });
}
