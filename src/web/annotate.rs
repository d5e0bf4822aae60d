//! Annotating the game from the page: a move's comment, its NAGs and the shapes drawn on the
//! board after it, kept in the tree's PDN comments (`[%draw …]`) and exported with the game.

use super::api::with_client;
use super::guard::{limit, ApiError, ApiResult};
use super::App;
use crate::pdn::MAX_NAGS;
use crate::workbench::notes::{self, Shape, COLOURS};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// The longest comment the page may write on one move.
pub const MAX_COMMENT_BYTES: usize = 4096;
/// The most shapes drawn after one move.
pub const MAX_DRAWN_SHAPES: usize = 64;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnnotateBody {
    /// The node whose move is annotated (0: the comment before the first move).
    pub node: usize,
    /// The comment's text (its commands, clock and evaluation, are kept).
    pub comment: Option<String>,
    /// The move's NAGs, replacing those it has (`[]` clears them).
    pub nags: Option<Vec<u8>>,
    /// The shapes drawn after the move, replacing those it has.
    pub shapes: Option<Vec<Shape>>,
}

/// `POST /api/annotate`: set a move's comment, NAGs or shapes; answers with the state.
pub async fn annotate(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(body): Json<AnnotateBody>,
) -> ApiResult<Json<Value>> {
    if let Some(c) = &body.comment {
        limit("comment", c, MAX_COMMENT_BYTES)?;
    }
    if body.nags.as_ref().is_some_and(|n| n.len() > MAX_NAGS) {
        return Err(ApiError::refused(
            format!("a move keeps at most {MAX_NAGS} NAGs"),
            "give fewer NAGs",
        ));
    }
    if body
        .shapes
        .as_ref()
        .is_some_and(|s| s.len() > MAX_DRAWN_SHAPES)
    {
        return Err(ApiError::refused(
            format!("at most {MAX_DRAWN_SHAPES} shapes are drawn after one move"),
            "clear some shapes first",
        ));
    }
    let (_, state) = with_client(&app, &headers, |c| {
        let Some(node) = c.tree.nodes.get(body.node) else {
            return Err(ApiError::refused(
                format!("there is no position number {} in this game", body.node),
                "click a move of the move list",
            ));
        };
        let geo = &c.variant.rules.geo;
        let named = |name: &str| {
            (0..geo.width)
                .flat_map(|f| (0..geo.height).map(move |r| (f, r)))
                .filter_map(|fr| geo.square(fr))
                .any(|sq| geo.is_playable(sq) && geo.name(sq) == name)
        };
        for s in body.shapes.iter().flatten() {
            let squares = std::iter::once(&s.from).chain(s.to.as_ref());
            if let Some(bad) = squares.clone().find(|q| !named(q)) {
                return Err(ApiError::refused(
                    format!("`{bad}` is not a square of this board"),
                    "draw between squares of the board",
                ));
            }
            if !COLOURS.contains(&s.colour.as_str()) {
                return Err(ApiError::refused(
                    format!("`{}` is not a colour of the board's shapes", s.colour),
                    format!("one of {}", COLOURS.join(", ")),
                ));
            }
        }
        let comment = notes::rewrite(
            &node.notes.comment,
            body.comment.as_deref(),
            body.shapes.as_deref(),
        );
        let n = &mut c.tree.nodes[body.node].notes;
        n.comment = comment;
        if let Some(nags) = &body.nags {
            n.nags.clear();
            for &g in nags {
                n.add_nag(g);
            }
        }
        Ok(())
    })?;
    Ok(Json(state))
}
