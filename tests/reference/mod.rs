//! A reference move generator: slow and plain, a direct transcription of the rules concepts of a
//! compiled variant's `VariantSpec` (squares as (file, rank) pairs, pieces in a map, directions as
//! vectors, capture sequences by depth-first search over the board), sharing nothing with the
//! engine's generator but the spec and the position's contents. Used to check the fast generator.

use damelab::engine::{Position, Rules};
use damelab::spec::{
    CaptureOp, Criterion, Landing, Lines, MidCapturePromotion, QuietOp, Removal, Shape, SquareSet,
    VariantSpec, Zone,
};
use std::collections::{BTreeMap, BTreeSet};

mod approach;
mod combat;
mod drops;

pub type C = (i32, i32);

/// A move as the reference sees it: squares as coordinates.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub from: C,
    pub to: C,
    pub captured: BTreeSet<C>,
    pub kind_after: u8,
    pub route: Vec<C>,
    /// The captured squares in the order taken.
    pub order: Vec<C>,
    /// Under huffing: the enemy piece removed before the move.
    pub huff: Option<C>,
    /// Under huffing: the pieces that had a capture and, this move being quiet, may be huffed
    /// next (where they stand after the move).
    pub due: BTreeSet<C>,
    /// Under `… may declare single combat`: the move declares the combat.
    pub declares: bool,
}

impl RefMove {
    /// The move's identity: origin, destination, captured set, resulting piece, huff; and for a
    /// drop ([`drops::DROP`]), its squares.
    pub fn id(&self) -> (C, C, BTreeSet<C>, u8, Option<C>, Vec<C>, bool) {
        (
            self.from,
            self.to,
            self.captured.clone(),
            self.kind_after,
            self.huff,
            if self.is_drop() {
                self.route.clone()
            } else {
                Vec::new()
            },
            self.declares,
        )
    }

    pub fn is_drop(&self) -> bool {
        self.from == drops::DROP
    }
}

/// The engine's move in the reference's terms.
pub fn from_engine(rules: &Rules, m: &damelab::Move) -> RefMove {
    let c = |sq: u8| {
        let (f, r) = rules.geo.coord(sq);
        (f as i32, r as i32)
    };
    if m.is_drop() {
        let mut route: Vec<C> = m.route().iter().map(|&s| c(s)).collect();
        route.sort();
        return RefMove {
            from: drops::DROP,
            to: drops::DROP,
            captured: BTreeSet::new(),
            kind_after: m.kind_after,
            route,
            order: Vec::new(),
            huff: None,
            due: BTreeSet::new(),
            declares: false,
        };
    }
    RefMove {
        from: c(m.from),
        to: c(m.to),
        captured: (0..=255u8)
            .filter(|&s| damelab::engine::BitSet::has(m.captured, s))
            .map(c)
            .collect(),
        kind_after: m.kind_after,
        route: m.route().iter().map(|&s| c(s)).collect(),
        order: rules.capture_order(m).iter().map(|&s| c(s)).collect(),
        huff: m.huff().map(c),
        due: m.due_squares().iter().map(|&s| c(s)).collect(),
        declares: m.declares(),
    }
}

struct Board<'a> {
    spec: &'a VariantSpec,
    /// (side, kind) of every piece (under `take top`, of every column's top).
    pieces: BTreeMap<C, (usize, u8)>,
    /// Under `take top`: every column, top first.
    columns: BTreeMap<C, Vec<(usize, u8)>>,
    side: usize,
}

/// One step in absolute angle `a` (north first, clockwise): on a board of dark squares only, an
/// orthogonal step goes to the next dark square, two squares away.
fn vector(spec: &VariantSpec, a: u8) -> C {
    let (df, dr) = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ][a as usize];
    let len = if a.is_multiple_of(2) && spec.board.squares != SquareSet::All {
        2
    } else {
        1
    };
    (df * len, dr * len)
}

fn add(c: C, v: C) -> C {
    (c.0 + v.0, c.1 + v.1)
}

/// The directions of a set, for `side`: the second side's are the first side's turned 180°.
fn dirs(set: u8, side: usize) -> Vec<u8> {
    (0..8u8)
        .filter(|a| set & (1 << a) != 0)
        .map(|a| if side == 0 { a } else { (a + 4) % 8 })
        .collect()
}

impl Board<'_> {
    /// Whether `c` is a point of the board: inside the outline (a hexagon of side N is the cells
    /// of the axial rectangle with |f - r| < N), of the played colour, and not left out.
    fn playable(&self, (f, r): C) -> bool {
        let b = &self.spec.board;
        if f < 0 || r < 0 || f >= b.width as i32 || r >= b.height as i32 {
            return false;
        }
        if b.shape == Shape::Hexagon && (f - r).abs() >= (b.width as i32 + 1) / 2 {
            return false;
        }
        if b.removed
            .iter()
            .any(|&(x, y)| (x as i32, y as i32) == (f, r))
        {
            return false;
        }
        let dark = (f + r) % 2 == 0;
        match b.squares {
            SquareSet::All => true,
            SquareSet::Dark => dark,
            SquareSet::DarkA1Light => !dark,
        }
    }

    /// The next point from `c` along the line going `a`, if a line goes that way from `c`: on a
    /// hexagon the lines are its three axes (the files, the ranks and the a1-i9 diagonal), on an
    /// alquerque board a diagonal passes only through points whose file + rank is even, on a
    /// grid of corners and centres an orthogonal line only through the corners.
    fn next(&self, c: C, a: u8) -> Option<C> {
        let b = &self.spec.board;
        let v = vector(self.spec, a);
        if b.shape == Shape::Hexagon && v.0 * v.1 < 0 {
            return None;
        }
        if b.lines == Lines::Alquerque && v.0 != 0 && v.1 != 0 && (c.0 + c.1) % 2 != 0 {
            return None;
        }
        // A grid of corners and centres: the orthogonal lines join the corners (even file and
        // rank) only; the centres lie on diagonals.
        if b.lines == Lines::CornersAndCentres && (v.0 == 0 || v.1 == 0) && c.0 % 2 != 0 {
            return None;
        }
        let t = add(c, v);
        (self.playable(c) && self.playable(t)).then_some(t)
    }

    /// Whether `c` is on the far rank of the side to move: the last rank of a rectangle; on a
    /// hexagon the two far edges (the last file and the last rank, seen by the mover).
    fn far_rank(&self, c: C) -> bool {
        let b = &self.spec.board;
        let (w, h) = (b.width as i32, b.height as i32);
        match (b.shape, self.side) {
            (Shape::Hexagon, 0) => c.0 == w - 1 || c.1 == h - 1,
            (Shape::Hexagon, _) => c.0 == 0 || c.1 == 0,
            (_, 0) => c.1 == h - 1,
            _ => c.1 == 0,
        }
    }

    /// The kind a piece of `kind` of the side to move becomes on `c`, if it promotes there.
    fn promotion(&self, kind: u8, c: C) -> Option<u8> {
        let (w, h) = (self.spec.board.width as i32, self.spec.board.height as i32);
        for p in &self.spec.pieces[kind as usize].promotions {
            let inside = match &p.zone {
                Zone::FarRank => self.far_rank(c),
                Zone::Squares(list) => {
                    let seen = if self.side == 0 {
                        c
                    } else {
                        (w - 1 - c.0, h - 1 - c.1)
                    };
                    list.iter().any(|&(f, r)| (f as i32, r as i32) == seen)
                }
                Zone::EnemyStart(k) => self.spec.setup[1 - self.side]
                    .iter()
                    .any(|&(kk, (f, r))| kk == *k && (f as i32, r as i32) == c),
            };
            if inside && self.playable(c) {
                return Some(p.to);
            }
        }
        None
    }
}

/// A capture sequence under way.
#[derive(Clone)]
struct Seq {
    origin: C,
    kind0: u8,
    cur: C,
    kind: u8,
    last: Option<u8>,
    taken: Vec<(C, u8)>,
    route: Vec<C>,
}

impl Board<'_> {
    /// Under `take top` and immediate removal: the column on `c` as the sequence left it, its
    /// tops taken so far gone (`None`: no column there, or nothing left of it).
    fn top_now(&self, s: &Seq, c: C) -> Option<(usize, u8)> {
        let times = s.taken.iter().filter(|&&(t, _)| t == c).count();
        self.columns.get(&c).and_then(|col| col.get(times).copied())
    }

    /// Whether columns are taken from at once (`take top` with `removed immediately`).
    fn columns_now(&self) -> bool {
        self.spec.captures.stacks && self.spec.captures.removal == Removal::Immediate
    }

    fn empty(&self, s: &Seq, c: C) -> bool {
        if !self.playable(c) {
            return false;
        }
        if c == s.origin {
            return true;
        }
        if self.columns_now() {
            return self.top_now(s, c).is_none();
        }
        match self.pieces.get(&c) {
            None => true,
            Some(_) => {
                self.spec.captures.removal == Removal::Immediate
                    && s.taken.iter().any(|&(t, _)| t == c)
            }
        }
    }

    fn capturable(&self, s: &Seq, c: C) -> bool {
        if self.columns_now() && c != s.origin {
            return self
                .top_now(s, c)
                .is_some_and(|(side, _)| side != self.side);
        }
        let Some(&(side, kind)) = self.pieces.get(&c) else {
            return false;
        };
        side != self.side
            && !s.taken.iter().any(|&(t, _)| t == c)
            && (!self.spec.captures.equal_or_lower_rank_only
                || self.spec.pieces[kind as usize].rank <= self.spec.pieces[s.kind as usize].rank)
    }

    /// Every single capture from the sequence's square: (direction, captured square, landing
    /// squares), the continuation rule not yet applied.
    fn jumps(&self, s: &Seq) -> Vec<(u8, C, Vec<C>)> {
        // `single jump`: a capture is one jump, never more.
        if self.spec.captures.single_jump && !s.taken.is_empty() {
            return Vec::new();
        }
        let piece = &self.spec.pieces[s.kind as usize];
        let mut fly_set = 0u8;
        let mut jump_set = 0u8;
        let mut gap_set = 0u8;
        // Reach (to the captured piece) and landing distance of the flying captures.
        let (mut reach, mut land_max) = (0usize, 0usize);
        for op in &piece.captures {
            match op {
                CaptureOp::Jump { dirs } => jump_set |= dirs,
                CaptureOp::GapJump { dirs } => gap_set |= dirs,
                CaptureOp::Fly {
                    dirs,
                    range,
                    landing,
                } => {
                    fly_set |= dirs;
                    let r = range.map_or(usize::MAX, |r| r as usize);
                    reach = reach.max(r);
                    land_max = land_max.max(if *landing == Landing::DirectlyBehind {
                        1
                    } else {
                        r
                    });
                }
                // Captures by approach and withdrawal are the `approach` module's.
                CaptureOp::Approach { .. } | CaptureOp::Withdrawal { .. } => {}
            }
        }
        // A fly in a direction includes the short jump that way.
        jump_set &= !fly_set;
        // `no 180 turn`: never straight back; `in one line`: only straight on, except that
        // `turning at the edge` allows any way but straight back where the last jump's line ends.
        let at_edge = |l: u8| self.next(s.cur, l).is_none();
        let banned = |d: u8| {
            s.last.is_some_and(|l| {
                (self.spec.captures.no_180_turn && (l + 4) % 8 == d)
                    || (piece.one_line
                        && l != d
                        && !(piece.edge_turn && at_edge(l) && (l + 4) % 8 != d))
            })
        };
        let mut out = Vec::new();
        for d in dirs(jump_set, self.side) {
            if banned(d) {
                continue;
            }
            let Some(over) = self.next(s.cur, d) else {
                continue;
            };
            let Some(land) = self.next(over, d) else {
                continue;
            };
            if self.capturable(s, over) && self.empty(s, land) {
                out.push((d, over, vec![land]));
            }
        }
        // `after one empty square`: the next square empty, the one after it an enemy piece, the
        // landing directly behind that.
        for d in dirs(gap_set, self.side) {
            if banned(d) {
                continue;
            }
            let Some(gap) = self.next(s.cur, d).filter(|&g| self.empty(s, g)) else {
                continue;
            };
            let Some(over) = self.next(gap, d) else {
                continue;
            };
            let Some(land) = self.next(over, d) else {
                continue;
            };
            if self.capturable(s, over) && self.empty(s, land) {
                out.push((d, over, vec![land]));
            }
        }
        for d in dirs(fly_set, self.side) {
            if banned(d) {
                continue;
            }
            let mut over = self.next(s.cur, d);
            let mut dist = 1;
            while let Some(o) = over.filter(|&o| self.empty(s, o)) {
                over = self.next(o, d);
                dist += 1;
            }
            let Some(over) = over else {
                continue;
            };
            if dist > reach || !self.capturable(s, over) {
                continue;
            }
            let mut lands = Vec::new();
            let mut land = self.next(self.row_end(s, over, d), d);
            while let Some(l) = land.filter(|&l| self.empty(s, l) && lands.len() < land_max) {
                lands.push(l);
                land = self.next(l, d);
            }
            if !lands.is_empty() {
                out.push((d, over, lands));
            }
        }
        out
    }

    /// `leaping a row of adjacent pieces`: the last piece of the row that starts at `over` going
    /// `d` (pieces side by side that may each be taken); `over` itself without the clause.
    fn row_end(&self, s: &Seq, over: C, d: u8) -> C {
        let mut end = over;
        if self.spec.pieces[s.kind as usize].row_leap {
            while let Some(n) = self.next(end, d).filter(|&n| self.capturable(s, n)) {
                end = n;
            }
        }
        end
    }

    /// The sequence after taking `over` (and the rest of a row leapt whole) and landing on
    /// `land` going `d`.
    fn step(&self, s: &Seq, d: u8, over: C, land: C) -> Seq {
        let mut n = s.clone();
        let kind = if self.columns_now() {
            self.top_now(s, over).map_or(0, |(_, k)| k)
        } else {
            self.pieces[&over].1
        };
        n.taken.push((over, kind));
        let end = self.row_end(s, over, d);
        let mut t = over;
        while t != end {
            t = self.next(t, d).expect("a row lies on the board");
            n.taken.push((t, self.pieces[&t].1));
        }
        n.route.push(land);
        n.cur = land;
        n.last = Some(d);
        if self.spec.captures.mid_capture_promotion == MidCapturePromotion::Continue {
            if let Some(k) = self.promotion(s.kind, land) {
                n.kind = k;
            }
        }
        n
    }

    fn extend(&self, s: Seq, done: &mut Vec<Seq>) {
        if self.spec.captures.may_stop {
            return self.extend_with_stops(s, done);
        }
        let jumps = self.jumps(&s);
        if jumps.is_empty() {
            if !s.taken.is_empty() {
                done.push(s);
            }
            return;
        }
        for (d, over, lands) in jumps {
            let nexts: Vec<Seq> = lands.iter().map(|&l| self.step(&s, d, over, l)).collect();
            // With several landing squares, one from which the capture can go on must be taken.
            let on: Vec<bool> = nexts.iter().map(|n| !self.jumps(n).is_empty()).collect();
            let must_go_on = lands.len() > 1 && on.iter().any(|&b| b);
            // The killer rule: taking a piece of these kinds last, land directly behind it.
            let behind_last = self.spec.pieces[s.kind as usize].captures.iter().any(|op| {
                matches!(op, CaptureOp::Fly { landing: Landing::BehindLast(kinds), .. }
                        if kinds & (1 << self.pieces[&over].1) != 0)
            }) && !on.iter().any(|&b| b);
            for (i, (n, go_on)) in nexts.into_iter().zip(on).enumerate() {
                if must_go_on && !go_on || behind_last && i > 0 {
                    continue;
                }
                if self.spec.captures.mid_capture_promotion == MidCapturePromotion::Stop
                    && self.promotion(s.kind, n.cur).is_some()
                {
                    done.push(n);
                    continue;
                }
                self.extend(n, done);
            }
        }
    }

    /// `may stop after any jump`: every sequence of one jump or more ends a move, wherever it
    /// landed, and may also go on while it can. So no landing square is ever forced on a flying
    /// piece, except by the killer rule: a capture that ends with a piece of those kinds lands
    /// directly behind it.
    fn extend_with_stops(&self, s: Seq, done: &mut Vec<Seq>) {
        if !s.taken.is_empty() && self.may_end(&s) {
            done.push(s.clone());
        }
        for (d, over, lands) in self.jumps(&s) {
            for land in lands {
                let n = self.step(&s, d, over, land);
                if self.spec.captures.mid_capture_promotion == MidCapturePromotion::Stop
                    && self.promotion(s.kind, n.cur).is_some()
                {
                    if self.may_end(&n) {
                        done.push(n);
                    }
                    continue;
                }
                self.extend_with_stops(n, done);
            }
        }
    }

    /// Whether a capture may end where `s` stands: not when it took last a piece of a kind its
    /// flying capture must land directly behind, and did not land there.
    fn may_end(&self, s: &Seq) -> bool {
        let (Some(&(over, kind)), Some(&land), Some(d)) = (s.taken.last(), s.route.last(), s.last)
        else {
            return true;
        };
        // The capturer's kind before its last jump decides; promotion mid-capture aside (the
        // killer rule is for kings, which do not promote), that is its kind now.
        let behind = self.spec.pieces[s.kind as usize].captures.iter().any(|op| {
            matches!(op, CaptureOp::Fly { landing: Landing::BehindLast(kinds), .. }
                    if kinds & (1 << kind) != 0)
        });
        !behind || Some(land) == self.next(over, d)
    }

    /// The priority of a sequence as a list of numbers compared in order (higher wins).
    fn priority(&self, s: &Seq) -> Vec<u32> {
        let pieces = &self.spec.pieces;
        let mut ranks: Vec<u8> = pieces.iter().map(|p| p.rank).collect();
        ranks.sort_unstable_by(|a, b| b.cmp(a));
        ranks.dedup();
        let mut key = Vec::new();
        for c in &self.spec.captures.priority {
            match *c {
                Criterion::MostPieces => key.push(s.taken.len() as u32),
                Criterion::MostValue => key.push(
                    s.taken
                        .iter()
                        .map(|&(_, k)| pieces[k as usize].value as u32)
                        .sum(),
                ),
                Criterion::HighestCapturer => key.push(pieces[s.kind0 as usize].rank as u32),
                Criterion::HighestCapturedRanks => {
                    for &r in &ranks {
                        key.push(
                            s.taken
                                .iter()
                                .filter(|&&(_, k)| pieces[k as usize].rank == r)
                                .count() as u32,
                        );
                    }
                }
                Criterion::MostOf(k) => {
                    key.push(s.taken.iter().filter(|&&(_, t)| t == k).count() as u32)
                }
                Criterion::EarliestOf(k) => {
                    for i in 0..128 {
                        key.push(s.taken.get(i).is_some_and(|&(_, t)| t == k) as u32);
                    }
                }
            }
        }
        key
    }

    /// Whether the material alone ends the game (a lone piece beats or draws with a lone piece, a
    /// side lacks a kind it must keep, a side has the kind that wins): then there is no move.
    fn lost_by_material(&self) -> bool {
        let game = &self.spec.game;
        let of = |side: usize| -> Vec<u8> {
            self.pieces
                .values()
                .filter(|(s, _)| *s == side)
                .map(|&(_, k)| k)
                .collect()
        };
        let (a, b) = (of(0), of(1));
        for &(win, lose) in game.lone_wins.iter().chain(&game.lone_draws) {
            if (a == [win] && b == [lose]) || (b == [win] && a == [lose]) {
                return true;
            }
        }
        // A goal reached by promotion (`first king wins`): a side that has the kind has won.
        if game
            .first_wins
            .iter()
            .any(|k| a.contains(k) || b.contains(k))
        {
            return true;
        }
        game.lose_without
            .iter()
            .any(|k| !a.contains(k) || !b.contains(k))
    }
}

impl Board<'_> {
    /// The squares a piece of the side to move of `kind` on `c` reaches by one quiet move.
    fn quiet_targets(&self, c: C, kind: u8) -> Vec<C> {
        let piece = &self.spec.pieces[kind as usize];
        let mut out = Vec::new();
        let free = |t: C| self.playable(t) && !self.pieces.contains_key(&t);
        for op in &piece.quiet {
            match *op {
                QuietOp::Step { dirs: set } => {
                    for d in dirs(set, self.side) {
                        if let Some(t) = self.next(c, d).filter(|&t| free(t)) {
                            out.push(t);
                        }
                    }
                }
                QuietOp::Slide { dirs: set, range } => {
                    for d in dirs(set, self.side) {
                        let mut t = self.next(c, d);
                        let mut left = range.map_or(usize::MAX, |r| r as usize);
                        while let Some(x) = t.filter(|&x| free(x) && left > 0) {
                            out.push(x);
                            t = self.next(x, d);
                            left -= 1;
                        }
                    }
                }
                QuietOp::Leap {
                    dirs: set,
                    over,
                    max,
                } => {
                    for d in dirs(set, self.side) {
                        let mut t = self.next(c, d);
                        let mut len = 0u32;
                        while let Some(x) = t.filter(|x| {
                            self.pieces
                                .get(x)
                                .is_some_and(|&(s, k)| s == self.side && over & (1 << k) != 0)
                        }) {
                            len += 1;
                            t = self.next(x, d);
                        }
                        let ok_len = len > 0 && max.is_none_or(|m| len <= m as u32);
                        if let Some(t) = t.filter(|&t| ok_len && !self.pieces.contains_key(&t)) {
                            out.push(t);
                        }
                    }
                }
            }
        }
        out
    }
}

/// Every legal move of `pos` by the reference rules, every route of every capture kept.
///
/// Huffing, from its definition: the side to move may first remove one enemy piece that could
/// have captured on the last move and did not (or remove none), then it moves as in the position
/// that leaves; capturing is due but a quiet move stays legal, and a quiet move played while some
/// capture was legal leaves every piece that had a capture open to a huff on the next turn.
pub fn moves(rules: &Rules, pos: &Position) -> Vec<RefMove> {
    if !rules.spec.captures.huffing {
        return plain_moves(rules, pos);
    }
    let mut base = *pos;
    base.huff = Default::default();
    let mut out = plain_moves(rules, &base);
    for sq in 0..=255u8 {
        let open = damelab::engine::BitSet::has(pos.huff, sq);
        if open && pos.at(sq).is_some_and(|(s, _)| s != pos.turn()) {
            let mut without = base;
            without.clear(sq);
            let (f, r) = rules.geo.coord(sq);
            for mut m in plain_moves(rules, &without) {
                m.huff = Some((f as i32, r as i32));
                out.push(m);
            }
        }
    }
    out
}

fn plain_moves(rules: &Rules, pos: &Position) -> Vec<RefMove> {
    let spec = &rules.spec;
    let side = pos.turn();
    let mut pieces = BTreeMap::new();
    let mut columns = BTreeMap::new();
    for s in 0..2 {
        for (sq, kind) in pos.pieces(s) {
            let (f, r) = rules.geo.coord(sq);
            pieces.insert((f as i32, r as i32), (s, kind as u8));
            let mut col = vec![(s, kind as u8)];
            col.extend(pos.stacks.under(sq).map(|(s, k)| (s, k as u8)));
            columns.insert((f as i32, r as i32), col);
        }
    }
    let board = Board {
        spec,
        pieces,
        columns,
        side,
    };
    if let Some(drops) = drops::drops(rules, pos, &board) {
        return drops;
    }
    if board.lost_by_material() {
        return Vec::new();
    }
    let own: Vec<(C, u8)> = board
        .pieces
        .iter()
        .filter(|(_, (s, _))| *s == side)
        .map(|(&c, &(_, k))| (c, k))
        .collect();

    let mut done = Vec::new();
    let step_captures = approach::used(spec);
    for &(c, kind) in &own {
        if step_captures {
            board.step_captures(c, kind, &mut done);
            continue;
        }
        let start = Seq {
            origin: c,
            kind0: kind,
            cur: c,
            kind,
            last: None,
            taken: Vec::new(),
            route: Vec::new(),
        };
        board.extend(start, &mut done);
    }
    let mut out = Vec::new();
    if let Some(best) = done.iter().map(|s| board.priority(s)).max() {
        for s in done.iter().filter(|s| board.priority(s) == best) {
            out.push(RefMove {
                from: s.origin,
                to: s.cur,
                captured: s.taken.iter().map(|&(t, _)| t).collect(),
                kind_after: board.promotion(s.kind, s.cur).unwrap_or(s.kind),
                route: s.route.clone(),
                order: s.taken.iter().map(|&(t, _)| t).collect(),
                huff: None,
                due: BTreeSet::new(),
                declares: false,
            });
        }
    }
    // `huffing of smaller captures`, from its definition: a capture of fewer pieces than the
    // most leaves the piece that made it, where it stopped, open to a huff.
    if spec.captures.huffing_smaller {
        let most = out.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        for m in out.iter_mut().filter(|m| m.captured.len() < most) {
            m.due = BTreeSet::from([m.to]);
        }
    }
    if !out.is_empty() && spec.captures.compulsory && !spec.captures.huffing {
        return out;
    }
    let capturers: BTreeSet<C> = if spec.captures.huffing {
        out.iter().map(|m| m.from).collect()
    } else {
        BTreeSet::new()
    };

    // Quiet moves.
    let mut quiet = BTreeSet::new();
    let run = pos.runs[side];
    for &(c, kind) in &own {
        let piece = &spec.pieces[kind as usize];
        if let Some(limit) = piece.quiet_limit {
            let (rf, rr) = rules.geo.coord(run.sq);
            let still = own.iter().any(|&(_, k)| limit.while_own & (1 << k) != 0);
            if run.count >= limit.max && still && (rf as i32, rr as i32) == c {
                continue;
            }
        }
        for t in board.quiet_targets(c, kind) {
            quiet.insert((c, t, kind));
        }
    }
    for (from, to, kind) in quiet {
        out.push(RefMove {
            from,
            to,
            captured: BTreeSet::new(),
            kind_after: board.promotion(kind, to).unwrap_or(kind),
            route: vec![to],
            order: Vec::new(),
            huff: None,
            due: capturers
                .iter()
                .map(|&c| if c == from { to } else { c })
                .collect(),
            declares: false,
        });
    }
    combat::shape(rules, pos, &board, out)
}
