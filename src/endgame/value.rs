//! A table entry: won, lost or drawn for the side to move, with the distance in plies.

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Neither side can force a win: the position is never resolved (or the rules call it a draw).
    Draw,
    /// A placement the rules never produce (a man standing where it would have been promoted).
    Illegal,
    /// The side to move wins in this many plies (single moves of either side).
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
}

/// The stored form: 0 draw (or not yet resolved), 1 illegal, then `2 + 2d` loss in d, `3 + 2d` win
/// in d.
pub type Packed = u16;

pub const DRAW: Packed = 0;
pub const ILLEGAL: Packed = 1;
/// The longest distance a table can store.
pub const MAX_DISTANCE: u16 = (u16::MAX - 3) / 2;

#[inline(always)]
pub const fn win(d: u16) -> Packed {
    3 + 2 * d
}

#[inline(always)]
pub const fn loss(d: u16) -> Packed {
    2 + 2 * d
}

impl Value {
    #[inline(always)]
    pub fn unpack(v: Packed) -> Value {
        match v {
            DRAW => Value::Draw,
            ILLEGAL => Value::Illegal,
            v if v % 2 == 0 => Value::Loss((v - 2) / 2),
            v => Value::Win((v - 3) / 2),
        }
    }

    pub fn pack(self) -> Packed {
        match self {
            Value::Draw => DRAW,
            Value::Illegal => ILLEGAL,
            Value::Win(d) => win(d),
            Value::Loss(d) => loss(d),
        }
    }

    /// `win in 17`, `loss in 4`, `draw`.
    pub fn describe(self) -> String {
        match self {
            Value::Draw => "draw".into(),
            Value::Illegal => "not a legal position".into(),
            Value::Win(0) => "won (the rules award it already)".into(),
            Value::Loss(0) => "lost (the game is over)".into(),
            Value::Win(d) => format!("win in {d}"),
            Value::Loss(d) => format!("loss in {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for v in [
            Value::Draw,
            Value::Illegal,
            Value::Win(0),
            Value::Win(17),
            Value::Loss(0),
            Value::Loss(4),
            Value::Win(MAX_DISTANCE),
        ] {
            assert_eq!(Value::unpack(v.pack()), v);
        }
    }
}
