//! `damelab verify`: run case files or folders of them and report each case.

use crate::cases::{run_case, CaseFile};
use crate::Variant;
use miette::Report;
use std::path::{Path, PathBuf};

/// Run the case files at `paths` (files or folders; `./cases` when empty). Returns whether every
/// case passed.
pub fn run(paths: &[PathBuf], _bless: bool, _force: bool) -> Result<bool, Report> {
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
    let mut all_ok = true;
    for f in &files {
        all_ok &= run_file(f)?;
    }
    Ok(all_ok)
}

fn collect(p: &Path, files: &mut Vec<PathBuf>) -> Result<(), Report> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| miette::miette!("cannot read folder `{}`: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|e| e.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
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

fn run_file(path: &Path) -> Result<bool, Report> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| miette::miette!("cannot read `{}`: {e}", path.display()))?;
    let file: CaseFile =
        serde_yaml::from_str(&text).map_err(|e| miette::miette!("{}: {e}", path.display()))?;
    let variant_path = path.parent().unwrap_or(Path::new(".")).join(&file.variant);
    let variant = if crate::variants::bundled(&file.variant).is_none() && variant_path.exists() {
        Variant::from_path(&variant_path)
    } else {
        Variant::load(&file.variant)
    }
    .map_err(Report::new)?;
    let mut ok = true;
    println!("{} ({})", path.display(), variant.rules.spec.title);
    for case in &file.cases {
        let r = run_case(&variant, case);
        if r.passed() {
            println!("  ok    {}", r.name);
        } else {
            ok = false;
            println!("  FAIL  {}", r.name);
            for f in &r.failures {
                for line in f.lines() {
                    println!("        {line}");
                }
            }
        }
    }
    Ok(ok)
}
