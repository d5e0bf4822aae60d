//! The one-game-a-line format of a public archive of English checkers games: `moves<TAB>result`,
//! moves as `a-b` or `a-b-c` over squares 0-31 numbered as the first mover sees the board, which
//! is square `4*(i/4) + 4 - i%4` of the standard numbering. Each line becomes a [`PdnGame`].

use super::{Loc, PdnError, PdnGame, Token};

/// The standard square number (1-32) of the archive's square `i` (0-31).
fn standard(i: u32) -> u32 {
    4 * (i / 4) + 4 - i % 4
}

/// Read every line of the archive's text as a game; a line's errors stay in its game.
pub fn read_acf(bytes: &[u8]) -> Vec<PdnGame> {
    let mut games = Vec::new();
    for (n, raw) in bytes.split(|&c| c == b'\n').enumerate() {
        let line = n + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let mut g = PdnGame {
            loc: Loc { line, col: 1 },
            ..PdnGame::default()
        };
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                g.errors.push(PdnError {
                    loc: Loc {
                        line,
                        col: 1 + e.valid_up_to(),
                    },
                    message: "a byte that is not UTF-8".into(),
                });
                games.push(g);
                continue;
            }
        };
        let (moves, result) = match text.split_once('\t') {
            Some((m, r)) => (m, Some(r.trim())),
            None => (text, None),
        };
        match result {
            Some(r) if super::RESULTS.contains(&r) => {
                g.result = Some(r.to_string());
                g.tags.push(("Result".into(), r.to_string()));
            }
            _ => g.errors.push(PdnError {
                loc: Loc {
                    line,
                    col: moves.chars().count() + 2,
                },
                message: "no result after a tab at the end of the line".into(),
            }),
        }
        let mut col = 1;
        for word in moves.split(' ') {
            let loc = Loc { line, col };
            col += word.chars().count() + 1;
            if word.is_empty() {
                continue;
            }
            let squares: Option<Vec<u32>> = word
                .split('-')
                .map(|s| s.parse::<u32>().ok().filter(|&i| i < 32).map(standard))
                .collect();
            match squares {
                Some(sq) if sq.len() >= 2 => g.moves.push(Token {
                    text: sq.iter().map(u32::to_string).collect::<Vec<_>>().join("-"),
                    loc,
                    notes: Default::default(),
                }),
                _ => g.errors.push(PdnError {
                    loc,
                    message: format!("`{word}` is not a move of squares 0-31 joined by `-`"),
                }),
            }
        }
        games.push(g);
    }
    games
}

/// Whether a file's first line is `moves<TAB>result` over plain square numbers: the one-game-a-line
/// archive format ([`read_acf`]).
pub fn looks_like_acf(bytes: &[u8]) -> bool {
    let first = bytes
        .split(|&c| c == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace));
    first.is_some_and(|l| {
        l.contains(&b'\t')
            && !l.contains(&b'[')
            && l.iter()
                .all(|c| c.is_ascii_digit() || b"-\t /*\r ".contains(c))
    })
}
