//! Text forms of positions and moves: the FEN (docs/notation.md) and move notation (`c3-c4`, `c3xe5xc7`,
//! `32-28`), both printed and parsed, with diagnostics that point into the text.

mod columns;
mod combat;
mod drops;
mod fen;
mod hand;
mod movetext;

pub use drops::is_drop_text;
pub use fen::{parse_fen, to_fen};
pub(crate) use movetext::split_mark;
pub use movetext::{move_to_string, parse_move};

use miette::{Diagnostic, NamedSource, SourceSpan};
use std::sync::Arc;

/// A position or move text that could not be read: what was wrong, where, and a hint.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct InputError {
    pub message: String,
    /// The text pointed into: shared, so many errors in one file keep one copy of it.
    #[source_code]
    pub src: NamedSource<Arc<str>>,
    #[label("{label}")]
    pub span: SourceSpan,
    pub label: String,
    #[help]
    pub help: Option<String>,
}

impl InputError {
    pub fn new(
        what: &str,
        input: &str,
        span: (usize, usize),
        message: impl Into<String>,
        label: impl Into<String>,
        help: Option<String>,
    ) -> Box<InputError> {
        let (shown, span) = window(input, span);
        Box::new(InputError {
            message: message.into(),
            src: NamedSource::new(what, Arc::from(shown)),
            span: SourceSpan::new(span.0.into(), span.1),
            label: label.into(),
            help,
        })
    }
}

/// The most characters of an input shown around what a diagnostic points at, and the longest
/// underline: the renderer cannot draw lines tens of thousands of columns wide.
const WINDOW: usize = 200;
const MAX_UNDERLINE: usize = 1000;

/// The part of `input` a diagnostic shows, and the span (start, length) moved into it: all of a
/// short input; of a long one, the text around the span, the span cut to [`MAX_UNDERLINE`] bytes.
fn window(input: &str, span: (usize, usize)) -> (&str, (usize, usize)) {
    let start = span.0.min(input.len());
    let len = span.1.min(input.len() - start);
    if input.len() <= 2 * WINDOW + MAX_UNDERLINE {
        return (input, (start, len));
    }
    let floor = |mut i: usize| {
        while !input.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let len = floor(start + len.min(MAX_UNDERLINE)) - start;
    let from = floor(start.saturating_sub(WINDOW));
    let to = floor((start + len + WINDOW).min(input.len()));
    (&input[from..to], (start - from, len))
}

#[cfg(test)]
mod window_tests {
    use super::*;

    #[test]
    fn a_diagnostic_on_a_long_input_shows_a_window_and_renders() {
        let long = format!("W:W{}x", "\t".repeat(30_000));
        let e = InputError::new("FEN", &long, (3, 30_001), "bad", "here", None);
        let mut out = String::new();
        miette::GraphicalReportHandler::new()
            .render_report(&mut out, &*e)
            .expect("renders");
        assert!(out.contains("bad"), "{out}");
        assert!(e.span.len() <= MAX_UNDERLINE);
        let short = InputError::new("FEN", "W:Wz9", (3, 2), "bad", "here", None);
        assert_eq!((short.span.offset(), short.span.len()), (3, 2));
    }
}
