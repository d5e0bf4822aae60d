//! What a solved table says: counts, shares, the longest win and a line, a verdict.

use super::material::Material;
use super::solve::{Estimate, Tables};
use super::value::Value;
use super::EndgameError;
use crate::engine::{GenOptions, Move, Position};
use crate::notation::{move_to_string, to_fen};
use crate::util::{human_bytes, plies};

/// Counts over the legal positions with one side to move.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SideStats {
    /// The side to move's name.
    pub to_move: String,
    pub positions: u64,
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    /// Drawn positions where the side to move has a capture (the game leaves the table at once).
    pub drawn_capture_now: u64,
}

impl SideStats {
    pub fn share(&self, n: u64) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.positions as f64
        }
    }
}

/// The longest win and how it goes.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Longest {
    pub plies: u16,
    pub fen: String,
    /// The winner's side name.
    pub winner: String,
    pub line: Vec<String>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    pub variant: String,
    pub material: String,
    pub sides: [SideStats; 2],
    pub longest: Option<Longest>,
    pub verdict: String,
}

/// Summarise the table of `m` (solved).
pub fn summarize(tables: &Tables, m: &Material) -> Option<Summary> {
    let rules = tables.rules;
    let t = tables.tables.get(m)?;
    let mut sides: [SideStats; 2] = Default::default();
    let half = t.index.len() / 2;
    let mut longest: Option<(u16, u64)> = None;
    let mut buf: Vec<Move> = Vec::new();
    for (i, &v) in t.values.iter().enumerate() {
        let turn = (i as u64 / half) as usize;
        let s = &mut sides[turn];
        match Value::unpack(v) {
            Value::Illegal => continue,
            Value::Draw => {
                s.drawn += 1;
                if let Some(pos) = t.index.decode(i as u64) {
                    rules.generate(&pos, &mut buf, GenOptions::default());
                    if buf.iter().any(|mv| mv.is_capture()) {
                        s.drawn_capture_now += 1;
                    }
                }
            }
            Value::Win(d) => {
                s.won += 1;
                if longest.is_none_or(|(best, _)| d > best) {
                    longest = Some((d, i as u64));
                }
            }
            Value::Loss(_) => s.lost += 1,
        }
        s.positions += 1;
    }
    for (side, s) in sides.iter_mut().enumerate() {
        s.to_move = rules.spec.sides[side].name.clone();
    }
    let longest = longest.and_then(|(d, i)| {
        let pos = t.index.decode(i)?;
        Some(Longest {
            plies: d,
            fen: to_fen(rules, &pos),
            winner: rules.spec.sides[pos.turn()].name.clone(),
            line: line(tables, &pos),
        })
    });
    let verdict = verdict(tables, m, &sides, longest.as_ref());
    Some(Summary {
        variant: rules.spec.title.clone(),
        material: m.name(rules),
        sides,
        longest,
        verdict,
    })
}

/// The best line from a position: the winner takes the fastest win, the loser the longest defence.
pub fn line(tables: &Tables, start: &Position) -> Vec<String> {
    let rules = tables.rules;
    let mut pos = *start;
    let mut out = Vec::new();
    let mut buf: Vec<Move> = Vec::new();
    while let Some(v) = tables.value(&pos) {
        let want = match v {
            Value::Win(d) if d > 0 => Value::Loss(d - 1),
            Value::Loss(d) if d > 0 => Value::Win(d - 1),
            _ => break,
        };
        rules.generate(&pos, &mut buf, GenOptions::default());
        let Some(mv) = buf
            .iter()
            .find(|mv| tables.value(&pos.play(mv)) == Some(want))
        else {
            break;
        };
        out.push(move_to_string(rules, mv));
        pos = pos.play(mv);
        if out.len() > 400 {
            break;
        }
    }
    out
}

fn verdict(
    tables: &Tables,
    m: &Material,
    sides: &[SideStats; 2],
    longest: Option<&Longest>,
) -> String {
    let rules = tables.rules;
    let name = m.name(rules);
    let who = |s: usize| format!("{} ({})", rules.spec.sides[s].name, m.side_name(rules, s));
    let pct = |s: &SideStats, n: u64| format!("{:.1}%", s.share(n));
    let far = longest.map_or(String::new(), |l| {
        format!("; the longest win takes {}", plies(l.plies))
    });
    // The side that wins more often with the move is the stronger one.
    let strong = if sides[0].share(sides[0].won) >= sides[1].share(sides[1].won) {
        0
    } else {
        1
    };
    let weak = 1 - strong;
    let s = &sides[strong];
    let w = &sides[weak];
    if s.positions == 0 {
        return format!("{name}: no legal position");
    }
    let drawn_note = |st: &SideStats| {
        if st.drawn == 0 {
            String::new()
        } else if st.drawn_capture_now == st.drawn {
            " (every one a position where the side to move captures at once)".to_string()
        } else if st.drawn_capture_now > 0 {
            format!(
                " ({:.1}% of them with a capture on the board)",
                100.0 * st.drawn_capture_now as f64 / st.drawn as f64
            )
        } else {
            String::new()
        }
    };
    if s.won == 0 && w.won == 0 {
        return format!("{name}: a draw: neither side can force a win from any position{far}");
    }
    let general = if s.share(s.won) >= 90.0 {
        "a win"
    } else if s.share(s.won) >= 50.0 {
        "mostly a win"
    } else if s.share(s.drawn) >= 50.0 {
        "mostly a draw"
    } else {
        "mixed"
    };
    format!(
        "{name}: {general} for {}: it wins {} of the positions with it to move, draws {}{}; \
         with {} to move, {} wins {} and draws {}{}{far}",
        who(strong),
        pct(s, s.won),
        pct(s, s.drawn),
        drawn_note(s),
        rules.spec.sides[weak].name,
        rules.spec.sides[weak].name,
        pct(w, w.won),
        pct(w, w.drawn),
        drawn_note(w),
    )
}

/// The plain-text report.
pub fn text(s: &Summary) -> String {
    let mut out = String::new();
    out.push_str(&format!("{} — {}\n", s.variant, s.material));
    for st in &s.sides {
        out.push_str(&format!(
            "  {} to move: {} positions: won {} ({:.1}%), drawn {} ({:.1}%), lost {} ({:.1}%)\n",
            st.to_move,
            st.positions,
            st.won,
            st.share(st.won),
            st.drawn,
            st.share(st.drawn),
            st.lost,
            st.share(st.lost)
        ));
    }
    if let Some(l) = &s.longest {
        out.push_str(&format!(
            "  longest win: {}, {} to move: {}\n  line: {}\n",
            plies(l.plies),
            l.winner,
            l.fen,
            l.line.join(" ")
        ));
    }
    out.push_str(&format!("verdict: {}\n", s.verdict));
    out
}

/// The report's text for a build that ended (the root solved): its summary and the tables line.
pub fn report_text(tables: &Tables, est: &Estimate, root: &Material, secs: f64) -> Option<String> {
    let summary = summarize(tables, root)?;
    let mut out = text(&summary);
    out.push_str(&tables_line(tables, est, secs));
    Some(out)
}

/// `tables: 5 materials, 32864 positions (estimated memory 10 MiB); built …`.
pub fn tables_line(tables: &Tables, est: &Estimate, secs: f64) -> String {
    let built: u64 = tables
        .tables
        .values()
        .filter(|t| !t.loaded)
        .map(|t| t.values.len() as u64)
        .sum();
    let rate = if built > 0 && secs > 0.0 {
        built as f64 / secs
    } else {
        0.0
    };
    let loaded = tables.tables.values().filter(|t| t.loaded).count();
    format!(
        "tables: {} materials, {} positions (estimated memory {}); {}\n",
        est.materials.len(),
        est.positions,
        human_bytes(est.bytes),
        build_words(built, loaded, secs, rate)
    )
}

/// How the tables came to be: built (with the speed), loaded from the cache, or both.
fn build_words(built: u64, loaded: usize, secs: f64, rate: f64) -> String {
    let from_cache = match loaded {
        0 if built == 0 => "nothing to build".to_string(),
        0 => String::new(),
        1 => "1 table loaded from the cache".to_string(),
        n => format!("{n} tables loaded from the cache"),
    };
    if built == 0 {
        return format!("{from_cache} in {secs:.1} s");
    }
    let made = format!(
        "built {built} positions in {secs:.1} s ({:.2} M positions/s)",
        rate / 1e6
    );
    if from_cache.is_empty() {
        made
    } else {
        format!("{made}; {from_cache}")
    }
}

/// The tables of a material built (or loaded) and timed: what a report is made of.
pub struct Built<'r> {
    pub tables: Tables<'r>,
    pub est: Estimate,
    pub root: Material,
    pub secs: f64,
}

/// Build or load the tables of `material` (a text such as `KK v K`) under `opts`, timed.
pub fn build<'r>(
    rules: &'r crate::engine::Rules,
    material: &str,
    opts: &super::Options,
) -> Result<Built<'r>, EndgameError> {
    let root = Material::parse(rules, material)?;
    let mut tables = Tables::new(rules);
    let t = std::time::Instant::now();
    let est = tables.solve_fast(&root, opts)?;
    Ok(Built {
        tables,
        est,
        root,
        secs: t.elapsed().as_secs_f64(),
    })
}

/// The report as text: the summary, then the line about the tables built and loaded.
pub fn text_of(b: &Built) -> Result<String, EndgameError> {
    report_text(&b.tables, &b.est, &b.root, b.secs).ok_or(EndgameError::Internal)
}

/// The report as JSON (`damelab endgame --json`, the Python package's `endgame`): the summary,
/// each table, the time and the rate.
pub fn json(b: &Built) -> Result<String, EndgameError> {
    let rules = b.tables.rules;
    let summary = summarize(&b.tables, &b.root).ok_or(EndgameError::Internal)?;
    let built: u64 = b
        .tables
        .tables
        .values()
        .filter(|t| !t.loaded)
        .map(|t| t.values.len() as u64)
        .sum();
    let rate = if built > 0 && b.secs > 0.0 {
        built as f64 / b.secs
    } else {
        0.0
    };
    let mut value = serde_json::to_value(&summary).map_err(|_| EndgameError::Internal)?;
    if let Some(obj) = value.as_object_mut() {
        obj.insert(
            "tables".into(),
            serde_json::Value::Array(
                b.est
                    .materials
                    .iter()
                    .filter_map(|m| b.tables.tables.get(m))
                    .map(|t| {
                        serde_json::json!({
                            "material": t.material.name(rules),
                            "positions": t.values.len(),
                            "loaded": t.loaded,
                            "seconds": t.seconds,
                        })
                    })
                    .collect(),
            ),
        );
        obj.insert("seconds".into(), serde_json::json!(b.secs));
        obj.insert("positions_built".into(), serde_json::json!(built));
        obj.insert("positions_per_second".into(), serde_json::json!(rate));
        obj.insert(
            "estimated_memory_bytes".into(),
            serde_json::json!(b.est.bytes),
        );
    }
    let text = serde_json::to_string_pretty(&value).map_err(|_| EndgameError::Internal)?;
    Ok(format!("{text}\n"))
}
