//! A placement phase (pieces in hand, Mraha wa Bwe) and a declared single combat (Dablot
//! Prejjesne) through the engine and the runs (issue 47): self-play written and replayed, a match,
//! an analysis; the engine's first move from Mraha wa Bwe's empty board is a drop, and the endgame
//! tables are not probed while pieces are still in hand.

use crate::common::{damelab, ok, runs_through_the_engine, scratch, with_input};

/// `damelab analyse VARIANT ARGS… --no-tables`: its `best` line (the move and its score).
fn best(variant: &str, args: &[&str]) -> String {
    let mut all = vec!["analyse", variant];
    all.extend_from_slice(args);
    all.push("--no-tables");
    let out = ok(&damelab(&all));
    out.lines()
        .find_map(|l| l.trim().strip_prefix("best "))
        .unwrap_or_else(|| panic!("no best move: {out}"))
        .to_string()
}

#[test]
fn a_placement_phase_runs_through_the_engine() {
    runs_through_the_engine("mraha-wa-bwe", &scratch("placement", "runs"));
    // From the empty board the engine places: its best move is a drop of two men.
    let best = best("mraha-wa-bwe", &["--depth", "2"]);
    assert!(best.starts_with('@'), "{best}");
}

#[test]
fn a_declared_single_combat_runs_through_the_engine() {
    runs_through_the_engine("dablot-prejjesne", &scratch("placement", "combat"));
}

#[test]
fn tables_are_not_probed_with_pieces_in_hand() {
    let cache = scratch("placement", "probe");
    let o = with_input(
        &["repl", "mraha-wa-bwe"],
        "probe\n",
        &[("DAMELAB_CACHE", &cache)],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("pieces in hand: the tables hold positions of the board alone"),
        "{text}"
    );
}

/// Two lone men of Dablot where White, to move, wins by declaring: after `@c3-c5` each
/// side must come nearer, and Black's man is taken (`@c3-c5 g9-g7 c5-c7 g7-e7 c7xg7`). The
/// engine finds the declaration and the win.
#[test]
fn the_engine_declares_a_won_combat() {
    let best = best("dablot-prejjesne", &["--fen", "W:Wc3:Bg9", "--depth", "8"]);
    assert!(best.starts_with("@c3-c5"), "{best}");
    assert!(best.contains("win in 5"), "{best}");
}
