//! The learned evaluation: a tiny training run is reproducible from its seed, the weights file
//! round-trips, every kind of bad weights file is refused with its diagnostic, the learned
//! evaluation scores a position the same in every bit-set width (and, from the derived weights,
//! exactly as the derived evaluation), and `train` refuses absurd settings.

use damelab::cli::train::{settings, TrainArgs};
use damelab::engine::{BitSet, GenOptions, Position, Rules};
use damelab::search::eval::Eval;
use damelab::search::learned::{Features, Layout, Learned, Shapes, Window};
use damelab::search::weights::Weights;
use damelab::search::{Limits, Searcher};
use damelab::train::run::train;
use damelab::Variant;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::process::Output;
use std::sync::Arc;

pub(super) fn load(name: &str) -> Variant {
    Variant::load(name).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damelab-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn damelab(args: &[&str]) -> Output {
    crate::common::bin()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the damelab binary runs")
}

fn fails(args: &[&str], needle: &str) {
    let o = damelab(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

/// `train english`, one generation of 4 games at 200 nodes a move, with `extra` (which says
/// `--match-games`), into `out`.
fn tiny_english_run(extra: &[&str], out: &std::path::Path) -> Output {
    let mut args = vec![
        "train",
        "english",
        "--generations",
        "1",
        "--games",
        "4",
        "--nodes",
        "200",
        "--epochs",
        "5",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    let o = out.to_str().unwrap();
    args.extend(["--out", o]);
    damelab(&args)
}

fn tiny_args(variant: &str, threads: usize) -> TrainArgs {
    TrainArgs {
        variant: variant.into(),
        out: None,
        generations: 2,
        games: 6,
        nodes: Some(300),
        depth: None,
        seed: 7,
        epochs: 20,
        match_games: 2,
        opening_plies: 4,
        max_plies: 120,
        l2: 1e-6,
        wide_patterns: false,
        phases: false,
        race: false,
        result_weight: 1.0,
        start: None,
        window: Shapes(vec![Window::SMALL]),
        threads: Some(threads),
        svg: None,
        json: None,
        generation: None,
        from: None,
        data: None,
        shard: None,
        shards: None,
        fit: damelab::cli::train::FitWhich::All,
        fit_pieces_at_most: None,
        mirror: false,
        symmetric: false,
    }
}

/// Weights with every feature non-zero and varied (seeded), for the width checks.
fn random_weights(rules: &Rules, seed: u64) -> Weights {
    random_weights_in(rules, seed, false)
}

/// The same, in the layout with wide patterns or without.
pub(super) fn random_weights_in(rules: &Rules, seed: u64, wide: bool) -> Weights {
    let mut w = Weights::derived_with(rules, wide);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for v in w.values.iter_mut() {
        *v += rng.random_range(-300..300);
    }
    w
}

/// Random positions reached from the start by random legal moves.
pub(super) fn positions(rules: &Rules, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut pos = rules.start;
        for _ in 0..rng.random_range(0..80) {
            rules.generate(&pos, &mut moves, GenOptions::default());
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
        out.push(pos);
    }
    out
}

fn learned_in<W: BitSet>(rules: &Rules<W>, w: &Weights, pos: &Position) -> i32 {
    Learned::new(w, rules).evaluate(&pos.to_width())
}

#[test]
fn a_tiny_training_run_is_reproducible_from_its_seed() {
    let v = load("dameo");
    let t = settings(&tiny_args("dameo", 1)).unwrap();
    let a = train(&v, &t, 1, &mut |_| {}, &mut |_| Ok(())).unwrap();
    let b = train(&v, &t, 2, &mut |_| {}, &mut |_| Ok(())).unwrap();
    assert_eq!(a.generations.len(), 2);
    assert!(!a.interrupted);
    assert_eq!(
        a.weights, b.weights,
        "same seed, other thread count: same weights"
    );
    assert_eq!(a.weights.to_text(), b.weights.to_text());
    assert_ne!(
        a.weights.values,
        Weights::derived(&v.rules).values,
        "the fit moved the weights"
    );
    let g = &a.generations[1];
    assert!(
        g.positions > 0 && g.loss_after <= g.loss_before + 1e-9,
        "{g:?}"
    );
    assert_eq!(g.against_derived.map(|m| m.games()), Some(2));
    assert!(a.weights.made_by.contains("--seed 7"));
    let mut t2 = t.clone();
    t2.seed = 8;
    let c = train(&v, &t2, 1, &mut |_| {}, &mut |_| Ok(())).unwrap();
    assert_ne!(a.weights, c.weights, "another seed plays other games");
}

#[test]
fn the_weights_file_round_trips() {
    let v = load("turkish");
    let w = random_weights(&v.rules, 3);
    let text = w.to_text();
    let back = Weights::parse(&text, "mem", &v.rules).unwrap();
    assert_eq!(back, w);
    let path = scratch("turkish.weights");
    std::fs::write(&path, &text).unwrap();
    let loaded = Weights::load(&path, &v.rules).unwrap();
    assert_eq!(loaded, w);
    assert_eq!(
        loaded.to_text(),
        text,
        "written again, byte for byte the same"
    );
}

fn refused(text: &str, rules: &Rules, needle: &str) {
    let e = Weights::parse(text, "bad.weights", rules).expect_err(needle);
    let msg = e.to_string();
    assert!(msg.contains(needle), "expected `{needle}` in: {msg}");
    assert!(
        e.help().is_some(),
        "a refusal says what to do instead: {msg}"
    );
}

#[test]
fn every_kind_of_bad_weights_file_is_refused() {
    let v = load("turkish");
    let rules = &v.rules;
    let good = random_weights(rules, 5).to_text();
    refused("", rules, "is not a damelab evaluation file");
    refused("hello world\n", rules, "is not a damelab evaluation file");
    refused(
        &good.replacen("damelab-weights 1", "damelab-weights 9", 1),
        rules,
        "format version 9",
    );
    // Truncated: the last lines cut off, and cut in the header.
    let cut: Vec<&str> = good.lines().collect();
    refused(&cut[..cut.len() - 3].join("\n"), rules, "is truncated");
    refused(&cut[..3].join("\n"), rules, "ends before its `layout` line");
    // Corrupt: one weight changed, a word that is not a number, a huge weight.
    let last = cut.len() - 1;
    let mut lines: Vec<String> = cut.iter().map(|l| l.to_string()).collect();
    lines[last] = lines[last].replacen(|c: char| c.is_ascii_digit(), "9", 1);
    if lines[last] == cut[last] {
        lines[last] = lines[last].replacen('9', "8", 1);
    }
    refused(&lines.join("\n"), rules, "checksum does not match");
    let mut lines: Vec<String> = cut.iter().map(|l| l.to_string()).collect();
    lines[last] = format!("{} x1", lines[last]);
    refused(&lines.join("\n"), rules, "`x1` on line");
    let mut lines: Vec<String> = cut.iter().map(|l| l.to_string()).collect();
    lines[last] = format!("{} 99999999", lines[last]);
    refused(&lines.join("\n"), rules, "is beyond");
    // Another variant's weights.
    let dameo = load("dameo");
    refused(
        &random_weights(&dameo.rules, 1).to_text(),
        rules,
        "was trained for other rules",
    );
    // The right rules but another feature layout (a file of another version of the features).
    let mut other = random_weights(rules, 2);
    other.layout = "kinds=2 squares=64 windows=1 weights=12".into();
    other.values.truncate(12);
    refused(&other.to_text(), rules, "has features");
    // Not text at all, and no file.
    let path = scratch("binary.weights");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let e = Weights::load(&path, rules).unwrap_err();
    assert!(e.to_string().contains("it is not text"), "{e:?}");
    let e = Weights::load(&scratch("missing.weights"), rules).unwrap_err();
    assert!(
        format!("{e:?}").contains("cannot read evaluation file"),
        "{e:?}"
    );
}

#[test]
fn the_derived_weights_score_as_the_derived_evaluation() {
    for name in [
        "dameo",
        "turkish",
        "international",
        "english",
        "damone",
        "frisian",
    ] {
        let v = load(name);
        let w = Weights::derived(&v.rules);
        let eval = Eval::new(v.rules.as_ref());
        let learned = Learned::new(&w, v.rules.as_ref());
        for pos in positions(&v.rules, 60, 1) {
            assert_eq!(learned.evaluate(&pos), eval.evaluate(&pos), "{name}");
        }
    }
}

/// Every bundled variant, and two rules files on boards of more than 128 squares (the widest
/// bit sets).
pub(super) fn every_width_variant() -> Vec<&'static str> {
    let extra = [
        "examples/international-14x14.rules",
        "examples/turkish-16x16.rules",
    ];
    damelab::variants::BUNDLED
        .iter()
        .map(|(n, _)| *n)
        .chain(extra)
        .collect()
}

#[test]
fn the_learned_evaluation_scores_the_same_in_every_width() {
    let mut widths = [0usize; 3];
    let names = every_width_variant();
    for name in names {
        let v = load(name);
        let rules = v.rules.as_ref();
        for w in [random_weights(rules, 9), random_weights_in(rules, 9, true)] {
            for pos in positions(rules, 25, 2) {
                let wide = learned_in(rules, &w, &pos);
                if let Some(n) = &rules.narrow {
                    assert_eq!(learned_in(n.as_ref(), &w, &pos), wide, "{name} (64 bits)");
                    widths[0] += 1;
                } else if let Some(m) = &rules.mid {
                    assert_eq!(learned_in(m.as_ref(), &w, &pos), wide, "{name} (128 bits)");
                    widths[1] += 1;
                } else {
                    widths[2] += 1;
                }
                // And the features are those of the layout, whatever the width.
                let layout = Layout::from_summary(rules, &w.layout);
                let len = layout.len;
                let f = Features::with(rules, layout);
                let mut n = 0;
                f.visit(&pos, |i, _| {
                    assert!(i < len);
                    n += 1;
                });
                assert!(n > 0);
            }
        }
    }
    assert!(
        widths.iter().all(|&n| n > 0),
        "every width checked: {widths:?}"
    );
}

/// The gathered evaluation (each window's configuration pulled out of the sides' bit sets) and the
/// plain one (each piece adding its share to its windows): the same score for every position.
fn gathered_and_plain<W: BitSet>(rules: &Rules<W>, w: &Weights, pos: &[Position]) -> usize {
    let gathered = Learned::new(w, rules);
    let plain = gathered.clone().ungathered();
    assert!(!plain.is_gathered());
    for p in pos {
        let p = p.to_width();
        assert_eq!(gathered.evaluate(&p), plain.evaluate(&p), "{}", w.layout);
    }
    gathered.is_gathered() as usize
}

#[test]
fn the_gathered_evaluation_scores_as_each_piece_adding_its_share() {
    let names = every_width_variant();
    let mut gathered = 0;
    for (k, name) in names.into_iter().enumerate() {
        let v = load(name);
        let rules = v.rules.as_ref();
        let pos = positions(rules, 25, 3 + k as u64);
        for shapes in ["2x2", "2x2+2x4+4x2", "3x2"] {
            let Shapes(shapes) = Shapes::parse(shapes).unwrap();
            let mut w = Weights::derived_in(rules, &Layout::build(rules, &shapes, false, false));
            let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
            for x in w.values.iter_mut() {
                *x += rng.random_range(-300..300);
            }
            gathered += gathered_and_plain(rules, &w, &pos);
            if let Some(n) = &rules.narrow {
                gathered += gathered_and_plain(n.as_ref(), &w, &pos);
            }
            if let Some(m) = &rules.mid {
                gathered += gathered_and_plain(m.as_ref(), &w, &pos);
            }
        }
        // Phases and wide windows are scored the plain way.
        gathered_and_plain(rules, &random_weights_in(rules, 5, true), &pos);
    }
    // Where the processor gathers, every width up to 128 bits did.
    assert_eq!(gathered > 0, damelab::search::learned::gathers());
}

#[test]
fn a_searcher_with_weights_searches_the_same_in_every_width() {
    let v = load("international");
    let w = Arc::new(random_weights(&v.rules, 4));
    let limits = Limits {
        depth: Some(4),
        nodes: None,
        time: None,
        target: None,
    };
    let mut wide = Searcher::new(v.rules.clone(), 1);
    wide.set_weights(Some(w.clone()));
    let narrow_rules = v.rules.narrow.clone().unwrap();
    let mut narrow = Searcher::new(narrow_rules, 1);
    narrow.set_weights(Some(w));
    let mut plain = Searcher::new(v.rules.clone(), 1);
    for pos in positions(&v.rules, 6, 3) {
        let a = wide.search(&pos, &[], limits, &mut |_| {});
        let b = narrow.search(&pos.to_width(), &[], limits, &mut |_| {});
        assert_eq!(a.score, b.score);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best.map(|m| m.to_width::<u64>()), b.best);
        let _ = plain.search(&pos, &[], limits, &mut |_| {});
    }
}

#[test]
fn train_writes_weights_that_analyse_loads() {
    let out = scratch("cli.weights");
    let svg = scratch("cli.svg");
    let o = tiny_english_run(
        &[
            "--match-games",
            "2",
            "--svg",
            svg.to_str().unwrap(),
            "--wide-patterns",
        ],
        &out,
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("generation 1: 4 games"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(" wide="), "{text:.300}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("made-by ") && l.ends_with(" --wide-patterns")),
        "the command that reproduces it: {text:.400}"
    );
    assert!(stdout.contains("wrote"), "{stdout}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let o = damelab(&[
        "analyse",
        "english",
        "--depth",
        "3",
        "--eval",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("evaluation: learned"), "{stdout}");
    assert!(stdout.contains("best "), "{stdout}");
    // The same file on other rules is refused, by every command that loads it.
    let file = out.to_str().unwrap();
    fails(&["analyse", "turkish", "--eval", file], "trained for");
    fails(
        &["selfplay", "turkish", "--games", "2", "--eval", file],
        "trained for",
    );
    fails(
        &["analyse", "english", "--eval", "/nonexistent/w"],
        "cannot read",
    );
}

#[test]
fn train_refuses_absurd_settings() {
    fails(&["train", "nosuch"], "unknown variant");
    fails(
        &["train", "dameo", "--games", "0"],
        "--games 0 is out of range",
    );
    fails(&["train", "dameo", "--generations", "0"], "out of range");
    fails(&["train", "dameo", "--generations", "1000"], "out of range");
    fails(&["train", "dameo", "--nodes", "0"], "out of range");
    fails(&["train", "dameo", "--depth", "999"], "out of range");
    fails(&["train", "dameo", "--epochs", "0"], "out of range");
    fails(&["train", "dameo", "--max-plies", "0"], "out of range");
    fails(&["train", "dameo", "--threads", "0"], "out of range");
    fails(&["train", "dameo", "--l2=-1"], "out of range");
    fails(&["train", "dameo", "--out", "/"], "is a folder");
    for w in [
        "3x3", "0x2", "1x1", "2x", "x2", "2x4x1", "9x1", "two", "2x2+", "2x2+3x3",
    ] {
        fails(&["train", "dameo", "--window", w], "is not two sizes");
    }
    fails(&["train", "dameo", "--window", "2x2+2x4+2x2"], "twice");
    fails(
        &["train", "dameo", "--window", "2x2+2x3+3x2+2x4"],
        "at most 3 go side by side",
    );
}

#[test]
fn the_bundled_weights_load_for_their_rules_and_no_others() {
    for (name, text) in damelab::search::weights::BUNDLED {
        let v = load(name);
        let w = Weights::parse(text, name, &v.rules).unwrap();
        assert_eq!(Weights::bundled(&v.rules), Some(w.clone()), "{name}");
        assert!(
            w.made_by.starts_with("damelab train"),
            "{name}: {}",
            w.made_by
        );
        let resolved = damelab::search::weights::resolve(None, &v.rules).unwrap();
        assert_eq!(resolved.as_deref(), Some(&w), "{name}: the default");
        assert!(damelab::search::weights::resolve(Some("derived"), &v.rules)
            .unwrap()
            .is_none());
    }
    let frisian = load("frisian");
    assert!(Weights::bundled(&frisian.rules).is_none());
    let e = damelab::search::weights::resolve(Some("bundled"), &frisian.rules).unwrap_err();
    assert!(e.to_string().contains("no weights are bundled"), "{e:?}");
}

/// The training guide names exactly the variants whose weights are bundled, in its sentence
/// "The variants that have them: `a`, `b`, …" (so adding a weights file means saying so there).
#[test]
fn the_training_guide_lists_the_bundled_weights() {
    let guide =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/training.md"))
            .unwrap();
    let start = guide
        .find("The variants that have them:")
        .expect("docs/training.md lists the bundled weights");
    let sentence = &guide[start..start + guide[start..].find(". ").unwrap()];
    let listed: Vec<&str> = sentence.split('`').skip(1).step_by(2).collect();
    let bundled: Vec<&str> = damelab::search::weights::BUNDLED
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(listed, bundled);
}

/// A window's configuration in `pos`, read square by square (the reference the feature tables
/// are checked against): 0 empty, 1 first side, 2 second side, square `k` of the window counting
/// 3^k.
fn config(win: &[u8], pos: &Position) -> usize {
    win.iter().rev().fold(0, |acc, &sq| {
        let state = if pos.sides[0].has(sq) {
            1
        } else if pos.sides[1].has(sq) {
            2
        } else {
            0
        };
        acc * 3 + state
    })
}

/// The wide windows' configuration indices of `pos`, sorted.
fn wide_reference(layout: &Layout, pos: &Position) -> Vec<usize> {
    let mut out: Vec<usize> = layout.wide.iter().map(|win| config(win, pos)).collect();
    out.sort_unstable();
    out
}

/// Every window has `cells` distinct playable squares, and no square is in more than `cells`
/// windows; the number of windows each square is in.
fn check_windows<'a>(
    what: &str,
    rules: &Rules,
    windows: impl Iterator<Item = &'a [u8]>,
    cells: usize,
) -> Vec<usize> {
    let mut seen = vec![0usize; rules.geo.size() as usize];
    for win in windows {
        let mut sorted = win.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), cells, "{what}: {win:?}");
        for &sq in win {
            assert!(rules.playable.has(sq), "{what}: {sq} is playable");
            seen[sq as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n <= cells), "{what}: {seen:?}");
    seen
}

#[test]
fn wide_patterns_are_every_nine_square_window_read_square_by_square() {
    for (name, windows) in [
        ("turkish", 36),
        ("dameo", 36),
        ("international", 0),
        ("english", 0),
    ] {
        let v = load(name);
        let rules = v.rules.as_ref();
        let layout = Layout::with(rules, true);
        assert_eq!(Layout::new(rules).wide.len(), 0, "{name}: only when asked");
        if windows > 0 {
            assert_eq!(
                layout.wide.len(),
                windows,
                "{name}: 3x3 blocks of an 8x8 board"
            );
        }
        assert!(!layout.wide.is_empty(), "{name}");
        // Nine distinct playable squares each; no square in more than nine windows; the corner
        // squares of the board in few.
        let seen = check_windows(name, rules, layout.wide.iter().map(|w| &w[..]), 9);
        assert_eq!(seen.iter().sum::<usize>(), 9 * layout.wide.len());
        let f = Features::with(rules, layout.clone());
        for pos in positions(rules, 40, 4) {
            let mut got = Vec::new();
            f.visit(&pos, |i, v| {
                if i >= layout.wide_table {
                    assert_eq!(v, 1);
                    got.push(i - layout.wide_table);
                }
            });
            got.sort_unstable();
            assert_eq!(got, wide_reference(&layout, &pos), "{name}");
        }
        // The layout line names them, and reading it back gives the same layout.
        let summary = layout.summary();
        assert!(
            summary.contains(&format!(" wide={} ", layout.wide.len())),
            "{summary}"
        );
        assert_eq!(Layout::from_summary(rules, &summary), layout);
        assert_eq!(
            Layout::from_summary(rules, &Layout::new(rules).summary()),
            Layout::new(rules)
        );
    }
}

#[test]
fn a_wide_weights_file_round_trips_and_is_refused_in_the_other_layout() {
    let v = load("turkish");
    let w = random_weights_in(&v.rules, 4, true);
    assert!(w.layout.contains("wide=36"), "{}", w.layout);
    let text = w.to_text();
    assert_eq!(Weights::parse(&text, "mem", &v.rules).unwrap(), w);
    // The same weights claiming the small layout: the count differs, so the file is refused.
    let mut other = w.clone();
    other.layout = Layout::new(v.rules.as_ref()).summary();
    refused(&other.to_text(), &v.rules, "has features");
    // The wide table changes the score of a position with pieces in it.
    let small = random_weights_in(&v.rules, 4, false);
    let pos = v.rules.start;
    let a = Learned::new(&w, v.rules.as_ref()).evaluate(&pos);
    let mut zeroed = w.clone();
    let table = Layout::with(v.rules.as_ref(), true).wide_table;
    zeroed.values[table..].fill(0);
    let b = Learned::new(&zeroed, v.rules.as_ref()).evaluate(&pos);
    assert_eq!(
        b,
        Learned::new(&small, v.rules.as_ref()).evaluate(&pos),
        "with a zero table, the small layout's score"
    );
    assert_ne!(a, b);
}

#[test]
fn phased_weights_blend_an_opening_and_an_ending_set_as_training_reads_them() {
    for name in ["international", "turkish", "dameo", "english"] {
        let v = load(name);
        let rules = v.rules.as_ref();
        let layout = Layout::shaped(rules, false, true);
        let plain = Layout::new(rules);
        assert_eq!(layout.base, plain.len, "{name}");
        assert_eq!(layout.len, 2 * plain.len, "{name}");
        assert!(
            layout.summary().contains(" phases=2 "),
            "{}",
            layout.summary()
        );
        assert_eq!(Layout::from_summary(rules, &layout.summary()), layout);
        assert!(!plain.summary().contains("phases"));
        let f = Features::with(rules, layout.clone());
        // The phase: 0 at the start, all of it once four fifths of the pieces are gone.
        assert_eq!(f.phase(&rules.start), 0, "{name}");
        // Derived weights in both halves score exactly as the derived evaluation.
        let derived = Weights::derived_shaped(rules, false, true);
        assert!(derived.layout.contains("phases=2"));
        let eval = Eval::new(rules);
        let learned = Learned::new(&derived, rules);
        // Random weights: the evaluation is the rows' sum, as the fit computes it.
        let mut w = derived.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for x in w.values.iter_mut() {
            *x += rng.random_range(-300..300);
        }
        let random = Learned::new(&w, rules);
        let mut phases = Vec::new();
        for pos in positions(rules, 60, 2) {
            assert_eq!(learned.evaluate(&pos), eval.evaluate(&pos), "{name}");
            let p = f.phase(&pos);
            assert!((0..=16).contains(&p), "{name}: phase {p}");
            phases.push(p);
            let mut sum = 0i64;
            f.row(&pos, |i, v| sum += w.values[i] as i64 * v as i64);
            let white = ((sum + 32) >> 6) as i32;
            let expected = if pos.turn() == 0 { white } else { -white };
            assert_eq!(
                random.evaluate(&pos),
                expected.clamp(-20_000, 20_000),
                "{name}"
            );
        }
        assert!(phases.iter().any(|&p| p > 0), "{name}: {phases:?}");
        // A file round-trips, and the same numbers claimed as one phase are refused.
        let text = w.to_text();
        assert_eq!(Weights::parse(&text, "mem", &v.rules).unwrap(), w);
        let mut other = w.clone();
        other.layout = plain.summary();
        refused(&other.to_text(), &v.rules, "has features");
    }
    // An ending with two pieces is all ending.
    let v = load("international");
    let f = Features::with(
        v.rules.as_ref(),
        Layout::shaped(v.rules.as_ref(), false, true),
    );
    let pos = damelab::notation::parse_fen(&v.rules, "W:W46:B5").unwrap();
    assert_eq!(f.phase(&pos), 16);
}

#[test]
fn train_with_phases_writes_phased_weights_that_analyse_loads() {
    let out = scratch("phased.weights");
    let o = tiny_english_run(&["--phases", "--match-games", "0"], &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("phases=2"), "{text}");
    assert!(text.contains("--phases"), "the made-by line says it");
    let a = damelab(&[
        "analyse",
        "english",
        "--eval",
        out.to_str().unwrap(),
        "--depth",
        "4",
        "--no-tables",
    ]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(String::from_utf8_lossy(&a.stdout).contains("best "));
}

/// The nodes of the last depth line of `damelab analyse ARGS`.
fn analysed_nodes(args: &[&str]) -> u64 {
    let mut all = vec!["analyse"];
    all.extend_from_slice(args);
    let o = damelab(&all);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let last = stdout
        .lines()
        .rfind(|l| l.starts_with("depth "))
        .unwrap_or_else(|| panic!("{all:?} printed no depth line: {stdout}"));
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "nodes")
        .expect("a nodes column");
    words[at + 1].parse().expect("a node count")
}

#[test]
fn a_weights_files_search_settings_are_where_its_engines_start() {
    let v = load("international");
    let plain = scratch("plain-international.weights");
    let tuned = scratch("tuned-international.weights");
    let cleared = scratch("cleared-international.weights");
    std::fs::write(&plain, Weights::derived(&v.rules).to_text()).unwrap();
    let (p, t, c) = (
        plain.to_str().unwrap(),
        tuned.to_str().unwrap(),
        cleared.to_str().unwrap(),
    );
    let o = damelab(&[
        "train",
        "search-settings",
        "international",
        p,
        "lmr_div=300",
        "probcut=true",
        "--out",
        t,
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout.contains("search lmr_div=300 probcut=true"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&tuned).unwrap();
    assert!(
        text.lines().any(|l| l == "search lmr_div=300 probcut=true"),
        "{text:.400}"
    );
    let w = Weights::load(&tuned, &v.rules).unwrap();
    let pairs = |s: &[(&str, &str)]| -> Vec<(String, String)> {
        s.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    };
    assert_eq!(w.search, pairs(&[("lmr_div", "300"), ("probcut", "true")]));
    let o = damelab::search::weights::options(Some(&w));
    assert!(o.lmr_div == 300 && o.probcut, "{o:?}");
    // An engine with the tuned file searches as the plain file with those options, and an
    // option given by name overrides the file's.
    let depth = ["--depth", "9", "--no-tables", "--eval"];
    let with = |file: &str, extra: &[&str]| {
        let mut a = vec!["international"];
        a.extend_from_slice(&depth);
        a.push(file);
        a.extend_from_slice(extra);
        analysed_nodes(&a)
    };
    let plain_nodes = with(p, &[]);
    let tuned_nodes = with(t, &[]);
    assert_ne!(tuned_nodes, plain_nodes, "the settings change the search");
    assert_eq!(
        tuned_nodes,
        with(p, &["--option", "lmr_div=300", "--option", "probcut=true"])
    );
    assert_eq!(
        plain_nodes,
        with(t, &["--option", "lmr_div=150", "--option", "probcut=false"])
    );
    // No settings: the line goes, and the file is the plain one again.
    let o = damelab(&["train", "search-settings", "international", t, "--out", c]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("no search settings"));
    assert_eq!(
        std::fs::read_to_string(&cleared).unwrap(),
        std::fs::read_to_string(&plain).unwrap()
    );
    // Bad settings are refused, and the file is left as it was.
    let before = std::fs::read_to_string(&tuned).unwrap();
    for (bad, needle) in [
        (
            "lmr_div=5",
            "`lmr_div` takes a whole number from 50 to 1000",
        ),
        ("banana", "`banana` is not NAME=VALUE"),
        ("nullmove=true", "unknown search option `nullmove`"),
        ("preset=8d59e68", "`preset` is not a setting of the weights"),
        ("threads=2", "`threads` is not a setting of the weights"),
    ] {
        fails(
            &["train", "search-settings", "international", t, bad],
            needle,
        );
    }
    assert_eq!(std::fs::read_to_string(&tuned).unwrap(), before);
    fails(
        &["train", "search-settings", "turkish", t, "lmr_div=120"],
        "trained for other rules",
    );
    // A file whose `search` line holds a bad setting is refused when read, never used.
    let mut w = Weights::derived(&v.rules);
    w.search = pairs(&[("lmr_div", "3000")]);
    refused(&w.to_text(), &v.rules, "its `search` line");
}

/// The windows' feature indices of `pos` in `layout`, read square by square: 0 empty, 1 first
/// side, 2 second side, square `k` of a window counting 3^k.
fn window_reference(layout: &Layout, pos: &Position) -> Vec<usize> {
    let mut out: Vec<usize> = layout
        .windows
        .iter()
        .enumerate()
        .map(|(w, win)| layout.tables[w] + config(win, pos))
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn larger_windows_are_every_a_by_b_block_read_square_by_square() {
    assert_eq!(
        Window::parse("2x4"),
        Ok(Window {
            along: 2,
            across: 4
        })
    );
    for name in ["international", "turkish", "english", "dameo"] {
        let v = load(name);
        let rules = v.rules.as_ref();
        assert_eq!(
            Layout::build(rules, &[Window::SMALL], false, false),
            Layout::new(rules),
            "{name}: 2x2 is the small windows"
        );
        for shape in ["2x2", "2x3", "3x2", "2x4", "4x2", "2x2+2x4", "2x2+2x4+4x2"] {
            let Shapes(shapes) = Shapes::parse(shape).unwrap();
            let layout = Layout::build(rules, &shapes, false, false);
            assert_eq!(layout.shapes, shapes);
            assert_eq!(layout.groups.len(), shapes.len());
            assert_eq!(layout.groups.last().unwrap().end, layout.windows.len());
            for (window, group) in shapes.iter().zip(&layout.groups) {
                let cells = window.cells();
                assert!(!group.is_empty(), "{name} {shape}: {window}");
                // Each window's table: 3^cells configurations, one after another.
                for w in group.clone() {
                    let next = layout.tables.get(w + 1).unwrap_or(&layout.wide_table);
                    assert_eq!(next - layout.tables[w], 3usize.pow(cells as u32));
                }
                let what = format!("{name} {shape}: {window}");
                let group = &layout.windows[group.clone()];
                check_windows(&what, rules, group.iter().map(|w| &w[..]), cells);
            }
            assert_eq!(layout.tables[0], layout.patterns);
            let f = Features::with(rules, layout.clone());
            for pos in positions(rules, 30, 5) {
                let mut got = Vec::new();
                f.visit(&pos, |i, v| {
                    if (layout.patterns..layout.wide_table).contains(&i) {
                        assert_eq!(v, 1);
                        got.push(i);
                    }
                });
                got.sort_unstable();
                assert_eq!(got, window_reference(&layout, &pos), "{name} {shape}");
            }
            // The layout line names the shape (all but the small one) and reads back; the
            // derived weights in it score as the derived evaluation and round-trip as a file.
            let summary = layout.summary();
            assert_eq!(
                summary.contains(&format!(" window={shape} ")),
                shape != "2x2",
                "{summary}"
            );
            assert_eq!(Layout::from_summary(rules, &summary), layout);
            let w = Weights::derived_in(rules, &layout);
            assert_eq!(Weights::parse(&w.to_text(), "mem", &v.rules).unwrap(), w);
            let learned = Learned::new(&w, rules);
            let eval = Eval::new(rules);
            for pos in positions(rules, 20, 6) {
                assert_eq!(
                    learned.evaluate(&pos),
                    eval.evaluate(&pos),
                    "{name} {shape}"
                );
            }
        }
    }
    // A layout line naming a shape out of range is refused, not built.
    let v = load("international");
    let mut w = Weights::derived(&v.rules);
    w.layout = w
        .layout
        .replace("squares=55 windows", "squares=55 window=5x5 windows");
    refused(&w.to_text(), &v.rules, "has features");
}

#[test]
fn weights_carried_into_another_layout_keep_what_both_have() {
    // English's bundled file: four-square windows without the race features (a raced file's
    // tapered endings cannot be carried into a layout without them).
    let v = load("english");
    let rules = v.rules.as_ref();
    let file = Weights::bundled(&v.rules).expect("bundled english weights");
    // Into its own layout: the same weights.
    let own = Layout::from_summary(rules, &file.layout);
    assert_eq!(file.carried_into(rules, &own).unwrap().values, file.values);
    // Weights of the four-square windows alone (the bundled file's, whatever else it has).
    let small = Layout::new(rules);
    let bundled = file.carried_into(rules, &small).unwrap();
    assert_eq!(bundled.layout, small.summary());
    assert_eq!(
        bundled.values[..small.wide_table],
        file.values[..small.wide_table]
    );
    // Into a phased layout: both phases start at them, so every position scores the same.
    let phased = bundled
        .carried_into(rules, &Layout::shaped(rules, false, true))
        .unwrap();
    let (a, b) = (Learned::new(&bundled, rules), Learned::new(&phased, rules));
    for pos in positions(rules, 40, 7) {
        assert_eq!(a.evaluate(&pos), b.evaluate(&pos));
    }
    // Into larger windows: everything before the windows is kept, the new tables start at 0.
    let wide = Layout::build(rules, &[Window::parse("2x4").unwrap()], false, false);
    let carried = bundled.carried_into(rules, &wide).unwrap();
    assert_eq!(carried.layout, wide.summary());
    assert_eq!(
        carried.values[..wide.patterns],
        bundled.values[..small.patterns]
    );
    assert!(carried.values[wide.patterns..].iter().all(|&x| x == 0));
    // Beside the small windows: those keep their tables, the larger ones start at 0, so every
    // position scores as with the bundled weights; and back again, the small ones are kept.
    let Shapes(shapes) = Shapes::parse("2x2+2x4").unwrap();
    let beside = Layout::build(rules, &shapes, false, false);
    let carried = bundled.carried_into(rules, &beside).unwrap();
    assert_eq!(
        carried.values[..small.wide_table],
        bundled.values[..small.wide_table]
    );
    assert!(carried.values[beside.tables[beside.groups[1].start]..]
        .iter()
        .all(|&x| x == 0));
    let c = Learned::new(&carried, rules);
    for pos in positions(rules, 40, 8) {
        assert_eq!(a.evaluate(&pos), c.evaluate(&pos));
    }
    let mut fitted = carried.clone();
    fitted.values[beside.wide_table - 1] = 40;
    assert_eq!(
        fitted.carried_into(rules, &small).unwrap().values,
        bundled.values
    );
    // Out of a phased layout into one without phases: refused.
    assert!(phased.carried_into(rules, &small).is_err());
}

#[test]
fn train_continues_bundled_weights_into_larger_windows() {
    let dir = std::env::temp_dir().join(format!("damelab-train-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("w.weights");
    let bundled = dir.join("english.weights");
    let v = load("english");
    std::fs::write(&bundled, Weights::bundled(&v.rules).unwrap().to_text()).unwrap();
    let o = tiny_english_run(
        &[
            "--window",
            "2x2+2x3",
            "--match-games",
            "0",
            "--start",
            bundled.to_str().unwrap(),
        ],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let w = Weights::load(&out, &v.rules).unwrap();
    assert!(w.layout.contains(" window=2x2+2x3 "), "{}", w.layout);
    assert!(
        w.made_by.contains("--window 2x2+2x3 --start "),
        "{}",
        w.made_by
    );
    let layout = Layout::from_summary(v.rules.as_ref(), &w.layout);
    assert!(
        w.values[layout.tables[layout.groups[1].start]..]
            .iter()
            .any(|&x| x != 0),
        "the new windows were fitted"
    );
    // Phased start weights cannot be carried into a layout without phases.
    let phased = dir.join("phased.weights");
    let p = Weights::bundled(&v.rules)
        .unwrap()
        .carried_into(
            v.rules.as_ref(),
            &Layout::shaped(v.rules.as_ref(), false, true),
        )
        .unwrap();
    std::fs::write(&phased, p.to_text()).unwrap();
    fails(
        &["train", "english", "--start", phased.to_str().unwrap()],
        "the start weights",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train symmetric` averages each weight with its mirror feature's: international's bundled
/// weights with some moved apart change, the result is its own symmetric file, and rules that
/// treat the sides differently are refused.
#[test]
fn train_symmetric_ties_each_weight_to_its_mirror_feature() {
    let v = load("international");
    let bundled = scratch("bundled-international.weights");
    let sym = scratch("symmetric-international.weights");
    let again = scratch("symmetric-again-international.weights");
    // The bundled weights with some moved apart from their mirror features' (the bundled file
    // may be symmetric already).
    let mut input = Weights::bundled(&v.rules).unwrap();
    for (i, x) in input.values.iter_mut().enumerate().step_by(997) {
        *x += 1 + (i % 5) as i32;
    }
    let text = input.to_text();
    std::fs::write(&bundled, &text).unwrap();
    let (b, s, a) = (
        bundled.to_str().unwrap(),
        sym.to_str().unwrap(),
        again.to_str().unwrap(),
    );
    let changed = |args: &[&str]| -> usize {
        let o = damelab(args);
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let words: Vec<&str> = stdout.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "of").expect("a count");
        assert_eq!(words[at + 2], "weights", "{stdout}");
        words[at - 1].parse().expect("a number")
    };
    assert!(changed(&["train", "symmetric", "international", b, "--out", s]) > 0);
    // The input is left as it was; the output loads and says how it was made, once.
    assert_eq!(std::fs::read_to_string(&bundled).unwrap(), text);
    let w = Weights::load(&sym, &v.rules).unwrap();
    assert!(
        w.made_by.ends_with("; damelab train symmetric"),
        "{}",
        w.made_by
    );
    assert_eq!(
        changed(&["train", "symmetric", "international", s, "--out", a]),
        0
    );
    let twice = Weights::load(&again, &v.rules).unwrap();
    assert_eq!(twice.values, w.values);
    assert_eq!(twice.made_by, w.made_by);
    fails(
        &["train", "symmetric", "bashni", b],
        "the rules do not treat the two sides alike",
    );
}
