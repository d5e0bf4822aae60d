//! The REPL's `probe`: a position's table value, building small tables on demand.

use super::material::Material;
use super::solve::{Options, Tables};
use super::store;
use super::value::Value;
use crate::engine::Position;
use crate::Variant;

/// Tables up to this many positions (the material and all it reaches) are built on demand.
pub const ON_DEMAND: u64 = 4_000_000;

/// The text `probe` prints for a position (tables read from and written to the default cache).
pub fn probe(variant: &Variant, pos: &Position) -> Result<String, miette::Report> {
    probe_in(variant, pos, store::default_dir())
}

/// [`probe`] with the cache folder given (`None`: none).
pub fn probe_in(
    variant: &Variant,
    pos: &Position,
    cache: Option<std::path::PathBuf>,
) -> Result<String, miette::Report> {
    let rules = &variant.rules;
    let m = Material::of(pos);
    if m.total() == 0 {
        return Ok("no pieces on the board: nothing to probe\n".into());
    }
    let mut tables = Tables::new(rules);
    let est = tables.estimate(&m).map_err(miette::Report::new)?;
    let mut out = String::new();
    // The position's own table is enough when the cache has it.
    if let Some(dir) = &cache {
        let index = super::index::Indexer::new(rules, &m).ok();
        if let Some(index) = index {
            if let Ok(Some(values)) = store::load(dir, rules, &m, index.len()) {
                let mut p = *pos;
                p.runs = Default::default();
                let v = Value::unpack(values[index.encode(&p) as usize]);
                return Ok(format!("{}: {}\n", m.name(rules), v.describe()));
            }
        }
    }
    if est.positions > ON_DEMAND {
        return Ok(format!(
            "{}: no table yet ({} positions with what it reaches); build it with \
             `damelab endgame {} \"{}\"`\n",
            m.name(rules),
            est.positions,
            variant.name(),
            m.name(rules)
        ));
    }
    out.push_str(&format!(
        "building the tables for {} ({} positions)…\n",
        m.name(rules),
        est.positions
    ));
    crate::interrupt::reset();
    let opts = Options {
        cache,
        max_memory: super::DEFAULT_MAX_MEMORY,
        progress: false,
        watch: None,
    };
    tables.solve_fast(&m, &opts).map_err(miette::Report::new)?;
    for note in &tables.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    let v = tables.value(pos).unwrap_or(Value::Draw);
    out.push_str(&format!("{}: {}\n", m.name(rules), v.describe()));
    Ok(out)
}
