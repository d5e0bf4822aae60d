//! Reading a case file's text: the cases with where each one is written, so errors point at the
//! line in the YAML file and `--bless` can edit the text in place; a case that does not read does
//! not stop the others.

use super::{Case, CaseFile, Problem};
use miette::{NamedSource, SourceSpan};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::ops::Range;
use std::sync::Arc;

/// An error in a case file, pointing at the offending text: the same shape as a FEN or move
/// error, so it is the same type.
pub use crate::notation::InputError as CaseFileError;

/// A case file as read: its variant, each case with the byte range of its text, and the cases
/// that could not be read.
#[derive(Debug)]
pub struct LoadedFile {
    pub name: String,
    pub text: String,
    pub variant: String,
    /// Byte range of the `variant:` value, for errors about it.
    pub variant_span: Range<usize>,
    pub cases: Vec<LoadedCase>,
    /// The text again, shared by every diagnostic about this file (one copy, however many).
    pub shared: Arc<str>,
    /// Cases that do not read: the case's name when it can be found, and the error.
    pub errors: Vec<(Option<String>, CaseFileError)>,
}

#[derive(Debug)]
pub struct LoadedCase {
    pub case: Case,
    /// The case's lines in the file's text; the whole text when the file's layout is not the
    /// block style this reader understands.
    pub range: Range<usize>,
}

/// The top level alone, so a bad case does not hide the variant and the other cases.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    variant: String,
    cases: Vec<IgnoredAny>,
}

const CASE_KEYS: &[&str] = &[
    "name",
    "rule",
    "fen",
    "play",
    "keep_duplicates",
    "perft",
    "moves",
    "contains",
    "excludes",
    "position",
    "result",
    "explain",
];

/// Read a case file's text. `Err` when not even the top level (`variant`, `cases`) reads.
pub fn load(name: &str, text: &str) -> Result<LoadedFile, Box<CaseFileError>> {
    let shared: Arc<str> = Arc::from(text);
    let max = super::nesting::MAX_YAML_DEPTH;
    if let Some(at) = super::nesting::too_deep(text, max) {
        return Err(Box::new(error_at(
            name,
            &shared,
            at..at + 1,
            format!("the file nests deeper than {max} levels"),
            "too deep".into(),
            Some("a case file needs a few levels: `cases:`, a case, its lists".into()),
        )));
    }
    let header: Header =
        serde_yaml::from_str(text).map_err(|e| Box::new(yaml_error(name, &shared, 0, &e)))?;
    let ranges = case_ranges(text);
    let variant_span =
        find_key_value(text, 0..text.len(), "variant", Some(0)).unwrap_or(0..text.len().min(1));
    let mut file = LoadedFile {
        name: name.to_string(),
        text: text.to_string(),
        variant: header.variant,
        variant_span,
        cases: Vec::new(),
        shared: shared.clone(),
        errors: Vec::new(),
    };
    let whole = serde_yaml::from_str::<CaseFile>(text);
    let layout_known = ranges.len() == header.cases.len();
    match whole {
        Ok(f) => {
            for (i, case) in f.cases.into_iter().enumerate() {
                let range = if layout_known {
                    ranges[i].clone()
                } else {
                    0..text.len()
                };
                file.cases.push(LoadedCase { case, range });
            }
        }
        Err(e) if !layout_known => file.errors.push((None, yaml_error(name, &shared, 0, &e))),
        Err(_) => {
            // Read each case on its own, so one bad case is reported and the others run.
            let mut whole: Option<Option<serde_yaml::Value>> = None;
            for (i, range) in ranges.into_iter().enumerate() {
                let alone = serde_yaml::from_str::<Vec<Case>>(&text[range.clone()]);
                let alone = match alone {
                    Err(e) if e.to_string().starts_with("unknown anchor") => {
                        // An alias of an anchor in another case: read the case from the whole
                        // document, where the anchor is known.
                        let doc = whole.get_or_insert_with(|| serde_yaml::from_str(text).ok());
                        match case_from_document(doc.as_ref(), i) {
                            Some(case) => Ok(vec![case]),
                            None => Err(e),
                        }
                    }
                    other => other,
                };
                match alone {
                    Ok(mut v) if v.len() == 1 => file.cases.push(LoadedCase {
                        case: v.remove(0),
                        range,
                    }),
                    Ok(_) => file.errors.push((
                        None,
                        error_at(
                            name,
                            &shared,
                            range.start..range.start + 1,
                            "cannot read this case on its own".into(),
                            "this case".into(),
                            None,
                        ),
                    )),
                    Err(e) => {
                        let case_name = find_key_value(text, range.clone(), "name", None)
                            .map(|v| text[v].trim().trim_matches(['"', '\'']).to_string());
                        let mut err = yaml_error(name, &shared, range.start, &e);
                        // The case was read on its own, as item 0 of a list: name it instead.
                        let who = match &case_name {
                            Some(n) => format!("case `{n}`"),
                            None => "a case".to_string(),
                        };
                        if let Some(rest) = err.message.strip_prefix(".[0].") {
                            err.message = format!("{who}, {rest}");
                        } else if let Some(rest) = err.message.strip_prefix(".[0]: ") {
                            err.message = format!("{who}: {rest}");
                        }
                        file.errors.push((case_name, err));
                    }
                }
            }
        }
    }
    Ok(file)
}

/// Case `i` of a whole document read as plain YAML (aliases resolved).
fn case_from_document(doc: Option<&serde_yaml::Value>, i: usize) -> Option<Case> {
    let case = doc?.get("cases")?.get(i)?.clone();
    serde_yaml::from_value(case).ok()
}

impl LoadedFile {
    /// A diagnostic for a case's unreadable input, pointing at the string in the YAML text.
    pub fn problem(&self, case: &LoadedCase, p: &Problem) -> CaseFileError {
        let inner = &p.error;
        let found = find_key_value(&self.text, case.range.clone(), p.key, None).and_then(|v| {
            let from = v.start;
            let within = &self.text[from..case.range.end];
            within.find(p.text.as_str()).map(|i| from + i)
        });
        let span = match found {
            Some(at) => {
                let off = inner.span.offset().min(p.text.len());
                at + off..at + off + inner.span.len().max(1)
            }
            None => case.range.start..case.range.start + 1,
        };
        error_at(
            &self.name,
            &self.shared,
            span,
            format!("case `{}`: {}", case.case.name, inner.message),
            inner.label.clone(),
            inner.help.clone(),
        )
    }

    /// A diagnostic pointing at the `variant:` value.
    pub fn variant_error(&self, message: String, help: Option<String>) -> CaseFileError {
        error_at(
            &self.name,
            &self.shared,
            self.variant_span.clone(),
            message,
            "this variant".into(),
            help,
        )
    }
}

fn error_at(
    name: &str,
    text: &Arc<str>,
    span: Range<usize>,
    message: String,
    label: String,
    help: Option<String>,
) -> CaseFileError {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    CaseFileError {
        message,
        src: NamedSource::new(name, text.clone()),
        span: SourceSpan::new(start.into(), end - start),
        label,
        help,
    }
}

/// A serde_yaml error as a diagnostic; `base` is where the text it read starts in the file.
fn yaml_error(name: &str, text: &Arc<str>, base: usize, e: &serde_yaml::Error) -> CaseFileError {
    let full = e.to_string();
    // serde_yaml appends " at line L column C"; the diagnostic shows the place instead.
    let message = match full.find(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full.clone(),
    };
    let at = e
        .location()
        .map(|l| base + offset_of(&text[base..], l.line(), l.column()))
        .unwrap_or(base);
    let word_end = text[at..]
        .find(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .map_or(text.len(), |i| at + i);
    let span = at..word_end.max(at + 1);
    let help = unknown_field_help(&message);
    // The help lists the keys; the message need not.
    let message = match (&help, message.find(", expected one of")) {
        (Some(_), Some(i)) => message[..i].to_string(),
        _ => message,
    };
    let label = if message.contains("unknown field") {
        "unknown key"
    } else {
        "here"
    };
    error_at(name, text, span, message, label.into(), help)
}

fn unknown_field_help(message: &str) -> Option<String> {
    let rest = message.split("unknown field `").nth(1)?;
    let field = rest.split('`').next()?;
    let keys: Vec<&str> = if message.contains("`variant`") {
        vec!["variant", "cases"]
    } else {
        CASE_KEYS.to_vec()
    };
    Some(match crate::util::closest(field, keys.iter().copied()) {
        Some(c) => format!("did you mean `{c}`? the keys are: {}", keys.join(", ")),
        None => format!("the keys are: {}", keys.join(", ")),
    })
}

/// Byte offset of a 1-based line and column (in characters).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_text = &text[start..];
    start
        + line_text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(line_text.len(), |(i, _)| i)
}

/// Lines of `text` as (start byte, line without its newline).
pub(crate) fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        out.push((at, l.trim_end_matches(['\n', '\r'])));
        at += l.len();
    }
    out
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The byte range of each item of the top-level `cases:` block sequence, written in block style
/// (`- name: …` lines). Empty when the file uses another layout.
pub fn case_ranges(text: &str) -> Vec<Range<usize>> {
    let lines = lines(text);
    let Some(head) = lines.iter().position(|(_, l)| {
        l.starts_with("cases:") && l["cases:".len()..].trim().split('#').next() == Some("")
    }) else {
        return Vec::new();
    };
    let mut dash: Option<usize> = None;
    let mut starts = Vec::new();
    let mut end = text.len();
    for &(at, l) in &lines[head + 1..] {
        if is_blank_or_comment(l) {
            continue;
        }
        let ind = indent(l);
        let item = l.trim_start().starts_with("- ") || l.trim() == "-";
        match dash {
            None if item => {
                dash = Some(ind);
                starts.push(at);
            }
            Some(d) if ind == d && item => starts.push(at),
            Some(d) if ind > d => {}
            _ => {
                end = at;
                break;
            }
        }
    }
    let mut ranges = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(end);
        ranges.push(s..e);
    }
    ranges
}

/// The indentation of a case's keys: the column after its `- `.
pub(crate) fn key_indent(text: &str, range: &Range<usize>) -> Option<usize> {
    let lines = lines(&text[range.clone()]);
    let (_, first) = lines.first()?;
    let after = first.trim_start().strip_prefix('-')?;
    if after.trim().is_empty() {
        return lines
            .iter()
            .skip(1)
            .find(|(_, l)| !is_blank_or_comment(l))
            .map(|(_, l)| indent(l));
    }
    Some(indent(first) + 1 + (after.len() - after.trim_start().len()))
}

/// The byte range of `key`'s whole entry (`key: value` and the value's continuation lines) among
/// the keys at `indent` within `range` (`None`: the indentation of the case at `range`).
pub(crate) fn find_key_entry(
    text: &str,
    range: Range<usize>,
    key: &str,
    at_indent: Option<usize>,
) -> Option<Range<usize>> {
    let ind = match at_indent {
        Some(i) => i,
        None => key_indent(text, &range)?,
    };
    let ls = lines(&text[range.clone()]);
    let prefix = format!("{key}:");
    for (i, &(at, l)) in ls.iter().enumerate() {
        if l.len() < ind || !l.is_char_boundary(ind) {
            continue;
        }
        let rest = &l[ind..];
        let head_ok = l[..ind].chars().all(|c| c == ' ' || c == '-');
        if !head_ok || !rest.starts_with(&prefix) {
            continue;
        }
        let after = &rest[prefix.len()..];
        if !(after.is_empty() || after.starts_with(' ')) {
            continue;
        }
        let start = range.start + at + ind;
        let mut end = range.start + at + l.len();
        for &(at2, l2) in &ls[i + 1..] {
            if is_blank_or_comment(l2) {
                continue;
            }
            let i2 = indent(l2);
            if i2 > ind || (i2 == ind && l2.trim_start().starts_with("- ")) {
                end = range.start + at2 + l2.len();
            } else {
                break;
            }
        }
        return Some(start..end);
    }
    None
}

/// The byte range of `key`'s value (after `key:`), see [`find_key_entry`].
pub(crate) fn find_key_value(
    text: &str,
    range: Range<usize>,
    key: &str,
    indent: Option<usize>,
) -> Option<Range<usize>> {
    let entry = find_key_entry(text, range, key, indent)?;
    let v = entry.start + key.len() + 1;
    let lead = text[v..entry.end].len() - text[v..entry.end].trim_start().len();
    Some((v + lead).min(entry.end)..entry.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "variant: turkish\ncases:\n- name: a\n  moves:\n  - d4-c4\n  # note\n  result: ~\n-\n  name: b\n  perft: 3  # depth\nother: 1\n";

    #[test]
    fn finds_cases_and_keys_in_block_style() {
        let r = case_ranges(TEXT);
        assert_eq!(r.len(), 2);
        assert!(TEXT[r[0].clone()].starts_with("- name: a"));
        assert!(TEXT[r[1].clone()].starts_with("-\n  name: b"));
        assert!(!TEXT[r[1].clone()].contains("other"));
        let moves = find_key_entry(TEXT, r[0].clone(), "moves", None).map(|m| &TEXT[m]);
        assert_eq!(moves, Some("moves:\n  - d4-c4"));
        let perft = find_key_value(TEXT, r[1].clone(), "perft", None).map(|m| &TEXT[m]);
        assert_eq!(perft, Some("3  # depth"));
        assert_eq!(find_key_entry(TEXT, r[1].clone(), "moves", None), None);
    }

    #[test]
    fn locates_serde_errors() {
        assert_eq!(offset_of("ab\ncd\n", 2, 2), 4);
        assert_eq!(offset_of("ab", 9, 1), 2);
        let e = load(
            "t.yaml",
            "variant: turkish\ncases:\n  - name: x\n    mvoes: ~\n",
        )
        .expect("the top level reads");
        assert_eq!(e.errors.len(), 1);
        assert_eq!(
            e.errors[0].1.span.offset(),
            "variant: turkish\ncases:\n  - name: x\n    ".len()
        );
    }
}
