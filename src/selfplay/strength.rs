//! The strength of a self-play run's engines: the limit per move its games were played at, and on
//! request (`--rate-against SETTINGS`) the Elo of that setting against a fixed reference setting
//! of the same engine, measured by a match ([`crate::matchplay::rate`]).

use super::{RateRequest, Rating, RunFile, Settings, TT_MIB};
use crate::matchplay::engine::{EngineSpec, EngineSpecError, Internal};
use crate::matchplay::rate::{rate, RateSetup};
use crate::util::bad;
use crate::Variant;
use miette::Report as Diag;

/// The fewest and most games of a rating match.
pub const MIN_RATE_GAMES: u64 = 2;
pub const MAX_RATE_GAMES: u64 = 1_000_000;

/// The limit per move of a run's engines, in words: `1000 nodes a move`, `depth 4`.
pub fn limit(s: &Settings) -> String {
    if s.random {
        return "random moves".into();
    }
    match (s.depth, s.nodes) {
        (Some(d), Some(n)) => format!("depth {d} and {n} nodes a move"),
        (Some(d), None) => format!("depth {d}"),
        (None, Some(n)) => format!("{n} nodes a move"),
        (None, None) => "engine".into(),
    }
}

/// The engine settings of a run's setting as a match takes them (damelab's engine with the
/// self-play table size and evaluation).
fn each(eval: Option<&str>) -> Vec<String> {
    let mut each = vec![format!("hash={TT_MIB}")];
    if let Some(e) = eval {
        each.push(format!("eval=\"{e}\""));
    }
    each
}

/// The reference's engine: an external Hub engine's (`cmd=…`, Hub-1 or Hub-2, as `match` drives
/// it) takes its settings alone (the run's table size and evaluation are damelab's own); damelab's
/// own engine takes them on top of the run's.
fn reference_spec(text: &str, eval: Option<&str>) -> Result<EngineSpec, EngineSpecError> {
    let own = EngineSpec::parse(&[], text)?;
    if own.cmd.is_some() {
        return Ok(own);
    }
    EngineSpec::parse(&each(eval), text)
}

/// What a strength measured against `reference` (as `--rate-against` gave it) is relative to:
/// `relative to NAME, cmd "…" (depth=2)` for an external engine, `relative to damelab's own
/// engine at nodes=50` for a setting of damelab's.
pub fn relative_to(reference: &str) -> String {
    match EngineSpec::parse(&[], reference) {
        Ok(spec) => match &spec.cmd {
            Some(cmd) => {
                let name = if spec.name.is_empty() {
                    "an external Hub engine"
                } else {
                    spec.name.as_str()
                };
                let mut limits: Vec<String> = Vec::new();
                if let Some(d) = spec.depth {
                    limits.push(format!("depth={d}"));
                }
                if let Some(t) = spec.movetime {
                    limits.push(format!("movetime={t}"));
                }
                if let Some((b, i)) = spec.tc {
                    limits.push(format!("tc={b}+{i}"));
                }
                limits.extend(spec.options.iter().map(|(n, v)| format!("option.{n}={v}")));
                let limits = limits.join(" ");
                let at = if limits.is_empty() {
                    String::new()
                } else {
                    format!(" at {limits}")
                };
                format!("relative to {name}, cmd \"{cmd}\"{at}")
            }
            None => format!("relative to damelab's own engine at {}", reference.trim()),
        },
        Err(_) => format!("relative to {}", reference.trim()),
    }
}

/// The request of `--rate-against SETTINGS --rate-games N`, checked before any game: the reference
/// is damelab's own engine with a limit, and its settings load for these rules, or an external Hub
/// engine (`cmd=… name=…` and its limit: depth, movetime or tc; Hub engines take no node budget).
pub fn request(
    v: &Variant,
    reference: Option<&str>,
    games: u64,
    random: bool,
    eval: Option<&str>,
) -> Result<Option<RateRequest>, Diag> {
    let Some(text) = reference else {
        return Ok(None);
    };
    let help = "give the reference as a match engine's settings, e.g. `--rate-against \"nodes=1000\"`, `--rate-against \"depth=4\"` or an external Hub engine `--rate-against 'name=scan cmd=\"scan hub\" depth=6'`";
    if random {
        return Err(bad(
            "--rate-against rates an engine setting; random moves have none",
            "drop --random, or drop --rate-against",
        ));
    }
    if !(MIN_RATE_GAMES..=MAX_RATE_GAMES).contains(&games) {
        return Err(bad(
            format!("--rate-games {games} is out of range"),
            &format!("give from {MIN_RATE_GAMES} to {MAX_RATE_GAMES} games"),
        ));
    }
    let spec = reference_spec(text, eval).map_err(|e| bad(format!("--rate-against: {e}"), help))?;
    if spec.cmd.is_none() {
        if !spec.name.is_empty() {
            return Err(bad(
                "--rate-against takes the reference's settings, not a name (a name goes with \
                 an external engine's `cmd=`)",
                help,
            ));
        }
        Internal::new(&v.rules, &spec).map_err(|e| bad(format!("--rate-against: {e}"), help))?;
    }
    Ok(Some(RateRequest {
        reference: text.trim().to_string(),
        games,
    }))
}

/// Play the rating match of a run's setting (`settings`) against the request's reference, with a
/// progress bar. `Ok(None)` when interrupted.
pub fn measure(
    v: &Variant,
    settings: &Settings,
    req: &RateRequest,
    eval: Option<&str>,
    threads: usize,
) -> Result<Option<Rating>, Diag> {
    let mut own = Vec::new();
    if let Some(d) = settings.depth {
        own.push(format!("depth={d}"));
    }
    if let Some(n) = settings.nodes {
        own.push(format!("nodes={n}"));
    }
    let each = each(eval);
    let mut subject = EngineSpec::parse(&each, &own.join(" "))
        .map_err(|e| bad(format!("the rated setting: {e}"), ""))?;
    subject.name = "rated".into();
    let mut reference = reference_spec(&req.reference, eval)
        .map_err(|e| bad(format!("--rate-against: {e}"), ""))?;
    if reference.name.is_empty() {
        reference.name = "reference".into();
    }
    let bar = crate::progress::Bar::new(
        req.games,
        &format!("rating {} against {}", limit(settings), req.reference),
    );
    let setup = RateSetup {
        variant: &settings.variant,
        rules: &v.rules,
        games: req.games,
        seed: settings.seed,
        random_plies: settings.opening_plies,
        max_plies: settings.max_plies,
        concurrency: threads,
    };
    let r = rate(&setup, subject, reference, &mut || bar.inc(1));
    bar.finish();
    // Named as given: the table size and evaluation are the run's own, in its settings.
    Ok(r.map(|r| Rating {
        setting: own.join(" "),
        reference: req.reference.clone(),
        relative_to: Some(relative_to(&req.reference)),
        ..r
    }))
}

/// The report's strength line: the limit, and the rating when there is one.
pub fn line(f: &RunFile) -> String {
    let what = limit(&f.settings);
    match (&f.rating, &f.rate_against) {
        (Some(r), _) => format!(
            "strength         {what}: {}{}",
            r.text(),
            r.relative_to
                .as_deref()
                .map_or_else(String::new, |t| format!("; {t}"))
        ),
        (None, Some(q)) => format!(
            "strength         {what} (rated against {} in shard 1's file)",
            q.reference
        ),
        (None, None) => format!("strength         {what} (not rated: --rate-against SETTINGS)"),
    }
}

/// The rating in a chart's title: `; Elo +52 [+10, +95] vs nodes=500 (100 games)`.
pub fn title_part(f: &RunFile) -> String {
    match &f.rating {
        Some(r) => format!(
            "; Elo {} [{}, {}] vs {} ({} games)",
            whole(r.elo),
            whole(r.elo_low),
            whole(r.elo_high),
            r.reference,
            r.games
        ),
        None => String::new(),
    }
}

/// An Elo difference to the whole point: `+52`, `-inf`.
pub fn whole(x: f64) -> String {
    if x.is_finite() {
        let x = x.round();
        format!("{:+.0}", if x == 0.0 { 0.0 } else { x })
    } else {
        crate::matchplay::rate::elo(x)
    }
}
