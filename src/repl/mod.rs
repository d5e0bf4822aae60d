//! The workbench: commands over a [`Game`], shared by the interactive terminal front end and by
//! scripted use (stdin not a terminal). The terminal part stays thin.

use crate::engine::GenOptions;
use crate::notation::{move_to_string, parse_fen, parse_move, to_fen};
use crate::render::board_text;
use crate::{Game, Variant};
use miette::Report;
use std::path::PathBuf;

/// A REPL session: the loaded variant and the game on it.
pub struct Session {
    pub variant: Variant,
    pub game: Game,
    pub quit: bool,
}

impl Session {
    pub fn new(variant: Variant) -> Session {
        let game = Game::new(variant.rules.clone());
        Session {
            variant,
            game,
            quit: false,
        }
    }

    /// Run one line; the text to print (results or a rendered diagnostic). Never panics on input;
    /// on an error the game is unchanged.
    pub fn execute(&mut self, line: &str) -> String {
        match self.run_line(line.trim()) {
            Ok(s) => s,
            Err(report) => format!("{report:?}"),
        }
    }

    fn run_line(&mut self, line: &str) -> Result<String, Report> {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let rules = self.game.rules.clone();
        Ok(match cmd {
            "" => String::new(),
            "help" | "h" | "?" => HELP.to_string(),
            "quit" | "q" | "exit" => {
                self.quit = true;
                String::new()
            }
            "show" | "s" | "board" => {
                board_text(&rules, self.game.position(), self.game.last_move())
            }
            "moves" | "m" => {
                let mut names: Vec<String> = self
                    .game
                    .legal_moves()
                    .iter()
                    .map(|m| move_to_string(&rules, m))
                    .collect();
                names.sort();
                if names.is_empty() {
                    format!("no legal moves ({})\n", self.game.describe_result())
                } else {
                    format!("{}\n", names.join(" "))
                }
            }
            "new" | "n" => {
                self.game = Game::new(rules);
                "new game\n".into()
            }
            "undo" | "u" => match self.game.undo() {
                Some(m) => format!("undid {}\n", move_to_string(&rules, &m)),
                None => "nothing to undo\n".into(),
            },
            "redo" => match self.game.redo() {
                Some(m) => format!("redid {}\n", move_to_string(&rules, &m)),
                None => "nothing to redo\n".into(),
            },
            "fen" | "f" if arg.is_empty() => format!("{}\n", to_fen(&rules, self.game.position())),
            "fen" | "f" => {
                let pos = parse_fen(&rules, arg).map_err(|e| Report::new_boxed(e))?;
                self.game = Game::from_position(rules.clone(), pos);
                format!("{}\n", to_fen(&rules, &pos))
            }
            "result" | "r" => format!("{}\n", self.game.describe_result()),
            "perft" | "p" => {
                let depth: usize = arg.parse().map_err(|_| {
                    miette::miette!(help = "e.g. `perft 4`", "`{arg}` is not a depth")
                })?;
                let mut out = String::new();
                for d in 1..=depth {
                    let n = rules.perft(self.game.position(), d, GenOptions::default());
                    out.push_str(&format!("perft({d}) = {n}\n"));
                }
                out
            }
            _ => {
                let legal = self.game.legal_moves();
                let mv = parse_move(&rules, &legal, line).map_err(|e| {
                    if line.contains(['-', 'x']) {
                        Report::new_boxed(e as Box<dyn miette::Diagnostic + Send + Sync>)
                    } else {
                        miette::miette!(
                            help = "type `help` for the commands",
                            "unknown command `{cmd}`"
                        )
                    }
                })?;
                self.game.play(mv);
                format!("{}\n", move_to_string(&rules, &mv))
            }
        })
    }
}

const HELP: &str = "commands:
  show (s)          the board
  moves (m)         the legal moves
  <move>            play a move: c3-c4, c3xe5, 32-28
  undo (u), redo    take back / replay a move
  new (n)           back to the start position
  fen (f) [FEN]     print or set the position
  perft (p) N       count move sequences up to depth N
  result (r)        whose turn, or how the game ended
  quit (q)          leave
";

/// Run the REPL on a variant: interactive with line editing when stdin is a terminal, otherwise
/// one command per input line with results only.
pub fn run(variant: &str, history: Option<PathBuf>, _no_color: bool) -> Result<(), Report> {
    use std::io::{BufRead, IsTerminal, Write};
    let v = Variant::load(variant).map_err(Report::new)?;
    let mut session = Session::new(v);
    if !std::io::stdin().is_terminal() {
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        for line in stdin.lock().lines() {
            let line = line.map_err(|e| miette::miette!("cannot read stdin: {e}"))?;
            let text = session.execute(&line);
            write!(out, "{text}").ok();
            if session.quit {
                break;
            }
        }
        return Ok(());
    }
    let mut rl = rustyline::DefaultEditor::new().map_err(|e| miette::miette!("{e}"))?;
    let history = history
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".damelab_history")));
    if let Some(h) = &history {
        rl.load_history(h).ok();
    }
    println!(
        "damelab — {} (type `help`)",
        session.variant.rules.spec.title
    );
    print!("{}", session.execute("show"));
    loop {
        match rl.readline("damelab> ") {
            Ok(line) => {
                rl.add_history_entry(line.as_str()).ok();
                print!("{}", session.execute(&line));
                if session.quit {
                    break;
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(_) => break,
        }
    }
    if let Some(h) = &history {
        rl.save_history(h).ok();
    }
    Ok(())
}
