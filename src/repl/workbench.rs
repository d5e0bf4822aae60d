//! Workbench commands added for players (issue 12): `diagram FILE` writes the position as an SVG
//! board, `set` changes how the board is drawn.

use super::Session;
use crate::diagram::{self, Marks};
use miette::Report;

fn fail(message: String, help: &str) -> Report {
    miette::miette!(help = help.to_string(), "{message}")
}

impl Session {
    /// `diagram FILE`: the current position, the last move marked, as an SVG file.
    pub(super) fn diagram(&self, arg: &str) -> Result<String, Report> {
        if arg.is_empty() {
            return Err(fail(
                "`diagram` needs a file name".into(),
                "e.g. `diagram position.svg`",
            ));
        }
        let game = &self.game;
        let mut before = game.clone();
        before.undo();
        let marks = Marks {
            last: game.last_move().map(|m| (before.position(), m)),
            flipped: self.style.flipped,
        };
        let svg = diagram::svg(&game.rules, game.position(), marks);
        crate::fsio::write_file(std::path::Path::new(arg), svg.as_bytes()).map_err(Report::new)?;
        Ok(format!("wrote {arg}\n"))
    }

    /// `set`: the settings; `set NAME on|off` changes one.
    pub(super) fn set(&mut self, arg: &str) -> Result<String, Report> {
        let onoff = |b: bool| if b { "on" } else { "off" };
        let words: Vec<&str> = arg.split_whitespace().collect();
        let usage = "`set ascii on` draws the board with letters only, `set color off` without \
                     colour, `set eval FILE` makes the engine use a learned evaluation (`derived`, \
                     `bundled`, `default` or a weights file); `set` alone lists the settings";
        match words[..] {
            ["eval", value] => {
                let what = self.engine.set_eval(value, &self.game.rules)?;
                Ok(format!("the engine evaluates with: {what}\n"))
            }
            [] => Ok(format!(
                "ascii {}  (letters instead of piece symbols)\ncolor {}  (coloured board)\n",
                onoff(!self.style.unicode),
                onoff(self.style.color)
            )),
            [name, value] => {
                let on = match value {
                    "on" | "yes" | "true" => true,
                    "off" | "no" | "false" => false,
                    _ => return Err(fail(format!("`{value}` is not `on` or `off`"), usage)),
                };
                match name {
                    "ascii" | "letters" => self.style.unicode = !on,
                    "color" | "colour" => self.style.color = on,
                    _ => return Err(fail(format!("no setting `{name}`"), usage)),
                }
                Ok(format!("{name} {}\n{}", onoff(on), self.board()))
            }
            _ => Err(fail(format!("`set {arg}` is not a setting"), usage)),
        }
    }
}
