//! The ladder picture: draw rate, the first player's score, mean game length and how games end,
//! each against strength (nodes per move on a log scale, or depth), one line per variant, 95%
//! intervals as whiskers (plotters, as the other self-play charts).

use super::chart::{drawing, ChartError, LINE_COLOURS};
use super::ladder::{Key, LadderFile, Rung};
use super::{End, ENDS};
use plotters::coord::Shift;
use plotters::prelude::*;

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The SVG text of the chart of one or more ladders (all of one key).
pub fn svg(ladders: &[LadderFile]) -> Result<String, ChartError> {
    let Some(first) = ladders.first() else {
        return Err(ChartError::NoLadder);
    };
    if let Some(other) = ladders.iter().find(|l| l.key != first.key) {
        return Err(ChartError::OtherAxes {
            first: first.variant.clone(),
            first_key: first.key.name().to_string(),
            other: other.variant.clone(),
            other_key: other.key.name().to_string(),
        });
    }
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1100, 820)).into_drawing_area();
        draw(&root, ladders).map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(out)
}

/// A series' name in the legends: the variant, with each rung's Elo when rated.
fn legend(l: &LadderFile) -> String {
    let elos: Vec<String> = l
        .rungs
        .iter()
        .filter_map(|r| r.rating.as_ref().map(|g| super::strength::whole(g.elo)))
        .collect();
    match l.rungs.iter().find_map(|r| r.rating.as_ref()) {
        Some(g) if elos.len() == l.rungs.len() => {
            format!(
                "{} (Elo vs {}: {})",
                l.variant,
                g.reference,
                elos.join(", ")
            )
        }
        _ => l.variant.clone(),
    }
}

fn title(ladders: &[LadderFile]) -> String {
    let games: Vec<u64> = ladders
        .iter()
        .flat_map(|l| l.rungs.iter().map(|r| r.games))
        .collect();
    let (lo, hi) = (
        games.iter().min().copied().unwrap_or(0),
        games.iter().max().copied().unwrap_or(0),
    );
    let games = if lo == hi {
        format!("{lo} games a rung")
    } else {
        format!("{lo}–{hi} games a rung")
    };
    let names: Vec<&str> = ladders.iter().map(|l| l.variant.as_str()).collect();
    format!("self-play against strength: {} ({games})", names.join(", "))
}

/// One panel: a value with its interval per rung.
struct Panel<'a> {
    caption: &'a str,
    y_desc: &'a str,
    /// (value, low, high) of a rung.
    get: &'a dyn Fn(&Rung) -> (f64, f64, f64),
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, ladders: &[LadderFile]) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(&title(ladders), ("sans-serif", 20))?;
    let areas = root.split_evenly((2, 2));
    let key = ladders[0].key;
    let pct = |s: &super::Share| (100.0 * s.rate, 100.0 * s.ci95.0, 100.0 * s.ci95.1);
    let draws = |r: &Rung| pct(&r.draws);
    let first = |r: &Rung| {
        let f = &r.first_player_score;
        (f.value, f.low, f.high)
    };
    let length = |r: &Rung| {
        let l = &r.length_mean;
        (l.value, l.low, l.high)
    };
    let panels = [
        Panel {
            caption: "draw rate",
            y_desc: "draws %",
            get: &draws,
        },
        Panel {
            caption: "first player's score (0.5: no advantage)",
            y_desc: "score",
            get: &first,
        },
        Panel {
            caption: "mean game length",
            y_desc: "plies",
            get: &length,
        },
    ];
    for (area, panel) in areas.iter().zip(&panels) {
        let series: Vec<Series> = ladders
            .iter()
            .map(|l| {
                (
                    legend(l),
                    l.rungs
                        .iter()
                        .map(|r| (r.value as f64, (panel.get)(r)))
                        .collect(),
                )
            })
            .collect();
        lines(area, key, panel.caption, panel.y_desc, &series)?;
    }
    // How games end: each way's share, a line per variant and way (the way named in the legend).
    let mut series = Vec::new();
    for l in ladders {
        for &e in ENDS.iter() {
            let points: Vec<(f64, (f64, f64, f64))> = l
                .rungs
                .iter()
                .map(|r| {
                    let s = r.ends.iter().find(|x| x.0 == e).map(|x| &x.1);
                    (r.value as f64, s.map_or((0.0, 0.0, 0.0), pct))
                })
                .collect();
            if points.iter().any(|p| p.1 .0 > 0.0) {
                let name = if ladders.len() == 1 {
                    end_label(e).to_string()
                } else {
                    format!("{}: {}", l.variant, end_label(e))
                };
                series.push((name, points));
            }
        }
    }
    lines(&areas[3], key, "how games end", "games %", &series)?;
    Ok(())
}

fn end_label(e: End) -> &'static str {
    match e {
        End::Cap => "length cap",
        e => e.label(),
    }
}

type Series = (String, Vec<(f64, (f64, f64, f64))>);

/// A panel of lines with whiskers, a colour a series.
fn lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    key: Key,
    caption: &str,
    y_desc: &str,
    series: &[Series],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let xs = series.iter().flat_map(|s| s.1.iter().map(|p| p.0));
    let (xmin, xmax) = xs.fold((f64::INFINITY, 0f64), |(a, b), x| (a.min(x), b.max(x)));
    let ys = series.iter().flat_map(|s| s.1.iter().map(|p| p.1));
    let (ymin, ymax) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, lo, hi)| {
        (a.min(lo), b.max(hi))
    });
    // Room above the data for the legend: a third of the panel. A share's axis is labelled only
    // from 0 to 100%.
    let percent = y_desc.ends_with('%');
    let (ymin, ymax) = if ymin.is_finite() && ymax > ymin {
        let pad = (ymax - ymin) * 0.1;
        let low = if percent || y_desc == "plies" {
            (ymin - pad).max(0.0)
        } else {
            ymin - pad
        };
        (low, ymax + (ymax - low) * 0.5)
    } else {
        (0.0, 1.0)
    };
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(55);
    // Node budgets on a log scale: the chart's x is log10 of the budget.
    let at = |x: f64| match key {
        Key::Nodes => x.max(1.0).log10(),
        Key::Depth => x,
    };
    let pad = match key {
        Key::Nodes => 0.25,
        Key::Depth => 0.5,
    };
    let series: Vec<Series> = series
        .iter()
        .map(|(n, ps)| (n.clone(), ps.iter().map(|&(x, y)| (at(x), y)).collect()))
        .collect();
    let mut chart = builder.build_cartesian_2d(at(xmin) - pad..at(xmax) + pad, ymin..ymax)?;
    let label = |x: &f64| match key {
        Key::Nodes => thousands(10f64.powf(*x)),
        Key::Depth => format!("{x:.0}"),
    };
    let y_label = |y: &f64| {
        if percent && *y > 100.0 + 1e-9 {
            String::new()
        } else {
            format!("{y:.2}")
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        }
    };
    chart
        .configure_mesh()
        .x_desc(key.axis())
        .y_desc(y_desc)
        .x_labels(8)
        .x_label_formatter(&label)
        .y_label_formatter(&y_label)
        .draw()?;
    plot(&mut chart, &series)?;
    Ok(())
}

/// `1k`, `10k`, `1M`, `3.2k` for a node axis (two significant digits).
fn thousands(x: f64) -> String {
    let digits = x.max(1.0).log10().floor() as i32;
    let unit = 10f64.powi((digits - 1).max(0));
    let x = (x / unit).round() * unit;
    if x >= 1e6 {
        format!("{}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

type Coords =
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>;

fn plot<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Coords>,
    series: &[Series],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = LINE_COLOURS[i % LINE_COLOURS.len()];
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|&(x, (y, _, _))| (x, y)),
                colour.stroke_width(2),
            ))?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        // Whiskers: the 95% interval of each point.
        chart.draw_series(points.iter().map(|&(x, (_, lo, hi))| {
            PathElement::new(vec![(x, lo), (x, hi)], colour.stroke_width(1))
        }))?;
        chart.draw_series(
            points
                .iter()
                .map(|&(x, (y, _, _))| Circle::new((x, y), 3, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 11))
        .draw()?;
    Ok(())
}

/// `selfplay chart` of ladder files: a text line per variant and the chart. `Ok(false)` when the
/// files are not ladder files (they are then charted as runs); a mix is refused.
pub fn chart_ladders(
    paths: &[std::path::PathBuf],
    svg_path: &std::path::Path,
    out: &mut dyn FnMut(&str),
) -> Result<bool, miette::Report> {
    use super::file::bad;
    let mut texts = Vec::new();
    for p in paths {
        let text = crate::fsio::read_text(p, crate::fsio::Kind::RunJson).map_err(|e| {
            bad(
                format!("cannot read `{}`: {e}", p.display()),
                "give the JSON files of runs or of ladders",
            )
        })?;
        #[derive(serde::Deserialize)]
        struct Head {
            #[serde(default)]
            format: String,
        }
        let head: Head = serde_json::from_str(&text).map_err(|e| {
            bad(
                format!("`{}` is not JSON: {e}", p.display()),
                "give the JSON files of runs or of ladders",
            )
        })?;
        texts.push((p, head.format == super::ladder::FORMAT, text));
    }
    let ladders = texts.iter().filter(|t| t.1).count();
    if ladders == 0 {
        return Ok(false);
    }
    if ladders < texts.len() {
        let run = texts
            .iter()
            .find(|t| !t.1)
            .map(|t| t.0.display().to_string());
        return Err(bad(
            format!(
                "`{}` is not a ladder file, but other files are",
                run.unwrap_or_default()
            ),
            "chart ladder files together, and run files together",
        ));
    }
    let mut files: Vec<LadderFile> = Vec::new();
    for (p, _, text) in &texts {
        let f = super::ladder::read(p, text)?;
        if let Some(other) = files.iter().find(|o| o.variant == f.variant) {
            return Err(bad(
                format!(
                    "two ladders of `{}` ({} rungs and {} rungs)",
                    f.variant,
                    other.rungs.len(),
                    f.rungs.len()
                ),
                "give one ladder file per variant",
            ));
        }
        files.push(f);
    }
    for f in &files {
        let k = f.key.name();
        let cells: Vec<String> = f
            .rungs
            .iter()
            .map(|r| format!("{k}={}: {:.1}%", r.value, 100.0 * r.draws.rate))
            .collect();
        let verdict = match &f.levelling {
            Some(l) if l.levelled => "  (levelled off)",
            Some(_) => "  (still moving)",
            None => "",
        };
        out(&format!("{:<20} {}{verdict}", f.variant, cells.join("  ")));
    }
    let text = svg(&files).map_err(|e| bad(e.to_string(), "chart ladders of one key together"))?;
    crate::fsio::write_file(svg_path, text.as_bytes())?;
    Ok(true)
}
