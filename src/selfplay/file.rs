//! A run's files and outputs: a run file read and checked (format, version, every record
//! against the run it claims), its report's header and tables lines, the outputs a run or a
//! merge writes (JSON, SVG chart, PDN) and their checks before any game, the memory a run needs.

use super::{chart, RunFile, FORMAT, OLDEST_VERSION, VERSION};
use crate::Variant;
use miette::Report as Diag;
use std::path::Path;

pub(crate) use crate::util::bad;

/// Check before any work that a file can be written there (nothing is left behind).
pub(crate) fn check_writable(path: &Path) -> Result<(), Diag> {
    crate::fsio::check_writable(path).map_err(Diag::new)
}

/// Before any work: the outputs can be written, and `--json` and `--svg` are not one file.
pub(crate) fn check_outputs(json: Option<&Path>, svg: Option<&Path>) -> Result<(), Diag> {
    if let (Some(j), Some(s)) = (json, svg) {
        if crate::fsio::same_target(j, s) {
            return Err(bad(
                format!(
                    "--json and --svg both name `{}`: one would overwrite the other",
                    j.display()
                ),
                "give two different files, e.g. `--json run.json --svg run.svg`",
            ));
        }
    }
    for p in [json, svg].into_iter().flatten() {
        check_writable(p)?;
    }
    Ok(())
}

/// The endgame tables in `dir` as the engines' oracle, and the materials they hold (for the
/// settings); without a directory, those of the cache when `cache` and it holds some (never
/// built here), else nothing.
pub(crate) fn open_tables(
    v: &Variant,
    dir: Option<&Path>,
    cache: bool,
    out: &mut dyn FnMut(&str),
) -> Result<(Option<crate::search::Probe>, Option<String>), Diag> {
    use crate::search::tables::EndgameTables;
    let t = match dir {
        Some(dir) => EndgameTables::open(&v.rules, dir)?,
        None if cache => match EndgameTables::in_cache(&v.rules)? {
            Some(t) => t,
            None => return Ok((None, None)),
        },
        None => return Ok((None, None)),
    };
    let t = std::sync::Arc::new(t);
    out(&format!(
        "endgame tables: {} materials in {}",
        t.len(),
        t.dir().display()
    ));
    Ok((Some(t.probe()), Some(t.materials())))
}

/// The report's line on the endgame tables, for a run played with them: how many games reached
/// a position of their materials, and how many of those the tables decided; then, when the games
/// record it, a line of the same per material (the first material of the tables each game
/// reached), the materials most reached first.
pub(crate) fn tables_line(f: &RunFile) -> Option<String> {
    f.settings.tables.as_ref()?;
    let r = &f.report;
    let differ = r.tables_reached - r.tables_decided;
    // (material, games that reached it first, of them decided by the tables)
    let mut by: Vec<(&str, u64, u64)> = Vec::new();
    for g in &f.games {
        if let Some(m) = g.tb_material.as_deref() {
            let at = match by.iter().position(|b| b.0 == m) {
                Some(at) => at,
                None => {
                    by.push((m, 0, 0));
                    by.len() - 1
                }
            };
            by[at].1 += 1;
            by[at].2 += g.tables_decided() as u64;
        }
    }
    by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let materials = if by.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = by
            .iter()
            .map(|(m, n, d)| format!("{m} {d} of {n}"))
            .collect();
        format!(
            "\ntables decided   per material first reached: {}",
            parts.join(", ")
        )
    };
    Some(
        format!(
            "endgame tables   decided {} of {} games ({} reached a position of their materials{})",
            r.tables_decided,
            r.games,
            r.tables_reached,
            if differ > 0 {
                format!(", {differ} of them ended otherwise than the tables said")
            } else {
                String::new()
            }
        ) + &materials,
    )
}

pub(crate) fn header(f: &RunFile) -> String {
    let s = &f.settings;
    let player = if s.random {
        "random moves".to_string()
    } else {
        match (s.depth, s.nodes) {
            (Some(d), Some(n)) => format!("depth {d}, {n} nodes"),
            (Some(d), None) => format!("depth {d}"),
            (None, Some(n)) => format!("{n} nodes"),
            (None, None) => "engine".into(),
        }
    };
    let shards = if f.shards.is_whole() {
        String::new()
    } else if f.shards.held.len() == 1 {
        format!(", shard {}/{}", f.shards.held[0], f.shards.count)
    } else {
        format!(", {} (partial)", f.shards)
    };
    let player = match &s.eval {
        Some(e) => format!("{player}, {e} evaluation"),
        None => player,
    };
    let player = match s.contempt {
        0 => player,
        c => format!("{player}, contempt {c}"),
    };
    let plies = match &s.openings {
        Some(o) if o.balanced.is_some() => format!("{} of {} plies", o.describe(), s.opening_plies),
        Some(o) => format!("{}, then {} random plies", o.describe(), s.opening_plies),
        None => format!("{} random opening plies", s.opening_plies),
    };
    format!(
        "{}: {} of {} games, {player}, seed {}, {plies}, cap {} plies{shards}",
        s.variant,
        f.games.len(),
        s.games,
        s.seed,
        s.max_plies
    )
}

/// Where a run's or a merge's files go.
pub struct Outputs<'a> {
    pub json: Option<&'a Path>,
    pub svg: Option<&'a Path>,
    pub pdn: Option<&'a Path>,
}

/// Write the files asked for; `pdn` is the games' PDN text.
pub(crate) fn write_outputs(file: &RunFile, to: &Outputs, pdn: &str) -> Result<(), Diag> {
    if let Some(p) = to.pdn {
        crate::fsio::write_file(p, pdn.as_bytes())?;
    }
    let (json, svg) = (to.json, to.svg);
    if let Some(p) = json {
        let text = serde_json::to_string_pretty(file)
            .map_err(|e| bad(format!("cannot write the figures as JSON: {e}"), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    if let Some(p) = svg {
        let title = format!("{}{}", header(file), super::strength::title_part(file));
        let text =
            chart::svg(&title, &file.report, &file.games).map_err(|e| bad(e.to_string(), ""))?;
        crate::fsio::write_file(p, text.as_bytes())?;
    }
    Ok(())
}

/// Read a run file written by `--json`: checked for format and version, then record by record
/// against the run it claims ([`super::validate::check_run`]).
pub fn read_run(path: &Path) -> Result<RunFile, Diag> {
    let help = "give the JSON files written by `selfplay --json`";
    let text = crate::fsio::read_text(path, crate::fsio::Kind::RunJson)
        .map_err(|e| bad(format!("cannot read `{}`: {e}", path.display()), help))?;
    parse_run(path, &text)
}

/// A run file's text (read from `path`), checked as [`read_run`] does.
pub fn parse_run(path: &Path, text: &str) -> Result<RunFile, Diag> {
    let help = "give the JSON files written by `selfplay --json`";
    // The format and version first (the rest of the text is skipped, not stored), so a file of
    // another version gets that message rather than a field error.
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default)]
        format: String,
        #[serde(default)]
        version: u64,
    }
    let head: Head = serde_json::from_str(text)
        .map_err(|e| bad(format!("`{}` is not JSON: {e}", path.display()), help))?;
    if head.format != FORMAT || !(OLDEST_VERSION as u64..=VERSION as u64).contains(&head.version) {
        return Err(bad(
            format!(
                "`{}` is not a self-play file of version {OLDEST_VERSION} to {VERSION} (format `{}`, version {})",
                path.display(),
                head.format,
                head.version
            ),
            "merge files written by this version of `damelab selfplay --json`",
        ));
    }
    let file: RunFile = serde_json::from_str(text).map_err(|e| {
        bad(
            format!("`{}` is not a valid self-play file: {e}", path.display()),
            "merge files written by `damelab selfplay --json`",
        )
    })?;
    super::validate::check_run(path, &file)?;
    Ok(file)
}

/// Before a run: the memory its records (and their JSON) and its engines take, against what the
/// machine has available.
pub fn check_play_memory(
    games: u64,
    shard: Option<(u64, u64)>,
    threads: usize,
    random: bool,
    json: bool,
) -> Result<(), Diag> {
    let played = match shard {
        Some((_, n)) => games.div_ceil(n),
        None => games,
    };
    // Per game: its index, its slot while played, its record, and with --json its text (about
    // 170 bytes pretty-printed) and the parsed copy the writer holds.
    let per_game: u64 = if json { 8 + 48 + 40 + 400 } else { 8 + 48 + 40 };
    let engines = if random {
        0
    } else {
        (threads as u64 * super::TT_MIB as u64) << 20
    };
    let need = played.saturating_mul(per_game).saturating_add(engines);
    crate::fsio::check_memory(
        &format!("--games {games}"),
        need,
        "play fewer games a run: split it with `--shard K/N` and combine the files with `selfplay merge`",
    )
    .map_err(Diag::new)
}
