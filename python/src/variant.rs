//! `Variant`: a bundled variant or a rules file, loaded (parsed, checked, compiled).

use crate::errors::{raise, DamelabError, FenError, RulesError};
use crate::position::Position;
use damelab::notation::parse_fen;
use damelab::variant::LoadError;
use pyo3::prelude::*;

/// A variant ready to play: its compiled rules, and the name or path it was loaded from.
#[pyclass(frozen, module = "damelab")]
pub struct Variant {
    pub inner: damelab::Variant,
    /// The bundled name or the path given to `load` (`None` for `load_text`): what a PDN file's
    /// `Rules` tag names.
    pub source: Option<String>,
}

impl Variant {
    pub fn rules(&self) -> &damelab::Rules {
        &self.inner.rules
    }
}

fn load_error(e: LoadError) -> PyErr {
    match e {
        LoadError::Rules(_) | LoadError::Compile(_) => raise::<RulesError>(&e),
        _ => raise::<DamelabError>(&e),
    }
}

#[pymethods]
impl Variant {
    /// A bundled variant by name (`damelab.bundled()` lists them), or a rules file by path.
    #[staticmethod]
    fn load(name_or_path: &str) -> PyResult<Variant> {
        let inner = damelab::Variant::load(name_or_path).map_err(load_error)?;
        Ok(Variant {
            inner,
            source: Some(name_or_path.to_string()),
        })
    }

    /// A variant from the text of a rules file; `name` is the file name its diagnostics show.
    #[staticmethod]
    #[pyo3(signature = (text, name = "variant"))]
    fn load_text(text: &str, name: &str) -> PyResult<Variant> {
        let file = format!("{name}.rules");
        let inner = damelab::Variant::from_source(&file, name, text, None).map_err(load_error)?;
        Ok(Variant {
            inner,
            source: None,
        })
    }

    /// The variant's name (its rules file's `variant` line).
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// The variant's title.
    #[getter]
    fn title(&self) -> String {
        self.rules().spec.title.clone()
    }

    /// The compiled rules' fingerprint (as PDN's `Rules` tag and every damelab file record it).
    #[getter]
    fn fingerprint(&self) -> String {
        self.rules().fingerprint()
    }

    /// The names of the two sides, the first to be listed first (side 0).
    #[getter]
    fn sides(&self) -> Vec<String> {
        self.rules()
            .spec
            .sides
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    /// The names of the kinds of piece (kind 0 first).
    #[getter]
    fn pieces(&self) -> Vec<String> {
        self.rules()
            .spec
            .pieces
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// The board's width and height in squares.
    #[getter]
    fn board_size(&self) -> (u8, u8) {
        (self.rules().geo.width, self.rules().geo.height)
    }

    /// The playable squares' names in numbering order: `squares[i]` is square index `i`, the
    /// index every `Move` attribute and the environments' action encoding use (square number
    /// `i + 1` on a numbered board).
    #[getter]
    fn squares(&self) -> Vec<String> {
        let geo = &self.rules().geo;
        geo.numbered.iter().map(|&sq| geo.name(sq)).collect()
    }

    /// `(file, rank)` of each square index, from 0 (file `a`, the first side's home rank).
    #[getter]
    fn coordinates(&self) -> Vec<(u8, u8)> {
        let geo = &self.rules().geo;
        geo.numbered.iter().map(|&sq| geo.coord(sq)).collect()
    }

    /// The rules in plain English (`damelab rules`).
    fn describe(&self) -> String {
        damelab::describe::describe(self.rules())
    }

    /// The start position.
    fn start(slf: Bound<'_, Self>) -> Position {
        let pos = slf.get().rules().start;
        Position::new(slf.unbind(), pos)
    }

    /// A position from its FEN (`W:W31,32:B1,2`); a text that does not parse raises
    /// `FenError` naming the offending part.
    fn position(slf: Bound<'_, Self>, fen: &str) -> PyResult<Position> {
        let pos = parse_fen(slf.get().rules(), fen).map_err(|e| raise::<FenError>(e.as_ref()))?;
        Ok(Position::new(slf.unbind(), pos))
    }

    fn __repr__(&self) -> String {
        match &self.source {
            Some(s) => format!("Variant.load({s:?})"),
            None => format!("<Variant {} (from text)>", self.inner.name()),
        }
    }
}

/// The bundled variants' names.
#[pyfunction]
pub fn bundled() -> Vec<&'static str> {
    damelab::variants::BUNDLED.iter().map(|(n, _)| *n).collect()
}
