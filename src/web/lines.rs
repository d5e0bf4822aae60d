//! Several lines at once (multi-PV) for the page's analysis: every root move searched to the same
//! depth, depth after depth with one table, and the best few streamed after each depth with the
//! depth, nodes, speed and time. A root move's line is the move and its reply's best line.

use super::client::move_json;
use super::engine::{bundled_weights, channel_stream, event, nps, MAX_ENGINE_DEPTH, TT_MIB};
use crate::engine::Move;
use crate::search::{format_score, Limits, Score, Searcher, MAX_WIN_DISTANCE, WIN};
use crate::Game;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The score of a root move from its reply's score: the other side's view, and a win or loss
/// one ply further away.
fn from_reply(s: Score) -> Score {
    let own = -s;
    if own >= WIN - MAX_WIN_DISTANCE {
        own - 1
    } else if own <= -(WIN - MAX_WIN_DISTANCE) {
        own + 1
    } else {
        own
    }
}

/// The analysis stream of `lines` lines (see the module's text): an `info` event after each
/// depth (the best line's fields as a one-line analysis sends them, and `lines`), then `done`.
pub fn stream(
    game: Game,
    limits: Limits,
    lines: usize,
    cancel: Arc<AtomicBool>,
    slot: tokio::sync::OwnedSemaphorePermit,
) -> axum::response::Response {
    let flag = cancel.clone();
    channel_stream(cancel, move |tx| {
        let _slot = slot;
        let rules = game.rules.clone();
        let first = rules.spec.first_to_move as usize;
        let turn = game.position().turn();
        let view = |s: Score| {
            let own = if turn == first { s } else { -s };
            own as f64 / 100.0
        };
        let legal = match game.try_legal_moves() {
            Ok(l) => l,
            Err(e) => {
                let done = json!({ "best": null, "error": e.to_string(), "stopped": true });
                let _ = tx.send(event("done", &done));
                return;
            }
        };
        let mut s = Searcher::new(rules.clone(), TT_MIB);
        s.set_tuned_weights(bundled_weights(&rules));
        s.set_cancel(Some(flag.clone()));
        let start = Instant::now();
        let budget = limits.time.unwrap_or(Duration::from_secs(10));
        let max_depth = limits.depth.unwrap_or(MAX_ENGINE_DEPTH);
        let mut best: Vec<(Score, Vec<Move>)> = Vec::new();
        let (mut nodes, mut reached) = (0u64, 0u32);
        'deepen: for depth in 1..max_depth {
            let mut scored = Vec::new();
            for mv in &legal {
                let spent = start.elapsed();
                if spent >= budget || flag.load(Ordering::SeqCst) {
                    break 'deepen;
                }
                let mut g = game.clone();
                g.play(*mv);
                let history = s.history_of(g.start(), g.moves());
                let lim = Limits {
                    depth: Some(depth),
                    nodes: None,
                    time: Some(budget - spent),
                    target: None,
                };
                let r = s.search(g.position(), &history, lim, &mut |_| {});
                nodes += r.nodes;
                if r.stopped && r.depth < depth {
                    break 'deepen;
                }
                let mut pv = vec![*mv];
                pv.extend(r.pv);
                scored.push((from_reply(r.score), pv));
            }
            scored.sort_by_key(|(sc, _)| std::cmp::Reverse(*sc));
            scored.truncate(lines);
            best = scored;
            reached = depth + 1;
            let ms = start.elapsed();
            let line = |(sc, pv): &(Score, Vec<Move>)| {
                json!({
                    "score": format_score(*sc),
                    "eval": view(*sc),
                    "pv": pv.iter().map(|m| move_json(&rules, m)).collect::<Vec<_>>(),
                })
            };
            let all: Vec<Value> = best.iter().map(line).collect();
            let Some(top) = all.first() else { break };
            let info = json!({
                "depth": reached,
                "score": top["score"],
                "eval": top["eval"],
                "pv": top["pv"],
                "nodes": nodes,
                "ms": ms.as_millis() as u64,
                "nps": nps(nodes, ms),
                "lines": all,
            });
            let _ = tx.send(event("info", &info));
            if legal.len() == 1 {
                break;
            }
        }
        let done = json!({
            "best": best.first().and_then(|(_, pv)| pv.first()).map(|m| move_json(&rules, m)),
            "score": best.first().map(|(sc, _)| format_score(*sc)),
            "depth": reached,
            "nodes": nodes,
            "stopped": flag.load(Ordering::SeqCst),
        });
        let _ = tx.send(event("done", &done));
    })
}
