//! The parallel search (option `threads`, lazy SMP): helper threads share the table and stop
//! with the search, the answer stays sound (the shots and the only move of `search.rs` are found
//! with two threads), the node count includes the helpers, and a time limit or a cancel ends
//! every thread.

use damelab::notation::{move_to_string, parse_fen};
use damelab::search::options::Options;
use damelab::search::{Limits, Searcher, WIN};
use damelab::{Rules, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn rules(name: &str) -> Arc<Rules> {
    Variant::load(name).expect("bundled variant").rules
}

fn searcher(r: &Arc<Rules>, threads: u32) -> Searcher {
    let mut s = Searcher::new(r.clone(), 4);
    let mut o = Options::default();
    o.set("threads", &threads.to_string())
        .expect("a thread count");
    s.set_options(o);
    s
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn two_threads_find_the_shot_and_the_only_move() {
    let r = rules("turkish");
    let mut s = searcher(&r, 2);
    let pos = parse_fen(&r, "W:Wd4,c4,b4:Bd6,f4,h8").expect("valid FEN");
    let res = s.search(&pos, &[], depth(6), &mut |_| {});
    assert_eq!(move_to_string(&r, &res.best.expect("a move")), "d4-d5");
    assert_eq!(res.depth, 6);
    let pos = parse_fen(&r, "W:Wd4:Bd6,b4,h8").expect("valid FEN");
    let res = s.search(&pos, &[], depth(6), &mut |_| {});
    assert_eq!(move_to_string(&r, &res.best.expect("a move")), "d4-e4");
    assert!(res.score > -(WIN - 100), "not lost: {}", res.score);
}

#[test]
fn the_helpers_nodes_are_counted_and_searches_repeat() {
    let r = rules("international");
    let mut s = searcher(&r, 3);
    let mut reported = 0;
    let res = s.search(&r.start, &[], depth(7), &mut |i| reported = i.nodes);
    assert_eq!(res.depth, 7);
    // The last iteration's report counts the reporting thread alone; the result all three.
    assert!(res.nodes > reported, "{} vs {reported}", res.nodes);
    assert_eq!(s.stats().nodes, res.nodes);
    // The helpers are kept for the next search, and rebuilt for another thread count.
    let again = s.search(&r.start, &[], depth(7), &mut |_| {});
    assert!(again.best.is_some());
    let mut o = s.options.clone();
    o.set("threads", "1").unwrap();
    s.set_options(o);
    let alone = s.search(&r.start, &[], depth(5), &mut |_| {});
    let mut one = Searcher::new(r.clone(), 4);
    let fresh = one.search(&r.start, &[], depth(5), &mut |_| {});
    assert!(alone.best.is_some() && fresh.nodes > 0);
}

#[test]
fn one_thread_is_the_search_of_before_node_for_node() {
    let r = rules("dameo");
    let mut a = Searcher::new(r.clone(), 4);
    let mut b = searcher(&r, 1);
    let x = a.search(&r.start, &[], depth(5), &mut |_| {});
    let y = b.search(&r.start, &[], depth(5), &mut |_| {});
    assert_eq!((x.nodes, x.score, x.best), (y.nodes, y.score, y.best));
}

#[test]
fn a_time_limit_ends_every_thread() {
    let r = rules("international");
    let mut s = searcher(&r, 2);
    let t = Instant::now();
    let res = s.search(
        &r.start,
        &[],
        Limits {
            time: Some(Duration::from_millis(300)),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(res.best.is_some() && res.depth >= 2);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn a_cancel_ends_every_thread() {
    let r = rules("international");
    let mut s = searcher(&r, 2);
    let cancel = Arc::new(AtomicBool::new(false));
    s.set_cancel(Some(cancel.clone()));
    let flag = cancel.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let t = Instant::now();
    let res = s.search(&r.start, &[], Limits::default(), &mut |_| {});
    stopper.join().expect("the stopper thread");
    assert!(res.stopped && res.best.is_some());
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn the_thread_count_is_bounded() {
    let mut o = Options::default();
    assert!(o.set("threads", "0").is_err());
    assert!(o.set("threads", "65").is_err());
    o.set("threads", "64").expect("the most threads");
    assert!(o.describe().split(' ').any(|w| w == "threads=64"));
}
