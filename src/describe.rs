//! `damelab rules`: the variant in plain English, generated from the compiled rules (never from
//! stored text), so a rules file's author reads back what the file really says.

use crate::engine::geometry::{BitIter, BitSet};
use crate::engine::Rules;
use crate::spec::{
    AngleSet, CaptureOp, Criterion, Landing, Lines, MidCapturePromotion, Notation, QuietOp,
    Removal, Shape, SquareSet, VariantSpec, Zone, DIAGONAL_ANGLES, ORTHOGONAL_ANGLES,
};
use crate::util::plural;
use std::fmt::Write;

/// A plain-English description of what a compiled variant says.
pub fn describe(rules: &Rules) -> String {
    let mut out = String::new();
    board(&mut out, rules);
    setup(&mut out, rules);
    pieces(&mut out, rules);
    captures(&mut out, rules);
    end_of_game(&mut out, rules);
    out
}

/// The title, the board (its squares, notation, outline, lines and squares left out) and the
/// sides.
fn board(w: &mut String, rules: &Rules) {
    let spec = &rules.spec;
    let side = |s: usize| spec.sides[s].name.clone();
    let _ = writeln!(w, "{} ({})", spec.title, spec.name);
    let b = &spec.board;
    let squares = match (b.shape, b.squares, b.points) {
        (Shape::Hexagon, _, _) => "its cells, joined by six lines",
        _ if b.lines == Lines::CornersAndCentres => {
            "the corners of the cells and the centres where their diagonals cross"
        }
        (_, SquareSet::All, true) => "the points where lines cross",
        (_, SquareSet::All, false) => "all squares",
        (_, SquareSet::Dark, _) => "the dark squares only (a1 dark)",
        (_, SquareSet::DarkA1Light, _) => "the dark squares only (a1 light)",
    };
    let notation = match b.notation {
        Notation::Algebraic => "algebraic notation (a1, b2, …)".to_string(),
        Notation::Numbered => format!("squares numbered 1-{}", rules.geo.numbered.len()),
    };
    let outline = match b.shape {
        Shape::Hexagon => format!(
            "a hexagon of side {} ({} cells, files a-{} and ranks 1-{}, the upright line a1-{})",
            b.hex_side(),
            rules.geo.playable.count(),
            (b'a' + b.width - 1) as char,
            b.height,
            rules.geo.algebraic(rules.geo.rotate(0))
        ),
        Shape::Rectangle => match b.cells() {
            Some((cw, ch)) => format!(
                "a grid of {cw}x{ch} cells ({} points on the {}x{} lattice of files a-{} and \
                 ranks 1-{}: corners at odd file letters and odd ranks, a1, c1, …; centres at \
                 even ones, b2, d2, …)",
                rules.geo.playable.count(),
                b.width,
                b.height,
                (b'a' + b.width - 1) as char,
                b.height
            ),
            None => format!("{}x{}", b.width, b.height),
        },
    };
    let lines = match b.lines {
        Lines::Alquerque => {
            " Lines: orthogonal through every point, diagonal only through the points whose \
             file + rank is even (a1, c1, b2, …)."
        }
        Lines::CornersAndCentres => {
            " Lines: diagonal through every point (corner, centre, corner), orthogonal only \
             through the corners, from each corner to the next (a1-c1, a1-a3)."
        }
        Lines::EveryPoint if b.orthogonal_across => {
            " Orthogonal moves go from a dark square to the next dark square of its file or \
             rank, across the light square between (a1-a3, a1-c1)."
        }
        Lines::EveryPoint => "",
    };
    let removed = if b.removed.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = b
            .removed
            .iter()
            .map(|&(f, r)| format!("{}{}", (b'a' + f) as char, r + 1))
            .collect();
        format!(" Left out: {}.", names.join(", "))
    };
    let _ = writeln!(
        w,
        "\nBoard: {outline}, played on {squares}; {notation}.{lines}{removed}"
    );
    let _ = writeln!(
        w,
        "Sides: {} ({}) and {} ({}); {} moves first. {}'s forward is {}; {}'s is the opposite.",
        side(0),
        spec.sides[0].letter,
        side(1),
        spec.sides[1].letter,
        side(spec.first_to_move as usize),
        capitalise(&side(0)),
        spec.board.compass_name(spec.forward),
        side(1)
    );
}

/// Where each side's pieces start.
fn setup(w: &mut String, rules: &Rules) {
    let spec = &rules.spec;
    let side = |s: usize| spec.sides[s].name.clone();
    let _ = writeln!(w, "\nSetup:");
    for s in 0..2 {
        let mut parts = Vec::new();
        for (k, piece) in spec.pieces.iter().enumerate() {
            let squares: Vec<String> = BitIter(rules.start.kind_bits(s, k))
                .map(|sq| rules.geo.name(sq))
                .collect();
            if !squares.is_empty() {
                parts.push(format!(
                    "{} {} on {}",
                    squares.len(),
                    plural(&piece.name, squares.len()),
                    squares.join(", ")
                ));
            }
        }
        for (k, piece) in spec.pieces.iter().enumerate() {
            let n = rules.start.hand[s][k] as usize;
            if n != 0 {
                parts.push(format!("{n} {} in hand", plural(&piece.name, n)));
            }
        }
        let text = if parts.is_empty() {
            "nothing".to_string()
        } else {
            parts.join("; ")
        };
        let _ = writeln!(w, "  {}: {text}.", side(s));
    }
    placement(w, rules);
}

/// The placement phase, if pieces start in hand.
fn placement(w: &mut String, rules: &Rules) {
    let Some(p) = &rules.spec.placement else {
        return;
    };
    let n = p.per_turn;
    let _ = writeln!(
        w,
        "  A side holding pieces in hand places them instead of moving: {n} piece{} a turn \
         (fewer when fewer are left in hand), each on an empty square{}, all of one kind; it \
         moves once its hand is empty.",
        if n == 1 { "" } else { "s" },
        if p.not_on.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = BitIter(rules.playable & !rules.drops.squares)
                .map(|sq| rules.geo.name(sq))
                .collect();
            format!(" but {}", names.join(", "))
        }
    );
}

/// Each piece: its quiet moves, its captures, its limits and its promotions.
fn pieces(w: &mut String, rules: &Rules) {
    let spec = &rules.spec;
    let side = |s: usize| spec.sides[s].name.clone();
    let _ = writeln!(w, "\nPieces (directions as {} sees them):", side(0));
    for piece in &spec.pieces {
        let mut head = format!("  {} ({})", piece.name, piece.letter);
        if spec.pieces.iter().any(|p| p.rank != 1) {
            let _ = write!(head, ", rank {}", piece.rank);
        }
        if spec.pieces.iter().any(|p| p.value != 1) {
            let _ = write!(head, ", value {}", piece.value);
        }
        let _ = writeln!(w, "{head}:");
        if piece.quiet.is_empty() {
            let _ = writeln!(w, "    makes no quiet move");
        }
        for op in &piece.quiet {
            let line = quiet_text(spec, op);
            let _ = writeln!(w, "    {line}");
        }
        if let Some(limit) = piece.quiet_limit {
            let _ = writeln!(
                w,
                "    makes at most {} quiet moves in a row (any other move of its side starts the \
                 count again) while its side has {} left",
                limit.max,
                kinds_text(spec, limit.while_own, 2)
            );
        }
        if piece.captures.is_empty() {
            let _ = writeln!(w, "    does not capture");
        }
        for op in &piece.captures {
            let line = capture_text(spec, op);
            let _ = writeln!(w, "    {line}");
        }
        if piece.one_line && !piece.captures.is_empty() {
            let _ = writeln!(
                w,
                "    keeps a multi-capture to one line: every jump goes the way its first jump went"
            );
            if piece.edge_turn {
                let _ = writeln!(
                    w,
                    "    except at the board's edge: after a jump whose line ends there, the next \
                     jump may go any way but straight back"
                );
            }
        }
        if piece.row_leap {
            let _ = writeln!(
                w,
                "    a flying jump may leap a row of enemy pieces standing side by side on its \
                 line, taking them all, and land beyond the last"
            );
        }
        if spec.captures.equal_or_lower_rank_only && !piece.captures.is_empty() {
            let names: Vec<&str> = spec
                .pieces
                .iter()
                .filter(|p| p.rank <= piece.rank)
                .map(|p| p.name.as_str())
                .collect();
            let _ = writeln!(w, "    may capture only: {}", names.join(", "));
        }
        for p in &piece.promotions {
            let to = &spec.pieces[p.to as usize].name;
            let zone = zone_words(rules, &p.zone);
            let _ = writeln!(w, "    becomes a {to} when its move ends on {zone}");
        }
    }
}

/// A quiet move of a piece, in words.
fn quiet_text(spec: &VariantSpec, op: &QuietOp) -> String {
    match op {
        QuietOp::Step { dirs } => format!("steps one square {}", dirs_text(spec, *dirs)),
        QuietOp::Slide { dirs, range } => {
            let how_far = match range {
                None => "any number of".to_string(),
                Some(1) => "one".to_string(),
                Some(n) => format!("up to {n}"),
            };
            format!("slides {how_far} empty squares {}", dirs_text(spec, *dirs))
        }
        QuietOp::Leap { dirs, over, max } => {
            let (file, n) = match max {
                Some(1) => ("one adjacent own".to_string(), 1),
                Some(n) => (format!("a file of up to {n} own"), 2),
                None => ("an unbroken file of any length of own".to_string(), 2),
            };
            format!(
                "leaps over {file} {} {} to the empty square beyond",
                kinds_text(spec, *over, n),
                dirs_text(spec, *dirs)
            )
        }
    }
}

/// A capture of a piece, in words.
fn capture_text(spec: &VariantSpec, op: &CaptureOp) -> String {
    match op {
        CaptureOp::Approach { dirs } => format!(
            "captures by approach {}: a step to the adjacent empty square takes the enemy \
             piece next beyond it, and the unbroken line of enemy pieces behind that one",
            dirs_text(spec, *dirs)
        ),
        CaptureOp::Withdrawal { dirs } => format!(
            "captures by withdrawal {}: a step to the adjacent empty square takes the \
             enemy piece directly behind the square it left, and the unbroken line of \
             enemy pieces behind that one",
            dirs_text(spec, *dirs)
        ),
        CaptureOp::Jump { dirs } => format!(
            "captures by a short jump over an adjacent enemy piece {}",
            dirs_text(spec, *dirs)
        ),
        CaptureOp::GapJump { dirs } => format!(
            "captures by a jump at a fixed gap: over one empty square, then the enemy piece \
             next to it, landing directly behind that piece {}",
            dirs_text(spec, *dirs)
        ),
        CaptureOp::Fly {
            dirs,
            range,
            landing,
        } => {
            let (over, beyond) = match range {
                None => (
                    "any empty squares".to_string(),
                    "any empty square beyond".to_string(),
                ),
                Some(n) => (
                    format!("at most {} empty squares", n - 1),
                    format!("an empty square at most {n} beyond"),
                ),
            };
            let landing = match landing {
                Landing::Anywhere => format!("landing on {beyond}"),
                Landing::DirectlyBehind => "landing on the square directly behind it".to_string(),
                Landing::BehindLast(kinds) => format!(
                    "landing on {beyond}; when the last piece a move takes is a {}, \
                     directly behind it",
                    kinds_text(spec, *kinds, 1)
                ),
            };
            format!(
                "captures by a long jump {}: over {over} and one enemy piece, {landing}",
                dirs_text(spec, *dirs)
            )
        }
    }
}

/// The capture rules: whether capturing is due, how a capture goes on, when captured pieces
/// go, promotion mid-capture, the priority among captures.
fn captures(w: &mut String, rules: &Rules) {
    let spec = &rules.spec;
    let c = &spec.captures;
    let _ = writeln!(w, "\nCaptures:");
    let _ = writeln!(
        w,
        "  {}",
        if c.huffing_smaller {
            "capturing the most pieces is due but not forced: a player may capture fewer, or move \
             quietly, instead; after a capture of fewer than the most the opponent may remove \
             (huff) the piece that made it, and after a quiet move one of the pieces that could \
             have captured, and then makes its own move"
        } else if c.huffing {
            "capturing is due but not forced: a player who has a capture and moves quietly \
             instead may have one of the pieces that could have captured removed by the opponent \
             (huffed), who then makes its own move"
        } else if c.compulsory {
            "capturing is compulsory"
        } else {
            "capturing is optional"
        }
    );
    let steps = spec
        .pieces
        .iter()
        .any(|p| p.captures.iter().any(|op| op.is_step_capture()));
    if steps {
        let _ = writeln!(
            w,
            "  {}",
            if c.single_jump {
                "a capture is a single step: it takes one line and ends there, even where it \
                 could go on; where one step could take by approach or by withdrawal, the player \
                 chooses one"
            } else if c.may_stop {
                "a capturing piece may stop after any capturing step, or go on capturing while \
                 it can (each stop is a move of its own); where one step could take by approach \
                 or by withdrawal, the player chooses one"
            } else {
                "a capturing piece goes on capturing while it can; where one step could take by \
                 approach or by withdrawal, the player chooses one"
            }
        );
        if c.no_revisit {
            let _ = writeln!(
                w,
                "  the capturing piece never returns to a square it has stood on this turn"
            );
        }
        if c.no_same_direction {
            let _ = writeln!(
                w,
                "  the capturing piece never makes two steps in a row in one direction"
            );
        }
    } else {
        let _ = writeln!(
            w,
            "  {}; {}",
            if c.single_jump {
                "a capture is a single jump: it takes one piece and ends there, even where it \
                 could jump on"
            } else if c.may_stop {
                "a capturing piece may stop after any jump, or go on while it can (each stop is \
                 a move of its own)"
            } else {
                "a capturing piece goes on jumping while it can"
            },
            if c.stacks && c.removal == Removal::Immediate {
                "a column may be jumped again while an enemy piece tops it"
            } else {
                "a piece is never jumped twice"
            }
        );
    }
    if c.stacks {
        let _ = writeln!(
            w,
            "  pieces stack into columns: a capture takes only the top piece of the jumped \
             column and puts it under the capturing column (at the bottom, in the order taken); \
             the piece under it, if any, tops the jumped column; a column belongs to the side of \
             its top piece and moves, captures and promotes as that piece"
        );
    }
    let _ = writeln!(
        w,
        "  {}",
        match c.removal {
            _ if steps => "each line taken is removed at once (its squares are free again)",
            Removal::Immediate if c.stacks =>
                "each jumped column gives up its top at once (its square is free again if nothing was under it)",
            Removal::EndOfTurn if c.stacks =>
                "jumped columns give up their tops at the end of the move (until then they block)",
            Removal::Immediate => "each jumped piece is removed at once (its square is free again)",
            Removal::EndOfTurn =>
                "jumped pieces are removed at the end of the move (until then they block)",
        }
    );
    if c.no_180_turn {
        let _ = writeln!(
            w,
            "  the capturing piece may not turn through 180° between two jumps"
        );
    }
    let _ = writeln!(
        w,
        "  {}",
        match c.mid_capture_promotion {
            MidCapturePromotion::AtEnd =>
                "a piece reaching its promotion squares mid-capture goes on as it is; it promotes only if the move ends there",
            MidCapturePromotion::Continue =>
                "a piece reaching its promotion squares mid-capture promotes at once and goes on capturing as the new piece",
            MidCapturePromotion::Stop =>
                "a piece reaching its promotion squares mid-capture promotes and its move ends there",
        }
    );
    if c.priority.is_empty() {
        let _ = writeln!(
            w,
            "  priority: free choice among all {}",
            if c.may_stop {
                "captures, each stop included"
            } else {
                "complete capture sequences"
            }
        );
    } else {
        let _ = writeln!(
            w,
            "  priority, each rule applied only when the previous ones tie:"
        );
        for (i, cr) in c.priority.iter().enumerate() {
            let text = match cr {
                Criterion::MostPieces => "the most pieces captured".to_string(),
                Criterion::MostValue => "the highest total value captured".to_string(),
                Criterion::HighestCapturer => "the capture by the highest-ranked piece".to_string(),
                Criterion::HighestCapturedRanks => {
                    "the captured pieces compared rank by rank, highest rank first".to_string()
                }
                Criterion::MostOf(k) => {
                    format!(
                        "the most {} captured",
                        plural(&spec.pieces[*k as usize].name, 2)
                    )
                }
                Criterion::EarliestOf(k) => format!(
                    "the {} captured earliest in the sequence",
                    plural(&spec.pieces[*k as usize].name, 2)
                ),
            };
            let _ = writeln!(w, "    {}. {text}", i + 1);
        }
        let _ = writeln!(w, "    then free choice");
    }
}

/// How a game ends: no moves, lone pieces, pieces lost, repetition, move counts.
fn end_of_game(w: &mut String, rules: &Rules) {
    let spec = &rules.spec;
    let g = &spec.game;
    let _ = writeln!(w, "\nEnd of game:");
    if g.no_moves_loses {
        let _ = writeln!(w, "  a side with no legal move (or no pieces) loses");
    } else if g.no_moves_wins {
        let _ = writeln!(
            w,
            "  the aim is reversed: a side with no legal move (or no pieces) wins"
        );
    } else {
        let _ = writeln!(
            w,
            "  a side with no legal move (or no pieces): the game is drawn"
        );
    }
    for &k in &g.first_wins {
        let _ = writeln!(
            w,
            "  the first side to have a {} (by promotion) wins at once",
            spec.pieces[k as usize].name
        );
    }
    for zone in &g.reach_wins {
        let _ = writeln!(
            w,
            "  a side with a piece on {} (as that side sees the board) wins at once",
            zone_words(rules, zone)
        );
    }
    for &(win, lose) in &g.lone_wins {
        let _ = writeln!(
            w,
            "  a lone {} against a lone {} wins at once",
            spec.pieces[win as usize].name, spec.pieces[lose as usize].name
        );
    }
    for &(a, b) in &g.lone_draws {
        let _ = writeln!(
            w,
            "  a lone {} against a lone {}: the game is drawn at once",
            spec.pieces[a as usize].name, spec.pieces[b as usize].name
        );
    }
    if let Some(c) = &g.combat {
        let _ = writeln!(w, "{}", combat_words(c));
    }
    for &k in &g.lose_without {
        let _ = writeln!(
            w,
            "  a side left without a {} loses",
            spec.pieces[k as usize].name
        );
    }
    if g.repetition_draw > 0 {
        let _ = writeln!(
            w,
            "  a position occurring for the {} time with the same side to move is a draw",
            ordinal(g.repetition_draw)
        );
        if g.repetition_claimed {
            let _ = writeln!(
                w,
                "    (if claimed: the player to move may claim it; otherwise play goes on)"
            );
        }
    }
    for rule in &g.move_count_draws {
        let plies = rule.plies();
        let _ = writeln!(
            w,
            "  draw after {} ({plies} single moves){}",
            crate::engine::draws::move_count_words(spec, rule),
            if rule.claimed {
                ", if claimed; otherwise play goes on"
            } else {
                ""
            }
        );
    }
}

/// Directions of a set, named relative to the first side's forward when they form a known group.
/// A zone (of a promotion or a goal) in words: `the far rank`, squares, enemy start squares.
fn zone_words(rules: &Rules, zone: &Zone) -> String {
    let spec = &rules.spec;
    let side = |s: usize| spec.sides[s].name.clone();
    match zone {
        Zone::FarRank => "the far rank".to_string(),
        Zone::Squares(list) => {
            let names: Vec<String> = list
                .iter()
                .filter_map(|&c| rules.geo.square(c))
                .map(|sq| rules.geo.name(sq))
                .collect();
            format!(
                "{} (for {}; turned for {})",
                names.join(", "),
                side(0),
                side(1)
            )
        }
        Zone::EnemyStart(k) => {
            let names: Vec<String> = BitIter(rules.start.kind_bits(1, *k as usize))
                .map(|sq| rules.geo.name(sq))
                .collect();
            format!(
                "the squares where the enemy's {} started ({} for {})",
                plural(&spec.pieces[*k as usize].name, 2),
                names.join(", "),
                side(0)
            )
        }
    }
}

fn dirs_text(spec: &VariantSpec, dirs: AngleSet) -> String {
    let board = &spec.board;
    let f = spec.forward % 8;
    let rel = |offsets: &[u8]| offsets.iter().fold(0u8, |m, &o| m | 1 << ((f + o) % 8));
    // The groups as drawn: on a hexagon (drawn turned by one angle) they turn with it, and a
    // group keeps only the lines the board has (a hexagon's six are "in all directions").
    let drawn = |set: AngleSet| {
        (0..8u8)
            .filter(|a| set & (1 << a) != 0)
            .fold(0u8, |m, a| m | 1 << board.compass_angle(a))
    };
    let lines = board.line_angles();
    let groups: [(&str, AngleSet); 8] = [
        ("in all directions", lines),
        ("orthogonally", drawn(ORTHOGONAL_ANGLES) & lines),
        ("diagonally", drawn(DIAGONAL_ANGLES) & lines),
        ("forward", rel(&[0])),
        ("backward", rel(&[4])),
        ("sideways", rel(&[2, 6]) & lines),
        ("diagonally forward", rel(&[1, 7])),
        ("diagonally backward", rel(&[3, 5])),
    ];
    let mut left = dirs;
    let mut parts = Vec::new();
    for (name, set) in groups {
        let name = if name == "in all directions" && lines == 0xFF {
            "in all eight directions"
        } else {
            name
        };
        if set != 0 && left & set == set {
            parts.push(name.to_string());
            left &= !set;
        }
    }
    for a in 0..8u8 {
        if left & (1 << a) != 0 {
            parts.push(board.compass_name(a).to_string());
        }
    }
    let compass: Vec<&str> = (0..8u8)
        .filter(|a| dirs & (1 << a) != 0)
        .map(|a| board.compass_name(a))
        .collect();
    // On a grid of corners and centres a centre has only the diagonal lines.
    let centres = if board.lines == Lines::CornersAndCentres
        && dirs & ORTHOGONAL_ANGLES != 0
        && dirs & DIAGONAL_ANGLES != 0
    {
        "; from a centre, which has no orthogonal lines, only the diagonal ones"
    } else {
        ""
    };
    format!("{} ({}){centres}", join_and(&parts), compass.join(", "))
}

fn kinds_text(spec: &VariantSpec, mask: u8, n: usize) -> String {
    let names: Vec<String> = spec
        .pieces
        .iter()
        .enumerate()
        .filter(|(k, _)| mask & (1 << k) != 0)
        .map(|(_, p)| plural(&p.name, n))
        .collect();
    if names.len() == spec.pieces.len() && names.len() > 1 {
        plural("piece", n)
    } else if n == 1 {
        names.join(" or ")
    } else {
        join_and(&names)
    }
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The single-combat rule in English (`rules`).
fn combat_words(c: &crate::spec::combat::CombatSpec) -> String {
    format!(
        "  when each side has one piece left and the two are of equal rank{}, the side to move may \
         declare single combat with a quiet move that brings its piece nearer to the other (`@` \
         before the move); from then on every quiet move must bring the mover nearer to the \
         enemy piece (fewer of its own moves away, counted on an empty board), captures as \
         usual, until one takes the other; a piece that can neither capture nor come nearer \
         makes any move",
        if c.below_highest {
            " below the highest"
        } else {
            ""
        }
    )
}
