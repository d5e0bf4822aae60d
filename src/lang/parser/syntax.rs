//! pest's failures worded as syntax errors: what was expected and found, a misspelt keyword's
//! likely meaning, and a help line for the common slips.

use pest::error::{ErrorVariant, InputLocation};
use pest::Parser;

use super::symbols::rule_to_symbol;
use super::{starts_statement, statement_start, Rule};
use crate::lang::ast::Span;
use crate::lang::error::RuleError;

pub(super) fn rest_at(source: &str, pos: usize) -> &str {
    source.get(pos..).unwrap_or("")
}

/// "a, b or c"
pub(super) fn join_alternatives(items: &[&str]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// What stands at `pos`: the word there, in backticks, or "end of file".
pub(super) fn found_at(source: &str, pos: usize) -> (String, usize) {
    let rest = source.get(pos..).unwrap_or("");
    let Some(first) = rest.chars().next() else {
        return ("end of file".to_string(), 0);
    };
    let word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let len = if first.is_alphanumeric() {
        rest.find(|c: char| !word_char(c)).unwrap_or(rest.len())
    } else if first == '"' {
        rest[1..]
            .find(['"', '\n'])
            .map(|i| i + 2)
            .unwrap_or(rest.len())
    } else {
        first.len_utf8()
    };
    let text = &rest[..len];
    if text.trim().is_empty() {
        ("a line break".to_string(), len)
    } else {
        (format!("`{text}`"), len)
    }
}

/// Drops from an error the alternatives not worth naming beside others: `cells` may follow every
/// board size, but only a grid of corners and centres wants it.
pub(super) fn drop_quiet_alternatives(err: &mut pest::error::Error<Rule>) {
    if let ErrorVariant::ParsingError { positives, .. } = &mut err.variant {
        if positives.len() > 1 {
            positives.retain(|r| !matches!(r, Rule::cells | Rule::kw_cells));
        }
    }
}

pub(super) fn syntax_error(source: &str, err: pest::error::Error<Rule>) -> RuleError {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let Some(e) = misspelt_statement(source, pos, &err.variant) {
        return e;
    }
    if let Some(e) = unknown_word(source, pos, &err.variant) {
        return e;
    }
    if let Some(e) = range_as_at_most(source, pos, &err.variant) {
        return e;
    }
    let (found, len) = found_at(source, pos);
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            // The specific alternatives first; "a statement" and "end of file" are possible after
            // every complete statement, so they say little and come last (end of file not at all,
            // unless it is the only choice).
            let mut rules: Vec<Rule> = positives.clone();
            rules.sort_by_key(|r| matches!(r, Rule::statement | Rule::EOI));
            if rules.len() > 1 {
                rules.retain(|r| *r != Rule::EOI);
            }
            let mut names: Vec<&str> = Vec::new();
            for rule in rules {
                let name = rule_to_symbol(rule);
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            join_alternatives(&names)
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let help = did_you_mean_word(&expected, source, pos)
        .or_else(|| syntax_help(&err.variant, source, pos))
        .unwrap_or_else(|| {
            let punctuation = ["`,`", "`;`", "`:`", "`..`"]
                .iter()
                .any(|p| expected.starts_with(p));
            let word_found = rest_at(source, pos).starts_with(|c: char| c.is_alphanumeric());
            if expected.len() <= 48 && word_found && !punctuation {
                format!("write {expected} instead of {found}")
            } else if expected.len() <= 48 && found != "end of file" {
                format!("write {expected} before {found}")
            } else {
                forms_help(&expected)
            }
        });
    // A long list of alternatives is already in the message; the label then just points.
    let label = if expected.len() <= 48 {
        format!("expected {expected}")
    } else {
        "unexpected here".to_string()
    };
    RuleError::Syntax {
        expected,
        found,
        label,
        span: Span::new(pos, pos + len).into(),
        help: Some(help),
    }
}

/// The statement keywords, for "did you mean" on a misspelt one.
pub(super) const STATEMENT_KEYWORDS: &[&str] = &[
    "variant", "board", "sides", "piece", "setup", "captures", "game",
];

/// Whether `c` can be part of a word of the rules language (a name, a keyword, a direction).
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The byte at which the last word of `text` starts (the byte after the last character that is
/// not part of a word, which may take several bytes).
fn last_word_start(text: &str) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !is_word(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// A misspelt statement keyword (`bord 8x8`) parses as the name of a moves section and fails at the
/// missing `:`; report it as the unknown word it is.
pub(super) fn misspelt_statement(
    source: &str,
    pos: usize,
    variant: &ErrorVariant<Rule>,
) -> Option<RuleError> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    if positives.as_slice() != [Rule::colon] {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let start = last_word_start(before);
    let word = &before[start..];
    // Only at the start of a line: elsewhere the word may be a real piece name after a slip.
    if !source[..start]
        .trim_end_matches([' ', '\t'])
        .ends_with('\n')
        && start != 0
    {
        return None;
    }
    let keyword = crate::lang::check::did_you_mean(word, STATEMENT_KEYWORDS.iter().copied())?;
    Some(RuleError::Syntax {
        expected: "a statement".to_string(),
        found: format!("`{word}`"),
        label: "not a statement keyword".to_string(),
        span: Span::new(start, start + word.len()).into(),
        help: Some(format!("did you mean `{keyword}`?")),
    })
}

/// The words that start a clause, for naming the clause an unknown word follows.
pub(super) const CLAUSE_WORDS: &[&str] = &[
    "step", "slide", "leap", "capture", "promote", "priority", "draw", "lone",
];

/// A word after a complete clause on the same line (`capture fly diagonal land behind`) parses as
/// the name of a new moves section and fails at the missing `:`; report the word itself.
pub(super) fn unknown_word(
    source: &str,
    pos: usize,
    variant: &ErrorVariant<Rule>,
) -> Option<RuleError> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    if positives.as_slice() != [Rule::colon] {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let start = last_word_start(before);
    let word = &before[start..];
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &source[line_start..start];
    let prefix_trim = prefix.trim_end();
    if word.is_empty() || prefix_trim.trim().is_empty() {
        return None;
    }
    // The clause it follows: from its leading word, or after the last separator.
    let mut clause_at = prefix_trim.rfind([':', ',', ';']).map_or(0, |i| i + 1);
    let mut word_start = None;
    for (i, c) in prefix_trim.char_indices() {
        match (is_word(c), word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(ws)) => {
                if CLAUSE_WORDS.contains(&&prefix_trim[ws..i]) {
                    clause_at = ws;
                }
                word_start = None;
            }
            _ => {}
        }
    }
    if let Some(ws) = word_start {
        if CLAUSE_WORDS.contains(&&prefix_trim[ws..]) {
            clause_at = ws;
        }
    }
    let clause = prefix_trim.get(clause_at..).unwrap_or("").trim();
    if clause.is_empty() {
        return None;
    }
    if let Some(e) = direction_in_two_words(prefix_trim, line_start, word, start) {
        return Some(e);
    }
    let first = clause.split_whitespace().next().unwrap_or("");
    let (what, help) = match first {
        "step" | "leap" => (
            "modifier",
            format!("`{first}` takes directions separated by `,`; start the next clause on a new line or after `,`"),
        ),
        "slide" => (
            "modifier",
            "`slide` takes directions separated by `,`, then optionally `up to <n>`".to_string(),
        ),
        "capture" => (
            "modifier",
            "`capture jump|fly` takes directions separated by `,`; a flying capture may add `up to <n>` and `landing directly behind` (optionally `when the last piece taken is a <piece>`) and `leaping a row of adjacent pieces`; any capture may end with `in one line` (or `in one line, turning at the edge`)".to_string(),
        ),
        "promote" => (
            "modifier",
            "`promote to <piece> on` takes `far rank`, `start of enemy <piece>` or squares separated by `,`".to_string(),
        ),
        _ => (
            "word",
            "separate clauses with `,`; docs/language.md lists every clause".to_string(),
        ),
    };
    let modifiers = ["up", "landing", "directly", "behind"];
    let guess = modifiers
        .iter()
        .find(|m| word.len() >= 3 && m.starts_with(word))
        .copied()
        .or_else(|| crate::lang::check::did_you_mean(word, modifiers.into_iter()));
    let help = match guess {
        Some(k) if first == "capture" || (first == "slide" && k == "up") => {
            format!("did you mean `{k}`? {help}")
        }
        _ => help,
    };
    Some(RuleError::UnknownWord {
        message: format!("unknown {what} `{word}` after `{clause}`; the clause ends here"),
        span: Span::new(start, start + word.len()).into(),
        label: format!("not part of `{first}`"),
        help,
    })
}

/// `step forward diagonal`: the word before `word` and `word` make a direction when joined with
/// `-`, so the writer meant that direction. `prefix` is the line's text before `word`, starting at
/// byte `line_start` of the file; `word` starts at byte `start`.
fn direction_in_two_words(
    prefix: &str,
    line_start: usize,
    word: &str,
    start: usize,
) -> Option<RuleError> {
    let prev_start = last_word_start(prefix);
    let prev = &prefix[prev_start..];
    let joined = format!("{prev}-{word}");
    if prev.is_empty() || !crate::lang::check::is_direction(&joined) {
        return None;
    }
    Some(RuleError::UnknownDirection {
        name: format!("{prev} {word}"),
        span: Span::new(line_start + prev_start, start + word.len()).into(),
        help: format!("did you mean `{joined}`? a direction of two words is written with `-`"),
    })
}

/// `slide diagonal at most 2` reads `at most 2` as the start of the quiet-move limit and fails at
/// the missing `quiet`; after a slide or a flying capture it is a range, written `up to 2`.
pub(super) fn range_as_at_most(
    source: &str,
    pos: usize,
    variant: &ErrorVariant<Rule>,
) -> Option<RuleError> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    if !positives.contains(&Rule::kw_quiet) {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let number_start = before.rfind(|c: char| !c.is_ascii_digit())? + 1;
    let number = &before[number_start..];
    let most = before[..number_start].trim_end().strip_suffix("most")?;
    let at = most.trim_end().strip_suffix("at")?;
    let at_start = at.len();
    let line_start = source[..at_start].rfind('\n').map_or(0, |i| i + 1);
    let clause = source[line_start..at_start].trim();
    let clause = clause
        .rsplit([':', ',', ';'])
        .next()
        .unwrap_or(clause)
        .trim();
    if number.is_empty() || !(clause.starts_with("slide") || clause.starts_with("capture fly")) {
        return None;
    }
    Some(RuleError::UnknownWord {
        message: format!(
            "`at most {number}` after `{clause}`: a range is written `up to {number}`"
        ),
        span: Span::new(at_start, number_start + number.len()).into(),
        label: "read as the start of `at most <n> quiet moves in a row …`".to_string(),
        help: format!(
            "write `{clause} up to {number}`; `at most <n> quiet moves in a row while own <piece> \
             remain` is the limit on moves in a row"
        ),
    })
}

/// "did you mean `step`?" when the word found is a slip of one of the expected keywords.
pub(super) fn did_you_mean_word(expected: &str, source: &str, pos: usize) -> Option<String> {
    let rest = source.get(pos..)?;
    let word: &str = &rest[..rest
        .find(|c: char| !(c.is_alphanumeric() || c == '-'))
        .unwrap_or(rest.len())];
    if word.is_empty() {
        return None;
    }
    // The keywords are the first words of the backticked alternatives.
    let keywords = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|alt| alt.split_whitespace().next())
        .filter(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    crate::lang::check::did_you_mean(word, keywords).map(|k| format!("did you mean `{k}`?"))
}

/// A fix hint for the common slips.
pub(super) fn syntax_help(
    variant: &ErrorVariant<Rule>,
    source: &str,
    pos: usize,
) -> Option<String> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    let has = |r: Rule| positives.contains(&r);
    let rest = source.get(pos..).unwrap_or("");
    if has(Rule::kw_quiet) {
        return Some(
            "to limit a slide or a flying capture write `up to <n>`, as in `slide diagonal up to 2`; `at most <n> quiet moves in a row while own <piece> remain` limits moves in a row".to_string(),
        );
    }
    if rest.starts_with('-') && has(Rule::range_to) {
        return Some("write a range of squares with `..`, as in `a1..h1`".to_string());
    }
    if has(Rule::colon) {
        return Some(
            "a piece's moves start with its name and `:`, as in `man: step forward`".to_string(),
        );
    }
    if has(Rule::string) {
        return Some("give the letter in double quotes, as in `piece man \"M\"`".to_string());
    }
    if has(Rule::statement) {
        return Some(
            "a statement starts with `variant`, `board`, `sides`, `piece`, `setup`, `captures:`, `game:` or a piece's name and `:`"
                .to_string(),
        );
    }
    if has(Rule::direction) || has(Rule::directions) {
        return Some(
            "directions are `forward`, `backward`, `sideways`, `forward-diagonal`, `backward-diagonal`, `orthogonal`, `diagonal` or `all`, separated by `,`"
                .to_string(),
        );
    }
    None
}

/// A statement cut short (`board 8x8` with no squares clause, `step forward,` with nothing after
/// the comma): pest fails at the start of the next statement, or at the end of the file, or just
/// after the next statement's first word, which it read as part of the one before. The error
/// belongs at the end of the short statement, saying what it lacks; the caller blanks that
/// statement (the range returned) so the next one, which is not wrong, is parsed as written.
pub(super) fn incomplete_statement(
    source: &str,
    pos: usize,
    variant: &ErrorVariant<Rule>,
) -> Option<(RuleError, std::ops::Range<usize>)> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    // The slips worded by name (a misspelt keyword, a word after a clause, `at most` for `up
    // to`) say more than "cut short".
    if misspelt_statement(source, pos, variant).is_some()
        || unknown_word(source, pos, variant).is_some()
        || range_as_at_most(source, pos, variant).is_some()
    {
        return None;
    }
    let rest = source.get(pos..)?;
    let line_start = source[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line = &source[line_start..];
    let head = source[line_start..pos].trim_end();
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // `pos` starts an unindented line, or only whitespace and comments follow it.
    let next = if rest.trim().is_empty() || pos == line_start && starts_statement(line) {
        // Where a new statement may start, the one before was complete.
        if positives.is_empty()
            || positives.contains(&Rule::statement)
            || positives.contains(&Rule::EOI)
        {
            return None;
        }
        pos
    } else if starts_statement(line) && head.chars().all(is_word) {
        line_start
    } else {
        return None;
    };
    let end = code_end(source, next);
    let from = statement_start(source, end);
    if end <= from {
        return None;
    }
    let what = statement_name(&source[from..end]);
    let mut fix: Option<String> = None;
    let mut expected = if next == pos {
        join_alternatives(&wanted(positives))
    } else {
        // Only the probe knows whether the statement before was cut short.
        join_alternatives(&wanted_after(source, end, "")?)
    };
    // Only punctuation was wanted: what follows it is what is really missing, so parse the
    // statement again with the punctuation written and name what pest wants next.
    let punctuation = [(Rule::comma, ","), (Rule::semi, ";"), (Rule::colon, ":")];
    if next == pos
        && positives
            .iter()
            .all(|r| punctuation.iter().any(|(p, _)| p == r))
    {
        let mark = punctuation
            .iter()
            .find(|(p, _)| positives.contains(p))
            .map_or(",", |(_, m)| *m);
        if let Some(after) = wanted_after(source, end, mark) {
            let after = join_alternatives(&after);
            // `, all squares` or `, dark squares`: the fix, when every form is written out.
            let forms: Vec<&str> = after.split('`').skip(1).step_by(2).collect();
            let plain = forms.iter().fold(after.clone(), |rest, f| {
                rest.replacen(&format!("`{f}`"), "", 1)
            });
            if plain.split([',', ' ']).all(|w| w.is_empty() || w == "or") {
                let with_mark: Vec<String> = forms.iter().map(|f| format!("{mark} {f}")).collect();
                fix = Some(join_alternatives_backticked(&with_mark));
            }
            expected = format!("`{mark}` then {after}");
        }
    }
    let last = source[from..end]
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or("");
    let help = match fix {
        Some(fix) => format!("write {fix} after `{last}`"),
        None if expected.len() > 40 => format!("after `{last}`, {}", forms_help(&expected)),
        None => format!("write {expected} after `{last}`"),
    };
    Some((
        RuleError::Syntax {
            found: format!("the end of {what}"),
            label: format!("{what} ends here"),
            span: Span::new(end, end).into(),
            help: Some(help),
            expected,
        },
        from..next,
    ))
}

/// "`a`, `b` or `c`" of forms written out.
fn join_alternatives_backticked(forms: &[String]) -> String {
    let quoted: Vec<String> = forms.iter().map(|f| format!("`{f}`")).collect();
    let refs: Vec<&str> = quoted.iter().map(String::as_str).collect();
    join_alternatives(&refs)
}

/// The names of grammar rules, for "expected …", without the ones possible after any statement.
fn wanted(rules: &[Rule]) -> Vec<&'static str> {
    let mut names: Vec<&str> = Vec::new();
    for &r in rules {
        let name = rule_to_symbol(r);
        if !matches!(r, Rule::statement | Rule::EOI) && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// What pest wants after `source[..end]` followed by `mark`, when the file stops there: `None`
/// when that text parses as it is (nothing is missing) or fails before its end.
fn wanted_after(source: &str, end: usize, mark: &str) -> Option<Vec<&'static str>> {
    let probe = format!("{}{mark} ", &source[..end]);
    let mut e = super::RulesParser::parse(Rule::file, &probe).err()?;
    drop_quiet_alternatives(&mut e);
    let at = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let ErrorVariant::ParsingError { positives, .. } = &e.variant else {
        return None;
    };
    let names = wanted(positives);
    (at >= end + mark.len() && !names.is_empty()).then_some(names)
}

/// The end of the text before `pos`, leaving out the whitespace and comments in between.
fn code_end(source: &str, pos: usize) -> usize {
    let mut end = pos;
    loop {
        let before = source[..end].trim_end();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = &before[line_start..];
        // A `#` outside quotes starts a comment; one inside (a letter written "#") does not.
        let comment = line
            .char_indices()
            .filter(|&(_, c)| c == '#')
            .map(|(i, _)| i)
            .find(|&i| line[..i].matches('"').count().is_multiple_of(2));
        match comment {
            Some(i) => end = line_start + i,
            None => return before.len(),
        }
    }
}

/// "the `board` line", "the `man:` section": the statement starting `text`, for messages.
fn statement_name(text: &str) -> String {
    let word: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let after = text[word.len()..].trim_start();
    if after.starts_with(':') {
        format!("the `{word}:` section")
    } else if STATEMENT_KEYWORDS.contains(&word.as_str()) {
        format!("the `{word}` line")
    } else {
        format!("the statement `{word}`")
    }
}

/// Where to see the forms of a long "expected" list in use: docs/language.md describes every
/// form, and `damelab show` prints the bundled variant whose file uses the most of them (chosen
/// from the files themselves, so the example always holds what the message promises).
fn forms_help(expected: &str) -> String {
    let forms: Vec<&str> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|f| {
            f.split(['<', '>', '…'])
                .map(str::trim)
                .max_by_key(|part| part.len())
        })
        .filter(|f| !f.is_empty())
        .collect();
    let best = crate::variants::BUNDLED
        .iter()
        .map(|(name, text)| {
            let code = without_comments(text);
            (forms.iter().filter(|f| uses(&code, f)).count(), *name)
        })
        .fold((0, ""), |best, v| if v.0 > best.0 { v } else { best });
    match best {
        (n, name) if n >= 2 => format!(
            "write one of the forms listed; docs/language.md describes each, and \
             `damelab show {name}` prints a rules file that uses {n} of them"
        ),
        _ => "write one of the forms listed; docs/language.md describes each".to_string(),
    }
}

/// A rules file's text without its comments, its words separated by single spaces.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `code` holds the words of `form` as whole words.
fn uses(code: &str, form: &str) -> bool {
    let form = form.split_whitespace().collect::<Vec<_>>().join(" ");
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    code.match_indices(form.as_str()).any(|(i, m)| {
        let before = code[..i].chars().next_back();
        let after = code[i + m.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}
