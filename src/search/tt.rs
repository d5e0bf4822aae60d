//! The transposition table: buckets of four entries, one cache line each (its size set in MiB),
//! indexed by the low bits of the Zobrist hash and checked by the whole hash. A position is stored
//! over its own entry, else over the least useful entry of its bucket: an empty one, else the
//! shallowest, entries of earlier searches counting as shallower ([`Table::new_search`]).
//!
//! The table is shared by the threads of a parallel search without locks: an entry is two
//! atomic words, its data and its hash XOR its data. A reader takes an entry only when the two
//! agree with its hash, so an entry that another thread was writing half-way (one word new, one
//! old) is read as absent, never as another position's.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use super::Score;

pub const EXACT: u8 = 0;
pub const LOWER: u8 = 1;
pub const UPPER: u8 = 2;

#[derive(Clone, Copy, Default, Debug, PartialEq)]
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

impl Entry {
    /// The entry's fields but its key, in one word (bit 56 set: a stored entry is never 0).
    #[inline(always)]
    fn pack(&self) -> u64 {
        (self.score as u16 as u64)
            | (self.mv as u64) << 16
            | (self.depth as u8 as u64) << 32
            | (self.flag as u64) << 40
            | (self.generation as u64) << 48
            | 1 << 56
    }

    #[inline(always)]
    fn unpack(key: u64, d: u64) -> Entry {
        Entry {
            key,
            score: d as u16 as i16,
            mv: (d >> 16) as u16,
            depth: (d >> 32) as u8 as i8,
            flag: (d >> 40) as u8,
            generation: (d >> 48) as u8,
        }
    }
}

const WAYS: usize = 4;
/// Words per bucket: two per entry, 64 bytes.
const WORDS: usize = 2 * WAYS;

pub struct Table {
    /// `WORDS` words a bucket: for each entry, its hash XOR its data, then its data (0: empty).
    /// The buckets start at word `base`, on a cache line's boundary (the allocation is only
    /// aligned to a word, so it holds a bucket's words more than the buckets need).
    words: Box<[AtomicU64]>,
    base: usize,
    mask: usize,
    generation: AtomicU8,
}

/// `n` atomic words, zero, from the allocator's zeroed memory: a large table's pages are not
/// written (nor touched) until the search stores into them.
fn zeroed_words(n: usize) -> Box<[AtomicU64]> {
    // `vec![0u64; n]` asks the allocator for zeroed memory rather than writing the zeros.
    let words = vec![0u64; n].into_boxed_slice();
    const _: () = assert!(
        std::mem::size_of::<AtomicU64>() == std::mem::size_of::<u64>()
            && std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()
    );
    let len = words.len();
    ask_for_huge_pages(words.as_ptr() as usize, len * 8);
    let ptr = Box::into_raw(words) as *mut AtomicU64;
    // SAFETY: `AtomicU64` has the size, alignment (checked above) and bit validity of `u64`, so
    // the allocation of `len` words is one of `len` atomic words, freed with the same layout.
    unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) }
}

/// Ask the kernel to back the table with huge pages where it can (Linux's transparent huge pages,
/// `madvise` mode): a probe into a large table then misses the TLB far less often. Only the whole
/// pages inside the allocation are advised; the advice changes no content and a refusal (another
/// kernel, huge pages off) changes nothing.
fn ask_for_huge_pages(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const HUGE: usize = 2 << 20;
        if bytes < HUGE {
            return;
        }
        let first = start.next_multiple_of(PAGE);
        let end = (start + bytes) / PAGE * PAGE;
        if end > first {
            // SAFETY: [first, end) is whole pages inside the allocation just made; MADV_HUGEPAGE
            // is advice about how to back them and leaves their contents (zero) as they are.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

impl Table {
    /// A table of at most `mib` MiB (at least one bucket: `0` gives a table of one), cleared.
    pub fn new(mib: usize) -> Table {
        let size = WORDS * 8;
        let bytes = (mib * 1024 * 1024).max(size);
        let mut n = (bytes / size).max(1).next_power_of_two();
        if n * size > bytes {
            n /= 2;
        }
        let n = n.max(1);
        let words = zeroed_words(n * WORDS + WORDS - 1);
        // The first word on a 64-byte boundary: a bucket is then one cache line, loaded (and
        // prefetched) at once, not two.
        let base = (words.as_ptr() as usize).wrapping_neg() % 64 / 8;
        Table {
            words,
            base,
            mask: n - 1,
            generation: AtomicU8::new(0),
        }
    }

    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// A new search begins: what earlier ones stored gives way first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        (self.mask + 1) * WAYS
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The first word of `key`'s bucket.
    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        self.base + (key as usize & self.mask) * WORDS
    }

    /// The entry in slot `s` of the bucket at `b`, if it holds `key`.
    #[inline(always)]
    fn read(&self, b: usize, s: usize, key: u64) -> Option<Entry> {
        let check = self.words[b + 2 * s].load(Relaxed);
        let data = self.words[b + 2 * s + 1].load(Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(key, data))
    }

    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        let b = self.bucket(key);
        (0..WAYS).find_map(|s| self.read(b, s, key))
    }

    /// Start loading the bucket of `key` into the cache (a child's, before it is searched).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer is in bounds (masked index); a prefetch reads nothing and has no
        // effect but on the cache.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.words.as_ptr().add(self.bucket(key));
            _mm_prefetch(p as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    pub fn store(&self, key: u64, depth: i32, flag: u8, score: Score, mv: u16) {
        let generation = self.generation.load(Relaxed);
        let b = self.bucket(key);
        let slot = if let Some(s) = (0..WAYS).find(|&s| self.read(b, s, key).is_some()) {
            s
        } else {
            // The least useful entry: empty, else the shallowest, an older search's entry
            // counting four plies shallower per search since.
            let worth = |s: usize| {
                let data = self.words[b + 2 * s + 1].load(Relaxed);
                if data == 0 {
                    i32::MIN
                } else {
                    let e = Entry::unpack(0, data);
                    e.depth as i32 - 4 * generation.wrapping_sub(e.generation) as i32
                }
            };
            (1..WAYS).fold(0, |v, s| if worth(s) < worth(v) { s } else { v })
        };
        let data = Entry {
            key,
            score: score as i16,
            mv,
            depth: depth.clamp(-128, 127) as i8,
            flag,
            generation,
        }
        .pack();
        self.words[b + 2 * slot].store(key ^ data, Relaxed);
        self.words[b + 2 * slot + 1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_stored() {
        let t = Table::new(1);
        let key = 0x1234_5678_9abc_def1;
        t.store(key, -3, UPPER, -1234, 7);
        let e = t.probe(key).expect("stored");
        assert_eq!(
            (e.key, e.score, e.mv, e.depth, e.flag, e.generation),
            (key, -1234, 7, -3, UPPER, 0)
        );
        assert_eq!(t.probe(key ^ 1 << 40), None);
        t.clear();
        assert_eq!(t.probe(key), None);
    }

    #[test]
    fn a_table_advised_into_huge_pages_starts_empty_and_holds_every_bucket() {
        // 8 MiB: four huge pages' worth, advised; the advice must change no content.
        let t = Table::new(8);
        assert_eq!(t.len(), 8 << 20 >> 4);
        let first = t.words.as_ptr() as usize + 8 * t.bucket(0);
        assert_eq!(first % 64, 0, "a bucket is one cache line");
        assert!(t.bucket(u64::MAX) + WORDS <= t.words.len());
        let buckets = t.len() / WAYS;
        for b in (0..buckets).step_by(4099) {
            let key = (b as u64) | 0x5a5a << 48;
            assert_eq!(t.probe(key), None, "bucket {b} starts empty");
            t.store(key, 5, EXACT, (b % 1000) as Score, 3);
        }
        for b in (0..buckets).step_by(4099) {
            let key = (b as u64) | 0x5a5a << 48;
            let e = t.probe(key).expect("stored");
            assert_eq!((e.score, e.depth), ((b % 1000) as i16, 5), "bucket {b}");
        }
    }

    #[test]
    fn a_half_written_entry_reads_as_absent() {
        let t = Table::new(0);
        let (a, b) = (0x10, 0x20);
        t.store(a, 5, EXACT, 10, 1);
        t.store(b, 6, LOWER, 20, 2);
        // Tear slot 0: the data of b's entry with a's check word.
        let db = t.words[t.base + 3].load(Relaxed);
        t.words[t.base + 1].store(db, Relaxed);
        assert_eq!(t.probe(a), None);
        assert_eq!(t.probe(b).map(|e| e.score), Some(20));
    }

    #[test]
    fn a_full_bucket_gives_way_to_the_shallowest_and_older_entries() {
        let t = Table::new(0);
        for (i, d) in [(1u64, 9), (2, 3), (3, 7), (4, 8)] {
            t.store(i << 8, d, EXACT, 0, 0);
        }
        t.store(5 << 8, 4, EXACT, 0, 0);
        assert_eq!(t.probe(2 << 8), None, "the shallowest went");
        t.new_search();
        t.new_search();
        t.store(6 << 8, 1, EXACT, 0, 0);
        assert!(t.probe(6 << 8).is_some());
        assert!(t.probe(1 << 8).is_some(), "the deepest old entry stays");
    }

    #[test]
    fn threads_store_and_probe_at_once() {
        let t = std::sync::Arc::new(Table::new(0));
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let t = t.clone();
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = (i % 16 + 1) << 8 | id;
                        t.store(key, (i % 50) as i32, EXACT, (id * 100) as Score, id as u16);
                        if let Some(e) = t.probe(key) {
                            // An entry read is always the one of its own key.
                            assert_eq!(e.mv as u64, e.key & 0xff);
                        }
                    }
                });
            }
        });
    }
}
