//! Case files: YAML documents that pin down what a variant does in named positions — perft
//! figures, the complete legal-move list, moves it must or must not allow, the game's result, the
//! capture rules' decision for a move. `damelab verify` and the project's own snapshot tests both
//! run them. An expectation written with an empty value (`moves: ~`, `perft: 3`) is left for
//! `damelab verify --bless` to fill in.

pub mod bless;
pub mod load;
pub mod nesting;

use crate::engine::{GenOptions, Move, PerftLimits, Position, Rules, TooManyRoutes};
use crate::explain::{is_syntax_error, try_explain, ExplainError};
use crate::notation::{move_to_string, parse_fen, parse_move, to_fen, InputError};
use crate::{Game, Variant};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A case file: the variant it is about, then its cases.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// A bundled variant's name, or a rules file's path relative to the case file.
    pub variant: String,
    pub cases: Vec<Case>,
}

/// An expectation that is written down, or left blank (`key: ~`) for `--bless` to fill in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect<T> {
    Blank,
    Given(T),
}

/// The `perft` key: the figures by depth, or the depth to fill in (`perft: 3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Perft {
    Depth(usize),
    Counts(Vec<u64>),
}

impl Perft {
    pub fn depth(&self) -> usize {
        match self {
            Perft::Depth(d) => *d,
            Perft::Counts(c) => c.len(),
        }
    }
}

/// One named position and what is expected of it. Every expectation is optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    /// The rule this case proves, in words.
    #[serde(default)]
    pub rule: Option<String>,
    /// The position; the start position when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves played from the position (or the start) before the expectations are checked.
    #[serde(default)]
    pub play: Vec<String>,
    /// Count capture routes that differ only in order as separate moves.
    #[serde(default)]
    pub keep_duplicates: bool,
    /// perft(1), perft(2), … of the position, or the depth to fill in.
    #[serde(default, deserialize_with = "perft")]
    pub perft: Option<Perft>,
    /// The complete list of legal moves (any order).
    #[serde(default, deserialize_with = "blankable")]
    pub moves: Option<Expect<Vec<String>>>,
    /// Moves that must be legal.
    #[serde(default)]
    pub contains: Vec<String>,
    /// Moves that must not be legal.
    #[serde(default)]
    pub excludes: Vec<String>,
    /// The position (FEN) expected after `play`.
    #[serde(default, deserialize_with = "blankable")]
    pub position: Option<Expect<String>>,
    /// "white to move", or how the game ended ("white wins: black has no legal move").
    #[serde(default, deserialize_with = "blankable")]
    pub result: Option<Expect<String>>,
    /// Move text → the expected explanation of the capture rules' decision (see
    /// [`crate::explain::explain`]), in the order written.
    #[serde(default, deserialize_with = "explain_map")]
    pub explain: Vec<(String, Expect<String>)>,
}

/// What a case's position really is: the figures the expectations are compared with.
#[derive(Clone, Debug, Serialize)]
pub struct Actual {
    pub fen: String,
    pub moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perft: Option<Vec<u64>>,
    pub result: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub explain: Vec<Explained>,
}

/// One `explain` entry as it really is.
#[derive(Clone, Debug, Serialize)]
pub struct Explained {
    #[serde(rename = "move")]
    pub move_text: String,
    pub text: String,
}

/// An expectation that does not hold (or is left blank), with a readable diff.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The case's key: `moves`, `perft`, `contains`, …
    pub key: &'static str,
    /// The expectation is blank: `--bless` fills it in.
    pub blank: bool,
    /// What differs, one or more lines: `- expected` / `+ actual`.
    pub text: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.text)
    }
}

/// Input of a case that cannot be read: a FEN that does not parse, a move that is not legal where
/// it is played. `text` is the offending string as written in the case, `error` points into it.
#[derive(Debug)]
pub struct Problem {
    pub key: &'static str,
    pub text: String,
    pub error: Box<InputError>,
}

/// The outcome of running one case.
#[derive(Debug)]
pub struct CaseRun {
    pub name: String,
    /// Present when the position could be set up.
    pub actual: Option<Actual>,
    /// Failed or blank expectations (empty: the case passes, unless there are problems).
    pub failures: Vec<Failure>,
    /// Input that could not be read.
    pub problems: Vec<Problem>,
}

impl CaseRun {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.problems.is_empty()
    }
}

/// Run one case against a variant, its perft within [`crate::limits::CASE_PERFT_NODE_BUDGET`].
pub fn run_case(variant: &Variant, case: &Case) -> CaseRun {
    run_case_within(variant, case, crate::limits::CASE_PERFT_NODE_BUDGET)
}

/// Why a case's perft figures stop short of the depth it asks for (the case then fails with it).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum PerftStop {
    #[error("perft to depth {depth} is beyond the limit of {max} for case files", max = crate::limits::MAX_CASE_PERFT_DEPTH)]
    TooDeep { depth: usize },
    #[error(
        "perft({depth}) would take the count past the budget of {} nodes for a case \
         (about {} expected); use `damelab perft` for deep counts",
        crate::limits::thousands(*budget),
        crate::limits::thousands(*expected)
    )]
    OverBudget {
        depth: usize,
        budget: u64,
        expected: u64,
    },
    #[error("perft({depth}) stopped: {why}")]
    Stopped {
        depth: usize,
        why: crate::engine::PerftError,
    },
}

/// The perft figures of a case, depth by depth up to `depth` (at most
/// [`crate::limits::MAX_CASE_PERFT_DEPTH`]), stopping before a depth whose count, judged by the
/// growth so far, would take the figures past `budget` nodes. `Err` says where and why it stopped.
fn perft_within(
    rules: &crate::Rules,
    pos: &crate::Position,
    depth: usize,
    opts: GenOptions,
    budget: u64,
) -> Result<Vec<u64>, PerftStop> {
    if depth > crate::limits::MAX_CASE_PERFT_DEPTH {
        return Err(PerftStop::TooDeep { depth });
    }
    let mut counts: Vec<u64> = Vec::with_capacity(depth);
    let mut total = 0u64;
    for d in 1..=depth {
        let next = match counts.as_slice() {
            [.., a, b] if *a > 0 => (*b as f64) * (*b as f64) / (*a as f64),
            [.., b] => (*b as f64).powi(2),
            [] => 0.0,
        };
        if total as f64 + next > budget as f64 {
            return Err(PerftStop::OverBudget {
                depth: d,
                budget,
                expected: next as u64,
            });
        }
        // Bounded by the route budget (Ctrl-C, where installed, also stops it).
        let n = rules
            .perft_interruptible(pos, d, opts, 1, PerftLimits::default())
            .map_err(|why| PerftStop::Stopped { depth: d, why })?;
        total = total.saturating_add(n);
        counts.push(n);
    }
    Ok(counts)
}

/// A case's expectations against what the rules gave (`actual`, the legal moves `list` of
/// `pos`): the failures, key by key; the texts of the case that do not read go to
/// `run.problems`.
fn compare(
    rules: &Rules,
    case: &Case,
    actual: &Actual,
    list: &[Move],
    pos: &Position,
    perft_limit: Option<impl std::fmt::Display>,
    run: &mut CaseRun,
) -> Vec<Failure> {
    let mut failures: Vec<Failure> = Vec::new();
    let mut fail =
        |key: &'static str, blank: bool, text: String| failures.push(Failure { key, blank, text });
    let blank = |key: &str, example: &str| {
        format!("{key}: left blank (`{key}: {example}`); `damelab verify --bless` fills it in")
    };

    if let Some(why) = perft_limit {
        fail("perft", false, format!("perft not checked: {why}"));
    }
    match (&case.perft, &actual.perft) {
        (_, None) => {}
        (Some(Perft::Depth(d)), _) => fail("perft", true, blank("perft", &d.to_string())),
        (Some(Perft::Counts(want)), Some(got)) if want != got => {
            let mut s = format!("perft differs: expected {want:?}, got {got:?}");
            for (d, (w, g)) in want.iter().zip(got).enumerate() {
                if w != g {
                    let d = d + 1;
                    s.push_str(&format!("\n  - perft({d}) = {w}\n  + perft({d}) = {g}"));
                }
            }
            fail("perft", false, s);
        }
        _ => {}
    }
    match &case.moves {
        Some(Expect::Blank) => fail("moves", true, blank("moves", "~")),
        Some(Expect::Given(want)) => {
            let missing: Vec<&String> = want.iter().filter(|m| !actual.moves.contains(m)).collect();
            let extra: Vec<&String> = actual.moves.iter().filter(|m| !want.contains(m)).collect();
            if !missing.is_empty() || !extra.is_empty() {
                let mut s = String::from("moves differ:");
                for m in missing {
                    s.push_str(&format!("\n  - {m} (expected, not legal)"));
                }
                for m in extra {
                    s.push_str(&format!("\n  + {m} (legal, not expected)"));
                }
                fail("moves", false, s);
            }
        }
        None => {}
    }
    for m in &case.contains {
        match parse_move(rules, list, m) {
            Ok(_) => {}
            Err(error) if is_syntax_error(&error) => run.problems.push(Problem {
                key: "contains",
                text: m.clone(),
                error,
            }),
            Err(error) => fail(
                "contains",
                false,
                format!("contains: `{m}` is not a legal move{}", help_line(&error)),
            ),
        }
    }
    for m in &case.excludes {
        match parse_move(rules, list, m) {
            Ok(mv) => {
                let name = move_to_string(rules, &mv);
                let full = if name == *m {
                    String::new()
                } else {
                    format!(" ({name})")
                };
                fail(
                    "excludes",
                    false,
                    format!("excludes: `{m}` is a legal move{full}"),
                )
            }
            Err(error) if is_syntax_error(&error) => run.problems.push(Problem {
                key: "excludes",
                text: m.clone(),
                error,
            }),
            Err(error) if error.label == "ambiguous" => fail(
                "excludes",
                false,
                format!("excludes: `{m}` names legal moves{}", help_line(&error)),
            ),
            Err(_) => {}
        }
    }
    match &case.position {
        Some(Expect::Blank) => fail("position", true, blank("position", "~")),
        Some(Expect::Given(want)) => match parse_fen(rules, want) {
            Ok(p) if p == *pos => {}
            Ok(_) => fail(
                "position",
                false,
                format!("position differs:\n  - {want}\n  + {}", actual.fen),
            ),
            Err(error) => run.problems.push(Problem {
                key: "position",
                text: want.clone(),
                error,
            }),
        },
        None => {}
    }
    match &case.result {
        Some(Expect::Blank) => fail("result", true, blank("result", "~")),
        Some(Expect::Given(want)) if *want != actual.result => fail(
            "result",
            false,
            format!("result differs:\n  - {want}\n  + {}", actual.result),
        ),
        _ => {}
    }
    for (m, want) in &case.explain {
        let Some(got) = actual.explain.iter().find(|e| e.move_text == *m) else {
            continue;
        };
        match want {
            Expect::Blank => fail(
                "explain",
                true,
                format!("explain: `{m}` left blank; `damelab verify --bless` fills it in"),
            ),
            Expect::Given(want) if *want != got.text => fail(
                "explain",
                false,
                format!("explain `{m}` differs:\n  - {want}\n  + {}", got.text),
            ),
            Expect::Given(_) => {}
        }
    }
    failures
}

/// [`run_case`] with another perft node budget (the fuzzer uses a small one).
pub fn run_case_within(variant: &Variant, case: &Case, budget: u64) -> CaseRun {
    let rules = &variant.rules;
    let mut run = CaseRun {
        name: case.name.clone(),
        actual: None,
        failures: Vec::new(),
        problems: Vec::new(),
    };
    let start = match &case.fen {
        Some(f) => match parse_fen(rules, f) {
            Ok(p) => p,
            Err(error) => {
                run.problems.push(Problem {
                    key: "fen",
                    text: f.clone(),
                    error,
                });
                return run;
            }
        },
        None => rules.start,
    };
    let mut game = Game::from_position(rules.clone(), start);
    // A position whose capture search runs past the route budget fails the case: nothing of it
    // can be checked.
    let too_many = |run: &mut CaseRun, where_: String, e: TooManyRoutes| {
        run.failures.push(Failure {
            key: "moves",
            blank: false,
            text: format!("{where_}: {e}"),
        });
    };
    for m in &case.play {
        let legal = match game.try_legal_moves() {
            Ok(l) => l,
            Err(e) => {
                too_many(&mut run, format!("play: `{m}` not checked"), e);
                return run;
            }
        };
        match parse_move(rules, &legal, m) {
            Ok(mv) => game.play(mv),
            Err(error) => {
                run.problems.push(Problem {
                    key: "play",
                    text: m.clone(),
                    error,
                });
                return run;
            }
        }
    }
    let pos = *game.position();
    let opts = GenOptions {
        keep_duplicates: case.keep_duplicates,
        ..GenOptions::default()
    };
    let mut list = Vec::new();
    if let Err(e) = rules.try_generate(&pos, &mut list, opts) {
        too_many(&mut run, "the legal moves cannot be listed".into(), e);
        return run;
    }
    if game.result().is_some() {
        list.clear();
    }
    let mut moves: Vec<String> = list.iter().map(|m| move_to_string(rules, m)).collect();
    moves.sort();
    let (perft, perft_limit) = match case.perft.as_ref() {
        None => (None, None),
        Some(p) => match perft_within(rules, &pos, p.depth(), opts, budget) {
            Ok(counts) => (Some(counts), None),
            Err(why) => (None, Some(why)),
        },
    };
    let mut explained = Vec::new();
    for (m, _) in &case.explain {
        match try_explain(rules, &pos, m) {
            Ok(text) => explained.push(Explained {
                move_text: m.clone(),
                text,
            }),
            Err(ExplainError::Input(error)) => run.problems.push(Problem {
                key: "explain",
                text: m.clone(),
                error,
            }),
            Err(ExplainError::TooManyRoutes(e)) => {
                too_many(&mut run, format!("explain `{m}` not checked"), e)
            }
        }
    }
    let actual = Actual {
        fen: to_fen(rules, &pos),
        moves,
        perft,
        result: game.describe_result(),
        explain: explained,
    };
    let failures = compare(rules, case, &actual, &list, &pos, perft_limit, &mut run);
    run.failures.extend(failures);
    run.actual = Some(actual);
    run
}

fn help_line(e: &InputError) -> String {
    e.help
        .as_deref()
        .map(|h| format!("\n  ({h})"))
        .unwrap_or_default()
}

/// `key: ~` (or an empty value) is `Blank`; an absent key is `None` (through `#[serde(default)]`).
fn blankable<'de, D, T>(d: D) -> Result<Option<Expect<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Some(match Option::<T>::deserialize(d)? {
        None => Expect::Blank,
        Some(v) => Expect::Given(v),
    }))
}

fn perft<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Perft>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Perft;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of perft figures (`[8, 64]`) or a depth to fill in (`3`)")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Perft, E> {
            match usize::try_from(v) {
                Ok(d) if (1..=20).contains(&d) => Ok(Perft::Depth(d)),
                _ => Err(E::custom(format!("perft depth {v} is out of range 1..20"))),
            }
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Perft, E> {
            match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Err(E::custom(format!("perft depth {v} is out of range 1..20"))),
            }
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Perft, A::Error> {
            let mut out = Vec::new();
            while let Some(n) = seq.next_element::<u64>()? {
                out.push(n);
            }
            Ok(Perft::Counts(out))
        }
    }
    d.deserialize_any(V).map(Some)
}

fn explain_map<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, Expect<String>)>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<(String, Expect<String>)>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map from move to explanation (`c3xe5: ~` to fill in)")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some((k, v)) = map.next_entry::<String, Option<String>>()? {
                out.push((k, v.map_or(Expect::Blank, Expect::Given)));
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
}
