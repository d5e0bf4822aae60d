//! Stacks (columns): `captures: take top` (Lasca, Bashni).
//!
//! A capture does not remove the jumped piece: it takes the top piece of the jumped column and
//! puts it under the capturing column (each piece taken goes to the bottom, in the order taken);
//! the piece under a taken top (a prisoner set free) becomes the jumped column's new top. A
//! column's top decides who owns and moves it, and its rank (a man column moves as a man); a
//! column promotes when its top does, and only its top.
//!
//! The position's usual sets (`sides`, `kinds`) hold the tops, so the quiet moves and every
//! query of "whose piece is here" are the common generator's. What lies under the tops is
//! [`Stacks`]: a few bytes, the prisoners in square order, the same for every position of a
//! variant without stacks (all empty), which never reads them: their generator and `play` pay
//! one byte-array copy and nothing else. The generator takes this path once per position
//! ([`Rules::special`]).
//!
//! Removal reads as for plain pieces: under `removed at end of turn` a jumped column stays as it
//! stands until the move ends, so it blocks and is never jumped twice in one capture (Lasca,
//! Bashni); under `removed immediately` its top goes at once, and the column, if an enemy top
//! remains, may be jumped again.
//!
//! A capture move records its landing squares (`path[..path_len]`) and, behind them, the square
//! of the column each jump took the top of (`path[path_len..2 * path_len]`, [`Move::jumps`]):
//! the order of the prisoners under the capturer is the order of the jumps. Two routes that jump
//! the same columns in the same order and end on the same square are one move (a flying piece's
//! landing squares between captures aside); two that jump them in another order are two moves
//! (the prisoners lie in another order).

use super::bits::{BitIter, BitSet};
use super::geometry::{Sq, NONE};
use super::movegen::{GenOptions, TooManyRoutes};
use super::moves::Move;
use super::position::Position;
use super::rules::Rules;
use crate::spec::{MidCapturePromotion, Removal};

/// The most prisoners a position holds (pieces under a top): the checker allows at most one more
/// piece in a setup of a variant with stacks.
pub const MAX_PRISONERS: usize = 24;

/// An unused place in [`Stacks`] (no square of a board with stacks has index 63).
const EMPTY: u8 = 0xFF;

/// The pieces under the tops: each a byte (square index in the low six bits, side in bit 6, kind
/// in bit 7), in square order, and under one square from just below the top to the bottom; the
/// unused places at the end [`EMPTY`]. One order for one set of columns, so that equal columns
/// compare and hash equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stacks(pub [u8; MAX_PRISONERS]);

impl Default for Stacks {
    fn default() -> Stacks {
        Stacks([EMPTY; MAX_PRISONERS])
    }
}

/// A prisoner's byte.
#[inline]
fn entry(sq: Sq, side: usize, kind: usize) -> u8 {
    (sq & 63) | ((side as u8) & 1) << 6 | ((kind as u8) & 1) << 7
}

/// A prisoner's (side, kind).
#[inline]
fn piece(e: u8) -> (usize, usize) {
    (((e >> 6) & 1) as usize, (e >> 7) as usize)
}

/// The stacks are full: a position would hold more prisoners than [`MAX_PRISONERS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StacksFull;

impl Stacks {
    /// No prisoner anywhere.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0[0] == EMPTY
    }

    /// The number of prisoners.
    pub fn len(&self) -> usize {
        self.0
            .iter()
            .position(|&e| e == EMPTY)
            .unwrap_or(MAX_PRISONERS)
    }

    /// The pieces under the top on `sq`, as (side, kind), from just below the top to the bottom.
    pub fn under(&self, sq: Sq) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.0
            .iter()
            .take_while(|&&e| e != EMPTY)
            .filter(move |&&e| e & 63 == sq)
            .map(|&e| piece(e))
    }

    /// Every piece under a top, as (side, kind), column after column.
    pub fn prisoners(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.0
            .iter()
            .take_while(|&&e| e != EMPTY)
            .map(|&e| piece(e))
    }

    /// Every square with a piece under its top.
    pub fn squares(&self) -> Vec<Sq> {
        let mut v: Vec<Sq> = self
            .0
            .iter()
            .take_while(|&&e| e != EMPTY)
            .map(|&e| e & 63)
            .collect();
        v.dedup();
        v
    }

    /// Whether a piece lies under the top on `sq`.
    #[inline]
    pub fn holds(&self, sq: Sq) -> bool {
        self.0
            .iter()
            .take_while(|&&e| e != EMPTY)
            .any(|&e| e & 63 == sq)
    }

    /// Take the piece just under the top on `sq`, if any: it becomes the top.
    fn take(&mut self, sq: Sq) -> Option<(usize, usize)> {
        let n = self.len();
        let i = self.0[..n].iter().position(|&e| e & 63 == sq)?;
        let e = self.0[i];
        self.0.copy_within(i + 1..n, i);
        self.0[n - 1] = EMPTY;
        Some(piece(e))
    }

    /// Remove every piece under `sq`, returned in order (top first), square bits cleared.
    fn lift(&mut self, sq: Sq) -> ([u8; MAX_PRISONERS], usize) {
        let mut col = [EMPTY; MAX_PRISONERS];
        let mut k = 0;
        if !self.holds(sq) {
            return (col, k);
        }
        let mut kept = [EMPTY; MAX_PRISONERS];
        let mut j = 0;
        for &e in self.0.iter().take_while(|&&e| e != EMPTY) {
            if e & 63 == sq {
                col[k] = e & !63;
                k += 1;
            } else {
                kept[j] = e;
                j += 1;
            }
        }
        self.0 = kept;
        (col, k)
    }

    /// Put `pieces` (bytes with their square bits clear, top first) under the top on `sq`, which
    /// has none yet.
    fn lay(&mut self, sq: Sq, pieces: &[u8]) -> Result<(), StacksFull> {
        if pieces.is_empty() {
            return Ok(());
        }
        let n = self.len();
        if n + pieces.len() > MAX_PRISONERS {
            return Err(StacksFull);
        }
        let at = self.0[..n].iter().position(|&e| e & 63 > sq).unwrap_or(n);
        self.0.copy_within(at..n, at + pieces.len());
        for (i, &p) in pieces.iter().enumerate() {
            self.0[at + i] = (p & !63) | (sq & 63);
        }
        Ok(())
    }

    /// Set the pieces under the top on `sq` (which has none yet), as (side, kind), top first:
    /// for positions read from text.
    pub fn set_under(&mut self, sq: Sq, pieces: &[(usize, usize)]) -> Result<(), StacksFull> {
        let bytes: Vec<u8> = pieces.iter().map(|&(s, k)| entry(0, s, k)).collect();
        self.lay(sq, &bytes)
    }
}

impl<B: BitSet> Move<B> {
    /// Under `take top`: the squares of the columns each jump took the top of, in order (empty
    /// for a quiet move and in variants without stacks).
    #[inline]
    pub fn jumps(&self) -> &[Sq] {
        if self.flags & Self::STACKS == 0 || self.captured.none() {
            return &[];
        }
        let n = self.path_len as usize;
        &self.path.as_ref()[n..2 * n]
    }
}

impl<B: BitSet> Position<B> {
    /// Whether a column stands anywhere (a piece under some top).
    #[inline]
    pub fn has_columns(&self) -> bool {
        !self.stacks.is_empty()
    }

    /// [`Position::play`] of a move under `take top`: the column moves whole; each jumped column
    /// gives its top to the bottom of the mover's, and the piece under it (if any) becomes its top.
    #[cold]
    #[inline(never)]
    pub(super) fn play_stacks(&self, mv: &Move<B>) -> Position<B> {
        let me = self.turn();
        // The runs of quiet moves and the counters as any move keeps them.
        let plain = self.play_with(mv, B::ZERO, B::ZERO);
        if mv.captured.none() && !self.stacks.holds(mv.from) {
            // A single piece's quiet move (the most common): nothing under it to carry.
            return plain;
        }
        let mut p = *self;
        let (mut col, mut k) = p.stacks.lift(mv.from);
        p.clear(mv.from);
        for &j in mv.jumps() {
            let Some((side, kind)) = p.at(j) else {
                continue;
            };
            if k < MAX_PRISONERS {
                col[k] = entry(0, side, kind);
                k += 1;
            }
            match p.stacks.take(j) {
                Some((s, kd)) => p.put(j, s, kd),
                None => p.clear(j),
            }
        }
        p.put(mv.to, me, mv.kind_after as usize);
        // Never full: a move changes no piece's count.
        let _ = p.stacks.lay(mv.to, &col[..k]);
        p.turn ^= 1;
        p.runs = plain.runs;
        p.huff = B::ZERO;
        p
    }
}

/// The most jumps a piece may start from one square: a short and a flying capture in each of the
/// eight directions.
const MAX_TARGETS: usize = 16;

/// One jump open from a square: its direction, the jumped column, the first landing square and
/// the number of landing squares (they follow one another on the line from the first).
#[derive(Clone, Copy, Default)]
struct Target {
    d: u8,
    over: Sq,
    land: Sq,
    lands: u8,
}

/// The jumps open from a square, in a fixed array (the search allocates nothing).
struct Targets {
    list: [Target; MAX_TARGETS],
    n: usize,
}

impl Targets {
    #[inline]
    fn new() -> Targets {
        Targets {
            list: [Target::default(); MAX_TARGETS],
            n: 0,
        }
    }

    #[inline]
    fn as_slice(&self) -> &[Target] {
        &self.list[..self.n]
    }
}

/// The depth-first search for captures of one column under `take top`. It allocates nothing: the
/// jumps open from a square go in a fixed array on the stack, the route and the jumped columns in
/// fixed arrays here, and the position is copied only when a jump changes it at once (`removed
/// immediately`).
struct StackSearch<'a, B: BitSet> {
    rules: &'a Rules<B>,
    side: usize,
    from: Sq,
    kind0: u8,
    immediate: bool,
    /// Every square but the moving column's starting square (which it has left).
    left: B,
    /// Landing squares, in order.
    path: B::Route,
    /// The jumped columns, in order.
    jumps: [Sq; MAX_PRISONERS + 1],
    n: usize,
    /// Columns jumped so far (under `removed at end of turn`, never jumped again).
    jumped: B,
    /// Whether two routes may jump the same columns in the same order to the same square (a
    /// flying column's landing squares): only then are the moves found compared.
    dedup: bool,
    /// Count the moves instead of listing them (perft's last ply, when no two routes are one).
    count_only: bool,
    /// The moves counted under `count_only`.
    found: usize,
    nodes: u64,
    budget: u64,
    over: bool,
    start: usize,
    out: &'a mut Vec<Move<B>>,
}

impl<'a, B: BitSet> StackSearch<'a, B> {
    /// The search from the column on `from` of the side to move, `nodes` jumps already spent of
    /// `budget`, its moves appended to `out`.
    fn new(
        rules: &'a Rules<B>,
        pos: &Position<B>,
        from: Sq,
        nodes: u64,
        budget: u64,
        out: &'a mut Vec<Move<B>>,
    ) -> StackSearch<'a, B> {
        let side = pos.turn();
        // Short jumps only: the jumped columns fix the route (a column is next to the square it
        // is jumped from in one direction only).
        let dedup = (0..rules.kinds).any(|k| !rules.programs[side][k].flies.is_empty());
        StackSearch {
            rules,
            side,
            from,
            kind0: pos.kind_at(from) as u8,
            immediate: rules.removal == Removal::Immediate,
            left: !B::bit(from),
            path: B::ROUTE,
            jumps: [0; MAX_PRISONERS + 1],
            n: 0,
            jumped: B::ZERO,
            dedup,
            count_only: false,
            found: 0,
            nodes,
            budget,
            over: false,
            start: out.len(),
            out,
        }
    }

    /// Whether a column on `sq` may be jumped: an enemy top, not jumped before when jumped
    /// columns stay until the move ends.
    #[inline]
    fn takeable(&self, pos: &Position<B>, sq: Sq) -> bool {
        pos.sides[1 - self.side].has(sq) && (self.immediate || !self.jumped.has(sq))
    }

    /// Under immediate removal, the jumped column's top goes at once.
    fn take_now(pos: &Position<B>, over: Sq) -> Position<B> {
        let mut p = *pos;
        match p.stacks.take(over) {
            Some((s, k)) => p.put(over, s, k),
            None => p.clear(over),
        }
        p
    }

    /// The jumps open from `cur` after a jump in direction `last` (8: none yet), into `out`;
    /// with `first`, stop at the first one found.
    #[inline]
    fn targets(
        &self,
        pos: &Position<B>,
        cur: Sq,
        kind: u8,
        last: u8,
        first: bool,
        out: &mut Targets,
    ) {
        let rules = self.rules;
        let prog = &rules.programs[self.side][kind as usize];
        let next = &rules.geo.next;
        let occ = pos.occupied() & self.left;
        for d in prog.jumps_after(last).iter() {
            let over = next[d as usize][cur as usize];
            if over == NONE || !self.takeable(pos, over as Sq) {
                continue;
            }
            let land = next[d as usize][over as usize];
            if land != NONE && !occ.has(land as Sq) && out.n < MAX_TARGETS {
                out.list[out.n] = Target {
                    d,
                    over: over as Sq,
                    land: land as Sq,
                    lands: 1,
                };
                out.n += 1;
                if first {
                    return;
                }
            }
        }
        for d in prog.flies_after(last).iter() {
            let line = &next[d as usize];
            let mut sq = line[cur as usize];
            let mut dist = 1u32;
            while sq != NONE && !occ.has(sq as Sq) {
                sq = line[sq as usize];
                dist += 1;
            }
            if sq == NONE
                || !self.takeable(pos, sq as Sq)
                || (prog.fly_reach != u8::MAX && dist > prog.fly_reach as u32)
            {
                continue;
            }
            let over = sq as Sq;
            let land = line[over as usize];
            let mut lands = 0u8;
            let mut l = land;
            while l != NONE && !occ.has(l as Sq) && lands < prog.fly_land {
                lands += 1;
                l = line[l as usize];
            }
            if lands > 0 && out.n < MAX_TARGETS {
                out.list[out.n] = Target {
                    d,
                    over,
                    land: land as Sq,
                    lands,
                };
                out.n += 1;
                if first {
                    return;
                }
            }
        }
    }

    /// The kind the capturing column's top is after landing on `sq` mid-capture.
    #[inline]
    fn kind_on_landing(&self, kind: u8, sq: Sq) -> u8 {
        if self.rules.mid_capture == MidCapturePromotion::Continue {
            if let Some(to) = self.rules.programs[self.side][kind as usize].promotion_at(sq) {
                return to;
            }
        }
        kind
    }

    fn can_go_on(&self, pos: &Position<B>, cur: Sq, kind: u8, last: u8) -> bool {
        let mut t = Targets::new();
        self.targets(pos, cur, kind, last, true, &mut t);
        t.n > 0
    }

    /// Of a flying jump's landing squares, those from which the capture can go on (the
    /// continuation rule), as a set; empty when none can.
    fn going_on(&mut self, after: &Position<B>, t: &Target, kind: u8) -> B {
        let line = &self.rules.geo.next[t.d as usize];
        let was = self.jumped.has(t.over);
        self.jumped |= B::bit(t.over);
        let mut on = B::ZERO;
        let mut l = t.land;
        for _ in 0..t.lands {
            if self.can_go_on(after, l, self.kind_on_landing(kind, l), t.d) {
                on |= B::bit(l);
            }
            l = line[l as usize] as Sq;
        }
        if !was {
            self.jumped &= !B::bit(t.over);
        }
        on
    }

    fn search(&mut self, pos: &Position<B>, cur: Sq, kind: u8, last: u8) {
        let mut targets = Targets::new();
        self.targets(pos, cur, kind, last, false, &mut targets);
        if targets.n == 0 {
            if self.n > 0 {
                self.record(cur, kind);
            }
            return;
        }
        for t in targets.as_slice() {
            let taken;
            let after = if self.immediate {
                taken = Self::take_now(pos, t.over);
                &taken
            } else {
                pos
            };
            // The continuation rule: of several landing squares, one from which the capture can
            // go on, if there is one.
            let on = if t.lands > 1 {
                self.going_on(after, t, kind)
            } else {
                B::ZERO
            };
            let line = &self.rules.geo.next[t.d as usize];
            let mut land = t.land;
            for _ in 0..t.lands {
                if on.none() || on.has(land) {
                    self.advance(after, t.over, land, kind, t.d);
                    if self.over {
                        return;
                    }
                }
                land = line[land as usize] as Sq;
            }
        }
    }

    fn advance(&mut self, pos: &Position<B>, over: Sq, land: Sq, kind: u8, d: u8) {
        self.nodes += 1;
        if self.nodes > self.budget || self.n >= MAX_PRISONERS {
            self.over = self.nodes > self.budget;
            return;
        }
        let was = self.jumped.has(over);
        self.path.as_mut()[self.n] = land;
        self.jumps[self.n] = over;
        self.jumped |= B::bit(over);
        self.n += 1;
        match self.rules.mid_capture {
            MidCapturePromotion::AtEnd => self.search(pos, land, kind, d),
            MidCapturePromotion::Continue => {
                self.search(pos, land, self.kind_on_landing(kind, land), d)
            }
            MidCapturePromotion::Stop => {
                if self.rules.programs[self.side][kind as usize]
                    .promotion_at(land)
                    .is_some()
                {
                    self.record(land, kind);
                } else {
                    self.search(pos, land, kind, d);
                }
            }
        }
        self.n -= 1;
        if !was {
            self.jumped &= !B::bit(over);
        }
    }

    fn record(&mut self, to: Sq, kind: u8) {
        let n = self.n;
        let prog = &self.rules.programs[self.side][kind as usize];
        let kind_after = prog.promotion_at(to).unwrap_or(kind);
        let jumps = &self.jumps[..n];
        if !self.dedup {
            if self.count_only {
                self.found += 1;
                return;
            }
        } else if self.out[self.start..]
            .iter()
            .any(|m| m.to == to && m.kind_after == kind_after && m.jumps() == jumps)
        {
            return;
        }
        let mut path = self.path;
        let mut captured = B::ZERO;
        for (i, &j) in jumps.iter().enumerate() {
            path.as_mut()[n + i] = j;
            captured |= B::bit(j);
        }
        self.out.push(Move {
            from: self.from,
            to,
            kind_before: self.kind0,
            kind_after,
            path_len: n as u8,
            captured,
            path,
            run: false,
            due: 0,
            flags: Move::<B>::STACKS,
        });
    }
}

impl<B: BitSet> Rules<B> {
    /// The columns of `side` that may have a first jump, by bit-set steps for all columns of a
    /// kind at once (every column of a kind that flies): a superset of those from which the
    /// search finds a capture, and empty in most positions.
    #[inline]
    fn stack_candidates(&self, pos: &Position<B>, side: usize) -> B {
        let empty = !pos.occupied() & self.playable;
        let enemies = pos.sides[1 - side];
        let mut found = B::ZERO;
        for kind in 0..self.kinds {
            let prog = &self.programs[side][kind];
            let pieces = pos.kind_bits(side, kind);
            if pieces.none() {
                continue;
            }
            if !prog.flies.is_empty() {
                found |= pieces;
                continue;
            }
            let mut from = B::ZERO;
            for d in prog.jumps.iter() {
                from |= self.step_back(self.step_back(empty, d) & enemies, d);
            }
            found |= from & pieces;
        }
        found
    }

    /// Every capture of the side to move under `take top`, appended to `out`; the number found.
    /// With `counting`, `out` is scratch space, and the moves may be counted without being built.
    fn stack_captures(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        budget: u64,
        counting: bool,
    ) -> Result<usize, TooManyRoutes> {
        let side = pos.turn();
        let start = out.len();
        let mut nodes = 0;
        let mut counted = 0;
        for from in BitIter(self.stack_candidates(pos, side)) {
            let mut s = StackSearch::new(self, pos, from, nodes, budget, out);
            s.count_only = counting;
            s.search(pos, from, s.kind0, 8);
            if s.over {
                out.truncate(start);
                return Err(TooManyRoutes { budget });
            }
            nodes = s.nodes;
            counted += s.found;
        }
        Ok(out.len() - start + counted)
    }

    /// [`Rules::generate_within`] under `take top`.
    #[cold]
    #[inline(never)]
    pub(super) fn stack_moves(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        _opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        let found = self.stack_captures(pos, out, budget, false)?;
        if found > 0 && self.compulsory {
            return Ok(());
        }
        let start = out.len();
        self.generate_quiet(pos, pos.turn(), out);
        for m in &mut out[start..] {
            m.flags |= Move::<B>::STACKS;
        }
        Ok(())
    }

    /// [`Rules::nth_quiet`] under `take top` (`k` below the number of quiet moves): the common
    /// generator's, marked as a column's move.
    #[cold]
    #[inline(never)]
    pub(super) fn stack_nth_quiet(&self, pos: &Position<B>, k: usize) -> Move<B> {
        let mut m = self.nth_common_quiet(pos, k);
        m.flags |= Move::<B>::STACKS;
        m
    }

    /// [`Rules::has_moves`] under `take top`: a quiet move, or a column with a first jump (a
    /// first jump always ends in a capture move), without listing the moves.
    #[cold]
    #[inline(never)]
    pub(super) fn stack_has_moves(&self, pos: &Position<B>) -> bool {
        let side = pos.turn();
        if self.count_quiet(pos, side) > 0 {
            return true;
        }
        // `Vec::new` allocates nothing, and nothing is recorded into it here.
        let mut none = Vec::new();
        BitIter(self.stack_candidates(pos, side)).any(|from| {
            let s = StackSearch::new(self, pos, from, 0, u64::MAX, &mut none);
            s.can_go_on(pos, from, s.kind0, 8)
        })
    }

    /// [`Rules::count_moves_within`] (and perft's leaf count, `counting`: `buf` is scratch space)
    /// under `take top`.
    #[cold]
    #[inline(never)]
    pub(super) fn stack_count(
        &self,
        pos: &Position<B>,
        buf: &mut Vec<Move<B>>,
        budget: u64,
        counting: bool,
    ) -> Result<u64, TooManyRoutes> {
        let found = self.stack_captures(pos, buf, budget, counting)?;
        if found > 0 && self.compulsory {
            return Ok(found as u64);
        }
        Ok(found as u64 + self.count_quiet(pos, pos.turn()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_keep_square_order_and_depth() {
        let mut s = Stacks::default();
        s.set_under(9, &[(1, 0), (0, 1)]).unwrap();
        s.set_under(3, &[(0, 0)]).unwrap();
        assert_eq!(s.squares(), vec![3, 9]);
        assert_eq!(s.under(9).collect::<Vec<_>>(), vec![(1, 0), (0, 1)]);
        assert_eq!(s.take(9), Some((1, 0)));
        assert_eq!(s.under(9).collect::<Vec<_>>(), vec![(0, 1)]);
        let (col, k) = s.lift(3);
        assert_eq!(k, 1);
        s.lay(12, &col[..k]).unwrap();
        assert_eq!(s.squares(), vec![9, 12]);
        assert_eq!(s.len(), 2);
    }
}
