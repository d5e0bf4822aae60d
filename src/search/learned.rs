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
//! tables into an array on the stack.

use super::weights::Weights;
use crate::engine::bits::BitSet;
use crate::engine::geometry::{BitIter, Sq, NONE};
use crate::engine::rules::MAX_KINDS;
use crate::engine::{Position, Rules};

/// Runaway men are counted up to this many steps from their promotion zone.
pub const RUN_DIST: usize = 3;
/// Configurations of a small window: 3 states on each of its 4 squares.
pub const CONFIGS: usize = 81;
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

/// The shape of the pattern windows: `along` squares in the first direction of a window (east,
/// or the first forward diagonal on dark-squares boards) by `across` in the second (north, or
/// the other forward diagonal). Each window has a table of its own of 3^(along x across)
/// configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Window {
    pub along: u8,
    pub across: u8,
}

impl Window {
    /// The four-square windows every layout had before shapes could be chosen.
    pub const SMALL: Window = Window {
        along: 2,
        across: 2,
    };

    /// The squares of a window.
    pub fn cells(self) -> usize {
        self.along as usize * self.across as usize
    }

    /// Its configurations: 3 states on each square.
    pub fn configs(self) -> usize {
        3usize.pow(self.cells() as u32)
    }

    /// `AxB`, as `train --window` and the layout line write it.
    pub fn parse(text: &str) -> Result<Window, String> {
        let bad = || {
            format!(
                "window `{text}` is not two sizes like `2x4`, with 2 to {MAX_CELLS} squares \
                 in all"
            )
        };
        let (a, b) = text.split_once('x').ok_or_else(bad)?;
        let along: u8 = a.trim().parse().map_err(|_| bad())?;
        let across: u8 = b.trim().parse().map_err(|_| bad())?;
        let w = Window { along, across };
        if along == 0 || across == 0 || w.cells() > MAX_CELLS || w.cells() < 2 {
            return Err(bad());
        }
        Ok(w)
    }
}

/// Window shapes side by side, as `train --window` and the layout line write them: `2x2`, or
/// several joined by `+` (`2x2+2x4`), each with windows and tables of its own.
pub fn parse_shapes(text: &str) -> Result<Vec<Window>, String> {
    let shapes = text
        .split('+')
        .map(Window::parse)
        .collect::<Result<Vec<_>, _>>()?;
    if shapes.len() > MAX_SHAPES {
        return Err(format!(
            "`{text}` has {} window shapes; at most {MAX_SHAPES} go side by side",
            shapes.len()
        ));
    }
    if let Some(w) = shapes
        .iter()
        .enumerate()
        .find_map(|(i, w)| shapes[..i].contains(w).then_some(w))
    {
        return Err(format!("`{text}` names the window shape {w} twice"));
    }
    Ok(shapes)
}

/// Window shapes side by side, as `train --window` takes them ([`parse_shapes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shapes(pub Vec<Window>);

impl Shapes {
    /// `2x2`, `2x4`, or shapes joined by `+`.
    pub fn parse(text: &str) -> Result<Shapes, String> {
        parse_shapes(text).map(Shapes)
    }
}

/// Shapes as [`parse_shapes`] reads them.
pub fn shapes_text(shapes: &[Window]) -> String {
    let words: Vec<String> = shapes.iter().map(|w| w.to_string()).collect();
    words.join("+")
}

impl std::fmt::Display for Window {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.along, self.across)
    }
}

impl Default for Window {
    fn default() -> Window {
        Window::SMALL
    }
}

/// Where each group of features sits in the flat weight vector (the same for every width).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub kinds: usize,
    /// Square indices of the board (playable or not).
    pub squares: usize,
    /// The windows' shapes, side by side (one unless `train --window` named more).
    pub shapes: Vec<Window>,
    /// Each window's squares, in the order of their powers of 3: the first shape's windows, then
    /// the next shape's.
    pub windows: Vec<Vec<Sq>>,
    /// Per shape, its windows (a range of `windows`).
    pub groups: Vec<std::ops::Range<usize>>,
    /// Per window, where its table of configurations starts in the weights.
    pub tables: Vec<usize>,
    /// Each wide window's nine squares (none unless the layout has wide patterns).
    pub wide: Vec<[Sq; WIDE]>,
    pub pst: usize,
    pub mobility: usize,
    pub runaway: usize,
    pub tempo: usize,
    pub patterns: usize,
    /// The shared table of the wide windows' configurations (after the small windows).
    pub wide_table: usize,
    /// The number of weights.
    pub len: usize,
    /// Whether every feature has an opening and an ending weight (the ending's are the second
    /// half, `base` further on).
    pub phased: bool,
    /// The weights of one phase (`len` without phases).
    pub base: usize,
    /// Pieces on the board at the start: the phase is the share of them that has gone.
    pub start_pieces: u32,
}

impl Layout {
    /// The layout of these rules without wide patterns.
    pub fn new<B: BitSet>(rules: &Rules<B>) -> Layout {
        Layout::with(rules, false)
    }

    /// The layout a weights file's `layout` line describes (wide patterns when it counts them,
    /// the window shapes it names; shapes out of range read as the small one, so that the
    /// line and the layout disagree and the file is refused).
    pub fn from_summary<B: BitSet>(rules: &Rules<B>, summary: &str) -> Layout {
        let wide = summary.split_whitespace().any(|w| w.starts_with("wide="));
        let phased = summary.split_whitespace().any(|w| w == "phases=2");
        let shapes = summary
            .split_whitespace()
            .find_map(|w| w.strip_prefix("window="))
            .and_then(|w| parse_shapes(w).ok())
            .unwrap_or_else(|| vec![Window::SMALL]);
        Layout::build(rules, &shapes, wide, phased)
    }

    /// The layout of these rules, with or without the wide patterns' table (one phase).
    pub fn with<B: BitSet>(rules: &Rules<B>, wide_patterns: bool) -> Layout {
        Layout::shaped(rules, wide_patterns, false)
    }

    /// The layout of these rules, with or without the wide patterns' table, with one set of
    /// weights or one for the opening and one for the ending.
    pub fn shaped<B: BitSet>(rules: &Rules<B>, wide_patterns: bool, phased: bool) -> Layout {
        Layout::build(rules, &[Window::SMALL], wide_patterns, phased)
    }

    /// The layout of these rules with windows of these shapes side by side (none: the small
    /// one), with or without the wide patterns' table, with one set of weights or two (opening
    /// and ending).
    pub fn build<B: BitSet>(
        rules: &Rules<B>,
        shapes: &[Window],
        wide_patterns: bool,
        phased: bool,
    ) -> Layout {
        let geo = &rules.geo;
        let kinds = rules.kinds;
        let squares = geo.size() as usize;
        // Two directions spanning a window: on dark squares the two forward diagonals (their sum
        // is one orthogonal step of two squares), otherwise east and north.
        let (d1, d2) = if geo.packed { (1, 7) } else { (2, 0) };
        let next = |d: usize, s: u16| {
            if s == NONE {
                NONE
            } else {
                geo.next[d][s as usize]
            }
        };
        let shapes = if shapes.is_empty() {
            vec![Window::SMALL]
        } else {
            shapes.to_vec()
        };
        let mut windows = Vec::new();
        let mut groups = Vec::new();
        for window in &shapes {
            let first = windows.len();
            'window: for s in BitIter(geo.playable) {
                // Row by row along the second direction, each row along the first; for the small
                // shape: the square, its step along, its step across, and the step across that.
                let mut cells = Vec::with_capacity(window.cells());
                let mut row = s as u16;
                for j in 0..window.across {
                    let mut at = row;
                    for _ in 0..window.along {
                        if at == NONE {
                            continue 'window;
                        }
                        cells.push(at as Sq);
                        at = next(d1, at);
                    }
                    if j + 1 < window.across {
                        row = next(d2, row);
                    }
                }
                if windows.len() < MAX_WINDOWS {
                    windows.push(cells);
                }
            }
            groups.push(first..windows.len());
        }
        let mut wide = Vec::new();
        if wide_patterns {
            'square: for s in BitIter(geo.playable) {
                let mut win = [0 as Sq; WIDE];
                let mut row = s as u16;
                for j in 0..3 {
                    let mut at = row;
                    for i in 0..3 {
                        if at == NONE {
                            continue 'square;
                        }
                        win[j * 3 + i] = at as Sq;
                        at = if i < 2 { next(d1, at) } else { at };
                    }
                    row = if j < 2 { next(d2, row) } else { row };
                }
                if wide.len() < MAX_WINDOWS {
                    wide.push(win);
                }
            }
        }
        let pst = 0;
        let mobility = pst + 2 * kinds * squares;
        let runaway = mobility + 2 * kinds;
        let tempo = runaway + 2 * RUN_DIST;
        let patterns = tempo + 1;
        let mut tables = Vec::with_capacity(windows.len());
        let mut at = patterns;
        for win in &windows {
            tables.push(at);
            at += 3usize.pow(win.len() as u32);
        }
        let wide_table = at;
        let base = wide_table + if wide.is_empty() { 0 } else { WIDE_CONFIGS };
        let len = if phased { 2 * base } else { base };
        Layout {
            kinds,
            squares,
            shapes,
            windows,
            groups,
            tables,
            wide,
            pst,
            mobility,
            runaway,
            tempo,
            patterns,
            wide_table,
            len,
            phased,
            base,
            start_pieces: rules.start.occupied().count(),
        }
    }

    /// A one-line summary, as the weights file's header gives it.
    pub fn summary(&self) -> String {
        let wide = if self.wide.is_empty() {
            String::new()
        } else {
            format!(" wide={}", self.wide.len())
        };
        let phases = if self.phased { " phases=2" } else { "" };
        let shape = if self.shapes == [Window::SMALL] {
            String::new()
        } else {
            format!(" window={}", shapes_text(&self.shapes))
        };
        format!(
            "kinds={} squares={}{shape} windows={}{wide}{phases} weights={}",
            self.kinds,
            self.squares,
            self.windows.len(),
            self.len
        )
    }
}

/// The tables that turn a position into its features, in one bit-set width.
#[derive(Clone, Debug)]
pub struct Features<B: BitSet> {
    pub layout: Layout,
    kinds: usize,
    /// Per square, (window, multiplier of a first-side piece) for each window holding it.
    member: Vec<[(u16, u16); MAX_MEMBERS]>,
    /// Per window, where its table starts in the weights (the layout's `tables`).
    tables: Vec<u32>,
    member_len: Vec<u8>,
    /// The same for the wide windows.
    wide_member: Vec<[(u16, u16); WIDE]>,
    wide_len: Vec<u8>,
    /// Per side and kind, (bit-set delta, squares with a neighbour that way) of its one-step
    /// quiet directions.
    dirs: [[[(i16, B); 8]; MAX_KINDS]; 2],
    ndirs: [[u8; MAX_KINDS]; 2],
    /// Per side and kind, the promotion zone (empty when the kind never promotes).
    zone: [[B; MAX_KINDS]; 2],
    /// Per side and kind, the squares from which the zone is 1..=RUN_DIST steps away.
    near: [[B; MAX_KINDS]; 2],
    /// Per side, kind and square: the fewest quiet steps to the zone on an empty board.
    dist: Vec<u8>,
    /// The one-step deltas of all eight directions, for the squares beside a path.
    around: [(i16, B); 8],
    playable: B,
}

impl<B: BitSet> Features<B> {
    /// The features of these rules without wide patterns.
    pub fn new(rules: &Rules<B>) -> Features<B> {
        Features::with(rules, Layout::new(rules))
    }

    /// The features of `layout` (made for these rules).
    pub fn with(rules: &Rules<B>, layout: Layout) -> Features<B> {
        let geo = &rules.geo;
        let kinds = rules.kinds;
        let n = layout.squares;
        let mut member = vec![[(0u16, 0u16); MAX_MEMBERS]; n];
        let mut member_len = vec![0u8; n];
        for (w, win) in layout.windows.iter().enumerate() {
            for (place, &sq) in win.iter().enumerate() {
                let l = &mut member_len[sq as usize];
                member[sq as usize][*l as usize] = (w as u16, 3u16.pow(place as u32));
                *l += 1;
            }
        }
        let mut wide_member = vec![[(0u16, 0u16); WIDE]; n];
        let mut wide_len = vec![0u8; n];
        for (w, win) in layout.wide.iter().enumerate() {
            for (place, &sq) in win.iter().enumerate() {
                let l = &mut wide_len[sq as usize];
                wide_member[sq as usize][*l as usize] = (w as u16, 3u16.pow(place as u32));
                *l += 1;
            }
        }
        let mut dirs = [[[(0i16, B::ZERO); 8]; MAX_KINDS]; 2];
        let mut ndirs = [[0u8; MAX_KINDS]; 2];
        let mut zone = [[B::ZERO; MAX_KINDS]; 2];
        let mut near = [[B::ZERO; MAX_KINDS]; 2];
        let mut dist = vec![u8::MAX; 2 * MAX_KINDS * n];
        for side in 0..2 {
            for kind in 0..kinds {
                let p = &rules.programs[side][kind];
                for d in p.steps.iter().chain(p.slides.iter()) {
                    let k = &mut ndirs[side][kind];
                    if (*k as usize) < 8 {
                        dirs[side][kind][*k as usize] =
                            (geo.delta[d as usize], rules.from[d as usize]);
                        *k += 1;
                    }
                }
                zone[side][kind] = p.promotion_zone;
                if p.promotion_zone.none() || ndirs[side][kind] == 0 {
                    continue;
                }
                // Fewest steps to the zone, backwards from it (breadth first on an empty board).
                let base = (side * MAX_KINDS + kind) * n;
                let mut frontier = p.promotion_zone;
                let mut seen = frontier;
                for sq in BitIter(frontier) {
                    dist[base + sq as usize] = 0;
                }
                for steps in 1..=RUN_DIST as u8 {
                    let mut back = B::ZERO;
                    for d in p.steps.iter().chain(p.slides.iter()) {
                        back |= rules.step_back(frontier, d);
                    }
                    frontier = back & !seen & rules.playable;
                    seen |= frontier;
                    for sq in BitIter(frontier) {
                        dist[base + sq as usize] = steps;
                    }
                    near[side][kind] |= frontier;
                }
            }
        }
        let around = std::array::from_fn(|a| (geo.delta[a], rules.from[a]));
        let tables = layout.tables.iter().map(|&t| t as u32).collect();
        Features {
            layout,
            kinds,
            member,
            tables,
            member_len,
            wide_member,
            wide_len,
            dirs,
            ndirs,
            zone,
            near,
            dist,
            around,
            playable: rules.playable,
        }
    }

    /// Call `f(index, value)` for every feature of `pos` that is not zero, counted for the first
    /// side (its pieces +1, the second side's −1). The side-to-move feature is ±1 too.
    #[inline(always)]
    pub fn visit(&self, pos: &Position<B>, f: impl FnMut(usize, i32)) {
        self.visit_with::<true>(pos, f)
    }

    /// [`Features::visit`], the windows' features (small and wide) left out unless `WINDOWS`:
    /// the gathered evaluation ([`Learned::evaluate`]) scores them its own way.
    #[inline(always)]
    fn visit_with<const WINDOWS: bool>(&self, pos: &Position<B>, mut f: impl FnMut(usize, i32)) {
        let l = &self.layout;
        let occupied = pos.occupied();
        let empty = self.playable & !occupied;
        let mut idx = [0u16; MAX_WINDOWS];
        let mut wide = [0u16; MAX_WINDOWS];
        let has_wide = !l.wide.is_empty();
        for side in 0..2 {
            let sign = 1 - 2 * side as i32;
            let enemy = pos.sides[1 - side];
            for kind in 0..self.kinds {
                let bits = pos.kind_bits(side, kind);
                if bits.none() {
                    continue;
                }
                let pst = l.pst + (side * self.kinds + kind) * l.squares;
                for sq in BitIter(bits) {
                    f(pst + sq as usize, sign);
                    if !WINDOWS {
                        continue;
                    }
                    let m = &self.member[sq as usize];
                    for &(w, mult) in &m[..self.member_len[sq as usize] as usize] {
                        idx[w as usize] += mult * (side as u16 + 1);
                    }
                    if has_wide {
                        let m = &self.wide_member[sq as usize];
                        for &(w, mult) in &m[..self.wide_len[sq as usize] as usize] {
                            wide[w as usize] += mult * (side as u16 + 1);
                        }
                    }
                }
                let dirs = &self.dirs[side][kind][..self.ndirs[side][kind] as usize];
                let mut reach = B::ZERO;
                for &(d, from) in dirs {
                    reach |= (bits & from).shift(d) & empty;
                }
                let mob = reach.count() as i32;
                if mob != 0 {
                    f(l.mobility + side * self.kinds + kind, sign * mob);
                }
                let racers = bits & self.near[side][kind];
                if racers.any() {
                    let base = (side * MAX_KINDS + kind) * l.squares;
                    for sq in BitIter(racers) {
                        let d = self.dist[base + sq as usize];
                        if self.runaway(B::bit(sq), d, dirs, empty, enemy, side, kind) {
                            f(l.runaway + side * RUN_DIST + d as usize - 1, sign);
                        }
                    }
                }
            }
        }
        f(l.tempo, 1 - 2 * pos.turn() as i32);
        if !WINDOWS {
            return;
        }
        for (&t, &i) in self.tables.iter().zip(&idx[..l.windows.len()]) {
            f(t as usize + i as usize, 1);
        }
        for &i in &wide[..l.wide.len()] {
            f(l.wide_table + i as usize, 1);
        }
    }

    /// The game phase of `pos`: 0 with every starting piece on the board, [`PHASES`] when no more
    /// than a fifth of them is left.
    #[inline(always)]
    pub fn phase(&self, pos: &Position<B>) -> i32 {
        let start = self.layout.start_pieces as i32;
        let gone = (start - pos.occupied().count() as i32).max(0);
        (gone * PHASES / (start - start / 5).max(1)).min(PHASES)
    }

    /// Call `f(index, value)` for every weight's feature of `pos` in this layout, as training
    /// fits them: [`Features::visit`]'s features, and in a phased layout each of them twice, its
    /// value times `PHASES − phase` for the opening weight and times `phase` for the ending one
    /// (so the values are [`PHASE_BITS`] bits larger). Zero values are left out.
    pub fn row(&self, pos: &Position<B>, mut f: impl FnMut(usize, i32)) {
        if !self.layout.phased {
            return self.visit(pos, f);
        }
        let p = self.phase(pos);
        let base = self.layout.base;
        self.visit(pos, |i, v| {
            if p < PHASES {
                f(i, v * (PHASES - p));
            }
            if p > 0 {
                f(base + i, v * p);
            }
        });
    }

    /// Whether the piece on `from` reaches its zone in `d` quiet steps through empty squares with
    /// no enemy piece beside any square of the way.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn runaway(
        &self,
        from: B,
        d: u8,
        dirs: &[(i16, B)],
        empty: B,
        enemy: B,
        side: usize,
        kind: usize,
    ) -> bool {
        let mut reach = from;
        for _ in 0..d {
            let mut next = reach;
            for &(delta, f) in dirs {
                next |= (reach & f).shift(delta) & empty;
            }
            reach = next;
        }
        if (reach & self.zone[side][kind]).none() {
            return false;
        }
        let mut beside = B::ZERO;
        for &(delta, f) in &self.around {
            beside |= (reach & f).shift(delta);
        }
        (beside & enemy).none()
    }
}

/// The learned evaluation in one bit-set width: the features' tables and their weights.
#[derive(Clone, Debug)]
pub struct Learned<B: BitSet> {
    pub features: Features<B>,
    w: Vec<i32>,
    /// The windows' tables for gathering, where the processor and the layout allow it.
    gathered: Option<Gathered>,
}

/// The windows' weights re-ordered to be read by gathering: a window's configuration is the
/// bits of its squares pulled out of each side's set in one instruction (`pext`), then read as
/// base-3 digits from a table, instead of each piece adding its share to every window it is in.
/// Each table holds the same weights as the layout's, its configurations numbered with the
/// window's squares in the order of their bits rather than the layout's order.
#[derive(Clone, Debug)]
struct Gathered {
    /// Per window: its squares among the low 64 bits of a set, among the high 64, and how many
    /// are low.
    masks: Vec<(u64, u64, u32)>,
    /// Whether every window's squares are in the low 64 bits.
    low_only: bool,
    /// Per window, where its table starts in `table`.
    starts: Vec<u32>,
    table: Vec<i32>,
    /// The bits of an index read as base-3 digits: `Σ 3^j` over its set bits `j`.
    ternary: [u16; 1 << MAX_CELLS],
}

impl Gathered {
    /// The re-ordered tables of `w` in `layout`, when this processor gathers bits (BMI2) and the
    /// layout has one set of weights, no wide windows and squares within 128 bits.
    fn new<B: BitSet>(layout: &Layout, w: &[i32]) -> Option<Gathered> {
        if !gathers() || layout.phased || !layout.wide.is_empty() || B::BITS > 128 {
            return None;
        }
        let mut masks = Vec::with_capacity(layout.windows.len());
        let mut starts = Vec::with_capacity(layout.windows.len());
        let mut table = Vec::new();
        for (win, &at) in layout.windows.iter().zip(&layout.tables) {
            let bits: Vec<u32> = win
                .iter()
                .map(|&sq| B::bit(sq).to_u128().trailing_zeros())
                .collect();
            let mask = bits.iter().fold(0u128, |m, &b| m | 1 << b);
            let low = mask as u64;
            masks.push((low, (mask >> 64) as u64, low.count_ones()));
            // Gathered digit j is the j-th lowest bit's square; the layout counts square k of
            // the window as 3^k.
            let mut order: Vec<usize> = (0..win.len()).collect();
            order.sort_by_key(|&k| bits[k]);
            starts.push(table.len() as u32);
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
        let low_only = masks.iter().all(|m| m.1 == 0);
        Some(Gathered {
            masks,
            low_only,
            starts,
            table,
            ternary,
        })
    }

    /// The windows' weights summed for `pos`.
    #[inline(always)]
    fn sum<B: BitSet>(&self, pos: &Position<B>) -> i32 {
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
        let mut sum = 0;
        for (&(ml, mh, nl), &start) in self.masks.iter().zip(&self.starts) {
            let (mut a, mut b) = (_pext_u64(fl, ml), _pext_u64(sl, ml));
            if !self.low_only {
                a |= _pext_u64(fh, mh) << nl;
                b |= _pext_u64(sh, mh) << nl;
            }
            let config = self.ternary[a as usize] as usize + 2 * self.ternary[b as usize] as usize;
            sum += self.table[start as usize + config];
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

impl<B: BitSet> Learned<B> {
    /// The evaluation of `weights` on these rules (the weights were checked against them when
    /// loaded: same fingerprint, same layout).
    pub fn new(weights: &Weights, rules: &Rules<B>) -> Learned<B> {
        let features = Features::with(rules, Layout::from_summary(rules, &weights.layout));
        let mut w = weights.values.clone();
        w.resize(features.layout.len, 0);
        let gathered = Gathered::new::<B>(&features.layout, &w);
        Learned {
            features,
            w,
            gathered,
        }
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
        } else if let Some(g) = &self.gathered {
            let mut sum = g.sum(pos);
            self.features
                .visit_with::<false>(pos, |i, v| sum += w[i] * v);
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
