//! Case files: YAML documents that pin down what a variant does in named positions — perft
//! figures, the complete legal-move list, moves it must or must not allow, the game's result.
//! `damelab verify` and the project's own snapshot tests both run them.

use crate::engine::GenOptions;
use crate::notation::{move_to_string, parse_fen, parse_move, to_fen};
use crate::{Game, Variant};
use serde::{Deserialize, Serialize};

/// A case file: the variant it is about, then its cases.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// A bundled variant's name, or a rules file's path relative to the case file.
    pub variant: String,
    pub cases: Vec<Case>,
}

/// One named position and what is expected of it. Every expectation is optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    /// The rule of RULES.md this case proves, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The position; the start position when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Moves played from the position (or the start) before the expectations are checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<String>,
    /// Count capture routes that differ only in order as separate moves.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_duplicates: bool,
    /// perft(1), perft(2), … of the position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perft: Option<Vec<u64>>,
    /// The complete list of legal moves (any order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excludes: Vec<String>,
    /// The position (FEN) expected after `play`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// "white to move", or how the game ended ("white wins: black has no legal move").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// What a case's position really is: the figures the expectations are compared with.
#[derive(Clone, Debug, Serialize)]
pub struct Actual {
    pub fen: String,
    pub moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perft: Option<Vec<u64>>,
    pub result: String,
}

/// The outcome of running one case.
#[derive(Clone, Debug)]
pub struct CaseRun {
    pub name: String,
    /// Present when the position could be set up.
    pub actual: Option<Actual>,
    /// One line per failed expectation (empty: the case passes).
    pub failures: Vec<String>,
}

impl CaseRun {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Run one case against a variant.
pub fn run_case(variant: &Variant, case: &Case) -> CaseRun {
    let rules = &variant.rules;
    let mut run = CaseRun {
        name: case.name.clone(),
        actual: None,
        failures: Vec::new(),
    };
    let start = match &case.fen {
        Some(f) => match parse_fen(rules, f) {
            Ok(p) => p,
            Err(e) => {
                run.failures.push(format!("fen: {}", render(*e)));
                return run;
            }
        },
        None => rules.start,
    };
    let mut game = Game::from_position(rules.clone(), start);
    for m in &case.play {
        let legal = game.legal_moves();
        match parse_move(rules, &legal, m) {
            Ok(mv) => game.play(mv),
            Err(e) => {
                run.failures.push(format!("play: {}", render(*e)));
                return run;
            }
        }
    }
    let pos = *game.position();
    let opts = GenOptions {
        keep_duplicates: case.keep_duplicates,
    };
    let mut list = Vec::new();
    rules.generate(&pos, &mut list, opts);
    if game.result().is_some() {
        list.clear();
    }
    let mut moves: Vec<String> = list.iter().map(|m| move_to_string(rules, m)).collect();
    moves.sort();
    let perft = case.perft.as_ref().map(|want| {
        (1..=want.len())
            .map(|d| rules.perft(&pos, d, opts))
            .collect::<Vec<u64>>()
    });
    let actual = Actual {
        fen: to_fen(rules, &pos),
        moves,
        perft,
        result: game.describe_result(),
    };

    if let (Some(want), Some(got)) = (&case.perft, &actual.perft) {
        if want != got {
            run.failures
                .push(format!("perft: expected {want:?}, got {got:?}"));
        }
    }
    if let Some(want) = &case.moves {
        let mut want = want.clone();
        want.sort();
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
            run.failures.push(s);
        }
    }
    for m in &case.contains {
        if parse_move(rules, &list, m).is_err() {
            run.failures
                .push(format!("contains: `{m}` is not a legal move"));
        }
    }
    for m in &case.excludes {
        if parse_move(rules, &list, m).is_ok() {
            run.failures
                .push(format!("excludes: `{m}` is a legal move"));
        }
    }
    if let Some(want) = &case.position {
        match parse_fen(rules, want) {
            Ok(p) if p == pos => {}
            Ok(_) => run
                .failures
                .push(format!("position: expected `{want}`, got `{}`", actual.fen)),
            Err(e) => run.failures.push(format!("position: {}", render(*e))),
        }
    }
    if let Some(want) = &case.result {
        if *want != actual.result {
            run.failures.push(format!(
                "result: expected `{want}`, got `{}`",
                actual.result
            ));
        }
    }
    run.actual = Some(actual);
    run
}

fn render(e: impl miette::Diagnostic + Send + Sync + 'static) -> String {
    let mut s = String::new();
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    if handler.render_report(&mut s, &e).is_err() {
        return e.to_string();
    }
    s
}
