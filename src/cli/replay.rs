//! `damelab replay`: replay every game of PDN files (or of the one-game-a-line archive format),
//! print a summary per file and each failure in full; expected failures (a list of known bad
//! records) do not fail the run.

use super::console::{errln, outln};
use crate::pdn::{
    describe_failure, looks_like_acf, read_acf, read_games, replay, variant_and_note, Failure,
    PdnGame, Replayed, VariantCache,
};
use miette::{miette, Report};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The text format of a games file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Portable Draughts Notation.
    Pdn,
    /// One game a line: `moves<TAB>result`, squares 0-31 (an English checkers archive's format).
    Acf,
}

/// What to replay and how.
pub struct Options {
    pub files: Vec<PathBuf>,
    /// The variant of games without a `GameType` tag.
    pub variant: Option<String>,
    /// The files' format (default: PDN, or ACF for a file whose lines are `moves<TAB>result`).
    pub format: Option<Format>,
    /// A list of files with their default variant and format: `path<TAB>variant<TAB>format`.
    pub manifest: Option<PathBuf>,
    /// Known bad records: `file<TAB>game<TAB>ply<TAB>reason`.
    pub expect: Option<PathBuf>,
}

struct Job {
    path: PathBuf,
    /// The name used in reports and expectations.
    key: String,
    variant: Option<String>,
    format: Option<Format>,
}

/// A known bad record: the game (1-based) of a file, the ply it fails at (`None`: any), and why.
struct Expected {
    ply: Option<usize>,
    reason: String,
    seen: bool,
}

fn read_manifest(path: &Path) -> Result<Vec<Job>, Report> {
    let text = crate::fsio::read_text(path, crate::fsio::Kind::List)
        .map_err(|e| miette!("cannot read the manifest `{}`: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut jobs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let format = match f.get(2).map(|s| s.trim()) {
            None | Some("") | Some("pdn") => Some(Format::Pdn),
            Some("acf") => Some(Format::Acf),
            Some(other) => {
                return Err(miette!(
                    help = "the formats are `pdn` and `acf`",
                    "{}:{}: unknown format `{other}`",
                    path.display(),
                    n + 1
                ))
            }
        };
        let variant = f.get(1).map(|s| s.trim()).filter(|s| !s.is_empty());
        jobs.push(Job {
            path: dir.join(f[0]),
            key: f[0].to_string(),
            variant: variant.map(str::to_string),
            format,
        });
    }
    Ok(jobs)
}

fn read_expectations(path: &Path) -> Result<HashMap<(String, usize), Expected>, Report> {
    let text = crate::fsio::read_text(path, crate::fsio::Kind::List)
        .map_err(|e| miette!("cannot read the expectations `{}`: {e}", path.display()))?;
    let mut map = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = || {
            miette!(
                help = "each line is `file<TAB>game<TAB>ply or -<TAB>reason`",
                "{}:{}: cannot read `{line}`",
                path.display(),
                n + 1
            )
        };
        if f.len() < 4 {
            return Err(bad());
        }
        let game: usize = f[1].trim().parse().map_err(|_| bad())?;
        let ply = match f[2].trim() {
            "-" => None,
            p => Some(p.parse::<usize>().map_err(|_| bad())?),
        };
        map.insert(
            (f[0].to_string(), game),
            Expected {
                ply,
                reason: f[3..].join("\t"),
                seen: false,
            },
        );
    }
    Ok(map)
}

/// Totals over a run.
#[derive(Default)]
pub struct Totals {
    pub files: usize,
    pub games: usize,
    pub replayed: usize,
    pub failed: usize,
    pub expected: usize,
    pub repetition: usize,
    /// Failures not in the expectations, plus expectations that did not fail.
    pub unexpected: usize,
}

/// Replay and report; the run failed when [`Totals::unexpected`] is not zero.
pub fn run(opts: &Options, out: &mut dyn Write) -> Result<Totals, Report> {
    let mut jobs = match &opts.manifest {
        Some(m) => read_manifest(m)?,
        None => Vec::new(),
    };
    for f in &opts.files {
        jobs.push(Job {
            path: f.clone(),
            key: f.display().to_string(),
            variant: None,
            format: None,
        });
    }
    if jobs.is_empty() {
        return Err(miette!(
            help = "e.g. `damelab replay games.pdn --variant english`",
            "no games files given"
        ));
    }
    let mut expect = match &opts.expect {
        Some(p) => read_expectations(p)?,
        None => HashMap::new(),
    };
    let io = |e: std::io::Error| miette!("cannot write the report: {e}");
    let mut cache = VariantCache::default();
    let mut totals = Totals::default();
    for job in &jobs {
        let bytes = crate::fsio::read_file(&job.path, crate::fsio::Kind::Pdn).map_err(|e| {
            miette!(
                help = "give the path of a .pdn file",
                "cannot read `{}`: {e}",
                job.path.display()
            )
        })?;
        let format = opts
            .format
            .or(job.format)
            .unwrap_or(if looks_like_acf(&bytes) {
                Format::Acf
            } else {
                Format::Pdn
            });
        let games = match format {
            Format::Pdn => read_games(&bytes),
            Format::Acf => read_acf(&bytes),
        };
        let default = opts.variant.as_deref().or(job.variant.as_deref());
        let (mut ok, mut failed, mut expected, mut rep) = (0, 0, 0, 0);
        let mut lines = String::new();
        for (i, g) in games.iter().enumerate() {
            let index = i + 1;
            let result = replay_one(g, default, &mut cache);
            match result {
                Ok((r, note)) => {
                    ok += 1;
                    if r.notes
                        .iter()
                        .any(|n| n.starts_with("continues after repetition"))
                    {
                        rep += 1;
                    }
                    for n in note.iter().chain(&r.notes) {
                        let title = g.title();
                        let title = if title.is_empty() {
                            String::new()
                        } else {
                            format!(" {title}")
                        };
                        lines.push_str(&format!(
                            "  game {index} (line {}){title}: {n}\n",
                            g.loc.line
                        ));
                    }
                }
                Err(f) => {
                    failed += 1;
                    match expect.get_mut(&(job.key.clone(), index)) {
                        Some(e) if e.ply.is_none() || e.ply == f.ply.map(|p| p + 1) => {
                            e.seen = true;
                            expected += 1;
                            lines.push_str(&format!(
                                "  game {index} (line {}): expected failure: {} [known bad record: {}]\n",
                                g.loc.line, f.message, e.reason
                            ));
                        }
                        _ => {
                            totals.unexpected += 1;
                            lines.push_str(&describe_failure(index, g, &f));
                        }
                    }
                }
            }
        }
        for ((file, game), e) in expect.iter_mut() {
            if *file == job.key && !e.seen {
                // Listed as bad but replayed (or failed elsewhere): the list is stale.
                totals.unexpected += 1;
                e.seen = true;
                lines.push_str(&format!(
                    "  game {game}: listed as a bad record ({}) but it did not fail so\n",
                    e.reason
                ));
            }
        }
        writeln!(
            out,
            "{}: {} games: {ok} replayed, {failed} failed{}{}",
            job.key,
            games.len(),
            if expected > 0 {
                format!(" ({expected} known bad)")
            } else {
                String::new()
            },
            if rep > 0 {
                format!("; {rep} continue after repetition")
            } else {
                String::new()
            }
        )
        .map_err(io)?;
        out.write_all(lines.as_bytes()).map_err(io)?;
        totals.files += 1;
        totals.games += games.len();
        totals.replayed += ok;
        totals.failed += failed;
        totals.expected += expected;
        totals.repetition += rep;
    }
    Ok(totals)
}

/// One game replayed: its syntax first (a broken text says more than the variant it may lack),
/// then its variant (the tags, or the default), then its moves; the variant's note with it.
fn replay_one(
    g: &PdnGame,
    default: Option<&str>,
    cache: &mut VariantCache,
) -> Result<(Replayed, Option<String>), Box<Failure>> {
    // Syntax errors first: a broken text says more than the variant it may lack.
    let syntax = g.errors.first().map(|e| {
        Box::new(Failure {
            ply: None,
            at: Some(e.loc),
            message: e.message.clone(),
            fen: None,
            recorded: None,
            legal: Vec::new(),
            legal_unknown: false,
        })
    });
    match syntax {
        Some(f) => Err(f),
        None => variant_and_note(g, default, cache).map_err(|m| {
            Box::new(Failure {
                ply: None,
                at: Some(g.loc),
                message: m.to_string(),
                fen: None,
                recorded: None,
                legal: Vec::new(),
                legal_unknown: false,
            })
        }),
    }
    .and_then(|(v, note)| replay(v.rules.clone(), g).map(|r| (r, note)))
}

/// `damelab replay`: the summary line, and exit 1 when a game failed unexpectedly.
pub fn command(
    files: Vec<std::path::PathBuf>,
    variant: Option<String>,
    format: Option<Format>,
    manifest: Option<std::path::PathBuf>,
    expect: Option<std::path::PathBuf>,
) -> ExitCode {
    let opts = Options {
        files,
        variant,
        format,
        manifest,
        expect,
    };
    let t = Instant::now();
    match run(&opts, &mut std::io::stdout()) {
        Ok(n) => {
            outln!(
                "{} files, {} games: {} replayed, {} failed ({} known bad), {} continue after repetition; {} unexpected; {:.2} s",
                n.files,
                n.games,
                n.replayed,
                n.failed,
                n.expected,
                n.repetition,
                n.unexpected,
                t.elapsed().as_secs_f64()
            );
            if n.unexpected > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(report) => {
            errln!("{report:?}");
            ExitCode::FAILURE
        }
    }
}
