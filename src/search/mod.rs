//! A game-tree search for any rules file: iterative deepening principal-variation alpha-beta over
//! the generic move generator, with aspiration windows, Zobrist hashing, a transposition table
//! (kept between the searches of a game), move ordering (table move, captures, promotions, two
//! killer moves a ply, history), late-move reductions and futility at the frontier (each a named
//! option, see [`options`]; never a null move: zugzwang is common in draughts), a capture
//! quiescence (a search never stops while a capture is pending; a quiet position past the nominal
//! depth is scored without listing its moves, unless option `qs_exchanges` asks for its promotions
//! and exchanges) and the game-end rules of the variant (material rules, no moves, repetition)
//! inside the tree.
//!
//! HOT PATH: nothing is allocated per node; move lists, ordering scores and the principal variation
//! live in per-ply buffers owned by the [`Searcher`].

pub mod clock;
pub mod eval;
pub mod info;
pub mod learned;
mod node;
pub mod options;
pub mod tables;
pub mod tt;
pub mod weights;
pub mod zobrist;

use crate::engine::geometry::Bits;
use crate::engine::{BitSet, GenOptions, Move, Position, Rules};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A score in hundredths of the first kind of piece (when values are derived), for the side to move.
pub type Score = i32;
/// The score of a won position at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: Score = 30_000;
/// The deepest a search path may go (quiescence included).
pub const MAX_PLY: usize = 128;
/// The deepest nominal depth a search accepts.
pub const MAX_DEPTH: u32 = 64;
/// The longest win a score can say (`win in N` plies, from the root): the search's own wins are
/// at most [`MAX_PLY`] away, an endgame table's may be further.
pub const MAX_WIN_DISTANCE: Score = 2_000;
const WIN_BOUND: Score = WIN - MAX_WIN_DISTANCE;
/// A fall of the score between iterations larger than this makes the time manager count the
/// search unstable.
const SCORE_FALL: Score = 20;

/// An outside oracle (an endgame table): the exact score of a position for the side to move, if it
/// knows it, counted from that position (a win in `d` plies scores `WIN - d`, a loss `-(WIN - d)`).
/// Called at every node but the root, before the transposition-table look-up.
pub type Probe<B = Bits> = Arc<dyn Fn(&Position<B>) -> Option<Score> + Send + Sync>;

/// Counters of what searches did, summed over every search of a searcher until
/// [`Searcher::reset_stats`] (for measuring the search, e.g.
/// `cargo bench -p damelab-benches --bench engine`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes searched (as [`SearchResult::nodes`], summed).
    pub nodes: u64,
    /// Nodes past the nominal depth (capture quiescence), leaves included.
    pub quiescence: u64,
    /// Transposition-table look-ups that found the position, and those that ended the node.
    pub tt_hits: u64,
    pub tt_cuts: u64,
    /// Nodes that failed high, and those that did on their first move.
    pub cutoffs: u64,
    pub first_cutoffs: u64,
    /// Quiet nodes past the nominal depth (scored by the evaluation).
    pub leaves: u64,
    /// Nodes at a nominal depth of one (their children are past it).
    pub frontier: u64,
    /// Nodes before the nominal depth whose table move was quiet and refuted.
    pub tt_quiet_cuts: u64,
    /// Nodes that ProbCut ended.
    pub probcuts: u64,
    /// Nodes that reverse futility ended.
    pub rfp_cuts: u64,
}

/// When to stop: any limit reached ends the search (the last finished iteration counts).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The hard limit: the search stops when it is reached.
    pub time: Option<Duration>,
    /// On a game clock, the time the move should take (see [`clock::move_limits`]): no new
    /// iteration starts past a share of it, a smaller share when the best move has been stable
    /// and a larger one when it changed or the score fell. Without the `clock` option it is the
    /// hard limit itself, as before the time manager.
    pub target: Option<Duration>,
}

/// One finished iteration (or the final answer).
#[derive(Clone, Debug)]
pub struct Info<B: BitSet = Bits> {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move<B>>,
}

impl<B: BitSet> Info<B> {
    /// The same line with its moves in another bit-set width.
    pub fn to_width<C: BitSet>(&self) -> Info<C> {
        Info {
            depth: self.depth,
            score: self.score,
            nodes: self.nodes,
            elapsed: self.elapsed,
            pv: self.pv.iter().map(Move::to_width).collect(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<B: BitSet = Bits> {
    /// The best move, `None` when the position has no legal move (or the game is over).
    pub best: Option<Move<B>>,
    pub score: Score,
    /// The deepest finished iteration.
    pub depth: u32,
    pub pv: Vec<Move<B>>,
    pub nodes: u64,
    /// Stopped by a limit or by Ctrl-C before the depth limit.
    pub stopped: bool,
}

impl<B: BitSet> SearchResult<B> {
    /// The same result with its moves in another bit-set width.
    pub fn to_width<C: BitSet>(&self) -> SearchResult<C> {
        SearchResult {
            best: self.best.map(|m| m.to_width()),
            score: self.score,
            depth: self.depth,
            pv: self.pv.iter().map(Move::to_width).collect(),
            nodes: self.nodes,
            stopped: self.stopped,
        }
    }
}

/// A won or lost score as "win in N" / "loss in N" plies, else the score in units of the first
/// kind of piece (`+1.25`).
pub fn format_score(s: Score) -> String {
    if s >= WIN_BOUND {
        format!("win in {}", WIN - s)
    } else if s <= -WIN_BOUND {
        format!("loss in {}", WIN + s)
    } else {
        format!("{:+.2}", s as f64 / 100.0)
    }
}

/// Generic over the bit-set width of its rules (see [`BitSet`]); `Searcher` alone is the widest
/// one, which searches on the narrowest width the board fits. A position hashes and scores the
/// same in every width and the generator lists its moves in the same order, so a search gives the
/// same result in each (see [`Searcher::search`]).
pub struct Searcher<B: BitSet = Bits> {
    pub rules: Arc<Rules<B>>,
    pub keys: &'static zobrist::Keys,
    pub eval: eval::Eval<B>,
    /// Shared with the helper threads of a parallel search ([`Searcher::helpers`]).
    tt: Arc<tt::Table>,
    /// The helper threads' searchers of a parallel search (option `threads`, lazy SMP): each
    /// searches the same root with the same table, so what one finds the others read.
    helpers: Vec<Searcher<B>>,
    /// Which thread of a parallel search this searcher is (0: the one that reports).
    thread: usize,
    /// The history heuristic, by (side, from, to): `B::BITS` squares a side, so a 64-bit
    /// board's table is a quarter of a wide one's and stays in the cache.
    history: Vec<i32>,
    moves: Vec<Vec<Move<B>>>,
    order: Vec<Vec<(i32, u16)>>,
    /// The children's hashes (placement only, see [`zobrist::Keys::after_placement`]).
    hashes: Vec<Vec<u64>>,
    pv: Vec<Vec<Move<B>>>,
    /// Hashes of the positions on the path (game history since the last irreversible move, then
    /// the search path).
    path: Vec<u64>,
    nodes: u64,
    stats: Stats,
    limits: Limits,
    start: Instant,
    stop: bool,
    /// A stop request from outside the search thread (a web client that went away or pressed
    /// stop), polled with Ctrl-C: see [`Searcher::set_cancel`].
    cancel: Option<Arc<std::sync::atomic::AtomicBool>>,
    probe: Option<Probe<B>>,
    /// Two quiet moves per ply that refuted a sibling ([`killer_key`]), most recent first.
    killers: Vec<[u32; 2]>,
    repetition: bool,
    move_counts: bool,
    /// The depth of the iteration under way (quiescence past it is capped in variants that
    /// capture by approach and withdrawal: see `node.rs`).
    root_depth: i32,
    /// Quiet moves the quiescence may still search on this path (option `qs_exchanges`).
    qs_left: u32,
    /// The score of the root's line in `pv[0]`, when a root move has beaten alpha in the
    /// iteration under way (option `partial_root`).
    root_score: Option<Score>,
    /// Threatened quiet positions the quiescence may still search a ply on this path (option
    /// `qs_threats`).
    threats_left: u32,
    /// Positions one step from a promotion the quiescence may still search on this path
    /// (option `qs_promotions`).
    promotions_left: u32,
    /// Per side, the quiet steps that promote: (kind, bit-set delta, the squares from which a
    /// step that way lands in the kind's promotion zone). A piece of the kind on one of those
    /// squares with the square ahead empty promotes in one quiet move.
    promoting: [Vec<(usize, i16, B)>; 2],
    /// The same searcher on 64-bit sets, when `B` is wider and the board fits them
    /// ([`Rules::narrow`]): [`Searcher::search`] runs on it.
    narrow: Option<Box<Searcher<u64>>>,
    /// The same on 128-bit sets, when the board fits them but not 64 bits ([`Rules::mid`]).
    mid: Option<Box<Searcher<u128>>>,
    /// A generation of the last search ran past the route budget ([`Searcher::too_many_routes`]).
    routes_exceeded: bool,
    /// The search's switches ([`Searcher::set_options`]).
    pub options: options::Options,
    /// Late-move reductions by nominal depth and move number, precomputed from the options
    /// (the hot path only reads them).
    reductions: Box<[[u8; 64]; 64]>,
    /// A learned evaluation, when one is loaded ([`Searcher::set_weights`]).
    pub weights: Option<Arc<weights::Weights>>,
}

impl<B: BitSet> Searcher<B> {
    /// A searcher for these rules with a transposition table of `tt_mib` MiB.
    pub fn new(rules: Arc<Rules<B>>, tt_mib: usize) -> Searcher<B> {
        let eval = eval::Eval::new(&rules);
        let repetition = rules.spec.game.repetition_draw > 0;
        let narrow = rules
            .narrow
            .as_ref()
            .map(|n| Box::new(Searcher::new(n.clone(), tt_mib)));
        let mid = rules
            .mid
            .as_ref()
            .map(|m| Box::new(Searcher::new(m.clone(), tt_mib)));
        // The narrow searcher has the table; this one never searches.
        let tt_mib = if narrow.is_some() || mid.is_some() {
            0
        } else {
            tt_mib
        };
        let move_counts = !rules.spec.game.move_count_draws.is_empty();
        let tt = Arc::new(tt::Table::new(tt_mib));
        let promoting = std::array::from_fn(|side| {
            let mut steps = Vec::new();
            for kind in 0..rules.kinds {
                let p = &rules.programs[side][kind];
                if p.promotion_zone.none() {
                    continue;
                }
                for d in p.steps.iter() {
                    // `step_back` keeps only the squares with a neighbour that way.
                    let from = rules.step_back(p.promotion_zone, d);
                    if from.any() {
                        steps.push((kind, rules.geo.delta[d as usize], from));
                    }
                }
            }
            steps
        });
        Searcher {
            helpers: Vec::new(),
            thread: 0,
            keys: zobrist::Keys::shared(),
            eval,
            tt,
            narrow,
            mid,
            history: vec![0; 2 * (B::BITS * B::BITS) as usize],
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            hashes: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            path: Vec::with_capacity(1024),
            nodes: 0,
            stats: Stats::default(),
            limits: Limits::default(),
            start: Instant::now(),
            stop: false,
            routes_exceeded: false,
            cancel: None,
            probe: None,
            killers: vec![[0; 2]; MAX_PLY + 1],
            repetition,
            move_counts,
            root_depth: 0,
            qs_left: 0,
            root_score: None,
            threats_left: 0,
            promotions_left: 0,
            promoting,
            rules,
            reductions: reductions(&options::Options::default()),
            options: options::Options::default(),
            weights: None,
        }
    }

    /// Use these search options (on the narrower searchers too).
    pub fn set_options(&mut self, options: options::Options) {
        if let Some(n) = &mut self.narrow {
            n.set_options(options.clone());
        }
        if let Some(m) = &mut self.mid {
            m.set_options(options.clone());
        }
        self.reductions = reductions(&options);
        self.options = options;
        self.helpers.clear();
    }

    /// Play with these weights and the search settings they carry: the defaults with the
    /// weights' `search` line over them (the defaults alone for the derived evaluation). Front
    /// ends that also take named options build them with [`weights::options`] instead.
    pub fn set_tuned_weights(&mut self, weights: Option<Arc<weights::Weights>>) {
        self.set_options(weights::options(weights.as_deref()));
        self.set_weights(weights);
    }

    /// Evaluate with a learned evaluation's weights, or the derived evaluation (`None`).
    pub fn set_weights(&mut self, weights: Option<Arc<weights::Weights>>) {
        if let Some(n) = &mut self.narrow {
            n.set_weights(weights.clone());
        }
        if let Some(m) = &mut self.mid {
            m.set_weights(weights.clone());
        }
        self.eval.set_learned(
            weights
                .as_deref()
                .map(|w| learned::Learned::new(w, &self.rules)),
        );
        self.weights = weights;
        self.helpers.clear();
    }

    /// Stop the search when this flag is set (checked as often as Ctrl-C is), on the narrower
    /// searchers too: a server cancels one client's search without touching the others'.
    pub fn set_cancel(&mut self, cancel: Option<Arc<std::sync::atomic::AtomicBool>>) {
        if let Some(n) = &mut self.narrow {
            n.set_cancel(cancel.clone());
        }
        if let Some(m) = &mut self.mid {
            m.set_cancel(cancel.clone());
        }
        self.cancel = cancel;
    }

    /// The outside oracle the search uses, if any ([`Searcher::set_probe`]).
    pub fn probe(&self) -> Option<&Probe<B>> {
        self.probe.as_ref()
    }

    /// Use an outside oracle (e.g. endgame tables) at every node.
    pub fn set_probe(&mut self, probe: Option<Probe<B>>) {
        if let Some(n) = &mut self.narrow {
            n.set_probe(probe.clone().map(|p| -> Probe<u64> {
                Arc::new(move |pos: &Position<u64>| p(&pos.to_width()))
            }));
        }
        if let Some(m) = &mut self.mid {
            m.set_probe(probe.clone().map(|p| -> Probe<u128> {
                Arc::new(move |pos: &Position<u128>| p(&pos.to_width()))
            }));
        }
        self.probe = probe;
        self.helpers.clear();
    }

    /// What the searches did since the searcher was made or [`Searcher::reset_stats`].
    pub fn stats(&self) -> Stats {
        let mut s = self.stats;
        for o in [
            self.narrow.as_ref().map(|n| n.stats()),
            self.mid.as_ref().map(|m| m.stats()),
        ]
        .into_iter()
        .flatten()
        .chain(self.helpers.iter().map(|h| h.stats()))
        {
            s.nodes += o.nodes;
            s.quiescence += o.quiescence;
            s.tt_hits += o.tt_hits;
            s.tt_cuts += o.tt_cuts;
            s.cutoffs += o.cutoffs;
            s.first_cutoffs += o.first_cutoffs;
            s.leaves += o.leaves;
            s.frontier += o.frontier;
            s.tt_quiet_cuts += o.tt_quiet_cuts;
            s.probcuts += o.probcuts;
            s.rfp_cuts += o.rfp_cuts;
        }
        s
    }

    pub fn reset_stats(&mut self) {
        if let Some(n) = &mut self.narrow {
            n.reset_stats();
        }
        if let Some(m) = &mut self.mid {
            m.reset_stats();
        }
        for h in &mut self.helpers {
            h.reset_stats();
        }
        self.stats = Stats::default();
    }

    /// Forget the transposition table and the history heuristic (a new game).
    pub fn clear(&mut self) {
        if let Some(n) = &mut self.narrow {
            n.clear();
        }
        if let Some(m) = &mut self.mid {
            m.clear();
        }
        self.tt.clear();
        self.history.fill(0);
        for h in &mut self.helpers {
            h.history.fill(0);
        }
    }

    /// The hashes of a game's positions before its last one, since its last capture or promotion:
    /// the history a search needs for repetition.
    pub fn history_of(&self, start: &Position<B>, moves: &[Move<B>]) -> Vec<u64> {
        let mut out = Vec::new();
        let mut pos = *start;
        let mut h = self.keys.hash(&pos);
        for mv in moves {
            out.push(h);
            let next = self.rules.play(&pos, mv);
            h = self.keys.after(&pos, h, mv, &next);
            if mv.is_capture() || mv.kind_after != mv.kind_before {
                out.clear();
            }
            pos = next;
        }
        out
    }

    /// Search `pos` (reached after the positions hashed in `history`, see [`Searcher::history_of`])
    /// within `limits`; `report` is called after each finished iteration.
    pub fn search(
        &mut self,
        pos: &Position<B>,
        history: &[u64],
        limits: Limits,
        report: &mut dyn FnMut(&Info<B>),
    ) -> SearchResult<B> {
        if let Some(n) = &mut self.narrow {
            // The same search on 64-bit sets: the same hashes, scores and move order.
            return n
                .search(&pos.to_width(), history, limits, &mut |i| {
                    report(&i.to_width())
                })
                .to_width();
        }
        if let Some(m) = &mut self.mid {
            return m
                .search(&pos.to_width(), history, limits, &mut |i| {
                    report(&i.to_width())
                })
                .to_width();
        }
        let threads = self.options.threads.max(1) as usize;
        if threads == 1 {
            return self.search_thread(pos, history, limits, report);
        }
        if self.helpers.len() != threads - 1 {
            self.helpers = (1..threads).map(|t| self.helper(t)).collect();
        }
        // Lazy SMP: the helpers search the same root without a limit but the depth, sharing the
        // table, until this thread's search ends; its result is the answer.
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut helpers = std::mem::take(&mut self.helpers);
        let helper_limits = Limits {
            depth: limits.depth,
            ..Limits::default()
        };
        let mut result = std::thread::scope(|s| {
            for h in helpers.iter_mut() {
                h.cancel = Some(done.clone());
                s.spawn(move || h.search_thread(pos, history, helper_limits, &mut |_| {}));
            }
            let r = self.search_thread(pos, history, limits, report);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            r
        });
        result.nodes += helpers.iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        result
    }

    /// Whether the last search stopped because a position it met needs more than the route
    /// budget ([`crate::engine::ROUTE_BUDGET`]) to list its moves: its result is then not an
    /// answer, and the caller reports [`crate::engine::TooManyRoutes`] instead of a move.
    pub fn too_many_routes(&self) -> bool {
        self.routes_exceeded
            || self.narrow.as_ref().is_some_and(|n| n.too_many_routes())
            || self.mid.as_ref().is_some_and(|m| m.too_many_routes())
            || self.helpers.iter().any(|h| h.routes_exceeded)
    }

    /// The moves of `pos` into `out`, within the route budget: a position beyond it (a user's
    /// rules or position) leaves `out` empty and stops the search, which then reports
    /// [`Searcher::too_many_routes`] instead of hanging in the capture search.
    #[inline]
    fn generate_bounded(&mut self, pos: &Position<B>, out: &mut Vec<Move<B>>) {
        if self
            .rules
            .generate_within(pos, out, GenOptions::default(), crate::engine::ROUTE_BUDGET)
            .is_err()
        {
            out.clear();
            self.routes_exceeded = true;
            self.stop = true;
        }
    }

    /// A helper thread's searcher for a parallel search: this one's rules, settings and table.
    fn helper(&self, thread: usize) -> Searcher<B> {
        let mut h = Searcher::new(self.rules.clone(), 0);
        h.tt = self.tt.clone();
        h.thread = thread;
        h.set_options(self.options.clone());
        h.set_weights(self.weights.clone());
        h.set_probe(self.probe.clone());
        h
    }

    /// One thread's iterative deepening (see [`Searcher::search`]); a helper (thread > 0) does not
    /// start a new search of the shared table, and the odd ones go one iteration ahead.
    fn search_thread(
        &mut self,
        pos: &Position<B>,
        history: &[u64],
        limits: Limits,
        report: &mut dyn FnMut(&Info<B>),
    ) -> SearchResult<B> {
        let (limits, target) = self.begin(limits, history);
        let hash = self.keys.hash(pos);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);

        let mut root = Vec::new();
        self.generate_bounded(pos, &mut root);
        if self.routes_exceeded {
            return SearchResult {
                best: None,
                score: 0,
                depth: 0,
                pv: Vec::new(),
                nodes: 0,
                stopped: true,
            };
        }
        let mut result = SearchResult {
            best: root.first().copied(),
            score: 0,
            depth: 0,
            pv: root.first().copied().into_iter().collect(),
            nodes: 0,
            stopped: false,
        };
        if root.is_empty() {
            return result;
        }
        // One legal move under a time limit: one iteration, for a score, and no more.
        let max_depth = if self.options.single_reply && root.len() == 1 && limits.time.is_some() {
            1
        } else {
            max_depth
        };
        // The time manager: past this share of a time limit no new iteration starts (it would
        // rarely finish); a best move that changes, or a falling score, extends it.
        let soft = limits
            .time
            .map(|t| t.mul_f64(self.options.soft_time as f64 / 100.0));
        let mut instability = 0.0f64;
        let first = (1 + (self.thread & 1) as u32).min(max_depth);
        for depth in first..=max_depth {
            let base = self.path.len();
            self.path.push(hash);
            self.root_depth = depth as i32;
            let score = self.iteration(pos, hash, depth, result.score);
            self.path.truncate(base);
            if self.stop {
                self.keep_partial_root(&mut result);
                result.stopped = true;
                break;
            }
            let previous = (result.best, result.score);
            result.score = score;
            result.depth = depth;
            result.pv.clone_from(&self.pv[0]);
            result.best = self.pv[0].first().copied().or(result.best);
            // Recent changes of mind (the best move, or a fall of the score) weigh most.
            let changed =
                depth > 1 && (result.best != previous.0 || score < previous.1 - SCORE_FALL);
            instability = instability / 2.0 + changed as u32 as f64;
            report(&Info {
                depth,
                score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: result.pv.clone(),
            });
            // A forced win or loss is found: deeper iterations cannot change it.
            if score.abs() >= WIN_BOUND && (WIN - score.abs()) as u32 <= depth {
                break;
            }
            if self.out_of_time(target, soft, limits.time, instability) {
                break;
            }
        }
        result.nodes = self.nodes;
        self.stats.nodes += self.nodes;
        result
    }

    /// A search's start: the clock's target (the time manager's, or with the option off the
    /// limit itself), the counters and the stop reset, the killers cleared, the history halved
    /// (what refuted moves in earlier searches counts, for half), the path the game's.
    fn begin(&mut self, limits: Limits, history: &[u64]) -> (Limits, Option<Duration>) {
        let (limits, target) = match (limits.time, limits.target) {
            (Some(t), Some(g)) if self.options.clock => (limits, Some(g.min(t))),
            (Some(t), Some(g)) => (
                Limits {
                    time: Some(g.min(t)),
                    ..limits
                },
                None,
            ),
            _ => (limits, None),
        };
        self.limits = limits;
        self.start = Instant::now();
        self.stop = false;
        self.routes_exceeded = false;
        self.nodes = 0;
        if self.thread == 0 {
            self.tt.new_search();
        }
        self.killers.fill([0; 2]);
        for h in self.history.iter_mut() {
            *h /= 2;
        }
        self.path.clear();
        self.path.extend_from_slice(history);
        self.qs_left = self.options.qs_exchanges;
        self.threats_left = self.options.qs_threats;
        self.promotions_left = self.options.qs_promotions;
        (limits, target)
    }

    /// One iteration of `depth` from the root (its hash on the path), in an aspiration window
    /// around the score of the one before (`previous`) from depth 3: outside the window, searched
    /// again with it widened on the side that failed.
    fn iteration(&mut self, pos: &Position<B>, hash: u64, depth: u32, previous: Score) -> Score {
        let aspiration = self.options.aspiration;
        let mut delta = aspiration;
        let (mut alpha, mut beta) = (-WIN - 1, WIN + 1);
        if depth >= 3 && previous.abs() < WIN_BOUND {
            alpha = previous - delta;
            beta = previous + delta;
        }
        loop {
            self.root_score = None;
            let score = self.node(pos, hash, depth as i32, 0, alpha, beta, 0);
            if self.stop {
                return score;
            }
            if score <= alpha && alpha > -WIN - 1 {
                alpha = if delta >= 4 * aspiration {
                    -WIN - 1
                } else {
                    (score - delta).max(-WIN - 1)
                };
            } else if score >= beta && beta < WIN + 1 {
                beta = if delta >= 4 * aspiration {
                    WIN + 1
                } else {
                    (score + delta).min(WIN + 1)
                };
            } else {
                return score;
            }
            delta *= 2;
        }
    }

    /// An iteration stopped: a root move searched to the end in it beat the first one (or is
    /// the first, searched deeper): it is the better move.
    fn keep_partial_root(&self, result: &mut SearchResult<B>) {
        if let (true, Some(s), Some(&m)) = (
            self.options.partial_root,
            self.root_score,
            self.pv[0].first(),
        ) {
            result.best = Some(m);
            result.score = s;
            result.pv.clone_from(&self.pv[0]);
        }
    }

    /// Whether no new iteration starts: with the clock's `target`, the next iteration takes
    /// about as long as every one before it together, so it starts only while it can end near
    /// the target (a stable best move stops at half the target, an unstable one goes on up to
    /// twice it); with a time limit (`hard`), past its `soft` share, up to twice the share for
    /// an unstable search, never more than the limit.
    fn out_of_time(
        &self,
        target: Option<Duration>,
        soft: Option<Duration>,
        hard: Option<Duration>,
        instability: f64,
    ) -> bool {
        if let Some(target) = target {
            let share = 0.5 + 0.75 * instability.min(2.0);
            self.start.elapsed() >= target.mul_f64(share / 2.0)
        } else if let (Some(soft), Some(hard)) = (soft, hard) {
            let extended = soft.mul_f64(1.0 + 0.5 * instability.min(2.0)).min(hard);
            self.options.soft_time < 100 && self.start.elapsed() >= extended
        } else {
            false
        }
    }

    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stop {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stop = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if crate::interrupt::requested()
                || self
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                self.stop = true;
            }
            if let Some(t) = self.limits.time {
                if self.start.elapsed() >= t {
                    self.stop = true;
                }
            }
        }
        self.stop
    }

    /// Whether the position on top of the path occurred before (same side to move) since `irr`.
    #[inline]
    fn repeated(&self, hash: u64, irr: usize) -> bool {
        let top = self.path.len() - 1;
        let mut i = top;
        while i >= irr + 2 {
            i -= 2;
            if self.path[i] == hash {
                return true;
            }
        }
        false
    }

    /// The score of a draw by repetition or move count at `ply` from the root, for the side to
    /// move there: `-contempt` on the root side's plies, `+contempt` on its opponent's (option
    /// `contempt`; 0 without it).
    #[inline]
    fn draw_score(&self, ply: usize) -> Score {
        let c = self.options.contempt;
        if ply.is_multiple_of(2) {
            -c
        } else {
            c
        }
    }

    fn end_score(&self, pos: &Position<B>, legal: usize, ply: usize) -> Option<Score> {
        let o = self.rules.outcome(pos, legal)?;
        Some(match o.winner {
            None => 0,
            Some(w) if w == pos.turn() => WIN - ply as Score,
            Some(_) => -(WIN - ply as Score),
        })
    }
}

/// The late-move reductions of a search with these options, by nominal depth and move number:
/// `ln(depth) × ln(move) × 100 / lmr_div`, rounded down (no reduction when `lmr` is off).
fn reductions(o: &options::Options) -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    if !o.lmr {
        return t;
    }
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let x = (d as f64).ln() * (m as f64).ln() * 100.0 / o.lmr_div as f64;
            *r = x.clamp(0.0, 32.0) as u8;
        }
    }
    t
}

/// A quiet move as a killer: origin, destination and kind (never 0).
#[inline(always)]
fn killer_key<B: BitSet>(m: &Move<B>) -> u32 {
    1 << 24 | (m.kind_before as u32) << 16 | (m.to as u32) << 8 | m.from as u32
}

#[inline(always)]
fn history_index<B: BitSet>(side: usize, m: &Move<B>) -> usize {
    let n = B::BITS as usize;
    (side * n + m.from as usize) * n + m.to as usize
}

#[inline(always)]
fn to_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s + ply as Score
    } else if s <= -WIN_BOUND {
        s - ply as Score
    } else {
        s
    }
}

#[inline(always)]
fn from_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s - ply as Score
    } else if s <= -WIN_BOUND {
        s + ply as Score
    } else {
        s
    }
}
