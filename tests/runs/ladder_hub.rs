//! `selfplay --ladder --rate-against 'name=… cmd=… depth=…'` (issue 45): the rungs rated against
//! an external Hub engine — `damelab hub` itself, over the first and the second Hub protocol, as
//! `match` drives them — and the report (text and JSON) says what the strength is relative to.

use crate::common::{damelab, fails, ok, p};

const BIN: &str = env!("CARGO_BIN_EXE_damelab");

fn ladder_against(dir: &std::path::Path, reference: &str) -> (String, serde_json::Value) {
    let j = dir.join("l.json");
    let jp = p(&j);
    let out = ok(&damelab(&[
        "selfplay",
        "english",
        "--ladder",
        "depth=1,2",
        "--games",
        "2",
        "--max-plies",
        "80",
        "--threads",
        "1",
        "--seed",
        "5",
        "--rate-against",
        reference,
        "--rate-games",
        "2",
        "--json",
        &jp,
    ]));
    let doc = crate::common::read_json(&j);
    (out, doc)
}

fn check(out: &str, doc: &serde_json::Value, name: &str, cmd: &str) {
    let said = format!("strength relative to {name}, cmd \"{cmd}\" at depth=1");
    assert!(out.contains("Elo: each rung against name="), "{out}");
    assert!(out.contains(&said), "{out}");
    let rungs = doc["runs"].as_array().expect("the rungs' runs");
    assert_eq!(rungs.len(), 2, "{doc}");
    for r in rungs {
        let rating = &r["rating"];
        assert_eq!(rating["games"], 2, "{rating}");
        assert_eq!(
            rating["relative_to"].as_str().unwrap(),
            said.trim_start_matches("strength "),
            "{rating}"
        );
        let (w, d, l) = (
            rating["wins"].as_u64().unwrap(),
            rating["draws"].as_u64().unwrap(),
            rating["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, 2, "{rating}");
    }
}

#[test]
fn ladder_rungs_are_rated_against_an_external_hub_engine_of_either_protocol() {
    let dir = crate::common::scratch("ladder_hub", "both");
    for (name, cmd) in [
        ("hub2", format!("{BIN} hub english")),
        ("hub1", format!("{BIN} hub english --protocol 1")),
    ] {
        let reference = format!("name={name} cmd=\"{cmd}\" depth=1");
        let (out, doc) = ladder_against(&dir, &reference);
        check(&out, &doc, name, &cmd);
    }
}

#[test]
fn an_external_reference_without_a_limit_or_with_nodes_is_refused_before_any_game() {
    let base = [
        "selfplay",
        "english",
        "--ladder",
        "depth=1,2",
        "--games",
        "2",
        "--rate-against",
    ];
    let cmd = format!("name=x cmd=\"{BIN} hub english\"");
    let mut args = base.to_vec();
    args.push(&cmd);
    fails(&damelab(&args), 1, "has no limit");
    let cmd = format!("name=x cmd=\"{BIN} hub english\" nodes=100");
    let mut args = base.to_vec();
    args.push(&cmd);
    fails(&damelab(&args), 1, "--rate-against:");
}
