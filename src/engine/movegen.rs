//! The generic move generator. HOT PATH: written for speed. No heap allocation per node (moves go
//! into a caller-owned, reused buffer; the capture search keeps its route in fixed arrays and its
//! hash sets in a per-thread scratch that is reused from call to call), and every direction is a
//! lookup in the precomputed neighbour tables. It is one file, past the project's 800 lines, on
//! purpose: the quiet-move and capture searches share inlined helpers and per-thread scratch,
//! and keeping the hot path together keeps what the optimiser sees together.
//!
//! The capture search is bounded (see `docs/robustness.md`):
//! - a route never exceeds the board's own bound (`Rules::max_captures`), so none is cut short;
//! - with `priority most pieces` first, a branch that cannot take as many pieces as the best
//!   sequence found so far is cut (it could only produce moves the priority drops);
//! - with an order-free priority and duplicates merged, a search state (square, captured set,
//!   piece kind, and last direction when the 180° turn is banned) reached a second time is skipped:
//!   everything it leads to was already found;
//! - [`Rules::try_generate`] stops after [`ROUTE_BUDGET`] jumps and says so ([`TooManyRoutes`]);
//!   it never returns a partial list.

use super::bits::{BitIter, BitSet};
use super::geometry::{Link, Sq, NONE};
use super::moves::Move;
use super::position::Position;
use super::rules::{PieceProgram, Rules, EDGE_TURN, MAX_KINDS};
use crate::spec::{Criterion, MidCapturePromotion, Removal};
use std::cell::Cell;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The most jumps the capture search of one position may examine in [`Rules::try_generate`].
/// The positions of real games need at most a few thousand; a constructed one can need more (Big
/// Dameo's 33-piece capture of docs/robustness.md needs about 1.6 million). A million takes well
/// under a second.
pub const ROUTE_BUDGET: u64 = 1_000_000;

/// Jumps examined before the search starts remembering the states it has seen (small searches,
/// nearly all of them, never touch the hash set).
const MEMO_AFTER: u64 = 256;

/// Moves recorded before the duplicate check moves from a scan to a hash set.
pub(super) const DEDUP_SCAN: usize = 16;

/// A position whose capture search needs more than the route budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("too many capture routes: the search stopped after examining {budget} jumps")]
#[diagnostic(
    code(damelab::too_many_routes),
    help("the rules allow more capture routes in this position than the engine's budget; no partial answer is given (see docs/robustness.md)")
)]
pub struct TooManyRoutes {
    pub budget: u64,
}

/// A fast hasher for the search's (bit set, small integers) keys.
#[derive(Default, Clone, Copy)]
pub(super) struct FastHasher(u64);

impl FastHasher {
    #[inline(always)]
    fn mix(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FastHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.mix(b as u64);
        }
    }
    #[inline(always)]
    fn write_u32(&mut self, x: u32) {
        self.mix(x as u64);
    }
    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        self.mix(x);
    }
    #[inline(always)]
    fn write_u128(&mut self, x: u128) {
        self.mix(x as u64);
        self.mix((x >> 64) as u64);
    }
}

/// Keys hold a captured set as its (high, low) `u128` halves (every width fits them), and a `u32`.
pub(super) type Key = ((u128, u128), u32);
pub(super) type FastSet = HashSet<Key, BuildHasherDefault<FastHasher>>;

/// The capture search's reusable sets, one per thread.
#[derive(Default)]
struct Scratch {
    /// States already searched: (captured set, square | kind | last direction | origin).
    seen: FastSet,
    /// Moves recorded: (captured set, origin | destination | resulting kind).
    recorded: FastSet,
}

impl Scratch {
    fn reset(&mut self) {
        for set in [&mut self.seen, &mut self.recorded] {
            if set.capacity() > 1 << 16 {
                // Give back the memory of a pathological search.
                *set = FastSet::default();
            } else if !set.is_empty() {
                set.clear();
            }
        }
    }
}

thread_local! {
    /// Taken by a search that needs it (a long one) and given back when it ends, so the common,
    /// short search never touches the thread-local at all.
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// The identity of a move as a hash key: origin, destination, captured set, resulting piece.
#[inline(always)]
pub(super) fn move_id<B: BitSet>(m: &Move<B>) -> Key {
    (
        m.captured.halves(),
        m.from as u32 | (m.to as u32) << 8 | (m.kind_after as u32) << 16,
    )
}

/// Options that change what counts as a distinct move.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenOptions {
    /// Keep capture routes that differ only in order (same origin, destination, captured set and
    /// resulting piece) as separate moves, as some published perft tables do.
    pub keep_duplicates: bool,
    /// With `keep_duplicates`: keep even the routes that take the same pieces in the same order
    /// and differ only in where a flying piece lands between captures, so that a capture written
    /// through any of its possible landing squares (as game records do) can be matched.
    pub all_routes: bool,
}

const NO_DIR: u8 = 8;

impl Rules {
    /// [`Rules::try_generate`] run on the narrowest bit-set width the board fits
    /// ([`Rules::narrow`], [`Rules::mid`]), the moves widened back: the same moves in the same
    /// order, at the narrow width's speed (for callers that list one position's moves at a time:
    /// the game, the Python package).
    pub fn try_generate_narrowest(
        &self,
        pos: &Position,
        out: &mut Vec<Move>,
        opts: GenOptions,
    ) -> Result<(), TooManyRoutes> {
        fn widened<C: BitSet>(
            n: &Rules<C>,
            pos: &Position,
            out: &mut Vec<Move>,
            opts: GenOptions,
        ) -> Result<(), TooManyRoutes> {
            let mut narrow = Vec::new();
            out.clear();
            n.try_generate(&pos.to_width(), &mut narrow, opts)?;
            out.extend(narrow.iter().map(Move::to_width));
            Ok(())
        }
        if let Some(n) = &self.narrow {
            return widened(n, pos, out, opts);
        }
        if let Some(m) = &self.mid {
            return widened(m, pos, out, opts);
        }
        self.try_generate(pos, out, opts)
    }
}

impl<B: BitSet> Rules<B> {
    /// Append every legal move of `pos` to `out` (which is cleared first), however long the
    /// capture search takes. For positions from users, prefer [`Rules::try_generate`].
    pub fn generate(&self, pos: &Position<B>, out: &mut Vec<Move<B>>, opts: GenOptions) {
        // With no budget the search cannot run out of it.
        let _ = self.generate_within(pos, out, opts, u64::MAX);
    }

    /// [`Rules::generate`] within the [`ROUTE_BUDGET`]: every legal move, or an error (and `out`
    /// empty) when the capture search would examine more jumps than that. Never a partial list.
    pub fn try_generate(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
    ) -> Result<(), TooManyRoutes> {
        self.generate_within(pos, out, opts, ROUTE_BUDGET)
    }

    /// Every legal move of `pos`, the capture search stopping after `budget` jumps.
    pub fn generate_within(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        self.generate_as::<true>(pos, out, opts, budget)
    }

    /// [`Rules::generate_within`]; `COMBAT` false: as if the variant had no single combat (the
    /// moves [`Rules::combat_moves`] starts from).
    #[inline(always)]
    pub(super) fn generate_as<const COMBAT: bool>(
        &self,
        pos: &Position<B>,
        out: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<(), TooManyRoutes> {
        out.clear();
        if self.has_material_rules && self.material_outcome(pos).is_some() {
            return Ok(());
        }
        if self.special {
            if self.placing(pos) {
                self.drop_moves(pos, out);
                return Ok(());
            }
            if COMBAT && self.combat_governs(pos) {
                return self.combat_moves(pos, out, opts, budget);
            }
            if self.stacks {
                return self.stack_moves(pos, out, opts, budget);
            } else if self.huffing {
                return self.huff_moves(pos, out, opts, budget);
            } else if self.approach {
                return self.step_capture_moves(pos, out, opts, budget);
            }
        }
        let side = pos.turn();
        // Most positions have no capture: one bulk test spares the capture search its setup.
        let mut cand = [B::ZERO; MAX_KINDS];
        if self.capture_candidates(pos, side, &mut cand) {
            let found = self.capture_search(pos, side, &cand, out, opts, budget, false)? > 0;
            if found && self.compulsory {
                return Ok(());
            }
        }
        self.generate_quiet_inline(pos, side, out);
        Ok(())
    }

    /// Whether `pos` has a legal move, without listing them: no capture search (a first jump
    /// always ends in a capture move), so no budget is needed. For the end-of-game rules.
    pub fn has_moves(&self, pos: &Position<B>) -> bool {
        if self.has_material_rules && self.material_outcome(pos).is_some() {
            return false;
        }
        // A single combat leaves a side with moves its moves (see `combat`): no test for it.
        if self.special {
            if self.placing(pos) {
                return self.drop_count(pos) > 0;
            }
            if self.stacks {
                return self.stack_has_moves(pos);
            } else if self.huffing {
                return self.huff_has_moves(pos);
            } else if self.approach {
                return self.step_capture_has_moves(pos);
            }
        }
        let side = pos.turn();
        let mut cand = [B::ZERO; MAX_KINDS];
        self.capture_candidates(pos, side, &mut cand) || self.count_quiet(pos, side) > 0
    }

    /// The number of legal moves of `pos`, the quiet ones counted without being built: `buf`
    /// holds the capture moves (the start of [`Rules::generate`]'s list), if captures there are.
    pub fn count_moves(&self, pos: &Position<B>, buf: &mut Vec<Move<B>>, opts: GenOptions) -> u64 {
        // With no budget the search cannot run out of it.
        self.count_moves_within(pos, buf, opts, u64::MAX)
            .unwrap_or_default()
    }

    /// [`Rules::count_moves`], the capture search stopping after `budget` jumps.
    pub fn count_moves_within(
        &self,
        pos: &Position<B>,
        buf: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<u64, TooManyRoutes> {
        self.count_within::<true>(pos, buf, opts, budget, false)
    }

    /// The number of legal moves for perft's last ply: [`Rules::count_moves_within`], except that
    /// `buf` is scratch space (moves taking one piece are counted without being built).
    /// `SPECIAL` false: the rules have no huffing nor approach captures (the caller tested
    /// [`Rules::special`] once), so the count does not test for them.
    #[inline(always)]
    pub(crate) fn count_leaf_as<const SPECIAL: bool>(
        &self,
        pos: &Position<B>,
        buf: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
    ) -> Result<u64, TooManyRoutes> {
        debug_assert!(SPECIAL || !self.special);
        self.count_within::<SPECIAL>(pos, buf, opts, budget, true)
    }

    /// `SPECIAL`: whether to test [`Rules::special`] (false: the caller knows it is not set).
    #[inline(always)]
    fn count_within<const SPECIAL: bool>(
        &self,
        pos: &Position<B>,
        buf: &mut Vec<Move<B>>,
        opts: GenOptions,
        budget: u64,
        counting: bool,
    ) -> Result<u64, TooManyRoutes> {
        buf.clear();
        if self.has_material_rules && self.material_outcome(pos).is_some() {
            return Ok(0);
        }
        if SPECIAL && self.special {
            if self.placing(pos) {
                // A drop captures nothing: `buf` (the captures) stays empty.
                return Ok(self.drop_count(pos));
            }
            if self.combat_governs(pos) {
                self.combat_moves(pos, buf, opts, budget)?;
                return Ok(buf.len() as u64);
            }
            if self.stacks {
                return self.stack_count(pos, buf, budget, counting);
            } else if self.huffing {
                return self.huff_count(pos, buf, opts, budget);
            } else if self.approach {
                return self.step_capture_count(pos, buf, opts, budget, counting);
            }
        }
        let side = pos.turn();
        let mut cand = [B::ZERO; MAX_KINDS];
        if !self.capture_candidates(pos, side, &mut cand) {
            return Ok(self.count_quiet(pos, side));
        }
        let captures = self.capture_search(pos, side, &cand, buf, opts, budget, counting)?;
        if captures > 0 && self.compulsory {
            return Ok(captures);
        }
        Ok(captures + self.count_quiet(pos, side))
    }

    /// Move every square of `bits` one step in direction `angle`; squares with no neighbour that
    /// way vanish.
    #[inline(always)]
    pub fn step(&self, bits: B, angle: u8) -> B {
        (bits & self.from[angle as usize]).shift_wrapping(self.geo.delta[angle as usize])
    }

    /// The squares from which one step in direction `angle` reaches a square of `bits`.
    #[inline(always)]
    pub fn step_back(&self, bits: B, angle: u8) -> B {
        bits.shift_wrapping(-self.geo.delta[angle as usize]) & self.from[angle as usize]
    }

    /// The first square of `occupied` on the line from `sq` in direction `angle`, if any.
    #[inline(always)]
    fn first_on_ray(&self, sq: Sq, angle: u8, occupied: B) -> Option<Sq> {
        let hits = self.rays[sq as usize][angle as usize] & occupied;
        if hits.none() {
            None
        } else if self.geo.delta[angle as usize] > 0 {
            Some(hits.lowest())
        } else {
            Some(hits.highest())
        }
    }

    /// How many steps from `sq` to `t`, a square on its line in direction `angle`.
    #[inline(always)]
    fn ray_dist(&self, sq: Sq, angle: u8, t: Sq) -> u32 {
        let ray = &self.rays;
        (ray[sq as usize][angle as usize] ^ ray[t as usize][angle as usize]).count()
    }

    /// The enemy pieces a piece of `kind` may capture.
    #[inline(always)]
    pub(super) fn takes_bits(&self, pos: &Position<B>, side: usize, kind: usize) -> B {
        let prog = &self.programs[side][kind];
        if prog.takes_all {
            return pos.sides[1 - side];
        }
        let takes = prog.takes;
        let mut bits = B::ZERO;
        for k in 0..self.kinds {
            if takes & (1 << k) != 0 {
                bits |= pos.kinds[k];
            }
        }
        pos.sides[1 - side] & bits
    }

    /// Per kind, the pieces of `side` that can make a first capture (exactly those from which
    /// the capture search finds a move); whether there is any. Short jumps are found for all
    /// pieces of a kind at once by bit-set steps, flying ones by one look along each ray.
    #[inline(always)]
    pub(super) fn capture_candidates(
        &self,
        pos: &Position<B>,
        side: usize,
        cand: &mut [B; MAX_KINDS],
    ) -> bool {
        let occupied = pos.occupied();
        let empty = !occupied & self.playable;
        let mut any = B::ZERO;
        for (kind, c) in cand.iter_mut().enumerate().take(self.kinds) {
            let prog = &self.programs[side][kind];
            let pieces = pos.kind_bits(side, kind);
            if pieces.none() || !prog.can_capture() {
                continue;
            }
            let capturable = self.takes_bits(pos, side, kind);
            let mut found = B::ZERO;
            for d in prog.jumps.iter() {
                found |= self.step_back(self.step_back(empty, d) & capturable, d);
            }
            if self.gaps {
                for d in prog.gaps.iter() {
                    let over = self.step_back(empty, d) & capturable;
                    found |= self.step_back(self.step_back(over, d) & empty, d);
                }
            }
            found &= pieces;
            if !prog.flies.is_empty() {
                for sq in BitIter(pieces & !found) {
                    for d in prog.flies.iter() {
                        let Some(t) = self.first_on_ray(sq, d, occupied) else {
                            continue;
                        };
                        if capturable.has(t)
                            && (prog.fly_reach == u8::MAX
                                || self.ray_dist(sq, d, t) <= prog.fly_reach as u32)
                        {
                            let line = &self.geo.next[d as usize];
                            let mut land = line[t as usize];
                            // A row of adjacent pieces is leapt whole, where the piece may.
                            while prog.fly_row && land != NONE && capturable.has(land as Sq) {
                                land = line[land as usize];
                            }
                            if land != NONE && !occupied.has(land as Sq) {
                                found |= B::bit(sq);
                                break;
                            }
                        }
                    }
                }
            }
            *c = found;
            any |= found;
        }
        any.any()
    }

    /// The capture moves of `side`, appended to `out`, and how many. When `counting`, only the
    /// number is wanted: moves taking one piece (never the same move twice) are counted without
    /// being built, and `out` holds only the others.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn capture_search(
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
        let mut takes = [B::ZERO; MAX_KINDS];
        let mut all_takes = B::ZERO;
        for (kind, t) in takes.iter_mut().enumerate().take(self.kinds) {
            *t = self.takes_bits(pos, side, kind);
            all_takes |= *t;
        }
        let mut s = Search {
            rules: self,
            pos,
            side,
            from: 0,
            kind0: 0,
            blockers: B::ZERO,
            takes,
            captured: B::ZERO,
            immediate: self.removal == Removal::Immediate,
            path: B::ROUTE,
            taken: B::ROUTE,
            n: 0,
            best: None,
            best_count: 0,
            all_takes,
            start,
            keep_duplicates: opts.keep_duplicates,
            all_routes: opts.all_routes,
            memo: self.order_free_key && !opts.keep_duplicates,
            nodes: 0,
            budget,
            over: false,
            scratch: None,
            counting,
            singles: 0,
            stop_ok: true,
            out,
        };
        let occupied = pos.occupied();
        // Only pieces that can make a first capture start a search.
        for (kind, &candidates) in cand.iter().enumerate().take(self.kinds) {
            for sq in BitIter(candidates) {
                s.from = sq;
                s.kind0 = kind as u8;
                s.blockers = occupied & !B::bit(sq);
                // `may stop after any jump` is settled here, once per piece: the search is
                // compiled twice, with and without the stops (and twice again, with and without
                // the loops of jumps at a fixed gap).
                match (
                    self.may_stop,
                    self.gaps || self.edge_turns || self.row_leaps,
                ) {
                    (true, false) => s.search::<true, false>(sq, kind as u8, NO_DIR),
                    (false, false) => s.search::<false, false>(sq, kind as u8, NO_DIR),
                    (true, true) => s.search::<true, true>(sq, kind as u8, NO_DIR),
                    (false, true) => s.search::<false, true>(sq, kind as u8, NO_DIR),
                }
                if s.over {
                    s.out.truncate(start);
                    s.give_back_scratch();
                    return Err(TooManyRoutes { budget });
                }
            }
        }
        s.give_back_scratch();
        Ok((s.out.len() - start) as u64 + s.singles)
    }

    pub(super) fn quiet_target(&self, side: usize, kind: usize, from: Sq, to: Sq) -> Move<B> {
        let prog = &self.programs[side][kind];
        let after = prog.promotion_at(to).unwrap_or(kind as u8);
        let mut mv = Move::quiet_of(from, to, kind as u8, after);
        mv.run = prog.quiet_limit.is_some();
        mv
    }

    /// The pieces of `kind` that may make a quiet move: all of them, except the piece that has
    /// used up its run of quiet moves in a row (`at most N quiet moves in a row`).
    #[inline(always)]
    pub(super) fn quiet_movers(&self, pos: &Position<B>, side: usize, kind: usize) -> B {
        let pieces = pos.kind_bits(side, kind);
        match self.programs[side][kind].quiet_limit {
            Some((max, while_own)) => {
                let run = pos.runs[side];
                if run.count >= max && self.has_any_of(pos, side, while_own) {
                    pieces & !B::bit(run.sq)
                } else {
                    pieces
                }
            }
            None => pieces,
        }
    }

    /// Whether `side` has a piece of a kind in the bit mask `kinds`.
    #[inline(always)]
    fn has_any_of(&self, pos: &Position<B>, side: usize, kinds: u8) -> bool {
        (0..self.kinds).any(|k| kinds & (1 << k) != 0 && pos.kind_bits(side, k).any())
    }

    /// The quiet moves of `side`, appended to `out`: [`Rules::generate_quiet_inline`] out of line,
    /// for the paths of huffing and of approach captures.
    #[inline(never)]
    pub(super) fn generate_quiet(&self, pos: &Position<B>, side: usize, out: &mut Vec<Move<B>>) {
        self.generate_quiet_inline(pos, side, out);
    }

    /// The quiet moves of `side`, appended to `out`. Inlined into [`Rules::generate_within`]: with
    /// the other callers it became a call of its own there, and perft of Thai ran 1.5% more
    /// instructions.
    #[inline(always)]
    fn generate_quiet_inline(&self, pos: &Position<B>, side: usize, out: &mut Vec<Move<B>>) {
        let next = &self.geo.next;
        let empty = !pos.occupied();
        for kind in 0..self.kinds {
            let prog = &self.programs[side][kind];
            let movers = self.quiet_movers(pos, side, kind);
            if prog.slides.is_empty() && prog.leaps.is_empty() {
                // Steps only (men): square by square, in the same order as below.
                let (can, any) = self.step_sets(prog, movers, empty & self.playable);
                for sq in BitIter(any) {
                    for (i, d) in prog.steps.iter().enumerate() {
                        if can[i].has(sq) {
                            let t = (sq as i16 + self.geo.delta[d as usize]) as Sq;
                            out.push(self.quiet_target(side, kind, sq, t));
                        }
                    }
                }
                continue;
            }
            for sq in BitIter(movers) {
                for d in prog.steps.iter() {
                    let t = next[d as usize][sq as usize];
                    if t != NONE && empty.has(t as Sq) {
                        out.push(self.quiet_target(side, kind, sq, t as Sq));
                    }
                }
                for d in prog.slides.iter() {
                    let mut t = next[d as usize][sq as usize];
                    let mut left = prog.slide_max;
                    while t != NONE && left > 0 && empty.has(t as Sq) {
                        out.push(self.quiet_target(side, kind, sq, t as Sq));
                        t = next[d as usize][t as Sq as usize];
                        left -= 1;
                    }
                }
                for leap in &prog.leaps {
                    if let Some(t) = self.leap_target(pos, side, sq, leap) {
                        out.push(self.quiet_target(side, kind, sq, t));
                    }
                }
            }
        }
    }

    /// For a kind that only steps (men): per direction of its steps, the pieces of `movers` that
    /// can step that way onto `open`, by one bit-set step each; and all those pieces.
    #[inline(always)]
    fn step_sets(&self, prog: &PieceProgram<B>, movers: B, open: B) -> ([B; 8], B) {
        let mut can = [B::ZERO; 8];
        let mut any = B::ZERO;
        for (i, d) in prog.steps.iter().enumerate() {
            can[i] = self.step_back(open, d) & movers;
            any |= can[i];
        }
        (can, any)
    }

    /// Quiet move `k` of the side to move, in [`Rules::generate`]'s order: kind by kind, square by
    /// square (lowest first), then steps, slides (nearest landing first) and leaps in program order.
    /// Builds only that move (random playouts draw one move without building the list). `k` must be
    /// below the number of quiet moves ([`Rules::count_moves`] less the captures).
    pub fn nth_quiet(&self, pos: &Position<B>, k: usize) -> Move<B> {
        if self.special && self.placing(pos) {
            return self.nth_drop(pos, k);
        }
        if self.special && self.combat_governs(pos) {
            return self.combat_nth_quiet(pos, k);
        }
        if self.huffing {
            return self.huff_nth_quiet(pos, k);
        }
        if self.stacks {
            return self.stack_nth_quiet(pos, k);
        }
        self.nth_common_quiet(pos, k)
    }

    /// [`Rules::nth_quiet`] of the common generator (the quiet moves of columns are its too).
    pub(super) fn nth_common_quiet(&self, pos: &Position<B>, mut k: usize) -> Move<B> {
        let rules = self;
        let next = &rules.geo.next;
        let empty = !pos.occupied();
        let side = pos.turn();
        for kind in 0..rules.kinds {
            let prog = &rules.programs[side][kind];
            let target = |from: Sq, to: Sq| rules.quiet_target(side, kind, from, to);
            let movers = rules.quiet_movers(pos, side, kind);
            if prog.slides.is_empty() && prog.leaps.is_empty() {
                // Steps only (men): a kind with too few moves is passed over whole.
                let (can, any) = rules.step_sets(prog, movers, empty & rules.playable);
                let total: usize = can.iter().map(|c| c.count() as usize).sum();
                if k >= total {
                    k -= total;
                    continue;
                }
                for sq in BitIter(any) {
                    for (i, d) in prog.steps.iter().enumerate() {
                        if can[i].has(sq) {
                            if k == 0 {
                                return target(sq, next[d as usize][sq as usize] as Sq);
                            }
                            k -= 1;
                        }
                    }
                }
                unreachable!("the count of the kind's moves covers k");
            }
            for sq in BitIter(movers) {
                for d in prog.steps.iter() {
                    let t = next[d as usize][sq as usize];
                    if t != NONE && empty.has(t as Sq) {
                        if k == 0 {
                            return target(sq, t as Sq);
                        }
                        k -= 1;
                    }
                }
                for d in prog.slides.iter() {
                    let mut t = next[d as usize][sq as usize];
                    let mut left = prog.slide_max;
                    while t != NONE && left > 0 && empty.has(t as Sq) {
                        if k == 0 {
                            return target(sq, t as Sq);
                        }
                        k -= 1;
                        t = next[d as usize][t as Sq as usize];
                        left -= 1;
                    }
                }
                for leap in &prog.leaps {
                    if let Some(t) = rules.leap_target(pos, side, sq, leap) {
                        if k == 0 {
                            return target(sq, t);
                        }
                        k -= 1;
                    }
                }
            }
        }
        panic!("nth_quiet: fewer quiet moves than asked for");
    }

    /// The own pieces that may form the file of a leap (its kinds of `side`).
    #[inline(always)]
    fn leap_files(&self, pos: &Position<B>, side: usize, leap: &super::rules::LeapOp) -> B {
        let mut files = B::ZERO;
        for k in 0..self.kinds {
            if leap.over & (1 << k) != 0 {
                files |= pos.kind_bits(side, k);
            }
        }
        files
    }

    /// Where a leap over a file of own pieces lands, if it can be made.
    #[inline(always)]
    fn leap_target(
        &self,
        pos: &Position<B>,
        side: usize,
        from: Sq,
        leap: &super::rules::LeapOp,
    ) -> Option<Sq> {
        let next = &self.geo.next[leap.dir as usize];
        let file_bits = self.leap_files(pos, side, leap);
        let mut t = next[from as usize];
        let mut len = 0u8;
        while t != NONE && file_bits.has(t as Sq) {
            len += 1;
            t = next[t as Sq as usize];
        }
        (len > 0 && len <= leap.max && t != NONE && !pos.occupied().has(t as Sq)).then_some(t as Sq)
    }

    /// Quiet moves counted without building them (bulk counting at perft's last ply): steps and
    /// slides of all pieces of a kind at once, by shifting their bit set; leaps square by square.
    #[inline(always)]
    pub(super) fn count_quiet(&self, pos: &Position<B>, side: usize) -> u64 {
        let empty = !pos.occupied() & self.playable;
        let mut n = 0u64;
        for kind in 0..self.kinds {
            let prog = &self.programs[side][kind];
            let pieces = self.quiet_movers(pos, side, kind);
            if pieces.none() {
                continue;
            }
            for d in prog.steps.iter() {
                n += (self.step(pieces, d) & empty).count() as u64;
            }
            for d in prog.slides.iter() {
                // In one direction a square is reached by one piece at most (the nearest behind
                // it: a piece blocks the ones farther back), so one count of the squares reached
                // is the number of moves.
                let mut front = self.step(pieces, d) & empty;
                let mut reach = B::ZERO;
                let mut left = prog.slide_max;
                while front.any() && left > 0 {
                    reach |= front;
                    front = self.step(front, d) & empty;
                    left -= 1;
                }
                n += reach.count() as u64;
            }
            for leap in &prog.leaps {
                // All pieces at once, by file length: `over` holds, for each piece whose first
                // `len` squares that way are own pieces of the file, the last of them. A piece
                // lands on the square after its file when that square is empty, so for each
                // length the moves are the empty squares one step beyond `over` (a shift moves
                // distinct pieces to distinct squares, so none is counted twice).
                let files = self.leap_files(pos, side, leap);
                let mut over = self.step(pieces, leap.dir) & files;
                for _ in 0..leap.max {
                    if over.none() {
                        break;
                    }
                    let beyond = self.step(over, leap.dir);
                    n += (beyond & empty).count() as u64;
                    over = beyond & files;
                }
            }
        }
        n
    }
}

/// The depth-first search for capture sequences of one side, piece by piece. Keeps the best
/// priority key seen so far across pieces; a better sequence drops every move recorded before it.
struct Search<'a, B: BitSet> {
    rules: &'a Rules<B>,
    pos: &'a Position<B>,
    side: usize,
    from: Sq,
    kind0: u8,
    /// Every piece on the board except the capturing piece (its start square counts as empty).
    blockers: B,
    /// `takes[kind]`: the enemy pieces a piece of that kind may capture.
    takes: [B; MAX_KINDS],
    captured: B,
    immediate: bool,
    path: B::Route,
    /// Kind of each captured piece, in capture order.
    taken: B::Route,
    n: usize,
    best: Option<u128>,
    /// Pieces taken by the best sequence so far, when the key counts them first (else 0).
    best_count: u32,
    /// Every enemy piece some kind of the side may capture.
    all_takes: B,
    start: usize,
    keep_duplicates: bool,
    all_routes: bool,
    /// Whether a state seen before may be skipped (see the module documentation).
    memo: bool,
    /// Jumps examined so far, and the most allowed.
    nodes: u64,
    budget: u64,
    /// The budget ran out: the search unwinds and reports it.
    over: bool,
    /// The hash sets of a long search, taken from the thread's scratch when first needed.
    scratch: Option<Box<Scratch>>,
    /// Only the number of moves is wanted (perft's last ply).
    counting: bool,
    /// When counting: the moves of one capture found at the best priority so far, not built.
    singles: u64,
    /// With `may stop after any jump`: whether the capture may end on the square the last jump
    /// landed on (not when a flying piece must land directly behind the piece it took last).
    stop_ok: bool,
    out: &'a mut Vec<Move<B>>,
}

impl<B: BitSet> Search<'_, B> {
    /// The thread's scratch, taken (and cleared) on first use.
    #[inline(never)]
    fn scratch(&mut self) -> &mut Scratch {
        self.scratch.get_or_insert_with(|| {
            let mut s = SCRATCH.with(Cell::take).unwrap_or_default();
            s.reset();
            s
        })
    }

    /// Give the scratch back to the thread, if this search took it.
    fn give_back_scratch(&mut self) {
        if let Some(mut s) = self.scratch.take() {
            s.reset();
            SCRATCH.with(|c| c.set(Some(s)));
        }
    }

    #[inline(always)]
    fn is_empty(&self, sq: Sq) -> bool {
        !self.blockers.has(sq) || (self.immediate && self.captured.has(sq))
    }

    #[inline(always)]
    fn capturable(&self, kind: u8) -> B {
        self.takes[kind as usize] & !self.captured
    }

    /// The (captured, landing) squares of a short jump in direction `d` from `cur`, if it can be made.
    #[inline(always)]
    fn jump_target(&self, cur: Sq, d: u8, capturable: B) -> Option<(Sq, Sq)> {
        // Two bit-set steps rather than two dependent neighbour-table loads.
        let rules = self.rules;
        let over = rules.step(B::bit(cur), d) & capturable;
        if over.none() {
            return None;
        }
        let land = rules.step(over, d);
        if land.none() {
            return None;
        }
        let (over, land) = (over.lowest(), land.lowest());
        self.is_empty(land).then_some((over, land))
    }

    /// The (captured, landing) squares of a jump at a fixed gap in direction `d` from `cur`: the
    /// square next to `cur` empty, then a short jump from there.
    #[inline(always)]
    fn gap_target(&self, cur: Sq, d: u8, capturable: B) -> Option<(Sq, Sq)> {
        let gap = self.rules.step(B::bit(cur), d);
        if gap.none() || !self.is_empty(gap.lowest()) {
            return None;
        }
        self.jump_target(gap.lowest(), d, capturable)
    }

    /// The square a flying jump in direction `d` from `cur` would capture, if any: the first
    /// piece on the line, at most `reach` squares away. With `row` (`leaping a row of adjacent
    /// pieces`), the first of a row of such pieces that the jump leaps whole ([`Self::row_of`]).
    #[inline(always)]
    fn fly_target(&self, cur: Sq, d: u8, capturable: B, reach: u8, row: bool) -> Option<Sq> {
        let rules = self.rules;
        // The pieces standing: under immediate removal, those captured are gone.
        let standing = if self.immediate {
            self.blockers & !self.captured
        } else {
            self.blockers
        };
        let sq = rules.first_on_ray(cur, d, standing)?;
        if !capturable.has(sq) || (reach != u8::MAX && rules.ray_dist(cur, d, sq) > reach as u32) {
            return None;
        }
        let land = rules.geo.next[d as usize][sq as usize];
        if land != NONE && self.is_empty(land as Sq) {
            return Some(sq);
        }
        // Only where the square behind is taken: variants without rows pay one test there.
        if !row {
            return None;
        }
        let (_, last) = self.row_of(sq, d, capturable);
        let land = rules.geo.next[d as usize][last as usize];
        (last != sq && land != NONE && self.is_empty(land as Sq)).then_some(sq)
    }

    /// The row a flying jump in direction `d` leaps from its first piece `first`: the pieces
    /// after `first` that stand side by side with it on the line and may be taken, and the last
    /// piece of the row (`first` alone: no others, `first`).
    fn row_of(&self, first: Sq, d: u8, capturable: B) -> (B, Sq) {
        let line = &self.rules.geo.next[d as usize];
        let (mut row, mut last) = (B::ZERO, first);
        let mut t = line[first as usize];
        while t != NONE && capturable.has(t as Sq) && !self.is_empty(t as Sq) {
            row |= B::bit(t as Sq);
            last = t as Sq;
            t = line[t as usize];
        }
        (row, last)
    }

    /// Whether the piece on `cur` could jump again (the continuation rule for flying landings).
    fn can_jump(&self, cur: Sq, kind: u8, last: u8) -> bool {
        let prog = &self.rules.programs[self.side][kind as usize];
        let capturable = self.capturable(kind);
        if prog
            .jumps_after(last)
            .iter()
            .any(|d| self.jump_target(cur, d, capturable).is_some())
            || self.rules.gaps
                && prog
                    .gaps_after(last)
                    .iter()
                    .any(|d| self.gap_target(cur, d, capturable).is_some())
        {
            return true;
        }
        prog.flies_after(last).iter().any(|d| {
            self.fly_target(cur, d, capturable, prog.fly_reach, prog.fly_row)
                .is_some()
        })
    }

    /// The kind the capturing piece is after landing on `sq` mid-capture.
    #[inline(always)]
    fn kind_on_landing(&self, kind: u8, sq: Sq) -> u8 {
        if self.rules.mid_capture == MidCapturePromotion::Continue {
            if let Some(to) = self.rules.programs[self.side][kind as usize].promotion_at(sq) {
                return to;
            }
        }
        kind
    }

    /// Whether the search below the current state can be skipped: it cannot take as many pieces
    /// as the best sequence found (when the count comes first), or the state was searched before.
    #[inline(always)]
    fn skip(&mut self, cur: Sq, kind: u8, last: u8, stop_ok: bool) -> bool {
        // (Counted only when the best sequence takes more than this one has so far.)
        if self.best_count > self.n as u32
            && self.n as u32 + (self.all_takes & !self.captured).count() < self.best_count
        {
            return true;
        }
        if self.memo && self.nodes >= MEMO_AFTER {
            // The last direction matters to what follows only through the 180° ban and the
            // one-line rule; whether the capture may stop here, only under optional stops.
            let last = if self.rules.directed { last } else { NO_DIR };
            let state = cur as u32
                | (kind as u32) << 8
                | (last as u32) << 16
                | (stop_ok as u32) << 21
                | (self.from as u32) << 24;
            let key = (self.captured.halves(), state);
            return !self.scratch().seen.insert(key);
        }
        false
    }

    /// The `last` index after a jump in direction `d` landing on `land`: `EDGE_TURN + d` where
    /// the line ends there and some piece turns at the edge (only in the search's `GAPS`
    /// compilation, so that other variants pay nothing).
    #[inline(always)]
    fn after_landing<const GAPS: bool>(&self, land: Sq, d: u8) -> u8 {
        if GAPS && self.rules.edge_turns && self.rules.geo.next[d as usize][land as usize] == NONE {
            EDGE_TURN + d
        } else {
            d
        }
    }

    /// Every capture sequence going on from `cur`, where the piece (now of `kind`) landed after a
    /// jump in direction `last` (`EDGE_TURN + d`: in direction `d`, its line ending there).
    /// `STOPS`: `may stop after any jump` (each jump may end the move). `GAPS`: some piece jumps
    /// at a fixed gap or turns at the edge ([`Rules::gaps`], [`Rules::edge_turns`]).
    fn search<const STOPS: bool, const GAPS: bool>(&mut self, cur: Sq, kind: u8, last: u8) {
        let stop_ok = STOPS && std::mem::replace(&mut self.stop_ok, true);
        if self.n > 0 && self.skip(cur, kind, last, stop_ok) {
            return;
        }
        let rules = self.rules;
        let prog = &rules.programs[self.side][kind as usize];
        let capturable = self.capturable(kind);
        let next = &rules.geo.next;
        let mut found = false;
        for d in prog.jumps_after(last).iter() {
            let Some((over, land)) = self.jump_target(cur, d, capturable) else {
                continue;
            };
            found = true;
            self.advance::<STOPS, GAPS>(over, B::ZERO, land, kind, d);
            if self.over {
                return;
            }
        }
        if GAPS {
            for d in prog.gaps_after(last).iter() {
                let Some((over, land)) = self.gap_target(cur, d, capturable) else {
                    continue;
                };
                found = true;
                self.advance::<STOPS, GAPS>(over, B::ZERO, land, kind, d);
                if self.over {
                    return;
                }
            }
        }
        for d in prog.flies_after(last).iter() {
            let Some(over) = self.fly_target(cur, d, capturable, prog.fly_reach, prog.fly_row)
            else {
                continue;
            };
            found = true;
            let line = &next[d as usize];
            // A row of adjacent pieces leapt whole: the pieces after `over`, and the last one,
            // behind which the landing squares begin (only in the `GAPS` compilation).
            let (row, beyond) = if GAPS && prog.fly_row {
                self.row_of(over, d, capturable)
            } else {
                (B::ZERO, over)
            };
            if STOPS {
                // Every landing may end the capture, so the continuation rule has nothing to
                // choose: each landing square is taken. Only a capture that ends on a piece of a
                // `behind_last` kind must end directly behind it.
                let behind = prog.behind_last & (1 << self.pos.kind_at(over)) != 0;
                let mut land = line[beyond as usize];
                let mut left = prog.fly_land;
                let mut first = true;
                while land != NONE && left > 0 && self.is_empty(land as Sq) {
                    let land_sq = land as Sq;
                    left -= 1;
                    self.stop_ok = first || !behind;
                    first = false;
                    self.advance::<STOPS, GAPS>(over, row, land_sq, kind, d);
                    if self.over {
                        return;
                    }
                    land = line[land_sq as usize];
                }
                self.stop_ok = true;
                continue;
            }
            // The continuation rule: with several landing squares, the piece must take one from
            // which it can jump on, if there is one. When the priority counts pieces first, the
            // landings that cannot jump on end shorter routes, which the priority drops anyway
            // whenever another landing jumps on: the look-ahead is skipped.
            self.captured |= B::bit(over) | row;
            let mut continuing = false;
            let mut land = line[beyond as usize];
            let mut left = if rules.continuation_implied && prog.behind_last == 0 {
                0
            } else {
                prog.fly_land
            };
            while land != NONE && left > 0 && self.is_empty(land as Sq) {
                let land_sq = land as Sq;
                let after = self.after_landing::<GAPS>(land_sq, d);
                if self.can_jump(land_sq, self.kind_on_landing(kind, land_sq), after) {
                    continuing = true;
                    break;
                }
                land = line[land_sq as usize];
                left -= 1;
            }
            self.captured &= !(B::bit(over) | row);
            // A capture that ends the move on a piece of a `behind_last` kind lands directly
            // behind it.
            let mut left = if !continuing && prog.behind_last & (1 << self.pos.kind_at(over)) != 0 {
                1
            } else {
                prog.fly_land
            };
            let mut land = line[beyond as usize];
            while land != NONE && left > 0 && self.is_empty(land as Sq) {
                let land_sq = land as Sq;
                left -= 1;
                // Under immediate removal `is_empty` must not see `over` as free yet.
                let go = !continuing || {
                    self.captured |= B::bit(over) | row;
                    let after = self.after_landing::<GAPS>(land_sq, d);
                    let ok = self.can_jump(land_sq, self.kind_on_landing(kind, land_sq), after);
                    self.captured &= !(B::bit(over) | row);
                    ok
                };
                if go {
                    self.advance::<STOPS, GAPS>(over, row, land_sq, kind, d);
                    if self.over {
                        return;
                    }
                }
                land = line[land_sq as usize];
            }
        }
        // Without optional stops a capture ends only where it cannot go on.
        if self.n > 0 && if STOPS { stop_ok } else { !found } {
            self.record(cur, kind);
        }
    }

    /// One jump taking `over` (and the rest of a row leapt whole, `row`) and landing on `land`.
    fn advance<const STOPS: bool, const GAPS: bool>(
        &mut self,
        over: Sq,
        row: B,
        land: Sq,
        kind: u8,
        d: u8,
    ) {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.over = true;
            return;
        }
        // Every jump takes a distinct enemy piece, so `n < max_captures <= MAX_PATH` (checked
        // when the rules were compiled): the route always fits, nothing is ever cut short.
        debug_assert!(self.n < self.rules.max_captures as usize);
        self.path.as_mut()[self.n] = land;
        if !self.rules.count_only {
            // Only a priority beyond the count looks at the kinds taken (`key`).
            self.taken.as_mut()[self.n] = self.pos.kind_at(over) as u8;
        }
        self.captured |= B::bit(over) | row;
        self.n += 1;
        let d = self.after_landing::<GAPS>(land, d);
        match self.rules.mid_capture {
            MidCapturePromotion::AtEnd => self.search::<STOPS, GAPS>(land, kind, d),
            MidCapturePromotion::Continue => {
                self.search::<STOPS, GAPS>(land, self.kind_on_landing(kind, land), d)
            }
            MidCapturePromotion::Stop => {
                if self.rules.programs[self.side][kind as usize]
                    .promotion_at(land)
                    .is_some()
                {
                    if !STOPS || std::mem::replace(&mut self.stop_ok, true) {
                        self.record(land, kind);
                    }
                } else {
                    self.search::<STOPS, GAPS>(land, kind, d);
                }
            }
        }
        self.n -= 1;
        self.captured &= !(B::bit(over) | row);
    }

    fn key(&self) -> u128 {
        if self.rules.count_only {
            return self.n as u128;
        }
        self.rules
            .key_of(self.kind0, &self.taken.as_ref()[..self.n])
    }

    fn record(&mut self, to: Sq, kind: u8) {
        let key = self.key();
        match self.best {
            Some(b) if key < b => return,
            Some(b) if key == b => {}
            _ => {
                self.out.truncate(self.start);
                self.singles = 0;
                self.best = Some(key);
                if self.rules.count_first {
                    self.best_count =
                        (key >> (self.rules.key_width - self.rules.count_bits)) as u32;
                }
                if let Some(s) = self.scratch.as_mut() {
                    if !s.recorded.is_empty() {
                        s.recorded.clear();
                    }
                }
            }
        }
        // A move taking one piece is never found twice: its route is its origin, the piece and
        // the landing square.
        if self.counting && self.n == 1 {
            self.singles += 1;
            return;
        }
        let prog = &self.rules.programs[self.side][kind as usize];
        let kind_after = prog.promotion_at(to).unwrap_or(kind);
        let mv = Move {
            from: self.from,
            to,
            kind_before: self.kind0,
            kind_after,
            path_len: self.n as u8,
            captured: self.captured,
            path: self.path,
            run: false,
            due: 0,
            flags: 0,
        };
        if !self.keep_duplicates {
            // A scan while the list is short, a hash set once it is long: linear overall.
            let recorded = &self.out[self.start..];
            if recorded.len() < DEDUP_SCAN {
                if recorded.iter().any(|m| m.same_move(&mv)) {
                    return;
                }
            } else {
                let ids: Option<Vec<Key>> = self
                    .scratch
                    .as_ref()
                    .is_none_or(|s| s.recorded.is_empty())
                    .then(|| recorded.iter().map(move_id).collect());
                let set = &mut self.scratch().recorded;
                if let Some(ids) = ids {
                    set.extend(ids);
                }
                if !set.insert(move_id(&mv)) {
                    return;
                }
            }
        } else if !self.all_routes
            && self.out[self.start..]
                .iter()
                .any(|m| m.same_move(&mv) && self.rules.same_capture_order(m, &mv))
        {
            // Kept duplicates are routes taking the pieces in another order: routes that take
            // the same pieces in the same order differ only in a flying piece's landing squares
            // between captures, and are one move.
            return;
        }
        self.out.push(mv);
    }
}

impl<B: BitSet> Rules<B> {
    /// The priority key of a capture sequence made by a piece of kind `capturer` taking pieces of
    /// the kinds `taken`, in capture order: sequences compare by key, the highest must be played.
    pub(crate) fn key_of(&self, capturer: u8, taken: &[u8]) -> u128 {
        let mut key: u128 = 0;
        for field in &self.key {
            key = key.checked_shl(field.width).unwrap_or(0);
            key |= match field.criterion {
                Criterion::MostPieces => taken.len() as u128,
                Criterion::MostValue => taken
                    .iter()
                    .map(|&k| self.spec.pieces[k as usize].value as u128)
                    .sum(),
                Criterion::HighestCapturer => self.spec.pieces[capturer as usize].rank as u128,
                Criterion::HighestCapturedRanks => {
                    let mut v: u128 = 0;
                    for &r in &self.ranks_desc {
                        let c = taken
                            .iter()
                            .filter(|&&k| self.spec.pieces[k as usize].rank == r);
                        v = (v << self.count_bits) | c.count() as u128;
                    }
                    v
                }
                Criterion::MostOf(k) => taken.iter().filter(|&&t| t == k).count() as u128,
                Criterion::EarliestOf(k) => {
                    // The field is `max_captures` bits wide and a route takes at most that many.
                    let width = field.width as usize;
                    let mut v: u128 = 0;
                    for (i, &t) in taken.iter().enumerate().take(width) {
                        if t == k {
                            v |= 1 << (width - 1 - i);
                        }
                    }
                    v
                }
            };
        }
        key
    }

    /// The pieces a capture takes, in the order it takes them: on each leg of the route, the
    /// captured square between the two landing squares.
    pub fn capture_order(&self, mv: &Move<B>) -> Vec<Sq> {
        if self.stacks {
            return mv.jumps().to_vec();
        }
        if self.approach {
            return self
                .step_legs(mv)
                .iter()
                .flat_map(|leg| leg.line.iter().copied())
                .collect();
        }
        let mut order = Vec::new();
        let mut cur = mv.from;
        for &land in mv.route() {
            let (cf, cr) = self.geo.coord(cur);
            let (lf, lr) = self.geo.coord(land);
            let (df, dr) = (
                (lf as i16 - cf as i16).signum(),
                (lr as i16 - cr as i16).signum(),
            );
            let (mut f, mut r) = (cf as i16 + df, cr as i16 + dr);
            // A leg is a straight line: at most a board's width or height of steps.
            for _ in 0..self.geo.width.max(self.geo.height) {
                if (f, r) == (lf as i16, lr as i16) {
                    break;
                }
                if let Some(sq) = self.geo.square((f as u8, r as u8)) {
                    if mv.captured.has(sq) && !order.contains(&sq) {
                        order.push(sq);
                        // A row leapt whole: every piece of the leg, in line order.
                        if !self.row_leaps {
                            break;
                        }
                    }
                }
                f += df;
                r += dr;
            }
            cur = land;
        }
        order
    }

    /// Whether two captures take their pieces in the same order (each leg of a route takes one
    /// piece: the first captured square on the line between its two landing squares that an
    /// earlier leg has not taken).
    pub fn same_capture_order(&self, a: &Move<B>, b: &Move<B>) -> bool {
        if a.path_len != b.path_len || a.from != b.from {
            return false;
        }
        let (mut ca, mut cb) = (a.from, b.from);
        let (mut da, mut db) = (B::ZERO, B::ZERO);
        for (&la, &lb) in a.route().iter().zip(b.route()) {
            let ta = self.leg_capture(ca, la, a.captured & !da);
            let tb = self.leg_capture(cb, lb, b.captured & !db);
            if ta != tb {
                return false;
            }
            if let Some(t) = ta {
                da |= B::bit(t);
                db |= B::bit(t);
            }
            (ca, cb) = (la, lb);
        }
        true
    }

    /// The first square of `captured` on the straight line from `from` to `to`.
    fn leg_capture(&self, from: Sq, to: Sq, captured: B) -> Option<Sq> {
        for line in &self.geo.next {
            let mut t = line[from as usize];
            let mut first = None;
            while t != NONE && t != to as Link {
                if first.is_none() && captured.has(t as Sq) {
                    first = Some(t as Sq);
                }
                t = line[t as Sq as usize];
            }
            if t == to as Link {
                return first;
            }
        }
        None
    }

    /// The priority key of a capture `mv` in `pos` (the key the generator compared it by); 0 for a
    /// quiet move. Higher keys win; equal keys leave the choice to the player.
    pub fn priority_key(&self, pos: &Position<B>, mv: &Move<B>) -> u128 {
        if !mv.is_capture() {
            return 0;
        }
        let taken: Vec<u8> = self
            .capture_order(mv)
            .iter()
            .map(|&sq| pos.kind_at(sq) as u8)
            .collect();
        self.key_of(mv.kind_before, &taken)
    }
}
