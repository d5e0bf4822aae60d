//! Training with each position's mirror image (`train --mirror`): the position seen from the other
//! side, every piece turned through 180° with its colour swapped and the other side to move, is a
//! row of its own with the result reversed. Where the rules treat the two sides alike, the mirror
//! image is a position of the same game with the opposite value, so the fit sees both sides of
//! every position and each side's weights come out alike, whichever side self-play happened to
//! favour.
//!
//! Whether the rules treat the sides alike is found from the compiled rules, never from a
//! variant's name ([`Mirror::of`]): the board turns onto itself, the start is its own mirror image,
//! the goals turn into each other, and along seeded random games every position's moves lead to
//! the mirror images of its mirror image's moves' positions and both end alike.

use crate::engine::bits::BitIter;
use crate::engine::position::Run;
use crate::engine::stacks::Stacks;
use crate::engine::{BitSet, GenOptions, Move, Position, Rules, Sq};
use crate::search::zobrist::splitmix;

/// Random games played from the start to compare each position with its mirror image.
const GAMES: u64 = 64;
/// The longest of those games, in plies.
const PLIES: u32 = 200;

/// The turned square of every square of a board whose rules treat the two sides alike.
#[derive(Clone, Debug)]
pub struct Mirror {
    turned: Vec<Sq>,
    /// Whether each square is playable (the others have no turned square).
    playable: Vec<bool>,
}

/// Why the rules do not treat the two sides alike.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Asymmetry {
    #[error("the rules have huffing, captures by approach, stacks, a single combat or pieces in hand, which a position's mirror image does not carry")]
    Special,
    #[error("square {0} turned through 180° is not a playable square")]
    Board(String),
    #[error("the start is not its own mirror image (each side's pieces turned onto the other's)")]
    Start,
    #[error(
        "the squares the two sides win on (`reaching far rank wins`) do not turn into each other"
    )]
    Goals,
    #[error("the moves of the position {0} do not match those of its mirror image")]
    Moves(String),
    #[error("the position {0} and its mirror image do not end alike")]
    Ends(String),
}

impl Mirror {
    /// The mirror of these rules, after checking that they treat the two sides alike.
    pub fn of(rules: &Rules) -> Result<Mirror, Asymmetry> {
        if rules.special {
            return Err(Asymmetry::Special);
        }
        let geo = &rules.geo;
        let size = geo.size() as usize;
        let mut turned = vec![0 as Sq; size];
        let mut playable = vec![false; size];
        for sq in 0..size as Sq {
            if !rules.playable.has(sq) {
                continue;
            }
            playable[sq as usize] = true;
            match geo.square(geo.rotate_coord(geo.coord(sq))) {
                Some(t) if rules.playable.has(t) => turned[sq as usize] = t,
                _ => return Err(Asymmetry::Board(geo.name(sq))),
            }
        }
        let m = Mirror { turned, playable };
        let start = m.turn(&rules.start).ok_or(Asymmetry::Start)?;
        if start.sides != rules.start.sides || start.kinds != rules.start.kinds {
            return Err(Asymmetry::Start);
        }
        if m.squares(rules.goal[0]) != rules.goal[1] {
            return Err(Asymmetry::Goals);
        }
        m.compare_games(rules)?;
        Ok(m)
    }

    /// The square a playable square turns onto (`None` for the board's other squares).
    pub fn turned_square(&self, sq: usize) -> Option<usize> {
        (*self.playable.get(sq)?).then(|| self.turned[sq] as usize)
    }

    /// A set of squares turned.
    fn squares<B: BitSet>(&self, set: B) -> B {
        BitIter(set).fold(B::ZERO, |out, sq| out | B::bit(self.turned[sq as usize]))
    }

    /// The position seen from the other side: pieces turned with their colours swapped, each
    /// side's run of quiet moves the other's, the other side to move, the move-count counters
    /// kept (they count both sides' moves). `None` for a position holding state that does not
    /// turn with it (a piece open to a huff, stacks, pieces in hand, a single combat).
    pub fn turn<B: BitSet>(&self, pos: &Position<B>) -> Option<Position<B>> {
        let plain = !pos.in_combat()
            && pos.huff.none()
            && pos.stacks == Stacks::default()
            && pos.hand.iter().flatten().all(|&n| n == 0);
        if !plain {
            return None;
        }
        let mut out = Position::<B>::empty_of(1 - pos.turn());
        out.sides = [self.squares(pos.sides[1]), self.squares(pos.sides[0])];
        for (k, bits) in pos.kinds.iter().enumerate() {
            out.kinds[k] = self.squares(*bits);
        }
        let run = |r: Run| match r.count {
            0 => Run::default(),
            count => Run {
                sq: self.turned[r.sq as usize],
                count,
            },
        };
        out.runs = [run(pos.runs[1]), run(pos.runs[0])];
        out.counters = pos.counters;
        Some(out)
    }

    /// Seeded random games from the start: at each position, its moves' positions turned are its
    /// mirror image's moves' positions, and the two end alike.
    fn compare_games(&self, rules: &Rules) -> Result<(), Asymmetry> {
        let mut seed = 0x6d69_7272_6f72u64;
        let (mut moves, mut theirs) = (Vec::<Move>::new(), Vec::<Move>::new());
        let opts = GenOptions::default();
        for _ in 0..GAMES {
            let mut pos = rules.start;
            for _ in 0..PLIES {
                let Some(m) = self.turn(&pos) else { break };
                let name = || crate::notation::to_fen(rules, &pos);
                if rules
                    .generate_within(&pos, &mut moves, opts, 1 << 20)
                    .is_err()
                    || rules
                        .generate_within(&m, &mut theirs, opts, 1 << 20)
                        .is_err()
                {
                    break;
                }
                let mine: Vec<Position> = moves
                    .iter()
                    .filter_map(|mv| self.turn(&pos.play(mv)))
                    .collect();
                let other: Vec<Position> = theirs.iter().map(|mv| m.play(mv)).collect();
                let matched = mine.len() == moves.len()
                    && mine.len() == other.len()
                    && mine
                        .iter()
                        .all(|a| other.iter().any(|b| a.same_placement(b)))
                    && other
                        .iter()
                        .all(|b| mine.iter().any(|a| a.same_placement(b)));
                if !matched {
                    return Err(Asymmetry::Moves(name()));
                }
                let ends = rules.outcome(&pos, moves.len());
                let flipped = rules.outcome(&m, theirs.len()).map(|mut o| {
                    o.winner = o.winner.map(|w| 1 - w);
                    o
                });
                if ends != flipped {
                    return Err(Asymmetry::Ends(name()));
                }
                if ends.is_some() || moves.is_empty() {
                    break;
                }
                let pick = (splitmix(&mut seed) % moves.len() as u64) as usize;
                pos = rules.play(&pos, &moves[pick]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> std::sync::Arc<Rules> {
        crate::variant::Variant::load(name).unwrap().rules
    }

    #[test]
    fn a_mirror_image_turned_again_is_the_position() {
        let r = rules("international");
        let m = Mirror::of(r.as_ref()).unwrap();
        let fen = |s| crate::notation::parse_fen(&r, s).unwrap();
        let pos = fen("W:W32,34-38,K40:B1-12,16,K19,24");
        let once = m.turn(&pos).unwrap();
        // Square n turns onto square 51 - n, each piece changing colour.
        assert!(once.same_placement(&fen("B:W27,K32,35,39-50:BK11,13-17,19")));
        assert!(m.turn(&once).unwrap().same_placement(&pos));
        assert!(!once.same_placement(&pos));
    }

    #[test]
    fn sides_alike_and_not() {
        // Frisian's kings' runs of quiet moves turn with them.
        for name in [
            "international",
            "english",
            "russian",
            "frisian",
            "turkish",
            "dameo",
        ] {
            assert!(Mirror::of(rules(name).as_ref()).is_ok(), "{name}");
        }
        assert_eq!(
            Mirror::of(rules("bashni").as_ref()).unwrap_err(),
            Asymmetry::Special
        );
        let english = crate::variants::bundled("english").unwrap();
        let lopsided = english.replace("man 21..32", "man 21..32; black man 1..11");
        let v = crate::variant::Variant::from_source("l.rules", "l", &lopsided, None).unwrap();
        assert_eq!(Mirror::of(&v.rules).unwrap_err(), Asymmetry::Start);
    }
}
