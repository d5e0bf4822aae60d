//! The rules language: text → syntax tree with spans → checked [`crate::spec::VariantSpec`].
//! (Placeholder until the language lands.)

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("the rules language is not built yet")]
pub struct RulesError;

pub fn load(
    _file_name: &str,
    _default_name: &str,
    _source: &str,
) -> Result<crate::spec::VariantSpec, RulesError> {
    Err(RulesError)
}
