//! Endgame tables in the search: the tables of a variant found in a directory (the files
//! `damelab endgame` writes, see [`crate::endgame::store`]) as the search's oracle
//! ([`super::Probe`]). A node whose material has a table gets its exact value (win or loss in so
//! many plies, or draw) instead of being searched.
//!
//! The directory is read once for the names of its table files; a table is loaded, and its checksum
//! verified, the first time a position of its material is probed. A file whose size or header is
//! wrong is left out when the directory is opened, and one whose checksum fails when it is loaded:
//! its positions are searched as usual, and [`EndgameTables::notes`] says which files were left
//! out and why.

use super::{Probe, Score, MAX_PLY, MAX_WIN_DISTANCE, WIN};
use crate::endgame::index::Indexer;
use crate::endgame::material::Material;
use crate::endgame::store;
use crate::endgame::value::{Packed, Value};
use crate::engine::{BitSet, Position, Rules};
use miette::{miette, Report};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A table read from its file: the index of its positions and their values.
type Loaded = (Indexer, Vec<Packed>);

/// The tables of one variant in one directory.
pub struct EndgameTables {
    rules: Arc<Rules>,
    dir: PathBuf,
    /// Per material with a file: its index and values, once loaded (`None`: unusable).
    tables: HashMap<Material, OnceLock<Option<Loaded>>>,
    /// The most pieces of any material with a file: positions with more are not looked up.
    max_pieces: u32,
    /// The files left out, and why.
    notes: std::sync::Mutex<Vec<String>>,
}

/// What a tables directory holds for one variant ([`EndgameTables::open`]).
struct Found {
    tables: HashMap<Material, OnceLock<Option<Loaded>>>,
    max_pieces: u32,
    /// The files of these rules left out, and why.
    notes: Vec<String>,
    /// Table files of other rules.
    others: usize,
}

impl Found {
    fn into_tables(self, rules: &Arc<Rules>, dir: &Path) -> EndgameTables {
        EndgameTables {
            rules: rules.clone(),
            dir: dir.to_path_buf(),
            tables: self.tables,
            max_pieces: self.max_pieces,
            notes: std::sync::Mutex::new(self.notes),
        }
    }

    /// Why a directory without a usable table of `rules` is refused.
    fn refusal(&self, rules: &Arc<Rules>, dir: &Path) -> Report {
        let variant = &rules.spec.name;
        let shown = dir.display();
        if !self.notes.is_empty() {
            miette!(
                help = format!(
                    "rebuild them with `damelab endgame {variant} MATERIAL --cache {shown}`"
                ),
                "no usable endgame table in `{shown}`: {}",
                self.notes.join("; ")
            )
        } else if self.others > 0 {
            miette!(
                help =
                    format!("build them with `damelab endgame {variant} MATERIAL --cache {shown}`"),
                "`{shown}` holds {} endgame table file(s), but none of {variant}: they belong to \
                 other rules",
                self.others
            )
        } else {
            miette!(
                help =
                    format!("build them with `damelab endgame {variant} MATERIAL --cache {shown}`"),
                "`{shown}` holds no endgame tables of {variant}"
            )
        }
    }
}

impl EndgameTables {
    /// The tables of `rules` in `dir`. An error when the directory cannot be read or holds no
    /// table of these rules (saying so when it holds tables of other rules).
    pub fn open(rules: &Arc<Rules>, dir: &Path) -> Result<EndgameTables, Report> {
        let found = Self::scan(rules, dir)?;
        if found.tables.is_empty() {
            return Err(found.refusal(rules, dir));
        }
        Ok(found.into_tables(rules, dir))
    }

    /// The tables an engine plays with by default: those of `rules` in the cache directory
    /// `damelab endgame` writes ([`store::default_dir`]). `Ok(None)` when there is no cache or it
    /// holds no table of these rules (nothing is built during play: `damelab endgame` builds
    /// them); an error when every table of these rules there is damaged (a wrong size or header),
    /// naming the files and the command that rebuilds them. Damaged files beside usable ones are
    /// left out, each with a note ([`EndgameTables::notes`]).
    pub fn in_cache(rules: &Arc<Rules>) -> Result<Option<EndgameTables>, Report> {
        let Some(dir) = store::default_dir() else {
            return Ok(None);
        };
        if !dir.is_dir() {
            return Ok(None);
        }
        let found = Self::scan(rules, &dir)?;
        if found.tables.is_empty() {
            return if found.notes.is_empty() {
                Ok(None)
            } else {
                Err(found.refusal(rules, &dir))
            };
        }
        Ok(Some(found.into_tables(rules, &dir)))
    }

    /// The table files of `rules` in `dir`, each checked (size and header).
    fn scan(rules: &Arc<Rules>, dir: &Path) -> Result<Found, Report> {
        let entries = std::fs::read_dir(dir).map_err(|e| {
            miette!(
                help = "give the directory `damelab endgame` writes its tables to (its --cache)",
                "cannot read the tables directory `{}`: {e}",
                dir.display()
            )
        })?;
        let prefixes = store::prefixes(rules.as_ref());
        let mut tables = HashMap::new();
        let mut others = 0;
        let mut max_pieces = 0;
        let mut notes = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            let Some(stem) = name.strip_suffix(".dlt") else {
                continue;
            };
            match prefixes.iter().find_map(|p| stem.strip_prefix(p.as_str())) {
                Some(key) => {
                    if let Some(m) = Material::from_key(key, rules.kinds) {
                        // A file of the wrong size or header is not counted as a table.
                        let len = Indexer::new(rules.as_ref(), &m).map(|ix| ix.len());
                        let checked = match len {
                            Ok(len) => {
                                store::check(dir, rules.as_ref(), &m, len).map_err(|e| e.unused())
                            }
                            Err(_) => Err(format!("`{name}` is for a material too large to index")),
                        };
                        match checked {
                            Ok(()) => {
                                max_pieces = max_pieces.max(m.total());
                                tables.insert(m, OnceLock::new());
                            }
                            Err(note) => notes.push(note),
                        }
                    }
                }
                None => others += 1,
            }
        }
        Ok(Found {
            tables,
            max_pieces,
            notes,
            others,
        })
    }

    /// The table files left out so far (a wrong size or header found when opening, a checksum
    /// that failed when loading), one note each.
    pub fn notes(&self) -> Vec<String> {
        self.notes.lock().map(|n| n.clone()).unwrap_or_default()
    }

    /// The tables of `rules` in the cache directory `damelab endgame` uses by default, if any.
    pub fn from_cache(rules: &Arc<Rules>) -> Option<EndgameTables> {
        Self::open(rules, &store::default_dir()?).ok()
    }

    /// Number of materials with a table file.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The names of the materials with a table file, sorted, comma-separated (`KK v K, K v K`).
    pub fn materials(&self) -> String {
        let mut names: Vec<String> = self
            .tables
            .keys()
            .map(|m| m.name(self.rules.as_ref()))
            .collect();
        names.sort();
        names.join(", ")
    }

    /// The table value of `pos` for the side to move, if its material has a usable table.
    pub fn value<B: BitSet>(&self, pos: &Position<B>) -> Option<Value> {
        if pos.occupied().count() > self.max_pieces {
            return None;
        }
        // The tables index the board alone: a position with pieces still to place is not theirs.
        if pos.hand.iter().flatten().any(|&n| n > 0) {
            return None;
        }
        let m = Material::of(pos);
        let slot = self.tables.get(&m)?;
        let (index, values) = slot
            .get_or_init(|| {
                let index = Indexer::new(self.rules.as_ref(), &m).ok()?;
                match store::load(&self.dir, self.rules.as_ref(), &m, index.len()) {
                    Ok(Some(values)) => Some((index, values)),
                    Ok(None) => None,
                    Err(note) => {
                        if let Ok(mut n) = self.notes.lock() {
                            n.push(note.unused());
                        }
                        None
                    }
                }
            })
            .as_ref()?;
        let mut p = *pos;
        p.runs = Default::default();
        Some(Value::unpack(*values.get(index.encode(&p) as usize)?))
    }

    /// The score of `pos` for the side to move, counted from `pos` (a win in `d` plies scores
    /// `WIN - d`), as [`super::Searcher::set_probe`] wants it.
    pub fn score<B: BitSet>(&self, pos: &Position<B>) -> Option<Score> {
        // A longer win than a score can say is said as the longest (the search path adds up to
        // MAX_PLY plies to it).
        let far = |d: u16| (d as Score).min(MAX_WIN_DISTANCE - MAX_PLY as Score);
        match self.value(pos)? {
            Value::Draw => Some(0),
            Value::Illegal => None,
            Value::Win(d) => Some(WIN - far(d)),
            Value::Loss(d) => Some(-(WIN - far(d))),
        }
    }

    /// The tables as the search's oracle.
    pub fn probe(self: &Arc<Self>) -> Probe {
        let t = self.clone();
        Arc::new(move |pos: &Position| t.score(pos))
    }
}
