//! Writing a user's file whole or not at all: a temporary file beside the target, flushed,
//! synced and renamed over it.
//!
//! Fault injection for the tests (`tests/hardening/faults.rs`): the environment variable
//! `DAMELAB_WRITE_FAULT` set to `enospc` makes every write of a temporary fail as on a full disk;
//! set to `kill-before-rename`, the process ends (exit 137, as after `kill -9`) once the temporary
//! is written and synced, before the rename. Neither touches the target.

use miette::Diagnostic;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be written. The old file, when there was one, is unchanged.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("cannot write `{path}`: {reason}{}", if *.kept { "; the old file is unchanged" } else { "" })]
#[diagnostic(code(damelab::write), help("{help}"))]
pub struct WriteError {
    pub path: String,
    pub reason: String,
    /// Whether a file was there before (and is still there, intact).
    pub kept: bool,
    help: String,
}

impl WriteError {
    fn new(path: &Path, reason: impl std::fmt::Display, kept: bool, help: &str) -> WriteError {
        WriteError {
            path: path.display().to_string(),
            reason: reason.to_string(),
            kept,
            help: help.into(),
        }
    }

    fn io(path: &Path, e: &io::Error, kept: bool) -> WriteError {
        let help = match e.raw_os_error() {
            Some(libc::ENOSPC) | Some(libc::EDQUOT) => {
                "free some space on that disk, or give a path on another one"
            }
            Some(libc::ENOENT) => "give a path in a folder that exists",
            Some(libc::EACCES) | Some(libc::EPERM) | Some(libc::EROFS) => {
                "give a path in a folder you can write to"
            }
            _ => "give a path in a folder you can write to",
        };
        WriteError::new(path, e, kept, help)
    }
}

/// The fault a test asked for (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    NoSpace,
    KillBeforeRename,
}

fn fault() -> Fault {
    match std::env::var("DAMELAB_WRITE_FAULT").as_deref() {
        Ok("enospc") => Fault::NoSpace,
        Ok("kill-before-rename") => Fault::KillBeforeRename,
        _ => Fault::None,
    }
}

/// A writer that fails as a full disk would, for [`Fault::NoSpace`].
struct Full;

impl Write for Full {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from_raw_os_error(libc::ENOSPC))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Write `bytes` to `path`, whole or not at all: the old file survives any failure.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_stream(path, |w| w.write_all(bytes))
}

/// [`write_file`] for output made piece by piece (a large table): `fill` writes into a buffered
/// temporary file beside `path`.
pub fn write_stream(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let target = Target::of(path)?;
    if let Some(special) = target.special {
        return write_special(path, special, fill);
    }
    let mut tmp = target.temporary(path)?;
    let fault = fault();
    let kept = target.exists;
    let written = (|| {
        if fault == Fault::NoSpace {
            return fill(&mut Full);
        }
        let mut w = BufWriter::new(tmp.as_file_mut());
        fill(&mut w)?;
        w.flush()
    })();
    // On any error `tmp` is dropped here, which removes the temporary.
    written.map_err(|e| WriteError::io(path, &e, kept))?;
    finish(path, &target, tmp, fault)
}

/// [`write_file`] for a library that insists on writing a path itself (the line editor's
/// history): `fill` writes the temporary file's path, which then replaces `path`.
pub fn write_via_path(
    path: &Path,
    fill: impl FnOnce(&Path) -> io::Result<()>,
) -> Result<(), WriteError> {
    let target = Target::of(path)?;
    if target.special.is_some() {
        return Err(WriteError::new(
            path,
            "it is not a regular file",
            true,
            "give the path of a regular file",
        ));
    }
    let tmp = target.temporary(path)?;
    let fault = fault();
    let kept = target.exists;
    let res = fill(tmp.path()).and_then(|()| {
        if fault == Fault::NoSpace {
            Err(io::Error::from_raw_os_error(libc::ENOSPC))
        } else {
            Ok(())
        }
    });
    res.map_err(|e| WriteError::io(path, &e, kept))?;
    finish(path, &target, tmp, fault)
}

/// Sync the temporary, then rename it over the target (and sync the folder, so the rename itself
/// survives a crash).
fn finish(
    path: &Path,
    target: &Target,
    tmp: tempfile::NamedTempFile,
    fault: Fault,
) -> Result<(), WriteError> {
    let kept = target.exists;
    // A library that wrote the path may have replaced the file the handle points at: sync what
    // the path names.
    File::open(tmp.path())
        .and_then(|f| f.sync_all())
        .map_err(|e| WriteError::io(path, &e, kept))?;
    if fault == Fault::KillBeforeRename {
        // As `kill -9` would: no destructor runs, the temporary stays, the target is untouched.
        std::process::exit(137);
    }
    tmp.persist(&target.path)
        .map_err(|e| WriteError::io(path, &e.error, kept))?;
    if let Ok(d) = File::open(&target.dir) {
        // Best effort: not every file system syncs folders.
        let _ = d.sync_all();
    }
    Ok(())
}

/// What a path names: the real file (symbolic links followed), its folder, whether it exists and
/// whether it is a device or a pipe.
struct Target {
    path: PathBuf,
    dir: PathBuf,
    exists: bool,
    permissions: Option<std::fs::Permissions>,
    special: Option<Special>,
}

#[derive(Clone, Copy)]
enum Special {
    Device,
    Fifo,
}

impl Target {
    fn of(path: &Path) -> Result<Target, WriteError> {
        let meta = std::fs::metadata(path);
        // A symbolic link is kept: the file it points to is replaced.
        let real = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() && meta.is_ok() => {
                std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
            }
            _ => path.to_path_buf(),
        };
        let (exists, permissions, special) = match &meta {
            Ok(m) if m.is_dir() => {
                return Err(WriteError::new(
                    path,
                    "it is a folder",
                    true,
                    "give a file name, e.g. `out.svg` inside that folder",
                ))
            }
            Ok(m) if m.is_file() => (true, Some(m.permissions()), None),
            Ok(m) => (true, None, Some(special_kind(m))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (false, None, None),
            Err(e) => return Err(WriteError::io(path, e, true)),
        };
        let dir = match real.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(Target {
            path: real,
            dir,
            exists,
            permissions,
            special,
        })
    }

    /// A new temporary file beside the target, with the target's permissions (or those of a new
    /// file: 0666 less the umask).
    fn temporary(&self, path: &Path) -> Result<tempfile::NamedTempFile, WriteError> {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let prefix = format!(".{name}.");
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            b.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = b
            .tempfile_in(&self.dir)
            .map_err(|e| WriteError::io(path, &e, self.exists))?;
        if let Some(p) = &self.permissions {
            tmp.as_file()
                .set_permissions(p.clone())
                .map_err(|e| WriteError::io(path, &e, self.exists))?;
        }
        Ok(tmp)
    }
}

fn special_kind(m: &std::fs::Metadata) -> Special {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if m.file_type().is_fifo() {
            return Special::Fifo;
        }
    }
    let _ = m;
    Special::Device
}

/// A device or a pipe (`-o /dev/stdout`, a FIFO) is written directly: there is no old file to
/// keep. A FIFO no program reads is an error, not a wait for ever.
fn write_special(
    path: &Path,
    special: Special,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let file = open_special(path, special).map_err(|e| {
        if e.raw_os_error() == Some(libc::ENXIO) {
            WriteError::new(
                path,
                "no program reads that pipe",
                false,
                "start the reader first, or give a file name",
            )
        } else {
            WriteError::io(path, &e, false)
        }
    })?;
    let mut w = BufWriter::new(file);
    fill(&mut w)
        .and_then(|()| w.flush())
        .map_err(|e| WriteError::io(path, &e, false))
}

fn open_special(path: &Path, special: Special) -> io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true);
    #[cfg(unix)]
    if let Special::Fifo = special {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for writing waits for a reader; O_NONBLOCK fails at once instead
        // (ENXIO), and is cleared once open so the writes wait for the reader as usual.
        o.custom_flags(libc::O_NONBLOCK);
        let f = o.open(path)?;
        // SAFETY: `fcntl` on a descriptor this function owns, with flags it read just before.
        unsafe {
            let fd = f.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
        return Ok(f);
    }
    let _ = special;
    o.open(path)
}

/// A file of records written as they finish (a match's PDN, a game at a time): the user's file
/// is replaced only once the first record is whole on disk, and every record after it is
/// appended and synced, or taken back on failure, so the file always ends with a whole record.
///
/// Until [`Appender::append`] first succeeds the records go to a temporary file beside the target;
/// that file is then renamed over the target and appended to from then on (the same open file).
/// A record that cannot be written whole (a full disk) is cut back off, and the error returned
/// at once. A device or a pipe is written directly.
pub struct Appender {
    path: PathBuf,
    target: Target,
    state: AppendState,
    /// The bytes of whole records written so far.
    len: u64,
}

enum AppendState {
    /// Nothing written yet: the temporary beside the target.
    Temporary(tempfile::NamedTempFile),
    /// Renamed over the target (or a device): appended to.
    Open(File),
    /// A failure left nothing usable.
    Failed,
}

impl Appender {
    /// Check the target and open the temporary beside it; the target is not touched yet.
    pub fn create(path: &Path) -> Result<Appender, WriteError> {
        let target = Target::of(path)?;
        let state = match target.special {
            Some(special) => AppendState::Open(
                open_special(path, special).map_err(|e| WriteError::io(path, &e, false))?,
            ),
            None => AppendState::Temporary(target.temporary(path)?),
        };
        Ok(Appender {
            path: path.to_path_buf(),
            target,
            state,
            len: 0,
        })
    }

    /// Append one whole record and sync it (the first one also replaces the target).
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        let kept = self.target.exists && matches!(self.state, AppendState::Temporary(_));
        let fault = fault();
        let path = self.path.clone();
        let written = match &mut self.state {
            AppendState::Failed => {
                return Err(WriteError::new(
                    &path,
                    "an earlier write failed",
                    false,
                    "give a path on a disk with room",
                ))
            }
            AppendState::Temporary(tmp) => write_record(tmp.as_file_mut(), bytes, fault),
            AppendState::Open(f) => write_record(f, bytes, fault),
        };
        if let Err(e) = written {
            // Cut the partial record off: the file ends with a whole record again.
            let cut = match &mut self.state {
                AppendState::Temporary(tmp) => tmp.as_file().set_len(self.len),
                AppendState::Open(f) if self.target.special.is_none() => f.set_len(self.len),
                _ => Ok(()),
            };
            if cut.is_err() {
                self.state = AppendState::Failed;
            }
            return Err(WriteError::io(&path, &e, kept));
        }
        self.len += bytes.len() as u64;
        if let AppendState::Temporary(_) = self.state {
            let AppendState::Temporary(tmp) =
                std::mem::replace(&mut self.state, AppendState::Failed)
            else {
                unreachable!("matched just above");
            };
            if fault == Fault::KillBeforeRename {
                std::process::exit(137);
            }
            let file = tmp
                .persist(&self.target.path)
                .map_err(|e| WriteError::io(&path, &e.error, kept))?;
            if let Ok(d) = File::open(&self.target.dir) {
                let _ = d.sync_all();
            }
            self.state = AppendState::Open(file);
        }
        Ok(())
    }

    /// Whether a record has been written (the target replaced).
    pub fn started(&self) -> bool {
        self.len > 0
    }
}

fn write_record(f: &mut File, bytes: &[u8], fault: Fault) -> io::Result<()> {
    use std::io::Seek;
    if fault == Fault::NoSpace {
        return Full.write_all(bytes);
    }
    f.seek(io::SeekFrom::End(0))?;
    f.write_all(bytes)?;
    f.flush()?;
    // A device or a pipe cannot sync; what was written is written.
    match f.sync_data() {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
        r => r,
    }
}

/// Before long work: check that `path` can be written (its folder takes a new file), leaving
/// nothing behind.
pub fn check_writable(path: &Path) -> Result<(), WriteError> {
    let target = Target::of(path)?;
    if target.special.is_some() {
        return Ok(());
    }
    target.temporary(path).map(drop)
}

/// Whether two output paths name the same file (`--json X --svg X`, `-o` onto an input).
pub fn same_target(a: &Path, b: &Path) -> bool {
    fn norm(p: &Path) -> Option<PathBuf> {
        if let Ok(c) = std::fs::canonicalize(p) {
            return Some(c);
        }
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(p.file_name()?))
    }
    match (norm(a), norm(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_keeps_the_mode() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "old").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        }
        write_file(&p, b"new").expect("writes");
        assert_eq!(std::fs::read_to_string(&p).expect("reads"), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        // Nothing but the file is left in the folder.
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[test]
    fn a_failed_fill_keeps_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "old").expect("write");
        let e = write_stream(&p, |w| {
            w.write_all(b"half")?;
            Err(io::Error::from_raw_os_error(libc::ENOSPC))
        })
        .expect_err("fails");
        assert!(e.kept);
        assert!(e.to_string().contains("the old file is unchanged"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).expect("reads"), "old");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[test]
    fn folders_are_refused_and_paths_compared() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(write_file(dir.path(), b"x").is_err());
        let a = dir.path().join("x.json");
        let b = dir.path().join(".").join("x.json");
        assert!(same_target(&a, &b));
        assert!(!same_target(&a, &dir.path().join("y.json")));
    }

    #[test]
    fn an_appender_replaces_the_file_only_with_a_whole_record() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("m.pdn");
        std::fs::write(&p, "the user's old file").expect("write");
        let mut a = Appender::create(&p).expect("opens");
        // Nothing written yet: the old file is whole.
        assert_eq!(
            std::fs::read_to_string(&p).expect("reads"),
            "the user's old file"
        );
        assert!(!a.started());
        a.append(b"game 1\n").expect("appends");
        assert_eq!(std::fs::read_to_string(&p).expect("reads"), "game 1\n");
        a.append(b"game 2\n").expect("appends");
        assert_eq!(
            std::fs::read_to_string(&p).expect("reads"),
            "game 1\ngame 2\n"
        );
        drop(a);
        // No temporary left beside it.
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }
}
