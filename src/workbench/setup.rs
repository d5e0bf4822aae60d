//! Position set-up: pieces put and taken off, the side to move chosen, the board cleared, the
//! pieces in hand counted and a single combat marked declared. The REPL reads its edits from words
//! (`put W d4`), the web from clicks; both apply them here.

use crate::engine::{Position, Rules, Sq};

/// The bit of a position's turn that marks a declared single combat.
const COMBAT: u8 = Position::<crate::engine::geometry::Bits>::COMBAT;

/// One change to a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A piece of `side` and `kind` on a square (whatever stood there goes).
    Put { sq: Sq, side: usize, kind: usize },
    /// The square emptied.
    Clear(Sq),
    /// Every square emptied.
    ClearAll,
    /// The side to move (a declared combat stays declared).
    Turn(usize),
    /// The pieces of `side` and `kind` in hand (a variant with pieces in hand).
    Hand {
        side: usize,
        kind: usize,
        count: u32,
    },
    /// A single combat declared, or not (a variant with `… may declare single combat`, in a
    /// position of two lone pieces it allows).
    Combat(bool),
}

/// The most pieces of one kind a side may hold in hand (as `N in hand` allows).
pub const MAX_IN_HAND: u32 = 200;

/// An edit that does not fit the rules' board or pieces.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum SetupError {
    #[error("square index {0} is not a playable square of this board")]
    #[diagnostic(code(setup::square), help("pieces stand on the playable squares only"))]
    NotPlayable(Sq),
    #[error("there is no piece of side {side} and kind {kind}")]
    #[diagnostic(
        code(setup::piece),
        help("the sides are 0 and 1; the kinds are the rules' pieces, from 0")
    )]
    NoSuchPiece { side: usize, kind: usize },
    #[error("side {0} does not exist")]
    #[diagnostic(code(setup::side), help("0 is the first side, 1 the second"))]
    NoSuchSide(usize),
    #[error("this variant has no pieces in hand")]
    #[diagnostic(
        code(setup::hand),
        help("pieces in hand belong to variants whose setup puts some in hand (`N in hand`)")
    )]
    NoHands,
    #[error("{0} pieces of one kind in hand is more than the {MAX_IN_HAND} a side may hold")]
    #[diagnostic(code(setup::hand_count), help("give a count from 0 to 200"))]
    HandCount(u32),
    #[error("this variant has no single combat")]
    #[diagnostic(
        code(setup::combat),
        help(
            "a combat is declared in variants whose `game:` section says `lone pieces of equal \
             rank may declare single combat`"
        )
    )]
    NoCombat,
    #[error("no single combat can be declared in this position")]
    #[diagnostic(
        code(setup::combat_here),
        help(
            "a combat is fought by two lone pieces, one a side, of the ranks the rules allow; \
             leave one piece each on the board first"
        )
    )]
    CombatNotHere,
}

/// `pos` with the edits applied in order, each checked against the rules. The result is a
/// set-up position: a game starts from it afresh (no run of moves or move count carried over).
pub fn apply(rules: &Rules, pos: &Position, edits: &[Edit]) -> Result<Position, SetupError> {
    let mut pos = *pos;
    let mut combat_asked = false;
    let square = |sq: Sq| {
        if u32::from(sq) < rules.geo.size() && rules.geo.is_playable(sq) {
            Ok(sq)
        } else {
            Err(SetupError::NotPlayable(sq))
        }
    };
    for edit in edits {
        match *edit {
            Edit::Put { sq, side, kind } => {
                let sq = square(sq)?;
                if side > 1 || kind >= rules.spec.pieces.len() {
                    return Err(SetupError::NoSuchPiece { side, kind });
                }
                pos.clear(sq);
                pos.put(sq, side, kind);
            }
            Edit::Clear(sq) => pos.clear(square(sq)?),
            // The squares emptied; the hands stay.
            Edit::ClearAll => {
                pos = Position {
                    hand: pos.hand,
                    ..Position::empty(pos.turn())
                }
            }
            Edit::Turn(side) => {
                if side > 1 {
                    return Err(SetupError::NoSuchSide(side));
                }
                pos.turn = side as u8 | (pos.turn & COMBAT);
            }
            Edit::Hand { side, kind, count } => {
                if !rules.drops.active {
                    return Err(SetupError::NoHands);
                }
                if side > 1 || kind >= rules.spec.pieces.len() {
                    return Err(SetupError::NoSuchPiece { side, kind });
                }
                pos.hand[side][kind] = u8::try_from(count)
                    .ok()
                    .filter(|&n| u32::from(n) <= MAX_IN_HAND)
                    .ok_or(SetupError::HandCount(count))?;
            }
            Edit::Combat(on) => {
                if on && rules.combat.is_none() {
                    return Err(SetupError::NoCombat);
                }
                combat_asked = on;
                pos.turn = pos.turn() as u8 | if on { COMBAT } else { 0 };
            }
        }
    }
    // A combat stays declared only while the position allows one: asked for, it must; carried
    // over from before the edits, it goes when they leave more than two lone pieces.
    if pos.in_combat() {
        let mut open = pos;
        open.turn = pos.turn() as u8;
        if !rules.may_declare(&open) {
            if combat_asked {
                return Err(SetupError::CombatNotHere);
            }
            pos = open;
        }
    }
    pos.runs = Default::default();
    pos.counters = Default::default();
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn edits_apply_in_order_and_are_checked() {
        let v = Variant::load("international").unwrap();
        let rules = &v.rules;
        let sq = rules.geo.numbered[27];
        let pos = apply(
            rules,
            &rules.start,
            &[
                Edit::ClearAll,
                Edit::Put {
                    sq,
                    side: 1,
                    kind: 1,
                },
                Edit::Turn(1),
            ],
        )
        .unwrap();
        assert_eq!(pos.at(sq), Some((1, 1)));
        assert_eq!(pos.turn(), 1);
        let pieces = rules
            .geo
            .numbered
            .iter()
            .filter(|&&s| pos.at(s).is_some())
            .count();
        assert_eq!(pieces, 1, "the board was cleared first");
        let off = (0..rules.geo.size() as Sq)
            .find(|&s| !rules.geo.is_playable(s))
            .unwrap();
        assert_eq!(
            apply(rules, &pos, &[Edit::Clear(off)]),
            Err(SetupError::NotPlayable(off))
        );
        assert_eq!(
            apply(
                rules,
                &pos,
                &[Edit::Put {
                    sq,
                    side: 2,
                    kind: 0
                }]
            ),
            Err(SetupError::NoSuchPiece { side: 2, kind: 0 })
        );
        assert_eq!(
            apply(rules, &pos, &[Edit::Turn(3)]),
            Err(SetupError::NoSuchSide(3))
        );
    }

    #[test]
    fn hands_and_a_declared_combat_are_set_and_checked() {
        use crate::notation::{parse_fen, to_fen};
        let v = Variant::load("mraha-wa-bwe").unwrap();
        let rules = &v.rules;
        let hand = |side, count| Edit::Hand {
            side,
            kind: 0,
            count,
        };
        let pos = apply(rules, &rules.start, &[hand(0, 3), Edit::ClearAll]).unwrap();
        assert_eq!(
            to_fen(rules, &pos),
            "W:W:B:[W3,B12]",
            "clearing keeps the hands"
        );
        assert_eq!(
            apply(rules, &pos, &[hand(1, 201)]),
            Err(SetupError::HandCount(201))
        );
        assert_eq!(
            apply(rules, &pos, &[Edit::Combat(true)]),
            Err(SetupError::NoCombat)
        );
        let intl = Variant::load("international").unwrap();
        assert_eq!(
            apply(&intl.rules, &intl.rules.start, &[hand(0, 1)]),
            Err(SetupError::NoHands)
        );

        let v = Variant::load("dablot-prejjesne").unwrap();
        let rules = &v.rules;
        let lone = parse_fen(rules, "W:Wc3:Bg9").unwrap();
        let pos = apply(rules, &lone, &[Edit::Combat(true), Edit::Turn(1)]).unwrap();
        assert_eq!(
            to_fen(rules, &pos),
            "B:Wc3:Bg9:combat",
            "a turn keeps the combat"
        );
        let sq = |n: &str| rules.geo.parse(n).unwrap();
        let moved = apply(rules, &pos, &[Edit::Clear(sq("c3")), put(sq("d4"))]).unwrap();
        assert_eq!(to_fen(rules, &moved), "B:Wd4:Bg9:combat");
        let more = apply(rules, &pos, &[put(sq("a1"))]).unwrap();
        assert_eq!(
            to_fen(rules, &more),
            "B:Wa1,c3:Bg9",
            "a third piece ends it"
        );
        assert_eq!(
            apply(rules, &rules.start, &[Edit::Combat(true)]),
            Err(SetupError::CombatNotHere)
        );
        let off = apply(rules, &pos, &[Edit::Combat(false)]).unwrap();
        assert_eq!(to_fen(rules, &off), "B:Wc3:Bg9");
    }

    fn put(sq: Sq) -> Edit {
        Edit::Put {
            sq,
            side: 0,
            kind: 0,
        }
    }
}
