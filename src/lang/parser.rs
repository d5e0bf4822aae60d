//! Text → syntax tree: runs the pest grammar (`grammar/rules.pest`) and turns its pairs into
//! [`ast`](super::ast) nodes with byte spans; turns pest's failures into worded syntax errors.

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use super::ast::*;
use super::error::RuleError;

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
            Err(e) => e,
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

fn build(mut pairs: pest::iterators::Pairs<Rule>, source: &str) -> RulesFile {
    let file = pairs
        .next()
        .expect("the grammar's `file` rule yields one pair");
    let statements = file
        .into_inner()
        .filter(|p| p.as_rule() == Rule::statement)
        .map(statement)
        .collect();
    RulesFile {
        statements,
        end: source.len(),
    }
}

/// The human name of a grammar rule, as it appears in "expected …" messages.
pub fn rule_to_symbol(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::WHITESPACE => "whitespace",
        Rule::COMMENT => "a comment",
        Rule::file => "a rules file",
        Rule::statement => "a statement",
        Rule::variant_decl => "a `variant` line",
        Rule::board_decl => "a `board` line",
        Rule::size => "a board size like `8x8`",
        Rule::square_kind => "`all squares` or `dark squares`",
        Rule::all_squares => "`all squares`",
        Rule::dark_squares => "`dark squares`",
        Rule::a1_colour => "`a1 light` or `a1 dark`",
        Rule::notation => "`algebraic` or `numbered`",
        Rule::sides_decl => "a `sides` line",
        Rule::side_def => "a side like `white \"W\"`",
        Rule::first_clause => "`<side> moves first`",
        Rule::forward_clause => "`forward is diagonal` or `forward is straight`",
        Rule::piece_decl => "a `piece` line",
        Rule::rank_opt => "`rank <number>`",
        Rule::value_opt => "`value <number>`",
        Rule::setup_decl => "a `setup` line",
        Rule::placement => "a placement like `white man a1..h1`",
        Rule::square_list => "a list of squares",
        Rule::square_range => "a square or a range like `a1..h1`",
        Rule::square => "a square",
        Rule::alg_square => "a square like `a1`",
        Rule::num_square => "a square number",
        Rule::range_to => "`..`",
        Rule::moves_section => "a piece's moves section",
        Rule::move_clause => "a move (`step`, `slide`, `leap`, `capture`, `promote` or `at most …`)",
        Rule::step_clause => "a `step` move",
        Rule::slide_clause => "a `slide` move",
        Rule::leap_clause => "a `leap` move",
        Rule::leap_count => "`one` or a number",
        Rule::capture_clause => "a `capture` move",
        Rule::capture_kind => "`jump` or `fly`",
        Rule::promote_clause => "a `promote` rule",
        Rule::limit_clause => "`at most <n> quiet moves in a row while own <piece> remain`",
        Rule::zone => "`far rank`, `start of enemy <piece>` or a list of squares",
        Rule::far_rank => "`far rank`",
        Rule::enemy_start => "`start of enemy <piece>`",
        Rule::directions => "a list of directions",
        Rule::direction => "a direction",
        Rule::captures_section => "a `captures:` section",
        Rule::capture_rule => {
            "a capture rule (`compulsory`, `optional`, `removed …`, `no 180 turn`, `only equal or lower rank`, `promotion …` or `priority …`)"
        }
        Rule::removal => "`removed immediately` or `removed at end of turn`",
        Rule::end_of_turn => "`at end of turn`",
        Rule::no_180_turn => "`no 180 turn`",
        Rule::equal_or_lower => "`only equal or lower rank`",
        Rule::mid_capture => "`promotion mid-capture …` or `promotion at end of move`",
        Rule::mid_capture_then => "`mid-capture continues` or `mid-capture stops`",
        Rule::promotion_at_end => "`at end of move`",
        Rule::priority => "`priority` and its criteria",
        Rule::criterion => {
            "a priority criterion (`free`, `most pieces`, `most value`, `highest capturer`, `highest captured ranks`, `most <piece>` or `earliest <piece>`)"
        }
        Rule::most_pieces => "`most pieces`",
        Rule::most_value => "`most value`",
        Rule::highest_capturer => "`highest capturer`",
        Rule::highest_ranks => "`highest captured ranks`",
        Rule::most_of => "`most <piece>`",
        Rule::earliest_of => "`earliest <piece>`",
        Rule::game_section => "a `game:` section",
        Rule::game_rule => {
            "a game rule (`no moves loses`, `lone <piece> beats lone <piece>`, `no <piece> loses`, `draw on 3rd repetition`, `no repetition draw` or `draw after <n> moves …`)"
        }
        Rule::no_moves_loses => "`no moves loses`",
        Rule::lone_beats => "`lone <piece> beats lone <piece>`",
        Rule::lose_without => "`no <piece> loses`",
        Rule::repetition => "`draw on <nth> repetition`",
        Rule::no_repetition => "`no repetition draw`",
        Rule::ordinal => "an ordinal like `3rd`",
        Rule::piece_ref => "a piece name",
        Rule::side_name => "a side name",
        Rule::piece_name => "a piece name",
        Rule::ident => "a name",
        Rule::name_body => "a name",
        Rule::ident_char => "a letter, digit, `_` or `-`",
        Rule::reserved => "a keyword",
        Rule::string => "a quoted letter like `\"W\"`",
        Rule::string_inner => "text",
        Rule::number => "a number",
        Rule::comma => "`,`",
        Rule::semi => "`;`",
        Rule::colon => "`:`",
        Rule::kw_variant => "`variant`",
        Rule::kw_board => "`board`",
        Rule::kw_all => "`all`",
        Rule::kw_dark => "`dark`",
        Rule::kw_light => "`light`",
        Rule::kw_squares => "`squares`",
        Rule::kw_a1 => "`a1`",
        Rule::kw_algebraic => "`algebraic`",
        Rule::kw_numbered => "`numbered`",
        Rule::kw_sides => "`sides`",
        Rule::kw_moves => "`moves`",
        Rule::kw_first => "`first`",
        Rule::kw_forward => "`forward`",
        Rule::kw_is => "`is`",
        Rule::kw_diagonal => "`diagonal`",
        Rule::kw_straight => "`straight`",
        Rule::kw_piece => "`piece`",
        Rule::kw_any_piece => "`pieces`",
        Rule::kw_rank => "`rank`",
        Rule::kw_value => "`value`",
        Rule::kw_quiet => "`quiet`",
        Rule::kw_in => "`in`",
        Rule::kw_a => "`a`",
        Rule::kw_row => "`row`",
        Rule::kw_while => "`while`",
        Rule::kw_remain => "`remain`",
        Rule::kw_setup => "`setup`",
        Rule::kw_step => "`step`",
        Rule::kw_slide => "`slide`",
        Rule::kw_leap => "`leap`",
        Rule::kw_over => "`over`",
        Rule::kw_one => "`one`",
        Rule::kw_own => "`own`",
        Rule::kw_capture => "`capture`",
        Rule::kw_jump => "`jump`",
        Rule::kw_fly => "`fly`",
        Rule::kw_promote => "`promote`",
        Rule::kw_to => "`to`",
        Rule::kw_on => "`on`",
        Rule::kw_far => "`far`",
        Rule::kw_start => "`start`",
        Rule::kw_of => "`of`",
        Rule::kw_enemy => "`enemy`",
        Rule::kw_captures => "`captures`",
        Rule::kw_compulsory => "`compulsory`",
        Rule::kw_optional => "`optional`",
        Rule::kw_removed => "`removed`",
        Rule::kw_immediately => "`immediately`",
        Rule::kw_at => "`at`",
        Rule::kw_end => "`end`",
        Rule::kw_turn => "`turn`",
        Rule::kw_move => "`move`",
        Rule::kw_no => "`no`",
        Rule::kw_180 => "`180`",
        Rule::kw_only => "`only`",
        Rule::kw_equal => "`equal`",
        Rule::kw_or => "`or`",
        Rule::kw_lower => "`lower`",
        Rule::kw_promotion => "`promotion`",
        Rule::kw_mid_capture => "`mid-capture`",
        Rule::kw_continues => "`continues`",
        Rule::kw_stops => "`stops`",
        Rule::kw_priority => "`priority`",
        Rule::kw_free => "`free`",
        Rule::kw_most => "`most`",
        Rule::kw_pieces => "`pieces`",
        Rule::kw_highest => "`highest`",
        Rule::kw_capturer => "`capturer`",
        Rule::kw_captured => "`captured`",
        Rule::kw_ranks => "`ranks`",
        Rule::kw_earliest => "`earliest`",
        Rule::kw_game => "`game`",
        Rule::kw_loses => "`loses`",
        Rule::kw_lone => "`lone`",
        Rule::kw_beats => "`beats`",
        Rule::kw_draw => "`draw`",
        Rule::range => "`up to <number>`",
        Rule::landing => "`landing directly behind`",
        Rule::last_taken => "`when the last piece taken is a <piece>`",
        Rule::move_count => "`draw after <n> moves …`",
        Rule::resets => "`without capture` or `without <piece> move`",
        Rule::reset => "`capture` or `<piece> move`",
        Rule::moves_of => "`<piece> move`",
        Rule::material => "`with <count> <piece>… against <count> <piece>`",
        Rule::force => "pieces like `2 kings and 1 man`",
        Rule::count_of => "a number of pieces like `2 kings`",
        Rule::if_claimed => "`if claimed`",
        Rule::kw_up => "`up`",
        Rule::kw_landing => "`landing`",
        Rule::kw_directly => "`directly`",
        Rule::kw_behind => "`behind`",
        Rule::kw_when => "`when`",
        Rule::kw_the => "`the`",
        Rule::kw_last => "`last`",
        Rule::kw_taken => "`taken`",
        Rule::kw_after => "`after`",
        Rule::kw_each => "`each`",
        Rule::kw_without => "`without`",
        Rule::kw_with => "`with`",
        Rule::kw_against => "`against`",
        Rule::kw_and => "`and`",
        Rule::kw_if => "`if`",
        Rule::kw_claimed => "`claimed`",
        Rule::kw_repetition => "`repetition`",
    }
}

fn rest_at(source: &str, pos: usize) -> &str {
    source.get(pos..).unwrap_or("")
}

/// "a, b or c"
fn join_alternatives(items: &[&str]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// What stands at `pos`: the word there, in backticks, or "end of file".
fn found_at(source: &str, pos: usize) -> (String, usize) {
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

fn syntax_error(source: &str, err: pest::error::Error<Rule>) -> RuleError {
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
            if expected.len() <= 40 && word_found && !punctuation {
                format!("write {expected} instead of {found}")
            } else if expected.len() <= 40 && found != "end of file" {
                format!("write {expected} before {found}")
            } else {
                "write one of the forms listed; `variants/dameo.rules` shows each in use"
                    .to_string()
            }
        });
    // A long list of alternatives is already in the message; the label then just points.
    let label = if expected.len() <= 40 {
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
const STATEMENT_KEYWORDS: &[&str] = &[
    "variant", "board", "sides", "piece", "setup", "captures", "game",
];

/// A misspelt statement keyword (`bord 8x8`) parses as the name of a moves section and fails at the
/// missing `:`; report it as the unknown word it is.
fn misspelt_statement(source: &str, pos: usize, variant: &ErrorVariant<Rule>) -> Option<RuleError> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    if positives.as_slice() != [Rule::colon] {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let start = before
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &before[start..];
    // Only at the start of a line: elsewhere the word may be a real piece name after a slip.
    if !source[..start]
        .trim_end_matches([' ', '\t'])
        .ends_with('\n')
        && start != 0
    {
        return None;
    }
    let keyword = super::check::did_you_mean(word, STATEMENT_KEYWORDS.iter().copied())?;
    Some(RuleError::Syntax {
        expected: "a statement".to_string(),
        found: format!("`{word}`"),
        label: "not a statement keyword".to_string(),
        span: Span::new(start, start + word.len()).into(),
        help: Some(format!("did you mean `{keyword}`?")),
    })
}

/// The words that start a clause, for naming the clause an unknown word follows.
const CLAUSE_WORDS: &[&str] = &[
    "step", "slide", "leap", "capture", "promote", "priority", "draw", "lone",
];

/// A word after a complete clause on the same line (`capture fly diagonal land behind`) parses as
/// the name of a new moves section and fails at the missing `:`; report the word itself.
fn unknown_word(source: &str, pos: usize, variant: &ErrorVariant<Rule>) -> Option<RuleError> {
    let ErrorVariant::ParsingError { positives, .. } = variant else {
        return None;
    };
    if positives.as_slice() != [Rule::colon] {
        return None;
    }
    let before = source.get(..pos)?.trim_end();
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !is_word(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
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
            "`capture jump|fly` takes directions separated by `,`; a flying capture may add `up to <n>` and `landing directly behind` (optionally `when the last piece taken is a <piece>`)".to_string(),
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
        .or_else(|| super::check::did_you_mean(word, modifiers.into_iter()));
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

/// `slide diagonal at most 2` reads `at most 2` as the start of the quiet-move limit and fails at
/// the missing `quiet`; after a slide or a flying capture it is a range, written `up to 2`.
fn range_as_at_most(source: &str, pos: usize, variant: &ErrorVariant<Rule>) -> Option<RuleError> {
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
fn did_you_mean_word(expected: &str, source: &str, pos: usize) -> Option<String> {
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
    super::check::did_you_mean(word, keywords).map(|k| format!("did you mean `{k}`?"))
}

/// A fix hint for the common slips.
fn syntax_help(variant: &ErrorVariant<Rule>, source: &str, pos: usize) -> Option<String> {
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

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

/// The span of a pair without the whitespace (and comments) it may end with after an optional
/// part that was not written.
fn trimmed_span(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let text = pair.as_str();
    let mut len = text.trim_end().len();
    // A comment at the end: cut back to the text before it.
    while let Some(i) = text[..len].rfind('#') {
        if text[..i].contains('"') {
            break;
        }
        len = text[..i].trim_end().len();
    }
    Span::new(s.start(), s.start() + len)
}

fn name(pair: Pair<Rule>) -> Name {
    Spanned::new(pair.as_str().to_string(), span_of(&pair))
}

/// A number as written; too large to fit is `u64::MAX`, which every range check rejects.
fn number(pair: &Pair<Rule>) -> u64 {
    pair.as_str().parse().unwrap_or(u64::MAX)
}

/// The pairs of a node without its keywords and punctuation.
fn significant<'a>(pair: Pair<'a, Rule>) -> impl Iterator<Item = Pair<'a, Rule>> {
    pair.into_inner().filter(|p| {
        let r = p.as_rule();
        !matches!(r, Rule::comma | Rule::semi | Rule::colon | Rule::range_to)
            && !format!("{r:?}").starts_with("kw_")
            || r == Rule::kw_any_piece
    })
}

fn statement(pair: Pair<Rule>) -> Statement {
    let inner = pair
        .into_inner()
        .next()
        .expect("a statement holds one declaration");
    let span = {
        let first = inner
            .clone()
            .into_inner()
            .next()
            .expect("every declaration starts with a keyword or a name");
        span_of(&first)
    };
    let kind = match inner.as_rule() {
        Rule::variant_decl => {
            let s = significant(inner).next().expect("variant has a string");
            StatementKind::Variant(string(s))
        }
        Rule::board_decl => StatementKind::Board(board(inner)),
        Rule::sides_decl => StatementKind::Sides(sides(inner)),
        Rule::piece_decl => StatementKind::Piece(piece(inner)),
        Rule::setup_decl => StatementKind::Setup(significant(inner).map(placement).collect()),
        Rule::captures_section => {
            StatementKind::Captures(significant(inner).map(capture_rule).collect())
        }
        Rule::game_section => StatementKind::Game(significant(inner).map(game_rule).collect()),
        Rule::moves_section => StatementKind::Moves(moves(inner)),
        r => unreachable!("statement alternatives are declarations, got {r:?}"),
    };
    Statement { span, kind }
}

fn string(pair: Pair<Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("a string holds its text");
    Spanned::new(inner.as_str().to_string(), span)
}

fn board(pair: Pair<Rule>) -> BoardDecl {
    let mut decl = BoardDecl {
        size: Spanned::new((0, 0), Span::default()),
        dark_only: false,
        a1_light: None,
        numbered: false,
    };
    for p in significant(pair) {
        match p.as_rule() {
            Rule::size => {
                let span = span_of(&p);
                let mut nums = p.into_inner();
                let w = number(&nums.next().expect("size has a width"));
                let h = number(&nums.next().expect("size has a height"));
                decl.size = Spanned::new((w, h), span);
            }
            Rule::square_kind => {
                let k = p.into_inner().next().expect("square kind has one form");
                decl.dark_only = k.as_rule() == Rule::dark_squares;
            }
            Rule::a1_colour => {
                let span = span_of(&p);
                let light = p.into_inner().any(|k| k.as_rule() == Rule::kw_light);
                decl.a1_light = Some(Spanned::new(light, span));
            }
            Rule::notation => {
                decl.numbered = p.into_inner().any(|k| k.as_rule() == Rule::kw_numbered);
            }
            _ => {}
        }
    }
    decl
}

fn sides(pair: Pair<Rule>) -> SidesDecl {
    let mut defs = Vec::new();
    let mut first = Vec::new();
    let mut forward_diagonal = Vec::new();
    for p in significant(pair) {
        match p.as_rule() {
            Rule::side_def => {
                let mut it = p.into_inner();
                let n = name(it.next().expect("side has a name"));
                let l = string(it.next().expect("side has a letter"));
                defs.push((n, l));
            }
            Rule::first_clause => {
                let n = p.into_inner().next().expect("`moves first` has a side");
                first.push(name(n));
            }
            Rule::forward_clause => {
                let span = span_of(&p);
                let diag = p.into_inner().any(|k| k.as_rule() == Rule::kw_diagonal);
                forward_diagonal.push(Spanned::new(diag, span));
            }
            _ => {}
        }
    }
    let mut defs = defs.into_iter();
    let a = defs.next().expect("sides has two sides");
    let b = defs.next().expect("sides has two sides");
    SidesDecl {
        sides: [a, b],
        first,
        forward_diagonal,
    }
}

fn piece(pair: Pair<Rule>) -> PieceDecl {
    let mut it = significant(pair);
    let n = name(it.next().expect("piece has a name"));
    let letter = string(it.next().expect("piece has a letter"));
    let mut decl = PieceDecl {
        name: n,
        letter,
        rank: None,
        value: None,
    };
    for p in it {
        let rule = p.as_rule();
        let num = p
            .into_inner()
            .find(|q| q.as_rule() == Rule::number)
            .expect("rank and value have a number");
        let v = Spanned::new(number(&num), span_of(&num));
        match rule {
            Rule::rank_opt => decl.rank = Some(v),
            _ => decl.value = Some(v),
        }
    }
    decl
}

fn piece_ref(pair: Pair<Rule>) -> PieceRef {
    let inner = pair.into_inner().next().expect("piece_ref has one form");
    match inner.as_rule() {
        Rule::kw_any_piece => PieceRef::Any(span_of(&inner)),
        _ => PieceRef::Named(name(inner)),
    }
}

fn placement(pair: Pair<Rule>) -> Placement {
    let mut it = pair.into_inner();
    let side = name(it.next().expect("placement has a side"));
    let piece = piece_ref(it.next().expect("placement has a piece"));
    let squares = square_list(it.next().expect("placement has squares"));
    Placement {
        side,
        piece,
        squares,
    }
}

fn square_list(pair: Pair<Rule>) -> Vec<SquareRange> {
    significant(pair)
        .map(|range| {
            let mut it = significant(range);
            let from = square(it.next().expect("a range has a first square"));
            let to = it.next().map(square);
            SquareRange { from, to }
        })
        .collect()
}

fn square(pair: Pair<Rule>) -> Spanned<SquareText> {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("square has one form");
    let text = inner.as_str();
    let node = match inner.as_rule() {
        Rule::alg_square => {
            let file = text.as_bytes()[0] - b'a';
            let rank = text[1..].parse().unwrap_or(u64::MAX);
            SquareText::Algebraic { file, rank }
        }
        _ => SquareText::Number(text.parse().unwrap_or(u64::MAX)),
    };
    Spanned::new(node, span)
}

fn directions(pair: Pair<Rule>) -> Vec<Name> {
    significant(pair).map(name).collect()
}

fn moves(pair: Pair<Rule>) -> MovesDecl {
    let mut it = significant(pair);
    let piece = name(it.next().expect("moves section starts with a piece name"));
    let clauses = it
        .map(|clause| {
            let clause = clause
                .into_inner()
                .next()
                .expect("move clause has one form");
            let span = span_of(&clause);
            let rule = clause.as_rule();
            let mut parts = significant(clause);
            let node = match rule {
                Rule::step_clause => {
                    MoveClause::Step(directions(parts.next().expect("step has directions")))
                }
                Rule::slide_clause => {
                    let dirs = directions(parts.next().expect("slide has directions"));
                    let range = parts.next().map(|r| range(&r));
                    MoveClause::Slide { dirs, range }
                }
                Rule::leap_clause => {
                    let mut max = None;
                    let mut over = None;
                    let mut dirs = Vec::new();
                    for p in parts {
                        match p.as_rule() {
                            Rule::leap_count => {
                                let c = p.into_inner().next().expect("leap count has one form");
                                let n = if c.as_rule() == Rule::number {
                                    number(&c)
                                } else {
                                    1
                                };
                                max = Some(Spanned::new(n, span_of(&c)));
                            }
                            Rule::piece_ref => over = Some(piece_ref(p)),
                            Rule::directions => dirs = directions(p),
                            _ => {}
                        }
                    }
                    MoveClause::Leap {
                        max,
                        over: over.expect("leap names the pieces it leaps over"),
                        dirs,
                    }
                }
                Rule::capture_clause => {
                    let kind = parts.next().expect("capture has a kind");
                    let fly = kind.into_inner().any(|k| k.as_rule() == Rule::kw_fly);
                    let dirs = directions(parts.next().expect("capture has directions"));
                    let mut range_limit = None;
                    let mut landing = None;
                    for p in parts {
                        match p.as_rule() {
                            Rule::range => range_limit = Some(range(&p)),
                            _ => {
                                let span = trimmed_span(&p);
                                let last_of = significant(p)
                                    .next()
                                    .and_then(|l| significant(l).next())
                                    .map(piece_ref);
                                landing = Some(Spanned::new(LandingText { last_of }, span));
                            }
                        }
                    }
                    MoveClause::Capture {
                        fly,
                        dirs,
                        range: range_limit,
                        landing,
                    }
                }
                Rule::promote_clause => {
                    let to = piece_ref(parts.next().expect("promote names a piece"));
                    let zone = parts
                        .next()
                        .expect("promote has a zone")
                        .into_inner()
                        .next()
                        .expect("zone has one form");
                    let zone = match zone.as_rule() {
                        Rule::far_rank => ZoneText::FarRank(span_of(&zone)),
                        Rule::enemy_start => ZoneText::EnemyStart(piece_ref(
                            significant(zone)
                                .next()
                                .expect("`start of enemy` names a piece"),
                        )),
                        _ => ZoneText::Squares(square_list(zone)),
                    };
                    MoveClause::Promote { to, zone }
                }
                Rule::limit_clause => {
                    let mut max = None;
                    let mut own = None;
                    for p in parts {
                        match p.as_rule() {
                            Rule::number => max = Some(Spanned::new(number(&p), span_of(&p))),
                            Rule::piece_ref => own = Some(piece_ref(p)),
                            _ => {}
                        }
                    }
                    MoveClause::QuietLimit {
                        max: max.expect("the limit has a number"),
                        while_own: own.expect("the limit names the pieces that must remain"),
                    }
                }
                r => unreachable!("move clause alternatives, got {r:?}"),
            };
            Spanned::new(node, span)
        })
        .collect();
    MovesDecl { piece, clauses }
}

fn capture_rule(pair: Pair<Rule>) -> Spanned<CaptureRule> {
    let inner = pair.into_inner().next().expect("capture rule has one form");
    let span = span_of(&inner);
    let node = match inner.as_rule() {
        Rule::kw_compulsory => CaptureRule::Compulsory(true),
        Rule::kw_optional => CaptureRule::Compulsory(false),
        Rule::removal => CaptureRule::RemovedImmediately(
            inner
                .into_inner()
                .any(|k| k.as_rule() == Rule::kw_immediately),
        ),
        Rule::no_180_turn => CaptureRule::No180Turn,
        Rule::equal_or_lower => CaptureRule::EqualOrLowerRank,
        Rule::mid_capture => {
            let form = significant(inner)
                .next()
                .expect("promotion rule has one form");
            let text = match form.as_rule() {
                Rule::promotion_at_end => MidCaptureText::AtEnd,
                _ if form.into_inner().any(|k| k.as_rule() == Rule::kw_stops) => {
                    MidCaptureText::Stops
                }
                _ => MidCaptureText::Continues,
            };
            CaptureRule::MidCapture(text)
        }
        Rule::priority => CaptureRule::Priority(significant(inner).map(criterion).collect()),
        r => unreachable!("capture rule alternatives, got {r:?}"),
    };
    Spanned::new(node, span)
}

fn criterion(pair: Pair<Rule>) -> Spanned<CriterionText> {
    let inner = pair.into_inner().next().expect("criterion has one form");
    let span = span_of(&inner);
    let node = match inner.as_rule() {
        Rule::kw_free => CriterionText::Free,
        Rule::most_pieces => CriterionText::MostPieces,
        Rule::most_value => CriterionText::MostValue,
        Rule::highest_capturer => CriterionText::HighestCapturer,
        Rule::highest_ranks => CriterionText::HighestCapturedRanks,
        Rule::most_of => CriterionText::MostOf(piece_ref(
            significant(inner).next().expect("`most` names a piece"),
        )),
        Rule::earliest_of => CriterionText::EarliestOf(piece_ref(
            significant(inner).next().expect("`earliest` names a piece"),
        )),
        r => unreachable!("criterion alternatives, got {r:?}"),
    };
    Spanned::new(node, span)
}

fn game_rule(pair: Pair<Rule>) -> Spanned<GameRule> {
    let inner = pair.into_inner().next().expect("game rule has one form");
    let span = trimmed_span(&inner);
    let node = match inner.as_rule() {
        Rule::no_moves_loses => GameRule::NoMovesLoses,
        Rule::lone_beats => {
            let mut it = significant(inner);
            let a = piece_ref(it.next().expect("lone rule has a winner"));
            let b = piece_ref(it.next().expect("lone rule has a loser"));
            GameRule::LoneBeats(a, b)
        }
        Rule::lose_without => GameRule::LoseWithout(piece_ref(
            significant(inner)
                .next()
                .expect("`no <piece> loses` names a piece"),
        )),
        Rule::repetition => {
            let ord = significant(inner.clone())
                .next()
                .expect("repetition has an ordinal");
            let digits: String = ord
                .as_str()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let claimed = significant(inner).any(|p| p.as_rule() == Rule::if_claimed);
            GameRule::Repetition(
                Spanned::new(digits.parse().unwrap_or(u64::MAX), span_of(&ord)),
                claimed,
            )
        }
        Rule::move_count => GameRule::MoveCount(move_count(inner)),
        Rule::no_repetition => GameRule::NoRepetition,
        r => unreachable!("game rule alternatives, got {r:?}"),
    };
    Spanned::new(node, span)
}

/// `up to N`: the number, with its span.
fn range(pair: &Pair<Rule>) -> Spanned<u64> {
    let num = pair
        .clone()
        .into_inner()
        .find(|q| q.as_rule() == Rule::number)
        .expect("a range has a number");
    Spanned::new(number(&num), span_of(&num))
}

fn force(pair: Pair<Rule>) -> ForceText {
    significant(pair)
        .map(|count_of| {
            let mut it = significant(count_of);
            let n = it.next().expect("a count has a number");
            let piece = piece_ref(it.next().expect("a count names a piece"));
            (Spanned::new(number(&n), span_of(&n)), piece)
        })
        .collect()
}

fn move_count(pair: Pair<Rule>) -> MoveCountText {
    let mut text = MoveCountText {
        moves: Spanned::new(0, Span::default()),
        each: false,
        resets: Vec::new(),
        material: None,
        claimed: false,
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::number => text.moves = Spanned::new(number(&p), span_of(&p)),
            Rule::kw_each => text.each = true,
            Rule::resets => {
                for r in significant(p) {
                    let span = span_of(&r);
                    let what = r.into_inner().next().expect("a reset has one form");
                    let node = match what.as_rule() {
                        Rule::moves_of => Some(piece_ref(
                            significant(what).next().expect("`… move` names a piece"),
                        )),
                        _ => None,
                    };
                    text.resets.push(Spanned::new(node, span));
                }
            }
            Rule::material => {
                let mut forces: Vec<ForceText> = significant(p).map(force).collect();
                let weak = forces.pop().expect("material has a weaker side");
                text.material = Some((forces, weak));
            }
            Rule::if_claimed => text.claimed = true,
            _ => {}
        }
    }
    text
}
