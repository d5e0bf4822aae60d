//! One node of the search, in named steps: [`Searcher::enter`] (draws, game ends, the outside
//! oracle, a quiet leaf past the nominal depth), [`Searcher::look_up`] (the transposition table),
//! [`Searcher::expand`] (move generation, stand pat, ordering), [`Searcher::search_moves`] (the move
//! loop: principal-variation search, killers and history) and the store into the table.
//!
//! HOT PATH: the move list, the ordering scores and the children's hashes are the per-ply buffers
//! of the [`Searcher`], taken for the node and put back before it returns; nothing is allocated.

use super::{
    from_tt, history_index, killer_key, to_tt, tt, Score, Searcher, MAX_PLY, WIN, WIN_BOUND,
};
use crate::engine::{BitSet, GenOptions, Move, Position};

/// The per-ply buffers a node works in (taken from the [`Searcher`] and given back).
struct Buffers<B: BitSet> {
    moves: Vec<Move<B>>,
    order: Vec<(i32, u16)>,
    /// The children's hashes but their runs, in the order of `moves` (left empty where they are
    /// made as the children are searched).
    hashes: Vec<u64>,
    /// The node's hash.
    hash: u64,
}

/// What a node's move loop decides before its first move ([`Searcher::loop_plan`]).
struct LoopPlan {
    /// Whether late quiet moves are reduced at all (late-move reductions), and after how many.
    reducing: bool,
    lmr_moves: usize,
    /// The children's nominal depth (the node's less one, or the same for a single move).
    child_depth: i32,
    /// Past this many moves searched, late quiet moves are pruned (late-move pruning).
    lmp_after: usize,
}

/// Put the `n`-th move to search at `order[n]`: the first two picked one at a time (the
/// best-ordered left; the moves stay in place, `order` names them); at the third, the rest
/// sorted once (best first, ties in generator order) — two moves did not refute, so the rest
/// are likely all searched.
#[inline(always)]
fn order_next(order: &mut [(i32, u16)], n: usize) {
    if n == 2 {
        order[2..].sort_unstable_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
    } else if n < 2 {
        let mut bi = n;
        for j in n + 1..order.len() {
            if order[j].0 > order[bi].0 {
                bi = j;
            }
        }
        order.swap(n, bi);
    }
}

/// What [`Searcher::enter`] found.
enum Entry {
    /// The node's score, known without searching its moves.
    Done(Score),
    /// A quiet position past the nominal depth, to be searched by [`Searcher::quiet_quiescence`].
    Quiet,
    /// A quiet position past the nominal depth that the opponent threatens: searched a ply.
    Threat,
    /// A quiet position past the nominal depth with a promotion one step away: its promotions
    /// searched after the stand pat (option `qs_promotions`).
    Promote,
    /// A node to search.
    Search,
}

/// Plies of quiescence (captures only) past the nominal depth in variants that capture by
/// approach and withdrawal.
const STEP_CAPTURE_QUIESCENCE: i32 = 4;

impl<B: BitSet> Searcher<B> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn node(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        irr: usize,
    ) -> Score {
        match self.enter(pos, hash, depth, ply, irr) {
            Entry::Done(s) => s,
            Entry::Quiet => self.quiet_quiescence::<false>(pos, hash, ply, alpha, beta, irr),
            Entry::Promote => self.quiet_quiescence::<true>(pos, hash, ply, alpha, beta, irr),
            Entry::Search => self.search_node(pos, hash, depth, ply, alpha, beta, irr),
            Entry::Threat => {
                self.threats_left -= 1;
                let s = self.search_node(pos, hash, 1, ply, alpha, beta, irr);
                self.threats_left += 1;
                s
            }
        }
    }

    /// A node past [`Searcher::enter`]: the table, ProbCut, then its moves.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_node(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        irr: usize,
    ) -> Score {
        let tt_move = match self.look_up(hash, depth, ply, alpha, beta) {
            Ok(m) => m,
            Err(s) => return s,
        };
        if let Some(s) = self.probcut(pos, hash, depth, ply, alpha, beta, irr) {
            return s;
        }
        // Internal iterative reduction: no move from the table, a ply shallower.
        let depth = if self.options.iir
            && tt_move == u16::MAX
            && ply > 0
            && depth >= self.options.iir_depth as i32
        {
            depth - 1
        } else {
            depth
        };
        let mut buf = Buffers {
            moves: std::mem::take(&mut self.moves[ply]),
            order: std::mem::take(&mut self.order[ply]),
            hashes: std::mem::take(&mut self.hashes[ply]),
            hash,
        };
        let score = self.expand(pos, hash, depth, ply, alpha, beta, irr, tt_move, &mut buf);
        self.moves[ply] = buf.moves;
        self.order[ply] = buf.order;
        self.hashes[ply] = buf.hashes;
        score
    }

    /// What a node knows before looking at its moves: a stop, a draw by repetition or move count,
    /// a game end by material, the path's end, the oracle's exact score, or a quiet position past
    /// the nominal depth (scored, or left to [`Searcher::quiet_quiescence`]). Counts the node.
    #[inline(always)]
    fn enter(&mut self, pos: &Position<B>, hash: u64, depth: i32, ply: usize, irr: usize) -> Entry {
        if ply > 0 {
            if self.check_stop() {
                return Entry::Done(0);
            }
            if self.repetition && self.repeated(hash, irr) {
                return Entry::Done(self.draw_score(ply));
            }
            // A move-count draw, automatic or claimable (the side to move is taken to claim it).
            if self.move_counts && crate::engine::draws::move_count_draw(&self.rules, pos) {
                return Entry::Done(self.draw_score(ply));
            }
        }
        self.nodes += 1;
        self.pv[ply].clear();
        if self.rules.has_material_rules {
            if let Some(s) = self.end_score(pos, 1, ply) {
                return Entry::Done(s);
            }
        }
        if ply >= MAX_PLY - 1 {
            return Entry::Done(self.eval.evaluate_mut(pos));
        }
        if ply > 0 {
            if let Some(p) = &self.probe {
                if let Some(s) = p(pos) {
                    // Counted from the root, as the search's own won and lost scores.
                    return Entry::Done(from_tt(s, ply));
                }
            }
        }
        if depth <= 0 {
            self.stats.quiescence += 1;
            if !self.rules.has_capture(pos) {
                // A quiet position past the nominal depth: its score, unless it has no move.
                self.stats.leaves += 1;
                return if !self.rules.has_quiet(pos) {
                    Entry::Done(self.end_score(pos, 0, ply).unwrap_or(0))
                } else if self.threats_left > 0
                    && ply + 3 < MAX_PLY
                    && !self.rules.approach
                    && self.rules.threatened(pos)
                {
                    Entry::Threat
                } else if self.qs_left > 0 && ply + 2 < MAX_PLY {
                    Entry::Quiet
                } else if self.promotions_left > 0 && ply + 2 < MAX_PLY && self.promotes(pos) {
                    Entry::Promote
                } else {
                    Entry::Done(self.eval.evaluate_mut(pos))
                };
            }
        }
        Entry::Search
    }

    /// Whether the side to move has a piece one quiet step from an empty square where it
    /// promotes.
    #[inline(always)]
    fn promotes(&self, pos: &Position<B>) -> bool {
        let side = pos.turn();
        let empty = self.rules.playable & !pos.occupied();
        self.promoting[side].iter().any(|&(kind, delta, from)| {
            ((pos.kind_bits(side, kind) & from).shift(delta) & empty).any()
        })
    }

    /// The path's budget of quiet moves past the nominal depth: `qs_promotions`' with
    /// `PROMOTIONS`, else `qs_exchanges`'.
    #[inline(always)]
    fn quiet_budget<const PROMOTIONS: bool>(&mut self) -> &mut u32 {
        if PROMOTIONS {
            &mut self.promotions_left
        } else {
            &mut self.qs_left
        }
    }

    /// Quiescence at a quiet position past the nominal depth (option `qs_exchanges`): the stand
    /// pat, then the quiet moves that promote and, while every piece on the board is of the first
    /// kind, those after which the opponent has a capture: an exchange, or a shot that gives
    /// pieces to take more back, which the capture quiescence after it resolves. Each such move
    /// uses one of the path's `qs_exchanges`, so the tree stays bounded. With `PROMOTIONS` only
    /// the promotions are searched, each using one of the path's `qs_promotions`. Not stored in
    /// the table.
    #[inline(never)]
    fn quiet_quiescence<const PROMOTIONS: bool>(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        irr: usize,
    ) -> Score {
        let mut best = self.eval.evaluate_mut(pos);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let first_kind_only = !PROMOTIONS
            && (1..self.rules.kinds).all(|k| (pos.kind_bits(0, k) | pos.kind_bits(1, k)).none());
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.generate_bounded(pos, &mut moves);
        for mv in moves.iter() {
            let promotes = mv.kind_after != mv.kind_before;
            if !promotes && !first_kind_only {
                continue;
            }
            let child = self.rules.play(pos, mv);
            if !promotes && !self.rules.has_capture(&child) {
                continue;
            }
            let ch = self
                .keys
                .with_runs(self.keys.after_placement(pos, hash, mv), &child);
            let child_irr = if promotes { self.path.len() } else { irr };
            self.path.push(ch);
            *self.quiet_budget::<PROMOTIONS>() -= 1;
            let s = -self.node(&child, ch, 0, ply + 1, -beta, -alpha, child_irr);
            *self.quiet_budget::<PROMOTIONS>() += 1;
            self.path.pop();
            if self.stop {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }

    /// ProbCut: outside the principal variation and from `probcut_depth`, a search of this node
    /// `probcut_reduction` plies shallower with a null window at `beta + probcut_margin`; when it
    /// fails high, so would the full search, most likely: the node ends with beta. It searches
    /// the node itself (the same position, shallower), so it is no null move.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probcut(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        irr: usize,
    ) -> Option<Score> {
        let o = &self.options;
        if !o.probcut
            || ply == 0
            || depth < o.probcut_depth as i32
            || beta > alpha + 1
            || beta.abs() >= WIN_BOUND - o.probcut_margin - 1
        {
            return None;
        }
        let rb = beta + o.probcut_margin;
        let shallow = depth - o.probcut_reduction as i32;
        let s = self.node(pos, hash, shallow, ply, rb - 1, rb, irr);
        if self.stop {
            return Some(0);
        }
        self.stats.probcuts += (s >= rb) as u64;
        (s >= rb).then_some(beta)
    }

    /// The transposition table: `Ok` with the stored move's index (`u16::MAX` for none), or `Err`
    /// with the score when the entry is deep enough to end the node.
    #[inline(always)]
    fn look_up(
        &mut self,
        hash: u64,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Result<u16, Score> {
        let Some(e) = self.tt.probe(hash) else {
            return Ok(u16::MAX);
        };
        self.stats.tt_hits += 1;
        if ply > 0 && e.depth as i32 >= depth {
            let s = from_tt(e.score as Score, ply);
            let cut = match e.flag {
                tt::EXACT => true,
                tt::LOWER => s >= beta,
                _ => s <= alpha,
            };
            if cut {
                self.stats.tt_cuts += 1;
                return Err(s);
            }
        }
        Ok(e.mv)
    }

    /// Generate the moves (captures alone past the nominal depth), stand pat where captures are
    /// optional, order, search them and store the result.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn expand(
        &mut self,
        pos: &Position<B>,
        hash: u64,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        irr: usize,
        tt_move: u16,
        buf: &mut Buffers<B>,
    ) -> Score {
        // Past the nominal depth only captures are searched: the generator counts the quiet moves
        // without building them, and `moves` holds the captures alone (the start of the full list).
        let legal = if depth <= 0 {
            match self.rules.count_moves_within(
                pos,
                &mut buf.moves,
                GenOptions::default(),
                crate::engine::ROUTE_BUDGET,
            ) {
                Ok(n) => n as usize,
                Err(_) => {
                    buf.moves.clear();
                    self.routes_exceeded = true;
                    self.stop = true;
                    0
                }
            }
        } else {
            self.generate_bounded(pos, &mut buf.moves);
            buf.moves.len()
        };
        if self.stop {
            return 0;
        }
        if legal == 0 {
            return self.end_score(pos, 0, ply).unwrap_or(0);
        }
        let capturing = buf.moves.first().is_some_and(|m| m.is_capture());
        let alpha0 = alpha;
        // A principal-variation node (its line may reach the root), judged before stand pat.
        let pv_node = beta > alpha + 1;
        let mut best = -WIN - 1;
        if depth <= 0 {
            // Captures by approach and withdrawal are most of a game's moves, not the tactical
            // exception quiescence is for: past a few plies the position is scored as it stands.
            if !capturing
                || (self.rules.approach && ply as i32 >= self.root_depth + STEP_CAPTURE_QUIESCENCE)
            {
                return self.eval.evaluate_mut(pos);
            }
            if !self.rules.compulsory {
                // Captures are optional: the side may decline them (stand pat).
                best = self.eval.evaluate_mut(pos);
                if best >= beta {
                    return best;
                }
                alpha = alpha.max(best);
            }
        }
        // Reverse futility: a shallow node with no capture due whose static score stays at or
        // above beta by a margin a ply is taken to fail high (a static test, never a null move).
        if self.options.rfp
            && depth > 0
            && depth <= self.options.rfp_depth as i32
            && !pv_node
            && !capturing
            && ply > 0
            && beta.abs() < WIN_BOUND
        {
            let v = self.eval.evaluate_mut(pos);
            if v - self.options.rfp_margin * depth >= beta {
                self.stats.rfp_cuts += 1;
                return beta;
            }
        }
        self.order_moves(pos, ply, legal, tt_move, buf);
        // Start loading every child's table entry now: the loads overlap, where one load per
        // child, when it is searched, would wait for memory each time. Not at the frontier with
        // no capture due: there most children are quiet leaves, scored without the table, and
        // futility leaves most late moves unsearched; each child's hash is made as it is
        // searched (the same tree, 3% less processor time: docs/strength.md, node rate).
        buf.hashes.clear();
        if depth > 1 || capturing {
            for m in buf.moves.iter() {
                let h = self.keys.after_placement(pos, hash, m);
                self.tt.prefetch(h);
                buf.hashes.push(h);
            }
        }
        self.stats.frontier += (depth == 1) as u64;
        // Futility at the frontier: when the position's score plus a margin cannot reach alpha,
        // a quiet move (whose child is scored as it stands unless a capture follows) is not
        // searched. Never where captures are compulsory now, nor near a won or lost score.
        let futile = if self.options.futility
            && depth == 1
            && !pv_node
            && !capturing
            && alpha.abs() < WIN_BOUND
        {
            let v = self.eval.evaluate_mut(pos) + self.options.futility_margin;
            (v <= alpha).then_some(v)
        } else {
            None
        };
        let Some((best, best_idx)) = self.search_moves(
            pos, depth, ply, alpha, beta, irr, tt_move, best, pv_node, futile, buf,
        ) else {
            return 0;
        };
        let flag = if best >= beta {
            tt::LOWER
        } else if best > alpha0 {
            tt::EXACT
        } else {
            tt::UPPER
        };
        self.tt.store(hash, depth, flag, to_tt(best, ply), best_idx);
        best
    }

    /// Score every move for ordering: the table move, captures (most pieces first), promotions,
    /// the two killers, then the history heuristic.
    #[inline(always)]
    fn order_moves(
        &mut self,
        pos: &Position<B>,
        ply: usize,
        legal: usize,
        tt_move: u16,
        buf: &mut Buffers<B>,
    ) {
        let side = pos.turn();
        let order = &mut buf.order;
        order.clear();
        let killers = self.killers[ply];
        for (i, m) in buf.moves.iter().enumerate() {
            let promo = (m.kind_after != m.kind_before) as i32;
            let s = if i as u16 == tt_move {
                i32::MAX
            } else if m.is_capture() {
                1 << 28 | (m.captures() as i32) << 8 | promo << 4
            } else if promo != 0 {
                1 << 27
            } else if killer_key(m) == killers[0] {
                (1 << 26) + 2
            } else if killer_key(m) == killers[1] {
                (1 << 26) + 1
            } else {
                self.history[history_index::<B>(side, m)]
            };
            order.push((s, i as u16));
        }
        if (buf.moves.len()..legal).contains(&(tt_move as usize)) {
            // The table move is a quiet move left out of a capture-only list. On the full list
            // it would be picked first, trading places with the first capture, which would then
            // lose every tie to the others: keep that order, so the search stays the same.
            order.rotate_left(1);
        }
    }

    /// The move loop: the first move with the full window, the others with a null window and
    /// again with the full one when they beat alpha. Returns the best score and move index, or
    /// `None` when the search was stopped.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        irr: usize,
        tt_move: u16,
        mut best: Score,
        pv_node: bool,
        futile: Option<Score>,
        buf: &mut Buffers<B>,
    ) -> Option<(Score, u16)> {
        let plan = self.loop_plan(depth, ply, alpha, pv_node, buf.moves.len());
        let side = pos.turn();
        let mut best_idx = u16::MAX;
        let mut searched = 0;
        let order = &mut buf.order;
        for n in 0..order.len() {
            order_next(order, n);
            let mv_index = order[n].1;
            let mv = &buf.moves[mv_index as usize];
            if depth <= 0 && !mv.is_capture() {
                continue;
            }
            // A quiet move that is neither the table move, a killer nor a promotion (ordered below
            // the killers).
            let late = !mv.is_capture() && order[n].0 < 1 << 26;
            if let Some(v) = futile {
                if late && searched > 0 {
                    // Not searched: its score is taken as at most the futility value.
                    best = best.max(v);
                    continue;
                }
            }
            if late && searched >= plan.lmp_after {
                continue;
            }
            let child = self.rules.play(pos, mv);
            let r = if plan.reducing
                && late
                && searched >= plan.lmr_moves
                && (self.options.reduce_offers || !self.rules.has_capture(&child))
            {
                self.reduction(&plan, depth, searched, pv_node, order[n].0)
            } else {
                0
            };
            let placed = match buf.hashes.get(mv_index as usize) {
                Some(&h) => h,
                None => self.keys.after_placement(pos, buf.hash, mv),
            };
            let ch = self.keys.with_runs(placed, &child);
            let child_irr = if mv.is_capture() || mv.kind_after != mv.kind_before {
                self.path.len()
            } else {
                irr
            };
            self.path.push(ch);
            let window = (alpha, beta, searched == 0);
            let score = self.search_child(&child, ch, plan.child_depth, r, ply, window, child_irr);
            self.path.pop();
            searched += 1;
            if self.stop {
                return None;
            }
            if score > best {
                best = score;
                best_idx = mv_index;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.new_pv(ply, mv, score);
                    }
                    if alpha >= beta {
                        let first_cut = searched == 1;
                        self.stats.tt_quiet_cuts +=
                            (first_cut && depth > 0 && mv_index == tt_move && !mv.is_capture())
                                as u64;
                        self.refuted(side, depth, ply, first_cut, mv, &order[..n], &buf.moves);
                        break;
                    }
                }
            }
        }
        Some((best, best_idx))
    }

    /// What the move loop of a node of `depth` at `ply` decides once, before its first move.
    #[inline(always)]
    fn loop_plan(
        &self,
        depth: i32,
        ply: usize,
        alpha: Score,
        pv_node: bool,
        moves: usize,
    ) -> LoopPlan {
        // A single legal move costs no depth (bounded: within twice the iteration's depth).
        let forced = self.options.single_extension
            && depth > 0
            && moves == 1
            && (ply as i32) < 2 * self.root_depth;
        let child_depth = if forced {
            depth
        } else if depth > 0 {
            depth - 1
        } else {
            0
        };
        // Late-move pruning: past this many moves searched, late quiet moves are not.
        let lmp_after = if self.options.lmp
            && depth > 0
            && depth <= self.options.lmp_depth as i32
            && !pv_node
            && alpha.abs() < WIN_BOUND
        {
            (self.options.lmp_moves as i32 * depth) as usize
        } else {
            usize::MAX
        };
        LoopPlan {
            // Late-move reductions apply from a nominal depth of three, after `lmr_moves` moves.
            reducing: self.options.lmr && depth >= 3,
            lmr_moves: self.options.lmr_moves as usize,
            child_depth,
            lmp_after,
        }
    }

    /// The plies a late quiet move is reduced by, the `searched`-th of a node of `depth` (its
    /// ordering score `ordered`: 0 or less for a move the history has not seen refute).
    #[inline(always)]
    fn reduction(
        &self,
        plan: &LoopPlan,
        depth: i32,
        searched: usize,
        pv_node: bool,
        ordered: i32,
    ) -> i32 {
        let r = self.reductions[(depth as usize).min(63)][searched.min(63)] as i32 - pv_node as i32
            + if ordered > 0 {
                0
            } else {
                self.options.lmr_unseen as i32
            };
        // Never into quiescence: a reduced child keeps a nominal depth of one.
        r.clamp(0, plan.child_depth - 1)
    }

    /// A child's score for its parent (principal-variation search): the first move with the
    /// full window `(alpha, beta)`, any other with a zero window at `child_depth - r` first,
    /// then at the full depth if a reduced move beat alpha, then with the full window if it is
    /// inside it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &Position<B>,
        ch: u64,
        child_depth: i32,
        r: i32,
        ply: usize,
        (alpha, beta, first): (Score, Score, bool),
        child_irr: usize,
    ) -> Score {
        if first {
            return -self.node(child, ch, child_depth, ply + 1, -beta, -alpha, child_irr);
        }
        let mut score = -self.node(
            child,
            ch,
            child_depth - r,
            ply + 1,
            -alpha - 1,
            -alpha,
            child_irr,
        );
        if r > 0 && score > alpha && !self.stop {
            // A reduced move beat alpha: the full depth decides.
            score = -self.node(
                child,
                ch,
                child_depth,
                ply + 1,
                -alpha - 1,
                -alpha,
                child_irr,
            );
        }
        if score > alpha && score < beta && !self.stop {
            score = -self.node(child, ch, child_depth, ply + 1, -beta, -alpha, child_irr);
        }
        score
    }

    /// A move that raised alpha at a principal-variation node at `ply`: its line may reach the
    /// root. (A zero-window node's line never does: it fails high or low.)
    #[inline(always)]
    fn new_pv(&mut self, ply: usize, mv: &Move<B>, score: Score) {
        if ply == 0 {
            self.root_score = Some(score);
        }
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(*mv);
        line.extend_from_slice(&tail[0]);
    }

    /// A move that refuted the node (`first_cut`: the first searched): the statistics, and for a
    /// quiet one the history (up for it, down for the quiet moves `tried` before it) and the
    /// killers.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn refuted(
        &mut self,
        side: usize,
        depth: i32,
        ply: usize,
        first_cut: bool,
        mv: &Move<B>,
        tried: &[(i32, u16)],
        moves: &[Move<B>],
    ) {
        self.stats.cutoffs += 1;
        self.stats.first_cutoffs += first_cut as u64;
        if mv.is_capture() || depth <= 0 {
            return;
        }
        let h = &mut self.history[history_index::<B>(side, mv)];
        *h = (*h + depth * depth).min(1 << 26);
        if self.options.history_malus {
            // The quiet moves tried before this one did not refute.
            for &(_, j) in tried {
                let m = &moves[j as usize];
                if !m.is_capture() {
                    let h = &mut self.history[history_index::<B>(side, m)];
                    *h = (*h - depth * depth).max(-(1 << 26));
                }
            }
        }
        if mv.kind_after == mv.kind_before {
            let k = &mut self.killers[ply];
            let key = killer_key(mv);
            if k[0] != key {
                k[1] = k[0];
                k[0] = key;
            }
        }
    }
}
