//! A collection of PDN files from the page: the folders and `.pdn` files under the folder the
//! server was started in (never outside it: see [`super::files::Root::walk`]), searched by tags
//! (players, event, result, variant, date) and by position (the games that pass through the board
//! on screen), and a game of it opened on the board. Everything is bounded: files listed and read,
//! bytes, games and results, each cut said in the answer. A file's index (its games' tags and, for
//! the page's rules, the placements of its main line) is kept while its size and time stay.

use super::api::with_client;
use super::client::lock;
use super::guard::{self, ApiError, ApiResult};
use super::work::{blocking, Weight};
use super::App;
use crate::engine::Position;
use crate::fsio::ReadError;
use crate::pdn::PdnGame;
use crate::Variant;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The most folders and the most files a listing shows.
pub const MAX_LISTED: usize = 500;
/// The most `.pdn` files one search reads (a folder's first, by name).
pub const MAX_SEARCH_FILES: usize = 200;
/// The most bytes one search reads, all files together (each file besides within the PDN limit).
pub const MAX_SEARCH_BYTES: u64 = 32 << 20;
/// The most games one search looks at, all files together.
pub const MAX_SEARCH_GAMES: usize = 20_000;
/// The most results one search answers with.
pub const MAX_SEARCH_RESULTS: usize = 200;
/// The most file indexes kept between searches (the oldest go first).
const MAX_INDEXES: usize = 256;

const HELP: &str = "name a folder or a .pdn file inside the folder `damelab serve` was started in";

/// One game of a file as the search knows it: its tags, the variant it names, and the hashes of
/// its main line's placements when it replays in the page's rules.
struct Entry {
    title: String,
    white: String,
    black: String,
    event: String,
    date: String,
    result: String,
    variant: String,
    plies: usize,
    placements: Option<Vec<u64>>,
}

/// A file's games, and whether they were cut at [`MAX_SEARCH_GAMES`].
pub struct FileIndex {
    games: Vec<Entry>,
    cut: bool,
}

/// What an index was made from: the file's size and time, and the rules its positions are in.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    rules: u64,
}

/// The indexes of the files searched so far, by path.
#[derive(Default)]
pub struct Indexes(Mutex<HashMap<PathBuf, (Stamp, Arc<FileIndex>)>>);

/// A placement's hash: the pieces and the side to move (not the draw counters).
fn placement(pos: &Position) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    pos.sides.hash(&mut h);
    pos.kinds.hash(&mut h);
    pos.turn.hash(&mut h);
    h.finish()
}

/// The variant a game names: its `GameType`'s, its `Rules` or `Variant` tag's, English for an
/// archive, else the page's (a game naming nothing is read in it, as the import does).
fn named_variant(g: &PdnGame, acf: bool, loaded: &Variant) -> String {
    if let Some(t) = g.tag("GameType") {
        return match crate::pdn::parse_game_type(t) {
            Ok((name, _)) => name.to_string(),
            Err(_) => format!("GameType {}", t.trim()),
        };
    }
    match crate::workbench::open::named_rules(g) {
        Some(n) => n,
        None if acf => "english".to_string(),
        None => loaded.name().to_string(),
    }
}

fn entry(i: usize, g: &PdnGame, acf: bool, loaded: &Variant) -> Entry {
    let tag = |n: &str| g.tag(n).unwrap_or_default().trim().to_string();
    let variant = named_variant(g, acf, loaded);
    let placements = (variant == loaded.name())
        .then(|| crate::pdn::replay(loaded.rules.clone(), g).ok())
        .flatten()
        .map(|r| {
            let rules = &r.game.rules;
            let mut pos = *r.game.start();
            let mut out = vec![placement(&pos)];
            for mv in r.game.moves() {
                pos = rules.play(&pos, mv);
                out.push(placement(&pos));
            }
            out
        });
    let t = g.title();
    Entry {
        title: if t.is_empty() {
            format!("game {}", i + 1)
        } else {
            t
        },
        white: tag("White"),
        black: tag("Black"),
        event: tag("Event"),
        date: tag("Date"),
        result: match tag("Result") {
            r if r.is_empty() || r == "*" => g.result.clone().unwrap_or(r),
            r => r,
        },
        variant,
        plies: g.moves.len(),
        placements,
    }
}

/// Read and index one file, at most `games` of its games.
fn index_file(full: &Path, loaded: &Variant, games: usize) -> Result<FileIndex, ReadError> {
    let bytes = crate::fsio::read_file(full, crate::fsio::Kind::Pdn)?;
    let acf = crate::pdn::looks_like_acf(&bytes);
    let all = if acf {
        crate::pdn::read_acf(&bytes)
    } else {
        crate::pdn::read_games(&bytes)
    };
    let cut = all.len() > games;
    let games = all
        .iter()
        .take(games)
        .enumerate()
        .map(|(i, g)| entry(i, g, acf, loaded))
        .collect();
    Ok(FileIndex { games, cut })
}

impl Indexes {
    /// The index of `full` for `loaded`'s rules: the kept one while the file's size and time
    /// stay, else read again.
    fn get(
        &self,
        full: &Path,
        loaded: &Variant,
        games: usize,
    ) -> Result<Arc<FileIndex>, ReadError> {
        let meta = std::fs::metadata(full)?;
        let stamp = Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            rules: loaded.rules.fingerprint_hash(),
        };
        if let Some((s, ix)) = lock(&self.0).get(full) {
            if *s == stamp && (!ix.cut || ix.games.len() >= games) {
                return Ok(ix.clone());
            }
        }
        let ix = Arc::new(index_file(full, loaded, games)?);
        let mut kept = lock(&self.0);
        if kept.len() >= MAX_INDEXES {
            kept.clear();
        }
        kept.insert(full.to_path_buf(), (stamp, ix.clone()));
        Ok(ix)
    }
}

fn is_pdn(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
}

/// A folder's sub-folders, its `.pdn` files with their sizes, and whether the lists were cut.
type Listing = (Vec<String>, Vec<(String, u64)>, bool);

/// `full`'s folders and `.pdn` files (no symbolic links, no hidden names), sorted, each list cut
/// at [`MAX_LISTED`]; the flag says whether anything was cut.
fn entries(full: &Path) -> std::io::Result<Listing> {
    let (mut folders, mut files, mut cut) = (Vec::new(), Vec::new(), false);
    for e in std::fs::read_dir(full)?.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            folders.push(name);
        } else if ft.is_file() && is_pdn(Path::new(&name)) {
            files.push((name, e.metadata().map(|m| m.len()).unwrap_or(0)));
        }
        if folders.len() + files.len() > 4 * MAX_LISTED {
            cut = true;
            break;
        }
    }
    folders.sort();
    files.sort();
    cut |= folders.len() > MAX_LISTED || files.len() > MAX_LISTED;
    folders.truncate(MAX_LISTED);
    files.truncate(MAX_LISTED);
    Ok((folders, files, cut))
}

fn join(dir: &str, name: &str) -> String {
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn unreadable(rel: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("cannot read `{rel}`: {e}"),
        HELP,
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListBody {
    /// A folder relative to the served one (empty: the served folder itself).
    #[serde(default)]
    pub path: String,
}

/// The folders and PDN files of a folder under the served one.
pub async fn list(
    State(app): State<Arc<App>>,
    Json(body): Json<ListBody>,
) -> ApiResult<Json<Value>> {
    let a = app.clone();
    blocking(&app, Weight::Light, move || {
        let rel = body.path.trim_end_matches('/').to_string();
        let full = a.root.walk(&rel, HELP)?;
        if !full.is_dir() {
            return Err(ApiError::bad(format!("`{rel}` is not a folder"), HELP));
        }
        let (folders, files, cut) = entries(&full).map_err(|e| unreadable(&rel, e))?;
        let parent = (!rel.is_empty()).then(|| match rel.rsplit_once('/') {
            Some((p, _)) => p.to_string(),
            None => String::new(),
        });
        Ok(Json(json!({
            "path": rel,
            "parent": parent,
            "folders": folders.iter().map(|f| join(&rel, f)).collect::<Vec<_>>(),
            "files": files.iter().map(|(f, n)| json!({ "path": join(&rel, f), "bytes": n })).collect::<Vec<_>>(),
            "cut": cut.then(|| format!("only the first {MAX_LISTED} folders and files are listed")),
        })))
    })
    .await
}

/// What a search asks for: where, and the tags and the position the games must have.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SearchBody {
    /// A folder (its `.pdn` files) or one `.pdn` file, relative to the served folder.
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub white: String,
    #[serde(default)]
    pub black: String,
    /// Either player.
    #[serde(default)]
    pub player: String,
    #[serde(default)]
    pub event: String,
    #[serde(default)]
    pub result: String,
    /// The variant's name (`international`), as the game's `GameType`, `Rules` or `Variant` tag
    /// names it.
    #[serde(default)]
    pub variant: String,
    /// A part of the date (`1996`, `2019.05`).
    #[serde(default)]
    pub date: String,
    /// Only the games whose main line passes through the position on the board.
    #[serde(default)]
    pub position: bool,
}

fn has(field: &str, wanted: &str) -> bool {
    wanted.trim().is_empty() || field.to_lowercase().contains(&wanted.trim().to_lowercase())
}

impl SearchBody {
    /// The fields matched against tags (the path is checked by the walk: 400 past 1024 bytes).
    fn fields(&self) -> [&String; 7] {
        [
            &self.date,
            &self.white,
            &self.black,
            &self.player,
            &self.event,
            &self.result,
            &self.variant,
        ]
    }

    fn tags_match(&self, e: &Entry) -> bool {
        has(&e.white, &self.white)
            && has(&e.black, &self.black)
            && (has(&e.white, &self.player) || has(&e.black, &self.player))
            && has(&e.event, &self.event)
            && has(&e.result, &self.result)
            && has(&e.variant, &self.variant)
            && has(&e.date, &self.date)
    }
}

/// The `.pdn` files a search reads: the one named, or a folder's (by name, cut at [`MAX_SEARCH_FILES`]).
fn files_of(app: &App, rel: &str) -> ApiResult<(Vec<(String, PathBuf)>, bool)> {
    let full = app.root.walk(rel, HELP)?;
    if full.is_dir() {
        let (_, files, cut) = entries(&full).map_err(|e| unreadable(rel, e))?;
        let cut = cut || files.len() > MAX_SEARCH_FILES;
        let files = files
            .into_iter()
            .take(MAX_SEARCH_FILES)
            .map(|(f, _)| (join(rel, &f), full.join(&f)))
            .collect();
        Ok((files, cut))
    } else if is_pdn(&full) {
        Ok((vec![(rel.to_string(), full)], false))
    } else {
        Err(ApiError::bad(
            format!("`{rel}` is neither a folder nor a .pdn file"),
            HELP,
        ))
    }
}

/// Search a folder's PDN files (or one file) by tags and, when asked, by the position on the
/// board: each game is replayed in the page's rules and its main line's positions compared.
pub async fn search(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<SearchBody>,
) -> ApiResult<Json<Value>> {
    for f in body.fields() {
        guard::limit("search field", f, 1024)?;
    }
    let id = guard::client_id(&headers)?;
    let (loaded, pos) = {
        let c = app.clients.get(&id);
        let c = lock(&c);
        (c.variant.clone(), *c.position())
    };
    let a = app.clone();
    blocking(&app, Weight::Parse, move || {
        Ok(Json(search_now(&a, &body, &loaded, &pos)?))
    })
    .await
}

fn search_now(app: &App, body: &SearchBody, loaded: &Variant, pos: &Position) -> ApiResult<Value> {
    let rel = body.path.trim_end_matches('/');
    let (files, files_cut) = files_of(app, rel)?;
    let want = placement(pos);
    let (mut results, mut notes) = (Vec::new(), Vec::new());
    if files_cut {
        notes.push(format!(
            "only the first {MAX_SEARCH_FILES} .pdn files were searched"
        ));
    }
    let (mut bytes, mut games, mut unreplayed, mut more) = (0u64, 0usize, 0usize, false);
    for (name, full) in &files {
        bytes += std::fs::metadata(full).map(|m| m.len()).unwrap_or(0);
        if bytes > MAX_SEARCH_BYTES || games >= MAX_SEARCH_GAMES {
            notes.push(format!(
                "stopped before `{name}`: a search reads at most {} MiB and {MAX_SEARCH_GAMES} games",
                MAX_SEARCH_BYTES >> 20
            ));
            break;
        }
        let ix = match app.collections.get(full, loaded, MAX_SEARCH_GAMES - games) {
            Ok(ix) => ix,
            Err(e) => {
                notes.push(format!("`{name}` was skipped: {e}"));
                continue;
            }
        };
        let take = ix.games.len().min(MAX_SEARCH_GAMES - games);
        if ix.cut || take < ix.games.len() {
            notes.push(format!(
                "only the first {take} games of `{name}` were searched"
            ));
        }
        games += take;
        for (i, e) in ix.games.iter().take(take).enumerate() {
            if !body.tags_match(e) {
                continue;
            }
            let ply = if body.position {
                match &e.placements {
                    Some(p) => match p.iter().position(|&h| h == want) {
                        Some(ply) => Some(ply),
                        None => continue,
                    },
                    None => {
                        unreplayed += usize::from(e.variant == loaded.name());
                        continue;
                    }
                }
            } else {
                None
            };
            if results.len() == MAX_SEARCH_RESULTS {
                more = true;
                break;
            }
            results.push(json!({
                "file": name, "game": i, "title": e.title, "white": e.white, "black": e.black,
                "event": e.event, "date": e.date, "result": e.result, "variant": e.variant,
                "plies": e.plies, "ply": ply,
            }));
        }
    }
    if more {
        notes.push(format!(
            "only the first {MAX_SEARCH_RESULTS} results are listed"
        ));
    }
    if unreplayed > 0 {
        notes.push(format!(
            "{unreplayed} games of {} do not replay and were not searched by position",
            loaded.rules.spec.title
        ));
    }
    Ok(json!({
        "path": rel, "files": files.len(), "games": games, "results": results, "notes": notes,
        "position": body.position.then(|| loaded.rules.spec.title.clone()),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenBody {
    /// A `.pdn` file relative to the served folder.
    pub path: String,
    /// Which of its games (0 = the first).
    pub game: usize,
    /// The ply of its main line to show (a position search's match); the start when absent.
    pub ply: Option<usize>,
}

/// Open a game of a collection's file on the board, as an import of that file would, at the
/// ply asked for.
pub async fn open(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<OpenBody>,
) -> ApiResult<Json<Value>> {
    let a = app.clone();
    blocking(&app, Weight::Parse, move || {
        let rel = body.path.trim_end_matches('/');
        let full = a.root.walk(rel, HELP)?;
        if !is_pdn(&full) {
            return Err(ApiError::bad(format!("`{rel}` is not a .pdn file"), HELP));
        }
        let text = crate::fsio::read_text(&full, crate::fsio::Kind::Pdn)
            .map_err(|e| unreadable(rel, e))?;
        let pdn = super::api::PdnBody {
            text,
            game: body.game,
        };
        let Json(mut state) = super::api::import_now(&a, &headers, pdn)?;
        if let Some(ply) = body.ply {
            let (_, s) = with_client(&a, &headers, |c| {
                if let Some(&node) = c.tree.main_line().get(ply) {
                    c.tree.goto(node);
                }
                Ok(())
            })?;
            let pdn = state["pdn"].take();
            state = s;
            state["pdn"] = pdn;
        }
        state["pdn"]["file"] = json!(rel);
        Ok(Json(state))
    })
    .await
}
