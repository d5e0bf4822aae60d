//! Compiled rules: a [`VariantSpec`] turned into per-side, per-piece programs over the geometry's
//! tables, ready for the move generator.

use super::bits::BitSet;
use super::geometry::{bit, layout_size, Bits, Geometry, Sq, LAYOUT_BITS, NONE};
use super::position::Position;
use crate::spec::{
    Angle, AngleSet, CaptureOp, Criterion, Landing, MidCapturePromotion, QuietOp, Removal,
    SquareSet, VariantSpec, Zone,
};
use std::sync::Arc;

pub use crate::spec::MAX_KINDS;

/// A short list of directions, stored inline so the generator never chases a pointer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dirs {
    pub len: u8,
    pub list: [Angle; 8],
}

impl Dirs {
    fn from_set(set: AngleSet, side: usize) -> Dirs {
        let mut d = Dirs::default();
        for a in 0..8u8 {
            if set & (1 << a) != 0 {
                d.list[d.len as usize] = Geometry::side_angle(side, a);
                d.len += 1;
            }
        }
        d
    }

    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = Angle> + '_ {
        self.list[..self.len as usize].iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[derive(Clone, Copy, Debug)]
pub struct LeapOp {
    pub dir: Angle,
    /// Bit mask of own piece kinds that form a file.
    pub over: u8,
    /// Longest file that may be leapt.
    pub max: u8,
}

/// What one kind of piece of one side may do.
#[derive(Clone, Debug, Default)]
pub struct PieceProgram<B: BitSet = Bits> {
    pub steps: Dirs,
    pub slides: Dirs,
    pub leaps: Vec<LeapOp>,
    pub jumps: Dirs,
    pub flies: Dirs,
    /// `jumps_after[last]`, `flies_after[last]`: the directions the piece may jump in after a jump
    /// in direction `last` (index 8: the first jump of a capture) — all of them, less the reverse
    /// under `no 180 turn`, only `last` itself for a piece whose captures keep to one line. The
    /// capture search looks its directions up here, so neither rule costs it a test per jump.
    /// Entries 16 to 23 (`EDGE_TURN + last`): after a jump in direction `last` whose line ends
    /// at the board's edge — for a piece that turns there (`turning at the edge`) every direction
    /// but straight back, for any other the same as entry `last`. Thirty-two entries (9 to 15
    /// and 24 to 31 empty), so that an index masked to five bits needs no bounds test.
    pub jumps_after: [Dirs; 32],
    pub flies_after: [Dirs; 32],
    /// Short jumps at a fixed gap (`after one empty square`): one empty square, the enemy piece,
    /// the landing directly behind it; `gaps_after` as `jumps_after`. Empty for every piece
    /// without them, so their loops cost the generator one length test.
    pub gaps: Dirs,
    pub gaps_after: [Dirs; 32],
    /// Captures by approach and withdrawal: the directions of their steps (either kind), and per
    /// direction (bit masks of angles) whether a step that way may take by approach, by
    /// withdrawal. `steps_after[last]`: the step directions after a step in direction `last`
    /// (8: the first), less `last` under `no two steps in one direction` and its reverse under
    /// `no 180 turn`.
    pub step_caps: Dirs,
    pub approach_set: u8,
    pub withdraw_set: u8,
    pub steps_after: [Dirs; 16],
    /// Bit mask of enemy kinds this piece may capture.
    pub takes: u8,
    /// It may capture every enemy kind (`takes` covers them all): the generator then takes the
    /// enemy's whole set without looking at kinds.
    pub takes_all: bool,
    /// (kind it becomes, zone), first match wins.
    pub promotions: Vec<(u8, B)>,
    /// Every square of `promotions` (a quiet move elsewhere never promotes).
    pub promotion_zone: B,
    pub rank: u8,
    pub value: u8,
    /// (max, own kinds mask): at most `max` quiet moves in a row while the side has one of those.
    pub quiet_limit: Option<(u8, u8)>,
    /// Longest slide (`slide … up to N`); `u8::MAX` = no limit.
    pub slide_max: u8,
    /// Farthest a flying capture reaches for the piece it takes (`up to N`).
    pub fly_reach: u8,
    /// Farthest beyond the taken piece a flying capture lands: `up to N`, 1 for `landing directly
    /// behind`.
    pub fly_land: u8,
    /// Kinds (bit mask) whose capture as the last of a move makes a flying piece land directly
    /// behind (`landing directly behind when the last piece taken is a …`).
    pub behind_last: u8,
    /// `leaping a row of adjacent pieces`: a flying jump may leap an unbroken row of enemy pieces
    /// it may take and land beyond the last, taking them all.
    pub fly_row: bool,
}

impl<B: BitSet> PieceProgram<B> {
    /// The directions of short jumps after a jump in direction `last` (8: none yet).
    #[inline(always)]
    pub fn jumps_after(&self, last: u8) -> &Dirs {
        &self.jumps_after[(last & 31) as usize]
    }

    /// The directions of flying captures after a jump in direction `last` (8: none yet).
    #[inline(always)]
    pub fn flies_after(&self, last: u8) -> &Dirs {
        &self.flies_after[(last & 31) as usize]
    }

    pub fn can_capture(&self) -> bool {
        !(self.jumps.is_empty() && self.flies.is_empty() && self.gaps.is_empty())
    }

    /// The directions of gap jumps after a jump in direction `last` (8: none yet).
    #[inline(always)]
    pub fn gaps_after(&self, last: u8) -> &Dirs {
        &self.gaps_after[(last & 31) as usize]
    }

    /// The directions of capturing steps after a step in direction `last` (8: none yet).
    #[inline(always)]
    pub fn steps_after(&self, last: u8) -> &Dirs {
        &self.steps_after[(last & 15) as usize]
    }

    /// The kind this piece becomes on `sq`, if it promotes there.
    #[inline(always)]
    pub fn promotion_at(&self, sq: Sq) -> Option<u8> {
        if !self.promotion_zone.has(sq) {
            return None;
        }
        self.promotions
            .iter()
            .find(|(_, zone)| zone.has(sq))
            .map(|&(to, _)| to)
    }
}

/// A priority criterion, compiled: how many bits of the sort key it takes.
#[derive(Clone, Copy, Debug)]
pub struct KeyField {
    pub criterion: Criterion,
    pub width: u32,
}

/// The longest capture sequence a move can record. A board is accepted when its layout uses at
/// most [`LAYOUT_BITS`] = 256 indices, so it has at most 256
/// playable squares, and a capture takes at most every piece but the capturing one: 255 (which
/// still fits a move's `u8` route length). A move in a narrower width holds as many as that width
/// has squares ([`BitSet::Route`]).
/// [`Rules::compile`] checks each board's own bound against these capacities, so a capture
/// route is never cut short.
pub const MAX_PATH: usize = 255;

/// The `last` index of a jump in direction `d` whose line ended at the board's edge is
/// `EDGE_TURN + d` (see [`PieceProgram::flies_after`]).
pub const EDGE_TURN: u8 = 16;

/// Bits needed to hold every number `0..=n`.
const fn bits_for(n: u32) -> u32 {
    u32::BITS - n.leading_zeros()
}

/// A variant, compiled, its bit sets `B` wide (see [`BitSet`]); `Rules` alone is the widest one,
/// which every accepted board fits, with the same rules in the narrowest width the board fits in
/// [`Rules::narrow`] or [`Rules::mid`], where perft, the search, self-play and endgame tables run.
#[derive(Clone, Debug)]
pub struct Rules<B: BitSet = Bits> {
    pub spec: VariantSpec,
    pub geo: Geometry,
    pub kinds: usize,
    /// `programs[side][kind]`.
    pub programs: [[PieceProgram<B>; MAX_KINDS]; 2],
    pub compulsory: bool,
    pub removal: Removal,
    pub no_180: bool,
    /// The direction of a capture's last jump limits its next one (`no 180 turn`, or a piece
    /// whose captures keep to one line).
    pub directed: bool,
    /// `may stop after any jump`.
    pub may_stop: bool,
    /// Some piece jumps at a fixed gap (`after one empty square`): the capture search is
    /// compiled with and without their loops, chosen once per capturing piece, so that variants
    /// without them pay nothing.
    pub gaps: bool,
    /// Some piece's one-line captures turn at the board's edge (`turning at the edge`): the
    /// capture search's second compilation (that of `gaps`) marks a jump ending its line at the
    /// edge, so that variants without either pay nothing.
    pub edge_turns: bool,
    /// Some piece's flying jumps leap rows of adjacent pieces (`leaping a row of adjacent
    /// pieces`): the capture search's second compilation (that of `gaps`) looks past the first
    /// piece taken, so that variants without it pay nothing.
    pub row_leaps: bool,
    /// `huffing`: the generator takes its own path ([`Rules::huff_moves`]), chosen once per
    /// position, so variants without it pay nothing.
    pub huffing: bool,
    /// `huffing of smaller captures`: the huffing path also marks a capture that takes fewer
    /// pieces than the most available ([`Rules::huff_moves`]).
    pub huff_smaller: bool,
    /// Some piece captures by approach or withdrawal (`capture approach …`): the generator takes
    /// its own path ([`Rules::step_capture_moves`]); the checker keeps such variants free of jumps.
    pub approach: bool,
    /// `no return to a visited square` (captures by approach and withdrawal).
    pub no_revisit: bool,
    /// `take top`: pieces stack into columns; the generator takes its own path
    /// ([`Rules::stack_moves`](super::stacks)).
    pub stacks: bool,
    /// Pieces in hand and their placement phase ([`super::drops`]).
    pub drops: super::drops::DropRules<B>,
    /// `huffing`, `approach`, `stacks`, a single combat or pieces in hand: the generator leaves
    /// its common path,
    /// at the cost of one test.
    pub special: bool,
    /// `… may declare single combat`: the rule and its tables of distances
    /// ([`Rules::combat_moves`]).
    pub combat: Option<Arc<super::combat::Combat>>,
    pub mid_capture: MidCapturePromotion,
    pub key: Vec<KeyField>,
    /// Distinct ranks, highest first, for [`Criterion::HighestCapturedRanks`].
    pub ranks_desc: Vec<u8>,
    pub start: Position<B>,
    /// The most pieces one capture can take on this board: every playable square but the
    /// capturing piece's own. Never more than [`MAX_PATH`] (checked by [`Rules::compile`]).
    pub max_captures: u32,
    /// Bits a count of captured pieces takes in the priority key (enough for `max_captures`).
    pub count_bits: u32,
    /// The priority key compares sequences by what they capture, not by the order they capture it
    /// in (no `earliest` criterion): two routes reaching the same state of the search can only
    /// end in the same moves, so the search may skip the second (see `movegen`).
    pub order_free_key: bool,
    /// The number of pieces a sequence takes is the key's first field (`priority most pieces`
    /// first): a branch that cannot take as many as the best found so far can be cut.
    pub count_first: bool,
    /// The priority alone already makes a flying piece take a landing square from which it can
    /// jump on (`count_first`, and promotion does not stop a capture): the generator need not
    /// look ahead from each landing square.
    pub continuation_implied: bool,
    /// The priority is `most pieces` alone: a sequence's key is the number of pieces it takes.
    pub count_only: bool,
    /// Total width of the priority key in bits.
    pub key_width: u32,
    /// Whether any end condition depends on material (checked before generating moves).
    pub has_material_rules: bool,
    /// Per side, the squares a piece of it wins on (`reaching far rank wins`; empty without).
    pub goal: [B; 2],
    /// Per move-count draw rule with a material condition, the most pieces the board holds when
    /// it is met (see `Rules::draw_material_holds`).
    pub draw_most: [u8; crate::spec::MAX_MOVE_COUNT_RULES],
    /// The playable squares (the geometry's, in this width).
    pub playable: B,
    /// `from[angle]`: the squares with a neighbour that way (the geometry's, in this width).
    pub from: [B; 8],
    /// `rays[sq][angle]`: the squares from `sq` (excluded) to the edge in that direction.
    pub rays: Vec<[B; 8]>,
    /// The same rules in 64-bit sets, when the board fits them and `B` is wider: perft, search,
    /// self-play and endgame tables run on the narrowest width that fits.
    pub narrow: Option<Arc<Rules<u64>>>,
    /// The same rules in 128-bit sets, when the board fits them but not 64 bits, and `B` is wider.
    pub mid: Option<Arc<Rules<u128>>>,
}

/// A compiled variant the engine cannot run (limits of the engine, not of the language).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum CompileError {
    #[error("variant `{0}` declares {1} kinds of piece; the engine handles at most {MAX_KINDS}")]
    TooManyKinds(String, usize),
    #[error("the priority criteria of `{0}` need {1} bits of sort key; at most 128 fit")]
    #[diagnostic(help("use fewer criteria, or fewer ranks with `highest captured ranks`"))]
    KeyTooWide(String, u32),
    #[error("board {0}x{1} is too large: it needs {2} square indices and the engine holds {LAYOUT_BITS}")]
    #[diagnostic(help("width and height run from 2 to 16: any board up to 16x16, of all squares or of dark squares"))]
    BoardTooLarge(u8, u8, u32),
    #[error("a capture on board {0}x{1} can take up to {2} pieces; the engine records at most {MAX_PATH}")]
    #[diagnostic(help("use a smaller board"))]
    RouteTooLong(u8, u8, u32),
}

impl Rules {
    /// Compile a variant for every use: bit sets wide enough for any accepted board.
    pub fn compile(spec: &VariantSpec) -> Result<Rules, CompileError> {
        Rules::<Bits>::compile_width(spec)
    }
}

impl<B: BitSet> Rules<B> {
    /// The rules' identity: FNV-1a ([`crate::util::Fnv`]) of the checked spec's JSON form. Two
    /// rules files that say the same thing have the same fingerprint, whatever their wording;
    /// run files, weights, PDN's `[Rules]` tag and endgame table files record it, so that a
    /// changed rules file of the same name is noticed.
    pub fn fingerprint_hash(&self) -> u64 {
        let text = serde_json::to_string(&self.spec).unwrap_or_default();
        crate::util::Fnv::of(text.as_bytes())
    }

    /// [`Rules::fingerprint_hash`] as 16 hex digits, as files record it.
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", self.fingerprint_hash())
    }

    /// Whether any end condition depends on the position alone (material, goals).
    fn material_rules(spec: &VariantSpec) -> bool {
        let g = &spec.game;
        !(g.lone_wins.is_empty()
            && g.lone_draws.is_empty()
            && g.lose_without.is_empty()
            && g.first_wins.is_empty()
            && g.reach_wins.is_empty())
    }

    /// Per side, the squares of its goals (`reaching <zone> wins`).
    fn goals(spec: &VariantSpec, geo: &Geometry, start: &Position<B>) -> [B; 2] {
        std::array::from_fn(|side| {
            spec.game
                .reach_wins
                .iter()
                .fold(B::ZERO, |g, z| g | Self::zone_bits(geo, start, side, z))
        })
    }

    /// The squares of a zone (of a promotion or a goal) for one side: `far rank` and named
    /// squares as that side sees the board, `start of enemy <piece>` from the start position.
    fn zone_bits(geo: &Geometry, start: &Position<B>, side: usize, zone: &Zone) -> B {
        match zone {
            Zone::FarRank => geo.far_rank(side).to::<B>(),
            Zone::Squares(list) => {
                let mut bits = Bits::ZERO;
                for &c in list {
                    let c = if side == 0 { c } else { geo.rotate_coord(c) };
                    if let Some(sq) = geo.square(c) {
                        bits |= bit(sq);
                    }
                }
                (bits & geo.playable).to::<B>()
            }
            Zone::EnemyStart(kind) => start.kind_bits(1 - side, *kind as usize),
        }
    }

    /// The start position: the setup's pieces, and the pieces in hand.
    fn start_of(spec: &VariantSpec, geo: &Geometry) -> Position<B> {
        let mut start = Position::<B>::empty_of(spec.first_to_move as usize);
        for side in 0..2 {
            for &(kind, c) in &spec.setup[side] {
                if let Some(sq) = geo.square(c) {
                    if geo.is_playable(sq) {
                        start.put(sq, side, kind as usize);
                    }
                }
            }
        }
        super::drops::DropRules::fill_hands(spec, &mut start);
        start
    }

    /// Whether the generator leaves its common path: huffing, captures by approach or
    /// withdrawal, stacks, or pieces in hand.
    /// Compile a variant with `B`-wide bit sets; a board that does not fit is refused.
    pub fn compile_width(spec: &VariantSpec) -> Result<Rules<B>, CompileError> {
        let b = &spec.board;
        let size = layout_size(b.width, b.height, b.squares != SquareSet::All);
        if size > LAYOUT_BITS
            || size > B::BITS
            || b.width < 2
            || b.height < 2
            || b.width > 16
            || b.height > 16
        {
            return Err(CompileError::BoardTooLarge(b.width, b.height, size));
        }
        let kinds = spec.pieces.len();
        if kinds > MAX_KINDS || kinds == 0 {
            return Err(CompileError::TooManyKinds(spec.name.clone(), kinds));
        }
        let geo = Geometry::new(b);
        // A capture takes distinct enemy pieces, each on its own playable square, and the capturing
        // piece stands on one more: this bounds every route the generator can find.
        let max_captures = geo.playable.count().saturating_sub(1);
        if max_captures as usize > MAX_PATH || max_captures as usize > B::ROUTE.as_ref().len() {
            return Err(CompileError::RouteTooLong(b.width, b.height, max_captures));
        }
        let count_bits = bits_for(max_captures);
        let max_value = spec
            .pieces
            .iter()
            .map(|p| p.value as u32)
            .max()
            .unwrap_or(0);
        let start = Self::start_of(spec, &geo);

        // Inline arrays (no pointer to chase in the generator); kinds past `kinds` stay empty.
        let programs: [[PieceProgram<B>; MAX_KINDS]; 2] = std::array::from_fn(|side| {
            std::array::from_fn(|k| {
                spec.pieces
                    .get(k)
                    .map(|piece| Self::program(spec, &geo, &start, side, piece))
                    .unwrap_or_default()
            })
        });

        let mut ranks_desc: Vec<u8> = spec.pieces.iter().map(|p| p.rank).collect();
        ranks_desc.sort_unstable_by(|a, b| b.cmp(a));
        ranks_desc.dedup();
        let key: Vec<KeyField> = spec
            .captures
            .priority
            .iter()
            .map(|&criterion| KeyField {
                criterion,
                width: match criterion {
                    Criterion::MostPieces | Criterion::MostOf(_) => count_bits,
                    Criterion::MostValue => bits_for(max_value * max_captures),
                    Criterion::HighestCapturer => 8,
                    Criterion::HighestCapturedRanks => count_bits * ranks_desc.len() as u32,
                    // One bit per capture of the longest route, the first capture highest.
                    Criterion::EarliestOf(_) => max_captures.max(1),
                },
            })
            .collect();
        let width: u32 = key.iter().map(|f| f.width).sum();
        let order_free_key = !key
            .iter()
            .any(|f| matches!(f.criterion, Criterion::EarliestOf(_)));
        let count_first = key
            .first()
            .is_some_and(|f| f.criterion == Criterion::MostPieces);
        let count_only = count_first && key.len() == 1;
        if width > 128 {
            return Err(CompileError::KeyTooWide(spec.name.clone(), width));
        }

        Ok(Rules {
            spec: spec.clone(),
            kinds,
            programs,
            compulsory: spec.captures.compulsory,
            removal: spec.captures.removal,
            no_180: spec.captures.no_180_turn,
            directed: spec.captures.no_180_turn || spec.pieces.iter().any(|p| p.one_line),
            may_stop: spec.captures.may_stop,
            gaps: Self::any_gap_jump(spec),
            edge_turns: spec.pieces.iter().any(|p| p.edge_turn),
            row_leaps: spec.pieces.iter().any(|p| p.row_leap),
            huffing: spec.captures.huffing,
            huff_smaller: spec.captures.huffing_smaller,
            approach: Self::any_step_capture(spec),
            no_revisit: spec.captures.no_revisit,
            stacks: spec.captures.stacks,
            special: Self::is_special(spec),
            combat: None,
            drops: super::drops::DropRules::compile(spec, &geo, geo.playable.to::<B>()),
            mid_capture: spec.captures.mid_capture_promotion,
            key,
            ranks_desc,
            start,
            max_captures,
            count_bits,
            order_free_key,
            count_first,
            count_only,
            continuation_implied: count_first
                && spec.captures.mid_capture_promotion != MidCapturePromotion::Stop,
            key_width: width,
            draw_most: Self::draw_most(spec),
            has_material_rules: Self::material_rules(spec),
            goal: Self::goals(spec, &geo, &start),
            rays: (0..=u8::MAX as usize)
                .map(|sq| {
                    std::array::from_fn(|a| {
                        let mut ray = B::ZERO;
                        let mut t = geo.next[a][sq];
                        while t != NONE {
                            ray |= B::bit(t as Sq);
                            t = geo.next[a][t as usize];
                        }
                        ray
                    })
                })
                .collect(),
            playable: geo.playable.to::<B>(),
            from: geo.from.map(|b| b.to::<B>()),
            geo,
            narrow: if B::BITS > 64 && size <= 64 {
                Some(Arc::new(Rules::<u64>::compile_width(spec)?))
            } else {
                None
            },
            mid: if B::BITS > 128 && size > 64 && size <= 128 {
                Some(Arc::new(Rules::<u128>::compile_width(spec)?))
            } else {
                None
            },
        }
        .with_combat())
    }

    /// [`Rules::draw_most`] of a spec.
    fn draw_most(spec: &VariantSpec) -> [u8; crate::spec::MAX_MOVE_COUNT_RULES] {
        std::array::from_fn(|i| {
            spec.game
                .move_count_draws
                .get(i)
                .and_then(|r| r.material.as_ref())
                .map_or(0, |m| super::draws::most_pieces(m).min(255) as u8)
        })
    }

    /// Whether the generator leaves its common path ([`Rules::special`]).
    fn is_special(spec: &VariantSpec) -> bool {
        spec.captures.huffing
            || Self::any_step_capture(spec)
            || spec.captures.stacks
            || spec.game.combat.is_some()
            || spec.placement.is_some()
    }

    fn any_gap_jump(spec: &VariantSpec) -> bool {
        spec.pieces.iter().any(|p| {
            p.captures
                .iter()
                .any(|c| matches!(c, CaptureOp::GapJump { .. }))
        })
    }

    fn any_step_capture(spec: &VariantSpec) -> bool {
        spec.pieces
            .iter()
            .any(|p| p.captures.iter().any(|c| c.is_step_capture()))
    }

    fn program(
        spec: &VariantSpec,
        geo: &Geometry,
        start: &Position<B>,
        side: usize,
        piece: &crate::spec::PieceSpec,
    ) -> PieceProgram<B> {
        let mut step_set: AngleSet = 0;
        let mut slide_set: AngleSet = 0;
        let mut leaps = Vec::new();
        let mut slide_max = 0u8;
        for op in &piece.quiet {
            match *op {
                QuietOp::Step { dirs } => step_set |= dirs,
                QuietOp::Slide { dirs, range } => {
                    slide_set |= dirs;
                    slide_max = slide_max.max(range.unwrap_or(u8::MAX));
                }
                QuietOp::Leap { dirs, over, max } => {
                    for a in 0..8u8 {
                        if dirs & (1 << a) != 0 {
                            leaps.push(LeapOp {
                                dir: Geometry::side_angle(side, a),
                                over,
                                max: max.unwrap_or(u8::MAX),
                            });
                        }
                    }
                }
            }
        }
        // A slide already makes every step in its directions: drop the step so no move is made twice.
        step_set &= !slide_set;
        let mut jump_set: AngleSet = 0;
        let mut gap_set: AngleSet = 0;
        let mut fly_set: AngleSet = 0;
        let (mut fly_reach, mut fly_land, mut behind_last) = (0u8, 0u8, 0u8);
        let (mut approach_abs, mut withdraw_abs) = (0 as AngleSet, 0 as AngleSet);
        for op in &piece.captures {
            match *op {
                CaptureOp::Approach { dirs } => approach_abs |= dirs,
                CaptureOp::Withdrawal { dirs } => withdraw_abs |= dirs,
                CaptureOp::Jump { dirs } => jump_set |= dirs,
                CaptureOp::GapJump { dirs } => gap_set |= dirs,
                CaptureOp::Fly {
                    dirs,
                    range,
                    landing,
                } => {
                    // A piece's flying captures share one range and landing rule: the widest.
                    fly_set |= dirs;
                    let r = range.unwrap_or(u8::MAX);
                    fly_reach = fly_reach.max(r);
                    match landing {
                        Landing::Anywhere => fly_land = fly_land.max(r),
                        Landing::DirectlyBehind => fly_land = fly_land.max(1),
                        Landing::BehindLast(kinds) => {
                            fly_land = fly_land.max(r);
                            behind_last |= kinds;
                        }
                    }
                }
            }
        }
        jump_set &= !fly_set;
        let mut takes = 0u8;
        for (k, other) in spec.pieces.iter().enumerate() {
            if !spec.captures.equal_or_lower_rank_only || other.rank <= piece.rank {
                takes |= 1 << k;
            }
        }
        let promotions: Vec<(u8, B)> = piece
            .promotions
            .iter()
            .map(|p| (p.to, Self::zone_bits(geo, start, side, &p.zone)))
            .collect();
        let promotion_zone = promotions.iter().fold(B::ZERO, |z, &(_, b)| z | b);
        let jumps = Dirs::from_set(jump_set, side);
        let flies = Dirs::from_set(fly_set, side);
        let gaps = Dirs::from_set(gap_set, side);
        let after = |dirs: Dirs| -> [Dirs; 32] {
            std::array::from_fn(|slot| {
                let mut d = Dirs::default();
                // At the edge: a piece that turns there may go any way but straight back.
                let (last, turn) = match slot {
                    0..=8 => (slot, false),
                    s if (EDGE_TURN as usize..EDGE_TURN as usize + 8).contains(&s) => {
                        (s - EDGE_TURN as usize, piece.edge_turn)
                    }
                    _ => return d,
                };
                for a in dirs.iter() {
                    if turn {
                        if !spec.captures.single_jump && (last + 4) % 8 != a as usize {
                            d.list[d.len as usize] = a;
                            d.len += 1;
                        }
                        continue;
                    }
                    // A single jump never goes on: no direction after one.
                    let allowed = last == 8
                        || !spec.captures.single_jump
                            && if piece.one_line {
                                a as usize == last
                            } else {
                                !(spec.captures.no_180_turn && (last + 4) % 8 == a as usize)
                            };
                    if allowed {
                        d.list[d.len as usize] = a;
                        d.len += 1;
                    }
                }
                d
            })
        };
        let step_caps = Dirs::from_set(approach_abs | withdraw_abs, side);
        let side_mask = |set: AngleSet| {
            Dirs::from_set(set, side)
                .iter()
                .fold(0u8, |m, a| m | 1 << a)
        };
        let steps_after = Self::steps_after(spec, &step_caps);
        PieceProgram {
            step_caps,
            approach_set: side_mask(approach_abs),
            withdraw_set: side_mask(withdraw_abs),
            steps_after,
            steps: Dirs::from_set(step_set, side),
            slides: Dirs::from_set(slide_set, side),
            leaps,
            jumps,
            flies,
            jumps_after: after(jumps),
            flies_after: after(flies),
            gaps,
            gaps_after: after(gaps),
            takes,
            takes_all: takes.count_ones() as usize == spec.pieces.len(),
            promotions,
            promotion_zone,
            rank: piece.rank,
            value: piece.value,
            quiet_limit: piece.quiet_limit.map(|l| (l.max, l.while_own)),
            slide_max,
            fly_reach,
            fly_land,
            behind_last,
            fly_row: piece.row_leap,
        }
    }

    /// `steps_after` of a piece's capturing steps: the directions after a step in direction
    /// `last` (8: the first), less `last` under `no two steps in one direction`, its reverse under
    /// `no 180 turn`, and every one under `single step`.
    fn steps_after(spec: &VariantSpec, step_caps: &Dirs) -> [Dirs; 16] {
        std::array::from_fn(|last| {
            let mut d = Dirs::default();
            if last > 8 {
                return d;
            }
            for a in step_caps.iter() {
                let a_us = a as usize;
                let banned = last != 8
                    && (spec.captures.single_jump
                        || (spec.captures.no_same_direction && a_us == last)
                        || (spec.captures.no_180_turn && (last + 4) % 8 == a_us));
                if !banned {
                    d.list[d.len as usize] = a;
                    d.len += 1;
                }
            }
            d
        })
    }

    pub fn side_letter(&self, side: usize) -> char {
        self.spec.sides[side].letter
    }

    pub fn piece_letter(&self, kind: usize) -> char {
        self.spec.pieces[kind].letter
    }
}
