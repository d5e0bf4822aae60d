//! Reading PDN text into games: tags, the main line's moves and its variations (numbers, NAGs and
//! annotation marks skipped, the main line's comments kept), the result, and every syntax error
//! with its line and column. A bad game never stops the others from being read.
//!
//! It reads files as the players' tools write them, not only strict PDN: tag names with HTML
//! entities or blanks (`[R&#x00e9;sultat "2-0"]`, `[Type de jeu "20"]`, French names mapped to
//! the standard ones), a tag whose `[` stands alone on the line before it, a line holding a lone
//! `[` between games, and a tag line that lost its `[`.

use super::{nag_of_mark, Loc, Notes, PdnError, PdnGame, Token, Variation};
use crate::limits::MAX_VARIATION_DEPTH;

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
    /// The variations being read, innermost last.
    stack: Vec<Variation<Token>>,
    /// Moves read in variations so far (bounded like the main line's).
    variation_moves: usize,
    /// Comments kept on moves so far (bounded like the main line's list).
    notes_kept: usize,
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
                b'[' if self.lone_bracket() => {
                    // A `[` alone between games (an exporter's slip): not a game.
                    self.bump();
                }
                c if self.col == 1 && c.is_ascii_alphabetic() && self.bare_tag_line() => {
                    // `Event "…"]` at a line's start: a tag that lost its `[`.
                    if self.cur.in_moves || self.cur.result_at.is_some() {
                        self.finish();
                    }
                    self.start_if_needed(loc);
                    self.tag(loc, false);
                }
                b'[' => {
                    let junk = self.cur.started
                        && self.cur.game.tags.is_empty()
                        && self.cur.game.moves.is_empty()
                        && !self.cur.game.errors.is_empty();
                    if self.cur.in_moves || self.cur.result_at.is_some() || junk {
                        self.finish();
                    }
                    self.start_if_needed(loc);
                    self.tag(loc, true);
                }
                b'{' => {
                    self.start_if_needed(loc);
                    self.comment(loc);
                }
                b'(' => {
                    self.start_if_needed(loc);
                    self.variation(loc);
                }
                b')' if !self.cur.stack.is_empty() => {
                    self.bump();
                    self.close_variation();
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

    fn tag(&mut self, loc: Loc, bracket: bool) {
        if bracket {
            self.bump(); // [
        }
        let unterminated = |r: &mut Self, what: &str| {
            r.error(
                loc,
                format!("unterminated tag: {what} (a tag is `[Name \"value\"]` on one line)"),
            );
            r.resync_line();
        };
        // `[` alone on its line, the tag on the next: read on there.
        self.skip_blanks();
        if self.peek() == Some(b'\n') {
            while self.peek().is_some_and(is_space) {
                self.bump();
            }
        }
        // The name runs to the value's `"`: some tools write blanks and HTML entities in it.
        let name_from = self.i;
        while let Some(c) = self.peek() {
            if matches!(c, b'"' | b']' | b'[' | b'\n') {
                break;
            }
            self.bump();
        }
        let raw = String::from_utf8_lossy(&self.b[name_from..self.i]).into_owned();
        if raw.trim().contains(char::is_whitespace) && self.peek() != Some(b'"') {
            // `[Event unquoted]`: the value, not a name with blanks, lacks its quotes.
            let first = raw
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
            return unterminated(self, &format!("no `\"` before the value of `{first}`"));
        }
        let name = standard_name(decode_entities(raw.trim()));
        if name.is_empty() || name.contains(['{', '}', '(', ')']) {
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
            Ok(v) => decode_entities(&v),
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
                let text = printable(text.trim().to_string(), true);
                // The main line's comments are listed by ply; every comment also goes with the
                // move before it, in a variation too.
                if self.cur.stack.is_empty() && self.cur.game.comments.len() < MAX_COMMENTS {
                    let ply = self.cur.game.moves.len();
                    self.cur.game.comments.push((ply, text.clone()));
                }
                if self.cur.notes_kept < MAX_COMMENTS {
                    if let Some(n) = self.last_notes() {
                        n.add_comment(&text);
                        self.cur.notes_kept += 1;
                    }
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

    /// `(`: a variation of the line being read, if it closes; one that does not is reported and
    /// the reader goes on at the next game.
    fn variation(&mut self, loc: Loc) {
        // Only the outermost `(` looks ahead for its `)`: the text inside is read normally.
        if self.cur.stack.is_empty() && !self.variation_closes() {
            let (i0, line0, col0) = (self.i, self.line, self.col);
            self.i = i0 + 1;
            self.line = line0;
            self.col = col0 + 1;
            self.error(loc, "unterminated variation: `(` has no closing `)`");
            self.resync();
            return;
        }
        if self.cur.stack.len() >= MAX_VARIATION_DEPTH {
            // A crafted file (`( ( ( … ) ) )` thousands deep): reported once, and the reader goes
            // on at the next game, so the work stays linear in the text.
            self.bump();
            self.error(
                loc,
                format!(
                    "variations nest deeper than {MAX_VARIATION_DEPTH} levels, the limit \
                     (MAX_VARIATION_DEPTH); the game is not replayed"
                ),
            );
            self.cur.stack.clear();
            self.resync();
            return;
        }
        self.bump();
        // It replaces the line's last move so far.
        let line_len = match self.cur.stack.last() {
            Some(v) => v.moves.len(),
            None => self.cur.game.moves.len(),
        };
        self.cur
            .stack
            .push(Variation::new(line_len.saturating_sub(1), Vec::new()));
    }

    /// Whether the `(` at the reader closes before the text ends (comments skipped).
    fn variation_closes(&self) -> bool {
        let mut depth = 0usize;
        let mut j = self.i;
        while let Some(&c) = self.b.get(j) {
            j += 1;
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return true;
                    }
                }
                b'{' => {
                    while let Some(&c) = self.b.get(j) {
                        j += 1;
                        if c == b'}' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// `)`: the innermost variation is complete; an empty one is dropped.
    fn close_variation(&mut self) {
        let Some(v) = self.cur.stack.pop() else {
            return;
        };
        // Empty without counting: a variation held inside is kept only when it is not empty,
        // so this stays constant time however deep the text nests.
        if v.moves.is_empty() && v.variations.is_empty() {
            return;
        }
        match self.cur.stack.last_mut() {
            Some(outer) => outer.variations.push(v),
            None => self.cur.game.variations.push(v),
        }
    }

    /// A `[` followed by another (`[[Event`), or with nothing after it on its line and the next
    /// thing in the text another `[` (or the end): a stray bracket, not a tag split over two lines.
    fn lone_bracket(&self) -> bool {
        let rest = &self.b[self.i + 1..];
        let blank = rest
            .iter()
            .position(|&c| !matches!(c, b' ' | b'\t' | b'\r'))
            .unwrap_or(rest.len());
        match rest.get(blank) {
            // `[[Event …`: a doubled bracket.
            Some(b'[') => return true,
            Some(b'\n') | None => {}
            Some(_) => return false,
        }
        let next = rest[blank..].iter().find(|&&c| !is_space(c));
        matches!(next, None | Some(b'['))
    }

    /// The line at the reader is `Name "value"]` (a tag without its `[`).
    fn bare_tag_line(&self) -> bool {
        let rest = &self.b[self.i..];
        let line = &rest[..rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let trimmed = line.trim_ascii_end();
        let Some(q) = trimmed.iter().position(|&c| c == b'"') else {
            return false;
        };
        let name = trimmed[..q].trim_ascii_end();
        !name.is_empty()
            && name.iter().all(|c| c.is_ascii_alphanumeric() || c == &b'_')
            && trimmed.ends_with(b"\"]")
            && trimmed.len() > q + 2
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
        if !self.cur.stack.is_empty() {
            self.variation_word(rest, at);
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
            self.nag(rest); // a NAG
            return;
        }
        let mv = rest.trim_end_matches(['!', '?', '+', '#', '*']);
        let mark = &rest[mv.len()..];
        if mv.is_empty() {
            self.nag(mark); // an annotation standing alone
            return;
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
                    notes: Notes::default(),
                });
            }
            return;
        }
        self.cur.game.moves.push(Token {
            text: mv.to_string(),
            loc: at,
            notes: Notes::default(),
        });
        self.nag(mark);
    }

    /// The notes of the move read last in the line being read (`None` before its first move).
    fn last_notes(&mut self) -> Option<&mut Notes> {
        let line = match self.cur.stack.last_mut() {
            Some(v) => &mut v.moves,
            None => &mut self.cur.game.moves,
        };
        line.last_mut().map(|t| &mut t.notes)
    }

    /// A NAG (`$6`) or a mark (`?!`, glued to a move or alone) for the move read last; other
    /// marks (`+`, `#`) and numbers past 255 are skipped.
    fn nag(&mut self, word: &str) {
        let marks: String = word.chars().filter(|c| matches!(c, '!' | '?')).collect();
        let nag = match word.strip_prefix('$') {
            Some(n) => n.parse::<u8>().ok(),
            None => nag_of_mark(&marks),
        };
        if let (Some(nag), Some(n)) = (nag, self.last_notes()) {
            n.add_nag(nag);
        }
    }
}

impl Reader<'_> {
    /// A word inside a variation: a move of it (NAGs, marks and results are skipped; a word that
    /// is no move is an error, as on the main line).
    fn variation_word(&mut self, word: &str, at: Loc) {
        if RESULTS.contains(&word) {
            return;
        }
        if word.starts_with('$') {
            self.nag(word);
            return;
        }
        let mv = word.trim_end_matches(['!', '?', '+', '#', '*']);
        let mark = &word[mv.len()..];
        if mv.is_empty() {
            self.nag(mark);
            return;
        }
        if !looks_like_move(mv) {
            self.error(
                at,
                format!("`{mv}` is not a move (expected e.g. `32-28`, `28x19` or `c3-d4`)"),
            );
            return;
        }
        if self.cur.variation_moves >= MAX_MOVES {
            return; // a runaway file: the rest of its variations are not kept
        }
        self.cur.variation_moves += 1;
        if let Some(v) = self.cur.stack.last_mut() {
            v.moves.push(Token {
                text: mv.to_string(),
                loc: at,
                notes: Notes::default(),
            });
        }
        self.nag(mark);
    }
}

/// HTML entities (`&#x00e9;`, `&#233;`, `&amp;`…) as the characters they stand for; anything
/// else is left as written.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest[1..].find(';').map(|e| e + 1).filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let body = &rest[1..e];
            let c = if let Some(hex) = body.strip_prefix("#x").or_else(|| body.strip_prefix("#X")) {
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
            } else if let Some(dec) = body.strip_prefix('#') {
                dec.parse::<u32>().ok().and_then(char::from_u32)
            } else {
                match body {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    "nbsp" => Some(' '),
                    _ => None,
                }
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The standard PDN name of a tag some tools write in French (BrunoGUI's exports).
fn standard_name(name: String) -> String {
    const NAMES: &[(&str, &str)] = &[
        ("Événement", "Event"),
        ("Evenement", "Event"),
        ("Blanc", "White"),
        ("Noir", "Black"),
        ("Résultat", "Result"),
        ("Resultat", "Result"),
        ("Type de jeu", "GameType"),
        ("Manche", "Round"),
    ];
    match NAMES
        .iter()
        .find(|(fr, _)| fr.eq_ignore_ascii_case(&name) || *fr == name)
    {
        Some((_, en)) => en.to_string(),
        None => name,
    }
}

/// Squares (`32`, `c3`) joined by `-`, `x` or `:`; or a drop: `@` and squares joined by `,`
/// (`@a1,b2`, `K@c3`).
fn looks_like_move(s: &str) -> bool {
    if let Some((piece, squares)) = s.split_once('@') {
        return piece.len() <= 1
            && piece.bytes().all(|b| b.is_ascii_uppercase())
            && squares
                .split(',')
                .all(|q| looks_like_move(&format!("{q}-{q}")));
    }
    // `*23,32-28`: a move that huffs the piece on 23 first.
    // `@f6-e7`: a move that declares a single combat.
    let s = s.strip_prefix('@').unwrap_or(s);
    let s = match s.strip_prefix('*').and_then(|r| r.split_once(',')) {
        Some((huffed, rest)) if looks_like_move(&format!("{huffed}-{huffed}")) => rest,
        _ => s,
    };
    let parts: Vec<&str> = s.split(['-', 'x', 'X', ':']).collect();
    parts.len() >= 2
        && parts.iter().enumerate().all(|(i, p)| {
            // A landing square may carry a capture's mark, `A` or `W` (approach, withdrawal).
            let b = match p.as_bytes() {
                [rest @ .., d, m] if i > 0 && d.is_ascii_digit() && b"AaWw".contains(m) => {
                    &p.as_bytes()[..rest.len() + 1]
                }
                b => b,
            };
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
