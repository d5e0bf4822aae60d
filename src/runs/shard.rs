//! Shards of a run: which slice of a run's items (games) this process plays (`--shard K/N`, or
//! `--shard auto` from the variables a cluster scheduler sets), the shard set a result file holds,
//! and the checks before shard files are merged (same format, build and settings; no shard twice;
//! which shards are missing).
//!
//! Nothing here knows what an item is: self-play uses it for its games, and a match or a training
//! run whose items are seeded by their index can use it unchanged (see `docs/scale.md`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of damelab that writes a shard file, recorded so that shards played by different
/// builds are never merged.
pub const DAMELAB_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The variable that gives the number of shards to `--shard auto` under Kubernetes (whose indexed
/// jobs set the index but not the count), when `--shards` is not given.
pub const SHARDS_VAR: &str = "DAMELAB_SHARDS";

/// The variables `--shard auto` reads, in the order it looks at them.
pub const SLURM_ID: &str = "SLURM_ARRAY_TASK_ID";
pub const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
pub const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
pub const SLURM_MAX: &str = "SLURM_ARRAY_TASK_MAX";
pub const SLURM_STEP: &str = "SLURM_ARRAY_TASK_STEP";
pub const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";

/// The most shards a run may be split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Shard `k` of `n` (k from 1): the items whose index is `k - 1` modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    pub fn holds(&self, item: u64) -> bool {
        item % self.n == self.k - 1
    }

    /// The indices of this shard's items among `total`, ascending.
    pub fn items(&self, total: u64) -> impl Iterator<Item = u64> {
        (self.k - 1..total).step_by(self.n as usize)
    }

    /// How many of `total` items this shard holds.
    pub fn len(&self, total: u64) -> u64 {
        if self.k > total {
            0
        } else {
            (total - self.k) / self.n + 1
        }
    }

    pub fn is_empty(&self, total: u64) -> bool {
        self.len(total) == 0
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// What went wrong finding this process's shard or merging shard files.
#[derive(Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum ShardError {
    #[error("`{0}` is not a shard")]
    #[diagnostic(help(
        "write K/N with 1 <= K <= N (e.g. `--shard 2/8`), or `--shard auto` inside an array job"
    ))]
    BadShard(String),
    #[error("--shards {0} is out of range")]
    #[diagnostic(help("give from 1 to 1000000 shards"))]
    BadCount(u64),
    #[error("--shards is only read with `--shard auto`")]
    #[diagnostic(help("give `--shard auto --shards N`, or `--shard K/N` alone"))]
    CountWithoutAuto,
    #[error("--shard {shard} and --shards {count} disagree")]
    #[diagnostic(help("give `--shard K/N` alone"))]
    CountDisagrees { shard: Shard, count: u64 },
    #[error(
        "--shard auto found no array job: it looked for {SLURM_ID} and {SLURM_COUNT} (a Slurm \
         array job) and {K8S_INDEX} (a Kubernetes indexed job){slurm_job}"
    )]
    #[diagnostic(help(
        "run it as a task of a Slurm array job (`sbatch --array=0-31` for 32 shards) or of a \
         Kubernetes Job with `completionMode: Indexed`, or give the shard yourself: `--shard K/N`"
    ))]
    NoScheduler { slurm_job: String },
    #[error("{name} is `{value}`, not a number")]
    #[diagnostic(help("run under the scheduler that sets it, or give `--shard K/N`"))]
    BadVariable { name: &'static str, value: String },
    #[error("{SLURM_ID} is set but {missing} is not")]
    #[diagnostic(help(
        "this Slurm is too old to describe its array; give `--shard K/N` from the task id"
    ))]
    SlurmIncomplete { missing: &'static str },
    #[error(
        "the Slurm array is not a range: task {id} of {count} tasks from {min} to {max} step {step}"
    )]
    #[diagnostic(help(
        "submit the shards as one range (`--array=0-31` for 32 shards; a step is fine); to run \
         some shards again, give each `--shard K/N`"
    ))]
    SlurmIrregular {
        id: u64,
        count: u64,
        min: u64,
        max: u64,
        step: u64,
    },
    #[error("the Slurm array has {array} tasks but --shards says {count}")]
    #[diagnostic(help(
        "drop --shards under Slurm (the array's size is the number of shards); to run some \
         shards of a larger run again, give each `--shard K/N`"
    ))]
    SlurmCountDisagrees { array: u64, count: u64 },
    #[error("{K8S_INDEX} is set but the number of shards is not")]
    #[diagnostic(help("give `--shards N` or set {SHARDS_VAR} to the Job's `completions`"))]
    K8sNoCount,
    #[error("{K8S_INDEX} is {index} but there are only {count} shards (indices 0 to {last})", last = count - 1)]
    #[diagnostic(help("give `--shards N` (or {SHARDS_VAR}) equal to the Job's `completions`"))]
    K8sIndexTooLarge { index: u64, count: u64 },
    #[error("`{a}` is a `{fa}` file of version {va}, `{b}` a `{fb}` file of version {vb}")]
    #[diagnostic(help("merge files of one kind, written by one build of damelab"))]
    FormatDiffers {
        a: String,
        fa: String,
        va: u32,
        b: String,
        fb: String,
        vb: u32,
    },
    #[error("`{a}` was written by damelab {va}, `{b}` by damelab {vb}")]
    #[diagnostic(help(
        "merge shards played by one build: run the other shards again with damelab {va}"
    ))]
    BuildDiffers {
        a: String,
        va: String,
        b: String,
        vb: String,
    },
    #[error("`{a}` and `{b}` were played with different settings: {differences}")]
    #[diagnostic(help(
        "merge only the shards of one run: the same variant, rules, number of games, player, \
         seed and caps"
    ))]
    SettingsDiffer {
        a: String,
        b: String,
        differences: String,
    },
    #[error("`{a}` holds shards of {na}, `{b}` shards of {nb}")]
    #[diagnostic(help(
        "merge the shards of one split: every file played with the same N of `--shard K/N`"
    ))]
    SplitDiffers {
        a: String,
        na: u64,
        b: String,
        nb: u64,
    },
    #[error("shard {shard} is in both `{a}` and `{b}`")]
    #[diagnostic(help("merge each shard once"))]
    Overlap { shard: Shard, a: String, b: String },
    #[error("{missing} missing: the files hold {held} of the run's {total} {unit}")]
    #[diagnostic(help(
        "play the missing shards (the same command with `--shard K/N`) and merge all the files \
         again, or give --partial for the figures of the shards here (marked partial)"
    ))]
    Missing {
        missing: String,
        held: u64,
        total: u64,
        /// What the items are, plural (`games`, `pairs of games`).
        unit: &'static str,
    },
}

/// This process's shard: `arg` is the `--shard` text (`K/N` or `auto`), `count` the `--shards`
/// number, `env` reads an environment variable (`std::env::var` in the program; a map in tests).
/// `None`: the whole run.
pub fn resolve(
    arg: Option<&str>,
    count: Option<u64>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Shard>, ShardError> {
    if let Some(c) = count {
        if c == 0 || c > MAX_SHARDS {
            return Err(ShardError::BadCount(c));
        }
    }
    match arg.map(str::trim) {
        None if count.is_some() => Err(ShardError::CountWithoutAuto),
        None => Ok(None),
        Some(a) if a.eq_ignore_ascii_case("auto") => from_env(count, env).map(Some),
        Some(a) => {
            let shard = parse_shard(a)?;
            match count {
                Some(c) if c != shard.n => Err(ShardError::CountDisagrees { shard, count: c }),
                _ => Ok(Some(shard)),
            }
        }
    }
}

/// `K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<Shard, ShardError> {
    let err = || ShardError::BadShard(text.to_string());
    let (k, n) = text.split_once('/').ok_or_else(err)?;
    let k: u64 = k.trim().parse().map_err(|_| err())?;
    let n: u64 = n.trim().parse().map_err(|_| err())?;
    if k == 0 || n == 0 || k > n || n > MAX_SHARDS {
        return Err(err());
    }
    Ok(Shard { k, n })
}

fn number(
    name: &'static str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<u64>, ShardError> {
    match env(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| ShardError::BadVariable { name, value: v }),
    }
}

/// The shard a scheduler's variables give: Slurm's array task first, then a Kubernetes index.
fn from_env(count: Option<u64>, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
    if let Some(id) = number(SLURM_ID, env)? {
        return from_slurm(id, count, env);
    }
    if let Some(index) = number(K8S_INDEX, env)? {
        let n = match count {
            Some(c) => c,
            None => match number(SHARDS_VAR, env)? {
                Some(c) if c == 0 || c > MAX_SHARDS => return Err(ShardError::BadCount(c)),
                Some(c) => c,
                None => return Err(ShardError::K8sNoCount),
            },
        };
        if index >= n {
            return Err(ShardError::K8sIndexTooLarge { index, count: n });
        }
        return Ok(Shard { k: index + 1, n });
    }
    let slurm_job = if env("SLURM_JOB_ID").is_some() {
        "; this is a Slurm job (SLURM_JOB_ID is set) but not an array job".to_string()
    } else {
        String::new()
    };
    Err(ShardError::NoScheduler { slurm_job })
}

/// Task `id` of a Slurm array `MIN-MAX:STEP` of COUNT tasks is shard `(id - MIN) / STEP + 1` of
/// COUNT, whatever index the array starts at. A list of indices (`--array=1,4,9`) has no such
/// numbering and is refused.
fn from_slurm(
    id: u64,
    count: Option<u64>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Shard, ShardError> {
    let n = number(SLURM_COUNT, env)?.ok_or(ShardError::SlurmIncomplete {
        missing: SLURM_COUNT,
    })?;
    let min = number(SLURM_MIN, env)?.ok_or(ShardError::SlurmIncomplete { missing: SLURM_MIN })?;
    let step = number(SLURM_STEP, env)?.unwrap_or(1).max(1);
    let max = number(SLURM_MAX, env)?.unwrap_or(min + step * n.saturating_sub(1));
    let irregular = ShardError::SlurmIrregular {
        id,
        count: n,
        min,
        max,
        step,
    };
    if n == 0
        || id < min
        || !(id - min).is_multiple_of(step)
        || max < min
        || (max - min) / step + 1 != n
    {
        return Err(irregular);
    }
    let k = (id - min) / step + 1;
    if k > n || n > MAX_SHARDS {
        return Err(irregular);
    }
    if let Some(c) = count {
        if c != n {
            return Err(ShardError::SlurmCountDisagrees { array: n, count: c });
        }
    }
    Ok(Shard { k, n })
}

/// The shards a result file holds: `held` (ascending, from 1) of `count`. A whole run, played in
/// one go or merged from all its shards, is `1 of 1`: the two are the same result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSet {
    pub count: u64,
    pub held: Vec<u64>,
}

impl ShardSet {
    pub fn whole() -> ShardSet {
        ShardSet::of(Shard::WHOLE)
    }

    pub fn of(shard: Shard) -> ShardSet {
        ShardSet {
            count: shard.n,
            held: vec![shard.k],
        }
    }

    pub fn is_whole(&self) -> bool {
        self.held.len() as u64 == self.count
    }

    /// The shards not held, ascending.
    pub fn missing(&self) -> Vec<u64> {
        let mut held = self.held.iter().peekable();
        (1..=self.count)
            .filter(|k| {
                while held.next_if(|h| *h < k).is_some() {}
                held.next_if_eq(&k).is_none()
            })
            .collect()
    }

    /// How many of a run's `total` items the held shards hold.
    pub fn items(&self, total: u64) -> u64 {
        self.held
            .iter()
            .map(|&k| Shard { k, n: self.count }.len(total))
            .sum()
    }

    /// Whether item `i` belongs to a held shard.
    pub fn holds(&self, i: u64) -> bool {
        self.held.binary_search(&(i % self.count + 1)).is_ok()
    }

    /// Whether the set is well formed: shards from 1 to `count`, ascending, none twice.
    pub fn is_valid(&self) -> bool {
        (1..=MAX_SHARDS).contains(&self.count)
            && self.held.windows(2).all(|w| w[0] < w[1])
            && self.held.iter().all(|&k| (1..=self.count).contains(&k))
            && !self.held.is_empty()
    }
}

impl fmt::Display for ShardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_whole() {
            return write!(f, "the whole run");
        }
        write!(
            f,
            "{} {} of {}",
            if self.held.len() == 1 {
                "shard"
            } else {
                "shards"
            },
            list(&self.held),
            self.count
        )
    }
}

/// A JSON file's `format` and `version` checked before the whole is read, so a file of another
/// kind or version gets that message rather than a field-by-field parse error. `what` names the
/// kind in the message ("a match file", "a training data file").
pub fn check_head(
    name: &str,
    text: &str,
    format: &str,
    version: u64,
    what: &str,
) -> Result<(), HeadError> {
    #[derive(Deserialize)]
    struct Head {
        #[serde(default)]
        format: String,
        #[serde(default)]
        version: u64,
    }
    let head: Head = serde_json::from_str(text).map_err(|e| HeadError::NotJson {
        name: name.to_string(),
        why: e.to_string(),
    })?;
    if head.format != format || head.version != version {
        return Err(HeadError::OtherKind {
            name: name.to_string(),
            what: what.to_string(),
            version,
            found: (head.format, head.version),
        });
    }
    Ok(())
}

/// A run's JSON file whose head is not the kind and version expected.
#[derive(Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum HeadError {
    #[error("`{name}` is not JSON: {why}")]
    NotJson { name: String, why: String },
    #[error(
        "`{name}` is not {what} of version {version} (format `{}`, version {})",
        found.0, found.1
    )]
    OtherKind {
        name: String,
        what: String,
        version: u64,
        found: (String, u64),
    },
}

/// Shards' PDN files that do not hold the games merged, each once.
#[derive(Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum PdnGamesError {
    #[error("game {} is in the PDN files twice", game + 1)]
    Twice { game: u64 },
    #[error("the PDN files lack {} of the {merged} games merged: {}", lack.len(), list(lack))]
    Lacking { lack: Vec<u64>, merged: usize },
}

/// Whether the games read from shards' PDN files (their 0-based indices, sorted) are exactly the
/// games of the merged run (`merged`, 0-based): none twice, none missing. The error names them.
pub fn check_pdn_games(
    have: &[u64],
    merged: impl Iterator<Item = u64>,
) -> Result<(), PdnGamesError> {
    if let Some(w) = have.windows(2).find(|w| w[0] == w[1]) {
        return Err(PdnGamesError::Twice { game: w[0] });
    }
    let merged: Vec<u64> = merged.collect();
    if have.len() != merged.len() {
        let lack: Vec<u64> = merged
            .iter()
            .filter(|i| have.binary_search(i).is_err())
            .map(|i| i + 1)
            .collect();
        return Err(PdnGamesError::Lacking {
            lack,
            merged: merged.len(),
        });
    }
    Ok(())
}

/// `1, 3, 5–9, 12`: runs of three or more as ranges, so a 1,000-shard list stays readable.
pub fn list(ks: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ks.len() {
        let mut j = i;
        while j + 1 < ks.len() && ks[j + 1] == ks[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}–{}", ks[i], ks[j]));
        } else {
            parts.extend(ks[i..=j].iter().map(u64::to_string));
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// What a shard file says about itself, as [`check_mergeable`] needs it.
pub struct Stamp<'a> {
    /// The file's name, for messages.
    pub name: &'a str,
    pub format: &'a str,
    pub version: u32,
    pub damelab: &'a str,
    /// The settings that decide the items, as JSON: compared field by field.
    pub settings: serde_json::Value,
    pub shards: &'a ShardSet,
}

/// Check that the file of `s` is of the run of `first`'s: one format and version, one build of
/// damelab, equal settings (the shards are not looked at: see [`check_mergeable`]).
pub fn same_run(first: &Stamp, s: &Stamp) -> Result<(), ShardError> {
    if s.format != first.format || s.version != first.version {
        return Err(ShardError::FormatDiffers {
            a: first.name.into(),
            fa: first.format.into(),
            va: first.version,
            b: s.name.into(),
            fb: s.format.into(),
            vb: s.version,
        });
    }
    if s.damelab != first.damelab {
        return Err(ShardError::BuildDiffers {
            a: first.name.into(),
            va: first.damelab.into(),
            b: s.name.into(),
            vb: s.damelab.into(),
        });
    }
    let diffs = differences(&first.settings, &s.settings);
    if !diffs.is_empty() {
        return Err(ShardError::SettingsDiffer {
            a: first.name.into(),
            b: s.name.into(),
            differences: diffs.join(", "),
        });
    }
    Ok(())
}

/// Check that shard files can be merged — one format and version, one build of damelab, equal
/// settings, one split, no shard twice — and give the shards they hold together.
pub fn check_mergeable(stamps: &[Stamp]) -> Result<ShardSet, ShardError> {
    let Some(first) = stamps.first() else {
        return Ok(ShardSet {
            count: 1,
            held: Vec::new(),
        });
    };
    let mut owner: Vec<(u64, &str)> = Vec::new();
    for s in stamps {
        same_run(first, s)?;
        if s.shards.count != first.shards.count {
            return Err(ShardError::SplitDiffers {
                a: first.name.into(),
                na: first.shards.count,
                b: s.name.into(),
                nb: s.shards.count,
            });
        }
        for &k in &s.shards.held {
            if let Some((_, a)) = owner.iter().find(|(o, _)| *o == k) {
                return Err(ShardError::Overlap {
                    shard: Shard {
                        k,
                        n: first.shards.count,
                    },
                    a: (*a).into(),
                    b: s.name.into(),
                });
            }
            owner.push((k, s.name));
        }
    }
    let mut held: Vec<u64> = owner.into_iter().map(|(k, _)| k).collect();
    held.sort_unstable();
    Ok(ShardSet {
        count: first.shards.count,
        held,
    })
}

/// Refuse a merge that lacks shards (`total` games in the whole run), unless `partial`.
pub fn require_whole(set: &ShardSet, total: u64, partial: bool) -> Result<(), ShardError> {
    require_whole_of(set, total, partial, "games")
}

/// [`require_whole`] for a run of `total` items called `unit` (plural) in the message.
pub fn require_whole_of(
    set: &ShardSet,
    total: u64,
    partial: bool,
    unit: &'static str,
) -> Result<(), ShardError> {
    if set.is_whole() || partial {
        return Ok(());
    }
    let missing = set.missing();
    let which = format!(
        "{} {} of {} {}",
        if missing.len() == 1 {
            "shard"
        } else {
            "shards"
        },
        list(&missing),
        set.count,
        if missing.len() == 1 { "is" } else { "are" }
    );
    Err(ShardError::Missing {
        missing: which,
        held: set.items(total),
        total,
        unit,
    })
}

/// The fields in which two settings differ, as `` `depth` 4 against 6 `` (nested fields by their
/// path, `a.b`).
pub fn differences(a: &serde_json::Value, b: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    diff_into("", a, b, &mut out);
    out
}

fn diff_into(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let null = Value::Null;
                diff_into(
                    &p,
                    x.get(k).unwrap_or(&null),
                    y.get(k).unwrap_or(&null),
                    out,
                );
            }
        }
        _ if a != b => out.push(format!("`{path}` {a} against {b}")),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
