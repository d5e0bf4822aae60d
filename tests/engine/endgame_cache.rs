//! Endgame tables from the cache: `damelab endgame` says they were loaded (not "built 0
//! positions"), and `damelab analyse` uses the default cache's tables as the workbench does.

use std::process::Output;

use crate::common::damelab_cached as damelab;

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
    let (with, _) =
        crate::common::analyse_with_and_without_tables("english", "W:WK1,K3:BK30", "2", &cache);
    assert!(with.starts_with("endgame tables: "), "{with}");
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

/// `damelab` with these arguments, this cache and this input (issue 46).
fn damelab_in(args: &[&str], cache: &std::path::Path, input: &str) -> Output {
    crate::common::with_input(args, input, &[("DAMELAB_CACHE", cache)])
}

#[test]
fn engines_play_with_the_cache_tables_by_default_and_refuse_a_damaged_cache() {
    let cache = std::env::temp_dir().join(format!("damelab-tables-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let dir = cache.to_str().expect("a UTF-8 path");
    let o = damelab(&["endgame", "english", "KK v K", "--cache", dir], &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut files: Vec<_> = std::fs::read_dir(&cache)
        .expect("the cache lists")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0));
    let count = files.len();
    assert!(count >= 2, "KK v K and what it reaches: {files:?}");

    // The Hub engine opens the cache's tables at `init`.
    let fen = "W:WK1,K3:BK30";
    let hub1 = "hub\ninit\nquit\n";
    let o = damelab_in(&["hub", "english", "--protocol", "1"], &cache, hub1);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("\nready"), "{out}");
    // Nothing was built during play: the cache holds the same files.
    assert_eq!(std::fs::read_dir(&cache).expect("lists").count(), count);

    // The largest table damaged (its header): left out with a note, the others still used.
    let damage = |p: &std::path::Path| {
        let mut bytes = std::fs::read(p).expect("a table reads");
        bytes[..8].copy_from_slice(b"garbage!");
        std::fs::write(p, bytes).expect("the table is damaged");
    };
    damage(files.last().expect("a table"));
    let analyse = ["analyse", "english", "--fen", fen, "--depth", "2"];
    let o = damelab(&analyse, &cache);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.starts_with("endgame tables: "), "{text}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("note: "), "the damaged file is named: {err}");

    // Every table of the rules damaged: refused with a message that says how to rebuild them,
    // by analyse, match, selfplay and the Hub engine; never used.
    for f in &files[..count - 1] {
        damage(f);
    }
    let o = damelab(&analyse, &cache);
    let err = crate::common::flat(&String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no usable endgame table"), "{err}");
    assert!(err.contains("damelab endgame english"), "{err}");
    let engines = ["--engine", "name=a depth=1", "--engine", "name=b depth=1"];
    let mut args = vec!["match", "english", "--games", "2"];
    args.extend(engines);
    let o = damelab(&args, &cache);
    let err = crate::common::flat(&String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no usable endgame table"), "{err}");
    let o = damelab(
        &["selfplay", "english", "--games", "2", "--depth", "1"],
        &cache,
    );
    let err = crate::common::flat(&String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no usable endgame table"), "{err}");
    let o = damelab_in(&["hub", "english", "--protocol", "1"], &cache, hub1);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("no usable endgame table"), "{out}");
    assert!(
        !out.contains("\nready"),
        "a refused engine is not ready: {out}"
    );
    // Without tables, each plays as before.
    args.push("--no-tables");
    let o = damelab(&args, &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = damelab(
        &[
            "selfplay",
            "english",
            "--games",
            "2",
            "--depth",
            "1",
            "--no-tables",
        ],
        &cache,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = damelab_in(
        &["hub", "english", "--protocol", "1", "--no-tables"],
        &cache,
        hub1,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("\nready"), "{out}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// `damelab endgame VARIANT --up-to N` builds every material of at most N pieces (at least one a
/// side), each once: English's 16 materials of two or three pieces come from two builds (`MM v M`
/// and `M v MM` reach all the others), 26 tables with the 10 one-sided materials a capture
/// leaves; a second run loads them all.
#[test]
fn up_to_builds_every_material_of_that_many_pieces_once() {
    let cache = crate::common::scratch("endgame_cache", "up_to");
    let dir = cache.to_str().expect("a UTF-8 path");
    let o = damelab(
        &["endgame", "english", "--up-to", "3", "--cache", dir],
        &cache,
    );
    let text = crate::common::ok(&o);
    assert!(text.contains("MM v M:"), "{text}");
    assert!(text.contains("M v MM:"), "{text}");
    assert!(
        text.ends_with("every material of at most 3 pieces: 26 tables in 2 builds\n"),
        "{text}"
    );
    let files = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .count();
    assert!(files >= 26, "{files} files in the cache");
    let again = crate::common::ok(&damelab(
        &["endgame", "english", "--up-to", "3", "--cache", dir],
        &cache,
    ));
    assert!(!again.contains("positions/s"), "{again}");
    assert!(again.contains("tables loaded from the cache"), "{again}");
    // The engine then plays with them: a 3-piece position is a table's value at once.
    let o = damelab(
        &[
            "analyse",
            "english",
            "--fen",
            "W:WK1,K3:B30",
            "--depth",
            "2",
        ],
        &cache,
    );
    let text = crate::common::ok(&o);
    assert!(text.starts_with("endgame tables: "), "{text}");
    // Out of range, or with a material too, or with neither: usage errors naming the option.
    for (args, needle) in [
        (
            &["endgame", "english", "--up-to", "1"][..],
            "1 is not in 2..=32",
        ),
        (
            &["endgame", "english", "KK v K", "--up-to", "3"],
            "cannot be used with",
        ),
        (&["endgame", "english"], "<MATERIAL>"),
    ] {
        let o = damelab(args, &cache);
        crate::common::fails(&o, 1, needle);
    }
    let _ = std::fs::remove_dir_all(&cache);
}
