//! The search's named options: the preset `8d59e68` is that commit's engine node for node (its
//! node counts at fixed depth, recorded from that commit's `damelab analyse VARIANT --depth N`),
//! every option is settable by name and refuses bad values, and the new engine still finds what
//! the old one found.

use damelab::notation::{move_to_string, parse_fen};
use damelab::search::options::Options;
use damelab::search::{Limits, Searcher};
use damelab::{Rules, Variant};
use std::sync::Arc;
use std::time::Duration;

fn rules(name: &str) -> Arc<Rules> {
    Variant::load(name).expect("bundled variant").rules
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn preset() -> Options {
    let mut o = Options::default();
    o.set("preset", "8d59e68").expect("known preset");
    o
}

fn nodes(variant: &str, fen: Option<&str>, d: u32, options: Options) -> u64 {
    let r = rules(variant);
    let pos = match fen {
        Some(f) => parse_fen(&r, f).expect("valid FEN"),
        None => r.start,
    };
    // The table size of `damelab analyse` (64 MiB): the figures below were taken with it.
    let mut s = Searcher::new(r, 64);
    s.set_options(options);
    s.search(&pos, &[], depth(d), &mut |_| {}).nodes
}

/// `damelab analyse VARIANT --depth N` at commit 8d59e68, from the start position.
const TODAY: &[(&str, u32, u64)] = &[
    ("dameo", 5, 125_936),
    ("turkish", 8, 59_815),
    ("international", 8, 25_355),
    ("english", 9, 24_307),
    ("damone", 8, 24_374),
    ("frisian", 7, 17_826),
    ("big-dameo-4", 4, 24_863),
];

#[test]
fn the_preset_is_the_engine_of_8d59e68_node_for_node() {
    for &(v, d, n) in TODAY {
        assert_eq!(nodes(v, None, d, preset()), n, "{v} depth {d}");
    }
}

#[test]
fn the_preset_turns_every_new_switch_off() {
    let p = preset();
    assert!(!p.lmr && !p.futility && !p.single_reply);
    assert_eq!(p.soft_time, 100);
    let mut o = p.clone();
    o.set("preset", "default").unwrap();
    assert_eq!(o, Options::default());
}

#[test]
fn every_option_is_set_by_name_and_bad_values_are_refused() {
    let mut o = Options::default();
    for (name, _) in Options::NAMES {
        let value = match *name {
            "preset" => "8d59e68",
            "lmr" | "futility" | "single_reply" | "clock" | "probcut" | "single_extension"
            | "rfp" | "lmp" | "history_malus" | "reduce_offers" | "partial_root" | "iir" => "true",
            "lmr_unseen" => "1",
            "iir_depth" => "5",
            "rfp_depth" | "lmp_depth" => "3",
            "lmp_moves" => "5",
            "probcut_depth" => "6",
            "probcut_reduction" => "3",
            "soft_time" => "50",
            "lmr_moves" => "5",
            "threads" => "2",
            "qs_exchanges" | "qs_threats" | "qs_promotions" => "2",
            _ => "100",
        };
        o.set(name, value).unwrap_or_else(|e| panic!("{name}: {e}"));
        let e = o.set(name, "banana").unwrap_err().to_string();
        assert!(
            e.contains(&format!("`{name}`")) || e.contains("`banana`"),
            "{e}"
        );
    }
    let e = o.set("nullmove", "true").unwrap_err().to_string();
    assert!(e.contains("`nullmove`") && e.contains("`lmr`"), "{e}");
    assert!(o.set("lmr_moves", "65").is_err());
    assert!(o.set("soft_time", "5").is_err());
    assert!(o.set("qs_exchanges", "9").is_err());
    assert!(o.set("qs_promotions", "9").is_err());
    assert!(o.set("rfp_depth", "0").is_err());
    assert!(o.set("lmp_moves", "0").is_err());
}

#[test]
fn the_shallow_pruning_options_are_off_by_default_and_change_the_search_when_on() {
    // Reverse futility and late-move pruning end or skip work at shallow nodes; the history
    // malus reorders quiet moves. Each is off in the defaults and the preset, and each, turned
    // on, searches another tree to the same depth (the default's stays as recorded elsewhere).
    for o in [Options::default(), preset()] {
        assert!(!o.rfp && !o.lmp && !o.history_malus);
    }
    let plain = nodes("international", None, 9, Options::default());
    for name in ["rfp", "lmp", "history_malus"] {
        let mut o = Options::default();
        o.set(name, "true").unwrap();
        let n = nodes("international", None, 9, o);
        assert_ne!(n, plain, "{name}: the same tree as without it");
    }
    // Reverse futility ends nodes only when it is on.
    let cuts = |on: &str| {
        let r = rules("international");
        let mut o = Options::default();
        o.set("rfp", on).unwrap();
        let mut s = Searcher::new(r.clone(), 4);
        s.set_options(o);
        s.search(&r.start, &[], depth(9), &mut |_| {});
        s.stats().rfp_cuts
    };
    assert_eq!(cuts("false"), 0);
    assert!(cuts("true") > 0);
}

/// The best move (as text), score and nodes of a search of `fen` in international draughts to
/// depth `d` with the derived evaluation and option `name` set to `value`.
fn best_with(fen: &str, name: &str, value: &str, d: u32) -> (String, i32, u64) {
    let r = rules("international");
    let pos = parse_fen(&r, fen).expect("valid FEN");
    let mut o = Options::default();
    o.set(name, value).unwrap();
    let mut s = Searcher::new(r.clone(), 4);
    s.set_options(o);
    s.set_weights(None);
    let res = s.search(&pos, &[], depth(d), &mut |_| {});
    let m = res.best.expect("a legal move");
    (move_to_string(&r, &m), res.score, res.nodes)
}

#[test]
fn the_quiet_quiescence_sees_a_shot_past_the_horizon() {
    // Black to move. The waiting move 6-11 looks safe at depth 1, but it allows white's shot
    // 32-28 23x32 37x28x17, which takes both of black's other men for one. Each of black's other
    // moves gives a man at once (a capture the quiescence always followed).
    let best = |q: &str, d: u32| {
        let (m, score, _) = best_with("B:W32,33,37,41:B6,22,23", "qs_exchanges", q, d);
        (m, score)
    };
    let (plain, plain_score) = best("0", 1);
    assert_eq!(plain, "6-11");
    let (seen, seen_score) = best("1", 1);
    assert_ne!(seen, "6-11");
    assert!(
        seen_score < plain_score - 50,
        "{seen_score} against {plain_score}"
    );
    // A deeper search without it agrees: 6-11 loses more than the man the others give.
    let (deep, _) = best("0", 7);
    assert_ne!(deep, "6-11");
}

#[test]
fn a_single_legal_move_costs_no_depth_when_asked() {
    // From the start of Turkish and international draughts: captures are compulsory, so forced
    // replies are common, and the extended search looks further along them: more nodes to the
    // same depth.
    let mut on = Options::default();
    on.set("single_extension", "true").unwrap();
    assert!(!Options::default().single_extension && !preset().single_extension);
    for v in ["turkish", "international"] {
        let plain = nodes(v, None, 8, Options::default());
        let extended = nodes(v, None, 8, on.clone());
        assert!(
            extended > plain,
            "{v}: {extended} nodes extended, {plain} without"
        );
    }
    // A forced line: white's capture is its only move, and the search still plays it.
    let r = rules("turkish");
    let pos = parse_fen(&r, "W:Wd4:Bd5,a8").expect("valid FEN");
    let mut s = Searcher::new(r, 4);
    s.set_options(on);
    let res = s.search(&pos, &[], depth(6), &mut |_| {});
    assert!(res.best.is_some_and(|m| m.is_capture()));
}

#[test]
fn the_reductions_search_fewer_nodes_to_the_same_depth() {
    for v in ["international", "turkish", "dameo"] {
        let d = if v == "dameo" { 5 } else { 8 };
        let old = nodes(v, None, d, preset());
        let new = nodes(v, None, d, Options::default());
        assert!(new < old, "{v}: {new} nodes with reductions, {old} without");
    }
}

#[test]
fn a_single_legal_move_is_answered_without_spending_the_time() {
    // White must take: one capture, the only legal move.
    let r = rules("turkish");
    let pos = parse_fen(&r, "W:Wd4:Bd5,a8").expect("valid FEN");
    let mut s = Searcher::new(r, 4);
    let t = std::time::Instant::now();
    let res = s.search(
        &pos,
        &[],
        Limits {
            time: Some(Duration::from_secs(5)),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(res.best.is_some_and(|m| m.is_capture()));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn on_a_game_clock_the_share_is_a_target_and_the_limit_is_further() {
    use damelab::search::clock::move_limits;
    // 6 s left, no increment: a target of 0.2 s, a hard limit of 1 s.
    let l = move_limits(Duration::from_secs(6), Duration::ZERO, 0);
    assert_eq!(l.target, Some(Duration::from_millis(200)));
    assert_eq!(l.time, Some(Duration::from_secs(1)));
    let r = rules("international");
    let timed = |clock: bool| {
        let mut s = Searcher::new(r.clone(), 4);
        let mut o = Options::default();
        o.set("clock", if clock { "true" } else { "false" })
            .unwrap();
        s.set_options(o);
        let t = std::time::Instant::now();
        let res = s.search(&r.start, &[], l, &mut |_| {});
        assert!(res.best.is_some() && res.depth >= 1);
        t.elapsed()
    };
    // Off, the target is the limit (the engine before the time manager); on, the search may go
    // past the target but never past the hard limit (each with the slack of a stop check).
    let off = timed(false);
    assert!(off < Duration::from_millis(200 + 300), "{off:?}");
    let on = timed(true);
    assert!(on < Duration::from_millis(1000 + 300), "{on:?}");
}

#[test]
fn the_options_since_the_divisor_are_off_by_default_and_change_the_search_when_on() {
    // Internal iterative reduction, threats in quiescence, history in the reductions and the
    // aspiration window's width: each is off (or at its old value) in the defaults and the
    // preset, and each, changed, searches another tree to the same depth.
    for o in [Options::default(), preset()] {
        assert!(!o.iir && !o.partial_root);
        assert_eq!((o.qs_threats, o.aspiration, o.lmr_unseen), (0, 40, 0));
    }
    let plain = nodes("international", None, 9, Options::default());
    for (name, value) in [
        ("iir", "true"),
        ("qs_threats", "1"),
        ("lmr_unseen", "1"),
        ("aspiration", "20"),
    ] {
        let mut o = Options::default();
        o.set(name, value).unwrap();
        let n = nodes("international", None, 9, o);
        assert_ne!(n, plain, "{name}={value}: the same tree as without it");
    }
    // A search to a depth is never stopped: playing from the unfinished iteration changes nothing.
    let mut o = Options::default();
    o.set("partial_root", "true").unwrap();
    assert_eq!(nodes("international", None, 9, o), plain);
}

#[test]
fn the_quiescence_answers_a_threat_when_asked() {
    // White to move; black's man on 28 threatens two white men. Scored as they stand, the quiet
    // positions at the end of a one-ply search hide what black threatens; searched a ply when
    // threatened, they show it, and the one-ply search picks the move a depth-7 search picks.
    let best =
        |threats: &str, d: u32| best_with("W:W22,26,27,33:B7,24,28,42", "qs_threats", threats, d);
    let (deep, _, _) = best("0", 7);
    let (plain, plain_score, plain_nodes) = best("0", 1);
    let (seen, seen_score, seen_nodes) = best("1", 1);
    assert_ne!(plain, deep);
    assert_eq!(seen, deep);
    assert!(
        seen_score > plain_score + 50 && seen_nodes > plain_nodes,
        "{seen_score} against {plain_score}, {seen_nodes} nodes against {plain_nodes}"
    );
}

#[test]
fn the_quiescence_sees_a_promotion_one_step_away_when_asked() {
    // White to move; black's man on 41 is one step from promoting on 46 or 47. Scored as they
    // stand, the quiet positions at the end of a one-ply search count it as a man, and 19-14
    // looks best; with the promotions searched past the depth, the one-ply search sees the king
    // coming and picks what a depth-7 search picks.
    let best = |q: &str, d: u32| best_with("W:W19,23,40,45:B30,37,41", "qs_promotions", q, d);
    let (deep, _, _) = best("0", 7);
    let (plain, plain_score, plain_nodes) = best("0", 1);
    let (seen, seen_score, seen_nodes) = best("1", 1);
    assert_eq!(plain, "19-14");
    assert_eq!(seen, deep);
    assert_eq!(deep, "40-35");
    assert!(
        seen_score < plain_score - 30 && seen_nodes > plain_nodes,
        "{seen_score} against {plain_score}, {seen_nodes} nodes against {plain_nodes}"
    );
    // Off by default: the default search scores those positions as they stand.
    assert_eq!(Options::default().qs_promotions, 0);
    assert_eq!(preset().qs_promotions, 0);
}

#[test]
fn a_stopped_search_plays_what_its_unfinished_iteration_proved_when_asked() {
    // Node budgets that stop the search inside an iteration: without the option the answer is the
    // last finished iteration's; with it, a root move searched to the end in the unfinished one
    // that beat the first may replace it. Some budget must see it happen, and the answer is
    // always the head of its line, at the depth of the last finished iteration.
    let r = rules("international");
    let run = |partial: &str, n: u64| {
        let mut o = Options::default();
        o.set("partial_root", partial).unwrap();
        let mut s = Searcher::new(r.clone(), 4);
        s.set_options(o);
        s.set_weights(None);
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        s.search(&r.start, &[], limits, &mut |_| {})
    };
    let mut changed = 0;
    for n in (2_000..60_000).step_by(1_000) {
        let (off, on) = (run("false", n), run("true", n));
        assert!(off.stopped && on.stopped);
        assert_eq!(on.depth, off.depth, "{n} nodes");
        assert_eq!(on.pv.first(), on.best.as_ref(), "{n} nodes");
        changed += (on.best != off.best) as u32;
    }
    assert!(
        changed > 0,
        "no budget played from the unfinished iteration"
    );
}

/// The learned evaluation as `damelab analyse international --depth 10` runs it (the bundled
/// weights and the search settings they carry), pinned node for node: a change that makes the
/// evaluation cheaper must leave the search exactly as it was (issue 46). Figures of
/// `damelab analyse international --fen FEN --depth 10 --no-tables` with two more generations'
/// weights made symmetric bundled (`gen67s`, docs/strength.md; 87,245 nodes, score 2, 38-33 with
/// `gen65` before them; 80,013 nodes, score -2, 44-39 with `mirror64`; 72,681 nodes, score 6, 36-31 with `race63`; 80,958 nodes, score
/// 14, 38-33 with `race62`; 85,622 nodes, score 4, with the weights before the race features).
#[test]
fn the_learned_evaluation_searches_the_same_tree() {
    let r = rules("international");
    let pos = parse_fen(&r, "W:W32,34-38,40-42,44-50:B1-12,16,17,19,24").expect("valid FEN");
    let w = damelab::search::weights::resolve(None, &r).expect("bundled weights");
    assert!(w.is_some(), "international has bundled weights");
    let mut s = Searcher::new(r.clone(), 64);
    s.set_options(damelab::search::weights::options(w.as_deref()));
    s.set_weights(w);
    let res = s.search(&pos, &[], depth(10), &mut |_| {});
    assert_eq!(res.nodes, 39_225);
    assert_eq!(res.score, 0);
    let best = res.best.expect("a move");
    assert_eq!(move_to_string(&r, &best), "38-33");
}
