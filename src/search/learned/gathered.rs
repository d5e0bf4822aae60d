//! The windows read by gathering: each window's squares pulled out of the sides' bit sets with
//! BMI2's `pext`, where the processor runs it in hardware.

use super::{Layout, MAX_CELLS};
use crate::engine::bits::BitSet;
use crate::engine::Position;

/// The windows' weights re-ordered to be read by gathering: a window's configuration is the
/// bits of its squares pulled out of each side's set in one instruction (`pext`), then read as
/// base-3 digits from a table, instead of each piece adding its share to every window it is in.
/// Each table holds the same weights as the layout's, its configurations numbered with the
/// window's squares in the order of their bits rather than the layout's order.
#[derive(Clone, Debug)]
pub(super) struct Gathered {
    windows: Vec<Window>,
    /// Whether every window's squares are in the low 64 bits.
    low_only: bool,
    table: Vec<i32>,
    /// The bits of an index read as base-3 digits: `Σ 3^j` over its set bits `j`.
    ternary: [u16; 1 << MAX_CELLS],
}

/// One window as the sum reads it, all in one place.
#[derive(Clone, Copy, Debug)]
struct Window {
    /// Its squares among the low 64 bits of a set.
    low: u64,
    /// Its squares among the high 64 bits.
    high: u64,
    /// How many of its squares are low.
    nlow: u32,
    /// Where its table starts in `table`.
    start: u32,
}

/// A gathered index (a window's squares of one side, at most [`MAX_CELLS`] bits) as an index of
/// `ternary`: the mask changes nothing and tells the compiler it is in range.
const CELLS: usize = (1 << MAX_CELLS) - 1;

impl Gathered {
    /// The re-ordered tables of `w` in `layout`, when this processor gathers bits (BMI2) and the
    /// layout has one set of weights, no wide windows and squares within 128 bits.
    pub(super) fn new<B: BitSet>(layout: &Layout, w: &[i32]) -> Option<Gathered> {
        if !gathers() || layout.phased || !layout.wide.is_empty() || B::BITS > 128 {
            return None;
        }
        let mut windows = Vec::with_capacity(layout.windows.len());
        let mut table = Vec::new();
        for (win, &at) in layout.windows.iter().zip(&layout.tables) {
            let bits: Vec<u32> = win
                .iter()
                .map(|&sq| B::bit(sq).to_u128().trailing_zeros())
                .collect();
            let mask = bits.iter().fold(0u128, |m, &b| m | 1 << b);
            let low = mask as u64;
            windows.push(Window {
                low,
                high: (mask >> 64) as u64,
                nlow: low.count_ones(),
                start: table.len() as u32,
            });
            // Gathered digit j is the j-th lowest bit's square; the layout counts square k of
            // the window as 3^k.
            let mut order: Vec<usize> = (0..win.len()).collect();
            order.sort_by_key(|&k| bits[k]);
            let configs = 3usize.pow(win.len() as u32);
            for g in 0..configs {
                let (mut rest, mut index) = (g, 0);
                for &k in &order {
                    index += (rest % 3) * 3usize.pow(k as u32);
                    rest /= 3;
                }
                table.push(w[at + index]);
            }
        }
        let mut ternary = [0u16; 1 << MAX_CELLS];
        for (m, t) in ternary.iter_mut().enumerate() {
            *t = (0..MAX_CELLS)
                .filter(|j| m >> j & 1 == 1)
                .map(|j| 3u16.pow(j as u32))
                .sum();
        }
        let low_only = windows.iter().all(|w| w.high == 0);
        Some(Gathered {
            windows,
            low_only,
            table,
            ternary,
        })
    }

    /// The windows' weights summed for `pos`.
    #[inline(always)]
    pub(super) fn sum<B: BitSet>(&self, pos: &Position<B>) -> i32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Gathered` exists only where `gathers()` found BMI2 on this processor.
        unsafe {
            self.sum_bmi2(pos.sides[0].to_u128(), pos.sides[1].to_u128())
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = pos;
            unreachable!("no gathering without BMI2")
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn sum_bmi2(&self, first: u128, second: u128) -> i32 {
        use std::arch::x86_64::_pext_u64;
        let (fl, fh, sl, sh) = (
            first as u64,
            (first >> 64) as u64,
            second as u64,
            (second >> 64) as u64,
        );
        let t = &self.ternary;
        let mut sum = 0;
        // Two loops, so that the common case (every square in the low 64 bits: boards of up to
        // 64 padded squares) gathers two words a window, not four.
        if self.low_only {
            for w in &self.windows {
                let (a, b) = (_pext_u64(fl, w.low), _pext_u64(sl, w.low));
                let config = t[a as usize & CELLS] as usize + 2 * t[b as usize & CELLS] as usize;
                sum += self.table[w.start as usize + config];
            }
        } else {
            for w in &self.windows {
                let a = _pext_u64(fl, w.low) | _pext_u64(fh, w.high) << w.nlow;
                let b = _pext_u64(sl, w.low) | _pext_u64(sh, w.high) << w.nlow;
                let config = t[a as usize & CELLS] as usize + 2 * t[b as usize & CELLS] as usize;
                sum += self.table[w.start as usize + config];
            }
        }
        sum
    }
}

/// Whether this processor has BMI2's `pext` (the gathered evaluation), and runs it in hardware:
/// AMD processors before Zen 3 (family 0x19) run it in microcode, slower than the plain way.
pub fn gathers() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !std::is_x86_feature_detected!("bmi2") {
            return false;
        }
        let vendor = __cpuid(0);
        // "AuthenticAMD", in the order CPUID gives its three words.
        if (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163) {
            let eax = __cpuid(1).eax;
            let family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
            return family >= 0x19;
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
