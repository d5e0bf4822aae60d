//! PDN, the Portable Draughts Notation: reading and writing game collections, the `GameType` tag
//! mapped to the bundled variants, and replaying a recorded game against a variant's rules.

mod acf;
mod gametype;
mod read;
mod replay;
mod write;

pub use acf::{looks_like_acf, read_acf};
pub use gametype::{game_type_of, parse_game_type, GameType, GameTypeError, GAME_TYPES};
pub use read::{read_games, MAX_COMMENTS, MAX_MOVES, MAX_TAGS, RESULTS};
pub use replay::{
    describe_failure, guess_variant, recorded_result, replay, start_position, variant_and_note,
    variant_for, Failure, FenTagError, Replayed, VariantCache, VariantError,
};
pub use write::{
    comment_word, finished_result, result_token, rules_tag, wrap_words, write_game,
    write_game_with, write_tags, RULES_TAG,
};

use std::fmt;

/// A place in a PDN text: line and column, both from 1 (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A syntax error in a game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    pub loc: Loc,
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)
    }
}

/// A move as written, and where, with what the player wrote about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub loc: Loc,
    pub notes: Notes,
}

/// What a player wrote about a move: its NAGs (`!` is `$1`, `?` `$2`, `!!` `$3`, `??` `$4`,
/// `!?` `$5`, `?!` `$6`, or `$n` written out) and the comments after it, joined by a blank
/// (commands such as `[%clock …]` and `[%draw …]` included, as written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    pub nags: Vec<u8>,
    pub comment: String,
}

/// The most NAGs kept on one move (more are read and dropped).
pub const MAX_NAGS: usize = 8;

impl Notes {
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comment.is_empty()
    }

    /// Add a comment after the ones already there.
    pub fn add_comment(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if !self.comment.is_empty() {
            self.comment.push(' ');
        }
        self.comment.push_str(text);
    }

    pub fn add_nag(&mut self, nag: u8) {
        if self.nags.len() < MAX_NAGS && !self.nags.contains(&nag) {
            self.nags.push(nag);
        }
    }
}

/// The NAG a move's mark stands for (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
pub fn nag_of_mark(mark: &str) -> Option<u8> {
    Some(match mark {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The mark a NAG is written as, for `$1` to `$6`.
pub fn mark_of_nag(nag: u8) -> Option<&'static str> {
    ["!", "?", "!!", "??", "!?", "?!"]
        .get(usize::from(nag).wrapping_sub(1))
        .copied()
}

/// One game of a PDN text as read: not yet checked against any rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Where the game's text starts.
    pub loc: Loc,
    /// The tags in file order (`("Event", "…")`).
    pub tags: Vec<(String, String)>,
    /// The main line's moves.
    pub moves: Vec<Token>,
    /// The variations of the main line (each with its own), in file order.
    pub variations: Vec<Variation<Token>>,
    /// The comments, each after this many moves of the main line.
    pub comments: Vec<(usize, String)>,
    /// The result token closing the move text, if any.
    pub result: Option<String>,
    /// Syntax errors: a game with any is not replayed.
    pub errors: Vec<PdnError>,
}

/// Other moves played in place of a line's, from one of its moves on: a PDN variation `( … )`,
/// which may hold variations of its own. `M` is a move as written ([`Token`]) or as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation<M> {
    /// The index in the line of the move it replaces (0: instead of the line's first move).
    pub ply: usize,
    pub moves: Vec<M>,
    pub variations: Vec<Variation<M>>,
}

impl<M> Variation<M> {
    pub fn new(ply: usize, moves: Vec<M>) -> Variation<M> {
        Variation {
            ply,
            moves,
            variations: Vec::new(),
        }
    }

    /// The moves of this variation and of all it holds (counted without recursion).
    pub fn len(&self) -> usize {
        let mut total = 0;
        let mut todo = vec![self];
        while let Some(v) = todo.pop() {
            total += v.moves.len();
            todo.extend(&v.variations);
        }
        total
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Dropped without recursion: the variations a session nests one in another, thousands deep,
/// would otherwise be freed by as many nested calls.
impl<M> Drop for Variation<M> {
    fn drop(&mut self) {
        let mut todo = std::mem::take(&mut self.variations);
        while let Some(mut v) = todo.pop() {
            todo.append(&mut v.variations);
        }
    }
}

impl PdnGame {
    /// A tag's value (the first one of that name, case-insensitively).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `White - Black (Event)`, from whichever tags the game has, for reports.
    pub fn title(&self) -> String {
        let names: Vec<&str> = ["White", "Black"]
            .iter()
            .filter_map(|t| self.tag(t))
            .filter(|v| !v.trim().is_empty())
            .collect();
        let mut s = names.join(" - ");
        if let Some(e) = self.tag("Event").filter(|v| !v.trim().is_empty()) {
            if s.is_empty() {
                s = e.to_string();
            } else {
                s = format!("{s} ({e})");
            }
        }
        s
    }
}
