//! The transposition table: a fixed array of entries (its size set in MiB), indexed by the low bits
//! of the Zobrist hash and checked by the whole hash; always-replace.

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
}

pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of at most `mib` MiB (at least one entry: `0` gives a table of one), cleared.
    pub fn new(mib: usize) -> Table {
        let bytes = (mib * 1024 * 1024).max(std::mem::size_of::<Entry>());
        let mut n = (bytes / std::mem::size_of::<Entry>())
            .max(1)
            .next_power_of_two();
        if n * std::mem::size_of::<Entry>() > bytes {
            n /= 2;
        }
        Table {
            entries: vec![Entry::default(); n.max(1)],
            mask: n.max(1) - 1,
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && key != 0).then_some(e)
    }

    /// Start loading the entry of `key` into the cache (a child's, before it is searched).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer is in bounds (masked index); a prefetch reads nothing and has no
        // effect but on the cache.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.entries.as_ptr().add(key as usize & self.mask);
            _mm_prefetch(p as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    pub fn store(&mut self, key: u64, depth: i32, flag: u8, score: Score, mv: u16) {
        let e = &mut self.entries[key as usize & self.mask];
        *e = Entry {
            key,
            score: score as i16,
            mv,
            depth: depth.clamp(-128, 127) as i8,
            flag,
        };
    }
}
