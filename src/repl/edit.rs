//! The workbench's position editing (`put`, `clear`, `turn`): a child of the session module.
//! The words become [`Edit`]s applied by the workbench's one set-up ([`workbench::apply`]); each
//! edit starts the game from the edited position; `undo` at its start goes back.

use super::{fail, Outcome, Session};
use crate::engine::{Position, Sq};
use crate::notation::to_fen;
use crate::workbench::{self, Edit};
use crate::Game;
use miette::Report;

impl Session {
    /// Start the game from an edited position.
    pub(super) fn set_position(&mut self, pos: Position, what: &str) {
        // A run of edits (put, put, clear…) is undone one by one.
        self.save(what);
        self.set_game(Game::from_position(self.game.rules.clone(), pos));
        self.changed = true;
    }

    /// The side a word names: its letter (`W`) or its name (`white`), in any case.
    pub(super) fn side_of(&self, word: &str) -> Option<usize> {
        let spec = &self.game.rules.spec;
        if let Some(s) = (0..2).find(|&s| spec.sides[s].name.eq_ignore_ascii_case(word)) {
            return Some(s);
        }
        let mut chars = word.chars();
        let c = chars.next()?.to_ascii_uppercase();
        if chars.next().is_some() {
            return None;
        }
        (0..2).find(|&s| self.game.rules.side_letter(s).to_ascii_uppercase() == c)
    }

    pub(super) fn square(&self, word: &str, cmd: &str) -> Result<Sq, Report> {
        let geo = &self.game.rules.geo;
        let last = geo.numbered.len();
        match geo.parse(word) {
            Some(sq) => Ok(sq),
            // A number past the board's last square names no square at all.
            None if geo.notation == crate::spec::Notation::Numbered
                && word.bytes().all(|b| b.is_ascii_digit())
                && word.parse::<usize>().map_or(true, |n| n == 0 || n > last) =>
            {
                Err(fail(
                    format!("square `{word}` does not exist on this board"),
                    &format!(
                        "the squares are numbered 1 to {last}, e.g. `{cmd} {}`",
                        last / 2
                    ),
                ))
            }
            None if geo.names_square(word) => Err(fail(
                format!("`{word}` is not a playable square on this board"),
                "pieces stand on the playable squares only (`show` leaves the others blank)",
            )),
            None => Err(fail(
                format!("`{word}` is not a square"),
                &format!("e.g. `{cmd} d4`"),
            )),
        }
    }

    pub(super) fn put(&mut self, arg: &str) -> Outcome {
        let rules = self.game.rules.clone();
        let mut words: Vec<&str> = arg.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let letters: Vec<String> = rules
            .spec
            .pieces
            .iter()
            .map(|p| format!("`{}` {}", p.letter, p.name))
            .collect();
        // Examples in the variant's own letters and squares.
        let geo = &rules.geo;
        let example =
            |i: usize| geo.name(geo.numbered[(geo.numbered.len() / 2 + i) % geo.numbered.len()]);
        let other = rules.piece_letter(rules.kinds.min(2) - 1);
        let usage = format!(
            "e.g. `put {other}{} {}` or `put {} {}`; piece letters: {}; sides: `{}` or `{}` (the first \
             side by default), or their names",
            example(0),
            example(1),
            rules.spec.sides[1].name,
            example(2),
            letters.join(", "),
            rules.side_letter(0),
            rules.side_letter(1)
        );
        let mut side = 0;
        if let Some(s) = words.first().and_then(|w| self.side_of(w)) {
            side = s;
            words.remove(0);
        }
        if words.is_empty() {
            return Err(fail("`put` needs a square".into(), &usage));
        }
        let mut edits = Vec::new();
        let mut placed = Vec::new();
        // A piece letter alone (`put K d4`) names the kind of the square after it.
        let mut pending: Option<usize> = None;
        for w in words {
            let letter_alone = {
                let mut chars = w.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_uppercase() => rules
                        .spec
                        .pieces
                        .iter()
                        .position(|p| p.letter.eq_ignore_ascii_case(&c)),
                    _ => None,
                }
            };
            if let Some(k) = letter_alone {
                pending = Some(k);
                continue;
            }
            let (kind, sq_text) = match rules.geo.parse(w) {
                Some(_) => (pending.take().unwrap_or(0), w),
                None => {
                    let mut chars = w.chars();
                    let first = chars.next().unwrap_or(' ');
                    match rules
                        .spec
                        .pieces
                        .iter()
                        .position(|p| p.letter.eq_ignore_ascii_case(&first))
                    {
                        Some(k) if first.is_ascii_uppercase() => (k, chars.as_str()),
                        _ if rules.geo.names_square(w) || w.bytes().all(|b| b.is_ascii_digit()) => {
                            (0, w)
                        }
                        _ => return Err(fail(format!("`{w}` is not a piece on a square"), &usage)),
                    }
                }
            };
            let sq = self.square(sq_text, "put")?;
            edits.push(Edit::Put { sq, side, kind });
            placed.push(format!(
                "{} {} on {}",
                rules.spec.sides[side].name,
                rules.spec.pieces[kind].name,
                rules.geo.name(sq)
            ));
        }
        if let Some(k) = pending {
            return Err(fail(
                format!(
                    "`{}` needs a square after it",
                    rules.piece_letter(k).to_ascii_uppercase()
                ),
                &usage,
            ));
        }
        let pos = workbench::apply(&rules, self.game.position(), &edits).map_err(Report::new)?;
        self.set_position(pos, "put");
        Ok(format!(
            "put {}\n{}\n",
            placed.join(", "),
            to_fen(&rules, &pos)
        ))
    }

    pub(super) fn clear(&mut self, arg: &str) -> Outcome {
        let rules = self.game.rules.clone();
        let words: Vec<&str> = arg.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return Err(fail(
                "`clear` needs a square, or `all`".into(),
                "e.g. `clear d4 e5`, or `clear all` for an empty board",
            ));
        }
        let mut edits = Vec::new();
        if words == ["all"] {
            edits.push(Edit::ClearAll);
        } else {
            for w in words {
                edits.push(Edit::Clear(self.square(w, "clear")?));
            }
        }
        let pos = workbench::apply(&rules, self.game.position(), &edits).map_err(Report::new)?;
        self.set_position(pos, "clear");
        Ok(format!("{}\n", to_fen(&rules, &pos)))
    }

    pub(super) fn turn(&mut self, arg: &str) -> Outcome {
        let rules = self.game.rules.clone();
        let spec = &rules.spec;
        if arg.is_empty() {
            return Ok(format!(
                "{} to move\n",
                spec.sides[self.game.position().turn()].name
            ));
        }
        let side = self.side_of(arg).ok_or_else(|| {
            fail(
                format!("`{arg}` is not a side"),
                &format!(
                    "the sides are `{}` ({}) and `{}` ({})",
                    rules.side_letter(0),
                    spec.sides[0].name,
                    rules.side_letter(1),
                    spec.sides[1].name
                ),
            )
        })?;
        let pos = workbench::apply(&rules, self.game.position(), &[Edit::Turn(side)])
            .map_err(Report::new)?;
        self.set_position(pos, "turn");
        Ok(format!("{} to move\n", spec.sides[side].name))
    }
}
