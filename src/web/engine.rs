//! The engine from the page: analysis streamed as server-sent events (one event per finished
//! depth), the engine's move, stop, and endgame probes. Every search runs under a time and depth
//! budget on its own thread and stops when the page asks, starts another, or goes away.

use super::api::with_client;
use super::client::{lock, move_json};
use super::guard::{self, ApiError, ApiResult};
use super::work::{with_client_off, Weight};
use super::App;
use crate::search::{format_score, Info, Limits, Searcher};
use crate::{Game, Rules};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The longest one analysis or engine move may think, and the deepest it may go.
pub const MAX_ENGINE_SECONDS: f64 = 60.0;
pub const MAX_ENGINE_DEPTH: u32 = 40;
/// The most engine searches (moves and analyses, of all clients) the server runs at once; one
/// more is answered 503 at once, not queued.
pub const MAX_SEARCHES: usize = 4;

/// A place among the server's searches ([`MAX_SEARCHES`]), held while the search runs.
fn search_slot(app: &App) -> ApiResult<tokio::sync::OwnedSemaphorePermit> {
    app.searches.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the server is running {MAX_SEARCHES} engine searches, its limit"),
            "wait for one to finish (or stop one), then ask again",
        )
    })
}
/// Transposition table of a search from the page.
pub const TT_MIB: usize = 16;

/// Work registered by a POST and started when its stream is opened (the unguessable token in the
/// stream's URL is what lets only the page that asked open it).
pub enum Pending {
    Analysis {
        game: Game,
        limits: Limits,
        lines: usize,
        cancel: Arc<AtomicBool>,
    },
    Study(super::study::StudyJob),
    Review(super::review::ReviewJob),
    External(super::external::ExternalJob),
    Endgame(super::endgame::EndgameJob),
}

/// Sets the stop flag when dropped: when the stream or request that owns it ends, for whatever
/// reason (the page closed, the connection broke), the work behind it stops.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThinkBody {
    pub seconds: Option<f64>,
    pub depth: Option<u32>,
    /// Lines of an analysis (multi-PV), 1 to [`MAX_LINES`]; an engine move ignores it.
    pub lines: Option<usize>,
    /// The engine of an analysis: `damelab` (the default) or the name of the external engine
    /// given to `damelab serve --engine`; an engine move ignores it.
    pub engine: Option<String>,
}

/// The most lines an analysis shows at once.
pub const MAX_LINES: usize = 5;

fn limits(body: &ThinkBody, default_seconds: f64) -> ApiResult<Limits> {
    let secs = body.seconds.unwrap_or(default_seconds);
    if !(secs.is_finite() && secs > 0.0 && secs <= MAX_ENGINE_SECONDS) {
        return Err(ApiError::refused(
            format!("`{secs}` seconds is not a time the engine may think"),
            format!("give more than 0 and at most {MAX_ENGINE_SECONDS} seconds"),
        ));
    }
    let depth = body.depth.unwrap_or(MAX_ENGINE_DEPTH);
    if depth == 0 || depth > MAX_ENGINE_DEPTH {
        return Err(ApiError::refused(
            format!("`{depth}` is not a search depth"),
            format!("give a depth from 1 to {MAX_ENGINE_DEPTH}"),
        ));
    }
    Ok(Limits {
        depth: Some(depth),
        nodes: None,
        time: Some(Duration::from_secs_f64(secs)),
        target: None,
    })
}

/// A random token for a stream's URL.
pub fn token() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    (0..4)
        .map(|_| format!("{:016x}", rng.random::<u64>()))
        .collect()
}

/// Register work for a stream; at most a few wait unopened (the oldest is dropped).
pub fn register(app: &App, job: Pending) -> String {
    let t = token();
    let mut map = lock(&app.streams);
    if map.len() >= 32 {
        if let Some(k) = map.keys().next().cloned() {
            map.remove(&k);
        }
    }
    map.insert(t.clone(), job);
    t
}

fn game_over(game: &Game) -> ApiResult<()> {
    if game.result().is_some() {
        return Err(ApiError::refused(
            format!("the game is over: {}", game.describe_result()),
            "undo a move or start a new game",
        ));
    }
    Ok(())
}

/// `POST /api/analyse`: register an analysis of the current position; the page opens
/// `/api/stream/TOKEN` to run it and read its lines.
pub async fn analyse(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<ThinkBody>,
) -> ApiResult<Json<Value>> {
    let limits = limits(&body, 10.0)?;
    let lines = body.lines.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(ApiError::refused(
            format!("`{lines}` is not a number of lines"),
            format!("give 1 to {MAX_LINES} lines"),
        ));
    }
    let external = super::external::chosen(&app, body.engine.as_deref())?;
    let (pending, _) = with_client(&app, &headers, |c| {
        let game = c.tree.game();
        game_over(&game)?;
        c.cancel_job();
        let cancel = Arc::new(AtomicBool::new(false));
        c.job = Some(cancel.clone());
        Ok(match external {
            Some(spec) => Pending::External(super::external::ExternalJob {
                game,
                variant: c.variant.name().to_string(),
                seconds: body.seconds.unwrap_or(10.0),
                spec,
                cancel,
            }),
            None => Pending::Analysis {
                game,
                limits,
                lines,
                cancel,
            },
        })
    })?;
    let t = register(&app, pending);
    Ok(Json(json!({ "stream": format!("/api/stream/{t}") })))
}

/// `POST /api/stop`: stop this client's search.
pub async fn stop(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    with_client(&app, &headers, |c| {
        c.cancel_job();
        Ok(())
    })?;
    Ok(Json(json!({ "stopped": true })))
}

/// One depth's line as the page draws it: score (for the bar, from the first side's view, in
/// units of a man), the line's moves.
pub fn info_json(rules: &Rules, turn: usize, i: &Info) -> Value {
    let first = rules.spec.first_to_move as usize;
    let own = if turn == first { i.score } else { -i.score };
    json!({
        "depth": i.depth,
        "score": format_score(i.score),
        "eval": own as f64 / 100.0,
        "nodes": i.nodes,
        "ms": i.elapsed.as_millis() as u64,
        "nps": nps(i.nodes, i.elapsed),
        "pv": i.pv.iter().map(|m| move_json(rules, m)).collect::<Vec<_>>(),
    })
}

/// Nodes a second.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

pub fn event(name: &str, v: &Value) -> Event {
    Event::default().event(name).data(v.to_string())
}

type EventStream = axum::response::Response;

/// An SSE stream of the events a worker thread sends; dropping the stream (the page went away)
/// sets `cancel`, which the worker polls.
pub fn channel_stream(
    cancel: Arc<AtomicBool>,
    work: impl FnOnce(tokio::sync::mpsc::UnboundedSender<Event>) + Send + 'static,
) -> EventStream {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    std::thread::spawn(move || work(tx));
    let guard = CancelOnDrop(cancel);
    let s = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        rx.recv()
            .await
            .map(|ev| (Ok::<_, std::convert::Infallible>(ev), (rx, guard)))
    });
    // A comment line every second: writing to a connection the page closed is how the server
    // learns it went away (and drops the stream, which stops the work) within a second.
    Sse::new(s)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
        .into_response()
}

/// `GET /api/stream/TOKEN`: run the registered work, streaming its events.
pub async fn stream(
    State(app): State<Arc<App>>,
    Path(token): Path<String>,
) -> Result<EventStream, ApiError> {
    let job = lock(&app.streams).remove(&token);
    match job {
        Some(Pending::Analysis {
            game,
            limits,
            lines: 1,
            cancel,
        }) => Ok(analysis_stream(game, limits, cancel, search_slot(&app)?)),
        Some(Pending::Analysis {
            game,
            limits,
            lines,
            cancel,
        }) => Ok(super::lines::stream(
            game,
            limits,
            lines,
            cancel,
            search_slot(&app)?,
        )),
        Some(Pending::Study(job)) => Ok(super::study::run_stream(app.clone(), job)),
        Some(Pending::Review(job)) => Ok(super::review::run_stream(app.clone(), job)),
        Some(Pending::External(job)) => Ok(super::external::stream(job, search_slot(&app)?)),
        Some(Pending::Endgame(job)) => Ok(super::endgame::run_stream(app.clone(), job)),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no such stream, or it was opened already",
            "start the analysis again",
        )),
    }
}

/// The evaluation of the page's engine: the weights bundled for these rules when there are
/// any (as the command line's default), else the derived one.
pub fn bundled_weights(rules: &Rules) -> Option<Arc<crate::search::weights::Weights>> {
    crate::search::weights::Weights::bundled(rules).map(Arc::new)
}

fn analysis_stream(
    game: Game,
    limits: Limits,
    cancel: Arc<AtomicBool>,
    slot: tokio::sync::OwnedSemaphorePermit,
) -> EventStream {
    let flag = cancel.clone();
    channel_stream(cancel, move |tx| {
        // The place among the server's searches is given back when the search ends.
        let _slot = slot;
        let rules = game.rules.clone();
        let turn = game.position().turn();
        let mut s = Searcher::new(rules.clone(), TT_MIB);
        s.set_tuned_weights(bundled_weights(&rules));
        s.set_cancel(Some(flag.clone()));
        let history = s.history_of(game.start(), game.moves());
        let r = s.search(game.position(), &history, limits, &mut |i| {
            let _ = tx.send(event("info", &info_json(&rules, turn, i)));
        });
        if s.too_many_routes() {
            let why = crate::engine::TooManyRoutes {
                budget: crate::engine::ROUTE_BUDGET,
            };
            let done = json!({ "best": null, "error": why.to_string(), "stopped": true });
            let _ = tx.send(event("done", &done));
            return;
        }
        let done = json!({
            "best": r.best.map(|m| move_json(&rules, &m)),
            "score": format_score(r.score),
            "depth": r.depth,
            "nodes": r.nodes,
            "stopped": flag.load(Ordering::SeqCst),
        });
        let _ = tx.send(event("done", &done));
    })
}

/// `POST /api/engine/move`: the engine plays the side to move (a time per move, stoppable: a
/// stopped search plays the best move found so far).
pub async fn engine_move(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<ThinkBody>,
) -> ApiResult<Json<Value>> {
    let limits = limits(&body, 2.0)?;
    let id = guard::client_id(&headers)?;
    let slot = search_slot(&app)?;
    let (game, node, cancel) = {
        let c = app.clients.get(&id);
        let mut c = lock(&c);
        let game = c.tree.game();
        game_over(&game)?;
        c.cancel_job();
        let cancel = Arc::new(AtomicBool::new(false));
        c.job = Some(cancel.clone());
        (game, c.tree.current, cancel)
    };
    // Dropped with this request's future when the page goes away: the search stops.
    let _guard = CancelOnDrop(cancel.clone());
    let best = tokio::task::spawn_blocking(move || {
        let mut s = Searcher::new(game.rules.clone(), TT_MIB);
        s.set_tuned_weights(bundled_weights(&game.rules));
        s.set_cancel(Some(cancel));
        let history = s.history_of(game.start(), game.moves());
        let best = s
            .search(game.position(), &history, limits, &mut |_| {})
            .best;
        drop(slot);
        (best, s.too_many_routes())
    })
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search stopped unexpectedly",
            "try again",
        )
    })?;
    let best = match best {
        (_, true) => {
            let why = crate::engine::TooManyRoutes {
                budget: crate::engine::ROUTE_BUDGET,
            };
            return Err(ApiError::refused(
                why.to_string(),
                "the rules allow more capture routes in this position than the engine's budget: \
                 play a move yourself or change the position",
            ));
        }
        (best, false) => best,
    };
    // The new state lists the legal moves (a generation up to the route budget): off the async
    // threads.
    let (_, state) = with_client_off(&app, &headers, Weight::Light, move |c| {
        if c.tree.current != node {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the position changed while the engine was thinking",
                "ask for the engine's move again",
            ));
        }
        let Some(mv) = best else {
            return Err(ApiError::refused(
                "the engine has no move to play",
                "undo a move or start a new game",
            ));
        };
        c.tree.play(mv);
        Ok(())
    })
    .await?;
    Ok(Json(state))
}

/// `POST /api/probe`: the endgame table's value of the position, from the server's table cache
/// (small tables are built on demand, up to [`crate::endgame::probe::ON_DEMAND`] positions).
pub async fn probe(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let (job, _) = with_client(&app, &headers, |c| Ok((c.variant.clone(), *c.position())))?;
    let cache = app.cache.clone();
    let text =
        tokio::task::spawn_blocking(move || crate::endgame::probe::probe_in(&job.0, &job.1, cache))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the probe stopped unexpectedly",
                    "try again",
                )
            })?
            .map_err(|e| {
                ApiError::refused(
                    e.to_string(),
                    e.help().map(|h| h.to_string()).unwrap_or_default(),
                )
            })?;
    Ok(Json(json!({ "text": text.trim_end() })))
}
