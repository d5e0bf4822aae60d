//! The REPL's `probe`: a position's table value, building small tables on demand.

use super::material::Material;
use super::solve::{Options, Tables};
use super::store;
use super::value::Value;
use super::EndgameError;
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
    if pos.hand.iter().flatten().any(|&n| n > 0) {
        return Ok(
            "pieces in hand: the tables hold positions of the board alone, after the placement \
             phase; probe again once every piece is placed\n"
                .into(),
        );
    }
    if m.total() == 0 {
        return Ok("no pieces on the board: nothing to probe\n".into());
    }
    let mut tables = Tables::new(rules);
    let est = match tables.estimate(&m) {
        Ok(est) => est,
        // A material whose tables cannot exist (a table past any index, a board too large):
        // say so in words; no command could build them.
        Err(EndgameError::TableTooLarge { .. })
        | Err(EndgameError::BoardTooLarge { .. })
        | Err(EndgameError::Stacks { .. }) => {
            return Ok(format!(
                "{}: {} pieces, far too many for endgame tables (they hold every position of \
                 the material and of all it reaches); probe again with fewer pieces\n",
                m.name(rules),
                m.total()
            ))
        }
        Err(e) => return Err(miette::Report::new(e)),
    };
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
        return Ok(not_built(variant, &m, est.positions, est.bytes));
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

/// The most memory a build `probe` suggests may need (with `--max-memory`): 64 GiB.
pub const SUGGEST_MAX_MEMORY: u64 = 64 << 30;

/// What `probe` says of a material too large to build on demand: the `damelab endgame` command
/// that builds it, as that command accepts it (with `--max-memory` when the default limit is too
/// small), or that it is too large for any build.
fn not_built(variant: &Variant, m: &Material, positions: u64, bytes: u64) -> String {
    let name = m.name(&variant.rules);
    // `damelab endgame` takes a bundled variant's name or the rules file's path.
    let which = match &variant.path {
        Some(p) => format!("\"{}\"", p.display()),
        None => variant.name().to_string(),
    };
    let size = format!(
        "{} positions with what it reaches, about {}",
        crate::limits::thousands(positions),
        crate::util::human_bytes(bytes)
    );
    if bytes <= super::DEFAULT_MAX_MEMORY {
        format!(
            "{name}: no table yet ({size}); build it with `damelab endgame {which} \"{name}\"`\n"
        )
    } else if bytes <= SUGGEST_MAX_MEMORY {
        let gib = bytes.div_ceil(1 << 30);
        format!(
            "{name}: no table yet ({size}); build it on a machine with that memory: \
             `damelab endgame {which} \"{name}\" --max-memory {gib}G`\n"
        )
    } else {
        format!(
            "{name}: no table ({size}, far more than a machine's memory); probe again with fewer \
             pieces\n"
        )
    }
}
