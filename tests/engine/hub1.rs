//! The first Hub protocol (Scan 2.x): `damelab hub --protocol 1` spoken over a pipe, and
//! `damelab match` driving Hub-1 engines — damelab itself through that protocol (told apart from a
//! Hub-2 engine by its `name` line), an engine that writes its captured squares in another order,
//! and engines that answer an illegal move, refuse, crash or hang (each loses its games with the
//! reason recorded; the match goes on).

use std::path::PathBuf;
use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_damelab");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-hub1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `damelab ARGS` with `input` on its standard input.
fn piped(args: &[&str], input: &str) -> String {
    let o = crate::common::with_input(args, input, &[]);
    assert!(o.status.success(), "{o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn damelab_speaks_the_first_hub_protocol() {
    let out = piped(
        &["hub", "international", "--protocol", "1"],
        "hub\nset hash 8\ninit\n\
         pos wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\nmove 32-28\nmove 19-23\n\
         depth 3\ngo\nmove 1-50\nset colour red\nset hash 0\nset lmr_div x\npos wbbbb\nquit\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..4],
        ["name damelab 0.1.0", "author damelab", "wait", "ready"],
        "{out}"
    );
    // The one legal move, its captured square written after it; `info` lines before it.
    assert!(lines.iter().any(|l| l.starts_with("info 3 3.0 ")), "{out}");
    // Then Black's reply the search expects (either recapture, as the evaluation prefers).
    assert!(
        lines.contains(&"move 28x19x23 14x23x19") || lines.contains(&"move 28x19x23 13x24x19"),
        "{out}"
    );
    assert!(
        lines.contains(&"error illegal move: `1-50` is not a legal move here"),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error unknown variable `colour`")),
        "{out}"
    );
    assert!(
        lines.contains(&"error `0` is not a table size of 1 to 65536 MiB"),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error ") && l.contains("lmr_div")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error the position `wbbbb` has 4 squares")),
        "{out}"
    );
}

/// `damelab match international` with these engines and openings of the file `fens` (none: the
/// random openings), its JSON read back.
fn match_json(engines: &[String], fens: Option<&str>, tag: &str) -> (Output, serde_json::Value) {
    let json = temp(&format!("{tag}.json"));
    let mut args: Vec<String> = vec!["match".into(), "international".into()];
    for e in engines {
        args.extend(["--engine".into(), e.clone()]);
    }
    if let Some(f) = fens {
        let path = temp(&format!("{tag}.fen"));
        std::fs::write(&path, f).unwrap();
        args.extend(["--openings".into(), path.display().to_string()]);
    }
    args.extend([
        "--games".into(),
        "2".into(),
        "--max-plies".into(),
        "60".into(),
        "--no-tables".into(),
        "--json".into(),
        json.display().to_string(),
    ]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = crate::common::damelab_with(&refs, &[]);
    let j = std::fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(serde_json::Value::Null);
    (o, j)
}

fn reasons(o: &Output, j: &serde_json::Value) -> Vec<String> {
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let games = j["games"].as_array().expect("the games");
    assert_eq!(games.len(), 2, "both games are played: {j}");
    games
        .iter()
        .map(|g| g["reason"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn match_plays_damelab_against_itself_through_the_first_protocol() {
    let hub1 = format!("name=hub1 depth=2 cmd=\"{BIN} hub international --protocol 1\"");
    let (o, j) = match_json(&[hub1, "name=inside depth=2".into()], None, "self");
    for (r, g) in reasons(&o, &j).iter().zip(j["games"].as_array().unwrap()) {
        for bad in ["crashed", "protocol", "forfeit", "illegal", "refused"] {
            assert!(!r.contains(bad), "{r}");
        }
        assert!(g["plies"].as_u64().unwrap() > 10, "{g}");
    }
}

#[cfg(unix)]
/// A fake Hub-1 engine: a shell script that introduces itself as Scan 2.0 does and then does
/// `then` on `go`.
fn fake(tag: &str, then: &str) -> String {
    let script = format!(
        "echo 'Fake 1.0 by nobody'\nwhile read l; do case \"$l\" in hub) echo 'name Fake 1.0'; echo 'author nobody'; echo wait;; init) echo ready;; go*) {then};; quit) exit 0;; esac; done\n"
    );
    let path = temp(&format!("{tag}.sh"));
    std::fs::write(&path, script).unwrap();
    format!("cmd=\"sh {}\"", path.display())
}

/// White's man on 32 must take 27, 17 and 8 and crown on 3; Black then has nothing left.
#[cfg(unix)]
const ONE_CAPTURE: &str = "W:W32:B27,17,8\n";

#[cfg(unix)]
#[test]
fn captured_squares_in_any_order_name_the_capture() {
    let scrambled = fake(
        "scrambled",
        "echo 'info 12 11.5 250 123456 0.10 1.2 32x3x17x8x27'; echo 'move 32x3x17x8x27'",
    );
    let (o, j) = match_json(
        &[
            format!("name=fake movetime=1 {scrambled}"),
            "name=inside depth=1".into(),
        ],
        Some(ONE_CAPTURE),
        "scrambled",
    );
    let r = reasons(&o, &j);
    // Game 1: the fake has White and wins with its capture; game 2: damelab has White.
    let g = &j["games"][0];
    assert_eq!(g["engines"][0], 0, "{g}");
    assert_eq!(g["result"], "1-0", "{g}");
    assert!(!r[0].contains("illegal"), "{}", r[0]);
    assert_eq!(g["plies"], 1, "{g}");
}

#[cfg(unix)]
#[test]
fn broken_hub1_engines_lose_with_the_reason_and_the_match_goes_on() {
    let cases = [
        ("crash1", fake("crash1", "exit 3"), "crashed"),
        (
            "illegal1",
            fake("illegal1", "echo 'move 1-50'"),
            "illegal move",
        ),
        (
            "partial1",
            fake("partial1", "echo 'move 32x3x27'"),
            "illegal move: `32x3x27` is not a legal move",
        ),
        (
            "refuse1",
            fake("refuse1", "echo 'error bad position'"),
            "refused to move: bad position",
        ),
        ("garbage1", fake("garbage1", "echo move"), "protocol error"),
        ("hang1", fake("hang1", "sleep 5"), "time forfeit"),
    ];
    for (tag, cmd, want) in cases {
        let bad = format!("name=bad movetime=0.05 margin=0.3 {cmd}");
        let (o, j) = match_json(&[bad, "name=good depth=1".into()], Some(ONE_CAPTURE), tag);
        let r = reasons(&o, &j);
        // Game 1: the fake has White and fails to move; game 2: damelab has White and wins.
        assert!(
            r[0].starts_with("bad ") && r[0].contains(want),
            "{tag}: {}",
            r[0]
        );
        assert_eq!(j["games"][0]["result"], "0-1", "{tag}");
        assert_eq!(j["games"][1]["result"], "1-0", "{tag}");
        assert_eq!(j["standings"][0]["tally"]["losses"], 2, "{tag}");
    }
}
