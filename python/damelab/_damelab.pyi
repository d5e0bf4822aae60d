"""Typed stubs of the Rust extension (python/src/): see docs/python.md."""

from os import PathLike
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, final, overload

__version__: str

class DamelabError(Exception):
    """Every error damelab raises; the message is the library's diagnostic, rendered."""

    text: str
    message: str
    line: Optional[int]
    column: Optional[int]

class RulesError(DamelabError):
    """A rules file that does not load: `text` is the checker's full diagnostic, `line` and
    `column` (from 1) where its first error points."""

class FenError(DamelabError):
    """A FEN that does not parse; the message names the offending part."""

class IllegalMoveError(DamelabError):
    """A move that is not legal here; the message is the `explain` text."""

def bundled() -> List[str]:
    """The bundled variants' names."""

@final
class Variant:
    @staticmethod
    def load(name_or_path: str) -> Variant:
        """A bundled variant by name, or a rules file by path."""
    @staticmethod
    def load_text(text: str, name: str = "variant") -> Variant:
        """A variant from the text of a rules file (`RulesError` when it has errors)."""
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def fingerprint(self) -> str: ...
    @property
    def sides(self) -> List[str]: ...
    @property
    def pieces(self) -> List[str]: ...
    @property
    def board_size(self) -> Tuple[int, int]:
        """(width, height) in squares."""
    @property
    def squares(self) -> List[str]:
        """The playable squares' names; `squares[i]` is square index `i`."""
    @property
    def coordinates(self) -> List[Tuple[int, int]]:
        """(file, rank) of each square index."""
    def describe(self) -> str:
        """The rules in plain English."""
    def start(self) -> Position: ...
    def position(self, fen: str) -> Position:
        """A position from FEN (`FenError` when it does not parse)."""

@final
class Move:
    """A legal move; `str(move)` is its text as `damelab moves` prints it."""

    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    @property
    def path(self) -> List[int]: ...
    @property
    def captured(self) -> List[int]: ...
    @property
    def is_capture(self) -> bool: ...
    @property
    def kind_before(self) -> int: ...
    @property
    def kind_after(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class GameResult:
    token: str
    winner: Optional[int]
    over: bool
    reason: str

@final
class Position:
    """A position and the moves played from where it was set up."""

    @property
    def variant(self) -> Variant: ...
    @property
    def legal_moves(self) -> List[Move]: ...
    @property
    def move_stack(self) -> List[Move]: ...
    @property
    def turn(self) -> int: ...
    def push(self, mv: Union[Move, str]) -> None:
        """Play a move (`IllegalMoveError` with the explanation when it is not legal)."""
    def pop(self) -> Move: ...
    def parse_move(self, text: str) -> Move: ...
    def is_game_over(self) -> bool: ...
    def result(self) -> GameResult: ...
    def fen(self) -> str: ...
    def start_fen(self) -> str: ...
    def set_fen(self, fen: str) -> None: ...
    def explain(self, mv: Union[Move, str]) -> str: ...
    @overload
    def perft(self, depth: int, threads: int = 1, divide: Literal[False] = False) -> int:
        """The move sequences of `depth` moves (without the interpreter lock)."""
    @overload
    def perft(self, depth: int, threads: int = 1, *, divide: Literal[True]) -> Dict[str, int]:
        """perft per first move, by its text."""
    def pieces(self) -> List[Tuple[int, int, int]]:
        """(square index, side, kind) of each piece."""
    def planes(self, side: int = 0) -> bytes:
        """2 * kinds planes of height x width bytes: `side`'s pieces by kind, then the other's."""
    def svg(self, flipped: bool = False) -> str: ...
    def _repr_svg_(self) -> str: ...
    def copy(self) -> Position: ...

@final
class Variation:
    @property
    def ply(self) -> int: ...
    @property
    def moves(self) -> List[Move]: ...
    @property
    def variations(self) -> List[Variation]: ...

@final
class Game:
    """A game record: moves, headers (PDN tags), comments and variations."""

    def __new__(cls, start: Union[Variant, Position]) -> Game: ...
    headers: Dict[str, str]
    comments: List[Tuple[int, str]]
    result: str
    def set_header(self, name: str, value: str) -> None: ...
    def add_comment(self, text: str, after: Optional[int] = None) -> None: ...
    @property
    def variations(self) -> List[Variation]: ...
    def add_variation(self, ply: int, moves: Sequence[Union[Move, str]]) -> None: ...
    @property
    def moves(self) -> List[Move]: ...
    @property
    def notes(self) -> List[str]: ...
    def push(self, mv: Union[Move, str]) -> None: ...
    def start(self) -> Position: ...
    def end(self) -> Position: ...
    def pdn(self) -> str: ...

def read_pdn(text: str, variant: Optional[Variant] = None) -> List[Game]: ...
def write_pdn(games: Sequence[Game]) -> str: ...

@final
class Analysis:
    best: Optional[Move]
    score: int
    score_text: str
    depth: int
    nodes: int
    pv: List[Move]
    stopped: bool

def analyse(
    position: Position,
    time: Optional[float] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    hash: int = 64,
    eval: Optional[str] = None,
) -> Analysis: ...
def selfplay(
    variant: Variant,
    games: int,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    random: bool = False,
    seed: int = 1,
    max_plies: int = 400,
    opening_plies: int = 4,
    threads: Optional[int] = None,
    eval: Optional[str] = None,
) -> Dict[str, Any]: ...
def endgame(
    variant: Variant,
    material: str,
    cache: Optional[Union[str, PathLike]] = None,
    no_cache: bool = False,
    max_memory: Optional[str] = None,
) -> Dict[str, Any]: ...
def probe(
    position: Position,
    cache: Optional[Union[str, PathLike]] = None,
) -> Optional[str]:
    """The endgame tables' value of `position` for the side to move (`"win in 21"`), read from
    the tables in `cache` (default: the cache `endgame` writes to); `None` when none holds it."""
    ...
def analyse_many(
    positions: Sequence[Position],
    time: Optional[float] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    hash: int = 16,
    eval: Optional[str] = None,
    threads: Optional[int] = None,
) -> List[Analysis]:
    """`analyse` of many positions of one variant, over `threads` threads, without the lock."""
