//! Line-editing help for the interactive front end: tab completion (commands, variant names, file
//! paths, the legal moves of the position) and a greyed hint of a legal move as you type.
//!
//! The completion logic is plain functions over [`Candidates`], a snapshot of the session that the
//! front end refreshes after each command, so it can be tested without a terminal.

use super::commands;
use super::session::Session;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::Context;
use std::borrow::Cow;

/// What can be completed in the current state of a session.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    /// The legal moves of the position, in notation, sorted.
    pub moves: Vec<String>,
    /// The bundled variants' names.
    pub variants: Vec<String>,
}

impl Candidates {
    pub fn of(session: &Session) -> Candidates {
        Candidates {
            moves: session.legal_move_names(),
            variants: crate::variants::BUNDLED
                .iter()
                .map(|(n, _)| n.to_string())
                .collect(),
        }
    }
}

/// Where the word under the cursor starts, and the words before it.
fn split_at_cursor(line: &str, pos: usize) -> (usize, Vec<&str>) {
    let head = &line[..pos];
    // After the last whitespace character, which may be more than one byte (U+3000).
    let start = head
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let before: Vec<&str> = head[..start].split_whitespace().collect();
    (start, before)
}

/// What the word under the cursor can become: completions of command names, variant names (after
/// `load`), command names (after `help`) and moves (first word, after other moves, after
/// `explain`). File paths for `load` are added by the front end.
pub fn complete(line: &str, pos: usize, c: &Candidates) -> (usize, Vec<String>) {
    let pos = pos.min(line.len());
    if !line.is_char_boundary(pos) {
        return (pos, Vec::new());
    }
    let (start, before) = split_at_cursor(line, pos);
    let word = &line[start..pos];
    let names = || commands::COMMANDS.iter().map(|c| c.name);
    let moves = || c.moves.iter().map(String::as_str);
    let out = match before.first().map(|w| commands::find(w).map(|c| c.name)) {
        None => {
            // A command is followed by its argument: Tab adds the space too.
            let mut v: Vec<String> = starting(names(), word)
                .into_iter()
                .map(|n| n + " ")
                .collect();
            v.extend(starting(moves(), word));
            v
        }
        Some(Some("load")) => starting(c.variants.iter().map(String::as_str), word),
        Some(Some("help")) => starting(names(), word),
        Some(Some("explain")) => starting(moves(), word),
        Some(Some(_)) => Vec::new(),
        // Moves after moves: only the first move's legality is known here, so offer the position's.
        Some(None) => starting(moves(), word),
    };
    (start, out)
}

fn starting<'a>(list: impl Iterator<Item = &'a str>, word: &str) -> Vec<String> {
    list.filter(|s| s.starts_with(word))
        .map(str::to_string)
        .collect()
}

/// The greyed rest of the line: the first legal move (or command) that the last word begins.
pub fn hint(line: &str, pos: usize, c: &Candidates) -> Option<String> {
    if pos != line.len() || line.trim().is_empty() || line.ends_with(char::is_whitespace) {
        return None;
    }
    let (start, list) = complete(line, pos, c);
    let word = line.get(start..)?;
    // A move is the more useful hint: prefer it to a command of the same prefix.
    let best = list
        .iter()
        .find(|s| c.moves.contains(s))
        .or_else(|| list.first())?;
    let best = best.trim_end();
    best.strip_prefix(word)
        .filter(|rest| !rest.is_empty())
        .map(str::to_string)
}

/// For a command that takes a file, which files Tab offers (folders are always offered): rules
/// files after `load`, any file after `open` (PDN files and the one-game-a-line archive), PDN
/// files after `save`, SVG files after `diagram`.
pub fn takes_path(command: &str) -> Option<fn(&str) -> bool> {
    match command {
        "load" => Some(|p| p.ends_with(".rules")),
        "open" => Some(|_| true),
        "save" => Some(|p| p.to_ascii_lowercase().ends_with(".pdn")),
        "diagram" => Some(|p| p.to_ascii_lowercase().ends_with(".svg")),
        _ => None,
    }
}

/// The rustyline helper: completion, hints, and the hint drawn grey when colour is on.
pub struct ReplHelper {
    pub candidates: Candidates,
    pub color: bool,
    files: FilenameCompleter,
}

impl ReplHelper {
    pub fn new(candidates: Candidates, color: bool) -> ReplHelper {
        ReplHelper {
            candidates,
            color,
            files: FilenameCompleter::new(),
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, list) = complete(line, pos, &self.candidates);
        let mut pairs: Vec<Pair> = list
            .into_iter()
            .map(|s| Pair {
                display: s.clone(),
                replacement: s,
            })
            .collect();
        let first = line.split_whitespace().next().and_then(commands::find);
        let in_argument = line
            .get(..pos)
            .is_some_and(|h| h.contains(char::is_whitespace));
        if let (Some(keep), true) = (first.and_then(|c| takes_path(c.name)), in_argument) {
            let (fstart, mut files) = self.files.complete_path(line, pos)?;
            // Only what the command can take, and folders that may hold it.
            files.retain(|p| {
                p.replacement.ends_with(std::path::MAIN_SEPARATOR) || keep(&p.replacement)
            });
            if pairs.is_empty() {
                return Ok((fstart, files));
            }
            if fstart == start {
                pairs.extend(files);
            }
        }
        Ok((start, pairs))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        hint(line, pos, &self.candidates)
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[90m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Validator for ReplHelper {}

impl rustyline::Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn cands() -> Candidates {
        Candidates {
            moves: vec!["a1-a2".into(), "a1-d4".into(), "c3-c4".into()],
            variants: vec!["dameo".into(), "turkish".into()],
        }
    }

    #[test]
    fn completes_commands_and_moves() {
        assert_eq!(complete("he", 2, &cands()), (0, vec!["help ".to_string()]));
        assert_eq!(hint("he", 2, &cands()), Some("lp".into()));
        assert_eq!(
            complete("a1-", 3, &cands()),
            (0, vec!["a1-a2".to_string(), "a1-d4".to_string()])
        );
        assert_eq!(
            complete("load tu", 7, &cands()),
            (5, vec!["turkish".to_string()])
        );
        assert_eq!(complete("explain c", 9, &cands()).1, vec!["c3-c4"]);
    }

    #[test]
    fn file_commands_complete_paths() {
        let keep = |c: &str, p: &str| takes_path(c).is_some_and(|f| f(p));
        assert!(keep("load", "my.rules") && !keep("load", "g.pdn"));
        assert!(keep("open", "g.pdn") && keep("open", "ACF.txt"));
        assert!(keep("save", "g.PDN") && !keep("save", "x.rules"));
        assert!(keep("diagram", "pos.svg") && !keep("diagram", "g.pdn"));
        assert!(takes_path("moves").is_none());
    }

    #[test]
    fn hints_a_move() {
        assert_eq!(hint("c3", 2, &cands()), Some("-c4".into()));
        assert_eq!(hint("a1-d", 4, &cands()), Some("4".into()));
        assert_eq!(hint("c3-c4", 5, &cands()), None);
        assert_eq!(hint("", 0, &cands()), None);
    }

    #[test]
    fn multi_byte_whitespace_and_letters_do_not_panic() {
        // `a`, U+3000 (ideographic space), `b`: the word under the cursor starts after the space.
        let line = "a\u{3000}c";
        assert_eq!(complete(line, line.len(), &cands()).0, 4);
        assert_eq!(hint(line, line.len(), &cands()), Some("3-c4".into()));
        assert_eq!(hint("a\u{3000}b", 5, &cands()), None);
        assert_eq!(hint("é", 2, &cands()), None);
        assert_eq!(complete("é", 1, &cands()).1, Vec::<String>::new());
    }
}
