//! Property tests (proptest) on random legal play in every bundled variant: a case is a variant, a
//! seed and a number of plies; a seeded random game (ChaCha8) reaches a position, and there:
//! FEN print/parse round trip; move text print/parse round trip; every move applied and its result
//! consistent; the colour-reversed, 180°-turned twin has the same perft; duplicate removal keeps
//! exactly one move per identity; the game's result follows the rules file.

use damelab::engine::{BitSet, EndReason, GenOptions};
use damelab::notation::{move_to_string, parse_fen, parse_move, to_fen};
use damelab::spec::Zone;
use damelab::{Game, Move, Position, Rules, Variant};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, OnceLock};

fn variants() -> &'static Vec<Variant> {
    static V: OnceLock<Vec<Variant>> = OnceLock::new();
    V.get_or_init(|| {
        damelab::variants::BUNDLED
            .iter()
            .map(|(n, _)| Variant::load(n).expect("bundled variant loads"))
            .collect()
    })
}

/// The position after `plies` random moves from the start (fewer if the game ends).
fn play(rules: &Rules, seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = rules.start;
    let mut moves = Vec::new();
    for _ in 0..plies {
        rules.generate(&pos, &mut moves, GenOptions::default());
        // `has_moves` (the end-of-game rules' test, no capture search) agrees with the list.
        assert_eq!(rules.has_moves(&pos), !moves.is_empty());
        if moves.is_empty() {
            break;
        }
        pos = pos.play(&moves[rng.random_range(0..moves.len())]);
    }
    pos
}

/// The position with the colours exchanged and the board turned through 180°.
fn twin(rules: &Rules, pos: &Position) -> Position {
    let geo = &rules.geo;
    let turn = |sq: u8| {
        geo.square(geo.rotate_coord(geo.coord(sq)))
            .expect("a turned square is on the board")
    };
    let mut t = Position::empty(1 - pos.turn());
    for side in 0..2 {
        for (sq, kind) in pos.pieces(side) {
            t.put(turn(sq), 1 - side, kind);
        }
        t.hand[1 - side] = pos.hand[side];
        let run = pos.runs[side];
        t.runs[1 - side] = if run.count == 0 {
            run
        } else {
            damelab::engine::position::Run {
                sq: turn(run.sq),
                count: run.count,
            }
        };
    }
    for sq in damelab::engine::geometry::BitIter(pos.huff) {
        t.huff |= damelab::engine::geometry::Bits::bit(turn(sq));
    }
    t
}

/// Whether the rules treat the two sides alike under the colour-and-180° map: the second side's
/// directions are the first side's turned by construction; promotion zones named by the enemy's
/// start squares are alike only if the start position is.
fn symmetric(rules: &Rules) -> bool {
    let uses_start = rules.spec.pieces.iter().any(|p| {
        p.promotions
            .iter()
            .any(|z| matches!(z.zone, Zone::EnemyStart(_)))
    });
    !uses_start || twin(rules, &rules.start).sides == rules.start.sides
}

fn check(v: &Variant, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let rules = &v.rules;
    let pos = play(rules, seed, plies);
    let fen = to_fen(rules, &pos);
    let ctx = format!("{} --fen \"{fen}\"", rules.spec.name);

    // FEN round trip.
    let back = parse_fen(rules, &fen).map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
    prop_assert_eq!(back.sides, pos.sides, "{}", ctx);
    prop_assert_eq!(back.kinds, pos.kinds, "{}", ctx);
    prop_assert_eq!(back.turn, pos.turn, "{}", ctx);

    let mut legal: Vec<Move> = Vec::new();
    rules.generate(&pos, &mut legal, GenOptions::default());
    let me = pos.turn();
    for m in &legal {
        // Move text round trip.
        let text = move_to_string(rules, m);
        let parsed = parse_move(rules, &legal, &text)
            .map_err(|e| TestCaseError::fail(format!("{ctx}: `{text}`: {e}")))?;
        prop_assert_eq!(&parsed, m, "{}: `{}`", ctx, text);

        // The move applied.
        let next = pos.play(m);
        prop_assert_eq!(next.turn(), 1 - me);
        prop_assert_eq!(
            pos.sides[1 - me] & m.captured,
            m.captured,
            "{}: `{}` takes own or empty squares",
            ctx,
            text
        );
        if rules.stacks {
            // Under `take top` no piece leaves the board: a taken top goes under the capturer.
            prop_assert_eq!(
                next.occupied().count() as usize + next.stacks.len(),
                pos.occupied().count() as usize + pos.stacks.len(),
                "{}: `{}`",
                ctx,
                text
            );
        } else {
            prop_assert_eq!(
                next.sides[1 - me].count(),
                // A huffed piece leaves the board too.
                pos.sides[1 - me].count() - m.captures() - u32::from(m.huff().is_some()),
                "{}: `{}`",
                ctx,
                text
            );
            // A drop puts pieces from hand on the board: pieces on the board and in hand
            // together stay as many.
            let placed = if m.is_drop() {
                m.route().len() as u32
            } else {
                0
            };
            prop_assert_eq!(
                next.sides[me].count(),
                pos.sides[me].count() + placed,
                "{}: `{}`",
                ctx,
                text
            );
            prop_assert_eq!(
                next.sides[me].count() + next.in_hand(me),
                pos.sides[me].count() + pos.in_hand(me),
                "{}: `{}`",
                ctx,
                text
            );
            prop_assert!(
                (next.sides[1 - me] & m.captured).none(),
                "{}: `{}`",
                ctx,
                text
            );
        }
        prop_assert_eq!(
            next.at(m.to),
            Some((me, m.kind_after as usize)),
            "{}: `{}`",
            ctx,
            text
        );
        if m.from != m.to && !m.is_drop() {
            prop_assert_eq!(next.at(m.from), None, "{}: `{}`", ctx, text);
        }
        prop_assert_eq!(m.route().last().copied(), Some(m.to));
        // A jump takes one piece; a step by approach or withdrawal may take a whole line, and a
        // flying jump a row of adjacent pieces (`leaping a row of adjacent pieces`).
        if !rules.approach && !rules.row_leaps {
            prop_assert_eq!(m.route().len() as u32 >= m.captures(), true);
        }
    }

    // Duplicate removal: one move per identity, the same identities as with every route kept.
    let mut kept = Vec::new();
    rules.generate(
        &pos,
        &mut kept,
        GenOptions {
            keep_duplicates: true,
            ..GenOptions::default()
        },
    );
    let id = |m: &Move| (m.from, m.to, m.captured, m.kind_after, m.huff());
    let mut a: Vec<_> = legal.iter().map(id).collect();
    let mut b: Vec<_> = kept.iter().map(id).collect();
    a.sort();
    let len = a.len();
    a.dedup();
    // Under `take top` two routes taking the same columns in another order are two moves.
    if !rules.stacks {
        prop_assert_eq!(a.len(), len, "{}: a move listed twice", ctx);
    }
    b.sort();
    b.dedup();
    prop_assert_eq!(a, b, "{}", ctx);

    // Mirror symmetry (of positions without columns: the twin turns the tops only).
    if symmetric(rules) && !pos.has_columns() {
        let t = twin(rules, &pos);
        let opts = GenOptions::default();
        prop_assert_eq!(
            rules.perft(&pos, 2, opts),
            rules.perft(&t, 2, opts),
            "{}: twin {}",
            ctx,
            to_fen(rules, &t)
        );
    }

    // The result follows the rules file.
    let game = Game::from_position(Arc::clone(&v.rules), pos);
    let material = rules.material_outcome(&pos);
    match game.result() {
        Some(o) => match o.reason {
            EndReason::NoMoves => {
                let g = &rules.spec.game;
                prop_assert!(
                    legal.is_empty() && (g.no_moves_loses || g.no_moves_wins),
                    "{}",
                    ctx
                );
                // The aim reversed: the side that cannot move wins.
                let winner = if g.no_moves_wins { me } else { 1 - me };
                prop_assert_eq!(o.winner, Some(winner), "{}", ctx);
            }
            EndReason::FirstKind(k) => {
                prop_assert!(rules.spec.game.first_wins.contains(&k), "{}", ctx);
                let w = o.winner.expect("a side wins");
                prop_assert!(pos.kind_bits(w, k as usize).any(), "{}", ctx);
            }
            EndReason::Reached => {
                let w = o.winner.expect("a side wins");
                prop_assert!((pos.sides[w] & rules.goal[w]).any(), "{}", ctx);
            }
            EndReason::LoneWins(w, l) => {
                prop_assert!(rules.spec.game.lone_wins.contains(&(w, l)), "{}", ctx);
                prop_assert_eq!(pos.occupied().count(), 2, "{}", ctx);
            }
            EndReason::LoneDraws(a, b) => {
                prop_assert!(rules.spec.game.lone_draws.contains(&(a, b)), "{}", ctx);
                prop_assert_eq!(pos.occupied().count(), 2, "{}", ctx);
                prop_assert_eq!(o.winner, None, "{}", ctx);
            }
            EndReason::LostKind(k) => {
                prop_assert!(rules.spec.game.lose_without.contains(&k), "{}", ctx);
                let loser = 1 - o.winner.expect("a side wins");
                prop_assert!(pos.kind_bits(loser, k as usize).none(), "{}", ctx);
            }
            EndReason::Repetition(_) => {
                prop_assert!(false, "{}: repetition in a one-position game", ctx)
            }
            EndReason::MoveCount(_) => {
                // Positions played with `Position::play` keep their counts at 0.
                prop_assert!(false, "{}: move-count draw with every count at 0", ctx)
            }
        },
        None => {
            prop_assert!(material.is_none(), "{}", ctx);
            prop_assert!(
                !legal.is_empty()
                    || !(rules.spec.game.no_moves_loses || rules.spec.game.no_moves_wins),
                "{}",
                ctx
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_property(
        variant in 0..damelab::variants::BUNDLED.len(),
        seed in any::<u64>(),
        plies in 0usize..160,
    ) {
        check(&variants()[variant], seed, plies)?;
    }
}

/// Every variant, a fixed set of seeds: no variant left to chance.
#[test]
fn every_variant_keeps_every_property() {
    let mut cases = 0;
    for v in variants() {
        for seed in 0..24u64 {
            check(v, seed, (seed as usize * 7) % 140).unwrap_or_else(|e| panic!("{e}"));
            cases += 1;
        }
    }
    println!("{cases} cases");
    assert_eq!(cases, 24 * variants().len());
}
