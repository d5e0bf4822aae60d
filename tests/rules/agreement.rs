//! The fast generator against the reference generator (`tests/reference/`) on random reachable
//! positions of every bundled variant: seeded random playouts (ChaCha8), and at every position the
//! same moves (from, to, captured set, resulting piece) and the same routes, with duplicate routes
//! both merged and kept. Every disagreement is printed with a FEN that reproduces it.
//!
//! `cargo test --test agreement` checks a few hundred positions per variant; the larger run,
//! thousands per variant, is `cargo test --release --test agreement -- --include-ignored` (.ci/run).

use crate::reference;

use damelab::engine::GenOptions;
use damelab::notation::{move_to_string, to_fen};
use damelab::{Position, Rules, Variant};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{from_engine, RefMove};

/// Differences between the two generators in `pos`, as readable lines.
fn compare(rules: &Rules, pos: &Position) -> Vec<String> {
    let mut problems = Vec::new();
    let fen = to_fen(rules, pos);
    let mut want: Vec<RefMove> = reference::moves(rules, pos);
    want.sort();
    let name = |m: &RefMove| {
        format!(
            "{}{:?}{:?}->{:?} x{:?} k{} due{:?}",
            if m.declares { "@" } else { "" },
            m.huff,
            m.from,
            m.to,
            m.captured,
            m.kind_after,
            m.due
        )
    };

    // Duplicates kept: one move per identity and order of capture (routes that differ only in a
    // flying piece's landing squares between captures are one move).
    let mut kept = Vec::new();
    rules.generate(
        pos,
        &mut kept,
        GenOptions {
            keep_duplicates: true,
            ..GenOptions::default()
        },
    );
    let key = |m: &RefMove| {
        let mut k = m.clone();
        // Under approach and withdrawal, two moves of one route and one captured set that took
        // the pieces in another order (each step another way) are kept apart, and each reads
        // back its own order (`Move::reading`): they are compared by route and order both.
        if !rules.approach && !m.is_drop() {
            k.route.clear();
        }
        k
    };
    let mut got: Vec<RefMove> = kept.iter().map(|m| key(&from_engine(rules, m))).collect();
    got.sort();
    let mut want_kept: Vec<RefMove> = want.iter().map(key).collect();
    want_kept.sort();
    want_kept.dedup();
    if got != want_kept {
        let missing: Vec<String> = want_kept
            .iter()
            .filter(|m| !got.contains(m))
            .map(name)
            .collect();
        let extra: Vec<String> = got
            .iter()
            .filter(|m| !want_kept.contains(m))
            .map(name)
            .collect();
        problems.push(format!(
            "{} --fen \"{fen}\" (routes kept): {} moves, reference {}; missing {missing:?}; extra {extra:?}",
            rules.spec.name,
            got.len(),
            want_kept.len()
        ));
    }

    // Duplicates merged: one move per identity, its route one of the reference's.
    let mut merged = Vec::new();
    rules.generate(pos, &mut merged, GenOptions::default());
    let mut ids: Vec<_> = merged.iter().map(|m| from_engine(rules, m).id()).collect();
    ids.sort();
    if rules.stacks {
        // Under `take top` two routes taking the same columns in another order are two moves
        // (the prisoners lie in another order): one identity may name both.
        ids.dedup();
    }
    let mut want_ids: Vec<_> = want.iter().map(|m| m.id()).collect();
    want_ids.sort();
    want_ids.dedup();
    if ids != want_ids {
        problems.push(format!(
            "{} --fen \"{fen}\": {} distinct moves, reference {}",
            rules.spec.name,
            ids.len(),
            want_ids.len()
        ));
    }
    for m in &merged {
        let r = from_engine(rules, m);
        // Under approach and withdrawal the order read back is the route's first reading.
        let known = if rules.approach {
            want.iter().any(|w| key(w) == key(&r))
        } else {
            want.contains(&r)
        };
        if !known {
            problems.push(format!(
                "{} --fen \"{fen}\": route {} is not a reference route",
                rules.spec.name,
                move_to_string(rules, m)
            ));
        }
    }
    // Bulk counting agrees with the list.
    let mut buf = Vec::new();
    let n = rules.count_moves(pos, &mut buf, GenOptions::default());
    if n != merged.len() as u64 {
        problems.push(format!(
            "{} --fen \"{fen}\": count_moves {n}, generate {}",
            rules.spec.name,
            merged.len()
        ));
    }
    problems
}

/// Rules that no bundled variant combines, written to cross the new capture rules with the old:
/// optional stops with the killer landing, promotion that continues and a kings-first priority;
/// captures kept to one line (short and flying) with immediate removal, the 180° ban, stops and
/// an `earliest` priority; one-line men with stops and promotion that ends the move; captures
/// by approach and withdrawal with a continuation that is due, the 180° ban, promotion and a
/// priority, and with Fanorona's rules (examples/approach-9x5.rules); one-line captures that turn
/// at the board's edge, short and flying, with immediate removal (straight back is then open but
/// banned) and with stops and a priority, from a start with kings on the board; flying captures
/// that leap rows of adjacent pieces with stops in one line, with immediate removal and a range,
/// and orthogonally landing directly behind with the 180° ban.
const MIXED: &[(&str, &str)] = &[
    (
        "row-leap-stops",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h2; white king a3, c3, e3, g3\n\
         man: step forward-diagonal; capture jump forward-diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal leaping a row of adjacent pieces in one line\n\
         captures: may stop after any jump, promotion mid-capture stops\n",
    ),
    (
        "row-leap-immediate",
        "variant \"T\"\nboard 10x10, dark squares, numbered\nsides white \"W\", black \"B\"\n\
         piece man \"M\" rank 1\npiece king \"K\" rank 2\nsetup white man 36..50; white king 31..35\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal up to 5 leaping a row of adjacent pieces\n\
         captures: removed immediately, priority highest capturer\n",
    ),
    (
        "row-leap-orthogonal",
        "variant \"T\"\nboard 7x7, all squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..g1; white king a2, c2, e2, g2\n\
         man: step forward, sideways; capture jump forward, sideways; promote to king on far rank\n\
         king: slide orthogonal, diagonal; capture fly orthogonal, diagonal landing directly behind leaping a row of adjacent pieces\n\
         captures: no 180 turn, promotion mid-capture continues\n",
    ),
    (
        "edge-turn-immediate",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h1, b2, f2; white king d2, h2, c3, g3\n\
         man: step forward-diagonal; capture jump diagonal in one line, turning at the edge; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal in one line, turning at the edge\n\
         captures: removed immediately, promotion mid-capture continues\n",
    ),
    (
        "edge-turn-stops",
        "variant \"T\"\nboard 10x10, dark squares, numbered\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man 36..50; white king 31..35\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal up to 4 in one line turning at the edge\n\
         captures: may stop after any jump, priority earliest kings\n",
    ),
    (
        "edge-turn-orthogonal",
        "variant \"T\"\nboard 7x7, all squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..g1; white king a2, c2, e2, g2\n\
         man: step forward, sideways; capture jump forward, sideways; promote to king on far rank\n\
         king: slide orthogonal, diagonal; capture fly orthogonal, diagonal in one line, turning at the edge\n\
         captures: priority most pieces\n",
    ),
    (
        "stops-killer",
        "variant \"T\"\nboard 10x10, dark squares, numbered\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man 31..50\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal landing directly behind when the last piece taken is a king\n\
         captures: may stop after any jump, promotion mid-capture continues, priority most kings\n",
    ),
    (
        "one-line-immediate",
        "variant \"T\"\nboard 8x8, all squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a2..h3\n\
         man: step forward, sideways; capture jump forward, sideways; promote to king on far rank\n\
         king: slide orthogonal; capture fly orthogonal in one line\n\
         captures: removed immediately, no 180 turn, may stop after any jump, priority earliest kings\n",
    ),
    (
        "one-line-men",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump diagonal in one line; promote to king on far rank\n\
         king: slide diagonal up to 3; capture fly diagonal up to 3\n\
         captures: may stop after any jump, promotion mid-capture stops\n",
    ),
    (
        "huffing-stops-immediate",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump forward-diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal\n\
         captures: huffing, may stop after any jump, removed immediately, priority most kings\n",
    ),
    (
        "huffing-most-pieces",
        "variant \"T\"\nboard 8x8, all squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a2..h3\n\
         man: step forward, sideways; capture jump forward, sideways; promote to king on far rank\n\
         king: slide orthogonal; capture fly orthogonal\n\
         captures: huffing, no 180 turn, priority most pieces\n",
    ),
    (
        "huffing-smaller-captures",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump forward-diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal\n\
         captures: huffing of smaller captures, removed at end of turn, priority free\n",
    ),
    (
        "approach-priority",
        "variant \"T\"\nboard 8x8, all squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h2, a3, c3, f3, h3\n\
         man: step forward, forward-diagonal, sideways; capture approach all; capture withdrawal orthogonal; promote to king on far rank\n\
         king: step all; capture approach all; capture withdrawal all\n\
         captures: no 180 turn, priority most pieces, most kings\n",
    ),
    (
        "approach-example",
        include_str!("../../examples/approach-9x5.rules"),
    ),
    (
        "stacks-immediate-flying",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal\n\
         captures: take top, removed immediately, promotion mid-capture continues\n",
    ),
    (
        "stacks-immediate-short",
        "variant \"T\"\nboard 7x7, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..g3\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: step diagonal; capture jump diagonal\n\
         captures: take top, removed immediately, no 180 turn, promotion at end of move\n",
    ),
    (
        "stacks-optional",
        "variant \"T\"\nboard 6x6, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..f2\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal up to 2\n\
         captures: optional, take top, promotion mid-capture stops\n",
    ),
];

/// Random playouts of every bundled variant and of the [`MIXED`] rules: `games` games of at most
/// `plies` plies, every position compared. Returns (positions checked, problems).
fn run(games: usize, plies: usize, seed: u64) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut problems = Vec::new();
    let bundled = damelab::variants::BUNDLED
        .iter()
        .map(|(name, _)| Variant::load(name).expect("bundled variant loads"));
    let mixed = MIXED.iter().map(|(name, text)| {
        Variant::from_source(name, name, text, None).expect("the mixed rules load")
    });
    for v in bundled.chain(mixed) {
        let rules = &v.rules;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = rules.start;
            for _ in 0..plies {
                checked += 1;
                problems.extend(compare(rules, &pos));
                rules.generate(&pos, &mut moves, GenOptions::default());
                if moves.is_empty() {
                    break;
                }
                let i = rng.random_range(0..moves.len());
                pos = pos.play(&moves[i]);
            }
        }
    }
    (checked, problems)
}

fn report(checked: usize, problems: &[String]) {
    for p in problems {
        eprintln!("{p}");
    }
    println!(
        "{checked} positions checked, {} disagreements",
        problems.len()
    );
    assert!(checked > 0);
    assert!(
        problems.is_empty(),
        "{} disagreements (listed above)",
        problems.len()
    );
}

#[test]
fn fast_and_reference_generators_agree() {
    let (checked, problems) = run(16, 120, 1);
    report(checked, &problems);
}

#[test]
#[ignore = "slow: thousands of positions per variant; run in release by .ci/run"]
fn fast_and_reference_generators_agree_on_many_positions() {
    let (checked, problems) = run(100, 200, 2);
    report(checked, &problems);
}

/// The 33-piece capture, by the reference too (every route of it: minutes).
#[test]
#[ignore = "slow: enumerates every route of a 33-piece capture (about 6 minutes in the test profile)"]
fn the_long_capture_agrees() {
    let v = Variant::load("big-dameo-4").expect("bundled");
    let fen = "W:WKa1:Ba2,a4,a6,a8,b1,b3,b5,b7,b9,c2,c4,c6,c8,d1,d3,d5,d7,d9,e2,e4,e6,e8,f1,f3,f5,f7,f9,g2,g4,g6,g8,h1,h3,h5,h7,h9,i2,i4,i6,i8";
    let pos = damelab::notation::parse_fen(&v.rules, fen).expect("valid FEN");
    let want = reference::moves(&v.rules, &pos);
    assert!(want.iter().all(|m| m.captured.len() == 33));
    let mut ids: Vec<_> = want.iter().map(|m| m.id()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 24);
    report(1, &compare(&v.rules, &pos));
}

/// Rules with a single combat that Dablot Prejjesne does not have: men that step forward only
/// (squares behind them are out of reach) and promote, kings that slide (a slide of any length is
/// one move nearer), compulsory captures with flying kings, combat between kings allowed.
const COMBAT: &[(&str, &str)] = &[
    (
        "combat-sliding-kings",
        "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\"\npiece king \"K\"\nsetup white man a1..h3\n\
         man: step forward-diagonal; capture jump diagonal; promote to king on far rank\n\
         king: slide diagonal; capture fly diagonal\n\
         game: no moves loses, lone pieces of equal rank may declare single combat\n",
    ),
    (
        "combat-orthogonal-optional",
        "variant \"T\"\nboard 7x7, all squares\nsides white \"W\", black \"B\"\n\
         piece man \"M\" rank 1\npiece king \"K\" rank 2\nsetup white man a1..g2\n\
         man: step forward, sideways; capture jump forward, sideways; promote to king on far rank\n\
         king: slide orthogonal up to 3; capture fly orthogonal\n\
         captures: optional\n\
         game: no moves loses, lone pieces of equal rank below the highest may declare single combat\n",
    ),
];

/// Declared single combat against the reference (`tests/reference/combat.rs`): random positions
/// of one piece a side, of every pair of kinds (equal ranks and not), either side to move, a
/// combat declared where the rule allows one, each followed by a short random playout (its
/// declarations and the combats they start); every position compared, and after every move the
/// combat mark where the rule puts it (set by a declaration, kept by a quiet move, gone after a
/// capture) and the FEN reading back the same position.
#[test]
fn single_combat_agrees_on_lone_pieces() {
    let (checked, in_combat, declared, problems) = combat_run(300, 47);
    println!("{checked} positions ({in_combat} under a combat), {declared} declarations played");
    assert!(
        declared > 50 && in_combat > 300,
        "{declared} declarations, {in_combat} under combat"
    );
    report(checked, &problems);
}

#[test]
#[ignore = "slow: thousands of lone-piece positions per variant; run in release by .ci/run"]
fn single_combat_agrees_on_many_lone_pieces() {
    let (checked, in_combat, declared, problems) = combat_run(3000, 48);
    println!("{checked} positions ({in_combat} under a combat), {declared} declarations played");
    assert!(
        declared > 500 && in_combat > 3000,
        "{declared} declarations, {in_combat} under combat"
    );
    report(checked, &problems);
}

/// [`single_combat_agrees_on_lone_pieces`]' run: `starts` random positions per variant, each
/// followed by a playout of at most 8 plies. Returns (positions checked, of them under a combat,
/// declarations played, problems).
fn combat_run(starts: usize, seed: u64) -> (usize, usize, usize, Vec<String>) {
    let dablot = Variant::load("dablot-prejjesne").expect("bundled variant loads");
    let mixed = COMBAT.iter().map(|(name, text)| {
        Variant::from_source(name, name, text, None).expect("the combat rules load")
    });
    let mut checked = 0;
    let mut declared = 0;
    let mut in_combat = 0;
    let mut problems = Vec::new();
    for v in std::iter::once(dablot).chain(mixed) {
        let rules = &v.rules;
        let rule = rules.spec.game.combat.expect("the rule is declared");
        let highest = rules.spec.pieces.iter().map(|p| p.rank).max().unwrap_or(0);
        let squares: Vec<u8> = (0..=255u8)
            .filter(|&sq| damelab::engine::BitSet::has(rules.playable, sq))
            .collect();
        let kinds = rules.spec.pieces.len();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = Vec::new();
        for i in 0..starts {
            let (a, b) = (i % kinds, (i / kinds) % kinds);
            let x = squares[rng.random_range(0..squares.len())];
            let y = loop {
                let y = squares[rng.random_range(0..squares.len())];
                if y != x {
                    break y;
                }
            };
            let mut pos = Position::empty(rng.random_range(0..2));
            pos.put(x, 0, a);
            pos.put(y, 1, b);
            let (ra, rb) = (rules.spec.pieces[a].rank, rules.spec.pieces[b].rank);
            if ra == rb && (!rule.below_highest || ra < highest) && rng.random_bool(0.5) {
                pos.turn |= <Position>::COMBAT;
            }
            for _ in 0..8 {
                checked += 1;
                in_combat += pos.in_combat() as usize;
                problems.extend(compare(rules, &pos));
                let fen = to_fen(rules, &pos);
                match damelab::notation::parse_fen(rules, &fen) {
                    Ok(back) if back.same_placement(&pos) && back.turn == pos.turn => {}
                    other => problems.push(format!("{fen} reads back as {other:?}")),
                }
                rules.generate(&pos, &mut moves, GenOptions::default());
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                declared += m.declares() as usize;
                let next = pos.play(&m);
                let want = m.declares() || (pos.in_combat() && !m.is_capture());
                if next.in_combat() != want {
                    problems.push(format!(
                        "{fen}: after {} the combat mark is {}",
                        move_to_string(rules, &m),
                        next.in_combat()
                    ));
                }
                pos = next;
            }
        }
    }
    (checked, in_combat, declared, problems)
}
