//! The bundled variants, embedded in the binary so damelab works from any directory.

/// (name, rules file text) of every bundled variant, in the order `damelab list` prints them.
pub const BUNDLED: &[(&str, &str)] = &[
    ("dameo", include_str!("../variants/dameo.rules")),
    ("turkish", include_str!("../variants/turkish.rules")),
];

/// The variant `damelab` opens when none is named.
pub const DEFAULT: &str = "dameo";

/// The text of a bundled variant's rules file.
pub fn bundled(name: &str) -> Option<&'static str> {
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
