//! A learned evaluation's weights file: reading it (checked against the rules it was trained for,
//! its layout and its checksum), writing it, and the bundled weights found by the rules' hash.
//!
//! The file is text: a header of `key value` lines, then `weights` and the integers, 16 a line.
//!
//! ```text
//! damelab-weights 1
//! variant dameo
//! rules 3f0c9a51d2e8b774
//! layout kinds=2 squares=64 windows=49 weights=4112
//! made-by damelab train dameo --seed 1 …
//! search lmr_div=110
//! checksum 9b1d4c0e7a2f3358
//! weights
//! 400 400 400 …
//! ```
//!
//! `rules` is [`Rules::fingerprint`](crate::Rules::fingerprint) of the compiled rules; `checksum` is FNV-1a (64 bits)
//! of every line of the file but the checksum line itself. The `search` line is optional: search
//! options ([`super::options::Options::set`] names) measured stronger with these weights than the
//! defaults; every engine that plays with the weights starts from them ([`options`]), and
//! options given by name override them.

use super::learned::{Layout, SHIFT};
use super::options::Options;
use crate::engine::Rules;
use crate::util::Fnv;
use miette::{miette, Report};
use std::path::Path;
use std::sync::Arc;

/// The first word of a weights file, and the format version this build reads.
pub const MAGIC: &str = "damelab-weights";
pub const VERSION: u32 = 1;
/// The largest weight a file may hold (a larger one is corruption, and could overflow a sum).
pub const MAX_WEIGHT: i32 = 1 << 16;

/// Weights bundled with the binary: (variant name, file text), found by the rules' fingerprint
/// (each file's `made-by` line says the command and seed that produced it).
pub const BUNDLED: &[(&str, &str)] = &[
    ("brazilian", include_str!("../../weights/brazilian.weights")),
    ("czech", include_str!("../../weights/czech.weights")),
    ("dameo", include_str!("../../weights/dameo.weights")),
    ("damone", include_str!("../../weights/damone.weights")),
    ("english", include_str!("../../weights/english.weights")),
    (
        "international",
        include_str!("../../weights/international.weights"),
    ),
    ("italian", include_str!("../../weights/italian.weights")),
    ("russian", include_str!("../../weights/russian.weights")),
    ("spanish", include_str!("../../weights/spanish.weights")),
    ("turkish", include_str!("../../weights/turkish.weights")),
];

/// The engine's digest: FNV-1a (64 bits) of the crate's version and every bundled weights file
/// (name and text). Self-play figures are tagged with it (`damelab version --digest`): a figure
/// measured under another digest came from other weights or another release.
pub fn engine_digest() -> String {
    digest_of(env!("CARGO_PKG_VERSION"), BUNDLED)
}

/// The digest of the version and one variant's bundled weights alone (the version alone for a
/// name without bundled weights): a figure made with one variant's learned evaluation stays true
/// while this digest holds, whatever happens to the other variants' weights. `None` when `name`
/// is neither a bundled weights file's variant nor `none` (the version alone, for figures that
/// use no learned evaluation: random games, endgame tables, the rules' derived evaluation).
pub fn weights_digest(name: &str) -> Option<String> {
    let version = env!("CARGO_PKG_VERSION");
    match name {
        "none" => Some(digest_of(version, &[])),
        _ => BUNDLED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|entry| digest_of(version, std::slice::from_ref(entry))),
    }
}

/// [`engine_digest`] of a version and a set of weights files.
pub fn digest_of(version: &str, bundled: &[(&str, &str)]) -> String {
    let start = Fnv::default().write(format!("damelab {version}\n").as_bytes());
    let h = bundled.iter().fold(start, |h, (name, text)| {
        h.write(name.as_bytes()).write(b"\n").write(text.as_bytes())
    });
    format!("{:016x}", h.finish())
}

/// The weights of a learned evaluation for one rules file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The variant's name when trained (for messages only).
    pub variant: String,
    /// The fingerprint of the rules they were trained for.
    pub rules: String,
    /// The layout summary ([`Layout::summary`]).
    pub layout: String,
    /// The command and seed that produced them.
    pub made_by: String,
    /// Search options tuned for these weights (`name`, `value`), each checked when read.
    pub search: Vec<(String, String)>,
    /// One weight per feature, in quarters of a score unit ([`SHIFT`]).
    pub values: Vec<i32>,
}

fn checksum<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let h = lines
        .filter(|l| !l.starts_with("checksum "))
        .fold(Fnv::default(), |h, l| h.write(l.as_bytes()).write(b"\n"));
    format!("{:016x}", h.finish())
}

impl Weights {
    /// The weights that make the learned evaluation score exactly as the derived one
    /// ([`super::eval::Eval`]): its piece-square table and mobility; nothing else. Training starts
    /// here.
    pub fn derived(rules: &Rules) -> Weights {
        Weights::derived_with(rules, false)
    }

    /// [`Weights::derived`] in the layout with wide patterns or without (their weights 0).
    pub fn derived_with(rules: &Rules, wide_patterns: bool) -> Weights {
        Weights::derived_shaped(rules, wide_patterns, false)
    }

    /// [`Weights::derived`] in the layout with wide patterns or without, and with the opening's
    /// and the ending's weights (both the derived ones) or one set.
    pub fn derived_shaped(rules: &Rules, wide_patterns: bool, phased: bool) -> Weights {
        Weights::derived_in(rules, &Layout::shaped(rules, wide_patterns, phased))
    }

    /// [`Weights::derived`] in `layout` (made for these rules): the piece-square and mobility
    /// weights of the derived evaluation, every other weight 0.
    pub fn derived_in(rules: &Rules, layout: &Layout) -> Weights {
        let eval = super::eval::Eval::new(rules);
        let mut values = vec![0i32; layout.len];
        for side in 0..2 {
            for kind in 0..layout.kinds {
                for sq in crate::engine::geometry::BitIter(rules.geo.playable) {
                    values[layout.pst_of(side, kind) + sq as usize] =
                        eval.table_value(side, kind, sq) << SHIFT;
                }
                values[layout.mobility + side * layout.kinds + kind] =
                    super::eval::MOBILITY << SHIFT;
            }
        }
        if layout.phased {
            // The ending starts where the opening does.
            let (open, end) = values.split_at_mut(layout.base);
            end.copy_from_slice(open);
        }
        start_ending(layout, &mut values);
        Weights {
            variant: String::new(),
            rules: rules.fingerprint(),
            layout: layout.summary(),
            made_by: "the derived evaluation".into(),
            search: Vec::new(),
            values,
        }
        .named(rules)
    }

    /// These weights (of these rules) moved into the layout `to`: the piece-square, mobility,
    /// runaway and side-to-move weights carried over, the windows' tables when both layouts have
    /// windows of one shape, the wide table when both have it; into a phased layout from one
    /// without phases, both phases start at them. Every other weight is the derived
    /// evaluation's. `Err` when the move would drop the ending's weights.
    pub fn carried_into(&self, rules: &Rules, to: &Layout) -> Result<Weights, PhasesDropped> {
        let from = Layout::from_summary(rules, &self.layout);
        if (from.phased && !to.phased) || (from.tapered > 0 && to.tapered == 0) {
            return Err(PhasesDropped {
                from: self.layout.clone(),
                to: to.summary(),
            });
        }
        let mut w = Weights::derived_in(rules, to);
        for c in carry_plan(&from, to) {
            w.values[c.to].copy_from_slice(&self.values[c.from]);
        }
        if from.tapered == 0 {
            start_ending(to, &mut w.values);
        }
        w.variant = self.variant.clone();
        w.made_by = self.made_by.clone();
        w.search = self.search.clone();
        Ok(w)
    }

    fn named(mut self, rules: &Rules) -> Weights {
        self.variant = rules.spec.title.clone();
        self
    }

    /// The `search` line's words.
    pub fn search_text(&self) -> String {
        let words: Vec<String> = self
            .search
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        words.join(" ")
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{MAGIC} {VERSION}\nvariant {}\nrules {}\nlayout {}\nmade-by {}\n",
            one_line(&self.variant),
            self.rules,
            self.layout,
            one_line(&self.made_by)
        );
        if !self.search.is_empty() {
            out.push_str(&format!("search {}\n", self.search_text()));
        }
        let mut body = String::from("weights\n");
        for chunk in self.values.chunks(16) {
            let line: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
            body.push_str(&line.join(" "));
            body.push('\n');
        }
        let sum = checksum(out.lines().chain(body.lines()));
        out.push_str(&format!("checksum {sum}\n"));
        out.push_str(&body);
        out
    }

    /// Read a weights file for `rules`; a file of other rules, truncated or corrupt is refused.
    pub fn load(path: &Path, rules: &Rules) -> Result<Weights, Report> {
        let shown = path.display().to_string();
        let bytes = crate::fsio::read_file(path, crate::fsio::Kind::Weights).map_err(|e| {
            miette!(
                help = "give the path of a file written by `damelab train`",
                "cannot read evaluation file `{shown}`: {e}"
            )
        })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            miette!(
                help = "the file is damaged: train again with `damelab train` or restore it",
                "evaluation file `{shown}` is corrupt: it is not text"
            )
        })?;
        Weights::parse(&text, &shown, rules)
    }

    /// The bundled weights of these rules, if any were trained for them.
    pub fn bundled(rules: &Rules) -> Option<Weights> {
        let fp = rules.fingerprint();
        BUNDLED
            .iter()
            .filter(|(_, text)| text.lines().any(|l| l == format!("rules {fp}")))
            .find_map(|(name, text)| Weights::parse(text, name, rules).ok())
    }

    /// [`Weights::load`] from a file's text; `name` names it in messages.
    pub fn parse(text: &str, name: &str, rules: &Rules) -> Result<Weights, Report> {
        let retrain = "train weights for these rules with `damelab train VARIANT --out FILE`, \
                       or give the file trained for them"
            .to_string();
        let corrupt = |what: String| {
            miette!(
                help = retrain.clone(),
                "evaluation file `{name}` is corrupt: {what}"
            )
        };
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("");
        let mut magic = first.split_whitespace();
        if magic.next() != Some(MAGIC) {
            return Err(miette!(
                help = "give a file written by `damelab train`",
                "`{name}` is not a damelab evaluation file: it does not start with `{MAGIC}`"
            ));
        }
        match magic.next().map(str::parse::<u32>) {
            Some(Ok(VERSION)) => {}
            Some(Ok(v)) => {
                return Err(miette!(
                    help = format!("this damelab reads version {VERSION}: {retrain}"),
                    "evaluation file `{name}` is of format version {v}"
                ))
            }
            _ => return Err(corrupt("its first line has no version".into())),
        }
        let mut lines = lines.peekable();
        let field = |lines: &mut std::iter::Peekable<std::str::Lines>,
                     key: &str|
         -> Result<String, Report> {
            let line = lines
                .next()
                .ok_or_else(|| corrupt(format!("it ends before its `{key}` line")))?;
            match line.split_once(' ') {
                Some((k, v)) if k == key => Ok(v.to_string()),
                _ => Err(corrupt(format!(
                    "`{key}` expected, found `{}`",
                    short(line)
                ))),
            }
        };
        let variant = field(&mut lines, "variant")?;
        let fp = field(&mut lines, "rules")?;
        let layout_text = field(&mut lines, "layout")?;
        let made_by = field(&mut lines, "made-by")?;
        // Optional: the search options tuned for these weights, each one checked below.
        let search_text = lines
            .next_if(|l| l.starts_with("search "))
            .map(|l| l["search ".len()..].to_string());
        let sum = field(&mut lines, "checksum")?;
        if lines.next() != Some("weights") {
            return Err(corrupt("`weights` expected after the header".into()));
        }
        // The line number of the first weights line.
        let first = 8 + search_text.is_some() as usize;
        let layout = Layout::from_summary(rules, &layout_text);
        let expected = layout.len;
        let mut values = Vec::with_capacity(expected);
        for (n, line) in lines.enumerate() {
            for word in line.split_whitespace() {
                let v: i32 = word.parse().map_err(|_| {
                    corrupt(format!(
                        "`{}` on line {} is not a weight",
                        short(word),
                        n + first
                    ))
                })?;
                if v.abs() > MAX_WEIGHT {
                    return Err(corrupt(format!(
                        "weight {v} on line {} is beyond ±{MAX_WEIGHT}",
                        n + first
                    )));
                }
                values.push(v);
            }
        }
        let declared = layout_text
            .split_whitespace()
            .find_map(|w| w.strip_prefix("weights="))
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(d) = declared {
            if values.len() < d {
                return Err(miette!(
                    help = retrain.clone(),
                    "evaluation file `{name}` is truncated: it holds {} of its {d} weights",
                    values.len()
                ));
            }
        }
        if checksum(text.lines()) != sum {
            return Err(corrupt("its checksum does not match its contents".into()));
        }
        let search = match &search_text {
            Some(t) => parse_search(t).map_err(|e| corrupt(format!("its `search` line: {e}")))?,
            None => Vec::new(),
        };
        let mine = rules.fingerprint();
        if fp != mine {
            return Err(miette!(
                help = retrain.clone(),
                "evaluation file `{name}` was trained for other rules (`{variant}`, fingerprint \
                 {fp}), not these (`{}`, fingerprint {mine})",
                rules.spec.title
            ));
        }
        if layout_text != layout.summary() || values.len() != expected {
            return Err(miette!(
                help = retrain,
                "evaluation file `{name}` has features `{layout_text}`; these rules have `{}`",
                layout.summary()
            ));
        }
        Ok(Weights {
            variant,
            rules: fp,
            layout: layout_text,
            made_by,
            search,
            values,
        })
    }
}

/// What `--eval` takes: `derived`, `bundled`, or a weights file's path.
pub const EVAL_HELP: &str = "`--eval derived` (the evaluation derived from the rules), \
`--eval bundled` (the weights bundled for these rules) or `--eval FILE` (a file written by \
`damelab train`); without it, the bundled weights when there are any for these rules";

/// The evaluation `--eval` names for these rules: `None` for the derived one. Without `--eval`,
/// the bundled weights of these rules when there are any (found by the rules' fingerprint).
pub fn resolve(arg: Option<&str>, rules: &Rules) -> Result<Option<Arc<Weights>>, Report> {
    match arg {
        None => Ok(Weights::bundled(rules).map(Arc::new)),
        Some("derived") => Ok(None),
        Some("bundled") => Weights::bundled(rules)
            .map(|w| Some(Arc::new(w)))
            .ok_or_else(|| {
                miette!(
                    help = "train weights with `damelab train VARIANT --out FILE` and give \
                        `--eval FILE`, or use `--eval derived`",
                    "no weights are bundled for `{}`",
                    rules.spec.title
                )
            }),
        Some(path) => Weights::load(Path::new(path), rules).map(|w| Some(Arc::new(w))),
    }
}

/// A short name of an evaluation, for reports: `derived`, or the weights' origin and digest.
pub fn describe(weights: Option<&Weights>) -> String {
    match weights {
        None => "derived".into(),
        Some(w) => format!("learned {}", w.digest()),
    }
}

impl Weights {
    /// A digest of the weights alone (FNV-1a of their values), to tell two files apart.
    pub fn digest(&self) -> String {
        let h = (self.values.iter()).fold(Fnv::default(), |h, v| h.write(&v.to_le_bytes()));
        format!("{:08x}", h.finish() >> 32)
    }
}

/// One group of weights [`Weights::carried_into`] copies: `to`'s weights `to` get the file's
/// `from`; `own` when they are the same weights (not those of the opening copied into a phased
/// layout's ending).
struct Carried {
    to: std::ops::Range<usize>,
    from: std::ops::Range<usize>,
    own: bool,
}

/// What a file of layout `from` carries into the layout `to` (of the same rules), group by group.
fn carry_plan(from: &Layout, to: &Layout) -> Vec<Carried> {
    // The tables of a shape's windows, in one phase.
    let tables = |l: &Layout, g: usize, phase: usize| {
        let at = if l.phased { phase * l.base } else { 0 };
        let r = &l.groups[g];
        let end = l.tables.get(r.end).copied().unwrap_or(l.wide_table);
        at + l.tables.get(r.start).copied().unwrap_or(end)..at + end
    };
    let mut plan = Vec::new();
    for phase in 0..if to.phased { 2 } else { 1 } {
        let (fat, tat) = (
            if from.phased { phase * from.base } else { 0 },
            if to.phased { phase * to.base } else { 0 },
        );
        let own = phase == 0 || from.phased;
        // The groups before the windows depend on the kinds and squares alone (the race
        // features' too, when both layouts have them).
        let small = if from.race == to.race {
            to.patterns
        } else {
            to.tempo + 1
        };
        plan.push(Carried {
            to: tat..tat + small,
            from: fat..fat + small,
            own,
        });
        for (g, shape) in to.shapes.iter().enumerate() {
            let Some(f) = from.shapes.iter().position(|s| s == shape) else {
                continue;
            };
            if from.windows[from.groups[f].clone()] == to.windows[to.groups[g].clone()] {
                plan.push(Carried {
                    to: tables(to, g, phase),
                    from: tables(from, f, phase),
                    own,
                });
            }
        }
        if !from.wide.is_empty() && !to.wide.is_empty() {
            plan.push(Carried {
                to: tat + to.wide_table..tat + to.base,
                from: fat + from.wide_table..fat + from.base,
                own,
            });
        }
    }
    if from.tapered > 0 && to.tapered > 0 {
        plan.push(Carried {
            to: to.taper..to.len,
            from: from.taper..from.len,
            own: true,
        });
    }
    plan
}

/// Which of the layout `to`'s weights a file of layout `from` (the same rules) holds itself when
/// carried into it ([`Weights::carried_into`]): `true` for each weight copied from the same
/// weight of the file; `false` for the rest — groups the file lacks, which start at the derived
/// evaluation's, and the endings started at the file's openings. What `train --fit new` holds.
pub fn carried_mask(from: &Layout, to: &Layout) -> Vec<bool> {
    let mut mask = vec![false; to.len];
    for c in carry_plan(from, to) {
        if c.own {
            mask[c.to].fill(true);
        }
    }
    mask
}

/// The ending's weights of a tapered layout's small features ([`Layout::tapered`]) start where
/// the opening's are.
fn start_ending(layout: &Layout, values: &mut [i32]) {
    if layout.tapered > 0 {
        let (open, end) = values.split_at_mut(layout.taper);
        end.copy_from_slice(&open[layout.mobility..layout.patterns]);
    }
}

/// Phased weights moved into a layout without phases: the ending's weights would be dropped.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("weights of layout `{from}` have an opening and an ending set; the layout `{to}` has one")]
pub struct PhasesDropped {
    pub from: String,
    pub to: String,
}

/// A weights' `search` line (or the words given for it) that is not search settings.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum SearchLineError {
    #[error("`{}` is not NAME=VALUE", short(.0))]
    NotAPair(String),
    #[error("`{0}` is not a setting of the weights: it is the user's to choose")]
    UsersOwn(String),
    #[error(transparent)]
    Option(#[from] super::options::OptionError),
}

/// `NAME=VALUE` words, each a search option and a value it accepts.
pub fn parse_search(text: &str) -> Result<Vec<(String, String)>, SearchLineError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for word in text.split_whitespace() {
        let Some((name, value)) = word.split_once('=') else {
            return Err(SearchLineError::NotAPair(word.to_string()));
        };
        if matches!(name, "preset" | "threads") {
            return Err(SearchLineError::UsersOwn(name.to_string()));
        }
        Options::default().set(name, value)?;
        out.retain(|(n, _)| n != name);
        out.push((name.to_string(), value.to_string()));
    }
    Ok(out)
}

/// The search options an engine playing with `weights` starts from: the defaults, then the
/// weights' tuned settings (their `search` line). Options the user names are set after these.
pub fn options(weights: Option<&Weights>) -> Options {
    let mut o = Options::default();
    for (n, v) in weights.map(|w| w.search.as_slice()).unwrap_or_default() {
        // Checked when the weights were read.
        let _ = o.set(n, v);
    }
    o
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// At most 40 characters of user text, for a message.
fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}
