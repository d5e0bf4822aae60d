//! `damelab verify`: run case files or folders of them, report each case (a diff for a failure, a
//! diagnostic pointing into the YAML for unreadable input), and with `--bless` fill in blank
//! expectations.

use crate::cases::bless::{apply, bless_case};
use crate::cases::load::{load, LoadedFile};
use crate::cases::run_case;
use crate::Variant;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, Report};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How `verify` runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Fill in blank expectations.
    pub bless: bool,
    /// With `bless`: also replace expectations that are written and fail.
    pub force: bool,
    /// Colour the diagnostics.
    pub color: bool,
}

/// Cases that passed and failed (a file or case that cannot be read counts as one failure).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
}

/// Run the case files at `paths` (files or folders; `./cases` when empty), printing each case and
/// the summary line `N passed, M failed`. Returns whether every case passed.
pub fn run(paths: &[PathBuf], opts: Options) -> Result<bool, Report> {
    // A closed pipe (`damelab verify | head`) must not stop the run half-way through a bless:
    // output that cannot be written is dropped, and any failure but a closed pipe (a full disk)
    // is reported once the run is over.
    let mut stdout = std::io::stdout();
    let mut lost: Option<std::io::Error> = None;
    let mut note = |r: std::io::Result<()>| {
        if let Err(e) = r {
            if e.kind() != std::io::ErrorKind::BrokenPipe && lost.is_none() {
                lost = Some(e);
            }
        }
    };
    let tally = run_with(paths, opts, &mut |s| note(stdout.write_all(s.as_bytes())))?;
    note(
        writeln!(stdout, "{} passed, {} failed", tally.passed, tally.failed)
            .and_then(|()| stdout.flush()),
    );
    if let Some(e) = lost {
        return Err(miette::miette!(
            help = "free some space, or send the output somewhere it can be written",
            "cannot write the report: {e}"
        ));
    }
    Ok(tally.failed == 0)
}

/// As [`run`], handing the report to `out` piece by piece and returning the tally.
pub fn run_with(
    paths: &[PathBuf],
    opts: Options,
    out: &mut dyn FnMut(&str),
) -> Result<Tally, Report> {
    let default = [PathBuf::from("cases")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let mut files = Vec::new();
    for p in paths {
        collect(p, &mut files)?;
    }
    let mut tally = Tally::default();
    for f in &files {
        run_file(f, opts, out, &mut tally);
    }
    Ok(tally)
}

fn collect(p: &Path, files: &mut Vec<PathBuf>) -> Result<(), Report> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| miette::miette!("cannot read folder `{}`: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|e| e.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        if entries.is_empty() {
            // Nothing to run is not a pass.
            return Err(miette::miette!(
                help = "case files end in `.yaml` or `.yml`; give a folder that holds some",
                "no case files in folder `{}`",
                p.display()
            ));
        }
        entries.sort();
        files.extend(entries);
        Ok(())
    } else if p.exists() {
        files.push(p.to_path_buf());
        Ok(())
    } else {
        Err(miette::miette!(
            help = "give case files or folders of them",
            "`{}` does not exist",
            p.display()
        ))
    }
}

fn render(d: &dyn Diagnostic, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let mut s = String::new();
    if GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .render_report(&mut s, d)
        .is_err()
    {
        return format!("error: {d}\n");
    }
    s
}

/// Indent every line of `text` by `pad`.
fn indented(text: &str, pad: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{pad}{l}\n")
            }
        })
        .collect()
}

/// The variant a case file names: a bundled name, or a rules file relative to the case file.
fn variant_of(path: &Path, name: &str) -> Result<Variant, crate::variant::LoadError> {
    if crate::variants::bundled(name).is_some() {
        return Variant::load(name);
    }
    // Only beside the case file: never the current directory, which depends on where verify runs.
    let relative = path.parent().unwrap_or(Path::new(".")).join(name);
    let looks_like_path = name.contains(['/', '\\', '.']);
    if relative.exists() || looks_like_path || Path::new(name).exists() {
        Variant::from_path(&relative)
    } else {
        // A misspelt bundled name: the error lists the names.
        Variant::load(name)
    }
}

fn run_file(path: &Path, opts: Options, out: &mut dyn FnMut(&str), tally: &mut Tally) {
    let name = path.display().to_string();
    let text = match crate::fsio::read_text(path, crate::fsio::Kind::Cases) {
        Ok(t) => t,
        Err(e) => {
            out(&format!("{name}\n  FAIL  cannot read the file: {e}\n"));
            tally.failed += 1;
            return;
        }
    };
    let file = match load(&name, &text) {
        Ok(f) => f,
        Err(e) => {
            out(&format!("{name}\n  FAIL  the file does not read\n"));
            out(&render(&*e, opts.color));
            tally.failed += 1;
            return;
        }
    };
    let variant = match variant_of(path, &file.variant) {
        Ok(v) => v,
        Err(e) => {
            out(&format!("{name}\n  FAIL  its variant does not load\n"));
            let pointer = file.variant_error(
                format!("cannot load variant `{}`", file.variant),
                Some("give a bundled variant's name, or a rules file's path relative to the case file".into()),
            );
            out(&render(&pointer, opts.color));
            out(&render(&e, opts.color));
            tally.failed += file.cases.len().max(1) + file.errors.len();
            return;
        }
    };
    out(&format!("{name} ({})\n", variant.rules.spec.title));
    // At most MAX_DIAGNOSTICS diagnostics are drawn per file: each costs the file's length.
    let mut drawn = 0;
    let mut hidden = 0;
    let mut draw = |d: &dyn Diagnostic, out: &mut dyn FnMut(&str)| {
        if drawn < crate::limits::MAX_DIAGNOSTICS {
            drawn += 1;
            out(&render(d, opts.color));
        } else {
            hidden += 1;
        }
    };
    for (case_name, e) in &file.errors {
        let who = case_name.as_deref().unwrap_or("(a case)");
        out(&format!("  FAIL  {who} (does not read)\n"));
        draw(e, out);
        tally.failed += 1;
    }
    let mut edits = Vec::new();
    for lc in &file.cases {
        let run = run_case(&variant, &lc.case);
        let mut report = String::new();
        let mut filled: Vec<&str> = Vec::new();
        if opts.bless {
            let b = bless_case(&file.text, lc, &run, opts.force);
            filled = b.filled.clone();
            edits.extend(b.edits);
            for e in b.errors {
                report.push_str(&format!("        {e}\n"));
            }
        }
        let remaining: Vec<_> = run
            .failures
            .iter()
            .filter(|f| !filled.contains(&f.key))
            .collect();
        let ok = remaining.is_empty() && run.problems.is_empty() && report.is_empty();
        let status = match (ok, filled.is_empty()) {
            (true, true) => "ok   ",
            (true, false) => "bless",
            (false, _) => "FAIL ",
        };
        let mut line = format!("  {status} {}", run.name);
        if !filled.is_empty() {
            line.push_str(&format!(" (filled in: {})", filled.join(", ")));
        }
        out(&format!("{line}\n"));
        for f in &remaining {
            out(&indented(&f.text, "        "));
            let blessable = ["perft", "moves", "position", "result", "explain"].contains(&f.key);
            if opts.bless && !f.blank && blessable {
                out("        (kept: `--force` replaces it)\n");
            }
        }
        out(&report);
        for p in &run.problems {
            draw(&file.problem(lc, p), out);
        }
        if ok {
            tally.passed += 1;
        } else {
            tally.failed += 1;
        }
    }
    if hidden > 0 {
        out(&format!(
            "  {} (diagnostics not drawn)\n",
            crate::limits::more_errors(hidden)
        ));
    }
    if !edits.is_empty() {
        write_back(path, &file, edits, out, tally);
    }
}

fn write_back(
    path: &Path,
    file: &LoadedFile,
    edits: Vec<crate::cases::bless::Edit>,
    out: &mut dyn FnMut(&str),
    tally: &mut Tally,
) {
    let text = apply(&file.text, edits);
    // The edited text must still read as a case file before it replaces the original.
    let broken = file
        .errors
        .is_empty()
        .then(|| serde_yaml::from_str::<crate::cases::CaseFile>(&text).err())
        .flatten();
    if let Some(e) = broken {
        out(&format!(
            "  FAIL  blessing would break {}: {e}; the file is unchanged\n",
            path.display()
        ));
        tally.failed += 1;
        return;
    }
    // Whole or not at all: on a full disk or a kill the case file stays as it was.
    match crate::fsio::write_file(path, text.as_bytes()) {
        Ok(()) => out(&format!("  wrote {}\n", path.display())),
        Err(e) => {
            out(&format!("  FAIL  {e}\n"));
            tally.failed += 1;
        }
    }
}
