//! `damelab compile VARIANT --dump` for every bundled variant, snapshotted
//! (`snapshots/compile__<name>.snap`), so a change to the grammar or the compiler shows up as a
//! reviewable diff of the checked rules.

use damelab::variants::BUNDLED;

#[test]
fn compile_dump_of_every_bundled_variant() {
    for (name, _) in BUNDLED {
        let out = crate::common::bin()
            .args(["compile", name, "--dump"])
            .output()
            .expect("the damelab binary runs");
        assert!(out.status.success(), "compile {name} --dump failed");
        let yaml = String::from_utf8(out.stdout).expect("damelab writes UTF-8");
        let back: damelab::spec::VariantSpec =
            serde_yaml::from_str(&yaml).expect("the dump reads back as a spec");
        let v = damelab::Variant::load(name).expect("a bundled variant loads");
        assert_eq!(
            back, v.rules.spec,
            "{name}: the dump does not read back the same"
        );
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(format!("compile__{name}"), yaml);
        });
    }
}
