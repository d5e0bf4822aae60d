//! Studies from the page: a self-play run with a live progress bar, then its statistics and chart.
//! One study at a time per server (it takes a core), under a game and depth budget, cancellable.

use super::api::with_client;
use super::client::lock;
use super::engine::{channel_stream, register, Pending};
use super::guard::{ApiError, ApiResult};
use super::App;
use crate::selfplay::{self, Report, Settings};
use crate::Rules;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most games and the deepest search of a study started from the page.
pub const MAX_GAMES: u64 = 1000;
pub const MAX_STUDY_DEPTH: u32 = 6;
/// Games played between two progress events (and two looks at the stop flag).
const CHUNK: u64 = 2;

pub struct StudyJob {
    rules: Arc<Rules>,
    settings: Settings,
    cancel: Arc<AtomicBool>,
    weights: Option<Arc<crate::search::weights::Weights>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyBody {
    pub games: u64,
    pub depth: Option<u32>,
    #[serde(default)]
    pub random: bool,
    pub seed: Option<u64>,
}

/// `POST /api/study`: register a self-play run of the client's variant; refused while another
/// study runs on this server.
pub async fn start(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<StudyBody>,
) -> ApiResult<Json<Value>> {
    if body.games == 0 || body.games > MAX_GAMES {
        return Err(ApiError::refused(
            format!("`{}` games is not a study size", body.games),
            format!("give 1 to {MAX_GAMES} games"),
        ));
    }
    let depth = body.depth.unwrap_or(2);
    if depth == 0 || depth > MAX_STUDY_DEPTH {
        return Err(ApiError::refused(
            format!("`{depth}` is not a study depth"),
            format!("give a depth from 1 to {MAX_STUDY_DEPTH}"),
        ));
    }
    let (variant, _) = with_client(&app, &headers, |c| Ok(c.variant.clone()))?;
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let mut running = lock(&app.study);
        if running.as_ref().is_some_and(|r| !r.load(Ordering::SeqCst)) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "a study is already running on this server",
                "wait for it to end, or stop it",
            ));
        }
        *running = Some(cancel.clone());
    }
    let weights = if body.random {
        None
    } else {
        super::engine::bundled_weights(&variant.rules)
    };
    let settings = Settings {
        variant: variant.name().to_string(),
        rules_fingerprint: variant.rules.fingerprint(),
        games: body.games,
        depth: (!body.random).then_some(depth),
        nodes: None,
        random: body.random,
        seed: body.seed.unwrap_or(1),
        max_plies: 400,
        opening_plies: 4,
        eval: weights
            .as_deref()
            .map(|w| crate::search::weights::describe(Some(w))),
        tables: None,
        contempt: 0,
        openings: None,
    };
    let t = register(
        &app,
        Pending::Study(StudyJob {
            rules: variant.rules.clone(),
            settings,
            cancel,
            weights,
        }),
    );
    Ok(Json(json!({ "stream": format!("/api/stream/{t}") })))
}

/// `POST /api/study/stop`: stop the running study.
pub async fn stop(State(app): State<Arc<App>>) -> Json<Value> {
    if let Some(c) = lock(&app.study).take() {
        c.store(true, Ordering::SeqCst);
    }
    Json(json!({ "stopped": true }))
}

fn event(name: &str, v: &Value) -> Event {
    Event::default().event(name).data(v.to_string())
}

/// The study's stream: `progress` after every few games, then `done` with the figures and the
/// chart (or `stopped`).
pub fn run_stream(app: Arc<App>, job: StudyJob) -> axum::response::Response {
    let flag = job.cancel.clone();
    channel_stream(job.cancel.clone(), move |tx| {
        let total = job.settings.games;
        let mut games = Vec::new();
        let mut error = None;
        let mut i = 0;
        while i < total && !flag.load(Ordering::SeqCst) {
            let chunk: Vec<u64> = (i..(i + CHUNK).min(total)).collect();
            let aids = selfplay::Aids {
                probe: None,
                weights: job.weights.clone(),
            };
            match selfplay::run_games(&job.rules, &job.settings, &chunk, 1, false, aids, &|| {}) {
                Ok(Some(p)) => games.extend(p.games),
                Ok(None) => break,
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
            i += chunk.len() as u64;
            let _ = tx.send(event("progress", &json!({ "done": i, "total": total })));
        }
        let stopped = flag.load(Ordering::SeqCst) && (games.len() as u64) < total;
        // The study is over: the next one may start.
        {
            let mut running = lock(&app.study);
            if running.as_ref().is_some_and(|r| Arc::ptr_eq(r, &flag)) {
                *running = None;
            }
        }
        if let Some(e) = error {
            let _ = tx.send(event("failed", &json!({ "error": e.to_string() })));
            return;
        }
        if games.is_empty() {
            let _ = tx.send(event("done", &json!({ "stopped": true, "games": 0 })));
            return;
        }
        let report = Report::from_games(&job.rules, &games);
        let title = format!(
            "{}: {} games{}",
            job.rules.spec.title,
            games.len(),
            if stopped { " (stopped)" } else { "" }
        );
        // Stacked, with larger text: the page shows it in its narrow side column.
        let svg = selfplay::chart::svg_laid_out(
            &title,
            &report,
            &games,
            selfplay::chart::Layout::Stacked,
        )
        .unwrap_or_default();
        let _ = tx.send(event(
            "done",
            &json!({
                "stopped": stopped,
                "games": games.len(),
                "text": report.text(),
                "svg": svg,
            }),
        ));
    })
}
