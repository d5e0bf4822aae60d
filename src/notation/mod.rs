//! Text forms of positions and moves: the FEN (docs/notation.md) and move notation (`c3-c4`, `c3xe5xc7`,
//! `32-28`), both printed and parsed, with diagnostics that point into the text.

mod fen;
mod movetext;

pub use fen::{parse_fen, to_fen};
pub use movetext::{move_to_string, parse_move};

use miette::{Diagnostic, NamedSource, SourceSpan};

/// A position or move text that could not be read: what was wrong, where, and a hint.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct InputError {
    pub message: String,
    #[source_code]
    pub src: NamedSource<String>,
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
        Box::new(InputError {
            message: message.into(),
            src: NamedSource::new(what, input.to_string()),
            span: SourceSpan::new(span.0.into(), span.1),
            label: label.into(),
            help,
        })
    }
}
