//! The web workbench, `damelab serve`: a local HTTP server (axum on tokio) with the page, its
//! script and style compiled in, and a JSON API over the library — the board, the rules editor,
//! the engine and studies in a browser. The page draws what the server says; it knows no rules.

pub mod annotate;
pub mod api;
pub mod client;
pub mod collection;
pub mod endgame;
pub mod engine;
pub mod external;
pub mod files;
pub mod guard;
pub mod lines;
pub mod review;
pub mod rules_api;
pub mod selftest;
pub mod study;
pub mod work;

use crate::Variant;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The page, its script and its style: compiled into the binary (no CDN, no network).
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// Pieces in hand, drops and a declared single combat on the board (called from `app.js`).
const HAND_JS: &str = include_str!("assets/hand.js");
/// The game's review and its evaluation graph (called from `app.js`).
const REVIEW_JS: &str = include_str!("assets/review.js");
/// The page's self-test, loaded only by `/?selftest=1`.
const SELFTEST_JS: &str = include_str!("assets/selftest.js");

/// The server's state: the clients' games, the start folder, work waiting for its stream, the
/// running study (self-play or an endgame build), the table cache.
pub struct App {
    pub clients: client::Clients,
    pub root: files::Root,
    pub streams: Mutex<HashMap<String, engine::Pending>>,
    pub study: Mutex<Option<Arc<AtomicBool>>>,
    /// The endgame table cache (`probe` reads it, a build from the page writes it).
    pub cache: Option<PathBuf>,
    /// The page self-tests' results (see [`selftest`]).
    pub selftests: Mutex<Vec<serde_json::Value>>,
    /// The engine searches running at once, engine moves and analyses of every client together:
    /// at most [`engine::MAX_SEARCHES`], each with its own table, so the server's memory stays
    /// bounded however many requests arrive.
    pub searches: Arc<tokio::sync::Semaphore>,
    /// The request parses running at once (PDN imports, rules, variants, move lists): at most
    /// [`work::MAX_PARSES`], each on the blocking pool, never on the async threads.
    pub parses: Arc<tokio::sync::Semaphore>,
    /// The PDN files searched from the page, indexed (see [`collection`]).
    pub collections: collection::Indexes,
    /// The external Hub engine named on the command line, if any (see [`external`]).
    pub engine: Option<crate::matchplay::engine::EngineSpec>,
}

/// What `damelab serve` was asked for.
pub struct Options {
    pub variant: Variant,
    /// The rules text and, when it came from a file, the file.
    pub text: String,
    pub path: Option<PathBuf>,
    pub host: String,
    pub port: u16,
    /// The folder files are read from and written to (the one the server was started in).
    pub root: PathBuf,
    /// The endgame table cache (`damelab endgame`'s default: [`crate::endgame::store::default_dir`]).
    pub cache: Option<PathBuf>,
    /// An external Hub engine the page may analyse with (`--engine 'cmd=… name=…'`).
    pub engine: Option<crate::matchplay::engine::EngineSpec>,
}

/// The router of the page and the API, with the checks of [`guard::guard`] on every request.
pub fn router(opts: &Options, port: u16) -> std::io::Result<Router> {
    let root = opts.root.canonicalize()?;
    let path = opts
        .path
        .as_ref()
        .map(|p| files::Root(root.clone()).relative(p).unwrap_or(p.clone()));
    let app = Arc::new(App {
        clients: client::Clients::new(client::Start {
            variant: opts.variant.clone(),
            text: opts.text.clone(),
            path,
        }),
        root: files::Root(root),
        streams: Mutex::new(HashMap::new()),
        study: Mutex::new(None),
        cache: opts.cache.clone(),
        selftests: Mutex::new(Vec::new()),
        searches: Arc::new(tokio::sync::Semaphore::new(engine::MAX_SEARCHES)),
        parses: Arc::new(tokio::sync::Semaphore::new(work::MAX_PARSES)),
        collections: collection::Indexes::default(),
        engine: opts.engine.clone(),
    });
    let allowed = Arc::new(guard::Allowed::new(&opts.host, port));
    let asset = |body: &'static str, ty: &'static str| {
        move || async move {
            (
                [
                    (header::CONTENT_TYPE, ty),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                body,
            )
                .into_response()
        }
    };
    let api = Router::new()
        .route("/state", get(api::state))
        .route("/play", post(api::play))
        .route("/undo", post(api::undo))
        .route("/redo", post(api::redo))
        .route("/goto", post(api::goto))
        .route("/new", post(api::new_game))
        .route("/fen", post(api::fen))
        .route("/setup", post(api::setup))
        .route("/explain", post(api::explain))
        .route("/pdn/import", post(api::pdn_import))
        .route("/pdn/export", get(api::pdn_export))
        .route("/annotate", post(annotate::annotate))
        .route("/collection/list", post(collection::list))
        .route("/collection/search", post(collection::search))
        .route("/collection/open", post(collection::open))
        .route("/variants", get(api::variants))
        .route("/variant", post(api::variant))
        .route("/rules", get(rules_api::get))
        .route("/rules/check", post(rules_api::check))
        .route("/rules/apply", post(rules_api::apply))
        .route("/rules/save", post(rules_api::save))
        .route("/analyse", post(engine::analyse))
        .route("/stop", post(engine::stop))
        .route("/engines", get(external::engines))
        .route("/engine/move", post(engine::engine_move))
        .route("/probe", post(engine::probe))
        .route("/study", post(study::start))
        .route("/study/stop", post(study::stop))
        .route("/review", post(review::start))
        .route("/endgame", post(endgame::start))
        .route("/selftest", get(selftest::results).post(selftest::record))
        .route("/stream/{token}", get(engine::stream));
    Ok(Router::new()
        .route("/", get(asset(INDEX_HTML, "text/html; charset=utf-8")))
        .route(
            "/app.js",
            get(asset(APP_JS, "text/javascript; charset=utf-8")),
        )
        .route("/app.css", get(asset(APP_CSS, "text/css; charset=utf-8")))
        .route(
            "/hand.js",
            get(asset(HAND_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/review.js",
            get(asset(REVIEW_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/selftest.js",
            get(asset(SELFTEST_JS, "text/javascript; charset=utf-8")),
        )
        .nest("/api", api)
        .with_state(app)
        .layer(DefaultBodyLimit::max(guard::MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(allowed, guard::guard)))
}

/// Bind, print the URL, serve until Ctrl-C (or until `stop` resolves, for tests). `ready` gets
/// the bound address (port 0 picks a free one).
pub async fn serve(
    opts: Options,
    ready: impl FnOnce(SocketAddr),
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr: SocketAddr = format!("{}:{}", bracket(&opts.host), opts.port)
        .parse()
        .map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("`{}` is not an IP address to listen on", opts.host),
            )
        })?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let app = router(&opts, bound.port())?;
    ready(bound);
    axum::serve(listener, app)
        .with_graceful_shutdown(stop)
        .await
}

fn bracket(host: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}
