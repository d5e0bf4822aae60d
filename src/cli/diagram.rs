//! `damelab diagram`: a position as an SVG picture, to a file or standard output.

use super::console::out;
use super::load;
use miette::Report;

pub fn diagram(
    variant: &str,
    fen: Option<&str>,
    last: Option<&str>,
    output: Option<&std::path::Path>,
) -> Result<(), Report> {
    let v = load(variant)?;
    let svg = crate::diagram::from_text(&v.rules, fen, last)?;
    match output {
        Some(path) => crate::fsio::write_file(path, svg.as_bytes()).map_err(Report::new),
        None => {
            out!("{svg}");
            Ok(())
        }
    }
}
