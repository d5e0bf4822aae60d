//! Perft tables in `tests/perft/*.perft` (data, not code): each `perft D N` line must match.
//! The shallow lines (N up to 2 million nodes) run in `cargo test`; every line runs in release
//! mode from `.ci/run` (`cargo test --release --test perft_tables -- --include-ignored`).
//!
//! `DAMELAB_PERFT_ONLY=moo,thai` checks only the tables of those variants (a new table's deep
//! lines, without the others').
//!
//! Format, one directive a line, `#` comments: `variant NAME|PATH`, `id NAME`, `fen FEN|start`,
//! `perft DEPTH NODES` (duplicate capture routes removed), `keep DEPTH NODES` (kept).

use damelab::engine::GenOptions;
use damelab::notation::parse_fen;
use damelab::{Position, Variant};

const SHALLOW: u64 = 2_000_000;

struct Line {
    file: String,
    variant: String,
    id: String,
    fen: String,
    depth: usize,
    nodes: u64,
    keep: bool,
}

fn lines() -> Vec<Line> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft"))
        .expect("tests/perft exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("perft file is readable");
        let file = path.display().to_string();
        let (mut variant, mut id, mut fen) = (String::new(), String::new(), "start".to_string());
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let Some((key, rest)) = line.split_once(' ') else {
                assert!(line.is_empty(), "{file}:{}: `{line}` has no value", i + 1);
                continue;
            };
            let rest = rest.trim();
            match key {
                "variant" => variant = rest.to_string(),
                "id" => id = rest.to_string(),
                "fen" => fen = rest.to_string(),
                "perft" | "keep" => {
                    let (d, n) = rest
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("{file}:{}: expected DEPTH NODES", i + 1));
                    out.push(Line {
                        file: file.clone(),
                        variant: variant.clone(),
                        id: id.clone(),
                        fen: fen.clone(),
                        depth: d
                            .trim()
                            .parse()
                            .unwrap_or_else(|_| panic!("{file}:{}: bad depth", i + 1)),
                        nodes: n
                            .trim()
                            .parse()
                            .unwrap_or_else(|_| panic!("{file}:{}: bad count", i + 1)),
                        keep: key == "keep",
                    });
                }
                _ => panic!("{file}:{}: unknown directive `{key}`", i + 1),
            }
        }
    }
    out
}

fn check(deep: bool) {
    let mut failures = Vec::new();
    let mut ran = 0;
    let only = std::env::var("DAMELAB_PERFT_ONLY").ok();
    let wanted = |v: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|w| w.trim() == v))
    };
    for l in lines() {
        if (l.nodes <= SHALLOW) == deep || !wanted(&l.variant) {
            continue;
        }
        let v = Variant::load(&l.variant).unwrap_or_else(|e| panic!("{}: {e:?}", l.file));
        let pos: Position = if l.fen == "start" {
            v.rules.start
        } else {
            parse_fen(&v.rules, &l.fen).unwrap_or_else(|e| panic!("{}: {e:?}", l.file))
        };
        let threads = if deep { 2 } else { 1 };
        let got = v.rules.perft_threads(
            &pos,
            l.depth,
            GenOptions {
                keep_duplicates: l.keep,
                ..GenOptions::default()
            },
            threads,
        );
        ran += 1;
        if got != l.nodes {
            failures.push(format!(
                "{} {} {}({}) = {got}, expected {}",
                l.variant,
                l.id,
                if l.keep { "keep" } else { "perft" },
                l.depth,
                l.nodes
            ));
        }
    }
    assert!(ran > 0 || deep, "no perft line ran");
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn shallow_perft_tables() {
    check(false);
}

#[test]
#[ignore = "deep perft: run in release mode by .ci/run"]
fn deep_perft_tables() {
    check(true);
}
