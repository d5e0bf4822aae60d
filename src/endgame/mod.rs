//! Endgame tables: exact values of every position with few pieces, for any rules file.
//!
//! # Method
//!
//! A *material* ([`Material`]) says how many pieces of each kind each side has (`KK v K`). Its table
//! holds one value for every placement of those pieces on the playable squares and each side to
//! move: won in `d` plies, lost in `d` plies, or drawn, for the side to move.
//!
//! **Index** ([`index`]). Pieces of the same side and kind form a group; group after group chooses
//! its squares among those the earlier groups left free, ranked by the combinatorial number system,
//! and the group ranks combine in mixed radix. The index is perfect (every number is a placement).
//! No symmetry is used: many rules files break the board's mirror symmetry (promotion squares named
//! one by one, the side to move's direction, set-up-dependent zones), and checking which symmetry a
//! file keeps is not worth the factor of two it would save. A piece standing where it would have been
//! promoted is an illegal placement: it keeps its number, is marked illegal and counted nowhere.
//!
//! **Order.** A capture removes pieces and a promotion changes a piece's kind: both lead to another
//! material. The materials a root can reach (a superset: any one piece removed, any one piece
//! promoted as its rules allow, repeatedly) are solved first, smallest first (depth-first order of
//! that graph; a promotion cycle is refused).
//!
//! **Retrograde analysis** ([`solve`]). One forward pass runs the move generator on every position:
//! the game-end rules of the file decide the terminal ones (no move, a lone king against a lone man,
//! a side without its required kind: whatever the file says), moves that keep the material are
//! counted, and moves that leave it (captures, promotions, with every rule of the capture search:
//! end-of-turn removal, the 180° ban, ranks, promotion mid-capture) are looked up in the solved
//! smaller tables. Then level by level: the positions resolved at distance `n-1` are taken back one
//! quiet move. Candidate predecessors are made by moving each piece of the side that just moved back
//! along the directions its kind moves in; each is kept only when the forward generator, run on the
//! candidate, produces that very move (so compulsory capture, blocked slides and the material rules
//! are honoured without a separate backward rule set). A predecessor of a lost position is won at
//! `n`; a predecessor of a won position has one move fewer left to refute, and when none is left it
//! is lost at `n`. Exits into smaller tables enter at the level their distance decides. Positions
//! never resolved are draws: each side can avoid losing for ever, so the game ends by repetition.
//!
//! **Columns** ([`columns`], `graph`). Under `take top` no piece leaves the board (a capture puts
//! the jumped column's top under the capturer): a material is every piece, tops and prisoners, and
//! a position an arrangement of them into columns, indexed by the columns' squares, the word of
//! the pieces read column after column and where it is cut ([`columns::Columns`]). Only
//! promotions lead to other materials, solved first. Captures stay inside the table and are not
//! un-made: pass 0 keeps every move that stays in the material as an edge, the edges turned
//! around are each position's predecessors, and the levels run as above over them.
//!
//! **What the tables ignore.** Move-count rules (a limit on quiet moves in a row, a counter of moves
//! without capture) are not part of a table's position: every table position is taken with fresh
//! counters, so in variants with such rules the values are those of the game without them.
//!
//! **Storage** ([`store`]): two bytes a position, one file a material in the cache directory
//! (`--cache DIR`, else `$DAMELAB_CACHE`, else `$XDG_CACHE_HOME/damelab`, else
//! `~/.cache/damelab`), with a header (magic, format, the index's layout — single pieces or
//! columns —, rules hash, material, size, checksum): a file that does not match is rebuilt, never
//! trusted.

mod build;
pub mod columns;
mod graph;
pub mod index;
pub mod material;
pub mod probe;
pub mod report;
pub mod solve;
pub mod store;
pub mod value;

pub use material::Material;
pub use solve::{Options, Solved, Table, Tables};
pub use value::Value;

/// The memory an endgame build may use unless told otherwise: 1.5 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1536 << 20;

use miette::Diagnostic;

/// Why an endgame table cannot be built.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum EndgameError {
    #[error("endgame tables do not handle huffing ({variant})")]
    #[diagnostic(help(
        "a position under huffing also carries the pieces open to a huff, which the tables do \
         not index; search such endgames with `damelab analyse`, or play them out by self-play"
    ))]
    Huffing { variant: String },
    #[error("endgame tables of columns (`take top`, {variant}) do not take `{material}`: {why}")]
    #[diagnostic(help(
        "under `take top` no piece leaves the board, so a table of columns holds every \
         arrangement of all the material's pieces into columns; give fewer pieces, or search \
         such endgames with `damelab analyse`, or play them out by self-play"
    ))]
    Stacks {
        variant: String,
        material: String,
        why: String,
    },
    #[error("endgame tables do not handle a declared single combat ({variant})")]
    #[diagnostic(help(
        "a position of two lone pieces also carries whether a combat was declared, which the \
         tables do not index; search such endgames with `damelab analyse`, or play them out by \
         self-play"
    ))]
    Combat { variant: String },
    #[error("cannot read the material `{text}`")]
    #[diagnostic(help(
        "write the first side's pieces, `v`, then the second side's, with the piece letters \
         {letters}: e.g. `KK v K`; `-` for a side without pieces"
    ))]
    Syntax { text: String, letters: String },
    #[error("unknown piece letter `{letter}` in `{text}`")]
    #[diagnostic(help("the pieces of {variant} are {letters}"))]
    UnknownLetter {
        letter: char,
        text: String,
        variant: String,
        letters: String,
    },
    #[error("the material `{0}` has no pieces")]
    #[diagnostic(help("give at least one piece, e.g. `K v K`"))]
    NoPieces(String),
    #[error(
        "the material `{material}` has {pieces} pieces but the board has only {squares} squares"
    )]
    #[diagnostic(help("give fewer pieces"))]
    TooManyPieces {
        material: String,
        pieces: u32,
        squares: u32,
    },
    #[error("the tables for `{material}` would need about {bytes} ({positions} positions)")]
    #[diagnostic(help("the limit is {max}; raise it with `--max-memory`, or give fewer pieces"))]
    TooLarge {
        material: String,
        positions: String,
        bytes: String,
        max: String,
    },
    #[error("the tables for `{material}` are too large to build: {why}")]
    #[diagnostic(help(
        "give fewer pieces (the tables of a material include those of every material its \
         captures and promotions lead to)"
    ))]
    TableTooLarge { material: String, why: String },
    #[error(
        "endgame tables need a board of at most {max} playable squares; this one has {squares}"
    )]
    #[diagnostic(help(
        "tables are built for boards up to 16x16 of dark squares (128 playable squares)"
    ))]
    BoardTooLarge { squares: u32, max: u32 },
    #[error("the promotions of `{0}` form a cycle: the tables cannot be ordered")]
    Cycle(String),
    #[error("a win in `{0}` is longer than a table can store")]
    TooDeep(String),
    #[error("interrupted: the tables finished so far are kept in the cache")]
    Interrupted,
    #[error("internal error while building the tables")]
    #[diagnostic(help("please report this with the rules file and the material"))]
    Internal,
    #[error("`{0}` is not a memory size")]
    #[diagnostic(help("give a size such as `1500M`, `2G` or `800000K`"))]
    MemorySize(String),
    #[error("`--max-memory {0}` is below the smallest limit, 1 MiB")]
    #[diagnostic(help("give at least `1M`, e.g. `1500M` or `2G`"))]
    MemoryTooSmall(String),
    #[error("`--max-memory {0}` is larger than any machine's memory (16 EiB at most)")]
    #[diagnostic(help("give a size such as `1500M`, `2G` or `64G`"))]
    MemoryTooLarge(String),
}

/// `1500M`, `2G`, `64K`, or plain bytes: at least 1 MiB, at most what a 64-bit count holds.
pub fn parse_memory(text: &str) -> Result<u64, EndgameError> {
    let t = text.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: u64 = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(EndgameError::MemorySize(text.into())),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    let n: f64 = num
        .trim_end_matches(['i', 'B'])
        .parse()
        .map_err(|_| EndgameError::MemorySize(text.into()))?;
    if n.is_nan() || n <= 0.0 || !n.is_finite() {
        return Err(EndgameError::MemorySize(text.into()));
    }
    let bytes = n * mult as f64;
    // u64::MAX as f64 rounds up to 2^64: anything from there on does not fit.
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(EndgameError::MemoryTooLarge(text.into()));
    }
    let bytes = bytes as u64;
    if bytes < crate::limits::MIN_MAX_MEMORY {
        return Err(EndgameError::MemoryTooSmall(text.into()));
    }
    Ok(bytes)
}
