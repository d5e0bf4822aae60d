//! Position set-up: pieces put and taken off, the side to move chosen, the board cleared. The
//! REPL reads its edits from words (`put W d4`), the web from clicks; both apply them here.

use crate::engine::{Position, Rules, Sq};

/// One change to a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A piece of `side` and `kind` on a square (whatever stood there goes).
    Put { sq: Sq, side: usize, kind: usize },
    /// The square emptied.
    Clear(Sq),
    /// Every square emptied.
    ClearAll,
    /// The side to move.
    Turn(usize),
}

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
}

/// `pos` with the edits applied in order, each checked against the rules. The result is a
/// set-up position: a game starts from it afresh (no run of moves or move count carried over).
pub fn apply(rules: &Rules, pos: &Position, edits: &[Edit]) -> Result<Position, SetupError> {
    let mut pos = *pos;
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
            Edit::ClearAll => pos = Position::empty(pos.turn()),
            Edit::Turn(side) => {
                if side > 1 {
                    return Err(SetupError::NoSuchSide(side));
                }
                pos.turn = side as u8;
            }
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
}
