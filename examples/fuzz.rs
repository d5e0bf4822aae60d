//! A self-contained fuzzer for damelab's input paths, on the stable toolchain (docs/fuzzing.md).
//!
//! ```text
//! cargo run --release --example fuzz -- TARGET [--secs N] [--seed S] [--out DIR]
//! ```
//!
//! TARGET is `rules` (rules text → check → compile → describe → generate and play), `fen` (FEN
//! parse, print, parse again), `move` (move text parse against a position's legal moves, and
//! explain), `case` (case-file load and run) or `pdn` (PDN read → replay → write → read back and
//! replay again). Inputs are seed files
//! (the bundled rules, the case files, FENs and moves of random games) mutated by a seeded
//! ChaCha8Rng: the same seed gives the same inputs. A panic is caught (`catch_unwind`), and a run
//! of one input longer than the time budget is a hang; either way the input is saved under
//! `DIR/TARGET/` (default `fuzz-out/`) with the panic message in `findings.log`. A hang or an abort
//! (out of memory) ends the worker process; the supervisor starts a new one with the next seed
//! until the time is up, then prints the totals.

use damelab::engine::GenOptions;
use damelab::notation::{move_to_string, parse_fen, parse_move, to_fen};
use damelab::{variants, Position, Rules, Variant};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest a single input may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(10);
/// The largest mutated input (bytes).
const MAX_LEN: usize = 64 * 1024;
/// Exit code of a worker that found a hang.
const HANG_EXIT: i32 = 3;

const TARGETS: &[&str] = &["rules", "fen", "move", "case", "pdn"];

struct Args {
    target: String,
    secs: u64,
    seed: u64,
    out: PathBuf,
    worker: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let target = it
        .next()
        .ok_or("usage: fuzz TARGET [--secs N] [--seed S] [--out DIR]")?;
    if !TARGETS.contains(&target.as_str()) {
        return Err(format!(
            "unknown target `{target}`: one of {}",
            TARGETS.join(", ")
        ));
    }
    let mut a = Args {
        target,
        secs: 60,
        seed: 1,
        out: PathBuf::from("fuzz-out"),
        worker: false,
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("`{flag}` needs a value"));
        match flag.as_str() {
            "--secs" => a.secs = value()?.parse().map_err(|_| "--secs: a number")?,
            "--seed" => a.seed = value()?.parse().map_err(|_| "--seed: a number")?,
            "--out" => a.out = PathBuf::from(value()?),
            "--worker" => a.worker = true,
            _ => return Err(format!("unknown option `{flag}`")),
        }
    }
    Ok(a)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let dir = args.out.join(&args.target);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    if args.worker {
        worker(&args, &dir);
    } else {
        supervise(&args, &dir);
    }
}

// ---------------------------------------------------------------- supervisor

fn supervise(args: &Args, dir: &Path) {
    let exe = std::env::current_exe().expect("the fuzzer knows its own path");
    let end = Instant::now() + Duration::from_secs(args.secs);
    let (mut execs, mut panics, mut hangs, mut aborts, mut workers) = (0u64, 0u64, 0u64, 0u64, 0);
    let mut seed = args.seed;
    while Instant::now() < end {
        let left = end
            .saturating_duration_since(Instant::now())
            .as_secs()
            .max(1);
        workers += 1;
        let out = Command::new(&exe)
            .args([&args.target, "--worker", "--secs", &left.to_string()])
            .args(["--seed", &seed.to_string(), "--out"])
            .arg(&args.out)
            .output();
        seed = seed.wrapping_add(1_000_003);
        let out = match out {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: cannot start a worker: {e}");
                std::process::exit(2);
            }
        };
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(line) = text.lines().rev().find(|l| l.starts_with("execs ")) {
            let n: Vec<u64> = line
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            if n.len() >= 2 {
                execs += n[0];
                panics += n[1];
            }
        }
        match out.status.code() {
            Some(0) => {}
            Some(HANG_EXIT) => hangs += 1,
            _ => {
                aborts += 1;
                let saved = dir.join(format!("abort-{seed}.in"));
                std::fs::copy(dir.join("current.in"), &saved).ok();
                log(
                    dir,
                    &format!(
                        "worker died ({}): input saved as {}\n{}",
                        out.status,
                        saved.display(),
                        String::from_utf8_lossy(&out.stderr)
                    ),
                );
            }
        }
    }
    println!(
        "target {}: {execs} execs in {} s ({} workers, seed {}): {panics} panics, {hangs} hangs, \
         {aborts} aborts; findings in {}",
        args.target,
        args.secs,
        workers,
        args.seed,
        dir.display()
    );
}

fn log(dir: &Path, text: &str) {
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("findings.log"))
    {
        let _ = writeln!(f, "{text}");
    }
}

// ---------------------------------------------------------------- worker

static EXECS: AtomicU64 = AtomicU64::new(0);
static PANICS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

fn worker(args: &Args, dir: &Path) {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info.location().map(|l| l.to_string()).unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = format!("{at}: {msg}"));
    }));
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut corpus = seeds(&args.target, &mut rng);
    let dict = dictionary(&args.target);
    let end = Instant::now() + Duration::from_secs(args.secs);
    let started = Arc::new(AtomicU64::new(u64::MAX));
    let current: Arc<Mutex<Vec<u8>>> = Arc::default();
    let clock = Instant::now();
    {
        // The watchdog: one input past the budget is a hang; save it and stop this worker.
        let (started, current, dir) = (started.clone(), current.clone(), dir.to_path_buf());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let s = started.load(Ordering::Relaxed);
            if s != u64::MAX && clock.elapsed().as_millis() as u64 > s + HANG.as_millis() as u64 {
                let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                let name = dir.join(format!("hang-{:016x}.in", hash(&input)));
                std::fs::write(&name, &input).ok();
                log(&dir, &format!("hang (> {HANG:?}): {}", name.display()));
                let (e, p) = (
                    EXECS.load(Ordering::Relaxed),
                    PANICS.load(Ordering::Relaxed),
                );
                println!("execs {e} {p}");
                std::process::exit(HANG_EXIT);
            }
        });
    }
    let mut seen: HashSet<String> = HashSet::new();
    let (mut execs, mut panics) = (0u64, 0u64);
    let current_file = dir.join("current.in");
    while Instant::now() < end {
        let base = &corpus[rng.random_range(0..corpus.len())];
        let input = mutate(base, &corpus, &dict, &mut rng);
        if let Ok(mut c) = current.lock() {
            c.clone_from(&input);
        }
        std::fs::write(&current_file, &input).ok();
        started.store(clock.elapsed().as_millis() as u64, Ordering::Relaxed);
        let target = args.target.clone();
        let text = input.clone();
        let result = std::panic::catch_unwind(move || run_one(&target, &text));
        started.store(u64::MAX, Ordering::Relaxed);
        execs += 1;
        EXECS.store(execs, Ordering::Relaxed);
        match result {
            Ok(true) if corpus.len() < 4000 && rng.random_range(0..8) == 0 => corpus.push(input),
            Ok(_) => {}
            Err(_) => {
                panics += 1;
                PANICS.store(panics, Ordering::Relaxed);
                let what = LAST_PANIC.with(|p| p.borrow().clone());
                let place = what.split(": ").next().unwrap_or("").to_string();
                if seen.insert(place) {
                    let name = dir.join(format!("panic-{:016x}.in", hash(&input)));
                    std::fs::write(&name, &input).ok();
                    log(dir, &format!("panic: {what}\n  input: {}", name.display()));
                }
            }
        }
    }
    println!("execs {execs} {panics}");
}

fn hash(b: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    b.hash(&mut h);
    h.finish()
}

// ---------------------------------------------------------------- inputs

fn bundled() -> Vec<Variant> {
    variants::BUNDLED
        .iter()
        .map(|(n, _)| Variant::load(n).expect("bundled variants load"))
        .collect()
}

/// A few positions of a random game: the start and every few plies after.
fn positions(rules: &Rules, rng: &mut ChaCha8Rng, plies: usize) -> Vec<Position> {
    let mut pos = rules.start;
    let mut out = vec![pos];
    let mut list = Vec::new();
    for i in 0..plies {
        rules.generate(&pos, &mut list, GenOptions::default());
        if list.is_empty() {
            break;
        }
        pos = pos.play(&list[rng.random_range(0..list.len())]);
        if i % 7 == 3 {
            out.push(pos);
        }
    }
    out
}

fn read_dir(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// The seed inputs of a target. `fen` and `move` inputs are `VARIANT\nTEXT` (`move`:
/// `VARIANT\nFEN\nMOVE`).
fn seeds(target: &str, rng: &mut ChaCha8Rng) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    match target {
        "rules" => {
            out.extend(variants::BUNDLED.iter().map(|(_, t)| t.as_bytes().to_vec()));
            out.extend(read_dir("tests/rules_errors", "rules"));
            out.extend(read_dir("examples", "rules"));
            out.extend(read_dir("tests/fuzz_regressions", "rules"));
        }
        "case" => {
            out.extend(read_dir("tests/cases", "yaml"));
            out.extend(read_dir("examples", "yaml"));
            out.extend(read_dir("tests/verify", "yaml"));
            out.extend(read_dir("tests/verify_errors", "yaml"));
        }
        "pdn" => {
            out.extend(read_dir("tests/pdn", "pdn"));
            out.extend(read_dir("tests/fuzz_regressions", "pdn"));
        }
        _ => {
            for v in bundled() {
                let r = &v.rules;
                for p in positions(r, rng, 60) {
                    let fen = to_fen(r, &p);
                    if target == "fen" {
                        out.push(format!("{}\n{fen}", v.name()).into_bytes());
                        continue;
                    }
                    let mut list = Vec::new();
                    r.generate(&p, &mut list, GenOptions::default());
                    for m in list.iter().take(4) {
                        let text = move_to_string(r, m);
                        out.push(format!("{}\n{fen}\n{text}", v.name()).into_bytes());
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

fn dictionary(target: &str) -> Vec<&'static str> {
    let mut d = vec![
        "é",
        "\u{3000}",
        "ß",
        "∞",
        "😀",
        "\u{301}",
        "\0",
        "\t",
        "\n",
        "\r\n",
        " ",
        "0",
        "1",
        "9",
        "-1",
        "+1",
        "255",
        "256",
        "65536",
        "4294967296",
        "18446744073709551615",
        "1000000000000000000000000000000",
        ",",
        ":",
        ".",
        "..",
        "-",
        "x",
        "X",
        "\"",
        "#",
    ];
    match target {
        "rules" => d.extend([
            "variant ",
            "board ",
            "sides ",
            "piece ",
            "setup ",
            "captures: ",
            "game: ",
            "man",
            "men",
            "king",
            "kings",
            "step ",
            "slide ",
            "leap ",
            "capture ",
            "jump ",
            "fly ",
            "forward",
            "backward",
            "orthogonal",
            "diagonal",
            "all",
            "promote to ",
            "on far rank",
            "priority ",
            "most pieces",
            "lone ",
            "beats ",
            "no ",
            " loses",
            "draw on ",
            "rd",
            "th repetition",
            "dark squares",
            "all squares",
            "numbered",
            "algebraic",
            "rank ",
            "value ",
            "a1",
            "z99",
            "100x100",
            "1x1",
            "16x16",
            "removed at end of turn",
            "removed immediately",
            "optional",
            "compulsory",
            "while own men remain",
            "at most 3 quiet moves in a row",
            " own ",
            " one ",
            "\"Q\"",
            "\"W\"",
        ]),
        "case" => d.extend([
            "variant: ",
            "cases:",
            "- name: ",
            "fen: ",
            "play: ",
            "perft: ",
            "moves: ",
            "~",
            "[",
            "]",
            "{",
            "}",
            "&a ",
            "*a",
            "<<: ",
            "result: ",
            "explain:",
            "contains: ",
            "excludes: ",
            "position: ",
            "keep_duplicates: true",
            "'",
            "|",
            ">",
            "---",
            "!!str ",
            "dameo",
            "turkish",
            "international",
            "  ",
            "    ",
        ]),
        "pdn" => d.extend([
            "[GameType \"20\"]\n",
            "[GameType \"21\"]\n",
            "[GameType \"30\"]\n",
            "[GameType \"20,W,10,10,N2,0\"]\n",
            "[FEN \"W:W31-50:B1-20\"]\n",
            "[FEN \"",
            "[Result \"",
            "[Event \"",
            "\\",
            "{",
            "}",
            "(",
            ")",
            "1-0",
            "0-1",
            "1/2-1/2",
            "2-0",
            "*",
            "$1",
            "!?",
            "1.",
            "...",
            ";",
            "%",
            "32-28",
            "19-23",
            "28x19",
            "c3-d4",
            "W:W",
            ":H0:F1",
        ]),
        _ => d.extend([
            "W", "B", "K", "M", "a1", "h8", "j10", "50", "1-50", "31-50", "Ka1", "Kd4", "c3", "e5",
            "W:W", ":B", "xx", "--",
        ]),
    }
    d
}

fn mutate(base: &[u8], corpus: &[Vec<u8>], dict: &[&str], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut b = base.to_vec();
    // `fen`/`move` inputs keep their first line (the variant) intact most of the time.
    let keep = match b.iter().position(|&c| c == b'\n') {
        Some(i) if b.len() < 400 && rng.random_range(0..16) != 0 => i + 1,
        _ => 0,
    };
    let rounds = 1 + rng.random_range(0..6);
    for _ in 0..rounds {
        let len = b.len();
        let at = if len > keep {
            rng.random_range(keep..=len)
        } else {
            len
        };
        match rng.random_range(0..8) {
            0 if at < len => b[at] = rng.next_u32() as u8,
            1 => {
                let w = dict[rng.random_range(0..dict.len())].as_bytes();
                b.splice(at..at, w.iter().copied());
            }
            2 if at < len => {
                let end = (at + 1 + rng.random_range(0..32)).min(len);
                b.drain(at..end);
            }
            3 if at < len => {
                // Repeat a chunk: the repeated setups and lists that stress the diagnostics.
                let end = (at + 1 + rng.random_range(0..200)).min(len);
                let chunk = b[at..end].to_vec();
                let most = if rng.random_bool(0.1) { 200 } else { 4 };
                let times = 1 + rng.random_range(0..most);
                for _ in 0..times {
                    b.splice(at..at, chunk.iter().copied());
                }
            }
            4 => {
                let other = &corpus[rng.random_range(0..corpus.len())];
                if !other.is_empty() {
                    let s = rng.random_range(0..other.len());
                    let e = (s + 1 + rng.random_range(0..64)).min(other.len());
                    b.splice(at..at, other[s..e].iter().copied());
                }
            }
            5 if at < len && b[at].is_ascii_digit() => {
                let w = ["0", "99", "255", "1000", "18446744073709551616", "40"];
                b.splice(at..at + 1, w[rng.random_range(0..w.len())].bytes());
            }
            6 if at < len => {
                // Swap the case of a letter or turn a byte into a neighbour.
                b[at] = if b[at].is_ascii_alphabetic() {
                    b[at] ^ 0x20
                } else {
                    b[at].wrapping_add(1)
                };
            }
            _ => {
                let w = dict[rng.random_range(0..dict.len())].as_bytes();
                if at < len {
                    let end = (at + w.len()).min(len);
                    b.splice(at..end, w.iter().copied());
                }
            }
        }
        b.truncate(MAX_LEN);
    }
    b
}

// ---------------------------------------------------------------- targets

fn render(d: &dyn Diagnostic) -> String {
    let mut s = String::new();
    let _ = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut s, d);
    s
}

/// Run one input through a target. `true` when it went deep (worth keeping as a seed).
fn run_one(target: &str, input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    match target {
        "rules" => rules_target(&text),
        "fen" => fen_target(&text),
        "move" => move_target(&text),
        "case" => case_target(&text),
        "pdn" => pdn_target(input),
        _ => false,
    }
}

/// A bundled variant by name, compiled once per worker.
fn variant_of(name: &str) -> Option<Variant> {
    static ALL: std::sync::OnceLock<Vec<Variant>> = std::sync::OnceLock::new();
    ALL.get_or_init(bundled)
        .iter()
        .find(|v| v.name() == name)
        .cloned()
}

fn rules_target(text: &str) -> bool {
    let v = match Variant::from_source("fuzz.rules", "fuzz", text, None) {
        Ok(v) => v,
        Err(e) => {
            let _ = render(&e);
            return false;
        }
    };
    let rules = &v.rules;
    let _ = damelab::describe::describe(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(hash(text.as_bytes()));
    for p in positions(rules, &mut rng, 24) {
        check_position(rules, &p);
    }
    true
}

/// What must hold of any position: the FEN round trip, and every legal move's text reads back
/// as that move.
fn check_position(rules: &Rules, p: &Position) {
    let fen = to_fen(rules, p);
    let back = parse_fen(rules, &fen).unwrap_or_else(|e| panic!("own FEN `{fen}` rejected: {e}"));
    assert_eq!(
        to_fen(rules, &back),
        fen,
        "FEN round trip changes the position"
    );
    let mut list = Vec::new();
    rules.generate(p, &mut list, GenOptions::default());
    for m in &list {
        let t = move_to_string(rules, m);
        match parse_move(rules, &list, &t) {
            Ok(back) => assert!(back.same_move(m), "`{t}` reads back as another move"),
            Err(e) => panic!("own move text `{t}` rejected in `{fen}`: {e}"),
        }
    }
}

fn fen_target(text: &str) -> bool {
    let Some((name, fen)) = text.split_once('\n') else {
        return false;
    };
    let Some(v) = variant_of(name) else {
        return false;
    };
    match parse_fen(&v.rules, fen) {
        Ok(p) => {
            check_position(&v.rules, &p);
            true
        }
        Err(e) => {
            let _ = render(&*e);
            false
        }
    }
}

fn move_target(text: &str) -> bool {
    let mut lines = text.splitn(3, '\n');
    let (Some(name), Some(fen), Some(mv)) = (lines.next(), lines.next(), lines.next()) else {
        return false;
    };
    let Some(v) = variant_of(name) else {
        return false;
    };
    let rules = &v.rules;
    let Ok(pos) = parse_fen(rules, fen) else {
        return false;
    };
    let mut list = Vec::new();
    rules.generate(&pos, &mut list, GenOptions::default());
    let ok = match parse_move(rules, &list, mv) {
        Ok(m) => {
            assert!(
                list.iter().any(|l| l.same_move(&m)),
                "parsed an illegal move"
            );
            true
        }
        Err(e) => {
            let _ = render(&*e);
            false
        }
    };
    match damelab::explain::explain(rules, &pos, mv) {
        Ok(_) => {}
        Err(e) => {
            let _ = render(&e);
        }
    }
    ok
}

fn case_target(text: &str) -> bool {
    let file = match damelab::cases::load::load("fuzz.yaml", text) {
        Ok(f) => f,
        Err(e) => {
            let _ = render(&*e);
            return false;
        }
    };
    for (_, e) in &file.errors {
        let _ = render(e);
    }
    let Some(v) = variant_of(&file.variant) else {
        let _ = render(&file.variant_error("unknown".into(), None));
        return false;
    };
    for lc in &file.cases {
        let run = damelab::cases::run_case_within(&v, &lc.case, 2_000_000);
        for p in &run.problems {
            let _ = render(&file.problem(lc, p));
        }
        let _ = damelab::cases::bless::bless_case(&file.text, lc, &run, true);
    }
    !file.cases.is_empty()
}

/// Read every game; replay each in its variant (GameType, else international); write a replayed
/// game back as PDN, read it again and replay it: the writer's output must read and replay to the
/// same moves.
fn pdn_target(input: &[u8]) -> bool {
    use damelab::pdn;
    let mut cache = pdn::VariantCache::default();
    let mut deep = false;
    for game in pdn::read_games(input) {
        let Ok(v) = pdn::variant_for(&game, Some("international"), &mut cache) else {
            continue;
        };
        let done = match pdn::replay(v.rules.clone(), &game) {
            Ok(r) => r,
            Err(f) => {
                let _ = pdn::describe_failure(0, &game, &f);
                continue;
            }
        };
        deep = true;
        let text = pdn::write_game(&done.game, &game.tags, &game.comments, None);
        let again = pdn::read_games(text.as_bytes());
        assert_eq!(
            again.len(),
            1,
            "the writer's game reads as one game:\n{text}"
        );
        let back = pdn::replay(v.rules.clone(), &again[0]).unwrap_or_else(|f| {
            panic!("the writer's game does not replay ({}):\n{text}", f.message)
        });
        assert_eq!(
            back.game.moves(),
            done.game.moves(),
            "the writer's game replays to other moves:\n{text}"
        );
    }
    deep
}
