//! The one way damelab writes and reads a user's files, and checks a setting's memory.
//!
//! - [`write_file`] (and [`write_stream`] for large outputs): the bytes go to a temporary file
//!   beside the target, which is flushed, synced and renamed over it. The old file survives any
//!   failure (a full disk, a kill between the write and the rename); the temporary is removed on
//!   every error path. Devices and pipes (`-o /dev/stdout`) are written directly.
//! - [`Appender`]: records written as they finish (a match's games): the old file is replaced
//!   only once the first record is whole on disk; a record that cannot be written whole is cut
//!   back off, so the file always ends with a whole one.
//! - [`read_file`] / [`read_text`]: regular files only — a pipe, a device or a folder is refused
//!   before it is opened for reading, so reading never blocks — and at most the size limit of the
//!   [`Kind`] of file.
//! - [`check_memory`]: a setting's memory (a hash table, a run's records) against what the
//!   machine has available, before the work starts.
//!
//! Every error is a diagnostic naming the file and the fix.

mod memory;
mod read;
mod write;

pub use memory::{available_memory, check_memory, MemoryError};
pub use read::{check_readable, read_file, read_head, read_text, Kind, ReadError};
pub use write::{
    check_writable, same_target, write_file, write_stream, write_via_path, Appender, WriteError,
};
