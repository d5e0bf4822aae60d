//! The `damelab` command line: a thin front end over the library (see DESIGN.md's contract).

use clap::{Parser, Subcommand};
use damelab::engine::{GenOptions, PerftLimits};
use damelab::notation::{move_to_string, parse_fen};
use damelab::{variants, Position, Variant};
use miette::Report;
use std::process::ExitCode;
use std::time::Instant;

/// Print to stdout; a closed pipe (`damelab perft … | head`) ends the program quietly instead of
/// panicking; any other failure (a full disk, `/dev/full`) is a diagnostic and exit code 1.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            stdout_failed(e);
        }
    }};
}

/// Output that could not be written: quiet for a closed pipe (the reader has what it wanted),
/// otherwise said on stderr, and the program ends with a failure either way but the pipe's.
fn stdout_failed(e: std::io::Error) -> ! {
    use std::io::Write;
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let report = miette::miette!(
        help = "free some space, or send the output somewhere it can be written",
        "cannot write the output: {e}"
    );
    let _ = writeln!(std::io::stderr(), "{report:?}");
    std::process::exit(1);
}

/// Print for a command that writes files after its output (self-play, training, a match, endgame
/// tables):
/// a closed pipe (`damelab selfplay … --json F | head -1`) drops the rest of the output instead of
/// ending the program, so that the files are still written; any other failure is as for `out!`.
fn out_keep_going(text: &str) {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().write_all(text.as_bytes()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CLOSED.store(true, Ordering::Relaxed);
            return;
        }
        stdout_failed(e);
    }
}

/// Print a diagnostic to stderr; a closed or broken stderr drops it instead of panicking.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

#[derive(Parser)]
#[command(
    name = "damelab",
    version,
    about = "A rules-DSL interpreter and workbench for the draughts family"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Never colour the output (also: the NO_COLOR environment variable).
    #[arg(long, global = true)]
    no_color: bool,
}

#[derive(Subcommand)]
enum Command {
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
        format: Option<damelab::pdn::cli::Format>,
        /// A list of files to replay: `path<TAB>default variant<TAB>format` a line.
        #[arg(long)]
        manifest: Option<std::path::PathBuf>,
        /// Known bad records: `file<TAB>game<TAB>ply or -<TAB>reason` a line.
        #[arg(long)]
        expect: Option<std::path::PathBuf>,
    },
    /// Solve an endgame by retrograde analysis: `damelab endgame turkish "KK v K"`.
    Endgame(damelab::endgame::cli::Args),
    /// Search a position: best move, score and principal variation at each depth.
    Analyse(damelab::search::cli::AnalyseArgs),
    /// Play games engine against engine (or random) and report the statistics; `selfplay merge`
    /// combines the JSON files of shards.
    Selfplay(Box<damelab::selfplay::cli::SelfplayArgs>),
    /// Train a learned evaluation by self-play and write its weights file (`--eval FILE` of
    /// `analyse`, `selfplay` and the engine).
    Train(Box<damelab::train::cli::TrainCommand>),
    /// Play engine-against-engine matches (damelab's own engines and Hub engines): standings, Elo,
    /// an SPRT stop, every game as PDN.
    Match(Box<damelab::matchplay::cli::MatchCommand>),
    /// Run as a Hub engine on stdin/stdout (the protocol of Scan 3.x) for GUIs and match managers.
    Hub {
        /// A bundled variant's name or a path to a rules file (default: the embedded default;
        /// the `variant` parameter changes it before `init`).
        variant: Option<String>,
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

fn main() -> ExitCode {
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
        None => repl(variants::DEFAULT, None, no_color, false, false),
        Some(Command::Repl {
            variant,
            history,
            echo,
            ascii,
        }) => repl(
            variant.as_deref().unwrap_or(variants::DEFAULT),
            history,
            no_color,
            echo,
            ascii,
        ),
        Some(Command::List) => {
            for (name, text) in variants::BUNDLED {
                let title = Variant::from_source(name, name, text, None)
                    .map(|v| v.rules.spec.title.clone())
                    .unwrap_or_else(|_| "(does not load)".into());
                outln!("{name:<20} {title}");
            }
            Ok(())
        }
        Some(Command::Check { files }) => check(&files),
        Some(Command::Show { variant }) => show(&variant),
        Some(Command::Moves { variant, fen }) => moves(&variant, fen.as_deref()),
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
            threads,
            keep_duplicates,
        }) => perft(
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
        }) => match damelab::verify::run(
            &paths,
            damelab::verify::Options {
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
        }) => return replay(files, variant, format, manifest, expect),
        Some(Command::Rules { variant }) => {
            load(&variant).map(|v| out!("{}", damelab::describe::describe(&v.rules)))
        }
        Some(Command::Endgame(args)) => {
            damelab::endgame::cli::run_to(&args, &mut |s| out_keep_going(s))
        }
        Some(Command::Diagram {
            variant,
            fen,
            last,
            output,
        }) => diagram(&variant, fen.as_deref(), last.as_deref(), output.as_deref()),
        Some(Command::Analyse(a)) => damelab::search::cli::analyse(&a, &mut |l| outln!("{l}")),
        Some(Command::Selfplay(a)) => {
            damelab::selfplay::cli::selfplay(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Train(a)) => {
            damelab::train::cli::command(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Match(a)) => {
            damelab::matchplay::cli::command(&a, &mut |l| out_keep_going(&format!("{l}\n")))
        }
        Some(Command::Hub { variant }) => damelab::hub::engine::run(
            variant.as_deref().unwrap_or(variants::DEFAULT),
            Box::new(std::io::BufReader::new(std::io::stdin())),
            Box::new(std::io::stdout()),
        ),
        Some(Command::Serve {
            variant,
            port,
            host,
            open,
        }) => damelab::web::cli(
            variant.as_deref().unwrap_or(variants::DEFAULT),
            &host,
            port,
            open,
        ),
        Some(Command::Compile { variant, dump }) => load(&variant).and_then(|v| {
            if dump {
                let yaml = serde_yaml::to_string(&v.rules.spec)
                    .map_err(|e| miette::miette!("cannot write the rules as YAML: {e}"))?;
                out!("{yaml}");
            } else {
                outln!("{}: ok ({})", v.name(), v.rules.spec.title);
            }
            Ok(())
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(report) => {
            errln!("{report:?}");
            ExitCode::FAILURE
        }
    }
}

fn load(variant: &str) -> Result<Variant, Report> {
    Variant::load(variant).map_err(Report::new)
}

fn position(v: &Variant, fen: Option<&str>) -> Result<Position, Report> {
    match fen {
        Some(f) => parse_fen(&v.rules, f).map_err(|e| Report::new_boxed(e)),
        None => Ok(v.rules.start),
    }
}

fn diagram(
    variant: &str,
    fen: Option<&str>,
    last: Option<&str>,
    output: Option<&std::path::Path>,
) -> Result<(), Report> {
    let v = load(variant)?;
    let svg = damelab::diagram::from_text(&v.rules, fen, last)?;
    match output {
        Some(path) => damelab::fsio::write_file(path, svg.as_bytes()).map_err(Report::new),
        None => {
            out!("{svg}");
            Ok(())
        }
    }
}

/// The text of a bundled variant's rules, or of a rules file.
fn show(variant: &str) -> Result<(), Report> {
    if let Some(text) = variants::bundled(variant) {
        out!("{text}");
        return Ok(());
    }
    // Not bundled: load it first, so a wrong name gets the list of bundled names.
    let v = load(variant)?;
    let path = v.path.unwrap_or_else(|| variant.into());
    let text = damelab::fsio::read_text(&path, damelab::fsio::Kind::Rules)
        .map_err(|e| miette::miette!("cannot read `{}`: {e}", path.display()))?;
    out!("{text}");
    Ok(())
}

fn check(files: &[String]) -> Result<(), Report> {
    let mut bad = 0;
    for f in files {
        match Variant::load_with_warnings(f) {
            Ok((v, None)) => outln!("{f}: ok ({})", v.rules.spec.title),
            Ok((v, Some(warnings))) => {
                let n = warnings.warnings().len();
                let s = if n == 1 { "" } else { "s" };
                outln!("{f}: ok ({}), {n} warning{s}", v.rules.spec.title);
                errln!("{:?}", Report::new(warnings));
            }
            Err(e) => {
                bad += 1;
                errln!("{:?}", Report::new(e));
            }
        }
    }
    if bad > 0 {
        Err(miette::miette!(
            "{bad} of {} rules files have errors",
            files.len()
        ))
    } else {
        Ok(())
    }
}

fn moves(variant: &str, fen: Option<&str>) -> Result<(), Report> {
    let v = load(variant)?;
    let pos = position(&v, fen)?;
    let mut list = Vec::new();
    v.rules
        .try_generate(&pos, &mut list, GenOptions::default())?;
    let mut names: Vec<String> = list.iter().map(|m| move_to_string(&v.rules, m)).collect();
    names.sort();
    for n in names {
        outln!("{n}");
    }
    Ok(())
}

fn perft(
    variant: &str,
    depth: usize,
    fen: Option<&str>,
    divide: bool,
    threads: usize,
    keep_duplicates: bool,
) -> Result<(), Report> {
    use damelab::limits::{max_threads, MAX_PERFT_DEPTH, THREADS_PER_CORE};
    if depth > MAX_PERFT_DEPTH {
        return Err(miette::miette!(
            help = format!("give a depth from 0 to {MAX_PERFT_DEPTH}"),
            "depth {depth} is beyond the limit of {MAX_PERFT_DEPTH}"
        ));
    }
    let threads = if threads > max_threads() {
        errln!(
            "note: --threads {threads} capped at {} ({THREADS_PER_CORE} per core)",
            max_threads()
        );
        max_threads()
    } else {
        threads
    };
    let v = load(variant)?;
    let pos = position(&v, fen)?;
    let opts = GenOptions {
        keep_duplicates,
        ..GenOptions::default()
    };
    let rules = &v.rules;
    let t = Instant::now();
    let mut total = 0u64;
    // At depth 0 there is no first move to divide by: perft(0) alone.
    if divide && depth > 0 {
        let mut rows: Vec<(String, u64)> = rules
            .divide_interruptible(&pos, depth, opts, threads, PerftLimits::default())?
            .iter()
            .map(|(m, n)| (move_to_string(rules, m), *n))
            .collect();
        rows.sort();
        for (m, n) in &rows {
            outln!("{m} {n}");
            total += n;
        }
        outln!("perft({depth}) = {total}");
    } else if depth == 0 {
        // The empty sequence: one.
        outln!("perft(0) = 1");
        total = 1;
    } else {
        for d in 1..=depth {
            let n = rules.perft_interruptible(&pos, d, opts, threads, PerftLimits::default())?;
            outln!("perft({d}) = {n}");
            total += n;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    outln!(
        "{total} nodes in {secs:.3} s: {:.1} M nodes/s",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

fn repl(
    variant: &str,
    history: Option<std::path::PathBuf>,
    no_color: bool,
    echo: bool,
    ascii: bool,
) -> Result<(), Report> {
    damelab::repl::run(
        variant,
        damelab::repl::Options {
            history,
            no_color,
            echo,
            ascii,
        },
    )
}

fn replay(
    files: Vec<std::path::PathBuf>,
    variant: Option<String>,
    format: Option<damelab::pdn::cli::Format>,
    manifest: Option<std::path::PathBuf>,
    expect: Option<std::path::PathBuf>,
) -> ExitCode {
    let opts = damelab::pdn::cli::Options {
        files,
        variant,
        format,
        manifest,
        expect,
    };
    let t = Instant::now();
    match damelab::pdn::cli::run(&opts, &mut std::io::stdout()) {
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
            eprintln!("{report:?}");
            ExitCode::FAILURE
        }
    }
}
