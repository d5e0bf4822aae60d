//! Engine speed (a manual benchmark, `cargo bench --bench engine`): random playouts per second on
//! one core for every bundled variant, and search nodes per second on Dameo, Turkish and
//! international. Figures are printed; nothing is asserted.

use damelab::engine::{BitSet, Rules};
use damelab::search::{Limits, Searcher};
use damelab::selfplay::{self, Settings};
use damelab::Variant;
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let seconds = if quick { 0.3 } else { 3.0 };
    println!(
        "random playouts, one core (cap 400 plies; a game ends by every rule of the variant):"
    );
    for (name, _) in damelab::variants::BUNDLED {
        let rules = Variant::load(name).expect("bundled").rules;
        let settings = Settings {
            variant: name.to_string(),
            rules_fingerprint: String::new(),
            games: u64::MAX,
            depth: None,
            nodes: None,
            random: true,
            seed: 1,
            max_plies: 400,
            opening_plies: 0,
        };
        // As `selfplay::run` does: on the narrowest bit-set width the board fits.
        let (n, plies, secs) = match (&rules.narrow, &rules.mid) {
            (Some(narrow), _) => playouts(narrow, &settings, seconds),
            (None, Some(mid)) => playouts(mid, &settings, seconds),
            (None, None) => playouts(&rules, &settings, seconds),
        };
        println!(
            "  {name:<20} {:>9.0} playouts/s  ({:.0} plies per game)",
            n as f64 / secs,
            plies as f64 / n as f64
        );
    }
    println!("search from the start position, one core:");
    for (name, depth) in [("dameo", 6), ("turkish", 9), ("international", 9)] {
        let rules = Variant::load(name).expect("bundled").rules;
        let mut s = Searcher::new(rules.clone(), 64);
        let limits = Limits {
            depth: Some(if quick { depth - 2 } else { depth }),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = s.search(&rules.start, &[], limits, &mut |_| {});
        let secs = t.elapsed().as_secs_f64();
        println!(
            "  {name:<20} depth {:>2}: {:>10} nodes in {secs:.2} s = {:.0} nodes/s",
            r.depth,
            r.nodes,
            r.nodes as f64 / secs
        );
    }
}

/// Random playouts for `seconds`: (games, plies, seconds taken).
fn playouts<B: BitSet>(rules: &Rules<B>, settings: &Settings, seconds: f64) -> (u64, u64, f64) {
    let mut buf = Vec::with_capacity(128);
    let t = Instant::now();
    let mut n = 0u64;
    let mut plies = 0u64;
    while t.elapsed().as_secs_f64() < seconds {
        let g = selfplay::play_game(rules, settings, None, n, &mut buf);
        plies += g.plies as u64;
        n += 1;
    }
    (n, plies, t.elapsed().as_secs_f64())
}
