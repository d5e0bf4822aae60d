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

/// The `GameType` numbers of the PDN standard.
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
];

/// A bundled variant's name and the board size an extended `GameType` gives.
pub type NamedBoard = (&'static str, Option<(u8, u8)>);

/// The bundled variant a `GameType` value names, checking the board of the extended form against
/// it (`width`/`height` of the loaded rules are checked by the caller through `board`).
/// Returns (variant name, optional (width, height) of the extended form).
pub fn parse_game_type(value: &str) -> Result<NamedBoard, String> {
    let fields: Vec<&str> = value.split(',').map(str::trim).collect();
    let code: u32 = fields[0].parse().map_err(|_| {
        format!("GameType `{value}` is not a number (e.g. `20` for international draughts)")
    })?;
    let Some(t) = GAME_TYPES.iter().find(|t| t.code == code) else {
        return Err(format!(
            "GameType `{code}` is not a draughts variant damelab knows (known: {})",
            known()
        ));
    };
    let Some(v) = t.variant else {
        return Err(format!(
            "GameType `{code}` ({}) is not a bundled variant; give one with --variant",
            t.name
        ));
    };
    let board = if fields.len() >= 4 {
        let w = fields[2].parse::<u8>();
        let h = fields[3].parse::<u8>();
        match (w, h) {
            (Ok(w), Ok(h)) => Some((w, h)),
            _ => {
                return Err(format!(
                    "GameType `{value}`: the board size `{},{}` is not two numbers",
                    fields[2], fields[3]
                ))
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
