//! Captures by approach and withdrawal (`capture approach …`, `capture withdrawal …`; Fanorona).
//! HOT PATH for those variants: no allocation per node.
//!
//! A capturing step goes one square along a line to an empty square. By approach it takes the
//! enemy piece on the next square beyond, by withdrawal the one directly behind the square it
//! left; either way with the unbroken line of enemy pieces behind that one. Where one step could
//! do both, they are two moves. The same piece may go on stepping and taking (under `may stop
//! after any jump` it may also stop after any step), never to a square it has stood on this turn
//! under `no return to a visited square`, never twice in a row in one direction under `no two
//! steps in one direction`. Taken lines leave the board at once.
//!
//! The generator takes this path once per position ([`Rules::special`]): the checker keeps these
//! variants free of jumps and huffing, so nothing here meets the jump search. Its entry points are
//! out of line (`#[cold]`, never inlined), so that perft's loop in the other variants does not
//! carry their code. A move records its landing squares as every capture does; which way each
//! step took is read back from the route and the captured set ([`Rules::step_legs`]), and
//! [`Move::marked`] tells the notation to write it when another legal move has the same route.

use super::bits::{BitIter, BitSet};
use super::geometry::{Sq, NONE};
use super::movegen::{move_id, FastSet, GenOptions, TooManyRoutes, DEDUP_SCAN};
use super::moves::Move;
use super::position::Position;
use super::rules::{Rules, MAX_KINDS};

/// One step of a capture by approach or withdrawal, as read back from a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    /// The square the step lands on.
    pub to: Sq,
    /// It took by withdrawal (the line behind the square it left), not by approach.
    pub withdrawal: bool,
    /// The pieces it took, nearest first.
    pub line: Vec<Sq>,
}

/// The most steps [`Rules::step_legs_matching`] tries before it gives up on a move that is not
/// one (a constructed route may branch at every step).
const READ_BACK_BUDGET: u32 = 100_000;

impl<B: BitSet> Rules<B> {
    /// Per kind, the pieces of `side` that can make a first capturing step; whether there is any.
    /// All pieces of a kind at once, by bit-set steps.
    #[inline(always)]
    pub(super) fn step_candidates(
        &self,
        pos: &Position<B>,
        side: usize,
        cand: &mut [B; MAX_KINDS],
    ) -> bool {
        let empty = !pos.occupied() & self.playable;
        let mut any = B::ZERO;
        for (kind, c) in cand.iter_mut().enumerate().take(self.kinds) {
            let prog = &self.programs[side][kind];
            let pieces = pos.kind_bits(side, kind);
            if pieces.none() || prog.step_caps.is_empty() {
                continue;
            }
            let capturable = self.takes_bits(pos, side, kind);
            let mut found = B::ZERO;
            for d in prog.step_caps.iter() {
                if prog.approach_set & (1 << d) != 0 {
                    found |= self.step_back(self.step_back(capturable, d) & empty, d);
                }
                if prog.withdraw_set & (1 << d) != 0 {
                    found |= self.step_back(empty, d) & self.step(capturable, d);
                }
            }
            *c = found & pieces;
            any |= *c;
        }
        any.any()
    }

    /// [`Rules::generate_within`] for these variants: the captures, then (when none is due) the
    /// quiet moves.
    #[cold]
    #[inline(never)]
    pub(super) fn step_capture_moves(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        let side = pos.turn();
        let mut cand = [B::ZERO; MAX_KINDS];
        if self.step_candidates(pos, side, &mut cand) {
            let found = self.step_search(pos, side, &cand, out, opts, budget, false)? > 0;
            if found && self.compulsory {
                return Ok(());
            }
        }
        self.generate_quiet(pos, side, out);
        Ok(())
    }

    /// [`Rules::has_moves`] for these variants: a first capturing step always makes a move.
    #[cold]
    #[inline(never)]
    pub(super) fn step_capture_has_moves(&self, pos: &Position<B>) -> bool {
        let side = pos.turn();
        let mut cand = [B::ZERO; MAX_KINDS];
        self.step_candidates(pos, side, &mut cand) || self.count_quiet(pos, side) > 0
    }

    /// [`Rules::count_moves_within`] (and perft's leaf count, `counting`) for these variants.
    #[cold]
    #[inline(never)]
    pub(super) fn step_capture_count(
        &self,
        pos: &Position<B>,
        buf: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
        counting: bool,
    ) -> Result<u64, TooManyRoutes> {
        let side = pos.turn();
        let mut cand = [B::ZERO; MAX_KINDS];
        if !self.step_candidates(pos, side, &mut cand) {
            return Ok(self.count_quiet(pos, side));
        }
        let captures = self.step_search(pos, side, &cand, buf, opts, budget, counting)?;
        if captures > 0 && self.compulsory {
            return Ok(captures);
        }
        Ok(captures + self.count_quiet(pos, side))
    }

    /// The capture moves of `side`, appended to `out`, and how many (when `counting`, moves of
    /// one step are counted, not built).
    #[allow(clippy::too_many_arguments)]
    fn step_search(
        &self,
        pos: &Position<B>,
        side: usize,
        cand: &[B; MAX_KINDS],
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
        counting: bool,
    ) -> Result<u64, TooManyRoutes> {
        let start = out.len();
        let occupied = pos.occupied();
        let mut s = StepSearch {
            rules: self,
            pos,
            side,
            from: 0,
            kind: 0,
            blockers: B::ZERO,
            takes: B::ZERO,
            captured: B::ZERO,
            visited: B::ZERO,
            path: B::ROUTE,
            ways: B::ROUTE,
            taken: B::ROUTE,
            n: 0,
            n_taken: 0,
            best: None,
            start,
            keep_duplicates: opts.keep_duplicates,
            nodes: 0,
            budget,
            over: false,
            counting,
            singles: 0,
            seen: None,
            out,
        };
        for (kind, &pieces) in cand.iter().enumerate().take(self.kinds) {
            for sq in BitIter(pieces) {
                s.from = sq;
                s.kind = kind as u8;
                s.blockers = occupied & !B::bit(sq);
                s.takes = self.takes_bits(pos, side, kind);
                s.visited = B::bit(sq);
                s.go(sq, 8);
                if s.over {
                    s.out.truncate(start);
                    return Err(TooManyRoutes { budget });
                }
            }
        }
        let found = (s.out.len() - start) as u64 + s.singles;
        if !counting {
            mark_shared_routes(&mut out[start..]);
        }
        Ok(found)
    }

    /// The steps of a capture by approach or withdrawal, read back from its route and captured
    /// set: for each step, which way it took and the line it took. Where several readings fit
    /// (one step could have taken either way and the rest makes up the difference), a move that
    /// `--keep-duplicates` kept apart reads back the ways it recorded ([`Move::way`]); any other
    /// gets the first, approach before withdrawal (the readings are one move). Empty for any
    /// other move.
    pub fn step_legs(&self, mv: &Move<B>) -> Vec<Leg> {
        if mv.flags & Move::<B>::WAYS != 0 {
            let marks: Vec<Option<bool>> = (0..mv.route().len()).map(|i| mv.way(i)).collect();
            if let Some(legs) = self.step_legs_matching(mv, &marks) {
                return legs;
            }
        }
        self.step_legs_matching(mv, &[]).unwrap_or_default()
    }

    /// [`Rules::step_legs`], each step's way (`Some(true)`: withdrawal) as `marks` asks where it
    /// asks (a shorter `marks` asks nothing of the later steps); `None` when no reading fits.
    pub fn step_legs_matching(&self, mv: &Move<B>, marks: &[Option<bool>]) -> Option<Vec<Leg>> {
        if !self.approach || !mv.is_capture() {
            return None;
        }
        let mut legs = Vec::with_capacity(mv.route().len());
        let mut tries = 0;
        self.read_back(mv, marks, mv.from, 0, B::ZERO, &mut legs, &mut tries)
            .then_some(legs)
    }

    #[allow(clippy::too_many_arguments)]
    fn read_back(
        &self,
        mv: &Move<B>,
        marks: &[Option<bool>],
        cur: Sq,
        i: usize,
        taken: B,
        legs: &mut Vec<Leg>,
        tries: &mut u32,
    ) -> bool {
        let route = mv.route();
        if i == route.len() {
            return taken == mv.captured;
        }
        *tries += 1;
        if *tries > READ_BACK_BUDGET {
            return false;
        }
        let to = route[i];
        // The step lands on an empty square: not on a piece that a later step takes (a reading
        // that takes it later is no way the move could have been played).
        if mv.captured.has(to) && !taken.has(to) {
            return false;
        }
        let next = &self.geo.next;
        let Some(d) = (0..8u8).find(|&d| next[d as usize][cur as usize] == to as u16) else {
            return false;
        };
        let back = (d + 4) % 8;
        for withdrawal in [false, true] {
            if marks
                .get(i)
                .copied()
                .flatten()
                .is_some_and(|w| w != withdrawal)
            {
                continue;
            }
            let (first, dir) = if withdrawal {
                (next[back as usize][cur as usize], back)
            } else {
                (next[d as usize][to as usize], d)
            };
            let left = mv.captured & !taken;
            if first == NONE || !left.has(first as Sq) {
                continue;
            }
            let mut line = Vec::new();
            let mut t = first;
            while t != NONE && left.has(t as Sq) {
                line.push(t as Sq);
                t = next[dir as usize][t as Sq as usize];
            }
            let took = line.iter().fold(taken, |b, &sq| b | B::bit(sq));
            legs.push(Leg {
                to,
                withdrawal,
                line,
            });
            if self.read_back(mv, marks, to, i + 1, took, legs, tries) {
                return true;
            }
            legs.pop();
        }
        false
    }
}

/// Sets [`Move::marked`] on every capture whose origin and route another one shares.
fn mark_shared_routes<B: BitSet>(moves: &mut [Move<B>]) {
    let n = moves.len();
    if n < 2 {
        return;
    }
    if n <= 256 {
        for i in 0..n {
            for j in i + 1..n {
                if moves[i].from == moves[j].from && moves[i].route() == moves[j].route() {
                    moves[i].set_marked();
                    moves[j].set_marked();
                }
            }
        }
        return;
    }
    // A long list (a constructed position): sort an index by route instead.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        (moves[a].from, moves[a].route()).cmp(&(moves[b].from, moves[b].route()))
    });
    for w in order.windows(2) {
        let (a, b) = (w[0], w[1]);
        if moves[a].from == moves[b].from && moves[a].route() == moves[b].route() {
            moves[a].set_marked();
            moves[b].set_marked();
        }
    }
}

/// The depth-first search for the capture sequences of one side, piece by piece.
struct StepSearch<'a, B: BitSet> {
    rules: &'a Rules<B>,
    pos: &'a Position<B>,
    side: usize,
    from: Sq,
    kind: u8,
    /// Every piece on the board but the capturing one.
    blockers: B,
    /// The enemy pieces this piece may take.
    takes: B,
    captured: B,
    /// The squares the piece has stood on this turn.
    visited: B,
    path: B::Route,
    /// Which way each step of `path` took (1: withdrawal), recorded in moves kept apart.
    ways: B::Route,
    /// The kinds of the pieces taken, in order (for a priority beyond the count).
    taken: B::Route,
    n: usize,
    n_taken: usize,
    best: Option<u128>,
    start: usize,
    keep_duplicates: bool,
    nodes: u64,
    budget: u64,
    over: bool,
    counting: bool,
    /// When counting: moves of one step at the best priority so far, not built.
    singles: u64,
    /// Moves recorded, once the list is long (a constructed position).
    seen: Option<FastSet>,
    out: &'a mut Vec<Move<B>>,
}

impl<B: BitSet> StepSearch<'_, B> {
    /// Every capture going on from `cur`, where the piece stands after a step in direction
    /// `last` (8: none yet).
    fn go(&mut self, cur: Sq, last: u8) {
        let rules = self.rules;
        let prog = &rules.programs[self.side][self.kind as usize];
        let next = &rules.geo.next;
        let capturable = self.takes & !self.captured;
        // Taken pieces are gone at once.
        let empty = !(self.blockers & !self.captured) & rules.playable;
        let mut found = false;
        for d in prog.steps_after(last).iter() {
            let land = next[d as usize][cur as usize];
            if land == NONE {
                continue;
            }
            let land = land as Sq;
            if !empty.has(land) || (rules.no_revisit && self.visited.has(land)) {
                continue;
            }
            if prog.approach_set & (1 << d) != 0 {
                let t = next[d as usize][land as usize];
                if t != NONE && capturable.has(t as Sq) {
                    found = true;
                    self.take(land, d, t as Sq, d, capturable);
                }
            }
            if prog.withdraw_set & (1 << d) != 0 {
                let back = (d + 4) % 8;
                let t = next[back as usize][cur as usize];
                if t != NONE && capturable.has(t as Sq) {
                    found = true;
                    self.take(land, d, t as Sq, back, capturable);
                }
            }
            if self.over {
                return;
            }
        }
        if self.n > 0 && (rules.may_stop || !found) {
            self.record(cur);
        }
    }

    /// Step to `land` (direction `d`), taking the line from `first` on in direction `dir`.
    fn take(&mut self, land: Sq, d: u8, first: Sq, dir: u8, capturable: B) {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.over = true;
            return;
        }
        let next = &self.rules.geo.next[dir as usize];
        let taken_before = self.n_taken;
        let mut line = B::ZERO;
        let mut t = first as u16;
        while t != NONE && capturable.has(t as Sq) {
            let sq = t as Sq;
            line |= B::bit(sq);
            if !self.rules.count_only {
                self.taken.as_mut()[self.n_taken] = self.pos.kind_at(sq) as u8;
            }
            // Each piece is taken once: n_taken < the board's squares, the route's capacity.
            self.n_taken += 1;
            t = next[sq as usize];
        }
        let visited = self.visited;
        self.path.as_mut()[self.n] = land;
        self.ways.as_mut()[self.n] = (dir != d) as Sq;
        self.n += 1;
        self.captured |= line;
        self.visited |= B::bit(land);
        self.go(land, d);
        self.visited = visited;
        self.captured &= !line;
        self.n -= 1;
        self.n_taken = taken_before;
    }

    fn record(&mut self, to: Sq) {
        let rules = self.rules;
        let key = if rules.count_only {
            self.n_taken as u128
        } else {
            rules.key_of(self.kind, &self.taken.as_ref()[..self.n_taken])
        };
        match self.best {
            Some(b) if key < b => return,
            Some(b) if key == b => {}
            _ => {
                self.out.truncate(self.start);
                self.singles = 0;
                self.best = Some(key);
                self.seen = None;
            }
        }
        // A move of one step is never found twice: its step and the line it takes name it.
        if self.counting && self.n == 1 {
            self.singles += 1;
            return;
        }
        let prog = &rules.programs[self.side][self.kind as usize];
        let mv = Move {
            from: self.from,
            to,
            kind_before: self.kind,
            kind_after: prog.promotion_at(to).unwrap_or(self.kind),
            path_len: self.n as u8,
            captured: self.captured,
            path: self.path,
            run: false,
            due: 0,
            flags: 0,
        };
        // The ways its steps took, so that it reads back an order it was played in (a route
        // read back from its captured set alone may fit an order no play gives).
        let mut mv = mv;
        if !self.counting {
            mv.set_ways(&self.ways.as_ref()[..self.n]);
        }
        let recorded = &self.out[self.start..];
        if self.keep_duplicates {
            // Routes and orders of capture are kept apart, and every end of this search is one
            // of each: its route is its steps, and which way each step took (approach or
            // withdrawal) is the order it takes the pieces in. So nothing is found twice; the
            // move records its ways, so that it reads back its own order (two of one route and
            // captured set print apart).
            self.out.push(mv);
            return;
        } else if recorded.len() < DEDUP_SCAN {
            if recorded.iter().any(|m| m.same_move(&mv)) {
                return;
            }
        } else {
            let seen = self
                .seen
                .get_or_insert_with(|| recorded.iter().map(move_id).collect());
            if !seen.insert(move_id(&mv)) {
                return;
            }
        }
        self.out.push(mv);
    }
}
