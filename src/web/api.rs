//! The game endpoints: state, play, undo/redo/goto, new game, FEN, position set-up, explain, PDN
//! in and out, and choosing a variant. Each answers with the whole state the page draws.

use super::client::{lock, state_json, Client};
use super::guard::{self, limit, ApiError, ApiResult, MAX_FEN_BYTES, MAX_MOVE_BYTES};
use super::work::{blocking, with_client_off, Weight};
use super::App;
use crate::notation::parse_fen;
use crate::Variant;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;

type Reply = ApiResult<Json<Value>>;

/// Run `f` on the requesting client's state, then answer with that state.
pub fn with_client<T>(
    app: &App,
    headers: &HeaderMap,
    f: impl FnOnce(&mut Client) -> ApiResult<T>,
) -> ApiResult<(T, Value)> {
    let id = guard::client_id(headers)?;
    let c = app.clients.get(&id);
    let mut c = lock(&c);
    let t = f(&mut c)?;
    Ok((t, state_json(&c)))
}

/// Run `f` on the requesting client's state off the async threads ([`super::work`]), then answer
/// with that state.
async fn reply(
    app: &Arc<App>,
    headers: &HeaderMap,
    weight: Weight,
    f: impl FnOnce(&mut Client) -> ApiResult<()> + Send + 'static,
) -> Reply {
    with_client_off(app, headers, weight, f)
        .await
        .map(|(_, s)| Json(s))
}

pub async fn state(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    reply(&app, &headers, Weight::Light, |_| Ok(())).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayBody {
    /// The node the page saw: a move chosen on an older board is refused, not misplayed.
    pub node: Option<usize>,
    /// An index into that node's legal moves (as the state listed them).
    pub index: Option<usize>,
    /// Moves as text, played one after the other (a typed move, or a line of the analysis).
    pub moves: Option<Vec<String>>,
}

/// Play one move by text in the current position: the legal move it names, or the refusal
/// with `explain`'s reason.
pub fn play_text(c: &mut Client, text: &str) -> ApiResult<()> {
    use crate::workbench::Refusal;
    let game = c.tree.game();
    match crate::workbench::read_move(&game, text) {
        Ok(mv) => {
            c.tree.play(mv).ok_or_else(tree_full)?;
            Ok(())
        }
        Err(Refusal::NotChecked(e)) => Err(ApiError::from_diagnostic(
            StatusCode::UNPROCESSABLE_ENTITY,
            &e,
        )),
        Err(Refusal::Illegal { error, why }) => {
            let why = match why {
                Some(w) if game.result().is_none() => w.trim_end().to_string(),
                _ if game.result().is_some() => {
                    format!("the game is over: {}", game.describe_result())
                }
                _ => error.message.clone(),
            };
            Err(ApiError::refused(
                why,
                error
                    .help
                    .clone()
                    .unwrap_or_else(|| "click a highlighted square".into()),
            ))
        }
    }
}

fn tree_full() -> ApiError {
    ApiError::refused(
        format!(
            "the game tree holds {} positions, its limit",
            crate::workbench::tree::MAX_NODES
        ),
        "start a new game, or export this one as PDN first",
    )
}

pub async fn play(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<PlayBody>,
) -> Reply {
    // A list of moves is read and played move by move: a parse.
    let weight = match body.moves {
        Some(_) => Weight::Parse,
        None => Weight::Light,
    };
    reply(&app, &headers, weight, move |c| {
        if let Some(node) = body.node {
            if node != c.tree.current {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "the board changed since this move was chosen",
                    "choose the move again on the board as it is now",
                ));
            }
        }
        match (body.index, &body.moves) {
            (Some(i), None) => {
                let legal =
                    c.tree.game().try_legal_moves().map_err(|e| {
                        ApiError::from_diagnostic(StatusCode::UNPROCESSABLE_ENTITY, &e)
                    })?;
                let mv = *legal.get(i).ok_or_else(|| {
                    ApiError::refused(
                        format!("there is no legal move number {i}: {} here", legal.len()),
                        "choose a move the board highlights",
                    )
                })?;
                c.tree.play(mv).ok_or_else(tree_full)?;
                Ok(())
            }
            (None, Some(moves)) => {
                limit("move list", &moves.concat(), MAX_MOVE_BYTES)?;
                // All or nothing: a line that stops being legal leaves the game where it was.
                let before = c.tree.current;
                for m in moves {
                    if let Err(e) = play_text(c, m) {
                        c.tree.goto(before);
                        return Err(e);
                    }
                }
                Ok(())
            }
            _ => Err(ApiError::bad(
                "give either `index` or `moves`",
                "e.g. {\"moves\": [\"32-28\"]}",
            )),
        }
    })
    .await
}

pub async fn undo(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    reply(&app, &headers, Weight::Light, |c| {
        c.tree.undo();
        Ok(())
    })
    .await
}

pub async fn redo(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    reply(&app, &headers, Weight::Light, |c| {
        c.tree.redo();
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GotoBody {
    pub node: usize,
}

pub async fn goto(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<GotoBody>,
) -> Reply {
    reply(&app, &headers, Weight::Light, move |c| {
        if c.tree.goto(body.node) {
            Ok(())
        } else {
            Err(ApiError::refused(
                format!("there is no position number {} in this game", body.node),
                "click a move of the move list",
            ))
        }
    })
    .await
}

/// A new game from the variant's start position.
pub async fn new_game(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    reply(&app, &headers, Weight::Light, |c| {
        c.cancel_job();
        c.tree = crate::workbench::tree::Tree::new(c.rules().clone(), c.rules().start);
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FenBody {
    pub fen: String,
}

/// A new game from a FEN.
pub async fn fen(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<FenBody>,
) -> Reply {
    limit("FEN", &body.fen, MAX_FEN_BYTES)?;
    reply(&app, &headers, Weight::Light, move |c| {
        let pos = parse_fen(c.rules(), body.fen.trim())
            .map_err(|e| ApiError::from_diagnostic(StatusCode::UNPROCESSABLE_ENTITY, &*e))?;
        c.cancel_job();
        c.tree = crate::workbench::tree::Tree::new(c.rules().clone(), pos);
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupBody {
    /// A square to change, and what to put there (`null` empties it).
    pub sq: Option<u8>,
    pub piece: Option<(usize, usize)>,
    /// The side to move from now on.
    pub turn: Option<usize>,
    /// Empty the whole board (the pieces in hand stay).
    #[serde(default)]
    pub clear: bool,
    /// The pieces in hand of a side and kind: `[side, kind, count]`.
    pub hand: Option<(usize, usize, u32)>,
    /// A single combat declared (`true`) or not.
    pub combat: Option<bool>,
}

/// Position set-up: place or remove a piece, set the side to move, clear the board, count the
/// pieces in hand, mark a single combat declared. The edited position starts a new game tree.
pub async fn setup(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<SetupBody>,
) -> Reply {
    reply(&app, &headers, Weight::Light, move |c| {
        use crate::workbench::{Edit, SetupError};
        let rules = c.rules().clone();
        let mut edits = Vec::new();
        if body.clear {
            edits.push(Edit::ClearAll);
        }
        if let Some(sq) = body.sq {
            edits.push(match body.piece {
                Some((side, kind)) => Edit::Put { sq, side, kind },
                None => Edit::Clear(sq),
            });
        }
        edits.extend(body.turn.map(Edit::Turn));
        edits.extend(
            body.hand
                .map(|(side, kind, count)| Edit::Hand { side, kind, count }),
        );
        edits.extend(body.combat.map(Edit::Combat));
        let pos = crate::workbench::apply(&rules, c.position(), &edits).map_err(|e| {
            let help = match e {
                SetupError::NotPlayable(_) => "click a dark square of the board".to_string(),
                SetupError::NoSuchPiece { .. } => {
                    "choose a piece from the set-up palette".to_string()
                }
                SetupError::NoSuchSide(_) => "0 is the first side, 1 the second".to_string(),
                _ => miette::Diagnostic::help(&e)
                    .map(|h| h.to_string())
                    .unwrap_or_default(),
            };
            ApiError::refused(e.to_string(), help)
        })?;
        c.cancel_job();
        c.tree = crate::workbench::tree::Tree::new(rules, pos);
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplainBody {
    pub text: String,
}

/// Why a move is legal or not, in the current position.
pub async fn explain(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<ExplainBody>,
) -> ApiResult<Json<Value>> {
    limit("move text", &body.text, MAX_MOVE_BYTES)?;
    let (text, _) = with_client_off(&app, &headers, Weight::Light, move |c| {
        crate::explain::explain(c.rules(), c.position(), body.text.trim())
            .map_err(|e| ApiError::from_diagnostic(StatusCode::UNPROCESSABLE_ENTITY, &e))
    })
    .await?;
    Ok(Json(json!({ "text": text.trim_end() })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdnBody {
    pub text: String,
    /// Which game of the text to load (0 = the first).
    #[serde(default)]
    pub game: usize,
}

/// PDN import: the games of a pasted or uploaded text; one of them becomes the game.
pub async fn pdn_import(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<PdnBody>,
) -> Reply {
    limit("PDN text", &body.text, guard::MAX_PASTE_BYTES)?;
    let a = app.clone();
    blocking(&app, Weight::Parse, move || import_now(&a, &headers, body)).await
}

/// [`pdn_import`]'s reading, replay and new tree, on the blocking pool. The game is read in the
/// variant it names (`GameType`, `Rules` or `Variant` tag; the board switches to it), else in the
/// page's variant when it replays there, else in the one its squares suggest.
pub fn import_now(app: &App, headers: &HeaderMap, body: PdnBody) -> Reply {
    let bytes = body.text.as_bytes();
    let acf = crate::pdn::looks_like_acf(bytes);
    let games = if acf {
        crate::pdn::read_acf(bytes)
    } else {
        crate::pdn::read_games(bytes)
    };
    let titles: Vec<Value> = games.iter().enumerate().map(game_entry).collect();
    let g = games.get(body.game).ok_or_else(|| {
        ApiError::refused(
            format!(
                "the text holds {} games; there is no game {}",
                games.len(),
                body.game + 1
            ),
            "paste a PDN game such as `1. 32-28 19-23 *`",
        )
    })?;
    let id = guard::client_id(headers)?;
    let loaded = lock(&app.clients.get(&id)).variant.clone();
    let (variant, mut notes) =
        crate::workbench::variant_of_game(&loaded, g, acf, false).map_err(|e| {
            let help = match e {
                crate::workbench::OpenError::NotBundled(_) => {
                    "open the rules file with the variant selector first, then import again"
                }
                _ => "choose the game's variant in the selector, then import again",
            };
            ApiError::refused(e.to_string(), help)
        })?;
    let replayed = crate::pdn::replay(variant.rules.clone(), g).map_err(|f| {
        let at = f.at.map(|l| format!(" (at {l})")).unwrap_or_default();
        let ply = f
            .ply
            .map(|p| format!("move {}: ", p + 1))
            .unwrap_or_default();
        ApiError::refused(
            format!("{ply}{}{at} in {}", f.message, variant.rules.spec.title),
            if f.legal.is_empty() {
                "check that the game is of this variant".to_string()
            } else {
                format!("the legal moves there: {}", f.legal.join(", "))
            },
        )
    })?;
    let tree = crate::workbench::tree_of_game(&replayed, g).ok_or_else(tree_full)?;
    notes.extend(replayed.notes);
    let switched = variant.name() != loaded.name();
    let (_, mut state) = with_client(app, headers, move |c| {
        c.cancel_job();
        if switched {
            let text = crate::variants::bundled(variant.name())
                .unwrap_or_default()
                .to_string();
            *c = Client::new(variant, text, None);
        }
        c.tree = tree;
        Ok(())
    })?;
    state["pdn"] = json!({
        "games": titles, "loaded": body.game, "notes": notes, "switched": switched,
    });
    Ok(Json(state))
}

/// One game of a pasted text as the page lists it: its title (players and event, else `game N`)
/// and the tags a player chooses by.
fn game_entry((i, g): (usize, &crate::pdn::PdnGame)) -> Value {
    let t = g.title();
    let tag = |n: &str| g.tag(n).unwrap_or_default().to_string();
    json!({
        "title": if t.is_empty() { format!("game {}", i + 1) } else { t },
        "date": tag("Date"),
        "result": g.result.clone().unwrap_or_else(|| tag("Result")),
        "moves": g.moves.len(),
    })
}

/// PDN export of the game with its variations.
pub async fn pdn_export(State(app): State<Arc<App>>, headers: HeaderMap) -> Reply {
    let (pdn, _) = with_client_off(&app, &headers, Weight::Light, |c| Ok(c.tree.to_pdn())).await?;
    Ok(Json(json!({ "pdn": pdn })))
}

/// The bundled variants: name and title.
/// Each is compiled for its title: a parse, on the blocking pool.
pub async fn variants(State(app): State<Arc<App>>) -> Reply {
    blocking(&app, Weight::Parse, || {
        let list: Vec<Value> = crate::variants::BUNDLED
            .iter()
            .map(|(name, _)| {
                let title = Variant::load(name)
                    .map(|v| v.rules.spec.title.clone())
                    .unwrap_or_default();
                json!({ "name": name, "title": title })
            })
            .collect();
        Ok(Json(json!({ "variants": list })))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantBody {
    /// A bundled variant's name, or a `.rules` file inside the start folder.
    pub name: String,
}

/// Switch to a bundled variant or a rules file of the start folder; a new game.
pub async fn variant(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<VariantBody>,
) -> Reply {
    limit("variant name", &body.name, 1024)?;
    let a = app.clone();
    let loaded = blocking(&app, Weight::Parse, move || load_variant(&a, body)).await?;
    reply(&app, &headers, Weight::Light, move |c| {
        c.cancel_job();
        let (variant, text, path) = loaded;
        *c = Client::new(variant, text, path);
        Ok(())
    })
    .await
}

/// A bundled variant or a rules file of the start folder, read and compiled (on the blocking
/// pool: compiling is a parse).
fn load_variant(app: &App, body: VariantBody) -> ApiResult<(Variant, String, Option<PathBuf>)> {
    Ok(match crate::variants::bundled(&body.name) {
        Some(text) => {
            let v = Variant::load(&body.name)
                .map_err(|e| ApiError::from_diagnostic(StatusCode::UNPROCESSABLE_ENTITY, &e))?;
            (v, text.to_string(), None)
        }
        None => {
            let (full, text) = app.root.read(&body.name)?;
            let v = Variant::from_source(&body.name, stem(&body.name), &text, Some(full))
                .map_err(|e| ApiError::from_diagnostic(StatusCode::UNPROCESSABLE_ENTITY, &e))?;
            (v, text, Some(body.name.clone().into()))
        }
    })
}

pub fn stem(path: &str) -> &str {
    std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant")
}
