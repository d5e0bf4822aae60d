//! The rules editor's endpoints: the text and its plain-English description, checking as the
//! user types (every diagnostic with its line and column), applying a changed file to the game,
//! saving it where it came from.

use super::api::{stem, with_client};
use super::client::Client;
use super::guard::{limit, ApiError, ApiResult, MAX_RULES_BYTES};
use super::work::{blocking, with_client_off, Weight};
use super::App;
use crate::notation::move_to_string;
use crate::variant::LoadError;
use crate::Variant;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use miette::Diagnostic;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// Line and column (both from 1, columns in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut cut = offset;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let before = &text[..cut];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

fn diagnostic_json(text: &str, d: &dyn Diagnostic) -> Value {
    let label = d.labels().and_then(|mut l| l.next());
    let (start, len, label_text) = match &label {
        Some(l) => (l.offset(), l.len(), l.label().unwrap_or("").to_string()),
        None => (0, 0, String::new()),
    };
    let (line, col) = line_col(text, start);
    let (end_line, end_col) = line_col(text, start + len);
    json!({
        "message": d.to_string(),
        "code": d.code().map(|c| c.to_string()),
        "help": d.help().map(|h| h.to_string()),
        "label": label_text,
        "line": line, "col": col, "end_line": end_line, "end_col": end_col,
        "start": start, "len": len,
    })
}

/// Every diagnostic of a failed load, in file order.
fn diagnostics(text: &str, e: &LoadError) -> Vec<Value> {
    match e {
        LoadError::Rules(r) => r
            .errors()
            .iter()
            .take(crate::limits::MAX_DIAGNOSTICS)
            .map(|d| diagnostic_json(text, d))
            .collect(),
        other => vec![diagnostic_json(text, other)],
    }
}

/// Compile a rules text as the editor holds it.
fn compile(name: &str, text: &str) -> Result<Variant, LoadError> {
    Variant::from_source(name, stem(name), text, None)
}

fn editor_name(c: &Client) -> String {
    c.rules_path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| format!("{}.rules", c.variant.name()))
}

/// The rules text in force, where it came from, and its description.
pub async fn get(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let (v, _) = with_client_off(&app, &headers, Weight::Light, |c| {
        Ok(json!({
            "text": c.rules_text,
            "name": editor_name(c),
            "path": c.rules_path.as_ref().map(|p| p.display().to_string()),
            "describe": crate::describe::describe(c.rules()),
        }))
    })
    .await?;
    Ok(Json(v))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextBody {
    pub text: String,
    /// For `save`: the file to write (a `.rules` path inside the start folder); the file the rules
    /// came from when absent.
    pub path: Option<String>,
}

/// Check a text: its diagnostics, or its description when it is correct. Changes nothing.
pub async fn check(
    State(app): State<Arc<App>>,
    Json(body): Json<TextBody>,
) -> ApiResult<Json<Value>> {
    limit("rules text", &body.text, MAX_RULES_BYTES)?;
    // Compiling is quick (a rules file is a few KB) but not free: a parse, off the async threads.
    let text = body.text;
    let v = blocking(&app, Weight::Parse, move || {
        Ok(match compile("rules", &text) {
            Ok(v) => json!({ "ok": true, "diagnostics": [], "describe": crate::describe::describe(&v.rules) }),
            Err(e) => json!({ "ok": false, "diagnostics": diagnostics(&text, &e) }),
        })
    })
    .await?;
    Ok(Json(v))
}

/// Apply a changed text to this client's game: the moves from the start to the current position
/// are replayed under the new rules as far as they stay legal.
pub async fn apply(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<TextBody>,
) -> ApiResult<Json<Value>> {
    limit("rules text", &body.text, MAX_RULES_BYTES)?;
    let (report, mut state) = with_client_off(&app, &headers, Weight::Parse, move |c| {
        let variant = compile(&editor_name(c), &body.text).map_err(|e| {
            let first = diagnostics(&body.text, &e).into_iter().next();
            let at = first
                .as_ref()
                .map(|d| format!(" (line {})", d["line"]))
                .unwrap_or_default();
            ApiError::refused(
                format!("the rules do not compile: {e}{at}"),
                "fix the diagnostics shown under the lines, then apply again",
            )
        })?;
        let old = c.tree.clone();
        let moves = old.moves_to(old.current);
        let old_rules = c.rules().clone();
        let rules = variant.rules.clone();
        // The same start when it is still a position of the new board, else the new start.
        let start = old.nodes[0].pos;
        let same_board = rules.spec.board == old_rules.spec.board
            && rules.spec.pieces.len() >= old_rules.spec.pieces.len();
        let start = if same_board && start != old_rules.start {
            start
        } else {
            rules.start
        };
        let mut tree = crate::workbench::tree::Tree::new(rules.clone(), start);
        let mut stopped = None;
        for (ply, mv) in moves.iter().enumerate() {
            let text = move_to_string(&old_rules, mv);
            let game = tree.game();
            let legal = game.try_legal_moves().unwrap_or_default();
            let found = (same_board)
                .then(|| {
                    legal
                        .iter()
                        .find(|m| m.same_move(mv) && m.route() == mv.route())
                })
                .flatten();
            match found {
                Some(m) => {
                    tree.play(*m);
                }
                None => {
                    let why = crate::explain::explain(&rules, game.position(), &text)
                        .map(|w| w.trim_end().to_string())
                        .unwrap_or_else(|_| format!("`{text}` is not legal under the new rules"));
                    stopped = Some(json!({ "ply": ply, "move": text, "why": why }));
                    break;
                }
            }
        }
        let kept = tree.current;
        c.cancel_job();
        c.variant = variant;
        c.rules_text = body.text.clone();
        c.tree = tree;
        Ok(json!({ "kept": kept, "of": moves.len(), "stopped": stopped }))
    })
    .await?;
    state["applied"] = report;
    Ok(Json(state))
}

/// Save the editor's text where the rules came from (or to `path`), inside the start folder,
/// keeping the old file as `.bak`.
pub async fn save(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<TextBody>,
) -> ApiResult<Json<Value>> {
    limit("rules text", &body.text, MAX_RULES_BYTES)?;
    let (target, _) = with_client(&app, &headers, |c| {
        Ok(body
            .path
            .clone()
            .or_else(|| c.rules_path.as_ref().map(|p| p.display().to_string())))
    })?;
    let Some(target) = target else {
        return Err(ApiError::refused(
            "these rules come from a bundled variant: there is no file to save them to",
            "give a file name such as `my-variant.rules`, or download the text",
        ));
    };
    // A file written and synced: off the async threads.
    let (a, t) = (app.clone(), target.clone());
    let backup = blocking(&app, Weight::Light, move || a.root.save(&t, &body.text)).await?;
    with_client(&app, &headers, |c| {
        c.rules_path = Some(target.clone().into());
        Ok(())
    })?;
    Ok(Json(json!({ "saved": target, "backup": backup })))
}
