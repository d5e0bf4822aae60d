//! What keeps the local server from being used by other web pages: the `Host` and `Origin` checks
//! on every request, the size limits, and the JSON error every refused request gets.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The largest request body (1 MiB and a little): a PDN paste of [`MAX_PASTE_BYTES`] in its JSON.
pub const MAX_BODY_BYTES: usize = (1 << 20) + 4096;
/// The largest PDN text a paste or an upload may be (1 MiB, as a file read from disk).
pub const MAX_PASTE_BYTES: usize = 1 << 20;
/// The largest rules text the editor may send (256 KiB; the bundled files are a few KB).
pub const MAX_RULES_BYTES: usize = 256 * 1024;
/// The longest FEN (4 KiB: a full 16x16 board in the longest notation fits with room).
pub const MAX_FEN_BYTES: usize = 4096;
/// The longest move text, or move list, a request may name.
pub const MAX_MOVE_BYTES: usize = 4096;

/// A refused request: a status and the diagnostic the page shows (lowercase message, user text in
/// backticks, a help line), sent as `{"error": …, "help": …}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub help: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>, help: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            help: help.into(),
        }
    }

    pub fn bad(message: impl Into<String>, help: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message, help)
    }

    /// A request that is well formed but asks for something the rules or the state refuse.
    pub fn refused(message: impl Into<String>, help: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message, help)
    }

    /// A miette diagnostic (a FEN, a move, a rules file) as an error: its message and help.
    pub fn from_diagnostic(status: StatusCode, d: &dyn miette::Diagnostic) -> Self {
        let help = d.help().map(|h| h.to_string()).unwrap_or_default();
        Self::new(status, d.to_string(), help)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message, "help": self.help });
        (self.status, axum::Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// A text field no longer than `max` bytes.
pub fn limit(what: &str, text: &str, max: usize) -> ApiResult<()> {
    if text.len() > max {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the {what} is {} bytes, over the limit of {max}",
                text.len()
            ),
            format!("send a shorter {what}"),
        ));
    }
    Ok(())
}

/// The hosts a request may name: the address the server listens on, by number or as `localhost`.
#[derive(Clone, Debug)]
pub struct Allowed {
    hosts: Vec<String>,
}

impl Allowed {
    pub fn new(host: &str, port: u16) -> Allowed {
        let mut hosts = vec![format!("{host}:{port}")];
        if host == "127.0.0.1" || host == "::1" || host == "localhost" {
            hosts.extend([
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ]);
        }
        Allowed { hosts }
    }

    fn host_ok(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }

    /// `Host` must name this server (no DNS rebinding: a page on `evil.example` that resolves to
    /// 127.0.0.1 sends `Host: evil.example`); `Origin`, when a browser sends one, must be this
    /// server's own; a browser's `Sec-Fetch-Site` must not say the request comes from another site.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let forbidden = |m: String, h: &str| ApiError::new(StatusCode::FORBIDDEN, m, h);
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !self.host_ok(host) {
            return Err(forbidden(
                format!("the `Host` header `{host}` does not name this server"),
                &format!("open http://{}/", self.hosts[0]),
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|h| self.host_ok(h));
            if !own {
                return Err(forbidden(
                    format!("requests from `{origin}` are not accepted"),
                    "only the workbench's own page may use this server",
                ));
            }
        }
        if let Some(site) = headers.get("sec-fetch-site") {
            let site = site.to_str().unwrap_or("");
            if site != "same-origin" && site != "none" {
                return Err(forbidden(
                    format!("a `{site}` request is not accepted"),
                    "only the workbench's own page may use this server",
                ));
            }
        }
        Ok(())
    }
}

/// The middleware of every request: the checks of [`Allowed::check`], then the handler; any
/// error response that is not JSON already (a body too large, a bad JSON body, an unknown path)
/// becomes one, so the page always has a message and a help line to show.
pub async fn guard(State(allowed): State<Arc<Allowed>>, req: Request, next: Next) -> Response {
    if let Err(e) = allowed.check(req.headers()) {
        return e.into_response();
    }
    let t = std::time::Instant::now();
    let mut res = next.run(req).await;
    // How long the handler took (for streams: until the stream began), for the browser's
    // timings: the legal-move highlight's server time is this header on `/api/play`.
    let ms = t.elapsed().as_secs_f64() * 1e3;
    if let Ok(v) = HeaderValue::from_str(&format!("app;dur={ms:.2}")) {
        res.headers_mut().insert("server-timing", v);
    }
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !status.is_client_error() && !status.is_server_error() || is_json {
        let mut res = res;
        // The page and the API are never framed by another site.
        res.headers_mut()
            .insert("x-frame-options", HeaderValue::from_static("DENY"));
        res.headers_mut().insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
        return res;
    }
    // The rejection's own text (axum's), at most a few hundred bytes.
    let text = match axum::body::to_bytes(res.into_body(), 4096).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let (message, help) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => (
            format!("the request body is over the limit of {MAX_BODY_BYTES} bytes"),
            "send a shorter text".to_string(),
        ),
        StatusCode::NOT_FOUND => (
            "no such page or API endpoint".to_string(),
            "the API is listed in docs/web.md".to_string(),
        ),
        StatusCode::METHOD_NOT_ALLOWED => (
            "this endpoint does not take that method".to_string(),
            "the API is listed in docs/web.md".to_string(),
        ),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => (
            "the request body must be JSON".to_string(),
            "send `Content-Type: application/json`".to_string(),
        ),
        _ => (
            first_lower(if text.is_empty() {
                status.canonical_reason().unwrap_or("bad request")
            } else {
                &text
            }),
            "the API is listed in docs/web.md".to_string(),
        ),
    };
    let body = serde_json::json!({ "error": message, "help": help });
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap_or_else(|_| status.into_response())
}

fn first_lower(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A client's id (from the page, `X-Damelab-Client`): 8 to 64 letters, digits and dashes.
pub fn client_id(headers: &HeaderMap) -> ApiResult<String> {
    let id = headers
        .get("x-damelab-client")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    valid_client(id)?;
    Ok(id.to_string())
}

pub fn valid_client(id: &str) -> ApiResult<()> {
    let ok =
        (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad(
            "missing or malformed `X-Damelab-Client` header",
            "send 8 to 64 letters, digits or dashes naming this page's session",
        ))
    }
}
