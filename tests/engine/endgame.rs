//! Endgame tables: hand-countable small tables, the table against a plain search, every value
//! against its children (win in n has a move to a loss in n-1 and none better for the loser), the
//! cache, and bad input.

use damelab::endgame::solve::Options;
use damelab::endgame::{Material, Tables, Value};
use damelab::engine::{GenOptions, Move, Position, Rules};
use damelab::Variant;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn variant(name: &str) -> Variant {
    Variant::load(name).expect("variant loads")
}

fn opts() -> Options {
    Options {
        cache: None,
        max_memory: 1 << 30,
        progress: false,
        watch: None,
    }
}

pub(crate) fn solve<'r>(rules: &'r Rules, text: &str) -> (Tables<'r>, Material) {
    let m = Material::parse(rules, text).expect("material parses");
    let mut t = Tables::new(rules);
    t.solve(&m, &opts()).expect("tables build");
    (t, m)
}

/// Every legal position of a solved material with its value.
pub(crate) fn positions(tables: &Tables, m: &Material) -> Vec<(Position, Value)> {
    let t = &tables.tables[m];
    (0..t.index.len())
        .filter_map(|i| {
            let v = Value::unpack(t.values[i as usize]);
            match t.index.decode(i) {
                Some(p) => Some((p, v)),
                None => {
                    assert_eq!(v, Value::Illegal);
                    None
                }
            }
        })
        .collect()
}

fn count(list: &[(Position, Value)], turn: usize, f: impl Fn(Value) -> bool) -> usize {
    list.iter()
        .filter(|(p, v)| p.turn() == turn && f(*v))
        .count()
}

#[test]
fn kings_that_cannot_capture_always_draw() {
    let v = variant("tests/endgame/no-capture-kings.rules");
    let (t, m) = solve(&v.rules, "K v K");
    let all = positions(&t, &m);
    // 16 squares, two kings: 16 x 15 placements, each side to move.
    assert_eq!(all.len(), 2 * 16 * 15);
    assert!(all.iter().all(|(_, v)| *v == Value::Draw));
}

#[test]
fn tiny_board_king_against_king_wins_only_by_capturing() {
    let v = variant("tests/endgame/tiny-man.rules");
    let (t, m) = solve(&v.rules, "K v K");
    let all = positions(&t, &m);
    assert_eq!(all.len(), 2 * 12 * 11);
    // A win is a short jump: three squares in a row on the 3x4 board, either way: rows 4 x 1 x 2,
    // files 3 x 2 x 2 = 20 for each side to move. Nothing else is decided.
    for turn in 0..2 {
        assert_eq!(count(&all, turn, |v| v == Value::Win(1)), 20);
        assert_eq!(count(&all, turn, |v| v == Value::Draw), 132 - 20);
    }
}

#[test]
fn lone_man_moves_and_wins_at_once() {
    let v = variant("tests/endgame/tiny-man.rules");
    let (t, m) = solve(&v.rules, "M v -");
    let all = positions(&t, &m);
    // Nine squares below the far rank; White's man moves, Black has no move.
    assert_eq!(count(&all, 0, |v| v == Value::Win(1)), 9);
    assert_eq!(count(&all, 1, |v| v == Value::Loss(0)), 9);
    assert_eq!(all.len(), 18);
}

#[test]
fn the_lone_king_rule_decides_king_against_man_at_once() {
    let v = variant("turkish");
    let (t, m) = solve(&v.rules, "K v M");
    let all = positions(&t, &m);
    // Black's man on 56 squares (not its promotion rank), White's king on the 63 others.
    assert_eq!(count(&all, 0, |v| v == Value::Win(0)), 56 * 63);
    assert_eq!(count(&all, 1, |v| v == Value::Loss(0)), 56 * 63);
    assert_eq!(all.len(), 2 * 56 * 63);
}

/// Bellman's equations, position by position: the value agrees with the values of the children.
fn check_consistent(tables: &Tables, m: &Material) {
    let rules = tables.rules;
    let mut buf: Vec<Move> = Vec::new();
    for (pos, v) in positions(tables, m) {
        rules.generate(&pos, &mut buf, GenOptions::default());
        let kids: Vec<Value> = buf
            .iter()
            .map(|mv| tables.value(&pos.play(mv)).expect("child table solved"))
            .collect();
        let ctx = || format!("{} ({v:?})", damelab::notation::to_fen(rules, &pos));
        match v {
            Value::Win(0) | Value::Loss(0) => assert!(kids.is_empty(), "{}", ctx()),
            Value::Win(n) => {
                assert!(kids.contains(&Value::Loss(n - 1)), "{}", ctx());
                assert!(
                    !kids
                        .iter()
                        .any(|k| matches!(k, Value::Loss(d) if *d < n - 1)),
                    "{}",
                    ctx()
                );
            }
            Value::Loss(n) => {
                assert!(
                    kids.iter().all(|k| matches!(k, Value::Win(d) if *d < n)),
                    "{}",
                    ctx()
                );
                assert!(kids.contains(&Value::Win(n - 1)), "{}", ctx());
            }
            Value::Draw => {
                assert!(
                    !kids.iter().any(|k| matches!(k, Value::Loss(_))),
                    "{}",
                    ctx()
                );
                assert!(
                    kids.is_empty() || !kids.iter().all(|k| matches!(k, Value::Win(_))),
                    "{}",
                    ctx()
                );
            }
            Value::Illegal => panic!("illegal position decoded: {}", ctx()),
        }
    }
}

pub(crate) fn check_all(list: &[(&str, &str)]) {
    for &(name, material) in list {
        let v = variant(name);
        let (t, m) = solve(&v.rules, material);
        for sub in t.tables.keys() {
            check_consistent(&t, sub);
        }
        assert!(t.tables.contains_key(&m), "{name} {material}");
    }
}

#[test]
fn every_value_agrees_with_its_children() {
    check_all(&[
        ("tests/endgame/tiny-man.rules", "KM v K"),
        ("english", "KK v K"),
        ("turkish", "K v M"),
        ("damone", "I v P"),
    ]);
}

#[test]
#[ignore = "slow: run in release by .ci/run"]
fn every_value_agrees_with_its_children_in_bigger_tables() {
    check_all(&[
        ("turkish", "KK v K"),
        ("turkish", "KM v K"),
        ("dameo", "K v MM"),
        ("damone", "I v PD"),
        ("frisian", "K v KM"),
    ]);
}

/// A plain depth-limited search: the exact value when the game is decided within `depth` plies,
/// otherwise `None`.
pub(crate) fn search(rules: &Rules, pos: &Position, depth: u16) -> Option<Value> {
    if let Some(o) = rules.material_outcome(pos) {
        return Some(match o.winner {
            Some(w) if w == pos.turn() => Value::Win(0),
            Some(_) => Value::Loss(0),
            None => Value::Draw,
        });
    }
    let mut moves = Vec::new();
    rules.generate(pos, &mut moves, GenOptions::default());
    if moves.is_empty() {
        return match rules.outcome(pos, 0).and_then(|o| o.winner) {
            Some(w) if w == pos.turn() => Some(Value::Win(0)),
            Some(_) => Some(Value::Loss(0)),
            None => Some(Value::Draw),
        };
    }
    if depth == 0 {
        return None;
    }
    let mut best_win: Option<u16> = None;
    let mut all_lose = true;
    let mut longest = 0;
    for mv in &moves {
        let mut child = pos.play(mv);
        child.runs = Default::default();
        match search(rules, &child, depth - 1) {
            Some(Value::Loss(k)) => best_win = Some(best_win.map_or(k + 1, |b| b.min(k + 1))),
            Some(Value::Win(k)) => longest = longest.max(k + 1),
            _ => all_lose = false,
        }
    }
    match best_win {
        Some(w) => Some(Value::Win(w)),
        None if all_lose => Some(Value::Loss(longest)),
        None => None,
    }
}

#[test]
fn tables_agree_with_a_plain_search() {
    agree_with_search(&[
        ("english", "KK v K"),
        ("tests/endgame/tiny-man.rules", "KM v K"),
    ]);
}

#[test]
#[ignore = "slow: run in release by .ci/run"]
fn bigger_tables_agree_with_a_plain_search() {
    agree_with_search(&[("turkish", "KK v K"), ("dameo", "K v MM")]);
}

pub(crate) fn agree_with_search(list: &[(&str, &str)]) {
    const DEPTH: u16 = 5;
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for &(name, material) in list {
        let v = variant(name);
        let (t, m) = solve(&v.rules, material);
        let all = positions(&t, &m);
        let near: Vec<&(Position, Value)> = all
            .iter()
            .filter(|(_, v)| matches!(v, Value::Win(d) | Value::Loss(d) if *d <= DEPTH))
            .collect();
        let mut checked = 0;
        for k in 0..60 {
            let (pos, val) = if k % 2 == 0 || near.is_empty() {
                all[rng.random_range(0..all.len())]
            } else {
                *near[rng.random_range(0..near.len())]
            };
            let found = search(&v.rules, &pos, DEPTH);
            let want = match val {
                Value::Win(d) | Value::Loss(d) if d <= DEPTH => Some(val),
                _ => None,
            };
            assert_eq!(
                found,
                want,
                "{name} {material}: {}",
                damelab::notation::to_fen(&v.rules, &pos)
            );
            checked += 1;
        }
        assert_eq!(checked, 60);
    }
}

#[test]
fn bad_materials_are_diagnosed() {
    let v = variant("turkish");
    let r = &v.rules;
    let e = Material::parse(r, "KX v K").unwrap_err().to_string();
    assert!(e.contains("unknown piece letter `X`"), "{e}");
    let e = Material::parse(r, "KK").unwrap_err().to_string();
    assert!(e.contains("cannot read the material"), "{e}");
    let e = Material::parse(r, "- v -").unwrap_err().to_string();
    assert!(e.contains("no pieces"), "{e}");
    let many = format!("{} v K", "K".repeat(70));
    let e = Material::parse(r, &many).unwrap_err().to_string();
    assert!(e.contains("only 64 squares"), "{e}");
    // A variant whose pieces have other letters: Damone's are P, D and I.
    let d = variant("damone");
    assert!(Material::parse(&d.rules, "I v P").is_ok());
    let e = Material::parse(&d.rules, "K v K").unwrap_err().to_string();
    assert!(e.contains("unknown piece letter `K`"), "{e}");
    // Too large: refused with the estimate, before any work.
    let m = Material::parse(r, "KKKK v KKK").expect("parses");
    let mut t = Tables::new(r);
    let e = t.solve(&m, &opts()).err().expect("refused").to_string();
    assert!(e.contains("would need about"), "{e}");
    assert!(t.tables.is_empty());
}

#[test]
fn corrupted_or_foreign_cache_files_are_rebuilt() {
    let dir = std::env::temp_dir().join(format!("damelab-endgame-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let v = variant("english");
    let r = &v.rules;
    let m = Material::parse(r, "K v K").expect("parses");
    let o = Options {
        cache: Some(dir.clone()),
        ..opts()
    };
    let mut first = Tables::new(r);
    first.solve(&m, &o).expect("builds");
    assert!(first.notes.is_empty());
    let path = damelab::endgame::store::path(&dir, r, &m);
    let good = std::fs::read(&path).expect("table written");

    // Loaded from the cache the second time.
    let mut again = Tables::new(r);
    again.solve(&m, &o).expect("loads");
    assert!(again.tables[&m].loaded);

    // One flipped bit in the values: rebuilt, same values.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&path, &bad).expect("write");
    let mut t = Tables::new(r);
    t.solve(&m, &o).expect("rebuilds");
    assert!(!t.tables[&m].loaded);
    assert!(
        t.notes.iter().any(|n| n.contains("checksum")),
        "{:?}",
        t.notes
    );
    assert_eq!(t.tables[&m].values, first.tables[&m].values);

    // Another material's file under this name, then garbage: never trusted.
    let other = Material::parse(r, "K v -").expect("parses");
    let foreign = std::fs::read(damelab::endgame::store::path(&dir, r, &other)).expect("sub");
    for junk in [foreign, b"not a table".to_vec()] {
        std::fs::write(&path, &junk).expect("write");
        let mut t = Tables::new(r);
        t.solve(&m, &o).expect("rebuilds");
        assert!(!t.tables[&m].loaded);
        assert_eq!(t.notes.len(), 1, "{:?}", t.notes);
        assert_eq!(t.tables[&m].values, first.tables[&m].values);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn damelab(args: &[&str]) -> std::process::Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

#[test]
fn the_command_reports_and_writes_json() {
    let o = damelab(&["endgame", "english", "KK v K", "--no-cache"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("white to move: 14880 positions"), "{out}");
    assert!(out.contains("verdict: KK v K"), "{out}");
    let o = damelab(&["endgame", "english", "KK v K", "--no-cache", "--json"]);
    assert!(o.status.success());
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(j["material"], "KK v K");
    assert_eq!(j["sides"][0]["positions"], 14880);
    assert!(j["longest"]["plies"].as_u64().is_some());
}

#[test]
fn the_command_diagnoses_bad_input() {
    for (args, want) in [
        (
            vec!["endgame", "turkish", "KQ v K"],
            "unknown piece letter `Q`",
        ),
        (vec!["endgame", "turkish", "KK"], "cannot read the material"),
        (vec!["endgame", "nosuch", "K v K"], "unknown variant"),
        (
            vec!["endgame", "international", "KKKKKK v KK", "--no-cache"],
            "would need about",
        ),
        (
            vec!["endgame", "turkish", "K v K", "--max-memory", "lots"],
            "not a memory size",
        ),
    ] {
        let o = damelab(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn reversed_aims_and_goals_score_the_right_side() {
    // Poddavki: White to move must take Black's last man, and Black, left without pieces, wins.
    let v = variant("poddavki");
    let (t, _) = solve(&v.rules, "M v M");
    let pos = damelab::notation::parse_fen(&v.rules, "W:W22:B18").expect("FEN");
    assert_eq!(t.value(&pos), Some(Value::Loss(1)));
    // Every value agrees with its children and with a plain search, in the reversed games and in
    // a game won by the first king (Breakthrough's tables end at a crowning).
    check_all(&[
        ("poddavki", "K v M"),
        ("giveaway", "K v K"),
        ("breakthrough", "M v M"),
    ]);
    agree_with_search(&[("poddavki", "K v M"), ("breakthrough", "M v M")]);
}
