//! The learned evaluation's features, derived from the compiled rules alone (board geometry and the
//! pieces' programs, never a variant's name), and the evaluation that sums their weights.
//!
//! Every feature is counted from the first side's point of view (a second-side piece counts −1),
//! each side with weights of its own, so no symmetry of the board or of the rules is assumed:
//!
//! - **piece-square**: one weight per (side, kind, square): material and advancement (tempo) in one;
//! - **mobility**: per (side, kind), the empty squares its step and slide directions reach in one
//!   step (as the derived evaluation counts them);
//! - **runaway**: per (side, distance 1 to [`RUN_DIST`]), men whose quiet steps reach their
//!   promotion zone in that many steps through empty squares with no enemy piece beside the path;
//! - **side to move**: one weight, the value of having the move;
//! - **races** (only in layouts that ask for them: `train --race`): per (side, kind) the pieces'
//!   count; per side its free men (men at most [`RACE_DIST`] steps from their zone with no enemy
//!   piece in their cone: the squares their quiet steps reach on the way and the squares beside
//!   them), and the tempi of its fastest free man; when both sides have one, who queens first:
//!   the margin of tempi with the side to move counted, from −[`RACE_MARGIN`] to
//!   +[`RACE_MARGIN`]. Without `--phases`, these and the small features above (mobility,
//!   runaways, side to move) have an ending weight too, blended with the opening's by the phase
//!   (tapered by material); the squares and windows keep one, so the evaluation still keeps
//!   them up to date or gathers them;
//! - **patterns**: every window of four neighbouring squares (a 2x2 block on boards of all squares,
//!   a diamond of two diagonal steps on dark-squares boards) has one weight per configuration of
//!   its squares (empty, first side, second side: 3^4 = 81). Layouts can ask for larger
//!   windows ([`Window`], `train --window 2x4`): A squares by B along the same two directions,
//!   each window with its own table of 3^(A x B) configurations; and for up to [`MAX_SHAPES`]
//!   shapes side by side (`train --window 2x2+2x4`), each shape's windows with their tables;
//! - **wide patterns** (only in layouts that ask for them: `train --wide-patterns`): every window
//!   of nine squares (a 3x3 block, or a diamond of three diagonal steps each way) has its
//!   configuration (3^9 = 19683) looked up in one table shared by all windows: formations the
//!   small windows are too narrow to see, learned from every place they occur.
//! - **phases** (only in layouts that ask for them: `train --phases`): every feature above has two
//!   weights, one for the opening and one for the ending, blended by the share of the starting
//!   pieces that have left the board ([`PHASES`] steps): what a formation or a square is worth
//!   changes as the board empties.
//!
//! HOT PATH: [`Learned::evaluate`] allocates nothing; window indices are accumulated from per-square
//! tables into an array on the stack, or gathered ([`gathered`]). The search's
//! [`Learned::evaluate_mut`] keeps them up to date from the last position it scored instead
//! ([`incremental`]) where the processor does not gather in hardware.
//!
//! The module in parts: [`layout`] (window shapes and where each feature's weights sit),
//! [`features`] (a position's features, as training reads them), [`gathered`] (the windows read by
//! `pext`), [`incremental`] (the windows kept up to date from one position to the next) and here
//! the evaluation that sums the weights.

mod features;
mod gathered;
mod incremental;
mod layout;

pub use features::Features;
pub use gathered::gathers;
use gathered::Gathered;
use incremental::Incremental;
pub use layout::{parse_shapes, shapes_text, Layout, ShapeError, Shapes, Window};

use super::weights::Weights;
use crate::engine::bits::BitSet;
use crate::engine::{Position, Rules};

/// Runaway men are counted up to this many steps from their promotion zone.
pub const RUN_DIST: usize = 3;
/// Free men are counted up to this many steps (tempi) from their promotion zone (race layouts).
pub const RACE_DIST: usize = 6;
/// Who queens first: the margin of tempi between the two fastest free men, the side to move
/// counted, is told apart from −this to +this (race layouts).
pub const RACE_MARGIN: usize = 3;
/// The most squares a window of [`Window`]'s shape may hold: 3^8 = 6561 configurations each.
pub const MAX_CELLS: usize = 8;
/// The most windows a layout has, of all its shapes together (a 16x16 board of all squares has
/// 15 x 15 four-square ones); past it, the last are left out (the layout line counts them).
pub const MAX_WINDOWS: usize = 256;
/// The most window shapes one layout has side by side (`train --window 2x2+2x4`).
pub const MAX_SHAPES: usize = 3;
/// The most windows one square is in: every square of every shape.
const MAX_MEMBERS: usize = MAX_SHAPES * MAX_CELLS;
/// Configurations of a wide window: 3 states on each of its 9 squares.
pub const WIDE_CONFIGS: usize = 19_683;
/// The squares of a wide window.
pub const WIDE: usize = 9;
/// Stored weights are in quarters of a score unit: finer than the search's hundredths.
pub const SHIFT: u32 = 2;
/// A learned score never reaches the range of won and lost scores.
pub const CLAMP: i32 = 20_000;
/// Steps of the game phase, from the start (0) to the ending (all of them).
pub const PHASES: i32 = 16;
/// `PHASES` as a power of two: a phased feature's values are scaled by this many bits.
pub const PHASE_BITS: u32 = 4;

/// The learned evaluation in one bit-set width: the features' tables and their weights.
#[derive(Clone, Debug)]
pub struct Learned<B: BitSet> {
    pub features: Features<B>,
    w: Vec<i32>,
    /// The windows' tables for gathering, where the processor and the layout allow it.
    gathered: Option<Gathered>,
    /// The windows and squares of the last position [`Learned::evaluate_mut`] scored, where
    /// the layout has one set of weights and no wide windows.
    incremental: Option<Box<Incremental<B>>>,
}

impl<B: BitSet> Learned<B> {
    /// The evaluation of `weights` on these rules (the weights were checked against them when
    /// loaded: same fingerprint, same layout).
    pub fn new(weights: &Weights, rules: &Rules<B>) -> Learned<B> {
        let features = Features::with(rules, Layout::from_summary(rules, &weights.layout));
        let mut w = weights.values.clone();
        w.resize(features.layout.len, 0);
        let gathered = Gathered::new::<B>(&features.layout, &w);
        // Where the processor gathers in hardware, gathering every window costs fewer
        // instructions than keeping them up to date (docs/strength.md, node rate).
        let incremental = (gathered.is_none() && Self::increments(&features.layout))
            .then(|| Box::new(Incremental::new()));
        Learned {
            features,
            w,
            gathered,
            incremental,
        }
    }

    /// Whether a layout's windows can be kept up to date: one set of weights, no wide windows.
    fn increments(layout: &Layout) -> bool {
        !layout.phased && layout.wide.is_empty()
    }

    /// The same evaluation, [`Learned::evaluate_mut`] incremental wherever the layout allows it,
    /// gathering or not (the tests' way to reach it on every processor).
    pub fn with_increments(mut self) -> Learned<B> {
        if Self::increments(&self.features.layout) {
            self.incremental = Some(Box::new(Incremental::new()));
        }
        self
    }

    /// The same evaluation, [`Learned::evaluate_mut`] never incremental: the reference it is
    /// tested against.
    pub fn without_increments(mut self) -> Learned<B> {
        self.incremental = None;
        self
    }

    /// Whether [`Learned::evaluate_mut`] keeps the windows up to date from the last position.
    pub fn is_incremental(&self) -> bool {
        self.incremental.is_some()
    }

    /// [`Learned::evaluate`], the same score, counting only what changed since the last position
    /// this scored (the search's way: consecutive positions differ on a few squares).
    #[inline]
    pub fn evaluate_mut(&mut self, pos: &Position<B>) -> i32 {
        let Some(inc) = &mut self.incremental else {
            return self.evaluate(pos);
        };
        let w = &self.w;
        let body = inc.sum(&self.features, w, pos);
        let white = if self.features.layout.tapered > 0 {
            self.tapered::<false, false>(pos, body)
        } else {
            let mut sum = body;
            self.features
                .visit_with::<false, false>(pos, |i, v| sum += w[i] * v);
            (sum + (1 << (SHIFT - 1))) >> SHIFT
        };
        let s = if pos.turn() == 0 { white } else { -white };
        s.clamp(-CLAMP, CLAMP)
    }

    /// The first side's score of a race layout without phases ([`Layout::tapered`]): `body`
    /// (what [`Features::visit_with`] leaves out) and the visited features' weights, the small
    /// features' opening and ending weights blended by the phase.
    #[inline]
    fn tapered<const WINDOWS: bool, const SQUARES: bool>(
        &self,
        pos: &Position<B>,
        body: i32,
    ) -> i32 {
        let w = &self.w;
        let l = &self.features.layout;
        let (small, off) = (l.mobility..l.patterns, l.taper - l.mobility);
        let (mut sum, mut open, mut end) = (body, 0i32, 0i32);
        self.features.visit_with::<WINDOWS, SQUARES>(pos, |i, v| {
            if small.contains(&i) {
                open += w[i] * v;
                end += w[i + off] * v;
            } else {
                sum += w[i] * v;
            }
        });
        let p = self.features.phase(pos);
        let sum = sum * PHASES + open * (PHASES - p) + end * p;
        (sum + (1 << (SHIFT + PHASE_BITS - 1))) >> (SHIFT + PHASE_BITS)
    }

    /// The same evaluation, never gathered: each piece adds its share to its windows (the
    /// reference the gathered evaluation is tested against).
    pub fn ungathered(mut self) -> Learned<B> {
        self.gathered = None;
        self
    }

    /// Whether the windows are scored by gathering.
    pub fn is_gathered(&self) -> bool {
        self.gathered.is_some()
    }

    /// The score of `pos` for the side to move, in the search's units.
    #[inline]
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        let w = &self.w;
        let white = if self.features.layout.phased {
            // The opening's and the ending's sums, blended by the phase.
            let ending = &w[self.features.layout.base..];
            let (mut open, mut end) = (0i32, 0i32);
            self.features.visit(pos, |i, v| {
                open += w[i] * v;
                end += ending[i] * v;
            });
            let p = self.features.phase(pos);
            let sum = open * (PHASES - p) + end * p;
            (sum + (1 << (SHIFT + PHASE_BITS - 1))) >> (SHIFT + PHASE_BITS)
        } else if self.features.layout.tapered > 0 {
            // The gathered windows and the squares summed apart, each in a register: visited
            // one by one the squares would add into memory through the closure, each waiting
            // for the last (docs/strength.md, node rate).
            match &self.gathered {
                Some(g) => {
                    let body = g.sum(pos) + self.features.squares_sum(pos, w);
                    self.tapered::<false, false>(pos, body)
                }
                None => self.tapered::<true, true>(pos, 0),
            }
        } else if let Some(g) = &self.gathered {
            let mut sum = g.sum(pos) + self.features.squares_sum(pos, w);
            self.features
                .visit_with::<false, false>(pos, |i, v| sum += w[i] * v);
            (sum + (1 << (SHIFT - 1))) >> SHIFT
        } else {
            let mut sum = 0i32;
            // Every index comes from the layout the weights were checked against.
            self.features.visit(pos, |i, v| sum += w[i] * v);
            (sum + (1 << (SHIFT - 1))) >> SHIFT
        };
        let s = if pos.turn() == 0 { white } else { -white };
        s.clamp(-CLAMP, CLAMP)
    }
}
