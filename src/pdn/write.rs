//! Writing a game as PDN: the tags, `GameType` (or the rules' name and hash) and `FEN` when
//! needed, numbered moves, comments, variations and the result.

use super::{game_type_of, Variation};
use crate::engine::{Move, Rules};
use crate::notation::{move_to_string, to_fen};
use crate::Game;

/// The result token of a game as it stands: `1-0` when the first mover has won, `0-1` when the
/// other side has, `1/2-1/2` for a draw, `*` while it goes on.
pub fn result_token(game: &Game) -> &'static str {
    match game.result() {
        None => "*",
        Some(o) => finished_result(&game.rules, o.winner),
    }
}

/// The result token of a finished game: `1-0` when `winner` is the side that moves first, `0-1`
/// when it is the other, `1/2-1/2` for a draw. The one rule of every game record damelab writes.
pub fn finished_result(rules: &Rules, winner: Option<usize>) -> &'static str {
    match winner {
        None => "1/2-1/2",
        Some(w) if w == rules.spec.first_to_move as usize => "1-0",
        Some(_) => "0-1",
    }
}

fn quote(v: &str) -> String {
    printable(v, false)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Text from elsewhere (an external engine's name or remarks, a user's tag) as it may be written:
/// control characters (NUL, ESC: an escape sequence would reach the terminal of whoever prints
/// the file) become `�`; a comment keeps its line ends and tabs.
fn printable(text: &str, keep_lines: bool) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && !(keep_lines && matches!(c, '\n' | '\t')) {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
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
    write_game_with(game, tags, comments, result, &[], None)
}

/// The name of the tag that names the rules of a variant PDN has no `GameType` for: the bundled
/// name or the rules file's path, then a hash of the compiled rules (`[Rules "dameo 1a2b…"]`).
pub const RULES_TAG: &str = "Rules";

/// The value of the [`RULES_TAG`] tag: `source` (a bundled name or a rules file's path) and the
/// rules' hash.
pub fn rules_tag(rules: &Rules, source: &str) -> String {
    format!("{source} {}", rules.fingerprint())
}

/// [`write_game`] with the game's variations (written in `( … )` after the move each replaces)
/// and, for a variant without a `GameType` number, the [`RULES_TAG`] naming `source` (a bundled
/// variant's name or a rules file's path), so that the file can be opened again.
pub fn write_game_with(
    game: &Game,
    tags: &[(String, String)],
    comments: &[(usize, String)],
    result: Option<&str>,
    variations: &[Variation<Move>],
    source: Option<&str>,
) -> String {
    let rules = &game.rules;
    let result = result.unwrap_or_else(|| result_token(game));
    let mut out = write_tags(game, tags, result, source);
    let numbers = Numbers {
        offset: usize::from(game.start().turn() != rules.spec.first_to_move as usize),
    };
    let mut words: Vec<String> = Vec::new();
    let push_comments = |words: &mut Vec<String>, after: usize| {
        for (_, c) in comments.iter().filter(|(p, _)| *p == after) {
            words.push(comment_word(c));
        }
    };
    push_comments(&mut words, 0);
    line_words(
        rules,
        numbers,
        0,
        game.moves(),
        variations,
        &mut words,
        &push_comments,
    );
    words.push(result.to_string());
    out.push_str(&wrap_words(words));
    out
}

/// A comment as a word of move text: `{text}`, a `}` inside it written `)`.
pub fn comment_word(text: &str) -> String {
    format!("{{{}}}", printable(text, true).replace('}', ")"))
}

/// Words of move text in lines of at most 79 characters, and the blank line after the game.
pub fn wrap_words(words: Vec<String>) -> String {
    let mut out = String::new();
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

/// The tags [`write_game_with`] writes before the move text: `tags` (but those the game decides),
/// the `GameType` or [`RULES_TAG`], the `FEN` of a game that does not start at the start
/// position, the `Result`, and the blank line.
pub fn write_tags(
    game: &Game,
    tags: &[(String, String)],
    result: &str,
    source: Option<&str>,
) -> String {
    let rules = &game.rules;
    let mut out = String::new();
    let own = ["GameType", "FEN", "Result", "SetUp", RULES_TAG];
    for (n, v) in tags {
        if !own.iter().any(|o| o.eq_ignore_ascii_case(n)) {
            let name: String = n.chars().filter(|c| !c.is_control()).collect();
            out.push_str(&format!("[{name} \"{}\"]\n", quote(v)));
        }
    }
    match game_type_of(&rules.spec.name) {
        Some(code) => out.push_str(&format!("[GameType \"{code}\"]\n")),
        None => {
            let source = source.unwrap_or(&rules.spec.name);
            out.push_str(&format!(
                "[{RULES_TAG} \"{}\"]\n",
                quote(&rules_tag(rules, source))
            ));
        }
    }
    if *game.start() != rules.start {
        out.push_str(&format!("[FEN \"{}\"]\n", to_fen(rules, game.start())));
    }
    out.push_str(&format!("[Result \"{}\"]\n\n", quote(result)));
    out
}

/// How plies are numbered from the side that moves first in the variant: `offset` is 1 when the
/// game starts with the other side to move.
#[derive(Clone, Copy)]
struct Numbers {
    offset: usize,
}

/// The words of a line whose first move is ply `base` of the game: numbered moves, the comments
/// after them (the main line's only) and each variation after the move it replaces. With a stack
/// of its own, not recursion: variations nested as deep as a session makes them cannot
/// overflow the stack.
fn line_words(
    rules: &Rules,
    n: Numbers,
    base: usize,
    moves: &[Move],
    variations: &[Variation<Move>],
    words: &mut Vec<String>,
    comments: &dyn Fn(&mut Vec<String>, usize),
) {
    /// A line being written: where its first move stands in the game, its moves and
    /// variations, the next move to write, and whether that move needs its `12...` number.
    struct Line<'a> {
        base: usize,
        moves: &'a [Move],
        variations: &'a [Variation<Move>],
        next: usize,
        resume: bool,
    }
    let mut stack = vec![Line {
        base,
        moves,
        variations,
        next: 0,
        resume: true,
    }];
    loop {
        // The main line is the stack's bottom; every line above it is a variation.
        let nested = stack.len() > 1;
        let Some(line) = stack.last_mut() else { break };
        let i = line.next;
        let Some(mv) = line.moves.get(i) else {
            stack.pop();
            // A variation closes after its last word.
            if nested {
                if let Some(w) = words.last_mut() {
                    w.push(')');
                }
            }
            continue;
        };
        let g = line.base + i + n.offset;
        let number = g / 2 + 1;
        let text = move_to_string(rules, mv);
        // A variation opens before its first word.
        let mut word = if nested && i == 0 { "(" } else { "" }.to_string();
        // A move of the second mover is numbered `12...` after a break in the line.
        if g.is_multiple_of(2) {
            word.push_str(&format!("{number}. {text}"));
        } else if line.resume {
            word.push_str(&format!("{number}... {text}"));
        } else {
            word.push_str(&text);
        }
        words.push(word);
        let here: Vec<&Variation<Move>> = line
            .variations
            .iter()
            .filter(|v| v.ply == i && !v.moves.is_empty())
            .collect();
        line.next += 1;
        // The line's next move gets its number again after a variation.
        line.resume = !here.is_empty();
        let base = line.base + i;
        if !nested {
            comments(words, i + 1);
        }
        // The variations after the move they replace, the first written first.
        for v in here.into_iter().rev() {
            stack.push(Line {
                base,
                moves: &v.moves,
                variations: &v.variations,
                next: 0,
                resume: true,
            });
        }
    }
}
