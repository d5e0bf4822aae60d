//! Table files in the cache directory.
//!
//! One file a material: `<rules hash>-<material key>.dlt`. A 48-byte header (magic, format version,
//! rules hash, material, number of values, checksum of the values) precedes the values, two bytes
//! each, little-endian. A file whose header or checksum does not match is never used: the table
//! is rebuilt and the file rewritten.

use super::material::Material;
use super::solve::Table;
use super::value::Packed;
use crate::engine::Rules;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DLENDGM\x1a";
/// Bump when the index or the value encoding changes.
pub const FORMAT: u32 = 1;
const HEADER: usize = 48;

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

const FNV_START: u64 = 0xcbf29ce484222325;

/// A hash of the compiled rules: tables of different rules never share a file.
pub fn rules_hash<B: crate::engine::BitSet>(rules: &Rules<B>) -> u64 {
    let text = format!("{:?}|{}", rules.spec, FORMAT);
    fnv(text.as_bytes(), FNV_START)
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
    dir.join(format!("{:016x}-{}.dlt", rules_hash(rules), m.key()))
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
    let mut h = FNV_START;
    for chunk in values.chunks(4096) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
        h = fnv(&bytes, h);
    }
    h
}

/// The values of a cached table: `Ok(None)` when there is no file, `Err(note)` when there is one
/// that cannot be trusted (it will be rebuilt).
pub fn load<B: crate::engine::BitSet>(
    dir: &Path,
    rules: &Rules<B>,
    m: &Material,
    len: u64,
) -> Result<Option<Vec<Packed>>, String> {
    let p = path(dir, rules, m);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read `{}`: {e}; rebuilding", p.display())),
    };
    let bad = |why: &str| {
        Err(format!(
            "table file `{}` {why}: not used, rebuilding it",
            p.display()
        ))
    };
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return bad("is not a damelab table");
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]));
    if u32_at(8) != FORMAT {
        return bad("has another format version");
    }
    if u64_at(16) != rules_hash(rules) || bytes[24..32] != material_bytes(m) {
        return bad("belongs to other rules or another material");
    }
    if u64_at(32) != len || (bytes.len() - HEADER) as u64 != len * 2 {
        return bad("has the wrong size");
    }
    let values: Vec<Packed> = bytes[HEADER..]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    if checksum(&values) != u64_at(40) {
        return bad("is corrupted (checksum mismatch)");
    }
    Ok(Some(values))
}

/// Write a table (to a temporary name, then renamed, so a reader never sees half a file).
pub fn save<B: crate::engine::BitSet>(
    dir: &Path,
    rules: &Rules<B>,
    t: &Table,
) -> Result<(), String> {
    let p = path(dir, rules, &t.material);
    let fail = |e: std::io::Error| format!("cannot write the table to `{}`: {e}", p.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    let tmp = p.with_extension(format!("tmp{}", std::process::id()));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp).map_err(fail)?);
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT.to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    header.extend_from_slice(&rules_hash(rules).to_le_bytes());
    header.extend_from_slice(&material_bytes(&t.material));
    header.extend_from_slice(&(t.values.len() as u64).to_le_bytes());
    header.extend_from_slice(&checksum(&t.values).to_le_bytes());
    f.write_all(&header).map_err(fail)?;
    for chunk in t.values.chunks(4096) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
        f.write_all(&bytes).map_err(fail)?;
    }
    f.flush().map_err(fail)?;
    drop(f);
    std::fs::rename(&tmp, &p).map_err(fail)
}
