//! Endgame tables from the cache: `damelab endgame` says they were loaded (not "built 0
//! positions"), and `damelab analyse` uses the default cache's tables as the workbench does.

use std::process::Output;

fn damelab(args: &[&str], cache: &std::path::Path) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .env("DAMELAB_CACHE", cache)
        .output()
        .expect("the damelab binary runs")
}

#[test]
fn tables_from_the_cache_are_loaded_and_analyse_uses_them() {
    let cache = std::env::temp_dir().join(format!("damelab-endgame-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let dir = cache.to_str().expect("a UTF-8 path");
    let first = damelab(&["endgame", "english", "KK v K", "--cache", dir], &cache);
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(first.status.success(), "{text}");
    assert!(text.contains("built "), "{text}");
    let again = damelab(&["endgame", "english", "KK v K", "--cache", dir], &cache);
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{text}");
    assert!(text.contains("tables loaded from the cache"), "{text}");
    assert!(!text.contains("built 0 positions"), "{text}");
    assert!(!text.contains("positions/s"), "{text}");

    // `analyse` finds them in the default cache ($DAMELAB_CACHE here), unless told not to.
    let fen = "W:WK1,K3:BK30";
    let o = damelab(
        &["analyse", "english", "--fen", fen, "--depth", "2"],
        &cache,
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.starts_with("endgame tables: "), "{text}");
    let o = damelab(
        &[
            "analyse",
            "english",
            "--fen",
            fen,
            "--depth",
            "2",
            "--no-tables",
        ],
        &cache,
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(!text.contains("endgame tables"), "{text}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// A table file named and stamped by the identity tables had before they took the rules'
/// fingerprint (a hash of the spec's debug form and the format): what an older cache holds.
fn make_legacy(cache: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    use damelab::endgame::store;
    let v = damelab::Variant::load("english").expect("English");
    let m = damelab::endgame::Material::parse(&v.rules, "KK v K").expect("a material");
    let new = store::path(cache, &v.rules, &m);
    let legacy_hash =
        damelab::util::Fnv::of(format!("{:?}|{}", v.rules.spec, store::FORMAT).as_bytes());
    let legacy = cache.join(format!("{legacy_hash:016x}-{}.dlt", m.key()));
    let mut bytes = std::fs::read(&new).expect("the table was built");
    bytes[16..24].copy_from_slice(&legacy_hash.to_le_bytes());
    std::fs::write(&legacy, bytes).expect("a legacy table");
    std::fs::remove_file(&new).expect("the new name removed");
    (new, legacy)
}

#[test]
fn tables_of_an_older_cache_are_still_read() {
    let cache = std::env::temp_dir().join(format!("damelab-endgame-legacy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let dir = cache.to_str().expect("a UTF-8 path");
    let o = damelab(&["endgame", "english", "KK v K", "--cache", dir], &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // Solving again loads the old file (adopted under the fingerprint), never rebuilds it.
    let (new, legacy) = make_legacy(&cache);
    let o = damelab(&["endgame", "english", "KK v K", "--cache", dir], &cache);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("tables loaded from the cache"), "{text}");
    assert!(new.exists(), "the table is under the fingerprint now");
    assert!(!legacy.exists(), "the old name is gone");

    // The search's tables find an old file too.
    make_legacy(&cache);
    let o = damelab(
        &[
            "analyse",
            "english",
            "--fen",
            "W:WK1,K3:BK30",
            "--depth",
            "2",
            "--tables",
            dir,
        ],
        &cache,
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.starts_with("endgame tables: "), "{text}");
    assert!(new.exists(), "the table is under the fingerprint now");
    let _ = std::fs::remove_dir_all(&cache);
}
