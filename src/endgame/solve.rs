//! Retrograde analysis of one material, and the set of tables a root material needs.

use super::index::Indexer;
use super::material::Material;
use super::store;
use super::value::{self, Packed, Value};
use super::EndgameError;
use crate::engine::geometry::{Sq, NONE};
use crate::engine::BitSet;
use crate::engine::{GenOptions, Move, Position, Rules};
use crate::interrupt;
use crate::progress::Bar;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Positions per parallel work unit.
const CHUNK: usize = 1 << 14;
/// Frontier positions unmoved per batch (bounds the memory of the predecessor lists).
const BATCH: usize = 1 << 18;
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
    quiet_dirs: [[QuietDirs; crate::engine::rules::MAX_KINDS]; 2],
}

/// Angle masks of one piece's quiet moves: a step goes one square, a slide stops at the first
/// occupied square, a leap may pass occupied squares.
#[derive(Clone, Copy, Debug, Default)]
struct QuietDirs {
    steps: u8,
    slides: u8,
    leaps: u8,
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
    fn packed(&self, pos: &Position<B>) -> Packed {
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

    /// Retrograde analysis of one material; every material it reaches must be solved already.
    fn build(
        &self,
        material: &Material,
        index: &Indexer,
        progress: Option<String>,
        watch: Option<&Watch>,
    ) -> Result<Vec<Packed>, EndgameError> {
        let n = index.len() as usize;
        let name = material.name(self.rules);
        let (bar, place) = progress_bar(progress, n as u64, &name);
        let mut values = vec![value::DRAW; n];
        let mut counters = vec![0u16; n];
        let first = self.first_pass(material, index, watch, &bar, &mut values, &mut counters)?;
        if index.is_columns() {
            let level = super::graph::Level0 {
                frontier: first.frontier,
                events: first.events,
                edges: first.edges,
            };
            let (place, name) = (place.as_str(), name.as_str());
            let graph = super::graph::Graph {
                watch,
                bar: &bar,
                place,
                name,
            };
            graph.settle(level, &mut values, &mut counters)?;
            bar.finish();
            return Ok(values);
        }
        let (mut frontier, mut events) = (first.frontier, first.events);

        // Level by level: positions resolved at level n-1 give their predecessors (unmoved, then
        // checked by the forward generator) a win at n (from a loss) or one move fewer to refute (from
        // a win); a position whose every move is refuted is lost at n.
        let mut level: usize = 1;
        bar.set_length(n as u64);
        bar.set_position(0);
        let mut resolved = frontier.len() as u64;
        while !frontier.is_empty() || level < events.len() {
            if level > value::MAX_DISTANCE as usize {
                bar.finish();
                return Err(EndgameError::TooDeep(name));
            }
            bar.set_message(format!("{place} {name}: depth {level}"));
            let d = level as u16;
            let mut next: Vec<u32> = Vec::new();
            for batch in frontier.chunks(BATCH) {
                let preds: Vec<Vec<(u32, u16, bool)>> = batch
                    .par_chunks(1024)
                    .map(|qs| {
                        let mut out = Vec::new();
                        if stopping(watch) {
                            return out;
                        }
                        let mut buf: Vec<Move<B>> = Vec::with_capacity(128);
                        for &q in qs {
                            self.unmove(index, &values, q, &mut buf, &mut out);
                        }
                        out
                    })
                    .collect();
                if stopping(watch) {
                    bar.finish();
                    return Err(EndgameError::Interrupted);
                }
                for (p, mult, win) in preds.into_iter().flatten() {
                    let at = Level { d, next: &mut next };
                    at.settle(&mut values, &mut counters, p as usize, mult, win);
                }
            }
            if let Some(list) = events.get_mut(level) {
                for e in std::mem::take(list) {
                    let at = Level { d, next: &mut next };
                    let (p, win) = ((e & !EVENT_WIN) as usize, e & EVENT_WIN != 0);
                    at.settle(&mut values, &mut counters, p, 1, win);
                }
            }
            resolved += next.len() as u64;
            bar.set_position(resolved.min(n as u64));
            frontier = next;
            level += 1;
        }
        bar.finish();
        Ok(values)
    }

    /// Pass 0: every position's moves, forward. Moves that keep the material are counted (the
    /// retrograde passes count them down); moves that leave it are looked up in the solved tables
    /// and turned into events at the level their distance decides. Gives the positions decided at
    /// level 0 and the events of each level.
    fn first_pass(
        &self,
        material: &Material,
        index: &Indexer,
        watch: Option<&Watch>,
        bar: &Bar,
        values: &mut [Packed],
        counters: &mut [u16],
    ) -> Result<FirstPass, EndgameError> {
        let graph = index.is_columns();
        let inits: Vec<InitChunk> = values
            .par_chunks_mut(CHUNK)
            .zip(counters.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(ci, (vals, cnts))| {
                let mut out = InitChunk::default();
                if stopping(watch) {
                    return out;
                }
                let mut buf: Vec<Move<B>> = Vec::with_capacity(128);
                for (j, (val, cnt)) in vals.iter_mut().zip(cnts.iter_mut()).enumerate() {
                    let i = ci * CHUNK + j;
                    let edges = graph.then_some(&mut out.edges);
                    self.first_look(
                        material,
                        index,
                        i,
                        &mut buf,
                        (val, cnt),
                        &mut out.init,
                        edges,
                    );
                }
                bar.inc(CHUNK as u64);
                if let Some(w) = watch {
                    w.done.fetch_add(vals.len() as u64, Ordering::Relaxed);
                }
                out
            })
            .collect();
        if stopping(watch) {
            bar.finish();
            return Err(EndgameError::Interrupted);
        }
        let mut frontier: Vec<u32> = Vec::new();
        let mut events: Vec<Vec<u32>> = Vec::new();
        let mut edges = Vec::new();
        for InitChunk { init, edges: e } in inits {
            if !e.is_empty() {
                edges.push(e);
            }
            if init.overflow {
                return Err(EndgameError::Internal);
            }
            frontier.extend(init.level0);
            for (level, e) in init.events {
                let l = level as usize;
                if events.len() <= l {
                    events.resize_with(l + 1, Vec::new);
                }
                events[l].push(e);
            }
        }
        Ok(FirstPass {
            frontier,
            events,
            edges,
        })
    }

    /// Pass 0 for position `i`: its value when the game is over there (`val`, and `out.level0`
    /// when decided), else the count of its moves to refute (`cnt`) and the events of its moves
    /// that leave the material (in `out`); with `edges`, each move that keeps the material as
    /// (position, child) too.
    #[allow(clippy::too_many_arguments)]
    fn first_look(
        &self,
        material: &Material,
        index: &Indexer,
        i: usize,
        buf: &mut Vec<Move<B>>,
        (val, cnt): (&mut Packed, &mut u16),
        out: &mut Init,
        mut edges: Option<&mut Vec<(u32, u32)>>,
    ) {
        let rules = self.rules;
        let Some(pos) = index.decode(i as u64) else {
            *val = value::ILLEGAL;
            return;
        };
        let me = pos.turn();
        if let Some(o) = rules.material_outcome(&pos) {
            *val = match o.winner {
                Some(w) if w == me => value::win(0),
                Some(_) => value::loss(0),
                None => value::DRAW,
            };
            if *val != value::DRAW {
                out.level0.push(i as u32);
            }
            return;
        }
        rules.generate(&pos, buf, GenOptions::default());
        if buf.is_empty() {
            if let Some(o) = rules.outcome(&pos, 0) {
                *val = match o.winner {
                    Some(w) if w == me => value::win(0),
                    Some(_) => value::loss(0),
                    None => value::DRAW,
                };
                if *val != value::DRAW {
                    out.level0.push(i as u32);
                }
            }
            return;
        }
        let mut internal = 0u32;
        let mut best_win = u16::MAX;
        let mut max_loss = 0u16;
        let mut losing_exits = false;
        let mut drawn_exit = false;
        for mv in buf.iter() {
            let mut child = pos.play(mv);
            child.runs = Default::default();
            if Material::of(&child) == *material {
                internal += 1;
                if let Some(e) = edges.as_deref_mut() {
                    e.push((i as u32, index.encode(&child) as u32));
                }
                continue;
            }
            match Value::unpack(self.packed(&child)) {
                Value::Loss(d) => best_win = best_win.min(d.saturating_add(1)),
                Value::Win(d) => {
                    losing_exits = true;
                    max_loss = max_loss.max(d.saturating_add(1));
                }
                Value::Draw | Value::Illegal => drawn_exit = true,
            }
        }
        // An exit that draws or wins can never be refuted: one count that never comes down. The
        // exits that lose are refuted together at the level of the slowest.
        let unrefutable = drawn_exit || best_win != u16::MAX;
        let count = internal + losing_exits as u32 + unrefutable as u32;
        if count > u16::MAX as u32 {
            out.overflow = true;
        }
        *cnt = count as u16;
        if best_win != u16::MAX {
            out.events.push((best_win, i as u32 | EVENT_WIN));
        }
        if losing_exits {
            out.events.push((max_loss, i as u32));
        }
    }

    /// The unresolved predecessors of position `q` by a quiet move that keeps the material: each
    /// piece of the side that just moved is taken back along the directions it moves in, and the
    /// forward generator must confirm the move (which also honours compulsory capture and the
    /// material rules). Pushes (predecessor, number of such moves, whether `q` is lost).
    fn unmove(
        &self,
        index: &Indexer,
        values: &[Packed],
        q: u32,
        buf: &mut Vec<Move<B>>,
        out: &mut Vec<(u32, u16, bool)>,
    ) {
        let rules = self.rules;
        let Some(pos) = index.decode::<B>(q as u64) else {
            return;
        };
        let q_lost = matches!(Value::unpack(values[q as usize]), Value::Loss(_));
        let mover = 1 - pos.turn();
        let occupied = pos.occupied();
        let mut pieces = pos.sides[mover];
        while pieces.any() {
            let t = pieces.lowest();
            pieces = pieces.without_lowest();
            let kind = pos.kind_at(t);
            let dirs = self.quiet_dirs[mover][kind];
            for a in 0..8u8 {
                let m = 1u8 << a;
                if (dirs.steps | dirs.slides | dirs.leaps) & m == 0 {
                    continue;
                }
                // Back along the line: a step comes from the next square only, a slide from the
                // empty squares before the first piece; a leap may come from beyond pieces.
                let (leap, slide) = (dirs.leaps & m != 0, dirs.slides & m != 0);
                let line = &rules.geo.next[((a + 4) % 8) as usize];
                let mut next = line[t as usize];
                let mut first = true;
                while next != NONE {
                    let f = next as Sq;
                    if occupied.has(f) && !leap {
                        break;
                    }
                    if !first && !leap && !slide {
                        break;
                    }
                    first = false;
                    if !occupied.has(f) {
                        let mut p = pos;
                        let (from, to) = (B::bit(f), B::bit(t));
                        p.sides[mover] = (p.sides[mover] & !to) | from;
                        p.kinds[kind] = (p.kinds[kind] & !to) | from;
                        p.turn = mover as u8;
                        let pi = index.encode(&p);
                        if values[pi as usize] == value::DRAW {
                            rules.generate(&p, buf, GenOptions::default());
                            let mult = buf
                                .iter()
                                .filter(|m| {
                                    m.from == f
                                        && m.to == t
                                        && m.captured.none()
                                        && m.kind_before as usize == kind
                                        && m.kind_after as usize == kind
                                })
                                .count();
                            if mult > 0 {
                                out.push((pi as u32, mult as u16, q_lost));
                            }
                        }
                    }
                    next = line[f as usize];
                }
            }
        }
    }
}

/// A bar for one table: `place` says which table of how many and the time left in all (none: no
/// bar); its message the table's pass (its moves, then each depth).
/// The build's bar: `place` (which table of how many) before the material's name, or no bar.
fn progress_bar(place: Option<String>, len: u64, name: &str) -> (Bar, String) {
    match place {
        Some(place) => (Bar::new(len, &format!("{place} {name}: moves")), place),
        None => (Bar::hidden(), String::new()),
    }
}

/// What pass 0 ([`Tables::first_pass`]) found in a chunk of positions: those decided at level 0,
/// the events (a level, and a position with [`EVENT_WIN`] when it wins there) of the moves that
/// leave the material, and whether a count overflowed.
#[derive(Default)]
struct Init {
    level0: Vec<u32>,
    events: Vec<(u16, u32)>,
    overflow: bool,
}

/// What pass 0 found in a chunk, with the moves that keep the material as (position, child)
/// for a table of columns (which takes them back from this list).
#[derive(Default)]
struct InitChunk {
    init: Init,
    edges: Vec<(u32, u32)>,
}

/// What pass 0 found in the whole table: the positions decided at level 0, the events of each
/// level and, for a table of columns, the moves that keep the material, chunk after chunk.
struct FirstPass {
    frontier: Vec<u32>,
    events: Vec<Vec<u32>>,
    edges: Vec<Vec<(u32, u32)>>,
}

/// A level of the retrograde passes: its distance and the positions resolved at it.
pub(super) struct Level<'a> {
    pub(super) d: u16,
    pub(super) next: &'a mut Vec<u32>,
}

impl Level<'_> {
    /// An unresolved position `p` reached back from one resolved a level below: won at this
    /// level (`win`, from a loss), or `refuted` more of its moves refuted — lost at this level
    /// when none is left.
    #[inline]
    pub(super) fn settle(
        self,
        values: &mut [Packed],
        counters: &mut [u16],
        p: usize,
        refuted: u16,
        win: bool,
    ) {
        if values[p] != value::DRAW {
            return;
        }
        if win {
            values[p] = value::win(self.d);
            self.next.push(p as u32);
        } else {
            counters[p] = counters[p].saturating_sub(refuted);
            if counters[p] == 0 {
                values[p] = value::loss(self.d);
                self.next.push(p as u32);
            }
        }
    }
}

/// `45 s`, `3 min 20 s`, `2 h 5 min`.
pub fn human_seconds(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// `1.2 GiB`, `340 MiB`.
pub fn human_bytes(b: u64) -> String {
    let mib = b as f64 / (1024.0 * 1024.0);
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}
