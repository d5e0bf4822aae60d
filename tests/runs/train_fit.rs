//! What a training fit moves and what it is fitted to: `train --fit new` holds every weight
//! carried from the `--start` file bit for bit and fits only those its layout lacks (the race
//! features, the endings of the small features); `--fit-pieces-at-most N` fits only the quiet
//! positions with at most N pieces on the board. Both travel through a generation's shards:
//! recorded in the data files, the merge writes the single run's weights and refuses a mismatch.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{damelab, fails, ok, p, read_json, scratch};
use damelab::search::learned::Layout;
use damelab::search::weights::{carried_mask, Weights};
use damelab::Variant;

/// English's bundled weights written to `dir` (a start without the race features).
fn bundled_english(dir: &Path) -> (Variant, Weights, PathBuf) {
    let v = Variant::load("english").unwrap();
    let w = Weights::bundled(&v.rules).unwrap();
    let path = dir.join("english.weights");
    std::fs::write(&path, w.to_text()).unwrap();
    (v, w, path)
}

/// `train english` from `start` into the race layout, one generation of 6 games at 200 nodes a
/// move, with `extra`.
fn args(start: &Path, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "train",
        "english",
        "--generations",
        "1",
        "--games",
        "6",
        "--nodes",
        "200",
        "--epochs",
        "20",
        "--match-games",
        "0",
        "--seed",
        "5",
        "--l2",
        "0",
        "--threads",
        "1",
        "--race",
        "--start",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.push(p(start));
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn run(a: &[String]) -> Output {
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    damelab(&a)
}

#[test]
fn the_carried_mask_marks_the_weights_the_file_has() {
    let mut plain = 0;
    for name in ["international", "english", "turkish"] {
        let v = Variant::load(name).unwrap();
        let rules = v.rules.as_ref();
        let bundled = Weights::bundled(&v.rules).unwrap();
        let from = Layout::from_summary(rules, &bundled.layout);
        let to = from.clone().raced(true);
        let mask = carried_mask(&from, &to);
        if from.race {
            // A bundled file with the race features already (international's): nothing is new.
            assert!(mask.iter().all(|&x| x), "{name}");
            continue;
        }
        plain += 1;
        assert_eq!(mask.len(), to.len);
        // Held: the piece-square, mobility, runaway and side-to-move weights and every window's
        // table; new: the race groups and the endings of the small features.
        for (i, &held) in mask.iter().enumerate() {
            let new = (to.material..to.patterns).contains(&i) || i >= to.taper;
            assert_eq!(held, !new, "{name}: weight {i} of {}", to.summary());
        }
        let carried = bundled.carried_into(rules, &to).unwrap();
        let held: Vec<i32> = (0..to.len)
            .filter(|&i| mask[i])
            .map(|i| carried.values[i])
            .collect();
        assert_eq!(
            held, bundled.values,
            "{name}: the held weights are the file's own"
        );
        // Into its own layout, everything is the file's; into a phased one, the ending is new.
        assert!(carried_mask(&from, &from).iter().all(|&x| x));
        let phased = Layout::build(rules, &from.shapes, false, true);
        let m = carried_mask(&from, &phased);
        assert!(m[..phased.base].iter().all(|&x| x), "{name}");
        assert!(m[phased.base..].iter().all(|&x| !x), "{name}");
    }
    assert!(
        plain > 0,
        "a bundled file without the race features was checked"
    );
}

#[test]
fn fit_new_holds_every_carried_weight_bit_for_bit() {
    let dir = scratch("train_fit", "new");
    let (v, bundled, start) = bundled_english(&dir);
    let rules = v.rules.as_ref();
    let (new, all) = (dir.join("new.weights"), dir.join("all.weights"));
    let out = ok(&run(&args(&start, &["--fit", "new", "--out", &p(&new)])));
    assert!(out.contains("--fit new"), "{out}");
    ok(&run(&args(&start, &["--out", &p(&all)])));
    let w = Weights::load(&new, &v.rules).unwrap();
    assert!(w.made_by.ends_with("--fit new"), "{}", w.made_by);
    let to = Layout::from_summary(rules, &w.layout);
    assert!(to.race);
    let mask = carried_mask(&Layout::from_summary(rules, &bundled.layout), &to);
    let before = bundled.carried_into(rules, &to).unwrap();
    let moved = |w: &Weights, held: bool| {
        (0..to.len)
            .filter(|&i| mask[i] == held && w.values[i] != before.values[i])
            .count()
    };
    assert_eq!(moved(&w, true), 0, "a held weight moved");
    assert!(moved(&w, false) > 0, "no new weight was fitted");
    // Without --fit new, the same games move the carried weights too.
    let a = Weights::load(&all, &v.rules).unwrap();
    assert!(moved(&a, true) > 0, "--fit all held the carried weights");
    assert_ne!(a.values, w.values);

    // Refused where nothing is new: no start, or a start of the run's own layout.
    let mut no_start = args(&start, &["--fit", "new"]);
    no_start.retain(|a| a != "--start" && *a != p(&start));
    fails(&run(&no_start), 1, "there is no --start");
    let raced = dir.join("raced.weights");
    std::fs::write(&raced, w.to_text()).unwrap();
    let e = fails(
        &run(&args(&raced, &["--fit", "new"])),
        1,
        "nothing is new to fit",
    );
    assert!(e.contains("raced.weights"), "{e}");
    let mut plain = args(&start, &["--fit", "new"]);
    plain.retain(|a| a != "--race");
    fails(&run(&plain), 1, "nothing is new to fit");
    fails(&run(&args(&start, &["--fit", "some"])), 1, "--fit");
}

/// The number of pieces of a data file's row: one piece-square feature per piece, the first
/// group of the layout.
fn pieces(row: &serde_json::Value, layout: &Layout) -> usize {
    let flat = row.as_array().unwrap();
    (0..flat.len())
        .step_by(2)
        .filter(|&k| (flat[k].as_u64().unwrap() as usize) < layout.mobility)
        .count()
}

/// Every row of a data file, and the quiet positions it left out.
fn rows(file: &serde_json::Value) -> (Vec<serde_json::Value>, u64) {
    let mut all = Vec::new();
    let mut left = 0;
    for g in file["games"].as_array().unwrap() {
        all.extend(g["rows"].as_array().unwrap().iter().cloned());
        left += g["left_out"].as_u64().unwrap_or(0);
    }
    (all, left)
}

#[test]
fn fit_pieces_at_most_fits_the_late_positions_and_travels_through_shards() {
    let dir = scratch("train_fit", "pieces");
    let (v, _, start) = bundled_english(&dir);
    let filter = ["--fit", "new", "--fit-pieces-at-most", "18"];
    let whole = dir.join("whole.weights");
    let mut a = filter.to_vec();
    let w = p(&whole);
    a.extend(["--out", w.as_str()]);
    let single = ok(&run(&args(&start, &a)));
    assert!(
        single.contains("with more than 18 pieces left out"),
        "{single}"
    );
    let made_by = Weights::load(&whole, &v.rules).unwrap().made_by;
    assert!(
        made_by.ends_with("--fit new --fit-pieces-at-most 18"),
        "{made_by}"
    );

    let shard = |k: &str, extra: &[&str], name: &str| {
        let data = dir.join(name);
        let d = p(&data);
        let mut a = extra.to_vec();
        a.extend(["--generation", "1", "--shard", k, "--data", d.as_str()]);
        let out = ok(&run(&args(&start, &a)));
        (data, out)
    };
    let (d1, o1) = shard("1/2", &filter, "g1-1.json");
    let (d2, _) = shard("2/2", &filter, "g1-2.json");
    assert!(o1.contains("with more than 18 pieces left out"), "{o1}");
    let f1 = read_json(&d1);
    assert_eq!(f1["settings"]["fit_pieces_at_most"], 18);
    assert_eq!(f1["settings"]["fit_new"], true);
    // Every row kept has at most 18 pieces; with the games' other quiet positions it makes
    // all of them (the same games, unfiltered).
    let layout = Layout::from_summary(
        v.rules.as_ref(),
        &Layout::new(v.rules.as_ref()).raced(true).summary(),
    );
    let (kept, left) = rows(&f1);
    assert!(
        !kept.is_empty() && left > 0,
        "{} kept, {left} left",
        kept.len()
    );
    assert!(kept.iter().all(|r| pieces(r, &layout) <= 18));
    let (full, _) = shard("1/2", &["--fit", "new"], "full.json");
    let (all, none) = rows(&read_json(&full));
    assert_eq!(none, 0);
    assert_eq!(all.len() as u64, kept.len() as u64 + left);
    assert!(all.iter().any(|r| pieces(r, &layout) > 18));

    let merge = |files: &[&PathBuf], out: &Path| {
        let mut a: Vec<String> = vec!["train".into(), "merge".into()];
        a.extend(files.iter().map(|f| p(f)));
        a.extend(["--from".into(), p(&start), "--threads".into(), "1".into()]);
        a.extend(["--out".into(), p(out)]);
        run(&a)
    };
    let merged = dir.join("merged.weights");
    let m = ok(&merge(&[&d1, &d2], &merged));
    assert!(
        std::fs::read(&merged).unwrap() == std::fs::read(&whole).unwrap(),
        "the merged weights differ from the single run's"
    );
    let line = |o: &str| {
        o.lines()
            .find(|l| l.starts_with("generation 1:"))
            .map(str::to_string)
    };
    assert_eq!(line(&m), line(&single), "{m}");
    // Shards of another filter, or fitting every weight, are another run's.
    let (other, _) = shard(
        "2/2",
        &["--fit", "new", "--fit-pieces-at-most", "20"],
        "other.json",
    );
    let out = dir.join("refused.weights");
    fails(&merge(&[&d1, &other], &out), 1, "fit_pieces_at_most");
    fails(&merge(&[&full, &d2], &out), 1, "fit_pieces_at_most");
    let (every, _) = shard("2/2", &["--fit-pieces-at-most", "18"], "every.json");
    fails(&merge(&[&d1, &every], &out), 1, "fit_new");
    assert!(!out.exists(), "a refused merge writes nothing");

    for n in ["0", "33"] {
        let e = fails(
            &run(&args(&start, &["--fit-pieces-at-most", n])),
            1,
            "is out of range",
        );
        assert!(e.contains("--fit-pieces-at-most"), "{e}");
    }
}
