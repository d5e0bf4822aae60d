//! The capture search's limits: routes as long as the board allows (never cut short), the route
//! budget on pathological rules, and interruptible perft.

use damelab::engine::GenOptions;
use damelab::notation::{move_to_string, parse_fen};
use damelab::Variant;

/// Big Dameo (4 rows): a flying king on a1 in a checkerboard of 40 men. Its longest captures take
/// 33 men, one more than the generator's old fixed route length, which cut them at 32.
const BIG_DAMEO_33: &str = "W:WKa1:Ba2,a4,a6,a8,b1,b3,b5,b7,b9,c2,c4,c6,c8,d1,d3,d5,d7,d9,e2,e4,e6,e8,f1,f3,f5,f7,f9,g2,g4,g6,g8,h1,h3,h5,h7,h9,i2,i4,i6,i8";

#[test]
#[ignore = "release: enumerates every route of a 33-piece capture, 1.4 s in the test profile (.ci/run)"]
fn a_33_piece_capture_is_found_whole() {
    let v = Variant::load("big-dameo-4").expect("bundled");
    let pos = parse_fen(&v.rules, BIG_DAMEO_33).expect("valid FEN");
    let mut moves = Vec::new();
    v.rules.generate(&pos, &mut moves, GenOptions::default());
    assert!(!moves.is_empty());
    for m in &moves {
        assert_eq!(m.captures(), 33, "{}", move_to_string(&v.rules, m));
        assert_eq!(m.route().len(), 33, "{}", move_to_string(&v.rules, m));
        // Every leg lands on an empty square and the route ends where the move ends.
        assert_eq!(*m.route().last().expect("a route"), m.to);
    }
    assert_eq!(moves.len(), 24, "moves of the 33-piece capture");
}

fn fixture(name: &str) -> Variant {
    let path = format!("{}/tests/robust/{name}.rules", env!("CARGO_MANIFEST_DIR"));
    Variant::load(&path).expect("fixture rules load")
}

/// A king on a1 of a `w` x `h` grid of men with a hole on every square of even file and rank:
/// its short orthogonal jumps follow the edges of a grid graph.
fn grid_fen(w: u8, h: u8) -> String {
    let last = |n: u8| {
        if (n - 1).is_multiple_of(2) {
            n - 1
        } else {
            n - 2
        }
    };
    let mut men = Vec::new();
    for r in 0..=last(h) {
        for f in 0..=last(w) {
            if f % 2 == 1 || r % 2 == 1 {
                men.push(format!("{}{}", (b'a' + f) as char, r + 1));
            }
        }
    }
    format!("W:WKa1:B{}", men.join(","))
}

#[test]
#[ignore = "release: runs two searches to the 1,000,000-jump budget, 1.2 s in the test profile (.ci/run)"]
fn pathological_capture_search_reports_the_budget() {
    for (name, w, h) in [("short-jump-king", 14, 8), ("short-jump-king-16x7", 16, 7)] {
        let v = fixture(name);
        let pos = parse_fen(&v.rules, &grid_fen(w, h)).expect("valid FEN");
        let mut moves = vec![];
        let err = v
            .rules
            .try_generate(&pos, &mut moves, GenOptions::default())
            .expect_err("more routes than the budget");
        assert_eq!(err.budget, damelab::engine::ROUTE_BUDGET);
        assert!(moves.is_empty(), "never a partial list");
    }
}

/// The search's shortcuts (the count bound, skipping repeated states, the hashed duplicate check)
/// give the same moves as the plain search that keeps every route.
#[test]
fn shortcuts_keep_the_same_moves() {
    for name in ["short-jump-king", "short-jump-king-free"] {
        let v = fixture(name);
        let pos = parse_fen(&v.rules, &grid_fen(8, 6)).expect("valid FEN");
        let mut fast = vec![];
        v.rules
            .try_generate(&pos, &mut fast, GenOptions::default())
            .expect("within the budget");
        let mut all = vec![];
        let keep = GenOptions {
            keep_duplicates: true,
            ..GenOptions::default()
        };
        v.rules.generate(&pos, &mut all, keep);
        let mut plain: Vec<damelab::Move> = vec![];
        for m in all {
            if !plain.iter().any(|p| p.same_move(&m)) {
                plain.push(m);
            }
        }
        let id = |m: &damelab::Move| (m.from, m.to, m.captured, m.kind_after);
        let mut a: Vec<_> = fast.iter().map(id).collect();
        let mut b: Vec<_> = plain.iter().map(id).collect();
        a.sort();
        b.sort();
        assert!(!a.is_empty());
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn the_cli_says_so() {
    let out = crate::common::bin()
        .args([
            "moves",
            &format!(
                "{}/tests/robust/short-jump-king.rules",
                env!("CARGO_MANIFEST_DIR")
            ),
            "--fen",
            &grid_fen(14, 8),
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("too many capture routes"), "{err}");
    assert!(out.stdout.is_empty());
}

/// Issue 49, finding 2: the search generated moves without the route budget, so `analyse --time 1`
/// on this position took 8-68 s and the web's engine move could kill the server. Now the budget
/// applies to every generation of the search: a diagnostic within a second or so.
#[test]
fn the_search_keeps_the_route_budget() {
    let rules = format!(
        "{}/tests/robust/short-jump-king.rules",
        env!("CARGO_MANIFEST_DIR")
    );
    let fen = grid_fen(14, 8);
    let t = std::time::Instant::now();
    let out = crate::common::bin()
        .args(["analyse", &rules, "--fen", &fen, "--time", "1"])
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let took = t.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("too many capture routes"), "{err}");
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    // The web's engine move: a 422 with the same words, and the server goes on.
    let root = crate::front::web_api::scratch("routes");
    let srv = crate::front::web_api::start_in(&rules, &root);
    let s = crate::front::web_api::post(&srv, "/api/fen", serde_json::json!({ "fen": fen }));
    assert_eq!(s.status, 200, "{}", s.body);
    let t = std::time::Instant::now();
    let r = crate::front::web_api::post(
        &srv,
        "/api/engine/move",
        serde_json::json!({ "seconds": 1.0 }),
    );
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("too many capture routes"), "{}", r.body);
    let again = crate::front::web_api::get(&srv, "/api/state");
    assert_eq!(again.status, 200, "{}", again.body);
}

/// Ctrl-C (here: its flag, set by hand) stops perft with an error; the node limit bounds it.
/// The only test of this binary that touches the process-wide flag.
#[test]
fn perft_stops_on_request_and_at_the_node_limit() {
    use damelab::engine::{PerftError, PerftLimits};
    let v = Variant::load("turkish").expect("bundled");
    let start = v.rules.start;
    let opts = GenOptions::default();
    damelab::interrupt::reset();
    let n = v
        .rules
        .perft_interruptible(&start, 4, opts, 1, PerftLimits::default())
        .expect("not interrupted");
    assert_eq!(n, v.rules.perft(&start, 4, opts));
    damelab::interrupt::request();
    for threads in [1, 2] {
        let r = v
            .rules
            .perft_interruptible(&start, 6, opts, threads, PerftLimits::default());
        assert_eq!(r, Err(PerftError::Interrupted));
    }
    damelab::interrupt::reset();
    let limits = PerftLimits {
        max_nodes: 10_000,
        ..PerftLimits::default()
    };
    let r = v.rules.perft_interruptible(&start, 6, opts, 1, limits);
    assert_eq!(r, Err(PerftError::NodeLimit(10_000)));
}

/// The pathological rules file and its 14x8 grid position, for the commands below.
fn pathological() -> (String, String) {
    let rules = format!(
        "{}/tests/robust/short-jump-king.rules",
        env!("CARGO_MANIFEST_DIR")
    );
    (rules, grid_fen(14, 8))
}

/// Run `damelab ARGS` with `input` on stdin: its output and how long it took. A run past `QUICK`
/// is stopped and fails the test (the unbudgeted capture search ran for minutes).
fn run_with_stdin(args: &[&str], input: &str) -> (std::process::Output, std::time::Duration) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let t = std::time::Instant::now();
    let mut child = crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin was piped")
        .write_all(input.as_bytes())
        .expect("the script is read");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if t.elapsed() > QUICK {
            child.kill().expect("stops");
            child.wait().expect("exits");
            panic!("`damelab {}` still running after {QUICK:?}", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let out = std::process::Output {
        status,
        stdout: stdout.join().expect("read"),
        stderr: stderr.join().expect("read"),
    };
    (out, t.elapsed())
}

/// A few seconds even in a debug build: the unbudgeted search ran for minutes.
const QUICK: std::time::Duration = std::time::Duration::from_secs(30);

#[test]
#[ignore = "release: three searches to the 1,000,000-jump budget, 2.2 s in the test profile (.ci/run)"]
fn the_repl_says_so_and_keeps_the_game() {
    let (rules, fen) = pathological();
    let script = format!("fen {fen}\nmoves\na1xa3\nwhy a1xa3\nresult\nfen\n");
    let (out, took) = run_with_stdin(&["repl", &rules, "--echo"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    eprintln!("took {took:?}");
    // `moves`, the move and `why` each fail with the budget's diagnostic.
    assert_eq!(
        stdout.matches("too many capture routes").count(),
        3,
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 lines of the script failed"), "{stderr}");
    // The game is kept: white to move in the same position.
    assert!(stdout.contains("> result\nwhite to move\n"), "{stdout}");
    assert!(stdout.ends_with(&format!("> fen\n{fen}\n")), "{stdout}");
}

#[test]
#[ignore = "release: two searches to the 1,000,000-jump budget, 1 s in the test profile (.ci/run)"]
fn a_case_on_the_position_fails_with_the_message() {
    let (rules, fen) = pathological();
    let dir = std::env::temp_dir().join(format!("damelab-routes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let case = dir.join("grid.yaml");
    std::fs::write(
        &case,
        format!(
            "variant: {rules}\ncases:\n  - name: grid\n    fen: \"{fen}\"\n    contains: [a1xa3]\n  - name: grid after a move\n    fen: \"{fen}\"\n    play: [a1xa3]\n"
        ),
    )
    .expect("write");
    let (out, took) = run_with_stdin(&["verify", case.to_str().expect("utf-8 path")], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    eprintln!("took {took:?}");
    assert!(stdout.contains("FAIL  grid\n"), "{stdout}");
    assert!(stdout.contains("FAIL  grid after a move\n"), "{stdout}");
    assert_eq!(
        stdout
            .matches("too many capture routes: the search stopped after examining 1000000 jumps")
            .count(),
        2,
        "{stdout}"
    );
}

#[test]
fn replay_and_diagram_say_so() {
    let (rules, fen) = pathological();
    let dir = std::env::temp_dir().join(format!("damelab-routes-pdn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pdn = dir.join("grid.pdn");
    std::fs::write(&pdn, format!("[FEN \"{fen}\"]\n1. a1xa3 *\n")).expect("write");
    let (out, took) = run_with_stdin(
        &[
            "replay",
            pdn.to_str().expect("utf-8 path"),
            "--variant",
            &rules,
        ],
        "",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("replay took {took:?}");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAILED at ply 1 (2:4): too many capture routes"),
        "{stdout}"
    );
    assert!(!stdout.contains("legal moves: none"), "{stdout}");
    let (out, took) = run_with_stdin(&["diagram", &rules, "--fen", &fen, "--last", "a1xa3"], "");
    eprintln!("diagram took {took:?}");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("too many capture routes"), "{err}");
}
