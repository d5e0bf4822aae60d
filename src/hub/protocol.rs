//! The Hub protocol's text, both ways: a line is `command arg=value arg=value …` (values quoted
//! with `"` when they hold a space, `=` or nothing; flags have no value); positions are the side to
//! move (`W`/`B`) and one letter per playable square in numbering order (`w`/`b` men, `W`/`B` kings,
//! `e` empty); moves are `from-to`, or `fromxto` followed by `x` and every captured square.
//! Square names are the variant's own (numbers on a numbered board, `c3` on an algebraic one).

use crate::engine::bits::{BitIter, BitSet};
use crate::engine::geometry::Bits;
use crate::engine::{GenOptions, Move, Position, Rules, Sq};
use std::io::BufRead;
use std::sync::mpsc;

/// A line whose `"` opens a value that it never closes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("unbalanced quote in `{line}`")]
#[diagnostic(code(hub::quote), help("close every `\"` that opens a value"))]
pub struct UnbalancedQuote {
    /// The line, trimmed.
    pub line: String,
}

/// One line of the protocol: the command and its arguments in order (`None` for a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    pub fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// Add `name=value`.
    pub fn arg(mut self, name: &str, value: impl Into<String>) -> Line {
        self.args.push((name.to_string(), Some(value.into())));
        self
    }

    /// Add a flag (`go think`).
    pub fn flag(mut self, name: &str) -> Line {
        self.args.push((name.to_string(), None));
        self
    }

    /// The value of argument `name` (the empty string for a flag).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }

    /// Parse a line; `None` for a blank line. Unbalanced quotes are an error.
    pub fn parse(text: &str) -> Result<Option<Line>, UnbalancedQuote> {
        let words = split_words(text)?;
        let mut it = words.into_iter();
        let Some((command, _)) = it.next() else {
            return Ok(None);
        };
        let args = it
            .map(
                |(w, quoted_value)| match (w.split_once('='), quoted_value) {
                    (_, Some(v)) => (w.trim_end_matches('=').to_string(), Some(v)),
                    (Some((n, v)), None) => (n.to_string(), Some(v.to_string())),
                    (None, None) => (w, None),
                },
            )
            .collect();
        Ok(Some(Line { command, args }))
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.command)?;
        for (n, v) in &self.args {
            match v {
                None => write!(f, " {n}")?,
                Some(v) => write!(f, " {n}={}", quote(v))?,
            }
        }
        Ok(())
    }
}

/// A value as the protocol writes it: quoted when it is empty or holds a space, `=` or `"`.
pub fn quote(v: &str) -> String {
    if v.is_empty() || v.contains([' ', '\t', '=', '"']) {
        format!("\"{}\"", v.replace('"', "'"))
    } else {
        v.to_string()
    }
}

/// Words separated by blanks; `name="a b"` keeps its quoted value apart (second field), so a value
/// may hold `=`.
fn split_words(text: &str) -> Result<Vec<(String, Option<String>)>, UnbalancedQuote> {
    let mut out = Vec::new();
    let mut chars = text.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        let mut value: Option<String> = None;
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            chars.next();
            if c == '"' {
                let mut v = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    v.push(c);
                }
                if !closed {
                    return Err(UnbalancedQuote {
                        line: text.trim().to_string(),
                    });
                }
                if word.ends_with('=') {
                    value = Some(v);
                } else {
                    word.push_str(&v);
                }
            } else {
                word.push(c);
            }
        }
        out.push((word, value));
    }
    Ok(out)
}

/// Split a command line into words, `"…"` grouping words with blanks (for `cmd=` of an engine).
pub fn split_command(text: &str) -> Result<Vec<String>, UnbalancedQuote> {
    Ok(split_words(text)?
        .into_iter()
        .map(|(w, v)| match v {
            Some(v) => format!("{w}{v}"),
            None => w,
        })
        .collect())
}

/// The lines of a GUI's input, read on a thread of their own (so that a search can be stopped
/// while the engine waits for input); the channel ends with the input.
pub fn read_lines(mut input: Box<dyn BufRead + Send>) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut buf = String::new();
        loop {
            buf.clear();
            match input.read_line(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(buf.clone()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Why a Hub position or move does not fit the variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error(
        "{title} has {kinds} kinds of piece; a Hub position has letters for two (men and kings)"
    )]
    Kinds { title: String, kinds: usize },
    #[error("the position `{text}` has {given} squares but {title} has {squares} (a board of {width}x{height})")]
    Squares {
        text: String,
        given: usize,
        title: String,
        squares: usize,
        width: usize,
        height: usize,
    },
    #[error("the position starts with `{0}`: give `W` or `B`, the side to move")]
    Turn(char),
    #[error("the position has `{letter}` at square {square}: give w, b, W, B or e")]
    Letter { letter: char, square: usize },
    #[error("{0} has no kings")]
    NoKings(String),
    #[error(transparent)]
    Routes(#[from] crate::engine::TooManyRoutes),
    #[error("`{text}` is not a move: `{part}` is not a square")]
    NotASquare { text: String, part: String },
    #[error("`{0}` is not a move")]
    NotAMove(String),
    #[error("`{0}` is not a legal move here")]
    Illegal(String),
}

/// The letters of a position: the side to move, then every playable square in numbering order.
/// Only variants with at most two kinds of piece (men and kings) have letters for every piece.
pub fn position_to_hub(rules: &Rules, pos: &Position) -> Result<String, Refusal> {
    if rules.kinds > 2 {
        return Err(Refusal::Kinds {
            title: rules.spec.title.clone(),
            kinds: rules.kinds,
        });
    }
    let mut s = String::with_capacity(rules.geo.numbered.len() + 1);
    s.push(if pos.turn() == 0 { 'W' } else { 'B' });
    for &sq in &rules.geo.numbered {
        s.push(match pos.at(sq) {
            None => 'e',
            Some((0, 0)) => 'w',
            Some((1, 0)) => 'b',
            Some((0, _)) => 'W',
            Some(_) => 'B',
        });
    }
    Ok(s)
}

/// Read a Hub position for these rules: it must have one letter per playable square.
pub fn position_from_hub(rules: &Rules, text: &str) -> Result<Position, Refusal> {
    let squares = rules.geo.numbered.len();
    let letters: Vec<char> = text.chars().collect();
    if letters.len() != squares + 1 {
        return Err(Refusal::Squares {
            text: text.to_string(),
            given: letters.len().saturating_sub(1),
            title: rules.spec.title.clone(),
            squares,
            width: rules.geo.width as usize,
            height: rules.geo.height as usize,
        });
    }
    let turn = match letters[0] {
        'W' | 'w' => 0,
        'B' | 'b' => 1,
        c => return Err(Refusal::Turn(c)),
    };
    let mut pos = Position::empty(turn);
    for (i, &c) in letters[1..].iter().enumerate() {
        let sq = rules.geo.numbered[i];
        let (side, kind) = match c {
            'e' | 'E' | '.' => continue,
            'w' => (0, 0),
            'b' => (1, 0),
            'W' => (0, 1),
            'B' => (1, 1),
            c => {
                return Err(Refusal::Letter {
                    letter: c,
                    square: i + 1,
                })
            }
        };
        if kind >= rules.kinds {
            return Err(Refusal::NoKings(rules.spec.title.clone()));
        }
        pos.put(sq, side, kind);
    }
    Ok(pos)
}

/// A move in Hub notation: `from-to`, or `fromxto` then `x` and each captured square in numbering
/// order.
pub fn move_to_hub(rules: &Rules, mv: &Move) -> String {
    let geo = &rules.geo;
    if !mv.is_capture() {
        return format!("{}-{}", geo.name(mv.from), geo.name(mv.to));
    }
    let mut caps: Vec<_> = BitIter(mv.captured).collect();
    caps.sort_by_key(|&sq| geo.number[sq as usize]);
    let mut s = format!("{}x{}", geo.name(mv.from), geo.name(mv.to));
    for sq in caps {
        s.push('x');
        s.push_str(&geo.name(sq));
    }
    s
}

/// The legal move of `pos` that a Hub move names (origin, destination and the set of captured
/// squares; the route does not matter), or why none does.
pub fn move_from_hub(rules: &Rules, pos: &Position, text: &str) -> Result<Move, Refusal> {
    let mut legal = Vec::new();
    rules.try_generate(pos, &mut legal, GenOptions::default())?;
    move_among(rules, &legal, text)
}

/// A Hub move text read: origin, destination and, when listed, the captured squares (as a set:
/// their order does not matter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HubMove {
    pub from: Sq,
    pub to: Sq,
    /// Whether the text is a capture (`x` or `:`).
    pub capture: bool,
    /// The captured squares, when the text lists them.
    pub captured: Option<Bits>,
}

impl HubMove {
    /// Read `from-to` or `fromxto[xcaptured…]`.
    pub fn read(rules: &Rules, text: &str) -> Result<HubMove, Refusal> {
        let geo = &rules.geo;
        let capture = text.contains(['x', 'X', ':']);
        let mut squares = Vec::new();
        for part in text.split(['-', 'x', 'X', ':']) {
            match geo.parse(part.trim()) {
                Some(sq) => squares.push(sq),
                None => {
                    return Err(Refusal::NotASquare {
                        text: text.to_string(),
                        part: part.to_string(),
                    })
                }
            }
        }
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(Refusal::NotAMove(text.to_string()));
        }
        let captured = (squares.len() > 2).then(|| {
            squares[2..]
                .iter()
                .fold(Bits::ZERO, |caps, &sq| caps | Bits::bit(sq))
        });
        Ok(HubMove {
            from: squares[0],
            to: squares[1],
            capture,
            captured,
        })
    }

    /// Whether the legal move `m` is one this text names.
    pub fn names(&self, m: &Move) -> bool {
        m.from == self.from
            && m.to == self.to
            && m.is_capture() == self.capture
            && self.captured.is_none_or(|c| m.captured == c)
    }
}

/// [`move_from_hub`] among the given legal moves.
pub fn move_among(rules: &Rules, legal: &[Move], text: &str) -> Result<Move, Refusal> {
    let hub = HubMove::read(rules, text)?;
    legal
        .iter()
        .find(|m| hub.names(m))
        .copied()
        .ok_or_else(|| Refusal::Illegal(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let l = Line::parse(r#"info depth=3 pv="32-28 17-22" mean-depth=2.5 flag"#)
            .unwrap()
            .unwrap();
        assert_eq!(l.command, "info");
        assert_eq!(l.get("pv"), Some("32-28 17-22"));
        assert_eq!(l.get("flag"), Some(""));
        assert!(l.get("nodes").is_none());
        let again = Line::parse(&l.to_string()).unwrap().unwrap();
        assert_eq!(again, l);
        assert!(Line::parse("  ").unwrap().is_none());
        assert!(Line::parse("id name=\"open").is_err());
        assert_eq!(
            Line::new("id").arg("author", "").to_string(),
            "id author=\"\""
        );
    }

    #[test]
    fn commands_split_with_quotes() {
        assert_eq!(
            split_command(r#"damelab hub "my dir/x.rules""#).unwrap(),
            vec!["damelab", "hub", "my dir/x.rules"]
        );
    }
}
