//! The command line: every clap type and every command, a file each, over the library. The
//! library below knows no command line (docs/architecture.md); [`main`] is all the binary calls.
//!
//! Output goes through [`console`]; a command returns a diagnostic ([`miette::Report`]) and
//! [`main`] turns it into the exit code: 0 done, 1 a failure (bad input, a failed check, a file
//! that cannot be written).

pub mod analyse;
pub mod check;
pub mod compare;
pub mod console;
pub mod diagram;
pub mod endgame;
pub mod explore;
pub mod matches;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod repl;
pub mod replay;
pub mod selfplay;
pub mod serve;
pub mod show;
pub mod train;

use crate::notation::parse_fen;
use crate::{variants, Position, Variant};
use clap::{Parser, Subcommand};
use console::{errln, out, out_keep_going, outln, stdout_failed};
use miette::Report;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "damelab",
    version,
    about = "A rules-DSL interpreter and workbench for the draughts family"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Never colour the output (also: the NO_COLOR environment variable).
    #[arg(long, global = true)]
    no_color: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Explore positions interactively (the default, on Dameo).
    Repl {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: Option<String>,
        /// Where to keep the line history (default: ~/.damelab_history).
        #[arg(long)]
        history: Option<std::path::PathBuf>,
        /// With stdin not a terminal: print each input line, after `> `, before its result.
        #[arg(long)]
        echo: bool,
        /// Draw pieces as letters, for fonts without the draughts symbols (`set ascii` in the REPL).
        #[arg(long)]
        ascii: bool,
    },
    /// List the bundled variants: name, then title.
    List,
    /// Check rules files (or bundled variants by name); print diagnostics for every error found.
    Check {
        /// Rules files to check, or bundled variants' names.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Print a variant's rules file: a bundled variant's source, or a rules file's text.
    Show {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: String,
    },
    /// Print the legal moves of a position, one a line, sorted.
    Moves {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: String,
        /// The position as FEN (`W:Wa3,Kd4:Bb6`); the start position when absent.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Count the move sequences of each length up to DEPTH.
    Perft {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: String,
        /// How many moves deep to count (0 counts the position itself: 1).
        depth: usize,
        /// The position as FEN (`W:Wa3,Kd4:Bb6`); the start position when absent.
        #[arg(long)]
        fen: Option<String>,
        /// List each root move with its count at DEPTH.
        #[arg(long)]
        divide: bool,
        /// Split the root moves over this many threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Count capture routes that differ only in order as separate moves.
        #[arg(long)]
        keep_duplicates: bool,
    },
    /// Run case files (YAML) and report each case; `--bless` fills in empty expectations.
    Verify {
        /// Case files or folders of them (default: ./cases).
        paths: Vec<std::path::PathBuf>,
        /// Fill in the expectations a case leaves empty.
        #[arg(long)]
        bless: bool,
        /// With --bless: also overwrite expectations that are already there.
        #[arg(long, requires = "bless")]
        force: bool,
    },
    /// Describe a variant in plain English, from its compiled rules.
    Rules {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: String,
    },
    /// Draw a position as an SVG diagram (coordinates or square numbers, the last move marked).
    Diagram {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: String,
        /// The position as FEN (`W:Wa3,Kd4:Bb6`); the start position when absent.
        #[arg(long)]
        fen: Option<String>,
        /// A move legal in that position: played, then drawn as the last move with its captures.
        #[arg(long)]
        last: Option<String>,
        /// The SVG file to write (standard output when absent).
        #[arg(short, long)]
        output: Option<std::path::PathBuf>,
    },
    /// Replay the games of PDN files: every move must be legal, and the recorded result must agree
    /// where the game ended on the board. Exits 1 when a game fails unexpectedly.
    Replay {
        /// PDN files (or files of the one-game-a-line archive format).
        files: Vec<std::path::PathBuf>,
        /// The variant of games that have no GameType tag.
        #[arg(long)]
        variant: Option<String>,
        /// The files' format (default: guessed from the first line).
        #[arg(long, value_enum)]
        format: Option<replay::Format>,
        /// A list of files to replay: `path<TAB>default variant<TAB>format` a line.
        #[arg(long)]
        manifest: Option<std::path::PathBuf>,
        /// Known bad records: `file<TAB>game<TAB>ply or -<TAB>reason` a line.
        #[arg(long)]
        expect: Option<std::path::PathBuf>,
    },
    /// Solve an endgame by retrograde analysis: `damelab endgame turkish "KK v K"`.
    Endgame(endgame::Args),
    /// Search a position: best move, score and principal variation at each depth.
    Analyse(analyse::AnalyseArgs),
    /// Play games engine against engine (or random) and report the statistics; `selfplay merge`
    /// combines the JSON files of shards.
    Selfplay(Box<selfplay::SelfplayArgs>),
    /// Play the same games under two rules files (the same seeds, openings and engine settings)
    /// and give each figure's difference with a paired interval and a verdict.
    Compare(Box<compare::CompareArgs>),
    /// Write a ballot of openings (one a line, as moves from the start) for `selfplay --openings`
    /// and `match --openings`: seeded random plies, balanced by a short search when asked.
    Openings(Box<openings::OpeningsArgs>),
    /// Explore a space of rules around a base: clauses varied (`--vary 'captures: priority most
    /// pieces | free'`), every combination checked, the legal ones played, a ranked table
    /// (balance, draws, decisiveness, length, drama); `explore merge` combines shards.
    Explore(Box<explore::ExploreArgs>),
    /// Train a learned evaluation by self-play and write its weights file (`--eval FILE` of
    /// `analyse`, `selfplay` and the engine).
    Train(Box<train::TrainCommand>),
    /// Play engine-against-engine matches (damelab's own engines and Hub engines): standings, Elo,
    /// an SPRT stop, every game as PDN.
    Match(Box<matches::MatchCommand>),
    /// Run as a Hub engine on stdin/stdout (the protocol of Scan 3.x) for GUIs and match managers.
    Hub {
        /// A bundled variant's name or a path to a rules file (default: the embedded default;
        /// the `variant` parameter changes it before `init`).
        variant: Option<String>,
        /// The protocol: 2 (Scan 3.x, Hub 2) or 1 (Scan 2.x: `pos`, `go`, `move M`).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
        protocol: u8,
        /// Play without endgame tables (by default those of the variant in the cache of
        /// `damelab endgame`, when it holds some; the `tables` parameter changes it).
        #[arg(long)]
        no_tables: bool,
    },
    /// Serve the web workbench on 127.0.0.1: the board, the rules editor and the engine in a
    /// browser (docs/web.md).
    Serve {
        /// A bundled variant's name (`damelab list`) or a path to a rules file (default: dameo).
        variant: Option<String>,
        /// The port to listen on (0 picks a free one).
        #[arg(long, default_value_t = 8421)]
        port: u16,
        /// The address to listen on; anything but 127.0.0.1 lets other machines in (a warning
        /// says so).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Open the page in the desktop's browser.
        #[arg(long)]
        open: bool,
        /// An external Hub engine the page may analyse with, as `damelab match` names one:
        /// `--engine 'name=scan cmd="scan hub"'` (Hub-1 or Hub-2; the page gives the time).
        #[arg(long)]
        engine: Option<String>,
    },
    /// Print damelab's version; with --digest the engine's digest (the version and the bundled
    /// weights), which tags the study's figures (docs/analysis.md).
    Version {
        /// Print the engine's digest alone.
        #[arg(long)]
        digest: bool,
        /// With --digest: the digest of the version and this variant's bundled weights alone
        /// (`none`: the version alone), which tags a figure made with that variant's evaluation.
        #[arg(long, value_name = "VARIANT", requires = "digest")]
        weights: Option<String>,
    },
    /// Compile a variant; with --dump print the checked rules as YAML.
    Compile {
        /// A bundled variant's name (`damelab list`) or a path to a rules file.
        variant: String,
        /// Print the checked rules as YAML: directions by compass name, squares by name.
        #[arg(long)]
        dump: bool,
    },
}

/// The `damelab` program: parse the command line, run the command, flush the output.
pub fn main() -> ExitCode {
    crate::progress::install(Box::new(console::Bars));
    let code = run();
    // The last lines may still sit in the buffer: a failed flush loses them, and says so.
    if let Err(e) = std::io::Write::flush(&mut std::io::stdout()) {
        stdout_failed(e);
    }
    code
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with success; a usage error is bad input: exit 1.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let no_color = cli.no_color || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if no_color {
        miette::set_hook(Box::new(|_| {
            Box::new(miette::MietteHandlerOpts::new().color(false).build())
        }))
        .ok();
    }
    let result = match cli.command {
        None => repl::repl(variants::DEFAULT, None, no_color, false, false),
        Some(Command::Repl {
            variant,
            history,
            echo,
            ascii,
        }) => repl::repl(
            variant.as_deref().unwrap_or(variants::DEFAULT),
            history,
            no_color,
            echo,
            ascii,
        ),
        Some(Command::List) => list(),
        Some(Command::Check { files }) => check::check(&files),
        Some(Command::Show { variant }) => show::show(&variant),
        Some(Command::Moves { variant, fen }) => moves::moves(&variant, fen.as_deref()),
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
            threads,
            keep_duplicates,
        }) => perft::perft(
            &variant,
            depth,
            fen.as_deref(),
            divide,
            threads,
            keep_duplicates,
        ),
        Some(Command::Verify {
            paths,
            bless,
            force,
        }) => match crate::verify::run(
            &paths,
            crate::verify::Options {
                bless,
                force,
                color: !no_color && std::io::IsTerminal::is_terminal(&std::io::stdout()),
            },
        ) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        Some(Command::Replay {
            files,
            variant,
            format,
            manifest,
            expect,
        }) => return replay::command(files, variant, format, manifest, expect),
        Some(Command::Rules { variant }) => {
            load(&variant).map(|v| out!("{}", crate::describe::describe(&v.rules)))
        }
        Some(Command::Endgame(args)) => endgame::run_to(&args, &mut |s| out_keep_going(s)),
        Some(Command::Diagram {
            variant,
            fen,
            last,
            output,
        }) => diagram::diagram(&variant, fen.as_deref(), last.as_deref(), output.as_deref()),
        Some(Command::Analyse(a)) => analyse::analyse(&a, &mut |l| outln!("{l}")),
        Some(Command::Compare(a)) => {
            compare::compare(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Explore(a)) => {
            explore::explore(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Openings(a)) => {
            openings::openings(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Selfplay(a)) => {
            selfplay::selfplay(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Train(a)) => train::command(&a, &mut |l| out_keep_going(&format!("{l}\n"))),
        Some(Command::Match(a)) => matches::command(&a, &mut |l| out_keep_going(&format!("{l}\n"))),
        Some(Command::Hub {
            variant,
            protocol,
            no_tables,
        }) => {
            let run = match protocol {
                1 => crate::hub::hub1::run,
                _ => crate::hub::engine::run,
            };
            run(
                variant.as_deref().unwrap_or(variants::DEFAULT),
                no_tables,
                Box::new(std::io::BufReader::new(std::io::stdin())),
                Box::new(std::io::stdout()),
            )
        }
        Some(Command::Serve {
            variant,
            port,
            host,
            open,
            engine,
        }) => serve::serve(
            variant.as_deref().unwrap_or(variants::DEFAULT),
            &host,
            port,
            open,
            engine.as_deref(),
        ),
        Some(Command::Compile { variant, dump }) => compile(&variant, dump),
        Some(Command::Version { digest, weights }) => version(digest, weights.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(report) => {
            errln!("{report:?}");
            ExitCode::FAILURE
        }
    }
}

/// `damelab version [--digest [--weights VARIANT]]`: the version and the engine's digest, or the
/// digest alone (of every bundled weights file, or of one variant's).
fn version(digest: bool, weights: Option<&str>) -> Result<(), Report> {
    use crate::search::weights::{weights_digest, BUNDLED};
    if let Some(name) = weights {
        let d = weights_digest(name).ok_or_else(|| {
            let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
            miette::miette!(
                help = format!(
                    "the variants with bundled weights are {}; `none` gives the version alone",
                    names.join(", ")
                ),
                "no bundled weights for `{name}`"
            )
        })?;
        outln!("{d}");
        return Ok(());
    }
    let d = crate::search::weights::engine_digest();
    match digest {
        true => outln!("{d}"),
        false => outln!("damelab {} (engine digest {d})", env!("CARGO_PKG_VERSION")),
    }
    Ok(())
}

/// `damelab list`: every bundled variant with its title.
fn list() -> Result<(), Report> {
    for (name, text) in variants::BUNDLED {
        let title = Variant::from_source(name, name, text, None)
            .map(|v| v.rules.spec.title.clone())
            .unwrap_or_else(|_| "(does not load)".into());
        outln!("{name:<20} {title}");
    }
    Ok(())
}

/// `damelab compile`: the rules checked and compiled, or their tables as YAML with `--dump`.
fn compile(variant: &str, dump: bool) -> Result<(), Report> {
    let v = load(variant)?;
    if dump {
        let yaml = serde_yaml::to_string(&v.rules.spec)
            .map_err(|e| miette::miette!("cannot write the rules as YAML: {e}"))?;
        out!("{yaml}");
    } else {
        outln!("{}: ok ({})", v.name(), v.rules.spec.title);
    }
    Ok(())
}

pub(crate) fn load(variant: &str) -> Result<Variant, Report> {
    Variant::load(variant).map_err(Report::new)
}

pub(crate) fn position(v: &Variant, fen: Option<&str>) -> Result<Position, Report> {
    match fen {
        Some(f) => parse_fen(&v.rules, f).map_err(|e| Report::new_boxed(e)),
        None => Ok(v.rules.start),
    }
}
