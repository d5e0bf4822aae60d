//! Game review: every position of the main line searched in turn (a study: one at a time per
//! server, a size limit, cancellable with the study's stop), its evaluation streamed for the
//! graph, and each move that lost ground marked by the loss it cost — written into the game as
//! `[%eval …]` commands, NAGs (`$6` ?!, `$2` ?, `$4` ??) and the better move.
//!
//! A move's loss is measured in winning chances, `w(x) = 2 / (1 + e^(-x/2)) - 1` for an
//! evaluation `x` in men from the mover's side (±1 is a won or lost game): the chances before
//! the move (the best play's evaluation) less those after it. An inaccuracy loses at least
//! [`INACCURACY`], a mistake [`MISTAKE`], a blunder [`BLUNDER`].

use super::client::lock;
use super::engine::{bundled_weights, channel_stream, register, Pending};
use super::guard::{self, ApiError, ApiResult};
use super::App;
use crate::engine::{Move, Position};
use crate::search::{format_score, Limits, Score, Searcher, MAX_WIN_DISTANCE, WIN};
use crate::workbench::notes;
use crate::Rules;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The longest game reviewed (plies of the main line), and the time per position allowed.
pub const MAX_REVIEW_PLIES: usize = 600;
pub const MAX_REVIEW_SECONDS: f64 = 5.0;
/// Losses in winning chances (out of 2, from a lost game to a won one) that mark a move.
pub const INACCURACY: f64 = 0.1;
pub const MISTAKE: f64 = 0.2;
pub const BLUNDER: f64 = 0.3;
/// Evaluations are drawn and compared within ±this many men (a won game is this much).
pub const EVAL_CAP: f64 = 10.0;
/// The transposition table of a review's search, in MiB.
const REVIEW_TT_MIB: usize = 16;

pub struct ReviewJob {
    client: String,
    rules: Arc<Rules>,
    start: Position,
    /// The main line: each node and the move that led to it (the root has none).
    line: Vec<(usize, Option<Move>)>,
    seconds: f64,
    cancel: Arc<AtomicBool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewBody {
    /// Seconds of search per position (default 0.2).
    pub seconds: Option<f64>,
}

/// `POST /api/review`: register a review of the client's main line; refused while a study runs.
pub async fn start(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<ReviewBody>,
) -> ApiResult<Json<Value>> {
    let seconds = body.seconds.unwrap_or(0.2);
    if !(seconds.is_finite() && (0.01..=MAX_REVIEW_SECONDS).contains(&seconds)) {
        return Err(ApiError::refused(
            format!("`{seconds}` seconds a position is not a review's time"),
            format!("give 0.01 to {MAX_REVIEW_SECONDS} seconds"),
        ));
    }
    let id = guard::client_id(&headers)?;
    let (rules, start, line) = {
        let c = app.clients.get(&id);
        let c = lock(&c);
        let line: Vec<(usize, Option<Move>)> = c
            .tree
            .main_line()
            .into_iter()
            .map(|n| (n, c.tree.nodes[n].mv))
            .collect();
        (c.rules().clone(), c.tree.nodes[0].pos, line)
    };
    if line.len() < 2 {
        return Err(ApiError::refused(
            "the game has no move to review",
            "play or import a game first",
        ));
    }
    if line.len() - 1 > MAX_REVIEW_PLIES {
        return Err(ApiError::refused(
            format!(
                "the game has {} plies; a review takes at most {MAX_REVIEW_PLIES}",
                line.len() - 1
            ),
            "review a shorter game",
        ));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let mut running = lock(&app.study);
        if running.as_ref().is_some_and(|r| !r.load(Ordering::SeqCst)) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "a study or review is already running on this server",
                "wait for it to end, or stop it",
            ));
        }
        *running = Some(cancel.clone());
    }
    let plies = line.len() - 1;
    let t = register(
        &app,
        Pending::Review(ReviewJob {
            client: id,
            rules,
            start,
            line,
            seconds,
            cancel,
        }),
    );
    Ok(Json(
        json!({ "stream": format!("/api/stream/{t}"), "plies": plies }),
    ))
}

/// An evaluation in men from the first side's view, within ±[`EVAL_CAP`] (a win is the cap).
fn men(rules: &Rules, turn: usize, score: Score) -> f64 {
    let own = if turn == rules.spec.first_to_move as usize {
        score
    } else {
        -score
    };
    if own.abs() >= WIN - MAX_WIN_DISTANCE {
        return EVAL_CAP * f64::from(own.signum());
    }
    (f64::from(own) / 100.0).clamp(-EVAL_CAP, EVAL_CAP)
}

/// Winning chances of an evaluation in men: -1 lost, 0 even, 1 won.
pub fn chances(x: f64) -> f64 {
    2.0 / (1.0 + (-x / 2.0).exp()) - 1.0
}

/// The NAG a loss in winning chances earns, if any.
pub fn mark(loss: f64) -> Option<u8> {
    if loss >= BLUNDER {
        Some(4)
    } else if loss >= MISTAKE {
        Some(2)
    } else if loss >= INACCURACY {
        Some(6)
    } else {
        None
    }
}

fn event(name: &str, v: &Value) -> Event {
    Event::default().event(name).data(v.to_string())
}

/// One position's search: its evaluation (first side's view, men), its text and best move.
struct Looked {
    eval: f64,
    score: String,
    best: Option<Move>,
}

/// The review's stream: `progress` after each position, then `done` with every evaluation and
/// mark; the marks are written into the client's game (where its main line is still the one
/// reviewed).
pub fn run_stream(app: Arc<App>, job: ReviewJob) -> axum::response::Response {
    let flag = job.cancel.clone();
    channel_stream(job.cancel.clone(), move |tx| {
        let rules = job.rules.clone();
        let mut s = Searcher::new(rules.clone(), REVIEW_TT_MIB);
        s.set_tuned_weights(bundled_weights(&rules));
        s.set_cancel(Some(flag.clone()));
        let limits = Limits {
            depth: Some(super::engine::MAX_ENGINE_DEPTH),
            nodes: None,
            time: Some(Duration::from_secs_f64(job.seconds)),
            target: None,
        };
        let total = job.line.len();
        let mut looked: Vec<Looked> = Vec::new();
        let mut pos = job.start;
        let mut moves: Vec<Move> = Vec::new();
        for (i, &(node, mv)) in job.line.iter().enumerate() {
            if let Some(mv) = mv {
                pos = rules.play(&pos, &mv);
                moves.push(mv);
            }
            if flag.load(Ordering::SeqCst) {
                break;
            }
            let history = s.history_of(&job.start, &moves);
            // The last two depths' scores: a search's score sways with the parity of its depth
            // (the side to move gains a tempo at the leaves), their mean does not.
            let mut last: [Option<Score>; 2] = [None, None];
            let r = s.search(&pos, &history, limits, &mut |i| {
                last = [last[1], Some(i.score)]
            });
            if flag.load(Ordering::SeqCst) && r.depth == 0 {
                break;
            }
            let steady = match last {
                [Some(a), Some(b)] if a.abs().max(b.abs()) < WIN - MAX_WIN_DISTANCE => (a + b) / 2,
                _ => r.score,
            };
            let l = Looked {
                eval: men(&rules, pos.turn(), steady),
                score: format_score(r.score),
                best: r.best,
            };
            let _ = tx.send(event(
                "progress",
                &json!({ "done": i + 1, "total": total, "node": node, "eval": l.eval, "score": l.score }),
            ));
            looked.push(l);
        }
        let stopped = looked.len() < total;
        {
            let mut running = lock(&app.study);
            if running.as_ref().is_some_and(|r| Arc::ptr_eq(r, &flag)) {
                *running = None;
            }
        }
        let marks = write_marks(&app, &job, &looked);
        let evals: Vec<Value> = looked
            .iter()
            .zip(&job.line)
            .map(|(l, (node, _))| json!({ "node": node, "eval": l.eval, "score": l.score }))
            .collect();
        let _ = tx.send(event(
            "done",
            &json!({ "stopped": stopped, "evals": evals, "marks": marks }),
        ));
    })
}

/// Each reviewed move's loss and mark, written into the client's game: `[%eval …]` on every
/// move, the NAG and the better move on a marked one (review NAGs of an earlier review
/// replaced). Nodes whose position is no longer the one reviewed are left alone.
fn write_marks(app: &App, job: &ReviewJob, looked: &[Looked]) -> Vec<Value> {
    let rules = &job.rules;
    let first = rules.spec.first_to_move as usize;
    let c = app.clients.get(&job.client);
    let mut c = lock(&c);
    let mut marks = Vec::new();
    let mut pos = job.start;
    for (i, l) in looked.iter().enumerate().skip(1) {
        let (node, Some(mv)) = job.line[i] else {
            continue;
        };
        let mover = pos.turn();
        let before = &looked[i - 1];
        pos = rules.play(&pos, &mv);
        let sign = if mover == first { 1.0 } else { -1.0 };
        let loss = (chances(sign * before.eval) - chances(sign * l.eval)).max(0.0);
        let nag = mark(loss).filter(|_| before.best.is_some_and(|b| !b.same_move(&mv)));
        let Some(n) = c.tree.nodes.get_mut(node).filter(|n| n.pos == pos) else {
            continue;
        };
        let eval = format!("{:+.2}", l.eval);
        // An earlier review's words and marks go; the player's stay.
        let (text, _) = notes::split_commands(&n.notes.comment);
        let words: Vec<&str> = text.split(' ').collect();
        let mut kept = Vec::new();
        let mut k = 0;
        while k < words.len() {
            if words.get(k + 1..k + 3) == Some(&["was", "best"][..]) {
                k += 3;
            } else {
                kept.push(words[k]);
                k += 1;
            }
        }
        let comment = notes::rewrite(&n.notes.comment, Some(&kept.join(" ")), None);
        n.notes.comment = notes::set_command(&comment, "eval", &eval);
        n.notes.nags.retain(|g| !matches!(g, 2 | 4 | 6));
        if let Some(g) = nag {
            n.notes.add_nag(g);
            let best = before
                .best
                .map(|b| crate::notation::move_to_string(rules, &b))
                .unwrap_or_default();
            n.notes.add_comment(&format!("{best} was best"));
            marks.push(json!({ "node": node, "nag": g, "loss": (loss * 1000.0).round() / 1000.0, "best": best }));
        }
    }
    marks
}
