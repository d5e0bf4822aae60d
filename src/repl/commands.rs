//! The REPL's command table: names, aliases, arguments and help texts, shared by the dispatcher,
//! `help`, completion and hints.

/// One command of the workbench.
#[derive(Debug)]
pub struct Command {
    pub name: &'static str,
    /// Short forms; the first is the one `help` shows.
    pub aliases: &'static [&'static str],
    /// The arguments as `help` shows them (`N`, `[FEN]`).
    pub args: &'static str,
    /// One line for the `help` overview.
    pub summary: &'static str,
    /// The longer text of `help COMMAND`.
    pub details: &'static str,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "help",
        aliases: &["h", "?"],
        args: "[COMMAND]",
        summary: "the commands, or one command in detail",
        details: "`help` lists the commands; `help fen` (or `help f`) explains one.",
    },
    Command {
        name: "variants",
        aliases: &["vs"],
        args: "",
        summary: "the bundled variants",
        details: "Lists the bundled variants, name then title; the loaded one is marked `*`.",
    },
    Command {
        name: "load",
        aliases: &["l"],
        args: "VARIANT|FILE",
        summary: "play another variant",
        details: "Loads a bundled variant by name (`load turkish`) or a rules file by path \
                  (`load my.rules`) and starts a new game on it. If it does not load, the \
                  diagnostic is printed and the current game goes on; `undo` goes back to the \
                  variant and game before it.",
    },
    Command {
        name: "reload",
        aliases: &["rl"],
        args: "",
        summary: "re-read the rules file after editing it",
        details: "Re-reads the loaded rules file. The game is kept when every move of it is \
                  still legal under the new rules; otherwise the first move that is not is \
                  named and the game keeps the moves before it (`undo` brings the whole old game \
                  back). A broken file leaves everything as it was.",
    },
    Command {
        name: "new",
        aliases: &["n"],
        args: "",
        summary: "a new game from the start position",
        details: "Starts a new game from the variant's start position; `undo` brings the old \
                  game back.",
    },
    Command {
        name: "show",
        aliases: &["s", "board"],
        args: "",
        summary: "the board",
        details: "Draws the board, coordinates on every edge, the last move bracketed (or \
                  highlighted in colour) and the squares it captured on marked `×`.",
    },
    Command {
        name: "moves",
        aliases: &["m"],
        args: "",
        summary: "the legal moves, captures first",
        details: "Lists the legal moves: captures first, each with the number of pieces it \
                  takes, then the quiet moves. Type a move to play it.",
    },
    Command {
        name: "undo",
        aliases: &["u"],
        args: "[N]",
        summary: "take back a move (or N)",
        details: "Takes back the last move, or the last N moves; `redo` replays them. With the \
                  engine playing a side, it takes back your move and the engine's answer. At the \
                  start of a game, `undo` undoes the command that replaced the game before: \
                  `new`, `load`, `reload`, `open`, `fen`, `put`, `clear` or `turn`.",
    },
    Command {
        name: "redo",
        aliases: &["rd"],
        args: "[N]",
        summary: "replay a move taken back (or N)",
        details: "Replays the last move taken back by `undo`, or N of them. Playing another \
                  move keeps the moves taken back as a variation (`save` writes it).",
    },
    Command {
        name: "history",
        aliases: &["hi"],
        args: "",
        summary: "the game so far in notation",
        details: "Prints the moves of the game, numbered, with the start position's FEN when \
                  the game did not start from the variant's setup.",
    },
    Command {
        name: "fen",
        aliases: &["f"],
        args: "[FEN]",
        summary: "print the position, or set it",
        details: "`fen` prints the position as FEN (`W:Wa2,b2,Kd5:Ba6,h7`: side to move, then \
                  each side's squares, a piece letter before a square for pieces other than \
                  the first kind). `fen FEN` sets it and starts the game from there.",
    },
    Command {
        name: "put",
        aliases: &["pu"],
        args: "[SIDE] SQUARE...",
        summary: "put pieces on squares",
        details: "`put Ka1 b2` puts a king on a1 and a man on b2 (a square alone means the \
                  variant's first kind of piece; a piece letter before it names another). \
                  `put K d4` is a king on d4 too. The pieces belong to the first side unless a \
                  side comes first, by letter or name: `put B d4 Ke5`, `put black d4`. Editing \
                  the position starts the game from it (`undo` goes back).",
    },
    Command {
        name: "clear",
        aliases: &["cl"],
        args: "SQUARE...|all",
        summary: "empty squares",
        details: "`clear d4 e5` takes the pieces off those squares; `clear all` empties the \
                  board. Editing the position starts the game from it.",
    },
    Command {
        name: "turn",
        aliases: &["t"],
        args: "[SIDE]",
        summary: "whose turn it is, or set it",
        details: "`turn` names the side to move; `turn B` or `turn black` gives the move to \
                  that side. Editing the position starts the game from it.",
    },
    Command {
        name: "perft",
        aliases: &["p"],
        args: "N",
        summary: "count move sequences up to depth N",
        details: "Prints perft(1) … perft(N) from the current position, each depth as soon as \
                  it is counted: the number of legal move sequences of each length (repetition \
                  ignored). Ctrl-C stops the count.",
    },
    Command {
        name: "divide",
        aliases: &["d"],
        args: "N",
        summary: "perft N split by first move",
        details: "Prints each legal move with the perft(N - 1) count below it, then perft(N).",
    },
    Command {
        name: "go",
        aliases: &["g"],
        args: "[depth N | time S]",
        summary: "the computer plays the side to move",
        details: "Searches the position (by default to depth 8 or for 5 seconds, whichever \
                  comes first), printing for each depth the score and the principal variation, \
                  then plays the best move. Ctrl-C stops the search: the move is then not played.",
    },
    Command {
        name: "hint",
        aliases: &["hn"],
        args: "[depth N | time S]",
        summary: "the engine's best move, not played",
        details: "Searches like `go` but only names the best move and its score.",
    },
    Command {
        name: "engine",
        aliases: &["en"],
        args: "SIDE|both|off",
        summary: "the computer answers for a side, or plays itself",
        details: "`engine black` makes the computer play black: it answers each of your moves \
                  (and moves at once when it is black's turn); `undo` then takes back your last \
                  move and its answer. `engine black depth 4` (or `time 1`) sets how long it \
                  thinks. `engine both` lets it play both sides, a move a second, until the game \
                  ends, Ctrl-C, or 300 plies. `engine off` gives you both sides again.",
    },
    Command {
        name: "explain",
        aliases: &["e", "why"],
        args: "MOVE",
        summary: "why a move is legal or not",
        details: "Explains a move: for a legal capture how it fares under the priority rule, \
                  for an illegal move the rule that forbids it (a compulsory capture, the \
                  priority, a move the piece cannot make, the wrong side's piece…).",
    },
    Command {
        name: "rules",
        aliases: &["ru"],
        args: "",
        summary: "the variant in plain English",
        details: "Describes the loaded variant's rules in plain English.",
    },
    Command {
        name: "result",
        aliases: &["r"],
        args: "",
        summary: "whose turn, or how the game ended",
        details: "Names the side to move, or the winner and why, or why the game is drawn.",
    },
    Command {
        name: "save",
        aliases: &["sv"],
        args: "FILE.pdn",
        summary: "write the game as PDN",
        details: "Writes the whole game (moves taken back included) and its variations to FILE \
                  as PDN: the tags of the game `open` read, GameType (for a variant PDN has no \
                  number for, a `Rules` tag with the rules' name and hash, which `open` reads \
                  back), the start position as FEN when it is not the usual one, the moves and \
                  the result.",
    },
    Command {
        name: "open",
        aliases: &["op"],
        args: "FILE.pdn [N]",
        summary: "read game N (default 1) of a PDN file",
        details: "Reads game N of a PDN file (or of the one-game-a-line archive format), loads \
                  the variant its GameType or Rules tag names (a game without either is read in \
                  the loaded variant, or in one guessed from its squares when it does not \
                  replay there), replays every move and its variations, and stands at the end. \
                  A move that does not replay ends the game there, and `open` says so. `first`, \
                  `prev`, `next`, `last` and `goto N` move through it.",
    },
    Command {
        name: "first",
        aliases: &["fst"],
        args: "",
        summary: "go to the start of the game",
        details: "Takes back every move; `next` and `last` replay them.",
    },
    Command {
        name: "prev",
        aliases: &["pv"],
        args: "",
        summary: "go one move back",
        details: "Takes back one move, like `undo`, and says which ply you are at.",
    },
    Command {
        name: "next",
        aliases: &["nx"],
        args: "",
        summary: "go one move forward",
        details: "Replays the next move of the game, like `redo`, and says which ply you are at.",
    },
    Command {
        name: "last",
        aliases: &["lst"],
        args: "",
        summary: "go to the end of the game",
        details: "Replays every move taken back.",
    },
    Command {
        name: "goto",
        aliases: &["gt"],
        args: "N",
        summary: "go to ply N (0 = the start)",
        details: "Moves back or forward through the game to ply N: `goto 0` is the start. \
                  Playing another move there than the game's keeps the rest of the game as a \
                  variation; playing a variation's first move follows that variation.",
    },
    Command {
        name: "probe",
        aliases: &["pr"],
        args: "",
        summary: "the endgame table's value of the position",
        details: "Shows the position's value in the endgame tables (`win in 17`, `loss in 4`, \
                  `draw`; distances in plies). Small tables are built on demand and kept in the \
                  cache; for larger ones it names the `damelab endgame` command to run first.",
    },
    Command {
        name: "diagram",
        aliases: &["dg"],
        args: "FILE",
        summary: "write the board as an SVG diagram",
        details: "`diagram pos.svg` writes the position as an SVG picture for an article: square \
                  numbers or coordinates as the variant writes them, the last move drawn as an \
                  arrow, the pieces it captured crossed out. `damelab diagram` does the same \
                  from the command line.",
    },
    Command {
        name: "flip",
        aliases: &["fl"],
        args: "",
        summary: "see the board from the other side",
        details: "Turns the board round: the second side's home rank at the bottom, the files \
                  right to left, in the terminal and in `diagram`. `flip` again turns it back.",
    },
    Command {
        name: "set",
        aliases: &["se"],
        args: "[NAME on|off]",
        summary: "board settings: ascii, color",
        details: "`set` lists the settings; `set ascii on` draws the board with letters only \
                  (for fonts without the draughts symbols), `set color off` without colour; \
                  `set eval FILE` makes `go`, `hint` and the engine use the weights file `damelab \
                  train` wrote (`set eval derived`: the evaluation derived from the rules, \
                  `set eval default`: the bundled weights when there are any).",
    },
    Command {
        name: "quit",
        aliases: &["q", "exit"],
        args: "",
        summary: "leave (also Ctrl-D)",
        details: "Leaves the workbench. Ctrl-D does too; Ctrl-C only cancels the line.",
    },
];

/// The command a word names, by name or alias.
pub fn find(word: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}

/// Every name and alias (for completion and suggestions).
pub fn all_words() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
}

/// The overview printed by `help`.
pub fn overview() -> String {
    let mut out = String::from("commands (type a move to play it: c3-c4, c3xe5, 32-28):\n");
    for c in COMMANDS {
        let head = format!("{} ({}) {}", c.name, c.aliases[0], c.args);
        out.push_str(&format!("  {:<30} {}\n", head.trim_end(), c.summary));
    }
    out.push_str("`help COMMAND` tells more about one\n");
    out
}

/// The text of `help COMMAND`, its description wrapped.
pub fn details(c: &Command) -> String {
    let aliases: Vec<String> = c.aliases.iter().map(|a| format!("`{a}`")).collect();
    let head = format!("{} {}", c.name, c.args);
    format!(
        "{}\n{}  also: {}\n",
        head.trim_end(),
        wrap(c.details, 2, 90),
        aliases.join(", ")
    )
}

/// Words of `text` in lines of at most `width` characters, each indented by `indent` spaces.
fn wrap(text: &str, indent: usize, width: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&format!("{pad}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{pad}{line}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word names one command: `g` once meant both `go` and `goto`, and ran `go`.
    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashMap::new();
        for c in COMMANDS {
            assert!(
                !c.aliases.is_empty(),
                "`{}` has no alias for `help`",
                c.name
            );
            for w in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
                if let Some(other) = seen.insert(w, c.name) {
                    panic!("`{w}` names both `{other}` and `{}`", c.name);
                }
            }
        }
        assert_eq!(find("g").map(|c| c.name), Some("go"));
        assert_eq!(find("gt").map(|c| c.name), Some("goto"));
    }
}
