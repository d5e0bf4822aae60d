//! The page's self-test (`/?selftest=1` loads `selftest.js`, which plays a scripted sequence
//! through the page's handlers and posts its result here): how a browser without a WebDriver
//! for it is tested. The server keeps the last few results for `GET /api/selftest`.

use super::client::lock;
use super::App;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;

/// The results kept (the oldest is dropped).
const KEPT: usize = 8;

/// `POST /api/selftest`: record a result (any JSON object; the body limit bounds it).
pub async fn record(State(app): State<Arc<App>>, Json(body): Json<Value>) -> Json<Value> {
    let mut r = lock(&app.selftests);
    if r.len() >= KEPT {
        r.remove(0);
    }
    r.push(body);
    Json(json!({ "recorded": true }))
}

/// `GET /api/selftest`: the results recorded, oldest first.
pub async fn results(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({ "results": *lock(&app.selftests) }))
}
