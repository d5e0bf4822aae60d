//! Analysis by an external Hub engine named on the command line (`damelab serve --engine
//! 'cmd=… name=…'`), driven as `damelab match` drives it ([`crate::matchplay::external`]): started
//! for each analysis, asked for the position with the page's time, its depth, score, nodes and
//! move streamed as the page's own analysis is. An engine that does not start, crashes, answers
//! garbage or overruns its time (plus its margin) ends that analysis with the reason; the server
//! goes on, and the process is ended when the analysis is.

use super::client::move_json;
use super::engine::{channel_stream, event, nps};
use super::guard::{ApiError, ApiResult};
use super::App;
use crate::matchplay::engine::{EngineSpec, Turn};
use crate::search::format_score;
use crate::Game;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The name the page gives damelab's own search.
pub const OWN: &str = "damelab";

/// An analysis by the external engine, waiting for its stream.
pub struct ExternalJob {
    pub game: Game,
    /// The variant's name, for an engine that declares a `variant` parameter.
    pub variant: String,
    pub seconds: f64,
    pub spec: EngineSpec,
    pub cancel: Arc<AtomicBool>,
}

/// The external engine's name as the page shows it.
pub fn name(spec: &EngineSpec) -> String {
    if spec.name.is_empty() {
        "external".to_string()
    } else {
        spec.name.clone()
    }
}

/// `GET /api/engines`: the engines the page may analyse with, damelab's own first.
pub async fn engines(State(app): State<Arc<App>>) -> Json<Value> {
    let mut list = vec![json!({ "name": OWN, "external": false })];
    if let Some(spec) = &app.engine {
        list.push(json!({ "name": name(spec), "external": true }));
    }
    Json(json!({ "engines": list }))
}

/// The external engine an analysis asks for by name: `None` for damelab's own (no name, or
/// [`OWN`]); a name the server does not know is refused in words.
pub fn chosen(app: &App, asked: Option<&str>) -> ApiResult<Option<EngineSpec>> {
    match (asked.map(str::trim), &app.engine) {
        (None, _) | (Some(""), _) | (Some(OWN), _) => Ok(None),
        (Some(n), Some(spec)) if n == name(spec) => Ok(Some(spec.clone())),
        (Some(n), engine) => Err(ApiError::refused(
            format!(
                "there is no engine `{}` on this server",
                n.chars().take(64).collect::<String>()
            ),
            match engine {
                Some(spec) => format!("choose `{OWN}` or `{}`", name(spec)),
                None => format!(
                    "choose `{OWN}`; start the server with `--engine 'cmd=… name=…'` for another"
                ),
            },
        )),
    }
}

/// Run one analysis by the external engine, its answer as an `info` and a `done` event (or the
/// reason it gave none).
pub fn stream(
    job: ExternalJob,
    slot: tokio::sync::OwnedSemaphorePermit,
) -> axum::response::Response {
    let flag = job.cancel.clone();
    channel_stream(job.cancel.clone(), move |tx| {
        let _slot = slot;
        let label = name(&job.spec);
        let mut spec = job.spec.clone();
        spec.movetime = Some(job.seconds);
        spec.tc = None;
        let rules = job.game.rules.clone();
        let turn = job.game.position().turn();
        let t0 = Instant::now();
        let answer = (|| {
            let legal = job
                .game
                .try_legal_moves()
                .map_err(|e| crate::matchplay::engine::Fault::Refused(e.to_string()))?;
            let mut player = crate::matchplay::external::Hub::start(&rules, &job.variant, &spec)?;
            player.new_game()?;
            player.play(&Turn {
                game: &job.game,
                legal: &legal,
                clock: None,
                abort: &flag,
            })
        })();
        let stopped = flag.load(Ordering::SeqCst);
        let r = match answer {
            Ok(r) => r,
            Err(f) => {
                let error = format!("engine `{label}`: {}", f.reason());
                let done =
                    json!({ "best": null, "error": error, "stopped": stopped, "engine": label });
                let _ = tx.send(event("done", &done));
                return;
            }
        };
        let elapsed = t0.elapsed();
        let first = rules.spec.first_to_move as usize;
        let score = r.score.unwrap_or(0);
        let own = if turn == first { score } else { -score };
        let nodes = r.nodes.unwrap_or(0);
        let info = json!({
            "depth": r.depth.unwrap_or(0),
            "score": format_score(score),
            "eval": own as f64 / 100.0,
            "nodes": nodes,
            "ms": elapsed.as_millis() as u64,
            "nps": nps(nodes, elapsed),
            "pv": [move_json(&rules, &r.mv)],
            "engine": label,
        });
        let _ = tx.send(event("info", &info));
        let done = json!({
            "best": move_json(&rules, &r.mv),
            "score": format_score(score),
            "depth": r.depth.unwrap_or(0),
            "nodes": nodes,
            "stopped": stopped,
            "engine": label,
        });
        let _ = tx.send(event("done", &done));
    })
}
