//! The workbench's engine commands (`go`, `hint`, `engine`): a child of the session module.

use super::{fail, Outcome, Session};
use crate::notation::move_to_string;
use crate::repl::engine_state::parse_limits;
use std::io::Write;

impl Session {
    /// Search; each depth's line is printed as it comes on a terminal, else returned with the rest.
    fn think(
        &mut self,
        arg: &str,
        cmd: &str,
    ) -> Result<(Option<crate::Move>, String), miette::Report> {
        let limits = parse_limits(arg, cmd)?;
        let live = self.show_after_change;
        let mut out = String::new();
        let best = self.engine.think(&self.game, limits, &mut |l| {
            if live {
                println!("{l}");
                std::io::stdout().flush().ok();
            } else {
                out.push_str(&l);
                out.push('\n');
            }
        })?;
        Ok((best, out))
    }

    /// `hint`: the best move, not played.
    pub(super) fn hint(&mut self, arg: &str) -> Outcome {
        self.think(arg, "hint").map(|(_, out)| out)
    }

    /// `go`: the computer plays the side to move.
    pub(super) fn go(&mut self, arg: &str) -> Outcome {
        let (best, mut out) = self.think(arg, "go")?;
        if let Some(mv) = best {
            out.push_str(&self.play_engine_move(mv));
        }
        Ok(out)
    }

    fn play_engine_move(&mut self, mv: crate::Move) -> String {
        let ply = self.game.moves().len();
        let mut out = format!(
            "{}{}\n",
            self.move_number(ply),
            move_to_string(&self.game.rules, &mv)
        );
        self.game.play(mv);
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
        match self.think("", "go") {
            Ok((Some(mv), out)) => out + &self.play_engine_move(mv),
            Ok((None, out)) => out,
            Err(e) => self.render_report(&e),
        }
    }

    /// `engine SIDE|off`.
    pub(super) fn engine_cmd(&mut self, arg: &str) -> Outcome {
        let spec = self.game.rules.spec.clone();
        if arg == "off" {
            self.engine.side = None;
            return Ok("engine off: you play both sides\n".into());
        }
        let side = (0..2).find(|&s| {
            spec.sides[s].name.eq_ignore_ascii_case(arg)
                || arg.len() == 1 && arg.eq_ignore_ascii_case(&spec.sides[s].letter.to_string())
        });
        let Some(side) = side else {
            return Err(fail(
                format!("`{arg}` is not a side"),
                &format!(
                    "type `engine {}`, `engine {}` or `engine off`",
                    spec.sides[0].name, spec.sides[1].name
                ),
            ));
        };
        self.engine.side = Some(side);
        let mut out = format!("the engine plays {}\n", spec.sides[side].name);
        out.push_str(&self.engine_answer());
        Ok(out)
    }
}
