"""damelab: the draughts family from rules files, in Python.

Every rules file damelab reads (the bundled variants, ``damelab.bundled()``, or any ``.rules``
file) gives a :class:`Variant`; its positions have legal moves, push and pop, results, FEN,
explanations and SVG diagrams; PDN games are read and written; the engine analyses, plays
self-play runs and builds endgame tables; and :func:`env` / :func:`gym_env` are learning
environments (PettingZoo AEC, Gymnasium) for any of them. See docs/python.md.

    >>> import damelab
    >>> v = damelab.Variant.load("international")
    >>> p = v.start()
    >>> len(p.legal_moves)
    9
    >>> p.push("32-28")
    >>> p.fen()
    'B:W28,31,33-50:B1-20'
"""

from ._damelab import (
    Analysis,
    DamelabError,
    FenError,
    Game,
    GameResult,
    IllegalMoveError,
    Move,
    Position,
    RulesError,
    Variant,
    Variation,
    __version__,
    analyse,
    analyse_many,
    bundled,
    endgame,
    probe,
    read_pdn,
    selfplay,
    write_pdn,
)


def env(name_or_path="international", **kwargs):
    """The two-player PettingZoo AEC environment of a variant (a name, a path or a
    :class:`Variant`); keyword arguments as :class:`damelab.envs.DamelabAEC`."""
    from .envs import DamelabAEC

    return DamelabAEC(name_or_path, **kwargs)


def gym_env(name_or_path="international", **kwargs):
    """The single-agent Gymnasium environment of a variant: the other side is the engine or
    random play; keyword arguments as :class:`damelab.envs.DamelabGym`."""
    from .envs import DamelabGym

    return DamelabGym(name_or_path, **kwargs)


__all__ = [
    "Analysis",
    "DamelabError",
    "FenError",
    "Game",
    "GameResult",
    "IllegalMoveError",
    "Move",
    "Position",
    "RulesError",
    "Variant",
    "Variation",
    "__version__",
    "analyse",
    "analyse_many",
    "bundled",
    "endgame",
    "env",
    "gym_env",
    "probe",
    "read_pdn",
    "selfplay",
    "write_pdn",
]
