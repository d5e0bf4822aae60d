//! Reading PDN text into games: tags, the main line's moves (numbers, NAGs, annotation marks and
//! variations skipped, comments kept), the result, and every syntax error with its line and column.
//! A bad game never stops the others from being read.

use super::{Loc, PdnError, PdnGame, Token};

/// The longest game read: beyond it the moves are not kept (a runaway file stays small in memory).
pub const MAX_MOVES: usize = 20_000;

/// The most comments and the most tags kept of one game: beyond them they are read and dropped,
/// so memory stays proportional to the file whatever it holds (80 MB of `{}` would otherwise
/// keep 40 million comments).
pub const MAX_COMMENTS: usize = MAX_MOVES;
pub const MAX_TAGS: usize = 1_000;

/// Text from the file as it may be printed: control characters (an escape sequence in a tag would
/// reach the terminal raw) become `�`; a comment keeps its line ends and tabs.
fn printable(text: String, keep_lines: bool) -> String {
    let bad = |c: char| c.is_control() && !(keep_lines && matches!(c, '\n' | '\t'));
    if text.chars().any(bad) {
        text.chars()
            .map(|c| if bad(c) { '\u{FFFD}' } else { c })
            .collect()
    } else {
        text
    }
}

/// The result tokens of PDN.
pub const RESULTS: &[&str] = &[
    "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "½-½",
];

/// Read every game of a PDN text given as bytes (bytes that are not UTF-8 are reported where they
/// stand, in the game that holds them).
pub fn read_games(bytes: &[u8]) -> Vec<PdnGame> {
    let mut r = Reader {
        b: bytes,
        i: 0,
        line: 1,
        col: 1,
        games: Vec::new(),
        cur: Builder::default(),
    };
    r.run();
    r.games
}

#[derive(Default)]
struct Builder {
    game: PdnGame,
    started: bool,
    in_moves: bool,
    /// Where the result token stood, once read.
    result_at: Option<Loc>,
    after_result_reported: bool,
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
    games: Vec<PdnGame>,
    cur: Builder,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn is_delim(c: u8) -> bool {
    is_space(c) || matches!(c, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'"')
}

impl Reader<'_> {
    fn loc(&self) -> Loc {
        Loc {
            line: self.line,
            col: self.col,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if c & 0xC0 != 0x80 {
            // Columns count characters: continuation bytes of UTF-8 do not advance them.
            self.col += 1;
        }
        Some(c)
    }

    fn error(&mut self, loc: Loc, message: impl Into<String>) {
        self.cur.started = true;
        self.cur.game.errors.push(PdnError {
            loc,
            message: message.into(),
        });
    }

    fn finish(&mut self) {
        let b = std::mem::take(&mut self.cur);
        if b.started {
            self.games.push(b.game);
        }
    }

    fn start_if_needed(&mut self, loc: Loc) {
        if !self.cur.started {
            self.cur.started = true;
            self.cur.game.loc = loc;
        }
    }

    /// Text of bytes `from..to`, or an error at `loc` when they are not UTF-8.
    fn text(&mut self, from: usize, to: usize, loc: Loc, what: &str) -> String {
        match std::str::from_utf8(&self.b[from..to]) {
            Ok(s) => s.to_string(),
            Err(e) => {
                let at = loc_in(&self.b[from..from + e.valid_up_to()], loc);
                let byte = self.b[from + e.valid_up_to()];
                self.error(
                    at,
                    format!("byte 0x{byte:02X} in the {what} is not UTF-8 (PDN files are UTF-8)"),
                );
                String::from_utf8_lossy(&self.b[from..to]).into_owned()
            }
        }
    }

    /// After an unterminated comment, variation or tag: go on at the next line that opens a tag
    /// at its start (the next game's), or at the end.
    fn resync(&mut self) {
        while let Some(c) = self.bump() {
            if c == b'\n' && self.peek() == Some(b'[') {
                return;
            }
        }
    }

    fn run(&mut self) {
        // A byte-order mark is not text.
        if self.b.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.i = 3;
        }
        while let Some(c) = self.peek() {
            let loc = self.loc();
            match c {
                c if is_space(c) => {
                    self.bump();
                }
                b'%' if self.col == 1 => self.skip_line(),
                b';' => self.skip_line(),
                b'[' => {
                    let junk = self.cur.started
                        && self.cur.game.tags.is_empty()
                        && self.cur.game.moves.is_empty()
                        && !self.cur.game.errors.is_empty();
                    if self.cur.in_moves || self.cur.result_at.is_some() || junk {
                        self.finish();
                    }
                    self.start_if_needed(loc);
                    self.tag(loc);
                }
                b'{' => {
                    self.start_if_needed(loc);
                    self.comment(loc);
                }
                b'(' => {
                    self.start_if_needed(loc);
                    self.variation(loc);
                }
                b'}' | b')' | b']' | b'"' => {
                    self.start_if_needed(loc);
                    self.bump();
                    self.error(loc, format!("unmatched `{}`", c as char));
                }
                _ => {
                    self.start_if_needed(loc);
                    self.word(loc);
                }
            }
        }
        self.finish();
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.bump();
        }
    }

    fn tag(&mut self, loc: Loc) {
        self.bump(); // [
        let unterminated = |r: &mut Self, what: &str| {
            r.error(
                loc,
                format!("unterminated tag: {what} (a tag is `[Name \"value\"]` on one line)"),
            );
            r.resync_line();
        };
        self.skip_blanks();
        let name_from = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == b'_' {
                self.bump();
            } else {
                break;
            }
        }
        let name = String::from_utf8_lossy(&self.b[name_from..self.i]).into_owned();
        if name.is_empty() {
            return unterminated(self, "no tag name after `[`");
        }
        self.skip_blanks();
        if self.peek() == Some(b']') {
            // `[Name]`: a tag without a value, read as empty.
            self.bump();
            if self.cur.game.tags.len() < MAX_TAGS {
                self.cur.game.tags.push((name, String::new()));
            }
            return;
        }
        if self.peek() != Some(b'"') {
            return unterminated(self, &format!("no `\"` before the value of `{name}`"));
        }
        self.bump();
        let vloc = self.loc();
        let mut value_bytes = Vec::new();
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    return unterminated(
                        self,
                        &format!("the value of `{name}` has no closing `\"`"),
                    )
                }
                Some(b'\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ (b'"' | b'\\')) => {
                            self.bump();
                            value_bytes.push(c);
                        }
                        _ => value_bytes.push(b'\\'),
                    }
                }
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    self.bump();
                    value_bytes.push(c);
                }
            }
        }
        self.skip_blanks();
        if self.peek() != Some(b']') {
            return unterminated(self, &format!("no `]` after the value of `{name}`"));
        }
        self.bump();
        let value = match String::from_utf8(value_bytes) {
            Ok(v) => v,
            Err(e) => {
                let byte = e.as_bytes()[e.utf8_error().valid_up_to()];
                self.error(
                    vloc,
                    format!("byte 0x{byte:02X} in the value of `{name}` is not UTF-8 (PDN files are UTF-8)"),
                );
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        if self.cur.game.tags.len() < MAX_TAGS {
            self.cur.game.tags.push((name, printable(value, false)));
        }
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.bump();
        }
    }

    fn resync_line(&mut self) {
        self.skip_line();
    }

    fn comment(&mut self, loc: Loc) {
        self.bump(); // {
        let from = self.i;
        let cloc = self.loc();
        while let Some(c) = self.peek() {
            if c == b'}' {
                let to = self.i;
                self.bump();
                let text = self.text(from, to, cloc, "comment");
                let ply = self.cur.game.moves.len();
                if self.cur.game.comments.len() < MAX_COMMENTS {
                    let text = printable(text.trim().to_string(), true);
                    self.cur.game.comments.push((ply, text));
                }
                return;
            }
            self.bump();
        }
        // Reached the end: report, then read on from the comment's next line that opens a tag.
        self.i = from;
        self.line = cloc.line;
        self.col = cloc.col;
        self.error(loc, "unterminated comment: `{` has no closing `}`");
        self.resync();
    }

    fn variation(&mut self, loc: Loc) {
        let (i0, line0, col0) = (self.i, self.line, self.col);
        let mut depth = 0usize;
        while let Some(c) = self.bump() {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                b'{' => {
                    while let Some(c) = self.bump() {
                        if c == b'}' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        self.i = i0 + 1;
        self.line = line0;
        self.col = col0 + 1;
        self.error(loc, "unterminated variation: `(` has no closing `)`");
        self.resync();
    }

    fn word(&mut self, loc: Loc) {
        let from = self.i;
        loop {
            while let Some(c) = self.peek() {
                if is_delim(c) {
                    break;
                }
                self.bump();
            }
            // `1- 6`: a move padded to line up in columns goes on after the blanks.
            let last = self.b[from..self.i].last().copied();
            let mut j = self.i;
            while matches!(self.b.get(j), Some(b' ')) {
                j += 1;
            }
            let next_digit = self.b.get(j).is_some_and(u8::is_ascii_digit);
            if matches!(last, Some(b'-' | b'x')) && j > self.i && next_digit && self.i - from > 1 {
                while self.i < j {
                    self.bump();
                }
            } else {
                break;
            }
        }
        if self.i == from {
            self.bump();
            return;
        }
        let text = printable(self.text(from, self.i, loc, "move text"), false);
        // Some exporters write line ends as the two characters `\r`: they are blanks.
        let text: String = if text.contains(['\\', ' ']) {
            text.replace("\\r", "")
                .replace("\\n", "")
                .chars()
                .filter(|&c| c != ' ')
                .collect()
        } else {
            text
        };
        if text.is_empty() {
            return;
        }
        // A move number (`12.`, `12...`), possibly glued to the move (`1.c3-d4`).
        let mut rest = text.as_str();
        let mut at = loc;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with('.') {
            let dots = rest[digits..].bytes().take_while(|&c| c == b'.').count();
            rest = &rest[digits + dots..];
            at.col += digits + dots;
        }
        while let Some(r) = rest.strip_prefix('.') {
            rest = r; // a lone `...`
            at.col += 1;
        }
        if rest.is_empty() {
            return;
        }
        if RESULTS.contains(&rest) {
            if let Some(first) = self.cur.result_at {
                self.error(
                    at,
                    format!("a second result `{rest}` (the first is at {first})"),
                );
            } else {
                self.cur.result_at = Some(at);
                self.cur.game.result = Some(rest.to_string());
            }
            return;
        }
        if rest.starts_with('$') && rest[1..].bytes().all(|c| c.is_ascii_digit()) {
            return; // a NAG
        }
        let mv = rest.trim_end_matches(['!', '?', '+', '#', '*']);
        if mv.is_empty() {
            return; // an annotation standing alone
        }
        if let Some(res) = self.cur.result_at {
            if !self.cur.after_result_reported {
                self.cur.after_result_reported = true;
                self.error(at, format!("move `{mv}` after the result (given at {res})"));
            }
            return;
        }
        if !looks_like_move(mv) {
            self.error(
                at,
                format!("`{mv}` is not a move (expected e.g. `32-28`, `28x19` or `c3-d4`)"),
            );
            return;
        }
        self.cur.in_moves = true;
        if self.cur.game.moves.len() >= MAX_MOVES {
            if self.cur.game.moves.len() == MAX_MOVES {
                self.error(
                    at,
                    format!("the game has more than {MAX_MOVES} moves: the rest are not read"),
                );
                self.cur.game.moves.push(Token {
                    text: String::new(),
                    loc: at,
                });
            }
            return;
        }
        self.cur.game.moves.push(Token {
            text: mv.to_string(),
            loc: at,
        });
    }
}

/// Squares (`32`, `c3`) joined by `-`, `x` or `:`.
fn looks_like_move(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['-', 'x', 'X', ':']).collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            let b = p.as_bytes();
            match b {
                [] => false,
                [l, rest @ ..] if l.is_ascii_alphabetic() => {
                    !rest.is_empty() && rest.iter().all(u8::is_ascii_digit)
                }
                _ => b.iter().all(u8::is_ascii_digit),
            }
        })
}

/// The location just after `bytes`, which start at `loc`.
fn loc_in(bytes: &[u8], loc: Loc) -> Loc {
    let mut at = loc;
    for &c in bytes {
        if c == b'\n' {
            at.line += 1;
            at.col = 1;
        } else if c & 0xC0 != 0x80 {
            at.col += 1;
        }
    }
    at
}
