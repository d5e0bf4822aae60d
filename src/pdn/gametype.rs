//! The `GameType` tag: a number per draughts variant, optionally followed by the board's
//! description (`20,W,10,10,N2,0`: first mover, width, height, notation, orientation).

/// A `GameType` number, its name, and the bundled variant that plays it (if any).
pub struct GameType {
    pub code: u32,
    pub name: &'static str,
    pub variant: Option<&'static str>,
}

const fn gt(code: u32, name: &'static str, variant: Option<&'static str>) -> GameType {
    GameType {
        code,
        name,
        variant,
    }
}

/// The `GameType` numbers of the PDN standard, then those Lidraughts uses for its own variants.
pub const GAME_TYPES: &[GameType] = &[
    gt(20, "international draughts", Some("international")),
    gt(21, "English draughts (checkers)", Some("english")),
    gt(22, "Italian draughts", Some("italian")),
    gt(23, "American pool checkers", Some("pool")),
    gt(24, "Spanish draughts", Some("spanish")),
    gt(25, "Russian draughts", Some("russian")),
    gt(26, "Brazilian draughts", Some("brazilian")),
    gt(27, "Canadian draughts", Some("canadian")),
    gt(28, "Portuguese draughts", None),
    gt(29, "Czech draughts", Some("czech")),
    gt(30, "Turkish draughts", Some("turkish")),
    gt(31, "Thai draughts", None),
    gt(40, "Frisian draughts", Some("frisian")),
    gt(41, "Spantsiretti", None),
    // Not the PDN standard's: the numbers Lidraughts gives its own variants, read and written so
    // that its games open and ours import there.
    gt(96, "Breakthrough (Lidraughts)", Some("breakthrough")),
    gt(97, "Frysk! (Lidraughts)", Some("frysk")),
    gt(98, "Antidraughts (Lidraughts)", Some("antidraughts")),
];

/// A bundled variant's name and the board size an extended `GameType` gives.
pub type NamedBoard = (&'static str, Option<(u8, u8)>);

/// Why a `GameType` value names no bundled variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum GameTypeError {
    #[error("GameType `{0}` is not a number (e.g. `20` for international draughts)")]
    NotANumber(String),
    #[error(
        "GameType `{code}` is not a draughts variant damelab knows (known: {})",
        known()
    )]
    Unknown { code: u32 },
    #[error("GameType `{code}` ({name}) is not a bundled variant; give one with --variant")]
    NotBundled { code: u32, name: &'static str },
    #[error("GameType `{value}`: the board size `{width},{height}` is not two numbers")]
    Board {
        value: String,
        width: String,
        height: String,
    },
}

/// The bundled variant a `GameType` value names, checking the board of the extended form against
/// it (`width`/`height` of the loaded rules are checked by the caller through `board`).
/// Returns (variant name, optional (width, height) of the extended form).
pub fn parse_game_type(value: &str) -> Result<NamedBoard, GameTypeError> {
    let fields: Vec<&str> = value.split(',').map(str::trim).collect();
    let code: u32 = fields[0]
        .parse()
        .map_err(|_| GameTypeError::NotANumber(value.to_string()))?;
    let Some(t) = GAME_TYPES.iter().find(|t| t.code == code) else {
        return Err(GameTypeError::Unknown { code });
    };
    let Some(v) = t.variant else {
        return Err(GameTypeError::NotBundled { code, name: t.name });
    };
    let board = if fields.len() >= 4 {
        let w = fields[2].parse::<u8>();
        let h = fields[3].parse::<u8>();
        match (w, h) {
            (Ok(w), Ok(h)) => Some((w, h)),
            _ => {
                return Err(GameTypeError::Board {
                    value: value.to_string(),
                    width: fields[2].to_string(),
                    height: fields[3].to_string(),
                })
            }
        }
    } else {
        None
    };
    Ok((v, board))
}

fn known() -> String {
    GAME_TYPES
        .iter()
        .filter(|t| t.variant.is_some())
        .map(|t| format!("{} {}", t.code, t.variant.unwrap_or_default()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `GameType` number to write for a loaded variant (by the name it was loaded under).
pub fn game_type_of(variant_name: &str) -> Option<u32> {
    GAME_TYPES
        .iter()
        .find(|t| t.variant == Some(variant_name))
        .map(|t| t.code)
}
