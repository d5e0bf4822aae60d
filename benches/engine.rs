//! Engine speed (a manual benchmark, `cargo bench -p damelab-benches --bench engine`): random
//! playouts per second on one core for every bundled variant, search nodes per second on Dameo,
//! Turkish and international, and one depth-6 self-play game of Dameo (as `damelab selfplay dameo
//! --games 1 --depth 6 --seed 3`) with the search's counters. Figures are printed; nothing is
//! asserted.

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
            eval: None,
            tables: None,
            contempt: 0,
            openings: None,
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
    {
        let name = "dameo";
        let rules = Variant::load(name).expect("bundled").rules;
        let settings = Settings {
            variant: name.to_string(),
            rules_fingerprint: String::new(),
            games: 1,
            depth: Some(if quick { 4 } else { 6 }),
            nodes: None,
            random: false,
            seed: 3,
            max_plies: 400,
            opening_plies: 4,
            eval: None,
            tables: None,
            contempt: 0,
            openings: None,
        };
        let (plies, secs, st) = match (&rules.narrow, &rules.mid) {
            (Some(n), _) => engine_game(n, &settings),
            (None, Some(m)) => engine_game(m, &settings),
            (None, None) => engine_game(&rules, &settings),
        };
        let pct = |x: u64| 100.0 * x as f64 / st.nodes.max(1) as f64;
        println!(
            "self-play game, {name} depth {}, seed 3: {plies} plies in {secs:.3} s; {} nodes \
             ({:.0} a search), {:.0} nodes/s; past the nominal depth {:.0}% (quiet leaves \
             {:.0}%); table hits {:.0}%; {:.0}% of cut-offs on the first move",
            settings.depth.unwrap_or(0),
            st.nodes,
            st.nodes as f64 / plies.saturating_sub(4).max(1) as f64,
            st.nodes as f64 / secs,
            pct(st.quiescence),
            pct(st.leaves),
            pct(st.tt_hits),
            100.0 * st.first_cutoffs as f64 / st.cutoffs.max(1) as f64
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

/// One self-play game at `depth` on `rules`: its plies, the seconds it took, the search's counters.
fn engine_game<B: BitSet>(
    rules: &std::sync::Arc<Rules<B>>,
    settings: &Settings,
) -> (u32, f64, damelab::search::Stats) {
    let mut s = Searcher::new(rules.clone(), selfplay::TT_MIB);
    let t = Instant::now();
    let g = selfplay::play_game(rules, settings, Some(&mut s), 0, &mut Vec::new());
    (g.plies, t.elapsed().as_secs_f64(), s.stats())
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
