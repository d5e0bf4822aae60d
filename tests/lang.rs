//! The bundled rules files load, and the key fields of Dameo and Turkish draughts are as RULES.md says.

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
            notation: Notation::Algebraic
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
    assert_eq!(king.quiet, vec![QuietOp::Slide { dirs: 0xff }]);
    assert_eq!(
        king.captures,
        vec![CaptureOp::Fly {
            dirs: dirs(&[0, 2, 4, 6])
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
            lose_without: vec![],
            repetition_draw: 3
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
            dirs: dirs(&[0, 2, 4, 6])
        }]
    );
    assert_eq!(
        king.captures,
        vec![CaptureOp::Fly {
            dirs: dirs(&[0, 2, 4, 6])
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
