//! `damelab._damelab`: the Python binding of damelab, a thin layer over the library's public API
//! (docs/python.md). Every rule, notation, search and report is the library's; this crate only
//! converts values and errors between Rust and Python, and lets go of the interpreter lock
//! (`Python::detach`) around the bulk calls (perft, search, self-play, endgame tables).
//!
//! Errors: a library diagnostic becomes a [`DamelabError`] (or one of its subclasses) whose
//! message is the diagnostic as the command line renders it, without colour; a Rust panic
//! becomes PyO3's `PanicException` (the interpreter goes on).

mod errors;
mod pdn;
mod play;
mod position;
mod variant;

use pyo3::prelude::*;

pub use errors::{DamelabError, FenError, IllegalMoveError, RulesError};
pub use position::{Move, Position};
pub use variant::Variant;

#[pymodule]
fn _damelab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DamelabError", py.get_type::<DamelabError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add_class::<Variant>()?;
    m.add_class::<Position>()?;
    m.add_class::<Move>()?;
    m.add_class::<position::GameResult>()?;
    m.add_class::<pdn::Game>()?;
    m.add_class::<pdn::Variation>()?;
    m.add_class::<play::Analysis>()?;
    m.add_function(wrap_pyfunction!(pdn::read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::write_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(play::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(play::analyse_many, m)?)?;
    m.add_function(wrap_pyfunction!(play::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(play::endgame, m)?)?;
    m.add_function(wrap_pyfunction!(play::probe, m)?)?;
    m.add_function(wrap_pyfunction!(variant::bundled, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
