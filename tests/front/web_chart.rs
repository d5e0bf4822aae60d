//! The study chart as the page shows it: stacked (the page's column is narrow) with text large
//! enough to read once scaled down; the file's chart keeps its wide layout (#48).

use damelab::selfplay::chart::{svg, svg_laid_out, Layout};
use damelab::selfplay::robust::{Figure, Value};
use damelab::selfplay::robust_chart::{figures_svg, FLAG};
use damelab::selfplay::{play_game, Report, Settings};

/// The font sizes an SVG uses, in its own pixels.
fn font_sizes(svg: &str) -> Vec<u32> {
    svg.match_indices("font-size=\"")
        .filter_map(|(i, m)| {
            let rest = &svg[i + m.len()..];
            rest[..rest.find('"')?]
                .trim_end_matches("px")
                .parse::<f64>()
                .ok()
        })
        .map(|f| f as u32)
        .collect()
}

/// `games` random English games of seed `seed`, each stopped at `max_plies`, and their report.
fn english_games(
    games: u64,
    seed: u64,
    max_plies: u32,
) -> (Report, Vec<damelab::selfplay::GameRecord>) {
    let v = damelab::Variant::load("english").expect("english");
    let settings = Settings {
        variant: "english".into(),
        rules_fingerprint: String::new(),
        games,
        depth: None,
        nodes: None,
        random: true,
        seed,
        max_plies,
        opening_plies: 0,
        eval: None,
        tables: None,
        contempt: 0,
        openings: None,
    };
    let mut buf = Vec::new();
    let games: Vec<_> = (0..games)
        .map(|i| play_game(&v.rules, &settings, None, i, &mut buf))
        .collect();
    (Report::from_games(&v.rules, &games), games)
}

#[test]
fn the_page_chart_is_stacked_with_larger_text() {
    let (report, games) = english_games(6, 1, 200);
    let wide = svg("t", &report, &games).expect("a chart");
    let page = svg_laid_out("t", &report, &games, Layout::Stacked).expect("a chart");
    assert!(wide.contains("width=\"960\""), "{}", &wide[..200]);
    assert!(page.contains("width=\"480\""), "{}", &page[..200]);
    let (w, p) = (font_sizes(&wide), font_sizes(&page));
    assert!(!p.is_empty(), "no text in the page's chart");
    // Shown at about 320 px wide, 18 px text still reads at 12 px.
    assert!(p.iter().all(|&f| f >= 18), "page fonts {p:?}");
    assert!(w.iter().min() < p.iter().min(), "wide {w:?}, page {p:?}");
}

/// A run with draws shows its draws by class below the panes; a run without draws does not (#45).
#[test]
fn the_chart_tables_the_draws_by_class() {
    // Ten plies: every game stops at the cap, a draw of the cap's class.
    let (report, games) = english_games(4, 3, 10);
    assert_eq!(report.draws.count, 4);
    for layout in [Layout::Wide, Layout::Stacked] {
        let text = svg_laid_out("t", &report, &games, layout).expect("a chart");
        assert!(text.contains("draws by class (4 draws)"), "{layout:?}");
        assert!(text.contains("length cap"), "{layout:?}");
        assert!(text.contains("4 (100%)"), "{layout:?}");
        assert!(text.contains("shuffling"), "{layout:?}");
        assert!(!text.contains("repetition with progress"), "{layout:?}");
        if layout == Layout::Stacked {
            let sizes = font_sizes(&text);
            assert!(sizes.iter().all(|&f| f >= 18), "page fonts {sizes:?}");
        }
    }
    let mut decided = report.clone();
    decided.draws.count = 0;
    let text = svg("t", &decided, &games).expect("a chart");
    assert!(!text.contains("draws by class"));
    assert!(text.contains("height=\"420\""), "{}", &text[..200]);
}

fn figure(name: &str, a: (f64, f64, f64), b: (f64, f64, f64), flagged: bool) -> Figure {
    let value = |config: &str, (value, lo, hi): (f64, f64, f64)| Value {
        config: config.into(),
        value,
        ci95: (lo, hi),
    };
    Figure {
        name: name.into(),
        values: vec![value("depth=2", a), value("nodes=3000", b)],
        range: (a.0.min(b.0), a.0.max(b.0)),
        engine_dependent: flagged,
    }
}

/// `selfplay --configs --svg`: a panel a figure with each configuration, ENGINE-DEPENDENT written
/// on a flagged figure's panel and nowhere when none is flagged (#45).
#[test]
fn the_configs_chart_labels_engine_dependent_figures() {
    let agree = vec![
        figure("draw rate", (0.1, 0.05, 0.2), (0.15, 0.08, 0.25), false),
        figure(
            "first-player score",
            (0.5, 0.4, 0.6),
            (0.55, 0.45, 0.65),
            false,
        ),
        figure("game length", (80.0, 70.0, 90.0), (85.0, 75.0, 95.0), false),
    ];
    let text = figures_svg("t", &agree).expect("a chart");
    for label in [
        "draw rate",
        "first-player score",
        "game length",
        "depth=2",
        "nodes=3000",
    ] {
        assert!(text.contains(label), "{label}");
    }
    assert!(!text.contains(FLAG));
    let mut flagged = agree.clone();
    flagged[0] = figure("draw rate", (0.1, 0.05, 0.2), (0.4, 0.3, 0.5), true);
    let text = figures_svg("t", &flagged).expect("a chart");
    assert_eq!(text.matches(FLAG).count(), 1);
    assert!(text.contains("draw rate — ENGINE-DEPENDENT"));
}
