//! Text → syntax tree: runs the pest grammar (`grammar/rules.pest`); after a syntax error it
//! blanks the broken clause or statement and parses again, so one run reports every error.
//! The pairs → [`ast`](super::ast) nodes step is `tree`, the wording of pest's failures is
//! `syntax`, and the grammar rules' names in messages are `symbols`.

use pest::error::InputLocation;
use pest::Parser;
use pest_derive::Parser;

use super::ast::*;
use super::error::RuleError;

mod symbols;
mod syntax;
mod tree;

use syntax::{incomplete_statement, syntax_error};
use tree::build;

#[derive(Parser)]
#[grammar = "../grammar/rules.pest"]
struct RulesParser;

/// The most syntax errors reported for one file.
const MAX_SYNTAX_ERRORS: usize = 20;

/// Parse a rules file into its syntax tree, or every syntax error in it: after an error the parser
/// starts again at the next clause line or statement (the broken text is blanked out, so spans
/// stay those of the file).
pub fn parse(source: &str) -> Result<RulesFile, Vec<RuleError>> {
    let mut text = source.to_string();
    let mut errors: Vec<RuleError> = Vec::new();
    // Where the last blanked region ends, and the statement start of the last error.
    let mut last: Option<(usize, usize)> = None;
    for _ in 0..MAX_SYNTAX_ERRORS * 3 {
        let err = match RulesParser::parse(Rule::file, &text) {
            Ok(pairs) if errors.is_empty() => return Ok(build(pairs, source)),
            Ok(_) => return Err(errors),
            Err(mut e) => {
                syntax::drop_quiet_alternatives(&mut e);
                e
            }
        };
        let pos = match err.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
        // An error right after the text blanked for the previous one comes of the blanking (a
        // statement cut short): blank that whole statement instead, and say nothing more.
        if let Some((end, stmt)) = last {
            if next_token(&text, end) >= pos {
                let stop = statement_end(&text, end);
                if stop <= stmt || !blank(&mut text, stmt, stop) {
                    break;
                }
                last = None;
                continue;
            }
        }
        // A statement cut short before the next one: report it once, at its end, and blank it
        // alone; the next statement is not wrong and is parsed as written.
        if let Some((e, short)) = incomplete_statement(&text, pos, &err.variant) {
            errors.push(e);
            if errors.len() == MAX_SYNTAX_ERRORS || !blank(&mut text, short.start, short.end) {
                break;
            }
            last = None;
            continue;
        }
        let e = syntax_error(&text, err);
        let at = error_start(&e).min(pos);
        errors.push(e);
        if errors.len() == MAX_SYNTAX_ERRORS {
            break;
        }
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let stmt = statement_start(&text, at);
        let indented = text[line_start..at].trim().is_empty() && line_start != stmt;
        let end = if line_start == at && !indented {
            // A whole statement line is wrong: the statement goes, with its clause lines.
            statement_end(&text, at)
        } else {
            line_end(&text, at)
        };
        let from = if indented { line_start } else { at };
        if !blank(&mut text, from, end) {
            break;
        }
        last = Some((end, stmt));
    }
    if errors.is_empty() {
        // Only cascades were seen: cannot happen with a first error, kept for safety.
        errors.push(RuleError::Syntax {
            expected: "a statement".to_string(),
            found: "text that does not parse".to_string(),
            label: "here".to_string(),
            span: Span::new(0, 0).into(),
            help: Some("check the file against docs/language.md".to_string()),
        });
    }
    Err(errors)
}

/// The byte offset where an error's span starts.
fn error_start(e: &RuleError) -> usize {
    use miette::Diagnostic;
    e.labels()
        .and_then(|mut l| l.next())
        .map_or(usize::MAX, |l| l.offset())
}

/// Blank `text[from..to]` with spaces, keeping line breaks (and so every offset). False when there
/// was nothing left to blank.
fn blank(text: &mut String, from: usize, to: usize) -> bool {
    let to = to.min(text.len());
    if from >= to || text[from..to].trim().is_empty() {
        return false;
    }
    let blanked: String = text[from..to]
        .chars()
        .map(|c| {
            if c == '\n' {
                "\n".to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect();
    text.replace_range(from..to, &blanked);
    true
}

fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i)
}

/// The first offset from `at` that is neither whitespace nor inside a comment.
fn next_token(text: &str, mut at: usize) -> usize {
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with('#') {
            at = line_end(text, at);
        } else {
            return at;
        }
    }
}

/// Whether a line starts a statement: it is not indented, and not blank or a comment.
fn starts_statement(line: &str) -> bool {
    line.starts_with(|c: char| !c.is_whitespace() && c != '#')
}

/// The start of the statement holding `at`: the last unindented line at or before it.
fn statement_start(text: &str, at: usize) -> usize {
    let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    while start > 0 && !starts_statement(&text[start..]) {
        start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    start
}

/// The end of the statement holding `at`: the next unindented line after it (or the end).
fn statement_end(text: &str, at: usize) -> usize {
    let mut pos = line_end(text, at);
    while pos < text.len() {
        let next = pos + 1;
        if starts_statement(&text[next..]) {
            return next;
        }
        pos = line_end(text, next);
    }
    text.len()
}
