//! The unit tests of `shard`: the scheduler's variables, shard sets and the merge checks.

use super::*;

#[test]
fn pdn_games_must_be_the_merged_ones_each_once() {
    assert_eq!(check_pdn_games(&[0, 1, 2], 0..3), Ok(()));
    assert_eq!(
        check_pdn_games(&[0, 1, 1, 2], 0..3).map_err(|e| e.to_string()),
        Err("game 2 is in the PDN files twice".into())
    );
    assert_eq!(
        check_pdn_games(&[0, 3], 0..4).map_err(|e| e.to_string()),
        Err("the PDN files lack 2 of the 4 games merged: 2, 3".into())
    );
}
use std::collections::HashMap;

fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k| map.get(k).cloned()
}

fn slurm(id: u64, count: u64, min: u64, max: u64, step: u64) -> Vec<(String, String)> {
    vec![
        (SLURM_ID.into(), id.to_string()),
        (SLURM_COUNT.into(), count.to_string()),
        (SLURM_MIN.into(), min.to_string()),
        (SLURM_MAX.into(), max.to_string()),
        (SLURM_STEP.into(), step.to_string()),
    ]
}

fn auto(vars: Vec<(String, String)>, count: Option<u64>) -> Result<Option<Shard>, ShardError> {
    let pairs: Vec<(&str, &str)> = vars.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    resolve(Some("auto"), count, &env(&pairs))
}

#[test]
fn slurm_arrays_from_any_start_and_step() {
    // --array=0-3: task 2 is the third shard.
    assert_eq!(
        auto(slurm(2, 4, 0, 3, 1), None),
        Ok(Some(Shard { k: 3, n: 4 }))
    );
    // --array=1-4
    assert_eq!(
        auto(slurm(1, 4, 1, 4, 1), None),
        Ok(Some(Shard { k: 1, n: 4 }))
    );
    // --array=10-16:3 (10, 13, 16)
    assert_eq!(
        auto(slurm(16, 3, 10, 16, 3), None),
        Ok(Some(Shard { k: 3, n: 3 }))
    );
    assert_eq!(
        auto(slurm(3, 4, 0, 3, 1), Some(4)),
        Ok(Some(Shard { k: 4, n: 4 }))
    );
    assert!(matches!(
        auto(slurm(3, 4, 0, 3, 1), Some(8)),
        Err(ShardError::SlurmCountDisagrees { array: 4, count: 8 })
    ));
    // --array=1,3,4: three tasks over 1..4 is a list, not a range.
    assert!(matches!(
        auto(slurm(3, 3, 1, 4, 1), None),
        Err(ShardError::SlurmIrregular { .. })
    ));
    let mut no_min = slurm(1, 4, 0, 3, 1);
    no_min.retain(|(k, _)| k != SLURM_MIN);
    assert_eq!(
        auto(no_min, None),
        Err(ShardError::SlurmIncomplete { missing: SLURM_MIN })
    );
}

#[test]
fn kubernetes_index_with_a_given_count() {
    let vars = vec![(K8S_INDEX.to_string(), "0".to_string())];
    assert_eq!(auto(vars.clone(), Some(4)), Ok(Some(Shard { k: 1, n: 4 })));
    assert_eq!(auto(vars.clone(), None), Err(ShardError::K8sNoCount));
    let mut with_var = vars.clone();
    with_var.push((SHARDS_VAR.into(), "2".into()));
    assert_eq!(auto(with_var, None), Ok(Some(Shard { k: 1, n: 2 })));
    let late = vec![(K8S_INDEX.to_string(), "4".to_string())];
    assert_eq!(
        auto(late, Some(4)),
        Err(ShardError::K8sIndexTooLarge { index: 4, count: 4 })
    );
    let bad = vec![(K8S_INDEX.to_string(), "x".to_string())];
    assert!(matches!(
        auto(bad, Some(4)),
        Err(ShardError::BadVariable { .. })
    ));
}

#[test]
fn auto_outside_a_scheduler_names_the_variables() {
    let e = auto(Vec::new(), None).unwrap_err();
    let text = e.to_string();
    for v in [SLURM_ID, SLURM_COUNT, K8S_INDEX] {
        assert!(text.contains(v), "{text}");
    }
    let e = auto(vec![("SLURM_JOB_ID".into(), "7".into())], None).unwrap_err();
    assert!(e.to_string().contains("not an array job"), "{e}");
}

#[test]
fn fixed_shards_and_counts() {
    let none = env(&[]);
    assert_eq!(resolve(None, None, &none), Ok(None));
    assert_eq!(
        resolve(Some("2/8"), None, &none),
        Ok(Some(Shard { k: 2, n: 8 }))
    );
    assert_eq!(
        resolve(Some("2/8"), Some(8), &none),
        Ok(Some(Shard { k: 2, n: 8 }))
    );
    assert!(resolve(Some("2/8"), Some(4), &none).is_err());
    assert!(resolve(Some("9/8"), None, &none).is_err());
    assert!(resolve(Some("0/8"), None, &none).is_err());
    assert_eq!(
        resolve(None, Some(4), &none),
        Err(ShardError::CountWithoutAuto)
    );
    assert_eq!(
        resolve(Some("auto"), Some(0), &none),
        Err(ShardError::BadCount(0))
    );
}

#[test]
fn shards_partition_the_items() {
    for total in [0u64, 1, 7, 10] {
        let mut seen = Vec::new();
        for k in 1..=4 {
            let s = Shard { k, n: 4 };
            let items: Vec<u64> = s.items(total).collect();
            assert_eq!(items.len() as u64, s.len(total));
            assert!(items.iter().all(|&i| s.holds(i)));
            seen.extend(items);
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..total).collect::<Vec<_>>());
    }
}

#[test]
fn missing_shards_and_lists() {
    let s = ShardSet {
        count: 9,
        held: vec![2, 3, 7],
    };
    assert_eq!(s.missing(), vec![1, 4, 5, 6, 8, 9]);
    assert_eq!(list(&s.missing()), "1, 4–6, 8, 9");
    assert_eq!(s.to_string(), "shards 2, 3, 7 of 9");
    assert_eq!(s.items(20), 3 + 2 + 2);
    let e = require_whole(&s, 20, false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "shards 1, 4–6, 8, 9 of 9 are missing: the files hold 7 of the run's 20 games"
    );
    assert!(require_whole(&s, 20, true).is_ok());
    assert!(ShardSet::whole().is_whole());
}

#[test]
fn stamps_name_what_differs() {
    let one = ShardSet::of(Shard { k: 1, n: 2 });
    let two = ShardSet::of(Shard { k: 2, n: 2 });
    let stamp = |name, settings, shards, damelab| Stamp {
        name,
        format: "f",
        version: 1,
        damelab,
        settings,
        shards,
    };
    let a = serde_json::json!({"depth": 4, "seed": 1});
    let b = serde_json::json!({"depth": 6, "seed": 1});
    let ok = check_mergeable(&[
        stamp("a", a.clone(), &one, "1"),
        stamp("b", a.clone(), &two, "1"),
    ]);
    assert_eq!(
        ok.unwrap(),
        ShardSet {
            count: 2,
            held: vec![1, 2]
        }
    );
    let e =
        check_mergeable(&[stamp("a", a.clone(), &one, "1"), stamp("b", b, &two, "1")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`a` and `b` were played with different settings: `depth` 4 against 6"
    );
    let e = check_mergeable(&[
        stamp("a", a.clone(), &one, "1"),
        stamp("b", a.clone(), &two, "2"),
    ])
    .unwrap_err();
    assert!(matches!(e, ShardError::BuildDiffers { .. }));
    let e = check_mergeable(&[
        stamp("a", a.clone(), &one, "1"),
        stamp("b", a.clone(), &one, "1"),
    ])
    .unwrap_err();
    assert_eq!(e.to_string(), "shard 1/2 is in both `a` and `b`");
}
