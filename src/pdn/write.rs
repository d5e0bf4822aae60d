//! Writing a game as PDN: the tags, `GameType` and `FEN` when needed, numbered moves, comments and
//! the result.

use super::game_type_of;
use crate::notation::{move_to_string, to_fen};
use crate::Game;

/// The result token of a game as it stands: `1-0` when the first mover has won, `0-1` when the
/// other side has, `1/2-1/2` for a draw, `*` while it goes on.
pub fn result_token(game: &Game) -> &'static str {
    match game.result() {
        None => "*",
        Some(o) => match o.winner {
            None => "1/2-1/2",
            Some(w) if w == game.rules.spec.first_to_move as usize => "1-0",
            Some(_) => "0-1",
        },
    }
}

fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PDN text. `tags` come first in their order (`GameType`, `FEN` and `Result` among
/// them are replaced by the game's own); `comments` are (after this many moves, text); `result`
/// overrides the result token (e.g. a resignation recorded in a file), else the board's is used.
pub fn write_game(
    game: &Game,
    tags: &[(String, String)],
    comments: &[(usize, String)],
    result: Option<&str>,
) -> String {
    let rules = &game.rules;
    let result = result.unwrap_or_else(|| result_token(game));
    let mut out = String::new();
    let own = ["GameType", "FEN", "Result", "SetUp"];
    for (n, v) in tags {
        if !own.iter().any(|o| o.eq_ignore_ascii_case(n)) {
            out.push_str(&format!("[{n} \"{}\"]\n", quote(v)));
        }
    }
    if let Some(code) = game_type_of(&rules.spec.name) {
        out.push_str(&format!("[GameType \"{code}\"]\n"));
    }
    if *game.start() != rules.start {
        out.push_str(&format!("[FEN \"{}\"]\n", to_fen(rules, game.start())));
    }
    out.push_str(&format!("[Result \"{}\"]\n\n", quote(result)));

    let first = rules.spec.first_to_move as usize;
    let mut words: Vec<String> = Vec::new();
    let mut turn = game.start().turn();
    let mut number = 1;
    let push_comments = |words: &mut Vec<String>, after: usize| {
        for (_, c) in comments.iter().filter(|(p, _)| *p == after) {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
    };
    push_comments(&mut words, 0);
    for (i, mv) in game.moves().iter().enumerate() {
        let text = move_to_string(rules, mv);
        if turn == first {
            words.push(format!("{number}. {text}"));
        } else if i == 0 {
            words.push(format!("{number}... {text}"));
        } else {
            words.push(text);
        }
        if turn != first {
            number += 1;
        }
        turn = 1 - turn;
        push_comments(&mut words, i + 1);
    }
    words.push(result.to_string());
    // Lines of at most 79 characters.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
