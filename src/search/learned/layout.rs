//! The learned evaluation's layout: the pattern windows' shapes, each shape's windows on the
//! board, and where every group of features sits in the flat weight vector.

use super::{
    MAX_CELLS, MAX_SHAPES, MAX_WINDOWS, PHASE_BITS, RACE_DIST, RACE_MARGIN, RUN_DIST, WIDE,
    WIDE_CONFIGS,
};
use crate::engine::bits::BitSet;
use crate::engine::geometry::{BitIter, Sq, NONE};
use crate::engine::Rules;

/// The shape of the pattern windows: `along` squares in the first direction of a window (east,
/// or the first forward diagonal on dark-squares boards) by `across` in the second (north, or
/// the other forward diagonal). Each window has a table of its own of 3^(along x across)
/// configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Window {
    pub along: u8,
    pub across: u8,
}

impl Window {
    /// The four-square windows every layout had before shapes could be chosen.
    pub const SMALL: Window = Window {
        along: 2,
        across: 2,
    };

    /// The squares of a window.
    pub fn cells(self) -> usize {
        self.along as usize * self.across as usize
    }

    /// Its configurations: 3 states on each square.
    pub fn configs(self) -> usize {
        3usize.pow(self.cells() as u32)
    }

    /// `AxB`, as `train --window` and the layout line write it.
    pub fn parse(text: &str) -> Result<Window, ShapeError> {
        let bad = || ShapeError::Window(text.to_string());
        let (a, b) = text.split_once('x').ok_or_else(bad)?;
        let along: u8 = a.trim().parse().map_err(|_| bad())?;
        let across: u8 = b.trim().parse().map_err(|_| bad())?;
        let w = Window { along, across };
        if along == 0 || across == 0 || w.cells() > MAX_CELLS || w.cells() < 2 {
            return Err(bad());
        }
        Ok(w)
    }
}

/// A window shape, or shapes side by side, that `train --window` does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum ShapeError {
    #[error("window `{0}` is not two sizes like `2x4`, with 2 to {MAX_CELLS} squares in all")]
    Window(String),
    #[error("`{text}` has {count} window shapes; at most {MAX_SHAPES} go side by side")]
    TooMany { text: String, count: usize },
    #[error("`{text}` names the window shape {shape} twice")]
    Twice { text: String, shape: Window },
}

/// Window shapes side by side, as `train --window` and the layout line write them: `2x2`, or
/// several joined by `+` (`2x2+2x4`), each with windows and tables of its own.
pub fn parse_shapes(text: &str) -> Result<Vec<Window>, ShapeError> {
    let shapes = text
        .split('+')
        .map(Window::parse)
        .collect::<Result<Vec<_>, _>>()?;
    if shapes.len() > MAX_SHAPES {
        return Err(ShapeError::TooMany {
            text: text.to_string(),
            count: shapes.len(),
        });
    }
    if let Some(w) = shapes
        .iter()
        .enumerate()
        .find_map(|(i, w)| shapes[..i].contains(w).then_some(w))
    {
        return Err(ShapeError::Twice {
            text: text.to_string(),
            shape: *w,
        });
    }
    Ok(shapes)
}

/// Window shapes side by side, as `train --window` takes them ([`parse_shapes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shapes(pub Vec<Window>);

impl Shapes {
    /// `2x2`, `2x4`, or shapes joined by `+`.
    pub fn parse(text: &str) -> Result<Shapes, ShapeError> {
        parse_shapes(text).map(Shapes)
    }
}

/// Shapes as [`parse_shapes`] reads them.
pub fn shapes_text(shapes: &[Window]) -> String {
    let words: Vec<String> = shapes.iter().map(|w| w.to_string()).collect();
    words.join("+")
}

impl std::fmt::Display for Window {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.along, self.across)
    }
}

impl Default for Window {
    fn default() -> Window {
        Window::SMALL
    }
}

/// Where each group of features sits in the flat weight vector (the same for every width).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub kinds: usize,
    /// Square indices of the board (playable or not).
    pub squares: usize,
    /// The windows' shapes, side by side (one unless `train --window` named more).
    pub shapes: Vec<Window>,
    /// Each window's squares, in the order of their powers of 3: the first shape's windows, then
    /// the next shape's.
    pub windows: Vec<Vec<Sq>>,
    /// Per shape, its windows (a range of `windows`).
    pub groups: Vec<std::ops::Range<usize>>,
    /// Per window, where its table of configurations starts in the weights.
    pub tables: Vec<usize>,
    /// Each wide window's nine squares (none unless the layout has wide patterns).
    pub wide: Vec<[Sq; WIDE]>,
    pub pst: usize,
    pub mobility: usize,
    pub runaway: usize,
    pub tempo: usize,
    /// The race features (only in layouts that ask for them, `train --race`; each group empty
    /// otherwise): per (side, kind) the pieces' count, per side the free men, per side the
    /// tempi of its fastest free man (1 to [`RACE_DIST`]), and who queens first (the margin,
    /// −[`RACE_MARGIN`] to +[`RACE_MARGIN`]).
    pub race: bool,
    pub material: usize,
    pub free: usize,
    pub fastest: usize,
    pub margin: usize,
    pub patterns: usize,
    /// The ending's weights of the small features (`mobility..patterns`) of a race layout
    /// without phases: they start at `taper`, `tapered` of them (0 in other layouts).
    pub taper: usize,
    pub tapered: usize,
    /// The shared table of the wide windows' configurations (after the small windows).
    pub wide_table: usize,
    /// The number of weights.
    pub len: usize,
    /// Whether every feature has an opening and an ending weight (the ending's are the second
    /// half, `base` further on).
    pub phased: bool,
    /// The weights of one phase (`len` without phases).
    pub base: usize,
    /// Pieces on the board at the start: the phase is the share of them that has gone.
    pub start_pieces: u32,
}

impl Layout {
    /// The index of the first piece-square weight of `side`'s pieces of `kind` (one weight a
    /// square, in the board's order).
    #[inline(always)]
    pub fn pst_of(&self, side: usize, kind: usize) -> usize {
        self.pst + (side * self.kinds + kind) * self.squares
    }

    /// The layout of these rules without wide patterns.
    pub fn new<B: BitSet>(rules: &Rules<B>) -> Layout {
        Layout::with(rules, false)
    }

    /// The layout a weights file's `layout` line describes (wide patterns when it counts them,
    /// the window shapes it names; shapes out of range read as the small one, so that the
    /// line and the layout disagree and the file is refused).
    pub fn from_summary<B: BitSet>(rules: &Rules<B>, summary: &str) -> Layout {
        let wide = summary.split_whitespace().any(|w| w.starts_with("wide="));
        let phased = summary.split_whitespace().any(|w| w == "phases=2");
        let race = summary.split_whitespace().any(|w| w.starts_with("race="));
        let shapes = summary
            .split_whitespace()
            .find_map(|w| w.strip_prefix("window="))
            .and_then(|w| parse_shapes(w).ok())
            .unwrap_or_else(|| vec![Window::SMALL]);
        Layout::build(rules, &shapes, wide, phased).raced(race)
    }

    /// The layout of these rules, with or without the wide patterns' table (one phase).
    pub fn with<B: BitSet>(rules: &Rules<B>, wide_patterns: bool) -> Layout {
        Layout::shaped(rules, wide_patterns, false)
    }

    /// The layout of these rules, with or without the wide patterns' table, with one set of
    /// weights or one for the opening and one for the ending.
    pub fn shaped<B: BitSet>(rules: &Rules<B>, wide_patterns: bool, phased: bool) -> Layout {
        Layout::build(rules, &[Window::SMALL], wide_patterns, phased)
    }

    /// The layout of these rules with windows of these shapes side by side (none: the small
    /// one), with or without the wide patterns' table, with one set of weights or two (opening
    /// and ending).
    pub fn build<B: BitSet>(
        rules: &Rules<B>,
        shapes: &[Window],
        wide_patterns: bool,
        phased: bool,
    ) -> Layout {
        let geo = &rules.geo;
        let kinds = rules.kinds;
        let squares = geo.size() as usize;
        // Two directions spanning a window: on dark squares the two forward diagonals (their sum
        // is one orthogonal step of two squares), otherwise east and north.
        let (d1, d2) = if geo.packed { (1, 7) } else { (2, 0) };
        let next = |d: usize, s: u16| {
            if s == NONE {
                NONE
            } else {
                geo.next[d][s as usize]
            }
        };
        let shapes = if shapes.is_empty() {
            vec![Window::SMALL]
        } else {
            shapes.to_vec()
        };
        let mut windows = Vec::new();
        let mut groups = Vec::new();
        for window in &shapes {
            let first = windows.len();
            'window: for s in BitIter(geo.playable) {
                // Row by row along the second direction, each row along the first; for the small
                // shape: the square, its step along, its step across, and the step across that.
                let mut cells = Vec::with_capacity(window.cells());
                let mut row = s as u16;
                for j in 0..window.across {
                    let mut at = row;
                    for _ in 0..window.along {
                        if at == NONE {
                            continue 'window;
                        }
                        cells.push(at as Sq);
                        at = next(d1, at);
                    }
                    if j + 1 < window.across {
                        row = next(d2, row);
                    }
                }
                if windows.len() < MAX_WINDOWS {
                    windows.push(cells);
                }
            }
            groups.push(first..windows.len());
        }
        let mut wide = Vec::new();
        if wide_patterns {
            'square: for s in BitIter(geo.playable) {
                let mut win = [0 as Sq; WIDE];
                let mut row = s as u16;
                for j in 0..3 {
                    let mut at = row;
                    for i in 0..3 {
                        if at == NONE {
                            continue 'square;
                        }
                        win[j * 3 + i] = at as Sq;
                        at = if i < 2 { next(d1, at) } else { at };
                    }
                    row = if j < 2 { next(d2, row) } else { row };
                }
                if wide.len() < MAX_WINDOWS {
                    wide.push(win);
                }
            }
        }
        let pst = 0;
        let mobility = pst + 2 * kinds * squares;
        let runaway = mobility + 2 * kinds;
        let tempo = runaway + 2 * RUN_DIST;
        let material = tempo + 1;
        let patterns = material;
        let mut tables = Vec::with_capacity(windows.len());
        let mut at = patterns;
        for win in &windows {
            tables.push(at);
            at += 3usize.pow(win.len() as u32);
        }
        let wide_table = at;
        let base = wide_table + if wide.is_empty() { 0 } else { WIDE_CONFIGS };
        let len = if phased { 2 * base } else { base };
        Layout {
            kinds,
            squares,
            shapes,
            windows,
            groups,
            tables,
            wide,
            pst,
            mobility,
            runaway,
            tempo,
            race: false,
            material,
            free: material,
            fastest: material,
            margin: material,
            patterns,
            taper: len,
            tapered: 0,
            wide_table,
            len,
            phased,
            base,
            start_pieces: rules.start.occupied().count(),
        }
    }

    /// The same layout with the race features (`race`), and, without phases, an ending's weight
    /// for each small feature (tapered by the phase); the same layout when `race` is false.
    pub fn raced(self, race: bool) -> Layout {
        if !race || self.race {
            return self;
        }
        let kinds = self.kinds;
        let material = self.tempo + 1;
        let free = material + 2 * kinds;
        let fastest = free + 2;
        let margin = fastest + 2 * RACE_DIST;
        let patterns = margin + 2 * RACE_MARGIN + 1;
        let added = patterns - self.patterns;
        let shift = |at: usize| at + added;
        let tables = self.tables.iter().map(|&t| shift(t)).collect();
        let (wide_table, base) = (shift(self.wide_table), shift(self.base));
        let (len, taper, tapered) = if self.phased {
            (2 * base, 2 * base, 0)
        } else {
            (
                base + patterns - self.mobility,
                base,
                patterns - self.mobility,
            )
        };
        Layout {
            race: true,
            material,
            free,
            fastest,
            margin,
            patterns,
            tables,
            wide_table,
            base,
            len,
            taper,
            tapered,
            ..self
        }
    }

    /// How many bits larger than the features' values a training row's values are: the blend of
    /// an opening's and an ending's weight by [`super::PHASES`] steps, where the layout has one.
    pub fn row_shift(&self) -> u32 {
        if self.phased || self.tapered > 0 {
            PHASE_BITS
        } else {
            0
        }
    }

    /// A one-line summary, as the weights file's header gives it.
    pub fn summary(&self) -> String {
        let wide = if self.wide.is_empty() {
            String::new()
        } else {
            format!(" wide={}", self.wide.len())
        };
        let phases = if self.phased { " phases=2" } else { "" };
        let race = if self.race {
            format!(" race={RACE_DIST}")
        } else {
            String::new()
        };
        let shape = if self.shapes == [Window::SMALL] {
            String::new()
        } else {
            format!(" window={}", shapes_text(&self.shapes))
        };
        format!(
            "kinds={} squares={}{shape} windows={}{wide}{phases}{race} weights={}",
            self.kinds,
            self.squares,
            self.windows.len(),
            self.len
        )
    }
}
