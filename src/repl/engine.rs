//! The workbench's engine commands (`go`, `hint`, `engine`): a child of the session module. Also
//! what the engine changes in other commands: `undo` takes back a full move when it plays a side.

use super::{emit, fail, Outcome, Session};
use crate::notation::move_to_string;
use crate::repl::engine_state::parse_limits;
use crate::search::Limits;
use std::time::Duration;

/// The most plies `engine both` plays before it hands the game back: a game that never ends (no
/// move-count rule, a fortress) stops there.
pub const MAX_WATCH_PLIES: usize = 300;
/// The time per move of `engine both` by default: watchable, not a 5-second wait a move.
const WATCH_SECONDS: f64 = 1.0;

impl Session {
    /// Search; each depth's line is printed as it comes on a terminal, else returned with the rest.
    fn think(
        &mut self,
        limits: Limits,
        lines: bool,
    ) -> Result<(Option<crate::Move>, String), miette::Report> {
        let live = self.show_after_change;
        let mut out = String::new();
        let best = self.engine.think(&self.game, limits, &mut |l| {
            // `engine both` shows only the final line of each search.
            if lines || l.starts_with("best ") {
                emit(live, &mut out, &format!("{l}\n"));
            }
        })?;
        Ok((best, out))
    }

    /// `hint`: the best move, not played.
    pub(super) fn hint(&mut self, arg: &str) -> Outcome {
        let limits = parse_limits(arg, "hint")?;
        self.think(limits, true).map(|(_, out)| out)
    }

    /// `go`: the computer plays the side to move, unless Ctrl-C stopped it.
    pub(super) fn go(&mut self, arg: &str) -> Outcome {
        let limits = parse_limits(arg, "go")?;
        let (best, mut out) = self.think(limits, true)?;
        out.push_str(&self.play_or_not(best));
        Ok(out)
    }

    /// Play the search's move, or say why not: a search stopped by Ctrl-C plays nothing.
    fn play_or_not(&mut self, best: Option<crate::Move>) -> String {
        match best {
            Some(_) if self.engine.interrupted => format!(
                "the move is not played: the search was interrupted ({} to move; `go` searches again)\n",
                self.game.rules.spec.sides[self.game.position().turn()].name
            ),
            Some(mv) => self.play_engine_move(mv),
            None => String::new(),
        }
    }

    fn play_engine_move(&mut self, mv: crate::Move) -> String {
        let ply = self.game.moves().len();
        let text = move_to_string(&self.game.rules, &mv);
        let mut out = format!("{}{text}\n", self.move_number(ply));
        if let Err(e) = self.play_keeping_line(mv) {
            self.failed += 1;
            out.push_str(&self.render_report(&e));
            return out;
        }
        self.changed = true;
        if self.game.result().is_some() {
            out.push_str(&format!("{}\n", self.game.describe_result()));
        }
        out
    }

    /// After a move of the user's: the engine answers when it plays the side to move.
    pub(super) fn engine_answer(&mut self) -> String {
        let Some(side) = self.engine.side else {
            return String::new();
        };
        if self.game.position().turn() != side || self.game.result().is_some() {
            return String::new();
        }
        let limits = match self.answer_limits {
            Some(l) => l,
            None => match parse_limits("", "go") {
                Ok(l) => l,
                Err(e) => return self.render_report(&e),
            },
        };
        match self.think(limits, true) {
            Ok((best, out)) => out + &self.play_or_not(best),
            Err(e) => self.render_report(&e),
        }
    }

    /// `undo N` while the engine plays a side: take back N of the user's moves and the engine's
    /// answers after them, so it is the user's turn again. When only the engine's first move is
    /// left to take back, the engine moves again rather than sit idle on its own turn.
    pub(super) fn undo_with_engine(&mut self, engine: usize, n: usize) -> Option<String> {
        let mut done = Vec::new();
        let mut users = 0;
        while users < n {
            let Some(mv) = self.step_back() else { break };
            done.push(mv);
            if self.game.position().turn() != engine {
                users += 1;
            }
        }
        if done.is_empty() {
            return None;
        }
        self.changed = true;
        let names: Vec<String> = done
            .iter()
            .map(|m| move_to_string(&self.game.rules, m))
            .collect();
        let mut out = format!("took back {}\n", names.join(" "));
        out.push_str(&self.engine_answer());
        Some(out)
    }

    /// `engine SIDE|both|off`.
    pub(super) fn engine_cmd(&mut self, arg: &str) -> Outcome {
        let spec = self.game.rules.spec.clone();
        let (word, rest) = match arg.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (arg, ""),
        };
        if word == "off" && rest.is_empty() {
            self.engine.side = None;
            return Ok("engine off: you play both sides\n".into());
        }
        if word == "both" {
            return self.watch(rest);
        }
        let side = (0..2).find(|&s| {
            spec.sides[s].name.eq_ignore_ascii_case(word)
                || word.len() == 1 && word.eq_ignore_ascii_case(&spec.sides[s].letter.to_string())
        });
        let Some(side) = side else {
            return Err(fail(
                format!("`{arg}` is not a side"),
                &format!(
                    "type `engine {}`, `engine {}`, `engine both` or `engine off`",
                    spec.sides[0].name, spec.sides[1].name
                ),
            ));
        };
        // `engine black depth 4`: the answers' limits (else those of `go`).
        self.answer_limits = if rest.is_empty() {
            None
        } else {
            Some(parse_limits(rest, &format!("engine {word}"))?)
        };
        self.engine.side = Some(side);
        let mut out = format!("the engine plays {}\n", spec.sides[side].name);
        out.push_str(&self.engine_answer());
        Ok(out)
    }

    /// `engine both [depth N | time S]`: the engine plays both sides, a move at a time on screen,
    /// until the game ends, Ctrl-C, or [`MAX_WATCH_PLIES`]; then the game is the user's again.
    fn watch(&mut self, arg: &str) -> Outcome {
        let limits = if arg.is_empty() {
            Limits {
                time: Some(Duration::from_secs_f64(WATCH_SECONDS)),
                ..parse_limits("", "engine both")?
            }
        } else {
            parse_limits(arg, "engine both")?
        };
        if self.game.result().is_some() {
            return Err(fail(
                format!("the game is over: {}", self.game.describe_result()),
                "`undo` a move or start a `new` game, then `engine both`",
            ));
        }
        let live = self.show_after_change;
        let mut out = String::new();
        self.engine.side = None;
        emit(
            live,
            &mut out,
            "the engine plays both sides (Ctrl-C stops it)\n",
        );
        let mut plies = 0;
        let why = loop {
            if self.game.result().is_some() {
                break String::new();
            }
            if plies == MAX_WATCH_PLIES {
                break format!("stopped after {MAX_WATCH_PLIES} plies, the most it plays\n");
            }
            let (best, text) = self.think(limits, false)?;
            out.push_str(&text);
            let Some(mv) = best else {
                break String::new();
            };
            if self.engine.interrupted {
                break "interrupted: the last search's move is not played\n".to_string();
            }
            let played = self.play_engine_move(mv);
            emit(live, &mut out, &played);
            if live {
                emit(live, &mut out, &self.board());
            }
            plies += 1;
        };
        out.push_str(&why);
        out.push_str(&format!(
            "you play both sides again ({})\n",
            self.game.describe_result()
        ));
        Ok(out)
    }
}
