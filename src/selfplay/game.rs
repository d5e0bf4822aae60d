//! One self-play game: its seed, its moves (engine or random), and how it ended.

use super::*;

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut s = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix(&mut s)
}

/// Play game `index` of a run. `engine` is required unless the settings say `random`. Any bit-set
/// width plays the same game; [`run`] plays on 64-bit sets when the board fits them.
pub fn play_game<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: Option<&mut Searcher<B>>,
    index: u64,
    buf: &mut Vec<Move<B>>,
) -> GameRecord {
    let begin = Begin::plies(rules, settings);
    play_game_into(rules, settings, engine, index, &begin, buf, None)
}

/// Where a game begins: a position, the moves of its opening played from it, then this many
/// random plies before the engines search.
#[derive(Clone, Debug)]
pub struct Begin<'a, B: BitSet> {
    pub start: Position<B>,
    pub moves: &'a [Move<B>],
    pub random_plies: u32,
}

impl<B: BitSet> Begin<'_, B> {
    /// The start position and the run's random opening plies: the game of a run without
    /// `--openings` or `--balanced`.
    pub fn plies(rules: &Rules<B>, settings: &Settings) -> Self {
        Begin {
            start: rules.start,
            moves: &[],
            random_plies: settings.opening_plies,
        }
    }
}

/// [`play_game`] from `begin`, and the moves played pushed onto `moves` when given (cleared
/// first; for the PDN of the game; the opening's moves among them).
pub fn play_game_into<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: Option<&mut Searcher<B>>,
    index: u64,
    begin: &Begin<'_, B>,
    buf: &mut Vec<Move<B>>,
    mut moves: Option<&mut Vec<Move<B>>>,
) -> GameRecord {
    if let Some(m) = moves.as_deref_mut() {
        m.clear();
    }
    let probe = engine.as_ref().and_then(|e| e.probe().cloned());
    // The tables' verdict on the first position of their materials (see `GameRecord::tb`).
    let mut tb: Option<i8> = None;
    let mut tb_material: Option<String> = None;
    let mut record = |pos: &Position<B>, mv: &Move<B>, _: bool| {
        if let Some(m) = moves.as_deref_mut() {
            m.push(*mv);
        }
        if tb.is_none() {
            if let Some(score) = probe.as_ref().and_then(|p| p(pos)) {
                let mover = pos.turn() as i8;
                tb = Some(match score.signum() {
                    1 => mover,
                    -1 => 1 - mover,
                    _ => -1,
                });
                // Once a game, at its first position in the tables.
                tb_material = Some(crate::endgame::material::Material::of(pos).name(rules));
            }
        }
    };
    match engine {
        Some(e) => {
            e.clear();
            let mut rec = play_game_from(
                rules,
                settings,
                true,
                index,
                begin,
                buf,
                &mut |pos, history, limits| e.search(pos, history, limits, &mut |_| {}).best,
                &mut record,
            );
            rec.tb = tb;
            rec.tb_material = tb_material;
            if rec.w == -1 && tb == Some(-1) {
                rec.draw = Some(draws::DrawClass::Table);
            }
            rec
        }
        None => play_game_from(
            rules,
            settings,
            false,
            index,
            begin,
            buf,
            &mut |_, _, _| None,
            &mut record,
        ),
    }
}

/// A player's choice in a position reached after the positions hashed in the history, within
/// the limits (`None`: the first legal move).
pub type Chooser<'a, B> = dyn FnMut(&Position<B>, &[u64], Limits) -> Option<Move<B>> + 'a;

/// Told each position a game was played from, the move played there and whether it was the
/// engine's.
pub type Observer<'a, B> = dyn FnMut(&Position<B>, &Move<B>, bool) + 'a;

/// [`play_game`] with the engine's choices made by `choose` (`engine`: whether there is one; if
/// not, or under `random`, every move is random) and `observe` told each position played from,
/// the move played there and whether it was the engine's. Training plays two evaluations against
/// each other and keeps the positions this way.
pub fn play_game_with<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: bool,
    index: u64,
    buf: &mut Vec<Move<B>>,
    choose: &mut Chooser<'_, B>,
    observe: &mut Observer<'_, B>,
) -> GameRecord {
    let begin = Begin::plies(rules, settings);
    play_game_from(rules, settings, engine, index, &begin, buf, choose, observe)
}

/// [`play_game_with`] from `begin`: its opening's moves first (as random plies are: seen by
/// `observe` as not the engine's), then its random plies, then the engines.
// The arguments are `play_game_with`'s and where the game begins.
#[allow(clippy::too_many_arguments)]
pub fn play_game_from<B: BitSet>(
    rules: &Rules<B>,
    settings: &Settings,
    engine: bool,
    index: u64,
    begin: &Begin<'_, B>,
    buf: &mut Vec<Move<B>>,
    choose: &mut Chooser<'_, B>,
    observe: &mut Observer<'_, B>,
) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(settings.seed, index));
    let keys = crate::search::zobrist::Keys::shared();
    let limits = Limits {
        depth: settings.depth,
        nodes: settings.nodes,
        time: None,
        target: None,
    };
    let rep = rules.spec.game.repetition_draw as usize;
    let move_counts = !rules.spec.game.move_count_draws.is_empty();
    // Hashes serve repetition, and the engine's search (its history).
    let hashing = rep > 0 || engine;
    let mut pos: Position<B> = begin.start;
    let forced = begin.moves.len() as u32;
    let engine_from = forced.saturating_add(begin.random_plies);
    let mut hash = if hashing { keys.hash(&pos) } else { 0 };
    let mut history: Vec<u64> = Vec::with_capacity(256);
    // How many positions of `history` fall in each slot of their hash: a position repeats only if
    // its slot holds enough of them, so most plies need no look through the history.
    let mut slots = [0u32; REP_SLOTS];
    let mut rec = GameRecord {
        i: index,
        w: -1,
        end: End::Cap,
        plies: 0,
        moves: 0,
        lm: 0,
        caps: 0,
        promos: 0,
        tb: None,
        tb_material: None,
        draw: None,
        shuffle: false,
    };
    // A man moved since the last capture or promotion (see `draws`).
    let men = draws::promoting_kinds(rules);
    let mut progress = false;
    // A material rule decides before any other end: the generator gives no move in a position it
    // decides, so it is looked at only when a game ends.
    let material = |pos: &Position<B>, rec: &mut GameRecord| match rules.material_outcome(pos) {
        Some(o) => {
            rec.w = o.winner.map_or(-1, |w| w as i8);
            rec.end = End::Material;
            true
        }
        None => false,
    };
    loop {
        // Draws that must be claimed are taken to be claimed at once by the side to move.
        if rep > 0
            && slots[hash as usize % REP_SLOTS] as usize + 1 >= rep
            && repeated(&history, hash, rep - 1)
        {
            if !material(&pos, &mut rec) {
                rec.end = End::Repetition;
            }
            break;
        }
        if move_counts && crate::engine::draws::move_count_draw(rules, &pos) {
            if !material(&pos, &mut rec) {
                rec.end = End::MoveCount;
            }
            break;
        }
        let searching = engine && !settings.random && rec.plies >= engine_from;
        // A random move needs the number of moves and the one drawn, not the whole list.
        let n = if searching {
            rules.generate(&pos, buf, GenOptions::default());
            buf.len()
        } else {
            playout::count(rules, &pos, buf)
        };
        if n == 0 {
            if material(&pos, &mut rec) {
                break;
            }
            let o = rules.outcome(&pos, 0);
            rec.w = o.and_then(|o| o.winner).map_or(-1, |w| w as i8);
            rec.end = End::NoMoves;
            break;
        }
        if rec.plies >= settings.max_plies {
            rec.end = End::Cap;
            break;
        }
        rec.moves += n as u64;
        rec.lm += ((n as f64).log10() * 1e6).round() as u64;
        rec.caps += buf.first().is_some_and(|m| m.is_capture()) as u32;
        let mv = if rec.plies < forced {
            begin.moves[rec.plies as usize]
        } else if searching {
            choose(&pos, &history, limits).unwrap_or(buf[0])
        } else {
            playout::nth(rules, &pos, buf, rng.random_range(0..n))
        };
        observe(&pos, &mv, searching);
        rec.promos += (mv.kind_after != mv.kind_before) as u32;
        let next = rules.play(&pos, &mv);
        if mv.is_capture() || mv.kind_after != mv.kind_before {
            progress = false;
        } else if men & (1 << mv.kind_before) != 0 {
            progress = true;
        }
        if hashing {
            let nh = keys.after(&pos, hash, &mv, &next);
            if mv.is_capture() || mv.kind_after != mv.kind_before {
                for h in history.drain(..) {
                    slots[h as usize % REP_SLOTS] -= 1;
                }
            } else {
                history.push(hash);
                slots[hash as usize % REP_SLOTS] += 1;
            }
            hash = nh;
        }
        pos = next;
        rec.plies += 1;
    }
    draws::classify(rules, &pos, &mut rec, progress);
    rec
}

/// Slots of the repetition filter of [`play_game`].
const REP_SLOTS: usize = 256;

/// Whether `hash` occurs `times` times among the positions of `history` with the same side to
/// move (every second one from the end: the history runs from the last irreversible move, a
/// position a ply, up to the one before the current position).
#[inline]
fn repeated(history: &[u64], hash: u64, times: usize) -> bool {
    let mut seen = 0;
    for &h in history.iter().rev().skip(1).step_by(2) {
        if h == hash {
            seen += 1;
            if seen >= times {
                return true;
            }
        }
    }
    times == 0
}
