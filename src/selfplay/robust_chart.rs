//! The chart of `selfplay --configs --svg`: a panel a figure, each configuration's value with its
//! 95% interval, and a figure whose configurations' intervals do not meet drawn in red and
//! labelled ENGINE-DEPENDENT.

use super::chart::{drawing, ChartError};
use super::robust::Figure;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The label of a flagged figure's panel.
pub const FLAG: &str = "ENGINE-DEPENDENT";

/// The SVG text of the figures across the configurations.
pub fn figures_svg(title: &str, figures: &[Figure]) -> Result<String, ChartError> {
    let rows = figures.len().div_ceil(2).max(1) as u32;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (960, 40 + rows * 300)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let root = root.titled(title, ("sans-serif", 20)).map_err(drawing)?;
        let areas = root.split_evenly((rows as usize, 2));
        for (f, area) in figures.iter().zip(areas.iter()) {
            panel(area, f).map_err(drawing)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(out)
}

/// How a figure's values are shown: shares as percentages, the score as it is, lengths in plies.
fn scale(f: &Figure) -> (f64, &'static str) {
    match f.name.as_str() {
        "game length" => (1.0, "plies"),
        "first-player score" => (1.0, "score"),
        _ => (100.0, "%"),
    }
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    f: &Figure,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let n = f.values.len();
    if n == 0 {
        return Ok(());
    }
    let (k, unit) = scale(f);
    let lo = f
        .values
        .iter()
        .map(|v| v.ci95.0 * k)
        .fold(f64::INFINITY, f64::min);
    let hi = f
        .values
        .iter()
        .map(|v| v.ci95.1 * k)
        .fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.15).max(0.01 * k.max(1.0));
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    let (colour, caption) = if f.engine_dependent {
        (RGBColor(200, 30, 30), format!("{} — {FLAG}", f.name))
    } else {
        (
            RGBColor(31, 119, 180),
            format!("{} (agree within intervals)", f.name),
        )
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16).into_font().color(&colour))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(55)
        .build_cartesian_2d((0u32..n as u32 - 1).into_segmented(), lo..hi)?;
    let names: Vec<String> = f.values.iter().map(|v| v.config.clone()).collect();
    let formatter = |x: &SegmentValue<u32>| match x {
        SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&formatter)
        .y_desc(unit)
        .draw()?;
    let centre = |i: usize| SegmentValue::CenterOf(i as u32);
    for (i, v) in f.values.iter().enumerate() {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(centre(i), v.ci95.0 * k), (centre(i), v.ci95.1 * k)],
            colour.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(Circle::new(
            (centre(i), v.value * k),
            5,
            colour.filled(),
        )))?;
        let shown = if f.name == "first-player score" {
            format!("{:.3}", v.value)
        } else {
            format!("{:.1}", v.value * k)
        };
        chart.draw_series(std::iter::once(Text::new(
            format!("  {shown}"),
            (centre(i), v.value * k),
            ("sans-serif", 12)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        )))?;
    }
    Ok(())
}
