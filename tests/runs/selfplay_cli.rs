//! `analyse` and `selfplay` on the command line: output, files, and bad input (exit 1, a
//! diagnostic, no panic, no file left behind).

use std::path::PathBuf;
use std::process::Output;

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn fails(args: &[&str], needle: &str) {
    crate::common::fails(&damelab(args), 1, needle);
}

/// A path in this process's scratch folder (files), or an empty folder of its own (`tables`,
/// emptied first: a process id of an earlier run may come again).
fn scratch(name: &str) -> PathBuf {
    if !name.contains('.') {
        return crate::common::scratch("selfplay", name);
    }
    let dir = std::env::temp_dir().join(format!("damelab-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn analyse_prints_a_line_per_depth_and_the_best_move() {
    let o = damelab(&["analyse", "english", "--depth", "3"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert_eq!(out.lines().filter(|l| l.starts_with("depth")).count(), 3);
    assert!(out.lines().last().unwrap().starts_with("best "), "{out}");
}

#[test]
fn selfplay_writes_json_and_svg_and_merge_reads_them() {
    let json = scratch("run.json");
    let svg = scratch("run.svg");
    let o = damelab(&[
        "selfplay",
        "turkish",
        "--games",
        "6",
        "--random",
        "--threads",
        "1",
        "--json",
        json.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("draws") && out.contains("95% CI") && out.contains("complexity"));
    assert!(text(&std::fs::read(&svg).unwrap()).contains("<svg"));
    let merged = damelab(&["selfplay", "merge", json.to_str().unwrap()]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert!(text(&merged.stdout).contains("games            6"));
    // Another version is refused.
    let other = scratch("other.json");
    let v4 = text(&std::fs::read(&json).unwrap());
    assert!(
        v4.contains("\"version\": 4") && v4.contains("\"rating\": null"),
        "{v4}"
    );
    let body = v4.replacen("\"version\": 4", "\"version\": 99", 1);
    std::fs::write(&other, body).unwrap();
    fails(&["selfplay", "merge", other.to_str().unwrap()], "version");
    // Files of version 3 (before the endgame tables' counts) and 2 (before the strength was
    // recorded too) are read, and merged into version 4.
    let mut doc: serde_json::Value = serde_json::from_str(&v4).unwrap();
    let report = doc["report"].as_object_mut().unwrap();
    assert_eq!(report.remove("tables_reached"), Some(0.into()));
    assert_eq!(report.remove("tables_decided"), Some(0.into()));
    doc["version"] = 3.into();
    for version in [3, 2] {
        if version == 2 {
            let top = doc.as_object_mut().unwrap();
            top.remove("rate_against");
            top.remove("rating");
            doc["version"] = 2.into();
        }
        let old = scratch(&format!("v{version}.json"));
        let body = serde_json::to_string_pretty(&doc).unwrap();
        assert!(!body.contains("tables") && body.contains("rating") == (version == 3));
        std::fs::write(&old, body).unwrap();
        let again = scratch("again.json");
        let o = damelab(&[
            "selfplay",
            "merge",
            old.to_str().unwrap(),
            "--json",
            again.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(text(&std::fs::read(&again).unwrap()), v4);
    }
    // A shard of another variant is refused.
    let eng = scratch("english.json");
    let o = damelab(&[
        "selfplay",
        "english",
        "--games",
        "2",
        "--random",
        "--json",
        eng.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    fails(
        &[
            "selfplay",
            "merge",
            json.to_str().unwrap(),
            eng.to_str().unwrap(),
        ],
        "different settings",
    );
}

#[test]
fn bad_input_is_a_diagnostic_and_exit_1() {
    fails(&["selfplay", "nosuch", "--games", "2"], "unknown variant");
    fails(&["analyse", "nosuch"], "unknown variant");
    fails(&["analyse", "turkish", "--fen", "W:Wz9"], "");
    fails(&["analyse", "turkish", "--depth", "1000"], "out of range");
    fails(&["analyse", "turkish", "--time", "0"], "out of range");
    fails(&["selfplay", "turkish", "--games", "0"], "out of range");
    fails(
        &["selfplay", "turkish", "--games", "2", "--depth", "1000"],
        "out of range",
    );
    fails(
        &["selfplay", "turkish", "--games", "2", "--threads", "0"],
        "out of range",
    );
    fails(
        &["selfplay", "turkish", "--games", "2", "--shard", "4/3"],
        "not a shard",
    );
    let missing = scratch("no/such/folder/out.json");
    fails(
        &[
            "selfplay",
            "turkish",
            "--games",
            "2",
            "--random",
            "--json",
            missing.to_str().unwrap(),
        ],
        "cannot write",
    );
    assert!(!missing.exists());
    let not_json = scratch("not.json");
    std::fs::write(&not_json, "{ broken").unwrap();
    fails(
        &["selfplay", "merge", not_json.to_str().unwrap()],
        "not JSON",
    );
}

#[test]
fn repl_go_hint_and_engine() {
    use std::io::Write;
    let mut child = crate::common::bin()
        .args(["repl", "turkish", "--echo"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the damelab binary runs");
    let script =
        "hint depth 3\ngo depth 2\nengine white\nb6-b5\nengine off\ngo depth 99\nengine purple\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = text(&child.wait_with_output().unwrap().stdout);
    let after = |cmd: &str| -> String {
        let start = out.find(&format!("> {cmd}\n")).expect(cmd) + cmd.len() + 3;
        out[start..].split("\n> ").next().unwrap().to_string()
    };
    let hint = after("hint depth 3");
    assert_eq!(
        hint.lines().filter(|l| l.starts_with("depth")).count(),
        3,
        "{hint}"
    );
    assert!(hint.contains("best "));
    // `go` plays white's move; the engine then plays white and answers black's move.
    assert!(after("go depth 2").contains("1. "), "{out}");
    assert!(after("engine white").contains("the engine plays white"));
    assert!(after("b6-b5").contains("2. "), "{out}");
    assert!(after("engine off").contains("engine off"));
    assert!(after("go depth 99").contains("out of range"));
    assert!(after("engine purple").contains("is not a side"));
}

#[test]
fn analyse_uses_endgame_tables() {
    use damelab::endgame::{Material, Options, Tables, Value};
    let dir = scratch("tables");
    let d = dir.to_str().unwrap();
    let o = damelab(&["endgame", "english", "KK v K", "--cache", d]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The longest win of the table (read back from the directory).
    let v = damelab::Variant::load("english").unwrap();
    let m = Material::parse(&v.rules, "KK v K").unwrap();
    let mut t = Tables::new(&v.rules);
    let opts = Options {
        cache: Some(dir.clone()),
        max_memory: 1 << 30,
        progress: false,
        watch: None,
    };
    t.solve(&m, &opts).unwrap();
    assert!(t.tables[&m].loaded);
    let table = &t.tables[&m];
    let (pos, n) = (0..table.index.len())
        .filter_map(|i| match Value::unpack(table.values[i as usize]) {
            Value::Win(n) => Some((table.index.decode::<damelab::engine::geometry::Bits>(i)?, n)),
            _ => None,
        })
        .max_by_key(|&(_, n)| n)
        .expect("a won position");
    assert!(n >= 9, "win in {n}");
    let fen = damelab::notation::to_fen(&v.rules, &pos);
    let o = damelab(&[
        "analyse", "english", "--fen", &fen, "--depth", "2", "--tables", d,
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.starts_with("endgame tables: "), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.ends_with(&format!("score win in {n}")), "{out}");
    // Without them the search sees no win at that depth.
    let o = damelab(&["analyse", "english", "--fen", &fen, "--depth", "2"]);
    assert!(!text(&o.stdout).contains("win in"), "{}", text(&o.stdout));
    // The REPL's engine finds the tables in the cache directory.
    let mut child = crate::common::bin()
        .args(["repl", "english", "--echo"])
        .env("NO_COLOR", "1")
        .env("DAMELAB_CACHE", &dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the damelab binary runs");
    let script = format!("fen {fen}\nhint depth 2\n");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), script.as_bytes()).unwrap();
    let out = text(&child.wait_with_output().unwrap().stdout);
    assert!(out.contains("endgame tables: "), "{out}");
    assert!(out.contains(&format!("score win in {n}\n")), "{out}");
    // Another variant's tables, or no directory: a diagnostic.
    fails(&["analyse", "turkish", "--tables", d], "none of turkish");
    let missing = dir.join("missing");
    fails(
        &["analyse", "english", "--tables", missing.to_str().unwrap()],
        "cannot read the tables directory",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
