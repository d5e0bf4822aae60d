//! `--bless`: fill in the expectations a case leaves blank (and, with `--force`, replace those that
//! fail) by editing the case file's text in place, so its comments and layout stay as written.
//! Only the replaced `key: value` entry is rewritten; a comment inside it is lost.

use super::load::{find_key_entry, LoadedCase};
use super::{CaseRun, Expect};
use std::ops::Range;

/// A replacement of part of the text.
#[derive(Clone, Debug)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// What blessing one case does: the edits, the keys they fill, and keys it could not write.
#[derive(Debug, Default)]
pub struct CaseBless {
    pub edits: Vec<Edit>,
    pub filled: Vec<&'static str>,
    pub errors: Vec<String>,
}

/// Work out the edits that bless one case. Blank expectations are filled; an expectation that is
/// written and fails is replaced only with `force`.
pub fn bless_case(text: &str, lc: &LoadedCase, run: &CaseRun, force: bool) -> CaseBless {
    let mut out = CaseBless::default();
    let Some(actual) = &run.actual else {
        return out;
    };
    let case = &lc.case;
    let wants = |key: &str| {
        run.failures
            .iter()
            .any(|f| f.key == key && (f.blank || force))
    };
    let mut set = |key: &'static str, value: &dyn Fn(usize) -> String| match find_key_entry(
        text,
        lc.range.clone(),
        key,
        None,
    ) {
        Some(range) => {
            let mut range = without_comment(text, range);
            let col = column(text, range.start);
            let mut new = format!("{key}:{}", value(col));
            // A kept comment stays in its column when the new value leaves room, else follows
            // it after two spaces.
            let rest = &text[range.end..];
            let line_rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
            if line_rest.trim_start().starts_with('#') {
                let hash = range.end + (line_rest.len() - line_rest.trim_start().len());
                let hash_col = column(text, hash);
                let width = match new.rfind('\n') {
                    Some(i) => new[i + 1..].chars().count(),
                    None => col + new.chars().count(),
                };
                let pad = if width + 1 < hash_col {
                    hash_col - width
                } else {
                    2
                };
                new.push_str(&" ".repeat(pad));
                range.end = hash;
            }
            out.edits.push(Edit { range, text: new });
            out.filled.push(key);
        }
        None => out.errors.push(format!(
            "cannot find `{key}:` in the text of case `{}`; write the case one key a line \
                 to bless it",
            case.name
        )),
    };
    if wants("perft") {
        if let (Some(_), Some(got)) = (&case.perft, &actual.perft) {
            let list: Vec<String> = got.iter().map(u64::to_string).collect();
            // Figures stay numbers: they are written as they are, not quoted.
            set("perft", &|col| {
                format!(" {}", flow_list(&list, col + "perft: ".len()))
            });
        }
    }
    if wants("moves") {
        let list: Vec<String> = actual.moves.iter().map(|m| key(m)).collect();
        set("moves", &|col| {
            format!(" {}", flow_list(&list, col + "moves: ".len()))
        });
    }
    if wants("position") {
        set("position", &|_| format!(" {}", quote(&actual.fen)));
    }
    if wants("result") {
        set("result", &|_| format!(" {}", quote(&actual.result)));
    }
    if wants("explain") {
        let entries: Vec<(String, String)> = case
            .explain
            .iter()
            .map(|(m, want)| {
                let got = actual
                    .explain
                    .iter()
                    .find(|e| e.move_text == *m)
                    .map(|e| e.text.clone());
                let text = match (want, got) {
                    (Expect::Given(w), _) if !force => w.clone(),
                    (_, Some(g)) => g,
                    (Expect::Given(w), None) => w.clone(),
                    (Expect::Blank, None) => String::new(),
                };
                (m.clone(), text)
            })
            .collect();
        set("explain", &|col| {
            let mut s = String::new();
            for (m, t) in &entries {
                let v = if t.is_empty() {
                    "~".to_string()
                } else {
                    quote(t)
                };
                s.push_str(&format!("\n{}{}: {v}", " ".repeat(col + 2), key(m)));
            }
            s
        });
    }
    out
}

/// A one-line entry keeps its trailing comment (`perft: 3   # to depth 3`): the range stops before
/// it.
fn without_comment(text: &str, range: Range<usize>) -> Range<usize> {
    let entry = &text[range.clone()];
    if entry.contains('\n') {
        return range;
    }
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in entry.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q && !(q == '"' && prev == '\\') => quote = None,
            (None, '#') if prev == ' ' || prev == '\t' => {
                let value_end = entry[..i].trim_end().len();
                return range.start..range.start + value_end;
            }
            _ => {}
        }
        prev = c;
    }
    range
}

/// Apply edits (which do not overlap) to `text`.
pub fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
    let mut s = text.to_string();
    for e in edits {
        s.replace_range(e.range, &e.text);
    }
    s
}

fn column(text: &str, at: usize) -> usize {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at].chars().count()
}

/// `[a, b, c]` of items already written as YAML, wrapped before 100 columns with continuation
/// lines aligned after the `[`.
fn flow_list(items: &[String], col: usize) -> String {
    let mut s = String::from("[");
    let mut width = col + 1;
    for (i, it) in items.iter().enumerate() {
        let item = it;
        let piece = if i + 1 < items.len() {
            format!("{item}, ")
        } else {
            format!("{item}]")
        };
        if width + piece.trim_end().len() > 100 && i > 0 {
            s.truncate(s.trim_end().len());
            s.push('\n');
            s.push_str(&" ".repeat(col + 1));
            width = col + 1;
        }
        width += piece.len();
        s.push_str(&piece);
    }
    if items.is_empty() {
        s.push(']');
    }
    s
}

/// Text that reads back as the same string when written plain, in a flow list or as a key.
fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && !s.chars().all(|c| c.is_ascii_digit())
}

fn key(s: &str) -> String {
    if plain(s) {
        s.to_string()
    } else {
        quote(s)
    }
}

/// A YAML double-quoted scalar.
fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            c if c.is_control() => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_lists() {
        let items: Vec<String> = (0..30).map(|i| format!("a{i}-b{i}")).collect();
        let s = flow_list(&items, 11);
        let first = s.lines().next().unwrap_or("");
        assert!(first.len() + 11 <= 100);
        assert!(s.lines().skip(1).all(|l| l.len() <= 100));
        assert!(s.lines().count() > 1);
        assert!(s.lines().skip(1).all(|l| l.starts_with(&" ".repeat(12))));
        assert_eq!(flow_list(&[], 4), "[]");
        let t = "  perft: 3   # depth\n  result: \"a # b\"  # c\n";
        let r = without_comment(t, 2..t.find('\n').unwrap_or(0));
        assert_eq!(&t[r], "perft: 3");
        let start = t.find("result").unwrap_or(0);
        let r = without_comment(t, start..t.len() - 1);
        assert_eq!(&t[r], "result: \"a # b\"");
        assert_eq!(quote("a \"b\""), "\"a \\\"b\\\"\"");
    }
}
