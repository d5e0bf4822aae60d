//! `Position` (a game from a position: its moves can be taken back, repetition counts) and
//! `Move`, in the manner of python-chess's `Board` and `Move`.

use crate::errors::{plain, raise, DamelabError, FenError, IllegalMoveError};
use crate::variant::Variant;
use damelab::engine::bits::BitIter;
use damelab::engine::BitSet;
use damelab::engine::{GenOptions, PerftLimits, Rules, Sq};
use damelab::notation::{move_to_string, parse_fen, parse_move, to_fen};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// The index of a square: its place in the board's numbering, from 0 (`Variant.squares`).
fn index(rules: &Rules, sq: Sq) -> usize {
    rules.geo.number[sq as usize] as usize - 1
}

/// A legal move. `str(move)` is its text as `damelab moves` prints it (`32-28`, `c3xe5xc7`).
#[pyclass(frozen, module = "damelab")]
pub struct Move {
    pub mv: damelab::Move,
    pub rules: Arc<Rules>,
}

#[pymethods]
impl Move {
    /// The square index the piece leaves (`from_square`, as python-chess names it).
    #[getter(from_square)]
    fn origin(&self) -> usize {
        index(&self.rules, self.mv.from)
    }

    /// The square index the piece ends on.
    #[getter]
    fn to_square(&self) -> usize {
        index(&self.rules, self.mv.to)
    }

    /// The landing squares after the origin, in order (the last is `to_square`).
    #[getter]
    fn path(&self) -> Vec<usize> {
        self.mv
            .route()
            .iter()
            .map(|&s| index(&self.rules, s))
            .collect()
    }

    /// The captured squares' indices, ascending.
    #[getter]
    fn captured(&self) -> Vec<usize> {
        let mut v: Vec<usize> = BitIter(self.mv.captured)
            .map(|s| index(&self.rules, s))
            .collect();
        v.sort_unstable();
        v
    }

    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// The kind of piece that moves, and the kind it ends as (they differ on promotion).
    #[getter]
    fn kind_before(&self) -> u8 {
        self.mv.kind_before
    }

    #[getter]
    fn kind_after(&self) -> u8 {
        self.mv.kind_after
    }

    fn __str__(&self) -> String {
        move_to_string(&self.rules, &self.mv)
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", move_to_string(&self.rules, &self.mv))
    }

    /// Moves are equal when they are the same move (origin, destination, captured squares, the
    /// piece they end as; docs/notation.md), whatever the route written.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Move>()
            .is_ok_and(|o| self.mv.same_move(&o.get().mv))
    }

    fn __hash__(&self) -> u64 {
        let m = &self.mv;
        let c = m.captured.halves();
        damelab::util::Fnv::default()
            .write(&[m.from, m.to, m.kind_after])
            .write(&c.0.to_le_bytes())
            .write(&c.1.to_le_bytes())
            .finish()
    }
}

/// The end of a game, or its state while it goes on.
#[pyclass(frozen, module = "damelab", get_all)]
pub struct GameResult {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on (PDN's result tokens).
    pub token: &'static str,
    /// The winning side (0 or 1), `None` for a draw or while the game goes on.
    pub winner: Option<usize>,
    /// Whether the game is over.
    pub over: bool,
    /// The reason in words: `white wins: black has no legal move`, `draw: …`, `white to move`.
    pub reason: String,
}

#[pymethods]
impl GameResult {
    fn __str__(&self) -> &'static str {
        self.token
    }

    fn __repr__(&self) -> String {
        format!("GameResult({:?}, {:?})", self.token, self.reason)
    }
}

/// A position and the moves that led to it from where it was set up: moves are pushed and
/// popped, and repetition and the move-count rules see the whole history.
#[pyclass(module = "damelab")]
pub struct Position {
    pub variant: Py<Variant>,
    pub game: damelab::Game,
    /// Per position of the game (the start, then after each move), its legal moves once asked
    /// for, and their Python objects once handed out: `pop` finds them again.
    legal: Vec<Option<Legal>>,
}

/// A position's legal moves, and the `Move` objects `legal_moves` returned for them.
struct Legal {
    moves: Vec<damelab::Move>,
    objects: Option<Vec<Py<Move>>>,
}

impl Legal {
    fn clone_ref(&self, py: Python<'_>) -> Legal {
        Legal {
            moves: self.moves.clone(),
            objects: self
                .objects
                .as_ref()
                .map(|v| v.iter().map(|o| o.clone_ref(py)).collect()),
        }
    }
}

impl Position {
    pub fn new(variant: Py<Variant>, pos: damelab::Position) -> Position {
        let rules = variant.get().inner.rules.clone();
        Position {
            variant,
            game: damelab::Game::from_position(rules, pos),
            legal: vec![None],
        }
    }

    pub fn from_game(variant: Py<Variant>, game: damelab::Game) -> Position {
        let plies = game.moves().len();
        Position {
            variant,
            game,
            legal: (0..=plies).map(|_| None).collect(),
        }
    }

    /// Play a legal move (one [`Position::resolve`] gave).
    pub fn play(&mut self, mv: damelab::Move) {
        self.game.play(mv);
        self.legal.push(None);
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.game.rules
    }

    pub fn wrap(&self, mv: damelab::Move) -> Move {
        Move {
            mv,
            rules: self.game.rules.clone(),
        }
    }

    /// The current position's entry of the cache, filled.
    fn cached(&mut self) -> PyResult<&mut Legal> {
        let slot = self
            .legal
            .last_mut()
            .ok_or_else(|| plain::<DamelabError>("a position without a cache entry"))?;
        if slot.is_none() {
            let moves = self
                .game
                .try_legal_moves()
                .map_err(|e| raise::<DamelabError>(&e))?;
            *slot = Some(Legal {
                moves,
                objects: None,
            });
        }
        slot.as_mut()
            .ok_or_else(|| plain::<DamelabError>("a cache entry just filled"))
    }

    fn legal(&mut self) -> PyResult<&[damelab::Move]> {
        Ok(&self.cached()?.moves)
    }

    /// The legal move a `Move` or a move text names here, or `IllegalMoveError` with the
    /// explanation of why not.
    pub fn resolve(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<damelab::Move> {
        let text = if let Ok(m) = mv.cast::<Move>() {
            let m = m.get().mv;
            if let Some(l) = self.legal()?.iter().find(|l| l.same_move(&m)) {
                return Ok(*l);
            }
            move_to_string(self.rules(), &m)
        } else if let Ok(s) = mv.extract::<String>() {
            let rules = self.game.rules.clone();
            if let Ok(m) = parse_move(&rules, self.legal()?, &s) {
                return Ok(m);
            }
            s
        } else {
            return Err(PyTypeError::new_err("a move is a Move or its text"));
        };
        Err(self.illegal(&text))
    }

    fn illegal(&self, text: &str) -> PyErr {
        if self.game.result().is_some() {
            return plain::<IllegalMoveError>(format!(
                "`{text}` is not legal: the game is over ({})",
                self.game.describe_result()
            ));
        }
        match damelab::explain::explain(self.rules(), self.game.position(), text) {
            Ok(why) => plain::<IllegalMoveError>(why.trim_end().to_string()),
            Err(e) => raise::<IllegalMoveError>(&e),
        }
    }
}

#[pymethods]
impl Position {
    /// The variant this position is played under.
    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<Variant> {
        self.variant.clone_ref(py)
    }

    /// The legal moves, in the generator's order (`sorted(map(str, …))` is `damelab moves`'
    /// output); none once the game is over by repetition or a move-count rule.
    #[getter]
    fn legal_moves(&mut self, py: Python<'_>) -> PyResult<Vec<Py<Move>>> {
        let rules = self.game.rules.clone();
        let entry = self.cached()?;
        if entry.objects.is_none() {
            let objects = entry
                .moves
                .iter()
                .map(|&mv| {
                    Py::new(
                        py,
                        Move {
                            mv,
                            rules: rules.clone(),
                        },
                    )
                })
                .collect::<PyResult<Vec<_>>>()?;
            entry.objects = Some(objects);
        }
        let objects = entry.objects.as_deref().unwrap_or_default();
        Ok(objects.iter().map(|o| o.clone_ref(py)).collect())
    }

    /// Play a move: a `Move` or its text (any route the notation accepts). An illegal move
    /// raises `IllegalMoveError` with the `explain` text.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.resolve(mv)?;
        self.play(m);
        Ok(())
    }

    /// Take back the last move and return it (`IndexError` when there is none).
    fn pop(&mut self) -> PyResult<Move> {
        let m = self
            .game
            .undo()
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no moves"))?;
        self.legal.pop();
        Ok(self.wrap(m))
    }

    /// The legal move a text names (`IllegalMoveError` when none does).
    fn parse_move(&mut self, py: Python<'_>, text: &str) -> PyResult<Move> {
        let s = pyo3::types::PyString::new(py, text);
        let m = self.resolve(s.as_any())?;
        Ok(self.wrap(m))
    }

    /// The moves played since the position was set up, first first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.game.moves().iter().map(|&m| self.wrap(m)).collect()
    }

    /// The side to move: 0 or 1 (`variant.sides[turn]` is its name).
    #[getter]
    fn turn(&self) -> usize {
        self.game.position().turn()
    }

    fn is_game_over(&self) -> bool {
        self.game.result().is_some()
    }

    /// The result: the PDN token, the winner and the reason in words.
    fn result(&self) -> GameResult {
        let o = self.game.result();
        GameResult {
            token: damelab::pdn::result_token(&self.game),
            winner: o.and_then(|o| o.winner),
            over: o.is_some(),
            reason: self.game.describe_result(),
        }
    }

    /// The position as FEN (what `variant.position` reads).
    fn fen(&self) -> String {
        to_fen(self.rules(), self.game.position())
    }

    /// The FEN of the position the moves were played from.
    fn start_fen(&self) -> String {
        to_fen(self.rules(), self.game.start())
    }

    /// Why a move (a `Move` or a text) is legal or not, as the workbench's `explain` says it.
    fn explain(&self, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = match mv.cast::<Move>() {
            Ok(m) => move_to_string(self.rules(), &m.get().mv),
            Err(_) => mv.extract::<String>()?,
        };
        damelab::explain::explain(self.rules(), self.game.position(), &text)
            .map_err(|e| raise::<IllegalMoveError>(&e))
    }

    /// perft: the move sequences of `depth` moves from here (`divide`: per first move, as a dict
    /// from its text). Runs without the interpreter lock, on `threads` threads.
    #[pyo3(signature = (depth, threads = 1, divide = false))]
    fn perft<'py>(
        &self,
        py: Python<'py>,
        depth: usize,
        threads: usize,
        divide: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        use damelab::limits::{max_threads, MAX_PERFT_DEPTH};
        if depth > MAX_PERFT_DEPTH {
            return Err(plain::<DamelabError>(format!(
                "depth {depth} is beyond the limit of {MAX_PERFT_DEPTH}"
            )));
        }
        let threads = threads.clamp(1, max_threads());
        let rules = self.game.rules.clone();
        let pos = *self.game.position();
        let opts = GenOptions::default();
        let perr = |e: damelab::engine::PerftError| raise::<DamelabError>(&e);
        if divide {
            let rows = py
                .detach(|| {
                    if depth == 0 {
                        return Ok(Vec::new());
                    }
                    rules.divide_interruptible(&pos, depth, opts, threads, PerftLimits::default())
                })
                .map_err(perr)?;
            let d = pyo3::types::PyDict::new(py);
            for (m, n) in rows {
                d.set_item(move_to_string(&rules, &m), n)?;
            }
            return Ok(d.into_any());
        }
        let n = py
            .detach(|| {
                if depth == 0 {
                    return Ok(1);
                }
                rules.perft_interruptible(&pos, depth, opts, threads, PerftLimits::default())
            })
            .map_err(perr)?;
        Ok(n.into_pyobject(py)?.into_any())
    }

    /// The pieces: `(square index, side, kind)` for each, by square index.
    fn pieces(&self) -> Vec<(usize, usize, usize)> {
        let rules = self.rules();
        let pos = self.game.position();
        let mut v: Vec<(usize, usize, usize)> = rules
            .geo
            .numbered
            .iter()
            .enumerate()
            .filter_map(|(i, &sq)| pos.at(sq).map(|(side, kind)| (i, side, kind)))
            .collect();
        v.sort_unstable();
        v
    }

    /// The position as piece planes, `2 * kinds` planes of `height × width` bytes (0 or 1), as
    /// bytes: plane `k` holds `side`'s pieces of kind `k`, plane `kinds + k` the other side's;
    /// in a plane, row `rank` (0: the first side's home rank), column `file`.
    #[pyo3(signature = (side = 0))]
    fn planes<'py>(&self, py: Python<'py>, side: usize) -> Bound<'py, PyBytes> {
        let rules = self.rules();
        let kinds = rules.spec.pieces.len();
        let (w, h) = (rules.geo.width as usize, rules.geo.height as usize);
        let mut out = vec![0u8; 2 * kinds * w * h];
        let pos = self.game.position();
        for &sq in &rules.geo.numbered {
            if let Some((s, k)) = pos.at(sq) {
                let (f, r) = rules.geo.coord(sq);
                let plane = if s == side.min(1) { k } else { kinds + k };
                out[plane * w * h + r as usize * w + f as usize] = 1;
            }
        }
        PyBytes::new(py, &out)
    }

    /// The position as an SVG diagram (the last move marked; `flipped`: seen from side 1).
    #[pyo3(signature = (flipped = false))]
    fn svg(&self, flipped: bool) -> String {
        let moves = self.game.moves();
        let n = moves.len();
        let before = (n > 0).then(|| {
            let mut g = self.game.clone();
            g.undo();
            *g.position()
        });
        let last = before.as_ref().zip(moves.last());
        damelab::diagram::svg(
            self.rules(),
            self.game.position(),
            damelab::diagram::Marks { last, flipped },
        )
    }

    /// Jupyter shows a position as its diagram.
    fn _repr_svg_(&self) -> String {
        self.svg(false)
    }

    /// A copy with the same history.
    fn copy(&self, py: Python<'_>) -> Position {
        Position {
            variant: self.variant.clone_ref(py),
            game: self.game.clone(),
            legal: self
                .legal
                .iter()
                .map(|l| l.as_ref().map(|l| l.clone_ref(py)))
                .collect(),
        }
    }

    fn __copy__(&self, py: Python<'_>) -> Position {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Position {
        self.copy(py)
    }

    /// The board in letters (first side upper case), as the workbench prints it.
    fn __str__(&self) -> String {
        damelab::render::board_text(self.rules(), self.game.position(), self.game.last_move())
    }

    fn __repr__(&self) -> String {
        format!("<Position {:?}>", self.fen())
    }

    /// Set up another position (history cleared), from FEN.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        let pos = parse_fen(self.rules(), fen).map_err(|e| raise::<FenError>(e.as_ref()))?;
        self.game = damelab::Game::from_position(self.game.rules.clone(), pos);
        self.legal = vec![None];
        Ok(())
    }
}
