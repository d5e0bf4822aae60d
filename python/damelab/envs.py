"""Learning environments for any rules file: a PettingZoo AEC environment (two agents) and a
Gymnasium single-agent one (the other side played by the engine or at random).

Action encoding (fixed per board): with ``n = len(variant.squares)`` playable squares, indexed
in the board's numbering from 0 (square number ``i + 1`` on a numbered board), a move from
square index ``f`` to square index ``t`` is action ``f * n + t``; the action space is
``Discrete(n * n)``. When several legal moves share origin and destination (captures of
different pieces ending on the same square, a choice of promotion), the action stands for the
first of them in the order of their text (``min(…, key=str)``); the others are not reachable
through the action space. The action mask marks the actions of the legal moves.

Observation: a dict with ``"observation"``, the piece planes of the position seen by the agent,
``int8`` of shape ``(2 * kinds, height, width)`` (planes ``0..kinds`` the agent's pieces by
kind, then the opponent's; row ``rank`` from the first side's home rank, column ``file``), and
``"action_mask"``, ``int8`` of shape ``(n * n,)``.

Reward: the game's result at its end, +1 for the winner, -1 for the loser, 0 for a draw (and
for a game cut at ``max_plies``, which is a truncation).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces

from ._damelab import Position, Variant, analyse


def _variant(v: Union[str, Variant]) -> Variant:
    return v if isinstance(v, Variant) else Variant.load(v)


class ActionEncoding:
    """The fixed action encoding of a board: ``from_index * n + to_index``."""

    def __init__(self, variant: Variant):
        self.variant = variant
        self.n = len(variant.squares)
        self.size = self.n * self.n

    def encode(self, move) -> int:
        """The action of a move."""
        return move.from_square * self.n + move.to_square

    def decode(self, action: int):
        """The (from, to) square indices of an action."""
        return divmod(int(action), self.n)

    def legal(self, position: Position) -> Dict[int, Any]:
        """Each action of the position's legal moves, and the move it stands for."""
        out: Dict[int, Any] = {}
        names: Dict[int, str] = {}
        for m in position.legal_moves:
            a = m.from_square * self.n + m.to_square
            if a in out:
                s = str(m)
                if s < names[a]:
                    out[a], names[a] = m, s
            else:
                out[a], names[a] = m, str(m)
        return out

    def mask(self, actions) -> np.ndarray:
        m = np.zeros(self.size, dtype=np.int8)
        for a in actions:
            m[a] = 1
        return m


def _planes(position: Position, side: int, shape) -> np.ndarray:
    return np.frombuffer(position.planes(side), dtype=np.int8).reshape(shape).copy()


def _spaces(variant: Variant, enc: ActionEncoding):
    w, h = variant.board_size
    shape = (2 * len(variant.pieces), h, w)
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0, 1, shape=shape, dtype=np.int8),
            "action_mask": spaces.Box(0, 1, shape=(enc.size,), dtype=np.int8),
        }
    )
    return shape, obs, spaces.Discrete(enc.size)


try:  # PettingZoo is optional: the Gymnasium environment does not need it.
    from pettingzoo import AECEnv as _AECBase
except ImportError:  # pragma: no cover - exercised only without pettingzoo
    _AECBase = object


class DamelabAEC(_AECBase):
    """Two agents, ``player_0`` (the variant's side 0) and ``player_1`` (side 1), take turns;
    ``agent_selection`` is the side to move. ``fen`` sets up another start; ``max_plies`` cuts
    a game (a truncation)."""

    metadata = {"render_modes": ["ansi", "svg"], "name": "damelab_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: Union[str, Variant] = "international",
        fen: Optional[str] = None,
        max_plies: int = 400,
        render_mode: Optional[str] = None,
    ):
        if _AECBase is object:
            raise ImportError("the AEC environment needs pettingzoo: pip install pettingzoo")
        super().__init__()
        self.variant = _variant(variant)
        self.fen = fen
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.encoding = ActionEncoding(self.variant)
        self._shape, obs, act = _spaces(self.variant, self.encoding)
        self.possible_agents = ["player_0", "player_1"]
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.position: Optional[Position] = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _start(self) -> Position:
        return self.variant.position(self.fen) if self.fen else self.variant.start()

    def reset(self, seed=None, options=None):
        self.position = self._start()
        self.plies = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._moves = self.encoding.legal(self.position)
        self.agent_selection = self.possible_agents[self.position.turn]
        self.infos = {a: {} for a in self.agents}
        self._set_masks()

    def _set_masks(self):
        for a in self.agents:
            mine = self.possible_agents.index(a) == self.position.turn
            self.infos[a] = {"action_mask": self.encoding.mask(self._moves if mine else ())}

    def observe(self, agent):
        side = self.possible_agents.index(agent)
        mine = side == self.position.turn and not self.position.is_game_over()
        return {
            "observation": _planes(self.position, side, self._shape),
            "action_mask": self.encoding.mask(self._moves if mine else ()),
        }

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._moves.get(int(action))
        if move is None:
            raise ValueError(f"action {action} is not a legal move here (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.position.push(move)
        self.plies += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.position.is_game_over():
            winner = self.position.result().winner
            if winner is not None:
                self.rewards[self.possible_agents[winner]] = 1.0
                self.rewards[self.possible_agents[1 - winner]] = -1.0
            self.terminations = {a: True for a in self.agents}
            self._moves = {}
        elif self.plies >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
            self._moves = {}
        else:
            self._moves = self.encoding.legal(self.position)
        self.agent_selection = self.possible_agents[self.position.turn]
        self._set_masks()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "svg":
            return self.position.svg()
        return str(self.position)

    def close(self):
        pass


import gymnasium as _gym  # noqa: E402


class DamelabGym(_gym.Env):
    """The agent plays side ``agent_side`` (0 or 1); the other side is the engine
    (``opponent="engine"``, at ``depth`` plies or ``nodes`` nodes a move) or uniformly random
    legal moves (``opponent="random"``, seeded by ``reset(seed=…)``). An action that is not a
    legal move ends the episode with reward -1 (``info["illegal"]``)."""

    metadata = {"render_modes": ["ansi", "svg"], "render_fps": 1}

    def __init__(
        self,
        variant: Union[str, Variant] = "international",
        opponent: str = "random",
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        agent_side: int = 0,
        fen: Optional[str] = None,
        max_plies: int = 400,
        render_mode: Optional[str] = None,
    ):
        if opponent not in ("random", "engine"):
            raise ValueError("opponent is 'random' or 'engine'")
        self.variant = _variant(variant)
        self.opponent = opponent
        self.depth = depth if depth is not None or nodes is not None else 2
        self.nodes = nodes
        self.agent_side = agent_side
        self.fen = fen
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.encoding = ActionEncoding(self.variant)
        self._shape, self.observation_space, self.action_space = _spaces(
            self.variant, self.encoding
        )
        self.position: Optional[Position] = None

    def _obs(self):
        over = self.position.is_game_over() or self.plies >= self.max_plies
        mine = self.position.turn == self.agent_side and not over
        self._moves = self.encoding.legal(self.position) if mine else {}
        return {
            "observation": _planes(self.position, self.agent_side, self._shape),
            "action_mask": self.encoding.mask(self._moves),
        }

    def _opponent_move(self):
        if self.opponent == "random":
            moves = self.position.legal_moves
            return moves[int(self.np_random.integers(len(moves)))]
        return analyse(self.position, depth=self.depth, nodes=self.nodes, hash=4).best

    def _reward(self) -> float:
        winner = self.position.result().winner
        if winner is None:
            return 0.0
        return 1.0 if winner == self.agent_side else -1.0

    def _reply(self):
        """The opponent's moves until it is the agent's turn or the game is over."""
        while (
            not self.position.is_game_over()
            and self.position.turn != self.agent_side
            and self.plies < self.max_plies
        ):
            self.position.push(self._opponent_move())
            self.plies += 1

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.position = self.variant.position(self.fen) if self.fen else self.variant.start()
        self.plies = 0
        self._reply()
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action):
        move = self._moves.get(int(action))
        if move is None:
            obs = self._obs()
            return obs, -1.0, True, False, {"action_mask": obs["action_mask"], "illegal": True}
        self.position.push(move)
        self.plies += 1
        self._reply()
        terminated = self.position.is_game_over()
        truncated = not terminated and self.plies >= self.max_plies
        reward = self._reward() if terminated else 0.0
        obs = self._obs()
        info = {"action_mask": obs["action_mask"], "result": self.position.result().token}
        if self.render_mode == "ansi":
            self.render()
        return obs, reward, terminated, truncated, info

    def render(self):
        if self.render_mode == "svg":
            return self.position.svg()
        if self.render_mode == "ansi":
            return str(self.position)
        return None
