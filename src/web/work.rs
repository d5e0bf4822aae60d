//! Work off the async threads. The server answers every client on a few async worker threads
//! (one a core); anything that may take a while — reading and replaying a PDN text, checking and
//! compiling rules, loading a variant, playing a list of moves, generating the legal moves of a
//! position (up to the route budget) — runs on tokio's blocking pool instead, so that one client's
//! 1 MiB import never stalls another client's click. The parsing kind is bounded besides: at most
//! [`MAX_PARSES`] at once for the whole server, the others waiting their turn up to [`PARSE_WAIT`]
//! and then answered 503.

use super::api::with_client;
use super::client::Client;
use super::guard::{ApiError, ApiResult};
use super::App;
use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// The most request parses (PDN imports, rules checks and applies, variant loads, move lists) the
/// server runs at once, all clients together.
pub const MAX_PARSES: usize = 4;

/// How long a parse waits for a place among [`MAX_PARSES`] before it is answered 503.
pub const PARSE_WAIT: Duration = Duration::from_secs(20);

/// How heavy a piece of work may be: a parse takes a place among [`MAX_PARSES`]; a light step
/// (a click, the state) only leaves the async threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    Light,
    Parse,
}

/// Run `f` on the blocking pool (a parse with its place among [`MAX_PARSES`]) and hand back its
/// answer; the async thread waits without blocking.
pub async fn blocking<T: Send + 'static>(
    app: &App,
    weight: Weight,
    f: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let permit = match weight {
        Weight::Light => None,
        Weight::Parse => {
            let wait = tokio::time::timeout(PARSE_WAIT, app.parses.clone().acquire_owned()).await;
            match wait {
                Ok(Ok(p)) => Some(p),
                _ => return Err(busy()),
            }
        }
    };
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f()
    })
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request's work stopped unexpectedly",
            "try again; if it happens again, report what was sent",
        )
    })?
}

fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the server is reading {MAX_PARSES} other requests and this one waited {} s",
            PARSE_WAIT.as_secs()
        ),
        "try again in a moment",
    )
}

/// [`with_client`] on the blocking pool: `f` on the requesting client's state, then the state.
pub async fn with_client_off<T: Send + 'static>(
    app: &Arc<App>,
    headers: &HeaderMap,
    weight: Weight,
    f: impl FnOnce(&mut Client) -> ApiResult<T> + Send + 'static,
) -> ApiResult<(T, Value)> {
    let (a, h) = (app.clone(), headers.clone());
    blocking(app, weight, move || with_client(&a, &h, f)).await
}
