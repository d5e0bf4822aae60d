//! `train --mirror`: each quiet position is fitted together with its mirror image (every piece
//! turned through 180° with its colour swapped, the other side to move, the result reversed), so
//! that the two sides' weights come out alike: the weights score a position and its mirror image
//! the same for the side to move, where weights fitted from each side's own positions do not.
//! With `--symmetric` each generation's fit is tied to the mirror features (as `train symmetric`),
//! in the single run and in a merge of shards alike. Rules that do not treat the two sides alike
//! are refused before any game.

use super::train::positions;
use crate::common::{damelab, fails, ok, p, read_json, scratch};
use damelab::search::learned::Learned;
use damelab::search::weights::Weights;
use damelab::train::mirror::Mirror;
use damelab::Variant;

/// `train english`, one generation of 8 games at 200 nodes a move from the derived evaluation,
/// with `extra`.
fn train(extra: &[&str]) -> std::process::Output {
    let mut a = vec![
        "train",
        "english",
        "--generations",
        "1",
        "--games",
        "8",
        "--nodes",
        "200",
        "--epochs",
        "30",
        "--match-games",
        "0",
        "--seed",
        "3",
        "--threads",
        "1",
    ];
    a.extend_from_slice(extra);
    damelab(&a)
}

#[test]
fn mirrored_weights_score_a_position_and_its_mirror_image_alike() {
    let dir = scratch("train_mirror", "alike");
    let v = Variant::load("english").unwrap();
    let mirror = Mirror::of(&v.rules).unwrap();
    let pos = positions(v.rules.as_ref(), 80, 11);
    // The largest difference, over the positions, between a position's score and its mirror
    // image's (each for its side to move).
    let worst = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let o = p(&out);
        let mut a = extra.to_vec();
        a.extend(["--out", o.as_str()]);
        ok(&train(&a));
        let w = Weights::load(&out, &v.rules).unwrap();
        let learned = Learned::new(&w, v.rules.as_ref());
        let worst = pos
            .iter()
            .map(|q| {
                let image = mirror.turn(q).unwrap();
                (learned.evaluate(q) - learned.evaluate(&image)).abs()
            })
            .max()
            .unwrap();
        (w, worst)
    };
    let (mirrored, alike) = worst("mirrored.weights", &["--mirror"]);
    assert!(
        mirrored.made_by.ends_with(" --mirror"),
        "{}",
        mirrored.made_by
    );
    assert!(
        alike <= 1,
        "a position and its mirror image differ by {alike}"
    );
    // Fitted from each side's own positions, the two sides' weights differ.
    let (_, apart) = worst("plain.weights", &[]);
    assert!(apart > 1, "{apart}");
}

#[test]
fn mirrored_rows_come_in_pairs_in_a_shards_data() {
    let dir = scratch("train_mirror", "pairs");
    let data = dir.join("g1.json");
    let d = p(&data);
    let shard = [
        "--mirror",
        "--generation",
        "1",
        "--shard",
        "1/2",
        "--data",
        &d,
    ];
    ok(&train(&shard));
    let f = read_json(&data);
    assert_eq!(f["settings"]["mirror"], true);
    let games = f["games"].as_array().unwrap();
    assert!(!games.is_empty());
    for g in games {
        let rows = g["rows"].as_array().unwrap();
        let scores = g["scores"].as_array().unwrap();
        assert!(!rows.is_empty() && rows.len() % 2 == 0, "{}", rows.len());
        assert_eq!(scores.len(), rows.len());
        for k in (0..rows.len()).step_by(2) {
            // A position and its mirror image: other rows, the opposite score.
            assert_ne!(rows[k], rows[k + 1]);
            let (a, b) = (scores[k].as_i64().unwrap(), scores[k + 1].as_i64().unwrap());
            assert_eq!(a, -b);
        }
    }
}

#[test]
fn symmetric_runs_tie_each_weight_in_the_single_run_and_the_merge() {
    let dir = scratch("train_mirror", "symmetric");
    let v = Variant::load("english").unwrap();
    let whole = dir.join("whole.weights");
    // Without --mirror: each side's weights are fitted from its own positions, then tied.
    let out = ok(&train(&["--symmetric", "--out", &p(&whole)]));
    let tied = out
        .split("; ")
        .find_map(|part| part.split_once(" weights tied to their mirror feature's"))
        .and_then(|(n, _)| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("a count of tied weights: {out}"));
    assert!(tied > 0, "{out}");
    let w = Weights::load(&whole, &v.rules).unwrap();
    assert!(w.made_by.ends_with(" --symmetric"), "{}", w.made_by);
    // Already tied: `train symmetric` finds nothing to change.
    let again = dir.join("again.weights");
    let said = ok(&damelab(&[
        "train",
        "symmetric",
        "english",
        &p(&whole),
        "--out",
        &p(&again),
    ]));
    assert!(said.contains(": 0 of "), "{said}");
    // Without --symmetric the same run's weights are not all tied.
    let plain = dir.join("plain.weights");
    ok(&train(&["--out", &p(&plain)]));
    let said = ok(&damelab(&[
        "train",
        "symmetric",
        "english",
        &p(&plain),
        "--out",
        &p(&again),
    ]));
    assert!(!said.contains(": 0 of "), "{said}");
    // The run played as two shards and merged writes the same file.
    let data: Vec<String> = (1..=2)
        .map(|k| p(&dir.join(format!("g1-{k}.json"))))
        .collect();
    for (k, d) in data.iter().enumerate() {
        let s = format!("{}/2", k + 1);
        let shard = [
            "--symmetric",
            "--generation",
            "1",
            "--shard",
            &s,
            "--data",
            d,
        ];
        ok(&train(&shard));
    }
    assert_eq!(
        read_json(&dir.join("g1-1.json"))["settings"]["symmetric"],
        true
    );
    let merged = dir.join("merged.weights");
    let mut m = vec!["train", "merge"];
    m.extend(data.iter().map(String::as_str));
    let mp = p(&merged);
    m.extend(["--threads", "1", "--out", &mp]);
    let said = ok(&damelab(&m));
    assert!(
        said.contains("weights tied to their mirror feature's"),
        "{said}"
    );
    assert!(
        std::fs::read(&merged).unwrap() == std::fs::read(&whole).unwrap(),
        "the merged weights differ from the single run's"
    );
}

#[test]
fn rules_that_do_not_treat_the_sides_alike_are_refused() {
    let dir = scratch("train_mirror", "refused");
    // Stacks: a column's pieces below its top do not turn with a mirror image.
    let out = dir.join("bashni.weights");
    let o = p(&out);
    let e = fails(
        &damelab(&["train", "bashni", "--mirror", "--games", "2", "--out", &o]),
        1,
        "--mirror needs rules that treat the two sides alike",
    );
    assert!(e.contains("stacks"), "{e}");
    assert!(e.contains("leave out --mirror"), "{e}");
    assert!(!out.exists());
    let e = fails(
        &damelab(&[
            "train",
            "bashni",
            "--symmetric",
            "--games",
            "2",
            "--out",
            &o,
        ]),
        1,
        "--symmetric needs rules that treat the two sides alike",
    );
    assert!(e.contains("leave out --symmetric"), "{e}");
    assert!(!out.exists());
    // With --fit new the ties would move the weights it holds.
    let start = dir.join("english.weights");
    let v = Variant::load("english").unwrap();
    std::fs::write(&start, Weights::bundled(&v.rules).unwrap().to_text()).unwrap();
    let e = fails(
        &train(&[
            "--symmetric",
            "--fit",
            "new",
            "--start",
            &p(&start),
            "--out",
            &o,
        ]),
        1,
        "--symmetric with --fit new",
    );
    assert!(e.contains("damelab train symmetric"), "{e}");
    assert!(!out.exists());
    // A start whose sides differ.
    let file = dir.join("lopsided.rules");
    let english = damelab::variants::bundled("english").unwrap();
    let lopsided = english.replace(
        "setup white man 21..32",
        "setup white man 21..32; black man 1..11",
    );
    assert_ne!(lopsided, english);
    std::fs::write(&file, lopsided).unwrap();
    let e = fails(
        &damelab(&["train", &p(&file), "--mirror", "--games", "2", "--out", &o]),
        1,
        "the start is not its own mirror image",
    );
    assert!(!out.exists(), "{e}");
}
