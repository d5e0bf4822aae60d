//! The priority key the engine reports for a move (`Rules::priority_key`, used by `explain`)
//! agrees with the generator: in every case position of `tests/cases/`, the legal captures all
//! share one key, and no capture the priority rules out has a higher one.

use damelab::cases::CaseFile;
use damelab::engine::GenOptions;
use damelab::notation::parse_fen;
use damelab::Variant;

#[test]
fn legal_captures_share_the_best_key() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("tests/cases exists") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_none_or(|x| x != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable case file");
        let file: CaseFile = serde_yaml::from_str(&text).expect("valid case file");
        // A bundled name, or a rules file relative to the case file.
        let v = if damelab::variants::bundled(&file.variant).is_some() {
            Variant::load(&file.variant)
        } else {
            Variant::from_path(&path.parent().expect("in tests/cases").join(&file.variant))
        }
        .expect("variant loads");
        let rules = &v.rules;
        let mut free_spec = rules.spec.clone();
        free_spec.captures.priority.clear();
        let free = damelab::Rules::compile(&free_spec).expect("compiles without priority");
        for case in &file.cases {
            let Some(fen) = &case.fen else { continue };
            let pos = parse_fen(rules, fen).expect("case FEN parses");
            let mut legal = Vec::new();
            rules.generate(&pos, &mut legal, GenOptions::default());
            let keys: Vec<u128> = legal
                .iter()
                .filter(|m| m.is_capture())
                .map(|m| rules.priority_key(&pos, m))
                .collect();
            let Some(&best) = keys.first() else { continue };
            assert!(
                keys.iter().all(|&k| k == best),
                "{}: {}",
                path.display(),
                case.name
            );
            let mut all = Vec::new();
            free.generate(&pos, &mut all, GenOptions::default());
            for m in all.iter().filter(|m| m.is_capture()) {
                let k = rules.priority_key(&pos, m);
                let is_legal = legal.iter().any(|l| l.same_move(m));
                assert!(
                    k <= best,
                    "{}: {}: a ruled-out capture scores higher",
                    path.display(),
                    case.name
                );
                assert_eq!(is_legal, k == best, "{}: {}", path.display(), case.name);
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} capture positions checked");
}
