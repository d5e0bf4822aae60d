//! Robust statistics (issue 45): `selfplay --configs` plays the same games with several engine
//! configurations; a figure whose configurations' intervals do not meet is engine-dependent.

use crate::common::{damelab, fails, ok, p, scratch};
use damelab::selfplay::{robust, End, GameRecord};

fn game(i: u64, w: i8, plies: u32) -> GameRecord {
    GameRecord {
        i,
        w,
        end: if w == -1 {
            End::Repetition
        } else {
            End::NoMoves
        },
        plies,
        moves: 10 * plies as u64,
        lm: 0,
        caps: 0,
        promos: 0,
        tb: None,
        tb_material: None,
        draw: None,
        shuffle: false,
    }
}

#[test]
fn figures_whose_intervals_do_not_meet_are_engine_dependent() {
    let v = damelab::Variant::load("english").unwrap();
    // One configuration draws every game, the other none, at the same length.
    let drawish: Vec<GameRecord> = (0..40).map(|i| game(i, -1, 100 + (i % 3) as u32)).collect();
    let decisive: Vec<GameRecord> = (0..40)
        .map(|i| game(i, (i % 2) as i8, 100 + (i % 3) as u32))
        .collect();
    let f = robust::figures(
        &v.rules,
        &[
            ("a".into(), drawish.as_slice()),
            ("b".into(), decisive.as_slice()),
        ],
    );
    let flag = |name: &str| f.iter().find(|x| x.name == name).unwrap().engine_dependent;
    assert!(flag("draw rate"));
    assert!(!flag("game length"));
    let text = robust::text(&f);
    assert!(
        text.contains("ENGINE-DEPENDENT") && text.contains("agree"),
        "{text}"
    );
}

#[test]
fn configs_play_the_same_games_with_each_configuration() {
    let dir = scratch("robust", "configs");
    let json = dir.join("configs.json");
    let chart = dir.join("configs.svg");
    let out = ok(&damelab(&[
        "selfplay",
        "turkish",
        "--games",
        "8",
        "--threads",
        "2",
        "--configs",
        "eval=derived,depth=1; eval=bundled,depth=2",
        "--json",
        &p(&json),
        "--svg",
        &p(&chart),
    ]));
    let svg = super::configs_files::configs_output_agrees(
        &out,
        &chart,
        &json,
        &["draw rate", "game length", "eval=bundled,depth=2"],
    );
    assert!(svg.contains("eval=derived,depth=1"), "{svg}");
    fails(
        &damelab(&[
            "selfplay",
            "turkish",
            "--games",
            "2",
            "--configs",
            "depth=2",
        ]),
        1,
        "at least two configurations",
    );
    fails(
        &damelab(&[
            "selfplay",
            "turkish",
            "--games",
            "2",
            "--configs",
            "depth=2; eval=derived",
        ]),
        1,
        "has no depth or nodes",
    );
}
