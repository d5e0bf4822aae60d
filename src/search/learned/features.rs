//! A position's features in one bit-set width, as training reads them and the plain evaluation
//! sums them: piece-square, mobility, runaway men, the side to move, and every window's
//! configuration.

use super::{Layout, MAX_MEMBERS, MAX_WINDOWS, PHASES, RACE_DIST, RACE_MARGIN, RUN_DIST, WIDE};
use crate::engine::bits::BitSet;
use crate::engine::geometry::{BitIter, Sq};
use crate::engine::rules::MAX_KINDS;
use crate::engine::Position;
use crate::engine::Rules;

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
    /// Per side, kind and square: the fewest quiet steps to the zone on an empty board (up to
    /// the larger of [`RUN_DIST`] and [`RACE_DIST`]).
    dist: Vec<u8>,
    /// Per side and kind, the squares from which the zone is 1..=RACE_DIST steps away.
    far: [[B; MAX_KINDS]; 2],
    /// Per side, kind and square of `far`: the man's cone, every square its quiet steps reach
    /// on the way to the zone on an empty board and every square beside those. With no enemy
    /// piece in it, nothing stands in the man's way or beside it: a free man.
    cone: Vec<B>,
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
        let (member, member_len) =
            memberships::<MAX_MEMBERS>(n, layout.windows.iter().map(|w| &w[..]));
        let (wide_member, wide_len) = memberships::<WIDE>(n, layout.wide.iter().map(|w| &w[..]));
        let mut dirs = [[[(0i16, B::ZERO); 8]; MAX_KINDS]; 2];
        let mut ndirs = [[0u8; MAX_KINDS]; 2];
        let mut zone = [[B::ZERO; MAX_KINDS]; 2];
        let mut near = [[B::ZERO; MAX_KINDS]; 2];
        let mut far = [[B::ZERO; MAX_KINDS]; 2];
        let mut dist = vec![u8::MAX; 2 * MAX_KINDS * n];
        let mut cone = vec![B::ZERO; 2 * MAX_KINDS * n];
        let around: [(i16, B); 8] = std::array::from_fn(|a| (geo.delta[a], rules.from[a]));
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
                for steps in 1..=RUN_DIST.max(RACE_DIST) as u8 {
                    let mut back = B::ZERO;
                    for d in p.steps.iter().chain(p.slides.iter()) {
                        back |= rules.step_back(frontier, d);
                    }
                    frontier = back & !seen & rules.playable;
                    seen |= frontier;
                    for sq in BitIter(frontier) {
                        dist[base + sq as usize] = steps;
                    }
                    if steps as usize <= RUN_DIST {
                        near[side][kind] |= frontier;
                    }
                    if steps as usize <= RACE_DIST {
                        far[side][kind] |= frontier;
                    }
                }
                let d = &dirs[side][kind][..ndirs[side][kind] as usize];
                for sq in BitIter(far[side][kind]) {
                    let mut reach = B::bit(sq);
                    for _ in 0..dist[base + sq as usize] {
                        let mut next = reach;
                        for &(delta, f) in d {
                            next |= (reach & f).shift(delta);
                        }
                        reach = next & rules.playable;
                    }
                    let mut beside = reach;
                    for &(delta, f) in &around {
                        beside |= (reach & f).shift(delta);
                    }
                    cone[base + sq as usize] = beside & rules.playable;
                }
            }
        }
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
            far,
            cone,
            around,
            playable: rules.playable,
        }
    }

    /// The kinds of piece of the rules.
    #[inline(always)]
    pub(super) fn kinds(&self) -> usize {
        self.kinds
    }

    /// The windows holding `sq`: (window, multiplier of a first-side piece on it).
    #[inline(always)]
    pub(super) fn members(&self, sq: Sq) -> &[(u16, u16)] {
        &self.member[sq as usize][..self.member_len[sq as usize] as usize]
    }

    /// Per window, where its table starts in the weights.
    #[inline(always)]
    pub(super) fn tables(&self) -> &[u32] {
        &self.tables
    }

    /// Call `f(index, value)` for every feature of `pos` that is not zero, counted for the first
    /// side (its pieces +1, the second side's −1). The side-to-move feature is ±1 too.
    #[inline(always)]
    pub fn visit(&self, pos: &Position<B>, f: impl FnMut(usize, i32)) {
        self.visit_with::<true, true>(pos, f)
    }

    /// The piece-square features' part of the sum `Σ w[i] · value` of [`Features::visit`]: each
    /// side's pieces summed apart, in a register, then the second side's taken from the first's.
    /// The same integer as visiting them one by one (the gathered evaluation's way to the rest).
    #[inline(always)]
    pub(super) fn squares_sum(&self, pos: &Position<B>, w: &[i32]) -> i32 {
        let mut sides = [0i32; 2];
        for (side, total) in sides.iter_mut().enumerate() {
            for kind in 0..self.kinds {
                let at = self.layout.pst_of(side, kind);
                let pst = &w[at..at + self.layout.squares];
                for sq in BitIter(pos.kind_bits(side, kind)) {
                    *total += pst[sq as usize];
                }
            }
        }
        sides[0] - sides[1]
    }

    /// [`Features::visit`], the windows' features (small and wide) left out unless `WINDOWS`:
    /// the gathered evaluation ([`Learned::evaluate`]) scores them its own way; and the
    /// piece-square features left out unless `SQUARES` (the incremental evaluation keeps them).
    // `side` indexes the sides' pieces and signs as well as `fastest`.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    pub(super) fn visit_with<const WINDOWS: bool, const SQUARES: bool>(
        &self,
        pos: &Position<B>,
        mut f: impl FnMut(usize, i32),
    ) {
        let l = &self.layout;
        let occupied = pos.occupied();
        let empty = self.playable & !occupied;
        let mut idx = [0u16; MAX_WINDOWS];
        let mut wide = [0u16; MAX_WINDOWS];
        let has_wide = !l.wide.is_empty();
        // Per side, the tempi of its fastest free man (0: none).
        let mut fastest = [0u8; 2];
        for side in 0..2 {
            let sign = 1 - 2 * side as i32;
            let enemy = pos.sides[1 - side];
            let mut free = 0i32;
            for kind in 0..self.kinds {
                let bits = pos.kind_bits(side, kind);
                if bits.none() {
                    continue;
                }
                let pst = l.pst_of(side, kind);
                for sq in BitIter(bits) {
                    if !SQUARES && !WINDOWS {
                        break;
                    }
                    if SQUARES {
                        f(pst + sq as usize, sign);
                    }
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
                if l.race {
                    f(
                        l.material + side * self.kinds + kind,
                        sign * bits.count() as i32,
                    );
                    let base = (side * MAX_KINDS + kind) * l.squares;
                    for sq in BitIter(bits & self.far[side][kind]) {
                        if (self.cone[base + sq as usize] & enemy).none() {
                            free += 1;
                            let d = self.dist[base + sq as usize];
                            if fastest[side] == 0 || d < fastest[side] {
                                fastest[side] = d;
                            }
                        }
                    }
                }
            }
            if free > 0 {
                f(l.free + side, sign * free);
                f(
                    l.fastest + side * RACE_DIST + fastest[side] as usize - 1,
                    sign,
                );
            }
        }
        if fastest[0] > 0 && fastest[1] > 0 {
            // The first side queens first when its man needs fewer tempi, or as many with the
            // move: the margin is at least 1 exactly then.
            let m = fastest[1] as i32 - fastest[0] as i32 + (pos.turn() == 0) as i32;
            let m = m.clamp(-(RACE_MARGIN as i32), RACE_MARGIN as i32);
            f(l.margin + (m + RACE_MARGIN as i32) as usize, 1);
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
    /// (so the values are [`PHASE_BITS`] bits larger); in a race layout without phases only the
    /// small features (`mobility..patterns`) are split so, the others' values times `PHASES`.
    /// Zero values are left out.
    pub fn row(&self, pos: &Position<B>, mut f: impl FnMut(usize, i32)) {
        let l = &self.layout;
        if l.tapered > 0 {
            // Only the small features have an ending weight; the others count the whole blend.
            let p = self.phase(pos);
            let (small, taper) = (l.mobility..l.patterns, l.taper);
            return self.visit(pos, |i, v| {
                if !small.contains(&i) {
                    f(i, v * PHASES);
                    return;
                }
                if p < PHASES {
                    f(i, v * (PHASES - p));
                }
                if p > 0 {
                    f(taper + i - small.start, v * p);
                }
            });
        }
        if !l.phased {
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

/// Per square, (window, multiplier of a first-side piece: 3 to the square's place in the window)
/// for each window holding it, and how many there are.
#[allow(clippy::type_complexity)]
fn memberships<'a, const N: usize>(
    squares: usize,
    windows: impl Iterator<Item = &'a [Sq]>,
) -> (Vec<[(u16, u16); N]>, Vec<u8>) {
    let mut member = vec![[(0u16, 0u16); N]; squares];
    let mut len = vec![0u8; squares];
    for (w, win) in windows.enumerate() {
        for (place, &sq) in win.iter().enumerate() {
            let l = &mut len[sq as usize];
            member[sq as usize][*l as usize] = (w as u16, 3u16.pow(place as u32));
            *l += 1;
        }
    }
    (member, len)
}
