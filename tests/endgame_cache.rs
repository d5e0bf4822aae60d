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
