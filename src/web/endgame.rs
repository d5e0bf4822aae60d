//! An endgame table build from the page: the same build as `damelab endgame VARIANT MATERIAL`,
//! for the client's rules and a material the page names, with a live progress bar. It is a study:
//! one at a time per server (with self-play), under a size, memory and time budget, cancellable,
//! and cancelled when its stream goes away. The tables go to the server's table cache, where a
//! `probe` finds them.

use super::api::with_client;
use super::client::lock;
use super::engine::{channel_stream, register, Pending};
use super::guard::{ApiError, ApiResult};
use super::App;
use crate::endgame::material::Material;
use crate::endgame::solve::{Options, Tables, Watch};
use crate::endgame::EndgameError;
use crate::util::{human_bytes, human_seconds};
use crate::Rules;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most positions (the material and all it reaches) a build from the page may have.
pub const MAX_POSITIONS: u64 = 30_000_000;
/// The most memory its estimate may need.
pub const MAX_BYTES: u64 = 1 << 30;
/// The longest it may run; then it stops as if the page had asked.
pub const MAX_BUILD_SECONDS: u64 = 600;
/// The longest material text.
const MAX_MATERIAL_BYTES: usize = 256;
/// Progress events are sent this often.
const TICK: Duration = Duration::from_millis(200);

pub struct EndgameJob {
    rules: Arc<Rules>,
    root: Material,
    cache: PathBuf,
    watch: Arc<Watch>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndgameBody {
    pub material: String,
}

fn refused(e: EndgameError) -> ApiError {
    let help = miette::Diagnostic::help(&e)
        .map(|h| h.to_string())
        .unwrap_or_default();
    ApiError::refused(e.to_string(), help)
}

/// `POST /api/endgame`: register a build of the material's tables under the client's rules;
/// refused when it is over the budget, when there is no cache to write to, and while another
/// study runs on this server.
pub async fn start(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<EndgameBody>,
) -> ApiResult<Json<Value>> {
    if body.material.len() > MAX_MATERIAL_BYTES {
        return Err(ApiError::refused(
            format!(
                "the material is {} bytes; at most {MAX_MATERIAL_BYTES} are read",
                body.material.len()
            ),
            "name the pieces of each side, e.g. `KK v K`",
        ));
    }
    let Some(cache) = app.cache.clone() else {
        return Err(ApiError::refused(
            "there is no table cache to write the tables to",
            "set DAMELAB_CACHE (or HOME) to a folder before starting `damelab serve`",
        ));
    };
    let (variant, _) = with_client(&app, &headers, |c| Ok(c.variant.clone()))?;
    let rules = variant.rules.clone();
    let root = Material::parse(&rules, &body.material).map_err(refused)?;
    let est = Tables::new(&rules).estimate(&root).map_err(refused)?;
    if est.positions > MAX_POSITIONS || est.bytes > MAX_BYTES {
        return Err(ApiError::refused(
            format!(
                "{} needs {} tables of {} positions ({}): more than a build from the page may take",
                root.name(&rules),
                est.materials.len(),
                est.positions,
                human_bytes(est.bytes)
            ),
            format!(
                "the page builds up to {MAX_POSITIONS} positions and {}; build it with \
                 `damelab endgame {} \"{}\"`",
                human_bytes(MAX_BYTES),
                variant.name(),
                root.name(&rules)
            ),
        ));
    }
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
    let t = register(
        &app,
        Pending::Endgame(EndgameJob {
            rules,
            root,
            cache,
            watch: Arc::new(Watch::new(cancel)),
        }),
    );
    Ok(Json(json!({
        "stream": format!("/api/stream/{t}"),
        "material": root.name(&variant.rules),
        "tables": est.materials.len(),
        "positions": est.positions,
    })))
}

fn event(name: &str, v: &Value) -> Event {
    Event::default().event(name).data(v.to_string())
}

/// The build's stream: `progress` (done, total positions; the table being built, of how many)
/// every fifth of a second, then `done` with the report (or `stopped`), or `failed`.
pub fn run_stream(app: Arc<App>, job: EndgameJob) -> axum::response::Response {
    let cancel = job.watch.cancel.clone();
    channel_stream(cancel.clone(), move |tx| {
        let rules = &*job.rules;
        let started = Instant::now();
        let opts = Options {
            cache: Some(job.cache.clone()),
            max_memory: MAX_BYTES,
            progress: false,
            watch: Some(job.watch.clone()),
        };
        let mut names = Vec::new();
        let mut total = 0;
        let result = std::thread::scope(|s| {
            let build = s.spawn(|| {
                let mut tables = Tables::new(rules);
                let t = Instant::now();
                let est = tables.solve_fast(&job.root, &opts)?;
                let secs = t.elapsed().as_secs_f64();
                crate::endgame::report::report_text(&tables, &est, &job.root, secs)
                    .map(|text| (text, tables.notes))
                    .ok_or(EndgameError::Internal)
            });
            if let Ok(est) = Tables::new(rules).estimate(&job.root) {
                names = est.materials.iter().map(|m| m.name(rules)).collect();
                total = est.positions;
            }
            while !build.is_finished() {
                std::thread::sleep(TICK);
                if started.elapsed() > Duration::from_secs(MAX_BUILD_SECONDS) {
                    cancel.store(true, Ordering::SeqCst);
                }
                let k = job.watch.table.load(Ordering::Relaxed);
                let p = json!({
                    "done": job.watch.done.load(Ordering::Relaxed).min(total),
                    "total": total,
                    "table": k + 1,
                    "tables": names.len(),
                    "material": names.get(k),
                });
                let _ = tx.send(event("progress", &p));
            }
            build.join().unwrap_or(Err(EndgameError::Internal))
        });
        // The study is over: the next one may start.
        {
            let mut running = lock(&app.study);
            if running.as_ref().is_some_and(|r| Arc::ptr_eq(r, &cancel)) {
                *running = None;
            }
        }
        let secs = started.elapsed().as_secs_f64();
        let ev = match result {
            Ok((text, notes)) => event(
                "done",
                &json!({ "stopped": false, "text": text, "notes": notes, "seconds": secs }),
            ),
            Err(EndgameError::Interrupted) => {
                let why = if secs > MAX_BUILD_SECONDS as f64 {
                    format!("stopped after {}", human_seconds(secs))
                } else {
                    "stopped".to_string()
                };
                event(
                    "done",
                    &json!({
                        "stopped": true,
                        "text": format!("{why}: the tables finished so far are kept in the cache"),
                        "seconds": secs,
                    }),
                )
            }
            Err(e) => event("failed", &json!({ "error": e.to_string() })),
        };
        let _ = tx.send(ev);
    })
}
