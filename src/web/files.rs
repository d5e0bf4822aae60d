//! File access from the page, confined to the directory the server was started in: relative
//! paths only, no `..`, no symlink anywhere on the way, rules files only.

use super::guard::{ApiError, ApiResult};
use axum::http::StatusCode;
use std::path::{Component, Path, PathBuf};

/// The directory the server was started in (canonical), under which every file the page names
/// must stay.
#[derive(Clone, Debug)]
pub struct Root(pub PathBuf);

const RULES_HELP: &str =
    "name a .rules file inside the folder `damelab serve` was started in, e.g. `my.rules`";

fn forbidden(path: &str, why: &str) -> ApiError {
    forbidden_with(path, why, RULES_HELP)
}

/// A path refused (403), with the help line of what the page was asking for.
pub fn forbidden_with(path: &str, why: &str, help: &str) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        format!("`{path}` is not a file the workbench may use: {why}"),
        help,
    )
}

impl Root {
    /// The real path of `rel`, a `.rules` file under the root. Refused: absolute paths, `..`,
    /// any symlink on the way (it could point out of the root), other extensions.
    pub fn resolve(&self, rel: &str) -> ApiResult<PathBuf> {
        if Path::new(rel).extension().and_then(|e| e.to_str()) != Some("rules") {
            return Err(forbidden(rel, "it does not end in `.rules`"));
        }
        self.walk(rel, RULES_HELP)
    }

    /// The real path of `rel` under the root, whatever it names (an empty `rel` is the root
    /// itself). Refused with 403 and words: absolute paths, `..`, any symbolic link on the way,
    /// a path that leaves the root once made canonical; with 400, a path over 1024 bytes.
    pub fn walk(&self, rel: &str, help: &str) -> ApiResult<PathBuf> {
        let refuse = |why: &str| forbidden_with(rel, why, help);
        if rel.len() > 1024 {
            return Err(ApiError::bad(
                format!("the path is {} bytes long, more than 1024", rel.len()),
                help,
            ));
        }
        if rel.contains('\\') || rel.contains('\0') {
            return Err(refuse("only `/` separates folders, and no NUL"));
        }
        let p = Path::new(rel);
        let mut full = self.0.clone();
        for c in p.components() {
            match c {
                Component::Normal(part) => {
                    full.push(part);
                    // Each step on the way, the file included, must not be a symlink.
                    if let Ok(meta) = std::fs::symlink_metadata(&full) {
                        if meta.file_type().is_symlink() {
                            return Err(refuse("it goes through a symbolic link"));
                        }
                    }
                }
                Component::CurDir => {}
                _ => return Err(refuse("only paths inside the folder, without `..`")),
            }
        }
        // Made canonical, it must still be inside the root (a rename racing the walk).
        if let Ok(canon) = full.canonicalize() {
            if !canon.starts_with(&self.0) {
                return Err(refuse("it is outside the folder"));
            }
        }
        if !full.starts_with(&self.0) {
            return Err(refuse("it is outside the folder"));
        }
        Ok(full)
    }

    /// `path` as the page names it: relative to the root when inside it.
    pub fn relative(&self, path: &Path) -> Option<PathBuf> {
        let canon = path.canonicalize().ok()?;
        canon.strip_prefix(&self.0).ok().map(Path::to_path_buf)
    }

    /// Read a rules file under the root (within the file-size limit of every input file).
    pub fn read(&self, rel: &str) -> ApiResult<(PathBuf, String)> {
        let full = self.resolve(rel)?;
        let text = crate::fsio::read_text(&full, crate::fsio::Kind::Rules).map_err(|e| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("cannot read `{rel}`: {e}"),
                "name an existing .rules file inside the folder",
            )
        })?;
        Ok((full, text))
    }

    /// Write a rules file under the root; an existing file is kept as `NAME.rules.bak` first.
    /// Returns the backup's name when there was one. Both go through [`crate::fsio`]: the old
    /// file is read with its bounded, non-blocking read, each file is written beside itself and
    /// renamed (a full disk leaves no partial file), and a symbolic link, a pipe or a device at
    /// `NAME.rules` or `NAME.rules.bak` is refused, never followed or waited on.
    pub fn save(&self, rel: &str, text: &str) -> ApiResult<Option<String>> {
        let full = self.resolve(rel)?;
        let bak = full.with_extension("rules.bak");
        let bak_rel = format!("{rel}.bak");
        for (path, name) in [(&full, rel), (&bak, bak_rel.as_str())] {
            if let Ok(meta) = std::fs::symlink_metadata(path) {
                let ft = meta.file_type();
                if ft.is_symlink() {
                    return Err(forbidden(name, "it is a symbolic link"));
                }
                if !ft.is_file() {
                    return Err(forbidden(
                        name,
                        "it is not a regular file (a folder, a pipe or a device)",
                    ));
                }
            }
        }
        let write = |name: &str, e: crate::fsio::WriteError| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot write `{name}`: {}", e.reason)
                    + if e.kept {
                        "; the old file is unchanged"
                    } else {
                        ""
                    },
                "check the folder's permissions and free space, or download the file instead",
            )
        };
        let mut backup = None;
        match crate::fsio::read_file(&full, crate::fsio::Kind::Rules) {
            Ok(old) => {
                crate::fsio::write_file(&bak, &old).map_err(|e| write(&bak_rel, e))?;
                backup = Some(bak_rel);
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    format!("cannot keep a backup of `{rel}`: {e}; nothing was written"),
                    "save under another name, or move the old file away first",
                ))
            }
        }
        crate::fsio::write_file(&full, text.as_bytes()).map_err(|e| write(rel, e))?;
        Ok(backup)
    }
}
