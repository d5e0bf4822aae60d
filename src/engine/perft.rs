//! Perft: the number of legal move sequences of a given length, with bulk counting at the last ply
//! and an optional split of the root moves over threads.

use super::movegen::GenOptions;
use super::moves::Move;
use super::position::Position;
use super::rules::Rules;
use rayon::prelude::*;

/// Reusable move buffers, one per ply, so perft allocates nothing once warmed up.
pub struct Buffers(Vec<Vec<Move>>);

impl Buffers {
    pub fn new(depth: usize) -> Buffers {
        Buffers((0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect())
    }
}

impl Rules {
    /// perft(depth) of `pos`, single-threaded.
    pub fn perft(&self, pos: &Position, depth: usize, opts: GenOptions) -> u64 {
        let mut bufs = Buffers::new(depth);
        self.perft_with(pos, depth, opts, &mut bufs.0)
    }

    fn perft_with(
        &self,
        pos: &Position,
        depth: usize,
        opts: GenOptions,
        bufs: &mut [Vec<Move>],
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs
            .split_first_mut()
            .expect("one buffer per ply was allocated");
        if depth == 1 {
            return self.count_moves(pos, buf, opts);
        }
        self.generate(pos, buf, opts);
        let mut n = 0;
        for mv in buf.iter() {
            n += self.perft_with(&pos.play(mv), depth - 1, opts, rest);
        }
        n
    }

    /// perft(depth) of each root move (the `--divide` listing), in generation order.
    pub fn divide(
        &self,
        pos: &Position,
        depth: usize,
        opts: GenOptions,
        threads: usize,
    ) -> Vec<(Move, u64)> {
        let mut roots = Vec::new();
        self.generate(pos, &mut roots, opts);
        let count = |mv: &Move| {
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

    /// perft(depth), the root moves split over `threads` threads when more than one.
    pub fn perft_threads(
        &self,
        pos: &Position,
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
