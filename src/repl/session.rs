//! A workbench session: the loaded variant, the game on it, and the commands that act on them.
//! Every command returns the text to print; an error is a diagnostic and leaves the game as it was.

use super::commands::{self, Command};
use crate::engine::{GenOptions, Move, PerftError, PerftLimits};
use crate::notation::{move_to_string, parse_fen, to_fen, InputError};
use crate::render::{self, Style};
use crate::workbench::{self, Refusal, Tree};
use crate::{variants, Game, Variant};
use miette::{GraphicalReportHandler, GraphicalTheme, Report};

#[path = "edit.rs"]
mod edit_cmds;
#[path = "engine.rs"]
mod engine_cmds;

/// The deepest `perft` the workbench runs: beyond it a count takes hours in the bigger variants.
const MAX_PERFT: usize = crate::limits::MAX_CASE_PERFT_DEPTH;

/// A REPL session: the loaded variant and the game on it.
pub struct Session {
    pub variant: Variant,
    pub game: Game,
    /// Set by `quit`.
    pub quit: bool,
    /// How boards and diagnostics are drawn.
    pub style: Style,
    /// Draw the board after each command that changes the position (the interactive front end
    /// does; scripts ask with `show`).
    pub show_after_change: bool,
    /// The most nodes one `perft` or `divide` may count: bounded for scripts, which have no
    /// Ctrl-C; the interactive front end lifts it (Ctrl-C stops the count there).
    pub perft_nodes: u64,
    /// The game `open` read from a PDN file, for `save`.
    pub(crate) pdn: Option<super::pdn_commands::Opened>,
    /// Lines that failed so far (a diagnostic or an illegal move): scripts exit non-zero.
    pub failed: usize,
    /// Every line of the game, in the workbench's one model ([`Tree`]): its main line is
    /// `game`'s moves and those ahead of it, its current node where `game` stands, and the
    /// other lines are the ones played and left (a different move played where the game had
    /// more moves keeps the old ones: `save` writes them as PDN variations). Changed only
    /// together with `game` ([`Session::set_game`], `step_back`, `step_forward`,
    /// `play_keeping_line`).
    pub(crate) lines: Tree,
    /// Whole game states dropped by `new`, `load`, `fen`, `put`, `clear`, `turn` and `reload`,
    /// most recent last: `undo` at the start of a game goes back to them.
    saved: Vec<Saved>,
    pub(crate) changed: bool,
    /// The engine of `go`, `hint` and `engine SIDE`.
    pub engine: crate::repl::engine_state::EngineState,
    /// The limits of the engine's answers (`engine black depth 4`); `go`'s when none.
    pub(crate) answer_limits: Option<crate::search::Limits>,
}

type Outcome = Result<String, Report>;

/// A game state a command replaced, for `undo`: the variant, the game, its lines and what
/// `open` read, and the command's name.
struct Saved {
    variant: Variant,
    game: Game,
    lines: Tree,
    pdn: Option<super::pdn_commands::Opened>,
    what: String,
}

fn fail(message: String, help: &str) -> Report {
    miette::miette!(help = help.to_string(), "{message}")
}

fn input_error(e: Box<InputError>) -> Report {
    Report::new_boxed(e as Box<dyn miette::Diagnostic + Send + Sync>)
}

/// `explain` in the game's current position ([`workbench::explain_in_game`]).
fn explain(game: &Game, text: &str) -> Result<String, Report> {
    workbench::explain_in_game(game, text).map_err(Report::new)
}

/// Does a word look like a move or a square (`c3`, `c3-c4`, `32-28`, a huff `*33,28-32`, a drop
/// `@a1,b2` or `K@c3`) rather than a command?
fn looks_like_move(word: &str) -> bool {
    if word.starts_with('@') || word.get(1..2) == Some("@") {
        return true;
    }
    let b = word.strip_prefix('*').unwrap_or(word).as_bytes();
    match b {
        [d, ..] if d.is_ascii_digit() => true,
        [l, d, ..] => l.is_ascii_alphabetic() && d.is_ascii_digit(),
        _ => false,
    }
}

impl Session {
    pub fn new(variant: Variant) -> Session {
        let game = Game::new(variant.rules.clone());
        let lines = Tree::new(variant.rules.clone(), variant.rules.start);
        Session {
            variant,
            game,
            quit: false,
            style: Style::default(),
            show_after_change: false,
            perft_nodes: crate::limits::REPL_SCRIPT_PERFT_NODES,
            failed: 0,
            saved: Vec::new(),
            lines,
            changed: false,
            pdn: None,
            engine: Default::default(),
            answer_limits: None,
        }
    }

    /// Run one line; the text to print (results or a rendered diagnostic). Never panics on input;
    /// on an error the game is unchanged.
    pub fn execute(&mut self, line: &str) -> String {
        self.changed = false;
        crate::interrupt::reset();
        let mut out = match self.run_line(line.trim()) {
            Ok(s) => s,
            Err(report) => {
                self.failed += 1;
                self.render_report(&report)
            }
        };
        if self.changed && self.show_after_change {
            out.push_str(&self.board());
        }
        out
    }

    /// The board of the current position, last move marked.
    pub fn board(&self) -> String {
        render::board(
            &self.game.rules,
            self.game.position(),
            self.game.last_move(),
            self.style,
        )
    }

    /// The names of the legal moves of the current position, sorted (for completion and hints);
    /// none when the capture search runs past the route budget.
    pub fn legal_move_names(&self) -> Vec<String> {
        let rules = &self.game.rules;
        let mut names: Vec<String> = self
            .game
            .try_legal_moves()
            .unwrap_or_default()
            .iter()
            .map(|m| move_to_string(rules, m))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn render_report(&self, report: &Report) -> String {
        let theme = if self.style.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let mut out = String::new();
        let handler = GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .with_links(false);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out = format!("error: {report}\n");
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }

    fn run_line(&mut self, line: &str) -> Outcome {
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        if word.is_empty() || word.starts_with('#') {
            return Ok(String::new());
        }
        let Some(cmd) = commands::find(word) else {
            if looks_like_move(word) {
                return self.play_moves(line);
            }
            let help = match crate::util::closest(word, commands::all_words()) {
                Some(c) => format!("did you mean `{c}`? type `help` for the commands"),
                None => "type `help` for the commands, or a move such as `c3-c4`".into(),
            };
            return Err(fail(format!("unknown command `{word}`"), &help));
        };
        self.run_command(cmd, arg)
    }

    fn run_command(&mut self, cmd: &Command, arg: &str) -> Outcome {
        let no_arg = |_: &Session| -> Result<(), Report> {
            if arg.is_empty() {
                Ok(())
            } else {
                Err(fail(
                    format!("`{}` takes no argument, got `{arg}`", cmd.name),
                    &format!("type `{}` alone", cmd.name),
                ))
            }
        };
        match cmd.name {
            "help" => self.help(arg),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "variants" => {
                no_arg(self)?;
                Ok(self.variants())
            }
            "load" => self.load(arg),
            "reload" => {
                no_arg(self)?;
                self.reload()
            }
            "new" => {
                no_arg(self)?;
                self.save("new");
                self.set_game(Game::new(self.game.rules.clone()));
                self.changed = true;
                Ok(format!("new game: {}\n", self.game.describe_result()))
            }
            "show" => {
                no_arg(self)?;
                Ok(self.board())
            }
            "moves" => {
                no_arg(self)?;
                self.moves()
            }
            "undo" => self.undo_redo(arg, true),
            "redo" => self.undo_redo(arg, false),
            "history" => {
                no_arg(self)?;
                Ok(self.history())
            }
            "fen" => self.fen(arg),
            "put" => self.put(arg),
            "clear" => self.clear(arg),
            "turn" => self.turn(arg),
            "perft" => self.perft(arg, false),
            "divide" => self.perft(arg, true),
            "go" => self.go(arg),
            "hint" => self.hint(arg),
            "engine" => self.engine_cmd(arg),
            "explain" => {
                if arg.is_empty() {
                    return Err(fail(
                        "`explain` needs a move".into(),
                        "e.g. `explain c3xe5`",
                    ));
                }
                explain(&self.game, arg)
            }
            "rules" => {
                no_arg(self)?;
                Ok(crate::describe::describe(&self.game.rules))
            }
            "save" => super::pdn_commands::save(self, arg),
            "open" => super::pdn_commands::open(self, arg),
            "first" | "prev" | "next" | "last" | "goto" => {
                super::pdn_commands::navigate(self, cmd.name, arg)
            }
            "probe" => {
                no_arg(self)?;
                // It may build tables: the engine looks for them again before its next search.
                self.engine.reload_tables();
                crate::endgame::probe::probe(&self.variant, self.game.position())
            }
            "result" => {
                no_arg(self)?;
                Ok(format!("{}\n", self.game.describe_result()))
            }
            "diagram" => self.diagram(arg),
            "flip" => {
                no_arg(self)?;
                self.style.flipped = !self.style.flipped;
                let side = &self.game.rules.spec.sides[usize::from(self.style.flipped)].name;
                Ok(format!("the board as {side} sees it\n{}", self.board()))
            }
            "set" => self.set(arg),
            other => Err(fail(
                format!("command `{other}` is not implemented"),
                "type `help` for the commands",
            )),
        }
    }

    fn help(&self, arg: &str) -> Outcome {
        if arg.is_empty() {
            return Ok(commands::overview());
        }
        match commands::find(arg) {
            Some(c) => Ok(commands::details(c)),
            None => {
                let help = match crate::util::closest(arg, commands::all_words()) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => "type `help` for the list".into(),
                };
                Err(fail(format!("no command `{arg}`"), &help))
            }
        }
    }

    fn variants(&self) -> String {
        let mut out = String::new();
        for (name, text) in variants::BUNDLED {
            let title = Variant::from_source(name, name, text, None)
                .map(|v| v.rules.spec.title.clone())
                .unwrap_or_else(|_| "(does not load)".into());
            let mark = if self.variant.path.is_none() && self.variant.name() == *name {
                '*'
            } else {
                ' '
            };
            out.push_str(&format!("{mark} {name:<20} {title}\n"));
        }
        out
    }

    fn load(&mut self, arg: &str) -> Outcome {
        if arg.is_empty() {
            return Err(fail(
                "`load` needs a variant name or a rules file".into(),
                "e.g. `load turkish` or `load my-variant.rules`; `variants` lists the names",
            ));
        }
        let (v, warnings) = Variant::load_with_warnings(arg).map_err(Report::new)?;
        self.save("load");
        self.set_game(Game::new(v.rules.clone()));
        self.variant = v;
        self.changed = true;
        Ok(format!(
            "loaded {}: {}\n{}{}",
            self.variant.name(),
            self.variant.rules.spec.title,
            render::legend(&self.variant.rules, self.style),
            self.render_warnings(warnings)
        ))
    }

    /// The checker's warnings of a rules file that loads, drawn as `damelab check` draws them.
    fn render_warnings(&self, warnings: Option<crate::lang::RulesWarnings>) -> String {
        warnings.map_or_else(String::new, |w| self.render_report(&Report::new(w)))
    }

    fn reload(&mut self) -> Outcome {
        let Some(path) = self.variant.path.clone() else {
            return Ok(format!(
                "`{}` is bundled in damelab: there is no file to re-read (`load FILE` loads one)\n",
                self.variant.name()
            ));
        };
        let (v, warnings) = Variant::from_path_with_warnings(&path).map_err(Report::new)?;
        let warnings = self.render_warnings(warnings);
        let old = &self.game;
        let new_rules = v.rules.clone();
        let start = if *old.start() == old.rules.start {
            Ok(new_rules.start)
        } else {
            parse_fen(&new_rules, &to_fen(&old.rules, old.start())).map_err(|e| {
                format!(
                    "the start position does not fit the new rules: {}",
                    e.message
                )
            })
        };
        // Replay the game on the new rules as far as its moves stay legal.
        let replay = start.map(|s| {
            let mut game = Game::from_position(new_rules.clone(), s);
            for (i, mv) in old.moves().iter().enumerate() {
                let text = move_to_string(&old.rules, mv);
                let legal = match game.try_legal_moves() {
                    Ok(l) => l,
                    Err(e) => {
                        return (
                            game,
                            Some(format!("move {} (`{text}`) is not checked: {e}", i + 1)),
                        )
                    }
                };
                let Some(m) = legal
                    .iter()
                    .find(|m| move_to_string(&new_rules, m) == text && m.same_move(mv))
                else {
                    return (
                        game,
                        Some(format!("move {} (`{text}`) is no longer legal", i + 1)),
                    );
                };
                game.play(*m);
            }
            (game, None)
        });
        let title = v.rules.spec.title.clone();
        self.save("reload");
        self.variant = v;
        self.changed = true;
        let said = match replay {
            Ok((game, None)) => {
                let n = game.moves().len();
                self.set_game(game);
                format!("reloaded {title}: the game's {n} moves are still legal\n")
            }
            Ok((game, Some(why))) => {
                let n = game.moves().len();
                self.set_game(game);
                format!(
                    "reloaded {title}: {why}; the game keeps its first {n} move{} (`undo` brings the old game back)\n",
                    if n == 1 { "" } else { "s" }
                )
            }
            Err(why) => {
                self.set_game(Game::new(new_rules));
                format!("reloaded {title}: {why}; new game (`undo` brings the old game back)\n")
            }
        };
        Ok(said + &warnings)
    }

    /// The moves of a line, played in order up to the first that is not legal, which is named
    /// with how many were played before it.
    fn play_moves(&mut self, line: &str) -> Outcome {
        let mut trial = self.game.clone();
        let rules = self.game.rules.clone();
        let mut out = String::new();
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let mv = match workbench::read_move(&trial, word) {
                Ok(mv) => mv,
                Err(Refusal::NotChecked(e)) => {
                    // The moves before it are kept, as for an illegal move.
                    self.failed += 1;
                    out.push_str(&played_before(i, words.len(), word, "is not checked"));
                    out.push_str(&self.render_report(&Report::new(e)));
                    if i > 0 {
                        self.adopt(&trial, &mut out);
                    }
                    return Ok(out);
                }
                Err(Refusal::Illegal { error, why }) => {
                    self.failed += 1;
                    let what = if i + 1 < words.len() {
                        "is not legal and the moves after it were not tried"
                    } else {
                        "is not legal"
                    };
                    out.push_str(&played_before(i, words.len(), word, what));
                    // An illegal move gets the rule that forbids it, as `explain` would say.
                    out.push_str(&self.render_report(&input_error(error)));
                    if let Some(why) = why {
                        out.push_str(&format!("  why: {why}"));
                    }
                    if i > 0 {
                        self.adopt(&trial, &mut out);
                    }
                    return Ok(out);
                }
            };
            out.push_str(&format!(
                "{}{}\n",
                self.move_number(trial.moves().len()),
                move_to_string(&rules, &mv)
            ));
            trial.play(mv);
        }
        if trial.result().is_some() {
            out.push_str(&format!("{}\n", trial.describe_result()));
        }
        self.adopt(&trial, &mut out);
        // The user's moves show before the engine starts thinking on a terminal.
        if self.show_after_change {
            emit(true, &mut String::new(), &out);
            out.clear();
        }
        out.push_str(&self.engine_answer());
        Ok(out)
    }

    /// Play the moves `trial` added to the game on the game itself, so that a line left keeps its
    /// moves as a variation.
    fn adopt(&mut self, trial: &Game, out: &mut String) {
        for mv in &trial.moves()[self.game.moves().len()..] {
            match self.play_keeping_line(*mv) {
                Ok(note) => out.extend(note),
                Err(e) => {
                    self.failed += 1;
                    out.push_str(&self.render_report(&e));
                    break;
                }
            }
        }
        self.changed = true;
    }

    /// `1. ` or `1... ` for the ply with this index.
    fn move_number(&self, ply: usize) -> String {
        // Numbered from the side that moves first in the variant (Black in English draughts), as
        // PDN and `save` number them.
        let first = self.game.rules.spec.first_to_move as usize;
        let p = ply + usize::from(self.game.start().turn() != first);
        if p.is_multiple_of(2) {
            format!("{}. ", p / 2 + 1)
        } else {
            format!("{}... ", p / 2 + 1)
        }
    }

    fn moves(&self) -> Outcome {
        let rules = &self.game.rules;
        let legal = self.game.try_legal_moves().map_err(Report::new)?;
        if legal.is_empty() {
            return Ok(format!("no legal moves: {}\n", self.game.describe_result()));
        }
        let mut captures: Vec<(u32, String)> = legal
            .iter()
            .filter(|m| m.is_capture())
            .map(|m| (m.captures(), move_to_string(rules, m)))
            .collect();
        captures.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        captures.dedup();
        let mut quiet: Vec<String> = legal
            .iter()
            .filter(|m| !m.is_capture())
            .map(|m| move_to_string(rules, m))
            .collect();
        quiet.sort();
        quiet.dedup();
        let total = captures.len() + quiet.len();
        let mut out = format!("{total} legal move{}\n", if total == 1 { "" } else { "s" });
        let width = captures.iter().map(|c| c.1.len()).max().unwrap_or(0);
        for (n, name) in &captures {
            out.push_str(&format!("  {name:<width$}  takes {n}\n"));
        }
        for row in quiet.chunks(8) {
            out.push_str(&format!("  {}\n", row.join(" ")));
        }
        Ok(out)
    }

    fn count(arg: &str, what: &str) -> Result<usize, Report> {
        if arg.is_empty() {
            return Ok(1);
        }
        match arg.parse() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(fail(
                format!("`{arg}` is not a number of moves"),
                &format!("e.g. `{what} 2`"),
            )),
        }
    }

    fn undo_redo(&mut self, arg: &str, undo: bool) -> Outcome {
        let what = if undo { "undo" } else { "redo" };
        let n = Self::count(arg, what)?;
        let rules = self.game.rules.clone();
        if let (true, Some(engine)) = (undo, self.engine.side) {
            // With the engine playing a side, `undo` takes back a full move: the user's own.
            if let Some(out) = self.undo_with_engine(engine, n) {
                return Ok(out);
            }
        }
        let mut done: Vec<Move> = Vec::new();
        for _ in 0..n {
            let step = if undo {
                self.step_back()
            } else {
                self.step_forward()
            };
            match step {
                Some(m) => done.push(m),
                None => break,
            }
        }
        if done.is_empty() && undo {
            if let Some(old) = self.saved.pop() {
                let what = old.what;
                self.variant = old.variant;
                self.game = old.game;
                self.lines = old.lines;
                self.pdn = old.pdn;
                self.changed = true;
                return Ok(format!(
                    "undid `{what}`: back to the game before it ({} move{} on {})\n",
                    self.game.moves().len(),
                    if self.game.moves().len() == 1 {
                        ""
                    } else {
                        "s"
                    },
                    self.variant.rules.spec.title
                ));
            }
        }
        if done.is_empty() {
            let why = if undo {
                "nothing to undo: the game is at its start"
            } else {
                "nothing to redo"
            };
            return Err(fail(
                why.into(),
                if undo {
                    "`history` shows the moves played"
                } else {
                    "`redo` replays moves taken back by `undo`"
                },
            ));
        }
        self.changed = true;
        let names: Vec<String> = done.iter().map(|m| move_to_string(&rules, m)).collect();
        let mut out = format!(
            "{} {}",
            if undo { "took back" } else { "replayed" },
            names.join(" ")
        );
        if done.len() < n {
            out.push_str(&format!(" (only {} to {what})", done.len()));
        }
        out.push('\n');
        Ok(out)
    }

    fn history(&self) -> String {
        let rules = &self.game.rules;
        let mut out = String::new();
        if *self.game.start() != rules.start {
            out.push_str(&format!("from {}\n", to_fen(rules, self.game.start())));
        }
        let moves = self.game.moves();
        if moves.is_empty() {
            out.push_str("no moves yet\n");
            return out;
        }
        let mut line = String::new();
        let first = rules.spec.first_to_move as usize;
        for (i, m) in moves.iter().enumerate() {
            let p = i + usize::from(self.game.start().turn() != first);
            if p.is_multiple_of(2) || i == 0 {
                if !line.is_empty() {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line.clear();
                }
                line.push_str(&self.move_number(i));
            }
            line.push_str(&move_to_string(rules, m));
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
        out
    }

    fn fen(&mut self, arg: &str) -> Outcome {
        let rules = self.game.rules.clone();
        if arg.is_empty() {
            return Ok(format!("{}\n", to_fen(&rules, self.game.position())));
        }
        let pos = parse_fen(&rules, arg).map_err(input_error)?;
        self.set_position(pos, "fen");
        Ok(format!("{}\n", to_fen(&rules, &pos)))
    }

    /// Start `game` (a new one, or one replayed on reloaded rules) with no other line.
    pub(crate) fn set_game(&mut self, game: Game) {
        // A game of one line longer than a tree holds cannot come from a session, whose trees
        // hold every move it played; should one, it starts at its start position.
        self.lines = Tree::of_game(&game, &[])
            .unwrap_or_else(|| Tree::new(game.rules.clone(), *game.start()));
        self.game = game;
    }

    /// Take back the last move: the game and its lines step back together.
    pub(crate) fn step_back(&mut self) -> Option<Move> {
        let mv = self.game.undo()?;
        self.lines.undo();
        Some(mv)
    }

    /// Replay the next move of the line: the game and its lines step forward together.
    pub(crate) fn step_forward(&mut self) -> Option<Move> {
        let mv = self.game.redo()?;
        self.lines.forward();
        Some(mv)
    }

    /// Keep the whole game state, so `undo` can come back to it after `what` replaces it.
    pub(crate) fn save(&mut self, what: &str) {
        // A long session of edits keeps the last hundred states.
        if self.saved.len() >= 100 {
            self.saved.remove(0);
        }
        // The game replaced takes its lines and PDN record along: the new one has none.
        self.saved.push(Saved {
            variant: self.variant.clone(),
            game: self.game.clone(),
            lines: self.lines.clone(),
            pdn: self.pdn.take(),
            what: what.to_string(),
        });
    }

    fn perft(&mut self, arg: &str, divide: bool) -> Outcome {
        let what = if divide { "divide" } else { "perft" };
        let depth: usize = arg.parse().map_err(|_| {
            fail(
                format!("`{arg}` is not a depth"),
                &format!("give a depth from 1 to {MAX_PERFT}, e.g. `{what} 3`"),
            )
        })?;
        if depth == 0 || depth > MAX_PERFT {
            return Err(fail(
                format!("depth {depth} is out of range"),
                &format!("give a depth from 1 to {MAX_PERFT}"),
            ));
        }
        let rules = &self.game.rules;
        let pos = self.game.position();
        let opts = GenOptions::default();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let limits = PerftLimits {
            max_nodes: self.perft_nodes,
            ..PerftLimits::default()
        };
        let live = self.show_after_change;
        let mut out = String::new();
        if divide {
            // Ctrl-C stops the count (the game is untouched); so does the capture route budget.
            crate::interrupt::reset();
            let mut rows: Vec<(String, u64)> = rules
                .divide_interruptible(pos, depth, opts, threads, limits)
                .map_err(Report::new)?
                .iter()
                .map(|(m, n)| (move_to_string(rules, m), *n))
                .collect();
            rows.sort();
            let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
            for (m, n) in &rows {
                out.push_str(&format!("  {m:<width$}  {n}\n"));
            }
            let total: u64 = rows.iter().map(|r| r.1).sum();
            out.push_str(&format!("perft({depth}) = {total}\n"));
        } else {
            crate::interrupt::reset();
            for d in 1..=depth {
                match rules.perft_interruptible(pos, d, opts, threads, limits) {
                    // On a terminal each depth shows as soon as it is counted, as the CLI's.
                    Ok(n) => emit(live, &mut out, &format!("perft({d}) = {n}\n")),
                    // The depths already counted stay on screen.
                    Err(PerftError::Interrupted) => {
                        out.push_str(&format!("perft({d}) interrupted\n"));
                        break;
                    }
                    Err(e) => return Err(Report::new(e)),
                }
            }
        }
        Ok(out)
    }
}

/// Text for the user: printed at once on a terminal (`live`), where long work shows its progress,
/// else kept in `out` with the command's other results.
pub(crate) fn emit(live: bool, out: &mut String, text: &str) {
    use std::io::Write;
    if live {
        let mut stdout = std::io::stdout();
        // A closed terminal drops the text: never a panic.
        let _ = stdout.write_all(text.as_bytes());
        let _ = stdout.flush();
    } else {
        out.push_str(text);
    }
}

/// On a line of several moves, how many were played before move `i` (`word`) stopped it; nothing
/// for a single move.
fn played_before(i: usize, total: usize, word: &str, what: &str) -> String {
    if total > 1 {
        format!(
            "played {i} of the line's {total} moves; move {} (`{word}`) {what}\n",
            i + 1
        )
    } else {
        String::new()
    }
}
