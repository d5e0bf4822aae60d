//! The self-play picture: the game-length distribution and the outcome split, as SVG (plotters).

use super::{End, GameRecord, Report};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Why a chart was not drawn.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ChartError {
    /// The drawing library failed (its message).
    #[error("cannot draw the chart: {0}")]
    Draw(String),
    #[error("no ladder to draw")]
    NoLadder,
    #[error(
        "the ladders of `{first}` ({first_key}) and `{other}` ({other_key}) have different axes: chart ladders of one key"
    )]
    OtherAxes {
        first: String,
        first_key: String,
        other: String,
        other_key: String,
    },
}

/// The drawing library's error, as a [`ChartError`].
pub(crate) fn drawing(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// How a chart is laid out: its two panes side by side (a file, a wide screen) or one above the
/// other with larger text (the web page's narrow column, where the picture is scaled down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Wide,
    Stacked,
}

/// The SVG text of the chart for a run.
pub fn svg(title: &str, report: &Report, games: &[GameRecord]) -> Result<String, ChartError> {
    svg_laid_out(title, report, games, Layout::Wide)
}

/// [`svg`] in the given layout.
pub fn svg_laid_out(
    title: &str,
    report: &Report,
    games: &[GameRecord],
    layout: Layout,
) -> Result<String, ChartError> {
    let (w, h) = match layout {
        Layout::Wide => (960, 420),
        Layout::Stacked => (480, 720),
    };
    let rows = draw_class_rows(report);
    let row = if layout == Layout::Stacked { 30 } else { 17 };
    let strip = if rows.is_empty() {
        0
    } else {
        (rows.len() as u32 + 1) * row + 10
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (w, h + strip)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (main, below) = root.split_vertically(h);
        draw(&main, title, report, games, layout).map_err(drawing)?;
        if !rows.is_empty() {
            draw_classes(&below, &rows, report.draws.count, row, layout).map_err(drawing)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(out)
}

/// The draws by class as rows of a small table (label, count), the classes that occurred and
/// then the shuffling draws (a quiet position repeated with the material level); none when the
/// run has no draws.
pub fn draw_class_rows(report: &Report) -> Vec<(String, u64)> {
    if report.draws.count == 0 {
        return Vec::new();
    }
    let mut rows: Vec<(String, u64)> = report
        .draw_classes
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(d, c)| (d.label().to_string(), *c))
        .collect();
    rows.push(("shuffling".into(), report.shuffling));
    rows
}

/// The table of the draws by class, below the two panes: each class's count and share of the
/// draws.
fn draw_classes<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    rows: &[(String, u64)],
    draws: u64,
    row: u32,
    layout: Layout,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let px = if layout == Layout::Stacked { 24 } else { 14 };
    let style = ("sans-serif", px).into_font().color(&BLACK);
    let bold = ("sans-serif", px)
        .into_font()
        .style(FontStyle::Bold)
        .color(&BLACK);
    let x = 20;
    let count_x = if layout == Layout::Stacked { 360 } else { 240 };
    area.draw(&Text::new(
        format!("draws by class ({draws} draws)"),
        (x, 4),
        bold,
    ))?;
    for (i, (label, count)) in rows.iter().enumerate() {
        let y = ((i as u32 + 1) * row) as i32 + 4;
        let share = 100.0 * *count as f64 / draws.max(1) as f64;
        area.draw(&Text::new(label.clone(), (x + 10, y), style.clone()))?;
        area.draw(&Text::new(
            format!("{count} ({share:.0}%)"),
            (count_x, y),
            style.clone(),
        ))?;
    }
    Ok(())
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    report: &Report,
    games: &[GameRecord],
    layout: Layout,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    // Font sizes in the picture's pixels: larger when it is shown scaled down.
    let big = layout == Layout::Stacked;
    let font = |px: u32| if big { px * 2 } else { px };
    let label = ("sans-serif", font(12));
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", font(20)))?;
    let (left, right) = match layout {
        Layout::Wide => root.split_horizontally(600),
        Layout::Stacked => root.split_vertically(340),
    };

    // Game lengths, in bins of a width that gives about 30 bars.
    let max = games.iter().map(|g| g.plies).max().unwrap_or(0).max(1);
    let width = (max / 30).max(1);
    let bins = (max / width + 1) as usize;
    let mut counts = vec![0u32; bins];
    for g in games {
        counts[(g.plies / width) as usize] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(&left)
        .caption("game length (plies)", ("sans-serif", font(16)))
        .margin(10)
        .x_label_area_size(font(30))
        .y_label_area_size(font(45))
        .build_cartesian_2d(0u32..(bins as u32 * width), 0u32..top + top / 10 + 1)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh().y_desc("games");
    if big {
        mesh.label_style(label);
    }
    mesh.draw()?;
    chart.draw_series(counts.iter().enumerate().map(|(i, &c)| {
        let x0 = i as u32 * width;
        Rectangle::new([(x0, 0), (x0 + width, c)], BLUE.mix(0.6).filled())
    }))?;

    // The outcome split as the text report gives it: each side's wins and the draws, the games
    // stopped at the length cap shown as the draws' darker part; a whisker for each 95% interval.
    let capped = capped_games(report);
    let bars: Vec<(String, &super::Share, RGBColor)> = vec![
        (
            format!("{} wins", report.side_names[0]),
            &report.wins[0],
            RGBColor(31, 119, 180),
        ),
        (
            format!("{} wins", report.side_names[1]),
            &report.wins[1],
            RGBColor(64, 64, 64),
        ),
        ("draws".into(), &report.draws, RGBColor(230, 159, 0)),
    ];
    let n = report.games.max(1) as f64;
    let high = |s: &super::Share| (s.ci95.1 * n).ceil() as u64;
    let ymax = bars
        .iter()
        .map(|b| b.1.count.max(high(b.1)))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut chart = ChartBuilder::on(&right)
        .caption("outcomes (95% intervals)", ("sans-serif", font(16)))
        .margin(10)
        .x_label_area_size(font(30))
        .y_label_area_size(font(45))
        .build_cartesian_2d(
            // The range is inclusive: one segment a bar.
            (0u32..bars.len() as u32 - 1).into_segmented(),
            0u64..ymax + ymax / 8 + 1,
        )?;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    let formatter = |x: &SegmentValue<u32>| match x {
        SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .x_labels(bars.len())
        .x_label_formatter(&formatter);
    if big {
        mesh.label_style(label);
    }
    mesh.draw()?;
    let seg = |i: usize| SegmentValue::Exact(i as u32);
    let centre = |i: usize| SegmentValue::CenterOf(i as u32);
    chart.draw_series(bars.iter().enumerate().map(|(i, (_, s, col))| {
        let mut r = Rectangle::new([(seg(i), 0), (seg(i + 1), s.count)], col.filled());
        r.set_margin(0, 0, 6, 6);
        r
    }))?;
    if capped > 0 {
        let i = bars.len() - 1;
        let mut r = Rectangle::new(
            [(seg(i), 0), (seg(i + 1), capped)],
            RGBColor(150, 90, 0).filled(),
        );
        r.set_margin(0, 0, 6, 6);
        chart.draw_series(std::iter::once(r))?;
        // Named inside its part of the bar.
        chart.draw_series(std::iter::once(Text::new(
            format!("{capped} capped"),
            (centre(i), capped / 2),
            ("sans-serif", font(12))
                .into_font()
                .color(&WHITE)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        )))?;
    }
    // Whiskers: the 95% interval of each share, in games.
    for (i, (_, s, _)) in bars.iter().enumerate() {
        let (lo, hi) = ((s.ci95.0 * n).floor() as u64, high(s));
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(centre(i), lo), (centre(i), hi)],
            BLACK.stroke_width(1),
        )))?;
    }
    let shares: Vec<u64> = bars.iter().map(|b| b.1.count).collect();
    let pcts = whole_percentages(&shares);
    chart.draw_series(bars.iter().enumerate().map(|(i, (_, s, _))| {
        Text::new(
            format!("{}%", pcts[i]),
            (centre(i), s.count.max(high(s)) + ymax / 40 + 1),
            ("sans-serif", font(14))
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Bottom)),
        )
    }))?;
    Ok(())
}

/// The games stopped at the length cap (scored as draws).
pub fn capped_games(report: &Report) -> u64 {
    report
        .ends
        .iter()
        .find(|(e, _)| *e == End::Cap)
        .map_or(0, |e| e.1)
}

/// Whole percentages of `counts` that add up to 100 (largest remainders round up), so that the
/// labels of a chart agree with each other; all zero for no counts.
pub fn whole_percentages(counts: &[u64]) -> Vec<u64> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return vec![0; counts.len()];
    }
    let mut out: Vec<u64> = counts.iter().map(|c| c * 100 / total).collect();
    let mut rest: Vec<(u64, usize)> = counts
        .iter()
        .enumerate()
        .map(|(i, c)| (c * 100 % total, i))
        .collect();
    // Largest remainder first; ties to the earlier bar.
    rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let missing = 100 - out.iter().sum::<u64>();
    for &(_, i) in rest.iter().take(missing as usize) {
        out[i] += 1;
    }
    out
}

/// Line colours that stay apart from each other on white (Tableau 10, its light grey darkened).
pub(crate) const LINE_COLOURS: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(196, 160, 0),
    RGBColor(176, 122, 161),
    RGBColor(255, 112, 140),
    RGBColor(156, 117, 95),
    RGBColor(90, 90, 90),
];

/// A line chart of draw rate against search depth, one line per variant: (variant, [(depth,
/// draw rate)]).
pub fn draw_rate_svg(series: &[(String, Vec<(u32, f64)>)]) -> Result<String, ChartError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 500)).into_drawing_area();
        draw_rates(&root, series).map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(out)
}

fn draw_rates<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    series: &[(String, Vec<(u32, f64)>)],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let dmax = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .max()
        .unwrap_or(1);
    let mut chart = ChartBuilder::on(root)
        .caption("draw rate by search depth", ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .right_y_label_area_size(62)
        .build_cartesian_2d(0u32..dmax + 1, 0f64..100f64)?;
    chart
        .configure_mesh()
        .x_desc("depth (0 = random moves)")
        .y_desc("draws %")
        .draw()?;
    for (i, (name, points)) in series.iter().enumerate() {
        // Past ten lines the colours come round again, with hollow marks.
        let colour = LINE_COLOURS[i % LINE_COLOURS.len()];
        let filled = i < LINE_COLOURS.len();
        let mark = move |x: i32, y: i32| -> Circle<(i32, i32), i32> {
            if filled {
                Circle::new((x, y), 4, colour.filled())
            } else {
                Circle::new((x, y), 4, colour.stroke_width(2))
            }
        };
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|&(d, r)| (d, 100.0 * r)),
                colour.stroke_width(3),
            ))?
            .label(name.clone())
            .legend(move |(x, y)| {
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(-2, 0), (18, 0)], colour.stroke_width(3))
                    + mark(8, 0)
            });
        chart.draw_series(points.iter().map(|&(d, r)| {
            if filled {
                Circle::new((d, 100.0 * r), 4, colour.filled())
            } else {
                Circle::new((d, 100.0 * r), 4, colour.stroke_width(2))
            }
        }))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::whole_percentages;

    #[test]
    fn percentages_add_up() {
        assert_eq!(whole_percentages(&[1, 1, 1]), [34, 33, 33]);
        assert_eq!(whole_percentages(&[49, 46, 5]), [49, 46, 5]);
        assert_eq!(whole_percentages(&[2, 2, 3]), [29, 28, 43]);
        assert_eq!(whole_percentages(&[0, 0, 0]), [0, 0, 0]);
        for n in 1..60u64 {
            let v = whole_percentages(&[n, 2 * n + 1, 7]);
            assert_eq!(v.iter().sum::<u64>(), 100, "{v:?}");
        }
    }
}
