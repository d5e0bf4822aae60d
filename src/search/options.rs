//! Named search options, set from text by every front end that runs the engine (the engine
//! settings of `damelab match`, `analyse --option`, the Hub protocol's parameters), so one name
//! means one switch everywhere.

/// The switches of the search. `Default` is the engine as it plays unless told otherwise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {}

impl Options {
    /// The names [`Options::set`] accepts, each with a line of help.
    pub const NAMES: &'static [(&'static str, &'static str)] = &[];

    /// Set option `name` from its text `value`; an unknown name or a bad value is an error that
    /// says what is accepted.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        let known: Vec<&str> = Self::NAMES.iter().map(|(n, _)| *n).collect();
        if known.is_empty() {
            Err(format!(
                "unknown search option `{name}`: the search has no options"
            ))
        } else {
            Err(format!(
                "unknown search option `{name}`: the options are {}",
                known.join(", ")
            ))
        }
    }
}
