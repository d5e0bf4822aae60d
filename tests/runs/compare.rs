//! `damelab compare A B` (issue 45): the same games under two rules files, each figure's paired
//! difference and a verdict; refusals; an interrupted comparison goes on from its file.

use crate::common::{damelab, fails, ok, p, scratch};
use serde_json::Value;

const FAST: [&str; 6] = ["--games", "12", "--depth", "2", "--threads", "2"];

/// English with four men a side fewer: a rule that matters.
fn fewer_men(dir: &std::path::Path) -> String {
    let english = ok(&damelab(&["show", "english"]));
    let text = english.replace("setup white man 21..32", "setup white man 25..32");
    assert_ne!(text, english);
    let path = dir.join("english-8.rules");
    std::fs::write(&path, text).unwrap();
    p(&path)
}

fn verdicts(out: &str) -> Vec<(String, String)> {
    let names = [
        "draw rate",
        "first-player score",
        "game length",
        "decisiveness",
        "lead changes",
        "branching factor",
    ];
    names
        .iter()
        .map(|n| {
            let line = out
                .lines()
                .find(|l| l.starts_with(n))
                .unwrap_or_else(|| panic!("no line for {n}: {out}"));
            let verdict = ["A higher", "B higher", "not distinguishable"]
                .into_iter()
                .find(|v| line.ends_with(v))
                .unwrap_or_else(|| panic!("no verdict: {line}"));
            (n.to_string(), verdict.to_string())
        })
        .collect()
}

#[test]
fn a_file_compared_with_itself_is_not_distinguishable_on_any_figure() {
    let dir = scratch("compare", "itself");
    let json = dir.join("same.json");
    let svg = dir.join("same.svg");
    let mut args = vec!["compare", "english", "english"];
    args.extend_from_slice(&FAST);
    let (j, s) = (p(&json), p(&svg));
    args.extend_from_slice(&["--json", &j, "--svg", &s]);
    let out = ok(&damelab(&args));
    for (name, verdict) in verdicts(&out) {
        assert_eq!(verdict, "not distinguishable", "{name}: {out}");
    }
    assert!(
        out.contains("the same opening moves in both in 12 of 12 pairs"),
        "{out}"
    );
    let doc: Value = crate::common::read_json(&json);
    assert_eq!(doc["format"], "damelab-compare");
    assert_eq!(doc["complete"], true);
    for m in doc["metrics"].as_array().unwrap() {
        assert_eq!(m["diff"], 0.0, "{m}");
    }
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn a_rule_that_matters_shows_a_difference_and_an_interrupted_comparison_goes_on() {
    let dir = scratch("compare", "differ");
    let b = fewer_men(&dir);
    let json = dir.join("cmp.json");
    let pdn_a = dir.join("a.pdn");
    let pdn_b = dir.join("b.pdn");
    let mut args = vec!["compare", "english", &b];
    args.extend_from_slice(&FAST);
    let (j, pa, pb) = (p(&json), p(&pdn_a), p(&pdn_b));
    args.extend_from_slice(&["--json", &j, "--pdn-a", &pa, "--pdn-b", &pb]);
    let out = ok(&damelab(&args));
    let v = verdicts(&out);
    assert!(
        v.iter()
            .any(|(_, verdict)| verdict != "not distinguishable"),
        "{out}"
    );
    // Four men a side fewer: the lead in material changes hands less often under B.
    assert_eq!(
        v[4],
        ("lead changes".to_string(), "A higher".to_string()),
        "{out}"
    );
    for pdn in [&pdn_a, &pdn_b] {
        let text = std::fs::read_to_string(pdn).unwrap();
        assert_eq!(text.matches("[Result").count(), 12, "{text}");
    }
    let replayed = ok(&damelab(&["replay", &pa]));
    assert!(replayed.contains("12 replayed, 0 failed"), "{replayed}");
    // A comparison stopped after five pairs: the same command plays the other seven and gives
    // the same file.
    let whole = std::fs::read_to_string(&json).unwrap();
    let mut doc: Value = serde_json::from_str(&whole).unwrap();
    doc["pairs"].as_array_mut().unwrap().truncate(5);
    doc["complete"] = false.into();
    std::fs::write(&json, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let again = ok(&damelab(&args));
    assert!(again.contains("going on from 5 finished pairs"), "{again}");
    assert_eq!(std::fs::read_to_string(&json).unwrap(), whole);
    // Another comparison's file is not overwritten.
    let mut other = args.clone();
    other[1] = "international";
    other[2] = "international";
    fails(&damelab(&other), 1, "holds another comparison");
}

#[test]
fn rules_that_cannot_be_compared_are_refused_naming_both() {
    let dir = scratch("compare", "refused");
    let broken = dir.join("broken.rules");
    std::fs::write(
        &broken,
        "variant \"x\"\nboard 8x8, dark squares\nnonsense\n",
    )
    .unwrap();
    let err = fails(
        &damelab(&["compare", "english", &p(&broken), "--games", "2"]),
        1,
        "rules B",
    );
    assert!(
        err.contains("broken.rules") && err.contains("english"),
        "{err}"
    );
    fails(
        &damelab(&[
            "compare",
            "english",
            "international",
            "--games",
            "2",
            "--same-openings",
        ]),
        1,
        "`english` and `international` have different boards",
    );
    fails(
        &damelab(&["compare", "english", "english", "--games", "1"]),
        1,
        "--games 1 is out of range",
    );
    fails(
        &damelab(&["compare", "english", "english", "--eval", "w.txt"]),
        1,
        "not an evaluation of both files",
    );
}

#[test]
fn different_boards_are_compared_on_the_seeds_alone_and_say_so() {
    let out = ok(&damelab(&[
        "compare",
        "english",
        "international",
        "--games",
        "4",
        "--depth",
        "1",
        "--threads",
        "2",
    ]));
    assert!(
        out.contains("the boards differ: the same seeds only"),
        "{out}"
    );
    assert_eq!(verdicts(&out).len(), 6);
}
