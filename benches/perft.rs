//! Perft benchmarks: damelab's generic generator on bundled variants, and damelab against kish (a
//! hand-written Turkish draughts bitboard generator) on the same Turkish perft — both bulk
//! counting, one thread, same depth, same run. Run with
//! `cargo bench -p damelab-benches --bench perft`.

use criterion::{criterion_group, Criterion};
use damelab::engine::GenOptions;
use damelab::Variant;
use std::hint::black_box;
use std::time::Instant;

const TURKISH_DEPTH: usize = 5;

fn turkish_vs_kish(c: &mut Criterion) {
    let v = Variant::load("turkish").expect("bundled variant loads");
    let rules = v.rules.clone();
    let start = rules.start;
    let mut g = c.benchmark_group("turkish-perft-5");
    g.sample_size(20);
    g.bench_function("damelab", |b| {
        b.iter(|| rules.perft(black_box(&start), TURKISH_DEPTH, GenOptions::default()))
    });
    let board = kish::Board::new_default();
    g.bench_function("kish", |b| {
        b.iter(|| black_box(&board).perft(TURKISH_DEPTH as u64))
    });
    g.finish();
}

fn bundled_variants(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft-start");
    g.sample_size(10);
    for (name, _) in damelab::variants::BUNDLED {
        let v = Variant::load(name).expect("bundled variant loads");
        let rules = v.rules.clone();
        let start = rules.start;
        g.bench_function(*name, |b| {
            b.iter(|| rules.perft(black_box(&start), 4, GenOptions::default()))
        });
    }
    g.finish();
}

/// The ratio line the issue asks for: nodes per second of each over the same depth, the two run
/// in turn `RATIO_ROUNDS` times (default 5) and the fastest run of each kept, so that a burst of
/// other work on the machine during one run does not decide the ratio.
fn ratio() {
    let v = Variant::load("turkish").expect("bundled variant loads");
    let rules = v.rules.clone();
    let depth = 7;
    let rounds: usize = std::env::var("RATIO_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
        .max(1);
    let board = kish::Board::new_default();
    let (mut ours, mut theirs) = (f64::INFINITY, f64::INFINITY);
    let (mut n, mut k) = (0, 0);
    for _ in 0..rounds {
        let t = Instant::now();
        n = rules.perft(&rules.start, depth, GenOptions::default());
        ours = ours.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        k = board.perft(depth as u64);
        theirs = theirs.min(t.elapsed().as_secs_f64());
    }
    println!(
        "turkish perft({depth}), best of {rounds} alternating runs: damelab {n} nodes, {:.1} M nodes/s; \
         kish {k} nodes, {:.1} M nodes/s; kish is {:.2}x damelab",
        n as f64 / ours / 1e6,
        k as f64 / theirs / 1e6,
        (k as f64 / theirs) / (n as f64 / ours)
    );
    println!("(kish counts a position without moves at the last ply as one node, hence its larger total)");
}

criterion_group!(benches, turkish_vs_kish, bundled_variants);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    ratio();
}
