//! `damelab rules`: the plain-English read-back of every bundled variant, snapshotted so a change
//! to a rules file, the language or the compiler shows up as a reviewable diff.

use damelab::{describe::describe, variants::BUNDLED, Variant};

#[test]
fn describe_every_bundled_variant() {
    for (name, _) in BUNDLED {
        let v = Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let text = describe(&v.rules);
        assert!(
            text.contains(&v.rules.spec.title),
            "{name}: the title is named"
        );
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(format!("describe__rules-{name}"), text);
        });
    }
}
