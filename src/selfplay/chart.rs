//! The self-play picture: the game-length distribution and the outcome split, as SVG (plotters).

use super::{End, GameRecord, Report};
use plotters::prelude::*;

/// The SVG text of the chart for a run.
pub fn svg(title: &str, report: &Report, games: &[GameRecord]) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (960, 420)).into_drawing_area();
        draw(&root, title, report, games).map_err(|e| format!("cannot draw the chart: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the chart: {e}"))?;
    }
    Ok(out)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    report: &Report,
    games: &[GameRecord],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 20))?;
    let (left, right) = root.split_horizontally(600);

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
        .caption("game length (plies)", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0u32..(bins as u32 * width), 0u32..top + top / 10 + 1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("games")
        .draw()?;
    chart.draw_series(counts.iter().enumerate().map(|(i, &c)| {
        let x0 = i as u32 * width;
        Rectangle::new([(x0, 0), (x0 + width, c)], BLUE.mix(0.6).filled())
    }))?;

    // The outcome split: wins of each side, draws by how they came.
    let draws_capped = report
        .ends
        .iter()
        .find(|(e, _)| *e == End::Cap)
        .map_or(0, |e| e.1);
    let bars: Vec<(String, u64, RGBColor)> = vec![
        (
            format!("{} wins", report.side_names[0]),
            report.wins[0].count,
            RGBColor(70, 130, 180),
        ),
        (
            format!("{} wins", report.side_names[1]),
            report.wins[1].count,
            RGBColor(60, 60, 60),
        ),
        (
            "draws".into(),
            report.draws.count - draws_capped,
            RGBColor(200, 160, 40),
        ),
        ("capped".into(), draws_capped, RGBColor(180, 80, 80)),
    ];
    let ymax = bars.iter().map(|b| b.1).max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(&right)
        .caption("outcomes", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0u32..bars.len() as u32, 0u64..ymax + ymax / 10 + 1)?;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len())
        .x_label_formatter(&|x| names.get(*x as usize).cloned().unwrap_or_default())
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(i, (_, c, col))| {
        Rectangle::new([(i as u32, 0), (i as u32 + 1, *c)], col.filled())
    }))?;
    chart.draw_series(bars.iter().enumerate().map(|(i, (_, c, _))| {
        let pct = if report.games == 0 {
            0.0
        } else {
            100.0 * *c as f64 / report.games as f64
        };
        Text::new(
            format!("{pct:.0}%"),
            (i as u32, *c + ymax / 40 + 1),
            ("sans-serif", 14),
        )
    }))?;
    Ok(())
}

/// A line chart of draw rate against search depth, one line per variant: (variant, [(depth,
/// draw rate)]).
pub fn draw_rate_svg(series: &[(String, Vec<(u32, f64)>)]) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 500)).into_drawing_area();
        draw_rates(&root, series).map_err(|e| format!("cannot draw the chart: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the chart: {e}"))?;
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
        .right_y_label_area_size(10)
        .build_cartesian_2d(0u32..dmax + 1, 0f64..100f64)?;
    chart
        .configure_mesh()
        .x_desc("depth (0 = random moves)")
        .y_desc("draws %")
        .draw()?;
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|&(d, r)| (d, 100.0 * r)),
                colour.stroke_width(2),
            ))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], colour));
        chart.draw_series(
            points
                .iter()
                .map(|&(d, r)| Circle::new((d, 100.0 * r), 3, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}
