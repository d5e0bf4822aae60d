//! Reading a user's file: regular files only, checked before they are opened, and at most the
//! size limit of their kind (docs/limits.md lists the limits).

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

/// What kind of file is read: each kind has its own size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A rules file (`check`, `moves`, REPL `load`, `show`).
    Rules,
    /// A case file (`verify`).
    Cases,
    /// A PDN file or an archive of one game a line (`replay`, REPL `open`).
    Pdn,
    /// A tab-separated list: `replay --manifest`, `replay --expect`.
    List,
    /// A self-play run file (`selfplay merge`, `selfplay chart`).
    RunJson,
    /// A training data file (`train merge`).
    TrainData,
    /// The PDN file of a run's shard (`selfplay merge`, `match merge`).
    RunPdn,
    /// An evaluation's weights (`--eval FILE`, `train --from`).
    Weights,
    /// The REPL's line history.
    History,
    /// An endgame table file of exactly this many bytes (its header and values).
    Table(u64),
}

impl Kind {
    /// The largest file of this kind that is read.
    pub fn limit(self) -> u64 {
        match self {
            Kind::Rules | Kind::Cases | Kind::List | Kind::History => crate::limits::MAX_FILE_BYTES,
            Kind::Pdn => crate::limits::MAX_PDN_BYTES,
            Kind::RunJson => crate::limits::MAX_RUN_FILE_BYTES,
            Kind::TrainData => crate::limits::MAX_TRAIN_DATA_BYTES,
            Kind::RunPdn => crate::limits::MAX_RUN_PDN_BYTES,
            Kind::Weights => crate::limits::MAX_WEIGHTS_BYTES,
            Kind::Table(bytes) => bytes,
        }
    }

    /// How the limit is named in a diagnostic.
    fn what(self) -> &'static str {
        match self {
            Kind::Rules => "a rules file",
            Kind::Cases => "a case file",
            Kind::Pdn => "a PDN file",
            Kind::List => "a list file",
            Kind::RunJson => "a self-play file",
            Kind::TrainData => "a training data file",
            Kind::RunPdn => "a shard's PDN file",
            Kind::Weights => "an evaluation file",
            Kind::History => "the history file",
            Kind::Table(_) => "this table file",
        }
    }
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A folder, a pipe, a device or a socket: `what` says which.
    #[error("it is not a regular file but {0}")]
    NotAFile(&'static str),
    #[error("it is larger than {limit} bytes, the limit for {what}")]
    TooLarge { limit: u64, what: &'static str },
    /// A table file whose size is not the one its material implies.
    #[error("it has {found} bytes where {expected} were expected")]
    WrongSize { found: u64, expected: u64 },
    #[error("it is not UTF-8 text")]
    NotText,
}

impl ReadError {
    /// Whether the file is simply not there (the first run of a cache or a history).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Read a file whole: a regular file of at most `kind`'s limit. A pipe, a device or a folder is
/// refused from its metadata, before any open that could block (a FIFO without a writer) or read
/// for ever (`/dev/zero`); the opened file is checked again, so a file swapped for a pipe between
/// the check and the open is refused too.
pub fn read_file(path: &Path, kind: Kind) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path)?;
    check_meta(&meta, kind)?;
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    check_meta(&meta, kind)?;
    let limit = kind.limit();
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    let found = bytes.len() as u64;
    match kind {
        Kind::Table(expected) if found != expected => Err(ReadError::WrongSize { found, expected }),
        _ if found > limit => Err(ReadError::TooLarge {
            limit,
            what: kind.what(),
        }),
        _ => Ok(bytes),
    }
}

/// The first `n` bytes of a file that [`read_file`] would read (a table's header, checked before
/// the whole file is): the same checks, and an error when the file is shorter.
pub fn read_head(path: &Path, kind: Kind, n: usize) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path)?;
    check_meta(&meta, kind)?;
    let mut file = open_nonblocking(path)?;
    check_meta(&file.metadata()?, kind)?;
    let mut head = vec![0u8; n];
    file.read_exact(&mut head)?;
    Ok(head)
}

/// [`read_file`] for text: the bytes must be UTF-8.
pub fn read_text(path: &Path, kind: Kind) -> Result<String, ReadError> {
    String::from_utf8(read_file(path, kind)?).map_err(|_| ReadError::NotText)
}

/// Whether `path` could be read as `kind` (a regular file within the limit), without opening it:
/// for files a library opens itself (the line editor's history).
pub fn check_readable(path: &Path, kind: Kind) -> Result<(), ReadError> {
    check_meta(&std::fs::metadata(path)?, kind)
}

fn check_meta(meta: &Metadata, kind: Kind) -> Result<(), ReadError> {
    let ft = meta.file_type();
    if !ft.is_file() {
        return Err(ReadError::NotAFile(describe_type(&ft)));
    }
    match kind {
        Kind::Table(expected) if meta.len() != expected => Err(ReadError::WrongSize {
            found: meta.len(),
            expected,
        }),
        _ if meta.len() > kind.limit() => Err(ReadError::TooLarge {
            limit: kind.limit(),
            what: kind.what(),
        }),
        _ => Ok(()),
    }
}

/// "a folder", "a pipe (FIFO)", …: what a path that is not a regular file is.
pub(super) fn describe_type(ft: &std::fs::FileType) -> &'static str {
    if ft.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a pipe (FIFO)";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// Open for reading without blocking: on Unix with `O_NONBLOCK`, which a regular file ignores and
/// which keeps a FIFO's open from waiting for a writer.
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_folders_and_devices() {
        assert!(matches!(
            read_file(Path::new("."), Kind::Rules),
            Err(ReadError::NotAFile("a folder"))
        ));
        #[cfg(unix)]
        assert!(matches!(
            read_file(Path::new("/dev/zero"), Kind::Pdn),
            Err(ReadError::NotAFile("a device"))
        ));
    }

    #[test]
    fn a_table_must_have_its_size() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("t.dlt");
        std::fs::write(&p, [0u8; 10]).expect("write");
        assert!(matches!(
            read_file(&p, Kind::Table(12)),
            Err(ReadError::WrongSize {
                found: 10,
                expected: 12
            })
        ));
        assert_eq!(read_file(&p, Kind::Table(10)).expect("reads").len(), 10);
    }

    #[test]
    fn refuses_devices_and_folders() {
        assert!(matches!(
            read_text(Path::new("."), Kind::Rules),
            Err(ReadError::NotAFile(_))
        ));
        #[cfg(unix)]
        assert!(matches!(
            read_text(Path::new("/dev/zero"), Kind::Rules),
            Err(ReadError::NotAFile(_))
        ));
    }
}
