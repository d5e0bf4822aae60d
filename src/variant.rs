//! A loaded variant: a bundled name or a rules file, parsed, checked and compiled.

use crate::engine::{CompileError, Rules};
use crate::lang::{self, RulesError, RulesWarnings};
use crate::variants;
use miette::Diagnostic;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A variant ready to play: its compiled rules and where they came from.
#[derive(Clone, Debug)]
pub struct Variant {
    pub rules: Arc<Rules>,
    /// The rules file, when loaded from disk (for `reload`).
    pub path: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum LoadError {
    #[error("unknown variant `{name}`")]
    #[diagnostic(help("{help}"))]
    Unknown { name: String, help: String },
    #[error("cannot read `{path}`: {error}")]
    #[diagnostic(help(
        "give a bundled variant's name (`damelab list`) or the path of a .rules file"
    ))]
    Io {
        path: String,
        error: crate::fsio::ReadError,
    },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Rules(Box<RulesError>),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Compile(#[from] CompileError),
}

impl Variant {
    /// Load a bundled variant by name, or a rules file by path. A name that is neither a bundled
    /// variant nor an existing file is an error that lists the bundled names.
    pub fn load(name_or_path: &str) -> Result<Variant, LoadError> {
        Self::load_with_warnings(name_or_path).map(|(v, _)| v)
    }

    /// [`Variant::load`], and the warnings of a rules file that loads (see
    /// [`lang::load_with_warnings`]).
    pub fn load_with_warnings(
        name_or_path: &str,
    ) -> Result<(Variant, Option<RulesWarnings>), LoadError> {
        if let Some(text) = variants::bundled(name_or_path) {
            let file = format!("variants/{name_or_path}.rules");
            return Self::compile(&file, name_or_path, text, None);
        }
        let path = Path::new(name_or_path);
        if path.exists() || name_or_path.ends_with(".rules") || name_or_path.contains('/') {
            return Self::from_path_with_warnings(path);
        }
        let names: Vec<&str> = variants::BUNDLED.iter().map(|(n, _)| *n).collect();
        let close = crate::util::closest(name_or_path, names.iter().copied());
        let help = match close {
            Some(c) => format!("did you mean `{c}`? bundled variants: {}", names.join(", ")),
            None => format!(
                "bundled variants: {}; or give the path of a .rules file",
                names.join(", ")
            ),
        };
        Err(LoadError::Unknown {
            name: name_or_path.to_string(),
            help,
        })
    }

    pub fn from_path(path: &Path) -> Result<Variant, LoadError> {
        Self::from_path_with_warnings(path).map(|(v, _)| v)
    }

    /// [`Variant::from_path`], and the warnings of the file (see [`lang::load_with_warnings`]).
    pub fn from_path_with_warnings(
        path: &Path,
    ) -> Result<(Variant, Option<RulesWarnings>), LoadError> {
        let text = crate::fsio::read_text(path, crate::fsio::Kind::Rules).map_err(|error| {
            LoadError::Io {
                path: path.display().to_string(),
                error,
            }
        })?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("variant");
        Self::compile(
            &path.display().to_string(),
            stem,
            &text,
            Some(path.to_path_buf()),
        )
    }

    pub fn from_source(
        file_name: &str,
        name: &str,
        text: &str,
        path: Option<PathBuf>,
    ) -> Result<Variant, LoadError> {
        Self::compile(file_name, name, text, path).map(|(v, _)| v)
    }

    fn compile(
        file_name: &str,
        name: &str,
        text: &str,
        path: Option<PathBuf>,
    ) -> Result<(Variant, Option<RulesWarnings>), LoadError> {
        let (spec, warnings) = lang::load_with_warnings(file_name, name, text)
            .map_err(|e| LoadError::Rules(Box::new(e)))?;
        let rules = Rules::compile(&spec)?;
        let variant = Variant {
            rules: Arc::new(rules),
            path,
        };
        Ok((variant, warnings))
    }

    pub fn name(&self) -> &str {
        &self.rules.spec.name
    }
}
