//! The engine: shots found two moves deep, a quiet only-move, legal moves only, game-end rules,
//! incremental hashing; self-play determinism and shard merging.

use damelab::engine::{GenOptions, Move, Position};
use damelab::notation::{move_to_string, parse_fen};
use damelab::runs::shard::{Shard, ShardSet};
use damelab::search::{Limits, Searcher, WIN};
use damelab::selfplay::{self, merge::merge_files, RunFile, Settings};
use damelab::{Rules, Variant};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

fn rules(name: &str) -> Arc<Rules> {
    Variant::load(name).expect("bundled variant").rules
}

fn fen(r: &Rules, f: &str) -> Position {
    parse_fen(r, f).expect("valid FEN")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn legal(r: &Rules, p: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    r.generate(p, &mut v, GenOptions::default());
    v
}

/// A sacrifice that the opponent must take, answered by a capture of two: the search gains a
/// man over the static evaluation, and the principal variation shows the forced captures.
fn shot(variant: &str, f: &str, expect: Option<&str>) {
    let r = rules(variant);
    let pos = fen(&r, f);
    let mut s = Searcher::new(r.clone(), 4);
    let shallow = s.eval.evaluate(&pos);
    let deep = s.search(&pos, &[], depth(4), &mut |_| {});
    let best = deep.best.expect("a move");
    assert!(
        deep.score - shallow >= 80,
        "{variant}: shot worth {} → {}",
        shallow,
        deep.score
    );
    assert!(deep.pv.len() >= 3 && deep.pv[1].is_capture() && deep.pv[2].captures() >= 2);
    if let Some(m) = expect {
        assert_eq!(move_to_string(&r, &best), m, "{variant}");
    }
}

#[test]
fn finds_a_two_for_one_shot_in_turkish() {
    shot("turkish", "W:Wd4,c4,b4:Bd6,f4,h8", Some("d4-d5"));
}

#[test]
fn finds_a_two_for_one_shot_in_dameo() {
    shot("dameo", "W:Wd4,c4,b4:Bd6,f4,h8", None);
}

#[test]
fn finds_a_two_for_one_shot_in_international() {
    shot(
        "international",
        "W:Wd4,c3,g3,b2,h2:Bf6,d6,j10",
        Some("32-28"),
    );
}

#[test]
fn the_only_non_losing_move_is_quiet() {
    // A lone white man: forward or left it is taken and white has no piece left.
    let r = rules("turkish");
    let pos = fen(&r, "W:Wd4:Bd6,b4,h8");
    let mut s = Searcher::new(r.clone(), 4);
    let res = s.search(&pos, &[], depth(6), &mut |_| {});
    let best = res.best.expect("a move");
    assert_eq!(move_to_string(&r, &best), "d4-e4");
    assert!(!best.is_capture());
    assert!(res.score > -(WIN - 100), "not lost: {}", res.score);
    for m in legal(&r, &pos) {
        if move_to_string(&r, &m) != "d4-e4" {
            let child = pos.play(&m);
            let reply = s.search(&child, &[], depth(3), &mut |_| {});
            assert!(reply.score >= WIN - 100, "after {m:?} black wins");
        }
    }
}

/// Positions from seeded random games of every bundled variant.
fn sample_positions(r: &Rules, seed: u64, count: usize) -> Vec<Position> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut pos = r.start;
    let mut buf = Vec::new();
    while out.len() < count {
        r.generate(&pos, &mut buf, GenOptions::default());
        if buf.is_empty() || out.len() % 40 == 39 {
            pos = r.start;
            out.push(pos);
            continue;
        }
        out.push(pos);
        pos = pos.play(&buf[rng.random_range(0..buf.len())]);
    }
    out
}

#[test]
fn search_returns_legal_moves_and_hashes_incrementally() {
    for (name, _) in damelab::variants::BUNDLED {
        let r = rules(name);
        let mut s = Searcher::new(r.clone(), 1);
        for pos in sample_positions(&r, 7, 24) {
            let moves = legal(&r, &pos);
            // The search's root move set is the generator's, whose size perft(1) counts.
            assert_eq!(moves.len() as u64, r.perft(&pos, 1, GenOptions::default()));
            let res = s.search(&pos, &[], depth(2), &mut |_| {});
            match res.best {
                None => assert!(moves.is_empty(), "{name}: no move returned"),
                Some(b) => assert!(moves.contains(&b), "{name}: illegal {b:?}"),
            }
            let h = s.keys.hash(&pos);
            for m in &moves {
                let c = pos.play(m);
                assert_eq!(s.keys.after(&pos, h, m, &c), s.keys.hash(&c), "{name}");
            }
        }
    }
}

#[test]
fn game_end_rules_hold_inside_the_search() {
    // No legal move: nothing to return.
    let r = rules("turkish");
    let mut s = Searcher::new(r.clone(), 1);
    let none = s.search(&fen(&r, "W:W:Bd6"), &[], depth(3), &mut |_| {});
    assert!(none.best.is_none());
    // A won race seen as a forced win (white takes the last black piece).
    let win = s.search(&fen(&r, "W:Wd4:Bd5"), &[], depth(3), &mut |_| {});
    assert_eq!(win.score, WIN - 1);

    // Repetition: a losing side steers into a position seen before, a draw.
    let r = rules("dameo");
    let pos = fen(&r, "W:Wd4:Bb6,Ka8,Kh8,Kh6");
    let mut s = Searcher::new(r.clone(), 1);
    let base = s.search(&pos, &[], depth(3), &mut |_| {});
    assert!(base.score < -100, "white is lost: {}", base.score);
    let target = legal(&r, &pos)
        .into_iter()
        .find(|m| move_to_string(&r, m) == "d4-c5")
        .expect("d4-c5 is legal");
    let seen = s.keys.hash(&pos.play(&target));
    let rep = s.search(&pos, &[seen], depth(3), &mut |_| {});
    assert_eq!(rep.score, 0);
    assert_eq!(move_to_string(&r, &rep.best.unwrap()), "d4-c5");
}

fn settings(variant: &str, games: u64, random: bool) -> Settings {
    let r = rules(variant);
    Settings {
        variant: variant.into(),
        rules_fingerprint: r.fingerprint(),
        games,
        depth: (!random).then_some(2),
        nodes: None,
        random,
        seed: 42,
        max_plies: 200,
        opening_plies: 4,
        eval: None,
        tables: None,
        contempt: 0,
        openings: None,
    }
}

fn play(variant: &str, s: &Settings, shard: Option<(u64, u64)>, threads: usize) -> RunFile {
    let r = rules(variant);
    let idx = selfplay::shard_indices(s.games, shard);
    let games = selfplay::run(&r, s, &idx, threads, &|| {})
        .expect("threads")
        .expect("not interrupted");
    let shards = shard.map_or_else(ShardSet::whole, |(k, n)| ShardSet::of(Shard { k, n }));
    RunFile::new(&r, s.clone(), shards, games)
}

#[test]
fn selfplay_is_deterministic_whatever_the_threads() {
    let s = settings("english", 6, false);
    let one = play("english", &s, None, 1);
    let two = play("english", &s, None, 2);
    assert_eq!(one, two);
    assert_eq!(one.games.len(), 6);
    let s = settings("turkish", 20, true);
    assert_eq!(play("turkish", &s, None, 1), play("turkish", &s, None, 3));
}

#[test]
fn merged_shards_equal_the_single_run() {
    for (variant, random) in [("english", false), ("dameo", true)] {
        let s = settings(variant, 9, random);
        let whole = play(variant, &s, None, 2);
        let shards: Vec<RunFile> = (1..=3)
            .map(|k| play(variant, &s, Some((k, 3)), 1))
            .collect();
        // Through JSON, as `selfplay merge` reads them.
        let shards: Vec<RunFile> = shards
            .iter()
            .map(|f| serde_json::from_str(&serde_json::to_string(f).unwrap()).unwrap())
            .collect();
        let merged = merge_files(&shards, &rules(variant)).expect("mergeable");
        assert_eq!(merged, whole, "{variant}");
        assert!(merge_files(&[shards[0].clone(), shards[0].clone()], &rules(variant)).is_err());
    }
}

#[test]
fn wilson_interval_matches_known_values() {
    let (lo, hi) = selfplay::wilson(21, 100);
    assert!(
        (lo - 0.1417).abs() < 1e-3 && (hi - 0.2998).abs() < 1e-3,
        "{lo} {hi}"
    );
    assert_eq!(selfplay::wilson(0, 0), (0.0, 1.0));
}

/// The same rules forced onto 128-bit sets (no 64-bit copy to hand the work to).
fn wide_only(r: &Arc<Rules>) -> Arc<Rules> {
    let mut wide = (**r).clone();
    wide.narrow = None;
    Arc::new(wide)
}

#[test]
fn every_width_searches_and_plays_the_same() {
    for name in ["dameo", "international", "turkish", "frisian", "russian"] {
        let r = rules(name);
        assert!(r.narrow.is_some(), "{name} fits 64-bit sets");
        let wide = wide_only(&r);
        // Search: the same lines, node for node, from a few positions.
        let mut fast = Searcher::new(r.clone(), 1);
        let mut slow = Searcher::new(wide.clone(), 1);
        for pos in sample_positions(&r, 5, 80).into_iter().step_by(16) {
            let mut lines = [Vec::new(), Vec::new()];
            let a = fast.search(&pos, &[], depth(4), &mut |i| {
                lines[0].push((i.depth, i.score, i.nodes, i.pv.clone()))
            });
            let b = slow.search(&pos, &[], depth(4), &mut |i| {
                lines[1].push((i.depth, i.score, i.nodes, i.pv.clone()))
            });
            assert_eq!(lines[0], lines[1], "{name}");
            assert_eq!(
                (a.best, a.score, a.nodes),
                (b.best, b.score, b.nodes),
                "{name}"
            );
        }
        // Self-play: the same games, random and with the engine.
        for random in [true, false] {
            let s = settings(name, 3, random);
            let mut buf = Vec::new();
            let mut wbuf = Vec::new();
            let narrow = r.narrow.clone().expect("fits 64-bit sets");
            let mut fe = Searcher::new(narrow.clone(), 1);
            let mut se = Searcher::new(wide.clone(), 1);
            for i in 0..3 {
                let a = selfplay::play_game(&narrow, &s, Some(&mut fe), i, &mut buf);
                let b = selfplay::play_game(&wide, &s, Some(&mut se), i, &mut wbuf);
                assert_eq!(a, b, "{name} game {i} (random {random})");
            }
        }
    }
}

/// English KK v K solved into a fresh directory; its longest win.
fn english_kk_v_k(dir: &std::path::Path) -> (Arc<Rules>, Position, u16) {
    use damelab::endgame::{Material, Options, Tables, Value};
    let r = rules("english");
    let m = Material::parse(&r, "KK v K").unwrap();
    let mut t = Tables::new(&r);
    let opts = Options {
        cache: Some(dir.to_path_buf()),
        max_memory: 1 << 30,
        progress: false,
        watch: None,
    };
    t.solve(&m, &opts).expect("the tables build");
    let table = &t.tables[&m];
    // The longest win of the table.
    let (pos, d) = (0..table.index.len())
        .filter_map(|i| match Value::unpack(table.values[i as usize]) {
            Value::Win(d) => Some((table.index.decode::<damelab::engine::geometry::Bits>(i)?, d)),
            _ => None,
        })
        .max_by_key(|&(_, d)| d)
        .expect("a win");
    assert!(d >= 9, "win in {d}");
    (r, pos, d)
}

#[test]
fn endgame_tables_give_the_search_the_exact_result() {
    use damelab::search::tables::EndgameTables;
    let dir = std::env::temp_dir().join(format!("damelab-search-tables-{}", std::process::id()));
    let (r, pos, d) = english_kk_v_k(&dir);
    // Without the tables a shallow search sees no win.
    let mut plain = Searcher::new(r.clone(), 4);
    assert!(plain.search(&pos, &[], depth(3), &mut |_| {}).score < WIN - 1000);
    let tables = Arc::new(EndgameTables::open(&r, &dir).expect("the tables open"));
    assert!(tables.len() >= 3, "KK v K and what it reaches");
    let mut s = Searcher::new(r.clone(), 4);
    s.set_probe(Some(tables.probe()));
    let res = s.search(&pos, &[], depth(3), &mut |_| {});
    assert_eq!(res.score, WIN - d as i32, "win in {d}");
    assert_eq!(
        damelab::search::format_score(res.score),
        format!("win in {d}")
    );
    // The move chosen keeps the win as short as the table says.
    let child = r.play(&pos, &res.best.expect("a move"));
    assert_eq!(
        tables.value(&child),
        Some(damelab::endgame::Value::Loss(d - 1))
    );
    // Tables of other rules are refused with a diagnostic.
    let e = EndgameTables::open(&rules("turkish"), &dir)
        .err()
        .expect("refused");
    assert!(e.to_string().contains("none of turkish"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
    let e = EndgameTables::open(&r, &dir).err().expect("refused");
    assert!(e.to_string().contains("cannot read"), "{e}");
}

#[test]
fn quiescence_queries_agree_with_the_generator() {
    // `has_capture`, `threatened` and `has_quiet` (the search's leaf tests) against the full move list, on
    // random games played to their end (kings, long captures, blocked sides).
    for (name, _) in damelab::variants::BUNDLED {
        let r = rules(name);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut positions = Vec::new();
        for _ in 0..8 {
            let mut pos = r.start;
            for _ in 0..300 {
                positions.push(pos);
                let moves = legal(&r, &pos);
                if moves.is_empty() {
                    break;
                }
                pos = r.play(&pos, &moves[rng.random_range(0..moves.len())]);
            }
        }
        for pos in positions {
            if r.material_outcome(&pos).is_some() {
                continue;
            }
            let moves = legal(&r, &pos);
            let captures = moves.first().is_some_and(|m| m.is_capture());
            assert_eq!(r.has_capture(&pos), captures, "{name}");
            // `threatened`: what the other side's move list would say, were it to move.
            let mut other = pos;
            other.turn ^= 1;
            if r.material_outcome(&other).is_none() {
                let theirs = legal(&r, &other).first().is_some_and(|m| m.is_capture());
                assert_eq!(r.threatened(&pos), theirs, "{name}");
            }
            if !captures {
                assert_eq!(r.has_quiet(&pos), !moves.is_empty(), "{name}");
            }
        }
    }
}

#[test]
fn a_reversed_aim_turns_the_evaluation_and_the_search() {
    // The same position, White a man up: good in Russian draughts, bad in Poddavki.
    let plain = rules("russian");
    let give = rules("poddavki");
    let f = "W:W22,23,24:B10,11";
    let s = Searcher::new(plain.clone(), 1);
    let up = s.eval.evaluate(&fen(&plain, f));
    let s = Searcher::new(give.clone(), 1);
    let anti = s.eval.evaluate(&fen(&give, f));
    assert!(up > 0 && anti == -up, "russian {up}, poddavki {anti}");
    // White must take Black's last man, and then Black, with no piece, wins: a forced loss.
    let mut s = Searcher::new(give.clone(), 1);
    let lost = s.search(&fen(&give, "W:W22:B18"), &[], depth(3), &mut |_| {});
    assert_eq!(lost.score, -(WIN - 1));
    // Black to move with no piece has won already; a blocked side too.
    let mut s = Searcher::new(give.clone(), 1);
    let none = s.search(&fen(&give, "B:W5,6,9,10:B1"), &[], depth(3), &mut |_| {});
    assert!(none.best.is_none());
    // In Antidraughts the engine gives its man away when it can: 32-28 offers it to 23, the
    // only move after which Black must take it (and White, left without pieces, wins).
    let r = rules("antidraughts");
    let mut s = Searcher::new(r.clone(), 1);
    let give_away = s.search(&fen(&r, "W:W32:B23,3"), &[], depth(4), &mut |_| {});
    assert_eq!(give_away.score, WIN - 2);
    assert_eq!(move_to_string(&r, &give_away.best.unwrap()), "32-28");
}

#[test]
fn a_goal_by_promotion_is_a_win_inside_the_search() {
    // Breakthrough: White crowns at once (7-1 or 7-2), whatever else is on the board.
    let r = rules("breakthrough");
    let mut s = Searcher::new(r.clone(), 1);
    let res = s.search(&fen(&r, "W:W7,33:B42,43,44"), &[], depth(3), &mut |_| {});
    assert_eq!(res.score, WIN - 1);
    let best = move_to_string(&r, &res.best.unwrap());
    assert!(best == "7-1" || best == "7-2", "{best}");
}

#[test]
fn selfplay_plays_the_reversed_and_goal_games() {
    for v in [
        "antidraughts",
        "poddavki",
        "giveaway",
        "breakthrough",
        "frysk",
    ] {
        let s = settings(v, 2, false);
        let run = play(v, &s, None, 1);
        assert_eq!(run.games.len(), 2, "{v}");
    }
}
