//! The retrograde passes of a table of columns (`take top`), over its explicit move graph.
//!
//! Under `take top` a capture keeps the material (the taken top goes under the capturer), so most
//! of a table's moves are captures inside it, and taking one back means rebuilding the jumped
//! columns and the prisoners in their order. Instead of un-making moves, pass 0 (the same forward
//! pass as every table's, [`super::solve`]) keeps each move that stays in the material as an edge
//! (position, child); the edges are turned around into each position's list of predecessors, one
//! entry a move. The levels then run as for any table: a predecessor of a position lost at `n-1`
//! is won at `n`; a predecessor of one won at `n-1` has one move fewer left to refute, and is lost
//! at `n` when none is left; exits (promotions into the tables solved first) enter at the level
//! their distance decides. Positions never resolved are draws. The result is exact, as the
//! retrograde analysis of placements is: the same counts, the same levels, only the predecessors
//! read from a list instead of made by un-moving.

use super::build::Level;
use super::solve::{stopping, Watch, EVENT_WIN};
use super::value::{self, Packed, Value};
use super::EndgameError;
use crate::progress::Bar;

/// What pass 0 found: the positions decided at level 0, the events of each level (a position,
/// with [`EVENT_WIN`] when the exit wins), the moves that keep the material (chunk after chunk).
pub(super) struct Level0 {
    pub frontier: Vec<u32>,
    pub events: Vec<Vec<u32>>,
    pub edges: Vec<Vec<(u32, u32)>>,
}

/// A build of a table of columns: how it is followed and stopped.
pub(super) struct Graph<'a> {
    pub watch: Option<&'a Watch>,
    pub bar: &'a Bar,
    pub place: &'a str,
    pub name: &'a str,
}

/// Each position's predecessors, one entry a move: `list[start[q]..start[q + 1]]`.
struct Predecessors {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Predecessors {
    /// The edges (position, child) turned around; `None` when they are more than a `u32` counts.
    fn of(n: usize, edges: Vec<Vec<(u32, u32)>>) -> Option<Predecessors> {
        let total: usize = edges.iter().map(Vec::len).sum();
        if total >= u32::MAX as usize {
            return None;
        }
        let mut start = vec![0u32; n + 1];
        for &(_, c) in edges.iter().flatten() {
            start[c as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut list = vec![0u32; total];
        // Each child's slots are filled from their end down (`fill[c]` starts at `start[c + 1]`
        // and ends at `start[c]`); each chunk of edges is dropped once read.
        let mut fill: Vec<u32> = start[1..].to_vec();
        for chunk in edges {
            for (p, c) in chunk {
                let at = &mut fill[c as usize];
                *at -= 1;
                list[*at as usize] = p;
            }
        }
        Some(Predecessors { start, list })
    }

    fn of_position(&self, q: usize) -> &[u32] {
        &self.list[self.start[q] as usize..self.start[q + 1] as usize]
    }
}

impl Graph<'_> {
    /// The levels of a table of columns, from what pass 0 found; `values` and `counters` as pass
    /// 0 left them.
    pub fn settle(
        &self,
        first: Level0,
        values: &mut [Packed],
        counters: &mut [u16],
    ) -> Result<(), EndgameError> {
        let n = values.len();
        let Level0 {
            mut frontier,
            mut events,
            edges,
        } = first;
        let preds = Predecessors::of(n, edges).ok_or_else(|| EndgameError::TableTooLarge {
            material: self.name.to_string(),
            why: "its moves are more than a table of columns can list".into(),
        })?;
        let mut level: usize = 1;
        self.bar.set_length(n as u64);
        self.bar.set_position(0);
        let mut resolved = frontier.len() as u64;
        while !frontier.is_empty() || level < events.len() {
            if level > value::MAX_DISTANCE as usize {
                return Err(EndgameError::TooDeep(self.name.to_string()));
            }
            if stopping(self.watch) {
                return Err(EndgameError::Interrupted);
            }
            self.bar
                .set_message(format!("{} {}: depth {level}", self.place, self.name));
            let d = level as u16;
            let mut next: Vec<u32> = Vec::new();
            for &q in &frontier {
                let lost = matches!(Value::unpack(values[q as usize]), Value::Loss(_));
                for &p in preds.of_position(q as usize) {
                    let at = Level { d, next: &mut next };
                    at.settle(values, counters, p as usize, 1, lost);
                }
            }
            if let Some(list) = events.get_mut(level) {
                for e in std::mem::take(list) {
                    let at = Level { d, next: &mut next };
                    let (p, win) = ((e & !EVENT_WIN) as usize, e & EVENT_WIN != 0);
                    at.settle(values, counters, p, 1, win);
                }
            }
            resolved += next.len() as u64;
            self.bar.set_position(resolved.min(n as u64));
            frontier = next;
            level += 1;
        }
        Ok(())
    }
}
