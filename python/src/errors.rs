//! The exceptions, and library diagnostics turned into them: the message is the diagnostic as
//! the command line renders it (no colour); `line` and `column` (from 1) are where its first
//! label points, when it points into a text.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, SourceCode};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::PyTypeInfo;

create_exception!(
    damelab,
    DamelabError,
    PyException,
    "Every error damelab raises: its message is the library's diagnostic, rendered."
);
create_exception!(
    damelab,
    RulesError,
    DamelabError,
    "A rules file that does not load: `text` is the checker's full diagnostic, `line` and \
     `column` (from 1) where its first error points."
);
create_exception!(
    damelab,
    FenError,
    DamelabError,
    "A position text (FEN) that does not parse: the message names the offending part."
);
create_exception!(
    damelab,
    IllegalMoveError,
    DamelabError,
    "A move that is not legal here: the message is the `explain` text (why not)."
);

/// A diagnostic as the command line prints it, without colour.
pub fn render(d: &dyn Diagnostic) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_links(false);
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        out = format!("error: {d}\n");
    }
    out
}

/// Line and column (from 1) of the first label of `d` or of its first related diagnostic, in
/// `d`'s source (related diagnostics share their parent's).
fn location(d: &dyn Diagnostic, parent: Option<&dyn SourceCode>) -> Option<(usize, usize)> {
    let src = d.source_code().or(parent);
    if let (Some(src), Some(mut labels)) = (src, d.labels()) {
        if let Some(l) = labels.next() {
            if let Ok(c) = src.read_span(l.inner(), 0, 0) {
                return Some((c.line() + 1, c.column() + 1));
            }
        }
    }
    d.related()?.find_map(|r| location(r, src))
}

/// The exception `E` for a diagnostic, with `text`, `message`, `line` and `column` set.
pub fn raise<E: PyTypeInfo>(d: &dyn Diagnostic) -> PyErr {
    let text = render(d);
    let err = PyErr::new::<E, _>(text.clone());
    let (line, column) = location(d, None).unzip();
    Python::attach(|py| {
        let v = err.value(py);
        // Attributes of a fresh exception instance: setting them cannot fail in practice, and
        // the message carries the same text if it did.
        let _ = v.setattr("text", text);
        let _ = v.setattr("message", d.to_string());
        let _ = v.setattr("line", line);
        let _ = v.setattr("column", column);
    });
    err
}

/// A plain message (the library's `String` errors) as `E`.
pub fn plain<E: PyTypeInfo>(message: impl Into<String>) -> PyErr {
    PyErr::new::<E, _>(message.into())
}

/// A `miette::Report` (the command line's functions return them) as [`DamelabError`].
pub fn report(r: miette::Report) -> PyErr {
    raise::<DamelabError>(r.as_ref())
}
