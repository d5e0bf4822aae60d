//! The retrograde build of one material: pass 0 over every position (its moves, the positions
//! decided at once, the events of moves that leave the material), then level after level back
//! from the resolved positions until nothing changes.

use super::index::Indexer;
use super::material::Material;
use super::solve::{stopping, Tables, Watch, BATCH, CHUNK, EVENT_WIN};
use super::value::Value;
use super::value::{self, Packed};
use super::EndgameError;
use crate::engine::geometry::{Sq, NONE};
use crate::engine::BitSet;
use crate::engine::{GenOptions, Move};
use crate::progress::Bar;
use rayon::prelude::*;
use std::sync::atomic::Ordering;

impl<'r, B: BitSet> Tables<'r, B> {
    /// Retrograde analysis of one material; every material it reaches must be solved already.
    pub(super) fn build(
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
        // A game over at once: its value at level 0 for the side to move.
        let mut over = |winner: Option<usize>| {
            *val = match winner {
                Some(w) if w == me => value::win(0),
                Some(_) => value::loss(0),
                None => value::DRAW,
            };
            if *val != value::DRAW {
                out.level0.push(i as u32);
            }
        };
        if let Some(o) = rules.material_outcome(&pos) {
            over(o.winner);
            return;
        }
        rules.generate(&pos, buf, GenOptions::default());
        if buf.is_empty() {
            if let Some(o) = rules.outcome(&pos, 0) {
                over(o.winner);
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
