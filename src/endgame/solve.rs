//! Retrograde analysis of one material, and the set of tables a root material needs.

use super::index::Indexer;
use super::material::Material;
use super::store;
use super::value::{self, Packed, Value};
use super::EndgameError;
use crate::engine::BitSet;
use crate::engine::{Position, Rules};
use crate::interrupt;
use crate::util::{human_bytes, human_seconds};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Positions per parallel work unit.
pub(super) const CHUNK: usize = 1 << 14;
/// Frontier positions unmoved per batch (bounds the memory of the predecessor lists).
pub(super) const BATCH: usize = 1 << 18;
/// The moves that keep the material a position of a table of columns is taken to have, on
/// average, in the memory estimate: more than the builds measured need (their peak memory, in
/// docs/endgames.md, stays below the estimate this gives).
const COLUMN_MOVES: u64 = 10;
/// The flag of an exit event that wins (the other events refute one move).
pub(super) const EVENT_WIN: u32 = 1 << 31;

/// One solved material.
pub struct Table {
    pub material: Material,
    pub index: Indexer,
    pub values: Vec<Packed>,
    /// How it was obtained: seconds spent building (0 when loaded) and whether it came from the cache.
    pub seconds: f64,
    pub loaded: bool,
}

/// Options of a build.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where tables are read and written; `None`: neither.
    pub cache: Option<PathBuf>,
    /// Refuse a build whose estimated memory exceeds this (bytes).
    pub max_memory: u64,
    /// Draw progress bars (only when stderr is a terminal).
    pub progress: bool,
    /// A second way to stop the build and to follow it (the web page's), besides Ctrl-C.
    pub watch: Option<Arc<Watch>>,
}

/// A build followed from elsewhere: a stop flag polled where Ctrl-C is, and the progress so far.
#[derive(Debug, Default)]
pub struct Watch {
    pub cancel: Arc<AtomicBool>,
    /// Positions done: those of the tables finished (built or loaded), plus the current table's
    /// positions whose moves have been generated.
    pub done: AtomicU64,
    /// The index (in [`Estimate::materials`]) of the table being worked on.
    pub table: AtomicUsize,
}

impl Watch {
    pub fn new(cancel: Arc<AtomicBool>) -> Watch {
        Watch {
            cancel,
            ..Watch::default()
        }
    }
}

/// Whether the build should stop: Ctrl-C, or the watcher's flag.
pub(super) fn stopping(watch: Option<&Watch>) -> bool {
    interrupt::requested() || watch.is_some_and(|w| w.cancel.load(Ordering::Relaxed))
}

/// Notes a build has for the user (a rebuilt cache file, a cache that cannot be written).
pub type Notes = Vec<String>;

/// Every table solved so far, by material.
pub struct Tables<'r, B: BitSet = crate::engine::geometry::Bits> {
    pub rules: &'r Rules<B>,
    pub tables: HashMap<Material, Table>,
    pub notes: Notes,
    /// Tables built but not written to the cache (a full disk, a folder that cannot be written).
    pub unsaved: usize,
    /// The angles each (side, kind) makes quiet moves in.
    pub(super) quiet_dirs: [[QuietDirs; crate::engine::rules::MAX_KINDS]; 2],
}

/// Angle masks of one piece's quiet moves: a step goes one square, a slide stops at the first
/// occupied square, a leap may pass occupied squares.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct QuietDirs {
    pub(super) steps: u8,
    pub(super) slides: u8,
    pub(super) leaps: u8,
}

/// Solved tables, owned: look-ups only.
pub struct Solved {
    pub tables: HashMap<Material, Table>,
}

impl Solved {
    /// The value of any position whose material is solved.
    pub fn value<W: BitSet>(&self, pos: &Position<W>) -> Option<Value> {
        let t = self.tables.get(&Material::of(pos))?;
        let mut p = *pos;
        p.runs = Default::default();
        Some(Value::unpack(t.values[t.index.encode(&p) as usize]))
    }
}

/// The estimate of a root's build: every table it needs, the positions, the bytes.
pub struct Estimate {
    pub materials: Vec<Material>,
    pub positions: u64,
    pub bytes: u64,
}

impl<'r> Tables<'r> {
    /// [`Tables::solve`] on the narrowest bit-set width the board fits (the same tables, built
    /// faster); the tables solved are kept here.
    pub fn solve_fast(
        &mut self,
        root: &Material,
        opts: &Options,
    ) -> Result<Estimate, EndgameError> {
        fn on<C: BitSet>(
            wide: &mut Tables<'_>,
            rules: &Rules<C>,
            root: &Material,
            opts: &Options,
        ) -> Result<Estimate, EndgameError> {
            let mut t = Tables::new(rules);
            t.tables = std::mem::take(&mut wide.tables);
            t.notes = std::mem::take(&mut wide.notes);
            let r = t.solve(root, opts);
            wide.tables = t.tables;
            wide.notes = t.notes;
            wide.unsaved += t.unsaved;
            r
        }
        let rules = self.rules;
        if let Some(n) = rules.narrow.as_deref() {
            on(self, n, root, opts)
        } else if let Some(m) = rules.mid.as_deref() {
            on(self, m, root, opts)
        } else {
            self.solve(root, opts)
        }
    }
}

impl<'r, B: BitSet> Tables<'r, B> {
    pub fn new(rules: &'r Rules<B>) -> Tables<'r, B> {
        let mut quiet_dirs = [[QuietDirs::default(); crate::engine::rules::MAX_KINDS]; 2];
        for (side, progs) in rules.programs.iter().enumerate() {
            for (kind, p) in progs.iter().enumerate() {
                let mut d = QuietDirs::default();
                for a in p.steps.iter() {
                    d.steps |= 1 << a;
                }
                for a in p.slides.iter() {
                    d.slides |= 1 << a;
                }
                for l in &p.leaps {
                    d.leaps |= 1 << l.dir;
                }
                quiet_dirs[side][kind] = d;
            }
        }
        Tables {
            rules,
            tables: HashMap::new(),
            notes: Vec::new(),
            unsaved: 0,
            quiet_dirs,
        }
    }

    /// The value of any position whose material is solved (in any width).
    pub fn value<W: BitSet>(&self, pos: &Position<W>) -> Option<Value> {
        let t = self.tables.get(&Material::of(pos))?;
        let mut p = *pos;
        p.runs = Default::default();
        Some(Value::unpack(t.values[t.index.encode(&p) as usize]))
    }

    /// Keep the solved tables on their own, without the borrow of the rules (for an engine's
    /// probe hook, which must be `Send + Sync + 'static`).
    pub fn into_solved(self) -> Solved {
        Solved {
            tables: self.tables,
        }
    }

    #[inline]
    pub(super) fn packed(&self, pos: &Position<B>) -> Packed {
        match self.tables.get(&Material::of(pos)) {
            Some(t) => t.values[t.index.encode(pos) as usize],
            None => value::DRAW,
        }
    }

    /// Every material a root can reach (a superset), in the order they must be solved, with the
    /// memory the whole build would take.
    pub fn estimate(&self, root: &Material) -> Result<Estimate, EndgameError> {
        if self.rules.combat.is_some() {
            return Err(EndgameError::Combat {
                variant: self.rules.spec.name.clone(),
            });
        }
        let rules = self.rules;
        if rules.huffing {
            return Err(EndgameError::Huffing {
                variant: rules.spec.name.clone(),
            });
        }
        if rules.stacks && root.total() as usize > super::columns::MAX_COLUMN_PIECES {
            return Err(EndgameError::Stacks {
                variant: rules.spec.name.clone(),
                material: root.name(rules),
                why: format!(
                    "it has {} pieces, and a table of columns indexes at most {}",
                    root.total(),
                    super::columns::MAX_COLUMN_PIECES
                ),
            });
        }
        let mut seen: HashSet<Material> = HashSet::new();
        let mut stack = vec![*root];
        seen.insert(*root);
        while let Some(m) = stack.pop() {
            for s in m.successors(rules) {
                if seen.insert(s) {
                    stack.push(s);
                }
            }
        }
        // Depth-first: successors before the material itself. A promotion cycle cannot be ordered.
        let mut order = Vec::new();
        let mut state: HashMap<Material, u8> = HashMap::new();
        fn visit<B: BitSet>(
            m: Material,
            rules: &Rules<B>,
            state: &mut HashMap<Material, u8>,
            order: &mut Vec<Material>,
        ) -> Result<(), EndgameError> {
            match state.get(&m) {
                Some(2) => return Ok(()),
                Some(1) => return Err(EndgameError::Cycle(m.name(rules))),
                _ => {}
            }
            state.insert(m, 1);
            for s in m.successors(rules) {
                visit(s, rules, state, order)?;
            }
            state.insert(m, 2);
            order.push(m);
            Ok(())
        }
        let squares = rules.geo.playable.count();
        if squares as usize > Indexer::MAX_SQUARES {
            return Err(EndgameError::BoardTooLarge {
                squares,
                max: Indexer::MAX_SQUARES as u32,
            });
        }
        visit(*root, rules, &mut state, &mut order)?;
        let mut positions = 0u64;
        let mut largest = 0u64;
        for m in &order {
            let n = match Indexer::new(rules, m) {
                Ok(ix) => ix.len(),
                Err(n) => {
                    return Err(EndgameError::TableTooLarge {
                        material: root.name(rules),
                        why: format!(
                            "they include `{}`, a table of {} positions, far more than any \
                             machine's memory",
                            m.name(rules),
                            crate::limits::thousands(n as u64)
                        ),
                    })
                }
            };
            positions = positions.saturating_add(n);
            largest = largest.max(n);
        }
        // Two bytes a value for every table kept; while the largest is built, a two-byte counter,
        // up to two four-byte exit events and a four-byte frontier entry a position, and the
        // predecessor lists of one batch.
        // A table of columns keeps its moves instead: eight bytes a move (position, child) while
        // pass 0 lists them, four a move and four a position once turned into predecessor lists.
        let graph = if rules.stacks {
            largest.saturating_mul(COLUMN_MOVES * 12 + 4)
        } else {
            largest.min(BATCH as u64) * 40 * 8
        };
        let bytes = positions
            .saturating_mul(2)
            .saturating_add(largest.saturating_mul(2 + 8 + 8))
            .saturating_add(graph);
        Ok(Estimate {
            materials: order,
            positions,
            bytes,
        })
    }

    /// Solve a root material and everything it reaches (loading what the cache has).
    pub fn solve(&mut self, root: &Material, opts: &Options) -> Result<Estimate, EndgameError> {
        let est = self.estimate(root)?;
        if est.materials.iter().any(|m| !self.tables.contains_key(m)) && est.bytes > opts.max_memory
        {
            return Err(EndgameError::TooLarge {
                material: root.name(self.rules),
                positions: crate::limits::thousands(est.positions),
                bytes: human_bytes(est.bytes),
                max: human_bytes(opts.max_memory),
            });
        }
        if est
            .materials
            .iter()
            .map(|m| self.len_of(m))
            .max()
            .unwrap_or(0)
            >= EVENT_WIN as u64
        {
            return Err(EndgameError::TableTooLarge {
                material: root.name(self.rules),
                why: format!(
                    "a table holds at most {} positions and the largest of them would have {}",
                    crate::limits::thousands(EVENT_WIN as u64),
                    crate::limits::thousands(
                        est.materials
                            .iter()
                            .map(|m| self.len_of(m))
                            .max()
                            .unwrap_or(0)
                    )
                ),
            });
        }
        // For the progress bar: which table of how many, and the time left at the rate so far.
        let sizes: Vec<u64> = if opts.progress {
            est.materials.iter().map(|m| self.len_of(m)).collect()
        } else {
            Vec::new()
        };
        let (mut built_positions, mut built_seconds) = (0u64, 0.0f64);
        let watch = opts.watch.as_deref();
        let mut finished = 0u64;
        for (k, m) in est.materials.iter().enumerate() {
            if let Some(w) = watch {
                w.table.store(k, Ordering::Relaxed);
                w.done.store(finished, Ordering::Relaxed);
            }
            finished += self.len_of(m);
            if stopping(watch) {
                return Err(EndgameError::Interrupted);
            }
            if self.tables.contains_key(m) {
                continue;
            }
            let index = Indexer::new(self.rules, m).map_err(|_| EndgameError::Internal)?;
            if let Some(dir) = &opts.cache {
                match store::load(dir, self.rules, m, index.len()) {
                    Ok(Some(values)) => {
                        self.tables.insert(
                            *m,
                            Table {
                                material: *m,
                                index,
                                values,
                                seconds: 0.0,
                                loaded: true,
                            },
                        );
                        continue;
                    }
                    Ok(None) => {}
                    Err(note) => self.notes.push(note.to_string()),
                }
            }
            let place = opts.progress.then(|| {
                let left: u64 = sizes[k..].iter().sum();
                let eta = if built_positions > 0 && built_seconds > 0.0 {
                    let secs = left as f64 * built_seconds / built_positions as f64;
                    format!("about {} left", human_seconds(secs))
                } else {
                    "time left: estimated after this table".to_string()
                };
                format!("table {} of {} ({eta})", k + 1, est.materials.len())
            });
            let t = Instant::now();
            let values = self.build(m, &index, place, watch)?;
            built_positions += index.len();
            built_seconds += t.elapsed().as_secs_f64();
            let table = Table {
                material: *m,
                index,
                values,
                seconds: t.elapsed().as_secs_f64(),
                loaded: false,
            };
            if let Some(dir) = &opts.cache {
                if let Err(note) = store::save(dir, self.rules, &table) {
                    self.notes.push(note.to_string());
                    self.unsaved += 1;
                }
            }
            self.tables.insert(*m, table);
        }
        if let Some(w) = watch {
            w.done.store(finished, Ordering::Relaxed);
        }
        Ok(est)
    }

    fn len_of(&self, m: &Material) -> u64 {
        Indexer::new(self.rules, m).map_or(u64::MAX, |ix| ix.len())
    }
}
