//! Readable serde forms for the spec's compact fields (`damelab compile --dump`): direction sets as
//! lists of compass names, squares as algebraic names, the setup as runs of one piece's squares.
//! Each form reads back to the same value.

use super::{Angle, AngleSet, Coord, ANGLE_NAMES};
use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

fn angle_name(a: Angle) -> &'static str {
    ANGLE_NAMES[(a % 8) as usize]
}

fn angle_of<E: Error>(name: &str) -> Result<Angle, E> {
    ANGLE_NAMES
        .iter()
        .position(|n| *n == name)
        .map(|i| i as Angle)
        .ok_or_else(|| E::custom(format!("`{name}` is not a direction")))
}

fn square_name((f, r): Coord) -> String {
    format!("{}{}", (b'a' + f) as char, r + 1)
}

fn square_of<E: Error>(name: &str) -> Result<Coord, E> {
    let bad = || E::custom(format!("`{name}` is not a square"));
    let mut chars = name.chars();
    let f = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .ok_or_else(bad)? as u8
        - b'a';
    let r: u8 = chars.as_str().parse().map_err(|_| bad())?;
    Ok((f, r.checked_sub(1).ok_or_else(bad)?))
}

/// An [`AngleSet`] as compass names, north first: `north-east, north-west`.
pub mod dirs {
    use super::*;

    pub fn serialize<S: Serializer>(set: &AngleSet, s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<&str> = (0..8)
            .filter(|a| set & (1 << a) != 0)
            .map(angle_name)
            .collect();
        names.join(", ").serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<AngleSet, D::Error> {
        let text = String::deserialize(d)?;
        let mut set = 0;
        for n in text.split([',', ' ']).filter(|n| !n.is_empty()) {
            set |= 1 << angle_of::<D::Error>(n)?;
        }
        Ok(set)
    }
}

/// One [`Angle`] as its compass name.
pub mod angle {
    use super::*;

    pub fn serialize<S: Serializer>(a: &Angle, s: S) -> Result<S::Ok, S::Error> {
        angle_name(*a).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Angle, D::Error> {
        angle_of(&String::deserialize(d)?)
    }
}

/// A list of squares as one string of algebraic names: `a1 c1 e1`.
pub mod squares {
    use super::*;

    pub fn serialize<S: Serializer>(list: &[Coord], s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<String> = list.iter().map(|&c| square_name(c)).collect();
        names.join(" ").serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Coord>, D::Error> {
        String::deserialize(d)?
            .split_whitespace()
            .map(square_of)
            .collect()
    }
}

/// The setup: per side, runs of `{piece: INDEX, squares: "a1 b1 …"}` in the setup's order.
pub mod setup {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Run {
        piece: u8,
        #[serde(with = "super::squares")]
        squares: Vec<Coord>,
    }

    type Setup = [Vec<(u8, Coord)>; 2];

    pub fn serialize<S: Serializer>(setup: &Setup, s: S) -> Result<S::Ok, S::Error> {
        let sides: Vec<Vec<Run>> = setup
            .iter()
            .map(|list| {
                let mut runs: Vec<Run> = Vec::new();
                for &(piece, c) in list {
                    match runs.last_mut() {
                        Some(r) if r.piece == piece => r.squares.push(c),
                        _ => runs.push(Run {
                            piece,
                            squares: vec![c],
                        }),
                    }
                }
                runs
            })
            .collect();
        sides.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Setup, D::Error> {
        let sides = <[Vec<Run>; 2]>::deserialize(d)?;
        Ok(sides.map(|runs| {
            runs.into_iter()
                .flat_map(|r| r.squares.into_iter().map(move |c| (r.piece, c)))
                .collect()
        }))
    }
}
