//! Captures by approach and withdrawal (examples/approach-9x5.rules): the rules read back, the
//! notation's marks (printed only where a route is shared, read back to the same move), `explain`
//! in words, the search's capture test, and the search, self-play and endgame tables on them.

use crate::common::{damelab, text};
use damelab::engine::GenOptions;
use damelab::explain::explain;
use damelab::notation::{move_to_string, parse_fen, parse_move, to_fen};
use damelab::pdn::{read_games, replay, write_game};
use damelab::spec::CaptureOp;
use damelab::Variant;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const EXAMPLE: &str = "examples/approach-9x5.rules";

fn example() -> Variant {
    Variant::load(EXAMPLE).expect("the example loads")
}

#[test]
fn the_example_reads_as_approach_and_withdrawal() {
    let v = example();
    let spec = &v.rules.spec;
    let ops = &spec.pieces[0].captures;
    assert!(
        matches!(ops[0], CaptureOp::Approach { dirs: 0xff }),
        "{ops:?}"
    );
    assert!(
        matches!(ops[1], CaptureOp::Withdrawal { dirs: 0xff }),
        "{ops:?}"
    );
    let c = &spec.captures;
    assert!(c.may_stop && c.no_revisit && c.no_same_direction && c.compulsory);
    assert_eq!(c.removal, damelab::spec::Removal::Immediate);
    let o = damelab(&["rules", EXAMPLE]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}");
    for line in [
        "captures by approach in all eight directions",
        "captures by withdrawal in all eight directions",
        "never returns to a square it has stood on this turn",
        "never makes two steps in a row in one direction",
        "the player chooses one",
    ] {
        assert!(out.contains(line), "`{line}` not in:\n{out}");
    }
}

/// On random playouts, every move's text reads back as the same move, and a capture carries
/// marks exactly when another legal move has its route.
#[test]
fn move_texts_read_back_and_marks_only_where_routes_are_shared() {
    let v = example();
    let rules = &v.rules;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut moves, mut marked, mut checked) = (Vec::new(), 0, 0);
    for _ in 0..20 {
        let mut pos = rules.start;
        for _ in 0..80 {
            rules.generate(&pos, &mut moves, GenOptions::default());
            if moves.is_empty() {
                break;
            }
            for m in &moves {
                let text = move_to_string(rules, m);
                let shared = moves
                    .iter()
                    .any(|o| !o.same_move(m) && o.from == m.from && o.route() == m.route());
                assert_eq!(m.marked(), shared, "{text}");
                assert_eq!(text.contains(['A', 'W']), shared, "{text}");
                let back = parse_move(rules, &moves, &text).expect("the text reads back");
                assert!(back.same_move(m), "{text}");
                checked += 1;
                marked += shared as usize;
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(
        checked > 1000 && marked > 0,
        "{checked} moves, {marked} marked"
    );
}

#[test]
fn an_unmarked_shared_route_is_ambiguous_and_explain_says_the_steps() {
    let v = example();
    let rules = &v.rules;
    let pos = parse_fen(rules, "W:Wd3:Bc3,f3").expect("valid FEN");
    let mut moves = Vec::new();
    rules.generate(&pos, &mut moves, GenOptions::default());
    let e = parse_move(rules, &moves, "d3xe3").expect_err("two moves share the route");
    assert_eq!(e.label, "ambiguous");
    assert!(e.help.as_deref().unwrap_or("").contains("d3xe3A"), "{e:?}");
    let a = parse_move(rules, &moves, "d3xe3a").expect("a lower-case mark reads");
    assert_eq!(move_to_string(rules, &a), "d3xe3A");
    let text = explain(rules, &pos, "d3xe3W").expect("explains");
    assert!(
        text.contains("it steps to e3 and takes by withdrawal")
            && text.contains("black man on c3")
            && text.contains("another legal move has the same route"),
        "{text}"
    );
    let text = explain(rules, &pos, "d3xe3A").expect("explains");
    assert!(text.contains("takes by approach"), "{text}");
}

/// The search's capture test agrees with the generator on random positions.
#[test]
fn has_capture_agrees_with_the_move_list() {
    let v = example();
    let rules = &v.rules;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut moves = Vec::new();
    let mut n = 0;
    for _ in 0..20 {
        let mut pos = rules.start;
        for _ in 0..60 {
            rules.generate(&pos, &mut moves, GenOptions::default());
            let capture = moves.iter().any(|m| m.is_capture());
            assert_eq!(rules.has_capture(&pos), capture);
            assert_eq!(rules.has_moves(&pos), !moves.is_empty());
            n += 1;
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(n > 100);
}

#[test]
fn search_selfplay_and_endgame_tables_run() {
    let o = damelab(&["analyse", EXAMPLE, "--depth", "4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = damelab(&[
        "selfplay",
        EXAMPLE,
        "--games",
        "2",
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = damelab(&["endgame", EXAMPLE, "MM v M", "--no-cache"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("verdict: MM v M"),
        "{}",
        text(&o.stdout)
    );
}

/// Two orders of one route that take the same stones by different ways (Fanorona, black on c3:
/// approach at d2 takes e1 and the last step takes c4 and b4; withdrawal at d2 takes b4 and the
/// withdrawal at e4 takes e2 and e1). `--keep-duplicates` keeps them apart: each prints its own
/// marks, its text reads back to itself (it was ambiguous before: the marks of either fit both),
/// the order of capture is its own, and a PDN game replays it; both leave the same position, and
/// the ordinary move list holds one of them, whose text reads back too.
#[test]
fn two_orders_of_one_route_print_and_read_back_apart() {
    let v = Variant::load("fanorona").expect("bundled");
    let rules = &v.rules;
    let fen = "B:Wc1,e1,e2,b4,c4:Bc3";
    let pos = parse_fen(rules, fen).expect("valid FEN");
    let names = |sqs: &[u8]| -> Vec<String> { sqs.iter().map(|&s| rules.geo.name(s)).collect() };
    let route = |m: &damelab::Move| names(m.route()) == ["d2", "e3", "e4", "d4"];
    let kept_opts = GenOptions {
        keep_duplicates: true,
        ..GenOptions::default()
    };
    let mut kept = Vec::new();
    rules.generate(&pos, &mut kept, kept_opts);
    let both: Vec<_> = kept
        .iter()
        .filter(|m| m.from == pos_sq(rules, "c3") && route(m))
        .collect();
    assert_eq!(both.len(), 2, "{kept:?}");
    let (a, w) = (both[0], both[1]);
    assert!(a.same_move(w), "one captured set, one identity");
    let texts = [move_to_string(rules, a), move_to_string(rules, w)];
    assert_eq!(texts, ["c3xd2Axe3Wxe4Wxd4A", "c3xd2Wxe3Wxe4Wxd4A"]);
    assert_eq!(
        names(&rules.capture_order(a)),
        ["e1", "c1", "e2", "c4", "b4"]
    );
    assert_eq!(
        names(&rules.capture_order(w)),
        ["b4", "c1", "e2", "e1", "c4"]
    );
    for (m, text) in [a, w].into_iter().zip(&texts) {
        let back = parse_move(rules, &kept, text).expect("its own marks name it");
        assert_eq!(move_to_string(rules, &back), *text);
        assert_eq!(rules.capture_order(&back), rules.capture_order(m));
    }
    assert_eq!(to_fen(rules, &pos.play(a)), to_fen(rules, &pos.play(w)));
    assert_eq!(to_fen(rules, &pos.play(a)), "W:W:Bd4");

    // The ordinary list: one move of that route, read back from either order's marks.
    let mut moves = Vec::new();
    rules.generate(&pos, &mut moves, GenOptions::default());
    assert_eq!(moves.iter().filter(|m| route(m)).count(), 1);
    for text in &texts {
        let back = parse_move(rules, &moves, text).expect("either reading names the move");
        assert!(back.same_move(a), "{text}");
    }

    // A game record replays the withdrawal order and keeps it.
    let pdn = format!("[FEN \"{fen}\"]\n\n1... {} *\n", texts[1]);
    let game = &read_games(pdn.as_bytes())[0];
    let r = replay(rules.clone(), game).expect("replays");
    let played = r.game.moves()[0];
    assert_eq!(move_to_string(rules, &played), texts[1]);
    assert_eq!(rules.capture_order(&played), rules.capture_order(w));
    let written = write_game(&r.game, &[], &[], None);
    assert!(written.contains(&texts[1]), "{written}");
    let again = replay(rules.clone(), &read_games(written.as_bytes())[0]).expect("replays");
    assert_eq!(
        rules.capture_order(&again.game.moves()[0]),
        rules.capture_order(w)
    );
}

fn pos_sq(rules: &damelab::Rules, name: &str) -> u8 {
    rules.geo.parse(name).expect("a square")
}
