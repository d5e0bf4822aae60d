//! Endgame tables of columns (`take top`: Lasca, Bashni): values checked by hand, every value
//! against its children, every position of small materials against a plain depth-limited search
//! over the generator, the cache file's layout word, and the tables in play (analyse, probe,
//! match, self-play, both Hub protocols).

use super::endgame::{check_all, positions, search, solve};
use damelab::endgame::Value;
use damelab::notation::{parse_fen, to_fen};
use damelab::Variant;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn variant(name: &str) -> Variant {
    Variant::load(name).expect("variant loads")
}

/// The table value of each FEN, the material solved with everything it reaches.
fn values(name: &str, material: &str, fens: &[&str]) -> Vec<Value> {
    let v = variant(name);
    let (t, _) = solve(&v.rules, material);
    fens.iter()
        .map(|fen| {
            let pos = parse_fen(&v.rules, fen).expect("valid FEN");
            t.value(&pos).expect("its material is solved")
        })
        .collect()
}

/// Lasca: soldiers step and take forward-diagonally, officers both ways, one square; a capture
/// takes the jumped column's top under the capturer; `no moves loses` (a side whose pieces are
/// all under enemy tops has no column, so no move).
#[test]
fn lasca_values_checked_by_hand() {
    let got = values(
        "lasca",
        "O v OS",
        &[
            // A white officer on c3 against a black soldier on d4 with a black officer under it.
            // White must take (e5 is empty): c3xe5 puts the soldier under the officer and frees
            // the black officer on d4, which takes the white officer at once (d4xf6, f6 empty).
            // White then has no top, so no move: white to move loses in 2.
            "W:WOc3:Bd4(BO)",
            // The same with Black to move: the black column on d4, led by a soldier (which moves
            // and takes towards row 1), must take the officer on c3 (b2 beyond it is free):
            // d4xb2 puts the officer under the black column, and White has no top left. Black
            // wins in 1.
            "B:WOc3:Bd4(BO)",
        ],
    );
    assert_eq!(got, [Value::Loss(2), Value::Win(1)]);
    let got = values(
        "lasca",
        "S v SS",
        &[
            // A lone column: a white soldier over two black soldiers. Black has no top, so no
            // move: black to move has lost already.
            "B:Wd4(BB)",
            // White to move steps the column forward (c5 or e5); then Black has no move: a
            // win in 1.
            "W:Wd4(BB)",
        ],
    );
    assert_eq!(got, [Value::Loss(0), Value::Win(1)]);
    let got = values(
        "lasca",
        "O v O",
        &[
            // The white officer in the corner a1 has one move, a1-b2, next to the black officer
            // on c3 with a1 now empty behind it: c3xa1 takes it, and White has no top. Loss in 2.
            "W:WOa1:BOc3",
            // Adjacent officers with the square behind free: the side to move takes (c3xe5)
            // and the other has no top. Win in 1.
            "W:WOc3:BOd4",
        ],
    );
    assert_eq!(got, [Value::Loss(2), Value::Win(1)]);
}

/// Bashni: kings fly (move and take along a whole diagonal), men take both ways.
#[test]
fn bashni_values_checked_by_hand() {
    let got = values(
        "bashni",
        "K v K",
        &[
            // The white king on a1 sees the black king on d4 along the long diagonal with e5
            // beyond it free: it must take, and Black has no top left. Win in 1.
            "W:WKa1:BKd4",
            // A draw: a king on an edge square can never be taken (every diagonal through it
            // ends there: no square beyond it to land on), and a king on an edge square other
            // than the corners a1, h8 stands on two diagonals, neither the long one a1-h8; the
            // other king blocks at most one of them, so it can always fly to the far end of the
            // other, again an edge square that is not a corner. c1 and h6 are such squares:
            // neither side can ever lose, whoever moves.
            "W:WKc1:BKh6",
            "B:WKc1:BKh6",
        ],
    );
    assert_eq!(got, [Value::Win(1), Value::Draw, Value::Draw]);
    let got = values(
        "bashni",
        "K v MM",
        &[
            // A white king over two black men on h8 (a column of two enemies under a top):
            // Black has no top. With White to move the king flies away (the long diagonal is
            // free), and Black, still without a top, cannot move: a win in 1.
            "W:WKh8(BB)",
            "B:WKh8(BB)",
        ],
    );
    assert_eq!(got, [Value::Win(1), Value::Loss(0)]);
}

/// Bellman's equations on every position (a win in n has a move to a loss in n-1 and none to a
/// shorter one; a loss in n has only moves to wins, the longest in n-1; a draw has no move to a
/// loss and one that is not a win).
#[test]
fn every_value_of_columns_agrees_with_its_children() {
    check_all(&[
        ("lasca", "O v S"),
        ("lasca", "S v SS"),
        ("lasca", "O v OS"),
        ("bashni", "K v M"),
        ("bashni", "M v MM"),
    ]);
}

/// The independent check: a plain minimax over the generator, `DEPTH` plies deep, on every
/// position of small materials (and a sample of larger ones). A table value decided within the
/// depth must be what the search finds; every other (a longer win or loss, a draw) must be left
/// open by the search.
#[test]
fn tables_of_columns_agree_with_a_plain_search_on_every_position() {
    const DEPTH: u16 = 5;
    let mut rng = ChaCha8Rng::seed_from_u64(47);
    for (name, material, sample) in [
        ("lasca", "O v S", None),
        ("lasca", "S v SS", None),
        ("lasca", "O v OS", Some(400)),
        ("bashni", "K v M", None),
        ("bashni", "K v MM", Some(150)),
    ] {
        let v = variant(name);
        let (t, m) = solve(&v.rules, material);
        let all = positions(&t, &m);
        let picked: Vec<usize> = match sample {
            None => (0..all.len()).collect(),
            Some(n) => (0..n).map(|_| rng.random_range(0..all.len())).collect(),
        };
        let (mut decided, mut open) = (0, 0);
        for i in &picked {
            let (pos, val) = &all[*i];
            let want = match *val {
                Value::Win(d) | Value::Loss(d) if d <= DEPTH => Some(*val),
                _ => None,
            };
            let found = search(&v.rules, pos, DEPTH);
            assert_eq!(found, want, "{name} {material}: {}", to_fen(&v.rules, pos));
            if want.is_some() {
                decided += 1;
            } else {
                open += 1;
            }
        }
        // Decided positions were met (the check is not vacuous), and every picked one checked.
        assert!(decided > 0, "{name} {material}");
        assert_eq!(decided + open, picked.len(), "{name} {material}");
    }
}

use crate::common::damelab_cached as damelab;

/// The cache's table files say they hold columns: a file whose layout word says single pieces
/// (or that is damaged) is rebuilt with a note, never used.
#[test]
fn a_columns_table_file_says_so_and_another_kind_is_rebuilt() {
    let cache = crate::common::scratch("columns", "layout");
    let dir = cache.to_str().expect("a UTF-8 path");
    let o = damelab(&["endgame", "lasca", "O v S", "--cache", dir], &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let files: Vec<_> = std::fs::read_dir(&cache)
        .expect("the cache lists")
        .map(|e| e.expect("an entry").path())
        .collect();
    // O v S reaches O v O (the soldier promoted): two tables.
    assert_eq!(files.len(), 2, "{files:?}");
    let file = files
        .iter()
        .find(|p| p.to_string_lossy().ends_with("-0.1.0.0_1.0.0.0.dlt"))
        .expect("the O v S table");
    let bytes = std::fs::read(file).expect("reads");
    assert_eq!(
        bytes[12..16],
        1u32.to_le_bytes(),
        "the layout word: columns"
    );
    // The layout word of a table of single pieces: refused and rebuilt.
    let mut other = bytes.clone();
    other[12..16].copy_from_slice(&0u32.to_le_bytes());
    std::fs::write(file, &other).expect("written");
    let o = damelab(&["endgame", "lasca", "O v S", "--cache", dir], &cache);
    let err = crate::common::flat(&String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(err.contains("holds a table of single pieces"), "{err}");
    assert_eq!(
        std::fs::read(file).expect("reads"),
        bytes,
        "rewritten as it was"
    );
    // A flipped value: the checksum fails, the table is rebuilt.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x10;
    std::fs::write(file, &damaged).expect("written");
    let o = damelab(&["endgame", "lasca", "O v S", "--cache", dir], &cache);
    let err = crate::common::flat(&String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(err.contains("checksum mismatch"), "{err}");
    assert_eq!(
        std::fs::read(file).expect("reads"),
        bytes,
        "rewritten as it was"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

/// The tables of columns in play: `analyse` scores a table position exactly (and searches it
/// with `--no-tables`), the REPL's `probe` reads or builds them, and a match and self-play from
/// a table position are decided by them.
#[test]
fn tables_of_columns_are_probed_in_play() {
    let cache = crate::common::scratch("columns", "play");
    let dir = cache.to_str().expect("a UTF-8 path");
    let o = damelab(&["endgame", "lasca", "O v OS", "--cache", dir], &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = damelab(&["endgame", "lasca", "OS v S", "--cache", dir], &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The longest win of `OS v S`: 21 plies, which a search one ply deep cannot see.
    let (with, without) =
        crate::common::analyse_with_and_without_tables("lasca", "W:We1(WO):Bb2", "1", &cache);
    assert!(with.starts_with("endgame tables: 6 materials"), "{with}");
    assert!(with.contains("score win in 21"), "{with}");
    assert!(!without.contains("win in"), "{without}");

    // `probe`: read from the cache, or built on the spot (O v O is not in the cache); the start
    // position's 22 pieces are refused in words.
    let o = crate::common::with_input(
        &["repl", "lasca"],
        "probe\nfen W:WOc3:Bd4(BO)\nprobe\nfen W:WOa1:BOc3\nprobe\n",
        &[("DAMELAB_CACHE", &cache)],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    // The start position: past what a table of columns takes, said in words.
    assert!(text.contains("22 pieces, far too many"), "{text}");
    assert!(text.contains("O v OS: loss in 2"), "{text}");
    assert!(text.contains("building the tables for O v O"), "{text}");
    assert!(text.contains("O v O: loss in 2"), "{text}");

    // A match from the table position: adjudicated by the tables, both games (colours
    // reversed) won by the side with the black pieces.
    let openings = cache.join("openings.txt");
    std::fs::write(&openings, "W:WOc3:Bd4(BO)\n").expect("written");
    let args = [
        "match",
        "lasca",
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=1",
        "--games",
        "2",
        "--openings",
        openings.to_str().expect("UTF-8"),
    ];
    let o = damelab(&args, &cache);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("a vs b: 2 games"), "{text}");
    assert!(
        text.contains("endgame tables decided 2 of 2 games"),
        "{text}"
    );
    // Self-play from it: the tables decide each game on reaching their material.
    let o = damelab(
        &[
            "selfplay",
            "lasca",
            "--games",
            "2",
            "--depth",
            "1",
            "--openings",
            openings.to_str().expect("UTF-8"),
        ],
        &cache,
    );
    let text = crate::common::flat(&String::from_utf8_lossy(&o.stdout));
    assert!(o.status.success(), "{text}");
    assert!(
        text.contains("per material first reached: O v OS 2 of 2"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

/// The web workbench builds a table of columns from the page (with its progress) and probes a
/// position of it.
#[test]
fn the_web_workbench_builds_and_probes_tables_of_columns() {
    use crate::front::web_api::{ok, post, scratch, start_in};
    use crate::front::web_streams::events;
    use serde_json::json;
    let root = scratch("endgame-columns");
    let srv = start_in("lasca", &root);
    let r = ok(post(&srv, "/api/endgame", json!({ "material": "O v OS" })));
    let ev = events(&srv, r["stream"].as_str().expect("a stream"), "done", 120);
    let done = &ev.iter().find(|(n, _)| n == "done").expect("done").1;
    assert_eq!(done["stopped"], false, "{done}");
    let text = done["text"].as_str().expect("a report");
    assert!(text.contains("Lasca — O v OS"), "{text}");
    ok(post(&srv, "/api/fen", json!({ "fen": "W:WOc3:Bd4(BO)" })));
    let p = ok(post(&srv, "/api/probe", json!({})));
    let text = p["text"].as_str().expect("a text");
    assert!(text.contains("O v OS: loss in 2"), "{text}");
    assert!(!text.contains("building"), "read from the cache: {text}");
}

/// Both Hub protocols read a table of columns from the cache: Lasca's longest win of `O v OS`
/// (25 plies, Black to move from `B:WOc5:BOa5,a7`) given as single pieces, four of its moves
/// played through the protocol (`d6xb4` builds a white officer over a black one), and a search
/// one ply deep that answers with the table's value (win in 21: score 299.79, 300 less the
/// plies) and a move to the table's loss in 20; without the tables the same search sees no win.
#[test]
fn both_hub_protocols_answer_from_a_table_of_columns() {
    use super::hub::Session;
    use damelab::hub::protocol::{move_from_hub, position_to_hub};
    let cache = crate::common::scratch("columns", "hub");
    let dir = cache.to_str().expect("a UTF-8 path");
    let o = damelab(&["endgame", "lasca", "O v OS"], &cache);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::read_dir(&cache).expect("the cache lists").count() >= 2,
        "the tables are in DAMELAB_CACHE"
    );
    let v = variant("lasca");
    let rules = &v.rules;
    let start = parse_fen(rules, "B:WOc5:BOa5,a7").expect("valid FEN");
    let letters = position_to_hub(rules, &start).expect("single pieces have letters");
    let line = ["a5-b6", "c5-d6", "b6-c5", "d6xb4"];
    let (t, _) = solve(&v.rules, "O v OS");
    let mut pos = start;
    for m in line {
        pos = pos.play(&move_from_hub(rules, &pos, m).expect("a legal move"));
    }
    assert_eq!(to_fen(rules, &pos), "B:WOb4(BO):Ba7");
    assert_eq!(t.value(&pos), Some(Value::Win(21)));
    // The answer's move leads to the table's loss in 20.
    let to_loss_in_20 = |answer: &str| {
        let mv = move_from_hub(rules, &pos, answer).expect("a legal move");
        t.value(&pos.play(&mv)) == Some(Value::Loss(20))
    };
    let env = [("DAMELAB_CACHE", cache.as_path())];

    // Hub-2: `info … score=299.79`, then `done move=…`.
    let hub2 = |tables: &str| {
        let mut s = Session::start_with(&["hub", "lasca"], &env);
        s.send("hub");
        s.read_until("wait");
        s.send(&format!("set-param name=tables value={tables}"));
        s.send("init");
        s.read_until("ready");
        s.send(&format!("pos pos={letters} moves=\"{}\"", line.join(" ")));
        s.send("level depth=1");
        s.send("go think");
        s.read_until("done")
    };
    let lines = hub2(dir);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info ") && l.contains("score=299.79")),
        "{lines:?}"
    );
    let done = lines.last().expect("done");
    let answer = done["done move=".len()..]
        .split_whitespace()
        .next()
        .unwrap_or("");
    assert!(to_loss_in_20(answer), "{done}");
    let lines = hub2("none");
    assert!(
        !lines.iter().any(|l| l.contains("score=299.")),
        "no table, no win seen: {lines:?}"
    );

    // Hub-1: `info DEPTH DEPTH SCORE …` (the score in hundredths: 29979), then `move M`; the
    // tables from the cache by default.
    let mut s = Session::start_with(&["hub", "lasca", "--protocol", "1"], &env);
    s.send("hub");
    s.read_until("wait");
    s.send("init");
    s.read_until("ready");
    s.send(&format!("pos {letters}"));
    for m in line {
        s.send(&format!("move {m}"));
    }
    s.send("depth 1");
    s.send("go");
    let lines = s.read_until("move ");
    assert!(
        lines.iter().any(|l| l.starts_with("info 1 1.0 29979 ")),
        "{lines:?}"
    );
    let answer = lines.last().expect("a move")["move ".len()..]
        .split_whitespace()
        .next()
        .unwrap_or("");
    assert!(to_loss_in_20(answer), "{lines:?}");
    let _ = std::fs::remove_dir_all(&cache);
}
