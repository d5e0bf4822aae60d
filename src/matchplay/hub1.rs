//! An external engine speaking the first Hub protocol (Scan 2.x), driven by a match. It is told
//! apart from a Hub-2 engine by its answer to `hub`: `name …` (and `author`, `country`) lines
//! before `wait`, where a Hub-2 engine says `id …`. The process, its lines and its deadlines are
//! those of [`super::external::Hub`]; only the words differ:
//!
//! - settings: `set NAME VALUE` for each `option.NAME=VALUE`, then `init` … `ready`;
//! - per game `new`; per move `pos LETTERS` (the game's start, the side to move in lower case),
//!   `move M` for each move played since (so the engine sees the game's history), the limits
//!   (`time MS`, `depth N`, or `level 0 MS INC` on a clock), then `go` … `move M [PONDER]`;
//! - `info DEPTH MEAN-DEPTH SCORE NODES SECONDS MNPS PV…` lines on the way (score in hundredths);
//! - `error …` instead of a move: the engine will not move here, and loses the game.
//!
//! A move is `from-to`, or `fromxto` followed by `x` and the captured squares in any order. It is
//! matched against the legal moves by origin, destination and the set of captured squares; a text
//! that several different legal moves fit (a capture written without its captured squares, when
//! two captures lead from the one square to the other) is ambiguous and loses the game, as an
//! illegal move does.

use super::engine::{EngineSpec, Fault, Player, Reply, Turn};
use super::external::{Hub, DEPTH_MOVE};
use crate::engine::Move;
use crate::hub::protocol::{move_to_hub, position_to_hub, HubMove, Line, Refusal};
use crate::Rules;
use std::sync::Arc;
use std::time::Duration;

/// How long a Hub-1 engine may take to initialise (`init` … `ready`; Scan loads its bitbases).
const INIT: Duration = Duration::from_secs(60);

/// Why a Hub-1 engine's move text names no legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{text}` is not a move: `{part}` is not a square")]
    NotASquare { text: String, part: String },
    #[error("`{0}` is not a move: give `from-to` or `fromxto` and the captured squares")]
    NotAMove(String),
    #[error("`{0}` is not a legal move here")]
    NotLegal(String),
    #[error("`{text}` is ambiguous: it fits {count} different legal moves")]
    Ambiguous { text: String, count: usize },
}

/// Why a position cannot be said in the first Hub protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PositionError(String);

/// Whether the lines an engine answered `hub` with (up to `wait`) are the first protocol's: a
/// `name` line and no `id` line.
pub fn speaks_hub1(hello: &[Line]) -> bool {
    hello.iter().any(|l| l.command == "name") && !hello.iter().any(|l| l.command == "id")
}

/// A position in the first protocol: the side to move as `w` or `b`, then a letter per playable
/// square in numbering order (`w`/`b` men, `W`/`B` kings, `e` empty).
pub fn position_to_hub1(
    rules: &Rules,
    pos: &crate::engine::Position,
) -> Result<String, PositionError> {
    let text = position_to_hub(rules, pos).map_err(|e| PositionError(e.to_string()))?;
    let mut chars = text.chars();
    let turn = chars.next().map(|c| c.to_ascii_lowercase()).unwrap_or('w');
    Ok(std::iter::once(turn).chain(chars).collect())
}

/// The legal move a Hub-1 move text names: origin, destination and, when given, the set of
/// captured squares in any order (`-` and `x` both separate; `x` makes it a capture).
pub fn move_from_hub1(rules: &Rules, legal: &[Move], text: &str) -> Result<Move, MoveError> {
    let hub = HubMove::read(rules, text).map_err(|e| match e {
        Refusal::NotASquare { text, part } => MoveError::NotASquare { text, part },
        _ => MoveError::NotAMove(text.to_string()),
    })?;
    // Moves that differ only in their route (the same pieces taken) leave the same position:
    // one move for the protocol.
    let mut fits: Vec<Move> = Vec::new();
    for m in legal.iter().filter(|m| hub.names(m)) {
        let same = |f: &Move| f.captured == m.captured && f.kind_after == m.kind_after;
        if !fits.iter().any(same) {
            fits.push(*m);
        }
    }
    match fits.len() {
        0 => Err(MoveError::NotLegal(text.to_string())),
        1 => Ok(fits[0]),
        count => Err(MoveError::Ambiguous {
            text: text.to_string(),
            count,
        }),
    }
}

/// The words of a line as the engine wrote them (the first protocol has no `name=value`).
fn words(l: &Line) -> Vec<String> {
    l.args
        .iter()
        .map(|(n, v)| match v {
            Some(v) => format!("{n}={v}"),
            None => n.clone(),
        })
        .collect()
}

/// A running Hub-1 engine: the process of a [`Hub`] that answered `hub` in the first protocol.
pub struct Hub1 {
    hub: Hub,
    spec: EngineSpec,
    rules: Arc<Rules>,
}

impl Hub1 {
    /// Bring an engine that introduced itself in the first protocol to `ready`: its options as
    /// `set`, then `init`.
    pub fn start(mut hub: Hub, rules: &Arc<Rules>, spec: &EngineSpec) -> Result<Hub1, Fault> {
        for (n, v) in &spec.options {
            hub.send(&Line::new("set").flag(n).flag(v))?;
        }
        hub.send(&Line::new("init"))?;
        hub.until(INIT, None, |l| match l.command.as_str() {
            "error" => Err(Fault::Garbage(format!(
                "it refused to start: {}",
                words(l).join(" ")
            ))),
            c => Ok(c == "ready"),
        })?;
        Ok(Hub1 {
            hub,
            spec: spec.clone(),
            rules: rules.clone(),
        })
    }

    /// The limit lines of one move and how long to wait for its answer.
    fn limits(&self, turn: &Turn) -> (Vec<Line>, Duration) {
        let margin = Duration::from_secs_f64(self.spec.margin);
        let ms = |d: Duration| d.as_millis().to_string();
        let mut lines = Vec::new();
        let mut wait = DEPTH_MOVE + margin;
        if let Some((left, inc)) = turn.clock {
            lines.push(Line::new("level").flag("0").flag(&ms(left)).flag(&ms(inc)));
            wait = left + margin;
        } else if let Some(t) = self.spec.movetime {
            let t = Duration::from_secs_f64(t);
            lines.push(Line::new("time").flag(&ms(t)));
            wait = t + margin;
        }
        if let Some(d) = self.spec.depth {
            lines.push(Line::new("depth").flag(&d.to_string()));
        }
        (lines, wait)
    }
}

impl Player for Hub1 {
    fn new_game(&mut self) -> Result<(), Fault> {
        self.hub.send(&Line::new("new"))
    }

    fn play(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let rules = self.rules.clone();
        let game = turn.game;
        let start = position_to_hub1(&rules, game.start()).map_err(|e| Fault::Garbage(e.0))?;
        // `pos` also resets the engine's limits: they come after the position and its moves.
        self.hub.send(&Line::new("pos").flag(&start))?;
        for m in game.moves() {
            self.hub
                .send(&Line::new("move").flag(&move_to_hub(&rules, m)))?;
        }
        let (limits, wait) = self.limits(turn);
        for l in &limits {
            self.hub.send(l)?;
        }
        self.hub.send(&Line::new("go"))?;
        let mut reply: Option<Reply> = None;
        let (mut score, mut depth, mut nodes) = (None, None, None);
        let legal = turn.legal;
        let result = self.hub.until(wait, Some(turn.abort), |l| {
            let w = words(l);
            match l.command.as_str() {
                // `info DEPTH MEAN-DEPTH SCORE NODES SECONDS MNPS PV…`
                "info" => {
                    depth = w.first().and_then(|d| d.parse().ok()).or(depth);
                    score = w
                        .get(2)
                        .and_then(|s| s.parse::<i32>().ok())
                        .map(|s| s.clamp(-1_000_000, 1_000_000))
                        .or(score);
                    nodes = w.get(3).and_then(|n| n.parse().ok()).or(nodes);
                    Ok(false)
                }
                "move" => {
                    let Some(text) = w.first() else {
                        return Err(Fault::Garbage("`move` names no move".into()));
                    };
                    let mv = move_from_hub1(&rules, legal, text)
                        .map_err(|e| Fault::Illegal(e.to_string()))?;
                    reply = Some(Reply {
                        mv,
                        score,
                        depth,
                        nodes,
                    });
                    Ok(true)
                }
                // The engine refused the position, a move of the game or the search.
                "error" => Err(Fault::Refused(w.join(" "))),
                _ => Ok(false),
            }
        });
        if let Err(Fault::Timeout(_)) = &result {
            let _ = self.hub.send(&Line::new("stop"));
        }
        result?;
        reply.ok_or_else(|| Fault::Garbage("no move".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::BitSet;
    use crate::engine::geometry::Bits;

    fn international() -> Arc<Rules> {
        crate::Variant::load("international").unwrap().rules
    }

    #[test]
    fn captured_squares_come_in_any_order() {
        let rules = international();
        // White's man on 32 takes 27, 18 and 9 ... a position where one capture exists.
        let pos = crate::notation::parse_fen(&rules, "W:W32:B27,17,8").unwrap();
        let mut legal = Vec::new();
        rules
            .try_generate(&pos, &mut legal, Default::default())
            .unwrap();
        assert_eq!(legal.len(), 1);
        let want = legal[0];
        for text in ["32x3x27x17x8", "32x3x8x17x27", "32x3x17x8x27", "32x3"] {
            assert_eq!(move_from_hub1(&rules, &legal, text), Ok(want), "{text}");
        }
        assert!(matches!(
            move_from_hub1(&rules, &legal, "32x3x27"),
            Err(MoveError::NotLegal(_))
        ));
        assert!(matches!(
            move_from_hub1(&rules, &legal, "32-3"),
            Err(MoveError::NotLegal(_))
        ));
        assert!(matches!(
            move_from_hub1(&rules, &legal, "32x99"),
            Err(MoveError::NotASquare { .. })
        ));
    }

    #[test]
    fn a_capture_without_its_squares_is_ambiguous_when_two_fit() {
        let rules = international();
        let pos = crate::notation::parse_fen(&rules, "W:W32:B27,17,8").unwrap();
        let mut legal = Vec::new();
        rules
            .try_generate(&pos, &mut legal, Default::default())
            .unwrap();
        // A second capture from 32 to 3 that takes other pieces (as a king's two routes could);
        // and a copy of the first by another route (the same pieces): one move, not two.
        let mut other = legal[0];
        other.captured = Bits::bit(rules.geo.parse("28").unwrap());
        let same = legal[0];
        let moves = [legal[0], same, other];
        assert_eq!(
            move_from_hub1(&rules, &moves, "32x3"),
            Err(MoveError::Ambiguous {
                text: "32x3".into(),
                count: 2
            })
        );
        assert_eq!(move_from_hub1(&rules, &moves, "32x3x8x27x17"), Ok(legal[0]));
        assert_eq!(move_from_hub1(&rules, &moves, "32x3x28"), Ok(other));
    }

    #[test]
    fn positions_name_the_side_in_lower_case_and_hellos_tell_the_protocols_apart() {
        let rules = international();
        let text = position_to_hub1(&rules, &rules.start).unwrap();
        assert_eq!(text.len(), 51);
        assert!(text.starts_with("wbbbb"), "{text}");
        let hello = |lines: &[&str]| -> Vec<Line> {
            lines
                .iter()
                .map(|l| Line::parse(l).unwrap().unwrap())
                .collect()
        };
        assert!(speaks_hub1(&hello(&[
            "Scan 2.0 by Fabien Letouzey",
            "name Scan 2.0",
            "author Fabien Letouzey",
            "wait"
        ])));
        assert!(!speaks_hub1(&hello(&[
            "id name=damelab version=1",
            "param name=hash",
            "wait"
        ])));
        assert!(!speaks_hub1(&hello(&["wait"])));
    }
}
