//! Named search options, set from text by every front end that runs the engine (the engine
//! settings of `damelab match`, `analyse --option`, the Hub protocol's parameters), so one name
//! means one switch everywhere. Every behaviour added to the search since commit `8d59e68` has a
//! switch here, and the preset `8d59e68` turns them all off: that engine, node for node.

/// The switches of the search. `Default` is the engine as it plays unless told otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Late-move reductions: quiet moves late in the order are searched shallower first.
    pub lmr: bool,
    /// Moves searched at full depth before reductions start.
    pub lmr_moves: u32,
    /// The reduction's divisor, in hundredths: `ln(depth) × ln(move number) × 100 / lmr_div`.
    pub lmr_div: u32,
    /// Late-move reductions also reduce a quiet move after which the opponent must capture (an
    /// exchange offered, or a sacrifice); off, such a move is searched at full depth.
    pub reduce_offers: bool,
    /// Futility at the frontier: at a nominal depth of one, quiet moves of a position whose score
    /// plus a margin cannot reach alpha are not searched.
    pub futility: bool,
    /// The margin of futility, in score units (hundredths of the first kind of piece).
    pub futility_margin: i32,
    /// Time manager: with a time limit, no new iteration starts after this share of the time (in
    /// percent; 100 = use the whole limit).
    pub soft_time: u32,
    /// A root with one legal move is answered at once.
    pub single_reply: bool,
    /// The time manager of game clocks: a move's share of the clock is its target and the hard
    /// limit a few times more (see [`super::clock::move_limits`]); off, the share is the limit.
    pub clock: bool,
    /// ProbCut: from a nominal depth of `probcut_depth`, outside the principal variation, a search
    /// `probcut_reduction` plies shallower with a null window at beta + `probcut_margin` that
    /// fails high ends the node (a real search, never a null move).
    pub probcut: bool,
    /// The ProbCut margin, in score units.
    pub probcut_margin: i32,
    /// The shallowest nominal depth at which ProbCut is tried.
    pub probcut_depth: u32,
    /// How much shallower ProbCut's search is.
    pub probcut_reduction: u32,
    /// Threads of a parallel search (lazy SMP: helpers search the same root, sharing the
    /// transposition table); 1 searches alone, node for node as before.
    pub threads: u32,
    /// A position with a single legal move (a forced capture, most often) does not use up a ply
    /// of the nominal depth, within twice the iteration's depth from the root.
    pub single_extension: bool,
    /// Quiescence past a quiet position: after the stand pat, the moves that promote and, while
    /// every piece on the board is of the first kind, the moves after which the opponent has a
    /// capture (exchanges and shots), at most this many on one path; 0 scores a quiet position
    /// as it stands.
    pub qs_exchanges: u32,
    /// Reverse futility ("static beta") pruning: up to a nominal depth of `rfp_depth`, outside the
    /// principal variation and with no capture due, a node whose static score minus
    /// `rfp_margin` a ply still reaches beta ends with beta.
    pub rfp: bool,
    /// The deepest nominal depth at which reverse futility is tried.
    pub rfp_depth: u32,
    /// Reverse futility's margin a ply of nominal depth, in score units.
    pub rfp_margin: i32,
    /// Late-move pruning: up to a nominal depth of `lmp_depth`, outside the principal variation
    /// and with no capture due, quiet moves late in the order (neither the table move, a killer
    /// nor a promotion) are not searched after `lmp_moves × depth` moves.
    pub lmp: bool,
    /// The deepest nominal depth at which late moves are pruned.
    pub lmp_depth: u32,
    /// Moves searched a ply of nominal depth before late moves are pruned.
    pub lmp_moves: u32,
    /// The history heuristic also lowers the quiet moves searched before the one that refuted
    /// (by as much as the refuting move gains).
    pub history_malus: bool,
    /// A search stopped by its time or node limit plays the best move its unfinished iteration
    /// has proved (a root move searched to the end that beat the first), not the last finished
    /// iteration's.
    pub partial_root: bool,
    /// Internal iterative reduction: a node of nominal depth `iir_depth` or more whose position
    /// the table has no move for is searched a ply shallower (it is likely new, and badly
    /// ordered; the next iteration finds its move in the table).
    pub iir: bool,
    /// The shallowest nominal depth at which internal iterative reduction applies.
    pub iir_depth: u32,
    /// Threats in quiescence: a quiet position past the nominal depth in which the opponent
    /// threatens a capture is searched a ply (every move, no stand pat) instead of scored as it
    /// stands, at most this many times on one path; 0 scores it as it stands.
    pub qs_threats: u32,
    /// Promotions in quiescence: a quiet position past the nominal depth in which the side to
    /// move has a piece one quiet step from an empty square where it promotes (read from each
    /// kind's steps and promotion zone) is not scored as it stands: after the stand pat, its
    /// promoting moves are searched, at most this many on one path; 0 scores it as it stands.
    pub qs_promotions: u32,
    /// Half the width of an iteration's first window around the last one's score, in score
    /// units (aspiration windows); it doubles on each side that fails.
    pub aspiration: i32,
    /// Late-move reductions reduce this many plies more a quiet move that the history heuristic
    /// has not seen refute a node lately (its history zero or below).
    pub lmr_unseen: u32,
    /// Contempt for a draw, in score units: a draw by repetition or by a move-count rule found in
    /// the search is scored `-contempt` for the side the search is for (and `+contempt` for its
    /// opponent), so that side steers clear of such a draw unless it judges itself worse by more
    /// than the contempt; a negative contempt makes it avoid the draw only when it judges itself
    /// better by more than `-contempt`. 0 (the default) scores these draws 0, as always.
    pub contempt: i32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            lmr: true,
            lmr_moves: 3,
            lmr_div: 150,
            reduce_offers: true,
            futility: true,
            futility_margin: 60,
            soft_time: 100,
            single_reply: true,
            clock: true,
            probcut: false,
            probcut_margin: 100,
            probcut_depth: 6,
            probcut_reduction: 4,
            threads: 1,
            single_extension: false,
            qs_exchanges: 0,
            rfp: false,
            rfp_depth: 2,
            rfp_margin: 80,
            lmp: false,
            lmp_depth: 2,
            lmp_moves: 4,
            history_malus: false,
            partial_root: false,
            iir: false,
            iir_depth: 4,
            qs_threats: 0,
            qs_promotions: 0,
            aspiration: 40,
            lmr_unseen: 0,
            contempt: 0,
        }
    }
}

/// The preset that turns every switch off: the engine of commit `8d59e68`.
pub const PRESET_8D59E68: &str = "8d59e68";

impl Options {
    /// The names [`Options::set`] accepts, each with a line of help.
    pub const NAMES: &'static [(&'static str, &'static str)] = &[
        (
            "preset",
            "`8d59e68` (every switch below off: the engine of that commit) or `default`",
        ),
        ("lmr", "late-move reductions, `true` or `false`"),
        (
            "lmr_moves",
            "moves searched at full depth before reductions start (0 to 64)",
        ),
        (
            "lmr_div",
            "reduction divisor in hundredths: ln(depth) × ln(move) × 100 / lmr_div (50 to 1000)",
        ),
        (
            "reduce_offers",
            "late-move reductions also reduce a quiet move that leaves the opponent a capture, `true` or `false`",
        ),
        (
            "futility",
            "futility pruning at the frontier, `true` or `false`",
        ),
        (
            "futility_margin",
            "futility margin in hundredths of the first kind of piece (0 to 1000)",
        ),
        (
            "soft_time",
            "percent of a time limit after which no new iteration starts (10 to 100)",
        ),
        (
            "single_reply",
            "answer a position with one legal move at once, `true` or `false`",
        ),
        (
            "clock",
            "time manager on a game clock (stable moves fast, unstable ones longer), `true` or `false`",
        ),
        (
            "probcut",
            "ProbCut: a shallower null-window search above beta ends a node that fails high, `true` or `false`",
        ),
        (
            "probcut_margin",
            "ProbCut's margin above beta, in hundredths of the first kind of piece (0 to 1000)",
        ),
        (
            "probcut_depth",
            "the shallowest nominal depth at which ProbCut is tried (3 to 32)",
        ),
        (
            "probcut_reduction",
            "how many plies shallower ProbCut's search is (2 to 8)",
        ),
        (
            "threads",
            "threads of a parallel search sharing one table (lazy SMP), 1 to 64",
        ),
        (
            "single_extension",
            "a position with one legal move does not use up a ply of depth, `true` or `false`",
        ),
        (
            "qs_exchanges",
            "quiet moves that promote or offer a capture, searched past the depth, at most N a path (0 off), 0 to 8",
        ),
        (
            "rfp",
            "reverse futility: a shallow node whose static score minus a margin reaches beta ends, `true` or `false`",
        ),
        (
            "rfp_depth",
            "the deepest nominal depth at which reverse futility is tried (1 to 8)",
        ),
        (
            "rfp_margin",
            "reverse futility's margin a ply, in hundredths of the first kind of piece (0 to 1000)",
        ),
        (
            "lmp",
            "late-move pruning: late quiet moves of shallow nodes are not searched, `true` or `false`",
        ),
        (
            "lmp_depth",
            "the deepest nominal depth at which late moves are pruned (1 to 8)",
        ),
        (
            "lmp_moves",
            "moves searched a ply of depth before late moves are pruned (1 to 64)",
        ),
        (
            "history_malus",
            "the history heuristic also lowers the quiet moves tried before a refutation, `true` or `false`",
        ),
        (
            "partial_root",
            "a search stopped by its limit plays the best move its unfinished iteration proved, `true` or `false`",
        ),
        (
            "iir",
            "internal iterative reduction: a deep node with no move in the table is searched a ply shallower, `true` or `false`",
        ),
        (
            "iir_depth",
            "the shallowest nominal depth at which internal iterative reduction applies (2 to 32)",
        ),
        (
            "qs_threats",
            "quiet positions past the depth where the opponent threatens a capture, searched a ply, at most N a path (0 off), 0 to 8",
        ),
        (
            "qs_promotions",
            "quiet positions past the depth where a piece is one step from promoting: its promotions searched after the stand pat, at most N a path (0 off), 0 to 8",
        ),
        (
            "aspiration",
            "half the width of an iteration's first window around the last score, in hundredths of the first kind of piece (5 to 1000)",
        ),
        (
            "lmr_unseen",
            "plies more of late-move reduction for a move with no history (none that refuted lately), 0 to 3",
        ),
        (
            "contempt",
            "a draw by repetition or move count in the search scored this much below 0 for the searching side, in hundredths of the first kind of piece (-1000 to 1000)",
        ),
    ];

    /// The engine of commit `8d59e68`: every switch off.
    pub fn preset_8d59e68() -> Options {
        Options {
            lmr: false,
            futility: false,
            soft_time: 100,
            single_reply: false,
            clock: false,
            probcut: false,
            single_extension: false,
            qs_exchanges: 0,
            rfp: false,
            lmp: false,
            history_malus: false,
            partial_root: false,
            iir: false,
            qs_threats: 0,
            lmr_unseen: 0,
            ..Options::default()
        }
    }

    /// Set option `name` from its text `value`; an unknown name or a bad value is an error that
    /// says what is accepted.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim();
        match name {
            "preset" => match v {
                PRESET_8D59E68 => *self = Options::preset_8d59e68(),
                "default" => *self = Options::default(),
                _ => return Err(OptionError::UnknownPreset(v.to_string())),
            },
            "lmr" => self.lmr = flag(name, v)?,
            "lmr_moves" => self.lmr_moves = number(name, v, 0, 64)? as u32,
            "lmr_div" => self.lmr_div = number(name, v, 50, 1000)? as u32,
            "reduce_offers" => self.reduce_offers = flag(name, v)?,
            "futility" => self.futility = flag(name, v)?,
            "futility_margin" => self.futility_margin = number(name, v, 0, 1000)? as i32,
            "soft_time" => self.soft_time = number(name, v, 10, 100)? as u32,
            "single_reply" => self.single_reply = flag(name, v)?,
            "clock" => self.clock = flag(name, v)?,
            "probcut" => self.probcut = flag(name, v)?,
            "probcut_margin" => self.probcut_margin = number(name, v, 0, 1000)? as i32,
            "probcut_depth" => self.probcut_depth = number(name, v, 3, 32)? as u32,
            "probcut_reduction" => self.probcut_reduction = number(name, v, 2, 8)? as u32,
            "threads" => self.threads = number(name, v, 1, 64)? as u32,
            "single_extension" => self.single_extension = flag(name, v)?,
            "qs_exchanges" => self.qs_exchanges = number(name, v, 0, 8)? as u32,
            "rfp" => self.rfp = flag(name, v)?,
            "rfp_depth" => self.rfp_depth = number(name, v, 1, 8)? as u32,
            "rfp_margin" => self.rfp_margin = number(name, v, 0, 1000)? as i32,
            "lmp" => self.lmp = flag(name, v)?,
            "lmp_depth" => self.lmp_depth = number(name, v, 1, 8)? as u32,
            "lmp_moves" => self.lmp_moves = number(name, v, 1, 64)? as u32,
            "history_malus" => self.history_malus = flag(name, v)?,
            "partial_root" => self.partial_root = flag(name, v)?,
            "iir" => self.iir = flag(name, v)?,
            "iir_depth" => self.iir_depth = number(name, v, 2, 32)? as u32,
            "qs_threats" => self.qs_threats = number(name, v, 0, 8)? as u32,
            "qs_promotions" => self.qs_promotions = number(name, v, 0, 8)? as u32,
            "aspiration" => self.aspiration = number(name, v, 5, 1000)? as i32,
            "lmr_unseen" => self.lmr_unseen = number(name, v, 0, 3)? as u32,
            "contempt" => self.contempt = number(name, v, -1000, 1000)? as i32,
            _ => {
                let known: Vec<String> =
                    Self::NAMES.iter().map(|(n, _)| format!("`{n}`")).collect();
                return Err(OptionError::Unknown {
                    name: name.to_string(),
                    known: known.join(", "),
                });
            }
        }
        Ok(())
    }

    /// The options as `name=value` pairs (what [`Options::set`] reads back).
    pub fn describe(&self) -> String {
        format!(
            "lmr={} lmr_moves={} lmr_div={} reduce_offers={} futility={} futility_margin={} soft_time={} single_reply={} clock={} probcut={} probcut_margin={} probcut_depth={} probcut_reduction={} threads={} single_extension={} qs_exchanges={} rfp={} rfp_depth={} rfp_margin={} lmp={} lmp_depth={} lmp_moves={} history_malus={} partial_root={} iir={} iir_depth={} qs_threats={} qs_promotions={} aspiration={} lmr_unseen={} contempt={}",
            self.lmr,
            self.lmr_moves,
            self.lmr_div,
            self.reduce_offers,
            self.futility,
            self.futility_margin,
            self.soft_time,
            self.single_reply,
            self.clock,
            self.probcut,
            self.probcut_margin,
            self.probcut_depth,
            self.probcut_reduction,
            self.threads,
            self.single_extension,
            self.qs_exchanges,
            self.rfp,
            self.rfp_depth,
            self.rfp_margin,
            self.lmp,
            self.lmp_depth,
            self.lmp_moves,
            self.history_malus,
            self.partial_root,
            self.iir,
            self.iir_depth,
            self.qs_threats,
            self.qs_promotions,
            self.aspiration,
            self.lmr_unseen,
            self.contempt
        )
    }
}

/// A search option that cannot be set: its name or its value, and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum OptionError {
    #[error("unknown preset `{0}`: the presets are `{PRESET_8D59E68}` and `default`")]
    #[diagnostic(help("give `preset={PRESET_8D59E68}` or `preset=default`"))]
    UnknownPreset(String),
    #[error("unknown search option `{name}`: the options are {known}")]
    #[diagnostic(help("give one of the options listed, as `NAME=VALUE`"))]
    Unknown { name: String, known: String },
    #[error("option `{name}` takes `true` or `false`, not `{value}`")]
    #[diagnostic(help("give `{name}=true` or `{name}=false`"))]
    NotFlag { name: String, value: String },
    #[error("option `{name}` takes a whole number from {lo} to {hi}, not `{value}`")]
    #[diagnostic(help("give a whole number from {lo} to {hi}"))]
    OutOfRange {
        name: String,
        value: String,
        lo: i64,
        hi: i64,
    },
}

fn flag(name: &str, v: &str) -> Result<bool, OptionError> {
    match v {
        "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        _ => Err(OptionError::NotFlag {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}

fn number(name: &str, v: &str, lo: i64, hi: i64) -> Result<i64, OptionError> {
    match v.parse::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(OptionError::OutOfRange {
            name: name.to_string(),
            value: v.to_string(),
            lo,
            hi,
        }),
    }
}
