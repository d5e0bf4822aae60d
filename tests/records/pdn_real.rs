//! PDN as the players' tools write it: tag names with HTML entities or blanks, a tag split over
//! two lines, a lone `[` between games, a tag line that lost its `[`; variations read, replayed
//! and written back; captures named by their ends settled by the moves after them; games without
//! a GameType guessed; a record that plays on after the game was over.

use damelab::engine::GenOptions;
use damelab::notation::move_to_string;
use damelab::pdn::{guess_variant, read_games, replay, write_game_with};
use damelab::Variant;

fn load(name: &str) -> Variant {
    Variant::load(name).expect("a bundled variant")
}

#[test]
fn tag_names_with_entities_and_blanks_are_read() {
    let text = "[&#x00c9;v&#x00e9;nement \"Finale\"]\r\n[R&#x00e9;sultat \"2-0\"]\r\n\
                [Type de jeu \"20\"]\r\n[Blanc \"A &amp; B\"]\r\n[WhiteRating \"\"]\r\n\
                1. 32-28 19-23 2-0\r\n";
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.tag("Event"), Some("Finale"));
    assert_eq!(g.tag("Result"), Some("2-0"));
    assert_eq!(g.tag("GameType"), Some("20"));
    assert_eq!(g.tag("White"), Some("A & B"));
    assert_eq!(g.moves.len(), 2);
    // A value without quotes is still an error.
    let bad = read_games(b"[Event unquoted]\n1. 32-28 *\n");
    assert!(
        bad[0].errors[0]
            .message
            .contains("no `\"` before the value of `Event`"),
        "{:?}",
        bad[0].errors
    );
}

#[test]
fn a_split_tag_a_lone_bracket_and_a_tag_without_its_bracket() {
    let text = "[Event \"one\"]\n1. 32-28 19-23 *\n\n[\n[Event \"two\"]\n1. 33-28 *\n\n\
                [\nEvent \"three\"]\n[GameType \"20\"]\n1. 31-27 *\n\
                Event \"four\"]\n1. 34-30 *\n[[Event \"five\"]\n1. 35-30 *\n";
    let games = read_games(text.as_bytes());
    let events: Vec<Option<&str>> = games.iter().map(|g| g.tag("Event")).collect();
    assert_eq!(
        events,
        [
            Some("one"),
            Some("two"),
            Some("three"),
            Some("four"),
            Some("five")
        ]
    );
    for g in &games {
        assert!(g.errors.is_empty(), "{:?}: {:?}", g.tag("Event"), g.errors);
        assert_eq!(g.moves.len().min(1), 1);
    }
    assert_eq!(games[2].tag("GameType"), Some("20"));
}

#[test]
fn variations_are_read_replayed_and_written_back() {
    let text = "[GameType \"20\"]\n\
                1. 32-28 19-23 (1... 17-21 2. 31-26 (2. 37-32) 20-24) 2. 28x19 14x23 *\n";
    let games = read_games(text.as_bytes());
    let g = &games[0];
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.moves.len(), 4);
    assert_eq!(g.variations.len(), 1);
    let v = &g.variations[0];
    assert_eq!(v.ply, 1);
    let words: Vec<&str> = v.moves.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(words, ["17-21", "31-26", "20-24"]);
    assert_eq!(v.variations.len(), 1);
    assert_eq!(v.variations[0].ply, 1);
    let r = replay(load("international").rules, g).expect("replays");
    assert_eq!(r.variations.len(), 1);
    assert_eq!(r.variations[0].moves.len(), 3);
    assert_eq!(r.variations[0].variations[0].moves.len(), 1);
    let out = write_game_with(&r.game, &g.tags, &[], None, &r.variations, None);
    assert!(
        out.contains("1. 32-28 19-23 (1... 17-21 2. 31-26 (2. 37-32) 2... 20-24) 2. 28x19 14x23 *"),
        "{out}"
    );
    // And it reads back the same.
    let back = &read_games(out.as_bytes())[0];
    let texts = |v: &damelab::pdn::Variation<damelab::pdn::Token>| -> Vec<String> {
        v.moves.iter().map(|t| t.text.clone()).collect()
    };
    assert_eq!(back.variations.len(), 1);
    assert_eq!(texts(&back.variations[0]), texts(v));
    assert_eq!(texts(&back.variations[0].variations[0]), ["37-32"]);
    // An illegal variation move is left out with a note; the game still replays.
    let text = "[GameType \"20\"]\n1. 32-28 19-23 (1... 18-24) 2. 28x19 *\n";
    let g = &read_games(text.as_bytes())[0];
    let r = replay(load("international").rules, g).expect("replays");
    assert!(r.variations.is_empty());
    assert!(
        r.notes.iter().any(|n| n.contains("is left out")),
        "{:?}",
        r.notes
    );
}

/// A capture written by its ends that names two routes is settled by the moves after it.
#[test]
fn an_ambiguous_capture_is_settled_by_the_moves_after_it() {
    let v = load("english");
    let rules = &v.rules;
    let fen = "B:W14,15,18,21-23,30:B6-8,10,12,13";
    let start = damelab::notation::parse_fen(rules, fen).expect("a FEN");
    let mut legal = Vec::new();
    rules
        .try_generate(&start, &mut legal, GenOptions::default())
        .expect("within the budget");
    let routes: Vec<_> = legal
        .iter()
        .filter(|m| move_to_string(rules, m).starts_with("10x") && m.to == legal[0].to)
        .collect();
    assert_eq!(routes.len(), 2, "10x26 goes two ways");
    // A reply of White's that is legal after one route only.
    let replies = |m: &damelab::engine::Move| {
        let after = rules.play(&start, m);
        let mut r = Vec::new();
        rules
            .try_generate(&after, &mut r, GenOptions::default())
            .expect("within the budget");
        r.iter()
            .map(|m| move_to_string(rules, m))
            .collect::<Vec<_>>()
    };
    let (a, b) = (replies(routes[0]), replies(routes[1]));
    let only_a = a
        .iter()
        .find(|m| !b.contains(m))
        .expect("the routes differ");
    let text = format!("[FEN \"{fen}\"]\n1... 10x26 2. {only_a} *\n");
    let g = &read_games(text.as_bytes())[0];
    let r = replay(rules.clone(), g).expect("settled by the reply");
    assert!(r.game.moves()[0].same_move(routes[0]));
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("names 2 captures") && n.contains("the moves after it show")),
        "{:?}",
        r.notes
    );
    // Without a move after it, it stays ambiguous.
    let text = format!("[FEN \"{fen}\"]\n1... 10x26 *\n");
    let f = replay(rules.clone(), &read_games(text.as_bytes())[0]).expect_err("ambiguous");
    assert!(
        f.message.contains("the moves after it do not tell"),
        "{}",
        f.message
    );
}

#[test]
fn a_game_without_game_type_gets_a_guess() {
    let guess = |t: &str| guess_variant(&read_games(t.as_bytes())[0]).0;
    assert_eq!(guess("1. 11-15 23-19 *\n"), "english");
    assert_eq!(guess("1. 33-28 18-23 *\n"), "international");
    assert_eq!(guess("1. c3-d4 f6-g5 *\n"), "russian");
    assert_eq!(guess("[FEN \"W:W31,45:B3\"]\n*\n"), "international");
    assert_eq!(guess("[Event \"nothing\"]\n*\n"), "international");
}

#[test]
fn a_record_that_plays_on_after_the_end_says_so() {
    // Turkish: a lone king beats a lone man, and the record goes on.
    let text = "[GameType \"30\"]\n[FEN \"W:WKd4:Bh7\"]\n1. d4-d5 h7-h6 *\n";
    let g = &read_games(text.as_bytes())[0];
    let f = replay(load("turkish").rules, g).expect_err("over before its moves");
    assert_eq!(f.ply, Some(0));
    assert!(
        f.message
            .starts_with("the game was already over: white wins")
            && f.message.ends_with("the record goes on with `d4-d5`"),
        "{}",
        f.message
    );
}
