//! PDN: games read (tags, comments, variations, replayed against their variant's rules) and
//! written, through the library's `pdn` module.

use crate::errors::{plain, DamelabError};
use crate::position::{Move, Position};
use crate::variant::Variant;
use damelab::engine::Rules;
use damelab::pdn::{self, VariantCache};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

type PdnVariation = pdn::Variation<damelab::Move>;

/// Moves played in place of a line's, from its move `ply` on (PDN's `( … )`), with variations
/// of their own.
#[pyclass(frozen, module = "damelab")]
pub struct Variation {
    inner: PdnVariation,
    rules: Arc<Rules>,
}

#[pymethods]
impl Variation {
    /// The index in its line of the move it replaces (0: the line's first move).
    #[getter]
    fn ply(&self) -> usize {
        self.inner.ply
    }

    #[getter]
    fn moves(&self) -> Vec<Move> {
        let rules = &self.rules;
        self.inner
            .moves
            .iter()
            .map(|&mv| Move {
                mv,
                rules: rules.clone(),
            })
            .collect()
    }

    #[getter]
    fn variations(&self) -> Vec<Variation> {
        wrap_variations(&self.inner.variations, &self.rules)
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self
            .inner
            .moves
            .iter()
            .map(|m| damelab::notation::move_to_string(&self.rules, m))
            .collect();
        format!("<Variation at ply {}: {}>", self.inner.ply, moves.join(" "))
    }
}

fn wrap_variations(vs: &[PdnVariation], rules: &Arc<Rules>) -> Vec<Variation> {
    vs.iter()
        .map(|v| Variation {
            inner: v.clone(),
            rules: rules.clone(),
        })
        .collect()
}

/// A game record: a position's history with PDN's tags (headers), comments and variations.
#[pyclass(module = "damelab")]
pub struct Game {
    position: Position,
    headers: Vec<(String, String)>,
    comments: Vec<(usize, String)>,
    variations: Vec<PdnVariation>,
    /// The result as recorded (a resignation), written instead of the board's.
    recorded: Option<String>,
    notes: Vec<String>,
}

#[pymethods]
impl Game {
    /// A new game from a variant's start or from a position (with the moves already played
    /// there).
    #[new]
    fn new(py: Python<'_>, start: &Bound<'_, PyAny>) -> PyResult<Game> {
        let position = if let Ok(v) = start.cast::<Variant>() {
            let pos = v.get().rules().start;
            Position::new(v.clone().unbind(), pos)
        } else if let Ok(p) = start.cast::<Position>() {
            let p = p.borrow();
            Position::from_game(p.variant.clone_ref(py), p.game.clone())
        } else {
            return Err(PyTypeError::new_err(
                "a Game starts from a Variant or a Position",
            ));
        };
        Ok(Game {
            position,
            headers: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
            recorded: None,
            notes: Vec::new(),
        })
    }

    /// The tags, in order (`{"Event": …, "White": …}`); `GameType`, `FEN` and `Result` are
    /// written from the game itself.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.headers {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    #[setter]
    fn set_headers(&mut self, headers: Vec<(String, String)>) {
        self.headers = headers;
    }

    /// Set one tag (replacing one of the same name).
    fn set_header(&mut self, name: String, value: String) {
        match self.headers.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.headers.push((name, value)),
        }
    }

    /// The comments: `(after this many moves of the main line, text)`.
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        self.comments.clone()
    }

    #[setter]
    fn set_comments(&mut self, comments: Vec<(usize, String)>) {
        self.comments = comments;
    }

    /// Add a comment after the moves played so far (or after `after` moves).
    #[pyo3(signature = (text, after = None))]
    fn add_comment(&mut self, text: String, after: Option<usize>) {
        let at = after.unwrap_or(self.position.game.moves().len());
        self.comments.push((at, text));
    }

    /// The main line's variations.
    #[getter]
    fn variations(&self) -> Vec<Variation> {
        wrap_variations(&self.variations, self.position.rules())
    }

    /// Add a variation: `moves` (texts or `Move`s) played instead of the main line's move
    /// `ply` (0: instead of the first move); each must be legal in turn.
    fn add_variation(
        &mut self,
        py: Python<'_>,
        ply: usize,
        moves: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let line = self.position.game.moves();
        if ply > line.len() {
            return Err(PyIndexError::new_err(format!(
                "the main line has {} moves: no move {ply} to replace",
                line.len()
            )));
        }
        let mut g = damelab::Game::from_position(
            self.position.rules().clone(),
            *self.position.game.start(),
        );
        for &m in &line[..ply] {
            g.play(m);
        }
        let mut p = Position::from_game(self.position.variant.clone_ref(py), g);
        let mut played = Vec::new();
        for m in &moves {
            let mv = p.resolve(m)?;
            p.play(mv);
            played.push(mv);
        }
        self.variations.push(PdnVariation::new(ply, played));
        Ok(())
    }

    /// The main line's moves.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.position
            .game
            .moves()
            .iter()
            .map(|&m| self.position.wrap(m))
            .collect()
    }

    /// Play a move on the main line (a `Move` or its text).
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.position.resolve(mv)?;
        self.position.play(m);
        Ok(())
    }

    /// The position at the end of the main line (a copy).
    fn end(&self, py: Python<'_>) -> Position {
        Position::from_game(
            self.position.variant.clone_ref(py),
            self.position.game.clone(),
        )
    }

    /// The position the game starts from.
    fn start(&self, py: Python<'_>) -> Position {
        Position::new(
            self.position.variant.clone_ref(py),
            *self.position.game.start(),
        )
    }

    /// The result token written: the recorded one (read from a file, or set), else the board's.
    #[getter]
    fn result(&self) -> String {
        self.recorded
            .clone()
            .unwrap_or_else(|| pdn::result_token(&self.position.game).to_string())
    }

    #[setter]
    fn set_result(&mut self, token: Option<String>) {
        self.recorded = token;
    }

    /// Remarks of the replay that are not failures (play after the game was over, …).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The game as PDN text.
    fn pdn(&self) -> String {
        let v = self.position.variant.get();
        pdn::write_game_with(
            &self.position.game,
            &self.headers,
            &self.comments,
            self.recorded.as_deref(),
            &self.variations,
            v.source.as_deref(),
        )
    }

    fn __str__(&self) -> String {
        self.pdn()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game {} moves, {}>",
            self.position.game.moves().len(),
            self.result()
        )
    }
}

/// The games of a PDN text, each replayed against its variant: `variant` when given, else the
/// one its `GameType` (or `Rules`, or `Variant`) tag names. A game that does not replay raises
/// `DamelabError` saying at which move and why.
#[pyfunction]
#[pyo3(signature = (text, variant = None))]
pub fn read_pdn(py: Python<'_>, text: &str, variant: Option<Py<Variant>>) -> PyResult<Vec<Game>> {
    let games = pdn::read_games(text.as_bytes());
    let mut cache = VariantCache::default();
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let v = match &variant {
            Some(v) => v.clone_ref(py),
            None => {
                let inner = pdn::variant_for(g, None, &mut cache)
                    .map_err(|e| plain::<DamelabError>(e.to_string()))?;
                let source = Some(match &inner.path {
                    Some(p) => p.display().to_string(),
                    None => inner.name().to_string(),
                });
                Py::new(py, Variant { inner, source })?
            }
        };
        let rules = v.get().inner.rules.clone();
        let r = pdn::replay(rules, g)
            .map_err(|f| plain::<DamelabError>(pdn::describe_failure(i + 1, g, &f)))?;
        out.push(Game {
            position: Position::from_game(v, r.game),
            headers: g.tags.clone(),
            comments: g.comments.clone(),
            variations: r.variations,
            recorded: g.result.clone(),
            notes: r.notes,
        });
    }
    Ok(out)
}

/// Games as one PDN text, a blank line between them.
#[pyfunction]
pub fn write_pdn(games: Vec<PyRef<'_, Game>>) -> String {
    let texts: Vec<String> = games.iter().map(|g| g.pdn()).collect();
    texts.join("\n")
}
