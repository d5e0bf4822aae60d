//! The fit: weights that make `sigmoid(eval / K)` predict the games' results (mean squared error,
//! the "Texel" method), by full-batch Adam with a pull toward the starting weights. One thread, a
//! fixed order of sums: the same data and settings give the same weights bit for bit.

use super::Data;
use crate::search::learned::SHIFT;
use crate::search::weights::MAX_WEIGHT;

/// Adam's step size at the first pass, in score units (it falls linearly to a tenth).
const STEP: f64 = 1.0;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Row `r`'s evaluation for the first side, in score units.
#[inline]
fn eval(data: &Data, r: usize, w: &[f64]) -> f64 {
    let (a, b) = (data.start[r] as usize, data.start[r + 1] as usize);
    let mut e = 0.0;
    for k in a..b {
        e += w[data.idx[k] as usize] * data.val[k] as f64;
    }
    e / (1u32 << data.shift) as f64
}

/// The mean squared error of the prediction on the fitted rows (`held_out` false) or the
/// validation rows (`true`); 0 when there are none.
pub fn loss(data: &Data, w: &[f64], k: f64, held_out: bool) -> f64 {
    let mut sum = 0.0;
    let mut n = 0usize;
    for r in 0..data.rows() {
        if data.held_out[r] != held_out {
            continue;
        }
        let p = sigmoid(eval(data, r, w) / k);
        sum += (p - data.y[r] as f64).powi(2);
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// The scale `K` (score units) that fits the results best with these weights: a golden-section
/// search on log K from 10 to 5000.
pub fn fit_k(data: &Data, w: &[f64]) -> f64 {
    let f = |lk: f64| loss(data, w, lk.exp(), false);
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = hi - g * (hi - lo);
    let mut x2 = lo + g * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..40 {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = f(x2);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fit weights from `start`, pulled toward `anchor` with strength `l2`, for `epochs` passes;
/// the weights `held` marks (`--fit new`) keep their start values exactly. `progress` is told
/// each pass; `None` when interrupted.
#[allow(clippy::too_many_arguments)]
pub fn fit(
    data: &Data,
    start: &[f64],
    anchor: &[f64],
    held: Option<&[bool]>,
    k: f64,
    epochs: u32,
    l2: f64,
    progress: &dyn Fn(),
) -> Option<Vec<f64>> {
    let n = data.held_out.iter().filter(|h| !**h).count().max(1) as f64;
    let mut w = start.to_vec();
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    for epoch in 0..epochs {
        if crate::interrupt::requested() {
            return None;
        }
        grad.fill(0.0);
        for r in 0..data.rows() {
            if data.held_out[r] {
                continue;
            }
            let p = sigmoid(eval(data, r, &w) / k);
            let g =
                2.0 * (p - data.y[r] as f64) * p * (1.0 - p) / k / n / (1u32 << data.shift) as f64;
            let (a, b) = (data.start[r] as usize, data.start[r + 1] as usize);
            for j in a..b {
                grad[data.idx[j] as usize] += g * data.val[j] as f64;
            }
        }
        let step = STEP * (1.0 - 0.9 * epoch as f64 / epochs.max(1) as f64);
        let t = epoch as i32 + 1;
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        for j in 0..w.len() {
            let g = grad[j] + 2.0 * l2 * (w[j] - anchor[j]);
            m[j] = BETA1 * m[j] + (1.0 - BETA1) * g;
            v[j] = BETA2 * v[j] + (1.0 - BETA2) * g * g;
            // A weight no position uses keeps its value, and so does a held one.
            if g != 0.0 && !held.is_some_and(|h| h[j]) {
                w[j] -= step * (m[j] / c1) / ((v[j] / c2).sqrt() + EPSILON);
            }
        }
        progress();
    }
    Some(w)
}

/// Weights as the file stores them: integers in quarters of a score unit, within the bound.
pub fn quantise(w: &[f64]) -> Vec<i32> {
    let scale = (1 << SHIFT) as f64;
    w.iter()
        .map(|x| ((x * scale).round() as i64).clamp(-(MAX_WEIGHT as i64), MAX_WEIGHT as i64) as i32)
        .collect()
}

/// Stored weights back in score units.
pub fn dequantise(w: &[i32]) -> Vec<f64> {
    let scale = (1 << SHIFT) as f64;
    w.iter().map(|&x| x as f64 / scale).collect()
}
