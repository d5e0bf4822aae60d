//! Table files in the cache directory.
//!
//! One file a material: `<rules fingerprint>-<material key>.dlt`. A 48-byte header (magic, format
//! version, the index's layout — placements of single pieces, or columns under `take top` —,
//! rules hash, material, number of values, checksum of the values) precedes the values, two bytes
//! each, little-endian. A file whose header or checksum does not match is never used: the table
//! is rebuilt and the file rewritten.

use super::material::Material;
use super::solve::Table;
use super::value::Packed;
use crate::engine::Rules;
use crate::util::Fnv;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DLENDGM\x1a";
/// Bump when the index or the value encoding changes.
pub const FORMAT: u32 = 1;
const HEADER: usize = 48;
/// The layout word (bytes 12..16) of a table of single pieces' placements (files written before
/// tables of columns existed have it too: the word was zero).
const PLACEMENTS: u32 = 0;
/// The layout word of a table of columns (`take top`, [`super::columns`]).
const COLUMNS: u32 = 1;

/// The layout word a table of these rules has.
fn layout<B: crate::engine::BitSet>(rules: &Rules<B>) -> u32 {
    if rules.stacks {
        COLUMNS
    } else {
        PLACEMENTS
    }
}

/// The rules' identity in a table file's name and header: [`Rules::fingerprint_hash`], the
/// identity every other file of damelab records.
pub fn rules_hash<B: crate::engine::BitSet>(rules: &Rules<B>) -> u64 {
    rules.fingerprint_hash()
}

/// The identity table files had before they took the rules' fingerprint (a hash of the spec's
/// debug form and the format). A file named by it is still read: [`load`] and [`check`] adopt
/// it (checked under its own identity, then written again under the fingerprint).
fn legacy_rules_hash<B: crate::engine::BitSet>(rules: &Rules<B>) -> u64 {
    Fnv::of(format!("{:?}|{}", rules.spec, FORMAT).as_bytes())
}

/// The cache directory: `$DAMELAB_CACHE`, else `$XDG_CACHE_HOME/damelab`, else
/// `~/.cache/damelab`.
pub fn default_dir() -> Option<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = env("DAMELAB_CACHE") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = env("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("damelab"));
    }
    env("HOME").map(|h| PathBuf::from(h).join(".cache").join("damelab"))
}

pub fn path<B: crate::engine::BitSet>(dir: &Path, rules: &Rules<B>, m: &Material) -> PathBuf {
    named(dir, rules_hash(rules), m)
}

fn named(dir: &Path, hash: u64, m: &Material) -> PathBuf {
    dir.join(format!("{hash:016x}-{}.dlt", m.key()))
}

/// The start of the file names of these rules' tables, under the fingerprint and under the
/// earlier identity ([`legacy_rules_hash`]).
pub fn prefixes<B: crate::engine::BitSet>(rules: &Rules<B>) -> [String; 2] {
    [rules_hash(rules), legacy_rules_hash(rules)].map(|h| format!("{h:016x}-"))
}

/// A table file of `m` named by the earlier identity, when there is one and none under the
/// fingerprint: checked under its own identity and written again under the fingerprint (the old
/// file removed). `Err(note)` when it cannot be trusted.
fn adopt_legacy<B: crate::engine::BitSet>(
    dir: &Path,
    rules: &Rules<B>,
    m: &Material,
    len: u64,
) -> Result<(), StoreError> {
    let new = path(dir, rules, m);
    let old = named(dir, legacy_rules_hash(rules), m);
    if old == new || !old.exists() || new.exists() {
        return Ok(());
    }
    let mut bytes = match crate::fsio::read_file(&old, crate::fsio::Kind::Table(file_bytes(len))) {
        Ok(b) => b,
        Err(e) => return Err(unusable(&old, &format!("cannot be read ({e})"))),
    };
    decode_as(&bytes, (legacy_rules_hash(rules), layout(rules)), m, len)
        .map_err(|why| unusable(&old, why))?;
    bytes[16..24].copy_from_slice(&rules_hash(rules).to_le_bytes());
    crate::fsio::write_file(&new, &bytes).map_err(|e| StoreError::Unwritten(e.to_string()))?;
    // The old name is no longer read; a failure to remove it leaves a harmless copy.
    let _ = std::fs::remove_file(&old);
    Ok(())
}

#[allow(clippy::needless_range_loop)]
fn material_bytes(m: &Material) -> [u8; 8] {
    let mut b = [0u8; 8];
    for side in 0..2 {
        for k in 0..4 {
            b[side * 4 + k] = m.counts[side][k];
        }
    }
    b
}

fn checksum(values: &[Packed]) -> u64 {
    let mut h = Fnv::default();
    for chunk in values.chunks(4096) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
        h = h.write(&bytes);
    }
    h.finish()
}

/// The values of a cached table: `Ok(None)` when there is no file, `Err(note)` when there is one
/// that cannot be trusted (it will be rebuilt).
pub fn load<B: crate::engine::BitSet>(
    dir: &Path,
    rules: &Rules<B>,
    m: &Material,
    len: u64,
) -> Result<Option<Vec<Packed>>, StoreError> {
    adopt_legacy(dir, rules, m, len)?;
    let p = path(dir, rules, m);
    // Exactly the header and two bytes a value: a file of any other size (or a pipe, a device)
    // is refused before it is read.
    let bytes = match crate::fsio::read_file(&p, crate::fsio::Kind::Table(file_bytes(len))) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(unusable(&p, &format!("cannot be read ({e})"))),
    };
    decode(&bytes, rules, m, len)
        .map(Some)
        .map_err(|why| unusable(&p, why))
}

/// The values of a table file's bytes, checked: its size, header and checksum.
pub fn decode<B: crate::engine::BitSet>(
    bytes: &[u8],
    rules: &Rules<B>,
    m: &Material,
    len: u64,
) -> Result<Vec<Packed>, &'static str> {
    decode_as(bytes, (rules_hash(rules), layout(rules)), m, len)
}

/// [`decode`] for the rules of `(hash, layout)`.
fn decode_as(
    bytes: &[u8],
    rules: (u64, u32),
    m: &Material,
    len: u64,
) -> Result<Vec<Packed>, &'static str> {
    if bytes.len() as u64 != file_bytes(len) {
        return Err("has the wrong size");
    }
    check_header(bytes, rules, m, len)?;
    let values: Vec<Packed> = bytes[HEADER..]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    if checksum(&values) != u64_at(bytes, 40) {
        return Err("is corrupted (checksum mismatch)");
    }
    Ok(values)
}

/// Whether a table file looks usable from its size and header alone (the checksum needs the whole
/// file and is checked when it is loaded): `Err(note)` when not.
pub fn check<B: crate::engine::BitSet>(
    dir: &Path,
    rules: &Rules<B>,
    m: &Material,
    len: u64,
) -> Result<(), StoreError> {
    adopt_legacy(dir, rules, m, len)?;
    let p = path(dir, rules, m);
    let header = crate::fsio::read_head(&p, crate::fsio::Kind::Table(file_bytes(len)), HEADER)
        .map_err(|e| unusable(&p, &format!("cannot be read ({e})")))?;
    check_header(&header, (rules_hash(rules), layout(rules)), m, len)
        .map_err(|why| unusable(&p, why))
}

fn file_bytes(len: u64) -> u64 {
    (HEADER as u64).saturating_add(len.saturating_mul(2))
}

/// Why a table file was not used (it is then rebuilt), or could not be written.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum StoreError {
    /// A file that cannot be trusted: unreadable, of other rules, damaged.
    #[error("table file `{}` {why}: not used, rebuilding it", path.display())]
    #[diagnostic(help("nothing to do: the table is built again and the file rewritten"))]
    Unusable { path: PathBuf, why: String },
    /// A table that could not be written to the cache.
    #[error("{0}")]
    #[diagnostic(help(
        "free some space in the cache folder, give another with `--cache DIR`, or `--no-cache`"
    ))]
    Unwritten(String),
}

impl StoreError {
    /// The note for a reader that does not rebuild (the search's tables): the file and why.
    pub fn unused(&self) -> String {
        match self {
            StoreError::Unusable { path, why } => {
                format!("table file `{}` {why}: not used", path.display())
            }
            StoreError::Unwritten(m) => m.clone(),
        }
    }
}

fn unusable(p: &Path, why: &str) -> StoreError {
    StoreError::Unusable {
        path: p.to_path_buf(),
        why: why.to_string(),
    }
}

fn u64_at(bytes: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]))
}

/// Whether a header is that of a table of the rules `(hash, layout)`, material `m` and `len`
/// values.
fn check_header(
    bytes: &[u8],
    (hash, layout): (u64, u32),
    m: &Material,
    len: u64,
) -> Result<(), &'static str> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("is not a damelab table");
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap_or([0; 4]));
    if u32_at(8) != FORMAT {
        return Err("has another format version");
    }
    match u32_at(12) {
        l if l == layout => {}
        COLUMNS => return Err("holds a table of columns (`take top`), not of single pieces"),
        PLACEMENTS => return Err("holds a table of single pieces, not of columns (`take top`)"),
        _ => return Err("has an unknown layout"),
    }
    if u64_at(bytes, 16) != hash || bytes[24..32] != material_bytes(m) {
        return Err("belongs to other rules or another material");
    }
    if u64_at(bytes, 32) != len {
        return Err("has the wrong size");
    }
    Ok(())
}

/// Write a table whole or not at all ([`crate::fsio::write_stream`]): a reader never sees half
/// a file, and a failed write leaves no temporary file behind.
pub fn save<B: crate::engine::BitSet>(
    dir: &Path,
    rules: &Rules<B>,
    t: &Table,
) -> Result<(), StoreError> {
    let p = path(dir, rules, &t.material);
    std::fs::create_dir_all(dir).map_err(|e| {
        StoreError::Unwritten(format!("cannot write the table to `{}`: {e}", p.display()))
    })?;
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT.to_le_bytes());
    header.extend_from_slice(&layout(rules).to_le_bytes());
    header.extend_from_slice(&rules_hash(rules).to_le_bytes());
    header.extend_from_slice(&material_bytes(&t.material));
    header.extend_from_slice(&(t.values.len() as u64).to_le_bytes());
    header.extend_from_slice(&checksum(&t.values).to_le_bytes());
    crate::fsio::write_stream(&p, |f| {
        f.write_all(&header)?;
        let mut bytes = Vec::with_capacity(8192);
        for chunk in t.values.chunks(4096) {
            bytes.clear();
            bytes.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
            f.write_all(&bytes)?;
        }
        Ok(())
    })
    .map_err(|e| StoreError::Unwritten(e.to_string()))
}
