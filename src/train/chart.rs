//! The learning curve as SVG (plotters): the loss before and after each generation's fit, on the
//! fitted and the held-out positions, and each generation's match score against the derived
//! evaluation.

use super::run::Generation;
use crate::selfplay::chart::{drawing, ChartError};
use plotters::prelude::*;

/// The SVG text of the learning curve.
pub fn svg(title: &str, gens: &[Generation]) -> Result<String, ChartError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (960, 420)).into_drawing_area();
        draw(&root, title, gens).map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(out)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// A line of the loss chart: its name, what it reads of a generation, its colour.
type Series = (&'static str, fn(&Generation) -> f64, RGBColor);

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    gens: &[Generation],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 14))?;
    let (left, right) = root.split_horizontally(480);
    let n = gens.len().max(1) as f64;
    let losses: Vec<f64> = gens
        .iter()
        .flat_map(|g| {
            [
                g.loss_before,
                g.loss_after,
                g.validation_before,
                g.validation_after,
            ]
        })
        .filter(|l| *l > 0.0)
        .collect();
    let lo = losses.iter().copied().fold(f64::MAX, f64::min).min(1.0);
    let hi = losses.iter().copied().fold(0.0, f64::max).max(lo + 1e-3);
    let pad = (hi - lo) * 0.1;
    let mut chart = ChartBuilder::on(&left)
        .caption("loss (mean squared error)", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(55)
        .build_cartesian_2d(0.5f64..n + 0.5, (lo - pad).max(0.0)..hi + pad)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .x_labels(gens.len().max(1))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    let series: [Series; 4] = [
        ("fitted, before", |g| g.loss_before, RGBColor(150, 170, 210)),
        ("fitted, after", |g| g.loss_after, RGBColor(30, 80, 180)),
        (
            "held out, before",
            |g| g.validation_before,
            RGBColor(230, 170, 120),
        ),
        (
            "held out, after",
            |g| g.validation_after,
            RGBColor(200, 90, 20),
        ),
    ];
    for (name, f, colour) in series {
        let pts: Vec<(f64, f64)> = gens.iter().map(|g| (g.generation as f64, f(g))).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], colour));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;

    let mut chart = ChartBuilder::on(&right)
        .caption("score against the derived evaluation", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0.5f64..n + 0.5, 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .x_labels(gens.len().max(1))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(0.5, 0.5), (n + 0.5, 0.5)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    let pts: Vec<(f64, f64)> = gens
        .iter()
        .filter_map(|g| g.against_derived.map(|m| (g.generation as f64, m.score())))
        .collect();
    let green = RGBColor(40, 140, 60);
    chart.draw_series(LineSeries::new(pts.clone(), green.stroke_width(2)))?;
    chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, green.filled())))?;
    Ok(())
}
