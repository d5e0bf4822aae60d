//! The rules language: text → syntax tree with spans → checked [`crate::spec::VariantSpec`].
//!
//! The grammar is `grammar/rules.pest`; `variants/*.rules` are complete examples. Statements:
//!
//! ```text
//! variant "Dameo"
//! board 8x8, all squares, algebraic      # or `dark squares`, optionally `a1 light`; or `numbered`
//! board 9x9, all points, alquerque lines # or `board hexagon 5`; `without a1..b2` leaves points out
//! sides white "W", black "B"; white moves first; forward is straight
//! piece man "M"                          # optionally `rank N` then `value N`
//! setup white man a1..h1, b2..g2; white king d4
//! man: step forward, forward-diagonal
//!      leap over own men forward         # `leap over one own piece orthogonal`: a single leap
//!      capture jump orthogonal           # `capture fly …`: long jumps
//!      promote to king on far rank       # or `on start of enemy dama`, or `on e8, f8`
//!      at most 3 quiet moves in a row while own men remain   # Frisian kings
//! captures: compulsory, removed at end of turn, priority most pieces
//! game: no moves loses, lone king beats lone man, no damone loses, draw on 3rd repetition
//! ```
//!
//! The vocabulary, clause by clause:
//! - directions, relative to the mover (the first side's `forward` is north, or north-east with
//!   `forward is diagonal`): `forward`, `backward`, `sideways`, `forward-diagonal`,
//!   `backward-diagonal`, `orthogonal`, `diagonal`, `all`; and the absolute compass `north`,
//!   `north-east`, … `north-west` as the first side sees the board;
//! - pieces are referred to by name or plural (`kings`, `men`); `piece`/`pieces` means every kind
//!   where a set is meant (`leap over own pieces`);
//! - squares: `a1`, rectangles `a1..h3` (playable squares only), and on `numbered` boards also
//!   numbers and number ranges `31..50`;
//! - `captures:` takes `compulsory` | `optional`, `removed immediately` | `removed at end of turn`,
//!   `no 180 turn`, `only equal or lower rank`, `promotion mid-capture continues` |
//!   `promotion mid-capture stops` | `promotion at end of move`, and `priority` followed by criteria:
//!   `free`, `most pieces`, `most value`, `highest capturer`, `highest captured ranks`,
//!   `most <piece>`, `earliest <piece>`;
//! - `game:` takes `no moves loses` | `no moves wins`, `lone <piece> beats lone <piece>`,
//!   `no <piece> loses`, `first <piece> wins`, `reaching <zone> wins`, `draw on <n>th repetition`,
//!   `no repetition draw`.
//!
//! Side and piece letters are single uppercase letters, all different (FEN reads them together).
//!
//! On a `dark squares` board an orthogonal direction reaches the dark square two squares away, over
//! the light one between (Frisian draughts' orthogonal captures). That is allowed for captures only:
//! a `step`, `slide` or `leap` in an orthogonal direction is an error (`rules::orthogonal_quiet_move`)
//! — with `forward is straight` this includes `forward`, `backward` and `sideways`, so dark-square
//! men step `forward-diagonal`. A setup may not put a piece on a light square, written or turned
//! (`rules::not_playable`, `rules::turned_onto_light`: turning through 180° swaps the colours on a
//! board whose width plus height is odd). With `forward is diagonal` the sides play corner to
//! corner and no rank lies ahead: `promote … on far rank` is an error there (name the squares).
//!
//! Defaults, for what a file leaves out:
//! - `board`: `algebraic` notation; on `dark squares`, `a1` is dark.
//! - `sides`: the first declared side moves first; `forward is straight` (north).
//! - `setup`: a side with no setup line gets the other side's turned through 180°.
//! - `piece`: rank 1, value 1; a piece without a moves section cannot move.
//! - `captures:` compulsory, removed at end of turn, no 180° rule, any rank may be taken, promotion
//!   only at the end of the move, free choice among the complete capture sequences (capture is
//!   compulsory in almost every draughts game; the other choices are the classic draughts defaults
//!   and the weakest priority). `docs/language.md` is the user's reference.
//! - `game:` no legal move loses, draw on the third repetition.

mod ast;
mod check;
mod error;
mod parser;

pub use error::{RuleError, RuleWarning, RulesError, RulesWarnings};

use crate::spec::VariantSpec;

/// Parse and check a rules file. `file_name` is used in diagnostics; `default_name` is the variant's
/// short name (e.g. from the file stem) — used as `spec.name`.
///
/// ```
/// let text = r#"
///     variant "Tiny"
///     board 4x4, all squares, algebraic
///     sides white "W", black "B"
///     piece man "M"
///     setup white man a1..d1
///     man: step forward; capture jump forward
/// "#;
/// let spec = damelab::lang::load("tiny.rules", "tiny", text).unwrap();
/// assert_eq!(spec.setup[1].len(), 4);
/// ```
pub fn load(file_name: &str, default_name: &str, source: &str) -> Result<VariantSpec, RulesError> {
    load_with_warnings(file_name, default_name, source).map(|(spec, _)| spec)
}

/// [`load`], and the warnings of a file that loads (`None` when it has none): rules that are valid
/// but probably not what was meant, such as a piece no side can ever have.
///
/// ```
/// let text = r#"
///     variant "Tiny"
///     board 4x4, all squares, algebraic
///     sides white "W", black "B"
///     piece man "M"
///     piece king "K"
///     setup white man a1..d1
///     man: step forward; capture jump forward
/// "#;
/// let (_, warnings) = damelab::lang::load_with_warnings("tiny.rules", "tiny", text).unwrap();
/// let warnings = warnings.expect("no promotion makes a king");
/// assert_eq!(warnings.warnings().len(), 1);
/// ```
pub fn load_with_warnings(
    file_name: &str,
    default_name: &str,
    source: &str,
) -> Result<(VariantSpec, Option<RulesWarnings>), RulesError> {
    let file = parser::parse(source).map_err(|e| RulesError::new(file_name, source, e))?;
    let spec = check::check(&file, source, default_name)
        .map_err(|errors| RulesError::new(file_name, source, errors))?;
    let warnings = check::warnings(&file, &spec);
    let warnings = (!warnings.is_empty()).then(|| RulesWarnings::new(file_name, source, warnings));
    Ok((spec, warnings))
}
