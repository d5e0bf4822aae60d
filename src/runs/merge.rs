//! The merge driver's shared steps, each refusal written once: the files given to a `merge`
//! told apart (the shards' JSON files, and their PDN files when `--pdn` asks for one), and the
//! rules the files were played under found again — a bundled variant by its name, any other
//! rules file given with `--rules FILE` — and checked against the fingerprint the files record.
//! The refusals carry no diagnostic code: their text is the one the commands always printed.

use crate::Variant;
use miette::Diagnostic;
use std::path::{Path, PathBuf};

/// Why the files given to a merge cannot be merged (before any is read, or for their rules).
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum MergeError {
    #[error("`{0}` is a PDN file but no --pdn was given")]
    #[diagnostic(help("give --pdn FILE to merge the shards' PDN files into it"))]
    PdnWithoutOutput(String),
    #[error("--pdn needs the shards' PDN files")]
    #[diagnostic(help("give each shard's `--pdn` file among the files to merge"))]
    OutputWithoutPdn,
    #[error("no JSON files to merge")]
    #[diagnostic(help("{help}"))]
    NoJson { help: String },
    #[error("the files were played under the rules `{0}`, which are not a bundled variant")]
    #[diagnostic(help(
        "give the rules file they were played with: `--rules {0}.rules` (the file's path)"
    ))]
    NotBundled(String),
    /// The rules found are not those the files record (what differs is said).
    #[error("{0}")]
    #[diagnostic(help(
        "give the rules file the games were played with, unchanged: `--rules FILE`"
    ))]
    OtherRules(String),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] crate::variant::LoadError),
}

/// The files given to a merge: the shards' JSON files and their PDN files (by extension).
pub struct Inputs<'a> {
    pub json: Vec<&'a PathBuf>,
    pub pdn: Vec<&'a PathBuf>,
}

/// Whether a file given to `merge` is a PDN file (by its extension); the others are JSON.
pub fn is_pdn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
}

impl<'a> Inputs<'a> {
    /// Tell the files apart: PDN files only with `--pdn` (`pdn_out`), `--pdn` only with PDN
    /// files, and at least one JSON file (`json_help` says which files are meant).
    pub fn of(
        paths: &'a [PathBuf],
        pdn_out: bool,
        json_help: &str,
    ) -> Result<Inputs<'a>, MergeError> {
        let (pdn, json): (Vec<&PathBuf>, Vec<&PathBuf>) = paths.iter().partition(|p| is_pdn(p));
        match (pdn.first(), pdn_out) {
            (Some(p), false) => return Err(MergeError::PdnWithoutOutput(p.display().to_string())),
            (None, true) => return Err(MergeError::OutputWithoutPdn),
            _ => {}
        }
        if json.is_empty() {
            return Err(MergeError::NoJson {
                help: json_help.to_string(),
            });
        }
        Ok(Inputs { json, pdn })
    }
}

/// The rules a merge's files were played under: the rules file `file` when given, else the
/// bundled variant the files name; either must have the fingerprint the files record
/// (`recorded`), or the merge is refused, saying what differs.
pub fn rules_for_merge(
    file: Option<&Path>,
    variant: &str,
    recorded: &str,
) -> Result<Variant, MergeError> {
    let v = match file {
        Some(p) => Variant::from_path(p)?,
        None => match Variant::load(variant) {
            Ok(v) => v,
            Err(crate::variant::LoadError::Unknown { .. }) => {
                return Err(MergeError::NotBundled(variant.to_string()))
            }
            Err(e) => return Err(e.into()),
        },
    };
    let have = v.rules.fingerprint();
    if have == recorded {
        return Ok(v);
    }
    Err(MergeError::OtherRules(match file {
        Some(p) if v.name() != variant => format!(
            "`{}` holds the rules `{}` (fingerprint {have}), not `{variant}` (fingerprint \
             {recorded}) that the files were played under",
            p.display(),
            v.name()
        ),
        Some(p) => format!(
            "`{}` is not the rules the files were played under: its rules fingerprint is \
             {have}, the files' {recorded} (the rules `{variant}` changed since the games were \
             played)",
            p.display()
        ),
        None => format!(
            "the rules of `{variant}` changed since the files were written: their fingerprint \
             is {have}, the files' {recorded}"
        ),
    }))
}
