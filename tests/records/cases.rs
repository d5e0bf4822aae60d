//! Runs every case file in `tests/cases/`: each expectation must hold, and each case's actual
//! position, legal moves and perft figures are snapshotted (`snapshots/cases__<file>.snap`) so a
//! change to a rules file or the generator shows up as a reviewable diff.

use damelab::cases::{run_case, CaseFile};
use damelab::Variant;
use serde::Serialize;

#[derive(Serialize)]
struct Snap<'a> {
    name: &'a str,
    #[serde(flatten)]
    actual: &'a damelab::cases::Actual,
}

#[test]
fn case_files() {
    insta::glob!("..", "cases/*.yaml", |path| {
        let text = std::fs::read_to_string(path).expect("case file is readable");
        let file: CaseFile = serde_yaml::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: bad case file: {e}", path.display()));
        // A bundled name, or a rules file relative to the case file (as `damelab verify` reads it).
        let variant = if damelab::variants::bundled(&file.variant).is_some() {
            Variant::load(&file.variant)
        } else {
            Variant::from_path(&path.parent().expect("in tests/cases").join(&file.variant))
        }
        .unwrap_or_else(|e| panic!("{}: variant `{}`: {e:?}", path.display(), file.variant));
        let runs: Vec<_> = file.cases.iter().map(|c| run_case(&variant, c)).collect();
        let failures: Vec<String> = runs
            .iter()
            .filter(|r| !r.passed())
            .map(|r| {
                let lines: Vec<String> = r
                    .failures
                    .iter()
                    .map(|f| f.text.clone())
                    .chain(r.problems.iter().map(|p| format!("{}: {}", p.key, p.error)))
                    .collect();
                format!("{} / {}:\n  {}", path.display(), r.name, lines.join("\n  "))
            })
            .collect();
        assert!(
            failures.is_empty(),
            "failing cases:\n{}",
            failures.join("\n")
        );
        let snaps: Vec<Snap> = runs
            .iter()
            .filter_map(|r| {
                r.actual.as_ref().map(|a| Snap {
                    name: &r.name,
                    actual: a,
                })
            })
            .collect();
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_yaml_snapshot!("cases__case_files", snaps);
        });
    });
}
