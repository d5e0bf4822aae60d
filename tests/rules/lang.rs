//! The bundled rules files load, and the key fields of Dameo and Turkish draughts are as their rules say.

use damelab::lang::load;
use damelab::spec::*;

fn load_variant(name: &str) -> VariantSpec {
    let path = format!("{}/variants/{name}.rules", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match load(&format!("{name}.rules"), name, &text) {
        Ok(spec) => spec,
        Err(e) => {
            let mut out = String::new();
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .render_report(&mut out, &e)
                .unwrap();
            panic!("{name} does not load:\n{out}");
        }
    }
}

#[test]
fn every_variant_file_loads() {
    let dir = format!("{}/variants", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rules") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            let spec = load_variant(&stem);
            assert_eq!(spec.name, stem);
            count += 1;
        }
    }
    assert!(count >= 2);
}

/// Bit mask of angles.
fn dirs(angles: &[u8]) -> AngleSet {
    angles.iter().fold(0, |s, a| s | 1 << a)
}

fn sq(name: &str) -> Coord {
    let b = name.as_bytes();
    (b[0] - b'a', name[1..].parse::<u8>().unwrap() - 1)
}

fn sorted(mut v: Vec<(u8, Coord)>) -> Vec<(u8, Coord)> {
    v.sort();
    v
}

#[test]
fn dameo() {
    let spec = load_variant("dameo");
    assert_eq!(spec.title, "Dameo");
    assert_eq!(
        spec.board,
        BoardSpec {
            width: 8,
            height: 8,
            squares: SquareSet::All,
            notation: Notation::Algebraic,
            shape: Shape::Rectangle,
            lines: Lines::EveryPoint,
            removed: Vec::new(),
            points: false,
            orthogonal_across: false,
        }
    );
    assert_eq!(spec.sides[0].name, "white");
    assert_eq!(spec.sides[0].letter, 'W');
    assert_eq!(spec.sides[1].letter, 'B');
    assert_eq!(spec.first_to_move, 0);
    assert_eq!(spec.pieces.len(), 2);
    let (man, king) = (&spec.pieces[0], &spec.pieces[1]);
    assert_eq!((man.letter, king.letter), ('M', 'K'));

    // 18 men each; Black's are White's turned through 180°.
    assert_eq!(spec.setup[0].len(), 18);
    assert_eq!(spec.setup[1].len(), 18);
    assert!(spec.setup[0].iter().all(|&(p, _)| p == 0));
    let turned: Vec<_> = spec.setup[0]
        .iter()
        .map(|&(p, (f, r))| (p, (7 - f, 7 - r)))
        .collect();
    assert_eq!(sorted(turned), sorted(spec.setup[1].clone()));
    for s in ["a1", "h1", "b2", "g2", "c3", "f3"] {
        assert!(spec.setup[0].contains(&(0, sq(s))), "{s}");
    }
    for s in ["a8", "h8", "b7", "g7", "c6", "f6"] {
        assert!(spec.setup[1].contains(&(0, sq(s))), "{s}");
    }
    assert!(!spec.setup[0].contains(&(0, sq("a2"))));

    // Man: steps N, NE, NW; leaps over files of men (any length) the same ways; short orthogonal jumps.
    assert_eq!(
        man.quiet,
        vec![
            QuietOp::Step {
                dirs: dirs(&[0, 1, 7])
            },
            QuietOp::Leap {
                dirs: dirs(&[0, 1, 7]),
                over: 0b01,
                max: None
            },
        ]
    );
    assert_eq!(
        man.captures,
        vec![CaptureOp::Jump {
            dirs: dirs(&[0, 2, 4, 6])
        }]
    );
    assert_eq!(
        man.promotions,
        vec![PromotionSpec {
            to: 1,
            zone: Zone::FarRank
        }]
    );
    assert_eq!(
        king.quiet,
        vec![QuietOp::Slide {
            dirs: 0xff,
            range: None
        }]
    );
    assert_eq!(
        king.captures,
        vec![CaptureOp::Fly {
            dirs: dirs(&[0, 2, 4, 6]),
            range: None,
            landing: Landing::Anywhere
        }]
    );
    assert!(king.promotions.is_empty());

    assert!(spec.captures.compulsory);
    assert_eq!(spec.captures.removal, Removal::EndOfTurn);
    assert!(!spec.captures.no_180_turn);
    assert!(!spec.captures.equal_or_lower_rank_only);
    assert_eq!(
        spec.captures.mid_capture_promotion,
        MidCapturePromotion::AtEnd
    );
    assert_eq!(spec.captures.priority, vec![Criterion::MostPieces]);
    assert_eq!(
        spec.game,
        GameSpec {
            no_moves_loses: true,
            lone_wins: vec![],
            lone_draws: vec![],
            lose_without: vec![],
            no_moves_wins: false,
            first_wins: vec![],
            reach_wins: vec![],
            repetition_draw: 3,
            repetition_claimed: false,
            move_count_draws: vec![],
            combat: None,
        }
    );
}

#[test]
fn turkish() {
    let spec = load_variant("turkish");
    assert_eq!(spec.title, "Turkish draughts");
    assert_eq!(spec.setup[0].len(), 16);
    assert_eq!(spec.setup[1].len(), 16);
    for s in ["a2", "h2", "a3", "h3"] {
        assert!(spec.setup[0].contains(&(0, sq(s))), "{s}");
    }
    for s in ["a6", "h6", "a7", "h7"] {
        assert!(spec.setup[1].contains(&(0, sq(s))), "{s}");
    }
    assert!(spec
        .setup
        .iter()
        .flatten()
        .all(|&(_, (_, r))| r != 0 && r != 7));

    let (man, king) = (&spec.pieces[0], &spec.pieces[1]);
    assert_eq!(
        man.quiet,
        vec![QuietOp::Step {
            dirs: dirs(&[0, 2, 6])
        }]
    );
    assert_eq!(
        man.captures,
        vec![CaptureOp::Jump {
            dirs: dirs(&[0, 2, 6])
        }]
    );
    assert_eq!(
        man.promotions,
        vec![PromotionSpec {
            to: 1,
            zone: Zone::FarRank
        }]
    );
    assert_eq!(
        king.quiet,
        vec![QuietOp::Slide {
            dirs: dirs(&[0, 2, 4, 6]),
            range: None
        }]
    );
    assert_eq!(
        king.captures,
        vec![CaptureOp::Fly {
            dirs: dirs(&[0, 2, 4, 6]),
            range: None,
            landing: Landing::Anywhere
        }]
    );

    assert!(spec.captures.compulsory);
    assert_eq!(spec.captures.removal, Removal::Immediate);
    assert!(spec.captures.no_180_turn);
    assert_eq!(
        spec.captures.mid_capture_promotion,
        MidCapturePromotion::AtEnd
    );
    assert_eq!(spec.captures.priority, vec![Criterion::MostPieces]);
    assert_eq!(spec.game.lone_wins, vec![(1, 0)]);
    assert!(spec.game.no_moves_loses);
    assert_eq!(spec.game.repetition_draw, 3);
}

#[test]
fn big_dameo_and_croda_setups() {
    for (name, count) in [("big-dameo-4", 28), ("big-dameo-3", 24), ("croda", 24)] {
        let spec = load_variant(name);
        assert_eq!(spec.setup[0].len(), count, "{name}");
        assert_eq!(spec.setup[1].len(), count, "{name}");
    }
    let big = load_variant("big-dameo-4");
    assert_eq!((big.board.width, big.board.height), (10, 10));
    assert!(big.setup[1].contains(&(0, sq("d7"))));
    assert!(big.setup[1].contains(&(0, sq("j10"))));
}

#[test]
fn keny_and_armenian() {
    let keny = load_variant("keny");
    let man = &keny.pieces[0];
    assert!(man.quiet.contains(&QuietOp::Leap {
        dirs: dirs(&[0, 2, 4, 6]),
        over: 0b11,
        max: Some(1)
    }));
    assert_eq!(
        man.captures,
        vec![CaptureOp::Jump {
            dirs: dirs(&[0, 2, 4, 6])
        }]
    );
    let armenian = load_variant("armenian");
    assert_eq!(
        armenian.pieces[0].quiet,
        vec![QuietOp::Step {
            dirs: dirs(&[0, 1, 2, 6, 7])
        }]
    );
    assert_eq!(
        armenian.pieces[1].quiet,
        vec![QuietOp::Slide {
            dirs: 0xff,
            range: None
        }]
    );
    assert_eq!(armenian.captures.removal, Removal::Immediate);
}

#[test]
fn damone() {
    let spec = load_variant("damone");
    assert_eq!(spec.board.squares, SquareSet::Dark);
    assert_eq!((spec.sides[0].letter, spec.sides[1].letter), ('R', 'B'));
    let letters: Vec<char> = spec.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, ['P', 'D', 'I']);
    let ranks: Vec<u8> = spec.pieces.iter().map(|p| p.rank).collect();
    assert_eq!(ranks, [1, 2, 3]);
    // Forward is north-east for Red: a Pedine goes NE, SE and NW, never SW.
    let pedine = &spec.pieces[0];
    assert_eq!(
        pedine.quiet,
        vec![QuietOp::Step {
            dirs: dirs(&[1, 3, 7])
        }]
    );
    assert_eq!(
        pedine.captures,
        vec![CaptureOp::Jump {
            dirs: dirs(&[1, 3, 7])
        }]
    );
    assert_eq!(
        pedine.promotions,
        vec![PromotionSpec {
            to: 1,
            zone: Zone::EnemyStart(1)
        }]
    );
    assert_eq!(
        spec.pieces[1].promotions,
        vec![PromotionSpec {
            to: 2,
            zone: Zone::EnemyStart(2)
        }]
    );
    assert_eq!(
        spec.pieces[2].quiet,
        vec![QuietOp::Step {
            dirs: dirs(&[1, 3, 5, 7])
        }]
    );

    let black = sorted(spec.setup[1].clone());
    let expected = sorted(vec![
        (2, sq("h8")),
        (1, sq("f8")),
        (1, sq("h6")),
        (0, sq("d8")),
        (0, sq("e7")),
        (0, sq("f6")),
        (0, sq("g5")),
        (0, sq("h4")),
    ]);
    assert_eq!(black, expected);
    assert!(spec.captures.equal_or_lower_rank_only);
    assert_eq!(
        spec.captures.priority,
        vec![
            Criterion::MostPieces,
            Criterion::HighestCapturer,
            Criterion::HighestCapturedRanks
        ]
    );
    assert!(spec.game.lose_without.is_empty());
    assert_eq!(load_variant("damone-hunt").game.lose_without, vec![2]);

    let three = load_variant("damone-three-damas");
    assert_eq!(three.setup[0].len(), 6);
    assert!(three.setup[1].contains(&(1, sq("g7"))));
    assert_eq!(
        three.pieces[1].promotions,
        vec![PromotionSpec {
            to: 2,
            zone: Zone::Squares(vec![sq("h8")])
        }]
    );
}

/// A numbered board, with every clause the bundled files do not use.
#[test]
fn numbered_board_and_rare_clauses() {
    let text = r#"
        variant "International draughts"
        board 10x10, dark squares, numbered
        sides white "W", black "B"
        piece man "M" value 2
        piece king "K" value 5
        setup white man 31..50; black man 1..20; black king 28, b10x
    "#;
    // `b10x` is not a square: a syntax error.
    assert!(load("x.rules", "x", text).is_err());
    let text = r#"
        variant "International draughts"
        board 10x10, dark squares, numbered
        sides white "W", black "B"; black moves first
        piece man "M" value 2
        piece king "K" value 5
        setup white man 31..50; black man 1..5, 7..20, a9
        man: step forward-diagonal; capture jump diagonal; promote to king on far rank
        king: slide diagonal; capture fly diagonal
        captures: optional, promotion mid-capture continues, priority most value, most kings, earliest kings
        game: no repetition draw
    "#;
    let spec = load("international.rules", "international", text).unwrap();
    assert_eq!(spec.first_to_move, 1);
    assert_eq!(spec.board.notation, Notation::Numbered);
    assert_eq!(spec.setup[0].len(), 20);
    assert!(spec.setup[0].contains(&(0, (0, 0)))); // 46 = a1
    assert!(spec.setup[1].contains(&(0, (1, 9)))); // 1 = b10
    assert!(spec.setup[1].contains(&(0, (0, 8)))); // a9 = 6
    assert_eq!(spec.pieces[1].value, 5);
    assert!(!spec.captures.compulsory);
    assert_eq!(
        spec.captures.mid_capture_promotion,
        MidCapturePromotion::Continue
    );
    assert_eq!(
        spec.captures.priority,
        vec![
            Criterion::MostValue,
            Criterion::MostOf(1),
            Criterion::EarliestOf(1)
        ]
    );
    assert_eq!(spec.game.repetition_draw, 0);
}

/// No input makes the loader panic: every prefix of every bundled file, and each with a byte
/// dropped, is either loaded or rejected with diagnostics.
#[test]
#[ignore = "release: 18 s in the test profile, a load for every prefix of every bundled file (.ci/run)"]
fn never_panics_on_damaged_files() {
    let dir = format!("{}/variants", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for (i, _) in text.char_indices().step_by(3) {
            if let Err(e) = load("t.rules", "t", &text[..i]) {
                assert!(!e.errors().is_empty());
                let _ = e.to_string();
            }
            let mut dropped = text.clone();
            dropped.remove(i);
            let _ = load("t.rules", "t", &dropped);
        }
    }
}

/// The illustrations of `DESIGN.md`, written in one-line style with `;`, load as written.
#[test]
fn design_examples_load() {
    let turkish = r#"
variant "Turkish draughts"
board 8x8, all squares, algebraic
sides white "W", black "B"; white moves first
piece man "M"; piece king "K"
setup white man a2..h3
man:  step forward, sideways;  capture jump forward, sideways;  promote to king on far rank
king: slide orthogonal;        capture fly orthogonal
captures: compulsory, removed immediately, no 180 turn, priority most pieces
game: no moves loses; lone king beats lone man; draw on 3rd repetition
"#;
    let dameo = r#"
variant "Dameo"
board 8x8, all squares, algebraic
sides white "W", black "B"; white moves first
piece man "M"; piece king "K"
setup white man a1..h1, b2..g2, c3..f3
man:  step forward, forward-diagonal;  leap own men forward, forward-diagonal  # a file of any length
      capture jump orthogonal;  promote to king on far rank
king: slide all;  capture fly orthogonal
captures: compulsory, removed at end of turn, priority most pieces
"#;
    let damone = r#"
variant "Italian Damone"
board 8x8, dark squares, algebraic
sides red "R", black "B"; red moves first; forward is diagonal   # toward the enemy corner
piece pedine "P" rank 1; piece dama "D" rank 2; piece damone "I" rank 3
setup red damone a1; red dama c1, a3; red pedine e1, d2, c3, b4, a5
pedine: step forward, sideways;  capture jump forward, sideways;  promote to dama on start of enemy dama
dama:   step diagonal;  capture jump diagonal;  promote to damone on start of enemy damone
damone: step diagonal;  capture jump diagonal
captures: compulsory, removed at end of turn, only equal or lower rank,
          priority most pieces, highest capturer, highest captured ranks
"#;
    let t = load("turkish.rules", "turkish", turkish).unwrap();
    let mut bundled = load_variant("turkish");
    bundled.title = t.title.clone();
    assert_eq!(t, bundled);
    let d = load("dameo.rules", "dameo", dameo).unwrap();
    assert_eq!(d, load_variant("dameo"));
    let m = load("damone.rules", "damone", damone).unwrap();
    assert_eq!(m, load_variant("damone"));
}

/// Every file in `variants/` is bundled into the binary, and every bundled text loads.
#[test]
fn bundled_variants_match_the_files() {
    let dir = format!("{}/variants", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .collect();
    files.sort();
    let mut bundled: Vec<String> = damelab::variants::BUNDLED
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    bundled.sort();
    assert_eq!(files, bundled);
    for (name, text) in damelab::variants::BUNDLED {
        assert!(load(&format!("{name}.rules"), name, text).is_ok(), "{name}");
    }
    assert!(damelab::variants::bundled(damelab::variants::DEFAULT).is_some());
}

/// No input makes the loader panic: words of the bundled files swapped for other words, numbers at
/// the limits, and odd characters (a small deterministic fuzz).
#[test]
fn never_panics_on_shuffled_words() {
    let texts: Vec<&str> = damelab::variants::BUNDLED.iter().map(|(_, t)| *t).collect();
    let mut vocabulary: Vec<&str> = texts.iter().flat_map(|t| t.split_whitespace()).collect();
    vocabulary.extend([
        "0",
        "255",
        "256",
        "99999999999999999999",
        "17x17",
        "16x2",
        "2x16",
        "0x0",
        "a0",
        "p16",
        "z9",
        "a99999999999999999999",
        "\"\"",
        "\"ÄÖ\"",
        "é",
        "..",
        ",",
        ";",
        ":",
        "#",
        "\"",
        "1..99",
        "50..1",
        "a1..z26",
        "0th",
        "1st",
        "99999999999999999999th",
    ]);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..3000 {
        let text = texts[round % texts.len()];
        let mut words: Vec<&str> = text.split(' ').collect();
        for _ in 0..1 + next(3) {
            let i = next(words.len());
            words[i] = vocabulary[next(vocabulary.len())];
        }
        let mutated = words.join(" ");
        if let Err(e) = load("f.rules", "f", &mutated) {
            let mut out = String::new();
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .render_report(&mut out, &e)
                .unwrap();
        }
    }
}

/// A mirrored board (`a1 light`), numbered from its top-left dark square `a8`.
#[test]
fn mirrored_numbered_board() {
    let text = r#"
        variant "Italian draughts"
        board 8x8, dark squares, a1 light, numbered
        sides white "W", black "B"
        piece man "M"
        setup white man 21..32
    "#;
    let spec = load("italian.rules", "italian", text).unwrap();
    assert_eq!(spec.board.squares, SquareSet::DarkA1Light);
    assert!(spec.setup[0].contains(&(0, sq("h1")))); // 32
    assert!(spec.setup[0].contains(&(0, sq("b1")))); // 29
    assert!(spec.setup[1].contains(&(0, sq("a8")))); // 1, turned from h1
    assert!(!spec.setup[0].contains(&(0, sq("a1"))));
    let light = text.replace("21..32", "a1");
    assert!(load("italian.rules", "italian", &light).is_err());
}

/// On a dark-squares board quiet moves go diagonally; orthogonal directions stay allowed for
/// captures (Frisian draughts), and `forward is diagonal` makes `forward` and `sideways` diagonal.
#[test]
fn orthogonal_directions_on_dark_squares() {
    let frisian_like = r#"
        variant "Frisian-like"
        board 10x10, dark squares, numbered
        sides white "W", black "B"
        piece man "M"
        piece king "K"
        setup white man 31..50
        man: step forward-diagonal; capture jump all; promote to king on far rank
        king: slide diagonal; capture fly all
    "#;
    assert!(load("f.rules", "f", frisian_like).is_ok());
    for (from, to) in [
        ("step forward-diagonal", "step forward"),
        ("slide diagonal", "slide orthogonal"),
        ("slide diagonal", "slide north"),
        ("step forward-diagonal", "leap over own men sideways"),
    ] {
        let broken = frisian_like.replacen(from, to, 1);
        let errors = load("f.rules", "f", &broken).unwrap_err();
        assert!(
            errors
                .errors()
                .iter()
                .all(|e| matches!(e, damelab::lang::RuleError::OrthogonalQuietMove { .. })),
            "{to}: {:?}",
            errors.errors()
        );
    }
    // The same words on an all-squares board are fine.
    let all = frisian_like
        .replace(
            "10x10, dark squares, numbered",
            "8x8, all squares, algebraic",
        )
        .replace("31..50", "a1..h2")
        .replace("step forward-diagonal", "step forward, sideways");
    assert!(load("a.rules", "a", &all).is_ok());
}

/// Turning through 180° swaps square colours when width + height is odd: the second side's setup
/// must then be written out.
#[test]
fn odd_board_needs_both_setups() {
    let text = r#"
        variant "Odd"
        board 8x9, dark squares, algebraic
        sides white "W", black "B"
        piece man "M"
        setup white man a1, c1
        man: step forward-diagonal; capture jump diagonal
    "#;
    let e = load("o.rules", "o", text).unwrap_err();
    assert!(matches!(
        e.errors(),
        [damelab::lang::RuleError::TurnedOntoLight { .. }]
    ));
    let both = text.replace(
        "setup white man a1, c1",
        "setup white man a1, c1; black man g9, e9",
    );
    let spec = load("o.rules", "o", &both).unwrap();
    assert_eq!(spec.setup[1].len(), 2);
}

#[test]
fn optional_stops_and_one_line_captures() {
    let moo = load_variant("moo");
    assert!(moo.captures.may_stop);
    assert!(
        moo.pieces[1].one_line,
        "the king's captures keep to one line"
    );
    assert!(!moo.pieces[0].one_line, "the men's do not");
    let dama = load_variant("philippine-dama");
    assert!(!dama.captures.may_stop);
    assert!(dama.pieces[1].one_line);
    // Neither appears in the checked rules of a variant that does not say them.
    let international = load_variant("international");
    assert!(!international.captures.may_stop);
    assert!(international.pieces.iter().all(|p| !p.one_line));
}

#[test]
fn stops_are_refused_with_a_priority_that_grows_with_every_jump() {
    for criterion in ["most pieces", "most value", "highest captured ranks"] {
        let text = format!(
            "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
             piece man \"M\" rank 1\npiece king \"K\" rank 2\nsetup white man a1..h3\n\
             man: step forward-diagonal; capture jump diagonal\n\
             captures: may stop after any jump, priority most kings, {criterion}\n"
        );
        let err = damelab::lang::load("t.rules", "t", &text).expect_err(criterion);
        let shown = format!("{:?}", miette::Report::new(err));
        assert!(
            shown.contains("would forbid every stop"),
            "{criterion}: {shown}"
        );
    }
    // Criteria that do not grow with every jump go with stops.
    let text = "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
                piece man \"M\" rank 1\npiece king \"K\" rank 2\nsetup white man a1..h3\n\
                man: step forward-diagonal; capture jump diagonal\n\
                captures: may stop after any jump, priority most kings, highest capturer\n";
    let spec = damelab::lang::load("t.rules", "t", text).expect("loads");
    assert!(spec.captures.may_stop);
}

#[test]
fn huffing_is_read_and_refused_with_optional_captures() {
    let ghanaian = load_variant("ghanaian");
    assert!(ghanaian.captures.huffing);
    assert!(ghanaian.captures.compulsory);
    assert!(!load_variant("international").captures.huffing);
    let text = |rules: &str| {
        format!(
            "variant \"T\"\nboard 8x8, dark squares\nsides white \"W\", black \"B\"\n\
             piece man \"M\"\nsetup white man a1..h3\n\
             man: step forward-diagonal; capture jump diagonal\n\
             captures: {rules}\n"
        )
    };
    for rules in ["optional, huffing", "huffing, optional"] {
        let err = damelab::lang::load("t.rules", "t", &text(rules)).expect_err(rules);
        let shown = format!("{:?}", miette::Report::new(err));
        assert!(shown.contains("nothing to huff"), "{rules}: {shown}");
        assert!(shown.contains("capturing is optional here"), "{shown}");
        assert!(shown.contains("but huffing punishes"), "{shown}");
    }
    // Huffing goes with stops and with a priority.
    for rules in [
        "huffing",
        "compulsory, huffing, may stop after any jump",
        "huffing, priority most pieces",
    ] {
        let spec = damelab::lang::load("t.rules", "t", &text(rules)).expect(rules);
        assert!(spec.captures.huffing, "{rules}");
    }
}

#[test]
fn a_missed_capture_is_carried_by_the_fen_and_huffed_by_a_move() {
    use damelab::engine::GenOptions;
    use damelab::notation::{move_to_string, parse_fen, parse_move, to_fen};
    let v = damelab::variant::Variant::load("ghanaian").expect("bundled");
    let rules = &v.rules;
    let pos = parse_fen(rules, "W:W33,45:B28,10").expect("fen");
    let mut legal = Vec::new();
    rules.generate(&pos, &mut legal, GenOptions::default());
    let quiet = parse_move(rules, &legal, "45-40").expect("a quiet move is legal");
    assert_eq!(quiet.due_squares().len(), 1, "33 could have captured");
    let after = pos.play(&quiet);
    let fen = to_fen(rules, &after);
    assert_eq!(fen, "B:W33,40:B10,28:*33");
    assert_eq!(parse_fen(rules, &fen).expect("reads back"), after);
    rules.generate(&after, &mut legal, GenOptions::default());
    let huff = parse_move(rules, &legal, "*33,28-32").expect("huff and move");
    assert_eq!(move_to_string(rules, &huff), "*33,28-32");
    let declined = parse_move(rules, &legal, "28x39").expect("declining is legal");
    assert_eq!(declined.huff(), None);
    assert!(
        parse_move(rules, &legal, "*33,28x39").is_err(),
        "after the huff there is nothing to take"
    );
    assert!(
        parse_move(rules, &legal, "*40,10-14").is_err(),
        "40 is not open"
    );
    let huffed = after.play(&huff);
    assert_eq!(to_fen(rules, &huffed), "W:W40:B10,32");
    // A variant without huffing refuses the field.
    let intl = damelab::variant::Variant::load("international").expect("bundled");
    assert!(parse_fen(&intl.rules, "B:W33,40:B10,28:*33").is_err());
}

#[test]
fn reversed_aims_and_goals_are_read() {
    let spec = load_variant("antidraughts");
    assert!(spec.game.no_moves_wins && !spec.game.no_moves_loses);
    let spec = load_variant("breakthrough");
    assert_eq!(spec.game.first_wins, vec![1]);
    assert!(spec.game.no_moves_loses && !spec.game.no_moves_wins);
    // A goal reached by a square: a man on its far rank wins, as the side sees the board.
    let text =
        "variant \"Race\"\nboard 4x4, all squares, algebraic\nsides white \"W\", black \"B\"\n\
                piece man \"M\"\nsetup white man a1, c1\nman: step forward\n\
                game: reaching far rank wins, no moves loses";
    let v = damelab::Variant::from_source("race", "race", text, None).expect("loads");
    assert_eq!(v.rules.spec.game.reach_wins.len(), 1);
    let pos = damelab::notation::parse_fen(&v.rules, "B:Wa4,c1:Bb4,d2").expect("FEN");
    let o = v
        .rules
        .material_outcome(&pos)
        .expect("white has reached its far rank");
    assert_eq!(o.winner, Some(0));
    // Black's far rank is rank 1: its man on d2 has not reached it, on d1 it has.
    let pos = damelab::notation::parse_fen(&v.rules, "W:Wc2:Bb4,d1").expect("FEN");
    assert_eq!(
        v.rules.material_outcome(&pos).map(|o| o.winner),
        Some(Some(1))
    );
    let pos = damelab::notation::parse_fen(&v.rules, "W:Wc2:Bb4,d2").expect("FEN");
    assert!(v.rules.material_outcome(&pos).is_none());
    let desc = damelab::describe::describe(&v.rules);
    assert!(
        desc.contains("a side with a piece on the far rank (as that side sees the board) wins"),
        "{desc}"
    );
}
