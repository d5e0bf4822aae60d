//! The transposition table: buckets of four entries, one cache line each (its size set in MiB),
//! indexed by the low bits of the Zobrist hash and checked by the whole hash. A position is stored
//! over its own entry, else over the least useful entry of its bucket: an empty one, else the
//! shallowest, entries of earlier searches counting as shallower ([`Table::new_search`]).

use super::Score;

pub const EXACT: u8 = 0;
pub const LOWER: u8 = 1;
pub const UPPER: u8 = 2;

#[derive(Clone, Copy, Default)]
pub struct Entry {
    pub key: u64,
    pub score: i16,
    /// Index of the best move in the generator's (deterministic) move list, `u16::MAX` for none.
    pub mv: u16,
    pub depth: i8,
    pub flag: u8,
    /// The search that stored it ([`Table::new_search`]), modulo 256.
    pub generation: u8,
}

const WAYS: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; WAYS]);

pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `mib` MiB (at least one bucket: `0` gives a table of one), cleared.
    pub fn new(mib: usize) -> Table {
        let size = std::mem::size_of::<Bucket>();
        let bytes = (mib * 1024 * 1024).max(size);
        let mut n = (bytes / size).max(1).next_power_of_two();
        if n * size > bytes {
            n /= 2;
        }
        let n = n.max(1);
        Table {
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// A new search begins: what earlier ones stored gives way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.buckets.len() * WAYS
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[self.bucket(key)].0;
        b.iter().find(|e| e.key == key && key != 0).copied()
    }

    /// Start loading the bucket of `key` into the cache (a child's, before it is searched).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer is in bounds (masked index); a prefetch reads nothing and has no
        // effect but on the cache.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.buckets.as_ptr().add(self.bucket(key));
            _mm_prefetch(p as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    pub fn store(&mut self, key: u64, depth: i32, flag: u8, score: Score, mv: u16) {
        let generation = self.generation;
        let i = self.bucket(key);
        let b = &mut self.buckets[i].0;
        let slot = if let Some(s) = b.iter().position(|e| e.key == key) {
            s
        } else {
            // The least useful entry: empty, else the shallowest, an older search's entry
            // counting four plies shallower per search since.
            let worth = |e: &Entry| {
                if e.key == 0 {
                    i32::MIN
                } else {
                    e.depth as i32 - 4 * generation.wrapping_sub(e.generation) as i32
                }
            };
            (1..WAYS).fold(0, |v, s| if worth(&b[s]) < worth(&b[v]) { s } else { v })
        };
        b[slot] = Entry {
            key,
            score: score as i16,
            mv,
            depth: depth.clamp(-128, 127) as i8,
            flag,
            generation,
        };
    }
}
