//! `damelab show`: the text of a bundled variant's rules or of a rules file.

use super::console::out;
use super::load;
use crate::variants;
use miette::Report;

/// The text of a bundled variant's rules, or of a rules file.
pub fn show(variant: &str) -> Result<(), Report> {
    if let Some(text) = variants::bundled(variant) {
        out!("{text}");
        return Ok(());
    }
    // Not bundled: load it first, so a wrong name gets the list of bundled names.
    let v = load(variant)?;
    let path = v.path.unwrap_or_else(|| variant.into());
    let text = crate::fsio::read_text(&path, crate::fsio::Kind::Rules)
        .map_err(|e| miette::miette!("cannot read `{}`: {e}", path.display()))?;
    out!("{text}");
    Ok(())
}
