//! The learned evaluation alone (a manual benchmark, issue 46): nanoseconds per evaluation of the
//! bundled international weights over the positions a search scores, in the order it scores them.
//!
//!   cargo bench -p damelab-benches --bench eval                 # every way, least of 7 rounds
//!   cargo bench -p damelab-benches --bench eval -- --depth 7    # more positions (366,387)
//!   cargo bench -p damelab-benches --bench eval -- incremental  # one way, one round, unchecked
//!
//! Under `valgrind --tool=callgrind`, one way's instructions are those of its run less those of
//! a run of no way (`-- setup`): the recording and the tables' set-up.
//!
//! The positions come from a plain alpha-beta search of depth 5 (or `--depth`; no table, no
//! ordering but the generator's) from three middlegame positions: every position it scores, a
//! node before its children (as reverse futility scores it) and each leaf, so consecutive
//! positions differ as they do in the engine's search: siblings on about four squares, a child
//! from its parent on two.
//! Ways: `plain` (every feature counted again), `gathered` (the windows read by `pext`, where the
//! processor runs it in hardware), `incremental` (what changed since the last position, as the
//! search scores on processors that do not gather). Figures are printed; nothing is asserted
//! but that the ways agree.

use damelab::engine::{BitSet, GenOptions, Position, Rules};
use damelab::notation::parse_fen;
use damelab::search::learned::{gathers, Learned};
use damelab::search::weights::Weights;
use damelab::Variant;
use std::hint::black_box;
use std::time::Instant;

const FENS: [&str; 3] = [
    "W:W32,34-38,40-42,44-50:B1-12,16,17,19,24",
    "W:W32-36,38,40,42-46,48-50:B1-4,6-9,11,13-16,20,21",
    "B:W27,28,31-33,35-40,42-45,47-50:B1-3,5-9,11-14,16,18,19,22-24",
];
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = match args.iter().position(|a| a == "--depth") {
        Some(i) => args[i + 1].parse().expect("--depth N"),
        None => 5,
    };
    let only = args
        .iter()
        .find(|a| !a.starts_with('-') && a.parse::<u32>().is_err())
        .cloned();
    let v = Variant::load("international").expect("bundled");
    let rules = &v.rules;
    let weights = Weights::bundled(rules).expect("bundled international weights");
    let narrow = rules.narrow.as_ref().expect("international fits 64 bits");
    let mut seq: Vec<Position<u64>> = Vec::new();
    let mut scorer = Learned::new(&weights, narrow);
    for fen in FENS {
        let pos = parse_fen(rules, fen).expect("a legal FEN").to_width();
        let mut bufs = vec![Vec::new(); depth as usize + 1];
        record(
            narrow,
            &mut scorer,
            &pos,
            depth,
            -1 << 20,
            1 << 20,
            &mut bufs,
            &mut seq,
        );
    }
    println!(
        "{} positions scored by a depth-{depth} alpha-beta from {} international middlegames",
        seq.len(),
        FENS.len()
    );
    let plain = Learned::new(&weights, narrow)
        .ungathered()
        .without_increments();
    let mut ways: Vec<(&str, Learned<u64>)> = vec![("plain", plain.clone())];
    if gathers() {
        ways.push((
            "gathered",
            Learned::new(&weights, narrow).without_increments(),
        ));
    }
    ways.push(("incremental", plain.clone().with_increments()));
    // Checked against the plain evaluation, except for one way alone (counted by valgrind).
    let expect: Option<i64> = only
        .is_none()
        .then(|| seq.iter().map(|p| plain.evaluate(p) as i64).sum());
    let rounds = if only.is_some() { 1 } else { 7 };
    for (name, mut learned) in ways {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut best = f64::MAX;
        for _ in 0..rounds {
            let t = Instant::now();
            let mut sum = 0i64;
            for p in &seq {
                sum += learned.evaluate_mut(black_box(p)) as i64;
            }
            best = best.min(t.elapsed().as_secs_f64());
            if let Some(e) = expect {
                assert_eq!(sum, e, "{name} scores as the plain evaluation");
            }
        }
        println!(
            "  {name:<12} {:>7.1} ns an evaluation (least of {rounds} rounds)",
            best * 1e9 / seq.len() as f64
        );
    }
}

/// A plain alpha-beta of `depth` from `pos`, scored by `scorer`; every position it scores is
/// pushed to `seq` in order.
#[allow(clippy::too_many_arguments)]
fn record<B: BitSet>(
    rules: &Rules<B>,
    scorer: &mut Learned<B>,
    pos: &Position<B>,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    bufs: &mut [Vec<damelab::engine::Move<B>>],
    seq: &mut Vec<Position<B>>,
) -> i32 {
    seq.push(*pos);
    let stand = scorer.evaluate_mut(pos);
    if depth == 0 {
        return stand;
    }
    let mut moves = std::mem::take(&mut bufs[depth as usize]);
    rules.generate(pos, &mut moves, GenOptions::default());
    let mut best = if moves.is_empty() {
        -(1 << 19)
    } else {
        i32::MIN
    };
    for m in &moves {
        let child = pos.play(m);
        let s = -record(rules, scorer, &child, depth - 1, -beta, -alpha, bufs, seq);
        best = best.max(s);
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    bufs[depth as usize] = moves;
    best
}
