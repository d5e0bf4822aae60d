//! The rules language: text → syntax tree with spans → checked [`crate::spec::VariantSpec`].
