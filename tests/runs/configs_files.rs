//! Saved runs per engine configuration (issue 45): `selfplay merge` of the shards of runs of the
//! same games under several configurations, and `selfplay chart` of the whole runs, draw the
//! chart `selfplay --configs --svg` draws.

use crate::common::{damelab, fails, ok, p, scratch};
use std::path::Path;

/// What every configurations report shows, checked on a report of 8 games under each of 2
/// configurations: its text, its chart (`svg`, with `labels` beside the figures' names) and its
/// `damelab-configs` file (`json`) agree. The chart's text, for further checks.
pub fn configs_output_agrees(out: &str, svg: &Path, json: &Path, labels: &[&str]) -> String {
    assert!(
        out.contains("8 games under each of 2 engine configurations"),
        "{out}"
    );
    // Two figures a configuration with their ranges across the two.
    assert_eq!(out.matches(" range ").count(), 4, "{out}");
    let chart = std::fs::read_to_string(svg).unwrap();
    for label in ["first-player score"].iter().chain(labels) {
        assert!(chart.contains(label), "{label} not in the chart");
    }
    // The chart flags the figures the text flags, and only those.
    assert_eq!(
        chart.matches("ENGINE-DEPENDENT").count(),
        out.matches("ENGINE-DEPENDENT").count(),
        "{out}"
    );
    let doc: serde_json::Value = crate::common::read_json(json);
    assert_eq!(doc["format"], "damelab-configs");
    assert_eq!(doc["runs"].as_array().unwrap().len(), 2);
    for f in doc["figures"].as_array().unwrap() {
        assert!(f["engine_dependent"].is_boolean(), "{f}");
    }
    chart
}

/// A run of Turkish's 8 games of seed 3 under one configuration, into `json`.
fn run(json: &Path, config: &[&str], shard: Option<&str>) {
    let json = p(json);
    let mut args = vec![
        "selfplay",
        "turkish",
        "--games",
        "8",
        "--seed",
        "3",
        "--threads",
        "2",
        "--json",
        &json,
    ];
    args.extend_from_slice(config);
    if let Some(s) = shard {
        args.extend_from_slice(&["--shard", s]);
    }
    ok(&damelab(&args));
}

#[test]
fn merge_and_chart_of_runs_per_configuration_draw_the_configs_chart() {
    let dir = scratch("configs-files", "chart");
    let f = |name: &str| dir.join(name);
    let derived = ["--eval", "derived", "--depth", "1"];
    let learned = ["--eval", "bundled", "--nodes", "200"];
    run(&f("d1.json"), &derived, Some("1/2"));
    run(&f("d2.json"), &derived, Some("2/2"));
    run(&f("d.json"), &derived, None);
    run(&f("l.json"), &learned, None);

    // The shards of one configuration and the whole run of the other, merged.
    let merged_svg = f("merged.svg");
    let merged_json = f("merged.json");
    let out = ok(&damelab(&[
        "selfplay",
        "merge",
        &p(&f("d1.json")),
        &p(&f("d2.json")),
        &p(&f("l.json")),
        "--svg",
        &p(&merged_svg),
        "--json",
        &p(&merged_json),
    ]));
    assert!(out.contains("turkish: "), "{out}");
    let svg = configs_output_agrees(
        &out,
        &merged_svg,
        &merged_json,
        &["eval=derived,depth=1", "nodes=200"],
    );
    assert!(
        svg.contains("figures across engine configurations"),
        "the merged chart's title"
    );

    // The whole runs charted: the same figures, the same chart as the merge's.
    let chart_svg = f("chart.svg");
    let charted = ok(&damelab(&[
        "selfplay",
        "chart",
        &p(&f("d.json")),
        &p(&f("l.json")),
        "--svg",
        &p(&chart_svg),
    ]));
    assert_eq!(charted, out, "chart and merge report the same figures");
    assert_eq!(std::fs::read_to_string(&chart_svg).unwrap(), svg);

    // The merge's configurations file charts alone, to the same figures.
    let again = f("again.svg");
    let o = ok(&damelab(&[
        "selfplay",
        "chart",
        &p(&merged_json),
        "--svg",
        &p(&again),
    ]));
    assert!(o.contains("2 engine configurations"), "{o}");
    let figures = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(figures(&o), figures(&out));
    let again = std::fs::read_to_string(&again).unwrap();
    assert_eq!(
        again.matches("ENGINE-DEPENDENT").count(),
        svg.matches("ENGINE-DEPENDENT").count()
    );
    assert!(again.contains("eval=derived,depth=1"));

    // A shard alone among whole runs is refused: its configuration is not whole.
    fails(
        &damelab(&[
            "selfplay",
            "chart",
            &p(&f("d1.json")),
            &p(&f("l.json")),
            "--svg",
            &p(&f("x.svg")),
        ]),
        1,
        "merge each configuration's shards first",
    );
    // --pdn merges one run's games, not several configurations'.
    std::fs::write(f("d.pdn"), "").unwrap();
    fails(
        &damelab(&[
            "selfplay",
            "merge",
            &p(&f("d.json")),
            &p(&f("l.json")),
            &p(&f("d.pdn")),
            "--pdn",
            &p(&f("x.pdn")),
        ]),
        1,
        "several engine configurations",
    );
}

#[test]
fn runs_apart_in_depth_alone_are_still_the_draw_rate_by_depth() {
    let dir = scratch("configs-files", "depths");
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    run(&a, &["--eval", "derived", "--depth", "1"], None);
    run(&b, &["--eval", "derived", "--depth", "2"], None);
    let svg = dir.join("c.svg");
    let out = ok(&damelab(&[
        "selfplay",
        "chart",
        &p(&a),
        &p(&b),
        "--svg",
        &p(&svg),
    ]));
    assert!(
        out.contains("depth 1:") && out.contains("depth 2:"),
        "{out}"
    );
    assert!(!out.contains(" range "), "{out}");
}
