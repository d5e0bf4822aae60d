//! Perft: the number of legal move sequences of a given length, with bulk counting at the last ply
//! and an optional split of the root moves over threads.

use super::bits::BitSet;
use super::movegen::{GenOptions, TooManyRoutes, ROUTE_BUDGET};
use super::moves::Move;
use super::position::Position;
use super::rules::Rules;
use crate::interrupt::{self, Interrupted};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bounds on a perft run (see [`Rules::perft_interruptible`]).
#[derive(Clone, Copy, Debug)]
pub struct PerftLimits {
    /// Stop with [`PerftError::NodeLimit`] once more nodes than this were counted (checked every
    /// few thousand positions, so the count may pass it by a little before stopping).
    pub max_nodes: u64,
    /// The capture search's budget per position (see [`ROUTE_BUDGET`]).
    pub route_budget: u64,
}

impl Default for PerftLimits {
    fn default() -> PerftLimits {
        PerftLimits {
            max_nodes: u64::MAX,
            route_budget: ROUTE_BUDGET,
        }
    }
}

/// Why a bounded perft stopped before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum PerftError {
    #[error("perft interrupted")]
    #[diagnostic(help("Ctrl-C stopped the count; nothing else changed"))]
    Interrupted,
    #[error("perft stopped after counting more than {0} nodes")]
    #[diagnostic(help("the node limit bounds the work; give a smaller depth"))]
    NodeLimit(u64),
    #[error(transparent)]
    #[diagnostic(transparent)]
    TooManyRoutes(#[from] TooManyRoutes),
}

impl From<Interrupted> for PerftError {
    fn from(_: Interrupted) -> PerftError {
        PerftError::Interrupted
    }
}

/// Run `$e` on the narrowest width the board fits instead ([`Rules::narrow`], [`Rules::mid`]),
/// when there is one: `$n` names those rules in `$e`.
macro_rules! on_narrower {
    ($self:ident, $n:ident => $e:expr) => {
        if let Some($n) = &$self.narrow {
            return $e;
        }
        if let Some($n) = &$self.mid {
            return $e;
        }
    };
}

/// Positions generated between two looks at the Ctrl-C flag and the shared node count.
const POLL_EVERY: u64 = 4096;

/// The state of a bounded perft on one thread: its share of the count not yet published.
struct Bounded<'a> {
    limits: PerftLimits,
    calls: u64,
    pending: u64,
    total: &'a AtomicU64,
}

impl Bounded<'_> {
    #[inline(always)]
    fn tick(&mut self, nodes: u64) -> Result<(), PerftError> {
        self.pending += nodes;
        self.calls += 1;
        if self.calls.is_multiple_of(POLL_EVERY) {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), PerftError> {
        let total = self.total.fetch_add(self.pending, Ordering::Relaxed) + self.pending;
        self.pending = 0;
        if interrupt::requested() {
            return Err(PerftError::Interrupted);
        }
        if total > self.limits.max_nodes {
            return Err(PerftError::NodeLimit(self.limits.max_nodes));
        }
        Ok(())
    }
}

/// Reusable move buffers, one per ply, so perft allocates nothing once warmed up.
pub struct Buffers<B: BitSet = crate::engine::geometry::Bits>(Vec<Vec<Move<B>>>);

impl<B: BitSet> Buffers<B> {
    pub fn new(depth: usize) -> Buffers<B> {
        Buffers((0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect())
    }
}

impl<B: BitSet> Rules<B> {
    /// perft(depth) of `pos`, single-threaded.
    pub fn perft(&self, pos: &Position<B>, depth: usize, opts: GenOptions) -> u64 {
        on_narrower!(self, n => n.perft(&pos.to_width(), depth, opts));
        let mut bufs = Buffers::<B>::new(depth);
        self.perft_with(pos, depth, opts, &mut bufs.0)
    }

    fn perft_with(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        bufs: &mut [Vec<Move<B>>],
    ) -> u64 {
        if self.special {
            self.perft_as::<true>(pos, depth, opts, bufs)
        } else {
            self.perft_as::<false>(pos, depth, opts, bufs)
        }
    }

    /// `SPECIAL`: as in [`Rules::perft_bounded_as`].
    fn perft_as<const SPECIAL: bool>(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        bufs: &mut [Vec<Move<B>>],
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs
            .split_first_mut()
            .expect("one buffer per ply was allocated");
        if depth == 1 {
            return self
                .count_leaf_as::<SPECIAL>(pos, buf, opts, u64::MAX)
                .unwrap_or_default();
        }
        self.generate(pos, buf, opts);
        let mut n = 0;
        for mv in buf.iter() {
            n += self.perft_as::<SPECIAL>(&pos.play_as::<SPECIAL>(mv), depth - 1, opts, rest);
        }
        n
    }

    /// perft(depth) of each root move (the `--divide` listing), in generation order.
    pub fn divide(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        threads: usize,
    ) -> Vec<(Move<B>, u64)> {
        on_narrower!(self, n => {
            let list = n.divide(&pos.to_width(), depth, opts, threads);
            list.iter().map(|(m, c)| (m.to_width(), *c)).collect()
        });
        let mut roots = Vec::new();
        self.generate(pos, &mut roots, opts);
        let count = |mv: &Move<B>| {
            let n = if depth <= 1 {
                1
            } else {
                self.perft(&pos.play(mv), depth - 1, opts)
            };
            (*mv, n)
        };
        if threads > 1 {
            match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| roots.par_iter().map(count).collect()),
                Err(_) => roots.iter().map(count).collect(),
            }
        } else {
            roots.iter().map(count).collect()
        }
    }

    /// perft(depth) of `pos` that stops early, with an error, when Ctrl-C was pressed
    /// ([`interrupt::requested`], polled every few thousand positions), when more than
    /// `limits.max_nodes` were counted, or when a position's capture search exceeds
    /// `limits.route_budget`. The root moves are split over `threads` threads when more than one.
    /// The caller resets the Ctrl-C flag ([`interrupt::reset`]) before starting.
    pub fn perft_interruptible(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        threads: usize,
        limits: PerftLimits,
    ) -> Result<u64, PerftError> {
        on_narrower!(self, n => n.perft_interruptible(&pos.to_width(), depth, opts, threads, limits));
        if threads <= 1 || depth <= 2 {
            let total = AtomicU64::new(0);
            let mut b = Bounded {
                limits,
                calls: 0,
                pending: 0,
                total: &total,
            };
            let mut bufs = Buffers::<B>::new(depth);
            let n = self.perft_bounded(pos, depth, opts, &mut bufs.0, &mut b)?;
            b.flush()?;
            return Ok(n);
        }
        Ok(self
            .divide_interruptible(pos, depth, opts, threads, limits)?
            .iter()
            .map(|(_, n)| n)
            .sum())
    }

    /// [`Rules::divide`] under the bounds of [`Rules::perft_interruptible`].
    pub fn divide_interruptible(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        threads: usize,
        limits: PerftLimits,
    ) -> Result<Vec<(Move<B>, u64)>, PerftError> {
        on_narrower!(self, n => {
            let list = n.divide_interruptible(&pos.to_width(), depth, opts, threads, limits)?;
            Ok(list.iter().map(|(m, c)| (m.to_width(), *c)).collect())
        });
        let mut roots = Vec::new();
        self.generate_within(pos, &mut roots, opts, limits.route_budget)?;
        let total = AtomicU64::new(0);
        let count = |mv: &Move<B>| -> Result<(Move<B>, u64), PerftError> {
            let mut b = Bounded {
                limits,
                calls: 0,
                pending: 0,
                total: &total,
            };
            let mut bufs = Buffers::<B>::new(depth.saturating_sub(1));
            let n = if depth <= 1 {
                1
            } else {
                self.perft_bounded(&pos.play(mv), depth - 1, opts, &mut bufs.0, &mut b)?
            };
            b.flush()?;
            Ok((*mv, n))
        };
        if threads > 1 {
            if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                return pool.install(|| roots.par_iter().map(count).collect());
            }
        }
        roots.iter().map(count).collect()
    }

    /// The bounded count of [`Rules::perft_interruptible`]: [`Rules::special`] is tested once,
    /// here, and not at every node.
    fn perft_bounded(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        bufs: &mut [Vec<Move<B>>],
        b: &mut Bounded,
    ) -> Result<u64, PerftError> {
        if self.special {
            self.perft_bounded_as::<true>(pos, depth, opts, bufs, b)
        } else {
            self.perft_bounded_as::<false>(pos, depth, opts, bufs, b)
        }
    }

    /// `SPECIAL`: the rules may have huffing or approach captures ([`Rules::special`]); when
    /// false, the leaf count and the moves played skip their tests for them.
    fn perft_bounded_as<const SPECIAL: bool>(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        bufs: &mut [Vec<Move<B>>],
        b: &mut Bounded,
    ) -> Result<u64, PerftError> {
        if depth == 0 {
            return Ok(1);
        }
        let (buf, rest) = bufs
            .split_first_mut()
            .expect("one buffer per ply was allocated");
        if depth == 1 {
            let n = self.count_leaf_as::<SPECIAL>(pos, buf, opts, b.limits.route_budget)?;
            b.tick(n)?;
            return Ok(n);
        }
        self.generate_within(pos, buf, opts, b.limits.route_budget)?;
        b.tick(0)?;
        let mut n = 0;
        for mv in buf.iter() {
            let next = pos.play_as::<SPECIAL>(mv);
            n += self.perft_bounded_as::<SPECIAL>(&next, depth - 1, opts, rest, b)?;
        }
        Ok(n)
    }

    /// perft(depth), the root moves split over `threads` threads when more than one.
    pub fn perft_threads(
        &self,
        pos: &Position<B>,
        depth: usize,
        opts: GenOptions,
        threads: usize,
    ) -> u64 {
        if threads <= 1 || depth <= 2 {
            return self.perft(pos, depth, opts);
        }
        self.divide(pos, depth, opts, threads)
            .iter()
            .map(|(_, n)| n)
            .sum()
    }
}
